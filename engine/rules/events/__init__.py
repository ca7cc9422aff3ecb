"""Events: every consequence in the game, and ``apply``, the only writer of state.

An event is a small frozen dataclass. Its dict form (``to_dict``) is what the save log holds;
``from_dict`` reads it back. Rules modules may register their own events with ``@event`` and
their appliers with ``@applier``. Importing this package registers every core event in
``CORE``; its modules, by idea:

- ``core``: ``Event``, the ``CORE`` registry, ``event``, ``applier``, ``from_dict``, ``apply``
- ``story``: fiction, the engine's flow, actions, moves triggered, outcomes and questions
- ``rolls``: rolls, results adjusted after the roll, the campaign's dice mode
- ``characters``: conditions, labels, tracks, bonuses, hold, flags, advances, heroes and
  NPCs, system data
- ``scenes``: scenes and sessions, and the once-per-scene or once-per-session uses
- ``gm``: the GM's moves, the oracle and tension, threats and clocks, stances
- ``ledger``: threads, facts, whereabouts
- ``edits``: ``Edited``, the hand edits of the core's kinds
"""

from __future__ import annotations

from engine.rules.events.characters import (
    AdvanceTaken,
    BonusAdded,
    BonusesExpired,
    ConditionCleared,
    ConditionMarked,
    DataSet,
    FlagSet,
    HeroAdded,
    HeroSwitched,
    HoldChanged,
    LabelLocked,
    LabelsShifted,
    NPCAdded,
    NPCPresence,
    TakenOut,
    TrackChanged,
)
from engine.rules.events.core import (
    CORE,
    Event,
    applier,
    apply,
    edit_applier,
    event,
    from_dict,
    named,
)
from engine.rules.events.edits import Edited
from engine.rules.events.gm import (
    GM_LINE_MEMORY,
    ClockChanged,
    DoomStruck,
    GMMoveMade,
    OracleAnswered,
    QuietBeat,
    RandomEvent,
    StanceChanged,
    TensionChanged,
    ThreatAdded,
    ThreatIgnored,
)
from engine.rules.events.ledger import (
    LEDGER_KINDS,
    LEDGER_OPS,
    LedgerChanged,
    ProgressRolled,
    ThreadsChanged,
    ThreatConfronted,
)
from engine.rules.events.rolls import DiceModeChanged, RollAdjusted, Rolled, is_fight_roll
from engine.rules.events.scenes import (
    ClearingActionTaken,
    OnceUsed,
    SceneEnded,
    SceneMoved,
    SceneStarted,
    SessionEnded,
    SessionStarted,
)
from engine.rules.events.story import (
    ActionStarted,
    FlowChanged,
    MoveTriggered,
    Narrated,
    OptionsChosen,
    OutcomeReached,
    QuestionAnswered,
    QuestionsAsked,
)

__all__ = [
    "CORE",
    "GM_LINE_MEMORY",
    "LEDGER_KINDS",
    "LEDGER_OPS",
    "ActionStarted",
    "AdvanceTaken",
    "BonusAdded",
    "BonusesExpired",
    "ClearingActionTaken",
    "ClockChanged",
    "ConditionCleared",
    "ConditionMarked",
    "DataSet",
    "DiceModeChanged",
    "DoomStruck",
    "Edited",
    "Event",
    "FlagSet",
    "FlowChanged",
    "GMMoveMade",
    "HeroAdded",
    "HeroSwitched",
    "HoldChanged",
    "LabelLocked",
    "LabelsShifted",
    "LedgerChanged",
    "MoveTriggered",
    "NPCAdded",
    "NPCPresence",
    "Narrated",
    "OnceUsed",
    "OptionsChosen",
    "OracleAnswered",
    "OutcomeReached",
    "ProgressRolled",
    "QuestionAnswered",
    "QuestionsAsked",
    "QuietBeat",
    "RandomEvent",
    "RollAdjusted",
    "Rolled",
    "SceneEnded",
    "SceneMoved",
    "SceneStarted",
    "SessionEnded",
    "SessionStarted",
    "StanceChanged",
    "TakenOut",
    "TensionChanged",
    "ThreadsChanged",
    "ThreatAdded",
    "ThreatConfronted",
    "ThreatIgnored",
    "TrackChanged",
    "applier",
    "apply",
    "edit_applier",
    "event",
    "from_dict",
    "is_fight_roll",
    "named",
]
