"""Conditions: what each does and which conditions it includes (RULES.md D.8).

The seed defines a few conditions itself (vulnerable, defenseless, impaired, disabled,
restrained, bound) and refers to "The Basics" for the rest, which it leaves out. Those are
filled in from the M&M 3e definitions (RULES.md D.8 [EXT]) and marked ``filled_in``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

FILLED_IN = (
    "Conditions the seed names without defining (RULES.md D.8 [EXT], M&M 3e): dazed (one"
    " standard action and free actions), stunned (no actions), hindered (speed -1 rank),"
    " immobile (no movement), staggered (dazed + hindered), incapacitated (defenseless, stunned,"
    " unaware, prone), dying (incapacitated), dead (incapacitated), fatigued (hindered),"
    " exhausted (impaired + hindered), prone (hindered; close attacks against it +5, ranged -5),"
    " surprised (stunned + vulnerable, from the seed's surprise round), unaware, compelled."
    " A stronger condition supersedes a weaker one: disabled's -5 replaces impaired's -2,"
    " defenseless replaces vulnerable, immobile replaces hindered, stunned replaces dazed."
)
"""The rules of this module that the seed leaves out, filled in."""


class Condition(StrEnum):
    """Every condition the seed refers to."""

    VULNERABLE = "vulnerable"
    DEFENSELESS = "defenseless"
    IMPAIRED = "impaired"
    DISABLED = "disabled"
    RESTRAINED = "restrained"
    BOUND = "bound"
    DAZED = "dazed"
    STAGGERED = "staggered"
    STUNNED = "stunned"
    HINDERED = "hindered"
    IMMOBILE = "immobile"
    INCAPACITATED = "incapacitated"
    DYING = "dying"
    DEAD = "dead"
    FATIGUED = "fatigued"
    EXHAUSTED = "exhausted"
    PRONE = "prone"
    SURPRISED = "surprised"
    UNAWARE = "unaware"
    COMPELLED = "compelled"


C = Condition


@dataclass(frozen=True, slots=True)
class ConditionDef:
    """A condition: what it does, the conditions it includes, whether the seed defines it."""

    id: Condition
    summary: str
    includes: tuple[Condition, ...] = ()
    check_penalty: int = 0
    filled_in: bool = False


CONDITIONS: dict[Condition, ConditionDef] = {d.id: d for d in (
    ConditionDef(C.VULNERABLE, "active defenses (Dodge, Parry) halved, rounding up"),
    ConditionDef(C.DEFENSELESS, "active defenses 0; attacks on it may be routine checks"),
    ConditionDef(C.IMPAIRED, "-2 circumstance penalty on checks", check_penalty=-2),
    ConditionDef(C.DISABLED, "-5 circumstance penalty on checks", check_penalty=-5),
    ConditionDef(C.RESTRAINED, "immobile and vulnerable", (C.IMMOBILE, C.VULNERABLE)),
    ConditionDef(C.BOUND, "defenseless, immobile and impaired",
                 (C.DEFENSELESS, C.IMMOBILE, C.IMPAIRED)),
    ConditionDef(C.DAZED, "only free actions and one standard action a turn", filled_in=True),
    ConditionDef(C.STAGGERED, "dazed and hindered; lasts until recovery",
                 (C.DAZED, C.HINDERED), filled_in=True),
    ConditionDef(C.STUNNED, "no actions at all", filled_in=True),
    ConditionDef(C.HINDERED, "speed -1 rank (half)", filled_in=True),
    ConditionDef(C.IMMOBILE, "no movement", filled_in=True),
    ConditionDef(C.INCAPACITATED, "defenseless, stunned and unaware, and prone",
                 (C.DEFENSELESS, C.STUNNED, C.UNAWARE, C.PRONE), filled_in=True),
    ConditionDef(C.DYING, "incapacitated and near death", (C.INCAPACITATED,), filled_in=True),
    ConditionDef(C.DEAD, "dead", (C.INCAPACITATED,), filled_in=True),
    ConditionDef(C.FATIGUED, "hindered; one step toward exhaustion", (C.HINDERED,),
                 filled_in=True),
    ConditionDef(C.EXHAUSTED, "impaired and hindered", (C.IMPAIRED, C.HINDERED), filled_in=True),
    ConditionDef(C.PRONE, "hindered; close attacks against it +5, ranged attacks -5",
                 (C.HINDERED,), filled_in=True),
    ConditionDef(C.SURPRISED, "stunned and vulnerable until the next round",
                 (C.STUNNED, C.VULNERABLE)),
    ConditionDef(C.UNAWARE, "cannot perceive or react to its surroundings", filled_in=True),
    ConditionDef(C.COMPELLED, "its actions are chosen by another (one standard a turn)",
                 filled_in=True),
)}
"""Every condition by id."""

SUPERSEDES: dict[Condition, tuple[Condition, ...]] = {
    C.DISABLED: (C.IMPAIRED,),
    C.DEFENSELESS: (C.VULNERABLE,),
    C.IMMOBILE: (C.HINDERED,),
    C.STUNNED: (C.DAZED,),
    C.DEAD: (C.DYING,),
}
"""A stronger condition makes a weaker one moot while both apply (filled in)."""

PRONE_CLOSE_ATTACK = 5
PRONE_RANGED_ATTACK = -5
"""Attack modifiers against a prone target (filled in)."""


def expand(conditions: Iterable[Condition | str]) -> frozenset[Condition]:
    """Every condition in force: the given ones and everything they include, transitively."""
    seen: set[Condition] = set()
    todo = [Condition(c) for c in conditions]
    while todo:
        c = todo.pop()
        if c not in seen:
            seen.add(c)
            todo.extend(CONDITIONS[c].includes)
    return frozenset(seen)


def effective(conditions: Iterable[Condition | str]) -> frozenset[Condition]:
    """The expanded conditions without those a stronger one supersedes."""
    full = expand(conditions)
    moot = {weak for strong in full for weak in SUPERSEDES.get(strong, ())}
    return full - moot


def check_penalty(conditions: Iterable[Condition | str]) -> int:
    """The circumstance penalty on checks: the worst of impaired (-2) and disabled (-5)."""
    return min((CONDITIONS[c].check_penalty for c in expand(conditions)), default=0)


def active_defense(rank: int, conditions: Iterable[Condition | str]) -> int:
    """An active defense (Dodge or Parry) under the conditions: 0 if defenseless, halved
    rounding up if vulnerable."""
    full = expand(conditions)
    if C.DEFENSELESS in full:
        return 0
    if C.VULNERABLE in full:
        return -(-rank // 2)
    return rank


def speed_change(conditions: Iterable[Condition | str]) -> int | None:
    """Ranks of speed lost (-1 if hindered); None if immobile (no movement)."""
    full = expand(conditions)
    if C.IMMOBILE in full:
        return None
    return -1 if C.HINDERED in full else 0


@dataclass(frozen=True, slots=True)
class ActionBudget:
    """What a character may do on its turn."""

    standard: int
    move: int
    free: bool

    @property
    def any(self) -> bool:
        """Whether it can act at all."""
        return self.standard + self.move > 0 or self.free


NORMAL_BUDGET = ActionBudget(1, 1, True)
"""A standard and a move action (the standard may be traded for a second move) and free ones."""


def action_budget(conditions: Iterable[Condition | str]) -> ActionBudget:
    """The turn's actions under the conditions: none if stunned, one standard (no move) if dazed
    (filled in)."""
    full = expand(conditions)
    if C.STUNNED in full:
        return ActionBudget(0, 0, False)
    if C.DAZED in full or C.COMPELLED in full:
        return ActionBudget(1, 0, True)
    return NORMAL_BUDGET


def attack_modifier_against(conditions: Iterable[Condition | str], close: bool) -> int:
    """The attack modifier against a target under the conditions (prone: +5 close, -5 ranged)."""
    if C.PRONE not in expand(conditions):
        return 0
    return PRONE_CLOSE_ATTACK if close else PRONE_RANGED_ATTACK


# ------------------------------------------------------------------ durations

@dataclass(frozen=True, slots=True)
class Lasts:
    """How long something lasts, in the vocabulary of ``engine.rules.encounter.DurationKind``:
    ``kind``, whose turns count (``anchor``: the target, the source, or the aided ally), and the
    N of ``round_start``."""

    kind: str
    anchor: str
    amount: int = 0


DURATIONS: dict[str, Lasts] = {
    "damage_dazed": Lasts("end_of_next_turn", "target"),
    "staggered": Lasts("recovery", "target"),
    "incapacitated": Lasts("recovery", "target"),
    "damage_penalty": Lasts("recovery", "target"),
    "surprised": Lasts("round_start", "target", 1),
    "trade_maneuver": Lasts("start_of_next_turn", "source"),
    "defend": Lasts("start_of_next_turn", "source"),
    "recover_defense_bonus": Lasts("start_of_next_turn", "source"),
    "aid": Lasts("end_of_next_turn", "ally"),
    "demoralize": Lasts("end_of_next_turn", "source"),
    "feint": Lasts("end_of_next_turn", "source"),
}
"""How long the seed's timed conditions and bonuses last. "Until the end of your next round"
(demoralize, feint) is read as the end of the source's next turn, as the encounter does."""
