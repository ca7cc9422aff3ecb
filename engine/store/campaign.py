"""The open campaign: :class:`CampaignStore` creates, opens, saves to, undoes in and closes
one campaign folder, holding its lock while it is open."""

from __future__ import annotations

import contextlib
import copy
import errno
import os
import secrets
from collections.abc import Callable, Iterator
from pathlib import Path
from types import TracebackType
from typing import Any, ClassVar

from tinydb import TinyDB

from engine.errors import SaveError
from engine.store.checks import _check_campaign, _is_int, _plain, _read_tinydb_file, _type_name
from engine.store.chunks import _check_chunk, _Chunk, _chunk_name, _log_end
from engine.store.errors import CampaignExists
from engine.store.files import _check_dir, _clean_temp_files, _fsync_dir
from engine.store.folder import _make_saves_dir, _remove_known_files, sweep_saves
from engine.store.ids import _campaign_dir
from engine.store.layout import (
    _NEW_PREFIX,
    BACKUP_FILE,
    CAMPAIGN_FILE,
    CHUNK_EVENTS,
    FORMAT,
    LOG_DIR,
    MAX_CHUNK_EVENTS,
    TABLE,
    _now,
)
from engine.store.locks import _acquire_lock, _release_lock
from engine.store.recover import _recover, _with_advice
from engine.store.storage import _open_db, _storage
from engine.store.sync import _Syncer


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
        self._syncer = _Syncer(campaign_id) if lock_fd is not None else None
        """The fsyncs of this store's saves, done in the background (None: read-only)."""
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
        self.flush()  # what was saved under the staged name is on disk before it moves
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
            if self._syncer is not None:
                with contextlib.suppress(SaveError):
                    self._syncer.close()
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
        return _recover(saves_dir, campaign_id, rebuild, make_meta)

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
        db = _open_db(path, backup, self._syncer)
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
        db = _open_db(chunk.path, syncer=self._syncer, append_only=True)
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
        """Delete log chunk ``no`` (only ever the last one); the folder is flushed after."""
        self._chunk_path(no).unlink()
        if self._syncer is None:
            _fsync_dir(self._log_dir)
        else:
            self._syncer.mark([], [self._log_dir])

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
                self.flush()  # the log so far is on disk before a chunk follows it
                db = _open_db(path, append_only=True)  # written and flushed now (rare)
                db.table(TABLE).insert_multiple([{"base": self._state}, *events_n])
                _storage(db).syncer = self._syncer
                assert self._campaign_db is not None
                _storage(self._campaign_db).keep_backup = True  # the .bak: the state here
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
                db = _open_db(cut.path, syncer=self._syncer, append_only=True)
            if cut_drop:
                db.table(TABLE).remove(doc_ids=cut_drop)
            cut.events = kept
            self._set_current(cut, db)
        except OSError as exc:
            raise SaveError(f"Cannot undo in campaign '{self.id}': {exc.strerror or exc} "
                            f"({exc.filename or self.path}).") from exc
        self._stale = False

    # ----------------------------------------------------------------- closing

    def flush(self) -> None:
        """Wait until every save and undo made so far is on disk (fsynced), not only in the
        kernel's hands; SaveError if the disk refused. A save that returned survives the
        process being killed already; this makes it survive a power loss too."""
        if self._syncer is not None and not self._closed:
            self._syncer.flush()

    def close(self) -> None:
        """Flush (see :meth:`flush`), end the background syncer and release the lock. The
        store cannot be used afterwards; closing twice is harmless. SaveError (once the lock
        is released) if the last saves could not be flushed to disk."""
        try:
            if self._syncer is not None:
                self._syncer.close()
        finally:
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
