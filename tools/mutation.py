"""Mutation testing, one engine module at a time, on demand (never in CI).

    python tools/mutation.py --list          # the modules and the tests run against each
    python tools/mutation.py dice            # mutate engine/dice.py, run its tests, report
    python tools/mutation.py oracle --show   # ... and print the diff of every survivor
    python tools/mutation.py odds --again    # rerun with the cached mutants (after new tests)

Each module gets its own work folder ``.mutation/<name>/`` (git-ignored): links to ``engine``,
``content``, ``examples`` and ``tests`` and a ``pyproject.toml`` holding the repository's
``[tool.mutmut]`` settings with ``only_mutate`` set to that one file and the test selection
set to the unit tests that cover it. mutmut (3.x) copies everything into
``.mutation/<name>/mutants/`` and runs with ONE worker (the machine is shared), so a module
takes a few minutes. The score printed is killed / (total - equivalent), where the
equivalent mutants are the ones listed below with the reason each changes nothing.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WORK = ROOT / ".mutation"

# module name -> (file to mutate, the unit tests that cover it; missing files are skipped)
MODULES: dict[str, tuple[str, list[str]]] = {
    "dice": ("engine/dice.py", [
        "tests/unit/test_dice.py", "tests/unit/test_dice_golden.py",
        "tests/unit/test_mutation_kills.py"]),
    "odds": ("engine/odds.py", [
        "tests/unit/test_odds.py", "tests/unit/test_mutation_kills.py"]),
    "oracle": ("engine/gm/oracle.py", [
        "tests/unit/test_oracle_exact.py", "tests/unit/test_gm.py",
        "tests/unit/test_mutation_kills.py"]),
    "resolve": ("engine/rules/resolve.py", [
        "tests/unit/test_masks_moves.py", "tests/unit/test_cow_rolls.py",
        "tests/unit/test_rules_gaps.py", "tests/unit/test_mutation_kills.py"]),
    "masks": ("engine/rules/masks.py", [
        "tests/unit/test_masks_moves.py", "tests/unit/test_masks_defects.py",
        "tests/unit/test_rules_gaps.py"]),
    "effects": ("engine/rules/effects.py", [
        "tests/unit/test_masks_moves.py", "tests/unit/test_cow_moves.py",
        "tests/unit/test_masks_defects.py", "tests/unit/test_rules_gaps.py"]),
    "store": ("engine/store.py", [
        "tests/unit/test_store.py", "tests/unit/test_store_safety.py"]),
}

# Survivors judged equivalent (no input can tell them apart from the original), with why.
# Names are mutmut's: they stay valid while the function they are in does not change.
EQUIVALENT: dict[str, str] = {
    "engine.dice.xǁDiceSpecǁparse__mutmut_55":
        '(m.group(3) or "H").lower(): the letter is lower-cased anyway',
    "engine.dice.xǁDiceSpecǁkept_indices__mutmut_3":
        "keep > len(faces): keeping every face through the sort gives the same indices",
    "engine.dice.x__face_v1__mutmut_12":
        'int.from_bytes(digest): the byte order defaults to "big" since Python 3.11',
    "engine.dice.x_degrees_vs_dc__mutmut_66":
        "signed >= 0: there is no degree 0, signed is never 0",
    "engine.odds.x_distribution__mutmut_6":
        "_table(spec, 1): the low-face split is summed back per total",
    "engine.odds.x_distribution__mutmut_12":
        "out.get(None, 0): with low_face 0 each total appears once, so the sum starts at 0",
    "engine.gm.oracle.x_read__mutmut_23":
        "roll <= 100: 100 is not a double, and a d100 shows at most 100",
    "engine.gm.oracle.x_read__mutmut_24":
        "roll < 101: 100 is not a double, and a d100 shows at most 100",
    "engine.gm.oracle.x_read__mutmut_27":
        "roll / 11: a double is a multiple of 11, so / and // agree",
}

KILLED = {"killed", "timeout", "caught by type check", "segfault"}


def _toml_value(value: object) -> str:
    """A TOML literal for the plain values a config holds (str, bool, int, float, list)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    raise TypeError(f"cannot write {value!r} as TOML")


