"""The rest of M&M's conflict actions (RULES.md D.6), hero points and objects in fights.

Actions registered in the game's table (``step.ACTIONS``): disarm and the counter-disarm,
smash, ready (and the readied action taken later), drag, grab_damage, command, crawl, run,
drop_item, pick_up. The numbers come from ``actions`` (penalties, DCs), ``attacks`` (hits),
``damage`` (object Toughness and results) and ``encounter`` (ready).

What applies to any action is ``run_action``, which the M&M conflict runs every handler
through:

- ``options={"hero_point": True}`` spends one of the actor's ``hero_points``: the actor's first
  d20 of the action counts a die of 10 or less as +10 (``checks.hero_point_die``); a
  ``HeroPointSpent`` line says what the die showed and what it counted as. Refused when the
  actor has none, or when the action rolls no d20 for the actor (nothing is spent then).
- An attack whose item was dropped, taken, broken or destroyed cannot be used: the player is
  told so; the referee uses another attack if it has one.
- New holds are stamped with the grabber's turn, so Strength damage comes from the turn after.

Off-turn actions: ``declare_off_turn`` (the conflict's ``special`` declarations) lets a readied
action (``options={"readied": True}``) and an offered counter (``counter_trip``,
``counter_disarm``) be declared by a character whose turn it is not; everything else gets the
ordinary checks. ``adjust_options`` leaves out this module's actions that make no sense now
(``available``) and allows an offered counter or a readied action off-turn.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from engine.errors import IllegalAction
from engine.rules import encounter as en
from engine.rules.fight.actions import ActionRule
from engine.rules.fight.dice import Die, Roll
from engine.rules.fight.events import ActionReadied, ReadyTaken
from engine.rules.fight.state import Pending
from engine.rules.fight.values import FightChoice, FightOption, NamedChoice
from engine.systems.mm3e import actions as ac
from engine.systems.mm3e import attacks as at
from engine.systems.mm3e.checks import CheckResult, hero_point_die
from engine.systems.mm3e.conditions import speed_change
from engine.systems.mm3e.damage import (
    MATERIAL_TOUGHNESS,
    damage_dc,
    device_toughness,
    object_result,
    object_toughness,
)
from engine.systems.mm3e.fight_actions import COUNTERS, counter_trip, offer, offer_of
from engine.systems.mm3e.opposed import roll_opposed
from engine.systems.mm3e.registry import HeroPointSpent
from engine.systems.mm3e.roster import block_id
from engine.systems.mm3e.statblock import Attack
from engine.systems.mm3e.step import ACTIONS, C, Ctx, action
from engine.systems.mm3e.strikes import attack_roll, land

FILLED_IN = (
    "Items: a held or worn item is named by the player (options 'item'); when its name is one"
    " of the holder's attacks, that attack is the item and cannot be used while the item is"
    " dropped, taken, broken or destroyed. Disarm: the disarmer is unarmed unless options"
    " 'weapon' is set (then the attack used is a held weapon, and a close disarm lost to the"
    " defender's Strength lets the defender disarm back with its best close attack's rank, or"
    " its Strength, against the disarmer's Strength). An unarmed close disarm that wins may"
    " take the item (options 'take'). Smash: the object's Toughness is options 'toughness', or"
    " a device's points (options 'points', points / 5), or a material (options 'material' and"
    " 'doublings'); 1 degree of failure gives the object a cumulative -1, 2 break it, 3 destroy"
    " it. Counters (counter-trip, counter-disarm): a character the referee plays always tries;"
    " a character the player plays is offered it (a reaction) until the end of its next turn,"
    " since the referee's turn plays on. The counter-trip is the trip's check the other way:"
    " the tripper resists 10 + the defender's better of Acrobatics or Athletics, or goes prone."
    " Ready: one action (not recover, delay, ready, end_turn) kept with its trigger; the player"
    " takes it with fight_act(<that action>, actor=<readier>, options={'readied': True}) before"
    " the readier's next turn, which costs nothing more; the referee does not ready. Command:"
    " a move action naming an order for an allied minion. Run: a free action, DC 15 Athletics"
    " (Strength if untrained), +1 ground speed rank until the runner's turn a round later."
    " Pick up: a move action that takes back one's own dropped item."
)
"""The rules of this module that the seed leaves out, filled in."""

ITEMS = "items"

READIED = "readied"

HOLD_TURN = "hold_turn"
"""Keys of ``Fight.data``: items by holder, readied actions by readier, holds' start turns."""

