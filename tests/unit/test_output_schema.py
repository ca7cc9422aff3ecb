"""What the command line prints as JSON validates against the published schemas of those values
(docs/schema/output/): every event line of the bundled example scripts of every game, the
campaign list, the odds, the rolls and the lab's summary; a line that breaks the shape fails;
``sidekick schema`` writes the schemas and the committed copies are current."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from engine.cli import main
from engine.outputs import LOGGED, event_types
from engine.systems import RULESETS
from tests.unit.schema_shape import shape

jsonschema = pytest.importorskip("jsonschema")

ROOT = Path(__file__).resolve().parents[2]
OUTPUT = ROOT / "docs" / "schema" / "output"
EXAMPLES = sorted((ROOT / "examples").glob("*.yaml"))
Capsys = pytest.CaptureFixture[str]


def _schema(name: str) -> dict[str, Any]:
    schema: dict[str, Any] = json.loads((OUTPUT / f"{name}.schema.json").read_text(
        encoding="utf-8"))
    return schema


def _validator(name: str) -> Any:
    schema = _schema(name)
    jsonschema.Draft7Validator.check_schema(schema)
    return jsonschema.Draft7Validator(schema)


def _problems(validator: Any, value: Any) -> list[str]:
    return [f"{list(e.absolute_path)}: {e.message[:200]}" for e in validator.iter_errors(value)]


def _json_lines(capsys: Capsys, *argv: str) -> list[Any]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert (code, err) == (0, ""), err
    return [json.loads(line) for line in out.splitlines() if line.strip()]


@pytest.fixture(scope="module")
def events() -> Any:
    return _validator("event")


def _event_problems(validator: Any, line: dict[str, Any]) -> list[str]:
    """The problems of an event line, against its own type's definition when it has one (so
    a failure says which field, not only that no branch of the union fits)."""
    problems = _problems(validator, line)
    own = validator.schema["definitions"].get(line.get("type"))
    if problems and own is not None:
        problems += _problems(jsonschema.Draft7Validator(own), line)
    return problems


# ------------------------------------------------------------------ sidekick script


@pytest.mark.parametrize("script", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_every_event_line_of_the_examples_validates(script: Path, events: Any,
                                                   capsys: Capsys) -> None:
    lines = _json_lines(capsys, "script", str(script), "--dry-run", "--all-events")
    assert lines, "the script printed no event"
    bad = {}
    for i, line in enumerate(lines):
        problems = _event_problems(events, line)
        if problems:
            bad[f"line {i + 1} ({line.get('type')})"] = problems
    assert bad == {}


def test_the_examples_cover_every_game() -> None:
    games = {p.stem.split("-")[0] for p in EXAMPLES}
    assert {"masks", "cow", "mm3e", "panels"} <= games


def test_the_lines_carry_every_field_of_their_type(events: Any, capsys: Capsys) -> None:
    """The full form: an event's optional and derived fields are on the line even at their
    defaults (a move's ``Rolled`` has ``against``, ``kept`` and ``band_name``)."""
    lines = _json_lines(capsys, "script", str(ROOT / "examples" / "masks-first-scene.yaml"),
                        "--dry-run")
    rolled = next(line for line in lines if line["type"] == "Rolled")
    assert {"against", "kept", "band_name", "raw_modifier", *LOGGED} <= set(rolled)
    assert rolled["against"] is None
    definition = events.schema["definitions"]["Rolled"]
    assert set(rolled) == set(definition["properties"]) == set(definition["required"])


@pytest.mark.parametrize(("break_it", "why"), [
    (lambda e: e.update(type="Teleported"), "an unknown event type"),
    (lambda e: e.update(total="seven"), "a field of the wrong type"),
    (lambda e: e.update(faces=[1, "2"]), "a list item of the wrong type"),
    (lambda e: e.pop("band_name"), "a derived field left out"),
    (lambda e: e.pop("acting_id"), "acting_id left out"),
    (lambda e: e.update(n="1"), "an event number that is not a number"),
    (lambda e: e.update(colour="red"), "a key the type does not have"),
    (lambda e: e.update(bands=[{"id": "miss"}]), "a band without its keys"),
])
def test_a_broken_line_fails(events: Any, capsys: Capsys, break_it: Any, why: str) -> None:
    lines = _json_lines(capsys, "script", str(ROOT / "examples" / "masks-first-scene.yaml"),
                        "--dry-run")
    rolled = next(line for line in lines if line["type"] == "Rolled")
    assert _problems(events, rolled) == []
    broken = copy.deepcopy(rolled)
    break_it(broken)
    assert _problems(events, broken), why


def test_one_definition_per_event_type_of_every_ruleset() -> None:
    schema = _schema("event")
    known = event_types()
    assert set(schema["definitions"]) == set(known)
    assert schema["properties"]["type"]["enum"] == sorted(known)
    assert [b["if"]["properties"]["type"]["const"] for b in schema["allOf"]] == sorted(known)
    for kind, (cls, rulesets) in known.items():
        body = schema["definitions"][kind]
        assert body["properties"]["type"] == {"const": kind}
        assert set(body["required"]) == {"type", *cls._names, *LOGGED}, kind
        assert body["additionalProperties"] is False
        assert set(rulesets) <= set(RULESETS)
    # every ruleset's own events are in: M&M's and the panels game's fights, City's heat
    assert {"Rolled", "FlowChanged", "ActionStarted"} <= set(known)
    assert any(set(r) == {"mm3e"} for _, r in known.values())
    assert any(set(r) == {"city_of_whispers"} for _, r in known.values())


# ------------------------------------------------------------------ list, odds, roll, lab


def test_list_rows_validate(tmp_path: Path, capsys: Capsys) -> None:
    saves = str(tmp_path / "saves")
    for name in ("Night Shift", "Day Shift"):
        assert main(["--saves", saves, "new", name, "--archetype", "signal_fire",
                     "--seed", "3"]) == 0
    capsys.readouterr()
    damaged = tmp_path / "saves" / "day-shift" / "campaign.json"
    damaged.write_text("garbage{", encoding="utf-8")
    rows = _json_lines(capsys, "--saves", saves, "list", "--json")
    assert len(rows) == 2 and any(r["error"] for r in rows)  # a damaged row too
    validator = _validator("list")
    for row in rows:
        assert _problems(validator, row) == []
    broken = {**rows[0], "error": 3}
    assert _problems(validator, broken)
    assert _problems(validator, {k: v for k, v in rows[0].items() if k != "hero"})


@pytest.mark.parametrize("argv", [
    ["odds", "directly_engage"],
    ["odds", "directly_engage", "-m", "-7"],
    ["odds", "2d6", "--advantage", "advantage"],
    ["odds", "d20", "--system", "mutants-and-masterminds"],
])
def test_odds_validate(capsys: Capsys, argv: list[str]) -> None:
    validator = _validator("odds")
    [line] = _json_lines(capsys, *argv, "--json")
    assert _problems(validator, line) == []
    assert _problems(validator, {**line, "odds": {"miss": 0.5}})
    assert _problems(validator, {**line, "modifier": "+1"})


@pytest.mark.parametrize("argv", [
    ["roll", "2d6+1", "--seed", "4", "--times", "3"],
    ["roll", "3d6kh2", "--seed", "2"],
    ["roll", "d20+5", "--dc", "15", "--seed", "1"],
    ["roll", "d20+16", "--dc", "15", "--seed", "1", "--system", "mutants-and-masterminds"],
    ["roll", "2d6"],
])
def test_roll_lines_validate(capsys: Capsys, argv: list[str]) -> None:
    validator = _validator("roll")
    lines = _json_lines(capsys, *argv, "--json")
    assert lines
    for line in lines:
        assert _problems(validator, line) == []
        assert _problems(validator, {**line, "faces": "4,3"})
        assert _problems(validator, {k: v for k, v in line.items() if k != "seed"})


def test_roll_json_says_what_the_text_says(capsys: Capsys) -> None:
    """The same rolls as the text lines, with the seed and the check's result."""
    [line] = _json_lines(capsys, "roll", "d20+5", "--dc", "15", "--seed", "1", "--json")
    main(["roll", "d20+5", "--dc", "15", "--seed", "1"])
    text = capsys.readouterr().out
    assert f"= {line['total']} vs DC 15" in text
    word = "success" if line["success"] else "failure"
    assert f"{word}, {line['degrees']} degree" in text
    assert line["seed"] == 1 and line["faces"] == line["kept"] and line["dropped"] == []
    [plain] = _json_lines(capsys, "roll", "3d6kh2", "--seed", "2", "--json")
    assert (plain["dc"], plain["success"], plain["degrees"]) == (None, None, None)
    assert len(plain["faces"]) == 3 and len(plain["kept"]) == 2 and len(plain["dropped"]) == 1


@pytest.mark.parametrize("system", ["masks", "mutants-and-masterminds"])
def test_the_lab_summary_validates(capsys: Capsys, system: str) -> None:
    validator = _validator("lab-summary")
    [summary] = _json_lines(capsys, "lab", "--system", system, "--runs", "2", "--scenes", "1",
                            "--moves", "2", "--workers", "1", "--json")
    assert _problems(validator, summary) == []
    assert _problems(validator, {**summary, "campaigns": "2"})
    assert _problems(validator, {k: v for k, v in summary.items() if k != "headline"})


# ------------------------------------------------------------------ the committed copies


def test_the_published_output_schemas_are_current(tmp_path: Path, capsys: Capsys) -> None:
    assert main(["schema", "--out", str(tmp_path)]) == 0
    written = {Path(p).relative_to(tmp_path).as_posix() for p in capsys.readouterr().out.split()}
    made = sorted(p.name for p in (tmp_path / "output").glob("*.schema.json"))
    committed = sorted(p.name for p in OUTPUT.glob("*.schema.json"))
    assert made == committed, "run: sidekick schema --out docs/schema"
    assert {f"output/{name}" for name in made} <= written
    assert {"event.schema.json", "list.schema.json", "odds.schema.json", "roll.schema.json",
            "lab-summary.schema.json", "lab-duel.schema.json"} == set(made)
    for name in made:
        new = json.loads((tmp_path / "output" / name).read_text(encoding="utf-8"))
        old = json.loads((OUTPUT / name).read_text(encoding="utf-8"))
        assert shape(new) == shape(old), (
            f"docs/schema/output/{name} is stale: run sidekick schema --out docs/schema")
        assert new["$id"] == old["$id"] and new["$schema"] == old["$schema"]


def test_a_stale_copy_is_caught() -> None:
    """The comparison sees a field added or a type changed, not a description reworded."""
    schema = _schema("event")
    reworded = copy.deepcopy(schema)
    reworded["definitions"]["Rolled"]["description"] = "Something else."
    assert shape(reworded) == shape(schema)
    added = copy.deepcopy(schema)
    added["definitions"]["Rolled"]["properties"]["luck"] = {"type": "integer"}
    assert shape(added) != shape(schema)
    retyped = copy.deepcopy(schema)
    retyped["definitions"]["Rolled"]["properties"]["total"] = {"type": "string"}
    assert shape(retyped) != shape(schema)
    fewer = copy.deepcopy(schema)
    del fewer["definitions"]["Rolled"]
    assert shape(fewer) != shape(schema)
