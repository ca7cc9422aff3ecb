"""Opposed checks in a fight (RULES.md D.6): both sides roll a d20, the higher total wins.

Demoralize (Intimidation against the better of Insight or Will), feint (Deception against the
better of Deception or Insight), a trip's second roll and its counter-trip (the better of
Acrobatics or Athletics on each side), disarm and its counter (damage against Strength) are all
opposed checks. The actor's die is rolled (or asked) first, the opponent's second, each die
labelled with whose it is and what it adds; the roll panel shows the exact odds over both dice
(``actions.opposed_odds``). Ties go to the higher bonus, then to the actor (``actions.opposed``).
Each side's impaired or disabled penalty counts on its own check.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from engine.rules.fight.dice import Die, fight_roll
from engine.systems.mm3e import actions as ac
from engine.systems.mm3e.checks import DIE_SIDES, check_die
from engine.systems.mm3e.conditions import check_penalty
from engine.systems.mm3e.step import Ctx

Parts = list[tuple[str, int]]


def with_penalty(ctx: Ctx, who: str, parts: Sequence[tuple[str, int]]) -> Parts:
    """``parts`` and the condition penalty (impaired, disabled) ``who`` checks at, if any."""
    out = list(parts)
    pen = check_penalty(ctx.conditions(who))
    if pen:
        out.append(("condition", pen))
    return out


def win_chance(bonus: int, against: int) -> Fraction:
    """The exact chance that the actor wins an opposed check, both dice still to roll."""
    return sum((p for k, p in ac.opposed_odds(bonus, against).items()
                if k.startswith("win")), Fraction(0))


def hold_chance(actor_face: int, actor_bonus: int, against: int) -> Fraction:
    """The exact chance the opponent holds (wins) once the actor's die is known."""
    holds = sum(1 for face in range(1, DIE_SIDES + 1)
                if not ac.opposed(actor_face, actor_bonus, face, against).actor_wins)
    return Fraction(holds, DIE_SIDES)


def roll_opposed(ctx: Ctx, actor: str, what: str, mine: Sequence[tuple[str, int]],
                 other: str, theirs: Sequence[tuple[str, int]]) -> ac.Opposed:
    """An opposed check of ``actor`` (``mine``: the parts of its bonus) against ``other``
    (``theirs``): the actor's die first, then the opponent's; one ``Rolled`` explains it as the
    actor's total against the opponent's total."""
    bonus, against = sum(v for _, v in mine), sum(v for _, v in theirs)
    a = ctx.die(actor, what, odds=f"{float(win_chance(bonus, against)):.0%} to win")
    a_total = check_die(a.face) + bonus
    theirs_words = " + ".join(f"{n} {v}" for n, v in theirs)
    holds = a_total if against > bonus else a_total + 1  # a tie goes to the higher bonus
    o = ctx.die(other, f"opposes {ctx.name(actor)} ({what}) with {theirs_words}: {holds} or"
                " more holds", odds=f"{float(hold_chance(a.face, bonus, against)):.0%} to hold")
    opp = ac.opposed(a.face, bonus, o.face, against)
    ctx.emit(fight_roll(actor, what, Die(a.face, a.by, max(a.position, o.position)), list(mine),
                        opp.actor_total, opp.opponent_total,
                        f"{ctx.name(other)}: d20 {o.face} + {theirs_words}",
                        opp.label, opp.degrees if opp.actor_wins else -opp.degrees,
                        ac.opposed_odds(bonus, against)))
    return opp


__all__ = ["hold_chance", "roll_opposed", "win_chance", "with_penalty"]
