"""The GM's events: its moves, quiet beats, the oracle (answers, random events, tension),
threats and their clocks, and the stances of NPCs."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from engine.rules.events.core import Event, applier, event
from engine.rules.state import HERO, CampaignState, Threat


@event
@dataclass(frozen=True, slots=True)
class GMMoveMade(Event):
    """The GM made a move: which, why, and how it reads."""

    move: str
    name: str
    kind: str
    text: str
    reason: str = ""
    template: int = 0
    line: str = ""
    """Which parts of the move's ``narration.yaml`` made the line ("open.act.stake" indices);
    empty for a whole line of ``gm.yaml`` (``template``)."""
    fit: str = ""
    """After a roll that went less than well: "fits" when the move answers the kind of action
    that failed (content's ``fits``), "off" when none of those could be made; else empty."""
    OPTIONAL: ClassVar[tuple[str, ...]] = ("line", "fit")


GM_LINE_MEMORY = 40
"""GM lines remembered (``state.gm_lines``): none is said again within this many GM moves."""


@applier("GMMoveMade")
def _gm_move(state: CampaignState, ev: GMMoveMade) -> None:
    state.gm_recent = [*state.gm_recent[-5:], ev.move]
    said = f"{ev.move}:{ev.line or ev.template}"
    state.gm_lines = [*state.gm_lines[-(GM_LINE_MEMORY - 1):], said]
    state.scene.quiet = 0


@event
@dataclass(frozen=True, slots=True)
class QuietBeat(Event):
    """Fiction with no move: the scene may be stalling."""

    count: int


@applier("QuietBeat")
def _quiet(state: CampaignState, ev: QuietBeat) -> None:
    state.scene.quiet = ev.count


@event
@dataclass(frozen=True, slots=True)
class OracleAnswered(Event):
    """A yes/no question answered by a d100, with the exact odds it had."""

    question: str
    level: str
    chance: int
    roll: int
    answer: str
    exceptional: bool
    twist: bool
    tension: int
    odds: dict[str, str]
    entered: bool = False
    position: int = 0


@applier("OracleAnswered")
def _oracle(state: CampaignState, ev: OracleAnswered) -> None:
    if not ev.entered:
        state.dice_position = ev.position


@event
@dataclass(frozen=True, slots=True)
class RandomEvent(Event):
    """Something unplanned happens: a focus, two inspiration words and, when the focus is a
    thread or a character, which one the story's ledger names."""

    focus: str
    action: str
    subject: str
    about: str = ""
    OPTIONAL: ClassVar[tuple[str, ...]] = ("about",)


@event
@dataclass(frozen=True, slots=True)
class ThreatAdded(Event):
    """A threat with a clock enters play."""

    id: str
    name: str
    kind: str = "villain"
    size: int = 6
    steps: list[str] = field(default_factory=list)
    doom: str = ""
    npc: str | None = None


@applier("ThreatAdded")
def _threat(state: CampaignState, ev: ThreatAdded) -> None:
    state.threats[ev.id] = Threat(
        id=ev.id, name=ev.name, kind=ev.kind, size=ev.size, steps=list(ev.steps), doom=ev.doom,
        npc=ev.npc,
    )


@event
@dataclass(frozen=True, slots=True)
class ClockChanged(Event):
    """A threat's clock moved."""

    threat: str
    delta: int
    value: int
    step: str = ""
    name: str = ""


@applier("ClockChanged")
def _clock(state: CampaignState, ev: ClockChanged) -> None:
    state.threats[ev.threat].clock = ev.value


@event
@dataclass(frozen=True, slots=True)
class DoomStruck(Event):
    """A full clock: the threat's doom happens."""

    threat: str
    text: str


@applier("DoomStruck")
def _doom(state: CampaignState, ev: DoomStruck) -> None:
    state.threats[ev.threat].active = False


@event
@dataclass(frozen=True, slots=True)
class ThreatIgnored(Event):
    """At a scene's end: how many scenes in a row a threat has been left alone (0: it was
    confronted, and the count starts again)."""

    threat: str
    scenes: int
    name: str = ""


@applier("ThreatIgnored")
def _ignored(state: CampaignState, ev: ThreatIgnored) -> None:
    state.threats[ev.threat].ignored = ev.scenes


@event
@dataclass(frozen=True, slots=True)
class StanceChanged(Event):
    """An NPC's stance toward a hero changed (``hero``: a hero id, or "hero" for the acting
    one)."""

    ACTORS: ClassVar[tuple[str, ...]] = ("hero",)

    npc: str
    stance: str
    hero: str = HERO
    was: str = ""
    reason: str = ""


@applier("StanceChanged")
def _stance(state: CampaignState, ev: StanceChanged) -> None:
    state.actors[ev.npc].stance[state.actor_id(ev.hero)] = ev.stance


@event
@dataclass(frozen=True, slots=True)
class TensionChanged(Event):
    """The oracle's tension track moved."""

    value: int
    reason: str = ""


@applier("TensionChanged")
def _tension(state: CampaignState, ev: TensionChanged) -> None:
    state.tension = ev.value


__all__ = [
    "GM_LINE_MEMORY",
    "ClockChanged",
    "DoomStruck",
    "GMMoveMade",
    "OracleAnswered",
    "QuietBeat",
    "RandomEvent",
    "StanceChanged",
    "TensionChanged",
    "ThreatAdded",
    "ThreatIgnored",
]
