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
