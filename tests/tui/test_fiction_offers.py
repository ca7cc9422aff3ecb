"""What the move menu offers besides moves: a newcomer the fiction names (issue 26); Meet
Someone New meets the person the fiction names, and a place named moves the scene."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from textual.widgets import Input, Static

from engine.campaigns import close_game, new_game
from engine.tui.app import SidekickApp
from engine.tui.screens.dialogs import AddNpcDialog, ChoiceDialog
from engine.tui.widgets.action_menu import ActionMenu
from tests.tui.conftest import SIZE, game_of, journal_text, settle
from tests.tui.test_play import describe, enter_dice


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


def _cow(saves: Path) -> str:
    """A City of Whispers campaign with one contact, physical dice."""
    game = new_game(saves, system="city-of-whispers", name="Fog", hero_name="Wren",
                    archetype=None, stats={"environs": 1, "lore": 0, "network": 1, "sway": 0},
                    npcs=[("Odile Farrow", "contact", "Knows the docks")], seed=5,
                    dice_mode="physical", location="a tinkers' yard")
    cid = str(game.store.id)  # type: ignore[attr-defined]
    close_game(game)
    return cid


async def test_meet_someone_new_meets_the_person_the_fiction_names(
        saves: Path, app_for: Callable[..., SidekickApp]) -> None:
    app = app_for(_cow(saves))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await describe(pilot, "I introduce myself to Celandine Roux at the Lantern Market"
                              " and size her up")
        game = game_of(app)
        assert game.state.scene.location == "the Lantern Market"  # the fiction moved it
        assert "📍 the Lantern Market" in str(app.screen.query_one("#topbar", Static).render())
        menu = app.screen.query_one(ActionMenu)
        ids = [menu.get_option_at_index(i).id for i in range(menu.option_count)]
        assert ids[0] == "move:meet_someone_new"
        await pilot.press("enter")
        await settle(pilot)
        ask = app.screen  # the target, optional: the one it meets comes first
        assert isinstance(ask, ChoiceDialog)
        assert [o.label for o in ask.options][:2] == ["Celandine Roux", "No one in particular"]
        await pilot.press("enter")
        await settle(pilot)
        met = game.state.npc_by_name("Celandine Roux")
        assert met is not None and met.role == "contact"
        assert game.flow.stage == "roll" and game.flow.target == met.id
        await pilot.press("enter")  # physical dice: the dialog opens
        await settle(pilot)
        await enter_dice(pilot, "6 5")  # 11 + 1 = 12: critical, two shared experiences
        assert isinstance(app.screen, ChoiceDialog)
        await pilot.press("space", "down", "space", "enter")
        await settle(pilot)
        forward = game.state.bonuses[-1]
        assert forward.target == met.id and forward.amount == 1  # on them, not Odile
        text = journal_text(app)
        assert "📍 The scene moves to the Lantern Market." in text
        assert "• Celandine Roux (contact) joins the story" in text
        assert "Meet Someone New → Celandine Roux" in text
        assert text.index("joins the story") < text.index("Meet Someone New →")
