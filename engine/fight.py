"""Fights in rounds, as part of ``Game``: start one, act on your turn, let the referee play the
other side, roll your own physical dice for any roll, end it. The rules of a fight are the
ruleset's ``Conflict`` (engine/rules/conflict.py); this is the part that owns actions, dice
and turns.

Every step is one action (saved, undone on its own): a player's action, each step of the
referee, ending a turn. A roll that waits for a physical die stops the step with nothing
changed but the action kept pending (``Fight.pending`` with the dice entered so far, and what
is awaited in ``Fight.need``); entering the die plays the whole step again from its
start with the dice entered, so the step is all-or-nothing and its result does not depend on
when the dice came in.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import replace
from typing import Any

from engine.content import schema as s
from engine.content.loader import Pack
from engine.dice import SeededDice
from engine.errors import ContentError, IllegalAction
from engine.rules.events import (
    DataSet,
    Event,
    LedgerChanged,
    Narrated,
    NPCPresence,
    ThreatConfronted,
)
from engine.rules.events.shown import Shown
from engine.rules.fight.conflict import Conflict
from engine.rules.fight.dice import SIDE_DIE, Die, NeedChoice, NeedDie
from engine.rules.fight.events import (
    FIGHT_OPENING,
    FIGHT_REQUEST,
    ActionPending,
    ControlChanged,
    DiceUsed,
    FightActed,
    FightEnded,
    FoesCleared,
    RefereeDiceChanged,
    called_ending,
    fight_ending,
)
from engine.rules.fight.foes import spent_foes
from engine.rules.fight.reading import (
    Said,
    every_foe,
    group_named,
    maneuvers_said,
    name_fit,
    name_words,
    pick,
    read,
    with_maneuvers,
)
from engine.rules.fight.state import Fight, Need, Pending
from engine.rules.fight.step import require_fight
from engine.rules.fight.values import (
    ActionWords,
    ChoiceNeed,
    DieNeed,
    FightChoice,
    FightNeed,
    FightOption,
    FightSuggestion,
    FightTarget,
    FoeOption,
    InitiativeColumns,
    RequestedFight,
    TrackerRow,
)
from engine.rules.ledger import fight_notes, marks_by_play
from engine.rules.state import CampaignState
from engine.rules.view import ActionHost
from engine.triggers import Matcher, name_variants, people_named

MAX_FICTION = 4000
"""The longest fiction kept with a fight action (longer is cut)."""

def starts_fight(move: s.Move) -> bool:
    """Whether ``move`` starts a fight (its result runs the ``start_fight`` rule)."""
    effects = move.result.effects if move.result is not None else []
    return any(getattr(e, "type", "") == "rule" and getattr(e, "name", "") == "start_fight"
               for e in effects)


REFEREE_STEPS_LIMIT = 400
"""``referee_run`` stops after this many steps (a policy that never ends its turn)."""


class _Roller:
    """Dice for one step: the entered ones in order for the rolls a player (or the referee, in
    physical mode) makes, seeded ones for the rest."""

    def __init__(self, state: CampaignState, fight: Fight | None, entered: Sequence[int],
                 physical_all: bool = False, choices: Sequence[str] = (),
                 told: Sequence[str] = (), emit: Callable[[Event], None] | None = None
                 ) -> None:
        self.state, self.fight = state, fight
        self.entered = list(entered)
        self.used = 0
        self.choices = list(choices)
        self.told = list(told)
        self.emit = emit
        self.answered = 0
        self.position = state.dice_position
        self.physical_all = physical_all

    def physical(self, actor: str) -> bool:
        """Whether ``actor``'s rolls are typed in."""
        if self.physical_all:
            return True
        fight = self.fight or self.state.fight  # who controls whom: fixed in a step
        who = self.state.actors.get(actor)
        if fight is None or who is None:
            return self.state.dice_mode == "physical"
        if fight.controller(who) == "player":
            return self.state.dice_mode == "physical"
        return fight.referee_dice == "physical"

    def ask(self, actor: str, question: str, options: Sequence[FightChoice],
            default: str, about: str = "") -> str:
        """The player's answer (in the order the step asks), or ``default`` for a character
        the referee plays; ``NeedChoice`` while the player has not answered."""
        fight = self.fight or self.state.fight  # who controls whom: fixed in a step
        who = self.state.actors.get(actor)
        if fight is None or who is None or fight.controller(who) != "player":
            return default
        if self.answered >= len(self.choices):
            raise NeedChoice(actor, question, options, about)
        answer = self.choices[self.answered]
        said = self.told[self.answered] if self.answered < len(self.told) else ""
        self.answered += 1
        if said and self.emit is not None:  # what the player said, where the answer is used
            self.emit(Narrated(text=said, by="player"))
        if answer not in {o.id for o in options}:
            raise IllegalAction(f"{question} {answer!r} is not one of"
                                f" {', '.join(o.id for o in options)}")
        return answer

    def __call__(self, actor: str, what: str, sides: int = 20, odds: str = "") -> Die:
        name = self.state.actors[actor].name if actor in self.state.actors else actor
        if self.physical(actor):
            if self.used >= len(self.entered):
                raise NeedDie(name, what, sides, odds, actor)
            face = self.entered[self.used]
            self.used += 1
            if not 1 <= face <= sides:
                raise IllegalAction(f"a d{sides} shows 1 to {sides}, not {face}")
            return Die(face, "entered", self.position)
        dice = SeededDice(self.state.seed, self.position, self.state.dice_stream)
        face = dice.face(self.position, sides)
        self.position += 1
        return Die(face, "seeded", self.position)


