"""The step of an M&M fight: what the M&M rules read and how they roll, over the fight
engine's ``Step``, and the table the game's actions register in.

Where a character's numbers live: its stat block (``roster.block_of``); its lasting
conditions (staggered, incapacitated, dying, dead, prone, fatigued...) in ``actor.conditions``;
the damage penalty's size in ``actor.tracks["damage"]``; timed conditions and bonuses
(dazed by damage, aim, defend, maneuvers, demoralize, feint, afflictions) as encounter effects.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from engine.content.loader import Pack
from engine.errors import IllegalAction
from engine.rules import encounter as en
from engine.rules.fight.actions import ActionTable
from engine.rules.fight.dice import ROUTINE, Die, Emit, Roll, fight_roll
from engine.rules.fight.events import TurnDelayed
from engine.rules.fight.foes import side_of
from engine.rules.fight.step import Step, TurnLoop
from engine.rules.state import CampaignState
from engine.systems.mm3e import maneuvers as mv
from engine.systems.mm3e.checks import (
    CheckResult,
    check,
    degree_odds,
    degree_words,
    routine_check,
    success_odds,
)
from engine.systems.mm3e.conditions import Condition, expand
from engine.systems.mm3e.conditions import active_defense as cond_defense
from engine.systems.mm3e.neutral import neutralised
from engine.systems.mm3e.registry import CombatantChanged
from engine.systems.mm3e.roster import block_id, block_of
from engine.systems.mm3e.statblock import Attack, StatBlock

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


ACTIONS: ActionTable[Ctx] = ActionTable("mm3e", order=(
    "attack", "charge", "aim", "defend", "recover", "stand", "drop_prone", "move", "demoralize",
    "feint", "aid", "grab", "escape", "release", "trip", "delay", "surrender", "flee", "end_turn",
    "disarm", "counter_disarm", "counter_trip", "smash", "drop_item", "pick_up", "grab_damage",
    "drag", "command", "crawl", "run", "ready", "spring_up", "step_in"))
"""M&M's fight actions, in the order its menus list them."""
"""M&M's fight actions (fight_actions.py and fight_more.py register theirs)."""
action = ACTIONS.action


class Ctx(Step):
    """One step of an M&M fight: what the M&M rules read (stat blocks, conditions, the damage
    penalty, timed bonuses) and its checks, over the fight engine's ``Step``."""

    def __init__(self, conflict: TurnLoop, state: CampaignState, roll: Roll | None = None,
                 emit: Emit | None = None) -> None:
        super().__init__(conflict, state, roll, emit)
        self._blocks: dict[str, StatBlock] = {}

    # -------------------------------------------------------------- reading
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

    def conditions(self, actor_id: str) -> frozenset[Condition]:
        """Every condition in force on a character (lasting, timed, and what they include)."""
        own = [c for c in self.state.actors[actor_id].conditions if c in _CONDITION_IDS]
        timed = [e.what for e in self.effects_on(actor_id) if e.data.get("kind") == "condition"]
        return expand([*own, *timed])

    def damage(self, actor_id: str) -> int:
        """The size of the character's damage penalty."""
        return self.state.actors[actor_id].tracks.get("damage", 0)

    def down(self, actor_id: str) -> bool:
        """Incapacitated, dying or dead (lasting or timed)."""
        return bool(self.conditions(actor_id) & OUT)

    def over(self) -> bool:
        """Whether fewer than two sides have anyone left who can act: the neutralised (unaware
        until recovery...) are still in the fight but cannot act (neutral.py)."""
        sides = {side_of(self.state, p.actor) for p in self.enc.participants
                 if p.present and not self.out(p.actor) and not neutralised(self, p.actor)}
        return len(sides) < 2

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

    # -------------------------------------------------------------- writing
    def check(self, actor: str, what: str, parts: list[tuple[str, int]], dc: int,
              against: str, *, routine: bool = False, hero_point: bool = False
              ) -> CheckResult:
        """A check, rolled (or routine) and explained."""
        modifier = sum(v for _, v in parts)
        nat20 = option(self.pack, "nat20_degree")
        degrees = degree_odds(modifier, dc, hero_point=hero_point, nat20_bonus=nat20)
        if routine:
            result = routine_check(modifier, dc)
            die = Die(10, ROUTINE, self.state.dice_position)
        else:
            odds = success_odds(modifier, dc, hero_point=hero_point, nat20_bonus=nat20)
            die = self.die(actor, what, odds=f"{float(odds):.0%} to succeed")
            result = check(die.face, modifier, dc, hero_point=hero_point, nat20_bonus=nat20)
        self.emit(fight_roll(actor, what, die, parts, result.total, dc, against, result.label,
                             result.degree, {degree_words(d): p for d, p in degrees.items()}))
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

    def condition_for(self, source: str, target: str, condition: Condition,
                      duration: en.DurationKind, *, anchor: str | None = None,
                      rounds: int = 1, ongoing: bool = False,
                      data: Mapping[str, int | str] | None = None) -> en.Effect:
        """A timed condition on ``target``."""
        return self.add_effect(source, target, condition.value, duration, anchor=anchor,
                          rounds=rounds, ongoing=ongoing,
                          data={"kind": "condition", **(data or {})})

    def bonus_for(self, source: str, target: str, what: str, value: int, label: str,
                  duration: en.DurationKind, *, against: str = "",
                  anchor: str | None = None) -> en.Effect:
        """A timed bonus (or penalty) to ``what`` of ``target``."""
        return self.add_effect(source, target, f"{label}", duration, anchor=anchor,
                          data={"kind": "bonus", "what": what, "value": value,
                                "label": label, "against": against})

    def drop_effects(self, keep: Callable[[en.Effect], bool]) -> list[en.Effect]:
        """End every effect ``keep`` rejects; the ended ones."""
        gone = [e for e in self.enc.effects if not keep(e)]
        self.end_effects(gone)
        return gone

    def delay(self, actor: str) -> en.Advance:
        """The acting character delays its turn; the turn that begins instead."""
        adv = en.delay(self.enc, self.spec)
        self.emit(TurnDelayed(actor=actor))
        return adv


_CONDITION_IDS = frozenset(c.value for c in Condition)


__all__ = ["ACTIONS", "AFFLICTION_DEFAULT", "DAMAGE_LASTING", "MANEUVER_NAMES", "OUT", "TRADES",
           "C", "Ctx", "action", "max_trade", "option"]
