"""City of Whispers data keys: a misspelt key in system.yaml ``data`` or an archetype's
``data`` is refused by ``sidekick validate`` with file, line and key, and a campaign never
starts on it (a ``ContentError``, not a raw pydantic error)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from engine.campaigns import new_game
from engine.cli import main
from engine.content.loader import load_pack
from engine.errors import ContentError
from engine.systems.city_of_whispers import CityRules

DATA = Path(__file__).parent.parent / "data"
BROKEN = DATA / "broken_cow_data_key"
COW = Path(__file__).parent.parent.parent / "content" / "city-of-whispers"


def test_validate_names_file_line_and_key_of_each_typo(capsys: pytest.CaptureFixture[str]
                                                       ) -> None:
    assert main(["validate", str(BROKEN)]) != 0
    err = capsys.readouterr().err
    assert (f"{BROKEN}/system.yaml:24: archetypes.fixer.data.beleifs: unknown key (did you"
            " mean 'beliefs'?)" in err)
    assert (f"{BROKEN}/system.yaml:31: data.offer_readings.peril.minus_heet: unknown key (did"
            " you mean 'minus_heat'?)" in err)


def test_new_campaign_on_the_broken_pack_is_a_content_error(tmp_path: Path) -> None:
    with pytest.raises(ContentError) as got:
        new_game(tmp_path / "saves", system="broken_cow_data_key", name="x", hero_name="Vey",
                 archetype="fixer", content=[DATA])
    assert any("archetypes.fixer.data.beleifs" in p for p in got.value.problems)


def test_the_rules_refuse_the_pack_with_the_same_problems() -> None:
    pack = load_pack(BROKEN)
    with pytest.raises(ContentError) as got:
        CityRules(pack)
    assert got.value.problems == [f"{BROKEN}/{p}" for p in CityRules.check_content(pack)]
    assert len(got.value.problems) == 2


def test_the_bundled_pack_has_no_data_problems() -> None:
    assert CityRules.check_content(load_pack(COW)) == []


@pytest.mark.parametrize(("old", "new", "key"), [
    ("    - name: The Vigil\n", "    - nmae: The Vigil\n", "data.factions[0].nmae"),
    ("  custom_hero:\n", "  custom_heroo:\n", "data.custom_heroo"),
    ("        - {npc: Odile Farrow,", "        - {npcc: Odile Farrow,",
     "archetypes.go_between.data.ties[0].npcc"),
    ("        aspects: [A hundred small debts", "        aspectz: [A hundred small debts",
     "archetypes.go_between.data.faction.aspectz"),
    ("    value: {sway: 2,", "    valeu: {sway: 2,", "data.offer_readings.valeu"),
])
def test_a_typo_anywhere_in_the_data_is_found_at_its_line(tmp_path: Path, old: str, new: str,
                                                          key: str) -> None:
    path = tmp_path / "city-of-whispers"
    shutil.copytree(COW, path)
    text = (path / "system.yaml").read_text(encoding="utf-8")
    assert old in text
    changed = text.replace(old, new, 1)
    (path / "system.yaml").write_text(changed, encoding="utf-8")
    line = changed[:changed.index(new)].count("\n") + 1 + new[:new.index(
        key.rsplit(".", 1)[-1].split("[")[0])].count("\n")
    problems = CityRules.check_content(load_pack(path))
    assert any(p.startswith(f"system.yaml:{line}: {key}: unknown key") for p in problems), \
        problems
