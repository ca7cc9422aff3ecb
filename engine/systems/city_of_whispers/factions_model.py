"""Typed models of the City of Whispers factions, as ``state.data["factions"]`` stores them."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from engine.rules.state import CampaignState
from engine.systems.city_of_whispers.data import FactionStart


class Project(BaseModel):
    """A faction's project: what it needs, how many resources are secured, how far it is."""

    model_config = ConfigDict(extra="allow")

    name: str
    needs: list[str] = Field(default_factory=list)
    secured: int = 0
    ready: bool = False
    finish_on_resource: bool = False
    done: bool = False


class Faction(BaseModel):
    """A faction: aspects, complicating aspects, the neighborhoods it dominates, projects."""

    model_config = ConfigDict(extra="allow")

    name: str
    aspects: list[str] = Field(default_factory=list)
    complications: list[str] = Field(default_factory=list)
    neighborhoods: list[str] = Field(default_factory=list)
    projects: list[Project] = Field(default_factory=list)
    to_write: int = 0
    magistrate: bool = False
    dispersed: bool = False

    @classmethod
    def start(cls, f: FactionStart) -> Faction:
        """A new faction as content describes it."""
        return cls(name=f.name, aspects=list(f.aspects), complications=list(f.complications),
                   neighborhoods=list(f.neighborhoods), magistrate=f.magistrate)


def read_factions(state: CampaignState) -> dict[str, Faction]:
    """A typed copy of every faction by id."""
    return {fid: Faction.model_validate(v) for fid, v in state.data.get("factions", {}).items()}
