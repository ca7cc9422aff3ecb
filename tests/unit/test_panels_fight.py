"""The panels game's fights on the conflict layer (engine/systems/panels/fight.py), driven
through Game with the bundled pack."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from engine.content.loader import Pack, load_pack
from engine.errors import IllegalAction
from engine.game import Game
from engine.journal import render_all
from engine.rules.fight.values import ChoiceNeed, DieNeed, PanelColumns, TrackerRow
from engine.systems.panels import step as pf
from engine.systems.panels.checks import Band
from engine.systems.panels.damage import Damage, DamageDice, damage_dice
from engine.systems.panels.responses import apply_parry

CONTENT = Path(__file__).resolve().parents[2] / "content" / "panels"


@pytest.fixture(scope="module")
def pack() -> Pack:
    """The bundled panels pack (Halberd City)."""
    return load_pack(CONTENT)


def new(pack: Pack, hero: str = "rivet", physical: bool = False, seed: int = 7) -> Game:
    """A one-hero campaign; in physical mode the referee's dice are typed in too."""
    return Game.new(pack, name="t", hero_name=hero.title(), archetype=hero, seed=seed,
                    dice_mode="physical" if physical else "seeded")


def physical_fight(pack: Pack, foes: list[str], dice: list[int], hero: str = "rivet") -> Game:
    """A fight where every die is entered."""
    g = new(pack, hero, physical=True)
    g.start_fight(foes, dice=dice)
    g.set_fight_dice("physical")
    return g


def enter(g: Game, *faces: int) -> None:
    """Enter the dice the fight waits for, one after another."""
    for f in faces:
        need = g.fight_need
        assert isinstance(need, DieNeed), need
        g.fight_die(f)


def events(g: Game, kind: str) -> list[dict[str, Any]]:
    """Every event of ``kind`` so far."""
    return [e for e in g.store.events() if e["type"] == kind]


def journal(g: Game) -> list[str]:
    """The whole journal."""
    names = {a.id: a.name for a in g.state.actors.values()}
    return render_all(list(g.store.events()), g.pack, names)


def row(g: Game, actor: str) -> TrackerRow:
    """The tracker row of ``actor``."""
    return next(r for r in g.tracker() if r.actor == actor)


def cols(g: Game, actor: str) -> PanelColumns:
    """The panels columns of ``actor``'s tracker row."""
    found = row(g, actor).columns
    assert isinstance(found, PanelColumns)
    return found


def villain_attacks(g: Game, attack_die: int) -> None:
    """The referee (acting) declares its attack, then rolls its d20."""
    assert g.referee_turn
    g.referee_step()
    assert g.fight is not None and g.fight.pending is not None
    assert g.fight.pending.action == "attack"
    g.referee_step()
    enter(g, attack_die)


# ------------------------------------------------------------------ initiative and panels


def test_side_initiative_difference_gives_both_sides_the_panels(pack: Pack) -> None:
    g = new(pack)
    g.start_fight(["cutglass"], dice=[6, 2])
    enc = g.fight.encounter  # type: ignore[union-attr]
    assert enc.sides is not None
    assert enc.sides.rolls == {"heroes": 6, "villains": 2}
    assert enc.sides.panels == {"heroes": 4, "villains": 4}
    assert enc.order == ("rivet", "cutglass")  # heroes first, though Cutglass is quicker
    assert enc.acting == "rivet" and enc.budget == {"panel": 4}
    (ini,) = events(g, "InitiativeRolled")
    assert [(r["side"], r["natural"], r["panels"]) for r in ini["rolls"]] == [
        ("heroes", 6, 4), ("villains", 2, 4)]
    assert ("Initiative (d6 a side): Heroes 6 (your die) · Villains 2 (your die). Heroes act"
            " first; 4 panels each.") in journal(g)


