"""The Masks sheet: the generic sections, with who holds Influence in the cast and the Team
pool under the scene. ``MasksRules`` takes it with ``sheet = masks_sheet_hook``.

Influence is read only by ``influence_tags``: the one place to change when it moves.
"""

from __future__ import annotations

from engine.content.loader import Pack
from engine.rules.base import Ruleset
from engine.rules.sheet import Line, Section, Tag, default_sheet
from engine.rules.state import HERO, CampaignState


def influence_tags(state: CampaignState, hero_id: str, npc_id: str) -> list[Tag]:
    """Whether ``npc_id`` holds Influence over the hero, and the hero over them (each actor's
    ``data["influence"]`` lists whom it holds Influence over)."""
    hero, npc = state.actors.get(hero_id), state.actors.get(npc_id)
    out: list[Tag] = []
    if npc is not None and hero_id in npc.data.get("influence", ()):
        out.append(Tag(text="⇐ Influence on you", tone="mixed"))
    if hero is not None and npc_id in hero.data.get("influence", ()):
        out.append(Tag(text="⇒ yours on them", tone="good"))
    return out


def masks_sheet(pack: Pack, state: CampaignState, actor_id: str | None = None
                ) -> list[Section]:
    """The generic sheet with Influence tags in the cast and the Team pool at the end."""
    hero_id = state.actor_id(actor_id or HERO)
    tags = {n: influence_tags(state, hero_id, n) for n in state.actors if n != hero_id}
    sections = default_sheet(pack, state, hero_id, cast_tags=tags)
    team = state.pools.get("team")
    if team is not None:
        last = sections[-1]
        sections[-1] = Section(title=last.title, rows=[
            *last.rows, Line(text=f"Team pool {team}", tone="accent", bold=True)])
    return sections


def masks_sheet_hook(rules: Ruleset, state: CampaignState, actor_id: str | None = None
                     ) -> list[Section]:
    """``Ruleset.sheet`` for Masks (``sheet = masks_sheet_hook`` in the class body)."""
    return masks_sheet(rules.pack, state, actor_id)
