"""Issue 28's turn rules of M&M fights, through ``Game`` with entered or seeded dice: the
referee recovers from dazed and staggered, morale is a stat block's trait and every fight
records how it ended, a delayed turn can be taken back in, aim is lost to any other action,
standing is free with Instant Up or DC 20 Acrobatics, and a routine check needs no die."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from engine.content.loader import Pack, load_pack
from engine.errors import IllegalAction
from engine.game import Game
from engine.prompts import RollPrompt
from engine.rules.fight.events import FightEnded, fight_line
from engine.systems.mm3e.roster import characters
from tests.unit.test_mm3e_fight import (
    act,
    conds,
    enter,
    fight,
    keystone_vs_tallyman,
    new_game,
    pass_turn,
    put,
    rolls,
)

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def pack() -> Pack:
    """The bundled M&M pack."""
    return load_pack(ROOT / "content" / "mutants-and-masterminds")


def referee_fight(pack: Pack, foes: list[str], seed: int) -> list[dict[str, Any]]:
    """Keystone against ``foes``, seeded, the referee playing both sides to the end: the
    campaign's events."""
    g = Game.new(pack, name="t", hero_name="Keystone", archetype="keystone", seed=seed)
    g.start_fight(foes)
    g.take_over("keystone", False)
    g.referee_run(limit=3000)
    assert g.fight is None
    return list(g.store.events())


def said(events: list[dict[str, Any]], action: str) -> list[str]:
    return [str(e["text"]) for e in events if e["type"] == "FightActed"
            and e.get("action") == action]


# ------------------------------------------------------------------ 1. the referee recovers

def test_the_referee_recovers_from_staggered_on_a_staggered_turn(pack: Pack) -> None:
    g = fight(pack, ["keystone"], ["madame_undertow"], [1, 19])
    put(g, "madame_undertow", ["staggered"], damage=2)
    assert g.referee_turn and g.fight is not None
    assert g.fight.encounter.budget == {"standard": 1, "move": 1}  # set before the put
    pass_turn(g)  # the Tallyman's turn as set up; Keystone's next
    g.take_over("madame_undertow", False)
    pass_turn(g)  # Keystone passes; the Tallyman's staggered turn begins
    g.take_over("madame_undertow", False)
    assert g.fight.encounter.acting == "madame_undertow"
    assert g.fight.encounter.budget == {"standard": 1, "move": 0}  # staggered: standard only
    g.referee_step()
    assert g.fight.pending is not None and g.fight.pending.action == "recover"
    events = g.referee_step()
    assert "staggered" not in conds(g, "madame_undertow")
    assert any("is no longer staggered" in str(e.get("text")) for e in events)


def test_a_long_fight_where_the_referee_recovers_from_staggered(pack: Pack) -> None:
    events = referee_fight(pack, ["madame_undertow"], seed=2)
    lines = said(events, "recover")
    assert "Madame Undertow takes a moment and is no longer staggered (+2 Dodge and Parry until"\
        " their next turn)." in lines
    assert "Keystone takes a moment and is no longer staggered (+2 Dodge and Parry until"\
        " their next turn)." in lines
    assert [e["type"] for e in events].count("RecoveryUsed") == 2


def test_recover_resists_an_affliction_again(pack: Pack) -> None:
    g = fight(pack, ["keystone"], ["the_tallyman"], [1, 19])
    g.take_over("the_tallyman")
    act(g, "attack", [2], target="keystone", attack="call_in_the_debt")  # 2 degrees
    assert conds(g, "keystone") == ["compelled"]
    g.end_turn()
    events = act(g, "recover", [15])  # Will 8 + 15 = 23 against 10 + rank 10
    assert [(r["what"], r["total"], r["against"]) for r in rolls(events)] == [
        ("shakes off compelled", 23, 20)]
    assert any("throws off being compelled" in str(e.get("text")) for e in events)
    assert conds(g, "keystone") == []


# ------------------------------------------------------------------ 2. morale and endings

def test_morale_is_declared_in_the_stat_blocks(pack: Pack) -> None:
    blocks = characters(pack)
    crew, drones, tallyman = (blocks[b].morale for b in ("dockside_crew", "hornet_drones",
                                                         "the_tallyman"))
    assert crew is not None and (crew.then, crew.at) == ("flee", "half_down")
    assert drones is not None and (drones.then, drones.at) == ("flee", "half_down")
    assert tallyman is not None and (tallyman.at, tallyman.alone) == ("staggered", True)
    assert blocks["madame_undertow"].morale is None  # the main villain fights on
    assert all(blocks[h].morale is None for h in ("keystone", "lamplight", "slipstream"))