def test_a_tie_gives_two_panels_each_in_one_agility_order(pack: Pack) -> None:
    g = new(pack)
    g.start_fight(["cutglass", "tinmarket_tough"], dice=[3, 3])
    enc = g.fight.encounter  # type: ignore[union-attr]
    assert enc.sides is not None and enc.sides.simultaneous
    assert enc.sides.panels == {"heroes": 2, "villains": 2}
    # Agility: Cutglass 26, Tinmarket Tough 10 (Dexterity 11), Rivet 10 (Dexterity 14)
    assert enc.order == ("cutglass", "rivet", "tinmarket_tough")
    assert [r.initiative for r in g.tracker()] == [26, 10, 10]


def test_a_thug_group_brings_its_members(pack: Pack) -> None:
    g = new(pack)
    g.start_fight(["the_foundry_crew"], dice=[5, 1])
    members = [r.actor for r in g.tracker() if r.side == "villains"]
    assert members == [f"the_foundry_crew_{i}" for i in range(1, 6)]
    assert all(g.state.actors[m].data["group"] == "the_foundry_crew" for m in members)
    with pytest.raises(IllegalAction, match="no character or stat block"):
        new(pack).start_fight(["nobody_at_all"], dice=[1, 2])


def test_each_action_spends_its_panels_and_unused_ones_are_lost(pack: Pack) -> None:
    g = new(pack)
    g.start_fight(["cutglass"], dice=[6, 2])  # 4 panels each, heroes first
    g.fight_act("move")
    assert g.fight.encounter.budget == {"panel": 3}  # type: ignore[union-attr]
    assert cols(g, "rivet").panels == 3
    with pytest.raises(IllegalAction, match="already acted this turn"):
        g.fight_act("catch_breath")
    g.fight_act("move")
    assert g.fight.encounter.budget == {"panel": 2}  # type: ignore[union-attr]
    g.end_turn()  # two panels unused
    enc = g.fight.encounter  # type: ignore[union-attr]
    assert enc.acting == "cutglass" and enc.budget == {"panel": 4}
    assert cols(g, "rivet").panels == 0 and row(g, "rivet").acted
    assert g.state.actors["rivet"].tracks.get("kill", 40) == 40
    # the referee ends its turn unplayed (the player may); the new round's d6s are rolled
    g.end_turn()
    enc = g.fight.encounter  # type: ignore[union-attr]
    assert enc.round == 2 and enc.sides is not None
    diff = abs(enc.sides.rolls["heroes"] - enc.sides.rolls["villains"]) or 2
    assert enc.sides.panels["heroes"] == diff  # the two panels did not carry over
    assert len(events(g, "InitiativeRolled")) == 2


def test_catch_breath_costs_two_panels_and_gives_back_a_stun_die(pack: Pack) -> None:
    g = new(pack)
    g.state.actors["rivet"].tracks.update(kill=40, stun=30)
    g.start_fight(["cutglass"], dice=[6, 2])
    g.fight_act("catch_breath")
    stun = g.state.actors["rivet"].tracks["stun"]
    assert 31 <= stun <= 36  # a d6 back, significant
    assert g.fight.encounter.budget == {"panel": 2}  # type: ignore[union-attr]
    (rolled,) = [e for e in events(g, "TracksSet")]
    assert "catches their breath" in rolled["why"]


def test_an_action_with_no_panels_left_is_refused(pack: Pack) -> None:
    g = new(pack)
    g.start_fight(["cutglass"], dice=[2, 1])  # 1 panel each
    with pytest.raises(IllegalAction, match="catch breath costs 2"):
        g.fight_act("catch_breath")
    g.fight_act("move")  # the last panel: the turn ends by itself
    assert g.fight.encounter.acting == "cutglass"  # type: ignore[union-attr]


# ------------------------------------------------------------------ responses


