"""What a fight's step rolls with: dice (seeded or entered), the player's choices, the
exceptions that pause a step until a die or a choice comes in, and the ``Rolled`` event that
explains a fight's roll (``fight_roll``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Protocol

from engine.odds import percent
from engine.rules.events import Event, Rolled
from engine.rules.fight.values import FightChoice

SIDE_DIE = "side initiative"
"""What a side's d6 for a new round is rolled for (``Roll``'s ``what``), in a game whose
sides roll initiative each round."""


class NeedDie(Exception):
    """A roll needs a physical die that has not been entered yet (``who``: the name of the
    character it is for; ``actor``: its id)."""

    def __init__(self, who: str, what: str, sides: int = 20, odds: str = "",
                 actor: str = "") -> None:
        super().__init__(f"{who}: roll a d{sides} for {what}")
        self.who, self.what, self.sides, self.odds = who, what, sides, odds
        self.actor = actor


class NeedChoice(Exception):
    """A step needs the player's choice (``options``) for ``who`` (an actor id); ``about``
    says what is asked ("response": a hit to answer; "critical": a critical hit's effect;
    "" : anything else)."""

    def __init__(self, who: str, question: str, options: Sequence[FightChoice],
                 about: str = "") -> None:
        super().__init__(f"{who}: {question}")
        self.who, self.question, self.options = who, question, tuple(options)
        self.about = about


@dataclass(frozen=True, slots=True)
class Die:
    """One die rolled in a fight: its face, how (seeded, entered, routine), the dice position
    after."""

    face: int
    by: str
    position: int


class Roll(Protocol):
    """Rolls one die for ``actor``: seeded, or entered by the player (``NeedDie`` until it is);
    ``ask`` gets the player's choice for a character the player plays (``NeedChoice`` until it
    is given), or ``default`` for one the referee plays."""

    def __call__(self, actor: str, what: str, sides: int = 20, odds: str = "") -> Die: ...

    def ask(self, actor: str, question: str, options: Sequence[FightChoice],
            default: str, about: str = "") -> str: ...


Emit = Callable[[Event], None]
"""Applies an event to the state at once (the engine's ``_emit``)."""

ROUTINE = "routine"
"""``Die.by`` of a routine check (no die: the face is the routine value), and the ``dice`` of
its ``Rolled`` event."""


DEGREE_WORDS = {"success": "+", "failure": "-", "win": "w", "lose": "l"}
"""The short band ids of results by degree: "success, 2 degrees" is +2, "failure, 1 degree"
-1, an opposed check's "win, 1 degree" w1 and "lose, 2 degrees" l2."""


def outcome_id(words: str) -> str:
    """The band id of a fight roll's result in words: a result by degree its short id
    ("failure, 1 degree" -> -1, see ``DEGREE_WORDS``), any other its words as a slug
    ("critical hit" -> critical_hit)."""
    if words[:1] in DEGREE_WORDS.values() and words[1:].isdigit():
        return words  # a short id already
    parts = "".join(c if c.isalnum() else " " for c in words.casefold()).split()
    if (len(parts) == 3 and parts[0] in DEGREE_WORDS and parts[1].isdigit()
            and parts[2] in ("degree", "degrees")):
        return f"{DEGREE_WORDS[parts[0]]}{parts[1]}"
    return "_".join(parts)


def fight_roll(actor: str, what: str, die: Die, parts: Sequence[Sequence[Any]], total: int,
               against: int, against_name: str, result: str, degree: int,
               odds: Mapping[str, Fraction], band: str | None = None) -> Rolled:
    """The ``Rolled`` event of a fight's roll: ``actor``'s ``die`` for ``what``, each part
    ``(source, value)`` of its modifier, the ``total`` against ``against``
    (``against_name``), the ``result`` as the game words it (its band: ``band``, else
    ``outcome_id(result)``) and its signed ``degree``; ``odds``: the exact chance of each
    outcome, by its words or band id (read through ``outcome_id``; impossible ones left
    out; a routine check is certain, its band 100%). The die is a d20 (a routine check:
    dice "routine", its face the routine value)."""
    mods: list[list[str | int | None]] = [[str(p[0]), int(p[1])] for p in parts]
    modifier = sum(int(p[1]) for p in parts)
    band_id = band if band is not None else outcome_id(result)
    routine = die.by == ROUTINE
    chances = {band_id: Fraction(1)} if routine else odds
    return Rolled(
        move="", stat="", dice=ROUTINE if routine else "d20", faces=[die.face],
        kept=[die.face], dropped=[], modifiers=mods, raw_modifier=modifier,
        modifier=modifier, clamp=None, total=total, band=band_id, band_name=result,
        odds={outcome_id(k): percent(p) for k, p in chances.items() if p},
        entered=die.by == "entered", position=die.position, tone="mixed", actor=actor, what=what,
        against=against, against_name=against_name, degree=degree)


__all__ = ["ROUTINE", "SIDE_DIE", "Die", "Emit", "NeedChoice", "NeedDie", "Roll", "fight_roll",
           "outcome_id"]
