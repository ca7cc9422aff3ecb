"""Masks: A New Generation: its ruleset (``MasksRules``) and the hero's sheet.

- ``rules``: ``MasksRules``, Influence, Team and the label shifts
- ``sheet``: the sheet sections the app draws
"""

from __future__ import annotations

from engine.systems.masks.rules import InfluenceChanged, MasksRules

__all__ = ["InfluenceChanged", "MasksRules"]
