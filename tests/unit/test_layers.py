"""Imports point one way (DESIGN.md, rule 9): the import-linter contract in pyproject.toml is
kept, and it does catch an upward import, even one hidden inside a function."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def lint_imports(cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``lint-imports`` run in ``cwd`` (its pyproject.toml), without a cache."""
    exe = Path(sys.executable).with_name("lint-imports")
    found = str(exe) if exe.exists() else shutil.which("lint-imports")
    if found is None:
        pytest.fail("lint-imports is not installed (pip install -e '.[test]')")
    return subprocess.run([found, "--no-cache", "--no-logo"], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300, check=False)


def test_the_layers_contract_is_kept() -> None:
    result = lint_imports(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"][
        "contracts"]
    assert f"{len(contracts)} kept, 0 broken" in result.stdout


def test_the_contract_names_every_floor_of_the_engine() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    (contract,) = [c for c in config["contracts"] if c["id"] == "floors"]
    assert contract["type"] == "layers" and contract["exhaustive"] is True
    named = {m.strip() for layer in contract["layers"] for m in layer.replace("|", ":").split(":")}
    modules = {p.stem for p in (ROOT / "engine").glob("*.py") if p.stem != "__init__"}
    modules |= {p.name for p in (ROOT / "engine").iterdir() if (p / "__init__.py").exists()}
    assert named == modules


@pytest.mark.parametrize(("module", "upward"), [
    ("rules/resolve.py", "engine.gm.scenes"),    # the rules reaching up to the GM
    ("content/loader.py", "engine.rules"),       # content reaching up to the rules
    ("gm/oracle.py", "engine.game"),             # the GM reaching up to the facade
])
def test_a_function_level_upward_import_breaks_the_contract(
        tmp_path: Path, module: str, upward: str) -> None:
    shutil.copytree(ROOT / "engine", tmp_path / "engine",
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    target = tmp_path / "engine" / module
    target.write_text(target.read_text() + f"\n\ndef _sneaky() -> None:\n"
                      f"    import {upward}  # noqa: F401\n")
    env = dict(os.environ, PYTHONPATH=str(tmp_path))
    result = lint_imports(tmp_path, env)
    importer = "engine." + module.removesuffix(".py").replace("/", ".")
    assert result.returncode != 0, result.stdout
    assert f"{importer} -> {upward}" in result.stdout


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The import cycles of a graph (module -> modules it imports): its strongly connected
    parts of more than one module, each sorted (Tarjan, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges.get(root, ()))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(edges.get(w, ())))))
                elif w in on_stack:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                part = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    part.append(w)
                    if w == v:
                        break
                if len(part) > 1:
                    found.append(sorted(part))
    return found


def test_the_cycle_finder_finds_cycles() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set(), "c": {"a", "b"}}) == []
    two = cycles({"a": {"b"}, "b": {"a"}, "c": {"d"}, "d": {"c"}})
    assert sorted(two) == [["a", "b"], ["c", "d"]]


def test_no_import_cycle_in_the_engine() -> None:
    # every import counts: function-level ones and those only for type checking included
    import grimp

    graph = grimp.build_graph("engine", include_external_packages=False)
    edges = {m: set(graph.find_modules_directly_imported_by(m)) for m in graph.modules}
    assert cycles(edges) == []
