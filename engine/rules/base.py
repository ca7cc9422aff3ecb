"""The rules core shared by every system, and ``Ruleset``: the hooks a system overrides.

A ruleset module (``engine/rules/<ruleset>.py``) subclasses ``Ruleset`` and overrides only what
its game does differently: how stats shift past their bounds, extra roll modifiers, what a
``rule`` effect means, what can change a roll after it is made.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, ClassVar

from engine.content import schema as s
from engine.content.loader import Pack
from engine.errors import IllegalAction
from engine.rules import events as ev
from engine.rules.state import CampaignState

Item = dict[str, Any]
"""A unit of pending work in the flow queue: an effect, a choice, an event to emit."""


@dataclass
class Need:
    """The engine needs the player to pick: a prompt and the queue item it will resolve."""

    kind: str
    message: str
    options: list[dict[str, Any]]
    min: int = 1
    max: int = 1

    def to_prompt(self, item: Item) -> dict[str, Any]:
        """The prompt as stored in the flow."""
        return {
            "kind": self.kind,
            "message": self.message,
            "options": self.options,
            "min": self.min,
            "max": self.max,
            "item": item,
        }


@dataclass
class Step:
    """What handling one queue item produced: events now, and items to do next."""

    events: list[ev.Event] = field(default_factory=list)
    push: list[Item] = field(default_factory=list)


@dataclass(frozen=True)
class Declaration:
    """Something the player may declare before a roll."""

    id: str
    label: str
    detail: str = ""


@dataclass(frozen=True)
class Adjustment:
    """A change the player may make after seeing the roll (spend Team, use Influence, ...)."""

    id: str
    label: str
    amount: int
    detail: str = ""


def opt(id_: str, label: str, detail: str = "") -> dict[str, Any]:
    """One prompt option."""
    return {"id": id_, "label": label, "detail": detail}


def gm_random(state: CampaignState, salt: str) -> random.Random:
    """A generator for the GM's picks, fixed by the seed and the log position: no dice used."""
    return random.Random(f"{state.seed}:{salt}:{state.event_no}")


GENERIC_RULES = frozenset({"npc_leaves", "choose_from_band"})
"""``rule`` effects the effect interpreter itself handles, for every system."""


