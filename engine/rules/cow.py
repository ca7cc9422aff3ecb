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

import copy
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from engine.content import schema as s
from engine.content.loader import Pack
from engine.errors import IllegalAction
from engine.odds import band_of, percent
from engine.rules import events as ev
from engine.rules.base import (
    Adjustment,
    Declaration,
    Item,
    Need,
    Ruleset,
    Step,
    effect_item,
    gm_random,
    model_problems,
    opt,
)
from engine.rules.state import CampaignState

HEAT, ASSETS, STANDING = "heat", "assets", "standing"
"""Track ids the rules read (see system.yaml)."""

SOCIAL = {"social", "secrets"}
"""Move categories that are Social Interaction rolls: no Histories or Demands, assets give
advantage, secrets can be used."""
CITY = "city"
FACTION = "faction"
SECRET_MOVE = "use_a_secret"
"""The move that always has a secret in play (the target's, unless another is declared)."""
TIE_ADVANTAGE = {"observe_someone"}
"""Moves rolled with advantage when the target is one of the hero's Ties."""
TRAVEL = {"transit"}
"""City moves that go to another neighborhood: a connection to the destination counts."""
CONNECTION_MODIFIER = {"use_power": (1, -2)}
"""Moves that take a modifier for a connection to the neighborhood (connected, not)."""
SCHEME_COST = {"set_up_a_scheme"}
"""Moves that take -1 per scheme already running."""
COMPLEXITY = "complexity"
ASPECTS = "aspects"
MAX_DEMANDS = 4
PRODUCTIVITY = (-3, 3)
OFFERS = ("peril", "value", "logic")
GROUPS = ("belief", "secret", "connection", "offer", "scheme", "faction")
"""Declarations of which only one may be made per roll."""


# ------------------------------------------------------------------ events


@ev.event
@dataclass(frozen=True, slots=True)
class CitySheetChanged(ev.Event):
    """A part of the hero's sheet (``hero.data[key]``) changed; ``text`` is the journal line."""

    key: str
    value: Any
    text: str = ""


@ev.applier("CitySheetChanged")
def _apply_sheet(state: CampaignState, e: CitySheetChanged) -> None:
    if e.value is None:
        state.hero.data.pop(e.key, None)
    else:
        state.hero.data[e.key] = copy.deepcopy(e.value)


@ev.event
@dataclass(frozen=True, slots=True)
class CityFactionChanged(ev.Event):
    """A faction was founded or changed (``value`` None: removed); ``text`` for the journal."""

    faction: str
    value: dict[str, Any] | None
    text: str = ""


@ev.applier("CityFactionChanged")
def _apply_faction(state: CampaignState, e: CityFactionChanged) -> None:
    factions = dict(state.data.get("factions", {}))
    if e.value is None:
        factions.pop(e.faction, None)
    else:
        factions[e.faction] = copy.deepcopy(e.value)
    state.data["factions"] = factions


# ------------------------------------------------------------------ starting data