LOST = frozenset({"dropped", "taken", "broken", "destroyed"})
"""Item states in which its holder cannot use it."""

INTERNAL = frozenset({READIED})
"""Handler ids that are not actions a player picks (``options`` should skip them)."""

_ATTACK_USERS = frozenset({"attack", "charge", "aim", "aid", "disarm", "smash"})

# ------------------------------------------------------------------ the step's context

class _HeroRoll:
    """The rolls of a step with a hero point: the dice through ``_Step._hero_roll``, the
    player's choices as the step's own."""

    def __init__(self, step: _Step) -> None:
        self.step = step

    def __call__(self, actor: str, what: str, sides: int = 20, odds: str = "") -> Die:
        return self.step._hero_roll(actor, what, sides, odds)

    def ask(self, actor: str, question: str, options: Sequence[FightChoice],
            default: str, about: str = "") -> str:
        assert self.step.base_roll is not None
        return self.step.base_roll.ask(actor, question, options, default, about)

class _Step(Ctx):
    """A ``Ctx`` for one action's handler: it may roll the actor's first d20 with a hero
    point, and it lets a reacting character act off its turn without paying from the budget."""

    def __init__(self, base: Ctx, *, reactor: str | None = None, hero: str | None = None
                 ) -> None:
        self.base_roll: Roll | None = base._roll
        super().__init__(base.conflict, base.state, _HeroRoll(self) if hero else base._roll,
                         base._emit)
        inherited = base.reactor if isinstance(base, _Step) else None
        self.reactor: str | None = reactor or inherited
        self.hero = hero
        self.hero_used = False

    def _hero_roll(self, actor: str, what: str, sides: int = 20, odds: str = "") -> Die:
        assert self.base_roll is not None
        die = self.base_roll(actor, what, sides, odds)
        if self.hero_used or actor != self.hero or sides != 20:
            return die
        self.hero_used = True
        face = hero_point_die(die.face)
        counted = f", which counts as {face}" if face != die.face else " (over 10: no change)"
        self.emit(HeroPointSpent(actor=actor, why=f"the d20 for {what} shows {die.face}"
                                 f"{counted}"))
        return Die(face, die.by, die.position)

    def spend(self, actor: str, kind: str, cost: int = 1) -> None:
        """Pay for an action; a reaction off one's turn costs nothing."""
        if actor == self.reactor and self.enc.acting != actor:
            return
        super().spend(actor, kind, cost)

def run_action(ctx: Ctx, rule: ActionRule[Ctx], p: Pending, *, reactor: str | None = None
               ) -> None:
    """Run an action's handler with what applies to any M&M action: a hero point spent on the
    actor's first d20 (``options={"hero_point": True}``), an attack whose item is lost
    refused (the referee uses another), a reaction off one's turn paid for by nothing, and
    new holds stamped with the grabber's turn."""
    hero = bool(p.options.get("hero_point")) and rule.id != READIED
    if hero:
        have = ctx.state.actors[p.actor].tracks.get("hero_points", 0)
        if have < 1:
            raise IllegalAction(f"{ctx.name(p.actor)} has no hero points left")
    if rule.id in _ATTACK_USERS:
        p = _usable_attack(ctx, p)
    sub = _Step(ctx, reactor=reactor or (ctx.reactor if isinstance(ctx, _Step) else None),
                hero=p.actor if hero else None)
    rule.handler(sub, p)
    if hero and not sub.hero_used:
        raise IllegalAction(f"{rule.id.replace('_', ' ')} rolls no d20 for"
                            f" {ctx.name(p.actor)}: no hero point spent")
    _stamp_holds(ctx)

def _usable_attack(ctx: Ctx, p: Pending) -> Pending:
    """The pending action with an attack its actor still has in hand."""
    atks = ctx.attacks(p.actor)
    chosen = p.attack if p.attack is not None else next(iter(atks), None)
    if chosen is None or chosen not in atks or not lost(ctx, p.actor, chosen):
        return p
    state = item_state(ctx, p.actor, chosen)
    if p.by != "referee":
        raise IllegalAction(f"{ctx.name(p.actor)}'s {atks[chosen].name} is {state}: it cannot"
                            " be used (pick it up, or use another attack)")
    spare = next((a for a in atks if not lost(ctx, p.actor, a)), None)
    return p if spare is None else p.model_copy(update={"attack": spare})

