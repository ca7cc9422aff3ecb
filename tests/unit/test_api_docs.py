"""docs/api.md is what tools/api_docs.py writes from the code: the Game's public API by part
(found, not listed: a method added to a part is in the next generated file) and the typed
values front ends read, each field with its docstring."""

from __future__ import annotations

import importlib.util
import inspect
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from engine.game import Game

ROOT = Path(__file__).resolve().parents[2]
TOOL = ROOT / "tools" / "api_docs.py"
DOC = ROOT / "docs" / "api.md"


@pytest.fixture(scope="module")
def tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("api_docs", TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def text(tool: ModuleType) -> str:
    rendered: str = tool.render()
    return rendered


def test_docs_api_md_is_current(text: str) -> None:
    committed = DOC.read_text(encoding="utf-8")
    assert committed.split() == text.split(), (
        "docs/api.md is stale: run python tools/api_docs.py > docs/api.md")


def test_check_says_when_it_is_stale(tmp_path: Path, tool: ModuleType,
                                     monkeypatch: pytest.MonkeyPatch,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    stale = tmp_path / "api.md"
    stale.write_text("# old\n", encoding="utf-8")
    monkeypatch.setattr(tool, "DOC", stale)
    assert tool.main(["--check"]) == 1
    assert "python tools/api_docs.py > docs/api.md" in capsys.readouterr().err
    stale.write_text(tool.render().replace("\n", "\n\n"), encoding="utf-8")  # whitespace only
    assert tool.main(["--check"]) == 0


def test_the_generator_runs_as_a_script() -> None:
    done = subprocess.run([sys.executable, str(TOOL), "--check"], capture_output=True,
                          text=True, cwd=ROOT, check=False)
    assert done.returncode == 0, done.stderr


def test_every_part_and_public_member_of_the_game_is_listed(text: str,
                                                            tool: ModuleType) -> None:
    parts = {name: cls for name, cls, _ in tool.parts(Game)}
    assert {"moves", "fights", "party", "gm", "ledger", "edits"} <= set(parts)
    for name, cls in parts.items():
        assert f"### `game.{name}`: `{cls.__name__}`" in text
        for member in _public(cls):
            assert f"`game.{name}.{member}" in text, (name, member)
    for klass in Game.__mro__[:-1]:
        for member in _public(klass):
            assert f"`game.{member}" in text, member
    assert "### `FlatNames`" in text  # the flat names, each an alias of a part's


def _public(cls: type) -> list[str]:
    return [n for n, v in cls.__dict__.items() if not n.startswith("_")
            and (inspect.isfunction(v) or isinstance(v, property | classmethod | staticmethod))]


def test_signatures_and_field_docstrings_come_from_the_code(text: str) -> None:
    assert "`game.suggest(text: str, limit: int = 3, everything: bool = False) ->" \
           " list[Suggestion]`" in text
    assert "`game.party.switch_hero(hero: str) -> list[Shown]`" in text
    # a field's docstring is the one written below it
    assert "| `disabled` | `str` | `''` | Why it cannot be taken now" in text
    assert "| `target` | `str \\| None` | `None` | The character the words named" in text
    for name in ("FictionPrompt", "MovePrompt", "ChoicePrompt", "Suggestion", "Option",
                 "FightOption", "TrackerRow", "ChoiceNeed", "RollPreview"):
        assert f"#### `{name}`" in text
    assert "- `Prompt = FictionPrompt | MovePrompt" in text
