"""The fights' cached and whole-number paths give exactly what the plain exact computations
give (the odds a player sees do not change): the panels game's means, chances to go down,
expected damage after a dodge or a parry, an attack option's numbers and the referee's hit
outcome; M&M's resistance numbers; the attacks a script names; the action words read once
per Conflict; and the fight matcher learnt in the background."""

from __future__ import annotations

import os
import shutil
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import fight as fights
from engine.content.loader import Pack, load_pack
from engine.game import Game
from engine.systems.mm3e.checks import degree_odds
from engine.systems.mm3e.strikes import degree_result, resist_numbers
from engine.systems.panels import referee as rf
from engine.systems.panels.checks import Band, odds
from engine.systems.panels.damage import (
    WEAPONS,
    AttackForm,
    Damage,
    DamageDice,
    Delivery,
    Health,
    Status,
    Track,
    damage_dice,
    dist_key,
    down_odds,
    from_key,
    mean_damage,
    mean_of,
    status_odds,
)
from engine.systems.panels.responses import (
    dodged_distribution,
    expected_after_dodge,
    expected_after_parry,
    expected_total,
    parried_distribution,
)
from engine.systems.panels.strikes import attack_numbers

CONTENT = Path(__file__).resolve().parents[2] / "content"
FORMS = [*WEAPONS.values(), AttackForm(name="Plank", object=True)]


def plain_mean(dist: dict[Damage, Fraction]) -> tuple[Fraction, Fraction]:
    """The mean as ``mean_of`` computed it before: a Fraction per outcome."""
    return (sum((p * d.kill for d, p in dist.items()), Fraction(0)),
            sum((p * d.stun for d, p in dist.items()), Fraction(0)))


def total(dist: dict[Damage, Fraction]) -> Fraction:
    kill, stun = plain_mean(dist)
    return kill + stun


@st.composite
def dice(draw: st.DrawFn) -> DamageDice:
    form = draw(st.sampled_from(FORMS))
    strength = draw(st.one_of(st.none(), st.integers(1, 30)))
    band = draw(st.sampled_from([Band.MINOR, Band.COMPLETE]))
    return damage_dice(form, draw(st.booleans()), band, strength)


@st.composite
def distributions(draw: st.DrawFn) -> dict[Damage, Fraction]:
    """A hit's distribution: some dice's, or a few outcomes with any weights."""
    if draw(st.booleans()):
        return draw(dice()).distribution()
    outcomes = draw(st.lists(st.tuples(st.integers(0, 40), st.integers(0, 40)), min_size=1,
                             max_size=6, unique=True))
    weights = [draw(st.integers(1, 9)) for _ in outcomes]
    whole = sum(weights)
    return {Damage(k, s): Fraction(w, whole) for (k, s), w in zip(outcomes, weights,
                                                                    strict=True)}


@settings(max_examples=60, deadline=None)
@given(distributions())
def test_mean_and_key_are_the_plain_exact_ones(dist: dict[Damage, Fraction]) -> None:
    assert mean_of(dist) == plain_mean(dist)
    assert from_key(dist_key(dist)) == dist
    assert list(from_key(dist_key(dist))) == list(dist)
    assert expected_total(dist_key(dist)) == total(dist)


@settings(max_examples=60, deadline=None)
@given(dice(), st.integers(1, 40), st.integers(1, 50), st.data())
def test_down_odds_is_status_odds_out(d: DamageDice, kill_max: int, stun_max: int,
                                      data: st.DataObject) -> None:
    kill, stun = data.draw(st.integers(0, kill_max)), data.draw(st.integers(0, stun_max))
    st_ = status_odds(Health(Track(kill, kill_max), Track(stun, stun_max)), d.distribution())
    assert down_odds(kill, stun, d) == st_[Status.UNCONSCIOUS] + st_[Status.DYING]
    assert mean_damage(d) == plain_mean(d.distribution())


@settings(max_examples=60, deadline=None)
@given(distributions(), st.integers(-5, 10), st.booleans(), st.sampled_from(FORMS),
       st.booleans(), st.one_of(st.none(), st.integers(1, 30)),
       st.sampled_from(["melee", "slow missile", "fast missile"]))
def test_expected_after_a_response_is_the_distributions_mean(
        dist: dict[Damage, Fraction], modifier: int, stunned: bool, form: AttackForm,
        significant: bool, strength: int | None, delivery: Delivery) -> None:
    key = dist_key(dist)
    assert expected_after_dodge(key, modifier, stunned) == total(
        dodged_distribution(dist, modifier, stunned))
    parried = parried_distribution(dist, modifier, form, significant, strength,
                                   delivery, stunned)
    assert expected_after_parry(key, modifier, form, significant, strength,
                                delivery, stunned) == total(parried)


@settings(max_examples=60, deadline=None)
@given(st.integers(-8, 12), st.booleans(), st.sampled_from(FORMS), st.booleans(),
       st.integers(1, 30), st.integers(0, 40), st.integers(0, 50))
