"""``Conflict``: how a game runs a fight in rounds, once for every game.

The base runs what every such game shares: declaring an action (its turn, its cost, its
target), resolving it through the game's action table, the turn loop (a turn begins, those who
cannot act are skipped, the next begins, a round wraps), leaving the fight, the end of a turn,
who is left standing, and the skeleton of the tracker and the options. A game overrides the
hooks where its rules differ:

- ``step_class``: its ``Step`` (what its rules read: stat blocks, conditions, checks)
- ``can_act``, ``turn_started``, ``turn_skipped``, ``turn_ended``, ``round_dice``: its turns
- ``option`` and ``adjust_options``: what it offers (``values.FightOption``); ``row``: its
  tracker columns (``values.TrackerRow``)
- ``pick_target``, ``checked``, ``special``: its declarations
- ``run``: how an action's handler runs (M&M: hero points)
- ``start``, ``join``, ``referee``, ``odds``, ``foe_options``, ``ended``: the rest of its game
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar, Generic, TypeVar

from engine.content.loader import Pack, read_by_mtime, read_yaml
from engine.errors import IllegalAction
from engine.odds import from_percent
from engine.rules import encounter as en
from engine.rules.fight import events as fe
from engine.rules.fight.actions import ActionRule, ActionTable
from engine.rules.fight.dice import Emit, Roll
from engine.rules.fight.foes import side_of, standing_side
from engine.rules.fight.state import Pending
from engine.rules.fight.step import Step, TurnLoop
from engine.rules.fight.values import (
    ActionWords,
    FightAttack,
    FightOption,
    FightTarget,
    FoeOption,
    TrackerRow,
)
from engine.rules.state import CampaignState

S = TypeVar("S", bound=Step)

SKIPS_PER_PARTICIPANT = 12
"""How many turns in a row may be skipped (those who cannot act), per participant, before
the fight is called stuck: enough for several rounds of side initiative."""

ACTIONS_FILE = "actions.yaml"
"""The pack file with the words of a game's fight actions (and maneuvers)."""


_WORDS: dict[tuple[type, Path], tuple[object, dict[str, ActionWords]]] = {}
"""Each game's action words by its pack's file, with the file's contents they came from."""


