"""``sidekick validate`` checks what only a ruleset defines: effects that belong to one system
(Masks's Influence) and the target tests a move's ``target_when`` names."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from engine.checks import pack_problems
from engine.content.loader import load_pack
from engine.errors import ContentError

ROOT = Path(__file__).resolve().parents[2]


def _copy(tmp_path: Path, system: str) -> Path:
    out = tmp_path / system
    shutil.copytree(ROOT / "content" / system, out)
    return out


def test_masks_influence_in_another_system_is_refused_with_its_line(tmp_path: Path) -> None:
    pack_dir = _copy(tmp_path, "city-of-whispers")
    moves = pack_dir / "moves.yaml"
    lines = moves.read_text(encoding="utf-8").split("\n")
    heat = "- {type: track, track: heat, delta: -1}"
    at = next(i for i, line in enumerate(lines) if heat in line)
    indent = lines[at][: len(lines[at]) - len(lines[at].lstrip())]
    lines.insert(at, f"{indent}- {{type: take_influence}}")
    moves.write_text("\n".join(lines), encoding="utf-8")
    problems = pack_problems(load_pack(pack_dir))
    assert problems == [
        f"{moves}:{at + 1}: moves[0] (transit).outcomes.critical.choose.options[1].effects[0]"
        ".type: the effect 'take_influence' belongs to the masks rules; the city_of_whispers"
        " rules do not know it"]


def test_an_unknown_target_test_is_refused_with_a_did_you_mean(tmp_path: Path) -> None:
    pack_dir = _copy(tmp_path, "masks")
    moves = pack_dir / "moves.yaml"
    text = moves.read_text(encoding="utf-8")
    assert "target_when: [has_influence_over_hero]" in text
    moves.write_text(text.replace("target_when: [has_influence_over_hero]",
                                  "target_when: [has_influence_over_her]", 1), encoding="utf-8")
    problems = pack_problems(load_pack(pack_dir))
    assert len(problems) == 1
    assert "target_when[0]: unknown target test 'has_influence_over_her'" in problems[0]
    assert "did you mean 'has_influence_over_hero'?" in problems[0]
    assert problems[0].startswith(f"{moves}:")


def test_the_bundled_packs_pass() -> None:
    for system in ("masks", "city-of-whispers"):
        assert pack_problems(load_pack(ROOT / "content" / system)) == []


def test_a_campaign_is_not_started_on_a_pack_with_foreign_effects(tmp_path: Path) -> None:
    from engine.campaigns import new_game

    pack_dir = _copy(tmp_path, "masks")
    system = pack_dir / "system.yaml"
    system.write_text(system.read_text(encoding="utf-8").replace(
        "ruleset: masks", "ruleset: generic"), encoding="utf-8")
    with pytest.raises(ContentError, match="belongs to the masks rules"):
        new_game(tmp_path / "saves", system="masks", name="x", hero_name="Nova",
                 archetype=None, stats=None, content=[pack_dir])
