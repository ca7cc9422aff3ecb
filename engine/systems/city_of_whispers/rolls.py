"""City of Whispers rolls: the stats only this game rolls (minus Heat, an offer,
Productivity, complexity, a faction's aspects), its modifiers, and what happens after the
roll (the dice-face rule on beliefs and secrets, assets spent, the roll's record).
"""

from __future__ import annotations

from typing import Any

from engine.content import schema as s
from engine.errors import IllegalAction
from engine.rules import events as ev
from engine.rules.base import Item
from engine.rules.state import CampaignState
from engine.rules.types import Modifier, RollDict
from engine.systems.city_of_whispers.common import (
    ASPECTS,
    ASSETS,
    COMPLEXITY,
    CONNECTION_MODIFIER,
    FACTION,
    HEAT,
    SCHEME_COST,
    emit,
    low,
    slug,
)
from engine.systems.city_of_whispers.declarations import DeclarationRules
from engine.systems.city_of_whispers.events import CitySheetChanged
from engine.systems.city_of_whispers.factions import FactionRules
from engine.systems.city_of_whispers.sheet import Scheme, dump


class RollRules(DeclarationRules, FactionRules):
    """A roll's stats and modifiers, and the dice-face rule after it."""

    def _scheme_for(self, state: CampaignState, move: s.Move) -> Scheme | None:
        sheet = self.hero_sheet(state)
        schemes = sheet.schemes
        for d in self._declared(state, move):
            if d.startswith("scheme:"):
                return sheet.scheme(d.split(":", 1)[1])
        free = [x for x in schemes if f"session:scheme:{x.id}" not in state.used]
        return free[0] if free else (schemes[0] if schemes else None)

    def stat_value(self, state: CampaignState, move: s.Move, stat: str) -> tuple[str, int]:
        """minus_heat, offer (the Magistrate's reading), productivity, Backfire's complexity
        (Use Power's, unless set) and aspects (capped by what the faction has)."""
        if stat == "minus_heat":
            heat = state.hero.tracks.get(HEAT, 0)
            return f"minus Heat ({heat} marked)", -heat
        if stat == "offer":
            offer = next((d.split(":", 1)[1] for d in self._declared(state, move)
                          if d.startswith("offer:")), None)
            target = state.flow.target if state.flow.move == move.id else None
            label, value = self._offer_reading(state, target, offer or "logic")
            if offer is None:
                label += "; no offer named, read as logic"
            return label, value
        if stat == "productivity":
            sc = self._scheme_for(state, move)
            if sc is None:
                return "no scheme running", 0
            return f"Productivity of {sc.name}", int(sc.productivity)
        if (stat == f"param:{COMPLEXITY}" and move.roll is not None and move.roll.inverted
                and not (state.flow.move == move.id and COMPLEXITY in state.flow.params)):
            value = self.hero_sheet(state).complexity
            return f"complexity of the power ({value})", value
        if stat == f"param:{ASPECTS}":
            label, value = super().stat_value(state, move, stat)
            fid = self.acting_faction(state, move)
            if fid is not None:
                f = self.factions(state)[fid]
                cap = len(f.aspects) + len(f.neighborhoods)
                if value > cap:
                    return (f"relevant aspects of {f.name} ({value}, capped at the {cap} it"
                            f" has)", cap)
                return f"relevant aspects of {f.name} ({value})", value
            return label, value
        return super().stat_value(state, move, stat)

    def extra_modifiers(self, state: CampaignState, move: s.Move, target: str | None
                        ) -> list[Modifier]:
        """Use Power's connection modifier; -1 per scheme already running."""
        out: list[Modifier] = []
        if move.id in CONNECTION_MODIFIER:
            yes, no = CONNECTION_MODIFIER[move.id]
            nb = self._connection(state, move)
            out.append([f"connected to {nb}", yes, None] if nb else
                       ["no connection to this neighborhood", no, None])
        if move.id in SCHEME_COST:
            n = len(self.hero_sheet(state).schemes)
            if n:
                out.append([f"schemes already running ({n})", -n, None])
        return out

    def _connection(self, state: CampaignState, move: s.Move) -> str | None:
        by_slug: dict[str, str] = {slug(n): n for n in self.connections_here(state, move)}
        for d in self._declared(state, move):
            if d.startswith("connection:") and d.split(":", 1)[1] in by_slug:
                return by_slug[d.split(":", 1)[1]]
        return None

    # --- after the roll -----------------------------------------------------------------

    def after_roll(self, state: CampaignState, move: s.Move, roll: RollDict) -> list[Item]:
        """The dice-face rule (all faces, the dropped one too), spent assets, and what the
        outcome needs to know (the scheme run, the faction acting, the complexity)."""
        declared = self._declared(state, move)
        faces = [int(f) for f in roll.get("faces", [])]
        record: dict[str, Any] = {"move": move.id, "declared": declared, "faces": faces,
                                  "band": roll.get("band"), "target": state.flow.target}
        items: list[Item] = []
        if move.category == FACTION:
            fid = self.acting_faction(state, move)
            if fid is None:
                raise IllegalAction("no faction is left to roll for: Found a Faction first")
            record["faction"] = fid
            items.append(emit(ev.DataSet(scope="campaign", key="acting_faction", value=fid)))
        complexity = self.roll_param(state, move, COMPLEXITY)
        if complexity is not None and not (move.roll and move.roll.inverted):
            items.append(emit(ev.DataSet(scope="hero", key="complexity", value=complexity)))
        if move.roll is not None and move.roll.stat == "productivity":
            sc = self._scheme_for(state, move)
            if sc is not None:
                record["scheme"] = sc.id
                items.append(emit(ev.OnceUsed(key=f"session:scheme:{sc.id}")))
        if "asset" in declared:
            have = state.hero.tracks.get(ASSETS, 0)
            if have < 1:
                raise IllegalAction("you hold no asset to spend")
            items.append(emit(ev.TrackChanged(track=ASSETS, scope="hero", delta=-1,
                                               value=have - 1,
                                               reason="Use Asset: advantage on a social roll")))
        items.insert(0, emit(ev.DataSet(scope="hero", key="roll", value=record)))
        belief = next((d.split(":", 1)[1] for d in declared if d.startswith("belief:")), None)
        if belief is not None:
            items += self._belief_dice(state, belief, faces)
        npc = self._secret_in_play(state, move, declared)
        if npc is not None:
            tie = self.hero_sheet(state).ties.get(npc)
            name = tie.name if tie else npc
            if low(faces):
                items.append(emit(ev.Narrated(
                    text=f"A die shows {min(faces)}: the secret about {name}"
                         " slips out (Reveal a Secret).", by="engine")))
                items.append(emit(ev.DataSet(scope="hero", key="revealing", value=npc)))
                items.append({"trigger": "reveal_a_secret", "ctx": {"target": state.flow.target}})
            else:
                items.append(emit(ev.Narrated(
                    text=f"No die shows 1 or 2: {name}'s secret stays yours.",
                    by="engine")))
        return items

    def _belief_dice(self, state: CampaignState, belief: str, faces: list[int]) -> list[Item]:
        beliefs = self.hero_sheet(state).beliefs
        b = next((x for x in beliefs if x.id == belief), None)
        if b is None or b.state == "wrong":
            raise IllegalAction("that belief cannot be used to roll with advantage")
        if not low(faces):
            return [emit(ev.Narrated(text=f"No die shows 1 or 2: your belief holds"
                                           f" (\"{b.text}\").", by="engine"))]
        was = b.state
        b.state = "challenged" if was == "active" else "wrong"
        text = (f"A die shows {min(faces)}: your belief \"{b.text}\" is challenged; mark it."
                if was == "active" else
                f"A die shows {min(faces)}: your belief \"{b.text}\" is proven wrong. You may"
                " keep holding it, but never again to roll with advantage.")
        return [emit(CitySheetChanged(key="beliefs", value=dump(beliefs), text=text))]


__all__ = ["RollRules"]
