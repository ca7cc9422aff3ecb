"""What every part of the City of Whispers rules shares: constants, the typed sheet and
factions as read from the state, the Magistrate's seeded table draws, staged prompts."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from engine.content import schema as s
from engine.content.loader import Pack
from engine.errors import ContentError
from engine.rules import events as ev
from engine.rules.base import Item, Need, Ruleset, gm_random
from engine.rules.state import CampaignState
from engine.systems.city_of_whispers.data import HeroStart, SystemData, data_problems
from engine.systems.city_of_whispers.factions_model import Faction, read_factions
from engine.systems.city_of_whispers.sheet import CitySheet

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


def slug(text: str) -> str:
    """A snake_case id for a name."""
    out = re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")
    return out if out and out[0].isalpha() else f"x_{out}"


def rule(name: str, **args: Any) -> dict[str, Any]:
    """A ``rule`` effect as a dict."""
    return {"type": "rule", "name": name, "args": args}


def emit(e: ev.Event) -> Item:
    """A queue item that emits ``e``."""
    return {"emit": e.to_dict()}


def low(faces: list[int]) -> bool:
    """Whether a die shows 1 or 2."""
    return any(f <= 2 for f in faces)


@dataclass
class StagedNeed(Need):
    """A prompt whose answer fills ``args[stage]`` of the rule effect that opened it."""

    stage: str = "pick"


class CityBase(Ruleset):
    """The shared reading of a City of Whispers state; the rules build on it."""

    id = "city_of_whispers"

    def __init__(self, pack: Pack) -> None:
        super().__init__(pack)
        try:
            self.data = SystemData.model_validate(pack.system.data)
            self.starts = {a.id: HeroStart.model_validate(a.data)
                           for a in pack.system.archetypes}
        except ValidationError:
            problems = [f"{pack.path}/{p}" for p in data_problems(pack)]
            raise ContentError(f"{pack.path}: the content pack is broken\n  "
                               + "\n  ".join(problems), problems) from None
        self.gm_title = pack.system.gm_title

    # --- the typed sheet and factions ------------------------------------------------

    @staticmethod
    def hero_sheet(state: CampaignState) -> CitySheet:
        """A typed copy of the hero's sheet (safe to change before emitting)."""
        return CitySheet.read(state)

    @staticmethod
    def factions(state: CampaignState) -> dict[str, Faction]:
        """A typed copy of every faction by id."""
        return read_factions(state)

    def live_factions(self, state: CampaignState) -> list[str]:
        """Ids of factions that have not dispersed, the hero's first."""
        mine = self.hero_sheet(state).faction
        ids = [f for f, v in self.factions(state).items() if not v.dispersed]
        return sorted(ids, key=lambda f: f != mine)

    def usable_secrets(self, state: CampaignState) -> list[str]:
        """NPC ids of active Ties whose secret is intact."""
        return self.hero_sheet(state).usable_secrets()

    def is_tie(self, state: CampaignState, npc: str | None) -> bool:
        """Whether ``npc`` is an active Tie."""
        tie = self.hero_sheet(state).ties.get(npc) if npc else None
        return bool(tie and tie.active)

    def _declared(self, state: CampaignState, move: s.Move) -> list[str]:
        """The declarations made for ``move``'s roll (none when another move is pending)."""
        return list(state.flow.declared) if state.flow.move == move.id else []

    # --- the city ------------------------------------------------------------------

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
        conns = list(self.hero_sheet(state).connections)
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
