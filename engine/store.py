"""Campaign persistence on TinyDB files (the only module that imports tinydb).

One folder per campaign under the save folder::

    saves/<campaign-id>/
        .lock               held with flock while a process has the campaign open (holds its pid)
        campaign.json       TinyDB file, one document: {"format", "meta", "state"}
        campaign.json.bak   the previous good campaign.json (kept before every rewrite)
        log/000001.json     TinyDB file: document 1 = {"base": state}, then the chunk's events
        log/000002.json     ...

Safety: every file is opened without following symbolic links and must be a regular file of a
bounded size (a planted link, FIFO or device is an error, never a hang or a write elsewhere).
A campaign folder is listed only when it holds campaign files, and deleting one removes only
the files Sidekick makes (anything else is left where it was). A new campaign is built in a
hidden ``.~new-*`` folder and renamed into place once its first action is saved; leftovers of
an interrupted create or delete are swept when the save folder is listed.

Recovery (:meth:`CampaignStore.recover`) never deletes: a damaged file is renamed aside
(``<name>.damaged-<UTC time>``). With an intact log and a damaged ``campaign.json`` the state is
rebuilt from the log; with a damaged log the campaign resumes from ``campaign.json`` (or, if
that is damaged too, from ``campaign.json.bak``) on a fresh log chunk whose first document
says ``"recovered"``; undo cannot go back past it.

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
import stat
import unicodedata
from collections.abc import Callable, Iterator
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
    "MAX_CHUNK_EVENTS",
    "AtomicJSONStorage",
    "CampaignInUse",
    "CampaignStore",
    "CampaignSummary",
    "default_saves_dir",
    "delete_campaign",
    "list_campaigns",
    "slugify",
    "sweep_saves",
    "unique_id",
]

CHUNK_EVENTS = 200
"""A new log chunk is started before a save once the current chunk holds this many events."""

MAX_CHUNK_EVENTS = 20_000
"""The most events a log chunk may hold: Sidekick writes ``CHUNK_EVENTS`` and one action's
more at most, and refuses to save an action of more than ``MAX_CHUNK_EVENTS - CHUNK_EVENTS``
events, so a chunk holding more was not written by Sidekick (it is refused as damaged and
Recover sets it aside)."""

FORMAT = 2
"""Version of the save format, stored in campaign.json. 2: the state holds ``actors`` (a party
of heroes and the NPCs) instead of one ``hero`` and ``npcs``. Older formats are read and
migrated forward (``engine.rules.state.migrate``); a format-2 save tells a Sidekick that reads
only format 1 that it was written by a newer version, instead of being misread."""

OLDEST_FORMAT = 1
"""The oldest save format this version still reads."""

CAMPAIGN_FILE = "campaign.json"
BACKUP_FILE = "campaign.json.bak"
LOG_DIR = "log"
LOCK_FILE = ".lock"
TABLE = "_default"
MAX_ID_LENGTH = 64
"""Longest campaign id, in characters."""
MAX_ID_BYTES = 200
"""Longest campaign id in UTF-8 bytes (folder names stop at 255 bytes, with a prefix to spare)."""
MAX_FILE_BYTES = 64 * 1024 * 1024
"""Largest save file Sidekick reads (a real one is a few kilobytes to a few megabytes)."""
MAX_LOCK_BYTES = 64
"""A lock file holds a pid; anything larger is not one of ours."""

_TMP_PREFIX = ".~"
_TMP_SUFFIX = ".tmp"
_NEW_PREFIX = ".~new-"
_DELETED_PREFIX = ".~deleted-"
_DAMAGED = ".damaged-"
_CHUNK_RE = re.compile(r"[0-9]{6,}\.json")
_DAMAGED_CHUNK_RE = re.compile(r"[0-9]{6,}\.json\.damaged-[0-9TZ]+(?:-[0-9]+)?")
_DOC_ID_RE = re.compile(r"[1-9][0-9]*")
_TRASH_RE = re.compile(re.escape(_DELETED_PREFIX) + r"(.+)-[0-9a-f]{8}")


class CampaignExists(SaveError):
    """A campaign of that id is already in the save folder."""

    title = "Campaign exists"


class CampaignInUse(SaveError):
    """The campaign is open in a Sidekick process: nothing failed, it is just busy."""

    title = "Campaign in use"


class _TooNew(SaveError):
    """campaign.json was written by a newer Sidekick: not damage, nothing to recover."""


# --------------------------------------------------------------------------- small helpers


def default_saves_dir() -> Path:
    """The save folder: ``$SIDEKICK_SAVES`` if set, else ``./saves``."""
    env = os.environ.get("SIDEKICK_SAVES")
    if env:
        return Path(env).expanduser()
    return Path.cwd() / "saves"


def _id_char(ch: str) -> bool:
    """True for a character allowed in a campaign id besides ``-``.

    ASCII: ``a-z`` and ``0-9``. Other scripts: lowercase letters, marks and digits (Unicode
    categories L, M and N), so that names in any script keep a readable folder name.
    """
    if ch.isascii():
        return "a" <= ch <= "z" or "0" <= ch <= "9"
    return unicodedata.category(ch)[0] in "LMN" and ch.lower() == ch


def _valid_id(campaign_id: object) -> bool:
    """True if ``campaign_id`` is a campaign id: words of id characters joined by single '-'."""
    return (
        isinstance(campaign_id, str)
        and 0 < len(campaign_id) <= MAX_ID_LENGTH
        and all(ch == "-" or _id_char(ch) for ch in campaign_id)
        and len(campaign_id.encode("utf-8")) <= MAX_ID_BYTES
        and not campaign_id.startswith("-")
        and not campaign_id.endswith("-")
        and "--" not in campaign_id
        and unicodedata.category(campaign_id[0])[0] != "M"
    )


def _fit(slug: str, reserve: int = 0) -> str:
    """``slug`` cut to the id limits, leaving ``reserve`` ASCII characters for a suffix."""
    slug = slug[: MAX_ID_LENGTH - reserve]
    while len(slug.encode("utf-8")) > MAX_ID_BYTES - reserve:
        slug = slug[:-1]
    return slug.rstrip("-")


def slugify(name: str) -> str:
    """A campaign id from a display name: ``"The Night Shift!"`` -> ``"the-night-shift"``.

    Accents on Latin letters are dropped (``Café`` -> ``cafe``); letters of other scripts are
    kept (``Ночная смена`` -> ``ночная-смена``). A name with no letter or digit at all gives
    ``campaign``. See :func:`unique_id` for a name that is not taken yet.
    """
    text = unicodedata.normalize("NFKD", unicodedata.normalize("NFKD", str(name)).lower())
    out: list[str] = []
    for ch in text:
        if unicodedata.category(ch)[0] == "M":
            # an accent on a Latin letter is dropped; a mark of another script is kept
            if out and out[-1] != "-" and not out[-1].isascii():
                out.append(ch)
            continue
        out.append(ch if _id_char(ch) else "-")
    slug = unicodedata.normalize("NFC", "".join(out))
    slug = "".join(ch if ch == "-" or _id_char(ch) else "-" for ch in slug)
    slug = _fit(re.sub(r"-{2,}", "-", slug).strip("-"))
    return slug if _valid_id(slug) else "campaign"


def unique_id(saves_dir: Path, name: str) -> str:
    """A campaign id from ``name`` that no file or folder in ``saves_dir`` uses yet."""
    base = slugify(name)
    cid, n = base, 2
    while os.path.lexists(Path(saves_dir) / cid):
        suffix = f"-{n}"
        cid, n = _fit(base, len(suffix)) + suffix, n + 1
    return cid


def _check_id(campaign_id: object) -> str:
    """Return ``campaign_id`` if it is a valid slug; SaveError otherwise (blocks path traversal)."""
    if not _valid_id(campaign_id):
        raise SaveError(
            f"Invalid campaign id {campaign_id!r}: use lowercase letters, digits and single "
            f"hyphens (at most {MAX_ID_LENGTH} characters), e.g. 'the-night-shift'."
        )
    assert isinstance(campaign_id, str)
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
            os.link(path, tmp, follow_symlinks=False)
        except OSError:
            _write_new_file(tmp, _read_regular(path) or b"")
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
    """Remove temporary files left by an interrupted write (only in a real folder, not a link)."""
    if not _is_real_dir(folder):
        return
    for entry in folder.iterdir():
        if entry.name.startswith(_TMP_PREFIX) and entry.name.endswith(_TMP_SUFFIX):
            with contextlib.suppress(OSError):
                if not stat.S_ISDIR(entry.lstat().st_mode):
                    entry.unlink()


def _kind(mode: int) -> str:
    """What kind of file ``mode`` describes, in words (for errors about the wrong kind)."""
    if stat.S_ISREG(mode):
        return "a file"
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    return "not a regular file"


def _link_error(path: Path) -> SaveError:
    """The error for a symbolic link where a save file or folder should be."""
    return SaveError(f"{path} is a symbolic link: Sidekick does not follow links inside a save "
                     f"folder. It was left alone; move it away to use this campaign.")


def _read_regular(path: Path, limit: int = MAX_FILE_BYTES) -> bytes | None:
    """The bytes of the regular file ``path``, or None if it does not exist.

    Never follows a symbolic link, never blocks on a FIFO or device, never reads more than
    ``limit`` bytes: each of those is a SaveError naming the file.
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        return None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise _link_error(path) from exc
        raise SaveError(f"Cannot read {path}: {exc.strerror or exc}.") from exc
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise SaveError(f"{path} is {_kind(info.st_mode)}, not a save file; Sidekick left "
                            f"it alone.")
        too_big = SaveError(f"{path} is too large ({info.st_size:,} bytes; Sidekick reads save "
                            f"files of at most {limit:,} bytes).")
        if info.st_size > limit:
            raise too_big
        parts: list[bytes] = []
        total = 0
        while True:
            part = os.read(fd, 1 << 20)
            if not part:
                break
            total += len(part)
            if total > limit:
                raise too_big
            parts.append(part)
        return b"".join(parts)
    except OSError as exc:
        raise SaveError(f"Cannot read {path}: {exc.strerror or exc}.") from exc
    finally:
        os.close(fd)


