"""The Game facade: the one object both front ends (and the tests) drive.

A front end reads ``game.pending`` (what the engine waits for: fiction, a move, a target, a
roll, a choice) and answers it through a method. Each answer is one *action*: it produces
events, ``apply`` writes them to the state, and the store autosaves them. An action that fails
raises and leaves the state exactly as it was. ``undo`` rebuilds the state before the last
action from the log.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import replace
from typing import Any

from engine.content import schema as s
from engine.content.loader import Pack
from engine.dice import STREAM_VERSION, DiceSpec, Roll, SeededDice, check_faces, entered_die
from engine.errors import IllegalAction
from engine.fight import Fights, starts_fight
from engine.flow import Moves
from engine.game.aliases import FlatNames
from engine.game.edits import HandEdits
from engine.game.gm_tools import GMTools
from engine.game.ledger import StoryLedger
from engine.game.party import Party
from engine.game.transaction import Transaction
from engine.gm import answers, framing, scenes
from engine.gm.moves import make_gm_move
from engine.heroes import HeroSeat, actor_id, hero_added, hero_problems, new_hero, validate_hero
from engine.nlp.beat import Beat, read_beat
from engine.persistence import MemoryStore, Persistence
from engine.preview import RollPreview, dice_for, roll_preview
from engine.prompts import Prompt, Suggestion, pending_prompt
from engine.rules import events as ev
from engine.rules import resolve
from engine.rules.base import CAMPAIGN, Edit, Editable, Item, Step, effect_item, gm_random
from engine.rules.effects import Interpreter, outcome_for
from engine.rules.events.shown import Shown
from engine.rules.fight.dice import ROUTINE
from engine.rules.fight.events import FightRequested
from engine.rules.state import CampaignState, Flow
from engine.rules.types import AnswerOffer, AnswerSpec, EffectContext, RollDict
from engine.systems import ruleset_for
from engine.triggers import Matcher, matcher_for, mentions_someone, name_variants, people_named

__all__ = ["CAMPAIGN", "DICE_MODES", "Edit", "Editable", "Game", "MemoryStore", "Persistence",
           "Prompt", "RollPreview", "entered_die", "hero_problems", "validate_hero"]

StoreFactory = Callable[[dict[str, object], dict[str, object]], Persistence]
"""Makes a new campaign's store from its list entry (meta) and its first state, as plain data."""

DICE_MODES = ("seeded", "physical", "mixed")
"""seeded: the campaign rolls; physical: the player enters every roll; mixed: each roll asks
(the player may roll for real or let the campaign roll)."""


VILLAIN = "villain"
"""The role whose NPCs start away from a new campaign's opening scene."""

