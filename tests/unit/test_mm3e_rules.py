"""The M&M 3e ruleset (engine/systems/mm3e/rules.py) played through ``Game``: degree bands around
the chosen DC, natural 20, routine checks, skills and hazards from the stat block, hero points,
circumstance, condition and damage penalties, the damage ladder, hazards, rest, start_fight,
the sheet, what may be edited, and what ``validate`` reports about the pack's data."""

from __future__ import annotations

import re
import shutil
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import yaml

from engine.checks import pack_problems
from engine.content.loader import Pack, load_pack
from engine.content.schema import Rule
from engine.errors import IllegalAction
from engine.game import Game
from engine.odds import band_of
from engine.rules.fight.events import FightRequested
from engine.rules.sheet import Line
from engine.systems.mm3e import checks, hazards
from engine.systems.mm3e.rules import (
    DEGREES,
    FILLED_IN,
    MM3ERules,
    degree_bands,
)

PACK_DIR = Path(__file__).parents[2] / "content" / "mutants-and-masterminds"


@pytest.fixture(scope="module")
def pack() -> Pack:
    """The shipped pack."""
    return load_pack(PACK_DIR)


def new_game(pack: Pack, archetype: str | None = "keystone",
             stats: dict[str, int] | None = None) -> Game:
    """A campaign with one hero."""
    return Game.new(pack, name="t", hero_name="Dana", archetype=archetype, stats=stats,
                    seed=7)


def types(events: list[dict[str, Any]]) -> list[str]:
    """The event types, in order."""
    return [e["type"] for e in events]


def roll(game: Game, die: int) -> list[dict[str, Any]]:
    """Roll ``die`` and keep the result (no hero point)."""
    events = game.roll([die])
    if game.state.flow.stage == "adjust":
        events += game.adjust("keep")
    return events


def mark(game: Game, *conditions: str) -> None:
    """Mark conditions on the acting hero by hand."""
    for c in conditions:
        game.edit("hero", "condition", c, True)


# ------------------------------------------------------------------ the pack


def test_pack_validates_with_the_ruleset(pack: Pack) -> None:
    assert pack.system.ruleset == "mm3e"
    assert pack_problems(pack) == []
    assert isinstance(Game.new(pack, name="t", hero_name="X", archetype="lamplight").rules,
                      MM3ERules)


def test_every_condition_of_the_rules_is_in_the_pack(pack: Pack) -> None:
    from engine.systems.mm3e.conditions import CONDITIONS, Condition

    assert set(pack.conditions) == {c.value for c in Condition}
    for cid, cdef in CONDITIONS.items():
        assert ("(filled in)" in pack.conditions[cid.value].description) == cdef.filled_in


def test_the_filled_in_rules_are_stated() -> None:
    assert "natural 20" in FILLED_IN and "Routine" in FILLED_IN


# ------------------------------------------------------------------ bands and degrees


@pytest.mark.parametrize("dc", [0, 5, 12, 15, 23, 40])
def test_degree_bands_agree_with_the_degree_rule(pack: Pack, dc: int) -> None:
    bands = degree_bands(pack, dc)
    for total in range(dc - 30, dc + 30):
        want = min(3, checks.degree(total, dc))
        assert DEGREES[band_of(total, bands)] == want, total


def test_default_band_set_is_the_dc_15_set(pack: Pack) -> None:
    assert degree_bands(pack, 15) == pack.system.bands["default"]


@pytest.mark.parametrize(("bonus", "dc"), [(0, 15), (8, 20), (12, 25), (3, 10), (-2, 5)])
def test_preview_odds_match_exact_degree_odds(pack: Pack, bonus: int, dc: int) -> None:
    game = new_game(pack, archetype=None, stats={"strength": bonus, "stamina": 0,
                                                 "agility": 0, "dexterity": 0, "fighting": 0,
                                                 "intellect": 0, "awareness": 0,
                                                 "presence": 0})
    game.trigger("ability_check")
    game.set_roll_options(stat="strength", params={"dc": dc})
    preview = game.pending.preview.to_dict()
    assert preview["modifier"] == bonus
    exact = checks.degree_odds(bonus, dc, nat20_bonus=True)
    want: dict[str, Fraction] = {}
    for deg, p in exact.items():
        band = {d: b for b, d in DEGREES.items()}[min(3, deg)]
        want[band] = want.get(band, Fraction(0)) + p
    for band, p in want.items():
        assert preview["odds"][band] == f"{float(p) * 100:.1f}%"


