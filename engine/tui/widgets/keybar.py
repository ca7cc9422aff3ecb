"""A one-line key bar: the keys that matter now, like Textual's Footer but drawn as one text.

Textual's Footer rebuilds a widget per key whenever focus or bindings change, which costs tens
of milliseconds per action here; this bar only re-renders a line of text.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.screen import Screen
from textual.widget import Widget


class KeyBar(Widget):
    """The active, shown bindings of the screen (focused widget's first), and the palette key."""

    DEFAULT_CSS = """
    KeyBar { dock: bottom; height: 1; background: $panel; color: $foreground; }
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._text = Text()

    def on_mount(self) -> None:
        """Follow the screen's bindings."""
        self.screen.bindings_updated_signal.subscribe(self, self._changed)
        self._changed(self.screen)

    def on_unmount(self) -> None:
        """Stop following."""
        self.screen.bindings_updated_signal.unsubscribe(self)

    def _changed(self, screen: Screen[Any]) -> None:
        if screen is not self.screen:
            return
        out = Text(no_wrap=True, overflow="ellipsis")
        seen: set[str] = set()
        palette = self.app.COMMAND_PALETTE_BINDING
        active = screen.active_bindings
        for key, (_node, binding, enabled, _tip) in active.items():
            if not binding.show or binding.action in seen or key == palette:
                continue
            seen.add(binding.action)
            style_key = "bold #ff9e64" if enabled else "#737aa2"
            out.append(f" {self.app.get_key_display(binding)} ", style_key)
            out.append(f"{binding.description} ", "#a9b1d6" if enabled else "#737aa2")
        self._text = out
        self.refresh()

    def render(self) -> Text:
        """The keys, with the command palette key at the right edge."""
        width = self.size.width
        right = Text.assemble(("▏", "#414868"), ("^p", "bold #ff9e64"), (" palette ", "#a9b1d6"))
        left = self._text.copy()
        room = max(width - right.cell_len, 0)
        left.truncate(room, overflow="ellipsis", pad=True)
        return Text.assemble(left, right) if width > right.cell_len + 10 else left
