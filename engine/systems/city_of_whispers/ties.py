"""City of Whispers Ties and their secrets: Observe Someone, Name a Tie, secrets used,
revealed or made public, and the Magistrate's trouble for a Tie.
"""

from __future__ import annotations

from typing import Any

from engine.errors import IllegalAction
from engine.rules import events as ev
from engine.rules.base import Need, Step, effect_item, gm_random, opt
from engine.rules.state import CampaignState
from engine.rules.types import EffectContext
from engine.systems.city_of_whispers.common import CityBase, rule
from engine.systems.city_of_whispers.events import CITY_REGISTRY, CitySheetChanged
from engine.systems.city_of_whispers.sheet import Tie, dump


class TieRules(CityBase):
    """The rule effects of Ties and their secrets."""

    def _new_tie(self, state: CampaignState, npc: str, why: str) -> CitySheetChanged:
        ties = self.hero_sheet(state).ties
        insight = self._draw(state, "insights", f"insight:{npc}") or "private affairs"
        name = self._name(state, npc)
        ties[npc] = Tie(name=name, insight=insight)
        return CitySheetChanged(key="ties", value=dump(ties),
                                text=f"{name} becomes your Tie ({why}). The {self.gm_title} tells"
                                     f" you what you know: a secret about their {insight}.")

    @CITY_REGISTRY.rule_effect("observe")
    def _r_observe(self, state: CampaignState, args: dict[str, Any], ctx: EffectContext
                   ) -> Step | Need:
        """Observe Someone, 12+ and 10-11: questions, and the Tie (or one more question)."""
        target = ctx.get("target")
        tie = self.is_tie(state, target)
        if args.get("band") == "critical":
            if tie:
                return Step(push=[effect_item({"type": "ask", "count": 3}, ctx)])
            events: list[ev.Event] = [
                self._new_tie(state, target, "you watched them closely")] if target else []
            return Step(events, push=[effect_item({"type": "ask", "count": 2}, ctx)])
        if not args.get("asked"):
            return Step(push=[effect_item({"type": "ask", "count": 2}, ctx),
                              effect_item(rule("observe", **{**args, "asked": True}), ctx)])
        if args.get("pick") is None:
            more = ("Mark Heat to ask one more question" if tie else
                    f"Mark Heat to add them as a Tie (the {self.gm_title} names an Insight)")
            return Need("pick", "Observe Someone: push your luck?",
                        [opt("heat", more), opt("no", "Leave it there")])
        if args["pick"] == "no":
            return Step()
        push = [effect_item(rule("mark_heat", amount=1), ctx)]
        if tie:
            push.append(effect_item({"type": "ask", "count": 1}, ctx))
            return Step(push=push)
        return Step([self._new_tie(state, target, "you marked Heat to learn more")]
                    if target else [], push=push)

    @CITY_REGISTRY.rule_effect("name_tie")
    def _r_name_tie(self, state: CampaignState, args: dict[str, Any], ctx: EffectContext
                    ) -> Step:
        target = ctx.get("target")
        n = self.hero_sheet(state).ties_to_name
        if n < 1:
            raise IllegalAction("you have no Tie left to name: Observe Someone to gain one")
        if not target:
            raise IllegalAction("name the person as the target")
        if self.is_tie(state, target):
            raise IllegalAction(f"{self._name(state, target)} is already your Tie")
        return Step([self._new_tie(state, target, "you go back a long way"),
                     CitySheetChanged(key="ties_to_name", value=n - 1 or None, text="")])

    @CITY_REGISTRY.rule_effect("require_secret")
    def _r_require_secret(self, state: CampaignState, args: dict[str, Any], ctx: EffectContext
                          ) -> Step:
        if not self.usable_secrets(state):
            raise IllegalAction("you hold no secret you can use: a Tie carries one (Observe"
                                " Someone, or Name a Tie)")
        return Step()

    @CITY_REGISTRY.rule_effect("reveal_secret")
    def _r_reveal_secret(self, state: CampaignState, args: dict[str, Any], ctx: EffectContext
                         ) -> Step | Need:
        target = ctx.get("target")
        npc = args.get("pick") or self.hero_sheet(state).revealing
        if npc is None:
            ties = self.hero_sheet(state).ties
            options = [opt(n, f"{ties[n].name}'s {ties[n].insight}")
                       for n in self.usable_secrets(state)]
            if not options:
                raise IllegalAction("you hold no secret to reveal")
            picked = self._pick(args, "pick", "Reveal which secret?", options)
            if isinstance(picked, Need):
                return picked
            npc = picked
        npc = str(npc)
        ties = self.hero_sheet(state).ties
        tie = ties.get(npc) or Tie(name=self._name(state, npc), insight="affairs")
        listener = self._name(state, target) if target else "someone"
        events: list[ev.Event] = [
            ev.DataSet(scope="hero", key="revealing", value=npc),
            ev.Narrated(text=f"You reveal {tie.name}'s secret (their {tie.insight}) to"
                             f" {listener}.", by="engine")]
        if target == npc and npc in ties:
            ties[npc].secret = "marked"
            ties[npc].active = False
            events.append(CitySheetChanged(key="ties", value=dump(ties),
                                           text=f"The secret is marked, and {tie.name} is no"
                                                " longer your Tie."))
        return Step(events, push=[effect_item(rule("mark_heat", amount=1), ctx)])

    @CITY_REGISTRY.rule_effect("secret_public")
    def _r_secret_public(self, state: CampaignState, args: dict[str, Any], ctx: EffectContext
                         ) -> Step:
        sheet = self.hero_sheet(state)
        npc = sheet.revealing
        events: list[ev.Event] = [ev.DataSet(scope="hero", key="revealing", value=None)]
        ties = sheet.ties
        if args.get("public") and npc is not None and npc in ties:
            ties[npc].secret = "erased"
            events.append(CitySheetChanged(key="ties", value=dump(ties),
                                           text=f"{ties[npc].name}'s secret is public"
                                                " knowledge now: erased."))
        return Step(events)

    # --- the Magistrate's rule effects

    @CITY_REGISTRY.rule_effect("tie_trouble")
    def _r_tie_trouble(self, state: CampaignState, args: dict[str, Any], ctx: EffectContext
                       ) -> Step:
        sheet = self.hero_sheet(state)
        ties = sheet.active_ties()
        if not ties:
            return Step()
        npc = gm_random(state, "cow:tie").choice(sorted(ties))
        name = sheet.ties[npc].name
        return Step([ev.Narrated(text=f"It is {name} who is caught up in it: your Tie, and"
                                      " everyone knows it.", by="gm")])


__all__ = ["TieRules"]
