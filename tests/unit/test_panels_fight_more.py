"""The panels game's remaining fight actions (engine/systems/panels/fight_more.py): grab and
break free, using a power, picking up and dropping, hitting the deck and standing; driven
through Game with the bundled pack."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.content.loader import Pack, load_pack
from engine.errors import ContentError, IllegalAction
from engine.game import Game
from engine.journal import render_all
from engine.rules.encounter import ARREARS_LIMIT
from engine.rules.fight.values import ChoiceNeed, DieNeed, FightOption, PanelColumns
from engine.systems.panels import fight_more as fm
from engine.systems.panels import referee as rf
from engine.systems.panels import step as pf
from engine.systems.panels.checks import skill_modifier
from engine.systems.panels.fight import PanelsConflict, action_words
from engine.systems.panels.statblock import from_data
from engine.systems.panels.step import ACTIONS
from tests.unit.test_panels_fight import cols, enter, events, row

CONTENT = Path(__file__).resolve().parents[2] / "content" / "panels"
HEROES = ("nightjar", "quarrel", "rivet", "voltaic")


@pytest.fixture(scope="module")
def pack() -> Pack:
    """The bundled panels pack (Halberd City)."""
    return load_pack(CONTENT)


def fight(pack: Pack, foes: list[str], dice: list[int] | None, hero: str = "rivet",
          physical: bool = True, seed: int = 7) -> Game:
    """A fight with ``hero``; in physical mode every die (the referee's too) is entered."""
    g = Game.new(pack, name="t", hero_name=hero.title(), archetype=hero, seed=seed,
                 dice_mode="physical" if physical else "seeded")
    if dice is None:
        g.start_fight(foes)
    else:
        g.start_fight(foes, dice=dice)
    g.gm.place_fighters("engaged")  # in reach (test_panels_positions.py plays the bands)
    if physical:
        g.set_fight_dice("physical")
    return g


def said(g: Game) -> list[str]:
    """The fight's story lines so far."""
    return [e["text"] for e in events(g, "FightActed")]


def option(g: Game, action: str, actor: str | None = None, attack: str | None = None
           ) -> FightOption:
    """The option ``action`` (with ``attack``, by id) of the acting character."""
    return next(o for o in g.fight_options(actor) if o.action == action
                and (attack is None or (o.attack is not None and o.attack.id == attack)))


def items(o: FightOption) -> list[dict[str, str]]:
    """The things an option lists to name, as {id, name}, besides an object to hand."""
    return [{"id": c.id, "name": c.name} for c in o.choices if c.id != fm.OBJECT_TO_HAND]


def panels(g: Game) -> int:
    """Panels the acting character has left."""
    assert g.fight is not None
    return g.fight.encounter.budget.get("panel", 0)


def acting(g: Game) -> str | None:
    """Whose turn it is."""
    assert g.fight is not None
    return g.fight.encounter.acting


def last_roll(g: Game) -> dict[str, Any]:
    """The last d20 roll's event."""
    return events(g, "Rolled")[-1]


def blocks() -> dict[str, Any]:
    """The pack's stat blocks."""
    return pf.characters_at(CONTENT)


# ------------------------------------------------------------------ grab and break free


def test_a_grab_costs_a_panel_and_any_hit_band_holds(pack: Pack) -> None:
    g = fight(pack, ["cutglass"], [6, 1])  # heroes first, 5 panels each
    g.fight_act("grab", target="cutglass")
    assert g.fight_need is not None  # the d20 is awaited
    enter(g, 12)  # 12 + 2 (Dexterity 14) = 14: a miss
    assert panels(g) == 4
    assert cols(g, "cutglass").held_by == ""
    assert said(g)[-1] == "Cutglass slips the grab."
    g.fight_act("grab", target="cutglass")
    enter(g, 13)  # 15: a minor hit holds as well as a complete one
    assert panels(g) == 3
    assert last_roll(g)["modifiers"] == [["Dexterity 14", 2]]
    assert cols(g, "cutglass").held_by == "Rivet"
    assert "holds Cutglass" in row(g, "rivet").conditions
    assert g.state.actors["cutglass"].tracks.get("kill", 30) == 30  # a grab does no damage
    grab = option(g, "grab")
    assert not grab.allowed and grab.why == "nobody to grab"
    assert grab.targets[0].why == "already holding Cutglass"
    with pytest.raises(IllegalAction, match="already holding Cutglass"):
        g.fight_act("grab", target="cutglass")


def test_held_cannot_move_and_attacks_only_its_holder(pack: Pack) -> None:
    g = fight(pack, ["nightjar", "cutglass"], [6, 1])  # Nightjar fights beside Rivet
    assert acting(g) == "nightjar"
    g.take_over("nightjar")
    g.end_turn()
    assert acting(g) == "rivet"
    g.fight_act("grab", target="cutglass")
    enter(g, 16)  # 18: held
    g.end_turn()
    assert acting(g) == "cutglass"
    g.take_over("cutglass")
    opts = g.fight_options()
    move = next(o for o in opts if o.action == "move")
    flee = next(o for o in opts if o.action == "flee")
    assert not move.allowed and move.why == "held by Rivet: break free first"
    assert not flee.allowed and flee.why == "held by Rivet: break free first"
    edges = option(g, "attack", attack="glass_edges")
    assert [t.id for t in edges.targets] == ["rivet"]  # not Nightjar
    escape = option(g, "escape")
    assert escape.allowed and escape.check == "Agility"
    assert escape.odds == pytest.approx(0.65)  # 8+ on the d20: Agility 26 is +7
    with pytest.raises(IllegalAction, match="can attack only Rivet"):
        g.fight_act("attack", target="nightjar", attack="glass_edges")
    with pytest.raises(IllegalAction, match="held by Rivet"):
        g.fight_act("move")
    with pytest.raises(IllegalAction, match="break free first"):
        g.fight_act("grab", target="nightjar")


def test_breaking_free_needs_15_with_the_better_of_strength_and_agility(pack: Pack) -> None:
    g = fight(pack, ["cutglass"], [6, 1])
    g.fight_act("grab", target="cutglass")
    enter(g, 16)
    g.end_turn()
    g.take_over("cutglass")
    g.fight_act("escape")
    enter(g, 7)  # 7 + 7 (Agility 26, better than Strength 14's +2) = 14: still held
    assert last_roll(g)["modifiers"] == [["Agility 26", 7]]
    assert panels(g) == 4 and cols(g, "cutglass").held_by == "Rivet"
    assert said(g)[-1] == "Rivet keeps hold of Cutglass."
    g.fight_act("escape")
    enter(g, 8)  # 15: free
    assert panels(g) == 3 and cols(g, "cutglass").held_by == ""
    assert said(g)[-1] == "Cutglass breaks free of Rivet."
    assert g.fight.holds == {}  # type: ignore[union-attr]
    esc = option(g, "escape")
    assert not esc.allowed and esc.why == "not held by anyone"
    with pytest.raises(IllegalAction, match="not held by anyone"):
        g.fight_act("escape")


def test_a_holder_lets_go_when_it_moves_grabs_another_or_is_out(pack: Pack) -> None:
    g = fight(pack, ["cutglass", "tinmarket_tough"], [6, 1])
    g.fight_act("grab", target="cutglass")
    enter(g, 16)
    g.fight_act("grab", target="tinmarket_tough")
    enter(g, 16)
    assert cols(g, "cutglass").held_by == "" and cols(g, "tinmarket_tough").held_by == "Rivet"
    assert any(s == "Rivet lets go of Cutglass (it reaches for Tinmarket Tough instead)."
               for s in said(g))
    g.fight_act("move")
    assert cols(g, "tinmarket_tough").held_by == ""
    assert "Rivet lets go of Tinmarket Tough (it moves away)." in said(g)
    g.fight_act("grab", target="tinmarket_tough")
    enter(g, 16)
    # Rivet goes down: the hold ends with her
    g.state.actors["rivet"].tracks.update(stun=0)
    g.state.actors["rivet"].conditions = ["unconscious"]
    assert cols(g, "tinmarket_tough").held_by == ""
    assert PanelsConflict(g.pack).step(g.state).holding_whom("rivet") == []


def test_the_referee_breaks_free_when_held(pack: Pack) -> None:
    g = fight(pack, ["cutglass"], [6, 1])
    g.fight_act("grab", target="cutglass")
    enter(g, 16)
    g.end_turn()
    assert g.referee_turn
    g.referee_step()
    pending = g.fight.pending  # type: ignore[union-attr]
    assert pending is not None and pending.action == "escape"
    assert pending.why == "Cutglass tries to break free of Rivet: 65% to get loose"
    g.referee_step()
    enter(g, 19)
    assert cols(g, "cutglass").held_by == ""


# ------------------------------------------------------------------ powers


def test_use_power_checks_the_characteristic_it_names(pack: Pack) -> None:
    g = fight(pack, ["cutglass"], [6, 1])  # Rivet: Bridge Strength (Strength 25)
    mod = skill_modifier(25)
    opt = option(g, "use_power")
    assert opt.cost == "1 panel" and opt.allowed and opt.needs == "power"
    bridge = next(p for p in opt.choices if p.id == "bridge_strength")
    assert bridge.check == "strength"
    with pytest.raises(IllegalAction, match="which"):
        g.fight_act("use_power")  # two powers: name one
    g.fight_act("use_power", options={"power": "Bridge Strength"})
    enter(g, 14 - mod)
    assert last_roll(g)["modifiers"] == [["Strength 25", mod]]
    assert said(g)[-1] == "Bridge Strength: it fails."
    g.fight_act("use_power", options={"power": "bridge_strength"})
    enter(g, 15 - mod)
    assert said(g)[-1] == ("Bridge Strength: it works (Lifts a tram car or holds a falling span"
                           " (Strength check, 15+)).")
    g.fight_act("use_power", options={"power": "iron_hide"})
    enter(g, 18 - skill_modifier(17))  # Iron Hide names Nerve (17)
    assert said(g)[-1].startswith("Iron Hide: it works well (Her plated hands")
    assert panels(g) == 2
    lines = render_all(list(g.store.events()), g.pack,
                       {a.id: a.name for a in g.state.actors.values()})
    assert any("Bridge Strength: it works (" in line for line in lines)


def test_an_attack_power_stays_an_attack(pack: Pack) -> None:
    g = fight(pack, ["cutglass"], [6, 1], hero="voltaic")
    with pytest.raises(IllegalAction, match="Arc Bolt is an attack: use attack with it"):
        g.fight_act("use_power", options={"power": "Arc Bolt"})
    with pytest.raises(IllegalAction, match="no power 'Flight'"):
        g.fight_act("use_power", options={"power": "Flight"})
    assert [p.id for p in option(g, "use_power").choices] == ["ride_the_line", "ground_out"]
    assert panels(g) == 5


def test_a_power_names_wits_unless_it_says_otherwise() -> None:
    base = {"name": "Test", "kind": "hero", "kill": 20, "stun": 20,
            "characteristics": {"agility": 10, "dexterity": 10, "strength": 10,
                                "other": {"wits": 13}},
            "attacks": [{"name": "Fists", "fist": True}]}
    blk = from_data({**base, "powers": [{"name": "Knack"}]})
    assert blk.powers[0].characteristic == "wits"
    assert blk.power_check(blk.powers[0]) == ("wits", 13)
    with pytest.raises(ContentError, match="names characteristic 'luck'"):
        from_data({**base, "powers": [{"name": "Knack", "characteristic": "luck"}]})
    bare = from_data({**base, "characteristics": {"agility": 10, "dexterity": 10,
                                                  "strength": 10},
                      "powers": [{"name": "Knack"}]})
    with pytest.raises(IllegalAction, match="checked with wits, which Test does not have"):
        bare.power_check(bare.powers[0])
    for b in blocks().values():  # every pack power that is not an attack has its own
        for p in b.powers:
            if p.attack is None:
                assert b.characteristics.value(p.characteristic) is not None


# ------------------------------------------------------------------ items


def test_dropping_costs_nothing_and_picking_up_one_panel(pack: Pack) -> None:
    g = fight(pack, ["cutglass"], [6, 1], hero="nightjar")
    assert items(option(g, "drop_item")) == [
        {"id": "fighting_staff", "name": "Fighting Staff"},
        {"id": "weighted_bolas", "name": "Weighted Bolas"}]
    g.fight_act("drop_item", options={"item": "Fighting Staff"})
    assert panels(g) == 5
    assert cols(g, "nightjar").dropped == ("Fighting Staff",)
    assert not [o for o in g.fight_options() if o.key == "attack/fighting_staff"]
    with pytest.raises(IllegalAction, match="no attack"):
        g.fight_act("attack", target="cutglass", attack="fighting_staff")
    assert items(option(g, "pick_up")) == [{"id": "fighting_staff", "name": "Fighting Staff"}]
    g.fight_act("pick_up")  # the one thing dropped
    assert option(g, "pick_up").allowed and items(option(g, "pick_up")) == []
    with pytest.raises(IllegalAction, match="pick up what"):
        g.fight_act("pick_up")
    assert panels(g) == 4 and cols(g, "nightjar").dropped == ()
    assert option(g, "attack", attack="fighting_staff").allowed
    g.fight_act("pick_up", options={"item": "trash can lid"})
    assert panels(g) == 3 and cols(g, "nightjar").object == "trash can lid"
    lid = option(g, "attack", attack="trash_can_lid")
    assert lid.attack is not None and lid.attack.range == "close" and not lid.attack.lethal
    with pytest.raises(IllegalAction, match="already holds"):
        g.fight_act("pick_up", options={"item": "Trash Can Lid"})
    g.fight_act("drop_item", options={"item": "trash can lid"})
    assert cols(g, "nightjar").object == "" and panels(g) == 3
    with pytest.raises(IllegalAction, match="does not hold 'rope'"):
        g.fight_act("drop_item", options={"item": "rope"})


def test_a_picked_up_object_may_parry(pack: Pack) -> None:
    g = fight(pack, ["cutglass"], [6, 1], hero="voltaic")  # Voltaic: fists and powers only
    g.fight_act("pick_up", options={"item": "Trash Can Lid"})
    g.end_turn()
    g.referee_step()
    g.referee_step()
    enter(g, 12)  # Cutglass: 12 + 6 = 18, a complete hit
    need = g.fight_need
    assert isinstance(need, ChoiceNeed)
    assert "parry:trash_can_lid" in [o.id for o in need.choices]


def test_a_disarmed_character_picks_its_weapon_up_and_has_it_again(pack: Pack) -> None:
    g = fight(pack, ["gantry"], [6, 1])
    g.fight_act("attack", target="gantry", attack="riveted_fist")
    enter(g, 20)
    g.fight_choose("3")  # Disarmed: the first weapon Gantry still holds
    while g.fight_need:  # Gantry's response (if the referee makes one) and the dice
        enter(g, 1)
    assert "Gantry drops Wrecking Hook: it must be picked up (one panel) to be used" \
        " again." in said(g)
    assert cols(g, "gantry").dropped == ("Wrecking Hook",)
    g.end_turn()
    g.take_over("gantry")
    assert "attack/wrecking_hook" not in [o.key for o in g.fight_options()]
    assert items(option(g, "pick_up")) == [{"id": "wrecking_hook", "name": "Wrecking Hook"}]
    left = panels(g)
    g.fight_act("pick_up", options={"item": "Wrecking Hook"})
    assert panels(g) == left - 1
    assert "attack/wrecking_hook" in [o.key for o in g.fight_options()]
    assert cols(g, "gantry").dropped == ()
    assert said(g)[-1] == "Gantry picks up Wrecking Hook and can use it again."


def test_a_fumble_with_nothing_held_loses_the_next_panel(pack: Pack) -> None:
    g = fight(pack, ["cutglass"], [6, 1], hero="voltaic")
    g.fight_act("attack", target="cutglass", attack="fists")
    enter(g, 1, 2)  # a natural 1; the critical miss d6: 2, Fumble
    assert g.fight.encounter.participant("voltaic").arrears == 1  # type: ignore[union-attr]
    assert cols(g, "voltaic").dropped == ()
    g2 = fight(pack, ["cutglass"], [6, 1], hero="quarrel")
    g2.fight_act("attack", target="cutglass", attack="crossbow")
    enter(g2, 1, 2)  # Fumble: the crossbow falls
    assert cols(g2, "quarrel").dropped == ("Crossbow",)
    assert g2.fight.encounter.participant("quarrel").arrears == 0  # type: ignore[union-attr]


# ------------------------------------------------------------------ prone


def test_hitting_the_deck_is_free_and_standing_costs_a_panel(pack: Pack) -> None:
    g = fight(pack, ["cutglass"], [6, 1])
    stand = option(g, "stand")
    assert not stand.allowed and stand.why == "not prone"
    g.fight_act("drop_prone")
    assert panels(g) == 5 and cols(g, "rivet").prone
    assert "prone" in row(g, "rivet").conditions
    move = option(g, "move")
    assert not move.allowed and move.why == "prone: stand up first"
    with pytest.raises(IllegalAction, match="already prone"):
        g.fight_act("drop_prone")
    with pytest.raises(IllegalAction, match="stand up first"):
        g.fight_act("flee")
    fist = option(g, "attack", attack="riveted_fist")
    assert fist.targets[0].hit == pytest.approx(0.15)  # 18+ with +2 - 5
    g.fight_act("attack", target="cutglass", attack="riveted_fist")
    enter(g, 17)  # 17 + 2 - 5 = 14: a miss
    assert last_roll(g)["modifiers"] == [["Dexterity 14", 2], ["prone", -5]]
    g.fight_act("stand")
    assert panels(g) == 3 and not cols(g, "rivet").prone
    assert option(g, "move").allowed


def test_missiles_at_a_prone_target_are_at_minus_five(pack: Pack) -> None:
    g = fight(pack, ["baron_s_gunsel"], [1, 6])  # the gunsel first
    assert acting(g) == "baron_s_gunsel"
    g.take_over("baron_s_gunsel")
    pistol = option(g, "attack", attack="pistol")
    assert pistol.targets[0].hit == pytest.approx(0.35)  # 14+ (+1)
    g.end_turn()
    assert acting(g) == "rivet"
    g.fight_act("drop_prone")
    g.end_turn()  # round 2: the d6s again
    enter(g, 1, 6)
    assert acting(g) == "baron_s_gunsel"
    assert option(g, "attack", attack="pistol").targets[0].hit == pytest.approx(0.1)
    g.fight_act("attack", target="rivet", attack="pistol")
    enter(g, 18)  # 18 + 1 - 5 = 14: a miss
    assert last_roll(g)["modifiers"] == [["Dexterity 13", 1], ["target prone", -5]]
    assert last_roll(g)["total"] == 14


def test_the_referee_stands_up_first(pack: Pack) -> None:
    g = fight(pack, ["cutglass"], [1, 6])  # villains first
    g.take_over("cutglass")
    g.fight_act("drop_prone")
    g.take_over("cutglass", player=False)
    g.referee_step()
    pending = g.fight.pending  # type: ignore[union-attr]
    assert pending is not None and pending.action == "stand"
    g.referee_step()
    assert not cols(g, "cutglass").prone and panels(g) == 4


def test_the_referee_policy_for_held_and_prone() -> None:
    b = blocks()
    me = replace(rf.fighter_from(b["tinmarket_tough"], "tough", "villains"), held_by="rivet")
    rivet = rf.fighter_from(b["rivet"], "rivet", "heroes")
    jay = rf.fighter_from(b["nightjar"], "nightjar", "heroes")
    s = rf.Situation(me=me, allies=(), foes=(rivet, jay), round=1, panels_left=3)
    choice = rf.choose(s)
    assert choice.action == "escape" and choice.why.startswith("Tinmarket Tough tries to"
                                                               " break free of Rivet")
    attacks = [c for c in rf.explain_options(s) if c.action == "attack"]
    assert attacks and {c.target for c in attacks} == {"rivet"}
    lying = rf.Situation(me=replace(rf.fighter_from(b["cutglass"], "cg", "villains"),
                                    prone=True),
                         allies=(), foes=(rivet,), round=1, panels_left=2)
    assert rf.choose(lying).action == "stand"
    assert rf.escape_odds(me) == pytest.approx(0.4)  # Strength 14: +2, 13+ on the d20


# ------------------------------------------------------------------ undo and costs


def test_undo_while_a_grab_waits_for_its_die(pack: Pack) -> None:
    g = fight(pack, ["cutglass"], [6, 1])
    before = g.state.model_dump(mode="json")
    g.fight_act("grab", target="cutglass")
    assert isinstance(g.fight_need, DieNeed) and g.fight_need.sides == 20
    g.undo()
    assert g.state.model_dump(mode="json") == before
    assert g.fight.pending is None and panels(g) == 5  # type: ignore[union-attr]
    g.fight_act("drop_prone")
    g.fight_act("use_power", options={"power": "Bridge Strength"})
    assert g.fight_need is not None
    g.undo()
    assert panels(g) == 5 and cols(g, "rivet").prone
    g.fight_act("use_power", options={"power": "Bridge Strength"})
    enter(g, 10)
    assert panels(g) == 4


def test_each_action_costs_what_actions_yaml_says(pack: Pack) -> None:
    costs = {k: v["cost"] for k, v in yaml.safe_load(
        (CONTENT / "actions.yaml").read_text(encoding="utf-8"))["actions"].items()}
    for aid in fm.ACTIONS:
        assert ACTIONS[aid].cost == costs[aid], aid
    words = action_words(pack)
    assert words["grab"].name == "Grab" and words["stand"].examples


# ------------------------------------------------------------------ the property


def _act(g: Game, data: st.DataObject) -> None:
    """One random step: a choice, the referee, or one of the player's allowed options."""
    need = g.fight_need
    if isinstance(need, ChoiceNeed):
        g.fight_choose(data.draw(st.sampled_from([o.id for o in need.choices])))
        return
    if g.referee_turn:
        g.referee_step()
        return
    allowed = [o for o in g.fight_options() if o.allowed]
    pick = data.draw(st.sampled_from([*allowed, None]))
    if pick is None:
        g.end_turn()
        return
    aid = pick.action
    kw: dict[str, Any] = {}
    if aid in ("attack", "grab", "first_aid"):
        targets = [t for t in pick.targets if not t.why]
        if not targets:
            g.end_turn()
            return
        kw["target"] = data.draw(st.sampled_from(targets)).id
    if aid == "attack":
        kw["attack"] = pick.attack.id if pick.attack else None
    if aid == "use_power":
        kw["options"] = {"power": data.draw(st.sampled_from(pick.choices)).id}
    if aid == "pick_up" and items(pick):  # one of its dropped weapons
        kw["options"] = {"item": data.draw(st.sampled_from(items(pick)))["id"]}
    elif aid == "pick_up":  # an object not already in hand
        held = next(r.columns.object for r in g.tracker()
                    if r.acting and isinstance(r.columns, PanelColumns))
        kw["options"] = {"item": "a plank" if held == "a brick" else "a brick"}
    if aid == "drop_item":
        kw["options"] = {"item": data.draw(st.sampled_from(pick.choices)).id}
    g.fight_act(aid, **kw)


@settings(max_examples=6, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture,
                                 HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), hero=st.sampled_from(sorted(HEROES)), data=st.data())
