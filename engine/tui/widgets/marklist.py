"""A list of names to mark with Space, where a mark shows as a sign (✓), not only as a colour,
and Enter submits the form it is in instead of toggling."""

from __future__ import annotations

from rich.segment import Segment
from textual.binding import Binding
from textual.message import Message
from textual.strip import Strip
from textual.widgets import SelectionList

MARKED = "✓"
UNMARKED = " "


class MarkList(SelectionList[str]):
    """A ``SelectionList`` whose boxes read ✓ or blank; Space marks, Enter posts
    ``MarkList.Submitted``."""

    BINDINGS = [Binding("enter", "submit", "Done", show=False)]

    class Submitted(Message):
        """Enter was pressed in the list."""

    def action_submit(self) -> None:
        """Enter: the form goes on (Space marks)."""
        self.post_message(self.Submitted())

    def render_line(self, y: int) -> Strip:
        """The line as the selection list draws it, with the box's X a ✓ or a blank."""
        line = super().render_line(y)
        segments = list(line)
        if len(segments) < 3:
            return line
        try:
            selection = self.get_option_at_index(self.scroll_offset.y + y)
        except Exception:  # past the last option: a blank line, drawn as it is
            return line
        sign = MARKED if selection.value in self._selected else UNMARKED
        box = segments[1]
        segments[1] = Segment(sign, box.style, box.control)
        return Strip(segments, line.cell_length)
