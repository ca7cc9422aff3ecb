"""Reports of duels and sweeps (``engine.lab.sweep.summarize``): a table per point (runs, A's
win rate with its 95% Wilson interval, B's wins, draws, mean rounds and turns, the endings),
where the sides are even, and with ``--out`` report.md, summary.json, points.csv, fights.csv
(one row per fight) and winrate.png (matplotlib, as the campaign report's charts)."""

from __future__ import annotations

import csv
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from engine.lab.report import _have_matplotlib, _pct, _table, bar

ENDING_WORDS = {"knocked_out": "out", "fled": "fled", "surrendered": "surr.",
                "stalemate": "stalem."}


def _point(p: dict[str, Any]) -> str:
    """A point's traits in the order they were swept (JSON sorts the keys)."""
    keys = sorted(p["point"], key=lambda k: _ORDER.get(k, 9))
    return ", ".join(f"{k}={p['point'][k]}" for k in keys) or "as given"


_ORDER: dict[str, int] = {}
"""The swept traits' order in the summary being reported (set by each report)."""


def _order(summary: dict[str, Any]) -> None:
    _ORDER.clear()
    _ORDER.update({s["label"]: i for i, s in enumerate(summary["sweep"])})


def _endings(p: dict[str, Any], short: bool = True) -> str:
    words = (lambda k: ENDING_WORDS[k]) if short else (lambda k: k.replace("_", " "))
    return (" " if short else ", ").join(f"{words(k)} {v}" for k, v in p["endings"].items()
                                         if v) or "-"


def _exact(p: dict[str, Any]) -> str:
    ex = p.get("exact")
    return "-" if not ex else f"{ex.get('A', 0.0):.1%}"


def _even(summary: dict[str, Any]) -> list[str]:
    out = []
    for e in summary["even"]:
        given = ", ".join(f"{k}={v}" for k, v in e["given"].items())
        when = f" (with {given})" if given else ""
        if e["at"] is None:
            out.append(f"never even in the range{when}: side A's win rate stays on one side of"
                       " 50%")
        else:
            out.append(f"even at {e['trait']} ≈ {e['at']:.1f}{when}")
    return out


def _head(summary: dict[str, Any]) -> list[str]:
    what = str(summary["kind"]).capitalize()
    how = "fast" if summary["path"] == "fast" else "as games"
    lines = [f"{what}: A {summary['a']} vs B {summary['b']} ({summary['system']},"
             f" {summary['policy']} policy on both sides, {summary['runs']} fights a point,"
             f" seed {summary['seed']}, played {how})"]
    for s in summary["sweep"]:
        given = f", {s['given']} as given" if s.get("given") is not None else ""
        lines.append(f"  swept {s['label']}: {s['values'][0]}..{s['values'][-1]}"
                     f" ({len(s['values'])} values{given})")
    return lines


def terminal(summary: dict[str, Any], width: int = 80) -> str:
    """The report for a terminal of ``width`` columns."""
    _order(summary)
    lines = _head(summary)
    lines.append("")
    label_w = max([len(_point(p)) for p in summary["points"]] + [8])
    bar_w = max(6, min(30, width - label_w - 64))
    exact = any(p.get("exact") for p in summary["points"])
    lines.append(f"{'point':<{label_w}}  {'runs':>5}  {'A wins':>6}  {'95% interval':<13}"
                 + (f"  {'exact':>6}" if exact else "")
                 + f"  {'B wins':>6}  {'draws':>5}  {'rounds':>6}  {'turns':>5}  endings")
    for p in summary["points"]:
        rate = p["a_rate"]
        lines.append(
            f"{_point(p):<{label_w}}  {p['runs']:>5}  {_pct(rate):>6}  "
            f"{_pct(p['a_low'])}-{_pct(p['a_high']):<6}"
            + (f"  {_exact(p):>6}" if exact else "")
            + f"  {p['b_wins']:>6}  {p['draws']:>5}  "
            f"{p['rounds']['mean']:>6.1f}  {p['turns']['mean']:>5.1f}  {_endings(p)}")
        if summary["kind"] == "sweep" and rate is not None:
            lines.append(f"{'':<{label_w}}  {bar(rate, bar_w)}|")
    if exact:
        lines.append("")
        lines.append("exact: A's chance of winning from the fast duel's Markov chain, beside"
                     " the simulated rate ('-': too large to enumerate)")
    if summary["kind"] != "sweep" and summary["points"]:
        p = summary["points"][0]
        fa, fb = p["first"]["A"], p["first"]["B"]
        wa, wb = p["a_wins_first"]["A"], p["a_wins_first"]["B"]
        lines.append("")
        lines.append(f"A acted first in {fa} fights (A won {_pct(wa / fa if fa else None)}),"
                     f" B in {fb} (A won {_pct(wb / fb if fb else None)})")
    even = _even(summary)
    if even:
        lines.append("")
        lines += even
    if summary["failed"]:
        lines.append("")
        lines.append(f"{summary['failed']} fights failed; the first: "
                     f"{summary['failures'][0]['error']}")
    return "\n".join(lines)