def test_the_55_percent_rule_is_in_every_roll_explanation(pack: Pack) -> None:
    game = new_game(pack)
    game.trigger("ability_check")
    game.set_roll_options(stat="awareness", params={"dc": 22})
    sources = [m[0] for m in game.pending.preview.to_dict()["modifiers"]]
    assert ("against DC 22 (challenging): a bonus of +12 would succeed 55% of the time"
            in sources)


def test_natural_20_is_one_degree_better_and_says_why(pack: Pack) -> None:
    game = new_game(pack)  # Keystone: Awareness 2
    game.trigger("ability_check")
    game.set_roll_options(stat="awareness", params={"dc": 23})
    events = game.roll([20])  # 22 against 23: one degree of failure, made a success
    rolled = next(e for e in events if e["type"] == "Rolled")
    assert rolled["band"] == "success1"
    assert rolled["override"] == {"from": "fail1", "why": "natural 20: one degree better"}


# ------------------------------------------------------------------ skills and routine checks


def test_skill_declarations_come_from_the_stat_block(pack: Pack) -> None:
    game = new_game(pack)
    game.trigger("skill_check")
    offered = {d["id"]: d["label"] for d in [vars(d) for d in game.pending.declarations]}
    assert offered["skill:athletics"] == "Athletics +14"
    assert offered["skill:expertise_engineering"] == "Expertise (Engineering) +10"
    assert offered["skill:deception"] == "Deception +1 (untrained)"
    assert "skill:acrobatics" not in offered  # needs training; Keystone has none
    game.declare("skill:athletics")
    assert game.pending.preview.to_dict()["modifiers"][0] == ["Athletics", 14, None]
    with pytest.raises(IllegalAction):
        game.declare("skill:perception")  # one skill a roll


def test_untrained_skill_uses_its_ability(pack: Pack) -> None:
    game = new_game(pack, "lamplight")  # Presence 2, no Persuasion
    game.trigger("skill_check")
    game.declare("skill:persuasion")
    label, value, _ = game.pending.preview.to_dict()["modifiers"][0]
    assert value == 2 and "untrained" in label


def test_a_skill_check_without_a_skill_is_refused_and_changes_nothing(pack: Pack) -> None:
    game = new_game(pack)
    game.trigger("skill_check")
    before = game.state.model_dump()
    with pytest.raises(IllegalAction, match="declare the skill"):
        game.roll([10])
    assert game.state.model_dump() == before


def test_routine_check_counts_the_die_as_10(pack: Pack) -> None:
    game = new_game(pack)
    game.trigger("skill_check")
    game.set_declarations(["skill:athletics", "routine"])
    game.set_roll_options(params={"dc": 20})
    odds = game.pending.preview.to_dict()["odds"]
    assert odds["success1"] == "100.0%"  # 10 + 14 = 24 against 20, whatever the die
    # Changed on purpose (issue 28): a routine check rolls no die at all (a face entered is
    # not used), so its Rolled is the routine 10 itself, not a die overridden
    events = game.roll([1])
    rolled = next(e for e in events if e["type"] == "Rolled")
    assert rolled["band"] == "success1"
    assert (rolled["dice"], rolled["faces"], rolled["total"]) == ("routine", [10], 24)


def test_no_routine_check_for_resistance_or_hazards(pack: Pack) -> None:
    game = new_game(pack)
    for move in ("resistance_check", "face_hazard"):
        game.trigger(move)
        assert "routine" not in {d["id"] for d in [vars(d) for d in game.pending.declarations]}
        game.undo()


def test_power_check_uses_the_declared_power_or_the_set_rank(pack: Pack) -> None:
    game = new_game(pack)
    game.trigger("power_check")
    offered = {d["id"]: d["label"] for d in [vars(d) for d in game.pending.declarations]}
    assert offered["power:granite_fist"] == "Granite Fist (rank 12)"
    assert "routine" in offered
    game.set_roll_options(params={"rank": 7})
    assert game.pending.preview.to_dict()["modifiers"][0] == ["power rank 7 (set)", 7, None]
    game.declare("power:faultline_stomp")
    assert game.pending.preview.to_dict()["modifier"] == 10


# ------------------------------------------------------------------ modifiers


def test_circumstance_modifiers_before_the_roll(pack: Pack) -> None:
    game = new_game(pack)
    game.trigger("ability_check")
    game.set_roll_options(stat="strength")
    game.pre_roll("circ_minus5")
    game.pre_roll("circ_plus2")
    preview = game.pending.preview.to_dict()
    assert preview["modifier"] == 12 - 5 + 2
    with pytest.raises(IllegalAction):
        game.pre_roll("circ_plus9")


