"""Deliberately broken M&M stat blocks (issue 29): every problem is reported, in plain words,
with the file and the key path; an unknown key says where it belongs."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from engine.cli import main
from engine.errors import ContentError
from engine.systems.mm3e import builder
from engine.systems.mm3e.statblock import load_characters

CONTENT = Path(__file__).resolve().parents[2] / "content" / "mutants-and-masterminds"
HERO = """\
name: Breaker
kind: hero
power_level: 10
abilities: {strength: 4, stamina: 12, agility: 1, dexterity: 1, fighting: 8, intellect: 2,
            awareness: 2, presence: 1}
defenses: {dodge: 12, parry: 12, toughness: 12, fortitude: 12, will: 8}
skills: {Athletics: 24}
attacks:
  - {name: Fist, range: close, bonus: 12, effect: damage, rank: 12}
"""
POWERS = "powers:\n  - {name: Protection, rank: 10}\n  - {name: Leaping, rank: 3}\n"
NEW = ["new", "Harbor Watch", "--system", "mutants-and-masterminds", "--seed", "3"]
PYDANTIC = ("Input should", "Extra inputs", "validation error", "pydantic")


def new_with(tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str) -> tuple[Path, str]:
    hero = tmp_path / "hero.yaml"
    hero.write_text(text, encoding="utf-8")
    assert main(["--saves", str(tmp_path / "saves"), *NEW, "--statblock", str(hero)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"sidekick: error: {hero}: ") and "Traceback" not in err
    assert not any(p in err for p in PYDANTIC), err
    return hero, err


def test_every_broken_cap_is_reported(tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    hero, err = new_with(tmp_path, capsys, HERO)
    for cap in ("Dodge 12 + Toughness 12 = 24 > 2 x PL 10",
                "Parry 12 + Toughness 12 = 24 > 2 x PL 10",
                "Fist: attack 12 + rank 12 = 24 > 2 x PL 10",
                "Athletics 24 > PL 10 + 10 = 20"):
        assert f"{hero}: Breaker: {cap}" in err, err


def test_a_strength_out_of_range_reads_the_same_however_far(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for strength in (14, 22):
        hero, err = new_with(tmp_path, capsys, HERO.replace("strength: 4", f"strength:"
                                                            f" {strength}"))
        assert (f"{hero}: Breaker: abilities: Strength +{strength} is outside -5..+12 (a hero's"
                " abilities in Mutants & Masterminds 3e)") in err, err
        assert "Athletics 24 > PL 10 + 10 = 20" in err  # and the caps still


def test_powers_says_where_protection_and_leaping_belong(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    hero, err = new_with(tmp_path, capsys, HERO + POWERS)
    assert f"{hero}: Breaker: powers: unknown key: a stat block has no powers list" in err
    assert "Protection as ranks added to defenses.toughness" in err
    assert "Leaping or Flight as a rank under speed (speed: {leaping: 3})" in err
    assert "Fist: attack 12 + rank 12 = 24 > 2 x PL 10" in err  # the caps too
    # beside a characters: list, at the top of the file
    listed = "characters:\n" + "".join(f"  {'- ' if i == 0 else '  '}{line}\n"
                                       for i, line in enumerate(HERO.splitlines())) + POWERS
    hero, err = new_with(tmp_path, capsys, listed)
    assert f"{hero}: powers: unknown key beside characters: a stat block has no powers" in err
    # a single power, a defense or an ability at the wrong level
    misplaced = HERO + "protection: 10\nleaping: 3\nwill: 8\n"
    _, err = new_with(tmp_path, capsys, misplaced)
    assert "protection: unknown key: Protection is Toughness: add its ranks to" \
        " defenses.toughness" in err
    assert "leaping: unknown key: a movement power: give its rank under speed" in err
    assert "will: unknown key: a defense: it belongs under defenses (will: 8)" in err


def test_a_characters_file_reports_every_problem_with_where_keys_belong(
        tmp_path: Path) -> None:
    pack = tmp_path / "mutants-and-masterminds"
    shutil.copytree(CONTENT, pack)
    text = (pack / "characters.yaml").read_text(encoding="utf-8")
    text = text.replace("    speed: {ground: 1}\n",
                        "    speed: {ground: 1}\n    powers: [{name: Protection, rank: 4}]\n", 1)
    text = text.replace("power_level: 10", "power_level: 6", 2)  # Keystone, Lamplight
    (pack / "characters.yaml").write_text(text, encoding="utf-8")
    with pytest.raises(ContentError) as caught:
        load_characters(pack / "characters.yaml")
    message = caught.value.message
    assert "Keystone: powers: unknown key: a stat block has no powers list" in message
    assert message.count("Lamplight: power level:") >= 2  # every cap, not the first
    assert len(caught.value.problems) == len(message.splitlines())
    assert not any(p in message for p in PYDANTIC)


def test_load_hero_file_reports_all(tmp_path: Path) -> None:
    hero = tmp_path / "hero.yaml"
    hero.write_text(HERO.replace("strength: 4", "strength: 22") + POWERS, encoding="utf-8")
    with pytest.raises(ContentError) as caught:
        builder.load_hero_file(hero)
    lines = caught.value.message.splitlines()
    assert f"{hero}: Breaker: abilities.strength: must be at most 20, got 22" in lines
    assert any(line.startswith(f"{hero}: Breaker: powers: unknown key: a stat block")
               for line in lines)
    assert f"{hero}: Breaker: Athletics 24 > PL 10 + 10 = 20" in lines
