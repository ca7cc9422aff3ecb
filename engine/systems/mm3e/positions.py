"""Positions in an M&M 3e fight: the bands of ``engine.rules.fight.positions`` (engaged,
close, ranged, far) read by M&M's rules (RULES.md D.2, D.3, D.6).

- **Close attacks** (attack, grab, trip, disarm and smash with a close attack) need the target
  engaged. A target close by is reached with the move action (the attacker moves in first:
  a move and a standard action, as M&M's turn allows); without a move action left, or
  farther off, the attack is refused with the reason (charge, or move first).
- **Ranged attacks** at a far target are at medium range (-2, shown in the odds and the
  roll's modifiers); engaged, close and ranged are short range (no penalty). A ``distance``
  in feet given with the attack replaces the band (the seed's rank x 25/50/100 ft).
- **Moving** (the move action) crosses bands by speed: one band a move action, two at speed
  rank 2 (120 ft), any distance in the fight at rank 4 (500 ft). The speed is the best
  movement mode but swimming and burrowing (they need water or earth), -1 rank hindered, +1
  ground rank while running; immobile: no movement. A move goes toward someone (engaging
  them when it reaches them) or away from them (or from every foe).
- **Charge**: a standard action that moves up to one move action's bands and ends engaged
  with the target, the close attack at -2; from farther, the move action is spent too (2x
  speed: twice the bands, as two moves). Not from engaged (there is no run-up). A **slam**
  is at full speed when the charge crossed every band one move action of its speed covers
  (+1 rank).
- **Escape**: a success moves the escaper away from its grabber (ground speed -1 rank, at
  least one band): engaged becomes close. ``options={"stay": True}`` stays put.
- **Run** (DC 15 Athletics, +1 ground speed rank for a round) may raise the bands a move
  covers.

``reach`` and ``range_parts`` are what the rules ask; ``close_in``, ``charge_in``, ``step``
and ``escape_apart`` change the positions (a ``PositionsChanged`` event, with a line of the
story).
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol

from engine.errors import IllegalAction
from engine.rules import encounter as en
from engine.rules.fight import positions as ps
from engine.rules.fight.events import PositionsChanged
from engine.rules.fight.positions import CLOSE, ENGAGED, FAR, Band
from engine.rules.fight.values import NamedChoice
from engine.systems.mm3e import attacks as at
from engine.systems.mm3e import referee as rf
from engine.systems.mm3e.conditions import action_budget, speed_change
from engine.systems.mm3e.statblock import Attack
from engine.systems.mm3e.step import Ctx

FILLED_IN = (
    "Positions (the seed has no map): a band between each two combatants, engaged, close,"
    " ranged or far; a fight starts with everyone close. A close attack needs the target"
    " engaged (from close it moves in with the move action first); a far target is at medium"
    " range (-2) unless a distance in feet is given. A move action crosses one band, two at"
    " speed rank 2, any distance at rank 4 (the best mode but swimming and burrowing; hindered"
    " -1, running +1). A charge crosses one move's bands, or twice that spending the move"
    " action too, never from engaged; a slam is at full speed when its charge crossed a whole"
    " move's bands. A successful escape steps away from the grabber (speed -1 rank, at least"
    " one band)."
)
"""The rules of this module that the seed leaves out, filled in."""

LAND_ONLY = frozenset({"swimming", "burrowing"})
"""Movement modes that need their medium (water, earth): not counted for a fight's moves."""

FAR_PENALTY: int = at.RANGE_PENALTY[at.RangeBand.MEDIUM] or 0
"""A ranged attack on a far target: medium range (-2)."""

CHARGE_PENALTY = -2
"""A charge's close attack (D.6)."""


def bands_per_move(speed_rank: int) -> int:
    """The bands one move action crosses at ``speed_rank``: 1; 2 from rank 2 (120 ft); 3 (any
    distance in a fight) from rank 4 (500 ft)."""
    return 1 if speed_rank < 2 else 2 if speed_rank < 4 else 3


def speed_rank(ctx: Ctx, actor: str) -> int | None:
    """The actor's speed rank for a move now (best mode on land or in the air, hindered -1,
    running +1 on the ground); None when immobile."""
    change = speed_change(ctx.conditions(actor))
    if change is None:
        return None
    run = sum(int(e.data.get("value", 0)) for e in ctx.effects_on(actor)
              if e.data.get("run") and e.data.get("what") == "speed")
    return speed_of(ctx.block(actor).speed, change, run)


