"""What the parts of a game in play see of the game that holds them: its pack, ruleset and
state, and the one way to change the state (events, inside an all-or-nothing action).

The move flow, the fight flow and the game's other parts each take such a host in their
constructor and call only what their protocol names (the imports point one way: the parts
know these protocols, not ``Game``)."""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import Protocol

from engine.content.loader import Pack
from engine.rules.base import Ruleset
from engine.rules.events.base import Event
from engine.rules.events.shown import Shown
from engine.rules.state import CampaignState


class GameView(Protocol):
    """A game in play: its content, its rules, its state, and emitting an event."""

    @property
    def pack(self) -> Pack:
        """The campaign's content pack."""

    @property
    def rules(self) -> Ruleset:
        """The campaign's ruleset."""

    @property
    def state(self) -> CampaignState:
        """The campaign's state now."""

    def _emit(self, e: Event) -> None:
        """Apply ``e`` to the state and record it in the action under way."""


class ActionHost(GameView, Protocol):
    """A game in play that runs all-or-nothing actions."""

    @property
    def last_events(self) -> list[Shown]:
        """The events of the last action, as front ends read them."""

    def _action(self, label: str) -> AbstractContextManager[None]:
        """One undoable action: every event emitted inside is saved together, or none is."""
