"""Benchmark: one autosave with engine.store against a naive single-file TinyDB log.

An autosave here is what the engine does after one player action: about 4 small events plus a
~3 KB state. It is timed on a fresh campaign and after 10,000 logged events, next to the naive
baseline (stock ``JSONStorage``, the whole log in one TinyDB file, inserting the same events at
the same log sizes). Medians and 90th percentiles are printed with the ratio ours/baseline
(medians, same run) and the load average, as the design asks. A save's fsyncs run in the
store's background syncer (``engine.store.sync``); its rounds are part of what is measured,
since they compete with the saves for the disk.

Run: ``.venv/bin/python benchmarks/bench_store.py [--samples N] [--big N]``
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

# tinydb is imported here for the naive baseline only; the engine keeps it in store.py.
from tinydb import TinyDB

from engine.store import CampaignStore


def make_state(event_no: int) -> dict[str, Any]:
    """A plausible ~3 KB campaign state."""
    return {
        "event_no": event_no,
        "dice": {"seed": 1234, "position": event_no * 2},
        "hero": {
            "name": "Kid Flicker",
            "labels": {"danger": 1, "freak": 0, "savior": -1, "superior": 2, "mundane": 1},
            "conditions": {c: False for c in ("afraid", "angry", "guilty", "hopeless", "insecure")},
            "influence": {f"npc-{i}": i % 2 == 0 for i in range(12)},
            "moves": [f"move-{i}" for i in range(10)],
            "potential": 3,
        },
        "team": 2,
        "scene": {"label": "Rooftop chase", "cast": [f"npc-{i}" for i in range(6)]},
        "threats": [
            {"id": f"threat-{i}", "clock": i % 6, "notes": "lurks in the tunnels " * 4}
            for i in range(8)
        ],
        "journal_tail": ["The night is young and the city hums below the rooftops."] * 20,
    }


def make_action(first_n: int, a: int) -> list[dict[str, Any]]:
    """The ~4 small events of one action, numbered from ``first_n``."""
    return [
        {"n": first_n, "a": a, "t": "MoveTriggered", "move": "unleash-your-powers"},
        {"n": first_n + 1, "a": a, "t": "Rolled", "faces": [4, 5], "kept": [4, 5], "mod": 2},
        {"n": first_n + 2, "a": a, "t": "ConditionMarked", "who": "hero", "cond": "angry"},
        {"n": first_n + 3, "a": a, "t": "Narrated", "text": "The rooftop gives way."},
    ]


class Ours:
    """engine.store: chunked log + atomic campaign.json."""

    name = "engine.store"

    def __init__(self, folder: Path) -> None:
        self.store = CampaignStore.create(folder, "bench", {"name": "Bench"}, make_state(0))
        self.n = 0
        self.a = 0

    def prefill(self, events: int) -> None:
        """Play ``events`` events through real autosaves (4 per action)."""
        while self.n < events:
            self.autosave()

    def autosave(self) -> None:
        self.a += 1
        events = make_action(self.n + 1, self.a)
        self.n += len(events)
        self.store.save(events, make_state(self.n))

    def close(self) -> None:
        self.store.close()


class Baseline:
    """Naive: stock TinyDB JSONStorage, the whole log in one file."""

    name = "one TinyDB file"

    def __init__(self, folder: Path) -> None:
        self.db = TinyDB(folder / "log.json")
        self.n = 0
        self.a = 0

    def prefill(self, events: int) -> None:
        """Insert ``events`` events at once (same content as the autosaves would write)."""
        batch = []
        while self.n < events:
            self.a += 1
            batch += make_action(self.n + 1, self.a)
            self.n += 4
        self.db.insert_multiple(batch)

    def autosave(self) -> None:
        self.a += 1
        events = make_action(self.n + 1, self.a)
        self.n += len(events)
        self.db.insert_multiple(events)

    def close(self) -> None:
        self.db.close()


def measure(factory: Callable[[Path], Ours | Baseline], log_size: int, samples: int
            ) -> list[float]:
    """Milliseconds of each timed autosave once the log holds ``log_size`` events."""
    with tempfile.TemporaryDirectory(prefix="bench-store-") as tmp:
        target = factory(Path(tmp))
        try:
            target.prefill(log_size)
            for _ in range(3):  # warm up caches and the file system
                target.autosave()
            times = []
            for _ in range(samples):
                start = time.perf_counter()
                target.autosave()
                times.append(time.perf_counter() - start)
        finally:
            target.close()
    return [t * 1000 for t in times]


def p90(xs: list[float]) -> float:
    """The 90th percentile (nearest rank)."""
    ordered = sorted(xs)
    return ordered[max(0, -(-9 * len(ordered) // 10) - 1)]


def measure_open(log_size: int, samples: int) -> float:
    """Median milliseconds to open (resume) a campaign whose log holds ``log_size`` events."""
    with tempfile.TemporaryDirectory(prefix="bench-store-") as tmp:
        ours = Ours(Path(tmp))
        ours.prefill(log_size)
        ours.close()
        times = []
        for _ in range(samples):
            start = time.perf_counter()
            store = CampaignStore.open(Path(tmp), "bench")
            _ = store.state
            times.append(time.perf_counter() - start)
            store.close()
    return statistics.median(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=100, help="autosaves timed per point")
    parser.add_argument("--big", type=int, default=10_000, help="events logged before 'big'")
    args = parser.parse_args()

    started = time.perf_counter()
    state_kb = len(json.dumps(make_state(0))) / 1024
    print(f"one autosave = 4 events + a {state_kb:.1f} KB state; "
          f"median of {args.samples} samples per point")
    print()
    print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    header = (f"{'log size':>10} | {'ours median':>11} | {'p90':>7} | {'baseline median':>15} |"
              f" {'p90':>7} | {'ours/baseline':>13} | {'faster':>7}")
    print(header)
    print("-" * len(header))
    for size in (0, args.big):
        ours = measure(Ours, size, args.samples)
        base = measure(Baseline, size, args.samples)
        om, bm = statistics.median(ours), statistics.median(base)
        print(f"{size:>10,} | {om:>11.3f} | {p90(ours):>7.3f} | {bm:>15.3f} |"
              f" {p90(base):>7.3f} | {om / bm:>13.3f} | {bm / om:>6.1f}x")
    print("(milliseconds; target at 10,000 events: ours at least 20x faster)")
    print()
    fresh, big = measure_open(0, 20), measure_open(args.big, 20)
    print(f"open (resume) a campaign: {fresh:.2f} ms fresh, {big:.2f} ms after "
          f"{args.big:,} events")
    print(f"load average at end: {' '.join(f'{x:.2f}' for x in os.getloadavg())};"
          f" ran in {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
