"""The command line, run in-process: commands, JSON output, saves, and clean errors."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import yaml

from engine.cli import main
from engine.content.loader import Pack
from engine.dice import DiceSpec, SeededDice, degrees_vs_dc
from engine.odds import band_odds, percent

Capsys = pytest.CaptureFixture[str]

SCRIPT: dict[str, Any] = {
    "campaign": {
        "name": "Night Shift", "system": "masks", "seed": 42,
        "hero": {"name": "Nova", "archetype": "signal_fire"},
        "npcs": [{"name": "Rosalind", "role": "adult"}, {"name": "Dusk", "role": "villain"},
                 {"name": "Parveen", "role": "bystander"}],
    },
    "steps": [
        {"do": "start_scene", "title": "Blackout at the pier", "location": "Pier 9"},
        {"fiction": "I size up the pier", "move": "assess_situation", "dice": [5, 5],
         "choose": [["1", "2"]]},
        {"fiction": "I slam into the drones", "move": "directly_engage", "dice": [4, 4],
         "choose": [["resist"]]},
        {"fiction": "I goad Dusk", "move": "provoke", "target": "Dusk", "dice": [3, 5],
         "choose": [["err"]]},
        {"do": "end_scene"},
    ],
}


def run(capsys: Capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def ok(capsys: Capsys, *argv: str) -> str:
    """Run a command that must succeed quietly; its standard output."""
    code, out, err = run(capsys, *argv)
    assert (code, err) == (0, "")
    return out


def write_script(tmp_path: Path, data: dict[str, Any], name: str = "play.yaml") -> Path:
    path = tmp_path / name
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path


def assert_clean_error(code: int, err: str, fragment: str) -> None:
    assert code != 0
    assert err.startswith("sidekick: error: "), err
    assert err.count("\n") == 1, err  # one line
    assert fragment in err
    assert "Traceback" not in err


# --------------------------------------------------------------------------- new / list / export


def test_new_list_export(tmp_path: Path, capsys: Capsys) -> None:
    saves = str(tmp_path / "saves")
    code, out, err = run(capsys, "--saves", saves, "new", "Night Shift", "--hero", "Nova",
                         "--archetype", "signal_fire", "--npc", "Rosalind:adult:mentor",
                         "--npc", "Dusk:villain", "--seed", "3")
    assert (code, err) == (0, "")
    assert out.startswith("Created campaign 'Night Shift' (night-shift) in ")
    code, out, err = run(capsys, "--saves", saves, "list")
    assert code == 0
    assert out.startswith("night-shift")
    assert "Night Shift — masks, Nova, 1. Opening scene" in out
    out = ok(capsys, "--saves", saves, "list", "--json")
    [row] = [json.loads(line) for line in out.splitlines()]
    assert (row["id"], row["name"], row["system"], row["hero"]) == (
        "night-shift", "Night Shift", "masks", "Nova")
    assert row["error"] is None
    code, out, _ = run(capsys, "--saves", saves, "export", "night-shift")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "---"  # the YAML front matter (issue 30), then the title
    assert "# Night Shift" in lines
    assert "- Rosalind (adult) joins the story" in lines
    assert any(line.startswith("⇄ Rosalind gains Influence over you") for line in lines)
    assert "Team +1 → 1 (start of session)" in lines


def test_the_folders_may_follow_the_command(tmp_path: Path, capsys: Capsys) -> None:
    saves = str(tmp_path / "saves")
    ok(capsys, "new", "Night Shift", "--archetype", "signal_fire", "--seed", "3",
       "--saves", saves)
    assert ok(capsys, "list", "--saves", saves).startswith("night-shift")
    # given before the command and not after, the one before still counts
    assert ok(capsys, "--saves", saves, "list").startswith("night-shift")
    assert ok(capsys, "--saves", str(tmp_path), "list", "--saves", saves).startswith(
        "night-shift")


def test_an_unknown_system_is_said_before_anything_else(tmp_path: Path,
                                                        capsys: Capsys) -> None:
    code, _, err = run(capsys, "--saves", str(tmp_path), "new", "Y", "--system", "dnd")
    assert code != 0 and "unknown game system 'dnd'" in err and "masks" in err
    assert "--archetype" not in err


def test_list_with_no_campaigns(tmp_path: Path, capsys: Capsys) -> None:
    code, out, _ = run(capsys, "--saves", str(tmp_path), "list")
    assert code == 0 and out.startswith("No campaigns in")


def test_new_with_custom_stats(tmp_path: Path, capsys: Capsys) -> None:
    from engine.campaigns import close_game, open_game

    code, _, err = run(capsys, "--saves", str(tmp_path), "new", "Custom", "--stats",
                       "danger=1,freak=1, savior=1 superior=0,mundane=0", "--seed", "1")
    assert (code, err) == (0, "")
    game = open_game(tmp_path, "custom")
    try:
        assert game.state.hero.stats == {"danger": 1, "freak": 1, "savior": 1, "superior": 0,
                                         "mundane": 0}
    finally:
        close_game(game)


# --------------------------------------------------------------------------- odds


@pytest.mark.parametrize("modifier", [-3, 0, 1, 4])
def test_odds_for_a_move(capsys: Capsys, masks: Pack, modifier: int) -> None:
    code, out, _ = run(capsys, "odds", "directly_engage", "-m", str(modifier))
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == f"Directly engage a threat: 2d6 {modifier:+d}"
    exact = band_odds(DiceSpec.parse("2d6"), modifier, masks.system.bands["default"])
    for band, line in zip(masks.system.bands["default"], lines[1:], strict=True):
        assert line.split()[0] in band.name
        assert percent(exact[band.id]) in line
        assert f"({exact[band.id]})" in line


def test_odds_json(capsys: Capsys) -> None:
    out = ok(capsys, "odds", "directly_engage", "--json")
    data = json.loads(out)
    assert data == {"dice": "2d6", "modifier": 0,
                    "odds": {"miss": "5/12", "weak_hit": "5/12", "strong_hit": "1/6"}}
    assert sum(Fraction(v) for v in data["odds"].values()) == 1


def test_odds_clamps_the_modifier(capsys: Capsys) -> None:
    out = ok(capsys, "odds", "directly_engage", "-m", "9")
    assert out.splitlines()[0] == "Directly engage a threat: 2d6 +4 (clamped from +9)"
    out = ok(capsys, "odds", "directly_engage", "-m", "-7", "--json")
    assert json.loads(out)["modifier"] == -3


def test_odds_for_dice_and_advantage(capsys: Capsys, masks: Pack) -> None:
    out = ok(capsys, "odds", "2d6", "--advantage", "advantage", "--json")
    data = json.loads(out)
    assert data["dice"] == "3d6kh2"
    exact = band_odds(DiceSpec.parse("3d6kh2"), 0, masks.system.bands["default"])
    assert data["odds"] == {k: str(v) for k, v in exact.items()}
    out = ok(capsys, "odds", "2d6", "--bands", "inverted")
    assert "Stand strong" in out


def test_odds_for_the_inverted_move(capsys: Capsys) -> None:
    out = ok(capsys, "odds", "take_powerful_blow", "-m", "2")
    lines = out.splitlines()
    assert [line.split()[0] for line in lines[1:]] == ["Stand", "Hurt", "Overwhelmed"]
    assert "(1/6)" in lines[1]  # 6 or less with +2: a dice total of 4 or less, 6 of 36


# --------------------------------------------------------------------------- roll


def test_roll_is_seeded(capsys: Capsys) -> None:
    code, out, _ = run(capsys, "roll", "2d6+1", "--seed", "4", "--times", "3")
    assert code == 0
    dice = SeededDice(4)
    expected = []
    for _ in range(3):
        r = dice.roll(DiceSpec.parse("2d6"))
        expected.append(f"2d6+1: {list(r.faces)} kept {list(r.kept)} = {r.total + 1}")
    assert out.splitlines() == expected


def test_roll_keep_highest_shows_the_dropped_die(capsys: Capsys) -> None:
    out = ok(capsys, "roll", "3d6kh2", "--seed", "2")
    r = SeededDice(2).roll(DiceSpec.parse("3d6kh2"))
    assert out.splitlines() == [
        f"3d6kh2+0: {list(r.faces)} kept {list(r.kept)} dropped {list(r.dropped)} = {r.total}"]


def test_roll_d20_against_a_dc(capsys: Capsys) -> None:
    out = ok(capsys, "roll", "d20+5", "--dc", "15", "--seed", "1")
    natural = SeededDice(1).roll(DiceSpec.parse("d20")).faces[0]
    plain = degrees_vs_dc(natural, 5, 15, crit_shift=False)  # no game: naturals as faces
    assert out.strip().endswith(f"vs DC 15: {plain.label}")


@pytest.mark.parametrize("seed", range(40))
def test_roll_against_a_dc_is_the_game_s_own_check(capsys: Capsys, seed: int) -> None:
    # one check per game: the M&M roll --dc, its fights' and its moves' check are one function
    from engine.content.loader import get_pack
    from engine.systems import ruleset_for
    from engine.systems.mm3e import checks as mm_checks

    natural = SeededDice(seed).roll(DiceSpec.parse("d20")).faces[0]
    out = ok(capsys, "roll", "d20+16", "--dc", "15", "--seed", str(seed), "--system",
             "mutants-and-masterminds")
    rules = ruleset_for(get_pack("mutants-and-masterminds"))
    res = mm_checks.check(natural, 16, 15,
                          nat20_bonus=bool(rules.pack.system.data.get("nat20_degree")))
    word = "success" if res.success else "failure"
    assert out.strip().endswith(f"vs DC 15: {word}, {res.degrees} degree"
                                f"{'s' if res.degrees != 1 else ''}")
    assert rules.check_vs_dc(natural, 16, 15).success == res.success


def test_a_natural_one_is_no_automatic_failure_in_m_and_m_but_is_in_panels(
        capsys: Capsys) -> None:
    seed = next(s for s in range(500) if SeededDice(s).roll(DiceSpec.parse("d20")).faces[0] == 1)
    mm = ok(capsys, "roll", "d20+16", "--dc", "15", "--seed", str(seed), "--system",
            "mutants-and-masterminds")
    panels = ok(capsys, "roll", "d20+16", "--dc", "15", "--seed", str(seed), "--system",
                "panels")
    assert mm.strip().endswith("= 17 vs DC 15: success, 1 degree")
    assert panels.strip().endswith("= 17 vs DC 15: failure, 1 degree")


def test_roll_without_a_seed_says_which_seed(capsys: Capsys) -> None:
    code, out, _ = run(capsys, "roll", "2d6")
    assert code == 0 and out.splitlines()[-1].startswith("(seed ")


# --------------------------------------------------------------------------- script


def test_script_dry_run_prints_events_as_json(tmp_path: Path, capsys: Capsys) -> None:
    code, out, err = run(capsys, "script", str(write_script(tmp_path, SCRIPT)), "--dry-run")
    assert (code, err) == (0, "")
    events = [json.loads(line) for line in out.splitlines()]
    types = [e["type"] for e in events]
    assert "FlowChanged" not in types and "ActionStarted" not in types
    rolls = [e for e in events if e["type"] == "Rolled"]
    assert [(r["move"], r["faces"], r["entered"]) for r in rolls] == [
        ("assess_situation", [5, 5], True), ("directly_engage", [4, 4], True),
        ("provoke", [3, 5], True)]
    # signal fire: Superior 0, Danger -1; assess gives +1 ongoing for the rest of the scene
    assert [(r["total"], r["band"]) for r in rolls] == [
        (10, "strong_hit"), (8, "weak_hit"), (9, "weak_hit")]
    chosen = [e["options"] for e in events if e["type"] == "OptionsChosen"]
    assert chosen == [["resist"], ["err"]]
    asked = [e for e in events if e["type"] == "QuestionsAsked"]
    assert len(asked[0]["questions"]) == 2
    assert types[-1] == "SceneEnded"
    assert not (tmp_path / "saves").exists()


def test_script_all_events_and_journal(tmp_path: Path, capsys: Capsys) -> None:
    path = str(write_script(tmp_path, SCRIPT))
    out = ok(capsys, "script", path, "--dry-run", "--all-events")
    types = [json.loads(line)["type"] for line in out.splitlines()]
    assert "FlowChanged" in types and "ActionStarted" in types
    code, out, _ = run(capsys, "script", path, "--dry-run", "--journal")
    assert code == 0
    assert "## Scene 1: Blackout at the pier — Pier 9" in out  # the empty opener, reframed
    assert "🎲 2d6 [5 5] (entered) +0 = **10** → **Strong hit**" in out
    assert "Chosen: You weather or slip their attacks." in out


def test_script_from_json(tmp_path: Path, capsys: Capsys) -> None:
    path = tmp_path / "play.json"
    path.write_text(json.dumps(SCRIPT))
    code, out, _ = run(capsys, "script", str(path), "--dry-run")
    assert code == 0 and '"Rolled"' in out


def test_example_script_plays(capsys: Capsys, root: Path) -> None:
    code, out, err = run(capsys, "script", str(root / "examples" / "masks-first-scene.yaml"),
                         "--dry-run", "--journal")
    assert (code, err) == (0, "")
    assert out.count("🎲") == 4


def test_script_save_list_export_and_resume(tmp_path: Path, capsys: Capsys, masks: Pack) -> None:
    from engine.campaigns import close_game, open_game
    from engine.script import run_script

    saves = tmp_path / "saves"
    path = str(write_script(tmp_path, SCRIPT))
    code, _, err = run(capsys, "--saves", str(saves), "script", path)
    assert (code, err) == (0, "")
    out = ok(capsys, "--saves", str(saves), "list", "--json")
    [row] = [json.loads(line) for line in out.splitlines()]
    assert (row["id"], row["hero"]) == ("night-shift", "Nova")
    out = ok(capsys, "--saves", str(saves), "export", "night-shift")
    assert out.startswith("---\ncampaign: Night Shift\n")
    assert "\n# Night Shift\n" in out
    assert "#### Provoke someone → Dusk" in out
    assert "_Scene 1 ends._" in out
    # the same script in memory gives the same campaign, state for state
    memory = run_script(SCRIPT, saves=None, content=[], campaign=None, emit=lambda e: None)
    game = open_game(saves, "night-shift")
    try:
        assert game.state.model_dump(mode="json") == memory.state.model_dump(mode="json")
        assert [e["type"] for e in game.store.events()] == [
            e["type"] for e in memory.store.events()]
    finally:
        close_game(game)
    # and a second script continues the saved campaign
    more = {"steps": [{"fiction": "I shield Parveen", "move": "defend_someone",
                       "target": "Parveen", "dice": [6, 6], "choose": [["team"]]}]}
    code, out, err = run(capsys, "--saves", str(saves), "--campaign", "night-shift", "script",
                         str(write_script(tmp_path, more, "more.yaml")))
    assert (code, err) == (0, "")
    game = open_game(saves, "night-shift")
    try:
        assert game.state.pools["team"] == memory.state.pools["team"] + 1
    finally:
        close_game(game)


# --------------------------------------------------------------------------- clean errors


def test_unknown_command(capsys: Capsys) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["conquer"])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert err.splitlines()[-1].startswith("sidekick: error: argument COMMAND: invalid choice:")
    assert "Traceback" not in err


@pytest.mark.parametrize(("argv", "fragment"), [
    (["odds", "punch_everyone"], "'punch_everyone' is neither a move of masks nor dice"),
    (["odds", "give_influence"], "Give Influence has no roll"),
    (["odds", "2d6", "--bands", "nope"], "masks has no band set 'nope'"),
    (["odds", "10d10"], "10d10 has 10,000,000,000 face combinations"),
    (["odds", "2d6", "--system", "nope"], "unknown game system 'nope'"),
    (["roll", "2x6"], "'2x6' is not dice notation"),
    (["roll", "0d6"], "bad dice notation '0d6'"),
    (["roll", "3d6kh4"], "cannot keep 4 of 3"),
    (["new", "X", "--stats", "danger"], "--stats: expected name=value pairs"),
    (["new", "X", "--stats", "danger=lots"], "--stats: danger='lots' is not a whole number"),
    (["new", "X", "--stats", "danger=2,freak=2,savior=2,superior=2,mundane=2"],
     "they must add up to +3"),
    (["new", "X", "--archetype", "nope"], "unknown archetype 'nope'"),
    (["new", "X"], "give --archetype ID, --stats"),
    (["new", "X", "--archetype", "signal_fire", "--npc", "Zed"], "--npc: expected 'Name:role'"),
    (["new", "X", "--archetype", "signal_fire", "--npc", "Zed:alien"], "unknown role 'alien'"),
    (["export", "nope"], "No campaign 'nope'"),
    (["--content", "/no/such/folder", "validate"], "--content /no/such/folder: no such folder"),
])
def test_bad_input_is_one_clean_line(tmp_path: Path, capsys: Capsys, argv: list[str],
                                     fragment: str) -> None:
    code, out, err = run(capsys, "--saves", str(tmp_path / "saves"), *argv)
    assert_clean_error(code, err, fragment)
    assert out == ""


@pytest.mark.parametrize(("step", "fragment"), [
    ({"move": "directly_engage", "dice": [6, 6], "choose": [["resist", "bogus"]]},
     "step 1 (move: directly_engage): 'bogus' is not an option here"),
    ({"move": "punch_everyone", "dice": [6, 6]}, "step 1 (move: punch_everyone): unknown move"),
    ({"move": "directly_engage", "dice": [6, 9]}, "a d6 shows 1 to 6; 9 is out of range"),
    ({"move": "directly_engage", "dice": [6, 6]}, "has no answer left in 'choose'"),
    ({"move": "provoke", "dice": [6, 6]}, "provoke needs a target: add 'target: NAME'"),
    ({"move": "unleash_powers", "dice": [6, 6], "choose": [["x"]]},
     "unused answers in 'choose'"),
    ({"do": "dance"}, "unknown action 'dance'"),
    ({"move": "directly_engage", "colour": "red"}, "unknown key(s) colour"),
])
def test_bad_script_step_is_one_clean_line(tmp_path: Path, capsys: Capsys,
                                           step: dict[str, Any], fragment: str) -> None:
    data = {"campaign": SCRIPT["campaign"], "steps": [step]}
    code, _, err = run(capsys, "script", str(write_script(tmp_path, data)), "--dry-run")
    assert_clean_error(code, err, fragment)


@pytest.mark.parametrize(("text", "fragment"), [
    ("steps: [1, 2", "not valid YAML"),
    ("- just\n- a list\n", "a script is a mapping with 'campaign' and a list of 'steps'"),
    ("steps: []\n", "the script needs a 'campaign' mapping"),
])
def test_bad_script_file(tmp_path: Path, capsys: Capsys, text: str, fragment: str) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(text)
    code, _, err = run(capsys, "script", str(path), "--dry-run")
    assert code != 0 and err.startswith("sidekick: error: ")
    assert fragment in err and "Traceback" not in err


def test_missing_script_file(tmp_path: Path, capsys: Capsys) -> None:
    code, _, err = run(capsys, "script", str(tmp_path / "nope.yaml"), "--dry-run")
    assert_clean_error(code, err, "cannot read the script")


def test_play_without_a_terminal_is_refused(capsys: Capsys, monkeypatch: pytest.MonkeyPatch
                                            ) -> None:
    monkeypatch.delenv("SIDEKICK_FORCE_TUI", raising=False)
    code, _, err = run(capsys, "play")
    assert_clean_error(code, err, "the app needs a terminal")


# --------------------------------------------------------------------------- issue 8, item 8


@pytest.mark.parametrize(("argv", "fragment"), [
    (["roll", "2d6+" + "9" * 4300], "the modifier must be from -1,000,000 to +1,000,000"),
    (["roll", "2d6-" + "9" * 5000], "the modifier must be from -1,000,000 to +1,000,000"),
    (["roll", "2d6+1000001"], "the modifier must be from"),
    (["roll", "9" * 4400 + "d6"], "bad dice notation: 1-20 dice of 2-1000 sides"),
    (["roll", "2d6", "--times", "0"], "--times must be from 1 to 1000"),
    (["roll", "2d6", "--times", "100000000"], "--times must be from 1 to 1000"),
])
def test_roll_refuses_huge_numbers_in_one_line(capsys: Capsys, argv: list[str],
                                               fragment: str) -> None:
    code, out, err = run(capsys, *argv)
    assert_clean_error(code, err, fragment)
    assert out == "" and len(err) < 300


def test_roll_takes_padded_modifiers(capsys: Capsys) -> None:
    out = ok(capsys, "roll", "2d6-0005", "--seed", "1")
    assert out.startswith("2d6-5: ")
    assert ok(capsys, "roll", "2d6+" + "0" * 5000 + "1", "--seed", "1").startswith("2d6+1: ")


def test_script_takes_campaign_after_the_file(tmp_path: Path, capsys: Capsys) -> None:
    saves = tmp_path / "saves"
    ok(capsys, "--saves", str(saves), "script", str(write_script(tmp_path, SCRIPT)))
    more = {"steps": [{"do": "narrate", "text": "Later that night."}]}
    out = ok(capsys, "--saves", str(saves), "script", str(write_script(tmp_path, more, "m.yaml")),
             "--campaign", "night-shift")
    assert "Later that night." in out


def test_fixed_stat_message_names_the_stat(tmp_path: Path, capsys: Capsys) -> None:
    data = {"campaign": SCRIPT["campaign"],
            "steps": [{"move": "directly_engage", "stat": "freak", "dice": [6, 6]}]}
    code, _, err = run(capsys, "script", str(write_script(tmp_path, data)), "--dry-run")
    assert_clean_error(code, err, "rolls with danger, not 'freak'")


@pytest.mark.parametrize("argv", [
    ["validate", "9" * 5000],  # found by the CLI fuzzer: OSError 'File name too long'
    ["--content", "9" * 5000, "validate"],
    ["script", "9" * 5000 + ".yaml", "--dry-run"],
])
def test_impossible_paths_are_one_clean_line(capsys: Capsys, argv: list[str]) -> None:
    code, _, err = run(capsys, *argv)
    assert code == 1 and "Traceback" not in err
    assert err.startswith(("sidekick: error: ", "✗ ")) and err.count("\n") <= 3 and len(err) < 600


def test_delete_of_a_folder_that_is_no_campaign_says_so_before_asking(
        tmp_path: Path, capsys: Capsys) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "notes.txt").write_text("mine", encoding="utf-8")
    code, _out, err = run(capsys, "--saves", str(tmp_path), "delete", "docs")
    assert code != 0
    assert "holds no Sidekick campaign" in err and "--yes" not in err
    assert (docs / "notes.txt").read_text(encoding="utf-8") == "mine"


@pytest.mark.parametrize("mode", ["seeded", "physical", "mixed"])
def test_new_takes_each_dice_mode(tmp_path: Path, capsys: Capsys, mode: str) -> None:
    code, _out, err = run(capsys, "--saves", str(tmp_path), "new", "Dice", "--archetype",
                          "signal_fire", "--dice", mode)
    assert code == 0, err
    state = json.loads((tmp_path / "dice" / "campaign.json").read_text(encoding="utf-8"))
    assert json.dumps(state).count(f'"dice_mode": "{mode}"') == 1
