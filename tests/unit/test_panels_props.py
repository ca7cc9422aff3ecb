"""Properties of the panels rules, checked by hypothesis: tracks never below 0, damage never
negative, the modifier table monotonic, a dodge or a parry never increases damage, responses
never push the arrears past 5."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from engine.errors import IllegalAction
from engine.rules.encounter import ARREARS_LIMIT
from engine.systems.panels.checks import (
    MAX_CHARACTERISTIC,
    MIN_CHARACTERISTIC,
    Band,
    check,
    skill_modifier,
)
from engine.systems.panels.damage import (
    WEAPONS,
    AttackForm,
    Damage,
    Health,
    Track,
    damage_dice,
)
from engine.systems.panels.responses import apply_dodge, apply_parry, pay_response

characteristics = st.integers(MIN_CHARACTERISTIC, MAX_CHARACTERISTIC)
damages = st.builds(Damage, st.integers(0, 60), st.integers(0, 60))
bands = st.sampled_from(list(Band))
hit_bands = st.sampled_from([Band.MINOR, Band.COMPLETE])
deliveries = st.sampled_from(["melee", "slow missile", "fast missile"])
forms = st.one_of(
    st.sampled_from(list(WEAPONS.values())),
    st.builds(AttackForm, name=st.just("power"), range=st.just("melee"),
              lethal=st.booleans(), modifier=st.integers(-5, 20)),
)


@given(characteristics, characteristics)
def test_modifier_table_monotonic(a: int, b: int) -> None:
    low, high = sorted((a, b))
    assert skill_modifier(low) <= skill_modifier(high)


@given(st.integers(1, 20), st.integers(-15, 15), st.booleans())
def test_a_check_falls_in_one_band_and_naturals_rule(natural: int, modifier: int,
                                                     stunned: bool) -> None:
    r = check(natural, modifier, stunned)
    if natural == 20:
        assert r.band is Band.COMPLETE
    elif natural == 1:
        assert r.band is Band.FAILURE
    else:
        assert r.band is (Band.COMPLETE if r.total >= 18 else
                          Band.MINOR if r.total >= 15 else Band.FAILURE)
    assert r.total == natural + modifier - (5 if stunned else 0)


@given(forms, st.booleans(), hit_bands, st.one_of(st.none(), characteristics), st.data())
def test_damage_never_negative(form: AttackForm, significant: bool, band: Band,
                               strength: int | None, data: st.DataObject) -> None:
    dice = damage_dice(form, significant, band, strength)
    face = st.integers(1, dice.sides)
    kf = data.draw(st.lists(face, min_size=dice.kill_dice, max_size=dice.kill_dice))
    sf = data.draw(st.lists(face, min_size=dice.stun_dice, max_size=dice.stun_dice))
    dmg = dice.totals(kf, sf)
    assert dmg.kill >= 0 and dmg.stun >= 0
    assert dice.kill_dice + dice.stun_dice == 3
    assert (dice.kill_dice == 2) == form.lethal


@given(st.integers(1, 80), st.data(), st.lists(damages, max_size=8))
def test_tracks_never_below_zero(kill_max: int, data: st.DataObject,
                                 hits: list[Damage]) -> None:
    stun_max = data.draw(st.integers(1, 80))
    h = Health.full(kill_max, stun_max)
    for hit in hits:
        h = h.take(hit)
        assert 0 <= h.kill.current <= kill_max and 0 <= h.stun.current <= stun_max
        assert h.kill.low == (h.kill.current * 10 <= kill_max)


@given(st.integers(1, 100), st.data())
def test_track_take_and_heal_stay_in_bounds(maximum: int, data: st.DataObject) -> None:
    t = Track(data.draw(st.integers(0, maximum)), maximum)
    assert 0 <= t.take(data.draw(st.integers(0, 200))).current <= maximum
    assert 0 <= t.heal(data.draw(st.integers(0, 200))).current <= maximum


@given(damages, bands)
def test_dodge_never_increases_damage(incoming: Damage, band: Band) -> None:
    left = apply_dodge(incoming, band)
    assert left.kill <= incoming.kill and left.stun <= incoming.stun


@given(damages, damages, deliveries)
def test_parry_never_increases_damage(incoming: Damage, parry: Damage,
                                      delivery: str) -> None:
    left = apply_parry(incoming, parry, delivery)  # type: ignore[arg-type]
    assert 0 <= left.kill <= incoming.kill and 0 <= left.stun <= incoming.stun
    # Kill goes first: Stun is touched only once Kill is gone
    if left.stun < incoming.stun:
        assert left.kill == 0
    # nothing beyond the parry's total is taken off (unless a missile is destroyed)
    if left != Damage(0, 0):
        assert incoming.total - left.total <= parry.total


@given(st.lists(st.booleans(), max_size=12))
def test_responses_never_pass_the_arrears_limit(attackers: list[bool]) -> None:
    owed = 0
    for significant in attackers:
        try:
            owed = pay_response(owed, significant)
        except IllegalAction:
            assert owed == ARREARS_LIMIT
        assert 0 <= owed <= ARREARS_LIMIT
