"""The GM answers the questions a move lets the player ask.

When the player has picked a move's questions (Pierce the mask, Assess the situation, Observe
Someone...), the GM offers an answer to each in turn: a pair of meaning words drawn from the
pack's tables (the oracle's actions and subjects, or its descriptors and qualities, Mythic
style) read against the situation (the move's target, who is present, the most pressing
threat and its next step, an open thread, the scene's place). The offer says how it was drawn
("meaning: betray + a mentor; present: Dusk Meridian").

The player accepts the offer, asks for another (a new draw that differs from every offer
seen), or writes their own answer. This lives in the flow as an ``answer`` queue item (see
engine/rules/types.py ``AnswerItem``): the interpreter asks this module for an offer the first
time it meets the item and keeps the offer in it, so a campaign saved mid-answer resumes with
the same offer on the table. Every draw uses ``gm_random``: the same campaign offers the same
answers.
"""

from __future__ import annotations

import functools
import random
import re
from dataclasses import dataclass

from engine.content.loader import Pack
from engine.gm.oracle import weighted_entry
from engine.rules.base import gm_random
from engine.rules.state import CampaignState
from engine.rules.threats import threat_words
from engine.rules.types import AnswerOffer, AnswerSpec, EffectContext

TABLES = {
    "action": ("oracle_actions", ["act", "hide", "protect", "reveal", "betray", "escape"]),
    "subject": ("oracle_subjects", ["a secret", "a friend", "a place", "a promise", "the past"]),
    "descriptor": ("meaning_descriptors", ["quietly", "openly", "desperately", "carefully"]),
    "quality": ("meaning_qualities", ["hidden", "broken", "dangerous", "familiar"]),
}
"""Each meaning list: the pack's table, and a few plain words when the pack has none."""

MAX_REDRAWS = 24
"""Draws tried for "another" before giving up on finding an offer not seen yet."""


@dataclass(frozen=True)
class Situation:
    """What the GM reads besides the tables: names and lines from the state."""

    target: str
    present: list[str]
    threat: str
    threat_next: str
    thread: str
    place: str
    elsewhere: str = ""
    """A place drawn from the pack's places (for "where" questions)."""
    stance: str = ""
    """How the target stands toward the acting hero, when the ledger knows it."""
    fact: str = ""
    """A fact the ledger records about the target (or any fact), when there is one."""


def _words(pack: Pack, rng: random.Random, kind: str) -> str:
    table_id, fallback = TABLES[kind]
    table = pack.tables.get(table_id)
    if table is None:
        return rng.choice(fallback)
    return weighted_entry(rng, table.entries).text


def _elsewhere(pack: Pack, rng: random.Random) -> str:
    table = pack.tables.get("locations")
    if table is None:
        return ""
    return weighted_entry(rng, table.entries).text


def situation(pack: Pack, state: CampaignState, ctx: EffectContext, rng: random.Random
              ) -> Situation:
    """The names and lines an answer may draw on, picked with ``rng`` where there are many."""
    target_id = ctx.get("target")
    target = state.actors[target_id].name if target_id and target_id in state.actors else ""
    present = [n.name for n in state.npcs.values() if n.present and n.id != target_id]
    active = [t for t in state.threats.values() if t.active]
    # the threat closest to its doom, or the target's own threat when they have one
    own = [t for t in active if target_id and t.npc == target_id]
    threat = (own or sorted(active, key=lambda t: (-t.clock / max(t.size, 1), t.id)))[:1]
    name = threat_next = ""
    if threat:
        t = threat[0]
        name = threat_words(pack, state, t)  # "Dusk Meridian's takeover", as narration says
        threat_next = t.steps[t.clock] if t.clock < len(t.steps) else t.doom
    threads = [t.text for t in state.open_threads]
    stance = ""  # only a stance an event set: a role's default says nothing about them
    if target_id and target_id in state.actors:
        stance = state.actors[target_id].stance.get(state.acting, "")
    facts = [f.text for f in state.facts if target_id in f.about] if target_id else []
    return Situation(target=target, present=present, threat=name, threat_next=threat_next,
                     thread=rng.choice(threads) if threads else "",
                     place=state.scene.location, elsewhere=_elsewhere(pack, rng),
                     stance=stance, fact=rng.choice(facts) if facts else "")


