"""Events: every consequence in the game, and ``apply``, the only writer of state.

An event is a small frozen dataclass. Its dict form (``to_dict``) is what the save log holds;
``from_dict`` reads it back. Rules modules may register their own events with ``@event`` and
their appliers with ``@applier``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar

from engine.rules.registry import Registry
from engine.rules.state import (
    HERO,
    ActiveBonus,
    Actor,
    CampaignState,
    Fact,
    Flow,
    HoldEntry,
    Scene,
    Thread,
    Threat,
)
from engine.rules.types import BandDict, Modifier

CORE = Registry("core")
"""The core's events, appliers and edit kinds: every ruleset's registry extends it."""


@dataclass(frozen=True, slots=True)
class Event:
    """Base of all events. ``n`` and ``a`` (event and action numbers) are set when logged."""

    type: ClassVar[str] = "Event"
    _names: ClassVar[tuple[str, ...]] = ()
    _quiet: ClassVar[dict[str, Any]] = {}
    _apply: ClassVar[Callable[[CampaignState, Any], None] | None] = None
    """What applies it (``Registry.applier``); None: a line of the story only."""
    OPTIONAL: ClassVar[tuple[str, ...]] = ()
    """Fields added after an event type was first saved: written only when not at their
    default, so the saved form of older events (and what older versions read) is unchanged."""

    def to_dict(self) -> dict[str, Any]:
        """The JSON-ready form: ``{"type": ..., field: value, ...}``."""
        d: dict[str, Any] = {"type": self.type}
        quiet = self._quiet
        for name in self._names:
            value = getattr(self, name)
            if name in quiet and value == quiet[name]:
                continue
            d[name] = value
        return d


event = CORE.event
"""Register a core event class."""
applier = CORE.applier
"""Declare the applier of a core event."""
edit_applier = CORE.edit
"""Register how an ``Edited`` event of a core kind writes the state."""


def from_dict(d: dict[str, Any]) -> Event:
    """A core event from its saved form (a campaign's log is read with its ruleset's
    registry: ``Ruleset.registry.decode``)."""
    return CORE.decode(d)


def apply(state: CampaignState, ev: Event) -> None:
    """Apply one event to ``state`` (hand edits of the core's kinds only: a campaign applies
    through its ruleset's registry, ``Ruleset.registry.apply``)."""
    CORE.apply(state, ev)


# ------------------------------------------------------------------ story and flow


@event
@dataclass(frozen=True, slots=True)
class Narrated(Event):
    """Fiction: what the player says their hero does, or what the GM or engine says."""

    text: str
    by: str = "player"


@applier("Narrated")
def _narrated(state: CampaignState, ev: Narrated) -> None:
    if ev.by == "player":
        state.scene.beats += 1


@event
@dataclass(frozen=True, slots=True)
class FlowChanged(Event):
    """The engine now waits for something else (the prompt, the pending roll, the queue)."""

    flow: dict[str, Any]


@applier("FlowChanged")
def _flow(state: CampaignState, ev: FlowChanged) -> None:
    state.flow = Flow.model_validate(ev.flow)


@event
@dataclass(frozen=True, slots=True)
class ActionStarted(Event):
    """A player action begins; counts actions for undo."""

    action: int
    label: str


@applier("ActionStarted")
def _action(state: CampaignState, ev: ActionStarted) -> None:
    state.action_no = ev.action


@event
@dataclass(frozen=True, slots=True)
class MoveTriggered(Event):
    """The fiction triggered a move."""

    move: str
    name: str
    target: str | None = None
    once_key: str | None = None


@applier("MoveTriggered")
def _move(state: CampaignState, ev: MoveTriggered) -> None:
    state.scene.quiet = 0
    state.scene.beats += 1
    for threat in state.threats.values():  # acting against a threat's NPC confronts it
        if ev.target is not None and threat.npc == ev.target:
            threat.confronted = state.scene.number
    if ev.once_key and ev.once_key not in state.used:
        state.used.append(ev.once_key)


@event
@dataclass(frozen=True, slots=True)
class Rolled(Event):
    """A roll with every reason: faces kept and dropped, each modifier and its source, odds.

    ``bands`` are the bands the roll used when the ruleset chose them for this roll (None:
    the pack's fixed bands for the move); ``override`` says when the dice themselves set the
    band (``{"from": band the total gave, "why": ...}``)."""

    OPTIONAL: ClassVar[tuple[str, ...]] = ("bands", "override")

    move: str
    stat: str
    dice: str
    faces: list[int]
    kept: list[int]
    dropped: list[int]
    modifiers: list[Modifier]
    raw_modifier: int
    modifier: int
    clamp: list[int] | None
    total: int
    band: str
    band_name: str
    odds: dict[str, str]
    entered: bool = False
    position: int = 0
    inverted: bool = False
    tone: str = "mixed"
    bands: list[BandDict] | None = None
    override: dict[str, str] | None = None


@applier("Rolled")
def _rolled(state: CampaignState, ev: Rolled) -> None:
    if not ev.entered:
        state.dice_position = ev.position
    if ev.tone == "bad":
        state.scene.misses += 1
    elif ev.tone == "good":
        state.scene.hits += 1
    used = [m[2] for m in ev.modifiers if len(m) > 2 and m[2] is not None]
    if used:
        # a roll marks as used its forward bonuses and ongoing ones that last one roll
        state.bonuses = [b for b in state.bonuses if not (
            b.id in used and (b.kind == "forward" or b.expires == "roll"))]


@event
@dataclass(frozen=True, slots=True)
class RollAdjusted(Event):
    """A modifier added after the roll (Team, Influence, acting selfishly) changed the result."""

    source: str
    amount: int
    total: int
    band: str
    band_name: str
    modifier: int
    tone: str = ""
    was: str = ""


@applier("RollAdjusted")
def _adjusted(state: CampaignState, ev: RollAdjusted) -> None:
    # the scene's count of hits and misses (the GM's tension) follows the adjusted result;
    # events saved before ``tone`` and ``was`` existed change nothing, as they did then
    if not ev.tone or not ev.was or ev.tone == ev.was:
        return
    if ev.was == "bad":
        state.scene.misses = max(0, state.scene.misses - 1)
    elif ev.was == "good":
        state.scene.hits = max(0, state.scene.hits - 1)
    if ev.tone == "bad":
        state.scene.misses += 1
    elif ev.tone == "good":
        state.scene.hits += 1


@event
@dataclass(frozen=True, slots=True)
class OutcomeReached(Event):
    """The band's outcome text, for the journal."""

    move: str
    band: str
    text: str


@event
@dataclass(frozen=True, slots=True)
class OptionsChosen(Event):
    """The options picked from a "choose N" list."""

    move: str
    options: list[str]
    texts: list[str]


@event
@dataclass(frozen=True, slots=True)
class QuestionsAsked(Event):
    """Questions the player asks from a move's list."""

    move: str
    questions: list[str]


@event
@dataclass(frozen=True, slots=True)
class QuestionAnswered(Event):
    """One asked question answered: ``by`` the GM (its offer accepted, drawn as
    ``drawn_from`` says) or the player (their own words)."""

    move: str
    question: str
    answer: str
    drawn_from: str = ""
    by: str = "gm"


# ------------------------------------------------------------------ hero and NPCs


@event
@dataclass(frozen=True, slots=True)
class ConditionMarked(Event):
    """A condition marked on a character (``who``: an actor id, or "hero": the acting hero)."""

    who: str
    condition: str
    reason: str = ""


@applier("ConditionMarked")
def _cond_marked(state: CampaignState, ev: ConditionMarked) -> None:
    conds = state.actor(ev.who).conditions
    if ev.condition not in conds:
        conds.append(ev.condition)
    if state.actor_id(ev.who) == state.acting and ev.condition in state.scene.clearing:
        state.scene.clearing.remove(ev.condition)  # marked anew: an earlier action is spent


@event
@dataclass(frozen=True, slots=True)
class ConditionCleared(Event):
    """A condition cleared."""

    who: str
    condition: str
    reason: str = ""


@applier("ConditionCleared")
def _cond_cleared(state: CampaignState, ev: ConditionCleared) -> None:
    conds = state.actor(ev.who).conditions
    if ev.condition in conds:
        conds.remove(ev.condition)


@event
@dataclass(frozen=True, slots=True)
class LabelsShifted(Event):
    """Stats shifted: {stat: delta}, with the resulting values."""

    changes: dict[str, int]
    values: dict[str, int]
    reason: str = ""
    who: str = HERO
    OPTIONAL: ClassVar[tuple[str, ...]] = ("who",)


@applier("LabelsShifted")
def _shifted(state: CampaignState, ev: LabelsShifted) -> None:
    state.actor(ev.who).stats.update(ev.values)


@event
@dataclass(frozen=True, slots=True)
class LabelLocked(Event):
    """A stat is locked for good."""

    stat: str
    who: str = HERO
    OPTIONAL: ClassVar[tuple[str, ...]] = ("who",)


@applier("LabelLocked")
def _locked(state: CampaignState, ev: LabelLocked) -> None:
    locked = state.actor(ev.who).locked
    if ev.stat not in locked:
        locked.append(ev.stat)


@event
@dataclass(frozen=True, slots=True)
class TrackChanged(Event):
    """A track or pool moved to ``value`` (already clamped)."""

    track: str
    scope: str
    delta: int
    value: int
    reason: str = ""
    who: str = HERO
    OPTIONAL: ClassVar[tuple[str, ...]] = ("who",)


@applier("TrackChanged")
def _track(state: CampaignState, ev: TrackChanged) -> None:
    if ev.scope == "campaign":
        state.pools[ev.track] = ev.value
    else:
        state.actor(ev.who).tracks[ev.track] = ev.value


@event
@dataclass(frozen=True, slots=True)
class BonusAdded(Event):
    """A +N forward or ongoing."""

    id: int
    kind: str
    amount: int
    moves: list[str]
    target: str | None
    expires: str
    reason: str
    owner: str = HERO
    OPTIONAL: ClassVar[tuple[str, ...]] = ("owner",)


@applier("BonusAdded")
def _bonus(state: CampaignState, ev: BonusAdded) -> None:
    state.bonuses.append(
        ActiveBonus(
            id=ev.id, kind=ev.kind, amount=ev.amount, moves=list(ev.moves),
            target=ev.target, expires=ev.expires, reason=ev.reason,
            owner=state.actor_id(ev.owner),
        )
    )
    state.next_id = max(state.next_id, ev.id + 1)


@event
@dataclass(frozen=True, slots=True)
class BonusesExpired(Event):
    """Bonuses that ran out."""

    ids: list[int]
    reason: str = ""


@applier("BonusesExpired")
def _bonus_gone(state: CampaignState, ev: BonusesExpired) -> None:
    state.bonuses = [b for b in state.bonuses if b.id not in ev.ids]


@event
@dataclass(frozen=True, slots=True)
class HoldChanged(Event):
    """Hold on a move gained or spent."""

    move: str
    delta: int
    value: int
    expires: str = "scene"


@applier("HoldChanged")
def _hold(state: CampaignState, ev: HoldChanged) -> None:
    state.holds = [h for h in state.holds if h.move != ev.move]
    if ev.value > 0:
        state.holds.append(HoldEntry(move=ev.move, amount=ev.value, expires=ev.expires))


@event
@dataclass(frozen=True, slots=True)
class TakenOut(Event):
    """A hero is taken out of the scene (or returns, with ``out`` false)."""

    out: bool = True
    reason: str = ""
    who: str = HERO
    OPTIONAL: ClassVar[tuple[str, ...]] = ("who",)


@applier("TakenOut")
def _taken_out(state: CampaignState, ev: TakenOut) -> None:
    state.actor(ev.who).taken_out = ev.out


@event
@dataclass(frozen=True, slots=True)
class FlagSet(Event):
    """A hero flag set or cleared."""

    flag: str
    value: bool = True
    who: str = HERO
    OPTIONAL: ClassVar[tuple[str, ...]] = ("who",)


@applier("FlagSet")
def _flag(state: CampaignState, ev: FlagSet) -> None:
    flags = state.actor(ev.who).flags
    if ev.value and ev.flag not in flags:
        flags.append(ev.flag)
    elif not ev.value and ev.flag in flags:
        flags.remove(ev.flag)


@event
@dataclass(frozen=True, slots=True)
class AdvanceTaken(Event):
    """An advancement taken."""

    advance: str
    text: str
    who: str = HERO
    OPTIONAL: ClassVar[tuple[str, ...]] = ("who",)


@applier("AdvanceTaken")
def _advance(state: CampaignState, ev: AdvanceTaken) -> None:
    state.actor(ev.who).advances.append(ev.advance)


@event
@dataclass(frozen=True, slots=True)
class NPCAdded(Event):
    """An NPC joins the campaign."""

    id: str
    name: str
    role: str
    note: str = ""
    present: bool = True


@applier("NPCAdded")
def _npc(state: CampaignState, ev: NPCAdded) -> None:
    state.actors[ev.id] = Actor(id=ev.id, name=ev.name, role=ev.role, note=ev.note,
                                present=ev.present)
    if ev.present and ev.id not in state.scene.present:
        state.scene.present.append(ev.id)


@event
@dataclass(frozen=True, slots=True)
class HeroAdded(Event):
    """A hero joins the party (the first hero is made with the campaign)."""

    id: str
    name: str
    archetype: str | None = None
    stats: dict[str, int] = field(default_factory=dict)
    tracks: dict[str, int] = field(default_factory=dict)
    flags: list[str] = field(default_factory=list)
    data: dict[str, Any] = field(default_factory=dict)


@applier("HeroAdded")
def _hero_added(state: CampaignState, ev: HeroAdded) -> None:
    state.actors[ev.id] = Actor(id=ev.id, name=ev.name, kind="hero", role="hero",
                                archetype=ev.archetype, stats=dict(ev.stats),
                                tracks=dict(ev.tracks), flags=list(ev.flags),
                                data=dict(ev.data))
    if ev.id not in state.party:
        state.party.append(ev.id)


@event
@dataclass(frozen=True, slots=True)
class HeroSwitched(Event):
    """Another hero of the party takes the spotlight: the next moves are theirs."""

    hero: str
    was: str = ""


@applier("HeroSwitched")
def _hero_switched(state: CampaignState, ev: HeroSwitched) -> None:
    state.acting = ev.hero


@event
@dataclass(frozen=True, slots=True)
class NPCPresence(Event):
    """An NPC enters or leaves the scene."""

    npc: str
    present: bool


@applier("NPCPresence")
def _presence(state: CampaignState, ev: NPCPresence) -> None:
    state.actors[ev.npc].present = ev.present
    if ev.present and ev.npc not in state.scene.present:
        state.scene.present.append(ev.npc)


@event
@dataclass(frozen=True, slots=True)
class OnceUsed(Event):
    """A once-per-scene or once-per-session use is spent."""

    key: str


@applier("OnceUsed")
def _once(state: CampaignState, ev: OnceUsed) -> None:
    if ev.key not in state.used:
        state.used.append(ev.key)


# ------------------------------------------------------------------ scenes and sessions


@event
@dataclass(frozen=True, slots=True)
class SceneStarted(Event):
    """A new scene opens."""

    number: int
    title: str = ""
    location: str = ""
    stakes: str = ""
    present: list[str] = field(default_factory=list)


@applier("SceneStarted")
def _scene_start(state: CampaignState, ev: SceneStarted) -> None:
    state.scene = Scene(
        number=ev.number, title=ev.title, location=ev.location, stakes=ev.stakes, open=True
    )
    npcs = [a for a in state.actors.values() if a.kind == "npc"]
    if ev.present:
        for npc in npcs:
            npc.present = npc.id in ev.present
    state.scene.present = [n.id for n in npcs if n.present]


@event
@dataclass(frozen=True, slots=True)
class ClearingActionTaken(Event):
    """The hero took the action that clears a condition at the scene's end (saves made before
    clearing actions cleared at once still hold these; nothing emits it now)."""

    condition: str


@applier("ClearingActionTaken")
def _clearing(state: CampaignState, ev: ClearingActionTaken) -> None:
    if ev.condition not in state.scene.clearing:
        state.scene.clearing.append(ev.condition)


@event
@dataclass(frozen=True, slots=True)
class SceneEnded(Event):
    """The scene closes; scene-long bonuses, hold and once-per-scene uses end."""

    number: int


@applier("SceneEnded")
def _scene_end(state: CampaignState, ev: SceneEnded) -> None:
    state.scene.open = False
    state.scene.clearing = []
    state.bonuses = [b for b in state.bonuses if b.expires == "session"]
    state.holds = [h for h in state.holds if h.expires == "session"]
    state.used = [u for u in state.used if not u.startswith("scene:")]


@event
@dataclass(frozen=True, slots=True)
class SessionStarted(Event):
    """A new session of play."""

    number: int


@applier("SessionStarted")
def _session_start(state: CampaignState, ev: SessionStarted) -> None:
    state.session = ev.number


@event
@dataclass(frozen=True, slots=True)
class SessionEnded(Event):
    """The session closes; session-long bonuses, hold and once-per-session uses end."""

    number: int


@applier("SessionEnded")
def _session_end(state: CampaignState, ev: SessionEnded) -> None:
    state.bonuses = []
    state.holds = []
    state.used = []


# ------------------------------------------------------------------ the GM


@event
@dataclass(frozen=True, slots=True)
class GMMoveMade(Event):
    """The GM made a move: which, why, and how it reads."""

    move: str
    name: str
    kind: str
    text: str
    reason: str = ""
    template: int = 0
    line: str = ""
    """Which parts of the move's ``narration.yaml`` made the line ("open.act.stake" indices);
    empty for a whole line of ``gm.yaml`` (``template``)."""
    OPTIONAL: ClassVar[tuple[str, ...]] = ("line",)


GM_LINE_MEMORY = 40
"""GM lines remembered (``state.gm_lines``): none is said again within this many GM moves."""


@applier("GMMoveMade")
def _gm_move(state: CampaignState, ev: GMMoveMade) -> None:
    state.gm_recent = [*state.gm_recent[-5:], ev.move]
    said = f"{ev.move}:{ev.line or ev.template}"
    state.gm_lines = [*state.gm_lines[-(GM_LINE_MEMORY - 1):], said]
    state.scene.quiet = 0


@event
@dataclass(frozen=True, slots=True)
class QuietBeat(Event):
    """Fiction with no move: the scene may be stalling."""

    count: int


@applier("QuietBeat")
def _quiet(state: CampaignState, ev: QuietBeat) -> None:
    state.scene.quiet = ev.count


@event
@dataclass(frozen=True, slots=True)
class DiceModeChanged(Event):
    """The campaign's dice: ``seeded`` (rolled for you), ``physical`` (you enter every roll)
    or ``mixed`` (each roll asks)."""

    mode: str
    was: str = "seeded"


@applier("DiceModeChanged")
def _dice_mode(state: CampaignState, ev: DiceModeChanged) -> None:
    state.dice_mode = ev.mode  # type: ignore[assignment]


@event
@dataclass(frozen=True, slots=True)
class OracleAnswered(Event):
    """A yes/no question answered by a d100, with the exact odds it had."""

    question: str
    level: str
    chance: int
    roll: int
    answer: str
    exceptional: bool
    twist: bool
    tension: int
    odds: dict[str, str]
    entered: bool = False
    position: int = 0


@applier("OracleAnswered")
def _oracle(state: CampaignState, ev: OracleAnswered) -> None:
    if not ev.entered:
        state.dice_position = ev.position


@event
@dataclass(frozen=True, slots=True)
class RandomEvent(Event):
    """Something unplanned happens: a focus, two inspiration words and, when the focus is a
    thread or a character, which one the story's ledger names."""

    focus: str
    action: str
    subject: str
    about: str = ""
    OPTIONAL: ClassVar[tuple[str, ...]] = ("about",)


@event
@dataclass(frozen=True, slots=True)
class ThreatAdded(Event):
    """A threat with a clock enters play."""

    id: str
    name: str
    kind: str = "villain"
    size: int = 6
    steps: list[str] = field(default_factory=list)
    doom: str = ""
    npc: str | None = None


@applier("ThreatAdded")
def _threat(state: CampaignState, ev: ThreatAdded) -> None:
    state.threats[ev.id] = Threat(
        id=ev.id, name=ev.name, kind=ev.kind, size=ev.size, steps=list(ev.steps), doom=ev.doom,
        npc=ev.npc,
    )


@event
@dataclass(frozen=True, slots=True)
class ClockChanged(Event):
    """A threat's clock moved."""

    threat: str
    delta: int
    value: int
    step: str = ""
    name: str = ""


@applier("ClockChanged")
def _clock(state: CampaignState, ev: ClockChanged) -> None:
    state.threats[ev.threat].clock = ev.value


@event
@dataclass(frozen=True, slots=True)
class DoomStruck(Event):
    """A full clock: the threat's doom happens."""

    threat: str
    text: str


@applier("DoomStruck")
def _doom(state: CampaignState, ev: DoomStruck) -> None:
    state.threats[ev.threat].active = False


@event
@dataclass(frozen=True, slots=True)
class ThreatIgnored(Event):
    """At a scene's end: how many scenes in a row a threat has been left alone (0: it was
    confronted, and the count starts again)."""

    threat: str
    scenes: int
    name: str = ""


@applier("ThreatIgnored")
def _ignored(state: CampaignState, ev: ThreatIgnored) -> None:
    state.threats[ev.threat].ignored = ev.scenes


@event
@dataclass(frozen=True, slots=True)
class StanceChanged(Event):
    """An NPC's stance toward a hero changed (``hero``: a hero id, or "hero" for the acting
    one)."""

    npc: str
    stance: str
    hero: str = HERO
    was: str = ""
    reason: str = ""


@applier("StanceChanged")
def _stance(state: CampaignState, ev: StanceChanged) -> None:
    state.actors[ev.npc].stance[state.actor_id(ev.hero)] = ev.stance


@event
@dataclass(frozen=True, slots=True)
class ThreadsChanged(Event):
    """The list of open story threads changed."""

    added: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)


