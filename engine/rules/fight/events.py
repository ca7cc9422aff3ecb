"""The fight's events, in the ``FIGHT`` registry every game that fights extends.

Lines of the story (a fight begins, initiative, whose turn, who does what, a roll) and the
fight's changes, one event each, applied by the encounter's pure functions with the inputs
the event carries (a turn advanced with these side dice, a budget spent, an effect added...):
the same inputs give the same fight, so the log replays it exactly without ever holding the
whole fight but once, when it starts.

``FightUpdated`` (a whole fight after each step) is how fights were saved before format 3; it
is still read, so older logs replay and undo. A fight's roll is a ``Rolled`` event, as any
roll (``dice.fight_roll``); ``FightRolled``, its own event before, is still read and shown.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, ClassVar

from engine.errors import IllegalAction
from engine.rules import encounter as en
from engine.rules.events import CORE, Event
from engine.rules.fight.dice import ROUTINE, Die, fight_roll
from engine.rules.fight.positions import BANDS
from engine.rules.fight.state import Fight, Need, Pending, migrate_fight
from engine.rules.registry import Registry
from engine.rules.state import Actor, CampaignState

FIGHT = Registry("fight", CORE)
"""The fight engine's events: a ruleset that runs fights extends this registry."""
event = FIGHT.event
applier = FIGHT.applier

FIGHT_REQUEST = "fight_request"
"""Campaign data: a fight a move asked for, waiting for its initiative dice (physical dice)."""
FIGHT_OPENING = "fight_opening"
"""Campaign data: an attack said before a fight ({"actor", "fiction", "foes"}), taken on
that actor's first turn of the fight it starts."""


def _fight(state: CampaignState) -> Fight:
    if state.fight is None:
        raise ValueError("a fight event with no fight under way")
    return state.fight


def _encounter(state: CampaignState, enc: en.Encounter) -> None:
    state.fight = _fight(state).model_copy(update={"encounter": enc})


# ------------------------------------------------------------------ the story of a fight


@event
@dataclass(frozen=True, slots=True)
class FightRequested(Event):
    """The fiction started a fight (a move's effect): the engine starts it in the same action."""

    foes: list[str] = field(default_factory=list)
    surprised: list[str] = field(default_factory=list)


@event
@dataclass(frozen=True, slots=True)
class FoeAdded(Event):
    """A combatant from the pack's stat blocks enters the story (a villain, a minion)."""

    OPTIONAL: ClassVar[tuple[str, ...]] = ("group",)

    id: str
    name: str
    role: str
    statblock: str
    group: str = ""


@applier("FoeAdded")
def _foe(state: CampaignState, ev: FoeAdded) -> None:
    data: dict[str, Any] = {"statblock": ev.statblock}
    if ev.group:
        data["group"] = ev.group
    state.actors[ev.id] = Actor(id=ev.id, name=ev.name, role=ev.role, data=data)
    if ev.id not in state.scene.present:
        state.scene.present.append(ev.id)


@event
@dataclass(frozen=True, slots=True)
class FightStarted(Event):
    """A fight begins; ``fight`` is the Fight as it starts (the base its changes build on)."""

    fight: dict[str, Any]
    text: str = ""


@applier("FightStarted")
def _started(state: CampaignState, ev: FightStarted) -> None:
    state.fight = Fight.model_validate(migrate_fight(ev.fight))
    state.scene.quiet = 0


@event
@dataclass(frozen=True, slots=True)
class FightUpdated(Event):
    """The whole fight after a step: how fights were saved before format 3 (read only)."""

    fight: dict[str, Any]


@applier("FightUpdated")
def _updated(state: CampaignState, ev: FightUpdated) -> None:
    state.fight = Fight.model_validate(migrate_fight(ev.fight))


@event
@dataclass(frozen=True, slots=True)
class FightEnded(Event):
    """The fight is over: who won, in words; ``ending``: how (one of ``ENDINGS``: the losing
    side all taken down, the last of it fled or surrendered, or a stalemate called; "" when
    the fight was called off, and in saves made before it was recorded)."""

    OPTIONAL: ClassVar[tuple[str, ...]] = ("ending",)

    result: str
    text: str = ""
    ending: str = ""


