"""The dimmed play screen behind a dialog: drawn once when the dialog opens.

A modal screen with a translucent background (``ModalScreen { background: $background 60% }``)
draws the screen below it through Textual's ``BackgroundScreen``: the whole play screen rendered
again and its tint blended into every segment's colours one by one, each time the dialog's
background repaints: when it opens, on the resize that follows, and whenever anything behind
it changes. That cost 11.6 ms a time at 120x40, five times per dialog on average.

:class:`BackdropScreen` draws the screen below once, when the dialog first paints (and again
only if the terminal's size changes), blending each distinct style once (``_tint``, the same
colours as ``BackgroundScreen``), and replays that picture afterwards. The picture behind a
dialog is the play screen as it was when the dialog opened; the play screen itself is live
again the moment the dialog closes.
"""

from __future__ import annotations

from typing import Generic, TypeVar

from rich.segment import Segment
from rich.style import Style
from textual.color import Color
from textual.geometry import Size
from textual.screen import ModalScreen, Screen
from textual.strip import Strip

_NULL = Style()

_R = TypeVar("_R")


def _tint(style: Style | None, color: Color, base: Style) -> Style:
    """``style`` as Textual draws it dimmed behind a dialog: without links or meta, with
    ``color`` blended into its colours, over the dialog's ``base`` style."""
    plain = _NULL if style is None else style.clear_meta_and_links()
    if color.a:
        fg, bg = plain.color, plain.bgcolor
        plain += Style.from_color(
            (Color.from_rich_color(fg) + color).rich_color if fg is not None else None,
            (Color.from_rich_color(bg) + color).rich_color if bg is not None else None)
    return base + plain


def _dimmed(strip: Strip, color: Color, base: Style,
            cache: dict[Style | None, Style]) -> Strip:
    """``strip`` dimmed (``_tint``), each distinct style worked out once per ``cache``."""
    out = []
    for segment in strip:
        text, style, control = segment
        if control:
            out.append(segment)
            continue
        tinted = cache.get(style)
        if tinted is None:
            tinted = cache[style] = _tint(style, color, base)
        out.append(Segment(text, tinted, control))
    return Strip(out, strip.cell_length)


class BackdropScreen(ModalScreen[_R], Generic[_R]):
    """A modal screen that draws the dimmed screen below it once (see the module)."""

    _backdrop: tuple[Size, Screen[object], list[Strip]] | None = None

    def _below(self) -> Screen[object] | None:
        """The screen this one is drawn over, if it shows through."""
        if self.styles.background.a >= 1:
            return None
        stack = self.app.screen_stack
        index = next((i for i, screen in enumerate(stack) if screen is self), 0)
        return stack[index - 1] if index > 0 else None

    def _backdrop_lines(self) -> list[Strip] | None:
        """The screen below, tinted: drawn at the first paint and at each new size."""
        below = self._below()
        if below is None:
            return None
        kept = self._backdrop
        if kept is not None and kept[0] == self.size and kept[1] is below:
            return kept[2]
        color, base = self.styles.background, self.visual_style.rich_style
        styles: dict[Style | None, Style] = {}
        lines = [_dimmed(strip, color, base, styles)
                 for strip in below._compositor.render_strips(self.size)]
        self._backdrop = (self.size, below, lines)
        return lines

    def render_line(self, y: int) -> Strip:
        """A line of the screen below as it was when this one opened (tinted)."""
        lines = self._backdrop_lines()
        if lines is None:
            return super().render_line(y)
        self._dirty_regions.clear()
        if 0 <= y < len(lines):
            return lines[y]
        return Strip.blank(self.size.width, self.visual_style.rich_style)
