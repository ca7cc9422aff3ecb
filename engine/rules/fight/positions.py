"""Where everyone stands in a fight, theatre-of-the-mind style: a distance band between each
two combatants, as many d20 games played without a map keep it.

The bands, nearest first:

- **engaged**: within reach of each other (a close attack lands; melee);
- **close**: not in reach, but one move action away (the usual band);
- **ranged**: across the scene, within the short range of a typical ranged attack;
- **far**: beyond that (a ranged attack is at medium range or worse; two moves, or a run).

Every pair of combatants has a band (the same both ways), kept in ``Positions``: the pairs
that differ from ``usual`` (a fight starts with everyone ``close``: heroes, foes and allies;
an older save without positions reads the same). Moving changes the mover's bands:

- **toward** someone by N bands: its band to them comes N nearer (engaged when it reaches
  them, unless it stops short); its band to each other combatant moves as many bands toward
  the target's band to them (no further), and is never "engaged" unless it was already and
  the target is engaged with them too (one scrum);
- **away** from some by N bands: its band to each of them grows by N (at most far); to
  everyone else it is at least its new band to them less their band to the others (it cannot
  be farther from them than it was, nor nearer than the others' distance allows), and never
  engaged.

A game decides how many bands a move covers (M&M: by speed rank). ``in_area`` answers "who is
in an area?" for area effects: everyone within a band of its centre (engaged or close, by
default), the centre included.

This module is pure: the fight's ``PositionsChanged`` event (events.py) applies the changes.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Literal, Protocol, get_args

from pydantic import ConfigDict, Field

from engine.rules.encounter import Compact, Encounter, ranked

Band = Literal["engaged", "close", "ranged", "far"]
"""How far apart two combatants are."""

BANDS: tuple[Band, ...] = get_args(Band)
"""The bands, nearest first."""

ENGAGED: Band = "engaged"
CLOSE: Band = "close"
RANGED: Band = "ranged"
FAR: Band = "far"

USUAL: Band = CLOSE
"""The band of two combatants nobody has moved (a fight starts with everyone close)."""


def rank(band: Band) -> int:
    """The band's place, nearest first: engaged 0, close 1, ranged 2, far 3."""
    return BANDS.index(band)


def at_rank(n: int) -> Band:
    """The band at place ``n``, clamped to engaged..far."""
    return BANDS[max(0, min(len(BANDS) - 1, n))]


def pair(a: str, b: str) -> str:
    """The key of two combatants' band (the same both ways)."""
    return "|".join(sorted((a, b)))


