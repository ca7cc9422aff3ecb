"""The oracle: yes/no questions at a chosen likelihood, with exceptional answers and twists.

One d100 from the campaign's dice answers a question. With a chance of yes ``c`` (from the
likelihood level):

- roll <= c: yes; roll <= ceil(c / 5): **exceptional yes**;
- roll > c: no; roll > 100 - ceil((100 - c) / 5): **exceptional no**;
- a double (11, 22, ... 99) whose digit is at most the tension: a **random event** happens
  as well (a twist), so high tension means more surprises.

Every probability is exact (the 100 faces are enumerated) and is shown with the answer.
"""

from __future__ import annotations

import itertools
import math
import random
from dataclasses import dataclass
from fractions import Fraction

from engine.content import schema as s
from engine.content.loader import Pack

TENSION_MIN, TENSION_MAX = 1, 9

_CUMULATIVE: dict[int, tuple[list[s.TableEntry], list[float]]] = {}


def weighted_entry(rng: random.Random, entries: list[s.TableEntry]) -> s.TableEntry:
    """One of ``entries`` drawn by weight: exactly ``rng.choices(entries, weights=...)``, with
    the running sums of a loaded table's weights made once (its entries never change)."""
    hit = _CUMULATIVE.get(id(entries))
    if hit is None or hit[0] is not entries:
        hit = (entries, list(itertools.accumulate(e.weight for e in entries)))
        if len(_CUMULATIVE) < 4096:
            _CUMULATIVE[id(entries)] = hit
    return rng.choices(entries, cum_weights=hit[1], k=1)[0]

DEFAULT_LEVELS = [
    s.OracleLevel(id="impossible", name="Nearly impossible", chance=5),
    s.OracleLevel(id="very_unlikely", name="Very unlikely", chance=15),
    s.OracleLevel(id="unlikely", name="Unlikely", chance=30),
    s.OracleLevel(id="even", name="50/50", chance=50),
    s.OracleLevel(id="likely", name="Likely", chance=70),
    s.OracleLevel(id="very_likely", name="Very likely", chance=85),
    s.OracleLevel(id="certain", name="Nearly certain", chance=95),
]

DEFAULT_EVENTS = [
    s.TableEntry(text="A threat makes its move", weight=3),
    s.TableEntry(text="Someone in the scene acts on their own", weight=3),
    s.TableEntry(text="A new face arrives", weight=2),
    s.TableEntry(text="An open thread comes back", weight=3),
    s.TableEntry(text="Something goes wrong for the hero", weight=2),
    s.TableEntry(text="Something goes unexpectedly right", weight=1),
    s.TableEntry(text="The place itself changes", weight=2),
]


def levels(pack: Pack) -> list[s.OracleLevel]:
    """The pack's likelihood levels, or the default seven."""
    return list(pack.gm.oracle) or DEFAULT_LEVELS


def level(pack: Pack, level_id: str) -> s.OracleLevel:
    """A likelihood level by id."""
    for lv in levels(pack):
        if lv.id == level_id:
            return lv
    raise KeyError(level_id)


@dataclass(frozen=True)
class Reading:
    """What one d100 means at a chance and tension."""

    answer: str  # "yes" | "no"
    exceptional: bool
    event: bool


def read(roll: int, chance: int, tension: int) -> Reading:
    """The answer a d100 ``roll`` gives at ``chance`` of yes and ``tension``."""
    yes = roll <= chance
    if yes:
        exceptional = roll <= math.ceil(chance / 5)
    else:
        exceptional = roll > 100 - math.ceil((100 - chance) / 5)
    double = roll % 11 == 0 and roll < 100
    event = double and roll // 11 <= tension
    return Reading("yes" if yes else "no", exceptional, event)


def probabilities(chance: int, tension: int) -> dict[str, Fraction]:
    """Exact probability of each answer and of a twist, by enumerating the d100."""
    counts = {"exceptional yes": 0, "yes": 0, "no": 0, "exceptional no": 0, "twist": 0}
    for roll in range(1, 101):
        r = read(roll, chance, tension)
        key = ("exceptional " if r.exceptional else "") + r.answer
        counts[key] += 1
        if r.event:
            counts["twist"] += 1
    return {k: Fraction(v, 100) for k, v in counts.items()}


def clamp_tension(value: int) -> int:
    """Tension stays within 1..9."""
    return max(TENSION_MIN, min(TENSION_MAX, value))


def event_focus(pack: Pack) -> list[s.TableEntry]:
    """What a random event can focus on."""
    return list(pack.gm.random_events) or DEFAULT_EVENTS
