"""A place the fiction puts the hero in becomes the scene's place (issue 26, "the ledger
listens too"): read from the words (engine/nlp/places.py), a ``SceneMoved`` event with the
fiction, journaled as story, undone with it, followed by the recap."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from engine.errors import IllegalAction
from engine.game import Game
from engine.journal import render_all
from engine.nlp.places import places, scene_place
from engine.recap import recap
from engine.rules import events as ev


@pytest.mark.parametrize(("line", "place"), [
    ("I race to the Drowned Chapel", "the Drowned Chapel"),
    ("we meet at Halberd Bridge", "Halberd Bridge"),
    ("Down at the docks, I wait for the ferry", "the docks"),
    ("I crash through the window into the warehouse", "the warehouse"),
    ("I fly over Halberd City toward the Drowned Chapel", "the Drowned Chapel"),
    ("I race from the docks to the old Drowned Chapel and kick in the door",
     "the old Drowned Chapel"),
    ("I go to Sister Marguerite's house", "Sister Marguerite's house"),
    ("We head back to HQ.", "HQ"),
    ("i run 2 the pier lol", "the pier"),
    ("Wren flew into the Old Foundry before the cops got there.", "the Old Foundry"),
])
def test_a_place_the_words_put_the_hero_in(line: str, place: str) -> None:
    assert scene_place(line) == place


@pytest.mark.parametrize("line", [
    "I ask Augustin about the Drowned Chapel",  # spoken of, not gone to
    "I look at the tower",  # looked at
    "I tell Min-ji to meet me at the docks",  # someone else sent
    "I don't go to the docks",  # negated
    "Is anyone at the docks?",  # a question
    "I talk to the bar owner",  # the bar owner is a person
    "I'm the best hero in the city",  # too broad to move a scene
    "Halberd City is burning",  # named, nobody goes there
    "I run into her apartment",  # whose?
    "I slam him into the wall",  # no place
    "I leave the docks",
    "whats the biggest threat to the Tallow Exchange in this room",  # asked, no "?"
])
def test_words_that_put_the_hero_nowhere_new(line: str) -> None:
    assert scene_place(line) is None


def test_every_place_named_is_read_with_whether_the_hero_is_there() -> None:
    found = places("I ask about Halberd Bridge and race to the docks")
    assert [(p.text, p.there, p.proper) for p in found] == [
        ("Halberd Bridge", False, True), ("the docks", True, False)]


def test_the_fiction_moves_the_scene(new_game: Callable[..., Game]) -> None:
    game = new_game(location="a rooftop in Halberd")
    events = game.describe("I race to the Drowned Chapel")
    moved = [e for e in events if e["type"] == "SceneMoved"]
    assert len(moved) == 1 and moved[0]["location"] == "the Drowned Chapel"
    assert moved[0]["was"] == "a rooftop in Halberd"
    assert game.state.scene.location == "the Drowned Chapel"
    lines = render_all(game.store.events(), game.pack)
    said = lines.index("> I race to the Drowned Chapel")
    assert lines[said + 1] == "📍 The scene moves to the Drowned Chapel."  # after the words
    game.choose_move(None)
    game.narrate("Our ride drops us at the Drowned Chapel.")  # there already: no event
    assert [e for e in game.last_events if e["type"] == "SceneMoved"] == []
    game.trigger("assess_situation", fiction="I head down to the docks and look around")
    assert game.state.scene.location == "the docks"
    game.undo()  # the move and its place go together
    assert game.state.scene.location == "the Drowned Chapel"


def test_my_and_our_read_as_the_journal_speaks(new_game: Callable[..., Game]) -> None:
    game = new_game()
    game.narrate("I head back to my apartment")
    assert game.state.scene.location == "Nova's apartment"
    game.narrate("We crash at our hideout")
    assert game.state.scene.location == "your hideout"


def test_no_open_scene_no_move_and_the_recap_follows(new_game: Callable[..., Game]) -> None:
    game = new_game(location="a rooftop")
    game.narrate("We meet at Halberd Bridge")
    game.trigger("assess_situation")  # play happened: there is something to recap
    text = "\n".join(recap(game.store.events(), game.state, game.pack))
    assert "Scene 1: Opening scene — Halberd Bridge" in text
    game.undo()
    game.end_scene()
    game.narrate("I walk to the docks alone")
    assert game.state.scene.location == "Halberd Bridge"  # between scenes: nothing moves


def test_the_ledger_moves_the_scene_by_hand(new_game: Callable[..., Game]) -> None:
    game = new_game(location="a rooftop")
    game.ledger.move_scene("  the  Lantern   Market ")
    assert game.state.scene.location == "the Lantern Market"
    with pytest.raises(IllegalAction, match="already"):
        game.ledger.move_scene("Lantern Market")
    with pytest.raises(IllegalAction, match="name the place"):
        game.ledger.move_scene(" ")


def test_the_event_reads_back_and_applies_alone() -> None:
    e = ev.from_dict({"type": "SceneMoved", "location": "the docks"})
    assert isinstance(e, ev.SceneMoved) and e.was == ""
    assert e.to_dict()["location"] == "the docks"
