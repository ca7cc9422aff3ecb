"""The play screen and its parts: one campaign in play (see screen.py for the layout).

``PlayScreen`` is imported from here; the parts under it name the screen only through the
``PlayHost`` protocol (host.py), so imports inside the package point one way: screen, then
the prompt, the fight's turn and menu, the other parts, and host at the bottom.
"""

from engine.tui.screens.play.choices import FLOW_KINDS
from engine.tui.screens.play.moves import NOBODY
from engine.tui.screens.play.rolls import stat_detail
from engine.tui.screens.play.screen import PlayScreen

__all__ = ["FLOW_KINDS", "NOBODY", "PlayScreen", "stat_detail"]