@applier("ThreadsChanged")
def _threads(state: CampaignState, ev: ThreadsChanged) -> None:
    # the log's older form: texts added (new open threads) and removed (resolved)
    for thread in state.threads:
        if thread.status == "open" and thread.text in ev.removed:
            thread.status = "resolved"
    for text in ev.added:
        if not any(t.status == "open" and t.text == text for t in state.threads):
            tid = state.next_ledger_id("t")
            _count_id(state, tid)
            state.threads.append(Thread(id=tid, text=text))


LEDGER_KINDS = {"thread": "t", "fact": "f", "where": ""}
"""Ledger kinds and the prefix of their ids (``where``: an actor's whereabouts, by its id)."""
LEDGER_OPS = {"thread": ("open", "edit", "resolve", "reopen", "remove"),
              "fact": ("record", "edit", "remove"), "where": ("set",)}
"""What each kind of ledger entry can undergo."""


def _count_id(state: CampaignState, entry_id: str) -> None:
    prefix = entry_id.rstrip("0123456789")
    number = entry_id[len(prefix):]
    if prefix and number:
        state.ledger_ids[prefix] = max(state.ledger_ids.get(prefix, 0), int(number))


@event
@dataclass(frozen=True, slots=True)
class LedgerChanged(Event):
    """The story ledger changed: a thread opened, edited, resolved, reopened or removed; a fact
    recorded, edited or removed; an NPC's whereabouts set (``kind`` "where", ``id`` the
    actor). ``text`` is the entry's words now (for "where": the place, "" unknown), ``was``
    its words before; ``source`` who wrote it; ``about`` the actors a fact concerns."""

    kind: str
    op: str
    id: str
    text: str = ""
    was: str = ""
    source: str = ""
    note: str = ""
    about: list[str] = field(default_factory=list)


