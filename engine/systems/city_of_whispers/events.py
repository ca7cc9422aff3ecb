"""City of Whispers events: the only writers of the hero's sheet and of the factions."""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from engine.rules import events as ev
from engine.rules.state import CampaignState


@ev.event
@dataclass(frozen=True, slots=True)
class CitySheetChanged(ev.Event):
    """A part of the hero's sheet (``hero.data[key]``) changed; ``text`` is the journal line."""

    key: str
    value: Any
    text: str = ""


@ev.applier("CitySheetChanged")
def _apply_sheet(state: CampaignState, e: CitySheetChanged) -> None:
    if e.value is None:
        state.hero.data.pop(e.key, None)
    else:
        state.hero.data[e.key] = copy.deepcopy(e.value)


@ev.event
@dataclass(frozen=True, slots=True)
class CityFactionChanged(ev.Event):
    """A faction was founded or changed (``value`` None: removed); ``text`` for the journal."""

    faction: str
    value: dict[str, Any] | None
    text: str = ""


@ev.applier("CityFactionChanged")
def _apply_faction(state: CampaignState, e: CityFactionChanged) -> None:
    factions = dict(state.data.get("factions", {}))
    if e.value is None:
        factions.pop(e.faction, None)
    else:
        factions[e.faction] = copy.deepcopy(e.value)
    state.data["factions"] = factions
