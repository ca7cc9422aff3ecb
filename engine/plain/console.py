"""The plain mode's console: lines out, one-line questions in, and the journal's lines in
words a screen reader reads well (no Markdown marks, no symbols that carry the meaning)."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TextIO


class Leave(Exception):
    """The player leaves (``quit``, end of input, Ctrl+C): everything is saved already."""


class Reask(Exception):
    """A command changed what the game waits for: the question asked is moot."""


_SYMBOLS = {"🎲": "Roll:", "🔮": "Oracle:", "≤": "up to ", "⇒": "", "⇐": "", "⇄": "",
            "•": "", "·": ",", "▸": "", "’": "'"}
"""Symbols the journal uses, in words (the others go: their lines say it in words)."""
_MARKS = [(re.compile(r"\*\*(.+?)\*\*"), r"\1"), (re.compile(r"~~(.+?)~~"), r"\1"),
          (re.compile(r"(?<![\w])_(.+?)_(?![\w])"), r"\1"), (re.compile(r"`([^`]*)`"), r"\1")]


def plain_text(line: str) -> str:
    """A journal line (Markdown, symbols) in plain words for a screen reader."""
    text = line.rstrip()
    heading = re.match(r"^(#{1,6})\s+(.*)$", text)
    if heading:
        text = heading.group(2)
    if text.startswith("> "):
        text = "You say: " + text[2:]
    elif text.strip() == ">":
        text = ""
    roll = "🎲" in text
    for sym, word in _SYMBOLS.items():
        text = text.replace(sym, word)
    for pattern, repl in _MARKS:
        text = pattern.sub(repl, text)
    text = re.sub(r"^\s*→\s*", "", text)
    text = re.sub(r"→\s*(?=[-+]?\d)", "now ", text)  # "Team +1 → 1": "Team +1 now 1"
    text = text.replace("→", "gives" if roll else "on")
    text = "".join(c for c in text if not _symbol(c))
    return " ".join(text.split())


def _symbol(c: str) -> bool:
    """A pictograph or dingbat (emoji, box drawing, arrows): read aloud as its name."""
    if c in "—–-+=%/()[]:;,.!?'\"&#@*$":
        return False
    cat = unicodedata.category(c)
    return cat in ("So", "Sk", "Cs", "Co") or c == "\ufe0f" or ("\u2500" <= c <= "\u259f")


@dataclass(frozen=True, slots=True)
class Choice:
    """One numbered answer: its words, more words, and why it cannot be taken ("" : it can)."""

    label: str
    detail: str = ""
    disabled: str = ""


Commands = Callable[[str], bool | None]
"""Runs a line as a command when it is one (False: it was not; True: it was and changed the
game, so the question is moot; None: it was and changed nothing)."""


class Console:
    """Reads one line per question from ``inp``, writes plain lines to ``out``."""

    def __init__(self, inp: TextIO, out: TextIO, commands: Commands | None = None) -> None:
        self.inp = inp
        self.out = out
        self.commands = commands

    def say(self, line: str = "") -> None:
        """One line out (a journal line is made plain first; each of its lines alone)."""
        for part in line.split("\n") or [""]:
            text = plain_text(part)
            if text or not part:
                self.out.write(text + "\n")
        self.out.flush()

    def raw(self, line: str = "") -> None:
        """One line out as it is."""
        self.out.write(line + "\n")
        self.out.flush()

    def _read(self, question: str) -> str:
        self.out.write(question.rstrip() + " ")
        self.out.flush()
        line = self.inp.readline()
        if not line:  # end of input (Ctrl+D)
            self.out.write("\n")
            raise Leave
        return line.strip()

    def ask(self, question: str, commands: bool = True) -> str:
        """One line of answer; a command typed instead runs, and the question comes again."""
        while True:
            line = self._read(question)
            done = self.commands(line) if commands and self.commands is not None else False
            if done:
                raise Reask
            if done is None:
                continue
            return line

    def number(self, question: str, lo: int, hi: int, blank: int | None = None) -> int:
        """A whole number from ``lo`` to ``hi`` (``blank``: what an empty line means)."""
        while True:
            line = self.ask(question)
            if not line and blank is not None:
                return blank
            try:
                n = int(line)
            except ValueError:
                n = lo - 1
            if lo <= n <= hi:
                return n
            self.raw(f"Please type a whole number from {lo} to {hi}.")

    def pick(self, question: str, choices: Sequence[Choice], *, lo: int = 1, hi: int = 1,
             free: bool = False) -> list[int] | str:
        """Numbered choices, then one line: the numbers picked (``lo`` to ``hi`` of them), or,
        with ``free``, the words typed when they are not numbers."""
        self.list(choices)
        many = hi > 1
        if many and lo == hi:
            how = f"type {lo} numbers, separated by spaces"
        elif many:
            how = f"type {max(lo, 1)} to {hi} numbers, separated by spaces"
        else:
            how = f"type a number from 1 to {len(choices)}"
        if lo == 0:
            how += ", or press Enter for none"
        while True:
            line = self.ask(f"{question.rstrip(' :')} ({how}):")
            if not line and lo == 0:
                return []
            picked = _numbers(line, choices)
            if picked is None:
                if free and line:
                    return line
                self.raw(f"Not understood: {how}.")
                continue
            problem = _problem(picked, choices, lo, hi)
            if problem:
                self.raw(problem)
                continue
            return picked

    def list(self, choices: Sequence[Choice]) -> None:
        """The choices, one numbered line each."""
        for i, c in enumerate(choices, 1):
            detail = f" — {c.detail}" if c.detail else ""
            off = f" (not now: {c.disabled})" if c.disabled else ""
            self.say(f"{i}. {c.label}{detail}{off}")


def _numbers(line: str, choices: Sequence[Choice]) -> list[int] | None:
    """The 0-based indexes a line names: numbers, or one choice's words; None: neither."""
    parts = [p for p in re.split(r"[\s,]+", line) if p]
    if parts and all(p.isdigit() for p in parts):
        return [int(p) - 1 for p in parts]
    key = " ".join(line.lower().split())
    labels = [plain_text(c.label).lower() for c in choices]
    found = [i for i, lab in enumerate(labels) if lab == key]
    if not found and len(key) >= 3:  # the start of one choice's words: "Parveen (bystander)"
        found = [i for i, lab in enumerate(labels) if lab.startswith(key)]
    return found if len(found) == 1 else None


def _problem(picked: list[int], choices: Sequence[Choice], lo: int, hi: int) -> str:
    """Why the numbers picked do not answer ("" : they do)."""
    if any(not 0 <= i < len(choices) for i in picked):
        return f"There is no such number: the choices go from 1 to {len(choices)}."
    if len(set(picked)) != len(picked):
        return "Each number once, please."
    if not lo <= len(picked) <= hi:
        return (f"Pick exactly {lo}." if lo == hi else f"Pick from {lo} to {hi}.")
    off = next((choices[i] for i in picked if choices[i].disabled), None)
    if off is not None:
        return f"{plain_text(off.label)} cannot be taken now: {off.disabled}."
    return ""