ENDINGS = ("knocked_out", "fled", "surrendered", "stalemate")
"""How a fight may end (``engine.rules.duel.Ending``): ``FightEnded.ending``."""

ENDING_KEY = "ending"
"""The fight's note (``FightNoted``) of how the last of a side left: "fled" or "surrendered"."""

ENDING_WORDS = {"fled": "the other side fled", "surrendered": "the other side surrendered",
                "stalemate": "a stalemate"}
"""How the journal says an ending the result does not (a win says the other side is down)."""


def called_ending(ending: str) -> str:
    """``ending`` for a fight called to an end: one of ``ENDINGS``, or "" (called off);
    ``IllegalAction`` otherwise."""
    if ending and ending not in ENDINGS:
        raise IllegalAction(f"a fight ends {' or '.join(ENDINGS)}, not {ending!r}")
    return ending


def fight_ending(fight: Fight) -> str:
    """How a fight that just finished ended: "fled" or "surrendered" when the last of a side
    left so (``Conflict.leave`` notes it), else "knocked_out"."""
    how = fight.data.get(ENDING_KEY)
    return str(how) if how in ENDINGS else "knocked_out"


@applier("FightEnded")
def _ended(state: CampaignState, ev: FightEnded) -> None:
    state.fight = None


@event
@dataclass(frozen=True, slots=True)
class FoesCleared(Event):
    """After a fight: the members of its foes' groups (minions brought in by a stat block)
    that nothing in the story holds on to leave the campaign state, so the state does not grow
    with every fight. Their names stay in the log's ``FoeAdded``, where the journal reads
    them."""

    ids: list[str]


@applier("FoesCleared")
def _foes_cleared(state: CampaignState, ev: FoesCleared) -> None:
    gone = set(ev.ids)
    for actor_id in ev.ids:
        state.actors.pop(actor_id, None)
    state.scene.present = [a for a in state.scene.present if a not in gone]


@event
@dataclass(frozen=True, slots=True)
class InitiativeRolled(Event):
    """Initiative: each entry {actor, name, natural, bonus, total, group, surprised}."""

    rolls: list[dict[str, Any]]
    position: int


@applier("InitiativeRolled")
def _initiative(state: CampaignState, ev: InitiativeRolled) -> None:
    state.dice_position = max(state.dice_position, ev.position)


@event
@dataclass(frozen=True, slots=True)
class DiceUsed(Event):
    """The campaign's dice have been rolled up to ``position`` (a fight's step)."""

    position: int


@applier("DiceUsed")
def _dice_used(state: CampaignState, ev: DiceUsed) -> None:
    state.dice_position = max(state.dice_position, ev.position)


@event
@dataclass(frozen=True, slots=True)
class TurnBegan(Event):
    """Someone's turn begins (``round`` 0 is a surprise round)."""

    OPTIONAL: ClassVar[tuple[str, ...]] = ("new_round",)

    actor: str
    round: int
    new_round: bool = False


@event
@dataclass(frozen=True, slots=True)
class FightActed(Event):
    """Someone acts: what, at whom, and why (the referee's reason, or the player's words);
    ``by``: who decided it (the player, the referee, or the engine: a consequence)."""

    OPTIONAL: ClassVar[tuple[str, ...]] = ("target", "why", "by")

    actor: str
    action: str
    text: str
    target: str | None = None
    why: str = ""
    by: str = "engine"


@event
@dataclass(frozen=True, slots=True)
class FightRolled(Event):
    """One roll of a fight, as logs before fight rolls were ``Rolled`` events saved it (read
    only: a fight's roll is a ``Rolled`` now, ``dice.fight_roll``); ``rolled_form`` reads it
    as one."""

    OPTIONAL: ClassVar[tuple[str, ...]] = ("degree", "odds", "by")

    actor: str
    what: str
    natural: int | None
    parts: list[list[Any]]
    total: int
    against: int
    against_name: str
    result: str
    degree: int = 0
    odds: float | None = None
    by: str = "seeded"
    position: int = 0


@applier("FightRolled")
def _rolled(state: CampaignState, ev: FightRolled) -> None:
    state.dice_position = max(state.dice_position, ev.position)


