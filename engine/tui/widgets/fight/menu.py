"""The fight panel's menu: entries that each carry what choosing them does, the fight's keys
(Esc back, Space a referee step, r run, t take over, e end the turn, d say, n not a fight
action, 1-9 a numbered entry)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option

SEPARATOR = "-"
"""The id of a separator entry."""

Chosen = Callable[[], None]
"""What choosing an entry does."""


@dataclass(frozen=True)
class Entry:
    """One entry of the menu."""

    id: str
    """Its id (unique in the menu; ``SEPARATOR`` for a separator line); a key may choose it
    by id ("step", "run", "take", "end", "say", "none")."""
    prompt: Text | str = ""
    """What it shows."""
    chosen: Chosen | None = None
    """What choosing it does."""
    disabled: bool = False
    """Shown, but it cannot be highlighted or chosen."""
    numbered: bool = False
    """Chosen by its number key (1-9, in order among the numbered entries)."""


class FightList(OptionList):
    """The entries of the fight panel; choosing one runs its ``chosen``."""

    class Resized(Message):
        """The menu's width changed: entries cut to fit the old width may be drawn again."""

    BINDINGS = [
        Binding("escape", "back", "Back", show=False),
        Binding("n", "pick('none')", show=False),
        Binding("space", "pick('step')", show=False),
        Binding("r", "pick('run')", show=False),
        Binding("t", "pick('take')", show=False),
        Binding("e", "pick('end')", show=False),
        Binding("d", "pick('say')", show=False),
        *(Binding(str(i + 1), f"number({i})", show=False) for i in range(9)),
    ]

    def __init__(self, back: Callable[[], None], **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self._back = back
        self._entries: dict[str, Entry] = {}
        self._numbered: list[Entry] = []
        self._last_width: int | None = None

    def set_entries(self, entries: Sequence[Entry]) -> None:
        """Replace the entries; the first that can be chosen is highlighted."""
        self.clear_options()
        self._entries = {e.id: e for e in entries if e.id != SEPARATOR}
        self._numbered = [e for e in entries if e.numbered]
        self.add_options([None if e.id == SEPARATOR else
                          Option(e.prompt, id=e.id, disabled=e.disabled) for e in entries])
        self.highlighted = next((i for i, o in enumerate(self.options) if not o.disabled),
                                None)

    @property
    def ids(self) -> list[str]:
        """The entries' ids, in order (separators left out)."""
        return [str(o.id) for o in self.options if o.id]

    def _choose(self, entry: Entry | None) -> None:
        if entry is not None and not entry.disabled and entry.chosen is not None:
            entry.chosen()

    def action_pick(self, key: str) -> None:
        """Choose the entry with id ``key`` if the menu has it."""
        self._choose(self._entries.get(key))

    def action_back(self) -> None:
        """Esc: one step back in the choice."""
        self._back()

    def action_number(self, index: int) -> None:
        """Choose the n-th numbered entry (a dimmed one keeps its number and does nothing)."""
        if index < len(self._numbered):
            self._choose(self._numbered[index])

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Enter (or a click) chooses the highlighted entry."""
        event.stop()
        if event.option.id:
            self._choose(self._entries.get(event.option.id))

    def on_resize(self, event: events.Resize) -> None:
        """Say so when the width changes (a height change needs nothing)."""
        if self._last_width is not None and event.size.width != self._last_width:
            self.post_message(self.Resized())
        self._last_width = event.size.width
