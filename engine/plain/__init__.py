"""The plain, accessible mode (``sidekick --plain``): any campaign played line by line, for
screen readers and terminals where a full-screen app does not work.

Every question is one line with numbered choices; the app's keys are commands (``help``
lists them); the game is the same ``Game`` facade over the same saves
(``engine.campaigns``), so a campaign moves between the app and the plain mode at any point.
No Textual here: it sits on the app's floor.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from engine.errors import EngineError
from engine.game import Game
from engine.plain.console import Choice, Console, Leave, plain_text
from engine.plain.session import Session


def run_plain(saves: Path, content: Sequence[Path] = (), campaign: str | None = None,
              inp: TextIO | None = None, out: TextIO | None = None) -> int:
    """Play in the plain mode: ``campaign``, else one picked from a numbered list (or a new
    one). Reads ``inp`` (standard input), writes ``out`` (standard output); 0 when the
    player left."""
    from engine.campaigns import close_game, open_game

    console = Console(inp or sys.stdin, out or sys.stdout)
    try:
        if campaign is None:
            game = _pick(console, saves, list(content))
        else:
            game = open_game(saves, campaign, list(content))
    except (Leave, KeyboardInterrupt):
        console.raw("Goodbye.")
        return 0
    try:
        Session(game, console, saves).run()
    finally:
        close_game(game)
    return 0


def _pick(console: Console, saves: Path, content: list[Path]) -> Game:
    """A campaign from the numbered list of saved ones, or a new one."""
    from engine.campaigns import open_game
    from engine.plain.start import new_campaign
    from engine.store import list_campaigns

    while True:
        rows = [r for r in list_campaigns(saves) if not r.error]
        console.raw(f"Sidekick, plain mode. Campaigns in {saves}: {len(rows) or 'none yet'}.")
        choices = [Choice(r.name, f"{r.system}, {r.hero}, {r.scene}") for r in rows]
        choices += [Choice("Start a new campaign"), Choice("Quit")]
        picked = console.pick("Which campaign?", choices)
        assert isinstance(picked, list)
        i = picked[0]
        if i == len(rows) + 1:
            raise Leave
        try:
            if i == len(rows):
                return new_campaign(console, saves, content)
            return open_game(saves, rows[i].id, content)
        except EngineError as e:
            console.raw(f"Cannot open it: {' '.join(str(e).split())}")


__all__ = ["Choice", "Console", "Leave", "Session", "plain_text", "run_plain"]
