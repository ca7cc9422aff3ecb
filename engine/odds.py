"""Exact odds by enumeration of every face combination (no sampling).

Every roll in the four systems has at most a few dice (3d6 is 216 combinations), so
enumerating is exact, fast and cached per dice spec. Enumeration walks the sorted multisets of
faces, each weighted by how many orders it has; a pool with more than ``MAX_COMBINATIONS`` face
combinations is refused with a ``ContentError`` instead of running for minutes.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Sequence
from fractions import Fraction
from functools import lru_cache
from math import factorial, prod
from typing import Protocol

from engine.dice import DiceSpec
from engine.errors import ContentError

MAX_COMBINATIONS = 1_000_000
"""The largest dice pool (sides ** count face combinations) whose exact odds are computed."""


def combinations(spec: DiceSpec) -> int:
    """How many ordered face combinations ``spec`` has."""
    # typeshed types int ** int as Any (a negative power gives a float); this one is an int
    total: int = int(spec.sides) ** int(spec.count)
    return total


def check_enumerable(spec: DiceSpec) -> None:
    """Raise ``ContentError`` if the exact odds of ``spec`` are too large to enumerate."""
    n = combinations(spec)
    if n > MAX_COMBINATIONS:
        raise ContentError(
            f"dice {spec.notation}: {n:,} face combinations; exact odds stop at"
            f" {MAX_COMBINATIONS:,} (use fewer dice or fewer sides)")


class BandLike(Protocol):
    """Anything with an id and inclusive ``min``/``max`` bounds (None = open)."""

    @property
    def id(self) -> str:
        """The band's id."""
        ...

    @property
    def min(self) -> int | None:
        """Lowest total in the band (None: no lower bound)."""
        ...

    @property
    def max(self) -> int | None:
        """Highest total in the band (None: no upper bound)."""
        ...


@lru_cache(maxsize=256)
def _table(spec: DiceSpec, low_face: int) -> tuple[tuple[int, int, bool], ...]:
    """(kept total, ways, any face <= low_face) for every distinct outcome of ``spec``."""
    check_enumerable(spec)
    counts: Counter[tuple[int, bool]] = Counter()
    n, keep = spec.count, spec.keep
    whole = factorial(n)
    for faces in itertools.combinations_with_replacement(range(1, spec.sides + 1), n):
        # faces is sorted ascending: the kept ones are at one end
        if keep is None or keep >= n:
            kept = sum(faces)
        elif spec.keep_high:
            kept = sum(faces[n - keep:])
        else:
            kept = sum(faces[:keep])
        ways = whole // prod(factorial(c) for c in Counter(faces).values())
        counts[(kept, faces[0] <= low_face)] += ways
    return tuple((t, n, low) for (t, low), n in sorted(counts.items()))


