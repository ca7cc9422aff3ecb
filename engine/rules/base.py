"""The rules core shared by every system, and ``Ruleset``: the hooks a system overrides.

A ruleset module (``engine/rules/<ruleset>.py``) subclasses ``Ruleset`` and overrides only what
its game does differently: how stats shift past their bounds, extra roll modifiers, what a
``rule`` effect means, what can change a roll after it is made.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from pydantic import BaseModel

from engine.content import schema as s
from engine.content.loader import Pack
from engine.content.problems import describe
from engine.dice import Degrees, degrees_vs_dc
from engine.errors import IllegalAction
from engine.rules import events as ev
from engine.rules.duel import Duels
from engine.rules.fight.conflict import Conflict
from engine.rules.fight.events import FIGHT_OPENING, FightRequested
from engine.rules.registry import Registry
from engine.rules.sheet import Section, default_sheet
from engine.rules.state import HERO, Actor, CampaignState
from engine.rules.types import EffectContext, Modifier, PromptDict, RollDict
from engine.rules.types import Item as Item  # re-exported: its old home


@dataclass
class Need:
    """The engine needs the player to pick: a prompt and the queue item it will resolve."""

    kind: str
    message: str
    options: list[dict[str, Any]]
    min: int = 1
    max: int = 1
    title: str = ""
    """The dialog's title, when the rules name it (Masks: "Entering battle")."""

    def to_prompt(self, item: Item) -> PromptDict:
        """The prompt as stored in the flow."""
        prompt: PromptDict = {
            "kind": self.kind,
            "message": self.message,
            "options": self.options,
            "min": self.min,
            "max": self.max,
            "item": item,
        }
        if self.title:
            prompt["context"] = {"title": self.title}
        return prompt


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
    group: str = ""
    """Declarations of one group exclude each other (one per roll); "" : none."""


@dataclass(frozen=True)
class Adjustment:
    """A change the player may make after seeing the roll (spend Team, use Influence, ...)."""

    id: str
    label: str
    amount: int
    detail: str = ""


@dataclass(frozen=True)
class BandOverride:
    """The dice themselves set a roll's band (a natural 20, a natural 1): the band, and why."""

    band: str
    why: str


CAMPAIGN = "campaign"
"""In an edit, the campaign's own values (pools such as Team, threats' clocks), not an actor's."""


@dataclass(frozen=True)
class Editable:
    """A value the player may set by hand (``Game.edit``): the ``what`` kind (condition,
    stat, track, pool, clock, or a ruleset's own such as Masks's influence) named ``key``.

    A ``flag`` is marked or not (``value`` a bool, said with ``words``: (off, on)); otherwise
    ``value`` is a whole number from ``min`` to ``max`` (None: no upper bound)."""

    what: str
    key: str
    name: str
    value: int
    min: int = 0
    max: int | None = 1
    flag: bool = False
    group: str = ""
    words: tuple[str, str] = ("cleared", "marked")
    signed: bool = False

    def shown(self, value: int) -> str:
        """``value`` in words: the flag's word, or the number (signed for stats)."""
        if self.flag:
            return self.words[bool(value)]
        return f"{value:+d}" if self.signed else str(value)

    def bounds(self) -> str:
        """The allowed values, for messages."""
        if self.flag:
            return "true or false"
        low = f"{self.min:+d}" if self.signed else str(self.min)
        if self.max is None:
            return f"a whole number of {low} or more"
        return f"a whole number from {low} to {self.shown(self.max)}"


@dataclass(frozen=True)
class Edit:
    """One change asked of ``Game.edit_many``: set ``what`` ``key`` of ``who`` to ``value``."""

    who: str
    what: str
    key: str
    value: int


@dataclass(frozen=True, slots=True)
class Option:
    """One answer a prompt offers."""

    id: str
    """What the game takes back (``Game.choose``, ``choose_target``...)."""
    label: str
    """Its words."""
    detail: str = ""
    """More words: what it does, why it is offered."""
    disabled: str = ""
    """Why it cannot be taken now ("" : it can)."""

    @classmethod
    def of(cls, d: Mapping[str, Any]) -> Option:
        """An option from the dict form the rules and the saved flow keep."""
        return cls(id=str(d.get("id", "")), label=str(d.get("label", "")),
                   detail=str(d.get("detail") or ""), disabled=str(d.get("disabled") or ""))


