"""What the command line's modules share: exit codes, its errors, where saves and extra
content are, and how a line is printed."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from engine.errors import EngineError

EXIT_ERROR = 1
EXIT_USAGE = 2


class CliError(EngineError):
    """Bad command-line input."""


class UsageError(CliError):
    """A bad argument (exit 2, like argparse's own usage errors)."""


def saves(args: argparse.Namespace) -> Path:
    """The save folder: ``--saves``, else $SIDEKICK_SAVES, else ./saves."""
    if args.saves:
        return Path(args.saves)
    env = os.environ.get("SIDEKICK_SAVES")
    return Path(env) if env else Path.cwd() / "saves"


def content(args: argparse.Namespace) -> list[Path]:
    """The extra content folders given (each must be a folder)."""
    dirs = [Path(p) for p in args.content or []]
    for d in dirs:
        if not d.is_dir():
            raise CliError(f"--content {d}: no such folder")
    return dirs


def out(line: str) -> None:
    """Print one line to standard output."""
    sys.stdout.write(line + "\n")


def clip(text: str, limit: int = 40) -> str:
    """``text`` quoted for a message, cut short when it is long."""
    return repr(text[:limit] + "...") if len(text) > limit else repr(text)
