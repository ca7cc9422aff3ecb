"""Mutation testing, one engine module at a time, on demand (never in CI).

    python tools/mutation.py --list           # the modules and the tests run against each
    python tools/mutation.py dice             # mutate engine/dice.py, run its tests, report
    python tools/mutation.py oracle --show    # ... and print the diff of every survivor
    python tools/mutation.py odds --again     # rerun only the last survivors (after new tests)
    python tools/mutation.py store --resume   # go on with an interrupted run (and changed code)
    python tools/mutation.py store --part 1/4 # a big module in parts: 1/4 first, then 2/4 ...
    python tools/mutation.py store --report   # the score of the last runs, without running

Each module gets its own work folder ``.mutation/<name>/`` (git-ignored): links to ``engine``,
``content``, ``examples`` and ``tests`` and a ``pyproject.toml`` holding the repository's
``[tool.mutmut]`` settings with ``only_mutate`` set to that one file and the test selection
set to the unit tests that cover it. mutmut (3.x) copies everything into
``.mutation/<name>/mutants/`` and runs with ONE worker (the machine is shared), so a module
takes a few minutes. The score printed is killed / (total - equivalent), where the
equivalent mutants are the ones listed below with the reason each changes nothing.

``--part K/N`` runs only the mutants of the K-th of N groups of the module's functions
(balanced by their length), so a large module fits in several runs of under ten minutes: part
1 makes the mutants afresh, the later parts reuse them, so run them in order.
"""

from __future__ import annotations

import argparse
import ast
import fnmatch
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
        "tests/unit/test_rules_gaps.py", "tests/unit/test_mutation_masks.py"]),
    "effects": ("engine/rules/effects.py", [
        "tests/unit/test_masks_moves.py", "tests/unit/test_cow_moves.py",
        "tests/unit/test_masks_defects.py", "tests/unit/test_rules_gaps.py",
        "tests/unit/test_mutation_effects.py"]),
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


def function_prefixes(source: str) -> list[tuple[str, int]]:
    """mutmut's name for each function and method of ``source``, with its length in lines."""
    module = source.removesuffix(".py").replace("/", ".")
    tree = ast.parse((ROOT / source).read_text("utf-8"))
    found = []
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            found.append((f"{module}.x_{node.name}", node))
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    found.append((f"{module}.x\u01c1{node.name}\u01c1{item.name}", item))
    return [(name, (fn.end_lineno or fn.lineno) - fn.lineno + 1) for name, fn in found]


def part_patterns(source: str, part: int, parts: int) -> list[str]:
    """Mutant-name patterns for part ``part`` of ``parts`` (functions balanced by length)."""
    loads = [0] * parts
    groups: list[list[str]] = [[] for _ in range(parts)]
    for name, size in sorted(function_prefixes(source), key=lambda x: (-x[1], x[0])):
        k = loads.index(min(loads))
        loads[k] += size
        groups[k].append(name)
    return [f"{name}__mutmut_*" for name in sorted(groups[part - 1])]


def prepare(name: str, fresh: bool) -> Path:
    """Make ``.mutation/<name>/`` ready for mutmut (new mutants if ``fresh``); return it."""
    source, tests = MODULES[name]
    folder = WORK / name
    if fresh and (folder / "mutants").exists():
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


def report(name: str, folder: Path, show: bool, patterns: list[str] | None = None) -> int:
    """Print the score and the survivors (of ``patterns`` only, if given); 0 if >= 90%."""
    status = results(folder)
    if patterns is not None:
        status = {m: v for m, v in status.items()
                  if any(fnmatch.fnmatch(m, p) for p in patterns)}
    killed = sum(1 for s in status.values() if s in KILLED)
    equivalent = [m for m, s in status.items() if s not in KILLED and m in EQUIVALENT]
    survivors = [m for m, s in status.items() if s not in KILLED and m not in EQUIVALENT]
    counted = len(status) - len(equivalent)
    score = killed / counted if counted else 1.0
    what = MODULES[name][0] + (" (this part)" if patterns is not None else "")
    print(f"\n{what}: {killed} killed of {len(status)} mutants, "
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
                        help="keep last run's mutants and rerun only its survivors")
    parser.add_argument("--resume", action="store_true",
                        help="continue the last run: mutants not yet run, functions changed")
    parser.add_argument("--part", metavar="K/N",
                        help="only the K-th of N groups of functions (run 1/N first)")
    parser.add_argument("--show", action="store_true", help="print each survivor's diff")
    parser.add_argument("--report", action="store_true",
                        help="only print the last run's score, do not run")
    args = parser.parse_args(argv)
    if args.list or not args.module:
        for key, (source, tests) in MODULES.items():
            print(f"{key:8} {source:26} {' '.join(tests)}")
        return 0
    folder = WORK / args.module
    patterns = None
    if args.part:
        m = re.fullmatch(r"(\d+)/(\d+)", args.part)
        if not m or not 1 <= int(m.group(1)) <= int(m.group(2)):
            parser.error(f"--part takes K/N with 1 <= K <= N, like 1/3, not {args.part!r}")
        part, parts = int(m.group(1)), int(m.group(2))
        patterns = part_patterns(MODULES[args.module][0], part, parts)
    if (args.report or args.again or args.resume) and not (folder / "mutants").exists():
        parser.error(f"no earlier run of {args.module}: run it once first")
    if args.resume and (args.part or args.again):
        parser.error("--resume continues a whole-module run: use it without --part or --again")
    if not args.report:
        names: list[str] = list(patterns or [])
        if args.again:
            names = [m for m, v in results(folder).items()
                     if v not in KILLED and m not in EQUIVALENT
                     and (patterns is None or any(fnmatch.fnmatch(m, p) for p in patterns))]
            if not names:
                return report(args.module, folder, args.show, patterns)
        fresh = not (args.again or args.resume) and (patterns is None or args.part.startswith("1/"))
        folder = prepare(args.module, fresh)
        run = subprocess.run([_mutmut(), "run", "--max-children", "1", *names], cwd=folder)
        if run.returncode != 0:
            print(f"mutmut failed (exit {run.returncode}); see its output above", file=sys.stderr)
            return run.returncode
    return report(args.module, folder, args.show, patterns)


if __name__ == "__main__":
    sys.exit(main())
