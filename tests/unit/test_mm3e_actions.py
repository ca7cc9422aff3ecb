"""M&M 3e conflict actions (engine/systems/mm3e/actions.py): every number of RULES.md D.6, the
filled-in rules, and property tests."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.errors import IllegalAction
from engine.systems.mm3e import actions as ac
from engine.systems.mm3e import attacks as at
from engine.systems.mm3e.actions import Action as A
from engine.systems.mm3e.actions import Cost, Gain, Loss, Role, Then
from engine.systems.mm3e.conditions import DURATIONS, Lasts
from engine.systems.mm3e.conditions import Condition as C
from engine.systems.mm3e.damage import DamageState

faces = st.integers(1, 20)
mods = st.integers(-5, 25)


# ------------------------------------------------------------------ data

@pytest.mark.parametrize(("action", "cost"), [
    (A.AID, Cost.STANDARD), (A.AIM, Cost.STANDARD), (A.ATTACK, Cost.STANDARD),
    (A.CHARGE, Cost.STANDARD), (A.COMMAND, Cost.MOVE), (A.CRAWL, Cost.MOVE),
    (A.DEFEND, Cost.STANDARD), (A.DELAY, Cost.NONE), (A.DISARM, Cost.STANDARD),
    (A.DROP_ITEM, Cost.FREE), (A.DROP_PRONE, Cost.FREE), (A.ESCAPE, Cost.MOVE),
    (A.GRAB, Cost.STANDARD), (A.MAINTAIN_GRAB, Cost.FREE), (A.RELEASE, Cost.FREE),
    (A.MOVE, Cost.MOVE), (A.READY, Cost.STANDARD), (A.RECOVER, Cost.STANDARD),
    (A.SMASH, Cost.STANDARD), (A.STAND, Cost.MOVE), (A.TRIP, Cost.STANDARD),
    (A.RUN, Cost.FREE), (A.COUNTER_DISARM, Cost.REACTION),
])
def test_action_costs(action: A, cost: Cost) -> None:
    assert ac.ACTIONS[action].cost is cost


def test_every_action_has_a_definition_and_costs_match_the_encounter_kinds() -> None:
    assert set(ac.ACTIONS) == set(A)
    assert {c.value for c in Cost} >= {"standard", "move", "free", "reaction"}
    assert ac.ACTIONS[A.RECOVER].whole_turn
    attacks = {a for a, d in ac.ACTIONS.items() if d.attack_check}
    assert attacks == {A.ATTACK, A.CHARGE, A.DISARM, A.GRAB, A.SMASH, A.TRIP}


def test_filled_in_names_the_gaps() -> None:
    for words in ("Opposed checks", "Aim", "Crawl", "Defend", "Delay", "Ready", "Disarm",
                  "Grab", "Drag", "Recover", "Stand", "Trip", "Movement"):
        assert words in ac.FILLED_IN


# ------------------------------------------------------------------ opposed checks

def test_opposed_higher_total_wins_with_degrees() -> None:
    o = ac.opposed(15, 5, 10, 2)
    assert (o.actor_total, o.opponent_total, o.actor_wins, o.degrees) == (20, 12, True, 2)
    o = ac.opposed(2, 0, 20, 0)
    assert not o.actor_wins and o.degrees == 4


def test_opposed_ties_to_higher_bonus_then_to_the_actor() -> None:
    assert not ac.opposed(10, 2, 7, 5).actor_wins
    assert ac.opposed(7, 5, 10, 2).actor_wins
    assert ac.opposed(10, 3, 10, 3).actor_wins
    assert ac.opposed(10, 3, 10, 3).degrees == 1


def test_opposed_hero_point() -> None:
    o = ac.opposed(3, 0, 12, 0, actor_hero_point=True)
    assert o.actor_total == 13 and o.actor_wins


@given(faces, mods, faces, mods)
def test_opposed_exactly_one_winner(a: int, ab: int, b: int, bb: int) -> None:
    one, other = ac.opposed(a, ab, b, bb), ac.opposed(b, bb, a, ab)
    if (a + ab, ab) != (b + bb, bb):
        assert one.actor_wins != other.actor_wins
    assert one.degrees == other.degrees >= 1


@given(faces, mods, faces, mods)
def test_opposed_monotonic_in_the_actor_bonus(a: int, ab: int, b: int, bb: int) -> None:
    if ac.opposed(a, ab, b, bb).actor_wins:
        assert ac.opposed(a, ab + 1, b, bb).actor_wins


def test_speed_feet() -> None:
    assert ac.speed_feet(0) == 30
    assert ac.speed_feet(1) == 60
    assert ac.speed_feet(-1) == 15
    assert ac.speed_feet(2) == 120
    assert isinstance(ac.speed_feet(-3), Fraction)


# ------------------------------------------------------------------ aid

@pytest.mark.parametrize(("natural", "bonus", "value"), [
    (9, 0, 0), (10, 0, 2), (14, 5, 2), (15, 5, 5), (20, 0, 5), (1, 9, 2), (1, 8, 0)])
def test_aid_dc_10_plus_2_and_plus_5_at_3_degrees(natural: int, bonus: int, value: int) -> None:
    out = ac.aid(natural, bonus, defense=False)
    assert out.check is not None and out.check.dc == 10
    assert out.success == (value > 0)
    if value:
        assert out.bonuses == (_aid_bonus(Role.ALLY, "attack", value),)
    else:
        assert out.bonuses == ()


def _aid_bonus(role: Role, what: str, value: int) -> ac.Bonus:
    return ac.Bonus(role, what, value, Role.TARGET, DURATIONS["aid"])


def test_aid_defense_is_dodge_and_parry_against_that_foe_until_end_of_allys_next_turn() -> None:
    out = ac.aid(12, 0, defense=True)
    assert {b.what for b in out.bonuses} == {"dodge", "parry"}
    assert all(b.value == 2 and b.against is Role.TARGET and b.role is Role.ALLY
               for b in out.bonuses)
    assert out.bonuses[0].lasts == Lasts("end_of_next_turn", "ally")
    assert out.spent == (Cost.STANDARD,)


def test_aid_needs_position() -> None:
    with pytest.raises(IllegalAction):
        ac.aid(15, 0, defense=False, in_position=False)


# ------------------------------------------------------------------ aim

@pytest.mark.parametrize(("close", "point_blank", "value"), [
    (True, False, 5), (False, True, 5), (False, False, 2)])
def test_aim_bonus_and_vulnerable(close: bool, point_blank: bool, value: int) -> None:
    out = ac.aim(close=close, point_blank=point_blank)
    assert out.bonuses[0].value == value and out.bonuses[0].what == "attack"
    assert out.gains == (Gain(Role.ACTOR, C.VULNERABLE, Lasts("end_of_next_turn", "source")),)
    assert out.spent == (Cost.STANDARD,)


def test_aim_is_kept_only_by_the_attack_or_free_actions() -> None:
    for a in (A.ATTACK, A.DISARM, A.GRAB, A.SMASH, A.TRIP, A.MAINTAIN_GRAB, A.DROP_ITEM):
        assert ac.aim_kept(a), a
    for a in (A.CHARGE, A.MOVE, A.AID, A.DEFEND, A.STAND, A.COMMAND, A.RECOVER):
        assert not ac.aim_kept(a), a


# ------------------------------------------------------------------ attack, charge

def test_attack_delegates_to_attacks() -> None:
    out = ac.attack(12, 5, 17, modifier=0)
    assert out.attack == at.attack(12, 5, 17) and out.success
    assert out.then == (Then.RESOLVE_EFFECT,)
    miss = ac.attack(11, 5, 17)
    assert not miss.success and miss.then == ()
    assert ac.attack(20, -10, 30).attack is not None and ac.attack(20, -10, 30).success
    assert not ac.attack(1, 40, 10).success
    with_aim = ac.attack(7, 5, 17, modifier=5)
    assert with_aim.success and with_aim.attack is not None and with_aim.attack.total == 17


def test_attack_area_and_perception_need_no_roll() -> None:
    for out in (ac.attack(None, 0, 99, area=True),
                ac.attack(None, 0, 99, attack_range=at.AttackRange.PERCEPTION)):
        assert out.success and out.attack is None and out.then == (Then.RESOLVE_EFFECT,)


def test_attack_routine_when_no_die() -> None:
    out = ac.attack(None, 0, 10)
    assert out.attack is not None and out.attack.routine and out.success


def test_charge_minus_2_and_twice_speed_with_the_move() -> None:
    hit = ac.charge(13, 4, 15, speed_rank=2)
    assert hit.attack is not None and hit.attack.total == 15 and hit.success
    assert not ac.charge(12, 4, 15, speed_rank=2).success
    assert hit.moves == (ac.Movement(Role.ACTOR, (2,)),)
    assert hit.spent == (Cost.STANDARD,)
    double = ac.charge(13, 4, 15, speed_rank=2, with_move=True)
    assert double.moves[0].legs == (2, 2) and double.spent == (Cost.MOVE, Cost.STANDARD)
    assert ac.charge(13, 4, 15, speed_rank=2, conditions=[C.HINDERED]).moves[0].legs == (1,)
    with pytest.raises(IllegalAction):
        ac.charge(13, 4, 15, speed_rank=2, conditions=[C.RESTRAINED])


# ------------------------------------------------------------------ command, crawl

def test_command_one_per_move_action_two_a_turn() -> None:
    assert ac.command().spent == (Cost.MOVE,)
    assert ac.command(2).spent == (Cost.MOVE, Cost.MOVE)
    assert ac.command(2).then == (Then.ISSUE_COMMAND, Then.ISSUE_COMMAND)
    with pytest.raises(IllegalAction):
        ac.command(3)
    assert ac.MAX_COMMANDS_PER_TURN == 2


def test_crawl_ground_speed_minus_1_rank_slither_full() -> None:
    assert ac.crawl(0, [C.PRONE]).moves[0].legs == (-1,)
    assert ac.crawl(2, [C.PRONE, C.HINDERED]).moves[0].legs == (1,)
    assert ac.crawl(2, [C.PRONE], slither=True).moves[0].legs == (2,)
    assert ac.crawl(2, [C.PRONE, C.FATIGUED], slither=True).moves[0].legs == (1,)
    assert ac.crawl(0, [C.INCAPACITATED]).spent == (Cost.MOVE,)  # prone by inclusion
    with pytest.raises(IllegalAction):
        ac.crawl(0, [])
    with pytest.raises(IllegalAction):
        ac.crawl(0, [C.PRONE, C.BOUND])


# ------------------------------------------------------------------ defend

def test_defend_until_start_of_next_turn() -> None:
    out = ac.defend()
    assert out.spent == (Cost.STANDARD,) and out.then == (Then.OPPOSE_ATTACKS,)
    assert out.data["lasts"] == "start_of_next_turn"


@pytest.mark.parametrize(("defend_die", "defense", "dc"), [
    (1, 5, 16), (10, 5, 25), (11, 5, 16), (20, 5, 25)])
def test_defend_die_of_10_or_less_counts_plus_10(defend_die: int, defense: int, dc: int) -> None:
    r = ac.attack_vs_defend(15, 1, defend_die, defense)
    assert r.defense_class == dc


def test_defend_attacker_must_equal_or_exceed() -> None:
    assert ac.attack_vs_defend(15, 1, 11, 5).hit          # 16 vs 16
    assert not ac.attack_vs_defend(14, 1, 11, 5).hit      # 15 vs 16
    assert ac.attack_vs_defend(20, -10, 20, 10).hit       # natural 20 still hits
    assert not ac.attack_vs_defend(20, -10, 20, 10).critical
    assert not ac.attack_vs_defend(1, 50, 1, 0).hit       # natural 1 still misses


@given(faces, mods, faces, st.integers(0, 15))
def test_defend_never_below_11_plus_defense(a: int, ab: int, d: int, defense: int) -> None:
    r = ac.attack_vs_defend(a, ab, d, defense)
    assert r.defense_class >= 11 + defense


# ------------------------------------------------------------------ delay, ready

def test_delay_rules() -> None:
    effects = [ac.TurnEffect("e1", True), ac.TurnEffect("e2", False), ac.TurnEffect("e3", True)]
    out = ac.delay(acted=False, can_act=True, effects=effects)
    assert out.spent == () and out.data == {"end_now": "e1,e3", "deferred": "e2"}
    assert out.then == (Then.LEAVE_ORDER, Then.DEFER_RESISTANCE)
    with pytest.raises(IllegalAction):
        ac.delay(acted=True, can_act=True)
    with pytest.raises(IllegalAction):
        ac.delay(acted=False, can_act=False)


def test_delayed_turn_taken_or_lost() -> None:
    assert ac.delayed_turn(slot_reached=False).then == (Then.MOVE_IN_ORDER,)
    lost = ac.delayed_turn(slot_reached=True)
    assert not lost.success and lost.then == (Then.END_TURN,)


def test_ready_a_standard_move_or_free_action_with_a_trigger() -> None:
    out = ac.ready(A.ATTACK, " the door opens ")
    assert out.spent == (Cost.STANDARD,)
    assert out.data == {"readied": "attack", "kind": "standard", "trigger": "the door opens",
                        "lasts": "start_of_next_turn"}
    assert ac.ready(A.MOVE, "x").data["kind"] == "move"
    assert ac.ready(A.DROP_ITEM, "x").data["kind"] == "free"
    for bad in (A.RECOVER, A.DELAY, A.READY, A.COUNTER_DISARM, A.COUNTER_TRIP):
        with pytest.raises(IllegalAction):
            ac.ready(bad, "x")
    with pytest.raises(IllegalAction):
        ac.ready(A.ATTACK, "  ")


def test_readied_action_is_a_reaction_or_lost() -> None:
    taken = ac.take_readied(A.ATTACK, before_next_turn=True)
    assert taken.spent == (Cost.REACTION,) and taken.then == (Then.MOVE_IN_ORDER,)
    lost = ac.take_readied(A.ATTACK, before_next_turn=False)
    assert not lost.success and lost.spent == ()


# ------------------------------------------------------------------ disarm

def _disarm(natural: int = 15, *, ranged: bool = False, dmg: int = 15, strn: int = 5,
            unarmed: bool = False, melee_weapon: bool = False) -> ac.Outcome:
    return ac.disarm(natural, 5, 18, ranged=ranged, damage_natural=dmg, damage_rank=6,
                     strength_natural=strn, defender_strength=3, unarmed=unarmed,
                     melee_weapon=melee_weapon)


def _rolled(out: ac.Outcome) -> at.AttackResult:
    assert out.attack is not None
    return out.attack


def test_disarm_minus_2_close_minus_5_ranged() -> None:
    assert _rolled(_disarm(15)).total == 18 and _rolled(_disarm(15)).hit
    assert not _rolled(_disarm(14)).hit
    assert _rolled(_disarm(18, ranged=True)).total == 18
    assert not _disarm(17, ranged=True).success
    assert ac.DISARM_CLOSE_PENALTY == -2 and ac.DISARM_RANGED_PENALTY == -5


def test_disarm_opposed_damage_vs_strength() -> None:
    win = _disarm(dmg=10, strn=10)      # 16 vs 13
    assert win.success and win.drops == (Role.TARGET,) and win.opposed is not None
    assert (win.opposed.actor_total, win.opposed.opponent_total) == (16, 13)
    unarmed = _disarm(dmg=10, strn=10, unarmed=True)
    assert unarmed.then == (Then.MAY_TAKE_ITEM,)
    lose = _disarm(dmg=2, strn=15, melee_weapon=True)
    assert not lose.success and lose.drops == () and lose.then == (Then.COUNTER_DISARM,)
    assert _disarm(dmg=2, strn=15).then == ()               # unarmed loss: no counter
    assert _disarm(dmg=2, strn=15, ranged=True, natural=20).then == ()
    assert _disarm(1).opposed is None


def test_counter_disarm_once() -> None:
    out = ac.counter_disarm(15, 6, 5, 3)
    assert out.success and out.drops == (Role.ACTOR,) and out.spent == (Cost.REACTION,)
    fail = ac.counter_disarm(2, 0, 15, 3)
    assert not fail.success and fail.drops == () and fail.then == ()


# ------------------------------------------------------------------ drop, stand, move, run

def test_drop_item_and_drop_prone_are_free() -> None:
    assert ac.drop_item().drops == (Role.ACTOR,) and ac.drop_item().spent == (Cost.FREE,)
    with pytest.raises(IllegalAction):
        ac.drop_item(thrown_at_target=True)
    p = ac.drop_prone()
    assert p.gains == (Gain(Role.ACTOR, C.PRONE),) and p.spent == (Cost.FREE,)


def test_stand_move_or_free_with_dc_20_acrobatics_or_instant_up() -> None:
    stood = (Loss(Role.ACTOR, C.PRONE),)
    assert ac.stand().spent == (Cost.MOVE,) and ac.stand().losses == stood
    assert ac.stand(instant_up=True).spent == (Cost.FREE,)
    assert ac.stand(instant_up=True).losses == stood and ac.stand(instant_up=True).check is None
    ok = ac.stand(natural=15, acrobatics=5)
    assert ok.success and ok.spent == (Cost.FREE,) and ok.losses == stood
    assert ok.check is not None and ok.check.dc == 20
    fail = ac.stand(natural=14, acrobatics=5)
    assert not fail.success and fail.losses == () and fail.spent == (Cost.FREE,)


def test_move_speed_rank_once_or_twice() -> None:
    assert ac.move(0).moves[0].legs == (0,) and ac.move(0).spent == (Cost.MOVE,)
    two = ac.move(3, legs=2)
    assert two.moves[0].legs == (3, 3) and two.spent == (Cost.MOVE, Cost.MOVE)
    assert ac.move(3, [C.HINDERED]).moves[0].legs == (2,)
    assert ac.move(3, [C.STAGGERED]).moves[0].legs == (2,)
    with pytest.raises(IllegalAction):
        ac.move(3, [C.IMMOBILE])
    with pytest.raises(IllegalAction):
        ac.move(3, [C.PRONE])
    with pytest.raises(IllegalAction):
        ac.move(3, legs=3)


def test_run_dc_15_athletics_plus_1_rank_for_1_round() -> None:
    ok = ac.run(12, 3)
    assert ok.success and ok.spent == (Cost.FREE,)
    assert ok.bonuses == (ac.Bonus(Role.ACTOR, "speed", 1, None, Lasts("rounds", "source", 1)),)
    assert not ac.run(11, 3).success and ac.run(11, 3).bonuses == ()


# ------------------------------------------------------------------ grab, escape, drag

def _grab(resist: int, *, hold: ac.Hold | None = None, natural: int = 15) -> ac.Outcome:
    # Strength 8: DC 18; the target resists with the better of Strength 2 / Dodge 4
    return ac.grab(natural, 5, 18, resist_natural=resist, strength=8, target_strength=2,
                   target_dodge=4, hold=hold)


def test_grab_resistance_dc_10_plus_strength_with_better_of_strength_or_dodge() -> None:
    out = _grab(13)
    assert out.check is not None and out.check.dc == 18 and out.check.modifier == 4


def test_grab_one_degree_restrained_two_bound() -> None:
    one = _grab(12)          # 16 vs 18: one degree
    assert one.hold == ac.Hold(8, 1) and one.hold.condition is C.RESTRAINED
    assert Gain(Role.TARGET, C.RESTRAINED) in one.gains
    assert Gain(Role.ACTOR, C.HINDERED) in one.gains
    assert Gain(Role.ACTOR, C.VULNERABLE) in one.gains
    two = _grab(8)           # 12 vs 18: two degrees
    assert two.hold == ac.Hold(8, 2) and two.hold.condition is C.BOUND
    assert Gain(Role.TARGET, C.BOUND) in two.gains


def test_grab_degrees_cumulative_and_losing_frees() -> None:
    first = _grab(12)
    assert first.hold is not None
    second = _grab(12, hold=first.hold)
    assert second.hold == ac.Hold(8, 2)
    assert second.gains == (Gain(Role.TARGET, C.BOUND),)
    assert second.losses == (Loss(Role.TARGET, C.RESTRAINED),)
    third = _grab(12, hold=second.hold)
    assert third.hold == ac.Hold(8, 3) and third.gains == () and third.losses == ()
    freed = _grab(14, hold=second.hold)
    assert not freed.success and freed.hold is None and freed.then == (Then.RELEASE,)
    assert Loss(Role.TARGET, C.BOUND) in freed.losses
    assert Loss(Role.ACTOR, C.HINDERED) in freed.losses
    missed = _grab(1, hold=first.hold, natural=2)
    assert not missed.success and missed.hold == first.hold and missed.losses == ()


def test_grab_miss_and_resisted_new_grab() -> None:
    assert not _grab(1, natural=2).success and _grab(1, natural=2).check is None
    resisted = _grab(14)
    assert not resisted.success and resisted.losses == () and resisted.then == ()


@given(faces, faces)
def test_grab_degrees_never_shrink(a: int, b: int) -> None:
    first = _grab(a)
    if first.hold is not None:
        second = _grab(b, hold=first.hold)
        assert second.hold is None or second.hold.degrees > first.hold.degrees


def test_maintain_release_and_grab_damage() -> None:
    hold = ac.Hold(8, 1)
    assert ac.maintain_grab(hold, can_take_free=True).spent == (Cost.FREE,)
    lost = ac.maintain_grab(hold, can_take_free=False)
    assert not lost.success and lost.then == (Then.RELEASE,)
    assert Loss(Role.TARGET, C.RESTRAINED) in lost.losses
    rel = ac.release(ac.Hold(8, 2))
    assert rel.spent == (Cost.FREE,) and Loss(Role.TARGET, C.BOUND) in rel.losses
    dmg = ac.grab_damage(hold, established_earlier=True)
    assert dmg.spent == (Cost.STANDARD,) and dmg.data == {"damage_rank": 8, "dc": 23}
    with pytest.raises(IllegalAction):
        ac.grab_damage(hold, established_earlier=False)


def test_escape_vs_routine_check_of_grabbers_strength() -> None:
    hold = ac.Hold(6, 2)
    ok = ac.escape(10, athletics=2, acrobatics=6, hold=hold, ground_rank=0)
    assert ok.check is not None and ok.check.dc == 16 and ok.success
    assert ok.moves == (ac.Movement(Role.ACTOR, (-1,), optional=True),)
    assert Loss(Role.ACTOR, C.BOUND) in ok.losses and ok.then == (Then.RELEASE,)
    assert Loss(Role.TARGET, C.VULNERABLE) in ok.losses
    fail = ac.escape(9, athletics=2, acrobatics=6, hold=hold)
    assert not fail.success and fail.losses == () and fail.hold == hold
    assert fail.spent == (Cost.MOVE,)


@given(faces, st.integers(-5, 20), st.integers(0, 15))
def test_escape_monotonic_in_the_bonus(d: int, bonus: int, strength: int) -> None:
    hold = ac.Hold(strength, 1)
    if ac.escape(d, athletics=bonus, acrobatics=0, hold=hold).success:
        assert ac.escape(d, athletics=bonus + 1, acrobatics=0, hold=hold).success


def test_drag_strength_vs_strength() -> None:
    hold = ac.Hold(7, 1)
    moved = ac.drag(5, target_strength=3, hold=hold, speed_rank=1)      # 8 vs 17
    assert moved.success and moved.check is not None and moved.check.dc == 17
    assert moved.moves == (ac.Movement(Role.ACTOR, (0,), Role.TARGET),)  # grabber hindered
    stuck = ac.drag(14, target_strength=3, hold=hold, speed_rank=1)    # 17 vs 17
    assert not stuck.success and stuck.moves == ()
    assert stuck.gains == (Gain(Role.ACTOR, C.IMMOBILE, Lasts("end_of_turn", "source")),)


# ------------------------------------------------------------------ recover

def test_recover_removes_the_worst_damage_and_gives_plus_2_defenses() -> None:
    state = DamageState(-2, frozenset({C.DAZED, C.STAGGERED}))
    out = ac.recover(ac.RecoverChoice.DAMAGE, used=False, damage=state)
    assert out.damage == DamageState(-2, frozenset({C.DAZED}))
    assert out.losses == (Loss(Role.ACTOR, C.STAGGERED),)
    assert {(b.what, b.value) for b in out.bonuses} == {("dodge", 2), ("parry", 2)}
    assert all(b.lasts == Lasts("start_of_next_turn", "source") for b in out.bonuses)
    assert out.spent == (Cost.STANDARD, Cost.MOVE) and Then.END_TURN in out.then
    only_penalty = ac.recover(ac.RecoverChoice.DAMAGE, used=False, damage=DamageState(-3))
    assert only_penalty.damage == DamageState(-2)


def test_recover_fatigue_and_ongoing() -> None:
    ex = ac.recover(ac.RecoverChoice.FATIGUE, used=False, fatigue=C.EXHAUSTED)
    assert ex.fatigue is C.FATIGUED and ex.gains == (Gain(Role.ACTOR, C.FATIGUED),)
    fa = ac.recover(ac.RecoverChoice.FATIGUE, used=False, fatigue=C.FATIGUED)
    assert fa.fatigue is None and fa.losses == (Loss(Role.ACTOR, C.FATIGUED),)
    with pytest.raises(IllegalAction):
        ac.recover(ac.RecoverChoice.FATIGUE, used=False, fatigue=C.DAZED)
    on = ac.recover(ac.RecoverChoice.ONGOING, used=False)
    assert on.then == (Then.RESIST_ONGOING, Then.END_TURN) and len(on.bonuses) == 2


def test_recover_once_per_conflict() -> None:
    with pytest.raises(IllegalAction):
        ac.recover(ac.RecoverChoice.DAMAGE, used=True)


# ------------------------------------------------------------------ smash, trip

def test_smash_minus_5_if_held() -> None:
    held = ac.smash(15, 5, 15, held=True)
    assert held.attack is not None and held.attack.total == 15 and held.success
    assert held.then == (Then.DAMAGE_OBJECT,)
    assert not ac.smash(14, 5, 15, held=True).success
    assert ac.smash(10, 5, 15, held=False).success


@pytest.mark.parametrize(("natural", "result"), [
    (20, "intact"), (13, "intact"), (8, "intact"), (7, "broken"), (3, "broken"),
    (2, "destroyed"), (1, "destroyed")])
def test_object_resists_broken_at_2_destroyed_at_3(natural: int, result: str) -> None:
    # steel (9) against damage 7: DC 22
    check, what = ac.object_resists(natural, 9, 7)
    assert check.dc == 22 and what == result


def _trip(natural: int = 14, *, mine: int = 10, theirs: int = 10) -> ac.Outcome:
    return ac.trip(natural, 4, 6, actor_natural=mine, actor_acrobatics=2, actor_athletics=5,
                   target_natural=theirs, target_acrobatics=4, target_athletics=1)


def test_trip_close_attack_vs_parry_minus_2() -> None:
    hit = _trip(14)       # 14 + 4 - 2 = 16 vs 16
    assert hit.attack is not None and hit.attack.defense_class == 16 and hit.attack.hit
    assert not _rolled(_trip(13)).hit


def test_trip_opposed_better_of_acrobatics_or_athletics() -> None:
    win = _trip(mine=10, theirs=10)        # 15 vs 14
    assert win.success and win.gains == (Gain(Role.TARGET, C.PRONE),)
    assert win.opposed is not None and (win.opposed.actor_bonus, win.opposed.opponent_bonus) \
        == (5, 4)
    lose = _trip(mine=5, theirs=10)
    assert not lose.success and lose.then == (Then.COUNTER_TRIP,) and lose.gains == ()


def test_counter_trip() -> None:
    back = ac.counter_trip(12, 4, 5, 5)
    assert back.success and back.gains == (Gain(Role.ACTOR, C.PRONE),) and back.spent == ()
    ends = ac.counter_trip(2, 4, 15, 5)
    assert not ends.success and ends.gains == () and ends.then == ()


@given(faces, faces, faces)
def test_a_trip_that_misses_changes_nothing(a: int, b: int, c: int) -> None:
    out = ac.trip(a, -30, 20, actor_natural=b, actor_acrobatics=0, actor_athletics=0,
                  target_natural=c, target_acrobatics=0, target_athletics=0)
    if not out.attack or not out.attack.hit:
        assert out.gains == () and out.opposed is None
