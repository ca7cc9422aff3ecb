"""A roll in a fight is a ``Rolled`` event like any other: its fields (who rolled, for what,
against what, its degree), one journal line shape with the moves' rolls, one odds shape (the
chance of each outcome, as move rolls give theirs), the dice position and the scene's tension
as a fight's roll leaves them, and an old ``FightRolled`` (logs saved before) still shown."""

from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from engine.content.loader import Pack, load_pack
from engine.journal import render
from engine.rules.events import CORE, Rolled, is_fight_roll
from engine.rules.fight.dice import Die, fight_roll, outcome_id
from engine.rules.state import CampaignState, Hero
from engine.script import run_script
from engine.systems.mm3e import actions as ac
from engine.systems.mm3e import attacks as at
from engine.systems.mm3e import checks as mm
from engine.systems.panels import checks as pn
from tests.unit.test_mm3e_fight import act, fight

ROOT = Path(__file__).resolve().parents[2]
OLD_LOG = ROOT / "tests" / "data" / "saves-v2" / "the-tallyman-s-due" / "log" / "000002.json"
PERCENT = re.compile(r"^\d{1,3}\.\d%$")
NPCS = {"keystone": "Keystone", "the_tallyman": "The Tallyman"}


@pytest.fixture(scope="module")
def pack() -> Pack:
    """The bundled M&M pack."""
    return load_pack(ROOT / "content" / "mutants-and-masterminds")


