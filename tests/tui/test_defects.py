"""Pilot tests for the app's defects of issue 8 (items 12, 13, 18, 20, 23, 24), at 80x24
and, where layout matters, 120x40."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from textual.geometry import Region
from textual.widgets import Input, OptionList, Static

from engine.campaigns import close_game, new_game
from engine.gm.scenes import fill as fill_template
from engine.rules.base import Option
from engine.tui.app import SidekickApp
from engine.tui.screens.dialogs import ChoiceDialog, ChoiceList, EndSceneDialog
from engine.tui.screens.gm_dialogs import FramedSceneDialog
from engine.tui.screens.new_campaign import NewCampaignScreen
from engine.tui.screens.play import PlayScreen
from engine.tui.text import inline
from engine.tui.widgets.action_menu import ActionMenu
from engine.tui.widgets.keybar import KeyBar
from tests.tui.conftest import NPCS, SIZE, fill, game_of, journal_text, settle

App = Callable[..., SidekickApp]
SMALL = (80, 24)
README = Path(__file__).resolve().parents[2] / "README.md"


def plain(renderable: Any, width: int = 200) -> str:
    """Any Rich renderable as plain text."""
    console = Console(width=width, record=True, color_system=None, file=io.StringIO())
    console.print(renderable)
    return console.export_text()


def dialog_text(dialog: ChoiceDialog) -> str:
    """A choice dialog's title and message as plain text."""
    message = dialog.query_one(".dialog-message", Static).render()
    return dialog.dialog_title + "\n" + plain(message)


def on_screen(region: Region, size: tuple[int, int]) -> bool:
    """True if ``region`` is not empty and lies inside a screen of ``size``."""
    width, height = size
    return (region.height > 0 and region.width > 0 and region.y >= 0 and region.x >= 0
            and region.bottom <= height and region.right <= width)


async def miss_and_describe(pilot: Any, text: str = "I punch Dusk in the face") -> None:
    """Type fiction and press Enter."""
    await fill(pilot, "#fiction", text)
    await pilot.press("enter")
    await settle(pilot)


async def roll_dice(pilot: Any, faces: str) -> None:
    """From the roll panel: open the dice dialog and enter ``faces``."""
    await pilot.press("enter")
    await settle(pilot)
    await fill(pilot, "#faces", faces)
    await pilot.press("enter")
    await settle(pilot)


# ---------------------------------------------------------------- 12: options that do nothing


def options_dialog(lo: int, hi: int, got: list[list[str]]) -> ChoiceDialog:
    """A dialog whose first option can do nothing now."""
    options = [
        {"id": "clear", "label": "Clear one of your conditions", "detail": "",
         "disabled": "you have no conditions marked"},
        {"id": "forward", "label": "Take +1 forward", "detail": ""},
        {"id": "team", "label": "Add 1 Team", "detail": ""},
    ]

    def submit(ids: list[str]) -> str | None:
        got.append(ids)
        return None

    return ChoiceDialog("Pick", "Choose", options, lo, hi, submit)


@pytest.mark.parametrize("lo,hi", [(1, 1), (1, 2)])
async def test_disabled_option_is_shown_with_its_reason_and_never_sent(
        make_campaign: Callable[..., str], app_for: App, lo: int, hi: int) -> None:
    app = app_for(make_campaign(dice_mode="seeded"))
    got: list[list[str]] = []
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        app.push_screen(options_dialog(lo, hi, got))
        await settle(pilot)
        ol = app.screen.query_one("#choices", OptionList)
        first = ol.get_option_at_index(0)
        assert first.disabled
        assert "you have no conditions marked" in str(first.prompt)
        assert ol.highlighted == 1  # the first usable option, not the dead one
        await pilot.press("up")  # cannot move onto it (the cursor wraps past it)
        await settle(pilot)
        assert ol.highlighted != 0
        ol.highlighted = 1
        if isinstance(ol, ChoiceList):
            ol.highlighted = 0  # even forced there, Space cannot mark it
            ol.action_mark()
            assert ol.selected == []
            ol.highlighted = 1
            await pilot.press("space")
        await pilot.press("enter")
        await settle(pilot)
        assert got == [["forward"]]


