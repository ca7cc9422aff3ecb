"""M&M's fight actions (RULES.md D.6): attack, charge, aim, defend, recover, stand, drop
prone, move, demoralize, feint, aid, grab, escape, release, trip (and the counter-trip it may
offer), delay, surrender, flee and the end of a turn. Each registers in the game's action
table; the rest are in fight_more.py."""

from __future__ import annotations

from collections.abc import Sequence

from engine.errors import IllegalAction
from engine.rules import encounter as en
from engine.rules.fight.state import Pending
from engine.systems.mm3e import actions as ac
from engine.systems.mm3e import areas, teams, turn_rules
from engine.systems.mm3e import attacks as at
from engine.systems.mm3e import maneuvers as mv
from engine.systems.mm3e import positions as mpos
from engine.systems.mm3e.opposed import roll_opposed, with_penalty
from engine.systems.mm3e.statblock import Attack, StatBlock
from engine.systems.mm3e.step import C, Ctx, action
from engine.systems.mm3e.strikes import (
    attack_of,
    attack_roll,
    damage_state,
    land,
    spend_aim,
    strike,
    trade_effects,
    trade_values,
)


@action("attack", "standard", "foe", needs_attack=True)
def _attack(ctx: Ctx, p: Pending) -> None:
    atk = attack_of(ctx, p)
    if atk.range not in ("area",) and p.target is None:
        raise IllegalAction("attack whom?")
    ctx.spend(p.actor, "standard")
    if atk.range == "area":
        areas.area_attack(ctx, p, atk, trade_values(ctx, p.actor, atk, p.maneuvers).effect)
    elif p.team or p.options.get(teams.TEAM):
        teams.team_attack(ctx, p, atk)
    else:
        strike(ctx, p, atk)
    spend_aim(ctx, p.actor)
    trade_effects(ctx, p, atk)
    ctx.drop_effects(lambda e: not (e.what == "feinted" and e.source == p.actor
                                   and e.target == p.target))

@action("charge", "standard", "foe", needs_attack=True)
def _charge(ctx: Ctx, p: Pending) -> None:
    atk = attack_of(ctx, p)
    if atk.range != "close":
        raise IllegalAction(f"a charge ends in a close attack; {atk.name} is {atk.range.value}")
    if C.IMMOBILE in ctx.conditions(p.actor):
        raise IllegalAction(f"{ctx.name(p.actor)} is immobile and cannot charge")
    ctx.spend(p.actor, "standard")
    assert p.target is not None
    run = mpos.charge_in(ctx, p.actor, p.target, slam=bool(p.options.get("slam")))
    if p.options.get("slam"):
        block = ctx.block(p.actor)
        speed = max(block.speed.values(), default=0)
        full = run.full_speed
        rank = mv.slam_rank(speed, atk.rank, full_speed=full, cap=block.power_level)
        hit = strike(ctx, p, atk, extra=[("charge", -2)], label="slam",
                      team_rank=rank)
        if hit:
            self_rank = mv.slam_self_rank(rank)
            ctx.say(p.actor, "slam", f"{ctx.name(p.actor)} takes the slam's own force"
                    f" (rank {self_rank}).", by="engine")
            land(ctx, p.target or p.actor, p.actor,
                 Attack(name="the slam", range=at.AttackRange.CLOSE, bonus=0,
                        rank=self_rank), self_rank)
    else:
        strike(ctx, p, atk, extra=[("charge", -2)], label="charge")
    spend_aim(ctx, p.actor)

@action("aim", "standard")
def _aim(ctx: Ctx, p: Pending) -> None:
    atk = attack_of(ctx, p)
    ctx.spend(p.actor, "standard")
    value = 5 if atk.range == "close" or p.options.get("point_blank") else 2
    ctx.add_effect(p.actor, p.actor, "aiming", "end_of_next_turn",
              data={"kind": "bonus", "what": "attack", "value": value, "label": "aim",
                    "aim": 1})
    ctx.condition_for(p.actor, p.actor, C.VULNERABLE, "end_of_next_turn", data={"aim": 1})
    ctx.say(p.actor, "aim", f"{ctx.name(p.actor)} takes aim: +{value} on the next attack,"
            " vulnerable meanwhile.")

