"""Pilot tests of the app's side of move detection (issue 11), at 80x24: the "No move"
suggestion, the words and the target shown on a suggestion, old saved suggestions, and the F2
move list ranking a match in a move's name first.

``Game.suggest`` is replaced by fixed answers, so these tests check the app, not the matcher.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from rich.text import Text
from textual.widgets import OptionList, Static

from engine.campaigns import close_game, new_game
from engine.game import Game
from engine.prompts import Suggestion
from engine.tui.app import SidekickApp
from engine.tui.screens.dialogs import ChoiceDialog, MoveEntry, MovesDialog, move_rank
from engine.tui.widgets.action_menu import ActionMenu
from tests.tui.conftest import fill, game_of, journal_text, settle, type_text

App = Callable[..., SidekickApp]
SMALL = (80, 24)
NO_MOVE = {"move": None, "name": "No move, just fiction", "score": 0.9, "cue": "",
           "words": ["lean", "watch"], "target": None, "target_name": None}


def actor_id(game: Game, name: str) -> str:
    """The id of the character called ``name``."""
    return next(a.id for a in game.state.actors.values() if a.name == name)


def fixed(answer: Callable[[Game], list[dict[str, Any]]]) -> Callable[[Game, str], Any]:
    """A stand-in for Game.suggest that answers the same whatever the fiction."""

    def suggest(self: Game, text: str) -> list[Suggestion]:
        out = answer(self)
        for sug in out:  # the exact odds, as the engine adds them
            move = self.pack.moves.get(sug["move"] or "")
            if move is not None and move.roll is not None and move.roll.stat != "choice":
                sug["odds"] = self.preview(move.id).odds
        return [Suggestion.of(s) for s in out]

    return suggest


def pierce(game: Game) -> dict[str, Any]:
    """Pierce the Mask aimed at Dusk Meridian, with the words that led to it."""
    return {"move": "pierce_the_mask", "name": "Pierce the Mask", "score": 0.8,
            "cue": "study", "words": ["study", "hiding", "?"],
            "target": actor_id(game, "Dusk Meridian"), "target_name": "Dusk Meridian"}


def plain_fiction_first(game: Game) -> list[dict[str, Any]]:
    """The fiction reads as description: "No move" first, then the best moves."""
    return [dict(NO_MOVE), pierce(game),
            {"move": "directly_engage", "name": "Directly Engage a Threat", "score": 0.3,
             "cue": "punch", "words": ["punch"], "target": None, "target_name": None},
            {"move": "defend_someone", "name": "Defend Someone", "score": 0.2,
             "cue": "protect", "words": ["protect", "Tin"],
             "target": actor_id(game, "Tin"), "target_name": "Tin"}]


def stage(game: Game) -> str:
    """The flow's stage, read afresh (as a plain str, after an action changed it)."""
    return str(game.flow.stage)


async def describe(pilot: Any, text: str) -> None:
    """Type fiction at 'What do you do?' and press Enter."""
    await fill(pilot, "#fiction", text)
    await pilot.press("enter")
    await settle(pilot)


@asynccontextmanager
async def described(app: SidekickApp, text: str) -> AsyncIterator[Any]:
    """The app at 80x24, the fiction typed: the pilot at the move menu."""
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        await describe(pilot, text)
        yield pilot


def menu_lines(menu: ActionMenu) -> list[tuple[str | None, list[str]]]:
    """Each menu entry's id and its prompt's lines (plain text)."""
    out = []
    for i in range(menu.option_count):
        opt = menu.get_option_at_index(i)
        prompt = opt.prompt
        text = prompt.plain if isinstance(prompt, Text) else str(prompt)
        out.append((opt.id, text.split("\n")))
    return out


def assert_fits(menu: ActionMenu) -> None:
    """Every suggestion is at most two lines, none wider than the menu (nothing wraps)."""
    width = menu.scrollable_content_region.width
    assert width > 40
    for key, lines in menu_lines(menu):
        if key and key.startswith("move:"):
            assert len(lines) <= 2, lines
        for line in lines:
            assert Text(line).cell_len <= width, (line, width)


