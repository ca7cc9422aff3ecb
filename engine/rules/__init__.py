"""The pure rules core: state, events, effects and one ruleset module per system."""

from __future__ import annotations

import difflib
import importlib

from engine.content.loader import Pack
from engine.errors import ContentError
from engine.rules import conflict as conflict  # registers the fight events
from engine.rules.base import Ruleset

RULESETS: dict[str, str] = {
    "generic": "engine.rules.base:Ruleset",
    "masks": "engine.rules.masks:MasksRules",
    "city_of_whispers": "engine.rules.cow:CityRules",
    "mm3e": "engine.rules.mm3e.rules:MM3ERules",
    "panels": "engine.rules.panels.rules:PanelsRules",
}


def unknown_ruleset(name: str) -> str:
    """Why ``name`` is no ruleset: the known ones, and the closest as a did-you-mean."""
    text = f"unknown ruleset {name!r} (known: {', '.join(sorted(RULESETS))})"
    close = difflib.get_close_matches(name, list(RULESETS), n=1)
    return text + (f"; did you mean {close[0]!r}?" if close else "")


def ruleset_class(name: str) -> type[Ruleset]:
    """The ruleset class registered as ``name``; ``ContentError`` if there is none."""
    spec = RULESETS.get(name)
    if spec is None:
        raise ContentError(unknown_ruleset(name))
    module, _, attr = spec.partition(":")
    cls: type[Ruleset] = getattr(importlib.import_module(module), attr)
    return cls


def ruleset_for(pack: Pack) -> Ruleset:
    """The ruleset object named by the pack's ``ruleset`` key; ``ContentError`` naming the
    pack when no ruleset has that name (never a silent fallback to the generic rules)."""
    try:
        cls = ruleset_class(pack.system.ruleset)
    except ContentError as e:
        raise ContentError(f"{pack.path / 'system.yaml'}: ruleset: {e}") from None
    return cls(pack)
