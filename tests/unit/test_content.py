"""Content loading and validation: broken packs give errors that name file, key path and fix."""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml

from engine.campaigns import new_game
from engine.cli import main
from engine.content.loader import Pack, check_bands, discover, get_pack, load_pack
from engine.content.schema import Band
from engine.errors import ContentError

DATA = Path(__file__).resolve().parents[1] / "data"
MASKS_YAML = Path(__file__).resolve().parents[2] / "content" / "masks" / "moves.yaml"
MASKS_MOVES = [m["id"] for m in yaml.safe_load(MASKS_YAML.read_text())["moves"]]
UNLEASH_ROLL = '    roll: {stat: freak}\n    penalised_by_note: "-2 while Hopeless"'

Breaker = Callable[[str, str, str], Path]


@pytest.fixture
def broken(tmp_path: Path, masks_dir: Path) -> Breaker:
    """Copy the Masks pack into tmp_path/masks and replace one exact snippet of one file."""

    def make(file: str, old: str, new: str) -> Path:
        pack = tmp_path / "masks"
        if not pack.exists():
            shutil.copytree(masks_dir, pack)
        text = (pack / file).read_text(encoding="utf-8")
        assert text.count(old) == 1, f"snippet not unique in {file}: {old!r}"
        (pack / file).write_text(text.replace(old, new), encoding="utf-8")
        return pack

    return make


def problems_of(path: Path) -> list[str]:
    """The problems ``load_pack`` reports; its message lists every one of them too."""
    with pytest.raises(ContentError) as err:
        load_pack(path)
    msg = str(err.value)
    assert msg.startswith(f"{path}: the content pack is broken")
    assert all(p in msg for p in err.value.problems)
    return err.value.problems


def at(move_id: str) -> str:
    """The key path of a Masks move in moves.yaml."""
    return f"moves[{MASKS_MOVES.index(move_id)}]"


def line_of(path: Path, snippet: str) -> int:
    """The 1-based line where ``snippet`` starts."""
    text = path.read_text(encoding="utf-8")
    return text[: text.index(snippet)].count("\n") + 1


# --------------------------------------------------------------------------- the good packs


def test_bundled_masks_pack_validates(masks_dir: Path) -> None:
    pack = load_pack(masks_dir)
    assert pack.id == "masks"
    assert len(pack.moves) >= 20
    assert set(pack.stats) == {"danger", "freak", "savior", "superior", "mundane"}
    assert set(pack.conditions) == {"afraid", "angry", "guilty", "hopeless", "insecure"}
    assert pack.system.modifier_clamp == (-3, 4)


def test_minimal_pack_validates() -> None:
    pack = load_pack(DATA / "minimal")
    assert pack.id == "minimal"
    assert list(pack.moves) == ["push", "rest"]
    assert pack.gm_moves == [] and pack.tables == {}


def test_bundled_masks_is_discovered() -> None:
    assert "masks" in discover()


# --------------------------------------------------------------------------- YAML and schema


def test_yaml_syntax_error_names_file_and_line(broken: Breaker) -> None:
    good = '    roll: {stat: danger}\n    penalised_by_note: "-2 while Afraid"'
    pack = broken("moves.yaml", good, good.replace("danger}", "danger"))
    line = line_of(pack / "moves.yaml", "    roll: {stat: danger\n")
    problems = problems_of(pack)
    assert len(problems) == 1
    found = re.match(re.escape(f"{pack / 'moves.yaml'}: line ") + r"(\d+), column \d+:",
                     problems[0])
    assert found, problems[0]
    # the parser reports where it noticed: the broken line or the one after it
    assert line <= int(found.group(1)) <= line + 1
    assert "not valid YAML" in problems[0]
    assert "'}'" in problems[0]  # what the parser expected


def test_yaml_syntax_error_in_a_data_pack() -> None:
    problems = problems_of(DATA / "broken_yaml")
    assert len(problems) == 1
    # the flow mapping opened on line 8 is noticed as unclosed at the next item, line 9
    assert problems[0].startswith(f"{DATA / 'broken_yaml' / 'system.yaml'}: line 9, column")
    assert "not valid YAML" in problems[0]


