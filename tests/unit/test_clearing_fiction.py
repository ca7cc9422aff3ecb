"""A clearing action the fiction takes is offered with the suggestions, and noted after the
words that took it (issue 26)."""

from __future__ import annotations

from collections.abc import Callable

from hypothesis import given
from hypothesis import strategies as st

from engine.clearing import clearing_in
from engine.content.loader import Pack, load_pack
from engine.game import Game
from engine.prompts import MovePrompt
from engine.rules import events as ev
from tests.conftest import ROOT, Helpers

NPCS = [("The Quiet Abbess", "villain", "Relic thief")]
LINE = "Furious, I rip the silver reliquary off the Abbess's belt and smash it"


def _angry(new_game: Callable[..., Game]) -> Game:
    game = new_game(npcs=NPCS)
    Helpers.setup(game, ev.ConditionMarked(who="hero", condition="angry"))
    assert "angry" in game.state.hero.conditions
    return game


def test_the_fiction_that_takes_angrys_clearing_action_offers_it(
        new_game: Callable[..., Game]) -> None:
    game = _angry(new_game)
    game.describe(LINE)
    pending = game.pending
    assert isinstance(pending, MovePrompt)
    assert [h.condition for h in pending.clearing] == ["angry"]
    assert set(pending.clearing[0].said) == {"rip", "smash"}


def test_taking_it_is_journaled_after_the_words_and_the_moves_stay(
        new_game: Callable[..., Game]) -> None:
    game = _angry(new_game)
    said = game.describe(LINE)
    cleared = game.took_clearing_action("angry")
    words_at = next(x.n for x in said if x["type"] == "Narrated")
    clear_at = next(x.n for x in cleared if x["type"] == "ClearingActionTaken")
    assert words_at < clear_at  # the journal tells the smash, then the action taken
    assert "angry" in game.state.hero.conditions  # it clears when the scene ends
    assert game.state.scene.clearing == ["angry"]
    assert game.flow.stage == "move"  # a move can still follow the same words
    assert isinstance(game.pending, MovePrompt) and not game.pending.clearing


def test_nothing_is_offered_unmarked_negated_or_unrelated(
        new_game: Callable[..., Game]) -> None:
    calm = new_game(npcs=NPCS)
    assert clearing_in(calm.state, calm.pack, LINE) == ()  # not Angry: nothing to clear
    game = _angry(new_game)
    assert clearing_in(game.state, game.pack, "I do not smash it, I set it down gently") == ()
    assert clearing_in(game.state, game.pack, "I ask the Abbess where Min-ji is") == ()
    assert [h.condition for h in clearing_in(game.state, game.pack, "I smashed the organ")] \
        == ["angry"]


_PACK: list[Pack] = []


def _masks() -> Pack:
    if not _PACK:
        _PACK.append(load_pack(ROOT / "content" / "masks"))
    return _PACK[0]


@given(st.text(max_size=200))
def test_any_words_give_marked_conditions_only_each_with_its_words(text: str) -> None:
    pack = _masks()
    game = Game.new(pack, name="t", hero_name="Nova", archetype="signal_fire", seed=1)
    game.state.hero.conditions[:] = ["angry", "afraid"]
    hints = clearing_in(game.state, pack, text)
    assert {h.condition for h in hints} <= {"angry", "afraid"}
    assert all(h.said and all(w in text.replace("’", "'") or w.lower() in text.lower()
                              for w in h.said) for h in hints)
