"""The story ledger, read: threads, characters, facts and threats as typed entries for front
ends (``Game.ledger()``), and finding an entry by its id or its words.

The ledger lives in the state (``CampaignState.threads``, ``facts``, ``threats``, each actor's
``present`` and ``where``) and changes only through events (``LedgerChanged``, ``NPCPresence``,
``ThreatAdded``, ``ClockChanged``...). Nothing here writes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar

from engine.errors import IllegalAction
from engine.rules.events.ledger import LedgerChanged
from engine.rules.fight.state import Fight
from engine.rules.state import CampaignState, Fact, Thread

RANKS = {"troublesome": 12, "dangerous": 8, "formidable": 4, "extreme": 2, "epic": 1}
"""A vow's ranks (Ironsworn's), easiest first, and the ticks one mark of progress fills."""
TICKS_PER_BOX = 4
"""Ticks in one box of a progress track."""
BOXES = 10
"""Boxes in a progress track (the progress score is the boxes filled, 0 to 10)."""
MAX_TICKS = TICKS_PER_BOX * BOXES
"""A full progress track."""


def progress_score(ticks: int) -> int:
    """The progress score of ``ticks``: the boxes filled (0 to 10)."""
    return min(max(ticks, 0), MAX_TICKS) // TICKS_PER_BOX


def progress_band(score: int, challenge: Sequence[int]) -> Literal["strong", "weak", "miss"]:
    """A progress roll: the score against two challenge dice (d10s); beating both is a strong
    hit, one a weak hit, neither a miss (a tie does not beat the die)."""
    beaten = sum(1 for die in challenge if score > die)
    return "strong" if beaten >= 2 else "weak" if beaten == 1 else "miss"


def progress_bar(ticks: int) -> str:
    """A progress track as ten boxes: ``■`` full, ``◩`` part-filled, ``□`` empty."""
    ticks = min(max(ticks, 0), MAX_TICKS)
    full, part = divmod(ticks, TICKS_PER_BOX)
    return "■" * full + ("◩" if part else "") + "□" * (BOXES - full - (1 if part else 0))


@dataclass(frozen=True)
class ThreadEntry:
    """A thread: ``id`` (t1, t2...), its words, open or resolved, who opened it, a note; a vow
    has a ``rank`` (a key of ``RANKS``; "" : no vow) and its progress in ``ticks`` (0-40)."""

    id: str
    text: str
    status: Literal["open", "resolved"]
    source: str = ""
    note: str = ""
    rank: str = ""
    ticks: int = 0

    @property
    def vow(self) -> bool:
        """Whether the thread is a vow (it carries progress)."""
        return bool(self.rank)

    @property
    def score(self) -> int:
        """The vow's progress score: boxes filled, 0 to 10."""
        return progress_score(self.ticks)


@dataclass(frozen=True)
class CharacterEntry:
    """A character: an actor's id, name, kind (hero/npc), role, whether it is in the scene,
    its last known whereabouts ("" unknown) and its note."""

    id: str
    name: str
    kind: Literal["hero", "npc"]
    role: str
    present: bool
    where: str = ""
    note: str = ""


@dataclass(frozen=True)
class FactEntry:
    """A fact: ``id`` (f1, f2...), its words, who established it, the actors it concerns
    (ids) and their names."""

    id: str
    text: str
    source: str = ""
    about: tuple[str, ...] = ()
    about_names: tuple[str, ...] = ()


@dataclass(frozen=True)
class ThreatEntry:
    """A threat: its id, name, kind, clock out of size, the next step ("" at the end), its
    doom, whether it is still active, and the NPC behind it (id or None)."""

    id: str
    name: str
    kind: str
    clock: int
    size: int
    next_step: str
    doom: str
    active: bool
    npc: str | None = None


@dataclass(frozen=True)
class Ledger:
    """Everything the story remembers, as a front end shows it (Mythic's lists)."""

    threads: list[ThreadEntry] = field(default_factory=list)
    characters: list[CharacterEntry] = field(default_factory=list)
    facts: list[FactEntry] = field(default_factory=list)
    threats: list[ThreatEntry] = field(default_factory=list)

    @property
    def open_threads(self) -> list[ThreadEntry]:
        """The threads still open."""
        return [t for t in self.threads if t.status == "open"]


def ledger_of(state: CampaignState) -> Ledger:
    """The ledger of ``state``: threads (oldest first), the heroes then the NPCs, facts
    (oldest first) and threats (as added)."""
    names = {a.id: a.name for a in state.actors.values()}
    heroes = [state.actors[h] for h in state.party]
    npcs = [a for a in state.actors.values() if a.kind == "npc"]
    return Ledger(
        threads=[ThreadEntry(t.id, t.text, t.status, t.source, t.note, t.rank, t.ticks)
                 for t in state.threads],
        characters=[CharacterEntry(a.id, a.name, a.kind, a.role,
                                   a.kind == "hero" or a.present, a.where, a.note)
                    for a in heroes + npcs],
        facts=[FactEntry(f.id, f.text, f.source, tuple(f.about),
                         tuple(names.get(a, a) for a in f.about)) for f in state.facts],
        threats=[ThreatEntry(t.id, t.name, t.kind, t.clock, t.size,
                             t.steps[t.clock] if t.clock < len(t.steps) else "", t.doom,
                             t.active, t.npc) for t in state.threats.values()],
    )


E = TypeVar("E", Thread, Fact)