def speed_of(speed: Mapping[str, int], change: int | None, run: int = 0) -> int | None:
    """The speed rank a move goes at: the best of a block's ``speed`` modes but swimming and
    burrowing, ``run`` added to the ground's, the conditions' ``change`` (None: immobile)."""
    if change is None:
        return None
    speeds = {m: r for m, r in speed.items() if m not in LAND_ONLY}
    speeds["ground"] = speeds.get("ground", 0) + run
    return max(speeds.values()) + change


def band(ctx: Ctx, a: str, b: str) -> Band:
    """How far apart ``a`` and ``b`` are."""
    return ctx.fight.positions.band(a, b)


def everyone(ctx: Ctx) -> list[str]:
    """The combatants in the scene, in turn order."""
    return [p.actor for p in en.ranked(ctx.enc.participants) if p.present]


def _place(ctx: Ctx, changes: Mapping[str, Band]) -> None:
    if changes:
        ctx.emit(PositionsChanged(bands=dict(changes)))


def _move_left(ctx: Ctx, actor: str) -> bool:
    """Whether ``actor`` has a move action left besides what it already spent."""
    return en.can(ctx.enc, ctx.spec, actor, "move")


def _move_after_standard(ctx: Ctx, actor: str) -> bool:
    """Whether a move action is left once the standard is paid (a declaration's check)."""
    try:
        return en.can(en.spend(ctx.enc, ctx.spec, actor, "standard"), ctx.spec, actor, "move")
    except IllegalAction:
        return False


Mobility = tuple[int | None, bool]
"""An actor's speed rank now (None: immobile) and whether a move action is left besides the
standard action (read once for every target an option lists)."""


_KNOWN: weakref.WeakKeyDictionary[Ctx, dict[tuple[str, bool], tuple[object, Mobility]]] = (
    weakref.WeakKeyDictionary())
"""Each step's mobilities, with the encounter they were read from: a step that lists the
options reads them once for every option and target, until the encounter changes."""


def mobility(ctx: Ctx, actor: str, *, paid: bool = False) -> Mobility:
    """``actor``'s ``Mobility`` (``paid``: its standard action is already spent)."""
    known = _KNOWN.setdefault(ctx, {})
    found = known.get((actor, paid))
    if found is not None and found[0] is ctx.enc:
        return found[1]
    left = _move_left(ctx, actor) if paid else _move_after_standard(ctx, actor)
    got = (speed_rank(ctx, actor), left)
    known[(actor, paid)] = (ctx.enc, got)
    return got


# ------------------------------------------------------------------ what the rules ask


def reach(ctx: Ctx, actor: str, target: str, *, paid: bool = False,
          known: Mobility | None = None) -> str:
    """Why ``actor`` cannot make a close attack on ``target`` now ("" : it can, moving in
    first when the target is close and a move action is left; ``paid``: the standard action
    is already spent)."""
    if actor == target:
        return ""
    b = band(ctx, actor, target)
    if b == ENGAGED:
        return ""
    return reach_words(ctx.name(actor), ctx.name(target), b,
                       (known or mobility(ctx, actor, paid=paid)) if b == CLOSE else (None, False))


def reach_words(actor: str, target: str, b: Band, known: Mobility) -> str:
    """``reach`` from the names, the target's band and the attacker's ``Mobility``."""
    if b == ENGAGED:
        return ""
    if b == CLOSE:
        speed, left = known
        if left and speed is not None:
            return ""
        return (f"{target} is close, not engaged, and {actor} has no move action"
                " left to close in: charge instead")
    return (f"{target} is {b}: out of reach of a close attack (move in first, or charge)")


def range_parts(ctx: Ctx, actor: str, target: str, atk: Attack,
                options: Mapping[str, Any] | None = None) -> list[tuple[str, int]]:
    """A ranged attack's modifier from the target's band: far is medium range (-2); none
    when a ``distance`` in feet is given (``strikes.situation_parts`` counts that)."""
    if atk.range != "ranged" or (options or {}).get("distance") is not None:
        return []
    if band(ctx, actor, target) == FAR:
        return [("far: medium range", FAR_PENALTY)]
    return []


@dataclass(frozen=True, slots=True)
class ChargeRun:
    """How a charge gets to its target: the bands crossed, whether it takes the move action
    too, and whether it was at full speed (a slam's +1)."""

    crossed: int
    with_move: bool
    full_speed: bool


def charge_run(ctx: Ctx, actor: str, target: str, *, paid: bool = False,
               known: Mobility | None = None) -> ChargeRun:
    """How ``actor`` charges ``target`` (``IllegalAction`` when it cannot reach it;
    ``paid``: the standard action is already spent)."""
    return plan_charge(ctx.name(actor), ctx.name(target), band(ctx, actor, target),
                       known or mobility(ctx, actor, paid=paid))


