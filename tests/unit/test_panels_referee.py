"""The panels referee: each rule of its docstring, exact scores and response odds against the
panels rules, and properties (never an out target, never an ineligible or unaffordable
response, deterministic)."""

from __future__ import annotations

import random
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import IllegalAction
from engine.rules.encounter import ARREARS_LIMIT
from engine.systems.panels import referee as rf
from engine.systems.panels import statblock as sb
from engine.systems.panels.checks import Band, odds, skill_modifier
from engine.systems.panels.damage import AttackForm, Damage, Health, Status, damage_dice, mean_of
from engine.systems.panels.damage import status_odds as track_odds
from engine.systems.panels.referee import Fighter, Situation, choose, respond
from engine.systems.panels.responses import (
    dodged_distribution,
    eligible,
    parried_distribution,
    parry_with_of,
)

FIST = AttackForm(name="Fists", fist=True)
CLUB = AttackForm(name="Club", modifier=1)
KNIFE = AttackForm(name="Knife", lethal=True)
SWORD = AttackForm(name="Sword", lethal=True, modifier=2)
PISTOL = AttackForm(name="Pistol", range="missile", speed="fast", lethal=True, modifier=1)
BOW = AttackForm(name="Bow", range="missile", speed="slow", lethal=True, modifier=1)
SLING = AttackForm(name="Sling", range="missile", speed="slow", modifier=0)

CHARACTERS = Path(__file__).resolve().parents[2] / "content" / "panels" / "characters.yaml"


def fighter(id: str, side: str = "heroes", significant: bool = True, **kw: Any) -> Fighter:
    """A fresh fighter with Kill 30 and Stun 40, characteristics 14, fists; keywords override."""
    base: dict[str, Any] = dict(id=id, name=id.title(), side=side, significant=significant,
                                kill=30, kill_max=30, stun=40, stun_max=40, agility=14,
                                dexterity=14, strength=14, attacks=(FIST,))
    base.update(kw)
    return Fighter(**base)


def villain(id: str = "vex", **kw: Any) -> Fighter:
    """A significant fighter of the villains' side."""
    return fighter(id, side="villains", **kw)


def thug(id: str, group: str | None = "crew", **kw: Any) -> Fighter:
    """An ordinary fighter of the villains' side, Kill 10, Stun 12."""
    kw = {"kill": 10, "kill_max": 10, "stun": 12, "stun_max": 12, "group": group,
          "side": "villains", **kw}
    return fighter(id, significant=False, **kw)


def sit(me: Fighter, foes: tuple[Fighter, ...], allies: tuple[Fighter, ...] = (),
        panels: int = 2, **kw: Any) -> Situation:
    """Round 1 with 2 panels unless given."""
    return Situation(me, allies, foes, 1, panels, **kw)


def expected_score(me: Fighter, form: AttackForm, target: Fighter) -> Fraction:
    """The attack score of the docstring, computed from the rules modules directly."""
    hit = odds(skill_modifier(me.dexterity), me.stunned)
    health = target.health
    total = Fraction(0)
    for band, p in ((Band.MINOR, hit.minor), (Band.COMPLETE, hit.complete)):
        dist = damage_dice(form, me.significant, band, me.strength).distribution()
        after = track_odds(health, dist)
        p_out = after[Status.UNCONSCIOUS] + after[Status.DYING]
        p_stun = Fraction(0) if health.stunned else after[Status.STUNNED]
        wear = sum((q * max(Fraction(min(d.kill, health.kill.current), health.kill.current),
                            Fraction(min(d.stun, health.stun.current), health.stun.current))
                    for d, q in dist.items()), Fraction(0))
        total += p * (rf.OUT_VALUE * p_out + rf.STUN_VALUE * p_stun + rf.WEAR_VALUE * wear)
    return total


# ------------------------------------------------------------------ whom to hit

def test_the_foe_likeliest_to_go_down_is_hit_and_why_names_it_with_odds() -> None:
    me = villain(attacks=(SWORD,))
    fresh = fighter("ace")
    worn = fighter("bo", stun=12)  # a complete sword hit (1d10+3 Stun) can stun or drop him
    c = choose(sit(me, (fresh, worn)))
    assert (c.action, c.target, c.attack) == ("attack", "bo", "Sword")
    assert "Bo" in c.why and "to hit" in c.why and "% to put them out" in c.why
    assert "Stun 12/40" in c.why


