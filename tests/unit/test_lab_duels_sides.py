"""The sides of a lab duel: side files checked with file:line errors, bad arguments, swept
traits, the 50% crossing, the fast duels' hook, and the campaign fights' turns and endings."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from engine.cli import main
from engine.errors import ContentError, IllegalAction
from engine.lab import duels, sides, sweep
from engine.lab.duels import DuelSpec, duel_pack, play_duel
from engine.rules.duel import DuelRecord

Capsys = pytest.CaptureFixture[str]
MM = "mutants-and-masterminds"


@pytest.fixture(scope="module")
def pack() -> Any:
    return duel_pack(DuelSpec(MM, (), ()))


def run(capsys: Capsys, *argv: str) -> tuple[int, str, str]:
    code = main(["lab", "--system", MM, *argv, "--workers", "1", "--runs", "2"])
    out, err = capsys.readouterr()
    return code, out, err


BROKEN = """\
characters:
  - name: Brick
    kind: hero
    power_level: 10
    abilities: {strength: 4, stamina: 4, agility: 1, dexterity: 1, fighting: 4, intellect: 0,
                awareness: 1, presence: 0}
    defenses: {dodge: 6, parry: 6, toughness: 10, fortitude: 8, will: 6}
    powers: [Protection]
    attacks:
      - {name: Punch, range: close, effect: damage, rank: 4}
"""


def test_a_broken_side_file_names_its_lines(tmp_path: Path, capsys: Capsys) -> None:
    bad = tmp_path / "brick.yaml"
    bad.write_text(BROKEN, encoding="utf-8")
    code, out, err = run(capsys, "--side", f"A={bad}", "--side", "B=pack:keystone")
    assert code == 1 and out == ""
    assert f"{bad}:8: Brick: powers:" in err  # the unknown key, on its line
    assert f"{bad}:10: Brick: attacks.0:" in err and "attack bonus" in err


def test_a_file_that_is_not_yaml_or_not_a_block(tmp_path: Path, capsys: Capsys) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: [unclosed\n", encoding="utf-8")
    code, _, err = run(capsys, "--side", f"A={bad}", "--side", "B=pack:keystone")
    assert code == 1 and "not valid YAML" in err and str(bad) in err
    bad.write_text("42\n", encoding="utf-8")
    code, _, err = run(capsys, "--side", f"A={bad}", "--side", "B=pack:keystone")
    assert code == 1 and "expected a stat block" in err
    code, _, err = run(capsys, "--side", f"A={tmp_path / 'none.yaml'}", "--side",
                       "B=pack:keystone")
    assert code == 1 and "no such file" in err
    code, _, err = run(capsys, "--side", f"A={tmp_path}", "--side", "B=pack:keystone")
    assert code == 1 and f"{tmp_path}: a folder, not a stat block file" in err


@pytest.mark.parametrize(("argv", "words"), [
    (["--side", "A=pack:keystone"], "a duel needs both sides: add --side B"),
    (["--side", "C=pack:keystone", "--side", "B=pack:keystone"], "expected A=FILE"),
    (["--side", "A=pack:keystone", "--side", "A=pack:lamplight"], "given twice"),
    (["--side", "A=pack:nobody", "--side", "B=pack:keystone"], "no stat block 'nobody'"),
    (["--side", "A=pack:keystone", "--side", "B=pack:keystone", "--sweep", "luck=1..3"],
     "has no number called 'luck'"),
    (["--side", "A=pack:keystone", "--side", "B=pack:keystone", "--sweep", "toughness=9..3"],
     "from low to high"),
    (["--side", "A=pack:keystone", "--side", "B=pack:keystone", "--sweep", "toughness=8..12"],
     "toughness 8 is below stamina 12"),
    (["--side", "A=pack:keystone", "--side", "B=pack:keystone", "--foes", "keystone"],
     "--foes is for campaigns"),
    (["--side", "A=pack:dockside_crew", "--side", "B=pack:keystone"], "side A cannot have a"
     " group"),
    (["--side", "A=pack:keystone", "--side", "B=pack:keystone", "--policy", "nope"],
     "unknown policy"),
])
def test_bad_arguments_exit_2(capsys: Capsys, argv: list[str], words: str) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert words in err


def test_traits_are_found_by_name_or_path(pack: Any) -> None:
    [ks] = sides.read_side(pack, "pack:keystone")
    assert sides.trait_path(ks, "toughness") == ("defenses", "toughness")
    assert sides.trait_path(ks, "pl") == ("power_level",)
    assert sides.trait_path(ks, "attacks.0.rank") == ("attacks", 0, "rank")
    assert sides.trait_path(ks, "attacks.faultline_stomp.rank") == ("attacks", 1, "rank")
    with pytest.raises(IllegalAction, match="nothing named 'kick'"):
        sides.trait_path(ks, "attacks.kick.rank")
    [changed] = sides.with_trait([ks], "attacks.0.rank", 14)
    assert changed["attacks"][0]["rank"] == 14 and ks["attacks"][0]["rank"] == 12


def test_a_side_file_may_be_one_block_a_list_or_characters(tmp_path: Path, pack: Any) -> None:
    [ks] = sides.read_side(pack, "pack:keystone")
    for data in (ks, [ks, {**ks, "name": "Other"}], {"characters": [ks]}):
        f = tmp_path / "side.yaml"
        f.write_text(json.dumps(data), encoding="utf-8")  # JSON is YAML
        blocks = sides.read_side(pack, str(f))
        assert blocks[0]["name"] == "Keystone"
    f.write_text(json.dumps({"characters": [{**ks, "kind": "boss"}]}), encoding="utf-8")
    with pytest.raises(ContentError, match=r"side.yaml:1: Keystone: kind"):
        sides.read_side(pack, str(f))


def test_sweep_values_and_points() -> None:
    assert sweep.parse_sweep("toughness=8..12/2") == sweep.Sweep("A", "toughness", (8, 10, 12))
    assert sweep.parse_sweep("b.dodge=3,5") == sweep.Sweep("B", "dodge", (3, 5))
    with pytest.raises(IllegalAction, match=r"expected TRAIT=LOW\.\.HIGH"):
        sweep.parse_sweep("toughness")
    with pytest.raises(IllegalAction, match="a grid of two"):
        sweep.points([sweep.parse_sweep(f"t{i}=1..2") for i in range(3)])


def test_the_even_point_is_interpolated() -> None:
    sw = [sweep.Sweep("A", "toughness", (10, 11, 12, 13))]
    rates = {10: 0.2, 11: 0.4, 12: 0.6, 13: 0.9}
    pts = [{"point": {"A.toughness": v}, "a_rate": r} for v, r in rates.items()]
    [even] = sweep.crossings(sw, pts)
    assert even["trait"] == "A.toughness" and even["at"] == pytest.approx(11.5)
    [never] = sweep.crossings(sw, [{**p, "a_rate": 0.1} for p in pts])
    assert never["at"] is None


class FakeDuels:
    """A game's fast duels, as the ``Duels`` protocol says."""

    def __init__(self) -> None:
        self.played: list[int] = []

    def supports(self, a: Any, b: Any) -> str | None:
        return None if len(a) == 1 else "one on one only"

    def play(self, a: Any, b: Any, seed: int, policy: str) -> DuelRecord:
        self.played.append(seed)
        return DuelRecord(winner="A", ending="fled", rounds=3, turns=6, first="B")

    def exact(self, a: Any, b: Any, policy: str) -> dict[str, Fraction]:
        return {"A": Fraction(2, 3), "B": Fraction(1, 3), "nobody": Fraction(0)}


