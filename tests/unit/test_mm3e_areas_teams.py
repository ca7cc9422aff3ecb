"""Issue 28, M&M fights: area effects reach everyone in the area, team attacks (the party's and
the referee's minions', on the slowest member's turn), a critical on a minion, and neutralised
combatants. Played through ``Game`` with every die entered by hand.

Numbers (content/mutants-and-masterminds/characters.yaml): Lamplight: Light Lance ranged +10
rank 10, Flashpoint area affliction rank 10 (Fortitude; impaired, disabled, unaware). Keystone:
Granite Fist close +8 rank 12. The Tallyman: Parry 8, Dodge 10, Toughness 8. Dockside Crew (6
minions): Dodge 3, Parry 3, Toughness 3, Fortitude 3, Pistol ranged +4 rank 3.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.content.loader import Pack
from engine.errors import IllegalAction
from tests.unit.test_mm3e_fight import act, fight, pack, put, rolls

__all__ = ["pack"]  # the fixture, shared

Events = list[dict[str, Any]]


def _lines(events: Events, action: str) -> list[str]:
    return [e["text"] for e in events if e["type"] == "FightActed" and e["action"] == action]


# ------------------------------------------------------------------ 1. area effects


def test_an_area_attack_aimed_at_one_minion_reaches_every_foe(pack: Pack) -> None:
    g = fight(pack, ["lamplight"], ["dockside_crew"], [20, 1])
    # aimed at crew 2 (resolved first): it dodges (3 + 17 = 20 vs 10 + 10): rank 5, then
    # resists 3 + 12 = 15 vs 10 + 5; the five others fail both and take the worst degree
    faces = [17, 12] + [5, 5] * 5
    ev = act(g, "attack", faces, target="dockside_crew_2", attack="flashpoint")
    r = rolls(ev)
    dodged = [x["actor"] for x in r if x["what"] == "dodges Flashpoint"]
    assert dodged == ["dockside_crew_2", *(f"dockside_crew_{i}" for i in (1, 3, 4, 5, 6))]
    assert all(x["against"] == 20 for x in r if x["what"] == "dodges Flashpoint")
    resisted = [x["against"] for x in r if x["what"] == "resists Flashpoint"]
    assert resisted == [15] + [20] * 5
    lines = _lines(ev, "area")
    assert len(lines) == 6  # one line per target
    assert lines[0] == "Flashpoint on Dockside Crew 2: dodges for half (rank 5), shrugs it off."
    assert lines[1] == ("Flashpoint on Dockside Crew 1: fails to dodge (rank 10), is unaware by"
                        " Flashpoint until recovery.")
    for i in (1, 3, 4, 5, 6):
        assert "unaware" in g.state.actors[f"dockside_crew_{i}"].conditions
    assert g.state.actors["dockside_crew_2"].conditions == []


# ------------------------------------------------------------------ 2. team attacks


def test_a_hero_teams_up_with_a_teammate_who_delayed_to_her_turn(pack: Pack) -> None:
    g = fight(pack, ["keystone", "lamplight"], ["the_tallyman"], [19, 10, 1])
    fist = next(o for o in g.fight_options() if o.attack and o.attack.id == "granite_fist")
    team = next(m for m in fist.maneuvers if m.id == "team")
    assert team.why == "delay, then team up on Lamplight's turn (the slowest leads)"
    act(g, "delay")
    assert g.fight is not None and g.fight.encounter.acting == "lamplight"
    lance = next(o for o in g.fight_options() if o.attack and o.attack.id == "light_lance")
    team = next(m for m in lance.maneuvers if m.id == "team")
    assert (team.name, team.why, team.switch) == ("Team attack with Keystone", "", True)
    # Lamplight 15 + 10 = 25 vs 20: 2 degrees; Keystone 15 + 8 = 23 vs 18: rank 12 hits;
    # the largest rank (12) + 2 for the other's degrees: Toughness 8 vs 15 + 14
    ev = act(g, "attack", [15, 15, 10], target="the_tallyman", attack="light_lance",
             options={"team": True})
    r = rolls(ev)
    assert [x["actor"] for x in r] == ["lamplight", "keystone", "the_tallyman"]
    assert [x["against"] for x in r] == [20, 18, 29]
    assert "The team attack lands at rank 14 (rank 12 +2 from the others' hits)." in \
        _lines(ev, "team_attack")
    assert r[2]["what"] == "resists the team attack (Granite Fist)"  # the main attack
    # Keystone's delayed turn is spent: nobody waits, and she does not act again this round
    assert all(row.columns.waiting == "" for row in g.tracker())
    g.end_turn()
    assert g.fight is not None and g.fight.encounter.acting == "the_tallyman"


def test_a_team_attack_needs_a_teammate_who_delayed(pack: Pack) -> None:
    g = fight(pack, ["keystone", "lamplight"], ["the_tallyman"], [10, 19, 1])
    lance = next(o for o in g.fight_options() if o.attack and o.attack.id == "light_lance")
    team = next(m for m in lance.maneuvers if m.id == "team")
    assert team.why == "delay, then team up on Keystone's turn (the slowest leads)"
    act(g, "attack", [1], target="the_tallyman", attack="light_lance")
    g.end_turn()  # Lamplight has acted: Keystone cannot team up with her this round
    fist = next(o for o in g.fight_options() if o.attack and o.attack.id == "granite_fist")
    team = next(m for m in fist.maneuvers if m.id == "team")
    assert team.why == "Lamplight must delay to this turn first"
    with pytest.raises(IllegalAction, match="delayed to this turn"):
        g.fight_act("attack", target="the_tallyman", attack="granite_fist",
                    options={"team": True})


def test_a_lone_hero_is_offered_no_team_attack(pack: Pack) -> None:
    g = fight(pack, ["keystone"], ["the_tallyman"], [19, 1])
    assert all(m.id != "team" for o in g.fight_options() for m in o.maneuvers)


# ------------------------------------------------------------------ 3. a critical on a minion


def test_a_critical_on_a_minion_skips_its_resistance_check(pack: Pack) -> None:
    g = fight(pack, ["keystone"], ["dockside_crew"], [19, 1])
    ev = act(g, "attack", [20], target="dockside_crew_1", attack="granite_fist")
    r = rolls(ev)
    assert len(r) == 1 and r[0]["band_name"] == "critical"  # no resistance die
    assert "incapacitated" in g.state.actors["dockside_crew_1"].conditions
    assert any("gets no resistance check" in t for t in _lines(ev, "critical"))


# ------------------------------------------------------------------ 4. neutralised


def test_an_unaware_minion_stops_acting_and_joins_no_team(pack: Pack) -> None:
    g = fight(pack, ["keystone"], ["dockside_crew"], [1, 19])
    put(g, "dockside_crew_2", ["unaware"])
    g.referee_step()
    assert g.fight is not None and g.fight.pending is not None
    assert g.fight.pending.action == "delay"
    assert "Dockside Crew 2" not in (g.fight.pending.why or "")
    g.referee_step()  # crew 1 delays; crew 2 cannot act: its turn is skipped
    assert g.fight.encounter.acting == "dockside_crew_3"
    skipped = [e["text"] for e in g.store.events() if e["type"] == "FightActed"
               and e["action"] == "skip"]
    assert skipped == ["Dockside Crew 2 is unaware and cannot act."]
    while g.fight.pending is None or g.fight.pending.action != "attack":
        g.referee_step()
    assert "dockside_crew_2" not in g.fight.pending.team
    assert g.fight.pending.actor == "dockside_crew_6"  # the slowest of the five who can
    assert g.fight.pending.team == ["dockside_crew_1", "dockside_crew_3", "dockside_crew_4",
                                    "dockside_crew_5"]


def test_an_unaware_foe_is_never_the_default_target_but_can_be_attacked(pack: Pack) -> None:
    g = fight(pack, ["keystone"], ["dockside_crew"], [19, 1])
    put(g, "dockside_crew_1", ["unaware", "defenseless"])  # the easiest to hit
    fist = next(o for o in g.fight_options() if o.attack and o.attack.id == "granite_fist")
    crew1 = fist.target_named("dockside_crew_1")
    assert crew1 is not None and crew1.neutralised == "unaware" and crew1.value == 0.0
    best = fist.best_target()
    assert best is not None and best.id != "dockside_crew_1"
    ev = act(g, "attack", [10, 1], target="dockside_crew_1", attack="granite_fist")
    assert rolls(ev)[0]["against"] == 10  # still a target: defenseless, 10 + 0


def test_a_side_left_with_only_unaware_members_has_lost(pack: Pack) -> None:
    g = fight(pack, ["lamplight"], ["dockside_crew"], [20, 1])
    ev = act(g, "attack", [5, 5] * 6, attack="flashpoint")
    assert not g.fighting
    assert [e["result"] for e in ev if e["type"] == "FightEnded"] == ["the heroes win"]



def test_an_area_covers_what_is_near_its_centre_and_a_teammate_in_melee_there(
        pack: Pack) -> None:
    g = fight(pack, ["lamplight", "keystone"], ["dockside_crew"], [20, 19, 1])
    g.gm.place_fighters("far", "dockside_crew_2", "dockside_crew_5")  # crew 5 stands apart
    g.gm.place_fighters("engaged", "keystone", "dockside_crew_2")  # Keystone in melee there
    before = {a: g.state.actors[a].conditions[:] for a in ("keystone", "dockside_crew_5")}
    # six dice pairs: crew 2 (aimed at) first, crews 1, 3, 4, 6, then Keystone; never crew 5
    ev = act(g, "attack", [5, 5] * 6, target="dockside_crew_2", attack="flashpoint")
    dodged = [x["actor"] for x in rolls(ev) if x["what"] == "dodges Flashpoint"]
    assert dodged[0] == "dockside_crew_2"
    assert "dockside_crew_5" not in dodged and "lamplight" not in dodged
    assert "keystone" in dodged and len(dodged) == 6
    assert g.state.actors["dockside_crew_5"].conditions == before["dockside_crew_5"]


def test_a_dazed_teammate_out_of_reach_cannot_close_in_to_join(pack: Pack) -> None:
    g = fight(pack, ["keystone", "lamplight"], ["the_tallyman"], [19, 10, 1])
    g.gm.place_fighters("close", "keystone", "the_tallyman")  # a move away from his fists
    put(g, "keystone", ["dazed"])  # a standard action only: no move to close in
    act(g, "delay")
    assert g.fight is not None and g.fight.encounter.acting == "lamplight"
    ev = act(g, "attack", [15, 10], target="the_tallyman", attack="light_lance",
             options={"team": True})
    assert [x["actor"] for x in rolls(ev)] == ["lamplight", "the_tallyman"]  # Keystone no roll
    assert any("Keystone is too far from The Tallyman" in t for t in _lines(ev, "team_attack"))
