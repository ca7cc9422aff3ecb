"""Speed of the design lab (``sidekick lab``): simulated campaigns played headless by a policy
bot through ``Game``, on one core and on two.

Run: ``python benchmarks/bench_lab.py [--rounds N] [--scale X] [--speedup-rounds N]
[--speedup-runs N]``. Each round plays, in this order:

- the baseline (as the other benchmarks): one Masks move played through ``Game`` (trigger,
  roll, choices) by ``bench_fight.masks_move_ms``, in ms;
- each case of ``CASES`` on one core (``runner.run(spec, workers=1)``): Masks and City of
  Whispers campaigns (3 scenes of 8 moves, greedy policy), M&M and panels campaigns (a fight a
  scene, the game's default foes).

Then each speed-up round plays the same Masks run with 1 worker process, then 2
(``runner.run(spec, workers=n)``, wall clock, the worker start-up included), whose results
must be identical; then its baseline, ``burn`` campaigns (pure computation, no engine) through
the same runner with 1 worker, then 2: the speed-up the machine gives at that moment (other
processes take cores from both alike).

Reported as medians over the rounds (ratios, never timed asserts):

- per case: simulated moves per second per core (a move: a PbtA move, or an action of the
  player's side in a fight), engine steps per second, ms per simulated move and its ratio to
  the baseline's ms (what the policy, the exact odds and the bookkeeping cost over a bare move);
- full Masks scenes per minute on one core (target >= 1,000);
- the speed-up from 1 to 2 workers on the same run (target >= 1.8x on a 2-core machine), and
  the share it reaches of the baseline's speed-up; the load average at each round's start;
  the cores other processes kept busy during the speed-up runs (from /proc/stat), and the
  speed-up of the quiet rounds alone (other processes under ``QUIET`` of a core).

The machine's other load skews the speed-up most: read it on a quiet machine (a baseline
speed-up well under 2x, or busy cores, say the machine was not).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from types import ModuleType

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.content.loader import load_pack
from engine.lab import runner
from engine.lab.model import CampaignResult, LabSpec, empty_result

HERE = Path(__file__).resolve().parent
SCENES_TARGET = 1000.0
"""Full Masks scenes per minute on one core."""
SPEEDUP_TARGET = 1.8
"""From 1 to 2 workers on the same run."""
QUIET = 0.15
"""A speed-up round is quiet when other processes kept fewer cores than this busy."""

CASES: dict[str, LabSpec] = {
    "masks": LabSpec(system="masks", policy="greedy", runs=40, seed=1, scenes=3, moves=8),
    "city-of-whispers": LabSpec(system="city-of-whispers", policy="greedy", runs=40, seed=1,
                                scenes=3, moves=8),
    "mm3e fights": LabSpec(system="mutants-and-masterminds", policy="greedy", runs=8, seed=1,
                           scenes=1),
    "panels fights": LabSpec(system="panels", policy="greedy", runs=2, seed=1, scenes=1),
}
"""What each round plays on one core (``--scale`` multiplies the runs)."""
BURN_LOOPS = 200_000
BURN = LabSpec(system="masks", policy="random", runs=100, seed=1)
"""The speed-up's baseline run: ``burn`` campaigns (the most 2 workers can give here now)."""
SPEEDUP = LabSpec(system="masks", policy="greedy", runs=150, seed=2, scenes=3, moves=8)
"""The run timed with 1 worker, then 2."""


def burn(spec: LabSpec, index: int) -> CampaignResult:
    """The speed-up's baseline: a campaign that only computes (about 20 ms of pure Python)."""
    x = 0
    for i in range(BURN_LOOPS):
        x += i * i % 7
    result = empty_result(spec, index, spec.policy)
    result["steps"] = x % 2
    return result


def _bench_fight() -> ModuleType:
    """``benchmarks/bench_fight.py``, for its baseline (one Masks move through ``Game``)."""
    if "bench_fight" in sys.modules:
        return sys.modules["bench_fight"]
    spec = importlib.util.spec_from_file_location("bench_fight", HERE / "bench_fight.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_fight"] = module
    spec.loader.exec_module(module)
    return module


