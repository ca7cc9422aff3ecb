"""Conflict actions (RULES.md D.6): each action's cost as data, and a pure resolution function
per action that takes the dice in as faces and returns a small frozen ``Outcome``.

An ``Outcome`` says what happens in roles (the actor, its target, an aided ally), never in
actor ids: conditions gained or lost, bonuses and penalties with their durations, who moves and
how far (speed ranks), who drops what it holds, which actions the turn pays, and what the
encounter must do next (``Then``). Maneuvers (D.7) stay in ``maneuvers``; ``attack`` delegates
to ``attacks``; damage to ``damage``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from functools import lru_cache

from engine.errors import IllegalAction
from engine.systems.mm3e import attacks as at
from engine.systems.mm3e.checks import (
    DIE_SIDES,
    CheckResult,
    check,
    check_die,
    defend_result,
    hero_point_die,
)
from engine.systems.mm3e.conditions import DURATIONS, Condition, Lasts, expand, speed_change
from engine.systems.mm3e.damage import DamageState, damage_dc, object_result, recover_step
from engine.systems.mm3e.maneuvers import aid_bonus

FILLED_IN = (
    "Opposed checks (the seed uses them without rules): each side rolls d20 + its bonus; the"
    " higher total wins, a tie goes to the higher bonus, then to the one who acts; the winner's"
    " degrees are 1 + every full 5 it beat the other total by. Aid: a check against DC 10 with"
    " degrees (no natural 1/20 rule), its defense bonus is to Dodge and Parry against that"
    " opponent. Aim: a ranged attack 'at close range' is one at a target within close reach;"
    " the aim lasts until the aimer's next attack or the end of its next turn, whichever is"
    " first; the attacks that keep it are those with an attack check against the foe (attack,"
    " disarm, grab, smash, trip), free actions do not spoil it, charge (it moves first) and"
    " every other action do. Crawl: prone's hindered is the crawl's -1 rank (they do not"
    " stack); only a prone character crawls. Defend: against it a natural 20 still hits and a"
    " natural 1 still misses; a critical needs the total to reach the defend result. Delay:"
    " beneficial end-of-turn effects end at once, harmful ones and resistance checks wait until"
    " the delayed turn is taken. Ready: a single standard, move or free action (not recover,"
    " delay or ready) with a trigger that is not empty. Disarm: the opposed check is d20 +"
    " the attack's damage rank against d20 + Strength; the counter-disarm (only after a melee"
    " weapon's loss) is the defender's damage rank against the attacker's Strength. Grab: the"
    " caller passes the defense class (Parry for a close grab), the resistance DC is 10 +"
    " Strength or grab rank (RULES.md"
    " D.10 item 7), the grabber's degrees are the target's degrees of failure; a missed"
    " attack on an existing hold changes nothing; the grabber's Strength damage is its"
    " Strength rank, from the turn after the hold. Drag: the drag's resistance uses the same"
    " DC; a grabber that fails to drag is immobile until the end of its turn. Recover: it"
    " pays the standard and the move (RULES.md D.10 item 6); 'highest level of damage' is"
    " the worst damage condition, then a -1 penalty; of fatigue, exhausted to fatigued to"
    " none. Stand: a failed DC 20 Acrobatics check leaves one prone and the move action is"
    " still there to stand. Trip: the counter-trip uses the same bonuses in reverse. Movement:"
    " speed rank 0 is 30 ft and each rank doubles it (the handbook's table is absent)."
)
"""The rules of this module that the seed leaves out, filled in."""


class Cost(StrEnum):
    """What an action costs in the turn's budget (the encounter's action kinds)."""

    STANDARD = "standard"
    MOVE = "move"
    FREE = "free"
    REACTION = "reaction"
    NONE = "none"


class Action(StrEnum):
    """The actions of D.6 (the maneuvers of D.7 are in ``maneuvers``)."""

    AID = "aid"
    AIM = "aim"
    ATTACK = "attack"
    CHARGE = "charge"
    COMMAND = "command"
    CRAWL = "crawl"
    DEFEND = "defend"
    DELAY = "delay"
    DISARM = "disarm"
    COUNTER_DISARM = "counter_disarm"
    DROP_ITEM = "drop_item"
    DROP_PRONE = "drop_prone"
    ESCAPE = "escape"
    GRAB = "grab"
    MAINTAIN_GRAB = "maintain_grab"
    RELEASE = "release"
    GRAB_DAMAGE = "grab_damage"
    DRAG = "drag"
    MOVE = "move"
    RUN = "run"
    READY = "ready"
    RECOVER = "recover"
    SMASH = "smash"
    STAND = "stand"
    TRIP = "trip"
    COUNTER_TRIP = "counter_trip"


@dataclass(frozen=True, slots=True)
class ActionDef:
    """An action: its cost, whether it makes an attack check, whether it takes the whole turn."""

    id: Action
    cost: Cost
    summary: str
    attack_check: bool = False
    whole_turn: bool = False


A = Action
ACTIONS: dict[Action, ActionDef] = {d.id: d for d in (
    ActionDef(A.AID, Cost.STANDARD, "attack check vs DC 10: an ally +2 (+5) vs that foe"),
    ActionDef(A.AIM, Cost.STANDARD, "+5 close or point blank, +2 ranged; vulnerable meanwhile"),
    ActionDef(A.ATTACK, Cost.STANDARD, "an attack on a foe in range", attack_check=True),
    ActionDef(A.CHARGE, Cost.STANDARD, "move your speed, then a close attack at -2",
              attack_check=True),
    ActionDef(A.COMMAND, Cost.MOVE, "one command to a minion or thrall"),
    ActionDef(A.CRAWL, Cost.MOVE, "move while prone at ground speed -1 rank"),
    ActionDef(A.DEFEND, Cost.STANDARD, "attacks on you are opposed by your defense until your"
              " next turn"),
    ActionDef(A.DELAY, Cost.NONE, "take your whole turn later in the order"),
    ActionDef(A.DISARM, Cost.STANDARD, "attack at -2 (ranged -5), then damage vs Strength",
              attack_check=True),
    ActionDef(A.COUNTER_DISARM, Cost.REACTION, "the defender's disarm after a melee weapon's"
              " failed disarm"),
    ActionDef(A.DROP_ITEM, Cost.FREE, "drop a held item"),
    ActionDef(A.DROP_PRONE, Cost.FREE, "drop prone"),
    ActionDef(A.ESCAPE, Cost.MOVE, "Athletics or Acrobatics vs 10 + the grabber's Strength"),
    ActionDef(A.GRAB, Cost.STANDARD, "attack, then Strength or Dodge vs 10 + your Strength",
              attack_check=True),
    ActionDef(A.MAINTAIN_GRAB, Cost.FREE, "keep a hold this turn"),
    ActionDef(A.RELEASE, Cost.FREE, "let go of a hold"),
    ActionDef(A.GRAB_DAMAGE, Cost.STANDARD, "your Strength damage to the one you hold"),
    ActionDef(A.DRAG, Cost.MOVE, "move and take the one you hold along"),
    ActionDef(A.MOVE, Cost.MOVE, "move your speed rank in any mode you have"),
    ActionDef(A.RUN, Cost.FREE, "DC 15 Athletics: +1 ground speed rank for a round"),
    ActionDef(A.READY, Cost.STANDARD, "a standard, move or free action kept for a trigger"),
    ActionDef(A.RECOVER, Cost.STANDARD, "once per conflict: lose your worst damage or fatigue,"
              " or resist an ongoing effect again; +2 Dodge and Parry", whole_turn=True),
    ActionDef(A.SMASH, Cost.STANDARD, "attack an object someone holds (-5) or wears",
              attack_check=True),
    ActionDef(A.STAND, Cost.MOVE, "stand up (free with DC 20 Acrobatics or Instant Up)"),
    ActionDef(A.TRIP, Cost.STANDARD, "close attack vs Parry at -2, then Acrobatics/Athletics",
              attack_check=True),
    ActionDef(A.COUNTER_TRIP, Cost.NONE, "the defender's trip after a lost trip"),
)}
"""Every action of D.6 (and the parts the encounter takes separately) by id."""

AID_DC = 10
AID_EXTRA_DEGREES = 3
AIM_CLOSE_BONUS = 5
AIM_RANGED_BONUS = 2
CHARGE_PENALTY = -2
COMMANDS_PER_MOVE = 1
MAX_COMMANDS_PER_TURN = 2
CRAWL_SPEED_CHANGE = -1
DISARM_CLOSE_PENALTY = -2
DISARM_RANGED_PENALTY = -5
ESCAPE_SPEED_CHANGE = -1
GRAB_DC_BASE = 10
GRAB_BOUND_DEGREES = 2
RECOVER_DEFENSE_BONUS = 2
RUN_DC = 15
RUN_SPEED_BONUS = 1
SMASH_HELD_PENALTY = -5
STAND_ACROBATICS_DC = 20
TRIP_PENALTY = -2
GROUND_SPEED_FT = 30
"""The numbers of D.6, each where the table states it."""


class Role(StrEnum):
    """Who an outcome is about, relative to the action."""

    ACTOR = "actor"
    TARGET = "target"
    ALLY = "ally"


class Then(StrEnum):
    """What the encounter must do after an action."""

    RESOLVE_EFFECT = "resolve_effect"
    DAMAGE_OBJECT = "damage_object"
    COUNTER_DISARM = "counter_disarm"
    MAY_TAKE_ITEM = "may_take_item"
    COUNTER_TRIP = "counter_trip"
    RESIST_ONGOING = "resist_ongoing"
    ISSUE_COMMAND = "issue_command"
    OPPOSE_ATTACKS = "oppose_attacks"
    LEAVE_ORDER = "leave_order"
    MOVE_IN_ORDER = "move_in_order"
    DEFER_RESISTANCE = "defer_resistance"
    END_TURN = "end_turn"
    HOLD = "hold"
    RELEASE = "release"


@dataclass(frozen=True, slots=True)
class Gain:
    """A condition gained; ``lasts`` None: until the ruleset ends it (a release, standing up)."""

    role: Role
    condition: Condition
    lasts: Lasts | None = None


@dataclass(frozen=True, slots=True)
class Loss:
    """A condition lost."""

    role: Role
    condition: Condition


@dataclass(frozen=True, slots=True)
class Bonus:
    """A modifier to ``what`` ('attack', 'dodge', 'parry', 'speed'), against ``against`` only
    when set, lasting ``lasts`` (None: this action only)."""

    role: Role
    what: str
    value: int
    against: Role | None = None
    lasts: Lasts | None = None


@dataclass(frozen=True, slots=True)
class Movement:
    """A move: each leg's speed rank; ``along``: who is dragged with the mover; ``optional``:
    the mover may stay put."""

    role: Role
    legs: tuple[int, ...]
    along: Role | None = None
    optional: bool = False


@dataclass(frozen=True, slots=True)
class Opposed:
    """An opposed check: each side's total, who won, and the winner's degrees."""

    actor_total: int
    actor_bonus: int
    opponent_total: int
    opponent_bonus: int
    actor_wins: bool
    degrees: int

    @property
    def label(self) -> str:
        """The actor's result in words: 'win, 2 degrees' or 'lose, 1 degree'."""
        return (f"{'win' if self.actor_wins else 'lose'}, {self.degrees}"
                f" degree{'s' if self.degrees != 1 else ''}")


