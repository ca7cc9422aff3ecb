"""City of Whispers questions and the hero's standing in the city: questions answered, Get
Your Bearings, connections to neighborhoods, the city's Demands and the power's max
complexity.
"""

from __future__ import annotations

from typing import Any

from engine.errors import IllegalAction
from engine.rules import events as ev
from engine.rules.base import Need, Step, effect_item, opt
from engine.rules.state import CampaignState
from engine.rules.types import EffectContext, answer_item
from engine.systems.city_of_whispers.common import MAX_DEMANDS, CityBase, slug
from engine.systems.city_of_whispers.events import CITY_REGISTRY, CitySheetChanged
from engine.systems.city_of_whispers.sheet import dump


class CityMoveRules(CityBase):
    """The rule effects of questions, connections, Demands and power."""

    # --- questions

    @CITY_REGISTRY.rule_effect("answer")
    def _r_answer(self, state: CampaignState, args: dict[str, Any], ctx: EffectContext
                  ) -> Step | Need:
        move = self.pack.moves[str(ctx.get("move"))]
        n = int(args.get("count") or 1)
        if args.get("pick") is not None:
            qs = [move.questions[int(i)] for i in str(args["pick"]).split(",") if i != ""]
            return Step([ev.Narrated(text="You answer: " + " / ".join(qs), by="engine")])
        return Need("questions", f"{move.name}: answer {n} of these",
                    [opt(str(i), q) for i, q in enumerate(move.questions)], n, n)

    @CITY_REGISTRY.rule_effect("bearings")
    def _r_bearings(self, state: CampaignState, args: dict[str, Any], ctx: EffectContext
                    ) -> Step | Need:
        """Get Your Bearings, before the roll: ask one question, or two when connected to
        the neighborhood of the scene."""
        move = self.pack.moves[str(ctx.get("move"))]
        if args.get("pick") is not None:
            qs = [move.questions[int(i)] for i in str(args["pick"]).split(",") if i != ""]
            # the Magistrate answers each (engine/gm/answers.py), before the roll
            return Step([ev.QuestionsAsked(move=move.id, questions=qs)],
                        push=[answer_item(move.id, q, ctx) for q in qs])
        conns = self.connections_here(state, move)
        here = self.scene_neighborhood(state)
        if conns:
            where = here if here else ", ".join(conns)
            message = (f"{move.name}: ask one question, or two (you are connected to {where}"
                       + ("" if here else ", if you are there") + ")")
        else:
            message = f"{move.name}: ask one question before you roll"
        return Need("questions", message, [opt(str(i), q) for i, q in enumerate(move.questions)],
                    1, 2 if conns else 1)

    # --- connections, Demands, power

    @CITY_REGISTRY.rule_effect("add_connection")
    def _r_add_connection(self, state: CampaignState, args: dict[str, Any], ctx: EffectContext
                          ) -> Step | Need:
        have = self.hero_sheet(state).connections
        options = [opt(slug(n), n) for n in self.neighborhoods() if n not in have]
        pick = self._pick(args, "pick", "Connect with which neighborhood?", options)
        if isinstance(pick, Need):
            return pick
        if pick is None:
            return Step([ev.Narrated(text="You are connected to every neighborhood already.",
                                     by="engine")])
        nb = next(n for n in self.neighborhoods() if slug(n) == pick)
        return Step([CitySheetChanged(key="connections", value=[*have, nb],
                                      text=f"You are connected to {nb}.")])

    @CITY_REGISTRY.rule_effect("meet_demand")
    def _r_meet_demand(self, state: CampaignState, args: dict[str, Any], ctx: EffectContext
                       ) -> Step:
        demands = self.hero_sheet(state).demands
        open_ = [d for d in demands if not d.met]
        if not open_:
            raise IllegalAction("the city has no open Demand of you: Perceive a Demand after a"
                                " roll to take one")
        open_[0].met = True
        step = Step([CitySheetChanged(key="demands", value=dump(demands),
                                      text=f"Demand met: {open_[0].text}.")],
                    push=[effect_item({"type": "advance"}, ctx)])
        if len(demands) >= MAX_DEMANDS:
            step.push.append({"trigger": "retire", "ctx": {"target": None}})
        return step

    @CITY_REGISTRY.rule_effect("raise_complexity")
    def _r_raise_complexity(self, state: CampaignState, args: dict[str, Any],
                            ctx: EffectContext) -> Step:
        n = self.hero_sheet(state).max_complexity + 1
        return Step([CitySheetChanged(key="max_complexity", value=n,
                                      text=f"Your power's max complexity is now {n}.")])


__all__ = ["CityMoveRules"]