async def test_an_option_that_can_do_nothing_in_play(make_campaign: Callable[..., str],
                                                     app_for: App) -> None:
    """Defend someone, strong hit, no condition marked: "clear one of your conditions" is
    offered dimmed, with the reason, and Enter takes a usable option."""
    app = app_for(make_campaign())
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, PlayScreen)
        assert screen.moves.start_move("defend_someone", None) is None
        await settle(pilot)
        await roll_dice(pilot, "6 6")
        assert isinstance(app.screen, ChoiceDialog)
        ol = app.screen.query_one("#choices", OptionList)
        prompts = {o.id: (o.disabled, str(o.prompt)) for o in ol.options}
        disabled, text = prompts["clear"]
        assert disabled and "you have no condition marked" in text
        assert not prompts["team"][0]
        assert ol.highlighted_option is not None and not ol.highlighted_option.disabled
        await pilot.press("enter")
        await settle(pilot)
        game = game_of(app)
        assert game.flow.stage == "fiction"
        chosen = [e for e in screen.events if e["type"] == "OptionsChosen"]
        assert chosen and "clear" not in chosen[-1]["options"]


async def test_dialog_refuses_a_disabled_id_with_its_reason(
        make_campaign: Callable[..., str], app_for: App) -> None:
    app = app_for(make_campaign(dice_mode="seeded"))
    got: list[list[str]] = []
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        dialog = options_dialog(1, 1, got)
        app.push_screen(dialog)
        await settle(pilot)
        dialog._confirm(["clear"])
        await settle(pilot)
        assert got == []
        error = dialog.query_one("#dialog-error", Static)
        assert "no conditions marked" in str(error.render())


async def test_all_options_disabled_lets_the_player_go_on(
        make_campaign: Callable[..., str], app_for: App) -> None:
    app = app_for(make_campaign(dice_mode="seeded"))
    got: list[list[str]] = []
    options = [{"id": "a", "label": "Spend hold", "detail": "", "disabled": "no hold left"}]
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        app.push_screen(ChoiceDialog("Pick", "", options, 1, 1,
                                           lambda ids: got.append(ids)))
        await settle(pilot)
        await pilot.press("enter")  # focus is on Confirm: nothing usable, nothing sent
        await settle(pilot)
        assert got == [[]]


async def test_inline_menu_dims_a_disabled_target(make_campaign: Callable[..., str],
                                                  app_for: App) -> None:
    app = app_for(make_campaign(dice_mode="seeded"))
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, PlayScreen)
        screen.prompter.option_menu("target", [
            Option("dusk", "Dusk Meridian", "", "not here"), Option("tin", "Tin", "")])
        await settle(pilot)
        menu = screen.query_one(ActionMenu)
        assert menu.get_option_at_index(0).disabled
        assert "not here" in str(menu.get_option_at_index(0).prompt)
        assert menu.highlighted == 1
        picked: list[str] = []
        screen.game.choose_target = lambda t: picked.append(t) or []  # type: ignore[method-assign]
        menu.action_pick("target:dusk")
        await settle(pilot)
        assert picked == []


# ---------------------------------------------------------------- 13: headers read the result now


async def test_choice_header_shows_the_result_after_team(make_campaign: Callable[..., str],
                                                         app_for: App) -> None:
    app = app_for(make_campaign())  # physical dice, Team 1
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        await miss_and_describe(pilot, "I punch the drones")
        await pilot.press("enter")  # Directly engage
        await settle(pilot)
        await roll_dice(pilot, "3 4")  # 7 - 1 = 6: a miss that Team can save
        game = game_of(app)
        assert game.flow.stage == "adjust"
        menu = app.screen.query_one(ActionMenu)
        team = next(i for i in range(menu.option_count)
                    if menu.get_option_at_index(i).id == "adjust:team:tin")  # Tin helps
        menu.highlighted = team
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, ChoiceDialog)
        text = dialog_text(app.screen)
        assert "Weak hit (7)" in text
        assert "Miss" not in text


