"""The M&M referee policy: each rule of the module docstring, exact scores, and properties
(never targets the out, maneuvers only with the advantage and within the limits, determinism)."""

from __future__ import annotations

import random
from dataclasses import replace
from fractions import Fraction
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.systems.mm3e import attacks as at
from engine.systems.mm3e import referee as rf
from engine.systems.mm3e.checks import degree_odds, success_odds
from engine.systems.mm3e.conditions import Condition
from engine.systems.mm3e.maneuvers import Trade, apply_trade, max_trade_allowed
from engine.systems.mm3e.referee import AttackOption, Choice, Fighter, Situation, choose
from engine.systems.mm3e.statblock import Morale

FULL = {"standard": 1, "move": 1}


def atk(id: str = "punch", range: str = "close", bonus: int = 8, rank: int = 8,
        effect: str = "damage", resisted_by: str = "toughness") -> AttackOption:
    """An attack option; perception and area ones get bonus 0."""
    if range in ("perception", "area"):
        bonus = 0
    return AttackOption(id, id.replace("_", " ").title(), range, bonus, rank, effect,
                        resisted_by)


def fighter(id: str, side: str = "heroes", kind: str = "hero", **kw: Any) -> Fighter:
    """A PL 10 fighter with one close damage attack; keywords override."""
    base: dict[str, Any] = dict(
        id=id, name=id.title(), side=side, kind=kind, group=None, power_level=10,
        conditions=frozenset(), damage=0, out=False, dodge=8, parry=8, toughness=10,
        fortitude=8, will=8, attacks=(atk(),), skills={}, advantages=frozenset())
    base.update(kw)
    if isinstance(base["conditions"], (set, tuple, list)):
        base["conditions"] = frozenset(base["conditions"])
    if isinstance(base["advantages"], (set, tuple, list)):
        base["advantages"] = frozenset(base["advantages"])
    return Fighter(**base)


def villain(id: str = "vex", **kw: Any) -> Fighter:
    """A villain."""
    return fighter(id, side="villains", kind="villain", **kw)


def minion(id: str, group: str = "thugs", **kw: Any) -> Fighter:
    """A minion of ``group``."""
    kw.setdefault("toughness", 4)
    return fighter(id, side="villains", kind="minion", group=group, **kw)


def sit(me: Fighter, foes: tuple[Fighter, ...], allies: tuple[Fighter, ...] = (),
        budget: dict[str, int] | None = None, group_ready: tuple[str, ...] = ()) -> Situation:
    """A situation in round 1 with a full budget unless given."""
    return Situation(me, allies, foes, 1, dict(FULL if budget is None else budget), group_ready)


# ------------------------------------------------------------------ attacks and targets

def test_the_foe_nearest_to_going_down_is_attacked_and_why_names_it() -> None:
    me = villain()
    keystone = fighter("keystone", damage=3, conditions={"staggered"})
    ace = fighter("ace")
    c = choose(sit(me, (ace, keystone)))
    assert (c.action, c.target, c.attack) == ("attack", "keystone", "punch")
    assert "Keystone" in c.why and "55% to hit" in c.why and "-3" in c.why


def test_attack_score_is_hit_odds_times_the_damage_ladder() -> None:
    # bonus 8 vs Parry 8 (DC 18): hit on 10-19 (10/20), crit on 20. Toughness 10 vs DC 23.
    me = villain()
    c = choose(sit(me, (fighter("ace"),)))
    ladder = {-1: 1, -2: 2, -3: 4, -4: 10}
    def worth(dc: int) -> Fraction:
        return sum((p * ladder[d] for d, p in degree_odds(10, dc).items() if d < 0),
                   Fraction(0))
    assert c.score == Fraction(10, 20) * worth(23) + Fraction(1, 20) * worth(28)


def test_out_and_incapacitated_foes_are_never_targets() -> None:
    me = villain()
    down = fighter("a_down", out=True, damage=5, toughness=0)
    limp = fighter("b_limp", conditions={"incapacitated"}, toughness=0)
    c = choose(sit(me, (down, limp, fighter("z_up"))))
    assert c.target == "z_up"
    only_out = choose(sit(me, (down, limp)))
    assert only_out.action == "end_turn" and "no foe" in only_out.why