def test_the_fast_duels_are_used_when_the_ruleset_has_them(
        monkeypatch: pytest.MonkeyPatch, capsys: Capsys) -> None:
    fake = FakeDuels()
    monkeypatch.setattr(duels, "fast_duels", lambda pack: fake)
    code, out, _ = run(capsys, "--side", "A=pack:keystone", "--side", "B=pack:lamplight",
                       "--json")
    s = json.loads(out)
    assert code == 0 and s["path"] == "fast" and len(fake.played) == 2
    [p] = s["points"]
    assert (p["a_wins"], p["endings"]["fled"], p["exact"]) == (
        2, 2, {"A": pytest.approx(2 / 3), "B": pytest.approx(1 / 3), "nobody": 0.0})
    # a skirmish the fast duels do not support is played as games
    spec = DuelSpec(MM, sides.dump(sides.read_side(duel_pack(DuelSpec(MM, (), ())),
                                                   "pack:keystone,lamplight")),
                    sides.dump(sides.read_side(duel_pack(DuelSpec(MM, (), ())),
                                               "pack:the_tallyman")), seed=2)
    assert duels.path_of(spec) == "game"
    assert play_duel(spec, 0).turns >= 1 and len(fake.played) == 2


def test_campaign_fights_record_turns_and_endings(capsys: Capsys) -> None:
    code, out, _ = run(capsys, "--scenes", "1", "--json")
    assert code == 0
    fights = json.loads(out)["fights"]
    assert fights["count"] == 2 and fights["turns"]["mean"] >= fights["rounds"]["mean"]
    assert sum(p["count"] for p in fights["endings"].values()) == 2
    assert set(fights["endings"]) <= {"knocked_out", "fled", "surrendered", "stalemate"}


def test_a_fight_ended_event_names_its_ending() -> None:
    from engine.lab.fights import STALEMATE, _Run

    run_ = _Run.__new__(_Run)
    run_.ending, run_.left, run_.heroes, run_.ended = "", {"v": "surrendered"}, ["h"], \
        "the heroes win"
    assert run_.how_ended("heroes") == "surrendered"
    run_.left = {"h": "fled"}
    assert run_.how_ended("villains") == "fled" and run_.how_ended("heroes") == "knocked_out"
    assert run_.how_ended(STALEMATE) == STALEMATE
    run_.ending = "fled"  # carried by FightEnded (another helper's change): taken as it is
    assert run_.how_ended("heroes") == "fled"