FightHost = ActionHost
"""The game, as its fight part sees it."""


class Fights:
    """Fights in rounds (``game.fights``): what a fight offers and waits for, and every
    command of one. Each command is one action of the game's transaction."""

    def __init__(self, game: FightHost) -> None:
        self._g = game

    # ------------------------------------------------------------------ queries
    @property
    def conflict(self) -> Conflict[Any]:
        """The ruleset's fights; ``IllegalAction`` for a game that has none."""
        c = self._g.rules.conflict()
        if c is None:
            raise IllegalAction(f"{self._g.pack.system.name} has no fights in rounds")
        return c

    @property
    def initiative(self) -> str:
        """How this game's fights order turns: "each" (everyone rolls, a surprise round may
        open it), "side" (a die per side every round, no surprise round), "" without fights."""
        c = self._g.rules.conflict()
        return str(getattr(c, "initiative", "each")) if c is not None else ""

    @property
    def current(self) -> Fight | None:
        """The fight under way, or None."""
        return self._g.state.fight

    @property
    def fighting(self) -> bool:
        """Whether a fight is under way."""
        return self._g.state.fight is not None

    def suggest(self, text: str, limit: int = 3, everything: bool = False
                ) -> list[FightSuggestion]:
        """The acting character's actions the fiction suggests, best first, from the pack's
        action words (actions.yaml): each the fight option it would take, with its target and
        the words that led to it. An attack or power the words name comes first; maneuvers
        they name are declared with the attack (``maneuvers``); words that cover every foe
        ("all of them") or an area attack aim it at them all (``area``). A target named in
        the text is chosen; otherwise, for an attack, the foe it is likeliest to hurt. "Just
        fiction" (action None) when the words read as no action. Only the options allowed
        now, unless ``everything``."""
        fight = require_fight(self._g.state)
        acting = fight.encounter.acting
        if acting is None:
            return []
        conflict = self.conflict
        options = [o for o in conflict.options(self._g.state, acting)
                   if o.allowed or everything]
        actors = self._g.state.actors
        people = [(a, actors[a].name) for a in actors if a != acting]
        said = read(text, actors[acting].name)
        named = people_named(text, people) or group_named(said, people)
        words = conflict.words()
        everyone = every_foe(said)
        found = maneuvers_said(said, words)
        out = _named_options(options, said, named, everyone, not _lets_go(said))
        top = 0.0
        names = [v for _, n in [*people, (acting, actors[acting].name)]
                 for v in name_variants(n)]
        for sug in _fight_matcher(self._g.pack, words).suggest(
                text, allowed={o.action for o in options}, limit=limit, names=names):
            if sug.move is not None and top >= STRONG and sug.score < top * FAINT:
                continue  # a stray word's match under a clear one: noise
            top = max(top, sug.score)
            if sug.move is None:
                out.append(FightSuggestion(action=None, name="Just fiction",
                                           words=tuple(sug.words)))
                continue
            best = pick([o for o in options if o.action == sug.move], named, said, everyone)
            if best is None or any(x.key == best.key for x in out):
                continue
            w = words.get(sug.move)
            out.append(replace(best, name=w.name if w else sug.move,
                               words=tuple(sug.words), score=sug.score))
        out = _with_maneuvers(out, found, options, named, said, everyone)
        return _reordered(out, options, named, said, everyone)[:max(limit, 1) + 1]

    def opening(self, text: str) -> RequestedFight | None:
        """Outside a fight, the fight the fiction starts by attacking someone ("I blast the
        gunman", "I punch Baron Blitz"): the foes it names (ids ``start_fight`` takes, a
        character in the story or a stat block), none when it names no one who can be
        fought, a fight is under way, or the game has none. ``plan`` keeps the fiction so
        that the fight's first player turn takes that attack."""
        c = self._g.rules.conflict()
        if c is None or self._g.state.fight is not None:
            return None
        foes = c.foe_options(self._g.state)
        said = read(text)
        named = people_named(text, [(f.id, f.label) for f in foes]) or group_named(
            said, [(f.id, f.label + " 1") for f in foes if f.group])
        return RequestedFight(foes=tuple(dict.fromkeys(named))) if named else None

    @property
    def planned(self) -> str:
        """The fiction of the attack planned before the fight (``plan``), taken on its
        actor's first turn; "" : none."""
        plan = self._g.state.data.get(FIGHT_OPENING)
        return str(plan.get("fiction") or "") if isinstance(plan, dict) else ""

    def tracker(self) -> list[TrackerRow]:
        """The initiative tracker: one row per character, in turn order."""
        conflict = self.conflict
        self._warm(conflict)
        return conflict.tracker(self._g.state)

    def _warm(self, conflict: Conflict[Any]) -> None:
        """Once the fight is shown (its tracker drawn, as a front end does from the fight's
        start), the matcher of the player's words is learnt in the background
        (``warm_fight_matcher``), once per pack; a headless player (the lab) that never draws
        the tracker never pays for it."""
        pack = self._g.pack
        if _built(pack) is not None or id(pack) in _WARMING:
            return
        try:
            words = conflict.words()
        except ContentError:
            return  # the suggestion says why
        warm_fight_matcher(pack, words)

    def odds(self, attack: str, target: str, maneuvers: Mapping[str, int] | None = None,
                   actor: str | None = None) -> FightTarget:
        """The exact odds of the acting character's ``attack`` on ``target`` with
        ``maneuvers`` (as the options give them, changed by the trades)."""
        fight = require_fight(self._g.state)
        who = actor or fight.encounter.acting
        if who is None:
            raise IllegalAction("nobody is acting")
        return self.conflict.odds(self._g.state, who, attack, target, dict(maneuvers or {}))

    def foe_options(self) -> list[FoeOption]:
        """Who a fight may be against (``start_fight`` takes their ids)."""
        return self.conflict.foe_options(self._g.state)

    def options(self, actor: str | None = None) -> list[FightOption]:
        """What the acting character (or ``actor``) may do now, with exact odds."""
        fight = require_fight(self._g.state)
        who = actor or fight.encounter.acting
        if who is None:
            return []
        return self.conflict.options(self._g.state, who)

    @property
    def request(self) -> RequestedFight | None:
        """A fight a move started that waits for its initiative dice (physical dice): what to
        pass to ``start_fight`` with the dice; None otherwise."""
        req = self._g.state.data.get(FIGHT_REQUEST)
        if self._g.state.fight is not None or not isinstance(req, dict):
            return None
        return RequestedFight(foes=tuple(str(f) for f in req.get("foes") or []),
                              surprised=tuple(str(s) for s in req.get("surprised") or []))

    @property
    def need(self) -> FightNeed | None:
        """What the fight waits for: a physical die, or the player's choice; None."""
        fight = self._g.state.fight
        if fight is None or fight.pending is None or fight.need is None:
            return None
        need = fight.need
        if need.kind == "choice":
            return ChoiceNeed(actor=need.actor, who=need.who, question=need.question,
                              choices=tuple(FightChoice.of(o) for o in need.options),
                              about=need.about)
        actor = need.actor or next(
            (p.actor for p in fight.encounter.participants
             if p.actor in self._g.state.actors and self._g.state.actors[p.actor].name == need.who),
            "")
        side = (fight.encounter.participant(actor).side
                if need.what == SIDE_DIE and fight.encounter.has(actor) else "")
        return DieNeed(who=need.who, what=need.what, sides=need.sides, odds=need.odds,
                       actor=actor, side=side)

    @property
    def referee_turn(self) -> bool:
        """Whether the referee plays the character whose turn it is."""
        fight = self._g.state.fight
        if fight is None or fight.encounter.acting is None:
            return False
        return fight.controller(self._g.state.actors[fight.encounter.acting]) == "referee"

    # ------------------------------------------------------------------ plumbing
    def _roller(self, entered: Sequence[int] = (), physical_all: bool = False,
                choices: Sequence[str] = (), told: Sequence[str] = ()) -> _Roller:
        return _Roller(self._g.state, self._g.state.fight, entered, physical_all, choices,
                       told, self._g._emit)

    def _used(self, roller: _Roller) -> None:
        if roller.position > self._g.state.dice_position:
            self._g._emit(DiceUsed(position=roller.position))

    def _after_step(self) -> None:
        """End the fight when one side is left standing."""
        result = self.conflict.finished(self._g.state)
        fight = self._g.state.fight
        if result is not None and fight is not None:
            words = {"heroes": "the heroes win", "villains": "the villains win",
                     "nobody": "nobody is left standing"}.get(result, result)
            down = self._down(fight)
            self.conflict.ended(self._g.state, self._g._emit)
            self._g._emit(FightEnded(result=words, ending=fight_ending(fight)))
            self._remember(fight, words)
            self._clear(down)

    def _down(self, fight: Fight) -> list[str]:
        """Who is out of ``fight`` by its game's rule (down, fled, surrendered), at its end."""
        out = self.conflict.step(self._g.state).out
        return [p.actor for p in fight.encounter.participants if out(p.actor)]

    def _clear(self, down: Sequence[str]) -> None:
        """The minions out of the fight just ended that the story does not hold on to leave
        the state (``FoesCleared``); those still standing stay in the scene."""
        spent = spent_foes(self._g.state, down)
        if spent:
            self._g._emit(FoesCleared(ids=spent))

    def _remember(self, fight: Fight, result: str) -> None:
        """What the story keeps of a fight (``fight_notes``): a thread for each villain who got
        away, a fact for each who surrendered or fell and for each hero who fled or fell (the
        GM, framing and the recap draw on them)."""
        state = self._g.state
        there = [p.actor for p in fight.encounter.participants]
        heroes = [a for a in there if a in state.actors and state.actors[a].kind == "hero"]
        for threat in state.threats.values():  # who stood against whom this scene
            if threat.active and threat.npc in there and threat.confronted != state.scene.number:
                self._g._emit(ThreatConfronted(threat=threat.id, npc=threat.npc, by=heroes))
        if result == "the heroes win":  # a fight won against a vow's people marks it
            marked: set[str] = set()
            for foe in there:
                for mark in marks_by_play(state, "good", foe):
                    if mark.id not in marked:
                        marked.add(mark.id)
                        self._g._emit(replace(mark, source="the fight"))
        for note in fight_notes(state, fight, result):
            if note.kind == "thread":
                if any(t.text == note.text for t in state.open_threads):
                    continue
                self._g._emit(LedgerChanged(kind="thread", op="open",
                                         id=state.next_ledger_id("t"), text=note.text,
                                         source="the fight"))
            else:
                self._g._emit(LedgerChanged(kind="fact", op="record",
                                         id=state.next_ledger_id("f"), text=note.text,
                                         source="the fight", about=list(note.about)))

    def _step(self, label: str, pending: Pending, announce: Event | None = None
              ) -> list[Shown]:
        """Resolve ``pending`` as one action (``announce``: the referee's choice, said first);
        if a physical die is missing, keep it pending and say which die is awaited."""
        try:
            with self._g._action(label):
                if announce is not None:
                    self._g._emit(announce)
                if pending.fiction:
                    self._g._emit(Narrated(text=pending.fiction, by="player"))
                roller = self._roller(pending.dice, choices=pending.choices,
                                      told=pending.told)
                self.conflict.resolve(self._g.state, pending, roller, self._g._emit)
                self._used(roller)
                self._after_step()
                self._auto_end_turn(roller)
        except NeedDie as need:
            self._wait(label, pending, Need(who=need.who, actor=need.actor, what=need.what,
                                            sides=need.sides, odds=need.odds), announce)
        except NeedChoice as ask:
            self._wait(label, pending, Need(kind="choice", actor=ask.who,
                                            who=self._g.state.actors[ask.who].name,
                                            question=ask.question, about=ask.about,
                                            options=[o.to_dict() for o in ask.options]),
                       announce)
        return self._g.last_events

    def _wait(self, label: str, pending: Pending, need: Need, announce: Event | None = None
              ) -> None:
        """Keep ``pending`` with what it waits for (a die, or the player's choice), after the
        referee's ``announce`` of it, when it has one."""
        waiting = "a choice" if need.kind == "choice" else "a die"
        with self._g._action(f"{label}: waiting for {waiting}"):
            if announce is not None:
                self._g._emit(announce)
            self._g._emit(ActionPending(pending=pending.model_dump(mode="json"),
                                     need=need.model_dump(mode="json")))

    def _auto_end_turn(self, roller: _Roller | None = None) -> None:
        """A turn with nothing left to spend ends by itself (rolling on with the step's
        ``roller``, so a die entered for a check at the turn's end is used)."""
        fight = self._g.state.fight
        if fight is None or fight.encounter.acting is None:
            return
        budget = fight.encounter.budget
        if not any(v > 0 for v in budget.values()):  # nothing left to spend (any kind)
            roller = roller or self._roller()
            self.conflict.end_turn(self._g.state, roller, self._g._emit)
            self._used(roller)
            self._after_step()

    def _refuse_pending(self) -> None:
        fight = require_fight(self._g.state)
        need = fight.need if fight.pending is not None else None
        if need is not None:
            if need.kind == "choice":
                raise IllegalAction(f"waiting for your choice: {need.who}, {need.question}"
                                    f" ({', '.join(o['id'] for o in need.options)})")
            raise IllegalAction(f"waiting for a d{need.sides}: {need.who}, {need.what}"
                                " (enter the die you rolled)")

    # ------------------------------------------------------------------ commands
    def start(self, foes: Sequence[str], surprised: Sequence[str] = (),
                    dice: Sequence[int] = ()) -> list[Shown]:
        """Start a fight against ``foes`` (actor ids or the pack's stat block ids; a minion
        group brings all its members). ``surprised``: actor ids or a side ("heroes",
        "villains"). Initiative is rolled with the campaign's dice, or from ``dice`` in
        entry order when given."""
        conflict = self.conflict
        with self._g._action("fight begins"):
            if FIGHT_REQUEST in self._g.state.data:
                self._g._emit(DataSet(scope="campaign", key=FIGHT_REQUEST, value=None))
            roller = self._roller(dice, physical_all=bool(dice))
            try:
                self._bring_in(foes)
                conflict.start(self._g.state, list(foes), list(surprised), roller, self._g._emit)
            except NeedDie as need:
                raise IllegalAction(f"initiative needs {len(dice) + 1} or more dice"
                                    f" (short at {need.who})") from None
            self._used(roller)
            self._after_step()
        return self._g.last_events + self.take_planned()

    def plan(self, fiction: str) -> list[Shown]:
        """Keep ``fiction`` (an attack said before the fight, ``opening``) as the acting
        hero's first action: when the fight begins, its first turn that the player plays
        takes what the words suggest (the attack, its target, its maneuvers); at once when
        the hero acts first. "" forgets it."""
        with self._g._action("first action planned" if fiction.strip()
                             else "first action dropped"):
            self._g._emit(self.planned_event(fiction))
        return self._g.last_events

    def planned_event(self, fiction: str) -> DataSet:
        """The event that keeps ``fiction`` as the acting hero's first action, with the foes
        it names (``opening``), which a move that starts the fight then fights without
        asking; "" forgets it."""
        told = " ".join(fiction.split())[:MAX_FICTION]
        opening = self.opening(told) if told else None
        return DataSet(scope="campaign", key=FIGHT_OPENING, value={
            "actor": self._g.state.acting, "fiction": told,
            "foes": list(opening.foes) if opening else []} if told else None)

    def take_planned(self) -> list[Shown]:
        """The planned first action (``plan``), if it is its actor's turn (played by the
        player, nothing awaited): ``start``, ``referee_step`` and ``referee_run`` call it
        when they end, a front end after a move that started a fight. It is the first
        suggestion of its words aimed at someone (or every foe in an area), taken with its
        maneuvers; forgotten first, so a refusal does not repeat."""
        plan = self._g.state.data.get(FIGHT_OPENING)
        fight = self._g.state.fight
        if not isinstance(plan, dict) or fight is None or fight.pending is not None:
            return []
        if fight.encounter.acting != plan.get("actor") or self.referee_turn:
            return []
        fiction = str(plan.get("fiction") or "")
        out = self.plan("")
        sug = next((x for x in self.suggest(fiction) if x.action is not None
                    and (x.target is not None or x.area)), None)
        if sug is None:
            return out
        trades, switches = sug.declared()
        try:
            return out + self.act(sug.action or "", sug.target.id if sug.target else None,
                                  sug.attack.id if sug.attack else None, trades, switches,
                                  fiction=fiction)
        except IllegalAction:
            return out  # the fight changed what can be done: the player chooses

    def _start_requested(self, foes: Sequence[str], surprised: Sequence[str]) -> None:
        """A move's effect asked for a fight: start it inside the current action, or, when the
        player rolls physical dice, keep the request (``fight_request``) until the initiative
        dice are entered with ``start_fight``."""
        if self._g.state.dice_mode == "physical":
            self._g._emit(DataSet(scope="campaign", key=FIGHT_REQUEST,
                                  value={"foes": list(foes), "surprised": list(surprised)}))
            return
        roller = self._roller()
        self._bring_in(foes)
        self.conflict.start(self._g.state, list(foes), list(surprised), roller, self._g._emit)
        self._used(roller)
        self._after_step()

    def _bring_in(self, foes: Sequence[str]) -> None:
        """The cast's foes away from the scene come into it, to fight."""
        for f in foes:
            npc = self._g.state.npcs.get(f)
            if npc is not None and not npc.present:
                self._g._emit(NPCPresence(npc=f, present=True))

    def join(self, who: str, dice: Sequence[int] = ()) -> list[Shown]:
        """Bring a late joiner (an actor id or a stat block id) into the fight. Its initiative
        is rolled with the fight's dice, or from ``dice`` when given (as ``start_fight``)."""
        require_fight(self._g.state)
        with self._g._action("joins the fight"):
            roller = self._roller(dice, physical_all=bool(dice))
            try:
                self.conflict.join(self._g.state, who, roller, self._g._emit)
            except NeedDie as need:
                raise IllegalAction(f"initiative needs {len(dice) + 1} or more dice"
                                    f" (short at {need.who})") from None
            self._used(roller)
        return self._g.last_events

    def act(self, action: str, target: str | None = None, attack: str | None = None,
                  maneuvers: Mapping[str, int] | None = None,
                  options: Mapping[str, str | int | bool] | None = None,
                  actor: str | None = None, fiction: str = "") -> list[Shown]:
        """The acting character (played by the player) takes an action; ``fiction``, what the
        player said it does, goes into the journal just before it."""
        fight = require_fight(self._g.state)
        self._refuse_pending()
        who = actor or fight.encounter.acting
        if actor is None and (options or {}).get("readied"):  # a readied action, off-turn
            ready = [p.actor for p in fight.encounter.participants if p.held == "ready"
                     and fight.controller(self._g.state.actors[p.actor]) == "player"]
            if len(ready) != 1:
                raise IllegalAction("whose readied action? name the actor"
                                    if ready else "nobody you play has a readied action")
            who = ready[0]
        if actor is None and action == "step_in":  # a delayed turn taken now: whose?
            who = next(iter(fight.delayed_by_player(self._g.state.actors)), who)
        if who is None:
            raise IllegalAction("nobody can act now")
        if fight.controller(self._g.state.actors[who]) == "referee":
            raise IllegalAction(f"the referee plays {self._g.state.actors[who].name}: take over"
                                " the turn first, or let the referee act")
        pending = self.conflict.declare(self._g.state, who, action, target, attack,
                                        dict(maneuvers or {}), dict(options or {}))
        told = " ".join(fiction.split())[:MAX_FICTION]
        if told:
            pending = pending.model_copy(update={"fiction": told})
        return self._step(action.replace("_", " "), pending)

    def choose(self, option: str, fiction: str = "") -> list[Shown]:
        """Answer what the fight asks the player (``fight_need`` with ``kind`` "choice"); the
        step plays on. ``fiction``, what the player says with the answer ("she gets her
        crossbow's stock up"), is told where the answer is used: after the roll that asked."""
        fight = require_fight(self._g.state)
        need = fight.need if fight.pending is not None else None
        if need is None or need.kind != "choice" or fight.pending is None:
            raise IllegalAction("no choice is awaited")
        ids = [str(o.get("id")) for o in need.options]
        if option not in ids:
            raise IllegalAction(f"{need.question} choose one of {', '.join(ids)},"
                                f" not {option!r}")
        told = [*fight.pending.told, *[""] * (len(fight.pending.choices)
                                               - len(fight.pending.told))]
        told.append(" ".join(fiction.split())[:MAX_FICTION])
        pending = fight.pending.model_copy(update={
            "choices": [*fight.pending.choices, option],
            "told": told if any(told) else []})
        return self._step(pending.action.replace("_", " "), pending)

    def die(self, face: int) -> list[Shown]:
        """Enter the physical die the fight waits for; the step plays on."""
        fight = require_fight(self._g.state)
        if fight.pending is None or fight.need is None or fight.need.kind == "choice":
            raise IllegalAction("no die is awaited")
        pending = fight.pending.model_copy(update={"dice": [*fight.pending.dice, int(face)]})
        sides = fight.need.sides
        if not 1 <= int(face) <= sides:
            raise IllegalAction(f"a d{sides} shows 1 to {sides}, not {face}")
        return self._step(pending.action.replace("_", " "), pending)

    def end_turn(self) -> list[Shown]:
        """End the acting character's turn (the player may also end a referee's turn
        unplayed: the referee's character holds back)."""
        fight = require_fight(self._g.state)
        self._refuse_pending()
        if fight.encounter.acting is None:
            raise IllegalAction("nobody is acting")
        # a step like any other: a resistance check at the end of the turn may await a die
        return self._step("end of turn", Pending(actor=fight.encounter.acting,
                                                 action="end_turn"))

    def referee_step(self) -> list[Shown]:
        """One step of the referee: choose the acting NPC's action (and say why), or carry
        out the action chosen, or end its turn."""
        fight = require_fight(self._g.state)
        acting = fight.encounter.acting
        if acting is None or not self.referee_turn:
            raise IllegalAction("it is not the referee's turn")
        if fight.pending is not None:
            self._refuse_pending()
            return self._step(fight.pending.action.replace("_", " "), fight.pending)
        choice = self.conflict.referee(self._g.state, acting)
        if choice.action == "end_turn":  # says why itself; may await a die, as any step
            return self._step("end of turn", choice) + self.take_planned()
        with self._g._action("referee chooses"):
            said = self._announce(acting, choice)
            if said is not None:
                self._g._emit(said)
            self._g._emit(ActionPending(pending=choice.model_dump(mode="json")))
        return self._g.last_events

    def _announce(self, acting: str, choice: Pending) -> FightActed | None:
        """The referee's choice in words ("▸ ..."); none for surrender and flight, which say
        why themselves."""
        if choice.action in ("surrender", "flee"):
            return None
        target = self._g.state.actors[choice.target].name if choice.target else ""
        return FightActed(actor=acting, action=choice.action, by="referee",
                          text="▸ " + (choice.why or _declared(self._g.state, choice, target)),
                          target=choice.target)

    def _referee_play(self) -> list[Shown]:
        """One decision of the referee, chosen and carried out in one action (said, then
        done); a pending one is carried out."""
        fight = require_fight(self._g.state)
        acting = fight.encounter.acting
        if acting is None or fight.pending is not None:
            return self.referee_step()
        choice = self.conflict.referee(self._g.state, acting)
        if choice.action == "end_turn":
            return self._step("end of turn", choice)
        return self._step(f"referee: {choice.action.replace('_', ' ')}", choice,
                          self._announce(acting, choice))

    def referee_run(self, limit: int = REFEREE_STEPS_LIMIT) -> list[Shown]:
        """Let the referee play until it is a player's turn, the fight ends, a physical die
        is awaited, or a hero of the player's who delayed may act now (its character has
        acted); each decision chosen and carried out as one action, saved on its own
        (``referee_step`` shows the choice first). The events of all the actions."""
        out: list[Shown] = []
        for _ in range(limit):
            if not self.fighting or not self.referee_turn or self.need:
                return out
            out += self._referee_play()
            out += self.take_planned()
            fight = self._g.state.fight  # a delayed hero may step in now:
            if fight and fight.encounter.acted and fight.delayed_by_player(self._g.state.actors):
                return out
        raise IllegalAction(f"the referee took {limit} steps without ending its turns")

    def take_over(self, actor: str, player: bool = True) -> list[Shown]:
        """The player plays ``actor`` (or hands it back to the referee)."""
        fight = require_fight(self._g.state)
        if actor not in self._g.state.actors or not fight.encounter.has(actor):
            raise IllegalAction(f"{actor!r} is not in the fight")
        name = self._g.state.actors[actor].name
        with self._g._action("take over" if player else "hand back"):
            self._g._emit(FightActed(actor=actor, action="control", by="engine",
                                  text=f"You play {name} now." if player else
                                  f"The referee plays {name} again."))
            self._g._emit(ControlChanged(actor=actor, by="player" if player else "referee"))
        return self._g.last_events

    def set_dice(self, referee: str) -> list[Shown]:
        """Who rolls the referee's dice: "seeded" (the campaign) or "physical" (you)."""
        require_fight(self._g.state)
        if referee not in ("seeded", "physical"):
            raise IllegalAction(f"the referee's dice are seeded or physical, not {referee!r}")
        with self._g._action("referee dice"):
            self._g._emit(RefereeDiceChanged(mode=referee))
        return self._g.last_events

    def end(self, result: str = "called off", ending: str = "") -> list[Shown]:
        """End the fight now (the story moved on); ``ending``: one of ``ENDINGS``, or ""."""
        require_fight(self._g.state)
        with self._g._action("fight ends"):
            fight = self._g.state.fight
            down = self._down(fight) if fight is not None else []
            self.conflict.ended(self._g.state, self._g._emit)
            self._g._emit(FightEnded(result=result, ending=called_ending(ending)))
            if fight is not None:
                self._remember(fight, result)
            self._clear(down)
        return self._g.last_events


