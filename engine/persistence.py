"""What the Game needs from a store, and an in-memory store with the same interface."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Protocol


class Persistence(Protocol):
    """What the Game needs from a store (``engine.store.CampaignStore`` or ``MemoryStore``)."""

    def save(self, events: list[dict[str, Any]], state: dict[str, Any],
             meta_updates: dict[str, Any] | None = None, new_chunk: bool = False) -> None: ...

    def base_and_events_for_action(self, action_no: int) -> tuple[dict[str, Any],
                                                                   list[dict[str, Any]]]: ...

    def truncate_from_action(self, action_no: int, state: dict[str, Any]) -> None: ...

    def events(self, markers: bool = False) -> Iterator[dict[str, Any]]: ...


class MemoryStore:
    """An in-memory log with the store's interface, for tests, benchmarks and scripts."""

    def __init__(self, state: dict[str, Any]) -> None:
        self.initial = state
        self.state = state
        self.log: list[dict[str, Any]] = []

    def save(self, events: list[dict[str, Any]], state: dict[str, Any],
             meta_updates: dict[str, Any] | None = None, new_chunk: bool = False) -> None:
        """Keep the events and the state."""
        self.log.extend(events)
        self.state = state

    def base_and_events_for_action(self, action_no: int) -> tuple[dict[str, Any],
                                                                   list[dict[str, Any]]]:
        """The initial state and every event before ``action_no``."""
        return self.initial, [e for e in self.log if e["a"] < action_no]

    def truncate_from_action(self, action_no: int, state: dict[str, Any]) -> None:
        """Forget the events of ``action_no`` and later."""
        self.log = [e for e in self.log if e["a"] < action_no]
        self.state = state

    def events(self, markers: bool = False) -> Iterator[dict[str, Any]]:
        """Every event."""
        return iter(self.log)
