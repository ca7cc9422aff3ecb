"""The rest of the panels game's fight actions (content/panels/actions.yaml): grab and break
free, using a power that is not an attack, picking up and dropping things, hitting the deck
and standing up.

Actions registered in the game's table (``step.ACTIONS``); what the situation refuses
(``refusal``), how it changes the options and the tracker, and ``run_action``, which the panels
conflict runs every action through. Every action is a step of the fight engine: seeded or
entered dice, journaled with its reasons, undoable. Where the state lives: ``step.py``.

What a character holds: the attack forms of its stat block's ``attacks`` that are not fists
(its weapons; a power's attack is part of it and is never dropped), and at most one object it
picked up (``holding``), used as a melee, non-lethal object form (it may parry, C.4 rule 7).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engine.errors import IllegalAction
from engine.rules.fight.actions import ActionRule
from engine.rules.fight.state import Pending
from engine.rules.fight.values import (
    FightOption,
    FightTarget,
    NamedChoice,
    PanelColumns,
    TrackerRow,
)
from engine.systems.panels import positions as pos
from engine.systems.panels.checks import Band, odds, skill_modifier
from engine.systems.panels.damage import AttackForm
from engine.systems.panels.statblock import Power
from engine.systems.panels.step import PRONE_PENALTY, Ctx, action, block_id

FILLED_IN = (
    "Grab: one panel, d20 + Dexterity (the attack's situational modifiers too); any hit band"
    " holds, a natural 1 only misses (the crit tables are for attacks), a grab does no damage"
    " and allows no dodge or parry. A held character cannot move, flee or grab, and may attack"
    " only its holder; a character already held cannot be grabbed by another. A holder holds"
    " one character: it lets go when it grabs someone else, moves, flees, or is out of the"
    " fight. Break free: one panel, d20 + the better of the Strength and Agility modifiers, 15+"
    " (stunned -5). Using a power that is not an attack: one panel, d20 + the modifier of the"
    " characteristic the power names (Wits by default), 15-17 it works, 18+ it works well, 14-"
    " it fails; an attack power is used with attack. What a character holds: its stat block's"
    " weapons (attacks that are not fists; a power's attack is never dropped) and at most one"
    " picked-up object, a melee, non-lethal object form with modifier +0 that may parry."
    " Dropping costs nothing; picking up one's own dropped weapon, or any object, costs one"
    " panel (a new object replaces the one held). A critical hit's Disarmed drops the target's"
    " picked-up object, else its first weapon still held; a critical miss's Fumble drops the"
    " weapon used (not a fist or a power); with nothing to drop, either loses the next panel."
    " Hitting the deck costs nothing and standing up one panel. Prone: the character's melee"
    " attacks and grabs are at -5 to hit, missile attacks at it are at -5 to hit, and it"
    " cannot move or flee until it stands. The referee stands up first when prone and breaks"
    " free before anything but fleeing or surrender when held (and then attacks only its"
    " holder); it never grabs, uses powers or picks things up."
)
"""The rules of this module that the seed leaves out, filled in."""


ESCAPE_TARGET = 15
"""Break free: d20 + the better of Strength and Agility, this or more."""


ACTIONS = ("grab", "escape", "use_power", "pick_up", "drop_item", "drop_prone", "stand")
"""The actions this module adds."""


_GRAB_FORM = AttackForm(name="grab", fist=True)
"""A grab is a melee reach, for the situational to-hit modifiers."""


OBJECT_TO_HAND = "something to hand"
"""What the app offers to pick up besides dropped weapons: an object of that name."""


def refusal(ctx: Ctx, actor: str, action_id: str, target: str | None = None,
            options: dict[str, Any] | None = None) -> str | None:
    """Why ``actor`` cannot take ``action_id`` (at ``target``) now, or None. Checks only the
    situation this module keeps (held, prone, items, powers); the panels are fight's."""
    opts = options or {}
    holder = ctx.holder_of(actor)
    lying = ctx.prone(actor)
    if action_id in ("move", "flee"):
        if holder is not None:
            return f"held by {ctx.name(holder)}: break free first"
        if lying:
            return "prone: stand up first"
    if action_id == "attack" and holder is not None and target not in (None, holder):
        return f"held by {ctx.name(holder)}: can attack only {ctx.name(holder)}"
    if action_id == "grab":
        if holder is not None:
            return f"held by {ctx.name(holder)}: break free first"
        if target is not None:
            by = ctx.holder_of(target)
            if by == actor:
                return f"already holding {ctx.name(target)}"
            if by is not None:
                return f"{ctx.name(target)} is already held by {ctx.name(by)}"
    if action_id == "escape" and holder is None:
        return "not held by anyone"
    if action_id == "stand" and not lying:
        return "not prone"
    if action_id == "drop_prone" and lying:
        return "already prone"
    if action_id == "use_power" and not ctx.usable_powers(actor):
        return "no power that is not an attack"
    if action_id == "drop_item":
        if not ctx.held_things(actor):
            return "holds nothing to drop"
        item = opts.get("item")
        if item is not None and block_id(str(item)) not in ctx.held_things(actor):
            return (f"does not hold {item!r} (holds: "
                    f"{', '.join(ctx.held_things(actor).values())})")
    if action_id == "pick_up":
        item = opts.get("item")
        if item is None and len(ctx.dropped(actor)) != 1:
            gone = ", ".join(ctx.dropped(actor).values())
            return ("pick up what? (options item: " + (gone or "any object by name") + ")")
        if item is not None and block_id(str(item)) in ctx.held_things(actor):
            return f"already holds {item}"
    return None


