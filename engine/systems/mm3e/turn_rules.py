"""Turn rules of M&M fights (seed 004, RULES.md D.6) kept out of the crowded action modules:
stepping back in after a delay, an aim spoilt by any other action, and standing up for free
(Instant Up, or DC 20 Acrobatics).

- **Act now (end delay)** (``step_in``, no cost): a character holding a delayed turn takes it
  now, once the character acting has acted ("at any point after any other character in the
  conflict has acted"). That character's turn ends there (filled in: what it had left is
  lost, as it would be when its turn ends) and the delayed one's initiative moves to just
  after it, for this round and the next (``encounter.step_in``); it gets its normal
  allocation of actions. The player may also pick it from the acting hero's menu, for a hero
  of theirs who waits.
- **Aim** lasts only until the aimer's next action: anything but an attack with an attack
  check (``actions.aim_kept``; a charge or a move spoils it, a free action does not) ends it,
  the vulnerability with it; the attack that uses it ends it too.
- **Recover** (filled in): the extra resistance check against an ongoing condition (an
  affliction) the seed offers instead of removing damage is made when the character has one
  and no damage condition worse than dazed (``options`` ``resist``: true or false to choose).
- **Stand**: a move action; free with no check for a character with Instant Up; or, once a
  turn, free with a DC 20 Acrobatics check (``spring_up``, filled in: a failure leaves the
  character prone, and it may still stand with its move action).
"""

from __future__ import annotations

from dataclasses import replace

from engine.errors import IllegalAction
from engine.odds import whole_percent
from engine.rules import encounter as en
from engine.rules.fight.events import SteppedIn
from engine.rules.fight.state import Pending
from engine.rules.fight.values import FightOption, FightTarget
from engine.systems.mm3e import actions as ac
from engine.systems.mm3e.checks import success_odds
from engine.systems.mm3e.step import ACTIONS, C, Ctx, action
from engine.systems.mm3e.strikes import spend_aim

STEP_IN = "step_in"
"""The action of a character who delayed and now takes its turn."""

SPRING_UP = "spring_up"
"""Standing up as a free action with a DC 20 Acrobatics check."""

SPRUNG = "spring_up_tried"
"""The fight's note of who tried ``spring_up`` on which of its turns ({actor: turn})."""

INSTANT_UP = "Instant Up"
"""The advantage that makes standing free with no check."""

KEEPS_AIM = frozenset({"end_turn", "readied", "counter_trip", "counter_disarm", "release",
                       "drop_item", "drop_prone", SPRING_UP})
"""Steps that are no action of the aimer's own turn, or free ones, which leave an aim be."""


# ------------------------------------------------------------------ acting after a delay

def waiting(ctx: Ctx, actor: str) -> bool:
    """Whether ``actor`` holds a delayed turn."""
    return ctx.enc.has(actor) and ctx.enc.participant(actor).held == "delay"


def step_in_why_not(ctx: Ctx, actor: str) -> str | None:
    """Why ``actor`` cannot take its delayed turn now (None: it can)."""
    enc = ctx.enc
    if not waiting(ctx, actor):
        return f"{ctx.name(actor)} is not delaying"
    if enc.acting is None or enc.acting == actor:
        return "nobody else is acting"
    if not enc.acted:
        return f"after {ctx.name(enc.acting)} has acted"
    return None


def declare_step_in(ctx: Ctx, actor: str, target: str | None) -> Pending:
    """The delayed ``target`` (or ``actor`` itself) steps in: checked, pending."""
    who = target if target is not None and waiting(ctx, target) else actor
    why = step_in_why_not(ctx, who)
    if why is not None:
        raise IllegalAction(f"{ctx.name(who)} cannot act now: {why}")
    return Pending(actor=who, action=STEP_IN)


@action(STEP_IN, "none")
def _step_in(ctx: Ctx, p: Pending) -> None:
    why = step_in_why_not(ctx, p.actor)
    if why is not None:
        raise IllegalAction(f"{ctx.name(p.actor)} cannot act now: {why}")
    after = ctx.enc.acting
    assert after is not None
    adv = en.step_in(ctx.enc, p.actor, ctx.spec)  # IllegalAction before any event
    ctx.say(p.actor, STEP_IN, f"{ctx.name(p.actor)} stops waiting and acts now, right after"
            f" {ctx.name(after)} (their place in the order moves here).")
    ctx.emit(SteppedIn(actor=p.actor))
    ctx.conflict.turn_ended(ctx, adv)
    ctx.conflict.begun(ctx, adv)


