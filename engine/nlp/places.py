"""Places the fiction names, and the one it puts the hero in ("I race to the Drowned Chapel",
"we meet at Halberd Bridge", "down at the docks": the scene's place is now there).

A place is a noun phrase whose last word is a place word (``PLACE_WORDS``: chapel, bridge,
docks, warehouse...), with what comes before it in the phrase: an article ("the docks"), a
possessive ("Marguerite's house", "my apartment") and up to three words that qualify it
("the old Drowned Chapel", "Halberd Bridge"). The hero is *there* when the phrase follows a
preposition of going or being somewhere (to, into, at, in, inside, toward, onto, or the verbs
reach and enter), in a sentence that is not a question, not negated ("I don't go to the
docks") and not aimed elsewhere ("I look at the tower", "I send her to the docks"). When a
line names several, the last is where the hero ends up ("from the docks to the chapel").

A few patterns over the words, no parser; pure functions, linear in the line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

PLACE_WORDS = frozenset({
    "city", "town", "village", "street", "avenue", "boulevard", "road", "lane", "row",
    "square", "plaza", "park", "bridge", "tower", "towers", "chapel", "church", "cathedral",
    "abbey", "monastery", "convent", "temple", "shrine", "cemetery", "graveyard", "crypt",
    "station", "terminal", "airport", "hangar", "harbor", "harbour", "port", "docks", "dock",
    "pier", "wharf", "quay", "canal", "market", "bazaar", "hall", "house", "manor", "mansion",
    "estate", "palace", "castle", "fort", "fortress", "school", "academy", "university",
    "campus", "hospital", "clinic", "museum", "gallery", "theater", "theatre", "arena",
    "stadium", "bay", "cove", "beach", "shore", "island", "district", "quarter", "heights",
    "mall", "building", "warehouse", "factory", "plant", "foundry", "mill", "garage",
    "club", "bar", "pub", "tavern", "inn", "cafe", "diner", "restaurant", "shop", "store",
    "pawnshop", "bank", "vault", "office", "apartment", "apartments", "flat", "loft",
    "tenement", "library", "lab", "laboratory", "base", "headquarters", "hq", "hideout",
    "lair", "precinct", "prison", "jail", "embassy", "river", "lake", "mountain", "forest",
    "woods", "alley", "alleyway", "garden", "gardens", "tunnel", "tunnels", "sewer", "sewers",
    "subway", "mine", "ruins", "caves", "cave", "rooftops", "courtyard", "yard", "cellar",
    "basement", "attic", "slums", "exchange", "gate", "gates", "rooftop", "gym", "ship"})
"""Words that end a place's name ("Halberd City", "the Drowned Chapel", "the docks")."""

_BROAD = frozenset({"city", "town", "village", "district", "quarter", "heights", "island",
                    "bay", "river", "lake", "mountain", "forest", "woods", "world"})
"""Place words too broad to move a scene unless named ("Halberd City", not "the city": "the
best hero in the city" stays where it is)."""

_TOKEN = re.compile(r"[A-Za-z0-9]+(?:'[A-Za-z]+)*|[?!.,;:\"()]")
_QUOTES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"'})
_DETERMINERS = frozenset({"the", "a", "an", "my", "our", "your"})
"""Words a place's phrase may open with (kept: "the docks", "my apartment")."""
_OTHERS = frozenset({"his", "her", "their", "its", "this", "that", "these", "those", "some",
                     "any", "every", "each", "no", "another", "which", "what", "whose"})
"""Openers that leave it unclear which place, or whose: no scene's place then."""
_THERE = frozenset({"to", "2", "into", "at", "in", "inside", "toward", "towards", "onto",
                    "reach", "reaches", "reached", "reaching", "enter", "enters", "entered",
                    "entering"})
"""Words after which a place is where the hero goes or is."""
_ELSEWHERE = frozenset({
    "look", "looks", "looked", "looking", "stare", "stares", "stared", "staring", "glance",
    "glances", "glanced", "gaze", "gazes", "gazed", "peer", "peers", "peered", "glare",
    "glares", "glared", "point", "points", "pointed", "pointing", "aim", "aims", "aimed",
    "shoot", "shoots", "shot", "fire", "fires", "fired", "wave", "waves", "waved", "signal",
    "signals", "signaled", "signalled", "send", "sends", "sent", "throw", "throws", "threw",
    "hurl", "hurls", "hurled", "toss", "tosses", "tossed", "fling", "flings", "flung",
    "write", "writes", "wrote", "talk", "talks", "talked", "speak", "speaks", "spoke",
    "listen", "listens", "listened", "tell", "tells", "told", "ask", "asks", "asked",
    "leave", "leaves",
    "left", "flee", "flees", "fled", "remember", "remembers", "remembered", "mention",
    "mentions", "mentioned", "used", "plan", "plans", "planned", "want", "wants", "wanted",
    "will", "would", "should", "could", "might", "tomorrow", "later", "if", "unless"})
