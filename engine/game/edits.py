"""The sheet by hand: what can be edited on whom, and edits as undoable actions, as a GM
would rule at the table."""

from __future__ import annotations

from collections.abc import Sequence

from engine.errors import IllegalAction
from engine.game.host import Host
from engine.rules import events as ev
from engine.rules.base import CAMPAIGN, Edit, Editable
from engine.rules.events.shown import Shown


class HandEdits:
    """Hand edits of the sheet (``game.edits``)."""

    def __init__(self, game: Host) -> None:
        self._g = game

    def edit_subjects(self) -> list[tuple[str, str]]:
        """Whose values can be edited, as (id, name): the heroes, the NPCs, then the campaign
        (``CAMPAIGN``: pools and clocks) when it has any."""
        st = self._g.state
        out = [(a.id, a.name) for a in st.heroes]
        out += [(a.id, a.name) for a in st.actors.values() if a.kind == "npc"]
        if self._g.rules.editable(st, CAMPAIGN):
            out.append((CAMPAIGN, "The campaign"))
        return out

    def editable(self, who: str = "hero") -> list[Editable]:
        """What can be set by hand on ``who`` (an actor's id or name, "hero" for the acting
        hero, or ``CAMPAIGN``), with the current values and the bounds."""
        return self._g.rules.editable(self._g.state, self._edit_subject(who))

    def edit(self, who: str, what: str, key: str, value: int | bool, reason: str = ""
             ) -> list[Shown]:
        """Correct the sheet by hand, as a GM would rule at the table: mark or clear a
        condition (``value`` True/False), set a stat, a track, a pool, a clock, or what the
        ruleset adds (Masks: Influence). One undoable action, journaled as an edit; between
        moves only."""
        return self.edit_many([Edit(who, what, key, value)], reason)

    def edit_many(self, edits: Sequence[Edit], reason: str = "") -> list[Shown]:
        """Several edits as one action (one undo): all of them, or none if one is refused."""
        self._g._require_stage("fiction")
        if not edits:
            raise IllegalAction("nothing to edit")
        with self._g._action("edit"):
            for e in edits:
                self._g._emit(self._edited(e, reason.strip()))
        return self._g.last_events

    def _edit_subject(self, who: str) -> str:
        """The id ``who`` names for an edit; IllegalAction naming who can be edited."""
        st = self._g.state
        if who == CAMPAIGN:
            return CAMPAIGN
        if who == "hero":
            return st.acting
        if who in st.actors:
            return who
        found = st.actor_by_name(who)
        if found is not None:
            return found.id
        names = ", ".join(f"{name} ({sid})" for sid, name in self.edit_subjects())
        raise IllegalAction(f"no character {who!r} to edit; you can edit: {names}")

    def _edited(self, e: Edit, reason: str) -> ev.Edited:
        """The event for one edit, checked against what the ruleset lets be edited."""
        who = self._edit_subject(e.who)
        owner = "" if who == CAMPAIGN else self._g.state.actors[who].name
        fields = self._g.rules.editable(self._g.state, who)
        kinds = list(dict.fromkeys(f.what for f in fields))
        if e.what not in kinds:
            raise IllegalAction(f"{owner or 'the campaign'} has no {e.what!r} to edit; you can"
                                f" edit: {', '.join(kinds) or 'nothing'}")
        same = [f for f in fields if f.what == e.what]
        field = next((f for f in same if f.key == e.key), None)
        if field is None:
            raise IllegalAction(f"unknown {e.what} {e.key!r} for {owner or 'the campaign'};"
                                f" {e.what}s: {', '.join(f.key for f in same)}")
        value = e.value
        label = f"{owner}: {field.name}" if owner else field.name
        if field.flag:
            if not isinstance(value, bool):
                raise IllegalAction(f"{label} is marked or not: the value is true or false,"
                                    f" not {value!r}")
        elif (isinstance(value, bool) or not isinstance(value, int) or value < field.min
              or (field.max is not None and value > field.max)):
            raise IllegalAction(f"{label} must be {field.bounds()}, not {value!r}")
        if value == field.value:
            raise IllegalAction(f"{label} is already {field.shown(value)}")
        if field.flag:
            text = f"{label} {field.shown(value)}"
        else:
            text = f"{label} {field.shown(field.value)} → {field.shown(value)}"
        return ev.Edited(who=who, what=e.what, key=e.key, value=value, was=field.value,
                         text=text, reason=reason)
