"""Masks: A New Generation: what its content cannot say by itself.

Labels that would shift past -2/+3 mark a condition instead (the GM's choice); adults hold
Influence over the hero when introduced; Influence gives +1 against its subject and can be
surrendered after a roll for +1 more; Team can be spent after a roll for +1, or to act selfishly
and shift the label just rolled; entering battle and time passing reset the Team pool.
"""

from __future__ import annotations

from typing import Any

from engine.content import schema as s
from engine.errors import IllegalAction
from engine.odds import band_of
from engine.rules import events as ev
from engine.rules.base import Adjustment, Item, Need, Ruleset, Step, effect_item, gm_random, opt
from engine.rules.state import CampaignState

BATTLE_QUESTIONS = [
    ("leader_influence", "The leader holds Influence over every teammate (+1 Team)", 1),
    ("same_purpose", "Everyone fights for the same purpose (+1 Team)", 1),
    ("mistrust", "Someone mistrusts the leader or the team (-1 Team)", -1),
    ("off_balance", "The team is ill-prepared or off balance (-1 Team)", -1),
    ("leader_marks", "The leader (you) marks a condition to cancel one removal", 0),
]


class MasksRules(Ruleset):
    """The Masks ruleset."""

    id = "masks"
    rule_effect_names = frozenset({"surrender_influence", "enter_battle", "time_passes",
                                   "gm_shifts_labels", "npc_takes_influence"})

    # --- creation -------------------------------------------------------------------

    def npc_added(self, state: CampaignState, npc_id: str, role: str) -> list[ev.Event]:
        """Every adult holds Influence over the hero when first introduced."""
        if role == "adult":
            return [ev.InfluenceChanged(npc=npc_id, direction="over_hero", held=True,
                                        reason="adults have Influence over you when you meet")]
        return []

    # --- rolls ----------------------------------------------------------------------

    def extra_modifiers(self, state: CampaignState, move: s.Move, target: str | None
                        ) -> list[list[Any]]:
        """+1 on moves targeting someone the hero holds Influence over."""
        if target and target in state.npcs and state.npcs[target].hero_has_influence:
            return [[f"Influence over {state.npcs[target].name}", 1, None]]
        return []

    def _would_improve(self, move: s.Move, roll: dict[str, Any], amount: int) -> bool:
        if move.roll is None or move.roll.inverted:
            return False
        bands = self.pack.bands_for(move)
        clamp = self.pack.system.modifier_clamp
        base = roll["total"] - roll["modifier"]
        raw = roll["raw_modifier"] + amount
        new_mod = max(clamp[0], min(clamp[1], raw)) if clamp else raw
        return band_of(base + new_mod, bands) != roll["band"]

    def adjustments(self, state: CampaignState, move: s.Move, roll: dict[str, Any]
                    ) -> list[Adjustment]:
        """Spend Team (+1), surrender Influence over the target (+1) or act selfishly."""
        out: list[Adjustment] = []
        team = state.pools.get("team", 0)
        target = state.flow.target
        held = bool(target and target in state.npcs and state.npcs[target].hero_has_influence)
        # offer +1 steps while everything still available (each Team, the Influence held)
        # could change the result, so several Team can be spent one at a time
        if not self._would_improve(move, roll, team + int(held)):
            return out
        if team > 0:
            out.append(Adjustment("team", "Spend 1 Team for +1", 1,
                                  f"the pool has {team}"))
        if held and target:
            name = state.npcs[target].name
            out.append(Adjustment("influence", f"Surrender Influence over {name} for +1", 1,
                                  "take advantage of your Influence"))
        stat = roll.get("stat", "")
        if (team > 0 and stat in self.pack.stats and stat not in state.hero.locked
                and state.hero.stats.get(stat, 0) < self.pack.stats[stat].max):
            for other, sd in self.pack.stats.items():
                if other == stat or other in state.hero.locked:
                    continue
                if state.hero.stats.get(other, 0) <= sd.min:
                    continue
                out.append(Adjustment(
                    f"selfish:{other}",
                    f"Act selfishly: -1 Team, {self.pack.stats[stat].name} +1, {sd.name} -1",
                    1, "ignore or insult your teammates"))
        return out

    def adjust(self, state: CampaignState, adj_id: str, roll: dict[str, Any]
               ) -> tuple[list[ev.Event], int, str]:
        """Events for one after-roll adjustment."""
        team = state.pools.get("team", 0)
        if adj_id == "team":
            if team < 1:
                raise IllegalAction("the Team pool is empty")
            return ([ev.TrackChanged(track="team", scope="campaign", delta=-1, value=team - 1,
                                     reason="spent for +1 on a roll")], 1, "Team")
        if adj_id == "influence":
            target = state.flow.target
            if not target or not state.npcs[target].hero_has_influence:
                raise IllegalAction("you hold no Influence over the target")
            name = state.npcs[target].name
            return ([ev.InfluenceChanged(npc=target, direction="hero_over", held=False,
                                         reason="surrendered for +1 on a roll")], 1,
                    f"Influence over {name} (surrendered)")
        if adj_id.startswith("selfish:"):
            down = adj_id.split(":", 1)[1]
            up = roll["stat"]
            if team < 1:
                raise IllegalAction("acting selfishly costs 1 Team and the pool is empty")
            if down not in self.pack.stats or up not in self.pack.stats:
                raise IllegalAction(f"cannot act selfishly shifting {down!r}")
            # a label the hero lacks (a save older than the pack's label) counts as 0
            values = {up: state.hero.stats.get(up, 0) + 1,
                      down: state.hero.stats.get(down, 0) - 1}
            return ([ev.TrackChanged(track="team", scope="campaign", delta=-1, value=team - 1,
                                     reason="acted selfishly"),
                     ev.LabelsShifted(changes={up: 1, down: -1}, values=values,
                                      reason="acted selfishly")],
                    1, f"acted selfishly ({self.pack.stats[up].name} +1)")
        return super().adjust(state, adj_id, roll)

    # --- effects --------------------------------------------------------------------

    def shift_stats(self, state: CampaignState, changes: dict[str, int], reason: str) -> Step:
        """Shift labels; a shift past a bound marks a condition instead (GM's choice)."""
        values: dict[str, int] = {}
        done: dict[str, int] = {}
        step = Step()
        for stat, delta in changes.items():
            d = self.pack.stats[stat]
            new = state.hero.stats.get(stat, 0) + delta
            if new > d.max or new < d.min:
                free = [c for c in self.pack.conditions if c not in state.hero.conditions]
                word = "above" if new > d.max else "below"
                bound = d.max if new > d.max else d.min
                step.events.append(ev.Narrated(
                    text=f"{d.name} cannot go {word} {bound:+d}: mark a condition instead"
                         " (the GM's choice).", by="engine"))
                if free:
                    pick = gm_random(state, f"shift:{stat}").choice(free)
                    step.push.append(effect_item(
                        {"type": "mark_condition", "condition": pick},
                        {"source": f"{d.name} shift past its bound"}))
                else:
                    step.push.append(effect_item({"type": "mark_condition"},
                                                 {"source": f"{d.name} shift past its bound"}))
                continue
            values[stat] = new
            done[stat] = delta
        if done:
            step.events.insert(0, ev.LabelsShifted(changes=done, values=values, reason=reason))
        return step

    def gain_influence(self, state: CampaignState, npc_id: str, reason: str) -> Step:
        """Gaining Influence already held: a teammate's labels shift; an NPC gives +1 forward."""
        npc = state.npcs[npc_id]
        if not npc.hero_has_influence:
            return super().gain_influence(state, npc_id, reason)
        if npc.role == "teammate":
            return Step([ev.Narrated(
                text=f"You already hold Influence over {npc.name}: shift one of their Labels up"
                     " and one down, your choice.", by="engine")])
        return Step([ev.BonusAdded(id=state.next_id, kind="forward", amount=1, moves=[],
                                   target=npc_id, expires="session",
                                   reason=f"Influence over {npc.name} again")])

    def rule_effect(self, state: CampaignState, eff: s.Rule, ctx: dict[str, Any]) -> Step | Need:
        """surrender_influence, enter_battle, time_passes, gm_shifts_labels,
        npc_takes_influence."""
        target = ctx.get("target")
        match eff.name:
            case "surrender_influence":
                if not target or not state.npcs[target].hero_has_influence:
                    name = state.npcs[target].name if target else "them"
                    raise IllegalAction(f"you hold no Influence over {name} to take advantage of")
                return Step([ev.InfluenceChanged(npc=target, direction="hero_over", held=False,
                                                 reason="surrendered to take advantage")])
            case "enter_battle":
                return Need("battle", "Entering battle as a team: +2 Team. Which of these are"
                            " true?", [opt(i, text) for i, text, _ in BATTLE_QUESTIONS], 0,
                            len(BATTLE_QUESTIONS))
            case "time_passes":
                team = state.pools.get("team", 0)
                return Step([ev.TrackChanged(track="team", scope="campaign", delta=1 - team,
                                             value=1, reason="time passes: the pool resets")])
            case "gm_shifts_labels":
                return self._gm_shifts_labels(state, ctx)
            case "npc_takes_influence":
                npc_id = str(eff.args.get("npc") or ctx.get("npc") or "")
                if not npc_id:
                    candidates = [n for n in state.npcs.values() if n.present
                                  and not n.influence_over_hero and not n.barred]
                    if not candidates:
                        return Step()
                    npc_id = gm_random(state, "influence").choice(candidates).id
                return Step([ev.InfluenceChanged(npc=npc_id, direction="over_hero", held=True,
                                                 reason=ctx.get("source", "GM move"))])
        return super().rule_effect(state, eff, ctx)

    def _gm_shifts_labels(self, state: CampaignState, ctx: dict[str, Any]) -> Step:
        """The GM shifts one Label up and another down (its pick, fixed by the seed)."""
        free = [k for k in self.pack.stats if k not in state.hero.locked]
        ups = [k for k in free if state.hero.stats.get(k, 0) < self.pack.stats[k].max]
        downs = [k for k in free if state.hero.stats.get(k, 0) > self.pack.stats[k].min]
        pairs = [(u, d) for u in ups for d in downs if u != d]
        if not pairs:
            return Step([ev.Narrated(text="Their words find no Label left to move.",
                                     by="engine")])
        up, down = gm_random(state, "labels").choice(pairs)
        who = state.npcs[ctx["target"]].name if ctx.get("target") in state.npcs else "they"
        names = self.pack.stats
        step = self.shift_stats(state, {up: 1, down: -1},
                                f"the GM: what {who} said moves your Labels")
        step.events.insert(0, ev.Narrated(
            text=f"The GM shifts your Labels: {names[up].name} +1, {names[down].name} -1.",
            by="gm"))
        return step

    def rule_answer(self, state: CampaignState, eff: s.Rule, ctx: dict[str, Any], ids: list[str]
                    ) -> list[Item]:
        """Entering battle: +2 Team and the adjustments picked."""
        if eff.name != "enter_battle":
            return super().rule_answer(state, eff, ctx, ids)
        delta = 2 + sum(d for i, _, d in BATTLE_QUESTIONS if i in ids)
        items: list[Item] = []
        if "leader_marks" in ids and any(i in ids for i in ("mistrust", "off_balance")):
            delta += 1
            items.append(effect_item({"type": "mark_condition"},
                                     {"source": "the leader saves a Team"}))
        items.insert(0, effect_item({"type": "track", "track": "team", "delta": delta},
                                    {"source": "entering battle as a team"}))
        return items
