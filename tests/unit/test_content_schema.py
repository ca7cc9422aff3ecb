"""Every content file has a model (a game's own files too: actions.yaml, characters.yaml,
crits.yaml, found through the ruleset's ``CONTENT_FILES``); ``sidekick validate`` refuses an
unknown key, a missing key or a wrong type naming the file, the line and the key; ``sidekick
schema`` publishes each model as a JSON Schema, the copies in docs/schema/ are current and every
bundled file passes its schema; no YAML value makes the actions.yaml checks raise."""

from __future__ import annotations

import dataclasses
import itertools
import json
import shutil
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.checks import published_schemas
from engine.cli import main
from engine.content.loader import PACK_FILES, Pack, load_pack
from engine.content.publish import schema_name
from engine.content.validation import file_problems
from engine.systems import RULESETS, ruleset_class
from tests.unit.schema_shape import shape

ROOT = Path(__file__).resolve().parents[2]
CONTENT = ROOT / "content"
SCHEMA_DIR = ROOT / "docs" / "schema"
MM3E = "mutants-and-masterminds"
PANELS = "panels"
BUNDLED = sorted(p.name for p in CONTENT.iterdir() if (p / "system.yaml").is_file())


def _ruleset(pack: Path) -> str:
    ruleset: str = yaml.safe_load((pack / "system.yaml").read_text(encoding="utf-8"))["ruleset"]
    return ruleset


def _copy(tmp_path: Path, pack: str) -> Path:
    dest = tmp_path / pack
    shutil.copytree(CONTENT / pack, dest)
    return dest


