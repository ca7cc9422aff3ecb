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
``state.data["factions"]``. Both are written only by this module's events, so save, undo and
replay work; ``CitySheetChanged`` and ``CityFactionChanged`` carry a journal line.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from engine.content import schema as s
from engine.content.loader import Pack
from engine.errors import IllegalAction
from engine.odds import percent
from engine.rules import events as ev
from engine.rules import resolve
from engine.rules.base import (
    Adjustment,
    Declaration,
    Item,
    Need,
    Step,
    effect_item,
    gm_random,
    opt,
)
from engine.rules.sheet import Section
from engine.rules.state import CampaignState
from engine.rules.threats import threat_event
from engine.rules.types import EffectContext, Modifier, RollDict, answer_item
from engine.systems.city_of_whispers.common import (
    ASPECTS,
    ASSETS,
    CITY,
    COMPLEXITY,
    CONNECTION_MODIFIER,
    FACTION,
    GROUPS,
    HEAT,
    MAX_DEMANDS,
    OFFERS,
    PRODUCTIVITY,
    SCHEME_COST,
    SECRET_MOVE,
    SOCIAL,
    TIE_ADVANTAGE,
    TRAVEL,
    emit,
    low,
    rule,
    slug,
)
from engine.systems.city_of_whispers.data import data_problems
from engine.systems.city_of_whispers.events import (
    CITY_REGISTRY,
    CityFactionChanged,
    CitySheetChanged,
)
from engine.systems.city_of_whispers.factions import Faction, FactionRules
from engine.systems.city_of_whispers.sheet import (
    Belief,
    CitySheet,
    Demand,
    History,
    Scheme,
    Tie,
    dump,
)
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