_MATCHERS: dict[int, tuple[Pack, Matcher]] = {}
_BY_CONTENT: dict[tuple[object, ...], Matcher] = {}
"""Matchers by what they learnt from (a pack loaded again reuses its matcher)."""
_BUILDING = threading.Lock()
"""One build at a time: a suggestion asked while the matcher is learnt waits for it."""
_WARMING: set[int] = set()
"""Packs (by id) whose matcher is being learnt in the background."""

def _built(pack: Pack) -> Matcher | None:
    cached = _MATCHERS.get(id(pack))
    return cached[1] if cached is not None and cached[0] is pack else None


def _fight_matcher(pack: Pack, words: Mapping[str, ActionWords]) -> Matcher:
    """A matcher of the fight actions, learnt from their words (built once per pack, and
    once per content: about 0.2 s; ``warm_fight_matcher`` does it before it is asked)."""
    found = _built(pack)
    if found is not None:
        return found
    with _BUILDING:
        found = _built(pack)  # learnt in the background meanwhile
        if found is not None:
            return found
        moves = [s.Move(id=aid, name=w.name, trigger=w.summary or w.name,
                        examples=list(w.examples))
                 for aid, w in words.items() if w.kind == "action"
                 and (w.examples or w.summary)]  # none: internal steps
        no_move = tuple(pack.examples.get("none", ()))
        key = (tuple((m.id, m.name, m.trigger, tuple(m.examples)) for m in moves), no_move)
        matcher = _BY_CONTENT.get(key)
        if matcher is None:
            matcher = Matcher(moves, no_move=no_move)
            if len(_BY_CONTENT) >= 8:
                _BY_CONTENT.pop(next(iter(_BY_CONTENT)))
            _BY_CONTENT[key] = matcher
        _MATCHERS[id(pack)] = (pack, matcher)
        return matcher


