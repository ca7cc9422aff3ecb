"""The action menu: suggested moves with cue and odds, targets, after-roll options."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

from rich.text import Text
from textual.binding import Binding
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from engine.content.loader import Pack
from engine.tui.messages import MenuPicked
from engine.tui.text import ACCENT, DIM, FG, band_dicts, odds_text


def suggestion_prompt(pack: Pack, index: int, sug: dict[str, Any]) -> Text:
    """One suggested move: number, name and matched cue; the exact odds below."""
    out = Text()
    out.append(f"{index}. ", DIM)
    out.append(sug["name"], "bold " + ACCENT)
    out.append(f"  cue “{sug['cue']}”", DIM)
    odds = sug.get("odds")
    if odds:
        out.append("\n   ")
        out.append_text(odds_text(odds, band_dicts(pack, sug["move"])))
    else:
        move = pack.moves.get(sug["move"])
        if move is not None and move.roll is None:
            out.append("\n   no roll: it just happens", DIM)
        elif move is not None:
            out.append("\n   you choose the stat when you roll", DIM)
    return out


def plain_prompt(label: str, detail: str = "", hotkey: str = "", disabled: str = "") -> Text:
    """A simple entry: label, a dim detail and an optional hotkey hint; an entry that can do
    nothing now is dimmed and says why (``disabled``)."""
    out = Text(label, DIM if disabled else FG)
    if detail:
        out.append(f"  {detail}", DIM)
    if hotkey:
        out.append(f"  [{hotkey}]", DIM)
    if disabled:
        out.append(f"  ✗ {disabled}", "italic " + DIM)
    return out


class ActionMenu(OptionList):
    """An option list whose entries carry ``kind:value`` ids; choosing one posts MenuPicked."""

    BINDINGS = [
        Binding("escape", "pick('back')", "Back", show=False),
        Binding("m", "pick('all')", "All moves", show=False),
        Binding("n", "pick('none')", "Just fiction", show=False),
        Binding("1", "number(0)", show=False),
        Binding("2", "number(1)", show=False),
        Binding("3", "number(2)", show=False),
        Binding("4", "number(3)", show=False),
        Binding("5", "number(4)", show=False),
    ]

    def set_entries(self, entries: Sequence[tuple[str, Text | str]],
                    disabled: Collection[str] = ()) -> None:
        """Replace the entries: (id, prompt) pairs; an id of "-" is a separator. Ids in
        ``disabled`` are shown but cannot be highlighted or picked."""
        self.clear_options()
        opts: list[Option | None] = []
        for key, prompt in entries:
            opts.append(None if key == "-" else Option(prompt, id=key,
                                                       disabled=key in disabled))
        self.add_options(opts)
        first = next((i for i, o in enumerate(self.options) if not o.disabled), None)
        self.highlighted = first

    def action_pick(self, key: str) -> None:
        """Choose the entry with id ``key`` if the menu has it ("back" always posts)."""
        ids = {o.id for o in self.options if not o.disabled}
        if key in ids or key == "back":
            self.post_message(MenuPicked(key))

    def action_number(self, index: int) -> None:
        """Choose the n-th suggested move."""
        moves = [o.id for o in self.options
                 if o.id and o.id.startswith("move:") and not o.disabled]
        if index < len(moves):
            self.post_message(MenuPicked(moves[index]))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Turn a selection into MenuPicked."""
        event.stop()
        if event.option.id:
            self.post_message(MenuPicked(event.option.id))
