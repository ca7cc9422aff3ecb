"""Attacks: defense class, hits, threats and critical hits, range, concealment, cover, areas
(RULES.md D.3).

An attack check is d20 + attack bonus against a defense class of 10 + the defense rank (Parry
against close attacks, Dodge against ranged). A natural 20 always hits and is a threat; a threat
is a critical hit only if the total also reaches the defense class. A natural 1 always misses.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from functools import lru_cache

from engine.systems.mm3e.checks import DIE_SIDES, ROUTINE_DIE, check_die

FILLED_IN = (
    "Area effects (the Area extra is not in the seed; RULES.md D.3 and issue 12 say 'Dodge for"
    " half'): a target in the area makes a Dodge resistance check against DC 10 + the effect's"
    " rank; on a success the effect's rank against that target is halved, rounding down. Cover"
    " between the target and the origin adds +2 (partial) or +5 (total) to that Dodge check."
)
"""The rules of this module that the seed leaves out, filled in."""

DEFENSE_BASE = 10
"""Defense class = 10 + defense rank."""

CRIT_INCREASED_EFFECT = 5
"""Critical hit, Increased Effect: +5 to the resistance DC (a minion takes the worst degree)."""

ADDED_EFFECT_DC = 10
ADDED_DAMAGE_EFFECT_DC = 15
"""Critical hit, Added Effect: a rank-0 effect, DC 10 (15 for Damage)."""


class AttackRange(StrEnum):
    """An attack's range."""

    CLOSE = "close"
    RANGED = "ranged"
    PERCEPTION = "perception"


class CritEffect(StrEnum):
    """What a critical hit does, chosen by the player."""

    INCREASED = "increased_effect"
    ADDED = "added_effect"
    ALTERNATE = "alternate_effect"


class RangeBand(StrEnum):
    """How far a ranged attack reaches its target."""

    SHORT = "short"
    MEDIUM = "medium"
    LONG = "long"
    BEYOND = "beyond"


class Obscurement(StrEnum):
    """Concealment or cover between attacker and target (``COMPLETE``: cover only, no attack)."""

    NONE = "none"
    PARTIAL = "partial"
    TOTAL = "total"
    COMPLETE = "complete"


RANGE_FEET_PER_RANK = {RangeBand.SHORT: 25, RangeBand.MEDIUM: 50, RangeBand.LONG: 100}
"""A ranged attack's band limits: rank x 25 / 50 / 100 feet."""

RANGE_PENALTY: dict[RangeBand, int | None] = {
    RangeBand.SHORT: 0, RangeBand.MEDIUM: -2, RangeBand.LONG: -5, RangeBand.BEYOND: None}
"""Attack modifier by range band; None: the target cannot be attacked."""

OBSCUREMENT_PENALTY: dict[Obscurement, int | None] = {
    Obscurement.NONE: 0, Obscurement.PARTIAL: -2, Obscurement.TOTAL: -5,
    Obscurement.COMPLETE: None}
"""Attack modifier for concealment or cover; None: the target cannot be attacked."""


def defense_class(rank: int) -> int:
    """10 + the defense rank."""
    return DEFENSE_BASE + rank


def defense_against(attack_range: AttackRange) -> str | None:
    """The defense an attack targets: Parry for close, Dodge for ranged, none for perception."""
    if attack_range is AttackRange.CLOSE:
        return "parry"
    if attack_range is AttackRange.RANGED:
        return "dodge"
    return None


def needs_attack_check(attack_range: AttackRange, area: bool = False) -> bool:
    """Perception and area effects hit automatically: no attack check, no crit, no miss, and no
    attack modifier or maneuver applies to them."""
    return attack_range is not AttackRange.PERCEPTION and not area


