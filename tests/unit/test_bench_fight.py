"""The fight benchmark's fight, played once: it ends with a winner, its greedy player picks the
best odds, and its numbers are counted (no timing is asserted)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from engine.content.loader import Pack, load_pack

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_fight.py"


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_fight", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_fight"] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def mm(bench: ModuleType) -> Pack:
    pack: Pack = load_pack(bench.MM3E)
    return pack


def test_one_fight_ends_with_a_winner(bench: ModuleType, mm: Pack) -> None:
    run = bench.play(mm, 1)
    assert run.winner in ("the heroes win", "the villains win")
    assert run.rounds >= 1 and run.steps >= len(run.choose) + len(run.resolve)
    assert run.choose and run.resolve and run.player and run.turns  # both sides played
    assert len(run.resolve) <= len(run.choose)  # every resolve was chosen first
    assert run.steps < bench.MAX_STEPS


def test_the_party_and_the_foes(bench: ModuleType, mm: Pack) -> None:
    game = bench.new_game(mm, 3)
    assert [h.name for h in game.state.heroes] == ["Keystone", "Lamplight", "Slipstream",
                                                   "Bedrock"]
    game.start_fight(bench.FOES)
    sides = [r["side"] for r in game.tracker()]
    assert (sides.count("heroes"), sides.count("villains")) == (4, 6)
    assert all(r["control"] == ("player" if r["side"] == "heroes" else "referee")
               for r in game.tracker())


def test_the_greedy_player_takes_the_best_effect(bench: ModuleType, mm: Pack) -> None:
    game = bench.new_game(mm, 5)
    game.start_fight(bench.FOES)
    game.referee_run()
    pick = bench.greedy(game)
    assert pick is not None
    best = max(t["effect"] for o in game.fight_options() if o["allowed"]
               and o["action"] == "attack" for t in o.get("targets", []))
    [chosen] = [t for o in game.fight_options() if o.get("attack") == pick[1]
                and o["action"] == "attack" for t in o["targets"] if t["id"] == pick[2]]
    assert chosen["effect"] == best


def test_an_unfinished_fight_has_no_winner(bench: ModuleType, mm: Pack) -> None:
    run = bench.play(mm, 1, max_steps=3)
    assert (run.winner, run.steps) == (None, 3)


def test_p95_is_the_nearest_rank(bench: ModuleType) -> None:
    assert bench.p95(list(range(1, 101))) == 95
    assert bench.p95([4.0]) == 4.0
    assert bench.p95([3, 1, 2]) == 3
