"""Roll previews: the dice, every modifier with its source, the bands the ruleset chooses for
the roll and the exact odds of each (what the dice may override included), before a roll is
made."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.content import schema as s
from engine.content.loader import Pack
from engine.dice import DiceSpec
from engine.errors import IllegalAction
from engine.odds import percent
from engine.rules import resolve
from engine.rules.base import Ruleset
from engine.rules.state import CampaignState
from engine.rules.types import BandDict, Modifier


@dataclass(frozen=True)
class RollPreview:
    """Everything about a roll before it is made: dice, modifiers with sources, exact odds."""

    move: str
    """The move's id."""
    stat: str
    """The stat rolled with (its id)."""
    dice: str
    """The dice, in notation ("2d6", "3d6kh2" with advantage, "1d20")."""
    modifiers: list[Modifier]
    """Every modifier with its source (the stat, a condition, a Label, Team...)."""
    raw_modifier: int
    """Their sum, before the system's clamp."""
    modifier: int
    """The modifier the roll takes (clamped where the system clamps)."""
    clamp: tuple[int, int] | None
    """The system's clamp of the modifier (Masks: -2 to +3), or None."""
    odds: dict[str, str]
    """The exact chance of each band as the player reads it (band id -> "41.7%")."""
    bands: list[BandDict]
    """The bands this roll reads (id, name, min, max, tone), best last."""
    inverted: bool
    """True when a low total is good (a roll under)."""
    bands_chosen: bool = False
    """True when the ruleset chose this roll's bands (a DC, a defence), not the pack's."""
    chances: dict[str, float] = field(default_factory=dict)
    """The exact chance of each band as a number (band id -> 0.417), what ``odds`` shows."""

    def to_dict(self) -> dict[str, Any]:
        """Plain form."""
        return dict(self.__dict__)


def dice_for(state: CampaignState, pack: Pack, rules: Ruleset, move: s.Move) -> DiceSpec:
    """The dice ``move`` rolls now: the pack's, with advantage as the ruleset says."""
    dice = pack.dice_for(move)
    adv = rules.dice_mode(state, move)
    if move.roll is not None and move.roll.advantage == "always" and adv is None:
        adv = "advantage"
    if adv in ("advantage", "disadvantage"):
        dice = dice.with_advantage(adv)  # type: ignore[arg-type]
    return dice


def roll_preview(state: CampaignState, pack: Pack, rules: Ruleset, move: s.Move,
                 target: str | None = None, stat: str | None = None) -> RollPreview:
    """The pending (or a hypothetical) roll of ``move``, with exact odds per band."""
    if move.roll is None:
        raise IllegalAction(f"{move.name} has no roll")
    flow = state.flow
    extras = flow.extras if flow.move == move.id else []
    stat = stat or (flow.stat if flow.move == move.id else None) or move.roll.stat
    if stat == "choice":
        stat = move.roll.choices[0]
    mods, raw, final = resolve.modifiers(state, pack, rules, move, target, stat, extras)
    dice = dice_for(state, pack, rules, move)
    bands = rules.bands_for(state, move, target)
    fixed = pack.bands_for(move)
    exact = resolve.chances(dice, final, bands, resolve.face_override(state, rules, move))
    return RollPreview(
        move=move.id, stat=stat, dice=dice.notation, modifiers=mods, raw_modifier=raw,
        modifier=final, clamp=pack.system.modifier_clamp,
        odds={b: percent(p) for b, p in exact.items()},
        chances={b: float(p) for b, p in exact.items()},
        bands=resolve.band_dicts(bands),
        inverted=move.roll.inverted,
        bands_chosen=bands is not fixed and bands != fixed,
    )