@dataclass(frozen=True)
class Measure:
    """One timed run: its wall clock and what it played."""

    seconds: float
    campaigns: int
    ok: int
    moves: int
    scenes: int
    steps: int
    others: float | None = None
    """Cores the machine's other processes kept busy meanwhile, on average (Linux)."""

    @property
    def moves_per_s(self) -> float:
        return self.moves / self.seconds

    @property
    def steps_per_s(self) -> float:
        return self.steps / self.seconds

    @property
    def scenes_per_min(self) -> float:
        return self.scenes / self.seconds * 60


def measure(spec: LabSpec, workers: int, simulate: runner.Simulate | None = None
            ) -> tuple[Measure, list[CampaignResult]]:
    """Play ``spec`` with ``workers`` processes; the time and the totals of the ok results."""
    busy, mine = machine_busy(), own_cpu()
    t = time.perf_counter()
    results = runner.run(spec, workers=workers, simulate=simulate)
    seconds = time.perf_counter() - t
    after = machine_busy()
    others = None if busy is None or after is None else max(
        0.0, (after - busy - (own_cpu() - mine)) / seconds)
    ok = [r for r in results if r["ok"]]
    return Measure(seconds, len(results), len(ok), sum(r["moves"] for r in ok),
                   sum(r["scenes"] for r in ok), sum(r["steps"] for r in ok), others), results


