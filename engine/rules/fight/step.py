"""``Step``: the context one step of a fight runs in, the same for every game.

It reads the fight as it stands (the campaign state's ``fight``, changed by each event as it
is emitted), rolls through the step's dice and asks through its choices, tells the fight's
story, and changes the fight only by emitting the events of the encounter's transitions. A
game's step subclasses it with what its rules read (stat blocks, conditions, checks).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from engine.content.loader import Pack
from engine.errors import IllegalAction
from engine.rules import encounter as en
from engine.rules.events import Event
from engine.rules.fight import events as fe
from engine.rules.fight.dice import Die, Emit, Roll
from engine.rules.fight.foes import side_of
from engine.rules.fight.state import Fight, Pending
from engine.rules.fight.values import ActionWords, FightChoice
from engine.rules.state import CampaignState


class TurnLoop(Protocol):
    """What a step and its game's actions use of the conflict that made it (the ``Conflict``
    base provides it all): the turn loop's moves and the ordinary checks of an action."""

    pack: Pack

    def begun(self, step: Any, adv: en.Advance) -> None:
        """A turn has begun."""

    def turn_ended(self, step: Any, adv: en.Advance) -> None:
        """A turn has ended."""

    def next_turn(self, step: Any) -> None:
        """End the acting character's turn and begin the next."""

    def leave(self, step: Any, p: Pending, how: str, words: str) -> None:
        """``p.actor`` leaves the fight."""

    def ordinary(self, state: CampaignState, actor: str, action: str, target: str | None,
                 attack: str | None, maneuvers: Mapping[str, int], options: Mapping[str, Any]
                 ) -> Pending:
        """The ordinary checks of a declared action."""

    def words(self) -> dict[str, ActionWords]:
        """The pack's words for the game's actions and maneuvers, by id."""


def require_fight(state: CampaignState) -> Fight:
    """The fight under way; ``IllegalAction`` when there is none."""
    if state.fight is None:
        raise IllegalAction("there is no fight under way")
    return state.fight


