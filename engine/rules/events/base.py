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
    """Fields written only when not at their default (fields added after an event type was
    first saved, and those most events leave at their default), so the log stays small and
    the saved form of older events is unchanged."""
    DERIVED: ClassVar[dict[str, str]] = {}
    """Fields written only when they differ from another field (field -> that field): a
    roll's kept faces are its faces unless some were dropped."""

    def to_dict(self, full: bool = False) -> dict[str, Any]:
        """The JSON-ready form: ``{"type": ..., field: value, ...}``; the saved form (not
        ``full``) leaves out the fields in ``OPTIONAL`` at their defaults and those in
        ``DERIVED`` equal to their source (``filled`` puts both back)."""
        d: dict[str, Any] = {"type": self.type}
        quiet = {} if full else self._quiet
        derived = {} if full else self.DERIVED
        for name in self._names:
            value = getattr(self, name)
            if name in quiet and value == quiet[name]:
                continue
            if name in derived and value == getattr(self, derived[name]):
                continue
            d[name] = value
        return d

    @classmethod
    def filled(cls, d: dict[str, Any]) -> dict[str, Any]:
        """A saved dict of this type with what its saved form leaves out put back: every
        field present, as ``to_dict(full=True)`` has them (other keys kept)."""
        out = {**cls._quiet, **d}
        for name, source in cls.DERIVED.items():
            if name not in out and source in out:
                out[name] = out[source]
        return out


__all__ = ["Event"]
