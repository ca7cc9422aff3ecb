"""What keeps a keypress fast: a dialog draws the screen below it once, and full garbage
collections happen between keypresses (engine/tui/screens/backdrop.py, engine/tui/collector.py).
"""

from __future__ import annotations

import gc
import re
from collections.abc import Callable
from typing import Any

from rich.style import Style
from textual.renderables.background_screen import BackgroundScreen
from textual.strip import Strip
from textual.visual import Visual, visualize

from engine.tui.app import SidekickApp
from engine.tui.collector import IdleCollector
from engine.tui.screens.backdrop import BackdropScreen
from engine.tui.screens.dialogs import MessageDialog
from engine.tui.screens.play import PlayScreen
from engine.tui.widgets.journal import Journal
from tests.tui.conftest import SIZE, settle

SEED = 1
"""A seeded campaign whose first punch opens a choice (seeds 4 and 5 do too)."""


def _cells(strips: list[Strip]) -> list[list[tuple[str, Style | None]]]:
    """Each line as (character, style) cells, however it is cut into segments."""
    return [[(ch, seg.style) for seg in strip for ch in seg.text] for strip in strips]


def _textual_backdrop(dialog: BackdropScreen[Any], below: PlayScreen) -> list[Strip]:
    """What Textual's own translucent background draws for ``dialog`` over ``below``."""
    visual = visualize(dialog, BackgroundScreen(below, dialog.styles.background))
    return Visual.to_strips(dialog, visual, dialog.size.width, dialog.size.height,
                            dialog.visual_style)


async def _open_note(pilot: Any) -> tuple[PlayScreen, MessageDialog]:
    """Over the play screen, a dialog (settled)."""
    await settle(pilot)
    play = pilot.app.screen
    assert isinstance(play, PlayScreen)
    dialog = MessageDialog("Note", "Something happened.")
    pilot.app.push_screen(dialog)
    await settle(pilot)
    return play, dialog


async def test_the_backdrop_is_the_picture_textual_would_draw(
        make_campaign: Callable[..., str], app_for: Callable[..., SidekickApp]) -> None:
    app = app_for(make_campaign())
    async with app.run_test(size=SIZE) as pilot:
        play, dialog = await _open_note(pilot)
        dialog._backdrop = None  # draw it now, beside Textual's (a cursor may blink between)
        ours = dialog._backdrop_lines()
        assert ours is not None and len(ours) == SIZE[1]
        assert _cells(ours) == _cells(_textual_backdrop(dialog, play))
        # and the frame on screen carries it: the journal shows through around the box
        frame = "\n".join(strip.text for strip in app.screen._compositor.render_strips())
        assert "Something happened." in frame
        assert any(line.text.strip() for line in ours)


async def test_a_change_behind_a_dialog_does_not_redraw_the_backdrop(
        make_campaign: Callable[..., str], app_for: Callable[..., SidekickApp]) -> None:
    app = app_for(make_campaign())
    async with app.run_test(size=SIZE) as pilot:
        play, dialog = await _open_note(pilot)
        drawn: list[int] = []
        render_strips = play._compositor.render_strips

        def counted(*args: Any, **kwargs: Any) -> list[Strip]:
            drawn.append(1)
            return render_strips(*args, **kwargs)

        play._compositor.render_strips = counted  # type: ignore[method-assign]
        first = dialog._backdrop_lines()
        journal = play.query_one(Journal)
        journal.write("A line written while the dialog is open.")
        journal.scroll_end(animate=False, immediate=True)
        await settle(pilot)
        assert dialog._backdrop_lines() is first
        assert drawn == []
        assert not any("while the dialog" in line.text for line in first or [])
        dialog.finish(None)
        await settle(pilot)
        frame = "\n".join(s.text for s in app.screen._compositor.render_strips())
        assert "A line written while the dialog is open." in frame  # live once it closes


async def test_a_new_size_draws_the_backdrop_again(
        make_campaign: Callable[..., str], app_for: Callable[..., SidekickApp]) -> None:
    app = app_for(make_campaign())
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        dialog = MessageDialog("Note", "Something happened.")
        app.push_screen(dialog)
        await settle(pilot)
        first = dialog._backdrop_lines()
        await pilot.resize_terminal(100, 30)
        await settle(pilot)
        resized = dialog._backdrop_lines()
        assert first is not None and len(first) == SIZE[1]
        assert resized is not None and len(resized) == 30
        assert resized is not first
        frame = app.screen._compositor.render_strips()
        assert len(frame) == 30 and {line.cell_length for line in frame} == {100}
        assert "Something happened." in "\n".join(line.text for line in frame)


class _Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_the_collector_waits_for_quiet_then_freezes_what_survived() -> None:
    clock = _Clock()
    collector = IdleCollector(quiet=0.3, full_every=3, clock=clock)
    try:
        collector.touched()
        clock.now = 0.1
        assert not collector.tick()  # input is too recent
        clock.now = 0.5
        assert collector.tick()
        assert gc.get_freeze_count() > 0
        assert not collector.tick()  # nothing new since
        frozen = gc.get_freeze_count()
        for _ in range(2):
            collector.touched()
            clock.now += 1.0
            assert collector.tick()
        # the third quiet moment unfroze everything first: a full collection, then a freeze
        assert collector.settled == 3
        assert gc.get_freeze_count() > 0
        assert frozen > 0
    finally:
        IdleCollector.release()
    assert gc.get_freeze_count() == 0


