"""Fights of the d20 games (M&M, panels) in the lab: one fight played to its end through the
``Game`` fight API, the referee playing the villains, a policy playing every hero.

What is recorded in the campaign's result:

- ``rolls``: a ``RollRecord`` per d20 roll a hero makes (attacks, grabs, powers, dodges,
  parries, resistance checks; routine checks with no die are skipped). ``move`` names the roll
  by its verb ("attack", "dodge", "parry", "resist", "grab", "use_power", "shake_off", ...).
  Bands: the roll's outcome with the odds of each its ``Rolled`` event gives: in the panels
  game "failure" / "minor" / "complete"; in M&M, attacks "hit" / "miss" (a critical is a
  hit) and checks, opposed ones too, "success" / "failure" (degrees of M&M checks are not
  split: the odds of their degrees are summed).
- ``samples``: after every round (and once at the end), the party's mean of each hero's
  values: "kill" and "stun" (panels: points left), "damage" (M&M: the damage track),
  "conditions" (how many), with "round", "heroes_standing" and "foes_standing".
- ``fights``: a ``FightRecord`` (rounds, steps, winner "heroes" / "villains" / "nobody",
  first: the side whose character took the first turn of round 1, turns: the turns begun,
  ending: the ``FightEnded`` event's ``ending`` when it carries one, else read from the losing
  side: "fled" or "surrendered" when one of it left so, else "knocked_out"; "stalemate").
- ``steps`` grows by every engine step of the fight (each command: the fight's start, a
  referee step, a hero's action, an answer, an end of turn); ``moves`` by each hero action.

The heroes' decisions are ``Decision``s: "fight" at a hero's turn (every allowed attack x
target, and the other allowed actions, each target or power its own choice, plus "end turn";
no maneuvers; delay and ready are never offered, and an action that costs nothing is offered
once a turn). Only attacks and grabs carry ``odds`` (the hit chance); an attack's ``value`` is
M&M's ``effect`` (the chance to hit and beat the resistance) or the panels ``down`` (the
chance to put the target down; ``expected_damage`` in data); other actions have neither (a
power's chance to work is in data), and "end turn" comes right after the choices with odds.
"response" when a panels hero is hit (take it, dodge, parry with...: odds, the damage
``avoided`` as value, ``expected`` and ``cost`` in data), "crit" for a critical hit's effect,
"question" for anything else the fight asks.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.content.loader import Pack
from engine.errors import EngineError, IllegalAction
from engine.game import Game
from engine.lab.model import (
    CampaignResult,
    Choice,
    Decision,
    FightRecord,
    LabSpec,
    RollRecord,
    Sample,
)
from engine.lab.policy import Policy
from engine.rules.base import Edit
from engine.rules.events import is_fight_roll
from engine.rules.fight.conflict import Conflict
from engine.rules.fight.dice import ROUTINE
from engine.rules.fight.values import ChoiceNeed, DieNeed
from engine.systems import ruleset_for

STALEMATE = "stalemate"
STALEMATE_ROUNDS = 60
"""A fight still going after this many rounds is called off as a stalemate (M&M: two sides
whose afflictions wear off every turn can trade blows forever); the record's winner says
"stalemate"."""


class FightNeverEnds(EngineError):
    """A fight went over the campaign's step budget (``LabSpec.max_steps``)."""

    title = "Fight never ends"


NEVER_OFFERED = frozenset({"delay", "ready"})
"""Actions the lab does not take: a held action waits for a trigger a policy cannot judge."""

TAGS: dict[str, frozenset[str]] = {
    "attack": frozenset({"attack"}),
    "charge": frozenset({"attack", "risky"}),
    "recover": frozenset({"recover", "clears_condition"}),
    "catch_breath": frozenset({"recover"}),
    "first_aid": frozenset({"heal", "first_aid", "help"}),
    "aid": frozenset({"help"}),
    "defend": frozenset({"defend"}),
    "flee": frozenset({"flee"}),
    "run": frozenset({"flee"}),
    "surrender": frozenset({"surrender"}),
    "grab": frozenset({"grab"}),
    "escape": frozenset({"escape", "clears_condition"}),
    "stand": frozenset({"clears_condition"}),
    "use_power": frozenset({"power"}),
}
"""Story tags of the fight actions (every choice is tagged with its action id too)."""

END_TURN = "end_turn"
FREE_COSTS = frozenset({"free", "none", "0 panels"})