def test_random_legal_actions_keep_panels_and_arrears_in_bounds(
        pack: Pack, seed: int, hero: str, data: st.DataObject) -> None:
    g = fight(pack, ["gantry", "tinmarket_tough"], None, hero=hero, physical=False, seed=seed)
    for _ in range(50):
        if not g.fighting:
            break
        _act(g, data)
        if not g.fighting:
            break
        enc = g.fight.encounter  # type: ignore[union-attr]
        assert enc.budget.get("panel", 0) >= 0
        for p in enc.participants:
            assert 0 <= p.arrears <= ARREARS_LIMIT
        for r in g.tracker():
            c = r.columns
            assert isinstance(c, PanelColumns)
            assert c.panels >= 0 and 0 <= c.arrears <= ARREARS_LIMIT
            assert c.kill >= 0 and c.stun >= 0


def test_the_referee_counts_the_prone_penalty_when_scoring() -> None:
    b = blocks()
    gunsel = rf.fighter_from(b["baron_s_gunsel"], "gunsel", "villains")
    rivet = rf.fighter_from(b["rivet"], "rivet", "heroes")
    up = rf.Situation(me=gunsel, allies=(), foes=(rivet,), round=1, panels_left=1)
    down = rf.Situation(me=gunsel, allies=(), foes=(replace(rivet, prone=True),), round=1,
                        panels_left=1)

    def pistol(s: rf.Situation) -> str:
        return next(c.why for c in rf.explain_options(s) if c.attack == "Pistol")

    assert "35% to hit" in pistol(up)  # 14+ with Dexterity 13 (+1)
    assert "10% to hit" in pistol(down)  # 19+: -5 at a prone target
