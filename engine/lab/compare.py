"""A/B of two runs on the same seeds: every number's difference (B - A) with a 95% interval
(proportions: Newcombe's hybrid score; means: Welch), significance after Holm's correction over
all the numbers compared, the biggest real changes first (by effect size: Cohen's h for
proportions, Cohen's d for means, so both read on one scale)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from engine.lab.model import CampaignResult
from engine.lab.stats import (
    NOBODY,
    band_table,
    campaign_doomed,
    final_values,
    holm,
    mean_var,
    newcombe,
    summarize,
    two_proportion_p,
    welch,
)

MAX_EFFECT = 99.0
"""The effect size of a change between two constant samples (no spread to scale it by)."""


def _proportions(rs: list[CampaignResult]) -> dict[tuple[str, str], tuple[int, int]]:
    out: dict[tuple[str, str], tuple[int, int]] = {}
    n = len(rs)
    out[("outcomes", "taken out / incapacitated (share of campaigns)")] = (
        sum(1 for r in rs if r["taken_out"]), n)
    if any(r["threats"] for r in rs):
        out[("threats", "a threat clock reached doom (share of campaigns)")] = (
            sum(1 for r in rs if campaign_doomed(r)), n)
    table = band_table(rs)
    for move in sorted(table):
        m = table[move]
        for band in m["bands"]:
            out[("bands", f"{move}: {band}")] = (m["observed"].get(band, 0), m["rolls"])
    fights = [f for r in rs for f in r["fights"]]
    if fights:
        for side in sorted({f["winner"] for f in fights}):
            out[("fights", f"won by {side or 'nobody'} (share of fights)")] = (
                sum(1 for f in fights if f["winner"] == side), len(fights))
        decided = [f for f in fights if f["winner"] not in NOBODY and f["first"] not in NOBODY]
        out[("fights", "won by the side acting first")] = (
            sum(1 for f in decided if f["winner"] == f["first"]), len(decided))
    return out


def _means(rs: list[CampaignResult]) -> dict[tuple[str, str], list[float]]:
    out: dict[tuple[str, str], list[float]] = {}
    out[("campaign", "steps per campaign")] = [float(r["steps"]) for r in rs]
    out[("campaign", "rolls per campaign")] = [float(len(r["rolls"])) for r in rs]
    out[("outcomes", "taken-out events per campaign")] = [float(len(r["taken_out"])) for r in rs]
    keys = sorted({k for r in rs for k in final_values(r)})
    for key in keys:
        out[("tracks", f"{key} at the end")] = [final_values(r).get(key, 0.0) for r in rs]
    gm = sorted({m for r in rs for m in r["gm_moves"]})
    for move in gm:
        out[("gm", f"GM move {move} per campaign")] = [float(r["gm_moves"].get(move, 0))
                                                      for r in rs]
    fights = [f for r in rs for f in r["fights"]]
    if fights:
        out[("fights", "rounds per fight")] = [float(f["rounds"]) for f in fights]
    return out


def compare(a: Sequence[CampaignResult], b: Sequence[CampaignResult], label_a: str = "A",
            label_b: str = "B") -> dict[str, Any]:
    """The differences B - A of every number two runs share, significant ones first."""
    ra = sorted((r for r in a if r["ok"]), key=lambda r: r["index"])
    rb = sorted((r for r in b if r["ok"]), key=lambda r: r["index"])
    rows: list[dict[str, Any]] = []
    pa, pb = _proportions(ra), _proportions(rb)
    rolls_a = {move: m["rolls"] for move, m in band_table(ra).items()}
    rolls_b = {move: m["rolls"] for move, m in band_table(rb).items()}
    for key in sorted(set(pa) | set(pb)):
        move = key[1].split(": ")[0]
        k1, n1 = pa.get(key, (0, rolls_a.get(move, 0)))
        k2, n2 = pb.get(key, (0, rolls_b.get(move, 0)))
        if n1 == 0 or n2 == 0:
            continue
        d, low, high = newcombe(k1, n1, k2, n2)
        rows.append({"section": key[0], "metric": key[1], "kind": "proportion",
                     "a": k1 / n1, "b": k2 / n2, "n_a": n1, "n_b": n2, "diff": d, "low": low,
                     "high": high, "p": two_proportion_p(k1, n1, k2, n2),
                     "effect": abs(2 * math.asin(math.sqrt(k2 / n2))
                                   - 2 * math.asin(math.sqrt(k1 / n1)))})
    ma, mb = _means(ra), _means(rb)
    for key in sorted(set(ma) & set(mb)):
        xa, xb = ma[key], mb[key]
        if len(xa) < 2 or len(xb) < 2:
            continue
        d, low, high, p = welch(xa, xb)
        mean_a, var_a = mean_var(xa)
        mean_b, var_b = mean_var(xb)
        sd = math.sqrt((var_a + var_b) / 2)
        rows.append({"section": key[0], "metric": key[1], "kind": "mean", "a": mean_a,
                     "b": mean_b, "n_a": len(xa), "n_b": len(xb), "diff": d, "low": low,
                     "high": high, "p": p,
                     "effect": abs(d) / sd if sd else (0.0 if d == 0 else MAX_EFFECT)})
    reject = holm([row["p"] for row in rows])
    for row, sig in zip(rows, reject, strict=True):
        row["significant"] = sig
    rows.sort(key=lambda row: (not row["significant"], -row["effect"] if row["significant"]
                               else row["p"], row["section"], row["metric"]))
    for row in rows:
        for field in ("low", "high"):
            if math.isinf(row[field]):
                row[field] = None
    failures = {label_a: [{"index": r["index"], "seed": r["seed"], "error": r["error"]}
                          for r in a if not r["ok"]],
                label_b: [{"index": r["index"], "seed": r["seed"], "error": r["error"]}
                          for r in b if not r["ok"]]}
    return {"a": label_a, "b": label_b, "campaigns": {label_a: len(a), label_b: len(b)},
            "same_seeds": [r["seed"] for r in sorted(a, key=lambda r: r["index"])]
            == [r["seed"] for r in sorted(b, key=lambda r: r["index"])],
            "tests": len(rows), "significant": sum(1 for row in rows if row["significant"]),
            "rows": rows, "failures": failures,
            "summary_a": summarize(list(a)), "summary_b": summarize(list(b))}
