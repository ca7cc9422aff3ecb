"""The GM answers a question: the dialog for an ``answer`` prompt (engine/gm/answers.py).

It shows the question, the answer the GM offers and how it was drawn (the meaning words and
what of the situation it read), and takes one of three answers: accept the offer (a), ask for
another (n: a new draw, shown in a new dialog), or write your own in the box (w, then Enter).
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, Input, Label, Static

from engine.rules.base import Option
from engine.tui.screens.dialogs import Dialog, Submit
from engine.tui.text import DIM, FG
from engine.tui.widgets.keybar import KeyBar

OWN = "own"
"""The first item of the dialog's answer when the player writes their own: (OWN, text)."""


class AnswerDialog(Dialog):
    """Accept the GM's answer, ask for another, or write your own.

    ``submit`` receives "accept", "another" or ``(OWN, text)``."""

    BINDINGS = [Binding("a", "pick('accept')", "Accept"),
                Binding("n", "pick('another')", "Another"),
                Binding("w", "write", "Write my own")]

    def __init__(self, title: str, question: str, options: Sequence[Option],
                 submit: Submit, before: Text | None = None) -> None:
        super().__init__(title)
        self.question = question
        self.offer = next((o for o in options if o.id == "accept"), Option("accept", ""))
        self.submit = submit
        self.before = before or Text()

    def _body(self) -> Text:
        out = Text()
        out.append_text(self.before)
        out.append(self.question, "bold " + FG)
        out.append("\n\n")
        out.append(self.offer.label, FG)
        if self.offer.detail:
            out.append(f"\n({self.offer.detail})", DIM)
        return out

    def compose(self) -> ComposeResult:
        """The question, the offer and how it was drawn, the box for your own, the buttons."""
        yield KeyBar()
        with Vertical(classes="dialog", id="answer-dialog"):
            yield Label(self.dialog_title, classes="dialog-title")
            with VerticalScroll(classes="dialog-body"):
                yield Static(self._body(), id="offer")
            yield Label("Or write your own answer (w), then Enter:")
            yield Input(placeholder="your answer", compact=True, id="own")
            yield self.error_line()
            with Horizontal(classes="buttons"):
                yield Button("Accept (a)", variant="primary", id="accept", compact=True)
                yield Button("Another (n)", id="another", compact=True)
                yield Button("Use mine", id="mine", compact=True)

    def on_mount(self) -> None:
        """Focus Accept: a, n and w work at once."""
        self.query_one("#accept", Button).focus()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """While the box has focus, letters are typing, not keys."""
        return not (action in ("pick", "write") and isinstance(self.focused, Input))

    def action_pick(self, choice: str) -> None:
        """Accept the offer, or ask for another."""
        self.answer(choice)

    def action_write(self) -> None:
        """Move to the box for your own answer."""
        self.query_one("#own", Input).focus()

    @on(Button.Pressed, "#accept")
    def _accept(self) -> None:
        self.answer("accept")

    @on(Button.Pressed, "#another")
    def _another(self) -> None:
        self.answer("another")

    @on(Input.Submitted, "#own")
    @on(Button.Pressed, "#mine")
    def _mine(self) -> None:
        box = self.query_one("#own", Input)
        if not box.value.strip():
            self.show_error("Write your answer in the box first (or accept the offer).")
            box.focus()
            return
        self.answer((OWN, box.value))
