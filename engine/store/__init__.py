"""Campaign persistence on TinyDB files (the only package that imports tinydb).

- ``campaign``: ``CampaignStore``, one open campaign folder (create, open, save, undo, recover)
- ``folder``: the save folder: listing campaigns, deleting one, sweeping up interrupted work
- ``recover``: what is wrong with a campaign folder, and putting it right
- ``locks``: the campaign lock (an flock on ``.lock``)
- ``chunks``: reading and checking log chunks, finding where the log ends
- ``storage``: ``AtomicJSONStorage``, the TinyDB storage every save file goes through
- ``sync``: the background syncer that fsyncs an open campaign's saves
- ``checks``: shape checks of plain JSON values, TinyDB files and the campaign record
- ``files``: safe reads (no link followed, no FIFO blocked on, bounded size), atomic writes
- ``ids``: campaign ids and the id made from a display name
- ``errors``: ``CampaignExists``, ``CampaignInUse``
- ``layout``: file names, limits and format versions

One folder per campaign under the save folder::

    saves/<campaign-id>/
        .lock               held with flock while a process has the campaign open (holds its pid)
        campaign.json       TinyDB file, one document: {"format", "meta", "state"}
        campaign.json.bak   campaign.json as it was before the first save of the session and
                            before the save that began the last log chunk
        log/000001.json     TinyDB file: document 1 = {"base": state}, then the chunk's events
        log/000002.json     ...

``campaign.json`` is rewritten after every action, so resuming reads one small file and never
replays the history. The log is split in chunks of at most ``CHUNK_EVENTS`` events (a chunk is
only started between two saves, so one save's events stay together); each chunk starts with the
state as it was before its first event, so undo replays one chunk at most and an autosave costs
the same after 10,000 events as on day one.

Every write goes through :class:`AtomicJSONStorage`: a temporary file, ``os.replace`` over the
old one (never a write into a file in place). A save rewrites two files, the current log chunk
(whose earlier documents are not encoded again: their text is kept) and campaign.json, with one
rename each; campaign.json.bak is kept again only by a session's first save and by a save that
starts a log chunk. A save appends the events to the log first and writes the state second; on
open, logged events newer than the state's ``event_no`` (a crash between the two writes) are
dropped. Undo writes the state first and trims the log second, so the same repair covers it.

What a save that returned survives:

- the process killed at any moment (``kill -9``, a crash of Python, a closed terminal):
  nothing acknowledged is lost. Its files were renamed into place before ``save`` returned and
  the kernel holds them; a save under way when the process died is either whole or absent.
- the machine stopping (an OS crash, a power loss): the fsyncs of each file and of its folder
  are made by a background thread a moment after the save (``sync``: typically within a few
  milliseconds; ``flush`` and ``close`` wait for them), so the saves of those last moments may
  be lost. A save that starts a log chunk waits for the earlier fsyncs and fsyncs the new chunk
  itself, so the log never has a gap before a chunk; creating a campaign, publishing it and
  Recover fsync before they return, as before.

Meta keys read by :func:`list_campaigns`: ``name``, ``system``, ``hero``, ``scene``,
``last_played`` (set by the store, ISO 8601 in UTC).
"""

from __future__ import annotations

from engine.store.campaign import CampaignStore
from engine.store.checks import _read_tinydb_file
from engine.store.errors import CampaignExists, CampaignInUse
from engine.store.files import _kind, _read_regular
from engine.store.folder import (
    CampaignSummary,
    default_saves_dir,
    delete_campaign,
    list_campaigns,
    sweep_saves,
)
from engine.store.ids import _valid_id, slugify, unique_id
from engine.store.layout import (
    BACKUP_FILE,
    CAMPAIGN_FILE,
    CHUNK_EVENTS,
    FORMAT,
    LOCK_FILE,
    MAX_CHUNK_EVENTS,
    MAX_FILE_BYTES,
    MAX_ID_BYTES,
    MAX_ID_LENGTH,
    MAX_LOCK_BYTES,
)
from engine.store.recover import _REBUILD_PLAN, _RESUME_BACKUP_PLAN, _set_aside
from engine.store.storage import AtomicJSONStorage

__all__ = [
    "BACKUP_FILE",
    "CAMPAIGN_FILE",
    "CHUNK_EVENTS",
    "FORMAT",
    "LOCK_FILE",
    "MAX_CHUNK_EVENTS",
    "MAX_FILE_BYTES",
    "MAX_ID_BYTES",
    "MAX_ID_LENGTH",
    "MAX_LOCK_BYTES",
    "_REBUILD_PLAN",
    "_RESUME_BACKUP_PLAN",
    "AtomicJSONStorage",
    "CampaignExists",
    "CampaignInUse",
    "CampaignStore",
    "CampaignSummary",
    "_kind",
    "_read_regular",
    "_read_tinydb_file",
    "_set_aside",
    "_valid_id",
    "default_saves_dir",
    "delete_campaign",
    "list_campaigns",
    "slugify",
    "sweep_saves",
    "unique_id",
]
