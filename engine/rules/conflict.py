"""The conflict layer's state and events: a fight in rounds, shared by the d20 games.

A fight is kept in ``state.data["fight"]`` (the ``Fight`` model as JSON, so the save format is
unchanged and a campaign that never fights carries nothing). Events write it: ``FightStarted``
and ``FightUpdated`` carry the whole fight after the step (the encounter's transitions are
computed once, by the rules, and replayed by value), the others tell the story and change the
characters. A ruleset that runs fights returns a ``Conflict`` from ``Ruleset.conflict``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field, model_validator

from engine.content.loader import Pack
from engine.errors import ContentError, IllegalAction
from engine.rules.encounter import Encounter
from engine.rules.events import CORE, DataSet, Event
from engine.rules.registry import Registry
from engine.rules.state import Actor, CampaignState, new_id
from engine.rules.text import upper_first

FIGHT_KEY = "fight"

FIGHT = Registry("fight", CORE)
"""The fight engine's events: a ruleset that runs fights extends this registry."""
event = FIGHT.event
applier = FIGHT.applier

Control = Literal["player", "referee"]


class Pending(BaseModel):
    """An action declared and not yet resolved: who does what to whom, and the dice so far."""

    model_config = ConfigDict(extra="forbid")

    actor: str
    action: str
    target: str | None = None
    attack: str | None = None
    maneuvers: dict[str, int] = Field(default_factory=dict)
    options: dict[str, Any] = Field(default_factory=dict)
    team: list[str] = Field(default_factory=list)
    why: str = ""
    by: Control = "player"
    dice: list[int] = Field(default_factory=list, description="Dice entered so far (physical).")
    choices: list[str] = Field(default_factory=list,
                               description="The player's answers so far to what the step asked"
                               " (a response to a hit, a critical's effect...).")
    fiction: str = Field("", description="What the player said the character does.")
    told: list[str] = Field(default_factory=list,
                            description="What the player said with each answer in ``choices``"
                            " (told in the journal where the answer is used).")


class Fight(BaseModel):
    """A fight under way: the encounter, who controls whom, and what each side kept."""

    model_config = ConfigDict(extra="forbid")

    encounter: Encounter
    control: dict[str, Control] = Field(default_factory=dict,
                                        description="Actor -> who plays it; unset: heroes by the"
                                        " player, everyone else by the referee.")
    referee_dice: Literal["seeded", "physical"] = "seeded"
    pending: Pending | None = None
    out: dict[str, str] = Field(default_factory=dict,
                                description="Who left the fight and how (fled, surrendered).")
    recovered: list[str] = Field(default_factory=list, description="Used Recover this fight.")
    holds: dict[str, dict[str, int | str]] = Field(
        default_factory=dict, description="Grabs: held actor -> {by, strength, degrees}.")
    data: dict[str, Any] = Field(default_factory=dict, description="What the ruleset keeps.")

    @model_validator(mode="before")
    @classmethod
    def _drop_pace(cls, data: Any) -> Any:
        """Fights saved before 2026-11-23's last build kept an unused ``pace``: dropped."""
        if isinstance(data, dict) and "pace" in data:
            return {k: v for k, v in data.items() if k != "pace"}
        return data

    def settled(self) -> Fight:
        """The fight with no action pending and no die or answer awaited (a step begins)."""
        return self.model_copy(update={"pending": None, "data": {
            k: v for k, v in self.data.items() if k != "need"}})

    def controller(self, actor: Actor) -> Control:
        """Who plays ``actor``."""
        if actor.id in self.control:
            return self.control[actor.id]
        return "player" if actor.kind == "hero" else "referee"


def fight_of(state: CampaignState) -> Fight | None:
    """The fight under way, or None."""
    raw = state.data.get(FIGHT_KEY)
    return None if raw is None else Fight.model_validate(raw)


def require_fight(state: CampaignState) -> Fight:
    """The fight under way; ``IllegalAction`` when there is none."""
    fight = fight_of(state)
    if fight is None:
        raise IllegalAction("there is no fight under way")
    return fight


# ------------------------------------------------------------------ events


