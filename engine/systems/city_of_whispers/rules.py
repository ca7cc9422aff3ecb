"""City of Whispers: what its content cannot say by itself.

Rolls: advantage (3d6, keep the two highest) comes from declarations made before the roll (Use
Belief, Use a Secret, a neighborhood connection on City Moves, a Tie on Observe Someone, an asset
on a social roll) or by hand; disadvantage (3d6, keep the two lowest) from Use Power above the
hero's max complexity or by hand. One of each cancels out; several of one kind do not stack.
After the roll, any die showing 1 or 2 (the dropped one included) challenges the declared belief
(or proves a challenged one wrong) and reveals the secret in use. A History or a Demand bumps a
result one tier, once per session each, never on social, faction or Backfire rolls.

The sheet (beliefs, Ties and their secrets, connections, Histories, Demands, schemes, max
complexity, the hero's faction) lives in ``hero.data``; the factions live in
``state.data["factions"]``. Both are written only by the package's events, so save, undo and
replay work; ``CitySheetChanged`` and ``CityFactionChanged`` carry a journal line.

``CityRules`` holds the ruleset's hooks (content checks, the sheet, a new campaign, rivals, the
dispatch of ``rule`` effects) and inherits the rest, one idea a module: ``declarations``,
``rolls``, ``tiers``, ``heat``, ``beliefs``, ``ties``, ``schemes``, ``city`` and ``factions``.
Importing this module imports every module that registers a rule effect, so the registry is
complete when the catalogue seals it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.content import schema as s
from engine.content.loader import Pack
from engine.rules import events as ev
from engine.rules.base import Item, Need, Step, effect_item, gm_random
from engine.rules.sheet import Section
from engine.rules.state import CampaignState
from engine.rules.threats import template_for, threat_event
from engine.rules.types import EffectContext
from engine.systems.city_of_whispers.beliefs import BeliefRules
from engine.systems.city_of_whispers.city import CityMoveRules
from engine.systems.city_of_whispers.common import emit, rule, slug
from engine.systems.city_of_whispers.data import data_problems
from engine.systems.city_of_whispers.events import (
    CITY_REGISTRY,
    CityFactionChanged,
    CitySheetChanged,
)
from engine.systems.city_of_whispers.factions import Faction
from engine.systems.city_of_whispers.heat import HeatRules
from engine.systems.city_of_whispers.rolls import RollRules
from engine.systems.city_of_whispers.schemes import SchemeRules
from engine.systems.city_of_whispers.sheet import Belief, CitySheet, History, Tie, dump
from engine.systems.city_of_whispers.tiers import TierRules
from engine.systems.city_of_whispers.ties import TieRules
from engine.systems.city_of_whispers.view import city_sheet


def _heat(pack: Pack, state: CampaignState) -> tuple[int, int]:
    track = pack.tracks.get("heat")
    top = track.max if track is not None and track.max is not None else 10**9
    return state.hero.tracks.get("heat", 0), top


GM_PRECONDITIONS: dict[str, Callable[[Pack, CampaignState], bool]] = {
    "heat_marked": lambda p, st: _heat(p, st)[0] > 0,
    "heat_not_full": lambda p, st: "heat" in p.tracks and _heat(p, st)[0] < _heat(p, st)[1],
    "hero_has_belief": lambda p, st: any(
        b.state == "active" for b in CitySheet.read(st).beliefs),
    "hero_has_tie": lambda p, st: bool(CitySheet.read(st).active_ties()),
    "tie_present": lambda p, st: any(
        n in st.actors and st.actors[n].present for n in CitySheet.read(st).active_ties()),
    "hero_has_assets": lambda p, st: st.hero.tracks.get("assets", 0) > 0,
    "hero_has_scheme": lambda p, st: bool(CitySheet.read(st).schemes),
    "hero_has_faction": lambda p, st: bool(CitySheet.read(st).faction),
}
"""The Magistrate's preconditions that read the City of Whispers sheet."""


