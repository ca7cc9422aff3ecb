"""What a fight action's fiction says, read once for every option (``Fights.suggest``): the
words said (lemmas and plain words, a capitalised power's name too), the attack or power a
name picks, the maneuvers the pack's words for them name (``actions.yaml``: a maneuver's
``cues``), whether the words cover every foe ("all of them", "the whole gang"), and the option
and target that fit them best.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from engine.nlp.english import tokens
from engine.rules.fight.values import ActionWords, FightOption, FightSuggestion

RANGE_WORDS = {
    "close": {"punch", "kick", "hit", "slug", "fist", "jab", "elbow", "headbutt", "knee",
              "uppercut", "swing", "slap", "pummel", "tackle", "clobber", "deck", "smack",
              "pound", "haymaker", "sucker"},
    "ranged": {"shoot", "fire", "blast", "beam", "zap", "snipe", "throw", "hurl", "bolt"},
    "area": {"everyone", "everybody", "whole", "crowd", "around", "cone", "burst", "wave"},
}
"""Words that say how an attack reaches (filled in: a punch is a close attack), used to pick
the attack a fiction means when it names none."""

EVERY_FOE = ("all of them", "all of those", "all of these", "every one of", "every last one",
             "everyone", "everybody", "each of them", "both of them", "the lot of them",
             "all at once", "the whole", "the entire", "all the", "all those", "all these",
             "all my foe", "all our foe")
"""Phrases (lemmas) that aim an attack at every foe (filled in): an area attack covers them
all."""


@dataclass(frozen=True, slots=True)
class Said:
    """One fiction, read: its words (not negated) and the lemmas in order."""

    text: str
    """The fiction as typed."""
    words: frozenset[str]
    """Its lemmas and plain words, lower case, not negated."""
    joined: str
    """Its lemmas (lower case, a name as PERSON) in order, space around each."""
    plain: str
    """Its plain words in lower case, in order, space around each."""


def read(text: str, acting: str = "") -> Said:
    """``text`` read for the fight's suggestions; the words of the acting character's name
    (``acting``: "Slipstream darted in...") are not taken for an attack's or power's."""
    toks = [t for t in tokens(text) if not t.mark]
    words = {t.lemma.casefold() for t in toks if not t.neg}
    words |= {t.text.casefold() for t in toks if not t.neg}
    words -= name_words(acting) if acting else frozenset()
    joined = " " + " ".join(t.lemma if t.lemma == "PERSON" else t.lemma.casefold()
                            for t in toks) + " "
    plain = " " + " ".join(t.text.casefold() for t in toks) + " "
    return Said(text, frozenset(words), joined, plain)


@lru_cache(maxsize=4096)
def name_words(name: str) -> frozenset[str]:
    """The words of an attack's or a power's name that the player may say for it: lemmas and
    plain words longer than 3 letters ("Fighting Staff": fight, fighting, staff); cached."""
    found = {t.lemma.casefold() for t in tokens(name) if not t.mark and t.lemma != "PERSON"}
    found |= {w.casefold().strip("'’") for w in name.split()}
    return frozenset(w for w in found if len(w) > 3 and w.isalpha())


@lru_cache(maxsize=1024)
def _phrase(cue: str) -> str:
    """A cue's lemmas, lower case, with a space around each (a name as PERSON)."""
    lems = [t.lemma if t.lemma == "PERSON" else t.lemma.casefold()
            for t in tokens(cue) if not t.mark]
    return " " + " ".join(lems) + " " if lems else ""


def said_phrase(said: Said, cue: str) -> bool:
    """Whether ``said`` says ``cue`` word for word (lemmas, or plain words)."""
    lems = _phrase(cue)
    if lems and lems in said.joined:
        return True
    plain = " " + " ".join(w.casefold() for w in cue.split()) + " "
    return plain.strip() != "" and plain in said.plain


def every_foe(said: Said) -> bool:
    """Whether the words aim at every foe ("all of them", "the whole gang")."""
    return any(said_phrase(said, p) for p in EVERY_FOE)


