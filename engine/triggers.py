"""Fiction text to ranked move suggestions, each with the player's words that led to it.

How it reads a line ("I study Dusk. What is he hiding behind that grin?"):

1. ``engine.nlp.english`` splits it into words, opens contractions, lemmatises each word
   ("hiding" -> "hide"), drops the words a negation covers ("I don't attack, I talk him
   down"), and marks people (pronouns, NPC names, unknown capitalised words) and questions.
2. Each word gives features: its lemma, the concepts of the shipped English lexicon it belongs
   to ("slug" -> strike), lexicon phrases ("talk him down"), word pairs, and marks of intent:
   a question, a person acted on, speech in quotes, "we", and an order given to someone
   ("Hester, find me the minutes"). A word no dictionary knows is
   corrected to the nearest word the pack uses ("grabbign" -> "grab").
3. Each move is learned from its content: name, trigger, cues and example fictions (``examples``
   in ``moves.yaml`` or ``examples.yaml``); ``none`` examples teach plain description.
   Moves are ranked by a multinomial naive Bayes score over those features (chosen by
   measurement against the alternatives in ``benchmarks/bench_detection.py``), and a cue
   found word for word in the fiction adds a bonus.
4. "No move" ranks like a move (with a bias: a move must explain the words clearly); shown
   when it is among the first three, and the best three moves still follow it.

Every suggestion lists the words that weighed most for it, so the player sees why.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from engine.content import schema as s
from engine.content.loader import Pack
from engine.nlp.beat import Beat, beat_of, self_moved
from engine.nlp.english import (
    PRONOUNS,
    STOPWORDS,
    Token,
    find_names,
    is_verb,
    known,
    lemma,
    tokens,
    words,
)
from engine.nlp.lexicon import Lexicon, default_lexicon

NO_MOVE = "none"
"""The key of plain-description examples, and the class "no move"."""

# Feature weights, chosen on the development lines (benchmarks/detection/dev/).
WORD_W = 1.0
CONCEPT_W = 0.6
PHRASE_W = 0.9
BIGRAM_W = 0.5
QUESTION_W = 1.0
PERSON_W = 0.6
SPEECH_W = 0.6
WE_W = 0.6
ORDER_W = 1.0
BEAT_W = 1.5  # who does what to whom: the hero receiving a blow, dealing one, threatening...
RECEIVE_GATE = 4.0  # log-score taken from a move learned from receiving lines (most of its
# examples have the hero receive) when the line has the hero deal violence instead
PRESSURE_LEAD = 1.0  # a line that threatens or belittles someone puts the moves learned
# from social pressure (threats, taunts, insults) this far ahead of the best other move
OPEN_GATE = 4.0  # log-score taken from a move learned mostly from lines where a foe is
OPEN_SHARE = 0.5  # already open (this share of them) when the line deals violence without
# it; such a move is also put after the best other move
DEAL_BONUS = 4.0  # log-score added to the moves learned most from lines where the hero deals
DEAL_SHARE = 0.8  # violence (this share of the highest) when the line deals violence
# (Masks: Directly engage, Enter battle; City of Whispers: Take a Big Risk and two faction
# moves, which no measured line changed)
JIBE_BONUS = 4.0  # log-score added to those moves when someone is told something belittling
PRESSURE_SHARE = 0.4  # ... the moves with at least this share of such training lines
# (Masks: Provoke 76%, the next 21%; City of Whispers: none, its highest is 21%)
RECEIVING_SHARE = 0.25  # a move is learned from receiving lines when this share of its
# training lines have the hero receive (Masks: Take a powerful blow 37%, the next 11%)
NAME_W = 2.0  # a move's name, as one training line
TRIGGER_W = 1.0
CUE_W = 1.0
CUE_BONUS = 3.0  # log-score added per cue found word for word
ALPHA = 0.1  # additive smoothing
NONE_SLOT = 2  # "no move" is shown when it ranks among the first NONE_SLOT + 1
RECALL_BONUS = 4.0
"""Log-score added to "no move" when the line remembers ("she remembers the fire")."""
NONE_BIAS = 2.0  # log-score added to "no move": a move must explain the words clearly,
NONE_PER = 0.2  # and more so the more words there are

MAX_TEXT = 4000
"""Only the first characters of a very long line are read (a line of play is far shorter)."""
MAX_FIX = 20
"""Longer unknown words are not spell-corrected."""

_WE = frozenset({"we", "us", "our", "ours", "ourselves"})


@dataclass(frozen=True, slots=True)
class Feature:
    """One feature of a line: its key, weight and the words it came from."""

    key: str
    weight: float
    at: tuple[int, ...]


def features(toks: Sequence[Token], lexicon: Lexicon, beat: Beat | None = None
             ) -> list[Feature]:
    """The features of a tokenised line (see the module's docstring, step 2); ``beat``: its
    reading, when already made."""
    out: list[Feature] = beat_features(beat if beat is not None else beat_of(toks,
                                                                           lexicon=lexicon))
    content: list[int] = []
    for i, t in enumerate(toks):
        if t.neg or t.stop or t.person:
            continue
        content.append(i)
        out.append(Feature("w:" + t.lemma, WORD_W, (i,)))
        out += [Feature("c:" + c, CONCEPT_W, (i,))
                for c in sorted(self_moved(toks, i, frozenset(lexicon.concepts(t.lemma))))]
    for a, b in itertools.pairwise(content):
        if b - a <= 2:
            out.append(Feature(f"b:{toks[a].lemma}_{toks[b].lemma}", BIGRAM_W, (a, b)))
    lems = [t.lemma if not t.neg else "" for t in toks]
    out += [Feature("c:" + c, PHRASE_W, tuple(at)) for c, at in lexicon.phrase_hits(lems)]
    asked = next((i for i, t in enumerate(toks) if t.question and not t.quoted), None)
    if asked is None:
        asked = next((i for i, t in enumerate(toks) if t.question), None)
    if asked is not None:
        q = next((i for i, t in enumerate(toks) if t.lemma == "?"), asked)
        out.append(Feature("Q", QUESTION_W, (q,)))
    person = next((i for i, t in enumerate(toks) if t.person and not t.neg), None)
    if person is not None:
        out.append(Feature("PERSON", PERSON_W, (person,)))
    bid = _order_at(toks)
    if bid is not None:
        out.append(Feature("ORDER", ORDER_W, (bid,)))
    we = next((i for i, t in enumerate(toks) if t.lemma in _WE and not t.neg), None)
    if we is not None:
        out.append(Feature("WE", WE_W, (we,)))
    said = next((i for i, t in enumerate(toks) if t.quoted), None)
    if said is not None:
        out.append(Feature("SAY", SPEECH_W, (said,)))
    return out


def beat_features(beat: Beat) -> list[Feature]:
    """Features of who does what to whom: ``B:recv`` (the hero receives), ``B:deal`` (the
    hero deals violence), ``B:threat``, ``B:jibe``, ``B:ask`` (a question put to someone)."""
    out = []
    if beat.receives:
        out.append(Feature("B:recv", BEAT_W, ()))
    if beat.deals_violence:
        out.append(Feature("B:deal", BEAT_W, ()))
    if beat.threat:
        out.append(Feature("B:threat", BEAT_W, ()))
    if beat.jibe:
        out.append(Feature("B:jibe", BEAT_W, ()))
    if beat.asks_someone:
        out.append(Feature("B:ask", BEAT_W, ()))
    return out


def _order_at(toks: Sequence[Token]) -> int | None:
    """Where someone is told to do something: a verb in its bare form that opens what is said
    in quotes, or follows a name and a comma ("Hester, find me the minutes"), or a verb, a
    person and "to" before a bare verb ("I ask Odile to fence it")."""
    for i in range(1, len(toks) - 2):
        if (toks[i].person and not toks[i - 1].stop and is_verb(toks[i - 1].text.lower())
                and toks[i + 1].text.lower() == "to" and _bare_verb(toks[i + 2])):
            return i + 2
    for i, t in enumerate(toks):
        opens = i == 0 or toks[i - 1].lemma == '"'
        if t.lemma == '"' or not opens:
            continue
        j = i
        while j < len(toks) and toks[j].person and toks[j].text.lower() not in PRONOUNS:
            j += 1
        if j > i:  # a name said first, then a comma
            if j >= len(toks) or toks[j].lemma != ",":
                continue
            j += 1
        elif not t.quoted:
            continue  # a bare "grab the kid" is the player's own action, not an order
        if j < len(toks) and _bare_verb(toks[j]):
            return j
    return None


def _bare_verb(t: Token) -> bool:
    word = t.text.lower()
    return not t.stop and not t.person and t.lemma == word and is_verb(word)


@dataclass(frozen=True, slots=True)
class Suggestion:
    """A move the fiction may trigger (``move`` None: no move), why, and how strongly."""

    move: str | None
    name: str
    score: float
    words: tuple[str, ...] = ()
    cue: str = ""

    def to_dict(self) -> dict[str, object]:
        """Plain form for the flow and JSON output."""
        return {"move": self.move, "name": self.name, "score": self.score,
                "cue": self.cue or ", ".join(self.words), "words": list(self.words)}


NO_MOVE_NAME = "No move, just fiction"


@dataclass
class _Class:
    counts: dict[str, float] = field(default_factory=dict)
    total: float = 0.0
    cues: list[tuple[str, str]] = field(default_factory=list)
    """(cue as written, its lemmas joined and padded with spaces, as looked for in a line)."""
    lines: float = 0.0
    received: float = 0.0
    pressed: float = 0.0
    opened: float = 0.0
    dealt: float = 0.0
    """Training lines (weighed), those of them where the hero receives the action, and those
    that put social pressure on someone."""

    @property
    def receiving(self) -> bool:
        """Learned from lines where the hero is on the receiving end (``RECEIVING_SHARE``)."""
        return self.lines > 0 and self.received / self.lines >= RECEIVING_SHARE


class Matcher:
    """Ranks a pack's moves against fiction; build once per pack (``Matcher.for_pack``)."""

    def __init__(self, moves: Iterable[s.Move], examples: Mapping[str, Sequence[str]] | None
                 = None, no_move: Sequence[str] = (), lexicon: Lexicon | None = None) -> None:
        self.lexicon = lexicon if lexicon is not None else default_lexicon()
        self._names: dict[str, str] = {}
        self._classes: dict[str, _Class] = {}
        examples = examples or {}
        for m in moves:
            self._names[m.id] = m.name
            c = self._classes[m.id] = _Class()
            self._learn(c, m.name, NAME_W)
            self._learn(c, m.trigger, TRIGGER_W)
            for cue in m.cues:
                self._learn(c, cue, CUE_W)
                lems = [x.lemma for x in tokens(cue) if not x.mark]
                if lems:
                    c.cues.append((cue, " " + " ".join(lems) + " "))
            for line in (*m.examples, *examples.get(m.id, ())):
                self._learn(c, line, 1.0)
        if no_move:
            c = self._classes[NO_MOVE] = _Class()
            for line in no_move:
                self._learn(c, line, 1.0)
        self._vocab = {f for c in self._classes.values() for f in c.counts}
        self._words = {f[2:] for f in self._vocab if f.startswith("w:")}
        self._words.update(self.lexicon.words)
        # a word within one edit of an unknown word of 4..MAX_FIX letters has 3..MAX_FIX + 1
        self._fix_index = _deletes_index(w for w in self._words if 3 <= len(w) <= MAX_FIX + 1)
        shares = {k: c.pressed / c.lines for k, c in self._classes.items()
                  if c.lines and k != NO_MOVE}
        self._pressing = frozenset(k for k, v in shares.items() if v >= PRESSURE_SHARE)
        """The moves learned most from lines of social pressure (Masks: Provoke)."""
        dealt = {k: c.dealt / c.lines for k, c in self._classes.items() if c.lines
                 and k != NO_MOVE}
        top = max(dealt.values(), default=0.0)
        dealing = [k for k, v in dealt.items() if v >= DEAL_SHARE * top]
        # only where dealing violence sets a few moves apart (not among fight actions, most
        # of which deal it)
        self._dealing = frozenset(dealing if len(dealing) <= len(dealt) / 6 else ())
        """The moves learned most from lines where the hero deals violence (Masks: Directly
        engage a threat)."""
        self._opening = frozenset(k for k, c in self._classes.items()
                                  if c.lines and k != NO_MOVE and c.opened / c.lines >= OPEN_SHARE)
        """The moves learned mostly from lines where a foe is already open (Masks: Overwhelm a
        vulnerable foe)."""
        self._logp: dict[str, tuple[dict[str, float], float]] = {}
        size = len(self._vocab) or 1
        mass = sum(c.total for c in self._classes.values()) / (len(self._classes) or 1)
        for cid, c in self._classes.items():
            # every move weighs the same in total, however many examples it has
            scale = mass / c.total if c.total else 1.0
            denom = c.total * scale + ALPHA * size
            self._logp[cid] = ({f: math.log((n * scale + ALPHA) / denom)
                                for f, n in c.counts.items()}, math.log(ALPHA / denom))

    @classmethod
    def for_pack(cls, moves: Iterable[s.Move], examples: Mapping[str, Sequence[str]]
                 ) -> Matcher:
        """A matcher over ``moves`` with the pack's ``examples`` (``none``: no move)."""
        return cls(moves, examples, examples.get(NO_MOVE, ()))

    def _learn(self, c: _Class, text: str, weight: float) -> None:
        toks = tokens(text)
        beat = beat_of(toks, lexicon=self.lexicon)
        c.lines += weight
        c.received += weight * beat.receives
        c.pressed += weight * ("pressure" in beat.kinds)
        c.opened += weight * beat.foe_open
        c.dealt += weight * beat.deals_violence
        for f in features(toks, self.lexicon, beat):
            c.counts[f.key] = c.counts.get(f.key, 0.0) + f.weight * weight
            c.total += f.weight * weight

    def _fixed(self, toks: list[Token]) -> list[Token]:
        """Words no dictionary knows, corrected to the nearest word the pack uses."""
        out = []
        for t in toks:
            word = t.text.lower()
            if (not t.person and not t.stop and t.lemma not in self._words
                    and 4 <= len(word) <= MAX_FIX and not known(word)):
                fix = _correct(word, self._fix_index)
                if fix:
                    t = Token(t.text, lemma(fix), t.neg, t.person, t.question, t.quoted)
            out.append(t)
        return out

    def scores(self, text: str, allowed: Iterable[str] | None = None,
               names: Iterable[Sequence[str]] = ()) -> tuple[dict[str, float], list[Token],
                                                             list[Feature]]:
        """Each move's (and "none"'s) log-score, the tokens and the features read."""
        toks = self._fixed(tokens(text[:MAX_TEXT], list(names)))
        beat = beat_of(toks, lexicon=self.lexicon)
        feats = [f for f in features(toks, self.lexicon, beat) if f.key in self._vocab]
        allow = set(allowed) | {NO_MOVE} if allowed is not None else None
        out: dict[str, float] = {}
        joined = _joined(toks)
        for cid, (logp, unseen) in self._logp.items():
            if allow is not None and cid not in allow:
                continue
            score = sum(f.weight * logp.get(f.key, unseen) for f in feats)
            out[cid] = score + CUE_BONUS * len(self._cues_in(cid, joined))
            if beat.deals_violence and self._classes[cid].receiving:
                out[cid] -= RECEIVE_GATE  # "I punch him" is not "he punches me"
        self._beat_order(out, beat, NONE_BIAS + NONE_PER * sum(f.weight for f in feats))
        if NO_MOVE in out:
            out[NO_MOVE] += NONE_BIAS + NONE_PER * sum(f.weight for f in feats)
            if beat.recalls:  # a memory tells, it does not act
                out[NO_MOVE] += RECALL_BONUS
        elif out:  # a pack with no plain examples: "no move" only when no word is known
            out[NO_MOVE] = min(out.values()) - 1.0
        return out, toks, feats

    def _beat_order(self, out: dict[str, float], beat: Beat, none_bias: float) -> None:
        """Rank by who does what to whom, after the words: a threat puts the moves learned
        from social pressure first, a jibe puts them before "no move" at least, and a blow
        at a foe the line does not say is reeling puts the moves learned from open foes
        after the best other move."""
        none = out.get(NO_MOVE, -math.inf) + none_bias
        others = [v for k, v in out.items() if k not in self._pressing]
        if beat.threat or beat.jibe:
            floor = max([*others, none]) if beat.threat else none
            for k in self._pressing & out.keys():
                out[k] = max(out[k] + (0.0 if beat.threat else JIBE_BONUS),
                             floor + PRESSURE_LEAD)
        if beat.deals_violence:
            for k in (self._dealing - self._opening) & out.keys():
                out[k] += DEAL_BONUS * (2 if beat.strikes else 1)
        if beat.deals_violence and not beat.foe_open:
            rest = [v for k, v in out.items() if k not in self._opening and k != NO_MOVE]
            for k in self._opening & out.keys():
                out[k] = min(out[k] - OPEN_GATE, max(rest, default=out[k]) - PRESSURE_LEAD)

    def suggest(self, text: str, allowed: Iterable[str] | None = None, limit: int = 3,
                names: Iterable[Sequence[str]] = ()) -> list[Suggestion]:
        """The best moves for ``text``, best first (only moves in ``allowed`` when given);
        "no move" (``move`` None) among them when plain fiction ranks in the top ``limit``.

        Empty when the text has no words."""
        raw, toks, feats = self.scores(text, allowed, names)
        if not any(not t.mark for t in toks):
            return []
        if not feats:  # nothing the pack knows: plain fiction, the rest by prior alone
            raw[NO_MOVE] = max(raw.values(), default=0.0) + 1.0
        means = self._means(feats)
        joined = _joined(toks)
        ranked = sorted(raw.items(), key=lambda kv: (-kv[1], kv[0]))
        top = ranked[0][1] if ranked else 0.0
        norm = sum(math.exp(v - top) for _k, v in ranked) or 1.0
        out: list[Suggestion] = []
        moves_shown = 0
        for cid, sc in ranked:
            prob = round(math.exp(sc - top) / norm, 3)
            if cid == NO_MOVE:
                if len(out) <= NONE_SLOT:
                    out.append(Suggestion(None, NO_MOVE_NAME, prob,
                                          self._why(NO_MOVE, toks, feats, means)))
                continue
            if moves_shown >= limit:
                break
            moves_shown += 1
            found = self._cues_in(cid, joined)
            out.append(Suggestion(cid, self._names[cid], prob,
                                  self._why(cid, toks, feats, means),
                                  max(found, key=len) if found else ""))
        return out

    def _cues_in(self, cid: str, joined: str) -> list[str]:
        """The cues of ``cid`` found word for word in a line (its ``_joined`` lemmas)."""
        return [cue for cue, lems in self._classes[cid].cues if lems in joined]

    def _means(self, feats: Sequence[Feature]) -> dict[str, float]:
        """Each feature's log-probability averaged over the classes."""
        n = len(self._logp) or 1
        return {f.key: sum(lp.get(f.key, u) for lp, u in self._logp.values()) / n
                for f in feats}

    def _why(self, cid: str, toks: Sequence[Token], feats: Sequence[Feature],
             means: Mapping[str, float]) -> tuple[str, ...]:
        """The player's words that weigh most for ``cid`` against the average move."""
        logp, unseen = self._logp[cid]
        weight: dict[int, float] = {}
        for f in feats:
            gain = f.weight * (logp.get(f.key, unseen) - means[f.key])
            # a phrase's weight goes to its words, not to "for" or "the" between them
            at = [i for i in f.at if _telling(toks[i])] or list(f.at)
            if gain > 0:
                for i in at:
                    weight[i] = weight.get(i, 0.0) + gain / len(at)
        best = sorted(weight.items(), key=lambda kv: (-kv[1], kv[0]))[:3]
        return tuple(_shown(toks[i]) for i, _w in sorted(best))


def _joined(toks: Sequence[Token]) -> str:
    """A line's lemmas, space-joined and padded, to find cues in."""
    return " " + " ".join(t.lemma for t in toks) + " "


def _telling(t: Token) -> bool:
    """A word worth showing as a reason: not a function word (a question mark is)."""
    return t.lemma == "?" or t.person or not t.stop

ALIKE = 0.75
"""Two example lines of different moves whose words overlap this much (Jaccard) read alike."""
COMMON_WORD = 300
"""A word in more example lines than this does not make two lines alike on its own."""


def alike_examples(pack: Pack, threshold: float = ALIKE, limit: int = 10) -> list[str]:
    """Warnings for example lines of two different moves that read alike: the matcher cannot
    tell such moves apart by them. Each names the file, both moves and both lines."""
    lines: list[tuple[str, str, frozenset[str]]] = []
    for move in pack.moves.values():
        for line in pack.examples_of(move.id):
            words_ = frozenset(t.lemma for t in tokens(line) if not (t.stop or t.neg))
            if len(words_) >= 3:
                lines.append((move.id, line, words_))
    postings: dict[str, list[int]] = {}
    same: dict[frozenset[str], int] = {}
    found: list[tuple[float, int, int]] = []
    for i, (mid, _l, ws) in enumerate(lines):
        for w in ws:
            postings.setdefault(w, []).append(i)
        first = same.setdefault(ws, i)  # the very same words: found whatever they are
        if first != i and lines[first][0] != mid:
            found.append((1.0, first, i))
    for i, (mid, _line, ws) in enumerate(lines):
        shared: set[int] = set()  # the lines that share a telling word with this one
        for w in ws:
            # words in very many lines tell little; skipping them keeps this linear
            if len(postings[w]) <= COMMON_WORD:
                shared.update(j for j in postings[w] if j > i and lines[j][0] != mid)
        for j in shared:
            sim = len(ws & lines[j][2]) / len(ws | lines[j][2])
            if threshold <= sim < 1.0:
                found.append((sim, i, j))
    found.sort(key=lambda x: (-x[0], x[1], x[2]))
    out = [f"examples: {lines[i][0]} and {lines[j][0]} have examples that read alike"
           f" ({sim:.0%} of their words): {lines[i][1]!r} / {lines[j][1]!r}; the matcher"
           f" cannot tell the moves apart by them" for sim, i, j in found[:limit]]
    if len(found) > limit:
        out.append(f"examples: ... and {len(found) - limit} more pairs that read alike")
    return out


_TITLE_TEXT = """mr mrs ms miss dr doctor sir lady lord madam madame brother sister father
mother captain capt officer agent professor mayor judge master mistress aunt uncle old young"""
TITLES = frozenset(_TITLE_TEXT.split())


def name_variants(name: str) -> list[tuple[str, ...]]:
    """How fiction may name someone: the full name, each hyphenated part of it whole, and each
    of its words but titles ("Captain Renn Aldous": "captain renn aldous", "renn", "aldous";
    "Min-ji Seo": "min-ji seo", "min-ji", "seo")."""
    ws = tuple(w.lower() for w in words(name) if w[:1].isalnum())
    out = [ws] if ws else []
    for raw in name.split():
        joined = tuple(w.lower() for w in words(raw) if w[:1].isalnum())
        if "-" in raw and len(joined) > 1 and joined not in out:
            out.append(joined)
    out += [(w,) for w in ws if len(w) >= 3 and w not in TITLES and w not in STOPWORDS
            and (w,) not in out]
    return out


def people_named(text: str, people: Sequence[tuple[str, str]]) -> list[str]:
    """Ids of the ``people`` ((id, name) pairs) that ``text`` names, in order of appearance."""
    variants: list[tuple[str, ...]] = []
    owner: list[str] = []
    for pid, name in people:
        for v in name_variants(name):
            variants.append(v)
            owner.append(pid)
    hits = find_names(words(text), variants)
    out: list[str] = []
    for i in sorted(hits):
        pid = owner[hits[i]]
        if pid not in out:
            out.append(pid)
    return out


def mentions_someone(text: str) -> bool:
    """Whether the text points at a person with a pronoun (him, her, them...)."""
    return any(w.lower() in PRONOUNS for w in words(text))


def _shown(t: Token) -> str:
    return t.text if t.lemma != "?" else "?"


def _deletes(word: str) -> set[str]:
    return {word[:i] + word[i + 1:] for i in range(len(word))}


def _deletes_index(words: Iterable[str]) -> dict[str, list[str]]:
    """Each word, and each word less one letter, -> the words it comes from."""
    index: dict[str, list[str]] = {}
    for w in words:
        for key in {w, *_deletes(w)}:
            index.setdefault(key, []).append(w)
    return index


def _correct(word: str, index: Mapping[str, Sequence[str]]) -> str | None:
    """The one known word within one edit (a letter added, dropped, changed or two swapped)."""
    found: set[str] = set()
    for key in {word, *_deletes(word)}:
        found.update(c for c in index.get(key, ()) if _one_edit(word, c))
    if not found:
        return None
    return min(found, key=lambda c: (abs(len(c) - len(word)), c))


def _one_edit(a: str, b: str) -> bool:
    if a == b:
        return True
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        return len(diff) == 1 or (len(diff) == 2 and diff[1] == diff[0] + 1
                                  and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]])
    if abs(len(a) - len(b)) != 1:
        return False
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    return any(long_[:i] + long_[i + 1:] == short for i in range(len(long_)))