def test_a_response_to_a_significant_attacker_costs_a_future_panel(pack: Pack) -> None:
    g = physical_fight(pack, ["cutglass"], [1, 6])  # villains first, 5 panels each
    villain_attacks(g, 12)  # 12 + 6 = 18: a complete hit
    need = g.fight_need
    assert isinstance(need, ChoiceNeed)
    assert need.question == "Hit 18 (complete): respond to Cutglass's Glass Edges?"
    ids = [o.id for o in need.choices]
    assert ids == ["none", "dodge", "parry:riveted_fist"]  # the thrown girder cannot parry
    dodge = need.choices[1].detail
    assert "18+ avoids it all (15%)" in dodge and "costs 1 future panel" in dodge
    # the numbers behind the words, for a front end or a policy: Rivet's Agility 10 (+0)
    # dodges on 15+ (30%); Dexterity 14 (+2) parries on 13+ (40%)
    none, dodge_opt, parry = need.choices
    assert (dodge_opt.odds, dodge_opt.cost) == (pytest.approx(0.30), 1)
    assert (parry.odds, parry.cost) == (pytest.approx(0.40), 1)
    assert none.odds is None and none.avoided == 0.0 and none.cost == 0
    assert none.expected is not None and dodge_opt.avoided is not None
    assert dodge_opt.expected is not None
    assert 0 < dodge_opt.avoided < none.expected
    assert dodge_opt.avoided + dodge_opt.expected == pytest.approx(none.expected)
    g.fight_choose("dodge")
    enter(g, 2, 1, 1, 1)  # the dodge fails; damage 1, 1 / 1
    assert g.fight.encounter.participant("rivet").arrears == 1  # type: ignore[union-attr]
    assert cols(g, "rivet").arrears == 1


def test_a_response_to_a_thug_is_free(pack: Pack) -> None:
    g = physical_fight(pack, ["tinmarket_tough"], [1, 6])
    villain_attacks(g, 18)
    need = g.fight_need
    assert isinstance(need, ChoiceNeed)
    assert "free" in need.choices[1].detail
    g.fight_choose("dodge")
    enter(g, 2, 1, 1, 1)
    assert g.fight.encounter.participant("rivet").arrears == 0  # type: ignore[union-attr]


def test_the_referee_dodges_a_big_hit_for_a_future_panel(pack: Pack) -> None:
    g = physical_fight(pack, ["tinmarket_tough"], [6, 1])  # heroes first
    g.fight_act("attack", target="tinmarket_tough", attack="riveted_fist")
    enter(g, 3)  # 3 + 2 = 5: miss
    # Rivet is significant: the thug pays a future panel to dodge only when worth it
    g.fight_act("attack", target="tinmarket_tough", attack="riveted_fist")
    enter(g, 16)  # 18: complete
    enter(g, 18)  # the thug's dodge: 18 + 0 avoids it all
    enter(g, 10, 10, 10)
    said = [e["text"] for e in events(g, "FightActed")]
    assert any(s.startswith("▸ Tinmarket Tough dodges against Rivet's Riveted Fist") for s in said)
    assert g.state.actors["tinmarket_tough"].tracks.get("kill", 10) == 10
    assert g.fight.encounter.participant("tinmarket_tough").arrears == 1  # type: ignore[union-attr]


def _set_arrears(g: Game, actor: str, owed: int) -> None:
    """Set up: ``actor`` owes ``owed`` panels (the saved fight edited before the step)."""
    fight = g.fight
    assert fight is not None
    enc = fight.encounter
    parts = tuple(p.model_copy(update={"arrears": owed}) if p.actor == actor else p
                  for p in enc.participants)
    g.state.fight = fight.model_copy(update={"encounter": enc.model_copy(
        update={"participants": parts})})


def test_no_response_at_five_panels_owed(pack: Pack) -> None:
    g = physical_fight(pack, ["tinmarket_tough"], [1, 6])
    _set_arrears(g, "rivet", 5)
    villain_attacks(g, 18)
    assert isinstance(g.fight_need, DieNeed)  # a damage die
    enter(g, 1, 1, 1)
    said = [e["text"] for e in events(g, "FightActed")]
    assert any("Rivet cannot dodge or parry: already 5 panels in arrears" in s for s in said)
    assert g.fight.encounter.participant("rivet").arrears == 5  # type: ignore[union-attr]


