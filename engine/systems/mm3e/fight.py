"""Mutants & Masterminds 3e fights, on the conflict layer (engine/rules/conflict.py).

``MM3EConflict`` runs a fight from the pure rules of this package: initiative (d20 + bonus,
ties by Dodge, Agility, Awareness, then a roll-off; one roll per minion group), the surprise
round, the action budget (a standard and a move, or two moves; dazed: a standard only;
stunned: nothing), attacks against a defence class, resistance checks along the damage
ladder, maneuvers, and the actions of D.6. Each action is a handler in ``HANDLERS``; a handler
reads the state through a ``Ctx``, rolls through it (every roll explains itself in a
``FightRolled`` event with its modifiers and odds) and changes characters through it
(``CombatantChanged``). The encounter is kept immutable and saved once per step
(``FightUpdated``).

Where a character's numbers live: its stat block (``roster.block_of``); its lasting
conditions (staggered, incapacitated, dying, dead, prone, fatigued...) in ``actor.conditions``;
the damage penalty's size in ``actor.tracks["damage"]``; timed conditions and bonuses
(dazed by damage, aim, defend, maneuvers, demoralize, feint, afflictions) as encounter effects.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from engine.content.loader import Pack, read_by_mtime, read_yaml
from engine.errors import ContentError, IllegalAction
from engine.rules import encounter as en
from engine.rules.conflict import (
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
    fight_of,
    foe_list,
    require_fight,
    side_of,
    standing_side,
)
from engine.rules.state import CampaignState
from engine.systems.mm3e import actions as ac
from engine.systems.mm3e import attacks as at
from engine.systems.mm3e import maneuvers as mv
from engine.systems.mm3e import referee as rf
from engine.systems.mm3e.checks import (
    CheckResult,
    check,
    defend_result,
    degree_odds,
    routine_check,
    success_odds,
)
from engine.systems.mm3e.conditions import (
    CONDITIONS,
    Condition,
    action_budget,
    attack_modifier_against,
    check_penalty,
    expand,
)
from engine.systems.mm3e.conditions import active_defense as cond_defense
from engine.systems.mm3e.damage import DamageState, apply_resistance, damage_dc, resistance_dc
from engine.systems.mm3e.registry import CombatantChanged
from engine.systems.mm3e.roster import block_id, block_of, characters
from engine.systems.mm3e.statblock import Attack, Kind, StatBlock

C = Condition
OUT = frozenset({C.INCAPACITATED, C.DYING, C.DEAD})
"""Conditions that take a character out of the fight."""
DAMAGE_LASTING = (C.STAGGERED, C.INCAPACITATED, C.DYING, C.DEAD)
"""Damage conditions kept on the character (until recovery); dazed by damage is timed."""

TRADES: dict[str, mv.Trade] = {"accurate": mv.Trade.ACCURATE, "all_out": mv.Trade.ALL_OUT,
                               "defensive": mv.Trade.DEFENSIVE,
                               "power_attack": mv.Trade.POWER}
"""The trade maneuvers by their id in content and scripts."""

AFFLICTION_DEFAULT = (C.DAZED, C.STUNNED, C.INCAPACITATED)
"""Filled in: an affliction whose stat block names no conditions imposes dazed, then stunned,
then incapacitated (by degree of failure)."""

FILLED_IN = (
    "An affliction (or dazzle, weaken, nullify) with no conditions listed imposes dazed, then"
    " stunned, then incapacitated; its 1st and 2nd degree conditions are resisted again at the"
    " end of each of the target's turns (a success ends them), the 3rd needs recovery."
    " Area attacks: every foe in the fight is in the area unless the attacker names one target;"
    " each rolls Dodge against 10 + rank and halves the rank on a success. A team attack is"
    " made on the first minion's turn and uses up the turns of the minions who join it this"
    " round. Flee and surrender take a character out of the fight (it keeps its conditions)."
    " A fight ends when one side has nobody left who can act."
)

MANEUVER_NAMES = {"accurate": "accurate attack", "all_out": "all-out attack",
                  "defensive": "defensive attack", "power_attack": "power attack"}



def _slug(name: str) -> str:
    return block_id(name)


def option(pack: Pack, name: str) -> bool:
    """A rule the pack switches on in ``system.yaml``'s ``data`` (the [EXT] rules)."""
    return bool(pack.system.data.get(name, False))


def max_trade(pack: Pack) -> int:
    """The most a trade maneuver moves: the seed's 2, or the pack's ``max_trade``."""
    value = pack.system.data.get("max_trade", mv.SEED_MAX_TRADE)
    return value if isinstance(value, int) and 0 <= value <= mv.HANDBOOK_MAX_TRADE \
        else mv.SEED_MAX_TRADE


