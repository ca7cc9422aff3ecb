"""The base of every event, the core registry (``CORE``) and the functions that read and
apply events.

An event is a small frozen dataclass. Its dict form (``to_dict``) is what the save log holds;
``from_dict`` reads it back. Rules modules may register their own events with ``@event`` and
their appliers with ``@applier``.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, TypeVar

from engine.rules.events.base import Event
from engine.rules.registry import Registry
from engine.rules.state import HERO, CampaignState

E = TypeVar("E", bound="Event")

CORE = Registry("core")
"""The core's events, appliers and edit kinds: every ruleset's registry extends it."""


def named(e: E, acting: str) -> E:
    """``e`` with "hero" in its actor fields (``ACTORS``) replaced by ``acting``, the id of the
    hero acting now: what an event concerns is said by id, never left to the spotlight."""
    fields = e.ACTORS
    if not fields:  # most events name no actor
        return e
    changes = {f: acting for f in fields if getattr(e, f) == HERO}
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
