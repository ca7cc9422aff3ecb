"""What the parts of the play screen may use of it: the game, its events, running an action,
pushing a dialog, redrawing the prompt. ``PlayScreen`` is the one host; the parts name this
protocol instead, so they never import the screen."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ParamSpec, Protocol

from textual.notifications import SeverityLevel

from engine.game import Game
from engine.rules.events.shown import Shown
from engine.tui.screens.dialogs import Dialog
from engine.tui.widgets.prompt_box import PromptBox

P = ParamSpec("P")
"""The parameters of a Game action run through ``act``."""

Events = list[Shown]
"""What an action gives back: its events, typed."""
Logged = list[dict[str, Any]]
"""Events as the log keeps them (plain dicts): what the journal and the recap read."""

DialogFactory = Callable[[], Dialog | None]
"""Makes a dialog when its turn comes (None: nothing to ask any more)."""


class PlayHost(Protocol):
    """The play screen, as its parts see it."""

    @property
    def game(self) -> Game:
        """The campaign in play."""

    @property
    def events(self) -> Logged:
        """Every event of the campaign, in order (the journal's source)."""

    @property
    def prompt(self) -> PromptBox:
        """The prompt box."""

    def act(self, fn: Callable[P, Events], *args: P.args, **kwargs: P.kwargs) -> str | None:
        """Run one Game action and show its events; the error message, or None."""

    def perform(self, fn: Callable[P, Events], *args: P.args, **kwargs: P.kwargs) -> bool:
        """Run an action and notify its error; True if it worked."""

    def submit(self, fn: Callable[P, Events], *args: P.args, **kwargs: P.kwargs) -> str | None:
        """For dialogs: act, then open a choice if one follows; the error text otherwise."""

    def push_dialog(self, factory: DialogFactory,
                    on_result: Callable[[Any], None] | None = None) -> None:
        """Show the dialog ``factory`` makes now, or once the play screen is on top again."""

    def add_npc(self, name: str = "") -> None:
        """Bring an NPC into the story, ``name`` filled in."""

    def redraw_prompt(self) -> None:
        """Draw the prompt again (no dialog opens)."""

    def notify(self, message: str, *, title: str = "", severity: SeverityLevel = "information",
               timeout: float | None = None, markup: bool = True) -> None:
        """Show a toast (Textual's ``notify``)."""

    def call_after_refresh(self, callback: Callable[..., Any], *args: Any,
                           **kwargs: Any) -> bool:
        """Run ``callback`` once the screen has been refreshed (Textual's)."""
