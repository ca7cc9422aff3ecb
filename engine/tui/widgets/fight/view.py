"""What the fight panel shows (a ``FightView``: one of the things a fight waits for, built by the
play screen from the engine's typed values) and where the player is in choosing an action
(``Pick``). Plain frozen values: the panel renders them and nothing else."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from engine.rules.fight.values import (
    ActionWords,
    FightChoice,
    FightOption,
    FightSuggestion,
    FightTarget,
)

Stage = Literal["", "target", "needs", "maneuver", "say", "said"]
"""Where the player is in choosing an action: the list (""), its target, what it needs
named, its maneuvers, saying what the character does, or the actions those words match."""


@dataclass(frozen=True)
class Pick:
    """Where the player is in choosing the acting character's action."""

    stage: Stage = ""
    """The step of the choice."""
    key: str = ""
    """The chosen option's key (``FightOption.key``)."""
    target: str | None = None
    """The chosen target's id."""
    said: str = ""
    """What the player said the character does, told with the action."""
    text: str = ""
    """The words said (the "said" stage)."""
    suggestions: tuple[FightSuggestion, ...] = ()
    """The actions those words match (the "said" stage)."""
    maneuvers: Mapping[str, int] = field(default_factory=dict)
    """The trade maneuvers set (the "maneuver" stage), by id."""
    switches: frozenset[str] = frozenset()
    """The switches turned on (finishing, intent to kill), by id."""
    keep: bool = False
    """Keep the highlighted entry when drawn again (a maneuver changed)."""
    suggested: bool = False
    """The action comes from what the player said (the "target" stage): its target is
    highlighted (``target``; "" for every foe in an area) and Enter on one takes it at once,
    with the maneuvers and switches the words named."""


@dataclass(frozen=True)
class DieAsk:
    """A die the fight waits for: the player types it in a dialog."""

    title: str
    """What is awaited, in words."""
    sides: int
    """The die's sides."""


@dataclass(frozen=True)
class ChoiceAsk:
    """A question a fight's step asks the player (a response to a hit...)."""

    title: str
    """The question, with whom it is for."""
    choices: tuple[FightChoice, ...]
    """The answers."""
    owed: int = 0
    """Panels the one asked owes now (0: none, or a game without)."""


@dataclass(frozen=True)
class NobodyActs:
    """Nobody can act: the fight can only be called off."""

    title: str
    """What the engine says."""


@dataclass(frozen=True)
class RefereeTurn:
    """The referee plays the acting character."""

    round: str
    """The round in words ("Round 2")."""
    name: str
    """The acting character's name."""
    step_in: str = ""
    """The name of a hero of the player's waiting on a delay who may act now ("" : none)."""


@dataclass(frozen=True)
class PlayerTurn:
    """The player plays the acting character: its options, and what the choice under way
    needs from the engine."""

    round: str
    """The round in words ("Round 2", "Surprise round")."""
    name: str
    """The acting character's name."""
    budget: str
    """What its turn has left, in words ("standard + move", "2 panels")."""
    options: tuple[FightOption, ...]
    """What it may do now (the engine's options)."""
    words: Mapping[str, ActionWords] = field(default_factory=dict)
    """The pack's words for actions and maneuvers, by id."""
    hand_back: bool = False
    """It is a character taken over from the referee (it may be handed back)."""
    odds: FightTarget | None = None
    """The odds of the chosen attack on the chosen target with the maneuvers set (None: as
    the option gives them)."""
    items: tuple[str, ...] = ()
    """What may be named as the item of the chosen option (the holder's attacks), when the
    engine does not list it."""

    def option(self, key: str) -> FightOption | None:
        """The option with ``key``, if offered."""
        return next((o for o in self.options if o.key == key), None)


Mode = DieAsk | ChoiceAsk | NobodyActs | RefereeTurn | PlayerTurn
"""What the fight waits for."""


@dataclass(frozen=True)
class FightView:
    """What the fight panel shows now."""

    mode: Mode
    """What the fight waits for."""
    width: int
    """Cells a menu entry has on one line."""
