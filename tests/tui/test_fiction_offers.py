"""What the move menu offers besides moves: a newcomer the fiction names (issue 26)."""

from __future__ import annotations

from collections.abc import Callable

from textual.widgets import Input

from engine.tui.app import SidekickApp
from engine.tui.screens.dialogs import AddNpcDialog
from engine.tui.widgets.action_menu import ActionMenu
from tests.tui.conftest import SIZE, game_of, settle
from tests.tui.test_play import describe


async def test_a_name_the_fiction_gives_can_join_the_cast(
        make_campaign: Callable[..., str], app_for: Callable[..., SidekickApp]) -> None:
    app = app_for(make_campaign())
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await describe(pilot, "I ask Rosalind who sold the gauntlet to Sister Marguerite")
        menu = app.screen.query_one(ActionMenu)
        ids = [menu.get_option_at_index(i).id for i in range(menu.option_count)]
        assert "newcomer:Sister Marguerite" in ids
        menu.highlighted = ids.index("newcomer:Sister Marguerite")
        await pilot.press("enter")
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, AddNpcDialog)
        assert dialog.query_one("#npc-name", Input).value == "Sister Marguerite"
        await pilot.press("enter")
        await settle(pilot)
        game = game_of(app)
        assert any(a.name == "Sister Marguerite" for a in game.state.npcs.values())
        assert game.flow.stage == "move"  # the moves are still on offer
