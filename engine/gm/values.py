"""What the GM's tools give a front end: typed, frozen values (the oracle's likelihoods, the
GM's tables, a proposed scene)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class OracleLevel:
    """One likelihood the oracle takes."""

    id: str
    """Its id (what ``ask_oracle`` takes as ``likelihood``)."""
    name: str
    """Its name ("Likely")."""
    chance: int
    """Its base chance of a yes, in percent, before the tension shifts it."""
    odds: Mapping[str, str] = field(default_factory=dict)
    """The exact chance of each answer at the current tension (answer -> "56.0%")."""


@dataclass(frozen=True, slots=True)
class GMTable:
    """One of the pack's tables, as the GM's tools list it."""

    id: str
    """Its id (what ``roll_table`` takes)."""
    name: str
    """Its name."""
    sides: int
    """The die that reads it by hand: d<its total weight>."""
    entries: int
    """How many entries it has."""


@dataclass(frozen=True, slots=True)
class SceneProposal:
    """The GM's proposal for the next scene (``start_scene`` takes its parts)."""

    title: str
    """The scene's title."""
    location: str
    """Where it happens."""
    stakes: str
    """What is at stake."""
    present: tuple[str, ...] = ()
    """The ids of the NPCs proposed to be there."""
    opening: str = ""
    """The opening narration."""
    reroll: int = 0
    """Which proposal this is (0 the first; ``propose_scene(reroll=n)`` asks for another)."""
    place_roll: int | None = None
    """The player's own roll on the table of places, if they gave one."""
    test: str = ""
    """The scene test that tried it: the d10 against the tension, the outcome (as expected,
    altered or interrupted) and the odds of each."""