def rolled_form(e: dict[str, Any]) -> dict[str, Any]:
    """An old ``FightRolled`` dict as the ``Rolled`` dict a fight's roll is now, to show it
    the same way: its result is a success or a failure (its degree), with the odds of success
    it had (a routine check: certain)."""
    good = int(e.get("degree", 0)) > 0
    band = "success" if good else "failure"
    chance = e.get("odds")
    odds = {} if chance is None else {
        "success": Fraction(str(chance)), "failure": 1 - Fraction(str(chance))}
    by = str(e.get("by", "seeded"))
    natural = e.get("natural")
    face = int(natural) if natural is not None and by != ROUTINE else 10
    rolled = fight_roll(str(e["actor"]), str(e["what"]), Die(face, by, int(e.get("position", 0))),
                        e["parts"], int(e["total"]), int(e["against"]), str(e["against_name"]),
                        str(e["result"]), int(e.get("degree", 0)), odds, band=band)
    out = rolled.to_dict(full=True)
    out.update({k: v for k, v in e.items() if k in ("n", "a", "acting", "acting_id")})
    return out


# ------------------------------------------------------------------ turns and budgets


@event
@dataclass(frozen=True, slots=True)
class TurnAdvanced(Event):
    """The acting character's turn ends and the next begins (``rolls``: each side's d6 when
    a new round of side initiative begins)."""

    OPTIONAL: ClassVar[tuple[str, ...]] = ("rolls",)

    rolls: list[int] | None = None


@applier("TurnAdvanced")
def _advanced(state: CampaignState, ev: TurnAdvanced) -> None:
    fight = _fight(state)
    _encounter(state, en.next_turn(fight.encounter, fight.spec, ev.rolls).encounter)


@event
@dataclass(frozen=True, slots=True)
class BudgetSpent(Event):
    """``actor`` pays ``cost`` of ``kind`` (an action, a reaction, panels)."""

    OPTIONAL: ClassVar[tuple[str, ...]] = ("cost",)

    actor: str
    kind: str
    cost: int = 1


@applier("BudgetSpent")
def _spent(state: CampaignState, ev: BudgetSpent) -> None:
    fight = _fight(state)
    _encounter(state, en.spend(fight.encounter, fight.spec, ev.actor, ev.kind, ev.cost))


@event
@dataclass(frozen=True, slots=True)
class BudgetLimited(Event):
    """The acting character's budget is capped (M&M dazed: a standard only)."""

    actor: str
    allowed: dict[str, int]


@applier("BudgetLimited")
def _limited(state: CampaignState, ev: BudgetLimited) -> None:
    _encounter(state, en.restrict(_fight(state).encounter, ev.allowed))


@event
@dataclass(frozen=True, slots=True)
class BudgetGranted(Event):
    """The acting character gets ``count`` more of ``kind`` (a panel from a critical hit)."""

    OPTIONAL: ClassVar[tuple[str, ...]] = ("count",)

    actor: str
    kind: str
    count: int = 1


@applier("BudgetGranted")
def _granted(state: CampaignState, ev: BudgetGranted) -> None:
    _encounter(state, en.grant(_fight(state).encounter, ev.kind, ev.count))


@event
@dataclass(frozen=True, slots=True)
class ArrearsOwed(Event):
    """``actor`` owes ``count`` more panels of its next turns (negative: repaid)."""

    OPTIONAL: ClassVar[tuple[str, ...]] = ("count",)

    actor: str
    count: int = 1


@applier("ArrearsOwed")
def _owed(state: CampaignState, ev: ArrearsOwed) -> None:
    _encounter(state, en.owe(_fight(state).encounter, ev.actor, ev.count))


@event
@dataclass(frozen=True, slots=True)
class TurnsUsed(Event):
    """``actors`` have had their turn this round (helpers of an M&M team attack)."""

    actors: list[str]


@applier("TurnsUsed")
def _turns_used(state: CampaignState, ev: TurnsUsed) -> None:
    _encounter(state, en.mark_acted(_fight(state).encounter, ev.actors))


@event
@dataclass(frozen=True, slots=True)
class TurnDelayed(Event):
    """The acting character delays its turn (M&M)."""

    actor: str


