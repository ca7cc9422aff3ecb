"""Benchmark: what one real action's autosave costs, a Masks move's against a fight's.

Plays the bundled example scripts into a temporary save folder (the Masks thirty moves, the
M&M harbour fight, the panels skyrail fight) and times every ``CampaignStore.save`` the game
makes, one per action, with the bytes of the events it logs. Prints per script the median
and p90/p95 save time and the median events bytes of an action, each with its ratio to the
Masks moves of the same run (the baseline): a fight round's autosave should cost about what a
Masks move's does. The load average is printed before and after.

Run: ``.venv/bin/python benchmarks/bench_autosave.py [--repeat N]``
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.script import run_script  # noqa: E402
from engine.store import CampaignStore  # noqa: E402

SCRIPTS = {
    "Masks moves (baseline)": "masks-thirty-moves.yaml",
    "M&M fight": "mm3e-harbor-fight.yaml",
    "panels fight": "panels-skyrail-fight.yaml",
}


def measure(script: str, repeat: int) -> tuple[list[float], list[int]]:
    """Seconds and logged event bytes of every autosave while ``script`` plays ``repeat``
    times, each time into a fresh save folder."""
    data = yaml.safe_load((ROOT / "examples" / script).read_text(encoding="utf-8"))
    times: list[float] = []
    sizes: list[int] = []
    real_save = CampaignStore.save

    def timed(self: CampaignStore, events: list[dict[str, Any]], *a: Any, **k: Any) -> Any:
        start = time.perf_counter()
        out = real_save(self, events, *a, **k)
        times.append(time.perf_counter() - start)
        sizes.append(len(json.dumps(events, separators=(",", ":"))))
        return out

    CampaignStore.save = timed  # type: ignore[method-assign]
    try:
        for _ in range(repeat):
            with tempfile.TemporaryDirectory() as tmp:
                run_script(data, saves=Path(tmp), content=[], campaign=None,
                           emit=lambda e: None)
    finally:
        CampaignStore.save = real_save  # type: ignore[method-assign]
    return times, sizes


def pct(xs: list[float], q: float) -> float:
    """The ``q`` percentile (nearest rank)."""
    return sorted(xs)[max(0, math.ceil(q / 100 * len(xs)) - 1)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="plays of each script")
    args = parser.parse_args()
    print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    rows = {name: measure(script, args.repeat) for name, script in SCRIPTS.items()}
    base_t = statistics.median(rows["Masks moves (baseline)"][0])
    base_b = statistics.median(rows["Masks moves (baseline)"][1])
    print(f"{'script':24} {'saves':>6} {'median ms':>10} {'p90 ms':>7} {'p95 ms':>7}"
          f" {'ratio':>6} {'bytes':>7} {'ratio':>6}")
    for name, (t, b) in rows.items():
        mt, mb = statistics.median(t), statistics.median(b)
        print(f"{name:24} {len(t):>6} {mt * 1000:>10.2f} {pct(t, 90) * 1000:>7.2f}"
              f" {pct(t, 95) * 1000:>7.2f} {mt / base_t:>6.2f} {mb:>7.0f} {mb / base_b:>6.2f}")
    print("ratio: the median over the baseline's (Masks moves, same run)")
    print(f"load average at end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