def _step_in_option(ctx: Ctx, actor: str, waiters: list[str]) -> FightOption:
    words = ctx.conflict.words()
    name = words[STEP_IN].name if STEP_IN in words else "Act now (end delay)"
    whys = [step_in_why_not(ctx, w) for w in waiters]
    ok = any(w is None for w in whys)
    targets = tuple(FightTarget(id=w, name=ctx.name(w)) for w, why in zip(waiters, whys,
                                                                          strict=True)
                    if why is None)
    return FightOption(action=STEP_IN, name=name, cost="none", allowed=ok,
                       target="none" if waiters == [actor] else "ally", targets=targets,
                       why="" if ok else next(w for w in whys if w is not None))


# ------------------------------------------------------------------ standing up

def instant_up(ctx: Ctx, actor: str) -> bool:
    """Whether ``actor`` has Instant Up."""
    return ctx.block(actor).advantage_rank(INSTANT_UP) > 0


def _acrobatics(ctx: Ctx, actor: str) -> int:
    b = ctx.block(actor)
    return b.skills.get("Acrobatics", b.abilities.agility)


def _tried(ctx: Ctx, actor: str) -> bool:
    return bool(ctx.fight.data.get(SPRUNG, {}).get(actor) == ctx.enc.participant(actor).turns)


def stand_is_free(ctx: Ctx, actor: str) -> bool:
    """Whether standing costs ``actor`` nothing (Instant Up)."""
    return C.PRONE.value in ctx.state.actors[actor].conditions and instant_up(ctx, actor)


@action(SPRING_UP, "free")
def _spring_up(ctx: Ctx, p: Pending) -> None:
    if C.PRONE.value not in ctx.state.actors[p.actor].conditions:
        raise IllegalAction(f"{ctx.name(p.actor)} is not prone")
    if _tried(ctx, p.actor):
        raise IllegalAction(f"{ctx.name(p.actor)} has tried to spring up this turn: stand"
                            " with a move action")
    ctx.note(SPRUNG, {**ctx.fight.data.get(SPRUNG, {}),
                      p.actor: ctx.enc.participant(p.actor).turns})
    res = ctx.check(p.actor, "springs to their feet", [("Acrobatics", _acrobatics(ctx, p.actor))],
                    ac.STAND_ACROBATICS_DC, f"DC {ac.STAND_ACROBATICS_DC}")
    if res.success:
        ctx.change(p.actor, remove=[C.PRONE], why=f"{ctx.name(p.actor)} springs up (free"
                   " action)")
    else:
        ctx.say(p.actor, SPRING_UP, f"{ctx.name(p.actor)} stays down (standing still takes a"
                " move action).", by="engine")


def stand(ctx: Ctx, p: Pending) -> None:
    """Stand: free with Instant Up, else a move action."""
    if C.PRONE.value not in ctx.state.actors[p.actor].conditions:
        raise IllegalAction(f"{ctx.name(p.actor)} is not prone")
    if instant_up(ctx, p.actor):
        ctx.change(p.actor, remove=[C.PRONE], why=f"{ctx.name(p.actor)} is up at once"
                   " (Instant Up, free)")
        return
    ctx.spend(p.actor, "move")
    ctx.change(p.actor, remove=[C.PRONE], why=f"{ctx.name(p.actor)} gets up")


def _stand_options(ctx: Ctx, actor: str, o: FightOption) -> list[FightOption]:
    """The stand option as the rules make it: free with Instant Up; with the Acrobatics
    try beside it, with its odds."""
    mine = ctx.enc.acting == actor
    if instant_up(ctx, actor):
        return [replace(o, cost="free", allowed=mine, why="" if mine else o.why,
                        check=INSTANT_UP)]
    bonus = _acrobatics(ctx, actor)
    odds = success_odds(bonus, ac.STAND_ACROBATICS_DC)
    tried = _tried(ctx, actor)
    words = ctx.conflict.words()
    name = words[SPRING_UP].name if SPRING_UP in words else "Spring up"
    why = "" if mine and not tried else (
        "tried this turn: stand with a move action" if tried else o.why)
    spring = FightOption(action=SPRING_UP, name=f"{name} ({whole_percent(odds)})",
                         cost="free", allowed=mine and not tried, why=why, odds=float(odds),
                         check=f"Acrobatics {bonus:+d} vs DC {ac.STAND_ACROBATICS_DC}")
    return [o, spring]


