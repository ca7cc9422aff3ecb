"""City of Whispers declarations: what may be declared before a roll (Use Belief, Use a
Secret, an asset, a connection, a Tie, an offer, a scheme, the faction rolling), one of a
kind per roll, and the advantage or disadvantage they give (3d6, keep the two highest or
lowest).
"""

from __future__ import annotations

import random
from dataclasses import replace
from fractions import Fraction

from engine.content import schema as s
from engine.odds import percent
from engine.rules.base import Declaration
from engine.rules.state import CampaignState
from engine.systems.city_of_whispers.common import (
    ASSETS,
    CITY,
    COMPLEXITY,
    CONNECTION_MODIFIER,
    FACTION,
    GROUPS,
    HEAT,
    OFFERS,
    SECRET_MOVE,
    SOCIAL,
    TIE_ADVANTAGE,
    CityBase,
    slug,
)


class DeclarationRules(CityBase):
    """Declarations before a roll and the dice mode they set."""

    def _secret_in_play(self, state: CampaignState, move: s.Move, declared: list[str]
                        ) -> str | None:
        for d in declared:
            if d.startswith("secret:"):
                return d.split(":", 1)[1]
        if move.id == SECRET_MOVE:
            usable = self.usable_secrets(state)
            target = state.flow.target if state.flow.move == move.id else None
            if target in usable:
                return target
            return usable[0] if usable else None
        return None

    def _mode(self, state: CampaignState, move: s.Move, declared: list[str]) -> str | None:
        """Advantage, disadvantage or None (none, or one of each cancelling out)."""
        if move.roll is None:
            return None
        manual = state.flow.advantage if state.flow.move == move.id else None
        adv = manual == "advantage" or move.roll.advantage == "always"
        dis = manual == "disadvantage"
        groups = {d.split(":", 1)[0] for d in declared}
        if groups & {"belief", "secret", "asset", "tie"}:
            adv = True
        if "connection" in groups and move.category == CITY:
            adv = True
        if move.id == SECRET_MOVE and self._secret_in_play(state, move, declared):
            adv = True
        complexity = self.roll_param(state, move, COMPLEXITY)
        if (complexity is not None and not move.roll.inverted
                and complexity > self.hero_sheet(state).max_complexity):
            dis = True
        if adv and dis:
            return None
        return "advantage" if adv else "disadvantage" if dis else None

    def dice_mode(self, state: CampaignState, move: s.Move) -> str | None:
        """From the declarations, Use Power's complexity and any choice made by hand."""
        return self._mode(state, move, self._declared(state, move))

    def _low_odds(self, state: CampaignState, move: s.Move, declared: list[str]) -> str:
        dice = 3 if self._mode(state, move, declared) else 2
        return percent(1 - Fraction(2, 3) ** dice)

    def declarations(self, state: CampaignState, move: s.Move) -> list[Declaration]:
        """Use Belief, Use a Secret, an asset, a connection, a Tie, an offer, a scheme or a
        faction; once one of a kind is declared, only it is listed (to withdraw it)."""
        return [replace(d, group=kind) if (kind := d.id.split(":", 1)[0]) in GROUPS else d
                for d in self._one_per_group(self._every_declaration(state, move),
                                             self._declared(state, move))]

    def _every_declaration(self, state: CampaignState, move: s.Move) -> list[Declaration]:
        """Every declaration this roll allows, before the one-of-a-kind rule."""
        if move.roll is None:
            return []
        declared = self._declared(state, move)
        offered: list[Declaration] = []
        if move.category == FACTION:
            facs = self.factions(state)
            for fid in self.live_factions(state):
                f = facs[fid]
                offered.append(Declaration(
                    f"faction:{fid}", f"The faction rolling: {f.name}",
                    f"{len(f.aspects)} aspects, {len(f.neighborhoods)} neighborhoods"))
            return offered
        if move.roll.inverted:
            return []
        sheet = self.hero_sheet(state)
        for b in sheet.beliefs:
            if b.state == "wrong":
                continue
            what = "challenges it" if b.state == "active" else "proves it wrong"
            did = f"belief:{b.id}"
            offered.append(Declaration(
                did, f"Use Belief: {b.text}" + (" (challenged)" if b.state ==
                                                   "challenged" else ""),
                f"roll with advantage; {self._low_odds(state, move, [*declared, did])} that a"
                f" die shows 1 or 2 and {what}"))
        if move.category in SOCIAL:
            for npc in self.usable_secrets(state):
                tie = sheet.ties[npc]
                did = f"secret:{npc}"
                offered.append(Declaration(
                    did, f"Use a Secret: {tie.name}'s {tie.insight}",
                    f"roll with advantage; {self._low_odds(state, move, [*declared, did])} that a"
                    f" die shows 1 or 2 and you Reveal a Secret"))
            assets = state.hero.tracks.get(ASSETS, 0)
            if assets > 0:
                offered.append(Declaration("asset", "Use Asset: spend one to roll with advantage",
                                           f"you hold {assets}; spent when you roll"))
            if move.roll.stat == "offer":
                target = state.flow.target if state.flow.move == move.id else None
                for o in OFFERS:
                    label, value = self._offer_reading(state, target, o)
                    offered.append(Declaration(f"offer:{o}", f"Offer {o}",
                                               f"the {self.gm_title} reads it: {label}"
                                               f" {value:+d}"))
        if move.category == CITY or move.id in CONNECTION_MODIFIER:
            for nb in self.connections_here(state, move):
                effect = ("roll with advantage" if move.category == CITY else
                          f"{CONNECTION_MODIFIER[move.id][0]:+d} instead of"
                          f" {CONNECTION_MODIFIER[move.id][1]:+d}")
                offered.append(Declaration(f"connection:{slug(nb)}",
                                           f"You are connected to {nb}", effect))
        if move.id in TIE_ADVANTAGE:
            target = state.flow.target if state.flow.move == move.id else None
            if self.is_tie(state, target):
                offered.append(Declaration("tie", f"Your Tie with {self._name(state, target)}",
                                           "roll with advantage"))
        if move.roll.stat == "productivity":
            for sc in sheet.schemes:
                if f"session:scheme:{sc.id}" not in state.used:
                    offered.append(Declaration(f"scheme:{sc.id}", f"Run {sc.name}",
                                               f"Productivity {sc.productivity:+d}"))
        return offered

    def declaration_name(self, state: CampaignState, move: s.Move, declaration: str) -> str:
        """The declaration's label, or a name read from its id (a belief's words, a Tie's
        name, a neighborhood) when it is not on offer."""
        found = next((d for d in self._every_declaration(state, move) if d.id == declaration),
                     None)
        if found is not None:
            return found.label
        kind, _, key = declaration.partition(":")
        sheet = self.hero_sheet(state)
        if kind == "belief":
            b = sheet.belief(key)
            return f"Use Belief: {b.text}" if b else f"a belief {key!r}"
        if kind == "secret":
            tie = sheet.ties.get(key)
            return f"Use a Secret: {tie.name}'s" if tie else f"a secret about {key!r}"
        if kind == "connection":
            nb = next((n for n in self.neighborhoods() if slug(n) == key), key)
            return f"a connection to {nb}"
        if kind == "offer":
            return f"Offer {key}"
        if kind == "faction":
            f = self.factions(state).get(key)
            return f"The faction rolling: {f.name}" if f else f"a faction {key!r}"
        if kind == "scheme":
            sc = sheet.scheme(key)
            return f"Run {sc.name}" if sc else f"a scheme {key!r}"
        return {"asset": "Use Asset", "tie": "Your Tie"}.get(declaration, repr(declaration))

    def declaration_refused(self, state: CampaignState, move: s.Move, declaration: str) -> str:
        """Why, in names: another of its kind is declared, the connection is to another
        neighborhood, the belief is proven wrong or the secret spent, or the roll does not
        take it; then what may be declared."""
        name = self.declaration_name(state, move, declaration)
        declared = self._declared(state, move)
        kind, _, key = declaration.partition(":")
        every = {d.id for d in self._every_declaration(state, move)}
        why = ""
        if declaration in every:
            other = next((d for d in declared if d.split(":", 1)[0] == kind), None)
            if other is not None:
                why = (f"{self.declaration_name(state, move, other)} is declared already (one"
                       f" {kind} per roll): withdraw it first")
        elif kind == "connection":
            sheet = self.hero_sheet(state)
            here = self.scene_neighborhood(state)
            nb = next((n for n in self.neighborhoods() if slug(n) == key), None)
            if nb is not None and nb in sheet.connections and here:
                why = (f"you are connected to {nb}, but the scene is in {here}: the connection"
                       " does not count here")
            elif nb is not None and nb not in sheet.connections:
                why = f"you are not connected to {nb}"
        elif kind == "belief":
            b = self.hero_sheet(state).belief(key)
            if b is not None and b.state == "wrong":
                why = "that belief was proven wrong: it no longer gives advantage"
        elif kind == "secret" and key in self.hero_sheet(state).ties:
            why = "that secret is spent or the Tie is gone"
        elif declaration == "asset" and state.hero.tracks.get(ASSETS, 0) < 1:
            why = "you hold no asset"
        if not why:
            why = f"{move.name} does not take it now"
        offered = self.declarations(state, move)
        can = ("you may declare: " + "; ".join(d.label for d in offered) if offered
               else "nothing else can be declared")
        return f"{name} cannot be declared: {why} ({can})"

    @staticmethod
    def _one_per_group(offered: list[Declaration], declared: list[str]) -> list[Declaration]:
        out = []
        for d in offered:
            group = d.id.split(":", 1)[0]
            taken = [x for x in declared if x.split(":", 1)[0] == group]
            if group in GROUPS and taken and d.id not in taken:
                continue
            out.append(d)
        return out

    # --- the Magistrate's reading of an offer

    def _offer_reading(self, state: CampaignState, npc: str | None, offer: str
                       ) -> tuple[str, int]:
        """How the Magistrate reads ``npc`` answering an offer: fixed per NPC and offer."""
        reading = getattr(self.data.offer_readings, offer) if offer in OFFERS else None
        weights = reading.weights() if reading is not None and any(
            reading.weights().values()) else {"sway": 1, "minus_heat": 1, "none": 1}
        rng = random.Random(f"{getattr(state, 'seed', 0)}:offer:{npc}:{offer}")
        keys = sorted(weights)
        pick = rng.choices(keys, weights=[weights[k] for k in keys], k=1)[0]
        who = self._name(state, npc) if npc else "they"
        if pick == "sway":
            return f"Sway ({who} answer{'s' if npc else ''} {offer} with Sway)", \
                state.hero.stats.get("sway", 0)
        if pick == "minus_heat":
            heat = state.hero.tracks.get(HEAT, 0)
            return f"minus Heat ({who} weigh{'s' if npc else ''} {offer} against your Heat," \
                   f" {heat} marked)", -heat
        return f"flat ({who} take{'s' if npc else ''} {offer} on its merits)", 0


__all__ = ["DeclarationRules"]