def _stamp_holds(ctx: Ctx) -> None:
    """Record the grabber's turn for each new hold; forget the ended ones."""
    stamps = dict(ctx.fight.data.get(HOLD_TURN, {}))
    held = ctx.fight.holds
    new = {t: stamps[t] for t in held if t in stamps}
    for t, h in held.items():
        if t not in new:
            new[t] = ctx.enc.participant(str(h["by"])).turns
    if new != stamps:
        ctx.note(HOLD_TURN, new)



# ------------------------------------------------------------------ items

def item_id(name: str) -> str:
    """An item's id from its name (an attack's name gives that attack's id)."""
    return block_id(name)

def item_state(ctx: Ctx, holder: str, item: str) -> str:
    """'held', or what befell the item: 'dropped', 'taken', 'broken', 'destroyed', 'intact'."""
    rec = ctx.fight.data.get(ITEMS, {}).get(holder, {}).get(item)
    return str(rec["state"]) if rec else "held"

def lost(ctx: Ctx, holder: str, item: str) -> bool:
    """Whether ``holder`` cannot use ``item`` now."""
    return item_state(ctx, holder, item) in LOST

def _item(ctx: Ctx, holder: str, item: str) -> dict[str, Any]:
    return dict(ctx.fight.data.get(ITEMS, {}).get(holder, {}).get(item, {}))

def _set_item(ctx: Ctx, holder: str, item: str, **rec: Any) -> None:
    items = {h: dict(v) for h, v in ctx.fight.data.get(ITEMS, {}).items()}
    mine = items.setdefault(holder, {})
    mine[item] = {**mine.get(item, {}), **rec}
    ctx.note(ITEMS, items)

def _named_item(ctx: Ctx, holder: str, p: Pending, verb: str) -> tuple[str, str]:
    """The item named in the options: its id and its name."""
    raw = str(p.options.get("item", "")).strip()
    if not raw:
        atks = [a.name for a in ctx.block(holder).attacks]
        raise IllegalAction(f"{verb} what? name the item in options 'item' (an attack of"
                            f" {ctx.name(holder)}: {', '.join(atks) or 'none'}, or any"
                            " object in hand)")
    iid = item_id(raw)
    atk = ctx.attacks(holder).get(iid)
    return iid, atk.name if atk else raw

def _attack_in_hand(ctx: Ctx, p: Pending) -> Attack:
    atks = ctx.attacks(p.actor)
    if not atks:
        raise IllegalAction(f"{ctx.name(p.actor)} has no attack")
    rolled = [a for a, x in atks.items() if x.range in ("close", "ranged")
              and not lost(ctx, p.actor, a)]
    aid = p.attack if p.attack is not None else next(iter(rolled), next(iter(atks)))
    if aid not in atks:
        raise IllegalAction(f"{ctx.name(p.actor)} has no attack {aid!r}"
                            f" (has: {', '.join(atks)})")
    atk = atks[aid]
    if atk.range not in ("close", "ranged"):
        raise IllegalAction(f"{p.action.replace('_', ' ')} needs an attack roll; {atk.name}"
                            f" is a {atk.range.value} effect")
    if p.maneuvers and any(p.maneuvers.values()):
        raise IllegalAction("maneuvers go with attack and charge, not with"
                            f" {p.action.replace('_', ' ')}")
    return atk

# ------------------------------------------------------------------ rolling

def _opposed(ctx: Ctx, actor: str, what: str, mine: tuple[str, int], other: str,
             theirs: tuple[str, int]) -> ac.Opposed:
    """An opposed check (``opposed.roll_opposed``): both roll, the higher total wins."""
    return roll_opposed(ctx, actor, what, [mine], other, [theirs])

def available(ctx: Ctx, actor: str, action_id: str) -> bool:
    """Whether an action of this module makes sense for ``actor`` now (for the options list):
    counters need an offer, grab damage and drag a hold, crawl prone, pick up a dropped item,
    a readied action a ready one; the internal ``readied`` never."""
    if action_id in INTERNAL:
        return False
    if action_id in COUNTERS:
        return offer_of(ctx, actor, action_id) is not None
    if action_id in ("grab_damage", "drag"):
        return any(h.get("by") == actor for h in ctx.fight.holds.values())
    if action_id == "crawl":
        return C.PRONE in ctx.conditions(actor)
    if action_id == "pick_up":
        return any(r.get("state") == "dropped"
                   for r in ctx.fight.data.get(ITEMS, {}).get(actor, {}).values())
    if action_id == "command":
        return any(ctx.minion(a) for a in ctx.allies(actor))
    return True

