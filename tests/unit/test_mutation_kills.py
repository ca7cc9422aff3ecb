"""Tests written against the mutants that survived a mutation run (tools/mutation.py).

Each pins a behaviour the rest of the suite let slip: an exact message, a boundary, the spec a
roll keeps. Grouped by the module they guard; the numbers are worked out by hand.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import pytest

from engine import dice
from engine.content import schema as s
from engine.content.loader import Pack
from engine.dice import DiceSpec, Roll, check_faces, check_stream
from engine.errors import ContentError, IllegalAction
from engine.game import Game
from engine.gm import oracle
from engine.odds import (
    MAX_COMBINATIONS,
    band_odds_text,
    check_enumerable,
    combinations,
    distribution,
)
from engine.rules import resolve
from engine.rules.state import ActiveBonus

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


# --------------------------------------------------------------------------- rules/resolve.py


def test_resolve_records_every_field_of_the_roll(new_game: Callable[..., Game]) -> None:
    game = new_game()  # FLAT: Danger +1
    move = game.pack.moves["directly_engage"]
    roll = Roll.of(DiceSpec.parse("2d6"), [3, 4])
    got = resolve.resolve(game.state, game.pack, game.rules, move, None, roll, 17)
    assert got.to_dict(full=True) == {
        "type": "Rolled", "move": "directly_engage", "stat": "danger", "dice": "2d6",
        "faces": [3, 4], "kept": [3, 4], "dropped": [], "modifiers": [["Danger", 1, None]],
        "raw_modifier": 1, "modifier": 1, "clamp": [-3, 4], "total": 8, "band": "weak_hit",
        "band_name": "Weak hit",
        # 2d6+1: a miss is 2-5 (10 of 36), a weak hit 6-8 (16), a strong hit 9-12 (10)
        "odds": {"miss": "27.8%", "weak_hit": "44.4%", "strong_hit": "27.8%"},
        "entered": False, "position": 17, "inverted": False, "tone": "mixed",
        "bands": None, "override": None, "actor": "hero", "what": "", "against": None,
        "against_name": "", "degree": 0,
    }
    # the log leaves out what is at its default or equal to another field
    assert got.to_dict() == {
        "type": "Rolled", "move": "directly_engage", "stat": "danger", "dice": "2d6",
        "faces": [3, 4], "modifiers": [["Danger", 1, None]], "modifier": 1,
        "clamp": [-3, 4], "total": 8, "band": "weak_hit", "band_name": "Weak hit",
        "odds": {"miss": "27.8%", "weak_hit": "44.4%", "strong_hit": "27.8%"},
        "position": 17,
    }


def test_resolve_reads_an_inverted_move_with_its_own_bands(new_game: Callable[..., Game]) -> None:
    game = new_game()
    move = game.pack.moves["take_powerful_blow"]
    roll = Roll.of(DiceSpec.parse("3d6kh2"), [6, 1, 5], entered=True)
    got = resolve.resolve(game.state, game.pack, game.rules, move, None, roll, 3)
    assert (got.dice, got.kept, got.dropped, got.total) == ("3d6kh2", [6, 5], [1], 11)
    assert (got.band, got.band_name, got.tone, got.inverted) == (
        "strong_hit", "Overwhelmed", "bad", True)
    assert (got.entered, got.position) == (True, 3)


def _bonus(bid: int, kind: str = "forward", **kw: object) -> ActiveBonus:
    return ActiveBonus.model_validate({"id": bid, "kind": kind, "amount": 1, **kw})


def test_a_bonus_for_someone_else_does_not_stop_the_next_one(
        new_game: Callable[..., Game]) -> None:
    game = new_game()
    game.state.bonuses = [
        _bonus(1, target="vic_rook", reason="against Vic"),
        _bonus(2, reason="a plan"),
        _bonus(3, "ongoing", amount=2, reason="armor", expires="roll"),
        _bonus(4, "ongoing", reason="the team", expires="scene"),
    ]
    move = game.pack.moves["directly_engage"]
    mods, raw, final = resolve.modifiers(game.state, game.pack, game.rules, move, "tin")
    assert mods == [["Danger", 1, None], ["+1 forward: a plan", 1, 2],
                    ["+2 ongoing: armor", 2, 3], ["+1 ongoing: the team", 1, None]]
    assert (raw, final) == (5, 4)  # clamped at +4


def test_bonus_targets_lists_npcs_in_play_once_each(new_game: Callable[..., Game]) -> None:
    game = new_game()
    game.state.bonuses = [
        _bonus(1, target="vic_rook"),
        _bonus(2, target="ghost"),  # not an NPC in play
        _bonus(3),  # no target
        _bonus(4, target="ada_vance", moves=["provoke_someone"]),  # another move's
        _bonus(5, "ongoing", target="tin"),
        _bonus(6, target="vic_rook"),
        _bonus(7, target="bo", moves=["take_powerful_blow"]),
    ]
    moves = game.pack.moves
    assert resolve.bonus_targets(game.state, moves["directly_engage"]) == ["vic_rook", "tin"]
    # an inverted roll takes only the bonuses meant for it
    assert resolve.bonus_targets(game.state, moves["take_powerful_blow"]) == ["bo"]
    assert resolve.bonus_targets(game.state, moves["give_influence"]) == []  # no roll
