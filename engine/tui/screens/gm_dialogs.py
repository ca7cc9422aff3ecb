"""Dialogs for the automated GM's tools (the oracle, GM-framed scenes, the GM's tables) and
for the dice of a campaign that lets each roll choose (enter your dice or have them rolled)."""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from engine.errors import EngineError
from engine.gm.values import GMTable, OracleLevel, SceneProposal
from engine.journal import scene_heading
from engine.tui.screens.dialogs import Dialog, DiceDialog, Submit
from engine.tui.text import ACCENT, DIM, FG, GOOD
from engine.tui.widgets.keybar import KeyBar


def _level_prompt(level: OracleLevel) -> Text:
    odds = level.odds
    out = Text(f"{level.name:<17} ", "bold " + FG)
    out.append(f"yes {level.chance}%", GOOD)
    def pct(key: str) -> str:
        return str(odds[key]).replace(".0%", "%")

    out.append(f"  exceptional yes {pct('exceptional yes')} / no {pct('exceptional no')}",
               DIM)  # the twist chance is the same at every level: the header says it
    return out


def _dice_hint(dice_mode: str, notation: str) -> str:
    """What the dice field asks for in this dice mode."""
    if dice_mode == "physical":
        return f"Your {notation} (you roll it):"
    return f"Your {notation}, if you roll it yourself (empty: rolled for you):"


class OracleDialog(Dialog):
    """Ask the oracle a yes/no question at a likelihood; the exact odds of each answer show.
    A d100 field takes the player's own roll (required with physical dice); it answers
    ``(question, likelihood id, d100 text or None)``."""

    DEFAULT_CSS = """
    OracleDialog #levels { max-height: 6; }
    """

    def __init__(self, levels: list[OracleLevel], tension: int, submit: Submit,
                 dice_mode: str = "seeded") -> None:
        super().__init__("Ask the oracle")
        self.levels = levels
        self.tension = tension
        self.submit = submit
        self.dice_mode = dice_mode

    def compose(self) -> ComposeResult:
        """Question, likelihoods with odds, buttons."""
        yield KeyBar()
        with Vertical(classes="dialog wide"):
            yield Label(self.dialog_title, classes="dialog-title")
            with VerticalScroll(classes="dialog-body"):
                yield Static(Text("A yes/no question about the story; the d100 answers. "
                                  f"Tension {self.tension}/9: twists come on doubles up to"
                                  f" {self.tension}{self.tension}.", DIM))
                yield Input(placeholder="e.g. Is the ferry still running?", id="question",
                            compact=True)
                yield Label("How likely is yes? (↑↓, Enter asks" + (
                    "; Tab to type your own d100 first)" if self.dice_mode == "mixed"
                    else ")"))
                yield OptionList(*[Option(_level_prompt(lv), id=lv.id)
                                   for lv in self.levels], id="levels")
                yield Label(_dice_hint(self.dice_mode, "d100"))
                yield Input(placeholder="1-100" if self.dice_mode == "physical" else
                            "1-100, or leave empty", id="d100", compact=True)
            yield self.error_line()
            yield self.ok_cancel("Ask (enter)")

    def on_mount(self) -> None:
        """Start on the question, with 50/50 highlighted."""
        levels = self.query_one("#levels", OptionList)
        ids = [lv.id for lv in self.levels]
        levels.highlighted = ids.index("even") if "even" in ids else len(ids) // 2
        self.query_one("#question", Input).focus()

    @on(Input.Submitted, "#question")
    def _to_levels(self) -> None:
        self.query_one("#levels", OptionList).focus()

    @on(OptionList.OptionSelected, "#levels")
    def _to_dice(self) -> None:
        """Enter on a likelihood asks at once (a d100 typed first is used, and with seeded or
        mixed dice an empty one is rolled for you); only physical dice go on to the d100
        field when it is empty."""
        d100 = self.query_one("#d100", Input)
        if self.dice_mode == "physical" and not d100.value.strip():
            d100.focus()
            return
        self._ask()

    @on(Input.Submitted, "#d100")
    @on(Button.Pressed, "#ok")
    def _ask(self) -> None:
        levels = self.query_one("#levels", OptionList)
        index = levels.highlighted if levels.highlighted is not None else 0
        question = self.query_one("#question", Input).value.strip()
        if not question:
            self.show_error("Type the question first.")
            self.query_one("#question", Input).focus()
            return
        d100 = self.query_one("#d100", Input).value.strip() or None
        if d100 is None and self.dice_mode == "physical":
            self.show_error("This campaign uses your dice: roll a d100 and type it (1-100).")
            self.query_one("#d100", Input).focus()
            return
        self.answer((question, self.levels[index].id, d100))

    @on(Button.Pressed, "#cancel")
    def _cancel(self) -> None:
        self.finish(None)