def plan_charge(actor: str, target: str, b: Band, known: Mobility) -> ChargeRun:
    """``charge_run`` from the names, the target's band and the charger's ``Mobility``."""
    speed, move = known
    if speed is None:
        raise IllegalAction(f"{actor} is immobile and cannot charge")
    crossed = ps.rank(b)
    if crossed == 0:
        raise IllegalAction(f"{actor} is already engaged with {target}:"
                            " a charge needs a run-up (attack instead)")
    one = bands_per_move(speed)
    if crossed <= one:
        return ChargeRun(crossed, False, crossed >= one)
    if move and crossed <= 2 * one:
        return ChargeRun(crossed, True, True)
    raise IllegalAction(f"{target} is {b}: too far for a charge"
                        f" ({one} band{'s' * (one != 1)} at speed rank {speed}"
                        + (", twice that with the move action" if move else "") + ")")


# ------------------------------------------------------------------ what changes them


def close_in(ctx: Ctx, actor: str, target: str) -> None:
    """Before a close attack (its standard action paid): move in on a close target with the
    move action, or ``IllegalAction`` with the reason it cannot reach."""
    why = reach(ctx, actor, target, paid=True)
    if why:
        raise IllegalAction(why)
    if band(ctx, actor, target) == ENGAGED:
        return
    ctx.spend(actor, "move")
    _place(ctx, ps.toward(ctx.fight.positions, actor, target, 1, everyone(ctx)))
    ctx.say(actor, "move", f"{ctx.name(actor)} closes in on {ctx.name(target)} (a move"
            " action): engaged.", target)


def charge_in(ctx: Ctx, actor: str, target: str, *, slam: bool = False) -> ChargeRun:
    """A charge's run (its standard action paid): the move action too when it needs it, the
    charger engaged with its target; how it got there (``slam``: its words say whether it
    was at full speed)."""
    run = charge_run(ctx, actor, target, paid=True)
    if run.with_move:
        ctx.spend(actor, "move")
    _place(ctx, ps.toward(ctx.fight.positions, actor, target, run.crossed, everyone(ctx)))
    how = " with its move action too" if run.with_move else ""
    ctx.say(actor, "charge", f"{ctx.name(actor)} charges {ctx.name(target)}{how}, crossing"
            f" {run.crossed} band{'s' * (run.crossed != 1)}"
            + ("" if not slam else ", at full speed (slam +1 rank)" if run.full_speed
               else ", short of full speed") + ".", target)
    return run


def join_in(ctx: Ctx, member: str, target: str, atk: Attack) -> bool:
    """Whether a minion joining a team attack reaches ``target``: any attack but a close one
    does; a close one from engaged, or from close when its turn has a move action (it moves
    in: its turn is used up; a dazed one cannot)."""
    if atk.range != "close" or band(ctx, member, target) == ENGAGED:
        return True
    if (band(ctx, member, target) != CLOSE or speed_rank(ctx, member) is None
            or action_budget(ctx.conditions(member)).move == 0):  # dazed: no move to close in
        ctx.say(member, "team_attack", f"{ctx.name(member)} is too far from"
                f" {ctx.name(target)} to join the team attack.", target, by="engine")
        return False
    _place(ctx, ps.toward(ctx.fight.positions, member, target, 1, everyone(ctx)))
    ctx.say(member, "move", f"{ctx.name(member)} closes in on {ctx.name(target)}.", target)
    return True


def step(ctx: Ctx, actor: str, options: Mapping[str, Any], target: str | None) -> str:
    """A move action's change of position, from its options: ``toward`` (or the target) an id,
    or ``away`` from an id (True or "foes": from every foe); ``way`` as the menu names it
    (an id: toward them, "away": from every foe, "stay": nowhere); ``engage`` False stops
    short of engaging. Returns the words for the story ("" : it moves nowhere in
    particular)."""
    speed = speed_rank(ctx, actor)
    if speed is None:
        raise IllegalAction(f"{ctx.name(actor)} is immobile")
    steps = bands_per_move(speed)
    pos = ctx.fight.positions
    try:
        to, off = ps.way_of(options, target)
    except ValueError as e:
        raise IllegalAction(str(e)) from None
    if to:
        _known(ctx, actor, to)
        engage = options.get("engage", True) is not False
        changes = ps.toward(pos, actor, to, steps, everyone(ctx), engage=engage)
        _place(ctx, changes)
        return f"toward {ctx.name(to)}: {band(ctx, actor, to)}"
    if off:
        frm = ctx.foes(actor) if off is True or str(off) in ("foes", "all") else [str(off)]
        for f in frm:
            _known(ctx, actor, f)
        _place(ctx, ps.away(pos, actor, frm, steps, everyone(ctx)))
        if len(frm) == 1:
            return f"away from {ctx.name(frm[0])}: {band(ctx, actor, frm[0])}"
        return "away from " + ", ".join(f"{ctx.name(f)} ({band(ctx, actor, f)})" for f in frm)
    return ""


