"""``sidekick lab --side A=... --side B=...``: duels, skirmishes and sweeps of stat blocks,
fights only, both sides played by one policy; run in-process with small runs and seeds."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine.cli import main
from engine.lab import sides
from engine.lab.duels import DuelSpec, duel_pack, play_duel

Capsys = pytest.CaptureFixture[str]
ROOT = Path(__file__).resolve().parents[2]
OUTPUT = ROOT / "docs" / "schema" / "output"
MM = ["--system", "mutants-and-masterminds"]
EQUAL = ["--side", "A=pack:keystone", "--side", "B=pack:keystone"]

KEYSTONE = """\
name: Keystone
kind: hero
power_level: 10
abilities: {strength: 12, stamina: 12, agility: 1, dexterity: 1, fighting: 8, intellect: 2,
            awareness: 2, presence: 1}
defenses: {dodge: 6, parry: 8, toughness: 12, fortitude: 12, will: 8}
attacks:
  - {name: Granite Fist, range: close, bonus: 8, effect: damage, rank: 12}
"""
AHEAD = """\
- name: Keystone Ascendant
  kind: hero
  power_level: 11
  abilities: {strength: 13, stamina: 13, agility: 1, dexterity: 1, fighting: 9, intellect: 2,
              awareness: 2, presence: 1}
  defenses: {dodge: 7, parry: 9, toughness: 13, fortitude: 13, will: 9}
  attacks:
    - {name: Granite Fist, range: close, bonus: 9, effect: damage, rank: 13}