def _glass_edges(band: Band) -> DamageDice:
    """Cutglass's Glass Edges dice (Strength 14), from the pack's block."""
    blk = pf.characters_at(CONTENT)["cutglass"]
    return damage_dice(blk.attack("Glass Edges"), True, band, blk.characteristics.strength)


def test_a_dodge_of_18_avoids_it_all(pack: Pack) -> None:
    g = physical_fight(pack, ["cutglass"], [1, 6])
    villain_attacks(g, 12)
    g.fight_choose("dodge")
    enter(g, 18, 10, 10, 10)  # Agility 10 (+0): 18, complete
    assert g.state.actors["rivet"].tracks.get("kill", 40) == 40
    assert g.state.actors["rivet"].tracks.get("stun", 50) == 50
    assert any("dodged clean" in e["text"] for e in events(g, "FightActed"))


def test_a_dodge_of_15_to_17_halves_both_tracks(pack: Pack) -> None:
    g = physical_fight(pack, ["cutglass"], [1, 6])
    villain_attacks(g, 12)
    g.fight_choose("dodge")
    enter(g, 16, 9, 6, 3)
    dmg = _glass_edges(Band.COMPLETE).totals([9, 6], [3])
    assert (dmg.kill, dmg.stun) == (19, 7)  # 15 + 4, 3 + 4 (Glass Edges +3, Strength 14 +1)
    tracks = g.state.actors["rivet"].tracks
    assert (tracks["kill"], tracks["stun"]) == (40 - 9, 50 - 3)


def test_a_parry_comes_off_kill_first(pack: Pack) -> None:
    g = physical_fight(pack, ["cutglass"], [1, 6])
    villain_attacks(g, 12)
    g.fight_choose("parry:riveted_fist")
    # Dexterity 14 (+2): 13 -> 15, a minor parry: the fist rolls d6s (+2 fist, +6 Strength)
    enter(g, 13, 10, 10, 10, 1, 1, 1)
    incoming = Damage(24, 14)
    parry = Damage(1 + 8 - 5, 2 + 8)  # Kill 1d6+8-5 = 4, Stun 2d6+8 = 10
    assert apply_parry(incoming, parry) == Damage(10, 14)
    tracks = g.state.actors["rivet"].tracks
    assert (tracks["kill"], tracks["stun"]) == (30, 36)  # 14 off Kill only


def test_a_parry_bigger_than_the_hit_leaves_nothing_and_no_excess(pack: Pack) -> None:
    g = physical_fight(pack, ["cutglass"], [1, 6])
    villain_attacks(g, 12)
    g.fight_choose("parry:riveted_fist")
    enter(g, 18, 1, 1, 1, 10, 10, 10)  # complete parry: d10s, total 13 + 28 = 41
    tracks = g.state.actors["rivet"].tracks
    assert tracks.get("kill", 40) == 40 and tracks.get("stun", 50) == 50


def test_an_ineligible_parry_is_not_offered(pack: Pack) -> None:
    g = physical_fight(pack, ["baron_s_gunsel"], [1, 6], hero="nightjar")
    villain_attacks(g, 18)  # the pistol: a fast missile
    need = g.fight_need
    assert isinstance(need, ChoiceNeed)
    ids = [o.id for o in need.choices]
    assert ids == ["none", "dodge", "parry:weighted_bolas"]  # a missile may parry a missile
    # Rivet's Iron Hide lets her fist stop bullets
    g2 = physical_fight(pack, ["baron_s_gunsel"], [1, 6])
    villain_attacks(g2, 18)
    assert isinstance(g2.fight_need, ChoiceNeed)
    assert [o.id for o in g2.fight_need.choices] == [
        "none", "dodge", "parry:riveted_fist", "parry:thrown_girder"]


# ------------------------------------------------------------------ damage and the end