def test_impaired_and_disabled_weigh_on_checks(pack: Pack) -> None:
    game = new_game(pack)
    mark(game, "exhausted")  # includes impaired
    game.trigger("ability_check")
    game.set_roll_options(stat="intellect")
    assert ["impaired", -2, None] in game.pending.preview.to_dict()["modifiers"]
    game.undo()
    game.undo()
    mark(game, "disabled")
    game.trigger("ability_check")
    game.set_roll_options(stat="intellect")
    mods = game.pending.preview.to_dict()["modifiers"]
    assert ["disabled", -5, None] in mods and ["impaired", -2, None] not in mods


def test_damage_penalty_only_on_toughness(pack: Pack) -> None:
    game = new_game(pack)
    game.edit("hero", "track", "damage", 2)
    game.trigger("resistance_check")
    game.set_roll_options(stat="toughness")
    assert game.pending.preview.to_dict()["modifier"] == 12 - 2
    game.set_roll_options(stat="will")
    assert game.pending.preview.to_dict()["modifier"] == 8


def test_vulnerable_halves_dodge(pack: Pack) -> None:
    game = new_game(pack, "slipstream")  # Dodge 14
    mark(game, "vulnerable")
    game.trigger("resistance_check")
    game.set_roll_options(stat="dodge")
    assert game.pending.preview.to_dict()["modifier"] == 7


# ------------------------------------------------------------------ hero points


def test_hero_point_when_it_changes_the_result(pack: Pack) -> None:
    game = new_game(pack)  # one hero point
    game.trigger("skill_check")
    game.declare("skill:athletics")
    game.set_roll_options(params={"dc": 25})
    game.roll([4])  # 18: two degrees of failure
    adjust = game.pending
    assert adjust.kind == "adjust"
    assert [o.id for o in adjust.options] == ["keep", "hero_point"]
    events = game.adjust("hero_point")
    assert game.state.hero.tracks["hero_points"] == 0
    adjusted = next(e for e in events if e["type"] == "RollAdjusted")
    assert adjusted["band"] == "success1" and adjusted["total"] == 28


def test_no_hero_point_on_a_high_die_or_with_none_left(pack: Pack) -> None:
    game = new_game(pack)
    game.trigger("skill_check")
    game.declare("skill:athletics")
    game.set_roll_options(params={"dc": 40})
    game.roll([11])  # the die is above 10: a hero point does nothing
    assert game.state.flow.stage == "fiction"
    game.edit("hero", "track", "hero_points", 0)
    game.trigger("skill_check")
    game.declare("skill:athletics")
    game.roll([2])
    assert game.state.flow.stage == "fiction"


# ------------------------------------------------------------------ damage, hazards, rest


def test_failed_toughness_walks_the_damage_ladder(pack: Pack) -> None:
    game = new_game(pack)  # Toughness 12
    game.trigger("resistance_check")
    game.set_roll_options(stat="toughness", params={"dc": 30})
    roll(game, 10)  # 22 vs 30: two degrees of failure
    hero = game.state.hero
    assert "dazed" in hero.conditions and hero.tracks["damage"] == 1
    game.trigger("resistance_check")
    game.set_roll_options(stat="toughness", params={"dc": 30})
    roll(game, 6)  # 6 + 12 - 1 = 17: three degrees
    hero = game.state.hero
    assert "staggered" in hero.conditions and hero.tracks["damage"] == 2


def test_other_resistance_failures_leave_the_effect_to_the_player(pack: Pack) -> None:
    game = new_game(pack)
    game.trigger("resistance_check")
    game.set_roll_options(stat="will", params={"dc": 20})
    events = roll(game, 1)
    assert not game.state.hero.conditions and game.state.hero.tracks["damage"] == 0
    assert any(e["type"] == "Narrated" and "Will failed" in e["text"] for e in events)


def test_heat_walks_the_fatigue_ladder(pack: Pack) -> None:
    game = new_game(pack, "lamplight")  # Fortitude 8
    for expected in ("fatigued", "exhausted"):
        game.trigger("face_hazard")
        game.declare("hazard:heat_cold_intense")
        game.set_roll_options(params={"check": 3})
        assert game.pending.preview.to_dict()["bands"][4]["min"] == 12  # DC 10 + 2
        roll(game, 1)
        assert expected in game.state.hero.conditions
    assert "fatigued" not in game.state.hero.conditions


