"""Statistics of a lab run: what ``summarize`` makes of many ``CampaignResult``s.

Everything is pure Python (no scipy): the chi-square survival function, Student's t, Wilson
intervals. A summary is a JSON-able dict; sums run in campaign index order, so the same results
give the same summary, byte for byte.

"Move number" in the series is the ordinal of a sample in its campaign (the sim records one
after each step it samples); "per scene" reads each campaign's last sample of that scene.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any

from engine.lab.model import CampaignResult, LabSpec

NOBODY = ("", "nobody")
"""A fight's winner or first side when there is none."""

Z95 = 1.959963984540054
"""The two-sided 95% quantile of the standard normal."""

# ---------------------------------------------------------------------------------------------
# Special functions


def _gamma_series(a: float, x: float) -> float:
    """Regularized lower incomplete gamma P(a, x) by its series (x < a + 1)."""
    term = 1.0 / a
    total = term
    ap = a
    for _ in range(10_000):
        ap += 1.0
        term *= x / ap
        total += term
        if abs(term) < abs(total) * 1e-15:
            break
    return total * math.exp(-x + a * math.log(x) - math.lgamma(a))


def _gamma_cf(a: float, x: float) -> float:
    """Regularized upper incomplete gamma Q(a, x) by Lentz's continued fraction (x >= a + 1)."""
    tiny = 1e-300
    b = x + 1.0 - a
    c = 1.0 / tiny
    d = 1.0 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2.0
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1.0 / d
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-15:
            break
    return math.exp(-x + a * math.log(x) - math.lgamma(a)) * h


def gamma_q(a: float, x: float) -> float:
    """The regularized upper incomplete gamma function Q(a, x)."""
    if a <= 0:
        raise ValueError(f"gamma_q needs a > 0, got {a}")
    if x <= 0:
        return 1.0
    if x < a + 1.0:
        return max(0.0, 1.0 - _gamma_series(a, x))
    return min(1.0, _gamma_cf(a, x))


def chi2_sf(x: float, df: int) -> float:
    """P(X >= x) for a chi-square variable with ``df`` degrees of freedom."""
    if df < 1:
        raise ValueError(f"chi2_sf needs df >= 1, got {df}")
    return gamma_q(df / 2.0, x / 2.0)


def _beta_cf(a: float, b: float, x: float) -> float:
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (tiny if abs(d) < tiny else d)
    h = d
    for m in range(1, 10_000):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (tiny if abs(d) < tiny else d)
        c = 1.0 + aa / c
        c = tiny if abs(c) < tiny else c
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (tiny if abs(d) < tiny else d)
        c = 1.0 + aa / c
        c = tiny if abs(c) < tiny else c
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-15:
            break
    return h


