"""Pilot tests of the GM's tools in the app (the oracle, GM-framed scenes) and of a City of
Whispers campaign (declarations, roll parameters, tier bumps)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from engine.campaigns import close_game, new_game
from engine.tui.app import SidekickApp
from engine.tui.screens.dialogs import ChoiceDialog, DiceDialog
from engine.tui.screens.gm_dialogs import FramedSceneDialog, OracleDialog
from engine.tui.screens.play import PlayScreen
from engine.tui.widgets.roll_panel import RollPanel
from engine.tui.widgets.sheet import Sheet
from tests.tui.conftest import SIZE, fill, game_of, journal_text, settle

App = Callable[..., SidekickApp]


async def test_oracle_answers_with_its_odds(make_campaign: Callable[..., str],
                                            app_for: App) -> None:
    app = app_for(make_campaign(dice_mode="seeded"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        game = game_of(app)
        await pilot.press("ctrl+o")
        await settle(pilot)
        assert isinstance(app.screen, OracleDialog)
        await pilot.press("enter")  # no question yet: an inline error, the dialog stays
        await settle(pilot)
        assert isinstance(app.screen, OracleDialog)
        await fill(pilot, "#question", "Is the ferry still running")
        await pilot.press("enter")  # to the likelihoods, 50/50 highlighted
        await pilot.press("down")  # likely
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, PlayScreen)
        answers = [e for e in app.screen.events if e["type"] == "OracleAnswered"]
        assert len(answers) == 1 and answers[0]["level"] == "Likely"
        assert answers[0]["odds"]["yes"] == "56.0%"
        assert "Is the ferry still running" in journal_text(app)
        assert game.state.dice_position == 1


async def test_the_gm_frames_the_next_scene(make_campaign: Callable[..., str],
                                            app_for: App) -> None:
    app = app_for(make_campaign(dice_mode="seeded"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        game = game_of(app)
        await pilot.press("f6")
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, FramedSceneDialog)
        first = dialog.proposal
        await pilot.press("r")  # ask for another
        await settle(pilot)
        assert dialog.proposal != first
        chosen = dialog.proposal
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, PlayScreen)
        assert game.state.scene.location == chosen.location
        assert game.state.scene.stakes == chosen.stakes
        assert chosen.opening in journal_text(app)


async def test_threats_show_on_the_sheet(make_campaign: Callable[..., str],
                                         app_for: App) -> None:
    app = app_for(make_campaign())
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        game = game_of(app)
        threat = next(iter(game.state.threats.values()))
        sheet = app.screen.query_one(Sheet)
        assert threat.name in sheet.text.plain
        assert f"0/{threat.size}" in sheet.text.plain


def _cow_campaign(saves: Path) -> str:
    game = new_game(saves, system="city-of-whispers", name="Whispers", hero_name="Mira Vess",
                    archetype=None, stats={"environs": 1, "lore": 0, "network": 2, "sway": -1},
                    npcs=[("Captain Renn Aldous", "authority", ""), ("Odile Farrow", "contact",
                                                                      "")],
                    seed=7, dice_mode="physical")
    cid = str(game.store.id)  # type: ignore[attr-defined]
    close_game(game)
    return cid


async def test_a_city_of_whispers_campaign_plays_in_the_app(saves: Path, app_for: App) -> None:
    app = app_for(_cow_campaign(saves))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        game = game_of(app)
        assert game.pack.id == "city-of-whispers"
        await fill(pilot, "#fiction", "I offer the guard fifty crowns to look the other way")
        await pilot.press("enter")
        await settle(pilot)
        assert game.flow.suggestions[0]["move"] == "direct_someone_to_act"
        await pilot.press("enter")  # the best match
        await settle(pilot)
        if game.flow.stage == "target":
            await pilot.press("enter")
            await settle(pilot)
        assert game.flow.stage == "roll"
        assert isinstance(app.focused, RollPanel)
        assert game.pending.declarations, "Direct Someone to Act offers declarations (the offer)"
        await pilot.press("d")
        await settle(pilot)
        assert isinstance(app.screen, ChoiceDialog)
        await pilot.press("space", "enter")  # declare the first offered
        await settle(pilot)
        assert game.flow.declared
        await pilot.press("enter")  # physical dice: the dice dialog
        await settle(pilot)
        assert isinstance(app.screen, DiceDialog)
        dice = game.pending.preview.to_dict()["dice"]
        faces = "6 5 4" if dice.startswith("3") else "6 5"
        await fill(pilot, "#faces", faces)
        await pilot.press("enter")
        await settle(pilot)
        rolled = [e for e in app.screen.events if e["type"] == "Rolled"] if isinstance(
            app.screen, PlayScreen) else [e for e in game.store.events() if e["type"] == "Rolled"]
        assert rolled and rolled[-1]["move"] == "direct_someone_to_act"
        assert "Direct Someone to Act" in journal_text(app)
