"""The pure rules core: state, events, effects and one ruleset module per system."""

from __future__ import annotations

from engine.content.loader import Pack
from engine.rules.base import Ruleset

RULESETS: dict[str, str] = {
    "generic": "engine.rules.base:Ruleset",
    "masks": "engine.rules.masks:MasksRules",
    "city_of_whispers": "engine.rules.cow:CityRules",
}


def ruleset_for(pack: Pack) -> Ruleset:
    """The ruleset object named by the pack's ``ruleset`` key (generic if unknown)."""
    import importlib

    spec = RULESETS.get(pack.system.ruleset, RULESETS["generic"])
    module, _, name = spec.partition(":")
    cls = getattr(importlib.import_module(module), name)
    rules: Ruleset = cls(pack)
    return rules
