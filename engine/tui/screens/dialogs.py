"""Modal dialogs. Each takes a ``submit`` callback that returns an error message (shown inline,
keeping what the player typed) or None, in which case the dialog closes."""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.widgets import Button, Input, Label, OptionList, Select, Static
from textual.widgets.option_list import Option
from textual.widgets.selection_list import Selection

from engine.rules.base import Option as Choice
from engine.tui.messages import ChoiceConfirmed
from engine.tui.screens.backdrop import BackdropScreen
from engine.tui.text import DIM, FG
from engine.tui.widgets.keybar import KeyBar
from engine.tui.widgets.marklist import MarkList

Submit = Callable[[Any], str | None]
"""A dialog's callback: act on the answer; return an error message, or None when it worked."""


def _field(placeholder: str, **kwargs: Any) -> Input:
    """A compact input, so dialogs fit 80x24."""
    return Input(placeholder=placeholder, compact=True, **kwargs)


class Dialog(BackdropScreen[Any]):
    """Base dialog: a titled box; Escape cancels."""

    BINDINGS = [Binding("escape", "cancel", "Cancel"),
                Binding("ctrl+c", "quit_hint", show=False)]

    submit: Submit | None = None

    def __init__(self, title: str) -> None:
        super().__init__()
        self.dialog_title = title
        self.closed = False
        """Set once the dialog has answered or been cancelled: later keys are ignored."""
        self.on_close: Callable[[Any], None] | None = None
        """Called with the result when the dialog closes. (Textual's push_screen callback is
        handed to whichever screen was active when the dialog was pushed, which may be a
        dialog that is itself closing; this hook does not depend on that.)"""

    def finish(self, result: Any) -> None:
        """Close with ``result`` (only once, however fast the keys come)."""
        if not self.closed:
            self.closed = True
            self.dismiss(result)
            if self.on_close is not None:
                self.on_close(result)

    def answer(self, value: Any) -> None:
        """Hand ``value`` to ``submit``: close if it worked, show its error otherwise."""
        if self.closed or self.submit is None:
            return
        error = self.submit(value)
        if error:
            self.show_error(error)
        else:
            self.finish(value)

    def action_cancel(self) -> None:
        """Close without answering."""
        self.finish(None)

    def action_quit_hint(self) -> None:
        """Ctrl+C (with nothing selected to copy) says how to quit, as it does off a dialog."""
        self.notify("Ctrl+Q quits (everything is saved); Esc closes this dialog.",
                    title="Do you want to quit?")

    def show_error(self, message: str | None) -> None:
        """Show ``message`` in the dialog's error line (or clear it)."""
        err = self.query_one("#dialog-error", Static)
        err.update(message or "")
        err.set_class(bool(message), "shown")

    def error_line(self) -> Static:
        """The inline error line every dialog has."""
        return Static("", id="dialog-error")

    def ok_cancel(self, ok: str, cancel: str = "Cancel (esc)") -> Horizontal:
        """The row of buttons most dialogs end with: ``ok`` (primary, id ok) and ``cancel``."""
        return Horizontal(Button(ok, variant="primary", id="ok", compact=True),
                          Button(cancel, id="cancel", compact=True), classes="buttons")


class MessageDialog(Dialog):
    """An error or information message with an OK button."""

    BINDINGS = [Binding("escape,enter", "cancel", "OK")]

    def __init__(self, title: str, message: str, error: bool = True) -> None:
        super().__init__(title)
        self.message = message
        self.error = error

    def compose(self) -> ComposeResult:
        """Title, message, OK."""
        yield KeyBar()
        with Vertical(classes="dialog" + (" error" if self.error else "")):
            yield Label(self.dialog_title, classes="dialog-title")
            with VerticalScroll(classes="dialog-body"):
                yield Static(self.message, id="message", markup=False)
            with Horizontal(classes="buttons"):
                yield Button("OK", variant="primary", id="ok", compact=True)

    @on(Button.Pressed, "#ok")
    def _ok(self) -> None:
        self.finish(None)


