"""Neutralised combatants: still in the fight (they can be attacked, finished off or helped)
but unable to take part in it, because a condition takes away their actions or their
awareness. A neutralised combatant takes no turn, joins no team attack, is never the default
target of an attack (it stays targetable on purpose) and counts as down for the referee; a
side with nobody left but the neutralised has lost the fight."""

from __future__ import annotations

from typing import Protocol

from engine.rules import encounter as en
from engine.rules.state import CampaignState
from engine.systems.mm3e.conditions import Condition


class Reads(Protocol):
    """What this module reads of a fight's step (``step.Ctx``, which asks it in turn)."""

    state: CampaignState

    def conditions(self, actor_id: str) -> frozenset[Condition]:
        """Every condition in force on a character."""
        ...

    def effects_on(self, actor_id: str, what: str | None = None) -> list[en.Effect]:
        """The encounter's effects on a character."""
        ...


C = Condition

FILLED_IN = (
    "A combatant who is unaware or incapacitated until recovery (or paralysed, transformed or"
    " asleep, should a power impose it) is neutralised: it takes no turn, joins no team attack"
    " and is never the default target, though it can still be attacked; the referee counts it"
    " as down. The seed's unaware ('cannot perceive or react') is read as unable to act in a"
    " fight. Stunned is not: it passes (a surprised or stunned foe is still the one to hit)."
)
"""The rules of this module that the seed leaves out, filled in."""

NEUTRALISING = (C.INCAPACITATED, C.UNAWARE)
"""Conditions (expanded: dying and dead include incapacitated) that take away a combatant's
actions or awareness for good (until recovery), worst first."""

NEUTRALISING_NAMES = ("paralyzed", "paralysed", "transformed", "asleep")
"""Condition names a pack's powers may impose beyond the seed's list that do the same."""


def neutralised(ctx: Reads, actor: str) -> str:
    """The condition that neutralises ``actor`` ("unaware"), or "" when it can take part."""
    conds = ctx.conditions(actor)
    for c in NEUTRALISING:
        if c in conds:
            return c.value
    raw = {*ctx.state.actors[actor].conditions, *(e.what for e in ctx.effects_on(actor))}
    return next((n for n in NEUTRALISING_NAMES if n in raw), "")


__all__ = ["FILLED_IN", "NEUTRALISING", "NEUTRALISING_NAMES", "Reads", "neutralised"]
