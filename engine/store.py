"""Campaign persistence on TinyDB files (the only module that imports tinydb).

One folder per campaign under the save folder::

    saves/<campaign-id>/
        .lock               held with flock while a process has the campaign open (holds its pid)
        campaign.json       TinyDB file, one document: {"format", "meta", "state"}
        campaign.json.bak   the previous good campaign.json (kept before every rewrite)
        log/000001.json     TinyDB file: document 1 = {"base": state}, then the chunk's events
        log/000002.json     ...

``campaign.json`` is rewritten after every action, so resuming reads one small file and never
replays the history. The log is split in chunks of at most ``CHUNK_EVENTS`` events (a chunk is
only started between two saves, so one save's events stay together); each chunk starts with the
state as it was before its first event, so undo replays one chunk at most and an autosave costs
the same after 10,000 events as on day one.

Every write goes through :class:`AtomicJSONStorage` (temp file, fsync, ``os.replace``, fsync of
the folder). A save appends the events to the log first and writes the state second; on open,
logged events newer than the state's ``event_no`` (a crash between the two writes) are dropped.
Undo writes the state first and trims the log second, so the same repair covers it.

Meta keys read by :func:`list_campaigns`: ``name``, ``system``, ``hero``, ``scene``,
``last_played`` (set by the store, ISO 8601 in UTC).
"""

from __future__ import annotations

import contextlib
import copy
import errno
import fcntl
import json
import os
import re
import secrets
import shutil
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Any, ClassVar, TypeGuard

from tinydb import TinyDB
from tinydb.storages import Storage

from engine.errors import SaveError

__all__ = [
    "CHUNK_EVENTS",
    "AtomicJSONStorage",
    "CampaignStore",
    "CampaignSummary",
    "default_saves_dir",
    "delete_campaign",
    "list_campaigns",
    "slugify",
]

CHUNK_EVENTS = 200
"""A new log chunk is started before a save once the current chunk holds this many events."""

FORMAT = 1
"""Version of the campaign folder layout, stored in campaign.json."""

CAMPAIGN_FILE = "campaign.json"
BACKUP_FILE = "campaign.json.bak"
LOG_DIR = "log"
LOCK_FILE = ".lock"
TABLE = "_default"
MAX_ID_LENGTH = 64

_TMP_PREFIX = ".~"
_TMP_SUFFIX = ".tmp"
_ID_RE = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
_CHUNK_RE = re.compile(r"[0-9]{6,}\.json")
_DOC_ID_RE = re.compile(r"[1-9][0-9]*")


# --------------------------------------------------------------------------- small helpers


def default_saves_dir() -> Path:
    """The save folder: ``$SIDEKICK_SAVES`` if set, else ``./saves``."""
    env = os.environ.get("SIDEKICK_SAVES")
    if env:
        return Path(env).expanduser()
    return Path.cwd() / "saves"


def slugify(name: str) -> str:
    """A campaign id from a display name: ``"The Night Shift!"`` -> ``"the-night-shift"``."""
    text = unicodedata.normalize("NFKD", name)
    text = text.encode("ascii", "ignore").decode("ascii").lower()
    slug = re.sub(r"[^a-z0-9]+", "-", text).strip("-")
    slug = slug[:MAX_ID_LENGTH].rstrip("-")
    return slug or "campaign"


def _check_id(campaign_id: object) -> str:
    """Return ``campaign_id`` if it is a valid slug; SaveError otherwise (blocks path traversal)."""
    if (
        not isinstance(campaign_id, str)
        or len(campaign_id) > MAX_ID_LENGTH
        or not _ID_RE.fullmatch(campaign_id)
    ):
        raise SaveError(
            f"Invalid campaign id {campaign_id!r}: use lowercase letters, digits and single "
            f"hyphens (at most {MAX_ID_LENGTH} characters), e.g. 'the-night-shift'."
        )
    return campaign_id


def _now() -> str:
    """The current time as a fixed-width ISO 8601 string in UTC (sorts as text)."""
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def _is_int(value: object) -> TypeGuard[int]:
    """True for a real int (bool excluded)."""
    return type(value) is int


def _type_name(value: object) -> str:
    """The JSON name of a value's type, for error messages."""
    names = {dict: "an object", list: "a list", str: "a string", bool: "a boolean",
             int: "an integer", float: "a number", type(None): "null"}
    return names.get(type(value), type(value).__name__)