def maneuvers_said(said: Said, words: Mapping[str, ActionWords]) -> list[tuple[str, str]]:
    """The maneuvers the words name, each with the words that named it: its name ("Power
    attack") or one of its cues in the pack's words."""
    out = []
    for mid, w in words.items():
        if w.kind != "maneuver":
            continue
        hit = next((c for c in (w.name, *w.cues) if said_phrase(said, c)), None)
        if hit is not None:
            out.append((mid, hit))
    return out


def group_named(said: Said, people: Sequence[tuple[str, str]]) -> list[str]:
    """Members of a numbered group ("The Foundry Crew 3") that the words name in lower case
    ("the crew"), which a person's name would not be matched by."""
    out = []
    for pid, name in people:
        base, _, num = name.rpartition(" ")
        if num.isdigit() and base and name_words(base) & said.words:
            out.append(pid)
    return out


def name_fit(name: str, said: Said) -> tuple[float, int]:
    """How well the words say ``name``: the share of its words said, and how many."""
    mine = name_words(name)
    hit = len(mine & said.words)
    return (hit / len(mine) if mine else 0.0), hit


def pick(choices: Sequence[FightOption], named: Sequence[str], said: Said,
         everyone: bool = False, wants: Sequence[str] = ()) -> FightSuggestion | None:
    """The option (and target) of one action that fits the fiction: the attack whose name
    the words say best, else one whose reach they say, else one that may be declared with
    the maneuvers ``wants``; the target they name, else the best odds of affecting. An area
    attack whose words cover every foe (``everyone``), or that names no one target, covers
    them all (``area``, no target)."""
    if not choices:
        return None
    fits = {c.key: name_fit(c.attack.name, said) for c in choices if c.attack is not None}
    most = max((f for f in fits.values() if f[1]), default=None)
    by_name = [c for c in choices if most is not None and fits.get(c.key) == most]
    reach = ["area"] if everyone else [r for r, ws in RANGE_WORDS.items() if said.words & ws]
    by_range = [c for c in choices if c.attack is not None and c.attack.range in reach]
    pool = by_name or by_range or list(choices)
    able = [c for c in pool if set(wants) <= {m.id for m in c.maneuvers if not m.why}]
    pool = able or pool
    best: tuple[float, FightSuggestion] | None = None
    for c in pool:
        if c.attack is not None and c.attack.range == "area" and c.targets and (
                everyone or len([t for t in c.targets if t.id in named]) != 1):
            score = (20.0 if everyone else 0.0) + max((t.effect or 0.0) for t in c.targets)
            if best is None or score > best[0]:
                best = (score, FightSuggestion(action=c.action, name=c.name, option=c,
                                               area=True))
            continue
        if not c.targets:
            if best is None:
                best = (-1.0, FightSuggestion(action=c.action, name=c.name, option=c))
            continue
        for t in c.targets:
            score = (0.0 if t.neutralised else t.effect or 0.0) + (
                10.0 if t.id in named else 0.0)
            if best is None or score > best[0]:
                best = (score, FightSuggestion(action=c.action, name=c.name, option=c,
                                               target=t))
    return best[1] if best else None


def with_maneuvers(sug: FightSuggestion, found: Sequence[tuple[str, str]]) -> FightSuggestion:
    """``sug`` declared with the maneuvers found that its option may take (a trade at its
    most, a switch on); the words that named them added to its words."""
    o = sug.option
    offered = {m.id for m in o.maneuvers if not m.why} if o is not None else set()
    ids = tuple(mid for mid, _w in found if mid in offered)
    if not ids:
        return sug
    said = tuple(w for mid, w in found if mid in ids)
    return FightSuggestion(action=sug.action, name=sug.name,
                           words=tuple(dict.fromkeys((*said, *sug.words))), score=sug.score,
                           option=sug.option, target=sug.target, named=sug.named,
                           maneuvers=ids, area=sug.area)


__all__ = ["EVERY_FOE", "RANGE_WORDS", "Said", "every_foe", "group_named", "maneuvers_said",
           "name_fit", "name_words", "pick", "read", "said_phrase", "with_maneuvers"]