def test_ties_go_to_the_hurt_foe_then_the_lowest_id() -> None:
    me = villain()
    # same Toughness modifier (11 - 1 = 10), so the same odds and the same ladder row
    hurt = fighter("zed", damage=1, toughness=11)
    fresh = fighter("amy")
    assert choose(sit(me, (fresh, hurt))).target == "zed"
    twins = (fighter("bea"), fighter("amy"), fighter("cy"))
    assert choose(sit(me, twins)).target == "amy"


def test_minion_targets_go_down_on_any_failure_and_allow_routine_attacks() -> None:
    me = villain(attacks=(atk(bonus=10),))
    mook = fighter("mook", kind="minion", group="cops", parry=10, toughness=5)
    options = rf.explain_options(sit(me, (mook,)))
    best = options[0]
    # 10 + 10 meets Parry 10's DC 20: a routine hit; Toughness 5 fails DC 23 on 1-17
    assert best.score == rf.MINION_DOWN_VALUE * Fraction(17, 20)
    assert "routine" in best.why and "85% to take down" in best.why and best.routine
    rolled = rf.explain_options(sit(me, (replace(mook, parry=12),)))[0]
    assert not rolled.routine and "routine" not in rolled.why  # 10 + 10 misses DC 22


def test_a_minion_attacker_makes_no_routine_check_and_no_crit() -> None:
    me = minion("m1", attacks=(atk(bonus=10),))
    c = choose(sit(me, (fighter("ace", parry=10),)))
    # hit 11/20, never a crit: Toughness 10 vs DC 23
    fails = 1 - success_odds(10, 23)
    ladder = {-1: 1, -2: 2, -3: 4, -4: 10}
    worth = sum((p * ladder[d] for d, p in degree_odds(10, 23).items() if d < 0), Fraction(0))
    assert c.score == Fraction(11, 20) * worth and fails > 0
    assert "routine" not in c.why and not c.routine


def test_area_attacks_always_hit_with_dodge_for_half() -> None:
    me = villain(attacks=(atk("blast", range="area", rank=10),))
    c = choose(sit(me, (fighter("ace", dodge=6, toughness=8),)))
    p_dodge = success_odds(6, at.area_dodge_dc(10))
    ladder = {-1: 1, -2: 2, -3: 4, -4: 10}
    def worth(rank: int) -> Fraction:
        return sum((p * ladder[d] for d, p in degree_odds(8, 15 + rank).items() if d < 0),
                   Fraction(0))
    assert c.score == p_dodge * worth(5) + (1 - p_dodge) * worth(10)
    assert "no attack roll (area)" in c.why and not c.maneuvers


def test_perception_affliction_uses_will_and_takes_down_on_three_degrees() -> None:
    me = villain(attacks=(atk("mind", range="perception", rank=10, effect="affliction",
                              resisted_by="will"),),
                 advantages={"Power Attack"})
    c = choose(sit(me, (fighter("ace", will=5),)))
    odds = degree_odds(5, 20)
    # the default ladder: dazed 2, stunned 6, incapacitated 10 (3 or more degrees)
    ladder = {1: Fraction(2), 2: Fraction(6), 3: rf.TAKEDOWN_VALUE}
    value = sum((p * ladder[min(-d, 3)] for d, p in odds.items() if d < 0), Fraction(0))
    assert c.score == value and not c.maneuvers  # no trades without an attack roll
    assert "no attack roll (perception)" in c.why
    down = sum((p for d, p in odds.items() if d <= -3), Fraction(0))
    assert f"{rf.pct(down)} to take down" in c.why


def test_an_affliction_is_worth_only_the_conditions_it_adds() -> None:
    blind = atk("flash", range="area", rank=10, effect="affliction", resisted_by="fortitude")
    blind = replace(blind, conditions=("impaired", "disabled", "unaware"))
    lance = atk("lance", range="ranged", bonus=10, rank=10)
    me = villain(attacks=(blind, lance))
    fresh = rf.explain_options(sit(me, (fighter("ace", fortitude=4),)))
    flash = next(c for c in fresh if c.attack == "flash")
    assert flash.score is not None and flash.score > 0 and "take down" not in flash.why
    blinded = fighter("ace", fortitude=4, conditions={"disabled", "unaware"})
    options = rf.explain_options(sit(me, (blinded,)))
    assert options[0].attack == "lance"
    assert next(c for c in options if c.attack == "flash").score == 0
    # a minion takes the worst degree: down only if that degree takes anyone down
    mook = fighter("mook", kind="minion", fortitude=0)
    worst = next(c for c in rf.explain_options(sit(me, (mook,))) if c.attack == "flash")
    assert "take down" not in worst.why
    grip = replace(blind, conditions=("hindered", "immobile", "incapacitated"))
    held = next(c for c in rf.explain_options(sit(replace(me, attacks=(grip,)), (mook,))))
    assert "take down" in held.why


