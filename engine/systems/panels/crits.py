"""Critical hits and critical misses: our two d6 tables (the seed's are missing, RULES.md C.3,
C.7 #1), each entry a short name, its text, and an effect the engine can apply.

A natural 20 on an attack is a complete hit plus one entry of ``CRITICAL_HIT``; a natural 1 is
a miss plus one entry of ``CRITICAL_MISS``. The player (for a hit) or the referee (for a miss)
may ``choose`` the entry that suits the fiction instead of rolling.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from engine.dice import entered_die
from engine.errors import IllegalAction

FILLED_IN = (
    "Both d6 tables are ours (C.7 #1). Critical hit (natural 20 on an attack, which also hits"
    " as a complete success): 1 Crushing blow, one more die on the attack's two-dice track;"
    " 2 Knocked flat, the target loses its next panel; 3 Disarmed, the target drops the weapon"
    " or object it holds (a fist or power cannot be dropped: the target loses its next panel"
    " instead); 4 Off balance, the target cannot dodge or parry this hit; 5 Momentum, the"
    " attacker gains one panel now (it repays a panel owed first); 6 Clean strike, every"
    " damage die counts its highest face. Critical miss (natural 1): 1 Stumble, the attacker"
    " loses its next panel; 2 Fumble, the attacker drops its weapon (a fist or power: loses its"
    " next panel instead); 3 Friendly fire, the attack hits the attacker's nearest ally as a"
    " minor success (no ally in reach: nothing else happens); 4 Wide open, the attacker cannot"
    " dodge or parry until the end of the round; 5 Wrenched, the attacker takes one of its own"
    " minor-hit dice as Stun; 6 Jammed, the attack form used cannot be used again this round."
)
"""The rules of this module that the seed leaves out, filled in."""


class Effect(StrEnum):
    """What a table entry does, in terms the fight engine applies."""

    EXTRA_DIE = "extra_die"
    """``amount`` more dice on the attack's two-dice track."""
    TARGET_LOSES_PANEL = "target_loses_panel"
    TARGET_DISARMED = "target_disarmed"
    TARGET_NO_RESPONSE = "target_no_response"
    ATTACKER_GAINS_PANEL = "attacker_gains_panel"
    MAX_DAMAGE = "max_damage"
    ATTACKER_LOSES_PANEL = "attacker_loses_panel"
    ATTACKER_DISARMED = "attacker_disarmed"
    HITS_ALLY = "hits_ally"
    ATTACKER_NO_RESPONSE = "attacker_no_response"
    ATTACKER_STUN_DIE = "attacker_stun_die"
    FORM_JAMMED = "form_jammed"


@dataclass(frozen=True, slots=True)
class CritEntry:
    """One line of a d6 table."""

    face: int
    name: str
    text: str
    effect: Effect
    amount: int = 1

    @property
    def why(self) -> str:
        """E.g. 'Knocked flat (d6 2): the target goes down and loses its next panel'."""
        return f"{self.name} (d6 {self.face}): {self.text}"


CRITICAL_HIT: tuple[CritEntry, ...] = (
    CritEntry(1, "Crushing blow", "one more die on the attack's two-dice track",
              Effect.EXTRA_DIE),
    CritEntry(2, "Knocked flat", "the target goes down and loses its next panel",
              Effect.TARGET_LOSES_PANEL),
    CritEntry(3, "Disarmed", "the target's weapon or object goes flying (nothing to drop: it"
              " loses its next panel)", Effect.TARGET_DISARMED),
    CritEntry(4, "Off balance", "the target cannot dodge or parry this hit",
              Effect.TARGET_NO_RESPONSE),
    CritEntry(5, "Momentum", "the attacker gains one panel at once (repaying a panel owed"
              " first)", Effect.ATTACKER_GAINS_PANEL),
    CritEntry(6, "Clean strike", "every damage die counts its highest face", Effect.MAX_DAMAGE),
)
"""Our d6 table for a natural 20 on an attack."""

CRITICAL_MISS: tuple[CritEntry, ...] = (
    CritEntry(1, "Stumble", "the attacker sprawls and loses its next panel",
              Effect.ATTACKER_LOSES_PANEL),
    CritEntry(2, "Fumble", "the attacker's weapon slips away (nothing to drop: it loses its next"
              " panel)", Effect.ATTACKER_DISARMED),
    CritEntry(3, "Friendly fire", "the blow lands on the attacker's nearest ally as a minor"
              " success", Effect.HITS_ALLY),
    CritEntry(4, "Wide open", "the attacker cannot dodge or parry until the round ends",
              Effect.ATTACKER_NO_RESPONSE),
    CritEntry(5, "Wrenched", "the attacker takes one of its own minor-hit dice as Stun",
              Effect.ATTACKER_STUN_DIE),
    CritEntry(6, "Jammed", "the attack form used is out of action for the rest of the round",
              Effect.FORM_JAMMED),
)
"""Our d6 table for a natural 1 on an attack."""


class Table(StrEnum):
    """Which table."""

    HIT = "critical hit"
    MISS = "critical miss"


TABLES: dict[Table, tuple[CritEntry, ...]] = {Table.HIT: CRITICAL_HIT, Table.MISS: CRITICAL_MISS}


def roll(table: Table, face: int | str) -> CritEntry:
    """The entry of ``table`` for a d6 face (rolled or entered)."""
    return TABLES[table][entered_die(face, 6) - 1]


def choose(table: Table, pick: str | int) -> CritEntry:
    """The entry picked to suit the fiction, by face (1-6), name or effect; ``IllegalAction``
    listing the entries otherwise."""
    entries = TABLES[table]
    if (isinstance(pick, int) and not isinstance(pick, bool)) or str(pick).strip().isdigit():
        face = int(pick)
        if 1 <= face <= len(entries):
            return entries[face - 1]
    else:
        key = str(pick).strip().lower()
        for e in entries:
            if key in (e.name.lower(), e.effect.value, e.effect.value.replace("_", " ")):
                return e
    names = "; ".join(f"{e.face} {e.name}" for e in entries)
    raise IllegalAction(f"the {table.value} table has no entry {pick!r}; pick one of: {names}")