def _is_real_dir(path: Path) -> bool:
    """True if ``path`` is a folder itself (not a link to one)."""
    try:
        return stat.S_ISDIR(os.lstat(path).st_mode)
    except OSError:
        return False


def _check_dir(path: Path, missing: str | None = None) -> None:
    """SaveError unless ``path`` is a real folder (a link, file or FIFO is refused)."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError as exc:
        raise SaveError(missing or f"{path} is missing.") from exc
    except OSError as exc:
        raise SaveError(f"Cannot read {path}: {exc.strerror or exc}.") from exc
    if stat.S_ISLNK(mode):
        raise _link_error(path)
    if not stat.S_ISDIR(mode):
        raise SaveError(f"{path} is {_kind(mode)}, not a folder; Sidekick left it alone.")


def _damaged_name(path: Path, stamp: str) -> Path:
    """A free name to set ``path`` aside under: ``<name>.damaged-<stamp>``."""
    target = path.with_name(f"{path.name}{_DAMAGED}{stamp}")
    n = 2
    while os.path.lexists(target):
        target = path.with_name(f"{path.name}{_DAMAGED}{stamp}-{n}")
        n += 1
    return target


def _set_aside(path: Path, stamp: str) -> Path | None:
    """Rename ``path`` (any kind of file) to its ``.damaged-`` name; None if it is absent."""
    if not os.path.lexists(path):
        return None
    target = _damaged_name(path, stamp)
    os.rename(path, target)
    return target


def _no_constant(name: str) -> Any:
    """Refuse NaN and Infinity in a save file: Sidekick never writes them (saving would fail)."""
    raise ValueError(f"{name} is not a JSON number")


def _read_tinydb_file(path: Path) -> dict[str, Any] | None:
    """Parse a TinyDB JSON file and check its shape; None if it does not exist.

    Raises SaveError naming the file for anything else: unreadable, empty, not JSON, or not
    ``{table: {doc_id: {...}}}``.
    """
    raw = _read_regular(path)
    if raw is None:
        return None
    if not raw.strip():
        raise SaveError(f"{path} is damaged: the file is empty.")
    try:
        data = json.loads(raw.decode("utf-8"), parse_constant=_no_constant)
    except UnicodeDecodeError as exc:
        raise SaveError(f"{path} is damaged: it is not UTF-8 text ({exc.reason}).") from exc
    except json.JSONDecodeError as exc:
        raise SaveError(
            f"{path} is damaged: invalid JSON at line {exc.lineno}, column {exc.colno} "
            f"({exc.msg})."
        ) from exc
    except ValueError as exc:  # from _no_constant
        raise SaveError(f"{path} is damaged: {exc}.") from exc
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
    doc: dict[str, Any] = table["1"]
    fmt = doc.get("format")
    if not _is_int(fmt):
        raise SaveError(f"{path} is damaged: 'format' should be an integer, found "
                        f"{_type_name(fmt)}.")
    if fmt > FORMAT:
        raise _TooNew(f"{path} was written by a newer version of Sidekick (format {fmt}; "
                        f"this version reads format {FORMAT}).")
    if fmt < OLDEST_FORMAT:
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
    recovered: str | None = None
    """When the campaign was recovered on this chunk (undo stops here); None normally."""

    def last_n(self) -> int:
        """Number of the chunk's last event, or of its base when it has none."""
        n: int = self.events[-1][1]["n"] if self.events else self.base["event_no"]
        return n


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
    recovered = table["1"].get("recovered")
    if len(table) - 1 > MAX_CHUNK_EVENTS:
        raise SaveError(f"{path} is damaged: it holds {len(table) - 1:,} events, and a log"
                        f" chunk holds at most {MAX_CHUNK_EVENTS:,} (Sidekick starts a new one"
                        f" every {CHUNK_EVENTS}).")
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
    return _Chunk(no, path, base, events, _text(recovered) if recovered is not None else None)