def options_of(raw: Sequence[Mapping[str, Any]]) -> tuple[Option, ...]:
    """Typed options from their dict form."""
    return tuple(Option.of(o) for o in raw)


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
    registry: ClassVar[Registry] = ev.CORE
    """Everything this game declares: events, hand edits, rule and system effects, journal
    lines (a system's registry extends the core's, and the fight engine's for the d20 games)."""
    @classmethod
    def known_rule_effects(cls) -> frozenset[str]:
        """Every ``rule`` effect name content may use with this ruleset: the interpreter's own
        (``GENERIC_RULES``) and those its registry declares (what ``rule_effect`` runs)."""
        return GENERIC_RULES | frozenset(cls.registry.rule_effects.all())

    @classmethod
    def system_effects(cls) -> frozenset[str]:
        """Effect types this system handles itself (its registry's, such as Masks's Influence
        effects); the core interpreter hands them over."""
        return frozenset(cls.registry.effects.all())
    TARGET_TESTS: ClassVar[dict[str, Callable[[CampaignState, Actor], str | None]]] = {}
    """Named tests a move's ``target_when`` may use: why a character cannot be the target
    (None: they can)."""
    GM_PRECONDITIONS: ClassVar[dict[str, Callable[[Pack, CampaignState], bool]]] = {}
    """GM move preconditions this system adds to the generic ones (engine/gm/moves.py)."""
    GM_FOCUS: ClassVar[list[tuple[str, Callable[[CampaignState, Actor], bool]]]] = []
    """Which character a GM move with this precondition is about, before the generic ones."""

    def __init__(self, pack: Pack) -> None:
        self.pack = pack

    # --- system effects -----------------------------------------------------------------

    def effect(self, state: CampaignState, eff: Any, ctx: EffectContext) -> Step | Need:
        """Apply an effect of one of ``system_effects``' types."""
        handler = self.registry.effects.get(eff.type)
        if handler is None:
            raise IllegalAction(f"the {self.id} rules do not know the effect {eff.type!r}")
        result: Step | Need = handler(self, state, eff, ctx)
        return result

    def futile_effect(self, state: CampaignState, eff: Any, ctx: EffectContext) -> str | None:
        """Why a system effect (``system_effects``) would do nothing now (None: it would act)."""
        return None

    def answer_effect(self, state: CampaignState, item: Item, ids: list[str]) -> list[Item]:
        """Resolve a prompt an effect of one of ``system_effects``' types opened."""
        what = item["effect"].get("type") if "effect" in item else sorted(item)
        raise IllegalAction(f"the {self.id} rules cannot answer {what!r}")

    def target_role(self, state: CampaignState, actor: Actor) -> str:
        """The role a move's ``target_roles`` sees: another hero of the party is a
        ``teammate``; an NPC has its own role."""
        return "teammate" if actor.kind == "hero" else actor.role

    def target_refusal(self, state: CampaignState, move: s.Move, actor: Actor) -> str | None:
        """Why ``actor`` cannot be ``move``'s target now (None: they can)."""
        if actor.id == state.acting:
            return f"{move.name} cannot target yourself"
        role = self.target_role(state, actor)
        if move.target_roles and role not in move.target_roles:
            return (f"{move.name} cannot target {actor.name} ({role}); it targets"
                    f" {', '.join(move.target_roles)}")
        for need in move.target_when:
            test = self.TARGET_TESTS.get(need)
            why = (f"the {self.id} rules do not know the target test {need!r}" if test is None
                   else test(state, actor))
            if why:
                return f"{move.name}: {why}"
        return None

    def is_teammate(self, state: CampaignState, actor: Actor) -> bool:
        """Whether ``actor`` is on the acting hero's side: another hero of the party or an NPC
        with the ``teammate`` role (moves use their ``vs_teammate`` outcomes against them)."""
        return actor.id != state.acting and (actor.kind == "hero" or actor.role == "teammate")

    @staticmethod
    def roll_param(state: CampaignState, move: s.Move, pid: str) -> int | None:
        """A roll parameter of ``move`` (a DC, a complexity) as set for the roll under way,
        else its default; None when the move has no such parameter."""
        if move.roll is None:
            return None
        prm = next((p for p in move.roll.params if p.id == pid), None)
        if prm is None:
            return None
        if state.flow.move == move.id and pid in state.flow.params:
            return state.flow.params[pid]
        return prm.default

    def check_vs_dc(self, natural: int, modifier: int, dc: int) -> Degrees:
        """A d20 (``natural``) + ``modifier`` against ``dc`` by this game's rules: the one
        check ``sidekick roll --dc``, its moves, fights and odds share. By default one degree
        per full 5 points past the DC (or short of it), the naturals counting as their face."""
        return degrees_vs_dc(natural, modifier, dc, crit_shift=False)

    def conflict(self) -> Conflict[Any] | None:
        """How this game runs a fight in rounds (engine/rules/fight); None: no fights."""
        return None

    def duels(self) -> Duels | None:
        """This game's fast duels for the lab (engine/rules/duel.py); None: the lab plays
        its fights through ``Game``."""
        return None

    def hero_from_file(self, path: Path) -> tuple[str, dict[str, int], dict[str, Any]]:
        """A custom hero from a stat block file (``sidekick new --statblock``): its name, its
        stats and its system data; ``IllegalAction`` when this game has no such files."""
        raise IllegalAction(f"{self.pack.system.name} has no stat block files: this game takes"
                            " --archetype or --stats")

    def sheet(self, state: CampaignState, actor_id: str | None = None) -> list[Section]:
        """The character sheet of ``actor_id`` (the acting hero by default) as sections."""
        return default_sheet(self.pack, state, actor_id)

    def editable(self, state: CampaignState, who: str) -> list[Editable]:
        """What the player may set by hand on ``who`` (an actor id, "hero" or ``CAMPAIGN``):
        by default conditions, stats and tracks of an actor, the campaign's pools and the
        clocks of active threats. A track that empties when full, and a clock (whose doom
        strikes when full), stop one short of full: filling them is play, not an edit."""
        pack = self.pack
        out: list[Editable] = []
        if who == CAMPAIGN:
            for t in pack.system.tracks:
                if t.scope == "campaign" and t.id in state.pools:
                    top = None if t.max is None else t.max - t.reset_on_full
                    out.append(Editable("pool", t.id, t.name, state.pools[t.id], t.min, top,
                                        group="Campaign"))
            for th in state.threats.values():
                if th.active:
                    out.append(Editable("clock", th.id, f"{th.name}'s clock", th.clock, 0,
                                        th.size - 1, group="Threats"))
            return out
        actor = state.actor(who)
        for cid, c in pack.conditions.items():
            out.append(Editable("condition", cid, c.name, cid in actor.conditions, flag=True,
                                group="Conditions"))
        for sid, sd in pack.stats.items():
            if actor.kind == "hero" or sid in actor.stats:
                out.append(Editable("stat", sid, sd.name, actor.stats.get(sid, 0), sd.min,
                                    sd.max, group=pack.system.stat_label, signed=True))
        for t in pack.system.tracks:
            if t.scope == "hero" and (actor.kind == "hero" or t.id in actor.tracks):
                top = None if t.max is None else t.max - t.reset_on_full
                out.append(Editable("track", t.id, t.name, actor.tracks.get(t.id, t.start),
                                    t.min, top, group="Tracks"))
        return out

    @classmethod
    def journal_line(cls, e: dict[str, Any], who: Callable[[str], str]) -> str | None:
        """The journal line of an event this system registered (None: not one of its own, or
        one with no line). ``who`` names a character by id."""
        return cls.registry.line(e, who)

    CONTENT_FILES: ClassVar[dict[str, type[BaseModel]]] = {}
    """The files this game adds to a pack, by name, and the model each is checked against
    (unknown keys forbidden): ``sidekick validate`` checks each file a pack has, before
    ``check_content``; ``sidekick schema`` publishes each as ``<ruleset>-<file>.schema.json``."""

    @classmethod
    def check_content(cls, pack: Pack) -> list[str]:
        """Problems with the data this ruleset reads that no model can see (``system.yaml``
        ``data`` blocks, ids and costs its rules define), for ``sidekick validate``; each names
        the file and key path. The shape of ``CONTENT_FILES`` is checked already. None by
        default."""
        return []

    # --- creation -------------------------------------------------------------------

    def hero_joined(self, state: CampaignState, hero_id: str) -> list[ev.Event]:
        """Events after a hero joins the party in play (Masks: the adults of the cast gain
        Influence over them); by default none."""
        return []

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
        """What the player may declare before this roll (use a belief, spend an asset...).
        By default: that a teammate target is the one you protect, for a move whose
        ``vs_teammate`` outcomes are optional."""
        return self.protect_teammate(state, move)

    PROTECT = "protect_teammate"
    """The declaration that a teammate target is the one you protect (the default)."""
    OPPOSE = "oppose_teammate"
    """The declaration that you stand against a teammate target (their ``vs_teammate``
    outcomes apply)."""

    def protect_teammate(self, state: CampaignState, move: s.Move) -> list[Declaration]:
        """The two sides toward a teammate target, when ``move`` offers both (its
        ``vs_teammate`` outcomes are optional): protect them (the default) or stand against
        them. One excludes the other."""
        target = state.flow.target if state.flow.move == move.id else None
        if (not move.vs_teammate or not move.vs_teammate_optional or not target
                or target not in state.actors
                or not self.is_teammate(state, state.actors[target])):
            return []
        name = state.actors[target].name
        return [Declaration(self.PROTECT, f"You protect {name}, not stand against them",
                            "the usual outcomes apply", "teammate"),
                Declaration(self.OPPOSE, f"You stand against {name}, not protect them",
                            "the outcomes against a teammate apply (they take -2)",
                            "teammate")]

    def teammate_side(self, state: CampaignState, move: s.Move) -> str | None:
        """Toward a teammate target of ``move`` (when it offers both sides): the side
        declared, else the one the fiction says (``fiction_side``), else None (not said:
        protecting is what happens, and the app asks). None too when there is no such
        choice."""
        if not self.protect_teammate(state, move):
            return None
        for side in (self.OPPOSE, self.PROTECT):
            if side in state.flow.declared:
                return side
        target = state.actors[state.flow.target or ""]
        return fiction_side(state.flow.fiction, target.name)

    def uses_vs_teammate(self, state: CampaignState, move: s.Move, target: str | None) -> bool:
        """Whether ``move``'s outcome comes from its ``vs_teammate`` table: the target is a
        teammate, and (when the move offers both sides) the player stands against them,
        declared or said in the fiction; protecting them is the default."""
        if not target or not move.vs_teammate or target not in state.actors:
            return False
        if not self.is_teammate(state, state.actors[target]):
            return False
        if not move.vs_teammate_optional:
            return True
        return self.teammate_side(state, move) == self.OPPOSE

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

    def pre_roll_options(self, state: CampaignState, move: s.Move) -> list[Adjustment]:
        """What the player may take before this roll to change it (Masks: spend Team)."""
        return []

    def pre_roll(self, state: CampaignState, move: s.Move, option: str
                 ) -> tuple[list[ev.Event], Modifier | None, str]:
        """Taking pre-roll ``option``: (events, the modifier it adds as [source, amount,
        None] or None, the action's label); ``IllegalAction`` when it is not on offer."""
        offered = [o.label for o in self.pre_roll_options(state, move)]
        can = "; ".join(offered) if offered else "nothing can be taken before this roll"
        raise IllegalAction(f"{option!r} cannot be taken before {move.name} ({can})")

    def bands_for(self, state: CampaignState, move: s.Move, target: str | None
                  ) -> list[s.Band]:
        """The bands a roll of ``move`` against ``target`` resolves against, chosen when the
        roll is made; by default the pack's fixed band set for the move."""
        return self.pack.bands_for(move)

    def band_override(self, state: CampaignState, move: s.Move, faces: Sequence[int],
                      band: str) -> BandOverride | None:
        """The band the kept dice ``faces`` force instead of ``band`` (the total's band), or
        None. Called during resolution and for every face combination of the exact odds, so
        it reads only ``faces``, ``band`` and what the state says before the roll."""
        return None

    def fixed_faces(self, state: CampaignState, move: s.Move) -> list[int] | None:
        """The faces the pending roll of ``move`` counts without any die being rolled (M&M's
        routine check: the d20 counts as 10), in every dice mode; None (the default): the
        dice are rolled, or entered."""
        return None

    def dice_mode(self, state: CampaignState, move: s.Move) -> str | None:
        """'advantage', 'disadvantage' or None for the pending roll; by default, as chosen."""
        flow = state.flow
        return flow.advantage if flow.move == move.id else None

    def after_roll(self, state: CampaignState, move: s.Move, roll: RollDict) -> list[Item]:
        """Work that the dice themselves trigger, before the outcome (e.g. a die showing 1-2)."""
        return []

    def extra_modifiers(
        self, state: CampaignState, move: s.Move, target: str | None
    ) -> list[Modifier]:
        """System-specific modifiers as [source, amount, bonus id or None]."""
        return []

    def adjustments(self, state: CampaignState, move: s.Move, roll: RollDict) -> list[
            Adjustment]:
        """What the player may still change after the roll."""
        return []

    def adjustment_id(self, state: CampaignState, adj_id: str) -> str:
        """The offered adjustment a shorthand names (Masks: "team" is the first teammate who
        can spend Team); by default ``adj_id`` itself."""
        return adj_id

    def adjustment_name(self, state: CampaignState, adj_id: str) -> str:
        """An adjustment's name for messages when it is not on offer (the id quoted)."""
        return repr(adj_id)

    def adjust(self, state: CampaignState, adj_id: str, roll: RollDict) -> tuple[
            list[ev.Event], int, str]:
        """Events for taking adjustment ``adj_id``: (events, modifier change, source label)."""
        raise IllegalAction(f"no such adjustment: {adj_id!r}")

    # --- effects --------------------------------------------------------------------

    def shift_stats(
        self, state: CampaignState, changes: dict[str, int], reason: str, who: str = HERO
    ) -> Step:
        """Shift the stats of ``who`` (the acting hero by default); by default values clamp at
        the stat's bounds."""
        actor = state.actor(who)
        values = {}
        for stat, delta in changes.items():
            d = self.pack.stats[stat]
            values[stat] = max(d.min, min(d.max, actor.stats.get(stat, 0) + delta))
        return Step([ev.LabelsShifted(changes=dict(changes), values=values, reason=reason,
                                      who=who)])

    def no_free_condition(self, state: CampaignState, who: str) -> Step:
        """A condition must be marked and none is free."""
        actor = state.actor(who)
        if actor.kind == "hero":
            return Step([ev.TakenOut(out=True, reason="no condition left to mark", who=who)])
        return Step([ev.Narrated(text=f"{actor.name} has nothing left and is taken out.",
                                 by="engine")])

    def rule_effect(self, state: CampaignState, eff: s.Rule, ctx: EffectContext) -> Step | Need:
        """A ``rule`` effect this system's registry declares."""
        handler = self.registry.rule_effects.get(eff.name)
        if handler is None:
            raise IllegalAction(f"the {self.id} rules do not know the rule effect {eff.name!r}")
        result: Step | Need = handler(self, state, eff, ctx)
        return result

    def rule_answer(
        self, state: CampaignState, eff: s.Rule, ctx: EffectContext, ids: list[str]
    ) -> list[Item]:
        """Resolve a prompt a ``rule`` effect opened (its registered answer)."""
        handler = self.registry.rule_answers.get(eff.name)
        if handler is None:
            raise IllegalAction(f"the {self.id} rules cannot answer {eff.name!r}")
        items: list[Item] = handler(self, state, eff, ctx, ids)
        return items

    # --- fights (a game with a conflict) ------------------------------------------------

    FOES_HINT: ClassVar[str] = "a villain"
    """Who to add when nobody in the story can be fought ("a villain or minions")."""

    def foe_options(self, state: CampaignState) -> list[dict[str, Any]]:
        """Who a fight may be against (the conflict's list) as options to pick; none in a
        game without fights."""
        c = self.conflict()
        return [] if c is None else [opt(f.id, f.label, f.detail)
                                     for f in c.foe_options(state)]

    def start_fight(self, state: CampaignState) -> Step | Need:
        """The ``start_fight`` rule effect: ask who the fight is against."""
        if state.fight is not None:
            raise IllegalAction("a fight is already under way")
        options = self.foe_options(state)
        if not options:
            return Step([ev.Narrated(text="Nobody here has a stat block to fight: add"
                                          f" {self.FOES_HINT} first.", by="engine")])
        planned = state.data.get(FIGHT_OPENING)
        named = planned.get("foes") if isinstance(planned, dict) else None
        known = {o["id"] for o in options}
        if isinstance(named, list) and named and all(f in known for f in named):
            return Step([FightRequested(foes=[str(f) for f in named])])  # the words said who
        return Need("pick", "Who are you fighting?", options, 1, len(options),
                    title="Start a fight")

    def fight_requested(self, state: CampaignState, ids: list[str]) -> list[Item]:
        """The foes picked for ``start_fight``: the fight requested, in this action."""
        known = {o["id"] for o in self.foe_options(state)}
        if not ids or any(i not in known for i in ids):
            raise IllegalAction(f"pick foes from: {', '.join(sorted(known))}")
        return [{"emit": FightRequested(foes=list(ids)).to_dict()}]

    # --- scenes and sessions ----------------------------------------------------------

    def scene_ending(self, state: CampaignState, cleared: list[str]) -> list[ev.Event]:
        """Events before ``SceneEnded``: by default, clear the conditions whose action was taken."""
        out: list[ev.Event] = []
        for cond in cleared:
            if cond in state.hero.conditions:
                out.append(ev.ConditionCleared(
                    who="hero", condition=cond,
                    reason="its clearing action was taken this scene"))
        return out

    def back_in_action(self, state: CampaignState) -> list[Item]:
        """Work when the acting hero comes back after being taken out (Masks: clear one
        condition); by default none."""
        return []

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
            out.append(f"{where}{path}: {describe(err)}")
        return out
    return []


