"""The GM's tools a player reaches for by hand: the oracle, the GM's tables, proposing the
next scene, threats with their clocks, and where fighters stand in a fight."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from engine.dice import DiceSpec, SeededDice, entered_die
from engine.errors import IllegalAction
from engine.game.host import Host
from engine.gm import oracle, scenes
from engine.gm.values import GMTable, OracleLevel, SceneProposal
from engine.odds import percent
from engine.rules import events as ev
from engine.rules import threats
from engine.rules.base import effect_item
from engine.rules.events.shown import Shown
from engine.rules.fight.events import PositionsChanged
from engine.rules.fight.positions import placing
from engine.rules.fight.step import require_fight


class GMTools:
    """The GM's tools (``game.gm``)."""

    def __init__(self, game: Host) -> None:
        self._g = game

    def oracle_levels(self) -> list[OracleLevel]:
        """The likelihoods the oracle takes, each with the exact odds at the current tension."""
        out = []
        for lv in oracle.levels(self._g.pack):
            odds = oracle.probabilities(lv.chance, self._g.state.tension)
            out.append(OracleLevel(id=lv.id, name=lv.name, chance=lv.chance,
                                   odds={k: percent(v) for k, v in odds.items()}))
        return out

    def ask_oracle(self, question: str, likelihood: str = "even",
                   roll: int | str | Sequence[int] | None = None) -> list[Shown]:
        """Ask a yes/no question at a likelihood; a d100 answers (yours if ``roll`` is given:
        a number, its text or a one-face list, checked like any entered dice)."""
        self._g._require_stage("fiction", "move")
        try:
            lv = oracle.level(self._g.pack, likelihood)
        except KeyError:
            raise IllegalAction(f"unknown likelihood {likelihood!r}; choose one of"
                                f" {', '.join(x.id for x in oracle.levels(self._g.pack))}"
                                ) from None
        if roll is not None:
            roll = entered_die(roll, 100)
        if roll is None and self._g.state.dice_mode == "physical":
            raise IllegalAction("this campaign uses physical dice: enter your d100 roll")
        position = self._g.state.dice_position
        entered = roll is not None
        if roll is None:
            source = SeededDice(self._g.state.seed, position, self._g.state.dice_stream)
            roll = source.roll(DiceSpec(1, 100)).total
            position = source.position
        tension = self._g.state.tension
        reading = oracle.read(roll, lv.chance, tension)
        odds = {k: percent(v) for k, v in oracle.probabilities(lv.chance, tension).items()}
        with self._g._action("oracle"):
            self._g._emit(ev.OracleAnswered(
                question=question.strip() or "(unspoken question)", level=lv.name,
                chance=lv.chance, roll=roll, answer=reading.answer,
                exceptional=reading.exceptional, twist=reading.event, tension=tension,
                odds=odds, entered=entered, position=position))
            if reading.event:
                step = scenes.random_event(self._g.pack, self._g.state, f"oracle:{roll}")
                for e in step.events:
                    self._g._emit(e)
                self._g._run(step.push)
        return self._g.last_events

    def propose_scene(self, reroll: int = 0, place: int | str | Sequence[int] | None = None
                      ) -> SceneProposal:
        """The GM's proposal for the next scene (a query; ``reroll`` asks for another);
        ``place`` is your own roll on the table of places, d<its total weight>."""
        roll = None
        if place is not None and not (isinstance(place, str) and not place.strip()):
            table = self._g.pack.tables.get("locations")
            if table is None:
                raise IllegalAction(f"{self._g.pack.system.name} has no table of places to roll on")
            roll = entered_die(place, scenes.table_sides(table))
        proposal = scenes.propose_scene(self._g.pack, self._g.state, reroll, roll)
        return proposal if roll is None else replace(proposal, place_roll=roll)

    def place_die(self) -> int | None:
        """The die of the table of places (None if the pack has none), for rolling by hand."""
        table = self._g.pack.tables.get("locations")
        return scenes.table_sides(table) if table is not None else None

    def tables(self) -> list[GMTable]:
        """The pack's tables, each with the die that reads it by hand (d<total weight>)."""
        return [GMTable(id=t.id, name=t.name, sides=scenes.table_sides(t), entries=len(t.entries))
                for t in self._g.pack.tables.values()]

    def roll_table(self, table: str, roll: int | str | Sequence[int] | None = None
                   ) -> list[Shown]:
        """Draw from one of the GM's tables: the GM picks (seeded), or ``roll`` is your own
        roll of d<total weight> (required with physical dice); the entry's effects apply."""
        self._g._require_stage("fiction", "move")
        tdef = self._g.pack.tables.get(table)
        if tdef is None:
            raise IllegalAction(f"no table {table!r}; tables:"
                                f" {', '.join(self._g.pack.tables) or 'none'}")
        sides = scenes.table_sides(tdef)
        if roll is not None and sides > 1:
            roll = entered_die(roll, sides)
        elif roll is None and sides > 1 and self._g.state.dice_mode == "physical":
            raise IllegalAction(f"this campaign uses physical dice: roll a d{sides} for"
                                f" {tdef.name}")
        entered = roll is not None and sides > 1
        if entered:
            assert isinstance(roll, int)
            entry = scenes.entry_for_roll(tdef, roll)
        else:  # the GM's own weighted draw, as for every other table it reads
            drawn = scenes.draw(self._g.pack, self._g.state, table, "hand")
            assert drawn is not None
            entry = drawn
        how = f"your d{sides}: {roll}" if entered else f"the {self._g.pack.system.gm_title}'s pick"
        with self._g._action("table"):
            self._g._emit(ev.Narrated(text=f"{tdef.name} ({how}): {entry.text}", by="gm"))
            self._g._run([effect_item(e, {"source": tdef.name}) for e in entry.effects])
        return self._g.last_events

    def add_threat(self, template: str, name: str = "", npc: str | None = None
                   ) -> list[Shown]:
        """Bring a threat from the pack's templates into play, tied to an NPC if given."""
        tdef = next((t for t in self._g.pack.gm.threats if t.id == template), None)
        if tdef is None:
            raise IllegalAction(f"unknown threat {template!r}; templates:"
                                f" {', '.join(t.id for t in self._g.pack.gm.threats) or 'none'}")
        nid = None
        if npc:
            found = self._g.state.npc_by_name(npc) or self._g.state.npcs.get(npc)
            if found is None:
                raise IllegalAction(f"no NPC called {npc!r}")
            nid = found.id
        with self._g._action("add threat"):
            self._g._emit(threats.threat_event(tdef, self._g.state, name.strip() or None, nid))
        return self._g.last_events

    def advance_threat(self, threat: str, delta: int = 1) -> list[Shown]:
        """Move a threat's clock by hand (the doom strikes when it fills)."""
        t = self._g.state.threats.get(threat)
        if t is None:
            raise IllegalAction(f"no threat {threat!r};"
                                f" threats: {', '.join(self._g.state.threats)}")
        if not t.active:
            raise IllegalAction(f"{t.name} is no longer active")
        with self._g._action("advance threat"):
            step = threats.advance_threat(self._g.pack, self._g.state, t, delta, "by hand")
            for e in step.events:
                self._g._emit(e)
            self._g._run(step.push)
        return self._g.last_events

    def place_fighters(self, band: str, actor: str | None = None, other: str | None = None
                       ) -> list[Shown]:
        """Say where fighters stand (the GM's call, or how the fight opens): ``actor`` and
        ``other`` at ``band`` ("engaged", "close", "ranged", "far"); ``actor`` and everyone
        on the other side; with neither, every hero and every foe
        (engine/rules/fight/positions.py)."""
        fight = require_fight(self._g.state)
        sides = {p.actor: p.side for p in fight.encounter.participants}
        try:
            bands = placing(fight, sides, band, actor, other)
        except ValueError as e:
            raise IllegalAction(str(e)) from None
        with self._g._action("positions"):
            self._g._emit(PositionsChanged(bands=dict(bands)))
        return self._g.last_events
