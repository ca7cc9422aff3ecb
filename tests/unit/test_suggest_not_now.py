"""A move the fiction suggests that cannot be taken now comes after those that can, with the
reason (issue 26): City of Whispers' Direct Someone to Act with nobody in the cast, Run the
Scheme with no scheme."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from engine.campaigns import close_game, new_game
from engine.game import Game
from engine.prompts import MovePrompt


@pytest.fixture
def city(tmp_path: Path) -> Game:
    game = new_game(tmp_path, system="city-of-whispers", name="Ash Quarter", hero_name="Vale",
                    archetype="go_between", seed=5)
    yield game  # type: ignore[misc]
    close_game(game)


def _ranked(game: Game, line: str) -> list[tuple[str | None, str]]:
    return [(s.move, s.blocked) for s in game.suggest(line, limit=4)]


def test_a_move_nobody_can_be_the_target_of_comes_after_the_others(city: Game) -> None:
    ranked = _ranked(city, "I order my lieutenant to shake down the dock bosses")
    blocked = [m for m, why in ranked if why]
    assert "direct_someone_to_act" in blocked
    reason = dict(ranked)["direct_someone_to_act"]
    assert "target" in reason
    first_blocked = next(i for i, (_m, why) in enumerate(ranked) if why)
    assert all(why for _m, why in ranked[first_blocked:])  # every usable one comes first


def test_run_the_scheme_without_a_scheme_says_why(city: Game) -> None:
    ranked = _ranked(city, "I run the scheme and collect my cut from the gambling den")
    reason = dict(ranked).get("run_the_scheme")
    assert reason is not None and "scheme" in reason
    assert ranked[0][1] == ""  # something usable is offered first
    city.describe("I run the scheme and collect my cut from the gambling den")
    pending = city.pending
    assert isinstance(pending, MovePrompt)
    kept = {s.move: s.blocked for s in pending.suggestions}
    assert kept.get("run_the_scheme") == reason  # the flow keeps the reason


def test_a_move_that_can_be_taken_has_no_reason(city: Game) -> None:
    ranked = _ranked(city, "I set up a scheme: a gambling den under the fish market")
    assert ("set_up_a_scheme", "") in ranked


def test_a_locked_adult_move_described_gets_a_locked_hint_after_the_usable_ones(
        new_game: Callable[..., Game]) -> None:
    game = new_game()
    line = "I thread a single thin bolt of light through the crowd, precise as a needle"
    sugs = game.suggest(line)
    by_move = {s.move: s.blocked for s in sugs}
    assert "wield_powers" in by_move and "locked" in by_move["wield_powers"]
    assert sugs[-1].move == "wield_powers"  # after every move that can be taken
    assert len([s for s in sugs if s.move and not s.blocked]) == 3  # the usual three moves
    assert all(s.move != "wield_powers" for s in game.suggest("I ask Dusk what she wants"))