def test_stunned_at_ten_percent_then_minus_five_on_rolls(pack: Pack) -> None:
    g = new(pack, physical=True)
    g.state.actors["rivet"].tracks.update(kill=40, stun=8)
    g.start_fight(["tinmarket_tough"], dice=[1, 6])
    g.set_fight_dice("physical")
    villain_attacks(g, 15)  # a minor hit: d3s
    g.fight_choose("none")
    attack = g.fight.pending.attack  # type: ignore[union-attr]
    enter(g, 1, 1, 1)
    tough = pf.characters_at(CONTENT)["tinmarket_tough"]
    form = next(f for f in tough.all_attacks if pf.form_id(f) == attack)
    dice = damage_dice(form, False, Band.MINOR, tough.characteristics.strength)
    dmg = dice.totals([1] * dice.kill_dice, [1] * dice.stun_dice)
    tracks = g.state.actors["rivet"].tracks
    assert tracks["stun"] == 8 - dmg.stun and dmg.stun >= 3
    assert tracks["stun"] * 10 <= 50
    assert "stunned" in g.state.actors["rivet"].conditions
    while g.fight.encounter.acting != "rivet":  # type: ignore[union-attr]
        g.end_turn()
        while g.fight_need:
            enter(g, 3)
    g.fight_act("attack", target="tinmarket_tough", attack="riveted_fist")
    enter(g, 10)
    last = events(g, "Rolled")[-1]
    assert last["modifiers"] == [["Dexterity 14", 2], ["stunned", -5]]
    assert last["total"] == 7


def test_a_fight_to_its_end_with_the_referee_playing_the_villains(pack: Pack) -> None:
    g = new(pack, seed=11)
    g.start_fight(["cutglass", "tinmarket_tough"])
    for _ in range(600):
        if not g.fighting:
            break
        need = g.fight_need
        if isinstance(need, ChoiceNeed):
            g.fight_choose("dodge" if need.choice("dodge") is not None else "none")
        elif g.referee_turn:
            g.referee_step()
        else:
            opts = g.fight_options()
            attacks = [(o, t) for o in opts if o.action == "attack" and o.allowed and o.attack
                       for t in o.targets if not t.why]  # within reach (positions)
            moves = [o for o in opts if o.action == "move" and o.allowed]
            if attacks:
                o, t = attacks[0]
                g.fight_act("attack", target=t.id, attack=o.attack.id if o.attack else None)
            elif moves and moves[0].choices:
                g.fight_act("move", options={"way": moves[0].choices[0].id})
            else:
                g.end_turn()
    assert not g.fighting
    (ended,) = events(g, "FightEnded")
    assert ended["result"] in ("the heroes win", "the villains win")
    assert ended["ending"] in ("knocked_out", "fled", "surrendered")  # how it ended
    lines = journal(g)
    assert any(line.startswith("▸ Cutglass attacks Rivet") for line in lines)
    assert any(line.startswith("→ ") and "takes Kill" in line for line in lines)
    assert not any(line.startswith("(") for line in lines)  # every event has its words


def test_undo_in_the_middle_of_a_response_choice(pack: Pack) -> None:
    g = new(pack, seed=3)
    g.start_fight(["cutglass"], dice=[1, 6])
    g.referee_step()  # Cutglass chooses
    for _ in range(20):  # attack until one hits and Rivet is asked
        g.referee_step()
        if g.fight_need:
            break
        assert g.referee_turn, "seed 3: Cutglass hits within her five panels"
        g.referee_step()
    need = g.fight_need
    assert isinstance(need, ChoiceNeed)
    before = g.state.model_dump(mode="json")
    g.fight_choose("none")
    after_none = g.state.actors["rivet"].tracks["kill"]
    g.undo()
    assert g.state.model_dump(mode="json") == before  # waiting for the choice again
    g.undo()
    assert g.fight_need is None and g.fight.pending is not None  # type: ignore[union-attr]
    g.referee_step()  # the same die again, the same question
    assert g.fight_need == need
    g.fight_choose("none")
    assert g.state.actors["rivet"].tracks["kill"] == after_none


