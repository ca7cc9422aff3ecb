"""Story and flow events: fiction narrated, what the engine waits for, actions begun, moves
triggered, and the outcomes, options and questions of a move."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from engine.nlp.beat import Beat
from engine.rules.events.core import Event, applier, event
from engine.rules.state import HERO, CampaignState, Flow


@event
@dataclass(frozen=True, slots=True)
class Narrated(Event):
    """Fiction: what the player says their hero does, or what the GM or engine says."""

    OPTIONAL: ClassVar[tuple[str, ...]] = ("beat",)

    text: str
    by: str = "player"
    beat: dict[str, Any] | None = None
    """The player's line read as who does what to whom (``Beat.to_dict``); None for the
    GM's and the engine's lines, and in logs saved before it was kept."""

    @property
    def reading(self) -> Beat | None:
        """The saved reading of the line, if any."""
        return Beat.from_dict(self.beat) if isinstance(self.beat, dict) else None


@applier("Narrated")
def _narrated(state: CampaignState, ev: Narrated) -> None:
    if ev.by == "player":
        state.scene.beats += 1
        state.scene.reading = ev.beat if isinstance(ev.beat, dict) else None


@event
@dataclass(frozen=True, slots=True)
class FlowChanged(Event):
    """The engine now waits for something else (the prompt, the pending roll, the queue)."""

    flow: dict[str, Any]


@applier("FlowChanged")
def _flow(state: CampaignState, ev: FlowChanged) -> None:
    state.flow = Flow.model_validate(ev.flow)


@event
@dataclass(frozen=True, slots=True)
class ActionStarted(Event):
    """A player action begins; counts actions for undo. ``action``: its number, 0 (the
    saved form) the one after the last; every event of the log says its action anyway."""

    OPTIONAL: ClassVar[tuple[str, ...]] = ("action",)

    label: str
    action: int = 0


@applier("ActionStarted")
def _action(state: CampaignState, ev: ActionStarted) -> None:
    state.action_no = ev.action or state.action_no + 1


@event
@dataclass(frozen=True, slots=True)
class MoveTriggered(Event):
    """The fiction triggered a move."""

    ACTORS: ClassVar[tuple[str, ...]] = ("who",)
    OPTIONAL: ClassVar[tuple[str, ...]] = ("who",)

    move: str
    name: str
    target: str | None = None
    once_key: str | None = None
    who: str = HERO
    """The hero who makes the move (format 3; older logs: the one acting then)."""


@applier("MoveTriggered")
def _move(state: CampaignState, ev: MoveTriggered) -> None:
    state.scene.quiet = 0
    state.scene.beats += 1
    for threat in state.threats.values():  # acting against a threat's NPC confronts it
        if ev.target is not None and threat.npc == ev.target:
            threat.confronted = state.scene.number
    if ev.once_key and ev.once_key not in state.used:
        state.used.append(ev.once_key)


@event
@dataclass(frozen=True, slots=True)
class OutcomeReached(Event):
    """The band's outcome text, for the journal."""

    move: str
    band: str
    text: str


@event
@dataclass(frozen=True, slots=True)
class OptionsChosen(Event):
    """The options picked from a "choose N" list."""

    move: str
    options: list[str]
    texts: list[str]


@event
@dataclass(frozen=True, slots=True)
class QuestionsAsked(Event):
    """Questions the player asks from a move's list."""

    move: str
    questions: list[str]


@event
@dataclass(frozen=True, slots=True)
class QuestionAnswered(Event):
    """One asked question answered: ``by`` the GM (its offer accepted, drawn as
    ``drawn_from`` says) or the player (their own words)."""

    move: str
    question: str
    answer: str
    drawn_from: str = ""
    by: str = "gm"


__all__ = [
    "ActionStarted",
    "FlowChanged",
    "MoveTriggered",
    "Narrated",
    "OptionsChosen",
    "OutcomeReached",
    "QuestionAnswered",
    "QuestionsAsked",
]