FIGHT_REQUEST = "fight_request"
"""Campaign data: a fight a move asked for, waiting for its initiative dice (physical dice)."""


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
    """A fight begins; ``fight`` is the Fight after initiative."""

    fight: dict[str, Any]
    text: str = ""


@applier("FightStarted")
def _started(state: CampaignState, ev: FightStarted) -> None:
    state.data[FIGHT_KEY] = ev.fight
    state.scene.quiet = 0


@event
@dataclass(frozen=True, slots=True)
class FightUpdated(Event):
    """The fight after a step (turns, budgets, effects, the pending action)."""

    fight: dict[str, Any]


@applier("FightUpdated")
def _updated(state: CampaignState, ev: FightUpdated) -> None:
    state.data[FIGHT_KEY] = ev.fight


@event
@dataclass(frozen=True, slots=True)
class FightEnded(Event):
    """The fight is over: who won, in words."""

    result: str
    text: str = ""


@applier("FightEnded")
def _ended(state: CampaignState, ev: FightEnded) -> None:
    state.data.pop(FIGHT_KEY, None)


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

    actor: str
    round: int
    new_round: bool = False


@event
@dataclass(frozen=True, slots=True)
class FightActed(Event):
    """Someone acts: what, at whom, and why (the referee's reason, or the player's words)."""

    actor: str
    action: str
    text: str
    target: str | None = None
    why: str = ""
    by: str = "player"


@event
@dataclass(frozen=True, slots=True)
class FightRolled(Event):
    """One roll of a fight, explained: the die, each modifier with its source, the total, what
    it was against, the degree or result, and the odds it had."""

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


# ------------------------------------------------------------------ journal lines


def fight_roll_why(e: dict[str, Any]) -> str:
    """One line explaining a fight's roll: the die, each modifier, the total, what it was
    against, the result and its odds."""
    die = "routine 10" if e.get("by") == "routine" else f"d20 {e['natural']}"
    if e.get("by") == "entered":
        die += " (your die)"
    parts = " ".join(f"{'+' if v >= 0 else '−'} {abs(v)} {n}" for n, v in e["parts"])
    odds = f" ({e['odds']:.0%})" if e.get("odds") is not None else ""
    return (f"{die} {parts} = **{e['total']}** vs {e['against']} ({e['against_name']}):"
            f" **{e['result']}**{odds}")


@FIGHT.journal_line("FoeAdded", "FightStarted", "FightEnded", "InitiativeRolled", "TurnBegan",
                    "FightActed", "FightRolled", "FightUpdated", "FightRequested", "DiceUsed")
def fight_line(e: dict[str, Any], who: Callable[[str], str]) -> str | None:
    """The journal line of a fight's event (None: bookkeeping, no line)."""
    t = e["type"]
    if t in ("FoeAdded", "FightUpdated", "FightRequested", "DiceUsed"):
        return None
    if t == "FightStarted":
        return f"## ⚔ Fight! {e.get('text', '')}".rstrip()
    if t == "FightEnded":
        return f"**The fight is over: {e['result']}.** {e.get('text', '')}".rstrip()
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
        return (f"**{rnd}.** " if e.get("new_round") else "") + f"{who(e['actor'])}'s turn."
    if t == "FightActed":
        why = f" _({e['why']})_" if e.get("why") else ""
        return f"{e['text']}{why}"
    if t == "FightRolled":
        return f"🎲 {upper_first(who(e['actor']))} {e['what']}: {fight_roll_why(e)}"
    return None



# ------------------------------------------------------------------ sides

HEROES, VILLAINS = "heroes", "villains"


def side_of(state: CampaignState, actor_id: str) -> str:
    """The side a character fights on: the party's heroes (and hero allies) or the villains."""
    actor = state.actors[actor_id]
    return HEROES if actor.kind == "hero" or actor.role in ("hero_ally", "ally") else VILLAINS


def standing_side(state: CampaignState, fight: Fight, out: Callable[[str], bool]) -> str | None:
    """The one side with anyone left who can act (``out`` says who cannot), "nobody" when
    none has, None while two sides still stand."""
    standing = {side_of(state, p.actor) for p in fight.encounter.participants
                if p.present and not out(p.actor)}
    if len(standing) >= 2:
        return None
    return next(iter(standing), "nobody")


