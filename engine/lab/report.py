"""Lab reports: Markdown with PNG charts (matplotlib, Agg, when installed), summary.json and
CSVs for notebooks, and terminal reports (unicode bars and sparklines within ``width``)."""

from __future__ import annotations

import csv
import json
import textwrap
from pathlib import Path
from typing import Any

BLOCKS = "▁▂▃▄▅▆▇█"
BAR = "█"


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{x:.1%}"


def _num(x: float | None) -> str:
    return "-" if x is None else f"{x:.3g}" if abs(x) < 1000 else f"{x:,.0f}"


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    out = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    out += ["| " + " | ".join(row) + " |" for row in rows]
    return [*out, ""]


def sparkline(values: list[float]) -> str:
    """One block character per value, scaled between the values' min and max."""
    if not values:
        return ""
    lo, hi = min(values), max(values)
    if hi == lo:
        return BLOCKS[0] * len(values)
    return "".join(BLOCKS[min(7, int((v - lo) / (hi - lo) * 8))] for v in values)


def bar(fraction: float, width: int) -> str:
    """A horizontal bar of ``fraction`` (0-1) of ``width`` cells, with eighth-cell precision."""
    fraction = min(max(fraction, 0.0), 1.0)
    eighths = round(fraction * width * 8)
    full, rest = divmod(eighths, 8)
    partial = " ▏▎▍▌▋▊▉"[rest] if rest else ""
    return (BAR * full + partial).ljust(width)[:width]


def _by_rounds(dist: dict[str, int]) -> list[tuple[int, int]]:
    """A rounds distribution in order of rounds (JSON keys are strings: "10" < "2")."""
    return sorted((int(k), v) for k, v in dist.items())


