"""Dice: notation, keep highest/lowest, seeded and entered sources, d20 resolutions."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.dice import (
    DiceSpec,
    EnteredDice,
    Roll,
    SeededDice,
    check_faces,
    d20_threshold,
    degrees_vs_dc,
    parse_faces,
)
from engine.errors import IllegalAction

# --------------------------------------------------------------------------- notation


@pytest.mark.parametrize(
    ("text", "count", "sides", "keep", "high", "canonical"),
    [
        ("2d6", 2, 6, None, True, "2d6"),
        ("d20", 1, 20, None, True, "1d20"),
        ("1d20", 1, 20, None, True, "1d20"),
        ("3d6kh2", 3, 6, 2, True, "3d6kh2"),
        ("3d6kl2", 3, 6, 2, False, "3d6kl2"),
        ("3D6KH2", 3, 6, 2, True, "3d6kh2"),
        ("  2d6  ", 2, 6, None, True, "2d6"),
        ("4d10kl1", 4, 10, 1, False, "4d10kl1"),
        ("3d6kh3", 3, 6, 3, True, "3d6"),  # keeping every die is plain 3d6
        ("20d1000", 20, 1000, None, True, "20d1000"),
        ("1d2", 1, 2, None, True, "1d2"),
    ],
)
def test_parse_notation(text: str, count: int, sides: int, keep: int | None, high: bool,
                        canonical: str) -> None:
    spec = DiceSpec.parse(text)
    assert (spec.count, spec.sides, spec.keep, spec.keep_high) == (count, sides, keep, high)
    assert spec.notation == canonical
    assert DiceSpec.parse(spec.notation).notation == canonical  # round trip


@pytest.mark.parametrize(
    "text",
    ["", "d", "2d", "2x6", "abc", "2d6+1", "-1d6", "3d6k2", "3d6kx2", "2 d6", "0d6", "21d6",
     "2d1", "2d0", "2d1001", "3d6kh4", "3d6kh0", "3d6kl0", "d6d6"],
)
def test_bad_notation_raises_value_error(text: str) -> None:
    with pytest.raises(ValueError) as err:
        DiceSpec.parse(text)
    msg = str(err.value)
    assert repr(text) in msg
    assert "2d6" in msg or "1-20" in msg or "cannot keep" in msg  # says what is expected


def test_bad_keep_message_says_why() -> None:
    with pytest.raises(ValueError, match="cannot keep 4 of 3"):
        DiceSpec.parse("3d6kh4")


# --------------------------------------------------------------------------- keep / drop


@pytest.mark.parametrize(
    ("notation", "faces", "kept", "dropped"),
    [
        # City of Whispers' worked example: advantage rolls 1, 4, 5 and keeps 4 + 5 = 9
        ("3d6kh2", (1, 4, 5), (4, 5), (1,)),
        ("3d6kh2", (6, 1, 3), (6, 3), (1,)),
        ("3d6kl2", (6, 1, 3), (1, 3), (6,)),
        ("3d6kl2", (1, 4, 5), (1, 4), (5,)),
        # ties: the earlier die is kept, the later one dropped
        ("3d6kh2", (5, 5, 2), (5, 5), (2,)),
        ("3d6kh2", (5, 2, 5), (5, 5), (2,)),
        ("3d6kh2", (3, 3, 3), (3, 3), (3,)),
        ("3d6kh2", (2, 6, 2), (2, 6), (2,)),
        ("3d6kl2", (6, 1, 1), (1, 1), (6,)),
        ("3d6kl2", (4, 4, 4), (4, 4), (4,)),
        ("3d6kl2", (4, 2, 4), (4, 2), (4,)),
        ("2d6", (3, 4), (3, 4), ()),
        ("4d6kh3", (1, 1, 1, 1), (1, 1, 1), (1,)),
    ],
)
def test_kept_and_dropped(notation: str, faces: tuple[int, ...], kept: tuple[int, ...],
                          dropped: tuple[int, ...]) -> None:
    roll = Roll.of(DiceSpec.parse(notation), faces)
    assert roll.faces == faces
    assert roll.kept == kept
    assert roll.dropped == dropped
    assert roll.total == sum(kept)


@pytest.mark.parametrize(
    ("faces", "kept_idx"),
    [((5, 5, 2), (0, 1)), ((5, 2, 5), (0, 2)), ((3, 3, 3), (0, 1)), ((2, 3, 3), (1, 2))],
)
def test_ties_keep_the_earlier_die(faces: tuple[int, ...], kept_idx: tuple[int, ...]) -> None:
    assert DiceSpec.parse("3d6kh2").kept_indices(faces) == kept_idx


@pytest.mark.parametrize(
    ("base", "mode", "expected"),
    [
        ("2d6", "advantage", DiceSpec(3, 6, 2, True)),
        ("2d6", "disadvantage", DiceSpec(3, 6, 2, False)),
        ("d20", "advantage", DiceSpec(2, 20, 1, True)),
        ("d20", "disadvantage", DiceSpec(2, 20, 1, False)),
    ],
)
def test_with_advantage(base: str, mode: str, expected: DiceSpec) -> None:
    spec = DiceSpec.parse(base).with_advantage(mode)  # type: ignore[arg-type]
    assert spec == expected
    assert spec.notation == expected.notation


def test_advantage_and_disadvantage_pick_opposite_dice() -> None:
    faces = (2, 6, 4)
    adv = Roll.of(DiceSpec.parse("2d6").with_advantage("advantage"), faces)
    dis = Roll.of(DiceSpec.parse("2d6").with_advantage("disadvantage"), faces)
    assert (adv.kept, adv.dropped, adv.total) == ((6, 4), (2,), 10)
    assert (dis.kept, dis.dropped, dis.total) == ((2, 4), (6,), 6)


# --------------------------------------------------------------------------- seeded dice


def test_seeded_same_seed_and_position_same_faces() -> None:
    spec = DiceSpec.parse("2d6")
    a = [SeededDice(1234).roll(spec).faces for _ in range(3)]
    assert a[0] == a[1] == a[2]
    one, two = SeededDice(1234, 10), SeededDice(1234, 10)
    assert [one.roll(spec).faces for _ in range(20)] == [two.roll(spec).faces for _ in range(20)]


def test_seeded_position_advances_by_the_number_of_dice() -> None:
    dice = SeededDice(5)
    dice.roll(DiceSpec.parse("2d6"))
    assert dice.position == 2
    dice.roll(DiceSpec.parse("3d6kh2"))
    assert dice.position == 5  # three dice were rolled, even if only two count
    dice.roll(DiceSpec.parse("d20"))
    assert dice.position == 6


def test_seeded_resuming_at_a_position_continues_the_stream() -> None:
    spec = DiceSpec.parse("2d6")
    whole = SeededDice(99)
    stream = [whole.roll(spec).faces for _ in range(10)]
    resumed = SeededDice(99, position=8)  # after four 2d6 rolls
    assert [resumed.roll(spec).faces for _ in range(6)] == stream[4:]
    # die n is die n, however the dice were grouped into rolls
    singles = SeededDice(99)
    flat = [singles.roll(DiceSpec.parse("d6")).faces[0] for _ in range(20)]
    assert flat == [f for pair in stream for f in pair]


def test_seeded_different_seeds_give_different_streams() -> None:
    spec = DiceSpec.parse("2d6")
    a, b = SeededDice(1), SeededDice(2)
    assert [a.roll(spec).faces for _ in range(20)] != [b.roll(spec).faces for _ in range(20)]


def test_seeded_face_is_counter_based() -> None:
    dice = SeededDice(77)
    expected = [dice.face(n, 6) for n in range(4)]
    assert list(dice.roll(DiceSpec.parse("4d6")).faces) == expected
    assert dice.face(0, 6) == SeededDice(77, position=500).face(0, 6)


def test_seeded_d6_is_roughly_uniform() -> None:
    dice = SeededDice(2024)
    counts = Counter(dice.roll(DiceSpec.parse("d6")).faces[0] for _ in range(6000))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    assert all(850 <= n <= 1150 for n in counts.values()), counts


def test_seeded_rolls_are_not_entered() -> None:
    assert SeededDice(1).roll(DiceSpec.parse("2d6")).entered is False


# --------------------------------------------------------------------------- entered dice


def test_entered_dice_return_the_faces() -> None:
    roll = EnteredDice([1, 4, 5]).roll(DiceSpec.parse("3d6kh2"))
    assert roll.entered is True
    assert roll.faces == (1, 4, 5)
    assert roll.kept == (4, 5)
    assert roll.total == 9


@pytest.mark.parametrize(
    ("notation", "faces", "fragments"),
    [
        ("2d6", [3], ["2d6 needs 2 dice", "1 was entered", "(3)"]),
        ("2d6", [1, 2, 3], ["2d6 needs 2 dice", "3 were entered", "(1, 2, 3)"]),
        ("2d6", [], ["2d6 needs 2 dice", "0 were entered", "none"]),
        ("3d6kh2", [6, 6], ["3d6kh2 needs 3 dice", "2 were entered"]),
        ("2d6", [0, 3], ["a d6 shows 1 to 6", "0 is out of range"]),
        ("2d6", [3, 7], ["a d6 shows 1 to 6", "7 is out of range"]),
        ("2d6", [-1, 9], ["a d6 shows 1 to 6", "-1, 9"]),
        ("d20", [21], ["a d20 shows 1 to 20", "21"]),
        ("2d6", [True, 3], ["out of range", "True"]),
        ("2d6", ["3", 4], ["out of range", "'3'"]),
    ],
)
def test_check_faces_errors_say_what_is_wrong(notation: str, faces: list, fragments: list[str]
                                              ) -> None:
    spec = DiceSpec.parse(notation)
    with pytest.raises(IllegalAction) as err:
        check_faces(spec, faces)
    for frag in fragments:
        assert frag in str(err.value)
    with pytest.raises(IllegalAction):
        EnteredDice(list(faces)).roll(spec)


@pytest.mark.parametrize(("notation", "faces"), [("2d6", [1, 6]), ("d20", [20]), ("d20", [1])])
def test_check_faces_accepts_the_edges(notation: str, faces: list[int]) -> None:
    assert check_faces(DiceSpec.parse(notation), faces) == faces


@pytest.mark.parametrize(
    ("text", "faces"),
    [("3 5", [3, 5]), ("3,5", [3, 5]), ("3+5", [3, 5]), (" 3 , 5 ", [3, 5]), ("1 4 5", [1, 4, 5]),
     ("6", [6]), ("", []), ("2  +  2", [2, 2]), ("12", [12])],
)
def test_parse_faces(text: str, faces: list[int]) -> None:
    assert parse_faces(text) == faces


@pytest.mark.parametrize("text", ["3 x", "three five", "3.5 2", "3;5", "d6"])
def test_parse_faces_rejects_non_numbers(text: str) -> None:
    with pytest.raises(IllegalAction) as err:
        parse_faces(text)
    assert repr(text) in str(err.value)
    assert "whole numbers" in str(err.value)


# --------------------------------------------------------------------------- d20 resolutions


@pytest.mark.parametrize(
    ("natural", "mod", "dc", "success", "degrees"),
    [
        # meeting the DC is one degree; each full 5 points beyond adds one
        (10, 0, 10, True, 1),
        (14, 0, 10, True, 1),
        (15, 0, 10, True, 2),
        (19, 0, 10, True, 2),
        (15, 5, 10, True, 3),
        (12, 13, 10, True, 4),
        # failing: by 1-5 is one degree, 6-10 two, 11-15 three, 16+ four
        (9, 0, 10, False, 1),
        (5, 0, 10, False, 1),
        (4, 0, 10, False, 2),
        (10, -10, 10, False, 2),
        (6, -1, 20, False, 3),
        (4, 0, 20, False, 4),
        (2, -8, 20, False, 4),  # missed by 26: still four degrees, the worst there is
        (2, -20, 30, False, 4),
        # the modifier counts
        (8, 2, 10, True, 1),
        (8, 1, 10, False, 1),
        # natural 20 improves by one degree: a one-degree failure becomes a success
        (20, -11, 10, True, 1),  # total 9: failure by 1 -> success
        (20, -20, 10, False, 1),  # total 0: failure 2 -> failure 1
        (20, 0, 10, True, 4),  # total 20 is three degrees, the natural 20 makes four
        # natural 1 worsens by one degree: a one-degree success becomes a failure
        (1, 9, 10, False, 1),  # total 10: success 1 -> failure 1
        (1, 14, 10, True, 1),  # total 15: success 2 -> success 1
        (1, 0, 10, False, 3),  # total 1: failure 2 -> failure 3
        (1, -20, 30, False, 4),  # already the worst failure: stays at four
    ],
)
def test_degrees_vs_dc(natural: int, mod: int, dc: int, success: bool, degrees: int) -> None:
    got = degrees_vs_dc(natural, mod, dc)
    assert (got.success, got.degrees) == (success, degrees)
    assert got.total == natural + mod
    assert got.natural == natural and got.dc == dc


@pytest.mark.parametrize(
    ("natural", "mod", "dc", "success", "degrees"),
    [(20, -11, 10, False, 1), (1, 9, 10, True, 1), (20, 0, 10, True, 3)],
)
def test_degrees_without_crit_shift(natural: int, mod: int, dc: int, success: bool,
                                    degrees: int) -> None:
    got = degrees_vs_dc(natural, mod, dc, crit_shift=False)
    assert (got.success, got.degrees) == (success, degrees)


@pytest.mark.parametrize(
    ("natural", "mod", "dc", "label"),
    [(10, 0, 10, "success, 1 degree"), (15, 0, 10, "success, 2 degrees"),
     (4, 0, 10, "failure, 2 degrees"), (9, 0, 10, "failure, 1 degree")],
)
def test_degrees_label(natural: int, mod: int, dc: int, label: str) -> None:
    assert degrees_vs_dc(natural, mod, dc).label == label


@given(natural=st.integers(1, 20), mod=st.integers(-15, 25), dc=st.integers(0, 40))
@settings(max_examples=300, deadline=None)
def test_degrees_follow_the_five_point_steps(natural: int, mod: int, dc: int) -> None:
    got = degrees_vs_dc(natural, mod, dc, crit_shift=False)
    total = natural + mod
    assert got.success == (total >= dc)
    if total >= dc:
        assert got.degrees == 1 + (total - dc) // 5
    else:
        assert got.degrees == min(4, 1 + (dc - total - 1) // 5)
    assert got.degrees >= 1


@pytest.mark.parametrize(
    ("natural", "mod", "result", "nat20", "nat1"),
    [
        (14, 0, "failure", False, False),
        (15, 0, "minor", False, False),
        (17, 0, "minor", False, False),
        (18, 0, "complete", False, False),
        (19, 0, "complete", False, False),
        (10, 4, "failure", False, False),
        (10, 5, "minor", False, False),
        (10, 7, "minor", False, False),
        (10, 8, "complete", False, False),
        (16, -2, "failure", False, False),
        (20, 0, "complete", True, False),
        (20, -10, "complete", True, False),  # a natural 20 always succeeds completely
        (1, 0, "failure", False, True),
        (1, 30, "failure", False, True),  # a natural 1 always fails
        (2, 16, "complete", False, False),
    ],
)
def test_d20_threshold(natural: int, mod: int, result: str, nat20: bool, nat1: bool) -> None:
    assert d20_threshold(natural, mod) == (result, nat20, nat1)


def test_d20_threshold_custom_cut_points() -> None:
    assert d20_threshold(12, 0, minor=12, complete=16) == ("minor", False, False)
    assert d20_threshold(16, 0, minor=12, complete=16) == ("complete", False, False)
    assert d20_threshold(11, 0, minor=12, complete=16) == ("failure", False, False)


# --------------------------------------------------------------------------- properties

specs = st.builds(
    lambda count, sides, keep_frac, high: DiceSpec(
        count, sides, None if keep_frac is None else max(1, round(keep_frac * count)), high),
    st.integers(1, 6), st.integers(2, 20), st.none() | st.floats(0, 1), st.booleans(),
)


@given(spec=specs, seed=st.integers(0, 2**31), position=st.integers(0, 10**6))
@settings(max_examples=200, deadline=None)
def test_seeded_rolls_are_well_formed(spec: DiceSpec, seed: int, position: int) -> None:
    dice = SeededDice(seed, position)
    roll = dice.roll(spec)
    assert dice.position == position + spec.count
    assert len(roll.faces) == spec.count
    assert all(1 <= f <= spec.sides for f in roll.faces)
    assert len(roll.kept) == (spec.keep or spec.count)
    assert roll.total == sum(roll.kept)
    assert sorted(roll.kept + roll.dropped) == sorted(roll.faces)
    if roll.dropped:
        if spec.keep_high:
            assert min(roll.kept) >= max(roll.dropped)
        else:
            assert max(roll.kept) <= min(roll.dropped)
    # the same seed and position give the same faces again
    assert SeededDice(seed, position).roll(spec).faces == roll.faces


@given(spec=specs, data=st.data())
@settings(max_examples=200, deadline=None)
def test_entered_rolls_keep_the_right_dice(spec: DiceSpec, data: st.DataObject) -> None:
    faces = data.draw(st.lists(st.integers(1, spec.sides), min_size=spec.count,
                               max_size=spec.count))
    roll = EnteredDice(faces).roll(spec)
    assert roll.faces == tuple(faces)
    k = spec.keep or spec.count
    ranked = sorted(faces, reverse=spec.keep_high)
    assert sorted(roll.kept) == sorted(ranked[:k])
    assert roll.total == sum(ranked[:k])
