"""`sidekick validate` catches content that would crash or hang in play, parses each file once,
and play itself never hangs or tracebacks on such content (issue 8, items 6 and 7)."""

from __future__ import annotations

import re
import shutil
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.checks import load_checked
from engine.cli import main
from engine.content import loader, yamlio
from engine.content.loader import load_pack, parse_yaml, template_problems
from engine.dice import DiceSpec
from engine.errors import ContentError, EngineError
from engine.game import Game
from engine.gm.scenes import fill
from engine.odds import band_odds

ROOT = Path(__file__).resolve().parents[2]
FLAT = {"danger": 1, "freak": 1, "savior": 1, "superior": 0, "mundane": 0}

Edit = Callable[[dict[str, Any]], None]
Maker = Callable[..., Path]


@pytest.fixture
def pack(tmp_path: Path) -> Maker:
    """``pack(pack_id="masks", **{file: edit})``: a copy of a bundled pack, each named file
    (``moves``, ``gm``, ``system``, ``tables``) loaded, changed by its edit, and written back."""

    def make(pack_id: str = "masks", **edits: Edit) -> Path:
        dst = tmp_path / pack_id
        if not dst.exists():
            shutil.copytree(ROOT / "content" / pack_id, dst)
        for name, edit in edits.items():
            f = dst / f"{name}.yaml"
            data = yaml.safe_load(f.read_text(encoding="utf-8"))
            edit(data)
            f.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True),
                         encoding="utf-8")
        return dst

    return make


def problems_of(path: Path) -> list[str]:
    with pytest.raises(ContentError) as err:
        load_checked(path)  # what `sidekick validate` runs: the pack, its rules and GM
    return err.value.problems


def no_roll_move(mid: str, *effects: dict[str, Any]) -> dict[str, Any]:
    return {"id": mid, "name": mid.replace("_", " ").title(), "trigger": "When testing.",
            "result": {"text": "It happens.", "effects": list(effects)}}


def trigger(mid: str) -> dict[str, Any]:
    return {"type": "trigger_move", "move": mid}


# --------------------------------------------------------------------------- trigger loops


def test_a_move_that_triggers_itself_is_refused(pack: Maker) -> None:
    path = pack(moves=lambda d: d["moves"].append(no_roll_move("echo", trigger("echo"))))
    found = [p for p in problems_of(path) if "echo" in p]
    assert found == [f"{path}/moves.yaml: moves (echo): echo triggers itself: echo -> echo"
                     " (trigger_move effects)"]


def test_moves_that_trigger_each_other_are_refused_once(pack: Maker) -> None:
    def edit(d: dict[str, Any]) -> None:
        d["moves"] += [no_roll_move("ping", trigger("pong")),
                       no_roll_move("pong", {"type": "one_of", "options": [
                           {"id": "a", "text": "again", "effects": [trigger("ping")]},
                           {"id": "b", "text": "stop"}]})]

    found = [p for p in problems_of(pack(moves=edit)) if "loop" in p]
    assert len(found) == 1
    assert "ping -> pong -> ping" in found[0]


def test_a_chain_without_a_loop_is_fine(pack: Maker) -> None:
    def edit(d: dict[str, Any]) -> None:
        d["moves"] += [no_roll_move("one", trigger("two"), trigger("three")),
                       no_roll_move("two", trigger("three")), no_roll_move("three")]

    assert load_pack(pack(moves=edit)).moves["one"]


def test_a_trigger_loop_in_play_is_a_clear_error_not_a_recursion(pack: Maker) -> None:
    path = pack(moves=lambda d: d["moves"].append(no_roll_move("echo", trigger("echo"))))
    p = load_pack(path, check=False)
    game = Game.new(p, name="Loop", hero_name="Nova", archetype=None, stats=FLAT, npcs=[],
                    seed=1)
    before = game.state.model_dump()
    with pytest.raises(ContentError, match="content loop: more than 32 moves triggered"):
        game.trigger("echo")
    assert game.state.model_dump() == before  # all or nothing
    game.narrate("Still playable.")  # the campaign goes on


# --------------------------------------------------------------------------- templates