class CityRules(RollRules, TierRules, HeatRules, BeliefRules, TieRules, SchemeRules,
                CityMoveRules):
    """The City of Whispers ruleset."""

    id = "city_of_whispers"
    registry = CITY_REGISTRY
    GM_PRECONDITIONS = GM_PRECONDITIONS

    @classmethod
    def check_content(cls, pack: Pack) -> list[str]:
        """Every unknown key or bad value in the ``data`` of system.yaml and of each
        archetype, as ``system.yaml:<line>: <key path>: <problem>``."""
        return data_problems(pack)

    def sheet(self, state: CampaignState, actor_id: str | None = None) -> list[Section]:
        """The generic sheet with beliefs, Ties, the city, power, schemes and factions."""
        return city_sheet(self.pack, state, actor_id)

    # --- creation ---------------------------------------------------------------------

    def npc_added(self, state: CampaignState, npc_id: str, role: str) -> list[ev.Event]:
        """A rival comes with a clock (a threat of kind ``rival``)."""
        if role != "rival":
            return []
        templates = [t for t in self.pack.gm.threats if t.kind == "rival"]
        if not templates:
            return []
        tdef = template_for(state, npc_id, templates, gm_random(state, f"rival:{npc_id}"))
        return [threat_event(tdef, state, f"{state.npcs[npc_id].name}: {tdef.name}", npc_id)]

    def campaign_started(self, state: CampaignState) -> list[Item]:
        """The sheet from the archetype's data (or the custom-hero rules) and the city's
        standing factions."""
        start = self.starts.get(state.hero.archetype or "", self.data.custom_hero)
        items: list[Item] = []

        def put(key: str, value: Any, text: str) -> None:
            items.append(emit(CitySheetChanged(key=key, value=dump(value), text=text)))

        connections = list(start.connections) or self._draw_many(state, "neighborhoods", "home",
                                                                  1)
        histories = list(start.histories)
        histories += self._draw_many(state, "neighborhoods", "histories", 4 - len(histories),
                                     [*histories, *connections])
        beliefs = [Belief(id=f"b{i + 1}", text=t) for i, t in enumerate(start.beliefs)]
        put("beliefs", beliefs, "Beliefs: " + "; ".join(f"\"{t}\"" for t in start.beliefs)
            if beliefs else "No beliefs written yet.")
        if start.beliefs_to_write:
            put("beliefs_to_write", start.beliefs_to_write,
                f"Write {start.beliefs_to_write} belief(s) (the Write a Belief move).")
        put("connections", connections, "Connected to: " + ", ".join(connections) + ".")
        put("histories", [History(neighborhood=h) for h in histories],
            "Histories: " + ", ".join(histories) + ".")
        put("demands", [], "")
        put("schemes", [], "")
        put("max_complexity", start.max_complexity,
            f"Your power's max complexity: {start.max_complexity}.")
        ties: dict[str, Tie] = {}
        unnamed = start.ties_to_name
        for t in start.ties:
            npc = state.npc_by_name(t.npc)
            if npc is None:
                unnamed += 1
                continue
            ties[npc.id] = Tie(name=npc.name, insight=t.insight)
        put("ties", ties, "Ties: " + ", ".join(f"{v.name} (you know of their"
                                                f" {v.insight})" for v in ties.values())
            + "." if ties else "")
        if unnamed:
            put("ties_to_name", unnamed, f"Name {unnamed} Tie(s) among the people you know"
                                         " (the Name a Tie move).")
        owned: set[str] = set()
        for f in [*([start.faction] if start.faction else []), *self.data.factions]:
            fid = slug(f.name)
            if fid in self.factions(state) or any(
                    "emit" in i and i["emit"].get("faction") == fid for i in items):
                continue
            value = Faction.start(f)
            value.neighborhoods = [n for n in f.neighborhoods if n not in owned]
            owned |= set(value.neighborhoods)
            who = "" if f is start.faction else f" (played by the {self.gm_title})" \
                if f.magistrate else ""
            items.append(emit(CityFactionChanged(
                faction=fid, value=value.model_dump(), text=f"Faction {f.name}{who}: aspects "
                + (", ".join(f.aspects) or "none") + "; holds "
                + (", ".join(value.neighborhoods) or "no neighborhood") + ".")))
        if start.faction:
            put("faction", slug(start.faction.name), f"You belong to {start.faction.name}.")
        return items

    # --- rule effects -------------------------------------------------------------------

    def rule_effect(self, state: CampaignState, eff: s.Rule, ctx: EffectContext) -> Step | Need:
        """Every ``rule`` effect of the City of Whispers content (registered by the modules of
        the classes it inherits), given its arguments as a dict; a prompt it opens comes back
        with the answer in ``args[stage]``."""
        handler = self.registry.rule_effects.get(eff.name)
        if handler is None:
            return super().rule_effect(state, eff, ctx)
        result: Step | Need = handler(self, state, dict(eff.args), ctx)
        if isinstance(result, Need):
            stage = getattr(result, "stage", "pick")
            if stage != (eff.args.get("stage") or "pick"):
                # re-queue the rule marked with the stage, so the answer lands in args[stage]
                return Step(push=[effect_item(rule(eff.name, **{**eff.args, "stage": stage}),
                                              ctx)])
        return result

    def rule_answer(self, state: CampaignState, eff: s.Rule, ctx: EffectContext, ids: list[str]
                    ) -> list[Item]:
        """The rule again, with the answer in ``args[stage]`` (several ids joined by commas)."""
        if eff.name not in self.registry.rule_effects:
            return super().rule_answer(state, eff, ctx, ids)
        stage = str(eff.args.get("stage") or "pick")
        args = {k: v for k, v in eff.args.items() if k != "stage"}
        args[stage] = ",".join(ids)
        return [effect_item(rule(eff.name, **args), ctx)]


__all__ = ["GM_PRECONDITIONS", "CityRules"]
