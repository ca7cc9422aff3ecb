"""Words of a player's fiction as tokens: contractions opened, lemmas, negation, people.

``tokens(text, names)`` splits the text into words and marks, opens contractions ("don't" ->
"do not"), lemmatises each word with lemminflect's dictionary (verbs first: "hiding" -> "hide",
"felt" -> "feel"), marks the words a negation covers ("I don't attack, I talk him down": "attack"
is negated, the rest is not), marks people (pronouns, the names given, and capitalised words
no dictionary knows) and questions ("is he lying?", "what is she hiding").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

_TOKEN = re.compile(r"[A-Za-z0-9]+(?:'[A-Za-z]+)*|[?!.,;:\"()]")
_QUOTES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"', "`": "'"})

#: Function words: never features on their own (phrases still see them).
_STOP_TEXT = """
a an the and or but so yet nor if then than that this these those there here of to in on at
for with from by as into onto upon about over under up down off out through across around
i me my mine myself we us our ours ourselves you your yours yourself it its itself
be am is are was were been being do does did doing have has had having will would shall
should can could may might must just very really quite also too even still again ever
some any all every each both either neither one ones something someone somebody anything
anyone everyone everything nothing let get got go going gonna wanna gotta try trying
"""
STOPWORDS = frozenset(_STOP_TEXT.split())

#: Words that point at a person who is not the speaker.
_PRONOUN_TEXT = "he him his she her hers they them their theirs himself herself themselves"
PRONOUNS = frozenset(_PRONOUN_TEXT.split())

_NEGATORS = frozenset({"not", "never", "nor"})
_SCOPE_END = frozenset({",", ";", ".", "!", "?", ":", '"', "(", ")", "but", "instead",
                        "then", "so"})
_WH = frozenset({"what", "who", "whom", "whose", "why", "where", "when", "how", "which"})
_AUX = frozenset({"is", "are", "was", "were", "do", "does", "did", "can", "could", "will",
                  "would", "has", "have", "had", "should", "am"})

_CONTRACTIONS: dict[str, tuple[str, ...]] = {
    "can't": ("can", "not"), "cannot": ("can", "not"), "won't": ("will", "not"),
    "shan't": ("shall", "not"), "ain't": ("is", "not"), "let's": ("let", "us"),
    # common apostrophe-less spellings
    "dont": ("do", "not"), "doesnt": ("does", "not"), "didnt": ("did", "not"),
    "cant": ("can", "not"), "isnt": ("is", "not"), "wasnt": ("was", "not"),
    "arent": ("are", "not"), "werent": ("were", "not"), "couldnt": ("could", "not"),
    "wouldnt": ("would", "not"), "shouldnt": ("should", "not"), "havent": ("have", "not"),
    "hasnt": ("has", "not"), "im": ("i", "am"), "ive": ("i", "have"),
    "youre": ("you", "are"), "theyre": ("they", "are"),
}
_SUFFIXES = {"n't": ("not",), "'m": ("am",), "'re": ("are",), "'ve": ("have",),
             "'ll": ("will",), "'d": ("would",)}
_IS_BEFORE = frozenset({"he", "she", "it", "that", "what", "who", "there", "here", "where",
                        "how", "everyone", "nobody", "someone"})
_FORMS = {"am": "be", "is": "be", "are": "be", "was": "be", "were": "be", "been": "be",
          "being": "be", "does": "do", "did": "do", "doing": "do", "has": "have", "had": "have",
          "having": "have", "got": "get", "going": "go"}
_POS_ORDER = ("VERB", "NOUN", "ADJ", "ADV", "AUX", "PROPN")


@dataclass(frozen=True, slots=True)
class Token:
    """One word or mark: as typed, its lemma, and what the sentence does to it."""

    text: str
    lemma: str
    neg: bool = False
    person: bool = False
    question: bool = False
    quoted: bool = False

    @property
    def mark(self) -> bool:
        """Punctuation, not a word."""
        return not self.lemma[:1].isalnum()

    @property
    def stop(self) -> bool:
        """A function word (or a mark): no feature of its own."""
        return self.mark or self.lemma in STOPWORDS


def _all_lemmas(word: str) -> dict[str, tuple[str, ...]]:
    """lemminflect's lemmas of ``word`` by part of speech (its tables load on first use,
    about 0.2 s)."""
    import lemminflect

    return lemminflect.getAllLemmas(word)


@lru_cache(maxsize=65536)
def lemmas(word: str) -> tuple[str, ...]:
    """The dictionary lemmas of a lower-case word, verbs first; () when it is unknown."""
    found = _all_lemmas(word)
    out: list[str] = []
    for pos in _POS_ORDER:
        for lem in found.get(pos, ()):
            if lem.lower() not in out:
                out.append(lem.lower())
    for pos, lems in found.items():
        for lem in lems:
            if pos not in _POS_ORDER and lem.lower() not in out:
                out.append(lem.lower())
    return tuple(out)


@lru_cache(maxsize=65536)
def is_verb(word: str) -> bool:
    """Whether the dictionary knows this lower-case word as a verb."""
    return "VERB" in _all_lemmas(word)


@lru_cache(maxsize=65536)
def is_noun(word: str) -> bool:
    """Whether the dictionary knows this lower-case word as a noun."""
    return "NOUN" in _all_lemmas(word)


@lru_cache(maxsize=65536)
def is_adverb(word: str) -> bool:
    """Whether the dictionary knows this lower-case word as an adverb ("straight", "hard")."""
    return "ADV" in _all_lemmas(word)


def lemma(word: str) -> str:
    """The lemma of a word ("hiding" -> "hide"); the word itself when no dictionary knows it."""
    word = word.lower()
    if word in STOPWORDS or word in PRONOUNS:
        return _FORMS.get(word, word)
    found = lemmas(word)
    return found[0] if found else word


def known(word: str) -> bool:
    """Whether the dictionary (or the stopword list) knows this lower-case word."""
    return word in STOPWORDS or word in PRONOUNS or bool(lemmas(word))


def words(text: str) -> list[str]:
    """The words and marks of ``text``, quotes normalised, contractions opened."""
    out: list[str] = []
    for raw in _TOKEN.findall(text.translate(_QUOTES)):
        low = raw.lower()
        if low in _CONTRACTIONS:
            out += _CONTRACTIONS[low]
            continue
        for suffix, rest in _SUFFIXES.items():
            if low.endswith(suffix) and len(low) > len(suffix):
                head = raw[: -len(suffix)]
                out += [head, *rest]
                break
        else:
            if low.endswith("'s") and len(low) > 2:
                head = raw[:-2]
                out.append(head)
                if head.lower() in _IS_BEFORE:
                    out.append("is")  # he's -> he is; Dusk's -> Dusk (a possessive)
            elif low.endswith("s'") and len(low) > 2:
                out.append(raw[:-1])
            else:
                out.append(raw.strip("'"))
    return [w for w in out if w]


def find_names(ws: Sequence[str], names: Sequence[Sequence[str]]) -> dict[int, int]:
    """Word index -> index in ``names`` (lower-case word lists) of the name it belongs to.

    Longer names first. A one-word name that is also an English word ("Dusk", "Tin") counts
    only capitalised, unless the whole text is lower case; there a trailing "s" is allowed
    too ("marrows bots")."""
    lowered = not any(w[:1].isupper() for w in ws)
    low = [w.lower() for w in ws]
    hit: dict[int, int] = {}
    order = sorted(range(len(names)), key=lambda k: -len(names[k]))
    for k in order:
        name = tuple(names[k])
        n = len(name)
        if not n:
            continue
        for i in range(len(low) - n + 1):
            if any(j in hit for j in range(i, i + n)):
                continue
            here = tuple(low[i:i + n])
            if here != name and not (lowered and n == 1 and here[0] == name[0] + "s"):
                continue
            if n == 1 and not lowered and not ws[i][:1].isupper() and known(name[0]):
                continue
            hit.update((j, k) for j in range(i, i + n))
    return hit


def tokens(text: str, names: Sequence[Sequence[str]] = ()) -> list[Token]:
    """The tokens of ``text``; ``names``: people's names (and their parts) as word lists."""
    ws = words(text)
    named = find_names(ws, list(names))
    out: list[Token] = []
    neg = quoted = False
    sentence_from = 0
    for i, w in enumerate(ws):
        low = w.lower()
        if low == '"':
            quoted = not quoted
            neg = False
            out.append(Token(w, low, quoted=quoted))
            continue
        if low in _NEGATORS:
            neg = True
            out.append(Token(w, low, quoted=quoted))
            continue
        if low in _SCOPE_END:
            neg = False
        if low in (".", "!", "?"):
            if low == "?":  # the whole sentence is a question
                out[sentence_from:] = [_asked(t) for t in out[sentence_from:]]
            out.append(Token(w, low, quoted=quoted, question=low == "?"))
            sentence_from = len(out)
            continue
        # a name given, a pronoun, or a capitalised word no dictionary knows (Mara, Brannoc)
        person = i in named or low in PRONOUNS or (
            w[:1].isupper() and low != "i" and not known(low))
        lem = "PERSON" if person else lemma(low)
        out.append(Token(w, lem, neg=neg and not _is_mark(low), person=person, quoted=quoted))
    # a sentence that opens like a question is one, with or without its "?"
    _mark_open_questions(out)
    return out


def _is_mark(word: str) -> bool:
    return not word[:1].isalnum()


def _asked(t: Token) -> Token:
    return Token(t.text, t.lemma, t.neg, t.person, True, t.quoted)


def _mark_open_questions(out: list[Token]) -> None:
    begin = 0
    for i in range(len(out) + 1):
        if i == len(out) or out[i].lemma in (".", "!", "?", '"'):
            seg = out[begin:i]
            if (seg and not seg[0].question and len(seg) > 1
                    and (seg[0].lemma in _WH or (seg[0].text.lower() in _AUX
                                                 and (seg[1].person or seg[1].lemma in
                                                      ("i", "you", "we", "it", "there"))))):
                out[begin:i] = [_asked(t) for t in seg]
            begin = i + 1