@pytest.mark.parametrize(("template", "fragment"), [
    ("{hero} stumbles }", "Single '}' encountered"),
    ("{hero stumbles", "expected '}' before end of string"),
    ("{0} strikes", "{0}: positional fields are not supported"),
    ("{} strikes", "{}: positional fields are not supported"),
    ("{hero[99]} falls", "{hero[99]}: only plain names"),
    ("{hero.name} falls", "{hero.name}: only plain names"),
    ("{hero:>999999999} shouts", "{hero:>999999999}: no conversions or format specs"),
    ("{hero!r} shouts", "{hero!r}: no conversions or format specs"),
    ("{sidekick} arrives", "{sidekick}: unknown placeholder (known: adult, bystander, hero,"),
])
def test_bad_gm_narration_is_refused(pack: Maker, template: str, fragment: str) -> None:
    def edit(d: dict[str, Any]) -> None:
        d["moves"][0]["narration"].append(template)

    path = pack(gm=edit)
    gm = yaml.safe_load((path / "gm.yaml").read_text())
    first = gm["moves"][0]["id"]
    n = len(gm["moves"][0]["narration"]) - 1
    found = [p for p in problems_of(path) if f"moves.{first}.narration[{n}]" in p]
    assert len(found) == 1 and fragment in found[0], found


def test_threat_and_opening_templates_are_checked(pack: Maker) -> None:
    def gm(d: dict[str, Any]) -> None:
        d["threats"][0]["doom"] = "{location} burns"  # a threat knows only hero and villain

    def tables(d: dict[str, Any]) -> None:
        t = next(t for t in d["tables"] if t["id"] == "scene_openings")
        t["entries"].append({"text": "{hero:{npc}} {{ok}}"})

    probs = problems_of(pack(gm=gm, tables=tables))
    assert any(".doom: {location}: unknown placeholder (known: hero, villain)" in p
               for p in probs)
    assert any("scene_openings.entries[" in p and "no conversions or format specs" in p
               for p in probs)
    assert len(probs) == 2


def test_bundled_templates_pass() -> None:
    assert template_problems("{hero} meets {villain} at {location}. {{not a field}}",
                             loader.GM_NAMES) == []


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="{}[]!:.0123456789 herovilanx>", max_size=40))
def test_fill_never_raises_and_never_grows(template: str) -> None:
    names = {"hero": "Nova", "villain": "Dusk"}
    text = fill(template, names)
    assert len(text) <= len(template) * len("someone")


@pytest.mark.parametrize(("template", "expected"), [
    ("{hero:>999999999} shouts", "Nova shouts"),
    ("{0} and {hero[99]}", "Someone and Nova"),
    ("stray } and {hero}", "Stray } and Nova"),
    ("{hero!r}, {{braces}}", "Nova, {braces}"),
])
def test_fill_falls_back_safely(template: str, expected: str) -> None:
    assert fill(template, {"hero": "Nova"}) == expected


# --------------------------------------------------------------------------- dice and odds


def test_dice_too_large_for_exact_odds_are_refused(pack: Maker) -> None:
    def edit(d: dict[str, Any]) -> None:
        d["moves"][0]["roll"]["dice"] = "8d20"

    probs = problems_of(pack(moves=edit))
    assert len(probs) == 1
    assert "roll.dice: 8d20 has 25,600,000,000 face combinations" in probs[0]


def test_advantage_is_counted_in_the_cap(pack: Maker) -> None:
    def edit(d: dict[str, Any]) -> None:
        d["moves"][0]["roll"].update(dice="4d30", advantage="optional")  # 30^4 fits, 30^5 not

    probs = problems_of(pack(moves=edit))
    assert len(probs) == 1 and "4d30 (with advantage) has 24,300,000" in probs[0]


def test_odds_at_play_refuse_huge_pools_quickly() -> None:
    start = time.monotonic()
    with pytest.raises(ContentError, match="8d20: 25,600,000,000 face combinations"):
        band_odds(DiceSpec.parse("8d20"), 0, [])
    assert time.monotonic() - start < 1


# --------------------------------------------------------------------------- ruleset data


def test_city_of_whispers_data_is_checked_at_validate(pack: Maker) -> None:
    def edit(d: dict[str, Any]) -> None:
        d["data"]["factions"][0]["nmae"] = "typo"
        d["archetypes"][0]["data"]["max_complexity"] = "lots"

    path = pack("city-of-whispers", system=edit)
    arch = yaml.safe_load((path / "system.yaml").read_text())["archetypes"][0]["id"]
    probs = problems_of(path)
    assert all(re.match(rf"{re.escape(str(path))}/system\.yaml:\d+: ", p) for p in probs)
    probs = [re.sub(r"\.yaml:\d+:", ".yaml:", p) for p in probs]  # each names its line
    assert any(p.startswith(f"{path}/system.yaml: data.factions[0].nmae: unknown key")
               for p in probs)
    assert any(p.startswith(f"{path}/system.yaml: archetypes.{arch}.data.max_complexity:")
               for p in probs)
    assert len(probs) == 2