@lru_cache(maxsize=256)
def _kept_table(spec: DiceSpec) -> tuple[tuple[tuple[int, ...], int], ...]:
    """(kept faces ascending, ways) for every sorted multiset of faces of ``spec``."""
    check_enumerable(spec)
    n, keep = spec.count, spec.keep
    whole = factorial(n)
    out: list[tuple[tuple[int, ...], int]] = []
    for faces in itertools.combinations_with_replacement(range(1, spec.sides + 1), n):
        if keep is None or keep >= n:
            kept = faces
        elif spec.keep_high:
            kept = faces[n - keep:]
        else:
            kept = faces[:keep]
        out.append((kept, whole // prod(factorial(c) for c in Counter(faces).values())))
    return tuple(out)


def band_odds_by_faces(spec: DiceSpec, modifier: int, bands: Sequence[BandLike],
                       override: Callable[[tuple[int, ...], str], str | None]
                       ) -> dict[str, Fraction]:
    """Exact probability of each band when ``override(kept faces, band of the total)`` may
    replace the band from the dice themselves (a natural 20 or a natural 1); not cached."""
    whole = spec.sides**spec.count
    acc = {b.id: 0 for b in bands}
    for kept, ways in _kept_table(spec):
        band = band_of(sum(kept) + modifier, bands)
        band = override(kept, band) or band
        acc[band] += ways
    return {b: Fraction(n, whole) for b, n in acc.items()}


def distribution(spec: DiceSpec) -> dict[int, Fraction]:
    """Probability of each kept total of ``spec``."""
    table = _table(spec, 0)
    whole = spec.sides**spec.count
    out: dict[int, Fraction] = {}
    for total, ways, _ in table:
        out[total] = out.get(total, Fraction(0)) + Fraction(ways, whole)
    return out


def band_of(total: int, bands: Sequence[BandLike]) -> str:
    """The id of the band holding ``total``."""
    for band in bands:
        if (band.min is None or total >= band.min) and (band.max is None or total <= band.max):
            return band.id
    raise ValueError(f"no band holds {total}")


@lru_cache(maxsize=4096)
def _band_odds_cached(
    spec: DiceSpec, modifier: int, bounds: tuple[tuple[str, int | None, int | None], ...]
) -> tuple[tuple[str, Fraction], ...]:
    whole = spec.sides**spec.count
    acc = {band_id: 0 for band_id, _, _ in bounds}
    for total, ways, _ in _table(spec, 0):
        t = total + modifier
        for band_id, lo, hi in bounds:
            if (lo is None or t >= lo) and (hi is None or t <= hi):
                acc[band_id] += ways
                break
    return tuple((b, Fraction(n, whole)) for b, n in acc.items())


def band_odds(spec: DiceSpec, modifier: int, bands: Sequence[BandLike]) -> dict[str, Fraction]:
    """Exact probability of each band for ``spec`` + ``modifier``."""
    bounds = tuple((b.id, b.min, b.max) for b in bands)
    return dict(_band_odds_cached(spec, modifier, bounds))


@lru_cache(maxsize=4096)
def _odds_text_cached(spec: DiceSpec, modifier: int,
                      bounds: tuple[tuple[str, int | None, int | None], ...]
                      ) -> tuple[tuple[str, str], ...]:
    return tuple((b, percent(p)) for b, p in _band_odds_cached(spec, modifier, bounds))


def band_odds_text(spec: DiceSpec, modifier: int, bands: Sequence[BandLike]) -> dict[str, str]:
    """``band_odds`` as percentages ('41.7%'), cached: what a roll shows and records."""
    bounds = tuple((b.id, b.min, b.max) for b in bands)
    return dict(_odds_text_cached(spec, modifier, bounds))


def joint_odds(
    spec: DiceSpec, modifier: int, bands: Sequence[BandLike], low_face: int
) -> dict[tuple[str, bool], Fraction]:
    """Probability of (band, some die shows ``low_face`` or less), e.g. City of Whispers 1-2."""
    whole = spec.sides**spec.count
    out: dict[tuple[str, bool], Fraction] = {}
    for total, ways, low in _table(spec, low_face):
        key = (band_of(total + modifier, bands), low)
        out[key] = out.get(key, Fraction(0)) + Fraction(ways, whole)
    return out


def probability(spec: DiceSpec, predicate: Callable[[tuple[int, ...]], bool]) -> Fraction:
    """Exact probability that ``predicate(faces)`` holds for a roll of ``spec``."""
    check_enumerable(spec)
    hits = sum(
        1
        for faces in itertools.product(range(1, spec.sides + 1), repeat=spec.count)
        if predicate(faces)
    )
    return Fraction(hits, spec.sides**spec.count)


def percent(p: Fraction) -> str:
    """A probability as a percentage with one decimal, e.g. '41.7%'."""
    return f"{float(p) * 100:.1f}%"


def from_percent(text: str) -> float:
    """A percentage as ``percent`` writes it, as a probability: '41.7%' -> 0.417."""
    return float(text.rstrip("%")) / 100


def whole_percent(p: Fraction) -> str:
    """A probability as a whole percentage, rounded half up ('<1%' when small but possible,
    '>99%' when nearly sure but not quite): how the referees state their odds."""
    hundred = p * 100
    if 0 < hundred < 1:
        return "<1%"
    if 99 < hundred < 100:
        return ">99%"
    return f"{int(hundred + Fraction(1, 2))}%"
