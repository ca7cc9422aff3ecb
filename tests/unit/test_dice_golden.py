"""The seeded dice stream, pinned: saves, resume, undo and replay all rely on it never changing.

The numbers below were recorded from stream 1 (BLAKE2b of "<seed>:<n>", 8-byte digest,
big-endian, modulo the sides, plus one). If one of these tests fails, the stream changed: that
is a save-format change, which needs a new stream version in ``engine/dice.py`` (old saves keep
rolling the old stream), not new golden numbers.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from engine import dice
from engine.campaigns import close_game, new_game, open_game
from engine.dice import STREAM_VERSION, DiceSpec, SeededDice, check_stream
from engine.errors import SaveError
from engine.game import Game
from engine.rules.state import CampaignState

# seed -> sides -> the faces of dice number 0..7
GOLDEN_FACES: dict[int, dict[int, list[int]]] = {
    0: {2: [1, 1, 1, 1, 1, 1, 2, 1], 4: [3, 1, 1, 1, 1, 3, 4, 1],
        6: [5, 1, 3, 5, 3, 3, 4, 5], 8: [3, 5, 5, 5, 1, 3, 4, 5],
        10: [3, 5, 1, 7, 1, 3, 8, 7], 12: [11, 1, 9, 5, 9, 3, 4, 5],
        20: [3, 5, 1, 17, 1, 3, 8, 17], 100: [43, 85, 81, 57, 21, 43, 28, 37]},
    1: {2: [2, 1, 1, 2, 1, 1, 1, 2], 4: [4, 3, 3, 4, 1, 1, 3, 2],
        6: [4, 5, 3, 4, 1, 3, 1, 2], 8: [4, 7, 3, 8, 5, 1, 3, 6],
        10: [2, 3, 9, 4, 3, 7, 7, 10], 12: [4, 11, 3, 4, 1, 9, 7, 2],
        20: [12, 3, 19, 4, 13, 17, 7, 10], 100: [72, 23, 79, 44, 93, 97, 47, 70]},
    7: {2: [1, 2, 2, 1, 2, 1, 2, 2], 4: [1, 4, 2, 1, 2, 3, 4, 2],
        6: [3, 6, 2, 1, 2, 1, 6, 4], 8: [1, 4, 6, 1, 6, 7, 8, 2],
        10: [9, 10, 4, 7, 4, 1, 2, 10], 12: [9, 12, 2, 1, 2, 7, 12, 10],
        20: [9, 20, 14, 17, 14, 11, 12, 10], 100: [29, 60, 74, 97, 94, 31, 52, 90]},
    42: {2: [2, 2, 1, 2, 1, 1, 2, 1], 4: [4, 4, 1, 2, 1, 1, 2, 1],
         6: [4, 6, 5, 2, 5, 5, 6, 3], 8: [4, 8, 1, 2, 1, 5, 2, 1],
         10: [8, 4, 5, 10, 3, 5, 2, 5], 12: [4, 12, 5, 2, 5, 5, 6, 9],
         20: [8, 4, 5, 10, 13, 5, 2, 5], 100: [48, 4, 25, 30, 13, 65, 82, 45]},
    2**31 - 1: {2: [2, 1, 2, 1, 1, 1, 2, 2], 4: [4, 3, 4, 3, 1, 3, 4, 2],
                6: [6, 1, 2, 1, 1, 3, 4, 4], 8: [4, 3, 4, 7, 1, 3, 4, 6],
                10: [4, 3, 2, 5, 3, 7, 4, 8], 12: [12, 7, 8, 7, 1, 3, 4, 10],
                20: [4, 3, 12, 15, 13, 7, 4, 18], 100: [64, 23, 72, 55, 13, 7, 84, 98]},
}

CASES = [(seed, sides) for seed, by_sides in GOLDEN_FACES.items() for sides in by_sides]


@pytest.mark.parametrize(("seed", "sides"), CASES)
def test_first_faces_of_each_seed_and_die(seed: int, sides: int) -> None:
    source = SeededDice(seed)
    assert [source.face(n, sides) for n in range(8)] == GOLDEN_FACES[seed][sides]


@pytest.mark.parametrize(
    ("position", "d6", "d20", "d100"),
    [(100, 3, 15, 55), (1000, 2, 18, 38), (123456, 3, 5, 25), (10**9, 1, 15, 35)],
)
def test_faces_far_into_the_stream(position: int, d6: int, d20: int, d100: int) -> None:
    source = SeededDice(42)
    assert (source.face(position, 6), source.face(position, 20),
            source.face(position, 100)) == (d6, d20, d100)


def test_stream_one_is_blake2b_of_seed_and_die_number() -> None:
    """The recipe itself, written out independently of the code: one digest as hex."""
    assert hashlib.blake2b(b"42:0", digest_size=8).hexdigest() == "1907bd1866b364d3"
    assert int("1907bd1866b364d3", 16) % 100 + 1 == SeededDice(42).face(0, 100) == 48


def test_a_sequence_of_rolls_of_every_family() -> None:
    """2d6 (Masks), 3d6 keep high / low (advantage), d20, d100 (oracle), one after another."""
    source = SeededDice(42)
    seen = []
    for notation in ["2d6", "3d6kh2", "3d6kl2", "1d20", "1d100", "2d6", "d20"]:
        r = source.roll(DiceSpec.parse(notation))
        seen.append((notation, r.faces, r.kept, r.total, source.position))
    assert seen == [
        ("2d6", (4, 6), (4, 6), 10, 2),
        ("3d6kh2", (5, 2, 5), (5, 5), 10, 5),
        ("3d6kl2", (5, 6, 3), (5, 3), 8, 8),
        ("1d20", (19,), (19,), 19, 9),
        ("1d100", (11,), (11,), 11, 10),
        ("2d6", (4, 1), (4, 1), 5, 12),
        ("d20", (7,), (7,), 7, 13),
    ]


def test_resuming_at_a_position_continues_the_same_stream() -> None:
    source = SeededDice(7, 10)
    first = source.roll(DiceSpec.parse("2d6"))
    second = source.roll(DiceSpec.parse("1d100"))
    assert (first.faces, second.faces, source.position) == ((4, 3), (91,), 13)
    straight = SeededDice(7)
    straight.roll(DiceSpec(10, 6))
    assert straight.roll(DiceSpec.parse("2d6")).faces == (4, 3)


# --------------------------------------------------------------------------- stream version


def test_today_stream_is_version_one() -> None:
    assert STREAM_VERSION == 1
    assert SeededDice(42).stream == 1
    assert check_stream(1) == 1


@pytest.mark.parametrize("bad", [0, 2, -1, 99, "1", 1.0, True, None])
def test_unknown_stream_versions_are_refused(bad: Any) -> None:
    with pytest.raises(ValueError, match=r"dice stream .* unknown .* rolls stream 1"):
        check_stream(bad)
    if isinstance(bad, int) and not isinstance(bad, bool):
        with pytest.raises(ValueError, match="dice stream"):
            SeededDice(42, 0, bad)


def _state(**extra: Any) -> dict[str, Any]:
    return {"system": "masks", "name": "Old", "seed": 42, "dice_position": 3,
            "hero": {"name": "Nova", "stats": {"danger": 1}}, **extra}


def test_a_state_saved_before_stream_versions_reads_as_stream_one() -> None:
    old = _state()
    assert "dice_stream" not in old
    state = CampaignState.model_validate(old)
    assert state.dice_stream == 1
    assert state.model_dump(mode="json")["dice_stream"] == 1


def test_a_state_with_an_unknown_stream_is_refused() -> None:
    with pytest.raises(ValidationError, match="dice stream 2 is unknown"):
        CampaignState.model_validate(_state(dice_stream=2))


def test_new_games_record_the_current_stream(new_game: Callable[..., Game]) -> None:
    game = new_game(seed=42)
    assert game.state.dice_stream == STREAM_VERSION
    assert game.state.model_dump(mode="json")["dice_stream"] == STREAM_VERSION  # as saved


def test_a_game_rolls_the_stream_its_state_names(
    new_game: Callable[..., Game], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The migration path: a newer stream can exist while a save keeps rolling its own."""
    monkeypatch.setitem(dice._STREAMS, 2, lambda seed, n, sides: sides)  # always the top face
    game = new_game(seed=42)
    game.ask_oracle("Is the pier empty?", "even")
    assert game.state.dice_position == 1
    [asked] = [e for e in game.last_events if e["type"] == "OracleAnswered"]
    assert asked["roll"] == 48  # stream 1, seed 42, die 0
    game.state.dice_stream = 2
    game.ask_oracle("Is the pier still empty?", "even")
    [asked] = [e for e in game.last_events if e["type"] == "OracleAnswered"]
    assert asked["roll"] == 100