def test_every_condition_has_a_value() -> None:
    assert set(rf.CONDITION_VALUE) == set(Condition)


def test_vulnerable_and_prone_targets_are_easier_to_hit() -> None:
    me = villain(attacks=(atk(bonus=6),))
    plain = choose(sit(me, (fighter("ace", parry=10),)))
    open_ = choose(sit(me, (fighter("ace", parry=10, conditions={"vulnerable"}),)))
    prone = choose(sit(me, (fighter("ace", parry=10, conditions={"prone"}),)))
    assert "35% to hit" in plain.why  # 6 vs DC 20: 14-20
    assert "60% to hit" in open_.why  # Parry 5: DC 15, 9-20
    assert "60% to hit" in prone.why  # +5 close against the prone
    assert plain.score is not None and open_.score is not None and plain.score < open_.score


def test_an_unknown_defence_or_range_is_skipped_not_raised() -> None:
    me = villain(attacks=(atk("odd", resisted_by="luck"), atk("far", range="orbital")))
    c = choose(sit(me, (fighter("ace"),)))
    assert c.action == "end_turn" and "no usable attack" in c.why


# ------------------------------------------------------------------ maneuvers

def test_power_attack_when_the_hit_is_sure() -> None:
    me = villain(attacks=(atk(bonus=15, rank=5),), advantages={"Power Attack"})
    c = choose(sit(me, (fighter("ace", parry=0),)))
    assert c.maneuvers == {"power_attack": 2}
    assert "power attack 2" in c.why


def test_accurate_attack_when_hitting_is_the_problem() -> None:
    me = villain(attacks=(atk(bonus=4, rank=14),), advantages={"Accurate Attack"})
    c = choose(sit(me, (fighter("ace", parry=14, toughness=6),)))
    assert c.maneuvers == {"accurate": 2}


def test_no_maneuver_without_its_advantage() -> None:
    me = villain(attacks=(atk(bonus=15, rank=5),))
    c = choose(sit(me, (fighter("ace", parry=0),)))
    assert c.maneuvers == {}


def test_all_out_pays_for_the_foes_it_exposes_to() -> None:
    me = villain(attacks=(atk(bonus=6, rank=8),), advantages={"All-out Attack"})
    one = rf.explain_options(sit(me, (fighter("ace"),)))
    all_out = next(c for c in one if c.maneuvers == {"all_out": 2})
    plain = next(c for c in one if c.action == "attack" and not c.maneuvers)
    many = rf.explain_options(sit(me, (fighter("ace"), fighter("bo"), fighter("cy"))))
    all_out3 = next(c for c in many if c.maneuvers == {"all_out": 2} and c.target == "ace")
    assert all_out.score is not None and all_out3.score is not None
    assert all_out.score - all_out3.score == rf.ALL_OUT_RISK * 2 * 2
    assert plain.score is not None and all_out.score > plain.score


def test_defensive_attack_when_badly_hurt() -> None:
    me = villain(damage=3, recovered=True, advantages={"Defensive Attack", "Power Attack"},
                 attacks=(atk(bonus=15, rank=5),))
    c = choose(sit(me, (fighter("ace", parry=0),)))
    assert c.action == "attack" and c.maneuvers == {"defensive": 2}
    calm = choose(sit(replace(me, damage=2), (fighter("ace", parry=0),)))
    assert calm.maneuvers == {"power_attack": 2}


def test_trades_respect_the_limits() -> None:
    # attack bonus 1 cannot go below 0 by more than 1; rank 1 cannot more than double
    me = villain(attacks=(atk(bonus=1, rank=1),),
                 advantages={"Power Attack", "Accurate Attack", "All-out Attack"})
    seen: set[str] = set()
    for c in rf.explain_options(sit(me, (fighter("ace"),))):
        for key, amount in c.maneuvers.items():
            assert amount == 1, (key, amount)
            seen.add(key)
    assert seen == {"power_attack", "accurate", "all_out"}


# ------------------------------------------------------------------ team attacks