def test_a_full_collection_unfreezes_so_old_cycles_are_collected() -> None:
    clock = _Clock()
    collector = IdleCollector(quiet=0.0, full_every=2, clock=clock)

    class Node:
        def __init__(self) -> None:
            self.me = self

    try:
        node = Node()
        collector.touched()
        assert collector.tick()  # node is frozen alive
        import weakref

        ref = weakref.ref(node)
        del node
        gc.collect()
        assert ref() is not None  # frozen: a plain collection leaves it
        collector.touched()
        assert collector.tick()  # the full one: unfreeze, collect
        assert ref() is None
    finally:
        IdleCollector.release()


async def test_the_app_collects_once_the_player_is_quiet_and_releases_on_exit(
        make_campaign: Callable[..., str], app_for: Callable[..., SidekickApp]) -> None:
    app = app_for(make_campaign())
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("a")
        assert app.collector.pending
        settled = app.collector.settled
        await pilot.pause(0.8)
        assert app.collector.settled > settled and not app.collector.pending
        assert gc.get_freeze_count() > 0
    assert gc.get_freeze_count() == 0


async def test_a_result_is_painted_before_the_dialog_that_asks_about_it(
        make_campaign: Callable[..., str], app_for: Callable[..., SidekickApp]) -> None:
    from tests.tui.test_play import describe

    app = app_for(make_campaign(dice_mode="seeded", seed=SEED))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await describe(pilot, "I punch the drones")
        await pilot.press("enter")  # the suggested move
        await settle(pilot)
        painted: list[tuple[str, bool]] = []
        display = app._display

        def watch(on: Any, renderable: Any) -> None:
            display(on, renderable)
            if renderable is not None and on is app.screen:
                drawn = renderable.render_segments(app.console)  # what a terminal gets
                text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", drawn)
                painted.append((type(on).__name__, "2d6 [" in text))  # the roll's line

        app._display = watch  # type: ignore[method-assign]
        await pilot.press("enter")  # roll (seeded): a result, and a choice about it
        await settle(pilot)
        assert type(app.screen).__name__ == "ChoiceDialog"
        first_dialog = next(i for i, (name, _) in enumerate(painted) if name == "ChoiceDialog")
        assert ("PlayScreen", True) in painted[:first_dialog]


async def test_a_journal_at_its_end_stays_there_when_its_pane_shrinks(
        make_campaign: Callable[..., str], app_for: Callable[..., SidekickApp]) -> None:
    from textual.geometry import Size

    app = app_for(make_campaign())
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        journal = app.screen.query_one(Journal)
        for i in range(60):
            journal.write(f"line {i}")
        journal.scroll_end(animate=False, immediate=True)
        await settle(pilot)
        assert journal.scroll_y == journal.max_scroll_y > 0
        size = journal.size
        smaller = Size(size.width, size.height - 5)
        # the size a layout sets just before it paints: the end is kept at once, not on Resize
        journal._size_updated(smaller, journal.virtual_size, smaller)
        assert journal.scroll_y == journal.max_scroll_y
        journal.scroll_to(y=0, animate=False, immediate=True)  # the player scrolled back
        await settle(pilot)
        journal._size_updated(size, journal.virtual_size, size)
        assert journal.scroll_y == 0  # reading back stays where it was


async def test_a_clearing_action_in_the_fiction_is_offered_and_told_after_it(
        make_campaign: Callable[..., str], app_for: Callable[..., SidekickApp]) -> None:
    from engine.rules import events as ev
    from engine.tui.widgets.action_menu import ActionMenu
    from tests.conftest import Helpers
    from tests.tui.conftest import game_of, journal_text
    from tests.tui.test_play import describe

    app = app_for(make_campaign())
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        game = game_of(app)
        Helpers.setup(game, ev.ConditionMarked(who="hero", condition="angry"))
        await describe(pilot, "Furious, I rip the reliquary off Dusk's belt and smash it")
        menu = app.screen.query_one(ActionMenu)
        ids = [menu.get_option_at_index(i).id for i in range(menu.option_count)]
        assert "clear:angry" in ids
        entry = str(menu.get_option("clear:angry").prompt)
        assert "That clears Angry" in entry and "“smash”" in entry
        menu.highlighted = ids.index("clear:angry")
        await pilot.press("enter")
        await settle(pilot)
        # issue 28 item 3: it clears at the end of the scene, the journal says so now
        assert "angry" in game.state.hero.conditions and game.state.scene.clearing == ["angry"]
        assert game.flow.stage == "move"  # the moves are still on offer
        text = journal_text(app)
        assert text.index("smash it") < text.index(
            "You took the action that clears Angry: it clears at the end of the scene")