"""Words between the start of the clause and the preposition that aim the place elsewhere
(at someone's gaze or throw, someone sent), or say it is not where the hero is now."""
_CLAUSE = frozenset({",", ";", ".", "!", "?", ":", '"', "(", ")", "and", "but", "then",
                     "while", "so", "until", "before", "after", "because", "when", "where"})
_NEGATIONS = frozenset({"not", "never", "no", "nor", "cannot"})
_WH = frozenset({"who", "what", "why", "where", "when", "how", "which", "whose", "is", "are",
                 "do", "does", "did", "can", "could", "will", "would", "should", "whats",
                 "wheres", "whos", "hows", "what's", "where's", "who's", "how's"})
_ENDERS = frozenset({
    "and", "or", "but", "then", "so", "as", "while", "when", "where", "because", "before",
    "after", "until", "with", "without", "to", "for", "of", "on", "in", "at", "by", "into",
    "from", "across", "through", "over", "under", "up", "down", "off", "out", "around",
    "again", "now", "fast", "first", "too", "just", "tonight", "myself", "ourselves", "is",
    "was", "are", "were", "i", "we", "he", "she", "they", "it", "that", "which", "who", "lol"})
"""Words that may follow a place's last word (anything else continues the phrase: "the bar
owner" is a person, not the bar)."""
_MAX_BEFORE = 3


@dataclass(frozen=True, slots=True)
class Place:
    """A place named in the words."""

    text: str
    """The place as written, with its article or possessive ("the Drowned Chapel")."""
    there: bool
    """The hero goes or is there (it follows "to", "at", "into"...)."""
    proper: bool
    """It has a proper name (a capitalised word before its place word: "Halberd Bridge")."""


def _words(text: str) -> list[str]:
    return _TOKEN.findall(text.translate(_QUOTES))


def _nice(word: str) -> bool:
    """A word that may qualify a place ("old", "Drowned", "Marguerite's")."""
    low = word.lower()
    return (word[:1].isalnum() and low not in _ENDERS and low not in _THERE
            and low not in _DETERMINERS and low not in _OTHERS and low not in _NEGATIONS
            and low not in _CLAUSE)


def _phrase(ws: list[str], end: int) -> tuple[int, bool] | None:
    """Where the place phrase ending at ``end`` (its place word) starts, and whether its
    opener is clear (an article, "my"/"our", a possessive name, a proper name or nothing
    unclear); None when no place ends here."""
    if end + 1 < len(ws) and ws[end + 1][:1].isalnum() and ws[end + 1].lower() not in _ENDERS \
            and not ws[end + 1].lower().endswith("ly"):
        return None  # the phrase goes on: "the bar owner"
    start = end
    while start > 0 and end - start < _MAX_BEFORE and _nice(ws[start - 1]):
        start -= 1
    if start == 0 or ws[start - 1].lower() not in _DETERMINERS:
        while start < end and not ws[start][:1].isupper():  # "ask about Halberd Bridge"
            start += 1
    opener = ws[start - 1].lower() if start > 0 else ""
    if opener in _DETERMINERS:
        return start - 1, True
    proper = any(w[:1].isupper() for w in ws[start:end + 1])
    return start, opener not in _OTHERS and (proper or opener in _THERE)


def _there(ws: list[str], start: int) -> bool:
    """Whether the phrase starting at ``start`` follows a word of going or being there, in a
    clause that neither negates, asks, nor aims it elsewhere."""
    if start == 0 or ws[start - 1].lower() not in _THERE:
        return False
    i = start - 1
    while i > 0 and ws[i - 1].lower() not in _CLAUSE:
        i -= 1
        low = ws[i].lower()
        if low in _ELSEWHERE or low in _NEGATIONS or low.endswith("n't"):
            return False
    sentence = i
    while sentence > 0 and ws[sentence - 1] not in (".", "!", "?"):
        sentence -= 1
    if ws[sentence].lower() in _WH:
        return False
    after = start
    while after < len(ws) and ws[after] not in (".", "!", "?"):
        after += 1
    return not (after < len(ws) and ws[after] == "?")


def places(text: str) -> tuple[Place, ...]:
    """The places ``text`` names, in order."""
    ws = _words(text)
    out: list[Place] = []
    for end, w in enumerate(ws):
        if w.lower() not in PLACE_WORDS:
            continue
        found = _phrase(ws, end)
        if found is None or not found[1]:
            continue
        start = found[0]
        proper = any(x[:1].isupper() for x in ws[start:end + 1]
                     if x.lower() not in _DETERMINERS)
        there = _there(ws, start) and (proper or w.lower() not in _BROAD)
        out.append(Place(" ".join(ws[start:end + 1]), there, proper))
    return tuple(out)


def scene_place(text: str) -> str | None:
    """Where the words put the hero: the last place named after "to", "at", "into"... in a
    sentence that does not ask, negate or aim elsewhere; None when they put the hero nowhere
    new. "I race to the Drowned Chapel": "the Drowned Chapel"."""
    there = [p for p in places(text) if p.there]
    return there[-1].text if there else None