def default_foes(pack: Pack) -> list[str]:
    """The default fight of a d20 game, as stat block ids: the weakest villain with the
    weakest group, so one hero or a small party has a fighting chance (the game's conflict
    says which: ``Conflict.default_foes``). ``IllegalAction`` for a game without fights or a
    pack without such characters.

    Measured with the greedy policy (10-12 fights each): M&M, The Tallyman and the Dockside
    Crew (6) against Keystone alone, the heroes win about 2 in 3 (12 rounds); with three
    heroes all of them. Panels, Cutglass and the Foundry Crew (5): one hero loses every time,
    two win about 1 in 5, three every time (6 rounds)."""
    conflict = ruleset_for(pack).conflict()
    if conflict is None:
        raise IllegalAction(f"{pack.system.name} has no fights in rounds (ruleset"
                            f" {pack.system.ruleset!r})")
    return conflict.default_foes()


# ---------------------------------------------------------------------------- decisions

def _heroes(game: Game) -> list[str]:
    fight = game.fight
    if fight is None:
        return []
    return [p.actor for p in fight.encounter.participants
            if game.state.actors[p.actor].kind == "hero"]


def _health(game: Game, actor: str) -> dict[str, float]:
    """One hero's tracked values (see the module's docstring; the game's conflict says
    which)."""
    return game.conflict.health(game.state, actor)


DOWN = frozenset({"incapacitated", "dying", "dead", "unconscious"})


def _standing(game: Game, actor: str, out: Mapping[str, str] | None = None) -> bool:
    """Whether ``actor`` is still in the fight (``out``: who left it, when it is over)."""
    a = game.state.actors.get(actor)
    if a is None:
        return False  # a minion the fight's end cleared from the state: it was out
    fight = game.fight
    gone = actor in (fight.out if fight is not None else out or {})
    return not gone and a.present and not (set(a.conditions) & DOWN) and not a.taken_out


def _situation(game: Game, actor: str) -> dict[str, Any]:
    mine = _health(game, actor)
    heroes = _heroes(game)
    fight = game.fight
    foes = [p.actor for p in fight.encounter.participants
            if p.actor not in heroes] if fight else []
    return {"round": fight.encounter.round if fight else 0,
            "conditions": int(mine["conditions"]), "hurt": bool(mine.get("hurt")),
            "dying_ally": any("dying" in game.state.actors[h].conditions
                              for h in heroes if h != actor),
            "innocents_in_danger": 0,
            "allies_standing": sum(1 for h in heroes if h != actor and _standing(game, h)),
            "foes_standing": sum(1 for f in foes if _standing(game, f))}


def _tags(action: str) -> frozenset[str]:
    return TAGS.get(action, frozenset()) | {action}


def fight_decision(game: Game, used: Sequence[str] = ()) -> Decision:
    """The acting hero's "fight" decision: each allowed option (an attack per target, other
    actions per target or power choice) and "end turn". ``used``: actions already taken this
    turn (one that costs nothing is not offered again)."""
    fight = game.fight
    actor = fight.encounter.acting if fight else None
    if actor is None:
        raise IllegalAction("nobody is acting")
    choices: list[Choice] = []
    for o in game.fight_options():
        action = o.action
        if not o.allowed or action in NEVER_OFFERED:
            continue
        if o.cost in FREE_COSTS and action in used:
            continue
        tags = _tags(action)
        base: dict[str, Any] = {"action": action}
        name = action.replace("_", " ")
        if o.attack is not None:
            base["attack"] = o.attack.id
            name = f"{name} with {o.attack.name or o.attack.id}"
        if o.needs and not o.choices:
            continue  # an item or action to name that the options do not list
        if o.targets:
            for t in o.targets:
                if t.why:
                    continue  # this target cannot be taken ("already holding them")
                data: dict[str, Any] = {**base, "target": t.id}
                if t.expected_damage is not None:
                    data["expected_damage"] = t.expected_damage
                choices.append(Choice(
                    id=f"{action}:{o.attack.id if o.attack else ''}:{t.id}",
                    label=f"{name} at {t.name}", odds=t.hit, value=t.value, tags=tags,
                    data=data))
            continue
        if o.target not in ("none", ""):
            continue  # a target is needed and none can be taken
        if o.needs:
            for c in o.choices:
                if c.why:
                    continue  # a power this character cannot use
                choices.append(Choice(
                    id=f"{action}:{c.id}", label=f"{name}: {c.name}", tags=tags,
                    data={**base, "options": {o.needs: c.id},
                          **({"works": c.works} if c.works is not None else {})}))
            continue
        choices.append(Choice(id=action, label=name, tags=tags, data=base))
    # ending the turn comes right after the choices with odds: a policy that falls back to
    # the first choice without odds ends its turn rather than dropping prone and standing
    at = sum(1 for c in choices if c.odds is not None)
    choices.insert(at, Choice(id=END_TURN, label="end the turn", tags=frozenset({END_TURN}),
                              data={"action": END_TURN}))
    return Decision(kind="fight", choices=tuple(choices), situation=_situation(game, actor),
                    actor=actor)


