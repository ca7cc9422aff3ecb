"""M&M area effects (RULES.md D.3): no attack check; everyone in the area makes a Dodge check
against 10 + the effect's rank, halving the rank on a success, then resists at that rank. Who
is in the area is asked of ``in_area``, from the fight's positions (range bands).
The journal gets one line per target: how its Dodge went and what the effect did."""

from __future__ import annotations

from engine.rules.fight import positions as ps
from engine.rules.fight.state import Pending
from engine.systems.mm3e import attacks as at
from engine.systems.mm3e.conditions import check_penalty
from engine.systems.mm3e.statblock import Attack
from engine.systems.mm3e.step import Ctx
from engine.systems.mm3e.strikes import land, obscurement_option

FILLED_IN = (
    "Area attacks: the area is centred on the target it is aimed at (or on the attacker when"
    " none is named) and covers every foe engaged with or close to that centre, and every ally"
    " of the attacker engaged with it (a burst on a foe in melee with your teammate catches"
    " them too; the attacker is never in its own area); the aimed-at target resolves first."
    " Each target in turn rolls Dodge against 10 + rank (cover"
    " adds its bonus), halving the rank on a success, then resists at that rank; a minion"
    " that fails takes the worst degree, as ever."
)
"""The rules of this module that the seed leaves out, filled in."""


def in_area(ctx: Ctx, attacker: str, attack: Attack, aimed_at: str | None = None
            ) -> list[str]:
    """Who ``attacker``'s area ``attack`` reaches, in the order they resolve (the one it is
    ``aimed_at`` first): the foes engaged with or close to its centre, and the attacker's allies
    engaged with it; never the attacker."""
    foes = ctx.foes(attacker)
    centre = aimed_at if aimed_at in foes else attacker
    reached = ps.in_area(ctx.fight, centre, ps.CLOSE)  # those still in the fight, in turn order
    engaged = {a for a in reached if ctx.fight.positions.band(centre, a) == ps.ENGAGED}
    allies = ctx.allies(attacker)  # never the attacker
    out = [f for f in foes if f in reached]
    out += [a for a in allies if a in engaged]
    if aimed_at in out:
        out.remove(aimed_at)
        out.insert(0, aimed_at)
    return out


def dodge_rank(ctx: Ctx, p: Pending, atk: Attack, target: str, rank: int
               ) -> tuple[int, bool]:
    """The rank an area attack lands on ``target`` with, and whether it dodged: a Dodge check
    (cover and impairment counted) against 10 + rank halves the rank on a success."""
    dparts = [("Dodge", ctx.block(target).defenses.dodge)]
    cover = obscurement_option(p.options, "cover")
    if cover is not at.Obscurement.NONE:
        dparts.append((f"{cover.value} cover", at.cover_dodge_bonus(cover)))
    pen = check_penalty(ctx.conditions(target))
    if pen:
        dparts.append(("impaired" if pen == -2 else "disabled", pen))
    res = ctx.check(target, f"dodges {atk.name}", dparts, at.area_dodge_dc(rank),
                    f"10 + rank {rank}")
    return at.area_rank(rank, res.success), res.success


def area_attack(ctx: Ctx, p: Pending, atk: Attack, rank: int) -> list[str]:
    """An area attack of ``rank``: each one in the area dodges, then resists; one journal line
    per target. Who it reached, in order."""
    reached = in_area(ctx, p.actor, atk, p.target)
    for t in reached:
        landed, dodged = dodge_rank(ctx, p, atk, t, rank)
        how = (f"dodges for half (rank {landed})" if dodged
               else f"fails to dodge (rank {landed})")
        did = land(ctx, p.actor, t, atk, landed, tell=False)
        ctx.say(t, "area", f"{atk.name} on {ctx.name(t)}: {how}, {did}.", t, by="engine")
    if not reached:
        ctx.say(p.actor, "area", f"{atk.name} catches nobody.", by="engine")
    return reached


__all__ = ["FILLED_IN", "area_attack", "dodge_rank", "in_area"]
