"""The "Previously..." panel: a short recap above the journal when a campaign is resumed.

It shows what ``engine.recap.recap`` makes of the log, closes with Esc, a click or the first
action taken, and ^R brings it back (rebuilt from the log as it is then).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from rich.table import Table
from rich.text import Text
from textual import events
from textual.widgets import Static

from engine.content.loader import Pack
from engine.recap import recap
from engine.rules.state import CampaignState

_MARKS = re.compile(r"\*\*(.+?)\*\*|(?<![\w])_(.+?)_(?![\w])")


def styled(line: str) -> Text:
    """One recap line for the screen: ``**bold**`` and ``_italic_`` as styles (the marks
    themselves dropped)."""
    out = Text()
    at = 0
    for m in _MARKS.finditer(line):
        out.append(line[at:m.start()])
        out.append(m.group(1) or m.group(2), "bold" if m.group(1) else "italic")
        at = m.end()
    out.append(line[at:])
    return out


class RecapPanel(Static):
    """"Previously...": hidden until ``show_recap`` has something to say."""

    DEFAULT_CSS = """
    RecapPanel {
        display: none;
        height: auto;
        max-height: 65%;
        overflow-y: auto;
        border: round $accent 70%;
        border-title-color: $accent;
        border-subtitle-color: $text-muted;
        background: $surface;
        padding: 0 1;
    }
    RecapPanel.-shown { display: block; }
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.lines: list[str] = []
        """The recap's Markdown lines (the heading first), as last shown."""
        self.border_subtitle = "Esc closes · ^R recap"

    @property
    def shown(self) -> bool:
        """Whether the panel is on screen."""
        return self.has_class("-shown")

    def show_recap(self, events_: Iterable[dict[str, Any]], state: CampaignState,
                   pack: Pack | None) -> bool:
        """Build the recap from the log and show it; False (and hidden) if there is nothing
        to recap yet."""
        self.lines = recap(events_, state, pack)
        if not self.lines:
            self.dismiss()
            return False
        head, *rest = self.lines
        self.border_title = head.replace("**", "")
        grid = Table.grid(padding=(0, 1))  # list items with a hanging indent
        grid.add_column(width=1, style="bold")
        grid.add_column(ratio=1)
        for line in rest:
            bullet = line.startswith("- ")
            grid.add_row("•" if bullet else "", styled(line[2:] if bullet else line))
        self.update(grid)
        self.add_class("-shown")
        self.scroll_home(animate=False)
        self.call_after_refresh(self._say_more)
        return True

    def _say_more(self) -> None:
        """Say in the border when the recap runs past the panel, and how to read on."""
        more = self.max_scroll_y > 0
        self.border_subtitle = ("PgDn/PgUp scroll · " if more else "") + "Esc closes · ^R recap"

    def page(self, direction: int) -> None:
        """Scroll a page down (``direction`` 1) or up (-1); forced, since a Static with no
        children does not count as scrollable."""
        step = max(1, self.scrollable_content_region.height - 1)
        self.scroll_relative(y=direction * step, animate=False, force=True)

    def watch_scroll_y(self, old: float, new: float) -> None:
        """At the end of the recap the hint says so."""
        super().watch_scroll_y(old, new)
        if self.max_scroll_y > 0:
            end = "end · " if new >= self.max_scroll_y else ""
            self.border_subtitle = f"{end}PgDn/PgUp scroll · Esc closes · ^R recap"

    def dismiss(self) -> None:
        """Hide the panel (harmless when hidden)."""
        self.remove_class("-shown")

    def on_click(self, event: events.Click) -> None:
        """A click closes it."""
        event.stop()
        self.dismiss()