class CityRules(FactionRules):
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

    def connections_here(self, state: CampaignState, move: s.Move) -> list[str]:
        """The hero's connections that count for ``move`` in this scene: the scene's
        neighborhood (any, on Transit or when the scene names no neighborhood)."""
        conns = list(self.hero_sheet(state).connections)
        here = self.scene_neighborhood(state)
        if move.id in TRAVEL or here is None:
            return conns
        return [c for c in conns if c == here]


    # --- declarations and dice -----------------------------------------------------------

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
        return self._one_per_group(self._every_declaration(state, move),
                                   self._declared(state, move))

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

    # --- roll sources and modifiers --------------------------------------------------------

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

    # --- after the roll: tier bumps and assets ---------------------------------------------

    def _next_band(self, move: s.Move, roll: RollDict) -> tuple[int, str] | None:
        bands = sorted(resolve.roll_bands(self.pack, move, roll),
                       key=lambda b: -10**9 if b.min is None else b.min)
        ids = [b.id for b in bands]
        i = ids.index(roll["band"])
        if i + 1 >= len(bands):
            return None
        nxt = bands[i + 1]
        assert nxt.min is not None
        return nxt.min - int(roll["total"]), nxt.name

    def adjustments(self, state: CampaignState, move: s.Move, roll: RollDict
                    ) -> list[Adjustment]:
        """Recall a History or Perceive a Demand (a tier up, once per session each, not on
        social, faction or Backfire rolls); spend assets for +1 each on a Network roll."""
        if move.roll is None or move.roll.inverted or move.category == FACTION:
            return []
        nxt = self._next_band(move, roll)
        if nxt is None:
            return []
        amount, name = nxt
        out: list[Adjustment] = []
        if move.category not in SOCIAL:
            if "session:history" not in state.used:
                here = self.scene_neighborhood(state)
                for i, h in enumerate(self.hero_sheet(state).histories):
                    if self._history_applies(h, here):
                        out.append(Adjustment(
                            f"history:{i}", f"Recall a History ({h.neighborhood}): bump one"
                            f" tier to {name}", amount,
                            f"once per session; you become connected to {h.neighborhood}"
                            + ("" if here else "; the scene names no neighborhood: recall it"
                                               " only if you are there")))
            demands = self.hero_sheet(state).demands
            if ("session:demand" not in state.used and len(demands) < MAX_DEMANDS
                    and all(d.met for d in demands)):
                out.append(Adjustment("demand", f"Perceive a Demand: bump one tier to {name}",
                                      amount, f"once per session; the city names demand"
                                      f" {len(demands) + 1} of {MAX_DEMANDS}"))
        assets = state.hero.tracks.get(ASSETS, 0)
        if roll.get("stat") == "network":
            bands = resolve.roll_bands(self.pack, move, roll)
            forced = resolve.face_override(state, self, move)
            for n in range(1, assets + 1):
                if resolve.reband(roll, n, bands, resolve.roll_clamp(self.pack, roll),
                                  override=forced)["band"] != roll["band"]:
                    out.append(Adjustment(f"asset:{n}", f"Use Asset: spend {n} for +{n}", n,
                                          f"you hold {assets}"))
        return out

    def adjustment_name(self, state: CampaignState, adj_id: str) -> str:
        """Recall a History (its neighborhood), Perceive a Demand, Use Asset (n)."""
        kind, _, key = adj_id.partition(":")
        histories = self.hero_sheet(state).histories
        if kind == "history" and key.isdigit() and int(key) < len(histories):
            return f"Recall a History ({histories[int(key)].neighborhood})"
        if adj_id == "demand":
            return "Perceive a Demand"
        if kind == "asset" and key.isdigit():
            return f"Use Asset ({key})"
        return super().adjustment_name(state, adj_id)

    @staticmethod
    def _history_applies(history: History, here: str | None) -> bool:
        """An unmarked History of the scene's neighborhood (any, if the scene names none)."""
        return not history.marked and (here is None or history.neighborhood == here)

    def adjust(self, state: CampaignState, adj_id: str, roll: RollDict
               ) -> tuple[list[ev.Event], int, str]:
        """Events for a tier bump or assets spent."""
        move = self.pack.moves[roll["move"]]
        nxt = self._next_band(move, roll)
        if adj_id.startswith("history:"):
            sheet = self.hero_sheet(state)
            histories = sheet.histories
            i = int(adj_id.split(":", 1)[1])
            if nxt is None or "session:history" in state.used or not 0 <= i < len(histories) \
                    or not self._history_applies(histories[i], self.scene_neighborhood(state)):
                raise IllegalAction("that History cannot be recalled now")
            nb = histories[i].neighborhood
            histories[i].marked = True
            events: list[ev.Event] = [
                CitySheetChanged(key="histories", value=dump(histories),
                                 text=f"History marked: {nb}."),
                ev.OnceUsed(key="session:history")]
            connections = sheet.connections
            if nb not in connections:
                events.insert(1, CitySheetChanged(key="connections", value=[*connections, nb],
                                                  text=f"You are connected to {nb}."))
            return events, nxt[0], f"Recall a History ({nb})"
        if adj_id == "demand":
            demands = self.hero_sheet(state).demands
            if nxt is None or "session:demand" in state.used or len(demands) >= MAX_DEMANDS \
                    or not all(d.met for d in demands):
                raise IllegalAction("no Demand can be perceived now")
            text = self._draw(state, "city_demands", f"demand:{len(demands)}",
                              [d.text for d in demands]) or "answer when it calls"
            demands.append(Demand(text=text))
            return ([CitySheetChanged(key="demands", value=dump(demands),
                                      text=f"Demand {len(demands)} of {MAX_DEMANDS}: the city"
                                           f" demands that you {text}"),
                     ev.OnceUsed(key="session:demand")], nxt[0], "Perceive a Demand")
        if adj_id.startswith("asset:"):
            n = int(adj_id.split(":", 1)[1])
            have = state.hero.tracks.get(ASSETS, 0)
            if n < 1 or n > have:
                raise IllegalAction(f"you hold {have} asset(s), not {n}")
            return ([ev.TrackChanged(track=ASSETS, scope="hero", delta=-n, value=have - n,
                                     reason="Use Asset: +1 each on a Network roll")], n,
                    f"Use Asset ({n})")
        return super().adjust(state, adj_id, roll)

    # --- creation ---------------------------------------------------------------------

    def npc_added(self, state: CampaignState, npc_id: str, role: str) -> list[ev.Event]:
        """A rival comes with a clock (a threat of kind ``rival``)."""
        if role != "rival":
            return []
        templates = [t for t in self.pack.gm.threats if t.kind == "rival"]
        if not templates:
            return []
        tdef = gm_random(state, f"rival:{npc_id}").choice(templates)
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
        """Every ``rule`` effect of the City of Whispers content (registered below), given its
        arguments as a dict; a prompt it opens comes back with the answer in ``args[stage]``."""
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

    # --- Heat and assets

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

    # --- beliefs

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

    # --- Ties and secrets

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

    # --- connections, Demands, power, advances

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

    # --- schemes

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

    @CITY_REGISTRY.rule_effect("lose_asset")
    def _r_lose_asset(self, state: CampaignState, args: dict[str, Any], ctx: EffectContext
                      ) -> Step:
        have = state.hero.tracks.get(ASSETS, 0)
        if have < 1:
            return Step()
        return Step([ev.TrackChanged(track=ASSETS, scope="hero", delta=-1, value=have - 1,
                                     reason=ctx.get("source", "lost"))])

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

    @CITY_REGISTRY.rule_effect("hero_faction_complication")
    def _r_hero_faction_complication(self, state: CampaignState, args: dict[str, Any],
                                     ctx: EffectContext) -> Step:
        mine = self.hero_sheet(state).faction
        if not mine or mine not in self.live_factions(state):
            return Step()
        return Step(push=[effect_item(rule("add_complication", faction=mine), ctx)])