# --------------------------------------------------------------------------- parse once


def test_validate_parses_each_file_once(pack: Maker, monkeypatch: pytest.MonkeyPatch) -> None:
    def edit(d: dict[str, Any]) -> None:
        for m in d["moves"]:
            m["colour"] = "red"  # one problem per move

    path = pack(moves=edit)
    calls: list[int] = []
    real = loader.parse_yaml

    def counting(text: str, **kw: Any) -> Any:
        calls.append(1)
        return real(text, **kw)

    monkeypatch.setattr(yamlio, "parse_yaml", counting)
    probs = problems_of(path)
    moves = yaml.safe_load((path / "moves.yaml").read_text())["moves"]
    assert len(probs) == len(moves) > 20
    assert len(calls) == 6  # system, moves, gm, tables, narration, examples: once each
    text = (path / "moves.yaml").read_text().splitlines()
    line = int(probs[3].split(":")[1])  # the line named is the key's own line
    assert text[line - 1].strip().startswith("colour:")


def test_a_pack_with_thousands_of_problems_validates_fast(pack: Maker) -> None:
    def edit(d: dict[str, Any]) -> None:
        d["moves"] += [dict(no_roll_move(f"m{i}"), colour="red") for i in range(3000)]

    path = pack(moves=edit)
    start = time.monotonic()
    probs = problems_of(path)
    assert time.monotonic() - start < 10
    assert probs[-1].endswith("... and 2900 more problem(s)") and len(probs) == 101


# --------------------------------------------------------------------------- YAML limits