@dataclass(frozen=True, slots=True)
class Hold:
    """A grab in force: the grabber's Strength (or grab rank) and the accumulated degrees."""

    strength: int
    degrees: int

    @property
    def condition(self) -> Condition:
        """Restrained at 1 degree, bound at 2 or more."""
        return Condition.BOUND if self.degrees >= GRAB_BOUND_DEGREES else Condition.RESTRAINED


@dataclass(frozen=True, slots=True)
class Outcome:
    """What an action did, in roles; ``why`` explains it in a line."""

    action: Action
    success: bool
    why: str
    spent: tuple[Cost, ...] = ()
    gains: tuple[Gain, ...] = ()
    losses: tuple[Loss, ...] = ()
    bonuses: tuple[Bonus, ...] = ()
    moves: tuple[Movement, ...] = ()
    drops: tuple[Role, ...] = ()
    then: tuple[Then, ...] = ()
    attack: at.AttackResult | None = None
    check: CheckResult | None = None
    opposed: Opposed | None = None
    hold: Hold | None = None
    damage: DamageState | None = None
    fatigue: Condition | None = None
    data: dict[str, int | str] = field(default_factory=dict)


def _spend(action: Action) -> tuple[Cost, ...]:
    cost = ACTIONS[action].cost
    return () if cost is Cost.NONE else (cost,)


