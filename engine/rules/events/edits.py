"""Hand edits: ``Edited``, a value corrected by hand, and how it writes each core kind
(condition, stat, track, pool, clock); a ruleset adds its own kinds."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engine.rules.events.characters import (
    ConditionCleared,
    ConditionMarked,
    condition_cleared,
    condition_marked,
)
from engine.rules.events.core import Event, edit_applier, event
from engine.rules.state import CampaignState


@event
@dataclass(frozen=True, slots=True)
class Edited(Event):
    """A value corrected by hand, as a GM rules at the table: the ``what`` (condition, stat,
    track, pool, clock, or a ruleset's own kind) named ``key`` of ``who`` (an actor id, or
    "campaign") is set to ``value`` (it was ``was``); ``text`` says it in words. It triggers
    nothing else (no full track, no doom)."""

    ACTORS: ClassVar[tuple[str, ...]] = ("who",)

    who: str
    what: str
    key: str
    value: int
    was: int
    text: str = ""
    reason: str = ""


@edit_applier("condition")
def _edit_condition(state: CampaignState, ev: Edited) -> None:
    if ev.value:
        condition_marked(state, ConditionMarked(who=ev.who, condition=ev.key))
    else:
        condition_cleared(state, ConditionCleared(who=ev.who, condition=ev.key))


@edit_applier("stat")
def _edit_stat(state: CampaignState, ev: Edited) -> None:
    state.actor(ev.who).stats[ev.key] = ev.value


@edit_applier("track")
def _edit_track(state: CampaignState, ev: Edited) -> None:
    state.actor(ev.who).tracks[ev.key] = ev.value


@edit_applier("pool")
def _edit_pool(state: CampaignState, ev: Edited) -> None:
    state.pools[ev.key] = ev.value


@edit_applier("clock")
def _edit_clock(state: CampaignState, ev: Edited) -> None:
    state.threats[ev.key].clock = ev.value


__all__ = ["Edited"]
