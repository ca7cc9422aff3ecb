"""Ledger events: the story's open threads, its facts and where its people are."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from engine.rules.events.core import Event, applier, event
from engine.rules.state import CampaignState, Fact, Thread

LEDGER_KINDS = {"thread": "t", "fact": "f", "where": ""}
"""Ledger kinds and the prefix of their ids (``where``: an actor's whereabouts, by its id)."""
LEDGER_OPS = {"thread": ("open", "edit", "resolve", "reopen", "remove", "vow", "progress"),
              "fact": ("record", "edit", "remove"), "where": ("set",)}
"""What each kind of ledger entry can undergo."""


def _count_id(state: CampaignState, entry_id: str) -> None:
    prefix = entry_id.rstrip("0123456789")
    number = entry_id[len(prefix):]
    if prefix and number:
        state.ledger_ids[prefix] = max(state.ledger_ids.get(prefix, 0), int(number))


@event
@dataclass(frozen=True, slots=True)
class ThreadsChanged(Event):
    """The list of open story threads changed."""

    added: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)


@applier("ThreadsChanged")
def _threads(state: CampaignState, ev: ThreadsChanged) -> None:
    # the log's older form: texts added (new open threads) and removed (resolved)
    for i, thread in enumerate(state.threads):
        if thread.status == "open" and thread.text in ev.removed:
            state.threads[i] = thread.model_copy(update={"status": "resolved"})
    for text in ev.added:
        if not any(t.status == "open" and t.text == text for t in state.threads):
            tid = state.next_ledger_id("t")
            _count_id(state, tid)
            state.threads.append(Thread(id=tid, text=text))


@event
@dataclass(frozen=True, slots=True)
class LedgerChanged(Event):
    """The story ledger changed: a thread opened, edited, resolved, reopened or removed; a fact
    recorded, edited or removed; an NPC's whereabouts set (``kind`` "where", ``id`` the
    actor). ``text`` is the entry's words now (for "where": the place, "" unknown), ``was``
    its words before; ``source`` who wrote it; ``about`` the actors a fact concerns. A thread
    sworn as a vow (op "vow") gets ``rank`` ("" : a vow no more) and ``ticks``; its progress
    marked (op "progress") has ``ticks`` (the total now) and ``delta`` (the ticks marked)."""

    OPTIONAL: ClassVar[tuple[str, ...]] = ("rank", "ticks", "delta")

    kind: str
    op: str
    id: str
    text: str = ""
    was: str = ""
    source: str = ""
    note: str = ""
    about: list[str] = field(default_factory=list)
    rank: str = ""
    ticks: int = 0
    delta: int = 0


@applier("LedgerChanged")
def _ledger(state: CampaignState, ev: LedgerChanged) -> None:
    if ev.kind == "where":
        state.actors[ev.id].where = ev.text
        return
    entries: list[Any] = state.threads if ev.kind == "thread" else state.facts
    if ev.op in ("open", "record"):
        _count_id(state, ev.id)
        if ev.kind == "thread":
            entries.append(Thread(id=ev.id, text=ev.text, source=ev.source, note=ev.note))
        else:
            entries.append(Fact(id=ev.id, text=ev.text, source=ev.source, about=list(ev.about)))
        return
    at = next(i for i, e in enumerate(entries) if e.id == ev.id)
    found = entries[at]  # an immutable value: an edit puts a changed copy in its place
    match ev.op:
        case "edit":
            text = ev.text or found.text
            more = {"note": ev.note} if ev.kind == "thread" else {"about": list(ev.about)}
            entries[at] = found.model_copy(update={"text": text, **more})
        case "resolve":
            entries[at] = found.model_copy(update={"status": "resolved"})
        case "reopen":
            entries[at] = found.model_copy(update={"status": "open"})
        case "vow":
            entries[at] = found.model_copy(update={"rank": ev.rank, "ticks": ev.ticks})
        case "progress":
            entries[at] = found.model_copy(update={"ticks": ev.ticks})
        case "remove":
            del entries[at]


@event
@dataclass(frozen=True, slots=True)
class ProgressRolled(Event):
    """A progress roll on a vow (Ironsworn's): its ``score`` (boxes filled) against two
    challenge d10s, and the result ("strong", "weak", "miss"). ``entered``: the player's own
    dice; ``position``: the campaign's dice after a seeded roll."""

    thread: str
    text: str
    score: int
    challenge: list[int]
    band: str
    entered: bool = False
    position: int = 0


@applier("ProgressRolled")
def _progress_rolled(state: CampaignState, ev: ProgressRolled) -> None:
    if not ev.entered:
        state.dice_position = ev.position


@event
@dataclass(frozen=True, slots=True)
class ThreatConfronted(Event):
    """Heroes (``by``, ids) stood against a threat's NPC this scene (in a fight): the threat
    was confronted, so the scene's end counts it as neither left alone nor ignored."""

    threat: str
    npc: str
    by: list[str] = field(default_factory=list)


@applier("ThreatConfronted")
def _confronted(state: CampaignState, ev: ThreatConfronted) -> None:
    threat = state.threats.get(ev.threat)
    if threat is not None:
        threat.confronted = state.scene.number


__all__ = ["LEDGER_KINDS", "LEDGER_OPS", "LedgerChanged", "ProgressRolled", "ThreadsChanged",
           "ThreatConfronted"]
