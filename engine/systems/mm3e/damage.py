"""Damage: Toughness against 15 + damage rank, the condition ladder, minions, recovery, objects
(RULES.md D.4).

``DamageState`` is a character's damage: the cumulative Toughness penalty and the damage
conditions. ``apply_resistance`` turns one Damage resistance result into the next state.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from engine.systems.mm3e.checks import MAX_FAILURE_DEGREES, CheckResult, check
from engine.systems.mm3e.conditions import Condition

FILLED_IN = (
    "A 4-degree failure (incapacitated) adds no -1 penalty (the seed's row gives none; RULES.md"
    " D.10 item 5), unless ``penalty_on_incapacitation`` is set. A failed check by a target"
    " already incapacitated (or dying) still adds the -1 its degree gives. Dying does not go away"
    " with rest (it must be stabilized first: ``stabilize`` makes it incapacitated); the dead do"
    " not recover."
)
"""The rules of this module that the seed leaves out, filled in."""

DAMAGE_DC_BASE = 15
RESISTANCE_DC_BASE = 10
"""Damage is resisted against 15 + rank; any other effect against 10 + rank."""

PENALTY_PER_FAILURE = -1
"""Each failed Damage resistance check (of 1-3 degrees) adds -1 to later ones."""

FINISHING_KILL_DEGREES = 3
"""A finishing attack with intent to kill: 3+ degrees of failure kill outright."""

DAMAGE_CONDITIONS = (Condition.DAZED, Condition.STAGGERED, Condition.INCAPACITATED,
                     Condition.DYING, Condition.DEAD)
"""The damage ladder, mildest first."""

RECOVERY_ORDER = (Condition.INCAPACITATED, Condition.STAGGERED, Condition.DAZED)
"""Recovery removes these first, in this order, then one -1 penalty at a time."""


def damage_dc(rank: int) -> int:
    """The Toughness DC against a Damage effect: 15 + rank."""
    return DAMAGE_DC_BASE + rank


def resistance_dc(rank: int) -> int:
    """The DC against any other effect: 10 + rank."""
    return RESISTANCE_DC_BASE + rank


def strength_based_rank(strength: int, damage: int) -> int:
    """A Strength-based Damage effect adds the Strength rank (negative Strength subtracts)."""
    return strength + damage


@dataclass(frozen=True, slots=True)
class DamageState:
    """A character's damage: the Toughness penalty (never positive) and damage conditions."""

    penalty: int = 0
    conditions: frozenset[Condition] = frozenset()

    def __post_init__(self) -> None:
        if self.penalty > 0:
            raise ValueError(f"a damage penalty is never positive, got {self.penalty}")
        stray = self.conditions - set(DAMAGE_CONDITIONS)
        if stray:
            raise ValueError(f"not damage conditions: {sorted(stray)}")

    def has(self, condition: Condition) -> bool:
        """Whether the state holds ``condition``."""
        return condition in self.conditions

    @property
    def worst(self) -> Condition | None:
        """The worst damage condition, if any."""
        for c in reversed(DAMAGE_CONDITIONS):
            if c in self.conditions:
                return c
        return None

    @property
    def unhurt(self) -> bool:
        """No penalty and no condition."""
        return self.penalty == 0 and not self.conditions


class Applied(StrEnum):
    """Which row of the damage table a resistance result used."""

    NONE = "none"
    PENALTY = "penalty"
    DAZED = "dazed"
    STAGGERED = "staggered"
    INCAPACITATED = "incapacitated"
    DYING = "dying"
    DEAD = "dead"


@dataclass(frozen=True, slots=True)
class DamageOutcome:
    """A resistance result applied: the new state, the row used, the failure degrees counted."""

    state: DamageState
    applied: Applied
    failure_degrees: int
    escalated: bool = False


