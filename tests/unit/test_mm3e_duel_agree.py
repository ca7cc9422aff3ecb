"""The fast M&M duel agrees with ``Game``: the same policy on both sides (the referee's brain,
then "greedy"), a few hundred seeded duels each way, and the win rates within their joint
99% interval."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import pytest

from engine.content.loader import Pack
from engine.rules.duel import DuelRecord
from engine.systems import ruleset_for
from engine.systems.mm3e import referee as rf
from engine.systems.mm3e.duel import SeededDice, greedy_choose, greedy_options
from engine.systems.mm3e.lab_duels import MM3EDuels
from engine.systems.mm3e.roster import characters

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mm3e_duel_rig import game_duel, mm3e_pack

Z99 = 2.576
GAME_DUELS = 200
FAST_DUELS = 1500


@pytest.fixture(scope="module")
def pack() -> Pack:
    return mm3e_pack()


def _share(records: list[DuelRecord], winner: str) -> float:
    return sum(r.winner == winner for r in records) / len(records)


def _agree(fast: list[DuelRecord], game: list[DuelRecord]) -> None:
    """Each winner's share within the joint 99% interval of the two samples."""
    for w in ("A", "B"):
        p, q = _share(fast, w), _share(game, w)
        pooled = (p * len(fast) + q * len(game)) / (len(fast) + len(game))
        spread = Z99 * math.sqrt(max(pooled * (1 - pooled), 1e-9)
                                 * (1 / len(fast) + 1 / len(game)))
        assert abs(p - q) <= spread + 1e-9, (w, p, q, spread)


def _both(pack: Pack, hero: str, foe: str, policy: str) -> None:
    duels = ruleset_for(pack).duels()
    assert isinstance(duels, MM3EDuels)
    blocks = characters(pack)
    duel = duels.duel(blocks[hero], blocks[foe], policy)
    fast = [duel.play(SeededDice(seed)) for seed in range(FAST_DUELS)]
    game = [game_duel(pack, hero, foe, 5000 + seed)[0] for seed in range(GAME_DUELS)]
    _agree(fast, game)
    assert {r.ending for r in fast} >= {r.ending for r in game} - {"stalemate"}


@pytest.mark.parametrize(("hero", "foe"), [
    ("keystone", "the_tallyman"),      # equal PL 10; an affliction (dazed, compelled, out)
    ("keystone", "madame_undertow"),   # one PL ahead (11)
    ("lamplight", "madame_undertow"),  # an area affliction (impaired, disabled, unaware)
])
def test_referee_both_sides(pack: Pack, hero: str, foe: str) -> None:
    _both(pack, hero, foe, "referee")


def test_greedy_both_sides(pack: Pack, monkeypatch: pytest.MonkeyPatch) -> None:
    """"greedy" on the Game path: the fight engine's referee asks ``greedy_options`` where it
    would ask ``explain_options`` (and ``greedy_choose`` for ``choose``)."""
    explain = rf.explain_options
    monkeypatch.setattr(rf, "explain_options", lambda s: greedy_options(s, explain))
    monkeypatch.setattr(rf, "choose", greedy_choose)
    _both(pack, "slipstream", "madame_undertow", "greedy")
