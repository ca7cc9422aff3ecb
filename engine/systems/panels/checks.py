"""Checks: d20 + the characteristic's skill modifier, banded 14- / 15-17 / 18+ (RULES.md C.1).

A check has no DC: the total falls in a band. A natural 20 is a critical success and a natural 1
a critical failure, whatever the modifier. A stunned character rolls every d20 at -5 (C.5).
Odds are exact fractions over the 20 faces.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from functools import lru_cache

from engine.dice import d20_threshold, entered_die
from engine.errors import IllegalAction

FILLED_IN = (
    "Characteristics run from 1 to 30 (1-20 human, 21-30 superhuman). Their skill modifier"
    " (C.7 #2): 1-2 -4, 3-4 -3, 5-6 -2, 7-8 -1, 9-11 +0, 12-13 +1, 14-15 +2, 16-18 +3, 19-20 +4,"
    " then +1 more for every 2 points above 20 (21-22 +5 ... 29-30 +9). A natural 20 always"
    " succeeds and counts as a complete success (18+) whatever the total; a natural 1 always"
    " fails (C.1 'automatic' successes and failures). A stunned character's -5 applies to every"
    " d20 roll (to hit, dodge, parry, any check), not to damage dice or the initiative d6."
)
"""The rules of this module that the seed leaves out, filled in."""

DIE_SIDES = 20
MINOR = 15
"""A total of 15-17 is a minor success."""
COMPLETE = 18
"""A total of 18 or more is a complete success."""
STUNNED_PENALTY = -5
"""A stunned character's modifier on every d20 roll (C.5)."""

MIN_CHARACTERISTIC = 1
MAX_CHARACTERISTIC = 30
"""The range of a characteristic (filled in)."""

_HUMAN_TABLE: tuple[tuple[int, int, int], ...] = (
    (1, 2, -4), (3, 4, -3), (5, 6, -2), (7, 8, -1), (9, 11, 0),
    (12, 13, 1), (14, 15, 2), (16, 18, 3), (19, 20, 4),
)
"""(low, high, modifier) rows for characteristics 1-20 (filled in)."""


class Band(StrEnum):
    """Where a total falls."""

    FAILURE = "failure"
    MINOR = "minor"
    COMPLETE = "complete"


def skill_modifier(characteristic: int) -> int:
    """The skill modifier of a characteristic (1-30), from our table (``FILLED_IN``)."""
    if isinstance(characteristic, bool) or not isinstance(characteristic, int):
        raise IllegalAction(f"a characteristic is a whole number, got {characteristic!r}")
    if not MIN_CHARACTERISTIC <= characteristic <= MAX_CHARACTERISTIC:
        raise IllegalAction(
            f"a characteristic runs from {MIN_CHARACTERISTIC} to {MAX_CHARACTERISTIC},"
            f" got {characteristic}")
    for low, high, mod in _HUMAN_TABLE:
        if low <= characteristic <= high:
            return mod
    return 4 + (characteristic - 19) // 2


def modifier_table() -> dict[int, int]:
    """Every characteristic with its skill modifier (for the sheet and the README)."""
    return {c: skill_modifier(c) for c in range(MIN_CHARACTERISTIC, MAX_CHARACTERISTIC + 1)}


def band_of_total(total: int) -> Band:
    """The band of a total, ignoring naturals: 14- failure, 15-17 minor, 18+ complete."""
    if total >= COMPLETE:
        return Band.COMPLETE
    if total >= MINOR:
        return Band.MINOR
    return Band.FAILURE


@dataclass(frozen=True, slots=True)
class CheckResult:
    """A d20 check: the die, the modifier used (stunned penalty included), the band."""

    natural: int
    modifier: int
    band: Band
    stunned: bool = False

    @property
    def total(self) -> int:
        """Die + modifier."""
        return self.natural + self.modifier

    @property
    def success(self) -> bool:
        """A minor or complete success."""
        return self.band is not Band.FAILURE

    @property
    def critical_success(self) -> bool:
        """A natural 20."""
        return self.natural == DIE_SIDES

    @property
    def critical_failure(self) -> bool:
        """A natural 1."""
        return self.natural == 1

    @property
    def why(self) -> str:
        """The roll explained, e.g. 'd20 14 +3 (stunned -5) = 12: failure'."""
        stun = f" (stunned {STUNNED_PENALTY})" if self.stunned else ""
        text = f"d20 {self.natural} {self.modifier:+d}{stun} = {self.total}: {self.band.value}"
        if self.critical_success:
            text += " (natural 20: critical success, at least complete)"
        elif self.critical_failure:
            text += " (natural 1: critical failure, always fails)"
        return text


def effective_modifier(modifier: int, stunned: bool = False) -> int:
    """The modifier after the stunned -5."""
    return modifier + (STUNNED_PENALTY if stunned else 0)


def check(natural: int | str, modifier: int, stunned: bool = False) -> CheckResult:
    """Resolve a d20 (rolled or entered) + ``modifier``; a stunned roller takes -5."""
    die = entered_die(natural, DIE_SIDES)
    mod = effective_modifier(modifier, stunned)
    result, _, _ = d20_threshold(die, mod, MINOR, COMPLETE)
    return CheckResult(die, mod, Band(result), stunned)


@dataclass(frozen=True, slots=True)
class BandOdds:
    """Exact odds of each band (each over the 20 faces); the naturals are counted inside
    ``complete`` (natural 20) and ``failure`` (natural 1) and also shown on their own."""

    failure: Fraction
    minor: Fraction
    complete: Fraction
    critical_success: Fraction = Fraction(1, DIE_SIDES)
    critical_failure: Fraction = Fraction(1, DIE_SIDES)

    @property
    def success(self) -> Fraction:
        """Minor or complete."""
        return self.minor + self.complete


@lru_cache(maxsize=1024)
def odds(modifier: int, stunned: bool = False) -> BandOdds:
    """The exact odds of each band for d20 + ``modifier`` (stunned: -5 first); cached (the
    result is frozen)."""
    counts = {b: 0 for b in Band}
    for face in range(1, DIE_SIDES + 1):
        counts[check(face, modifier, stunned).band] += 1
    return BandOdds(*(Fraction(counts[b], DIE_SIDES) for b in (Band.FAILURE, Band.MINOR,
                                                                Band.COMPLETE)))