@pytest.mark.parametrize("key", ["1", "enter"])  # by its number, or Enter on the highlight
async def test_no_move_first_and_picked(make_campaign: Callable[..., str], app_for: App,
                                        monkeypatch: pytest.MonkeyPatch, key: str) -> None:
    monkeypatch.setattr(Game, "suggest", fixed(plain_fiction_first))
    app = app_for(make_campaign())
    async with described(app, "I lean on the railing and watch the harbour lights") as pilot:
        game = game_of(app)
        assert game.flow.stage == "move"
        menu = app.screen.query_one(ActionMenu)
        assert app.focused is menu
        ids = [key for key, _ in menu_lines(menu)]
        assert ids[:4] == ["move:", "move:pierce_the_mask", "move:directly_engage",
                           "move:defend_someone"]
        assert "all" in ids and "none" in ids  # the list and the [n] entry stay
        head = str(app.screen.query_one("#prompt-title", Static).render())
        assert "That reads as plain fiction. Keep it, or pick a move:" in head
        first = menu_lines(menu)[0][1]
        assert first[0].startswith("1. No move, just fiction")
        assert "“lean”, “watch”" in first[0]
        assert menu.highlighted == 0
        assert_fits(menu)
        assert menu.max_scroll_y == 0  # every entry in view, down to "No move [n]"
        await pilot.press(key)
        await settle(pilot)
        assert stage(game) == "fiction" and game.flow.move is None
        assert "│ I lean on the railing" in journal_text(app)
        assert not any(e["type"] == "MoveTriggered" for e in game.store.events())
        assert app.focused is app.screen.query_one("#fiction")


async def test_words_and_target_are_shown(make_campaign: Callable[..., str], app_for: App,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Game, "suggest",
                        fixed(lambda g: [pierce(g), plain_fiction_first(g)[2]]))
    app = app_for(make_campaign())
    async with described(app, "I study Dusk. What is he hiding behind that grin?") as pilot:
        game = game_of(app)
        menu = app.screen.query_one(ActionMenu)
        head = str(app.screen.query_one("#prompt-title", Static).render())
        assert "plain fiction" not in head
        key, lines = menu_lines(menu)[0]
        assert key == "move:pierce_the_mask"
        assert lines[0].startswith("1. Pierce the Mask → Dusk Meridian")
        assert "you said “study”, “hiding”, “?”" in lines[0]
        assert "cue “study”" not in lines[0]  # the words replace the cue
        assert "%" in lines[1]  # the exact odds below
        assert_fits(menu)
        await pilot.press("1")
        await settle(pilot)
        # a required target: the target prompt keeps its first usable option highlighted
        assert game.flow.stage == "target"
        options = game.pending.options
        first = next(o for o in options if not o.disabled)
        assert menu.highlighted_option is not None
        assert menu.highlighted_option.id == f"target:{first.id}"


async def test_optional_target_named_in_the_fiction_comes_first(
        make_campaign: Callable[..., str], app_for: App,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Game, "suggest", fixed(plain_fiction_first))
    app = app_for(make_campaign())
    async with described(app, "I throw myself in front of Tin to protect him") as pilot:
        await pilot.press("4")  # Defend Someone → Tin (its target is optional)
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, ChoiceDialog)
        tin = actor_id(game_of(app), "Tin")
        assert dialog.options[0].id == tin
        choices = dialog.query_one("#choices", OptionList)
        assert choices.highlighted == 0


