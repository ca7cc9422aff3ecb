"""City of Whispers: its ruleset (``CityRules``), events, and the typed sheet and factions.

- ``data``: what content says a game starts with (``system.yaml`` ``data``, archetypes)
- ``sheet``: the hero's sheet in ``hero.data``, as typed models
- ``factions_model``: the factions in ``state.data["factions"]``, as typed models
- ``events``: the two events that write them
- ``common``: constants and the shared reading of the state (``CityBase``)
- ``declarations``: what may be declared before a roll, and advantage and disadvantage
- ``rolls``: the game's own stats and modifiers, and the dice-face rule after a roll
- ``tiers``: a History, a Demand or assets after a roll (tier bumps, +1 each)
- ``heat``, ``beliefs``, ``ties``, ``schemes``: the rule effects of Heat and assets, beliefs,
  Ties and their secrets, schemes
- ``city``: questions, connections, Demands and power
- ``factions``: the faction moves' rule effects
- ``rules``: ``CityRules``, the ruleset, built on all of them (its hooks, rule effect dispatch)
- ``view``: the sheet sections the app draws
"""

from __future__ import annotations

from engine.systems.city_of_whispers.data import FactionStart, HeroStart, SystemData, TieStart
from engine.systems.city_of_whispers.events import CityFactionChanged, CitySheetChanged
from engine.systems.city_of_whispers.factions_model import Faction, Project
from engine.systems.city_of_whispers.rules import CityRules
from engine.systems.city_of_whispers.sheet import Belief, CitySheet, Demand, History, Scheme, Tie

__all__ = [
    "Belief",
    "CityFactionChanged",
    "CityRules",
    "CitySheet",
    "CitySheetChanged",
    "Demand",
    "Faction",
    "FactionStart",
    "HeroStart",
    "History",
    "Project",
    "Scheme",
    "SystemData",
    "Tie",
    "TieStart",
]
