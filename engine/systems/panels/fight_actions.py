"""The panels game's fight actions (seed 003): attack, move, catch one's breath, first aid,
flee, surrender and the end of a turn, registered in the game's action table; the rest are
fight_more.py's."""

from __future__ import annotations

from engine.errors import IllegalAction
from engine.rules.encounter import PANEL
from engine.rules.fight.foes import side_of
from engine.rules.fight.state import Pending
from engine.systems.panels import positions as pos
from engine.systems.panels.damage import Health
from engine.systems.panels.step import Ctx, action
from engine.systems.panels.strikes import declared_target, form_of, strike


@action("attack", 1, "foe")
def _attack(ctx: Ctx, p: Pending) -> None:
    form = form_of(ctx, p)
    target = declared_target(ctx, p)
    if form.range == "melee":
        pos.close_in(ctx, p.actor, target)
    ctx.pay(p.actor, 1)
    gang = p.options.get("gang")
    if gang:
        ctx.note("group_targets", {**ctx.fight.data.get("group_targets", {}),
                                   str(gang): target})
    ctx.say(p.actor, "attack", f"{ctx.name(p.actor)} goes at {ctx.name(target)} with"
            f" {form.name}.", target=target, by=p.by)
    strike(ctx, p, form, target)


@action("move", 1)
def _move(ctx: Ctx, p: Pending) -> None:
    ctx.pay(p.actor, 1)
    band = pos.step(ctx, p.actor, p.options, p.target)
    to = str(p.options.get("to") or "")
    ctx.say(p.actor, "move", f"{ctx.name(p.actor)} moves{' ' + to if to else ''}"
            + (f" ({band})" if band and to else f" {band}" if band else "") + ".",
            target=p.target, by=p.by)


@action("catch_breath", 2)
def _catch_breath(ctx: Ctx, p: Pending) -> None:
    if ctx.enc.acted:
        raise IllegalAction(f"{ctx.name(p.actor)} has already acted this turn: catching your"
                            " breath takes two panels doing nothing else")
    ctx.pay(p.actor, 2)
    blk = ctx.block(p.actor)
    sides = 6 if blk.significant else 3
    face = ctx.die(p.actor, "catches their breath: Stun back", sides).face
    before = ctx.health(p.actor)
    after = Health(before.kill, before.stun.heal(face))
    why = (f"{ctx.name(p.actor)} catches their breath: Stun back {face} (d{sides}), now"
           f" {after.stun.current}/{after.stun.maximum}")
    ctx.set_health(p.actor, after, why)


@action("first_aid", 1, "ally")
def _first_aid(ctx: Ctx, p: Pending) -> None:
    target = declared_target(ctx, p)
    h = ctx.health(target)
    if h.kill.current != 0:
        raise IllegalAction(f"{ctx.name(target)} is not dying (Kill {h.kill.current}):"
                            " first aid is for an ally at 0 Kill")
    ctx.pay(p.actor, 1)
    why = f"{ctx.name(p.actor)} gives {ctx.name(target)} first aid: stable at 1 Kill, still" \
          " unconscious"
    ctx.set_health(target, Health(h.kill.heal(1), h.stun), why, stable=True)


@action("flee", 1)
def _flee(ctx: Ctx, p: Pending) -> None:
    ctx.pay(p.actor, 1)
    ctx.conflict.leave(ctx, p, "fled", "breaks away and flees")


@action("surrender", 0)
def _surrender(ctx: Ctx, p: Pending) -> None:
    ctx.conflict.leave(ctx, p, "surrendered", "gives up the fight")


@action("end_turn", 0)
def _end_turn_action(ctx: Ctx, p: Pending) -> None:
    """End the turn; panels left unused are lost (seed 003: no waiting, no saving them)."""
    if p.by == "referee":
        ctx.say(p.actor, "end_turn", p.why or f"{ctx.name(p.actor)} ends the turn.",
                by="referee")
    left = ctx.enc.budget.get(PANEL, 0) if ctx.enc.acting == p.actor else 0
    if left > 0:
        ctx.say(p.actor, "end_turn", f"{ctx.name(p.actor)} leaves {left} panel{'s' * (left != 1)}"
                " unused: lost.", by="engine")
    ctx.conflict.next_turn(ctx)


def dying_allies(ctx: Ctx, actor: str) -> list[str]:
    side = side_of(ctx.state, actor)
    return [p.actor for p in ctx.enc.participants if p.present and p.actor != actor
            and p.actor not in ctx.fight.out and side_of(ctx.state, p.actor) == side
            and ctx.health(p.actor).kill.current == 0]
