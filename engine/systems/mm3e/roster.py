"""Who has which stat block: the pack's ``characters.yaml`` by id, and an actor's own block.

An actor's ``data["statblock"]`` is either the id of a block in the pack's characters file
(``keystone``) or a whole block as a dict (a custom hero). A hero made from an archetype whose
``data`` names a ``statblock`` uses that block.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engine.content.loader import Pack, read_by_mtime
from engine.errors import ContentError
from engine.rules.state import Actor, new_id
from engine.systems.mm3e.builder import derived
from engine.systems.mm3e.statblock import StatBlock, load_characters

CHARACTERS_FILE = "characters.yaml"


def block_id(name: str) -> str:
    """The id of a block named ``name`` (its words in lower case joined by ``_``)."""
    return new_id(name, ())


def characters(pack: Pack) -> dict[str, StatBlock]:
    """The pack's stat blocks by id (empty when it has no characters file); ``ContentError``
    listing every problem when the file is bad. Read once per version of the file."""
    return read_by_mtime(pack.path / CHARACTERS_FILE, _blocks) or {}


def _blocks(path: Path) -> dict[str, StatBlock]:
    return {block_id(b.name): b for b in load_characters(path)}


def _from_data(pack: Pack, ref: Any, who: str) -> StatBlock:
    if isinstance(ref, str):
        found = characters(pack).get(ref)
        if found is None:
            raise ContentError(f"{who}: no stat block {ref!r} in {pack.path / CHARACTERS_FILE}"
                               f" (it has: {', '.join(sorted(characters(pack))) or 'none'})")
        return found
    if isinstance(ref, StatBlock):
        return ref
    return StatBlock.model_validate(ref)


def block_of(pack: Pack, actor: Actor) -> StatBlock | None:
    """The actor's stat block: its own ``data["statblock"]``, else its archetype's, else (a
    hero made from abilities alone) the builder's derived block; None for an NPC with none (a
    bystander of the story, not a combatant)."""
    ref = actor.data.get("statblock")
    if ref is not None:
        return _from_data(pack, ref, actor.name)
    if actor.archetype and actor.archetype in pack.archetypes:
        ref = pack.archetypes[actor.archetype].data.get("statblock")
        if ref is not None:
            return _from_data(pack, ref, actor.name)
    if actor.kind == "hero" and actor.stats:  # a hero made from abilities alone
        return derived(actor.name, actor.stats)
    return None
