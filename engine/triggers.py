"""Fiction text to ranked move suggestions, each with the cue that matched.

A simple, explainable matcher: words are lower-cased and stemmed by trimming common endings;
a cue matches when its stems appear in order, next to each other, in the fiction. Longer cues
weigh more. Every suggestion says which cue matched, so the player sees why.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from engine.content import schema as s

_WORD = re.compile(r"[a-z0-9']+")
_SUFFIXES = ("ingly", "ing", "edly", "ed", "ies", "es", "s", "ly")
STOPWORDS = frozenset({
    "a", "an", "the", "to", "of", "and", "or", "in", "on", "at", "for", "with", "my", "your",
    "his", "her", "their", "our", "is", "are", "be", "i", "you", "we", "it", "this", "that",
    "someone", "something",
})


def stem(word: str) -> str:
    """A crude stem: strip one common ending, keeping at least three letters."""
    word = word.strip("'")
    if word.endswith("'s"):
        word = word[:-2]
    for suf in _SUFFIXES:
        # "ies" may leave two letters, since it gives back a "y": flies -> fly, cries -> cry
        if word.endswith(suf) and len(word) - len(suf) >= (2 if suf == "ies" else 3):
            word = word[: -len(suf)]
            if suf in ("ing", "ed") and len(word) > 3 and word[-1] == word[-2]:
                word = word[:-1]  # running -> run, stopped -> stop
            elif suf == "ies":
                word += "y"
            break
    if len(word) > 3 and word.endswith("e"):
        word = word[:-1]  # charge / charged / charging all meet at "charg"
    return word


def stems(text: str) -> list[str]:
    """The stems of every word in ``text``."""
    return [stem(w) for w in _WORD.findall(text.lower())]


@dataclass(frozen=True, slots=True)
class Suggestion:
    """A move the fiction may trigger, why, and how strongly."""

    move: str
    name: str
    score: float
    cue: str

    def to_dict(self) -> dict[str, object]:
        """Plain form for the flow and JSON output."""
        return {"move": self.move, "name": self.name, "score": self.score, "cue": self.cue}


class Matcher:
    """Ranks a pack's moves against fiction; build once per pack."""

    def __init__(self, moves: Iterable[s.Move]) -> None:
        self._cues: list[tuple[str, str, tuple[str, ...], float]] = []
        self._names: dict[str, str] = {}
        for m in moves:
            self._names[m.id] = m.name
            for cue in m.cues:
                st = tuple(x for x in stems(cue) if x)
                if st:
                    self._cues.append((m.id, cue, st, 1.0 + 0.75 * (len(st) - 1)))
            name_stems = tuple(x for x in stems(m.name) if x not in STOPWORDS)
            if len(name_stems) > 1:
                self._cues.append((m.id, m.name.lower(), name_stems, 1.5 + 0.5 * len(name_stems)))

    def suggest(self, text: str, allowed: Iterable[str] | None = None, limit: int = 5
                ) -> list[Suggestion]:
        """Moves ranked best first; only moves in ``allowed`` when given."""
        words = stems(text)
        if not words:
            return []
        joined = " " + " ".join(words) + " "
        # a move's name is matched without its stopwords, so the text is searched without them
        content = " " + " ".join(w for w in words if w not in STOPWORDS) + " "
        allow = set(allowed) if allowed is not None else None
        best: dict[str, tuple[float, str]] = {}
        for move_id, cue, st, weight in self._cues:
            if allow is not None and move_id not in allow:
                continue
            hay = content if cue == self._names[move_id].lower() else joined
            if " " + " ".join(st) + " " in hay:
                score, shown = best.get(move_id, (0.0, ""))
                best[move_id] = (score + weight, shown if score >= weight else cue)
        ranked = sorted(best.items(), key=lambda kv: -kv[1][0])
        return [Suggestion(m, self._names[m], round(sc, 2), cue) for m, (sc, cue) in
                ranked[:limit]]