# ------------------------------------------------------------------ disarm

@action("disarm", "standard", "foe", needs="item")
def _disarm(ctx: Ctx, p: Pending) -> None:
    """Disarm: an attack at -2 (ranged -5); on a hit, the attack's damage against the
    defender's Strength; a win drops the item."""
    assert p.target is not None
    atk = _attack_in_hand(ctx, p)
    iid, name = _named_item(ctx, p.target, p, "disarm")
    if lost(ctx, p.target, iid):
        raise IllegalAction(f"{ctx.name(p.target)}'s {name} is already"
                            f" {item_state(ctx, p.target, iid)}")
    ranged = atk.range == "ranged"
    ctx.spend(p.actor, "standard")
    penalty = ac.DISARM_RANGED_PENALTY if ranged else ac.DISARM_CLOSE_PENALTY
    res = attack_roll(ctx, p.actor, p.target, f"disarm {ctx.name(p.target)} of {name}", atk,
                       [("disarm at range" if ranged else "disarm", penalty)])
    if not res.hit:
        return
    strength = ctx.block(p.target).abilities.strength
    opp = _opposed(ctx, p.actor, f"wrests {name} away", (atk.name, atk.rank), p.target,
                   ("Strength", strength))
    weapon = bool(p.options.get("weapon"))
    if opp.actor_wins:
        take = bool(p.options.get("take")) and not weapon and not ranged
        _set_item(ctx, p.target, iid, name=name, state="taken" if take else "dropped",
                  by=p.actor)
        ctx.say(p.actor, "disarm", f"{ctx.name(p.target)} loses {name}"
                + (f": {ctx.name(p.actor)} snatches it." if take else ": it falls."), p.target)
        return
    ctx.say(p.actor, "disarm", f"{ctx.name(p.target)} keeps hold of {name}.", p.target)
    if weapon and not ranged:
        witem = item_id(atk.name)
        if offer(ctx, p.target, p.actor, "counter_disarm"):
            _counter_disarm(ctx, p.target, p.actor, witem, atk.name)
        else:
            pending = offer_of(ctx, p.target, "counter_disarm")
            if pending is not None:
                ctx.note_effect(pending, item=witem, item_name=atk.name)



def _counter_disarm(ctx: Ctx, defender: str, attacker: str, item: str, name: str) -> None:
    """The defender's counter-disarm: its best close damage (or Strength) against the
    disarmer's Strength; a win drops the disarmer's weapon. No counter to it."""
    block = ctx.block(defender)
    close = [a for a in block.attacks if a.range == "close"]
    mine = max(((a.name, a.rank) for a in close), key=lambda x: x[1],
               default=("Strength", block.abilities.strength))
    opp = _opposed(ctx, defender, f"counter-disarms {ctx.name(attacker)}", mine, attacker,
                   ("Strength", ctx.block(attacker).abilities.strength))
    if opp.actor_wins:
        _set_item(ctx, attacker, item, name=name, state="dropped", by=defender)
        ctx.say(defender, "counter_disarm", f"{ctx.name(attacker)} loses {name}: it falls.",
                attacker)
    else:
        ctx.say(defender, "counter_disarm", f"{ctx.name(attacker)} keeps {name}.", attacker)

@action("counter_disarm", "reaction")
def _counter_disarm_action(ctx: Ctx, p: Pending) -> None:
    """Take an offered counter-disarm."""
    offer = offer_of(ctx, p.actor, "counter_disarm")
    if offer is None:
        raise IllegalAction(f"{ctx.name(p.actor)} has no counter-disarm to take")
    ctx.end_effects([offer])
    against = str(offer.data["against"])
    _counter_disarm(ctx, p.actor, against, str(offer.data.get("item", "")),
                    str(offer.data.get("item_name", "their weapon")))

# ------------------------------------------------------------------ trip and counter-trip