@action("defend", "standard")
def _defend(ctx: Ctx, p: Pending) -> None:
    ctx.spend(p.actor, "standard")
    ctx.add_effect(p.actor, p.actor, "defending", "start_of_next_turn", data={"kind": "defend"})
    ctx.say(p.actor, "defend", f"{ctx.name(p.actor)} goes on the defensive: attacks on them"
            " are opposed by a defense roll until their next turn.")

@action("recover", "standard")
def _recover(ctx: Ctx, p: Pending) -> None:
    if p.actor in ctx.fight.recovered:
        raise IllegalAction(f"{ctx.name(p.actor)} has already recovered once this fight")
    ctx.spend(p.actor, "standard")  # the whole turn: the move too, when one is left
    if ctx.enc.budget.get("move", 0) > 0:
        ctx.spend(p.actor, "move")
    state = damage_state(ctx, p.actor)
    worst = state.worst
    lasting = turn_rules.ongoing(ctx, p.actor)  # or an extra resistance check (D.6)
    if lasting and p.options.get("resist", worst in (None, C.DAZED)):
        what = lasting[0].what
        text = (f"throws off being {what}" if turn_rules.resist(ctx, lasting[0], say=False)
                else f"strains against being {what}, in vain")
    elif worst is C.DAZED:
        ctx.drop_effects(lambda e: not (e.target == p.actor and e.what == C.DAZED.value
                                       and e.data.get("damage")))
        text = "shakes off being dazed"
    elif worst is not None:
        ctx.change(p.actor, remove=[worst], why="")
        text = f"is no longer {worst.value}"
    elif ctx.damage(p.actor):
        ctx.change(p.actor, damage=ctx.damage(p.actor) - 1, why="")
        text = f"catches their breath (-{ctx.damage(p.actor)} now)"
    else:
        text = "catches their breath"
    for which in ("dodge", "parry"):
        ctx.bonus_for(p.actor, p.actor, which, 2, "recovering", "start_of_next_turn")
    ctx.used_recovery(p.actor)
    ctx.say(p.actor, "recover", f"{ctx.name(p.actor)} takes a moment and {text}"
            " (+2 Dodge and Parry until their next turn).")

@action("stand", "move")
def _stand(ctx: Ctx, p: Pending) -> None:
    turn_rules.stand(ctx, p)  # free with Instant Up

@action("drop_prone", "free")
def _drop_prone(ctx: Ctx, p: Pending) -> None:
    ctx.change(p.actor, add=[C.PRONE], why=f"{ctx.name(p.actor)} drops prone")

@action("move", "move")
def _move(ctx: Ctx, p: Pending) -> None:
    if C.IMMOBILE in ctx.conditions(p.actor):
        raise IllegalAction(f"{ctx.name(p.actor)} is immobile")
    ctx.spend(p.actor, "move")
    band = mpos.step(ctx, p.actor, p.options, p.target)
    where = str(p.options.get("to", "")).strip()
    ctx.say(p.actor, "move", f"{ctx.name(p.actor)} moves" + (f" {where}" if where else "")
            + (f" ({band})" if band and where else f" {band}" if band else "") + ".",
            p.target)

def _opposed_skill(ctx: Ctx, actor: str, skill: str, target: str,
                   defenses: Sequence[str]) -> int:
    """``skill`` opposed by the better of the target's ``defenses`` (both roll); the actor's
    signed degree (positive: it won)."""
    block, tblock = ctx.block(actor), ctx.block(target)
    bonus = block.skills.get(skill, getattr(block.abilities, _SKILL_ABILITY.get(
        skill, "presence")))
    best = max(defenses, key=lambda d: _trait(tblock, d))
    opp = roll_opposed(ctx, actor, f"{skill.lower()} against {ctx.name(target)}",
                       with_penalty(ctx, actor, [(skill, bonus)]), target,
                       with_penalty(ctx, target, [(best, _trait(tblock, best))]))
    return opp.degrees if opp.actor_wins else -opp.degrees

