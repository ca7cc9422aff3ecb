"""Fixtures for the app's tests: a temporary save folder, campaigns made through the engine,
and small Pilot helpers."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input

from engine.campaigns import close_game, new_game
from engine.game import Game
from engine.tui.app import SidekickApp

NPCS = [
    ("Rosalind Okafor-Haig", "adult", "Meteorologist"),
    ("Dusk Meridian", "villain", "Wants your glow"),
    ("Tin", "teammate", "Gadgeteer"),
    ("Parveen", "bystander", "Films everything"),
]
SIZE = (120, 40)


@pytest.fixture(autouse=True)
def _saves_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Nothing a test does may touch ./saves: SIDEKICK_SAVES points into tmp_path."""
    monkeypatch.setenv("SIDEKICK_SAVES", str(tmp_path / "env-saves"))
    monkeypatch.delenv("SIDEKICK_EXIT_WHEN_READY", raising=False)
    yield


@pytest.fixture
def saves(tmp_path: Path) -> Path:
    """The save folder the app under test uses."""
    folder = tmp_path / "saves"
    folder.mkdir()
    return folder


@pytest.fixture
def make_campaign(saves: Path) -> Callable[..., str]:
    """Create a campaign through the engine (closed again); returns its id."""

    def make(name: str = "Night Shift", *, seed: int = 42, dice_mode: str = "physical",
             archetype: str = "signal_fire", hero: str = "Nova", **kw: Any) -> str:
        game = new_game(saves, system="masks", name=name, hero_name=hero, archetype=archetype,
                        npcs=kw.pop("npcs", NPCS), seed=seed, dice_mode=dice_mode, **kw)
        cid = str(game.store.id)  # type: ignore[attr-defined]
        close_game(game)
        return cid

    return make


def fixed_clock() -> datetime:
    """'Now' for the title screen: shortly after any campaign made in the test."""
    return datetime.now(UTC)


@pytest.fixture
def app_for(saves: Path) -> Callable[..., SidekickApp]:
    """Build the app over the temporary save folder."""

    def build(campaign: str | None = None, **kw: Any) -> SidekickApp:
        return SidekickApp(saves_dir=saves, campaign=campaign, clock=fixed_clock, **kw)

    return build


def game_of(app: SidekickApp) -> Game:
    """The game on the play screen."""
    game = getattr(app.screen, "game", None)
    if game is None:
        game = next(s.game for s in app.screen_stack if hasattr(s, "game"))
    return game


async def type_text(pilot: Pilot[Any], text: str) -> None:
    """Type ``text`` key by key into whatever has focus."""
    await pilot.press(*[("space" if ch == " " else ch) for ch in text])


async def fill(pilot: Pilot[Any], selector: str, text: str) -> None:
    """Focus the input ``selector`` and type ``text`` into it (replacing what was there)."""
    widget = pilot.app.screen.query_one(selector, Input)
    widget.focus()
    widget.value = ""
    await pilot.pause()
    await type_text(pilot, text)


async def settle(pilot: Pilot[Any]) -> None:
    """Let screen switches and refreshes finish."""
    await pilot.pause()
    await pilot.pause(0.05)


def journal_text(app: SidekickApp) -> str:
    """The journal's entries as plain text."""
    import io

    from rich.console import Console

    from engine.tui.widgets.journal import Journal

    journal = app.screen.query_one(Journal) if app.screen.query(Journal) else next(
        s.query_one(Journal) for s in app.screen_stack if s.query(Journal))
    console = Console(width=200, record=True, color_system=None, file=io.StringIO())
    for _n, entry in journal.entries:
        console.print(entry)
    return console.export_text()
