"""Pilot tests of the sheet drawn from the ruleset's sections: a City of Whispers hero's
beliefs and Ties, and a track that runs below zero (-3..+3) with its marker in place."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from engine.campaigns import close_game, new_game
from engine.rules.sheet import Section, Track
from engine.tui.app import SidekickApp
from engine.tui.widgets.sheet import Sheet, render_sections
from tests.tui.conftest import SIZE, settle

App = Callable[..., SidekickApp]
ROOT = Path(__file__).resolve().parents[2]
COW_NPCS = [("Odile Farrow", "contact", "fence"), ("Madam Ysolde Marrowgate", "patron", ""),
            ("Silas Quill", "rival", "")]


async def test_city_of_whispers_sheet_shows_beliefs_and_ties(saves: Path, app_for: App
                                                             ) -> None:
    game = new_game(saves, system="city-of-whispers", name="Ledger", hero_name="Mira",
                    archetype="go_between", npcs=COW_NPCS, seed=7)
    cid = str(game.store.id)  # type: ignore[attr-defined]
    close_game(game)
    app = app_for(cid)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        text = app.screen.query_one(Sheet).text.plain
    lines = text.split("\n")
    beliefs = lines.index("BELIEFS")
    assert lines[beliefs + 1] == "● Everyone in Vell has a price, and most of them are cheap."
    assert lines[beliefs + 2] == "● Debts are the only loyalty that lasts."
    ties = lines.index("TIES")
    assert lines[ties + 1:ties + 3] == [
        "● Odile Farrow", "  you know of their criminal connections · secret intact"]
    assert "YOUR FACTION: THE TALLOW EXCHANGE" in lines
    assert "Standing  +0 ···●··· (-3 to +3)" in lines


def _scale_pack(root: Path, start: int) -> Path:
    """The minimal pack with a Mood track from -3 to +3 that starts at ``start``."""
    path = root / "scaled"
    shutil.copytree(ROOT / "tests" / "data" / "minimal", path)
    data = yaml.safe_load((path / "system.yaml").read_text(encoding="utf-8"))
    data["id"] = "scaled"
    data["tracks"].append({"id": "mood", "name": "Mood", "min": -3, "max": 3, "start": start})
    (path / "system.yaml").write_text(yaml.safe_dump(data), encoding="utf-8")
    return root


@pytest.mark.parametrize("start", [-3, -2, 0, 1, 3])
async def test_a_track_below_zero_draws_its_marker_in_place(saves: Path, tmp_path: Path,
                                                            app_for: App, start: int) -> None:
    content = _scale_pack(tmp_path / "content", start)
    game = new_game(saves, system="scaled", name="Scale", hero_name="Ash",
                    archetype="drifter", seed=1, content=[content])
    cid = str(game.store.id)  # type: ignore[attr-defined]
    close_game(game)
    app = app_for(cid, content_dirs=[content])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        text = app.screen.query_one(Sheet).text.plain
    line = next(x for x in text.split("\n") if x.startswith("Mood"))
    label, value, scale, bounds = line[:10], line[10:].split(" ", 2)[0], \
        line[10:].split(" ", 2)[1], line[10:].split(" ", 2)[2]
    assert (label, value, bounds) == ("Mood      ", f"{start:+d}", "(-3 to +3)")
    assert len(scale) == 7 and scale.count("●") == 1 and set(scale) <= {"·", "●"}
    assert scale.index("●") == start + 3  # -3 is the first place, +3 the last


def test_a_track_from_zero_fills_boxes_and_a_wide_one_is_a_number() -> None:
    text = render_sections([Section(title="Tracks", rows=[
        Track(label="Heat", value=1, min=0, max=4),
        Track(label="Team", value=7),
        Track(label="Wide", value=-20, min=-50, max=50)])]).plain
    assert text.split("\n") == ["TRACKS", "Heat      ●○○○ 1/4", "Team      7",
                                "Wide      -20"]


def test_city_of_whispers_sheet_snapshot(snap_compare: Any, saves: Path, app_for: App) -> None:
    game = new_game(saves, system="city-of-whispers", name="Ledger", hero_name="Mira",
                    archetype="go_between", npcs=COW_NPCS, seed=7, dice_mode="physical")
    cid = str(game.store.id)  # type: ignore[attr-defined]
    close_game(game)
    assert snap_compare(app_for(cid), terminal_size=SIZE, run_before=settle)
