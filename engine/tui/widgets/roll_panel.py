"""The roll panel: the pending roll's dice, every modifier with its source, the bands when the
ruleset chose them for this roll, and exact odds."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.binding import Binding
from textual.geometry import Size
from textual.widget import Widget

from engine.tui.messages import RollCommand
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
        self.context: dict[str, Any] = {}
        self.stat_name = ""

    def show(self, title: str, context: dict[str, Any], stat_name: str) -> None:
        """Show the preview of the pending roll."""
        self.title = title
        self.context = context
        self.stat_name = stat_name
        self.refresh(layout=True)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Hide keys that do nothing for this roll."""
        if action != "command" or not parameters:
            return True
        kind = parameters[0]
        if kind == "pre_roll":
            return bool(self.context.get("pre_roll"))
        if kind == "stat":
            return bool(self.context.get("stat_choices"))
        if kind == "advantage":
            return self.context.get("advantage") == "optional"
        if kind == "declare":
            return bool(self.context.get("declarations") or self.context.get("declared"))
        if kind == "params":
            return bool(self.context.get("params"))
        return True

    def action_command(self, kind: str) -> None:
        """Ask the screen to act."""
        self.post_message(RollCommand(kind))

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        """As tall as the text wrapped at ``width``."""
        return len(self.render_text(width).wrap(self.app.console, max(width, 10)))

    def render_text(self, width: int) -> Text:
        """The panel's text for ``width`` columns."""
        pv = self.context.get("preview") or {}
        out = Text()
        out.append(self.title, "bold " + ACCENT)
        if not pv:
            return out
        out.append(f"   roll {pv['dice']} {pv['modifier']:+d}", "bold " + FG)
        out.append("\n")
        mods = " · ".join(f"{m[0]} {int(m[1]):+d}" for m in pv["modifiers"]) or "no modifiers"
        out.append(mods, DIM)
        if pv.get("clamp") and pv["raw_modifier"] != pv["modifier"]:
            lo, hi = pv["clamp"]
            out.append(f"  = {pv['raw_modifier']:+d}, clamped to {pv['modifier']:+d}"
                       f" ({lo:+d}..{hi:+d})", MIXED)
        out.append("\n")
        if pv.get("bands_chosen"):
            # bands chosen for this roll (around a DC, a defence): say where they fall
            out.append("bands: " + bands_text(pv["bands"]), DIM)
            out.append("\n")
        out.append_text(odds_bar(pv["odds"], pv["bands"], max(width - 2, 10)))
        out.append("\n")
        out.append_text(odds_text(pv["odds"], pv["bands"]))
        if pv.get("inverted"):
            out.append("  (read upside down: low is good)", DIM)
        out.append("\n")
        physical = self.context.get("physical")
        out.append("⏎ ", "bold " + GOOD)
        mixed = self.context.get("entry") == "mixed"
        out.append("enter your dice" if physical else "roll: your dice or mine" if mixed
                   else "roll", FG)
        offered = self.context.get("pre_roll") or []
        if offered:
            out.append("   t ", "bold " + GOOD)
            first = offered[0]
            detail = f" ({first['detail']})" if first.get("detail") else ""
            out.append(f"{first['label'][:1].lower()}{first['label'][1:]}{detail}"
                       if len(offered) == 1 else "before the roll…", FG)
        if self.context.get("stat_choices"):
            out.append("   s ", "bold " + GOOD)
            out.append(f"stat: {self.stat_name or 'choose'}", FG)
        if self.context.get("advantage") == "optional":
            out.append("   a ", "bold " + GOOD)
            out.append("advantage", FG)
        if self.context.get("declarations") or self.context.get("declared"):
            out.append("   d ", "bold " + GOOD)
            declared = self.context.get("declared") or []
            out.append(f"declare ({len(declared)} declared)" if declared else "declare…", FG)
        params = self.context.get("params") or []
        if params:
            out.append("   p ", "bold " + GOOD)
            out.append(", ".join(f"{p['name']} {p['value']}" for p in params), FG)
        if self.context.get("dice_mode"):
            out.append(f"\nrolling with {self.context['dice_mode']}", MIXED)
        return out

    def render(self) -> Text:
        """Render for the current width."""
        return self.render_text(self.content_region.width or 60)