class FramedSceneDialog(Dialog):
    """The GM's proposal for the next scene: accept it, ask for another, or write your own.
    With ``place_die`` and ``propose_at`` the player may roll the place themselves."""

    BINDINGS = [Binding("escape", "cancel", "Cancel"),
                Binding("r", "reroll", "Another"),
                Binding("w", "write", "Write my own")]

    def __init__(self, number: int, propose: Callable[[int], SceneProposal],
                 names: dict[str, str], submit: Submit,
                 write_own: Callable[[], object], gm_title: str = "GM") -> None:
        super().__init__(f"Scene {number}")
        self.gm_title = gm_title
        self.propose = propose
        self.names = names
        self.submit = submit
        self.write_own = write_own
        self.reroll = 0
        self.proposal: SceneProposal = propose(0)
        self.place_die: int | None = None
        self.propose_at: Callable[[int, str], SceneProposal] | None = None

    def roll_the_place(self, die: int | None,
                       propose_at: Callable[[int, str], SceneProposal]) -> FramedSceneDialog:
        """Offer a field for the player's own roll of the place (d``die``)."""
        self.place_die = die
        self.propose_at = propose_at
        return self

    def compose(self) -> ComposeResult:
        """The proposal and the three choices."""
        yield KeyBar()
        with Vertical(classes="dialog wide"):
            yield Label(f"{self.dialog_title}: the {self.gm_title} frames the scene",
                        classes="dialog-title")
            with VerticalScroll(classes="dialog-body"):
                yield Static(self._text(), id="proposal")
                if self.place_die and self.propose_at is not None:
                    yield Label(f"Roll the place yourself? Your d{self.place_die}, then Enter:")
                    yield Input(placeholder=f"1-{self.place_die}, or leave it to the"
                                f" {self.gm_title}", id="place", compact=True)
            yield self.error_line()
            with Horizontal(classes="buttons"):
                yield Button("Play it (enter)", variant="primary", id="ok", compact=True)
                yield Button("Another (r)", id="reroll", compact=True)
                yield Button("Write my own (w)", id="write", compact=True)

    def on_mount(self) -> None:
        """Focus the accept button."""
        self.query_one("#ok", Button).focus()

    def _text(self) -> Text:
        p = self.proposal
        out = Text()
        # the place once, not title and place
        out.append(scene_heading({"title": p.title, "location": p.location}), "bold " + ACCENT)
        out.append("\n\n")
        out.append(p.opening, "italic " + FG)
        out.append("\n\nAt stake: ", "bold " + FG)
        out.append(p.stakes, FG)
        cast = ", ".join(self.names.get(n, n) for n in p.present) or "nobody yet"
        out.append("\nWho is there: ", "bold " + FG)
        out.append(cast, FG)
        if p.place_roll is not None:
            out.append(f"\nThe place: your d{self.place_die} roll, {p.place_roll}", DIM)
        if p.test:  # the scene test: the d10 against the tension, with its odds
            out.append(f"\n{p.test}", DIM)
        return out

    @on(Input.Submitted, "#place")
    def _place(self, event: Input.Submitted) -> None:
        assert self.propose_at is not None
        try:
            self.proposal = self.propose_at(self.reroll, event.value)
        except EngineError as e:
            self.show_error(e.message)
            return
        self.show_error(None)
        self.query_one("#proposal", Static).update(self._text())
        self.query_one("#ok", Button).focus()

    def action_reroll(self) -> None:
        """Ask the GM for another proposal."""
        self.reroll += 1
        self.proposal = self.propose(self.reroll)
        self.query_one("#proposal", Static).update(self._text())

    @on(Button.Pressed, "#reroll")
    def _reroll(self) -> None:
        self.action_reroll()

    def action_write(self) -> None:
        """Frame the scene yourself instead."""
        self.finish(None)
        self.write_own()

    @on(Button.Pressed, "#write")
    def _write(self) -> None:
        self.action_write()

    @on(Button.Pressed, "#ok")
    def _ok(self) -> None:
        self.answer(self.proposal)


