"""The prompt box under the journal: a title line saying what the engine waits for, then one
of five parts in front: the fiction input, the action menu, the roll panel, the button that
opens a choice, or the fight panel (which has its own title line). The play screen decides
what goes in; this widget only shows it."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Literal

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Button, ContentSwitcher, Input, Static

from engine.tui.widgets.action_menu import ActionMenu
from engine.tui.widgets.fight import FightPanel
from engine.tui.widgets.roll_panel import RollPanel

Part = Literal["fiction", "menu", "roll", "waiting", "fight"]
"""The ids of the parts the box can bring to the front."""


class PromptBox(Vertical):
    """The title line and the part in front (see the module)."""

    def compose(self) -> ComposeResult:
        """The title, then the parts, the fiction input first."""
        yield Static(id="prompt-title")
        with ContentSwitcher(initial="fiction", id="prompt"):
            yield Input(placeholder="Describe what your hero does, then Enter", id="fiction")
            yield ActionMenu(id="menu")
            yield RollPanel(id="roll")
            yield Button("Choose", id="waiting", variant="primary", compact=True)
            yield FightPanel(id="fight")

    @property
    def menu(self) -> ActionMenu:
        """The action menu."""
        return self.query_one(ActionMenu)

    @property
    def fiction(self) -> Input:
        """The fiction input."""
        return self.query_one("#fiction", Input)

    @property
    def roll(self) -> RollPanel:
        """The roll panel."""
        return self.query_one(RollPanel)

    @property
    def fight(self) -> FightPanel:
        """The fight panel."""
        return self.query_one(FightPanel)

    @property
    def waiting(self) -> Button:
        """The button that opens the pending choice."""
        return self.query_one("#waiting", Button)

    def set_title(self, title: Text) -> None:
        """Say what the engine waits for."""
        self.query_one("#prompt-title", Static).update(title)

    def show(self, part: Part) -> None:
        """Bring ``part`` to the front and focus it (the fight panel shows its own title)."""
        self.query_one("#prompt-title", Static).display = part != "fight"
        self.query_one("#prompt", ContentSwitcher).current = part
        self.query_one(f"#{part}").focus()

    def show_menu(self, entries: Sequence[tuple[str, Text | str]],
                  disabled: Collection[str] = ()) -> None:
        """Fill the action menu (see ActionMenu.set_entries), bring it to the front, focus it."""
        self.menu.set_entries(entries, disabled)
        self.show("menu")

    def menu_width(self) -> int:
        """Cells a menu entry has on one line: the box less the menu's padding and room for a
        scrollbar (the menu itself may be hidden, so measure the box)."""
        return max((self.size.width or self.screen.size.width) - 4, 20)
