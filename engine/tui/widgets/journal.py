"""The journal: the story so far, one styled entry per event that matters."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from rich.console import RenderableType
from textual import events
from textual.widgets import RichLog

from engine.content.loader import Pack
from engine.tui.text import journal_entry


class Journal(RichLog):
    """A scrolling log of styled journal entries that re-wraps when its width changes."""

    DEFAULT_CSS = """
    Journal { background: $surface; padding: 0 1; overflow-x: hidden; scrollbar-gutter: stable; }
    """

    def __init__(self, pack: Pack, **kwargs: Any) -> None:
        super().__init__(wrap=True, min_width=20, **kwargs)
        self.pack = pack
        self.entries: list[RenderableType] = []
        """Every entry shown, kept so the log can be re-flowed on resize."""
        self._width = 0
        self.can_focus = True

    def _render_width(self) -> int:
        return max(self.scrollable_content_region.width, 20)

    def add_events(self, events_: Iterable[Mapping[str, Any]], npcs: Mapping[str, str]) -> int:
        """Append the entries for ``events_``; return how many were added."""
        added = 0
        for e in events_:
            entry = journal_entry(e, self.pack, npcs)
            if entry is None:
                continue
            self.entries.append(entry)
            if self._width:
                self.write(entry, width=self._render_width(), scroll_end=True)
            added += 1
        return added

    def reset(self, events_: Iterable[Mapping[str, Any]], npcs: Mapping[str, str]) -> None:
        """Show exactly the entries for ``events_`` (after undo, or on open)."""
        self.entries = []
        self.clear()
        self.add_events(events_, npcs)

    def _reflow(self) -> None:
        self.clear()
        width = self._render_width()
        for entry in self.entries:
            self.write(entry, width=width, scroll_end=False)
        self.scroll_end(animate=False, immediate=True)

    def on_resize(self, event: events.Resize) -> None:
        """Re-wrap every entry when the width changes."""
        width = event.size.width
        if width and width != self._width:
            self._width = width
            self._size_known = True
            self.call_after_refresh(self._reflow)