_MATCHERS: dict[int, tuple[object, Matcher]] = {}
_BY_CONTENT: dict[tuple[object, ...], Matcher] = {}


def matcher_for(pack: Pack) -> Matcher:
    """The matcher of a loaded pack's visible moves, built once per pack content (it reads
    the examples and the lexicon: about half a second the first time)."""
    cached = _MATCHERS.get(id(pack))
    if cached is not None and cached[0] is pack:
        return cached[1]
    moves = [m for m in pack.moves.values() if not m.hidden]
    key = (tuple((m.id, m.name, m.trigger, tuple(m.cues), tuple(m.examples)) for m in moves),
           tuple((k, tuple(v)) for k, v in sorted(pack.examples.items())))
    matcher = _BY_CONTENT.get(key)
    if matcher is None:
        matcher = Matcher.for_pack(moves, pack.examples)
        if len(_BY_CONTENT) >= 8:
            _BY_CONTENT.pop(next(iter(_BY_CONTENT)))
        _BY_CONTENT[key] = matcher
    _MATCHERS[id(pack)] = (pack, matcher)
    return matcher


__all__ = ["ALIKE", "NO_MOVE", "NO_MOVE_NAME", "Matcher", "Suggestion", "alike_examples",
           "features", "matcher_for", "mentions_someone", "name_variants", "people_named"]