# ------------------------------------------------------------------ helpers

def opposed(actor_natural: int, actor_bonus: int, opponent_natural: int, opponent_bonus: int,
            *, actor_hero_point: bool = False, opponent_hero_point: bool = False) -> Opposed:
    """An opposed check (filled in): higher total wins, ties to the higher bonus, then to the
    actor; the winner has 1 degree + 1 per full 5 over the other total."""
    a_die = hero_point_die(check_die(actor_natural)) if actor_hero_point else check_die(
        actor_natural)
    o_die = hero_point_die(check_die(opponent_natural)) if opponent_hero_point else check_die(
        opponent_natural)
    a, o = a_die + actor_bonus, o_die + opponent_bonus
    wins = (a, actor_bonus, 1) > (o, opponent_bonus, 0)
    degrees = 1 + abs(a - o) // 5
    return Opposed(a, actor_bonus, o, opponent_bonus, wins, degrees)


@lru_cache(maxsize=1024)
def _opposed_odds(actor_bonus: int, opponent_bonus: int) -> tuple[tuple[str, Fraction], ...]:
    counts: dict[str, int] = {}
    for mine in range(1, DIE_SIDES + 1):
        for theirs in range(1, DIE_SIDES + 1):
            label = opposed(mine, actor_bonus, theirs, opponent_bonus).label
            counts[label] = counts.get(label, 0) + 1
    return tuple((k, Fraction(n, DIE_SIDES ** 2)) for k, n in counts.items())


def opposed_odds(actor_bonus: int, opponent_bonus: int) -> dict[str, Fraction]:
    """Exact chance of each result of an opposed check (both dice to roll), by its words
    (``Opposed.label``; only the results that can happen)."""
    return dict(_opposed_odds(actor_bonus, opponent_bonus))


def speed_feet(rank: int) -> Fraction:
    """How far a speed rank moves in one move action: 30 ft at rank 0, doubling per rank
    (filled in)."""
    return Fraction(GROUND_SPEED_FT) * Fraction(2) ** rank


def _attack(natural: int | None, bonus: int, dc: int, threat_from: int,
            can_crit: bool) -> at.AttackResult:
    if natural is None:
        return at.routine_attack(bonus, dc)
    return at.attack(natural, bonus, dc, threat_from=threat_from, can_crit=can_crit)


def _can_move(conditions: Iterable[Condition | str], what: str) -> int:
    change = speed_change(conditions)
    if change is None:
        raise IllegalAction(f"{what}: immobile, no movement")
    return change


# ------------------------------------------------------------------ aid, aim, attack, charge