class Ruleset:
    """Default rules: stats clamp at their bounds, no extra modifiers, no rule effects."""

    id = "generic"
    rule_effect_names: ClassVar[frozenset[str]] = frozenset()
    """The ``rule`` effects this system's ``rule_effect`` handles by name."""

    @classmethod
    def known_rule_effects(cls) -> frozenset[str]:
        """Every ``rule`` effect name content may use with this ruleset: the interpreter's own
        (``GENERIC_RULES``), ``rule_effect_names`` and each ``_r_<name>`` handler method."""
        handlers = {n.removeprefix("_r_") for n in dir(cls) if n.startswith("_r_")}
        return GENERIC_RULES | cls.rule_effect_names | handlers

    def __init__(self, pack: Pack) -> None:
        self.pack = pack

    @classmethod
    def check_content(cls, pack: Pack) -> list[str]:
        """Problems with the data this ruleset reads (``system.yaml`` ``data`` blocks), for
        ``sidekick validate``; each names the file and key path. None by default."""
        return []

    # --- creation -------------------------------------------------------------------

    def npc_added(self, state: CampaignState, npc_id: str, role: str) -> list[ev.Event]:
        """Events that follow an NPC joining (Masks: adults hold Influence over the hero)."""
        return []

    def campaign_started(self, state: CampaignState) -> list[Item]:
        """Work to do when a campaign begins (after its NPCs are added)."""
        return []

    # --- rolls ----------------------------------------------------------------------

    def stat_value(self, state: CampaignState, move: s.Move, stat: str) -> tuple[str, int]:
        """The label and value a roll adds for ``stat``."""
        if stat.startswith("param:"):
            pid = stat.split(":", 1)[1]
            assert move.roll is not None
            prm = next(p for p in move.roll.params if p.id == pid)
            value = state.flow.params.get(pid, prm.default) if state.flow.move == move.id \
                else prm.default
            return f"{prm.name} ({value})", value
        if stat == "conditions_marked":
            n = len(state.hero.conditions)
            return f"conditions marked ({n})", n
        if stat == "none":
            return "no stat", 0
        stat_def = self.pack.stats[stat]
        return stat_def.name, state.hero.stats.get(stat, 0)

    def declarations(self, state: CampaignState, move: s.Move) -> list[Declaration]:
        """What the player may declare before this roll (use a belief, spend an asset...)."""
        return []

    def declaration_name(self, state: CampaignState, move: s.Move, declaration: str) -> str:
        """A declaration's name for messages (its label when offered, else the id quoted)."""
        found = next((d for d in self.declarations(state, move) if d.id == declaration), None)
        return found.label if found else repr(declaration)

    def declaration_refused(self, state: CampaignState, move: s.Move, declaration: str) -> str:
        """Why ``declaration`` cannot be declared now, in names, with what can be."""
        offered = self.declarations(state, move)
        can = ("you may declare: " + "; ".join(d.label for d in offered) if offered
               else "nothing can be declared now")
        return (f"{self.declaration_name(state, move, declaration)} cannot be declared for"
                f" {move.name} now ({can})")

    def dice_mode(self, state: CampaignState, move: s.Move) -> str | None:
        """'advantage', 'disadvantage' or None for the pending roll; by default, as chosen."""
        flow = state.flow
        return flow.advantage if flow.move == move.id else None

    def after_roll(self, state: CampaignState, move: s.Move, roll: dict[str, Any]) -> list[Item]:
        """Work that the dice themselves trigger, before the outcome (e.g. a die showing 1-2)."""
        return []

    def extra_modifiers(
        self, state: CampaignState, move: s.Move, target: str | None
    ) -> list[list[Any]]:
        """System-specific modifiers as [source, amount, bonus id or None]."""
        return []

    def adjustments(self, state: CampaignState, move: s.Move, roll: dict[str, Any]) -> list[
            Adjustment]:
        """What the player may still change after the roll."""
        return []

    def adjustment_name(self, state: CampaignState, adj_id: str) -> str:
        """An adjustment's name for messages when it is not on offer (the id quoted)."""
        return repr(adj_id)

    def adjust(self, state: CampaignState, adj_id: str, roll: dict[str, Any]) -> tuple[
            list[ev.Event], int, str]:
        """Events for taking adjustment ``adj_id``: (events, modifier change, source label)."""
        raise IllegalAction(f"no such adjustment: {adj_id!r}")

    # --- effects --------------------------------------------------------------------

    def shift_stats(
        self, state: CampaignState, changes: dict[str, int], reason: str
    ) -> Step:
        """Shift stats; by default values clamp at the stat's bounds."""
        values = {}
        for stat, delta in changes.items():
            d = self.pack.stats[stat]
            values[stat] = max(d.min, min(d.max, state.hero.stats.get(stat, 0) + delta))
        return Step([ev.LabelsShifted(changes=dict(changes), values=values, reason=reason)])

    def gain_influence(self, state: CampaignState, npc_id: str, reason: str) -> Step:
        """The hero gains Influence over ``npc_id``."""
        if state.npcs[npc_id].hero_has_influence:
            return Step()
        return Step([ev.InfluenceChanged(npc=npc_id, direction="hero_over", held=True,
                                         reason=reason)])

    def no_free_condition(self, state: CampaignState, who: str) -> Step:
        """A condition must be marked and none is free."""
        if who == "hero":
            return Step([ev.TakenOut(out=True, reason="no condition left to mark")])
        name = state.npcs[who].name
        return Step([ev.Narrated(text=f"{name} has nothing left and is taken out.", by="engine")])

    def rule_effect(self, state: CampaignState, eff: s.Rule, ctx: dict[str, Any]) -> Step | Need:
        """A ``rule`` effect this system defines."""
        raise IllegalAction(f"the {self.id} rules do not know the rule effect {eff.name!r}")

    def rule_answer(
        self, state: CampaignState, eff: s.Rule, ctx: dict[str, Any], ids: list[str]
    ) -> list[Item]:
        """Resolve a prompt a ``rule`` effect opened."""
        raise IllegalAction(f"the {self.id} rules cannot answer {eff.name!r}")

    # --- scenes and sessions ----------------------------------------------------------

    def scene_ending(self, state: CampaignState, cleared: list[str]) -> list[ev.Event]:
        """Events before ``SceneEnded``: by default, clear the conditions whose action was taken."""
        out: list[ev.Event] = []
        for cond in cleared:
            if cond in state.hero.conditions:
                out.append(ev.ConditionCleared(who="hero", condition=cond,
                                               reason="its clearing action was taken"))
        return out

    def session_started(self, state: CampaignState) -> list[Item]:
        """Work when a session starts: the content's start effects."""
        return [effect_item(e, {"source": "start of session"})
                for e in self.pack.system.session.start_effects]


def model_problems(where: str, model: Any, data: Any) -> list[str]:
    """``data`` checked against a pydantic ``model``: one line per problem, at ``where``."""
    from pydantic import ValidationError

    try:
        model.model_validate(data)
    except ValidationError as e:
        out = []
        for err in e.errors():
            path = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in err["loc"])
            msg = "unknown key" if err["type"] == "extra_forbidden" else err["msg"]
            out.append(f"{where}{path}: {msg}")
        return out
    return []


_DUMPS: dict[int, tuple[Any, dict[str, Any]]] = {}


def effect_item(effect: Any, ctx: dict[str, Any]) -> Item:
    """A queue item for an effect model or dict. Content models are frozen, so each one's
    dict form is made once and shared (consumers copy before changing it)."""
    if hasattr(effect, "model_dump"):
        cached = _DUMPS.get(id(effect))
        if cached is None or cached[0] is not effect:
            cached = (effect, effect.model_dump(exclude_none=True))
            _DUMPS[id(effect)] = cached
        return {"effect": cached[1], "ctx": ctx}
    return {"effect": effect, "ctx": ctx}
