"""M&M attacks: their modifiers and exact odds, the defence and resistance, the damage ladder
and afflictions, and one attack roll with its consequence (RULES.md D.3-D.5)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from functools import lru_cache
from typing import Any

from engine.errors import IllegalAction
from engine.rules.fight.dice import Die, fight_roll
from engine.rules.fight.state import Pending
from engine.rules.fight.values import FightTarget, ResistDegree
from engine.systems.mm3e import attacks as at
from engine.systems.mm3e import maneuvers as mv
from engine.systems.mm3e import positions as mpos
from engine.systems.mm3e.checks import defend_result, degree_odds
from engine.systems.mm3e.conditions import attack_modifier_against, check_penalty
from engine.systems.mm3e.damage import DamageState, apply_resistance, damage_dc, resistance_dc
from engine.systems.mm3e.neutral import neutralised
from engine.systems.mm3e.statblock import Attack
from engine.systems.mm3e.step import (
    AFFLICTION_DEFAULT,
    DAMAGE_LASTING,
    MANEUVER_NAMES,
    TRADES,
    C,
    Ctx,
    max_trade,
)


def attack_parts(ctx: Ctx, actor: str, target: str, atk: Attack,
                 maneuvers: Mapping[str, int], options: Mapping[str, Any] | None = None
                 ) -> tuple[list[tuple[str, int]], int, list[tuple[str, int]], str]:
    """An attack's modifiers with their sources (a far target's range among them, unless
    ``options`` give a distance), the defence class, the defence's parts and its name."""
    assert atk.bonus is not None
    parts: list[tuple[str, int]] = [(atk.name, atk.bonus)]
    parts += mpos.range_parts(ctx, actor, target, atk, options)
    parts += ctx.bonuses(actor, "attack", target)
    pen = check_penalty(ctx.conditions(actor))
    if pen:
        parts.append(("impaired" if pen == -2 else "disabled", pen))
    close = atk.range == "close"
    prone = attack_modifier_against(ctx.conditions(target), close)
    if prone:
        parts.append(("target prone", prone))
    traded = trade_values(ctx, actor, atk, maneuvers)
    if traded.attack != atk.bonus:
        parts.append(("maneuvers", traded.attack - atk.bonus))
    which = "parry" if close else "dodge"
    rank, dparts = ctx.defense(target, which)
    feinted = [e for e in ctx.effects_on(target) if e.what == "feinted" and e.source == actor]
    if feinted and rank:
        halved = -(-rank // 2)
        dparts.append(("feinted: vulnerable to you", halved - rank))
        rank = halved
    return parts, at.defense_class(rank), dparts, which.title()

def trade_values(ctx: Ctx, actor: str, atk: Attack, maneuvers: Mapping[str, int]
                 ) -> mv.Traded:
    """Attack bonus, rank, Dodge and Parry after the trade maneuvers (``IllegalAction`` when
    one breaks a limit)."""
    block = ctx.block(actor)
    bonus = atk.bonus if atk.bonus is not None else 0
    values = mv.Traded(bonus, atk.rank, block.defenses.dodge, block.defenses.parry)
    rolled = atk.range in ("close", "ranged")
    for mid, amount in maneuvers.items():
        if mid not in TRADES or not amount:
            continue
        if not rolled and mid in ("accurate", "all_out"):
            raise IllegalAction(f"{MANEUVER_NAMES[mid]}: {atk.name} makes no attack roll"
                                f" ({atk.range.value}), so there is no attack bonus to raise")
        values = mv.apply_trade(TRADES[mid], amount, attack=values.attack, effect=values.effect,
                                dodge=values.dodge, parry=values.parry,
                                has_attack_check=rolled, allows_resistance=True,
                                max_trade=max_trade(ctx.pack))
    return values

def resist_parts(ctx: Ctx, target: str, atk: Attack, rank: int) -> tuple[list[tuple[str, int]],
                                                                          int]:
    """The target's resistance modifiers with their sources, and the DC."""
    which = atk.resisted_by
    block = ctx.block(target)
    parts: list[tuple[str, int]] = [(which.title(), getattr(block.defenses, which))]
    pen = check_penalty(ctx.conditions(target))
    if pen:
        parts.append(("impaired" if pen == -2 else "disabled", pen))
    if atk.effect == "damage" and which == "toughness":
        dmg = ctx.damage(target)
        if dmg:
            parts.append(("damage penalty", -dmg))
        parts += ctx.bonuses(target, "toughness")
        return parts, damage_dc(rank)
    return parts, resistance_dc(rank)

DAMAGE_RESULTS = {-1: "-1", -2: "dazed", -3: "staggered"}
"""What a degree of failure against damage does short of taking the target down (a success
shrugs it off; four degrees take it down)."""

AFFLICTION_RESULTS = {-1: "1st degree", -2: "2nd degree"}
"""An affliction's degrees of failure short of the 3rd (three or more)."""


def degree_result(degree: int, damage: bool, minion: bool) -> tuple[str, int]:
    """What a resistance degree does to the target, in a word or two, and how bad it is (0
    nothing, 1 hurt or hindered, 2 out): a success shrugs it off; against damage, a penalty,
    dazed, staggered, then down; an affliction's 1st, 2nd and 3rd degrees; a minion goes down
    on any failure."""
    if degree > 0:
        return "shrugs", 0
    if minion:
        return "down", 2
    if damage:
        return (DAMAGE_RESULTS[degree], 1) if degree in DAMAGE_RESULTS else ("down", 2)
    return AFFLICTION_RESULTS.get(degree, "3rd degree"), 1


def odds_against(ctx: Ctx, actor: str, target: str, atk: Attack,
                 maneuvers: Mapping[str, int], why: str = "") -> FightTarget:
    """Exact odds of an attack on ``target``: to hit, a critical, and each resistance degree;
    its band from ``actor``, and ``why`` it cannot be reached now ("" : it can)."""
    traded = trade_values(ctx, actor, atk, maneuvers)
    dc: int | None = None
    if atk.range in ("close", "ranged"):
        parts, dc, _, _ = attack_parts(ctx, actor, target, atk, maneuvers)
        bonus = sum(v for _, v in parts)
        o = at.attack_odds(bonus, dc, can_crit=not (ctx.minion(actor)
                                                     and not ctx.minion(target)))
        hit, critical = float(o["hit"] + o["critical"]), float(o["critical"])
    else:
        hit, critical = 1.0, 0.0
    rparts, rdc = resist_parts(ctx, target, atk, traded.effect)
    mod = sum(v for _, v in rparts)
    resist, effect = resist_numbers(hit, mod, rdc, atk.effect == "damage", ctx.minion(target))
    aside = neutralised(ctx, target)  # out of it in all but name: worth nothing more
    return FightTarget(id=target, name=ctx.name(target), hit=hit, critical=critical,
                       effect=effect, value=0.0 if aside else effect, defense_class=dc,
                       resist_dc=rdc, resist=resist, neutralised=aside,
                       band=mpos.band(ctx, actor, target), why=why)


@lru_cache(maxsize=8192)
def resist_numbers(hit: float, modifier: int, dc: int, damage: bool, minion: bool
                   ) -> tuple[tuple[ResistDegree, ...], float]:
    """The resistance check's degrees as the options show them (best for the target first)
    and the chance the attack takes effect (it reaches the target with chance ``hit``, and the
    check of d20 + ``modifier`` against ``dc`` fails), from the exact odds; cached by those
    inputs, as the options ask them of every attack on every target at every step."""
    degrees = degree_odds(modifier, dc)
    resist = tuple(ResistDegree(d, float(p), *degree_result(d, damage, minion))
                   for d, p in sorted(degrees.items(), key=lambda kv: -kv[0]))
    fail = sum((p for d, p in degrees.items() if d < 0), Fraction(0))
    return resist, float(Fraction(hit).limit_denominator(1000) * fail)

def damage_state(ctx: Ctx, target: str) -> DamageState:
    conds = {C(c) for c in ctx.state.actors[target].conditions if c in
             {d.value for d in DAMAGE_LASTING}}
    if any(e.what == C.DAZED.value and e.data.get("damage") for e in ctx.effects_on(target)):
        conds.add(C.DAZED)
    return DamageState(-ctx.damage(target), frozenset(conds))

def land(ctx: Ctx, attacker: str, target: str, atk: Attack, rank: int, *,
         dc_bonus: int = 0, finishing_kill: bool = False, critical_note: str = "",
         worst: bool = False, tell: bool = True) -> str:
    """The target resists an attack that reached it, and the result is applied; what it did,
    in a few words ("shrugs it off", "is taken out"). ``worst``: no resistance check, the
    worst degree (a critical's increased effect on a minion, D.3); ``tell``: the result is
    written in the journal here (an area attack writes one line per target itself)."""
    parts, dc = resist_parts(ctx, target, atk, rank)
    base = dc - rank
    dc += dc_bonus
    if worst:
        degree = -4
        ctx.say(target, "critical", f"{ctx.name(target)} (a minion) gets no resistance check"
                f" against {atk.name}: a critical's increased effect gives it the worst result.",
                by="engine")
    else:
        what = f"resists {atk.name}" + (f" ({critical_note})" if critical_note else "")
        degree = ctx.check(target, what, parts, dc, f"{base} + rank {rank}"
                           + (f" + {dc_bonus}" if dc_bonus else "")).degree
    if atk.effect == "damage" and atk.resisted_by == "toughness":
        before = damage_state(ctx, target)
        hit = apply_resistance(before, degree, minion=ctx.minion(target),
                               finishing_kill=finishing_kill)
        after = hit.state
        lasting = [c for c in DAMAGE_LASTING if after.has(c)]
        removed = [c for c in DAMAGE_LASTING if before.has(c) and not after.has(c)]
        if after.has(C.DAZED) and not before.has(C.DAZED):
            ctx.condition_for(attacker, target, C.DAZED, "end_of_next_turn",
                              data={"damage": 1})
        why = _ladder_words(ctx.name(target), hit.applied.value, -after.penalty,
                            ctx.minion(target))
        ctx.change(target, add=lasting, remove=removed, damage=-after.penalty,
                   why=why if tell else "")
        did = why.removeprefix(ctx.name(target)).strip()
        return did.removeprefix("(a minion) ") + (" (a minion)" if ctx.minion(target)
                                                   and did.startswith("(a minion)") else "")
    return _afflicted(ctx, attacker, target, atk, rank, degree, tell)

def _afflicted(ctx: Ctx, attacker: str, target: str, atk: Attack, rank: int, degree: int,
               tell: bool) -> str:
    """An affliction (or the like) that reached the target with the resistance ``degree``:
    its condition by degree of failure (a minion: the worst); what it did, in words."""
    if degree > 0:
        return "shrugs it off"
    ladder = [C(c) for c in atk.conditions] or list(AFFLICTION_DEFAULT)
    failed = 3 if ctx.minion(target) else min(-degree, 3)
    imposed = ladder[failed - 1]
    if failed >= 3:
        words = f"is {imposed.value} by {atk.name} until recovery"
        ctx.change(target, add=[imposed], why=f"{ctx.name(target)} {words}" if tell else "")
        return words
    ctx.condition_for(attacker, target, imposed, "recovery", ongoing=True,
                      data={"dc": resistance_dc(rank), "resist": atk.resisted_by,
                            "attack": atk.name, "degree": failed})
    ctx.change(target, why="")
    words = f"is {imposed.value} by {atk.name} (resists again at the end of each turn)"
    if tell:
        ctx.say(target, "afflicted", f"{ctx.name(target)} {words}.", by="engine")
    return words

def _ladder_words(name: str, applied: str, damage: int, minion: bool) -> str:
    if applied == "none":
        return f"{name} shrugs it off"
    if minion:
        return f"{name} (a minion) is taken out"
    if applied == "penalty":
        return f"{name} is bruised: -{damage} on Toughness checks"
    return f"{name} is {applied}" + (f" (-{damage} on Toughness checks)" if damage else "")

def attack_of(ctx: Ctx, p: Pending) -> Attack:
    atks = ctx.attacks(p.actor)
    if not atks:
        raise IllegalAction(f"{ctx.name(p.actor)} has no attack")
    if p.attack is None:
        return next(iter(atks.values()))
    if p.attack not in atks:
        raise IllegalAction(f"{ctx.name(p.actor)} has no attack {p.attack!r}"
                            f" (has: {', '.join(atks)})")
    return atks[p.attack]

def targets_for_area(ctx: Ctx, p: Pending) -> list[str]:
    """Who a perception effect with no roll reaches: its target, else every foe (an area
    effect asks ``areas.in_area``)."""
    if p.target:
        return [p.target]
    return ctx.foes(p.actor)

def _attack_roll(ctx: Ctx, p: Pending, atk: Attack, target: str,
                 extra: list[tuple[str, int]] | None, label: str
                 ) -> tuple[at.AttackResult, bool, bool]:
    """The attack check on ``target`` (a finishing or routine attack checked as allowed, the
    target's active defence rolled when it defends), its roll emitted; the result, whether it
    was a finishing attack and whether it was routine."""
    actor = p.actor
    parts, dc, dparts, dname = attack_parts(ctx, actor, target, atk, p.maneuvers, p.options)
    parts += situation_parts(atk, p.options)
    parts += extra or []
    defenseless = C.DEFENSELESS in ctx.conditions(target)
    finishing = bool(p.options.get("finishing")) and atk.range == "close"
    if finishing and not defenseless:
        raise IllegalAction("a finishing attack needs a defenseless target")
    routine = bool(p.options.get("routine"))
    if routine and not at.routine_allowed(target_defenseless=defenseless,
                                          target_minion=ctx.minion(target),
                                          attacker_minion=ctx.minion(actor)):
        raise IllegalAction("a routine attack needs a defenseless target, or a minion target"
                            " for a non-minion attacker")
    if finishing and not routine:
        dc = mv.FINISHING_DC
        dparts = [("finishing attack", dc)]
    bonus = sum(v for _, v in parts)
    can_crit = not (ctx.minion(actor) and not ctx.minion(target))
    odds = at.attack_odds(bonus, dc, can_crit=can_crit)
    hit_p = float(odds["hit"] + odds["critical"])
    defend = next((e for e in ctx.effects_on(target) if e.what == "defending"), None)
    if routine:
        result = at.routine_attack(bonus, dc)
        die = Die(10, "routine", ctx.state.dice_position)
    else:
        die = ctx.die(actor, f"{label} on {ctx.name(target)}", odds=f"{hit_p:.0%} to hit")
        if defend is not None:
            active, _ = ctx.defense(target, dname.lower())
            droll = ctx.die(target, "defends", odds="")
            dc = defend_result(droll.face, active)
            dparts = [(f"{ctx.name(target)} defends: d20 {droll.face}"
                       f"{' (+10)' if droll.face <= 10 else ''} + {dname} {active}", dc)]
        result = at.attack(die.face, bonus, dc, can_crit=can_crit)
    ctx.emit(fight_roll(actor, f"{label} on {ctx.name(target)} with {atk.name}", die, parts,
                        result.total, dc, defense_words(dname, dparts), result.outcome,
                        1 if result.hit else -1, odds))
    return result, finishing, routine

def _on_hit(ctx: Ctx, p: Pending, atk: Attack, target: str, rank: int,
            result: at.AttackResult, finishing: bool, routine: bool) -> None:
    """What a hit does: the effect landed (+5 on its DC for a finishing attack or a critical
    that increases it, or, on a minion, no resistance check and the worst result; a
    critical's added effect landed besides), or a minion killed."""
    actor = p.actor
    crit_bonus = 0
    note = ""
    if finishing and not routine:
        crit_bonus, note = mv.FINISHING_CRIT_BONUS, "finishing attack: +5"
    elif result.critical and p.options.get("crit") == at.CritEffect.ADDED.value:
        land(ctx, actor, target, atk, rank)
        added = Attack(name=f"{atk.name}'s added effect", range=at.AttackRange.CLOSE, bonus=0,
                       effect=atk.effect, rank=0, resisted_by=atk.resisted_by,
                       conditions=atk.conditions)
        land(ctx, actor, target, added, 0, critical_note="critical: an added effect")
        return
    elif result.critical:
        crit_bonus, note = at.CRIT_INCREASED_EFFECT, "critical: +5"
    if ctx.minion(target) and not ctx.minion(actor) and p.options.get("kill"):
        ctx.change(target, add=[C.DEAD], why=f"{ctx.name(target)} (a minion) is killed")
        return
    land(ctx, actor, target, atk, rank, dc_bonus=crit_bonus,
         finishing_kill=finishing and bool(p.options.get("kill")), critical_note=note,
         worst=bool(crit_bonus) and ctx.minion(target))

def strike(ctx: Ctx, p: Pending, atk: Attack, *, extra: list[tuple[str, int]] | None = None,
            label: str = "attack", team_rank: int | None = None) -> bool:
    """One attack roll and its consequence on the pending target; whether it hit."""
    actor, target = p.actor, p.target
    traded = trade_values(ctx, actor, atk, p.maneuvers)
    rank = team_rank if team_rank is not None else traded.effect
    if atk.range == "area":  # areas.area_attack resolves it (fight_actions' attack)
        raise IllegalAction(f"{atk.name} is an area effect: it is not a strike on one target")
    if atk.range == "perception":
        for t in targets_for_area(ctx, p):
            land(ctx, actor, t, atk, rank)
        return True
    assert target is not None
    if atk.range == "close":
        mpos.close_in(ctx, actor, target)
    result, finishing, routine = _attack_roll(ctx, p, atk, target, extra, label)
    if not result.hit:
        return False
    _on_hit(ctx, p, atk, target, rank, result, finishing, routine)
    return True

def crit_possible(ctx: Ctx, actor: str, target: str) -> bool:
    """Whether ``actor``'s attack check on ``target`` can be a critical (a minion attacking a
    non-minion cannot, D.3)."""
    return not (ctx.minion(actor) and not ctx.minion(target))

def defense_words(name: str, parts: list[tuple[str, int]]) -> str:
    """A defence class in words: ``10 + Parry 8``, ``10 + Dodge 10 - 5 vulnerable: halved``."""
    if parts and parts[0][0] == name:
        rest = " ".join(f"{'+' if v >= 0 else '-'} {abs(v)} {n}" for n, v in parts[1:])
        return f"10 + {name} {parts[0][1]}" + (f" {rest}" if rest else "")
    return ", ".join(f"{n}" for n, _ in parts) or name

def attack_roll(ctx: Ctx, actor: str, target: str, what: str, atk: Attack,
                extra: Sequence[tuple[str, int]] = ()) -> at.AttackResult:
    """An attack check on ``target`` (its Parry or Dodge by range) with ``extra`` modifiers,
    rolled and explained; a close one moves in on a close target first (``positions``)."""
    if atk.range == "close":
        mpos.close_in(ctx, actor, target)
    parts, dc, dparts, dname = attack_parts(ctx, actor, target, atk, {})
    parts += list(extra)
    bonus = sum(v for _, v in parts)
    can_crit = crit_possible(ctx, actor, target)
    odds = at.attack_odds(bonus, dc, can_crit=can_crit)
    hp = float(odds["hit"] + odds["critical"])
    die = ctx.die(actor, what, odds=f"{hp:.0%} to hit")
    res = at.attack(die.face, bonus, dc, can_crit=can_crit)
    ctx.emit(fight_roll(actor, what, die, parts, res.total, dc, defense_words(dname, dparts),
                        res.outcome, 1 if res.hit else -1, odds))
    return res

def obscurement_option(options: Mapping[str, Any], key: str) -> at.Obscurement:
    """The concealment or cover ``options[key]`` names (none when absent)."""
    value = str(options.get(key) or "none")
    try:
        return at.Obscurement(value)
    except ValueError:
        raise IllegalAction(f"{key} is one of {', '.join(o.value for o in at.Obscurement)},"
                            f" not {value!r}") from None

def situation_parts(atk: Attack, options: Mapping[str, Any]) -> list[tuple[str, int]]:
    """An attack's modifiers from where it is made: range (``distance`` in feet, ranged
    attacks), ``cover`` and ``concealment`` (none, partial, total; complete: no attack)."""
    parts: list[tuple[str, int]] = []
    if options.get("distance") is not None and atk.range == "ranged":
        try:
            feet = float(options["distance"])
        except (TypeError, ValueError):
            raise IllegalAction(f"distance is in feet, not {options['distance']!r}") from None
        pen = at.range_penalty(atk.rank, feet)
        if pen is None:
            raise IllegalAction(f"{atk.name} does not reach {feet:g} ft (long range ends at"
                                f" {atk.rank * at.RANGE_FEET_PER_RANK[at.RangeBand.LONG]} ft)")
        if pen:
            parts.append((f"{at.range_band(atk.rank, feet).value} range", pen))
    for key in ("cover", "concealment"):
        ob = obscurement_option(options, key)
        pen = at.obscurement_penalty(ob)
        if pen is None:
            raise IllegalAction(f"complete {key}: the target cannot be attacked")
        if pen:
            parts.append((f"{ob.value} {key}", pen))
    return parts

def trade_effects(ctx: Ctx, p: Pending, atk: Attack) -> None:
    """Trade maneuvers change Dodge and Parry until the start of the attacker's next turn."""
    block = ctx.block(p.actor)
    traded = trade_values(ctx, p.actor, atk, p.maneuvers)
    for which in ("dodge", "parry"):
        delta = getattr(traded, which) - getattr(block.defenses, which)
        if delta:
            label = "all-out attack" if delta < 0 else "defensive attack"
            ctx.bonus_for(p.actor, p.actor, which, delta, label, "start_of_next_turn")

def spend_aim(ctx: Ctx, actor: str) -> None:
    ctx.drop_effects(lambda e: not (e.target == actor and e.data.get("aim")))


__all__ = ["attack_of", "attack_parts", "attack_roll", "crit_possible", "damage_state",
           "defense_words", "degree_result", "land", "obscurement_option", "odds_against",
           "resist_numbers", "resist_parts", "situation_parts", "spend_aim", "strike",
           "targets_for_area", "trade_effects", "trade_values"]