@applier("TurnDelayed")
def _delayed(state: CampaignState, ev: TurnDelayed) -> None:
    fight = _fight(state)
    _encounter(state, en.delay(fight.encounter, fight.spec).encounter)


@event
@dataclass(frozen=True, slots=True)
class SteppedIn(Event):
    """A character who delayed takes its turn now (M&M)."""

    actor: str


@applier("SteppedIn")
def _stepped_in(state: CampaignState, ev: SteppedIn) -> None:
    fight = _fight(state)
    _encounter(state, en.step_in(fight.encounter, ev.actor, fight.spec).encounter)


@event
@dataclass(frozen=True, slots=True)
class ActionReadied(Event):
    """The acting character readies an action of ``kind`` for ``trigger`` (M&M)."""

    actor: str
    kind: str
    trigger: str


@applier("ActionReadied")
def _readied(state: CampaignState, ev: ActionReadied) -> None:
    fight = _fight(state)
    _encounter(state, en.ready(fight.encounter, fight.spec, ev.kind, ev.trigger))


@event
@dataclass(frozen=True, slots=True)
class ReadyTaken(Event):
    """``actor`` takes its readied action now, off its turn (M&M)."""

    actor: str


@applier("ReadyTaken")
def _ready_taken(state: CampaignState, ev: ReadyTaken) -> None:
    _encounter(state, en.take_ready(_fight(state).encounter, ev.actor).encounter)


# ------------------------------------------------------------------ who is in it


@event
@dataclass(frozen=True, slots=True)
class CombatantJoined(Event):
    """A late joiner takes its place in the order (``entrant``: its side and initiative)."""

    actor: str
    entrant: dict[str, Any]


@applier("CombatantJoined")
def _joined(state: CampaignState, ev: CombatantJoined) -> None:
    _encounter(state, en.join(_fight(state).encounter, en.Entrant.model_validate(ev.entrant)))


@event
@dataclass(frozen=True, slots=True)
class CombatantLeft(Event):
    """``actor`` leaves the fight (``how``: fled, surrendered); on its own turn the next turn
    begins (``rolls``: a new round's side dice); with ``last`` nobody is left to take one."""

    OPTIONAL: ClassVar[tuple[str, ...]] = ("rolls", "last")

    actor: str
    how: str
    rolls: list[int] | None = None
    last: bool = False


@applier("CombatantLeft")
def _left(state: CampaignState, ev: CombatantLeft) -> None:
    fight = _fight(state)
    enc = en.withdraw(fight.encounter, ev.actor) if ev.last else en.leave(
        fight.encounter, ev.actor, fight.spec, ev.rolls).encounter
    state.fight = fight.model_copy(update={"encounter": enc,
                                           "out": {**fight.out, ev.actor: ev.how}})


# ------------------------------------------------------------------ effects


@event
@dataclass(frozen=True, slots=True)
class EffectAdded(Event):
    """An effect with a duration on ``target`` (a condition, a bonus, an offer...)."""

    OPTIONAL: ClassVar[tuple[str, ...]] = ("anchor", "rounds", "ongoing", "data")

    source: str
    target: str
    what: str
    duration: str
    anchor: str | None = None
    rounds: int = 1
    ongoing: bool = False
    data: dict[str, int | str] = field(default_factory=dict)


@applier("EffectAdded")
def _effect_added(state: CampaignState, ev: EffectAdded) -> None:
    enc, _ = en.add_effect(_fight(state).encounter, source=ev.source, target=ev.target,
                           what=ev.what, duration=ev.duration,  # type: ignore[arg-type]
                           anchor=ev.anchor, rounds=ev.rounds, ongoing=ev.ongoing,
                           data=ev.data)
    _encounter(state, enc)


@event
@dataclass(frozen=True, slots=True)
class EffectsEnded(Event):
    """The effects named end (a recovery, a check resisted, a hold let go)."""

    OPTIONAL: ClassVar[tuple[str, ...]] = ("target",)

    effects: list[str]
    target: str = ""


@applier("EffectsEnded")
def _effects_ended(state: CampaignState, ev: EffectsEnded) -> None:
    _encounter(state, en.end_effects(_fight(state).encounter, ev.effects))


