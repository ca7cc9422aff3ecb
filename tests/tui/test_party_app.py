"""Pilot tests of party play in the app: a party made in the new-campaign form, the acting
hero in the top bar, F3 to switch (or add) a hero, Team spent by one hero for another, and a
journal that names who acts."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.widgets import Input, Select, Static

from engine.tui.app import SidekickApp
from engine.tui.screens.dialogs import ChoiceDialog, DiceDialog
from engine.tui.screens.new_campaign import NewCampaignScreen
from engine.tui.screens.party import AddHeroDialog, SwitchHeroDialog
from engine.tui.screens.play import PlayScreen
from engine.tui.widgets.action_menu import ActionMenu
from engine.tui.widgets.keybar import KeyBar
from tests.tui.conftest import SIZE, fill, game_of, journal_text, settle, type_text

App = Callable[..., SidekickApp]
PARTY = [{"name": "Tin", "archetype": "pawnshop_paladin"},
         {"name": "Ash", "archetype": "stitchwork"}]


def topbar(app: SidekickApp) -> str:
    """The play screen's top bar as plain text."""
    return str(app.screen.query_one("#topbar", Static).render())


async def pick_in_menu(pilot: Any, key: str) -> None:
    """Highlight the inline menu's entry ``key`` with the arrow keys and press Enter."""
    menu = pilot.app.screen.query_one(ActionMenu)
    ids = [menu.get_option_at_index(i).id for i in range(menu.option_count)]
    assert key in ids, ids
    while menu.get_option_at_index(menu.highlighted or 0).id != key:
        await pilot.press("down")
    await pilot.press("enter")
    await settle(pilot)


async def test_a_party_is_made_in_the_new_campaign_form(app_for: App) -> None:
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("n")
        await settle(pilot)
        form = app.screen
        assert isinstance(form, NewCampaignScreen)
        form.query_one("#system", Select).value = "masks"
        await settle(pilot)
        assert not form.query_one("#party-list").display  # one hero: nothing more to see
        await fill(pilot, "#name", "Pier Nine")
        await fill(pilot, "#hero", "Nova")
        await pilot.press("ctrl+t")
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, AddHeroDialog)
        await type_text(pilot, "Tin")
        dialog.query_one("#hero-build", Select).value = "pawnshop_paladin"
        await settle(pilot)
        dialog.query_one("#hero-name", Input).focus()
        await pilot.press("enter")
        await settle(pilot)
        assert app.screen is form
        await pilot.press("ctrl+t")
        await settle(pilot)
        second = app.screen
        assert isinstance(second, AddHeroDialog)
        await type_text(pilot, "nova")  # the first hero's name: refused, nothing lost
        await pilot.press("enter")
        await settle(pilot)
        assert "already a hero called nova" in str(second.query_one("#dialog-error").render())
        await fill(pilot, "#hero-name", "Ash")
        second.query_one("#hero-build", Select).value = "__custom__"
        await settle(pilot)
        for stat, value in [("danger", "2"), ("freak", "1"), ("savior", "1"),
                            ("superior", "0"), ("mundane", "-1")]:
            await fill(pilot, f"#hero-stat-{stat}", value)
        second.query_one("#hero-name", Input).focus()
        await pilot.press("enter")
        await settle(pilot)
        assert app.screen is form
        listing = str(form.query_one("#party-list", Static).render())
        assert "Tin (Pawnshop Paladin); Ash (Danger +2, Freak +1" in listing
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, PlayScreen)
        game = game_of(app)
        assert [h.name for h in game.state.heroes] == ["Nova", "Tin", "Ash"]
        assert game.state.actors["ash"].stats["danger"] == 2
        assert game.state.hero.name == "Nova"
        assert "• Tin (Pawnshop Paladin) joins the party" in journal_text(app)


