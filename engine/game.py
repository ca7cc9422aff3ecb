"""The Game facade: the one object both front ends (and the tests) drive.

A front end reads ``game.pending`` (what the engine waits for: fiction, a move, a target, a
roll, a choice) and answers it through a method. Each answer is one *action*: it produces
events, ``apply`` writes them to the state, and the store autosaves them. An action that fails
raises and leaves the state exactly as it was. ``undo`` rebuilds the state before the last
action from the log.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from engine.content import schema as s
from engine.content.loader import Pack
from engine.dice import STREAM_VERSION, DiceSpec, Roll, SeededDice, check_faces, entered_die
from engine.errors import IllegalAction
from engine.fight import FightFlow
from engine.flow import MoveFlow
from engine.gm import answers, oracle, scenes
from engine.gm.moves import make_gm_move
from engine.heroes import actor_id, hero_added, hero_problems, new_hero, validate_hero
from engine.odds import percent
from engine.persistence import MemoryStore, Persistence
from engine.preview import RollPreview, dice_for, roll_preview
from engine.prompts import Prompt, pending_prompt
from engine.rules import events as ev
from engine.rules import resolve, threats
from engine.rules.base import CAMPAIGN, Edit, Editable, Item, Step, effect_item, gm_random
from engine.rules.effects import Interpreter, outcome_for
from engine.rules.fight.events import FightRequested
from engine.rules.ledger import MAX_TEXT, Ledger, clean_text, find_entry, ledger_of
from engine.rules.stance import stance_event, stance_of
from engine.rules.state import CampaignState, Flow
from engine.rules.types import AnswerOffer, AnswerSpec, EffectContext
from engine.systems import ruleset_for
from engine.triggers import Matcher, matcher_for, mentions_someone, name_variants, people_named

__all__ = ["CAMPAIGN", "DICE_MODES", "Edit", "Editable", "Game", "MemoryStore", "Persistence",
           "Prompt", "RollPreview", "entered_die", "hero_problems", "validate_hero"]

DICE_MODES = ("seeded", "physical", "mixed")
"""seeded: the campaign rolls; physical: the player enters every roll; mixed: each roll asks
(the player may roll for real or let the campaign roll)."""


class Game(MoveFlow, FightFlow):
    """One campaign in play."""

    def __init__(self, pack: Pack, state: CampaignState, store: Persistence | None = None) -> None:
        if pack.id != state.system:
            raise IllegalAction(f"the campaign is for {state.system!r}, not {pack.id!r}")
        self.pack = pack
        self.state = state
        self.store: Persistence = store or MemoryStore(state.model_dump(mode="json"))
        self.rules = ruleset_for(pack)
        self.interp = Interpreter(pack, self.rules, self._gm, self._offer)
        self._events: list[dict[str, Any]] = []
        self._new_chunk = False
        self._saved: dict[str, Any] = state.model_dump(mode="json")
        self.last_events: list[dict[str, Any]] = []
        self._shown: list[dict[str, Any]] = []

    # ------------------------------------------------------------------ creation

    @classmethod
    def new(
        cls,
        pack: Pack,
        *,
        name: str,
        hero_name: str,
        archetype: str | None = None,
        stats: dict[str, int] | None = None,
        npcs: Sequence[tuple[str, str, str]] = (),
        party: Sequence[dict[str, Any]] = (),
        seed: int | None = None,
        dice_mode: str = "seeded",
        store_factory: Any = None,
        scene_title: str = "Opening scene",
        location: str = "",
        hero_data: dict[str, Any] | None = None,
    ) -> Game:
        """Start a campaign; ``store_factory(meta, state_dict)`` makes its store.

        ``party`` adds more heroes ({"name", "archetype", "stats"}) after the first: the
        player runs them all and switches which one acts. ``hero_data``: the first hero's
        system data (an M&M stat block of its own: ``{"statblock": {...}}``).
        """
        hero_stats = validate_hero(pack, archetype, stats)
        if dice_mode not in DICE_MODES:
            raise IllegalAction(f"dice mode must be one of {', '.join(DICE_MODES)},"
                                f" not {dice_mode!r}")
        extra = [(h.get("name", ""), h.get("archetype"),
                  validate_hero(pack, h.get("archetype"), h.get("stats"))) for h in party]
        hero = new_hero(pack, hero_name, archetype, hero_stats, taken=[])
        if hero_data:
            hero = hero.model_copy(update={"data": dict(hero_data)})
        state = CampaignState(
            system=pack.id,
            name=name.strip() or "Untitled campaign",
            seed=seed if seed is not None else secrets.randbelow(2**31),
            dice_stream=STREAM_VERSION,
            dice_mode=dice_mode,
            actors={hero.id: hero},
            party=[hero.id],
            acting=hero.id,
            pools={t.id: t.start for t in pack.system.tracks if t.scope == "campaign"},
        )
        meta = {"name": state.name, "system": pack.id, "system_name": pack.system.name,
                "hero": hero.name, "scene": "", "seed": state.seed}
        initial = state.model_dump(mode="json")
        store = store_factory(meta, initial) if store_factory else MemoryStore(initial)
        game = cls(pack, state, store)
        with game._action("Campaign begins"):
            game._emit(ev.SessionStarted(number=1))
            for h_name, h_arche, h_stats in extra:
                game._emit(hero_added(pack, new_hero(pack, h_name, h_arche, h_stats,
                                                       taken=list(game.state.actors))))
            for npc_name, role, note in npcs:
                nid = game._add_npc(npc_name, role, note)
                if role == "villain":
                    threat = scenes.threat_for_villain(pack, game.state, nid)
                    if threat is not None:
                        game._emit(threat)
            if not location.strip():
                # the GM sets the opening scene somewhere from the pack's places
                place = scenes.draw(pack, game.state, "locations", "opening")
                location = place.text if place else ""
            game._emit(ev.SceneStarted(number=1, title=scene_title, location=location))
            game._run(game.rules.session_started(game.state) + game.rules.campaign_started(
                game.state))
        return game

    # ------------------------------------------------------------------ actions: plumbing

    @contextmanager
    def _action(self, label: str) -> Iterator[None]:
        """One player action: all its events are applied and saved, or none are.

        The state before an action is always the last one saved, so a failed action rolls
        back by rebuilding from that dump: nothing is copied on the happy path.
        """
        self._events = []
        self._shown = []
        self._new_chunk = False
        try:
            self._emit(ev.ActionStarted(action=self.state.action_no + 1, label=label))
            yield
            events = self._events
            dump = self.state.model_dump(mode="json")
            scene = self.state.scene
            self.store.save(events, dump, {"scene": f"{scene.number}. {scene.title}".strip(),
                                           "hero": ", ".join(h.name for h in
                                                             self.state.heroes)},
                            new_chunk=self._new_chunk)
        except BaseException:
            self.state = CampaignState.model_validate(self._saved)
            self._events = []
            self._shown = []
            raise
        self._saved = dump
        self._events = []
        self.last_events, self._shown = self._shown, []

    def _emit(self, e: ev.Event) -> None:
        e = ev.named(e, self.state.acting)  # an event names its actors by id
        self.rules.registry.apply(self.state, e)
        n, a = self.state.event_no, self.state.action_no
        self._events.append({**e.to_dict(), "n": n, "a": a})  # saved: defaults left out
        # what front ends read: every field, and who was acting (the lines call that hero "you")
        self._shown.append({**e.to_dict(full=True), "n": n, "a": a,
                            "acting_id": self.state.acting})
        if isinstance(e, FightRequested):  # a move's effect starts a fight, in this action
            self._start_requested(e.foes, e.surprised)

    def _gm(self, state: CampaignState, kind: str, ctx: EffectContext) -> Step:
        return make_gm_move(self.pack, state, kind, ctx, self.rules)

    def _offer(self, state: CampaignState, spec: AnswerSpec, ctx: EffectContext
               ) -> AnswerOffer:
        return answers.offer(self.pack, state, spec, ctx)

    def _add_npc(self, name: str, role: str, note: str = "") -> str:
        if role not in self.pack.system.roles:
            raise IllegalAction(
                f"unknown role {role!r}; roles are {', '.join(self.pack.system.roles)}")
        if not name.strip():
            raise IllegalAction("an NPC needs a name")
        if self.state.npc_by_name(name):
            raise IllegalAction(f"there is already an NPC called {name.strip()!r}")
        nid = actor_id(name, list(self.state.actors))
        self._emit(ev.NPCAdded(id=nid, name=name.strip(), role=role, note=note))
        for e in self.rules.npc_added(self.state, nid, role):
            self._emit(e)
        return nid

    # ------------------------------------------------------------------ queries

    @property
    def flow(self) -> Flow:
        """Where the current action stands."""
        return self.state.flow

    @property
    def matcher(self) -> Matcher:
        """The pack's move matcher (built once per loaded pack)."""
        return matcher_for(self.pack)

    def suggest(self, text: str, limit: int = 3, everything: bool = False
                ) -> list[dict[str, Any]]:
        """Moves the fiction suggests, best first (``move`` None: no move, when the fiction
        reads as plain description), each with the words that led to it, the exact odds and
        the character the fiction names or points at (``target``, ``target_name``).

        Only moves usable now, unless ``everything``."""
        st = self.state
        allowed = None if everything else [m.id for m in self.available_moves() if not m.hidden]
        others = [(a.id, a.name) for a in st.actors.values() if a.id != st.acting]
        names = [v for _i, n in others for v in name_variants(n)]
        named = people_named(text, others)
        if not named and mentions_someone(text):
            here = [a.id for a in st.npcs.values() if a.present]
            named = here if len(here) == 1 else []
        out = []
        for sug in self.matcher.suggest(text, allowed, limit, names):
            d = sug.to_dict()
            d["target"] = d["target_name"] = None
            if sug.move is not None:
                move = self.pack.moves[sug.move]
                if move.roll is not None and move.roll.stat != "choice":
                    d["odds"] = self.preview(move.id).odds
                if move.target != "none" and named:
                    ok = {o["id"] for o in self.targets_for(move)}
                    tid = next((n for n in named if n in ok), None)
                    if tid is not None:
                        d["target"], d["target_name"] = tid, st.actors[tid].name
            out.append(d)
        return out

    def modifiers(self, move: s.Move, target: str | None, stat: str | None = None,
                  extras: Sequence[Sequence[Any]] = ()) -> tuple[list[list[Any]], int, int]:
        """Every modifier with its source, the raw sum and the clamped modifier."""
        return resolve.modifiers(self.state, self.pack, self.rules, move, target, stat, extras)

    def preview(self, move_id: str, target: str | None = None, stat: str | None = None
                ) -> RollPreview:
        """The pending (or a hypothetical) roll of ``move_id``, with exact odds per band."""
        return roll_preview(self.state, self.pack, self.rules, self._move(move_id), target,
                            stat)

    def _dice_for(self, move: s.Move) -> DiceSpec:
        return dice_for(self.state, self.pack, self.rules, move)

    @property
    def pending(self) -> Prompt:
        """What the engine waits for now."""
        return pending_prompt(self)

    @property
    def pending_message(self) -> str:
        """The message of what the engine waits for (for refusals)."""
        return self.pending.message

    # ------------------------------------------------------------------ actions: play

    def describe(self, text: str) -> list[dict[str, Any]]:
        """The player says what their hero does; the engine suggests moves."""
        text = text.strip()
        if not text:
            raise IllegalAction("describe what your hero does first")
        self._require_stage("fiction", "move")
        with self._action("fiction"):
            self._emit(ev.Narrated(text=text, by="player"))
            self._set_flow(Flow(stage="move", fiction=text, suggestions=self.suggest(text)))
        return self.last_events

    def choose_move(self, move_id: str | None, target: str | None = None) -> list[dict[str, Any]]:
        """Pick the move the fiction triggers (None: no move, just fiction)."""
        self._require_stage("fiction", "move")
        with self._action("move" if move_id else "no move"):
            if move_id is None:
                self._set_flow(Flow())
                self._quiet_beat()
            else:
                hint = next((x.get("target") for x in self.state.flow.suggestions
                             if x.get("move") == move_id and x.get("target")), None)
                self._begin_move(self._move(move_id), target, self.state.flow.fiction, [],
                                 hint if isinstance(hint, str) else None)
        return self.last_events

    def trigger(self, move_id: str, target: str | None = None, fiction: str = ""
                ) -> list[dict[str, Any]]:
        """Fiction and move in one action (the move list, scripts, the command palette)."""
        self._require_stage("fiction", "move")
        move = self._move(move_id)
        with self._action(f"move {move.id}"):
            if fiction.strip():
                self._emit(ev.Narrated(text=fiction.strip(), by="player"))
            self._begin_move(move, target, fiction, [])
        return self.last_events

    def choose_target(self, target: str) -> list[dict[str, Any]]:
        """Name the move's target (an NPC id or name)."""
        self._require_stage("target")
        f = self.state.flow
        move = self._move(f.move or "")
        if self._no_target(move, target):
            with self._action("no target"):
                self._start(move, None, f.fiction, list(f.queue))
            return self.last_events
        with self._action("target"):
            self._start(move, self._resolve_target(move, target), f.fiction, list(f.queue))
        return self.last_events

    def pre_roll(self, option: str) -> list[dict[str, Any]]:
        """Before the roll: take one of the ruleset's pre-roll options (Masks: spend 1 Team for
        +1); its modifier joins the roll and the odds update."""
        self._require_stage("roll")
        f = self.state.flow
        move = self._move(f.move or "")
        events, modifier, label = self.rules.pre_roll(self.state, move, option)
        with self._action(label):
            for e in events:
                self._emit(e)
            if modifier is not None:
                self._set_flow(f.model_copy(update={"extras": [*f.extras, modifier]}))
        return self.last_events

    def spend_team(self) -> list[dict[str, Any]]:
        """Masks: spend 1 Team before the roll for +1 (the ``team`` pre-roll option)."""
        return self.pre_roll("team")

    def set_roll_options(self, stat: str | None = None, advantage: str | None = None,
                         params: dict[str, int] | None = None) -> list[dict[str, Any]]:
        """Before the roll: choose the stat (when the move offers a choice), advantage, or
        the roll's parameters (such as a complexity)."""
        self._require_stage("roll")
        f = self.state.flow
        move = self._move(f.move or "")
        assert move.roll is not None
        if stat is not None and stat not in (move.roll.choices or [move.roll.stat]):
            offered = move.roll.choices or [move.roll.stat]
            raise IllegalAction(f"{move.name} rolls with {' or '.join(map(str, offered))},"
                                f" not {stat!r}")
        if advantage not in (None, "none", "advantage", "disadvantage"):
            raise IllegalAction(f"advantage must be none, advantage or disadvantage,"
                                f" not {advantage!r}")
        if advantage not in (None, "none") and move.roll.advantage == "none":
            raise IllegalAction(f"{move.name} cannot be rolled with {advantage}")
        known = {p.id: p for p in move.roll.params}
        for k, v in (params or {}).items():
            if k not in known:
                raise IllegalAction(f"{move.name} has no parameter {k!r}"
                                    f" (parameters: {', '.join(known) or 'none'})")
            if not isinstance(v, int) or not known[k].min <= v <= known[k].max:
                raise IllegalAction(f"{known[k].name} must be a whole number from"
                                    f" {known[k].min} to {known[k].max}, not {v!r}")
        with self._action("roll options"):
            upd: dict[str, Any] = {}
            if params:
                upd["params"] = {**f.params, **params}
            if stat is not None:
                upd["stat"] = stat
            if advantage is not None:
                upd["advantage"] = None if advantage == "none" else advantage
            self._set_flow(f.model_copy(update=upd))
        return self.last_events

    def declare(self, declaration: str, on: bool = True) -> list[dict[str, Any]]:
        """Before the roll: declare (or withdraw) something the ruleset offers."""
        self._require_stage("roll")
        f = self.state.flow
        move = self._move(f.move or "")
        offered = {d.id for d in self.rules.declarations(self.state, move)}
        if on and declaration not in offered:
            raise IllegalAction(self.rules.declaration_refused(self.state, move, declaration))
        if not on and declaration not in f.declared:
            raise IllegalAction(f"{self.rules.declaration_name(self.state, move, declaration)}"
                                " is not declared, so there is nothing to withdraw")
        declared = [d for d in f.declared if d != declaration] + ([declaration] if on else [])
        with self._action("declare"):
            self._set_flow(f.model_copy(update={"declared": declared}))
        return self.last_events

    def set_declarations(self, declarations: Sequence[str]) -> list[dict[str, Any]]:
        """Before the roll: declare exactly these (withdrawing the others) in one action; if
        any is refused, nothing changes."""
        self._require_stage("roll")
        f = self.state.flow
        move = self._move(f.move or "")
        wanted = list(dict.fromkeys(str(d) for d in declarations))
        if wanted == list(f.declared):
            return []
        with self._action("declare"):
            kept = [d for d in f.declared if d in wanted]
            self._set_flow(f.model_copy(update={"declared": kept}))
            for d in wanted:
                if d in kept:
                    continue
                if d not in {x.id for x in self.rules.declarations(self.state, move)}:
                    raise IllegalAction(self.rules.declaration_refused(self.state, move, d))
                now = self.state.flow
                self._set_flow(now.model_copy(update={"declared": [*now.declared, d]}))
        return self.last_events

    def roll(self, faces: Sequence[int] | None = None) -> list[dict[str, Any]]:
        """Roll the pending move: seeded dice, or the faces of the player's physical dice."""
        self._require_stage("roll")
        f = self.state.flow
        move = self._move(f.move or "")
        assert move.roll is not None
        if move.roll.stat == "choice" and not f.stat:
            raise IllegalAction(f"{move.name}: choose which stat to roll first"
                                f" ({', '.join(move.roll.choices)})")
        if faces is None and self.state.dice_mode == "physical":
            raise IllegalAction("this campaign uses physical dice: enter the faces you rolled")
        dice = self._dice_for(move)
        if faces is not None:
            result = Roll.of(dice, check_faces(dice, list(faces)), entered=True)
            position = self.state.dice_position
        else:
            source = SeededDice(self.state.seed, self.state.dice_position,
                                self.state.dice_stream)
            result = source.roll(dice)
            position = source.position
        with self._action("roll"):
            stat = f.stat if f.stat else None
            if stat is None and move.roll.stat == "choice":
                stat = move.roll.choices[0]
            rolled = resolve.resolve(self.state, self.pack, self.rules, move, f.target, result,
                                     position, stat, f.extras)
            band = rolled.band
            self._emit(rolled)
            roll_d = resolve.roll_dict(rolled)
            adjust = self.rules.adjustments(self.state, move, roll_d)
            if adjust:
                self._set_flow(f.model_copy(update={"stage": "adjust", "roll": roll_d}))
            else:
                self._outcome(move, band, f.target, list(f.queue), roll_d)
        return self.last_events

    def adjust(self, adjustment: str | None = None) -> list[dict[str, Any]]:
        """After the roll: take an adjustment by id, or keep the result (None or "keep")."""
        self._require_stage("adjust")
        f = self.state.flow
        move = self._move(f.move or "")
        assert f.roll is not None
        with self._action("adjust" if adjustment not in (None, "keep") else "keep result"):
            if adjustment in (None, "keep"):
                self._outcome(move, f.roll["band"], f.target, list(f.queue), f.roll)
            else:
                self._adjust(move, f, str(adjustment))
        return self.last_events

    def choose(self, ids: Sequence[str]) -> list[dict[str, Any]]:
        """Answer the open choice (choose N, pick one, questions to ask)."""
        self._require_stage("effects")
        f = self.state.flow
        assert f.prompt is not None
        prompt = f.prompt
        ids = [str(i) for i in ids]
        valid = {o["id"] for o in prompt["options"]}
        bad = [i for i in ids if i not in valid]
        if bad:
            raise IllegalAction(f"{', '.join(map(repr, bad))} is not an option here (options:"
                                f" {', '.join(o['id'] for o in prompt['options'])})")
        for o in prompt["options"]:
            if o["id"] in ids and o.get("disabled"):
                raise IllegalAction(f"{o['label']!r} cannot be chosen now: {o['disabled']}")
        item = prompt["item"]
        repeat = False
        if "choose" in item:
            move = self.pack.moves[item["choose"]["move"]]
            ch = outcome_for(move, item["choose"]["key"]).choose
            repeat = bool(ch and ch.repeat)
        if not repeat and len(set(ids)) != len(ids):
            raise IllegalAction("each option can be picked only once")
        lo, hi = prompt["min"], prompt["max"]
        if not lo <= len(ids) <= hi:
            want = f"exactly {lo}" if lo == hi else f"{lo} to {hi}"
            raise IllegalAction(f"pick {want} (you picked {len(ids)})")
        with self._action("choose"):
            replacement = self.interp.answer(self.state, item, ids)
            self._run(replacement + list(f.queue[1:]))
        return self.last_events

    # ------------------------------------------------------------------ the GM answers

    def answer_text(self, text: str) -> list[dict[str, Any]]:
        """Answer the pending question in your own words, instead of the GM's offer.

        The ``answer`` prompt (a question a move let you ask) takes ``choose(["accept"])``
        (the GM's offer, shown with how it was drawn), ``choose(["another"])`` (a new draw) or
        this; the answer is journaled (``QuestionAnswered``) and recorded as a fact."""
        self._require_stage("effects")
        f = self.state.flow
        assert f.prompt is not None
        if f.prompt.get("kind") != "answer":
            raise IllegalAction(f"no question is waiting for an answer: {self.pending_message}")
        with self._action("own answer"):
            replacement = self.interp.answer_own(self.state, f.prompt["item"], text)
            self._run(replacement + list(f.queue[1:]))
        return self.last_events

    def gm_set_params(self) -> list[dict[str, Any]]:
        """Before the roll: "GM, you choose" for the roll's parameters the player would set
        standing in for the GM (City of Whispers: a working's complexity): the GM picks each
        (seeded), says so, and the odds update."""
        self._require_stage("roll")
        f = self.state.flow
        move = self._move(f.move or "")
        if move.roll is None or not move.roll.params:
            raise IllegalAction(f"{move.name} has nothing for the"
                                f" {self.pack.system.gm_title} to set")
        rng = gm_random(self.state, f"gm_params:{move.id}")
        picked = {p.id: rng.randint(p.min, p.max) for p in move.roll.params}
        gm = self.pack.system.gm_title
        said = ", ".join(f"{p.name} {picked[p.id]}" for p in move.roll.params)
        with self._action("GM sets the roll"):
            self._emit(ev.Narrated(text=f"{gm}, you choose: the {gm} sets {said}", by="engine"))
            self._set_flow(f.model_copy(update={"params": {**f.params, **picked}}))
        return self.last_events

    # ------------------------------------------------------------------ actions: table talk

    def add_npc(self, name: str, role: str, note: str = "") -> list[dict[str, Any]]:
        """Bring an NPC into the campaign (and the scene)."""
        with self._action("add NPC"):
            self._add_npc(name, role, note)
        return self.last_events

    def add_hero(self, name: str, archetype: str | None = None,
                 stats: dict[str, int] | None = None) -> list[dict[str, Any]]:
        """Another hero joins the party (the player runs them too)."""
        self._require_stage("fiction")
        hero_stats = validate_hero(self.pack, archetype, stats)
        hero = new_hero(self.pack, name, archetype, hero_stats, taken=list(self.state.actors))
        with self._action(f"{hero.name} joins the party"):
            self._emit(hero_added(self.pack, hero))
        return self.last_events

    def switch_hero(self, hero: str) -> list[dict[str, Any]]:
        """Hand the spotlight to another hero of the party: the next moves are theirs."""
        self._require_stage("fiction")
        st = self.state
        found = st.actor_by_name(hero, kinds=("hero",)) or (
            st.actors.get(hero) if hero in st.party else None)
        if found is None:
            names = ", ".join(h.name for h in st.heroes)
            raise IllegalAction(f"no hero called {hero!r} in the party ({names})")
        if found.id == st.acting:
            raise IllegalAction(f"{found.name} is already acting")
        with self._action(f"{found.name} takes the spotlight"):
            self._emit(ev.HeroSwitched(hero=found.id, was=st.acting))
        return self.last_events

    def set_presence(self, npc: str, present: bool) -> list[dict[str, Any]]:
        """An NPC enters or leaves the scene."""
        found = self.state.npc_by_name(npc) or self.state.npcs.get(npc)
        if found is None:
            raise IllegalAction(f"no NPC called {npc!r}")
        with self._action("presence"):
            self._emit(ev.NPCPresence(npc=found.id, present=present))
        return self.last_events

    def stance(self, npc: str, hero: str | None = None) -> str:
        """How ``npc`` stands toward ``hero`` (a name or id; None: the acting hero)."""
        found = self.state.npc_by_name(npc) or self.state.npcs.get(npc)
        if found is None:
            raise IllegalAction(f"no NPC called {npc!r}")
        return stance_of(self.pack, self.state, found.id, self._hero_id(hero))

    def set_stance(self, npc: str, stance: str, hero: str | None = None, reason: str = ""
                   ) -> list[dict[str, Any]]:
        """Set how ``npc`` stands toward ``hero`` (None: the acting hero): hostile, wary,
        neutral, warm or devoted. One undoable action; nothing happens if it is already so."""
        found = self.state.npc_by_name(npc) or self.state.npcs.get(npc)
        if found is None:
            raise IllegalAction(f"no NPC called {npc!r}")
        with self._action("stance"):
            e = stance_event(self.pack, self.state, found.id, stance, hero=self._hero_id(hero),
                             reason=reason.strip() or "set by hand")
            if e is not None:
                self._emit(e)
        return self.last_events

    def _hero_id(self, hero: str | None) -> str:
        if hero is None:
            return "hero"
        found = self.state.actor_by_name(hero, kinds=("hero",))
        if found is None:
            names = ", ".join(h.name for h in self.state.heroes)
            raise IllegalAction(f"no hero called {hero!r} (heroes: {names})")
        return found.id

    def set_dice_mode(self, mode: str) -> list[dict[str, Any]]:
        """Switch the campaign's dice: seeded, physical or mixed (saved, and undone by undo)."""
        if mode not in DICE_MODES:
            raise IllegalAction(f"dice mode must be one of {', '.join(DICE_MODES)},"
                                f" not {mode!r}")
        if mode == self.state.dice_mode:
            raise IllegalAction(f"the campaign already uses {mode} dice")
        with self._action("dice mode"):
            self._emit(ev.DiceModeChanged(mode=mode, was=self.state.dice_mode))
        return self.last_events

    def took_clearing_action(self, condition: str) -> list[dict[str, Any]]:
        """The hero took a condition's clearing action: the condition clears now."""
        cdef = self.pack.conditions.get(condition)
        if cdef is None:
            raise IllegalAction(f"unknown condition {condition!r}")
        if condition not in self.state.hero.conditions:
            raise IllegalAction(f"{self.state.hero.name} is not {cdef.name}: there is nothing"
                                " to clear")
        with self._action("clearing action"):
            self._emit(ev.ConditionCleared(who="hero", condition=condition,
                                           reason="its clearing action was taken"))
        return self.last_events

    def end_scene(self, cleared: Sequence[str] = ()) -> list[dict[str, Any]]:
        """Close the scene; conditions whose clearing action was taken clear."""
        self._require_stage("fiction", "move")
        if not self.state.scene.open:
            raise IllegalAction("no scene is open")
        for c in cleared:
            if c not in self.pack.conditions:
                raise IllegalAction(f"unknown condition {c!r}")
        with self._action("end scene"):
            self._end_scene(list(cleared))
        return self.last_events

    def _end_scene(self, cleared: list[str]) -> None:
        both = list(dict.fromkeys([*self.state.scene.clearing, *cleared]))
        for e in self.rules.scene_ending(self.state, both):
            self._emit(e)
        pushes: list[Item] = []
        for step in scenes.scene_end_steps(self.pack, self.state):
            for e in step.events:
                self._emit(e)
            pushes += step.push
        self._emit(ev.SceneEnded(number=self.state.scene.number))
        self._run(pushes)
        self._set_flow(Flow())

    def start_scene(self, title: str = "", location: str = "", stakes: str = "",
                    present: Sequence[str] = (), opening: str = "") -> list[dict[str, Any]]:
        """Open the next scene (ending the current one first, with no clearing)."""
        self._require_stage("fiction", "move")
        ids = []
        for p in present:
            npc = self.state.npc_by_name(p) or self.state.npcs.get(p)
            if npc is None:
                raise IllegalAction(f"no NPC called {p!r}")
            ids.append(npc.id)
        with self._action("new scene"):
            n = self.state.scene.number + 1
            if self.state.scene.open and self.state.scene.beats == 0:
                n -= 1  # nothing happened in the open scene yet: frame it anew
            elif self.state.scene.open:
                self._end_scene([])
            self._new_chunk = True
            if not self.state.data.get("session_open", True):
                self._start_session_events()
            self._emit(ev.SceneStarted(number=n, title=title.strip() or f"Scene {n}",
                                       location=location.strip(), stakes=stakes.strip(),
                                       present=ids))
            if opening.strip():
                self._emit(ev.Narrated(text=opening.strip(), by="gm"))
            items: list[Item] = []
            if self.state.hero.taken_out:
                self._emit(ev.TakenOut(out=False, reason="you are back in the action"))
            self._run(items)
        return self.last_events

    def _start_session_events(self) -> None:
        self._emit(ev.SessionStarted(number=self.state.session + 1))
        self._emit(ev.DataSet(scope="campaign", key="session_open", value=None))
        self._run(self.rules.session_started(self.state))

    def end_session(self) -> list[dict[str, Any]]:
        """The end-of-session move, then the session closes."""
        self._require_stage("fiction", "move")
        end_move = self.pack.system.session.end_move
        with self._action("end session"):
            if self.state.scene.open:
                self._end_scene([])
            rest: list[Item] = [{"emit": ev.SessionEnded(number=self.state.session).to_dict()},
                                {"emit": ev.DataSet(scope="campaign", key="session_open",
                                                    value=False).to_dict()}]
            if end_move:
                self._begin_move(self._move(end_move), None, "", rest)
            else:
                self._run(rest)
        return self.last_events

    def ask_gm(self) -> list[dict[str, Any]]:
        """The player looks to the GM: "what happens next?" (a soft move)."""
        self._require_stage("fiction", "move")
        with self._action("ask the GM"):
            self._run([effect_item({"type": "gm_move", "kind": "soft"},
                                   {"source": "you looked to the GM"})])
        return self.last_events

    def narrate(self, text: str) -> list[dict[str, Any]]:
        """Plain fiction with no move (the player's or a scene note)."""
        if not text.strip():
            raise IllegalAction("nothing to narrate")
        self._require_stage("fiction", "move")
        with self._action("fiction"):
            self._emit(ev.Narrated(text=text.strip(), by="player"))
            self._set_flow(Flow())
            self._quiet_beat()
        return self.last_events

    STALL_BEATS = 3
    """Fiction beats in a row with no move before the GM nudges the scene (a soft move)."""

    def _quiet_beat(self) -> None:
        if self.fighting:  # a fight is not a stalled scene: its fiction lines are not beats
            return
        count = self.state.scene.quiet + 1
        self._emit(ev.QuietBeat(count=count))
        if count >= self.STALL_BEATS and self.pack.gm_moves:
            self._run([effect_item({"type": "gm_move", "kind": "soft"},
                                   {"source": "the scene stalled"})])

    # ------------------------------------------------------------------ the GM's tools

    def oracle_levels(self) -> list[dict[str, Any]]:
        """The likelihoods the oracle takes, each with the exact odds at the current tension."""
        out = []
        for lv in oracle.levels(self.pack):
            odds = oracle.probabilities(lv.chance, self.state.tension)
            out.append({"id": lv.id, "name": lv.name, "chance": lv.chance,
                        "odds": {k: percent(v) for k, v in odds.items()}})
        return out

    def ask_oracle(self, question: str, likelihood: str = "even",
                   roll: int | str | Sequence[int] | None = None) -> list[dict[str, Any]]:
        """Ask a yes/no question at a likelihood; a d100 answers (yours if ``roll`` is given:
        a number, its text or a one-face list, checked like any entered dice)."""
        self._require_stage("fiction", "move")
        try:
            lv = oracle.level(self.pack, likelihood)
        except KeyError:
            raise IllegalAction(f"unknown likelihood {likelihood!r}; choose one of"
                                f" {', '.join(x.id for x in oracle.levels(self.pack))}") from None
        if roll is not None:
            roll = entered_die(roll, 100)
        if roll is None and self.state.dice_mode == "physical":
            raise IllegalAction("this campaign uses physical dice: enter your d100 roll")
        position = self.state.dice_position
        entered = roll is not None
        if roll is None:
            source = SeededDice(self.state.seed, position, self.state.dice_stream)
            roll = source.roll(DiceSpec(1, 100)).total
            position = source.position
        tension = self.state.tension
        reading = oracle.read(roll, lv.chance, tension)
        odds = {k: percent(v) for k, v in oracle.probabilities(lv.chance, tension).items()}
        with self._action("oracle"):
            self._emit(ev.OracleAnswered(
                question=question.strip() or "(unspoken question)", level=lv.name,
                chance=lv.chance, roll=roll, answer=reading.answer,
                exceptional=reading.exceptional, twist=reading.event, tension=tension,
                odds=odds, entered=entered, position=position))
            if reading.event:
                step = scenes.random_event(self.pack, self.state, f"oracle:{roll}")
                for e in step.events:
                    self._emit(e)
                self._run(step.push)
        return self.last_events

    def propose_scene(self, reroll: int = 0, place: int | str | Sequence[int] | None = None
                      ) -> dict[str, Any]:
        """The GM's proposal for the next scene (a query; ``reroll`` asks for another);
        ``place`` is your own roll on the table of places, d<its total weight>."""
        roll = None
        if place is not None and not (isinstance(place, str) and not place.strip()):
            table = self.pack.tables.get("locations")
            if table is None:
                raise IllegalAction(f"{self.pack.system.name} has no table of places to roll on")
            roll = entered_die(place, scenes.table_sides(table))
        proposal = scenes.propose_scene(self.pack, self.state, reroll, roll)
        if roll is not None:
            proposal["place_roll"] = roll
        return proposal

    def place_die(self) -> int | None:
        """The die of the table of places (None if the pack has none), for rolling by hand."""
        table = self.pack.tables.get("locations")
        return scenes.table_sides(table) if table is not None else None

    def tables(self) -> list[dict[str, Any]]:
        """The pack's tables, each with the die that reads it by hand (d<total weight>)."""
        return [{"id": t.id, "name": t.name, "sides": scenes.table_sides(t),
                 "entries": len(t.entries)} for t in self.pack.tables.values()]

    def roll_table(self, table: str, roll: int | str | Sequence[int] | None = None
                   ) -> list[dict[str, Any]]:
        """Draw from one of the GM's tables: the GM picks (seeded), or ``roll`` is your own
        roll of d<total weight> (required with physical dice); the entry's effects apply."""
        self._require_stage("fiction", "move")
        tdef = self.pack.tables.get(table)
        if tdef is None:
            raise IllegalAction(f"no table {table!r}; tables:"
                                f" {', '.join(self.pack.tables) or 'none'}")
        sides = scenes.table_sides(tdef)
        if roll is not None and sides > 1:
            roll = entered_die(roll, sides)
        elif roll is None and sides > 1 and self.state.dice_mode == "physical":
            raise IllegalAction(f"this campaign uses physical dice: roll a d{sides} for"
                                f" {tdef.name}")
        entered = roll is not None and sides > 1
        if entered:
            assert isinstance(roll, int)
            entry = scenes.entry_for_roll(tdef, roll)
        else:  # the GM's own weighted draw, as for every other table it reads
            drawn = scenes.draw(self.pack, self.state, table, "hand")
            assert drawn is not None
            entry = drawn
        how = f"your d{sides}: {roll}" if entered else f"the {self.pack.system.gm_title}'s pick"
        with self._action("table"):
            self._emit(ev.Narrated(text=f"{tdef.name} ({how}): {entry.text}", by="gm"))
            self._run([effect_item(e, {"source": tdef.name}) for e in entry.effects])
        return self.last_events

    def add_threat(self, template: str, name: str = "", npc: str | None = None
                   ) -> list[dict[str, Any]]:
        """Bring a threat from the pack's templates into play, tied to an NPC if given."""
        tdef = next((t for t in self.pack.gm.threats if t.id == template), None)
        if tdef is None:
            raise IllegalAction(f"unknown threat {template!r}; templates:"
                                f" {', '.join(t.id for t in self.pack.gm.threats) or 'none'}")
        nid = None
        if npc:
            found = self.state.npc_by_name(npc) or self.state.npcs.get(npc)
            if found is None:
                raise IllegalAction(f"no NPC called {npc!r}")
            nid = found.id
        with self._action("add threat"):
            self._emit(threats.threat_event(tdef, self.state, name.strip() or None, nid))
        return self.last_events

    def advance_threat(self, threat: str, delta: int = 1) -> list[dict[str, Any]]:
        """Move a threat's clock by hand (the doom strikes when it fills)."""
        t = self.state.threats.get(threat)
        if t is None:
            raise IllegalAction(f"no threat {threat!r}; threats: {', '.join(self.state.threats)}")
        if not t.active:
            raise IllegalAction(f"{t.name} is no longer active")
        with self._action("advance threat"):
            step = threats.advance_threat(self.pack, self.state, t, delta, "by hand")
            for e in step.events:
                self._emit(e)
            self._run(step.push)
        return self.last_events

    # ------------------------------------------------------------------ the story ledger
    # Threads, facts and whereabouts: each change one undoable action (a ``LedgerChanged``
    # event, journaled), allowed at any stage. Threads and facts are named by id (t1, f2) or
    # by their words. ``ledger()`` reads it all for a front end.

    def ledger(self) -> Ledger:
        """The story ledger: threads (open and resolved), characters (present, whereabouts),
        facts and threats with their clocks, as typed entries (engine/rules/ledger.py)."""
        return ledger_of(self.state)

    def _ledger(self, label: str, e: ev.LedgerChanged) -> list[dict[str, Any]]:
        with self._action(label):
            self._emit(e)
        return self.last_events

    def add_thread(self, text: str, note: str = "", source: str = "by hand"
                   ) -> list[dict[str, Any]]:
        """Open a story thread the GM can draw on (refused when the same one is open)."""
        words = clean_text(text, "thread")
        if any(" ".join(t.text.lower().split()) == words.lower()
               for t in self.state.open_threads):
            raise IllegalAction(f"the thread {words!r} is already open")
        return self._ledger("add thread", ev.LedgerChanged(
            kind="thread", op="open", id=self.state.next_ledger_id("t"), text=words,
            source=source, note=note.strip()))

    def resolve_thread(self, thread: str) -> list[dict[str, Any]]:
        """Close an open thread (by id or words)."""
        t = find_entry(self.state.open_threads, thread, "open thread")
        return self._ledger("resolve thread", ev.LedgerChanged(
            kind="thread", op="resolve", id=t.id, text=t.text))

    def reopen_thread(self, thread: str) -> list[dict[str, Any]]:
        """Open a resolved thread again (by id or words)."""
        done = [t for t in self.state.threads if t.status == "resolved"]
        t = find_entry(done, thread, "resolved thread")
        return self._ledger("reopen thread", ev.LedgerChanged(
            kind="thread", op="reopen", id=t.id, text=t.text))

    def edit_thread(self, thread: str, text: str | None = None, note: str | None = None
                    ) -> list[dict[str, Any]]:
        """Reword a thread and/or its note (``None``: unchanged)."""
        t = find_entry(self.state.threads, thread, "thread")
        words = t.text if text is None else clean_text(text, "thread")
        new_note = t.note if note is None else note.strip()
        if words == t.text and new_note == t.note:
            raise IllegalAction(f"thread {t.id} already reads so")
        return self._ledger("edit thread", ev.LedgerChanged(
            kind="thread", op="edit", id=t.id, text=words, was=t.text, note=new_note))

    def remove_thread(self, thread: str) -> list[dict[str, Any]]:
        """Strike a thread from the ledger (open or resolved), as if it never was."""
        t = find_entry(self.state.threads, thread, "thread")
        return self._ledger("remove thread", ev.LedgerChanged(
            kind="thread", op="remove", id=t.id, was=t.text))

    def _about(self, about: Sequence[str]) -> list[str]:
        out: list[str] = []
        for who in about:
            found = (self.state.actor_by_name(who) or self.state.actors.get(who)
                     or (self.state.hero if who == "hero" else None))
            if found is None:
                raise IllegalAction(f"no character called {who!r}")
            if found.id not in out:
                out.append(found.id)
        return out

    def add_fact(self, text: str, about: Sequence[str] = (), source: str = "by hand"
                 ) -> list[dict[str, Any]]:
        """Record an established fact, about some characters (names or ids)."""
        words = clean_text(text, "fact")
        return self._ledger("add fact", ev.LedgerChanged(
            kind="fact", op="record", id=self.state.next_ledger_id("f"), text=words,
            source=source, about=self._about(about)))

    def edit_fact(self, fact: str, text: str | None = None,
                  about: Sequence[str] | None = None) -> list[dict[str, Any]]:
        """Reword a fact and/or whom it is about (``None``: unchanged)."""
        f = find_entry(self.state.facts, fact, "fact")
        words = f.text if text is None else clean_text(text, "fact")
        who = list(f.about) if about is None else self._about(about)
        if words == f.text and who == f.about:
            raise IllegalAction(f"fact {f.id} already reads so")
        return self._ledger("edit fact", ev.LedgerChanged(
            kind="fact", op="edit", id=f.id, text=words, was=f.text, about=who))

    def remove_fact(self, fact: str) -> list[dict[str, Any]]:
        """Strike a fact from the ledger."""
        f = find_entry(self.state.facts, fact, "fact")
        return self._ledger("remove fact", ev.LedgerChanged(
            kind="fact", op="remove", id=f.id, was=f.text))

    def set_whereabouts(self, npc: str, where: str) -> list[dict[str, Any]]:
        """Note where an NPC (name or id) was last known to be ("" forgets it)."""
        found = self.state.npc_by_name(npc) or self.state.npcs.get(npc)
        if found is None:
            raise IllegalAction(f"no NPC called {npc!r}")
        place = " ".join(where.split())
        if len(place) > MAX_TEXT:
            raise IllegalAction(f"whereabouts are at most {MAX_TEXT} characters")
        if place == found.where:
            raise IllegalAction(f"{found.name}'s whereabouts already read {place!r}"
                                if place else f"{found.name}'s whereabouts are unknown already")
        return self._ledger("whereabouts", ev.LedgerChanged(
            kind="where", op="set", id=found.id, text=place, was=found.where))

    # ------------------------------------------------------------------ the sheet by hand

    def edit_subjects(self) -> list[tuple[str, str]]:
        """Whose values can be edited, as (id, name): the heroes, the NPCs, then the campaign
        (``CAMPAIGN``: pools and clocks) when it has any."""
        st = self.state
        out = [(a.id, a.name) for a in st.heroes]
        out += [(a.id, a.name) for a in st.actors.values() if a.kind == "npc"]
        if self.rules.editable(st, CAMPAIGN):
            out.append((CAMPAIGN, "The campaign"))
        return out

    def editable(self, who: str = "hero") -> list[Editable]:
        """What can be set by hand on ``who`` (an actor's id or name, "hero" for the acting
        hero, or ``CAMPAIGN``), with the current values and the bounds."""
        return self.rules.editable(self.state, self._edit_subject(who))

    def edit(self, who: str, what: str, key: str, value: int | bool, reason: str = ""
             ) -> list[dict[str, Any]]:
        """Correct the sheet by hand, as a GM would rule at the table: mark or clear a
        condition (``value`` True/False), set a stat, a track, a pool, a clock, or what the
        ruleset adds (Masks: Influence). One undoable action, journaled as an edit; between
        moves only."""
        return self.edit_many([Edit(who, what, key, value)], reason)

    def edit_many(self, edits: Sequence[Edit], reason: str = "") -> list[dict[str, Any]]:
        """Several edits as one action (one undo): all of them, or none if one is refused."""
        self._require_stage("fiction")
        if not edits:
            raise IllegalAction("nothing to edit")
        with self._action("edit"):
            for e in edits:
                self._emit(self._edited(e, reason.strip()))
        return self.last_events

    def _edit_subject(self, who: str) -> str:
        """The id ``who`` names for an edit; IllegalAction naming who can be edited."""
        st = self.state
        if who == CAMPAIGN:
            return CAMPAIGN
        if who == "hero":
            return st.acting
        if who in st.actors:
            return who
        found = st.actor_by_name(who)
        if found is not None:
            return found.id
        names = ", ".join(f"{name} ({sid})" for sid, name in self.edit_subjects())
        raise IllegalAction(f"no character {who!r} to edit; you can edit: {names}")

    def _edited(self, e: Edit, reason: str) -> ev.Edited:
        """The event for one edit, checked against what the ruleset lets be edited."""
        who = self._edit_subject(e.who)
        owner = "" if who == CAMPAIGN else self.state.actors[who].name
        fields = self.rules.editable(self.state, who)
        kinds = list(dict.fromkeys(f.what for f in fields))
        if e.what not in kinds:
            raise IllegalAction(f"{owner or 'the campaign'} has no {e.what!r} to edit; you can"
                                f" edit: {', '.join(kinds) or 'nothing'}")
        same = [f for f in fields if f.what == e.what]
        field = next((f for f in same if f.key == e.key), None)
        if field is None:
            raise IllegalAction(f"unknown {e.what} {e.key!r} for {owner or 'the campaign'};"
                                f" {e.what}s: {', '.join(f.key for f in same)}")
        value = e.value
        label = f"{owner}: {field.name}" if owner else field.name
        if field.flag:
            if not isinstance(value, bool):
                raise IllegalAction(f"{label} is marked or not: the value is true or false,"
                                    f" not {value!r}")
        elif (isinstance(value, bool) or not isinstance(value, int) or value < field.min
              or (field.max is not None and value > field.max)):
            raise IllegalAction(f"{label} must be {field.bounds()}, not {value!r}")
        if value == field.value:
            raise IllegalAction(f"{label} is already {field.shown(value)}")
        if field.flag:
            text = f"{label} {field.shown(value)}"
        else:
            text = f"{label} {field.shown(field.value)} → {field.shown(value)}"
        return ev.Edited(who=who, what=e.what, key=e.key, value=value, was=field.value,
                         text=text, reason=reason)

    # ------------------------------------------------------------------ undo and answers

    def undo(self) -> list[dict[str, Any]]:
        """Undo the last action: the state becomes exactly what it was before it."""
        a = self.state.action_no
        if a <= 1:
            raise IllegalAction("nothing to undo: the campaign has just begun")
        base, events = self.store.base_and_events_for_action(a)
        state = CampaignState.model_validate(base)
        registry = self.rules.registry
        for d in events:
            registry.apply(state, registry.decode(d))
        dump = state.model_dump(mode="json")
        self.store.truncate_from_action(a, dump)
        self.state = state
        self._saved = dump
        self.last_events = []
        return []

    def answer(self, value: Any) -> list[dict[str, Any]]:
        """Answer whatever is pending (the scripted mode's entry point)."""
        stage = self.state.flow.stage
        if stage == "fiction":
            return self.describe(str(value))
        if stage == "move":
            return self.choose_move(None if value in (None, "", "none") else str(value))
        if stage == "target":
            return self.choose_target(str(value))
        if stage == "roll":
            return self.roll(None if value in (None, "roll") else list(value))
        if stage == "adjust":
            return self.adjust(None if value is None else str(value))
        if (self.pending.kind == "answer" and isinstance(value, str)
                and value not in ("accept", "another")):
            return self.answer_text(value)
        ids = [value] if isinstance(value, str | int) else list(value)
        return self.choose([str(i) for i in ids])