def test_attack_numbers_are_the_exact_odds_as_floats(
        modifier: int, stunned: bool, form: AttackForm, significant: bool, strength: int,
        kill: int, stun: int) -> None:
    """What ``attack_odds`` showed before it was cached: each band's dice, its mean and the
    odds of each status, in Fractions, turned to floats at the end."""
    band = odds(modifier, stunned)
    health = Health(Track(kill, 40), Track(stun, 50))
    exp = down = Fraction(0)
    for b, pb in ((Band.MINOR, band.minor), (Band.COMPLETE, band.complete)):
        if not pb:
            continue
        dist = damage_dice(form, significant, b, strength).distribution()
        exp += pb * total(dist)
        st_ = status_odds(health, dist)
        down += pb * (st_[Status.UNCONSCIOUS] + st_[Status.DYING])
    got = attack_numbers(modifier, stunned,
                         damage_dice(form, significant, Band.MINOR, strength),
                         damage_dice(form, significant, Band.COMPLETE, strength), kill, stun)
    assert got == (float(band.success), float(band.minor), float(band.complete),
                   round(float(exp), 2), float(down))


@settings(max_examples=60, deadline=None)
@given(dice(), st.integers(1, 40), st.integers(1, 50), st.data())
def test_the_referees_hit_outcome_is_the_plain_exact_one(d: DamageDice, kill_max: int,
                                                          stun_max: int,
                                                          data: st.DataObject) -> None:
    kill, stun = data.draw(st.integers(1, kill_max)), data.draw(st.integers(1, stun_max))
    health = Health(Track(kill, kill_max), Track(stun, stun_max))
    p_out = p_stun = wear = Fraction(0)
    for dmg, p in d.distribution().items():
        status = health.take(dmg).status
        if status in (Status.UNCONSCIOUS, Status.DYING):
            p_out += p
        elif status is Status.STUNNED and not health.stunned:
            p_stun += p
        wear += p * max(Fraction(min(dmg.kill, kill), kill), Fraction(min(dmg.stun, stun), stun))
    assert rf._hit_outcome(kill, kill_max, stun, stun_max, d) == (p_out, p_stun, wear)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([1.0, 0.95, 0.6, 0.35, 0.05]), st.integers(-5, 20),
       st.integers(5, 35), st.booleans(), st.booleans())
def test_mm3e_resist_numbers_are_the_exact_odds(hit: float, modifier: int, dc: int,
                                                damage: bool, minion: bool) -> None:
    degrees = degree_odds(modifier, dc)
    fail = sum((p for d, p in degrees.items() if d < 0), Fraction(0))
    resist, effect = resist_numbers(hit, modifier, dc, damage, minion)
    assert [(r.degree, r.chance, r.result, r.severity) for r in resist] == [
        (d, float(p), *degree_result(d, damage, minion))
        for d, p in sorted(degrees.items(), key=lambda kv: -kv[0])]
    assert effect == float(Fraction(hit).limit_denominator(1000) * fail)


# ------------------------------------------------------------------ the fight's reading


@pytest.fixture(scope="module", params=["mutants-and-masterminds", "panels"])
def pack(request: pytest.FixtureRequest) -> Pack:
    return load_pack(CONTENT / request.param)


def fight(pack: Pack) -> Game:
    heroes = {"panels": ("Rivet", "rivet", ["gantry", "the_foundry_crew"]),
              "mm3e": ("Keystone", "keystone", ["madame_undertow", "hornet_drones"])}
    name, archetype, foes = heroes[pack.system.ruleset]
    game = Game.new(pack, name="caches", hero_name=name, archetype=archetype, seed=4)
    game.start_fight(foes)
    return game


def test_the_attacks_a_script_names_are_the_options(pack: Pack) -> None:
    game = fight(pack)
    for _ in range(12):
        if not game.fighting:
            break
        for actor in game.state.actors:
            if game.fight is None or not game.fight.encounter.has(actor):
                continue
            listed: dict[str, str] = {}
            for o in game.fight_options(actor):
                if o.attack is not None:
                    listed.setdefault(o.attack.id, o.attack.name)
            found = game.conflict.attacks(game.state, actor)
            assert [(a.id, a.name) for a in found] == list(listed.items())
            assert found == list({o.attack.id: o.attack for o in game.fight_options(actor)
                                  if o.attack is not None}.values())
        if game.referee_turn:
            game.referee_run()
        elif game.fighting and not game.fight_need:
            game.end_turn()
        else:
            break


def test_the_action_words_follow_their_file(tmp_path: Path) -> None:
    """Read once per Conflict (one per command); a new Conflict reads the file again."""
    folder = tmp_path / "panels"
    shutil.copytree(CONTENT / "panels", folder)
    pack = load_pack(folder)
    game = fight(pack)
    before = game.conflict.words()
    assert game.conflict.words() is before  # the same file: made once
    path = folder / "actions.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace(
        "name: Catch your breath", "name: Get your wind"), encoding="utf-8")
    stat = path.stat()
    os.utime(path, (stat.st_atime, stat.st_mtime + 5))
    assert game.conflict.words()["catch_breath"].name == "Get your wind"


def test_the_matcher_learnt_in_the_background_suggests_as_one_learnt_at_once(
        pack: Pack) -> None:
    lines = ["I punch the nearest one", "I run for it", "I look around for cover",
             "I grab him and throw him down"]
    game = fight(pack)
    fights._MATCHERS.clear()
    fights._BY_CONTENT.clear()
    at_once = [game.suggest_fight(x) for x in lines]  # learnt on the call
    fights._MATCHERS.clear()
    fights._BY_CONTENT.clear()
    game.tracker()  # the fight shown: learnt in the background
    assert [game.suggest_fight(x) for x in lines] == at_once
    assert fights._built(pack) is not None
