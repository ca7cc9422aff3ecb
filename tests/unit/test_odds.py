"""Exact odds: checked against brute-force enumeration and against icepool."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from fractions import Fraction

import icepool
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.content.loader import Pack
from engine.dice import DiceSpec
from engine.odds import band_odds, band_of, distribution, joint_odds, percent, probability


@dataclass(frozen=True)
class B:
    """A band: inclusive bounds, None = open."""

    id: str
    min: int | None
    max: int | None


PBTA = [B("miss", None, 6), B("weak_hit", 7, 9), B("strong_hit", 10, None)]
WHISPERS = [B("miss", None, 6), B("weak", 7, 9), B("strong", 10, 11), B("crit", 12, None)]
PANELS = [B("failure", None, 14), B("minor", 15, 17), B("complete", 18, None)]


def in_band(total: int, band: B) -> bool:
    return (band.min is None or total >= band.min) and (band.max is None or total <= band.max)


def brute(spec: DiceSpec, modifier: int, bands: list[B]) -> dict[str, Fraction]:
    """Enumerate every face combination, keep dice by sorting (independent of the engine)."""
    counts = dict.fromkeys((b.id for b in bands), 0)
    whole = 0
    for faces in itertools.product(range(1, spec.sides + 1), repeat=spec.count):
        keep = spec.keep or spec.count
        kept = sorted(faces, reverse=spec.keep_high)[:keep]
        total = sum(kept) + modifier
        hits = [b.id for b in bands if in_band(total, b)]
        assert len(hits) == 1
        counts[hits[0]] += 1
        whole += 1
    return {k: Fraction(v, whole) for k, v in counts.items()}


def ice(die: icepool.Die, modifier: int, bands: list[B]) -> dict[str, Fraction]:
    """icepool's exact band probabilities for ``die + modifier``."""
    shifted = die + modifier
    out = {}
    for b in bands:
        out[b.id] = sum((shifted.probability(o) for o in shifted.outcomes() if in_band(o, b)),
                        Fraction(0))
    return out


TWO_D6 = icepool.d6 + icepool.d6
KEEP_HIGH = icepool.Pool([icepool.d6] * 3).highest(2).sum()
KEEP_LOW = icepool.Pool([icepool.d6] * 3).lowest(2).sum()


# --------------------------------------------------------------------------- hand-checked values


def test_2d6_plus_0_pbta_bands_by_hand() -> None:
    # 6- : 15 of 36; 7-9: 6 + 5 + 4 = 15 of 36; 10+: 3 + 2 + 1 = 6 of 36
    assert band_odds(DiceSpec.parse("2d6"), 0, PBTA) == {
        "miss": Fraction(15, 36), "weak_hit": Fraction(15, 36), "strong_hit": Fraction(6, 36)}


def test_2d6_plus_4_pbta_bands_by_hand() -> None:
    # dice total 2 misses (1 way); 3..5 weak (2 + 3 + 4 ways); 6+ strong (the other 26)
    assert band_odds(DiceSpec.parse("2d6"), 4, PBTA) == {
        "miss": Fraction(1, 36), "weak_hit": Fraction(9, 36), "strong_hit": Fraction(26, 36)}


def test_2d6_minus_3_pbta_bands_by_hand() -> None:
    # strong needs 13+ on the dice: impossible; weak needs 10..12: 6 ways
    assert band_odds(DiceSpec.parse("2d6"), -3, PBTA) == {
        "miss": Fraction(30, 36), "weak_hit": Fraction(6, 36), "strong_hit": Fraction(0)}


def test_3d6_keep_highest_two_twelve_by_hand() -> None:
    # 12 needs two sixes among the three dice: 3 * 5 ways with exactly two, 1 with three
    assert band_odds(DiceSpec.parse("3d6kh2"), 0, WHISPERS)["crit"] == Fraction(16, 216)


def test_d20_panels_by_hand() -> None:
    assert band_odds(DiceSpec.parse("d20"), 0, PANELS) == {
        "failure": Fraction(14, 20), "minor": Fraction(3, 20), "complete": Fraction(3, 20)}
    assert band_odds(DiceSpec.parse("d20"), 5, PANELS) == {
        "failure": Fraction(9, 20), "minor": Fraction(3, 20), "complete": Fraction(8, 20)}


# --------------------------------------------------------------------------- brute force + icepool


