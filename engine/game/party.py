"""The party and the cast: NPCs joining, heroes joining and taking the spotlight, who is in
the scene, and how each NPC stands toward each hero. Each change is one undoable action."""

from __future__ import annotations

import re

from engine.errors import IllegalAction
from engine.game.host import Host
from engine.heroes import hero_added, new_hero, validate_hero
from engine.rules import events as ev
from engine.rules.events.shown import Shown
from engine.rules.stance import stance_event, stance_of

FIRST_PERSON = frozenset({"i", "me", "my", "mine", "myself", "i'm", "i'll", "i've", "i'd"})
"""Words that say a line is the acting hero's, even when it starts with another's name."""


class Party:
    """The party and the cast (``game.party``)."""

    def __init__(self, game: Host) -> None:
        self._g = game

    def add_npc(self, name: str, role: str, note: str = "") -> list[Shown]:
        """Bring an NPC into the campaign (and the scene)."""
        with self._g._action("add NPC"):
            self._g._add_npc(name, role, note)
        return self._g.last_events

    def add_hero(self, name: str, archetype: str | None = None,
                 stats: dict[str, int] | None = None) -> list[Shown]:
        """Another hero joins the party (the player runs them too)."""
        self._g._require_stage("fiction")
        hero_stats = validate_hero(self._g.pack, archetype, stats)
        hero = new_hero(self._g.pack, name, archetype, hero_stats, taken=list(self._g.state.actors))
        with self._g._action(f"{hero.name} joins the party"):
            self._g._emit(hero_added(self._g.pack, hero))
            for e in self._g.rules.hero_joined(self._g.state, hero.id):
                self._g._emit(e)
        return self._g.last_events

    def switch_hero(self, hero: str) -> list[Shown]:
        """Hand the spotlight to another hero of the party: the next moves are theirs."""
        self._g._require_stage("fiction")
        st = self._g.state
        found = st.actor_by_name(hero, kinds=("hero",)) or (
            st.actors.get(hero) if hero in st.party else None)
        if found is None:
            names = ", ".join(h.name for h in st.heroes)
            raise IllegalAction(f"no hero called {hero!r} in the party ({names})")
        if found.id == st.acting:
            raise IllegalAction(f"{found.name} is already acting")
        with self._g._action(f"{found.name} takes the spotlight"):
            self._g._emit(ev.HeroSwitched(hero=found.id, was=st.acting))
        return self._g.last_events

    def speaker(self, text: str) -> str | None:
        """The id of the party's hero (not the acting one) a fiction line starts with, as in
        "Tin hacks the drone" (that line is theirs), or None: the name then a space or a
        comma, not "Tin's", and no "I", "me" or "my" after it ("Tin was right about me" is
        the acting hero's); the longest name wins."""
        st = self._g.state
        low = text.strip().lower()
        for h in sorted(st.heroes, key=lambda h: -len(h.name)):
            name = h.name.lower()
            if (h.id != st.acting and low.startswith(name) and len(low) > len(name)
                    and low[len(name)] in " ,:"
                    and not FIRST_PERSON.intersection(re.findall(r"[a-z']+", low[len(name):]))):
                return h.id
        return None

    def set_presence(self, npc: str, present: bool) -> list[Shown]:
        """An NPC enters or leaves the scene."""
        found = self._g.state.npc_by_name(npc) or self._g.state.npcs.get(npc)
        if found is None:
            raise IllegalAction(f"no NPC called {npc!r}")
        with self._g._action("presence"):
            self._g._emit(ev.NPCPresence(npc=found.id, present=present))
        return self._g.last_events

    def stance(self, npc: str, hero: str | None = None) -> str:
        """How ``npc`` stands toward ``hero`` (a name or id; None: the acting hero)."""
        found = self._g.state.npc_by_name(npc) or self._g.state.npcs.get(npc)
        if found is None:
            raise IllegalAction(f"no NPC called {npc!r}")
        return stance_of(self._g.pack, self._g.state, found.id, self._hero_id(hero))

    def set_stance(self, npc: str, stance: str, hero: str | None = None, reason: str = ""
                   ) -> list[Shown]:
        """Set how ``npc`` stands toward ``hero`` (None: the acting hero): hostile, wary,
        neutral, warm or devoted. One undoable action; nothing happens if it is already so."""
        found = self._g.state.npc_by_name(npc) or self._g.state.npcs.get(npc)
        if found is None:
            raise IllegalAction(f"no NPC called {npc!r}")
        with self._g._action("stance"):
            e = stance_event(self._g.pack, self._g.state, found.id, stance,
                             hero=self._hero_id(hero), reason=reason.strip() or "set by hand")
            if e is not None:
                self._g._emit(e)
        return self._g.last_events

    def _hero_id(self, hero: str | None) -> str:
        if hero is None:
            return "hero"
        found = self._g.state.actor_by_name(hero, kinds=("hero",))
        if found is None:
            names = ", ".join(h.name for h in self._g.state.heroes)
            raise IllegalAction(f"no hero called {hero!r} (heroes: {names})")
        return found.id
