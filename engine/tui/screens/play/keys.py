"""The play screen's keys, and which of them do something now (the key bar shows only those).
The palette's commands for the same actions are in engine/tui/commands.py."""

from __future__ import annotations

from collections.abc import Callable

from textual.binding import Binding, BindingType

from engine.game import Game

PLAY_BINDINGS: list[BindingType] = [
    Binding("f1", "app.help", "Help"),
    Binding("f2", "moves", "All moves"),
    Binding("f3", "party", "Switch hero"),  # in a party; one hero: the hidden f3 below
    Binding("ctrl+z", "undo", "Undo"),
    Binding("ctrl+b", "toggle_sheet", "Sheet"),
    Binding("f4", "edit_sheet", "Edit"),
    Binding("ctrl+l", "ledger", "Ledger"),
    Binding("ctrl+g", "ask_gm", "Ask GM"),
    Binding("ctrl+o", "oracle", "Oracle"),
    Binding("f5", "end_scene", "End scene"),
    Binding("f6", "next_scene", "Next scene", show=False),
    Binding("ctrl+n", "add_npc", "Add NPC"),
    Binding("f3", "party_solo", "Heroes", show=False),
    Binding("shift+f3", "next_hero", "Next hero", show=False),
    Binding("f7", "end_session", "End session", show=False),
    Binding("f8", "fight", "Fight!"),
    Binding("f10", "leave", "Campaigns"),
    Binding("ctrl+r", "recap", "Recap", show=False),
    Binding("escape", "close_recap", show=False),
    Binding("pageup", "page(-1)", "Scroll up", show=False),
    Binding("pagedown", "page(1)", "Scroll down", show=False),
]
"""The play screen's keys, in the key bar's order."""


def key_enabled(action: str, game: Game, has_fights: Callable[[], bool]) -> bool | None:
    """Whether the play screen's ``action`` does something now (``has_fights``: the game runs
    fights, asked only for F8)."""
    stage = game.flow.stage
    free = stage in ("fiction", "move")
    if action in ("moves", "ask_gm", "end_session", "oracle"):
        return free
    if action in ("party", "party_solo"):
        # a party shows F3 up front; one hero keeps today's key bar (F3 still adds a hero)
        solo = len(game.state.party) < 2
        return stage == "fiction" and solo == (action == "party_solo")
    if action == "next_hero":
        return stage == "fiction" and len(game.state.party) > 1
    if action == "end_scene":
        return free and game.state.scene.open
    if action == "next_scene":
        return free
    if action == "edit_sheet":
        return stage == "fiction"
    if action == "fight":
        return has_fights() and (game.fighting or stage == "fiction")
    return True
