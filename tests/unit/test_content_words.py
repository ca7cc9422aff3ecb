"""A move's outcome (or option) text and the note its effects add are read one after the
other in the journal: the note must not say the same thing again (issue 30: "They bite, and
do what you were pushing them toward." then "They go for it, exactly as you were pushing
them to.")."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml

CONTENT = Path(__file__).resolve().parents[2] / "content"
SMALL = {"the", "a", "an", "you", "your", "and", "to", "of", "they", "them", "it", "as",
         "what", "do", "is", "are", "on", "in", "for", "with", "that", "this", "one", "or"}


def _words(text: str) -> set[str]:
    return set(re.findall(r"[a-z']+", text.lower())) - SMALL


def _pairs(x: Any) -> Iterator[tuple[str, str]]:
    """(text, the text of a note among its effects) for every outcome and option."""
    if isinstance(x, dict):
        effects = x.get("effects")
        if isinstance(x.get("text"), str) and isinstance(effects, list):
            for e in effects:
                if isinstance(e, dict) and e.get("type") == "note":
                    yield x["text"], str(e.get("text", ""))
        for v in x.values():
            yield from _pairs(v)
    elif isinstance(x, list):
        for v in x:
            yield from _pairs(v)


def test_a_note_does_not_repeat_its_outcome() -> None:
    repeats = []
    for f in sorted(CONTENT.glob("*/moves.yaml")):
        for text, note in _pairs(yaml.safe_load(f.read_text(encoding="utf-8"))):
            a, b = _words(text), _words(note)
            if a and b and len(a & b) / len(a | b) > 0.25:
                repeats.append((f.parent.name, text, note))
    assert not repeats
