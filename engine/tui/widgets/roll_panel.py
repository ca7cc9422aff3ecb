"""The roll panel: the pending roll's dice, every modifier with its source, the bands when the
ruleset chose them for this roll, and exact odds."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.binding import Binding
from textual.geometry import Size
from textual.widget import Widget

from engine.journal import modifiers_text
from engine.prompts import RollPrompt
from engine.tui.messages import RollCommand, RollKind
from engine.tui.text import ACCENT, DIM, FG, GOOD, MIXED, bands_text, odds_bar, odds_text


class RollPanel(Widget, can_focus=True):
    """Shows a roll preview; Enter rolls, t takes what the rules offer before the roll (Masks:
    spend Team), s changes the stat, a toggles advantage."""

    DEFAULT_CSS = """
    RollPanel { height: auto; padding: 0 1; }
    """

    BINDINGS = [
        Binding("enter", "command('roll')", "Roll", priority=False),
        Binding("t", "command('pre_roll')", "Before the roll"),
        Binding("s", "command('stat')", "Stat"),
        Binding("a", "command('advantage')", "Advantage"),
        Binding("d", "command('declare')", "Declare"),
        Binding("p", "command('params')", "Set"),
    ]

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.title = ""
        self.prompt: RollPrompt | None = None
        self.stat_name = ""

    def show(self, title: str, prompt: RollPrompt, stat_name: str) -> None:
        """Show the preview of the pending roll."""
        self.title = title
        self.prompt = prompt
        self.stat_name = stat_name
        self.refresh(layout=True)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Hide keys that do nothing for this roll."""
        if action != "command" or not parameters:
            return True
        kind = parameters[0]
        p = self.prompt
        if p is None:
            return kind == "roll"
        if kind == "pre_roll":
            return bool(p.pre_roll)
        if kind == "stat":
            return bool(p.stat_choices)
        if kind == "advantage":
            return p.advantage == "optional"
        if kind == "declare":
            return bool(p.declarations or p.declared)
        if kind == "params":
            return bool(p.params)
        return True

    def action_command(self, kind: RollKind) -> None:
        """Ask the screen to act."""
        self.post_message(RollCommand(kind))

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        """As tall as the text wrapped at ``width``."""
        return len(self.render_text(width).wrap(self.app.console, max(width, 10)))

    def render_text(self, width: int) -> Text:
        """The panel's text for ``width`` columns."""
        p = self.prompt
        pv = p.preview if p is not None else None
        out = Text()
        out.append(self.title, "bold " + ACCENT)
        if p is None or pv is None:
            return out
        out.append(f"   roll {pv.dice} {pv.modifier:+d}", "bold " + FG)
        out.append("\n")
        mods = modifiers_text(pv.modifiers, " · ")
        out.append(mods, DIM)
        if pv.clamp and pv.raw_modifier != pv.modifier:
            lo, hi = pv.clamp
            out.append(f"  = {pv.raw_modifier:+d}, clamped to {pv.modifier:+d}"
                       f" ({lo:+d}..{hi:+d})", MIXED)
        out.append("\n")
        if pv.bands_chosen:
            # bands chosen for this roll (around a DC, a defence): say where they fall
            out.append("bands: " + bands_text(pv.bands), DIM)
            out.append("\n")
        out.append_text(odds_bar(pv.odds, pv.bands, max(width - 2, 10)))
        out.append("\n")
        out.append_text(odds_text(pv.odds, pv.bands))
        if pv.inverted:
            out.append("  (read upside down: low is good)", DIM)
        out.append("\n")
        out.append("⏎ ", "bold " + GOOD)
        mixed = p.entry == "mixed"
        out.append("enter your dice" if p.physical else "roll: your dice or mine" if mixed
                   else "roll", FG)
        if p.pre_roll:
            out.append("   t ", "bold " + GOOD)
            first = p.pre_roll[0]
            detail = f" ({first.detail})" if first.detail else ""
            out.append(f"{first.label[:1].lower()}{first.label[1:]}{detail}"
                       if len(p.pre_roll) == 1 else "before the roll…", FG)
        if p.stat_choices:
            out.append("   s ", "bold " + GOOD)
            out.append(f"stat: {self.stat_name or 'choose'}", FG)
        if p.advantage == "optional":
            out.append("   a ", "bold " + GOOD)
            out.append("advantage", FG)
        if p.declarations or p.declared:
            out.append("   d ", "bold " + GOOD)
            out.append(f"declare ({len(p.declared)} declared)" if p.declared else "declare…",
                       FG)
        if p.params:
            out.append("   p ", "bold " + GOOD)
            out.append(", ".join(f"{param.name} {value}" for param, value in p.params), FG)
        if p.dice_mode:
            out.append(f"\nrolling with {p.dice_mode}", MIXED)
        return out

    def render(self) -> Text:
        """Render for the current width."""
        return self.render_text(self.content_region.width or 60)