@applier("LedgerChanged")
def _ledger(state: CampaignState, ev: LedgerChanged) -> None:
    if ev.kind == "where":
        state.actors[ev.id].where = ev.text
        return
    entries: list[Any] = state.threads if ev.kind == "thread" else state.facts
    if ev.op in ("open", "record"):
        _count_id(state, ev.id)
        if ev.kind == "thread":
            entries.append(Thread(id=ev.id, text=ev.text, source=ev.source, note=ev.note))
        else:
            entries.append(Fact(id=ev.id, text=ev.text, source=ev.source, about=list(ev.about)))
        return
    found = next(e for e in entries if e.id == ev.id)
    match ev.op:
        case "edit":
            found.text = ev.text or found.text
            if ev.kind == "thread":
                found.note = ev.note
            else:
                found.about = list(ev.about)
        case "resolve":
            found.status = "resolved"
        case "reopen":
            found.status = "open"
        case "remove":
            entries.remove(found)


@event
@dataclass(frozen=True, slots=True)
class TensionChanged(Event):
    """The oracle's tension track moved."""

    value: int
    reason: str = ""


@applier("TensionChanged")
def _tension(state: CampaignState, ev: TensionChanged) -> None:
    state.tension = ev.value


@event
@dataclass(frozen=True, slots=True)
class DataSet(Event):
    """A system-specific value changed: of the acting hero (``scope`` "hero"), of an actor
    (``scope`` its id) or of the campaign (``scope`` "campaign"); key and value."""

    scope: str
    key: str
    value: Any


