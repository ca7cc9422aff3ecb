"""Positions in a panels fight: the bands of ``engine.rules.fight.positions`` (engaged, close,
ranged, far) read by the panels rules (RULES.md C; the seed has no map and no speeds).

- **Moving** is an action: one panel (actions.yaml), one band toward someone (engaging them
  when it reaches them) or away from them (or from every foe).
- **Stunned, half speed** (C.5: "their movement is halved"): a stunned character's move panel
  covers half a band. The first gets it halfway (kept in ``fight.data["halfway"]``, the way it
  goes), the next one the same way crosses the band: a band takes two move panels. Moving
  another way starts again from nothing; a move while not stunned crosses a whole band.
- **Melee attacks and grabs** need the target engaged. A close target is reached by moving in
  first, paying the move panels it takes (one; two when stunned, one when already halfway)
  before the attack's panel; with too few panels left, or from farther off, the attack is
  refused with the reason (move in first).
- **Missile attacks** reach any band; at a far target they are at -2 to hit (long range).
- **The referee** moves in before a melee attack (the attack does it, and says so), passes over
  attacks it cannot reach, and with nothing else to do moves toward the foe it would most
  like to hit.

``reach`` is what the rules ask (the far -2 is ``Ctx.hit_modifiers``'); ``close_in`` and
``step`` change the positions (a ``PositionsChanged`` event, with a line of the story).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from engine.errors import IllegalAction
from engine.rules import encounter as en
from engine.rules.fight import positions as ps
from engine.rules.fight.events import PositionsChanged
from engine.rules.fight.positions import ENGAGED, Band
from engine.rules.fight.values import NamedChoice
from engine.systems.panels import referee as rf
from engine.systems.panels.damage import AttackForm
from engine.systems.panels.step import Ctx, block_id

FILLED_IN = (
    "Positions (the seed has no map): a band between each two combatants, engaged, close,"
    " ranged or far; a fight starts with everyone close. A move is one panel and crosses one"
    " band; stunned (half speed), a move panel covers half a band, so a band takes two move"
    " panels the same way. A melee attack or a grab needs the target engaged: from close it"
    " moves in first, paying the move panels before the attack's, else it is refused with the"
    " reason. A missile attack at a far target is at -2 to hit."
)
"""The rules of this module that the seed leaves out, filled in."""

FAR_PENALTY = rf.FAR_PENALTY
"""A missile attack at a far target (long range): -2."""

HALFWAY = "halfway"
"""``fight.data`` key: actor -> the way a stunned mover is halfway along ("toward:<id>",
"away:<id>" or "away")."""

MELEE_ACTIONS = frozenset({"attack", "grab"})
"""Actions that need the target engaged (an attack only with a melee form)."""


def band(ctx: Ctx, a: str, b: str) -> Band:
    """How far apart ``a`` and ``b`` are."""
    return ctx.fight.positions.band(a, b)


def everyone(ctx: Ctx) -> list[str]:
    """The combatants in the scene, in turn order."""
    return [p.actor for p in en.ranked(ctx.enc.participants) if p.present]


def halves_per_move(ctx: Ctx, actor: str) -> int:
    """Half-bands one move panel covers: 2 (a band), 1 stunned (half speed)."""
    return 1 if ctx.stunned(actor) else 2


def halfway(ctx: Ctx, actor: str) -> str:
    """The way ``actor`` is halfway along ("" : none)."""
    kept = ctx.fight.data.get(HALFWAY)
    return str(kept.get(actor, "")) if isinstance(kept, dict) else ""


def _keep_halfway(ctx: Ctx, actor: str, way: str) -> None:
    kept = ctx.fight.data.get(HALFWAY)
    now = dict(kept) if isinstance(kept, dict) else {}
    if way:
        now[actor] = way
    else:
        now.pop(actor, None)
    ctx.note(HALFWAY, now or None)


@dataclass(frozen=True, slots=True)
class Mobility:
    """What moving in asks of an actor, read once for every target an option lists: the
    half-bands a move panel covers, the way it is halfway along, who holds it, whether it is
    prone, and the panels it has left (None: not its turn)."""

    per: int
    halfway: str
    holder: str | None
    prone: bool
    left: int | None


def mobility(ctx: Ctx, actor: str) -> Mobility:
    """``actor``'s ``Mobility`` now."""
    return Mobility(halves_per_move(ctx, actor), halfway(ctx, actor), ctx.holder_of(actor),
                    ctx.prone(actor), _left(ctx, actor))


