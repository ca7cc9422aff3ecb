"""Tests written against the mutants that survived a mutation run (tools/mutation.py).

Each pins a behaviour the rest of the suite let slip: an exact message, a boundary, the spec a
roll keeps. Grouped by the module they guard; the numbers are worked out by hand.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from engine import dice
from engine.content import schema as s
from engine.content.loader import Pack
from engine.dice import DiceSpec, Roll, check_faces, check_stream
from engine.errors import ContentError, IllegalAction
from engine.gm import oracle
from engine.odds import (
    MAX_COMBINATIONS,
    band_odds_text,
    check_enumerable,
    combinations,
    distribution,
)

# --------------------------------------------------------------------------- dice.py


def test_a_roll_keeps_the_spec_it_was_made_from() -> None:
    spec = DiceSpec.parse("3d6kl2")
    roll = Roll.of(spec, [6, 2, 4])
    assert roll.spec is spec
    assert (roll.kept, roll.dropped, roll.total) == ((2, 4), (6,), 6)


@pytest.mark.parametrize(
    ("spec", "faces", "message"),
    [
        (DiceSpec(1, 6), [], "1d6 needs 1 die, but 0 were entered (none)"),
        (DiceSpec(1, 20), [3, 4], "1d20 needs 1 die, but 2 were entered (3, 4)"),
        (DiceSpec(2, 6), [5], "2d6 needs 2 dice, but 1 was entered (5)"),
        (DiceSpec(2, 6), [], "2d6 needs 2 dice, but 0 were entered (none)"),
    ],
)
def test_the_wrong_number_of_faces_is_said_exactly(spec: DiceSpec, faces: list[int],
                                                   message: str) -> None:
    with pytest.raises(IllegalAction) as err:
        check_faces(spec, faces)
    assert str(err.value) == message


def test_an_unknown_stream_names_every_stream_known(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(dice._STREAMS, 2, lambda seed, n, sides: 1)
    assert check_stream(2) == 2
    with pytest.raises(ValueError) as err:
        check_stream(3)
    assert "which rolls stream 1, 2;" in str(err.value)


# --------------------------------------------------------------------------- odds.py


@pytest.mark.parametrize(("notation", "n"), [("2d6", 36), ("3d6", 216), ("1d20", 20),
                                             ("3d6kh2", 216), ("2d10", 100), ("4d4", 256)])
def test_combinations_count_every_ordered_face_combination(notation: str, n: int) -> None:
    assert combinations(DiceSpec.parse(notation)) == n


def test_the_enumeration_cap_is_inclusive() -> None:
    assert MAX_COMBINATIONS == 1_000_000
    check_enumerable(DiceSpec(2, 1000))  # exactly 1,000,000: allowed
    check_enumerable(DiceSpec(3, 100))  # exactly 1,000,000: allowed
    with pytest.raises(ContentError) as err:
        check_enumerable(DiceSpec(3, 101))
    assert str(err.value) == ("dice 3d101: 1,030,301 face combinations; exact odds stop at"
                              " 1,000,000 (use fewer dice or fewer sides)")


def test_distribution_of_2d6_by_hand() -> None:
    ways = {2: 1, 3: 2, 4: 3, 5: 4, 6: 5, 7: 6, 8: 5, 9: 4, 10: 3, 11: 2, 12: 1}
    assert distribution(DiceSpec.parse("2d6")) == {t: Fraction(w, 36) for t, w in ways.items()}


MASKS_BANDS = [s.Band(id="miss", name="Miss", max=6, tone="bad"),
               s.Band(id="weak_hit", name="Weak hit", min=7, max=9, tone="mixed"),
               s.Band(id="strong_hit", name="Strong hit", min=10, tone="good")]


@pytest.mark.parametrize(
    ("modifier", "text"),
    [
        # 2d6: 15 of 36 totals are 6 or less, 15 are 7-9, 6 are 10 or more
        (0, {"miss": "41.7%", "weak_hit": "41.7%", "strong_hit": "16.7%"}),
        # +2: a miss needs 4 or less (6 of 36), a strong hit 8 or more (15 of 36)
        (2, {"miss": "16.7%", "weak_hit": "41.7%", "strong_hit": "41.7%"}),
        # -3: a strong hit needs 13: never
        (-3, {"miss": "83.3%", "weak_hit": "16.7%", "strong_hit": "0.0%"}),
    ],
)
def test_band_odds_text_by_hand(modifier: int, text: dict[str, str]) -> None:
    assert band_odds_text(DiceSpec.parse("2d6"), modifier, MASKS_BANDS) == text


# --------------------------------------------------------------------------- gm/oracle.py


def test_an_unknown_likelihood_names_itself(masks: Pack) -> None:
    with pytest.raises(KeyError) as err:
        oracle.level(masks, "maybe")
    assert err.value.args == ("maybe",)