NEED_KINDS = {"response": "response", "critical": "crit"}
"""The lab's kind of decision for what a fight asks about (``ChoiceNeed.about``); anything
else is a "question"."""


def need_decision(game: Game, need: ChoiceNeed) -> Decision:
    """What the fight asks the player, as a Decision: "response" (a panels hit: take it, dodge,
    parry; odds, the damage ``avoided`` as value, ``expected`` and ``cost`` in data), "crit"
    (a critical hit's effect) or "question"."""
    if not need.choices:
        raise IllegalAction(f"the fight asks {need.question!r} with no options")
    kind = NEED_KINDS.get(need.about, "question")
    choices = []
    for o in need.choices:
        oid = o.id
        if kind == "response":
            tags = (frozenset({"take"}) if oid == "none" else
                    frozenset({"defend", "parry"}) if oid.startswith("parry") else
                    frozenset({"defend", oid}))
        elif kind == "crit":
            tags = frozenset({"crit", "roll" if oid == "roll" else "chosen"})
        else:
            tags = frozenset()
        data: dict[str, Any] = {"option": oid}
        if o.expected is not None:
            data["expected"] = o.expected
        if o.cost is not None:
            data["cost"] = o.cost
        choices.append(Choice(id=oid, label=o.label or oid, odds=o.odds, value=o.avoided,
                              tags=tags, data=data))
    situation = _situation(game, need.actor) if need.actor in game.state.actors else {}
    return Decision(kind=kind, choices=tuple(choices),
                    situation={**situation, "question": need.question}, actor=need.actor)


def pick(policy: Policy, decision: Decision, rng: random.Random) -> Choice:
    index = policy.choose(decision, rng)
    if not isinstance(index, int) or isinstance(index, bool) \
            or not 0 <= index < len(decision.choices):
        raise IllegalAction(f"policy {getattr(policy, 'name', policy)!r} chose {index!r} in a"
                            f" {decision.kind} decision of {len(decision.choices)} choices")
    return decision.choices[index]


# ---------------------------------------------------------------------------- records

VERBS = {"attack": "attack", "attacks": "attack", "team": "attack", "dodges": "dodge",
         "parries": "parry", "resists": "resist", "grabs": "grab", "breaks": "escape",
         "uses": "use_power", "shakes": "shake_off"}


def roll_record(ev: Mapping[str, Any], conflict: Conflict[Any], step: int, scene: int
                ) -> RollRecord | None:
    """The record of one fight's roll, a ``Rolled`` event (None for a routine check, with no
    die): its band and the odds it had of each (``Conflict.roll_outcome``)."""
    if ev.get("dice") == ROUTINE or not ev.get("odds"):
        return None
    words = str(ev["what"]).split()
    move = VERBS.get(words[0], words[0]) if words else "roll"
    band, odds = conflict.roll_outcome(ev, move)
    return RollRecord(move=move, band=band, step=step, scene=scene, odds=odds)


def sample(game: Game, heroes: Sequence[str], foes: Sequence[str], rounds: int, step: int,
           scene: int, out: Mapping[str, str] | None = None) -> Sample:
    """The party's values now (means over the heroes; see the module's docstring)."""
    per = [_health(game, h) for h in heroes]
    keys = sorted({k for p in per for k in p if k != "hurt"})
    values = {k: sum(p.get(k, 0.0) for p in per) / max(1, len(per)) for k in keys}
    values.update(round=float(rounds),
                  heroes_standing=float(sum(1 for h in heroes if _standing(game, h, out))),
                  foes_standing=float(sum(1 for f in foes if _standing(game, f, out))))
    return Sample(step=step, scene=scene, values=values)


WINNERS = {"the heroes win": "heroes", "the villains win": "villains"}


# ---------------------------------------------------------------------------- the fight

