"""What the parts of ``Game`` (the party, the GM's tools, the ledger, hand edits) use of the
game that holds them: the pack, the state, the ruleset, and the all-or-nothing action.

A part takes its host in its constructor and calls only these; the import points one way
(the parts know this protocol, not ``Game``)."""

from __future__ import annotations

from typing import Protocol

from engine.rules.base import Item
from engine.rules.types import RollDict
from engine.rules.view import ActionHost


class Host(ActionHost, Protocol):
    """The game, as its parts see it."""

    def _run(self, queue: list[Item], roll: RollDict | None = None,
             fresh: bool = False) -> None:
        """Work through rule items until done or the player must choose."""

    def _require_stage(self, *stages: str) -> None:
        """IllegalAction unless the flow is at one of ``stages``."""

    def _add_npc(self, name: str, role: str, note: str = "") -> str:
        """Add an NPC (inside an action); its id."""
