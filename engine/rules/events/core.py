"""The base of every event, the core registry (``CORE``) and the functions that read and
apply events.

An event is a small frozen dataclass. Its dict form (``to_dict``) is what the save log holds;
``from_dict`` reads it back. Rules modules may register their own events with ``@event`` and
their appliers with ``@applier``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, ClassVar, TypeVar

from engine.rules.registry import Registry
from engine.rules.state import HERO, CampaignState

E = TypeVar("E", bound="Event")

CORE = Registry("core")
"""The core's events, appliers and edit kinds: every ruleset's registry extends it."""


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


def named(e: E, acting: str) -> E:
    """``e`` with "hero" in its actor fields (``ACTORS``) replaced by ``acting``, the id of the
    hero acting now: what an event concerns is said by id, never left to the spotlight."""
    changes = {f: acting for f in type(e).ACTORS if getattr(e, f) == HERO}
    return replace(e, **changes) if changes else e


event = CORE.event
"""Register a core event class."""
applier = CORE.applier
"""Declare the applier of a core event."""
edit_applier = CORE.edit
"""Register how an ``Edited`` event of a core kind writes the state."""


def from_dict(d: dict[str, Any]) -> Event:
    """A core event from its saved form (a campaign's log is read with its ruleset's
    registry: ``Ruleset.registry.decode``)."""
    return CORE.decode(d)


def apply(state: CampaignState, ev: Event) -> None:
    """Apply one event to ``state`` (hand edits of the core's kinds only: a campaign applies
    through its ruleset's registry, ``Ruleset.registry.apply``)."""
    CORE.apply(state, ev)


__all__ = ["CORE", "Event", "applier", "apply", "edit_applier", "event", "from_dict", "named"]
