"""The M&M pack declares each fight action's cost; the ruleset checks it against the rules."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from engine.cli import main
from engine.content.loader import load_pack
from engine.systems.mm3e import rules as _rules  # noqa: F401  (registers every action)
from engine.systems.mm3e.fight import action_words
from engine.systems.mm3e.pack_files import word_ids
from engine.systems.mm3e.step import ACTIONS as HANDLERS

PACK = Path(__file__).resolve().parents[2] / "content" / "mutants-and-masterminds"


def test_every_declared_cost_is_the_rules_cost() -> None:
    raw = yaml.safe_load((PACK / "actions.yaml").read_text(encoding="utf-8"))
    for aid, entry in raw["actions"].items():
        assert entry["cost"] == HANDLERS[aid].cost, aid
    assert sorted(raw["actions"]) == word_ids()["actions"]  # the fight engine's, every one


@pytest.mark.parametrize(("edit", "message"), [
    (("    cost: standard", "    cost: move"), "actions.aid.cost: 'move', but the rules charge"
                                                " 'standard'"),
    (("    cost: standard\n", ""), "actions.yaml:9: actions.aid.cost: required key is missing"),
    (("  aid:\n", "  aid_someone:\n"), "actions.yaml:8: actions.aid_someone: unknown action id"),
])
def test_a_wrong_cost_or_id_fails_validation(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                             edit: tuple[str, str], message: str) -> None:
    pack = tmp_path / "mutants-and-masterminds"
    shutil.copytree(PACK, pack)
    path = pack / "actions.yaml"
    text = path.read_text(encoding="utf-8")
    assert edit[0] in text
    path.write_text(text.replace(edit[0], edit[1], 1), encoding="utf-8")
    assert main(["validate", str(pack)]) == 1
    assert message in capsys.readouterr().err


def test_the_fight_engine_reads_names_and_examples() -> None:
    words = action_words(load_pack(PACK))
    assert words["attack"].name == "Attack" and len(words["attack"].examples) >= 15
    assert words["power_attack"].kind == "maneuver"
