"""The dimmed play screen behind a dialog: drawn once when the dialog opens.

A modal screen with a translucent background (``ModalScreen { background: $background 60% }``)
draws the screen below it through Textual's ``BackgroundScreen``: the whole play screen rendered
again and its tint blended into every segment's colours one by one, each time the dialog's
background repaints: when it opens, on the resize that follows, and whenever anything behind
it changes. That cost 11.6 ms a time at 120x40, five times per dialog on average.

:class:`BackdropScreen` draws the screen below once, when the dialog first paints (and again
only if the terminal's size changes), blending each distinct style once (:class:`Backdrop`),
and replays that picture afterwards. The picture behind a dialog is the play screen as it was
when the dialog opened; the play screen itself is live again the moment the dialog closes.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Generic, TypeVar

from rich.segment import Segment
from rich.style import Style
from textual.color import Color
from textual.geometry import Size
from textual.renderables.background_screen import BackgroundScreen
from textual.screen import ModalScreen, Screen
from textual.strip import Strip

_NULL = Style()
_LIMIT = 4096
"""Tinted styles kept (a theme has far fewer; the cache is cleared if it ever fills)."""

_tinted: dict[tuple[Style | None, Color], Style] = {}

_R = TypeVar("_R")


def _tint(style: Style | None, color: Color) -> Style:
    """``style`` without links or meta, with ``color`` blended into its colours."""
    base = _NULL if style is None else style.clear_meta_and_links()
    if color.a == 0:
        return base
    rich_fg = base.color
    rich_bg = base.bgcolor
    return base + Style.from_color(
        (Color.from_rich_color(rich_fg) + color).rich_color if rich_fg is not None else None,
        (Color.from_rich_color(rich_bg) + color).rich_color if rich_bg is not None else None,
    )


def _over(base: Style, segments: Iterable[Segment],
          cache: dict[Style | None, Style]) -> Iterable[Segment]:
    """``segments`` over the ``base`` style (as Textual draws a widget's content)."""
    for text, style, control in segments:
        if control:
            yield Segment(text, style, control)
            continue
        combined = cache.get(style)
        if combined is None:
            combined = cache[style] = base + style if style is not None else base
        yield Segment(text, combined, control)


class Backdrop(BackgroundScreen):
    """``BackgroundScreen`` with a per-style cache of the tint (same output)."""

    @classmethod
    def process_segments(cls, segments: Iterable[Segment], color: Color) -> Iterable[Segment]:
        """Tint ``segments`` with ``color``, each distinct style blended once."""
        if len(_tinted) > _LIMIT:
            _tinted.clear()
        cache = _tinted
        make = Segment
        for segment in segments:
            text, style, control = segment
            if control:
                yield segment
                continue
            key = (style, color)
            tinted = cache.get(key)
            if tinted is None:
                tinted = cache[key] = _tint(style, color)
            yield make(text, tinted, control)


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
        color = self.styles.background
        base = self.visual_style.rich_style
        over: dict[Style | None, Style] = {}
        lines = [Strip(_over(base, Backdrop.process_segments(strip, color), over),
                       strip.cell_length)
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
