"""Log chunks: reading and checking one, and finding where the log ends for a state."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.errors import SaveError
from engine.store.checks import _check_state, _is_int, _read_tinydb_file, _text, _type_name
from engine.store.files import _check_dir
from engine.store.layout import _CHUNK_RE, CAMPAIGN_FILE, CHUNK_EVENTS, MAX_CHUNK_EVENTS, TABLE


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
