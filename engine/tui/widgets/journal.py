"""The journal: the story so far, one styled entry per event that matters."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from rich.console import RenderableType
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.geometry import Size
from textual.widget import Widget
from textual.widgets import RichLog

from engine.content.loader import Pack
from engine.tui.text import DIM, journal_entry, story_entry

MAX_ENTRIES = 2000
"""Entries kept on screen; older ones drop off the top (``sidekick export`` has them all)."""


class Journal(RichLog):
    """A scrolling log of styled journal entries that re-wraps when its width changes.

    Each entry remembers the event number it came from and the line it starts at, so undo
    removes the last entries without redrawing the rest.
    """

    DEFAULT_CSS = """
    Journal { background: $surface; padding: 0 1; overflow-x: hidden; scrollbar-gutter: stable; }
    """

    BINDINGS = [Binding("v", "toggle_view", "Story / full log")]

    def __init__(self, pack: Pack, **kwargs: Any) -> None:
        super().__init__(wrap=True, min_width=20, **kwargs)
        self.pack = pack
        self.entries: list[tuple[int, RenderableType]] = []
        """(event number, entry) for every entry shown."""
        self.dropped = 0
        """How many early entries are not shown."""
        self.story = False
        """Showing the story view (fiction, narration, answers; a move in one line)."""
        self._all: list[tuple[int, Mapping[str, Any], Mapping[str, str]]] = []
        """(event number, event, names) for every event shown: the other view is made from
        them when asked for (nothing is spent on it before)."""
        self._starts: list[int] = []
        self._width = 0
        self._height = 0
        self.can_focus = True

    def on_mount(self) -> None:
        """Stay at the end as new lines come, until the player scrolls back; a new entry
        brings it to the end again."""
        self.anchor()

    def _size_updated(self, size: Size, virtual_size: Size, container_size: Size,
                      layout: bool = True) -> bool:
        """Keep a journal that was at its end at its end when its height changes, before the
        frame is painted. (Textual's layout sets the new size just before painting and
        sends the Resize after it: scrolling on Resize showed the result a frame late.)"""
        at_end = self.is_anchored and self.scroll_y >= self.max_scroll_y
        changed = super()._size_updated(size, virtual_size, container_size, layout)
        if changed and at_end and self.scroll_y != self.max_scroll_y:
            end = self.max_scroll_y
            self.set_reactive(Widget.scroll_y, end)
            self.set_reactive(Widget.scroll_target_y, end)
            self.vertical_scrollbar.position = end
        return changed

    def _render_width(self) -> int:
        return max(self.scrollable_content_region.width, 20)

    def _draw(self, entry: RenderableType) -> None:
        self._starts.append(len(self.lines))
        self.write(entry, width=self._render_width(), scroll_end=False)

    def add_events(self, events_: Iterable[Mapping[str, Any]], npcs: Mapping[str, str]) -> int:
        """Append the entries for ``events_``; return how many were added (shown)."""
        added = 0
        for e in events_:
            self._all.append((int(e.get("n", 0)), e, npcs))
            entry = self._entry(e, npcs)
            if entry is None:
                continue
            self.entries.append((int(e.get("n", 0)), entry))
            if self._width:
                self._draw(entry)
            added += 1
        if len(self._all) > 4 * MAX_ENTRIES:
            del self._all[:len(self._all) - 4 * MAX_ENTRIES]
        if len(self.entries) > MAX_ENTRIES:
            extra = len(self.entries) - MAX_ENTRIES
            self.dropped += extra
            del self.entries[:extra]
            if self._width:
                self._reflow()
                return added
        if added and self._width:
            # now, so the new lines are in the very next frame (a deferred scroll costs one)
            self.scroll_end(animate=False, immediate=True, x_axis=False)
        return added

    def _entry(self, e: Mapping[str, Any], npcs: Mapping[str, str]) -> RenderableType | None:
        """The event's entry in the view shown."""
        return (story_entry if self.story else journal_entry)(e, self.pack, npcs)

    def action_toggle_view(self) -> None:
        """Switch between the story view and the full log."""
        self.set_view(not self.story)

    def set_view(self, story: bool) -> None:
        """Show the story view (``story``) or the full log, the same events."""
        if story == self.story:
            return
        self.story = story
        chosen = [(n, self._entry(e, npcs)) for n, e, npcs in self._all]
        self.entries = [(n, x) for n, x in chosen if x is not None][-MAX_ENTRIES:]
        self.dropped = 0
        if self._width:
            self._reflow()
        self.notify("Journal: the story" if story else "Journal: the full log", timeout=2)

    def reset(self, events_: Iterable[Mapping[str, Any]], npcs: Mapping[str, str]) -> None:
        """Show exactly the entries for ``events_`` (on open)."""
        self.entries = []
        self._all = []
        self.dropped = 0
        width, self._width = self._width, 0  # collect first, then draw once
        self.add_events(events_, npcs)
        self._width = width
        if width:
            self._reflow()

    def undo_after(self, event_no: int) -> None:
        """Remove the entries of events after ``event_no`` (what an undo took back)."""
        while self._all and self._all[-1][0] > event_no:
            self._all.pop()
        before = len(self.entries)
        keep = before
        while keep and self.entries[keep - 1][0] > event_no:
            keep -= 1
        if keep == before:
            return
        del self.entries[keep:]
        if not self._width:
            return
        if len(self._starts) != before or keep == 0:
            self._reflow()
            return
        cut = self._starts[keep]
        del self._starts[keep:]
        del self.lines[cut:]
        self._line_cache.clear()
        self.virtual_size = Size(self.virtual_size.width, len(self.lines))
        self.scroll_end(animate=False, immediate=True, x_axis=False)
        self.refresh()

    def _reflow(self) -> None:
        self.clear()
        self._starts = []
        if self.dropped:
            self.write(Text(f"… {self.dropped} earlier entries (sidekick export shows the whole"
                            " journal)", DIM), width=self._render_width(), scroll_end=False)
        for _n, entry in self.entries:
            self._draw(entry)
        self.scroll_end(animate=False, immediate=True)

    def on_resize(self, event: events.Resize) -> None:
        """Re-wrap every entry when the width changes; stay at the end when the height does."""
        width = event.size.width
        if width and width != self._width:
            self._width = width
            self._size_known = True
            self.call_after_refresh(self._reflow)
        elif self._height and self.scroll_y >= self.max_scroll_y + (event.size.height
                                                                    - self._height):
            self.scroll_end(animate=False, immediate=True, x_axis=False)  # it was at the end
        self._height = event.size.height
