"""The M&M 3e hero builder (engine/systems/mm3e/builder.py): blocks from bought ranks, the point
budget and power-level caps it reports, blocks derived from abilities alone, hero files."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from engine.errors import ContentError
from engine.systems.mm3e import builder
from engine.systems.mm3e.statblock import ABILITIES, Kind, load_characters, pl_problems

CHARACTERS = Path(__file__).parents[2] / "content" / "mutants-and-masterminds" / "characters.yaml"

ABS = {"strength": 4, "stamina": 4, "agility": 3, "dexterity": 3, "fighting": 6,
       "intellect": 1, "awareness": 2, "presence": 1}


def hero(**over: Any) -> dict[str, Any]:
    """The arguments of a modest legal PL 10 build, with some replaced."""
    args: dict[str, Any] = {
        "name": "Riptide", "power_level": 10, "abilities": dict(ABS),
        "defenses": {"dodge": 5, "parry": 2, "toughness": 4, "fortitude": 2, "will": 6},
        "skills": {"Athletics": 6, "Expertise (Sailing)": 8, "Perception": 6},
        "advantages": ["Power Attack", {"name": "Improved Initiative", "rank": 1}],
        "attacks": [{"name": "Riptide Lash", "range": "ranged", "rank": 8}],
    }
    args.update(over)
    return args


def test_build_adds_bought_ranks_to_abilities() -> None:
    blk = builder.build(**hero())
    assert blk.kind is Kind.HERO
    assert blk.defenses.dodge == 3 + 5 and blk.defenses.toughness == 4 + 4
    assert blk.skills == {"Athletics": 10, "Expertise (Sailing)": 9, "Perception": 8}
    assert blk.attacks[0].bonus == 3  # Dexterity, no Ranged Combat skill
    assert builder.problems(**hero()) == []


def test_points_by_part() -> None:
    blk = builder.build(**hero())
    assert builder.points(blk) == {
        "abilities": 2 * sum(ABS.values()),  # 48
        "defenses": 5 + 2 + 4 + 2 + 6,
        "skills": 10,  # 20 ranks, 1 point per 2
        "advantages": 2,
        "attacks": 16,  # ranged: 2 per rank
    }


def test_attack_bonus_from_a_combat_skill() -> None:
    blk = builder.build(**hero(skills={"Close Combat (Unarmed)": 4},
                                 attacks=[{"name": "Jab", "range": "close", "rank": 4,
                                           "notes": "Strength-based."}]))
    assert blk.attacks[0].bonus == 6 + 4
    assert builder.attack_cost(blk.attacks[0], strength=4) == 0  # Strength pays for it


@pytest.mark.parametrize(("attack", "cost"), [
    ({"name": "A", "range": "close", "bonus": 5, "rank": 6}, 6),
    ({"name": "A", "range": "ranged", "bonus": 5, "rank": 6}, 12),
    ({"name": "A", "range": "area", "rank": 6}, 12),
    ({"name": "A", "range": "perception", "rank": 6}, 18),
    ({"name": "A", "range": "close", "bonus": 5, "rank": 9, "notes": "Strength-based"}, 5),
])
def test_attack_costs(attack: dict[str, Any], cost: int) -> None:
    from engine.systems.mm3e.statblock import Attack

    assert builder.attack_cost(Attack.model_validate(attack), strength=4) == cost


def test_problems_name_the_budget_and_every_cap() -> None:
    over = hero(abilities=dict.fromkeys(ABILITIES, 10),
                defenses={"dodge": 4, "toughness": 2})
    found = builder.problems(**over)
    assert any("Dodge 14 + Toughness 12 = 26 > 2 x PL 10" in p for p in found)
    assert any("spends" in p and "> 15 x PL 10 = 150" in p for p in found)


def test_problems_for_malformed_builds() -> None:
    assert "unknown skill(s) Hacking" in builder.problems(**hero(skills={"Hacking": 2}))[0]
    assert "unknown defense(s) armor" in builder.problems(**hero(defenses={"armor": 2}))[0]
    assert "unknown ability luck" in builder.problems(**hero(abilities={**ABS, "luck": 1}))[0]
    found = builder.problems(**hero(abilities={**ABS, "strength": 25}))
    assert any("abilities.strength" in p for p in found)


def test_the_ready_made_heroes_fit_the_budget() -> None:
    for blk in load_characters(CHARACTERS):
        if blk.kind is Kind.HERO:
            assert sum(builder.points(blk).values()) <= builder.budget(blk.power_level)


def test_derived_block_from_abilities() -> None:
    blk = builder.derived("Plain", ABS)
    d = blk.defenses
    assert (d.dodge, d.parry, d.toughness, d.fortitude, d.will) == (3, 6, 4, 4, 2)
    assert [(a.name, a.bonus, a.rank) for a in blk.attacks] == [("Unarmed", 6, 4)]
    assert blk.power_level == 10 and pl_problems(blk) == []


def test_derived_block_rises_in_power_level_to_stay_legal() -> None:
    strong = {**ABS, "strength": 12, "fighting": 12}
    blk = builder.derived("Brute", strong)
    assert blk.power_level == 12 and pl_problems(blk) == []
    assert builder.derived("Weak", {**ABS, "strength": -3}).attacks[0].rank == 0


@given(st.fixed_dictionaries({a: st.integers(-5, 12) for a in ABILITIES}))
def test_any_custom_line_gets_a_legal_block(abilities: dict[str, int]) -> None:
    blk = builder.derived("Anyone", abilities)
    assert pl_problems(blk) == []
    assert blk.abilities.model_dump() == abilities


# ------------------------------------------------------------------ hero files


def test_load_hero_file_reads_one_block(tmp_path: Path) -> None:
    chars = yaml.safe_load(CHARACTERS.read_text())["characters"]
    single = tmp_path / "hero.yaml"
    single.write_text(yaml.safe_dump(chars[1]))
    assert builder.load_hero_file(single).name == "Lamplight"
    listed = tmp_path / "listed.yaml"
    listed.write_text(yaml.safe_dump({"characters": [chars[0]]}))
    assert builder.load_hero_file(listed).name == "Keystone"


def test_load_hero_file_errors_name_file_and_field(tmp_path: Path) -> None:
    chars = yaml.safe_load(CHARACTERS.read_text())["characters"]
    two = tmp_path / "two.yaml"
    two.write_text(yaml.safe_dump({"characters": chars[:2]}))
    with pytest.raises(ContentError, match="exactly one block, not 2"):
        builder.load_hero_file(two)
    bad = tmp_path / "bad.yaml"
    bad.write_text(yaml.safe_dump({**chars[0], "abilities": {**chars[0]["abilities"],
                                                              "agility": 40}}))
    with pytest.raises(ContentError) as err:
        builder.load_hero_file(bad)
    assert f"{bad}: Keystone: abilities.agility" in str(err.value)
    capped = tmp_path / "capped.yaml"
    capped.write_text(yaml.safe_dump({**chars[0], "power_level": 6}))
    with pytest.raises(ContentError, match="> 2 x PL 6"):
        builder.load_hero_file(capped)
    with pytest.raises(ContentError, match="cannot read"):
        builder.load_hero_file(tmp_path / "missing.yaml")
    (tmp_path / "list.yaml").write_text("- 1\n- 2\n")
    with pytest.raises(ContentError, match="expected one stat block"):
        builder.load_hero_file(tmp_path / "list.yaml")
