"""A campaign played in the plain mode opens in the app where it stood (the same saves)."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path

from engine.plain import run_plain
from engine.tui.app import SidekickApp
from tests.tui.conftest import SIZE, game_of, settle


async def test_a_plain_mode_game_resumes_in_the_app(
        saves: Path, make_campaign: Callable[..., str],
        app_for: Callable[..., SidekickApp]) -> None:
    cid = make_campaign(dice_mode="seeded")
    lines = ["I size up the pier, looking for what Dusk is really after",
             "Assess the situation", "Roll now", "5 5", "quit"]
    out = io.StringIO()
    run_plain(saves, (), cid, io.StringIO("\n".join(lines) + "\n"), out)
    assert "Tin spends 1 Team" in out.getvalue()  # offered before the roll
    assert "Roll: 2d6 [5 5] (entered) +0 = 10 gives Strong hit" in out.getvalue()
    app = app_for(cid)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        game = game_of(app)
        assert game.state.flow.stage == "effects"  # the two questions to ask, as it stood
        assert game.state.flow.roll is not None and game.state.flow.roll["total"] == 10
