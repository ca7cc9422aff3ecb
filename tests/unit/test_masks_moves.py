"""Every Masks move, band by band, with entered dice; and the Masks rules around the moves.

Expected values come from RULES.md section A (the seeds), not from the content files: which
Label a move rolls, its bands (6- / 7-9 / 10+), how many options each band picks, what each
option does, the [-3, +4] clamp, the -2 condition penalties, the Label bounds and Influence.

The default hero (conftest ``FLAT``) has Danger +1, Freak +1, Savior +1, Superior 0 and
Mundane 0, and the Team pool starts at 1 (the start-of-session +1). The dice below are picked
so that spending one Team could not change the band, so no "change the roll?" step appears
unless a test wants it: [1, 2] always misses, [3, 4] is a weak hit (7 or 8), [6, 5] a strong hit.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from engine.content.loader import Pack
from engine.dice import DiceSpec
from engine.errors import IllegalAction
from engine.game import Game
from engine.odds import band_odds, percent
from engine.rules import events as ev
from engine.rules.effects import Interpreter
from engine.rules.state import CampaignState
from tests_helpers_stub import *  # noqa: F403  (replaced below)