_KINDS: list[tuple[str, tuple[str, ...]]] = [
    ("where", ("where", "which way", "what is the best way", "source of")),
    ("danger", ("danger", "threat", "avoid", "watch out", "worst trouble", "weakest",
                "risk")),
    ("fear", ("afraid", "fear", "weak to", "weakness", "vulnerab")),
    ("plan", ("up to", "planning", "plan", "do next", "hoping", "mean to", "going on",
              "really feeling", "want")),
    ("who", ("who ",)),
    ("how", ("how ", "what would it take", "fastest way", "get them to")),
]
"""What a question asks for, from its words: read in order, the first that fits wins."""


@functools.lru_cache(maxsize=1024)
def question_kind(question: str) -> str:
    """What ``question`` asks about: where, danger, fear, plan, who, how, or what."""
    q = " " + re.sub(r"\s+", " ", question.lower()) + " "
    for kind, cues in _KINDS:
        if any(cue in q for cue in cues):
            return kind
    return "what"


def _split_article(noun: str) -> tuple[str, str]:
    """("a", "mentor") for "a mentor"; ("", "mentor") for a bare "mentor"."""
    first, _, rest = noun.strip().partition(" ")
    if first.lower() in ("a", "an", "the") and rest:
        return first.lower(), rest
    return "", noun.strip()


def noun(subject: str) -> str:
    """A table's subject as a noun phrase: "a mentor" stays, a bare "mentor" gets "the"."""
    article, rest = _split_article(subject)
    return f"{article or 'the'} {rest}"


def qualified(quality: str, subject: str) -> str:
    """A subject with a quality before it: "a masked robot", "an ancient debt", "the hidden
    past"."""
    article, rest = _split_article(subject)
    if article in ("a", "an"):
        article = "an" if quality[:1].lower() in "aeiou" else "a"
    return f"{article or 'the'} {quality} {rest}"


def _sentence(text: str) -> str:
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?" else text + "."


def compose(kind: str, sit: Situation, words: dict[str, str], rng: random.Random
            ) -> tuple[str, list[str]]:
    """The offered answer to a question of ``kind``, and the parts of the situation it used."""
    act, subj = words["action"], noun(words["subject"])
    how, like = words["descriptor"], words["quality"]
    used: list[str] = []
    who = sit.target or "they"
    if kind == "plan":
        if sit.target:
            used.append(f"target: {sit.target}")
        if sit.stance in ("hostile", "wary", "warm", "devoted") and rng.random() < 0.5:
            used.append(f"stance: {sit.stance}")
            side = ("and you are in the way" if sit.stance in ("hostile", "wary")
                    else "and they hope you will help")
            return f"{who} means to {act} {subj}, {how}, {side}", used
        if sit.fact and rng.random() < 0.4:
            used.append(f"fact: {sit.fact}")
            known = _told(sit.fact)
            return f"{who} means to {act} {subj}, {how}; and you know that {known}", used
        if sit.threat and sit.threat_next and rng.random() < 0.6:
            used.append(f"threat: {sit.threat}")
            return f"{who} means to {act} {subj}, {how}. Next: {sit.threat_next}", used
        if sit.thread and rng.random() < 0.5:
            used.append(f"thread: {sit.thread}")
            return f"{who} means to {act} {subj}, {how}; it ties into: {sit.thread}", used
        return f"{who} means to {act} {subj}, {how}", used
    if kind == "fear":
        if sit.target:
            used.append(f"target: {sit.target}")
        return (f"{who} fears {qualified(like, words['subject'])}: anything that could {act}"
                f" it", used)
    if kind == "danger":
        if sit.threat and rng.random() < 0.7:
            used.append(f"threat: {sit.threat}")
            nxt = f" Next: {sit.threat_next}" if sit.threat_next else ""
            return f"{sit.threat}, set to {act} {subj}, {how}.{nxt}", used
        if sit.present and rng.random() < 0.6:
            person = rng.choice(sit.present)
            used.append(f"present: {person}")
            return f"{person}, ready to {act} {subj}, {how}", used
        return f"Something {like}: {act} {subj}, {how}", used
    if kind == "where":
        place = sit.elsewhere or sit.place
        if sit.target and place:
            used.append(f"place: {place}")
            return f"At {place}, {how}, looking to {act} {subj}", used
        if sit.place and rng.random() < 0.4:
            used.append(f"place: {sit.place}")
            return (f"Close by, in {sit.place}: where {qualified(like, words['subject'])} is"
                    f" kept, {how}", used)
        if place:
            used.append(f"place: {place}")
            return (f"{place}, where {qualified(like, words['subject'])} waits: go {how}, and"
                    f" beware those who {act}", used)
        return (f"Where {qualified(like, words['subject'])} waits: go {how}, and beware"
                f" those who {act}", used)
    if kind == "who":
        if sit.present and rng.random() < 0.7:
            person = rng.choice(sit.present)
            used.append(f"present: {person}")
            return f"{person}, who would {act} {subj}, {how}", used
        if sit.threat and rng.random() < 0.5:
            used.append(f"threat: {sit.threat}")
            return f"Someone who serves {sit.threat}: they {act} {subj}, {how}", used
        return f"Someone {like}, who would {act} {subj}", used
    if kind == "how":
        return f"{how[0].upper()}{how[1:]}: {act} {subj}, and mind what is {like}", used
    if sit.thread and rng.random() < 0.4:
        used.append(f"thread: {sit.thread}")
        return f"{qualified(like, words['subject'])}: {act} it, and {sit.thread}", used
    return (f"{qualified(like, words['subject'])}: something meant to {act} it, {how}",
            used)