def aid(natural: int, attack_bonus: int, *, defense: bool, in_position: bool = True,
        hero_point: bool = False) -> Outcome:
    """Aid: an attack check against DC 10; success gives the ally +2 (3+ degrees: +5) on attacks
    against the foe, or to Dodge and Parry against it (``defense``), until the end of the ally's
    next turn."""
    if not in_position:
        raise IllegalAction("aid: you must be in position to attack the foe")
    result = check(natural, attack_bonus, AID_DC, hero_point=hero_point)
    value = aid_bonus(result.degree)
    lasts = DURATIONS["aid"]
    whats = ("dodge", "parry") if defense else ("attack",)
    bonuses = tuple(Bonus(Role.ALLY, w, value, Role.TARGET, lasts) for w in whats) if value else ()
    why = (f"aid {result.total} vs DC {AID_DC}: {result.label}"
           + (f", ally +{value} {'defense' if defense else 'attack'}" if value else ""))
    return Outcome(A.AID, result.success, why, _spend(A.AID), bonuses=bonuses, check=result)


def aim(*, close: bool, point_blank: bool = False) -> Outcome:
    """Aim: +5 on the next attack if close or ranged at close range, +2 for ranged further;
    the aimer is vulnerable until it attacks (or loses the aim)."""
    value = AIM_CLOSE_BONUS if close or point_blank else AIM_RANGED_BONUS
    lasts = Lasts("end_of_next_turn", "source")
    return Outcome(A.AIM, True, f"aim: +{value} on the next attack, vulnerable meanwhile",
                   _spend(A.AIM), gains=(Gain(Role.ACTOR, Condition.VULNERABLE, lasts),),
                   bonuses=(Bonus(Role.ACTOR, "attack", value, None, lasts),),
                   data={"aim_bonus": value})


def aim_kept(next_action: Action) -> bool:
    """Whether an aim survives the aimer's next action: the attacks with an attack check use it,
    free actions leave it, anything else spoils it (filled in)."""
    if next_action is A.CHARGE:
        return False
    return ACTIONS[next_action].attack_check or ACTIONS[next_action].cost is Cost.FREE


def attack(natural: int | None, bonus: int, dc: int, *, attack_range: at.AttackRange =
           at.AttackRange.CLOSE, area: bool = False, modifier: int = 0, threat_from: int = 20,
           can_crit: bool = True) -> Outcome:
    """Attack: ``attacks.attack`` with ``modifier`` (aim, aid, range, cover...) added; a routine
    check when ``natural`` is None (the caller checks ``attacks.routine_allowed``). Area and
    perception effects need no roll and always affect."""
    if not at.needs_attack_check(attack_range, area):
        return Outcome(A.ATTACK, True, "no attack check: the effect reaches the target",
                       _spend(A.ATTACK), then=(Then.RESOLVE_EFFECT,))
    result = _attack(natural, bonus + modifier, dc, threat_from, can_crit)
    why = f"attack {result.total} vs {dc}: {result.outcome}"
    return Outcome(A.ATTACK, result.hit, why, _spend(A.ATTACK), attack=result,
                   then=(Then.RESOLVE_EFFECT,) if result.hit else ())


def charge(natural: int, bonus: int, dc: int, *, speed_rank: int, with_move: bool = False,
           conditions: Iterable[Condition | str] = (), threat_from: int = 20,
           can_crit: bool = True) -> Outcome:
    """Charge: move up to the speed rank (twice with the move action), then a close attack at
    -2."""
    change = _can_move(conditions, "charge")
    rank = speed_rank + change
    legs = (rank, rank) if with_move else (rank,)
    result = _attack(natural, bonus + CHARGE_PENALTY, dc, threat_from, can_crit)
    spent = (Cost.MOVE, Cost.STANDARD) if with_move else (Cost.STANDARD,)
    return Outcome(A.CHARGE, result.hit, f"charge, attack {result.total} vs {dc}:"
                   f" {result.outcome}", spent, moves=(Movement(Role.ACTOR, legs),),
                   attack=result, then=(Then.RESOLVE_EFFECT,) if result.hit else ())


# ------------------------------------------------------------------ command, crawl, defend

def command(count: int = 1) -> Outcome:
    """Command: one command to a minion or thrall (or one group) per move action, so at most
    two a turn."""
    if not 1 <= count <= MAX_COMMANDS_PER_TURN:
        raise IllegalAction(f"command: 1 to {MAX_COMMANDS_PER_TURN} commands a turn, not {count}")
    return Outcome(A.COMMAND, True, f"{count} command(s)", (Cost.MOVE,) * count,
                   then=(Then.ISSUE_COMMAND,) * count)


def crawl(ground_rank: int, conditions: Iterable[Condition | str], *,
          slither: bool = False) -> Outcome:
    """Crawl: a prone character moves at ground speed -1 rank (Slither: full speed)."""
    given = [Condition(c) for c in conditions]
    conds = expand(given)
    if Condition.PRONE not in conds:
        raise IllegalAction("crawl: only while prone")
    _can_move(conds, "crawl")
    rest = [c for c in given if c is not Condition.PRONE]
    change = _can_move(rest, "crawl") if slither else CRAWL_SPEED_CHANGE
    rank = ground_rank + change
    return Outcome(A.CRAWL, True, f"crawl at speed rank {rank}", _spend(A.CRAWL),
                   moves=(Movement(Role.ACTOR, (rank,)),))


def defend() -> Outcome:
    """Defend: until the start of the defender's next turn each attack on it is opposed by
    d20 + its active defense (a die of 10 or less counting +10)."""
    return Outcome(A.DEFEND, True, "defending until your next turn", _spend(A.DEFEND),
                   then=(Then.OPPOSE_ATTACKS,),
                   data={"lasts": DURATIONS["defend"].kind})


