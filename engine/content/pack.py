"""A validated game system, as play sees it: the ``Pack``."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from engine.content import schema as s
from engine.dice import DiceSpec


@dataclass
class Pack:
    """A validated game system: its definition, moves, GM moves and tables."""

    path: Path
    system: s.System
    moves: dict[str, s.Move]
    gm_moves: list[s.GMMoveDef] = field(default_factory=list)
    tables: dict[str, s.Table] = field(default_factory=dict)
    gm: s.GMPack = field(default_factory=s.GMPack)
    narration: s.NarrationPack = field(default_factory=s.NarrationPack)
    examples: dict[str, list[str]] = field(default_factory=dict)
    """``examples.yaml``: move id (or ``none``) -> example fictions for move detection."""

    def examples_of(self, move_id: str) -> list[str]:
        """A move's example fictions: its own ``examples`` and those in ``examples.yaml``."""
        move = self.moves.get(move_id)
        return [*(move.examples if move else ()), *self.examples.get(move_id, ())]

    @property
    def id(self) -> str:
        """The system id."""
        return self.system.id

    @cached_property
    def stats(self) -> dict[str, s.StatDef]:
        """Stats by id, in content order."""
        return {x.id: x for x in self.system.stats}

    @cached_property
    def conditions(self) -> dict[str, s.ConditionDef]:
        """Conditions by id, in content order."""
        return {x.id: x for x in self.system.conditions}

    @cached_property
    def tracks(self) -> dict[str, s.TrackDef]:
        """Tracks by id."""
        return {x.id: x for x in self.system.tracks}

    @cached_property
    def archetypes(self) -> dict[str, s.Archetype]:
        """Archetypes by id."""
        return {x.id: x for x in self.system.archetypes}

    @cached_property
    def default_dice(self) -> DiceSpec:
        """The system's usual dice."""
        return DiceSpec.parse(self.system.dice)

    def dice_for(self, move: s.Move) -> DiceSpec:
        """The dice a move rolls."""
        assert move.roll is not None
        return DiceSpec.parse(move.roll.dice) if move.roll.dice else self.default_dice

    def bands_for(self, move: s.Move) -> list[s.Band]:
        """The band set a move resolves against."""
        assert move.roll is not None
        return self.system.bands[move.roll.bands]

    def move(self, move_id: str) -> s.Move:
        """A move by id; ``KeyError`` if unknown."""
        return self.moves[move_id]
