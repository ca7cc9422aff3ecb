"""City of Whispers schemes: set up, run (Productivity) and troubled by the Magistrate.
"""

from __future__ import annotations

from typing import Any

from engine.errors import IllegalAction
from engine.rules import events as ev
from engine.rules.base import Step, gm_random
from engine.rules.state import CampaignState
from engine.rules.types import EffectContext
from engine.systems.city_of_whispers.common import PRODUCTIVITY, CityBase
from engine.systems.city_of_whispers.events import CITY_REGISTRY, CitySheetChanged
from engine.systems.city_of_whispers.sheet import Scheme, dump


class SchemeRules(CityBase):
    """The rule effects of the hero's schemes."""

    def _scheme_in_play(self, state: CampaignState) -> Scheme | None:
        sheet = self.hero_sheet(state)
        return sheet.scheme((sheet.roll or {}).get("scheme"))

    @CITY_REGISTRY.rule_effect("require_scheme")
    def _r_require_scheme(self, state: CampaignState, args: dict[str, Any], ctx: EffectContext
                          ) -> Step:
        schemes = self.hero_sheet(state).schemes
        if not schemes:
            raise IllegalAction("you run no scheme: Set Up a Scheme first")
        if all(f"session:scheme:{x.id}" in state.used for x in schemes):
            raise IllegalAction("every scheme of yours has been run this session")
        return Step()

    @CITY_REGISTRY.rule_effect("start_scheme")
    def _r_start_scheme(self, state: CampaignState, args: dict[str, Any], ctx: EffectContext
                        ) -> Step:
        schemes = self.hero_sheet(state).schemes
        ids = {x.id for x in schemes}
        i = len(schemes) + 1
        while f"s{i}" in ids:
            i += 1
        name = str(ctx.get("fiction") or "").strip().rstrip(".")[:80] or f"Scheme {i}"
        prod = int(args.get("productivity") or 0)
        schemes.append(Scheme(id=f"s{i}", name=name, productivity=prod))
        return Step([CitySheetChanged(key="schemes", value=dump(schemes),
                                      text=f"Scheme set up: {name} (Productivity {prod:+d}).")])

    @CITY_REGISTRY.rule_effect("productivity")
    def _r_productivity(self, state: CampaignState, args: dict[str, Any], ctx: EffectContext
                        ) -> Step:
        sc = self._scheme_in_play(state)
        if sc is None:
            return Step()
        schemes = self.hero_sheet(state).schemes
        x = next(y for y in schemes if y.id == sc.id)
        lo, hi = PRODUCTIVITY
        new = max(lo, min(hi, x.productivity + int(args.get("delta") or 0)))
        if new == x.productivity:
            return Step([ev.Narrated(text=f"{x.name}: Productivity stays at {new:+d}"
                                          f" (it runs from {lo:+d} to {hi:+d}).", by="engine")])
        x.productivity = new
        return Step([CitySheetChanged(key="schemes", value=dump(schemes),
                                      text=f"{x.name}: Productivity {new:+d}.")])

    # --- the Magistrate's rule effects

    @CITY_REGISTRY.rule_effect("scheme_trouble")
    def _r_scheme_trouble(self, state: CampaignState, args: dict[str, Any], ctx: EffectContext
                          ) -> Step:
        schemes = self.hero_sheet(state).schemes
        if not schemes:
            return Step()
        x = gm_random(state, "cow:scheme").choice(schemes)
        lo, _ = PRODUCTIVITY
        x.productivity = max(lo, x.productivity - 1)
        return Step([CitySheetChanged(key="schemes", value=dump(schemes),
                                      text=f"{x.name} suffers: Productivity"
                                           f" {x.productivity:+d}.")])


__all__ = ["SchemeRules"]