def attack_vs_defend(attack_natural: int, attack_bonus: int, defend_natural: int,
                     active_defense: int, *, threat_from: int = 20,
                     can_crit: bool = True) -> at.AttackResult:
    """An attack on a defending character: it hits if its total equals or exceeds the defend
    result (d20, 10 or less +10, + active defense); natural 20 and 1 as usual (filled in)."""
    dc = defend_result(defend_natural, active_defense)
    return at.attack(attack_natural, attack_bonus, dc, threat_from=threat_from,
                     can_crit=can_crit)


# ------------------------------------------------------------------ delay and ready

@dataclass(frozen=True, slots=True)
class TurnEffect:
    """An effect on the delaying character that would end with its turn."""

    id: str
    beneficial: bool


def delay(*, acted: bool, can_act: bool, effects: Sequence[TurnEffect] = ()) -> Outcome:
    """Delay: the whole turn, before any action and only if able to act. Beneficial end-of-turn
    effects end now; harmful ones and the resistance checks wait until the delayed turn.
    ``encounter.delay`` and ``encounter.step_in`` do the same to the order and the effects."""
    if acted:
        raise IllegalAction("delay: only before taking any action this turn")
    if not can_act:
        raise IllegalAction("delay: only when able to act")
    ending = ",".join(e.id for e in effects if e.beneficial)
    waiting = ",".join(e.id for e in effects if not e.beneficial)
    return Outcome(A.DELAY, True, "delay: act after any other character's action", (),
                   then=(Then.LEAVE_ORDER, Then.DEFER_RESISTANCE),
                   data={"end_now": ending, "deferred": waiting})


def delayed_turn(*, slot_reached: bool) -> Outcome:
    """Take a delayed turn: after another's action it moves the initiative to that point; once
    the delayer's own slot comes round again the delayed turn is lost and its initiative
    stays."""
    if slot_reached:
        return Outcome(A.DELAY, False, "the delayed turn is lost; initiative stays", (),
                       then=(Then.END_TURN,))
    return Outcome(A.DELAY, True, "the delayed turn is taken here", (),
                   then=(Then.MOVE_IN_ORDER,))


READYABLE = frozenset({Cost.STANDARD, Cost.MOVE, Cost.FREE})


def ready(action: Action, trigger: str) -> Outcome:
    """Ready: one standard, move or free action with a trigger, taken as a reaction before the
    readier's next turn (its initiative moves there); unused at that turn, it is lost. This
    checks the action; ``encounter.ready`` (with ``data['kind']``) keeps it in the order."""
    d = ACTIONS[action]
    if d.cost not in READYABLE or d.whole_turn or action in (A.READY, A.DELAY):
        raise IllegalAction(f"ready: a single standard, move or free action, not {action}")
    if not trigger.strip():
        raise IllegalAction("ready: name the trigger")
    return Outcome(A.READY, True, f"ready {action} when {trigger.strip()}", _spend(A.READY),
                   data={"readied": action.value, "kind": d.cost.value,
                         "trigger": trigger.strip(), "lasts": "start_of_next_turn"})


def take_readied(action: Action, *, before_next_turn: bool) -> Outcome:
    """Take a readied action as a reaction (moving the initiative to now), or lose it at the
    readier's next turn."""
    if not before_next_turn:
        return Outcome(A.READY, False, f"the readied {action} is lost", ())
    return Outcome(A.READY, True, f"readied {action} taken", (Cost.REACTION,),
                   then=(Then.MOVE_IN_ORDER,), data={"readied": action.value})


# ------------------------------------------------------------------ disarm

def disarm(natural: int, bonus: int, dc: int, *, ranged: bool, damage_natural: int,
           damage_rank: int, strength_natural: int, defender_strength: int,
           unarmed: bool = False, melee_weapon: bool = False) -> Outcome:
    """Disarm: an attack at -2 (ranged -5); on a hit, an opposed check of the attack's damage
    against the defender's Strength; a win makes the defender drop it (unarmed: the attacker
    may take it as a free action); a melee weapon's loss lets the defender try to disarm back."""
    penalty = DISARM_RANGED_PENALTY if ranged else DISARM_CLOSE_PENALTY
    result = at.attack(natural, bonus + penalty, dc)
    if not result.hit:
        return Outcome(A.DISARM, False, f"disarm: attack {result.total} vs {dc} misses",
                       _spend(A.DISARM), attack=result)
    opp = opposed(damage_natural, damage_rank, strength_natural, defender_strength)
    if opp.actor_wins:
        then = (Then.MAY_TAKE_ITEM,) if unarmed and not ranged else ()
        return Outcome(A.DISARM, True, f"disarm: damage {opp.actor_total} beats Strength"
                       f" {opp.opponent_total}, the item drops", _spend(A.DISARM),
                       drops=(Role.TARGET,), then=then, attack=result, opposed=opp)
    then = (Then.COUNTER_DISARM,) if melee_weapon and not ranged else ()
    return Outcome(A.DISARM, False, f"disarm: Strength {opp.opponent_total} holds against"
                   f" damage {opp.actor_total}", _spend(A.DISARM), then=then, attack=result,
                   opposed=opp)


