"""The background syncer: the fsyncs of an open campaign's saves, off the player's path.

A save writes its files and renames them into place before it returns, so a save that returned
survives the process being killed (``kill -9``, a crash of Python): the kernel holds the data.
What only an fsync adds is surviving the whole machine stopping (an OS crash, a power loss);
those fsyncs, of each file written and of its folder, are done here, by one thread per open
campaign, a moment after the save. Saves made while it works are gathered into its next round
(one fsync per file however many saves rewrote it). ``flush`` waits until every save made so
far is on disk; ``close`` flushes and ends the thread, so no thread outlives its campaign.
"""

from __future__ import annotations

import threading
from pathlib import Path

from engine.errors import SaveError
from engine.store.files import _fsync_dir, _fsync_file


class _Syncer:
    """Fsyncs files and folders in a background thread (started on the first request)."""

    def __init__(self, name: str) -> None:
        self._name = name
        self._cond = threading.Condition()
        self._files: set[Path] = set()
        self._dirs: set[Path] = set()
        self._asked = 0  # requests made (a counter)
        self._done = 0  # requests whose fsyncs are complete
        self._error: OSError | None = None
        self._thread: threading.Thread | None = None
        self._stopping = False

    def mark(self, files: list[Path], dirs: list[Path]) -> None:
        """Ask for ``files`` then ``dirs`` to be fsynced (soon, in the background)."""
        with self._cond:
            if self._stopping:
                raise SaveError(f"The saves of '{self._name}' are closed.")
            self._files.update(files)
            self._dirs.update(dirs)
            self._asked += 1
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, daemon=True,
                                                name=f"sidekick-sync-{self._name}")
                self._thread.start()
            self._cond.notify_all()

    def _run(self) -> None:
        while True:
            with self._cond:
                while not (self._files or self._dirs or self._stopping):
                    self._cond.wait()
                if not (self._files or self._dirs):
                    return  # stopping with nothing left to do
                files, dirs = self._files, self._dirs
                self._files, self._dirs = set(), set()
                upto = self._asked
            error: OSError | None = None
            for path in sorted(files):
                try:
                    _fsync_file(path)
                except OSError as exc:
                    error = error or exc
            for folder in sorted(dirs):
                try:
                    _fsync_dir(folder)
                except FileNotFoundError:
                    pass  # a staged folder renamed into place: its new name is marked too
                except OSError as exc:
                    error = error or exc
            with self._cond:
                self._done = upto
                if error is not None and self._error is None:
                    self._error = error
                self._cond.notify_all()

    def flush(self) -> None:
        """Wait until everything asked so far is fsynced; SaveError if an fsync failed."""
        with self._cond:
            target = self._asked
            while self._done < target and self._thread is not None:
                self._cond.wait()
            error, self._error = self._error, None
        if error is not None:
            raise SaveError(f"Cannot flush the saves of '{self._name}' to disk: "
                            f"{error.strerror or error} ({error.filename or ''}).") from error

    def close(self) -> None:
        """Flush, then end the thread (waiting for it). Closing twice is harmless."""
        try:
            self.flush()
        finally:
            with self._cond:
                self._stopping = True
                thread = self._thread
                self._cond.notify_all()
            if thread is not None:
                thread.join()
