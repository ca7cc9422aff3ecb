"""The plain mode's commands: the app's keys as words (``help`` lists them). A command is
typed instead of any answer; the question comes again after it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from engine.errors import EngineError, IllegalAction
from engine.journal import render_all
from engine.plain.console import Choice, Leave, Reask
from engine.plain.host import PlainHost
from engine.plain.story import pick_move, refuse

HELP: list[tuple[str, str]] = [
    ("help", "this list (F1 in the app)"),
    ("moves", "every move your hero can make, to make one (F2)"),
    ("switch", "turn the spotlight to another hero of the party (F3)"),
    ("undo", "take back the last action (Ctrl+Z)"),
    ("sheet", "your hero's stats and conditions (Ctrl+B)"),
    ("ledger", "threads, characters, facts and threats (Ctrl+L)"),
    ("gm", "ask the GM what happens next (Ctrl+G)"),
    ("oracle", "ask the oracle a yes-or-no question; 'oracle QUESTION' (Ctrl+O)"),
    ("end scene", "end the scene (F5)"),
    ("next scene", "frame the next scene the GM proposes (F6)"),
    ("add npc NAME", "bring a character into the story (Ctrl+N)"),
    ("end session", "the end-of-session move, then the session closes (F7)"),
    ("fight", "start a fight, or end the one under way (F8)"),
    ("recap", "'Previously...': where the story stands (Ctrl+R)"),
    ("export", "write the journal as Markdown to a file; 'export FILE'"),
    ("journal", "the last lines of the journal; 'journal 50' for more"),
    ("where", "the campaign, the heroes and the scene, in one line"),
    ("quit", "leave; everything is saved (F10; Ctrl+D and Ctrl+C too)"),
]
"""The commands and what each does, with the app's key for it."""


