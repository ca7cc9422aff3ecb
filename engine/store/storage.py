"""The TinyDB storage every save file goes through: atomic writes, data cached in memory."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from tinydb import TinyDB
from tinydb.storages import Storage

from engine.store.checks import _read_tinydb_file
from engine.store.files import _atomic_write
from engine.store.layout import TABLE
from engine.store.sync import _Syncer


def _dumps(value: Any) -> str:
    """``value`` as the compact JSON every save file holds."""
    return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))


class AtomicJSONStorage(Storage):
    """TinyDB storage that replaces its file atomically and keeps the data in memory.

    ``read`` parses the file once and then serves the cached data (this process holds the
    campaign lock, so nobody else writes the file); ``write`` serialises to a string first, then
    writes a temporary file, fsyncs it, renames it over the file and fsyncs the folder. With
    ``backup`` set, the previous file is kept under that name before the next rewrite (the
    store sets ``keep_backup`` again when it wants a fresh one).

    With a ``syncer`` the two fsyncs are left to it (the background thread of ``sync``): the
    file is renamed into place before ``write`` returns all the same. With ``append_only`` (a
    log chunk: documents are added and removed, never changed) each document is encoded once
    and its text kept, so a write encodes only the documents new since the last.
    """

    def __init__(self, path: str | os.PathLike[str], backup: str | None = None,
                 syncer: _Syncer | None = None, append_only: bool = False) -> None:
        super().__init__()
        self.path = Path(path)
        self.backup = Path(backup) if backup is not None else None
        self.keep_backup = True
        """Whether the next write keeps the previous file as ``backup`` (then cleared)."""
        self.syncer = syncer
        self.append_only = append_only
        self._data: dict[str, Any] | None = None
        self._encoded: dict[str, str] = {}  # append_only: doc id -> the doc's JSON

    def read(self) -> dict[str, Any] | None:
        """The database content (None for a file that does not exist yet)."""
        if self._data is None:
            self._data = _read_tinydb_file(self.path)
        return self._data

    def write(self, data: dict[str, Any]) -> None:
        """Atomically replace the file with ``data``."""
        try:
            text = self._encode(data)
            backup = self.backup if self.keep_backup else None
            if self.syncer is None:
                _atomic_write(self.path, text, backup)
            else:
                _atomic_write(self.path, text, backup, durable=False)
                self.syncer.mark([self.path], [self.path.parent])
        except BaseException:
            self._data = None  # re-read from disk next time: the file is the truth
            self._encoded = {}
            raise
        self.keep_backup = False
        self._data = data

    def _encode(self, data: dict[str, Any]) -> str:
        """``data`` as JSON text; for a log chunk, from the kept text of the documents already
        encoded (the same text ``json.dumps`` gives, documents in the same order)."""
        table = data.get(TABLE)
        if not self.append_only or len(data) != 1 or not isinstance(table, dict):
            return _dumps(data)
        known = self._encoded
        if len(known) < len(table):
            for key, doc in table.items():
                if key not in known:
                    known[key] = f"{_dumps(key)}:{_dumps(doc)}"
        if list(known) != list(table):  # documents removed: keep the others' text, in order
            known = {key: known.get(key) or f"{_dumps(key)}:{_dumps(doc)}"
                     for key, doc in table.items()}
        self._encoded = known
        return f'{{"{TABLE}":{{{",".join(known.values())}}}}}'


def _open_db(path: Path, backup: Path | None = None, syncer: _Syncer | None = None,
             append_only: bool = False) -> TinyDB:
    """A TinyDB on ``path`` with the atomic storage (fsyncs left to ``syncer`` if given)."""
    return TinyDB(
        str(path), storage=AtomicJSONStorage, backup=str(backup) if backup is not None else None,
        syncer=syncer, append_only=append_only,
    )


def _storage(db: TinyDB) -> AtomicJSONStorage:
    """The atomic storage under ``db``."""
    storage = db.storage
    assert isinstance(storage, AtomicJSONStorage)
    return storage
