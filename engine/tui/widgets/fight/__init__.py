"""The fight panel: what a fight waits for, drawn from the engine's typed fight values, and the
player's choices posted as the panel's own messages (``FightPanel.ActionChosen``...).

- ``view``: what the panel shows (``FightView`` and its modes) and where the player is in
  choosing (``Pick``)
- ``menu``: the panel's menu (``FightList``): entries that carry what choosing them does
- ``panel``: the ``FightPanel`` widget and its messages
"""

from engine.tui.widgets.fight.menu import Entry, FightList
from engine.tui.widgets.fight.panel import FightPanel
from engine.tui.widgets.fight.view import (
    ChoiceAsk,
    DieAsk,
    FightView,
    Mode,
    NobodyActs,
    Pick,
    PlayerTurn,
    RefereeTurn,
)

__all__ = ["ChoiceAsk", "DieAsk", "Entry", "FightList", "FightPanel", "FightView", "Mode",
           "NobodyActs", "Pick", "PlayerTurn", "RefereeTurn"]