def test_the_crew_scatters_once_half_is_down_and_the_fight_ends_fled(pack: Pack) -> None:
    events = referee_fight(pack, ["dockside_crew"], seed=1)
    assert len(said(events, "fled")) == 3
    (ended,) = [e for e in events if e["type"] == "FightEnded"]
    assert (ended["result"], ended["ending"]) == ("the heroes win", "fled")
    assert fight_line(ended, lambda a: a) == \
        "**The fight is over: the heroes win (the other side fled).**"


def test_a_villain_without_morale_fights_to_the_end(pack: Pack) -> None:
    for seed in (1, 2, 3):
        events = referee_fight(pack, ["madame_undertow"], seed=seed)
        assert not said(events, "fled") and not said(events, "surrendered")
        (ended,) = [e for e in events if e["type"] == "FightEnded"]
        assert ended["ending"] == "knocked_out"


def test_a_surrender_and_a_called_stalemate_are_recorded(pack: Pack) -> None:
    g = keystone_vs_tallyman(pack)
    pass_turn(g)
    g.take_over("the_tallyman")
    g.fight_act("surrender")
    (ended,) = [e for e in g.last_events if e["type"] == "FightEnded"]
    assert ended["ending"] == "surrendered"
    g2 = keystone_vs_tallyman(pack)
    with pytest.raises(IllegalAction, match="knocked_out or fled"):
        g2.end_fight("over", ending="won")
    g2.end_fight("stalemate: nobody could finish it", ending="stalemate")
    (ended,) = [e for e in g2.last_events if e["type"] == "FightEnded"]
    assert ended["ending"] == "stalemate"
    assert fight_line(ended, lambda a: a) == \
        "**The fight is over: stalemate: nobody could finish it.**"


def test_an_old_fight_end_without_ending_still_loads() -> None:
    old = {"type": "FightEnded", "result": "the heroes win", "text": ""}
    assert FightEnded.filled(old)["ending"] == ""
    assert FightEnded(**{k: v for k, v in old.items() if k != "type"}).ending == ""
    assert "ending" not in FightEnded(result="called off").to_dict()
    assert fight_line(old, lambda a: a) == "**The fight is over: the heroes win.**"


# ------------------------------------------------------------------ 3. acting after a delay

def test_a_delayed_hero_acts_now_after_the_villain_has_acted(pack: Pack) -> None:
    g = fight(pack, ["keystone", "lamplight"], ["the_tallyman"], [19, 2, 10])
    act(g, "delay")
    assert g.fight is not None and g.fight.encounter.acting == "the_tallyman"
    step_in = next(o for o in g.fight_options("keystone") if o.action == "step_in")
    assert (step_in.name, step_in.allowed) == ("Act now (end delay)", False)
    assert step_in.why == "after The Tallyman has acted"
    with pytest.raises(IllegalAction, match="after The Tallyman has acted"):
        g.fight_act("step_in")
    g.referee_step()
    g.referee_step()
    enter(g, [15])  # Keystone resists Call in the Debt
    step_in = next(o for o in g.fight_options("keystone") if o.action == "step_in")
    assert step_in.allowed
    events = g.fight_act("step_in")
    assert any("Keystone stops waiting and acts now, right after The Tallyman" in
               str(e.get("text")) for e in events)
    assert g.fight.encounter.acting == "keystone"
    assert g.fight.encounter.budget == {"standard": 1, "move": 1}
    order = [(r.actor, r.initiative) for r in g.tracker()]
    assert order == [("the_tallyman", 11), ("keystone", 11), ("lamplight", 8)]
    r = rolls(act(g, "attack", [15, 5], target="the_tallyman", attack="granite_fist"))
    assert r[0]["actor"] == "keystone"
    g.end_turn()
    assert g.fight.encounter.acting == "lamplight" and g.fight.encounter.round == 1


def test_act_now_is_in_the_acting_heros_menu_for_a_delayed_teammate(pack: Pack) -> None:
    g = fight(pack, ["keystone", "lamplight"], ["the_tallyman"], [19, 10, 2])
    act(g, "delay")
    assert g.fight is not None and g.fight.encounter.acting == "lamplight"
    mine = next(o for o in g.fight_options() if o.action == "step_in")
    assert not mine.allowed  # Lamplight has not acted yet
    act(g, "move")
    mine = next(o for o in g.fight_options() if o.action == "step_in")
    assert mine.allowed and [t.id for t in mine.targets] == ["keystone"]
    g.fight_act("step_in", target="keystone")
    assert g.fight.encounter.acting == "keystone"
    assert [r.actor for r in g.tracker()][:2] == ["lamplight", "keystone"]


