"""The shape of the engine's code (issue 24): no function longer than 80 lines and no file
longer than 900, read from the source with ``ast``. A function's length runs from its ``def``
line to its last line (decorators left out); methods, nested and async functions count too."""

from __future__ import annotations

import ast
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "engine"
SOURCES = sorted(ENGINE.rglob("*.py"))
MAX_FUNCTION = 80
MAX_FILE = 900


def function_lengths(source: str) -> list[tuple[str, int, int]]:
    """Every function of ``source`` (sync or async, methods and nested ones included): its
    qualified name, the line of its ``def`` and its length in lines."""
    out: list[tuple[str, int, int]] = []

    def walk(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                name = f"{prefix}{child.name}"
                end = child.end_lineno if child.end_lineno is not None else child.lineno
                out.append((name, child.lineno, end - child.lineno + 1))
                walk(child, f"{name}.")
            elif isinstance(child, ast.ClassDef):
                walk(child, f"{prefix}{child.name}.")
            else:
                walk(child, prefix)

    walk(ast.parse(source), "")
    return out


def line_count(source: str) -> int:
    """The lines of ``source``."""
    return len(source.splitlines())


def rel(path: Path) -> str:
    return path.relative_to(ENGINE.parent).as_posix()


def test_sources_were_found() -> None:
    names = {rel(p) for p in SOURCES}
    assert {"engine/journal.py", "engine/cli.py", "engine/script.py",
            "engine/lab/fights.py"} <= names


def test_the_measure_counts_from_def_to_the_last_line() -> None:
    source = (
        "import functools\n"               # 1
        "\n"                               # 2
        "@functools.cache\n"               # 3: a decorator, not counted
        "def short() -> int:\n"            # 4
        "    return 1\n"                   # 5
        "\n"                               # 6
        "class Box:\n"                     # 7
        "    async def fill(self) -> None:\n"  # 8
        "        x = 1\n"                  # 9
        "\n"                               # 10
        "        def inner() -> int:\n"    # 11
        "            return x\n"           # 12
        "        inner()\n"                # 13
        "\n"                               # 14
        + "x = 0\n" * 86                   # 15-100
        + "def long() -> None:\n"          # 101
        + "    y = 0\n" * 80               # 102-181: 81 lines with the def
    )
    lengths = {name: (line, n) for name, line, n in function_lengths(source)}
    assert lengths == {"short": (4, 2), "Box.fill": (8, 6), "Box.fill.inner": (11, 2),
                       "long": (101, 81)}
    assert line_count(source) == 181
    assert [name for name, _, n in function_lengths(source) if n > MAX_FUNCTION] == ["long"]


def test_no_function_is_over_80_lines() -> None:
    offenders = [f"{rel(path)}:{line} {name} ({n} lines)"
                 for path in SOURCES
                 for name, line, n in function_lengths(path.read_text(encoding="utf-8"))
                 if n > MAX_FUNCTION]
    assert not offenders, (f"functions over {MAX_FUNCTION} lines (split them along their"
                           " seams):\n" + "\n".join(offenders))


def test_no_file_is_over_900_lines() -> None:
    offenders = [f"{rel(path)} ({n} lines)" for path in SOURCES
                 if (n := line_count(path.read_text(encoding="utf-8"))) > MAX_FILE]
    assert not offenders, f"files over {MAX_FILE} lines:\n" + "\n".join(offenders)