def apply_resistance(state: DamageState, degree: int, *, minion: bool = False,
                     finishing_kill: bool = False,
                     penalty_on_incapacitation: bool = False) -> DamageOutcome:
    """Apply one Damage resistance result (``degree`` signed, as ``checks.degree``).

    A success changes nothing. Failures: 1 degree -1; 2 dazed and -1; 3 staggered and -1 (staggered
    again: the 4th degree); 4 incapacitated. A minion's failure is always the worst degree. An
    incapacitated target that fails becomes dying, a dying one dead. ``finishing_kill``: a
    finishing attack with intent to kill, where 3+ degrees of failure kill.
    """
    if degree > 0:
        return DamageOutcome(state, Applied.NONE, 0)
    failed = MAX_FAILURE_DEGREES if minion else min(-degree, MAX_FAILURE_DEGREES)
    conds = set(state.conditions)
    if Condition.DEAD in conds:
        return DamageOutcome(state, Applied.DEAD, failed)
    if finishing_kill and failed >= FINISHING_KILL_DEGREES:
        conds.add(Condition.DEAD)
        return DamageOutcome(replace(state, conditions=frozenset(conds)), Applied.DEAD, failed)
    escalated = failed == 3 and Condition.STAGGERED in conds
    row = 4 if escalated else failed
    penalty = state.penalty
    if row < 4 or penalty_on_incapacitation:
        penalty += PENALTY_PER_FAILURE
    if Condition.DYING in conds:
        conds.add(Condition.DEAD)
        applied = Applied.DEAD
    elif Condition.INCAPACITATED in conds:
        conds.add(Condition.DYING)
        applied = Applied.DYING
    elif row == 4:
        conds.add(Condition.INCAPACITATED)
        applied = Applied.INCAPACITATED
    elif row == 3:
        conds.add(Condition.STAGGERED)
        applied = Applied.STAGGERED
    elif row == 2:
        conds.add(Condition.DAZED)
        applied = Applied.DAZED
    else:
        applied = Applied.PENALTY
    return DamageOutcome(DamageState(penalty, frozenset(conds)), applied, failed, escalated)


def resist_damage(state: DamageState, natural: int, toughness: int, rank: int, *,
                  minion: bool = False, hero_point: bool = False, extra: int = 0,
                  finishing_kill: bool = False) -> tuple[CheckResult, DamageOutcome]:
    """Roll Toughness (+ the state's penalty + ``extra``) against 15 + ``rank`` and apply it."""
    result = check(natural, toughness + state.penalty + extra, damage_dc(rank),
                   hero_point=hero_point)
    return result, apply_resistance(state, result.degree, minion=minion,
                                    finishing_kill=finishing_kill)


def minion_killed(hit: bool, intent_to_kill: bool) -> bool:
    """A minion dies outright from a successful attack made with a declared intent to kill."""
    return hit and intent_to_kill


def end_daze(state: DamageState) -> DamageState:
    """The damage daze ends (at the end of the target's next turn); staggered stays."""
    return replace(state, conditions=state.conditions - {Condition.DAZED})


def recover_step(state: DamageState) -> DamageState:
    """One step of recovery (a minute of rest, or the Recover action): the worst of
    incapacitated, staggered, dazed, then one -1 penalty. Dying and dead do not recover."""
    if state.conditions & {Condition.DYING, Condition.DEAD}:
        return state
    for c in RECOVERY_ORDER:
        if c in state.conditions:
            return replace(state, conditions=state.conditions - {c})
    if state.penalty < 0:
        return replace(state, penalty=state.penalty - PENALTY_PER_FAILURE)
    return state


def recover(state: DamageState, minutes: int) -> DamageState:
    """The state after ``minutes`` minutes of rest (one step per minute)."""
    for _ in range(max(0, minutes)):
        nxt = recover_step(state)
        if nxt == state:
            break
        state = nxt
    return state


def minutes_to_recover(state: DamageState) -> int | None:
    """Minutes of rest until unhurt; None when resting alone cannot (dying, dead)."""
    if state.conditions & {Condition.DYING, Condition.DEAD}:
        return None
    return len(state.conditions & set(RECOVERY_ORDER)) + state.penalty // PENALTY_PER_FAILURE


def stabilize(state: DamageState) -> DamageState:
    """A dying character stabilizes: it is incapacitated, no longer dying (filled in)."""
    if Condition.DEAD in state.conditions:
        return state
    return replace(state, conditions=(state.conditions - {Condition.DYING})
                   | {Condition.INCAPACITATED})


# ------------------------------------------------------------------ objects

MATERIAL_TOUGHNESS = {
    "paper": 0, "soil": 0, "glass": 1, "ice": 1, "rope": 1, "wood": 3, "stone": 5, "iron": 7,
    "reinforced concrete": 8, "steel": 9, "titanium": 15, "super-alloys": 20,
}
"""Toughness of about an inch (distance rank -7) of each material; super-alloys are 20+."""

INCH_DISTANCE_RANK = -7
"""The thickness the material table is for."""


def object_toughness(material: str, doublings: int = 0) -> int:
    """A material's Toughness, +1 per doubling of the inch thickness and -1 per halving."""
    return MATERIAL_TOUGHNESS[material] + doublings


def device_toughness(points: int) -> int:
    """A device's Toughness: its points divided by 5, rounded down, at least 1."""
    return max(1, points // 5)


def object_result(degree: int) -> str:
    """An object attacked with intent to break: 'intact', 'broken' at 2 degrees of failure,
    'destroyed' at 3+ (1 degree: 'intact' with a -1 penalty)."""
    if degree > -2:
        return "intact"
    return "broken" if degree == -2 else "destroyed"
