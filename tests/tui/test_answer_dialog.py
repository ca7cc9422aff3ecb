"""The GM answers in the app: after a move's questions, a dialog shows each question, the
answer the GM offers and how it was drawn; a accepts, n asks for another, w and Enter take
your own words. At 80x24."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from textual.widgets import Input, OptionList, Static

from engine.campaigns import close_game, new_game
from engine.tui.app import SidekickApp
from engine.tui.messages import RollCommand
from engine.tui.screens.answer import AnswerDialog
from engine.tui.screens.dialogs import ChoiceDialog
from engine.tui.screens.play import PlayScreen
from tests.tui.conftest import game_of, settle, type_text

App = Callable[..., SidekickApp]


def offer_text(app: SidekickApp) -> str:
    """What the answer dialog shows."""
    return str(app.screen.query_one("#offer", Static).render())


async def test_the_answer_dialog_accepts_redraws_and_takes_your_words(
        make_campaign: Callable[..., str], app_for: App) -> None:
    app = app_for(make_campaign(dice_mode="seeded"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        game = game_of(app)
        screen = app.screen
        assert isinstance(screen, PlayScreen)
        game.trigger("pierce_the_mask", "Dusk Meridian")
        screen.act(game.roll, [6, 6])  # a strong hit: three questions
        screen.open_choice()
        await settle(pilot)
        assert isinstance(app.screen, ChoiceDialog)
        await pilot.press("space", "down", "space", "down", "space", "enter")
        await settle(pilot)
        # the first question: the GM's offer and how it was drawn
        dialog = app.screen
        assert isinstance(dialog, AnswerDialog)
        assert dialog.dialog_title == "Pierce the mask: the GM answers"
        shown = offer_text(app)
        first = game.pending.options[0].label
        assert game.pending.message in shown and first in shown and "meaning: " in shown
        assert dialog.region.width <= 80 and dialog.query_one("#own", Input).region.height
        await pilot.press("n")  # another: a new dialog with a new draw
        await settle(pilot)
        assert isinstance(app.screen, AnswerDialog) and app.screen is not dialog
        second = game.pending.options[0].label
        assert second != first and second in offer_text(app)
        await pilot.press("a")  # accept it
        await settle(pilot)
        said = [e for e in game.store.events() if e["type"] == "QuestionAnswered"]
        assert [e["answer"] for e in said] == [second]
        # the second question: write my own (letters type in the box, not keys)
        assert isinstance(app.screen, AnswerDialog)
        await pilot.press("w")
        await type_text(pilot, "Dusk wants a new name")
        await pilot.press("enter")
        await settle(pilot)
        said = [e for e in game.store.events() if e["type"] == "QuestionAnswered"]
        assert said[-1]["answer"] == "Dusk wants a new name" and said[-1]["by"] == "player"
        # the third: Use mine with an empty box says so, and the dialog stays
        assert isinstance(app.screen, AnswerDialog)
        await pilot.click("#mine")
        await settle(pilot)
        assert isinstance(app.screen, AnswerDialog)
        assert "Write your answer" in str(app.screen.query_one("#dialog-error", Static).render())
        # the error line shown, the buttons are still on screen (80x24)
        assert app.screen.query_one("#accept").region.y < app.screen.query_one(
            "#answer-dialog").region.bottom - 1
        await pilot.click("#accept")
        await settle(pilot)
        assert isinstance(app.screen, PlayScreen)
        assert game.pending.kind == "fiction"
        assert len([e for e in game.store.events() if e["type"] == "QuestionAnswered"]) == 3


async def test_escape_leaves_the_question_waiting(make_campaign: Callable[..., str],
                                                  app_for: App) -> None:
    app = app_for(make_campaign(dice_mode="seeded"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        game = game_of(app)
        screen = app.screen
        assert isinstance(screen, PlayScreen)
        game.trigger("pierce_the_mask", "Dusk Meridian")
        screen.act(game.roll, [3, 4])  # a weak hit: one question
        screen.act(game.choose, ["0"])
        screen.open_choice()
        await settle(pilot)
        assert isinstance(app.screen, AnswerDialog)
        offer = game.pending.options[0].label
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, PlayScreen) and game.pending.kind == "answer"
        screen.open_choice()  # the waiting button opens it again, with the same offer
        await settle(pilot)
        assert isinstance(app.screen, AnswerDialog) and offer in offer_text(app)
        await pilot.press("a")
        await settle(pilot)
        assert game.pending.kind == "fiction"



async def test_gm_you_choose_in_a_choice_you_make_for_the_gm(
        make_campaign: Callable[..., str], app_for: App) -> None:
    app = app_for(make_campaign(dice_mode="seeded"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        game = game_of(app)
        screen = app.screen
        assert isinstance(screen, PlayScreen)
        game.trigger("provoke", "Dusk Meridian")
        screen.act(game.roll, [3, 4])  # a weak hit: decide how they react, for the GM
        screen.open_choice()
        await settle(pilot)
        assert isinstance(app.screen, ChoiceDialog)
        choices = app.screen.query_one("#choices", OptionList)
        ids = [o.id for o in game.pending.options]
        assert ids[-1] == "gm_chooses"
        choices.focus()
        choices.highlighted = len(ids) - 1
        await pilot.press("enter")
        await settle(pilot)
        assert game.pending.kind == "fiction"
        told = [e for e in game.store.events() if e["type"] == "Narrated"
                and e["text"].startswith("GM, you choose")]
        assert told and [e for e in game.store.events() if e["type"] == "OptionsChosen"]


async def test_gm_you_choose_the_complexity(saves: Path, app_for: App) -> None:
    game = new_game(saves, system="city-of-whispers", name="Working", hero_name="Mira Vess",
                    archetype="go_between", npcs=[], seed=7)
    cid = str(game.store.id)  # type: ignore[attr-defined]
    close_game(game)
    app = app_for(cid)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        game = game_of(app)
        screen = app.screen
        assert isinstance(screen, PlayScreen)
        screen.use_move("use_power")
        await settle(pilot)
        screen.post_message(RollCommand("params"))
        await settle(pilot)
        assert isinstance(app.screen, ChoiceDialog)
        choices = app.screen.query_one("#choices", OptionList)
        choices.focus()
        choices.highlighted = choices.option_count - 1  # "Magistrate, you choose"
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, PlayScreen) and game.flow.stage == "roll"
        told = [e for e in game.store.events() if e["type"] == "Narrated"]
        assert told[-1]["text"].startswith("Magistrate, you choose: the Magistrate sets")
        assert "complexity" in game.flow.params
