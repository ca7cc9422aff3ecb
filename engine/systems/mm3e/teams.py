"""M&M team attacks (RULES.md D.7; seed 004 "Team Attack"): attacks with the same effect and
resistance, within 5 ranks of each other, combine. The attackers all delay to the slowest
one's place in the order; each rolls to hit; the largest rank among the hits gets +2 from the
others' combined degrees of success (+5 for three or more); misses add nothing.

Who joins: the teammates (same side) who delayed their turn this round and can still act, each
with its best attack that fits (``joiners``). A hero of the party offers it on its attack as
the ``team`` switch ("Team attack with Lamplight") once a teammate has delayed to its turn;
the referee's minions delay to the slowest of them, who leads it (referee.py)."""

from __future__ import annotations

from engine.errors import IllegalAction
from engine.rules.fight.dice import fight_roll
from engine.rules.fight.events import TurnsUsed
from engine.rules.fight.foes import side_of
from engine.rules.fight.state import Pending
from engine.rules.fight.values import Maneuver
from engine.systems.mm3e import attacks as at
from engine.systems.mm3e import maneuvers as mv
from engine.systems.mm3e import positions as mpos
from engine.systems.mm3e.conditions import action_budget
from engine.systems.mm3e.neutral import neutralised
from engine.systems.mm3e.statblock import Attack
from engine.systems.mm3e.step import Ctx
from engine.systems.mm3e.strikes import attack_parts, defense_words, land

FILLED_IN = (
    "Team attacks: a teammate joins by delaying its turn to the leader's (the slowest); it"
    " joins with its best fitting attack (same effect and resistance, within 5 ranks of the"
    " leader's), and its delayed turn is spent on it. An attack with no attack check counts"
    " one degree (the seed) and, as the leader's, always lands. No critical hits in a team"
    " attack. The referee's minions delay to the slowest of the group's ready members, who"
    " leads the attack on its own turn."
)
"""The rules of this module that the seed leaves out, filled in."""

TEAM = "team"
"""The switch (``options``) that makes an attack a team attack with the delayed teammates."""


def fits(lead: Attack, other: Attack) -> bool:
    """Whether ``other`` may combine with ``lead``: same effect and resistance, ranks within
    ``maneuvers.TEAM_RANK_SPREAD``."""
    return (other.effect == lead.effect and other.resisted_by == lead.resisted_by
            and abs(other.rank - lead.rank) <= mv.TEAM_RANK_SPREAD)


def can_join(ctx: Ctx, actor: str) -> bool:
    """Whether ``actor`` can take part (in the fight, not neutralised, able to act)."""
    return (not ctx.out(actor) and not neutralised(ctx, actor)
            and action_budget(ctx.conditions(actor)).any)


def joiner_attack(ctx: Ctx, member: str, lead: Attack, attack_id: str | None = None
                  ) -> Attack | None:
    """The attack ``member`` joins with: the one with id ``attack_id`` if it has it and it
    fits, else its fitting attack of the largest rank; None when none fits."""
    atks = ctx.attacks(member)
    if attack_id in atks and fits(lead, atks[attack_id]):
        return atks[attack_id]
    fitting = [a for a in atks.values() if fits(lead, a)]
    return max(fitting, key=lambda a: a.rank, default=None)


def delayed_teammates(ctx: Ctx, actor: str) -> list[str]:
    """``actor``'s teammates (same side) holding a delayed turn who can still act."""
    side = side_of(ctx.state, actor)
    return [p.actor for p in ctx.ranked() if p.actor != actor and p.held == "delay"
            and side_of(ctx.state, p.actor) == side and can_join(ctx, p.actor)]


def joiners(ctx: Ctx, actor: str, lead: Attack) -> list[tuple[str, Attack]]:
    """Who joins ``actor``'s team attack with ``lead``: each delayed teammate with a fitting
    attack, and that attack."""
    out: list[tuple[str, Attack]] = []
    for m in delayed_teammates(ctx, actor):
        atk = joiner_attack(ctx, m, lead)
        if atk is not None:
            out.append((m, atk))
    return out