def test_options_and_first_aid(pack: Pack) -> None:
    g = new(pack)
    g.start_fight(["tinmarket_tough"], dice=[6, 1])
    opts = {o.key: o for o in g.fight_options()}
    fist = opts["attack/riveted_fist"]
    (target,) = fist.targets
    assert target.id == "tinmarket_tough"
    assert target.hit == pytest.approx(0.4)  # 13+ on the d20 (Dexterity +2)
    assert opts["catch_breath"].cost == "2 panels"
    assert not opts["first_aid"].allowed
    with pytest.raises(IllegalAction, match="no maneuvers"):
        g.fight_act("attack", target="tinmarket_tough", maneuvers={"power_attack": 1})


def test_the_player_picks_a_critical_hits_effect(pack: Pack) -> None:
    g = physical_fight(pack, ["cutglass"], [6, 1])  # heroes first
    g.fight_act("attack", target="cutglass", attack="riveted_fist")
    enter(g, 20)
    need = g.fight_need
    assert isinstance(need, ChoiceNeed)
    assert [o.id for o in need.choices] == ["roll", "1", "2", "3", "4", "5", "6"]
    g.fight_choose("6")  # Clean strike: every damage die at its highest
    while g.fight_need:  # Cutglass's response, if any, fails on a natural 1
        enter(g, 1)
    # the fist, complete: Kill 1d10 + 8 - 5 = 13, Stun 2d10 + 8 = 28 (+2 fist, +6 Strength 25)
    tracks = g.state.actors["cutglass"].tracks
    assert (tracks["kill"], tracks["stun"]) == (30 - 13, 40 - 28)
    assert any(e["text"].startswith("Critical hit! Clean strike (d6 6)") for e in
               events(g, "FightActed"))


def test_a_thug_group_keeps_its_target(pack: Pack) -> None:
    g = new(pack, seed=5)
    g.start_fight(["the_foundry_crew"], dice=[1, 6])  # the crew first, 5 panels each
    g.referee_step()
    first = g.fight.pending  # type: ignore[union-attr]
    assert first is not None and first.options.get("gang") == "the_foundry_crew"
    g.referee_step()
    assert g.fight.data["group_targets"] == {"the_foundry_crew": "rivet"}  # type: ignore[union-attr]


def test_a_critical_miss_can_jam_the_attack_form_for_the_round(pack: Pack) -> None:
    g = physical_fight(pack, ["cutglass"], [6, 1])  # 5 panels each, heroes first
    g.fight_act("attack", target="cutglass", attack="riveted_fist")
    enter(g, 1, 6)  # a natural 1, then the critical miss d6: 6, Jammed
    fist = next(o for o in g.fight_options() if o.key == "attack/riveted_fist")
    assert not fist.allowed and fist.why == "jammed until the round ends"
    with pytest.raises(IllegalAction, match="jammed"):
        g.fight_act("attack", target="cutglass", attack="riveted_fist")
    girder = next(o for o in g.fight_options() if o.key == "attack/thrown_girder")
    assert girder.allowed


def test_fleeing_costs_a_panel_and_can_end_the_fight(pack: Pack) -> None:
    g = new(pack)
    with pytest.raises(IllegalAction, match="no surprise round"):
        g.start_fight(["cutglass"], surprised=["heroes"], dice=[6, 1])
    g.start_fight(["cutglass"], dice=[6, 1])
    g.fight_act("flee")
    assert not g.fighting
    (ended,) = events(g, "FightEnded")
    assert (ended["result"], ended["ending"]) == ("the villains win", "fled")
    assert any(e["text"] == "Rivet breaks away and flees." for e in events(g, "FightActed"))