_SKILL_ABILITY = {"Intimidation": "presence", "Deception": "presence", "Insight": "awareness"}

def _trait(block: StatBlock, name: str) -> int:
    if name in ("Will", "Dodge", "Parry", "Fortitude", "Toughness"):
        return int(getattr(block.defenses, name.lower()))
    return block.skills.get(name, int(getattr(block.abilities,
                                              _SKILL_ABILITY.get(name, "awareness"))))

@action("demoralize", "standard", "foe")
def _demoralize(ctx: Ctx, p: Pending) -> None:
    assert p.target is not None
    ctx.spend(p.actor, "standard")
    got = mv.demoralize_result(_opposed_skill(ctx, p.actor, "Intimidation", p.target,
                                              ("Insight", "Will")))
    if got is None:
        ctx.say(p.actor, "demoralize", f"{ctx.name(p.target)} is not impressed.", p.target)
        return
    ctx.condition_for(p.actor, p.target, C(got), "end_of_next_turn", anchor=p.actor)
    ctx.say(p.actor, "demoralize", f"{ctx.name(p.target)} is shaken: {got} until the end of"
            f" {ctx.name(p.actor)}'s next turn.", p.target)

@action("feint", "standard", "foe")
def _feint(ctx: Ctx, p: Pending) -> None:
    assert p.target is not None
    ctx.spend(p.actor, "standard")
    degree = _opposed_skill(ctx, p.actor, "Deception", p.target, ("Deception", "Insight"))
    if mv.feint_result(degree) is None:
        ctx.say(p.actor, "feint", f"{ctx.name(p.target)} does not fall for it.", p.target)
        return
    ctx.add_effect(p.actor, p.target, "feinted", "end_of_next_turn", anchor=p.actor,
              data={"kind": "feint"})
    ctx.say(p.actor, "feint", f"{ctx.name(p.target)} is wrong-footed: vulnerable to"
            f" {ctx.name(p.actor)}'s next attack.", p.target)

@action("aid", "standard", "ally")
def _aid(ctx: Ctx, p: Pending) -> None:
    assert p.target is not None
    foe = str(p.options.get("against") or next(iter(ctx.foes(p.actor)), ""))
    if not foe:
        raise IllegalAction("aid against whom? no foe is left")
    atk = attack_of(ctx, p)
    ctx.spend(p.actor, "standard")
    bonus = atk.bonus if atk.bonus is not None else 0
    res = ctx.check(p.actor, f"aids {ctx.name(p.target)}", [(atk.name, bonus)], 10, "DC 10")
    value = mv.aid_bonus(res.degree)
    if not value:
        ctx.say(p.actor, "aid", "The help comes to nothing.", p.target)
        return
    whats = ("dodge", "parry") if p.options.get("defense") else ("attack",)
    for w in whats:
        ctx.bonus_for(p.actor, p.target, w, value, f"aid from {ctx.name(p.actor)}",
                      "end_of_next_turn", against=foe)
    ctx.say(p.actor, "aid", f"{ctx.name(p.target)} gets +{value}"
            f" {'defense' if p.options.get('defense') else 'attack'} against {ctx.name(foe)}.",
            p.target)

