"""Health and recovery: what is wrong with a campaign folder, and putting it right.

Recovery never deletes: a damaged file is renamed aside (``<name>.damaged-<UTC time>``). With
an intact log and a damaged ``campaign.json`` the state is rebuilt from the log; with a damaged
log the campaign resumes from ``campaign.json`` (or, if that is damaged too, from
``campaign.json.bak``) on a fresh log chunk whose first document says ``"recovered"``; undo
cannot go back past it.
"""

from __future__ import annotations

import contextlib
import copy
import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from engine.errors import SaveError
from engine.store.checks import _check_campaign, _plain, _read_tinydb_file
from engine.store.chunks import (
    _Chunk,
    _chunk_files,
    _chunk_name,
    _chunk_numbers,
    _log_end,
    _read_chunk_file,
)
from engine.store.errors import CampaignInUse, _TooNew
from engine.store.files import (
    _atomic_write,
    _check_dir,
    _clean_temp_files,
    _fsync_dir,
    _is_real_dir,
)
from engine.store.ids import _campaign_dir
from engine.store.layout import _DAMAGED, BACKUP_FILE, CAMPAIGN_FILE, FORMAT, LOG_DIR, TABLE, _now
from engine.store.locks import _acquire_lock, _release_lock
from engine.store.storage import _open_db

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


def _recover(
    saves_dir: Path,
    campaign_id: str,
    rebuild: Callable[[dict[str, Any], list[dict[str, Any]]], dict[str, Any]],
    make_meta: Callable[[dict[str, Any], dict[str, Any]], dict[str, Any]],
) -> str:
    """Recover a damaged campaign: the work of ``CampaignStore.recover`` (see there)."""
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
