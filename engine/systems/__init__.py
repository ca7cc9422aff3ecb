"""The game systems, each in its own package, and the catalogue that finds their rulesets.

A content pack names its ruleset (``system.yaml`` ``ruleset``); ``ruleset_class`` imports that
system's package and returns its ``Ruleset`` subclass, whose registry then holds every event,
rule effect, fight action and journal line of the system. Nothing above the rules imports a
system's package: they find it here, by name.

- ``masks``: Masks: A New Generation
- ``city_of_whispers``: City of Whispers
- ``mm3e``: Mutants & Masterminds 3e
- ``panels``: the d20 comic-book panels game
"""

from __future__ import annotations

import difflib
import importlib

from engine.content.loader import Pack
from engine.errors import ContentError
from engine.rules.base import Ruleset

RULESETS: dict[str, str] = {
    "generic": "engine.rules.base:Ruleset",
    "masks": "engine.systems.masks:MasksRules",
    "city_of_whispers": "engine.systems.city_of_whispers:CityRules",
    "mm3e": "engine.systems.mm3e.rules:MM3ERules",
    "panels": "engine.systems.panels.rules:PanelsRules",
}
"""Ruleset name -> ``module:class``: the systems Sidekick plays."""


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
    cls.registry.seal()  # its modules are loaded: nothing registers into it from now on
    return cls


def ruleset_for(pack: Pack) -> Ruleset:
    """The ruleset object named by the pack's ``ruleset`` key; ``ContentError`` naming the
    pack when no ruleset has that name (never a silent fallback to the generic rules)."""
    try:
        cls = ruleset_class(pack.system.ruleset)
    except ContentError as e:
        raise ContentError(f"{pack.path / 'system.yaml'}: ruleset: {e}") from None
    return cls(pack)


__all__ = ["RULESETS", "ruleset_class", "ruleset_for", "unknown_ruleset"]
