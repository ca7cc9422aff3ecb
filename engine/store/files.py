"""Safe file access: reads that never follow a link or block, atomic writes with fsync.

Every file is opened without following symbolic links and must be a regular file of a bounded
size (a planted link, FIFO or device is an error, never a hang or a write elsewhere).
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat
from pathlib import Path

from engine.errors import CampaignNotFound, SaveError
from engine.store.layout import _TMP_PREFIX, _TMP_SUFFIX, MAX_FILE_BYTES


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


def _fsync_file(path: Path) -> None:
    """Flush the file now at ``path`` to disk (never following a link; gone: nothing to do)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        return  # replaced or removed since: its successor is flushed in its own turn
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return  # a link planted there since: not ours to flush (never followed)
        raise
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _write_new_file(path: Path, data: bytes, sync: bool = True) -> None:
    """Create ``path`` (must not exist) with ``data``, flushed and (with ``sync``) fsynced."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        view = memoryview(data)
        while view:
            written = os.write(fd, view)
            view = view[written:]
        if sync:
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


def _atomic_write(path: Path, text: str, backup: Path | None = None, *,
                  durable: bool = True) -> None:
    """Replace ``path`` with ``text`` atomically; first link the old file to ``backup`` if given.

    The new content goes to a temporary file in the same folder, is fsynced, then renamed over
    ``path``; the folder is fsynced last. The old file is never truncated or written to.
    Without ``durable`` both fsyncs are left to the caller (``sync._Syncer``): the file is
    renamed into place all the same, so it survives the process being killed, not yet a
    power loss.
    """
    tmp = _tmp_path(path)
    try:
        _write_new_file(tmp, text.encode("utf-8"), sync=durable)
        if backup is not None and path.exists():
            _backup(path, backup)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    if durable:
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
        if missing:
            raise CampaignNotFound(missing) from exc
        raise SaveError(f"{path} is missing.") from exc
    except OSError as exc:
        raise SaveError(f"Cannot read {path}: {exc.strerror or exc}.") from exc
    if stat.S_ISLNK(mode):
        raise _link_error(path)
    if not stat.S_ISDIR(mode):
        raise SaveError(f"{path} is {_kind(mode)}, not a folder; Sidekick left it alone.")