def warm_fight_matcher(pack: Pack, words: Mapping[str, ActionWords]) -> None:
    """Learn ``pack``'s fight matcher in a background thread, once, so that the player's first
    words in a fight (``Fights.suggest``) do not wait for it; a suggestion asked before it is
    done waits for the rest. The fights call it when the fight is shown (``Fights.tracker``).
    A build that fails is left to the suggestion, which builds again and reports why."""
    if _built(pack) is not None or id(pack) in _WARMING:
        return
    # what learning imports (the lemmatizer of engine/nlp/english.py) is imported here, not
    # in the thread: a module imported in a thread is half made for a moment, and code that
    # looks in sys.modules (pytest.approx looks for numpy) would find it so
    import lemminflect  # noqa: F401

    _WARMING.add(id(pack))

    def build() -> None:
        try:
            _fight_matcher(pack, words)
        except Exception:  # the suggestion builds it again and says why
            pass
        finally:
            _WARMING.discard(id(pack))

    threading.Thread(target=build, name="learn fight actions", daemon=True).start()


STRONG = 0.5
"""A matched action this sure makes much fainter matches noise (``FAINT`` of it)."""
FAINT = 0.1


_LET_GO = frozenset({"drop", "let", "release", "holster", "sheathe", "stow", "pocket", "lower",
                     "discard", "ditch", "loosen", "unclench"})