def test_minions_gang_up_when_each_is_unlikely_to_hit() -> None:
    group = [minion(f"m{i}", attacks=(atk(bonus=4, rank=6),)) for i in (1, 2, 3)]
    foe = fighter("ace", parry=12)
    c = choose(sit(group[0], (foe,), allies=tuple(group[1:]),
                   group_ready=("m1", "m2", "m3")))
    assert c.action == "team_attack" and c.target == "ace" and c.attack == "punch"
    assert c.team == ("m2", "m3")
    assert "with M2 and M3 (Punch)" in c.why and "15% to hit" in c.why
    assert "39% that one hits" in c.why and "Ace" in c.why
    # the lead alone
    alone = rf.explain_options(sit(group[0], (foe,), allies=tuple(group[1:]),
                                   group_ready=("m1",)))
    assert alone[0].action == "attack"
    team_score, solo_score = c.score, alone[0].score
    assert team_score is not None and solo_score is not None and team_score > solo_score


def test_a_team_has_at_most_team_max_members() -> None:
    group = [minion(f"m{i}", attacks=(atk(bonus=4, rank=6),)) for i in range(1, 8)]
    c = choose(sit(group[0], (fighter("ace", parry=12),), allies=tuple(group[1:]),
                   group_ready=tuple(m.id for m in group)))
    assert c.action == "team_attack" and len(c.team) == rf.TEAM_MAX - 1
    assert c.team == ("m2", "m3", "m4", "m5") and "with M2, M3, M4 and M5 (Punch)" in c.why


def test_team_attack_rank_distribution_matches_the_rules() -> None:
    # two members needing a natural 20 (bonus 0 vs DC 30): both hit 1/400, one 38/400
    dist = rf._team_ranks(((0, 30, 6), (0, 30, 6)))
    assert dist[None] == Fraction(19 * 19, 400)
    assert dist[6] == Fraction(2 * 19, 400)
    assert dist[8] == Fraction(1, 400)  # the other hit's 1 degree: +2


def test_no_team_when_one_of_them_hits_easily_or_not_ready() -> None:
    group = [minion(f"m{i}", attacks=(atk(bonus=12, rank=6),)) for i in (1, 2)]
    c = choose(sit(group[0], (fighter("ace", parry=8),), allies=(group[1],),
                   group_ready=("m1", "m2")))
    assert c.action == "attack"
    weak = [minion(f"m{i}", attacks=(atk(bonus=4, rank=6),)) for i in (1, 2)]
    other_group = replace(weak[1], group="dogs")
    c2 = choose(sit(weak[0], (fighter("ace", parry=12),), allies=(other_group,),
                    group_ready=("m1", "m2")))
    assert c2.action == "attack"


# ------------------------------------------------------------------ before attacking

DAZED_TURN = {"standard": 1, "move": 0}
"""A dazed or staggered fighter's budget in play: a standard action only."""


def test_recover_once_when_dazed_or_badly_hurt() -> None:
    # Changed on purpose (issue 28): this test used a full budget for a dazed fighter, which
    # play never gives (dazed: a standard action only), so the referee never recovered from
    # dazed or staggered. Recover is a standard action that takes the whole turn: it needs
    # the standard action and nothing paid for yet this turn.
    foes = (fighter("ace"),)
    dazed = choose(sit(villain(conditions={"dazed"}), foes, budget=DAZED_TURN))
    assert dazed.action == "recover" and "dazed" in dazed.why
    friend = fighter("henchman", side="villains", kind="villain")
    staggered = choose(sit(villain(conditions={"staggered"}, damage=1), foes,
                           allies=(friend,), budget=DAZED_TURN))
    assert staggered.action == "recover" and "staggered and at -1" in staggered.why
    # not once something was paid for this turn (the turn is no longer whole)
    late = Situation(villain(conditions={"dazed"}), (), foes, 1, DAZED_TURN, acted=True)
    assert choose(late).action == "attack"
    hurt = choose(sit(villain(damage=3), foes))
    assert hurt.action == "recover" and "-3" in hurt.why
    used = choose(sit(villain(damage=3, recovered=True), foes))
    assert used.action == "attack"
    mild = choose(sit(villain(damage=2), foes))
    assert mild.action == "attack"
    no_standard = choose(sit(villain(damage=3), foes, budget={"standard": 0, "move": 1}))
    assert no_standard.action == "end_turn"


