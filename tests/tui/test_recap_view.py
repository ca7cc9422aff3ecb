"""Pilot: a campaign opened from the title screen shows "Previously..." above the journal; it
closes with Esc or once play goes on, ^R brings it back; a campaign with nothing played yet
shows none."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

from engine.campaigns import close_game, open_game
from engine.tui.app import SidekickApp
from engine.tui.screens.play import PlayScreen
from engine.tui.widgets.recap import RecapPanel
from tests.tui.conftest import fill, settle

App = Callable[..., SidekickApp]
FIXTURES = Path(__file__).resolve().parents[1] / "data" / "saves-v1"
MASKS = "the-long-night-at-pier-9"


def _panel_text(app: SidekickApp) -> str:
    panel = app.screen.query_one(RecapPanel) if isinstance(app.screen, PlayScreen) else next(
        s for s in app.screen_stack if isinstance(s, PlayScreen)).query_one(RecapPanel)
    return str(panel.border_title) + "\n" + "\n".join(panel.lines)


def _play_screen(app: SidekickApp) -> PlayScreen:
    return next(s for s in app.screen_stack if isinstance(s, PlayScreen))


async def test_resumed_campaign_shows_previously(app_for: App, saves: Path) -> None:
    shutil.copytree(FIXTURES / MASKS, saves / MASKS)
    app = app_for()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("enter")  # resume the highlighted (only) campaign
        await settle(pilot)
        screen = _play_screen(app)
        panel = screen.query_one(RecapPanel)
        assert panel.shown and panel.display
        assert 3 <= len(panel.lines) <= 8
        text = _panel_text(app)
        assert "Previously on The Long Night at Pier 9" in text
        assert "Will Tin forgive Nova?" in text  # the last scene's stakes
        assert "Provoke someone" in text  # the last miss
        assert "Dusk Meridian: the takeover" in text  # the pressing clock
        # readable at 80x24: on screen, above the journal, with room left for the journal
        assert panel.region.width >= 40 and panel.region.height >= 4
        assert panel.region.y < screen.query_one("#journal").region.y
        assert screen.query_one("#journal").region.height >= 3


async def test_esc_closes_and_ctrl_r_brings_it_back(make_campaign: Callable[..., str],
                                                    app_for: App, saves: Path) -> None:
    cid = make_campaign(dice_mode="seeded")
    async with app_for(cid).run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        panel = _play_screen(pilot.app).query_one(RecapPanel)
        assert not panel.shown  # nothing played yet: nothing to recap
    game = open_game(saves, cid)
    try:
        game.describe("I hover over the pier and look for Dusk")
        game.choose_move(None)  # plain fiction
    finally:
        close_game(game)
    app = app_for(cid)  # reopened: now there is something to recap
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = _play_screen(app)
        panel = screen.query_one(RecapPanel)
        assert panel.shown
        assert "I hover over the pier and look for Dusk" in _panel_text(app)
        await pilot.press("escape")
        await settle(pilot)
        assert not panel.shown and not panel.display
        await pilot.press("ctrl+r")
        await settle(pilot)
        assert panel.shown
        await pilot.press("ctrl+r")  # ^R again hides it
        await settle(pilot)
        assert not panel.shown
        await pilot.press("ctrl+r")
        await settle(pilot)
        assert panel.shown
        # play goes on: the panel makes room for the journal
        await fill(pilot, "#fiction", "I wave to the crowd")
        await pilot.press("enter")
        await settle(pilot)
        assert not panel.shown


async def test_a_recap_longer_than_its_panel_says_so_and_pages(
        make_campaign: Callable[..., str], app_for: App, saves: Path) -> None:
    cid = make_campaign(dice_mode="seeded")
    game = open_game(saves, cid)
    try:
        for line in ("I hover over the pier and look for Dusk",
                     "I land on the crane and wait for the boats to come in",
                     "I text Tin that the pier is quiet, too quiet"):
            game.describe(line)
            game.choose_move(None)  # plain fiction
        game.trigger("assess_situation", fiction="I size up the pier")
        game.roll()
        while game.state.flow.stage != "fiction":
            p = game.pending
            game.choose([o.id for o in p.options if not o.disabled][:max(p.min, 1)])
    finally:
        close_game(game)
    app = app_for(cid)
    async with app.run_test(size=(60, 16)) as pilot:  # a small terminal: the recap runs over
        await settle(pilot)
        panel = _play_screen(app).query_one(RecapPanel)
        assert isinstance(app.screen, PlayScreen)
        assert panel.shown and panel.max_scroll_y > 0
        assert str(panel.border_subtitle).startswith("PgDn/PgUp scroll")
        await pilot.press("pagedown")
        await settle(pilot)
        assert panel.scroll_y > 0
        for _ in range(panel.max_scroll_y):
            await pilot.press("pagedown")
        await settle(pilot)
        assert panel.scroll_y == panel.max_scroll_y
        assert str(panel.border_subtitle).startswith("end · ")
        await pilot.press("pageup")
        await settle(pilot)
        assert panel.scroll_y < panel.max_scroll_y