def test_attack_score_is_the_exact_expected_value() -> None:
    me = villain(attacks=(SWORD, FIST), dexterity=18, strength=20)
    target = fighter("ace", kill=9, stun=20)
    options = rf.explain_options(sit(me, (target,)))
    scores = {c.attack: c.score for c in options if c.action == "attack"}
    assert scores == {"Sword": expected_score(me, SWORD, target),
                      "Fists": expected_score(me, FIST, target)}
    assert options[0].attack == max(scores, key=lambda k: scores[k] or 0)


def test_stunned_attacker_hits_less_often() -> None:
    target = fighter("ace")
    well = choose(sit(villain(attacks=(SWORD,)), (target,)))
    hurt = choose(sit(villain(attacks=(SWORD,), stun=4), (target,), allies=(villain("pal"),),
                      panels=1))  # one panel: no catching its breath
    assert hurt.action == "attack" and hurt.score is not None and well.score is not None
    assert hurt.score < well.score
    assert hurt.score == expected_score(villain(attacks=(SWORD,), stun=4), SWORD, target)


def test_ties_go_to_the_hurt_foe_then_the_lowest_id() -> None:
    # An ordinary fist cannot stun or drop either (12 Stun at most); wear is the same share
    # of the same 20 points left, so the scores tie.
    me = thug("t1", group=None)
    fresh = fighter("a", kill=20, kill_max=20, stun=20, stun_max=20)
    hurt = fighter("z", kill=20, kill_max=40, stun=20, stun_max=40)
    opts = [c for c in rf.explain_options(sit(me, (fresh, hurt))) if c.action == "attack"]
    assert opts[0].score == opts[1].score
    assert opts[0].target == "z"
    twins = (fighter("b", kill=20, kill_max=20, stun=20, stun_max=20), fresh)
    assert choose(sit(me, twins)).target == "a"


def test_forms_tie_to_the_one_listed_first() -> None:
    other = AttackForm(name="Other Fists", fist=True)
    me = villain(attacks=(other, FIST))
    assert choose(sit(me, (fighter("ace"),))).attack == "Other Fists"


def test_the_target_is_never_out_or_down() -> None:
    me = villain(attacks=(SWORD,))
    dying = fighter("a", kill=0)
    asleep = fighter("b", stun=0)
    fled = fighter("c", stun=1, out=True)
    fine = fighter("d")
    assert choose(sit(me, (dying, asleep, fled, fine))).target == "d"
    c = choose(sit(me, (dying, asleep, fled)))
    assert c.action == "end_turn" and "no foe left standing" in c.why


# ------------------------------------------------------------------ lethal forms

def test_a_brawler_punches_heroes_but_knifes_ordinary_foes() -> None:
    me = thug("t1", group=None, attacks=(FIST, KNIFE))
    assert not rf.is_lethal(me)
    hero = fighter("ace", stun=5)
    assert choose(sit(me, (hero,))).attack == "Fists"
    guard = fighter("guard", significant=False, kill=10, kill_max=10, stun=12, stun_max=12)
    scores = {c.attack: c.score for c in rf.explain_options(sit(me, (guard,)))
              if c.action == "attack"}
    assert set(scores) == {"Fists", "Knife"}
    assert choose(sit(me, (guard,))).attack == max(scores, key=lambda k: scores[k] or 0)


def test_a_thug_with_a_gun_shoots_and_the_lethal_field_overrides() -> None:
    gunman = thug("t1", group=None, attacks=(PISTOL, FIST))
    assert rf.is_lethal(gunman)
    assert choose(sit(gunman, (fighter("ace"),))).attack == "Pistol"
    tamed = replace(gunman, lethal=False)
    assert choose(sit(tamed, (fighter("ace"),))).attack == "Fists"
    only_knife = villain(attacks=(KNIFE,), lethal=False)
    assert choose(sit(only_knife, (fighter("ace"),))).attack == "Knife"


def test_content_gunsel_shoots_a_hero() -> None:
    data = yaml.safe_load(CHARACTERS.read_text(encoding="utf-8"))["characters"]
    blocks = {d["name"]: sb.from_data(d) for d in data}
    gunsel = rf.fighter_from(blocks["Baron's Gunsel"], "g1", "villains")
    rivet = rf.fighter_from(blocks["Rivet"], "rivet", "heroes")
    assert not gunsel.significant and rivet.stops_bullets
    c = choose(sit(gunsel, (rivet,)))
    assert (c.action, c.attack, c.target) == ("attack", "Pistol", "rivet")