def test_unknown_key_names_file_key_path_and_line(broken: Breaker) -> None:
    pack = broken("moves.yaml", UNLEASH_ROLL, UNLEASH_ROLL.replace("}", ", bnds: x}"))
    line = line_of(pack / "moves.yaml", "    roll: {stat: freak, bnds: x}")
    problems = problems_of(pack)
    assert problems == [
        f"{pack / 'moves.yaml'}:{line}: {at('unleash_powers')}.roll.bnds: unknown key (check the"
        " spelling; see the README's content format)"
    ]


def test_unknown_key_in_a_data_pack_points_at_its_line() -> None:
    path = DATA / "broken_unknown_key" / "moves.yaml"
    problems = problems_of(DATA / "broken_unknown_key")
    assert len(problems) == 1
    assert problems[0].startswith(f"{path}:{line_of(path, '    colour: red')}: moves[0].colour:")
    assert "unknown key" in problems[0]


def test_missing_required_key(broken: Breaker) -> None:
    pack = broken("moves.yaml", "    name: Unleash your powers\n", "")
    problems = problems_of(pack)
    assert len(problems) == 1
    assert problems[0].startswith(f"{pack / 'moves.yaml'}:")
    assert f"{at('unleash_powers')}.name: required key is missing" in problems[0]


def test_missing_required_key_in_system(broken: Breaker) -> None:
    pack = broken("system.yaml", "ruleset: masks\n", "")
    problems = problems_of(pack)
    assert any(p.startswith(f"{pack / 'system.yaml'}") and "ruleset: required key is missing"
               in p for p in problems)


def test_unknown_effect_type(broken: Breaker) -> None:
    pack = broken(
        "moves.yaml",
        "- {type: forward, amount: 1, against_target: true, expires: session,"
        " reason: they stumbled}",
        "- {type: fwd, amount: 1}")
    line = line_of(pack / "moves.yaml", "- {type: fwd, amount: 1}")
    problems = problems_of(pack)
    assert len(problems) == 1
    p = problems[0]
    assert p.startswith(f"{pack / 'moves.yaml'}:{line}: ")
    assert f"{at('provoke')}.outcomes.weak_hit.choose.options[1].effects[0]" in p
    assert "unknown effect type 'fwd'" in p
    assert "'forward'" in p and "'mark_condition'" in p  # the allowed types


def test_effect_without_type(broken: Breaker) -> None:
    pack = broken("moves.yaml", "- {type: ask, count: 3}", "- {count: 3}")
    problems = problems_of(pack)
    where = f"{at('pierce_the_mask')}.outcomes.strong_hit.effects[0]"
    assert any("an effect needs a 'type' key" in p and where in p for p in problems)


def test_several_problems_are_reported_at_once(broken: Breaker) -> None:
    broken("moves.yaml", UNLEASH_ROLL, UNLEASH_ROLL.replace("}", ", bnds: x}"))
    pack = broken("system.yaml", "gm_title: GM\n", "gm_title: GM\nflavour: grim\n")
    problems = problems_of(pack)
    assert len(problems) == 2
    assert any("system.yaml" in p and "flavour" in p for p in problems)
    assert any("moves.yaml" in p and "bnds" in p for p in problems)


def test_wrong_value_type(broken: Breaker) -> None:
    pack = broken("system.yaml", "    penalty: -2\n    penalises: [unleash_powers]",
                  "    penalty: lots\n    penalises: [unleash_powers]")
    problems = problems_of(pack)
    assert len(problems) == 1
    assert "system.yaml" in problems[0] and "conditions[3].penalty" in problems[0]  # hopeless
    assert problems[0].endswith("expected a whole number, got 'lots'")


def test_empty_file_and_missing_files(tmp_path: Path) -> None:
    shutil.copytree(DATA / "minimal", tmp_path / "p")
    (tmp_path / "p" / "moves.yaml").write_text("")
    problems = problems_of(tmp_path / "p")
    assert problems == [f"{tmp_path / 'p' / 'moves.yaml'}: the file is empty"]
    (tmp_path / "p" / "moves.yaml").unlink()
    problems = problems_of(tmp_path / "p")
    assert problems == [f"{tmp_path / 'p' / 'moves.yaml'}: required file is missing"]
    with pytest.raises(ContentError, match="not a content pack"):
        load_pack(tmp_path)


# --------------------------------------------------------------------------- cross references