class Positions(Compact):
    """The bands between combatants: those that differ from ``usual``, by ``pair`` key."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    usual: Band = Field(USUAL, description="The band of any two combatants not in ``bands``.")
    bands: dict[str, Band] = Field(default_factory=dict,
                                   description="``pair(a, b)`` -> their band, where it is not"
                                   " ``usual``.")

    def band(self, a: str, b: str) -> Band:
        """How far apart ``a`` and ``b`` are (engaged with oneself)."""
        if a == b:
            return ENGAGED
        return self.bands.get(pair(a, b), self.usual)

    def changed(self, changes: Mapping[str, Band]) -> Positions:
        """These positions with ``changes`` (pair key -> band) made."""
        bands = dict(self.bands)
        for key, band in changes.items():
            if band == self.usual:
                bands.pop(key, None)
            else:
                bands[key] = band
        return self.model_copy(update={"bands": bands})

    def engaged_with(self, actor: str, others: Iterable[str]) -> list[str]:
        """Those of ``others`` engaged with ``actor``."""
        return [o for o in others if o != actor and self.band(actor, o) == ENGAGED]


def toward(pos: Positions, mover: str, target: str, steps: int, everyone: Sequence[str], *,
           engage: bool = True) -> dict[str, Band]:
    """The bands that change when ``mover`` moves up to ``steps`` bands toward ``target``
    (stopping at close when not ``engage``), by pair key (see the module docstring)."""
    old = rank(pos.band(mover, target))
    floor = 0 if engage else min(old, 1)
    new = max(floor, old - max(steps, 0))
    moved = old - new
    out: dict[str, Band] = {}
    if new != old:
        out[pair(mover, target)] = at_rank(new)
    for other in everyone:
        if other in (mover, target):
            continue
        mine, theirs = rank(pos.band(mover, other)), rank(pos.band(target, other))
        if mine == theirs == new == 0:
            continue  # a scrum it was in: still engaged with them all
        # as many bands toward the target's band to them as it moved, no further; engaged
        # only with whom it moved to
        got = max(theirs, mine - moved) if mine > theirs else min(theirs, mine + moved)
        got = max(got, 1)
        if got != mine:
            out[pair(mover, other)] = at_rank(got)
    return out


def away(pos: Positions, mover: str, from_: Sequence[str], steps: int,
         everyone: Sequence[str]) -> dict[str, Band]:
    """The bands that change when ``mover`` moves ``steps`` bands away from ``from_``, by pair
    key (see the module docstring)."""
    out: dict[str, Band] = {}
    new: dict[str, int] = {}
    for f in from_:
        if f == mover:
            continue
        new[f] = min(len(BANDS) - 1, rank(pos.band(mover, f)) + max(steps, 0))
        if new[f] != rank(pos.band(mover, f)):
            out[pair(mover, f)] = at_rank(new[f])
    for other in everyone:
        if other == mover or other in new:
            continue
        mine = rank(pos.band(mover, other))
        least = max((n - rank(pos.band(f, other)) for f, n in new.items()), default=mine)
        got = max(mine, least, 1 if new else mine)
        if got != mine:
            out[pair(mover, other)] = at_rank(got)
    return out


class Fight(Protocol):
    """A fight as far as positions go (``state.Fight``)."""

    @property
    def encounter(self) -> Encounter: ...

    @property
    def out(self) -> Mapping[str, str]: ...

    @property
    def positions(self) -> Positions: ...


def placing(fight: Fight, sides: Mapping[str, str], band: str, a: str | None = None,
            b: str | None = None) -> dict[str, Band]:
    """The bands to set to put combatants at ``band`` (``ValueError`` for an unknown band or
    combatant): ``a`` and ``b``; ``a`` and everyone on the other side from it; with neither,
    everyone and everyone on the other side (``sides``: each combatant's side)."""
    if band not in BANDS:
        raise ValueError(f"a band is one of {', '.join(BANDS)}, not {band!r}")
    here = [p.actor for p in ranked(fight.encounter.participants) if p.present]
    for x in (a, b):
        if x is not None and x not in here:
            raise ValueError(f"{x!r} is not in the fight")
    if a is not None and b is not None:
        pairs = [(a, b)]
    else:
        firsts = [a] if a is not None else here
        pairs = [(x, y) for x in firsts for y in here if sides.get(x) != sides.get(y)]
    return {pair(x, y): BANDS[BANDS.index(band)] for x, y in pairs if x != y}


def way_of(options: Mapping[str, object], target: str | None) -> tuple[str, object]:
    """Where a move goes, from its options: (whom it goes toward, "" for nobody; what it goes
    away from: an id, True or "foes" for every foe, falsy for nothing). ``toward`` (or the
    target) an id, or ``away`` (an id, True or "foes"); ``way`` as a menu names it (an id:
    toward them, "away": from every foe, "stay": nowhere). ``ValueError`` when it says
    both."""
    where = str(options.get("way") or "")
    to = str(options.get("toward") or (where if where not in ("away", "stay") else "")
             or target or "")
    off = options.get("away") or (where == "away")
    if to and off:
        raise ValueError("move toward someone or away, not both")
    return to, off


def in_area(fight: Fight, centre: str, within: Band = CLOSE) -> list[str]:
    """Who an area centred on ``centre`` covers: every combatant still in the scene (not
    fled or surrendered) whose band from ``centre`` is ``within`` or nearer, ``centre``
    included; in turn order. A burst on a target covers those engaged with or close to it; a
    burst around oneself those engaged with or close to oneself (the game leaves the area's
    maker out when its effect spares it)."""
    limit = rank(within)
    out: list[str] = []
    for p in ranked(fight.encounter.participants):
        if not p.present or p.actor in fight.out:
            continue
        if rank(fight.positions.band(centre, p.actor)) <= limit:
            out.append(p.actor)
    return out


__all__ = ["BANDS", "CLOSE", "ENGAGED", "FAR", "RANGED", "USUAL", "Band", "Positions", "at_rank",
           "away", "in_area", "pair", "placing", "rank", "toward", "way_of"]
