"""Pilot tests of the new-campaign form."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from textual.widgets import Input, RadioButton, Select

from engine.tui.app import SidekickApp
from engine.tui.screens.new_campaign import CUSTOM, NewCampaignScreen
from engine.tui.screens.play import PlayScreen
from engine.tui.screens.title import TitleScreen
from tests.tui.conftest import SIZE, fill, game_of, settle, type_text

App = Callable[..., SidekickApp]


async def open_form(pilot: object) -> NewCampaignScreen:
    """From the title screen, press N, and choose Masks (other packs may come first)."""
    await pilot.press("n")  # type: ignore[attr-defined]
    await settle(pilot)  # type: ignore[arg-type]
    screen = pilot.app.screen  # type: ignore[attr-defined]
    assert isinstance(screen, NewCampaignScreen)
    screen.query_one("#system", Select).value = "masks"
    await settle(pilot)  # type: ignore[arg-type]
    screen.query_one("#name", Input).focus()
    await settle(pilot)  # type: ignore[arg-type]
    return screen


async def test_new_campaign_through_the_form(app_for: App, saves: Path) -> None:
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        form = await open_form(pilot)
        assert app.focused is form.query_one("#name")
        await type_text(pilot, "Night Shift")
        await pilot.press("tab")
        await type_text(pilot, "Nova")
        # the build's suggested NPCs are filled in, with their roles
        assert form.query_one("#npc-name-0", Input).value == "Rosalind Okafor-Haig"
        assert form.query_one("#npc-role-0", Select).value == "adult"
        assert form.query_one("#npc-role-1", Select).value == "villain"
        await fill(pilot, "#npc-name-3", "")  # drop the bystander
        await fill(pilot, "#seed", "42")
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, PlayScreen)
        game = game_of(app)
        assert game.state.name == "Night Shift" and game.state.hero.name == "Nova"
        assert game.state.seed == 42 and game.state.dice_mode == "seeded"
        assert game.state.hero.archetype == "signal_fire"
        assert {n.name for n in game.state.npcs.values()} == {
            "Rosalind Okafor-Haig", "Dusk Meridian", 'Tomasz "Tin" Wilk'}
        assert (saves / "night-shift").is_dir()
        await pilot.press("f10")
        await settle(pilot)
        assert isinstance(app.screen, TitleScreen)
        form = await open_form(pilot)
        await type_text(pilot, "Night Shift")  # the same name again: a second folder
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, PlayScreen)
        assert (saves / "night-shift-2").is_dir()


async def test_custom_labels_validate_live(app_for: App) -> None:
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        form = await open_form(pilot)
        await type_text(pilot, "Custom Crew")
        form.query_one("#archetype", Select).value = CUSTOM
        await settle(pilot)
        assert form.query_one("#stats").display
        validation = form.query_one("#validation")
        assert "missing Danger, Freak" in str(validation.render())
        for stat, value in [("danger", "3"), ("freak", "0"), ("savior", "0"),
                            ("superior", "0"), ("mundane", "0")]:
            await fill(pilot, f"#stat-{stat}", value)
        await settle(pilot)
        assert "Danger +3 is outside -1..+2" in str(validation.render())
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, NewCampaignScreen)  # refused, nothing lost
        assert "not valid" in str(form.query_one("#form-error").render())
        assert form.query_one("#name", Input).value == "Custom Crew"
        await fill(pilot, "#stat-danger", "2")
        await fill(pilot, "#stat-freak", "1")
        await settle(pilot)
        assert "✓" in str(validation.render())
        form.query_one("#physical", RadioButton).value = True
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, PlayScreen)
        game = game_of(app)
        assert game.state.hero.archetype is None
        assert game.state.hero.stats == {"danger": 2, "freak": 1, "savior": 0, "superior": 0,
                                         "mundane": 0}
        assert game.state.dice_mode == "physical"


async def test_name_is_required_and_escape_goes_back(app_for: App) -> None:
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        form = await open_form(pilot)
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert "Name the campaign first" in str(form.query_one("#form-error").render())
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, TitleScreen)


async def test_suggested_npcs_follow_the_build(app_for: App) -> None:
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        form = await open_form(pilot)
        form.query_one("#archetype", Select).value = "stitchwork"
        await settle(pilot)
        assert form.query_one("#npc-name-0", Input).value == "Dr. Ilse Vantongeren"
        await fill(pilot, "#npc-name-0", "My Own Mentor")
        form.query_one("#archetype", Select).value = "heir_apparent"
        await settle(pilot)
        assert form.query_one("#npc-name-0", Input).value == "My Own Mentor"  # kept
        await pilot.press("ctrl+r")
        await settle(pilot)
        assert form.query_one("#npc-name-0", Input).value == "Celestine Voss"


async def test_mixed_dice_can_be_chosen_in_the_form(app_for: App) -> None:
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        form = await open_form(pilot)
        await type_text(pilot, "Both Ways")
        form.query_one("#mixed", RadioButton).value = True
        await settle(pilot)
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, PlayScreen)
        assert game_of(app).state.dice_mode == "mixed"
