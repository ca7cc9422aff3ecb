"""The rest of M&M's conflict actions (engine/systems/mm3e/fight_more.py), played through ``Game``
with every die entered by hand (physical dice for the player and the referee).

Numbers used (content/mutants-and-masterminds/characters.yaml): Keystone: Granite Fist close +8
rank 12, Strength 12, Athletics 14, Parry 8, ground speed 1. The Tallyman: Parry 8, Dodge 10,
Strength 0, Agility 1, Toughness 8, Ledger Cane close +8 rank 4. Lamplight: Light Lance ranged
+10 rank 10. Slipstream: Strength 2, Athletics 10, Acrobatics 14.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from engine.content.loader import Pack, load_pack
from engine.errors import IllegalAction
from engine.game import Game
from engine.rules.fight.state import Pending
from engine.systems.mm3e import fight_more as fm
from engine.systems.mm3e.fight import MM3EConflict

Events = list[dict[str, Any]]


@pytest.fixture(scope="module")
def pack() -> Pack:
    return load_pack("content/mutants-and-masterminds")


def _game(pack: Pack, hero: str = "keystone", foes: tuple[str, ...] = ("the_tallyman",),
          init: tuple[int, ...] = (20, 1)) -> Game:
    """A one-hero fight where every die is entered; the hero acts first with ``init``."""
    g = Game.new(pack, name="t", hero_name=hero.title(), archetype=hero, seed=3,
                 dice_mode="physical")
    g.start_fight(list(foes), dice=list(init))
    g.set_fight_dice("physical")
    g.gm.place_fighters("engaged")  # within reach (a fight starts close: test_mm3e_positions.py)
    return g


def _play(g: Game, dice: list[int], fn: Callable[..., Events], *args: Any,
          **kw: Any) -> Events:
    """Call ``fn`` and enter ``dice`` one by one; every die must be used, none missing."""
    events = fn(*args, **kw)
    for face in dice:
        assert g.fight_need is not None, f"no die awaited for {face}"
        events = g.fight_die(face)
    assert g.fight_need is None, f"still waiting: {g.fight_need}"
    return events


def _rolls(events: Events) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == "Rolled" and e.get("against") is not None]


def _texts(events: Events) -> list[str]:
    return [e["text"] for e in events if e["type"] == "FightActed"]


def _item(g: Game, holder: str, item: str) -> dict[str, Any]:
    fight = g.fight
    assert fight is not None
    rec = fight.data.get(fm.ITEMS, {}).get(holder, {}).get(item)
    assert isinstance(rec, dict)
    return rec


# ------------------------------------------------------------------ disarm


def test_disarm_close_is_at_minus_2_and_hits_on_the_exact_parry_class(pack: Pack) -> None:
    g = _game(pack)
    ev = _play(g, [12, 10, 5], g.fight_act, "disarm", target="the_tallyman",
               options={"item": "Ledger Cane"})
    roll = _rolls(ev)[0]
    assert roll["modifiers"] == [["Granite Fist", 8], ["disarm", -2]]
    assert (roll["total"], roll["against"], roll["band_name"]) == (18, 18, "hit")
    assert roll["against_name"] == "10 + Parry 8"
    assert g.fight is not None and g.fight.encounter.budget["standard"] == 0


def test_disarm_close_misses_one_below(pack: Pack) -> None:
    g = _game(pack)
    ev = _play(g, [11], g.fight_act, "disarm", target="the_tallyman",
               options={"item": "Ledger Cane"})
    assert [r["band_name"] for r in _rolls(ev)] == ["miss"]
    assert fm.ITEMS not in (g.fight.data if g.fight else {})


def test_disarm_at_range_is_at_minus_5_against_dodge(pack: Pack) -> None:
    g = _game(pack, hero="lamplight")
    ev = _play(g, [15, 2, 20], g.fight_act, "disarm", target="the_tallyman",
               options={"item": "Ledger Cane"})
    roll = _rolls(ev)[0]
    assert roll["modifiers"] == [["Light Lance", 10], ["disarm at range", -5]]
    assert (roll["total"], roll["against"], roll["band_name"]) == (20, 20, "hit")


def test_disarm_opposed_damage_against_strength_drops_the_item(pack: Pack) -> None:
    g = _game(pack)
    ev = _play(g, [12, 3, 14], g.fight_act, "disarm", target="the_tallyman",
               options={"item": "ledger cane"})
    opposed = _rolls(ev)[1]
    # Keystone 3 + rank 12 = 15 against the Tallyman's 14 + Strength 0
    assert (opposed["total"], opposed["against"]) == (15, 14)
    assert opposed["band_name"] == "win, 1 degree"
    assert _item(g, "the_tallyman", "ledger_cane")["state"] == "dropped"


def test_disarm_lost_to_strength_keeps_the_item(pack: Pack) -> None:
    g = _game(pack)
    ev = _play(g, [12, 1, 14], g.fight_act, "disarm", target="the_tallyman",
               options={"item": "Ledger Cane"})
    assert _rolls(ev)[1]["band_name"] == "lose, 1 degree"  # 13 vs 14
    assert fm.ITEMS not in (g.fight.data if g.fight else {})
    assert "The Tallyman keeps hold of Ledger Cane." in _texts(ev)


def test_unarmed_disarm_may_take_the_item(pack: Pack) -> None:
    g = _game(pack)
    _play(g, [12, 10, 5], g.fight_act, "disarm", target="the_tallyman",
          options={"item": "Ledger Cane", "take": True})
    rec = _item(g, "the_tallyman", "ledger_cane")
    assert (rec["state"], rec["by"]) == ("taken", "keystone")


def test_a_lost_weapon_disarm_gives_the_referees_defender_a_counter_disarm(pack: Pack) -> None:
    g = _game(pack)
    # disarm hits, loses 13 vs 14; the Tallyman counters: d20 18 + Ledger Cane 4 = 22 against
    # Keystone's d20 9 + Strength 12 = 21 -> Keystone drops Granite Fist (her weapon here)
    ev = _play(g, [12, 1, 14, 18, 9], g.fight_act, "disarm", target="the_tallyman",
               options={"item": "Ledger Cane", "weapon": True})
    counter = _rolls(ev)[2]
    assert counter["actor"] == "the_tallyman"
    assert counter["modifiers"] == [["Ledger Cane", 4]]
    assert (counter["total"], counter["against"]) == (22, 21)
    assert _item(g, "keystone", "granite_fist")["state"] == "dropped"


def test_an_unarmed_lost_disarm_gives_no_counter(pack: Pack) -> None:
    g = _game(pack)
    ev = _play(g, [12, 1, 14], g.fight_act, "disarm", target="the_tallyman",
               options={"item": "Ledger Cane"})
    assert len(_rolls(ev)) == 2


def test_a_players_defender_is_offered_the_counter_disarm_off_turn(pack: Pack) -> None:
    g = _game(pack, init=(1, 20))  # the Tallyman first
    g.take_over("the_tallyman")
    _play(g, [15, 1, 20], g.fight_act, "disarm", target="keystone",
          options={"item": "Granite Fist", "weapon": True})  # 1+4 vs 20+12: lost
    assert g.fight is not None and g.fight.encounter.acting == "the_tallyman"
    ev = _play(g, [20, 1], g.fight_act, "counter_disarm", actor="keystone")
    # Keystone's Granite Fist 12 + 20 against the Tallyman's 1 + Strength 0
    assert _rolls(ev)[0]["actor"] == "keystone"
    assert _item(g, "the_tallyman", "ledger_cane")["state"] == "dropped"
    with pytest.raises(IllegalAction, match="no counter-disarm"):
        g.fight_act("counter_disarm", actor="keystone")


def test_disarm_needs_an_item_named(pack: Pack) -> None:
    g = _game(pack)
    with pytest.raises(IllegalAction, match="disarm what"):
        g.fight_act("disarm", target="the_tallyman")


def test_a_dropped_weapon_cannot_be_used_until_picked_up(pack: Pack) -> None:
    g = _game(pack)
    _play(g, [], g.fight_act, "drop_item", options={"item": "Granite Fist"})
    assert _item(g, "keystone", "granite_fist")["state"] == "dropped"
    with pytest.raises(IllegalAction, match="Granite Fist is dropped"):
        g.fight_act("attack", target="the_tallyman", attack="granite_fist")
    _play(g, [], g.fight_act, "pick_up")
    assert _item(g, "keystone", "granite_fist")["state"] == "held"
    assert g.fight is not None and g.fight.encounter.budget["move"] == 0
    _play(g, [19, 1], g.fight_act, "attack", target="the_tallyman", attack="granite_fist")


def test_pick_up_with_nothing_dropped_is_refused(pack: Pack) -> None:
    g = _game(pack)
    with pytest.raises(IllegalAction, match="dropped nothing"):
        g.fight_act("pick_up")


# ------------------------------------------------------------------ smash


def test_smash_a_held_object_is_at_minus_5(pack: Pack) -> None:
    g = _game(pack)
    ev = _play(g, [15, 10], g.fight_act, "smash", target="the_tallyman",
               options={"item": "Ledger Cane", "material": "wood"})
    roll = _rolls(ev)[0]
    assert roll["modifiers"] == [["Granite Fist", 8], ["held object", -5]]
    assert (roll["total"], roll["against"], roll["band_name"]) == (18, 18, "hit")


def test_smash_a_worn_object_has_no_penalty(pack: Pack) -> None:
    g = _game(pack)
    ev = _play(g, [10, 10], g.fight_act, "smash", target="the_tallyman",
               options={"item": "spectacles", "worn": True, "toughness": 1})
    roll = _rolls(ev)[0]
    assert roll["modifiers"] == [["Granite Fist", 8]]
    assert (roll["total"], roll["band_name"]) == (18, "hit")


def test_smash_object_resists_15_plus_rank_and_2_degrees_break_it(pack: Pack) -> None:
    g = _game(pack)
    # wood: Toughness 3; DC 15 + 12 = 27; d20 14 + 3 = 17: missed by 10, 2 degrees
    ev = _play(g, [15, 14], g.fight_act, "smash", target="the_tallyman",
               options={"item": "Ledger Cane", "material": "wood"})
    res = _rolls(ev)[1]
    assert res["modifiers"] == [["Ledger Cane Toughness (wood)", 3]]
    assert (res["total"], res["against"], res["degree"]) == (17, 27, -2)
    assert _item(g, "the_tallyman", "ledger_cane")["state"] == "broken"


def test_smash_3_degrees_destroy_it(pack: Pack) -> None:
    g = _game(pack)
    ev = _play(g, [15, 13], g.fight_act, "smash", target="the_tallyman",
               options={"item": "Ledger Cane", "material": "wood"})
    assert _rolls(ev)[1]["degree"] == -3  # 16 vs 27
    assert _item(g, "the_tallyman", "ledger_cane")["state"] == "destroyed"


def test_smash_1_degree_leaves_it_intact_and_dented(pack: Pack) -> None:
    g = _game(pack)
    _play(g, [15, 19], g.fight_act, "smash", target="the_tallyman",
          options={"item": "Ledger Cane", "material": "wood"})  # 22 vs 27
    rec = _item(g, "the_tallyman", "ledger_cane")
    assert (rec["state"], rec["penalty"]) == ("intact", 1)


def test_smash_a_device_has_its_points_over_5_as_toughness(pack: Pack) -> None:
    g = _game(pack)
    ev = _play(g, [15, 20], g.fight_act, "smash", target="the_tallyman",
               options={"item": "Ledger Cane", "points": 14})
    assert _rolls(ev)[1]["modifiers"] == [["Ledger Cane Toughness (device of 14 points)", 2]]


def test_smash_critical_adds_5_to_the_dc(pack: Pack) -> None:
    g = _game(pack)
    ev = _play(g, [20, 20], g.fight_act, "smash", target="the_tallyman",
               options={"item": "Ledger Cane", "toughness": 5})
    assert _rolls(ev)[0]["band_name"] == "critical"
    assert _rolls(ev)[1]["against"] == 32


def test_smash_needs_a_toughness(pack: Pack) -> None:
    g = _game(pack)
    with pytest.raises(IllegalAction, match="how tough"):
        g.fight_act("smash", target="the_tallyman", options={"item": "Ledger Cane"})
    with pytest.raises(IllegalAction, match="unknown material"):
        g.fight_act("smash", target="the_tallyman",
                    options={"item": "Ledger Cane", "material": "cheese"})


# ------------------------------------------------------------------ ready


def test_ready_then_take_it_off_turn_as_a_reaction(pack: Pack) -> None:
    g = _game(pack)
    _play(g, [], g.fight_act, "ready",
          options={"action": "attack", "trigger": "the Tallyman reaches for his ledger"})
    fight = g.fight
    assert fight is not None
    p = fight.encounter.participant("keystone")
    assert (p.held, p.readied) == ("ready", "standard")
    assert fight.encounter.budget == {"standard": 0, "move": 1}
    g.end_turn()
    assert g.fight is not None and g.fight.encounter.acting == "the_tallyman"
    tally = g.fight.encounter.participant("the_tallyman").initiative
    ev = _play(g, [15, 10], g.fight_act, "attack", target="the_tallyman", actor="keystone",
               attack="granite_fist", options={"readied": True})
    assert _rolls(ev)[0]["actor"] == "keystone"
    assert "The Tallyman reaches for his ledger: Keystone acts on it (attack)." in _texts(ev)
    fight = g.fight
    assert fight is not None
    p = fight.encounter.participant("keystone")
    assert p.held is None and p.initiative == tally
    # the Tallyman's turn goes on, its budget untouched
    assert fight.encounter.acting == "the_tallyman"
    assert fight.encounter.budget == {"standard": 1, "move": 1}
    with pytest.raises(IllegalAction, match="no readied action"):
        g.fight_act("attack", target="the_tallyman", actor="keystone",
                    options={"readied": True})


def test_a_readied_action_must_be_the_one_readied(pack: Pack) -> None:
    g = _game(pack)
    _play(g, [], g.fight_act, "ready", options={"action": "trip", "trigger": "he moves"})
    g.end_turn()
    with pytest.raises(IllegalAction, match="readied trip, not attack"):
        g.fight_act("attack", target="the_tallyman", actor="keystone",
                    options={"readied": True})


def test_ready_refuses_whole_turn_actions_and_an_empty_trigger(pack: Pack) -> None:
    g = _game(pack)
    with pytest.raises(IllegalAction, match="recover"):
        g.fight_act("ready", options={"action": "recover", "trigger": "hurt"})
    with pytest.raises(IllegalAction, match="trigger"):
        g.fight_act("ready", options={"action": "attack", "trigger": "  "})
    with pytest.raises(IllegalAction, match="ready which action"):
        g.fight_act("ready", options={"action": "dance", "trigger": "music"})


def test_a_readied_action_is_lost_when_the_next_turn_begins(pack: Pack) -> None:
    g = _game(pack)
    _play(g, [], g.fight_act, "ready", options={"action": "attack", "trigger": "he moves"})
    g.end_turn()
    g.end_turn()  # the Tallyman's turn ends unused; Keystone's next turn begins
    fight = g.fight
    assert fight is not None and fight.encounter.acting == "keystone"
    assert fight.encounter.participant("keystone").held is None
    g.end_turn()
    with pytest.raises(IllegalAction, match="no readied action"):
        g.fight_act("attack", target="the_tallyman", actor="keystone",
                    options={"readied": True})


# ------------------------------------------------------------------ holds


def _grabbed(pack: Pack, hero: str = "keystone") -> Game:
    """The hero has grabbed the Tallyman (bound: the grab's 2 degrees) and has a move left."""
    g = _game(pack, hero=hero)
    _play(g, [19, 1], g.fight_act, "grab", target="the_tallyman")
    fight = g.fight
    assert fight is not None and "the_tallyman" in fight.holds
    return g


def test_grab_damage_waits_for_the_turn_after_the_hold(pack: Pack) -> None:
    g = _grabbed(pack)
    g.end_turn()
    g.end_turn()  # the Tallyman's turn
    assert g.fight is not None and g.fight.encounter.acting == "keystone"
    ev = _play(g, [10], g.fight_act, "grab_damage")
    res = _rolls(ev)[0]
    # Toughness 8 (bound: impaired -2) against 15 + Keystone's Strength 12
    assert res["actor"] == "the_tallyman" and res["against"] == 27
    assert res["modifiers"] == [["Toughness", 8], ["impaired", -2]]
    assert res["degree"] == -3  # 16 vs 27
    tally = g.state.actors["the_tallyman"]
    assert tally.tracks["damage"] == 1 and "staggered" in tally.conditions


def test_a_new_hold_is_stamped_with_the_grabbers_turn(pack: Pack) -> None:
    g = _grabbed(pack)
    fight = g.fight
    assert fight is not None
    assert fight.data[fm.HOLD_TURN] == {"the_tallyman": 1}


def test_grab_damage_without_a_hold_is_refused(pack: Pack) -> None:
    g = _game(pack)
    with pytest.raises(IllegalAction, match="holds nobody"):
        g.fight_act("grab_damage")


def test_drag_the_held_target_resists_with_strength_against_10_plus_strength(
        pack: Pack) -> None:
    g = _grabbed(pack)
    ev = _play(g, [19], g.fight_act, "drag", options={"to": "toward the pier"})
    res = _rolls(ev)[0]
    assert (res["actor"], res["modifiers"], res["total"], res["against"]) == (
        "the_tallyman", [["Strength", 0]], 19, 22)
    assert "Keystone drags The Tallyman along toward the pier." in _texts(ev)


def test_a_resisted_drag_leaves_the_grabber_immobile_this_turn(pack: Pack) -> None:
    g = _game(pack, hero="slipstream")
    _play(g, [19, 1], g.fight_act, "grab", target="the_tallyman")
    assert g.fight is not None and "the_tallyman" in g.fight.holds
    ev = _play(g, [12], g.fight_act, "drag")  # 12 + 0 vs 10 + Strength 2
    assert _rolls(ev)[0]["against"] == 12
    # the drag was the turn's last action: the fight as it stood after it, before the turn ended
    effects = [e for e in ev if e["type"] == "EffectAdded"]
    assert [(e["target"], e["what"], e["duration"]) for e in effects
            if e["what"] == "immobile"] == [("slipstream", "immobile", "end_of_turn")]


# ------------------------------------------------------------------ command, crawl, run


def test_command_an_allied_minion_costs_a_move(pack: Pack) -> None:
    g = _game(pack, foes=("madame_undertow", "dockside_crew"), init=(1, 20, 2))
    g.take_over("madame_undertow")
    assert g.fight is not None and g.fight.encounter.acting == "madame_undertow"
    minion = next(a for a in g.state.actors if a.startswith("dockside_crew"))
    ev = _play(g, [], g.fight_act, "command", target=minion,
               options={"order": "cover the gangway"})
    assert g.fight is not None and g.fight.encounter.budget == {"standard": 1, "move": 0}
    assert any("cover the gangway" in t for t in _texts(ev))


def test_command_needs_a_minion_and_an_order(pack: Pack) -> None:
    g = _game(pack, foes=("madame_undertow", "the_tallyman"), init=(1, 20, 2))
    g.take_over("madame_undertow")
    with pytest.raises(IllegalAction, match="not a minion"):
        g.fight_act("command", target="the_tallyman", options={"order": "go"})


def test_crawl_needs_prone_and_moves_at_ground_speed_minus_1(pack: Pack) -> None:
    g = _game(pack)
    with pytest.raises(IllegalAction, match="prone"):
        g.fight_act("crawl")
    _play(g, [], g.fight_act, "drop_prone")
    ev = _play(g, [], g.fight_act, "crawl")
    assert any("speed rank 0, 30 ft" in t for t in _texts(ev))  # ground 1 - 1


@pytest.mark.parametrize(("face", "runs"), [(5, True), (4, False)])
def test_run_is_dc_15_athletics_for_plus_1_speed_rank(pack: Pack, face: int,
                                                      runs: bool) -> None:
    g = _game(pack, hero="slipstream")
    ev = _play(g, [face], g.fight_act, "run")
    res = _rolls(ev)[0]
    assert (res["modifiers"], res["against"]) == ([["Athletics", 10]], 15)
    fight = g.fight
    assert fight is not None
    bonus = [e for e in fight.encounter.effects if e.target == "slipstream"
             and e.data.get("what") == "speed"]
    assert [e.data["value"] for e in bonus] == ([1] if runs else [])
    assert fight.encounter.budget == {"standard": 1, "move": 1}  # a free action


# ------------------------------------------------------------------ counter-trip


def test_a_lost_trip_is_countered_by_the_referees_defender(pack: Pack) -> None:
    g = _game(pack, init=(1, 20))  # the Tallyman first
    g.take_over("the_tallyman")
    g.take_over("keystone", player=False)
    # trip hits (12 + 8 - 2 = 18 vs 18); opposed, both roll: the Tallyman 10 + 1 = 11
    # against Keystone's 1 + 14 = 15, she keeps her feet; the referee's Keystone trips back:
    # 10 + 14 = 24 against the Tallyman's 10 + 1 = 11 -> prone
    ev = _play(g, [12, 10, 1, 10, 10], g.fight_act, "trip", target="keystone")
    back = _rolls(ev)[2]
    assert back["actor"] == "keystone"
    assert (back["total"], back["against"]) == (24, 11)
    assert "prone" in g.state.actors["the_tallyman"].conditions


def test_a_players_defender_is_offered_the_counter_trip(pack: Pack) -> None:
    g = _game(pack, init=(1, 20))
    g.take_over("the_tallyman")
    ev = _play(g, [12, 10, 1], g.fight_act, "trip", target="keystone")  # 11 vs 15
    assert len(_rolls(ev)) == 2
    assert "prone" not in g.state.actors["the_tallyman"].conditions
    ev = _play(g, [19, 10], g.fight_act, "counter_trip", actor="keystone")  # 33 vs 11
    assert "prone" in g.state.actors["the_tallyman"].conditions


def test_a_won_trip_gives_no_counter(pack: Pack) -> None:
    g = _game(pack)
    _play(g, [12, 10, 5], g.fight_act, "trip", target="the_tallyman")  # 24 vs 6
    assert "prone" in g.state.actors["the_tallyman"].conditions
    with pytest.raises(IllegalAction, match="counter-trip"):
        g.fight_act("counter_trip")


# ------------------------------------------------------------------ hero points


def test_a_hero_point_makes_a_die_of_10_or_less_count_plus_10(pack: Pack) -> None:
    g = _game(pack)
    assert g.state.actors["keystone"].tracks["hero_points"] == 1
    ev = _play(g, [4, 10], g.fight_act, "attack", target="the_tallyman",
               attack="granite_fist", options={"hero_point": True})
    spent = [e for e in ev if e["type"] == "HeroPointSpent"]
    assert len(spent) == 1 and "shows 4, which counts as 14" in spent[0]["why"]
    attack = _rolls(ev)[0]
    assert (attack["faces"][0], attack["total"], attack["band_name"]) == (14, 22, "hit")
    assert _rolls(ev)[1]["faces"][0] == 10  # only the first d20 of the action
    assert g.state.actors["keystone"].tracks["hero_points"] == 0


def test_a_hero_point_leaves_a_die_over_10_alone(pack: Pack) -> None:
    g = _game(pack)
    ev = _play(g, [11, 10], g.fight_act, "attack", target="the_tallyman",
               options={"hero_point": True})
    assert _rolls(ev)[0]["faces"][0] == 11
    assert g.state.actors["keystone"].tracks["hero_points"] == 0


def test_no_hero_points_left_is_refused(pack: Pack) -> None:
    g = _game(pack)
    _play(g, [11, 10], g.fight_act, "attack", target="the_tallyman",
          options={"hero_point": True})
    g.end_turn()
    g.end_turn()
    with pytest.raises(IllegalAction, match="no hero points left"):
        g.fight_act("attack", target="the_tallyman", options={"hero_point": True})


def test_a_hero_point_on_an_action_with_no_d20_is_refused_and_not_spent(pack: Pack) -> None:
    g = _game(pack)
    with pytest.raises(IllegalAction, match="rolls no d20"):
        g.fight_act("move", options={"hero_point": True})
    assert g.state.actors["keystone"].tracks["hero_points"] == 1
    assert g.fight is not None and g.fight.encounter.budget == {"standard": 1, "move": 1}


def test_a_hero_point_on_a_readied_action(pack: Pack) -> None:
    g = _game(pack)
    _play(g, [], g.fight_act, "ready", options={"action": "attack", "trigger": "he moves"})
    g.end_turn()
    ev = _play(g, [1, 10], g.fight_act, "attack", target="the_tallyman", actor="keystone",
               options={"readied": True, "hero_point": True})
    assert _rolls(ev)[0]["faces"][0] == 11
    assert g.state.actors["keystone"].tracks["hero_points"] == 0


# ------------------------------------------------------------------ options


def test_available_actions_follow_the_situation(pack: Pack) -> None:
    g = _game(pack)
    fight = g.fight
    assert fight is not None
    ctx = MM3EConflict(pack).step(g.state)
    assert not fm.available(ctx, "keystone", "crawl")
    assert not fm.available(ctx, "keystone", "grab_damage")
    assert not fm.available(ctx, "keystone", "counter_trip")
    assert not fm.available(ctx, "keystone", "readied")
    assert fm.available(ctx, "keystone", "disarm")


def test_options_leave_out_what_makes_no_sense_and_offer_counters_off_turn(
        pack: Pack) -> None:
    g = _game(pack, init=(1, 20))
    g.take_over("the_tallyman")
    mine = {o.action for o in g.fight_options()}
    assert {"disarm", "smash", "ready", "run", "drop_item"} <= mine
    assert not mine & {"readied", "counter_trip", "counter_disarm", "crawl", "grab_damage",
                       "drag", "pick_up", "command"}
    _play(g, [12, 10, 1], g.fight_act, "trip", target="keystone")  # lost: Keystone's offered
    hers = {o.action: o.allowed for o in g.fight_options("keystone")}
    assert hers["counter_trip"] is True and hers["attack"] is False


def test_options_allow_the_readied_action_off_turn(pack: Pack) -> None:
    g = _game(pack)
    _play(g, [], g.fight_act, "ready", options={"action": "trip", "trigger": "he moves"})
    g.end_turn()
    allowed = [o for o in g.fight_options("keystone") if o.allowed]
    assert [(o.action, o.readied) for o in allowed] == [("trip", True)]


def test_the_referee_swaps_a_lost_weapon_for_another_attack(pack: Pack) -> None:
    g = _game(pack)
    _play(g, [12, 10, 5], g.fight_act, "disarm", target="the_tallyman",
          options={"item": "Ledger Cane"})
    fight = g.fight
    assert fight is not None
    ctx = MM3EConflict(pack).step(g.state)
    p = Pending(actor="the_tallyman", action="attack", target="keystone",
                attack="ledger_cane", by="referee")
    assert fm._usable_attack(ctx, p).attack == "call_in_the_debt"
    with pytest.raises(IllegalAction, match="Ledger Cane is dropped"):
        fm._usable_attack(ctx, p.model_copy(update={"by": "player"}))


def test_a_readied_trip_is_taken_off_turn_and_may_be_countered(pack: Pack) -> None:
    g = _game(pack, hero="slipstream")
    _play(g, [], g.fight_act, "ready", options={"action": "trip", "trigger": "he lunges"})
    g.end_turn()
    # Slipstream's trip: 12 + 12 - 2 = 22 vs 18; opposed 10 + 14 against the Tallyman's 5 + 1
    ev = _play(g, [12, 10, 5], g.fight_act, "trip", target="the_tallyman", actor="slipstream",
               options={"readied": True})
    assert [r["actor"] for r in _rolls(ev)] == ["slipstream", "slipstream"]
    assert "prone" in g.state.actors["the_tallyman"].conditions
    assert g.fight is not None and g.fight.encounter.budget == {"standard": 1, "move": 1}
