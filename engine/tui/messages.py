"""Messages that widgets post to their screen; screens answer them by driving ``Game``."""

from __future__ import annotations

from dataclasses import dataclass

from textual.message import Message


@dataclass
class RollCommand(Message):
    """The roll panel asks for ``kind``: roll, team, stat or advantage."""

    kind: str


@dataclass
class MenuPicked(Message):
    """An action-menu entry was chosen; ``key`` is ``kind:value`` (move:ID, target:ID, ...)."""

    key: str


@dataclass
class ChoiceConfirmed(Message):
    """The choice list asks to confirm its current selection."""