class Ctx:
    """One step of a fight: the state, the fight being changed, and the ways to roll and emit."""

    def __init__(self, pack: Pack, state: CampaignState, fight: Fight, roll: Roll | None,
                 emit: Emit | None) -> None:
        self.pack, self.state, self.fight = pack, state, fight
        self._roll, self._emit = roll, emit
        self._blocks: dict[str, StatBlock] = {}

    # -------------------------------------------------------------- reading
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

    def block(self, actor_id: str) -> StatBlock:
        """A character's stat block; ``IllegalAction`` when it has none."""
        if actor_id not in self._blocks:
            found = block_of(self.pack, self.state.actors[actor_id])
            if found is None:
                raise IllegalAction(f"{self.name(actor_id)} has no stat block, so cannot fight")
            self._blocks[actor_id] = found
        return self._blocks[actor_id]

    def minion(self, actor_id: str) -> bool:
        """Whether the character is a minion."""
        return self.block(actor_id).minion

    def effects_on(self, actor_id: str) -> list[en.Effect]:
        """The encounter's effects on a character."""
        return [e for e in self.enc.effects if e.target == actor_id]

    def conditions(self, actor_id: str) -> frozenset[Condition]:
        """Every condition in force on a character (lasting, timed, and what they include)."""
        own = [c for c in self.state.actors[actor_id].conditions if c in _CONDITION_IDS]
        timed = [e.what for e in self.effects_on(actor_id) if e.data.get("kind") == "condition"]
        return expand([*own, *timed])

    def damage(self, actor_id: str) -> int:
        """The size of the character's damage penalty."""
        return self.state.actors[actor_id].tracks.get("damage", 0)

    def out(self, actor_id: str) -> bool:
        """Whether the character is out of the fight (down, fled or surrendered)."""
        return actor_id in self.fight.out or bool(self.conditions(actor_id) & OUT) \
            or not self.enc.has(actor_id)

    def bonuses(self, actor_id: str, what: str, against: str | None = None
                ) -> list[tuple[str, int]]:
        """Timed bonuses to ``what`` (attack, dodge, parry, effect...) of a character, each with
        its source, against ``against`` where the bonus names a foe."""
        out: list[tuple[str, int]] = []
        for e in self.effects_on(actor_id):
            if e.data.get("kind") != "bonus" or e.data.get("what") != what:
                continue
            foe = e.data.get("against", "")
            if foe and foe != against:
                continue
            out.append((str(e.data.get("label", e.what)), int(e.data.get("value", 0))))
        return out

    def defense(self, actor_id: str, which: str) -> tuple[int, list[tuple[str, int]]]:
        """An active defense rank now (conditions applied) with the parts that made it."""
        base = getattr(self.block(actor_id).defenses, which)
        parts = [(which.title(), base), *self.bonuses(actor_id, which)]
        raw = sum(v for _, v in parts)
        value = cond_defense(raw, self.conditions(actor_id))
        if value != raw:
            parts.append(("vulnerable: halved" if value else "defenseless", value - raw))
        return value, parts

    def attacks(self, actor_id: str) -> dict[str, Attack]:
        """The character's attacks by id."""
        return {_slug(a.name): a for a in self.block(actor_id).attacks}

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
        return [p for p in en.ranked(self.enc.participants) if p.present]

    # -------------------------------------------------------------- writing
    def emit(self, e: Any) -> None:
        """Apply an event now."""
        assert self._emit is not None
        self._emit(e)

    def say(self, actor: str, action: str, text: str, target: str | None = None,
            why: str = "", by: str = "player") -> None:
        """A line of the fight's story."""
        self.emit(FightActed(actor=actor, action=action, text=text, target=target, why=why,
                             by=by))

    def die(self, actor: str, what: str, odds: str = "") -> Die:
        """A d20 for ``actor``."""
        assert self._roll is not None
        return self._roll(actor, what, 20, odds)

    def ask(self, actor: str, question: str, options: list[dict[str, Any]],
            default: str) -> str:
        """The player's choice for a character the player plays; ``default`` otherwise."""
        assert self._roll is not None
        return self._roll.ask(actor, question, options, default)

    def check(self, actor: str, what: str, parts: list[tuple[str, int]], dc: int,
              against: str, *, routine: bool = False, hero_point: bool = False
              ) -> CheckResult:
        """A check, rolled (or routine) and explained."""
        modifier = sum(v for _, v in parts)
        nat20 = option(self.pack, "nat20_degree")
        odds = success_odds(modifier, dc, hero_point=hero_point, nat20_bonus=nat20)
        if routine:
            result = routine_check(modifier, dc)
            die = Die(10, "routine", self.state.dice_position)
        else:
            die = self.die(actor, what, f"{float(odds):.0%} to succeed")
            result = check(die.face, modifier, dc, hero_point=hero_point, nat20_bonus=nat20)
        self.emit(FightRolled(
            actor=actor, what=what, natural=result.natural, parts=[list(p) for p in parts],
            total=result.total, against=dc, against_name=against, result=result.label,
            degree=result.degree, odds=float(odds), by=die.by, position=die.position))
        return result

    def change(self, actor_id: str, *, add: Iterable[Condition] = (),
               remove: Iterable[Condition] = (), damage: int | None = None,
               why: str = "") -> None:
        """Change a character's lasting conditions or damage penalty."""
        actor = self.state.actors[actor_id]
        conds = [c for c in actor.conditions if c not in {r.value for r in remove}]
        for c in add:
            if c.value not in conds:
                conds.append(c.value)
        dmg = self.damage(actor_id) if damage is None else damage
        if conds != actor.conditions or dmg != self.damage(actor_id):
            self.emit(CombatantChanged(actor=actor_id, conditions=conds, damage=dmg, why=why))

    def timed(self, source: str, target: str, what: str, duration: en.DurationKind, *,
              anchor: str | None = None, rounds: int = 1, ongoing: bool = False,
              data: Mapping[str, int | str] | None = None) -> en.Effect:
        """Add a timed effect to the encounter."""
        enc, eff = en.add_effect(self.enc, source=source, target=target, what=what,
                                 duration=duration, anchor=anchor, rounds=rounds,
                                 ongoing=ongoing, data=data)
        self.set_enc(enc)
        return eff

    def condition_for(self, source: str, target: str, condition: Condition,
                      duration: en.DurationKind, *, anchor: str | None = None,
                      rounds: int = 1, ongoing: bool = False,
                      data: Mapping[str, int | str] | None = None) -> en.Effect:
        """A timed condition on ``target``."""
        return self.timed(source, target, condition.value, duration, anchor=anchor,
                          rounds=rounds, ongoing=ongoing,
                          data={"kind": "condition", **(data or {})})

    def bonus_for(self, source: str, target: str, what: str, value: int, label: str,
                  duration: en.DurationKind, *, against: str = "",
                  anchor: str | None = None) -> en.Effect:
        """A timed bonus (or penalty) to ``what`` of ``target``."""
        return self.timed(source, target, f"{label}", duration, anchor=anchor,
                          data={"kind": "bonus", "what": what, "value": value,
                                "label": label, "against": against})

    def end_effects(self, keep: Callable[[en.Effect], bool]) -> list[en.Effect]:
        """End every effect ``keep`` rejects; the ended ones."""
        gone = [e for e in self.enc.effects if not keep(e)]
        if gone:
            self.set_enc(self.enc.model_copy(update={
                "effects": tuple(e for e in self.enc.effects if keep(e))}))
        return gone

    def spend(self, actor: str, kind: str) -> None:
        """Pay for an action from the turn's budget."""
        self.set_enc(en.spend(self.enc, en.MM3E_BUDGET, actor, kind))

    def save(self) -> None:
        """Record the fight as it now stands."""
        self.emit(FightUpdated(fight=self.fight.model_dump(mode="json")))


_CONDITION_IDS = frozenset(c.value for c in Condition)


# ------------------------------------------------------------------ odds


def attack_parts(ctx: Ctx, actor: str, target: str, atk: Attack,
                 maneuvers: Mapping[str, int]) -> tuple[list[tuple[str, int]], int,
                                                         list[tuple[str, int]], str]:
    """An attack's modifiers with their sources, the defence class, the defence's parts and
    its name."""
    assert atk.bonus is not None
    parts: list[tuple[str, int]] = [(atk.name, atk.bonus)]
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


def odds_against(ctx: Ctx, actor: str, target: str, atk: Attack,
                 maneuvers: Mapping[str, int]) -> dict[str, Any]:
    """Exact odds of an attack on ``target``: to hit, a critical, and each resistance degree."""
    traded = trade_values(ctx, actor, atk, maneuvers)
    out: dict[str, Any] = {}
    if atk.range in ("close", "ranged"):
        parts, dc, _, _ = attack_parts(ctx, actor, target, atk, maneuvers)
        bonus = sum(v for _, v in parts)
        o = at.attack_odds(bonus, dc, can_crit=not (ctx.minion(actor)
                                                     and not ctx.minion(target)))
        out["hit"] = float(o["hit"] + o["critical"])
        out["critical"] = float(o["critical"])
        out["defense_class"] = dc
    else:
        out["hit"] = 1.0
        out["critical"] = 0.0
    rparts, rdc = resist_parts(ctx, target, atk, traded.effect)
    mod = sum(v for _, v in rparts)
    out["resist_dc"] = rdc
    out["resist"] = {str(d): float(p) for d, p in degree_odds(mod, rdc).items()}
    fail = sum((p for d, p in degree_odds(mod, rdc).items() if d < 0), Fraction(0))
    out["effect"] = float(Fraction(out["hit"]).limit_denominator(1000) * fail)
    return out


# ------------------------------------------------------------------ the damage ladder


def _damage_state(ctx: Ctx, target: str) -> DamageState:
    conds = {C(c) for c in ctx.state.actors[target].conditions if c in
             {d.value for d in DAMAGE_LASTING}}
    if any(e.what == C.DAZED.value and e.data.get("damage") for e in ctx.effects_on(target)):
        conds.add(C.DAZED)
    return DamageState(-ctx.damage(target), frozenset(conds))