def machine_busy() -> float | None:
    """CPU seconds the whole machine has been busy (every process), or None off Linux."""
    try:
        with open("/proc/stat", encoding="ascii") as f:
            ticks = [int(x) for x in f.readline().split()[1:]]
    except (OSError, ValueError):
        return None
    idle = ticks[3] + (ticks[4] if len(ticks) > 4 else 0)  # idle and waiting on I/O
    return (sum(ticks[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def own_cpu() -> float:
    """CPU seconds of this process and its finished children (the worker processes)."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def scaled(spec: LabSpec, scale: float) -> LabSpec:
    """``spec`` with its runs multiplied by ``scale`` (at least one)."""
    return replace(spec, runs=max(1, round(spec.runs * scale)))


@dataclass
class Rounds:
    """Everything measured, round by round."""

    base_ms: list[float]
    cases: dict[str, list[Measure]]
    one: list[Measure]
    two: list[Measure]
    identical: list[bool]
    burn: list[float]
    """The speed-up of the ``burn`` run from 1 to 2 workers, each round."""
    load: list[float]
    """The machine's load average (1 minute) at the start of each round."""


def bench(rounds: int, cases: dict[str, LabSpec], speedup: LabSpec, speedup_rounds: int,
          baseline_moves: int = 40) -> Rounds:
    """Play every round (the baseline and each case on one core), then the speed-up rounds
    (the Masks run with 1 worker, then 2; then the ``burn`` run likewise)."""
    fight = _bench_fight()
    masks = load_pack(fight.MASKS)
    fight.masks_move_ms(masks, 5)  # warm up
    for spec in [*cases.values(), speedup]:  # load each pack, warm the caches
        runner.run(replace(spec, runs=1, scenes=1, moves=2), workers=1)
    out = Rounds([], {name: [] for name in cases}, [], [], [], [], [])
    for _ in range(rounds):
        out.load.append(os.getloadavg()[0])
        out.base_ms.append(statistics.median(fight.masks_move_ms(masks, baseline_moves)))
        for name, spec in cases.items():
            out.cases[name].append(measure(spec, 1)[0])
    burn_run = replace(BURN, runs=max(4, speedup.runs // 3))
    for _ in range(speedup_rounds):
        one, a = measure(speedup, 1)
        two, b = measure(speedup, 2)
        out.one.append(one)
        out.two.append(two)
        out.identical.append(json.dumps(a) == json.dumps(b))
        b1, _ = measure(burn_run, 1, burn)
        b2, _ = measure(burn_run, 2, burn)
        out.burn.append(b1.seconds / b2.seconds)
    return out


def report(r: Rounds, cases: dict[str, LabSpec], speedup: LabSpec) -> list[str]:
    """The table: medians over the rounds, ratios to the baseline of the same run."""
    med = statistics.median
    base = med(r.base_ms)
    lines = [f"Lab benchmark: {len(r.base_ms)} round(s), medians. Baseline: one Masks move"
             f" played through Game = {base:.3f} ms.",
             f"{'one core':34} {'campaigns':>9} {'moves/s':>9} {'steps/s':>9} {'ms/move':>8}"
             f" {'slowest':>8} {'ratio':>6}"]
    for name, spec in cases.items():
        ms = r.cases[name]
        per_move = med(1000 / m.moves_per_s for m in ms if m.moves)
        slowest = max((1000 / m.moves_per_s for m in ms if m.moves), default=0.0)
        what = f"{name} ({spec.scenes} sc" + (f" x {spec.moves} moves)" if "fights" not in name
                                               else ", a fight each)")
        failed = sum(m.campaigns - m.ok for m in ms)
        lines.append(f"{what:34} {ms[0].campaigns:9d} {med(m.moves_per_s for m in ms):9.0f}"
                     f" {med(m.steps_per_s for m in ms):9.0f} {per_move:8.3f} {slowest:8.3f}"
                     f" {per_move / base:6.2f}" + (f"  ({failed} failed)" if failed else ""))
    masks = r.cases.get("masks")
    if masks:
        spm = med(m.scenes_per_min for m in masks)
        met = "met" if spm >= SCENES_TARGET else "NOT met"
        lines.append(f"Full Masks scenes per minute, one core: {spm:,.0f}"
                     f" (target >= {SCENES_TARGET:,.0f}: {met})")
    one, two = med(m.seconds for m in r.one), med(m.seconds for m in r.two)
    ups = [a.seconds / b.seconds for a, b in zip(r.one, r.two, strict=True)]
    up = med(ups)
    lines.append(f"Speed-up 1 -> 2 workers ({speedup.runs} Masks campaigns of {speedup.scenes}"
                 f" scenes, {len(ups)} rounds): {one:.2f} s -> {two:.2f} s = {up:.2f}x (target"
                 f" >= {SPEEDUP_TARGET}x: {'met' if up >= SPEEDUP_TARGET else 'NOT met'});"
                 f" results identical: {'yes' if all(r.identical) else 'NO'}")
    burned = med(r.burn)
    lines.append(f"  baseline: pure computation through the same runner, 1 -> 2 workers:"
                 f" {burned:.2f}x (what the machine gives now); the lab's speed-up is"
                 f" {up / burned:.0%} of it. Load average at the start of the rounds:"
                 f" {', '.join(f'{x:.1f}' for x in r.load)}")
    busy = [max(a.others, b.others) for a, b in zip(r.one, r.two, strict=True)
            if a.others is not None and b.others is not None]
    if busy:
        quiet = [u for u, x in zip(ups, busy, strict=True) if x < QUIET]
        lines.append(f"  other processes kept {med(busy):.2f} of the"
                     f" {runner.default_workers()} cores busy during the speed-up rounds"
                     f" (median of the busier run of each round)")
        lines.append(f"  speed-up on the quiet rounds (other processes under {QUIET} core):"
                     + (f" {med(quiet):.2f}x over {len(quiet)} of {len(ups)} rounds"
                        f" ({', '.join(f'{u:.2f}' for u in quiet)})" if quiet else
                        " none was quiet: run it again on a quiet machine"))
    lines.append(f"ratio: ms per simulated move (median of the rounds; slowest: the slowest"
                 f" round's) / the baseline's ms. Cores here:"
                 f" {runner.default_workers()}.")
    return lines


def main(argv: Sequence[str] | None = None) -> list[str]:
    """Measure and print the table (returned too)."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=3, help="rounds (default 3)")
    ap.add_argument("--scale", type=float, default=1.0,
                    help="multiply the campaigns of each case (default 1)")
    ap.add_argument("--speedup-rounds", type=int, default=6,
                    help="rounds of the 1 -> 2 workers runs (default 6)")
    ap.add_argument("--speedup-runs", type=int, default=SPEEDUP.runs,
                    help=f"Masks campaigns of the 1 -> 2 workers run (default {SPEEDUP.runs})")
    ap.add_argument("--tiny", action="store_true",
                    help="one scene of two moves per campaign (the test's size)")
    args = ap.parse_args(argv)
    cases = {name: scaled(spec, args.scale) for name, spec in CASES.items()}
    speedup = replace(SPEEDUP, runs=args.speedup_runs)
    if args.tiny:
        cases = {name: replace(spec, scenes=1, moves=2) for name, spec in cases.items()}
        speedup = replace(speedup, scenes=1, moves=2)
    lines = report(bench(args.rounds, cases, speedup, args.speedup_rounds,
                         10 if args.tiny else 40), cases, speedup)
    print("\n".join(lines))
    return lines


if __name__ == "__main__":
    main()
