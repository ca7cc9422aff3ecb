"""What an action gives back to a front end: each event it logged, typed, with its place in the
log and who was acting.

A ``Shown`` carries the event itself (``shown.event``, an ``Event`` a front end may match with
``isinstance``) and reads as the event's full plain form too (``shown["type"]``,
``shown["text"]``: every field, defaults included, plus ``n``, ``a`` and ``acting_id``), the
form the journal's lines and the scripts' JSON are made from. It cannot be changed.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from engine.rules.events.base import Event


@dataclass(frozen=True, slots=True, eq=False)
class Shown(Mapping[str, Any]):
    """One event an action logged, as a front end reads it."""

    event: Event
    """The event, typed."""
    n: int
    """Its number in the campaign's log."""
    a: int
    """The number of the action that logged it."""
    acting: str | None
    """The id of the hero acting when it was logged (the journal calls that hero "you")."""
    full: Mapping[str, Any] = field(repr=False)
    """The event's full plain form, with ``n``, ``a`` and ``acting_id``."""

    @classmethod
    def of(cls, event: Event, n: int, a: int, acting: str | None) -> Shown:
        """The shown form of ``event``, logged as event ``n`` of action ``a``."""
        full = {**event.to_dict(full=True), "n": n, "a": a, "acting_id": acting}
        return cls(event=event, n=n, a=a, acting=acting, full=MappingProxyType(full))

    @property
    def type(self) -> str:
        """The event's type name ("Rolled", "Narrated"...)."""
        return str(self.full["type"])

    def __getitem__(self, key: str) -> Any:
        return self.full[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self.full)

    def __len__(self) -> int:
        return len(self.full)

    def to_dict(self) -> dict[str, Any]:
        """A plain copy of the full form (what the scripts print as JSON)."""
        return dict(self.full)
