"""City of Whispers beliefs: granted, written, cleared and challenged; and Sample the Sights
& Sounds, which grants one when no one invites the hero.
"""

from __future__ import annotations

from typing import Any

from engine.errors import IllegalAction
from engine.rules import events as ev
from engine.rules.base import Need, Step, gm_random, opt
from engine.rules.state import CampaignState
from engine.rules.types import EffectContext
from engine.systems.city_of_whispers.common import SOCIAL, CityBase
from engine.systems.city_of_whispers.events import CITY_REGISTRY, CitySheetChanged
from engine.systems.city_of_whispers.sheet import Belief, dump


class BeliefRules(CityBase):
    """The rule effects of the hero's beliefs."""

    @CITY_REGISTRY.rule_effect("grant_belief")
    def _r_grant_belief(self, state: CampaignState, args: dict[str, Any], ctx: EffectContext
                        ) -> Step:
        n = self.hero_sheet(state).beliefs_to_write + 1
        return Step([CitySheetChanged(key="beliefs_to_write", value=n,
                                      text=f"You may write a new belief ({n} to write: the"
                                           " Write a Belief move).")])

    @CITY_REGISTRY.rule_effect("write_belief")
    def _r_write_belief(self, state: CampaignState, args: dict[str, Any], ctx: EffectContext
                        ) -> Step:
        text = str(ctx.get("fiction") or "").strip()
        n = self.hero_sheet(state).beliefs_to_write
        if n < 1:
            raise IllegalAction("you have no new belief to write: Ear to the Ground, Appraise"
                                " Circumstances and Sample the Sights & Sounds can give you one")
        if not text:
            raise IllegalAction("write the belief itself as your fiction, e.g. 'Every guard in"
                                " Lantern Row has a price'")
        beliefs = self.hero_sheet(state).beliefs
        ids = {b.id for b in beliefs}
        i = len(beliefs) + 1
        while f"b{i}" in ids:
            i += 1
        beliefs.append(Belief(id=f"b{i}", text=text))
        return Step([CitySheetChanged(key="beliefs", value=dump(beliefs),
                                      text=f"New belief: \"{text}\"."),
                     CitySheetChanged(key="beliefs_to_write", value=n - 1 or None, text="")])

    @CITY_REGISTRY.rule_effect("clear_belief")
    def _r_clear_belief(self, state: CampaignState, args: dict[str, Any], ctx: EffectContext
                        ) -> Step | Need:
        beliefs = self.hero_sheet(state).beliefs
        options = [opt(b.id, b.text) for b in beliefs if b.state == "challenged"]
        pick = self._pick(args, "pick", "Clear which challenged belief?", options)
        if isinstance(pick, Need):
            return pick
        if pick is None:
            return Step([ev.Narrated(text="No belief of yours is challenged.", by="engine")])
        b = next(x for x in beliefs if x.id == pick)
        b.state = "active"
        return Step([CitySheetChanged(key="beliefs", value=dump(beliefs),
                                      text=f"Your belief \"{b.text}\" is reaffirmed: cleared.")])

    @CITY_REGISTRY.rule_effect("challenge_belief")
    def _r_challenge_belief(self, state: CampaignState, args: dict[str, Any], ctx: EffectContext
                            ) -> Step | Need:
        beliefs = self.hero_sheet(state).beliefs
        active = [b for b in beliefs if b.state == "active"]
        if not active:
            return Step([ev.Narrated(text="None of your beliefs is left to challenge.",
                                     by="engine")])
        if args.get("gm"):
            pick: Any = gm_random(state, "cow:challenge").choice(active).id
        else:
            pick = self._pick(args, "pick", "Which belief is challenged? Mark it.",
                              [opt(b.id, b.text) for b in active])
            if isinstance(pick, Need):
                return pick
        b = next(x for x in beliefs if x.id == pick)
        b.state = "challenged"
        return Step([CitySheetChanged(key="beliefs", value=dump(beliefs),
                                      text=f"Your belief \"{b.text}\" is challenged: marked.")])

    # --- Sample the Sights & Sounds

    @CITY_REGISTRY.rule_effect("sample")
    def _r_sample(self, state: CampaignState, args: dict[str, Any], ctx: EffectContext
                  ) -> Step:
        target = ctx.get("target")
        if target:
            social = [m.id for m in self.pack.moves.values()
                      if m.category in SOCIAL and m.roll is not None]
            return Step([ev.BonusAdded(id=state.next_id, kind="forward", amount=1, moves=social,
                                       target=target, expires="session",
                                       reason=f"{self._name(state, target)} invited you")])
        return self._r_grant_belief(state, args, ctx)


__all__ = ["BeliefRules"]
