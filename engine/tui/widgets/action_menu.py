"""The action menu: suggested moves with the words that led to them and their odds, the "No
move" suggestion, targets, after-roll options."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from engine.content.loader import Pack
from engine.prompts import Suggestion
from engine.tui.messages import MenuPicked
from engine.tui.text import ACCENT, DIM, FG, band_dicts, odds_text


def suggestion_reason(sug: Suggestion, room: int | None = None) -> Text:
    """Why the engine suggests this: the player's own words that led to it, or (a flow saved
    before words were kept) the matched cue; empty when neither is known. With ``room``, words
    are left off the end ("…") until the reason fits in that many cells (empty if none fit)."""
    words = [w for w in sug.words if w.strip()]
    if not words:
        cue = sug.cue
        out = Text(f"cue “{cue}”", DIM) if cue else Text()
        return out if room is None or out.cell_len <= room else Text()
    for keep in range(len(words), 0, -1):
        shown = ", ".join(f"“{w}”" for w in words[:keep]) + (", …" if keep < len(words) else "")
        out = Text("you said " + shown, DIM)
        if room is None or out.cell_len <= room:
            return out
    return Text()


def suggestion_prompt(pack: Pack, index: int, sug: Suggestion,
                      width: int | None = None) -> Text:
    """One suggestion in two lines at most: number, name, the target the fiction names and the
    words that led to it; below, the exact odds (or what picking it means). The "No move"
    suggestion (``move`` None) is one line. ``width`` cuts each line to fit, words left off
    first, instead of wrapping."""
    move_id = sug.move
    head = Text()
    head.append(f"{index}. ", DIM)
    head.append(sug.name or (move_id or "No move, just fiction"), "bold " + ACCENT)
    target = sug.target_name or sug.target
    if target and move_id:
        head.append(f" → {target}", "bold " + FG)
    room = None if width is None else width - head.cell_len - 2
    reason = suggestion_reason(sug, room)
    if reason.plain:
        head.append("  ")
        head.append_text(reason)
    below = Text("   ")
    odds = sug.odds
    move = pack.moves.get(move_id) if move_id else None
    if move_id is None:  # one line, so the menu's own entries stay in view at 80x24
        below = Text()
    elif sug.blocked:
        below.append(f"✗ not now: {sug.blocked}", "italic " + DIM)
    elif sug.opens:
        below.append("the fight starts, and this attack is your first action", DIM)
    elif odds:
        below.append_text(odds_text(odds, band_dicts(pack, move_id)))
    elif move is not None and move.roll is None:
        below.append("no roll: it just happens", DIM)
    elif move is not None:
        below.append("you choose the stat when you roll", DIM)
    else:
        below = Text()
    lines = [head, below] if below.plain else [head]
    if width is not None and width > 8:
        for line in lines:
            line.truncate(width, overflow="ellipsis")
    return Text("\n").join(lines)


class ActionMenu(OptionList):
    """An option list whose entries carry ``kind:value`` ids; choosing one posts MenuPicked."""

    class Resized(Message):
        """The menu's width changed (the sheet shown or hidden, the terminal resized): entries
        cut to fit the old width may be drawn again."""

    BINDINGS = [
        Binding("escape", "pick('back')", "Back", show=False),
        Binding("m", "pick('all')", "All moves", show=False),
        Binding("n", "pick('none')", "Just fiction", show=False),
        # fights (an entry with that id must be in the menu)
        Binding("space", "pick('step')", show=False),
        Binding("r", "pick('run')", show=False),
        Binding("t", "pick('take')", show=False),
        Binding("e", "pick('end')", show=False),
        Binding("d", "pick('say')", show=False),
        Binding("1", "number(0)", show=False),
        Binding("2", "number(1)", show=False),
        Binding("3", "number(2)", show=False),
        Binding("4", "number(3)", show=False),
        Binding("5", "number(4)", show=False),
        Binding("6", "number(5)", show=False),
        Binding("7", "number(6)", show=False),
        Binding("8", "number(7)", show=False),
        Binding("9", "number(8)", show=False),
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

    def on_resize(self, event: events.Resize) -> None:
        """Say so when the width changes (a height change needs nothing)."""
        if event.size.width != getattr(self, "_last_width", event.size.width):
            self.post_message(self.Resized())
        self._last_width = event.size.width

    def action_pick(self, key: str) -> None:
        """Choose the entry with id ``key`` if the menu has it ("back" always posts)."""
        ids = {o.id for o in self.options if not o.disabled}
        if key in ids or key == "back":
            self._post(key)

    def action_number(self, index: int) -> None:
        """Choose the n-th numbered suggestion (ids ``move:ID``; ``move:`` alone is the "No
        move, just fiction" suggestion)."""
        numbered = [(o.id, o.disabled) for o in self.options
                    if o.id and o.id.startswith(("move:", "fight:", "ftarget:", "fsug:", "fneed:",
                                                "fchoice:"))]
        # fight entries keep their number when dimmed; suggestions skip dimmed ones
        if index >= 5 and all(i.startswith("move:") for i, _ in numbered):
            return  # suggestions are numbered 1-5
        moves = [i for i, off in numbered if not (off and i.startswith("move:"))]
        if index < len(moves) and (moves[index], True) in numbered:
            return  # a dimmed fight entry
        if index < len(moves):
            self._post(moves[index])

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Turn a selection into MenuPicked."""
        event.stop()
        if event.option.id:
            self._post(event.option.id)

    def _post(self, key: str) -> None:
        """Post the typed message of the entry with id ``key``."""
        picked = MenuPicked.of(key)
        if picked is not None:
            self.post_message(picked)