def counter_disarm(damage_natural: int, damage_rank: int, strength_natural: int,
                   attacker_strength: int) -> Outcome:
    """The defender's counter-disarm (a reaction): its damage against the attacker's Strength;
    on a failure nothing more happens (no counter to the counter)."""
    opp = opposed(damage_natural, damage_rank, strength_natural, attacker_strength)
    drops = (Role.ACTOR,) if opp.actor_wins else ()
    why = ("counter-disarm: the attacker drops its weapon" if opp.actor_wins
           else "counter-disarm fails; the disarm is over")
    return Outcome(A.COUNTER_DISARM, opp.actor_wins, why, (Cost.REACTION,), drops=drops,
                   opposed=opp, data={"by": Role.TARGET.value})


# ------------------------------------------------------------------ drop, stand, move, run

def drop_item(*, thrown_at_target: bool = False) -> Outcome:
    """Drop a held item (free); dropping or throwing it to hit something is an attack."""
    if thrown_at_target:
        raise IllegalAction("drop item: throwing it to hit something is an attack (standard)")
    return Outcome(A.DROP_ITEM, True, "item dropped", _spend(A.DROP_ITEM), drops=(Role.ACTOR,))


def drop_prone() -> Outcome:
    """Drop prone (free); standing up takes a move action."""
    return Outcome(A.DROP_PRONE, True, "prone", _spend(A.DROP_PRONE),
                   gains=(Gain(Role.ACTOR, Condition.PRONE),))


def stand(*, natural: int | None = None, acrobatics: int = 0, instant_up: bool = False,
          hero_point: bool = False) -> Outcome:
    """Stand: a move action; or free with DC 20 Acrobatics (``natural`` given), or free with no
    check for Instant Up. A failed check leaves one prone (filled in)."""
    stood = (Loss(Role.ACTOR, Condition.PRONE),)
    if instant_up:
        return Outcome(A.STAND, True, "Instant Up: standing (free)", (Cost.FREE,), losses=stood)
    if natural is None:
        return Outcome(A.STAND, True, "standing (move)", (Cost.MOVE,), losses=stood)
    result = check(natural, acrobatics, STAND_ACROBATICS_DC, hero_point=hero_point)
    return Outcome(A.STAND, result.success, f"Acrobatics {result.total} vs DC"
                   f" {STAND_ACROBATICS_DC}: {result.label}", (Cost.FREE,),
                   losses=stood if result.success else (), check=result)


def move(speed_rank: int, conditions: Iterable[Condition | str] = (), *,
         legs: int = 1) -> Outcome:
    """Move: the speed rank in any mode one has, once per move action (two with two moves);
    hindered -1 rank, immobile none, prone only crawls."""
    conds = list(conditions)
    if Condition.PRONE in expand(conds):
        raise IllegalAction("move: prone, crawl or stand first")
    if legs not in (1, 2):
        raise IllegalAction(f"move: one or two move actions, not {legs}")
    rank = speed_rank + _can_move(conds, "move")
    return Outcome(A.MOVE, True, f"move {legs} x speed rank {rank}", (Cost.MOVE,) * legs,
                   moves=(Movement(Role.ACTOR, (rank,) * legs),))


def run(natural: int, athletics: int, *, hero_point: bool = False) -> Outcome:
    """Run (free): DC 15 Athletics; one or more degrees of success give +1 ground speed rank for
    1 round."""
    result = check(natural, athletics, RUN_DC, hero_point=hero_point)
    bonus = (Bonus(Role.ACTOR, "speed", RUN_SPEED_BONUS, None, Lasts("rounds", "source", 1)),)
    return Outcome(A.RUN, result.success, f"Athletics {result.total} vs DC {RUN_DC}:"
                   f" {result.label}", _spend(A.RUN),
                   bonuses=bonus if result.success else (), check=result)


# ------------------------------------------------------------------ grab, escape, drag

def grab(natural: int, bonus: int, dc: int, *, resist_natural: int, strength: int,
         target_strength: int, target_dodge: int, hold: Hold | None = None,
         threat_from: int = 20) -> Outcome:
    """Grab: an attack; on a hit the target resists the grabber's Strength (or grab rank),
    DC 10 + it, with the better of Strength or Dodge. The target's degrees of failure are the
    grabber's degrees, added to an existing ``hold``: 1 restrained, 2+ bound. A success frees
    the target. The grabber is hindered and vulnerable while holding."""
    result = at.attack(natural, bonus, dc, threat_from=threat_from)
    if not result.hit:
        return Outcome(A.GRAB, False, f"grab: attack {result.total} vs {dc} misses",
                       _spend(A.GRAB), attack=result, hold=hold)
    res = check(resist_natural, max(target_strength, target_dodge), GRAB_DC_BASE + strength)
    if res.success:
        return Outcome(A.GRAB, False, f"grab: resisted ({res.total} vs {res.dc})"
                       + (", the target breaks free" if hold else ""), _spend(A.GRAB),
                       losses=_hold_losses(hold), then=(Then.RELEASE,) if hold else (),
                       attack=result, check=res)
    new = Hold(strength, (hold.degrees if hold else 0) + res.degrees)
    gains = [Gain(Role.TARGET, new.condition)]
    losses: list[Loss] = []
    if hold is None:
        gains += [Gain(Role.ACTOR, Condition.HINDERED), Gain(Role.ACTOR, Condition.VULNERABLE)]
    elif hold.condition is not new.condition:
        losses.append(Loss(Role.TARGET, hold.condition))
    if hold is not None and hold.condition is new.condition:
        gains = []
    return Outcome(A.GRAB, True, f"grab: {new.degrees} degree(s), {new.condition}",
                   _spend(A.GRAB), gains=tuple(gains), losses=tuple(losses),
                   then=(Then.HOLD,), attack=result, check=res, hold=new)


