"""The fast M&M duel: one stat block against another, played to its end without ``Game``.

Every rule decision is made by this package's own rule functions, the same ones the fight
engine calls: the attack check (``attacks.attack``), checks and their degrees
(``checks.check``), the damage ladder (``damage.apply_resistance``), the action budget,
active defenses and check penalties of the conditions (``conditions``), the trade maneuvers
(``maneuvers.apply_trade``), and the referee's brain (``referee.choose``) choosing for both
sides. What the fight engine keeps in events and encounter effects is kept here as a few
small tuples, with the encounter's timing rules (``engine.rules.encounter``):

- a turn begins: the actor's "until the start of its next turn" effects end (the +2 of
  Recover, a trade's Dodge and Parry); a stunned actor's turn is skipped;
- the budget is ``conditions.action_budget`` (dazed or compelled: a standard only); the
  referee chooses again after each action until it ends its turn or nothing is left;
- a turn ends (taken or skipped): its "until the end of its next turn" effects end (dazed
  by damage, demoralized, feinted), then each ongoing affliction on it is resisted again, in
  the order they were imposed (a success ends it);
- the fight ends the moment one side is incapacitated (or worse) or unaware (neutralised,
  ``neutral.py``), flees or surrenders; still going when round ``ROUND_LIMIT`` + 1 would
  begin, it is a stalemate;
- positions (``positions.py``): the two start close; the choice is the policy's options
  placed by ``positions.placed_choice`` (the fight engine's ``referee_choice`` loop): a
  close attack on a close foe moves in with the move action first (``reach_words``), else
  becomes a charge (``plan_charge``, -2) or is passed over; a move toward the foe when
  nothing else is left; a far foe's ranged attacks at -2 (a duel never gets far apart);
- the referee sees what the engine's ``situation`` gives it: ``acted`` (it recovers only at
  a turn's start, a dazed turn's standard action enough), the foe's band, the block's
  ``morale``; Recover with an ongoing affliction and no damage condition worse than dazed
  makes the extra resistance check against the first one instead; standing is free with
  Instant Up; demoralize and feint are opposed checks (both dice, ``actions.opposed``).

Initiative is rolled as the engine rolls it: A's d20 then B's, each + its initiative bonus,
ties broken by Dodge, Agility, Awareness, then a roll-off (A's die first), then A.

What it plays (``supports`` says why not for the rest, and the lab then plays the fight
through ``Game``): one character a side, no minion groups, attacks close, ranged,
perception or area, of any effect (Damage resisted by Toughness walks the damage ladder; an
affliction, and any other effect, imposes its conditions by degree, as ``strikes.land``);
the referee's actions attack (with its trade maneuvers, a routine check where it chooses
one), charge, move, recover, stand, demoralize, feint, flee, surrender and end the turn.
Policies: "referee" (``referee.explain_options``, both sides) and "greedy"
(``greedy_options``: the attacks in the referee's order of expected effect, no maneuvers,
nothing else), each placed by ``positions.placed_choice``.

The dice come from a ``Dice``: seeded (``SeededDice``), entered in order (``FixedDice``, to
replay a fight the engine played), or every outcome at once (``markov``'s enumeration).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any, Literal, NamedTuple, Protocol

from engine.errors import IllegalAction
from engine.rules.duel import DuelRecord, Ending, Winner
from engine.rules.fight import positions as ps
from engine.systems.mm3e import actions as ac
from engine.systems.mm3e import attacks as at
from engine.systems.mm3e import maneuvers as mv
from engine.systems.mm3e import positions as mpos
from engine.systems.mm3e import referee as rf
from engine.systems.mm3e.checks import DIE_SIDES, check
from engine.systems.mm3e.conditions import (
    Condition,
    action_budget,
    attack_modifier_against,
    check_penalty,
    expand,
    speed_change,
)
from engine.systems.mm3e.conditions import active_defense as cond_defense
from engine.systems.mm3e.damage import DamageState, apply_resistance, damage_dc, resistance_dc
from engine.systems.mm3e.roster import block_id
from engine.systems.mm3e.statblock import Attack, Kind, StatBlock

C = Condition

ROUND_LIMIT = 60
"""A duel still going when round 61 would begin is a stalemate (the lab's
``STALEMATE_ROUNDS``); its record says 60 rounds."""

POLICIES = ("referee", "greedy")
"""The policies a fast duel plays, the same on both sides."""

DAMAGE_LASTING = (C.STAGGERED, C.INCAPACITATED, C.DYING, C.DEAD)
"""Damage conditions kept on the character (as ``step.DAMAGE_LASTING``)."""

AFFLICTION_DEFAULT = (C.DAZED, C.STUNNED, C.INCAPACITATED)
"""An affliction's conditions when its block names none (as ``step.AFFLICTION_DEFAULT``)."""