def fresh(game: Game, foes: Sequence[str]) -> None:
    """Each scene's fight is a new episode: the party and the foes of earlier fights start it
    whole (conditions cleared, Kill and Stun full, no damage; the dead stay dead), set through
    ``Game.edit_many`` and journaled as the lab's edit, so fights compare with each other."""
    state = game.state
    conflict = game.conflict
    who = list(state.party) + [a for a, x in state.actors.items()
                               if a in foes or x.data.get("group") in foes]
    edits: list[Edit] = []
    for actor in dict.fromkeys(who):
        if "dead" in state.actors[actor].conditions:
            continue  # the dead stay dead
        for f in game.editable(actor):
            if f.what == "condition" and f.value:
                edits.append(Edit(actor, "condition", f.key, False))
            elif f.what == "track" and f.key in conflict.full_tracks and f.max is not None \
                    and f.value != f.max:
                edits.append(Edit(actor, "track", f.key, f.max))
            elif f.what == "track" and f.key in conflict.empty_tracks and f.value != f.min:
                edits.append(Edit(actor, "track", f.key, f.min))
    if edits:
        game.edit_many(edits, "the lab: a new episode, everyone starts the fight whole")


@dataclass
class _Run:
    """One fight the lab plays: where it is, and what it has taken so far (the engine steps,
    the side that moved first, the rounds, how it ended, the acting hero's actions this turn,
    who was out)."""

    game: Game
    spec: LabSpec
    result: CampaignResult
    scene: int
    conflict: Conflict[Any]
    heroes: list[str] = field(default_factory=list)
    steps: int = 0
    first: str = ""
    rounds: int = 0
    ended: str = ""
    used: list[str] = field(default_factory=list)
    turn: tuple[int, str] | None = None
    out: dict[str, str] = field(default_factory=dict)
    turns: int = 0
    ending: str = ""
    left: dict[str, str] = field(default_factory=dict)

    def take(self, events: Sequence[Mapping[str, Any]]) -> None:
        """Count one engine step and read its events; ``FightNeverEnds`` past the campaign's
        step budget."""
        self.steps += 1
        if self.game.fight is not None:
            self.out = dict(self.game.fight.out)
        self.result["steps"] += 1
        for ev in events:
            self._read(ev)
        if self.result["steps"] > self.spec.max_steps:
            raise FightNeverEnds(f"the fight of scene {self.scene} passed {self.spec.max_steps}"
                                 f" steps (campaign seed {self.result['seed']}, round"
                                 f" {self.rounds})")

    def _read(self, ev: Mapping[str, Any]) -> None:
        """One event: a hero's fight roll recorded, round 1's first side, the fight's end."""
        kind = ev.get("type")
        if kind == "Rolled" and is_fight_roll(ev) and ev.get("actor") in self.heroes:
            rec = roll_record(ev, self.conflict, self.result["steps"], self.scene)
            if rec is not None:
                self.result["rolls"].append(rec)
        elif kind == "TurnBegan":
            self.turns += 1
            if not self.first and int(ev.get("round", 0)) == 1:
                self._first(ev)
        elif kind == "CombatantLeft":
            self.left[str(ev.get("actor"))] = str(ev.get("how", ""))
        elif kind == "FightEnded":
            self.ended = str(ev.get("result", ""))
            self.ending = str(ev.get("ending") or "")

    def _first(self, ev: Mapping[str, Any]) -> None:
        """Round 1's first side, from its first ``TurnBegan``."""
        fight = self.game.fight
        who = str(ev.get("actor"))
        part = fight.encounter.participant(who) if fight and fight.encounter.has(
            who) else None
        self.first = part.side if part is not None else (
            "heroes" if who in self.heroes else "villains")

    def how_ended(self, winner: str) -> str:
        """The fight's ending (see the module's docstring)."""
        if self.ending:
            return self.ending
        if winner == STALEMATE:
            return STALEMATE
        if winner not in ("heroes", "villains"):
            return "knocked_out" if "win" in self.ended else ""
        hows = [h for a, h in self.left.items()
                if (a in self.heroes) == (winner == "villains")]
        return "fled" if "fled" in hows else "surrendered" if "surrendered" in hows \
            else "knocked_out"


def _new_round(run: _Run, others: Sequence[str]) -> bool:
    """At a round's start: the last round's sample, and a stalemate called past
    ``STALEMATE_ROUNDS`` (then False: the fight is over)."""
    game = run.game
    fight = game.fight
    assert fight is not None
    if fight.encounter.round <= run.rounds:
        return True
    if run.rounds:
        run.result["samples"].append(sample(game, run.heroes, others, run.rounds,
                                            run.result["steps"], run.scene))
    run.rounds = fight.encounter.round
    if run.rounds > STALEMATE_ROUNDS and game.fight_need is None:
        run.take(game.end_fight(f"stalemate: nobody could finish it in {STALEMATE_ROUNDS}"
                                " rounds", ending=STALEMATE))
        run.ended = STALEMATE
        return False
    return True


