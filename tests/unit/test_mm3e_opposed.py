"""Opposed checks in M&M fights (engine/systems/mm3e/opposed.py), played through ``Game``:
demoralize, feint and the trip's second roll are opposed by the target's own roll (RULES.md
D.6), the actor's die first and the opponent's second, each labelled, and the roll panel
shows the exact odds over both dice.

Numbers (content/mutants-and-masterminds/characters.yaml): the Tallyman: Intimidation 15,
Deception 15. Keystone: Insight 2, Will 8, Deception 1.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from engine.content.loader import Pack, load_pack
from engine.game import Game
from engine.odds import percent
from engine.rules.fight.dice import outcome_id
from engine.systems.mm3e import actions as ac
from engine.systems.mm3e.opposed import hold_chance, win_chance
from engine.systems.mm3e.registry import CombatantChanged

Events = list[dict[str, Any]]


@pytest.fixture(scope="module")
def pack() -> Pack:
    return load_pack("content/mutants-and-masterminds")


def _tallyman_first(pack: Pack, dice_mode: str = "physical") -> Game:
    g = Game.new(pack, name="t", hero_name="Keystone", archetype="keystone", seed=5,
                 dice_mode=dice_mode)
    g.start_fight(["the_tallyman"], dice=[1, 19])
    if dice_mode == "physical":
        g.set_fight_dice("physical")
    g.take_over("the_tallyman")
    return g


def _rolls(events: Events) -> Events:
    return [e for e in events if e["type"] == "Rolled" and e.get("against") is not None]


@pytest.mark.parametrize(("hers", "shaken"), [(10, "impaired"), (11, None)])
def test_demoralize_is_opposed_by_the_targets_own_roll(pack: Pack, hers: int,
                                                       shaken: str | None) -> None:
    g = _tallyman_first(pack)
    g.fight_act("demoralize", target="keystone")
    need = g.fight_need
    assert need is not None and need.actor == "the_tallyman"
    assert need.odds == f"{float(win_chance(15, 8)):.0%} to win"
    g.fight_die(3)  # 3 + 15 = 18
    need = g.fight_need  # the opponent's die, asked second and labelled
    assert need is not None and need.actor == "keystone"
    assert "opposes The Tallyman" in need.what and "Will 8" in need.what
    assert "19 or more holds" in need.what  # a tie (18) goes to the higher bonus, 15
    assert need.odds == f"{float(hold_chance(3, 15, 8)):.0%} to hold"
    r = _rolls(g.fight_die(hers))[0]
    # her Will 8 (better than Insight 2): 10 + 8 = 18 ties, the higher bonus (15) wins
    assert (r["total"], r["against"]) == (18, hers + 8)
    assert r["against_name"] == f"Keystone: d20 {hers} + Will 8"
    exact = ac.opposed_odds(15, 8)
    assert r["odds"] == {outcome_id(k): percent(p)
                         for k, p in exact.items()}
    assert sum(exact.values()) == Fraction(1)
    assert g.fight is not None
    timed = [e.what for e in g.fight.encounter.effects
             if e.target == "keystone" and e.data.get("kind") == "condition"]
    assert timed == ([shaken] if shaken else [])


def test_feint_is_opposed_and_the_targets_impairment_counts(pack: Pack) -> None:
    g = _tallyman_first(pack)
    with g._action("test set-up"):
        g._emit(CombatantChanged(actor="keystone", conditions=["impaired"], damage=0))
    g.fight_act("feint", target="keystone")
    g.fight_die(1)  # 1 + 15 = 16
    r = _rolls(g.fight_die(20))[0]  # her Insight 2, impaired -2: 20 + 0 = 20
    assert (r["total"], r["against"], r["degree"]) == (16, 20, -1)
    assert r["against_name"] == "Keystone: d20 20 + Insight 2 + condition -2"
    feinted = [e for e in g.fight.encounter.effects if e.what == "feinted"] if g.fight else []
    assert feinted == []


def test_seeded_dice_roll_both_sides(pack: Pack) -> None:
    g = _tallyman_first(pack, dice_mode="seeded")
    before = g.state.dice_position
    r = _rolls(g.fight_act("demoralize", target="keystone"))[0]
    assert g.fight_need is None
    assert g.state.dice_position == before + 2
    theirs = int(r["against_name"].split("d20 ")[1].split(" ")[0])
    assert r["against"] == theirs + 8
    assert r["total"] == r["faces"][0] + 15
