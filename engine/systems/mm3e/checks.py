"""Checks: d20 + modifier against a DC, degrees of success and failure, exact odds (RULES.md D.1).

A check succeeds when d20 + modifier >= DC. Its *degree* is signed here: +1, +2 ... for successes
and -1 ... -4 for failures; there is no degree 0.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from engine.dice import MAX_FAILURE_DEGREES as MAX_FAILURE_DEGREES  # re-exported
from engine.dice import shift_degree as shift_degree
from engine.dice import signed_degree

FILLED_IN = (
    "Degrees of success and failure (the seed uses them but never defines them; RULES.md D.1"
    " [EXT]): meeting the DC is 1 degree of success and every full 5 points over it adds one"
    " (DC+5 = 2, DC+10 = 3 ...); missing it by 1-5 is 1 degree of failure, 6-10 is 2, 11-15 is 3"
    " and 16 or more is 4. The Deluxe +1 degree on a natural 20 is an option, off by default."
)
"""The rules of this module that the seed leaves out, filled in."""

DIE_SIDES = 20

ROUTINE_DIE = 10
"""A routine check counts the die as 10: the result is 10 + bonus."""

HERO_POINT_LIMIT = 10
HERO_POINT_BONUS = 10
"""A hero point: a die of 10 or less counts +10, so the die is at least 11."""

MINOR_CIRCUMSTANCE = 2
MAJOR_CIRCUMSTANCE = 5
"""Circumstance modifiers: +/-2 normally, +/-5 for a big advantage or handicap."""

MIN_DC = 0
MAX_DC = 40
"""DCs run from 0 (automatic) to 40 (nearly impossible)."""


degree = signed_degree
"""The signed degree of a total against a DC (``engine.dice.signed_degree``)."""


def hero_point_die(natural: int) -> int:
    """The die after spending a hero point: 10 or less counts +10 (at least 11)."""
    return natural + HERO_POINT_BONUS if natural <= HERO_POINT_LIMIT else natural


def circumstance(favourable: bool, major: bool = False) -> int:
    """A circumstance modifier: +2 / -2, or +5 / -5 when ``major``."""
    size = MAJOR_CIRCUMSTANCE if major else MINOR_CIRCUMSTANCE
    return size if favourable else -size


def bonus_for_55(dc: int) -> int:
    """The bonus that gives a 55% chance against ``dc`` (the 55% rule): DC - 10."""
    return dc - 10


@dataclass(frozen=True, slots=True)
class CheckResult:
    """A check: the die as rolled (None for a routine check), the die that counted, the total."""

    natural: int | None
    die: int
    modifier: int
    dc: int
    degree: int
    hero_point: bool = False

    @property
    def total(self) -> int:
        """Die + modifier."""
        return self.die + self.modifier

    @property
    def success(self) -> bool:
        """Whether the check met the DC (or a degree shift made it a success)."""
        return self.degree > 0

    @property
    def degrees(self) -> int:
        """How many degrees, of success or failure."""
        return abs(self.degree)

    @property
    def routine(self) -> bool:
        """Whether no die was rolled (10 + bonus)."""
        return self.natural is None

    @property
    def label(self) -> str:
        """E.g. 'success, 2 degrees' or 'failure, 1 degree'."""
        return degree_words(self.degree)


def degree_words(signed: int) -> str:
    """A signed degree in words: 2 -> 'success, 2 degrees', -1 -> 'failure, 1 degree'."""
    word = "success" if signed > 0 else "failure"
    return f"{word}, {abs(signed)} degree{'s' if abs(signed) != 1 else ''}"


def check_die(natural: int) -> int:
    """``natural`` if it is a face of the d20; ``ValueError`` otherwise."""
    if not 1 <= natural <= DIE_SIDES:
        raise ValueError(f"a d20 shows 1-20, got {natural}")
    return natural


def check(natural: int, modifier: int, dc: int, *, hero_point: bool = False,
          nat20_bonus: bool = False) -> CheckResult:
    """d20 (``natural``) + ``modifier`` against ``dc``.

    ``hero_point``: a die of 10 or less counts +10. ``nat20_bonus`` (Deluxe, off by default):
    a natural 20 adds one degree.
    """
    check_die(natural)
    die = hero_point_die(natural) if hero_point else natural
    signed = degree(die + modifier, dc)
    if nat20_bonus and natural == 20:
        signed = shift_degree(signed, 1)
    return CheckResult(natural, die, modifier, dc, signed, hero_point)


def routine_check(bonus: int, dc: int) -> CheckResult:
    """A routine check: no roll, the result is 10 + ``bonus`` (not in stressful situations)."""
    return CheckResult(None, ROUTINE_DIE, bonus, dc, degree(ROUTINE_DIE + bonus, dc))


def routine_succeeds(bonus: int, dc: int) -> bool:
    """Whether 10 + ``bonus`` meets ``dc``."""
    return ROUTINE_DIE + bonus >= dc


@lru_cache(maxsize=4096)
def _degree_odds(modifier: int, dc: int, hero_point: bool,
                 nat20_bonus: bool) -> tuple[tuple[int, Fraction], ...]:
    counts: dict[int, int] = {}
    for face in range(1, DIE_SIDES + 1):
        d = check(face, modifier, dc, hero_point=hero_point, nat20_bonus=nat20_bonus).degree
        counts[d] = counts.get(d, 0) + 1
    return tuple((d, Fraction(n, DIE_SIDES)) for d, n in sorted(counts.items()))


def degree_odds(modifier: int, dc: int, *, hero_point: bool = False,
                nat20_bonus: bool = False) -> dict[int, Fraction]:
    """Exact probability of each signed degree (only the degrees that can happen)."""
    return dict(_degree_odds(modifier, dc, hero_point, nat20_bonus))


def success_odds(modifier: int, dc: int, *, hero_point: bool = False,
                 nat20_bonus: bool = False) -> Fraction:
    """Exact probability that the check succeeds."""
    odds = degree_odds(modifier, dc, hero_point=hero_point, nat20_bonus=nat20_bonus)
    return sum((p for d, p in odds.items() if d > 0), Fraction(0))


def defend_result(natural: int, active_defense: int) -> int:
    """The Defend action's opposed result: d20 + active defense, a die of 10 or less counting
    +10 as with a hero point; an attack hits when its total equals or exceeds it."""
    return hero_point_die(check_die(natural)) + active_defense
