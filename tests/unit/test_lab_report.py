"""Lab reports: files written (Markdown, JSON, CSV, PNG or a note when matplotlib is missing),
terminal reports within 80 columns, the A/B report, and one real small run end to end."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from engine.lab import report
from engine.lab.compare import compare
from engine.lab.model import LabSpec
from engine.lab.stats import summarize
from tests.unit.test_lab_stats import run

SPEC = LabSpec(system="masks", runs=40, seed=9, scenes=2, moves=6)


def _width_ok(text: str, width: int) -> None:
    for line in text.splitlines():
        assert len(line) <= width, repr(line)


def test_write_files(tmp_path: Path) -> None:
    results = run(SPEC)
    results[3]["ok"] = False
    results[3]["error"] = "EngineError: a | broken\nmove"
    summary = summarize(results, SPEC)
    paths = report.write(summary, tmp_path / "out")
    names = {p.name for p in paths}
    assert {"report.md", "summary.json", "bands.csv", "series.csv", "fights.csv"} <= names
    assert all(p.exists() for p in paths)
    md = (tmp_path / "out" / "report.md").read_text()
    assert md.index("## First look") < md.index("## Bands per move")
    assert "| defend |" in md and "chi-square p" in md
    assert f"| 3 | {results[3]['seed']} | EngineError: a \\| broken move |" in md
    assert json.loads((tmp_path / "out" / "summary.json").read_text()) == json.loads(
        json.dumps(summary))
    rows = list(csv.DictReader((tmp_path / "out" / "bands.csv").open()))
    assert {r["move"] for r in rows} == {"defend", "directly_engage", "unleash_powers"}
    assert sum(int(r["count"]) for r in rows) == summary["totals"]["rolls"]
    series = list(csv.DictReader((tmp_path / "out" / "series.csv").open()))
    assert {r["value"] for r in series} == {"conditions", "potential"}
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        assert "matplotlib is not installed" in md
    else:
        pngs = sorted(p.name for p in paths if p.suffix == ".png")
        assert pngs == ["bands.png", "fights.png", "series.png"]
        assert all((tmp_path / "out" / n).read_bytes()[:4] == b"\x89PNG" for n in pngs)
        assert "![bands](bands.png)" in md


def test_write_without_matplotlib(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(report, "_have_matplotlib", lambda: False)
    paths = report.write(summarize(run(SPEC), SPEC), tmp_path)
    assert not [p for p in paths if p.suffix == ".png"]
    assert "Charts skipped: matplotlib is not installed" in (tmp_path / "report.md").read_text()
    report.write(summarize(run(SPEC), SPEC), tmp_path / "plain", charts=False)
    assert "Charts skipped" not in (tmp_path / "plain" / "report.md").read_text()


def test_terminal_fits_80_columns() -> None:
    results = run(SPEC)
    results[0]["ok"] = False
    results[0]["error"] = "a very long error " * 20
    summary = summarize(results, SPEC)
    text = report.terminal(summary)
    _width_ok(text, 80)
    assert "Bands per move" in text and "Fights: " in text and "Failures (1)" in text
    assert any(c in text for c in report.BLOCKS)
    _width_ok(report.terminal(summary, width=50), 50)


def test_bars_and_sparklines() -> None:
    assert report.sparkline([0, 1, 2, 3]) == "▁▃▆█"
    assert report.sparkline([2, 2]) == "▁▁"
    assert report.bar(0.5, 10) == "█████     "
    assert report.bar(1.5, 4) == "████"
    assert len(report.bar(0.33, 7)) == 7


def test_compare_reports(tmp_path: Path) -> None:
    diff = compare(run(SPEC), run(SPEC, bias=0.3), "before", "after")
    text = report.terminal_compare(diff, 80)
    _width_ok(text, 80)
    assert "numbers changed" in text and "*" in text
    paths = report.write_compare(diff, tmp_path)
    md = (tmp_path / "compare.md").read_text()
    assert "# A/B: before vs after" in md and "on the same seeds" in md and "**yes**" in md
    assert {p.name for p in paths} == {"compare.md", "compare.json", "compare.csv"}
    same = compare(run(SPEC), run(SPEC), "a", "b")
    assert "No significant difference" in report.terminal_compare(same, 80)


def test_a_real_small_run(tmp_path: Path) -> None:
    from engine.lab.sim import simulate

    spec = LabSpec(system="masks", runs=6, seed=2, scenes=2, moves=5)
    results = [simulate(spec, i) for i in range(spec.runs)]
    summary = summarize(results, spec)
    assert summary["ok"] == 6 and summary["totals"]["rolls"] > 0
    for m in summary["moves"]:
        assert sum(b["count"] for b in m["bands"]) == m["rolls"]
        assert sum(b["expected"] for b in m["bands"]) == pytest.approx(1.0, abs=1e-6)
        assert m["p"] > 1e-4, m  # the dice agree with the odds the sim recorded
    _width_ok(report.terminal(summary), 80)
    report.write(summary, tmp_path, charts=False)
    assert "# Lab report: masks" in (tmp_path / "report.md").read_text()


def test_docs_main_writes_reports_and_readme(tmp_path: Path) -> None:
    from engine.lab import docs

    (tmp_path / "notes.md").write_text("Hand-written surprise.\n")
    args = ["--out", str(tmp_path), "--systems", "masks", "--scale", "0.005", "--workers", "1",
            "--no-charts"]
    assert docs.main(args) == 0
    readme = (tmp_path / "README.md").read_text()
    assert "python -m engine.lab.docs" in readme and "| [masks](masks/report.md) |" in readme
    assert "## What surprised us" in readme and "Hand-written surprise." in readme
    assert (tmp_path / "masks" / "report.md").exists()
    (tmp_path / "README.md").unlink()
    assert docs.main(["--out", str(tmp_path), "--readme-only"]) == 0
    assert "| 3/3 |" in (tmp_path / "README.md").read_text()


def test_report_from_summary_json_is_the_same(tmp_path: Path) -> None:
    summary = summarize(run(SPEC), SPEC)
    summary["fights"]["rounds_distribution"] = {"2": 3, "10": 1, "3": 2}
    report.write(summary, tmp_path / "a", charts=False)
    loaded = json.loads((tmp_path / "a" / "summary.json").read_text())
    report.write(loaded, tmp_path / "b", charts=False)
    for name in ("report.md", "bands.csv", "series.csv", "fights.csv"):
        assert (tmp_path / "a" / name).read_text() == (tmp_path / "b" / name).read_text()
    assert "Rounds: 2: 3, 3: 2, 10: 1" in (tmp_path / "b" / "report.md").read_text()