class ConfirmDialog(Dialog):
    """A yes/no question; dismisses with True or False."""

    BINDINGS = [Binding("escape,n", "answer(False)", "No"),
                Binding("y", "answer(True)", "Yes")]

    def __init__(self, title: str, question: str, yes: str = "Yes", no: str = "No",
                 danger: bool = False) -> None:
        super().__init__(title)
        self.question = question
        self.yes, self.no, self.danger = yes, no, danger

    def compose(self) -> ComposeResult:
        """Question and two buttons."""
        yield KeyBar()
        with Vertical(classes="dialog"):
            yield Label(self.dialog_title, classes="dialog-title")
            yield Static(self.question, classes="dialog-body", markup=False)
            with Horizontal(classes="buttons"):
                yield Button(f"{self.yes} (y)", variant="error" if self.danger else "primary",
                             id="yes", compact=True)
                yield Button(f"{self.no} (n)", id="no", compact=True)

    def on_mount(self) -> None:
        """Focus the safe answer."""
        self.query_one("#no", Button).focus()

    def action_answer(self, yes: bool) -> None:
        """Answer."""
        self.finish(yes)

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.finish(event.button.id == "yes")


class ChoiceList(OptionList):
    """A checkbox list with multi-line options: Space marks or unmarks, Enter confirms.

    Marking more than ``limit`` options is refused (a ``Refused`` message is posted).
    """

    BINDINGS = [Binding("space", "mark", "Mark"),
                Binding("enter", "confirm", "Confirm")]

    @dataclass
    class Toggled(Message):
        """The marked options changed."""

    @dataclass
    class Refused(Message):
        """An option could not be marked: the limit is reached."""

    def __init__(self, options: Sequence[tuple[str, Text]], marked: Sequence[str], limit: int,
                 blocked: Collection[str] = (), groups: Mapping[str, str] | None = None,
                 **kwargs: Any) -> None:
        self.prompts = dict(options)
        self.blocked = set(blocked)
        self.groups = dict(groups or {})
        """Option id -> its group: marking one unmarks the other of its group."""
        """Options shown (dimmed, with their reason) but never marked."""
        self.selected: list[str] = [k for k, _ in options
                                    if k in set(marked) and k not in self.blocked]
        self.limit = limit
        super().__init__(*[Option(self._prompt(k), id=k, disabled=k in self.blocked)
                           for k, _ in options], **kwargs)

    def _prompt(self, key: str) -> Text:
        on = key in self.selected
        if key in self.blocked:
            out = Text("  ", DIM)
            out.append_text(self.prompts[key])
            return out
        out = Text("☑ " if on else "☐ ", "bold #9ece6a" if on else DIM)
        out.append_text(self.prompts[key])
        return out

    def action_mark(self) -> None:
        """Mark or unmark the highlighted option."""
        option = self.highlighted_option
        if option is None or option.id is None:
            return
        key = option.id
        if key in self.blocked:
            return
        group = self.groups.get(key)
        rival = next((k for k in self.selected if group and k != key
                      and self.groups.get(k) == group), None)
        if key in self.selected:
            self.selected.remove(key)
        elif rival is not None:  # one of a group: the new one takes the other's place
            self.selected[self.selected.index(rival)] = key
            self.replace_option_prompt(rival, self._prompt(rival))
        elif len(self.selected) >= self.limit:
            self.post_message(self.Refused())
            return
        else:
            self.selected.append(key)
        self.replace_option_prompt(key, self._prompt(key))
        self.post_message(self.Toggled())

    def action_confirm(self) -> None:
        """Ask the dialog to confirm."""
        self.post_message(ChoiceConfirmed())

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """A click toggles, like Space."""
        event.stop()