def bomb(levels: int = 9) -> str:
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    for i in range(1, levels):
        lines.append(f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(("text", "fragment"), [
    (bomb(), "expands to more than 200,000 values"),
    ("&a [*a]", "an alias contains itself"),
    ("[" * 100_000, "nested more than 64 levels deep"),
    ("- " * 100_000 + "x", "nested more than 64 levels deep"),
], ids=["alias-bomb", "alias-loop", "deep-flow", "deep-block"])
def test_yaml_bombs_are_refused_quickly(text: str, fragment: str) -> None:
    start = time.monotonic()
    with pytest.raises(loader.YamlTooLarge, match=fragment):
        parse_yaml(text)
    assert time.monotonic() - start < 5


def _nested(shape: str, depth: int) -> str:
    if shape == "flow-list":
        return "[" * depth + "x" + "]" * depth
    if shape == "flow-map":
        return "{a: " * depth + "x" + "}" * depth
    if shape == "block-list":
        return "".join("  " * i + "-\n" for i in range(depth)) + "  " * depth + "x\n"
    return "".join("  " * i + "a:\n" for i in range(depth)) + "  " * depth + "x\n"


SHAPES = ["flow-list", "flow-map", "block-list", "block-map"]


@pytest.mark.parametrize("parser", ["libyaml", "python"])
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("depth", [65, 999, 1000, 1001, 1025, 1900])
def test_deep_nesting_gets_sidekick_s_message_whichever_parser_stops_it(
        monkeypatch: pytest.MonkeyPatch, parser: str, shape: str, depth: int) -> None:
    # libyaml stops deep documents itself (recent releases); Sidekick's limit speaks first
    if parser == "python":
        monkeypatch.setattr(yamlio, "_Loader", yaml.SafeLoader)
    with pytest.raises(loader.YamlTooLarge) as e:
        parse_yaml(_nested(shape, depth))
    assert str(e.value).endswith("nested more than 64 levels deep")
    assert str(e.value).startswith("line ")


@pytest.mark.parametrize("parser", ["libyaml", "python"])
@pytest.mark.parametrize("shape", SHAPES)
def test_nesting_up_to_the_limit_loads(monkeypatch: pytest.MonkeyPatch, parser: str,
                                      shape: str) -> None:
    if parser == "python":
        monkeypatch.setattr(yamlio, "_Loader", yaml.SafeLoader)
    data, _ = parse_yaml(_nested(shape, 64))
    for _ in range(64):
        data = data[0] if isinstance(data, list) else data["a"]
    assert data == "x"


def test_a_broken_file_that_is_not_deep_is_a_yaml_error_not_a_depth_one() -> None:
    with pytest.raises(yaml.YAMLError):
        parse_yaml("[[[ x: : ]")
    with pytest.raises(yaml.YAMLError):
        parse_yaml("[" * 30 + "}")


def test_shared_aliases_within_the_limit_load() -> None:
    data, _ = parse_yaml("base: &b {a: 1}\nuse: [*b, *b]\n")
    assert data == {"base": {"a": 1}, "use": [{"a": 1}, {"a": 1}]}


def test_a_content_file_that_is_a_bomb_or_a_fifo_is_one_problem(pack: Maker) -> None:
    import os

    path = pack()
    (path / "tables.yaml").write_text(bomb())
    probs = problems_of(path)
    assert probs == [f"{path / 'tables.yaml'}: the document expands to more than 200,000"
                     " values (aliases repeat too much)"]
    (path / "tables.yaml").unlink()
    os.mkfifo(path / "tables.yaml")
    assert problems_of(path) == [f"{path / 'tables.yaml'}: not a regular file"]


def test_validate_command_reports_loops_in_one_line_each(pack: Maker,
                                                        capsys: pytest.CaptureFixture[str]
                                                        ) -> None:
    path = pack(moves=lambda d: d["moves"].append(no_roll_move("echo", trigger("echo"))))
    assert main(["validate", str(path)]) == 1
    out, err = capsys.readouterr()
    assert out == "" and "echo triggers itself" in err and "Traceback" not in err


def test_a_rolled_loop_in_a_script_stops_with_a_message(pack: Maker,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    import engine.script as script

    def edit(d: dict[str, Any]) -> None:
        out = {"text": "Again.", "effects": [trigger("spin")]}
        d["moves"].append({"id": "spin", "name": "Spin", "trigger": "When testing.",
                           "roll": {"stat": "none"},
                           "outcomes": {b: out for b in ("strong_hit", "weak_hit", "miss")}})

    path = pack(moves=edit)
    assert any("spin triggers itself" in p for p in problems_of(path))
    game = Game.new(load_pack(path, check=False), name="Spin", hero_name="Nova",
                    archetype=None, stats=FLAT, npcs=[], seed=1)
    monkeypatch.setattr(script, "MAX_PROMPTS", 20)
    with pytest.raises(EngineError, match="answered 20 prompts and the engine still asks"):
        script.play_step(game, {"move": "spin", "auto": True})


def test_a_reversed_modifier_clamp_is_refused(pack: Maker) -> None:
    def edit(d: dict[str, Any]) -> None:
        d["modifier_clamp"] = [4, -3]

    assert problems_of(pack(system=edit)) == [
        f"{pack()}/system.yaml: modifier_clamp: low 4 is above high -3"]


def test_choose_from_band_must_name_a_band_with_a_list(pack: Maker) -> None:
    def edit(d: dict[str, Any]) -> None:
        rule = {"type": "rule", "name": "choose_from_band"}
        d["moves"].append(no_roll_move("pick_a", dict(rule, args={"band": "nope"})))
        first = d["moves"][0]  # directly_engage: its strong hit has a choose list
        first["outcomes"]["miss"]["effects"] = [
            dict(rule, args={"band": "strong_hit", "count": 0, "exclude": "dance"})]
        first["outcomes"]["weak_hit"]["effects"] = [dict(rule, args={"band": "strong_hit"})]

    def gm(d: dict[str, Any]) -> None:
        d["moves"][0]["effects"].append({"type": "rule", "name": "choose_from_band",
                                         "args": {"band": "strong_hit"}})

    path = pack(moves=edit, gm=gm)
    probs = [p.removeprefix(f"{path}/") for p in problems_of(path)]
    gm_first = yaml.safe_load((path / "gm.yaml").read_text())["moves"][0]["id"]
    assert sorted(probs) == sorted([
        f"gm.yaml: moves.{gm_first}.effects: choose_from_band: only a move's own effects can"
        " choose from its bands",
        "moves.yaml: moves[23] (pick_a).result.effects: choose_from_band: band 'nope' has no"
        " choose list in pick_a (bands with one: none)",
        "moves.yaml: moves[0] (directly_engage).outcomes.miss.effects: choose_from_band: count"
        " must be a whole number from 1, not 0",
        "moves.yaml: moves[0] (directly_engage).outcomes.miss.effects: choose_from_band:"
        " exclude 'dance' is not an option of strong_hit",
    ])


def test_city_rule_effects_must_be_known(pack: Maker) -> None:
    def edit(d: dict[str, Any]) -> None:
        d["moves"][0].setdefault("before", []).append({"type": "rule", "name": "mark_haet"})

    path = pack("city-of-whispers", moves=edit)
    first = yaml.safe_load((path / "moves.yaml").read_text())["moves"][0]["id"]
    probs = problems_of(path)
    assert len(probs) == 1
    n = len(yaml.safe_load((path / "moves.yaml").read_text())["moves"][0]["before"]) - 1
    assert probs[0].startswith(f"{path}/moves.yaml:"), probs[0]  # then its line, as below
    assert f": moves[0] ({first}).before[{n}].name: unknown rule effect 'mark_haet' (the" \
           " city_of_whispers rules know: " in probs[0]
    assert "mark_heat" in probs[0] and "choose_from_band" in probs[0]


def test_a_label_shift_of_zero_is_refused(pack: Maker) -> None:
    path = pack(moves=lambda d: d["moves"].append(
        no_roll_move("still", {"type": "shift_label", "stat": "danger", "by": 0})))
    found = [p for p in problems_of(path) if "shift of 0" in p]
    assert len(found) == 1 and "moves.yaml" in found[0]
    assert found[0].endswith(".by: a shift of 0 changes nothing: use 1 (up) or -1 (down)")


# --------------------------------------------------------------------------- words detection reads


def _add_cue(word: str) -> Edit:
    def edit(data: Any) -> None:
        data["moves"][2]["cues"].append(f"slam {word}")
    return edit


@pytest.mark.parametrize(("size", "said"), [
    (1_000, r"a word of 1,000 characters \(x{20}\.\.\.\); move detection reads words of at"
            r" most 40"),
    (100_000, r"too long: at most 2,000 characters"),
])
def test_a_cue_with_a_huge_word_is_refused_with_file_line_and_key(pack: Maker, size: int,
                                                                  said: str) -> None:
    path = pack(moves=_add_cue("x" * size))
    [problem] = problems_of(path)
    moves = yaml.safe_load((path / "moves.yaml").read_text())["moves"]
    n = len(moves[2]["cues"]) - 1
    assert re.match(rf"{re.escape(str(path / 'moves.yaml'))}:\d+: moves\[2\]\.cues\[{n}\]: "
                    rf"{said}$", problem), problem


def test_a_word_of_forty_letters_is_fine(pack: Maker) -> None:
    load_checked(pack(moves=_add_cue("x" * 40)))


def test_an_example_line_with_a_huge_word_is_refused(pack: Maker) -> None:
    def edit(data: Any) -> None:
        next(iter(data.values())).append("I " + "y" * 300)

    [problem] = problems_of(pack(examples=edit))
    assert "examples.yaml:" in problem and "a word of 300 characters" in problem


@pytest.mark.parametrize("pack_id", ["panels", "mutants-and-masterminds"])
def test_an_action_example_with_a_huge_word_is_refused(pack: Maker, pack_id: str) -> None:
    def edit(data: Any) -> None:
        data["actions"]["attack"]["examples"].append("I " + "z" * 1_000)

    problems = problems_of(pack(pack_id, actions=edit))
    assert any(re.search(r"actions\.yaml:\d+: actions\.attack\.examples\[", p)
               and "a word of 1,000 characters" in p for p in problems), problems


def test_move_detection_stays_usable_with_a_million_letter_word(masks: Any) -> None:
    # the spelling index once held every deletion of every word: quadratic in a word's length
    from engine.triggers import MAX_FIX, Matcher

    moves = [m for m in masks.moves.values() if not m.hidden]
    first = moves[0].model_copy(update={"cues": [*moves[0].cues, "q" * 1_000_000]})
    matcher = Matcher.for_pack([first, *moves[1:]], masks.examples)
    assert max(map(len, matcher._fix_index)) <= MAX_FIX + 1
    said = matcher.suggest("I punch Dusk square in the jaw")
    assert said and said[0].move == "directly_engage"
    assert matcher.suggest("I " + "q" * 1_000_000) is not None
