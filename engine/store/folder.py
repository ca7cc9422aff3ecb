"""The save folder: listing its campaigns, deleting one, sweeping up interrupted work.

A campaign folder is listed only when it holds campaign files, and deleting one removes only
the files Sidekick makes (anything else is left where it was). A new campaign is built in a
hidden ``.~new-*`` folder and renamed into place once its first action is saved; leftovers of
an interrupted create or delete are swept when the save folder is listed.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from engine.errors import SaveError
from engine.store.checks import _text
from engine.store.chunks import _chunk_name, _read_chunk_file
from engine.store.files import _check_dir, _fsync_dir, _is_real_dir
from engine.store.ids import _campaign_dir, _valid_id
from engine.store.layout import (
    _CHUNK_RE,
    _DAMAGED,
    _DAMAGED_CHUNK_RE,
    _DELETED_PREFIX,
    _NEW_PREFIX,
    _TMP_PREFIX,
    _TMP_SUFFIX,
    _TRASH_RE,
    BACKUP_FILE,
    CAMPAIGN_FILE,
    LOCK_FILE,
    LOG_DIR,
)
from engine.store.locks import _acquire_lock, _release_lock, _try_lock
from engine.store.recover import _inspect


def default_saves_dir() -> Path:
    """The save folder: ``$SIDEKICK_SAVES`` if set, else ``./saves``."""
    env = os.environ.get("SIDEKICK_SAVES")
    if env:
        return Path(env).expanduser()
    return Path.cwd() / "saves"


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


NEW_GRACE_SECONDS = 60
"""How long an empty lock file in a ``.~new-*`` folder is taken for a create in progress."""


def _just_made(fd: int) -> bool:
    """Whether the lock file ``fd`` is empty and new: its creator has opened it and not yet
    locked it (a creator writes its pid once it holds the lock)."""
    try:
        info = os.fstat(fd)
    except OSError:
        return True
    return info.st_size == 0 and time.time() - info.st_mtime < NEW_GRACE_SECONDS


def _sweep_folder(saves_dir: Path, folder: Path, restore: str | None) -> None:
    """Finish an interrupted create or delete of ``folder`` unless a process holds its lock.

    A folder without a lock file is left alone (a create that is just starting), except a
    delete's folder, whose lock file goes last.
    """
    fd = _try_lock(folder)
    if fd is None and (restore is None or os.path.lexists(folder / LOCK_FILE)):
        return
    if fd is not None and folder.name.startswith(_NEW_PREFIX) and _just_made(fd):
        _release_lock(fd)  # a create between making its lock file and taking the lock
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