def fight_rolls(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The fight's rolls among ``events``."""
    return [e for e in events if e["type"] == "Rolled" and is_fight_roll(e)]


def chances(odds: dict[str, str]) -> list[float]:
    """Each outcome's chance, checked to be a percentage as move rolls write them."""
    assert all(PERCENT.match(v) for v in odds.values()), odds
    return [float(v.rstrip("%")) for v in odds.values()]


# ------------------------------------------------------------------ the event


def test_a_fight_roll_is_a_rolled_event_with_who_what_and_against(pack: Pack) -> None:
    """Granite Fist +8 against 10 + Parry 8 with an entered 10: a hit (10-19 hit, 20 a
    critical), then the Tallyman's Toughness 8 against 15 + rank 12."""
    g = fight(pack, ["keystone"], ["the_tallyman"], [19, 1])
    attack, resist = fight_rolls(act(g, "attack", [10, 9], target="the_tallyman",
                                     attack="granite_fist"))
    assert {k: v for k, v in attack.items() if k not in ("n", "a", "acting", "acting_id")} == {
        "type": "Rolled", "move": "", "stat": "", "dice": "d20", "faces": [10], "kept": [10],
        "dropped": [], "modifiers": [["Granite Fist", 8]], "raw_modifier": 8, "modifier": 8,
        "clamp": None, "total": 18, "band": "hit", "band_name": "hit",
        "odds": {"miss": "45.0%", "hit": "50.0%", "critical": "5.0%"}, "entered": True,
        "position": attack["position"], "inverted": False, "tone": "mixed", "bands": None,
        "override": None, "actor": "keystone", "what": "attack on The Tallyman with Granite Fist",
        "against": 18, "against_name": "10 + Parry 8", "degree": 1}
    # a check's outcomes are its degrees: Toughness 8 + 9 = 17 against 27, 2 degrees short
    assert (resist["actor"], resist["what"], resist["faces"], resist["total"]) == (
        "the_tallyman", "resists Granite Fist", [9], 17)
    assert (resist["band"], resist["band_name"], resist["degree"]) == (
        "-2", "failure, 2 degrees", -2)
    # (the pack's option: a natural 20 is one degree better)
    assert resist["odds"] == {outcome_id(mm.degree_words(d)): f"{float(p) * 100:.1f}%"
                              for d, p in mm.degree_odds(8, 27, nat20_bonus=True).items()}
    saved = next(e for e in g.store.events() if e["type"] == "Rolled")
    assert saved["actor"] == "keystone" and saved["against"] == 18  # the log keeps them
    # ... and leaves out what is at its default or the same as another field
    assert not {"move", "stat", "kept", "dropped", "raw_modifier", "clamp", "band_name",
                "dice", "tone", "inverted"} & set(saved)
    assert CORE.filled(saved) == {k: v for k, v in attack.items() if k != "acting_id"}


def test_a_move_rolls_saved_form_leaves_out_its_defaults() -> None:
    """The fight's fields are optional, and so is what a roll leaves at its default (no
    faces dropped, no clamp, seeded, upright, a mixed tone); the kept faces and the raw
    modifier are saved only when they differ from the faces and the modifier. Reading the
    saved form back gives the same event (an old "hero" reads as the hero acting then)."""
    move = Rolled(move="m", stat="s", dice="2d6", faces=[3, 4], kept=[3, 4], dropped=[],
                  modifiers=[["Danger", 1]], raw_modifier=1, modifier=1, clamp=None, total=8,
                  band="weak", band_name="Weak hit", odds={"weak": "41.7%"})
    assert set(move.to_dict()) == {
        "type", "move", "stat", "dice", "faces", "modifiers", "modifier", "total", "band",
        "band_name", "odds", "position"}
    assert CORE.decode(move.to_dict()) == move
    clamped = Rolled(move="m", stat="s", dice="3d6k2", faces=[1, 3, 4], kept=[3, 4],
                     dropped=[1], modifiers=[["Danger", 5]], raw_modifier=5, modifier=4,
                     clamp=[-3, 4], total=11, band="hit", band_name="hit", odds={},
                     entered=True, tone="good")
    assert {"kept", "dropped", "raw_modifier", "clamp", "entered", "tone"} <= set(
        clamped.to_dict())
    assert "band_name" not in clamped.to_dict()  # the same as the band
    assert CORE.decode(clamped.to_dict()) == clamped
    assert CORE.filled(clamped.to_dict()) == clamped.to_dict(full=True)
    assert Rolled.ACTORS == ("actor",)


def _state(position: int) -> CampaignState:
    state = CampaignState(system="mutants-and-masterminds", name="t", seed=3,
                          hero=Hero(name="Nova", stats={}))
    state.dice_position = position
    return state


@pytest.mark.parametrize(("entered", "at", "after"), [(False, 3, 5), (False, 7, 7),
                                                      (True, 3, 5), (True, 7, 7)])
def test_a_fight_roll_moves_the_dice_only_forward_and_leaves_the_tension(
        entered: bool, at: int, after: int) -> None:
    """As ``FightRolled`` did: the dice position never goes back, entered die or not; the
    scene's hits and misses (the GM's tension) count the moves' rolls only."""
    state = _state(5)
    e = fight_roll("keystone", "attacks", Die(14, "entered" if entered else "seeded", at),
                   [("Fists", 2)], 16, 15, "DC 15", "miss", -1, {"miss": Fraction(1)})
    CORE.apply(state, e)
    assert state.dice_position == after
    assert (state.scene.hits, state.scene.misses) == (0, 0)


def test_a_routine_check_is_certain_and_rolls_no_die() -> None:
    e = fight_roll("keystone", "resists Pistol", Die(10, "routine", 4), [("Toughness", 12)],
                   22, 18, "15 + rank 3", mm.degree_words(1), 1, mm.degree_odds(12, 18))
    assert (e.dice, e.faces, e.band, e.odds, e.entered) == (
        "routine", [10], "+1", {"+1": "100.0%"}, False)


# ------------------------------------------------------------------ the journal line


def test_one_journal_line_shape_for_a_fight_roll() -> None:
    e = fight_roll("keystone", "attack on The Tallyman with Granite Fist", Die(10, "entered", 3),
                   [("Granite Fist", 8), ("power attack", -2)], 16, 18, "10 + Parry 8",
                   "miss", -1, at.attack_odds(6, 18)).to_dict()
    assert render(e, npcs=NPCS) == (
        "🎲 Keystone's attack on The Tallyman with Granite Fist: d20 [10] (entered) +6 = **16**"
        " vs 18 (10 + Parry 8) → **miss**; chance of this result 55.0%. Modifiers: Granite Fist +8,"
        " power attack -2.")
    routine = fight_roll("the_tallyman", "resists Granite Fist", Die(10, "routine", 3),
                         [("Toughness", 8)], 18, 27, "15 + rank 12", mm.degree_words(-2), -2,
                         mm.degree_odds(8, 27)).to_dict()
    assert render(routine, npcs=NPCS) == (
        "🎲 The Tallyman resists Granite Fist: routine [10] +8 = **18** vs 27 (15 + rank 12)"
        " → **failure, 2 degrees**; chance of this result 100.0%. Modifiers: Toughness +8.")
    mine = {**e, "acting_id": "keystone"}  # the acting hero is "you", as in every line
    assert render(mine, npcs=NPCS).startswith("🎲 Your attack on The Tallyman with Granite Fist:")


def test_a_move_roll_line_has_no_fight_words() -> None:
    move = Rolled(move="m", stat="s", dice="2d6", faces=[3, 4], kept=[3, 4], dropped=[],
                  modifiers=[["Danger", -1]], raw_modifier=-1, modifier=-1, clamp=None,
                  total=6, band="miss", band_name="Miss", odds={"miss": "41.7%"},
                  entered=True, actor="nova").to_dict(full=True)
    assert render(move) == ("🎲 2d6 [3 4] (entered) -1 = **6** → **Miss**;"
                            " chance of this result 41.7%."
                            " Modifiers: Danger -1.")


def _old_rolls() -> list[dict[str, Any]]:
    data = json.loads(OLD_LOG.read_text())
    return [e for table in data.values() for e in table.values() if e.get("type") ==
            "FightRolled"]


def test_an_old_fight_rolled_still_renders_in_the_same_shape() -> None:
    """A log saved before fight rolls were ``Rolled`` events (tests/data/saves-v2): its
    ``FightRolled`` carried the chance of success only, shown as the success or the failure
    it was."""
    old = _old_rolls()
    assert old
    first = next(e for e in old if e["what"] == "resists Pistol" and e["natural"] == 1)
    assert render(first, npcs=NPCS) == (
        "🎲 Keystone resists Pistol: d20 [1] (seeded) +12 = **13** vs 18 (15 + rank 3)"
        " → **failure, 1 degree**; chance of this result 25.0%. Modifiers: Toughness +12.")
    for e in old:
        line = render(e, npcs=NPCS)
        assert line is not None and line.startswith("🎲 ") and f" vs {e['against']} (" in line
        assert f"**{e['result']}**" in line
    routine = {**first, "natural": None, "by": "routine", "total": 22, "degree": 1,
               "result": "success, 1 degree"}
    assert render(routine, npcs=NPCS) == (
        "🎲 Keystone resists Pistol: routine [10] +12 = **22** vs 18 (15 + rank 3)"
        " → **success, 1 degree**; chance of this result 100.0%. Modifiers: Toughness +12.")


# ------------------------------------------------------------------ one odds shape


def _valid(e: Rolled, complete: bool) -> None:
    values = chances(e.odds)
    assert e.band in e.odds and all(0 < v <= 100 for v in values)
    if complete:  # every outcome given: they add up to 100% (each rounded to 0.1%)
        assert abs(sum(values) - 100) <= 0.05 * len(values) + 1e-9


@given(st.integers(-10, 30), st.integers(0, 40), st.integers(1, 20), st.booleans())
def test_mm3e_check_and_attack_odds_are_every_outcome(modifier: int, dc: int, face: int,
                                                       can_crit: bool) -> None:
    res = mm.check(face, modifier, dc)
    _valid(fight_roll("a", "resists", Die(face, "seeded", 1), [("x", modifier)], res.total, dc,
                      "", res.label, res.degree,
                      {mm.degree_words(d): p for d, p in mm.degree_odds(modifier, dc).items()}),
           True)
    hit = at.attack(face, modifier, dc, can_crit=can_crit)
    _valid(fight_roll("a", "attacks", Die(face, "seeded", 1), [("x", modifier)], hit.total, dc,
                      "", hit.outcome, 1 if hit.hit else -1,
                      at.attack_odds(modifier, dc, can_crit=can_crit)), True)


@given(st.integers(-5, 20), st.integers(-5, 20), st.integers(1, 20), st.integers(1, 20))
def test_opposed_check_odds_are_every_outcome(mine: int, theirs: int, face: int,
                                              other: int) -> None:
    opp = ac.opposed(face, mine, other, theirs)
    _valid(fight_roll("a", "wrests", Die(face, "seeded", 1), [("x", mine)], opp.actor_total,
                      opp.opponent_total, "", opp.label, 1 if opp.actor_wins else -1,
                      ac.opposed_odds(mine, theirs)), True)


@given(st.integers(-10, 20), st.booleans(), st.integers(1, 20))
def test_panels_check_odds_are_every_band(modifier: int, stunned: bool, face: int) -> None:
    res = pn.check(face, modifier, stunned)
    bands = pn.odds(modifier, stunned)
    _valid(fight_roll("a", "attacks", Die(face, "seeded", 1), [("x", modifier)], res.total, 15,
                      "", res.band.value, 0,
                      {"failure": bands.failure, "minor": bands.minor,
                       "complete": bands.complete}, band=res.band.value), True)


@pytest.mark.parametrize("example", ["mm3e-harbor-fight", "panels-skyrail-fight"])
def test_every_roll_of_the_example_fights_gives_every_outcome(example: str) -> None:
    script = yaml.safe_load((ROOT / "examples" / f"{example}.yaml").read_text())
    events: list[dict[str, Any]] = []
    run_script(script, saves=None, content=[], campaign=None, emit=events.append)
    rolls = fight_rolls(events)
    assert rolls and not [e for e in events if e["type"] == "FightRolled"]
    for e in rolls:
        values = chances(e["odds"])
        assert e["band"] in e["odds"] and abs(sum(values) - 100) <= 0.05 * len(values) + 1e-9
        assert (e["move"], e["tone"], e["dice"]) == ("", "mixed", "d20") and e["what"]