def _solid(points: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The points of a series with enough campaigns behind them (a quarter of the most)."""
    if not points:
        return points
    floor = max(3, max(p["n"] for p in points) // 4)
    return [p for p in points if p["n"] >= floor]


def _downsample(values: list[float], n: int) -> list[float]:
    if len(values) <= n:
        return values
    step = len(values) / n
    return [values[int(i * step)] for i in range(n)]


# ---------------------------------------------------------------------------------------------
# Charts


def _charts(summary: dict[str, Any], out: Path) -> list[Path]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    paths: list[Path] = []
    moves = summary["moves"]
    if moves:
        fig, ax = plt.subplots(figsize=(9, 0.5 + 0.45 * len(moves) * 2))
        labels: list[str] = []
        y = 0.0
        bands = sorted({b["band"] for m in moves for b in m["bands"]})
        colours = plt.get_cmap("tab10")
        for m in moves:
            for kind in ("expected", "observed"):
                left = 0.0
                for b in m["bands"]:
                    w = b[kind]
                    ax.barh(y, w, left=left, color=colours(bands.index(b["band"]) % 10),
                            label=b["band"] if b["band"] not in labels else None)
                    if b["band"] not in labels:
                        labels.append(b["band"])
                    left += w
                y += 1
            y += 0.5
        ticks = []
        pos = 0.0
        for m in moves:
            ticks += [(pos, f"{m['move']} (odds)"), (pos + 1, f"{m['move']} (seen)")]
            pos += 2.5
        ax.set_yticks([t[0] for t in ticks], [t[1] for t in ticks], fontsize=7)
        ax.invert_yaxis()
        ax.set_xlim(0, 1)
        ax.set_xlabel("share of rolls")
        ax.set_title("Bands per move: exact odds vs observed")
        ax.legend(fontsize=7, loc="lower right")
        fig.tight_layout()
        path = out / "bands.png"
        fig.savefig(path, dpi=90)
        plt.close(fig)
        paths.append(path)
    series = summary["series"]["by_move"]
    if series:
        keys = list(series)
        cols = min(3, len(keys))
        rows = (len(keys) + cols - 1) // cols
        fig, axes = plt.subplots(rows, cols, figsize=(4 * cols, 2.6 * rows), squeeze=False)
        for ax, key in zip(axes.flat, keys, strict=False):
            pts = _solid(series[key])
            xs = [p["move"] for p in pts]
            ax.plot(xs, [p["mean"] for p in pts], color="C0")
            ax.fill_between(xs, [p["low"] for p in pts], [p["high"] for p in pts],
                            color="C0", alpha=0.25)
            ax.set_title(key, fontsize=9)
            ax.set_xlabel("move", fontsize=8)
        for ax in list(axes.flat)[len(keys):]:
            ax.axis("off")
        fig.suptitle("Tracks over the campaign (mean, 95% interval; moves most campaigns reach)")
        fig.tight_layout()
        path = out / "series.png"
        fig.savefig(path, dpi=90)
        plt.close(fig)
        paths.append(path)
    fights = summary["fights"]
    if fights["count"]:
        dist = fights["rounds_distribution"]
        fig, ax = plt.subplots(figsize=(6, 3))
        ax.bar([int(k) for k in dist], list(dist.values()), color="C2")  # any order
        ax.set_xlabel("rounds")
        ax.set_ylabel("fights")
        ax.set_title("Fight length")
        fig.tight_layout()
        path = out / "fights.png"
        fig.savefig(path, dpi=90)
        plt.close(fig)
        paths.append(path)
    return paths


# ---------------------------------------------------------------------------------------------
# Files


def _csvs(summary: dict[str, Any], out: Path) -> list[Path]:
    paths = []
    path = out / "bands.csv"
    with path.open("w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["move", "band", "rolls", "count", "observed", "low", "high", "expected",
                    "chi2", "df", "p"])
        for m in summary["moves"]:
            for b in m["bands"]:
                w.writerow([m["move"], b["band"], m["rolls"], b["count"], b["observed"],
                            b["low"], b["high"], b["expected"], m["chi2"], m["df"], m["p"]])
    paths.append(path)
    path = out / "series.csv"
    with path.open("w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["by", "x", "value", "n", "mean", "sd", "low", "high"])
        for by, label in (("by_move", "move"), ("by_scene", "scene")):
            for key, pts in summary["series"][by].items():
                for p in pts:
                    w.writerow([label, p[label], key, p["n"], p["mean"], p["sd"], p["low"],
                                p["high"]])
    paths.append(path)
    path = out / "fights.csv"
    with path.open("w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["rounds", "fights"])
        for k, v in _by_rounds(summary["fights"].get("rounds_distribution", {})):
            w.writerow([k, v])
    paths.append(path)
    return paths


def _md_head(summary: dict[str, Any], chart_note: str) -> list[str]:
    """The report's title, its spec, the totals, the first look and the note on charts."""
    spec = summary["spec"]
    lines = [f"# Lab report: {summary['system']} ({summary['policy']} policy)", ""]
    order = ["system", "policy", "runs", "seed", "scenes", "moves", "party", "foes", "max_steps"]
    keys = [k for k in order if k in spec] + sorted(k for k in spec if k not in order)
    lines.append(", ".join(f"{k} {spec[k]}" for k in keys if spec[k] not in ((), [], None, "")))
    lines += ["", f"{summary['ok']} of {summary['campaigns']} campaigns played to the end; "
              f"{summary['totals']['moves']} moves, {summary['totals']['rolls']} rolls, "
              f"{summary['totals']['steps']} engine steps.", "", "## First look", ""]
    lines += [f"- {h}" for h in summary["headline"]] + [""]
    if chart_note:
        lines += [f"_{chart_note}_", ""]
    return lines


def _md_taken_out(t: dict[str, Any]) -> list[str]:
    """How often a hero was taken out, and when first."""
    lines = ["## Taken out / incapacitated", ""]
    lines += _table(["campaigns", "taken out", "rate", "95% CI", "first: mean step",
                     "first: median step"],
                    [[str(t["n"]), str(t["count"]), _pct(t["rate"]),
                      f"{_pct(t['low'])} - {_pct(t['high'])}",
                      _num(t["first_step"]["mean"]) if t["count"] else "-",
                      _num(t["first_step"]["median"]) if t["count"] else "-"]])
    if t["first_by_scene"]:
        lines += ["First time, by scene: " + ", ".join(
            f"scene {k}: {v}" for k, v in t["first_by_scene"].items()), ""]
    return lines


def _md_threats(th: dict[str, Any]) -> list[str]:
    """The threat clocks: how often one reached doom, and each threat's numbers; nothing
    without threats."""
    if not th["threats"]:
        return []
    lines = ["## Threat clocks", "",
             f"A clock reached doom in {_pct(th['rate'])} of campaigns "
             f"(95% CI {_pct(th['low'])} - {_pct(th['high'])}).", ""]
    lines += _table(["threat", "size", "campaigns", "doom rate", "95% CI", "clock at end",
                     "doom at step (median)"],
                    [[x["name"], str(x["size"]), str(x["n"]), _pct(x["rate"]),
                      f"{_pct(x['low'])} - {_pct(x['high'])}", _num(x["clock"]["mean"]),
                      _num(x["doom_step"]["median"]) if x["count"] else "-"]
                     for x in th["threats"]])
    return lines


def _md_fights(f: dict[str, Any], names: set[str]) -> list[str]:
    """The fights: their length, winners, the first mover's edge and the rounds; nothing
    without fights."""
    if not f["count"]:
        return []
    lines = ["## Fights", ""]
    if "fights.png" in names:
        lines += ["![fight length](fights.png)", ""]
    r = f["rounds"]
    lines += _table(["fights", "rounds: mean", "95% CI", "median", "min", "max"],
                    [[str(f["count"]), _num(r["mean"]), f"{_num(r['low'])} - {_num(r['high'])}",
                      _num(r["median"]), _num(r["min"]), _num(r["max"])]])
    lines += _table(["winner", "fights", "rate", "95% CI"],
                    [[w or "nobody", str(p["count"]), _pct(p["rate"]),
                      f"{_pct(p['low'])} - {_pct(p['high'])}"] for w, p in f["wins"].items()])
    fm = f["first_mover_wins"]
    lines += [f"The side acting first won {_pct(fm['rate'])} of decided fights "
              f"(95% CI {_pct(fm['low'])} - {_pct(fm['high'])}).", ""]
    rows = [[first, w or "nobody", _pct(p["rate"]), f"{_pct(p['low'])} - {_pct(p['high'])}"]
            for first, wins in f["by_first"].items() for w, p in wins.items()]
    lines += _table(["first to act", "winner", "rate", "95% CI"], rows)
    if f.get("endings"):
        lines += _table(["ending", "fights", "rate", "95% CI"],
                        [[e.replace("_", " "), str(p["count"]), _pct(p["rate"]),
                          f"{_pct(p['low'])} - {_pct(p['high'])}"]
                         for e, p in f["endings"].items()])
        lines += [f"Turns (every combatant's together): mean {_num(f['turns']['mean'])}.", ""]
    lines += ["Rounds: " + ", ".join(f"{k}: {v}" for k, v in
                                     _by_rounds(f["rounds_distribution"])), ""]
    return lines


def _md_bands(moves: list[dict[str, Any]], names: set[str]) -> list[str]:
    """Each move's bands: observed against expected, with the chi-square p."""
    lines = ["## Bands per move", "", "Observed share of each band with its 95% Wilson "
             "interval, the exact odds (mean over the rolls), and a chi-square goodness of fit "
             "(a small p says the dice disagree with the odds). Bands never seen and all but "
             "impossible are left out.", ""]
    if "bands.png" in names:
        lines += ["![bands](bands.png)", ""]
    rows = []
    for m in moves:
        shown = [b for b in m["bands"] if b["count"] or b["expected"] >= 0.0005] or m["bands"]
        for i, b in enumerate(shown):
            rows.append([m["move"] if i == 0 else "", str(m["rolls"]) if i == 0 else "",
                         b["band"], _pct(b["observed"]), f"{_pct(b['low'])} - {_pct(b['high'])}",
                         _pct(b["expected"]),
                         (f"{m['p']:.3g}" + (" (small counts)" if m["small_expected"] else ""))
                         if i == 0 else ""])
    lines += _table(["move", "rolls", "band", "observed", "95% CI", "expected", "chi-square p"],
                    rows)
    return lines


def _md_series(series: dict[str, Any], names: set[str]) -> list[str]:
    """The tracks and conditions at the end, over the moves and at each scene's end; nothing
    when none was sampled."""
    if not series["final"]:
        return []
    lines = ["## Tracks and conditions", ""]
    if "series.png" in names:
        lines += ["![tracks](series.png)", ""]
    lines += _table(["value", "at the end: mean", "95% CI", "over the moves"],
                    [[k, _num(v["mean"]), f"{_num(v['low'])} - {_num(v['high'])}",
                      sparkline(_downsample([p["mean"] for p in
                                             _solid(series["by_move"][k])], 40))]
                     for k, v in series["final"].items()])
    scenes = series["by_scene"]
    if scenes:
        nums = sorted({p["scene"] for pts in scenes.values() for p in pts})
        lines += ["End of each scene (mean):", ""]
        lines += _table(["value", *[f"scene {s}" for s in nums]],
                        [[k, *[_num(next((p["mean"] for p in pts if p["scene"] == s), None))
                               for s in nums]] for k, pts in scenes.items()])
    return lines


def _md_gm_moves(gm_moves: list[dict[str, Any]]) -> list[str]:
    """The GM moves made, each with its count and share; nothing when none was."""
    if not gm_moves:
        return []
    lines = ["## GM moves", ""]
    lines += _table(["GM move", "count", "share", "per campaign"],
                    [[g["move"], str(g["count"]), _pct(g["share"]),
                      _num(g["per_campaign"]["mean"])] for g in gm_moves])
    return lines


def _md_gm_fit(g: dict[str, Any] | None) -> list[str]:
    """How the GM's moves fit the kind of action that failed, and its repeated lines."""
    if not g or not g.get("made"):
        return []
    fits = g["fits"]
    rows = [["GM moves made", str(g["made"]), ""],
            ["after a roll that went less than well", str(g["after_roll"]), ""],
            ["... fitting the kind of move that missed", str(fits["count"]),
             f"{_pct(fits['rate'])} (95% CI {_pct(fits['low'])}-{_pct(fits['high'])})"],
            ["GM lines repeated within 40 GM moves", str(g["repeats"]),
             f"{_pct(g['campaigns_with_a_repeat']['rate'])} of campaigns"]]
    if g.get("scenes"):
        rows += [["scenes with a place", str(g["scenes"]), ""],
                 ["... at the place of an earlier scene", str(g["returns"]["count"]),
                  _pct(g["returns"]["rate"])],
                 ["... of one of the last five scenes", str(g["returns_near"]["count"]),
                  _pct(g["returns_near"]["rate"])]]
    return ["## GM fit and variety", "", *_table(["", "count", "share"], rows)]


def _md_failures(failures: list[dict[str, Any]]) -> list[str]:
    """The campaigns that failed (or "None."), and the files beside the report."""
    lines = ["## Failures", ""]
    if failures:
        lines += _table(["index", "seed", "error"],
                        [[str(x["index"]), str(x["seed"]), x["error"].replace("|", "\\|")
                          .replace("\n", " ")] for x in failures])
    else:
        lines += ["None.", ""]
    lines += ["Files: summary.json (everything above), bands.csv, series.csv, fights.csv.", ""]
    return lines


def _markdown(summary: dict[str, Any], charts: list[Path], chart_note: str) -> str:
    """The report as Markdown: the charts named in ``charts`` shown in their sections."""
    names = {p.name for p in charts}
    lines = _md_head(summary, chart_note)
    lines += _md_taken_out(summary["taken_out"])
    lines += _md_threats(summary["threats"])
    lines += _md_fights(summary["fights"], names)
    lines += _md_bands(summary["moves"], names)
    lines += _md_series(summary["series"], names)
    lines += _md_gm_moves(summary["gm_moves"])
    lines += _md_gm_fit(summary.get("gm_fit"))
    lines += _md_failures(summary["failures"])
    return "\n".join(lines)


def _have_matplotlib() -> bool:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def write(summary: dict[str, Any], out: Path, charts: bool = True) -> list[Path]:
    """Write report.md, summary.json, CSVs and (with matplotlib) PNG charts into ``out``."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    paths: list[Path] = []
    note = ""
    pngs: list[Path] = []
    if charts and _have_matplotlib():
        pngs = _charts(summary, out)
    elif charts:
        note = ("Charts skipped: matplotlib is not installed "
                "(pip install matplotlib, or the project's lab extra).")
    report = out / "report.md"
    report.write_text(_markdown(summary, pngs, note), encoding="utf-8")
    paths.append(report)
    paths += pngs
    data = out / "summary.json"
    data.write_text(json.dumps(summary, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    paths.append(data)
    paths += _csvs(summary, out)
    return paths


# ---------------------------------------------------------------------------------------------
# Terminal


def _wrap(text: str, width: int, indent: str = "") -> list[str]:
    return textwrap.wrap(text, width=width, initial_indent=indent,
                         subsequent_indent=" " * len(indent) + "  ") or [""]


def _clip(s: str, n: int) -> str:
    return s if len(s) <= n else s[: max(n - 1, 0)] + "…"


def _binned(dist: dict[str, int], bins: int = 10) -> list[tuple[str, int, int]]:
    """(label, count, largest count) of a rounds distribution, in at most ``bins`` rows."""
    items = sorted((int(k), v) for k, v in dist.items())
    lo, hi = items[0][0], items[-1][0]
    if len(items) <= bins:
        rows = [(str(k), v) for k, v in items]
    else:
        size = -(-(hi - lo + 1) // bins)
        grouped: dict[int, int] = {}
        for k, v in items:
            start = lo + (k - lo) // size * size
            grouped[start] = grouped.get(start, 0) + v
        rows = [(f"{s}-{s + size - 1}", v) for s, v in sorted(grouped.items())]
    most = max(v for _, v in rows)
    return [(label, v, most) for label, v in rows]


def terminal(summary: dict[str, Any], width: int = 80) -> str:
    """The report for a terminal: headline, band bars, track sparklines, fights, failures."""
    width = max(width, 40)
    lines = _wrap(f"Lab: {summary['system']}, {summary['policy']} policy, {summary['ok']}/"
                  f"{summary['campaigns']} campaigns, {summary['totals']['rolls']} rolls",
                  width)
    lines.append("─" * width)
    for h in summary["headline"]:
        lines += _wrap(h, width, "• ")
    if summary["moves"]:
        lines += ["", "Bands per move (observed, ◆ = exact odds)"]
        label_w = min(22, width // 4)
        bar_w = width - label_w - 20
        for m in summary["moves"]:
            lines.append(_clip(f"{m['move']} ({m['rolls']} rolls, p={m['p']:.2g})", width))
            for b in m["bands"]:
                if not b["count"] and b["expected"] < 0.0005:
                    continue
                cells = list(bar(b["observed"], bar_w))
                mark = min(bar_w - 1, int(b["expected"] * bar_w))
                cells[mark] = "◆"
                lines.append(f"  {_clip(b['band'], label_w - 2):<{label_w - 2}} "
                             f"{''.join(cells)} {b['observed']:6.1%} {b['expected']:6.1%}"[:width])
    final = summary["series"]["final"]
    if final:
        lines += ["", "Tracks over the moves (mean)"]
        label_w = min(18, width // 4)
        spark_w = width - label_w - 16
        for key, v in final.items():
            pts = [p["mean"] for p in _solid(summary["series"]["by_move"].get(key, []))]
            spark = sparkline(_downsample(pts, spark_w))
            lines.append(f"{_clip(key, label_w):<{label_w}} {spark:<{spark_w}} "
                         f"end {_num(v['mean']):>6}"[:width])
    f = summary["fights"]
    if f["count"]:
        lines += ["", f"Fights: {f['count']}, rounds mean {f['rounds']['mean']:.1f}, "
                  f"median {f['rounds']['median']:g}"[:width]]
        for label, v, most in _binned(f["rounds_distribution"]):
            lines.append(f"  {label:>7} rounds {bar(v / most, width - 26)} {v:>5}"[:width])
        for w, p in f["wins"].items():
            lines.append(f"  won by {_clip(w or 'nobody', 12):<12} {bar(p['rate'], width - 32)}"
                         f" {p['rate']:6.1%}"[:width])
        for e, p in f.get("endings", {}).items():
            lines.append(f"  ended: {_clip(e.replace('_', ' '), 12):<12}"
                         f" {bar(p['rate'], width - 32)} {p['rate']:6.1%}"[:width])
    if summary["gm_moves"]:
        lines += ["", "GM moves"]
        top = summary["gm_moves"][:8]
        for g in top:
            lines.append(f"  {_clip(g['move'], 24):<24} {bar(g['share'], width - 36)} "
                         f"{g['share']:6.1%}"[:width])
    if summary["failures"]:
        lines += ["", f"Failures ({len(summary['failures'])})"]
        for x in summary["failures"][:10]:
            lines += _wrap(f"#{x['index']} seed {x['seed']}: {x['error']}", width, "  ")
    return "\n".join(line.rstrip() for line in lines)


def write_compare(diff: dict[str, Any], out: Path) -> list[Path]:
    """Write compare.md, compare.json and compare.csv of an A/B into ``out``."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    a, b = diff["a"], diff["b"]
    lines = [f"# A/B: {a} vs {b}", "",
             f"{diff['campaigns'][a]} vs {diff['campaigns'][b]} campaigns"
             + (" on the same seeds" if diff["same_seeds"] else " (different seeds!)") + ". "
             f"{diff['significant']} of {diff['tests']} numbers changed significantly "
             "(95% intervals of B - A; Holm-corrected over all numbers).", ""]
    rows = [[("**yes**" if r["significant"] else "no"), r["section"], r["metric"],
             (_pct if r["kind"] == "proportion" else _num)(r["a"]),
             (_pct if r["kind"] == "proportion" else _num)(r["b"]),
             (_pct if r["kind"] == "proportion" else _num)(r["diff"]),
             f"{(_pct if r['kind'] == 'proportion' else _num)(r['low'])} - "
             f"{(_pct if r['kind'] == 'proportion' else _num)(r['high'])}", f"{r['p']:.3g}"]
            for r in diff["rows"]]
    lines += _table(["significant", "section", "number", a, b, "B - A", "95% CI", "p"], rows)
    for label, fails in diff["failures"].items():
        if fails:
            lines += [f"Failures in {label}: " + ", ".join(
                f"#{x['index']} (seed {x['seed']})" for x in fails), ""]
    md = out / "compare.md"
    md.write_text("\n".join(lines), encoding="utf-8")
    js = out / "compare.json"
    js.write_text(json.dumps(diff, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    cs = out / "compare.csv"
    with cs.open("w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["section", "metric", "kind", "a", "b", "diff", "low", "high", "p",
                    "significant"])
        for r in diff["rows"]:
            w.writerow([r["section"], r["metric"], r["kind"], r["a"], r["b"], r["diff"],
                        r["low"], r["high"], r["p"], r["significant"]])
    return [md, js, cs]


def terminal_compare(diff: dict[str, Any], width: int = 80) -> str:
    """The A/B for a terminal: the significant changes first, each with its interval."""
    width = max(width, 40)
    a, b = diff["a"], diff["b"]
    lines = _wrap(f"A/B: {a} vs {b}: {diff['significant']} of {diff['tests']} numbers changed "
                  "significantly (Holm, 95%)", width)
    lines.append("─" * width)
    shown = [r for r in diff["rows"] if r["significant"]] or diff["rows"][:5]
    if not diff["significant"]:
        lines.append("No significant difference. Closest calls:")
    for r in shown[:20]:
        fmt = _pct if r["kind"] == "proportion" else _num
        lines.append(_clip(f"{'*' if r['significant'] else ' '} {r['metric']}", width))
        lines.append(f"    {fmt(r['a'])} → {fmt(r['b'])}  ({fmt(r['diff'])}, "
                     f"CI {fmt(r['low'])} .. {fmt(r['high'])}, p={r['p']:.2g})"[:width])
    return "\n".join(line.rstrip() for line in lines)
