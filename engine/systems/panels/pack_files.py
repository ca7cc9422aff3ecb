"""The files the panels game's rules add to a pack, as models: ``actions.yaml`` (the words of
the fight actions and responses), ``characters.yaml`` (ready-made stat blocks) and
``crits.yaml`` (the words of the critical hit and miss tables).

``sidekick validate`` checks each file against its model (unknown keys, missing keys, wrong
types, each named by file, line and key); ``sidekick schema`` publishes them as
``panels-actions.schema.json``, ``panels-characters.schema.json`` and
``panels-crits.schema.json``. Which ids ``actions.yaml`` may name are the fight engine's
(``word_ids``, read from ``PanelsConflict``'s action table), what each costs is its rule's, and
the crit entries are ``crits.py``'s tables: ``PanelsRules.check_content`` checks them.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from engine.content.schema import Id, Model, Phrase
from engine.rules.fight.conflict import ACTIONS_FILE
from engine.systems.panels.crits import Effect
from engine.systems.panels.fight import PanelsConflict
from engine.systems.panels.statblock import Character
from engine.systems.panels.step import CHARACTERS_FILE

CRITS_FILE = "crits.yaml"

RESPONSES = ("dodge", "parry")
"""The responses to a hit (fight.py's response_options), words kept in actions.yaml."""


def word_ids() -> list[str]:
    """The ids ``actions.yaml`` may name: the fight engine's actions (under the id the pack
    keeps their words by) and the responses."""
    conflict = PanelsConflict
    return sorted({*(conflict.word_aliases.get(a, a) for a in conflict.actions.ids()),
                   *RESPONSES})


def _known(schema: dict[str, Any]) -> None:
    """Lists the ids the rules know in the published schema, so an editor offers them."""
    schema["propertyNames"] = {"enum": word_ids()}


class ActionWords(Model):
    """A fight action's words: its name, its cost in panels, whether it is taken on one's own
    turn or is a response to a hit, a one-line summary and example fictions."""

    name: Phrase = Field(min_length=1)
    cost: int = Field(ge=0, strict=True, description="Panels spent on one's own turn (a"
                      " response: what it takes against a significant attacker);"
                      " `sidekick validate` checks it is what the rules charge.")
    kind: Literal["action", "response"] = "action"
    summary: Phrase = ""
    examples: list[Phrase] = Field(default_factory=list)


class ActionsFile(Model):
    """The actions.yaml of a panels pack: the words of the fight actions and responses, by
    the ids of the fight engine. An action it leaves out is named by its id."""

    actions: dict[Id, ActionWords] = Field(json_schema_extra=_known)


class CharactersFile(Model):
    """The characters.yaml of a panels pack: ready-made stat blocks (heroes, villains, thugs,
    thug groups); a block's id is its name in lower case with _ between words.
    `sidekick validate` also checks each block against the builder's limits."""

    characters: list[Character]


class CritWords(Model):
    """One entry of a d6 crit table: its face, name and effect (as crits.py's table has
    them) and what happens, in the fiction."""

    id: Id
    d6: int = Field(ge=1, le=6, strict=True)
    name: str = Field(min_length=1)
    effect: Effect
    text: str = Field(min_length=1)


class CritsFile(Model):
    """The crits.yaml of a panels pack: the words of the critical hit table (a natural 20 on
    an attack) and the critical miss table (a natural 1)."""

    critical_hit: list[CritWords] = Field(min_length=6, max_length=6,
                                          description="A d6 table: one entry per face.")
    critical_miss: list[CritWords] = Field(min_length=6, max_length=6,
                                           description="A d6 table: one entry per face.")


FILES: dict[str, type[BaseModel]] = {ACTIONS_FILE: ActionsFile, CHARACTERS_FILE: CharactersFile,
                                     CRITS_FILE: CritsFile}
"""The files the panels game adds to a pack (``PanelsRules.CONTENT_FILES``)."""


__all__ = ["CRITS_FILE", "FILES", "RESPONSES", "ActionWords", "ActionsFile", "CharactersFile",
           "CritWords", "CritsFile", "word_ids"]