def land(ctx: Ctx, attacker: str, target: str, atk: Attack, rank: int, *,
         dc_bonus: int = 0, finishing_kill: bool = False, critical_note: str = "") -> None:
    """The target resists an attack that reached it, and the result is applied."""
    parts, dc = resist_parts(ctx, target, atk, rank)
    base = dc - rank
    dc += dc_bonus
    what = f"resists {atk.name}" + (f" ({critical_note})" if critical_note else "")
    result = ctx.check(target, what, parts, dc, f"{base} + rank {rank}"
                       + (f" + {dc_bonus}" if dc_bonus else ""))
    if atk.effect == "damage" and atk.resisted_by == "toughness":
        before = _damage_state(ctx, target)
        hit = apply_resistance(before, result.degree, minion=ctx.minion(target),
                               finishing_kill=finishing_kill)
        after = hit.state
        lasting = [c for c in DAMAGE_LASTING if after.has(c)]
        removed = [c for c in DAMAGE_LASTING if before.has(c) and not after.has(c)]
        if after.has(C.DAZED) and not before.has(C.DAZED):
            ctx.condition_for(attacker, target, C.DAZED, "end_of_next_turn",
                              data={"damage": 1})
        why = _ladder_words(ctx.name(target), hit.applied.value, -after.penalty,
                            ctx.minion(target))
        ctx.change(target, add=lasting, remove=removed, damage=-after.penalty, why=why)
        return
    # afflictions and the like: conditions by degree of failure
    if result.degree > 0:
        return
    ladder = [C(c) for c in atk.conditions] or list(AFFLICTION_DEFAULT)
    degree = min(-result.degree, 3)
    if ctx.minion(target):
        degree = 3
    imposed = ladder[degree - 1]
    rank_dc = resistance_dc(rank)
    if degree >= 3:
        ctx.change(target, add=[imposed], why=f"{ctx.name(target)} is {imposed.value}"
                   f" by {atk.name} until recovery")
    else:
        ctx.condition_for(attacker, target, imposed, "recovery", ongoing=True,
                          data={"dc": rank_dc, "resist": atk.resisted_by,
                                "attack": atk.name, "degree": degree})
        ctx.change(target, why="")
        ctx.say(target, "afflicted", f"{ctx.name(target)} is {imposed.value} by {atk.name}"
                f" (resists again at the end of each turn).", by="engine")


def _ladder_words(name: str, applied: str, damage: int, minion: bool) -> str:
    if applied == "none":
        return f"{name} shrugs it off"
    if minion:
        return f"{name} (a minion) is taken out"
    if applied == "penalty":
        return f"{name} is bruised: -{damage} on Toughness checks"
    return f"{name} is {applied}" + (f" (-{damage} on Toughness checks)" if damage else "")


# ------------------------------------------------------------------ actions


@dataclass(frozen=True, slots=True)
class ActionRule:
    """An action the fight engine runs: its cost, whether it needs a target (a foe, an ally,
    or none), and its handler."""

    id: str
    cost: str
    target: str  # "foe" | "ally" | "none"
    handler: Callable[[Ctx, Pending], None]
    needs_attack: bool = False
    needs: str = ""
    """An option the player must give, by name ("item": which item; "action": which one)."""


HANDLERS: dict[str, ActionRule] = {}

DeclareHook = Callable[["MM3EConflict", CampaignState, str, str, "str | None", "str | None",
                        Mapping[str, int], Mapping[str, Any]], "Pending | None"]
OptionsHook = Callable[["MM3EConflict", CampaignState, str, list[dict[str, Any]]],
                       list[dict[str, Any]]]
DECLARE_HOOKS: list[DeclareHook] = []
"""Declarations a module adds (fight_more: readied actions, counters off one's turn): a hook
returns the pending action it takes charge of, or None for the ordinary checks."""
OPTIONS_HOOKS: list[OptionsHook] = []
"""Filters of the options list a module adds (fight_more: what makes no sense now)."""


def action(id_: str, cost: str, target: str = "none", needs_attack: bool = False,
           needs: str = "") -> Callable[[Callable[[Ctx, Pending], None]],
                                        Callable[[Ctx, Pending], None]]:
    """Register an action handler."""

    def deco(fn: Callable[[Ctx, Pending], None]) -> Callable[[Ctx, Pending], None]:
        HANDLERS[id_] = ActionRule(id_, cost, target, fn, needs_attack, needs)
        return fn

    return deco


def _attack_of(ctx: Ctx, p: Pending) -> Attack:
    atks = ctx.attacks(p.actor)
    if not atks:
        raise IllegalAction(f"{ctx.name(p.actor)} has no attack")
    if p.attack is None:
        return next(iter(atks.values()))
    if p.attack not in atks:
        raise IllegalAction(f"{ctx.name(p.actor)} has no attack {p.attack!r}"
                            f" (has: {', '.join(atks)})")
    return atks[p.attack]


def _targets_for_area(ctx: Ctx, p: Pending) -> list[str]:
    if p.target:
        return [p.target]
    return ctx.foes(p.actor)


def _strike(ctx: Ctx, p: Pending, atk: Attack, *, extra: list[tuple[str, int]] | None = None,
            label: str = "attack", team_rank: int | None = None) -> bool:
    """One attack roll and its consequence on the pending target; whether it hit."""
    actor, target = p.actor, p.target
    traded = trade_values(ctx, actor, atk, p.maneuvers)
    rank = team_rank if team_rank is not None else traded.effect
    if atk.range in ("perception", "area"):
        for t in _targets_for_area(ctx, p):
            r = rank
            if atk.range == "area":
                dodge = ctx.block(t).defenses.dodge
                dparts = [("Dodge", dodge)]
                cover = _obscurement(p.options, "cover")
                if cover is not at.Obscurement.NONE:
                    dparts.append((f"{cover.value} cover", at.cover_dodge_bonus(cover)))
                pen = check_penalty(ctx.conditions(t))
                if pen:
                    dparts.append(("impaired" if pen == -2 else "disabled", pen))
                res = ctx.check(t, f"dodges {atk.name}", dparts,
                                at.area_dodge_dc(rank), f"10 + rank {rank}")
                r = at.area_rank(rank, res.success)
            land(ctx, actor, t, atk, r)
        return True
    assert target is not None  # an area attack may have none: every foe is in it
    parts, dc, dparts, dname = attack_parts(ctx, actor, target, atk, p.maneuvers)
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
        die = ctx.die(actor, f"{label} on {ctx.name(target)}", f"{hit_p:.0%} to hit")
        if defend is not None:
            active, _ = ctx.defense(target, dname.lower())
            droll = ctx.die(target, "defends", "")
            dc = defend_result(droll.face, active)
            dparts = [(f"{ctx.name(target)} defends: d20 {droll.face}"
                       f"{' (+10)' if droll.face <= 10 else ''} + {dname} {active}", dc)]
        result = at.attack(die.face, bonus, dc, can_crit=can_crit)
    ctx.emit(FightRolled(
        actor=actor, what=f"{label} on {ctx.name(target)} with {atk.name}",
        natural=result.natural, parts=[list(x) for x in parts], total=result.total,
        against=dc, against_name=_defense_words(dname, dparts),
        result=result.outcome, degree=1 if result.hit else -1, odds=hit_p, by=die.by,
        position=die.position))
    if not result.hit:
        return False
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
        return True
    elif result.critical:
        crit_bonus, note = at.CRIT_INCREASED_EFFECT, "critical: +5"
    if ctx.minion(target) and not ctx.minion(actor) and p.options.get("kill"):
        ctx.change(target, add=[C.DEAD], why=f"{ctx.name(target)} (a minion) is killed")
        return True
    land(ctx, actor, target, atk, rank, dc_bonus=crit_bonus,
         finishing_kill=finishing and bool(p.options.get("kill")), critical_note=note)
    return True


def _can_crit(ctx: Ctx, actor: str, target: str) -> bool:
    """Whether ``actor``'s attack check on ``target`` can be a critical (a minion attacking a
    non-minion cannot, D.3)."""
    return not (ctx.minion(actor) and not ctx.minion(target))


def _defense_words(name: str, parts: list[tuple[str, int]]) -> str:
    """A defence class in words: ``10 + Parry 8``, ``10 + Dodge 10 - 5 vulnerable: halved``."""
    if parts and parts[0][0] == name:
        rest = " ".join(f"{'+' if v >= 0 else '-'} {abs(v)} {n}" for n, v in parts[1:])
        return f"10 + {name} {parts[0][1]}" + (f" {rest}" if rest else "")
    return ", ".join(f"{n}" for n, _ in parts) or name


