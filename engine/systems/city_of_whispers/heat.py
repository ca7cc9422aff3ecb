"""City of Whispers Heat and assets: marking Heat (or spending assets to avoid it), and
assets spent or lost.
"""

from __future__ import annotations

from typing import Any

from engine.errors import IllegalAction
from engine.rules import events as ev
from engine.rules.base import Need, Step, effect_item, opt
from engine.rules.state import CampaignState
from engine.rules.types import EffectContext
from engine.systems.city_of_whispers.common import ASSETS, HEAT, CityBase
from engine.systems.city_of_whispers.events import CITY_REGISTRY


class HeatRules(CityBase):
    """The rule effects of Heat and assets."""

    def _heat_step(self, state: CampaignState, n: int, ctx: EffectContext) -> Step:
        tdef = self.pack.tracks[HEAT]
        heat = state.hero.tracks.get(HEAT, tdef.start)
        if tdef.max is not None and heat >= tdef.max:
            return Step([ev.Narrated(text=f"Your Heat is already full: the {self.gm_title} makes"
                                          " a hard move instead.", by="engine")],
                        push=[effect_item({"type": "gm_move", "kind": "hard"}, ctx)])
        return Step(push=[effect_item({"type": "track", "track": HEAT, "delta": n}, ctx)])

    @CITY_REGISTRY.rule_effect("mark_heat")
    def _r_mark_heat(self, state: CampaignState, args: dict[str, Any], ctx: EffectContext
                     ) -> Step | Need:
        n = int(args.get("amount") or 1)
        assets = state.hero.tracks.get(ASSETS, 0)
        if args.get("pick") is not None:
            spend = int(str(args["pick"]).split(":")[-1])
            events: list[ev.Event] = []
            if spend:
                events.append(ev.TrackChanged(track=ASSETS, scope="hero", delta=-spend,
                                              value=assets - spend,
                                              reason="Use Asset: avoid marking Heat"))
            step = self._heat_step(state, n - spend, ctx) if n - spend else Step()
            step.events[:0] = events
            return step
        if assets < 1:
            return self._heat_step(state, n, ctx)
        why = ctx.get("source") or "Heat"
        options = [opt("spend:0", f"Mark {n} Heat")] + [
            opt(f"spend:{k}", f"Spend {k} asset{'s' if k > 1 else ''} to avoid"
                f" {'it' if k == n else f'{k} of it'}", f"you hold {assets}")
            for k in range(1, min(n, assets) + 1)]
        return Need("pick", f"{why}: mark {n} Heat, or spend an asset to avoid it?", options)

    @CITY_REGISTRY.rule_effect("spend_asset")
    def _r_spend_asset(self, state: CampaignState, args: dict[str, Any], ctx: EffectContext
                       ) -> Step:
        have = state.hero.tracks.get(ASSETS, 0)
        if have < 1:
            raise IllegalAction("you hold no asset to spend: Run the Scheme to collect some")
        return Step([ev.TrackChanged(track=ASSETS, scope="hero", delta=-1, value=have - 1,
                                     reason=ctx.get("source", "Use Asset"))])

    # --- the Magistrate's rule effects

    @CITY_REGISTRY.rule_effect("lose_asset")
    def _r_lose_asset(self, state: CampaignState, args: dict[str, Any], ctx: EffectContext
                      ) -> Step:
        have = state.hero.tracks.get(ASSETS, 0)
        if have < 1:
            return Step()
        return Step([ev.TrackChanged(track=ASSETS, scope="hero", delta=-1, value=have - 1,
                                     reason=ctx.get("source", "lost"))])


__all__ = ["HeatRules"]