EVERYONE = [n for n, _, _ in NPCS]
"""Everyone in the opening scene, Dusk the villain too (the player says so: they punch him)."""


def gm_pick_seed(saves: Path) -> int:
    """A seed whose first miss brings a GM move that asks the player to pick."""
    for seed in range(1, 80):
        game = new_game(saves / f"probe-{seed}", system="masks", name="Probe",
                        hero_name="Nova", archetype="signal_fire", npcs=NPCS, seed=seed,
                        dice_mode="physical", present=EVERYONE)
        try:
            game.describe("I punch Dusk in the face")
            game.choose_move("directly_engage")
            game.roll([1, 1])
            made = [e for e in game.last_events if e["type"] == "GMMoveMade"]
            if game.flow.stage == "effects" and made:
                return seed
        finally:
            close_game(game)
    raise AssertionError("no seed gives a GM move with a choice")


async def test_gm_move_dialog_shows_what_the_gm_said(make_campaign: Callable[..., str],
                                                    app_for: App, tmp_path: Path) -> None:
    seed = gm_pick_seed(tmp_path)
    app = app_for(make_campaign(seed=seed, present=EVERYONE))
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        await miss_and_describe(pilot)
        await pilot.press("enter")
        await settle(pilot)
        await roll_dice(pilot, "1 1")
        assert isinstance(app.screen, ChoiceDialog)
        game = game_of(app)
        made = next(e for e in reversed(app.screen_stack[-2].events)  # type: ignore[attr-defined]
                    if e["type"] == "GMMoveMade")
        text = " ".join(dialog_text(app.screen).split())
        assert made["name"] in app.screen.dialog_title
        assert " ".join(made["text"].split())[:60] in text
        assert "Miss (1)" in text  # 2 - 1: the roll that brought it
        assert game.pending.message in text


async def test_gm_move_asked_for_does_not_show_an_old_roll(make_campaign: Callable[..., str],
                                                         app_for: App) -> None:
    app = app_for(make_campaign())
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, PlayScreen)
        await miss_and_describe(pilot, "I punch the drones")
        await pilot.press("enter")
        await settle(pilot)
        await roll_dice(pilot, "6 6")  # a strong hit: its roll is in the log
        if isinstance(app.screen, ChoiceDialog):
            await pilot.press("escape")
            await settle(pilot)
        game = game_of(app)
        if game.flow.stage == "effects":
            p = game.pending
            assert screen.act(game.choose, [o.id for o in p.options[:p.max]]) is None
        assert game.flow.stage == "fiction"
        # a GM move asked for later, outside any move: the strong hit is not its context
        screen.events.append({"type": "GMMoveMade", "name": "Inflict a condition",
                              "text": "It gets to you.", "kind": "soft", "reason": "asked",
                              "a": 999, "n": 9999})
        ctx = screen.choices.context()
        assert "rolled" not in ctx and ctx["gm"]["name"] == "Inflict a condition"


# ---------------------------------------------------------------- 18: one Enter for fiction


async def test_plain_fiction_is_kept_with_enter_on_no_move(make_campaign: Callable[..., str],
                                                           app_for: App) -> None:
    # issue 8 kept plain fiction with one Enter when nothing matched; since issue 11 plain
    # fiction shows "No move" first and highlighted, with the best three moves after it,
    # so a second Enter keeps it
    app = app_for(make_campaign(dice_mode="seeded"))
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        await miss_and_describe(pilot, "I hum a tune and wait for the bus")
        game = game_of(app)
        assert game.flow.stage == "move" and game.flow.suggestions[0]["move"] is None
        await pilot.press("enter")
        await settle(pilot)
        assert game.flow.stage == "fiction"
        assert "│ I hum a tune and wait for the bus" in journal_text(app)
        assert app.focused is app.screen.query_one("#fiction", Input)