def test_stand_when_prone_then_attack() -> None:
    me = villain(conditions={"prone"})
    first = choose(sit(me, (fighter("ace"),)))
    assert first.action == "stand" and first.target is None
    stood = choose(sit(replace(me, conditions=frozenset()), (fighter("ace"),),
                       budget={"standard": 1, "move": 0}))
    assert stood.action == "attack"
    no_move = choose(sit(me, (fighter("ace"),), budget={"standard": 1, "move": 0}))
    assert no_move.action == "attack"
    # Instant Up: free, so even a dazed turn (no move action) stands first
    nimble = replace(me, advantages=frozenset({"Instant Up"}))
    up = choose(sit(nimble, (fighter("ace"),), budget={"standard": 1, "move": 0}))
    assert up.action == "stand" and "Instant Up" in up.why


def test_escape_when_grabbed() -> None:
    me = villain(grabbed=True, conditions={"restrained"})
    assert choose(sit(me, (fighter("ace"),))).action == "escape"
    after = choose(sit(me, (fighter("ace"),), budget={"standard": 1, "move": 0}))
    assert after.action == "attack"


def test_only_a_move_left_and_nothing_to_do_ends_the_turn() -> None:
    c = choose(sit(villain(), (fighter("ace"),), budget={"standard": 0, "move": 1}))
    assert c.action == "end_turn" and "no standard action" in c.why


def test_nothing_to_spend_or_out_ends_the_turn() -> None:
    assert choose(sit(villain(), (fighter("ace"),), budget={})).action == "end_turn"
    assert choose(sit(villain(out=True), (fighter("ace"),))).action == "end_turn"
    assert choose(sit(villain(attacks=()), (fighter("ace"),))).action == "end_turn"


# ------------------------------------------------------------------ demoralize and feint

def test_demoralize_when_intimidation_beats_every_attack() -> None:
    me = villain(attacks=(atk(bonus=2),), skills={"Intimidation": 14})
    c = choose(sit(me, (fighter("ace", parry=14, will=4, skills={"Insight": 6}),)))
    assert c.action == "demoralize" and c.target == "ace"
    assert "Intimidation 14 against 6" in c.why and "Ace" in c.why and "%" in c.why
    assert c.score is not None and c.score > Fraction(1, 2)
    shaken = choose(sit(me, (fighter("ace", parry=14, will=4, conditions={"impaired"}),)))
    assert shaken.action == "attack"


def test_no_demoralize_when_an_attack_has_better_odds() -> None:
    me = villain(attacks=(atk(bonus=14),), skills={"Intimidation": 10})
    c = choose(sit(me, (fighter("ace", parry=4, will=10),)))
    assert c.action == "attack"
    assert any(o.action == "demoralize" for o in rf.explain_options(sit(
        me, (fighter("ace", parry=4, will=10),))))


def test_feint_opens_a_target_for_the_next_attack() -> None:
    me = villain(attacks=(atk(bonus=2),), skills={"deception": 14})
    c = choose(sit(me, (fighter("ace", parry=14, skills={"Insight": 3}),)))
    assert c.action == "feint" and "Deception 14 against 3" in c.why
    open_ = fighter("ace", parry=14, conditions={"vulnerable"}, skills={"Insight": 3})
    assert choose(sit(me, (open_,))).action == "attack"
    blast_only = replace(me, attacks=(atk("wave", range="perception", rank=2),))
    assert all(o.action != "feint" for o in rf.explain_options(sit(blast_only, (open_,))))


# ------------------------------------------------------------------ morale

FLEE_STAGGERED_ALONE = Morale(then="flee", at="staggered", alone=True)
SCATTER = Morale(then="flee", at="half_down")


def test_without_a_morale_trait_nobody_flees_or_surrenders() -> None:
    # Changed on purpose (issue 28): flight is not in the seed, so morale is a trait a stat
    # block declares; without it a broken villain alone fights on.
    me = villain(conditions={"staggered"}, damage=4, recovered=True)
    assert choose(sit(me, (fighter("ace"),), budget=DAZED_TURN)).action == "attack"
    group = (minion("m2", out=True), minion("m3", out=True), minion("m4"))
    assert choose(sit(minion("m1"), (fighter("ace"), fighter("bo")),
                      allies=group)).action == "attack"


