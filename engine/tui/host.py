"""What the screens and the command palette use of the app and of each other, as protocols:
screens import this, not the app, so the app's imports of its screens form no cycle."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from engine.game import Game
    from engine.store import CampaignSummary


class AppHost(Protocol):
    """The Sidekick app, as its screens see it."""

    saves_dir: Path
    """The save folder."""
    content_dirs: list[Path]
    """Extra content folders."""
    clock: Callable[[], datetime]
    """Now (tests freeze it)."""

    def open_campaign(self, campaign_id: str) -> bool:
        """Open a saved campaign into the play screen (False: the error was shown)."""

    def start_new_campaign(self) -> None:
        """Open the new-campaign form."""

    def unique_id(self, name: str) -> str:
        """A campaign folder name from ``name`` not taken yet."""

    def create_campaign(self, kw: dict[str, Any]) -> str | None:
        """Create a campaign from the form's values and play it; the error text otherwise."""

    def close_game(self, game: Game) -> None:
        """Release a campaign's lock."""

    def show_error(self, error: BaseException) -> None:
        """Show an error as a readable dialog."""

    def action_help(self) -> None:
        """Show keys and how to play."""


class TitleHost(Protocol):
    """The title screen, as its command palette sees it."""

    @property
    def sidekick(self) -> AppHost:
        """The app."""

    @property
    def campaigns(self) -> Sequence[CampaignSummary]:
        """The saved campaigns listed."""

    def action_new(self) -> None:
        """Start a new campaign."""

    def resume(self, cid: str) -> None:
        """Resume a campaign."""

    def confirm_delete(self, cid: str) -> None:
        """Ask, then delete a campaign."""


class PlayHost(Protocol):
    """The play screen, as its command palette sees it."""

    @property
    def sidekick(self) -> AppHost:
        """The app."""

    @property
    def game(self) -> Game:
        """The campaign in play."""

    def use_move(self, move_id: str, target_hint: str | None = None) -> None:
        """Start a move from the palette."""

    def set_presence(self, npc_id: str, present: bool) -> None:
        """An NPC enters or leaves the scene."""

    def took_clearing_action(self, condition: str) -> None:
        """The hero took a condition's clearing action."""

    def action_undo(self) -> None:
        """Undo the last action."""

    def action_ask_gm(self) -> None:
        """Ask the GM what happens next."""

    def action_oracle(self) -> None:
        """Ask the oracle."""

    def action_roll_table(self) -> None:
        """Roll on the GM's tables."""

    def action_end_scene(self) -> None:
        """End the scene."""

    def action_next_scene(self) -> None:
        """Start the next scene."""

    def action_end_session(self) -> None:
        """End the session."""

    def action_moves(self) -> None:
        """Show every move."""

    def action_dice_mode(self) -> None:
        """Choose the dice mode."""

    def action_add_npc(self) -> None:
        """Add an NPC."""

    def action_ledger(self) -> None:
        """Open the story ledger."""

    def action_toggle_sheet(self) -> None:
        """Show or hide the sheet."""

    def action_edit_sheet(self) -> None:
        """Edit the sheet by hand."""

    def action_leave(self) -> None:
        """Back to the campaigns."""
