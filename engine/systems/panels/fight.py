"""The panels game's fights on the conflict layer (engine/rules/conflict.py).

``PanelsConflict`` runs a fight from the pure panels rules of this package: side initiative
(each side rolls a d6 every round; both sides get the difference in panels, the higher side
acts first, a tie gives 2 each in one Agility order: engine/rules/encounter.py), actions that
cost panels, attacks (d20 + Dexterity modifier, 15-17 minor, 18+ complete, crits on the
naturals), the defender's response to a hit (dodge or parry, paid from future panels), damage
to the Kill and Stun tracks, stunned at 10%, and out at 0.

Where a character's numbers live: its stat block (``block_of``: ``data["statblock"]`` as a
block id of the pack's ``characters.yaml`` or a whole block, else its archetype's); its
current Kill and Stun in ``actor.tracks["kill"]`` / ``["stun"]`` (``TracksSet``); what they
mean (stunned, unconscious, dying, stable) in ``actor.conditions``; timed effects of crits
(wide open, a jammed attack form) as encounter effects; panels owed as the participant's
``arrears``.

The other actions (grab, break free, powers, items, prone) are fight_more.py's: it registers
them on ``HANDLERS`` and fills this module's hooks (``FORMS_HOOKS`` ... ``DISARM_HOOKS``);
``PanelsConflict`` imports it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from pathlib import Path
from typing import Any

from engine.content.loader import Pack, read_by_mtime, read_yaml
from engine.errors import ContentError, IllegalAction
from engine.rules import encounter as en
from engine.rules.conflict import (
    HEROES,
    Die,
    Emit,
    Fight,
    FightActed,
    FightRolled,
    FightStarted,
    FightUpdated,
    FoeBlock,
    InitiativeRolled,
    Pending,
    Roll,
    TurnBegan,
    add_foes,
    fight_line,
    fight_of,
    foe_list,
    require_fight,
    side_of,
    standing_side,
)
from engine.rules.events import Event
from engine.rules.state import Actor, CampaignState, new_id
from engine.systems.panels import crits
from engine.systems.panels import referee as rf
from engine.systems.panels.checks import Band, CheckResult, check, odds, skill_modifier
from engine.systems.panels.damage import (
    AttackForm,
    Damage,
    DamageDice,
    Health,
    Status,
    Track,
    damage_dice,
    die_sides,
    mean_of,
    status_odds,
)
from engine.systems.panels.registry import PANELS
from engine.systems.panels.responses import (
    apply_dodge,
    can_respond,
    dodged_distribution,
    eligible,
    parried_distribution,
    parry_dice,
    parry_with_of,
    resolve_parry,
    response_cost,
)
from engine.systems.panels.statblock import Character, from_data

SPEC = en.PANELS_BUDGET

FILLED_IN = (
    "Fights (filled in where the seed is silent): a turn whose panels all go to repaying"
    " arrears is skipped. A character at 0 Stun or 0 Kill is out and skipped. Catching your"
    " breath costs two panels and only as the turn's first action. A critical hit's effect may"
    " be picked by the attacker's player (else a d6); a critical miss is rolled. 'Loses its"
    " next panel' adds one panel owed (at most 5). Friendly fire strikes the first ally still"
    " standing in the turn order, with the attack's minor dice and no response. The referee's"
    " turns and responses are engine/systems/panels/referee.py's (a thug group keeps the target"
    " its first attacker chose while that foe stands). A critical hit's Disarmed and a critical"
    " miss's Fumble drop something held when there is something (fight_more's rule), else the"
    " next panel is lost. When a fight ends with a hero still standing, the heroes tend the"
    " dying of both sides (stable at 1 Kill, out cold); with no hero standing, the dying"
    " nobody stabilised die."
)
"""The rules of this module that the seed leaves out, filled in."""

STATUS_CONDITIONS = ("stunned", "unconscious", "dying", "stable")
"""The conditions this module keeps in ``actor.conditions``."""
OUT_CONDITIONS = frozenset({"unconscious", "dying", "dead"})


# ------------------------------------------------------------------ events


@PANELS.event
@dataclass(frozen=True, slots=True)
class TracksSet(Event):
    """A character's Kill and Stun (and what they mean) after a hit, a rest or first aid."""

    actor: str
    tracks: dict[str, int] = field(default_factory=dict)
    conditions: list[str] = field(default_factory=list)
    why: str = ""


@PANELS.applier("TracksSet")
def _tracks_set(state: CampaignState, ev: TracksSet) -> None:
    actor = state.actors[ev.actor]
    actor.tracks.update(ev.tracks)
    actor.conditions = list(ev.conditions)


def health_of(blk: Character, actor: Actor) -> Health:
    """``actor``'s current Kill and Stun on its block's tracks (full when never hurt)."""
    tr = actor.tracks
    return Health(Track(min(max(tr.get("kill", blk.kill), 0), blk.kill), blk.kill),
                  Track(min(max(tr.get("stun", blk.stun), 0), blk.stun), blk.stun))


def tracks_set(actor: Actor, health: Health, why: str, *, stable: bool = False) -> TracksSet:
    """The event that writes ``actor``'s Kill and Stun and what they mean (stunned,
    unconscious, dying; ``stable``: given first aid at 0 Kill), its other conditions kept."""
    conds = [c for c in actor.conditions if c not in STATUS_CONDITIONS]
    status = health.status
    if stable and status is not Status.DYING:
        conds += ["unconscious", "stable"]
    elif status is not Status.FINE:
        conds.append(status.value)
        if status is Status.DYING:
            conds.append("unconscious")
    return TracksSet(actor=actor.id, tracks={"kill": health.kill.current,
                                             "stun": health.stun.current},
                     conditions=conds, why=why)


# ------------------------------------------------------------------ stat blocks

CHARACTERS_FILE = "characters.yaml"


def characters(pack: Pack) -> dict[str, Character]:
    """The pack's panels stat blocks by id (``block_id`` of the name); cached per file."""
    return characters_at(pack.path)


def characters_at(folder: Path) -> dict[str, Character]:
    """The panels stat blocks of the pack folder ``folder`` by id (read once per version)."""
    return read_by_mtime(folder / CHARACTERS_FILE, _blocks) or {}


def _blocks(path: Path) -> dict[str, Character]:
    raw = read_yaml(path) or {}
    entries = raw.get("characters") if isinstance(raw, dict) else None
    if not isinstance(entries, list):
        raise ContentError(f"{path}: expected a list under 'characters'")
    blocks = {}
    for i, data in enumerate(entries):
        blk = from_data(data, f"{path}: characters[{i}]")
        blocks[block_id(blk.name)] = blk
    return blocks


def block_id(name: str) -> str:
    """A block's id: its name's words in lower case joined by ``_``."""
    return new_id(name, ())