def _rewrite_saved_states(folder: Path, change: Callable[[dict[str, Any]], None]) -> None:
    """Apply ``change`` to every saved state (campaign.json and each log chunk's base)."""

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if "dice_position" in node and "seed" in node:
                change(node)
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    for path in [folder / "campaign.json", *sorted((folder / "log").glob("*.json"))]:
        data = json.loads(path.read_text("utf-8"))
        walk(data)
        path.write_text(json.dumps(data), "utf-8")


def _make_campaign(saves: Path) -> None:
    game = new_game(saves, system="masks", name="Old Save", hero_name="Nova",
                    stats={"danger": 1, "freak": 1, "savior": 1, "superior": 0, "mundane": 0},
                    seed=42)
    close_game(game)


def test_an_old_save_without_a_stream_opens_and_rolls_stream_one(tmp_path: Path) -> None:
    _make_campaign(tmp_path)
    _rewrite_saved_states(tmp_path / "old-save", lambda state: state.pop("dice_stream"))
    assert "dice_stream" not in (tmp_path / "old-save" / "campaign.json").read_text("utf-8")
    game = open_game(tmp_path, "old-save")
    try:
        assert game.state.dice_stream == 1
        game.ask_oracle("Is anyone watching?", "even")
        rolls = [e["roll"] for e in game.last_events if e["type"] == "OracleAnswered"]
        assert rolls == [48]
    finally:
        close_game(game)


def test_a_save_with_an_unknown_stream_is_a_clear_save_error(tmp_path: Path) -> None:
    _make_campaign(tmp_path)
    folder = tmp_path / "old-save"
    _rewrite_saved_states(folder, lambda state: state.update(dice_stream=7))
    before = (folder / "campaign.json").read_text("utf-8")
    with pytest.raises(SaveError) as err:
        open_game(tmp_path, "old-save")
    message = str(err.value)
    assert "campaign.json" in message
    assert "dice stream 7 is unknown" in message
    assert "Value error" not in message  # our own words, not pydantic's
    assert (folder / "campaign.json").read_text("utf-8") == before  # left as it was
