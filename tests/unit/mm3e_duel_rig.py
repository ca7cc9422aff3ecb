"""The Game path of an M&M duel, for the fast duel's agreement tests and its benchmark: one
pack hero (an archetype) against one pack villain, both played by the referee's brain
(``referee.choose``) through ``Game``, seeded dice, called a stalemate past the lab's round
limit."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from engine.content.loader import Pack, load_pack
from engine.game import Game
from engine.rules.duel import DuelRecord, Ending, Winner

ROOT = Path(__file__).resolve().parents[2]
HEROES = {"keystone": "Keystone", "lamplight": "Lamplight", "slipstream": "Slipstream"}
ROUND_LIMIT = 60
"""The lab's ``STALEMATE_ROUNDS``."""


def mm3e_pack() -> Pack:
    """The bundled M&M pack."""
    return load_pack(ROOT / "content" / "mutants-and-masterminds")


Snapshot = tuple[int, frozenset[str], int, frozenset[str]]
"""Side A's damage penalty and lasting conditions, then side B's."""


def snapshot(g: Game, hero_id: str) -> Snapshot:
    """Both sides' damage states now."""
    f = g.fight
    ids = [p.actor for p in f.encounter.participants] if f else list(g.state.actors)
    foe = next(a for a in ids if a != hero_id and a in g.state.actors
               and g.state.actors[a].kind != "hero")
    a, b = g.state.actors[hero_id], g.state.actors[foe]
    return (a.tracks.get("damage", 0), frozenset(a.conditions),
            b.tracks.get("damage", 0), frozenset(b.conditions))


def game_duel(pack: Pack, hero: str, foe: str, seed: int, *,
              dice: list[int] | None = None, trace: list[Snapshot] | None = None
              ) -> tuple[DuelRecord, Game]:
    """One duel through ``Game``: ``hero`` (an archetype id) as side A against ``foe`` (a
    stat block id) as side B, the referee playing both; ``dice``: every d20 entered in
    order instead of seeded ones (the faces used are taken off the list); ``trace``: the
    damage states at each turn's start and at the end."""
    g = Game.new(pack, name="duel", hero_name=HEROES[hero], archetype=hero, seed=seed,
                 dice_mode="physical" if dice is not None else "seeded")
    faces = dice if dice is not None else []
    if dice is not None:
        g.start_fight([foe], dice=faces[:2])
        del faces[:2]
        g.set_fight_dice("physical")
    else:
        g.start_fight([foe])
    fight = g.fight
    assert fight is not None
    hero_id = g.state.party[0]
    g.fights.take_over(hero_id, player=False)
    enc = g.fight.encounter if g.fight else fight.encounter
    first: Literal["A", "B"] = "A" if enc.order[0] == hero_id else "B"
    turns = 0
    last_turn = (-1, "")
    rounds = 1
    while g.fighting:
        f = g.fight
        assert f is not None
        if f.encounter.round > ROUND_LIMIT and g.fight_need is None:
            g.end_fight("stalemate")
            return DuelRecord("nobody", "stalemate", ROUND_LIMIT, turns, first), g
        rounds = f.encounter.round
        key = (f.encounter.round, f.encounter.acting or "")
        if key != last_turn:
            last_turn, turns = key, turns + 1
            if trace is not None:
                trace.append(snapshot(g, hero_id))
        if g.fight_need is not None:
            g.fight_die(faces.pop(0))
            continue
        g.fights._referee_play()
    if trace is not None:
        trace.append(snapshot(g, hero_id))
    return _record(g, first, rounds, turns), g


def _record(g: Game, first: Literal["A", "B"], rounds: int, turns: int) -> DuelRecord:
    ended = g.last_events
    result = next((str(e.get("result", "")) for e in ended if e.get("type") == "FightEnded"),
                  "")
    winner: Winner = "A" if "heroes" in result else "B" if "villains" in result else "nobody"
    how = next((str(e.get("ending", "")) for e in ended if e.get("type") == "FightEnded"), "")
    assert how in ("knocked_out", "fled", "surrendered"), how
    ending: Ending = "fled" if how == "fled" else "surrendered" if how == "surrendered" \
        else "knocked_out"
    return DuelRecord(winner, ending, rounds, turns, first)
