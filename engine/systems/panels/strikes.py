"""Panels attacks: the attack forms in hand, the check and its bands, the crit tables, the
defender's response (take it, dodge, parry: with exact odds, paid from future panels), damage
to Kill and Stun; and the fight as the referee sees it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache

from engine.errors import IllegalAction
from engine.rules import encounter as en
from engine.rules.fight.foes import side_of
from engine.rules.fight.state import Pending
from engine.rules.fight.values import FightChoice, FightTarget
from engine.systems.panels import crits
from engine.systems.panels import referee as rf
from engine.systems.panels.checks import Band, odds
from engine.systems.panels.damage import (
    AttackForm,
    Damage,
    DamageDice,
    Status,
    damage_dice,
    die_sides,
    dist_key,
    down_odds,
    mean_damage,
)
from engine.systems.panels.responses import (
    apply_dodge,
    can_respond,
    eligible,
    expected_after_dodge,
    expected_after_parry,
    expected_total,
    parry_dice,
    parry_with_of,
    resolve_parry,
    response_cost,
)
from engine.systems.panels.step import ACTIONS, Ctx, block_id, form_id


def jammed_forms(ctx: Ctx, actor: str) -> set[str]:
    return {str(e.data.get("form")) for e in ctx.has_effect(actor, "jammed")}


def form_of(ctx: Ctx, p: Pending) -> AttackForm:
    forms = ctx.forms(p.actor)
    key = p.attack or next(iter(forms))
    if key not in forms:
        key = block_id(key)
    if key not in forms:
        raise IllegalAction(f"{ctx.name(p.actor)} has no attack {p.attack!r}"
                            f" (attacks: {', '.join(forms)})")
    if key in jammed_forms(ctx, p.actor):
        raise IllegalAction(f"{forms[key].name} is jammed until the round ends")
    return forms[key]


def dice_for(ctx: Ctx, attacker: str, form: AttackForm, band: Band) -> DamageDice:
    blk = ctx.block(attacker)
    return damage_dice(form, blk.significant, band, blk.characteristics.strength)


def roll_damage(ctx: Ctx, who: str, dice: DamageDice, what: str) -> tuple[Damage, str]:
    kill = [ctx.die(who, f"{what}: Kill die", dice.sides).face for _ in range(dice.kill_dice)]
    stun = [ctx.die(who, f"{what}: Stun die", dice.sides).face for _ in range(dice.stun_dice)]
    dmg = dice.totals(kill, stun)
    words = (f"Kill {dice.kill_notation} {kill} = {dmg.kill},"
             f" Stun {dice.stun_notation} {stun} = {dmg.stun}")
    return dmg, words


def take(ctx: Ctx, target: str, dmg: Damage, source: str) -> None:
    """Damage to ``target``'s tracks, said in words (``TracksSet``'s journal line)."""
    if dmg.total == 0:
        ctx.say(target, "damage", f"{ctx.name(target)} takes no damage from {source}.")
        return
    before = ctx.health(target)
    after = before.take(dmg)
    status = after.status
    tail = {Status.FINE: "", Status.STUNNED: " and is stunned (-5 on every roll)",
            Status.UNCONSCIOUS: " and is knocked out (0 Stun)",
            Status.DYING: " and is dying (0 Kill)"}[status]
    why = (f"{ctx.name(target)} takes Kill {dmg.kill}, Stun {dmg.stun} from {source}"
           f" (Kill {after.kill.current}/{after.kill.maximum},"
           f" Stun {after.stun.current}/{after.stun.maximum}){tail}")
    ctx.set_health(target, after, why)


@dataclass(frozen=True, slots=True)
class ResponseOption:
    """One answer to a hit: its id, label, exact detail and the distribution of damage left."""

    id: str
    label: str
    detail: str
    expected: Fraction
    """The damage expected to get through."""
    odds: Fraction | None = None
    """The chance the response works (a complete dodge or any successful parry)."""
    avoided: Fraction = Fraction(0)
    """The damage it is expected to save, against taking the hit."""
    cost: int = 0
    """Future panels it costs."""
    how: str = ""
    """How it works with its odds, in a few words (a menu's)."""
    cost_words: str = ""
    """What it costs, in words ("" : taking the hit costs nothing)."""

    def as_choice(self) -> FightChoice:
        """The option as the fight asks it: id, label and detail, with the numbers and the
        short words."""
        return FightChoice(id=self.id, label=self.label, detail=self.detail, how=self.how,
                           cost_words=self.cost_words, cost=self.cost,
                           odds=float(self.odds) if self.odds is not None else None,
                           expected=float(self.expected), avoided=float(self.avoided),
                           incoming=float(self.expected + self.avoided))


def pct(x: Fraction) -> str:
    return f"{float(x):.0%}"


def response_options(ctx: Ctx, attacker: str, defender: str, form: AttackForm,
                     dist: dict[Damage, Fraction]) -> list[ResponseOption]:
    """None, dodge, and a parry with each eligible form: each with its exact odds and the
    damage it is expected to avoid."""
    blk = ctx.block(defender)
    stunned = ctx.stunned(defender)
    cost = response_cost(ctx.block(attacker).significant)
    paid = "free" if cost == 0 else f"costs {cost} future panel"
    key = dist_key(dist)  # each expectation below is computed once per distinct input
    whole = expected_total(key)
    out = [ResponseOption("none", "Take it", f"expected damage {float(whole):.1f}", whole)]
    agi = blk.agility_modifier
    band = odds(agi, stunned)
    left = expected_after_dodge(key, agi, stunned)
    how = f"18+ avoids it all ({pct(band.complete)}), 15-17 halves it ({pct(band.minor)})"
    out.append(ResponseOption(
        "dodge", "Dodge", f"{how}; expected damage avoided {float(whole - left):.1f} of"
        f" {float(whole):.1f}; {paid}", left, band.success, whole - left, cost, how, paid))
    dex = blk.dexterity_modifier
    pband = odds(dex, stunned)
    for f in ctx.forms(defender).values():
        ok, _ = eligible(parry_with_of(f), form.delivery, blk.stops_bullets)
        if not ok:
            continue
        left = expected_after_parry(key, dex, f, blk.significant,
                                    blk.characteristics.strength, form.delivery, stunned)
        out.append(ResponseOption(
            f"parry:{form_id(f)}", f"Parry with {f.name}",
            f"15+ parries ({pct(pband.success)}), its damage off Kill first then Stun;"
            f" expected damage avoided {float(whole - left):.1f} of {float(whole):.1f}; {paid}",
            left, pband.success, whole - left, cost,
            f"15+ parries ({pct(pband.success)}), its damage off Kill, then Stun", paid))
    return out


def fighter(ctx: Ctx, actor: str) -> rf.Fighter:
    """A character as the referee sees it (its jammed forms left out; held, it cannot flee),
    made in one go (``rf.fighter_from``'s fields, then the fight's)."""
    blk = ctx.block(actor)
    p = ctx.enc.participant(actor)
    group = ctx.state.actors[actor].data.get("group")
    h = ctx.health(actor)
    ch = blk.characteristics
    jammed = jammed_forms(ctx, actor)
    holder = ctx.holder_of(actor)
    return rf.Fighter(
        actor, ctx.name(actor), side_of(ctx.state, actor), blk.significant, h.kill.current,
        h.kill.maximum, h.stun.current, h.stun.maximum, ch.agility, ch.dexterity, ch.strength,
        tuple(a for fid, a in ctx.forms(actor).items() if fid not in jammed),
        min(p.arrears, en.ARREARS_LIMIT), ctx.out(actor), str(group) if group else None, None,
        blk.stops_bullets, can_flee=holder is None, held_by=holder, prone=ctx.prone(actor))


def situation(ctx: Ctx, actor: str) -> rf.Situation:
    """The fight as the referee sees it on ``actor``'s turn (each foe with its band)."""
    side = side_of(ctx.state, actor)
    others = [p.actor for p in ctx.ranked() if p.actor != actor and p.present]
    enc = ctx.enc
    left = enc.budget.get(en.PANEL, 0) if enc.acting == actor else 0
    costs = {rule.id: int(rule.cost) for rule in ACTIONS.rules()}
    if enc.acted:  # catching one's breath is a turn's first action only
        costs["catch_breath"] = left + 1
    group = ctx.state.actors[actor].data.get("group")
    kept = ctx.fight.data.get("group_targets", {}).get(str(group)) if group else None
    return rf.Situation(
        me=fighter(ctx, actor),
        allies=tuple(fighter(ctx, a) for a in others if side_of(ctx.state, a) == side),
        foes=tuple(replace(fighter(ctx, a), band=ctx.fight.positions.band(actor, a))
                   for a in others if side_of(ctx.state, a) != side),
        round=enc.round, panels_left=left,
        simultaneous=bool(enc.sides and enc.sides.simultaneous),
        group_target=kept if isinstance(kept, str) else None, costs=costs)


def referee_response(ctx: Ctx, attacker: str, defender: str, form: AttackForm, band: Band,
                     dist: dict[Damage, Fraction]) -> tuple[str, str]:
    """The referee's answer to a hit (option id, why), from referee.respond."""
    choice = rf.respond(fighter(ctx, defender), fighter(ctx, attacker), form, band, dist)
    if choice.action == "parry" and choice.form:
        return f"parry:{block_id(choice.form)}", choice.why
    return choice.action, choice.why


def respond(ctx: Ctx, attacker: str, defender: str, form: AttackForm, band: Band,
             dist: dict[Damage, Fraction], dmg_later: Callable[[], tuple[Damage, str]],
             no_response: str, total: int | None = None) -> None:
    """The defender's response (asked before the damage is rolled, after the hit: the
    question says the attack's ``total`` and how well it hit), then the damage."""
    choice = "none"
    significant = ctx.block(attacker).significant
    arrears = ctx.enc.participant(defender).arrears
    ok, reason = can_respond(arrears, significant)
    if no_response:
        ctx.say(defender, "response", f"{ctx.name(defender)} cannot dodge or parry:"
                f" {no_response}.")
    elif not ok:
        ctx.say(defender, "response", f"{ctx.name(defender)} cannot dodge or parry: {reason}.")
    else:
        opts = response_options(ctx, attacker, defender, form, dist)
        default, why = referee_response(ctx, attacker, defender, form, band, dist)
        if default not in {o.id for o in opts}:
            default = "none"
        # the hit first (a narrow panel clips the end of the line)
        hit = f"Hit {total} ({band.value})" if total is not None else f"A {band.value} hit"
        choice = ctx.ask(defender, f"{hit}: respond to {ctx.name(attacker)}'s {form.name}?",
                         [o.as_choice() for o in opts],
                         default, about="response")
        if ctx.fight.controller(ctx.state.actors[defender]) == "referee":
            ctx.say(defender, "response", f"▸ {why}.", by="referee")
        if choice != "none":
            cost = response_cost(significant)
            ctx.spend(defender, "response", cost)
            owed = ctx.enc.participant(defender).arrears
            if cost:
                ctx.say(defender, "response", f"{ctx.name(defender)} spends a future panel"
                        f" (owes {owed}).")
    blk = ctx.block(defender)
    if choice == "dodge":
        res = ctx.check(defender, f"dodges {ctx.name(attacker)}'s {form.name}", "Agility",
                        blk.characteristics.agility)
        dmg, words = dmg_later()
        taken = apply_dodge(dmg, res.band)
        note = {Band.COMPLETE: "dodged clean", Band.MINOR: "half taken",
                Band.FAILURE: "the dodge fails"}[res.band]
        ctx.say(attacker, "damage", f"Damage {words}; {note}.")
    elif choice.startswith("parry:"):
        forms = ctx.forms(defender)
        pform = forms[choice.split(":", 1)[1]]
        res = ctx.check(defender, f"parries {ctx.name(attacker)}'s {form.name} with"
                        f" {pform.name}", "Dexterity", blk.characteristics.dexterity)
        dmg, words = dmg_later()
        parry: Damage | None = None
        if res.success:
            pdice = parry_dice(pform, blk.significant, res.band, blk.characteristics.strength)
            parry, pwords = roll_damage(ctx, defender, pdice, f"parry with {pform.name}")
            ctx.say(defender, "parry", f"Parry damage {pwords}.")
        outcome = resolve_parry(res, dmg, parry, form.delivery)
        taken = outcome.taken
        ctx.say(attacker, "damage", f"Damage {words}; {outcome.result}.")
    else:
        taken, words = dmg_later()
        ctx.say(attacker, "damage", f"Damage {words}.")
    take(ctx, defender, taken, f"{ctx.name(attacker)}'s {form.name}")


def crit_hit(ctx: Ctx, attacker: str, target: str) -> crits.CritEntry:
    opts = [FightChoice(id="roll", label="Roll the d6", detail="let the dice say")] + [
        FightChoice(id=str(e.face), label=e.name, detail=e.text) for e in crits.CRITICAL_HIT]
    pick = ctx.ask(attacker, f"Critical hit on {ctx.name(target)}: which effect?", opts,
                   "roll", about="critical")
    if pick == "roll":
        entry = crits.roll(crits.Table.HIT, ctx.die(attacker, "critical hit", 6).face)
    else:
        entry = crits.choose(crits.Table.HIT, pick)
    ctx.say(attacker, "critical", f"Critical hit! {entry.why}.")
    return entry


def strike(ctx: Ctx, p: Pending, form: AttackForm, target: str) -> None:
    blk = ctx.block(p.actor)
    res = ctx.check(p.actor, f"attacks {ctx.name(target)} with {form.name}", "Dexterity",
                    blk.characteristics.dexterity, ctx.hit_modifiers(p.actor, form, target))
    if res.critical_failure:
        crit_miss(ctx, p, form)
        return
    if not res.success:
        ctx.say(p.actor, "miss", f"{ctx.name(p.actor)} misses {ctx.name(target)}.")
        return
    entry = crit_hit(ctx, p.actor, target) if res.critical_success else None
    effect = entry.effect if entry else None
    dice = dice_for(ctx, p.actor, form, res.band)
    if effect is crits.Effect.EXTRA_DIE:
        dice = dice.with_extra_dice(entry.amount if entry else 1)
    if effect is crits.Effect.TARGET_LOSES_PANEL:
        ctx.owe(target)
    elif effect is crits.Effect.TARGET_DISARMED:
        ctx.disarm(target)
    if effect is crits.Effect.ATTACKER_GAINS_PANEL:
        if ctx.enc.participant(p.actor).arrears:
            ctx.owe(p.actor, -1)
        elif ctx.enc.acting == p.actor:
            ctx.grant(p.actor, en.PANEL)
    if effect is crits.Effect.MAX_DAMAGE:
        top = dice.maximum()
        dist = {top: Fraction(1)}

        def later() -> tuple[Damage, str]:
            return top, f"at its highest: Kill {top.kill}, Stun {top.stun}"
    else:
        dist = dice.distribution()

        def later() -> tuple[Damage, str]:
            return roll_damage(ctx, p.actor, dice, f"{form.name} on {ctx.name(target)}")
    no_resp = ""
    if effect is crits.Effect.TARGET_NO_RESPONSE:
        no_resp = "off balance from the critical hit"
    elif ctx.has_effect(target, "wide open"):
        no_resp = "wide open until the round ends"
    ctx.say(p.actor, "hit", f"{ctx.name(p.actor)} hits {ctx.name(target)} with {form.name}"
            f" ({res.band.value}).")
    respond(ctx, p.actor, target, form, res.band, dist, later, no_resp, res.total)


def crit_miss(ctx: Ctx, p: Pending, form: AttackForm) -> None:
    entry = crits.roll(crits.Table.MISS, ctx.die(p.actor, "critical miss", 6).face)
    ctx.say(p.actor, "critical", f"Critical miss! {entry.why}.")
    eff = entry.effect
    if eff is crits.Effect.ATTACKER_LOSES_PANEL:
        ctx.owe(p.actor)
    elif eff is crits.Effect.ATTACKER_DISARMED:
        ctx.disarm(p.actor, form)
    elif eff is crits.Effect.ATTACKER_NO_RESPONSE:
        ctx.add_effect(p.actor, p.actor, "wide open", "round_start", rounds=1)
    elif eff is crits.Effect.FORM_JAMMED:
        ctx.add_effect(p.actor, p.actor, "jammed", "round_start", rounds=1,
                       data={"form": form_id(form)})
    elif eff is crits.Effect.ATTACKER_STUN_DIE:
        sides = die_sides(ctx.block(p.actor).significant, Band.MINOR)
        face = ctx.die(p.actor, "wrenched: Stun die", sides).face
        take(ctx, p.actor, Damage(0, face), "a wrenched limb")
    elif eff is crits.Effect.HITS_ALLY:
        allies = ctx.allies(p.actor)
        if not allies:
            ctx.say(p.actor, "critical", "No ally is in reach: nothing else happens.")
            return
        ally = allies[0]
        dmg, words = roll_damage(ctx, p.actor, dice_for(ctx, p.actor, form, Band.MINOR),
                                  f"{form.name} on {ctx.name(ally)}")
        ctx.say(p.actor, "damage", f"Damage {words}.")
        take(ctx, ally, dmg, f"{ctx.name(p.actor)}'s stray {form.name}")


def declared_target(ctx: Ctx, p: Pending) -> str:
    assert p.target is not None
    return p.target


def attack_odds(ctx: Ctx, actor: str, form: AttackForm, target: str, why: str = ""
                ) -> FightTarget:
    """Exact odds of an attack: the bands, the expected damage, the chance the foe goes down
    (before any response); the numbers computed once per distinct input (``attack_numbers``);
    the target's band (positions) and ``why`` it cannot be reached now ("" : it can)."""
    blk = ctx.block(actor)
    extra = sum(m for _, m in ctx.hit_modifiers(actor, form, target))
    health = ctx.health(target)
    strength = blk.characteristics.strength
    hit, minor, complete, expected, down = attack_numbers(
        blk.dexterity_modifier + extra, ctx.stunned(actor),
        damage_dice(form, blk.significant, Band.MINOR, strength),
        damage_dice(form, blk.significant, Band.COMPLETE, strength),
        health.kill.current, health.stun.current)
    return FightTarget(id=target, name=ctx.name(target), hit=hit, minor=minor,
                       complete=complete, critical=1 / 20, expected_damage=expected, down=down,
                       effect=hit, value=down, band=ctx.fight.positions.band(actor, target),
                       why=why)


@lru_cache(maxsize=16384)
def attack_numbers(modifier: int, stunned: bool, minor: DamageDice, complete: DamageDice,
                   kill: int, stun: int) -> tuple[float, float, float, float, float]:
    """An attack's odds as the options show them: the chance to hit, of a minor and of a
    complete hit, the expected damage (to 2 places) and the chance the target (``kill`` Kill
    and ``stun`` Stun left) goes down, from the exact Fractions (d20 + ``modifier``, the
    ``minor`` and ``complete`` hits' dice); cached by those inputs."""
    band = odds(modifier, stunned)
    exp = Fraction(0)
    down = Fraction(0)
    for dice, pb in ((minor, band.minor), (complete, band.complete)):
        if not pb:
            continue
        exp += pb * sum(mean_damage(dice), Fraction(0))
        down += pb * down_odds(kill, stun, dice)
    return (float(band.success), float(band.minor), float(band.complete),
            round(float(exp), 2), float(down))


__all__ = ["ResponseOption", "attack_numbers", "attack_odds", "crit_hit", "crit_miss",
           "declared_target", "dice_for", "fighter", "form_of", "jammed_forms",
           "referee_response", "respond", "response_options", "roll_damage", "situation",
           "strike", "take"]
