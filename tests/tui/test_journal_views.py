"""The journal's two views in the app (issue 30): the story (the fiction, the narration, a move
folded into its name and its result) and the full log, switched by a key in the journal or
from the command palette; undo keeps both in step."""

from __future__ import annotations

from collections.abc import Callable

from engine.tui.app import SidekickApp
from engine.tui.widgets.journal import Journal
from tests.tui.conftest import SIZE, journal_text, settle
from tests.tui.test_play import describe

App = Callable[..., SidekickApp]


async def test_the_journal_shows_the_story_or_the_full_log(
        make_campaign: Callable[..., str], app_for: App) -> None:
    cid = make_campaign(dice_mode="seeded", seed=7)
    app = app_for(cid)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await describe(pilot, "I look around and size up the pier")
        await pilot.press("1")  # the first suggestion: Assess the situation
        await settle(pilot)
        await pilot.press("enter")  # roll
        await settle(pilot)
        full = journal_text(app)
        assert "chance of this result" in full
        journal = app.screen.query_one(Journal)
        journal.focus()
        await pilot.press("v")
        await settle(pilot)
        story = journal_text(app)
        assert journal.story
        assert "I look around and size up the pier" in story
        assert "▶ Assess the situation" in story
        assert "chance of this result" not in story
        assert any(line.strip().startswith("🎲 ") for line in story.splitlines())
        assert len(story.splitlines()) < len(full.splitlines())
        await pilot.press("v")
        await settle(pilot)
        assert journal_text(app) == full