class Commands:
    """Runs a typed line as a command when it is one."""

    def __init__(self, session: PlainHost) -> None:
        self.s = session
        self.table: dict[str, Callable[[str], None]] = {
            "help": self.help, "?": self.help, "moves": self.moves, "switch": self.switch,
            "undo": self.undo, "sheet": self.sheet, "ledger": self.ledger, "gm": self.gm,
            "oracle": self.oracle, "end scene": self.end_scene, "next scene": self.next_scene,
            "add npc": self.add_npc, "end session": self.end_session, "fight": self.fight,
            "recap": self.recap, "export": self.export, "journal": self.journal,
            "where": self.where, "quit": self.quit, "exit": self.quit}

    def __call__(self, line: str) -> bool | None:
        text = line.strip().lstrip("/")
        low = " ".join(text.lower().split())
        for name in sorted(self.table, key=len, reverse=True):
            if low == name or (low.startswith(name + " ") and name in _WITH_WORDS):
                rest = text.strip()[len(name):].strip() if low != name else ""
                try:
                    self.table[name](rest)
                except IllegalAction as e:
                    self.s.console.raw(refuse(e))
                except (Leave, Reask):
                    raise
                except EngineError as e:
                    self.s.console.raw(f"Error: {' '.join(str(e).split())}")
                return None if name in READING else True
        return False

    @property
    def _say(self) -> Callable[[str], None]:
        return self.s.console.say

    def help(self, _: str) -> None:
        self._say("Commands, typed instead of an answer:")
        for name, what in HELP:
            self._say(f"{name}: {what}")
        self._say("Answer a question with its number. Anything else you type is your hero's"
                  " words.")

    def moves(self, _: str) -> None:
        if self.s.game.flow.stage not in ("fiction", "move") or self.s.game.fighting:
            raise IllegalAction("moves are made between questions, outside a fight")
        chosen = pick_move(self.s)
        if chosen is not None:
            fiction = self.s.console.ask("What do you do? (Enter: nothing more to say)",
                                         commands=False)
            self.s.show(self.s.game.trigger(chosen, None, fiction))

    def switch(self, name: str) -> None:
        st = self.s.game.state
        heroes = [st.actors[h] for h in st.party]
        if len(heroes) < 2:
            raise IllegalAction(f"{st.hero.name} is the only hero of this campaign")
        if not name:
            picked = self.s.console.pick("Which hero?", [Choice(h.name) for h in heroes])
            assert isinstance(picked, list)
            name = heroes[picked[0]].name
        self.s.show(self.s.game.switch_hero(name))

    def undo(self, _: str) -> None:
        self.s.show(self.s.game.undo())
        self._say("Undone.")

    def sheet(self, _: str) -> None:
        from engine.plain.reading import sheet_lines

        for line in sheet_lines(self.s.game):
            self._say(line)

    def ledger(self, _: str) -> None:
        from engine.plain.reading import ledger_lines

        for line in ledger_lines(self.s.game):
            self._say(line)

    def gm(self, _: str) -> None:
        self.s.show(self.s.game.ask_gm())

    def oracle(self, question: str) -> None:
        question = question or self.s.console.ask("Your yes-or-no question:", commands=False)
        levels = self.s.game.oracle_levels()
        picked = self.s.console.pick("How likely is a yes?", [
            Choice(lv.name, ", ".join(f"{k} {v}" for k, v in lv.odds.items())) for lv in levels])
        assert isinstance(picked, list)
        self.s.show(self.s.game.ask_oracle(question, levels[picked[0]].id))

    def end_scene(self, _: str) -> None:
        self.s.show(self.s.game.end_scene())

    def next_scene(self, _: str) -> None:
        g = self.s.game
        prop = g.propose_scene()
        self._say(f"The GM proposes: {prop.title}, at {prop.location}. At stake: {prop.stakes}")
        self.s.show(g.start_scene(prop.title, prop.location, prop.stakes, list(prop.present),
                                  prop.opening))

    def add_npc(self, name: str) -> None:
        name = name or self.s.console.ask("Their name:", commands=False)
        roles = list(self.s.game.pack.system.roles)
        role = ""
        if roles:
            picked = self.s.console.pick(f"{name} is:", [Choice(str(r)) for r in roles])
            assert isinstance(picked, list)
            role = str(roles[picked[0]])
        self.s.show(self.s.game.add_npc(name, role))

    def end_session(self, _: str) -> None:
        self.s.show(self.s.game.end_session())

    def fight(self, _: str) -> None:
        from engine.plain.fight import end

        g = self.s.game
        if g.fighting:
            self.s.show(end(self.s))
            return
        foes = g.foe_options()
        if not foes:
            raise IllegalAction("there is nobody to fight here (or this game has no fights)")
        picked = self.s.console.pick("Fight whom?", [Choice(f.label, f.detail) for f in foes],
                                     hi=len(foes))
        assert isinstance(picked, list)
        self.s.show(g.start_fight([foes[i].id for i in picked]))

    def recap(self, _: str) -> None:
        from engine.recap import recap

        g = self.s.game
        lines = recap(g.store.events(markers=True), g.state, g.pack)
        for line in lines or ["Nothing to recap yet."]:
            self._say(line)

    def _journal(self) -> list[str]:
        g = self.s.game
        names = {a.id: a.name for a in g.state.actors.values()}
        return render_all(g.store.events(markers=True), g.pack, names, g.state.party[0])

    def export(self, path: str) -> None:
        g = self.s.game
        cid = str(getattr(g.store, "id", "") or "campaign")
        out = Path(path).expanduser() if path else Path.cwd() / f"{cid}.md"
        out.write_text(f"# {g.state.name}\n\n" + "\n".join(self._journal()) + "\n",
                       encoding="utf-8")
        self._say(f"The journal is written to {out}.")

    def journal(self, count: str) -> None:
        n = int(count) if count.isdigit() else 20
        for line in self._journal()[-n:]:
            if line.strip():
                self._say(line)

    def where(self, _: str) -> None:
        self._say(self.s.where())

    def quit(self, _: str) -> None:
        raise Leave


READING = {"help", "?", "sheet", "ledger", "recap", "export", "journal", "where"}
"""The commands that only read: the question asked before them still stands."""
_WITH_WORDS = {"oracle", "switch", "export", "journal", "add npc"}
"""The commands that take words after them."""
