"""City of Whispers events: the only writers of the hero's sheet and of the factions."""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from engine.rules import events as ev
from engine.rules.registry import Registry
from engine.rules.state import HERO, CampaignState

CITY_REGISTRY = Registry("city_of_whispers", ev.CORE)
"""City of Whispers's events, rule effects and journal lines."""


@CITY_REGISTRY.event
@dataclass(frozen=True, slots=True)
class CitySheetChanged(ev.Event):
    """A part of the hero's sheet (``hero.data[key]``) changed; ``text`` is the journal line."""

    ACTORS: ClassVar[tuple[str, ...]] = ("who",)
    OPTIONAL: ClassVar[tuple[str, ...]] = ("who",)

    key: str
    value: Any
    text: str = ""
    who: str = HERO
    """Whose sheet (format 3; older logs: the hero acting then)."""


@CITY_REGISTRY.applier("CitySheetChanged")
def _apply_sheet(state: CampaignState, e: CitySheetChanged) -> None:
    data = state.actor(e.who).data
    if e.value is None:
        data.pop(e.key, None)
    else:
        data[e.key] = copy.deepcopy(e.value)


@CITY_REGISTRY.event
@dataclass(frozen=True, slots=True)
class CityFactionChanged(ev.Event):
    """A faction was founded or changed (``value`` None: removed); ``text`` for the journal."""

    faction: str
    value: dict[str, Any] | None
    text: str = ""


@CITY_REGISTRY.applier("CityFactionChanged")
def _apply_faction(state: CampaignState, e: CityFactionChanged) -> None:
    factions = dict(state.data.get("factions", {}))
    if e.value is None:
        factions.pop(e.faction, None)
    else:
        factions[e.faction] = copy.deepcopy(e.value)
    state.data["factions"] = factions


@CITY_REGISTRY.journal_line("CitySheetChanged", "CityFactionChanged")
def city_line(e: dict[str, Any], who: Callable[[str], str]) -> str | None:
    """The sheet's and the factions' changes: their own words, made when they happened."""
    return f"✎ {e['text']}" if e.get("text") else None
