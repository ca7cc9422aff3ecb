"""The app stays in its lane: the core never imports textual; the app imports cleanly."""

from __future__ import annotations

import subprocess
import sys

import pytest

from engine.tui.text import inline, odds_bar, when


@pytest.mark.parametrize("module", ["engine.game", "engine.cli", "engine.campaigns",
                                    "engine.journal", "engine.store"])
def test_core_does_not_import_textual(module: str) -> None:
    code = f"import sys, {module}; assert 'textual' not in sys.modules, sorted(sys.modules)"
    subprocess.run([sys.executable, "-c", code], check=True)


def test_app_imports() -> None:
    code = "import engine.tui.app as a; assert a.SidekickApp.CSS_PATH == 'app.tcss'"
    subprocess.run([sys.executable, "-c", code], check=True)


@pytest.mark.parametrize(("text", "plain", "styles"), [
    ("**Strong hit**", "Strong hit", ["bold"]),
    ("_Scene 1 ends._", "Scene 1 ends.", ["italic"]),
    ("take_powerful_blow stays", "take_powerful_blow stays", []),
    ("a **b** and _c_", "a b and c", ["bold", "italic"]),
])
def test_inline_markdown(text: str, plain: str, styles: list[str]) -> None:
    out = inline(text)
    assert out.plain == plain
    assert [str(s.style) for s in out.spans] == styles


@pytest.mark.parametrize("width", [1, 7, 30, 80])
def test_odds_bar_fills_its_width(width: int) -> None:
    bands = [{"id": "miss", "tone": "bad"}, {"id": "weak_hit", "tone": "mixed"},
             {"id": "strong_hit", "tone": "good"}]
    bar = odds_bar({"miss": "41.7%", "weak_hit": "41.7%", "strong_hit": "16.7%"}, bands, width)
    assert bar.cell_len == width


@pytest.mark.parametrize(("iso", "expected"), [
    ("2024-05-01T12:00:00.000+00:00", "just now"),
    ("2024-05-01T11:30:00.000+00:00", "30 min ago"),
    ("2024-05-01T07:00:00.000+00:00", "5 h ago"),
    ("2024-04-30T11:00:00.000+00:00", "yesterday"),
    ("2024-04-27T12:00:00.000+00:00", "4 days ago"),
    ("", "—"),
    ("garbage", "garbage"),
])
def test_when(iso: str, expected: str) -> None:
    from datetime import UTC, datetime

    assert when(iso, datetime(2024, 5, 1, 12, 0, 30, tzinfo=UTC)) == expected
