"""Roll events: a roll with every reason (a move's or a fight's), a result adjusted after the
roll, and the campaign's dice mode."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from engine.rules.events.core import Event, applier, event
from engine.rules.state import CampaignState
from engine.rules.types import BandDict, Modifier


@event
@dataclass(frozen=True, slots=True)
class Rolled(Event):
    """A roll with every reason: faces kept and dropped, each modifier and its source, odds.

    ``bands`` are the bands the roll used when the ruleset chose them for this roll (None:
    the pack's fixed bands for the move); ``override`` says when the dice themselves set the
    band (``{"from": band the total gave, "why": ...}``). ``actor``: who rolled (the acting
    hero's id; "hero" in older logs, the hero acting then).

    A fight's roll is a ``Rolled`` too (``engine.rules.fight.dice.fight_roll``), one with
    ``against``: ``actor`` rolls for ``what`` ("attacks Granite with Fists") against
    ``against`` (``against_name``: what makes it, "10 + Parry 8"), ``degree`` its signed
    degree (the game's: M&M's degrees, the panels game's 0-2); ``move`` and ``stat`` are
    empty, ``dice`` is "d20" (a routine check, no die: "routine" with the face 10), the band
    is the result's id and ``band_name`` its words, ``odds`` the chance of each outcome.
    Its ``tone`` is "mixed": a fight's roll leaves the scene's hits and misses (the GM's
    tension, counted over the moves) alone. Its die moves the dice position only forward (a fight's
    step may explain a roll after it rolled later dice), entered or not."""

    OPTIONAL: ClassVar[tuple[str, ...]] = (
        "bands", "override", "actor", "what", "against", "against_name", "degree", "move",
        "stat", "dropped", "clamp", "entered", "inverted", "tone", "dice")
    ACTORS: ClassVar[tuple[str, ...]] = ("actor",)
    DERIVED: ClassVar[dict[str, str]] = {"kept": "faces", "raw_modifier": "modifier",
                                         "band_name": "band"}

    faces: list[int]
    kept: list[int]
    modifiers: list[Modifier]
    raw_modifier: int
    modifier: int
    total: int
    band: str
    band_name: str
    odds: dict[str, str]
    dice: str = "d20"
    move: str = ""
    stat: str = ""
    dropped: list[int] = field(default_factory=list)
    clamp: list[int] | None = None
    entered: bool = False
    position: int = 0
    inverted: bool = False
    tone: str = "mixed"
    bands: list[BandDict] | None = None
    override: dict[str, str] | None = None
    actor: str = "hero"
    what: str = ""
    against: int | None = None
    against_name: str = ""
    degree: int = 0


def is_fight_roll(e: Mapping[str, Any]) -> bool:
    """Whether ``e`` (a ``Rolled`` dict, saved or full) is a fight's roll: one against a
    number (a defence, a DC, an opposing total), not a move's."""
    return e.get("against") is not None


@applier("Rolled")
def _rolled(state: CampaignState, ev: Rolled) -> None:
    if ev.against is not None:  # a fight's roll: forward only, entered or not
        state.dice_position = max(state.dice_position, ev.position)
    elif not ev.entered:
        state.dice_position = ev.position
    if ev.tone == "bad":
        state.scene.misses += 1
    elif ev.tone == "good":
        state.scene.hits += 1
    used = [m[2] for m in ev.modifiers if len(m) > 2 and m[2] is not None]
    if used:
        # a roll marks as used its forward bonuses and ongoing ones that last one roll
        state.bonuses = [b for b in state.bonuses if not (
            b.id in used and (b.kind == "forward" or b.expires == "roll"))]


@event
@dataclass(frozen=True, slots=True)
class RollAdjusted(Event):
    """A modifier added after the roll (Team, Influence, acting selfishly) changed the result."""

    source: str
    amount: int
    total: int
    band: str
    band_name: str
    modifier: int
    tone: str = ""
    was: str = ""


@applier("RollAdjusted")
def _adjusted(state: CampaignState, ev: RollAdjusted) -> None:
    # the scene's count of hits and misses (the GM's tension) follows the adjusted result;
    # events saved before ``tone`` and ``was`` existed change nothing, as they did then
    if not ev.tone or not ev.was or ev.tone == ev.was:
        return
    if ev.was == "bad":
        state.scene.misses = max(0, state.scene.misses - 1)
    elif ev.was == "good":
        state.scene.hits = max(0, state.scene.hits - 1)
    if ev.tone == "bad":
        state.scene.misses += 1
    elif ev.tone == "good":
        state.scene.hits += 1


@event
@dataclass(frozen=True, slots=True)
class DiceModeChanged(Event):
    """The campaign's dice: ``seeded`` (rolled for you), ``physical`` (you enter every roll)
    or ``mixed`` (each roll asks)."""

    mode: str
    was: str = "seeded"


@applier("DiceModeChanged")
def _dice_mode(state: CampaignState, ev: DiceModeChanged) -> None:
    state.dice_mode = ev.mode  # type: ignore[assignment]


__all__ = ["DiceModeChanged", "RollAdjusted", "Rolled", "is_fight_roll"]
