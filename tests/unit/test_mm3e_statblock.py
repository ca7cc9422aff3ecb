"""M&M 3e stat blocks (engine/systems/mm3e/statblock.py): the models' bounds, every filled-in
power-level cap with a legal and an illegal case, the shipped characters, the loader's errors,
and a property: any block built within the caps has no problems."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from engine.errors import ContentError
from engine.systems.mm3e.statblock import (
    ABILITIES,
    FILLED_IN,
    Advantage,
    Attack,
    AttackRange,
    Kind,
    StatBlock,
    load_characters,
    pl_problems,
)

CHARACTERS = Path(__file__).parents[2] / "content" / "mutants-and-masterminds" / "characters.yaml"


def block(**over: Any) -> dict[str, Any]:
    """A legal PL 10 hero as raw data, with fields replaced; defenses/abilities merge."""
    data: dict[str, Any] = {
        "name": "Gravitas", "kind": "hero", "power_level": 10,
        "abilities": dict.fromkeys(ABILITIES, 2),
        "defenses": {"dodge": 8, "parry": 8, "toughness": 10, "fortitude": 10, "will": 10},
        "skills": {"Perception": 12},
        "attacks": [{"name": "Punch", "range": "close", "bonus": 10, "rank": 10}],
    }
    for key in ("abilities", "defenses"):
        if key in over:
            data[key] = {**data[key], **over.pop(key)}
    return {**data, **over}


def make(**over: Any) -> StatBlock:
    return StatBlock.model_validate(block(**over))


# ------------------------------------------------------------------ models

def test_base_block_is_legal() -> None:
    b = make()
    assert pl_problems(b) == []
    assert b.kind is Kind.HERO and not b.minion and b.count is None
    assert b.speed == {"ground": 0}


def test_frozen_and_unknown_keys_forbidden() -> None:
    b = make()
    with pytest.raises(ValidationError):
        b.name = "Other"  # type: ignore[misc]
    for bad in (block(hit_points=20), block(abilities={"luck": 3})):
        with pytest.raises(ValidationError) as e:
            StatBlock.model_validate(bad)
        assert [err["type"] for err in e.value.errors()] == ["extra_forbidden"]


@pytest.mark.parametrize(("rank", "ok"), [(-6, False), (-5, True), (20, True), (21, False)])
def test_ability_ranks_run_minus_5_to_20(rank: int, ok: bool) -> None:
    data = block(abilities={"intellect": rank})
    if ok:
        assert StatBlock.model_validate(data).abilities.intellect == rank
    else:
        with pytest.raises(ValidationError, match=r"abilities\.intellect"):
            StatBlock.model_validate(data)


def test_all_eight_abilities_required() -> None:
    data = block()
    del data["abilities"]["presence"]
    with pytest.raises(ValidationError, match="presence"):
        StatBlock.model_validate(data)


@pytest.mark.parametrize(("defense", "ability"), [
    ("dodge", "agility"), ("parry", "fighting"), ("toughness", "stamina"),
    ("fortitude", "stamina"), ("will", "awareness")])
def test_defense_never_below_its_ability(defense: str, ability: str) -> None:
    assert make(abilities={ability: 8}, defenses={defense: 8})
    with pytest.raises(ValidationError, match=f"{defense} 7 is below {ability} 8"):
        make(abilities={ability: 8}, defenses={defense: 7})


def test_minion_group_needs_count_and_is_minions() -> None:
    g = make(kind="minion_group", count=6, power_level=10)
    assert g.minion and g.count == 6
    with pytest.raises(ValidationError, match="needs a count"):
        make(kind="minion_group")
    with pytest.raises(ValidationError, match="only a minion group"):
        make(kind="villain", count=3)
    with pytest.raises(ValidationError, match="are minions"):
        make(kind="minion_group", count=3, minion=False)
    with pytest.raises(ValidationError, match="count"):
        make(kind="minion_group", count=1)
    assert make(kind="villain", minion=True).minion


def test_initiative_defaults_to_agility_plus_4_per_improved_initiative() -> None:
    assert make(abilities={"agility": 3}).initiative_bonus == 3
    b = make(abilities={"agility": 3}, advantages=[{"name": "Improved Initiative", "rank": 2}])
    assert b.initiative_bonus == 3 + 8
    assert make(abilities={"agility": 3}, advantages=["improved initiative"]).initiative_bonus \
        == 7
    assert make(abilities={"agility": 3}, initiative=1).initiative_bonus == 1


def test_advantages_with_and_without_ranks() -> None:
    b = make(advantages=["Power Attack", {"name": "Improved Critical", "rank": 2}])
    assert b.advantages == (Advantage(name="Power Attack"),
                            Advantage(name="Improved Critical", rank=2))
    assert b.advantage_rank("Improved Critical") == 2
    assert b.advantage_rank("Power Attack") == 1
    assert b.advantage_rank("Takedown") == 0
    with pytest.raises(ValidationError):
        make(advantages=[{"name": "Evasion", "rank": 0}])


def test_attack_bonus_only_for_rolled_attacks() -> None:
    assert Attack(name="Blast", range=AttackRange.RANGED, bonus=8, rank=10).effect == "damage"
    with pytest.raises(ValidationError, match="needs an attack bonus"):
        Attack(name="Blast", range=AttackRange.RANGED, rank=10)
    with pytest.raises(ValidationError, match="no attack roll"):
        Attack(name="Mind", range=AttackRange.PERCEPTION, bonus=5, rank=10)
    a = Attack.model_validate({"name": "Mind", "range": "perception", "effect": "affliction",
                               "rank": 10, "resisted_by": "will"})
    assert a.bonus is None and a.resisted_by == "will"
    with pytest.raises(ValidationError):
        Attack.model_validate({"name": "X", "range": "touch", "bonus": 1, "rank": 1})
    with pytest.raises(ValidationError):
        make(attacks=[{"name": "P", "range": "close", "bonus": 1, "rank": 1}] * 2)


def test_skill_and_speed_bounds() -> None:
    with pytest.raises(ValidationError, match="skill 'Stealth'"):
        make(skills={"Stealth": 41})
    with pytest.raises(ValidationError, match="speed 'flight'"):
        make(speed={"flight": 41})


# ------------------------------------------------------------------ the caps

def test_filled_in_names_the_caps() -> None:
    for text in ("2 x PL", "<= PL", "PL + 10", "Improved Initiative"):
        assert text in FILLED_IN


def test_parry_plus_toughness_cap() -> None:
    assert pl_problems(make(defenses={"parry": 10, "toughness": 10})) == []
    assert pl_problems(make(defenses={"parry": 12, "toughness": 12, "dodge": 8})) == [
        "Gravitas: Parry 12 + Toughness 12 = 24 > 2 x PL 10"]
    assert pl_problems(make(defenses={"parry": 11, "toughness": 10})) == [
        "Gravitas: Parry 11 + Toughness 10 = 21 > 2 x PL 10"]


def test_dodge_plus_toughness_cap() -> None:
    assert pl_problems(make(defenses={"dodge": 12, "parry": 2, "toughness": 8})) == []
    assert pl_problems(make(defenses={"dodge": 11, "toughness": 10})) == [
        "Gravitas: Dodge 11 + Toughness 10 = 21 > 2 x PL 10"]


def test_fortitude_plus_will_cap() -> None:
    assert pl_problems(make(defenses={"fortitude": 6, "will": 14})) == []
    assert pl_problems(make(defenses={"fortitude": 6, "will": 15})) == [
        "Gravitas: Fortitude 6 + Will 15 = 21 > 2 x PL 10"]


@pytest.mark.parametrize("rng", ["close", "ranged"])
def test_attack_bonus_plus_rank_cap(rng: str) -> None:
    ok = [{"name": "Blast", "range": rng, "bonus": 12, "rank": 8}]
    assert pl_problems(make(attacks=ok)) == []
    bad = [{"name": "Blast", "range": rng, "bonus": 12, "rank": 9}]
    assert pl_problems(make(attacks=bad)) == [
        "Gravitas: Blast: attack 12 + rank 9 = 21 > 2 x PL 10"]


@pytest.mark.parametrize("rng", ["perception", "area"])
def test_perception_and_area_rank_cap(rng: str) -> None:
    assert pl_problems(make(attacks=[{"name": "Wave", "range": rng, "rank": 10}])) == []
    assert pl_problems(make(attacks=[{"name": "Wave", "range": rng, "rank": 11}])) == [
        f"Gravitas: Wave ({rng}): rank 11 > PL 10"]


def test_skill_cap() -> None:
    assert pl_problems(make(skills={"Stealth": 20})) == []
    assert pl_problems(make(skills={"Stealth": 21})) == ["Gravitas: Stealth 21 > PL 10 + 10 = 20"]


def test_caps_scale_with_power_level_and_all_are_reported() -> None:
    b = make(power_level=11, defenses={"parry": 12, "toughness": 10, "fortitude": 12},
             skills={"Stealth": 21}, attacks=[{"name": "Wave", "range": "area", "rank": 11}])
    assert pl_problems(b) == []
    b = make(power_level=4, skills={"Perception": 14, "Stealth": 15})
    assert pl_problems(b) == [
        "Gravitas: Dodge 8 + Toughness 10 = 18 > 2 x PL 4",
        "Gravitas: Parry 8 + Toughness 10 = 18 > 2 x PL 4",
        "Gravitas: Fortitude 10 + Will 10 = 20 > 2 x PL 4",
        "Gravitas: Punch: attack 10 + rank 10 = 20 > 2 x PL 4",
        "Gravitas: Stealth 15 > PL 4 + 10 = 14",
    ]


# ------------------------------------------------------------------ shipped characters

def test_shipped_characters_load_and_pass_the_caps() -> None:
    blocks = load_characters(CHARACTERS)
    for b in blocks:
        assert pl_problems(b) == [], b.name
        assert b.complications, b.name
    heroes = [b for b in blocks if b.kind is Kind.HERO]
    villains = [b for b in blocks if b.kind is Kind.VILLAIN]
    groups = [b for b in blocks if b.kind is Kind.MINION_GROUP]
    assert len(heroes) >= 3 and all(h.power_level == 10 for h in heroes)
    assert sorted(v.power_level for v in villains) == [10, 11]
    assert sorted(g.power_level for g in groups) == [4, 6]
    assert all(g.minion and (g.count or 0) >= 2 for g in groups)
    assert len({b.name for b in blocks}) == len(blocks)


def test_shipped_heroes_differ_in_style() -> None:
    heroes = {b.name: b for b in load_characters(CHARACTERS) if b.kind is Kind.HERO}
    # a brick: the highest Toughness; a blaster: a ranged attack; a speedster: the best speed
    brick = max(heroes.values(), key=lambda b: b.defenses.toughness)
    fast = max(heroes.values(), key=lambda b: max(b.speed.values()))
    blasters = [b for b in heroes.values() if any(a.range is AttackRange.RANGED
                                                   for a in b.attacks)]
    assert brick.name == "Keystone" and fast.name == "Slipstream"
    assert [b.name for b in blasters] == ["Lamplight"]


def test_shipped_minion_groups() -> None:
    by = {b.name: b for b in load_characters(CHARACTERS)}
    crew, drones = by["Dockside Crew"], by["Hornet Drones"]
    assert crew.power_level == 4 and any(a.range is AttackRange.RANGED for a in crew.attacks)
    assert drones.power_level == 6 and "flight" in drones.speed


def test_the_folder_is_now_a_pack() -> None:
    assert (CHARACTERS.parent / "system.yaml").exists()


# ------------------------------------------------------------------ the loader

def write(tmp_path: Path, characters: Any) -> Path:
    p = tmp_path / "chars.yaml"
    p.write_text(yaml.safe_dump({"characters": characters}), encoding="utf-8")
    return p


def test_loader_reads_a_good_file(tmp_path: Path) -> None:
    p = write(tmp_path, [block(), block(name="Other")])
    assert [b.name for b in load_characters(p)] == ["Gravitas", "Other"]


def test_loader_unknown_key(tmp_path: Path) -> None:
    p = write(tmp_path, [block(name="Other"), block(cape="red")])
    with pytest.raises(ContentError) as e:
        load_characters(p)
    assert e.value.problems == [f"{p}: Gravitas: cape: unknown key"]
    assert str(e.value) == e.value.problems[0]


def test_loader_rank_out_of_bounds(tmp_path: Path) -> None:
    p = write(tmp_path, [block(abilities={"strength": 25})])
    with pytest.raises(ContentError) as e:
        load_characters(p)
    [msg] = e.value.problems
    assert msg.startswith(f"{p}: Gravitas: abilities.strength: ")
    assert msg.endswith("must be at most 20, got 25")


def test_loader_power_level_broken(tmp_path: Path) -> None:
    p = write(tmp_path, [block(defenses={"parry": 12, "toughness": 12})])
    with pytest.raises(ContentError) as e:
        load_characters(p)
    assert e.value.problems == [
        f"{p}: Gravitas: power level: Parry 12 + Toughness 12 = 24 > 2 x PL 10"]


def test_loader_collects_every_problem(tmp_path: Path) -> None:
    nameless = block()
    del nameless["name"]
    p = write(tmp_path, [block(), block(), nameless, block(name="Fast", skills={"Speed": 30})])
    with pytest.raises(ContentError) as e:
        load_characters(p)
    assert e.value.problems == [
        f"{p}: Gravitas: name: used by another character",
        f"{p}: character #3: name: required key is missing",
        f"{p}: Fast: power level: Speed 30 > PL 10 + 10 = 20",
    ]


@pytest.mark.parametrize(("text", "where"), [
    ("characters: 3\n", "characters: expected a list, got 3"),
    ("heroes: []\n", "characters: required key is missing"),
    ("characters: [1]\n", "characters.0: expected a mapping, got 1"),
    ("characters: [\n", "cannot read"),
])
def test_loader_bad_file_shape(tmp_path: Path, text: str, where: str) -> None:
    p = tmp_path / "bad.yaml"
    p.write_text(text, encoding="utf-8")
    with pytest.raises(ContentError) as e:
        load_characters(p)
    assert str(e.value).startswith(f"{p}: ")
    assert where in str(e.value)


def test_loader_missing_file(tmp_path: Path) -> None:
    with pytest.raises(ContentError, match="cannot read"):
        load_characters(tmp_path / "none.yaml")


# ------------------------------------------------------------------ property

@st.composite
def legal_blocks(draw: st.DrawFn) -> StatBlock:
    """A stat block drawn anywhere inside the caps of its power level."""
    pl = draw(st.integers(1, 20))
    top = min(2 * pl + 5, 40)
    tough = draw(st.integers(-5, top))
    dodge = draw(st.integers(-5, min(2 * pl - tough, 40)))
    parry = draw(st.integers(-5, min(2 * pl - tough, 40)))
    fort = draw(st.integers(-5, top))
    will = draw(st.integers(-5, min(2 * pl - fort, 40)))
    abilities = {
        "agility": draw(st.integers(-5, min(dodge, 20))),
        "fighting": draw(st.integers(-5, min(parry, 20))),
        "stamina": draw(st.integers(-5, min(tough, fort, 20))),
        "awareness": draw(st.integers(-5, min(will, 20))),
    }
    for name in ABILITIES:
        if name not in abilities:
            abilities[name] = draw(st.integers(-5, 20))
    skills = draw(st.dictionaries(st.sampled_from(["Athletics", "Stealth", "Insight"]),
                                  st.integers(-5, pl + 10)))
    attacks = []
    for i, rng in enumerate(draw(st.lists(st.sampled_from(list(AttackRange)), max_size=4))):
        if rng in (AttackRange.CLOSE, AttackRange.RANGED):
            bonus = draw(st.integers(-5, 2 * pl))
            rank = draw(st.integers(0, min(2 * pl - bonus, 40)))  # a rank is 40 at most
            attacks.append({"name": f"a{i}", "range": rng, "bonus": bonus, "rank": rank})
        else:
            attacks.append({"name": f"a{i}", "range": rng, "rank": draw(st.integers(0, pl))})
    kind = draw(st.sampled_from(list(Kind)))
    return StatBlock.model_validate({
        "name": "Drawn", "kind": kind, "power_level": pl,
        "count": 5 if kind is Kind.MINION_GROUP else None,
        "abilities": abilities,
        "defenses": {"dodge": dodge, "parry": parry, "toughness": tough, "fortitude": fort,
                     "will": will},
        "skills": skills, "attacks": attacks,
    })


@given(legal_blocks())
def test_any_block_within_the_caps_has_no_problems(b: StatBlock) -> None:
    assert pl_problems(b) == []


@given(legal_blocks(), st.integers(1, 5))
def test_raising_toughness_past_the_cap_is_reported(b: StatBlock, extra: int) -> None:
    d = b.defenses
    over = 2 * b.power_level - max(d.dodge, d.parry) + extra
    if over > 40:
        return
    raised = b.model_copy(update={"defenses": d.model_copy(update={"toughness": over})})
    problems = pl_problems(raised)
    assert any(f"Toughness {over} =" in p and p.startswith("Drawn: ") for p in problems)
