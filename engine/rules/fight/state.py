"""A fight as a typed part of the campaign state: the encounter, who controls whom, the
action pending and what it waits for, and what the game keeps.

Nothing here imports the campaign state (``engine.rules.state`` holds a ``Fight``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, Protocol

from pydantic import ConfigDict, Field, model_validator

from engine.rules.encounter import MM3E_BUDGET, PANELS_BUDGET, BudgetSpec, Compact, Encounter
from engine.rules.fight.positions import Positions

Control = Literal["player", "referee"]
"""Who plays a character in a fight."""


class _Who(Protocol):
    """A character as far as control goes (an ``Actor``)."""

    @property
    def id(self) -> str: ...

    @property
    def kind(self) -> str: ...


class _Model(Compact):
    model_config = ConfigDict(extra="forbid")


class Pending(_Model):
    """An action declared and not yet resolved: who does what to whom, and the dice so far."""

    actor: str
    action: str
    target: str | None = None
    attack: str | None = None
    maneuvers: dict[str, int] = Field(default_factory=dict)
    options: dict[str, Any] = Field(default_factory=dict)
    team: list[str] = Field(default_factory=list)
    why: str = ""
    by: Control = "player"
    dice: list[int] = Field(default_factory=list, description="Dice entered so far (physical).")
    choices: list[str] = Field(default_factory=list,
                               description="The player's answers so far to what the step asked"
                               " (a response to a hit, a critical's effect...).")
    fiction: str = Field("", description="What the player said the character does.")
    told: list[str] = Field(default_factory=list,
                            description="What the player said with each answer in ``choices``"
                            " (told in the journal where the answer is used).")


class Need(_Model):
    """What a pending step waits for: a physical die, or the player's choice."""

    kind: Literal["die", "choice"] = "die"
    who: str = Field(description="The name of the character it is for.")
    actor: str = Field("", description="The id of the character a choice (or a die) is for.")
    what: str = Field("", description="What the die is rolled for.")
    sides: int = 20
    odds: str = Field("", description="The odds of the roll, in words.")
    question: str = ""
    about: str = Field("", description="What a choice is about: \"response\" (a hit to"
                       " answer), \"critical\" (a critical hit's effect), \"\" (anything"
                       " else).")
    options: list[dict[str, Any]] = Field(default_factory=list,
                                          description="A choice's options, as"
                                          " ``values.FightChoice.to_dict`` keeps them.")

    def as_dict(self) -> dict[str, Any]:
        """The shape front ends read (``Game.fight_need``)."""
        if self.kind == "choice":
            return {"kind": "choice", "actor": self.actor, "who": self.who,
                    "question": self.question, "options": [dict(o) for o in self.options]}
        return {"who": self.who, "what": self.what, "sides": self.sides, "odds": self.odds}


class Fight(_Model):
    """A fight under way: the encounter, who controls whom, and what each side kept."""

    encounter: Encounter
    spec: BudgetSpec = Field(default_factory=BudgetSpec,
                             description="What a turn allows (the game's); the encounter's"
                             " transitions read it.")
    control: dict[str, Control] = Field(default_factory=dict,
                                        description="Actor -> who plays it; unset: heroes by the"
                                        " player, everyone else by the referee.")
    referee_dice: Literal["seeded", "physical"] = "seeded"
    pending: Pending | None = None
    need: Need | None = Field(None, description="What the pending step waits for.")
    out: dict[str, str] = Field(default_factory=dict,
                                description="Who left the fight and how (fled, surrendered).")
    recovered: list[str] = Field(default_factory=list, description="Used Recover this fight.")
    holds: dict[str, dict[str, int | str]] = Field(
        default_factory=dict, description="Grabs: held actor -> {by, strength, degrees}.")
    positions: Positions = Field(default_factory=Positions,
                                 description="The bands between combatants (positions.py);"
                                 " a fight saved before positions has everyone close.")
    data: dict[str, Any] = Field(default_factory=dict, description="What the game keeps.")

    @model_validator(mode="before")
    @classmethod
    def _migrate(cls, data: Any) -> Any:
        return migrate_fight(data)

    def controller(self, actor: _Who) -> Control:
        """Who plays ``actor``."""
        if actor.id in self.control:
            return self.control[actor.id]
        return "player" if actor.kind == "hero" else "referee"

    def delayed_by_player(self, actors: Mapping[str, _Who]) -> list[str]:
        """The characters the player plays who hold a delayed turn (M&M), in the encounter's
        list (``actors``: the campaign's)."""
        return [p.actor for p in self.encounter.participants if p.held == "delay"
                and p.actor in actors and self.controller(actors[p.actor]) == "player"]


def migrate_fight(raw: Any) -> Any:
    """A fight saved by an older Sidekick (in ``state.data["fight"]`` or a ``FightStarted`` /
    ``FightUpdated`` event) in today's shape: the unused ``pace`` dropped, what a step waited
    for moved from ``data["need"]`` to ``need``, and the budget rules (not saved before format
    3) those of the only two games that fought then: side initiative is the panels game's,
    initiative per character M&M's."""
    if not isinstance(raw, dict):
        return raw
    d = {k: v for k, v in raw.items() if k != "pace"}
    data = d.get("data")
    if isinstance(data, dict) and "need" in data:
        need = data["need"]
        d["data"] = {k: v for k, v in data.items() if k != "need"}
        if isinstance(need, dict) and "need" not in d:
            d["need"] = {**need, "kind": need.get("kind", "die")}
    if "spec" not in d:
        enc = d.get("encounter")
        side = isinstance(enc, dict) and enc.get("mode") == "side"
        d["spec"] = (PANELS_BUDGET if side else MM3E_BUDGET).model_dump()
    return d


__all__ = ["Control", "Fight", "Need", "Pending", "migrate_fight"]
