"""Pilot tests of the story ledger screen (Ctrl+L) at 80x24: threads, facts, whereabouts,
stances and threat clocks changed from the keyboard, each one undoable from the play screen,
and refusals shown inline or as a notification."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.pilot import Pilot
from textual.widgets import Input, OptionList, Static

from engine.tui.app import SidekickApp
from engine.tui.commands import PlayCommands
from engine.tui.screens.dialogs import ChoiceDialog, ConfirmDialog
from engine.tui.screens.ledger import (
    FieldsDialog,
    LedgerScreen,
    RankDialog,
    StanceDialog,
    clock_dots,
)
from engine.tui.screens.play import PlayScreen
from engine.tui.widgets.keybar import KeyBar
from engine.tui.widgets.sheet import Sheet
from tests.tui.conftest import fill, game_of, journal_text, settle, type_text

App = Callable[..., SidekickApp]
SMALL = (80, 24)


def rows(app: SidekickApp) -> list[str]:
    """The ledger list's lines, as plain text."""
    ol = app.screen.query_one("#ledger-list", OptionList)
    return [str(ol.get_option_at_index(i).prompt) for i in range(ol.option_count)]


def detail(app: SidekickApp) -> str:
    """The detail line under the list."""
    return str(app.screen.query_one("#ledger-detail", Static).render())


async def open_ledger(pilot: object, app: SidekickApp) -> LedgerScreen:
    """Ctrl+L from the play screen."""
    await pilot.press("ctrl+l")  # type: ignore[attr-defined]
    await settle(pilot)  # type: ignore[arg-type]
    assert isinstance(app.screen, LedgerScreen)
    return app.screen


def test_clock_dots() -> None:
    assert clock_dots(2, 6) == "●●○○○○"
    assert clock_dots(0, 4) == "○○○○"
    assert clock_dots(9, 4) == "●●●●"


async def test_threads_add_resolve_edit_remove_and_undo(make_campaign: Callable[..., str],
                                                        app_for: App) -> None:
    app = app_for(make_campaign())
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        game = game_of(app)
        await open_ledger(pilot, app)
        assert "No threads yet" in rows(app)[0]

        await pilot.press("a")
        await settle(pilot)
        assert isinstance(app.screen, FieldsDialog)
        await pilot.press("enter")  # no words: the Game refuses, inline, the dialog stays
        await settle(pilot)
        assert isinstance(app.screen, FieldsDialog)
        assert "needs some words" in str(app.screen.query_one("#dialog-error").render())
        await fill(pilot, "#field-text", "Who sent the storm drones")
        await fill(pilot, "#field-note", "Tin saw one")
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, LedgerScreen)
        assert [(t.id, t.text, t.note) for t in game.state.threads] == [
            ("t1", "Who sent the storm drones", "Tin saw one")]
        assert "○ t1  Who sent the storm drones" in rows(app)[0]
        assert "note: Tin saw one" in detail(app)

        # a second thread: open ones first, a resolved one dimmed at the end
        await pilot.press("a")
        await settle(pilot)
        await fill(pilot, "#field-text", "Is the bridge safe")
        await pilot.press("enter")
        await settle(pilot)
        assert app.screen.query_one("#ledger-list", OptionList).highlighted == 1
        await pilot.press("up", "r")  # resolve t1
        await settle(pilot)
        assert [t.status for t in game.state.threads] == ["resolved", "open"]
        assert rows(app)[0].startswith("○ t2")
        assert rows(app)[1].startswith("✓ t1") and rows(app)[1].endswith("resolved")
        assert app.screen.query_one("#ledger-list", OptionList).highlighted == 1  # on t1
        await pilot.press("r")  # and reopen it
        await settle(pilot)
        assert [t.status for t in game.state.threads] == ["open", "open"]

        assert app.screen.query_one("#ledger-list", OptionList).highlighted == 0  # t1 again
        await pilot.press("e")
        await settle(pilot)
        assert isinstance(app.screen, FieldsDialog)
        box = app.screen.query_one("#field-text", Input)
        assert box.value == "Who sent the storm drones"
        await fill(pilot, "#field-text", "Who sent the storm drones?")
        await pilot.press("enter")
        await settle(pilot)
        assert game.state.threads[0].text == "Who sent the storm drones?"

        await pilot.press("x")  # remove asks first; n keeps it
        await settle(pilot)
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("n")
        await settle(pilot)
        assert len(game.state.threads) == 2
        await pilot.press("x")
        await settle(pilot)
        await pilot.press("y")
        await settle(pilot)
        assert isinstance(app.screen, LedgerScreen)
        assert [t.id for t in game.state.threads] == ["t2"]

        # back to play: the journal says it all, and ^Z there takes the removal back
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, PlayScreen)
        text = journal_text(app)
        assert "Who sent the storm drones" in text and "Is the bridge safe" in text
        await pilot.press("ctrl+z")
        await settle(pilot)
        assert [t.id for t in game.state.threads] == ["t1", "t2"]
        await open_ledger(pilot, app)
        assert [r[:4] for r in rows(app)] == ["○ t1", "○ t2"]


