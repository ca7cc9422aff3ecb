"""``sidekick lab``, run in-process: the report, JSON, files, the replay of one campaign kept to
open in the app, A/B, failures with the command that replays them, and bad arguments."""

from __future__ import annotations

import json
import shlex
import shutil
from pathlib import Path

import pytest

from engine.cli import main
from engine.lab import runner
from engine.lab.model import LabSpec, campaign_seed

Capsys = pytest.CaptureFixture[str]
ROOT = Path(__file__).resolve().parents[2]
SMALL = ["--runs", "4", "--scenes", "1", "--moves", "3", "--seed", "9"]


def run(capsys: Capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_a_run_prints_the_report(capsys: Capsys) -> None:
    code, out, err = run(capsys, "lab", *SMALL, "--workers", "1")
    assert (code, err) == (0, "")  # no progress bar: stderr is not a terminal
    assert out.startswith("Lab: masks, greedy policy, 4/4 campaigns, 12 rolls")
    assert "Bands per move" in out and "failed" not in out


def test_json_is_the_same_with_one_or_two_workers(capsys: Capsys) -> None:
    code, one, _ = run(capsys, "lab", *SMALL, "--json", "--workers", "1",
                       "--policy", "random")
    assert code == 0
    summary = json.loads(one)
    assert (summary["campaigns"], summary["ok"], summary["policy"]) == (4, 4, "random")
    assert summary["spec"]["seed"] == 9 and summary["totals"]["rolls"] > 0
    code, two, _ = run(capsys, "lab", *SMALL, "--json", "--workers", "2", "--policy", "random")
    assert (code, two) == (0, one)


def test_dask_gives_the_same_summary(capsys: Capsys) -> None:
    pytest.importorskip("dask.distributed")
    _, serial, _ = run(capsys, "lab", *SMALL, "--json", "--workers", "1")
    code, dask, _ = run(capsys, "lab", *SMALL, "--json", "--workers", "2", "--dask")
    assert (code, dask) == (0, serial)


def test_out_writes_the_report_files(tmp_path: Path, capsys: Capsys) -> None:
    code, out, _ = run(capsys, "lab", *SMALL, "--out", str(tmp_path / "r"), "--no-charts")
    assert code == 0
    assert f"the report is {tmp_path / 'r' / 'report.md'}" in out
    names = {p.name for p in (tmp_path / "r").iterdir()}
    assert {"report.md", "summary.json"} <= names and not any(n.endswith(".png") for n in names)
    assert json.loads((tmp_path / "r" / "summary.json").read_text())["campaigns"] == 4


def test_only_and_keep_replay_one_campaign_to_open_in_the_app(tmp_path: Path,
                                                             capsys: Capsys) -> None:
    keep = tmp_path / "kept"
    code, out, err = run(capsys, "lab", *SMALL, "--only", "2", "--keep", str(keep), "--json")
    assert code == 0
    replay = json.loads(out)
    full = runner.run(LabSpec(system="masks", runs=4, scenes=1, moves=3, seed=9), workers=2)
    cid = Path(replay["kept"]).name
    assert replay["kept"] == str(keep / cid) and (keep / cid).is_dir()
    assert {**replay, "kept": ""} == full[2]  # the same campaign as in the whole run
    opens = f"sidekick --saves {keep} --campaign {cid}"
    assert f"Open it in the app: {opens}" in err
    code, journal, _ = run(capsys, "--saves", str(keep), "export", cid)
    assert code == 0 and "\n# lab greedy #2\n" in journal
    code, again, err = run(capsys, "lab", *SMALL, "--only", "2", "--keep", str(keep))
    assert code == 1 and "exists already" in err and again == ""


def test_failures_are_listed_with_the_command_that_replays_them(tmp_path: Path,
                                                                capsys: Capsys) -> None:
    code, out, _ = run(capsys, "lab", *SMALL, "--max-steps", "8")
    assert code == 1
    assert "4 of 4 campaigns of masks failed" in out
    assert f"#3 seed {campaign_seed(9, 3)}: the campaign took more than 8 engine steps" in out
    command = next(line.strip() for line in out.splitlines() if "--only 3" in line)
    argv = shlex.split(command)
    assert argv[:2] == ["sidekick", "lab"] and argv[-2:] == ["--keep", "./lab-replay"]
    code, replay, _ = run(capsys, *argv[1:-2], "--keep", str(tmp_path / "k"))
    assert code == 1
    assert f"Campaign #3 of seed 9 (its dice seed {campaign_seed(9, 3)}): FAILED: the campaign" \
           " took more than 8 engine steps" in replay


def test_compare_a_pack_against_its_copy(tmp_path: Path, capsys: Capsys) -> None:
    copy = tmp_path / "masks"
    shutil.copytree(ROOT / "content" / "masks", copy)
    code, out, _ = run(capsys, "lab", "--compare", "masks", str(copy), "--runs", "6",
                       "--scenes", "1", "--moves", "3", "--json", "--out",
                       str(tmp_path / "ab"))
    assert code == 0
    diff = json.loads(out)
    assert diff["same_seeds"] and diff["significant"] == 0 and diff["tests"] > 0
    assert {p.name for p in (tmp_path / "ab").iterdir()} >= {"compare.md", "compare.json"}
    code, out, _ = run(capsys, "lab", "--compare", "masks", "masks", "--runs", "3",
                       "--scenes", "1", "--moves", "2")
    assert code == 0 and out.startswith("A/B: A masks vs B masks: 0 of")


def test_a_broken_pack_fails_before_any_campaign(tmp_path: Path, capsys: Capsys) -> None:
    pack = tmp_path / "masks"
    shutil.copytree(ROOT / "content" / "masks", pack)
    (pack / "moves.yaml").write_text("moves: [{id: x}]\n", encoding="utf-8")
    code, out, err = run(capsys, "lab", "--system", str(pack), "--runs", "2")
    assert (code, out) == (1, "")
    assert err.startswith(f"sidekick: error: {pack}: the content pack is broken")
    assert "Traceback" not in err


@pytest.mark.parametrize(("argv", "fragment"), [
    (["--runs", "0"], "--runs must be from 1 to 1,000,000, not 0"),
    (["--workers", "0"], "--workers must be from 1 to 1,024, not 0"),
    (["--scenes", "0"], "--scenes must be from 1"),
    (["--max-steps", "0"], "--max-steps must be from 1"),
    (["--only", "-1"], "--only must be from 0"),
    (["--seed", str(2**70)], "--seed must be a whole number below 2**63"),
    (["--policy", "nope"], "--policy: unknown policy 'nope'"),
    (["--policy", "no_such_module:Bot"], "--policy: policy 'no_such_module:Bot': cannot import"),
    (["--system", "nope"], "--system: unknown game system 'nope'; give a pack id"),
    (["--system", "./no/such/pack"], "--system './no/such/pack': no such pack folder"),
    (["--foes", "a,,b"], "--foes: expected stat block ids separated by commas"),
    (["--foes", "madame_undertow"], "--foes: foes are for the games with fights in rounds"),
    (["--system", "mutants-and-masterminds", "--foes", "nobody"],
     "--foes: no stat block 'nobody' in Mutants & Masterminds 3e (stat blocks: dockside_crew"),
    (["--keep", "somewhere"], "--keep saves the campaign that --only INDEX replays"),
    (["--compare", "masks", "masks", "--only", "1"], "--only replays one campaign of one pack"),
    (["--compare", "masks", "masks", "--system", "masks"], "--compare PACK_A PACK_B names both"),
    (["--compare", "masks", "nope"], "--compare: unknown game system 'nope'"),
])
def test_bad_arguments_are_one_clean_line_and_exit_2(capsys: Capsys, argv: list[str],
                                                      fragment: str) -> None:
    code, out, err = run(capsys, "lab", *argv)
    assert (code, out) == (2, "")
    assert err.startswith("sidekick: error: ") and err.count("\n") == 1, err
    assert fragment in err and "Traceback" not in err


@pytest.mark.parametrize("argv", [["--runs", "many"], ["--compare", "masks"], ["--bogus"]])
def test_argparse_errors_exit_2(capsys: Capsys, argv: list[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["lab", *argv])
    assert exit_.value.code == 2
    assert "Traceback" not in capsys.readouterr().err


def test_a_progress_bar_on_a_terminal(capsys: Capsys, monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    code, out, err = run(capsys, "lab", *SMALL, "--workers", "2")
    assert code == 0 and out.startswith("Lab: masks")
    assert "masks, greedy" in err and "4/4" in err  # the bar, on stderr only
