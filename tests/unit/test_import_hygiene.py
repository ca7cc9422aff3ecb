"""The house rules about imports: no screen in the core, one package for tinydb, no global
random. Checked in a fresh interpreter and by reading the source with ``ast``."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parents[2] / "engine"
SOURCES = sorted(ENGINE.rglob("*.py"))
CORE_MODULES = ["engine.game", "engine.cli", "engine.rules", "engine.content", "engine.journal",
                "engine.script", "engine.dice", "engine.odds", "engine.triggers",
                "engine.campaigns", "engine.gm.moves", "engine.systems.masks.rules"]


def rel(path: Path) -> str:
    return path.relative_to(ENGINE.parent).as_posix()


def imported_modules(path: Path) -> list[tuple[str, int]]:
    """Every module name ``path`` imports (absolute), with its line."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.append((node.module, node.lineno))
    return out


def test_sources_were_found() -> None:
    names = {rel(p) for p in SOURCES}
    assert {"engine/game/facade.py", "engine/dice.py", "engine/store/__init__.py",
            "engine/store/storage.py", "engine/cli.py"} <= names


def test_core_imports_do_not_load_textual() -> None:
    code = (
        "import json, sys\n"
        f"for name in {CORE_MODULES!r}:\n"
        "    __import__(name)\n"
        "print(json.dumps(sorted(m for m in sys.modules"
        " if m == 'textual' or m.startswith('textual.'))))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, check=False)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == []


def test_cli_main_for_odds_does_not_load_textual() -> None:
    code = (
        "import contextlib, io, json, sys\n"
        "from engine.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    assert main(['odds', 'directly_engage']) == 0\n"
        "print(json.dumps('textual' in sys.modules))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, check=False)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) is False


@pytest.mark.parametrize("path", SOURCES, ids=rel)
def test_only_the_store_imports_tinydb(path: Path) -> None:
    if rel(path).startswith("engine/store/"):
        return
    bad = [(m, line) for m, line in imported_modules(path)
           if m == "tinydb" or m.startswith("tinydb.")]
    assert bad == [], f"{rel(path)} imports tinydb at lines {[line for _, line in bad]}"


@pytest.mark.parametrize("path", SOURCES, ids=rel)
def test_only_the_tui_imports_textual(path: Path) -> None:
    if rel(path).startswith("engine/tui/"):
        return
    bad = [(m, line) for m, line in imported_modules(path)
           if m == "textual" or m.startswith("textual.")]
    if rel(path) == "engine/cli.py":
        # the CLI may start the app, importing it inside the function that does so
        tree = ast.parse(path.read_text(encoding="utf-8"))
        top = {n.lineno for n in tree.body if isinstance(n, ast.Import | ast.ImportFrom)}
        tui = [line for m, line in imported_modules(path) if m.startswith("engine.tui")]
        assert not set(tui) & top, "cli.py must import the TUI lazily"
    assert bad == [], f"{rel(path)} imports textual at lines {[line for _, line in bad]}"


def global_random_calls(path: Path) -> list[str]:
    """Calls like ``random.randint(...)`` or ``from random import choice`` (not Random)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                and node.value.id == "random" and node.attr not in ("Random", "SystemRandom")):
            found.append(f"line {node.lineno}: random.{node.attr}")
        if isinstance(node, ast.ImportFrom) and node.module == "random":
            found += [f"line {node.lineno}: from random import {a.name}" for a in node.names
                      if a.name not in ("Random", "SystemRandom")]
    return sorted(found, key=lambda f: int(f.split()[1].rstrip(":")))


@pytest.mark.parametrize("path", SOURCES, ids=rel)
def test_no_global_random(path: Path) -> None:
    assert global_random_calls(path) == []


def test_the_random_scan_catches_global_calls(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text("import random\nfrom random import choice, Random\n"
                      "x = random.randint(1, 6)\nr = random.Random(3)\n")
    assert global_random_calls(sample) == ["line 2: from random import choice",
                                           "line 3: random.randint"]