OUT = frozenset({C.INCAPACITATED, C.DYING, C.DEAD, C.UNAWARE})
"""Conditions that take a character out of the fight (``neutral.NEUTRALISING``: unaware
too; dying and dead include incapacitated)."""

RANGES = frozenset({"close", "ranged", "perception", "area"})
TRADES: dict[str, mv.Trade] = {"accurate": mv.Trade.ACCURATE, "all_out": mv.Trade.ALL_OUT,
                               "defensive": mv.Trade.DEFENSIVE,
                               "power_attack": mv.Trade.POWER}
ACTION_COST = {"attack": "standard", "charge": "standard", "move": "move",
               "recover": "standard", "stand": "move", "demoralize": "standard",
               "feint": "standard", "flee": "move", "surrender": "none", "end_turn": "none"}
"""The actions a fast duel carries out, with what each costs (actions.yaml's costs)."""

MAX_STEPS = 40
"""A turn of more referee choices than this is a bug (the engine's limit is larger)."""

_SKILL_ABILITY = {"Intimidation": "presence", "Deception": "presence", "Insight": "awareness"}
_CONDITION_IDS = frozenset(c.value for c in Condition)


# ------------------------------------------------------------------ dice

class Dice(Protocol):
    """Where a duel's dice come from: a d20 face (initiative), an attack check's outcome and
    a check's signed degree, each made by the rules' own functions."""

    def face(self) -> int:
        """One d20."""
        ...

    def attack(self, bonus: int, dc: int, can_crit: bool) -> str:
        """'miss', 'hit' or 'critical' (``attacks.attack``)."""
        ...

    def check(self, modifier: int, dc: int, nat20: bool) -> int:
        """The signed degree of d20 + ``modifier`` against ``dc`` (``checks.check``)."""
        ...

    def success(self, modifier: int, dc: int, nat20: bool) -> bool:
        """Whether d20 + ``modifier`` meets ``dc`` (a check whose degree does not matter)."""
        ...

    def successes(self, checks: Sequence[tuple[Fx, int]], nat20: bool) -> list[bool]:
        """Each effect's resistance check (the effect, the modifier; its DC is the
        effect's) made in order: whether it succeeded."""
        ...

    def opposed(self, bonus: int, against: int) -> int:
        """An opposed check (``actions.opposed``: the actor's d20, then the opponent's): the
        actor's signed degree (positive: it won)."""
        ...


@lru_cache(maxsize=8192)
def attack_faces(bonus: int, dc: int, can_crit: bool) -> tuple[str, ...]:
    """The outcome of each d20 face of an attack check (``attacks.attack``), face 1 first."""
    return tuple(at.attack(f, bonus, dc, can_crit=can_crit).outcome
                 for f in range(1, DIE_SIDES + 1))


@lru_cache(maxsize=1024)
def opposed_faces(bonus: int, against: int) -> tuple[int, ...]:
    """The actor's signed degree of an opposed check (``actions.opposed``) for each pair of
    faces, the actor's die first: index (actor's face - 1) * 20 + opponent's face - 1."""
    out = []
    for mine in range(1, DIE_SIDES + 1):
        for theirs in range(1, DIE_SIDES + 1):
            o = ac.opposed(mine, bonus, theirs, against)
            out.append(o.degrees if o.actor_wins else -o.degrees)
    return tuple(out)


@lru_cache(maxsize=8192)
def check_faces(modifier: int, dc: int, nat20: bool) -> tuple[int, ...]:
    """The signed degree of each d20 face of a check (``checks.check``), face 1 first."""
    return tuple(check(f, modifier, dc, nat20_bonus=nat20).degree
                 for f in range(1, DIE_SIDES + 1))


class SeededDice:
    """Dice from a seeded generator."""

    def __init__(self, seed: int) -> None:
        self._random = random.Random(seed).random

    def face(self) -> int:
        """One d20."""
        return int(self._random() * DIE_SIDES) + 1

    def attack(self, bonus: int, dc: int, can_crit: bool) -> str:
        """An attack check's outcome."""
        return attack_faces(bonus, dc, can_crit)[int(self._random() * DIE_SIDES)]

    def check(self, modifier: int, dc: int, nat20: bool) -> int:
        """A check's signed degree."""
        return check_faces(modifier, dc, nat20)[int(self._random() * DIE_SIDES)]

    def success(self, modifier: int, dc: int, nat20: bool) -> bool:
        """Whether a check succeeds."""
        return self.check(modifier, dc, nat20) > 0

    def successes(self, checks: Sequence[tuple[Fx, int]], nat20: bool) -> list[bool]:
        """Each check in order."""
        return [self.success(mod, e.value, nat20) for e, mod in checks]

    def opposed(self, bonus: int, against: int) -> int:
        """An opposed check's signed degree."""
        return opposed_faces(bonus, against)[int(self._random() * DIE_SIDES ** 2)]