async def test_a_party_of_three_switches_and_helps(make_campaign: Callable[..., str],
                                                   app_for: App) -> None:
    app = app_for(make_campaign(party=PARTY))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, PlayScreen)
        game = game_of(app)
        assert "▶ Nova acting · with Tin, Ash (F3)" in topbar(app)
        assert "f3 Switch hero" in str(app.screen.query_one(KeyBar).render())
        assert "Nova: What do you do?" in str(app.screen.query_one("#prompt-title").render())
        # F3: the picker, Nova (acting) cannot be picked; Tin is highlighted first
        await pilot.press("f3")
        await settle(pilot)
        picker = app.screen
        assert isinstance(picker, SwitchHeroDialog)
        assert [o.id for o in picker.options] == ["nova", "tin", "ash", "__add__"]
        assert picker.options[0].disabled == "acting now"
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, PlayScreen)
        assert game.state.hero.name == "Tin"
        assert "▶ Tin acting · with Nova, Ash (F3)" in topbar(app)
        assert app.screen.query_one("#fiction", Input).placeholder.startswith(
            "Describe what Tin does")
        # Tin's move: 4 + 5 + Danger 0 = 9, a weak hit; Nova spends Team for +1
        await fill(pilot, "#fiction", "I punch Dusk off the crane")
        await pilot.press("enter")
        await settle(pilot)
        await pilot.press("enter")  # the first suggestion: directly engage
        await settle(pilot)
        await pilot.press("enter")  # roll: the physical dice dialog
        await settle(pilot)
        assert isinstance(app.screen, DiceDialog)
        await fill(pilot, "#faces", "4 5")
        await pilot.press("enter")
        await settle(pilot)
        assert game.flow.stage == "adjust"
        await pick_in_menu(pilot, "adjust:team:nova")
        assert isinstance(app.screen, ChoiceDialog)  # a strong hit: pick two
        await pilot.press("space", "down", "space", "enter")
        await settle(pilot)
        assert game.flow.stage == "fiction"
        text = journal_text(app)
        assert "🎭 The spotlight turns to Tin (from Nova)" in text
        assert "▶ Tin: Directly engage a threat" in text
        assert "Team -1 → 0 (Nova spends it for +1 on Tin's roll)" in text
        assert "Team from Nova +1: now 10" in text
        # F3 again, and add a fourth hero from the picker
        await pilot.press("f3")
        await settle(pilot)
        await pilot.press("down", "down", "enter")  # past Ash to "Add a hero"
        await settle(pilot)
        assert isinstance(app.screen, AddHeroDialog)
        await type_text(pilot, "Wren")
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, PlayScreen)
        assert [h.name for h in game.state.heroes] == ["Nova", "Tin", "Ash", "Wren"]
        assert game.state.hero.name == "Tin"
        assert "• Wren (Signal Fire) joins the party" in journal_text(app)


async def test_the_journal_names_the_acting_hero_after_reopening(
        make_campaign: Callable[..., str], app_for: App) -> None:
    cid = make_campaign(party=PARTY)
    app = app_for(cid)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        game = game_of(app)
        game_screen = app.screen
        assert isinstance(game_screen, PlayScreen)
        game_screen.perform(game.switch_hero, "Ash")
        await settle(pilot)
        game_screen.perform(game.narrate, "Ash looks down from the crane")
        await settle(pilot)
        await pilot.press("f10")
        await settle(pilot)
    app = app_for(cid)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        text = journal_text(app)
        assert "🎭 The spotlight turns to Ash (from Nova)" in text
        assert "▶ Ash acting · with Nova, Tin (F3)" in topbar(app)


async def test_a_solo_campaign_looks_as_before(make_campaign: Callable[..., str],
                                              app_for: App) -> None:
    app = app_for(make_campaign())
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        bar = topbar(app)
        assert "▶" not in bar and "acting" not in bar
        assert str(app.screen.query_one("#prompt-title").render()).startswith("What do you do?")
        assert "f3" not in str(app.screen.query_one(KeyBar).render())  # the bar as before
        await pilot.press("f3")  # F3 still opens the picker, to add a hero
        await settle(pilot)
        assert isinstance(app.screen, SwitchHeroDialog)
        assert [o.id for o in app.screen.options] == ["nova", "__add__"]
