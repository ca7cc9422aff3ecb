"""Initiative: d20 + initiative bonus, highest first; ties by Dodge, Agility, Awareness, then a
roll-off (RULES.md D.2).

The roll-off dice are passed in (one or more per entry, compared in order, so a tied roll-off is
settled by the next die). Entries still tied after everything keep the order they were given in
and are reported by ``unresolved_ties`` so the caller can roll them off.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class InitiativeEntry:
    """One character's (or one minion group's) initiative check and its tie-breakers."""

    id: str
    natural: int
    bonus: int
    dodge: int
    agility: int
    awareness: int
    rolloff: tuple[int, ...] = ()

    @property
    def total(self) -> int:
        """The initiative result: d20 + initiative bonus."""
        return self.natural + self.bonus

    @property
    def tiebreak(self) -> tuple[int, ...]:
        """Dodge, Agility, Awareness, then the roll-off dice: the encounter's tie-break tuple."""
        return (self.dodge, self.agility, self.awareness, *self.rolloff)

    def key(self) -> tuple[int, int, int, int, tuple[int, ...]]:
        """The sort key, larger first: result, Dodge, Agility, Awareness, roll-off dice."""
        return (self.total, self.dodge, self.agility, self.awareness, self.rolloff)


def initiative_bonus(agility: int, extra: int = 0) -> int:
    """Base initiative is the Agility rank, plus advantages or powers (``extra``)."""
    return agility + extra


def order(entries: Iterable[InitiativeEntry]) -> list[InitiativeEntry]:
    """The entries in turn order, highest first; full ties keep their given order."""
    return sorted(entries, key=InitiativeEntry.key, reverse=True)


def join(current: Sequence[InitiativeEntry], newcomer: InitiativeEntry) -> list[InitiativeEntry]:
    """A late joiner takes its place in an existing order (after anyone it ties with fully)."""
    out = list(current)
    at = len(out)
    for i, entry in enumerate(out):
        if newcomer.key() > entry.key():
            at = i
            break
    out.insert(at, newcomer)
    return out


def unresolved_ties(entries: Iterable[InitiativeEntry]) -> list[list[str]]:
    """Groups of ids still tied after every tie-breaker and the roll-off dice given."""
    groups: dict[tuple[int, int, int, int, tuple[int, ...]], list[str]] = {}
    for entry in order(entries):
        groups.setdefault(entry.key(), []).append(entry.id)
    return [ids for ids in groups.values() if len(ids) > 1]