async def test_facts_add_edit_remove(make_campaign: Callable[..., str], app_for: App) -> None:
    app = app_for(make_campaign())
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        game = game_of(app)
        await open_ledger(pilot, app)
        await pilot.press("3", "a")
        await settle(pilot)
        await fill(pilot, "#field-text", "The drones carry a mark")
        await fill(pilot, "#field-about", "Dusk Meridian, Bob")
        await pilot.press("enter")  # nobody called Bob: offered as a newcomer
        await settle(pilot)
        assert isinstance(app.screen, ChoiceDialog)
        assert "New to the story: Bob" in app.screen.dialog_title
        await pilot.press("escape")  # back: the fact's dialog, as typed, nothing changed
        await settle(pilot)
        assert isinstance(app.screen, FieldsDialog)
        assert "Bob" in str(app.screen.query_one("#dialog-error").render())
        assert game.state.facts == [] and game.state.npc_by_name("Bob") is None
        await fill(pilot, "#field-about", "Dusk Meridian")
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, LedgerScreen)
        assert [(f.id, f.text, f.about) for f in game.state.facts] == [
            ("f1", "The drones carry a mark", ["dusk_meridian"])]
        assert "f1  The drones carry a mark  (Dusk Meridian)" in rows(app)[0]

        await pilot.press("enter")  # Enter edits too
        await settle(pilot)
        assert app.screen.query_one("#field-about", Input).value == "Dusk Meridian"
        await pilot.press("enter")  # unchanged: the Game says so, inline
        await settle(pilot)
        assert "already reads so" in str(app.screen.query_one("#dialog-error").render())
        await fill(pilot, "#field-text", "The drones carry Dusk's mark")
        await fill(pilot, "#field-about", "")
        await pilot.press("enter")
        await settle(pilot)
        assert [(f.text, f.about) for f in game.state.facts] == [
            ("The drones carry Dusk's mark", [])]

        await pilot.press("x")
        await settle(pilot)
        await pilot.press("y")
        await settle(pilot)
        assert game.state.facts == []
        assert "No facts yet" in rows(app)[0]
        await pilot.press("ctrl+z")  # undo works here too
        await settle(pilot)
        assert [f.id for f in game.state.facts] == ["f1"]


async def test_a_fact_about_a_newcomer_brings_them_in(make_campaign: Callable[..., str],
                                                      app_for: App) -> None:
    app = app_for(make_campaign())
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        game = game_of(app)
        await open_ledger(pilot, app)
        await pilot.press("3", "a")
        await settle(pilot)
        await fill(pilot, "#field-text", "Sister Marguerite pawned the gauntlet")
        await fill(pilot, "#field-about", "Sister Marguerite")
        await pilot.press("enter")
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, ChoiceDialog)
        roles = [str(o.id) for o in dialog.options]
        assert roles == list(game.pack.system.roles)
        await pilot.press(*["down"] * roles.index("bystander"), "enter")
        await settle(pilot)
        assert isinstance(app.screen, LedgerScreen)
        marguerite = game.state.npc_by_name("Sister Marguerite")
        assert marguerite is not None and marguerite.role == "bystander"
        assert [(f.text, f.about) for f in game.state.facts] == [
            ("Sister Marguerite pawned the gauntlet", [marguerite.id])]
        await pilot.press("ctrl+z")  # one action: the fact and the newcomer go together
        await settle(pilot)
        assert game.state.facts == [] and game.state.npc_by_name("Sister Marguerite") is None


async def test_characters_whereabouts_stance_presence(make_campaign: Callable[..., str],
                                                      app_for: App) -> None:
    app = app_for(make_campaign())
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        game = game_of(app)
        await open_ledger(pilot, app)
        await pilot.press("right")  # the characters
        await settle(pilot)
        lines = rows(app)
        assert lines[0].startswith("★ Nova")
        assert "Rosalind Okafor-Haig  adult · in the scene · neutral" in lines[1]
        assert "where: unknown" in lines[1]
        assert "hostile" in lines[2]  # Dusk Meridian, a villain

        await pilot.press("w")  # on the hero: nothing to do
        await settle(pilot)
        assert isinstance(app.screen, LedgerScreen)
        await pilot.press("down", "w")
        await settle(pilot)
        await fill(pilot, "#field-where", "the weather station")
        await pilot.press("enter")
        await settle(pilot)
        rosalind = game.state.actors["rosalind_okafor_haig"]
        assert rosalind.where == "the weather station"
        assert "where: the weather station" in rows(app)[1]
        await pilot.press("w")  # typed over: the new place replaces the old, not appended
        await settle(pilot)
        await type_text(pilot, "the drowned chapel")
        await pilot.press("enter")
        await settle(pilot)
        assert rosalind.where == "the drowned chapel"

        await pilot.press("s")
        await settle(pilot)
        assert isinstance(app.screen, StanceDialog)
        assert app.screen.query_one("#choices", OptionList).highlighted == 2  # neutral now
        await pilot.press("down", "enter")
        await settle(pilot)
        assert game.stance("rosalind_okafor_haig") == "warm"
        assert "· warm" in rows(app)[1]

        await pilot.press("p")
        await settle(pilot)
        assert not game.state.actors["rosalind_okafor_haig"].present
        assert "away" in rows(app)[1]

        await pilot.press("escape")
        await settle(pilot)
        text = journal_text(app)
        assert "the weather station" in text and "warm" in text