def test_a_fall_is_damage_from_its_distance_rank(pack: Pack) -> None:
    game = new_game(pack, "lamplight")  # Toughness 10
    game.trigger("face_hazard")
    game.declare("hazard:falling")
    game.set_roll_options(params={"rank": 2})  # damage rank 4 + 2 x 2 = 8: DC 23
    assert game.pending.preview.to_dict()["bands"][4]["min"] == 23
    roll(game, 8)  # 18: one degree of failure
    assert game.state.hero.tracks["damage"] == 1 and not game.state.hero.conditions


def test_suffocation_incapacitates(pack: Pack) -> None:
    game = new_game(pack, "lamplight")
    game.trigger("face_hazard")
    game.declare("hazard:suffocation")
    roll(game, 1)
    assert "incapacitated" in game.state.hero.conditions


def test_hazard_dc_follows_its_progression(pack: Pack) -> None:
    game = new_game(pack)
    rules = game.rules
    assert isinstance(rules, MM3ERules)
    game.trigger("face_hazard")
    game.declare("hazard:vacuum_breath")
    game.set_roll_options(params={"check": 4})
    assert rules.dc(game.state, game.pack.moves["face_hazard"]) == \
        hazards.HAZARDS["vacuum_breath"].dc(4) == 18


def test_a_hazard_roll_without_a_hazard_is_refused(pack: Pack) -> None:
    game = new_game(pack)
    game.trigger("face_hazard")
    with pytest.raises(IllegalAction, match="declare the hazard"):
        game.roll([5])


def test_rest_recovers_one_step_a_minute_worst_first(pack: Pack) -> None:
    game = new_game(pack)
    mark(game, "staggered", "dazed")
    game.edit("hero", "track", "damage", 2)
    game.trigger("rest_and_recover")
    prompt = game.pending
    assert [o.id for o in prompt.options] == ["1", "2", "3", "4"]
    game.choose(["1"])
    assert game.state.hero.conditions == ["dazed"]
    game.trigger("rest_and_recover")
    game.choose(["3"])
    assert game.state.hero.conditions == [] and game.state.hero.tracks["damage"] == 0


def test_rest_cannot_help_the_dying(pack: Pack) -> None:
    game = new_game(pack)
    mark(game, "incapacitated", "dying")
    events = game.trigger("rest_and_recover")
    assert any(e["type"] == "Narrated" and "stabilize" in e["text"] for e in events)
    assert "dying" in game.state.hero.conditions


# ------------------------------------------------------------------ start_fight


def test_start_fight_asks_who_and_requests_the_fight(pack: Pack) -> None:
    game = new_game(pack)
    game.add_npc("The Tallyman", "villain")
    assert game.state.actors["the_tallyman"].data["statblock"] == "the_tallyman"
    game.add_npc("Nosy Neighbour", "bystander")
    game.trigger("start_fight")
    prompt = game.pending
    ids = [o.id for o in prompt.options]
    assert ids[0] == "the_tallyman"  # present, with a block
    assert "nosy_neighbour" not in ids  # no stat block
    assert {"madame_undertow", "dockside_crew", "hornet_drones"} <= set(ids)
    assert ids.count("the_tallyman") == 1 and "keystone" not in ids
    assert prompt.max == len(ids)
    rules = game.rules
    eff = Rule(type="rule", name="start_fight")
    items = rules.rule_answer(game.state, eff, {}, ["the_tallyman", "dockside_crew"])
    assert items == [{"emit": FightRequested(foes=["the_tallyman", "dockside_crew"]).to_dict()}]
    with pytest.raises(IllegalAction, match="pick foes"):
        rules.rule_answer(game.state, eff, {}, ["keystone"])


# ------------------------------------------------------------------ heroes, sheet, edits


def test_archetype_heroes_hold_their_block_and_custom_heroes_get_one(pack: Pack) -> None:
    game = new_game(pack, "slipstream")
    assert game.state.hero.data["statblock"] == "slipstream"
    custom = new_game(pack, None, {"strength": 4, "stamina": 5, "agility": 3, "dexterity": 2,
                                   "fighting": 6, "intellect": 1, "awareness": 2,
                                   "presence": 0})
    rules = custom.rules
    assert isinstance(rules, MM3ERules)
    blk = rules.block(custom.state.hero)
    assert blk.defenses.toughness == 5 and blk.attacks[0].bonus == 6
    assert blk.attacks[0].rank == 4


