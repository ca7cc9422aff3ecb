"""The story ledger screen: Mythic-like lists of threads, characters, facts and threats, read
from ``Game.ledger()`` and changed through the Game's ledger actions (each one undoable).

The screen never changes the state itself: every change goes through ``run`` (the play
screen's way of acting, so the journal and the sheet below follow), and a refusal from the
Game shows inline in the dialog or as a notification. Keys: 1-4 or ←/→ switch list, ↑/↓
move, ``a`` add, ``e`` edit, ``r`` resolve/reopen, ``x`` remove, ``w`` whereabouts,
``s`` stance, ``p`` in/out of the scene, ``+``/``-`` a threat's clock or a vow's progress,
``v`` swear a thread as a vow (or change its rank), ``f`` fulfil a vow (a progress roll), ^Z
undo, Esc back.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Button, Input, Label, OptionList, Select, Static
from textual.widgets.input import Selection
from textual.widgets.option_list import Option

from engine.game import Game
from engine.rules.base import Option as Choice
from engine.rules.events.shown import Shown
from engine.rules.ledger import (
    RANKS,
    CharacterEntry,
    FactEntry,
    ThreadEntry,
    ThreatEntry,
    progress_bar,
)
from engine.rules.stance import STANCES
from engine.tui.screens.dialogs import AddNpcDialog, ChoiceDialog, ConfirmDialog, Dialog
from engine.tui.text import ACCENT, BAD, DIM, FG, GOOD, PRIMARY, clip
from engine.tui.widgets.keybar import KeyBar

Run = Callable[..., str | None]
"""Run one Game action (the play screen's ``_submit``): the error message, or None."""

ListKind = Literal["threads", "characters", "facts", "threats"]
LISTS: tuple[ListKind, ...] = ("threads", "characters", "facts", "threats")
"""The lists, in tab order (keys 1-4)."""
TITLES = {"threads": "Threads", "characters": "Characters", "facts": "Facts",
          "threats": "Threats"}
EMPTY = "__empty__"
"""The option id of an empty list's placeholder line."""

STANCE_STYLES = {"hostile": BAD, "wary": ACCENT, "neutral": FG, "warm": GOOD,
                 "devoted": PRIMARY}


def clock_dots(clock: int, size: int) -> str:
    """A clock as filled and empty segments: 2 of 6 is ●●○○○○."""
    filled = max(0, min(clock, size))
    return "●" * filled + "○" * (size - filled)


# ---------------------------------------------------------------------- dialogs


@dataclass(frozen=True)
class FieldSpec:
    """One text field of a ``FieldsDialog``: its key, label, starting value, placeholder."""

    key: str
    label: str
    value: str = ""
    placeholder: str = ""


class FieldsDialog(Dialog):
    """A few labelled text fields; Enter in any of them (or the button) submits them all as a
    dict key -> text. The Game's refusal shows inline and keeps what was typed."""

    def __init__(self, title: str, fields: Sequence[FieldSpec],
                 submit: Callable[[dict[str, str]], str | None], ok: str = "Save",
                 message: str = "") -> None:
        super().__init__(title)
        self.fields = list(fields)
        self.submit = submit
        self.ok = ok
        self.message = message

    def compose(self) -> ComposeResult:
        """The message, the fields, the error line, the buttons."""
        yield KeyBar()
        with Vertical(classes="dialog"):
            yield Label(self.dialog_title, classes="dialog-title")
            if self.message:
                yield Static(self.message, classes="dialog-message", markup=False)
            for f in self.fields:
                with Horizontal(classes="row"):
                    yield Label(f.label, classes="row-label")
                    yield Input(f.value, placeholder=f.placeholder, compact=True,
                                id=f"field-{f.key}")
            yield self.error_line()
            yield self.ok_cancel(f"{self.ok} (enter)")

    def on_mount(self) -> None:
        """Focus the first field with what it says selected: typing replaces it (a new
        whereabouts is not appended to the old one), an arrow key keeps it to edit."""
        first = self.query_one(f"#field-{self.fields[0].key}", Input)
        first.focus()
        first.selection = Selection(0, len(first.value))

    def values(self) -> dict[str, str]:
        """What the fields say now."""
        return {f.key: self.query_one(f"#field-{f.key}", Input).value for f in self.fields}

    @on(Input.Submitted)
    @on(Button.Pressed, "#ok")
    def _submit(self) -> None:
        self.answer(self.values())

    @on(Button.Pressed, "#cancel")
    def _cancel(self) -> None:
        self.finish(None)


class AddThreatDialog(Dialog):
    """Bring a threat into play: one of the pack's templates, an optional name, and the NPC
    behind it (or no one)."""

    NOBODY = "__nobody__"

    def __init__(self, templates: Sequence[tuple[str, str]], npcs: Sequence[tuple[str, str]],
                 submit: Callable[[tuple[str, str, str | None]], str | None]) -> None:
        super().__init__("Add a threat")
        self.templates = list(templates)
        self.npcs = list(npcs)
        self.submit = submit

    def compose(self) -> ComposeResult:
        """Template, name, NPC."""
        yield KeyBar()
        with Vertical(classes="dialog"):
            yield Label(self.dialog_title, classes="dialog-title")
            with Horizontal(classes="row"):
                yield Label("Threat", classes="row-label")
                yield Select([(name, tid) for tid, name in self.templates],
                             value=self.templates[0][0], allow_blank=False, compact=True,
                             id="threat-template")
            with Horizontal(classes="row"):
                yield Label("Name", classes="row-label")
                yield Input(placeholder="its own name (optional)", compact=True,
                            id="threat-name")
            with Horizontal(classes="row"):
                yield Label("Behind it", classes="row-label")
                yield Select([("No one", self.NOBODY), *[(n, i) for i, n in self.npcs]],
                             value=self.NOBODY, allow_blank=False, compact=True,
                             id="threat-npc")
            yield self.error_line()
            yield self.ok_cancel("Add (enter)")

    def on_mount(self) -> None:
        """Focus the template."""
        self.query_one("#threat-template").focus()

    @on(Input.Submitted)
    @on(Button.Pressed, "#ok")
    def _submit(self) -> None:
        npc = str(self.query_one("#threat-npc", Select).value)
        self.answer((str(self.query_one("#threat-template", Select).value),
                     self.query_one("#threat-name", Input).value,
                     None if npc == self.NOBODY else npc))

    @on(Button.Pressed, "#cancel")
    def _cancel(self) -> None:
        self.finish(None)


class StanceDialog(ChoiceDialog):
    """Pick an NPC's stance toward a hero, the cursor on the stance it holds now."""

    def __init__(self, npc: str, hero: str, now: str,
                 submit: Callable[[list[str]], str | None]) -> None:
        options = [{"id": s, "label": s.capitalize() + ("  (now)" if s == now else "")}
                   for s in STANCES]
        super().__init__(f"{npc}'s stance", f"How does {npc} stand toward {hero}?", options,
                         1, 1, submit, cancel_label="Cancel")
        self.now = now

    def on_mount(self) -> None:
        """Put the cursor on the stance held now (once ChoiceDialog's own on_mount, which
        Textual also runs, has put it on the first option)."""
        self.call_after_refresh(self._at_now)

    def _at_now(self) -> None:
        self.query_one("#choices", OptionList).highlighted = STANCES.index(self.now)


class RankDialog(ChoiceDialog):
    """Pick a vow's rank (or no vow at all) for a thread."""

    def __init__(self, thread: str, now: str, submit: Callable[[list[str]], str | None]
                 ) -> None:
        options = [{"id": r, "label": f"{r.capitalize()}: {RANKS[r]} ticks a mark"
                    + ("  (now)" if r == now else "")} for r in RANKS]
        if now:
            options.append({"id": "plain", "label": "No vow: a plain thread again"})
        super().__init__("Swear a vow", f"How hard will it be to see through? “{clip(thread)}”",
                         options, 1, 1, submit, cancel_label="Cancel")


# ---------------------------------------------------------------------- the screen


class LedgerScreen(Screen[None]):
    """The story ledger: four lists, one shown at a time, edited from the keyboard."""

    DEFAULT_CSS = """
    LedgerScreen { background: $background; }
    #ledger-tabs { height: 1; padding: 0 1; background: $panel; }
    #ledger-list { height: 1fr; border: none; padding: 0 1; background: $surface; }
    #ledger-detail { height: auto; max-height: 4; padding: 0 1; color: $text-muted;
                     border-top: solid $primary 40%; }
    """

    BINDINGS = [
        Binding("escape", "back", "Back"),
        Binding("a", "add", "Add"),
        Binding("e", "edit", "Edit"),
        Binding("r", "resolve", "Resolve/reopen"),
        Binding("v", "vow", "Vow", show=False),
        Binding("f", "fulfil", "Fulfil vow", show=False),
        Binding("x", "remove", "Remove"),
        Binding("w", "where", "Where"),
        Binding("s", "stance", "Stance"),
        Binding("p", "presence", "In/out"),
        Binding("plus,equals_sign", "clock(1)", "Advance", key_display="+"),
        Binding("minus", "clock(-1)", "Turn back", key_display="-"),
        Binding("ctrl+z", "undo", "Undo"),
        Binding("1", "show_list('threads')", show=False),
        Binding("2", "show_list('characters')", show=False),
        Binding("3", "show_list('facts')", show=False),
        Binding("4", "show_list('threats')", show=False),
        Binding("right,tab", "cycle(1)", show=False),
        Binding("left,shift+tab", "cycle(-1)", show=False),
        Binding("f1", "app.help", "Help", show=False),
    ]

    def __init__(self, game: Game, run: Run, start: ListKind = "threads") -> None:
        super().__init__()
        self.game = game
        self.run_game = run
        self.kind: ListKind = start
        """The list shown."""
        self.entries: dict[str, Any] = {}
        """Option id -> the entry it shows, for the list shown."""

    # ------------------------------------------------------------------ layout and drawing

    def compose(self) -> ComposeResult:
        """The tabs, the list, the highlighted entry's detail, the key bar."""
        yield Static(id="ledger-tabs")
        yield OptionList(id="ledger-list")
        yield Static(id="ledger-detail")
        yield KeyBar()

    def on_mount(self) -> None:
        """Show the first list."""
        self.redraw()
        self.query_one(OptionList).focus()

    @property
    def highlighted(self) -> Any:
        """The entry under the cursor (None on an empty list)."""
        ol = self.query_one(OptionList)
        opt = ol.highlighted_option
        return None if opt is None or opt.id is None else self.entries.get(opt.id)

    def redraw(self, keep: str | None = None) -> None:
        """Rebuild the tabs and the list shown from the ledger, keeping the cursor on ``keep``
        (an entry id), else on the entry it was on, else at the same place."""
        ledger = self.game.ledger()
        counts = {"threads": len(ledger.open_threads), "characters": len(ledger.characters),
                  "facts": len(ledger.facts),
                  "threats": sum(t.active for t in ledger.threats)}
        tabs = Text(" Ledger ", "bold #1a1b26 on #bb9af7")
        for i, k in enumerate(LISTS, 1):
            label = f" {i} {TITLES[k]} ({counts[k]}) "
            tabs.append(" ")
            tabs.append(label, ("bold #1a1b26 on " + ACCENT) if k == self.kind else FG)
        tabs.append("  ←→", DIM)
        self.query_one("#ledger-tabs", Static).update(tabs)

        ol = self.query_one(OptionList)
        was = ol.highlighted or 0
        current = self.highlighted
        keep = keep or (getattr(current, "id", None) if current is not None else None)
        options: list[Option] = []
        self.entries = {}
        for entry in self._entries(ledger):
            self.entries[entry.id] = entry
            options.append(Option(self._row(entry), id=entry.id))
        if not options:
            options.append(Option(Text(self._empty_text(), DIM), id=EMPTY, disabled=True))
        ol.clear_options()
        ol.add_options(options)
        ids = [o.id for o in options]
        if keep in ids:
            ol.highlighted = ids.index(keep)
        elif self.entries:
            ol.highlighted = min(was, len(options) - 1)
        self._draw_detail()
        self.refresh_bindings()

    def _entries(self, ledger: Any) -> list[Any]:
        if self.kind == "threads":
            return [*ledger.open_threads,
                    *[t for t in ledger.threads if t.status == "resolved"]]
        if self.kind == "characters":
            return list(ledger.characters)
        if self.kind == "facts":
            return list(ledger.facts)
        return sorted(ledger.threats, key=lambda t: not t.active)

    def _empty_text(self) -> str:
        return {"threads": "No threads yet: a opens one (what the story still has to settle).",
                "characters": "No one yet: a adds an NPC.",
                "facts": "No facts yet: a records one (something now true in the story).",
                "threats": "No threats in play: a brings one in."}[self.kind]

    def _row(self, entry: Any) -> Text:
        if isinstance(entry, ThreadEntry):
            done = entry.status == "resolved"
            out = Text("✓ " if done else "○ ", DIM if done else ACCENT)
            out.append(f"{entry.id:<4}", DIM)
            out.append(entry.text, DIM if done else FG)
            if done:
                out.append("  resolved", "italic " + DIM)
            if entry.vow:
                out.append(f"\n   {entry.rank} vow ", DIM)
                out.append(progress_bar(entry.ticks), DIM if done else GOOD)
                out.append(f" {entry.score}/10", DIM)
            return out
        if isinstance(entry, CharacterEntry):
            return self._character_row(entry)
        if isinstance(entry, FactEntry):
            out = Text("• ", ACCENT)
            out.append(f"{entry.id:<4}", DIM)
            out.append(entry.text, FG)
            if entry.about_names:
                out.append(f"  ({', '.join(entry.about_names)})", DIM)
            return out
        assert isinstance(entry, ThreatEntry)
        style = FG if entry.active else DIM
        out = Text(entry.name, ("bold " + style) if entry.active else style)
        out.append("  ")
        out.append(clock_dots(entry.clock, entry.size), BAD if entry.active else DIM)
        out.append(f" {entry.clock}/{entry.size}", DIM)
        if not entry.active:
            out.append("  over", "italic " + DIM)
        elif entry.next_step:
            out.append(f"\n   next: {entry.next_step}", DIM)
        else:
            out.append(f"\n   doom: {entry.doom}", DIM)
        return out

    def _character_row(self, c: CharacterEntry) -> Text:
        if c.kind == "hero":
            out = Text("★ ", ACCENT)
            out.append(c.name, "bold " + FG)
            acting = c.id == self.game.state.acting
            out.append("  hero" + (", acting" if acting else ""), DIM)
            return out
        out = Text("● " if c.present else "○ ", GOOD if c.present else DIM)
        out.append(c.name, FG if c.present else DIM)
        out.append(f"  {c.role}", DIM)
        out.append(" · in the scene" if c.present else " · away", DIM)
        stance = self.game.stance(c.id)
        out.append(" · ", DIM)
        out.append(stance, STANCE_STYLES.get(stance, FG))
        out.append(f"\n   where: {c.where}" if c.where else "\n   where: unknown", DIM)
        return out

    def _draw_detail(self) -> None:
        e = self.highlighted
        out = Text()
        if isinstance(e, ThreadEntry):
            out.append(f"{e.id} · {e.status}", FG)
            if e.vow:
                out.append(f" · {e.rank} vow, {e.ticks} ticks (progress {e.score})", FG)
                out.append("\n+/- mark progress · f fulfil it (a progress roll) · v rank", DIM)
            elif e.status == "open":
                out.append(" · v swears it as a vow", DIM)
            out.append(_source(e.source), DIM)
            if e.note:
                out.append(f"\nnote: {e.note}", DIM)
        elif isinstance(e, CharacterEntry):
            out.append(e.name, FG)
            if e.kind == "npc":
                out.append(f" · stance toward {self.game.state.hero.name}", DIM)
            if e.note:
                out.append(f"\n{e.note}", DIM)
        elif isinstance(e, FactEntry):
            out.append(f"{e.id}", FG)
            out.append(_source(e.source), DIM)
            if e.about_names:
                out.append(f" · about {', '.join(e.about_names)}", DIM)
        elif isinstance(e, ThreatEntry):
            out.append(f"{e.kind} · {e.clock}/{e.size}", FG)
            if e.npc:
                npc = self.game.state.actors.get(e.npc)
                out.append(f" · behind it: {npc.name if npc else e.npc}", DIM)
            out.append(f"\ndoom: {e.doom}", DIM)
        else:
            out.append("↑↓ move · a add · Esc back to play", DIM)
        self.query_one("#ledger-detail", Static).update(out)

    @on(OptionList.OptionHighlighted)
    def _moved(self) -> None:
        self._draw_detail()
        self.refresh_bindings()

    @on(OptionList.OptionSelected)
    def _enter(self) -> None:
        """Enter edits what can be edited (a thread, a fact), or notes an NPC's whereabouts."""
        if self.kind in ("threads", "facts"):
            self.action_edit()
        elif self.kind == "characters":
            self.action_where()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Show only the keys that do something on this list (dimmed when not for the entry
        under the cursor)."""
        if not self.is_mounted:
            return True
        kind = self.kind
        e = self.highlighted
        if action in ("edit", "remove"):
            if kind not in ("threads", "facts"):
                return False
            return True if e is not None else None
        if action == "resolve":
            if kind != "threads":
                return False
            return True if e is not None else None
        if action in ("where", "stance", "presence"):
            if kind != "characters":
                return False
            return True if isinstance(e, CharacterEntry) and e.kind == "npc" else None
        if action == "clock":
            if kind not in ("threats", "threads"):
                return False
            if kind == "threads":  # a vow's progress: shown on an open vow only
                return isinstance(e, ThreadEntry) and e.vow and e.status == "open"
            return True if isinstance(e, ThreatEntry) and e.active else None
        if action in ("vow", "fulfil"):
            if kind != "threads":
                return False
            usable = isinstance(e, ThreadEntry) and e.status == "open"
            return True if usable and (action == "vow" or e.vow) else None
        return True

    # ------------------------------------------------------------------ acting

    def _record_fact(self, v: dict[str, str]) -> str | None:
        """Record the fact; names of no one in the story yet are offered as newcomers (a
        role to pick, over the fact's dialog, which stays open until one is picked)."""
        game = self.game
        names = _names(v["about"])
        unknown = game.ledger.unknown(names)
        if not unknown:
            return self.act(game.add_fact, v["text"], names,
                            keep=game.state.next_ledger_id("f"))
        who = ", ".join(unknown)
        fields = self.app.screen
        roles = [Choice(r, r.capitalize()) for r in game.pack.system.roles]

        def join(ids: list[str]) -> str | None:
            error = self.act(game.ledger.add_fact, v["text"], names, "by hand", ids[0],
                             keep=game.state.next_ledger_id("f"))
            if error is None and isinstance(fields, Dialog):
                self.call_after_refresh(fields.finish, None)
            return error

        self.app.push_screen(ChoiceDialog(
            f"New to the story: {who}", f"{who} {'is' if len(unknown) == 1 else 'are'} not in"
            " the cast yet. Add them with the fact, as:", roles, 1, 1, join,
            cancel_label="Back"))
        return f"{who}: new to the story (pick a role, or Back to change the names)"

    def act(self, fn: Callable[..., list[Shown]], *args: Any,
            keep: str | None = None, **kwargs: Any) -> str | None:
        """Run one Game action through the play screen; redraw; the error, or None."""
        error = self.run_game(fn, *args, **kwargs)
        if error is None:
            self.redraw(keep)
            if self.game.pending.kind not in ("fiction", "move", "target", "roll", "adjust"):
                self.notify("A choice waits on the play screen (Esc).", timeout=4)
        return error

    def act_or_notify(self, fn: Callable[..., list[Shown]], *args: Any,
                      keep: str | None = None) -> bool:
        """Act; a refusal shows as a notification. True if it worked."""
        error = self.act(fn, *args, keep=keep)
        if error:
            self.notify(error, title="Not now", severity="error", timeout=6)
            return False
        return True

    def open_dialog(self, dialog: Dialog) -> None:
        """Show ``dialog`` over the ledger; redraw once it closes."""
        dialog.on_close = lambda _result: self.redraw()
        self.app.push_screen(dialog)

    # ------------------------------------------------------------------ keys

    def action_back(self) -> None:
        """Back to play."""
        self.dismiss(None)

    def action_show_list(self, kind: str) -> None:
        """Show one of the lists."""
        if kind in LISTS and kind != self.kind:
            self.kind = kind
            self.query_one(OptionList).highlighted = None
            self.redraw()

    def action_cycle(self, by: int) -> None:
        """The next (or previous) list."""
        self.action_show_list(LISTS[(LISTS.index(self.kind) + by) % len(LISTS)])

    def action_undo(self) -> None:
        """Undo the last action (whatever it was), as on the play screen."""
        if self.act_or_notify(self.game.undo):
            self.notify("Undone: back to before the last action.", timeout=3)

    def action_add(self) -> None:
        """Add to the list shown: a thread, an NPC, a fact or a threat."""
        game = self.game
        if self.kind == "threads":
            self.open_dialog(FieldsDialog(
                "Open a thread",
                [FieldSpec("text", "Thread", placeholder="e.g. Who sent the drones?"),
                 FieldSpec("note", "Note", placeholder="optional")],
                lambda v: self.act(game.add_thread, v["text"], v["note"],
                                   keep=game.state.next_ledger_id("t")), ok="Open"))
        elif self.kind == "facts":
            self.open_dialog(FieldsDialog(
                "Record a fact",
                [FieldSpec("text", "Fact", placeholder="e.g. The mayor owes Dusk a favour"),
                 FieldSpec("about", "About", placeholder="names, comma-separated (optional)")],
                self._record_fact, ok="Record"))
        elif self.kind == "characters":
            self.open_dialog(AddNpcDialog(
                game.pack.system.roles,
                lambda a: self.act(game.add_npc, a[0], a[1], a[2])))
        else:
            templates = [(t.id, t.name) for t in game.pack.gm.threats]
            if not templates:
                self.notify(f"{game.pack.system.name} has no threats to bring in.",
                            severity="warning")
                return
            npcs = [(n.id, n.name) for n in game.state.npcs.values()]
            self.open_dialog(AddThreatDialog(
                templates, npcs, lambda a: self.act(game.add_threat, *a)))

    def action_edit(self) -> None:
        """Reword the thread (and its note) or the fact (and whom it is about)."""
        game = self.game
        e = self.highlighted
        if isinstance(e, ThreadEntry):
            self.open_dialog(FieldsDialog(
                f"Edit thread {e.id}",
                [FieldSpec("text", "Thread", e.text), FieldSpec("note", "Note", e.note,
                                                                "optional")],
                lambda v: self.act(game.edit_thread, e.id, v["text"], v["note"])))
        elif isinstance(e, FactEntry):
            self.open_dialog(FieldsDialog(
                f"Edit fact {e.id}",
                [FieldSpec("text", "Fact", e.text),
                 FieldSpec("about", "About", ", ".join(e.about_names),
                           "names, comma-separated (optional)")],
                lambda v: self.act(game.edit_fact, e.id, v["text"], _names(v["about"]))))

    def action_resolve(self) -> None:
        """Resolve an open thread, or reopen a resolved one."""
        e = self.highlighted
        if isinstance(e, ThreadEntry):
            fn = self.game.resolve_thread if e.status == "open" else self.game.reopen_thread
            self.act_or_notify(fn, e.id, keep=e.id)

    def action_remove(self) -> None:
        """Strike the thread or fact from the ledger, after a confirmation (^Z brings it
        back)."""
        e = self.highlighted
        if not isinstance(e, ThreadEntry | FactEntry):
            return
        what = "thread" if isinstance(e, ThreadEntry) else "fact"
        fn = self.game.remove_thread if what == "thread" else self.game.remove_fact

        def answer(yes: bool | None) -> None:
            if yes:
                self.act_or_notify(fn, e.id)

        dialog = ConfirmDialog(f"Remove {what} {e.id}",
                               f"Strike “{clip(e.text)}” from the ledger? (^Z brings it back)",
                               yes="Remove", danger=True)
        dialog.on_close = answer
        self.app.push_screen(dialog)

    def action_where(self) -> None:
        """Note where the NPC was last known to be (empty: unknown)."""
        e = self.highlighted
        if not (isinstance(e, CharacterEntry) and e.kind == "npc"):
            return
        self.open_dialog(FieldsDialog(
            f"Where is {e.name}?",
            [FieldSpec("where", "Where", e.where, "last known whereabouts (empty: unknown)")],
            lambda v: self.act(self.game.set_whereabouts, e.id, v["where"], keep=e.id)))

    def action_stance(self) -> None:
        """Set how the NPC stands toward the acting hero."""
        e = self.highlighted
        if not (isinstance(e, CharacterEntry) and e.kind == "npc"):
            return
        game = self.game
        now = game.stance(e.id)
        hero = game.state.hero.name

        def submit(ids: list[str]) -> str | None:
            if ids[0] == now:
                return None
            return self.act(game.set_stance, e.id, ids[0], keep=e.id)

        self.open_dialog(StanceDialog(e.name, hero, now, submit))

    def action_presence(self) -> None:
        """The NPC enters or leaves the scene."""
        e = self.highlighted
        if isinstance(e, CharacterEntry) and e.kind == "npc":
            self.act_or_notify(self.game.set_presence, e.id, not e.present, keep=e.id)

    def action_vow(self) -> None:
        """Swear the open thread as a vow, or change its rank (or make it a thread again)."""
        e = self.highlighted
        if not (isinstance(e, ThreadEntry) and e.status == "open"):
            return

        def submit(ids: list[str]) -> str | None:
            rank = "" if ids[0] == "plain" else ids[0]
            if rank == e.rank:
                return None
            return self.act(self.game.ledger.swear_vow, e.id, rank, keep=e.id)

        self.open_dialog(RankDialog(e.text, e.rank, submit))

    def action_fulfil(self) -> None:
        """Try to fulfil the vow: a progress roll (your two d10s with physical dice)."""
        e = self.highlighted
        if not (isinstance(e, ThreadEntry) and e.vow and e.status == "open"):
            return
        if self.game.state.dice_mode != "physical":
            self.act_or_notify(self.game.ledger.fulfil_vow, e.id, keep=e.id)
            return
        self.open_dialog(FieldsDialog(
            f"Fulfil vow {e.id}: progress {e.score}",
            [FieldSpec("dice", "Challenge dice", "", "your two d10s, e.g. 3 8")],
            lambda v: self.act(self.game.ledger.fulfil_vow, e.id,
                               [int(x) for x in v["dice"].replace(",", " ").split()
                                if x.isdigit()], keep=e.id)))

    def action_clock(self, delta: int) -> None:
        """Move the threat's clock by ``delta`` (the doom strikes when it fills), or mark a
        vow's progress (``-``: take a mark back)."""
        e = self.highlighted
        if isinstance(e, ThreadEntry) and e.vow:
            self.act_or_notify(self.game.ledger.mark_progress, e.id, delta, keep=e.id)
            return
        if isinstance(e, ThreatEntry):
            if delta < 0 and e.clock == 0:
                self.notify(f"{e.name}'s clock is empty already.", severity="warning")
                return
            self.act_or_notify(self.game.advance_threat, e.id, delta, keep=e.id)


def _names(text: str) -> list[str]:
    """Comma-separated names, trimmed, empty ones dropped."""
    return [n.strip() for n in text.split(",") if n.strip()]


def _source(source: str) -> str:
    """Where an entry came from, for its detail line: " · by hand", " · from <source>"."""
    if not source:
        return ""
    return f" · {source}" if source.startswith("by ") else f" · from {source}"