def test_condition_penalises_unknown_move(broken: Breaker) -> None:
    pack = broken("system.yaml", "penalises: [directly_engage]", "penalises: [directly_engagee]")
    problems = problems_of(pack)
    assert len(problems) == 1
    p = problems[0]
    assert p.startswith(f"{pack}/system.yaml: conditions.afraid.penalises:")
    assert "unknown move 'directly_engagee'" in p
    assert "known:" in p and "directly_engage," in p


def test_data_pack_with_broken_references() -> None:
    path = DATA / "broken_refs"
    problems = problems_of(path)
    assert len(problems) == 3
    joined = "\n".join(problems)
    assert f"{path}/system.yaml: conditions.tired.penalises: unknown move 'shove'" in joined
    assert (f"{path}/moves.yaml: moves[0] (push).outcomes.hit.effects: trigger_move names"
            " unknown move 'collapse' (expected one of ['push'])") in joined
    assert (f"{path}/moves.yaml: moves[0] (push).outcomes.miss.effects: unknown track 'heat'"
            " (expected one of ['xp'])") in joined


def test_trigger_move_to_unknown_move(broken: Breaker) -> None:
    pack = broken("moves.yaml", "move: take_powerful_blow}", "move: take_a_powerful_blow}")
    problems = problems_of(pack)
    assert len(problems) == 2  # the option is shared by the 10+ and 7-9 lists
    for band, p in zip(("strong_hit", "weak_hit"), problems, strict=True):
        assert p.startswith(f"{pack}/moves.yaml: {at('overwhelm_foe')} (overwhelm_foe)"
                            f".outcomes.{band}.choose.blow: trigger_move names unknown move"
                            " 'take_a_powerful_blow'")
        assert "expected one of" in p and "'take_powerful_blow'" in p


def test_unknown_condition_in_effect(broken: Breaker) -> None:
    pack = broken("moves.yaml",
                  "- {type: mark_condition, who: target}\n      weak_hit:\n        text: Set one",
                  "- {type: mark_condition, condition: scared, who: target}\n      weak_hit:\n"
                  "        text: Set one")
    problems = problems_of(pack)
    assert len(problems) == 1
    assert (f"{at('provoke')} (provoke).vs_teammate.strong_hit.effects: unknown condition"
            " 'scared'") in problems[0]
    assert "'afraid'" in problems[0]  # what was expected


def test_unknown_stat_in_effect(broken: Breaker) -> None:
    pack = broken("system.yaml", "      - {type: shift_label, by: 1}\n  - id: lock_and_boost",
                  "      - {type: shift_label, stat: dnager, by: 1}\n  - id: lock_and_boost")
    problems = problems_of(pack)
    assert len(problems) == 1
    assert f"{pack}/system.yaml: advancements.label_up: unknown stat 'dnager'" in problems[0]
    assert "'danger'" in problems[0]


def test_bands_with_a_gap(broken: Breaker) -> None:
    pack = broken("system.yaml",
                  "- {id: weak_hit, name: Weak hit, min: 7, max: 9, tone: mixed}",
                  "- {id: weak_hit, name: Weak hit, min: 7, max: 8, tone: mixed}")
    problems = problems_of(pack)
    assert problems == [f"{pack}/system.yaml: bands.default: gap between weak_hit and strong_hit:"
                        " 9..9 fall in no band"]


def test_bands_with_an_overlap(broken: Breaker) -> None:
    pack = broken("system.yaml",
                  "- {id: weak_hit, name: Weak hit, min: 7, max: 9, tone: mixed}",
                  "- {id: weak_hit, name: Weak hit, min: 7, max: 10, tone: mixed}")
    problems = problems_of(pack)
    assert problems == [f"{pack}/system.yaml: bands.default: weak_hit and strong_hit overlap at"
                        " 10..10"]