@action("grab", "standard", "foe")
def _grab(ctx: Ctx, p: Pending) -> None:
    assert p.target is not None
    ctx.spend(p.actor, "standard")
    block = ctx.block(p.actor)
    grab = Attack(name="grab", range=at.AttackRange.CLOSE, bonus=block.abilities.fighting,
                  rank=max(0, block.abilities.strength))  # the rank field is never negative
    close = [a for a in block.attacks if a.range == "close" and a.bonus is not None]
    if close:
        grab = grab.model_copy(update={"bonus": max(a.bonus or 0 for a in close)})
    res = attack_roll(ctx, p.actor, p.target, f"grab at {ctx.name(p.target)}", grab)
    if not res.hit:
        return
    tblock = ctx.block(p.target)
    strength = block.abilities.strength
    resist = max((("Strength", tblock.abilities.strength), ("Dodge", tblock.defenses.dodge)),
                 key=lambda x: x[1])
    r = ctx.check(p.target, "resists the grab", [resist], 10 + strength,
                  f"10 + {ctx.name(p.actor)}'s Strength {strength}")
    old = ctx.fight.holds.get(p.target)
    mine = old is not None and old.get("by") == p.actor
    if r.degree > 0:
        if mine:  # losing a grab on an existing hold frees the target (D.6)
            release(ctx, p.target)
        return
    degrees = -r.degree + (int(old["degrees"]) if mine and old is not None else 0)
    cond = C.BOUND if degrees >= 2 else C.RESTRAINED
    ctx.hold(p.target, {**(old if mine and old is not None else {}), "by": p.actor,
                        "strength": strength, "degrees": degrees})
    if not mine:  # holding someone leaves the grabber hindered and vulnerable
        for c in (C.HINDERED, C.VULNERABLE):
            ctx.condition_for(p.actor, p.actor, c, "recovery", data={"hold": p.target})
    ctx.change(p.target, add=[cond], remove=[C.RESTRAINED] if cond is C.BOUND else [],
               why=f"{ctx.name(p.target)} is {cond.value} by {ctx.name(p.actor)}'s grip")

@action("escape", "move")
def _escape(ctx: Ctx, p: Pending) -> None:
    hold = ctx.fight.holds.get(p.actor)
    if hold is None:
        raise IllegalAction(f"{ctx.name(p.actor)} is not held")
    ctx.spend(p.actor, "move")
    block = ctx.block(p.actor)
    skill = max((("Athletics", block.skills.get("Athletics", block.abilities.strength)),
                 ("Acrobatics", block.skills.get("Acrobatics", block.abilities.agility))),
                key=lambda x: x[1])
    dc = 10 + int(hold["strength"])
    r = ctx.check(p.actor, "escapes the hold", [skill], dc,
                  f"10 + Strength {hold['strength']}")
    if r.degree <= 0:
        return
    release(ctx, p.actor)
    mpos.escape_apart(ctx, p.actor, str(hold["by"]), p.options)

def release(ctx: Ctx, held: str) -> None:
    """End a hold: the held one is free, its grabber no longer hindered and vulnerable."""
    ctx.hold(held, None)
    ctx.drop_effects(lambda e: e.data.get("hold") != held)
    ctx.change(held, remove=[C.RESTRAINED, C.BOUND], why=f"{ctx.name(held)} is free")

@action("release", "free", "foe")
def _release_action(ctx: Ctx, p: Pending) -> None:
    held = [t for t, h in ctx.fight.holds.items() if h.get("by") == p.actor]
    if not held:
        raise IllegalAction(f"{ctx.name(p.actor)} holds nobody")
    release(ctx, p.target if p.target in held else held[0])

def footing(ctx: Ctx, actor: str) -> int:
    """The better of Acrobatics or Athletics (Agility or Strength untrained): what a trip is
    made and resisted with."""
    b = ctx.block(actor)
    return max(b.skills.get("Acrobatics", b.abilities.agility),
               b.skills.get("Athletics", b.abilities.strength))