_DUMPS: dict[int, tuple[Any, dict[str, Any]]] = {}


def effect_item(effect: Any, ctx: EffectContext) -> Item:
    """A queue item for an effect model or dict. Content models are frozen, so each one's
    dict form is made once and shared (consumers copy before changing it)."""
    if hasattr(effect, "model_dump"):
        cached = _DUMPS.get(id(effect))
        if cached is None or cached[0] is not effect:
            cached = (effect, effect.model_dump(exclude_none=True))
            _DUMPS[id(effect)] = cached
        return {"effect": cached[1], "ctx": ctx}
    return {"effect": effect, "ctx": ctx}


_PROTECT_WORDS = re.compile(r"\b(protect|shield|cover|defend|guard|save|saving|rescue|keep"
                            r" \w+ safe|safe)\w*", re.I)
_OPPOSE_BEFORE = ("stop", "grab", "against", "oppose", "foil", "thwart", "block", "restrain",
                  "tackle", "hold back", "interfere with", "get in the way of")


def fiction_side(fiction: str, name: str) -> str | None:
    """What the fiction says of a teammate called ``name``: ``oppose_teammate`` when it
    stands against them ("stop Tin", "against Tin", "in Tin's way"), ``protect_teammate``
    when it protects ("shield", "cover", "keep ... safe"), None when it says neither (or
    both)."""
    text = " ".join(fiction.lower().split())
    names = {name.lower(), *name.lower().split()[:1]} - {""}
    oppose = any(f"{w} {n}" in text for w in _OPPOSE_BEFORE for n in names) or any(
        f"{n}'s way" in text or f"{n}’s way" in text for n in names)
    protect = bool(_PROTECT_WORDS.search(text))
    if oppose == protect:
        return None
    return Ruleset.OPPOSE if oppose else Ruleset.PROTECT