class FixedDice:
    """Dice entered in order (``IndexError`` when they run out)."""

    def __init__(self, faces: Sequence[int]) -> None:
        self.faces = list(faces)
        self.used = 0

    def face(self) -> int:
        """The next face."""
        face = self.faces[self.used]
        self.used += 1
        return face

    def attack(self, bonus: int, dc: int, can_crit: bool) -> str:
        """The attack check of the next face."""
        return attack_faces(bonus, dc, can_crit)[self.face() - 1]

    def check(self, modifier: int, dc: int, nat20: bool) -> int:
        """The check of the next face."""
        return check_faces(modifier, dc, nat20)[self.face() - 1]

    def success(self, modifier: int, dc: int, nat20: bool) -> bool:
        """Whether the check of the next face succeeds."""
        return self.check(modifier, dc, nat20) > 0

    def successes(self, checks: Sequence[tuple[Fx, int]], nat20: bool) -> list[bool]:
        """Each check in order."""
        return [self.success(mod, e.value, nat20) for e, mod in checks]

    def opposed(self, bonus: int, against: int) -> int:
        """The opposed check of the next two faces (the actor's first)."""
        mine = self.face()
        return opposed_faces(bonus, against)[(mine - 1) * DIE_SIDES + self.face() - 1]


# ------------------------------------------------------------------ who fights

@dataclass(frozen=True, slots=True)
class Side:
    """One side's stat block, read once: its attacks by id and how the referee sees it."""

    block: StatBlock
    attacks: Mapping[str, Attack]
    fighter: rf.Fighter
    """The referee's view of it unhurt (``referee.Fighter``), the template of every turn's."""


def read_block(data: Mapping[str, Any] | StatBlock) -> StatBlock:
    """A stat block from its mapping (as characters.yaml writes it) or as it is."""
    return data if isinstance(data, StatBlock) else StatBlock.model_validate(dict(data))


def side_of(block: StatBlock, label: str) -> Side:
    """``block`` as side ``label`` ("A" or "B")."""
    attacks = {block_id(a.name): a for a in block.attacks}
    d = block.defenses
    fighter = rf.Fighter(
        id=label, name=block.name, side=label,
        kind="minion" if block.minion else block.kind.value, group=None,
        power_level=block.power_level, conditions=frozenset(), damage=0, out=False,
        dodge=d.dodge, parry=d.parry, toughness=d.toughness, fortitude=d.fortitude,
        will=d.will,
        attacks=tuple(rf.AttackOption(id=aid, name=a.name, range=a.range.value,
                                      bonus=a.bonus or 0, rank=a.rank, effect=a.effect.value,
                                      resisted_by=a.resisted_by,
                                      conditions=tuple(a.conditions))
                      for aid, a in attacks.items()),
        skills=dict(block.skills), advantages=frozenset(a.name for a in block.advantages),
        morale=block.morale)
    return Side(block, attacks, fighter)


def unsupported(block: StatBlock) -> str | None:
    """Why the fast duel cannot play ``block`` (None: it can)."""
    if block.minion or block.kind is Kind.MINION_GROUP:
        return f"{block.name} is a minion group (the fast duel plays one character a side)"
    for a in block.attacks:
        if a.range.value not in RANGES:
            return f"{block.name}'s {a.name} has a range the fast duel does not play"
        if a.conditions and len(a.conditions) != len(AFFLICTION_DEFAULT):
            return f"{block.name}'s {a.name} names {len(a.conditions)} conditions, not 3"
        if a.conditions and any(c not in _CONDITION_IDS for c in a.conditions):
            return f"{block.name}'s {a.name} imposes a condition the rules do not know"
    return None


# ------------------------------------------------------------------ the state

class Fx(NamedTuple):
    """A timed effect, as the encounter keeps one: ``left``, the turns its anchor must still
    begin before it can end (None: until recovery, or a successful resistance check)."""

    what: str
    kind: Literal["condition", "bonus", "feint"]
    target: int
    source: int
    anchor: int
    duration: Literal["start_of_next_turn", "end_of_next_turn", "recovery"]
    left: int | None
    ongoing: bool = False
    value: int = 0
    """A bonus's size; an affliction's resistance DC."""
    extra: str = ""
    """A bonus's trait ("dodge", "parry"); an affliction's resisting defence; "damage" for
    the daze of a damage hit."""


class Fighter(NamedTuple):
    """One side's lasting state: its damage penalty's size, its lasting conditions (as the
    actor's ``conditions``), whether it has used its Recover."""

    damage: int = 0
    lasting: frozenset[str] = frozenset()
    recovered: bool = False