class _Start(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class FactionStart(_Start):
    """A faction as content describes it (archetype or system data)."""

    name: str
    aspects: list[str] = Field(default_factory=list)
    complications: list[str] = Field(default_factory=list)
    neighborhoods: list[str] = Field(default_factory=list)
    magistrate: bool = Field(False, description="Played by the Magistrate.")


class TieStart(_Start):
    """A starting Tie with a suggested NPC, by name."""

    npc: str
    insight: str


class HeroStart(_Start):
    """What an archetype (or a custom hero) starts with."""

    beliefs: list[str] = Field(default_factory=list)
    beliefs_to_write: int = 0
    connections: list[str] = Field(default_factory=list)
    histories: list[str] = Field(default_factory=list)
    max_complexity: int = 2
    ties: list[TieStart] = Field(default_factory=list)
    ties_to_name: int = 0
    faction: FactionStart | None = None


class SystemData(_Start):
    """``system.yaml`` ``data``: the city's standing factions, custom heroes, offer readings."""

    factions: list[FactionStart] = Field(default_factory=list)
    custom_hero: HeroStart = Field(default_factory=HeroStart)
    offer_readings: dict[str, dict[str, int]] = Field(default_factory=dict)


def slug(text: str) -> str:
    """A snake_case id for a name."""
    out = re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")
    return out if out and out[0].isalpha() else f"x_{out}"


def faction_value(f: FactionStart) -> dict[str, Any]:
    """The stored form of a faction."""
    return {"name": f.name, "aspects": list(f.aspects), "complications": list(f.complications),
            "neighborhoods": list(f.neighborhoods), "projects": [], "to_write": 0,
            "magistrate": f.magistrate, "dispersed": False}


def _rule(name: str, **args: Any) -> dict[str, Any]:
    return {"type": "rule", "name": name, "args": args}


def _emit(e: ev.Event) -> Item:
    return {"emit": e.to_dict()}


def _low(faces: list[int]) -> bool:
    return any(f <= 2 for f in faces)


@dataclass
class StagedNeed(Need):
    """A prompt whose answer fills ``args[stage]`` of the rule effect that opened it."""

    stage: str = "pick"


# ------------------------------------------------------------------ the ruleset


class CityRules(Ruleset):
    """The City of Whispers ruleset."""

    id = "city_of_whispers"

    def __init__(self, pack: Pack) -> None:
        super().__init__(pack)
        self.data = SystemData.model_validate(pack.system.data)
        self.gm_title = pack.system.gm_title

    @classmethod
    def check_content(cls, pack: Pack) -> list[str]:
        """``data`` of system.yaml and of each archetype, as play reads them."""
        from engine.content.loader import GENERIC_RULES, effect_sites

        problems = model_problems("system.yaml: data", SystemData, pack.system.data)
        for a in pack.system.archetypes:
            problems += model_problems(f"system.yaml: archetypes.{a.id}.data", HeroStart, a.data)
        known = GENERIC_RULES | {n[3:] for n in dir(cls) if n.startswith("_r_")}
        for file, where, eff in effect_sites(pack):
            if isinstance(eff, s.Rule) and eff.name not in known:
                problems.append(f"{file}: {where}: unknown rule effect {eff.name!r} (the"
                                f" {cls.id} rules know {', '.join(sorted(known))})")
        return problems

    # --- reading the sheet --------------------------------------------------------------

    @staticmethod
    def sheet(state: CampaignState, key: str, default: Any) -> Any:
        """A deep copy of ``hero.data[key]`` (safe to change before emitting)."""
        return copy.deepcopy(state.hero.data.get(key, default))

    @staticmethod
    def factions(state: CampaignState) -> dict[str, dict[str, Any]]:
        """A deep copy of every faction by id."""
        return copy.deepcopy(state.data.get("factions", {}))

    def live_factions(self, state: CampaignState) -> list[str]:
        """Ids of factions that have not dispersed, the hero's first."""
        mine = state.hero.data.get("faction")
        ids = [f for f, v in state.data.get("factions", {}).items() if not v.get("dispersed")]
        return sorted(ids, key=lambda f: f != mine)

    def usable_secrets(self, state: CampaignState) -> list[str]:
        """NPC ids of active Ties whose secret is intact."""
        return [n for n, t in state.hero.data.get("ties", {}).items()
                if t.get("active") and t.get("secret") == "intact"]

    def is_tie(self, state: CampaignState, npc: str | None) -> bool:
        """Whether ``npc`` is an active Tie."""
        return bool(npc and state.hero.data.get("ties", {}).get(npc, {}).get("active"))

    def neighborhoods(self) -> list[str]:
        """The city's neighborhoods (the ``neighborhoods`` table)."""
        table = self.pack.tables.get("neighborhoods")
        return [e.text for e in table.entries] if table else []

    def scene_neighborhood(self, state: CampaignState) -> str | None:
        """The neighborhood the scene is in, read from its location and title (the longest
        neighborhood name they mention), or None when they name none."""
        where = f"{state.scene.location} {state.scene.title}".lower()
        found = [nb for nb in self.neighborhoods()
                 if re.search(rf"\b{re.escape(nb.lower().removeprefix('the '))}\b", where)]
        return max(found, key=len) if found else None

    def connections_here(self, state: CampaignState, move: s.Move) -> list[str]:
        """The hero's connections that count for ``move`` in this scene: the scene's
        neighborhood (any, on Transit or when the scene names no neighborhood)."""
        conns = list(state.hero.data.get("connections", []))
        here = self.scene_neighborhood(state)
        if move.id in TRAVEL or here is None:
            return conns
        return [c for c in conns if c == here]

    def _name(self, state: CampaignState, npc: str | None) -> str:
        if npc and npc in state.npcs:
            return state.npcs[npc].name
        return "them"

    def _draw(self, state: CampaignState, table: str, salt: str, avoid: Sequence[str] = ()
              ) -> str:
        """A weighted draw from a table by the Magistrate (seeded), avoiding some entries."""
        t = self.pack.tables.get(table)
        entries = [e for e in t.entries if e.text not in avoid] if t else []
        if not entries:
            return ""
        rng = gm_random(state, f"cow:{table}:{salt}")
        return str(rng.choices(entries, weights=[e.weight for e in entries], k=1)[0].text)

    def _draw_many(self, state: CampaignState, table: str, salt: str, n: int,
                   avoid: Sequence[str] = ()) -> list[str]:
        """``n`` different draws from a table."""
        out: list[str] = []
        for i in range(n):
            pick = self._draw(state, table, f"{salt}:{i}", [*avoid, *out])
            if pick:
                out.append(pick)
        return out

    # --- declarations and dice -----------------------------------------------------------

    def _declared(self, state: CampaignState, move: s.Move) -> list[str]:
        return list(state.flow.declared) if state.flow.move == move.id else []

    def _param(self, state: CampaignState, move: s.Move, pid: str) -> int | None:
        if move.roll is None:
            return None
        prm = next((p for p in move.roll.params if p.id == pid), None)
        if prm is None:
            return None
        if state.flow.move == move.id and pid in state.flow.params:
            return state.flow.params[pid]
        return prm.default

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
        complexity = self._param(state, move, COMPLEXITY)
        if (complexity is not None and not move.roll.inverted
                and complexity > int(state.hero.data.get("max_complexity", 0))):
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
            for fid in self.live_factions(state):
                f = state.data["factions"][fid]
                offered.append(Declaration(
                    f"faction:{fid}", f"The faction rolling: {f['name']}",
                    f"{len(f['aspects'])} aspects, {len(f['neighborhoods'])} neighborhoods"))
            return offered
        if move.roll.inverted:
            return []
        for b in state.hero.data.get("beliefs", []):
            if b["state"] == "wrong":
                continue
            what = "challenges it" if b["state"] == "active" else "proves it wrong"
            did = f"belief:{b['id']}"
            offered.append(Declaration(
                did, f"Use Belief: {b['text']}" + (" (challenged)" if b["state"] ==
                                                   "challenged" else ""),
                f"roll with advantage; {self._low_odds(state, move, [*declared, did])} that a"
                f" die shows 1 or 2 and {what}"))
        if move.category in SOCIAL:
            for npc in self.usable_secrets(state):
                tie = state.hero.data["ties"][npc]
                did = f"secret:{npc}"
                offered.append(Declaration(
                    did, f"Use a Secret: {tie['name']}'s {tie['insight']}",
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
            for sc in state.hero.data.get("schemes", []):
                if f"session:scheme:{sc['id']}" not in state.used:
                    offered.append(Declaration(f"scheme:{sc['id']}", f"Run {sc['name']}",
                                               f"Productivity {sc['productivity']:+d}"))
        return offered

    def declaration_name(self, state: CampaignState, move: s.Move, declaration: str) -> str:
        """The declaration's label, or a name read from its id (a belief's words, a Tie's
        name, a neighborhood) when it is not on offer."""
        found = next((d for d in self._every_declaration(state, move) if d.id == declaration),
                     None)
        if found is not None:
            return found.label
        kind, _, key = declaration.partition(":")
        if kind == "belief":
            b = next((x for x in state.hero.data.get("beliefs", []) if x["id"] == key), None)
            return f"Use Belief: {b['text']}" if b else f"a belief {key!r}"
        if kind == "secret":
            tie = state.hero.data.get("ties", {}).get(key)
            return f"Use a Secret: {tie['name']}'s" if tie else f"a secret about {key!r}"
        if kind == "connection":
            nb = next((n for n in self.neighborhoods() if slug(n) == key), key)
            return f"a connection to {nb}"
        if kind == "offer":
            return f"Offer {key}"
        if kind == "faction":
            f = state.data.get("factions", {}).get(key)
            return f"The faction rolling: {f['name']}" if f else f"a faction {key!r}"
        if kind == "scheme":
            sc = next((x for x in state.hero.data.get("schemes", []) if x["id"] == key), None)
            return f"Run {sc['name']}" if sc else f"a scheme {key!r}"
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
            here = self.scene_neighborhood(state)
            nb = next((n for n in self.neighborhoods() if slug(n) == key), None)
            if nb is not None and nb in state.hero.data.get("connections", []) and here:
                why = (f"you are connected to {nb}, but the scene is in {here}: the connection"
                       " does not count here")
            elif nb is not None and nb not in state.hero.data.get("connections", []):
                why = f"you are not connected to {nb}"
        elif kind == "belief":
            b = next((x for x in state.hero.data.get("beliefs", []) if x["id"] == key), None)
            if b is not None and b["state"] == "wrong":
                why = "that belief was proven wrong: it no longer gives advantage"
        elif kind == "secret" and key in state.hero.data.get("ties", {}):
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
        weights = self.data.offer_readings.get(offer) or {"sway": 1, "minus_heat": 1, "none": 1}
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

    def _scheme_for(self, state: CampaignState, move: s.Move) -> dict[str, Any] | None:
        schemes = state.hero.data.get("schemes", [])
        for d in self._declared(state, move):
            if d.startswith("scheme:"):
                return next((x for x in schemes if x["id"] == d.split(":", 1)[1]), None)
        free = [x for x in schemes if f"session:scheme:{x['id']}" not in state.used]
        return free[0] if free else (schemes[0] if schemes else None)

    def acting_faction(self, state: CampaignState, move: s.Move | None = None) -> str | None:
        """The faction a faction roll is for: declared, else the last acting, else the hero's."""
        live = self.live_factions(state)
        if move is not None:
            for d in self._declared(state, move):
                if d.startswith("faction:") and d.split(":", 1)[1] in live:
                    return d.split(":", 1)[1]
        last = state.data.get("acting_faction")
        if move is not None and move.hidden and last in live:
            return str(last)
        mine = state.hero.data.get("faction")
        if mine in live:
            return str(mine)
        return live[0] if live else None

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
            return f"Productivity of {sc['name']}", int(sc["productivity"])
        if (stat == f"param:{COMPLEXITY}" and move.roll is not None and move.roll.inverted
                and not (state.flow.move == move.id and COMPLEXITY in state.flow.params)):
            value = int(state.hero.data.get("complexity", 0))
            return f"complexity of the power ({value})", value
        if stat == f"param:{ASPECTS}":
            label, value = super().stat_value(state, move, stat)
            fid = self.acting_faction(state, move)
            if fid is not None:
                f = state.data["factions"][fid]
                cap = len(f["aspects"]) + len(f["neighborhoods"])
                if value > cap:
                    return (f"relevant aspects of {f['name']} ({value}, capped at the {cap} it"
                            f" has)", cap)
                return f"relevant aspects of {f['name']} ({value})", value
            return label, value
        return super().stat_value(state, move, stat)

    def extra_modifiers(self, state: CampaignState, move: s.Move, target: str | None
                        ) -> list[list[Any]]:
        """Use Power's connection modifier; -1 per scheme already running."""
        out: list[list[Any]] = []
        if move.id in CONNECTION_MODIFIER:
            yes, no = CONNECTION_MODIFIER[move.id]
            nb = self._connection(state, move)
            out.append([f"connected to {nb}", yes, None] if nb else
                       ["no connection to this neighborhood", no, None])
        if move.id in SCHEME_COST:
            n = len(state.hero.data.get("schemes", []))
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

    def after_roll(self, state: CampaignState, move: s.Move, roll: dict[str, Any]) -> list[Item]:
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
            items.append(_emit(ev.DataSet(scope="campaign", key="acting_faction", value=fid)))
        complexity = self._param(state, move, COMPLEXITY)
        if complexity is not None and not (move.roll and move.roll.inverted):
            items.append(_emit(ev.DataSet(scope="hero", key="complexity", value=complexity)))
        if move.roll is not None and move.roll.stat == "productivity":
            sc = self._scheme_for(state, move)
            if sc is not None:
                record["scheme"] = sc["id"]
                items.append(_emit(ev.OnceUsed(key=f"session:scheme:{sc['id']}")))
        if "asset" in declared:
            have = state.hero.tracks.get(ASSETS, 0)
            if have < 1:
                raise IllegalAction("you hold no asset to spend")
            items.append(_emit(ev.TrackChanged(track=ASSETS, scope="hero", delta=-1,
                                               value=have - 1,
                                               reason="Use Asset: advantage on a social roll")))
        items.insert(0, _emit(ev.DataSet(scope="hero", key="roll", value=record)))
        belief = next((d.split(":", 1)[1] for d in declared if d.startswith("belief:")), None)
        if belief is not None:
            items += self._belief_dice(state, belief, faces)
        npc = self._secret_in_play(state, move, declared)
        if npc is not None:
            tie = state.hero.data.get("ties", {}).get(npc, {})
            if _low(faces):
                items.append(_emit(ev.Narrated(
                    text=f"A die shows {min(faces)}: the secret about {tie.get('name', npc)}"
                         " slips out (Reveal a Secret).", by="engine")))
                items.append(_emit(ev.DataSet(scope="hero", key="revealing", value=npc)))
                items.append({"trigger": "reveal_a_secret", "ctx": {"target": state.flow.target}})
            else:
                items.append(_emit(ev.Narrated(
                    text=f"No die shows 1 or 2: {tie.get('name', npc)}'s secret stays yours.",
                    by="engine")))
        return items

    def _belief_dice(self, state: CampaignState, belief: str, faces: list[int]) -> list[Item]:
        beliefs = self.sheet(state, "beliefs", [])
        b = next((x for x in beliefs if x["id"] == belief), None)
        if b is None or b["state"] == "wrong":
            raise IllegalAction("that belief cannot be used to roll with advantage")
        if not _low(faces):
            return [_emit(ev.Narrated(text=f"No die shows 1 or 2: your belief holds"
                                           f" (\"{b['text']}\").", by="engine"))]
        was = b["state"]
        b["state"] = "challenged" if was == "active" else "wrong"
        text = (f"A die shows {min(faces)}: your belief \"{b['text']}\" is challenged; mark it."
                if was == "active" else
                f"A die shows {min(faces)}: your belief \"{b['text']}\" is proven wrong. You may"
                " keep holding it, but never again to roll with advantage.")
        return [_emit(CitySheetChanged(key="beliefs", value=beliefs, text=text))]

    # --- after the roll: tier bumps and assets ---------------------------------------------

    def _next_band(self, move: s.Move, roll: dict[str, Any]) -> tuple[int, str] | None:
        bands = sorted(self.pack.bands_for(move), key=lambda b: -10**9 if b.min is None
                       else b.min)
        ids = [b.id for b in bands]
        i = ids.index(roll["band"])
        if i + 1 >= len(bands):
            return None
        nxt = bands[i + 1]
        assert nxt.min is not None
        return nxt.min - int(roll["total"]), nxt.name

    def adjustments(self, state: CampaignState, move: s.Move, roll: dict[str, Any]
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
                for i, h in enumerate(state.hero.data.get("histories", [])):
                    if self._history_applies(h, here):
                        out.append(Adjustment(
                            f"history:{i}", f"Recall a History ({h['neighborhood']}): bump one"
                            f" tier to {name}", amount,
                            f"once per session; you become connected to {h['neighborhood']}"
                            + ("" if here else "; the scene names no neighborhood: recall it"
                                               " only if you are there")))
            demands = state.hero.data.get("demands", [])
            if ("session:demand" not in state.used and len(demands) < MAX_DEMANDS
                    and all(d["met"] for d in demands)):
                out.append(Adjustment("demand", f"Perceive a Demand: bump one tier to {name}",
                                      amount, f"once per session; the city names demand"
                                      f" {len(demands) + 1} of {MAX_DEMANDS}"))
        assets = state.hero.tracks.get(ASSETS, 0)
        if roll.get("stat") == "network":
            bands = self.pack.bands_for(move)
            for n in range(1, assets + 1):
                if band_of(int(roll["total"]) + n, bands) != roll["band"]:
                    out.append(Adjustment(f"asset:{n}", f"Use Asset: spend {n} for +{n}", n,
                                          f"you hold {assets}"))
        return out

    def adjustment_name(self, state: CampaignState, adj_id: str) -> str:
        """Recall a History (its neighborhood), Perceive a Demand, Use Asset (n)."""
        kind, _, key = adj_id.partition(":")
        histories = state.hero.data.get("histories", [])
        if kind == "history" and key.isdigit() and int(key) < len(histories):
            return f"Recall a History ({histories[int(key)]['neighborhood']})"
        if adj_id == "demand":
            return "Perceive a Demand"
        if kind == "asset" and key.isdigit():
            return f"Use Asset ({key})"
        return super().adjustment_name(state, adj_id)

    @staticmethod
    def _history_applies(history: dict[str, Any], here: str | None) -> bool:
        """An unmarked History of the scene's neighborhood (any, if the scene names none)."""
        return not history["marked"] and (here is None or history["neighborhood"] == here)

    def adjust(self, state: CampaignState, adj_id: str, roll: dict[str, Any]
               ) -> tuple[list[ev.Event], int, str]:
        """Events for a tier bump or assets spent."""
        move = self.pack.moves[roll["move"]]
        nxt = self._next_band(move, roll)
        if adj_id.startswith("history:"):
            histories = self.sheet(state, "histories", [])
            i = int(adj_id.split(":", 1)[1])
            if nxt is None or "session:history" in state.used or not 0 <= i < len(histories) \
                    or not self._history_applies(histories[i], self.scene_neighborhood(state)):
                raise IllegalAction("that History cannot be recalled now")
            nb = histories[i]["neighborhood"]
            histories[i]["marked"] = True
            events: list[ev.Event] = [
                CitySheetChanged(key="histories", value=histories,
                                 text=f"History marked: {nb}."),
                ev.OnceUsed(key="session:history")]
            connections = self.sheet(state, "connections", [])
            if nb not in connections:
                events.insert(1, CitySheetChanged(key="connections", value=[*connections, nb],
                                                  text=f"You are connected to {nb}."))
            return events, nxt[0], f"Recall a History ({nb})"
        if adj_id == "demand":
            demands = self.sheet(state, "demands", [])
            if nxt is None or "session:demand" in state.used or len(demands) >= MAX_DEMANDS \
                    or not all(d["met"] for d in demands):
                raise IllegalAction("no Demand can be perceived now")
            text = self._draw(state, "city_demands", f"demand:{len(demands)}",
                              [d["text"] for d in demands]) or "answer when it calls"
            demands.append({"text": text, "met": False})
            return ([CitySheetChanged(key="demands", value=demands,
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
        from engine.gm.scenes import threat_event

        tdef = gm_random(state, f"rival:{npc_id}").choice(templates)
        return [threat_event(tdef, state, f"{state.npcs[npc_id].name}: {tdef.name}", npc_id)]

    def campaign_started(self, state: CampaignState) -> list[Item]:
        """The sheet from the archetype's data (or the custom-hero rules) and the city's
        standing factions."""
        arch = self.pack.archetypes.get(state.hero.archetype or "")
        start = HeroStart.model_validate(arch.data) if arch else self.data.custom_hero
        items: list[Item] = []

        def put(key: str, value: Any, text: str) -> None:
            items.append(_emit(CitySheetChanged(key=key, value=value, text=text)))

        connections = list(start.connections) or self._draw_many(state, "neighborhoods", "home",
                                                                  1)
        histories = list(start.histories)
        histories += self._draw_many(state, "neighborhoods", "histories", 4 - len(histories),
                                     [*histories, *connections])
        beliefs = [{"id": f"b{i + 1}", "text": t, "state": "active"}
                   for i, t in enumerate(start.beliefs)]
        put("beliefs", beliefs, "Beliefs: " + "; ".join(f"\"{t}\"" for t in start.beliefs)
            if beliefs else "No beliefs written yet.")
        if start.beliefs_to_write:
            put("beliefs_to_write", start.beliefs_to_write,
                f"Write {start.beliefs_to_write} belief(s) (the Write a Belief move).")
        put("connections", connections, "Connected to: " + ", ".join(connections) + ".")
        put("histories", [{"neighborhood": h, "marked": False} for h in histories],
            "Histories: " + ", ".join(histories) + ".")
        put("demands", [], "")
        put("schemes", [], "")
        put("max_complexity", start.max_complexity,
            f"Your power's max complexity: {start.max_complexity}.")
        ties: dict[str, Any] = {}
        unnamed = start.ties_to_name
        for t in start.ties:
            npc = state.npc_by_name(t.npc)
            if npc is None:
                unnamed += 1
                continue
            ties[npc.id] = {"name": npc.name, "insight": t.insight, "secret": "intact",
                            "active": True}
        put("ties", ties, "Ties: " + ", ".join(f"{v['name']} (you know of their"
                                                f" {v['insight']})" for v in ties.values())
            + "." if ties else "")
        if unnamed:
            put("ties_to_name", unnamed, f"Name {unnamed} Tie(s) among the people you know"
                                         " (the Name a Tie move).")
        owned: set[str] = set()
        for f in [*([start.faction] if start.faction else []), *self.data.factions]:
            fid = slug(f.name)
            if fid in state.data.get("factions", {}) or any(
                    i.get("emit", {}).get("faction") == fid for i in items):
                continue
            value = faction_value(f)
            value["neighborhoods"] = [n for n in f.neighborhoods if n not in owned]
            owned |= set(value["neighborhoods"])
            who = "" if f is start.faction else f" (played by the {self.gm_title})" \
                if f.magistrate else ""
            items.append(_emit(CityFactionChanged(
                faction=fid, value=value, text=f"Faction {f.name}{who}: aspects "
                + (", ".join(f.aspects) or "none") + "; holds "
                + (", ".join(value["neighborhoods"]) or "no neighborhood") + ".")))
        if start.faction:
            put("faction", slug(start.faction.name), f"You belong to {start.faction.name}.")
        return items

    # --- rule effects -------------------------------------------------------------------

    def rule_effect(self, state: CampaignState, eff: s.Rule, ctx: dict[str, Any]) -> Step | Need:
        """Every ``rule`` effect of the City of Whispers content (``_r_<name>`` below)."""
        handler = getattr(self, f"_r_{eff.name}", None)
        if handler is None:
            return super().rule_effect(state, eff, ctx)
        result: Step | Need = handler(state, dict(eff.args), ctx)
        if isinstance(result, Need):
            stage = getattr(result, "stage", "pick")
            if stage != (eff.args.get("stage") or "pick"):
                # re-queue the rule marked with the stage, so the answer lands in args[stage]
                return Step(push=[effect_item(_rule(eff.name, **{**eff.args, "stage": stage}),
                                              ctx)])
        return result

    def rule_answer(self, state: CampaignState, eff: s.Rule, ctx: dict[str, Any], ids: list[str]
                    ) -> list[Item]:
        """The rule again, with the answer in ``args[stage]`` (several ids joined by commas)."""
        if not hasattr(self, f"_r_{eff.name}"):
            return super().rule_answer(state, eff, ctx, ids)
        stage = str(eff.args.get("stage") or "pick")
        args = {k: v for k, v in eff.args.items() if k != "stage"}
        args[stage] = ",".join(ids)
        return [effect_item(_rule(eff.name, **args), ctx)]

    @staticmethod
    def _pick(args: dict[str, Any], stage: str, message: str, options: list[dict[str, Any]],
              lo: int = 1, hi: int = 1) -> StagedNeed | str | None:
        """The answer for ``stage``: given already, the only option, or a prompt for it."""
        if args.get(stage) is not None:
            return str(args[stage])
        if not options:
            return None
        if len(options) == 1 and lo == hi == 1:
            return str(options[0]["id"])
        return StagedNeed("pick", message, options, lo, hi, stage=stage)

    # --- Heat and assets

    def _heat_step(self, state: CampaignState, n: int, ctx: dict[str, Any]) -> Step:
        tdef = self.pack.tracks[HEAT]
        heat = state.hero.tracks.get(HEAT, tdef.start)
        if tdef.max is not None and heat >= tdef.max:
            return Step([ev.Narrated(text=f"Your Heat is already full: the {self.gm_title} makes"
                                          " a hard move instead.", by="engine")],
                        push=[effect_item({"type": "gm_move", "kind": "hard"}, ctx)])
        return Step(push=[effect_item({"type": "track", "track": HEAT, "delta": n}, ctx)])

    def _r_mark_heat(self, state: CampaignState, args: dict[str, Any], ctx: dict[str, Any]
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

    def _r_spend_asset(self, state: CampaignState, args: dict[str, Any], ctx: dict[str, Any]
                       ) -> Step:
        have = state.hero.tracks.get(ASSETS, 0)
        if have < 1:
            raise IllegalAction("you hold no asset to spend: Run the Scheme to collect some")
        return Step([ev.TrackChanged(track=ASSETS, scope="hero", delta=-1, value=have - 1,
                                     reason=ctx.get("source", "Use Asset"))])

    # --- beliefs

    def _r_grant_belief(self, state: CampaignState, args: dict[str, Any], ctx: dict[str, Any]
                        ) -> Step:
        n = int(state.hero.data.get("beliefs_to_write", 0)) + 1
        return Step([CitySheetChanged(key="beliefs_to_write", value=n,
                                      text=f"You may write a new belief ({n} to write: the"
                                           " Write a Belief move).")])

    def _r_write_belief(self, state: CampaignState, args: dict[str, Any], ctx: dict[str, Any]
                        ) -> Step:
        text = str(ctx.get("fiction") or "").strip()
        n = int(state.hero.data.get("beliefs_to_write", 0))
        if n < 1:
            raise IllegalAction("you have no new belief to write: Ear to the Ground, Appraise"
                                " Circumstances and Sample the Sights & Sounds can give you one")
        if not text:
            raise IllegalAction("write the belief itself as your fiction, e.g. 'Every guard in"
                                " Lantern Row has a price'")
        beliefs = self.sheet(state, "beliefs", [])
        ids = {b["id"] for b in beliefs}
        i = len(beliefs) + 1
        while f"b{i}" in ids:
            i += 1
        beliefs.append({"id": f"b{i}", "text": text, "state": "active"})
        return Step([CitySheetChanged(key="beliefs", value=beliefs,
                                      text=f"New belief: \"{text}\"."),
                     CitySheetChanged(key="beliefs_to_write", value=n - 1 or None, text="")])

    def _r_clear_belief(self, state: CampaignState, args: dict[str, Any], ctx: dict[str, Any]
                        ) -> Step | Need:
        beliefs = self.sheet(state, "beliefs", [])
        options = [opt(b["id"], b["text"]) for b in beliefs if b["state"] == "challenged"]
        pick = self._pick(args, "pick", "Clear which challenged belief?", options)
        if isinstance(pick, Need):
            return pick
        if pick is None:
            return Step([ev.Narrated(text="No belief of yours is challenged.", by="engine")])
        b = next(x for x in beliefs if x["id"] == pick)
        b["state"] = "active"
        return Step([CitySheetChanged(key="beliefs", value=beliefs,
                                      text=f"Your belief \"{b['text']}\" is reaffirmed: cleared.")])

    def _r_challenge_belief(self, state: CampaignState, args: dict[str, Any], ctx: dict[str, Any]
                            ) -> Step | Need:
        beliefs = self.sheet(state, "beliefs", [])
        active = [b for b in beliefs if b["state"] == "active"]
        if not active:
            return Step([ev.Narrated(text="None of your beliefs is left to challenge.",
                                     by="engine")])
        if args.get("gm"):
            pick: Any = gm_random(state, "cow:challenge").choice(active)["id"]
        else:
            pick = self._pick(args, "pick", "Which belief is challenged? Mark it.",
                              [opt(b["id"], b["text"]) for b in active])
            if isinstance(pick, Need):
                return pick
        b = next(x for x in beliefs if x["id"] == pick)
        b["state"] = "challenged"
        return Step([CitySheetChanged(key="beliefs", value=beliefs,
                                      text=f"Your belief \"{b['text']}\" is challenged: marked.")])

    # --- Ties and secrets

    def _new_tie(self, state: CampaignState, npc: str, why: str) -> CitySheetChanged:
        ties = self.sheet(state, "ties", {})
        insight = self._draw(state, "insights", f"insight:{npc}") or "private affairs"
        name = self._name(state, npc)
        ties[npc] = {"name": name, "insight": insight, "secret": "intact", "active": True}
        return CitySheetChanged(key="ties", value=ties,
                                text=f"{name} becomes your Tie ({why}). The {self.gm_title} tells"
                                     f" you what you know: a secret about their {insight}.")

    def _r_observe(self, state: CampaignState, args: dict[str, Any], ctx: dict[str, Any]
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
                              effect_item(_rule("observe", **{**args, "asked": True}), ctx)])
        if args.get("pick") is None:
            more = ("Mark Heat to ask one more question" if tie else
                    f"Mark Heat to add them as a Tie (the {self.gm_title} names an Insight)")
            return Need("pick", "Observe Someone: push your luck?",
                        [opt("heat", more), opt("no", "Leave it there")])
        if args["pick"] == "no":
            return Step()
        push = [effect_item(_rule("mark_heat", amount=1), ctx)]
        if tie:
            push.append(effect_item({"type": "ask", "count": 1}, ctx))
            return Step(push=push)
        return Step([self._new_tie(state, target, "you marked Heat to learn more")]
                    if target else [], push=push)

    def _r_name_tie(self, state: CampaignState, args: dict[str, Any], ctx: dict[str, Any]
                    ) -> Step:
        target = ctx.get("target")
        n = int(state.hero.data.get("ties_to_name", 0))
        if n < 1:
            raise IllegalAction("you have no Tie left to name: Observe Someone to gain one")
        if not target:
            raise IllegalAction("name the person as the target")
        if self.is_tie(state, target):
            raise IllegalAction(f"{self._name(state, target)} is already your Tie")
        return Step([self._new_tie(state, target, "you go back a long way"),
                     CitySheetChanged(key="ties_to_name", value=n - 1 or None, text="")])

    def _r_require_secret(self, state: CampaignState, args: dict[str, Any], ctx: dict[str, Any]
                          ) -> Step:
        if not self.usable_secrets(state):
            raise IllegalAction("you hold no secret you can use: a Tie carries one (Observe"
                                " Someone, or Name a Tie)")
        return Step()

    def _r_reveal_secret(self, state: CampaignState, args: dict[str, Any], ctx: dict[str, Any]
                         ) -> Step | Need:
        target = ctx.get("target")
        npc = args.get("pick") or state.hero.data.get("revealing")
        if npc is None:
            ties = state.hero.data.get("ties", {})
            options = [opt(n, f"{ties[n]['name']}'s {ties[n]['insight']}")
                       for n in self.usable_secrets(state)]
            if not options:
                raise IllegalAction("you hold no secret to reveal")
            picked = self._pick(args, "pick", "Reveal which secret?", options)
            if isinstance(picked, Need):
                return picked
            npc = picked
        npc = str(npc)
        ties = self.sheet(state, "ties", {})
        tie = ties.get(npc, {"name": self._name(state, npc), "insight": "affairs"})
        listener = self._name(state, target) if target else "someone"
        events: list[ev.Event] = [
            ev.DataSet(scope="hero", key="revealing", value=npc),
            ev.Narrated(text=f"You reveal {tie['name']}'s secret (their {tie['insight']}) to"
                             f" {listener}.", by="engine")]
        if target == npc and npc in ties:
            ties[npc]["secret"] = "marked"
            ties[npc]["active"] = False
            events.append(CitySheetChanged(key="ties", value=ties,
                                           text=f"The secret is marked, and {tie['name']} is no"
                                                " longer your Tie."))
        return Step(events, push=[effect_item(_rule("mark_heat", amount=1), ctx)])

    def _r_secret_public(self, state: CampaignState, args: dict[str, Any], ctx: dict[str, Any]
                         ) -> Step:
        npc = state.hero.data.get("revealing")
        events: list[ev.Event] = [ev.DataSet(scope="hero", key="revealing", value=None)]
        ties = self.sheet(state, "ties", {})
        if args.get("public") and npc in ties:
            ties[npc]["secret"] = "erased"
            events.append(CitySheetChanged(key="ties", value=ties,
                                           text=f"{ties[npc]['name']}'s secret is public"
                                                " knowledge now: erased."))
        return Step(events)

    def _r_sample(self, state: CampaignState, args: dict[str, Any], ctx: dict[str, Any]
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

    def _r_answer(self, state: CampaignState, args: dict[str, Any], ctx: dict[str, Any]
                  ) -> Step | Need:
        move = self.pack.moves[str(ctx.get("move"))]
        n = int(args.get("count") or 1)
        if args.get("pick") is not None:
            qs = [move.questions[int(i)] for i in str(args["pick"]).split(",") if i != ""]
            return Step([ev.Narrated(text="You answer: " + " / ".join(qs), by="engine")])
        return Need("questions", f"{move.name}: answer {n} of these",
                    [opt(str(i), q) for i, q in enumerate(move.questions)], n, n)

    def _r_bearings(self, state: CampaignState, args: dict[str, Any], ctx: dict[str, Any]
                    ) -> Step | Need:
        """Get Your Bearings, before the roll: ask one question, or two when connected to
        the neighborhood of the scene."""
        move = self.pack.moves[str(ctx.get("move"))]
        if args.get("pick") is not None:
            qs = [move.questions[int(i)] for i in str(args["pick"]).split(",") if i != ""]
            return Step([ev.QuestionsAsked(move=move.id, questions=qs)])
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

    def _r_add_connection(self, state: CampaignState, args: dict[str, Any], ctx: dict[str, Any]
                          ) -> Step | Need:
        have = self.sheet(state, "connections", [])
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

    def _r_meet_demand(self, state: CampaignState, args: dict[str, Any], ctx: dict[str, Any]
                       ) -> Step:
        demands = self.sheet(state, "demands", [])
        open_ = [d for d in demands if not d["met"]]
        if not open_:
            raise IllegalAction("the city has no open Demand of you: Perceive a Demand after a"
                                " roll to take one")
        open_[0]["met"] = True
        step = Step([CitySheetChanged(key="demands", value=demands,
                                      text=f"Demand met: {open_[0]['text']}.")],
                    push=[effect_item({"type": "advance"}, ctx)])
        if len(demands) >= MAX_DEMANDS:
            step.push.append({"trigger": "retire", "ctx": {"target": None}})
        return step

    def _r_raise_complexity(self, state: CampaignState, args: dict[str, Any],
                            ctx: dict[str, Any]) -> Step:
        n = int(state.hero.data.get("max_complexity", 0)) + 1
        return Step([CitySheetChanged(key="max_complexity", value=n,
                                      text=f"Your power's max complexity is now {n}.")])

    # --- schemes

    def _scheme_in_play(self, state: CampaignState) -> dict[str, Any] | None:
        sid = state.hero.data.get("roll", {}).get("scheme")
        return next((x for x in state.hero.data.get("schemes", []) if x["id"] == sid), None)

    def _r_require_scheme(self, state: CampaignState, args: dict[str, Any], ctx: dict[str, Any]
                          ) -> Step:
        schemes = state.hero.data.get("schemes", [])
        if not schemes:
            raise IllegalAction("you run no scheme: Set Up a Scheme first")
        if all(f"session:scheme:{x['id']}" in state.used for x in schemes):
            raise IllegalAction("every scheme of yours has been run this session")
        return Step()

    def _r_start_scheme(self, state: CampaignState, args: dict[str, Any], ctx: dict[str, Any]
                        ) -> Step:
        schemes = self.sheet(state, "schemes", [])
        ids = {x["id"] for x in schemes}
        i = len(schemes) + 1
        while f"s{i}" in ids:
            i += 1
        name = str(ctx.get("fiction") or "").strip().rstrip(".")[:80] or f"Scheme {i}"
        prod = int(args.get("productivity") or 0)
        schemes.append({"id": f"s{i}", "name": name, "productivity": prod})
        return Step([CitySheetChanged(key="schemes", value=schemes,
                                      text=f"Scheme set up: {name} (Productivity {prod:+d}).")])

    def _r_productivity(self, state: CampaignState, args: dict[str, Any], ctx: dict[str, Any]
                        ) -> Step:
        sc = self._scheme_in_play(state)
        if sc is None:
            return Step()
        schemes = self.sheet(state, "schemes", [])
        x = next(y for y in schemes if y["id"] == sc["id"])
        lo, hi = PRODUCTIVITY
        new = max(lo, min(hi, x["productivity"] + int(args.get("delta") or 0)))
        if new == x["productivity"]:
            return Step([ev.Narrated(text=f"{x['name']}: Productivity stays at {new:+d}"
                                          f" (it runs from {lo:+d} to {hi:+d}).", by="engine")])
        x["productivity"] = new
        return Step([CitySheetChanged(key="schemes", value=schemes,
                                      text=f"{x['name']}: Productivity {new:+d}.")])

    # --- factions

    def _put(self, fid: str, f: dict[str, Any] | None, text: str) -> CityFactionChanged:
        return CityFactionChanged(faction=fid, value=f, text=text)

    def _faction_step(self, state: CampaignState, args: dict[str, Any], ctx: dict[str, Any],
                      message: str = "Which faction?") -> tuple[str, dict[str, Any]] | StagedNeed:
        """The faction an effect is about: named in args, the one that just rolled, the only
        one, or a prompt."""
        facs = self.factions(state)
        if args.get("faction"):
            return str(args["faction"]), facs[str(args["faction"])]
        move = self.pack.moves.get(str(ctx.get("move")))
        if move is not None and move.roll is not None and move.category == FACTION:
            fid = state.data.get("acting_faction") or self.acting_faction(state, move)
            if fid in facs:
                return str(fid), facs[str(fid)]
        live = self.live_factions(state)
        if not live:
            raise IllegalAction("there is no faction: Found a Faction first")
        picked = self._pick(args, "faction", message, [opt(f, facs[f]["name"]) for f in live])
        if isinstance(picked, StagedNeed):
            return picked
        assert picked is not None
        return picked, facs[picked]

    def _r_require_faction(self, state: CampaignState, args: dict[str, Any],
                           ctx: dict[str, Any]) -> Step:
        if not self.live_factions(state):
            raise IllegalAction("there is no faction to act: Found a Faction first")
        return Step()

    def _r_add_resource(self, state: CampaignState, args: dict[str, Any], ctx: dict[str, Any]
                        ) -> Step | Need:
        got = self._faction_step(state, args, ctx)
        if isinstance(got, StagedNeed):
            return got
        fid, f = got
        if args.get("project") is None:
            text = str(ctx.get("fiction") or "").strip().rstrip(".")[:80] or "A hard-won resource"
            open_ = [(i, p) for i, p in enumerate(f["projects"]) if not p["done"]]
            f["aspects"].append(text)
            step = Step([self._put(fid, f, f"{f['name']} secures a resource: {text} (a new"
                                            " aspect).")])
            if open_:
                step.push.append(effect_item(
                    _rule("add_resource", faction=fid, project="ask", resource=text), ctx))
            return step
        if args["project"] == "ask":
            options = [opt(str(i), f"{p['name']} (needs {', '.join(p['needs'])})")
                       for i, p in enumerate(f["projects"]) if not p["done"]]
            need = StagedNeed("pick", "Does the resource serve one of its projects?",
                              [*options, opt("none", "No")], stage="project")
            return need
        if args["project"] == "none":
            return Step()
        p = f["projects"][int(args["project"])]
        p["secured"] += 1
        p["ready"] = True
        text = f"{f['name']} puts {args.get('resource', 'it')} toward {p['name']}."
        if p.get("finish_on_resource"):
            p["done"] = True
            f["aspects"].append(p["name"])
            text += f" The project is complete: {p['name']} becomes an aspect."
        return Step([self._put(fid, f, text)])

    def _r_rewrite_aspect(self, state: CampaignState, args: dict[str, Any], ctx: dict[str, Any]
                          ) -> Step | Need:
        got = self._faction_step(state, args, ctx)
        if isinstance(got, StagedNeed):
            return got
        fid, f = got
        keep = str(args.get("keep") or "")
        options = [opt(str(i), a) for i, a in enumerate(f["aspects"]) if a != keep]
        if args.get("pick") is None:
            if not options:
                return Step([ev.Narrated(text=f"{f['name']} has no aspect to rewrite.",
                                         by="engine")])
            return Need("pick", f"Rewrite which aspect of {f['name']}?", options)
        i = int(args["pick"])
        old = f["aspects"][i]
        twist = self._draw(state, "aspect_rewrites", f"rewrite:{fid}:{i}") or "strained"
        f["aspects"][i] = f"{old}, {twist}"
        return Step([self._put(fid, f, f"{f['name']} rewrites an aspect: {old} → {f['aspects'][i]}"
                                       ".")])

    def _r_sacrifice_aspect(self, state: CampaignState, args: dict[str, Any],
                            ctx: dict[str, Any]) -> Step | Need:
        got = self._faction_step(state, args, ctx)
        if isinstance(got, StagedNeed):
            return got
        fid, f = got
        why = str(args.get("why") or "sacrificed")
        picked = self._pick(args, "pick", f"Which aspect of {f['name']} is lost ({why})?",
                            [opt(str(i), a) for i, a in enumerate(f["aspects"])])
        if isinstance(picked, StagedNeed):
            return picked
        if picked is None:
            return Step([ev.Narrated(text=f"{f['name']} has no aspect left to lose.",
                                     by="engine")])
        old = f["aspects"].pop(int(picked))
        return Step([self._put(fid, f, f"{f['name']} loses the aspect {old} ({why}).")])

    def _r_add_complication(self, state: CampaignState, args: dict[str, Any],
                            ctx: dict[str, Any]) -> Step | Need:
        got = self._faction_step(state, args, ctx)
        if isinstance(got, StagedNeed):
            return got
        fid, f = got
        text = str(args.get("text") or "") or self._draw(
            state, "faction_complications", f"comp:{fid}:{len(f['complications'])}",
            f["complications"]) or "Unwanted attention"
        f["complications"].append(text)
        return Step([self._put(fid, f, f"{f['name']} takes a complicating aspect: {text}"
                                       f" (the {self.gm_title} names it).")])

    def _r_aspect_to_write(self, state: CampaignState, args: dict[str, Any],
                           ctx: dict[str, Any]) -> Step | Need:
        got = self._faction_step(state, args, ctx)
        if isinstance(got, StagedNeed):
            return got
        fid, f = got
        f["to_write"] = int(f.get("to_write", 0)) + 1
        return Step([self._put(fid, f, f"{f['name']} may write a new aspect of its choice (the"
                                       " Write an Aspect move).")])

    def _r_write_aspect(self, state: CampaignState, args: dict[str, Any], ctx: dict[str, Any]
                        ) -> Step | Need:
        text = str(ctx.get("fiction") or "").strip().rstrip(".")[:80]
        facs = self.factions(state)
        waiting = [fid for fid in self.live_factions(state) if facs[fid].get("to_write", 0) > 0]
        if not waiting:
            raise IllegalAction("no faction has an aspect to write: Eliminate Threat (11+) or"
                                " Overtake Neighborhood can give one")
        if not text:
            raise IllegalAction("write the aspect itself as your fiction, e.g. 'Friends in the"
                                " customs house'")
        fid = self._pick(args, "faction", "Which faction writes the aspect?",
                         [opt(x, facs[x]["name"]) for x in waiting])
        if isinstance(fid, StagedNeed):
            return fid
        assert fid is not None
        f = facs[fid]
        f["aspects"].append(text)
        f["to_write"] = int(f["to_write"]) - 1
        return Step([self._put(fid, f, f"{f['name']} gains the aspect {text}.")])

    def _r_remove_complication(self, state: CampaignState, args: dict[str, Any],
                               ctx: dict[str, Any]) -> Step | Need:
        got = self._faction_step(state, args, ctx)
        if isinstance(got, StagedNeed):
            return got
        fid, f = got
        reduce = bool(args.get("reduce"))
        if not f["complications"]:
            return Step([ev.Narrated(text=f"{f['name']} has no complicating aspect.",
                                     by="engine")])
        verb = "reduce" if reduce else "remove"
        picked = self._pick(args, "pick", f"Which complication does {f['name']} {verb}?",
                            [opt(str(i), c) for i, c in enumerate(f["complications"])])
        if isinstance(picked, StagedNeed):
            return picked
        i = int(str(picked))
        old = f["complications"][i]
        if reduce:
            smaller = self._draw(state, "complication_reductions", f"reduce:{fid}:{i}") or \
                "for now"
            f["complications"][i] = f"{old}, {smaller}"
            text = (f"The {self.gm_title} rewrites {f['name']}'s complication smaller:"
                    f" {f['complications'][i]}.")
        else:
            f["complications"].pop(i)
            text = f"{f['name']} is rid of the complication {old}."
        return Step([self._put(fid, f, text)])

    def _r_require_project(self, state: CampaignState, args: dict[str, Any],
                           ctx: dict[str, Any]) -> Step:
        facs = self.factions(state)
        if not any(p["ready"] and not p["done"] for fid in self.live_factions(state)
                   for p in facs[fid]["projects"]):
            raise IllegalAction("no project has a secured resource to work with: Start a"
                                " Project, then Secure Resource for it")
        return Step()

    def _r_start_project(self, state: CampaignState, args: dict[str, Any], ctx: dict[str, Any]
                         ) -> Step | Need:
        name = str(ctx.get("fiction") or "").strip().rstrip(".")[:80]
        if not name:
            raise IllegalAction("name the project as your fiction, e.g. 'A bridge of lanterns"
                                " over the Sallows'")
        got = self._faction_step(state, args, ctx,
                                 "Which faction starts the project?")
        if isinstance(got, StagedNeed):
            return got
        fid, f = got
        needs = self._draw_many(state, "project_needs", f"project:{fid}:{len(f['projects'])}", 3)
        f["projects"].append({"name": name, "needs": needs, "secured": 0, "ready": False,
                              "finish_on_resource": False, "done": False})
        return Step([self._put(fid, f, f"{f['name']} starts a project: {name}. The"
                                       f" {self.gm_title} names what it needs: "
                                       + ", ".join(needs) + ".")])

    def _r_project_result(self, state: CampaignState, args: dict[str, Any],
                          ctx: dict[str, Any]) -> Step | Need:
        got = self._faction_step(state, args, ctx)
        if isinstance(got, StagedNeed):
            return got
        fid, f = got
        ready = [(i, p) for i, p in enumerate(f["projects"]) if p["ready"] and not p["done"]]
        if not ready:
            raise IllegalAction(f"{f['name']} has no project with a secured resource")
        if args.get("pick") is None and len(ready) > 1:
            return Need("pick", "Which project?", [opt(str(i), p["name"]) for i, p in ready])
        i = int(args["pick"]) if args.get("pick") is not None else ready[0][0]
        p = f["projects"][i]
        result = str(args.get("result"))
        if result == "done":
            p["done"] = True
            f["aspects"].append(p["name"])
            text = f"{f['name']} completes {p['name']}: it becomes an aspect."
        elif result == "finish_on_resource":
            p["ready"] = False
            p["finish_on_resource"] = True
            text = (f"{p['name']} is partly done: it completes when {f['name']} secures one more"
                    " resource.")
        else:
            p["ready"] = False
            text = (f"{p['name']} is partly done: {f['name']} must secure another resource and"
                    " roll Complete Project again.")
        return Step([self._put(fid, f, text)])

    def _hood_options(self, f: dict[str, Any]) -> list[dict[str, Any]]:
        return [opt(slug(n), n) for n in f["neighborhoods"]]

    def _r_overtake(self, state: CampaignState, args: dict[str, Any], ctx: dict[str, Any]
                    ) -> Step | Need:
        got = self._faction_step(state, args, ctx)
        if isinstance(got, StagedNeed):
            return got
        fid, f = got
        facs = self.factions(state)
        result = str(args.get("result"))
        if not f["neighborhoods"]:
            return Step([ev.Narrated(text=f"{f['name']} holds no neighborhood to defend.",
                                     by="engine")])
        key = self._pick(args, "hood", "Which neighborhood is contested?",
                         self._hood_options(f))
        if isinstance(key, StagedNeed):
            return key
        hood = next(n for n in f["neighborhoods"] if slug(n) == key)
        if result == "lose_dominance":
            f["neighborhoods"].remove(hood)
            return Step([self._put(fid, f, f"{f['name']} repels the encroachers but no longer"
                                           f" dominates {hood}.")])
        others = [x for x in self.live_factions(state) if x != fid]
        to = self._pick(args, "to", "Which faction is encroaching?",
                        [opt(x, facs[x]["name"]) for x in others])
        if isinstance(to, StagedNeed):
            return to
        if to is None:
            return Step([ev.Narrated(text="No other faction is there to take it.",
                                     by="engine")])
        g = facs[to]
        f["neighborhoods"].remove(hood)
        g["neighborhoods"].append(hood)
        events: list[ev.Event] = [self._put(fid, f, f"{f['name']} gives up {hood}."),
                                  self._put(to, g, f"{g['name']} now dominates {hood}.")]
        push: list[Item] = []
        if result == "cede":
            push.append(effect_item(_rule("add_complication", faction=to), ctx))
        elif result == "yield":
            push.append(effect_item(_rule("aspect_to_write", faction=fid), ctx))
        return Step(events, push=push)

    def _r_claim_neighborhood(self, state: CampaignState, args: dict[str, Any],
                              ctx: dict[str, Any]) -> Step | Need:
        got = self._faction_step(state, args, ctx,
                                 "Which faction moves in?")
        if isinstance(got, StagedNeed):
            return got
        fid, f = got
        owned = {n for v in state.data.get("factions", {}).values() for n in v["neighborhoods"]}
        free = [n for n in self.neighborhoods() if n not in owned]
        if not free:
            raise IllegalAction("every neighborhood is dominated by a faction: Overtake"
                                " Neighborhood instead")
        key = self._pick(args, "hood", "Which undominated neighborhood?",
                         [opt(slug(n), n) for n in free])
        if isinstance(key, StagedNeed):
            return key
        hood = next(n for n in free if slug(n) == key)
        f["neighborhoods"].append(hood)
        return Step([self._put(fid, f, f"No faction dominated {hood}: {f['name']} does now.")])

    def _r_garble_rumor(self, state: CampaignState, args: dict[str, Any], ctx: dict[str, Any]
                        ) -> Step:
        rumor = str(ctx.get("fiction") or "the rumor").strip().rstrip(".")
        twist = self._draw(state, "rumor_twists", "rumor") or "it comes back wrong"
        return Step([ev.Narrated(text=f"The {self.gm_title} rewrites the rumor: \"{rumor}\" —"
                                      f" but {twist}.", by="gm")])

    def _r_alliance(self, state: CampaignState, args: dict[str, Any], ctx: dict[str, Any]
                    ) -> Step | Need:
        live = self.live_factions(state)
        facs = self.factions(state)
        if len(live) < 2:
            raise IllegalAction("an alliance needs at least two factions")
        if args.get("faction") is None:
            return StagedNeed("pick", "Which faction receives the aid?",
                              [opt(x, facs[x]["name"]) for x in live], stage="faction")
        fid = str(args["faction"])
        if args.get("helpers") is None:
            others = [x for x in live if x != fid]
            return StagedNeed("pick", f"Which factions aid {facs[fid]['name']}?",
                              [opt(x, facs[x]["name"]) for x in others], 1, len(others),
                              stage="helpers")
        helpers = [h for h in str(args["helpers"]).split(",") if h]
        f = facs[fid]
        names = ", ".join(facs[h]["name"] for h in helpers)
        f["complications"].append(f"Indebted to {names}")
        moves = [m.id for m in self.pack.moves.values() if m.category == FACTION and m.roll]
        return Step([self._put(fid, f, f"{names} aid{'s' if len(helpers) == 1 else ''}"
                                       f" {f['name']}, which takes the complicating aspect"
                                       f" Indebted to {names}. The allies share the"
                                       " consequences."),
                     ev.BonusAdded(id=state.next_id, kind="forward", amount=len(helpers),
                                   moves=moves, target=None, expires="scene",
                                   reason=f"Alliance: {names} aid {f['name']}")])

    def _r_lose_cohesion(self, state: CampaignState, args: dict[str, Any], ctx: dict[str, Any]
                         ) -> Step | Need:
        got = self._faction_step(state, args, ctx,
                                 "Which faction succumbs to a threat?")
        if isinstance(got, StagedNeed):
            return got
        fid, f = got
        picked = self._pick(args, "pick", f"{f['name']} succumbs: erase which aspect?",
                            [opt(str(i), a) for i, a in enumerate(f["aspects"])])
        if isinstance(picked, StagedNeed):
            return picked
        events: list[ev.Event] = []
        if picked is not None:
            old = f["aspects"].pop(int(picked))
            events.append(self._put(fid, f, f"{f['name']} succumbs to the threat and loses the"
                                            f" aspect {old}."))
        if len(f["complications"]) > len(f["aspects"]):
            return Step(events + self._disperse(state, fid, f))
        events.append(ev.DataSet(scope="campaign", key="acting_faction", value=fid))
        events.append(ev.Narrated(text=f"{f['name']} has {len(f['aspects'])} aspect(s) against"
                                       f" {len(f['complications'])} complication(s): it rolls to"
                                       " hold together.", by="engine"))
        return Step(events, push=[{"trigger": "hold_together", "ctx": {"target": None}}])

    def _r_cohesion_check(self, state: CampaignState, args: dict[str, Any],
                          ctx: dict[str, Any]) -> Step:
        got = self._faction_step(state, args, ctx)
        assert not isinstance(got, StagedNeed)
        fid, f = got
        if len(f["complications"]) > len(f["aspects"]):
            return Step(self._disperse(state, fid, f))
        return Step()

    def _disperse(self, state: CampaignState, fid: str, f: dict[str, Any]) -> list[ev.Event]:
        f["dispersed"] = True
        gone = f["neighborhoods"]
        f["neighborhoods"] = []
        text = (f"{f['name']} has more complications than aspects: it disperses"
                + (f", leaving {', '.join(gone)} undominated" if gone else "") + ".")
        events: list[ev.Event] = [self._put(fid, f, text)]
        if state.hero.data.get("faction") == fid:
            events.append(CitySheetChanged(
                key="faction", value=None,
                text="Your faction is gone. You may Found a Faction, starting from one of its"
                     " remaining aspects."))
            events.append(CitySheetChanged(key="former_faction", value=fid, text=""))
        return events

    def _r_lose_neighborhood(self, state: CampaignState, args: dict[str, Any],
                             ctx: dict[str, Any]) -> Step | Need:
        got = self._faction_step(state, args, ctx)
        if isinstance(got, StagedNeed):
            return got
        fid, f = got
        if not f["neighborhoods"]:
            return Step()
        key = self._pick(args, "hood", f"Which neighborhood does {f['name']} lose?",
                         self._hood_options(f))
        if isinstance(key, StagedNeed):
            return key
        hood = next(n for n in f["neighborhoods"] if slug(n) == key)
        f["neighborhoods"].remove(hood)
        return Step([self._put(fid, f, f"{f['name']} loses its hold on {hood}.")])

    def _r_found_faction(self, state: CampaignState, args: dict[str, Any], ctx: dict[str, Any]
                         ) -> Step | Need:
        name = str(ctx.get("fiction") or args.get("name") or "").strip().rstrip(".")[:60]
        mine = state.hero.data.get("faction")
        if mine and mine in self.live_factions(state):
            raise IllegalAction(f"you already belong to {state.data['factions'][mine]['name']}")
        if not name:
            raise IllegalAction("name the new faction as your fiction, e.g. 'The Lantern"
                                " Compact'")
        fid = slug(name)
        if fid in state.data.get("factions", {}):
            raise IllegalAction(f"there is already a faction called {name!r}")
        former = state.hero.data.get("former_faction")
        left = state.data.get("factions", {}).get(former, {}).get("aspects", []) if former \
            else []
        f = faction_value(FactionStart(name=name, magistrate=False))
        if left and args.get("pick") is None:
            return Need("pick", "Which remaining aspect does the new faction start with?",
                        [opt(str(i), a) for i, a in enumerate(left)])
        if left:
            f["aspects"].append(left[int(args["pick"])])
            how = f"starting with the aspect {f['aspects'][0]}"
        else:
            f["to_write"] = 1
            how = "write its first aspect with the Write an Aspect move"
        return Step([self._put(fid, f, f"You found {name}: {how}."),
                     CitySheetChanged(key="faction", value=fid, text=f"You belong to {name}.")])

    # --- the Magistrate's rule effects

    def _r_tie_trouble(self, state: CampaignState, args: dict[str, Any], ctx: dict[str, Any]
                       ) -> Step:
        ties = [n for n, t in state.hero.data.get("ties", {}).items() if t.get("active")]
        if not ties:
            return Step()
        npc = gm_random(state, "cow:tie").choice(sorted(ties))
        name = state.hero.data["ties"][npc]["name"]
        return Step([ev.Narrated(text=f"It is {name} who is caught up in it: your Tie, and"
                                      " everyone knows it.", by="gm")])

    def _r_lose_asset(self, state: CampaignState, args: dict[str, Any], ctx: dict[str, Any]
                      ) -> Step:
        have = state.hero.tracks.get(ASSETS, 0)
        if have < 1:
            return Step()
        return Step([ev.TrackChanged(track=ASSETS, scope="hero", delta=-1, value=have - 1,
                                     reason=ctx.get("source", "lost"))])

    def _r_scheme_trouble(self, state: CampaignState, args: dict[str, Any], ctx: dict[str, Any]
                          ) -> Step:
        schemes = self.sheet(state, "schemes", [])
        if not schemes:
            return Step()
        x = gm_random(state, "cow:scheme").choice(schemes)
        lo, _ = PRODUCTIVITY
        x["productivity"] = max(lo, x["productivity"] - 1)
        return Step([CitySheetChanged(key="schemes", value=schemes,
                                      text=f"{x['name']} suffers: Productivity"
                                           f" {x['productivity']:+d}.")])

    def _r_hero_faction_complication(self, state: CampaignState, args: dict[str, Any],
                                     ctx: dict[str, Any]) -> Step:
        mine = state.hero.data.get("faction")
        if not mine or mine not in self.live_factions(state):
            return Step()
        return Step(push=[effect_item(_rule("add_complication", faction=mine), ctx)])