def _check_allowed(ctx: Ctx, p: Pending) -> None:
    why = refusal(ctx, p.actor, p.action, p.target, p.options)
    if why:
        raise IllegalAction(f"{ctx.name(p.actor)} cannot {p.action.replace('_', ' ')}: {why}")


def check_declared(ctx: Ctx, p: Pending) -> None:
    """Refuse a declared action the situation forbids (held, prone, items, powers)."""
    _check_allowed(ctx, p)
    if p.action == "use_power":
        _power_of(ctx, p)


def _grab_target(ctx: Ctx, p: Pending) -> str:
    if p.target is None:
        raise IllegalAction("grab: whom?")
    return p.target


@action("grab", 1, "foe")
def _grab(ctx: Ctx, p: Pending) -> None:
    target = _grab_target(ctx, p)
    pos.close_in(ctx, p.actor, target)
    ctx.pay(p.actor, 1)
    ctx.let_go(p.actor, f"it reaches for {ctx.name(target)} instead")
    ctx.say(p.actor, "grab", f"{ctx.name(p.actor)} tries to grab {ctx.name(target)}.",
            target=target, by=p.by)
    blk = ctx.block(p.actor)
    res = ctx.check(p.actor, f"grabs {ctx.name(target)}", "Dexterity",
                    blk.characteristics.dexterity,
                    ctx.hit_modifiers(p.actor, _GRAB_FORM, target))
    if not res.success:
        ctx.say(p.actor, "miss", f"{ctx.name(target)} slips the grab.")
        return
    ctx.set_holds(target, p.actor)
    ctx.say(p.actor, "grab", f"{ctx.name(p.actor)} holds {ctx.name(target)}: it cannot move,"
            f" and can attack only {ctx.name(p.actor)} until it breaks free.", target=target)


def escape_characteristic(ctx: Ctx, actor: str) -> tuple[str, int]:
    """The better of Strength and Agility (Strength on a tie), with its label."""
    ch = ctx.block(actor).characteristics
    return ("Strength", ch.strength) if skill_modifier(ch.strength) >= skill_modifier(
        ch.agility) else ("Agility", ch.agility)


@action("escape", 1)
def _escape(ctx: Ctx, p: Pending) -> None:
    holder = ctx.holder_of(p.actor)
    if holder is None:
        raise IllegalAction(f"{ctx.name(p.actor)} is not held by anyone")
    ctx.pay(p.actor, 1)
    label, value = escape_characteristic(ctx, p.actor)
    res = ctx.check(p.actor, f"breaks free of {ctx.name(holder)}", label, value)
    if res.success:
        ctx.set_holds(p.actor, None)
        ctx.say(p.actor, "escape", f"{ctx.name(p.actor)} breaks free of {ctx.name(holder)}.",
                target=holder, by=p.by)
    else:
        ctx.say(p.actor, "escape", f"{ctx.name(holder)} keeps hold of {ctx.name(p.actor)}.",
                target=holder, by=p.by)