def test_a_broken_villain_alone_flees() -> None:
    me = villain(conditions={"staggered"}, damage=1, recovered=True,
                 morale=FLEE_STAGGERED_ALONE)
    c = choose(sit(me, (fighter("ace"),)))
    assert c.action == "flee" and "staggered" in c.why and "no ally" in c.why
    # morale comes before Recover
    assert choose(sit(replace(me, recovered=False), (fighter("ace"),))).action == "flee"
    fallen = fighter("henchman", side="villains", kind="villain", out=True)
    assert choose(sit(me, (fighter("ace"),), allies=(fallen,))).action == "flee"
    at_four = choose(sit(villain(damage=4, recovered=True, morale=FLEE_STAGGERED_ALONE),
                         (fighter("ace"),)))
    assert at_four.action == "flee" and "-4" in at_four.why
    # fleeing is a move action, which a staggered turn (standard only) pays with the standard
    assert choose(sit(me, (fighter("ace"),), budget=DAZED_TURN)).action == "flee"
    assert choose(sit(me, (fighter("ace"),), budget={"standard": 0, "move": 0})).action \
        == "end_turn"


def test_a_broken_villain_that_cannot_move_surrenders() -> None:
    held = villain(conditions={"staggered"}, grabbed=True, recovered=True,
                   morale=FLEE_STAGGERED_ALONE)
    assert choose(sit(held, (fighter("ace"),))).action == "surrender"
    stuck = villain(damage=4, conditions={"immobile"}, recovered=True,
                    morale=FLEE_STAGGERED_ALONE)
    c = choose(sit(stuck, (fighter("ace"),)))
    assert c.action == "surrender" and "unable to move" in c.why
    quits = villain(damage=1, morale=Morale(then="surrender", at="hurt"))
    c = choose(sit(quits, (fighter("ace"),), budget=DAZED_TURN))
    assert c.action == "surrender" and "at -1" in c.why


def test_no_flight_with_an_ally_standing_when_alone_is_asked() -> None:
    me = villain(conditions={"staggered"}, recovered=True, morale=FLEE_STAGGERED_ALONE)
    friend = fighter("henchman", side="villains", kind="villain")
    assert choose(sit(me, (fighter("ace"),), allies=(friend,))).action == "attack"
    anyway = replace(me, morale=Morale(then="flee", at="staggered"))
    assert choose(sit(anyway, (fighter("ace"),), allies=(friend,))).action == "flee"


def test_a_minion_group_scatters_once_half_is_down() -> None:
    me = minion("m1", morale=SCATTER)
    allies = (minion("m2", out=True), minion("m3", out=True), minion("m4"))
    c = choose(sit(me, (fighter("ace"),), allies=allies))
    assert c.action == "flee" and "2 of the 4" in c.why
    one_down = (minion("m2", out=True), minion("m3"), minion("m4"))
    assert choose(sit(me, (fighter("ace"),), allies=one_down)).action == "attack"


# ------------------------------------------------------------------ properties

CONDS = sorted(c.value for c in Condition)
FEW_OUT = [c for c in CONDS if c not in ("incapacitated", "dying", "dead")] * 4 + CONDS
"""Conditions to draw from, the ones that take a fighter out less often."""
ADVANTAGES = ["Power Attack", "All-out Attack", "Accurate Attack", "Defensive Attack",
              "Instant Up"]


@st.composite
def attack_options(draw: st.DrawFn, i: int) -> AttackOption:
    rng = draw(st.sampled_from(["close", "ranged", "perception", "area"]))
    effect = draw(st.sampled_from(["damage", "affliction", "weaken"]))
    resisted = draw(st.sampled_from(["toughness", "fortitude", "will", "dodge"]))
    bonus = draw(st.integers(-2, 16))
    ladder = tuple(draw(st.lists(st.sampled_from([*CONDS, "petrified"]), max_size=3)))
    return replace(atk(f"a{i}", rng, bonus, draw(st.integers(0, 16)), effect, resisted),
                   conditions=ladder)


