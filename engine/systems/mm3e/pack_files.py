"""The files the Mutants & Masterminds rules add to a pack, as models: ``actions.yaml`` (the
words of the fight actions and maneuvers) and ``characters.yaml`` (ready-made stat blocks).

``sidekick validate`` checks each file against its model (unknown keys, missing keys, wrong
types, each named by file, line and key); ``sidekick schema`` publishes them as
``mm3e-actions.schema.json`` and ``mm3e-characters.schema.json``. Which ids ``actions.yaml``
may name are the fight engine's (``word_ids``, read from ``MM3EConflict``'s action table), and
what each action costs is its rule's: ``MM3ERules.check_content`` checks both.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from pydantic import BaseModel, Field

from engine.content.schema import Id, Model, Phrase
from engine.rules.fight.conflict import ACTIONS_FILE
from engine.systems.mm3e.fight import MM3EConflict
from engine.systems.mm3e.roster import CHARACTERS_FILE
from engine.systems.mm3e.statblock import StatBlock

Cost = Literal["standard", "move", "free", "reaction", "none"]
"""What an M&M action takes from a turn (D.2): a standard, a move or a free action, a reaction
off-turn, or nothing (delay, surrender, ending the turn)."""


def word_ids() -> dict[str, list[str]]:
    """The ids each section of ``actions.yaml`` may name: the fight engine's actions (its
    internal steps, such as a readied action's firing, are never named) and maneuvers."""
    conflict = MM3EConflict
    return {"actions": sorted(conflict.word_aliases.get(a, a) for a in conflict.actions.ids()),
            **{f"{kind}s": sorted(ids) for kind, ids in conflict.word_groups}}


def _known(section: str) -> Callable[[dict[str, Any]], None]:
    """Lists the ids the rules know in the published schema, so an editor offers them."""

    def extra(schema: dict[str, Any]) -> None:
        schema["propertyNames"] = {"enum": word_ids()[section]}

    return extra


class ActionWords(Model):
    """A fight action's words: its name, what it costs, a one-line summary and example
    fictions that detect it inside a fight."""

    name: Phrase = Field(min_length=1)
    cost: Cost = Field(description="What it takes from a turn; `sidekick validate` checks it is"
                       " what the rules charge.")
    summary: Phrase = ""
    examples: list[Phrase] = Field(default_factory=list)


class ManeuverWords(Model):
    """A maneuver's words (declared with an attack; no examples of its own): its name, a
    one-line summary, and cues, the words a player says for it (found word for word, so the
    attack suggested is declared with it)."""

    name: Phrase = Field(min_length=1)
    summary: Phrase = ""
    cues: list[Phrase] = Field(default_factory=list)


class ActionsFile(Model):
    """The actions.yaml of a Mutants & Masterminds pack: the words of the fight actions and
    maneuvers, by the ids of the fight engine. An action it leaves out is named by its id."""

    actions: dict[Id, ActionWords] = Field(default_factory=dict,
                                           json_schema_extra=_known("actions"))
    maneuvers: dict[Id, ManeuverWords] = Field(default_factory=dict,
                                               json_schema_extra=_known("maneuvers"))


class CharactersFile(Model):
    """The characters.yaml of a Mutants & Masterminds pack: ready-made stat blocks (heroes,
    villains, minion groups); a block's id is its name in lower case with _ between words.
    `sidekick validate` also checks each block against its power level."""

    characters: list[StatBlock]


FILES: dict[str, type[BaseModel]] = {ACTIONS_FILE: ActionsFile, CHARACTERS_FILE: CharactersFile}
"""The files M&M adds to a pack (``MM3ERules.CONTENT_FILES``)."""


__all__ = ["FILES", "ActionWords", "ActionsFile", "CharactersFile", "Cost", "ManeuverWords",
           "word_ids"]