@pytest.mark.parametrize(
    ("bands", "fragment"),
    [
        ([Band(id="a", name="A", max=6), Band(id="b", name="B", min=8)],
         "gap between a and b: 7..7"),
        ([Band(id="a", name="A", max=7), Band(id="b", name="B", min=7)], "a and b overlap at 7..7"),
        ([Band(id="a", name="A", min=2, max=6), Band(id="b", name="B", min=7)],
         "totals below 2 fall in no band"),
        ([Band(id="a", name="A", max=6), Band(id="b", name="B", min=7, max=12)],
         "totals above 12 fall in no band"),
        ([Band(id="a", name="A", max=6), Band(id="a", name="B", min=7)], "duplicate band ids"),
        ([Band(id="a", name="A"), Band(id="b", name="B", min=7)], "overlap (open bound)"),
        ([], "empty band set"),
    ],
)
def test_check_bands(bands: list[Band], fragment: str) -> None:
    problems = check_bands("x", bands)
    assert any(fragment in p for p in problems), problems
    assert all(p.startswith("bands.x") for p in problems)


def test_check_bands_accepts_a_cover() -> None:
    bands = [Band(id="a", name="A", max=6), Band(id="b", name="B", min=7, max=9),
             Band(id="c", name="C", min=10, max=11), Band(id="d", name="D", min=12)]
    assert check_bands("x", bands) == []
    assert check_bands("x", list(reversed(bands))) == []  # order in the file does not matter


def test_missing_band_outcome(broken: Breaker) -> None:
    pack = broken("moves.yaml",
                  "      miss:\n        text: Your powers get away from you, and the GM says what"
                  " happens instead.\n        effects: *miss_effects\n", "")
    problems = problems_of(pack)
    assert problems == [f"{pack}/moves.yaml: {at('unleash_powers')} (unleash_powers).outcomes:"
                        " no outcome for band 'miss'"]


def test_rolled_move_without_a_miss_outcome(tmp_path: Path) -> None:
    shutil.copytree(DATA / "minimal", tmp_path / "p")
    f = tmp_path / "p" / "moves.yaml"
    text = f.read_text()
    start = text.index("      miss:\n")
    end = text.index("  - id: rest")
    f.write_text(text[:start] + text[end:])
    problems = problems_of(tmp_path / "p")
    assert problems == [f"{tmp_path / 'p'}/moves.yaml: moves[0] (push).outcomes: no outcome for"
                        " band 'miss'"]


def test_outcome_for_a_band_that_does_not_exist(tmp_path: Path) -> None:
    shutil.copytree(DATA / "minimal", tmp_path / "p")
    f = tmp_path / "p" / "moves.yaml"
    f.write_text(f.read_text().replace("      hit:\n        text: You make it.\n",
                                       "      hit:\n        text: You make it.\n"
                                       "      crit:\n        text: Wow.\n"))
    problems = problems_of(tmp_path / "p")
    assert problems == [f"{tmp_path / 'p'}/moves.yaml: moves[0] (push).outcomes.crit: not a band"
                        " of set 'default'"]


def test_archetype_stat_out_of_bounds(broken: Breaker) -> None:
    pack = broken("system.yaml",
                  "stats: {danger: -1, freak: 2, savior: 1, superior: 0, mundane: 1}",
                  "stats: {danger: -1, freak: 5, savior: 1, superior: 0, mundane: 1}")
    problems = problems_of(pack)
    assert problems == [f"{pack}/system.yaml: archetypes.signal_fire.stats.freak: 5 is outside"
                        " -2..3"]


def test_archetype_missing_and_unknown_stats(broken: Breaker) -> None:
    pack = broken("system.yaml",
                  "stats: {danger: -1, freak: 2, savior: 1, superior: 0, mundane: 1}",
                  "stats: {danger: -1, freak: 2, savior: 1, superior: 0, charm: 1}")
    problems = problems_of(pack)
    assert f"{pack}/system.yaml: archetypes.signal_fire.stats: missing ['mundane']" in problems
    assert f"{pack}/system.yaml: archetypes.signal_fire.stats: unknown stats ['charm']" in problems


def test_unknown_track_in_an_effect(broken: Breaker, masks: Pack) -> None:
    snippet = "Team pool.\n      effects:\n        - {type: track, track: team, delta: 1}"
    pack = broken("moves.yaml", snippet, snippet.replace("track: team", "track: teem"))
    problems = problems_of(pack)
    i = list(masks.moves).index("start_of_session")
    assert problems == [f"{pack}/moves.yaml: moves[{i}] (start_of_session).result.effects:"
                        " unknown track 'teem' (expected one of ['potential', 'team'])"]


