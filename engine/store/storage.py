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


class AtomicJSONStorage(Storage):
    """TinyDB storage that replaces its file atomically and keeps the data in memory.

    ``read`` parses the file once and then serves the cached data (this process holds the
    campaign lock, so nobody else writes the file); ``write`` serialises to a string first, then
    writes a temporary file, fsyncs it, renames it over the file and fsyncs the folder. With
    ``backup`` set, the previous file is kept under that name before each rewrite.
    """

    def __init__(self, path: str | os.PathLike[str], backup: str | None = None) -> None:
        super().__init__()
        self.path = Path(path)
        self.backup = Path(backup) if backup is not None else None
        self._data: dict[str, Any] | None = None

    def read(self) -> dict[str, Any] | None:
        """The database content (None for a file that does not exist yet)."""
        if self._data is None:
            self._data = _read_tinydb_file(self.path)
        return self._data

    def write(self, data: dict[str, Any]) -> None:
        """Atomically replace the file with ``data``."""
        try:
            text = json.dumps(data, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
            _atomic_write(self.path, text, self.backup)
        except BaseException:
            self._data = None  # re-read from disk next time: the file is the truth
            raise
        self._data = data


def _open_db(path: Path, backup: Path | None = None) -> TinyDB:
    """A TinyDB on ``path`` with the atomic storage."""
    return TinyDB(
        str(path), storage=AtomicJSONStorage, backup=str(backup) if backup is not None else None
    )


def _storage(db: TinyDB) -> AtomicJSONStorage:
    """The atomic storage under ``db``."""
    storage = db.storage
    assert isinstance(storage, AtomicJSONStorage)
    return storage