# ------------------------------------------------------------------ aim

def spoils_aim(action_id: str) -> bool:
    """Whether taking ``action_id`` ends its actor's aim before it runs."""
    if action_id in KEEPS_AIM:
        return False
    try:
        kind = ac.Action(action_id)
    except ValueError:
        return True
    return not ac.aim_kept(kind)


def before_action(ctx: Ctx, rule_id: str, p: Pending) -> None:
    """What an action does before it runs: an action other than an attack spoils an aim
    (on the aimer's own turn)."""
    aiming = any(e.data.get("aim") for e in ctx.effects_on(p.actor))
    free = rule_id == "stand" and instant_up(ctx, p.actor)
    if aiming and ctx.enc.acting == p.actor and spoils_aim(rule_id) and not free:
        spend_aim(ctx, p.actor)
        ctx.say(p.actor, "aim", f"{ctx.name(p.actor)} loses their aim (the next action was"
                " not the attack).", by="engine")


def after_action(ctx: Ctx, rule_id: str, p: Pending) -> None:
    """What an action does after it ran: an attack check spends the aim."""
    try:
        kind = ac.Action(rule_id)
    except ValueError:
        return
    if ac.ACTIONS[kind].attack_check and ctx.enc.has(p.actor):
        spend_aim(ctx, p.actor)


# ------------------------------------------------------------------ ongoing effects

def ongoing(ctx: Ctx, actor: str) -> list[en.Effect]:
    """The ongoing conditions on ``actor`` it resists at the end of its turns (afflictions)."""
    return [e for e in ctx.effects_on(actor) if e.ongoing
            and e.data.get("kind") == "condition"]


def resist(ctx: Ctx, eff: en.Effect, say: bool = True) -> bool:
    """A resistance check against an ongoing condition (10 + its rank, with the defence it
    names); a success ends it (said, with ``say``). Whether it ended."""
    which = str(eff.data.get("resist", "will"))
    block = ctx.block(eff.target)
    rank = getattr(block.defenses, which, 0) if which in (
        "toughness", "fortitude", "will", "dodge") else 0
    dc = int(eff.data.get("dc", 10))
    res = ctx.check(eff.target, f"shakes off {eff.what}", [(which.title(), rank)], dc,
                    f"10 + rank {dc - 10}")
    if res.success:
        ctx.end_effects([eff])
    if res.success and say:
        ctx.say(eff.target, "shake_off", f"{ctx.name(eff.target)} is no longer {eff.what}.",
                by="engine")
    return res.success


# ------------------------------------------------------------------ the options

def adjust_options(ctx: Ctx, actor: str, out: list[FightOption]) -> list[FightOption]:
    """Stand as the rules make it, Spring up beside it, and Act now for a character waiting
    on a delay (its own menu, or the acting hero's for the heroes of the same player)."""
    result: list[FightOption] = []
    for o in out:
        if o.action == SPRING_UP or o.action == STEP_IN:
            continue
        result += _stand_options(ctx, actor, o) if o.action == "stand" else [o]
    if waiting(ctx, actor):
        result.append(_step_in_option(ctx, actor, [actor]))
    elif ctx.enc.acting == actor:
        control = ctx.fight.controller
        me = control(ctx.state.actors[actor])
        waiters = [p.actor for p in ctx.enc.participants if p.present and p.held == "delay"
                   and p.actor != actor and control(ctx.state.actors[p.actor]) == me]
        if waiters:
            result.append(_step_in_option(ctx, actor, waiters))
    return result


assert STEP_IN in ACTIONS and SPRING_UP in ACTIONS

__all__ = ["SPRING_UP", "STEP_IN", "adjust_options", "after_action", "before_action",
           "declare_step_in", "instant_up", "ongoing", "resist", "spoils_aim", "stand",
           "stand_is_free", "step_in_why_not", "waiting"]
