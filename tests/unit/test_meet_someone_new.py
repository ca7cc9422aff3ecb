"""City of Whispers' Meet Someone New creates the person it meets (issue 26): a name in the
fiction of no one in the story, a target named who is not in it, or the person the fiction
describes joins the cast as a contact and is the move's target, so its +1 forward is on them
and not on another contact. And the newcomer offer works in every system, through the facade."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from engine.campaigns import close_game, new_game
from engine.content.loader import Pack, load_pack
from engine.game import Game
from engine.journal import render_all
from engine.prompts import MovePrompt
from engine.script import run_script
from tests.conftest import ROOT

NPCS = [("Odile Farrow", "contact", "fence"), ("Brother Cask", "ally", "")]


@pytest.fixture(scope="module")
def cow() -> Pack:
    """The bundled City of Whispers pack."""
    return load_pack(ROOT / "content" / "city-of-whispers")


@pytest.fixture
def game(cow: Pack) -> Game:
    """A Go-Between (Network +2) with a contact and an ally."""
    return Game.new(cow, name="Test", hero_name="Mira", archetype="go_between", npcs=NPCS,
                    seed=7, location="a tinkers' yard")


def _critical(game: Game) -> None:
    """Roll 12 and pick two shared experiences."""
    game.roll([5, 5])
    game.choose(["mutual", "faction"])


def test_a_name_in_the_fiction_is_the_person_met(game: Game) -> None:
    game.describe("I introduce myself to Celandine Roux and size her up")
    assert game.pending.suggestions[0].move == "meet_someone_new"  # type: ignore[attr-defined]
    assert game.pending.suggestions[0].target_name == "Celandine Roux"  # type: ignore[attr-defined]
    game.choose_move("meet_someone_new")  # "her" does not make it Odile, the one present
    met = game.state.npc_by_name("Celandine Roux")
    assert met is not None and met.role == "contact" and met.present
    assert game.flow.stage == "roll" and game.flow.target == met.id
    _critical(game)
    forward = game.state.bonuses[-1]
    assert (forward.kind, forward.amount, forward.target) == ("forward", 1, met.id)
    direct = game.pack.moves["direct_someone_to_act"]
    on = [m[0] for m in game.modifiers(direct, met.id)[0]]
    off = [m[0] for m in game.modifiers(direct, "odile_farrow")[0]]
    assert "+1 forward: a new acquaintance" in on
    assert not any("acquaintance" in m for m in off)  # not on another contact
    lines = render_all(game.store.events(), game.pack)
    joined = lines.index("• Celandine Roux (contact) joins the story")
    assert lines[joined + 1] == "### Meet Someone New → Celandine Roux"


def test_a_target_named_who_is_not_in_the_story_is_met(game: Game) -> None:
    game.trigger("meet_someone_new", "Auntie Grist")
    met = game.state.npc_by_name("Auntie Grist")
    assert met is not None and game.flow.target == met.id


def test_the_person_described_is_met_when_no_one_is_named(game: Game) -> None:
    game.describe("I buy the new harbormaster a drink and get a measure of him")
    game.choose_move("meet_someone_new")
    met = game.state.npc_by_name("The new harbormaster")
    assert met is not None and game.flow.target == met.id


def test_someone_of_the_cast_named_is_the_one_met_and_none_meets_no_one(game: Game) -> None:
    game.describe("I've only met Odile once; I sit with her and get the measure of her")
    game.choose_move("meet_someone_new")
    assert game.flow.stage == "target" and game.flow.target == "odile_farrow"  # pre-selected
    game.undo()
    count = len(game.state.npcs)
    game.choose_move("meet_someone_new", "none")
    assert game.flow.stage == "roll" and game.flow.target is None
    assert len(game.state.npcs) == count
    game.undo()
    game.undo()
    game.trigger("meet_someone_new")  # no words, no target: nobody to name
    assert len(game.state.npcs) == count and game.flow.target is None


def test_undo_takes_the_person_met_away(game: Game) -> None:
    game.describe("I strike up a conversation with Celandine Roux")
    game.choose_move("meet_someone_new")
    game.undo()
    assert game.state.npc_by_name("Celandine Roux") is None
    assert game.flow.stage == "move"


def test_a_script_meets_them_too() -> None:
    data: dict[str, Any] = {
        "campaign": {"name": "T", "system": "city-of-whispers", "seed": 3,
                     "hero": {"name": "Mira", "archetype": "go_between"},
                     "npcs": [{"name": "Odile Farrow", "role": "contact"}]},
        "steps": [{"fiction": "I introduce myself to Celandine Roux down at the docks",
                   "move": "meet_someone_new", "dice": [5, 5], "choose": [["mutual", "faction"]]}],
    }
    events: list[Any] = []
    game = run_script(data, saves=None, content=[], campaign=None, emit=events.append)
    met = game.state.npc_by_name("Celandine Roux")
    assert met is not None and game.state.bonuses[-1].target == met.id
    assert game.state.scene.location == "the docks"


SYSTEMS = ["masks", "city-of-whispers", "mutants-and-masterminds", "panels"]


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_system_offers_newcomers_and_follows_places(tmp_path: Path, system: str) -> None:
    pack = load_pack(ROOT / "content" / system)
    game = new_game(tmp_path, system=system, name="T", hero_name="Vale",
                    archetype=next(iter(pack.archetypes)), seed=5)
    try:
        game.describe("I race to the Drowned Chapel and ask Sister Marguerite who hired"
                      " Captain Vega")
        pending = game.pending
        assert isinstance(pending, MovePrompt)
        assert pending.newcomers == ("Sister Marguerite", "Captain Vega")
        assert game.state.scene.location == "the Drowned Chapel"
        game.add_npc("Captain Vega", pack.system.roles[0])  # the offer taken, moves kept
        pending = game.pending
        assert isinstance(pending, MovePrompt) and pending.newcomers == ("Sister Marguerite",)
        assert game.flow.stage == "move"
    finally:
        close_game(game)
