"""The story ledger by hand: threads (and vows on them), facts and whereabouts. Each change is
one undoable action (a ``LedgerChanged`` event, journaled), allowed at any stage; threads and
facts are named by id (t1, f2) or by their words. Calling the part reads the whole ledger."""

from __future__ import annotations

from collections.abc import Sequence

from engine.dice import DiceSpec, SeededDice, check_faces
from engine.errors import IllegalAction
from engine.game.host import Host
from engine.nlp.places import scene_place
from engine.rules import events as ev
from engine.rules.events.shown import Shown
from engine.rules.ledger import (
    MAX_TEXT,
    MAX_TICKS,
    RANKS,
    Ledger,
    clean_text,
    find_entry,
    ledger_of,
    progress_band,
    progress_score,
)


class StoryLedger:
    """The story ledger (``game.ledger``; ``game.ledger()`` reads it)."""

    def __init__(self, game: Host) -> None:
        self._g = game

    def __call__(self) -> Ledger:
        """The story ledger: threads (open and resolved), characters (present, whereabouts),
        facts and threats with their clocks, as typed entries (engine/rules/ledger.py)."""
        return ledger_of(self._g.state)

    def _ledger(self, label: str, e: ev.LedgerChanged | ev.SceneMoved) -> list[Shown]:
        with self._g._action(label):
            self._g._emit(e)
        return self._g.last_events

    def add_thread(self, text: str, note: str = "", source: str = "by hand"
                   ) -> list[Shown]:
        """Open a story thread the GM can draw on (refused when the same one is open)."""
        words = clean_text(text, "thread")
        if any(" ".join(t.text.lower().split()) == words.lower()
               for t in self._g.state.open_threads):
            raise IllegalAction(f"the thread {words!r} is already open")
        return self._ledger("add thread", ev.LedgerChanged(
            kind="thread", op="open", id=self._g.state.next_ledger_id("t"), text=words,
            source=source, note=note.strip()))

    def resolve_thread(self, thread: str) -> list[Shown]:
        """Close an open thread (by id or words)."""
        t = find_entry(self._g.state.open_threads, thread, "open thread")
        return self._ledger("resolve thread", ev.LedgerChanged(
            kind="thread", op="resolve", id=t.id, text=t.text))

    def reopen_thread(self, thread: str) -> list[Shown]:
        """Open a resolved thread again (by id or words)."""
        done = [t for t in self._g.state.threads if t.status == "resolved"]
        t = find_entry(done, thread, "resolved thread")
        return self._ledger("reopen thread", ev.LedgerChanged(
            kind="thread", op="reopen", id=t.id, text=t.text))

    def edit_thread(self, thread: str, text: str | None = None, note: str | None = None
                    ) -> list[Shown]:
        """Reword a thread and/or its note (``None``: unchanged)."""
        t = find_entry(self._g.state.threads, thread, "thread")
        words = t.text if text is None else clean_text(text, "thread")
        new_note = t.note if note is None else note.strip()
        if words == t.text and new_note == t.note:
            raise IllegalAction(f"thread {t.id} already reads so")
        return self._ledger("edit thread", ev.LedgerChanged(
            kind="thread", op="edit", id=t.id, text=words, was=t.text, note=new_note))

    def remove_thread(self, thread: str) -> list[Shown]:
        """Strike a thread from the ledger (open or resolved), as if it never was."""
        t = find_entry(self._g.state.threads, thread, "thread")
        return self._ledger("remove thread", ev.LedgerChanged(
            kind="thread", op="remove", id=t.id, was=t.text))

    def _who(self, who: str) -> str | None:
        """The id of the character ``who`` (a name, an id or "hero"), None if none."""
        st = self._g.state
        found = st.actor_by_name(who) or st.actors.get(who) or (
            st.hero if who == "hero" else None)
        return found.id if found is not None else None

    def unknown(self, names: Sequence[str]) -> list[str]:
        """The ``names`` of no character in the story yet (a fact may bring them in)."""
        return [n for n in names if n.strip() and self._who(n) is None]

    def _about(self, about: Sequence[str]) -> list[str]:
        out: list[str] = []
        for who in about:
            found = self._who(who)
            if found is None:
                raise IllegalAction(f"no character called {who!r}: add them to the cast, or"
                                    " give the role they join as")
            if found not in out:
                out.append(found)
        return out

    def add_fact(self, text: str, about: Sequence[str] = (), source: str = "by hand",
                 new_role: str | None = None) -> list[Shown]:
        """Record an established fact, about some characters (names or ids); with
        ``new_role`` the names of no one in the story yet join the cast in that role, in
        the same action."""
        words = clean_text(text, "fact")
        newcomers = self.unknown(about) if new_role else []
        if newcomers:
            with self._g._action("add fact"):
                for name in newcomers:
                    self._g._add_npc(name, str(new_role))
                self._g._emit(ev.LedgerChanged(kind="fact", op="record",
                                               id=self._g.state.next_ledger_id("f"),
                                               text=words, source=source,
                                               about=self._about(about)))
            return self._g.last_events
        return self._ledger("add fact", ev.LedgerChanged(
            kind="fact", op="record", id=self._g.state.next_ledger_id("f"), text=words,
            source=source, about=self._about(about)))

    def edit_fact(self, fact: str, text: str | None = None,
                  about: Sequence[str] | None = None) -> list[Shown]:
        """Reword a fact and/or whom it is about (``None``: unchanged)."""
        f = find_entry(self._g.state.facts, fact, "fact")
        words = f.text if text is None else clean_text(text, "fact")
        who = list(f.about) if about is None else self._about(about)
        if words == f.text and who == f.about:
            raise IllegalAction(f"fact {f.id} already reads so")
        return self._ledger("edit fact", ev.LedgerChanged(
            kind="fact", op="edit", id=f.id, text=words, was=f.text, about=who))

    def remove_fact(self, fact: str) -> list[Shown]:
        """Strike a fact from the ledger."""
        f = find_entry(self._g.state.facts, fact, "fact")
        return self._ledger("remove fact", ev.LedgerChanged(
            kind="fact", op="remove", id=f.id, was=f.text))

    def set_whereabouts(self, npc: str, where: str) -> list[Shown]:
        """Note where an NPC (name or id) was last known to be ("" forgets it)."""
        found = self._g.state.npc_by_name(npc) or self._g.state.npcs.get(npc)
        if found is None:
            raise IllegalAction(f"no NPC called {npc!r}")
        place = " ".join(where.split())
        if len(place) > MAX_TEXT:
            raise IllegalAction(f"whereabouts are at most {MAX_TEXT} characters")
        if place == found.where:
            raise IllegalAction(f"{found.name}'s whereabouts already read {place!r}"
                                if place else f"{found.name}'s whereabouts are unknown already")
        return self._ledger("whereabouts", ev.LedgerChanged(
            kind="where", op="set", id=found.id, text=place, was=found.where))

    def swear_vow(self, thread: str, rank: str = "dangerous") -> list[Shown]:
        """Make an open thread (by id or words) a vow of ``rank`` (troublesome, dangerous,
        formidable, extreme, epic; Ironsworn's) with an empty progress track, or change the
        rank of a vow (its progress stays); ``rank`` "" makes it a plain thread again."""
        t = find_entry(self._g.state.open_threads, thread, "open thread")
        rank = rank.strip().lower()
        if rank and rank not in RANKS:
            raise IllegalAction(f"a vow's rank is one of {', '.join(RANKS)}, not {rank!r}")
        if rank == t.rank:
            raise IllegalAction(f"thread {t.id} is {'a ' + rank + ' vow' if rank else 'no vow'}"
                                " already")
        return self._ledger("swear vow" if rank else "forsake vow", ev.LedgerChanged(
            kind="thread", op="vow", id=t.id, text=t.text, rank=rank,
            ticks=t.ticks if rank else 0))

    def mark_progress(self, thread: str, times: int = 1) -> list[Shown]:
        """Mark progress on an open vow by hand: ``times`` marks of its rank's ticks (a
        dangerous vow fills two boxes a mark), up to a full track; a negative number takes
        progress back."""
        t = find_entry([x for x in self._g.state.open_threads if x.rank], thread, "open vow")
        ticks = min(max(t.ticks + RANKS[t.rank] * times, 0), MAX_TICKS)
        if times == 0 or ticks == t.ticks:
            raise IllegalAction(f"the vow {t.id}'s track is {'full' if ticks else 'empty'}"
                                " already" if times else "mark at least once")
        return self._ledger("mark progress", ev.LedgerChanged(
            kind="thread", op="progress", id=t.id, text=t.text, ticks=ticks,
            delta=ticks - t.ticks, source="by hand"))

    def fulfil_vow(self, thread: str, dice: Sequence[int] | None = None) -> list[Shown]:
        """The progress roll that settles a vow: its progress score (boxes filled) against two
        challenge d10s (``dice``: your own, required with physical dice). A hit (beating one
        die or both) keeps the vow and resolves the thread; a miss leaves it open, for the
        story to push back (raise its rank with ``swear_vow`` to recommit)."""
        t = find_entry([x for x in self._g.state.open_threads if x.rank], thread, "open vow")
        g = self._g
        spec = DiceSpec(2, 10)
        position = g.state.dice_position
        if dice is not None:
            faces = check_faces(spec, list(dice))
        elif g.state.dice_mode == "physical":
            raise IllegalAction("this campaign uses physical dice: enter your two d10s")
        else:
            source = SeededDice(g.state.seed, position, g.state.dice_stream)
            faces = list(source.roll(spec).faces)
            position = source.position
        score = progress_score(t.ticks)
        band = progress_band(score, faces)
        with g._action("fulfil vow"):
            g._emit(ev.ProgressRolled(thread=t.id, text=t.text, score=score, challenge=faces,
                                      band=band, entered=dice is not None, position=position))
            if band != "miss":
                g._emit(ev.LedgerChanged(kind="thread", op="resolve", id=t.id, text=t.text))
        return g.last_events

    def move_scene(self, place: str) -> list[Shown]:
        """The scene's place is ``place`` now (the open scene's; a ``SceneMoved`` event)."""
        where = " ".join(place.split())
        if not where:
            raise IllegalAction("name the place the scene moves to")
        if len(where) > MAX_TEXT:
            raise IllegalAction(f"a place is at most {MAX_TEXT} characters")
        if not self._g.state.scene.open:
            raise IllegalAction("no scene is open")
        if _same_place(where, self._g.state.scene.location):
            raise IllegalAction(f"the scene is at {where} already")
        return self._ledger("move scene", ev.SceneMoved(
            location=where, was=self._g.state.scene.location))

    def _heard(self, text: str) -> None:
        """The fiction ``text`` was just told (inside its action): a place it puts the hero in
        becomes the open scene's place ("I race to the Drowned Chapel")."""
        st = self._g.state
        where = scene_place(text) if st.scene.open else None
        if where is None:
            return
        first, _, rest = where.partition(" ")
        if first.lower() == "my":  # the journal speaks of the acting hero by name or "you"
            where = f"{st.hero.name}'s {rest}"
        elif first.lower() == "our":
            where = f"your {rest}"
        if not _same_place(where, st.scene.location):
            self._g._emit(ev.SceneMoved(location=where, was=st.scene.location))


def _same_place(a: str, b: str) -> bool:
    """Whether two places are the same words (case, "the" and spacing aside)."""
    def key(x: str) -> list[str]:
        ws = x.casefold().replace(",", " ").split()
        return ws[1:] if ws[:1] == ["the"] else ws
    return key(a) == key(b)