def _power_of(ctx: Ctx, p: Pending) -> Power:
    blk = ctx.block(p.actor)
    powers = ctx.usable_powers(p.actor)
    name = p.options.get("power")
    if name is None:
        if len(powers) != 1:
            raise IllegalAction(f"use power: which? (options power: "
                                f"{', '.join(x.name for x in powers.values()) or 'none'})")
        return next(iter(powers.values()))
    key = block_id(str(name))
    found = powers.get(key)
    if found is None:
        other = next((x for x in blk.powers if block_id(x.name) == key), None)
        if other is not None:
            raise IllegalAction(f"{other.name} is an attack: use attack with it")
        raise IllegalAction(f"{blk.name} has no power {name!r} (powers that are not attacks:"
                            f" {', '.join(x.name for x in powers.values()) or 'none'})")
    blk.power_check(found)
    return found


@action("use_power", 1)
def _use_power(ctx: Ctx, p: Pending) -> None:
    power = _power_of(ctx, p)
    blk = ctx.block(p.actor)
    key, value = blk.power_check(power)
    ctx.pay(p.actor, 1)
    ctx.say(p.actor, "use_power", f"{ctx.name(p.actor)} uses {power.name}.", by=p.by)
    res = ctx.check(p.actor, f"uses {power.name}", key.capitalize(), value)
    notes = power.notes.strip().rstrip(".")
    did = {Band.COMPLETE: "it works well", Band.MINOR: "it works",
           Band.FAILURE: "it fails"}[res.band]
    text = f"{power.name}: {did}"
    if res.success and notes:
        text += f" ({notes})"
    ctx.say(p.actor, "power", text + ".", why=f"{key.capitalize()} check, 15+ works, 18+"
            " works well")


@action("pick_up", 1)
def _pick_up(ctx: Ctx, p: Pending) -> None:
    gone = ctx.dropped(p.actor)
    item = p.options.get("item")
    key = block_id(str(item)) if item is not None else next(iter(gone), "")
    if not key:
        raise IllegalAction("pick up what? (options item)")
    ctx.pay(p.actor, 1)
    if key in gone:
        ctx.unmark(p.actor, "dropped", lambda e: str(e.data.get("form")) == key)
        ctx.say(p.actor, "pick_up", f"{ctx.name(p.actor)} picks up {gone[key]} and can use it"
                " again.", by=p.by)
        return
    name = str(item).strip()
    old = ctx.carried_object(p.actor)
    ctx.unmark(p.actor, "holding", lambda e: True)
    ctx.mark(p.actor, "holding", {"item": name})
    tail = f", letting {old} fall" if old else ""
    ctx.say(p.actor, "pick_up", f"{ctx.name(p.actor)} picks up {name}{tail}: a melee,"
            " non-lethal object it may hit or parry with.", by=p.by)


@action("drop_item", 0)
def _drop_item(ctx: Ctx, p: Pending) -> None:
    held = ctx.held_things(p.actor)
    item = p.options.get("item")
    key = block_id(str(item)) if item is not None else next(iter(held), "")
    if key not in held:
        raise IllegalAction(f"{ctx.name(p.actor)} does not hold {item!r}")
    name = ctx.drop(p.actor, key)
    ctx.say(p.actor, "drop_item", f"{ctx.name(p.actor)} drops {name}.", by=p.by)


@action("drop_prone", 0)
def _drop_prone(ctx: Ctx, p: Pending) -> None:
    ctx.mark(p.actor, "prone")
    ctx.say(p.actor, "drop_prone", f"{ctx.name(p.actor)} hits the deck: missile attacks at"
            f" them are at {PRONE_PENALTY}, their own melee at {PRONE_PENALTY}, and they must"
            " stand before moving.", by=p.by)


@action("stand", 1)
def _stand(ctx: Ctx, p: Pending) -> None:
    ctx.pay(p.actor, 1)
    ctx.unmark(p.actor, "prone", lambda e: True)
    ctx.say(p.actor, "stand", f"{ctx.name(p.actor)} gets back on their feet.", why=p.why,
            by=p.by)


def adjust_options(ctx: Ctx, actor: str, out: list[FightOption]) -> list[FightOption]:
    """The options as holds, lying flat, items and powers change them."""
    return [_adjusted(ctx, actor, e) for e in out]