State = tuple[Fighter, Fighter, tuple[Fx, ...], ps.Band]
"""Both sides, the effects, and the band between the two (``positions``), between turns."""

START: State = (Fighter(), Fighter(), (), ps.CLOSE)
"""A fight starts with everyone close (``positions``)."""

Result = tuple[Winner, Ending]


@lru_cache(maxsize=65536)
def _expanded(own: frozenset[str], timed: tuple[str, ...]) -> frozenset[Condition]:
    return expand([*(c for c in own if c in _CONDITION_IDS), *timed])


class _Turn:
    """One turn being played: the state as mutable values, and what it ended in."""

    __slots__ = ("acted", "band", "budget", "dice", "duel", "fighters", "fx", "result")

    def __init__(self, duel: Duel, state: State, dice: Dice) -> None:
        self.duel = duel
        self.fighters = [state[0], state[1]]
        self.fx = list(state[2])
        self.band: ps.Band = state[3]
        self.dice = dice
        self.result: Result | None = None
        self.budget = {"standard": 0, "move": 0}
        self.acted = False

    def state(self) -> State:
        return (self.fighters[0], self.fighters[1], tuple(self.fx), self.band)

    # -------------------------------------------------------------- reading
    def conditions(self, i: int) -> frozenset[Condition]:
        """Every condition in force on ``i`` (lasting, timed and what they include)."""
        timed = tuple(e.what for e in self.fx if e.target == i and e.kind == "condition")
        return _expanded(self.fighters[i].lasting, timed)

    def bonus(self, i: int, what: str) -> int:
        return sum(e.value for e in self.fx
                   if e.target == i and e.kind == "bonus" and e.extra == what)

    def defense(self, i: int, which: str) -> int:
        """An active defense now: the block's, its timed bonuses, the conditions applied."""
        raw = getattr(self.duel.sides[i].block.defenses, which) + self.bonus(i, which)
        return cond_defense(raw, self.conditions(i))

    def feinted(self, target: int, by: int) -> bool:
        return any(e.kind == "feint" and e.target == target and e.source == by
                   for e in self.fx)

    def add(self, fx: Fx) -> None:
        self.fx.append(fx)

    def change(self, i: int, **kw: Any) -> None:
        self.fighters[i] = self.fighters[i]._replace(**kw)

    def down(self, i: int) -> bool:
        return bool(self.conditions(i) & OUT)

    # -------------------------------------------------------------- the turn
    def begin(self, i: int) -> None:
        """Its anchored effects count a turn; "start of next turn" ones due end."""
        out: list[Fx] = []
        for e in self.fx:
            if e.anchor == i and e.left is not None:
                left = e.left - 1
                if e.duration == "start_of_next_turn" and left <= 0:
                    continue
                e = e._replace(left=left)
            out.append(e)
        self.fx = out

    def end(self, i: int) -> None:
        """Its "end of next turn" effects due end; its ongoing afflictions are resisted."""
        self.fx = [e for e in self.fx if not (e.anchor == i and e.duration == "end_of_next_turn"
                                              and e.left is not None and e.left <= 0)]
        checks = [(e, self.resist_mod(e)) for e in self.fx if e.ongoing and e.target == i]
        if checks:
            for (e, _), shaken in zip(checks, self.dice.successes(checks, self.duel.nat20),
                                      strict=True):
                if shaken:
                    self.fx.remove(e)

    def resist_mod(self, e: Fx) -> int:
        """The defence an ongoing affliction is resisted with (``turn_rules.resist``: no
        condition penalty)."""
        block = self.duel.sides[e.target].block
        return int(getattr(block.defenses, e.extra, 0)) if e.extra in (
            "toughness", "fortitude", "will", "dodge") else 0

    def play(self, i: int) -> bool:
        """Turn ``i``: False when it could not act (stunned)."""
        self.begin(i)
        budget = action_budget(self.conditions(i))
        if not budget.any:
            self.end(i)
            return False
        self.budget = {"standard": budget.standard, "move": budget.move}
        for _ in range(MAX_STEPS):
            if not any(v > 0 for v in self.budget.values()):
                break
            choice = self.duel.choose(self, i)
            action = "attack" if choice.action == "team_attack" else choice.action
            cost = ACTION_COST.get(action)
            if cost is None:
                raise IllegalAction(f"the fast duel does not play {action!r}")
            if action == "stand" and self.instant_up(i):
                cost = "none"  # free with Instant Up (turn_rules.stand)
            if action == "end_turn" or not self.can(cost):
                break
            self.act(i, action, choice)
            if self.result is not None:
                return True
        else:
            raise IllegalAction(f"{self.duel.sides[i].block.name} took {MAX_STEPS} steps"
                                " in one turn")
        self.end(i)
        return True

    def instant_up(self, i: int) -> bool:
        """Whether standing is free for ``i`` (``turn_rules.instant_up``)."""
        return self.duel.sides[i].block.advantage_rank(rf.INSTANT_UP) > 0

    def can(self, kind: str) -> bool:
        if kind == "none":
            return True
        return self.budget.get(kind, 0) > 0 or (kind == "move" and self.budget["standard"] > 0)

    def spend(self, kind: str) -> None:
        if kind == "move" and self.budget["move"] <= 0:
            kind = "standard"  # a move paid with the standard
        if self.budget[kind] <= 0:
            raise IllegalAction(f"no {kind} action left")
        self.budget[kind] -= 1
        self.acted = True

    def mobility(self, i: int, *, paid: bool) -> mpos.Mobility:
        """``positions.mobility``: the speed rank now, and whether a move action is left
        (``paid``: now; else once the standard action is paid)."""
        speed = mpos.speed_of(self.duel.sides[i].block.speed,
                              speed_change(self.conditions(i)))
        std, move = self.budget["standard"], self.budget["move"]
        left = self.can("move") if paid else std > 0 and (move > 0 or std > 1)
        return speed, left

    # -------------------------------------------------------------- actions
    def act(self, i: int, action: str, choice: rf.Choice) -> None:
        """Carry out the referee's ``choice`` (as the engine's handlers do)."""
        foe = 1 - i
        if action == "attack":
            self.spend("standard")
            self.attack(i, foe, choice)
        elif action == "charge":
            self.spend("standard")
            self.charge(i, foe, choice)
        elif action == "move":
            if C.IMMOBILE in self.conditions(i):
                raise IllegalAction("immobile")
            self.spend("move")
            speed, _ = self.mobility(i, paid=True)
            self.band = ps.at_rank(max(0, ps.rank(self.band) - mpos.bands_per_move(speed or 0)))
        elif action == "recover":
            self.spend("standard")
            if self.budget["move"] > 0:
                self.spend("move")
            self.recover(i)
        elif action == "stand":
            if not self.instant_up(i):
                self.spend("move")
            self.change(i, lasting=self.fighters[i].lasting - {C.PRONE.value})
        elif action in ("demoralize", "feint"):
            self.spend("standard")
            self.skill(i, foe, action)
        elif action == "flee":
            if C.IMMOBILE in self.conditions(i):
                raise IllegalAction("immobile and cannot flee")
            self.result = ("B" if i == 0 else "A", "fled")
        elif action == "surrender":
            self.result = ("B" if i == 0 else "A", "surrendered")

    def attack(self, i: int, t: int, choice: rf.Choice) -> None:
        """``fight_actions._attack`` and ``strikes.strike`` for one target."""
        side = self.duel.sides[i]
        if choice.attack is None or choice.attack not in side.attacks:
            raise IllegalAction(f"{side.block.name} has no attack {choice.attack!r}")
        atk = side.attacks[choice.attack]
        traded = self.duel.traded(i, atk, tuple(sorted(choice.maneuvers.items())))
        rank = traded.effect
        if atk.range.value in ("perception", "area"):
            # an area: the foe is close or engaged, always in it (areas.in_area)
            self.land(i, t, atk, self.area_rank(t, atk, rank))
        else:
            self.close_in(i, t, atk)
            self.strike(i, t, atk, traded, rank, choice.routine)
        block = side.block
        for which in ("dodge", "parry"):
            delta = getattr(traded, which) - getattr(block.defenses, which)
            if delta:
                self.add(Fx(which, "bonus", i, i, i, "start_of_next_turn", 1, value=delta,
                            extra=which))
        self.fx = [e for e in self.fx if not (e.kind == "feint" and e.source == i
                                              and e.target == t)]

    def close_in(self, i: int, t: int, atk: Attack) -> None:
        """``positions.close_in``: a close attack on a close target moves in first with the
        move action (the standard paid), or is refused."""
        if atk.range.value != "close" or self.band == ps.ENGAGED:
            return
        side, other = self.duel.sides[i].block, self.duel.sides[t].block
        why = mpos.reach_words(side.name, other.name, self.band, self.mobility(i, paid=True))
        if why:
            raise IllegalAction(why)
        self.spend("move")
        self.band = ps.ENGAGED

    def charge(self, i: int, t: int, choice: rf.Choice) -> None:
        """``fight_actions._charge`` (no slam): the run (``positions.charge_in``), then the
        close attack at -2."""
        side = self.duel.sides[i]
        atk = side.attacks.get(choice.attack or "")
        if atk is None or atk.range.value != "close":
            raise IllegalAction(f"{side.block.name} charges with a close attack")
        if C.IMMOBILE in self.conditions(i):
            raise IllegalAction(f"{side.block.name} is immobile and cannot charge")
        run = mpos.plan_charge(side.block.name, self.duel.sides[t].block.name, self.band,
                               self.mobility(i, paid=True))
        if run.with_move:
            self.spend("move")
        self.band = ps.ENGAGED
        traded = self.duel.traded(i, atk, ())
        self.strike(i, t, atk, traded, traded.effect, False, mpos.CHARGE_PENALTY)

    def strike(self, i: int, t: int, atk: Attack, traded: mv.Traded, rank: int,
               routine: bool, extra: int = 0) -> None:
        """The attack check on ``t`` and, on a hit, its effect (+5 on a critical)."""
        close = atk.range.value == "close"
        bonus = (traded.attack + self.bonus(i, "attack") + check_penalty(self.conditions(i))
                 + attack_modifier_against(self.conditions(t), close) + extra)
        if atk.range.value == "ranged" and self.band == ps.FAR:
            bonus += mpos.FAR_PENALTY
        defense = self.defense(t, "parry" if close else "dodge")
        if defense and self.feinted(t, i):
            defense = -(-defense // 2)
        dc = at.defense_class(defense)
        if routine:
            if not at.routine_allowed(target_defenseless=C.DEFENSELESS in self.conditions(t)):
                raise IllegalAction("a routine attack needs a defenseless target")
            outcome = at.routine_attack(bonus, dc).outcome
        else:
            outcome = self.dice.attack(bonus, dc, True)
        if outcome == "miss":
            return
        self.land(i, t, atk, rank, at.CRIT_INCREASED_EFFECT if outcome == "critical" else 0)

    def area_rank(self, t: int, atk: Attack, rank: int) -> int:
        """An area attack's target dodges against 10 + rank for half (``_area_rank``)."""
        if atk.range.value != "area":
            return rank
        dodge = self.duel.sides[t].block.defenses.dodge + check_penalty(self.conditions(t))
        return at.area_rank(rank, self.dice.success(dodge, at.area_dodge_dc(rank),
                                                    self.duel.nat20))

    def land(self, i: int, t: int, atk: Attack, rank: int, dc_bonus: int = 0) -> None:
        """``strikes.land``: the target resists, the result is applied."""
        which = atk.resisted_by
        target = self.fighters[t]
        mod = getattr(self.duel.sides[t].block.defenses, which) + check_penalty(
            self.conditions(t))
        damage = atk.effect.value == "damage" and which == "toughness"
        if damage:
            mod += -target.damage + self.bonus(t, "toughness")
            dc = damage_dc(rank)
        else:
            dc = resistance_dc(rank)
        degree = self.dice.check(mod, dc + dc_bonus, self.duel.nat20)
        if damage:
            self.damage(i, t, degree)
        elif degree <= 0:
            self.afflict(i, t, atk, rank, degree)
        if self.down(t):
            self.result = ("A" if t == 1 else "B", "knocked_out")

    def damage(self, i: int, t: int, degree: int) -> None:
        target = self.fighters[t]
        dazed = any(e.target == t and e.what == C.DAZED.value and e.extra == "damage"
                    for e in self.fx)
        conds = {C(c) for c in target.lasting if c in {d.value for d in DAMAGE_LASTING}}
        before = DamageState(-target.damage, frozenset(conds | ({C.DAZED} if dazed else set())))
        after = apply_resistance(before, degree).state
        if after.has(C.DAZED) and not before.has(C.DAZED):
            self.add(Fx(C.DAZED.value, "condition", t, i, t, "end_of_next_turn", 1,
                        extra="damage"))
        lasting = {c.value for c in DAMAGE_LASTING if after.has(c)}
        gone = {c.value for c in DAMAGE_LASTING if before.has(c) and not after.has(c)}
        self.change(t, lasting=(target.lasting - gone) | lasting, damage=-after.penalty)

    def afflict(self, i: int, t: int, atk: Attack, rank: int, degree: int) -> None:
        ladder = [C(c) for c in atk.conditions] or list(AFFLICTION_DEFAULT)
        worst = min(-degree, 3)
        imposed = ladder[worst - 1]
        if worst >= 3:
            self.change(t, lasting=self.fighters[t].lasting | {imposed.value})
        else:
            self.add(Fx(imposed.value, "condition", t, i, t, "recovery", None, ongoing=True,
                        value=resistance_dc(rank), extra=atk.resisted_by))

    def recover(self, i: int) -> None:
        """``fight_actions._recover``: the worst damage condition, else a -1, goes; +2 Dodge
        and Parry until the next turn."""
        me = self.fighters[i]
        dazed = any(e.target == i and e.what == C.DAZED.value and e.extra == "damage"
                    for e in self.fx)
        worst = next((c for c in reversed(DAMAGE_LASTING) if c.value in me.lasting),
                     C.DAZED if dazed else None)
        lasting = [e for e in self.fx if e.ongoing and e.target == i]
        if lasting and worst in (None, C.DAZED):  # the extra resistance check (D.6)
            e = lasting[0]
            if self.dice.success(self.resist_mod(e), e.value, self.duel.nat20):
                self.fx.remove(e)
        elif worst is C.DAZED:
            self.fx = [e for e in self.fx if not (e.target == i and e.what == C.DAZED.value
                                                  and e.extra == "damage")]
        elif worst is not None:
            self.change(i, lasting=me.lasting - {worst.value})
        elif me.damage:
            self.change(i, damage=me.damage - 1)
        for which in ("dodge", "parry"):
            self.add(Fx("recovering", "bonus", i, i, i, "start_of_next_turn", 1, value=2,
                        extra=which))
        self.change(i, recovered=True)

    def skill(self, i: int, t: int, action: str) -> None:
        """Demoralize (Intimidation opposed by the better of Insight and Will) or feint
        (Deception opposed by the better of Deception and Insight), both sides rolling, each
        with its condition penalty (``opposed.roll_opposed``), as the engine's."""
        block, theirs = self.duel.sides[i].block, self.duel.sides[t].block
        skill = "Intimidation" if action == "demoralize" else "Deception"
        bonus = block.skills.get(skill, getattr(block.abilities, _SKILL_ABILITY[skill]))
        against = ("Insight", "Will") if action == "demoralize" else ("Deception", "Insight")
        best = max(_trait(theirs, d) for d in against)
        degree = self.dice.opposed(bonus + check_penalty(self.conditions(i)),
                                   best + check_penalty(self.conditions(t)))
        if action == "demoralize":
            got = mv.demoralize_result(degree)
            if got is not None:
                self.add(Fx(got, "condition", t, i, i, "end_of_next_turn", 1))
        elif mv.feint_result(degree) is not None:
            self.add(Fx("feinted", "feint", t, i, i, "end_of_next_turn", 1))


def _trait(block: StatBlock, name: str) -> int:
    if name in ("Will", "Dodge", "Parry", "Fortitude", "Toughness"):
        return int(getattr(block.defenses, name.lower()))
    return block.skills.get(name, int(getattr(block.abilities,
                                              _SKILL_ABILITY.get(name, "awareness"))))


# ------------------------------------------------------------------ the policies

def greedy_options(s: rf.Situation,
                   explain: Callable[[rf.Situation], list[rf.Choice]] | None = None
                   ) -> list[rf.Choice]:
    """The "greedy" policy's options, best first: the attacks without maneuvers in the
    referee's own order (``explain``: ``referee.explain_options``), then the end of the turn;
    nothing else."""
    options = (explain or rf.explain_options)(s)
    end = options[-1] if options[-1].action == "end_turn" else rf.Choice(
        "end_turn", f"{s.me.name} ends the turn")
    return [*(c for c in options if c.action == "attack" and not c.maneuvers), end]


def greedy_choose(s: rf.Situation) -> rf.Choice:
    """The "greedy" policy without positions: the first of ``greedy_options``."""
    return greedy_options(s)[0]


Options = Callable[[rf.Situation], list[rf.Choice]]

CHOOSERS: dict[str, tuple[Options, Callable[[rf.Situation], rf.Choice]]] = {
    "referee": (lambda s: rf.explain_options(s), lambda s: rf.choose(s)),
    "greedy": (greedy_options, greedy_choose)}
"""Each policy's options (best first) and its choice when positions leave none of them
(``positions.placed_choice``)."""


class _Where:
    """The duel's ``positions.Placement`` for side ``i`` on its turn."""

    __slots__ = ("i", "turn")

    def __init__(self, turn: _Turn, i: int) -> None:
        self.turn, self.i = turn, i

    def name(self, who: str) -> str:
        return self.turn.duel.sides[0 if who == "A" else 1].block.name

    def band(self, target: str) -> ps.Band:
        return self.turn.band

    def reach(self, target: str) -> str:
        me, foe = self.turn.duel.sides[self.i], self.turn.duel.sides[1 - self.i]
        if self.turn.band == ps.ENGAGED:
            return ""
        return mpos.reach_words(me.block.name, foe.block.name, self.turn.band,
                                self.turn.mobility(self.i, paid=False))

    def charge(self, target: str) -> mpos.ChargeRun:
        me, foe = self.turn.duel.sides[self.i], self.turn.duel.sides[1 - self.i]
        return mpos.plan_charge(me.block.name, foe.block.name, self.turn.band,
                                self.turn.mobility(self.i, paid=False))

    def mobility(self) -> tuple[int | None, bool]:
        return self.turn.mobility(self.i, paid=True)


# ------------------------------------------------------------------ the duel

class Duel:
    """Two stat blocks and a policy: duels seeded, replayed, or turn by turn (``turn``)."""

    def __init__(self, a: StatBlock, b: StatBlock, policy: str = "referee", *,
                 nat20: bool = False, max_trade: int = mv.SEED_MAX_TRADE) -> None:
        if policy not in CHOOSERS:
            raise IllegalAction(f"the fast duel plays the policies {', '.join(POLICIES)},"
                                f" not {policy!r}")
        self.sides = (side_of(a, "A"), side_of(b, "B"))
        self.policy = policy
        self.nat20 = nat20
        self.max_trade = max_trade
        self._options, self._otherwise = CHOOSERS[policy]
        self._choices: dict[tuple[Any, ...], rf.Choice] = {}
        self._trades: dict[tuple[Any, ...], mv.Traded] = {}

    def traded(self, i: int, atk: Attack, maneuvers: tuple[tuple[str, int], ...]
               ) -> mv.Traded:
        """Attack, rank, Dodge and Parry after the trades (``strikes.trade_values``)."""
        key = (i, atk.name, maneuvers)
        got = self._trades.get(key)
        if got is None:
            d = self.sides[i].block.defenses
            got = mv.Traded(atk.bonus or 0, atk.rank, d.dodge, d.parry)
            rolled = atk.range.value in ("close", "ranged")
            for mid, amount in maneuvers:
                if mid in TRADES and amount:
                    got = mv.apply_trade(TRADES[mid], amount, attack=got.attack,
                                         effect=got.effect, dodge=got.dodge, parry=got.parry,
                                         has_attack_check=rolled, allows_resistance=True,
                                         max_trade=self.max_trade)
            self._trades[key] = got
        return got

    def choose(self, turn: _Turn, i: int) -> rf.Choice:
        """The policy's choice for ``i`` (the same situation, the same choice: memoised)."""
        me, foe = turn.fighters[i], turn.fighters[1 - i]
        mine = frozenset(c.value for c in turn.conditions(i))
        theirs = frozenset(c.value for c in turn.conditions(1 - i))
        if turn.feinted(1 - i, i):
            theirs |= {C.VULNERABLE.value}
        key = (i, mine, me.damage, me.recovered, theirs, foe.damage,
               turn.budget["standard"], turn.budget["move"], turn.band, turn.acted)
        # the referee reads no round number (its Situation's round is left at 1)
        got = self._choices.get(key)
        if got is None:
            base, other = self.sides[i].fighter, self.sides[1 - i].fighter
            s = rf.Situation(
                me=replace(base, conditions=mine, damage=me.damage, recovered=me.recovered),
                allies=(), foes=(replace(other, conditions=theirs, damage=foe.damage,
                                         band=turn.band),),
                round=1, budget=dict(turn.budget), acted=turn.acted)
            got = self._choices[key] = mpos.placed_choice(
                self._options(s), self.sides[i].attacks, _Where(turn, i), base.id,
                lambda: self._otherwise(s))
        return got

    def turn(self, state: State, i: int, dice: Dice) -> tuple[State, Result | None, bool]:
        """Side ``i``'s turn from ``state``: the state after, the fight's end if it came,
        whether ``i`` could act."""
        t = _Turn(self, state, dice)
        acted = t.play(i)
        return t.state(), t.result, acted

    def initiative(self, dice: Dice) -> int:
        """Who acts first (0: A, 1: B), rolled as the engine rolls it."""
        keys: list[tuple[int, tuple[int, ...]]] = []
        for side in self.sides:
            b = side.block
            keys.append((dice.face() + b.initiative_bonus,
                         (b.defenses.dodge, b.abilities.agility, b.abilities.awareness)))
        if keys[0] == keys[1]:
            offs = (dice.face(), dice.face())
            keys = [(k[0], (*k[1], o)) for k, o in zip(keys, offs, strict=True)]
        return 1 if keys[1] > keys[0] else 0

    def play(self, dice: Dice) -> DuelRecord:
        """One duel to its end."""
        first = self.initiative(dice)
        order = (first, 1 - first)
        state = START
        turns = 0
        for rnd in range(1, ROUND_LIMIT + 1):
            for i in order:
                state, result, acted = self.turn(state, i, dice)
                turns += acted
                if result is not None:
                    return DuelRecord(result[0], result[1], rnd, turns,
                                      "A" if first == 0 else "B")
        return DuelRecord("nobody", "stalemate", ROUND_LIMIT, turns,
                          "A" if first == 0 else "B")


__all__ = ["POLICIES", "ROUND_LIMIT", "Dice", "Duel", "FixedDice", "Fx", "SeededDice",
           "Side", "State", "attack_faces", "check_faces", "greedy_choose", "greedy_options",
           "opposed_faces", "read_block", "side_of", "unsupported"]