def _chunk_name(no: int) -> str:
    """File name of log chunk ``no``."""
    return f"{no:06d}.json"


def _chunk_files(log_dir: Path) -> list[int]:
    """Numbers of the files in ``log_dir`` named like log chunks, sorted."""
    return sorted(
        int(entry.name[:-5])
        for entry in log_dir.iterdir()
        if _CHUNK_RE.fullmatch(entry.name) and entry.name == _chunk_name(int(entry.name[:-5]))
    )


def _chunk_numbers(log_dir: Path) -> int:
    """Number of log chunks; SaveError unless they are 000001.json .. without gaps."""
    _check_dir(log_dir)
    numbers = _chunk_files(log_dir)
    if not numbers:
        raise SaveError(f"{log_dir} is damaged: it holds no log chunk "
                        f"(expected {_chunk_name(1)}).")
    for expected, found in enumerate(numbers, start=1):
        if found != expected:
            raise SaveError(f"{log_dir / _chunk_name(expected)} is missing (the log "
                            f"chunks must run {_chunk_name(1)}, {_chunk_name(2)}, ... "
                            f"without gaps).")
    return len(numbers)


def _read_chunk_file(log_dir: Path, no: int) -> _Chunk:
    """Log chunk ``no`` read from disk and checked."""
    path = log_dir / _chunk_name(no)
    return _check_chunk(no, path, _read_tinydb_file(path))


@dataclass
class _LogEnd:
    """Where the log ends for a given state: the chunk to append to and what to repair.

    ``drop_chunks`` are whole chunks after it with only events newer than the state, and
    ``drop_docs`` the doc ids of such events in ``chunk`` (a save or undo torn by a crash).
    """

    chunk: _Chunk
    drop_chunks: list[int]
    drop_docs: list[int]


def _log_end(log_dir: Path, event_no: int) -> _LogEnd:
    """Find the end of the log for a state at ``event_no``; SaveError if the log is damaged.

    Reads only the last chunk (and the one before it after a torn chunk start); changes nothing.
    """
    no = _chunk_numbers(log_dir)
    drop_chunks: list[int] = []
    while True:
        chunk = _read_chunk_file(log_dir, no)
        drop = [doc_id for doc_id, event in chunk.events if event["n"] > event_no]
        kept = len(chunk.events) - len(drop)
        if no > 1 and kept == 0 and (drop or chunk.base["event_no"] > event_no):
            drop_chunks.append(no)
            no -= 1
            continue
        chunk.events = chunk.events[:kept]
        break
    if chunk.last_n() != event_no:
        raise SaveError(
            f"{chunk.path} is damaged: the log ends at event {chunk.last_n()} but "
            f"{log_dir.parent / CAMPAIGN_FILE} says the state is at event {event_no}; "
            f"logged events are missing."
        )
    return _LogEnd(chunk, drop_chunks, drop)


# --------------------------------------------------------------------------- lock


def _open_lock_file(folder: Path, create: bool = True) -> int:
    """Open (creating it if ``create``) the campaign's lock file; SaveError if it is not ours.

    The file is opened without following links and must be a regular file with one name and
    at most a pid in it, so a planted link or someone else's file is never written to.
    """
    path = folder / LOCK_FILE
    flags = os.O_RDWR | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
    try:
        fd = os.open(path, flags | os.O_CREAT if create else flags, 0o666)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise _link_error(path) from exc
        raise SaveError(f"Cannot open the lock file {path}: {exc.strerror or exc}.") from exc
    try:
        info = os.fstat(fd)
    except OSError as exc:
        os.close(fd)
        raise SaveError(f"Cannot open the lock file {path}: {exc.strerror or exc}.") from exc
    problem = ""
    if not stat.S_ISREG(info.st_mode):
        problem = f"it is {_kind(info.st_mode)}"
    elif info.st_nlink != 1:
        problem = f"it has {info.st_nlink} names (hard links)"
    elif info.st_size > MAX_LOCK_BYTES:
        problem = f"it holds {info.st_size:,} bytes, more than a pid"
    if problem:
        os.close(fd)
        raise SaveError(f"{path} is not a Sidekick lock file: {problem}. Sidekick left it "
                        f"alone; move it away to use this campaign.")
    return fd


def _acquire_lock(folder: Path, campaign_id: str) -> int:
    """Take the campaign's exclusive lock; return the fd to keep open.

    CampaignInUse if another process (or this one) holds it; SaveError if the lock file is
    not a plain file of ours.
    """
    path = folder / LOCK_FILE
    fd = _open_lock_file(folder)
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
            raise CampaignInUse(f"Campaign '{campaign_id}' is already open in this Sidekick "
                                f"process. Close it first.") from exc
        who = f" (pid {holder})" if holder.isdigit() else ""
        raise CampaignInUse(f"Campaign '{campaign_id}' is open in another Sidekick "
                            f"process{who}. Close it there first; 'sidekick export "
                            f"{campaign_id}' can read it meanwhile.") from exc
    try:
        os.ftruncate(fd, 0)  # a regular file with one name, checked above: our lock file
        os.pwrite(fd, f"{os.getpid()}\n".encode("ascii"), 0)
    except OSError:
        pass  # the pid is only informative; the flock is what counts
    return fd