# ------------------------------------------------------------------ thugs gang up

def test_a_thug_choosing_afresh_sets_its_groups_target() -> None:
    me = thug("t1", attacks=(CLUB,))
    c = choose(sit(me, (fighter("ace"), fighter("bo", stun=10))))
    assert c.target == "bo" and c.gang == "crew" and "gang up" in c.why
    loose = choose(sit(thug("t2", group=None), (fighter("ace"),)))
    assert loose.gang == "villains thugs"


def test_a_thug_keeps_its_groups_target_while_it_stands() -> None:
    me = thug("t2", attacks=(CLUB,))
    foes = (fighter("ace"), fighter("bo", stun=10))
    c = choose(sit(me, foes, group_target="ace"))
    assert (c.target, c.gang) == ("ace", None) and "keeps its group's target, Ace" in c.why
    assert all(o.target == "ace" for o in rf.explain_options(sit(me, foes, group_target="ace"))
               if o.action == "attack")
    down = (replace(foes[0], stun=0), foes[1])
    again = choose(sit(me, down, group_target="ace"))
    assert (again.target, again.gang) == ("bo", "crew")


def test_villains_do_not_follow_a_group_target() -> None:
    me = villain(attacks=(SWORD,))
    c = choose(sit(me, (fighter("ace"), fighter("bo", stun=10)), group_target="ace"))
    assert c.target == "bo" and c.gang is None


# ------------------------------------------------------------------ morale

def test_a_stunned_thug_flees_or_surrenders_when_held() -> None:
    me = thug("t1", stun=1)
    c = choose(sit(me, (fighter("ace"),)))
    assert c.action == "flee" and "stunned" in c.why
    held = choose(sit(replace(me, can_flee=False), (fighter("ace"),)))
    assert held.action == "surrender" and "cannot get away" in held.why


def test_a_thug_flees_when_half_its_group_is_out() -> None:
    me = thug("t1")
    half = (thug("t2", out=True), thug("t3", stun=0), thug("t4"))
    c = choose(sit(me, (fighter("ace"),), allies=half))
    assert c.action == "flee" and "2 of the 4" in c.why
    one = (thug("t2", out=True), thug("t3"), thug("t4"))
    assert choose(sit(me, (fighter("ace"),), allies=one)).action == "attack"
    other_group = (thug("x2", group="other", out=True), thug("x3", group="other", out=True))
    assert choose(sit(me, (fighter("ace"),), allies=other_group)).action == "attack"


def test_a_stunned_villain_flees_only_with_no_ally_standing() -> None:
    me = villain(kill=3, attacks=(SWORD,))  # Kill 3 of 30: stunned
    assert me.stunned
    c = choose(sit(me, (fighter("ace"),), allies=(thug("t1", out=True),)))
    assert c.action == "flee" and "no ally left standing" in c.why
    assert choose(sit(me, (fighter("ace"),), allies=(thug("t1"),))).action == "attack"
    cornered = choose(sit(replace(me, can_flee=False), (fighter("ace"),)))
    assert cornered.action == "surrender"
    assert choose(sit(villain(attacks=(SWORD,)), (fighter("ace"),))).action == "attack"


# ------------------------------------------------------------------ first aid, catch breath

def test_first_aid_to_a_dying_ally_with_a_panel() -> None:
    me = villain(attacks=(SWORD,))
    allies = (thug("t9", kill=0), thug("t2", kill=0), thug("t3", stun=0))
    c = choose(sit(me, (fighter("ace"),), allies=allies))
    assert (c.action, c.target) == ("first_aid", "t2") and "T2" in c.why and "0 Kill" in c.why
    stable = (thug("t2", kill=1, stun=0),)
    assert choose(sit(me, (fighter("ace"),), allies=stable)).action == "attack"
    assert choose(sit(me, (fighter("ace"),), allies=allies, panels=0)).action == "end_turn"


