"""The Game facade and its parts: the one object both front ends (and the tests) drive.

``Game`` (facade.py) holds the campaign's state and the all-or-nothing action; its parts
(party.py, gm_tools.py, ledger.py, edits.py) take it through the ``Host`` protocol (host.py).
"""

from engine.game.facade import (
    CAMPAIGN,
    DICE_MODES,
    Edit,
    Editable,
    Game,
    MemoryStore,
    Persistence,
    Prompt,
    RollPreview,
    entered_die,
    hero_problems,
    validate_hero,
)

__all__ = ["CAMPAIGN", "DICE_MODES", "Edit", "Editable", "Game", "MemoryStore", "Persistence",
           "Prompt", "RollPreview", "entered_die", "hero_problems", "validate_hero"]