@applier("DataSet")
def _data(state: CampaignState, ev: DataSet) -> None:
    target = state.data if ev.scope == "campaign" else state.actor(ev.scope).data
    if ev.value is None:
        target.pop(ev.key, None)
    else:
        target[ev.key] = ev.value


# ------------------------------------------------------------------ edits by hand

@event
@dataclass(frozen=True, slots=True)
class Edited(Event):
    """A value corrected by hand, as a GM rules at the table: the ``what`` (condition, stat,
    track, pool, clock, or a ruleset's own kind) named ``key`` of ``who`` (an actor id, or
    "campaign") is set to ``value`` (it was ``was``); ``text`` says it in words. It triggers
    nothing else (no full track, no doom)."""

    who: str
    what: str
    key: str
    value: int
    was: int
    text: str = ""
    reason: str = ""


@edit_applier("condition")
def _edit_condition(state: CampaignState, ev: Edited) -> None:
    if ev.value:
        _cond_marked(state, ConditionMarked(who=ev.who, condition=ev.key))
    else:
        _cond_cleared(state, ConditionCleared(who=ev.who, condition=ev.key))


@edit_applier("stat")
def _edit_stat(state: CampaignState, ev: Edited) -> None:
    state.actor(ev.who).stats[ev.key] = ev.value


@edit_applier("track")
def _edit_track(state: CampaignState, ev: Edited) -> None:
    state.actor(ev.who).tracks[ev.key] = ev.value


@edit_applier("pool")
def _edit_pool(state: CampaignState, ev: Edited) -> None:
    state.pools[ev.key] = ev.value


@edit_applier("clock")
def _edit_clock(state: CampaignState, ev: Edited) -> None:
    state.threats[ev.key].clock = ev.value


__all__ = ["CORE", "Edited", "Event", "applier", "apply", "edit_applier", "event", "from_dict"]