def test_catch_breath_when_only_stun_stuns_and_two_panels_are_left() -> None:
    me = villain(stun=2, stun_max=40, attacks=(SWORD,))  # 2 of 40: a d6 ends it on 3+
    assert rf.catch_breath_odds(me) == Fraction(4, 6)
    pal = (villain("pal"),)
    c = choose(sit(me, (fighter("ace"),), allies=pal, panels=2))
    assert c.action == "catch_breath" and "67%" in c.why
    assert choose(sit(me, (fighter("ace"),), allies=pal, panels=1)).action == "attack"
    too_low = villain(stun=1, stun_max=60, attacks=(SWORD,))  # needs 6: 1 in 6
    assert choose(sit(too_low, (fighter("ace"),), allies=pal)).action == "attack"
    both = villain(stun=2, kill=2, attacks=(SWORD,))
    assert choose(sit(both, (fighter("ace"),), allies=pal)).action == "attack"


# ------------------------------------------------------------------ nothing to do

@pytest.mark.parametrize(("me", "panels", "reason"), [
    (villain(out=True), 2, "out of the fight"),
    (villain(stun=0), 2, "out of the fight"),
    (villain(arrears=ARREARS_LIMIT), 2, "5 panels in arrears"),
    (villain(), 0, "no panel left"),
])
def test_end_turn_when_nothing_can_be_done(me: Fighter, panels: int, reason: str) -> None:
    options = rf.explain_options(sit(me, (fighter("ace"),), panels=panels))
    assert [c.action for c in options] == ["end_turn"] and reason in options[0].why


def test_end_turn_is_always_last_and_a_tied_round_says_so() -> None:
    options = rf.explain_options(sit(villain(), (fighter("ace"),), simultaneous=True))
    assert options[-1].action == "end_turn" and "tied round" in options[-1].why


def test_bad_input_is_refused() -> None:
    with pytest.raises(IllegalAction):
        villain(kill=31)
    with pytest.raises(IllegalAction):
        villain(arrears=6)
    with pytest.raises(IllegalAction):
        sit(villain(), (fighter("ace"),), panels=-1)
    with pytest.raises(IllegalAction):
        respond(villain(), fighter("ace"), FIST, "failure")
    with pytest.raises(IllegalAction):
        respond(villain(), fighter("ace"), FIST, "huge")


# ------------------------------------------------------------------ responses

def _avoided(dist: dict[Damage, Fraction], after: dict[Damage, Fraction]) -> Fraction:
    (k, st_), (k2, st2) = mean_of(dist), mean_of(after)
    return k + st_ - k2 - st2


def test_free_responses_are_always_made_against_ordinary_attackers() -> None:
    me = villain(attacks=(FIST,))
    weak = thug("t1", side="heroes", strength=5)
    r = respond(me, weak, FIST, "minor")  # 2d3-ish Stun: little to avoid
    dist = damage_dice(FIST, False, Band.MINOR, 5).distribution()
    assert r.action in ("dodge", "parry") and r.cost == 0 and r.arrears_after == 0
    assert r.avoided < rf.RESPONSE_WORTH
    assert "free" in r.why and "T1" in r.why and "%" in r.why
    dodge = _avoided(dist, dodged_distribution(dist, skill_modifier(14)))
    assert r.avoided >= dodge


def test_a_response_to_a_significant_attacker_costs_a_panel_when_worth_it() -> None:
    me = villain(attacks=(FIST,), agility=20)
    hero = fighter("ace", attacks=(SWORD,), strength=20)
    r = respond(me, hero, SWORD, "complete")
    dist = damage_dice(SWORD, True, Band.COMPLETE, 20).distribution()
    dodge = _avoided(dist, dodged_distribution(dist, skill_modifier(20)))
    parry = _avoided(dist, parried_distribution(dist, skill_modifier(14), FIST, True, 14))
    assert r.avoided == max(dodge, parry) >= rf.RESPONSE_WORTH
    assert r.action == ("parry" if parry > dodge else "dodge")
    assert (r.cost, r.arrears_after) == (1, 1) and "owed 1 of 5" in r.why
    assert r.odds == odds(skill_modifier(20)).success or r.action == "parry"


def test_no_response_when_too_little_is_avoided() -> None:
    me = villain(agility=3, dexterity=3, attacks=(PISTOL,))  # a pistol cannot parry melee
    hero = fighter("ace", attacks=(FIST,), strength=5)
    r = respond(me, hero, FIST, "minor")
    assert r.action == "none" and r.cost == 0 and r.arrears_after == 0
    assert "worth" in r.why and "Ace" in r.why


