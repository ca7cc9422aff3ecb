"""The save format: file and folder names, size limits, format versions and time stamps."""

from __future__ import annotations

import re
from datetime import UTC, datetime

CHUNK_EVENTS = 200
"""A new log chunk is started before a save once the current chunk holds this many events."""

MAX_CHUNK_EVENTS = 20_000
"""The most events a log chunk may hold: Sidekick writes ``CHUNK_EVENTS`` and one action's
more at most, and refuses to save an action of more than ``MAX_CHUNK_EVENTS - CHUNK_EVENTS``
events, so a chunk holding more was not written by Sidekick (it is refused as damaged and
Recover sets it aside)."""

FORMAT = 4
"""Version of the save format, stored in campaign.json. 2: the state holds ``actors`` (a party
of heroes and the NPCs) instead of one ``hero`` and ``npcs``. 3: a fight under way is the
state's typed ``fight`` (not JSON in ``data["fight"]``), its log holds one event per change of
the fight instead of ``FightUpdated`` snapshots, and saved models leave out the fields still at
their defaults. 4: a finished fight's minions leave the state (``FoesCleared``; an older
state sheds them when opened, ``engine.rules.fight.foes.shed_spent_foes``). Older formats are
read and migrated forward (``engine.rules.state.migrate``); a newer save tells a Sidekick that
reads only older formats that it was written by a newer version, instead of being misread."""

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


def _now() -> str:
    """The current time as a fixed-width ISO 8601 string in UTC (sorts as text)."""
    return datetime.now(UTC).isoformat(timespec="milliseconds")