def attack_roll(ctx: Ctx, actor: str, target: str, what: str, atk: Attack,
                extra: Sequence[tuple[str, int]] = ()) -> at.AttackResult:
    """An attack check on ``target`` (its Parry or Dodge by range) with ``extra`` modifiers,
    rolled and explained."""
    parts, dc, dparts, dname = attack_parts(ctx, actor, target, atk, {})
    parts += list(extra)
    bonus = sum(v for _, v in parts)
    can_crit = _can_crit(ctx, actor, target)
    odds = at.attack_odds(bonus, dc, can_crit=can_crit)
    hp = float(odds["hit"] + odds["critical"])
    die = ctx.die(actor, what, f"{hp:.0%} to hit")
    res = at.attack(die.face, bonus, dc, can_crit=can_crit)
    ctx.emit(FightRolled(actor=actor, what=what, natural=die.face,
                         parts=[list(x) for x in parts], total=res.total, against=dc,
                         against_name=_defense_words(dname, dparts), result=res.outcome,
                         odds=hp, by=die.by, position=die.position,
                         degree=1 if res.hit else -1))
    return res


def _obscurement(options: Mapping[str, Any], key: str) -> at.Obscurement:
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
        ob = _obscurement(options, key)
        pen = at.obscurement_penalty(ob)
        if pen is None:
            raise IllegalAction(f"complete {key}: the target cannot be attacked")
        if pen:
            parts.append((f"{ob.value} {key}", pen))
    return parts


def _trade_effects(ctx: Ctx, p: Pending, atk: Attack) -> None:
    """Trade maneuvers change Dodge and Parry until the start of the attacker's next turn."""
    block = ctx.block(p.actor)
    traded = trade_values(ctx, p.actor, atk, p.maneuvers)
    for which in ("dodge", "parry"):
        delta = getattr(traded, which) - getattr(block.defenses, which)
        if delta:
            label = "all-out attack" if delta < 0 else "defensive attack"
            ctx.bonus_for(p.actor, p.actor, which, delta, label, "start_of_next_turn")


def _spend_aim(ctx: Ctx, actor: str) -> None:
    ctx.end_effects(lambda e: not (e.target == actor and e.data.get("aim")))


@action("attack", "standard", "foe", needs_attack=True)
def _attack(ctx: Ctx, p: Pending) -> None:
    atk = _attack_of(ctx, p)
    if atk.range not in ("area",) and p.target is None:
        raise IllegalAction("attack whom?")
    ctx.spend(p.actor, "standard")
    if p.team:
        _team_attack(ctx, p, atk)
    else:
        _strike(ctx, p, atk)
    _spend_aim(ctx, p.actor)
    _trade_effects(ctx, p, atk)
    ctx.end_effects(lambda e: not (e.what == "feinted" and e.source == p.actor
                                   and e.target == p.target))


