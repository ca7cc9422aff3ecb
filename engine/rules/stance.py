"""NPC stances toward heroes: a small fixed scale, a role's default, and the event that moves
an NPC along it.

An NPC's stance toward a hero is what its ``stance`` says (set only by ``StanceChanged``),
else its role's default from the pack (``gm.yaml`` ``stances:``), else neutral.
"""

from __future__ import annotations

from engine.content import schema as s
from engine.content.loader import Pack
from engine.errors import IllegalAction
from engine.rules import events as ev
from engine.rules.state import CampaignState

STANCES: tuple[str, ...] = s.STANCES
"""The scale, worst to best: hostile, wary, neutral, warm, devoted."""
NEUTRAL = "neutral"


def default_stance(pack: Pack, role: str) -> str:
    """The stance an NPC of ``role`` holds when introduced."""
    return pack.gm.stances.get(role, NEUTRAL)


def stance_of(pack: Pack, state: CampaignState, npc: str, hero: str = "hero") -> str:
    """How ``npc`` stands toward ``hero`` (an id, or "hero" for the acting hero)."""
    actor = state.actors[npc]
    return actor.stance.get(state.actor_id(hero), default_stance(pack, actor.role))


def rank(stance: str) -> int:
    """The stance's place on the scale (0 hostile .. 4 devoted)."""
    return STANCES.index(stance)


def shifted(stance: str, by: int) -> str:
    """``stance`` moved ``by`` steps along the scale, stopping at its ends."""
    return STANCES[max(0, min(len(STANCES) - 1, rank(stance) + by))]


def stance_event(pack: Pack, state: CampaignState, npc: str, stance: str | None = None,
                 by: int = 0, hero: str = "hero", reason: str = "") -> ev.StanceChanged | None:
    """The event setting ``npc``'s stance toward ``hero`` to ``stance`` (or ``by`` steps from
    where it is); None when it would not change. Raises IllegalAction for an unknown NPC or
    stance."""
    actor = state.actors.get(npc)
    if actor is None or actor.kind != "npc":
        raise IllegalAction(f"no NPC {npc!r}")
    if stance is not None and stance not in STANCES:
        raise IllegalAction(f"unknown stance {stance!r}; stances are {', '.join(STANCES)}")
    hid = state.actor_id(hero)
    if hid not in state.party:
        raise IllegalAction(f"no hero {hero!r} in the party")
    was = stance_of(pack, state, npc, hid)
    new = stance if stance is not None else shifted(was, by)
    if new == was:
        return None
    return ev.StanceChanged(npc=npc, stance=new, hero="hero" if hid == state.acting else hid,
                            was=was, reason=reason)
