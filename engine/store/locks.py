"""The campaign lock: an flock on the folder's ``.lock``, held while a process has it open."""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import stat
from pathlib import Path

from engine.errors import SaveError
from engine.store.errors import CampaignInUse
from engine.store.files import _kind, _link_error
from engine.store.layout import LOCK_FILE, MAX_LOCK_BYTES


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