class Conflict(ABC, Generic[S]):
    """How a game runs a fight. Methods read the state and emit events (applied at once),
    rolling through ``roll``; a method that raises leaves the engine to roll everything back.

    ``initiative`` says how turns are ordered: "each" (everyone rolls once, a surprise round
    may open the fight) or "side" (each side rolls a die every round; no surprise round)."""

    initiative: ClassVar[str] = "each"
    spec: ClassVar[en.BudgetSpec] = en.BudgetSpec()
    """What a turn allows."""
    actions: ClassVar[ActionTable[Any]]
    """The game's actions."""
    step_class: ClassVar[type[Step]] = Step
    word_groups: ClassVar[tuple[tuple[str, tuple[str, ...]], ...]] = ()
    """Kinds of words actions.yaml gives besides actions (M&M: maneuvers), with their ids."""
    word_aliases: ClassVar[dict[str, str]] = {}
    """Actions whose words the pack keeps under another id."""
    tracker_style: ClassVar[str] = "initiative"
    """How a front end draws the tracker: "initiative" (the order, damage, conditions) or
    "panels" (each side's d6 and panels, panels left and owed, Kill and Stun)."""

    def __init__(self, pack: Pack) -> None:
        self.pack = pack
        self.actions.seal()
        self._words: tuple[object, dict[str, ActionWords]] | None = None
        """The words last read (with the file's contents they came from)."""

    def step(self, state: CampaignState, roll: Roll | None = None,
             emit: Emit | None = None) -> S:
        """The context of one step of the fight under way (``IllegalAction`` without one)."""
        if state.fight is None:
            raise IllegalAction("there is no fight under way")
        step: S = self.step_class(self, state, roll, emit)  # type: ignore[assignment]
        return step

    # ------------------------------------------------------------------ hooks: turns

    def can_act(self, step: S, actor: str) -> str | None:
        """Why ``actor`` cannot act this turn (None: it can)."""
        return "is out of the fight" if step.out(actor) else None

    def turn_started(self, step: S, actor: str) -> None:
        """A turn ``actor`` can act in has begun (M&M caps a dazed character's budget)."""

    def turn_skipped(self, step: S, actor: str) -> None:
        """``actor``'s turn is skipped (M&M: it lets go of whom it holds)."""

    def turn_ended(self, step: S, adv: en.Advance) -> None:
        """A turn has ended (M&M resists ongoing effects)."""

    def round_dice(self, step: S) -> list[int] | None:
        """The dice a new round needs, rolled now when the next turn begins one (the panels
        game's side d6s); None: none."""
        return None

    # ------------------------------------------------------------------ the turn loop

    def begun(self, step: S, adv: en.Advance) -> None:
        """A turn has begun: say so; skip those who cannot act (their turns end at once)."""
        fresh = False
        for _ in range(len(step.enc.participants) * SKIPS_PER_PARTICIPANT
                       + SKIPS_PER_PARTICIPANT):
            started = adv.started
            fresh = fresh or adv.new_round
            if started is None:
                return
            why = self.can_act(step, started)
            if not step.out(started):
                step.emit(fe.TurnBegan(actor=started, round=step.enc.round, new_round=fresh))
                fresh = False
            if why is None:
                self.turn_started(step, started)
                return
            self.turn_skipped(step, started)
            if not step.out(started):
                step.say(started, "skip", f"{step.name(started)} {why}.")
            if step.over():
                return
            adv = step.advance(self.round_dice(step))
            self.turn_ended(step, adv)
        raise IllegalAction("nobody in the fight can act")

    def next_turn(self, step: S) -> None:
        """End the acting character's turn and begin the next one that can act."""
        if step.over():
            return
        adv = step.advance(self.round_dice(step))
        self.turn_ended(step, adv)
        self.begun(step, adv)

    def leave(self, step: S, p: Pending, how: str, words: str) -> None:
        """``p.actor`` leaves the fight (fled, surrendered); on its own turn the next begins.
        When nobody would be left to take a turn, no new round begins."""
        actor = p.actor
        standing = {side_of(step.state, x.actor) for x in step.enc.participants
                    if x.present and x.actor != actor and not step.out(x.actor)}
        last = len(standing) < 2
        step.say(actor, how, f"{step.name(actor)} {words}.", why=p.why, by=p.by)
        if last:  # the fight ends so (FightEnded.ending)
            step.note(fe.ENDING_KEY, how)
        rolls = None if last else self.round_dice(step)
        adv = None if last else en.leave(step.enc, actor, step.spec, rolls)
        step.emit(fe.CombatantLeft(actor=actor, how=how, rolls=rolls, last=last))
        if adv is not None:
            self.turn_ended(step, adv)
            self.begun(step, adv)

    # ------------------------------------------------------------------ declaring

    def special(self, step: S, actor: str, action: str, target: str | None,
                attack: str | None, maneuvers: Mapping[str, int], options: Mapping[str, Any]
                ) -> Pending | None:
        """An action this game declares its own way (M&M: a readied action off one's turn),
        or None for the ordinary checks."""
        return None

    def cannot_pay(self, step: S, actor: str, rule: ActionRule[Any]) -> str | None:
        """Why ``actor`` cannot pay for ``rule`` now (None: it can)."""
        kind, cost = (rule.cost, 1) if isinstance(rule.cost, str) else (en.PANEL, rule.cost)
        if kind in ("none", "free") or en.can(step.enc, step.spec, actor, kind, cost):
            return None
        return f"{step.name(actor)} has no {kind} action left this turn"

    def ally_pool(self, step: S, actor: str) -> tuple[list[str], str]:
        """The allies an action aimed at an ally may target, and what they are, in words
        (the panels game's first aid: the allies at 0 Kill)."""
        return step.allies(actor), "an ally still in the fight"

    def pick_target(self, step: S, actor: str, rule: ActionRule[Any], target: str | None,
                    attack: str | None, options: Mapping[str, Any]) -> str | None:
        """The action's target: the one given (checked), or the only one possible."""
        pool, allies = self.ally_pool(step, actor) if rule.target == "ally" else ([], "")
        if rule.target == "foe":
            pool = step.foes(actor)
        if rule.target in ("foe", "ally") and target is None:
            if len(pool) != 1:
                which = "whom" if rule.target == "foe" else "which ally"
                raise IllegalAction(f"{rule.id.replace('_', ' ')}: {which}? ("
                                    f"{', '.join(step.name(f) for f in pool) or 'nobody'})")
            return pool[0]
        if target is not None:
            if target not in step.state.actors:
                raise IllegalAction(f"no character {target!r}")
            if rule.target == "foe" and target not in pool:
                raise IllegalAction(f"{step.name(target)} is not a foe still in the fight")
            if rule.target == "ally" and target not in pool:
                raise IllegalAction(f"{step.name(target)} is not {allies}")
        return target

    def checked(self, step: S, pending: Pending, rule: ActionRule[Any]) -> Pending:
        """The declared action, once the game's own checks pass (``IllegalAction`` else)."""
        return pending

    def check_maneuvers(self, step: S, maneuvers: Mapping[str, int]) -> None:
        """``IllegalAction`` for maneuvers this game does not have."""
        if any(maneuvers.values()):
            raise IllegalAction(f"{self.pack.system.name} has no maneuvers")

    def declare(self, state: CampaignState, actor: str, action: str, target: str | None,
                attack: str | None, maneuvers: Mapping[str, int], options: Mapping[str, Any]
                ) -> Pending:
        """Check an action can be taken now (``IllegalAction`` says why not); it, pending."""
        found = self.special(self.step(state), actor, action, target, attack, maneuvers,
                             options)
        if found is not None:
            return found
        return self.ordinary(state, actor, action, target, attack, maneuvers, options)

    def ordinary(self, state: CampaignState, actor: str, action: str, target: str | None,
                 attack: str | None, maneuvers: Mapping[str, int], options: Mapping[str, Any]
                 ) -> Pending:
        """The ordinary checks of a declared action: its turn, its cost, its target, then the
        game's own (``checked``)."""
        step = self.step(state)
        rule = self.actions.require(action)
        self.check_maneuvers(step, maneuvers)
        if step.enc.acting != actor:
            who = step.name(step.enc.acting) if step.enc.acting else "nobody"
            raise IllegalAction(f"it is {who}'s turn, not {step.name(actor)}'s")
        why = self.cannot_pay(step, actor, rule)
        if why:
            raise IllegalAction(why)
        target = self.pick_target(step, actor, rule, target, attack, options)
        pending = Pending(actor=actor, action=action, target=target, attack=attack,
                          maneuvers=dict(maneuvers), options=dict(options))
        return self.checked(step, pending, rule)

    # ------------------------------------------------------------------ resolving

    def run(self, step: S, rule: ActionRule[Any], pending: Pending) -> None:
        """Run an action's handler (a game may wrap it: M&M's hero points)."""
        rule.handler(step, pending)

    def settle(self, step: S) -> None:
        """A step begins: nothing pending, no die or answer awaited any more."""
        if step.fight.pending is not None or step.fight.need is not None:
            step.emit(fe.ActionPending())

    def resolve(self, state: CampaignState, pending: Pending, roll: Roll, emit: Emit) -> None:
        """Carry out a pending action: its rolls, their consequences and what it costs."""
        step = self.step(state, roll, emit)
        self.settle(step)
        self.run(step, self.actions.require(pending.action), pending)

    def end_turn(self, state: CampaignState, roll: Roll, emit: Emit) -> None:
        """End the acting character's turn and begin the next one that can act."""
        step = self.step(state, roll, emit)
        self.settle(step)
        self.next_turn(step)

    # ------------------------------------------------------------------ reading

    def finished(self, state: CampaignState) -> str | None:
        """'heroes' or 'villains' when only one side has anyone left who can act ('nobody'
        when none has), else None."""
        if state.fight is None:
            return None
        return standing_side(state, state.fight, self.step(state).out)

    def ended(self, state: CampaignState, emit: Emit) -> None:
        """What the end of a fight does to its characters, just before ``FightEnded``."""

    def option(self, step: S, actor: str, rule: ActionRule[Any], mine: bool
               ) -> list[FightOption]:
        """The options ``rule`` gives ``actor`` now (none: not offered)."""
        return [FightOption(action=rule.id, name=self.action_name(rule.id), cost=str(rule.cost),
                            allowed=mine, target=rule.target)]

    def adjust_options(self, step: S, actor: str, out: list[FightOption]
                       ) -> list[FightOption]:
        """The options list as the game's other rules change it (held, prone...)."""
        return out

    def options(self, state: CampaignState, actor: str) -> list[FightOption]:
        """What ``actor`` may do now, each with its cost, targets and exact odds."""
        step = self.step(state)
        mine = step.enc.acting == actor
        out: list[FightOption] = []
        for rule in self.actions.rules():
            if rule.internal or rule.id == "end_turn":
                continue
            out += self.option(step, actor, rule, mine)
        return self.adjust_options(step, actor, out)

    def attacks(self, state: CampaignState, actor: str) -> list[FightAttack]:
        """``actor``'s attacks as its options name them (``FightOption.attack``, each once, in
        the options' order), without their odds: what a command or a script may name. The
        base reads them off the options; a game lists them directly."""
        found: dict[str, FightAttack] = {}
        for o in self.options(state, actor):
            if o.attack is not None:
                found.setdefault(o.attack.id, o.attack)
        return list(found.values())

    def row(self, step: S, actor: str, base: TrackerRow) -> TrackerRow:
        """``actor``'s tracker row with the game's columns (``base``: the common ones)."""
        return base

    def tracker(self, state: CampaignState) -> list[TrackerRow]:
        """The initiative tracker's rows, in turn order."""
        step = self.step(state)
        fight, enc = step.fight, step.enc
        rows = []
        for a in en.listed(enc):
            p = enc.participant(a)
            actor = state.actors[a]
            base = TrackerRow(actor=a, name=actor.name, side=p.side, initiative=p.initiative,
                              acting=enc.acting == a, control=fight.controller(actor),
                              out=fight.out.get(a) or ("down" if step.out(a) else ""),
                              present=p.present,
                              acted=p.last_round == enc.round and enc.acting != a)
            rows.append(self.row(step, a, base))
        return rows

    def words(self) -> dict[str, ActionWords]:
        """Each action's (and maneuver's) name, summary and example fictions, from the
        pack's actions.yaml; an action it does not name gets its id as its name. The file is
        read (its time checked) once per ``Conflict``: the game makes one per command, whose
        every option and tracker row names its actions."""
        if self._words is not None:
            return self._words[1]
        path = self.pack.path / ACTIONS_FILE
        loaded = read_by_mtime(path, read_yaml)
        known = _WORDS.get((type(self), path))
        if known is not None and known[0] is loaded:  # the same file's words, made before
            self._words = known
            return known[1]
        raw: dict[str, Any] = loaded if isinstance(loaded, dict) else {}
        out: dict[str, ActionWords] = {}
        groups = (("action", tuple(self.actions.words_ids())), *self.word_groups)
        for kind, ids in groups:
            given = raw.get(f"{kind}s") or {}
            for aid in ids:
                entry = given.get(aid) or given.get(self.word_aliases.get(aid, "")) \
                    if isinstance(given, dict) else None
                entry = entry if isinstance(entry, dict) else {}
                out[aid] = ActionWords(
                    id=aid, name=str(entry.get("name") or aid.replace("_", " ").capitalize()),
                    summary=str(entry.get("summary") or ""),
                    examples=tuple(str(x) for x in entry.get("examples") or []),
                    cues=tuple(str(x) for x in entry.get("cues") or []),
                    kind="maneuver" if kind == "maneuver" else "action")
        self._words = _WORDS[(type(self), path)] = (loaded, out)
        return out

    def action_name(self, action: str) -> str:
        """The name of an action (or maneuver): the pack's, else its id in words."""
        found = self.words().get(action)
        return found.name if found is not None else action.replace("_", " ").capitalize()

    # ------------------------------------------------------------------ what the lab reads

    full_tracks: ClassVar[frozenset[str]] = frozenset()
    """Tracks a fresh fight starts full (the panels game's Kill and Stun)."""
    empty_tracks: ClassVar[frozenset[str]] = frozenset()
    """Tracks a fresh fight starts empty (M&M's damage penalty)."""

    def blocks(self) -> Mapping[str, Any]:
        """The pack's stat blocks by id (``ContentError`` when they cannot be read)."""
        return {}

    def stat_blocks(self) -> list[str]:
        """The ids of the pack's stat blocks a fight may name."""
        return list(self.blocks())

    def default_foes(self) -> list[str]:
        """The stat block ids of a default fight (the lab's): ``IllegalAction`` when the
        pack has none."""
        raise IllegalAction(f"{self.pack.path}: no villains or minions to fight in its"
                            " characters")

    def health(self, state: CampaignState, actor: str) -> dict[str, float]:
        """One character's tracked values for the lab: its conditions, and the game's (how
        hurt it is; "hurt" 1.0 when badly so)."""
        return {"conditions": float(len(state.actors[actor].conditions))}

    def roll_outcome(self, e: Mapping[str, Any], move: str) -> tuple[str, dict[str, float]]:
        """The band of a fight's roll (its ``Rolled`` event) and the odds it had of each band
        (``move``: what the roll was for, as the lab names it): the event's own, each
        outcome with its chance; a game may group them."""
        return str(e["band"]), {b: from_percent(p) for b, p in e["odds"].items()}

    # ------------------------------------------------------------------ the game's own

    @abstractmethod
    def start(self, state: CampaignState, foes: Sequence[str], surprised: Sequence[str],
              roll: Roll, emit: Emit) -> None:
        """Bring ``foes`` (actor ids or stat block ids) and the party into a new fight."""

    @abstractmethod
    def join(self, state: CampaignState, who: str, roll: Roll, emit: Emit) -> None:
        """Bring a late joiner into the fight under way."""

    @abstractmethod
    def odds(self, state: CampaignState, actor: str, attack: str, target: str,
             maneuvers: Mapping[str, int]) -> FightTarget:
        """The exact odds of an attack on a target with these maneuvers."""

    @abstractmethod
    def foe_options(self, state: CampaignState) -> list[FoeOption]:
        """Who a fight may be against."""

    @abstractmethod
    def referee(self, state: CampaignState, actor: str) -> Pending:
        """The referee's choice for ``actor``'s turn, with its reason."""


__all__ = ["ACTIONS_FILE", "Conflict"]


def _is_turn_loop(conflict: Conflict[Any]) -> TurnLoop:
    """mypy checks here that a conflict is what its steps take it for (``TurnLoop``)."""
    return conflict
