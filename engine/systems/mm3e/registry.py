"""The M&M 3e registry: its events, rule effects and journal lines, over the fight
engine's; and M&M's own events (conditions and damage, hero points)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.rules.events import Event
from engine.rules.fight.events import FIGHT
from engine.rules.registry import Registry
from engine.rules.state import CampaignState
from engine.rules.text import upper_first

MM3E = Registry("mm3e", FIGHT)
"""What the M&M ruleset declares."""

# ------------------------------------------------------------------ M&M's own events


@MM3E.event
@dataclass(frozen=True, slots=True)
class CombatantChanged(Event):
    """A character's conditions and damage penalty after a hit, a recovery or a maneuver."""

    actor: str
    conditions: list[str]
    damage: int
    why: str = ""


@MM3E.applier("CombatantChanged")
def _changed(state: CampaignState, ev: CombatantChanged) -> None:
    actor = state.actors[ev.actor]
    actor.conditions = list(ev.conditions)
    actor.tracks["damage"] = ev.damage
    actor.taken_out = False


@MM3E.event
@dataclass(frozen=True, slots=True)
class HeroPointSpent(Event):
    """A hero point spent (and why)."""

    actor: str
    why: str


@MM3E.applier("HeroPointSpent")
def _hero_point(state: CampaignState, ev: HeroPointSpent) -> None:
    actor = state.actors[ev.actor]
    actor.tracks["hero_points"] = max(0, actor.tracks.get("hero_points", 0) - 1)




@MM3E.journal_line("CombatantChanged", tone="change")
def _changed_line(e: dict[str, Any], who: Callable[[str], str]) -> str | None:
    return f"→ {upper_first(e['why'])}." if e.get("why") else None


@MM3E.journal_line("HeroPointSpent")
def _hero_point_line(e: dict[str, Any], who: Callable[[str], str]) -> str | None:
    return f"★ {who(e['actor'])} spends a hero point: {e['why']}"


__all__ = ["MM3E", "CombatantChanged", "HeroPointSpent"]
