"""The roll panel's commands: roll (the campaign's dice, or the player's own typed in), take
what the rules offer before the roll, choose the stat, declare, set the roll's values, toggle
advantage."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input, Label, OptionList, Static
from textual.widgets.option_list import Option as ListOption

from engine.dice import parse_faces
from engine.errors import EngineError
from engine.prompts import RollPrompt
from engine.rules.base import Option
from engine.tui.messages import RollKind
from engine.tui.screens.dialogs import ChoiceDialog, DiceDialog, Submit
from engine.tui.screens.gm_dialogs import RollDiceDialog
from engine.tui.screens.play.host import PlayHost
from engine.tui.text import ACCENT, FG, odds_text
from engine.tui.widgets.keybar import KeyBar


def stat_detail(label: str, value: int) -> str:
    """What a stat adds to the roll: "+1", or "+7 (Strength 25)" when the ruleset adds a
    modifier of the stat's value (the panels game's skill modifier)."""
    extra = label.partition(" ")[2]
    return f"{value:+d}" + (f" ({label})" if extra else "")


SHORT_RANGE = 12
"""A value without names whose range is shorter than this is listed whole; a longer one is
typed in."""


def param_label(name: str, value: int, named: str | None, now: int) -> str:
    """One value in the list: "DC 15: tough (now)"."""
    return f"{name} {value}" + (f": {named}" if named else "") + (" (now)" if value == now
                                                                   else "")


class ParamsDialog(ChoiceDialog):
    """Pick a roll's value from a short list, or type it (a digit typed on the list goes to
    the first number box)."""

    def __init__(self, title: str, message: str, options: Sequence[Option],
                 typed: Sequence[tuple[str, str]], submit: Submit) -> None:
        super().__init__(title, message, options, 1, 1, submit)
        self.typed = list(typed)
        """(param id, the label of its number box) for the values typed in."""

    def compose(self) -> ComposeResult:
        """Message, the list, a number box per typed value, the buttons."""
        yield KeyBar()
        with Vertical(classes="dialog wide"):
            yield Label(self.dialog_title, classes="dialog-title")
            yield Static(self.message, classes="dialog-message", markup=False)
            yield OptionList(*[ListOption(self._prompt(o), id=o.id) for o in self.options],
                             id="choices")
            for pid, label in self.typed:
                with Horizontal(classes="row"):
                    yield Label(label)
                    yield Input(placeholder="a number", type="integer", compact=True,
                                select_on_focus=False,
                                id=f"param-{pid}")
            yield Static(self._count_text(), id="count")
            yield self.error_line()
            with Horizontal(classes="buttons"):
                yield Button("Confirm (enter)", variant="primary", id="confirm", compact=True)
                yield Button(f"{self.cancel_label} (esc)", id="cancel", compact=True)

    def on_key(self, event: events.Key) -> None:
        """A digit typed on the list starts the first number box."""
        if (self.typed and event.character and event.character.isdigit()
                and not isinstance(self.focused, Input)):
            event.stop()
            box = self.query_one(f"#param-{self.typed[0][0]}", Input)
            box.focus()
            box.insert_text_at_cursor(event.character)

    @on(Input.Submitted)
    def _typed(self, event: Input.Submitted) -> None:
        event.stop()
        pid = (event.input.id or "").removeprefix("param-")
        text = event.value.strip()
        if not text.lstrip("-").isdigit():
            self.show_error("Type a whole number.")
            return
        self.answer([f"{pid}={int(text)}"])


class Rolls:
    """Answers the roll panel (see RollPanel) for the roll the flow waits for."""

    def __init__(self, host: PlayHost) -> None:
        self.host = host

    def command(self, kind: RollKind) -> None:
        """Do what the roll panel asks: roll, pre_roll, stat, declare, params or advantage."""
        host = self.host
        game = host.game
        if game.flow.stage != "roll":
            return
        p = game.pending
        if not isinstance(p, RollPrompt):
            return
        if kind == "roll" and p.stat_choices and not game.flow.stat:
            shown = p.preview.stat if p.preview is not None else None
            if shown not in p.stat_choices:
                host.notify("This move lets you choose the stat: pick it first.", timeout=3)
                kind = "stat"
            elif not host.perform(game.set_roll_options, stat=shown):
                return  # the stat the panel shows is the one rolled: no second question
        if kind == "roll":
            if p.physical:
                self.open_dice()
            elif p.entry == "mixed":
                self.open_dice(mixed=True)
            else:
                host.perform(game.roll)
        elif kind == "pre_roll":
            offered = p.pre_roll
            if len(offered) == 1:
                host.perform(game.pre_roll, offered[0].id)
            elif offered:
                options = [Option(o.id, o.label, o.detail) for o in offered]
                host.push_dialog(lambda: ChoiceDialog(
                    "Before the roll", "", options, 1, 1,
                    lambda ids: host.submit(game.pre_roll, ids[0])))
        elif kind == "stat":
            move = game.pack.moves[game.flow.move or ""]
            options = [Option(s, game.pack.stats[s].name if s in game.pack.stats else s,
                              stat_detail(*game.rules.stat_value(game.state, move, s)))
                       for s in p.stat_choices]
            host.push_dialog(lambda: ChoiceDialog(
                "Roll with which stat?", "", options, 1, 1,
                lambda ids: host.submit(game.set_roll_options, stat=ids[0])))
        elif kind == "declare":
            declared = set(game.flow.declared)
            declarable = {d.id: d for d in p.declarations}
            options = [Option(i, d.label, d.detail) for i, d in declarable.items()]
            move = game.pack.moves[game.flow.move or ""]
            options += [Option(i, f"{game.rules.declaration_name(game.state, move, i)}"
                               " (declared)")
                        for i in declared if i not in declarable]

            def declare(ids: list[str]) -> str | None:
                # all at once: a refused declaration changes nothing
                return host.act(game.set_declarations, ids)

            host.push_dialog(lambda: ChoiceDialog(
                "Declare before the roll", "Mark what you bring into play (space toggles).",
                options, 0, len(options), declare, preselect=sorted(declared),
                groups={d.id: d.group for d in p.declarations if d.group}))
        elif kind == "params":
            self.open_params(p)
        elif kind == "advantage":
            cycle = {None: "advantage", "advantage": "disadvantage", "disadvantage": "none"}
            host.perform(game.set_roll_options, advantage=cycle.get(game.flow.advantage,
                                                                        "none"))

    def open_params(self, p: RollPrompt) -> None:
        """Set the roll's values: the named ones (a DC's difficulties) or every value of a
        short range in a list, any other value typed in, or the GM's choice."""
        host = self.host
        game = host.game
        gm = game.pack.system.gm_title
        options: list[Option] = []
        typed: list[tuple[str, str]] = []
        for prm, now in p.params:
            values = (sorted(v for v in prm.names if prm.min <= v <= prm.max) if prm.names
                      else list(range(prm.min, prm.max + 1))
                      if prm.max - prm.min < SHORT_RANGE else [])
            options += [Option(f"{prm.id}={v}", param_label(prm.name, v, prm.names.get(v), now))
                        for v in values]
            if len(values) < prm.max - prm.min + 1:
                typed.append((prm.id, f"or type the {prm.name} ({prm.min}-{prm.max}):"))
        options.append(Option("gm", f"{gm}, you choose", f"the {gm} sets it (seeded)"))
        helps = "; ".join(f"{prm.name}: {prm.help}" for prm, _ in p.params if prm.help)

        def set_params(ids: list[str]) -> str | None:
            if ids == ["gm"]:
                return host.submit(game.gm_set_params)
            name, _, value = ids[0].partition("=")
            return host.submit(game.set_roll_options, params={name: int(value)})

        message = f"Pick the value (standing in for the {gm})." + (f" {helps}" if helps else "")
        host.push_dialog(lambda: ParamsDialog("Set the roll", message, options, typed,
                                              set_params))

    def open_dice(self, mixed: bool = False) -> None:
        """Ask for the faces of the player's own dice (``mixed``: or roll them for me)."""
        host = self.host
        p = host.game.pending
        if not isinstance(p, RollPrompt) or p.preview is None:
            return
        pv = p.preview
        summary = Text(p.message, "bold " + ACCENT)
        summary.append(f"\nmodifier {pv.modifier:+d}: ", FG)
        summary.append_text(odds_text(pv.odds, pv.bands))

        def submit(text: str) -> str | None:
            if mixed and not text.strip():
                return host.submit(host.game.roll)
            try:
                faces = parse_faces(text)
            except EngineError as e:
                return e.message
            return host.submit(host.game.roll, faces)

        if mixed:
            host.push_dialog(lambda: RollDiceDialog("Your dice, or mine?", pv.dice, summary,
                                                    submit))
            return
        host.push_dialog(lambda: DiceDialog("Your dice", pv.dice, summary, submit))
