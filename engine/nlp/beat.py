"""A typed reading of one fiction line: who does what to whom (a "beat").

``read_beat("Gravecourt punches me through the wall", cast=["Gravecourt"])`` reads who acts
(the hero, a named character of the cast, someone else), whether the hero is on the receiving
end ("he punches me", "I take a hit", "the blast slams into me", "I get thrown through a
window"), what kinds of action it is (violence, powers, protection, social pressure, emotional
support, reading people, perception, movement, stealth, risk), whom it touches (the cast
names it names), whether it is negated and whether it is a question.

Built from what the matcher already reads: ``engine.nlp.english`` tokens (lemmas, negation,
people, questions) and the shipped lexicon's concepts, plus a few patterns of grammar around
the verb: the subject before it ("I", a name, "the blast") and "me"/"my" after it. No parser
and nothing downloaded: a dependency parser would be more general, but none small enough
installs with its model from the package index, and these patterns cover the cases that
decide a move (doing or receiving, threatening, taunting). Pure functions, linear in the line.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.nlp.english import (
    STOPWORDS,
    Token,
    find_names,
    is_adverb,
    is_noun,
    known,
    tokens,
    words,
)
from engine.nlp.lexicon import Lexicon, default_lexicon
from engine.nlp.places import PLACE_WORDS


def _words(text: str) -> frozenset[str]:
    """The set of the words of ``text``."""
    return frozenset(text.split())


HERO = "hero"
CHARACTER = "character"
SOMEONE = "someone"

KINDS: Mapping[str, frozenset[str]] = {
    "violence": _words("strike attack shoot stab tackle grapple overpower finish_off kill "
    "charge_in weapon disarm destroy explosion"),
    "powers": _words("use_power blast summon fire_heat cold_ice electricity light_glow "
    "darkness_shadow levitate teleport transform telekinesis mind_powers "
    "strength speed toughness magic ritual lose_control"),
    "protection": _words("shield protect block shove_aside rescue"),
    "pressure": _words("threaten taunt insult blackmail challenge"),
    "support": _words("comfort listen_support empathy"),
    "reading": _words("read_person lie motive want_desire really_truth inner_self"),
    "perception": _words("look_closely notice search listen_in sense_danger situation"),
    "movement": _words("travel cross navigate route leap climb chase flee arrive leave"),
    "stealth": _words("sneak hide_out avoid disguise"),
    "risk": _words("dare_risk steal break_in"),
}
"""Kinds of action, each the lexicon concepts that say it."""

_HURT = _words("knocked_down impact pinned wounded winded")
"""Concepts of being hurt: the hero said to do these ("I go down hard") receives."""
_HITTING = KINDS["violence"] | frozenset({"throw", "blast", "explosion"}) | _HURT
_HIT_WORDS = _words("hit clip catch slam smash crash throw fling hurl blast punch kick "
    "knock send sweep hammer pound rock flatten floor drop bury pin crush "
    "strike shoot stab slash cut burn zap shock blow beating bullet shot")
_ME = frozenset({"me", "myself", "my"})
_HERO_SUBJECT = frozenset({"i", "we"})
_SUFFER = frozenset({"take", "get", "be", "catch", "eat", "absorb"})
"""Verbs that, with the hero as subject, receive what follows ("I take a hit", "I get
thrown", "I am knocked", "I catch a bullet")."""
_CLAUSE_END = frozenset({",", ";", ".", "!", "?", ":", '"', "(", ")", "and", "but", "then",
                         "while", "so", "as", "until", "before", "after", "because"})
_ARTICLES = frozenset({"the", "a", "an", "someone", "something", "everyone"})
_WH = frozenset({"who", "what", "why", "where", "when", "how", "which", "whose", "whether"})
_SPEECH = frozenset({"tell", "say", "yell", "shout", "call", "scream", "snap", "sneer",
                     "whisper", "warn", "remind", "inform"})
_JIBES = _words("boring broke pathetic stupid ugly weak loser coward idiot useless lame "
                "joke clown fake cheap washed dumb moron chicken pitiful")
_OPEN = _words("reel daze dazed stun stunned helpless vulnerable open exposed weaken weakened "
               "stagger finish already defenseless winded unconscious pin pinned down "
               "falter wobble sprawl dizzy opening")
"""Words that say a foe is already open or reeling ("finish him while he's dazed")."""
_MENACE = frozenset({"threaten", "warn", "intimidate", "menace", "scare"})
"""Verbs that threaten the person after them ("I warn the Abbess")."""
_DETERMINERS = frozenset({"the", "a", "an", "my", "his", "her", "their", "your", "its", "our",
                          "this", "that"})
_VAGUE = _words("way time moment thing lot bit rest end side kind sort while chance second "
                "minute hour day night one best worst same other whole hand hands eye eyes "
                "head face voice breath word words fist fists arm arms leg legs foot feet "
                "jaw shoulder shoulders back chest knee knees elbow finger fingers teeth none")
"""Nouns that name no object worth keeping ("the way", "my fist")."""
_PRONOUN_WORDS = frozenset({"he", "him", "his", "she", "her", "hers", "they", "them", "their",
                            "it", "its", "i", "me", "my", "we", "us", "you"})
_ABOUT = frozenset({"about", "regarding", "concerning"})
_TOPIC_MAX = 5
_PHRASE_MAX = 3
_PREPOSITIONS = frozenset({"against", "toward", "towards", "behind", "between", "beneath",
                           "beside", "among", "past", "near", "inside", "outside", "without",
                           "until", "like", "via", "despite", "around", "along"})
"""Words that end a phrase ("my ground against the Abbess": my ground)."""
_PLACE_PREPS = frozenset({"at", "to", "into", "in", "inside", "toward", "towards", "from",
                          "near", "outside", "across", "through", "onto", "under", "behind",
                          "past", "reach", "enter", "leave", "visit"})
"""Words before "the <place>" that make it the scene's place, not a thing ("I rip the
tower's antenna off" names no place; "I race to the chapel" does)."""
_DRIVE = frozenset({"drive", "slam", "smash", "ram", "sink", "bury", "plant", "send", "hurl",
                    "throw", "swing", "bring", "crash", "punch", "kick", "jam", "shove", "fire",
                    "aim", "put", "hammer", "whip", "launch", "blast", "lay"})
"""Verbs that deliver a blow into someone ("drive the gauntlet into the Abbess's jaw")."""
_AT = frozenset({"into", "at", "across", "against", "onto", "upside", "on"})
_THINGS = _words("door doors wall walls window windows counter table desk lock gate gates car "
                 "van truck roof floor ground glass pillar ceiling barricade crate crates box "
                 "boxes shutter shutters fence lamp lamppost pipe pipes beam girder rubble "
                 "debris concrete steel safe vault panel hatch bars chain chains cage")
"""Things a blow lands on when it is no attack on anyone ("I shoulder through the door")."""
_REFLEXIVE = frozenset({"myself", "ourselves"})
_RECALL = frozenset({"remember", "recall", "reminisce", "recollect", "flashback", "memory",
                     "memories"})
"""Words of remembering: a line that remembers tells, it does not act."""
SELF_MOVED = _words("carry rescue shove_aside protect shield block")
"""Concepts of moving or guarding someone that, said of oneself ("I haul myself out"), are
the hero's own movement, not protecting anyone."""
_THREAT_PAIRS = (("or", "i"), ("or", "we"), ("or", "you"), ("or", "else"), ("back", "off"),
                 ("i", "swear"))


@dataclass(frozen=True, slots=True)
class Beat:
    """Who does what to whom in one fiction line."""

    actor: str = HERO
    """Who acts: ``hero`` (the acting hero, "I" or no subject), ``character`` (a character
    of the cast named as the subject) or ``someone`` (anyone else: "the blast", "he")."""
    actor_name: str = ""
    """The acting character's name, when ``actor`` is ``character``."""
    receives: bool = False
    """The hero is on the receiving end of the action."""
    kinds: frozenset[str] = frozenset()
    """Kinds of action (keys of ``KINDS``)."""
    touches: tuple[str, ...] = ()
    """The cast names the line names, in order (the actor's excepted)."""
    negated: bool = False
    """Some of what is said is negated ("I don't attack")."""
    question: bool = False
    """The line asks something."""
    threat: bool = False
    """A threat or an ultimatum ("let her go or I ...", "back off")."""
    jibe: bool = False
    """Someone is told something belittling ("tells her she must be broke and boring")."""
    foe_open: bool = False
    """The line says a foe is already open, reeling or down ("while he's dazed")."""
    strikes: bool = False
    """The hero drives a blow into someone ("drive the gauntlet into the Abbess's jaw")."""
    at_things: bool = False
    """Every blow the line deals lands on things, none on anyone ("I shoulder through the
    door", "I smash the counter"): breaking through, not fighting."""
    asks_someone: bool = False
    """A question put to someone ("ask Augustin who owned it", "is he lying?")."""
    recalls: bool = False
    """The line remembers rather than acts ("Nightjar remembers the circus fire", "I used
    to live two streets from here")."""
    places: tuple[str, ...] = ()
    """The places the line names, as written ("the drowned chapel", "Halberd Bridge")."""
    objects: tuple[str, ...] = ()
    """The things the line names, as written ("the gauntlet", "the silver reliquary")."""
    people: tuple[str, ...] = ()
    """Names of people the line names who are not of the cast given ("Silas Quill")."""
    topic: str = ""
    """What the line is about, as written after "about" ("talk about Silas Quill")."""

    def to_dict(self) -> dict[str, Any]:
        """The saved form (JSON-ready; fields at their defaults left out)."""
        d: dict[str, Any] = {}
        for name in self.__slots__:
            value = getattr(self, name)
            if value == _DEFAULTS[name]:
                continue
            d[name] = sorted(value) if isinstance(value, frozenset) else (
                list(value) if isinstance(value, tuple) else value)
        return d

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Beat:
        """A beat from its saved form; unknown keys and ill-typed values are ignored, so a
        damaged or newer save still reads."""
        out: dict[str, Any] = {}
        for name, default in _DEFAULTS.items():
            value = d.get(name, default)
            if isinstance(default, bool):
                out[name] = value if isinstance(value, bool) else default
            elif isinstance(default, str):
                out[name] = value if isinstance(value, str) else default
            elif isinstance(value, list | tuple | frozenset):
                items = [str(x) for x in value if isinstance(x, str)]
                out[name] = frozenset(items) if isinstance(default, frozenset) else tuple(items)
        return cls(**out)

    @property
    def deals_violence(self) -> bool:
        """The hero (or whoever acts) does violence to someone, rather than receiving it,
        breaking things or remembering."""
        return ("violence" in self.kinds and not self.receives and not self.at_things
                and not self.recalls)

    def describe(self) -> str:
        """A short reading for a suggestion's "why" ("you receive: violence")."""
        who = {HERO: "you", CHARACTER: self.actor_name or "someone"}.get(self.actor, "someone")
        verb = "receive" if self.receives else "act"
        if self.actor != HERO:
            verb = "acts on you" if self.receives else "acts"
        kinds = self.kinds - {"violence"} | {"force on things"} if self.at_things else self.kinds
        parts = sorted(kinds | ({"threat"} if self.threat else set())
                       | ({"taunt"} if self.jibe else set()) | ({"asks"} if self.asks_someone
                                                                  else set()))
        said = f"{who} {verb}"
        if parts:
            said += ": " + ", ".join(parts)
        if self.touches:
            said += " -> " + ", ".join(self.touches)
        if self.places:
            said += "; at " + ", ".join(self.places)
        if self.objects:
            said += "; with " + ", ".join(self.objects[:2])
        if self.question and not self.asks_someone:
            said += " (a question)"
        if self.negated:
            said += " (negated)"
        return said


_DEFAULTS: dict[str, Any] = {
    name: getattr(Beat(), name) for name in Beat.__slots__}


def read_beat(text: str, cast: Sequence[str] = (), lexicon: Lexicon | None = None) -> Beat:
    """The beat of ``text``; ``cast``: the names of the characters it may name."""
    variants: list[tuple[str, ...]] = []
    owner: list[str] = []
    for name in cast:
        ws = tuple(w.lower() for w in words(name) if w[:1].isalnum())
        for v in [ws, *((w,) for w in ws if len(w) >= 3 and w not in STOPWORDS)]:
            if v and v not in variants:
                variants.append(v)
                owner.append(name)
    hits = find_names(words(text), variants)
    named = {i: owner[k] for i, k in hits.items()}
    return beat_of(tokens(text, variants), named, lexicon)


def _shields(toks: Sequence[Token], low: Sequence[str]) -> bool:
    """Whether the line puts the hero in someone's place: "instead of her", "in front of
    Min-ji" (a person within two words after)."""
    for i in range(len(low) - 1):
        if (low[i], low[i + 1]) in (("instead", "of"), ("front", "of")) \
                and any(t.person for t in toks[i + 2:i + 4]):
            return True
    return False


def beat_of(toks: Sequence[Token], named: Mapping[int, str] | None = None,
            lexicon: Lexicon | None = None) -> Beat:
    """The beat of a tokenised line; ``named``: token index -> the cast name it belongs to."""
    lex = lexicon if lexicon is not None else default_lexicon()
    named = named or {}
    concepts: list[frozenset[str]] = [
        self_moved(toks, i, frozenset(lex.concepts(t.lemma)))
        if not (t.neg or t.stop or t.person) else frozenset() for i, t in enumerate(toks)]
    lems = [t.lemma if not t.neg else "" for t in toks]
    for c, at in lex.phrase_hits(lems):
        for i in at:
            concepts[i] = concepts[i] | {c}
    kinds = {k for k, cs in KINDS.items() if any(cs & c for c in concepts)}
    actor, actor_name, receives = HERO, "", False
    first = True
    for lo, hi in _clauses(toks):
        who, name, recv = _clause(toks, concepts, named, lo, hi)
        if who is None:
            continue
        if first:
            actor, actor_name, first = who, name, False
        receives = receives or recv
    low = [t.text.lower() for t in toks]
    if toks and toks[0].question and actor == CHARACTER:  # "is the Abbess lying?": the
        actor, actor_name = HERO, ""                        # hero asks about her
    if receives and _shields(toks, low):  # taking it in someone's place is protecting them
        receives = False
        kinds.add("protection")
    threat = any(_pair(low, a, b) for a, b in _THREAT_PAIRS) or any(
        t.lemma in _MENACE and not t.neg and any(x.person for x in toks[i + 1:i + 4])
        for i, t in enumerate(toks))
    jibe = _jibe(toks, low)
    if threat or jibe:
        kinds.add("pressure")
    strikes = not receives and _strikes(toks, low, named)
    if strikes:
        kinds.add("violence")
    at_things = not strikes and _at_things(toks, concepts, low, named)
    question = any(t.question for t in toks) or _asks(toks, low)
    touches = tuple(dict.fromkeys(n for n in named.values() if n != actor_name))
    return Beat(actor=actor, actor_name=actor_name, receives=receives,
                kinds=frozenset(kinds), touches=touches,
                negated=any(t.neg and not t.stop for t in toks),
                question=question,
                threat=threat, jibe=jibe, strikes=strikes, at_things=at_things,
                recalls=_recalls(toks, low),
                asks_someone=question and any(t.person or i in named
                                              for i, t in enumerate(toks)),
                foe_open=any(t.lemma in _OPEN or w in _OPEN for t, w in zip(toks, low, strict=True)
                             if not t.neg),
                **_phrases(toks, low, named))


def _place_word_after(low: Sequence[str], i: int) -> bool:
    """Whether a place word ends the (up to three-word) run after ``i``."""
    return any(w in PLACE_WORDS for w in low[i + 1:i + 1 + _PHRASE_MAX])


def _phrases(toks: Sequence[Token], low: Sequence[str], named: Mapping[int, str]
             ) -> dict[str, Any]:
    """The places and objects a line names: a determiner and up to three words after it
    whose last is a noun ("the silver reliquary"), or a capitalised run ending in a place
    word ("Halberd Bridge"); a phrase ending in a place word is a place."""
    places: list[str] = []
    objects: list[str] = []
    i = 0
    while i < len(toks):
        caps = toks[i].text[:1].isupper() and low[i] != "i" and i not in named
        if (low[i] not in _DETERMINERS and not caps) or (
                not caps and (i == 0 or toks[i - 1].lemma not in _PLACE_PREPS)
                and _place_word_after(low, i)):
            i += 1
            continue
        start = i if caps else i + 1
        j = start
        while (j < len(toks) and j - start < _PHRASE_MAX and not toks[j].mark
               and j not in named and low[j] not in _PREPOSITIONS
               and (low[j] not in STOPWORDS or j == start == i)
               and (not caps or toks[j].text[:1].isupper())):
            j += 1
        run = [k for k in range(start, j) if low[k] not in _DETERMINERS]
        while run and low[run[-1]] not in PLACE_WORDS and low[run[-1]][:-1] not in PLACE_WORDS \
                and (
                not (is_noun(low[run[-1]]) or not known(low[run[-1]]))
                or (len(run) > 1 and is_adverb(low[run[-1]]))):
            run.pop()
        if run:
            head = low[run[-1]]
            said = " ".join(toks[k].text for k in range(i, run[-1] + 1))
            if head in PLACE_WORDS or (head.endswith("s") and head[:-1] in PLACE_WORDS):
                places.append(said)
            elif not caps and head not in _VAGUE and (is_noun(head) or not known(head)):
                objects.append(said)
        i = max(j, i + 1)
    at = next((k for k, w in enumerate(low) if w in _ABOUT), None)
    topic = ""
    if at is not None:
        words_ = []
        for t in toks[at + 1:at + 1 + _TOPIC_MAX]:
            if t.mark or t.text.lower() in _CLAUSE_END:
                break
            words_.append(t.text)
        topic = " ".join(words_)
    return {"places": tuple(dict.fromkeys(places)), "objects": tuple(dict.fromkeys(objects)),
            "people": _people(toks, low, named), "topic": topic}


def _people(toks: Sequence[Token], low: Sequence[str], named: Mapping[int, str]
            ) -> tuple[str, ...]:
    """Runs of capitalised words with a person's name in them ("Silas Quill", "Sister
    Marguerite"), of no one in ``named`` (a sentence's first word counts only as a name)."""
    out: list[str] = []
    run: list[int] = []
    starts = {0} | {k + 1 for k, t in enumerate(toks) if t.lemma in (".", "!", "?", '"')}
    for i in range(len(toks) + 1):
        t = toks[i] if i < len(toks) else None
        if (t is not None and t.text[:1].isupper() and i not in named
                and low[i] not in _PRONOUN_WORDS and (i not in starts or t.person)):
            run.append(i)
            continue
        if run and any(toks[k].person for k in run):
            name = " ".join(toks[k].text for k in run)
            if name not in out:
                out.append(name)
        run = []
    return tuple(out)


def self_moved(toks: Sequence[Token], i: int, concepts: frozenset[str]) -> frozenset[str]:
    """``concepts`` of word ``i``, less those of guarding or carrying someone when what it
    moves is the hero ("I haul myself out of the glass")."""
    if i + 1 < len(toks) and toks[i + 1].text.lower() in _REFLEXIVE and concepts & SELF_MOVED:
        return concepts - SELF_MOVED
    return concepts


def _strikes(toks: Sequence[Token], low: Sequence[str], named: Mapping[int, str]) -> bool:
    """A blow driven into someone: a verb of delivering, then "into"/"at" and a person."""
    for i, t in enumerate(toks):
        if t.lemma not in _DRIVE or t.neg:
            continue
        for j in range(i + 1, min(len(toks), i + 7)):
            if toks[j].mark:
                break
            if low[j] in _AT and any(
                    toks[k].person or k in named for k in range(j + 1, min(len(toks), j + 4))):
                return True
    return False


def _at_things(toks: Sequence[Token], concepts: Sequence[frozenset[str]],
               low: Sequence[str], named: Mapping[int, str]) -> bool:
    """Whether every clause with a blow in it aims it at things and at no one: a thing
    named after the blow (``_THINGS``), and no person in the clause."""
    hit_any = False
    for lo, hi in _clauses(toks):
        blows = [i for i in range(lo, hi) if concepts[i] & KINDS["violence"]]
        if not blows:
            continue
        hit_any = True
        if any(toks[j].person or j in named for j in range(lo, hi)):
            return False
        if not any(low[j] in _THINGS for j in range(blows[0] + 1, hi)):
            return False
    return hit_any


def _clauses(toks: Sequence[Token]) -> list[tuple[int, int]]:
    """(start, end) of each clause: the line cut at marks and joining words."""
    out, lo = [], 0
    for i, t in enumerate(toks):
        if t.text.lower() in _CLAUSE_END:
            if i > lo:
                out.append((lo, i))
            lo = i + 1
    if lo < len(toks):
        out.append((lo, len(toks)))
    return out


def _clause(toks: Sequence[Token], concepts: Sequence[frozenset[str]],
            named: Mapping[int, str], lo: int, hi: int) -> tuple[str | None, str, bool]:
    """Who acts in one clause (None: no verb-like word), their name, and whether the hero
    receives the action."""
    verb = next((i for i in range(lo, hi) if concepts[i] or (
        not toks[i].stop and not toks[i].person and not toks[i].mark)), None)
    if verb is None:
        return None, "", False
    head = [t.text.lower() for t in toks[lo:verb]]
    if any(w in _HERO_SUBJECT for w in head):
        who, name = HERO, ""
    elif any(j in named for j in range(lo, verb)):
        who, name = CHARACTER, named[next(j for j in range(lo, verb) if j in named)]
    elif any(t.person or not t.stop or t.text.lower() in _ARTICLES for t in toks[lo:verb]):
        who, name = SOMEONE, ""  # "he", "the blast", "Mara"
    else:
        who, name = HERO, ""  # "punch him": the player's own action, said bare
    said_i = any(w in _HERO_SUBJECT for w in head)
    return who, name, _receives(toks, concepts, who if said_i or who != HERO else "", lo, hi)


def _receives(toks: Sequence[Token], concepts: Sequence[frozenset[str]], who: str,
              lo: int, hi: int) -> bool:
    """Whether the hero receives the action of a clause whose subject is ``who`` ("": the
    hero, unsaid)."""
    low = [t.text.lower() for t in toks]
    hitting = [i for i in range(lo, hi) if not toks[i].neg and (
        concepts[i] & _HITTING or toks[i].lemma in _HIT_WORDS)]
    if who not in (HERO, ""):  # "he punches me", "the blast slams into me"
        return any(low[j] in _ME for i in hitting for j in range(i + 1, min(hi, i + 4)))
    if not who:
        return False
    for i in range(lo, hi):  # "I take a hit", "I get thrown", "I'm knocked flat"
        if (toks[i].lemma in _SUFFER and low[max(lo, i - 2):i].count("i")
                and any(j in hitting for j in range(i + 1, min(hi, i + 4)))):
            return True
    return any(concepts[i] & _HURT and not concepts[i] & KINDS["violence"]
               and toks[i].lemma not in _HIT_WORDS
               and low[i + 1:i + 2] not in (["the"], ["a"], ["an"], ["every"], ["his"], ["her"])
               for i in hitting)  # "I go down hard", not "I black out the block"


def _asks(toks: Sequence[Token], low: Sequence[str]) -> bool:
    """A question put in reported speech ("ask Augustin who owned it")."""
    return any(t.lemma in ("ask", "wonder") and any(w in _WH for w in low[i + 1:i + 5])
               for i, t in enumerate(toks))


_JOINERS = frozenset({"and", "then", "but", "so", ";", "before", "until"})
"""Words after which a line goes on to act ("I remember what he said and stand firm")."""


def _recalls(toks: Sequence[Token], low: Sequence[str]) -> bool:
    """A line that only remembers: one clause, whose words remember ("she remembers the
    fire", "I used to live here"), with nothing done after ("I remember what Dad said and
    stand my ground" acts)."""
    at = next((i for i, t in enumerate(toks) if (t.lemma in _RECALL and not t.neg)
               or (low[i] in ("used", "back") and low[i + 1:i + 2] in (["to"], ["when"]))),
              None)
    if at is None:
        return False
    return not any(w in _JOINERS for w in low[at + 1:])


def _adjacent(low: Sequence[str], a: str, b: str) -> bool:
    """``a`` right before ``b``."""
    return any(w == a and low[i + 1:i + 2] == [b] for i, w in enumerate(low))


def _pair(low: Sequence[str], a: str, b: str) -> bool:
    """``a`` followed by ``b`` within three words."""
    return any(w == a and b in low[i + 1:i + 4] for i, w in enumerate(low))


def _jibe(toks: Sequence[Token], low: Sequence[str]) -> bool:
    """Someone told something belittling: a speech verb, a person, then a jibe word."""
    for i, t in enumerate(toks):
        if (t.lemma in _SPEECH and any(x.person for x in toks[i + 1:i + 4])
                and any(w in _JIBES for w in low[i + 1:])):
            return True
    return False


__all__ = ["CHARACTER", "HERO", "KINDS", "PLACE_WORDS", "SELF_MOVED", "SOMEONE", "Beat", "beat_of",
           "read_beat", "self_moved"]
