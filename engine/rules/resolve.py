"""Resolving a roll: every modifier with its source, the clamp, the dice, the band, the odds.

Pure functions of the state: ``Game`` calls them for the pending roll, the benchmark calls
them in a loop. The ruleset chooses a roll's bands when it is made (``Ruleset.bands_for``) and
may let the dice override the band (``Ruleset.band_override``); ``reband`` is the one place a
roll's band is worked out again after a modifier changes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import cast

from engine.content import schema as s
from engine.content.loader import Pack
from engine.dice import DiceSpec, Roll
from engine.odds import band_odds, band_odds_by_faces, band_odds_text, band_of, percent
from engine.rules import events as ev
from engine.rules.base import BandOverride, Ruleset
from engine.rules.state import ActiveBonus, CampaignState
from engine.rules.types import BandDict, Modifier, RollDict, mod_amount
from engine.rules.types import modifier as modifier_of


def modifiers(state: CampaignState, pack: Pack, rules: Ruleset, move: s.Move,
              target: str | None, stat: str | None = None,
              extras: Sequence[Sequence[str | int | None]] = ()
              ) -> tuple[list[Modifier], int, int]:
    """Every modifier as [source, amount, forward-bonus id or None], the raw sum, the clamped.

    Sources: the stat, the move's fixed modifiers, condition penalties (by move id), the acting
    hero's forward and ongoing bonuses that match the move and target, the ruleset's own
    (Influence, Heat), and extras added before the roll (Team). The clamp applies after
    everything is summed.
    """
    assert move.roll is not None
    stat = stat or move.roll.stat
    label, value = rules.stat_value(state, move, stat)
    mods: list[Modifier] = [[label, value, None]]
    for src, amount in move.roll.modifiers.items():
        mods.append([src, amount, None])
    for cid in state.hero.conditions:
        cdef = pack.conditions.get(cid)
        if cdef is not None and move.id in cdef.penalises:
            mods.append([cdef.name, cdef.penalty, None])
    for b in state.bonuses:
        if (not bonus_owned(state, b) or not bonus_fits(b, move)
                or (b.target and b.target != target)):
            continue
        used = b.id if b.kind == "forward" or b.expires == "roll" else None
        mods.append([f"{b.amount:+d} {b.kind}: {b.reason}", b.amount, used])
    mods += rules.extra_modifiers(state, move, target)
    mods += [list(x) for x in extras]
    raw = sum(mod_amount(m) for m in mods)
    clamp = pack.system.modifier_clamp
    final = max(clamp[0], min(clamp[1], raw)) if clamp else raw
    return mods, raw, final


def bonus_fits(bonus: ActiveBonus, move: s.Move) -> bool:
    """Whether ``bonus`` can count on a roll of ``move`` (its target aside)."""
    assert move.roll is not None
    if bonus.moves and move.id not in bonus.moves:
        return False
    # a general bonus would hurt on a roll where high is bad
    return not (move.roll.inverted and not bonus.moves)


def bonus_owned(state: CampaignState, bonus: ActiveBonus) -> bool:
    """Whether ``bonus`` counts on the acting hero's rolls: it is theirs, or anyone's (no
    owner: saves from before parties)."""
    return bonus.owner is None or bonus.owner == state.acting


def bonus_targets(state: CampaignState, move: s.Move) -> list[str]:
    """NPCs the acting hero holds a bonus against that a roll of ``move`` could use, in
    order."""
    if move.roll is None:
        return []
    return list(dict.fromkeys(b.target for b in state.bonuses
                              if b.target and b.target in state.npcs and bonus_owned(state, b)
                              and bonus_fits(b, move)))


Override = Callable[[Sequence[int], str], BandOverride | None]
"""(kept faces, band of the total) -> the band the dice force instead, with why, or None."""


def band_dicts(bands: Sequence[s.Band]) -> list[BandDict]:
    """Bands as the plain dicts a roll and a preview carry (id, name, min, max, tone)."""
    return [{"id": b.id, "name": b.name, "min": b.min, "max": b.max, "tone": b.tone}
            for b in bands]


def roll_bands(pack: Pack, move: s.Move, roll: RollDict) -> list[s.Band]:
    """The bands ``roll`` (a ``Rolled`` dict) was resolved against: the ones it records, or
    the pack's fixed bands for ``move`` (fixed bands are not recorded; older saves have none)."""
    stored = roll.get("bands")
    if stored:
        return [s.Band.model_validate(b) for b in stored]
    return pack.bands_for(move)


def roll_clamp(pack: Pack, roll: RollDict) -> Sequence[int] | None:
    """The modifier clamp ``roll`` was made with (None: no clamp); the pack's when the roll
    dict does not say."""
    clamp: Sequence[int] | None = roll.get("clamp", pack.system.modifier_clamp)
    return clamp


def overrides_bands(rules: Ruleset) -> bool:
    """Whether ``rules`` lets the dice override a band (it defines ``band_override``)."""
    return type(rules).band_override is not Ruleset.band_override


def face_override(state: CampaignState, rules: Ruleset, move: s.Move) -> Override | None:
    """``rules.band_override`` for a roll of ``move`` now, or None when the ruleset has none."""
    if not overrides_bands(rules):
        return None
    return lambda faces, band: rules.band_override(state, move, faces, band)