def _plain(value: Any, what: str) -> Any:
    """A deep copy of ``value`` as plain JSON data; SaveError if it is not JSON-serialisable."""
    try:
        return json.loads(json.dumps(value, allow_nan=False))
    except (TypeError, ValueError) as exc:
        raise SaveError(f"Cannot save: {what} is not plain JSON data ({exc}).") from exc


def _fsync_dir(folder: Path) -> None:
    """Flush a folder's entries (renames, new and removed files) to disk."""
    fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _tmp_path(path: Path) -> Path:
    """A fresh temporary file name beside ``path`` (removed on open if left over)."""
    return path.with_name(f"{_TMP_PREFIX}{path.name}.{secrets.token_hex(4)}{_TMP_SUFFIX}")


def _write_new_file(path: Path, data: bytes) -> None:
    """Create ``path`` (must not exist) with ``data``, flushed and fsynced."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        view = memoryview(data)
        while view:
            written = os.write(fd, view)
            view = view[written:]
        os.fsync(fd)
    finally:
        os.close(fd)


def _backup(path: Path, backup: Path) -> None:
    """Make ``backup`` a copy of ``path`` atomically (a hard link when the filesystem allows)."""
    tmp = _tmp_path(backup)
    try:
        try:
            os.link(path, tmp)
        except OSError:
            _write_new_file(tmp, path.read_bytes())
        os.replace(tmp, backup)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise


def _atomic_write(path: Path, text: str, backup: Path | None = None) -> None:
    """Replace ``path`` with ``text`` atomically; first link the old file to ``backup`` if given.

    The new content goes to a temporary file in the same folder, is fsynced, then renamed over
    ``path``; the folder is fsynced last. The old file is never truncated or written to.
    """
    tmp = _tmp_path(path)
    try:
        _write_new_file(tmp, text.encode("utf-8"))
        if backup is not None and path.exists():
            _backup(path, backup)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    _fsync_dir(path.parent)


def _clean_temp_files(folder: Path) -> None:
    """Remove temporary files left by an interrupted write."""
    if not folder.is_dir():
        return
    for entry in folder.iterdir():
        if entry.name.startswith(_TMP_PREFIX) and entry.name.endswith(_TMP_SUFFIX):
            with contextlib.suppress(FileNotFoundError):
                entry.unlink()


def _read_tinydb_file(path: Path) -> dict[str, Any] | None:
    """Parse a TinyDB JSON file and check its shape; None if it does not exist.

    Raises SaveError naming the file for anything else: unreadable, empty, not JSON, or not
    ``{table: {doc_id: {...}}}``.
    """
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise SaveError(f"Cannot read {path}: {exc.strerror or exc}.") from exc
    if not raw.strip():
        raise SaveError(f"{path} is damaged: the file is empty.")
    try:
        data = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise SaveError(f"{path} is damaged: it is not UTF-8 text ({exc.reason}).") from exc
    except json.JSONDecodeError as exc:
        raise SaveError(
            f"{path} is damaged: invalid JSON at line {exc.lineno}, column {exc.colno} "
            f"({exc.msg})."
        ) from exc
    if not isinstance(data, dict):
        raise SaveError(f"{path} is damaged: expected a JSON object, found {_type_name(data)}.")
    for table_name, table in data.items():
        if not isinstance(table, dict):
            raise SaveError(
                f"{path} is damaged: table {table_name!r} should be an object, "
                f"found {_type_name(table)}."
            )
        for doc_id, doc in table.items():
            if not _DOC_ID_RE.fullmatch(doc_id):
                raise SaveError(
                    f"{path} is damaged: table {table_name!r} has a bad document id {doc_id!r}."
                )
            if not isinstance(doc, dict):
                raise SaveError(
                    f"{path} is damaged: document {table_name}/{doc_id} should be an object, "
                    f"found {_type_name(doc)}."
                )
    return data


# --------------------------------------------------------------------------- storage


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


# --------------------------------------------------------------------------- file contents


def _check_campaign(path: Path, data: dict[str, Any] | None) -> dict[str, Any]:
    """The campaign document of a parsed campaign.json; SaveError naming what is wrong."""
    if data is None:
        raise SaveError(f"{path} is missing.")
    table = data.get(TABLE)
    if not isinstance(table, dict) or "1" not in table:
        raise SaveError(f"{path} is damaged: it has no campaign record (table {TABLE!r}, doc 1).")
    doc = table["1"]
    fmt = doc.get("format")
    if not _is_int(fmt):
        raise SaveError(f"{path} is damaged: 'format' should be an integer, found "
                        f"{_type_name(fmt)}.")
    if fmt > FORMAT:
        raise SaveError(f"{path} was written by a newer version of Sidekick (format {fmt}; "
                        f"this version reads format {FORMAT}).")
    if fmt != FORMAT:
        raise SaveError(f"{path} is damaged: unknown format {fmt}.")
    for key in ("meta", "state"):
        if key not in doc:
            raise SaveError(f"{path} is damaged: the key {key!r} is missing.")
        if not isinstance(doc[key], dict):
            raise SaveError(f"{path} is damaged: {key!r} should be an object, found "
                            f"{_type_name(doc[key])}.")
    _check_state(path, doc["state"], "state")
    return doc


def _check_state(path: Path, state: dict[str, Any], where: str) -> None:
    """A stored state needs a non-negative integer ``event_no``."""
    event_no = state.get("event_no")
    if not _is_int(event_no) or event_no < 0:
        found = "missing" if "event_no" not in state else f"{event_no!r}"
        raise SaveError(f"{path} is damaged: {where}.event_no should be a non-negative integer, "
                        f"found {found}.")


@dataclass
class _Chunk:
    """One log chunk as read: its number, base state and events (with their TinyDB doc ids)."""

    no: int
    path: Path
    base: dict[str, Any]
    events: list[tuple[int, dict[str, Any]]]

    def last_n(self) -> int:
        """Number of the chunk's last event, or of its base when it has none."""
        return self.events[-1][1]["n"] if self.events else self.base["event_no"]


