"""People the fiction names who are not in the story yet ("I ask Augustin who owned it before
Sister Marguerite": Sister Marguerite), so the app can offer to add them to the cast."""

from __future__ import annotations

import re
from collections.abc import Iterable

from engine.nlp.english import known, words
from engine.nlp.places import PLACE_WORDS
from engine.rules.state import CampaignState
from engine.triggers import name_variants

_ENDS = frozenset({".", "!", "?", ":", ";", "\"", "“", "”"})
"""Marks after which a capital starts a sentence (not a name)."""
_NOT_NAMES = frozenset({"i", "i'm", "i'll", "i've", "i'd", "gm", "ok", "okay", "tv"})
_MAX_WORDS = 4


def newcomers(state: CampaignState, text: str, known_names: Iterable[str] = ()
              ) -> tuple[str, ...]:
    """Names in ``text`` of no one in the story, in order: runs of capitalised words inside a
    sentence, or at a sentence's start from the first word no dictionary knows ("Tell Dani
    to run": Dani). Names of the cast and the heroes (any part of them), ``known_names``
    (the pack's foes, "The Tallyman") and places ("Halberd City") are left out."""
    taken = {v for n in [*(a.name for a in state.actors.values()), *known_names]
             for v in name_variants(n)}
    ws = words(text)
    out: list[str] = []
    run: list[str] = []
    start_run = False

    def close() -> None:
        if run and start_run:  # a sentence's first word is capitalised anyway: drop
            while run and known(run[0].lower()):  # the dictionary words before the name
                run.pop(0)
        if run and len(run) <= _MAX_WORDS and run[-1].lower() not in PLACE_WORDS:
            key = tuple(w.lower() for w in run)
            if not any(v == key or (len(v) == 1 and v[0] in key) for v in taken):
                name = " ".join(run)
                if name not in out:
                    out.append(name)
        run.clear()

    sentence_start = True
    for w in ws:
        if w[:1].isupper() and w.isalpha() and w.lower() not in _NOT_NAMES:
            if not run:
                start_run = sentence_start
            run.append(w)
        else:
            close()
        sentence_start = w in _ENDS or (sentence_start and not w[:1].isalnum())
    close()
    return tuple(out)


PERSON_WORDS = frozenset({
    "stranger", "newcomer", "woman", "man", "girl", "boy", "kid", "guy", "lady", "gentleman",
    "fellow", "person", "clerk", "scribe", "fence", "harbormaster", "harbourmaster", "bargeman",
    "boatman", "ferryman", "fisherman", "sailor", "merchant", "trader", "peddler", "vendor",
    "guard", "watchman", "officer", "priest", "priestess", "nun", "monk", "noble", "courtier",
    "guest", "servant", "maid", "butler", "cook", "bartender", "barkeep", "innkeeper",
    "smith", "apprentice", "student", "scholar", "doctor", "physician", "thief", "smuggler",
    "courier", "messenger", "beggar", "urchin", "widow", "widower", "dockworker", "stevedore",
    "gambler", "dealer", "broker", "banker", "lawyer", "informant", "regular", "reporter",
    "journalist", "cop", "agent", "soldier", "mercenary", "bodyguard", "driver", "pilot",
    "hacker", "artist", "singer", "dancer", "musician", "poet", "actor", "actress", "player",
    "teacher", "stallholder", "landlord", "landlady", "tenant", "neighbor", "neighbour",
    "traveller", "traveler", "pilgrim", "veteran", "youth", "elder", "old-timer", "local",
    "doorman", "chairman", "alderman", "councilman", "policeman", "fireman", "nobleman",
    "craftsman", "tradesman", "henchman", "gunman", "lamplighter", "men", "women"})
"""Words that end a description of a person ("the new harbormaster", "a masked guest")."""
_PERSON_ENDINGS = ("seller", "keeper", "monger", "maker", "master", "smith", "woman",
                   "swain", "wright")
"""Endings of words for a kind of person ("lamp-seller", "shopkeeper", "bargeman")."""
_RAW = re.compile(r"[A-Za-z0-9]+(?:['-][A-Za-z]+)*|[^\sA-Za-z0-9]")
_QUOTES = str.maketrans({"\u2019": "'", "\u2018": "'"})
_DESCRIBE_OPENERS = frozenset({"the", "a", "an", "this", "that"})
_MAX_DESCRIPTION = 5


def _person_word(word: str) -> bool:
    """Whether ``word`` (lower case) names a kind of person ("clerk", "lamp-seller")."""
    last = word.rsplit("-", 1)[-1]
    return last in PERSON_WORDS or last.endswith(_PERSON_ENDINGS)


def described_person(text: str) -> str:
    """The first person ``text`` describes without a name ("I introduce myself to the new
    harbormaster": "The new harbormaster"; "a woman in grey": "The woman"), or ""."""
    ws = _RAW.findall(text.translate(_QUOTES))
    for i, w in enumerate(ws):
        low = w.lower()
        if not _person_word(low) or (i + 1 < len(ws) and _person_word(ws[i + 1].lower())):
            continue
        start = i
        while start > 0 and i - start < _MAX_DESCRIPTION and ws[start - 1][:1].isalpha() \
                and ws[start - 1].lower() not in _DESCRIBE_OPENERS \
                and ws[start - 1].lower() not in ("to", "with", "at", "of", "and", "i", "me"):
            start -= 1
        if start == 0 or ws[start - 1].lower() not in _DESCRIBE_OPENERS:
            continue
        rest = " ".join(ws[start:i + 1])
        opener = ws[start - 1].lower()
        return f"The {rest}" if opener in ("the", "a", "an") else f"This {rest}"
    return ""