def test_at_the_end_a_standing_hero_saves_the_dying_and_the_unconscious_come_round(
        pack: Pack) -> None:
    """damage.py's rule for 0, applied when the fight ends (Conflict.ended): a hero still
    standing tends the dying of both sides; 0 Stun comes round with 1 Stun; a stabilised one
    stays alive."""
    g = new(pack)
    g.start_fight(["tinmarket_tough", "cistern_cutter", "the_furnace_baron"])
    actors = g.state.actors
    actors["tinmarket_tough"].tracks.update(kill=0)
    actors["tinmarket_tough"].conditions = ["dying", "unconscious"]
    actors["cistern_cutter"].tracks.update(stun=0)
    actors["cistern_cutter"].conditions = ["unconscious"]
    actors["the_furnace_baron"].tracks.update(kill=1)
    actors["the_furnace_baron"].conditions = ["unconscious", "stable"]
    g.end_fight("the Baron's men scatter")
    assert actors["tinmarket_tough"].conditions == ["unconscious", "stable"]
    assert actors["tinmarket_tough"].tracks["kill"] == 1
    assert any("Rivet gives Tinmarket Tough first aid after the fight" in line
               for line in journal(g))
    assert actors["cistern_cutter"].tracks["stun"] == 1
    assert "unconscious" not in actors["cistern_cutter"].conditions
    assert actors["the_furnace_baron"].conditions == ["unconscious", "stable"]
    kinds = [e["type"] for e in g.last_events]
    assert kinds.index("TracksSet") < kinds.index("FightEnded")


def test_at_the_end_with_no_hero_standing_the_dying_die(pack: Pack) -> None:
    g = new(pack)
    g.start_fight(["tinmarket_tough", "cistern_cutter"])
    actors = g.state.actors
    for who in ("rivet", "tinmarket_tough"):
        actors[who].tracks.update(kill=0)
        actors[who].conditions = ["dying", "unconscious"]
    g.end_fight("the toughs drag their mate away")
    assert "dead" in actors["rivet"].conditions and "dead" in actors["tinmarket_tough"].conditions
    assert "dying" not in actors["rivet"].conditions


def test_the_dead_and_the_down_do_not_enter_a_new_fight(pack: Pack) -> None:
    g = new(pack)
    g.add_hero("Nightjar", "nightjar")
    actors = g.state.actors
    actors["rivet"].conditions = ["dead"]
    g.start_fight(["cutglass"])
    enc = g.fight.encounter  # type: ignore[union-attr]
    assert {p.actor for p in enc.participants} == {"nightjar", "cutglass"}
    g.end_fight("she slips away")
    actors["nightjar"].conditions = ["unconscious", "stable"]
    with pytest.raises(IllegalAction, match="no hero can fight"):
        g.start_fight(["gantry"])
    actors = g.state.actors  # a refused action restores the state as it was
    actors["nightjar"].conditions = []
    actors["cutglass"].conditions = ["dead"]
    with pytest.raises(IllegalAction, match="no foe can fight: Cutglass"):
        g.start_fight(["cutglass"])


def test_what_the_player_says_with_a_response_is_told_after_the_hit(pack: Pack) -> None:
    g = physical_fight(pack, ["cutglass"], [1, 6])  # villains first
    villain_attacks(g, 12)  # a complete hit: Rivet is asked how to respond
    g.fight_choose("dodge", "Rivet throws herself flat behind the boiler.")
    enter(g, 15, 1, 1, 1)
    kinds = [(e["type"], e.get("what") or e.get("text", "")) for e in g.store.events()]
    said = kinds.index(("Narrated", "Rivet throws herself flat behind the boiler."))
    hit = next(i for i, k in enumerate(kinds) if k[0] == "Rolled"
               and k[1].startswith("attacks Rivet"))
    dodge = next(i for i, k in enumerate(kinds) if k[0] == "Rolled"
                 and k[1].startswith("dodges"))
    assert hit < said < dodge
    g.undo()
    need = g.fight_need
    assert isinstance(need, DieNeed)  # its d20 awaited again