def test_the_referee_run_stops_where_a_delayed_hero_may_act(pack: Pack) -> None:
    g = new_game(pack, ("keystone", "lamplight"), dice_mode="seeded")
    g.start_fight(["the_tallyman"], dice=[19, 2, 10])
    act(g, "delay")
    g.referee_run()  # the Tallyman acts, then the run stops: Keystone may step in
    assert g.fight is not None and g.fight.encounter.acting == "the_tallyman"
    assert g.fight.encounter.acted and g.referee_turn
    assert any(o.action == "step_in" and o.allowed for o in g.fight_options("keystone"))
    g.referee_run()  # declined: the referee goes on, Lamplight's turn comes
    assert g.fight.encounter.acting == "lamplight"
    held = [p.held for p in g.fight.encounter.participants if p.actor == "keystone"]
    assert held == ["delay"]  # still waiting, until its place comes round


# ------------------------------------------------------------------ 4. aim

@pytest.mark.parametrize("moved", [False, True])
def test_aim_is_lost_to_a_move_before_the_attack(pack: Pack, moved: bool) -> None:
    g = keystone_vs_tallyman(pack)
    act(g, "aim", attack="granite_fist")
    assert "vulnerable" in conds(g, "keystone")
    if moved:
        events = act(g, "move")
        assert any("loses their aim" in str(e.get("text")) for e in events)
        assert "vulnerable" not in conds(g, "keystone")
    else:
        g.end_turn()
    pass_turn(g)
    g.take_over("the_tallyman", False)
    r = rolls(act(g, "attack", [15, 5], target="the_tallyman", attack="granite_fist"))
    aim = [m for m in r[0]["modifiers"] if m[0] == "aim"]
    assert aim == ([] if moved else [["aim", 5]])
    assert "vulnerable" not in conds(g, "keystone")


# ------------------------------------------------------------------ 5. standing up

def test_instant_up_stands_for_free(pack: Pack) -> None:
    g = fight(pack, ["slipstream"], ["the_tallyman"], [19, 1])
    put(g, "slipstream", ["prone"])
    stand = next(o for o in g.fight_options() if o.action == "stand")
    assert (stand.cost, stand.allowed, stand.check) == ("free", True, "Instant Up")
    assert not any(o.action == "spring_up" for o in g.fight_options())
    act(g, "stand")
    assert "prone" not in conds(g, "slipstream")
    assert g.fight is not None and g.fight.encounter.budget == {"standard": 1, "move": 1}


def test_spring_up_with_acrobatics_or_stand_with_the_move(pack: Pack) -> None:
    g = keystone_vs_tallyman(pack)
    put(g, "keystone", ["prone"])
    opts = {o.action: o for o in g.fight_options()}
    assert opts["stand"].cost == "move"
    spring = opts["spring_up"]
    assert spring.cost == "free" and spring.allowed and spring.odds is not None
    acrobatics = int(spring.check.split()[1])
    assert spring.check == f"Acrobatics {acrobatics:+d} vs DC 20"
    assert spring.odds == pytest.approx(min(1.0, max(0.05, (21 - (20 - acrobatics)) / 20)))
    events = act(g, "spring_up", [2])  # fails
    assert any("stays down" in str(e.get("text")) for e in events)
    assert "prone" in conds(g, "keystone")
    again = next(o for o in g.fight_options() if o.action == "spring_up")
    assert not again.allowed and "tried this turn" in again.why
    with pytest.raises(IllegalAction, match="tried to spring up"):
        g.fight_act("spring_up")
    act(g, "stand")
    assert "prone" not in conds(g, "keystone")
    assert g.fight is not None and g.fight.encounter.budget == {"standard": 1, "move": 0}


def test_spring_up_success_keeps_both_actions(pack: Pack) -> None:
    g = keystone_vs_tallyman(pack)
    put(g, "keystone", ["prone"])
    act(g, "spring_up", [20])
    assert "prone" not in conds(g, "keystone")
    assert g.fight is not None and g.fight.encounter.budget == {"standard": 1, "move": 1}


# ------------------------------------------------------------------ 6. routine checks

@pytest.mark.parametrize("mode", ["physical", "mixed", "seeded"])
def test_a_routine_check_needs_no_die_in_any_dice_mode(pack: Pack, mode: str) -> None:
    game = new_game(pack, dice_mode=mode)
    game.trigger("skill_check")
    game.set_declarations(["skill:athletics", "routine"])
    game.set_roll_options(params={"dc": 20})
    prompt = game.pending
    assert isinstance(prompt, RollPrompt)
    assert (prompt.physical, prompt.entry) == (False, "routine")
    before = game.state.dice_position
    events = game.roll()
    rolled = next(e for e in events if e["type"] == "Rolled")
    assert (rolled["band"], rolled["dice"], rolled["faces"]) == ("success1", "routine", [10])
    assert game.state.dice_position == before  # no die used
