"""The journal pane's source: every event of the campaign in order (read from the log on open,
grown by each action, trimmed by undo) and the names of the characters the journal mentions."""

from __future__ import annotations

from engine.game import Game
from engine.journal import spotlight
from engine.tui.screens.play.host import Events, Logged
from engine.tui.widgets.journal import Journal


class Chronicle:
    """The events shown in the journal, kept in step with it."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.events: Logged = []
        """Every event of the campaign, in order (trimmed on undo)."""
        self._names: dict[str, str] = {}
        self._names_seen = 0

    def read(self) -> None:
        """Read every event from the log (an EngineError leaves none)."""
        self.events = []
        self.events = list(self.game.store.events(markers=True))

    def names(self) -> dict[str, str]:
        """Character id -> name, for every NPC and hero the journal may mention (removed NPCs
        included)."""
        if self._names_seen != len(self.events):
            for e in self.events[self._names_seen:]:
                if e.get("type") in ("NPCAdded", "HeroAdded", "FoeAdded"):
                    self._names[e["id"]] = e["name"]
            self._names_seen = len(self.events)
        return {**self._names, **{k: v.name for k, v in self.game.state.actors.items()}}

    def spotlit(self, events: Logged, acting: str, party: bool) -> Logged:
        """``events`` for the journal: in a party each names the hero acting then."""
        return list(spotlight(events, self.names(), acting, party))

    def show_all(self, journal: Journal) -> None:
        """Show every event in ``journal`` (on open)."""
        # who acted first: the hero the first switch of the spotlight is from
        first = next((str(e["was"]) for e in self.events
                      if e.get("type") == "HeroSwitched" and e.get("was")),
                     self.game.state.party[0])
        journal.reset(self.spotlit(self.events, first, False), self.names())

    def add(self, new: Events, acting: str, party: bool, journal: Journal) -> None:
        """Append the events of an action taken by ``acting`` (``party``: one of several)."""
        logged = [dict(e) for e in new]
        self.events.extend(logged)
        journal.add_events(self.spotlit(logged, acting, party), self.names())

    def undo(self, before: int, journal: Journal) -> None:
        """Drop the events of actions from number ``before`` on (what an undo took back)."""
        self.events = [e for e in self.events if e.get("a", 0) < before]
        self._names_seen = min(self._names_seen, len(self.events))
        journal.undo_after(self.events[-1]["n"] if self.events else 0)
