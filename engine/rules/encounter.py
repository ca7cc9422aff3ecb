"""The encounter: a conflict in rounds, as immutable values and pure transitions.

Who is in it and on which side, the round, the initiative order (per character, M&M 3e; or
per side, the panels game), whose turn it is, what the acting character may still do this
turn, and effects with durations. Every function returns a new ``Encounter`` and never
changes its argument, so each transition can become one event, and ``model_dump`` /
``model_validate`` round-trip an encounter exactly (saves, undo and resume, mid-turn included).

The lifecycle: ``start`` begins the first turn; ``spend`` pays for actions from the turn's
budget (or, off-turn, as a reaction); ``add_effect`` / ``end_effect`` keep the effects;
``next_turn`` ends the acting character's turn (expiring "end of turn" effects and naming the
ongoing effects to resist now), wraps the round when the order runs out and starts the next
turn (expiring "start of next turn" and round-based effects); ``join`` and ``leave`` handle
characters arriving and going mid-conflict; ``delay`` / ``step_in`` and ``ready`` /
``take_ready`` move an M&M character's place in the order.

Filled in where the seeds are silent (see also ``side_initiative``):
- Durations count the *anchor's* turns: each participant keeps the number of turns it has
  started. "Until the end of your turn" made during the anchor's own turn ends at the end of
  that turn, otherwise at the end of its next one; "until the end of your next turn" ends at
  the end of the anchor's next turn after the one in progress (or its next one, off-turn);
  "until the start of your next turn" ends when the anchor next starts a turn. M&M's "until
  the end of your next round" (demoralize, feint) is read as "until the end of your next
  turn", anchored on the one who made it.
- ``rounds`` (N rounds) ends at the start of the anchor's turn N rounds later, or, if the
  anchor has left, when that round begins; ``round_start`` (N) ends when round ``now + N``
  begins (the surprise round's "stunned and vulnerable until the next round" is N = 1).
- ``recovery`` never ends by itself: the ruleset ends it with ``end_effect``.
- When a participant leaves, the effects timed by its turns end (they could never expire);
  N-round effects it anchors run out when their round begins; effects on it that last
  until recovery or a round stay (the ruleset decides what outlives the conflict).
- The surprise round is round 0 (``surprise``); surprised participants have no turn in it.
  Normal rounds count from 1.
- Ties that the passed tie-break tuples do not settle keep the order of entry (stable).
- A late joiner placed before the acting character waits for the next round; one who left
  and comes back the same round does not act twice in it. Leaving on one's own turn ends
  it with no end-of-turn step (no expiries, no resistance checks) and starts the next.
- The panels game: each character's turn budget is its side's panels this round; panels
  owed from responses are repaid out of the owner's next turns' panels first (RULES.md
  C.7 #9); a response on one's own turn spends that turn's panels before future ones.
- M&M's delay and ready (D.6; ``delay``, ``step_in``, ``ready``, ``take_ready``) belong to
  character mode; the panels game has no such actions. One who moves in the order takes the
  initiative and tie-breaks of the one it moves next to, and its place just beside it (full
  ties included), kept in later rounds until it moves again.
- Delay: "before taking any action" means before paying for one (free actions are not
  recorded, so they do not bar it); "able to act" means something is left in its budget.
  "Beneficial" is the effect's own mark, else a source on the target's side. One steps in
  between turns (ending the acting character's turn), not in the middle of one. The turn
  taken is the held one (no new turn is counted) and it is the actor's turn of the round it
  is taken in (its N-round effects due in that round end as it steps in). A delayed turn
  never taken ends when its place comes round in the next round, with its end-of-turn step
  (harmful "end of turn" effects expire, ongoing effects are resisted: postponed, never
  skipped), and the new turn begins at once.
- Ready: the readied action is a reaction, not a turn (durations counted in turns do not
  move; N-round effects due end if it replaces the round's turn); it is taken off one's
  own turn, and its taker moves just before the acting character (the d20 convention: the
  reaction comes before the triggering action is done). Taken in the next round before its
  old place, it replaces its turn in that round. A readied action unused when the next
  turn begins is lost, with nothing else to undo.
- Not here (the ruleset's, or a later session's): extra effort (``grant`` adds the action),
  what dazed or stunned allow (``restrict`` caps the budget at turn start), the readied
  action itself (the ruleset resolves it).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializationInfo,
    SerializerFunctionWrapHandler,
    model_serializer,
)

from engine.errors import IllegalAction

OrderMode = Literal["character", "side"]
"""``character``: each participant by its own initiative (M&M); ``side``: the sides by a d6
each, then by Agility within a side (the panels game)."""

Held = Literal["delay", "ready"]
"""What a participant is holding: a delayed turn, or a readied action (M&M)."""

DurationKind = Literal["start_of_next_turn", "end_of_turn", "end_of_next_turn", "rounds",
                       "round_start", "recovery"]
"""How long an effect lasts (module docstring: how each is counted)."""

_TURN_END: frozenset[str] = frozenset({"end_of_turn", "end_of_next_turn"})
_BY_TURNS: frozenset[str] = frozenset({"start_of_next_turn", "end_of_turn", "end_of_next_turn"})

PANEL = "panel"
"""The action kind of the panels game: every action costs panels."""

ARREARS_LIMIT = 5
"""The panels game: a response may borrow at most 5 panels from future turns (seed 003)."""

LOSER_GETS_PANELS = True
"""Filled in (RULES.md C.7 #4): "the number of panels each side gets is the difference" is
read literally, so both sides get the difference; the winner acts first."""

TIE_PANELS = 2
"""The panels game: equal side d6s give both sides 2 panels, acting in one Agility order."""


class Compact(BaseModel):
    """A model saved without the fields still at their defaults (read back exactly: validation
    restores them), so a save or an event holds only what differs. ``_full`` keeps them all
    (a campaign's state: the store reads its top-level keys)."""

    _full: ClassVar[bool] = False

    @model_serializer(mode="wrap")
    def _compact(self, handler: SerializerFunctionWrapHandler, info: SerializationInfo
                 ) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        if self._full or info.exclude_defaults:  # with exclude_defaults pydantic left them out
            return data
        defaults = _defaults(type(self))
        for name in list(data):
            if name in defaults and getattr(self, name) == defaults[name]:
                del data[name]
        return data


_DEFAULTS: dict[type[BaseModel], dict[str, Any]] = {}


def _defaults(cls: type[BaseModel]) -> dict[str, Any]:
    """Each optional field's default, made once per class (only compared, never handed out):
    asking pydantic for a factory's default inspects the factory's signature every time,
    which made every save cost time in proportion to the campaign's length."""
    found = _DEFAULTS.get(cls)
    if found is None:
        found = {name: f.get_default(call_default_factory=True)
                 for name, f in cls.model_fields.items() if not f.is_required()}
        _DEFAULTS[cls] = found
    return found


class _Frozen(Compact):
    """An immutable state value: unknown keys are an error (``StateModel``'s rule), fields
    cannot be assigned. Not a ``StateModel`` subclass, so that ``engine.rules.state`` can hold
    an ``Encounter`` without an import cycle."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class BudgetSpec(_Frozen):
    """What a turn allows, from the ruleset."""

    per_turn: dict[str, int] = Field(default_factory=dict,
                                     description="Actions each turn (M&M: standard 1, move 1).")
    surprise_turn: dict[str, int] | None = Field(
        None, description="Actions in the surprise round (M&M: standard 1); None: per_turn.")
    trades: dict[str, tuple[str, ...]] = Field(
        default_factory=dict, description="A kind that may be paid with another when its own"
        " are spent (M&M: a move may be paid with the standard).")
    free: tuple[str, ...] = Field((), description="Kinds that cost nothing, on one's turn.")
    reactions: tuple[str, ...] = Field((), description="Kinds allowed off-turn.")
    panels: bool = Field(False, description="The turn's budget is the side's panels this round"
                         " (kind ``panel``); reactions then cost future panels.")
    arrears_limit: int = Field(0, ge=0, description="Future panels a reaction may borrow.")


MM3E_BUDGET = BudgetSpec(per_turn={"standard": 1, "move": 1}, surprise_turn={"standard": 1},
                         trades={"move": ("standard",)}, free=("free",),
                         reactions=("reaction",))
"""M&M 3e (D.2): a standard and a move, or two moves; free actions unlimited; reactions off
turn; in the surprise round a standard (or a move instead) and free actions."""

PANELS_BUDGET = BudgetSpec(free=("free",), reactions=("response",), panels=True,
                           arrears_limit=ARREARS_LIMIT)
"""The panels game (C.2): the side's panels each turn; responses spend future panels, at
most 5 in arrears."""


class Entrant(_Frozen):
    """A character entering the encounter, with its initiative already rolled."""

    actor: str
    side: str
    initiative: int = Field(description="The initiative result (character mode) or the order"
                            " key within a side (side mode: Agility).")
    tiebreak: tuple[int, ...] = Field((), description="Higher first when initiative ties (M&M:"
                                      " Dodge, Agility, Awareness, a roll-off).")
    surprised: bool = False


class Participant(_Frozen):
    """A character in the encounter."""

    actor: str
    side: str
    initiative: int
    tiebreak: tuple[int, ...] = ()
    joined_round: int = Field(description="The round it entered (the surprise round is 0).")
    present: bool = True
    surprised: bool = Field(False, description="Has no turn in the surprise round.")
    turns: int = Field(0, description="Turns it has started; durations count these.")
    arrears: int = Field(0, ge=0, description="Panels game: future panels already spent.")
    last_round: int | None = Field(None, description="The round of its last turn: one turn a"
                                   " round, even for one who leaves and comes back.")
    held: Held | None = Field(None, description="M&M: its turn is delayed (``delay``) or an"
                              " action is readied (``ready``) and not yet taken.")
    readied: str | None = Field(None, description="The readied action's kind.")
    trigger: str | None = Field(None, description="The readied action's trigger, in words.")


class Effect(_Frozen):
    """An effect with a duration, kept by the encounter."""

    id: str
    source: str = Field(description="The actor who caused it.")
    target: str = Field(description="The actor it affects.")
    what: str = Field(description="The ruleset's word for it (a condition, a maneuver...).")
    duration: DurationKind
    anchor: str = Field(description="Whose turns time it (usually the target).")
    expires_turn: int | None = Field(None, description="The anchor's turn number it ends at.")
    expires_round: int | None = Field(None, description="The round it ends in.")
    ongoing: bool = Field(False, description="Resisted at the end of each of the target's"
                          " turns (M&M); the ruleset ends it on a success.")
    created_round: int
    beneficial: bool | None = Field(None, description="Good for its target (ends when the"
                                    " anchor delays, D.6); None: when source and target are"
                                    " on the same side.")
    data: dict[str, int | str] = Field(default_factory=dict,
                                       description="What the ruleset keeps (rank, DC...).")


class SideInitiative(_Frozen):
    """One round's side initiative in the panels game."""

    rolls: dict[str, int]
    first: str | None = Field(description="The side that acts first; None on a tie.")
    panels: dict[str, int] = Field(description="Panels each character of a side gets.")
    simultaneous: bool = Field(description="A tie: both sides in one Agility order.")


class Encounter(_Frozen):
    """A conflict in rounds."""

    id: str
    mode: OrderMode = "character"
    round: int = Field(1, description="The current round; 0 is the surprise round.")
    surprise: bool = Field(False, description="This is the surprise round.")
    participants: tuple[Participant, ...] = ()
    order: tuple[str, ...] = Field((), description="This round's turn order (actor ids).")
    turn: int = Field(0, description="Index in ``order`` of the acting character.")
    acting: str | None = Field(None, description="Whose turn it is; None: nobody can act.")
    budget: dict[str, int] = Field(default_factory=dict,
                                   description="What the acting character may still spend.")
    effects: tuple[Effect, ...] = ()
    next_effect: int = Field(1, description="The number of the next effect id (e1, e2...).")
    sides: SideInitiative | None = Field(None, description="Side mode: this round's roll.")
    acted: bool = Field(False, description="The acting character has paid for an action this"
                        " turn (so it can no longer delay).")

    def participant(self, actor: str) -> Participant:
        """The participant ``actor``; IllegalAction if it is not in the encounter."""
        for p in self.participants:
            if p.actor == actor:
                return p
        raise IllegalAction(f"{actor!r} is not in encounter {self.id!r}")

    def has(self, actor: str) -> bool:
        """Whether ``actor`` is in the encounter and present."""
        return any(p.actor == actor and p.present for p in self.participants)


class Advance(_Frozen):
    """What a transition did: the new encounter and what the ruleset must act on."""

    encounter: Encounter
    ended: str | None = Field(None, description="Whose turn ended (None: nobody's).")
    started: str | None = Field(None, description="Whose turn began (None: nobody's).")
    new_round: bool = Field(False, description="A new round began.")
    expired: tuple[Effect, ...] = Field((), description="Effects that ended, in order.")
    resist: tuple[Effect, ...] = Field((), description="Ongoing effects their targets resist"
                                       " now (the turn that ended, or a lost delayed turn).")
    held: str | None = Field(None, description="Who delayed its turn (M&M).")
    resumed: bool = Field(False, description="``started`` resumes a delayed turn (no new turn:"
                          " no start-of-turn expiries).")
    lost: tuple[str, ...] = Field((), description="Who lost a held turn (delay or ready) as"
                                  " its place came round again.")


# --- initiative ------------------------------------------------------------------------------


def side_initiative(sides: Sequence[str], rolls: Sequence[int],
                    loser_gets_panels: bool = LOSER_GETS_PANELS) -> SideInitiative:
    """The panels game's initiative from each side's d6 (C.2).

    The higher roll acts first and every character gets panels equal to the difference
    (the loser too, unless ``loser_gets_panels`` is off: then it gets none); equal rolls give
    both sides ``TIE_PANELS`` and one Agility order across both. A difference of 1 gives fewer
    panels than a tie: as written.
    """
    if len(sides) != 2 or len(rolls) != 2 or sides[0] == sides[1]:
        raise IllegalAction("side initiative needs two sides and one d6 for each")
    for r in rolls:
        if not 1 <= r <= 6:
            raise IllegalAction(f"a side initiative d6 shows 1-6, not {r}")
    a, b = sides
    ra, rb = rolls
    if ra == rb:
        return SideInitiative(rolls={a: ra, b: rb}, first=None,
                              panels={a: TIE_PANELS, b: TIE_PANELS}, simultaneous=True)
    diff = abs(ra - rb)
    first, second = (a, b) if ra > rb else (b, a)
    return SideInitiative(rolls={a: ra, b: rb}, first=first,
                          panels={first: diff, second: diff if loser_gets_panels else 0},
                          simultaneous=False)


def _key(p: Participant) -> tuple[int, tuple[int, ...]]:
    return p.initiative, p.tiebreak


def ranked(participants: Iterable[Participant]) -> list[Participant]:
    """Highest initiative first, then the higher tie-break tuple; full ties keep their order."""
    return sorted(participants, key=_key, reverse=True)  # sort is stable, reversed too


def order(enc: Encounter) -> tuple[str, ...]:
    """The turn order of the current round: present participants (not the surprised ones in
    the surprise round), by initiative, or by side and then within a side (side mode)."""
    able = [p for p in enc.participants
            if p.present and not (enc.surprise and p.surprised)]
    if enc.mode == "character":
        return tuple(p.actor for p in ranked(able))
    si = enc.sides
    if si is None:
        raise IllegalAction("side initiative has not been rolled for this round")
    if si.simultaneous:
        return tuple(p.actor for p in ranked(able))
    assert si.first is not None
    first = ranked(p for p in able if p.side == si.first)
    rest = ranked(p for p in able if p.side != si.first)
    return tuple(p.actor for p in first + rest)


def listed(enc: Encounter) -> list[str]:
    """Everyone in the encounter for a tracker: this round's order, then the others (the
    surprised, those who left) by initiative."""
    return list(enc.order) + [p.actor for p in ranked(enc.participants)
                              if p.actor not in enc.order]


# --- the life of an encounter ----------------------------------------------------------------


def start(encounter_id: str, entrants: Sequence[Entrant], mode: OrderMode = "character",
          spec: BudgetSpec = MM3E_BUDGET,
          side_rolls: Sequence[int] | None = None) -> Advance:
    """A new encounter with its first turn begun.

    If anyone is surprised it opens with the surprise round (round 0), else round 1. Side
    mode needs exactly two sides and their d6s (``side_rolls`` in the order the sides first
    appear among the entrants).
    """
    ids = [e.actor for e in entrants]
    if len(set(ids)) != len(ids):
        raise IllegalAction("an actor cannot enter an encounter twice")
    surprise = any(e.surprised for e in entrants)
    rnd = 0 if surprise else 1
    parts = tuple(Participant(actor=e.actor, side=e.side, initiative=e.initiative,
                              tiebreak=e.tiebreak, joined_round=rnd, surprised=e.surprised)
                  for e in entrants)
    sides = None
    if mode == "side":
        sides = _roll_sides(parts, side_rolls)
    enc = Encounter(id=encounter_id, mode=mode, round=rnd, surprise=surprise,
                    participants=parts, sides=sides)
    enc = enc.model_copy(update={"order": order(enc), "turn": 0})
    return _begin(enc, spec, None, new_round=True)


def _side_names(parts: Iterable[Participant]) -> list[str]:
    return list(dict.fromkeys(p.side for p in parts))


def _roll_sides(parts: Iterable[Participant], rolls: Sequence[int] | None) -> SideInitiative:
    names = _side_names(parts)
    if rolls is None:
        raise IllegalAction("a round of side initiative needs a d6 for each side")
    if len(names) != 2:
        raise IllegalAction(f"side initiative needs exactly two sides, not {names}")
    return side_initiative(names, rolls)


def needs_side_roll(enc: Encounter) -> bool:
    """Whether the next ``next_turn`` starts a new side-mode round (so needs both d6s)."""
    return enc.mode == "side" and all(enc.participant(a).last_round == enc.round
                                      for a in enc.order[enc.turn + 1:])


def next_turn(enc: Encounter, spec: BudgetSpec,
              side_rolls: Sequence[int] | None = None) -> Advance:
    """End the acting character's turn and begin the next one.

    Turn end: "end of turn" effects anchored on it expire, then its ongoing effects are
    named in ``resist``. When the order runs out a new round begins (side mode: from
    ``side_rolls``), ending "round_start" effects. Turn start: "start of next turn" and
    "rounds" effects anchored on the new actor expire, and its budget is set.
    """
    if enc.acting is None:
        return _begin(enc, spec, side_rolls)
    actor = enc.acting
    enc, gone, resist = _end_turn(enc, actor)
    after = enc.model_copy(update={"turn": enc.turn + 1, "acting": None, "budget": {}})
    adv = _begin(after, spec, side_rolls)
    return adv.model_copy(update={"ended": actor, "expired": gone + adv.expired,
                                  "resist": resist + adv.resist})


def _end_turn(enc: Encounter, actor: str) -> tuple[Encounter, tuple[Effect, ...],
                                                    tuple[Effect, ...]]:
    """The end-of-turn step of ``actor``: its "end of turn" effects due now expire; its
    ongoing effects are to be resisted."""
    p = enc.participant(actor)
    gone = tuple(e for e in enc.effects if e.anchor == actor and e.duration in _TURN_END
                 and e.expires_turn is not None and e.expires_turn <= p.turns)
    keep = tuple(e for e in enc.effects if e not in gone)
    resist = tuple(e for e in keep if e.ongoing and e.target == actor)
    return enc.model_copy(update={"effects": keep}), gone, resist


def _begin(enc: Encounter, spec: BudgetSpec, side_rolls: Sequence[int] | None,
           new_round: bool = False) -> Advance:
    """Begin the turn at ``enc.turn`` (wrapping the round when the order has run out)."""
    expired: list[Effect] = []
    for _ in range(3):  # a surprise round nobody can act in wraps once more at most
        while enc.turn < len(enc.order) \
                and enc.participant(enc.order[enc.turn]).last_round == enc.round:
            enc = enc.model_copy(update={"turn": enc.turn + 1})  # one turn a round, rejoined
        if enc.turn < len(enc.order) or not any(p.present for p in enc.participants):
            break
        enc, ended = _new_round(enc, side_rolls)
        expired += ended
        new_round = True
    if enc.turn >= len(enc.order):
        return Advance(encounter=enc.model_copy(update={"acting": None, "budget": {},
                                                        "acted": False}),
                       new_round=new_round, expired=tuple(expired))
    actor = enc.order[enc.turn]
    lost: tuple[str, ...] = ()
    resist: tuple[Effect, ...] = ()
    held = enc.participant(actor).held
    if held is not None:  # its place came round again: the held turn or action is lost
        lost = (actor,)
        if held == "delay":  # the lost delayed turn ends now, with its end-of-turn step
            enc, lapsed, resist = _end_turn(enc, actor)
            expired += lapsed
        enc = _set(enc, enc.participant(actor), held=None, readied=None, trigger=None)
    p = enc.participant(actor)
    p = p.model_copy(update={"turns": p.turns + 1, "last_round": enc.round})
    gone = tuple(e for e in enc.effects if e.anchor == actor and (
        (e.duration == "start_of_next_turn" and e.expires_turn is not None
         and e.expires_turn <= p.turns)
        or (e.duration == "rounds" and e.expires_round is not None
            and e.expires_round <= enc.round)))
    budget, p = _turn_budget(enc, spec, p)
    enc = enc.model_copy(update={
        "participants": _replace(enc.participants, p), "acting": actor, "budget": budget,
        "effects": tuple(e for e in enc.effects if e not in gone), "acted": False})
    return Advance(encounter=enc, started=actor, new_round=new_round,
                   expired=tuple(expired) + gone, resist=resist, lost=lost)


def _new_round(enc: Encounter, side_rolls: Sequence[int] | None) -> tuple[Encounter,
                                                                         list[Effect]]:
    rnd = enc.round + 1
    sides = enc.sides
    if enc.mode == "side":
        sides = _roll_sides((p for p in enc.participants if p.present), side_rolls)
    enc = enc.model_copy(update={"round": rnd, "surprise": False, "sides": sides, "turn": 0})
    enc = enc.model_copy(update={"order": order(enc)})
    gone = [e for e in enc.effects if e.expires_round is not None and e.expires_round <= rnd
            and (e.duration == "round_start"
                 or (e.duration == "rounds" and not enc.has(e.anchor)))]
    enc = enc.model_copy(update={"effects": tuple(e for e in enc.effects if e not in gone)})
    return enc, gone


def _turn_budget(enc: Encounter, spec: BudgetSpec,
                 p: Participant) -> tuple[dict[str, int], Participant]:
    """The budget a turn opens with; side mode repays the arrears from it first (filled in:
    owed panels come out of the owner's next turns' panels)."""
    if spec.panels:
        got = enc.sides.panels.get(p.side, 0) if enc.sides is not None else 0
        paid = min(got, p.arrears)
        return {PANEL: got - paid}, p.model_copy(update={"arrears": p.arrears - paid})
    base = spec.surprise_turn if enc.surprise and spec.surprise_turn is not None \
        else spec.per_turn
    return dict(base), p


def _replace(parts: tuple[Participant, ...], new: Participant) -> tuple[Participant, ...]:
    return tuple(new if p.actor == new.actor else p for p in parts)


def _set(enc: Encounter, p: Participant, **changes: object) -> Encounter:
    return enc.model_copy(update={"participants": _replace(enc.participants,
                                                           p.model_copy(update=changes))})


# --- the budget ------------------------------------------------------------------------------


def spend(enc: Encounter, spec: BudgetSpec, actor: str, kind: str,
          cost: int = 1) -> Encounter:
    """Pay ``cost`` of ``kind`` for ``actor``.

    On its own turn: free kinds cost nothing; other kinds come from the budget, or from a
    kind they may be traded for (M&M: a move paid with the standard). Off its turn only
    reactions are allowed: free in M&M, future panels in the panels game (at most
    ``arrears_limit`` owed, and none at all once at the limit, even a response that costs
    nothing, as a dodge against an ordinary human: seed 003). A response on one's own turn in
    the panels game spends the turn's panels first. IllegalAction when it cannot be paid.
    """
    if cost < 0:
        raise IllegalAction(f"an action cannot cost {cost}")
    p = enc.participant(actor)
    if not p.present:
        raise IllegalAction(f"{actor!r} has left the encounter")
    mine = enc.acting == actor
    if kind in spec.free and mine:
        return enc
    if kind in spec.reactions:
        if not spec.panels:
            return enc
        budget = dict(enc.budget) if mine else {}
        now = min(budget.get(PANEL, 0), cost)
        owed = cost - now
        if p.arrears >= spec.arrears_limit or p.arrears + owed > spec.arrears_limit:
            raise IllegalAction(f"{actor!r} is {p.arrears} panels in arrears and cannot"
                                f" borrow {owed} more (limit {spec.arrears_limit})")
        upd: dict[str, object] = {"participants": _replace(
            enc.participants, p.model_copy(update={"arrears": p.arrears + owed}))}
        if mine:
            budget[PANEL] = budget.get(PANEL, 0) - now
            upd["budget"] = budget
            upd["acted"] = True
        return enc.model_copy(update=upd)
    if not mine:
        raise IllegalAction(f"it is not {actor!r}'s turn: only a reaction is allowed")
    budget = dict(enc.budget)
    for pay in (kind, *spec.trades.get(kind, ())):
        if pay in budget and budget[pay] >= cost:
            budget[pay] -= cost
            return enc.model_copy(update={"budget": budget, "acted": True})
    raise IllegalAction(f"{actor!r} has no {kind} action left this turn"
                        f" (left: {_words(budget)})")


def can(enc: Encounter, spec: BudgetSpec, actor: str, kind: str, cost: int = 1) -> bool:
    """Whether ``spend`` would accept this action now."""
    try:
        spend(enc, spec, actor, kind, cost)
    except IllegalAction:
        return False
    return True


def allowed(enc: Encounter, spec: BudgetSpec, actor: str) -> tuple[str, ...]:
    """The action kinds ``actor`` could take now (one of each, at cost 1), in the spec's
    order: what is left of its turn's budget and what it may trade for, free actions on its
    turn, and reactions."""
    kinds = [*spec.per_turn, *(spec.surprise_turn or {}), *spec.trades, *spec.free,
             *spec.reactions, *([PANEL] if spec.panels else [])]
    return tuple(k for k in dict.fromkeys(kinds) if can(enc, spec, actor, k))


def restrict(enc: Encounter, allowed: Mapping[str, int]) -> Encounter:
    """Cap the acting character's budget (M&M dazed: a standard only; stunned: nothing);
    kinds not named are removed."""
    budget = {k: min(v, allowed[k]) for k, v in enc.budget.items() if k in allowed}
    return enc.model_copy(update={"budget": budget})


def grant(enc: Encounter, kind: str, count: int = 1) -> Encounter:
    """Add ``count`` of ``kind`` to the acting character's budget (M&M extra effort)."""
    if enc.acting is None or count < 0:
        raise IllegalAction("nobody is acting, or a negative grant")
    budget = dict(enc.budget)
    budget[kind] = budget.get(kind, 0) + count
    return enc.model_copy(update={"budget": budget})


def _words(budget: Mapping[str, int]) -> str:
    return ", ".join(f"{v} {k}" for k, v in budget.items() if v) or "nothing"


# --- delay and ready (M&M) -------------------------------------------------------------------

READY_COST = "standard"
"""Readying is a standard action (D.6), so one may still move in the same turn."""


def _mm_actor(enc: Encounter, what: str) -> Participant:
    if enc.mode != "character":
        raise IllegalAction(f"{what} is M&M's: not in a side-initiative encounter")
    if enc.acting is None:
        raise IllegalAction(f"nobody is acting: nobody can {what}")
    return enc.participant(enc.acting)


def _beneficial(enc: Encounter, e: Effect) -> bool:
    """Whether ``e`` is good for its target: as marked, else when its source is on the
    target's side (filled in: the seed does not say how to tell)."""
    if e.beneficial is not None:
        return e.beneficial
    sides = {p.actor: p.side for p in enc.participants}
    return e.source in sides and sides[e.source] == sides.get(e.target)


def _move_to(enc: Encounter, p: Participant, to: Participant, after: bool) -> Encounter:
    """``p`` takes ``to``'s initiative and tie-breaks and the place just after (or before)
    it: the participants are re-listed so that the stable ranking keeps it next to ``to``."""
    moved = p.model_copy(update={"initiative": to.initiative, "tiebreak": to.tiebreak})
    rest = [x for x in enc.participants if x.actor != p.actor]
    at = next(i for i, x in enumerate(rest) if x.actor == to.actor) + (1 if after else 0)
    return enc.model_copy(update={"participants": (*rest[:at], moved, *rest[at:])})


def delay(enc: Encounter, spec: BudgetSpec,
          side_rolls: Sequence[int] | None = None) -> Advance:
    """The acting character delays its whole turn (D.6) and the next turn begins.

    Only before it has paid for any action this turn, and only if its budget allows an action
    (a stunned character cannot delay). Its beneficial effects that would end with this turn
    end now; its harmful ones wait until the end of the turn it takes later, as do its
    resistance checks. It holds the turn until it ``step_in``s, or loses it when its place
    comes round in the next round (then the held turn ends, with its end-of-turn step, just
    before its new turn begins; its initiative stays where it was).
    """
    p = _mm_actor(enc, "delay")
    if enc.acted:
        raise IllegalAction(f"{p.actor!r} has already acted this turn and cannot delay")
    if not any(v > 0 for v in enc.budget.values()):
        raise IllegalAction(f"{p.actor!r} cannot take actions, so cannot delay")
    if p.held is not None:  # cannot happen through these functions; a hand-made state
        raise IllegalAction(f"{p.actor!r} already holds a {p.held}")
    gone = tuple(e for e in enc.effects if e.anchor == p.actor and e.duration in _TURN_END
                 and e.expires_turn is not None and e.expires_turn <= p.turns
                 and _beneficial(enc, e))
    enc = _set(enc, p, held="delay")
    enc = enc.model_copy(update={"effects": tuple(e for e in enc.effects if e not in gone),
                                 "turn": enc.turn + 1, "acting": None, "budget": {}})
    adv = _begin(enc, spec, side_rolls)
    return adv.model_copy(update={"held": p.actor, "expired": gone + adv.expired})


def can_delay(enc: Encounter) -> bool:
    """Whether the acting character may delay now (``delay`` would accept it)."""
    return (enc.mode == "character" and enc.acting is not None and not enc.acted
            and any(v > 0 for v in enc.budget.values())
            and enc.participant(enc.acting).held is None)


def holding(enc: Encounter, held: Held) -> tuple[str, ...]:
    """The present participants holding a delayed turn (``delay``) or a readied action
    (``ready``), in the encounter's list."""
    return tuple(p.actor for p in enc.participants if p.present and p.held == held)


def step_in(enc: Encounter, actor: str, spec: BudgetSpec) -> Advance:
    """A delayed ``actor`` takes its turn now: the acting character's turn ends (with its
    end-of-turn step) and ``actor``'s initiative moves to just after it, for this round and
    the next ones (D.6); it gets its normal allocation of actions.

    Filled in: one steps in between turns, not in the middle of another's turn. The turn
    taken is the held one (no new turn is counted, so effects timed by its turns do not
    expire again) but it is the actor's turn of the current round: stepping in during the
    next round, before its old place, leaves it no other turn that round, and its N-round
    effects due this round end now (reported after the ending turn's).
    """
    now = _mm_actor(enc, "step in")
    p = enc.participant(actor)
    if not p.present or p.held != "delay":
        raise IllegalAction(f"{actor!r} has no delayed turn to take")
    enc, gone, resist = _end_turn(enc, now.actor)
    enc = _move_to(enc, p, enc.participant(now.actor), after=True)
    p = enc.participant(actor).model_copy(update={"held": None, "last_round": enc.round})
    budget, p = _turn_budget(enc, spec, p)
    enc, due = _rounds_due(enc.model_copy(
        update={"participants": _replace(enc.participants, p)}), actor)
    new_order = order(enc)
    enc = enc.model_copy(update={"order": new_order, "turn": new_order.index(actor),
                                 "acting": actor, "budget": budget, "acted": False})
    return Advance(encounter=enc, ended=now.actor, started=actor, resumed=True,
                   expired=gone + due, resist=resist)


def _rounds_due(enc: Encounter, actor: str) -> tuple[Encounter, tuple[Effect, ...]]:
    """End the N-round effects anchored on ``actor`` that are due by this round (they would
    have ended as its turn of this round began)."""
    due = tuple(e for e in enc.effects if e.anchor == actor and e.duration == "rounds"
                and e.expires_round is not None and e.expires_round <= enc.round)
    return enc.model_copy(update={"effects": tuple(e for e in enc.effects
                                                   if e not in due)}), due


def ready(enc: Encounter, spec: BudgetSpec, kind: str, trigger: str) -> Encounter:
    """The acting character readies one action of ``kind`` (one of the turn's kinds or a
    free one) for ``trigger``, paying a standard action (D.6); its turn goes on. It may
    ``take_ready`` it as a reaction before its next turn; when that turn begins unused, the
    readied action is lost (reported in ``Advance.lost``) and it may ready again."""
    p = _mm_actor(enc, "ready")
    if kind not in spec.per_turn and kind not in spec.free:
        raise IllegalAction(f"{kind!r} cannot be readied (only {_kinds(spec)})")
    if not trigger.strip():
        raise IllegalAction("a readied action needs a trigger")
    enc = spend(enc, spec, p.actor, READY_COST)
    return _set(enc, p, held="ready", readied=kind, trigger=trigger.strip())


def _kinds(spec: BudgetSpec) -> str:
    return ", ".join(dict.fromkeys([*spec.per_turn, *spec.free]))


def take_ready(enc: Encounter, actor: str) -> Advance:
    """``actor`` takes its readied action now, as a reaction (the ruleset resolves it:
    ``participant(actor).readied`` before this call). Its initiative moves to this point, just
    before the acting character (filled in: the reaction comes before the triggering
    action finishes, as in the d20 rules M&M follows); taken in the round after it readied,
    it replaces its turn of that round (its N-round effects due this round end now, in
    ``expired``; effects timed by its turns wait for its next turn). The acting character
    keeps its turn: nothing is ``ended`` or ``started``."""
    now = _mm_actor(enc, "take a readied action")
    p = enc.participant(actor)
    if not p.present or p.held != "ready":
        raise IllegalAction(f"{actor!r} has no readied action")
    if actor == now.actor:
        raise IllegalAction("a readied action is taken off one's own turn")
    enc = _move_to(enc, p, now, after=False)
    enc = _set(enc, enc.participant(actor), held=None, readied=None, trigger=None,
               last_round=enc.round)
    enc, due = _rounds_due(enc, actor)
    return Advance(encounter=_reorder(enc), expired=due)


# --- effects ---------------------------------------------------------------------------------


def add_effect(enc: Encounter, *, source: str, target: str, what: str,
               duration: DurationKind, anchor: str | None = None, rounds: int = 1,
               ongoing: bool = False, data: Mapping[str, int | str] | None = None,
               beneficial: bool | None = None) -> tuple[Encounter, Effect]:
    """Add an effect, its end worked out now from the anchor's turns (default: the target's)
    or the round; the new effect gets the next id (e1, e2...)."""
    anchor = anchor or target
    enc.participant(target)
    turns = enc.participant(anchor).turns
    active = enc.acting == anchor
    expires_turn: int | None = None
    expires_round: int | None = None
    if duration in ("start_of_next_turn", "end_of_next_turn"):
        expires_turn = turns + 1
    elif duration == "end_of_turn":
        expires_turn = turns if active else turns + 1
    elif duration in ("rounds", "round_start"):
        if rounds < 1:
            raise IllegalAction(f"an effect lasts at least 1 round, not {rounds}")
        expires_round = enc.round + rounds
    eff = Effect(id=f"e{enc.next_effect}", source=source, target=target, what=what,
                 duration=duration, anchor=anchor, expires_turn=expires_turn,
                 expires_round=expires_round, ongoing=ongoing, created_round=enc.round,
                 beneficial=beneficial, data=dict(data or {}))
    return enc.model_copy(update={"effects": (*enc.effects, eff),
                                  "next_effect": enc.next_effect + 1}), eff


def end_effect(enc: Encounter, effect_id: str) -> tuple[Encounter, Effect]:
    """Remove an effect (recovery, a successful resistance check, the ruleset's choice)."""
    for e in enc.effects:
        if e.id == effect_id:
            return enc.model_copy(update={
                "effects": tuple(x for x in enc.effects if x.id != effect_id)}), e
    raise IllegalAction(f"no effect {effect_id!r} in encounter {enc.id!r}")


def effects_on(enc: Encounter, actor: str) -> tuple[Effect, ...]:
    """The effects on ``actor``, oldest first."""
    return tuple(e for e in enc.effects if e.target == actor)


# --- arriving and leaving --------------------------------------------------------------------


def join(enc: Encounter, entrant: Entrant) -> Encounter:
    """A late joiner (or a returning one) takes its place in this round's order by its
    initiative: if that place comes after the acting character it acts this round, else
    from the next. The acting character keeps its turn."""
    if enc.has(entrant.actor):
        raise IllegalAction(f"{entrant.actor!r} is already in encounter {enc.id!r}")
    if enc.mode == "side" and entrant.side not in _side_names(
            p for p in enc.participants):
        raise IllegalAction(f"side {entrant.side!r} is not in this encounter")
    old = next((p for p in enc.participants if p.actor == entrant.actor), None)
    new = Participant(actor=entrant.actor, side=entrant.side, initiative=entrant.initiative,
                      tiebreak=entrant.tiebreak, joined_round=enc.round,
                      turns=old.turns if old else 0, arrears=old.arrears if old else 0,
                      last_round=old.last_round if old else None)
    parts = _replace(enc.participants, new) if old else (*enc.participants, new)
    return _reorder(enc.model_copy(update={"participants": parts}))


def _reorder(enc: Encounter) -> Encounter:
    """This round's order recomputed with the acting character's turn kept; the turn index
    follows it."""
    new_order = order(enc)
    if enc.acting is not None:
        return enc.model_copy(update={"order": new_order,
                                      "turn": new_order.index(enc.acting)})
    # between turns (nobody could act): the next to act is the first not yet passed
    passed = set(enc.order[:enc.turn])
    turn = next((i for i, a in enumerate(new_order) if a not in passed), len(new_order))
    return enc.model_copy(update={"order": new_order, "turn": turn})


def leave(enc: Encounter, actor: str, spec: BudgetSpec,
          side_rolls: Sequence[int] | None = None) -> Advance:
    """``actor`` leaves (it stays listed, not present). The effects timed by its turns
    (start or end of its turn) end.
    Leaving on its own turn ends that turn with no end-of-turn step and begins the next
    character's; otherwise the acting character keeps its turn."""
    p = enc.participant(actor)
    if not p.present:
        raise IllegalAction(f"{actor!r} has already left encounter {enc.id!r}")
    gone = tuple(e for e in enc.effects if e.anchor == actor and e.duration in _BY_TURNS)
    parts = _replace(enc.participants, p.model_copy(update={"present": False}))
    idx = enc.order.index(actor) if actor in enc.order else None
    turn = enc.turn - 1 if idx is not None and idx < enc.turn else enc.turn
    was_acting = enc.acting == actor
    enc = enc.model_copy(update={
        "participants": parts, "effects": tuple(e for e in enc.effects if e not in gone),
        "order": tuple(a for a in enc.order if a != actor), "turn": turn})
    if not was_acting:
        return Advance(encounter=enc, expired=gone)
    enc = enc.model_copy(update={"acting": None, "budget": {}})
    adv = _begin(enc, spec, side_rolls)
    return adv.model_copy(update={"ended": actor, "expired": gone + adv.expired})


def withdraw(enc: Encounter, actor: str) -> Encounter:
    """``actor`` leaves when nobody is left to take a turn after it: it is no longer present
    or in the order, and nobody acts (no new round begins)."""
    p = enc.participant(actor)
    return enc.model_copy(update={
        "participants": _replace(enc.participants, p.model_copy(update={"present": False})),
        "order": tuple(a for a in enc.order if a != actor), "acting": None, "budget": {}})


# --- small corrections a game makes ----------------------------------------------------------


def owe(enc: Encounter, actor: str, count: int = 1) -> Encounter:
    """The panels game: ``actor`` loses its next ``count`` panels (owed, at most the arrears
    limit in all)."""
    p = enc.participant(actor)
    return _set(enc, p, arrears=max(0, min(ARREARS_LIMIT, p.arrears + count)))


def mark_acted(enc: Encounter, actors: Sequence[str]) -> Encounter:
    """``actors`` have had their turn this round (M&M: helpers of a team attack; a turn
    they delayed to join it is spent on it)."""
    for a in actors:
        p = enc.participant(a)
        enc = _set(enc, p, last_round=enc.round, held=None if p.held == "delay" else p.held)
    return enc


def update_effect(enc: Encounter, effect_id: str, data: Mapping[str, int | str]) -> Encounter:
    """Add ``data`` to an effect's data (IllegalAction when there is no such effect)."""
    for e in enc.effects:
        if e.id == effect_id:
            new = e.model_copy(update={"data": {**e.data, **data}})
            return enc.model_copy(update={"effects": tuple(new if x.id == effect_id else x
                                                           for x in enc.effects)})
    raise IllegalAction(f"no effect {effect_id!r} in encounter {enc.id!r}")


def end_effects(enc: Encounter, effect_ids: Sequence[str]) -> Encounter:
    """Remove every effect named (those already gone are ignored)."""
    gone = set(effect_ids)
    return enc.model_copy(update={"effects": tuple(e for e in enc.effects if e.id not in gone)})