# ------------------------------------------------------------------ foes from stat blocks


@dataclass(frozen=True, slots=True)
class FoeBlock:
    """What bringing a stat block into a fight needs: its name, the members of a group
    (None: one character) and the story role it enters with."""

    name: str
    members: int | None
    role: str


def add_foes(state: CampaignState, foes: Sequence[str], blocks: Mapping[str, FoeBlock],
             emit: Emit) -> list[str]:
    """``foes`` as actor ids: characters of the story as they are, stat block ids (or names)
    added to the story (``FoeAdded``; a group as ``<name> 1``, ``<name> 2``... sharing the
    block's id as their group); ``IllegalAction`` naming the blocks when one is unknown."""
    ids: list[str] = []
    for foe in foes:
        if foe in state.actors:
            ids.append(foe)
            continue
        bid = foe if foe in blocks else new_id(foe, ())
        block = blocks.get(bid)
        if block is None:
            known = ", ".join(sorted(blocks)) or "none"
            raise IllegalAction(f"no character or stat block {foe!r} (stat blocks: {known})")
        if block.members is not None:
            for i in range(1, block.members + 1):
                name = f"{block.name} {i}"
                nid = new_id(name, list(state.actors))
                emit(FoeAdded(id=nid, name=name, role=block.role, statblock=bid, group=bid))
                ids.append(nid)
        else:
            nid = new_id(block.name, list(state.actors))
            emit(FoeAdded(id=nid, name=block.name, role=block.role, statblock=bid))
            ids.append(nid)
    return ids


# ------------------------------------------------------------------ what a ruleset provides


class NeedDie(Exception):
    """A roll needs a physical die that has not been entered yet."""

    def __init__(self, who: str, what: str, sides: int = 20, odds: str = "") -> None:
        super().__init__(f"{who}: roll a d{sides} for {what}")
        self.who, self.what, self.sides, self.odds = who, what, sides, odds


class NeedChoice(Exception):
    """A step needs the player's choice (``options``: {id, label, detail}) for ``who``."""

    def __init__(self, who: str, question: str, options: list[dict[str, Any]]) -> None:
        super().__init__(f"{who}: {question}")
        self.who, self.question, self.options = who, question, options


@dataclass(frozen=True, slots=True)
class Die:
    """One die rolled in a fight: its face, how (seeded or entered), the dice position after."""

    face: int
    by: str
    position: int


class Roll(Protocol):
    """Rolls one die for ``actor``: seeded, or entered by the player (``NeedDie`` until it is);
    ``ask`` gets the player's choice for a character the player plays (``NeedChoice`` until it
    is given), or ``default`` for one the referee plays."""

    def __call__(self, actor: str, what: str, sides: int = 20, odds: str = "") -> Die: ...

    def ask(self, actor: str, question: str, options: list[dict[str, Any]],
            default: str) -> str: ...


Emit = Callable[[Event], None]
"""Applies an event to the state at once (the engine's ``_emit``)."""


