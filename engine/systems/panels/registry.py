"""The panels game registry: its events, rule effects and journal lines, over the fight
engine's."""

from __future__ import annotations

from engine.rules.conflict import FIGHT
from engine.rules.registry import Registry

PANELS = Registry("panels", FIGHT)
"""What the panels game declares."""

__all__ = ["PANELS"]