def _known(ctx: Ctx, actor: str, other: str) -> None:
    if other not in everyone(ctx) or other == actor:
        raise IllegalAction(f"move toward or away from whom? {other!r} is not in the fight")


def escape_apart(ctx: Ctx, actor: str, grabber: str, options: Mapping[str, Any]) -> None:
    """After a successful escape: the escaper moves away from its grabber (ground speed -1
    rank, at least a band) unless ``options["stay"]``."""
    if options.get("stay") or band(ctx, actor, grabber) != ENGAGED:
        return
    ground = ctx.block(actor).speed.get("ground", 0)
    change = speed_change(ctx.conditions(actor)) or 0
    steps = bands_per_move(ground - 1 + change)
    _place(ctx, ps.away(ctx.fight.positions, actor, [grabber], steps, everyone(ctx)))
    ctx.say(actor, "escape", f"{ctx.name(actor)} breaks away from {ctx.name(grabber)}:"
            f" {band(ctx, actor, grabber)}.", grabber)


def bands_from(ctx: Ctx, actor: str, others: Sequence[str]) -> dict[str, Band]:
    """Each of ``others``' band from ``actor``."""
    return {o: band(ctx, actor, o) for o in others}


# ------------------------------------------------------------------ what the options show

CLOSE_ACTIONS = frozenset({"attack", "grab", "trip"})
"""Actions whose close attack needs the target engaged (disarm and smash too, by the attack
they are made with: checked when they are made)."""


def why_not(ctx: Ctx, actor: str, action: str, atk: Attack | None, target: str) -> str:
    """Why ``actor``'s ``action`` (with ``atk``) cannot reach ``target`` now ("" : it can):
    a close attack's reach, a charge's run."""
    if action == "charge":
        try:
            charge_run(ctx, actor, target)
        except IllegalAction as e:
            return str(e)
    elif action in CLOSE_ACTIONS and (atk is None or atk.range == "close"):
        return reach(ctx, actor, target)
    return ""


def move_choices(ctx: Ctx, actor: str) -> tuple[NamedChoice, ...]:
    """Where a move action may go (its ``way`` option: "which way?"): toward each foe, then
    each ally, with the band it would end in; away from every foe; nowhere in particular."""
    speed = speed_rank(ctx, actor)
    steps = bands_per_move(speed) if speed is not None else 0
    out: list[NamedChoice] = []
    for other in [*ctx.foes(actor), *ctx.allies(actor)]:
        now = band(ctx, actor, other)
        then = ps.at_rank(ps.rank(now) - steps)
        out.append(NamedChoice(id=other, name=f"Toward {ctx.name(other)}",
                               detail=f"{now} -> {then}" if then != now else now,
                               why="" if now != ENGAGED else "already engaged"))
    if ctx.foes(actor):
        out.append(NamedChoice(id="away", name="Away from the foes",
                               detail=f"{steps} band{'s' * (steps != 1)} back"))
    out.append(NamedChoice(id="stay", name="Elsewhere nearby",
                           detail="no band changes (say where in the fiction)"))
    return tuple(out)


def declared(ctx: Ctx, actor: str, action: str, target: str | None, atk: Attack | None) -> None:
    """A declaration's check: a close attack or a charge that cannot reach its target is
    refused now, with the reason (before any die)."""
    if target is None or target not in ctx.state.actors:
        return
    if action == "charge":
        charge_run(ctx, actor, target)
    elif action in CLOSE_ACTIONS and (atk is None or atk.range == "close"):
        why = reach(ctx, actor, target)
        if why:
            raise IllegalAction(why)


# ------------------------------------------------------------------ the referee