def _try_lock(folder: Path) -> int | None:
    """The existing lock of ``folder`` if it is free and ours to take; None otherwise."""
    try:
        fd = _open_lock_file(folder, create=False)
    except SaveError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return None
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


# --------------------------------------------------------------------------- health and recovery

_REBUILD_PLAN = (f"Recover rebuilds {CAMPAIGN_FILE} from the log, which holds every action; "
                 f"the damaged file is renamed aside, not deleted.")
_RESUME_PLAN = (f"Recover resumes from {CAMPAIGN_FILE} (the state after your last action) on a "
                f"fresh log chunk; the damaged log files are renamed aside, not deleted. Undo "
                f"cannot go back past that point, and the journal may have a gap there.")
_RESUME_BACKUP_PLAN = (f"Recover resumes from {BACKUP_FILE}, the copy kept before the last save "
                       f"(the last action may be lost), on a fresh log chunk; the damaged files "
                       f"are renamed aside, not deleted. Undo cannot go back past that point.")


@dataclass
class _Inspection:
    """What is wrong with a campaign folder and what recovery would do.

    ``kind``: ``ok``; ``rebuild`` (campaign.json damaged, log intact); ``resume`` (log damaged,
    campaign.json intact); ``resume-backup`` (both damaged, the .bak intact); ``none``.
    """

    kind: str
    meta: dict[str, Any]
    error: str | None
    plan: str
    doc: dict[str, Any] | None = None


def _inspect(folder: Path, deep: bool = False) -> _Inspection:
    """Check campaign.json and the end of the log (with ``deep``, every log chunk).

    Reads only; never raises SaveError.
    """
    path, backup, log_dir = folder / CAMPAIGN_FILE, folder / BACKUP_FILE, folder / LOG_DIR
    doc: dict[str, Any] | None = None
    try:
        doc = _check_campaign(path, _read_tinydb_file(path))
    except _TooNew as exc:
        return _Inspection("none", {}, exc.message, "")
    except SaveError as exc:
        error = exc.message
    if doc is not None:
        try:
            end = _log_end(log_dir, doc["state"]["event_no"])
            for no in range(1, end.chunk.no if deep else 1):
                _read_chunk_file(log_dir, no)
        except SaveError as exc:
            return _Inspection("resume", doc["meta"], exc.message, _RESUME_PLAN, doc)
        return _Inspection("ok", doc["meta"], None, "", doc)
    bak: dict[str, Any] | None = None
    with contextlib.suppress(SaveError):
        bak = _check_campaign(backup, _read_tinydb_file(backup))
    meta = bak["meta"] if bak is not None else {}
    try:
        _read_chunk_file(log_dir, _chunk_numbers(log_dir))
    except SaveError as exc:
        error = f"{error} {exc.message}"
        if bak is not None:
            return _Inspection("resume-backup", meta, error, _RESUME_BACKUP_PLAN, bak)
        return _Inspection("none", meta, error, "")
    return _Inspection("rebuild", meta, error, _REBUILD_PLAN, bak)


# --------------------------------------------------------------------------- listing


@dataclass(frozen=True)
class CampaignSummary:
    """One line of the campaign list.

    ``error`` is set when the folder is damaged; ``recovery`` then says what Recover would do
    (empty when Sidekick cannot recover it by itself).
    """

    id: str
    name: str
    system: str
    hero: str
    scene: str
    last_played: str
    error: str | None = None
    system_name: str = ""
    recovery: str = ""


def _text(value: object) -> str:
    """A meta value as display text."""
    if value is None:
        return ""
    return value if isinstance(value, str) else str(value)


def _summary(folder: Path) -> CampaignSummary:
    """The summary of one campaign folder, read without taking its lock."""
    found = _inspect(folder)
    if found.kind != "ok":  # a save or undo in another process may have been half-way: look again
        found = _inspect(folder)
    meta = found.meta
    return CampaignSummary(
        id=folder.name,
        name=_text(meta.get("name")) or folder.name,
        system=_text(meta.get("system")),
        hero=_text(meta.get("hero")),
        scene=_text(meta.get("scene")),
        last_played=_text(meta.get("last_played")),
        error=found.error,
        system_name=_text(meta.get("system_name")),
        recovery=found.plan,
    )


def _played_key(summary: CampaignSummary) -> datetime:
    """Sort key: the last_played time (unparsable or missing sorts oldest)."""
    try:
        when = datetime.fromisoformat(summary.last_played)
    except ValueError:
        return datetime.min.replace(tzinfo=UTC)
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)


def _holds_campaign_files(folder: Path) -> bool:
    """True if ``folder`` has a campaign.json, a campaign.json.bak or a log folder with chunks."""
    if any(os.path.lexists(folder / name) for name in (CAMPAIGN_FILE, BACKUP_FILE)):
        return True
    log_dir = folder / LOG_DIR
    if not _is_real_dir(log_dir):
        return False
    try:
        return any(_known_log_file(entry.name) and not _is_temp(entry.name)
                   for entry in log_dir.iterdir())
    except OSError:
        return False


def list_campaigns(saves_dir: Path) -> list[CampaignSummary]:
    """Every campaign under ``saves_dir``, most recently played first.

    Only real folders (not links) with a valid id that hold campaign files are campaigns;
    other folders and files are not listed. A damaged campaign is listed with ``error`` (and
    ``recovery``) set instead of raising. Leftovers of interrupted creates and deletes are
    swept first.
    """
    saves_dir = Path(saves_dir)
    if not saves_dir.is_dir():
        return []
    sweep_saves(saves_dir)
    summaries = [
        _summary(entry)
        for entry in saves_dir.iterdir()
        if _valid_id(entry.name) and _is_real_dir(entry) and _holds_campaign_files(entry)
    ]
    summaries.sort(key=lambda s: s.id)
    summaries.sort(key=_played_key, reverse=True)
    return summaries


# --------------------------------------------------------------------------- deleting


def _is_temp(name: str) -> bool:
    """True for the name of a temporary file of an atomic write."""
    return name.startswith(_TMP_PREFIX) and name.endswith(_TMP_SUFFIX)


def _known_top_file(name: str) -> bool:
    """True for a file name Sidekick makes at the top of a campaign folder."""
    return (name in (LOCK_FILE, CAMPAIGN_FILE, BACKUP_FILE)
            or name.startswith(CAMPAIGN_FILE + _DAMAGED) or _is_temp(name))


