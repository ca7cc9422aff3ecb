"""What a fight's step rolls with: dice (seeded or entered), the player's choices, and the
exceptions that pause a step until a die or a choice comes in."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from engine.rules.events import Event


class NeedDie(Exception):
    """A roll needs a physical die that has not been entered yet."""

    def __init__(self, who: str, what: str, sides: int = 20, odds: str = "") -> None:
        super().__init__(f"{who}: roll a d{sides} for {what}")
        self.who, self.what, self.sides, self.odds = who, what, sides, odds


class NeedChoice(Exception):
    """A step needs the player's choice (``options``: {id, label, detail}) for ``who``."""

    def __init__(self, who: str, question: str, options: list[dict[str, Any]]) -> None:
        super().__init__(f"{who}: {question}")
        self.who, self.question, self.options = who, question, options


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

    def ask(self, actor: str, question: str, options: list[dict[str, Any]],
            default: str) -> str: ...


Emit = Callable[[Event], None]
"""Applies an event to the state at once (the engine's ``_emit``)."""

__all__ = ["Die", "Emit", "NeedChoice", "NeedDie", "Roll"]
