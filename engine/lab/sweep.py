"""Sweeps: a trait of one side's stat blocks stepped over a range (``--sweep toughness=8..14``,
``--sweep B.dodge=6..12``), or a grid of two, each point played as a run of duels on the same
seeds; per point the win rate of side A with its 95% Wilson interval, the draws, the rounds
and turns, how the fights ended, and where the two sides are even (the 50% crossing, linearly
interpolated between the points on either side of it).

A plain duel is a sweep of one point (no traits): ``summarize`` makes both reports' data.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from engine.content.loader import Pack
from engine.errors import IllegalAction
from engine.lab import sides
from engine.lab.duels import DuelSpec, Job, exact, play_all
from engine.lab.model import campaign_seed
from engine.lab.stats import mean_interval, wilson
from engine.rules.duel import DuelRecord

MAX_POINTS = 400
"""The most points one sweep (a grid: both traits' values multiplied) may have."""
ENDINGS = ("knocked_out", "fled", "surrendered", "stalemate")


@dataclass(frozen=True)
class Sweep:
    """One swept trait: the side whose blocks it changes, its name and its values."""

    side: str
    trait: str
    values: tuple[int, ...]

    @property
    def label(self) -> str:
        """``A.toughness``."""
        return f"{self.side}.{self.trait}"


_RANGE = re.compile(r"^\s*(-?\d+)\s*\.\.\s*(-?\d+)\s*(?:(?:/|:|step\s*)\s*(\d+))?\s*$")


def parse_sweep(text: str) -> Sweep:
    """``toughness=8..14``, ``B.dodge=6..12/2``, ``attacks.0.rank=8,10,12``; the side is A
    unless the trait starts with ``A.`` or ``B.``. ``IllegalAction`` saying the form."""
    trait, eq, values = text.partition("=")
    trait = trait.strip()
    side = "A"
    if trait[:2].upper() in ("A.", "B."):
        side, trait = trait[0].upper(), trait[2:]
    if not eq or not trait:
        raise IllegalAction(f"--sweep: expected TRAIT=LOW..HIGH (toughness=8..14,"
                            f" B.dodge=6..12/2, attacks.0.rank=8,10,12), got {text!r}")
    m = _RANGE.match(values)
    if m:
        low, high, step = int(m[1]), int(m[2]), int(m[3] or 1)
        if high < low or step < 1:
            raise IllegalAction(f"--sweep {text}: the range goes from low to high by a step"
                                " of 1 or more")
        nums = tuple(range(low, high + 1, step))
    else:
        try:
            nums = tuple(int(v) for v in values.split(","))
        except ValueError:
            raise IllegalAction(f"--sweep {text}: values are LOW..HIGH, LOW..HIGH/STEP or"
                                " whole numbers separated by commas") from None
    if len(nums) > MAX_POINTS:
        raise IllegalAction(f"--sweep {text}: {len(nums)} points; at most {MAX_POINTS}")
    return Sweep(side=side, trait=trait, values=nums)


Point = dict[str, int]
"""A sweep's point: each swept trait's label and its value (empty: the duel as given)."""


def points(sweeps: Sequence[Sweep]) -> list[Point]:
    """Every point of the sweeps (a grid for two: the first varies fastest)."""
    if len(sweeps) > 2:
        raise IllegalAction("--sweep: one trait, or a grid of two; not more")
    if len(sweeps) == 2 and sweeps[0].label == sweeps[1].label:
        raise IllegalAction(f"--sweep: {sweeps[0].label} is swept twice")
    out: list[Point] = [{}]
    for sw in reversed(sweeps):
        out = [{sw.label: v, **p} for p in out for v in sw.values]
    out = [dict(sorted(p.items(), key=lambda kv: [s.label for s in sweeps].index(kv[0])))
           for p in out]
    if len(out) > MAX_POINTS:
        raise IllegalAction(f"--sweep: {len(out)} points in the grid; at most {MAX_POINTS}")
    return out


def blocks_at(pack: Pack, spec: DuelSpec, sweeps: Sequence[Sweep], point: Point
              ) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Both sides' blocks at ``point`` (checked against the game's model)."""
    a, b = sides.load(spec.a), sides.load(spec.b)
    for sw in sweeps:
        if sw.label not in point:
            continue
        if sw.side == "A":
            a = sides.with_trait(a, sw.trait, point[sw.label])
        else:
            b = sides.with_trait(b, sw.trait, point[sw.label])
    where = ", ".join(f"{k}={v}" for k, v in point.items()) or "the duel"
    sides.check_blocks(pack, a, f"--sweep at {where}")
    sides.check_blocks(pack, b, f"--sweep at {where}")
    return sides.dump(a), sides.dump(b)


def base_values(spec: DuelSpec, sweeps: Sequence[Sweep]) -> dict[str, int]:
    """Each swept trait's value in the blocks as given (in the first block that has it)."""
    out: dict[str, int] = {}
    for sw in sweeps:
        for blk in sides.load(spec.a if sw.side == "A" else spec.b):
            try:
                out[sw.label] = sides.get_trait(blk, sides.trait_path(blk, sw.trait))
                break
            except IllegalAction:
                continue
    return out


# ---------------------------------------------------------------------------- running