@event
@dataclass(frozen=True, slots=True)
class EffectNoted(Event):
    """What an effect keeps grows (``data`` added: the item an offer is about)."""

    OPTIONAL: ClassVar[tuple[str, ...]] = ("target",)

    effect: str
    data: dict[str, int | str]
    target: str = ""


@applier("EffectNoted")
def _effect_noted(state: CampaignState, ev: EffectNoted) -> None:
    _encounter(state, en.update_effect(_fight(state).encounter, ev.effect, ev.data))


# ------------------------------------------------------------------ what the fight keeps


@event
@dataclass(frozen=True, slots=True)
class RecoveryUsed(Event):
    """``actor`` used its once-a-fight recovery (M&M's Recover)."""

    actor: str


@applier("RecoveryUsed")
def _recovery(state: CampaignState, ev: RecoveryUsed) -> None:
    fight = _fight(state)
    state.fight = fight.model_copy(update={"recovered": [*fight.recovered, ev.actor]})


@event
@dataclass(frozen=True, slots=True)
class HoldSet(Event):
    """``target`` is held (``hold``: {by, ...}), or let go (``hold`` None)."""

    target: str
    hold: dict[str, int | str] | None = None


@applier("HoldSet")
def _hold(state: CampaignState, ev: HoldSet) -> None:
    fight = _fight(state)
    holds = {k: v for k, v in fight.holds.items() if k != ev.target}
    if ev.hold is not None:
        holds[ev.target] = dict(ev.hold)
    state.fight = fight.model_copy(update={"holds": holds})


@event
@dataclass(frozen=True, slots=True)
class PositionsChanged(Event):
    """Combatants moved: their new bands (``positions.pair`` key -> band)."""

    bands: dict[str, str]


@applier("PositionsChanged")
def _positions(state: CampaignState, ev: PositionsChanged) -> None:
    fight = _fight(state)
    changes = {k: v for k, v in ev.bands.items() if v in BANDS}
    state.fight = fight.model_copy(update={"positions": fight.positions.changed(changes)})


@event
@dataclass(frozen=True, slots=True)
class FightNoted(Event):
    """What the game keeps for the fight (``data[key]``; ``value`` None: forgotten)."""

    key: str
    value: Any = None


@applier("FightNoted")
def _noted(state: CampaignState, ev: FightNoted) -> None:
    fight = _fight(state)
    data = {k: v for k, v in fight.data.items() if k != ev.key}
    if ev.value is not None:
        data[ev.key] = ev.value
    state.fight = fight.model_copy(update={"data": data})


@event
@dataclass(frozen=True, slots=True)
class ActionPending(Event):
    """A declared action waits (``pending``), for a die or a choice (``need``); both None:
    nothing waits any more."""

    OPTIONAL: ClassVar[tuple[str, ...]] = ("pending", "need")

    pending: dict[str, Any] | None = None
    need: dict[str, Any] | None = None


@applier("ActionPending")
def _pending(state: CampaignState, ev: ActionPending) -> None:
    state.fight = _fight(state).model_copy(update={
        "pending": None if ev.pending is None else Pending.model_validate(ev.pending),
        "need": None if ev.need is None else Need.model_validate(ev.need)})


@event
@dataclass(frozen=True, slots=True)
class ControlChanged(Event):
    """Who plays ``actor`` from now on: the player or the referee."""

    actor: str
    by: str


@applier("ControlChanged")
def _control(state: CampaignState, ev: ControlChanged) -> None:
    fight = _fight(state)
    state.fight = fight.model_copy(update={"control": {**fight.control, ev.actor: ev.by}})


@event
@dataclass(frozen=True, slots=True)
class RefereeDiceChanged(Event):
    """Who rolls the referee's dice: the campaign ("seeded") or the player ("physical")."""

    mode: str


@applier("RefereeDiceChanged")
def _referee_dice(state: CampaignState, ev: RefereeDiceChanged) -> None:
    state.fight = _fight(state).model_copy(update={"referee_dice": ev.mode})