@action("counter_trip", "reaction")
def _counter_trip_action(ctx: Ctx, p: Pending) -> None:
    """Take an offered counter-trip."""
    offer = offer_of(ctx, p.actor, "counter_trip")
    if offer is None:
        raise IllegalAction(f"{ctx.name(p.actor)} has no counter-trip to take")
    ctx.end_effects([offer])
    against = str(offer.data["against"])
    if ctx.out(against):
        raise IllegalAction(f"{ctx.name(against)} is out of the fight")
    counter_trip(ctx, p.actor, against)


# ------------------------------------------------------------------ smash

def _toughness(p: Pending) -> tuple[int, str]:
    """The object's Toughness and where it came from."""
    o = p.options
    if o.get("toughness") is not None:
        return int(o["toughness"]), "Toughness"
    if o.get("points") is not None:
        return device_toughness(int(o["points"])), f"device of {int(o['points'])} points"
    if o.get("material"):
        mat = str(o["material"]).lower()
        try:
            t = object_toughness(mat, int(o.get("doublings", 0)))
        except KeyError:
            raise IllegalAction(f"unknown material {mat!r} (materials:"
                                f" {', '.join(MATERIAL_TOUGHNESS)})") from None
        return t, mat
    raise IllegalAction("smash: how tough is it? give options 'toughness', or 'points' (a"
                        " device), or 'material' (and 'doublings')")

@action("smash", "standard", "foe", needs="item")
def _smash(ctx: Ctx, p: Pending) -> None:
    """Smash: an attack on an object the target holds (-5) or wears; on a hit the object
    resists the damage with its Toughness: broken at 2 degrees of failure, destroyed at 3."""
    assert p.target is not None
    atk = _attack_in_hand(ctx, p)
    iid, name = _named_item(ctx, p.target, p, "smash")
    state = item_state(ctx, p.target, iid)
    if state in ("broken", "destroyed"):
        raise IllegalAction(f"{ctx.name(p.target)}'s {name} is already {state}")
    toughness, source = _toughness(p)
    worn = bool(p.options.get("worn"))
    ctx.spend(p.actor, "standard")
    extra = [] if worn else [("held object", ac.SMASH_HELD_PENALTY)]
    res = attack_roll(ctx, p.actor, p.target, f"smash {ctx.name(p.target)}'s {name}", atk,
                       extra)
    if not res.hit:
        return
    rank = atk.rank
    crit = at.CRIT_INCREASED_EFFECT if res.critical else 0
    rec = _item(ctx, p.target, iid)
    dents = int(rec.get("penalty", 0))
    parts = [(f"{name} Toughness ({source})", toughness)]
    if dents:
        parts.append(("earlier damage", -dents))
    r = ctx.check(p.target, f"— {name} resists {atk.name}", parts, damage_dc(rank) + crit,
                  f"15 + rank {rank}" + (" + 5 critical" if crit else ""))
    result = object_result(r.degree)
    if result == "intact":
        dents += 1 if r.degree == -1 else 0
        _set_item(ctx, p.target, iid, name=name, state=state if state in LOST else "intact",
                  penalty=dents)
        ctx.say(p.actor, "smash", f"{name} holds" + (f" (dented: -{dents})" if dents else "")
                + ".", p.target)
        return
    _set_item(ctx, p.target, iid, name=name, state=result, penalty=dents, by=p.actor)
    ctx.say(p.actor, "smash", f"{ctx.name(p.target)}'s {name} is {result}.", p.target)

# ------------------------------------------------------------------ items dropped, picked up

@action("drop_item", "free", needs="item")
def _drop_item(ctx: Ctx, p: Pending) -> None:
    """Drop a held item (free)."""
    ac.drop_item(thrown_at_target=bool(p.options.get("thrown")))
    iid, name = _named_item(ctx, p.actor, p, "drop")
    if lost(ctx, p.actor, iid):
        raise IllegalAction(f"{name} is already {item_state(ctx, p.actor, iid)}")
    _set_item(ctx, p.actor, iid, name=name, state="dropped", by=p.actor)
    ctx.say(p.actor, "drop_item", f"{ctx.name(p.actor)} drops {name}.")