def _check_chunk(no: int, path: Path, data: dict[str, Any] | None) -> _Chunk:
    """A parsed log chunk, validated; SaveError naming the file and the problem."""
    if data is None:
        raise SaveError(f"{path} is missing.")
    table = data.get(TABLE)
    if not isinstance(table, dict) or "1" not in table:
        raise SaveError(f"{path} is damaged: it has no base state (table {TABLE!r}, doc 1).")
    base = table["1"].get("base")
    if not isinstance(base, dict):
        raise SaveError(f"{path} is damaged: doc 1 'base' should be an object, found "
                        f"{_type_name(base)}.")
    _check_state(path, base, "base")
    events: list[tuple[int, dict[str, Any]]] = []
    prev_n, prev_a = base["event_no"], None
    for doc_id in sorted(int(key) for key in table if key != "1"):
        event = table[str(doc_id)]
        n, a = event.get("n"), event.get("a")
        if not _is_int(n) or not _is_int(a):
            raise SaveError(f"{path} is damaged: event doc {doc_id} needs integer 'n' and 'a', "
                            f"found n={n!r}, a={a!r}.")
        if n <= prev_n:
            raise SaveError(f"{path} is damaged: event numbers must increase, but event "
                            f"n={n} comes after n={prev_n}.")
        if prev_a is not None and a < prev_a:
            raise SaveError(f"{path} is damaged: action numbers must not decrease, but event "
                            f"n={n} has a={a} after a={prev_a}.")
        events.append((doc_id, event))
        prev_n, prev_a = n, a
    return _Chunk(no, path, base, events)


def _chunk_name(no: int) -> str:
    """File name of log chunk ``no``."""
    return f"{no:06d}.json"


# --------------------------------------------------------------------------- lock


def _acquire_lock(folder: Path, campaign_id: str) -> int:
    """Take the campaign's exclusive lock; return the fd to keep open. SaveError if held."""
    path = folder / LOCK_FILE
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)
    except OSError as exc:
        raise SaveError(f"Cannot open the lock file {path}: {exc.strerror or exc}.") from exc
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as exc:
        try:
            holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
        except OSError:
            holder = ""
        os.close(fd)
        if exc.errno not in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
            raise SaveError(f"Cannot lock {path}: {exc.strerror or exc}.") from exc
        if holder == str(os.getpid()):
            raise SaveError(f"Campaign '{campaign_id}' is already open in this Sidekick "
                            f"process. Close it first.") from exc
        who = f" (pid {holder})" if holder.isdigit() else ""
        raise SaveError(f"Campaign '{campaign_id}' is open in another Sidekick process{who}. "
                        f"Close it there first.") from exc
    try:
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode("ascii"), 0)
    except OSError:
        pass  # the pid is only informative; the flock is what counts
    return fd


