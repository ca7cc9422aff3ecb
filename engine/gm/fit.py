"""Which GM moves fit what just happened: the failed move's kind of action and its fiction.

Content says it (data, not code): ``gm.yaml``'s ``action_kinds`` gives each player move its
kinds of action (Provoke is ``pressure``, Comfort is ``support``), each GM move's ``fits``
lists the kinds it answers (a rebuff answers ``pressure`` and ``support``, a counterblow
``violence``). The fiction line that led to the roll (``state.scene.reading``, a typed
``Beat``) adds the kinds it was read as, and gives the names a consequence should use: the
person acted on, the place and the object the line named.
"""

from __future__ import annotations

from collections.abc import Collection

from engine.content import schema as s
from engine.content.loader import Pack
from engine.nlp.beat import Beat
from engine.rules.state import CampaignState
from engine.rules.types import EffectContext

FIGHTING = frozenset({"violence"})
"""Kinds a counterblow answers: a failed attack is answered by the one attacked."""


def reading(state: CampaignState) -> Beat | None:
    """The reading of the fiction line that led to the roll, if the scene has one."""
    raw = state.scene.reading
    return Beat.from_dict(raw) if raw else None


def action_kinds(pack: Pack, state: CampaignState, ctx: EffectContext) -> frozenset[str]:
    """The kinds of action the move behind ``ctx`` is: the move's own and its declared
    skill's or power's (``action_kinds``, by move id or by the id declared: ``persuasion``),
    else what the fiction line was read as (the hero's own action: not what they received)."""
    asked = ctx.get("fits")
    if asked:  # the effect says what the GM move must answer (a rumor, a backfire)
        return frozenset(asked)
    move = str(ctx.get("move") or "")
    table = pack.gm.action_kinds
    own = frozenset(table.get(move, ()))
    chosen = [d.partition(":")[2] or d for d in state.flow.declared]
    if state.flow.stat:
        chosen.append(state.flow.stat)
    for key in chosen:  # a declared skill or a chosen stat says more ("persuasion", "nerve")
        own |= frozenset(table.get(key, ()))
    if own:
        return own
    beat = reading(state)
    if beat is None or beat.receives or beat.actor != "hero" or not move:
        return frozenset()
    return beat.kinds | ({"pressure"} if beat.threat or beat.jibe else frozenset())


def fits(move: s.GMMoveDef, kinds: Collection[str]) -> bool:
    """Whether ``move`` answers one of ``kinds`` (a move with no ``fits`` answers none)."""
    return bool(kinds) and any(k in kinds for k in move.fits)


FIGHTING_KINDS = frozenset({"violence", "powers", "protection"})
"""Kinds of action that mean blows are being traded (``{fight}`` may be said)."""


def fiction_names(state: CampaignState, ctx: EffectContext,
                  kinds: Collection[str] = ()) -> dict[str, str]:
    """The names a consequence may use from the fiction: ``them`` (the one acted on: the
    move's target, else the first named in the line), ``place`` and ``object`` (as the line
    wrote them), ``fight`` while a fight is under way or the action (``kinds``) or the line
    is one of blows. Only what is known is given (lines needing the rest are not said)."""
    out: dict[str, str] = {}
    beat = reading(state)
    if state.fight is not None or FIGHTING_KINDS & set(kinds) or (
            beat is not None and "violence" in beat.kinds):
        out["fight"] = "the fight"
    target = ctx.get("target")
    if isinstance(target, str) and target in state.actors:
        out["them"] = state.actors[target].name
    if beat is None:
        return out
    if "them" not in out:
        named = [n for n in beat.touches if state.npc_by_name(n) is not None]
        if named or beat.people:  # one of the cast, else someone the line names
            out["them"] = (named or list(beat.people))[0]
    if beat.places:
        out["place"] = beat.places[0]
    if beat.objects:
        out["object"] = beat.objects[0]
    if beat.topic:  # a line about something: the consequence speaks of that, nothing else
        out = {k: v for k, v in out.items()
               if k == "fight" or v.lower() in beat.topic.lower()}
    return out


def after_roll(pack: Pack, ctx: EffectContext) -> bool:
    """Whether the GM moves because a roll went less than well (a miss or a mixed band)."""
    move = pack.moves.get(str(ctx.get("move") or ""))
    band = str(ctx.get("band") or "")
    if move is None or move.roll is None or not band:
        return False
    return any(b.id == band and b.tone != "good" for b in pack.bands_for(move))
