"""`sidekick validate`, and creating or opening a campaign, check a pack against what the
rulesets and the GM define (issue 9): an unknown ruleset, a ``rule`` effect its ruleset does not
handle, an unknown GM precondition. Each problem names the file, the line and the key path."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from engine.campaigns import close_game, new_game, open_game
from engine.checks import load_checked, pack_problems
from engine.cli import main
from engine.content.loader import load_pack
from engine.errors import ContentError
from engine.rules.base import GENERIC_RULES, Ruleset
from engine.systems import RULESETS, ruleset_class, ruleset_for
from engine.systems.masks.rules import MasksRules

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"
MASKS_RULES = ["acting_on_the_answers", "enter_battle", "gm_shifts_labels",
               "npc_takes_influence", "surrender_influence", "target_marks_potential",
               "time_passes"]  # issue 28 added acting_on_the_answers, target_marks_potential


def line_with(path: Path, text: str, nth: int = 0) -> int:
    """The 1-based number of the ``nth`` line of ``path`` containing ``text``."""
    found = [i for i, line in enumerate(path.read_text().splitlines(), 1) if text in line]
    return found[nth]


def validate(capsys: pytest.CaptureFixture[str], *paths: Path) -> tuple[int, list[str]]:
    """``sidekick validate PATHS``: its exit code and the problem lines it printed."""
    code = main(["validate", *map(str, paths)])
    err = capsys.readouterr().err
    return code, [line.strip() for line in err.splitlines() if line.startswith("  ")]


# --------------------------------------------------------------------------- unknown ruleset


def test_validate_names_an_unknown_ruleset_with_its_line_and_a_guess(
        capsys: pytest.CaptureFixture[str]) -> None:
    path = DATA / "broken_ruleset"
    code, problems = validate(capsys, path)
    line = line_with(path / "system.yaml", "ruleset: mask")
    assert code != 0
    assert problems == [
        f"{path}/system.yaml:{line}: ruleset: unknown ruleset 'mask' (known: city_of_whispers,"
        " generic, masks, mm3e, panels); did you mean 'masks'?"]


def test_an_unknown_ruleset_far_from_any_gets_no_guess(tmp_path: Path) -> None:
    pack = tmp_path / "odd"
    shutil.copytree(DATA / "broken_ruleset", pack)
    text = (pack / "system.yaml").read_text().replace("ruleset: mask", "ruleset: zzz")
    (pack / "system.yaml").write_text(text)
    with pytest.raises(ContentError) as err:
        load_checked(pack)
    assert err.value.problems == [
        f"{pack}/system.yaml:4: ruleset: unknown ruleset 'zzz' (known: city_of_whispers,"
        " generic, masks, mm3e, panels)"]


def test_a_campaign_cannot_be_created_on_an_unknown_ruleset(tmp_path: Path) -> None:
    saves = tmp_path / "saves"
    with pytest.raises(ContentError, match=r"unknown ruleset 'mask'.*did you mean 'masks'"):
        new_game(saves, system="broken_ruleset", name="Typo", hero_name="Nova",
                 archetype="drifter", content=[DATA / "broken_ruleset"])
    assert not saves.exists() or not any(saves.iterdir())


def test_a_campaign_whose_pack_lost_its_ruleset_is_refused_on_open(tmp_path: Path) -> None:
    good, bad = tmp_path / "good" / "minimal", tmp_path / "bad" / "minimal"
    shutil.copytree(DATA / "minimal", good)
    saves = tmp_path / "saves"
    game = new_game(saves, system="minimal", name="Later", hero_name="Nova",
                    archetype="drifter", content=[good], seed=1)
    cid = game.store.campaign_id if hasattr(game.store, "campaign_id") else None
    close_game(game)
    [folder] = [p for p in saves.iterdir() if p.is_dir()]
    cid = cid or folder.name
    saved = {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()}
    shutil.copytree(good, bad)
    (bad / "system.yaml").write_text(
        (bad / "system.yaml").read_text().replace("ruleset: generic", "ruleset: mask"))
    with pytest.raises(ContentError, match=r"system\.yaml:4: ruleset: unknown ruleset 'mask'"):
        open_game(saves, cid, [bad])
    assert {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()} == saved
    close_game(open_game(saves, cid, [good]))  # the lock was released; the good pack opens


def test_the_rules_never_fall_back_to_generic_for_an_unknown_name() -> None:
    pack = load_pack(DATA / "broken_ruleset")  # the content layer alone cannot know rulesets
    with pytest.raises(ContentError, match="unknown ruleset 'mask'"):
        ruleset_for(pack)
    with pytest.raises(ContentError, match="known: city_of_whispers, generic, masks"):
        ruleset_class("Masks")


# --------------------------------------------------------------------------- rule effects


def test_each_ruleset_declares_the_rule_effects_it_knows() -> None:
    assert Ruleset.known_rule_effects() == GENERIC_RULES == {"npc_leaves", "choose_from_band"}
    assert sorted(MasksRules.known_rule_effects() - GENERIC_RULES) == MASKS_RULES
    cow = ruleset_class("city_of_whispers").known_rule_effects()
    assert {"mark_heat", "grant_belief", "tie_trouble"} <= cow
    assert not set(MASKS_RULES) & cow
    mm3e = ruleset_class("mm3e").known_rule_effects() - GENERIC_RULES
    assert {"start_fight", "rest", "hazard_failure", "resistance_failure"} <= mm3e
    assert not set(MASKS_RULES) & mm3e
    panels = ruleset_class("panels").known_rule_effects() - GENERIC_RULES
    assert panels == {"start_fight", "rest", "heal"}
    assert set(RULESETS) == {"generic", "masks", "city_of_whispers", "mm3e", "panels"}


def test_validate_names_an_unknown_rule_effect_with_file_line_and_key_path(
        capsys: pytest.CaptureFixture[str]) -> None:
    path = DATA / "broken_rule_effect"
    code, problems = validate(capsys, path)
    masks = ", ".join(sorted([*MASKS_RULES, *GENERIC_RULES]))
    moves_line = line_with(path / "moves.yaml", "mark_haet")
    gm_line = line_with(path / "gm.yaml", "mark_haet")
    assert code != 0
    assert problems[:2] == [
        f"{path}/moves.yaml:{moves_line}: moves[0] (push).outcomes.miss.effects[2].name: unknown"
        f" rule effect 'mark_haet' (the masks rules know: {masks})",
        f"{path}/gm.yaml:{gm_line}: moves[0] (press).effects[0].name: unknown rule effect"
        f" 'mark_haet' (the masks rules know: {masks})",
    ]


def test_validate_names_an_unknown_gm_precondition_with_a_guess(
        capsys: pytest.CaptureFixture[str]) -> None:
    path = DATA / "broken_rule_effect"
    _, problems = validate(capsys, path)
    line = line_with(path / "gm.yaml", "npc_presnt")
    [problem] = [p for p in problems if "precondition" in p]
    assert problem.startswith(f"{path}/gm.yaml:{line}: moves[1] (wait).when[0]: unknown"
                              " precondition 'npc_presnt' (known: ")
    assert problem.endswith("; did you mean 'npc_present'?")


def copy_cow(tmp_path: Path, edit: Any) -> Path:
    """A copy of City of Whispers with its moves.yaml changed by ``edit``."""
    dst = tmp_path / "city-of-whispers"
    shutil.copytree(ROOT / "content" / "city-of-whispers", dst)
    f = dst / "moves.yaml"
    data = yaml.safe_load(f.read_text())
    edit(data)
    f.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True))
    return dst


def test_a_misspelt_city_of_whispers_rule_is_caught_in_a_one_of_branch(tmp_path: Path) -> None:
    def edit(d: dict[str, Any]) -> None:
        d["moves"][1]["outcomes"]["miss"]["effects"] = [{"type": "one_of", "options": [
            {"id": "a", "text": "A", "effects": [{"type": "rule", "name": "mark_haet"}]},
            {"id": "b", "text": "B"}]}]

    path = copy_cow(tmp_path, edit)
    with pytest.raises(ContentError) as err:
        load_checked(path)
    [problem] = err.value.problems
    line = line_with(path / "moves.yaml", "name: mark_haet")
    mid = yaml.safe_load((path / "moves.yaml").read_text())["moves"][1]["id"]
    assert problem.startswith(
        f"{path}/moves.yaml:{line}: moves[1] ({mid}).outcomes.miss.effects[0].options[0]"
        ".effects[0].name: unknown rule effect 'mark_haet' (the city_of_whispers rules know: ")
    assert problem.endswith("; did you mean 'mark_heat'?")


def test_a_rule_effect_of_another_ruleset_is_refused(tmp_path: Path) -> None:
    def edit(d: dict[str, Any]) -> None:
        d["moves"][0]["before"] = [{"type": "rule", "name": "time_passes"}]  # a Masks rule

    with pytest.raises(ContentError, match="unknown rule effect 'time_passes'"):
        load_checked(copy_cow(tmp_path, edit))


def test_the_bundled_packs_pass_every_check() -> None:
    for pack_id in ("masks", "city-of-whispers"):
        assert pack_problems(load_checked(ROOT / "content" / pack_id)) == []


# --------------------------------------------------------------------------- one-way imports


def test_loading_a_pack_imports_nothing_above_content() -> None:
    code = ("import sys; from engine.content.loader import load_pack;"
            f" load_pack({str(ROOT / 'content' / 'city-of-whispers')!r});"
            " print(sorted(m for m in sys.modules if m.startswith(('engine.rules', 'engine.gm',"
            " 'engine.game', 'engine.checks'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=ROOT).stdout
    assert out.strip() == "[]"