def _release_lock(fd: int) -> None:
    """Release a lock taken by :func:`_acquire_lock`."""
    with contextlib.suppress(OSError):
        fcntl.flock(fd, fcntl.LOCK_UN)
    with contextlib.suppress(OSError):
        os.close(fd)


def _campaign_dir(saves_dir: Path, campaign_id: str) -> Path:
    """The folder of campaign ``campaign_id`` (id validated)."""
    return Path(saves_dir) / _check_id(campaign_id)


# --------------------------------------------------------------------------- listing


@dataclass(frozen=True)
class CampaignSummary:
    """One line of the campaign list; ``error`` is set when the folder is damaged."""

    id: str
    name: str
    system: str
    hero: str
    scene: str
    last_played: str
    error: str | None = None
    system_name: str = ""


def _text(value: object) -> str:
    """A meta value as display text."""
    if value is None:
        return ""
    return value if isinstance(value, str) else str(value)


def _summary(folder: Path) -> CampaignSummary:
    """The summary of one campaign folder, read without taking its lock."""
    meta: dict[str, Any] = {}
    error: str | None = None
    path = folder / CAMPAIGN_FILE
    try:
        meta = _check_campaign(path, _read_tinydb_file(path))["meta"]
    except SaveError as exc:
        error = exc.message
        with contextlib.suppress(SaveError):
            backup = folder / BACKUP_FILE
            meta = _check_campaign(backup, _read_tinydb_file(backup))["meta"]
            error += f" A previous good copy is in {backup}."
    return CampaignSummary(
        id=folder.name,
        name=_text(meta.get("name")) or folder.name,
        system=_text(meta.get("system")),
        hero=_text(meta.get("hero")),
        scene=_text(meta.get("scene")),
        last_played=_text(meta.get("last_played")),
        error=error,
        system_name=_text(meta.get("system_name")),
    )


def _played_key(summary: CampaignSummary) -> datetime:
    """Sort key: the last_played time (unparsable or missing sorts oldest)."""
    try:
        when = datetime.fromisoformat(summary.last_played)
    except ValueError:
        return datetime.min.replace(tzinfo=UTC)
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)


def list_campaigns(saves_dir: Path) -> list[CampaignSummary]:
    """Every campaign under ``saves_dir``, most recently played first.

    A damaged campaign is listed with ``error`` set (and what could be read) instead of raising.
    """
    saves_dir = Path(saves_dir)
    if not saves_dir.is_dir():
        return []
    summaries = [
        _summary(entry)
        for entry in saves_dir.iterdir()
        if entry.is_dir() and _ID_RE.fullmatch(entry.name) and len(entry.name) <= MAX_ID_LENGTH
    ]
    summaries.sort(key=lambda s: s.id)
    summaries.sort(key=_played_key, reverse=True)
    return summaries


def delete_campaign(saves_dir: Path, campaign_id: str) -> None:
    """Delete a campaign folder; SaveError if it is missing or open in a process."""
    saves_dir = Path(saves_dir)
    folder = _campaign_dir(saves_dir, campaign_id)
    if not folder.is_dir():
        raise SaveError(f"No campaign '{campaign_id}' in {saves_dir}.")
    fd = _acquire_lock(folder, campaign_id)
    trash = saves_dir / f"{_TMP_PREFIX}deleted-{campaign_id}-{secrets.token_hex(4)}"
    try:
        os.rename(folder, trash)  # the campaign disappears at once, then the files go
        _fsync_dir(saves_dir)
    except OSError as exc:
        raise SaveError(f"Cannot delete {folder}: {exc.strerror or exc}.") from exc
    finally:
        _release_lock(fd)
    try:
        shutil.rmtree(trash)
    except OSError as exc:
        raise SaveError(f"Campaign '{campaign_id}' was deleted but its files could not all be "
                        f"removed from {trash}: {exc.strerror or exc}.") from exc


# --------------------------------------------------------------------------- the store


