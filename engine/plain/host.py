"""What the plain mode's answers and commands use of the session playing (so they need not
import it): the game, the console, showing what an action logged."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from engine.game import Game
from engine.plain.console import Console
from engine.rules.events.shown import Shown


class PlainHost(Protocol):
    """The session, as its parts see it."""

    @property
    def game(self) -> Game: ...

    @property
    def console(self) -> Console: ...

    def show(self, events: Sequence[Shown]) -> None:
        """The journal's lines for what an action logged."""

    def where(self) -> str:
        """Where the campaign stands, in one line."""
