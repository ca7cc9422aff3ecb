"""Resolving a roll: every modifier with its source, the clamp, the dice, the band, the odds.

Pure functions of the state: ``Game`` calls them for the pending roll, the benchmark calls
them in a loop.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.content import schema as s
from engine.content.loader import Pack
from engine.dice import Roll
from engine.odds import band_odds_text, band_of
from engine.rules import events as ev
from engine.rules.base import Ruleset
from engine.rules.state import ActiveBonus, CampaignState


def modifiers(state: CampaignState, pack: Pack, rules: Ruleset, move: s.Move,
              target: str | None, stat: str | None = None,
              extras: Sequence[Sequence[Any]] = ()) -> tuple[list[list[Any]], int, int]:
    """Every modifier as [source, amount, forward-bonus id or None], the raw sum, the clamped.

    Sources: the stat, the move's fixed modifiers, condition penalties (by move id), the acting
    hero's forward and ongoing bonuses that match the move and target, the ruleset's own
    (Influence, Heat), and extras added before the roll (Team). The clamp applies after
    everything is summed.
    """
    assert move.roll is not None
    stat = stat or move.roll.stat
    label, value = rules.stat_value(state, move, stat)
    mods: list[list[Any]] = [[label, value, None]]
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
    raw = sum(int(m[1]) for m in mods)
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


def resolve(state: CampaignState, pack: Pack, rules: Ruleset, move: s.Move,
            target: str | None, roll: Roll, position: int, stat: str | None = None,
            extras: Sequence[Sequence[Any]] = ()) -> ev.Rolled:
    """The ``Rolled`` event for ``roll`` of ``move``, with every reason and the odds it had."""
    assert move.roll is not None
    stat = stat or move.roll.stat
    mods, raw, final = modifiers(state, pack, rules, move, target, stat, extras)
    bands = pack.bands_for(move)
    total = roll.total + final
    band = band_of(total, bands)
    tone = next(b.tone for b in bands if b.id == band)
    clamp = pack.system.modifier_clamp
    return ev.Rolled(
        move=move.id, stat=stat, dice=roll.spec.notation, faces=list(roll.faces),
        kept=list(roll.kept), dropped=list(roll.dropped), modifiers=mods, raw_modifier=raw,
        modifier=final, clamp=list(clamp) if clamp else None, total=total, band=band,
        band_name=next(b.name for b in bands if b.id == band),
        odds=band_odds_text(roll.spec, final, bands), entered=roll.entered, position=position,
        inverted=move.roll.inverted, tone=tone,
    )