@action("pick_up", "move")
def _pick_up(ctx: Ctx, p: Pending) -> None:
    """Pick up one's own dropped item (a move action)."""
    dropped = {i: r for i, r in ctx.fight.data.get(ITEMS, {}).get(p.actor, {}).items()
               if r.get("state") == "dropped"}
    if not dropped:
        raise IllegalAction(f"{ctx.name(p.actor)} has dropped nothing to pick up")
    raw = str(p.options.get("item", "")).strip()
    iid = item_id(raw) if raw else next(iter(dropped))
    if iid not in dropped:
        names = ", ".join(str(r.get("name", i)) for i, r in dropped.items())
        raise IllegalAction(f"{ctx.name(p.actor)} has not dropped {raw!r} (dropped: {names})")
    ctx.spend(p.actor, "move")
    _set_item(ctx, p.actor, iid, state="held")
    ctx.say(p.actor, "pick_up", f"{ctx.name(p.actor)} picks up {dropped[iid].get('name', iid)}.")

# ------------------------------------------------------------------ holds: drag, grab damage

def _held_by(ctx: Ctx, p: Pending) -> str:
    held = [t for t, h in ctx.fight.holds.items() if h.get("by") == p.actor]
    if not held:
        raise IllegalAction(f"{ctx.name(p.actor)} holds nobody")
    if p.target is not None:
        if p.target not in held:
            raise IllegalAction(f"{ctx.name(p.actor)} does not hold {ctx.name(p.target)}")
        return p.target
    if len(held) > 1:
        raise IllegalAction(f"{p.action.replace('_', ' ')}: whom? "
                            f"({', '.join(ctx.name(t) for t in held)})")
    return held[0]

def _hold(ctx: Ctx, target: str) -> ac.Hold:
    h = ctx.fight.holds[target]
    return ac.Hold(int(h["strength"]), int(h["degrees"]))

@action("grab_damage", "standard")
def _grab_damage(ctx: Ctx, p: Pending) -> None:
    """Strength damage to the one held, from the turn after the hold was made: Toughness
    against 15 + the grabber's Strength, on the damage ladder."""
    target = _held_by(ctx, p)
    since = ctx.fight.data.get(HOLD_TURN, {}).get(target)
    now = ctx.enc.participant(p.actor).turns
    out = ac.grab_damage(_hold(ctx, target), established_earlier=since is not None
                         and now > int(since))
    ctx.spend(p.actor, "standard")
    rank = int(out.data["damage_rank"])
    ctx.say(p.actor, "grab_damage", f"{ctx.name(p.actor)} squeezes {ctx.name(target)}"
            f" (Strength damage {rank}).", target)
    land(ctx, p.actor, target, Attack(name="a crushing hold", range=at.AttackRange.CLOSE,
                                      bonus=0, rank=rank), rank)

@action("drag", "move")
def _drag(ctx: Ctx, p: Pending) -> None:
    """Drag the one held: it resists with Strength against 10 + the grabber's Strength;
    failing, it moves along; succeeding, the grabber is immobile this turn."""
    target = _held_by(ctx, p)
    hold = _hold(ctx, target)
    if speed_change(ctx.conditions(p.actor)) is None:
        raise IllegalAction(f"{ctx.name(p.actor)} is immobile and cannot drag anyone")
    ctx.spend(p.actor, "move")
    strength = ctx.block(target).abilities.strength
    dc = ac.GRAB_DC_BASE + hold.strength
    r = ctx.check(target, "resists being dragged", [("Strength", strength)], dc,
                  f"10 + {ctx.name(p.actor)}'s Strength {hold.strength}")
    where = str(p.options.get("to", "")).strip()
    if not r.success:
        ctx.say(p.actor, "drag", f"{ctx.name(p.actor)} drags {ctx.name(target)} along"
                + (f" {where}" if where else "") + ".", target)
        return
    ctx.condition_for(p.actor, p.actor, C.IMMOBILE, "end_of_turn")
    ctx.say(p.actor, "drag", f"{ctx.name(target)} digs in: {ctx.name(p.actor)} is stuck in"
            " place this turn unless they let go.", target)

# ------------------------------------------------------------------ command, crawl, run

@action("command", "move", "ally")
def _command(ctx: Ctx, p: Pending) -> None:
    """One command to an allied minion (a move action)."""
    assert p.target is not None
    if not ctx.minion(p.target):
        raise IllegalAction(f"{ctx.name(p.target)} is not a minion to command")
    order = str(p.options.get("order", "")).strip()
    if not order:
        raise IllegalAction("command: what is the order? (options 'order')")
    ac.command(1)
    ctx.spend(p.actor, "move")
    ctx.say(p.actor, "command", f"{ctx.name(p.actor)} orders {ctx.name(p.target)}: {order}.",
            p.target)

