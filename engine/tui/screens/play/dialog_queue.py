"""The dialogs the play screen pushes, one at a time and only while it is on top (a dialog
pushed while another screen is on top would hand its answer to that screen)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.screen import Screen

from engine.tui.screens.play.host import DialogFactory


class DialogQueue:
    """Dialogs waiting for their turn on ``screen``; ``closed`` runs as each one closes,
    before its result is handed on."""

    def __init__(self, screen: Screen[Any], closed: Callable[[], None]) -> None:
        self._screen = screen
        self._closed = closed
        self._open = False
        self._queued: list[tuple[DialogFactory, Callable[[Any], None] | None]] = []

    def push(self, factory: DialogFactory,
             on_result: Callable[[Any], None] | None = None) -> None:
        """Show the dialog ``factory`` makes now, or once the screen is on top again."""
        self._queued.append((factory, on_result))
        self.drain()

    def drain(self) -> None:
        """Show the next dialog waiting, if none is open and the screen is on top."""
        screen = self._screen
        if self._open or screen.app.screen is not screen or not self._queued:
            return
        factory, on_result = self._queued.pop(0)
        dialog = factory()
        if dialog is None:
            self.drain()
            return
        self._open = True

        def done(result: Any) -> None:
            self._open = False
            self._closed()
            if on_result is not None:
                on_result(result)
            screen.call_after_refresh(self.drain)

        dialog.on_close = done
        screen.app.push_screen(dialog)
