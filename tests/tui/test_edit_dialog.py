"""Pilot tests of the edit dialog (F4): fix the sheet by hand in the app, see it in the sheet
and the journal, and undo it."""

from __future__ import annotations

from collections.abc import Callable

from textual.widgets import Input, OptionList, Select, Static

from engine.tui.app import SidekickApp
from engine.tui.screens.edit import NO, YES, EditDialog, field_id
from engine.tui.screens.help import HELP
from engine.tui.screens.play import PlayScreen
from engine.tui.widgets.keybar import KeyBar
from engine.tui.widgets.sheet import Sheet
from tests.tui.conftest import SIZE, fill, game_of, journal_text, settle, type_text

App = Callable[..., SidekickApp]


async def open_edit(pilot: object, app: SidekickApp) -> EditDialog:
    """Press F4 on the play screen; the edit dialog is on top."""
    await pilot.press("f4")  # type: ignore[attr-defined]
    await settle(pilot)  # type: ignore[arg-type]
    assert isinstance(app.screen, EditDialog)
    return app.screen


async def pick(pilot: object, dialog: EditDialog, what: str, key: str) -> None:
    """Highlight one field of the list."""
    ids = [field_id(f) for f in dialog.fields]
    dialog.query_one("#edit-fields", OptionList).highlighted = ids.index(f"{what}:{key}")
    await settle(pilot)  # type: ignore[arg-type]


async def test_edit_a_condition_and_a_stat_then_undo(make_campaign: Callable[..., str],
                                                     app_for: App) -> None:
    app = app_for(make_campaign(dice_mode="seeded"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        game = game_of(app)
        hero = game.state.hero
        sheet = app.screen.query_one(Sheet)
        before_sheet = sheet.text.plain
        before = game.state.model_dump(mode="json")
        assert "f4 Edit" in app.screen.query_one(KeyBar)._text.plain

        # mark a condition: the flag offers "marked" (the other value) by itself
        dialog = await open_edit(pilot, app)
        assert dialog.who == hero.id
        await pick(pilot, dialog, "condition", "afraid")
        assert dialog.query_one("#edit-flag", Select).value == YES
        assert "Afraid is cleared now" in str(dialog.query_one("#edit-hint", Static).content)
        await fill(pilot, "#edit-reason", "the fall shook me")
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, PlayScreen)
        assert game.state.hero.conditions == ["afraid"]
        assert f"Edited by hand: {hero.name}: Afraid marked (the fall shook me)" in \
            journal_text(app)
        after_condition = sheet.text.plain
        assert after_condition != before_sheet

        # set a label: a value out of bounds is refused in the dialog, which stays open
        dialog = await open_edit(pilot, app)
        await pick(pilot, dialog, "stat", "danger")
        assert dialog.query_one("#edit-value", Input).value == str(hero.stats["danger"])
        await fill(pilot, "#edit-value", "9")
        await pilot.press("enter", "enter")  # to the reason, then edit
        await settle(pilot)
        assert app.screen is dialog
        error = str(dialog.query_one("#dialog-error", Static).content)
        assert "Danger must be a whole number from -2 to +3, not 9" in error
        await fill(pilot, "#edit-value", "3")
        await pilot.press("enter", "enter")
        await settle(pilot)
        assert isinstance(app.screen, PlayScreen)
        assert game.state.hero.stats["danger"] == 3
        assert f"Edited by hand: {hero.name}: Danger" in journal_text(app)
        assert sheet.text.plain != after_condition

        # two undos: the state, the sheet and the journal are as they were
        await pilot.press("ctrl+z")
        await settle(pilot)
        assert game.state.hero.stats["danger"] == before["actors"][hero.id]["stats"]["danger"]
        assert sheet.text.plain == after_condition
        await pilot.press("ctrl+z")
        await settle(pilot)
        assert game.state.model_dump(mode="json") == before
        assert sheet.text.plain == before_sheet
        assert "Edited by hand" not in journal_text(app)


async def test_edit_another_character(make_campaign: Callable[..., str], app_for: App) -> None:
    app = app_for(make_campaign(dice_mode="seeded"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        game = game_of(app)
        adult = next(n for n in game.state.npcs.values() if n.role == "adult")
        dialog = await open_edit(pilot, app)
        dialog.query_one("#edit-who", Select).value = adult.id
        await settle(pilot)
        assert dialog.who == adult.id
        assert {f.what for f in dialog.fields} == {"condition", "influence", "influenced_by"}
        # the adult holds Influence over the hero: the flag offers to take it away
        await pick(pilot, dialog, "influence", game.state.acting)
        assert dialog.query_one("#edit-flag", Select).value == NO
        dialog.query_one("#ok").focus()
        await pilot.press("enter")
        await settle(pilot)
        assert game.state.hero.id not in adult.data.get("influence", [])
        assert game.state.actors[adult.id].data.get("influence") is None
        assert f"Edited by hand: {adult.name}: Influence over {game.state.hero.name} lost" in \
            journal_text(app)


async def test_edits_wait_between_moves(make_campaign: Callable[..., str],
                                        app_for: App) -> None:
    app = app_for(make_campaign(dice_mode="seeded"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        game = game_of(app)
        game.trigger("directly_engage")
        app.screen.refresh_bindings()
        await settle(pilot)
        await pilot.press("f4")
        await settle(pilot)
        assert not isinstance(app.screen, EditDialog)
        assert game.state.flow.stage == "roll"


async def test_the_palette_opens_the_dialog(make_campaign: Callable[..., str],
                                            app_for: App) -> None:
    app = app_for(make_campaign(dice_mode="seeded"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+p")
        await settle(pilot)
        await type_text(pilot, "edit the sheet")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, EditDialog)
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, PlayScreen)


def test_the_help_lists_the_key() -> None:
    assert "| F4 | fix the sheet by hand" in HELP