def beta_inc(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
                     + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _beta_cf(a, b, x) / a
    return 1.0 - front * _beta_cf(b, a, 1.0 - x) / b


def t_sf2(t: float, df: float) -> float:
    """Two-sided p-value P(|T| >= |t|) of Student's t with ``df`` degrees of freedom."""
    if math.isinf(df):
        return math.erfc(abs(t) / math.sqrt(2.0))
    return beta_inc(df / 2.0, 0.5, df / (df + t * t))


def t_quantile(p: float, df: float) -> float:
    """The ``p`` quantile (p > 0.5) of Student's t with ``df`` degrees of freedom."""
    if not 0.5 < p < 1.0:
        raise ValueError(f"t_quantile needs 0.5 < p < 1, got {p}")
    target = 2.0 * (1.0 - p)
    lo, hi = 0.0, 1.0
    while t_sf2(hi, df) > target:
        hi *= 2.0
    for _ in range(200):
        mid = (lo + hi) / 2.0
        if t_sf2(mid, df) > target:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2.0


def normal_sf2(z: float) -> float:
    """Two-sided p-value of a standard normal statistic."""
    return math.erfc(abs(z) / math.sqrt(2.0))


# ---------------------------------------------------------------------------------------------
# Intervals and tests


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion k/n (0, 1 when n is 0)."""
    if n <= 0:
        return 0.0, 1.0
    p = k / n
    denom = 1.0 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def newcombe(k1: int, n1: int, k2: int, n2: int) -> tuple[float, float, float]:
    """p2 - p1 with Newcombe's hybrid score 95% interval (method 10): (diff, low, high)."""
    p1 = k1 / n1 if n1 else 0.0
    p2 = k2 / n2 if n2 else 0.0
    l1, u1 = wilson(k1, n1)
    l2, u2 = wilson(k2, n2)
    d = p2 - p1
    low = d - math.sqrt((p2 - l2) ** 2 + (u1 - p1) ** 2)
    high = d + math.sqrt((u2 - p2) ** 2 + (p1 - l1) ** 2)
    return d, low, high


def two_proportion_p(k1: int, n1: int, k2: int, n2: int) -> float:
    """Two-sided p-value of the pooled z test of two proportions."""
    if n1 == 0 or n2 == 0:
        return 1.0
    pooled = (k1 + k2) / (n1 + n2)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    diff = k2 / n2 - k1 / n1
    if se == 0:
        return 1.0 if diff == 0 else 0.0
    return normal_sf2(diff / se)


def mean_var(xs: Sequence[float]) -> tuple[float, float]:
    """Mean and sample variance (0 with fewer than two values)."""
    n = len(xs)
    if n == 0:
        return 0.0, 0.0
    mean = math.fsum(xs) / n
    var = math.fsum((x - mean) ** 2 for x in xs) / (n - 1) if n > 1 else 0.0
    return mean, var


def welch(a: Sequence[float], b: Sequence[float]) -> tuple[float, float, float, float]:
    """mean(b) - mean(a) with Welch's 95% interval and two-sided p: (diff, low, high, p)."""
    ma, va = mean_var(a)
    mb, vb = mean_var(b)
    d = mb - ma
    na, nb = len(a), len(b)
    if na < 2 or nb < 2:
        return d, -math.inf, math.inf, 1.0
    sa, sb = va / na, vb / nb
    se2 = sa + sb
    if se2 == 0:
        return d, d, d, 1.0 if d == 0 else 0.0
    df = se2 * se2 / (sa * sa / (na - 1) + sb * sb / (nb - 1))
    se = math.sqrt(se2)
    q = t_quantile(0.975, df)
    return d, d - q * se, d + q * se, t_sf2(d / se, df)


def mean_interval(xs: Sequence[float]) -> dict[str, float]:
    """n, mean, sd and the t-based 95% interval of a mean."""
    n = len(xs)
    mean, var = mean_var(xs)
    sd = math.sqrt(var)
    if n < 2:
        return {"n": n, "mean": mean, "sd": sd, "low": mean, "high": mean}
    half = t_quantile(0.975, n - 1) * sd / math.sqrt(n)
    return {"n": n, "mean": mean, "sd": sd, "low": mean - half, "high": mean + half}


def holm(pvalues: Sequence[float], alpha: float = 0.05) -> list[bool]:
    """Which hypotheses Holm's step-down procedure rejects at family-wise level ``alpha``."""
    order = sorted(range(len(pvalues)), key=lambda i: (pvalues[i], i))
    m = len(pvalues)
    reject = [False] * m
    for rank, i in enumerate(order):
        if pvalues[i] <= alpha / (m - rank):
            reject[i] = True
        else:
            break
    return reject


def chi_square(observed: Sequence[float], expected: Sequence[float]) -> dict[str, Any]:
    """Pearson's goodness of fit over the cells with a positive expected count.

    An observed count in a cell the odds call impossible makes p 0."""
    stat = 0.0
    cells = 0
    impossible = False
    small = False
    for o, e in zip(observed, expected, strict=True):
        if e <= 1e-12:
            impossible = impossible or o > 0
            continue
        cells += 1
        small = small or e < 5
        stat += (o - e) ** 2 / e
    df = cells - 1
    if impossible:
        p = 0.0
    elif df < 1:
        p = 1.0
    else:
        p = chi2_sf(stat, df)
    return {"chi2": stat, "df": max(df, 0), "p": p, "small_expected": small}


def _proportion(k: int, n: int) -> dict[str, float]:
    low, high = wilson(k, n)
    return {"count": k, "n": n, "rate": k / n if n else 0.0, "low": low, "high": high}


def _median(xs: Sequence[float]) -> float:
    s = sorted(xs)
    if not s:
        return 0.0
    mid = len(s) // 2
    return float(s[mid]) if len(s) % 2 else (s[mid - 1] + s[mid]) / 2.0


# ---------------------------------------------------------------------------------------------
# Per-campaign extraction (shared with compare)


def band_table(results: Iterable[CampaignResult]) -> dict[str, dict[str, Any]]:
    """Per move: rolls, observed counts and summed exact odds per band (index order)."""
    moves: dict[str, dict[str, Any]] = {}
    for r in results:
        for roll in r["rolls"]:
            m = moves.setdefault(roll["move"], {"rolls": 0, "observed": {}, "expected": {},
                                                "bands": []})
            m["rolls"] += 1
            for band, odd in roll["odds"].items():
                if band not in m["expected"]:
                    m["expected"][band] = 0.0
                    m["bands"].append(band)
                m["expected"][band] += float(odd)
            if roll["band"] not in m["expected"]:
                m["expected"][roll["band"]] = 0.0
                m["bands"].append(roll["band"])
            m["observed"][roll["band"]] = m["observed"].get(roll["band"], 0) + 1
    return moves


def final_values(r: CampaignResult) -> dict[str, float]:
    """The tracked values at a campaign's last sample."""
    return dict(r["samples"][-1]["values"]) if r["samples"] else {}


def campaign_doomed(r: CampaignResult) -> bool:
    """Whether any threat clock of the campaign reached doom."""
    return any(t["doom_step"] is not None or (t["size"] > 0 and t["clock"] >= t["size"])
               for t in r["threats"])


# ---------------------------------------------------------------------------------------------
# The summary


def _moves_section(ok: list[CampaignResult]) -> list[dict[str, Any]]:
    out = []
    table = band_table(ok)
    for move in sorted(table):
        m = table[move]
        n = m["rolls"]
        bands = []
        for band in m["bands"]:
            k = m["observed"].get(band, 0)
            low, high = wilson(k, n)
            bands.append({"band": band, "count": k, "observed": k / n, "low": low, "high": high,
                          "expected": m["expected"][band] / n})
        test = chi_square([b["count"] for b in bands], [m["expected"][b["band"]] for b in bands])
        out.append({"move": move, "rolls": n, "bands": bands, **test})
    return out


def _series(ok: list[CampaignResult]) -> dict[str, Any]:
    by_move: dict[str, dict[int, list[float]]] = {}
    by_scene: dict[str, dict[int, list[float]]] = {}
    for r in ok:
        last_in_scene: dict[int, dict[str, float]] = {}
        for i, sample in enumerate(r["samples"], start=1):
            for key, value in sample["values"].items():
                by_move.setdefault(key, {}).setdefault(i, []).append(float(value))
            last_in_scene[sample["scene"]] = dict(sample["values"])
        for scene in sorted(last_in_scene):
            for key, value in last_in_scene[scene].items():
                by_scene.setdefault(key, {}).setdefault(scene, []).append(float(value))

    def pack(data: dict[str, dict[int, list[float]]], label: str) -> dict[str, list[Any]]:
        return {key: [{label: x, **mean_interval(data[key][x])} for x in sorted(data[key])]
                for key in sorted(data)}

    final: dict[str, list[float]] = {}
    for r in ok:
        for key, value in final_values(r).items():
            final.setdefault(key, []).append(float(value))
    return {"by_move": pack(by_move, "move"), "by_scene": pack(by_scene, "scene"),
            "final": {key: mean_interval(final[key]) for key in sorted(final)}}


def _taken_out(ok: list[CampaignResult]) -> dict[str, Any]:
    n = len(ok)
    hit = [r for r in ok if r["taken_out"]]
    scenes: dict[str, int] = {}
    steps: list[float] = []
    who: dict[str, int] = {}
    for r in hit:
        first = r["taken_out"][0]
        scene = first.get("scene")
        scenes[str(scene)] = scenes.get(str(scene), 0) + 1
        if isinstance(first.get("step"), int | float):
            steps.append(float(first["step"]))
        for event in r["taken_out"]:
            name = str(event.get("actor") or event.get("who") or event.get("name") or "hero")
            who[name] = who.get(name, 0) + 1
    return {**_proportion(len(hit), n), "events": sum(len(r["taken_out"]) for r in ok),
            "first_by_scene": dict(sorted(scenes.items())),
            "first_step": mean_interval(steps) | {"median": _median(steps)},
            "by_actor": dict(sorted(who.items()))}


def _threats(ok: list[CampaignResult]) -> dict[str, Any]:
    doomed = [r for r in ok if campaign_doomed(r)]
    per: dict[str, dict[str, Any]] = {}
    for r in ok:
        for t in r["threats"]:
            d = per.setdefault(t["id"], {"name": t["name"], "seen": 0, "doomed": 0,
                                         "clock": [], "size": t["size"], "doom_step": []})
            d["seen"] += 1
            d["clock"].append(float(t["clock"]))
            if t["doom_step"] is not None:
                d["doomed"] += 1
                d["doom_step"].append(float(t["doom_step"]))
    threats = []
    for tid in sorted(per):
        d = per[tid]
        threats.append({"id": tid, "name": d["name"], "size": d["size"],
                        **_proportion(d["doomed"], d["seen"]),
                        "clock": mean_interval(d["clock"]),
                        "doom_step": mean_interval(d["doom_step"])
                        | {"median": _median(d["doom_step"])}})
    return {**_proportion(len(doomed), len(ok)), "threats": threats}


def _gm_moves(ok: list[CampaignResult]) -> list[dict[str, Any]]:
    totals: dict[str, list[float]] = {}
    for i, r in enumerate(ok):
        for move, count in r["gm_moves"].items():
            totals.setdefault(move, [0.0] * len(ok))[i] = float(count)
    grand = sum(sum(v) for v in totals.values())
    rows = [{"move": m, "count": int(sum(v)), "share": sum(v) / grand if grand else 0.0,
             "per_campaign": mean_interval(v)} for m, v in totals.items()]
    return sorted(rows, key=lambda row: (-row["count"], row["move"]))


def _gm_fit(ok: list[CampaignResult]) -> dict[str, Any]:
    """How GM moves fit what failed, and how often a line came back within 40 GM moves."""
    def total(key: str) -> int:
        return sum(r.get("gm_fit", {}).get(key, 0) for r in ok)

    after, made = total("after_roll"), total("made")
    return {"made": made, "after_roll": after, "fits": _proportion(total("fits"), after),
            "repeats": total("repeats"),
            "campaigns_with_a_repeat": _proportion(
                sum(1 for r in ok if r.get("gm_fit", {}).get("repeats", 0)), len(ok)),
            "scenes": total("scenes"),
            "returns": _proportion(total("returns"), total("scenes")),
            "returns_near": _proportion(total("returns_near"), total("scenes"))}


def _fights(ok: list[CampaignResult]) -> dict[str, Any]:
    fights = [f for r in ok for f in r["fights"]]
    n = len(fights)
    if not n:
        return {"count": 0}
    fought = [r for r in ok if r["fights"]]
    lost = sum(1 for r in fought if any(f["winner"] != "heroes" for f in r["fights"]))
    rounds = [float(f["rounds"]) for f in fights]
    dist: dict[str, int] = {}
    for f in fights:
        dist[str(f["rounds"])] = dist.get(str(f["rounds"]), 0) + 1
    winners: dict[str, int] = {}
    for f in fights:
        winners[f["winner"]] = winners.get(f["winner"], 0) + 1
    decided = [f for f in fights if f["winner"] not in NOBODY and f["first"] not in NOBODY]
    first_wins = sum(1 for f in decided if f["winner"] == f["first"])
    by_first: dict[str, dict[str, Any]] = {}
    for side in sorted({f["first"] for f in fights}):
        group = [f for f in fights if f["first"] == side]
        wins: dict[str, int] = {}
        for f in group:
            wins[f["winner"]] = wins.get(f["winner"], 0) + 1
        by_first[side] = {w: _proportion(k, len(group)) for w, k in sorted(wins.items())}
    endings: dict[str, int] = {}
    for f in fights:
        e = str(f.get("ending", "")) or "other"
        endings[e] = endings.get(e, 0) + 1
    turns = [float(f["turns"]) for f in fights if "turns" in f]
    return {"count": n, "rounds": mean_interval(rounds) | {"median": _median(rounds),
                                                           "min": min(rounds),
                                                           "max": max(rounds)},
            "rounds_distribution": dict(sorted(dist.items(), key=lambda kv: int(kv[0]))),
            "steps": mean_interval([float(f["steps"]) for f in fights]),
            "turns": mean_interval(turns),
            "endings": {e: _proportion(k, n) for e, k in sorted(endings.items())},
            "no_rounds": _proportion(sum(1 for f in fights if f["rounds"] == 0), n),
            "wins": {w: _proportion(k, n) for w, k in sorted(winners.items())},
            "first_mover_wins": _proportion(first_wins, len(decided)),
            "campaigns_with_a_fight_not_won": _proportion(lost, len(fought)),
            "by_first": by_first}


def _headline(summary: dict[str, Any]) -> list[str]:
    lines = []
    t = summary["taken_out"]
    f = summary["fights"]
    if f["count"] and not t["events"]:
        c = f["campaigns_with_a_fight_not_won"]
        lines.append(f"The heroes failed to win at least one fight in {c['rate']:.0%} of "
                     f"campaigns (95% CI {c['low']:.0%}-{c['high']:.0%}).")
    elif summary["ok"]:
        lines.append(f"Taken out / incapacitated in {t['rate']:.0%} of campaigns "
                     f"(95% CI {t['low']:.0%}-{t['high']:.0%}).")
    th = summary["threats"]
    if th["threats"]:
        lines.append(f"A threat clock reached doom in {th['rate']:.0%} of campaigns "
                     f"(95% CI {th['low']:.0%}-{th['high']:.0%}).")
    if f["count"]:
        wins = ", ".join(f"{w or 'nobody'} {p['rate']:.0%}" for w, p in f["wins"].items())
        ends = ", ".join(f"{e.replace('_', ' ')} {p['rate']:.0%}"
                         for e, p in f.get("endings", {}).items())
        lines.append(f"{f['count']} fights: {f['rounds']['mean']:.1f} rounds on average "
                     f"(median {f['rounds']['median']:g}); wins: {wins}; the side acting first "
                     f"won {f['first_mover_wins']['rate']:.0%} of decided fights.")
        if ends:
            lines.append(f"Fights ended: {ends}; {f['turns']['mean']:.1f} turns on average.")
        if f["no_rounds"]["count"]:
            lines.append(f"{f['no_rounds']['rate']:.0%} of fights ended before a round was "
                         "played (0 rounds).")
    moves = summary["moves"]
    if moves:
        busiest = max(moves, key=lambda m: (m["rolls"], m["move"]))
        best = max(busiest["bands"], key=lambda b: b["observed"])
        lines.append(f"Most rolled: {busiest['move']} ({busiest['rolls']} rolls, "
                     f"{best['observed']:.0%} {best['band']}).")
        off = [m for m in moves if m["p"] < 0.001 and m["rolls"] >= 30]
        if off:
            lines.append("Observed bands disagree with the exact odds (p < 0.001): "
                         + ", ".join(m["move"] for m in off) + ".")
        else:
            lines.append("Observed band frequencies agree with the exact odds "
                         "(no move with chi-square p < 0.001).")
    if summary["gm_moves"]:
        top = summary["gm_moves"][0]
        lines.append(f"Most frequent GM move: {top['move']} ({top['share']:.0%} of GM moves).")
    g = summary.get("gm_fit") or {}
    if g.get("after_roll"):
        lines.append(f"GM moves fitting the kind of move that missed: {g['fits']['rate']:.0%} of "
                     f"{g['after_roll']}; GM lines repeated within 40 GM moves: {g['repeats']}.")
    if g.get("scenes"):
        lines.append(f"Scenes framed at a place of an earlier scene: {g['returns']['rate']:.1%}"
                     f" of {g['scenes']} (within five scenes:"
                     f" {g['returns_near']['rate']:.1%}).")
    if summary["failures"]:
        lines.append(f"{len(summary['failures'])} campaign(s) failed; see Failures.")
    return lines


def spec_dict(spec: LabSpec | None, results: Sequence[CampaignResult]) -> dict[str, Any]:
    """The spec as JSON (or what the results say when there is none)."""
    if spec is None:
        first = results[0] if results else None
        return {"system": first["system"] if first else "", "policy": first["policy"]
                if first else "", "runs": len(results)}
    return {"system": spec.system, "policy": spec.policy, "runs": spec.runs, "seed": spec.seed,
            "scenes": spec.scenes, "moves": spec.moves, "party": spec.party,
            "foes": list(spec.foes), "max_steps": spec.max_steps}


def summarize(results: Sequence[CampaignResult], spec: LabSpec | None = None) -> dict[str, Any]:
    """The statistics of a run (JSON-able; deterministic: campaigns read in index order)."""
    ordered = sorted(results, key=lambda r: r["index"])
    ok = [r for r in ordered if r["ok"]]
    failures = [{"index": r["index"], "seed": r["seed"], "error": r["error"]}
                for r in ordered if not r["ok"]]
    summary: dict[str, Any] = {
        "spec": spec_dict(spec, ordered),
        "system": spec.system if spec else (ordered[0]["system"] if ordered else ""),
        "policy": ordered[0]["policy"] if ordered else (spec.policy if spec else ""),
        "campaigns": len(ordered), "ok": len(ok), "failures": failures,
        "totals": {"steps": sum(r["steps"] for r in ok), "moves": sum(r["moves"] for r in ok),
                   "scenes": sum(r["scenes"] for r in ok),
                   "rolls": sum(len(r["rolls"]) for r in ok)},
        "moves": _moves_section(ok),
        "series": _series(ok),
        "taken_out": _taken_out(ok),
        "threats": _threats(ok),
        "gm_moves": _gm_moves(ok),
        "gm_fit": _gm_fit(ok),
        "fights": _fights(ok),
    }
    summary["headline"] = _headline(summary)
    return summary