def moves_to_engage(ctx: Ctx, actor: str, target: str, known: Mobility | None = None) -> int:
    """The move panels ``actor`` needs to get engaged with ``target`` now."""
    halves = 2 * ps.rank(band(ctx, actor, target))
    way = known.halfway if known is not None else halfway(ctx, actor)
    if halves and way == f"toward:{target}":
        halves -= 1
    per = known.per if known is not None else halves_per_move(ctx, actor)
    return -(-halves // per)


def _left(ctx: Ctx, actor: str) -> int | None:
    """Panels ``actor`` has left this turn (None: not its turn)."""
    return ctx.enc.budget.get(en.PANEL, 0) if ctx.enc.acting == actor else None


def _panels(n: int) -> str:
    return f"{n} panel{'s' * (n != 1)}"


# ------------------------------------------------------------------ what the rules ask


def reach(ctx: Ctx, actor: str, target: str, cost: int = 1,
          known: Mobility | None = None) -> str:
    """Why ``actor`` cannot make a melee attack (or grab) costing ``cost`` on ``target`` now
    ("" : it can, moving in first when the target is close and the panels left pay the moves
    and the attack; off its turn only the band counts). ``known``: its ``mobility``."""
    if actor == target:
        return ""
    b = band(ctx, actor, target)
    if b == ENGAGED:
        return ""
    name = ctx.name(target)
    if b != ps.CLOSE:
        return f"{name} is {b}: out of reach of a melee attack (move in first)"
    mob = known or mobility(ctx, actor)
    moves = moves_to_engage(ctx, actor, target, mob)
    if mob.holder is not None:
        return (f"{name} is close, not engaged, and {ctx.name(actor)} is held by"
                f" {ctx.name(mob.holder)}: break free first")
    if mob.prone:
        return f"{name} is close, not engaged, and {ctx.name(actor)} is prone: stand up first"
    left = mob.left
    if left is None or moves + cost <= left:
        return ""
    slow = " (stunned: half speed)" if mob.per == 1 else ""
    return (f"{name} is close, not engaged: moving in takes {_panels(moves)}{slow} and the"
            f" attack {cost} more, {_panels(left)} left (move in first)")


def why_not(ctx: Ctx, actor: str, action: str, form: AttackForm | None, target: str,
            known: Mobility | None = None) -> str:
    """Why ``actor``'s ``action`` (with ``form``) cannot reach ``target`` now ("" : it can;
    ``known``: its ``mobility``)."""
    if action in MELEE_ACTIONS and (form is None or form.range == "melee"):
        return reach(ctx, actor, target, known=known)
    return ""


def declared(ctx: Ctx, actor: str, action: str, target: str | None,
             form: AttackForm | None) -> None:
    """A declaration's check: a melee attack or grab that cannot reach is refused now, with
    the reason (before any die)."""
    if target is None or target not in ctx.state.actors:
        return
    why = why_not(ctx, actor, action, form, target)
    if why:
        raise IllegalAction(f"{ctx.name(actor)} cannot reach {ctx.name(target)}: {why}")


# ------------------------------------------------------------------ what changes them


def _advance(ctx: Ctx, actor: str, way: str, targets: Sequence[str], *,
             engage: bool = True) -> int:
    """One move panel's worth of movement ``way`` (toward ``targets[0]`` or away from
    ``targets``): the bands crossed (0: halfway, when stunned)."""
    total = halves_per_move(ctx, actor) + (1 if halfway(ctx, actor) == way else 0)
    bands, rest = divmod(total, 2)
    if not ctx.stunned(actor):
        rest = 0
    pos = ctx.fight.positions
    if way.startswith("toward:"):
        changes = ps.toward(pos, actor, targets[0], bands, everyone(ctx), engage=engage)
        if band(ctx, actor, targets[0]) == ENGAGED:
            rest = 0
    else:
        changes = ps.away(pos, actor, targets, bands, everyone(ctx))
    if changes:
        ctx.emit(PositionsChanged(bands=dict(changes)))
    _keep_halfway(ctx, actor, way if rest else "")
    return bands


def close_in(ctx: Ctx, actor: str, target: str, cost: int = 1) -> None:
    """Before a melee attack or grab (its ``cost`` not yet paid): move in on a close target,
    paying the move panels, or ``IllegalAction`` with the reason it cannot reach."""
    why = reach(ctx, actor, target, cost)
    if why:
        raise IllegalAction(f"{ctx.name(actor)} cannot reach {ctx.name(target)}: {why}")
    moves = moves_to_engage(ctx, actor, target)
    if not moves:
        return
    ctx.let_go(actor, f"it moves in on {ctx.name(target)}")
    for _ in range(moves):
        ctx.pay(actor, 1)
        _advance(ctx, actor, f"toward:{target}", [target])
    slow = ", stunned, at half speed" if ctx.stunned(actor) else ""
    ctx.say(actor, "move", f"{ctx.name(actor)} closes in on {ctx.name(target)}{slow}"
            f" ({_panels(moves)}): engaged.", target)


def step(ctx: Ctx, actor: str, options: Mapping[str, Any], target: str | None) -> str:
    """A move panel's change of position, from its options: ``toward`` (or the target) an id,
    or ``away`` from an id (True or "foes": from every foe); ``way`` as the menu names it (an
    id: toward them, "away": from every foe, "stay": nowhere); ``engage`` False stops short
    of engaging. Returns the words for the story ("" : it moves nowhere in particular)."""
    try:
        to, off = ps.way_of(options, target)
    except ValueError as e:
        raise IllegalAction(str(e)) from None
    slow = " (stunned: half speed)" if ctx.stunned(actor) else ""
    if to:
        _known(ctx, actor, to)
        if band(ctx, actor, to) == ENGAGED:
            return f"toward {ctx.name(to)}: already engaged"
        crossed = _advance(ctx, actor, f"toward:{to}", [to],
                           engage=options.get("engage", True) is not False)
        if not crossed:
            return (f"halfway toward {ctx.name(to)}{slow}: still {band(ctx, actor, to)},"
                    " another move gets there")
        return f"toward {ctx.name(to)}{slow}: {band(ctx, actor, to)}"
    if off:
        every = off is True or str(off) in ("foes", "all")
        frm = ctx.foes(actor) if every else [str(off)]
        for f in frm:
            _known(ctx, actor, f)
        crossed = _advance(ctx, actor, "away" if every else f"away:{frm[0]}", frm)
        if not crossed:
            return f"halfway back{slow}: another move gets clear"
        words = ", ".join(f"{ctx.name(f)} ({band(ctx, actor, f)})" for f in frm)
        return f"away from {words}{slow}"
    _keep_halfway(ctx, actor, "")
    return ""


def _known(ctx: Ctx, actor: str, other: str) -> None:
    if other not in everyone(ctx) or other == actor:
        raise IllegalAction(f"move toward or away from whom? {other!r} is not in the fight")


# ------------------------------------------------------------------ what the options show


def move_choices(ctx: Ctx, actor: str) -> tuple[NamedChoice, ...]:
    """Where a move panel may go (its ``way`` option: "which way?"): toward each foe, then
    each ally, with the band it would end in (halfway, stunned); away from every foe; nowhere
    in particular."""
    per = halves_per_move(ctx, actor)
    way = halfway(ctx, actor)
    foes = ctx.foes(actor)
    out: list[NamedChoice] = []
    for other in [*foes, *ctx.allies(actor)]:
        now = band(ctx, actor, other)
        total = per + (1 if way == f"toward:{other}" else 0)
        then = ps.at_rank(ps.rank(now) - total // 2)
        detail = f"{now} -> {then}" if then != now else (
            f"{now}, halfway (stunned)" if now != ENGAGED else now)
        out.append(NamedChoice(id=other, name=f"Toward {ctx.name(other)}", detail=detail,
                               why="" if now != ENGAGED else "already engaged"))
    if foes:
        out.append(NamedChoice(id="away", name="Away from the foes",
                               detail="1 band back" if per == 2 else "half a band back"
                               " (stunned)"))
    out.append(NamedChoice(id="stay", name="Elsewhere nearby",
                           detail="no band changes (say where in the fiction)"))
    return tuple(out)


def row_band(ctx: Ctx, actor: str) -> str:
    """``actor``'s band from the hero acting now, when it is one of its foes ("" else)."""
    acting = ctx.enc.acting
    if acting is None or not ctx.enc.has(acting) or ctx.out(actor) \
            or ctx.enc.participant(acting).side != "heroes" \
            or ctx.enc.participant(actor).side == "heroes":
        return ""
    return band(ctx, acting, actor)


# ------------------------------------------------------------------ the referee


def referee_choice(ctx: Ctx, actor: str, s: rf.Situation) -> rf.Choice:
    """The referee's choice with positions: the first of ``referee.explain_options`` it can
    make from where it stands. A melee attack on a close foe moves in first (the attack does
    it); out of reach it is passed over. With nothing left to do but end the turn and a foe
    out of reach of its melee attacks, it moves toward the foe it would most like to hit."""
    forms = ctx.forms(actor)
    wanted: str | None = None
    mob: Mobility | None = None
    for c in rf.explain_options(s):
        form = forms.get(block_id(c.attack or "")) if c.action == "attack" else None
        if form is None or form.range != "melee" or c.target is None:
            if c.action == "end_turn" and wanted is not None:
                return _approach(ctx, actor, wanted, s, c)
            return c
        if band(ctx, actor, c.target) == ENGAGED:
            return c
        mob = mob or mobility(ctx, actor)
        why = reach(ctx, actor, c.target, known=mob)
        if not why:
            moves = moves_to_engage(ctx, actor, c.target, mob)
            if moves:
                return replace(c, why=f"{c.why} (closing in first: {_panels(moves)})")
            return c
        wanted = wanted or c.target
    return rf.choose(s)


def _approach(ctx: Ctx, actor: str, foe: str, s: rf.Situation, end: rf.Choice) -> rf.Choice:
    """A move toward ``foe`` when a panel is left and it can move; else ``end``."""
    if s.panels_left < 1 or ctx.holder_of(actor) is not None or ctx.prone(actor):
        return end
    now = band(ctx, actor, foe)
    return rf.Choice("move", f"{ctx.name(actor)} moves toward {ctx.name(foe)} ({now}): out"
                     " of reach of its melee attacks", target=foe)


__all__ = ["FAR_PENALTY", "FILLED_IN", "HALFWAY", "MELEE_ACTIONS", "Mobility", "band", "close_in",
           "declared", "everyone", "halfway", "halves_per_move", "mobility", "move_choices",
           "moves_to_engage", "reach", "referee_choice", "row_band",
           "step", "why_not"]