@action("trip", "standard", "foe")
def _trip(ctx: Ctx, p: Pending) -> None:
    assert p.target is not None
    ctx.spend(p.actor, "standard")
    block = ctx.block(p.actor)
    close = [a for a in block.attacks if a.range == "close" and a.bonus is not None]
    bonus = max((a.bonus or 0 for a in close), default=block.abilities.fighting)
    trip = Attack(name="trip", range=at.AttackRange.CLOSE, bonus=bonus, rank=0)
    res = attack_roll(ctx, p.actor, p.target, f"trip {ctx.name(p.target)}", trip,
                      [("trip", ac.TRIP_PENALTY)])
    if not res.hit:
        return
    opp = roll_opposed(ctx, p.actor, f"trips {ctx.name(p.target)}",
                       _footing_parts(ctx, p.actor), p.target, _footing_parts(ctx, p.target))
    if opp.actor_wins:
        ctx.change(p.target, add=[C.PRONE], why=f"{ctx.name(p.target)} goes down prone")
    elif offer(ctx, p.target, p.actor, "counter_trip"):  # kept their feet: may trip back
        counter_trip(ctx, p.target, p.actor)

def _footing_parts(ctx: Ctx, actor: str) -> list[tuple[str, int]]:
    return with_penalty(ctx, actor, [("Acrobatics or Athletics", footing(ctx, actor))])

@action("delay", "none")
def _delay(ctx: Ctx, p: Pending) -> None:
    adv = ctx.delay(p.actor)
    ctx.say(p.actor, "delay", f"{ctx.name(p.actor)} waits for the right moment.")
    ctx.conflict.turn_ended(ctx, adv)
    ctx.conflict.begun(ctx, adv)

@action("surrender", "none")
def _surrender(ctx: Ctx, p: Pending) -> None:
    ctx.conflict.leave(ctx, p, "surrendered", "gives up the fight")

@action("flee", "move")
def _flee(ctx: Ctx, p: Pending) -> None:
    if C.IMMOBILE in ctx.conditions(p.actor):
        raise IllegalAction(f"{ctx.name(p.actor)} is immobile and cannot flee")
    ctx.conflict.leave(ctx, p, "fled", "breaks away and flees")

@action("end_turn", "none")
def _end_turn_action(ctx: Ctx, p: Pending) -> None:
    if p.by == "referee":  # the referee says why its character stops
        ctx.say(p.actor, "end_turn", p.why or f"{ctx.name(p.actor)} ends the turn.", by="referee")
    ctx.conflict.next_turn(ctx)


# ------------------------------------------------------------------ counters


COUNTERS = {"counter_trip": "trip", "counter_disarm": "disarm"}
"""The counters a defender may be offered, and the action each answers."""


def offer(ctx: Ctx, defender: str, against: str, counter: str) -> bool:
    """A counter for ``defender``: the referee's characters take it now (True); a player's is
    offered it until the end of its next turn (False)."""
    if ctx.fight.controller(ctx.state.actors[defender]) == "referee":
        return True
    ctx.add_effect(against, defender, f"{counter} offer", "end_of_next_turn", anchor=defender,
              data={"kind": "offer", "action": counter, "against": against})
    ctx.say(defender, counter, f"{ctx.name(defender)} may answer with a"
            f" {counter.replace('_', '-')} (a reaction, until the end of their next turn).",
            by="engine")
    return False

def offer_of(ctx: Ctx, actor: str, counter: str) -> en.Effect | None:
    """The open offer of ``counter`` to ``actor``, or None."""
    return next((e for e in ctx.effects_on(actor) if e.data.get("kind") == "offer"
                 and e.data.get("action") == counter), None)

def counter_trip(ctx: Ctx, defender: str, tripper: str) -> None:
    """The counter-trip: the defender's better of Acrobatics or Athletics opposed by the
    tripper's; a win leaves the tripper prone; no counter to it."""
    opp = roll_opposed(ctx, defender, f"trips {ctx.name(tripper)} back",
                       _footing_parts(ctx, defender), tripper, _footing_parts(ctx, tripper))
    if opp.actor_wins:
        ctx.change(tripper, add=[C.PRONE], why=f"{ctx.name(defender)} trips"
                   f" {ctx.name(tripper)} back: prone")
    else:
        ctx.say(defender, "counter_trip", f"{ctx.name(tripper)} keeps their feet.", tripper,
                by="engine")