def _hold_losses(hold: Hold | None) -> tuple[Loss, ...]:
    if hold is None:
        return ()
    return (Loss(Role.TARGET, hold.condition), Loss(Role.ACTOR, Condition.HINDERED),
            Loss(Role.ACTOR, Condition.VULNERABLE))


def release(hold: Hold) -> Outcome:
    """Release (free): the hold ends."""
    return Outcome(A.RELEASE, True, "released", _spend(A.RELEASE), losses=_hold_losses(hold),
                   then=(Then.RELEASE,))


def maintain_grab(hold: Hold, *, can_take_free: bool) -> Outcome:
    """Maintain a hold (free, each turn); unable to take the free action, the target is
    freed."""
    if can_take_free:
        return Outcome(A.MAINTAIN_GRAB, True, "hold maintained", _spend(A.MAINTAIN_GRAB),
                       then=(Then.HOLD,), hold=hold)
    return Outcome(A.MAINTAIN_GRAB, False, "hold lost: no free action", (),
                   losses=_hold_losses(hold), then=(Then.RELEASE,))


def grab_damage(hold: Hold, *, established_earlier: bool) -> Outcome:
    """Strength damage (standard) to the one held, from the turn after the hold is made: the
    target resists the grabber's Strength rank, DC 15 + it."""
    if not established_earlier:
        raise IllegalAction("grab damage: only on a turn after the hold is established")
    return Outcome(A.GRAB_DAMAGE, True, f"Strength damage rank {hold.strength}",
                   _spend(A.GRAB_DAMAGE), then=(Then.RESOLVE_EFFECT,), hold=hold,
                   data={"damage_rank": hold.strength, "dc": damage_dc(hold.strength)})


def escape(natural: int, *, athletics: int, acrobatics: int, hold: Hold,
           ground_rank: int = 0, hero_point: bool = False) -> Outcome:
    """Escape (move): Athletics or Acrobatics (the better) against 10 + the grabber's Strength
    or grab rank; success ends the grab and the escaper may move ground speed -1 rank."""
    result = check(natural, max(athletics, acrobatics), GRAB_DC_BASE + hold.strength,
                   hero_point=hero_point)
    why = f"escape {result.total} vs {result.dc}: {result.label}"
    if not result.success:
        return Outcome(A.ESCAPE, False, why + ", still held", _spend(A.ESCAPE), check=result,
                       hold=hold)
    losses = (Loss(Role.ACTOR, hold.condition), Loss(Role.TARGET, Condition.HINDERED),
              Loss(Role.TARGET, Condition.VULNERABLE))
    mv = Movement(Role.ACTOR, (ground_rank + ESCAPE_SPEED_CHANGE,), optional=True)
    return Outcome(A.ESCAPE, True, why + ", free", _spend(A.ESCAPE), losses=losses,
                   moves=(mv,), then=(Then.RELEASE,), check=result)


def drag(natural: int, *, target_strength: int, hold: Hold, speed_rank: int,
         conditions: Iterable[Condition | str] = (Condition.HINDERED,)) -> Outcome:
    """Drag a restrained or bound target while moving: it resists with Strength against
    10 + the grabber's Strength; failing, it moves along; succeeding, the grabber is immobile
    this turn unless it lets go."""
    rank = speed_rank + _can_move(conditions, "drag")
    res = check(natural, target_strength, GRAB_DC_BASE + hold.strength)
    if not res.success:
        return Outcome(A.DRAG, True, f"drag: Strength {res.total} vs {res.dc} fails, dragged",
                       _spend(A.DRAG), moves=(Movement(Role.ACTOR, (rank,), Role.TARGET),),
                       check=res, hold=hold)
    return Outcome(A.DRAG, False, f"drag: Strength {res.total} vs {res.dc} resists; immobile"
                   " this turn unless you let go", _spend(A.DRAG),
                   gains=(Gain(Role.ACTOR, Condition.IMMOBILE, Lasts("end_of_turn", "source")),),
                   check=res, hold=hold)


# ------------------------------------------------------------------ recover

class RecoverChoice(StrEnum):
    """What Recover does."""

    DAMAGE = "damage"
    FATIGUE = "fatigue"
    ONGOING = "ongoing"


FATIGUE_STEP_DOWN: dict[Condition, Condition | None] = {
    Condition.EXHAUSTED: Condition.FATIGUED, Condition.FATIGUED: None}
"""Recover's step down the fatigue ladder (filled in)."""


UNHURT = DamageState()
"""No damage."""