async def test_old_suggestion_without_words_or_target(make_campaign: Callable[..., str],
                                                      app_for: App,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    old = {"move": "directly_engage", "name": "Directly Engage a Threat", "score": 1.0,
           "cue": "punch"}  # a flow saved before words and targets were kept
    monkeypatch.setattr(Game, "suggest", fixed(lambda g: [dict(old)]))
    app = app_for(make_campaign())
    async with described(app, "I punch the drones") as pilot:
        game = game_of(app)
        menu = app.screen.query_one(ActionMenu)
        key, lines = menu_lines(menu)[0]
        assert key == "move:directly_engage"
        assert "1. Directly Engage a Threat  cue “punch”" in lines[0]
        assert "→" not in lines[0]
        assert_fits(menu)
        await pilot.press("enter")
        await settle(pilot)
        assert game.flow.stage == "roll" and game.flow.move == "directly_engage"


async def test_long_words_and_names_are_cut_not_wrapped(make_campaign: Callable[..., str],
                                                        app_for: App,
                                                        monkeypatch: pytest.MonkeyPatch
                                                        ) -> None:
    def many(game: Game) -> list[dict[str, Any]]:
        sug = pierce(game)
        sug["words"] = ["scrutinise", "interrogate", "suspicious", "concealing", "underneath",
                        "expression", "motivation", "whatever", "really"]
        return [dict(NO_MOVE, words=["lean"] * 30), sug]

    monkeypatch.setattr(Game, "suggest", fixed(many))
    app = app_for(make_campaign())
    async with described(app, "I study Dusk for a long while"):
        menu = app.screen.query_one(ActionMenu)
        assert_fits(menu)
        line = menu_lines(menu)[1][1][0]
        assert "Pierce the Mask → Dusk Meridian" in line and "“scrutinise”" in line
        assert line.endswith("…")  # words left off the end, said so


# ---------------------------------------------------------------- F2: the move list


def cow_campaign(saves: Path) -> str:
    """A City of Whispers campaign, seeded dice."""
    game = new_game(saves, system="city-of-whispers", name="Fog", hero_name="Wren",
                    archetype=None, stats={"environs": 1, "lore": 0, "network": 1, "sway": 0},
                    npcs=[("Odile Farrow", "contact", "Knows the docks")], seed=5,
                    dice_mode="seeded")
    cid = str(game.store.id)  # type: ignore[attr-defined]
    close_game(game)
    return cid


@pytest.mark.parametrize("typed", ["direct someone", "dir som", "Direct Someone"])
async def test_f2_ranks_a_match_in_the_name_first(saves: Path, app_for: App,
                                                  typed: str) -> None:
    app = app_for(cow_campaign(saves))
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        await pilot.press("f2")
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, MovesDialog)
        await type_text(pilot, typed)
        await settle(pilot)
        moves = dialog.query_one("#moves", OptionList)
        assert moves.highlighted_option is not None
        assert moves.highlighted_option.id == "direct_someone_to_act"
        shown = [moves.get_option_at_index(i).id for i in range(moves.option_count)]
        assert shown[0] == "direct_someone_to_act"  # the whole name first
        assert shown.index("direct_against_interest") == 1  # its name matches too
        for other in shown[2:]:  # the rest match only in their trigger or cues
            assert typed.lower().split()[0] not in str(other).replace("_", " ")
        await pilot.press("enter")
        await settle(pilot)
        game = game_of(app)
        assert game.flow.move == "direct_someone_to_act" and game.flow.stage == "target"


def entry(move_id: str, name: str, search: str, enabled: bool = True) -> MoveEntry:
    """A move-list entry for the ranking tests."""
    return MoveEntry(move_id, Text(name), enabled, name, search.lower())


def test_move_rank_orders_name_matches_and_keeps_unavailable_after() -> None:
    entries = [
        entry("get", "Get Something", "when you ask someone to direct you to a thing"),
        entry("later", "Direct Someone to Act", "when you direct someone", enabled=False),
        entry("direct", "Direct Someone to Act", "when you direct someone"),
        entry("none", "Read a Person", "when you read a person"),
    ]
    words = ["direct", "someone"]
    ranked = sorted((r, i, e.id) for i, e in enumerate(entries)
                    if (r := move_rank(e, words)) is not None)
    assert [x[2] for x in ranked] == ["direct", "later", "get"]
    assert move_rank(entries[3], words) is None
    assert move_rank(entries[0], []) is not None  # nothing typed: everything shows


async def test_no_move_second_is_picked_by_its_number(make_campaign: Callable[..., str],
                                                      app_for: App,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Game, "suggest", fixed(lambda g: [pierce(g), dict(NO_MOVE)]))
    app = app_for(make_campaign())
    async with described(app, "I study Dusk. What is he hiding behind that grin?") as pilot:
        game = game_of(app)
        menu = app.screen.query_one(ActionMenu)
        assert [key for key, _ in menu_lines(menu)][:2] == ["move:pierce_the_mask", "move:"]
        assert menu_lines(menu)[1][1][0].startswith("2. No move, just fiction")
        await pilot.press("2")
        await settle(pilot)
        assert stage(game) == "fiction" and game.flow.move is None


async def test_suggestions_fit_again_when_the_sheet_is_shown(
        make_campaign: Callable[..., str], app_for: App,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Game, "suggest", fixed(plain_fiction_first))
    app = app_for(make_campaign())
    async with described(app, "I lean on the railing and watch the harbour lights") as pilot:
        menu = app.screen.query_one(ActionMenu)
        wide = menu.scrollable_content_region.width
        await pilot.press("down")  # Pierce the Mask
        await pilot.press("ctrl+b")  # the sheet takes part of the width
        await settle(pilot)
        await settle(pilot)
        assert menu.scrollable_content_region.width < wide
        assert_fits(menu)
        assert menu.highlighted_option is not None
        assert menu.highlighted_option.id == "move:pierce_the_mask"
