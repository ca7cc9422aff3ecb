"""Command palette providers: moves and commands on the play screen, campaigns on the title."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial
from typing import Any, cast

from textual.command import DiscoveryHit, Hit, Hits, Provider

from engine.tui.host import PlayHost, TitleHost

Command = tuple[str, Callable[[], Any], str]
"""A palette entry: text, what it does, help."""


class _Commands(Provider):
    """A provider over a list of (text, callback, help) entries, fuzzy-matched."""

    def entries(self) -> Iterator[Command]:
        """The commands on offer now."""
        return iter(())

    async def discover(self) -> Hits:
        """Everything, unfiltered."""
        for text, fn, help_ in self.entries():
            yield DiscoveryHit(text, fn, help=help_)

    async def search(self, query: str) -> Hits:
        """Entries that match ``query``, best first."""
        matcher = self.matcher(query)
        for text, fn, help_ in self.entries():
            score = matcher.match(text)
            if score > 0:
                yield Hit(score, matcher.highlight(text), fn, text=text, help=help_)


def _toggle_journal(screen: Any) -> None:
    """Switch the play screen's journal between the story view and the full log."""
    from engine.tui.widgets.journal import Journal

    screen.query_one(Journal).action_toggle_view()


class PlayCommands(_Commands):
    """Moves (with their trigger) and the play screen's commands."""

    def entries(self) -> Iterator[Command]:
        """Moves first, then table talk, NPC presence and clearing actions."""
        screen = cast(PlayHost, self.screen)  # the provider of PlayScreen.COMMANDS
        game = screen.game
        free = game.flow.stage in ("fiction", "move")
        if free:
            for move in game.pack.moves.values():
                if move.hidden or game.move_available(move):
                    continue
                yield (f"Move: {move.name}", partial(screen.use_move, move.id), move.trigger)
        yield ("Undo the last action", screen.action_undo, "Ctrl+Z")
        yield ("Journal: the story, or the full log", partial(_toggle_journal, screen),
               "V in the journal: the fiction alone, each move in one line")
        if free:
            yield (f"Ask the {game.pack.system.gm_title}: what happens next?",
                   screen.action_ask_gm, "Ctrl+G")
            yield ("Ask the oracle a yes/no question", screen.action_oracle, "Ctrl+O")
            yield (f"Roll on the {game.pack.system.gm_title}'s tables",
                   screen.action_roll_table, "your own dice, or the GM's pick")
            if game.state.scene.open:
                yield ("End the scene", screen.action_end_scene, "F5")
            yield ("Start the next scene", screen.action_next_scene, "F6")
            yield ("End the session", screen.action_end_session, "F7")
        yield ("Show all moves", screen.action_moves, "F2")
        yield ("Dice: seeded, your own, or ask each roll", screen.action_dice_mode,
               f"now {game.state.dice_mode}")
        yield ("Add an NPC", screen.action_add_npc, "Ctrl+N")
        for npc in game.state.npcs.values():
            verb = "leaves" if npc.present else "enters"
            yield (f"{npc.name} {verb} the scene",
                   partial(screen.set_presence, npc.id, not npc.present),
                   f"{npc.role}; currently {'in' if npc.present else 'out of'} the scene")
        for cid in game.state.hero.conditions:
            cond = game.pack.conditions.get(cid)
            if cond and cid not in game.state.scene.clearing:
                yield (f"I took the clearing action for {cond.name}",
                       partial(screen.took_clearing_action, cid), cond.clear_by)
        yield ("Open the story ledger", screen.action_ledger,
               "threads, characters, facts, threats: Ctrl+L")
        yield ("Show or hide the character sheet", screen.action_toggle_sheet, "Ctrl+B")
        if game.flow.stage == "fiction":
            yield ("Edit the sheet by hand", screen.action_edit_sheet, "F4")
        yield ("Help: keys and how to play", screen.sidekick.action_help, "F1")
        yield ("Back to the campaigns", screen.action_leave, "F10")


class TitleCommands(_Commands):
    """Resume, start or delete campaigns."""

    def entries(self) -> Iterator[Command]:
        """New campaign, then each saved campaign."""
        screen = cast(TitleHost, self.screen)  # the provider of TitleScreen.COMMANDS
        yield ("New campaign", screen.action_new, "N")
        for c in screen.campaigns:
            yield (f"Resume {c.name}", partial(screen.resume, c.id),
                   c.error or f"{c.hero} · {c.scene}")
        for c in screen.campaigns:
            yield (f"Delete {c.name}", partial(screen.confirm_delete, c.id), "asks first")
        yield ("Help: keys and how to play", screen.sidekick.action_help, "F1")