def block_of(pack: Pack, state: CampaignState, actor_id: str) -> Character | None:
    """The actor's stat block (its own, else its archetype's), or None."""
    actor = state.actors[actor_id]
    ref = actor.data.get("statblock")
    if ref is None and actor.archetype and actor.archetype in pack.archetypes:
        ref = pack.archetypes[actor.archetype].data.get("statblock")
    if ref is None:
        return None
    if isinstance(ref, str):
        found = characters(pack).get(ref)
        if found is None:
            raise ContentError(f"{actor.name}: no panels stat block {ref!r} in"
                               f" {pack.path / CHARACTERS_FILE}")
        return found
    return from_data(ref, actor.name)


def form_id(form: AttackForm) -> str:
    """An attack form's id."""
    return block_id(form.name)



# ------------------------------------------------------------------ the step's context


class Ctx:
    """One step of a fight: the state, the fight being changed, the ways to roll and emit."""

    def __init__(self, pack: Pack, state: CampaignState, fight: Fight, roll: Roll | None,
                 emit: Emit | None) -> None:
        self.pack, self.state, self.fight = pack, state, fight
        self._roll, self._emit = roll, emit

    @property
    def enc(self) -> en.Encounter:
        """The encounter as it stands in this step."""
        return self.fight.encounter

    def set_enc(self, enc: en.Encounter) -> None:
        """Replace the encounter."""
        self.fight = self.fight.model_copy(update={"encounter": enc})

    def name(self, actor_id: str) -> str:
        """A character's name."""
        return self.state.actors[actor_id].name

    def block(self, actor_id: str) -> Character:
        """A character's stat block; ``IllegalAction`` when it has none."""
        found = block_of(self.pack, self.state, actor_id)
        if found is None:
            raise IllegalAction(f"{self.name(actor_id)} has no panels stat block, so cannot"
                                " fight")
        return found

    def health(self, actor_id: str) -> Health:
        """Current Kill and Stun (full when not yet set)."""
        return health_of(self.block(actor_id), self.state.actors[actor_id])

    def stunned(self, actor_id: str) -> bool:
        """Stunned or worse: -5 on every d20."""
        return self.health(actor_id).stunned

    def out(self, actor_id: str) -> bool:
        """Out of the fight: down (0 Stun or Kill), fled, surrendered or gone."""
        conds = set(self.state.actors[actor_id].conditions)
        return actor_id in self.fight.out or bool(conds & OUT_CONDITIONS) \
            or not self.enc.has(actor_id)

    def foes(self, actor_id: str) -> list[str]:
        """The other side's characters still in the fight, in turn order."""
        side = side_of(self.state, actor_id)
        return [p.actor for p in self._ranked() if side_of(self.state, p.actor) != side
                and not self.out(p.actor)]

    def allies(self, actor_id: str) -> list[str]:
        """The same side's other characters still in the fight, in turn order."""
        side = side_of(self.state, actor_id)
        return [p.actor for p in self._ranked() if p.actor != actor_id
                and side_of(self.state, p.actor) == side and not self.out(p.actor)]

    def _ranked(self) -> list[en.Participant]:
        order = list(self.enc.order)
        rest = [p for p in en.ranked(self.enc.participants) if p.actor not in order]
        return [self.enc.participant(a) for a in order] + rest

    def emit(self, e: Event) -> None:
        """Apply an event now."""
        assert self._emit is not None
        self._emit(e)

    def say(self, actor: str, action: str, text: str, target: str | None = None,
            why: str = "", by: str = "engine") -> None:
        """A line of the fight's story."""
        self.emit(FightActed(actor=actor, action=action, text=text, target=target, why=why,
                             by=by))

    def die(self, actor: str, what: str, sides: int = 20, odds_text: str = "") -> Die:
        """One die for ``actor``."""
        assert self._roll is not None
        return self._roll(actor, what, sides, odds_text)

    def ask(self, actor: str, question: str, options: list[dict[str, Any]],
            default: str) -> str:
        """The player's choice for a character the player plays; ``default`` otherwise."""
        assert self._roll is not None
        return self._roll.ask(actor, question, options, default)

    def check(self, actor: str, what: str, label: str, characteristic: int,
              extra: Sequence[tuple[str, int]] = ()) -> CheckResult:
        """A d20 + the characteristic's modifier (stunned -5, ``extra`` situational
        modifiers), rolled and explained."""
        mod = skill_modifier(characteristic) + sum(m for _, m in extra)
        stunned = self.stunned(actor)
        success = odds(mod, stunned).success
        die = self.die(actor, what, 20, f"{float(success):.0%} to succeed")
        result = check(die.face, mod, stunned)
        parts: list[list[Any]] = [[f"{label} {characteristic}", skill_modifier(characteristic)]]
        parts += [[name, m] for name, m in extra]
        if stunned:
            parts.append(["stunned", -5])
        text = result.band.value
        if result.critical_success:
            text += " (natural 20)"
        elif result.critical_failure:
            text += " (natural 1)"
        self.emit(FightRolled(
            actor=actor, what=what, natural=result.natural, parts=parts, total=result.total,
            against=15, against_name="15-17 minor, 18+ complete", result=text,
            degree={Band.FAILURE: 0, Band.MINOR: 1, Band.COMPLETE: 2}[result.band],
            odds=float(success), by=die.by, position=die.position))
        return result

    def set_health(self, actor_id: str, health: Health, why: str, *,
                   stable: bool = False) -> None:
        """Write a character's tracks and what they mean."""
        self.emit(tracks_set(self.state.actors[actor_id], health, why, stable=stable))

    def spend(self, actor: str, cost: int) -> None:
        """Pay panels from the turn."""
        self.set_enc(en.spend(self.enc, SPEC, actor, en.PANEL, cost))

    def owe(self, actor: str, count: int = 1) -> None:
        """``actor`` loses its next panel(s): more owed, at most the arrears limit."""
        p = self.enc.participant(actor)
        new = p.model_copy(update={"arrears": min(en.ARREARS_LIMIT, p.arrears + count)})
        self.set_enc(self.enc.model_copy(update={"participants": tuple(
            new if x.actor == actor else x for x in self.enc.participants)}))

    def has_effect(self, actor: str, what: str) -> list[en.Effect]:
        """The encounter's effects named ``what`` on ``actor``."""
        return [e for e in self.enc.effects if e.target == actor and e.what == what]

    def save(self) -> None:
        """Record the fight as it now stands."""
        self.emit(FightUpdated(fight=self.fight.model_dump(mode="json")))


# ------------------------------------------------------------------ actions


@dataclass(frozen=True, slots=True)
class ActionRule:
    """An action: its id, its cost in panels, whom it targets, its handler."""

    id: str
    cost: int
    target: str
    handler: Callable[[Ctx, Pending], None]