"""


def run(capsys: Capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def summary(capsys: Capsys, *argv: str) -> dict[str, Any]:
    code, out, err = run(capsys, "lab", *argv, "--json")
    assert (code, err) == (0, ""), err
    data: dict[str, Any] = json.loads(out)
    return data


def check_point(p: dict[str, Any], runs: int) -> None:
    assert p["runs"] == runs and p["failed"] == 0
    assert p["a_wins"] + p["b_wins"] + p["draws"] == runs
    assert p["a_low"] <= p["a_rate"] <= p["a_high"]
    assert sum(p["endings"].values()) == runs
    assert p["first"]["A"] + p["first"]["B"] == runs
    assert p["turns"]["mean"] >= p["rounds"]["mean"] >= 1


def test_a_duel_of_two_equal_pl10_blocks(capsys: Capsys) -> None:
    s = summary(capsys, *MM, *EQUAL, "--runs", "8", "--seed", "4", "--workers", "1")
    assert (s["kind"], s["a"], s["b"], s["policy"], s["path"]) == (
        "duel", "Keystone", "Keystone", "referee", "fast")  # the ruleset's fast duels
    [p] = s["points"]
    check_point(p, 8)
    assert s["sweep"] == [] and s["even"] == []


def test_the_report_says_rounds_turns_first_and_endings(capsys: Capsys) -> None:
    code, out, _ = run(capsys, "lab", *MM, *EQUAL, "--runs", "6", "--workers", "1")
    assert code == 0
    assert out.startswith("Duel: A Keystone vs B Keystone (mutants-and-masterminds, referee"
                          " policy on both sides, 6 fights a point")
    assert "95% interval" in out and "rounds" in out and "turns" in out
    assert "A acted first in" in out


def test_the_same_fights_with_one_or_two_workers(capsys: Capsys) -> None:
    args = [*MM, *EQUAL, "--runs", "6", "--seed", "2", "--policy", "greedy"]
    one = summary(capsys, *args, "--workers", "1")
    two = summary(capsys, *args, "--workers", "2")
    assert one == two and one["policy"] == "greedy"


def test_a_block_one_pl_ahead_from_files(tmp_path: Path, capsys: Capsys) -> None:
    (tmp_path / "a.yaml").write_text(KEYSTONE, encoding="utf-8")
    (tmp_path / "b.yaml").write_text(AHEAD, encoding="utf-8")
    s = summary(capsys, *MM, "--side", f"A={tmp_path / 'a.yaml'}",
                "--side", f"B={tmp_path / 'b.yaml'}", "--runs", "10", "--workers", "1")
    assert (s["a"], s["b"]) == ("Keystone", "Keystone Ascendant")
    [p] = s["points"]
    check_point(p, 10)
    assert p["exact"]["B"] > p["exact"]["A"]  # a point of everything ahead
    # the terminal report shows it beside the simulated rate; --no-exact leaves it out
    code, out, _ = run(capsys, "lab", *MM, "--side", f"A={tmp_path / 'a.yaml'}",
                       "--side", f"B={tmp_path / 'b.yaml'}", "--runs", "10", "--workers", "1")
    row = next(x for x in out.splitlines() if x.startswith("as given"))
    assert code == 0 and "exact" in out and f"{p['exact']['A']:.1%}" in row
    s = summary(capsys, *MM, "--side", f"A={tmp_path / 'a.yaml'}",
                "--side", f"B={tmp_path / 'b.yaml'}", "--runs", "10", "--workers", "1",
                "--no-exact")
    assert s["points"][0]["exact"] is None


def test_a_skirmish_with_a_minion_group(capsys: Capsys) -> None:
    s = summary(capsys, *MM, "--side", "A=pack:keystone,lamplight",
                "--side", "B=pack:the_tallyman,dockside_crew", "--runs", "3", "--workers", "1")
    assert s["kind"] == "skirmish" and s["b"] == "The Tallyman + Dockside Crew x6"
    check_point(s["points"][0], 3)


def test_a_sweep_of_toughness_against_defences(tmp_path: Path, capsys: Capsys) -> None:
    out = tmp_path / "sweep"
    code, text, _ = run(capsys, "lab", *MM, "--side", "A=pack:lamplight", "--side",
                        "B=pack:the_tallyman", "--sweep", "toughness=8..10", "--runs", "4",
                        "--workers", "1", "--out", str(out))
    assert code == 0
    assert text.startswith("Sweep: A Lamplight vs B The Tallyman")
    assert "swept A.toughness: 8..10 (3 values, 10 as given)" in text
    assert "A.toughness=8" in text and "A.toughness=10" in text
    data = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert [p["point"] for p in data["points"]] == [{"A.toughness": v} for v in (8, 9, 10)]
    for p in data["points"]:
        check_point(p, 4)
    assert data["even"][0]["trait"] == "A.toughness"
    fights = (out / "fights.csv").read_text(encoding="utf-8").splitlines()
    assert fights[0].startswith("A.toughness,index,seed,winner,ending,rounds,turns,first")
    assert len(fights) == 1 + 12
    assert len((out / "points.csv").read_text(encoding="utf-8").splitlines()) == 4
    report = (out / "report.md").read_text(encoding="utf-8")
    assert "95% interval (Wilson)" in report and "draws/stalemates" in report
    pytest.importorskip("matplotlib")
    assert (out / "winrate.png").stat().st_size > 1000


def test_a_grid_of_two_traits_and_side_b(capsys: Capsys) -> None:
    s = summary(capsys, *MM, "--side", "A=pack:lamplight", "--side", "B=pack:the_tallyman",
                "--sweep", "toughness=9..10", "--sweep", "B.dodge=9,11", "--runs", "2",
                "--workers", "1")
    assert [p["point"] for p in s["points"]] == [
        {"A.toughness": 9, "B.dodge": 9}, {"A.toughness": 10, "B.dodge": 9},
        {"A.toughness": 9, "B.dodge": 11}, {"A.toughness": 10, "B.dodge": 11}]
    assert [e["given"] for e in s["even"]] == [{"B.dodge": 9}, {"B.dodge": 11}]


def test_panels_duels_too(capsys: Capsys) -> None:
    s = summary(capsys, "--system", "panels", "--side", "A=pack:rivet", "--side",
                "B=pack:cutglass", "--runs", "3", "--workers", "1", "--policy", "greedy")
    assert (s["a"], s["b"]) == ("Rivet", "Cutglass")
    check_point(s["points"][0], 3)


def test_the_json_validates_against_its_schema(capsys: Capsys) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((OUTPUT / "lab-duel.schema.json").read_text(encoding="utf-8"))
    validator = jsonschema.Draft7Validator(schema)
    s = summary(capsys, *MM, *EQUAL, "--sweep", "B.toughness=12,13", "--runs", "2",
                "--workers", "1")
    assert list(validator.iter_errors(s)) == []
    assert list(validator.iter_errors({**s, "runs": "2"}))


def test_campaign_runs_are_unchanged_by_the_duel_options(capsys: Capsys) -> None:
    code, out, _ = run(capsys, "lab", "--runs", "2", "--scenes", "1", "--moves", "2",
                       "--workers", "1")
    assert code == 0 and out.startswith("Lab: masks, greedy policy, 2/2 campaigns")


# ---------------------------------------------------------------------------- both sides


class Counting:
    """The greedy pick, counting whose decisions it made."""

    name = "counting"

    def __init__(self) -> None:
        from engine.lab.policy import GreedyPolicy

        self.greedy = GreedyPolicy()
        self.actors: set[str] = set()

    def choose(self, decision: Any, rng: Any) -> int:
        self.actors.add(decision.actor)
        return self.greedy.choose(decision, rng)


def test_a_lab_policy_plays_both_sides() -> None:
    from engine.lab.duels import play_game_duel

    spec = DuelSpec(system="mutants-and-masterminds", a=(), b=())
    pack = duel_pack(spec)
    a, b = sides.read_side(pack, "pack:keystone"), sides.read_side(pack, "pack:keystone")
    policy = Counting()
    import random

    record = play_game_duel(pack, a, b, 11, policy, random.Random(1))
    assert policy.actors == {"keystone", "keystone_b"}  # the hero and B's Keystone (B)
    assert record.turns >= record.rounds >= 1 and record.first in ("A", "B")


def test_the_referee_plays_both_sides_alike() -> None:
    """Mirror blocks, both played by the referee: neither side wins every fight."""
    spec = DuelSpec(system="mutants-and-masterminds", a=sides.dump(
        sides.read_side(duel_pack(DuelSpec("mutants-and-masterminds", (), ())),
                        "pack:keystone")), b=(), policy="referee", seed=3)
    spec = DuelSpec(spec.system, spec.a, spec.a, "referee", seed=3)
    winners = {play_duel(spec, i).winner for i in range(12)}
    assert {"A", "B"} <= winners