def active_defense(rank: int, *, vulnerable: bool = False, defenseless: bool = False) -> int:
    """An active defense (Dodge or Parry) rank after vulnerable (halved, rounding up) or
    defenseless (0)."""
    if defenseless:
        return 0
    if vulnerable:
        return -(-rank // 2)
    return rank


def range_band(rank: int, distance_ft: float) -> RangeBand:
    """The band of a ranged attack of ``rank`` at ``distance_ft`` feet."""
    for band in (RangeBand.SHORT, RangeBand.MEDIUM, RangeBand.LONG):
        if distance_ft <= rank * RANGE_FEET_PER_RANK[band]:
            return band
    return RangeBand.BEYOND


def range_penalty(rank: int, distance_ft: float) -> int | None:
    """The attack modifier at that range; None when out of range."""
    return RANGE_PENALTY[range_band(rank, distance_ft)]


def obscurement_penalty(obscurement: Obscurement) -> int | None:
    """Concealment or cover's attack modifier; None when the target cannot be attacked."""
    return OBSCUREMENT_PENALTY[obscurement]


def cover_dodge_bonus(cover: Obscurement) -> int:
    """Cover's bonus to Dodge checks against an area effect whose origin it blocks: equal to its
    attack penalty (+2 partial, +5 total)."""
    penalty = OBSCUREMENT_PENALTY[cover]
    # complete cover blocks a targeted attack outright; against an area it is at least total
    return -penalty if penalty is not None else -(OBSCUREMENT_PENALTY[Obscurement.TOTAL] or 0)


@dataclass(frozen=True, slots=True)
class AttackResult:
    """An attack check: the die (None if routine), the total, the defense class, what it did."""

    natural: int | None
    total: int
    defense_class: int
    hit: bool
    threat: bool
    critical: bool

    @property
    def routine(self) -> bool:
        """Whether the attack was a routine check (no die)."""
        return self.natural is None

    @property
    def outcome(self) -> str:
        """'miss', 'hit' or 'critical'."""
        return "critical" if self.critical else "hit" if self.hit else "miss"


def attack(natural: int, bonus: int, dc: int, *, threat_from: int = 20,
           can_crit: bool = True) -> AttackResult:
    """An attack check: d20 + ``bonus`` against defense class ``dc``.

    ``threat_from``: the lowest natural that threatens (Improved Critical lowers it; only a 20
    auto-hits). ``can_crit`` is False for a minion attacking a non-minion.
    """
    check_die(natural)
    total = natural + bonus
    if natural == 1:
        hit = False
    elif natural == DIE_SIDES:
        hit = True
    else:
        hit = total >= dc
    threat = hit and natural >= min(threat_from, DIE_SIDES)
    critical = can_crit and threat and total >= dc
    return AttackResult(natural, total, dc, hit, threat, critical)


def routine_attack(bonus: int, dc: int) -> AttackResult:
    """An attack as a routine check (10 + bonus, no crit): allowed against a defenseless target
    and for a non-minion attacking a minion."""
    total = ROUTINE_DIE + bonus
    return AttackResult(None, total, dc, total >= dc, False, False)


def routine_allowed(*, target_defenseless: bool, target_minion: bool = False,
                    attacker_minion: bool = False) -> bool:
    """Whether the attacker may attack as a routine check."""
    return target_defenseless or (target_minion and not attacker_minion)


@lru_cache(maxsize=4096)
def _attack_odds(bonus: int, dc: int, threat_from: int,
                 can_crit: bool) -> tuple[tuple[str, Fraction], ...]:
    counts = {"miss": 0, "hit": 0, "critical": 0}
    for face in range(1, DIE_SIDES + 1):
        counts[attack(face, bonus, dc, threat_from=threat_from, can_crit=can_crit).outcome] += 1
    return tuple((k, Fraction(n, DIE_SIDES)) for k, n in counts.items())


def attack_odds(bonus: int, dc: int, *, threat_from: int = 20,
                can_crit: bool = True) -> dict[str, Fraction]:
    """Exact probability of 'miss', 'hit' (not critical) and 'critical'."""
    return dict(_attack_odds(bonus, dc, threat_from, can_crit))


def hit_odds(bonus: int, dc: int) -> Fraction:
    """Exact probability that the attack hits (critical or not)."""
    odds = attack_odds(bonus, dc)
    return odds["hit"] + odds["critical"]


def crit_resistance_dc(dc: int, effect: CritEffect) -> int:
    """The resistance DC after a critical hit: +5 for Increased Effect, else unchanged."""
    return dc + CRIT_INCREASED_EFFECT if effect is CritEffect.INCREASED else dc


def added_effect_dc(damage: bool) -> int:
    """The resistance DC of a critical's Added Effect (rank 0): 10, or 15 for Damage."""
    return ADDED_DAMAGE_EFFECT_DC if damage else ADDED_EFFECT_DC


def area_dodge_dc(rank: int) -> int:
    """The Dodge resistance DC against an area effect: 10 + its rank (filled in)."""
    return 10 + rank


def area_rank(rank: int, dodged: bool) -> int:
    """The area effect's rank against one target: halved, rounding down, if it made its Dodge
    check (filled in)."""
    return rank // 2 if dodged else rank