def _adjusted(ctx: Ctx, actor: str, e: FightOption) -> FightOption:
    holder = ctx.holder_of(actor)
    blk = ctx.block(actor)
    stunned = ctx.stunned(actor)
    aid = e.action
    if aid == "attack" and holder is not None:
        e = replace(e, targets=tuple(t for t in e.targets if t.id == holder))
    if aid in ACTIONS or aid in ("move", "flee", "attack"):
        # picking up names its item when taken (options item): not asked here
        why = refusal(ctx, actor, aid, options={"item": "?"} if aid == "pick_up" else None)
        if why and e.allowed:
            e = replace(e, allowed=False, why=why)
    if aid == "grab":
        band = odds(blk.dexterity_modifier, stunned)
        targets = []
        for t in ctx.foes(actor):
            extra = sum(m for _, m in ctx.hit_modifiers(actor, _GRAB_FORM, t))
            hit = odds(blk.dexterity_modifier + extra, stunned).success if extra else \
                band.success
            targets.append(FightTarget(id=t, name=ctx.name(t), hit=float(hit),
                                       why=refusal(ctx, actor, "grab", t)
                                       or pos.reach(ctx, actor, t), band=pos.band(ctx, actor, t)))
        e = replace(e, targets=tuple(targets))
        if e.allowed and not any(not t.why for t in targets):
            e = replace(e, allowed=False, why="nobody to grab")
    elif aid == "escape":
        label, value = escape_characteristic(ctx, actor)
        e = replace(e, odds=float(odds(skill_modifier(value), stunned).success), check=label)
    elif aid == "use_power":
        powers = []
        for pid, power in ctx.usable_powers(actor).items():
            score = blk.characteristics.value(power.characteristic)
            if score is None:
                why = f"no {power.characteristic} characteristic"
                powers.append(NamedChoice(id=pid, name=power.name, detail=why, why=why,
                                          check=power.characteristic))
                continue
            b = odds(skill_modifier(score), stunned)
            powers.append(NamedChoice(
                id=pid, name=power.name, check=power.characteristic,
                works=float(b.success), well=float(b.complete),
                detail=f"{power.characteristic.capitalize()}: works {float(b.success):.0%},"
                       f" well {float(b.complete):.0%}"))
        e = replace(e, needs="power", choices=tuple(powers))
    elif aid == "pick_up":  # its own dropped weapons; any other name is an object
        e = replace(e, needs="item", choices=(*(
            NamedChoice(id=k, name=v, detail="your weapon, back in hand")
            for k, v in ctx.dropped(actor).items()), NamedChoice(
            id=OBJECT_TO_HAND, name="Something to hand",
            detail="an object: melee, non-lethal, +0, good for parrying")))
    elif aid == "drop_item":
        e = replace(e, needs="item", choices=tuple(
            NamedChoice(id=k, name=v) for k, v in ctx.held_things(actor).items()))
    return e


def add_to_row(ctx: Ctx, actor: str, row: TrackerRow, columns: PanelColumns) -> TrackerRow:
    """A tracker row's holds, lying flat, dropped weapons and the object in hand."""
    holder = ctx.holder_of(actor)
    holding = tuple(ctx.name(t) for t in ctx.holding_whom(actor))
    prone = ctx.prone(actor)
    extra = (["prone"] if prone else []) + [f"holds {n}" for n in holding]
    return replace(row, conditions=(*row.conditions, *extra), columns=replace(
        columns, held_by=ctx.name(holder) if holder else "", holding=holding, prone=prone,
        dropped=tuple(ctx.dropped(actor).values()), object=ctx.carried_object(actor) or ""))


def run_action(ctx: Ctx, rule: ActionRule[Ctx], p: Pending) -> None:
    """Run an action's handler with what applies to every panels action: refuse what the
    situation forbids (the referee's choices too), end stale holds, and let a holder that
    moves or flees let go."""
    ctx.tidy_holds()
    if p.action != "end_turn":
        _check_allowed(ctx, p)
    if p.action in ("move", "flee"):
        ctx.let_go(p.actor, "it moves away" if p.action == "move" else "it flees")
    rule.handler(ctx, p)
    ctx.tidy_holds()