def recover(choice: RecoverChoice, *, used: bool, damage: DamageState = UNHURT,
            fatigue: Condition | None = None) -> Outcome:
    """Recover (the whole turn, once per conflict): the worst damage condition (then a -1) or a
    step of fatigue goes, or an extra resistance check against an ongoing effect; +2 Dodge and
    Parry until the start of the next turn."""
    if used:
        raise IllegalAction("recover: once per conflict, already used")
    lasts = DURATIONS["recover_defense_bonus"]
    bonuses = (Bonus(Role.ACTOR, "dodge", RECOVER_DEFENSE_BONUS, None, lasts),
               Bonus(Role.ACTOR, "parry", RECOVER_DEFENSE_BONUS, None, lasts))
    spent = (Cost.STANDARD, Cost.MOVE)
    then: tuple[Then, ...] = (Then.END_TURN,)
    new_damage, new_fatigue = damage, fatigue
    losses: tuple[Loss, ...] = ()
    if choice is RecoverChoice.DAMAGE:
        new_damage = recover_step(damage)
        losses = tuple(Loss(Role.ACTOR, c) for c in damage.conditions - new_damage.conditions)
        why = f"recover: damage {damage.worst or damage.penalty} -> " \
              f"{new_damage.worst or new_damage.penalty}"
    elif choice is RecoverChoice.FATIGUE:
        if fatigue is not None and fatigue not in FATIGUE_STEP_DOWN:
            raise IllegalAction(f"recover: {fatigue} is not on the fatigue ladder")
        new_fatigue = FATIGUE_STEP_DOWN.get(fatigue) if fatigue else None
        losses = (Loss(Role.ACTOR, fatigue),) if fatigue else ()
        gains = (Gain(Role.ACTOR, new_fatigue),) if new_fatigue else ()
        return Outcome(A.RECOVER, True, f"recover: {fatigue} -> {new_fatigue}", spent,
                       gains=gains, losses=losses, bonuses=bonuses, then=then,
                       damage=damage, fatigue=new_fatigue)
    else:
        then = (Then.RESIST_ONGOING, Then.END_TURN)
        why = "recover: an extra resistance check against an ongoing effect"
    return Outcome(A.RECOVER, True, why, spent, losses=losses, bonuses=bonuses, then=then,
                   damage=new_damage, fatigue=new_fatigue)


# ------------------------------------------------------------------ smash, trip

def smash(natural: int, bonus: int, dc: int, *, held: bool, threat_from: int = 20) -> Outcome:
    """Smash: an attack against the holder's defense, -5 if the object is held (not worn); on a
    hit the damage goes to the object."""
    penalty = SMASH_HELD_PENALTY if held else 0
    result = at.attack(natural, bonus + penalty, dc, threat_from=threat_from)
    return Outcome(A.SMASH, result.hit, f"smash: attack {result.total} vs {dc}:"
                   f" {result.outcome}", _spend(A.SMASH), attack=result,
                   then=(Then.DAMAGE_OBJECT,) if result.hit else ())


def object_resists(natural: int, toughness: int, rank: int) -> tuple[CheckResult, str]:
    """The smashed object's Toughness against 15 + the damage rank: 'intact', 'broken' (2
    degrees of failure) or 'destroyed' (3+)."""
    result = check(natural, toughness, damage_dc(rank))
    return result, object_result(result.degree)


def trip(natural: int, bonus: int, parry: int, *, actor_natural: int, actor_acrobatics: int,
         actor_athletics: int, target_natural: int, target_acrobatics: int,
         target_athletics: int) -> Outcome:
    """Trip: a close attack against Parry at -2; on a hit, the better of Acrobatics or Athletics
    on each side, opposed. A win leaves the target prone in an adjacent square of the
    tripper's choice; a loss gives the target one counter-trip."""
    result = at.attack(natural, bonus + TRIP_PENALTY, at.defense_class(parry))
    if not result.hit:
        return Outcome(A.TRIP, False, f"trip: attack {result.total} vs"
                       f" {result.defense_class} misses", _spend(A.TRIP), attack=result)
    opp = opposed(actor_natural, max(actor_acrobatics, actor_athletics), target_natural,
                  max(target_acrobatics, target_athletics))
    if opp.actor_wins:
        return Outcome(A.TRIP, True, f"trip: {opp.actor_total} vs {opp.opponent_total},"
                       " the target is prone", _spend(A.TRIP),
                       gains=(Gain(Role.TARGET, Condition.PRONE),),
                       attack=result, opposed=opp, data={"placed": "adjacent, tripper's choice"})
    return Outcome(A.TRIP, False, f"trip: {opp.actor_total} vs {opp.opponent_total}, the"
                   " target may trip back", _spend(A.TRIP), then=(Then.COUNTER_TRIP,),
                   attack=result, opposed=opp)


def counter_trip(target_natural: int, target_bonus: int, actor_natural: int,
                 actor_bonus: int) -> Outcome:
    """The target's counter-trip after a lost trip: the same opposed check the other way; a
    win leaves the tripper prone, a failure ends the trip."""
    opp = opposed(target_natural, target_bonus, actor_natural, actor_bonus)
    if opp.actor_wins:
        return Outcome(A.COUNTER_TRIP, True, "counter-trip: the tripper is prone", (),
                       gains=(Gain(Role.ACTOR, Condition.PRONE),), opposed=opp,
                       data={"by": Role.TARGET.value})
    return Outcome(A.COUNTER_TRIP, False, "counter-trip fails; the trip ends", (),
                   opposed=opp, data={"by": Role.TARGET.value})