def chances(spec: DiceSpec, modifier: int, bands: Sequence[s.Band],
            override: Override | None = None) -> dict[str, Fraction]:
    """Exact chance of each band, counting what the dice may override."""
    if override is None:
        return band_odds(spec, modifier, bands)

    def forced(kept: tuple[int, ...], band: str) -> str | None:
        found = override(kept, band)
        return found.band if found is not None else None

    return band_odds_by_faces(spec, modifier, bands, forced)


def chances_outside_play(rules: Ruleset, spec: DiceSpec, modifier: int,
                         bands: Sequence[s.Band], move: s.Move | None = None,
                         band_set: str = "default") -> dict[str, Fraction]:
    """Exact chance of each band with no campaign (``sidekick odds``), counting what the dice
    themselves decide as the game's preview does (the panels game's natural 20 and 1); a
    ``move`` of None reads as a roll of ``spec`` against ``band_set``."""
    if not overrides_bands(rules):
        return band_odds(spec, modifier, bands)
    if move is None:
        move = s.Move.model_construct(id="odds", name=spec.notation, trigger="odds",
                                      roll=s.RollSpec(dice=spec.notation, bands=band_set))
    state = CampaignState.model_construct(system=rules.pack.id, name="odds", seed=0)
    return chances(spec, modifier, bands, face_override(state, rules, move))


def odds_text(spec: DiceSpec, modifier: int, bands: Sequence[s.Band],
              override: Override | None = None) -> dict[str, str]:
    """Exact odds of each band as percentages, counting what the dice may override."""
    if override is None:
        return band_odds_text(spec, modifier, bands)  # cached
    return {b: percent(p) for b, p in chances(spec, modifier, bands, override).items()}


def reband(roll: RollDict, amount: int, bands: Sequence[s.Band],
           clamp: Sequence[int] | None, source: str | None = None,
           override: Override | None = None) -> RollDict:
    """``roll`` (a ``Rolled`` dict) with ``amount`` more on its raw modifier: the modifier
    clamped again (no clamp: none), the new total, its band (as the dice may override it),
    band name and tone; ``source`` is added to the modifiers when given."""
    raw = int(roll["raw_modifier"]) + amount
    modifier = max(clamp[0], min(clamp[1], raw)) if clamp else raw
    total = int(roll["total"]) - int(roll["modifier"]) + modifier
    band = band_of(total, bands)
    new = roll.copy()
    if new.get("override") is not None:
        new["override"] = None  # (the key kept in its place, as the full form has it)
    forced = override(roll.get("kept", ()), band) if override is not None else None
    if forced is not None and forced.band != band:
        new["override"] = {"from": band, "why": forced.why}
        band = forced.band
    chosen = _band(bands, band)
    # set one by one, in this order: keys a save lacks are added in the same order as before
    new["raw_modifier"] = raw
    new["modifier"] = modifier
    new["total"] = total
    new["band"] = band
    new["band_name"] = chosen.name
    new["tone"] = chosen.tone
    if source is not None:
        new["modifiers"] = [*roll["modifiers"], modifier_of(source, amount)]
    return new


def roll_dict(rolled: ev.Rolled) -> RollDict:
    """``rolled`` in the dict form the flow carries: every field (``to_dict(full=True)``), as
    the rules read it while the move goes on."""
    return cast(RollDict, rolled.to_dict(full=True))


def _band(bands: Sequence[s.Band], band_id: str) -> s.Band:
    for b in bands:
        if b.id == band_id:
            return b
    raise ValueError(f"band {band_id!r} is not one of {[b.id for b in bands]}")


def resolve(state: CampaignState, pack: Pack, rules: Ruleset, move: s.Move,
            target: str | None, roll: Roll, position: int, stat: str | None = None,
            extras: Sequence[Sequence[str | int | None]] = ()) -> ev.Rolled:
    """The ``Rolled`` event for ``roll`` of ``move``, with every reason and the odds it had,
    against the bands the ruleset chose for this roll (recorded when they are not the
    pack's fixed ones) and the band the dice may force (recorded with why)."""
    assert move.roll is not None
    stat = stat or move.roll.stat
    mods, raw, final = modifiers(state, pack, rules, move, target, stat, extras)
    bands = rules.bands_for(state, move, target)
    fixed = pack.bands_for(move)
    total = roll.total + final
    band = band_of(total, bands)
    override = face_override(state, rules, move)
    overridden: dict[str, str] | None = None
    if override is not None:
        forced = override(roll.kept, band)
        if forced is not None and forced.band != band:
            overridden = {"from": band, "why": forced.why}
            band = forced.band
    chosen = _band(bands, band)
    clamp = pack.system.modifier_clamp
    return ev.Rolled(
        move=move.id, stat=stat, dice=roll.spec.notation, faces=list(roll.faces),
        kept=list(roll.kept), dropped=list(roll.dropped), modifiers=mods, raw_modifier=raw,
        modifier=final, clamp=list(clamp) if clamp else None, total=total, band=band,
        band_name=chosen.name, odds=odds_text(roll.spec, final, bands, override),
        entered=roll.entered, position=position, inverted=move.roll.inverted,
        tone=chosen.tone,
        bands=None if bands is fixed or bands == fixed else band_dicts(bands),
        override=overridden,
    )
