"""Snapshot tests of the title, new-campaign and play screens (fixed seeds and dice).

Regenerate after a deliberate change with ``pytest tests/tui --snapshot-update``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from textual.pilot import Pilot
from textual.widgets import Select

from engine.store import BACKUP_FILE, CAMPAIGN_FILE
from engine.tui.app import SidekickApp
from tests.tui.conftest import SIZE, fill, settle, type_text

App = Callable[..., SidekickApp]


def test_title_snapshot(snap_compare: Any, make_campaign: Callable[..., str], app_for: App,
                        saves: Path) -> None:
    broken = make_campaign("Lost Tapes", hero="Echo")
    (saves / broken / CAMPAIGN_FILE).write_text("{ not json", encoding="utf-8")
    (saves / broken / BACKUP_FILE).unlink(missing_ok=True)
    make_campaign("Glass City", hero="Vesper", archetype="stitchwork")
    make_campaign("Night Shift")

    async def before(pilot: Pilot[Any]) -> None:
        await settle(pilot)

    assert snap_compare(app_for(), terminal_size=SIZE, run_before=before)


def test_new_campaign_snapshot(snap_compare: Any, app_for: App) -> None:
    async def before(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        await pilot.press("n")
        await settle(pilot)
        pilot.app.screen.query_one("#system", Select).value = "masks"
        await settle(pilot)
        await type_text(pilot, "Night Shift")
        await pilot.press("tab")
        await type_text(pilot, "Nova")
        await settle(pilot)

    assert snap_compare(app_for(), terminal_size=SIZE, run_before=before)


async def _play_a_round(pilot: Pilot[Any]) -> None:
    await settle(pilot)
    await fill(pilot, "#fiction", "I punch the drones out of the sky")
    await pilot.press("enter")
    await settle(pilot)
    await pilot.press("enter", "enter")
    await settle(pilot)
    await fill(pilot, "#faces", "4 4")
    await pilot.press("enter")
    await settle(pilot)
    await pilot.press("down", "enter")
    await settle(pilot)
    await fill(pilot, "#fiction", "I look around for what Dusk is really after")
    await pilot.press("enter")
    await settle(pilot)


def test_play_snapshot(snap_compare: Any, make_campaign: Callable[..., str], app_for: App
                       ) -> None:
    app = app_for(make_campaign())
    assert snap_compare(app, terminal_size=SIZE, run_before=_play_a_round)


def test_play_snapshot_small(snap_compare: Any, make_campaign: Callable[..., str], app_for: App
                             ) -> None:
    app = app_for(make_campaign())
    assert snap_compare(app, terminal_size=(80, 24), run_before=_play_a_round)
