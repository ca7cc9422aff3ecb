"""What the parts of ``Game`` (the party, the GM's tools, the ledger, hand edits) use of the
game that holds them: the pack, the state, the ruleset, and the all-or-nothing action.

A part takes its host in its constructor and calls only these; the import points one way
(the parts know this protocol, not ``Game``)."""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import Protocol

from engine.content.loader import Pack
from engine.rules import events as ev
from engine.rules.base import Item, Ruleset
from engine.rules.events.shown import Shown
from engine.rules.state import CampaignState
from engine.rules.types import RollDict


class Host(Protocol):
    """The game, as its parts see it."""

    @property
    def pack(self) -> Pack:
        """The campaign's content pack."""

    @property
    def rules(self) -> Ruleset:
        """The campaign's ruleset."""

    @property
    def state(self) -> CampaignState:
        """The campaign's state now."""

    @property
    def last_events(self) -> list[Shown]:
        """The events of the last action, as front ends read them."""

    def _action(self, label: str) -> AbstractContextManager[None]:
        """One undoable action: every event emitted inside is saved together, or none is."""

    def _emit(self, e: ev.Event) -> None:
        """Apply ``e`` to the state and record it in the action."""

    def _run(self, queue: list[Item], roll: RollDict | None = None,
             fresh: bool = False) -> None:
        """Work through rule items until done or the player must choose."""

    def _require_stage(self, *stages: str) -> None:
        """IllegalAction unless the flow is at one of ``stages``."""

    def _add_npc(self, name: str, role: str, note: str = "") -> str:
        """Add an NPC (inside an action); its id."""