HANDLERS: dict[str, ActionRule] = {}

# Hooks a second module fills (fight_more: grabs, items, prone, powers); each list is walked
# in order. They keep this module free of the state those actions keep.
FORMS_HOOKS: list[Callable[[Ctx, str, dict[str, AttackForm]], dict[str, AttackForm]]] = []
"""Change the attack forms a character can use now (a dropped weapon out, a picked-up
object in)."""
HIT_HOOKS: list[Callable[[Ctx, str, AttackForm, str], list[tuple[str, int]]]] = []
"""Situational to-hit modifiers (label, points) of attacker, form, target."""
DECLARE_HOOKS: list[Callable[[Ctx, Pending], None]] = []
"""Refuse a declared action (``IllegalAction``) the situation forbids (held, prone)."""
OPTIONS_HOOKS: list[Callable[[Ctx, str, list[dict[str, Any]]], list[dict[str, Any]]]] = []
"""Adjust the options list (disallow with a ``why``, add details)."""
ROW_HOOKS: list[Callable[[Ctx, str, dict[str, Any]], None]] = []
"""Add to a tracker row."""
FIGHTER_HOOKS: list[Callable[[Ctx, str, rf.Fighter], rf.Fighter]] = []
"""Add to a fighter as the referee sees it (held, prone)."""
DISARM_HOOKS: list[Callable[[Ctx, str, AttackForm | None], str | None]] = []
"""Make a character drop what it holds (the form it used, if given); the name of what fell,
or None when it held nothing (then it loses its next panel instead)."""


def action(id_: str, cost: int, target: str = "none"
           ) -> Callable[[Callable[[Ctx, Pending], None]], Callable[[Ctx, Pending], None]]:
    """Register an action handler."""

    def deco(fn: Callable[[Ctx, Pending], None]) -> Callable[[Ctx, Pending], None]:
        HANDLERS[id_] = ActionRule(id_, cost, target, fn)
        return fn

    return deco


def _forms(ctx: Ctx, actor: str) -> dict[str, AttackForm]:
    forms = {form_id(f): f for f in ctx.block(actor).all_attacks}
    for hook in FORMS_HOOKS:
        forms = hook(ctx, actor, forms)
    return forms


def hit_modifiers(ctx: Ctx, attacker: str, form: AttackForm, target: str
                  ) -> list[tuple[str, int]]:
    """The situational to-hit modifiers of this attack (``HIT_HOOKS``)."""
    return [m for hook in HIT_HOOKS for m in hook(ctx, attacker, form, target)]


def disarm(ctx: Ctx, who: str, form: AttackForm | None = None) -> None:
    """``who`` drops what it holds (``DISARM_HOOKS``); holding nothing, it loses its next
    panel."""
    for hook in DISARM_HOOKS:
        dropped = hook(ctx, who, form)
        if dropped is not None:
            return
    ctx.owe(who)


def _jammed(ctx: Ctx, actor: str) -> set[str]:
    return {str(e.data.get("form")) for e in ctx.has_effect(actor, "jammed")}


def _form_of(ctx: Ctx, p: Pending) -> AttackForm:
    forms = _forms(ctx, p.actor)
    key = p.attack or next(iter(forms))
    if key not in forms:
        key = block_id(key)
    if key not in forms:
        raise IllegalAction(f"{ctx.name(p.actor)} has no attack {p.attack!r}"
                            f" (attacks: {', '.join(forms)})")
    if key in _jammed(ctx, p.actor):
        raise IllegalAction(f"{forms[key].name} is jammed until the round ends")
    return forms[key]


def _dice_for(ctx: Ctx, attacker: str, form: AttackForm, band: Band) -> DamageDice:
    blk = ctx.block(attacker)
    return damage_dice(form, blk.significant, band, blk.characteristics.strength)


def _roll_damage(ctx: Ctx, who: str, dice: DamageDice, what: str) -> tuple[Damage, str]:
    kill = [ctx.die(who, f"{what}: Kill die", dice.sides).face for _ in range(dice.kill_dice)]
    stun = [ctx.die(who, f"{what}: Stun die", dice.sides).face for _ in range(dice.stun_dice)]
    dmg = dice.totals(kill, stun)
    words = (f"Kill {dice.kill_notation} {kill} = {dmg.kill},"
             f" Stun {dice.stun_notation} {stun} = {dmg.stun}")
    return dmg, words


def _take(ctx: Ctx, target: str, dmg: Damage, source: str) -> None:
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


@PANELS.journal_line("TracksSet")
def tracks_line(e: dict[str, Any], who: Callable[[str], str]) -> str | None:
    """``TracksSet``: Kill and Stun after a hit, a rest or first aid, with its why."""
    return f"→ {e.get('why') or who(e['actor']) + ': Kill and Stun set'}."


@PANELS.journal_line("InitiativeRolled")
def initiative_line(e: dict[str, Any], who: Callable[[str], str]) -> str | None:
    """Side initiative: each side's d6, who goes first, the panels."""
    rolls: list[dict[str, Any]] = e["rolls"]
    if not rolls or "panels" not in rolls[0]:
        return fight_line(e, who)
    dice = " · ".join(f"{r['name']} {r['natural']}" + (" (your die)" if r.get("by") ==
                                                       "entered" else "") for r in rolls)
    panels = int(rolls[0]["panels"])
    each = f"{panels} panel{'s' * (panels != 1)} each"
    if any(r.get("simultaneous") for r in rolls):
        return f"Initiative (d6 a side): {dice}. A tie: {each}, in one Agility order."
    first = next((r["name"] for r in rolls if r.get("first")), rolls[0]["name"])
    return f"Initiative (d6 a side): {dice}. {first} act first; {each}."


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

    def as_option(self) -> dict[str, Any]:
        """The option as the fight asks it: id, label and detail, with the numbers."""
        out: dict[str, Any] = {"id": self.id, "label": self.label, "detail": self.detail,
                               "expected": float(self.expected),
                               "avoided": float(self.avoided), "cost": self.cost}
        if self.odds is not None:
            out["odds"] = float(self.odds)
        return out


def _pct(x: Fraction) -> str:
    return f"{float(x):.0%}"