def _table(name: str, values: dict[str, object]) -> str:
    lines = [f"[{name}]"]
    lines += [f"{key} = {_toml_value(v)}" for key, v in values.items()]
    return "\n".join(lines) + "\n"


def prepare(name: str, again: bool) -> Path:
    """Make ``.mutation/<name>/`` ready for mutmut; return it."""
    source, tests = MODULES[name]
    folder = WORK / name
    if not again and (folder / "mutants").exists():
        shutil.rmtree(folder / "mutants")
    folder.mkdir(parents=True, exist_ok=True)
    for link in ("engine", "content", "examples", "tests"):
        if not (folder / link).exists():
            (folder / link).symlink_to(ROOT / link, target_is_directory=True)
    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    tool = project.get("tool", {})
    mutmut = dict(tool.get("mutmut", {}))
    mutmut["only_mutate"] = [source]
    mutmut["pytest_add_cli_args_test_selection"] = [t for t in tests if (ROOT / t).exists()]
    text = _table("tool.pytest.ini_options", tool.get("pytest", {}).get("ini_options", {}))
    text += "\n" + _table("tool.mutmut", mutmut)
    (folder / "pyproject.toml").write_text(text, "utf-8")
    return folder


def results(folder: Path) -> dict[str, str]:
    """mutant name -> status, from ``mutmut results --all true``."""
    out = subprocess.run([_mutmut(), "results", "--all", "true"], cwd=folder, text=True,
                         capture_output=True, check=True).stdout
    found = {}
    for line in out.splitlines():
        m = re.match(r"\s*(\S+): (.+)$", line)
        if m:
            found[m.group(1)] = m.group(2).strip()
    return found


def _mutmut() -> str:
    exe = Path(sys.executable).with_name("mutmut")
    return str(exe) if exe.exists() else "mutmut"


def report(name: str, folder: Path, show: bool) -> int:
    """Print the score and the survivors; return 0 when the score is at least 90%."""
    status = results(folder)
    killed = sum(1 for s in status.values() if s in KILLED)
    equivalent = [m for m, s in status.items() if s not in KILLED and m in EQUIVALENT]
    survivors = [m for m, s in status.items() if s not in KILLED and m not in EQUIVALENT]
    counted = len(status) - len(equivalent)
    score = killed / counted if counted else 1.0
    print(f"\n{MODULES[name][0]}: {killed} killed of {len(status)} mutants, "
          f"{len(equivalent)} equivalent: score {killed}/{counted} = {score:.0%}")
    for m in equivalent:
        print(f"  equivalent {m}: {EQUIVALENT[m]}")
    for m in survivors:
        print(f"  {status[m]}: {m}")
        if show:
            diff = subprocess.run([_mutmut(), "show", m], cwd=folder, text=True,
                                  capture_output=True).stdout
            print("    " + diff.replace("\n", "\n    "))
    return 0 if score >= 0.9 else 1


def main(argv: list[str] | None = None) -> int:
    """Run mutmut on one module (or list the modules)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("module", nargs="?", choices=sorted(MODULES))
    parser.add_argument("--list", action="store_true", help="list the modules and their tests")
    parser.add_argument("--again", action="store_true",
                        help="keep the mutants made last time (rerun after adding tests)")
    parser.add_argument("--show", action="store_true", help="print each survivor's diff")
    parser.add_argument("--report", action="store_true",
                        help="only print the last run's score, do not run")
    args = parser.parse_args(argv)
    if args.list or not args.module:
        for key, (source, tests) in MODULES.items():
            print(f"{key:8} {source:26} {' '.join(tests)}")
        return 0
    folder = WORK / args.module
    if not args.report:
        folder = prepare(args.module, args.again)
        run = subprocess.run([_mutmut(), "run", "--max-children", "1"], cwd=folder)
        if run.returncode != 0:
            print(f"mutmut failed (exit {run.returncode}); see its output above", file=sys.stderr)
            return run.returncode
    return report(args.module, folder, args.show)


if __name__ == "__main__":
    sys.exit(main())
