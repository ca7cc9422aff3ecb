"""A fight started by a move's effect when the player rolls physical dice waits for its
initiative dice (``Game.fight_request``) instead of failing: both d20 games, undo, reopen."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.campaigns import close_game, new_game, open_game
from engine.errors import IllegalAction
from engine.game import Game
from engine.rules.fight.values import RequestedFight


def start_by_move(game: Game, foes: list[str]) -> None:
    """Trigger the pack's start_fight move and pick ``foes``."""
    game.trigger("start_fight")
    game.choose(foes)


def test_a_panels_fight_from_the_move_waits_for_the_side_d6s(tmp_path: Path) -> None:
    game = new_game(tmp_path, system="panels", name="Req", hero_name="Rivet", archetype="rivet",
                    seed=2, dice_mode="physical")
    start_by_move(game, ["gantry"])
    assert game.fight is None
    assert game.fight_request == RequestedFight(foes=("gantry",))
    assert game.pending.kind == "fiction"
    assert game.pending.message == ("The fight against Gantry waits for your initiative dice"
                                    " (F8 to roll them)")
    with pytest.raises(IllegalAction):
        game.start_fight(["gantry"], dice=[4])  # one die short: nothing changes
    assert game.fight_request is not None
    cid = str(game.store.id)  # type: ignore[attr-defined]
    close_game(game)
    game = open_game(tmp_path, cid)  # the request survives a reopen
    assert game.fight_request == RequestedFight(foes=("gantry",))
    game.start_fight(["gantry"], dice=[5, 1])
    assert game.fight is not None and game.fight_request is None
    enc = game.fight.encounter
    assert enc.sides is not None and enc.sides.rolls == {"heroes": 5, "villains": 1}
    game.undo()
    assert game.fight is None and game.fight_request is not None
    close_game(game)


def test_an_mm3e_fight_from_the_move_waits_and_seeded_dice_start_at_once(
        tmp_path: Path) -> None:
    game = new_game(tmp_path, system="mutants-and-masterminds", name="Req", hero_name="Keystone",
                    archetype="keystone", seed=2, dice_mode="physical")
    start_by_move(game, ["the_tallyman"])
    assert game.fight is None and game.fight_request == RequestedFight(
        foes=("the_tallyman",), surprised=())
    game.start_fight(["the_tallyman"], dice=[12, 9])
    assert game.fight is not None and game.fight_request is None
    close_game(game)
    seeded = new_game(tmp_path, system="mutants-and-masterminds", name="Seeded",
                      hero_name="Keystone", archetype="keystone", seed=2)
    start_by_move(seeded, ["the_tallyman"])
    assert seeded.fight is not None and seeded.fight_request is None
    close_game(seeded)
