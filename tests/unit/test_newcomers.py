"""People the fiction names who are not in the story yet are offered to the cast (issue 26)."""

from __future__ import annotations

from collections.abc import Callable

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.content.loader import load_pack
from engine.game import Game
from engine.newcomers import newcomers
from engine.prompts import MovePrompt
from tests.conftest import ROOT

NPCS = [("Augustin Ferro", "adult", "Pawnbroker"), ("The Quiet Abbess", "villain", "Relic thief"),
        ("Min-ji Seo", "bystander", "Witness")]


def test_a_name_of_no_one_in_the_story_is_a_newcomer(new_game: Callable[..., Game]) -> None:
    game = new_game(npcs=NPCS)
    s = game.state
    assert newcomers(s, "I ask Augustin who owned the gauntlet before Sister Marguerite") \
        == ("Sister Marguerite",)
    assert newcomers(s, "Tell Dani to get behind me, I say.") == ("Dani",)
    assert newcomers(s, "I call Captain Vega and ask about the Foundry Crew") \
        == ("Captain Vega", "Foundry Crew")


def test_the_cast_the_heroes_places_and_sentence_starts_are_not(
        new_game: Callable[..., Game]) -> None:
    game = new_game(npcs=NPCS)
    s = game.state
    assert newcomers(s, "I warn the Abbess: let Min-ji go or Augustin pays") == ()
    assert newcomers(s, f"{game.state.hero.name} punches the drone. Then I run.") == ()
    assert newcomers(s, "I fly over Halberd City toward the Drowned Chapel") == ()


def test_the_move_prompt_offers_them(new_game: Callable[..., Game]) -> None:
    game = new_game(npcs=NPCS)
    game.describe("Sister Marguerite pawned the gauntlet the night she fled the Abbess")
    pending = game.pending
    assert isinstance(pending, MovePrompt) and pending.newcomers == ("Marguerite",)
    game.add_npc("Marguerite", "bystander", "pawned the gauntlet")
    assert isinstance(game.pending, MovePrompt) and game.pending.newcomers == ()


_GAME: list[Game] = []


def _game() -> Game:
    if not _GAME:
        pack = load_pack(ROOT / "content" / "masks")
        _GAME.append(Game.new(pack, name="t", hero_name="Nova", archetype="signal_fire", seed=1))
    return _GAME[0]


@settings(deadline=None)  # no timed asserts: the machine's load is not the test's
@given(st.text(max_size=300))
def test_any_words_give_short_capitalised_names(text: str) -> None:
    game = _game()
    for name in newcomers(game.state, text):
        parts = name.split()
        assert 1 <= len(parts) <= 4 and all(p[:1].isupper() for p in parts)