def _validate(folder: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(["validate", str(folder)])
    return code, capsys.readouterr().err


# ------------------------------------------------------------------ the bundled packs


@pytest.mark.parametrize("pack", BUNDLED)
def test_the_bundled_packs_validate_clean(pack: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, err = _validate(CONTENT / pack, capsys)
    assert (code, err) == (0, "")


def test_the_games_that_add_files_register_their_models() -> None:
    files = {name: sorted(ruleset_class(name).CONTENT_FILES) for name in RULESETS}
    assert files["mm3e"] == ["actions.yaml", "characters.yaml"]
    assert files["panels"] == ["actions.yaml", "characters.yaml", "crits.yaml"]
    assert files["masks"] == files["city_of_whispers"] == files["generic"] == []
    for pack in BUNDLED:  # every file of every bundled pack has a model
        folder = CONTENT / pack
        known = set(PACK_FILES) | set(ruleset_class(_ruleset(folder)).CONTENT_FILES)
        assert {f.name for f in folder.glob("*.yaml")} <= known, pack


# ------------------------------------------------------------------ broken copies

# (pack, file, text to find, its replacement, the key path, what is wrong, the text whose
# line the problem is on); the line is looked up in the broken file
BREAKS = [
    # M&M actions.yaml
    (MM3E, "actions.yaml", "    cost: standard\n", "    cost: standard\n    speed: fast\n",
     "actions.aid.speed", "unknown key", "    speed: fast"),
    (MM3E, "actions.yaml", "  aim:\n    name: Aim\n", "  aim:\n", "actions.aim.name",
     "required key is missing", "  aim:\n    cost:"),
    (MM3E, "actions.yaml", "  aim:\n    name: Aim\n", "  aim:\n    name: [Aim]\n",
     "actions.aim.name", "expected text, got ['Aim']", "    name: [Aim]"),
    (MM3E, "actions.yaml", "  aim:\n    name: Aim\n    cost: standard\n",
     "  aim:\n    name: Aim\n    cost: 2\n", "actions.aim.cost",
     "expected one of 'standard', 'move', 'free', 'reaction' or 'none', got 2", "    cost: 2"),
    (MM3E, "actions.yaml", "  accurate:\n    name: Accurate attack\n",
     "  accurate:\n    name: Accurate attack\n    examples: [aim well]\n",
     "maneuvers.accurate.examples", "unknown key", "    examples: [aim well]"),
    (MM3E, "actions.yaml", "actions:\n", "actions: 3\nactionz:\n", "actions",
     "expected a mapping, got 3", "actions: 3"),
    # M&M characters.yaml
    (MM3E, "characters.yaml", "    power_level: 10\n", "    power_level: 10\n    cape: red\n",
     "characters[0] (Keystone).cape", "unknown key", "    cape: red"),
    (MM3E, "characters.yaml", "    power_level: 10\n", "    power_level: ten\n",
     "characters[0] (Keystone).power_level", "expected a whole number, got 'ten'",
     "    power_level: ten"),
    (MM3E, "characters.yaml", "    power_level: 10\n", "", "characters[0] (Keystone).power_level",
     "required key is missing", "  - name: Keystone"),
    # panels actions.yaml
    (PANELS, "actions.yaml", "    cost: 1\n    kind: action\n",
     "    cost: 1\n    kind: action\n    panels: 2\n", "actions.attack.panels", "unknown key",
     "    panels: 2"),
    (PANELS, "actions.yaml", "    cost: 1\n    kind: action\n", "    kind: action\n",
     "actions.attack.cost", "required key is missing", "  attack:\n    name:"),
    (PANELS, "actions.yaml", "    cost: 1\n    kind: action\n", "    cost: one\n    kind: action\n",
     "actions.attack.cost", "expected a whole number, got 'one'", "    cost: one"),
    (PANELS, "actions.yaml", "    kind: response\n", "    kind: reaction\n", "actions.dodge.kind",
     "expected one of 'action' or 'response', got 'reaction'", "    kind: reaction"),
    # panels characters.yaml
    (PANELS, "characters.yaml", "    kill: ", "    lives: 9\n    kill: ",
     "characters[0] (Rivet).lives", "unknown key", "    lives: 9"),
    (PANELS, "characters.yaml", "    kind: hero\n", "    kind: [hero]\n",
     "characters[0] (Rivet).kind", "expected one of", "    kind: [hero]"),
    # panels crits.yaml
    (PANELS, "crits.yaml", "    d6: 2\n", "    d6: 2\n    weight: 3\n",
     "critical_hit[1] (knocked_flat).weight", "unknown key", "    weight: 3"),
    (PANELS, "crits.yaml", "    d6: 2\n", "    d6: two\n", "critical_hit[1] (knocked_flat).d6",
     "expected a whole number, got 'two'", "    d6: two"),
    (PANELS, "crits.yaml", "    effect: max_damage\n", "",
     "critical_hit[5] (clean_strike).effect", "required key is missing", "  - id: clean_strike"),
]


@pytest.mark.parametrize(("pack", "file", "old", "new", "key", "what", "on"), BREAKS,
                         ids=[f"{b[0][:6]}-{b[1]}-{b[4]}" for b in BREAKS])
def test_validate_names_the_file_the_line_and_the_key(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], pack: str, file: str, old: str,
        new: str, key: str, what: str, on: str) -> None:
    folder = _copy(tmp_path, pack)
    path = folder / file
    text = path.read_text(encoding="utf-8")
    assert old in text
    text = text.replace(old, new, 1)
    path.write_text(text, encoding="utf-8")
    line = text.count("\n", 0, text.index(on)) + 1
    if on.endswith(":") and "\n" in on:  # a missing key: the line its mapping starts on
        line += on.count("\n")
    code, err = _validate(folder, capsys)
    assert code == 1
    expected = f"  {path}:{line}: {key}: {what}"
    assert any(row.startswith(expected) for row in err.splitlines()), err


def test_the_line_of_a_missing_key_is_its_mappings(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    folder = _copy(tmp_path, MM3E)
    path = folder / "actions.yaml"
    text = path.read_text(encoding="utf-8").replace("  aim:\n    name: Aim\n", "  aim:\n", 1)
    path.write_text(text, encoding="utf-8")
    _code, err = _validate(folder, capsys)
    line = text.count("\n", 0, text.index("  aim:\n")) + 2  # aim's first key
    assert f"actions.yaml:{line}: actions.aim.name: required key is missing" in err


def test_the_rules_checks_stay_and_name_the_line(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """What no model can say: the rules' ids, the rules' costs, the rules' crit tables."""
    mm3e = _copy(tmp_path, MM3E)
    path = mm3e / "actions.yaml"
    text = path.read_text(encoding="utf-8").replace("  aim:\n", "  aimm:\n", 1)
    text = text.replace("  attack:\n    name: Attack\n    cost: standard\n",
                        "  attack:\n    name: Attack\n    cost: move\n", 1)
    path.write_text(text, encoding="utf-8")
    panels = _copy(tmp_path, PANELS)
    crits = panels / "crits.yaml"
    ctext = crits.read_text(encoding="utf-8").replace("effect: extra_die", "effect: max_damage")
    crits.write_text(ctext, encoding="utf-8")
    code, err = _validate(mm3e, capsys)
    assert code == 1
    aimm = text.count("\n", 0, text.index("  aimm:")) + 1
    assert f"{path}:{aimm}: actions.aimm: unknown action id (known: aid, aim," in err
    cost = text.count("\n", 0, text.index("    cost: move\n", text.index("  attack:"))) + 1
    assert (f"{path}:{cost}: actions.attack.cost: 'move', but the rules charge 'standard' for it"
            in err)
    code, err = _validate(panels, capsys)
    assert code == 1
    line = ctext.count("\n", 0, ctext.index("effect: max_damage")) + 1
    assert (f"{crits}:{line}: critical_hit[0] (crushing_blow).effect: Crushing blow"
            " (max_damage), but the rules' critical hit on a 1 is Crushing blow (extra_die)"
            in err)


def test_a_broken_file_is_not_read_twice_over(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    """A shape problem is reported once, by the model, not again by the rules' own checks."""
    folder = _copy(tmp_path, MM3E)
    chars = folder / "characters.yaml"
    text = chars.read_text(encoding="utf-8").replace("    power_level: 10\n",
                                                     "    power_level: 10\n    cape: red\n", 1)
    chars.write_text(text, encoding="utf-8")
    _code, err = _validate(folder, capsys)
    assert err.count("cape") == 1, err


# ------------------------------------------------------------------ published schemas


def test_the_published_schemas_are_current(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    """Compared by shape (definitions, property and required names, unknown keys allowed or
    not), not by text: another pydantic version may word or order the same schema otherwise."""
    assert main(["schema", "--out", str(tmp_path)]) == 0
    written = capsys.readouterr().out.split()
    made = sorted(p.name for p in tmp_path.glob("*.schema.json"))
    committed = sorted(p.name for p in SCHEMA_DIR.glob("*.schema.json"))
    assert made == committed, "run: sidekick schema --out docs/schema"
    assert sorted(Path(p).name for p in written if Path(p).parent == tmp_path) == made
    for name in made:
        new = json.loads((tmp_path / name).read_text(encoding="utf-8"))
        old = json.loads((SCHEMA_DIR / name).read_text(encoding="utf-8"))
        assert shape(new, types=False) == shape(old, types=False), (
            f"docs/schema/{name} is stale: run sidekick schema --out docs/schema")
        assert (new["$id"], new["$schema"]) == (old["$id"], old["$schema"]), name


def test_each_schema_says_what_it_is() -> None:
    schemas = published_schemas()
    assert {"system.schema.json", "moves.schema.json", "gm.schema.json", "tables.schema.json",
            "narration.schema.json", "examples.schema.json", "mm3e-actions.schema.json",
            "mm3e-characters.schema.json", "panels-actions.schema.json",
            "panels-characters.schema.json", "panels-crits.schema.json"} == set(schemas)
    ids = set()
    for name, schema in schemas.items():
        assert schema["$id"].endswith(name.removesuffix(".schema.json")), name
        assert schema["title"].startswith("Sidekick content pack: ") and schema["description"]
        assert schema["additionalProperties"] is False, name  # unknown keys are errors
        ids.add(schema["$id"])
    assert len(ids) == len(schemas)
    assert (SCHEMA_DIR / "README.md").is_file()


def test_the_action_ids_an_editor_offers_are_the_fight_engines() -> None:
    from engine.systems.mm3e.pack_files import word_ids as mm3e_ids
    from engine.systems.panels.pack_files import word_ids as panels_ids

    schemas = published_schemas()
    props = schemas["mm3e-actions.schema.json"]["properties"]
    assert props["actions"]["propertyNames"]["enum"] == mm3e_ids()["actions"]
    assert props["maneuvers"]["propertyNames"]["enum"] == mm3e_ids()["maneuvers"]
    assert "readied" not in mm3e_ids()["actions"]  # an internal step, never named
    props = schemas["panels-actions.schema.json"]["properties"]
    assert props["actions"]["propertyNames"]["enum"] == panels_ids()
    assert {"recover", "dodge", "parry"} <= set(panels_ids())  # words by alias; responses


def _schema_for(pack: Path, file: str) -> str:
    return schema_name(file) if file in PACK_FILES else schema_name(file, _ruleset(pack))


BUNDLED_FILES = [(pack, f.name) for pack in BUNDLED
                 for f in sorted((CONTENT / pack).glob("*.yaml"))]


@pytest.mark.parametrize(("pack", "file"), BUNDLED_FILES)
def test_every_bundled_file_passes_its_published_schema(pack: str, file: str) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((SCHEMA_DIR / _schema_for(CONTENT / pack, file)).read_text(
        encoding="utf-8"))
    jsonschema.Draft7Validator.check_schema(schema)
    data = yaml.safe_load((CONTENT / pack / file).read_text(encoding="utf-8"))
    errors = [e.message for e in jsonschema.Draft7Validator(schema).iter_errors(data)]
    assert errors == []


@pytest.mark.parametrize(("pack", "file", "old", "new", "key", "what", "on"), BREAKS,
                         ids=[f"{b[0][:6]}-{b[1]}-{b[4]}" for b in BREAKS])
def test_a_broken_file_fails_its_published_schema_too(pack: str, file: str, old: str, new: str,
                                                      key: str, what: str, on: str) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((SCHEMA_DIR / _schema_for(CONTENT / pack, file)).read_text(
        encoding="utf-8"))
    text = (CONTENT / pack / file).read_text(encoding="utf-8").replace(old, new, 1)
    assert list(jsonschema.Draft7Validator(schema).iter_errors(yaml.safe_load(text))), key


# ------------------------------------------------------------------ fuzz: no traceback

SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-10, 10**6), st.floats(),
                    st.text(max_size=30))
KEYS = st.one_of(st.sampled_from(["actions", "maneuvers", "attack", "aim", "dodge", "name",
                                  "cost", "summary", "examples", "kind", "grab", "standard"]),
                 st.text(max_size=12))
VALUES = st.recursive(SCALARS, lambda kids: st.one_of(
    st.lists(kids, max_size=4), st.dictionaries(KEYS, kids, max_size=5)), max_leaves=25)
DOCUMENTS = st.one_of(
    VALUES.map(lambda v: yaml.safe_dump(v, allow_unicode=True)),
    st.fixed_dictionaries({"actions": st.dictionaries(KEYS, VALUES, max_size=4)},
                          optional={"maneuvers": VALUES}).map(yaml.safe_dump),
    st.text(max_size=200),
)
_FOLDERS = itertools.count()


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Pack, Path]]:
    """Each d20 pack, loaded once, and a folder for the fuzzed files."""
    return {name: (load_pack(CONTENT / name), tmp_path_factory.mktemp(f"fuzz-{name}"))
            for name in (MM3E, PANELS)}


@pytest.mark.parametrize("game", [MM3E, PANELS])
@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=DOCUMENTS)
def test_no_actions_yaml_makes_the_checks_raise(games: dict[str, tuple[Pack, Path]], game: str,
                                                text: str) -> None:
    pack, base = games[game]
    folder = base / str(next(_FOLDERS))  # a new file each time: nothing read is kept
    folder.mkdir()
    (folder / "actions.yaml").write_text(text, encoding="utf-8")
    rules = ruleset_class(pack.system.ruleset)
    problems = file_problems(folder, rules.CONTENT_FILES)
    problems += rules.check_content(dataclasses.replace(pack, path=folder))
    assert all(isinstance(p, str) and p for p in problems)
