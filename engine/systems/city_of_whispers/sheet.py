"""Typed models of the City of Whispers hero sheet, as ``hero.data`` stores it.

Saves hold plain dicts: the rules read them with ``CitySheet.read`` (``model_validate``) and
write each part back with ``dump`` (``model_dump``), so the saved format is unchanged. Field
order is the order the dicts have always had in saves.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from engine.rules.state import CampaignState


class Part(BaseModel):
    """A stored part of the sheet: keys it does not know are kept as they are."""

    model_config = ConfigDict(extra="allow", validate_assignment=False)


class Belief(Part):
    """A belief: active, challenged (marked) or proven wrong."""

    id: str
    text: str
    state: Literal["active", "challenged", "wrong"] = "active"


class Tie(Part):
    """A Tie to an NPC and the secret the hero knows about them."""

    name: str
    insight: str
    secret: Literal["intact", "marked", "erased"] = "intact"
    active: bool = True


class History(Part):
    """A History with a neighborhood: marked once recalled."""

    neighborhood: str
    marked: bool = False


class Demand(Part):
    """A Demand the city made of the hero."""

    text: str
    met: bool = False


class Scheme(Part):
    """A running scheme and its Productivity (-3..+3)."""

    id: str
    name: str
    productivity: int = 0


class CitySheet(BaseModel):
    """The City of Whispers part of ``hero.data`` (other keys there are ignored)."""

    model_config = ConfigDict(extra="ignore")

    beliefs: list[Belief] = Field(default_factory=list)
    beliefs_to_write: int = 0
    connections: list[str] = Field(default_factory=list)
    histories: list[History] = Field(default_factory=list)
    demands: list[Demand] = Field(default_factory=list)
    schemes: list[Scheme] = Field(default_factory=list)
    max_complexity: int = 0
    ties: dict[str, Tie] = Field(default_factory=dict)
    ties_to_name: int = 0
    faction: str | None = None
    former_faction: str | None = None
    complexity: int = 0
    revealing: str | None = None
    roll: dict[str, Any] | None = None

    @classmethod
    def read(cls, state: CampaignState) -> CitySheet:
        """A fresh typed copy of the hero's sheet (safe to change before emitting)."""
        return cls.model_validate(state.hero.data)

    def active_ties(self) -> list[str]:
        """NPC ids of the active Ties."""
        return [n for n, t in self.ties.items() if t.active]

    def usable_secrets(self) -> list[str]:
        """NPC ids of active Ties whose secret is intact."""
        return [n for n, t in self.ties.items() if t.active and t.secret == "intact"]

    def belief(self, bid: str) -> Belief | None:
        """The belief with id ``bid``."""
        return next((b for b in self.beliefs if b.id == bid), None)

    def scheme(self, sid: str | None) -> Scheme | None:
        """The scheme with id ``sid``."""
        return next((x for x in self.schemes if x.id == sid), None)


def dump(value: Any) -> Any:
    """The stored (plain JSON) form of a model, or of a list or dict of them."""
    if isinstance(value, BaseModel):
        return value.model_dump()
    if isinstance(value, list):
        return [dump(v) for v in value]
    if isinstance(value, dict):
        return {k: dump(v) for k, v in value.items()}
    return value