def _hero_turn(run: _Run, policy: Policy, rng: random.Random) -> None:
    """The acting hero's next action, ``policy``'s pick (each action once a turn), or the
    end of its turn."""
    game = run.game
    fight = game.fight
    assert fight is not None
    acting = fight.encounter.acting
    if acting is None:
        raise IllegalAction("the fight has nobody acting and no referee turn")
    key = (fight.encounter.round, acting)
    if run.turn != key:
        run.turn, run.used = key, []
    decision = fight_decision(game, run.used)
    if len(decision.choices) == 1:  # nothing left but ending the turn
        run.take(game.end_turn())
        return
    choice = pick(policy, decision, rng)
    data = choice.data
    action = str(data["action"])
    if action == END_TURN:
        run.take(game.end_turn())
        return
    run.used.append(action)
    run.result["moves"] += 1
    run.take(game.fight_act(action, target=data.get("target"), attack=data.get("attack"),
                            options=data.get("options")))


def _fight_step(run: _Run, policy: Policy, rng: random.Random, others: Sequence[str]
                ) -> bool:
    """One engine step of the fight: an answer to what it waits for, the referee's step, or
    a hero's action; False when a stalemate ended it."""
    game = run.game
    if not _new_round(run, others):
        return False
    need = game.fight_need
    if need is not None:
        if isinstance(need, DieNeed):
            raise IllegalAction(f"the lab rolls seeded dice, but the fight waits for a"
                                f" d{need.sides}: {need.who}")
        choice = pick(policy, need_decision(game, need), rng)
        run.take(game.fight_choose(choice.id))
    elif game.referee_turn:
        run.take(game.referee_step())
    else:
        _hero_turn(run, policy, rng)
    return True


def _begin(run: _Run, foes: list[str]) -> list[str] | None:
    """The fight started against ``foes`` (or the one under way joined, its first side read
    from round 1's turn order); the characters not of the party, or None when no hero can
    fight."""
    game = run.game
    under_way = game.fight
    if under_way is None and run.scene > 1:
        fresh(game, foes)
    if under_way is None and not any(_standing(game, h) for h in game.state.party
                                     if h in game.state.actors):
        return None  # nobody left to fight (the party is down or dead): no fight, no record
    events = [] if under_way is not None else game.start_fight(foes)
    run.heroes = _heroes(game)
    fight = game.fight
    others = [p.actor for p in fight.encounter.participants
              if p.actor not in run.heroes] if fight else []
    if under_way is None:
        run.take(events)
    elif under_way.encounter.round == 1 and under_way.encounter.order:
        enc = under_way.encounter  # a move started it: round 1's first in the turn order
        run.first = enc.participant(enc.order[0]).side if enc.has(enc.order[0]) else ""
    return others


def play_fight(game: Game, spec: LabSpec, policy: Policy, rng: random.Random,
               result: CampaignResult, scene: int) -> None:
    """Play one fight against ``spec.foes`` (or ``default_foes``) to its end (the fight under
    way instead, when a move already started one; its first mover is then read from round
    1's turn order, "nobody" once round 1 is over): the referee
    plays its side step by step, ``policy`` decides for every hero. Appends to ``result``
    (see the module's docstring); when no hero of the party can fight (all down, dead or
    taken out), no fight starts and nothing is recorded. ``FightNeverEnds`` when the
    campaign's steps pass ``spec.max_steps``; a policy's error propagates."""
    conflict = game.conflict
    foes = [] if game.fighting else list(spec.foes) or default_foes(game.pack)
    run = _Run(game, spec, result, scene, conflict)
    others = _begin(run, foes)
    if others is None:
        return
    while game.fighting and _fight_step(run, policy, rng, others):
        pass
    result["samples"].append(sample(game, run.heroes, others, run.rounds, result["steps"],
                                    scene, run.out))
    winner = STALEMATE if run.ended == STALEMATE else WINNERS.get(run.ended, "nobody")
    result["fights"].append(FightRecord(rounds=run.rounds, steps=run.steps, winner=winner,
                                        first=run.first or "nobody", turns=run.turns,
                                        ending=run.how_ended(winner)))