def _known_log_file(name: str) -> bool:
    """True for a file name Sidekick makes in a log folder."""
    return bool(_CHUNK_RE.fullmatch(name) or _DAMAGED_CHUNK_RE.fullmatch(name)) or _is_temp(name)


def _remove_known_files(folder: Path) -> list[str]:
    """Remove the regular files Sidekick makes in a campaign folder (and its emptied log folders).

    Returns the names of everything left alone (sorted; ``log/x`` for entries in a log folder).
    """
    left: list[str] = []
    lock: Path | None = None
    for entry in sorted(folder.iterdir()):
        name = entry.name
        mode = os.lstat(entry).st_mode
        if name == LOCK_FILE and stat.S_ISREG(mode):
            lock = entry  # last: while it exists, a sweep in another process waits for us
            continue
        if stat.S_ISDIR(mode) and (name == LOG_DIR or name.startswith(LOG_DIR + _DAMAGED)):
            kept = 0
            for sub in sorted(entry.iterdir()):
                if stat.S_ISREG(os.lstat(sub).st_mode) and _known_log_file(sub.name):
                    sub.unlink()
                else:
                    left.append(f"{name}/{sub.name}")
                    kept += 1
            if not kept:
                entry.rmdir()
        elif stat.S_ISREG(mode) and _known_top_file(name):
            entry.unlink()
        else:
            left.append(name)
    if lock is not None:
        lock.unlink()
    return left


def _left_alone(folder: Path, left: list[str]) -> str:
    """A sentence naming the files a delete left alone."""
    shown = ", ".join(left[:5]) + (f" and {len(left) - 5} more" if len(left) > 5 else "")
    return (f"{len(left)} item{'s' if len(left) != 1 else ''} not made by Sidekick "
            f"{'were' if len(left) != 1 else 'was'} left alone in {folder}: {shown}.")


def delete_campaign(saves_dir: Path, campaign_id: str) -> str:
    """Delete a campaign: only the files Sidekick makes; returns what was done, in a sentence.

    SaveError if there is no such campaign, the folder is a link or holds no campaign files,
    or the campaign is open in a process (CampaignInUse). Files not made by Sidekick are left
    in the folder (which stays, under its name) and named in the returned sentence.
    """
    saves_dir = Path(saves_dir)
    folder = _campaign_dir(saves_dir, campaign_id)
    _check_dir(folder, f"No campaign '{campaign_id}' in {saves_dir}.")
    if not _holds_campaign_files(folder):
        raise SaveError(f"{folder} holds no Sidekick campaign (no {CAMPAIGN_FILE} and no "
                        f"{LOG_DIR} folder); it was left alone.")
    fd = _acquire_lock(folder, campaign_id)
    trash = saves_dir / f"{_DELETED_PREFIX}{campaign_id}-{secrets.token_hex(4)}"
    try:
        try:
            os.rename(folder, trash)  # the campaign disappears at once, then the files go
            _fsync_dir(saves_dir)
        except OSError as exc:
            raise SaveError(f"Cannot delete {folder}: {exc.strerror or exc}.") from exc
        try:
            left = _remove_known_files(trash)
            with contextlib.suppress(FileNotFoundError):  # a sweep elsewhere may finish first
                if not left:
                    trash.rmdir()
                elif not os.path.lexists(folder):
                    os.rename(trash, folder)  # the player's own files go back where they were
            _fsync_dir(saves_dir)
        except OSError as exc:
            raise SaveError(f"Campaign '{campaign_id}' was deleted but its files could not all "
                            f"be removed from {trash}: {exc.strerror or exc}. Sidekick finishes "
                            f"the job the next time it lists the save folder.") from exc
    finally:
        _release_lock(fd)
    if not left:
        return f"Deleted campaign '{campaign_id}'."
    where = folder if not os.path.lexists(trash) else trash
    return f"Deleted campaign '{campaign_id}'. {_left_alone(where, left)}"


def _half_made(folder: Path) -> bool:
    """True for a folder an older Sidekick left when a create was interrupted.

    That is: no campaign.json and no .bak, nothing but ``.lock``, temporary files and a
    ``log`` folder holding at most chunk 1 with no event (nothing was ever played).
    """
    try:
        names = {entry.name for entry in folder.iterdir()}
        if LOG_DIR not in names or not all(
            name in (LOCK_FILE, LOG_DIR) or _is_temp(name) for name in names
        ):
            return False
        log_dir = folder / LOG_DIR
        if not _is_real_dir(log_dir):
            return False
        chunks = [entry.name for entry in log_dir.iterdir() if not _is_temp(entry.name)]
        if not chunks:
            return True
        return chunks == [_chunk_name(1)] and not _read_chunk_file(log_dir, 1).events
    except (OSError, SaveError):
        return False


def _sweep_folder(saves_dir: Path, folder: Path, restore: str | None) -> None:
    """Finish an interrupted create or delete of ``folder`` unless a process holds its lock.

    A folder without a lock file is left alone (a create that is just starting), except a
    delete's folder, whose lock file goes last.
    """
    fd = _try_lock(folder)
    if fd is None and (restore is None or os.path.lexists(folder / LOCK_FILE)):
        return
    try:
        left = _remove_known_files(folder)
        if not left:
            folder.rmdir()
        elif restore and _valid_id(restore) and not os.path.lexists(saves_dir / restore):
            os.rename(folder, saves_dir / restore)
    finally:
        if fd is not None:
            _release_lock(fd)


def sweep_saves(saves_dir: Path) -> None:
    """Clean up after interrupted creates and deletes in ``saves_dir`` (never raises).

    A ``.~new-*`` folder (a create that never finished) and a ``.~deleted-*`` folder (a delete
    that never finished) lose their Sidekick files and go if nothing else is in them; a
    delete's folder holding other files gets its campaign name back. A folder an older
    Sidekick half-made (a log with nothing played and no campaign.json) goes the same way.
    Folders whose lock a process holds are left alone.
    """
    saves_dir = Path(saves_dir)
    with contextlib.suppress(OSError):
        for entry in list(saves_dir.iterdir()):
            name = entry.name
            with contextlib.suppress(OSError, SaveError):
                if name.startswith((_NEW_PREFIX, _DELETED_PREFIX)) and _is_real_dir(entry):
                    match = _TRASH_RE.fullmatch(name)
                    _sweep_folder(saves_dir, entry, match.group(1) if match else None)
                elif _valid_id(name) and _is_real_dir(entry) and _half_made(entry):
                    _sweep_folder(saves_dir, entry, None)