async def test_threat_clock_moves_and_undoes(make_campaign: Callable[..., str],
                                             app_for: App) -> None:
    app = app_for(make_campaign())
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        game = game_of(app)
        threat = next(iter(game.state.threats.values()))
        await open_ledger(pilot, app)
        await pilot.press("4")
        await settle(pilot)
        assert f"○○○○○○ 0/{threat.size}" in rows(app)[0]
        assert f"next: {threat.steps[0]}" in rows(app)[0]
        await pilot.press("minus")  # empty already: a notification, nothing changes
        await settle(pilot)
        assert game.state.threats[threat.id].clock == 0
        await pilot.press("plus", "plus")
        await settle(pilot)
        assert game.state.threats[threat.id].clock == 2
        assert "●●○○○○ 2/6" in rows(app)[0]
        assert f"next: {threat.steps[2]}" in rows(app)[0]
        await pilot.press("minus")
        await settle(pilot)
        assert game.state.threats[threat.id].clock == 1

        await pilot.press("escape")
        await settle(pilot)
        assert "2/6" not in app.screen.query_one(Sheet).text.plain
        assert "1/6" in app.screen.query_one(Sheet).text.plain
        await pilot.press("ctrl+z", "ctrl+z")  # from play: back to 2, then to 1
        await settle(pilot)
        assert game.state.threats[threat.id].clock == 1


async def test_a_thread_sworn_as_a_vow_marked_and_fulfilled(make_campaign: Callable[..., str],
                                                             app_for: App) -> None:
    app = app_for(make_campaign())
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        game = game_of(app)
        game.ledger.add_thread("Bring Tin home")
        await open_ledger(pilot, app)
        await pilot.press("v")
        await settle(pilot)
        assert isinstance(app.screen, RankDialog)
        await pilot.press("down", "down", "enter")  # formidable
        await settle(pilot)
        assert isinstance(app.screen, LedgerScreen)
        assert (game.state.threads[0].rank, game.state.threads[0].ticks) == ("formidable", 0)
        await pilot.press("plus", "plus", "plus", "minus")
        await settle(pilot)
        assert game.state.threads[0].ticks == 8
        assert "formidable vow ■■□□□□□□□□ 2/10" in rows(app)[0]
        assert "progress 2" in detail(app)
        await pilot.press("f")  # physical dice: the challenge dice are asked for
        await settle(pilot)
        assert isinstance(app.screen, FieldsDialog)
        await fill(pilot, "#field-dice", "1 1")
        await pilot.press("enter")
        await settle(pilot)
        assert game.state.threads[0].status == "resolved"


async def test_add_a_threat_and_an_npc(make_campaign: Callable[..., str],
                                       app_for: App) -> None:
    app = app_for(make_campaign())
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        game = game_of(app)
        before = len(game.state.threats)
        await open_ledger(pilot, app)
        await pilot.press("4", "a")
        await settle(pilot)
        await fill(pilot, "#threat-name", "The drone swarm")
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, LedgerScreen)
        assert len(game.state.threats) == before + 1
        assert any("The drone swarm" in r for r in rows(app))

        await pilot.press("2", "a")
        await settle(pilot)
        await fill(pilot, "#npc-name", "Captain Vega")
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, LedgerScreen)
        assert any(r.startswith("● Captain Vega") for r in rows(app))


async def test_keys_and_palette(make_campaign: Callable[..., str], app_for: App) -> None:
    app = app_for(make_campaign())
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        assert "^l Ledger" in app.screen.query_one(KeyBar).render().plain
        screen = await open_ledger(pilot, app)
        bar = screen.query_one(KeyBar).render().plain
        assert "a Add" in bar and "r Resolve/reopen" in bar and "s Stance" not in bar
        await pilot.press("2")
        await settle(pilot)
        bar = screen.query_one(KeyBar).render().plain
        assert "s Stance" in bar and "w Where" in bar and "r Resolve" not in bar
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, PlayScreen)
        names = [text for text, _fn, _help in
                 PlayCommands.entries(_FakeProvider(app.screen))]  # type: ignore[arg-type]
        assert "Open the story ledger" in names


class _FakeProvider:
    """Just enough of a Provider to list the play screen's commands."""

    def __init__(self, screen: object) -> None:
        self.screen = screen


def test_ledger_snapshot(snap_compare: Any, make_campaign: Callable[..., str], app_for: App
                         ) -> None:
    """The threads list at 80x24: one open, one resolved (dimmed, last)."""

    async def before(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        await pilot.press("ctrl+l")
        await settle(pilot)
        for words in ("Who sent the storm drones?", "Is the bridge safe?"):
            await pilot.press("a")
            await settle(pilot)
            await type_text(pilot, words)
            await pilot.press("enter")
            await settle(pilot)
        await pilot.press("up", "r")
        await settle(pilot)

    assert snap_compare(app_for(make_campaign()), terminal_size=SMALL, run_before=before)
