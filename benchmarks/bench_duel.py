"""Speed of one-on-one M&M duels: through ``Game`` (today's lab path: transactions, events,
appliers, journal, the referee) against the fast duel (engine/systems/mm3e/duel.py: the same
rule functions and referee, state as small tuples), in the same run; and the exact odds'
solve time (engine/systems/mm3e/markov.py).

Run: ``python benchmarks/bench_duel.py [--rounds N] [--game N] [--fast N]``. Each round
plays, for each matchup of ``MATCHUPS`` (a pack hero against a pack villain, the referee's
brain on both sides, seeded):

- ``--game`` duels through ``Game`` (a new campaign each, as the lab makes one; the
  campaign's creation is timed apart and left out of the duel's figure);
- ``--game`` lab campaigns of one fight a matchup (``sim.simulate``, today's ``sidekick
  lab`` path: a new campaign, the greedy policy for the hero, the referee for the villain);
- ``--fast`` duels through the ruleset's ``Duels.play`` (stat blocks as mappings, as the
  lab passes them).

Reported: duels per CPU-second (``time.process_time``) of each path, the median over the
rounds with p90/p95 of the per-round milliseconds per duel, the ratio fast/Game, the load
average at each round's start (the machine is shared: read the ratio, not the absolute
figures), and each matchup's exact solve time and odds beside the fast path's simulated
win rate. Target: >= 1,000 fast duels per CPU-second.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "unit"))

from mm3e_duel_rig import HEROES, game_duel

from engine.content.loader import load_pack
from engine.game import Game
from engine.lab import duels as lab_duels
from engine.lab.model import LabSpec
from engine.lab.sim import simulate
from engine.systems import ruleset_for
from engine.systems.mm3e.lab_duels import MM3EDuels
from engine.systems.mm3e.roster import characters

ROOT = Path(__file__).resolve().parents[1]
MATCHUPS = (("keystone", "the_tallyman"), ("keystone", "madame_undertow"),
            ("slipstream", "madame_undertow"))
TARGET = 1000.0
"""Fast duels per CPU-second."""


def quantile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def game_round(pack: Any, n: int, seed: int) -> tuple[float, float]:
    """CPU seconds of ``n`` duels a matchup through ``Game``, and of making their
    campaigns (``Game.new`` alone, timed apart)."""
    total = 0.0
    for hero, foe in MATCHUPS:
        t = time.process_time()
        for i in range(n):
            game_duel(pack, hero, foe, seed + i)
        total += time.process_time() - t
    t = time.process_time()
    for i in range(n * len(MATCHUPS)):
        hero = MATCHUPS[i % len(MATCHUPS)][0]
        Game.new(pack, name="duel", hero_name=HEROES[hero], archetype=hero, seed=seed + i)
    return total, time.process_time() - t


def lab_round(n: int, seed: int) -> float:
    """CPU seconds of ``n`` lab campaigns of one fight a matchup (``sim.simulate``: a new
    campaign, the greedy policy for the hero, the referee for the villain), today's lab."""
    t = time.process_time()
    for _hero, foe in MATCHUPS:
        spec = LabSpec(system="mutants-and-masterminds", policy="greedy", runs=n, seed=seed,
                       scenes=1, foes=(foe,))
        for i in range(n):
            result = simulate(spec, i)
            assert result["ok"], result.get("error")
    return time.process_time() - t


def fast_round(duels: MM3EDuels, blocks: dict[str, Any], n: int, seed: int) -> float:
    """CPU seconds of ``n`` fast duels a matchup (mappings in, as the lab calls it)."""
    t = time.process_time()
    for hero, foe in MATCHUPS:
        a, b = [blocks[hero]], [blocks[foe]]
        for i in range(n):
            duels.play(a, b, seed + i, "referee")
    return time.process_time() - t