class TableDialog(Dialog):
    """Roll on one of the GM's tables: pick the table, then type your own roll of its die
    (d<total weight>) or leave it empty for the GM's pick (not with physical dice). It answers
    ``(table id, roll text or None)``."""

    def __init__(self, tables: list[GMTable], submit: Submit,
                 dice_mode: str = "seeded", gm_title: str = "GM") -> None:
        super().__init__(f"Roll on the {gm_title}'s tables")
        self.tables = tables
        self.submit = submit
        self.dice_mode = dice_mode
        self.gm_title = gm_title

    def compose(self) -> ComposeResult:
        """The tables with their dice, the roll, buttons."""
        yield KeyBar()
        with Vertical(classes="dialog wide"):
            yield Label(self.dialog_title, classes="dialog-title")
            with VerticalScroll(classes="dialog-body"):
                yield Label("Which table? (↑↓, Enter)")
                yield OptionList(*[Option(Text.assemble((f"{t.name:<28}", "bold " + FG),
                                                        (f"d{t.sides}", GOOD)), id=t.id)
                                   for t in self.tables], id="tables")
                yield Label(self._hint(), id="roll-hint")
                yield Input(placeholder="your roll" + (
                    "" if self.dice_mode == "physical" else
                    f", or leave empty for the {self.gm_title}'s pick"), id="roll", compact=True)
            yield self.error_line()
            yield self.ok_cancel("Roll (enter)")

    def _table(self) -> GMTable:
        tables = self.query_one("#tables", OptionList)
        return self.tables[tables.highlighted or 0]

    def _hint(self) -> str:
        sides = self.tables[0].sides if self.tables else 0
        if self.is_mounted:
            sides = self._table().sides
        return _dice_hint(self.dice_mode, f"d{sides}")

    def on_mount(self) -> None:
        """Start on the table list."""
        self.query_one("#tables", OptionList).focus()

    @on(OptionList.OptionHighlighted, "#tables")
    def _highlighted(self) -> None:
        self.query_one("#roll-hint", Label).update(self._hint())

    @on(OptionList.OptionSelected, "#tables")
    def _to_roll(self) -> None:
        self.query_one("#roll", Input).focus()

    @on(Input.Submitted, "#roll")
    @on(Button.Pressed, "#ok")
    def _roll(self) -> None:
        roll = self.query_one("#roll", Input).value.strip() or None
        if roll is None and self.dice_mode == "physical":
            self.show_error(f"This campaign uses your dice: roll a d{self._table().sides}"
                            " and type it.")
            self.query_one("#roll", Input).focus()
            return
        self.answer((self._table().id, roll))

    @on(Button.Pressed, "#cancel")
    def _cancel(self) -> None:
        self.finish(None)


class RollDiceDialog(DiceDialog):
    """A roll in a campaign whose dice are ``mixed``: type the faces of your own dice, or
    leave the field empty (or press "Roll for me") to have the campaign roll them. It answers
    the text typed ("" for rolled for you)."""

    BINDINGS = [Binding("escape", "cancel", "Cancel"),
                Binding("ctrl+r", "roll_for_me", "Roll for me")]
    placeholder = "e.g. 3 5, or leave empty"

    def hint(self) -> str:
        """Either way of rolling."""
        return _dice_hint("mixed", self.notation)

    def buttons(self) -> ComposeResult:
        """Roll with the faces typed, roll for me, cancel."""
        yield Button("Roll (enter)", variant="primary", id="ok", compact=True)
        yield Button("Roll for me (^R)", id="for-me", compact=True)
        yield Button("Cancel (esc)", id="cancel", compact=True)

    def action_roll_for_me(self) -> None:
        """Let the campaign roll."""
        self.answer("")

    @on(Button.Pressed, "#for-me")
    def _for_me(self) -> None:
        self.action_roll_for_me()


DICE_MODE_OPTIONS = [
    {"id": "seeded", "label": "Seeded: the campaign rolls every die",
     "detail": "the same seed and choices replay the same story"},
    {"id": "physical", "label": "Physical: you roll and type every die",
     "detail": "moves, the oracle's d100, Heat, Backfire and faction rolls"},
    {"id": "mixed", "label": "Mixed: each roll asks",
     "detail": "type your dice, or leave the field empty to have them rolled"},
]
"""The three dice modes, for the dialog that switches them."""