@action("crawl", "move")
def _crawl(ctx: Ctx, p: Pending) -> None:
    """Crawl while prone, at ground speed -1 rank."""
    ground = ctx.block(p.actor).speed.get("ground", 0)
    out = ac.crawl(ground, ctx.conditions(p.actor))
    ctx.spend(p.actor, "move")
    rank = out.moves[0].legs[0]
    where = str(p.options.get("to", "")).strip()
    ctx.say(p.actor, "crawl", f"{ctx.name(p.actor)} crawls" + (f" {where}" if where else "")
            + f" (speed rank {rank}, {ac.speed_feet(rank)} ft).")

@action("run", "free")
def _run_action(ctx: Ctx, p: Pending) -> None:
    """Run: DC 15 Athletics; a success gives +1 ground speed rank for a round."""
    if speed_change(ctx.conditions(p.actor)) is None:
        raise IllegalAction(f"{ctx.name(p.actor)} is immobile and cannot run")
    if any(e.data.get("run") for e in ctx.effects_on(p.actor)):
        raise IllegalAction(f"{ctx.name(p.actor)} is already running this round")
    block = ctx.block(p.actor)
    skill = block.skills.get("Athletics", block.abilities.strength)
    r: CheckResult = ctx.check(p.actor, "runs", [("Athletics", skill)], ac.RUN_DC,
                               f"DC {ac.RUN_DC}")
    if not r.success:
        ctx.say(p.actor, "run", f"{ctx.name(p.actor)} cannot find another gear.")
        return
    ctx.add_effect(p.actor, p.actor, "running", "rounds", rounds=1,
              data={"kind": "bonus", "what": "speed", "value": ac.RUN_SPEED_BONUS,
                    "label": "running", "run": 1})
    rank = block.speed.get("ground", 0) + ac.RUN_SPEED_BONUS
    ctx.say(p.actor, "run", f"{ctx.name(p.actor)} breaks into a sprint: ground speed rank"
            f" {rank} ({ac.speed_feet(rank)} ft) for a round.")

# ------------------------------------------------------------------ ready

def _action_enum(action_id: str) -> ac.Action | None:
    try:
        return ac.Action(action_id)
    except ValueError:
        return None

@action("ready", "standard", needs="action")
def _ready(ctx: Ctx, p: Pending) -> None:
    """Ready one standard, move or free action with a trigger; taken later as a reaction."""
    what = str(p.options.get("action", "")).strip()
    trigger = str(p.options.get("trigger", "")).strip()
    rule = ACTIONS.get(what)
    if rule is None or what in INTERNAL or what in ("end_turn", *COUNTERS):
        raise IllegalAction(f"ready which action? (options 'action': one of"
                            f" {', '.join(k for k in ACTIONS if _readyable(k))})")
    kind = ac.Action(what) if _action_enum(what) else None
    if kind is not None:
        ac.ready(kind, trigger)
    elif not _readyable(what):
        raise IllegalAction(f"ready: a single standard, move or free action, not {what}")
    elif not trigger:
        raise IllegalAction("ready: name the trigger (options 'trigger')")
    en.ready(ctx.enc, ctx.spec, str(rule.cost), trigger)  # IllegalAction before any event
    ctx.emit(ActionReadied(actor=p.actor, kind=str(rule.cost), trigger=trigger))
    ctx.note(READIED, {**ctx.fight.data.get(READIED, {}),
                       p.actor: {"action": what, "trigger": trigger}})
    ctx.say(p.actor, "ready", f"{ctx.name(p.actor)} waits, ready to"
            f" {what.replace('_', ' ')} when {trigger}.")

def _readyable(action_id: str) -> bool:
    rule = ACTIONS.get(action_id)
    if rule is None or action_id in INTERNAL or action_id in ("end_turn", *COUNTERS):
        return False
    kind = _action_enum(action_id)
    if kind is not None:
        d = ac.ACTIONS[kind]
        return d.cost in ac.READYABLE and not d.whole_turn and kind not in (
            ac.Action.READY, ac.Action.DELAY)
    return rule.cost in ("standard", "move", "free")

