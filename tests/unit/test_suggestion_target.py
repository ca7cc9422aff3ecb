"""A suggestion's odds are the roll panel's (a bonus on the named target included), and the
target the fiction names stays with a move whichever list it is picked from (issue 26)."""

from __future__ import annotations

from collections.abc import Callable

from engine.game import Game
from engine.prompts import RollPrompt, TargetPrompt
from engine.rules import events as ev
from tests.conftest import Helpers

NPCS = [("Augustin Ferro", "adult", "Pawnbroker"), ("The Quiet Abbess", "villain", "Relic thief"),
        ("Min-ji Seo", "bystander", "Witness")]


def _npc(game: Game, name: str) -> str:
    return next(a.id for a in game.state.actors.values() if a.name == name)


def test_the_suggested_odds_count_a_bonus_against_the_named_target(
        new_game: Callable[..., Game]) -> None:
    game = new_game(npcs=NPCS)
    abbess = _npc(game, "The Quiet Abbess")
    Helpers.setup(game, ev.BonusAdded(id=70, kind="forward", amount=1, moves=[], target=abbess,
                                      expires="roll", reason="you know her weak spot"))
    line = "I drive my fist into the Quiet Abbess's jaw"
    sug = next(s for s in game.suggest(line, limit=5) if s.target == abbess and s.chances)
    assert sug.move is not None
    untargeted = game.preview(sug.move)
    targeted = game.preview(sug.move, abbess)
    assert targeted.chances != untargeted.chances  # the bonus counts only on her
    assert sug.chances == targeted.chances
    game.describe(line)
    game.choose_move(sug.move)
    if isinstance(game.pending, TargetPrompt):  # asked, with her first
        assert game.pending.options[0].id == abbess
        game.choose_target(abbess)
    pending = game.pending
    assert isinstance(pending, RollPrompt) and pending.preview is not None
    assert game.flow.target == abbess
    assert pending.preview.chances == sug.chances  # the roll panel shows the same odds


def test_a_move_from_the_full_list_keeps_the_target_the_fiction_names(
        new_game: Callable[..., Game]) -> None:
    game = new_game(npcs=NPCS)
    abbess = _npc(game, "The Quiet Abbess")
    line = "I drive my fist into the Quiet Abbess's jaw"
    game.describe(line)
    suggested = {x.get("move") for x in game.state.flow.suggestions}
    # a move that targets someone but was not among the suggestions
    other = next(m for m in game.moves.available_moves()
                 if m.target != "none" and m.id not in suggested and not m.hidden
                 and abbess in {o.id for o in game.targets_for(m)})
    assert game.named_target(other.id) == abbess
    game.choose_move(other.id)
    pending = game.pending
    if isinstance(pending, TargetPrompt):  # the named one comes first
        assert pending.options[0].id == abbess
    else:
        assert game.flow.target == abbess


def test_no_named_target_when_the_fiction_names_nobody(new_game: Callable[..., Game]) -> None:
    game = new_game(npcs=NPCS)
    game.describe("I stare at the rain on the window")
    move = next(m for m in game.moves.available_moves() if m.target != "none")
    assert game.named_target(move.id) is None


def test_a_hyphenated_name_is_one_name_not_a_word_of_the_fiction(
        new_game: Callable[..., Game]) -> None:
    from engine.triggers import name_variants, people_named

    assert ("min", "ji") in name_variants("Min-ji Seo")
    assert people_named("let Min-ji go", [("m", "Min-ji Seo")]) == ["m"]
    game = new_game(npcs=NPCS)
    line = "I warn the Abbess: let Min-ji go or I bring the whole ceiling down on your choir"
    for sug in game.suggest(line):
        assert "ji" not in sug.words and "Min" not in sug.words