def response_options(ctx: Ctx, attacker: str, defender: str, form: AttackForm,
                     dist: dict[Damage, Fraction]) -> list[ResponseOption]:
    """None, dodge, and a parry with each eligible form: each with its exact odds and the
    damage it is expected to avoid."""
    blk = ctx.block(defender)
    stunned = ctx.stunned(defender)
    cost = response_cost(ctx.block(attacker).significant)
    paid = "free" if cost == 0 else f"costs {cost} future panel"
    kill, stun = mean_of(dist)
    whole = kill + stun
    out = [ResponseOption("none", "Take it", f"expected damage {float(whole):.1f}", whole)]
    agi = blk.agility_modifier
    band = odds(agi, stunned)
    left = sum(mean_of(dodged_distribution(dist, agi, stunned)), Fraction(0))
    out.append(ResponseOption(
        "dodge", "Dodge", f"18+ avoids it all ({_pct(band.complete)}), 15-17 halves it"
        f" ({_pct(band.minor)}); expected damage avoided {float(whole - left):.1f} of"
        f" {float(whole):.1f}; {paid}", left, band.success, whole - left, cost))
    dex = blk.dexterity_modifier
    pband = odds(dex, stunned)
    for f in _forms(ctx, defender).values():
        ok, _ = eligible(parry_with_of(f), form.delivery, blk.stops_bullets)
        if not ok:
            continue
        after = parried_distribution(dist, dex, f, blk.significant,
                                     blk.characteristics.strength, form.delivery, stunned)
        left = sum(mean_of(after), Fraction(0))
        out.append(ResponseOption(
            f"parry:{form_id(f)}", f"Parry with {f.name}",
            f"15+ parries ({_pct(pband.success)}), its damage off Kill first then Stun;"
            f" expected damage avoided {float(whole - left):.1f} of {float(whole):.1f}; {paid}",
            left, pband.success, whole - left, cost))
    return out


def fighter(ctx: Ctx, actor: str) -> rf.Fighter:
    """A character as the referee sees it (its jammed forms left out)."""
    blk = ctx.block(actor)
    p = ctx.enc.participant(actor)
    group = ctx.state.actors[actor].data.get("group")
    f = rf.fighter_from(blk, actor, side_of(ctx.state, actor), health=ctx.health(actor),
                        arrears=min(p.arrears, en.ARREARS_LIMIT), out=ctx.out(actor),
                        group=str(group) if group else None)
    jammed = _jammed(ctx, actor)
    f = replace(f, attacks=tuple(a for fid, a in _forms(ctx, actor).items()
                                 if fid not in jammed))
    for hook in FIGHTER_HOOKS:
        f = hook(ctx, actor, f)
    return replace(f, name=ctx.name(actor))


