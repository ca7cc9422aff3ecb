"""The edit dialog: fix the sheet by hand, as a GM would rule at the table.

Built from what the ruleset lets be edited (``Game.editable``): pick whose value (a hero, an
NPC, the campaign), which one (each shown with its value now), the new value and a reason.
It answers ``(who, what, key, value, reason)`` for ``Game.edit``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input, Label, OptionList, Select, Static
from textual.widgets.option_list import Option

from engine.game import Editable
from engine.tui.screens.dialogs import Dialog, Submit
from engine.tui.text import DIM, FG
from engine.tui.widgets.keybar import KeyBar

YES, NO = "on", "off"
"""The flag select's values: mark (gain) or clear (lose)."""


def field_id(f: Editable) -> str:
    """The option id of a field: ``what:key``."""
    return f"{f.what}:{f.key}"


def field_prompt(f: Editable) -> Text:
    """One line of the field list: group, name and the value now."""
    group = f.group and not f.name.startswith(f.group)  # no "Influence: Influence over"
    out = Text(f"{f.group}: " if group else "", DIM)
    out.append(f.name, FG)
    out.append(f"  {f.shown(f.value)}", "bold " + FG)
    return out


class EditDialog(Dialog):
    """Pick a character (or the campaign), one of its values, the new value and why."""

    DEFAULT_CSS = """
    EditDialog #edit-fields { height: auto; max-height: 30vh; border: none;
                              background: $boost; margin-bottom: 1; }
    EditDialog #edit-flag { display: none; }
    EditDialog.-flag #edit-flag { display: block; }
    EditDialog.-flag #edit-value { display: none; }
    EditDialog #edit-hint { height: auto; color: $text-muted; }
    """

    def __init__(self, subjects: Sequence[tuple[str, str]],
                 fields: Callable[[str], list[Editable]], submit: Submit,
                 who: str | None = None) -> None:
        super().__init__("Edit by hand")
        self.subjects = list(subjects)
        self.fields_of = fields
        self.submit = submit
        ids = [sid for sid, _ in self.subjects]
        self.who = who if who in ids else ids[0]
        self.fields: list[Editable] = []

    def compose(self) -> ComposeResult:
        """Whose, which value, the new value, the reason, buttons."""
        yield KeyBar()
        with Vertical(classes="dialog wide"):
            yield Label(Text.assemble(self.dialog_title, (
                "   as a GM would rule at the table; journaled, ^Z undoes it", DIM)),
                classes="dialog-title")
            with Horizontal(classes="row"):
                yield Label("Whose", classes="row-label")
                yield Select([(name, sid) for sid, name in self.subjects], value=self.who,
                             allow_blank=False, compact=True, id="edit-who")
            yield OptionList(id="edit-fields")
            with Horizontal(classes="row"):
                yield Label("New value", classes="row-label")
                yield Input(placeholder="a whole number", compact=True, id="edit-value")
                yield Select([("marked", YES), ("cleared", NO)], value=YES, allow_blank=False,
                             compact=True, id="edit-flag")
            yield Static("", id="edit-hint")
            with Horizontal(classes="row"):
                yield Label("Why", classes="row-label")
                yield Input(placeholder="the reason, for the journal (optional)",
                            compact=True, id="edit-reason")
            yield self.error_line()
            yield self.ok_cancel("Edit (enter)")

    def on_mount(self) -> None:
        """List the values of the first character; the list has the focus."""
        self._fill()
        self.query_one("#edit-fields", OptionList).focus()

    # ------------------------------------------------------------------ filling in

    def _fill(self) -> None:
        """The field list for the character picked."""
        self.fields = self.fields_of(self.who)
        listing = self.query_one("#edit-fields", OptionList)
        listing.clear_options()
        listing.add_options([Option(field_prompt(f), id=field_id(f)) for f in self.fields])
        if self.fields:
            listing.highlighted = 0
        self._show_value()

    @property
    def field(self) -> Editable | None:
        """The field highlighted in the list."""
        index = self.query_one("#edit-fields", OptionList).highlighted
        return self.fields[index] if index is not None and index < len(self.fields) else None

    def _show_value(self) -> None:
        """The value widgets for the field highlighted: a flag's two words, or a number
        (filled in with the value now) and its bounds."""
        f = self.field
        hint = self.query_one("#edit-hint", Static)
        self.set_class(bool(f and f.flag), "-flag")
        if f is None:
            hint.update("Nothing to edit here.")
            return
        if f.flag:
            flag = self.query_one("#edit-flag", Select)
            flag.set_options([(f.words[1], YES), (f.words[0], NO)])
            flag.value = NO if f.value else YES  # the other one: setting it again is no edit
            hint.update(f"{f.name} is {f.shown(f.value)} now.")
        else:
            self.query_one("#edit-value", Input).value = str(f.value)
            hint.update(f"{f.name} is {f.shown(f.value)} now; {f.bounds()}.")

    @on(Select.Changed, "#edit-who")
    def _who_changed(self, event: Select.Changed) -> None:
        if isinstance(event.value, str) and event.value != self.who:
            self.who = event.value
            self._fill()

    @on(OptionList.OptionHighlighted, "#edit-fields")
    def _field_changed(self) -> None:
        self._show_value()

    @on(OptionList.OptionSelected, "#edit-fields")
    def _to_value(self) -> None:
        f = self.field
        if f is not None:
            self.query_one("#edit-flag" if f.flag else "#edit-value").focus()

    @on(Input.Submitted, "#edit-value")
    def _to_reason(self) -> None:
        self.query_one("#edit-reason", Input).focus()

    # ------------------------------------------------------------------ answering

    @on(Input.Submitted, "#edit-reason")
    @on(Button.Pressed, "#ok")
    def _submit(self) -> None:
        f = self.field
        if f is None:
            self.show_error("Pick what to edit first.")
            return
        value: int | bool
        if f.flag:
            value = self.query_one("#edit-flag", Select).value == YES
        else:
            text = self.query_one("#edit-value", Input).value.strip()
            try:
                value = int(text)
            except ValueError:
                self.show_error(f"{f.name}: type {f.bounds()}, not {text!r}.")
                self.query_one("#edit-value", Input).focus()
                return
        reason = self.query_one("#edit-reason", Input).value.strip()
        self.answer((self.who, f.what, f.key, value, reason))

    @on(Button.Pressed, "#cancel")
    def _cancel(self) -> None:
        self.finish(None)