class Step:
    """One step of a fight: the state, the game's conflict, the dice and the way to emit."""

    def __init__(self, conflict: TurnLoop, state: CampaignState, roll: Roll | None = None,
                 emit: Emit | None = None) -> None:
        self.conflict = conflict
        self.pack: Pack = conflict.pack
        self.state = state
        self._roll, self._emit = roll, emit

    # -------------------------------------------------------------- reading
    @property
    def fight(self) -> Fight:
        """The fight as it stands (``IllegalAction`` when there is none)."""
        fight = self.state.fight
        if fight is None:
            raise IllegalAction("there is no fight under way")
        return fight

    @property
    def enc(self) -> en.Encounter:
        """The encounter as it stands."""
        return self.fight.encounter

    @property
    def spec(self) -> en.BudgetSpec:
        """What a turn allows."""
        return self.fight.spec

    def name(self, actor_id: str) -> str:
        """A character's name."""
        return self.state.actors[actor_id].name

    def down(self, actor_id: str) -> bool:
        """Whether the character is down by the game's rules (its conditions); none here."""
        return False

    def out(self, actor_id: str) -> bool:
        """Whether the character is out of the fight: down, fled, surrendered or gone."""
        return actor_id in self.fight.out or self.down(actor_id) or not self.enc.has(actor_id)

    def ranked(self) -> list[en.Participant]:
        """Those present, in turn order."""
        return [p for p in en.ranked(self.enc.participants) if p.present]

    def foes(self, actor_id: str) -> list[str]:
        """The other side's characters still in the fight, in turn order."""
        side = side_of(self.state, actor_id)
        return [p.actor for p in self.ranked() if side_of(self.state, p.actor) != side
                and not self.out(p.actor)]

    def allies(self, actor_id: str) -> list[str]:
        """The same side's other characters still in the fight, in turn order."""
        side = side_of(self.state, actor_id)
        return [p.actor for p in self.ranked() if p.actor != actor_id
                and side_of(self.state, p.actor) == side and not self.out(p.actor)]

    def over(self) -> bool:
        """Whether fewer than two sides have anyone left who can act."""
        sides = {side_of(self.state, p.actor) for p in self.enc.participants
                 if p.present and not self.out(p.actor)}
        return len(sides) < 2

    def effects_on(self, actor_id: str, what: str | None = None) -> list[en.Effect]:
        """The encounter's effects on a character (named ``what``, when given)."""
        return [e for e in self.enc.effects if e.target == actor_id
                and (what is None or e.what == what)]

    # -------------------------------------------------------------- the story
    def emit(self, e: Event) -> None:
        """Apply an event now."""
        if self._emit is None:
            raise IllegalAction("this step only reads the fight")
        self._emit(e)

    def say(self, actor: str, action: str, text: str, target: str | None = None,
            why: str = "", by: str = "engine") -> None:
        """A line of the fight's story."""
        self.emit(fe.FightActed(actor=actor, action=action, text=text, target=target, why=why,
                                by=by))

    def die(self, actor: str, what: str, sides: int = 20, odds: str = "") -> Die:
        """One die for ``actor`` (seeded, or entered by the player)."""
        if self._roll is None:
            raise IllegalAction("this step rolls no dice")
        return self._roll(actor, what, sides, odds)

    def ask(self, actor: str, question: str, options: Sequence[FightChoice],
            default: str, about: str = "") -> str:
        """The player's choice for a character the player plays; ``default`` otherwise
        (``about``: what is asked, as ``NeedChoice`` says)."""
        if self._roll is None:
            raise IllegalAction("this step asks nothing")
        return self._roll.ask(actor, question, options, default, about)

    # -------------------------------------------------------------- the fight's changes
    def advance(self, rolls: Sequence[int] | None = None) -> en.Advance:
        """End the acting character's turn and begin the next (``rolls``: a new round's
        side dice)."""
        adv = en.next_turn(self.enc, self.spec, rolls)
        self.emit(fe.TurnAdvanced(rolls=list(rolls) if rolls is not None else None))
        return adv

    def spend(self, actor: str, kind: str, cost: int = 1) -> None:
        """Pay for an action from the turn's budget (or, off-turn, as a reaction)."""
        en.spend(self.enc, self.spec, actor, kind, cost)  # IllegalAction before any event
        self.emit(fe.BudgetSpent(actor=actor, kind=kind, cost=cost))

    def limit(self, actor: str, allowed: Mapping[str, int]) -> None:
        """Cap the acting character's budget."""
        self.emit(fe.BudgetLimited(actor=actor, allowed=dict(allowed)))

    def grant(self, actor: str, kind: str, count: int = 1) -> None:
        """Give the acting character ``count`` more of ``kind``."""
        en.grant(self.enc, kind, count)
        self.emit(fe.BudgetGranted(actor=actor, kind=kind, count=count))

    def owe(self, actor: str, count: int = 1) -> None:
        """``actor`` loses its next panel(s): more owed, at most the arrears limit (negative:
        one repaid)."""
        self.emit(fe.ArrearsOwed(actor=actor, count=count))

    def add_effect(self, source: str, target: str, what: str, duration: en.DurationKind, *,
                   anchor: str | None = None, rounds: int = 1, ongoing: bool = False,
                   data: Mapping[str, int | str] | None = None) -> en.Effect:
        """Add a timed effect to the encounter; the effect."""
        _, eff = en.add_effect(self.enc, source=source, target=target, what=what,
                               duration=duration, anchor=anchor, rounds=rounds,
                               ongoing=ongoing, data=data)
        self.emit(fe.EffectAdded(source=source, target=target, what=what, duration=duration,
                                 anchor=anchor, rounds=rounds, ongoing=ongoing,
                                 data=dict(data or {})))
        return eff

    def end_effects(self, gone: Sequence[en.Effect]) -> None:
        """End the effects given (nothing when there are none)."""
        if gone:
            targets = {e.target for e in gone}
            self.emit(fe.EffectsEnded(effects=[e.id for e in gone],
                                      target=targets.pop() if len(targets) == 1 else ""))

    def note_effect(self, effect: en.Effect, **data: int | str) -> None:
        """Add ``data`` to what an effect keeps."""
        self.emit(fe.EffectNoted(effect=effect.id, data=dict(data), target=effect.target))

    def note(self, key: str, value: Any) -> None:
        """Keep ``value`` for the fight under ``key`` (None: forget it)."""
        if self.fight.data.get(key) != value:
            self.emit(fe.FightNoted(key=key, value=value))

    def hold(self, target: str, hold: Mapping[str, int | str] | None) -> None:
        """``target`` is held (``hold``: {by, ...}) or let go (None)."""
        self.emit(fe.HoldSet(target=target, hold=dict(hold) if hold is not None else None))

    def used_recovery(self, actor: str) -> None:
        """``actor`` used its once-a-fight recovery."""
        self.emit(fe.RecoveryUsed(actor=actor))


__all__ = ["Step", "require_fight"]