def _make_saves_dir(saves_dir: Path) -> None:
    """Make the save folder if needed; SaveError if it exists and is not a folder."""
    try:
        saves_dir.mkdir(parents=True, exist_ok=True)
    except FileExistsError as exc:
        raise SaveError(f"The save folder {saves_dir} is not a folder.") from exc
    except OSError as exc:
        raise SaveError(f"Cannot make the save folder {saves_dir}: {exc.strerror or exc}.") from exc
    if not saves_dir.is_dir():
        raise SaveError(f"The save folder {saves_dir} is not a folder.")


def _with_advice(exc: SaveError, folder: Path, campaign_id: str) -> SaveError:
    """``exc`` with what Recover would do appended, when the campaign can be recovered."""
    if isinstance(exc, CampaignInUse):
        return exc
    found = _inspect(folder)
    if found.kind in ("ok", "none"):
        return exc
    return SaveError(f"{exc.message} {found.plan} Use Recover on the title screen (R) or "
                     f"'sidekick recover {campaign_id}'.")


def _write_campaign_file(path: Path, meta: dict[str, Any], state: dict[str, Any]) -> None:
    """Write a whole campaign.json atomically (no backup)."""
    doc = {"format": FORMAT, "meta": meta, "state": state}
    _atomic_write(path, json.dumps({TABLE: {"1": doc}}, ensure_ascii=False, allow_nan=False,
                                   separators=(",", ":")))


def _write_chunk_file(path: Path, base: dict[str, Any], recovered: str) -> None:
    """Write a log chunk with only its base state, marked as a recovery point."""
    doc = {"base": base, "recovered": recovered}
    _atomic_write(path, json.dumps({TABLE: {"1": doc}}, ensure_ascii=False, allow_nan=False,
                                   separators=(",", ":")))


def _repair_log(log_dir: Path, state: dict[str, Any], stamp: str, when: str) -> list[str]:
    """Make the log usable again for ``state``, setting damaged files aside; their new names.

    Trailing chunks that cannot be read or start after the state are set aside; a missing or
    unreadable chunk before them is replaced by an empty chunk marked ``recovered``; events
    after the state are dropped from the last chunk kept (as a torn save's are on open); if the
    log then ends before the state, a fresh chunk based on ``state`` (marked too) follows.
    """
    event_no = state["event_no"]
    aside: list[str] = []
    if not _is_real_dir(log_dir):
        moved = _set_aside(log_dir, stamp)
        if moved is not None:
            aside.append(moved.name)
        log_dir.mkdir()
    numbers = _chunk_files(log_dir)
    chunks: dict[int, _Chunk] = {}
    for no in numbers:
        with contextlib.suppress(SaveError):
            chunks[no] = _read_chunk_file(log_dir, no)
    end = numbers[-1] if numbers else 0
    while end >= 1 and (end not in chunks or chunks[end].base["event_no"] > event_no):
        end -= 1
    for no in numbers:
        if no > end or no not in chunks:
            moved = _set_aside(log_dir / _chunk_name(no), stamp)
            assert moved is not None
            aside.append(f"{LOG_DIR}/{moved.name}")
    for no in range(1, end):
        if no not in chunks:  # a hole before the end: an empty chunk keeps the numbering
            following = next(chunks[k] for k in range(no + 1, end + 1) if k in chunks)
            _write_chunk_file(log_dir / _chunk_name(no), following.base, when)
    if end:
        last = chunks[end]
        beyond = [doc_id for doc_id, event in last.events if event["n"] > event_no]
        if beyond:
            _open_db(last.path).table(TABLE).remove(doc_ids=beyond)
            last.events = [(doc_id, e) for doc_id, e in last.events if e["n"] <= event_no]
    if end == 0 or chunks[end].last_n() != event_no:
        _write_chunk_file(log_dir / _chunk_name(end + 1), state, when)
    _fsync_dir(log_dir)
    return aside


# --------------------------------------------------------------------------- the store