def team_maneuver(ctx: Ctx, actor: str, lead: Attack, summary: str) -> tuple[Maneuver, ...]:
    """The ``team`` switch an attack offers when ``actor`` has a teammate in the fight:
    "Team attack with X" once X has delayed to this turn, else dimmed with what to do (delay
    to a teammate still to act this round, who leads it; or have one delay to this turn)."""
    mates = [a for a in ctx.allies(actor) if can_join(ctx, a)
             and joiner_attack(ctx, a, lead) is not None]
    if not mates:
        return ()
    joined = joiners(ctx, actor, lead)
    if joined:
        names = " and ".join(ctx.name(m) for m, _ in joined)
        return (Maneuver(id=TEAM, name=f"Team attack with {names}", summary=summary,
                         switch=True),)
    order = [p.actor for p in ctx.ranked()]
    later = [m for m in mates if m in order and actor in order
             and order.index(m) > order.index(actor)
             and ctx.enc.participant(m).last_round != ctx.enc.round]
    why = (f"delay, then team up on {ctx.name(later[-1])}'s turn (the slowest leads)" if later
           else f"{' or '.join(ctx.name(m) for m in mates)} must delay to this turn first")
    return (Maneuver(id=TEAM, name="Team attack", summary=summary, switch=True, why=why),)


def _member_roll(ctx: Ctx, member: str, target: str, atk: Attack) -> mv.TeamHit:
    """One member's attack check on ``target`` (no critical), emitted; its hit and degrees."""
    if atk.range not in ("close", "ranged"):  # no attack check: one degree, always reaches
        ctx.say(member, "team_attack", f"{ctx.name(member)} adds {atk.name} (no attack"
                " check: one degree).", target, by="engine")
        return mv.TeamHit(atk.rank, True, 1)
    parts, dc, dparts, dname = attack_parts(ctx, member, target, atk, {})
    bonus = sum(v for _, v in parts)
    odds = at.attack_odds(bonus, dc, can_crit=False)
    hp = float(odds["hit"] + odds["critical"])
    what = f"team attack on {ctx.name(target)}"
    die = ctx.die(member, what, odds=f"{hp:.0%} to hit")
    res = at.attack(die.face, bonus, dc, can_crit=False)
    degrees = max(1, 1 + (res.total - dc) // 5) if res.hit else 0
    ctx.emit(fight_roll(member, what, die, parts, res.total, dc, defense_words(dname, dparts),
                        res.outcome, degrees if res.hit else -1, odds))
    return mv.TeamHit(atk.rank, res.hit, degrees)


def team_attack(ctx: Ctx, p: Pending, lead: Attack) -> None:
    """A team attack led by ``p.actor`` with ``lead`` on ``p.target``: the referee's named
    ``p.team``, else the delayed teammates; each rolls, the best hit lands with the others'
    degrees as a bonus, and the joiners' turns this round are spent."""
    assert p.target is not None
    if p.team:
        found = [(m, joiner_attack(ctx, m, lead, p.attack)) for m in p.team
                 if can_join(ctx, m)]
        members = [(m, a) for m, a in found if a is not None]
    else:
        members = joiners(ctx, p.actor, lead)
        if not members:
            raise IllegalAction("a team attack needs a teammate who delayed to this turn")
    if lead.range == "close":
        mpos.close_in(ctx, p.actor, p.target)
    members = [(m, a) for m, a in members if mpos.join_in(ctx, m, p.target, a)]
    everyone = [(p.actor, lead), *members]
    hits = [_member_roll(ctx, m, p.target, a) for m, a in everyone]
    if members:  # the joiners' turns this round are spent
        ctx.emit(TurnsUsed(actors=[m for m, _ in members]))
    rank = mv.team_attack_rank(hits)
    if rank is None:
        ctx.say(p.actor, "team_attack", "The team attack misses.", p.target, by="engine")
        return
    main = max((i for i, h in enumerate(hits) if h.hit), key=lambda i: hits[i].rank)
    best, atk = hits[main].rank, everyone[main][1]  # the largest rank among the hits
    extra = f" (rank {best} +{rank - best} from the others' hits)" if rank > best else ""
    ctx.say(p.actor, "team_attack", f"The team attack lands at rank {rank}{extra}.", p.target,
            by="engine")
    land(ctx, p.actor, p.target, atk.model_copy(update={"name": f"the team attack"
                                                         f" ({atk.name})"}), rank)


__all__ = ["FILLED_IN", "TEAM", "can_join", "delayed_teammates", "fits", "joiner_attack",
           "joiners", "team_attack", "team_maneuver"]