def find_entry(entries: Sequence[E], key: str, what: str) -> E:
    """The entry whose id is ``key``, else whose words are ``key`` (case and spaces aside;
    the newest such), else ``IllegalAction`` listing what there is."""
    key = key.strip()
    for e in entries:
        if e.id == key:
            return e
    words = " ".join(key.lower().split())
    same = [e for e in entries if " ".join(e.text.lower().split()) == words]
    if same:
        return same[-1]
    known = "; ".join(f"{e.id}: {e.text}" for e in entries) or "none yet"
    raise IllegalAction(f"no {what} {key!r} (by id or words); {what}s: {known}")


def clean_text(text: str, what: str) -> str:
    """``text`` on one line, trimmed; ``IllegalAction`` when empty or too long."""
    out = " ".join(text.split())
    if not out:
        raise IllegalAction(f"a {what} needs some words")
    if len(out) > MAX_TEXT:
        raise IllegalAction(f"a {what} is at most {MAX_TEXT} characters (this has {len(out)})")
    return out


MAX_TEXT = 500
"""The longest a thread, a fact or a whereabouts may be."""


@dataclass(frozen=True)
class FightNote:
    """What the story keeps of a fight: a ``thread`` to open or a ``fact`` to record, its
    words and the actors it concerns."""

    kind: Literal["thread", "fact"]
    text: str
    about: tuple[str, ...] = ()


_FATE = {"fled": "fled from the fight with", "surrendered": "surrendered to",
         "defeated": "was beaten by", "dead": "died in the fight with"}
"""How a character left a fight, as the ledger's fact says it (before the other side)."""


def _names(state: CampaignState, ids: Sequence[str]) -> str:
    names = [state.actors[i].name for i in ids]
    if not names:
        return ""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def fight_notes(state: CampaignState, fight: Fight, result: str) -> list[FightNote]:
    """What a fight that ends with ``result`` ("the heroes win", "the villains win",
    "nobody is left standing", "called off"...) leaves in the ledger: a thread for each villain
    who got away (fled, or still standing when the heroes did not win), a fact for each who
    surrendered, fell or died, and a fact for each hero who fled, surrendered or fell. Minions
    leave nothing. ``state`` is the campaign as the fight ends (conditions still marked)."""
    where = state.scene.location or state.scene.title
    at = f" at {where}" if where else ""
    outcome = dict(fight.out)
    for p in fight.encounter.participants:
        conds = set(state.actors[p.actor].conditions) if p.actor in state.actors else set()
        if p.actor not in outcome and conds & {"incapacitated", "dying", "dead"}:
            outcome[p.actor] = "dead" if "dead" in conds else "defeated"
    sides: dict[str, list[str]] = {"heroes": [], "villains": []}
    for p in fight.encounter.participants:
        if p.actor in state.actors:
            sides.setdefault(p.side, []).append(p.actor)
    won = result == "the heroes win"
    notes: list[FightNote] = []
    for side, others in (("villains", "heroes"), ("heroes", "villains")):
        against = _names(state, [a for a in sides[others] if state.actors[a].role != "minion"])
        against = against or _names(state, sides[others][:1])
        for actor_id in sides[side]:
            actor = state.actors[actor_id]
            how = outcome.get(actor_id, "")
            if actor.role == "minion" or (actor.kind == "hero") != (side == "heroes"):
                continue
            if side == "villains" and (how == "fled" or (not how and not won)):
                escaped = "who fled the fight" if how == "fled" else (
                    f"who beat {against}{at}" if result == "the villains win"
                    else f"still standing when the fight with {against} ended{at}")
                notes.append(FightNote("thread", f"Track down {actor.name}, {escaped}",
                                       (actor_id,)))
            elif how in _FATE and against:
                notes.append(FightNote("fact", f"{actor.name} {_FATE[how]} {against}{at}",
                                       (actor_id,)))
    return notes


def _words(text: str) -> set[str]:
    """The words of ``text``, lower case, without punctuation or a possessive 's."""
    words = (w.strip(".,;:!?'\"()“”’").lower() for w in text.split())
    return {w.removesuffix("'s").removesuffix("’s") for w in words} - {""}


def vow_marks(state: CampaignState, target: str | None, reading: dict[str, Any] | None
              ) -> list[Thread]:
    """The open vows a hit marks progress on, by play: those whose words name the move's
    target, or a person, place or object the fiction that led to the roll names (its beat,
    ``reading``). Not vows already full."""
    names: list[str] = []
    if target is not None and target in state.actors:
        names.append(state.actors[target].name)
    if reading:
        for key in ("touches", "places", "objects"):
            names += [str(x) for x in reading.get(key, ()) or ()]
    wanted = [_words(n) - _SMALL for n in names if n.strip()]
    out: list[Thread] = []
    for t in state.threads:
        if t.status != "open" or not t.rank or t.ticks >= MAX_TICKS:
            continue
        words = _words(t.text)
        if any(w and w <= words for w in wanted):
            out.append(t)
    return out


_SMALL = {"the", "a", "an", "of", "to", "at", "in", "on", "my", "his", "her", "their", "its"}
"""Words a name may carry that do not make it match a vow."""


def marks_by_play(state: CampaignState, tone: str, target: str | None) -> list[LedgerChanged]:
    """The progress a move's result marks by play: a hit (``tone`` good or mixed) marks each
    open vow its target or its fiction (``state.scene.reading``, the beat that led to the
    roll) names, once, by the vow's rank."""
    if tone not in ("good", "mixed"):
        return []
    out: list[LedgerChanged] = []
    for t in vow_marks(state, target, state.scene.reading):
        ticks = min(t.ticks + RANKS.get(t.rank, 0), MAX_TICKS)
        out.append(LedgerChanged(kind="thread", op="progress", id=t.id, text=t.text,
                                 ticks=ticks, delta=ticks - t.ticks, source="by play"))
    return out
