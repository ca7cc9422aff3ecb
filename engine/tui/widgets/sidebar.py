"""The play screen's right-hand column: the initiative tracker while a fight is under way,
and the live character sheet."""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.containers import VerticalScroll

from engine.errors import EngineError
from engine.game import Game
from engine.tui.widgets.sheet import Sheet
from engine.tui.widgets.tracker import Tracker


def sheet_actor(game: Game) -> str | None:
    """Whose sheet to show: in a fight, the character acting when the player plays it;
    otherwise (None) the hero in the spotlight."""
    fight = game.fight
    acting = fight.encounter.acting if fight is not None else None
    if acting is None or acting not in game.state.actors or game.referee_turn:
        return None
    return acting


class Sidebar(VerticalScroll):
    """The tracker over the sheet, scrolled to keep the acting row in view."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._acting_seen: str | None = None
        """The character the tracker last scrolled to."""

    def compose(self) -> ComposeResult:
        """The tracker (hidden out of a fight), then the sheet."""
        yield Tracker(id="tracker")
        yield Sheet(id="sheet")

    def show_sheet(self, game: Game) -> None:
        """Draw the sheet of the character it follows now (see ``sheet_actor``)."""
        self.query_one(Sheet).show(game, sheet_actor(game))

    def show_fight(self, game: Game) -> bool:
        """Show the tracker while a fight is under way, hide it otherwise. True when another
        character acts since the last call: scroll to it (``scroll_to_acting``) once laid out."""
        tracker = self.query_one(Tracker)
        fight = game.fight
        tracker.display = fight is not None
        if fight is None:
            self._acting_seen = None
            return False
        try:
            rows = game.tracker()
            style = game.conflict.tracker_style
        except EngineError:
            rows, style = [], "initiative"
        sides = fight.encounter.sides
        tracker.show_rows(fight.encounter.round, rows, sides, style)
        if fight.encounter.acting != self._acting_seen:
            self._acting_seen = fight.encounter.acting
            return True
        return False

    def scroll_to_acting(self) -> None:
        """Keep the acting row in view when the tracker is taller than the sidebar."""
        line = self.query_one(Tracker).acting_line()
        height = self.size.height or 20
        if line >= self.scroll_y + height - 2 or line < self.scroll_y:
            self.scroll_to(y=max(0, line - height // 2), animate=False)