def test_unknown_roll_stat_and_band_set(broken: Breaker) -> None:
    broken("moves.yaml", UNLEASH_ROLL, UNLEASH_ROLL.replace("freak", "weird"))
    pack = broken("moves.yaml", "    roll: {stat: savior}\n    target: optional",
                  "    roll: {stat: savior, bands: x}\n    target: optional")
    problems = problems_of(pack)
    assert any(f"{at('unleash_powers')} (unleash_powers).roll.stat: unknown stat 'weird'" in p
               and "expected one of" in p for p in problems)
    assert any(f"{at('defend_someone')} (defend_someone).roll.bands: unknown band set 'x'" in p
               and "['default', 'inverted']" in p for p in problems)


def test_duplicate_move_id(broken: Breaker) -> None:
    pack = broken("moves.yaml", "  - id: unleash_powers\n", "  - id: directly_engage\n")
    problems = problems_of(pack)
    assert f"{pack}/moves.yaml: move id 'directly_engage' is used twice" in problems


def test_end_move_must_exist(broken: Breaker) -> None:
    pack = broken("system.yaml", "end_move: end_of_session", "end_move: end_of_sesion")
    problems = problems_of(pack)
    assert problems == [f"{pack}/system.yaml: session.end_move: unknown move 'end_of_sesion'"]


# --------------------------------------------------------------------- broken packs never play


def test_broken_pack_never_starts_a_game(tmp_path: Path, broken: Breaker) -> None:
    broken("system.yaml", "penalises: [directly_engage]", "penalises: [nothing_here]")
    with pytest.raises(ContentError, match="nothing_here"):
        get_pack("masks", [tmp_path])  # tmp_path/masks overrides the bundled pack
    saves = tmp_path / "saves"
    with pytest.raises(ContentError):
        new_game(saves, system="masks", name="Doomed", hero_name="X", archetype="signal_fire",
                 content=[tmp_path])
    assert not saves.exists() or not any(saves.iterdir())


def test_unknown_system() -> None:
    with pytest.raises(ContentError, match=r"unknown game system 'nope'; available: .*masks"):
        get_pack("nope")


# --------------------------------------------------------------------------- sidekick validate


def test_validate_good_pack(capsys: pytest.CaptureFixture[str], masks_dir: Path) -> None:
    assert main(["validate", str(masks_dir), str(DATA / "minimal")]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    assert f"✓ {masks_dir}: Masks: A New Generation" in out
    assert f"✓ {DATA / 'minimal'}: Minimal: 2 moves" in out


def test_validate_default_checks_installed_packs(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate"]) == 0
    assert "Masks: A New Generation" in capsys.readouterr().out


@pytest.mark.parametrize("name", ["broken_yaml", "broken_unknown_key", "broken_refs"])
def test_validate_broken_pack(capsys: pytest.CaptureFixture[str], name: str) -> None:
    assert main(["validate", str(DATA / name)]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert f"✗ {DATA / name}" in err
    assert str(DATA / name) in err.splitlines()[1]  # each problem names its file
    assert "Traceback" not in err


def test_validate_mixed_good_and_broken(capsys: pytest.CaptureFixture[str], masks_dir: Path
                                        ) -> None:
    assert main(["validate", str(masks_dir), str(DATA / "broken_refs")]) == 1
    out, err = capsys.readouterr()
    assert "✓" in out and "Masks" in out
    assert "unknown move 'shove'" in err


def test_an_archetype_that_breaks_the_hero_rules_is_refused(tmp_path: Path) -> None:
    # a fuzz crasher: hero.stat_total changed to 0 passed validate, then no campaign could
    # begin ("Attributes add up to +2; they must add up to +0")
    pack = tmp_path / "city-of-whispers"
    shutil.copytree(Path(__file__).resolve().parents[2] / "content" / "city-of-whispers", pack)
    text = (pack / "system.yaml").read_text()
    data = yaml.safe_load(text)
    data["hero"]["stat_total"] = 0
    (pack / "system.yaml").write_text(yaml.safe_dump(data, sort_keys=False))
    problems = problems_of(pack)
    first = data["archetypes"][0]["id"]
    assert f"{pack / 'system.yaml'}: archetypes.{first}.stats: add up to +2, but" \
           " hero.stat_total is +0" in problems
    assert all("archetypes." in p and "stat_total" in p for p in problems)
