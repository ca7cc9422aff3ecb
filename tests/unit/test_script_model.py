"""Scripts load through a typed model: wrong types are one clear line naming the step and key
(issue 8, item 5). Every crasher the fuzzer found is an explicit case here."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
import yaml

from engine.cli import main
from engine.errors import EngineError
from engine.script import ScriptError, Step, parse_steps, run_script

CAMPAIGN: dict[str, Any] = {
    "name": "Night Shift", "system": "masks", "seed": 42,
    "hero": {"name": "Nova", "archetype": "signal_fire"},
    "npcs": [{"name": "Rosalind", "role": "adult"}, {"name": "Dusk", "role": "villain"}],
}
EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "examples").glob("*.yaml"))


def fails(data: dict[str, Any], saves: Path | None = None) -> str:
    """The message a script fails with (it must be an ``EngineError``)."""
    with pytest.raises(EngineError) as err:
        run_script(data, saves=saves, content=[], campaign=None, emit=lambda e: None)
    return str(err.value)


@pytest.mark.parametrize(("campaign", "message"), [
    ({"seed": "abc"}, "campaign.seed: expected a whole number, got 'abc'"),
    ({"seed": 2**70}, "campaign.seed: expected a whole number"),
    ({"seed": float("nan")}, "campaign.seed: expected a whole number, got nan"),
    ({"npcs": [1]}, "campaign.npcs[0]: expected a list of {name, role, note}, got 1"),
    ({"npcs": [{"name": 5, "role": "adult"}]}, "campaign.npcs[0].name: expected text, got 5"),
    ({"npcs": "Rosalind"}, "campaign.npcs: expected a list of {name, role, note}"),
    ({"hero": [1]}, "campaign.hero: expected a mapping {name, archetype} or {name, stats}"),
    ({"hero": {"stats": {"danger": "lots"}}},
     "campaign.hero.stats.danger: expected a whole number, got 'lots'"),
    ({"hero": {"name": None}}, "campaign.hero.name: expected text, got None"),
    ({"name": ["a"]}, "campaign.name: expected text, got ['a']"),
    ({"system": 3}, "campaign.system: expected text, got 3"),
    ({"colour": "red"}, "campaign.colour: unknown key"),
])
def test_bad_campaign_values(campaign: dict[str, Any], message: str) -> None:
    assert fails({"campaign": campaign, "steps": []}).startswith(message)


@pytest.mark.parametrize(("step", "message"), [
    ({"do": ["undo"]}, "step 1: do: expected text, got ['undo']"),
    ({"do": 3}, "step 1: do: expected text, got 3"),
    ({"move": "directly_engage", "dice": ["x"]},
     "step 1: dice[0]: expected a list of whole numbers like [3, 5], or one list per roll"
     " like [[1, 2], [5, 6]], got 'x'"),
    ({"move": "directly_engage", "dice": [[1, 2], "x"]}, "step 1: dice"),
    ({"move": "directly_engage", "dice": [1.5, 2]}, "step 1: dice[0]: expected a list of"),
    ({"move": "directly_engage", "spend_team": float("nan")},
     "step 1: spend_team: expected a whole number from 0 to 100, got nan"),
    ({"move": "directly_engage", "spend_team": 10**9},
     "step 1: spend_team: expected a whole number from 0 to 100, got 1000000000"),
    ({"move": "directly_engage", "spend_team": True},
     "step 1: spend_team: expected a whole number from 0 to 100, got True"),
    ({"do": "advance_threat", "threat": "x", "delta": float("inf")},
     "step 1: delta: expected a whole number from -100 to 100, got inf"),
    ({"do": "frame_scene", "reroll": -1}, "step 1: reroll: expected a whole number from 0"),
    ({"fiction": 12}, "step 1: fiction: expected text, got 12"),
    ({"fiction": {"a": 1}}, "step 1: fiction: expected text, got {'a': 1}"),
    ({"do": "narrate", "text": ["x"]}, "step 1: text: expected text, got ['x']"),
    ({"do": "start_scene", "present": [1]}, "step 1: present: expected text or a list of texts"),
    ({"do": "end_scene", "cleared": {"angry": 1}}, "step 1: cleared: expected text or a list"),
    ({"move": "directly_engage", "choose": [{"a": 1}]},
     "step 1: choose: expected one entry per prompt, each an id or a list of ids"),
    ({"move": "directly_engage", "params": {"complexity": "2"}},
     "step 1: params.complexity: expected a whole number, got '2'"),
    ({"move": "directly_engage", "params": [1]}, "step 1: params: expected a mapping of names"),
    ({"move": "directly_engage", "auto": "yes"}, "step 1: auto: expected true or false, got"),
    ({"move": "directly_engage", "stat": [1]}, "step 1: stat: expected text, got [1]"),
    ({"move": "directly_engage", "colour": "red"}, "step 1: unknown key(s) colour; a step takes"),
    ({"do": "dance"}, "step 1: unknown action 'dance'; actions: add_fact, add_hero, add_npc,"),
    ({"fiction": "x" * 20_001}, "step 1: fiction: expected shorter text"),
])
def test_bad_step_values(step: dict[str, Any], message: str) -> None:
    assert fails({"campaign": CAMPAIGN, "steps": [step]}).startswith(message)


def test_steps_are_checked_before_the_campaign_is_created(tmp_path: Path) -> None:
    data = {"campaign": CAMPAIGN, "steps": [{"do": "narrate", "text": "ok"}, {"dice": "x"}]}
    assert fails(data, saves=tmp_path).startswith("step 2: dice: expected")
    assert not any(tmp_path.iterdir())  # nothing was made on disk


@pytest.mark.parametrize(("data", "message"), [
    ({"campaign": CAMPAIGN, "steps": [7]}, "step 1: expected a mapping of keys like 'fiction'"),
    ({"campaign": CAMPAIGN, "steps": "do: undo"}, "'steps' is a list of steps, got 'do: undo'"),
    ({"campaign": [1], "steps": []}, "'campaign' is a mapping (name, system, seed, hero, npcs)"),
    ({"campaign": CAMPAIGN, "title": "x"}, "unknown top-level key(s) title; a script has"),
])
def test_bad_script_shapes(data: dict[str, Any], message: str) -> None:
    assert fails(data).startswith(message)


@pytest.mark.parametrize(("step", "message"), [
    ({"move": "directly_engage", "stat": "freak", "dice": [6, 6]},
     "rolls with danger, not 'freak'"),
    ({"do": "oracle", "question": "Is it?", "roll": False},
     "'roll' on an oracle step is the d100 you rolled"),
    ({"move": "suggested"}, "'move: suggested' needs 'fiction' to suggest a move from"),
    ({"do": "oracle", "question": "Is it?", "roll": 10**9}, "a d100 shows 1 to 100"),
    ({"move": "directly_engage", "dice": [10**9, 1]}, "a d6 shows 1 to 6"),
])
def test_typed_values_the_engine_refuses_are_named_by_step(step: dict[str, Any],
                                                           message: str) -> None:
    msg = fails({"campaign": CAMPAIGN, "steps": [{"do": "start_scene"}, step]})
    assert msg.startswith("step 2 (") and message in msg


def test_ids_may_be_written_as_numbers() -> None:
    step = parse_steps([{"move": "assess_situation", "dice": [5, 5], "choose": [[1, 2]]}])[0]
    assert isinstance(step, Step) and step.choose == [[1, 2]]
    events: list[dict[str, Any]] = []
    run_script({"campaign": CAMPAIGN, "steps": [
        {"do": "start_scene"},
        {"fiction": "I look around", "move": "assess_situation", "dice": [5, 5],
         "choose": [[1, 2]]}]}, saves=None, content=[], campaign=None, emit=events.append)
    assert any(e["type"] == "OutcomeReached" for e in events)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_every_example_still_runs(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["script", str(path), "--dry-run"]) == 0
    assert capsys.readouterr().err == ""


# --------------------------------------------------------------------------- the files


def write(tmp_path: Path, text: str, name: str = "s.yaml") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def run_file(capsys: pytest.CaptureFixture[str], path: str) -> str:
    code = main(["script", path, "--dry-run"])
    err = capsys.readouterr().err
    assert code == 1 and err.startswith("sidekick: error: ") and "Traceback" not in err
    return err


def billion_laughs() -> str:
    lines = ["campaign: {}", "steps:", "  - comment: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    for i in range(1, 9):
        lines.append(f"  - comment: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]")
    return "\n".join(lines) + "\n"


def test_an_alias_bomb_is_refused_at_once(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    start = time.monotonic()
    err = run_file(capsys, write(tmp_path, billion_laughs()))
    assert "script refused: the document expands to more than 200,000 values" in err
    assert time.monotonic() - start < 5


@pytest.mark.parametrize(("text", "fragment"), [
    ("campaign: &c {steps: *c}\n", "an alias contains itself"),
    ("campaign: {seed: " + "9" * 5000 + "}\n", "not valid YAML: a number has more than 4,300"),
    ("campaign: {}\nsteps: [{spend_team: .nan, move: directly_engage}]\n",
     "step 1: spend_team: expected a whole number from 0 to 100, got nan"),
    ("campaign: {}\nsteps: [{do: [undo]}]\n", "step 1: do: expected text, got ['undo']"),
])
def test_bad_yaml_scripts(tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str,
                          fragment: str) -> None:
    assert fragment in run_file(capsys, write(tmp_path, text))


@pytest.mark.parametrize(("text", "fragment"), [
    ('{"campaign": {}, "steps": [{"spend_team": NaN, "move": "x"}]}', "got nan"),
    ("[" * 100_000 + "]" * 100_000, "script refused: nested too deeply"),
    ('{"campaign": {"seed": ' + "9" * 5000 + "}}", "a number has more than 4,300 digits"),
])
def test_bad_json_scripts(tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str,
                          fragment: str) -> None:
    assert fragment in run_file(capsys, write(tmp_path, text, "s.json"))


def test_shared_aliases_still_work(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = yaml.safe_dump({"campaign": CAMPAIGN}) + (
        "steps:\n  - &scene {do: start_scene, title: Pier}\n  - *scene\n")
    assert main(["script", write(tmp_path, text), "--dry-run"]) == 0
    out = capsys.readouterr().out
    scenes = [e for e in map(json.loads, out.splitlines()) if e["type"] == "SceneStarted"]
    assert [e["title"] for e in scenes][-2:] == ["Pier", "Pier"]


def test_script_error_is_an_engine_error() -> None:
    assert issubclass(ScriptError, EngineError)


def test_a_dice_mode_step_switches_the_campaign_dice() -> None:
    game = run_script({"campaign": CAMPAIGN, "steps": [
        {"do": "start_scene"}, {"do": "dice_mode", "text": "physical"}]},
        saves=None, content=[], campaign=None, emit=lambda e: None)
    assert game.state.dice_mode == "physical"
    msg = fails({"campaign": CAMPAIGN, "steps": [
        {"do": "start_scene"}, {"do": "dice_mode", "text": "physical"},
        {"move": "directly_engage"}]})
    assert msg.startswith("step 3 (") and "enter the faces you rolled" in msg
    msg = fails({"campaign": CAMPAIGN, "steps": [{"do": "dice_mode", "text": "loaded"}]})
    assert "dice mode must be one of seeded, physical, mixed, not 'loaded'" in msg


def test_a_move_that_needs_a_target_says_how_to_name_it() -> None:
    msg = fails({"campaign": CAMPAIGN, "steps": [{"do": "start_scene"},
                                                 {"move": "provoke", "dice": [6, 6]}]})
    assert msg == "step 2 (move: provoke): provoke needs a target: add 'target: NAME'"
    assert "target: none" not in msg


def test_a_suggested_move_takes_the_target_the_fiction_names() -> None:
    game = run_script({"campaign": CAMPAIGN, "steps": [
        {"do": "start_scene"},
        {"fiction": "I study Dusk. What is he hiding behind that grin?", "move": "suggested",
         "dice": [6, 6], "choose": [[0, 1, 2]]}]},
        saves=None, content=[], campaign=None, emit=lambda e: None)
    [triggered] = [e for e in game.store.events() if e.get("type") == "MoveTriggered"]
    assert (triggered["move"], triggered["target"]) == ("pierce_the_mask", "dusk")


def test_move_suggested_for_plain_fiction_is_just_fiction() -> None:
    game = run_script({"campaign": CAMPAIGN, "steps": [
        {"do": "start_scene"},
        {"fiction": "I brush my teeth and go to bed", "move": "suggested"}]},
        saves=None, content=[], campaign=None, emit=lambda e: None)
    assert not [e for e in game.store.events() if e.get("type") == "MoveTriggered"]
    assert game.state.flow.stage == "fiction"