@st.composite
def fighters(draw: st.DrawFn, id: str, side: str) -> Fighter:
    kind = draw(st.sampled_from(["hero", "villain", "minion", "minion"]))
    n = draw(st.integers(0, 3))
    return fighter(
        id, side=side, kind=kind, group="g" if kind == "minion" else None,
        conditions=frozenset(draw(st.lists(st.sampled_from(FEW_OUT), max_size=2))),
        damage=draw(st.integers(0, 6)), out=draw(st.integers(0, 3)) == 0,
        dodge=draw(st.integers(0, 14)), parry=draw(st.integers(0, 14)),
        toughness=draw(st.integers(0, 14)), fortitude=draw(st.integers(0, 14)),
        will=draw(st.integers(0, 14)),
        attacks=tuple(draw(attack_options(j)) for j in range(n)),
        skills={k: draw(st.integers(0, 16)) for k in draw(st.lists(st.sampled_from(
            ["Intimidation", "Deception", "Insight"]), unique=True))},
        advantages=frozenset(draw(st.lists(st.sampled_from(ADVANTAGES), unique=True))),
        recovered=draw(st.booleans()), grabbed=draw(st.integers(0, 4)) == 0,
        morale=draw(st.one_of(st.none(), st.builds(
            Morale, then=st.sampled_from(["flee", "surrender"]),
            at=st.sampled_from(["hurt", "staggered", "half_down"]), alone=st.booleans()))))


@st.composite
def situations(draw: st.DrawFn) -> Situation:
    me = draw(fighters("me", "villains"))
    allies = tuple(draw(fighters(f"ally{i}", "villains"))
                   for i in range(draw(st.integers(0, 3))))
    foes = tuple(draw(fighters(f"foe{i}", "heroes")) for i in range(draw(st.integers(1, 4))))
    me = replace(me, out=False)
    budget = {"standard": draw(st.sampled_from([1, 1, 1, 0])),
              "move": draw(st.sampled_from([1, 1, 0]))}
    ready = tuple(f.id for f in (me, *allies) if draw(st.booleans()))
    return Situation(me, allies, foes, draw(st.integers(1, 10)), budget, ready,
                     acted=draw(st.booleans()))


TRADE_OF = {v: k for k, v in rf.TRADE_KEY.items()}


def _legal(c: Choice, s: Situation) -> None:
    assert c.action in rf.ACTIONS
    if c.target is not None:
        target = next(f for f in s.foes if f.id == c.target)
        assert not target.out
        assert target.name in c.why
    if c.action in ("attack", "team_attack"):
        assert "%" in c.why or "no attack roll" in c.why
        attack = next(a for a in s.me.attacks if a.id == c.attack)
        for key, amount in c.maneuvers.items():
            trade = TRADE_OF[key]
            assert rf.TRADE_ADVANTAGE[trade] in s.me.advantages
            most = max_trade_allowed(trade, attack=attack.bonus, effect=attack.rank,
                                     dodge=s.me.dodge, parry=s.me.parry)
            assert 1 <= amount <= most
            apply_trade(trade, amount, attack=attack.bonus, effect=attack.rank,
                        dodge=s.me.dodge, parry=s.me.parry)  # raises if illegal
    for member in c.team:
        assert member in s.group_ready and member != s.me.id
    standard, move = s.budget.get("standard", 0), s.budget.get("move", 0)
    if c.action in ("attack", "team_attack", "demoralize", "feint"):
        assert standard >= 1
    if c.action == "recover":  # changed (issue 28): the standard, at the turn's start
        assert not s.me.recovered and standard >= 1 and not s.acted
    if c.action == "stand":  # changed (issue 28): free with Instant Up
        assert "prone" in s.me.conditions and (move >= 1 or "Instant Up" in s.me.advantages)
    if c.action == "escape":
        assert s.me.grabbed and move >= 1
    if c.action == "flee":  # changed (issue 28): only with a morale trait
        assert s.me.morale is not None and s.me.morale.then == "flee" and not s.me.grabbed
        assert move >= 1 or standard >= 1
    if c.action == "surrender":
        assert s.me.morale is not None


@settings(max_examples=150, deadline=None)
@given(situations())
def test_choices_are_legal_on_any_situation(s: Situation) -> None:
    options = rf.explain_options(s)
    assert options and options[-1].action == "end_turn"
    for c in options:
        _legal(c, s)
    assert choose(s) == options[0]


@settings(max_examples=100, deadline=None)
@given(situations(), st.randoms(use_true_random=False))
def test_deterministic_and_blind_to_the_order_of_foes(s: Situation, rnd: random.Random) -> None:
    foes = list(s.foes)
    rnd.shuffle(foes)
    assert choose(s) == choose(s)
    assert choose(replace(s, foes=tuple(foes))) == choose(s)


def test_trade_keys_cover_every_trade() -> None:
    assert set(rf.TRADE_KEY) == set(Trade) == set(rf.TRADE_ADVANTAGE)
