"""The panels game's registry: its events, rule effects and journal lines over the fight
engine's, and its own event: Kill and Stun set (``TracksSet``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine.rules.events import Event
from engine.rules.fight.events import FIGHT, fight_line
from engine.rules.registry import Registry
from engine.rules.state import CampaignState

PANELS = Registry("panels", FIGHT)
"""What the panels game declares."""


@PANELS.event
@dataclass(frozen=True, slots=True)
class TracksSet(Event):
    """A character's Kill and Stun (and what they mean) after a hit, a rest or first aid."""

    actor: str
    tracks: dict[str, int] = field(default_factory=dict)
    conditions: list[str] = field(default_factory=list)
    why: str = ""


@PANELS.applier("TracksSet")
def _tracks_set(state: CampaignState, ev: TracksSet) -> None:
    actor = state.actors[ev.actor]
    actor.tracks.update(ev.tracks)
    actor.conditions = list(ev.conditions)


@PANELS.journal_line("TracksSet")
def tracks_line(e: dict[str, Any], who: Callable[[str], str]) -> str | None:
    """``TracksSet``: Kill and Stun after a hit, a rest or first aid, with its why."""
    return f"→ {e.get('why') or who(e['actor']) + ': Kill and Stun set'}."


@PANELS.journal_line("InitiativeRolled")
def initiative_line(e: dict[str, Any], who: Callable[[str], str]) -> str | None:
    """Side initiative: each side's d6, who goes first, the panels."""
    rolls: list[dict[str, Any]] = e["rolls"]
    if not rolls or "panels" not in rolls[0]:
        return fight_line(e, who)
    dice = " · ".join(f"{r['name']} {r['natural']}" + (" (your die)" if r.get("by") ==
                                                       "entered" else "") for r in rolls)
    panels = int(rolls[0]["panels"])
    each = f"{panels} panel{'s' * (panels != 1)} each"
    if any(r.get("simultaneous") for r in rolls):
        return f"Initiative (d6 a side): {dice}. A tie: {each}, in one Agility order."
    first = next((r["name"] for r in rolls if r.get("first")), rolls[0]["name"])
    return f"Initiative (d6 a side): {dice}. {first} act first; {each}."


__all__ = ["PANELS", "TracksSet", "initiative_line", "tracks_line"]
