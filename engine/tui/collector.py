"""Garbage collection between keypresses, never inside one.

A full (generation-2) collection walks every object the app holds: content, the rules, and
the journal's rendered lines, which grow with the campaign. Measured on a warmed play screen it
cost 87-90 ms of CPU, and 100-145 ms after twenty moves, and it fell inside whichever keypress
happened to allocate past the threshold.

So once the app has been quiet for a moment, :class:`IdleCollector` collects what is young and
freezes what survived (``gc.freeze``): later collections, automatic or not, walk only what was
made since. Objects frozen while alive and later thrown away in a reference cycle (a closed
dialog's widgets) are not collected while frozen, so every ``full_every`` quiet moments the
whole heap is unfrozen and collected once, still between keypresses.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable


class IdleCollector:
    """Collects and freezes the heap when input has been quiet for ``quiet`` seconds."""

    def __init__(self, quiet: float = 0.3, full_every: int = 30,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.quiet = quiet
        self.full_every = full_every
        self.clock = clock
        self.last_input = clock()
        self.pending = True
        """Input arrived since the last collection (the warm-up counts as input)."""
        self.settled = 0
        """Quiet moments collected so far."""

    def touched(self) -> None:
        """Input arrived: the next quiet moment collects."""
        self.last_input = self.clock()
        self.pending = True

    def tick(self) -> bool:
        """Collect if input is pending and has been quiet long enough; True if it did."""
        if not self.pending or self.clock() - self.last_input < self.quiet:
            return False
        self.pending = False
        self.settled += 1
        if self.settled % self.full_every == 0:
            gc.unfreeze()
        gc.collect()
        gc.freeze()
        return True

    @staticmethod
    def release() -> None:
        """Hand every frozen object back to the collector (when the app stops)."""
        gc.unfreeze()