class ChoiceDialog(Dialog):
    """Pick between ``lo`` and ``hi`` options: a single list for one pick, checkboxes for more."""

    def __init__(self, title: str, message: str | Text,
                 options: Sequence[Choice | Mapping[str, Any]], lo: int, hi: int,
                 submit: Submit, preselect: Sequence[str] = (),
                 cancel_label: str = "Later", groups: Mapping[str, str] | None = None) -> None:
        super().__init__(title)
        self.groups = dict(groups or {})
        """Option id -> its group, of which one may be picked (marking another swaps)."""
        self.message = message
        self.options = [o if isinstance(o, Choice) else Choice.of(o) for o in options]
        self.blocked: set[str] = {o.id for o in self.options if o.disabled}
        """Options that can do nothing now: shown dimmed with the reason, never sent."""
        usable = len(self.options) - len(self.blocked)
        ids = [o.id for o in self.options if o.id not in self.blocked]
        most = len({self.groups.get(i, f"\0{i}") for i in ids})  # one per group at most
        self.lo, self.hi = min(lo, usable), min(hi, most) if self.groups else hi
        self.submit = submit
        self.single = self.lo == self.hi == 1
        self.preselect = set(preselect) - self.blocked
        self.cancel_label = cancel_label

    def _prompt(self, o: Choice) -> Text:
        reason = o.disabled
        out = Text(o.label, DIM if reason else FG)
        if o.detail:
            out.append(f"\n{o.detail}", DIM)
        if reason:
            out.append(f"\n✗ {reason}", "italic " + DIM)
        return out

    def compose(self) -> ComposeResult:
        """Message, the options, the count, buttons."""
        yield KeyBar()
        with Vertical(classes="dialog wide"):
            yield Label(self.dialog_title, classes="dialog-title")
            if self.message:
                yield Static(self.message, classes="dialog-message", markup=False)
            if not self.options:
                pass
            elif self.single:
                yield OptionList(*[Option(self._prompt(o), id=o.id,
                                          disabled=o.id in self.blocked)
                                   for o in self.options], id="choices")
            else:
                yield ChoiceList([(o.id, self._prompt(o)) for o in self.options],
                                 list(self.preselect), self.hi, self.blocked, self.groups,
                                 id="choices")
            yield Static(self._count_text(), id="count")
            yield self.error_line()
            with Horizontal(classes="buttons"):
                yield Button("Confirm (enter)", variant="primary", id="confirm", compact=True)
                yield Button(f"{self.cancel_label} (esc)", id="cancel", compact=True)

    def on_mount(self) -> None:
        """Focus the list on its first usable option (or Confirm when there is none)."""
        lists = self.query("#choices").results(OptionList)
        ol = next(lists, None)
        if ol is None or not (len(self.options) - len(self.blocked)):
            self.query_one("#confirm", Button).focus()
            return
        ol.highlighted = next(i for i, o in enumerate(self.options)
                              if o.id not in self.blocked)
        ol.focus()

    def _want(self) -> str:
        if self.lo == self.hi:
            return f"exactly {self.hi}"
        if self.lo == 0:
            return f"up to {self.hi}"
        return f"{self.lo} to {self.hi}"

    def _count_text(self) -> str:
        if not self.options:
            return ""
        if self.single:
            return "↑↓ to move, Enter to choose"
        n = len(self.preselect) if not self.is_mounted else len(self._selected())
        kinds = "; one of each kind" if self.groups else ""
        return f"Picked {n} — pick {self._want()}{kinds}.  Space marks, Enter confirms."

    def _selected(self) -> list[str]:
        lists = self.query(ChoiceList)
        return list(lists.first().selected) if lists else []

    @on(ChoiceList.Toggled)
    def _changed(self) -> None:
        self.show_error(None)
        self.query_one("#count", Static).update(self._count_text())

    @on(ChoiceList.Refused)
    def _refused(self) -> None:
        self.show_error(f"You can pick at most {self.hi}. Unmark one first.")

    def _confirm(self, ids: list[str]) -> None:
        if any(i in self.blocked for i in ids):
            reasons = {o.id: o.disabled for o in self.options if o.id in self.blocked}
            self.show_error(next(reasons[i] for i in ids if i in reasons))
            return
        if not self.lo <= len(ids) <= self.hi:
            self.show_error(f"Pick {self._want()} (you picked {len(ids)}).")
            return
        self.answer(ids)

    @on(OptionList.OptionSelected, "#choices")
    def _single(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id is not None:
            self._confirm([event.option.id])

    @on(ChoiceConfirmed)
    def _confirmed(self) -> None:
        self._confirm(self._selected())

    @on(Button.Pressed, "#confirm")
    def _confirm_button(self) -> None:
        if self.single:
            opt = self.query_one("#choices", OptionList).highlighted_option
            self._confirm([opt.id] if opt and opt.id else [])
        else:
            self._confirm(self._selected())

    @on(Button.Pressed, "#cancel")
    def _cancel_button(self) -> None:
        self.finish(None)


class DiceDialog(Dialog):
    """Type the faces of physical dice; the engine checks the count and range."""

    def __init__(self, title: str, notation: str, summary: Text, submit: Submit) -> None:
        super().__init__(title)
        self.notation = notation
        self.summary = summary
        self.submit = submit

    placeholder = "e.g. 3 5"

    def hint(self) -> str:
        """What the dice box asks for."""
        return f"Roll {self.notation} and type the faces (like 3 5):"

    def buttons(self) -> ComposeResult:
        """The dialog's buttons."""
        yield Button("Roll (enter)", variant="primary", id="ok", compact=True)
        yield Button("Cancel (esc)", id="cancel", compact=True)

    def compose(self) -> ComposeResult:
        """What to roll, the input, errors."""
        yield KeyBar()
        with Vertical(classes="dialog"):
            yield Label(self.dialog_title, classes="dialog-title")
            yield Static(self.summary, classes="dialog-message")
            yield Label(self.hint())
            yield _field(self.placeholder, id="faces")
            yield self.error_line()
            with Horizontal(classes="buttons"):
                yield from self.buttons()

    def on_mount(self) -> None:
        """Focus the dice box."""
        self.query_one("#faces").focus()

    @on(Input.Submitted, "#faces")
    @on(Button.Pressed, "#ok")
    def _submit(self) -> None:
        self.answer(self.query_one("#faces", Input).value.strip())
        if not self.closed:
            self.query_one("#faces", Input).focus()

    @on(Button.Pressed, "#cancel")
    def _cancel(self) -> None:
        self.finish(None)


class DieDialog(DiceDialog):
    """Type the face of one physical die (a fight's roll)."""

    placeholder = "e.g. 14"

    def hint(self) -> str:
        """What the box asks for."""
        return f"Roll {self.notation} and type the face it shows:"


class AddNpcDialog(Dialog):
    """Name an NPC, give a role and a note."""

    def __init__(self, roles: Sequence[str], submit: Submit, name: str = "") -> None:
        super().__init__("Add an NPC")
        self.roles = list(roles)
        self.submit = submit
        self.given_name = name
        """The name filled in (one the fiction gave), or ""."""

    def compose(self) -> ComposeResult:
        """Name, role, note."""
        yield KeyBar()
        with Vertical(classes="dialog"):
            yield Label(self.dialog_title, classes="dialog-title")
            with Horizontal(classes="row"):
                yield Label("Name", classes="row-label")
                yield _field("e.g. Captain Vega", id="npc-name", value=self.given_name)
            with Horizontal(classes="row"):
                yield Label("Role", classes="row-label")
                yield Select([(r.capitalize(), r) for r in self.roles], value=self.roles[0],
                             allow_blank=False, compact=True, id="npc-role")
            with Horizontal(classes="row"):
                yield Label("Note", classes="row-label")
                yield _field("who they are to you (optional)", id="npc-note")
            yield self.error_line()
            yield self.ok_cancel("Add (enter)")

    def on_mount(self) -> None:
        """Focus the name."""
        self.query_one("#npc-name").focus()

    @on(Input.Submitted)
    @on(Button.Pressed, "#ok")
    def _submit(self) -> None:
        role = self.query_one("#npc-role", Select).value
        answer = (self.query_one("#npc-name", Input).value, str(role),
                  self.query_one("#npc-note", Input).value)
        self.answer(answer)

    @on(Button.Pressed, "#cancel")
    def _cancel(self) -> None:
        self.finish(None)


class SceneDialog(Dialog):
    """Frame the next scene: title, location, stakes and who is present."""

    def __init__(self, number: int, npcs: Sequence[tuple[str, str, bool]], submit: Submit
                 ) -> None:
        super().__init__(f"Scene {number}")
        self.npcs = list(npcs)
        self.submit = submit

    def compose(self) -> ComposeResult:
        """Fields and the cast."""
        yield KeyBar()
        with Vertical(classes="dialog wide"):
            yield Label(self.dialog_title + ": frame the next scene", classes="dialog-title")
            with VerticalScroll(classes="dialog-body"):
                with Horizontal(classes="row"):
                    yield Label("Title", classes="row-label")
                    yield _field("e.g. Fallout at the museum", id="scene-title")
                with Horizontal(classes="row"):
                    yield Label("Where", classes="row-label")
                    yield _field("e.g. Halcyon Museum, after hours", id="scene-where")
                with Horizontal(classes="row"):
                    yield Label("At stake", classes="row-label")
                    yield _field("what could go wrong?", id="scene-stakes")
                if self.npcs:
                    yield Label("Who is there (Space marks ✓, Enter starts)")
                    yield MarkList(*[Selection(name, nid, present)
                                     for nid, name, present in self.npcs], id="scene-cast")
            yield self.error_line()
            yield self.ok_cancel("Start (enter)", "Not yet (esc)")

    def on_mount(self) -> None:
        """Focus the title."""
        self.query_one("#scene-title").focus()

    @on(Input.Submitted)
    @on(MarkList.Submitted)
    @on(Button.Pressed, "#ok")
    def _submit(self) -> None:
        cast = list(self.query_one("#scene-cast", MarkList).selected) if self.npcs else []
        answer = {"title": self.query_one("#scene-title", Input).value,
                  "location": self.query_one("#scene-where", Input).value,
                  "stakes": self.query_one("#scene-stakes", Input).value,
                  "present": cast}
        self.answer(answer)

    @on(Button.Pressed, "#cancel")
    def _cancel(self) -> None:
        self.finish(None)


class MoveEntry(NamedTuple):
    """One move in the move list: its id, how it shows, whether it can be used now, its name
    (a match there ranks first) and the text the filter searches (name, trigger, cues...)."""

    id: str
    prompt: Text
    enabled: bool
    name: str
    search: str


def move_rank(entry: MoveEntry, words: Sequence[str]) -> tuple[int, ...] | None:
    """How well the typed ``words`` match ``entry``, smaller first; None when some word is
    found nowhere. The whole phrase in the name ranks first, then words that begin words of
    the name ("dir som": Direct Someone to Act), then words found inside the name; a match only
    in the trigger or cues comes after. An unavailable move follows the available ones of the
    same rank."""
    name = entry.name.lower()
    search = f"{name} {entry.search.lower()}"
    if not all(w in search for w in words):
        return None
    name_words = re.findall(r"\w+", name)
    phrase = bool(words) and " ".join(words) in name
    starts = sum(any(nw.startswith(w) for nw in name_words) for w in words)
    inside = sum(w in name for w in words)
    return (-int(phrase), -starts, -inside, int(not entry.enabled))


class MovesDialog(Dialog):
    """Every move, filtered as you type (a match in a move's name first); unavailable ones say
    why."""

    def __init__(self, entries: Sequence[MoveEntry], submit: Submit) -> None:
        super().__init__("All moves")
        self.entries = list(entries)
        self.submit = submit

    def compose(self) -> ComposeResult:
        """Filter box and list."""
        yield KeyBar()
        with Vertical(classes="dialog wide tall"):
            yield Label(self.dialog_title, classes="dialog-title")
            yield _field("type to filter, ↓ to the list, Enter to use", id="filter")
            yield OptionList(id="moves")
            yield self.error_line()

    def on_mount(self) -> None:
        """Fill the list."""
        self._fill("")
        self.query_one("#filter", Input).focus()

    def _fill(self, text: str) -> None:
        ol = self.query_one("#moves", OptionList)
        ol.clear_options()
        words = text.lower().split()
        ranked = []
        for i, entry in enumerate(self.entries):
            rank = move_rank(entry, words)
            if rank is not None:
                ranked.append((rank, i, entry))
        ranked.sort(key=lambda r: (r[0], r[1]))
        for _rank, _i, entry in ranked:
            ol.add_option(Option(entry.prompt, id=entry.id, disabled=not entry.enabled))
        first = next((i for i, o in enumerate(ol.options) if not o.disabled), None)
        ol.highlighted = first

    @on(Input.Changed, "#filter")
    def _filter(self, event: Input.Changed) -> None:
        self._fill(event.value)

    def key_down(self) -> None:
        """Down from the filter moves into the list."""
        if self.focused is self.query_one("#filter"):
            self.query_one("#moves").focus()

    @on(Input.Submitted, "#filter")
    def _enter(self) -> None:
        opt = self.query_one("#moves", OptionList).highlighted_option
        if opt is not None and opt.id:
            self._pick(opt.id)

    @on(OptionList.OptionSelected, "#moves")
    def _selected(self, event: OptionList.OptionSelected) -> None:
        if event.option.id:
            self._pick(event.option.id)

    def _pick(self, move_id: str) -> None:
        self.answer(move_id)


class EndSceneDialog(ChoiceDialog):
    """Which conditions' clearing actions did the hero take this scene? (each with its clear_by)

    ``has_conditions`` is False for a game without conditions (City of Whispers): the dialog
    then only confirms the end of the scene.
    """

    def __init__(self, conditions: Sequence[dict[str, Any]], preselect: Sequence[str],
                 submit: Submit, has_conditions: bool = True) -> None:
        if not has_conditions:
            message = "End the scene here? Enter ends it; Esc keeps playing."
        elif conditions:
            message = ("Mark each condition whose clearing action you took this scene (Space);"
                       " they clear as the scene ends. Enter ends the scene.")
        else:
            message = ("You have no conditions marked, so nothing needs clearing. Enter ends"
                       " the scene.")
        super().__init__("End the scene", message, conditions, 0, len(conditions), submit,
                         preselect, cancel_label="Keep playing")
        self.single = False