"""Words of putting a weapon down: "I let my staff fall" names the staff, to let it go."""


def _lets_go(said: Said) -> bool:
    """Whether the words put something down rather than use it."""
    return bool(said.words & _LET_GO)


def _named_options(options: Sequence[FightOption], said: Said, named: Sequence[str],
                   everyone: bool, fights: bool = True) -> list[FightSuggestion]:
    """The options the words name outright, best first: a power the words name used
    ("I spread my glide cloak"), an attack named ("I stomp..." for Faultline Stomp) when
    the words do harm (``fights``: "I let my staff fall" names a weapon, to drop it)."""
    out: list[tuple[tuple[float, int], FightSuggestion]] = []
    for o in options:
        for c in o.choices if o.needs == "power" else ():
            hit = sorted(name_words(c.name) & said.words)
            if hit:
                out.append((name_fit(c.name, said), FightSuggestion(
                    action=o.action, name=o.name, words=tuple(hit), score=1.0, option=o,
                    named=c)))
    for o in options:
        if o.action != "attack" or o.attack is None or not fights:
            continue
        hit = sorted(name_words(o.attack.name) & said.words)
        best = pick([o], named, said, everyone) if hit else None
        if best is not None:
            out.append((name_fit(o.attack.name, said), replace(best, words=tuple(hit),
                                                                score=1.0)))
    # the name said best first ("crossbow stock" over "crossbow"), an attack before a power
    out.sort(key=lambda fs: (-fs[0][0], -fs[0][1], fs[1].named is not None))
    return [s for _f, s in out]