class Conflict(Protocol):
    """How a ruleset runs a fight. Methods read the state and emit events (applied at once),
    rolling through ``roll``; a method that raises leaves the engine to roll everything back.

    ``initiative`` says how turns are ordered: "each" (everyone rolls once, a surprise round
    may open the fight) or "side" (each side rolls a die every round; no surprise round)."""

    initiative: str

    def start(self, state: CampaignState, foes: Sequence[str], surprised: Sequence[str],
              roll: Roll, emit: Emit) -> None:
        """Bring ``foes`` (actor ids or stat block ids) and the party into a new fight."""
        ...

    def join(self, state: CampaignState, who: str, roll: Roll, emit: Emit) -> None:
        """Bring a late joiner into the fight under way."""
        ...

    def options(self, state: CampaignState, actor: str) -> list[dict[str, Any]]:
        """What ``actor`` may do now, each with its cost, targets and exact odds."""
        ...

    def odds(self, state: CampaignState, actor: str, attack: str, target: str,
             maneuvers: Mapping[str, int]) -> dict[str, Any]:
        """The exact odds of an attack on a target with these maneuvers."""
        ...

    def foe_options(self, state: CampaignState) -> list[dict[str, Any]]:
        """Who a fight may be against: {id, label, detail} each."""
        ...

    def declare(self, state: CampaignState, actor: str, action: str, target: str | None,
                attack: str | None, maneuvers: Mapping[str, int], options: Mapping[str, Any]
                ) -> Pending:
        """Check an action can be taken (``IllegalAction`` says why not); it, pending."""
        ...

    def resolve(self, state: CampaignState, pending: Pending, roll: Roll, emit: Emit) -> None:
        """Carry out a pending action: its rolls, their consequences and what it costs."""
        ...

    def end_turn(self, state: CampaignState, roll: Roll, emit: Emit) -> None:
        """End the acting character's turn and begin the next one that can act."""
        ...

    def referee(self, state: CampaignState, actor: str) -> Pending:
        """The referee's choice for ``actor``'s turn, with its reason."""
        ...

    def words(self) -> dict[str, dict[str, Any]]:
        """Each action's (and maneuver's) name, summary and example fictions, from content."""
        ...

    def finished(self, state: CampaignState) -> str | None:
        """The result when the fight is over (one side left standing), else None."""
        ...

    def ended(self, state: CampaignState, emit: Emit) -> None:
        """What the end of a fight does to its characters, just before ``FightEnded`` (the
        panels game: the dying die unless given first aid, the unconscious come round)."""
        ...

    def tracker(self, state: CampaignState) -> list[dict[str, Any]]:
        """The initiative tracker's rows, in turn order."""
        ...


# ------------------------------------------------------------------ stat blocks of the story


def npc_block(state: CampaignState, npc_id: str, blocks: Callable[[], Mapping[str, Any]]
              ) -> list[Event]:
    """An NPC named like a block of the pack's characters file (``blocks``: by id) plays that
    block: its ``data["statblock"]`` is set to the id. Nothing for an NPC with a block of its
    own, or when the characters file cannot be read (validate reports it)."""
    npc = state.actors.get(npc_id)
    if npc is None or "statblock" in npc.data:
        return []
    try:
        known = blocks()
    except ContentError:
        return []
    bid = new_id(npc.name, ())
    return [DataSet(scope=npc_id, key="statblock", value=bid)] if bid in known else []


def hero_blocks(pack: Pack, state: CampaignState,
                derive: Callable[[Actor], Any] | None = None) -> list[Event]:
    """Heroes made from an archetype with a stat block hold its id in ``data["statblock"]``;
    the others get ``derive(hero)`` (a whole block), when given."""
    out: list[Event] = []
    for hero in state.heroes:
        if "statblock" in hero.data:
            continue
        arche = pack.archetypes.get(hero.archetype or "")
        ref = arche.data.get("statblock") if arche else None
        if ref is None and derive is not None:
            ref = derive(hero)
        if ref is not None:
            out.append(DataSet(scope=hero.id, key="statblock", value=ref))
    return out


def foe_list(state: CampaignState, blocks: Callable[[], Mapping[str, Any]],
             block_of: Callable[[Actor], Any], is_hero: Callable[[Any], bool],
             detail: Callable[[Any], str]) -> list[dict[str, Any]]:
    """Who a fight may be against, as ``Conflict.foe_options`` gives it: the present NPCs
    with a stat block (``block_of``), then the pack's blocks (``blocks``: by id) that are not
    heroes and not yet in play, each {id, label, detail}. A block that cannot be read is
    left out (``sidekick validate`` reports it)."""
    out: list[dict[str, Any]] = []
    in_play: set[str] = set()
    for npc in state.npcs.values():
        ref = npc.data.get("statblock")
        if isinstance(ref, str):
            in_play.add(ref)
        try:
            blk = block_of(npc)
        except ContentError:
            continue
        if blk is not None and npc.present and not npc.taken_out:
            out.append({"id": npc.id, "label": npc.name, "detail": detail(blk)})
    try:
        known = blocks()
    except ContentError:
        known = {}
    for bid, blk in known.items():
        if not is_hero(blk) and bid not in in_play and bid not in state.actors:
            out.append({"id": bid, "label": blk.name, "detail": detail(blk) + ", not yet here"})
    return out
