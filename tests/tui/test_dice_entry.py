"""Pilot tests of entered dice in the app (issue 8 items 9 and 19): the oracle's d100 field in
physical and mixed campaigns, a mixed campaign's roll (your dice or rolled for you), switching
the dice mode, a GM table rolled by hand, and declarations refused without changing
anything."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Input, OptionList

from engine.campaigns import close_game, new_game, open_game
from engine.errors import IllegalAction
from engine.tui.app import SidekickApp
from engine.tui.screens.answer import AnswerDialog
from engine.tui.screens.dialogs import ChoiceDialog, ChoiceList
from engine.tui.screens.gm_dialogs import (
    FramedSceneDialog,
    OracleDialog,
    RollDiceDialog,
    TableDialog,
)
from engine.tui.screens.play import PlayScreen
from engine.tui.widgets.roll_panel import RollPanel
from tests.tui.conftest import SIZE, fill, game_of, settle

App = Callable[..., SidekickApp]


def _error(app: SidekickApp) -> str:
    """The open dialog's inline error."""
    return str(app.screen.query_one("#dialog-error").render())


def _oracle_answers(app: SidekickApp) -> list[dict[str, Any]]:
    game = game_of(app)
    return [e for e in game.store.events() if e["type"] == "OracleAnswered"]


async def test_the_oracle_takes_your_d100_in_a_physical_campaign(
        make_campaign: Callable[..., str], app_for: App) -> None:
    app = app_for(make_campaign(dice_mode="physical"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+o")
        await settle(pilot)
        assert isinstance(app.screen, OracleDialog)
        assert app.screen.query_one("#d100", Input)
        await fill(pilot, "#question", "Is the ferry still running")
        await pilot.press("enter")  # to the likelihoods
        await pilot.press("enter")  # 50/50: on to the d100
        await settle(pilot)
        assert isinstance(app.screen, OracleDialog)
        assert app.focused is app.screen.query_one("#d100", Input)
        await pilot.press("enter")  # empty: physical dice need it
        await settle(pilot)
        assert isinstance(app.screen, OracleDialog)
        assert "roll a d100" in _error(app)
        await fill(pilot, "#d100", "150")
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, OracleDialog)
        assert "a d100 shows 1 to 100; 150 is out of range" in _error(app)
        assert not _oracle_answers(app)
        await fill(pilot, "#d100", "37")
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, PlayScreen)
        answer = _oracle_answers(app)[-1]
        assert (answer["roll"], answer["entered"], answer["answer"]) == (37, True, "yes")