def _reordered(out: list[FightSuggestion], options: Sequence[FightOption],
               named: Sequence[str], said: Said, everyone: bool) -> list[FightSuggestion]:
    """Words that cover every foe with no attack suggested offer the area attack second
    (after the first reading: "I run from all of them" is still fleeing first)."""
    if everyone and not any(s.attack is not None for s in out):
        area = pick([o for o in options if o.action == "attack" and o.attack is not None
                     and o.attack.range == "area"], named, said, everyone)
        if area is not None:
            out.insert(min(1, len(out)), area)
    return out


def _with_maneuvers(out: list[FightSuggestion], found: Sequence[tuple[str, str]],
                    options: Sequence[FightOption], named: Sequence[str], said: Said,
                    everyone: bool) -> list[FightSuggestion]:
    """The suggestions with the maneuvers the words name declared on each attack, the first
    attack (or, with none suggested, the one that fits) first."""
    if not found:
        return out
    first = next((s for s in out if s.attack is not None), None)
    if first is None:
        first = pick([o for o in options if o.action == "attack"], named, said, everyone,
                     [m for m, _w in found])
        first = replace(first, score=1.0) if first is not None else None
    else:
        out.remove(first)
    if first is not None:  # a maneuver named: the attack it is declared with comes first
        out.insert(0, first)
    return [with_maneuvers(s, found) if s.attack is not None else s for s in out]


def _declared(state: CampaignState, p: Pending, target: str) -> str:
    """The referee's declared action, in words."""
    name = state.actors[p.actor].name
    act = p.action.replace("_", " ")
    with_ = f" with {p.attack.replace('_', ' ')}" if p.attack else ""
    at = f" at {target}" if target else ""
    moves = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in p.maneuvers.items() if v)
    extra = f" ({moves})" if moves else ""
    if p.team:
        extra += f", joined by {', '.join(state.actors[t].name for t in p.team)}"
    return f"{name}: {act}{at}{with_}{extra}."


def iter_rows(rows: Sequence[TrackerRow]) -> Iterator[str]:
    """The tracker as plain lines (the CLI and tests)."""
    for r in rows:
        mark = "▶" if r.acting else " "
        conds = ", ".join(r.conditions)
        damage = r.columns.damage if isinstance(r.columns, InitiativeColumns) else 0
        dmg = f" -{damage}" if damage else ""
        out = f" [{r.out}]" if r.out else ""
        yield f"{mark} {r.initiative:>3} {r.name}{dmg}{out}" + (f" ({conds})" if conds else "")