@pytest.mark.parametrize("modifier", range(-5, 6))
@pytest.mark.parametrize("bands", [PBTA, WHISPERS], ids=["pbta", "whispers"])
def test_2d6_bands_match_brute_force_and_icepool(modifier: int, bands: list[B]) -> None:
    got = band_odds(DiceSpec.parse("2d6"), modifier, bands)
    assert got == brute(DiceSpec.parse("2d6"), modifier, bands)
    assert got == ice(TWO_D6, modifier, bands)


@pytest.mark.parametrize("modifier", range(-3, 5))
def test_3d6_keep_highest_2_matches_icepool(modifier: int) -> None:
    spec = DiceSpec.parse("3d6kh2")
    got = band_odds(spec, modifier, WHISPERS)
    assert got == brute(spec, modifier, WHISPERS)
    assert got == ice(KEEP_HIGH, modifier, WHISPERS)
    assert got == ice(icepool.d6.highest(3, 2), modifier, WHISPERS)


@pytest.mark.parametrize("modifier", range(-3, 5))
def test_3d6_keep_lowest_2_matches_icepool(modifier: int) -> None:
    spec = DiceSpec.parse("3d6kl2")
    got = band_odds(spec, modifier, WHISPERS)
    assert got == brute(spec, modifier, WHISPERS)
    assert got == ice(KEEP_LOW, modifier, WHISPERS)
    assert got == ice(icepool.d6.lowest(3, 2), modifier, WHISPERS)


def test_advantage_helps_and_disadvantage_hurts() -> None:
    plain = band_odds(DiceSpec.parse("2d6"), 0, PBTA)
    adv = band_odds(DiceSpec.parse("2d6").with_advantage("advantage"), 0, PBTA)
    dis = band_odds(DiceSpec.parse("2d6").with_advantage("disadvantage"), 0, PBTA)
    assert adv["strong_hit"] > plain["strong_hit"] > dis["strong_hit"]
    assert adv["miss"] < plain["miss"] < dis["miss"]


@pytest.mark.parametrize("modifier", [-8, -2, 0, 3, 9])
def test_d20_matches_icepool(modifier: int) -> None:
    got = band_odds(DiceSpec.parse("d20"), modifier, PANELS)
    assert got == brute(DiceSpec.parse("d20"), modifier, PANELS)
    assert got == ice(icepool.d20, modifier, PANELS)


@pytest.mark.parametrize(
    ("notation", "die"),
    [("2d6", TWO_D6), ("3d6kh2", KEEP_HIGH), ("3d6kl2", KEEP_LOW), ("d20", icepool.d20),
     ("3d6", 3 @ icepool.d6), ("2d10", icepool.d10 + icepool.d10)],
)
def test_distribution_matches_icepool(notation: str, die: icepool.Die) -> None:
    dist = distribution(DiceSpec.parse(notation))
    assert dist == {o: die.probability(o) for o in die.outcomes()}
    assert sum(dist.values()) == 1


def test_masks_pack_bands_match_icepool(masks: Pack) -> None:
    for band_set in ("default", "inverted"):
        bands = [B(b.id, b.min, b.max) for b in masks.system.bands[band_set]]
        for k in range(-3, 5):
            assert band_odds(DiceSpec.parse("2d6"), k, masks.system.bands[band_set]) == ice(
                TWO_D6, k, bands)


# --------------------------------------------------------------------------- properties

cuts = st.tuples(st.integers(-2, 25), st.integers(1, 12)).map(lambda t: (t[0], t[0] + t[1]))


@given(modifier=st.integers(-5, 5), cut=cuts,
       notation=st.sampled_from(["2d6", "3d6kh2", "3d6kl2", "d20", "d6"]))
@settings(max_examples=100, deadline=None)
def test_band_probabilities_sum_to_one(modifier: int, cut: tuple[int, int], notation: str
                                       ) -> None:
    lo, hi = cut
    bands = [B("low", None, lo - 1), B("mid", lo, hi - 1), B("high", hi, None)]
    spec = DiceSpec.parse(notation)
    got = band_odds(spec, modifier, bands)
    assert set(got) == {"low", "mid", "high"}
    assert sum(got.values()) == 1
    assert all(0 <= p <= 1 for p in got.values())
    assert got == brute(spec, modifier, bands)


