"""What keeps a keypress fast: a dialog draws the screen below it once, and full garbage
collections happen between keypresses (engine/tui/screens/backdrop.py, engine/tui/collector.py).
"""

from __future__ import annotations

import gc
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


def _cells(strips: list[Strip]) -> list[list[tuple[str, Style | None]]]:
    """Each line as (character, style) cells, however it is cut into segments."""
    return [[(ch, seg.style) for seg in strip for ch in seg.text] for strip in strips]


def _textual_backdrop(dialog: BackdropScreen[Any], below: PlayScreen) -> list[Strip]:
    """What Textual's own translucent background draws for ``dialog`` over ``below``."""
    visual = visualize(dialog, BackgroundScreen(below, dialog.styles.background))
    return Visual.to_strips(dialog, visual, dialog.size.width, dialog.size.height,
                            dialog.visual_style)


async def test_the_backdrop_is_the_picture_textual_would_draw(
        make_campaign: Callable[..., str], app_for: Callable[..., SidekickApp]) -> None:
    app = app_for(make_campaign())
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        play = app.screen
        assert isinstance(play, PlayScreen)
        dialog = MessageDialog("Note", "Something happened.")
        app.push_screen(dialog)
        await settle(pilot)
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
        await settle(pilot)
        play = app.screen
        assert isinstance(play, PlayScreen)
        dialog = MessageDialog("Note", "Something happened.")
        app.push_screen(dialog)
        await settle(pilot)
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
