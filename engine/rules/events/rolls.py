"""Roll events: a roll with every reason, a result adjusted after the roll, and the
campaign's dice mode."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engine.rules.events.core import Event, applier, event
from engine.rules.state import CampaignState
from engine.rules.types import BandDict, Modifier


@event
@dataclass(frozen=True, slots=True)
class Rolled(Event):
    """A roll with every reason: faces kept and dropped, each modifier and its source, odds.

    ``bands`` are the bands the roll used when the ruleset chose them for this roll (None:
    the pack's fixed bands for the move); ``override`` says when the dice themselves set the
    band (``{"from": band the total gave, "why": ...}``)."""

    OPTIONAL: ClassVar[tuple[str, ...]] = ("bands", "override")

    move: str
    stat: str
    dice: str
    faces: list[int]
    kept: list[int]
    dropped: list[int]
    modifiers: list[Modifier]
    raw_modifier: int
    modifier: int
    clamp: list[int] | None
    total: int
    band: str
    band_name: str
    odds: dict[str, str]
    entered: bool = False
    position: int = 0
    inverted: bool = False
    tone: str = "mixed"
    bands: list[BandDict] | None = None
    override: dict[str, str] | None = None


@applier("Rolled")
def _rolled(state: CampaignState, ev: Rolled) -> None:
    if not ev.entered:
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


__all__ = ["DiceModeChanged", "RollAdjusted", "Rolled"]
