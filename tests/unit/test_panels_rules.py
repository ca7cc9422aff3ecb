"""Every number of RULES.md C in the panels game's pure rules (engine/systems/panels)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from engine.dice import SeededDice
from engine.errors import ContentError, IllegalAction
from engine.rules.encounter import ARREARS_LIMIT
from engine.systems.panels import checks, crits, damage, responses, statblock
from engine.systems.panels.checks import Band, check, odds, skill_modifier
from engine.systems.panels.damage import (
    WEAPONS,
    Damage,
    Health,
    Status,
    Track,
    damage_dice,
    die_sides,
    mean_damage,
    status_odds,
    strength_bonus,
)
from engine.systems.panels.responses import (
    apply_dodge,
    apply_parry,
    can_respond,
    dodged_distribution,
    eligible,
    missile_destroyed,
    parry_dice,
    pay_response,
    resolve_parry,
    response_cost,
)

# ------------------------------------------------------------------ checks (C.1)


@pytest.mark.parametrize(("natural", "modifier", "band"), [
    (14, 0, Band.FAILURE), (15, 0, Band.MINOR), (17, 0, Band.MINOR), (18, 0, Band.COMPLETE),
    (10, 4, Band.FAILURE), (11, 4, Band.MINOR), (13, 4, Band.MINOR), (14, 4, Band.COMPLETE),
    (19, -1, Band.COMPLETE), (19, -2, Band.MINOR), (19, -5, Band.FAILURE),
])
def test_band_edges(natural: int, modifier: int, band: Band) -> None:
    assert check(natural, modifier).band is band


def test_natural_20_always_complete_and_natural_1_always_fails() -> None:
    hit = check(20, -20)
    assert hit.band is Band.COMPLETE and hit.critical_success and hit.success
    assert "natural 20" in hit.why
    miss = check(1, 17)
    assert miss.total == 18 and miss.band is Band.FAILURE and miss.critical_failure
    assert not check(2, 17).critical_failure and check(2, 17).band is Band.COMPLETE


def test_stunned_is_minus_5_on_the_roll() -> None:
    assert check(18, 0).band is Band.COMPLETE
    stunned = check(18, 0, stunned=True)
    assert stunned.modifier == -5 and stunned.total == 13 and stunned.band is Band.FAILURE
    assert "stunned -5" in stunned.why
    assert check(20, 0, stunned=True).band is Band.COMPLETE


def test_entered_die_is_checked() -> None:
    assert check("17", 1).band is Band.COMPLETE
    with pytest.raises(IllegalAction, match="d20 shows 1 to 20"):
        check(21, 0)
    with pytest.raises(IllegalAction):
        check(0, 0)


def test_modifier_table_rows() -> None:
    table = checks.modifier_table()
    assert [table[c] for c in (1, 2, 3, 4, 8, 9, 10, 11, 12, 15, 16, 18, 19, 20)] == [
        -4, -4, -3, -3, -1, 0, 0, 0, 1, 2, 3, 3, 4, 4]
    assert table[21] == 5 and table[22] == 5 and table[30] == 9
    assert list(table) == list(range(1, 31))
    values = list(table.values())
    assert values == sorted(values)


@pytest.mark.parametrize("bad", [0, 31, -1])
def test_modifier_table_range(bad: int) -> None:
    with pytest.raises(IllegalAction, match="from 1 to 30"):
        skill_modifier(bad)


def test_exact_odds() -> None:
    o = odds(0)
    assert (o.failure, o.minor, o.complete) == (Fraction(14, 20), Fraction(3, 20), Fraction(3, 20))
    assert o.critical_success == o.critical_failure == Fraction(1, 20)
    assert odds(4).complete == Fraction(7, 20) and odds(4).minor == Fraction(3, 20)
    # naturals bound the odds either way
    assert odds(30).failure == Fraction(1, 20) and odds(30).complete == Fraction(19, 20)
    assert odds(-30).complete == Fraction(1, 20) and odds(-30).minor == 0
    assert odds(4, stunned=True) == odds(-1)
    for m in range(-10, 15):
        total = odds(m)
        assert total.failure + total.minor + total.complete == 1


# ------------------------------------------------------------------ damage (C.3)


@pytest.mark.parametrize(("significant", "band", "sides"), [
    (True, Band.COMPLETE, 10), (True, Band.MINOR, 6),
    (False, Band.COMPLETE, 6), (False, Band.MINOR, 3),
])
def test_dice_by_class_and_hit(significant: bool, band: Band, sides: int) -> None:
    assert die_sides(significant, band) == sides
    assert damage_dice(WEAPONS["knife"], significant, band).sides == sides


def test_no_damage_on_a_failure() -> None:
    with pytest.raises(IllegalAction, match="no damage"):
        die_sides(True, Band.FAILURE)


def test_lethal_and_non_lethal_dice_counts() -> None:
    lethal = damage_dice(WEAPONS["sword"], True, Band.COMPLETE)
    assert (lethal.kill_dice, lethal.stun_dice) == (2, 1)
    blunt = damage_dice(WEAPONS["club"], True, Band.COMPLETE)
    assert (blunt.kill_dice, blunt.stun_dice) == (1, 2)
    assert lethal.kill_notation == "2d10+2" and lethal.stun_notation == "1d10+2"


def test_fist_minus_5_kill_with_floor() -> None:
    fist = damage_dice(WEAPONS["fist"], True, Band.COMPLETE)
    assert fist.fist and (fist.kill_dice, fist.stun_dice) == (1, 2)
    assert fist.totals([3], [4, 5]) == Damage(0, 9)
    assert fist.totals([5], [1, 1]) == Damage(0, 2)
    assert fist.totals([9], [1, 1]) == Damage(4, 2)
    assert fist.kill_notation == "1d10-5 (fist)"
    strong = damage_dice(WEAPONS["fist"], True, Band.COMPLETE, strength=22)
    assert strong.bonus == 4 and strong.totals([3], [1, 1]) == Damage(2, 6)


def test_strength_table_and_melee_only() -> None:
    assert [strength_bonus(s) for s in (1, 12, 13, 16, 17, 20, 21, 24, 25, 27, 28, 30)] == [
        0, 0, 1, 1, 2, 2, 4, 4, 6, 6, 8, 8]
    assert damage_dice(WEAPONS["pistol"], True, Band.COMPLETE, strength=30).bonus == 1
    assert damage_dice(WEAPONS["knife"], False, Band.MINOR, strength=30).bonus == 8
    with pytest.raises(IllegalAction):
        strength_bonus(31)


def test_weapons_table() -> None:
    assert {n: (w.range, w.lethal, w.speed, w.modifier) for n, w in WEAPONS.items()} == {
        "fist": ("melee", False, None, 0), "club": ("melee", False, None, 1),
        "knife": ("melee", True, None, 0), "sword": ("melee", True, None, 2),
        "bow": ("missile", True, "slow", 1), "pistol": ("missile", True, "fast", 1),
        "rifle": ("missile", True, "fast", 3)}
    assert damage.weapon(" Rifle ").delivery == "fast missile"
    with pytest.raises(IllegalAction, match="the weapons are"):
        damage.weapon("bazooka")


def test_attack_form_validation() -> None:
    with pytest.raises(ValueError, match="needs a speed"):
        damage.AttackForm(name="gun", range="missile")
    with pytest.raises(ValueError, match="only a missile"):
        damage.AttackForm(name="punch", speed="fast")
    with pytest.raises(ValueError, match="fist is a melee, non-lethal"):
        damage.AttackForm(name="fist", fist=True, lethal=True)


def test_faces_are_checked_and_seeded_roll() -> None:
    dice = damage_dice(WEAPONS["rifle"], False, Band.MINOR)
    assert dice.totals([3, 3], [1]) == Damage(9, 4)
    with pytest.raises(IllegalAction, match="needs 2 dice"):
        dice.totals([3], [1])
    with pytest.raises(IllegalAction, match="d3 shows 1 to 3"):
        dice.totals([4, 1], [1])
    dmg, kf, sf = dice.roll(SeededDice(7))
    assert dmg == dice.totals(kf, sf) and len(kf) == 2 and len(sf) == 1
    again, kf2, sf2 = dice.roll(SeededDice(7))
    assert (again, kf2, sf2) == (dmg, kf, sf)


def test_mean_and_distribution() -> None:
    assert mean_damage(damage_dice(WEAPONS["knife"], True, Band.COMPLETE)) == (
        Fraction(11), Fraction(11, 2))
    fist = damage_dice(WEAPONS["fist"], False, Band.MINOR)  # 1d3-5 Kill: always 0
    dist = fist.distribution()
    assert sum(dist.values()) == 1 and all(d.kill == 0 for d in dist)
    assert mean_damage(fist) == (Fraction(0), Fraction(4))


# ------------------------------------------------------------------ tracks (C.5)


def test_track_floor_and_cap() -> None:
    t = Track.full(20)
    assert t.take(25).current == 0 and t.take(5).heal(99).current == 20
    with pytest.raises(IllegalAction):
        Track(21, 20)
    with pytest.raises(IllegalAction):
        t.take(-1)


@pytest.mark.parametrize(("kill", "stun", "status"), [
    ((3, 30), (40, 40), Status.STUNNED),   # Kill at exactly 10%
    ((4, 30), (40, 40), Status.FINE),      # just above
    ((30, 30), (4, 40), Status.STUNNED),   # Stun at exactly 10%
    ((30, 30), (5, 40), Status.FINE),
    ((2, 25), (40, 40), Status.STUNNED),   # 10% of 25 is 2.5: 2 is at or below
    ((3, 25), (40, 40), Status.FINE),
    ((0, 30), (40, 40), Status.DYING),
    ((30, 30), (0, 40), Status.UNCONSCIOUS),
    ((0, 30), (0, 40), Status.DYING),
])
def test_stunned_threshold_and_zero(kill: tuple[int, int], stun: tuple[int, int],
                                    status: Status) -> None:
    h = Health(Track(*kill), Track(*stun))
    assert h.status is status
    assert h.stunned == (status is not Status.FINE)
    assert h.out == (status in (Status.UNCONSCIOUS, Status.DYING))


def test_health_take_and_status_odds() -> None:
    h = Health.full(30, 40).take(Damage(26, 10))
    assert (h.kill.current, h.stun.current, h.status) == (4, 30, Status.FINE)
    dice = damage_dice(WEAPONS["knife"], False, Band.MINOR)  # 2d3 Kill, 1d3 Stun
    so = status_odds(h, dice.distribution())
    # Kill 4 - 2d3: a roll of 4+ (6 of 9) leaves 0 (dying); 2-3 leave 1-2, under 10% of 30
    assert so[Status.DYING] == Fraction(6, 9) and so[Status.STUNNED] == Fraction(3, 9)
    assert sum(so.values()) == 1


# ------------------------------------------------------------------ responses (C.4)


def test_dodge_bands() -> None:
    hit = Damage(9, 7)
    assert apply_dodge(hit, Band.COMPLETE) == Damage(0, 0)
    assert apply_dodge(hit, Band.MINOR) == Damage(4, 3)
    assert apply_dodge(hit, Band.FAILURE) == hit
    assert responses.dodge_check(15, 0).band is Band.MINOR
    assert responses.dodge_check(17, 0).band is Band.MINOR
    assert responses.dodge_check(18, 0).band is Band.COMPLETE
    assert responses.dodge_check(14, 0).band is Band.FAILURE


def test_dodged_distribution() -> None:
    dist = {Damage(10, 4): Fraction(1)}
    out = dodged_distribution(dist, 0)
    assert out == {Damage(0, 0): Fraction(3, 20), Damage(5, 2): Fraction(3, 20),
                   Damage(10, 4): Fraction(14, 20)}


def test_parry_threshold_is_15_and_dice_by_band() -> None:
    assert not responses.parry_check(14, 0).success
    assert responses.parry_check(15, 0).band is Band.MINOR
    assert responses.parry_check(18, 0).band is Band.COMPLETE
    sword = WEAPONS["sword"]
    assert parry_dice(sword, True, Band.MINOR).sides == 6
    assert parry_dice(sword, True, Band.COMPLETE).sides == 10
    assert parry_dice(sword, False, Band.MINOR).sides == 3
    assert parry_dice(sword, False, Band.COMPLETE).sides == 6
    with pytest.raises(IllegalAction):
        parry_dice(sword, True, Band.FAILURE)


def test_parry_kill_first_then_stun_excess_ignored() -> None:
    incoming = Damage(8, 6)
    assert apply_parry(incoming, Damage(3, 2)) == Damage(3, 6)
    assert apply_parry(incoming, Damage(6, 4)) == Damage(0, 4)
    assert apply_parry(incoming, Damage(9, 9)) == Damage(0, 0)  # 4 left over: ignored
    assert apply_parry(incoming, Damage(0, 0)) == incoming


def test_missile_destroyed_at_10_kill() -> None:
    assert missile_destroyed(Damage(10, 0), "fast missile")
    assert not missile_destroyed(Damage(9, 20), "slow missile")
    assert not missile_destroyed(Damage(30, 0), "melee")
    assert apply_parry(Damage(18, 9), Damage(10, 0), "fast missile") == Damage(0, 0)
    assert apply_parry(Damage(18, 9), Damage(9, 0), "fast missile") == Damage(9, 9)


def test_resolve_parry() -> None:
    miss = resolve_parry(check(10, 0), Damage(5, 5), None)
    assert miss.taken == Damage(5, 5) and miss.parry is None and "gets through" in miss.why
    ok = resolve_parry(check(16, 0), Damage(5, 5), Damage(2, 4))
    assert ok.taken == Damage(0, 4) and not ok.destroyed
    gone = resolve_parry(check(18, 0), Damage(5, 5), Damage(11, 1), "slow missile")
    assert gone.destroyed and gone.taken == Damage(0, 0) and "destroyed" in gone.why
    with pytest.raises(IllegalAction, match="needs its damage"):
        resolve_parry(check(18, 0), Damage(5, 5), None)


def test_response_panel_cost() -> None:
    assert response_cost(False) == 0 and response_cost(True) == 1
    assert ARREARS_LIMIT == 5
    assert pay_response(0, True) == 1 and pay_response(4, True) == 5
    assert pay_response(4, False) == 4
    for significant in (True, False):
        ok, why = can_respond(5, significant)
        assert not ok and "5 panels in arrears" in why
        with pytest.raises(IllegalAction, match="cannot dodge or parry"):
            pay_response(5, significant)
    with pytest.raises(IllegalAction):
        can_respond(6, False)


@pytest.mark.parametrize(("parry_with", "incoming", "ok", "rule"), [
    ("melee", "melee", True, "rule 1"),
    ("slow missile", "melee", False, "rule 2"),
    ("fast missile", "melee", False, "rule 2"),
    ("fast missile", "slow missile", True, "rule 3"),
    ("slow missile", "fast missile", True, "rule 3"),
    ("melee", "slow missile", True, "rule 4"),
    ("melee", "fast missile", False, "rule 5"),
    ("object", "melee", True, "rule 7"),
    ("object", "slow missile", True, "rule 4"),
    ("object", "fast missile", False, "rule 5"),
])
def test_parry_eligibility(parry_with: responses.ParryWith, incoming: damage.Delivery,
                           ok: bool, rule: str) -> None:
    allowed, why = eligible(parry_with, incoming)
    assert allowed is ok and rule in why


def test_parry_eligibility_power_and_bad_input() -> None:
    assert eligible("melee", "fast missile", fast_parry=True)[0]
    with pytest.raises(IllegalAction):
        eligible("kick", "melee")  # type: ignore[arg-type]
    club_object = damage.AttackForm(name="bin lid", object=True)
    assert responses.parry_with_of(club_object) == "object"
    assert responses.parry_with_of(WEAPONS["bow"]) == "slow missile"


# ------------------------------------------------------------------ crits


def test_crit_tables() -> None:
    for table in crits.Table:
        entries = crits.TABLES[table]
        assert [e.face for e in entries] == [1, 2, 3, 4, 5, 6]
        assert len({e.name for e in entries}) == 6 and len({e.effect for e in entries}) == 6
    assert crits.roll(crits.Table.HIT, 6).effect is crits.Effect.MAX_DAMAGE
    assert crits.roll(crits.Table.MISS, "3").effect is crits.Effect.HITS_ALLY
    with pytest.raises(IllegalAction):
        crits.roll(crits.Table.HIT, 7)


def test_crit_choose_by_fiction() -> None:
    assert crits.choose(crits.Table.HIT, "knocked flat").face == 2
    assert crits.choose(crits.Table.HIT, "extra die").name == "Crushing blow"
    assert crits.choose(crits.Table.MISS, 4).effect is crits.Effect.ATTACKER_NO_RESPONSE
    with pytest.raises(IllegalAction, match="1 Stumble"):
        crits.choose(crits.Table.MISS, "explode")
    with pytest.raises(IllegalAction):
        crits.choose(crits.Table.MISS, 0)


# ------------------------------------------------------------------ stat blocks


def _hero(**over: object) -> dict[str, object]:
    base: dict[str, object] = {
        "name": "Bright Star", "kind": "hero",
        "characteristics": {"agility": 18, "dexterity": 17, "strength": 20},
        "kill": 30, "stun": 40, "attacks": [{"name": "fist", "fist": True}],
        "powers": [{"name": "star bolt", "attack": {"name": "star bolt", "range": "missile",
                                                    "speed": "fast", "modifier": 3}}],
    }
    base.update(over)
    return base


def test_statblock_builds_and_is_significant() -> None:
    hero = statblock.from_data(_hero())
    assert hero.significant and statblock.problems(hero) == []
    assert hero.agility_modifier == 3 and hero.dexterity_modifier == 3
    assert hero.attack("Star Bolt").delivery == "fast missile"
    assert hero.health().status is Status.FINE
    assert not hero.stops_bullets
    with pytest.raises(IllegalAction, match="fist, star bolt"):
        hero.attack("laser")
    thug = statblock.from_data({"name": "Goon", "kind": "thug", "kill": 10, "stun": 10,
                                "characteristics": {"agility": 10, "dexterity": 11,
                                                    "strength": 12},
                                "attacks": [WEAPONS["pistol"].model_dump()]})
    assert not thug.significant and statblock.problems(thug) == []


def test_statblock_problems() -> None:
    hero = statblock.from_data(_hero(
        characteristics={"agility": 26, "dexterity": 20, "strength": 20}, kill=41, stun=9,
        attacks=[{"name": "fist", "fist": True}, {"name": "Fist", "modifier": 7}]))
    found = statblock.problems(hero)
    assert any("agility 26 is above" in p for p in found)
    assert any("is 66, above" in p for p in found)
    assert any("kill 41 is outside 10-40" in p for p in found)
    assert any("stun 9 is outside 10-50" in p for p in found)
    assert any("two attack forms are called 'Fist'" in p for p in found)
    assert any("+7 is above +6" in p for p in found)
    group = statblock.from_data({"name": "Gang", "kind": "thug group", "kill": 8, "stun": 8,
                                 "characteristics": {"agility": 10, "dexterity": 10,
                                                     "strength": 10},
                                 "powers": [{"name": "glow", "notes": "shines"}]})
    found = statblock.problems(group)
    assert any("no powers" in p for p in found)
    assert any("count 1 is outside 2-12" in p for p in found)
    assert any("at least one attack form" in p for p in found)


def test_statblock_errors_name_the_field() -> None:
    with pytest.raises(ContentError) as info:
        statblock.from_data(_hero(kind="sidekick"), "heroes.yaml")
    assert "heroes.yaml 'Bright Star': kind" in info.value.message
    with pytest.raises(ContentError) as info:
        statblock.from_data(_hero(characteristics={"agility": 31, "dexterity": 5,
                                                   "strength": 5}))
    assert info.value.problems == [
        "character 'Bright Star': characteristics.agility: must be at most 30,"
        " got 31"]


def _brute_parry(incoming: dict[Damage, Fraction], dex: int, form: damage.AttackForm,
                 significant: bool, delivery: damage.Delivery) -> dict[Damage, Fraction]:
    out: dict[Damage, Fraction] = {}
    for face in range(1, 21):
        roll = responses.parry_check(face, dex)
        parries: dict[Damage | None, Fraction] = {None: Fraction(1)}
        if roll.success:
            parries = {d: q for d, q in
                       parry_dice(form, significant, roll.band).distribution().items()}
        for parry, q in parries.items():
            for d, p in incoming.items():
                left = resolve_parry(roll, d, parry, delivery).taken
                out[left] = out.get(left, Fraction(0)) + p * q / 20
    return out


@pytest.mark.parametrize(("weapon", "delivery"), [("knife", "melee"), ("pistol", "fast missile"),
                                                  ("bow", "slow missile")])
def test_parried_distribution_matches_brute_force(weapon: str,
                                                  delivery: damage.Delivery) -> None:
    incoming = damage_dice(WEAPONS[weapon], False, Band.COMPLETE).distribution()
    parry_form = WEAPONS["rifle"] if delivery != "melee" else WEAPONS["sword"]
    fast = responses.parried_distribution(incoming, 2, parry_form, True, delivery=delivery)
    assert fast == _brute_parry(incoming, 2, parry_form, True, delivery)
    assert sum(fast.values()) == 1
    assert damage.mean_of(fast)[0] < damage.mean_of(incoming)[0]
    if delivery != "melee":  # a rifle's 2d10+3 Kill often reaches 10: the missile is destroyed
        assert fast[Damage(0, 0)] > 0


def test_crit_damage_helpers() -> None:
    sword = damage_dice(WEAPONS["sword"], True, Band.COMPLETE)
    assert sword.maximum() == Damage(22, 12)
    assert damage_dice(WEAPONS["fist"], False, Band.MINOR).maximum() == Damage(0, 6)
    bigger = sword.with_extra_dice()
    assert (bigger.kill_dice, bigger.stun_dice) == (3, 1)
    club = damage_dice(WEAPONS["club"], False, Band.COMPLETE).with_extra_dice(2)
    assert (club.kill_dice, club.stun_dice) == (1, 4)
    with pytest.raises(IllegalAction):
        sword.with_extra_dice(-1)
