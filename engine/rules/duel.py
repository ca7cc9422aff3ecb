"""The seam between the lab and a game's fast duel: what one fight of two sides gives back.

A ruleset whose fights can be played without the ``Game`` machinery (M&M) answers
``Ruleset.duels()`` with a ``Duels``; the lab plays duels and skirmishes through it, and falls
back to whole games through ``Game`` when it answers ``None`` or a side needs what the fast
path does not play.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal, Protocol

Ending = Literal["knocked_out", "fled", "surrendered", "stalemate"]
"""How a fight ended: the losing side all out of the fight (incapacitated, dying, dead,
neutralised), one that fled, one that surrendered, or neither side able to finish the other
in the round limit."""

Winner = Literal["A", "B", "nobody"]


@dataclass(frozen=True, slots=True)
class DuelRecord:
    """One fight between side A and side B."""

    winner: Winner
    ending: Ending
    rounds: int
    """Rounds begun (the round the fight ended in counts)."""
    turns: int
    """Turns taken by every combatant together."""
    first: Literal["A", "B"]
    """The side whose combatant took the first turn of round 1."""


class Duels(Protocol):
    """A game's fast duels: fights only, both sides played by the same policy."""

    def supports(self, a: Sequence[Mapping[str, Any]], b: Sequence[Mapping[str, Any]]
                 ) -> str | None:
        """None when these stat blocks can be played here, else why not (in words)."""
        ...

    def play(self, a: Sequence[Mapping[str, Any]], b: Sequence[Mapping[str, Any]],
             seed: int, policy: str) -> DuelRecord:
        """One fight of side A's stat blocks against side B's, seeded."""
        ...

    def exact(self, a: Mapping[str, Any], b: Mapping[str, Any], policy: str
              ) -> Mapping[Winner, Fraction] | None:
        """The exact chance of each winner of a one-on-one duel (a Markov chain over the
        damage states, the dice enumerated by the rules' own check functions; a game may
        carry the chances through the rounds in floating point and give Fractions of them),
        or None when the duel is too large to enumerate."""
        ...
