"""A prompt kind the rules name (Masks's battle) opens as a choice, titled by the rules."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.tui.app import SidekickApp
from engine.tui.screens.dialogs import ChoiceDialog
from tests.tui.conftest import SIZE, game_of, settle

App = Callable[..., SidekickApp]


async def test_entering_battle_opens_a_choice_titled_by_the_rules(
        make_campaign: Callable[..., str], app_for: App) -> None:
    app = app_for(make_campaign(dice_mode="seeded"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        game = game_of(app)
        screen: Any = app.screen
        screen.perform(game.trigger, "enter_battle", None, "We hit the warehouse together")
        await settle(pilot)
        prompt = game.pending
        assert prompt.kind == "battle" and prompt.title == "Entering battle"
        assert isinstance(app.screen, ChoiceDialog)
        assert app.screen.dialog_title == "Entering battle"
        await pilot.press("enter")
        await settle(pilot)
        assert game.pending.kind == "fiction"
        assert game.state.pools["team"] >= 2