def run(pack: Pack, spec: DuelSpec, sweeps: Sequence[Sweep], workers: int | None = None,
        progress: Callable[[int, int], None] | None = None
        ) -> tuple[list[Point], list[tuple[tuple[str, ...], tuple[str, ...]]],
                   list[list[DuelRecord | str]]]:
    """Play ``spec.runs`` fights at every point: the points, their blocks and records."""
    pts = points(sweeps)
    at = [blocks_at(pack, spec, sweeps, p) for p in pts]
    jobs: list[Job] = [(spec, i, a, b) for a, b in at for i in range(spec.runs)]
    flat = play_all(jobs, workers, progress)
    per = [flat[k * spec.runs:(k + 1) * spec.runs] for k in range(len(pts))]
    return pts, at, per


def _point_summary(spec: DuelSpec, point: Point, records: Sequence[DuelRecord | str],
                   blocks: tuple[tuple[str, ...], tuple[str, ...]]) -> dict[str, Any]:
    ok = [r for r in records if isinstance(r, DuelRecord)]
    n = len(ok)
    wins = Counter(r.winner for r in ok)
    a_low, a_high = wilson(wins["A"], n)
    b_low, b_high = wilson(wins["B"], n)
    first_a = [r for r in ok if r.first == "A"]
    first_b = [r for r in ok if r.first == "B"]
    ex = exact(spec, *blocks)
    return {
        "point": dict(point), "runs": n, "failed": len(records) - n,
        "a_wins": wins["A"], "b_wins": wins["B"], "draws": wins["nobody"],
        "a_rate": wins["A"] / n if n else None, "a_low": a_low, "a_high": a_high,
        "b_rate": wins["B"] / n if n else None, "b_low": b_low, "b_high": b_high,
        "rounds": mean_interval([float(r.rounds) for r in ok]),
        "turns": mean_interval([float(r.turns) for r in ok]),
        "endings": {e: sum(1 for r in ok if r.ending == e) for e in ENDINGS},
        "first": {"A": len(first_a), "B": len(first_b)},
        "a_wins_first": {"A": sum(1 for r in first_a if r.winner == "A"),
                         "B": sum(1 for r in first_b if r.winner == "A")},
        "exact": None if ex is None else {k: float(v) for k, v in ex.items()},
    }


def crossings(sweeps: Sequence[Sweep], pts: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Where side A's win rate crosses 50% along the first swept trait (for each value of
    the second in a grid): ``{"trait", "at", "given"}`` (``at`` None: it never crosses in
    the range; ``given``: the second trait's value)."""
    if not sweeps:
        return []
    first = sweeps[0].label
    groups: dict[tuple[tuple[str, int], ...], list[dict[str, Any]]] = {}
    for p in pts:
        rest = tuple((k, v) for k, v in p["point"].items() if k != first)
        groups.setdefault(rest, []).append(p)
    out = []
    for rest, row in groups.items():
        row = [p for p in row if p["a_rate"] is not None]
        at: float | None = None
        for p, q in itertools.pairwise(row):
            x0, x1 = p["point"][first], q["point"][first]
            y0, y1 = p["a_rate"] - 0.5, q["a_rate"] - 0.5
            if y0 == 0:
                at = float(x0)
                break
            if y0 * y1 < 0 or y1 == 0:
                at = x0 + (x1 - x0) * (-y0) / (y1 - y0)
                break
        out.append({"trait": first, "at": at, "given": dict(rest)})
    return out


def summarize(spec: DuelSpec, sweeps: Sequence[Sweep], pts: Sequence[Point],
              at: Sequence[tuple[tuple[str, ...], tuple[str, ...]]],
              per: Sequence[Sequence[DuelRecord | str]], path: str) -> dict[str, Any]:
    """A run's report data (``DuelSummary`` in ``engine.outputs``)."""
    a, b = sides.load(spec.a), sides.load(spec.b)
    rows = [_point_summary(spec, p, recs, blocks) for p, blocks, recs in zip(pts, at, per,
                                                                             strict=True)]
    failures = [{"point": dict(p), "error": r} for p, recs in zip(pts, per, strict=True)
                for r in recs if isinstance(r, str)]
    one_on_one = len(a) == len(b) == 1 and not any(sides.group_size(x) for x in (*a, *b))
    return {
        "kind": "sweep" if sweeps else "duel" if one_on_one else "skirmish",
        "system": spec.system, "policy": spec.policy,
        "runs": spec.runs, "seed": spec.seed, "max_rounds": spec.max_rounds, "path": path,
        "a": sides.side_name(a), "b": sides.side_name(b),
        "sweep": [{"side": s.side, "trait": s.trait, "label": s.label, "values": list(s.values),
                   "given": base_values(spec, [s]).get(s.label)} for s in sweeps],
        "points": rows, "even": crossings(sweeps, rows), "failures": failures[:50],
        "failed": len(failures),
    }


def records_rows(pts: Sequence[Point], per: Sequence[Sequence[DuelRecord | str]],
                 seed: int) -> list[dict[str, Any]]:
    """One row per fight, for the CSV: the point's traits, the index and dice seed, and the
    record (or the error)."""
    out = []
    for p, recs in zip(pts, per, strict=True):
        for i, r in enumerate(recs):
            row: dict[str, Any] = {**p, "index": i, "seed": campaign_seed(seed, i)}
            if isinstance(r, DuelRecord):
                row.update(winner=r.winner, ending=r.ending, rounds=r.rounds, turns=r.turns,
                           first=r.first, error="")
            else:
                row.update(winner="", ending="", rounds="", turns="", first="", error=r)
            out.append(row)
    return out