@given(modifier=st.integers(-5, 5))
@settings(max_examples=30, deadline=None)
def test_higher_modifier_never_lowers_the_strong_hit_odds(modifier: int) -> None:
    spec = DiceSpec.parse("2d6")
    assert band_odds(spec, modifier + 1, PBTA)["strong_hit"] >= band_odds(
        spec, modifier, PBTA)["strong_hit"]
    assert band_odds(spec, modifier + 1, PBTA)["miss"] <= band_odds(spec, modifier, PBTA)["miss"]


# --------------------------------------------------------------------------- joint odds


def brute_joint(spec: DiceSpec, modifier: int, bands: list[B], low: int
                ) -> dict[tuple[str, bool], Fraction]:
    out: dict[tuple[str, bool], Fraction] = {}
    whole = spec.sides ** spec.count
    for faces in itertools.product(range(1, spec.sides + 1), repeat=spec.count):
        kept = sorted(faces, reverse=spec.keep_high)[: spec.keep or spec.count]
        band = next(b.id for b in bands if in_band(sum(kept) + modifier, b))
        key = (band, any(f <= low for f in faces))  # every die counts, dropped ones too
        out[key] = out.get(key, Fraction(0)) + Fraction(1, whole)
    return out


@pytest.mark.parametrize("notation", ["2d6", "3d6kh2", "3d6kl2"])
@pytest.mark.parametrize("modifier", [-1, 0, 2])
def test_joint_odds_match_brute_force(notation: str, modifier: int) -> None:
    spec = DiceSpec.parse(notation)
    got = joint_odds(spec, modifier, WHISPERS, 2)
    assert got == brute_joint(spec, modifier, WHISPERS, 2)
    assert sum(got.values()) == 1
    # the marginal over "a die shows 1-2" is the plain band odds
    plain = band_odds(spec, modifier, WHISPERS)
    for band, p in plain.items():
        assert got.get((band, True), 0) + got.get((band, False), 0) == p


def test_joint_odds_count_the_dropped_die() -> None:
    spec = DiceSpec.parse("3d6kh2")
    got = joint_odds(spec, 0, WHISPERS, 2)
    # some die of three shows 1 or 2: 1 - (4/6)^3 = 19/27
    assert sum(p for (_, low), p in got.items() if low) == Fraction(19, 27)
    # a 12 with a low die means rolling 6, 6 and a 1 or 2 in any order: 2 * 3 = 6 ways
    assert got[("crit", True)] == Fraction(6, 216)


def test_joint_odds_of_a_weak_hit_with_a_low_die_2d6() -> None:
    # 7-9 on 2d6 with a 1 or 2 showing: 7 = (1,6) (6,1) (2,5) (5,2); 8 = (2,6) (6,2);
    # 9 would need a 7 beside the low die: 6 ways in all
    assert joint_odds(DiceSpec.parse("2d6"), 0, PBTA, 2)[("weak_hit", True)] == Fraction(6, 36)


# --------------------------------------------------------------------------- helpers


@pytest.mark.parametrize(
    ("total", "band"),
    [(-20, "miss"), (6, "miss"), (7, "weak_hit"), (9, "weak_hit"), (10, "strong_hit"),
     (99, "strong_hit")],
)
def test_band_of(total: int, band: str) -> None:
    assert band_of(total, PBTA) == band


def test_band_of_with_no_band_raises() -> None:
    with pytest.raises(ValueError, match="no band holds 5"):
        band_of(5, [B("high", 10, None)])


def test_probability_of_a_predicate() -> None:
    assert probability(DiceSpec.parse("2d6"), lambda f: f[0] == f[1]) == Fraction(1, 6)
    assert probability(DiceSpec.parse("3d6"), lambda f: 6 in f) == Fraction(91, 216)
    assert probability(DiceSpec.parse("d20"), lambda f: f[0] >= 15) == Fraction(6, 20)


@pytest.mark.parametrize(
    ("p", "text"),
    [(Fraction(5, 12), "41.7%"), (Fraction(1, 6), "16.7%"), (Fraction(0), "0.0%"),
     (Fraction(1), "100.0%"), (Fraction(1, 36), "2.8%"), (Fraction(26, 36), "72.2%"),
     (Fraction(1, 2), "50.0%"), (Fraction(1, 216), "0.5%")],
)
def test_percent(p: Fraction, text: str) -> None:
    assert percent(p) == text