def test_sheet_has_the_ladder_with_the_current_step(pack: Pack) -> None:
    game = new_game(pack)
    mark(game, "staggered", "prone")
    game.edit("hero", "track", "damage", 3)
    sections = {s.title: s for s in game.rules.sheet(game.state)}
    assert {"Abilities", "Defenses (PL 10)", "Damage", "Conditions", "Hero points",
            "Attacks", "Skills"} <= set(sections)
    ladder = [r for r in sections["Damage"].rows if isinstance(r, Line)]
    assert [r.text for r in ladder[:6]] == ["Unhurt", "Dazed", "Staggered", "Incapacitated",
                                            "Dying", "Dead"]
    assert [r.bullet for r in ladder[:6]] == ["○", "○", "●", "○", "○", "○"]
    assert ladder[6].text == "-3"
    other = sections["Conditions"].rows
    assert [r.text for r in other if isinstance(r, Line)] == ["Prone"]
    for title in ("Abilities", "Defenses (PL 10)", "Damage"):
        for row in sections[title].rows:
            assert isinstance(row, Line)
            assert len(row.bullet) + 1 + len(row.lead) + len(row.text) <= 34


def test_active_defenses_on_the_sheet(pack: Pack) -> None:
    game = new_game(pack, "slipstream")
    mark(game, "vulnerable")
    defenses = next(s for s in game.rules.sheet(game.state) if s.title.startswith("Defenses"))
    texts = [r.text for r in defenses.rows if isinstance(r, Line)]
    assert texts[0].startswith("Dodge 7  Parry 6")
    assert "(of Dodge 14, Parry 12)" in texts


def test_editable_is_conditions_damage_and_hero_points(pack: Pack) -> None:
    game = new_game(pack)
    edits = game.editable("hero")
    assert {e.what for e in edits} == {"condition", "track"}
    assert {e.key for e in edits if e.what == "track"} == {"damage", "hero_points"}


# ------------------------------------------------------------------ validate


@pytest.fixture
def broken(tmp_path: Path) -> Path:
    """A copy of the pack to break."""
    dest = tmp_path / "mutants-and-masterminds"
    shutil.copytree(PACK_DIR, dest)
    return dest


def test_validate_reports_every_characters_problem(broken: Path) -> None:
    chars = yaml.safe_load((broken / "characters.yaml").read_text())
    chars["characters"][0]["abilities"]["strength"] = 30  # out of range
    chars["characters"][1]["defenses"]["dodge"] = 19  # Dodge + Toughness over 2 x PL
    (broken / "characters.yaml").write_text(yaml.safe_dump(chars))
    problems = pack_problems(load_pack(broken))
    assert any(re.search(r"characters\.yaml:\d+: characters\[0\] \(Keystone\)"
                         r"\.abilities\.strength: must be at most 20, got 30", p)
               for p in problems), problems
    assert any("characters.yaml: Lamplight: power level: Dodge 19 + Toughness 10" in p
               for p in problems)


def test_validate_reports_archetypes_data_and_actions(broken: Path) -> None:
    system = yaml.safe_load((broken / "system.yaml").read_text())
    system["archetypes"][0]["data"]["statblock"] = "keystoen"
    system["archetypes"][1]["stats"]["dexterity"] = 5
    system["data"]["nat20"] = True
    (broken / "system.yaml").write_text(yaml.safe_dump(system))
    (broken / "actions.yaml").write_text(yaml.safe_dump({
        "actions": {"attack": {"name": "Attack", "cost": "standard"},
                    "kick": {"name": "Kick", "cost": "standard"}},
        "maneuvers": {"power_attack": {"name": "Power attack"}, "mega": {"name": "Mega"}}}))
    problems = pack_problems(load_pack(broken))
    assert any("archetypes.keystone.data.statblock: no stat block 'keystoen'" in p
               for p in problems)
    assert any("archetypes.lamplight.stats.dexterity: 5 but its stat block has 6" in p
               for p in problems)
    assert any("data.nat20: unknown key" in p for p in problems)
    assert any(re.search(r"actions\.yaml:\d+: actions\.kick: unknown action id", p)
               for p in problems), problems
    assert any(re.search(r"actions\.yaml:\d+: maneuvers\.mega: unknown maneuver id", p)
               for p in problems), problems
    assert not any(".attack:" in p or "power_attack:" in p for p in problems)


def test_the_cli_validate_prints_the_problems(broken: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    from engine.cli import main

    (broken / "characters.yaml").write_text("characters:\n  - name: Nobody\n")
    code = main(["validate", str(broken)])
    out = capsys.readouterr()
    assert code != 0
    assert "characters.yaml:2: characters[0] (Nobody).kind: required key is missing" in out.err
