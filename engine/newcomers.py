"""People the fiction names who are not in the story yet ("I ask Augustin who owned it before
Sister Marguerite": Sister Marguerite), so the app can offer to add them to the cast."""

from __future__ import annotations

from engine.nlp.english import known, words
from engine.rules.state import CampaignState
from engine.triggers import name_variants

_ENDS = frozenset({".", "!", "?", ":", ";", "\"", "“", "”"})
"""Marks after which a capital starts a sentence (not a name)."""
_NOT_NAMES = frozenset({"i", "i'm", "i'll", "i've", "i'd", "gm", "ok", "okay", "tv"})
_MAX_WORDS = 4
PLACE_WORDS = frozenset({
    "city", "town", "street", "avenue", "road", "lane", "square", "park", "bridge", "tower",
    "chapel", "church", "cathedral", "station", "harbor", "harbour", "docks", "dock", "pier",
    "market", "hall", "house", "manor", "school", "academy", "hospital", "museum", "bay",
    "island", "district", "quarter", "heights", "mall", "plaza", "building", "warehouse",
    "club", "bar", "cafe", "diner", "library", "lab", "base", "headquarters", "hq", "river",
    "lake", "mountain", "forest", "alley", "garden", "gardens", "tunnel", "tunnels", "mine"})
"""A run of capitalised words ending in one of these names a place, not a person."""


def newcomers(state: CampaignState, text: str) -> tuple[str, ...]:
    """Names in ``text`` of no one in the story, in order: runs of capitalised words inside a
    sentence, or at a sentence's start from the first word no dictionary knows ("Tell Dani
    to run": Dani). Names of the cast and the heroes (any part of them) and places ("Halberd
    City") are left out."""
    taken = {v for a in state.actors.values() for v in name_variants(a.name)}
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
