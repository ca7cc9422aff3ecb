"""Pilot tests of the panels game ("Panels: Halberd City") in the app at 80x24: a new campaign
with a ready-made and a custom hero, Kill and Stun bars on the sheet, the panel tracker, attacks
without maneuvers, the response to a hit with its odds and cost, F8 and the "Start a fight"
move, referee steps, and physical dice (side d6s, a d20)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from textual.pilot import Pilot
from textual.widgets import Input, Select

from engine.campaigns import close_game, new_game
from engine.game import Game
from engine.tui.app import SidekickApp
from engine.tui.fight_view import choice_entry, side_dice
from engine.tui.screens.dialogs import ChoiceDialog, DiceDialog, DieDialog
from engine.tui.screens.new_campaign import CUSTOM, NewCampaignScreen
from engine.tui.screens.play import PlayScreen
from engine.tui.widgets.action_menu import ActionMenu
from engine.tui.widgets.sheet import Sheet
from engine.tui.widgets.tracker import Tracker, panel_tracker_text, repay_words
from tests.tui.conftest import fill, game_of, journal_text, settle, type_text

SMALL = (80, 24)
SYSTEM = "panels"
FOES = ("the_furnace_baron", "the_foundry_crew")


def make_game(saves: Path, seed: int = 3, dice_mode: str = "seeded") -> Game:
    """Rivet and Nightjar in Halberd City, not yet fighting."""
    return new_game(saves, system=SYSTEM, name="Foundry Night", hero_name="Rivet",
                    archetype="rivet", party=[{"name": "Nightjar", "archetype": "nightjar"}],
                    seed=seed, dice_mode=dice_mode)


def saved(game: Game) -> str:
    """Close the game; its campaign id."""
    cid = str(game.store.id)  # type: ignore[attr-defined]
    close_game(game)
    return cid


@pytest.fixture
def panels_campaign(saves: Path) -> Callable[..., str]:
    """A panels campaign, optionally in a fight against the Furnace Baron and his crew."""

    def make(seed: int = 3, fight: bool = True, dice_mode: str = "seeded",
             foes: tuple[str, ...] = FOES) -> str:
        game = make_game(saves, seed)
        if fight:
            game.start_fight(list(foes))
        if dice_mode != "seeded":
            game.set_dice_mode(dice_mode)
        return saved(game)

    return make


@pytest.fixture
def open_app(saves: Path) -> Callable[[str], SidekickApp]:
    def build(cid: str) -> SidekickApp:
        return SidekickApp(saves_dir=saves, campaign=cid)

    return build


def menu_ids(app: SidekickApp) -> list[str]:
    return [str(o.id) for o in app.screen.query_one(ActionMenu).options if o.id]


def prompt_of(app: SidekickApp, key: str) -> str:
    return str(app.screen.query_one(ActionMenu).get_option(key).prompt)


def title(app: SidekickApp) -> str:
    return str(app.screen.query_one("#prompt-title").render())


def tracker_lines(app: SidekickApp) -> list[str]:
    return app.screen.query_one(Tracker).text.plain.splitlines()


def sheet_text(app: SidekickApp) -> str:
    return app.screen.query_one(Sheet).text.plain


# ------------------------------------------------------------------ the tracker, pure


def row(name: str, side: str, **kw: Any) -> dict[str, Any]:
    base = {"actor": name.lower(), "name": name, "side": side, "acting": False,
            "conditions": [], "control": "player" if side == "heroes" else "referee",
            "out": "", "present": True, "held": "", "acted": False, "kill": 30,
            "kill_max": 30, "stun": 36, "stun_max": 36, "panels": 3, "arrears": 0}
    return {**base, **kw}


SIDES = {"rolls": {"heroes": 5, "villains": 2}, "first": "heroes",
         "panels": {"heroes": 3, "villains": 3}, "simultaneous": False}


def test_panel_tracker_rows() -> None:
    rows = [row("Nightjar", "heroes", acting=True, panels=1, arrears=2),
            row("Rivet", "heroes", kill=3, kill_max=40, stun=50, stun_max=50,
                conditions=["stunned"], panels=2, arrears=1),
            row("The Furnace Baron", "villains", arrears=5, panels=0),
            row("The Foundry Crew 1", "villains", out="down", kill=0, panels=0)]
    lines = panel_tracker_text(2, SIDES, rows, width=30).plain.split("\n")
    assert lines[:3] == ["⚔ ROUND 2", "d6 Heroes 5 · Villains 2",
                         "3 panels each · Heroes first"]
    # the acting one: its panels left of its side's 3, what it owes and when it pays
    assert lines[3] == "▶Nightjar             ●○○ you"
    assert lines[4] == "  Kill 30/30  Stun 36/36"
    assert lines[5] == "  owes 2 · repaid next turn"
    # not acted yet: the debt comes out of this round's turn (3 panels, 1 owed: 2 left)
    assert lines[6] == " Rivet                ●●○ you"
    assert lines[7:10] == ["  Kill 3/40  Stun 50/50", "  stunned",  # no room beside
                           "  owes 1 · repaid this round"]
    # at the limit of 5: more than this turn's 3 panels, the rest next round
    assert lines[10] == " The Furnace Baron    ○○○ ref"
    assert lines[12] == "  owes 5! · 3 now, 2 next"  # "(limit)" has no room
    # out of the fight: struck through, one line
    assert lines[13] == " The Foundry Crew 1   down"
    assert len(lines) == 14
    wide = panel_tracker_text(2, SIDES, rows, width=40).plain.split("\n")
    assert wide[7] == "  Kill 3/40  Stun 50/50 stunned"
    text = panel_tracker_text(2, SIDES, rows, width=30)
    struck = [s for s in text.spans if "strike" in str(s.style)]
    assert [text.plain[s.start:s.end].strip() for s in struck] == ["The Foundry Crew 1"]
    # Rivet's Kill (3 of 40, stunned) reads bad, his Stun does not
    kill = text.plain.index("3/40")
    assert any(s.start == kill and "#f7768e" in str(s.style) for s in text.spans)
    stun = text.plain.index("50/50")
    assert not any(s.start == stun and "#f7768e" in str(s.style) for s in text.spans)


def test_panel_tracker_tie_and_width() -> None:
    tie = {"rolls": {"heroes": 4, "villains": 4}, "first": None,
           "panels": {"heroes": 2, "villains": 2}, "simultaneous": True}
    rows = [row("Nightjar", "heroes", panels=2), row("Cutglass", "villains", panels=2)]
    lines = panel_tracker_text(1, tie, rows, width=29).plain.split("\n")
    assert lines[1:3] == ["d6 Heroes 4 · Villains 4", "Tie: 2 panels each, by Agility"]
    assert all(len(line) <= 30 for line in lines)
    assert panel_tracker_text(1, None, rows).plain.split("\n")[1] == "Side d6s not rolled yet"


def test_how_a_debt_is_repaid() -> None:
    assert repay_words(row("A", "heroes", arrears=0), 3) == ""
    assert repay_words(row("A", "heroes", arrears=2, acted=True), 3, width=40) == (
        "owes 2: paid from its next turn")
    assert repay_words(row("A", "heroes", arrears=2), 3, width=40) == (
        "owes 2: paid from its turn this round")
    assert repay_words(row("A", "heroes", arrears=4), 1, width=40) == (
        "owes 4: 1 paid this round, rest next")
    assert repay_words(row("A", "heroes", arrears=4), 1, width=29) == "owes 4 · 1 now, 3 next"
    limit = repay_words(row("A", "heroes", arrears=5, acting=True), 1, width=29)
    assert limit.startswith("owes 5") and len(limit) + 2 <= 29


def test_a_response_reads_in_three_lines() -> None:
    detail = ("18+ avoids it all (45%), 15-17 halves it (15%); expected damage avoided 7.7 of"
              " 14.5; costs 1 future panel")
    text = choice_entry(2, "Dodge", detail, 44)
    assert text.plain.split("\n") == ["2. Dodge  costs 1 future panel",
                                      "   18+ avoids it all (45%), 15-17 halves it",
                                      "   (15%) · avoids ~7.7 of 14.5"]
    assert choice_entry(1, "Take it", "expected damage 14.5", 44).plain == (
        "1. Take it  expected damage 14.5")
    # words the menu does not know stay as the engine gave them
    assert choice_entry(3, "Roll", "let the dice say", 44).plain == "3. Roll  let the dice say"