class CampaignStore:
    """One open campaign folder. Holds an exclusive lock while open.

    Build it with :meth:`create` or :meth:`open`; close it with :meth:`close` or a ``with``
    block. Everything in and out is plain JSON data, copied at the boundary.
    """

    chunk_events: ClassVar[int] = CHUNK_EVENTS
    """Events per log chunk before a new one starts (a class attribute so tests can shrink it)."""

    def __init__(self, folder: Path, campaign_id: str, lock_fd: int | None,
                 final: Path | None = None) -> None:
        """Internal: use :meth:`create`, :meth:`open` or :meth:`open_read_only`."""
        self.id = campaign_id
        self.path = folder
        self.read_only = lock_fd is None
        """True for a store opened with :meth:`open_read_only` (no lock, no writes)."""
        self._final = final if final is not None else folder
        self._log_dir = folder / LOG_DIR
        self._lock_fd: int | None = lock_fd
        self._closed = False
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
        cls, saves_dir: Path, campaign_id: str, meta: dict[str, Any], state: dict[str, Any],
        *, staged: bool = False,
    ) -> CampaignStore:
        """Create ``saves_dir/campaign_id/`` with its first state and open it.

        The folder is built under a hidden temporary name and renamed into place when it is
        complete, so an interrupted create leaves no half-made campaign. With ``staged`` it
        stays under the temporary name (saves work) until :meth:`publish`; :meth:`discard`
        removes it instead. SaveError if the campaign already exists, the save folder is not a
        folder, or the data is not plain JSON.
        """
        saves_dir = Path(saves_dir)
        final = _campaign_dir(saves_dir, campaign_id)
        if not isinstance(meta, dict) or not isinstance(state, dict):
            raise SaveError("Cannot create a campaign: meta and state must be dicts.")
        meta_n = _plain(meta, "the campaign meta")
        state_n = _plain(state, "the campaign state")
        event_no = state_n.get("event_no")
        if not _is_int(event_no) or event_no < 0:
            raise SaveError(f"Cannot create a campaign: state['event_no'] must be a "
                            f"non-negative integer, got {event_no!r}.")
        meta_n["last_played"] = _now()
        _make_saves_dir(saves_dir)
        sweep_saves(saves_dir)
        if os.path.lexists(final):
            raise CampaignExists(f"A campaign '{campaign_id}' already exists in {saves_dir}.")
        folder = saves_dir / f"{_NEW_PREFIX}{campaign_id}-{secrets.token_hex(4)}"
        try:
            folder.mkdir()
        except OSError as exc:
            raise SaveError(f"Cannot create {final}: {exc.strerror or exc}.") from exc
        fd: int | None = None
        try:
            fd = _acquire_lock(folder, campaign_id)
            (folder / LOG_DIR).mkdir()
            _fsync_dir(folder)
            chunk = _open_db(folder / LOG_DIR / _chunk_name(1))
            chunk.table(TABLE).insert({"base": state_n})
            campaign = _open_db(folder / CAMPAIGN_FILE, folder / BACKUP_FILE)
            campaign.table(TABLE).insert({"format": FORMAT, "meta": meta_n, "state": state_n})
            store = cls(folder, campaign_id, fd, final)
            store._load()
            if not staged:
                store.publish()
            return store
        except BaseException as exc:
            with contextlib.suppress(OSError):
                _remove_known_files(folder)  # our own half-made folder
                folder.rmdir()
            if fd is not None:
                _release_lock(fd)
            if isinstance(exc, OSError):
                raise SaveError(f"Cannot create {final}: {exc.strerror or exc}.") from exc
            raise

    def publish(self, campaign_id: str | None = None) -> None:
        """Rename a staged new campaign into place (nothing to do for any other store), under
        ``campaign_id`` when given (another process took the id first: try the next one).

        CampaignExists if a campaign of that name appeared meanwhile (the staged folder is
        kept: publish it under another id, or :meth:`discard` it).
        """
        if self.path == self._final:
            return
        self._ready()
        saves_dir = self._final.parent
        if campaign_id is not None:
            self._final = _campaign_dir(saves_dir, campaign_id)
            self.id = campaign_id
        if os.path.lexists(self._final):
            raise CampaignExists(f"A campaign '{self.id}' already exists in {saves_dir}.")
        try:
            os.rename(self.path, self._final)
            _fsync_dir(saves_dir)
        except OSError as exc:
            if exc.errno in (errno.EEXIST, errno.ENOTEMPTY):
                raise CampaignExists(f"A campaign '{self.id}' already exists in {saves_dir}."
                                     ) from exc
            raise SaveError(f"Cannot create {self._final}: {exc.strerror or exc}.") from exc
        self.path = self._final
        self._log_dir = self.path / LOG_DIR
        self._load()

    def discard(self) -> None:
        """Close a staged campaign that was never published and remove its folder."""
        if self.path != self._final and not self._closed:
            with contextlib.suppress(OSError):
                _remove_known_files(self.path)
                self.path.rmdir()
        self.close()

    @classmethod
    def open(cls, saves_dir: Path, campaign_id: str) -> CampaignStore:
        """Open an existing campaign and lock it.

        SaveError with a clear message if it is missing, damaged (saying what Recover would do)
        or not a plain folder; CampaignInUse if a process has it open.
        """
        saves_dir = Path(saves_dir)
        folder = _campaign_dir(saves_dir, campaign_id)
        _check_dir(folder, f"No campaign '{campaign_id}' in {saves_dir}.")
        sweep_saves(saves_dir)
        fd = _acquire_lock(folder, campaign_id)
        store = cls(folder, campaign_id, fd)
        try:
            store._load()
        except SaveError as exc:
            store.close()
            raise _with_advice(exc, folder, campaign_id) from exc.__cause__
        except BaseException:
            store.close()
            raise
        return store

    @classmethod
    def open_read_only(cls, saves_dir: Path, campaign_id: str) -> CampaignStore:
        """Open a campaign for reading only, without its lock (it may be open elsewhere).

        Nothing on disk is changed, not even a torn save's repair: events newer than the saved
        state are skipped. ``save`` and ``truncate_from_action`` refuse.
        """
        saves_dir = Path(saves_dir)
        folder = _campaign_dir(saves_dir, campaign_id)
        _check_dir(folder, f"No campaign '{campaign_id}' in {saves_dir}.")
        store = cls(folder, campaign_id, None)
        try:
            store._load()
        except SaveError:
            try:
                store._load()  # a save or undo elsewhere may have been half-way: once more
            except SaveError as exc:
                raise _with_advice(exc, folder, campaign_id) from exc.__cause__
        return store

    @classmethod
    def recover(
        cls,
        saves_dir: Path,
        campaign_id: str,
        rebuild: Callable[[dict[str, Any], list[dict[str, Any]]], dict[str, Any]],
        make_meta: Callable[[dict[str, Any], dict[str, Any]], dict[str, Any]],
    ) -> str:
        """Recover a damaged campaign as its listing's ``recovery`` says; what was done.

        ``rebuild(base, events)`` replays a log chunk into a state (the store knows no rules);
        ``make_meta(state, old_meta)`` gives the meta for a rebuilt state. Nothing is deleted:
        damaged files are renamed ``<name>.damaged-<time>``. SaveError, with nothing changed,
        if the campaign cannot be recovered; CampaignInUse if a process has it open.
        """
        saves_dir = Path(saves_dir)
        folder = _campaign_dir(saves_dir, campaign_id)
        _check_dir(folder, f"No campaign '{campaign_id}' in {saves_dir}.")
        fd = _acquire_lock(folder, campaign_id)
        path, log_dir = folder / CAMPAIGN_FILE, folder / LOG_DIR
        try:
            _clean_temp_files(folder)
            _clean_temp_files(log_dir)
            found = _inspect(folder, deep=True)
            stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
            when = _now()
            if found.kind == "ok":
                return f"Campaign '{campaign_id}' is not damaged: there is nothing to recover."
            if found.kind == "none":
                raise SaveError(f"{found.error} Sidekick cannot recover campaign "
                                f"'{campaign_id}' by itself: no intact copy of its state is "
                                f"left. Nothing was changed.")
            done: list[str] = []
            if found.kind == "rebuild":
                chunk = _read_chunk_file(log_dir, _chunk_numbers(log_dir))
                state = _plain(rebuild(copy.deepcopy(chunk.base),
                                       [event for _doc_id, event in chunk.events]),
                               "the state rebuilt from the log")
                if not isinstance(state, dict) or state.get("event_no") != chunk.last_n():
                    raise SaveError(f"Cannot recover campaign '{campaign_id}': replaying the log "
                                    f"did not reach its last event ({chunk.last_n()}). Nothing "
                                    f"was changed.")
                meta = _plain(make_meta(state, found.meta), "the rebuilt meta")
                moved = _set_aside(path, stamp)
                _write_campaign_file(path, meta, state)
                done.append(f"Rebuilt {CAMPAIGN_FILE} from the log (up to event "
                            f"{chunk.last_n()}).")
                if moved is not None:
                    done.append(f"The damaged file is kept as {moved.name}.")
            else:
                assert found.doc is not None
                state = found.doc["state"]
                if found.kind == "resume-backup":
                    moved = _set_aside(path, stamp)
                    _write_campaign_file(path, found.doc["meta"], state)
                    done.append(f"Resumed from {BACKUP_FILE} (event {state['event_no']}).")
                    if moved is not None:
                        done.append(f"The damaged {CAMPAIGN_FILE} is kept as {moved.name}.")
                else:
                    done.append(f"Resumed from {CAMPAIGN_FILE} (event {state['event_no']}).")
                aside = _repair_log(log_dir, state, stamp, when)
                if aside:
                    done.append(f"Set aside: {', '.join(aside)}.")
                done.append("Undo cannot go back past this point.")
            _fsync_dir(folder)
            check = _inspect(folder, deep=True)
            if check.kind != "ok":
                raise SaveError(f"Recovering campaign '{campaign_id}' did not repair it: "
                                f"{check.error}")
            return " ".join(done)
        except OSError as exc:
            raise SaveError(f"Cannot recover campaign '{campaign_id}': {exc.strerror or exc} "
                            f"({exc.filename or folder}).") from exc
        finally:
            _release_lock(fd)

    def _load(self) -> None:
        """(Re)load campaign.json and the current log chunk from disk, repairing a torn save."""
        self._stale = True
        self._campaign_db = self._chunk_db = None
        try:
            if not self.read_only:
                _clean_temp_files(self.path)
                _clean_temp_files(self._log_dir)
            self._load_campaign()
            self._load_log()
        except OSError as exc:
            raise SaveError(f"Cannot read campaign '{self.id}' in {self.path}: "
                            f"{exc.strerror or exc}.") from exc
        self._stale = False

    def _load_campaign(self) -> None:
        """Read and check campaign.json."""
        path, backup = self.path / CAMPAIGN_FILE, self.path / BACKUP_FILE
        db = _open_db(path, backup)
        doc = _check_campaign(path, _storage(db).read())
        self._campaign_db = db
        self._meta = doc["meta"]
        self._state = doc["state"]

    def _load_log(self) -> None:
        """Open the last chunk; drop logged events the state never confirmed (torn save/undo)."""
        end = _log_end(self._log_dir, self._state["event_no"])
        chunk = end.chunk
        if self.read_only:
            self._set_current(chunk, None)
            return
        for no in end.drop_chunks:
            self._remove_chunk(no)
        db = _open_db(chunk.path)
        if end.drop_docs:
            db.table(TABLE).remove(doc_ids=end.drop_docs)
        self._set_current(chunk, db)

    def _set_current(self, chunk: _Chunk, db: TinyDB | None) -> None:
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

    def _ready(self, write: bool = False) -> None:
        """SaveError if closed (or read-only, for a write); reload if the caches are unsure."""
        if self._closed:
            raise SaveError(f"Campaign '{self.id}' is closed.")
        if write and self.read_only:
            raise SaveError(f"Campaign '{self.id}' was opened read-only: it cannot be changed.")
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
            raise SaveError(f"{exc.message} (campaign '{self.id}', log chunk {no}) Recover (R on "
                            f"the title screen, or 'sidekick recover {self.id}') sets the damaged "
                            f"chunk aside; the rest of the journal stays.") from exc

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

    def events(self, markers: bool = False) -> Iterator[dict[str, Any]]:
        """Every logged event, oldest first (reads all chunks, one at a time). ``markers``:
        also a ``Recovered`` dict where a recovery began a chunk, for the journal (never
        applied: it is no event of the rules)."""
        self._ready()
        last, end = self._chunk_no, self._state["event_no"]
        prev_n: int | None = None
        for no in range(1, last + 1):
            chunk = self._read_chunk(no, private=True)
            if markers and chunk.recovered is not None:
                yield {"type": "Recovered", "at": chunk.recovered,
                       "n": int(chunk.base.get("event_no", 0) or 0),
                       "a": int(chunk.base.get("action_no", 0) or 0)}
            for _doc_id, event in chunk.events:
                if event["n"] > end:  # saved elsewhere after this read-only store was opened
                    return
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
            if chunk.events:
                if any(event["a"] == action_no for _doc_id, event in chunk.events):
                    found = chunk
                if chunk.events[0][1]["a"] < action_no:
                    break
            if chunk.recovered is not None:
                if found is None:
                    raise SaveError(
                        f"Cannot undo past {chunk.recovered}: the campaign was recovered then "
                        f"and the log before that point was set aside.")
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
        self._ready(write=True)
        events_n = _plain(events, "the events")
        state_n = _plain(state, "the state")
        updates_n = _plain(meta_updates or {}, "the meta updates")
        if not isinstance(events_n, list) or not isinstance(state_n, dict):
            raise SaveError("Cannot save: events must be a list and state a dict.")
        if not isinstance(updates_n, dict):
            raise SaveError("Cannot save: meta_updates must be a dict.")
        if len(events_n) > MAX_CHUNK_EVENTS - CHUNK_EVENTS:
            raise SaveError(f"Cannot save campaign '{self.id}': one action made"
                            f" {len(events_n):,} events, more than a log chunk may hold"
                            f" ({MAX_CHUNK_EVENTS - CHUNK_EVENTS:,}). Nothing was written.")
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
        self._campaign_db.table(TABLE).update({"format": FORMAT, "meta": meta, "state": state},
                                               doc_ids=[1])
        self._meta, self._state = meta, state

    def truncate_from_action(self, action_no: int, state: dict[str, Any]) -> None:
        """Undo: delete every event with ``a >= action_no`` and make ``state`` current.

        ``state["event_no"]`` must be the ``n`` of the last event that remains. The state is
        written first and the log trimmed second (from its end), so a crash in between is
        repaired on the next open.
        """
        self._ready(write=True)
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
            if no > 1 and len(drop) == len(chunk.events) and chunk.recovered is None:
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
        self._closed = True
        self._campaign_db = self._chunk_db = None

    @property
    def closed(self) -> bool:
        """True once :meth:`close` has been called."""
        return self._closed

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