def test_parry_beats_dodge_only_when_it_avoids_more() -> None:
    hero = fighter("ace", attacks=(SWORD,))
    parrier = villain(agility=3, dexterity=24, strength=25, attacks=(FIST, SWORD))
    r = respond(parrier, hero, SWORD, "complete")
    assert (r.action, r.form) == ("parry", "Sword") and "a dodge:" in r.why
    dodger = villain(agility=26, dexterity=3, attacks=(FIST,))
    assert respond(dodger, hero, SWORD, "complete").action == "dodge"


def test_parry_eligibility_is_respected() -> None:
    hero = fighter("ace", attacks=(PISTOL,))
    swordsman = villain(agility=3, dexterity=24, strength=25, attacks=(SWORD,))
    r = respond(swordsman, hero, PISTOL, "complete")
    assert r.action != "parry"  # rule 5: melee cannot stop a bullet
    bulletproof = replace(swordsman, stops_bullets=True)
    assert respond(bulletproof, hero, PISTOL, "complete").action == "parry"
    archer = villain(agility=3, dexterity=24, attacks=(BOW,))
    melee = respond(archer, fighter("bo", attacks=(SWORD,)), SWORD, "complete")
    assert melee.action != "parry"  # rule 2
    volley = respond(archer, fighter("bo", attacks=(BOW,)), BOW, "complete")
    assert (volley.action, volley.form) == ("parry", "Bow")  # rule 3


def test_no_response_that_reaches_the_limit_unless_desperate() -> None:
    hero = fighter("ace", attacks=(SWORD,), strength=20)
    me = villain(agility=22, arrears=ARREARS_LIMIT - 1)
    r = respond(me, hero, SWORD, "complete")
    assert r.action == "none" and "panels needed next round" in r.why
    assert r.arrears_after == ARREARS_LIMIT - 1
    frail = replace(me, kill=8)  # a complete sword hit (2d10+4 Kill) drops him most times
    desperate = respond(frail, hero, SWORD, "complete")
    assert desperate.action == "dodge" and desperate.arrears_after == ARREARS_LIMIT
    assert "desperate" in desperate.why
    assert respond(replace(me, arrears=ARREARS_LIMIT - 2), hero, SWORD,
                   "complete").action == "dodge"


def test_no_response_at_the_limit_or_when_out() -> None:
    broke = villain(arrears=ARREARS_LIMIT)
    assert respond(broke, thug("t1", side="heroes"), FIST, "complete").action == "none"
    assert respond(broke, fighter("ace"), FIST, "complete").action == "none"
    assert respond(villain(stun=0), fighter("ace"), FIST, "complete").action == "none"


def test_a_given_distribution_replaces_the_attacks_dice() -> None:
    me = villain(agility=20)
    big = {Damage(30, 30): Fraction(1)}
    r = respond(me, fighter("ace"), FIST, "minor", dist=big)
    assert r.action == "dodge" and "expected 60.0" in r.why
    assert r.avoided == _avoided(big, dodged_distribution(big, skill_modifier(20)))


def test_deterministic_on_content() -> None:
    data = yaml.safe_load(CHARACTERS.read_text(encoding="utf-8"))["characters"]
    blocks = {d["name"]: sb.from_data(d) for d in data}
    heroes = tuple(rf.fighter_from(blocks[n], n.lower(), "heroes")
                   for n in ("Rivet", "Nightjar", "Voltaic", "Quarrel"))
    baron = rf.fighter_from(blocks["The Furnace Baron"], "baron", "villains",
                            health=Health.full(45, 55))
    s = sit(baron, heroes)
    assert choose(s) == choose(replace(s, foes=heroes[::-1]))
    assert respond(baron, heroes[0], heroes[0].attacks[0], Band.COMPLETE) == \
        respond(baron, heroes[0], heroes[0].attacks[0], "complete")


# ------------------------------------------------------------------ properties

FORMS = [FIST, CLUB, KNIFE, SWORD, PISTOL, BOW, SLING]


@st.composite
def fighters(draw: st.DrawFn, id: str, side: str) -> Fighter:
    significant = draw(st.booleans())
    kmax, smax = draw(st.integers(3, 40)), draw(st.integers(3, 50))
    forms = draw(st.lists(st.sampled_from(FORMS), min_size=0, max_size=3, unique=True))
    return Fighter(
        id=id, name=id.title(), side=side, significant=significant,
        kill=draw(st.integers(0, kmax)), kill_max=kmax, stun=draw(st.integers(0, smax)),
        stun_max=smax, agility=draw(st.integers(1, 30)), dexterity=draw(st.integers(1, 30)),
        strength=draw(st.integers(1, 30)), attacks=tuple(forms),
        arrears=draw(st.integers(0, ARREARS_LIMIT)), out=draw(st.integers(0, 4)) == 0,
        group=draw(st.sampled_from([None, "crew", "gang"])),
        lethal=draw(st.sampled_from([None, None, True, False])),
        stops_bullets=draw(st.booleans()), can_flee=draw(st.booleans()))


