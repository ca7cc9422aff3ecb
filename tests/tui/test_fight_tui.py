"""Pilot tests of fights in the app at 80x24: the initiative tracker, the player's actions with
their odds, referee steps, taking over an NPC, a physical die, a fight to its end, F8."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from engine.campaigns import close_game, new_game, open_game
from engine.game import Game
from engine.tui.app import SidekickApp
from engine.tui.screens.dialogs import ChoiceDialog, DiceDialog
from engine.tui.screens.play import PlayScreen
from engine.tui.widgets.action_menu import ActionMenu
from engine.tui.widgets.tracker import Tracker
from tests.tui.conftest import fill, game_of, journal_text, settle

SMALL = (80, 24)
SYSTEM = "mutants-and-masterminds"


def _with_fights(game: Game) -> Game:
    """The game, its ruleset's fights wired in if the ruleset does not return them yet."""
    if game.rules.conflict() is None:  # until the lead registers MM3EConflict in mm3e rules
        from engine.rules.mm3e.fight import MM3EConflict

        conflict = MM3EConflict(game.pack)
        game.rules.conflict = lambda: conflict  # type: ignore[method-assign]
    return game


def _open(saves: Path, cid: str, content: Any = ()) -> Game:
    return _with_fights(open_game(saves, cid, content))


@pytest.fixture
def mm_campaign(saves: Path) -> Callable[..., str]:
    """An M&M campaign (Keystone and Lamplight), optionally already in a fight."""

    def make(seed: int = 3, fight: bool = True, dice_mode: str = "seeded",
             foes: tuple[str, ...] = ("the_tallyman", "dockside_crew")) -> str:
        game = _with_fights(new_game(
            saves, system=SYSTEM, name="Harbor Night", hero_name="Keystone",
            archetype="keystone", party=[{"name": "Lamplight", "archetype": "lamplight"}],
            seed=seed, dice_mode=dice_mode))
        if fight:
            game.start_fight(list(foes))
        cid = str(game.store.id)  # type: ignore[attr-defined]
        close_game(game)
        return cid

    return make


@pytest.fixture
def mm_app(saves: Path) -> Callable[[str], SidekickApp]:
    def build(cid: str) -> SidekickApp:
        return SidekickApp(saves_dir=saves, campaign=cid, open_game=_open)

    return build


def menu_ids(app: SidekickApp) -> list[str]:
    menu = app.screen.query_one(ActionMenu)
    return [str(o.id) for o in menu.options if o.id]


def tracker_text(app: SidekickApp) -> str:
    return app.screen.query_one(Tracker).text.plain
