"""The base of every event: a small frozen dataclass whose dict form (``to_dict``) is what
the save log holds. It imports nothing of the registries, so they can name it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    from engine.rules.state import CampaignState


@dataclass(frozen=True, slots=True)
class Event:
    """Base of all events. ``n`` and ``a`` (event and action numbers) are set when logged."""

    type: ClassVar[str] = "Event"
    _names: ClassVar[tuple[str, ...]] = ()
    _quiet: ClassVar[dict[str, Any]] = {}
    _apply: ClassVar[Callable[[CampaignState, Any], None] | None] = None
    """What applies it (``Registry.applier``); None: a line of the story only."""
    ACTORS: ClassVar[tuple[str, ...]] = ()
    """Fields that name an actor by id. Logs before format 3 may say "hero" there, meaning the
    hero acting when the event was applied; ``named`` writes the id instead."""
    OPTIONAL: ClassVar[tuple[str, ...]] = ()
    """Fields added after an event type was first saved: written only when not at their
    default, so the saved form of older events (and what older versions read) is unchanged."""

    def to_dict(self, full: bool = False) -> dict[str, Any]:
        """The JSON-ready form: ``{"type": ..., field: value, ...}``; the fields in
        ``OPTIONAL`` left out at their defaults (the saved form), unless ``full``."""
        d: dict[str, Any] = {"type": self.type}
        quiet = {} if full else self._quiet
        for name in self._names:
            value = getattr(self, name)
            if name in quiet and value == quiet[name]:
                continue
            d[name] = value
        return d


__all__ = ["Event"]