@st.composite
def situations(draw: st.DrawFn) -> Situation:
    me = draw(fighters("me", "villains"))
    allies = tuple(draw(fighters(f"ally{i}", "villains")) for i in range(draw(st.integers(0, 3))))
    foes = tuple(draw(fighters(f"foe{i}", "heroes")) for i in range(draw(st.integers(1, 3))))
    target = draw(st.sampled_from([None, *(f.id for f in foes)]))
    return Situation(me, allies, foes, draw(st.integers(1, 8)), draw(st.integers(0, 4)),
                     draw(st.booleans()), target)


def _legal(c: rf.Choice, s: Situation) -> None:
    me = s.me
    assert c.action in rf.ACTIONS
    assert s.panels_left >= rf.ACTION_COSTS[c.action]
    if c.action != "end_turn":
        assert me.standing and me.arrears < ARREARS_LIMIT
    if c.action == "attack":
        target = next(f for f in s.foes if f.id == c.target)
        assert target.standing and target.name in c.why and "% to hit" in c.why
        form = next(a for a in me.attacks if a.name == c.attack)
        if form.lethal and target.significant and not rf.is_lethal(me):
            assert all(a.lethal for a in me.attacks)
        kept = [f for f in s.foes if f.id == s.group_target and f.standing]
        if not me.significant and kept:
            assert c.target == s.group_target and c.gang is None
        assert (c.gang is not None) == (not me.significant and not kept)
    if c.action == "first_aid":
        assert next(a for a in s.allies if a.id == c.target).kill == 0
    if c.action in ("flee", "surrender"):
        assert me.stunned or not me.significant
    if c.action == "flee":
        assert me.can_flee
    if c.action == "catch_breath":
        assert me.stunned and s.panels_left >= 2


@settings(max_examples=200, deadline=None)
@given(situations())
def test_choices_are_legal_on_any_situation(s: Situation) -> None:
    options = rf.explain_options(s)
    assert options[-1].action == "end_turn"
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


@settings(max_examples=40, deadline=None)
@given(fighters("me", "villains"), fighters("foe", "heroes"), st.sampled_from(FORMS),
       st.sampled_from(["minor", "complete"]))
def test_responses_are_eligible_and_affordable(me: Fighter, foe: Fighter, attack: AttackForm,
                                               quality: str) -> None:
    r = respond(me, foe, attack, quality)
    assert r == respond(me, foe, attack, quality)
    assert 0 <= r.arrears_after <= ARREARS_LIMIT
    if r.action == "none":
        assert r.cost == 0 and r.arrears_after == me.arrears
        if not foe.significant and me.standing:
            assert me.arrears >= ARREARS_LIMIT
        return
    assert me.standing and me.arrears < ARREARS_LIMIT
    assert r.cost == (1 if foe.significant else 0)
    assert r.arrears_after == me.arrears + r.cost
    if r.cost and r.arrears_after == ARREARS_LIMIT:
        assert "desperate" in r.why
    if r.cost:
        assert r.avoided >= rf.RESPONSE_WORTH
    assert foe.name in r.why and "%" in r.why
    if r.action == "parry":
        form = next(a for a in me.attacks if a.name == r.form)
        assert eligible(parry_with_of(form), attack.delivery, me.stops_bullets)[0]


def test_response_ties_go_to_the_dodge_then_the_form_listed_first() -> None:
    nothing = {Damage(0, 0): Fraction(1)}
    other = AttackForm(name="Other Fists", fist=True)
    me = villain(agility=3, dexterity=24, attacks=(other, FIST))
    r = respond(me, thug("t1", side="heroes"), FIST, "complete", dist=nothing)
    assert (r.action, r.form, r.avoided) == ("dodge", None, 0)
    hero = fighter("ace", attacks=(SWORD,))
    twin = respond(me, hero, SWORD, "complete")
    assert (twin.action, twin.form) == ("parry", "Other Fists")