def situation(ctx: Ctx, actor: str) -> rf.Situation:
    """The fight as the referee sees it on ``actor``'s turn."""
    side = side_of(ctx.state, actor)
    others = [p.actor for p in ctx._ranked() if p.actor != actor and p.present]
    enc = ctx.enc
    left = enc.budget.get(en.PANEL, 0) if enc.acting == actor else 0
    costs = {rid: rule.cost for rid, rule in HANDLERS.items()}
    if enc.acted:  # catching one's breath is a turn's first action only
        costs["catch_breath"] = left + 1
    group = ctx.state.actors[actor].data.get("group")
    kept = ctx.fight.data.get("group_targets", {}).get(str(group)) if group else None
    return rf.Situation(
        me=fighter(ctx, actor),
        allies=tuple(fighter(ctx, a) for a in others if side_of(ctx.state, a) == side),
        foes=tuple(fighter(ctx, a) for a in others if side_of(ctx.state, a) != side),
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


def _respond(ctx: Ctx, attacker: str, defender: str, form: AttackForm, band: Band,
             dist: dict[Damage, Fraction], dmg_later: Callable[[], tuple[Damage, str]],
             no_response: str) -> None:
    """The defender's response (asked before the damage is rolled), then the damage."""
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
        choice = ctx.ask(defender, f"Response to {ctx.name(attacker)}'s {form.name}?",
                         [o.as_option() for o in opts],
                         default)
        if ctx.fight.controller(ctx.state.actors[defender]) == "referee":
            ctx.say(defender, "response", f"▸ {why}.", by="referee")
        if choice != "none":
            cost = response_cost(significant)
            ctx.set_enc(en.spend(ctx.enc, SPEC, defender, "response", cost))
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
        forms = _forms(ctx, defender)
        pform = forms[choice.split(":", 1)[1]]
        res = ctx.check(defender, f"parries {ctx.name(attacker)}'s {form.name} with"
                        f" {pform.name}", "Dexterity", blk.characteristics.dexterity)
        dmg, words = dmg_later()
        parry: Damage | None = None
        if res.success:
            pdice = parry_dice(pform, blk.significant, res.band, blk.characteristics.strength)
            parry, pwords = _roll_damage(ctx, defender, pdice, f"parry with {pform.name}")
            ctx.say(defender, "parry", f"Parry damage {pwords}.")
        outcome = resolve_parry(res, dmg, parry, form.delivery)
        taken = outcome.taken
        ctx.say(attacker, "damage", f"Damage {words}; {outcome.result}.")
    else:
        taken, words = dmg_later()
        ctx.say(attacker, "damage", f"Damage {words}.")
    _take(ctx, defender, taken, f"{ctx.name(attacker)}'s {form.name}")


def _crit_hit(ctx: Ctx, attacker: str, target: str) -> crits.CritEntry:
    opts = [{"id": "roll", "label": "Roll the d6", "detail": "let the dice say"}] + [
        {"id": str(e.face), "label": e.name, "detail": e.text} for e in crits.CRITICAL_HIT]
    pick = ctx.ask(attacker, f"Critical hit on {ctx.name(target)}: which effect?", opts,
                   "roll")
    if pick == "roll":
        entry = crits.roll(crits.Table.HIT, ctx.die(attacker, "critical hit", 6).face)
    else:
        entry = crits.choose(crits.Table.HIT, pick)
    ctx.say(attacker, "critical", f"Critical hit! {entry.why}.")
    return entry


def _strike(ctx: Ctx, p: Pending, form: AttackForm, target: str) -> None:
    blk = ctx.block(p.actor)
    res = ctx.check(p.actor, f"attacks {ctx.name(target)} with {form.name}", "Dexterity",
                    blk.characteristics.dexterity, hit_modifiers(ctx, p.actor, form, target))
    if res.critical_failure:
        _crit_miss(ctx, p, form)
        return
    if not res.success:
        ctx.say(p.actor, "miss", f"{ctx.name(p.actor)} misses {ctx.name(target)}.")
        return
    entry = _crit_hit(ctx, p.actor, target) if res.critical_success else None
    effect = entry.effect if entry else None
    dice = _dice_for(ctx, p.actor, form, res.band)
    if effect is crits.Effect.EXTRA_DIE:
        dice = dice.with_extra_dice(entry.amount if entry else 1)
    if effect is crits.Effect.TARGET_LOSES_PANEL:
        ctx.owe(target)
    elif effect is crits.Effect.TARGET_DISARMED:
        disarm(ctx, target)
    if effect is crits.Effect.ATTACKER_GAINS_PANEL:
        if ctx.enc.participant(p.actor).arrears:
            ctx.owe(p.actor, -1)
        elif ctx.enc.acting == p.actor:
            ctx.set_enc(en.grant(ctx.enc, en.PANEL))
    if effect is crits.Effect.MAX_DAMAGE:
        top = dice.maximum()
        dist = {top: Fraction(1)}

        def later() -> tuple[Damage, str]:
            return top, f"at its highest: Kill {top.kill}, Stun {top.stun}"
    else:
        dist = dice.distribution()

        def later() -> tuple[Damage, str]:
            return _roll_damage(ctx, p.actor, dice, f"{form.name} on {ctx.name(target)}")
    no_resp = ""
    if effect is crits.Effect.TARGET_NO_RESPONSE:
        no_resp = "off balance from the critical hit"
    elif ctx.has_effect(target, "wide open"):
        no_resp = "wide open until the round ends"
    ctx.say(p.actor, "hit", f"{ctx.name(p.actor)} hits {ctx.name(target)} with {form.name}"
            f" ({res.band.value}).")
    _respond(ctx, p.actor, target, form, res.band, dist, later, no_resp)


def _crit_miss(ctx: Ctx, p: Pending, form: AttackForm) -> None:
    entry = crits.roll(crits.Table.MISS, ctx.die(p.actor, "critical miss", 6).face)
    ctx.say(p.actor, "critical", f"Critical miss! {entry.why}.")
    eff = entry.effect
    if eff is crits.Effect.ATTACKER_LOSES_PANEL:
        ctx.owe(p.actor)
    elif eff is crits.Effect.ATTACKER_DISARMED:
        disarm(ctx, p.actor, form)
    elif eff is crits.Effect.ATTACKER_NO_RESPONSE:
        ctx.set_enc(en.add_effect(ctx.enc, source=p.actor, target=p.actor, what="wide open",
                                  duration="round_start", rounds=1)[0])
    elif eff is crits.Effect.FORM_JAMMED:
        ctx.set_enc(en.add_effect(ctx.enc, source=p.actor, target=p.actor, what="jammed",
                                  duration="round_start", rounds=1,
                                  data={"form": form_id(form)})[0])
    elif eff is crits.Effect.ATTACKER_STUN_DIE:
        sides = die_sides(ctx.block(p.actor).significant, Band.MINOR)
        face = ctx.die(p.actor, "wrenched: Stun die", sides).face
        _take(ctx, p.actor, Damage(0, face), "a wrenched limb")
    elif eff is crits.Effect.HITS_ALLY:
        allies = ctx.allies(p.actor)
        if not allies:
            ctx.say(p.actor, "critical", "No ally is in reach: nothing else happens.")
            return
        ally = allies[0]
        dmg, words = _roll_damage(ctx, p.actor, _dice_for(ctx, p.actor, form, Band.MINOR),
                                  f"{form.name} on {ctx.name(ally)}")
        ctx.say(p.actor, "damage", f"Damage {words}.")
        _take(ctx, ally, dmg, f"{ctx.name(p.actor)}'s stray {form.name}")


def _declared_target(ctx: Ctx, p: Pending) -> str:
    assert p.target is not None
    return p.target


@action("attack", 1, "foe")
def _attack(ctx: Ctx, p: Pending) -> None:
    form = _form_of(ctx, p)
    target = _declared_target(ctx, p)
    ctx.spend(p.actor, 1)
    gang = p.options.get("gang")
    if gang:
        targets = {**ctx.fight.data.get("group_targets", {}), str(gang): target}
        ctx.fight = ctx.fight.model_copy(update={"data": {**ctx.fight.data,
                                                          "group_targets": targets}})
    ctx.say(p.actor, "attack", f"{ctx.name(p.actor)} goes at {ctx.name(target)} with"
            f" {form.name}.", target=target, by=p.by)
    _strike(ctx, p, form, target)


@action("move", 1)
def _move(ctx: Ctx, p: Pending) -> None:
    ctx.spend(p.actor, 1)
    to = str(p.options.get("to") or "")
    ctx.say(p.actor, "move", f"{ctx.name(p.actor)} moves{' ' + to if to else ''}.", by=p.by)


@action("catch_breath", 2)
def _catch_breath(ctx: Ctx, p: Pending) -> None:
    if ctx.enc.acted:
        raise IllegalAction(f"{ctx.name(p.actor)} has already acted this turn: catching your"
                            " breath takes two panels doing nothing else")
    ctx.spend(p.actor, 2)
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
    target = _declared_target(ctx, p)
    h = ctx.health(target)
    if h.kill.current != 0:
        raise IllegalAction(f"{ctx.name(target)} is not dying (Kill {h.kill.current}):"
                            " first aid is for an ally at 0 Kill")
    ctx.spend(p.actor, 1)
    why = f"{ctx.name(p.actor)} gives {ctx.name(target)} first aid: stable at 1 Kill, still" \
          " unconscious"
    ctx.set_health(target, Health(h.kill.heal(1), h.stun), why, stable=True)


@action("flee", 1)
def _flee(ctx: Ctx, p: Pending) -> None:
    ctx.spend(p.actor, 1)
    _leave(ctx, p, "fled", "breaks away and flees")


@action("surrender", 0)
def _surrender(ctx: Ctx, p: Pending) -> None:
    _leave(ctx, p, "surrendered", "gives up the fight")


@action("end_turn", 0)
def _end_turn_action(ctx: Ctx, p: Pending) -> None:
    if p.by == "referee":
        ctx.say(p.actor, "end_turn", p.why or f"{ctx.name(p.actor)} ends the turn.",
                by="referee")
    _next(ctx)


def _leave(ctx: Ctx, p: Pending, how: str, words: str) -> None:
    ctx.fight = ctx.fight.model_copy(update={"out": {**ctx.fight.out, p.actor: how}})
    ctx.say(p.actor, how, f"{ctx.name(p.actor)} {words}.", why=p.why, by=p.by)
    if _over(ctx):  # nobody left to take a turn: no new round to roll
        part = ctx.enc.participant(p.actor).model_copy(update={"present": False})
        ctx.set_enc(ctx.enc.model_copy(update={
            "participants": tuple(part if x.actor == p.actor else x
                                  for x in ctx.enc.participants),
            "order": tuple(a for a in ctx.enc.order if a != p.actor),
            "acting": None, "budget": {}}))
        return
    rolls = _side_rolls(ctx) if en.needs_side_roll(ctx.enc) else None
    adv = en.leave(ctx.enc, p.actor, SPEC, rolls)
    ctx.set_enc(adv.encounter)
    _begun(ctx, adv)


# ------------------------------------------------------------------ rounds and turns


def _side_names(ctx: Ctx) -> list[str]:
    return list(dict.fromkeys(p.side for p in ctx.enc.participants if p.present))


def _side_rolls(ctx: Ctx, parts: Sequence[en.Participant] | None = None) -> list[int]:
    """Each side's d6 for a new round (rolled by one character of the side), journaled."""
    parts = list(parts) if parts is not None else [p for p in ctx.enc.participants
                                                   if p.present]
    names = list(dict.fromkeys(p.side for p in parts))
    rolls: list[int] = []
    entries: list[dict[str, Any]] = []
    pos = ctx.state.dice_position
    for side in names:
        members = [p.actor for p in parts if p.side == side]
        standing = [a for a in members if not set(ctx.state.actors[a].conditions)
                    & OUT_CONDITIONS] or members
        die = ctx.die(standing[0], "side initiative", 6)
        rolls.append(die.face)
        pos = max(pos, die.position)
        entries.append({"actor": standing[0], "name": side.capitalize(), "natural": die.face,
                        "bonus": 0, "total": die.face, "group": "", "side": side,
                        "surprised": False, "by": die.by, "position": die.position})
    si = en.side_initiative(names, rolls)
    for e in entries:
        e["panels"] = si.panels[e["side"]]
        e["first"] = si.first == e["side"]
        e["simultaneous"] = si.simultaneous
    ctx.emit(InitiativeRolled(rolls=entries, position=pos))
    return rolls


def _can_act(ctx: Ctx, actor: str) -> str | None:
    """Why ``actor`` cannot act this turn, or None."""
    if ctx.out(actor):
        return "is out of the fight"
    if ctx.enc.budget.get(en.PANEL, 0) <= 0:
        return "has no panels left this round (repaying panels owed)"
    return None


def _over(ctx: Ctx) -> bool:
    sides = {side_of(ctx.state, p.actor) for p in ctx.enc.participants
             if p.present and not ctx.out(p.actor)}
    return len(sides) < 2


def _begun(ctx: Ctx, adv: en.Advance) -> None:
    """A turn has begun: say so; skip those who cannot act."""
    fresh = False
    for _ in range(len(ctx.enc.participants) * 12 + 12):
        started = adv.started
        fresh = fresh or adv.new_round
        if started is None:
            return
        why = _can_act(ctx, started)
        if not ctx.out(started):
            ctx.emit(TurnBegan(actor=started, round=ctx.enc.round, new_round=fresh))
            fresh = False
        if why is None:
            return
        if not ctx.out(started):
            ctx.say(started, "skip", f"{ctx.name(started)} {why}.")
        if _over(ctx):
            return
        rolls = _side_rolls(ctx) if en.needs_side_roll(ctx.enc) else None
        adv = en.next_turn(ctx.enc, SPEC, rolls)
        ctx.set_enc(adv.encounter)
    raise IllegalAction("nobody in the fight can act")


def _next(ctx: Ctx) -> None:
    if _over(ctx):
        return
    rolls = _side_rolls(ctx) if en.needs_side_roll(ctx.enc) else None
    adv = en.next_turn(ctx.enc, SPEC, rolls)
    ctx.set_enc(adv.encounter)
    _begun(ctx, adv)


# ------------------------------------------------------------------ odds and the referee


def attack_odds(ctx: Ctx, actor: str, form: AttackForm, target: str) -> dict[str, Any]:
    """Exact odds of an attack: the bands, the expected damage, the chance the foe goes down
    (before any response)."""
    blk = ctx.block(actor)
    extra = sum(m for _, m in hit_modifiers(ctx, actor, form, target))
    band = odds(blk.dexterity_modifier + extra, ctx.stunned(actor))
    health = ctx.health(target)
    exp = Fraction(0)
    down = Fraction(0)
    for b, pb in ((Band.MINOR, band.minor), (Band.COMPLETE, band.complete)):
        if not pb:
            continue
        dist = _dice_for(ctx, actor, form, b).distribution()
        exp += pb * sum(mean_of(dist), Fraction(0))
        st = status_odds(health, dist)
        down += pb * (st[Status.UNCONSCIOUS] + st[Status.DYING])
    return {"hit": float(band.success), "minor": float(band.minor),
            "complete": float(band.complete), "critical": 1 / 20,
            "expected_damage": round(float(exp), 2), "down": float(down),
            "effect": float(band.success)}


def referee_choice(ctx: Ctx, actor: str) -> Pending:
    """The referee's action (referee.choose), as a pending action with its reason; one the
    panels left cannot pay becomes the end of the turn."""
    choice = rf.choose(situation(ctx, actor))
    rule = HANDLERS.get(choice.action)
    left = ctx.enc.budget.get(en.PANEL, 0)
    if rule is None or rule.cost > left or choice.action == "end_turn":
        return Pending(actor=actor, action="end_turn", by="referee", why=choice.why)
    options: dict[str, Any] = {"gang": choice.gang} if choice.gang else {}
    attack = block_id(choice.attack) if choice.attack else None
    return Pending(actor=actor, action=choice.action, target=choice.target, attack=attack,
                   options=options, why=choice.why, by="referee")


# ------------------------------------------------------------------ the conflict


class PanelsConflict:
    """The panels game's fights (engine/rules/conflict.Conflict)."""

    initiative = "side"
    """Each side rolls a d6 every round; no surprise round."""

    def __init__(self, pack: Pack) -> None:
        # the rest of the actions register themselves on HANDLERS and the hooks (imported
        # here, not at the top: fight_more imports this module)
        from engine.systems.panels import fight_more  # noqa: F401

        self.pack = pack

    def _ctx(self, state: CampaignState, roll: Roll | None = None,
             emit: Emit | None = None) -> Ctx:
        return Ctx(self.pack, state, require_fight(state), roll, emit)

    def _entrants(self, state: CampaignState, foes: Sequence[str], emit: Emit) -> list[str]:
        """The foes as actor ids, adding to the story those named by stat block id."""
        return add_foes(state, foes, {bid: FoeBlock(
            b.name, b.count if b.kind == "thug group" else None,
            {"villain": "villain", "hero": "hero_ally"}.get(b.kind, "minion"))
            for bid, b in characters(self.pack).items()}, emit)

    def _entrant(self, state: CampaignState, a: str) -> en.Entrant:
        blk = block_of(self.pack, state, a)
        if blk is None:
            raise IllegalAction(f"{state.actors[a].name} has no panels stat block, so cannot"
                                " fight (choose an archetype, or give it one)")
        return en.Entrant(actor=a, side=side_of(state, a),
                          initiative=blk.characteristics.agility,
                          tiebreak=(blk.characteristics.dexterity,))

    def start(self, state: CampaignState, foes: Sequence[str], surprised: Sequence[str],
              roll: Roll, emit: Emit) -> None:
        """A new fight: the foes enter, both sides roll a d6, the first turn begins."""
        if fight_of(state) is not None:
            raise IllegalAction("a fight is already under way")
        if not foes:
            raise IllegalAction("a fight needs at least one foe")
        if surprised:
            raise IllegalAction("the panels game has no surprise round: each round opens with"
                                " both sides' d6")
        foe_ids = self._entrants(state, foes, emit)
        heroes = [h for h in state.party if not state.actors[h].taken_out
                  and not set(state.actors[h].conditions) & OUT_CONDITIONS]
        if not heroes:
            raise IllegalAction("no hero can fight: every one is out cold, dying or dead")
        down = [f for f in foe_ids if set(state.actors[f].conditions) & OUT_CONDITIONS]
        if len(down) == len(foe_ids):
            names = ", ".join(state.actors[f].name for f in down)
            raise IllegalAction(f"no foe can fight: {names} cannot (out cold, dying or dead)")
        foe_ids = [f for f in foe_ids if f not in down]
        ids = list(dict.fromkeys([*heroes, *foe_ids]))
        entrants = [self._entrant(state, a) for a in ids]
        if len({e.side for e in entrants}) != 2:
            raise IllegalAction("a panels fight needs heroes on one side and foes on the other")
        parts = [en.Participant(actor=e.actor, side=e.side, initiative=e.initiative,
                                joined_round=1) for e in entrants]
        pre = Fight(encounter=en.Encounter(id="pending", mode="side", participants=tuple(
            parts)))
        ctx = Ctx(self.pack, state, pre, roll, emit)
        names = ", ".join(state.actors[f].name for f in foe_ids)
        events: list[Event] = []
        ctx._emit = events.append  # the initiative line follows FightStarted
        rolls = _side_rolls(ctx, parts)
        adv = en.start(f"fight{state.scene.number}_{state.event_no}", entrants, mode="side",
                       spec=SPEC, side_rolls=rolls)
        fight = Fight(encounter=adv.encounter)
        emit(FightStarted(fight=fight.model_dump(mode="json"),
                          text=f"A fight breaks out against {names}."))
        for e in events:
            emit(e)
        ctx = self._ctx(state, roll, emit)
        _begun(ctx, adv)
        ctx.save()

    def join(self, state: CampaignState, who: str, roll: Roll, emit: Emit) -> None:
        """A late joiner takes its place in its side by Agility."""
        fight = require_fight(state)
        enc = fight.encounter
        for a in self._entrants(state, [who], emit):
            enc = en.join(enc, self._entrant(state, a))
        emit(FightUpdated(fight=fight.model_copy(update={"encounter": enc}).model_dump(
            mode="json")))

    def options(self, state: CampaignState, actor: str) -> list[dict[str, Any]]:
        """What ``actor`` may do now: each action with its cost in panels, whether the panels
        left allow it, and for attacks every target with exact odds."""
        ctx = self._ctx(state)
        enc = ctx.enc
        mine = enc.acting == actor
        left = enc.budget.get(en.PANEL, 0) if mine else 0
        out: list[dict[str, Any]] = []
        for rule in HANDLERS.values():
            if rule.id == "end_turn":
                continue
            ok = mine and left >= rule.cost
            why = "" if ok else ("not your turn" if not mine else
                                 f"needs {rule.cost} panels, {left} left")
            if rule.id == "catch_breath" and ok and enc.acted:
                ok, why = False, "only as the turn's first action"
            entry: dict[str, Any] = {"action": rule.id, "cost": _cost_words(rule.cost),
                                     "panels": rule.cost, "allowed": ok, "target": rule.target}
            if why:
                entry["why"] = why
            if rule.id == "attack":
                jammed = _jammed(ctx, actor)
                for fid, form in _forms(ctx, actor).items():
                    targets = [{"id": t, "name": ctx.name(t),
                                **attack_odds(ctx, actor, form, t)} for t in ctx.foes(actor)]
                    e = {**entry, "attack": fid, "attack_name": form.name,
                         "range": "close" if form.range == "melee" else "ranged",
                         "delivery": form.delivery, "lethal": form.lethal,
                         "targets": targets}
                    if fid in jammed:
                        e.update(allowed=False, why="jammed until the round ends")
                    out.append(e)
                continue
            if rule.id == "first_aid":
                entry["targets"] = [{"id": a, "name": ctx.name(a)} for a in _dying_allies(
                    ctx, actor)]
                entry["allowed"] = ok and bool(entry["targets"])
            out.append(entry)
        for hook in OPTIONS_HOOKS:
            out = hook(ctx, actor, out)
        return out

    def odds(self, state: CampaignState, actor: str, attack: str, target: str,
             maneuvers: Mapping[str, int]) -> dict[str, Any]:
        """The exact odds of ``actor``'s ``attack`` on ``target`` (the panels game has no
        maneuvers)."""
        if any(maneuvers.values()):
            raise IllegalAction("the panels game has no maneuvers")
        ctx = self._ctx(state)
        return attack_odds(ctx, actor, _form_of(ctx, Pending(actor=actor, action="attack",
                                                             attack=attack)), target)

    def foe_options(self, state: CampaignState) -> list[dict[str, Any]]:
        """Present NPCs with a block, then the pack's villains and thugs not yet in play."""
        return foe_list(state, lambda: characters(self.pack),
                        lambda npc: block_of(self.pack, state, npc.id),
                        lambda blk: blk.kind == "hero", _foe_detail)

    def declare(self, state: CampaignState, actor: str, action: str, target: str | None,
                attack: str | None, maneuvers: Mapping[str, int], options: Mapping[str, Any]
                ) -> Pending:
        """Check an action can be taken now: its turn, its panels, its target."""
        ctx = self._ctx(state)
        if action not in HANDLERS:
            raise IllegalAction(f"unknown action {action!r} (actions: {', '.join(HANDLERS)})")
        if any(maneuvers.values()):
            raise IllegalAction("the panels game has no maneuvers")
        if ctx.enc.acting != actor:
            who = ctx.name(ctx.enc.acting) if ctx.enc.acting else "nobody"
            raise IllegalAction(f"it is {who}'s turn, not {ctx.name(actor)}'s")
        rule = HANDLERS[action]
        left = ctx.enc.budget.get(en.PANEL, 0)
        if left < rule.cost:
            raise IllegalAction(f"{ctx.name(actor)} has {left} panel{'s' * (left != 1)} left"
                                f" this round; {action.replace('_', ' ')} costs {rule.cost}")
        if rule.target in ("foe", "ally") and target is None:
            pool = ctx.foes(actor) if rule.target == "foe" else _dying_allies(ctx, actor)
            if len(pool) != 1:
                raise IllegalAction(f"{action.replace('_', ' ')}: whom? ("
                                    f"{', '.join(ctx.name(f) for f in pool) or 'nobody'})")
            target = pool[0]
        if target is not None:
            if target not in state.actors:
                raise IllegalAction(f"no character {target!r}")
            if rule.target == "foe" and target not in ctx.foes(actor):
                raise IllegalAction(f"{ctx.name(target)} is not a foe still in the fight")
            if rule.target == "ally" and target not in _dying_allies(ctx, actor):
                raise IllegalAction(f"{ctx.name(target)} is not an ally at 0 Kill")
        pending = Pending(actor=actor, action=action, target=target, attack=attack,
                          options=dict(options))
        if action == "attack":
            pending = pending.model_copy(update={"attack": form_id(_form_of(ctx, pending))})
        for hook in DECLARE_HOOKS:
            hook(ctx, pending)
        return pending

    def resolve(self, state: CampaignState, pending: Pending, roll: Roll, emit: Emit) -> None:
        """Carry out the action; the fight saved after it."""
        ctx = self._ctx(state, roll, emit)
        ctx.fight = ctx.fight.settled()
        HANDLERS[pending.action].handler(ctx, pending)
        ctx.save()

    def end_turn(self, state: CampaignState, roll: Roll, emit: Emit) -> None:
        """End the acting character's turn (its unused panels are lost)."""
        ctx = self._ctx(state, roll, emit)
        ctx.fight = ctx.fight.settled()
        _next(ctx)
        ctx.save()

    def referee(self, state: CampaignState, actor: str) -> Pending:
        """The referee's choice for ``actor``, with its reason."""
        return referee_choice(self._ctx(state), actor)

    def words(self) -> dict[str, dict[str, Any]]:
        """Each action's name, summary and example fictions (content/panels/actions.yaml)."""
        return action_words(self.pack)

    def ended(self, state: CampaignState, emit: Emit) -> None:
        """The fight's end (damage.py's rule for 0, and ``FILLED_IN``): a hero still standing
        tends the dying of both sides (stable at 1 Kill, out cold); with no hero standing the
        dying nobody gave first aid die. The unconscious (0 Stun) come round with 1 Stun; a
        stabilised one stays out, alive."""
        ctx = self._ctx(state, None, emit)
        carer = next((p.actor for p in ctx.enc.participants
                      if p.side == HEROES and p.present and not ctx.out(p.actor)), None)
        for p in ctx.enc.participants:
            actor = state.actors[p.actor]
            conds = list(actor.conditions)
            if "dying" in conds and "stable" not in conds and carer is not None:
                h = ctx.health(p.actor)
                ctx.set_health(p.actor, Health(h.kill.heal(1), h.stun),
                               f"{state.actors[carer].name} gives {actor.name} first aid after"
                               " the fight: stable at 1 Kill, out cold", stable=True)
            elif "dying" in conds and "stable" not in conds:
                emit(TracksSet(actor=p.actor, tracks={"kill": 0, "stun": 0},
                               conditions=[c for c in conds if c not in STATUS_CONDITIONS]
                               + ["dead"], why=f"{actor.name} dies of their wounds"))
            elif "unconscious" in conds and "stable" not in conds:
                h = ctx.health(p.actor)
                ctx.set_health(p.actor, Health(h.kill, h.stun.heal(max(0, 1 - h.stun.current))),
                               f"{actor.name} comes round")

    def finished(self, state: CampaignState) -> str | None:
        """'heroes' or 'villains' when only one side has anyone left who can act."""
        fight = fight_of(state)
        if fight is None:
            return None
        return standing_side(state, fight, Ctx(self.pack, state, fight, None, None).out)

    def tracker(self, state: CampaignState) -> list[dict[str, Any]]:
        """One row per character in turn order, with Kill, Stun, panels left and owed."""
        fight = require_fight(state)
        ctx = Ctx(self.pack, state, fight, None, None)
        enc = fight.encounter
        order = en.listed(enc)
        side_panels = enc.sides.panels if enc.sides is not None else {}
        rows = []
        for a in order:
            p = enc.participant(a)
            actor = state.actors[a]
            h = ctx.health(a)
            acted = p.last_round == enc.round and enc.acting != a
            if enc.acting == a:
                left = enc.budget.get(en.PANEL, 0)
            elif acted or ctx.out(a):
                left = 0
            else:
                left = max(0, side_panels.get(p.side, 0) - p.arrears)
            rows.append({"actor": a, "name": actor.name, "side": p.side,
                         "initiative": p.initiative, "acting": enc.acting == a,
                         "conditions": [c for c in actor.conditions], "damage": 0,
                         "control": fight.controller(actor),
                         "out": fight.out.get(a) or ("down" if ctx.out(a) else ""),
                         "present": p.present, "held": "", "acted": acted,
                         "kill": h.kill.current, "kill_max": h.kill.maximum,
                         "stun": h.stun.current, "stun_max": h.stun.maximum,
                         "panels": left, "arrears": p.arrears})
            for hook in ROW_HOOKS:
                hook(ctx, a, rows[-1])
        return rows


def _foe_detail(blk: Character) -> str:
    return f"{blk.count} thugs" if blk.kind == "thug group" else blk.kind


def _dying_allies(ctx: Ctx, actor: str) -> list[str]:
    side = side_of(ctx.state, actor)
    return [p.actor for p in ctx.enc.participants if p.present and p.actor != actor
            and p.actor not in ctx.fight.out and side_of(ctx.state, p.actor) == side
            and ctx.health(p.actor).kill.current == 0]


def _cost_words(cost: int) -> str:
    return "none" if cost == 0 else f"{cost} panel{'s' * (cost != 1)}"


ACTIONS_FILE = "actions.yaml"
_ALIASES = {"catch_breath": "recover"}
"""Actions whose words the draft actions.yaml keeps under another id."""


def action_words(pack: Pack) -> dict[str, dict[str, Any]]:
    """The pack's words for each action (``actions.yaml``): id -> {name, summary, examples,
    kind "action"}."""
    loaded = read_by_mtime(pack.path / ACTIONS_FILE, read_yaml)
    raw: dict[str, Any] = loaded if isinstance(loaded, dict) else {}
    given = raw.get("actions") or {}
    out: dict[str, dict[str, Any]] = {}
    for aid in HANDLERS:
        entry = given.get(aid) or given.get(_ALIASES.get(aid, "")) or {}
        entry = entry if isinstance(entry, dict) else {}
        out[aid] = {"name": str(entry.get("name") or aid.replace("_", " ").capitalize()),
                    "summary": str(entry.get("summary") or ""),
                    "examples": [str(x) for x in entry.get("examples") or []],
                    "kind": "action"}
    return out