class Placement(Protocol):
    """Where the fighters stand, as ``placed_choice`` asks it of the one whose turn it is: a
    fight's step (``referee_choice``), or the fast duel's own state (mm3e/duel.py)."""

    def name(self, who: str) -> str:
        """A combatant's name."""
        ...

    def band(self, target: str) -> Band:
        """``target``'s band from the one acting."""
        ...

    def reach(self, target: str) -> str:
        """Why a close attack cannot reach ``target`` now (``reach``; "" : it can)."""
        ...

    def charge(self, target: str) -> ChargeRun:
        """How a charge reaches ``target`` (``charge_run``; ``IllegalAction``: it cannot)."""
        ...

    def mobility(self) -> tuple[int | None, bool]:
        """The speed rank now (None: immobile) and whether a move action is left."""
        ...


def referee_choice(ctx: Ctx, actor: str, s: rf.Situation) -> rf.Choice:
    """The referee's choice with positions (``placed_choice`` of ``referee.explain_options``
    from where ``actor`` stands in the fight)."""
    return placed_choice(rf.explain_options(s), ctx.attacks(actor), _AtStep(ctx, actor),
                         actor, lambda: rf.choose(s))


def placed_choice(options: Sequence[rf.Choice], atks: Mapping[str, Attack],
                  where: Placement, actor: str, otherwise: Callable[[], rf.Choice]
                  ) -> rf.Choice:
    """The first of the referee's ``options`` (best first) ``actor`` can make from where it
    stands. A close attack on a close foe moves in first (the attack does); out of reach it
    becomes a charge when one reaches, else it is passed over. With nothing left to do but
    end the turn, a move action left and a foe out of reach of its close attacks, it moves
    toward the foe it would most like to hit. None of them: ``otherwise()``."""
    wanted: str | None = None
    for c in options:
        atk = atks.get(c.attack or "") if c.action in ("attack", "team_attack") else None
        if atk is None or atk.range != "close" or c.target is None:
            if c.action == "end_turn" and wanted is not None:
                return approach(where, actor, wanted, c)
            return c
        why = where.reach(c.target)
        if not why:
            if where.band(c.target) != ENGAGED:
                return replace(c, why=f"{c.why} (closing in first, a move action)")
            return c
        wanted = wanted or c.target
        if c.action == "attack":
            try:
                where.charge(c.target)
            except IllegalAction:
                continue
            return replace(c, action="charge", maneuvers={}, routine=False,
                           why=f"{where.name(actor)} charges {where.name(c.target)} with"
                           f" {atk.name} ({where.band(c.target)}: -2 to hit)")
    return otherwise()


def approach(where: Placement, actor: str, foe: str, end: rf.Choice) -> rf.Choice:
    """A move toward ``foe`` when one is left and it can move; else ``end``."""
    speed, left = where.mobility()
    if speed is None or not left:
        return end
    now = where.band(foe)
    then = ps.at_rank(ps.rank(now) - bands_per_move(speed))
    return rf.Choice("move", f"{where.name(actor)} moves toward {where.name(foe)}"
                     f" ({now} -> {then}): out of reach of its close attacks", target=foe)


class _AtStep:
    """A fight step's ``Placement`` for ``actor``."""

    def __init__(self, ctx: Ctx, actor: str) -> None:
        self.ctx, self.actor = ctx, actor

    def name(self, who: str) -> str:
        return self.ctx.name(who)

    def band(self, target: str) -> Band:
        return band(self.ctx, self.actor, target)

    def reach(self, target: str) -> str:
        return reach(self.ctx, self.actor, target)

    def charge(self, target: str) -> ChargeRun:
        return charge_run(self.ctx, self.actor, target)

    def mobility(self) -> tuple[int | None, bool]:
        return speed_rank(self.ctx, self.actor), _move_left(self.ctx, self.actor)


def row_band(ctx: Ctx, actor: str) -> str:
    """``actor``'s band from the hero acting now, when it is one of its foes ("" else: a
    hero's row, or a foe acting)."""
    acting = ctx.enc.acting
    if acting is None or ctx.enc.participant(acting).side != "heroes" \
            or ctx.enc.participant(actor).side == "heroes" or ctx.out(actor):
        return ""
    return band(ctx, acting, actor)


__all__ = ["CHARGE_PENALTY", "CLOSE_ACTIONS", "FAR_PENALTY", "FILLED_IN", "LAND_ONLY",
           "ChargeRun", "Mobility", "Placement", "approach", "band", "bands_from",
           "bands_per_move", "charge_in", "charge_run", "close_in", "declared",
           "escape_apart", "everyone", "join_in", "mobility", "move_choices", "placed_choice",
           "plan_charge", "range_parts", "reach", "reach_words", "referee_choice", "row_band",
           "speed_of", "speed_rank", "step", "why_not"]
