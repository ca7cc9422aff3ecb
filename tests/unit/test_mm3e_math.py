"""Mutants & Masterminds 3e rules math (engine/systems/mm3e): every number of RULES.md D that the
package implements, and property tests against brute-force enumeration of the d20."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.dice import degrees_vs_dc
from engine.errors import IllegalAction
from engine.systems.mm3e import attacks as at
from engine.systems.mm3e import checks as ck
from engine.systems.mm3e import conditions as cn
from engine.systems.mm3e import damage as dm
from engine.systems.mm3e import hazards as hz
from engine.systems.mm3e import initiative as ini
from engine.systems.mm3e import maneuvers as mv
from engine.systems.mm3e.conditions import Condition as C

mods = st.integers(-10, 30)
dcs = st.integers(0, 40)
faces = st.integers(1, 20)


# ------------------------------------------------------------------ D.1 checks

@pytest.mark.parametrize(("total", "dc", "signed"), [
    (10, 10, 1), (14, 10, 1), (15, 10, 2), (19, 10, 2), (20, 10, 3), (25, 10, 4),
    (9, 10, -1), (5, 10, -1), (4, 10, -2), (0, 10, -2), (-1, 10, -3), (-5, 10, -3),
    (-6, 10, -4), (-30, 10, -4),
])
def test_degrees_of_success_and_failure(total: int, dc: int, signed: int) -> None:
    """Meet the DC: 1; +1 per full 5 over. Miss by 1-5: 1, 6-10: 2, 11-15: 3, 16+: 4."""
    assert ck.degree(total, dc) == signed


def test_degree_rule_is_named_as_filled_in() -> None:
    assert "Degrees of success and failure" in ck.FILLED_IN and "[EXT]" in ck.FILLED_IN
    assert ck.MAX_FAILURE_DEGREES == 4


@given(faces, mods, dcs)
def test_degrees_agree_with_engine_dice_without_crit_shift(natural: int, mod: int,
                                                           dc: int) -> None:
    """The generic d20 degree roll of engine.dice agrees when it does not shift on 20 or 1."""
    r = ck.check(natural, mod, dc)
    g = degrees_vs_dc(natural, mod, dc, crit_shift=False)
    assert (r.success, r.degrees, r.total) == (g.success, g.degrees, g.total)


@given(st.integers(-50, 80), st.integers(-50, 80), dcs)
def test_degrees_monotonic_in_the_total(a: int, b: int, dc: int) -> None:
    lo, hi = sorted((a, b))
    assert ck.degree(lo, dc) <= ck.degree(hi, dc)
    assert ck.degree(a, dc) != 0


def test_check_success_is_total_meets_dc() -> None:
    assert ck.check(10, 0, 10).success
    assert not ck.check(9, 0, 10).success
    assert ck.check(12, 3, 15).label == "success, 1 degree"
    assert ck.check(2, 0, 15).label == "failure, 3 degrees"
    with pytest.raises(ValueError):
        ck.check(21, 0, 10)
    with pytest.raises(ValueError):
        ck.check(0, 0, 10)


def test_resistance_dcs() -> None:
    """10 + effect rank; Damage 15 + rank."""
    assert dm.resistance_dc(5) == 15
    assert dm.damage_dc(5) == 20
    assert dm.damage_dc(0) == 15


def test_routine_check_is_ten_plus_bonus() -> None:
    r = ck.routine_check(0, 10)
    assert r.routine and r.natural is None and r.total == 10 and r.success
    assert not ck.routine_check(-1, 10).success
    assert ck.routine_check(5, 10).degree == 2
    assert ck.routine_succeeds(0, 10) and not ck.routine_succeeds(4, 15)


def test_circumstance_modifiers() -> None:
    assert ck.circumstance(True) == 2
    assert ck.circumstance(False) == -2
    assert ck.circumstance(True, major=True) == 5
    assert ck.circumstance(False, major=True) == -5


@given(st.integers(-30, 60), dcs)
def test_major_circumstance_moves_a_graded_result_one_degree(total: int, dc: int) -> None:
    """A +/-5 moves the degree by one, except past the floor of 4 failures."""
    d, up = ck.degree(total, dc), ck.degree(total + 5, dc)
    if dc - total <= 20:  # a miss by 21+ is still 4 degrees after +5
        assert up == ck.shift_degree(d, 1)
    else:
        assert up == d == -4
    down = ck.degree(total - 5, dc)
    assert down == ck.shift_degree(d, -1)


def test_hero_point_die() -> None:
    """A die of 10 or less counts +10: at least 11."""
    assert [ck.hero_point_die(f) for f in (1, 5, 10, 11, 20)] == [11, 15, 20, 11, 20]
    r = ck.check(3, 0, 10, hero_point=True)
    assert r.die == 13 and r.total == 13 and r.success and r.natural == 3


def test_55_percent_rule() -> None:
    """+0 against DC 10 succeeds on 10-20: 11/20. The bonus for 55% is DC - 10."""
    assert ck.success_odds(0, 10) == Fraction(11, 20)
    assert ck.bonus_for_55(25) == 15
    assert ck.success_odds(15, 25) == Fraction(11, 20)
    # a 55% task succeeds routinely, and always with a hero point
    assert ck.routine_succeeds(ck.bonus_for_55(25), 25)
    assert ck.success_odds(0, 10, hero_point=True) == 1
    assert ck.success_odds(0, 11, hero_point=True) == 1
    assert ck.success_odds(0, 12, hero_point=True) == Fraction(9, 10)


def test_degree_odds_example() -> None:
    """+0 vs DC 10: faces 1-4 miss by 6-9 (2 degrees), 5-9 by 1-5 (1), 10-14 one success,
    15-19 two, 20 three."""
    assert ck.degree_odds(0, 10) == {-2: Fraction(4, 20), -1: Fraction(5, 20),
                                     1: Fraction(5, 20), 2: Fraction(5, 20), 3: Fraction(1, 20)}


def test_dc_range_and_defaults() -> None:
    assert (ck.MIN_DC, ck.MAX_DC) == (0, 40)
    assert ck.success_odds(-10, 0) == Fraction(11, 20)


def test_natural_20_extra_degree_is_an_option() -> None:
    assert ck.check(20, 0, 30).degree == -2
    assert ck.check(20, 0, 30, nat20_bonus=True).degree == -1
    assert ck.check(20, 0, 21, nat20_bonus=True).degree == 1
    assert ck.check(20, 0, 10, nat20_bonus=True).degree == 4


@settings(max_examples=200)
@given(mods, dcs, st.booleans(), st.booleans())
def test_degree_odds_sum_to_one_and_match_brute_force(mod: int, dc: int, hero: bool,
                                                      nat20: bool) -> None:
    odds = ck.degree_odds(mod, dc, hero_point=hero, nat20_bonus=nat20)
    assert sum(odds.values()) == 1
    brute: dict[int, Fraction] = {}
    for face in range(1, 21):
        die = face + 10 if hero and face <= 10 else face
        total = die + mod
        if total >= dc:
            d = 1 + (total - dc) // 5
        else:
            miss = dc - total
            d = -(1 if miss <= 5 else 2 if miss <= 10 else 3 if miss <= 15 else 4)
        if nat20 and face == 20:
            d = 1 if d == -1 else d + 1
        brute[d] = brute.get(d, Fraction(0)) + Fraction(1, 20)
    assert odds == brute


def test_defend_result() -> None:
    """Defend: d20 + active defense with a die of 10 or less counting +10."""
    assert ck.defend_result(4, 8) == 22
    assert ck.defend_result(15, 8) == 23


# ------------------------------------------------------------------ D.2 initiative

def e(id_: str, natural: int, bonus: int = 0, dodge: int = 0, agility: int = 0,
      awareness: int = 0, rolloff: tuple[int, ...] = ()) -> ini.InitiativeEntry:
    return ini.InitiativeEntry(id_, natural, bonus, dodge, agility, awareness, rolloff)


def test_initiative_total_and_bonus() -> None:
    assert e("a", 12, 3).total == 15
    assert ini.initiative_bonus(3) == 3
    assert ini.initiative_bonus(3, 4) == 7


def test_initiative_order_and_tie_breakers() -> None:
    entries = [
        e("low", 2, 0),
        e("dodge", 10, 0, dodge=5),
        e("agility", 10, 0, dodge=4, agility=9),
        e("awareness", 10, 0, dodge=4, agility=3, awareness=8),
        e("plain", 10, 0, dodge=4, agility=3, awareness=2),
        e("high", 19, 2),
    ]
    order = [x.id for x in ini.order(entries)]
    assert order == ["high", "dodge", "agility", "awareness", "plain", "low"]


def test_initiative_roll_off() -> None:
    a = e("a", 10, rolloff=(3,))
    b = e("b", 10, rolloff=(17,))
    c = e("c", 10, rolloff=(17, 2))
    d = e("d", 10, rolloff=(17, 9))
    assert [x.id for x in ini.order([a, b])] == ["b", "a"]
    assert [x.id for x in ini.order([a, c, d])] == ["d", "c", "a"]
    assert ini.unresolved_ties([a, b]) == []
    assert ini.unresolved_ties([e("x", 10), e("y", 10), e("z", 3)]) == [["x", "y"]]


def test_late_joiner_takes_its_place() -> None:
    current = ini.order([e("a", 18), e("b", 10), e("c", 3)])
    joined = ini.join(current, e("n", 11))
    assert [x.id for x in joined] == ["a", "n", "b", "c"]
    assert [x.id for x in ini.join(current, e("z", 1))] == ["a", "b", "c", "z"]
    assert [x.id for x in ini.join(current, e("t", 10))] == ["a", "b", "t", "c"]


entry_st = st.builds(
    ini.InitiativeEntry, st.sampled_from("abcdefgh"), faces, st.integers(-2, 4),
    st.integers(0, 3), st.integers(0, 3), st.integers(0, 3),
    st.lists(st.integers(1, 20), max_size=2).map(tuple))


@given(st.lists(entry_st, max_size=8))
def test_initiative_order_is_total_and_consistent(entries: list[ini.InitiativeEntry]) -> None:
    """Sorted by result, then Dodge, Agility, Awareness, roll-off: every adjacent pair is in
    order, and any two entries compare one way only."""
    order = ini.order(entries)
    assert sorted(map(id, order)) == sorted(map(id, entries))
    for x, y in itertools.pairwise(order):
        assert (x.total, x.dodge, x.agility, x.awareness, x.rolloff) >= (
            y.total, y.dodge, y.agility, y.awareness, y.rolloff)
        if x.total != y.total:
            assert x.total > y.total
        elif x.dodge != y.dodge:
            assert x.dodge > y.dodge
        elif x.agility != y.agility:
            assert x.agility > y.agility
        elif x.awareness != y.awareness:
            assert x.awareness > y.awareness
    # the same entries in another order give the same order up to full ties
    again = ini.order(list(reversed(entries)))
    assert [x.key() for x in again] == [x.key() for x in order]


# ------------------------------------------------------------------ D.3 attacks

def test_defense_class_and_targets() -> None:
    """Parry 11 -> 21 against close; Dodge 9 -> 19 against ranged."""
    assert at.defense_class(11) == 21
    assert at.defense_class(9) == 19
    assert at.defense_against(at.AttackRange.CLOSE) == "parry"
    assert at.defense_against(at.AttackRange.RANGED) == "dodge"
    assert at.defense_against(at.AttackRange.PERCEPTION) is None


def test_natural_20_and_natural_1() -> None:
    r = at.attack(20, 0, 30)
    assert r.hit and r.threat and not r.critical and r.outcome == "hit"
    r = at.attack(20, 10, 30)
    assert r.critical and r.outcome == "critical"
    r = at.attack(1, 50, 10)
    assert not r.hit and r.outcome == "miss"
    assert at.attack(10, 5, 15).hit and not at.attack(9, 5, 15).hit


def test_improved_critical_threat_range() -> None:
    """A threat on 19 with Improved Critical only if it hits; only 20 auto-hits."""
    assert at.attack(19, 10, 25, threat_from=19).critical
    r = at.attack(19, 0, 25, threat_from=19)
    assert not r.hit and not r.threat
    assert not at.attack(19, 10, 25).threat


def test_minions_cannot_crit_non_minions() -> None:
    r = at.attack(20, 10, 15, can_crit=False)
    assert r.hit and not r.critical


def test_critical_effects() -> None:
    assert at.crit_resistance_dc(20, at.CritEffect.INCREASED) == 25
    assert at.crit_resistance_dc(20, at.CritEffect.ADDED) == 20
    assert at.added_effect_dc(damage=True) == 15
    assert at.added_effect_dc(damage=False) == 10


def test_perception_and_area_need_no_attack_check() -> None:
    assert not at.needs_attack_check(at.AttackRange.PERCEPTION)
    assert not at.needs_attack_check(at.AttackRange.RANGED, area=True)
    assert at.needs_attack_check(at.AttackRange.CLOSE)


@pytest.mark.parametrize(("rank", "feet", "band", "penalty"), [
    (4, 0, "short", 0), (4, 100, "short", 0), (4, 101, "medium", -2), (4, 200, "medium", -2),
    (4, 201, "long", -5), (4, 400, "long", -5), (4, 401, "beyond", None),
    (10, 250, "short", 0), (10, 500, "medium", -2), (10, 1000, "long", -5),
])
def test_range_increments(rank: int, feet: int, band: str, penalty: int | None) -> None:
    """Short to rank x 25 ft (0), medium to x 50 (-2), long to x 100 (-5), beyond: no attack."""
    assert at.range_band(rank, feet) == band
    assert at.range_penalty(rank, feet) == penalty


def test_concealment_and_cover() -> None:
    Ob = at.Obscurement
    assert [at.obscurement_penalty(o) for o in Ob] == [0, -2, -5, None]
    assert at.cover_dodge_bonus(Ob.NONE) == 0
    assert at.cover_dodge_bonus(Ob.PARTIAL) == 2
    assert at.cover_dodge_bonus(Ob.TOTAL) == 5
    assert at.cover_dodge_bonus(Ob.COMPLETE) == 5


@pytest.mark.parametrize(("rank", "vulnerable", "defenseless", "out"), [
    (11, True, False, 6), (9, True, False, 5), (10, True, False, 5), (1, True, False, 1),
    (0, True, False, 0), (11, False, True, 0), (11, True, True, 0), (11, False, False, 11),
])
def test_vulnerable_and_defenseless(rank: int, vulnerable: bool, defenseless: bool,
                                    out: int) -> None:
    """Vulnerable halves active defenses rounding up (Parry 11 -> 6, Dodge 9 -> 5);
    defenseless makes them 0 (DC 10)."""
    assert at.active_defense(rank, vulnerable=vulnerable, defenseless=defenseless) == out


def test_routine_attacks() -> None:
    """Against a defenseless target (DC 10) a routine attack with bonus >= 0 hits."""
    dc = at.defense_class(at.active_defense(8, defenseless=True))
    assert dc == 10
    assert at.routine_attack(0, dc).hit and not at.routine_attack(-1, dc).hit
    assert not at.routine_attack(30, dc).critical
    assert at.routine_allowed(target_defenseless=True)
    assert at.routine_allowed(target_defenseless=False, target_minion=True)
    assert not at.routine_allowed(target_defenseless=False, target_minion=True,
                                  attacker_minion=True)
    assert not at.routine_allowed(target_defenseless=False)


def test_area_reading() -> None:
    """Filled in: Dodge DC 10 + rank; a success halves the rank, rounding down."""
    assert at.area_dodge_dc(8) == 18
    assert at.area_rank(9, dodged=True) == 4
    assert at.area_rank(9, dodged=False) == 9
    assert "Area effects" in at.FILLED_IN


def test_attack_odds_examples() -> None:
    odds = at.attack_odds(0, 10)
    assert odds["critical"] == Fraction(1, 20)
    assert odds["hit"] == Fraction(10, 20)
    assert at.hit_odds(0, 30) == Fraction(1, 20)        # only the natural 20
    assert at.hit_odds(40, 10) == Fraction(19, 20)      # never the natural 1
    assert at.attack_odds(0, 30)["critical"] == 0


@settings(max_examples=200)
@given(mods, st.integers(0, 45), st.integers(15, 20), st.booleans())
def test_attack_odds_sum_to_one_and_match_brute_force(bonus: int, dc: int, threat: int,
                                                      can_crit: bool) -> None:
    odds = at.attack_odds(bonus, dc, threat_from=threat, can_crit=can_crit)
    assert sum(odds.values()) == 1
    brute = {"miss": 0, "hit": 0, "critical": 0}
    for face in range(1, 21):
        hit = face != 1 and (face == 20 or face + bonus >= dc)
        crit = can_crit and hit and face >= threat and face + bonus >= dc
        brute["critical" if crit else "hit" if hit else "miss"] += 1
    assert odds == {k: Fraction(v, 20) for k, v in brute.items()}


# ------------------------------------------------------------------ D.4 damage

S = dm.DamageState


def applied(state: dm.DamageState, degree: int, **kw: bool) -> dm.DamageOutcome:
    return dm.apply_resistance(state, degree, **kw)


def test_damage_ladder_rows() -> None:
    none = S()
    assert applied(none, 1).state == none and applied(none, 3).applied == "none"
    assert applied(none, -1).state == S(-1)
    assert applied(none, -2).state == S(-1, frozenset({C.DAZED}))
    assert applied(none, -3).state == S(-1, frozenset({C.STAGGERED}))
    assert applied(none, -4).state == S(0, frozenset({C.INCAPACITATED}))


def test_penalties_stack_per_failed_check() -> None:
    """Three 1-degree failures give -3."""
    s = S()
    for _ in range(3):
        s = applied(s, -1).state
    assert s.penalty == -3


def test_penalty_on_incapacitation_is_an_option() -> None:
    assert applied(S(), -4, penalty_on_incapacitation=True).state.penalty == -1


def test_staggered_again_escalates_to_incapacitated() -> None:
    s = applied(S(), -3).state
    out = applied(s, -3)
    assert out.escalated and out.applied == "incapacitated"
    assert out.state.has(C.INCAPACITATED) and out.state.has(C.STAGGERED)
    # a 2-degree failure while staggered only dazes
    assert applied(s, -2).state.conditions == {C.STAGGERED, C.DAZED}


def test_incapacitated_then_dying_then_dead() -> None:
    s = S(0, frozenset({C.INCAPACITATED}))
    s2 = applied(s, -1)
    assert s2.applied == "dying" and s2.state.has(C.DYING)
    s3 = applied(s2.state, -1)
    assert s3.applied == "dead" and s3.state.has(C.DEAD)
    assert applied(s3.state, -4).state == s3.state
    assert applied(s, 2).state == s


def test_minion_takes_the_worst_degree() -> None:
    out = applied(S(), -1, minion=True)
    assert out.applied == "incapacitated" and out.failure_degrees == 4


def test_finishing_attack_with_intent_to_kill() -> None:
    assert applied(S(), -3, finishing_kill=True).state.has(C.DEAD)
    assert not applied(S(), -2, finishing_kill=True).state.has(C.DEAD)


def test_resist_damage_uses_dc_15_plus_rank_and_the_penalty() -> None:
    res, out = dm.resist_damage(S(-2), 10, toughness=8, rank=5)
    assert res.dc == 20 and res.total == 16 and res.degree == -1
    assert out.state.penalty == -3


def test_dazed_ends_staggered_stays() -> None:
    s = S(-2, frozenset({C.DAZED, C.STAGGERED}))
    assert dm.end_daze(s) == S(-2, frozenset({C.STAGGERED}))


def test_recovery_one_step_per_minute_worst_first() -> None:
    s = S(-2, frozenset({C.INCAPACITATED, C.STAGGERED, C.DAZED}))
    steps = [s]
    while not steps[-1].unhurt:
        steps.append(dm.recover_step(steps[-1]))
    assert [x.worst for x in steps] == [C.INCAPACITATED, C.STAGGERED, C.DAZED, None, None, None]
    assert [x.penalty for x in steps] == [-2, -2, -2, -2, -1, 0]
    assert dm.minutes_to_recover(s) == 5
    assert dm.recover(s, 5).unhurt and dm.recover(s, 2) == steps[2]


def test_dying_and_dead_do_not_rest_it_off() -> None:
    dying = S(-1, frozenset({C.INCAPACITATED, C.DYING}))
    assert dm.recover_step(dying) == dying
    assert dm.minutes_to_recover(dying) is None
    assert dm.stabilize(dying).conditions == {C.INCAPACITATED}
    dead = S(0, frozenset({C.DEAD}))
    assert dm.stabilize(dead) == dead


def test_damage_state_rejects_bad_values() -> None:
    with pytest.raises(ValueError):
        S(1)
    with pytest.raises(ValueError):
        S(0, frozenset({C.PRONE}))


def test_strength_based_damage() -> None:
    assert dm.strength_based_rank(4, 3) == 7
    assert dm.strength_based_rank(-2, 3) == 1


def test_objects() -> None:
    """An inch of each material; +1 per doubling (a foot of stone is 8); devices points/5,
    at least 1; broken at 2 degrees, destroyed at 3+."""
    assert dm.MATERIAL_TOUGHNESS == {
        "paper": 0, "soil": 0, "glass": 1, "ice": 1, "rope": 1, "wood": 3, "stone": 5,
        "iron": 7, "reinforced concrete": 8, "steel": 9, "titanium": 15, "super-alloys": 20}
    assert dm.object_toughness("stone", 3) == 8
    assert dm.object_toughness("steel", -1) == 8
    assert dm.device_toughness(4) == 1 and dm.device_toughness(14) == 2
    assert [dm.object_result(d) for d in (1, -1, -2, -3, -4)] == [
        "intact", "intact", "broken", "destroyed", "destroyed"]


damage_states = st.builds(
    S, st.integers(-8, 0),
    st.frozensets(st.sampled_from([C.DAZED, C.STAGGERED, C.INCAPACITATED])))


@given(damage_states, st.integers(-4, 4).filter(lambda d: d != 0))
def test_minion_never_ends_between_degrees(state: dm.DamageState, degree: int) -> None:
    """A minion's resistance either does nothing or the worst degree: never -1, dazed or
    staggered."""
    out = applied(state, degree, minion=True)
    if degree > 0:
        assert out.state == state
    else:
        assert out.applied in ("incapacitated", "dying", "dead")
        assert out.failure_degrees == 4


@given(damage_states, st.lists(st.integers(-4, 4).filter(lambda d: d != 0), max_size=12))
def test_damage_penalty_never_positive(state: dm.DamageState, degrees: list[int]) -> None:
    for d in degrees:
        state = applied(state, d).state
        assert state.penalty <= 0
    for _ in range(20):
        state = dm.recover_step(state)
        assert state.penalty <= 0


@given(damage_states)
def test_recovery_removes_worst_first(state: dm.DamageState) -> None:
    """Each minute removes the worst remaining of incapacitated, staggered, dazed, then one -1;
    the penalty only goes once every condition is gone."""
    while not state.unhurt:
        nxt = dm.recover_step(state)
        gone = state.conditions - nxt.conditions
        if state.conditions:
            assert len(gone) == 1 and nxt.penalty == state.penalty
            (g,) = gone
            rank = dm.RECOVERY_ORDER.index(g)
            assert all(dm.RECOVERY_ORDER.index(c) > rank for c in nxt.conditions)
        else:
            assert nxt.penalty == state.penalty + 1
        state = nxt


# ------------------------------------------------------------------ D.8 conditions

def test_combined_conditions_expand() -> None:
    assert cn.expand([C.RESTRAINED]) == {C.RESTRAINED, C.IMMOBILE, C.VULNERABLE}
    assert cn.expand(["bound"]) == {C.BOUND, C.DEFENSELESS, C.IMMOBILE, C.IMPAIRED}
    assert cn.expand([C.STAGGERED]) == {C.STAGGERED, C.DAZED, C.HINDERED}
    assert cn.expand([C.INCAPACITATED]) == {
        C.INCAPACITATED, C.DEFENSELESS, C.STUNNED, C.UNAWARE, C.PRONE, C.HINDERED}
    assert C.DEFENSELESS in cn.expand([C.DYING])
    assert cn.expand([C.EXHAUSTED]) == {C.EXHAUSTED, C.IMPAIRED, C.HINDERED}
    assert cn.expand([C.FATIGUED]) == {C.FATIGUED, C.HINDERED}
    assert cn.expand([C.SURPRISED]) == {C.SURPRISED, C.STUNNED, C.VULNERABLE}
    assert cn.expand([]) == frozenset()


def test_seed_conditions_are_not_marked_filled_in() -> None:
    seed = {C.VULNERABLE, C.DEFENSELESS, C.IMPAIRED, C.DISABLED, C.RESTRAINED, C.BOUND,
            C.SURPRISED}
    for c, d in cn.CONDITIONS.items():
        assert d.filled_in == (c not in seed), c
    assert set(cn.CONDITIONS) == set(C)


def test_condition_effects() -> None:
    assert cn.check_penalty([C.IMPAIRED]) == -2
    assert cn.check_penalty([C.DISABLED]) == -5
    assert cn.check_penalty([C.DISABLED, C.IMPAIRED]) == -5
    assert cn.check_penalty([C.BOUND]) == -2
    assert cn.check_penalty([]) == 0
    assert cn.active_defense(11, [C.RESTRAINED]) == 6
    assert cn.active_defense(11, [C.BOUND]) == 0
    assert cn.active_defense(11, []) == 11
    assert cn.speed_change([C.PRONE]) == -1
    assert cn.speed_change([C.RESTRAINED]) is None
    assert cn.speed_change([]) == 0
    assert cn.action_budget([]) == cn.ActionBudget(1, 1, True)
    assert cn.action_budget([C.STAGGERED]) == cn.ActionBudget(1, 0, True)
    assert not cn.action_budget([C.INCAPACITATED]).any
    assert cn.attack_modifier_against([C.PRONE], close=True) == 5
    assert cn.attack_modifier_against([C.PRONE], close=False) == -5
    assert cn.attack_modifier_against([], close=True) == 0
    assert cn.effective([C.BOUND, C.VULNERABLE]) == {C.BOUND, C.DEFENSELESS, C.IMMOBILE,
                                                     C.IMPAIRED}
    assert C.DAZED not in cn.effective([C.STUNNED, C.DAZED])


@given(st.frozensets(st.sampled_from(list(C))))
def test_expand_is_a_closure(conds: frozenset[C]) -> None:
    full = cn.expand(conds)
    assert conds <= full
    assert cn.expand(full) == full
    for c in full:
        assert set(cn.CONDITIONS[c].includes) <= full


# ------------------------------------------------------------------ D.5 hazards

@pytest.mark.parametrize(("hid", "interval"), [
    ("heat_cold_uncomfortable", hz.Span(1, hz.Unit.HOUR)),
    ("heat_cold_intense", hz.Span(10, hz.Unit.MINUTE)),
    ("heat_cold_extreme", hz.Span(1, hz.Unit.MINUTE)),
    ("thirst", hz.Span(1, hz.Unit.HOUR)),
    ("starvation", hz.Span(1, hz.Unit.DAY)),
    ("suffocation", hz.Span(1, hz.Unit.ROUND)),
    ("vacuum_bends", hz.Span(1, hz.Unit.ROUND)),
    ("vacuum_breath", hz.Span(1, hz.Unit.ROUND)),
    ("radiation", hz.Span(1, hz.Unit.DAY)),
])
def test_hazard_intervals(hid: str, interval: hz.Span) -> None:
    assert hz.HAZARDS[hid].interval == interval


def test_hazard_dcs() -> None:
    """Heat/cold, thirst, starvation: DC 10 +1 per previous check; suffocation DC 10 +1 per
    previous success; bends DC 20; breath in vacuum DC 15 +1 a round; disease, poison and
    radiation DC 10 + rank; fire and falling are Damage (15 + rank)."""
    for hid in ("heat_cold_uncomfortable", "heat_cold_intense", "heat_cold_extreme",
                "thirst", "starvation", "suffocation"):
        assert [hz.HAZARDS[hid].dc(n) for n in (1, 2, 5)] == [10, 11, 14]
    assert [hz.HAZARDS["vacuum_bends"].dc(n) for n in (1, 4)] == [20, 20]
    assert [hz.HAZARDS["vacuum_breath"].dc(n) for n in (1, 2, 3)] == [15, 16, 17]
    assert hz.HAZARDS["disease"].dc(1, rank=6) == 16
    assert hz.HAZARDS["poison"].dc(1, rank=14) == 24
    assert hz.HAZARDS["radiation"].dc(3, rank=7) == 17
    assert hz.HAZARDS["fire"].dc(1, rank=4) == 19
    assert hz.HAZARDS["falling"].dc(1, rank=hz.falling_rank(3)) == 25
    with pytest.raises(ValueError):
        hz.HAZARDS["darkness"].dc(1)
    with pytest.raises(ValueError):
        hz.HAZARDS["thirst"].dc(0)


def test_hazard_grace_periods() -> None:
    """Water: fine for a day; food: three days; the bends from the third round."""
    assert hz.HAZARDS["thirst"].grace == hz.Span(1, hz.Unit.DAY)
    assert hz.HAZARDS["starvation"].grace == hz.Span(3, hz.Unit.DAY)
    assert hz.HAZARDS["thirst"].grace.seconds == 86400
    assert [hz.bends_check_due(r) for r in (1, 2, 3, 4)] == [False, False, True, True]
    assert hz.breath_rounds(0) == 10 and hz.breath_rounds(3) == 16
    assert hz.breath_rounds(-6) == 0


def test_fatigue_ladder() -> None:
    steps = [None]
    for _ in range(5):
        steps.append(hz.fatigue_after_failure(steps[-1]))
    assert steps == [None, C.FATIGUED, C.EXHAUSTED, C.INCAPACITATED, C.DYING, C.DYING]


def test_falling_and_catching() -> None:
    """Rank 4 + 2 x distance rank, max 16; catching DC 5, Strength 6 catching 12 -> 6."""
    assert hz.falling_rank(0) == 4
    assert hz.falling_rank(3) == 10
    assert hz.falling_rank(6) == 16 and hz.falling_rank(10) == 16
    assert hz.falling_rank(-5) == 0
    assert hz.CATCH_DC == 5
    assert hz.caught_rank(12, 6) == 6 and hz.caught_rank(5, 8) == 0


def test_bends_and_vacuum() -> None:
    assert hz.bends_result(1) is None
    assert hz.bends_result(-1) == C.STUNNED
    assert hz.bends_result(-2) == C.INCAPACITATED
    assert hz.STAMINA_LOST_PER_VACUUM_SUCCESS == 1
    assert hz.DEATH_STAMINA == -5


def test_hazard_tables() -> None:
    assert hz.FIRE_RANKS[1] == "torch" and hz.FIRE_RANKS[8].startswith("burning jet fuel")
    assert set(hz.FIRE_RANKS) == {1, 2, 4, 6, 8, 10}
    assert set(hz.POISON_RANKS) == {1, 2, 3, 4, 7, 8, 9, 11, 13, 14, 15, 16}
    assert set(hz.DISEASE_RANKS) == {1, 3, 4, 6, 7, 8, 10, 11, 12, 15, 16}
    assert set(hz.RADIATION_RANKS) == {1, 2, 4, 6, 7, 8}
    assert set(hz.HAZARDS) >= {"heat_cold_uncomfortable", "thirst", "starvation",
                               "suffocation", "falling", "fire", "poison", "disease",
                               "radiation", "vacuum_bends", "vacuum_breath", "darkness"}


# ------------------------------------------------------------------ D.7 maneuvers

T = mv.Trade


def test_trades_within_the_seed_limits() -> None:
    t = mv.apply_trade(T.POWER, 2, attack=8, effect=10, dodge=6, parry=7)
    assert t == mv.Traded(6, 12, 6, 7)
    t = mv.apply_trade(T.ACCURATE, 2, attack=8, effect=10, dodge=6, parry=7)
    assert t == mv.Traded(10, 8, 6, 7)
    t = mv.apply_trade(T.ALL_OUT, 1, attack=8, effect=10, dodge=6, parry=7)
    assert t == mv.Traded(9, 10, 5, 6)
    t = mv.apply_trade(T.DEFENSIVE, 2, attack=8, effect=10, dodge=6, parry=7)
    assert t == mv.Traded(6, 10, 8, 9)
    assert mv.apply_trade(T.POWER, 0, attack=0, effect=0, dodge=0, parry=0) == mv.Traded(
        0, 0, 0, 0)


@pytest.mark.parametrize(("maneuver", "amount", "values", "why"), [
    (T.POWER, 3, dict(attack=8, effect=10, dodge=6, parry=7), "0 to 2"),
    (T.POWER, -1, dict(attack=8, effect=10, dodge=6, parry=7), "0 to 2"),
    (T.POWER, 2, dict(attack=1, effect=10, dodge=6, parry=7), "below \\+0"),
    (T.ACCURATE, 2, dict(attack=8, effect=1, dodge=6, parry=7), "below \\+0"),
    (T.ALL_OUT, 2, dict(attack=8, effect=10, dodge=1, parry=7), "below \\+0"),
    (T.ACCURATE, 2, dict(attack=1, effect=10, dodge=6, parry=7), "more than double"),
    (T.POWER, 2, dict(attack=8, effect=1, dodge=6, parry=7), "more than double"),
    (T.DEFENSIVE, 2, dict(attack=8, effect=10, dodge=6, parry=1), "more than double"),
])
def test_trade_limits(maneuver: mv.Trade, amount: int, values: dict[str, int],
                      why: str) -> None:
    with pytest.raises(IllegalAction, match=why):
        mv.apply_trade(maneuver, amount, **values)


def test_defensive_and_power_need_attack_and_resistance() -> None:
    v = dict(attack=8, effect=10, dodge=6, parry=7)
    for m in (T.DEFENSIVE, T.POWER):
        with pytest.raises(IllegalAction, match="no attack or no resistance"):
            mv.apply_trade(m, 1, has_attack_check=False, **v)
        with pytest.raises(IllegalAction):
            mv.apply_trade(m, 1, allows_resistance=False, **v)
    assert mv.apply_trade(T.ACCURATE, 1, has_attack_check=False, **v).attack == 9


def test_handbook_trade_of_five_is_an_option() -> None:
    v = dict(attack=8, effect=10, dodge=6, parry=7)
    assert mv.SEED_MAX_TRADE == 2 and mv.HANDBOOK_MAX_TRADE == 5
    assert mv.apply_trade(T.POWER, 5, max_trade=5, **v).effect == 15
    assert mv.max_trade_allowed(T.POWER, **v) == 2
    assert mv.max_trade_allowed(T.POWER, max_trade=5, **v) == 5
    assert mv.max_trade_allowed(T.DEFENSIVE, attack=8, effect=1, dodge=1, parry=9) == 1


@given(st.sampled_from(list(T)), st.integers(-2, 7), st.integers(-3, 12), st.integers(-3, 12),
       st.integers(-3, 12), st.integers(-3, 12), st.sampled_from([2, 5]))
def test_max_trade_allowed_agrees_with_apply(maneuver: mv.Trade, amount: int, attack: int,
                                             effect: int, dodge: int, parry: int,
                                             cap: int) -> None:
    v = dict(attack=attack, effect=effect, dodge=dodge, parry=parry)
    best = mv.max_trade_allowed(maneuver, max_trade=cap, **v)
    ok = True
    try:
        mv.apply_trade(maneuver, amount, max_trade=cap, **v)
    except IllegalAction:
        ok = False
    assert ok == (0 <= amount <= best)


def test_finishing_attack_numbers() -> None:
    assert mv.FINISHING_DC == 10 and mv.FINISHING_CRIT_BONUS == 5
    assert dm.FINISHING_KILL_DEGREES == 3


def test_slam_attack() -> None:
    """Speed 10, Strength 2, full speed: 11; the attacker resists 5. Capped at 8: 9."""
    assert mv.slam_rank(10, 2, full_speed=True) == 11
    assert mv.slam_rank(10, 2, full_speed=False) == 10
    assert mv.slam_rank(2, 6, full_speed=False) == 7
    assert mv.slam_rank(10, 2, full_speed=True, cap=8) == 9
    assert mv.slam_self_rank(11) == 5
    assert mv.slam_self_rank(10) == 5
    assert (mv.SLAM_IMMUNITY_OWN, mv.SLAM_IMMUNITY_ALL) == (2, 5)


def test_team_attack() -> None:
    H = mv.TeamHit
    assert mv.team_attack_rank([H(10, True, 1), H(8, True, 1)]) == 12
    assert mv.team_attack_rank([H(10, True, 1), H(8, True, 2)]) == 12
    assert mv.team_attack_rank([H(10, True, 1), H(8, True, 2), H(9, True, 1)]) == 15
    assert mv.team_attack_rank([H(10, False), H(8, True, 1)]) == 8
    assert mv.team_attack_rank([H(10, True, 3), H(8, False)]) == 10
    assert mv.team_attack_rank([H(10, False), H(8, False)]) is None
    with pytest.raises(IllegalAction, match="more than 5"):
        mv.team_attack_rank([H(12, True), H(6, True)])
    assert [mv.team_bonus(d) for d in range(5)] == [0, 2, 2, 5, 5]


def test_demoralize_feint_aid() -> None:
    assert [mv.demoralize_result(d) for d in (-1, 1, 3, 4)] == [
        None, "impaired", "impaired", "disabled"]
    assert mv.feint_result(1) == "vulnerable" and mv.feint_result(-2) is None
    assert [mv.aid_bonus(d) for d in (-1, 1, 2, 3)] == [0, 2, 2, 5]


def test_durations_use_the_encounter_vocabulary() -> None:
    kinds = {"start_of_next_turn", "end_of_turn", "end_of_next_turn", "rounds", "round_start",
             "recovery"}
    assert {d.kind for d in cn.DURATIONS.values()} <= kinds
    assert cn.DURATIONS["damage_dazed"] == cn.Lasts("end_of_next_turn", "target")
    assert cn.DURATIONS["staggered"].kind == "recovery"
    assert cn.DURATIONS["surprised"] == cn.Lasts("round_start", "target", 1)
    assert cn.DURATIONS["trade_maneuver"].kind == "start_of_next_turn"


def test_initiative_tiebreak_tuple() -> None:
    assert e("a", 5, dodge=3, agility=2, awareness=1, rolloff=(7,)).tiebreak == (3, 2, 1, 7)


def test_minion_killed_outright() -> None:
    assert dm.minion_killed(True, True)
    assert not dm.minion_killed(True, False) and not dm.minion_killed(False, True)
