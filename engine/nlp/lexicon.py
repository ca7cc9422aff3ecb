"""Concepts: groups of English words that say roughly the same thing in action fiction.

``lexicon.yaml`` beside this module lists them ("strike: [hit, punch, slug, ...]"). A word the
matcher never saw in a pack's examples still lands on a concept it did see, so "I slug him" and
"I punch him" meet. Phrases ("talk down", "lie low") match with a few words between their parts
("talk him down").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from engine.nlp.english import lemma
from engine.nlp.english import words as split_words

LEXICON_FILE = Path(__file__).with_name("lexicon.yaml")
PHRASE_GAP = 2
"""How many words may sit between the parts of a phrase ("talk him down")."""


@dataclass(frozen=True)
class Lexicon:
    """Lemma -> concepts, and phrases (lemma tuples) -> concepts."""

    words: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    phrases: Mapping[tuple[str, ...], tuple[str, ...]] = field(default_factory=dict)
    by_first: Mapping[str, tuple[tuple[str, ...], ...]] = field(init=False, repr=False)
    """Phrases by their first lemma, so a line is searched only for phrases it can start."""

    def __post_init__(self) -> None:
        index: dict[str, list[tuple[str, ...]]] = {}
        for phrase in self.phrases:
            index.setdefault(phrase[0], []).append(phrase)
        object.__setattr__(self, "by_first", {k: tuple(v) for k, v in index.items()})

    @classmethod
    def from_groups(cls, groups: Mapping[str, Sequence[str]]) -> Lexicon:
        """Build from concept -> entries (words or phrases, any inflection)."""
        words: dict[str, list[str]] = {}
        phrases: dict[tuple[str, ...], list[str]] = {}
        for concept, entries in groups.items():
            for entry in entries:
                parts = tuple(lemma(w) for w in split_words(str(entry).replace("-", " "))
                              if w[:1].isalnum())
                if not parts:
                    continue
                bucket = words.setdefault(parts[0], []) if len(parts) == 1 else \
                    phrases.setdefault(parts, [])
                if concept not in bucket:
                    bucket.append(str(concept))
        return cls({k: tuple(v) for k, v in words.items()},
                   {k: tuple(v) for k, v in phrases.items()})

    def concepts(self, word_lemma: str) -> tuple[str, ...]:
        """The concepts of one lemma."""
        return self.words.get(word_lemma, ())

    def phrase_hits(self, lemmas: Sequence[str]) -> list[tuple[str, list[int]]]:
        """(concept, word indexes) for each phrase found in the lemma sequence."""
        out: list[tuple[str, list[int]]] = []
        for i, lem in enumerate(lemmas):
            for phrase in self.by_first.get(lem, ()):
                concepts = self.phrases[phrase]
                at, ok = [i], True
                for part in phrase[1:]:
                    j = next((k for k in range(at[-1] + 1, min(len(lemmas), at[-1] + 2
                                                               + PHRASE_GAP))
                              if lemmas[k] == part), None)
                    if j is None:
                        ok = False
                        break
                    at.append(j)
                if ok:
                    out += [(c, at) for c in concepts]
        return out


@lru_cache(maxsize=1)
def default_lexicon() -> Lexicon:
    """The lexicon shipped with Sidekick (empty if its file is missing)."""
    try:
        # libyaml when present (as engine.content.loader does): 0.03 s against 0.2 s
        loader: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
        data = yaml.load(LEXICON_FILE.read_text(encoding="utf-8"), Loader=loader) or {}
    except FileNotFoundError:
        return Lexicon()
    groups = data.get("concepts", {}) if isinstance(data, dict) else {}
    return Lexicon.from_groups({str(k): [str(x) for x in v or ()]
                                for k, v in groups.items() if isinstance(v, list)})