async def test_no_keep_the_result_when_nothing_can_change_it(
        make_campaign: Callable[..., str], app_for: App) -> None:
    app = app_for(make_campaign())  # Team 1 in the pool
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        await miss_and_describe(pilot, "I punch the drones")
        await pilot.press("enter")
        await settle(pilot)
        await roll_dice(pilot, "6 6")  # 12 - 1: a strong hit, Team cannot improve it
        game = game_of(app)
        assert game.flow.stage != "adjust"
        assert not app.screen.query(ActionMenu) or all(
            not (o.id or "").startswith("adjust:")
            for o in app.screen.query_one(ActionMenu).options)


# ---------------------------------------------------------------- 20: layout at 80x24


async def test_new_campaign_error_is_on_screen(app_for: App) -> None:
    app = app_for()
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        app.start_new_campaign()
        await settle(pilot)
        assert isinstance(app.screen, NewCampaignScreen)
        await pilot.press("ctrl+s")
        await settle(pilot)
        error = app.screen.query_one("#form-error", Static)
        assert "Name the campaign first." in str(error.render())
        assert on_screen(error.region, SMALL)
        assert app.focused is app.screen.query_one("#name", Input)
        await pilot.press("N")  # naming it clears the error
        await settle(pilot)
        assert not error.has_class("shown")


@pytest.mark.parametrize("size", [SMALL, SIZE])
async def test_long_fiction_keeps_the_menu_on_screen(make_campaign: Callable[..., str],
                                                      app_for: App, size: tuple[int, int]
                                                      ) -> None:
    app = app_for(make_campaign(dice_mode="seeded"))
    fiction = "I punch the drones " + "and keep swinging " * 280  # about 5,000 characters
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        box = app.screen.query_one("#fiction", Input)
        box.value = fiction
        box.focus()
        await pilot.press("enter")
        await settle(pilot)
        assert game_of(app).flow.stage == "move"
        menu = app.screen.query_one(ActionMenu)
        assert on_screen(menu.region, size)
        assert menu.region.height >= 3  # the suggestions, not a sliver


async def test_notifications_leave_the_input_visible(make_campaign: Callable[..., str],
                                                     app_for: App) -> None:
    app = app_for(make_campaign(dice_mode="seeded"))
    async with app.run_test(size=SMALL, notifications=True) as pilot:
        await settle(pilot)
        await pilot.press("enter")  # nothing typed: a warning pops up
        await settle(pilot)
        from textual.widgets._toast import Toast

        toasts = list(app.screen.query(Toast))
        assert toasts
        field = app.screen.query_one("#fiction", Input).region
        prompt = app.screen.query_one("#prompt-box").region
        for toast in toasts:
            assert not toast.region.overlaps(field)
            assert not toast.region.overlaps(prompt)


# ---------------------------------------------------------------- 23: keys


async def test_sheet_key_is_in_the_key_bar_at_80x24(make_campaign: Callable[..., str],
                                                     app_for: App) -> None:
    app = app_for(make_campaign(dice_mode="seeded"))
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        bar = app.screen.query_one(KeyBar)
        assert "^b Sheet" in bar.render().plain
    readme = README.read_text(encoding="utf-8")
    assert "| Ctrl+B |" in readme


async def test_escape_leaves_the_target_list(make_campaign: Callable[..., str],
                                             app_for: App) -> None:
    app = app_for(make_campaign(dice_mode="seeded"))
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        game = game_of(app)
        app.screen.use_move("provoke")  # type: ignore[attr-defined]
        await settle(pilot)
        assert game.flow.stage == "target"
        assert isinstance(app.focused, ActionMenu)
        await pilot.press("escape")
        await settle(pilot)
        assert game.flow.stage == "fiction"
        assert not [e for e in app.screen.events  # type: ignore[attr-defined]
                    if e["type"] == "MoveTriggered"]
        await miss_and_describe(pilot, "I punch the drones")
        assert game.flow.stage == "move"
        await pilot.press("escape")  # out of the move menu: the words come back to edit
        await settle(pilot)
        assert game.flow.stage == "fiction"
        assert app.screen.query_one("#fiction", Input).value == "I punch the drones"