def _markdown(summary: dict[str, Any], chart: Path | None, note: str) -> str:
    _order(summary)
    head = _head(summary)
    lines = [f"# {head[0]}", "", *[f"- {h.strip()}" for h in head[1:]], ""]
    rows = [[_point(p), str(p["runs"]), _pct(p["a_rate"]),
             f"{_pct(p['a_low'])} - {_pct(p['a_high'])}", str(p["b_wins"]), str(p["draws"]),
             f"{p['rounds']['mean']:.1f}", f"{p['turns']['mean']:.1f}", _endings(p, False),
             _exact(p)] for p in summary["points"]]
    lines += _table(["point", "runs", "A wins", "95% interval (Wilson)", "B wins",
                     "draws/stalemates", "mean rounds", "mean turns", "endings",
                     "A wins (exact)"], rows)
    lines += [f"- {e}" for e in _even(summary)]
    if chart is not None:
        lines += ["", f"![A's win rate]({chart.name})"]
    if note:
        lines += ["", note]
    return "\n".join(lines) + "\n"


def _chart(summary: dict[str, Any], out: Path) -> Path | None:
    """A's win rate per value of the first swept trait, with its interval (one line per
    value of the second in a grid), the 50% line and the exact values."""
    if not summary["sweep"]:
        return None
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    first = summary["sweep"][0]["label"]
    series: dict[str, list[dict[str, Any]]] = {}
    for p in summary["points"]:
        rest = ", ".join(f"{k}={v}" for k, v in p["point"].items() if k != first)
        series.setdefault(rest, []).append(p)
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for label, pts in series.items():
        pts = [p for p in pts if p["a_rate"] is not None]
        xs = [p["point"][first] for p in pts]
        ys = [p["a_rate"] for p in pts]
        err = [[y - p["a_low"] for y, p in zip(ys, pts, strict=True)],
               [p["a_high"] - y for y, p in zip(ys, pts, strict=True)]]
        ax.errorbar(xs, ys, yerr=err, marker="o", capsize=3, label=label or "A wins")
        ex = [(p["point"][first], p["exact"]["A"]) for p in pts if p.get("exact")]
        if ex:
            ax.scatter([x for x, _ in ex], [y for _, y in ex], marker="x", color="black",
                       zorder=3, label="exact" if label == next(iter(series)) else None)
    for e in summary["even"]:
        if e["at"] is not None:
            ax.axvline(e["at"], color="grey", linestyle=":", linewidth=1)
    ax.axhline(0.5, color="grey", linestyle="--", linewidth=1)
    ax.set_ylim(0, 1)
    ax.set_xlabel(first)
    ax.set_ylabel("side A wins (95% interval)")
    ax.set_title(f"A {summary['a']} vs B {summary['b']}", fontsize=9)
    ax.legend(fontsize=7)
    fig.tight_layout()
    path = out / "winrate.png"
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return path


def _csv(path: Path, rows: Sequence[dict[str, Any]]) -> Path:
    keys = list(dict.fromkeys(k for r in rows for k in r))
    with path.open("w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=keys)
        w.writeheader()
        w.writerows(rows)
    return path


def _point_rows(summary: dict[str, Any]) -> list[dict[str, Any]]:
    _order(summary)
    return [{**{k: p["point"][k] for k in sorted(p["point"], key=lambda k: _ORDER.get(k, 9))},
             "runs": p["runs"], "a_wins": p["a_wins"], "a_rate": p["a_rate"],
             "a_low": p["a_low"], "a_high": p["a_high"], "b_wins": p["b_wins"],
             "draws": p["draws"], "mean_rounds": p["rounds"]["mean"],
             "mean_turns": p["turns"]["mean"], **p["endings"],
             "exact_a": (p["exact"] or {}).get("A", "")} for p in summary["points"]]


def write(summary: dict[str, Any], fights: Sequence[dict[str, Any]], out: Path,
          charts: bool = True) -> list[Path]:
    """report.md, summary.json, points.csv, fights.csv and winrate.png into ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    chart: Path | None = None
    note = ""
    if charts and summary["sweep"]:
        if _have_matplotlib():
            chart = _chart(summary, out)
        else:
            note = ("Chart skipped: matplotlib is not installed (pip install matplotlib, or the"
                    " project's lab extra).")
    report = out / "report.md"
    report.write_text(_markdown(summary, chart, note), encoding="utf-8")
    data = out / "summary.json"
    data.write_text(json.dumps(summary, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    paths = [report, data, _csv(out / "points.csv", _point_rows(summary)),
             _csv(out / "fights.csv", fights)]
    return paths + ([chart] if chart is not None else [])
