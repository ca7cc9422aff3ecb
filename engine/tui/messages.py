"""Messages that widgets post to their screen; screens answer them by driving ``Game``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

from textual.message import Message

RollKind = Literal["roll", "pre_roll", "stat", "advantage", "declare", "params"]
"""What the roll panel may ask for."""


@dataclass
class RollCommand(Message):
    """The roll panel asks for ``kind``: roll the dice, a pre-roll option (Team...), the stat,
    advantage, the declarations or the roll's parameters."""

    kind: RollKind


MenuKind = Literal["move", "all", "none", "target", "adjust", "back", "clear", "newcomer"]
"""The kinds of action-menu entry: a suggested move ("" its value: no move, just fiction),
the full move list, no move, a target, a roll's adjustment, Esc (back), a condition whose
clearing action the fiction takes (its id), and a name the fiction gives of no one in the
story (to add them)."""


@dataclass
class MenuPicked(Message):
    """An action-menu entry was chosen: its kind, and its value (a move's, a target's or an
    adjustment's id)."""

    kind: MenuKind
    value: str = ""

    @classmethod
    def of(cls, key: str) -> MenuPicked | None:
        """From a menu entry's id (``kind:value``, or ``back``); None for an id that is not
        an action-menu entry."""
        kind, _, value = key.partition(":")
        for known in get_args(MenuKind):
            if kind == known:
                return cls(known, value)
        return None


@dataclass
class ChoiceConfirmed(Message):
    """The choice list asks to confirm its current selection."""