async def test_escape_does_not_take_back_a_roll(make_campaign: Callable[..., str],
                                               app_for: App) -> None:
    """A target asked for by a move another move triggered: Esc leaves the roll alone."""
    app = app_for(make_campaign(dice_mode="seeded"))
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, PlayScreen)
        game = game_of(app)
        screen.use_move("provoke")
        await settle(pilot)
        assert game.flow.stage == "target"
        last = screen.events[-1]
        # as if the action that asked for the target had rolled first
        screen.events.insert(-1, {"type": "Rolled", "a": last["a"], "n": last["n"]})
        await pilot.press("escape")
        await settle(pilot)
        assert game.flow.stage == "target"
        assert any("^Z" in n.message for n in app._notifications)


async def test_ctrl_c_in_a_dialog_says_how_to_quit(make_campaign: Callable[..., str],
                                                   app_for: App) -> None:
    app = app_for(make_campaign(dice_mode="seeded"))
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        app.screen.action_add_npc()  # type: ignore[attr-defined]
        await settle(pilot)
        assert isinstance(app.focused, Input)
        await pilot.press("ctrl+c")
        await settle(pilot)
        assert any("Ctrl+Q" in n.message for n in app._notifications)
        assert app.is_running


# ---------------------------------------------------------------- 24: words


def cow_campaign(saves: Path) -> str:
    """A City of Whispers campaign, seeded dice."""
    game = new_game(saves, system="city-of-whispers", name="Fog", hero_name="Wren",
                    archetype=None, stats={"environs": 1, "lore": 0, "network": 1, "sway": 0},
                    seed=5, dice_mode="seeded")
    cid = str(game.store.id)  # type: ignore[attr-defined]
    close_game(game)
    return cid


async def test_city_end_scene_and_framing_speak_city(saves: Path, app_for: App) -> None:
    app = app_for(cow_campaign(saves))
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        await pilot.press("f5")
        await settle(pilot)
        assert isinstance(app.screen, EndSceneDialog)
        assert "condition" not in dialog_text(app.screen).lower()
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, FramedSceneDialog)
        title = str(app.screen.query_one(".dialog-title").render())
        assert "the Magistrate frames the scene" in title and "GM" not in title
        proposal = app.screen.proposal
        shown = plain(app.screen.query_one("#proposal", Static).render())
        head = proposal.location.split(",")[0].strip().lower()
        assert shown.lower().count(head) == 1 or head in proposal.opening.lower()


@pytest.mark.parametrize(("template", "line"), [
    ("A stranger at {location} calls you by name.",
     "A stranger at the Magistracy steps, Bellwether Square, calls you by name."),
    ("{location} is louder than usual.",
     "The Magistracy steps, Bellwether Square, is louder than usual."),
    ("By morning it is all over {location}.",
     "By morning it is all over the Magistracy steps, Bellwether Square."),
    ("You wait at {location}, {hero}.",
     "You wait at the Magistracy steps, Bellwether Square, Wren."),
])
def test_a_place_with_a_comma_is_closed_by_one(template: str, line: str) -> None:
    names = {"location": "the Magistracy steps, Bellwether Square", "hero": "Wren"}
    assert fill_template(template, names) == line
    assert fill_template("A stranger at {location} calls.", {"location": "a diner"}) == \
        "A stranger at a diner calls."


def test_blanks_stay_blanks() -> None:
    assert inline("What here could help me ___?").plain == "What here could help me ___?"
    assert inline("_At stake: the pier_").plain == "At stake: the pier"


async def test_journal_glitches(make_campaign: Callable[..., str], app_for: App) -> None:
    app = app_for(make_campaign())
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        await miss_and_describe(pilot, "I punch the drones")
        await pilot.press("enter")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        await fill(pilot, "#faces", "3")
        await pilot.press("enter")
        await settle(pilot)
        error = str(app.screen.query_one("#dialog-error", Static).render())
        assert "1 was entered" in error and "were" not in error