def lab_duel_round(blocks: dict[str, Any], n: int, seed: int) -> float:
    """CPU seconds of ``n`` duels a matchup through the lab's ``duels.play_duel`` (what
    ``sidekick lab --side A=... --side B=...`` plays: blocks as JSON text, the fast path)."""
    t = time.process_time()
    for hero, foe in MATCHUPS:
        spec = lab_duels.DuelSpec(system="mutants-and-masterminds",
                                  a=(json.dumps(blocks[hero]),), b=(json.dumps(blocks[foe]),),
                                  policy="referee", runs=n, seed=seed)
        for i in range(n):
            lab_duels.play_duel(spec, i)
    return time.process_time() - t


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--game", type=int, default=20, help="Game duels a matchup a round")
    ap.add_argument("--fast", type=int, default=1000, help="fast duels a matchup a round")
    args = ap.parse_args(argv)
    pack = load_pack(ROOT / "content" / "mutants-and-masterminds")
    duels = ruleset_for(pack).duels()
    assert isinstance(duels, MM3EDuels)
    blocks = {k: b.model_dump(mode="json") for k, b in characters(pack).items()}
    game_ms: list[float] = []
    new_ms: list[float] = []
    fast_ms: list[float] = []
    lab_ms: list[float] = []
    side_ms: list[float] = []
    loads: list[float] = []
    for r in range(args.rounds):
        loads.append(os.getloadavg()[0])
        g, new = game_round(pack, args.game, 1000 * r)
        game_ms.append(1000 * (g - new) / (args.game * len(MATCHUPS)))
        new_ms.append(1000 * new / (args.game * len(MATCHUPS)))
        lab_ms.append(1000 * lab_round(args.game, r + 1) / (args.game * len(MATCHUPS)))
        fast_ms.append(1000 * fast_round(duels, blocks, args.fast, 1000 * r)
                       / (args.fast * len(MATCHUPS)))
        side_ms.append(1000 * lab_duel_round(blocks, args.fast, 1000 * r)
                       / (args.fast * len(MATCHUPS)))
        print(f"round {r + 1}: Game {game_ms[-1]:.2f} ms/duel (+ {new_ms[-1]:.2f} ms to make"
              f" its campaign), lab campaign {lab_ms[-1]:.2f} ms, fast {fast_ms[-1]:.4f}"
              f" ms/duel, lab --side {side_ms[-1]:.4f} ms, load {loads[-1]:.2f}", flush=True)
    print()
    print(f"{'path':28} {'median ms':>10} {'p90 ms':>9} {'p95 ms':>9} {'duels/CPU-s':>12}")
    for name, ms in (("Game (duel only)", game_ms), ("Game.new (campaign)", new_ms),
                     ("lab campaign of one fight", lab_ms), ("fast (Duels.play)", fast_ms),
                     ("lab --side (play_duel)", side_ms)):
        med = statistics.median(ms)
        print(f"{name:28} {med:10.4f} {quantile(ms, 0.9):9.4f} {quantile(ms, 0.95):9.4f}"
              f" {1000 / med:12,.0f}")
    ratio = statistics.median(game_ms) / statistics.median(fast_ms)
    with_new = (statistics.median(game_ms) + statistics.median(new_ms)) / statistics.median(
        fast_ms)
    fast_rate = 1000 / statistics.median(fast_ms)
    lab_ratio = statistics.median(lab_ms) / statistics.median(fast_ms)
    print(f"fast / Game: {ratio:.0f}x the duels per CPU-second ({with_new:.0f}x counting the"
          f" campaign Game needs); target {TARGET:,.0f}/CPU-s:"
          f" {'met' if fast_rate >= TARGET else 'NOT met'} ({fast_rate:,.0f});"
          f" {lab_ratio:.0f}x today's lab campaign of one fight")
    print(f"load average at the rounds' start: {' '.join(f'{x:.2f}' for x in loads)}"
          f" (end {os.getloadavg()[0]:.2f})")
    print()
    print(f"{'exact odds':34} {'solve s':>8} {'P(A)':>8} {'P(B)':>8} {'P(none)':>8}"
          f" {'sim P(A)':>9}")
    for hero, foe in MATCHUPS:
        t = time.process_time()
        exact = duels.exact(blocks[hero], blocks[foe], "referee")
        solve = time.process_time() - t
        n = 4000
        wins = sum(duels.play([blocks[hero]], [blocks[foe]], s, "referee").winner == "A"
                   for s in range(n))
        name = f"{hero} v {foe}"
        if exact is None:
            print(f"{name:34} {solve:8.2f} {'too large to enumerate':>26} {wins / n:9.3f}")
        else:
            print(f"{name:34} {solve:8.2f} {float(exact['A']):8.4f} {float(exact['B']):8.4f}"
                  f" {float(exact['nobody']):8.1e} {wins / n:9.3f}")


if __name__ == "__main__":
    main()