def _draw(pack: Pack, state: CampaignState, spec: AnswerSpec, ctx: EffectContext, tries: int
          ) -> AnswerOffer:
    rng = gm_random(state, f"answer:{spec['move']}:{spec['question']}:{spec['draw']}:{tries}")
    words = {k: _words(pack, rng, k) for k in TABLES}
    kind = question_kind(spec["question"])
    sit = situation(pack, state, ctx, rng)
    text, used = compose(kind, sit, words, rng)
    pair = ((words["descriptor"], words["quality"]) if kind in ("fear", "where", "how", "what")
            else (words["action"], words["subject"]))
    meaning = f"meaning: {pair[0]} + {pair[1]}"
    if kind in ("fear", "where", "how", "what"):
        meaning += f" ({words['action']} {words['subject']})"
    else:
        meaning += f" ({words['descriptor']})"
    return {"text": _sentence(text), "drawn": "; ".join([meaning, *used])}


def offer(pack: Pack, state: CampaignState, spec: AnswerSpec, ctx: EffectContext
          ) -> AnswerOffer:
    """The GM's answer to ``spec``'s question: a new draw, unlike every offer already seen."""
    seen = set(spec.get("seen", []))
    got = _draw(pack, state, spec, ctx, 0)
    for tries in range(1, MAX_REDRAWS):
        if got["text"] not in seen:
            break
        got = _draw(pack, state, spec, ctx, tries)
    return got


def _told(fact: str) -> str:
    """A fact said inside a sentence: the question a recorded answer was to is left out
    ("What are they up to? Dusk means to..." -> "Dusk means to..."), its last stop too, and
    a leading article or pronoun in lower case."""
    head, mark, rest = fact.partition("?")
    said = rest.strip() if mark and rest.strip() and len(head) < 120 else fact.strip()
    said = said.rstrip(".")
    first, _, tail = said.partition(" ")
    if first.lower() in ("the", "a", "an", "they", "it", "he", "she") and tail:
        said = f"{first.lower()} {tail}"
    return said


def fact_text(question: str, answer: str) -> str:
    """The fact an answer establishes, as the ledger would record it."""
    return f"{question.strip()} {answer.strip()}"

