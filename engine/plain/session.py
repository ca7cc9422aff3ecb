"""A campaign played in the plain mode: the loop that answers ``Game.pending`` one line at
a time, and shows what each action logged as the journal's lines, in words."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from engine.errors import EngineError, IllegalAction
from engine.game import Game
from engine.journal import render_all
from engine.plain.commands import Commands
from engine.plain.console import Console, Leave, Reask
from engine.plain.fight import FIGHT
from engine.plain.story import STORY, refuse
from engine.rules.events.shown import Shown

MAX_STEPS = 100_000
"""Questions one sitting answers at most (a guard against a loop that asks nothing)."""


class Session:
    """One campaign open in the plain mode."""

    def __init__(self, game: Game, console: Console, saves: Path | None = None) -> None:
        self._game = game
        self._console = console
        self.saves = saves
        self.commands = Commands(self)
        console.commands = self.commands

    @property
    def game(self) -> Game:
        """The game played."""
        return self._game

    @property
    def console(self) -> Console:
        """Where the lines go and the answers come from."""
        return self._console

    def show(self, events: Sequence[Shown]) -> None:
        """The journal's lines for what an action logged."""
        st = self.game.state
        names = {a.id: a.name for a in st.actors.values()}
        for line in render_all([dict(e) for e in events], self.game.pack, names, None,
                               len(st.party) > 1):
            if line.strip():
                self.console.say(line)

    def where(self) -> str:
        """Where the campaign stands, in one line."""
        st = self.game.state
        heroes = ", ".join(st.actors[h].name for h in st.party)
        scene = (f"scene {st.scene.number}: {st.scene.title}" if st.scene.open
                 else "between scenes")
        return (f"{st.name}, {self.game.pack.system.name}. Heroes: {heroes}; acting:"
                f" {st.hero.name}. Session {max(st.session, 1)}, {scene}.")

    def step(self) -> None:
        """Answer what the engine waits for now, and show what it gave."""
        p = self.game.pending
        handler = STORY.get(type(p)) or FIGHT.get(type(p))
        if handler is None:  # pragma: no cover - every prompt class has one
            raise IllegalAction(f"the plain mode cannot answer {p.kind!r}")
        self.show(handler(self, p))

    def run(self) -> None:
        """Play until the player leaves (quit, end of input, Ctrl+C)."""
        self.console.say(self.where())
        self.console.raw("Type help for the commands. Everything is saved as you play.")
        try:
            for _ in range(MAX_STEPS):
                try:
                    self.step()
                except Reask:
                    continue
                except IllegalAction as e:
                    self.console.raw(refuse(e))
                except EngineError as e:
                    self.console.raw(f"Error: {' '.join(str(e).split())}")
        except (Leave, KeyboardInterrupt):
            pass
        self.console.raw("Saved. Goodbye.")