class CampaignStore:
    """One open campaign folder. Holds an exclusive lock while open.

    Build it with :meth:`create` or :meth:`open`; close it with :meth:`close` or a ``with``
    block. Everything in and out is plain JSON data, copied at the boundary.
    """

    chunk_events: ClassVar[int] = CHUNK_EVENTS
    """Events per log chunk before a new one starts (a class attribute so tests can shrink it)."""

    def __init__(self, folder: Path, campaign_id: str, lock_fd: int) -> None:
        """Internal: use :meth:`create` or :meth:`open`."""
        self.id = campaign_id
        self.path = folder
        self._log_dir = folder / LOG_DIR
        self._lock_fd: int | None = lock_fd
        self._stale = True  # caches must be (re)loaded from disk before use
        self._campaign_db: TinyDB | None = None
        self._chunk_db: TinyDB | None = None
        self._meta: dict[str, Any] = {}
        self._state: dict[str, Any] = {}
        self._chunk_no = 0  # number of the last (current) chunk
        self._chunk_count = 0  # events in the current chunk
        self._chunk_base: dict[str, Any] = {}
        self._last_n = 0  # n of the last logged event (== state["event_no"])
        self._last_a: int | None = None  # a of the last logged event, when known

    # ----------------------------------------------------------------- opening

    @classmethod
    def create(
        cls, saves_dir: Path, campaign_id: str, meta: dict[str, Any], state: dict[str, Any]
    ) -> CampaignStore:
        """Create ``saves_dir/campaign_id/`` with its first state and open it.

        SaveError if the campaign already exists or the data is not plain JSON.
        """
        saves_dir = Path(saves_dir)
        folder = _campaign_dir(saves_dir, campaign_id)
        if not isinstance(meta, dict) or not isinstance(state, dict):
            raise SaveError("Cannot create a campaign: meta and state must be dicts.")
        meta_n = _plain(meta, "the campaign meta")
        state_n = _plain(state, "the campaign state")
        event_no = state_n.get("event_no")
        if not _is_int(event_no) or event_no < 0:
            raise SaveError(f"Cannot create a campaign: state['event_no'] must be a "
                            f"non-negative integer, got {event_no!r}.")
        meta_n["last_played"] = _now()
        try:
            saves_dir.mkdir(parents=True, exist_ok=True)
            folder.mkdir()
        except FileExistsError as exc:
            raise SaveError(f"A campaign '{campaign_id}' already exists in {saves_dir}.") from exc
        except OSError as exc:
            raise SaveError(f"Cannot create {folder}: {exc.strerror or exc}.") from exc
        fd: int | None = None
        try:
            fd = _acquire_lock(folder, campaign_id)
            (folder / LOG_DIR).mkdir()
            _fsync_dir(folder)
            chunk = _open_db(folder / LOG_DIR / _chunk_name(1))
            chunk.table(TABLE).insert({"base": state_n})
            campaign = _open_db(folder / CAMPAIGN_FILE, folder / BACKUP_FILE)
            campaign.table(TABLE).insert({"format": FORMAT, "meta": meta_n, "state": state_n})
            _fsync_dir(saves_dir)
            store = cls(folder, campaign_id, fd)
            store._load()
            return store
        except BaseException as exc:
            if fd is not None:
                _release_lock(fd)
            shutil.rmtree(folder, ignore_errors=True)  # our own half-made folder
            if isinstance(exc, OSError):
                raise SaveError(f"Cannot create {folder}: {exc.strerror or exc}.") from exc
            raise

    @classmethod
    def open(cls, saves_dir: Path, campaign_id: str) -> CampaignStore:
        """Open an existing campaign and lock it.

        SaveError with a clear message if it is missing, locked by another process or damaged.
        """
        saves_dir = Path(saves_dir)
        folder = _campaign_dir(saves_dir, campaign_id)
        if not folder.is_dir():
            raise SaveError(f"No campaign '{campaign_id}' in {saves_dir}.")
        fd = _acquire_lock(folder, campaign_id)
        store = cls(folder, campaign_id, fd)
        try:
            store._load()
        except BaseException:
            store.close()
            raise
        return store

    def _load(self) -> None:
        """(Re)load campaign.json and the current log chunk from disk, repairing a torn save."""
        self._stale = True
        self._campaign_db = self._chunk_db = None
        try:
            _clean_temp_files(self.path)
            _clean_temp_files(self._log_dir)
            self._load_campaign()
            self._load_log()
        except OSError as exc:
            raise SaveError(f"Cannot read campaign '{self.id}' in {self.path}: "
                            f"{exc.strerror or exc}.") from exc
        self._stale = False

    def _load_campaign(self) -> None:
        """Read and check campaign.json; point at the .bak if it is damaged and the .bak is good."""
        path, backup = self.path / CAMPAIGN_FILE, self.path / BACKUP_FILE
        db = _open_db(path, backup)
        try:
            doc = _check_campaign(path, _storage(db).read())
        except SaveError as exc:
            try:
                _check_campaign(backup, _read_tinydb_file(backup))
            except SaveError:
                raise exc from None
            raise SaveError(
                f"{exc.message} The previous good copy {backup} is intact: to resume from it "
                f"(losing the last action), copy it over {path}."
            ) from exc
        self._campaign_db = db
        self._meta = doc["meta"]
        self._state = doc["state"]

    def _chunk_numbers(self) -> int:
        """Number of log chunks; SaveError unless they are 000001.json .. without gaps."""
        if not self._log_dir.is_dir():
            raise SaveError(f"{self._log_dir} is missing.")
        numbers = sorted(
            int(entry.name[:-5])
            for entry in self._log_dir.iterdir()
            if _CHUNK_RE.fullmatch(entry.name) and entry.name == _chunk_name(int(entry.name[:-5]))
        )
        if not numbers:
            raise SaveError(f"{self._log_dir} is damaged: it holds no log chunk "
                            f"(expected {_chunk_name(1)}).")
        for expected, found in enumerate(numbers, start=1):
            if found != expected:
                raise SaveError(f"{self._log_dir / _chunk_name(expected)} is missing (the log "
                                f"chunks must run {_chunk_name(1)}, {_chunk_name(2)}, ... "
                                f"without gaps).")
        return len(numbers)

    def _load_log(self) -> None:
        """Open the last chunk; drop logged events the state never confirmed (torn save/undo)."""
        event_no = self._state["event_no"]
        no = self._chunk_numbers()
        while True:
            db = _open_db(self._chunk_path(no))
            chunk = _check_chunk(no, self._chunk_path(no), _storage(db).read())
            drop = [doc_id for doc_id, event in chunk.events if event["n"] > event_no]
            kept = len(chunk.events) - len(drop)
            if no > 1 and kept == 0 and (drop or chunk.base["event_no"] > event_no):
                self._remove_chunk(no)
                no -= 1
                continue
            if drop:
                db.table(TABLE).remove(doc_ids=drop)
                chunk.events = chunk.events[:kept]
            break
        if chunk.last_n() != event_no:
            raise SaveError(
                f"{chunk.path} is damaged: the log ends at event {chunk.last_n()} but "
                f"{self.path / CAMPAIGN_FILE} says the state is at event {event_no}; "
                f"logged events are missing."
            )
        self._set_current(chunk, db)

    def _set_current(self, chunk: _Chunk, db: TinyDB) -> None:
        """Make ``chunk`` (open as ``db``) the chunk that saves append to."""
        self._chunk_db = db
        self._chunk_no = chunk.no
        self._chunk_count = len(chunk.events)
        self._chunk_base = chunk.base
        self._last_n = chunk.last_n()
        self._last_a = chunk.events[-1][1]["a"] if chunk.events else None

    def _chunk_path(self, no: int) -> Path:
        """Path of log chunk ``no``."""
        return self._log_dir / _chunk_name(no)

    def _remove_chunk(self, no: int) -> None:
        """Delete log chunk ``no`` (only ever the last one) and flush the folder."""
        self._chunk_path(no).unlink()
        _fsync_dir(self._log_dir)

    def _ready(self) -> None:
        """SaveError if closed; reload from disk if a failed write left the caches unsure."""
        if self._lock_fd is None:
            raise SaveError(f"Campaign '{self.id}' is closed.")
        if self._stale:
            self._load()

    def _read_chunk(self, no: int, private: bool) -> _Chunk:
        """Log chunk ``no``; with ``private``, data the caller may hand out or mutate."""
        if no == self._chunk_no and self._chunk_db is not None:
            chunk = _check_chunk(no, self._chunk_path(no), _storage(self._chunk_db).read())
            return copy.deepcopy(chunk) if private else chunk
        path = self._chunk_path(no)
        try:
            return _check_chunk(no, path, _read_tinydb_file(path))
        except SaveError as exc:
            raise SaveError(f"{exc.message} (campaign '{self.id}', log chunk {no})") from exc

    # ----------------------------------------------------------------- reading

    @property
    def meta(self) -> dict[str, Any]:
        """A copy of the campaign meta (name, system, hero, scene, last_played, ...)."""
        self._ready()
        return copy.deepcopy(self._meta)

    @property
    def state(self) -> dict[str, Any]:
        """A copy of the last saved state."""
        self._ready()
        return copy.deepcopy(self._state)

    def events(self) -> Iterator[dict[str, Any]]:
        """Every logged event, oldest first (reads all chunks, one at a time)."""
        self._ready()
        last = self._chunk_no
        prev_n: int | None = None
        for no in range(1, last + 1):
            chunk = self._read_chunk(no, private=True)
            for _doc_id, event in chunk.events:
                if prev_n is not None and event["n"] <= prev_n:
                    raise SaveError(f"{chunk.path} is damaged: event n={event['n']} comes after "
                                    f"n={prev_n} in an earlier chunk.")
                prev_n = event["n"]
                yield event

    def base_and_events_for_action(
        self, action_no: int
    ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """For undo: the base state and events that rebuild the state just before ``action_no``.

        The base is that of the chunk holding the first event with ``a == action_no``; the
        events are that chunk's events with ``a < action_no``. SaveError if there is no such
        action in the log.
        """
        self._ready()
        found: _Chunk | None = None
        for no in range(self._chunk_no, 0, -1):
            chunk = self._read_chunk(no, private=True)
            if not chunk.events:
                continue
            if any(event["a"] == action_no for _doc_id, event in chunk.events):
                found = chunk
            if chunk.events[0][1]["a"] < action_no:
                break
        if found is None:
            raise SaveError(f"Action {action_no} is not in the log of campaign '{self.id}'.")
        return found.base, [event for _doc_id, event in found.events if event["a"] < action_no]

    # ----------------------------------------------------------------- writing

    def save(
        self,
        events: list[dict[str, Any]],
        state: dict[str, Any],
        meta_updates: dict[str, Any] | None = None,
        new_chunk: bool = False,
    ) -> None:
        """Autosave one action: append ``events`` to the log, then rewrite the state atomically.

        ``state["event_no"]`` must be the ``n`` of the last event (unchanged if there are no
        events). ``meta_updates`` are merged into the meta; ``last_played`` is set to now. With
        ``new_chunk`` (or once the current chunk is full) a new log chunk starts before these
        events, based on the previously saved state.
        """
        self._ready()
        events_n = _plain(events, "the events")
        state_n = _plain(state, "the state")
        updates_n = _plain(meta_updates or {}, "the meta updates")
        if not isinstance(events_n, list) or not isinstance(state_n, dict):
            raise SaveError("Cannot save: events must be a list and state a dict.")
        if not isinstance(updates_n, dict):
            raise SaveError("Cannot save: meta_updates must be a dict.")
        last_n, last_a = self._check_events(events_n)
        if state_n.get("event_no") != last_n or not _is_int(state_n.get("event_no")):
            raise SaveError(f"Cannot save: state['event_no'] is {state_n.get('event_no')!r} but "
                            f"the last event is n={last_n}.")
        meta_n = {**self._meta, **updates_n, "last_played": _now()}

        start_chunk = new_chunk or self._chunk_count >= self.chunk_events
        if start_chunk and self._chunk_count == 0 and self._chunk_base == self._state:
            start_chunk = False  # the current chunk is empty and already starts here
        self._stale = True  # until both writes are done
        try:
            if start_chunk:
                chunk_no = self._chunk_no + 1
                path = self._chunk_path(chunk_no)
                if path.exists():
                    raise SaveError(f"Cannot save: {path} already exists (the log was changed "
                                    f"outside Sidekick?).")
                db = _open_db(path)
                db.table(TABLE).insert_multiple([{"base": self._state}, *events_n])
                chunk = _Chunk(chunk_no, path, self._state, [])
                self._set_current(chunk, db)
                self._chunk_count = len(events_n)
            elif events_n:
                assert self._chunk_db is not None
                self._chunk_db.table(TABLE).insert_multiple(events_n)
                self._chunk_count += len(events_n)
            self._write_campaign(meta_n, state_n)
        except OSError as exc:
            raise SaveError(f"Cannot save campaign '{self.id}': {exc.strerror or exc} "
                            f"({exc.filename or self.path}).") from exc
        self._last_n, self._last_a = last_n, last_a
        self._stale = False

    def _check_events(self, events: list[Any]) -> tuple[int, int | None]:
        """Check events to append; return the (n, a) of the last one."""
        last_n, last_a = self._last_n, self._last_a
        for index, event in enumerate(events):
            if not isinstance(event, dict):
                raise SaveError(f"Cannot save: event {index} is {_type_name(event)}, "
                                f"not an object.")
            n, a = event.get("n"), event.get("a")
            if not _is_int(n) or not _is_int(a):
                raise SaveError(f"Cannot save: event {index} needs integer 'n' and 'a', "
                                f"got n={n!r}, a={a!r}.")
            if n <= last_n:
                raise SaveError(f"Cannot save: event numbers must increase, but event {index} "
                                f"has n={n} after n={last_n}.")
            if last_a is not None and a < last_a:
                raise SaveError(f"Cannot save: action numbers must not decrease, but event "
                                f"{index} has a={a} after a={last_a}.")
            last_n, last_a = n, a
        return last_n, last_a

    def _write_campaign(self, meta: dict[str, Any], state: dict[str, Any]) -> None:
        """Rewrite campaign.json (one atomic write; the old file becomes campaign.json.bak)."""
        assert self._campaign_db is not None
        self._campaign_db.table(TABLE).update({"meta": meta, "state": state}, doc_ids=[1])
        self._meta, self._state = meta, state

    def truncate_from_action(self, action_no: int, state: dict[str, Any]) -> None:
        """Undo: delete every event with ``a >= action_no`` and make ``state`` current.

        ``state["event_no"]`` must be the ``n`` of the last event that remains. The state is
        written first and the log trimmed second (from its end), so a crash in between is
        repaired on the next open.
        """
        self._ready()
        if not _is_int(action_no):
            raise SaveError(f"Cannot undo: the action number must be an integer, "
                            f"got {action_no!r}.")
        state_n = _plain(state, "the state")
        if not isinstance(state_n, dict):
            raise SaveError("Cannot undo: state must be a dict.")
        doomed: list[int] = []  # whole chunks to delete, last first
        dropped = 0
        cut: _Chunk | None = None
        cut_drop: list[int] = []
        for no in range(self._chunk_no, 0, -1):
            chunk = self._read_chunk(no, private=False)
            drop = [doc_id for doc_id, event in chunk.events if event["a"] >= action_no]
            dropped += len(drop)
            if no > 1 and len(drop) == len(chunk.events):
                doomed.append(no)
                continue
            cut, cut_drop = chunk, drop
            break
        assert cut is not None
        if dropped == 0:  # nothing to undo: keep the log (and any empty trailing chunk) as is
            doomed, cut_drop = [], []
            cut = self._read_chunk(self._chunk_no, private=False)
        dropping = set(cut_drop)
        kept = [(doc_id, event) for doc_id, event in cut.events if doc_id not in dropping]
        new_last_n = kept[-1][1]["n"] if kept else cut.base["event_no"]
        if state_n.get("event_no") != new_last_n or not _is_int(state_n.get("event_no")):
            raise SaveError(f"Cannot undo: state['event_no'] is {state_n.get('event_no')!r} but "
                            f"the last remaining event is n={new_last_n}.")
        meta_n = {**self._meta, "last_played": _now()}
        self._stale = True
        try:
            self._write_campaign(meta_n, state_n)
            for no in doomed:
                self._remove_chunk(no)
            if cut.no == self._chunk_no and self._chunk_db is not None:
                db = self._chunk_db
            else:
                db = _open_db(cut.path)
            if cut_drop:
                db.table(TABLE).remove(doc_ids=cut_drop)
            cut.events = kept
            self._set_current(cut, db)
        except OSError as exc:
            raise SaveError(f"Cannot undo in campaign '{self.id}': {exc.strerror or exc} "
                            f"({exc.filename or self.path}).") from exc
        self._stale = False

    # ----------------------------------------------------------------- closing

    def close(self) -> None:
        """Release the lock. The store cannot be used afterwards; closing twice is harmless."""
        if self._lock_fd is not None:
            _release_lock(self._lock_fd)
            self._lock_fd = None
        self._campaign_db = self._chunk_db = None

    @property
    def closed(self) -> bool:
        """True once :meth:`close` has been called."""
        return self._lock_fd is None

    def __enter__(self) -> CampaignStore:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        status = "closed" if self.closed else f"event {self._last_n}"
        return f"<CampaignStore {self.id!r} at {self.path} ({status})>"
