"""The story ledger, read: threads, characters, facts and threats as typed entries for front
ends (``Game.ledger()``), and finding an entry by its id or its words.

The ledger lives in the state (``CampaignState.threads``, ``facts``, ``threats``, each actor's
``present`` and ``where``) and changes only through events (``LedgerChanged``, ``NPCPresence``,
``ThreatAdded``, ``ClockChanged``...). Nothing here writes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal, TypeVar

from engine.errors import IllegalAction
from engine.rules.state import CampaignState, Fact, Thread


@dataclass(frozen=True)
class ThreadEntry:
    """A thread: ``id`` (t1, t2...), its words, open or resolved, who opened it, a note."""

    id: str
    text: str
    status: Literal["open", "resolved"]
    source: str = ""
    note: str = ""


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
        threads=[ThreadEntry(t.id, t.text, t.status, t.source, t.note) for t in state.threads],
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