def _team_attack(ctx: Ctx, p: Pending, atk: Attack) -> None:
    """A team attack: each joining minion rolls to hit; the best rank among the hits gets the
    others' degrees as a bonus (D.7); the joiners' turns this round are used up."""
    assert p.target is not None
    hits: list[mv.TeamHit] = []
    for member in [p.actor, *p.team]:
        m_atk = _attack_of(ctx, Pending(actor=member, action="attack", target=p.target,
                                        attack=None))
        parts, dc, dparts, dname = attack_parts(ctx, member, p.target, m_atk, {})
        bonus = sum(v for _, v in parts)
        can_crit = not (ctx.minion(member) and not ctx.minion(p.target))
        odds = at.attack_odds(bonus, dc, can_crit=can_crit)
        hp = float(odds["hit"] + odds["critical"])
        die = ctx.die(member, f"team attack on {ctx.name(p.target)}", f"{hp:.0%} to hit")
        res = at.attack(die.face, bonus, dc, can_crit=can_crit)
        degrees = max(1, 1 + (res.total - dc) // 5) if res.hit else 0
        ctx.emit(FightRolled(actor=member, what=f"team attack on {ctx.name(p.target)}",
                             natural=die.face, parts=[list(x) for x in parts], total=res.total,
                             against=dc, against_name=_defense_words(dname, dparts),
                             result=res.outcome,
                             degree=degrees if res.hit else -1, odds=hp, by=die.by,
                             position=die.position))
        hits.append(mv.TeamHit(m_atk.rank, res.hit, degrees))
        if member != p.actor:  # its turn this round is used up
            parts_ = tuple(x.model_copy(update={"last_round": ctx.enc.round})
                           if x.actor == member else x for x in ctx.enc.participants)
            ctx.set_enc(ctx.enc.model_copy(update={"participants": parts_}))
    rank = mv.team_attack_rank(hits)
    if rank is None:
        ctx.say(p.actor, "team_attack", "The team attack misses.", p.target, by="engine")
        return
    ctx.say(p.actor, "team_attack", f"The team attack lands at rank {rank}.", p.target,
            by="engine")
    land(ctx, p.actor, p.target, atk, rank)


@action("charge", "standard", "foe", needs_attack=True)
def _charge(ctx: Ctx, p: Pending) -> None:
    atk = _attack_of(ctx, p)
    if atk.range != "close":
        raise IllegalAction(f"a charge ends in a close attack; {atk.name} is {atk.range.value}")
    if C.IMMOBILE in ctx.conditions(p.actor):
        raise IllegalAction(f"{ctx.name(p.actor)} is immobile and cannot charge")
    ctx.spend(p.actor, "standard")
    if p.options.get("slam"):
        block = ctx.block(p.actor)
        speed = max(block.speed.values(), default=0)
        full = bool(p.options.get("full_speed"))
        rank = mv.slam_rank(speed, atk.rank, full_speed=full, cap=block.power_level)
        hit = _strike(ctx, p, atk, extra=[("charge", -2)], label="slam",
                      team_rank=rank)
        if hit:
            self_rank = mv.slam_self_rank(rank)
            ctx.say(p.actor, "slam", f"{ctx.name(p.actor)} takes the slam's own force"
                    f" (rank {self_rank}).", by="engine")
            land(ctx, p.target or p.actor, p.actor,
                 Attack(name="the slam", range=at.AttackRange.CLOSE, bonus=0,
                        rank=self_rank), self_rank)
    else:
        _strike(ctx, p, atk, extra=[("charge", -2)], label="charge")
    _spend_aim(ctx, p.actor)


@action("aim", "standard")
def _aim(ctx: Ctx, p: Pending) -> None:
    atk = _attack_of(ctx, p)
    ctx.spend(p.actor, "standard")
    value = 5 if atk.range == "close" or p.options.get("point_blank") else 2
    ctx.timed(p.actor, p.actor, "aiming", "end_of_next_turn",
              data={"kind": "bonus", "what": "attack", "value": value, "label": "aim",
                    "aim": 1})
    ctx.condition_for(p.actor, p.actor, C.VULNERABLE, "end_of_next_turn", data={"aim": 1})
    ctx.say(p.actor, "aim", f"{ctx.name(p.actor)} takes aim: +{value} on the next attack,"
            " vulnerable meanwhile.")


@action("defend", "standard")
def _defend(ctx: Ctx, p: Pending) -> None:
    ctx.spend(p.actor, "standard")
    ctx.timed(p.actor, p.actor, "defending", "start_of_next_turn", data={"kind": "defend"})
    ctx.say(p.actor, "defend", f"{ctx.name(p.actor)} goes on the defensive: attacks on them"
            " are opposed by a defense roll until their next turn.")


@action("recover", "standard")
def _recover(ctx: Ctx, p: Pending) -> None:
    if p.actor in ctx.fight.recovered:
        raise IllegalAction(f"{ctx.name(p.actor)} has already recovered once this fight")
    ctx.spend(p.actor, "standard")  # the whole turn: the move too, when one is left
    if ctx.enc.budget.get("move", 0) > 0:
        ctx.spend(p.actor, "move")
    state = _damage_state(ctx, p.actor)
    worst = state.worst
    if worst is C.DAZED:
        ctx.end_effects(lambda e: not (e.target == p.actor and e.what == C.DAZED.value
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
    ctx.fight = ctx.fight.model_copy(update={"recovered": [*ctx.fight.recovered, p.actor]})
    ctx.say(p.actor, "recover", f"{ctx.name(p.actor)} takes a moment and {text}"
            " (+2 Dodge and Parry until their next turn).")


@action("stand", "move")
def _stand(ctx: Ctx, p: Pending) -> None:
    if C.PRONE.value not in ctx.state.actors[p.actor].conditions:
        raise IllegalAction(f"{ctx.name(p.actor)} is not prone")
    ctx.spend(p.actor, "move")
    ctx.change(p.actor, remove=[C.PRONE], why=f"{ctx.name(p.actor)} gets up")


@action("drop_prone", "free")
def _drop_prone(ctx: Ctx, p: Pending) -> None:
    ctx.change(p.actor, add=[C.PRONE], why=f"{ctx.name(p.actor)} drops prone")


@action("move", "move")
def _move(ctx: Ctx, p: Pending) -> None:
    if C.IMMOBILE in ctx.conditions(p.actor):
        raise IllegalAction(f"{ctx.name(p.actor)} is immobile")
    ctx.spend(p.actor, "move")
    where = str(p.options.get("to", "")).strip()
    ctx.say(p.actor, "move", f"{ctx.name(p.actor)} moves" + (f" {where}" if where else "")
            + ".")


def _opposed_skill(ctx: Ctx, actor: str, skill: str, target: str,
                   defenses: Sequence[str]) -> CheckResult:
    block, tblock = ctx.block(actor), ctx.block(target)
    bonus = block.skills.get(skill, getattr(block.abilities, _SKILL_ABILITY.get(
        skill, "presence")))
    best = max(defenses, key=lambda d: _trait(tblock, d))
    dc = 10 + _trait(tblock, best)
    parts = [(skill, bonus)]
    pen = check_penalty(ctx.conditions(actor))
    if pen:
        parts.append(("condition", pen))
    return ctx.check(actor, f"{skill.lower()} against {ctx.name(target)}", parts, dc,
                     f"10 + {best} {_trait(tblock, best)}")


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
    res = _opposed_skill(ctx, p.actor, "Intimidation", p.target, ("Insight", "Will"))
    got = mv.demoralize_result(res.degree)
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
    res = _opposed_skill(ctx, p.actor, "Deception", p.target, ("Deception", "Insight"))
    if mv.feint_result(res.degree) is None:
        ctx.say(p.actor, "feint", f"{ctx.name(p.target)} does not fall for it.", p.target)
        return
    ctx.timed(p.actor, p.target, "feinted", "end_of_next_turn", anchor=p.actor,
              data={"kind": "feint"})
    ctx.say(p.actor, "feint", f"{ctx.name(p.target)} is wrong-footed: vulnerable to"
            f" {ctx.name(p.actor)}'s next attack.", p.target)


@action("aid", "standard", "ally")
def _aid(ctx: Ctx, p: Pending) -> None:
    assert p.target is not None
    foe = str(p.options.get("against") or next(iter(ctx.foes(p.actor)), ""))
    if not foe:
        raise IllegalAction("aid against whom? no foe is left")
    atk = _attack_of(ctx, p)
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
            _release(ctx, p.target)
        return
    degrees = -r.degree + (int(old["degrees"]) if mine and old is not None else 0)
    cond = C.BOUND if degrees >= 2 else C.RESTRAINED
    holds = dict(ctx.fight.holds)
    holds[p.target] = {**(old if mine and old is not None else {}), "by": p.actor,
                       "strength": strength, "degrees": degrees}
    ctx.fight = ctx.fight.model_copy(update={"holds": holds})
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
    _release(ctx, p.actor)


def _release(ctx: Ctx, held: str) -> None:
    """End a hold: the held one is free, its grabber no longer hindered and vulnerable."""
    holds = dict(ctx.fight.holds)
    holds.pop(held, None)
    ctx.fight = ctx.fight.model_copy(update={"holds": holds})
    ctx.end_effects(lambda e: e.data.get("hold") != held)
    ctx.change(held, remove=[C.RESTRAINED, C.BOUND], why=f"{ctx.name(held)} is free")


@action("release", "free", "foe")
def _release_action(ctx: Ctx, p: Pending) -> None:
    held = [t for t, h in ctx.fight.holds.items() if h.get("by") == p.actor]
    if not held:
        raise IllegalAction(f"{ctx.name(p.actor)} holds nobody")
    _release(ctx, p.target if p.target in held else held[0])


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
    mine, theirs = footing(ctx, p.actor), footing(ctx, p.target)
    r = ctx.check(p.target, "keeps their feet", [("Acrobatics or Athletics", theirs)],
                  10 + mine, f"10 + {ctx.name(p.actor)}'s {mine}")
    if r.degree <= 0:
        ctx.change(p.target, add=[C.PRONE], why=f"{ctx.name(p.target)} goes down prone")


@action("delay", "none")
def _delay(ctx: Ctx, p: Pending) -> None:
    adv = en.delay(ctx.enc, en.MM3E_BUDGET)
    ctx.set_enc(adv.encounter)
    ctx.say(p.actor, "delay", f"{ctx.name(p.actor)} waits for the right moment.")
    _after_advance(ctx, adv)


@action("surrender", "none")
def _surrender(ctx: Ctx, p: Pending) -> None:
    _leave(ctx, p, "surrendered", "gives up the fight")


@action("flee", "move")
def _flee(ctx: Ctx, p: Pending) -> None:
    if C.IMMOBILE in ctx.conditions(p.actor):
        raise IllegalAction(f"{ctx.name(p.actor)} is immobile and cannot flee")
    _leave(ctx, p, "fled", "breaks away and flees")


def _leave(ctx: Ctx, p: Pending, how: str, words: str) -> None:
    ctx.fight = ctx.fight.model_copy(update={"out": {**ctx.fight.out, p.actor: how}})
    ctx.say(p.actor, how, f"{ctx.name(p.actor)} {words}.", why=p.why, by=p.by)
    adv = en.leave(ctx.enc, p.actor, en.MM3E_BUDGET)
    ctx.set_enc(adv.encounter)
    _after_advance(ctx, adv)


@action("end_turn", "none")
def _end_turn_action(ctx: Ctx, p: Pending) -> None:
    if p.by == "referee":  # the referee says why its character stops
        ctx.say(p.actor, "end_turn", p.why or f"{ctx.name(p.actor)} ends the turn.", by="referee")
    _next(ctx)


# ------------------------------------------------------------------ turns


def _can_act(ctx: Ctx, actor: str) -> str | None:
    """Why ``actor`` cannot act this turn, or None."""
    if ctx.out(actor):
        return "is out of the fight"
    budget = action_budget(ctx.conditions(actor))
    if not budget.any:
        return "is stunned and cannot act"
    return None


def _begun(ctx: Ctx, adv: en.Advance) -> None:
    """A turn has begun: limit its budget by conditions, say so; skip those who cannot act."""
    fresh = False  # a new round began, maybe at a turn skipped (its first is out)
    for _ in range(len(ctx.enc.participants) * 3 + 3):
        started = adv.started
        fresh = fresh or adv.new_round
        if started is None:
            return
        why = _can_act(ctx, started)
        if why is None or not ctx.out(started):
            ctx.emit(TurnBegan(actor=started, round=ctx.enc.round, new_round=fresh))
            fresh = False
        if why is None:
            budget = action_budget(ctx.conditions(started))
            if (budget.standard, budget.move) != (1, 1):
                ctx.set_enc(en.restrict(ctx.enc, {"standard": budget.standard,
                                                  "move": budget.move}))
            return
        for held, hold in list(ctx.fight.holds.items()):  # it cannot keep its hold
            if hold.get("by") == started:
                _release(ctx, held)
        if not ctx.out(started):
            ctx.say(started, "skip", f"{ctx.name(started)} {why}.", by="engine")
        if _over(ctx):
            return
        adv = en.next_turn(ctx.enc, en.MM3E_BUDGET)
        ctx.set_enc(adv.encounter)
        _after_end(ctx, adv)
    raise IllegalAction("nobody in the fight can act")


def _after_end(ctx: Ctx, adv: en.Advance) -> None:
    """Ongoing effects resisted at the end of a turn (afflictions)."""
    for eff in adv.resist:
        if eff.data.get("kind") != "condition" or not ctx.enc.has(eff.target):
            continue
        which = str(eff.data.get("resist", "will"))
        block = ctx.block(eff.target)
        rank = getattr(block.defenses, which, 0) if which in (
            "toughness", "fortitude", "will", "dodge") else 0
        dc = int(eff.data.get("dc", 10))
        res = ctx.check(eff.target, f"shakes off {eff.what}", [(which.title(), rank)], dc,
                        f"10 + rank {dc - 10}")
        if res.success:
            ctx.set_enc(en.end_effect(ctx.enc, eff.id)[0])
            ctx.say(eff.target, "shake_off", f"{ctx.name(eff.target)} is no longer"
                    f" {eff.what}.", by="engine")


def _after_advance(ctx: Ctx, adv: en.Advance) -> None:
    _after_end(ctx, adv)
    _begun(ctx, adv)


def _over(ctx: Ctx) -> bool:
    sides = {side_of(ctx.state, p.actor) for p in ctx.enc.participants
             if p.present and not ctx.out(p.actor)}
    return len(sides) < 2


def _next(ctx: Ctx) -> None:
    adv = en.next_turn(ctx.enc, en.MM3E_BUDGET)
    ctx.set_enc(adv.encounter)
    if _over(ctx):
        return
    _after_advance(ctx, adv)


# ------------------------------------------------------------------ the conflict


def _downed_foe(ctx: Ctx, actor: str, target: str) -> bool:
    """A foe down but still there (incapacitated or dying, not dead, fled or surrendered): a
    finishing attack may still reach it (D.4: incapacitated -> dying -> dead)."""
    return (ctx.enc.has(target) and target not in ctx.fight.out
            and side_of(ctx.state, target) != side_of(ctx.state, actor)
            and C.DEAD not in ctx.conditions(target))


def _foe_detail(blk: StatBlock) -> str:
    what = f"{blk.count} minions" if blk.kind is Kind.MINION_GROUP else blk.kind.value
    return f"{what}, PL {blk.power_level}"


def _why_not(ctx: Ctx, actor: str, rule: ActionRule, mine: bool) -> str:
    """Why ``actor`` cannot take ``rule``'s action now, in a few words."""
    if not mine:
        return "not your turn"
    if rule.id == "recover" and actor in ctx.fight.recovered:
        return "already recovered this fight"
    if rule.id == "delay":
        return "too late to delay: you have acted"
    if rule.cost in ("standard", "move"):
        return f"no {rule.cost} action left"
    return "not now"


class MM3EConflict:
    """Mutants & Masterminds 3e fights (engine/rules/conflict.Conflict)."""

    initiative = "each"
    """Everyone rolls initiative once; a surprise round may open the fight."""

    def __init__(self, pack: Pack) -> None:
        self.pack = pack

    def _ctx(self, state: CampaignState, roll: Roll | None = None,
             emit: Emit | None = None) -> Ctx:
        return Ctx(self.pack, state, require_fight(state), roll, emit)

    # ---------------------------------------------------------- starting
    def _entrants(self, state: CampaignState, foes: Sequence[str], emit: Emit) -> list[str]:
        """The foes as actor ids, adding to the story those named by stat block id."""
        return add_foes(state, foes, {bid: FoeBlock(
            b.name, b.count if b.kind is Kind.MINION_GROUP else None,
            "minion" if b.kind is Kind.MINION_GROUP
            else "villain" if b.kind is Kind.VILLAIN else "hero_ally")
            for bid, b in characters(self.pack).items()}, emit)

    def _roll_initiative(self, state: CampaignState, ids: Sequence[str], roll: Roll,
                         surprised: Sequence[str]) -> tuple[list[en.Entrant],
                                                            list[dict[str, Any]]]:
        ctx_blocks = {a: block_of(self.pack, state.actors[a]) for a in ids}
        rolls: list[dict[str, Any]] = []
        by_group: dict[str, Die] = {}
        entrants: list[en.Entrant] = []
        for a in ids:
            block = ctx_blocks[a]
            if block is None:
                raise IllegalAction(f"{state.actors[a].name} has no stat block, so cannot"
                                    " fight (choose an archetype, or give it one)")
            group = str(state.actors[a].data.get("group", ""))
            if group and group in by_group:
                die = by_group[group]
            else:
                die = roll(a, "initiative", 20, "")
                if group:
                    by_group[group] = die
            total = die.face + block.initiative_bonus
            tb = (block.defenses.dodge, block.abilities.agility, block.abilities.awareness)
            sur = a in surprised or side_of(state, a) in surprised
            entrants.append(en.Entrant(actor=a, side=side_of(state, a), initiative=total,
                                       tiebreak=tb, surprised=sur))
            rolls.append({"actor": a, "name": state.actors[a].name, "natural": die.face,
                          "bonus": block.initiative_bonus, "total": total, "group": group,
                          "surprised": sur, "by": die.by, "position": die.position})
        # roll-offs for full ties (not within a group, which shares one roll)
        keys: dict[tuple[int, tuple[int, ...]], list[int]] = {}
        for i, e in enumerate(entrants):
            keys.setdefault((e.initiative, e.tiebreak), []).append(i)
        for tied in keys.values():
            groups = {str(state.actors[entrants[i].actor].data.get("group", "")) or
                      entrants[i].actor for i in tied}
            if len(groups) < 2:
                continue
            offs: dict[str, int] = {}
            for i in tied:
                g = str(state.actors[entrants[i].actor].data.get("group", "")) or \
                    entrants[i].actor
                if g not in offs:
                    offs[g] = roll(entrants[i].actor, "initiative roll-off", 20, "").face
                entrants[i] = entrants[i].model_copy(
                    update={"tiebreak": (*entrants[i].tiebreak, offs[g])})
                rolls[i]["rolloff"] = offs[g]
        return entrants, rolls

    def start(self, state: CampaignState, foes: Sequence[str], surprised: Sequence[str],
              roll: Roll, emit: Emit) -> None:
        """A new fight: the foes enter, everyone rolls initiative, the first turn begins."""
        if fight_of(state) is not None:
            raise IllegalAction("a fight is already under way")
        if not foes:
            raise IllegalAction("a fight needs at least one foe")
        foe_ids = self._entrants(state, foes, emit)
        heroes = [h for h in state.party if not state.actors[h].taken_out]
        allies = [a for a, x in state.actors.items() if x.present and x.kind == "npc"
                  and x.role in ("hero_ally", "ally") and a not in foe_ids
                  and block_of(self.pack, x) is not None]
        ids = list(dict.fromkeys([*heroes, *allies, *foe_ids]))
        entrants, rolls = self._roll_initiative(state, ids, roll, surprised)
        adv = en.start(f"fight{state.scene.number}_{state.event_no}", entrants,
                       spec=en.MM3E_BUDGET)
        fight = Fight(encounter=adv.encounter)
        pos = max((r["position"] for r in rolls), default=state.dice_position)
        names = ", ".join(state.actors[f].name for f in foe_ids)
        emit(FightStarted(fight=fight.model_dump(mode="json"), text=f"A fight breaks out"
                          f" against {names}."))
        emit(InitiativeRolled(rolls=rolls, position=pos))
        ctx = self._ctx(state, roll, emit)
        for e in entrants:
            if e.surprised:
                ctx.condition_for(e.actor, e.actor, C.SURPRISED, "round_start", rounds=1)
        _begun(ctx, adv)
        ctx.save()

    def join(self, state: CampaignState, who: str, roll: Roll, emit: Emit) -> None:
        """A late joiner rolls initiative and takes its place in the order."""
        fight = require_fight(state)
        ids = self._entrants(state, [who], emit)
        entrants, rolls = self._roll_initiative(state, ids, roll, ())
        enc = fight.encounter
        for e in entrants:
            enc = en.join(enc, e)
        pos = max((r["position"] for r in rolls), default=state.dice_position)
        emit(InitiativeRolled(rolls=rolls, position=pos))
        emit(FightUpdated(fight=fight.model_copy(update={"encounter": enc}).model_dump(
            mode="json")))

    # ---------------------------------------------------------- choosing
    def options(self, state: CampaignState, actor: str) -> list[dict[str, Any]]:
        """What ``actor`` may do now: each action with its cost, whether the budget allows it,
        and for attacks every target with the exact odds (then ``OPTIONS_HOOKS``)."""
        out = self.base_options(state, actor)
        for hook in OPTIONS_HOOKS:
            out = hook(self, state, actor, out)
        return out

    def base_options(self, state: CampaignState, actor: str) -> list[dict[str, Any]]:
        """The options before the hooks."""
        ctx = self._ctx(state)
        enc = ctx.enc
        out: list[dict[str, Any]] = []
        mine = enc.acting == actor
        for rule in HANDLERS.values():
            if rule.id == "end_turn":
                continue
            ok = mine and (rule.cost in ("none", "free")
                           or en.can(enc, en.MM3E_BUDGET, actor, rule.cost))
            if rule.id == "recover":
                ok = ok and actor not in ctx.fight.recovered and en.can(
                    enc, en.MM3E_BUDGET, actor, "standard")
            if rule.id == "stand" and C.PRONE.value not in state.actors[actor].conditions:
                continue
            if rule.id == "escape" and actor not in ctx.fight.holds:
                continue
            if rule.id == "release" and not any(h.get("by") == actor
                                                for h in ctx.fight.holds.values()):
                continue
            if rule.id == "delay" and not en.can_delay(enc):
                ok = False
            entry: dict[str, Any] = {"action": rule.id, "cost": rule.cost, "allowed": ok,
                                     "target": rule.target, "needs": rule.needs}
            if not ok:
                entry["why"] = _why_not(ctx, actor, rule, mine)
            if rule.needs_attack:
                for aid_, atk in ctx.attacks(actor).items():
                    if rule.id == "charge" and atk.range != "close":
                        continue
                    targets = [{"id": t, "name": ctx.name(t),
                                **odds_against(ctx, actor, t, atk, {})}
                               for t in ctx.foes(actor)]
                    out.append({**entry, "attack": aid_, "attack_name": atk.name,
                                "range": atk.range.value, "bonus": atk.bonus,
                                "rank": atk.rank, "resisted_by": atk.resisted_by,
                                "effect": atk.effect.value, "targets": targets})
                continue
            if rule.target == "foe":
                entry["targets"] = [{"id": t, "name": ctx.name(t)} for t in ctx.foes(actor)]
            elif rule.target == "ally":
                entry["targets"] = [{"id": t, "name": ctx.name(t)} for t in ctx.allies(actor)]
            out.append(entry)
        return out

    def odds(self, state: CampaignState, actor: str, attack: str, target: str,
             maneuvers: Mapping[str, int]) -> dict[str, Any]:
        """The exact odds of ``actor``'s ``attack`` on ``target`` with these maneuvers
        (``IllegalAction`` when a maneuver breaks its limits)."""
        ctx = self._ctx(state)
        atks = ctx.attacks(actor)
        if attack not in atks:
            raise IllegalAction(f"{ctx.name(actor)} has no attack {attack!r}")
        return odds_against(ctx, actor, target, atks[attack],
                            {k: v for k, v in maneuvers.items() if v})

    def foe_options(self, state: CampaignState) -> list[dict[str, Any]]:
        """Who a fight may be against: present NPCs with a stat block, then the pack's
        villains and minion groups not yet in play (by block id); each {id, label, detail}."""
        return foe_list(state, lambda: characters(self.pack),
                        lambda npc: block_of(self.pack, npc),
                        lambda blk: blk.kind is Kind.HERO, _foe_detail)

    def declare(self, state: CampaignState, actor: str, action: str, target: str | None,
                attack: str | None, maneuvers: Mapping[str, int], options: Mapping[str, Any]
                ) -> Pending:
        """Check the action is one this actor can take now (a ``DECLARE_HOOKS`` hook may take
        charge of it first)."""
        for hook in DECLARE_HOOKS:
            found = hook(self, state, actor, action, target, attack, maneuvers, options)
            if found is not None:
                return found
        return self.base_declare(state, actor, action, target, attack, maneuvers, options)

    def base_declare(self, state: CampaignState, actor: str, action: str, target: str | None,
                     attack: str | None, maneuvers: Mapping[str, int],
                     options: Mapping[str, Any]) -> Pending:
        """The ordinary checks of a declared action: its turn, its budget, its target."""
        ctx = self._ctx(state)
        if action not in HANDLERS:
            raise IllegalAction(f"unknown action {action!r} (actions: {', '.join(HANDLERS)})")
        if ctx.enc.acting != actor:
            who = ctx.name(ctx.enc.acting) if ctx.enc.acting else "nobody"
            raise IllegalAction(f"it is {who}'s turn, not {ctx.name(actor)}'s")
        rule = HANDLERS[action]
        if rule.cost not in ("none", "free") and not en.can(ctx.enc, en.MM3E_BUDGET, actor,
                                                              rule.cost):
            raise IllegalAction(f"{ctx.name(actor)} has no {rule.cost} action left this turn")
        if rule.target == "foe" and target is None and not (
                rule.needs_attack and attack and ctx.attacks(actor).get(attack) is not None
                and ctx.attacks(actor)[attack].range == "area") and action != "release":
            foes = ctx.foes(actor)
            if len(foes) == 1:
                target = foes[0]
            else:
                raise IllegalAction(f"{action}: whom? ({', '.join(ctx.name(f) for f in foes)})")
        if rule.target == "ally" and target is None:
            allies = ctx.allies(actor)
            if len(allies) != 1:
                raise IllegalAction(f"{action}: which ally? ("
                                    f"{', '.join(ctx.name(a) for a in allies) or 'none left'})")
            target = allies[0]
        if target is not None:
            if target not in state.actors:
                raise IllegalAction(f"no character {target!r}")
            if rule.target == "foe" and target not in ctx.foes(actor) and not (
                    rule.needs_attack and options.get("finishing")
                    and _downed_foe(ctx, actor, target)):
                raise IllegalAction(f"{ctx.name(target)} is not a foe still in the fight")
            if rule.target == "ally" and target not in ctx.allies(actor):
                raise IllegalAction(f"{ctx.name(target)} is not an ally still in the fight")
        for m in maneuvers:
            if m not in TRADES:
                raise IllegalAction(f"unknown maneuver {m!r} (maneuvers: {', '.join(TRADES)})")
        pending = Pending(actor=actor, action=action, target=target, attack=attack,
                          maneuvers=dict(maneuvers), options=dict(options))
        if rule.needs_attack:
            atk = _attack_of(ctx, pending)
            trade_values(ctx, actor, atk, maneuvers)  # limits checked now
        return pending

    def resolve(self, state: CampaignState, pending: Pending, roll: Roll, emit: Emit) -> None:
        """Carry out the action; the fight saved after it."""
        ctx = self._ctx(state, roll, emit)
        ctx.fight = ctx.fight.settled()
        rule = HANDLERS[pending.action]
        if rule.cost == "free" and ctx.enc.acting != pending.actor:
            raise IllegalAction("not your turn")
        rule.handler(ctx, pending)
        ctx.save()

    def end_turn(self, state: CampaignState, roll: Roll, emit: Emit) -> None:
        """End the acting character's turn."""
        ctx = self._ctx(state, roll, emit)
        ctx.fight = ctx.fight.settled()
        _next(ctx)
        ctx.save()

    def referee(self, state: CampaignState, actor: str) -> Pending:
        """The referee's choice for ``actor`` (engine/systems/mm3e/referee.py), as a pending
        action with its reason; an action the budget cannot pay becomes the end of the turn."""
        ctx = self._ctx(state)
        choice = rf.choose(situation(ctx, actor))
        action = "attack" if choice.action == "team_attack" else choice.action
        pending = Pending(actor=actor, action=action, target=choice.target,
                          attack=choice.attack, maneuvers=dict(choice.maneuvers),
                          team=list(choice.team), why=choice.why, by="referee",
                          options={"routine": True} if choice.routine else {})
        rule = HANDLERS.get(action)
        if rule is None or (rule.cost not in ("none", "free")
                            and not en.can(ctx.enc, en.MM3E_BUDGET, actor, rule.cost)):
            return Pending(actor=actor, action="end_turn", why=choice.why, by="referee")
        return pending

    def words(self) -> dict[str, dict[str, Any]]:
        """Each action's and maneuver's name, summary and example fictions."""
        return action_words(self.pack)

    def ended(self, state: CampaignState, emit: Emit) -> None:
        """Nothing happens at a fight's end: M&M's damage stays until recovery (rest)."""

    def finished(self, state: CampaignState) -> str | None:
        """'heroes' or 'villains' when only one side has anyone left who can act."""
        fight = fight_of(state)
        if fight is None:
            return None
        return standing_side(state, fight, Ctx(self.pack, state, fight, None, None).out)

    def tracker(self, state: CampaignState) -> list[dict[str, Any]]:
        """One row per character in turn order: initiative, side, conditions, damage."""
        fight = require_fight(state)
        ctx = Ctx(self.pack, state, fight, None, None)
        enc = fight.encounter
        order = en.listed(enc)
        rows = []
        for a in order:
            p = enc.participant(a)
            actor = state.actors[a]
            conds = sorted(c.value for c in ctx.conditions(a)
                           if c.value in actor.conditions or any(
                               e.what == c.value for e in ctx.effects_on(a)))
            rows.append({"actor": a, "name": actor.name, "side": p.side,
                         "initiative": p.initiative, "acting": enc.acting == a,
                         "conditions": conds, "damage": ctx.damage(a),
                         "control": fight.controller(actor),
                         "out": fight.out.get(a) or ("down" if ctx.out(a) else ""),
                         "present": p.present, "held": p.held or "",
                         "acted": p.last_round == enc.round and enc.acting != a})
        return rows


def fighter(ctx: Ctx, actor: str) -> rf.Fighter:
    """A character as the referee sees it."""
    block = ctx.block(actor)
    group = ctx.state.actors[actor].data.get("group")
    return rf.Fighter(
        id=actor, name=ctx.name(actor), side=side_of(ctx.state, actor),
        kind="minion" if block.minion else block.kind.value,
        group=str(group) if group else None, power_level=block.power_level,
        conditions=frozenset(c.value for c in ctx.conditions(actor)),
        damage=ctx.damage(actor), out=ctx.out(actor),
        dodge=block.defenses.dodge, parry=block.defenses.parry,
        toughness=block.defenses.toughness, fortitude=block.defenses.fortitude,
        will=block.defenses.will,
        attacks=tuple(rf.AttackOption(id=aid, name=a.name, range=a.range.value,
                                      bonus=a.bonus or 0, rank=a.rank, effect=a.effect.value,
                                      resisted_by=a.resisted_by, conditions=tuple(a.conditions))
                      for aid, a in ctx.attacks(actor).items()),
        skills=dict(block.skills), advantages=frozenset(a.name for a in block.advantages),
        recovered=actor in ctx.fight.recovered, grabbed=actor in ctx.fight.holds)


def _as_seen_by(ctx: Ctx, actor: str, foe: rf.Fighter) -> rf.Fighter:
    """A foe as ``actor`` sees it: vulnerable to it after its feint."""
    if any(e.what == "feinted" and e.source == actor for e in ctx.effects_on(foe.id)):
        return replace(foe, conditions=foe.conditions | {C.VULNERABLE.value})
    return foe


def situation(ctx: Ctx, actor: str) -> rf.Situation:
    """The fight as the referee sees it on ``actor``'s turn."""
    enc = ctx.enc
    side = side_of(ctx.state, actor)
    order = [p.actor for p in en.ranked(enc.participants) if p.present]
    allies = tuple(fighter(ctx, a) for a in order if a != actor
                   and side_of(ctx.state, a) == side)
    foes = tuple(_as_seen_by(ctx, actor, fighter(ctx, a)) for a in order
                 if side_of(ctx.state, a) != side)
    group = ctx.state.actors[actor].data.get("group")
    ready: tuple[str, ...] = ()
    if group:
        ready = tuple(a for a in order if a == actor or (
            ctx.state.actors[a].data.get("group") == group and not ctx.out(a)
            and enc.participant(a).last_round != enc.round))
    return rf.Situation(me=fighter(ctx, actor), allies=allies, foes=foes, round=enc.round,
                        budget=dict(enc.budget), group_ready=ready)


ACTIONS_FILE = "actions.yaml"



def action_words(pack: Pack) -> dict[str, dict[str, Any]]:
    """The pack's words for fight actions and maneuvers (``actions.yaml``): id -> {name,
    summary, examples, kind ("action" or "maneuver")}; an action the file does not name gets
    its id as its name (the file is read once per version; the actions are those registered
    now)."""
    loaded = read_by_mtime(pack.path / ACTIONS_FILE, read_yaml)
    raw: dict[str, Any] = loaded if isinstance(loaded, dict) else {}
    out: dict[str, dict[str, Any]] = {}
    for kind, ids in (("action", list(HANDLERS)), ("maneuver", [*TRADES, "finishing", "slam",
                                                                 "surprise", "team"])):
        given = raw.get(f"{kind}s") or {}
        for aid in ids:
            entry = given.get(aid) if isinstance(given, dict) else None
            entry = entry if isinstance(entry, dict) else {}
            out[aid] = {"name": str(entry.get("name") or aid.replace("_", " ").capitalize()),
                        "summary": str(entry.get("summary") or ""),
                        "examples": [str(x) for x in entry.get("examples") or []],
                        "kind": kind}
    return out


def condition_summary(condition: str) -> str:
    """What a condition does, in a line."""
    try:
        return CONDITIONS[C(condition)].summary
    except (ValueError, KeyError):
        return ""


def check_blocks(pack: Pack) -> list[str]:
    """Problems in the pack's stat blocks (for validate)."""
    try:
        characters(pack)
    except ContentError as e:
        return list(e.problems) if getattr(e, "problems", None) else [str(e)]
    return []