class Game(FlatNames):
    """One campaign in play."""

    def __init__(self, pack: Pack, state: CampaignState, store: Persistence | None = None) -> None:
        if pack.id != state.system:
            raise IllegalAction(f"the campaign is for {state.system!r}, not {pack.id!r}")
        self.pack = pack
        self.rules = ruleset_for(pack)
        self.tx = Transaction(state, store or MemoryStore(state.saved()),
                              self.rules.registry, self._after_emit)
        """The all-or-nothing action: the state, and the one way to change it."""
        self.interp = Interpreter(pack, self.rules, self._gm, self._offer)
        self.moves = Moves(self)
        """The move flow: which moves and targets are open, and running a move."""
        self._last_read: tuple[tuple[str, tuple[str, ...]], Beat] | None = None
        """The last line read and its cast, with its reading (a ``Beat`` is immutable)."""
        self.fights = Fights(self)
        """Fights in rounds: their options, odds and commands (``game.fight`` is the fight
        under way)."""
        self.party = Party(self)
        """The party and the cast: NPCs, heroes, the spotlight, presence, stances."""
        self.gm = GMTools(self)
        """The GM's tools by hand: the oracle, tables, scene proposals, threats."""
        self.ledger = StoryLedger(self)
        """The story ledger: threads, facts, whereabouts (``ledger()`` reads it)."""
        self.edits = HandEdits(self)
        """The sheet by hand: what can be edited, and edits."""

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
        party: Sequence[HeroSeat] = (),
        seed: int | None = None,
        dice_mode: str = "seeded",
        store_factory: StoreFactory | None = None,
        scene_title: str = "Opening scene",
        location: str = "",
        hero_data: Mapping[str, object] | None = None,
        present: Sequence[str] | None = None,
    ) -> Game:
        """Start a campaign; ``store_factory(meta, state_dict)`` makes its store.

        ``party`` adds more heroes ({"name", "archetype", "stats"}) after the first: the
        player runs them all and switches which one acts. ``hero_data``: the first hero's
        system data (an M&M stat block of its own: ``{"statblock": {...}}``). ``present``:
        the names of the NPCs in the opening scene; None: all but the villains, who start
        away from it.
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
        initial = state.saved()
        store = store_factory(meta, initial) if store_factory else MemoryStore(initial)
        game = cls(pack, state, store)
        with game._action("Campaign begins"):
            game._emit(ev.SessionStarted(number=1))
            for h_name, h_arche, h_stats in extra:
                game._emit(hero_added(pack, new_hero(pack, h_name, h_arche, h_stats,
                                                       taken=list(game.state.actors))))
            here = None if present is None else {p.strip().lower() for p in present}
            for npc_name, role, note in npcs:
                game._add_npc(npc_name, role, note, present=role != VILLAIN if here is None
                              else npc_name.strip().lower() in here)
            if not location.strip():
                # the GM sets the opening scene somewhere from the pack's places
                place = scenes.draw(pack, game.state, "locations", "opening")
                location = place.text if place else ""
            game._emit(ev.SceneStarted(number=1, title=scene_title, location=location))
            opened = framing.framed_event(game.state, 1, location, "")
            if opened is not None:  # the opening's place is remembered like any scene's
                game._emit(opened)
            game.moves._run(game.rules.session_started(game.state) + game.rules.campaign_started(
                game.state))
        return game

    # ------------------------------------------------------------------ actions: plumbing

    @property
    def state(self) -> CampaignState:
        """The campaign's state now (``tx.state``)."""
        return self.tx.state

    @property
    def store(self) -> Persistence:
        """Where the campaign is saved (``tx.store``)."""
        return self.tx.store

    @property
    def last_events(self) -> list[Shown]:
        """The events of the last action, as front ends read them (``tx.last_events``)."""
        return self.tx.last_events

    def _action(self, label: str) -> AbstractContextManager[None]:
        """One all-or-nothing action (``tx.action``)."""
        return self.tx.action(label)

    def _emit(self, e: ev.Event) -> None:
        """Apply ``e`` and record it in the action under way (``tx.emit``)."""
        self.tx.emit(e)

    def _after_emit(self, e: ev.Event) -> None:
        if isinstance(e, FightRequested):  # a move's effect starts a fight, in this action
            self.fights._start_requested(e.foes, e.surprised)

    def _gm(self, state: CampaignState, kind: str, ctx: EffectContext) -> Step:
        return make_gm_move(self.pack, state, kind, ctx, self.rules)

    def _offer(self, state: CampaignState, spec: AnswerSpec, ctx: EffectContext
               ) -> AnswerOffer:
        return answers.offer(self.pack, state, spec, ctx)

    def _add_npc(self, name: str, role: str, note: str = "", present: bool = True) -> str:
        if role not in self.pack.system.roles:
            raise IllegalAction(
                f"unknown role {role!r}; roles are {', '.join(self.pack.system.roles)}")
        if not name.strip():
            raise IllegalAction("an NPC needs a name")
        if self.state.npc_by_name(name):
            raise IllegalAction(f"there is already an NPC called {name.strip()!r}")
        nid = actor_id(name, list(self.state.actors))
        self._emit(ev.NPCAdded(id=nid, name=name.strip(), role=role, note=note,
                               present=present))
        for e in self.rules.npc_added(self.state, nid, role):
            self._emit(e)
        if role == "villain":  # each villain brings its threat, at the start or later
            threat = scenes.threat_for_villain(self.pack, self.state, nid)
            if threat is not None:
                self._emit(threat)
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
                ) -> list[Suggestion]:
        """Moves the fiction suggests, best first (``move`` None: no move, when the fiction
        reads as plain description), each with the words that led to it, the character the
        fiction names or points at (``target``, ``target_name``) and the exact odds of the
        roll on that target (the roll panel's odds), and why it cannot be taken now
        (``blocked``; such moves come after those that can).

        Only moves usable now, unless ``everything`` (then in the order of fit alone)."""
        st = self.state
        locked = set() if everything else {
            m.id for m in self.pack.moves.values() if not m.hidden and self.moves.locked(m)}
        allowed = None if everything else [m.id for m in self.moves.available_moves()
                                           if not m.hidden] + sorted(locked)
        others = [(a.id, a.name) for a in st.actors.values() if a.id != st.acting]
        names = [v for _i, n in others for v in name_variants(n)]
        named = self._named_in(text)
        out = []
        found = self.matcher.suggest(text, allowed, limit + len(locked), names)
        reading = self.read(text).describe()
        # a locked move (Masks' adult moves) is hinted only when the words fit it best
        hint = [x for x in found if x.move is not None][:1]
        hint = hint if hint and hint[0].move in locked else []
        usable = [x for x in found if x.move not in locked]
        moves = [x for x in usable if x.move is not None][:limit]
        for sug in hint + [x for x in usable if x.move is None or x in moves]:
            d = sug.to_dict()
            d["target"] = d["target_name"] = None
            d["reading"] = reading
            if sug.move is not None:
                move = self.pack.moves[sug.move]
                tid = self._target_among(move, named)
                new = self.moves.meeting(move, text)  # a move that meets someone new
                if new:
                    tid, d["target_name"] = None, new
                if tid is not None:
                    d["target"], d["target_name"] = tid, st.actors[tid].name
                if move.roll is not None and move.roll.stat != "choice":
                    pv = self.preview(move.id, tid)
                    d["odds"], d["chances"] = pv.odds, pv.chances
                elif starts_fight(move):
                    d["target_name"] = self._opening_names(text)
                    d["opens"] = bool(d["target_name"])
                d["blocked"] = self.moves.why_not_now(move) or ""
            out.append(Suggestion.of(d))
        return out if everything else sorted(out, key=lambda x: bool(x.blocked))

    def _opening_names(self, text: str) -> str | None:
        """The foes an attack in ``text`` names, to fight first ("Gunman 1, Gunman 2")."""
        opening = self.fights.opening(text)
        if opening is None:
            return None
        labels = {f.id: f.label for f in self.fights.foe_options()}
        return ", ".join(labels.get(f, f) for f in opening.foes) or None

    def read(self, text: str) -> Beat:
        """``text`` read as who does what to whom, the cast's names known (the acting hero
        is "I")."""
        st = self.state
        cast = [a.name for a in st.actors.values() if a.id != st.acting]
        if self.rules.conflict() is not None:  # the foes a fight may be against, too
            cast += [f.label for f in self.fights.foe_options()]
        key = (text, tuple(cast))
        if self._last_read is None or self._last_read[0] != key:  # describe reads it twice
            self._last_read = (key, read_beat(text, cast))
        return self._last_read[1]

    def _said(self, text: str) -> ev.Narrated:
        """The player's line as an event, with its reading."""
        return ev.Narrated(text=text, by="player", beat=self.read(text).to_dict())

    def named_target(self, move_id: str, text: str | None = None) -> str | None:
        """The character ``text`` (the fiction of the beat under way by default) names or
        points at who can be ``move_id``'s target; None if none is."""
        fiction = self.state.flow.fiction if text is None else text
        if not fiction:
            return None
        return self._target_among(self.moves._move(move_id), self._named_in(fiction))

    def _named_in(self, text: str) -> list[str]:
        """Ids of the characters ``text`` names, or the one present it points at ("her")."""
        st = self.state
        others = [(a.id, a.name) for a in st.actors.values() if a.id != st.acting]
        named = people_named(text, others)
        if not named and mentions_someone(text):
            here = [a.id for a in st.npcs.values() if a.present]
            named = here if len(here) == 1 else []
        return named

    def _target_among(self, move: s.Move, named: Sequence[str]) -> str | None:
        """The first of ``named`` that can be ``move``'s target."""
        if move.target == "none" or not named:
            return None
        ok = {o.id for o in self.moves.targets_for(move)}
        return next((n for n in named if n in ok), None)

    def modifiers(self, move: s.Move, target: str | None, stat: str | None = None,
                  extras: Sequence[Sequence[Any]] = ()) -> tuple[list[list[Any]], int, int]:
        """Every modifier with its source, the raw sum and the clamped modifier."""
        return resolve.modifiers(self.state, self.pack, self.rules, move, target, stat, extras)

    def preview(self, move_id: str, target: str | None = None, stat: str | None = None
                ) -> RollPreview:
        """The pending (or a hypothetical) roll of ``move_id``, with exact odds per band."""
        return roll_preview(self.state, self.pack, self.rules, self.moves._move(move_id), target,
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

    def describe(self, text: str) -> list[Shown]:
        """The player says what their hero does; the engine suggests moves. A line that
        starts with another hero's name ("Tin hacks the drone") is theirs: the spotlight
        turns to them in the same action (one undo takes both back)."""
        text = text.strip()
        if not text:
            raise IllegalAction("describe what your hero does first")
        self.moves._require_stage("fiction", "move")
        with self._action("fiction"):
            who = self.party.speaker(text)
            read = text  # what the moves are read from: the hero who acts is "I"
            if who is not None:
                self._emit(ev.HeroSwitched(hero=who, was=self.state.acting))
                read = "I " + text[len(self.state.actors[who].name):].lstrip(" ,:")
            self._emit(self._said(text))
            self.ledger._heard(text)
            self.moves._set_flow(Flow(stage="move", fiction=text,
                                suggestions=[x.to_dict() for x in self.suggest(read)]))
        return self.last_events

    def choose_move(self, move_id: str | None, target: str | None = None) -> list[Shown]:
        """Pick the move the fiction triggers (None: no move, just fiction). A move that
        starts a fight, with fiction that attacks someone, fights them and takes that attack
        on the hero's first turn."""
        self.moves._require_stage("fiction", "move")
        opens = False
        with self._action("move" if move_id else "no move"):
            if move_id is None:
                self.moves._set_flow(Flow())
                self._quiet_beat()
            else:
                hint = next((x.get("target") for x in self.state.flow.suggestions
                             if x.get("move") == move_id and x.get("target")), None)
                if not isinstance(hint, str):  # a move from the full list: the fiction's
                    hint = self.named_target(move_id)
                move = self.moves._move(move_id)
                opens = self._plan_opening(move, self.state.flow.fiction)
                self.moves._begin_move(move, target, self.state.flow.fiction, [], hint)
        return self.last_events + (self.fights.take_planned() if opens else [])

    def _plan_opening(self, move: s.Move, fiction: str) -> bool:
        """Before a move that starts a fight, the attack its fiction makes on someone is kept
        as the hero's first action (``Fights.planned_event``): the fight is against them,
        and their first turn takes it. Whether it was."""
        if not (starts_fight(move) and fiction.strip() and self.fights.opening(fiction)):
            return False
        self._emit(self.fights.planned_event(fiction))
        return True

    def trigger(self, move_id: str, target: str | None = None, fiction: str = ""
                ) -> list[Shown]:
        """Fiction and move in one action (the move list, scripts, the command palette)."""
        self.moves._require_stage("fiction", "move")
        move = self.moves._move(move_id)
        with self._action(f"move {move.id}"):
            if fiction.strip():
                self._emit(self._said(fiction.strip()))
                self.ledger._heard(fiction)
            opens = self._plan_opening(move, fiction)
            self.moves._begin_move(move, target, fiction, [])
        return self.last_events + (self.fights.take_planned() if opens else [])

    def choose_target(self, target: str) -> list[Shown]:
        """Name the move's target (an NPC id or name)."""
        self.moves._require_stage("target")
        f = self.state.flow
        move = self.moves._move(f.move or "")
        if self.moves._no_target(move, target):
            with self._action("no target"):
                self.moves._start(move, None, f.fiction, list(f.queue))
            return self.last_events
        with self._action("target"):
            self.moves._start(move, self.moves._resolve_target(move, target), f.fiction,
                              list(f.queue))
        return self.last_events

    def pre_roll(self, option: str) -> list[Shown]:
        """Before the roll: take one of the ruleset's pre-roll options (Masks: spend 1 Team for
        +1); its modifier joins the roll and the odds update."""
        self.moves._require_stage("roll")
        f = self.state.flow
        move = self.moves._move(f.move or "")
        events, modifier, label = self.rules.pre_roll(self.state, move, option)
        with self._action(label):
            for e in events:
                self._emit(e)
            if modifier is not None:
                self.moves._set_flow(f.model_copy(update={"extras": [*f.extras, modifier]}))
        return self.last_events

    def spend_team(self) -> list[Shown]:
        """Masks: spend 1 Team before the roll for +1 (the ``team`` pre-roll option)."""
        return self.pre_roll("team")

    def set_roll_options(self, stat: str | None = None, advantage: str | None = None,
                         params: dict[str, int] | None = None) -> list[Shown]:
        """Before the roll: choose the stat (when the move offers a choice), advantage, or
        the roll's parameters (such as a complexity)."""
        self.moves._require_stage("roll")
        f = self.state.flow
        move = self.moves._move(f.move or "")
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
            self.moves._set_flow(f.model_copy(update=upd))
        return self.last_events

    def declare(self, declaration: str, on: bool = True) -> list[Shown]:
        """Before the roll: declare (or withdraw) something the ruleset offers."""
        self.moves._require_stage("roll")
        f = self.state.flow
        move = self.moves._move(f.move or "")
        offered = {d.id for d in self.rules.declarations(self.state, move)}
        if on and declaration not in offered:
            raise IllegalAction(self.rules.declaration_refused(self.state, move, declaration))
        if not on and declaration not in f.declared:
            raise IllegalAction(f"{self.rules.declaration_name(self.state, move, declaration)}"
                                " is not declared, so there is nothing to withdraw")
        declared = [d for d in f.declared if d != declaration] + ([declaration] if on else [])
        with self._action("declare"):
            self.moves._set_flow(f.model_copy(update={"declared": declared}))
        return self.last_events

    def set_declarations(self, declarations: Sequence[str]) -> list[Shown]:
        """Before the roll: declare exactly these (withdrawing the others) in one action; if
        any is refused, nothing changes."""
        self.moves._require_stage("roll")
        f = self.state.flow
        move = self.moves._move(f.move or "")
        wanted = list(dict.fromkeys(str(d) for d in declarations))
        if wanted == list(f.declared):
            return []
        with self._action("declare"):
            kept = [d for d in f.declared if d in wanted]
            self.moves._set_flow(f.model_copy(update={"declared": kept}))
            for d in wanted:
                if d in kept:
                    continue
                if d not in {x.id for x in self.rules.declarations(self.state, move)}:
                    raise IllegalAction(self.rules.declaration_refused(self.state, move, d))
                now = self.state.flow
                self.moves._set_flow(now.model_copy(update={"declared": [*now.declared, d]}))
        return self.last_events

    def roll(self, faces: Sequence[int] | None = None) -> list[Shown]:
        """Roll the pending move: seeded dice, or the faces of the player's physical dice."""
        self.moves._require_stage("roll")
        f = self.state.flow
        move = self.moves._move(f.move or "")
        assert move.roll is not None
        if move.roll.stat == "choice" and not f.stat:
            raise IllegalAction(f"{move.name}: choose which stat to roll first"
                                f" ({', '.join(move.roll.choices)})")
        dice = self._dice_for(move)
        fixed = self.rules.fixed_faces(self.state, move)  # a routine check: no die at all
        if fixed is not None:
            result = Roll.of(dice, check_faces(dice, fixed))
            position = self.state.dice_position
        elif faces is None and self.state.dice_mode == "physical":
            raise IllegalAction("this campaign uses physical dice: enter the faces you rolled")
        elif faces is not None:
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
            if fixed is not None:  # a routine check: no die was rolled
                rolled = replace(rolled, dice=ROUTINE)
            band = rolled.band
            self._emit(rolled)
            roll_d = resolve.roll_dict(rolled)
            adjust = self.rules.adjustments(self.state, move, roll_d)
            if adjust:
                self.moves._set_flow(f.model_copy(update={"stage": "adjust", "roll": roll_d}))
            else:
                self.moves._outcome(move, band, f.target, list(f.queue), roll_d)
        return self.last_events

    def adjust(self, adjustment: str | None = None) -> list[Shown]:
        """After the roll: take an adjustment by id, or keep the result (None or "keep")."""
        self.moves._require_stage("adjust")
        f = self.state.flow
        move = self.moves._move(f.move or "")
        assert f.roll is not None
        with self._action("adjust" if adjustment not in (None, "keep") else "keep result"):
            if adjustment in (None, "keep"):
                self.moves._outcome(move, f.roll["band"], f.target, list(f.queue), f.roll)
            else:
                self.moves._adjust(move, f, str(adjustment))
        return self.last_events

    def choose(self, ids: Sequence[str]) -> list[Shown]:
        """Answer the open choice (choose N, pick one, questions to ask)."""
        self.moves._require_stage("effects")
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
            self.moves._run(replacement + list(f.queue[1:]))
        return self.last_events

    # ------------------------------------------------------------------ the GM answers

    def answer_text(self, text: str) -> list[Shown]:
        """Answer the pending question in your own words, instead of the GM's offer.

        The ``answer`` prompt (a question a move let you ask) takes ``choose(["accept"])``
        (the GM's offer, shown with how it was drawn), ``choose(["another"])`` (a new draw) or
        this; the answer is journaled (``QuestionAnswered``) and recorded as a fact."""
        self.moves._require_stage("effects")
        f = self.state.flow
        assert f.prompt is not None
        if f.prompt.get("kind") != "answer":
            raise IllegalAction(f"no question is waiting for an answer: {self.pending_message}")
        with self._action("own answer"):
            replacement = self.interp.answer_own(self.state, f.prompt["item"], text)
            self.moves._run(replacement + list(f.queue[1:]))
        return self.last_events

    def gm_set_params(self) -> list[Shown]:
        """Before the roll: "GM, you choose" for the roll's parameters the player would set
        standing in for the GM (City of Whispers: a working's complexity): the GM picks each
        (seeded), says so, and the odds update."""
        self.moves._require_stage("roll")
        f = self.state.flow
        move = self.moves._move(f.move or "")
        if move.roll is None or not move.roll.params:
            raise IllegalAction(f"{move.name} has nothing for the"
                                f" {self.pack.system.gm_title} to set")
        rng = gm_random(self.state, f"gm_params:{move.id}")
        picked = {p.id: rng.randint(p.min, p.max) for p in move.roll.params}
        gm = self.pack.system.gm_title
        said = ", ".join(f"{p.name} {picked[p.id]}" for p in move.roll.params)
        with self._action("GM sets the roll"):
            self._emit(ev.Narrated(text=f"{gm}, you choose: the {gm} sets {said}", by="engine"))
            self.moves._set_flow(f.model_copy(update={"params": {**f.params, **picked}}))
        return self.last_events

    # ------------------------------------------------------------------ actions: table talk

    def set_dice_mode(self, mode: str) -> list[Shown]:
        """Switch the campaign's dice: seeded, physical or mixed (saved, and undone by undo)."""
        if mode not in DICE_MODES:
            raise IllegalAction(f"dice mode must be one of {', '.join(DICE_MODES)},"
                                f" not {mode!r}")
        if mode == self.state.dice_mode:
            raise IllegalAction(f"the campaign already uses {mode} dice")
        with self._action("dice mode"):
            self._emit(ev.DiceModeChanged(mode=mode, was=self.state.dice_mode))
        return self.last_events

    def took_clearing_action(self, condition: str) -> list[Shown]:
        """The hero took a condition's clearing action: the condition clears at the end of
        the scene (marked anew before then, the action is spent)."""
        cdef = self.pack.conditions.get(condition)
        if cdef is None:
            raise IllegalAction(f"unknown condition {condition!r}")
        if condition not in self.state.hero.conditions:
            raise IllegalAction(f"{self.state.hero.name} is not {cdef.name}: there is nothing"
                                " to clear")
        if condition in self.state.scene.clearing:
            raise IllegalAction(f"{cdef.name}'s clearing action is already taken this scene: it"
                                " clears when the scene ends")
        with self._action("clearing action"):
            self._emit(ev.ClearingActionTaken(condition=condition))
        return self.last_events

    def end_scene(self, cleared: Sequence[str] = ()) -> list[Shown]:
        """Close the scene; conditions whose clearing action was taken clear: the acting
        hero's by id ("angry"), another hero's of the party as "hero_id:condition"."""
        self.moves._require_stage("fiction", "move")
        if not self.state.scene.open:
            raise IllegalAction("no scene is open")
        for c in cleared:
            hero, _, cond = c.rpartition(":")
            if cond not in self.pack.conditions:
                raise IllegalAction(f"unknown condition {cond!r}")
            if hero and hero not in self.state.party:
                raise IllegalAction(f"no hero {hero!r} in the party")
        with self._action("end scene"):
            self._end_scene(list(cleared))
        return self.last_events

    def _end_scene(self, cleared: list[str]) -> None:
        me = self.state.acting
        mine = [c.rpartition(":")[2] for c in cleared if c.rpartition(":")[0] in ("", me)]
        both = list(dict.fromkeys([*self.state.scene.clearing, *mine]))
        for e in self.rules.scene_ending(self.state, both):
            self._emit(e)
        for c in cleared:  # the party's other heroes: each their own clearing actions
            hero, _, cond = c.rpartition(":")
            if hero and hero != me and cond in self.state.actors[hero].conditions:
                self._emit(ev.ConditionCleared(
                    who=hero, condition=cond, reason="its clearing action was taken this scene"))
        pushes: list[Item] = []
        for step in scenes.scene_end_steps(self.pack, self.state):
            for e in step.events:
                self._emit(e)
            pushes += step.push
        self._emit(ev.SceneEnded(number=self.state.scene.number))
        self.moves._run(pushes)
        self.moves._set_flow(Flow())

    def start_scene(self, title: str = "", location: str = "", stakes: str = "",
                    present: Sequence[str] = (), opening: str = "") -> list[Shown]:
        """Open the next scene (ending the current one first, with no clearing)."""
        self.moves._require_stage("fiction", "move")
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
            self.tx.new_chunk()
            if not self.state.data.get("session_open", True):
                self._start_session_events()
            self._emit(ev.SceneStarted(number=n, title=title.strip() or f"Scene {n}",
                                       location=location.strip(), stakes=stakes.strip(),
                                       present=ids))
            if opening.strip():
                self._emit(ev.Narrated(text=opening.strip(), by="gm"))
            framed = framing.framed_event(self.state, n, location, opening)
            if framed is not None:  # remembered, so the next scenes are framed elsewhere
                self._emit(framed)
            items: list[Item] = []
            if self.state.hero.taken_out:
                self._emit(ev.TakenOut(out=False, reason="you are back in the action"))
                items += self.rules.back_in_action(self.state)
            self.moves._run(items)
        return self.last_events

    def _start_session_events(self) -> None:
        self._emit(ev.SessionStarted(number=self.state.session + 1))
        self._emit(ev.DataSet(scope="campaign", key="session_open", value=None))
        self.moves._run(self.rules.session_started(self.state))

    def end_session(self) -> list[Shown]:
        """The end-of-session move, taken by every hero of the party in turn (the acting
        hero first, the spotlight back to them after), then the session closes."""
        self.moves._require_stage("fiction", "move")
        end_move = self.pack.system.session.end_move
        with self._action("end session"):
            if self.state.scene.open:
                self._end_scene([])
            rest: list[Item] = [{"emit": ev.SessionEnded(number=self.state.session).to_dict()},
                                {"emit": ev.DataSet(scope="campaign", key="session_open",
                                                    value=False).to_dict()}]
            if end_move:  # every hero of the party takes it in turn, the acting one first
                me = self.state.acting
                others = [h.id for h in self.state.heroes if h.id != me]
                if others:
                    turns: list[Item] = [{"move_as": {"move": end_move, "hero": h}}
                                         for h in others]
                    rest = [*turns,
                            {"emit": ev.HeroSwitched(hero=me, was=others[-1]).to_dict()},
                            *rest]
                self.moves._begin_move(self.moves._move(end_move), None, "", rest)
            else:
                self.moves._run(rest)
        return self.last_events

    def ask_gm(self) -> list[Shown]:
        """The player looks to the GM: "what happens next?" (a soft move)."""
        self.moves._require_stage("fiction", "move")
        with self._action("ask the GM"):
            self.moves._run([effect_item({"type": "gm_move", "kind": "soft"},
                                   {"source": "you looked to the GM"})])
        return self.last_events

    def narrate(self, text: str) -> list[Shown]:
        """Plain fiction with no move (the player's or a scene note)."""
        if not text.strip():
            raise IllegalAction("nothing to narrate")
        self.moves._require_stage("fiction", "move")
        with self._action("fiction"):
            self._emit(self._said(text.strip()))
            self.ledger._heard(text)
            self.moves._set_flow(Flow())
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
            self.moves._run([effect_item({"type": "gm_move", "kind": "soft"},
                                   {"source": "the scene stalled"})])

    # ------------------------------------------------------------------ what the parts call

    def _run(self, queue: list[Item], roll: RollDict | None = None, fresh: bool = False
             ) -> None:
        """Work through rule items (``moves._run``): what the game's other parts call."""
        self.moves._run(queue, roll, fresh)

    def _require_stage(self, *stages: str) -> None:
        """IllegalAction unless the flow is at one of ``stages`` (``moves._require_stage``)."""
        self.moves._require_stage(*stages)

    # ------------------------------------------------------------------ undo and answers

    def undo(self) -> list[Shown]:
        """Undo the last action: the state becomes exactly what it was before it."""
        self.tx.undo()
        return []

    def answer(self, value: Any) -> list[Shown]:
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