def readied_action(ctx: Ctx, actor: str) -> dict[str, str] | None:
    """The action ``actor`` holds ready ({action, trigger}), or None."""
    p = ctx.enc.participant(actor)
    rec = ctx.fight.data.get(READIED, {}).get(actor)
    if p.held != "ready" or not rec:
        return None
    return {"action": str(rec["action"]), "trigger": str(rec["trigger"])}

@action(READIED, "reaction", internal=True)
def _readied(ctx: Ctx, p: Pending) -> None:
    """Take the readied action now (its initiative moves here), paying nothing more."""
    rec = readied_action(ctx, p.actor)
    if rec is None:
        raise IllegalAction(f"{ctx.name(p.actor)} has no readied action")
    ctx.emit(ReadyTaken(actor=p.actor))
    ctx.note(READIED, {a: r for a, r in ctx.fight.data.get(READIED, {}).items()
                       if a != p.actor} or None)
    what = rec["action"]
    ctx.say(p.actor, "readied", f"{rec['trigger'][:1].upper()}{rec['trigger'][1:]}:"
            f" {ctx.name(p.actor)} acts on it ({what.replace('_', ' ')}).", p.target)
    opts = {k: v for k, v in p.options.items() if k not in ("readied", "readied_action")}
    inner = p.model_copy(update={"action": what, "options": opts})
    run_action(ctx, ACTIONS[what], inner, reactor=p.actor)

# ------------------------------------------------------------------ declaring off-turn

def declare_off_turn(ctx: Ctx, actor: str, action_id: str, target: str | None,
                     attack: str | None, maneuvers: Mapping[str, int],
                     options: Mapping[str, Any]) -> Pending | None:
    """A readied action or an offered counter declared by ``actor`` (on or off its turn), or
    None when the action is neither (the ordinary ``declare`` applies)."""
    state, fight = ctx.state, ctx.fight
    if action_id in COUNTERS:
        if offer_of(ctx, actor, action_id) is None:
            raise IllegalAction(f"{ctx.name(actor)} has no {action_id.replace('_', '-')} to"
                                " take")
        return Pending(actor=actor, action=action_id, options=dict(options))
    if not options.get("readied"):
        return None
    if actor not in state.actors or not fight.encounter.has(actor):
        raise IllegalAction(f"{actor!r} is not in the fight")
    rec = readied_action(ctx, actor)
    if rec is None:
        raise IllegalAction(f"{ctx.name(actor)} has no readied action")
    if rec["action"] != action_id:
        raise IllegalAction(f"{ctx.name(actor)} readied {rec['action'].replace('_', ' ')},"
                            f" not {action_id.replace('_', ' ')}")
    if fight.encounter.acting == actor:
        raise IllegalAction("a readied action is taken off one's own turn")
    if fight.encounter.acting is None:
        raise IllegalAction("nobody is acting: there is nothing to react to")
    # the ordinary checks (targets, attacks, maneuvers), as if it were the readier's turn
    enc = fight.encounter.model_copy(update={"acting": actor, "budget": dict(
        fight.spec.per_turn)})
    seen = state.model_copy(update={"fight": fight.model_copy(update={"encounter": enc})})
    checked = ctx.conflict.ordinary(seen, actor, action_id, target, attack, maneuvers,
                                    options)
    return checked.model_copy(update={"action": READIED,
                                      "options": {**checked.options,
                                                  "readied_action": action_id}})

def adjust_options(ctx: Ctx, actor: str, base: list[FightOption]) -> list[FightOption]:
    """The ordinary options without this module's actions that make no sense now, with an
    offered counter and a readied action allowed off-turn; readying lists the actions it may
    hold (``choices``)."""
    rec = readied_action(ctx, actor) if ctx.enc.acting not in (None, actor) else None
    out: list[FightOption] = []
    for o in base:
        a = o.action
        if not available(ctx, actor, a):
            continue
        if a in COUNTERS or (rec is not None and a == rec["action"]):
            o = replace(o, allowed=True, why="", readied=o.readied or a not in COUNTERS)
        out.append(o)
    words = ctx.conflict.words()
    ready = tuple(NamedChoice(id=a, name=words[a].name if a in words else a,
                              detail=words[a].summary if a in words else "")
                  for a in dict.fromkeys(o.action for o in out) if _readyable(a))
    return [replace(o, choices=ready) if o.action == "ready" else o for o in out]