async def test_the_oracle_in_a_mixed_campaign_rolls_for_you_or_takes_yours(
        make_campaign: Callable[..., str], app_for: App) -> None:
    app = app_for(make_campaign(dice_mode="mixed"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        for d100 in ("", "99"):
            await pilot.press("ctrl+o")
            await settle(pilot)
            await fill(pilot, "#question", "Does anyone follow")
            await pilot.press("enter")  # to the likelihoods
            await settle(pilot)
            if d100:  # your own d100: typed before asking
                await fill(pilot, "#d100", d100)
            await pilot.press("enter")  # one Enter asks (empty: rolled for you)
            await settle(pilot)
            assert isinstance(app.screen, PlayScreen)
        first, second = _oracle_answers(app)
        assert not first["entered"]
        assert second["entered"] and second["roll"] == 99


def _pending_roll(saves: Path, make_campaign: Callable[..., str], mode: str) -> str:
    cid = make_campaign(dice_mode=mode)
    game = open_game(saves, cid)
    game.trigger("directly_engage", fiction="I wade in")
    close_game(game)
    return cid


async def test_a_mixed_roll_offers_your_dice_or_mine(saves: Path,
                                                     make_campaign: Callable[..., str],
                                                     app_for: App) -> None:
    app = app_for(_pending_roll(saves, make_campaign, "mixed"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        game = game_of(app)
        assert game.flow.stage == "roll"
        assert "your dice or mine" in app.screen.query_one(RollPanel).render_text(100).plain
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, RollDiceDialog)
        await fill(pilot, "#faces", "6 9")
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, RollDiceDialog)
        assert "a d6 shows 1 to 6; 9 is out of range" in _error(app)
        await fill(pilot, "#faces", "6 6")
        await pilot.press("enter")
        await settle(pilot)
        rolled = [e for e in game.store.events() if e["type"] == "Rolled"]
        assert rolled[-1]["faces"] == [6, 6] and rolled[-1]["entered"]
        # undo it, and this time let the campaign roll
        while not isinstance(app.screen, PlayScreen):
            await pilot.press("escape")
            await settle(pilot)
        await pilot.press("ctrl+z")
        await settle(pilot)
        assert game.flow.stage == "roll"
        position = game.state.dice_position
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, RollDiceDialog)
        await pilot.press("ctrl+r")
        await settle(pilot)
        rolled = [e for e in game.store.events() if e["type"] == "Rolled"]
        assert not rolled[-1].get("entered")  # (the log leaves False out)
        assert game.state.dice_position == position + 2


async def test_switching_the_dice_mode_in_the_app(make_campaign: Callable[..., str],
                                                  app_for: App) -> None:
    app = app_for(make_campaign(dice_mode="seeded"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        game = game_of(app)
        screen = app.screen
        assert isinstance(screen, PlayScreen)
        screen.action_dice_mode()
        await settle(pilot)
        assert isinstance(app.screen, ChoiceDialog)
        await pilot.press("down", "enter")  # physical
        await settle(pilot)
        assert game.state.dice_mode == "physical"
        assert isinstance(app.screen, PlayScreen)
        await pilot.press("ctrl+o")
        await settle(pilot)
        assert isinstance(app.screen, OracleDialog) and app.screen.dice_mode == "physical"
        await pilot.press("escape")
        await settle(pilot)
        await pilot.press("ctrl+z")  # undo switches back
        await settle(pilot)
        assert game.state.dice_mode == "seeded"


def _cow_roll(saves: Path) -> str:
    game = new_game(saves, system="city-of-whispers", name="Whispers", hero_name="Mira Vess",
                    archetype=None, stats={"environs": 1, "lore": 0, "network": 2, "sway": -1},
                    npcs=[("Odile Farrow", "contact", "")], seed=7, dice_mode="physical")
    game.trigger("direct_someone_to_act", "Odile Farrow", "I offer her a deal")
    cid = str(game.store.id)  # type: ignore[attr-defined]
    close_game(game)
    return cid


async def test_one_declaration_of_a_kind_swaps_and_a_refusal_speaks_in_names(
        saves: Path, app_for: App) -> None:
    app = app_for(_cow_roll(saves))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        game = game_of(app)
        assert game.flow.stage == "roll"
        offered = [d.id for d in game.pending.declarations]
        assert offered[:3] == ["offer:peril", "offer:value", "offer:logic"]
        assert {d.group for d in game.pending.declarations[:3]} == {"offer"}
        await pilot.press("d")
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, ChoiceDialog)
        assert "one of each kind" in str(dialog.query_one("#count").render())
        await pilot.press("space", "down", "space")  # a second offer takes the first's place
        await settle(pilot)
        assert dialog.query_one(ChoiceList).selected == ["offer:value"]
        assert _error(app) == ""
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, PlayScreen)
        assert game.flow.declared == ["offer:value"]
        # the rules still refuse two of a kind asked for outright, in names
        with pytest.raises(IllegalAction) as refused:
            game.set_declarations(["offer:value", "offer:peril"])
        assert "Offer peril cannot be declared: Offer value is declared already" in str(
            refused.value) and "offer:" not in str(refused.value)
        assert game.flow.declared == ["offer:value"]


async def test_rolling_a_gm_table_by_hand(saves: Path, app_for: App) -> None:
    game = new_game(saves, system="city-of-whispers", name="Tables", hero_name="Mira Vess",
                    archetype="go_between", npcs=[], seed=7, dice_mode="physical")
    cid = str(game.store.id)  # type: ignore[attr-defined]
    close_game(game)
    app = app_for(cid)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        game = game_of(app)
        screen = app.screen
        assert isinstance(screen, PlayScreen)
        screen.action_roll_table()
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, TableDialog)
        ids = [t.id for t in game.tables()]
        dialog.query_one("#tables", OptionList).highlighted = ids.index("locations")
        await settle(pilot)
        assert "d24" in str(dialog.query_one("#roll-hint").render())
        await pilot.press("enter")  # on to the roll
        await pilot.press("enter")  # empty: physical dice need it
        await settle(pilot)
        assert isinstance(app.screen, TableDialog)
        assert "roll a d24" in _error(app)
        await fill(pilot, "#roll", "7")
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, PlayScreen)
        said = [e["text"] for e in game.store.events() if e["type"] == "Narrated"]
        assert said[-1] == "Places in Vell (your d24: 7): a cold foundry in Ashfall"


async def test_the_seeds_order_in_the_app_questions_then_dice(saves: Path, app_for: App
                                                              ) -> None:
    game = new_game(saves, system="city-of-whispers", name="Bearings", hero_name="Mira Vess",
                    archetype="go_between", npcs=[], seed=7, dice_mode="physical",
                    location="a tinkers' yard in Copperkettle")
    cid = str(game.store.id)  # type: ignore[attr-defined]
    close_game(game)
    app = app_for(cid)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        game = game_of(app)
        screen = app.screen
        assert isinstance(screen, PlayScreen)
        screen.use_move("get_your_bearings")
        await settle(pilot)
        assert isinstance(app.screen, ChoiceDialog)  # the question comes first
        assert game.pending.kind == "questions" and game.pending.max == 2
        await pilot.press("space", "enter")
        await settle(pilot)
        assert isinstance(app.screen, AnswerDialog)  # the Magistrate answers it: accept
        await pilot.press("a")
        await settle(pilot)
        assert game.flow.stage == "roll"
        asked = [e for e in game.store.events() if e["type"] == "QuestionsAsked"]
        assert asked and not [e for e in game.store.events() if e["type"] == "Rolled"]


async def test_rolling_the_place_of_the_next_scene(saves: Path, app_for: App) -> None:
    game = new_game(saves, system="city-of-whispers", name="Places", hero_name="Mira Vess",
                    archetype="go_between", npcs=[], seed=7, dice_mode="physical")
    cid = str(game.store.id)  # type: ignore[attr-defined]
    close_game(game)
    app = app_for(cid)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        game = game_of(app)
        await pilot.press("f6")
        await settle(pilot)
        assert isinstance(app.screen, FramedSceneDialog)
        await fill(pilot, "#place", "99")
        await pilot.press("enter")
        await settle(pilot)
        assert "a d24 shows 1 to 24; 99 is out of range" in _error(app)
        await fill(pilot, "#place", "7")
        await pilot.press("enter")  # the proposal follows the roll; focus on "Play it"
        await settle(pilot)
        assert app.screen.proposal.location == "a cold foundry in Ashfall"
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, PlayScreen)
        assert game.state.scene.location == "a cold foundry in Ashfall"
