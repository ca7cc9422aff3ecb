"""The all-or-nothing action: one object owns the campaign's state while it is played, and
every change to it. Inside ``action`` each emitted event is applied to the state at once; at
the end they are saved together, or, if anything raises, none is and the state is rebuilt from
the last save. ``undo`` takes the last saved action back.

The parts of ``Game`` (the move flow, the fight flow, the party, the GM's tools, the ledger,
hand edits) change the state only through this object."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from engine.errors import IllegalAction
from engine.persistence import Persistence
from engine.rules import events as ev
from engine.rules.events.shown import Shown
from engine.rules.registry import Registry
from engine.rules.state import CampaignState


class Transaction:
    """The campaign's state and the one way to change it: an action of events."""

    def __init__(self, state: CampaignState, store: Persistence, registry: Registry,
                 after_emit: Callable[[ev.Event], None] | None = None) -> None:
        self.state = state
        """The campaign's state now (replaced, not changed, on a rollback or an undo)."""
        self.store = store
        """Where actions are saved."""
        self.registry = registry
        """The campaign's ruleset's registry: what applies each event."""
        self.after_emit = after_emit
        """Called with each event once it is applied (a move's effect may start a fight)."""
        self.last_events: list[Shown] = []
        """The events of the last action, as front ends read them."""
        self._events: list[dict[str, Any]] = []
        self._shown: list[Shown] = []
        self._new_chunk = False
        self._saved: dict[str, Any] = state.saved()

    @contextmanager
    def action(self, label: str) -> Iterator[None]:
        """One player action: all its events are applied and saved, or none are.

        The state before an action is always the last one saved, so a failed action rolls
        back by rebuilding from that dump: nothing is copied on the happy path.
        """
        self._events = []
        self._shown = []
        self._new_chunk = False
        try:
            self.emit(ev.ActionStarted(label=label))  # the next action (the log's "a" says)
            yield
            events = self._events
            dump = self.state.saved()
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

    def emit(self, e: ev.Event) -> None:
        """Apply ``e`` to the state and record it in the action under way."""
        e = ev.named(e, self.state.acting)  # an event names its actors by id
        self.registry.apply(self.state, e)
        n, a = self.state.event_no, self.state.action_no
        self._events.append({**e.to_dict(), "n": n, "a": a})  # saved: defaults left out
        # what front ends read: every field, and who was acting (the lines call that hero "you")
        self._shown.append(Shown.of(e, n, a, self.state.acting))
        if self.after_emit is not None:
            self.after_emit(e)

    def new_chunk(self) -> None:
        """Save this action at the start of a new chunk of the log (a new scene)."""
        self._new_chunk = True

    def undo(self) -> None:
        """Take the last action back: the state becomes exactly what it was before it."""
        a = self.state.action_no
        if a <= 1:
            raise IllegalAction("nothing to undo: the campaign has just begun")
        base, events = self.store.base_and_events_for_action(a)
        state = CampaignState.model_validate(base)
        for d in events:
            self.registry.apply(state, self.registry.decode(d))
        dump = state.saved()
        self.store.truncate_from_action(a, dump)
        self.state = state
        self._saved = dump
        self.last_events = []