CHANGES = ("TurnAdvanced", "BudgetSpent", "BudgetLimited", "BudgetGranted", "ArrearsOwed",
           "TurnsUsed", "TurnDelayed", "SteppedIn", "ActionReadied", "ReadyTaken",
           "CombatantJoined", "EffectAdded", "EffectsEnded", "EffectNoted", "RecoveryUsed",
           "HoldSet", "FightNoted", "PositionsChanged", "ActionPending", "ControlChanged",
           "RefereeDiceChanged", "FightUpdated", "FightRequested", "FoeAdded", "DiceUsed")
"""The fight's bookkeeping: events with no journal line of their own."""

# ------------------------------------------------------------------ the start_fight effect


@FIGHT.rule_effect("start_fight")
def _start_fight(rules: Any, state: CampaignState, eff: Any, ctx: Any) -> Any:
    """A move's ``start_fight`` effect: ask who the fight is against (``Ruleset.start_fight``)."""
    return rules.start_fight(state)


@FIGHT.rule_answer("start_fight")
def _fight_picked(rules: Any, state: CampaignState, eff: Any, ctx: Any, ids: list[str]
                  ) -> Any:
    """The foes picked for ``start_fight``: the fight requested in this action."""
    return rules.fight_requested(state, ids)


# ------------------------------------------------------------------ journal lines


@FIGHT.journal_line("FightStarted", "FightEnded", "InitiativeRolled", "TurnBegan", "FightActed",
                    "CombatantLeft", "FoesCleared", *CHANGES)
def fight_line(e: dict[str, Any], who: Callable[[str], str]) -> str | None:
    """The journal line of a fight's event (None: its bookkeeping, no line); a fight's roll
    is a ``Rolled``, whose line the journal writes as any roll's (``rolled_form``: an old
    ``FightRolled`` too)."""
    t = e["type"]
    if t in CHANGES or t in ("CombatantLeft", "FoesCleared"):
        return None
    if t == "FightStarted":
        return f"## ⚔ Fight! {e.get('text', '')}".rstrip()
    if t == "FightEnded":
        how = ENDING_WORDS.get(str(e.get("ending") or ""), "")
        how = f" ({how})" if how and how.split()[-1] not in str(e["result"]) else ""
        return f"**The fight is over: {e['result']}{how}.** {e.get('text', '')}".rstrip()
    if t == "InitiativeRolled":
        order = sorted(e["rolls"], key=lambda r: -r["total"])
        seen: set[str] = set()
        bits = []
        for r in order:
            key = r.get("group") or r["actor"]
            if key in seen:
                continue
            seen.add(key)
            name = r["name"].rsplit(" ", 1)[0] + " (group)" if r.get("group") else r["name"]
            sur = ", surprised" if r.get("surprised") else ""
            bits.append(f"{name} {r['total']} ({r['natural']}{r['bonus']:+d}{sur})")
        return "Initiative: " + " · ".join(bits)
    if t == "TurnBegan":
        rnd = "Surprise round" if e["round"] == 0 else f"Round {e['round']}"
        name = who(e["actor"])  # the hero acting reads as "you"
        turn = "Your turn." if name == "you" else f"{name}'s turn."
        return (f"**{rnd}.** " if e.get("new_round") else "") + turn
    if t == "FightActed":
        why = f" _({e['why']})_" if e.get("why") else ""
        return f"{e['text']}{why}"
    return None



__all__ = ["CHANGES", "ENDINGS", "ENDING_KEY", "ENDING_WORDS", "FIGHT", "FIGHT_OPENING",
           "FIGHT_REQUEST", "ActionPending", "ActionReadied",
           "ArrearsOwed", "BudgetGranted", "BudgetLimited", "BudgetSpent", "CombatantJoined",
           "CombatantLeft", "ControlChanged", "DiceUsed", "EffectAdded", "EffectNoted",
           "EffectsEnded", "FightActed", "FightEnded", "FightNoted", "FightRequested",
           "FightRolled", "FightStarted", "FightUpdated", "FoeAdded", "FoesCleared", "HoldSet",
           "InitiativeRolled", "PositionsChanged", "ReadyTaken", "RecoveryUsed",
           "RefereeDiceChanged", "SteppedIn", "TurnAdvanced", "TurnBegan", "TurnDelayed",
           "TurnsUsed", "called_ending", "fight_ending", "fight_line", "rolled_form"]
