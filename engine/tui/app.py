"""The Sidekick terminal app: it owns the save folder and content dirs, and opens campaigns.

``SidekickApp(saves_dir, content_dirs, campaign=None)`` takes its dependencies in its
constructor (tests pass a temporary save folder). The ``open_game`` / ``new_game`` hooks and
the ``clock`` let tests substitute the campaign factory and freeze 'last played' times.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual import events
from textual.app import App
from textual.binding import Binding

from engine.errors import EngineError
from engine.store import default_saves_dir, unique_id
from engine.tui.collector import IdleCollector
from engine.tui.host import AppHost
from engine.tui.screens.title import TitleScreen

if TYPE_CHECKING:
    from engine.game import Game

# The title screen needs only the store; the rules core, the play screen and the form are
# imported when first needed (and preloaded in a thread once the title is up), so the app
# starts about as fast as Textual itself.

EXIT_WHEN_READY = "SIDEKICK_EXIT_WHEN_READY"
"""If set, the app exits as soon as the title screen is up (for the launch benchmark)."""

_PLAYER_INPUT = (events.Key, events.MouseDown, events.MouseUp, events.Paste,
                 events.MouseScrollDown, events.MouseScrollUp, events.Resize)


class SidekickApp(App[None]):
    """Solo tabletop play over the ``Game`` facade."""

    CSS_PATH = "app.tcss"
    TITLE = "Sidekick"
    BINDINGS = [
        Binding("ctrl+q", "quit", "Quit", priority=True, show=False),
    ]

    def __init__(
        self,
        saves_dir: Path | str | None = None,
        content_dirs: Sequence[Path | str] = (),
        campaign: str | None = None,
        *,
        open_game: Callable[..., Game] | None = None,
        new_game: Callable[..., Game] | None = None,
        clock: Callable[[], datetime] | None = None,
    ) -> None:
        super().__init__()
        self.saves_dir = Path(saves_dir) if saves_dir is not None else default_saves_dir()
        self.content_dirs = [Path(p) for p in content_dirs]
        self.initial_campaign = campaign
        self.open_game_fn = open_game
        self.new_game_fn = new_game
        self.clock = clock or (lambda: datetime.now(UTC))
        self.games: list[Game] = []
        """Campaigns open in this app (closed on exit)."""
        self.theme = "tokyo-night"
        self.collector = IdleCollector()
        """Full garbage collections happen here, between keypresses (see its module)."""

    async def on_event(self, event: events.Event) -> None:
        """Note player input for the idle collector, then handle the event as Textual does."""
        if isinstance(event, _PLAYER_INPUT):
            self.collector.touched()
        await super().on_event(event)

    async def on_mount(self) -> None:
        """Show the title screen, then open ``campaign`` if one was given."""
        self.set_interval(0.2, self.collector.tick, name="idle-collector")
        await self.push_screen(TitleScreen())
        if self.initial_campaign:
            self.open_campaign(self.initial_campaign)
        if os.environ.get(EXIT_WHEN_READY):
            self.call_after_refresh(self.exit)
        else:
            threading.Thread(target=_preload, name="sidekick-preload", daemon=True).start()

    def on_unmount(self) -> None:
        """Release every campaign still open."""
        for game in list(self.games):
            self.close_game(game)
        self.collector.release()

    # ------------------------------------------------------------------ campaigns

    def open_campaign(self, campaign_id: str) -> bool:
        """Open a saved campaign into the play screen; show the error if it cannot open."""
        from engine.campaigns import open_game
        from engine.tui.screens.play import PlayScreen

        try:
            game = (self.open_game_fn or open_game)(self.saves_dir, campaign_id,
                                                   self.content_dirs)
        except Exception as e:  # an engine error, or a bug: a message, never a traceback
            self.show_error(e)
            return False
        self.games.append(game)
        self.push_screen(PlayScreen(game))
        return True

    def start_new_campaign(self) -> None:
        """Open the new-campaign form."""
        from engine.tui.screens.new_campaign import NewCampaignScreen

        self.push_screen(NewCampaignScreen())

    def unique_id(self, name: str) -> str:
        """A campaign folder name from ``name`` that is not taken yet (see store.unique_id)."""
        return unique_id(self.saves_dir, name)

    def create_campaign(self, kw: dict[str, Any]) -> str | None:
        """Create a campaign from the form's values and play it; the error text otherwise."""
        from engine.campaigns import new_game
        from engine.tui.screens.play import PlayScreen

        try:
            game = (self.new_game_fn or new_game)(self.saves_dir, content=self.content_dirs,
                                                  campaign_id=self.unique_id(kw["name"]), **kw)
        except EngineError as e:
            return e.message
        except Exception as e:  # a bug: say so, keep the form as it is
            return f"Unexpected error ({type(e).__name__}): {e}"
        self.games.append(game)
        self.switch_screen(PlayScreen(game))
        return None

    def close_game(self, game: Game) -> None:
        """Release a campaign's lock (harmless twice)."""
        from engine.campaigns import close_game

        if game in self.games:
            self.games.remove(game)
        close_game(game)

    # ------------------------------------------------------------------ errors and help

    def show_error(self, error: BaseException) -> None:
        """Show an error as a readable dialog (engine errors by their title and message)."""
        from engine.tui.screens.dialogs import MessageDialog

        if isinstance(error, EngineError):
            title, message = error.title, error.message
        else:
            title, message = "Unexpected error", f"{type(error).__name__}: {error}"
        self.push_screen(MessageDialog(title, message))

    def action_help(self) -> None:
        """Show keys and how to play."""
        from engine.tui.screens.help import HelpScreen

        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen())


def _preload() -> None:
    """Import what playing needs while the player looks at the title screen."""
    import engine.campaigns
    import engine.tui.screens.new_campaign
    import engine.tui.screens.play  # noqa: F401


def run(saves_dir: Path | None = None, content_dirs: Iterable[Path] = (),
        campaign: str | None = None) -> None:
    """Run the app (a convenience for ``python -m``)."""
    SidekickApp(saves_dir, list(content_dirs), campaign).run()


def _is_host(app: SidekickApp) -> AppHost:
    """mypy checks here that the app is what its screens take it for (``AppHost``)."""
    return app
