"""The character sheet, live: the sections the game's ruleset declares (engine/rules/sheet.py),
drawn row by row; nothing here knows a game system."""

from __future__ import annotations

from rich.console import Group
from rich.padding import Padding
from rich.table import Table
from rich.text import Text
from textual.widgets import Static

from engine.errors import EngineError
from engine.game import Game
from engine.rules.sheet import Bar, Check, Clock, Line, Section, Stat, Track
from engine.tui.text import ACCENT, BAD, DIM, FG, GOOD, MIXED, PRIMARY, SECONDARY

TONES = {"plain": FG, "dim": DIM, "good": GOOD, "bad": BAD, "mixed": MIXED, "accent": ACCENT,
         "primary": PRIMARY}
"""The colour of each tone a sheet row may ask for."""

SCALE_MAX = 12
"""A track with a wider range than this is shown as a number."""


def _style(tone: str, bold: bool = False) -> str:
    return ("bold " if bold else "") + TONES.get(tone, FG)


def _scale(out: Text, value: int, lo: int, hi: int) -> None:
    """``lo``..``hi`` as dots with the value's place marked."""
    for n in range(lo, hi + 1):
        out.append("●" if n == value else "·", ACCENT if n == value else DIM)


def _stat(out: Text, row: Stat, width: int) -> None:
    v = row.value
    out.append(f"{row.label:<{width}} ", FG)
    out.append(f"{v:+d} ", "bold " + (GOOD if v > 0 else BAD if v < 0 else FG))
    _scale(out, v, row.min, row.max)
    if row.note:
        out.append(f" {row.note}", MIXED)


def _track(out: Text, row: Track) -> None:
    out.append(f"{row.label:<10}", FG)
    v = row.value
    if row.max is None or row.max - row.min > SCALE_MAX:
        out.append(f"{v}", "bold " + ACCENT)
    elif row.min < 0:
        out.append(f"{v:+d} ", "bold " + (GOOD if v > 0 else BAD if v < 0 else FG))
        _scale(out, v, row.min, row.max)
        out.append(f" ({row.min:+d} to {row.max:+d})", DIM)
    else:
        filled = max(0, min(v, row.max) - row.min)
        out.append("●" * filled, ACCENT)
        out.append("○" * max(row.max - row.min - filled, 0), DIM)
        out.append(f" {v}/{row.max}", DIM)


BAR_WIDTH = 14
"""Cells of a bar row."""


def _bar(out: Text, row: Bar) -> None:
    """``Kill ██████████░░░░ 32/40``: filled cells in proportion, bad at or below ``low``."""
    v = max(0, min(row.value, row.max))
    filled = round(BAR_WIDTH * v / row.max) if row.max > 0 else 0
    if v > 0:
        filled = max(filled, 1)
    tone = BAD if v <= row.low else GOOD
    out.append(f"{row.label:<5}", FG)
    out.append("█" * filled, tone)
    out.append("░" * (BAR_WIDTH - filled), DIM)
    out.append(f" {v}/{row.max}", "bold " + tone if v <= row.low else DIM)
    if row.note:
        out.append(f"\n  {row.note}", BAD if v <= row.low else DIM)


def _check(out: Text, row: Check) -> None:
    out.append("■ " if row.marked else "□ ", BAD if row.marked else DIM)
    out.append(row.label, ("bold " + BAD) if row.marked else DIM)
    if row.marked and row.detail:
        out.append(f" {row.detail}", DIM)
    if row.note:
        out.append(f" {row.note}", GOOD)


def _clock(out: Text, row: Clock) -> None:
    out.append("☠ " if row.active else "✓ ", BAD if row.active else DIM)
    out.append(row.label + "\n  ", FG)
    out.append("▰" * row.value, BAD)
    out.append("▱" * max(row.size - row.value, 0), DIM)
    out.append(f" {row.value}/{row.size}", DIM)
    if row.detail:
        out.append(f"\n  {row.detail}", DIM)


def _line(out: Text, row: Line) -> None:
    if row.bullet:
        out.append(f"{row.bullet} ", _style(row.bullet_tone))
    if row.lead:
        out.append(row.lead, _style(row.lead_tone, bold=True))
    out.append(row.text, _style(row.tone, row.bold))
    if row.detail or row.tags:
        out.append(f"\n  {row.detail}", DIM)
        for tag in row.tags:
            out.append(f" · {tag.text}", TONES.get(tag.tone, FG))


def render_sections(sections: list[Section]) -> Text:
    """Sections as one Rich Text: a title in capitals, then a line per row (a row's detail on
    an indented line below it)."""
    out = Text(no_wrap=False)
    first = True
    for i, section in enumerate(sections):
        if section.title:
            if not first:
                out.append("\n")
            if i > 0 and sections[i - 1].title:
                out.append("\n")
            out.append(section.title.upper(), "bold " + SECONDARY)
            first = False
        width = max((len(r.label) for r in section.rows if isinstance(r, Stat)), default=6)
        for row in section.rows:
            if not first:
                out.append("\n")
            first = False
            if isinstance(row, Stat):
                _stat(out, row, width)
            elif isinstance(row, Track):
                _track(out, row)
            elif isinstance(row, Bar):
                _bar(out, row)
            elif isinstance(row, Check):
                _check(out, row)
            elif isinstance(row, Clock):
                _clock(out, row)
            else:
                _line(out, row)
    return out


def sheet_text(game: Game, actor: str | None = None) -> Text:
    """The whole sheet as one Rich Text, from the sections the ruleset declares (rebuilt after
    every action; it is small): the acting hero's, or ``actor``'s (the spotlight hero's when
    the ruleset cannot draw that character)."""
    if actor is not None:
        try:
            return render_sections(game.rules.sheet(game.state, actor))
        except EngineError:
            pass
    return render_sections(game.rules.sheet(game.state))


BULLETS = frozenset("●○◐✗■□✓!◆★☠✖")
"""Marks that start a row: what wraps under them lines up after the mark."""


def hanging(text: Text) -> Group:
    """``text`` line by line; a line that starts with two spaces, or with a bullet and a space,
    keeps its indent when it wraps."""
    parts: list[Text | Padding | Table] = []
    for line in text.split("\n", allow_blank=True):
        plain = line.plain
        if plain.startswith("  "):
            parts.append(Padding(line[2:], (0, 0, 0, 2)))
        elif len(plain) > 2 and plain[0] in BULLETS and plain[1] == " ":
            grid = Table.grid()
            grid.add_column(width=2, no_wrap=True)
            grid.add_column(ratio=1)
            grid.add_row(line[:2], line[2:])
            parts.append(grid)
        else:
            parts.append(line)
    return Group(*parts)


class Sheet(Static):
    """The sidebar character sheet; call :meth:`show` after every action."""

    text = Text()
    """The sheet as plain styled text (what is shown, before wrapping)."""

    def show(self, game: Game, actor: str | None = None) -> None:
        """Render the sheet for the game's current state (a no-op when nothing changed):
        the acting hero's, or ``actor``'s."""
        text = sheet_text(game, actor)
        if text == self.text:
            return
        self.text = text
        self.update(hanging(text))
