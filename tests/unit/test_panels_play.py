"""The panels game played from outside: ``sidekick new --statblock`` with a panels hero file,
fight steps in scripts (the dodge/parry answer with ``choose``, physical dice), a fight
interrupted in the middle of a panel and resumed from disk, and the example fight."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from engine.cli import main
from engine.errors import EngineError
from engine.game import Game
from engine.rules.fight.values import ChoiceNeed, DieNeed, PanelColumns
from engine.script import run_script

HERO = """\
name: Sparrowhawk
kind: hero
concept: A courier who runs along the Skyrail's roof with a hooked line.
characteristics: {agility: 20, dexterity: 18, strength: 12, other: {wits: 14}}
kill: 30
stun: 36
attacks:
  - {name: Fists, range: melee, fist: true}
  - {name: Hook Line, range: missile, speed: slow, modifier: 2}
"""
NEW = ["new", "Skyrail Watch", "--system", "panels", "--seed", "4"]


# ------------------------------------------------------------------ sidekick new --statblock


def test_new_with_a_panels_hero_from_a_stat_block(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    from engine.campaigns import close_game, open_game

    saves, hero = tmp_path / "saves", tmp_path / "sparrowhawk.yaml"
    hero.write_text(HERO, encoding="utf-8")
    assert main(["--saves", str(saves), *NEW, "--statblock", str(hero),
                 "--party", "Rivet:rivet"]) == 0
    assert "Created campaign 'Skyrail Watch' (skyrail-watch)" in capsys.readouterr().out
    game = open_game(saves, "skyrail-watch", [])
    try:
        hawk = game.state.actors["sparrowhawk"]
        assert hawk.name == "Sparrowhawk" and hawk.archetype is None
        # the pack's characteristics, Nerve (left out of the file) at 10
        assert hawk.stats == {"agility": 20, "dexterity": 18, "strength": 12, "wits": 14,
                              "nerve": 10}
        assert hawk.data["statblock"]["kill"] == 30
        game.start_fight(["tinmarket_tough"])
        row = next(r for r in game.tracker() if r.actor == "sparrowhawk").columns
        assert isinstance(row, PanelColumns)
        assert (row.kill, row.kill_max, row.stun_max) == (30, 30, 36)
        forms = [o.attack.name for o in game.fight_options("sparrowhawk") if o.attack]
        assert forms == ["Fists", "Hook Line"]
    finally:
        close_game(game)


@pytest.mark.parametrize(("edits", "messages"), [
    ({"agility: 20": "agility: 28", "kill: 30": "kill: 90", "modifier: 2}": "modifier: 9}"},
     ["Sparrowhawk (hero): agility 28 is above the hero's limit of 25",
      "Sparrowhawk (hero): kill 90 is outside 10-40",
      "Sparrowhawk (hero): Hook Line's damage modifier +9 is above +6"]),
    ({"dexterity: 18, strength: 12": "dexterity: 25, strength: 25"},
     ["agility + dexterity + strength is 70, above the hero's limit of 60"]),
    ({"kind: hero": "kind: villain"}, ["Sparrowhawk is a villain, not a hero (kind: hero)"]),
    ({"kill: 30": "kill: lots"}, ["'Sparrowhawk': kill: expected a whole number, got 'lots'"]),
    ({"name: Sparrowhawk": "name: ["}, ["not valid YAML"]),
])
def test_a_bad_panels_hero_file_names_the_file_and_every_problem(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], edits: dict[str, str],
        messages: list[str]) -> None:
    hero = tmp_path / "hero.yaml"
    text = HERO
    for old, new in edits.items():
        text = text.replace(old, new)
    hero.write_text(text, encoding="utf-8")
    assert main(["--saves", str(tmp_path / "saves"), *NEW, "--statblock", str(hero)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"sidekick: error: {hero}") and "Traceback" not in err, err
    for message in messages:
        assert message in err, err
    assert not (tmp_path / "saves").exists() or not any((tmp_path / "saves").iterdir())


def test_the_ruleset_hook_reads_a_file_for_each_game(tmp_path: Path) -> None:
    from engine.content.loader import get_pack
    from engine.errors import IllegalAction
    from engine.systems import ruleset_for

    hero = tmp_path / "hero.yaml"
    hero.write_text("characters:\n" + "".join(f"    {line}\n" if i else f"  - {line}\n"
                                                for i, line in enumerate(HERO.splitlines())),
                    encoding="utf-8")
    name, stats, data = ruleset_for(get_pack("panels", [])).hero_from_file(hero)
    assert (name, stats["agility"], data["statblock"]["name"]) == (
        "Sparrowhawk", 20, "Sparrowhawk")
    with pytest.raises(IllegalAction, match=r"City of Whispers.* has no stat block files"):
        ruleset_for(get_pack("city-of-whispers", [])).hero_from_file(hero)


# ------------------------------------------------------------------ fights in scripts

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "panels-skyrail-fight.yaml"
SCRIPT: dict[str, Any] = yaml.safe_load(EXAMPLE.read_text(encoding="utf-8"))
CAMPAIGN: dict[str, Any] = SCRIPT["campaign"]
START: list[dict[str, Any]] = SCRIPT["steps"][:4]
"""The example's scene and its fight's start (seed 12: a tie, 2 panels each; Cutglass first,
and her first blade hits Quarrel, who is asked how she answers it)."""
CAMPAIGN_ID = "last-train-to-tinmarket"


def play(steps: list[dict[str, Any]], saves: Path | None = None,
         campaign: str | None = None) -> tuple[Game, list[dict[str, Any]]]:
    """Run a script (in memory, or in ``saves``; ``campaign``: go on with a saved one)."""
    events: list[dict[str, Any]] = []
    data: dict[str, Any] = {"steps": steps}
    if campaign is None:
        data["campaign"] = CAMPAIGN
    game = run_script(data, saves=saves, content=[], campaign=campaign, emit=events.append)
    return game, events


def fails(steps: list[dict[str, Any]]) -> str:
    with pytest.raises(EngineError) as err:
        play(steps)
    return str(err.value)


def rolled(events: list[dict[str, Any]]) -> list[tuple[str, str, int, str]]:
    """Each fight roll: who, for what, the die, and how it came (entered or seeded)."""
    return [(e["actor"], e["what"], e["faces"][0], "entered" if e["entered"] else "seeded")
            for e in events if e["type"] == "Rolled"]


def outcome(game: Game) -> dict[str, Any]:
    """What a fight left: every character's tracks and conditions, and the fight's state."""
    fight = game.fight
    return {"actors": {a.id: (dict(a.tracks), list(a.conditions))
                       for a in game.state.actors.values()},
            "fight": fight.model_dump(mode="json") if fight else None,
            "position": game.state.dice_position}


def test_the_example_fight_ends_with_the_heroes_winning(
        capsys: pytest.CaptureFixture[str]) -> None:
    game, events = play(SCRIPT["steps"])
    assert not game.fighting
    assert [e["result"] for e in events if e["type"] == "FightEnded"] == ["the heroes win"]
    actors = game.state.actors
    # Cutglass knocked out by Quarrel's last blunt bolt, come round after the fight; her men
    # alive (she gave them first aid); the heroes standing
    assert (actors["cutglass"].tracks, actors["cutglass"].conditions) == (
        {"kill": 3, "stun": 1}, ["stunned"])
    assert {"stable", "unconscious"} <= set(actors["cistern_cutter"].conditions)
    assert not any("dead" in a.conditions for a in actors.values())
    assert actors["quarrel"].tracks == {"kill": 9, "stun": 12}
    parries = [r for r in rolled(events) if r[0] == "quarrel" and r[1].startswith("parr")]
    assert len(parries) == 2  # both answered with choose
    [typed] = [r for r in rolled(events) if r[3] == "entered"]
    assert (typed[0], typed[2]) == ("quarrel", 17) and typed[1].endswith(
        "Cutglass with Blunt Bolt")
    assert any(e["type"] == "FightActed" and "Knocked flat" in e["text"] for e in events)
    # the journal from the command line tells it to its end
    assert main(["script", str(EXAMPLE), "--dry-run", "--journal"]) == 0
    out = capsys.readouterr().out
    assert "**The fight is over: the heroes win.**" in out
    assert "Quarrel sees the first blade coming" in out and "d20 [17] (entered)" in out


@pytest.mark.parametrize("answer", ["parry:crossbow_stock", "Parry with Crossbow Stock",
                                    "parry crossbow stock", "PARRY WITH CROSSBOW STOCK"])
def test_a_hit_is_answered_by_id_label_or_words(answer: str) -> None:
    game, events = play([*START, {"fiction": "Quarrel gets her stock up.", "choose": answer}])
    who, what = [r[:2] for r in rolled(events)][-1]
    assert who == "quarrel" and what.startswith("parr") and what.endswith(
        "Cutglass's Glass Edges with Crossbow Stock")
    assert game.fight is not None and game.fight.encounter.participant("quarrel").arrears == 1


@pytest.mark.parametrize(("answer", "arrears"), [("dodge", 1), ("take it", 0), ("none", 0)])
def test_dodge_or_take_it(answer: str, arrears: int) -> None:
    game, events = play([*START, {"choose": [answer]}])
    dodged = [r for r in rolled(events) if r[1].startswith("dodge")]
    assert len(dodged) == (answer == "dodge")
    assert game.fight is not None
    assert game.fight.encounter.participant("quarrel").arrears == arrears


def test_a_wrong_answer_names_the_step_and_the_options() -> None:
    message = fails([*START, {"choose": ["duck"]}])
    assert message.startswith("step 5 (choose: ['duck']): Hit 25 (complete): respond to"
                              " Cutglass's Glass Edges?")
    assert "none, dodge, parry:crossbow_stock, parry:fists, not 'duck'" in message


def test_an_answer_with_nothing_asked_is_refused() -> None:
    message = fails([*START, {"choose": ["dodge"]}, {"choose": ["dodge"]}, {"choose": "dodge"}])
    assert message == "step 7 (choose: 'dodge'): no choice is awaited"


def test_the_answer_can_go_beside_the_step_that_asks() -> None:
    manual = {**CAMPAIGN, "referee": "manual"}
    events: list[dict[str, Any]] = []
    run_script({"campaign": manual, "steps": [
        *START, {"referee": "run", "choose": ["dodge"]}]}, saves=None, content=[],
        campaign=None, emit=events.append)
    _, auto = play([*START, {"choose": "dodge"}])
    assert rolled(events) == rolled(auto)


def test_every_fight_step_plays_in_the_panels_game() -> None:
    game, events = play([
        *START[:3], {"referee": "manual"},
        {"fight": {"foes": ["Cutglass", "cistern_cutter"], "band": "engaged"}},
        {"referee": "step"},  # the referee chooses Cutglass's first action, and says why
        {"referee": "step", "choose": "dodge"},  # ...carries it out: Quarrel dodges
        {"take_over": "Cutglass"},
        {"act": {"action": "move", "options": {"to": "onto the roof"}}, "end_turn": True},
        {"hand_back": "cutglass"},
        {"join_fight": "tinmarket_tough"},
        {"act": {"action": "attack", "target": "Cistern Cutter", "attack": "fighting staff"}},
        {"end_turn": True},
        {"end_fight": "the train stops"},
    ])
    kinds = [e["type"] for e in events]
    assert "FightStarted" in kinds and "FightEnded" in kinds
    acted = [(e["actor"], e["action"]) for e in events if e["type"] == "FightActed"]
    assert ("cutglass", "move") in acted and ("nightjar", "attack") in acted
    assert any(r[0] == "quarrel" and r[1].startswith("dodge") for r in rolled(events))
    assert "tinmarket_tough" in game.state.actors
    assert [e["result"] for e in events if e["type"] == "FightEnded"] == ["the train stops"]


# ------------------------------------------------------------------ the middle of a panel


AFTER: list[dict[str, Any]] = [
    {"choose": "parry:crossbow_stock"}, {"choose": "parry:crossbow_stock"},
    {"act": {"action": "attack", "target": "Cistern Cutter", "attack": "Fighting Staff"}}]
"""Quarrel's two parries, then Nightjar's first attack."""


def test_a_hit_awaiting_its_answer_resumes_from_disk(tmp_path: Path) -> None:
    """Saved while Quarrel's answer to a hit is awaited, reopened, answered: the same fight
    as played straight through."""
    whole, straight = play([*START, *AFTER], saves=tmp_path / "a")
    expected = outcome(whole)
    game, _ = play([*START, {"referee": "run"}], saves=tmp_path / "b")
    need = game.fight_need
    assert isinstance(need, ChoiceNeed) and need.who == "Quarrel"
    game, later = play(AFTER, saves=tmp_path / "b", campaign=CAMPAIGN_ID)
    assert outcome(game) == expected
    assert rolled(later) == rolled(straight)[-len(rolled(later)):]


def test_a_hit_awaiting_its_answer_can_be_undone(tmp_path: Path) -> None:
    whole, _ = play([*START, *AFTER])
    game, _ = play([*START, {"referee": "run"}, {"do": "undo"}, *AFTER])
    assert outcome(game) == outcome(whole)


def test_a_die_awaited_mid_panel_resumes_from_disk(tmp_path: Path) -> None:
    """Nightjar's attack waits for the player's dice; saved, reopened, the dice entered: the
    same as entered in the step itself."""
    physical: list[dict[str, Any]] = [{"do": "dice_mode", "text": "physical"}]
    attack: dict[str, Any] = {"act": {"action": "attack", "target": "Cistern Cutter",
                      "attack": "Fighting Staff"}}
    faces = [16, 2, 5, 4]
    whole, _ = play([*START, *AFTER[:2], *physical, {**attack, "die": faces}],
                    saves=tmp_path / "a")
    game, _ = play([*START, *AFTER[:2], *physical, attack], saves=tmp_path / "b")
    need = game.fight_need
    assert isinstance(need, DieNeed) and (need.who, need.sides) == ("Nightjar", 20)
    game, events = play([{"die": faces}], saves=tmp_path / "b", campaign=CAMPAIGN_ID)
    assert outcome(game) == outcome(whole)
    [typed] = [r for r in rolled(events) if r[3] == "entered"]
    assert (typed[0], typed[2]) == ("nightjar", 16) and typed[1].endswith(
        "Cistern Cutter with Fighting Staff")


def test_entered_side_dice_and_the_referees_physical_dice() -> None:
    """``fight.dice``: the sides' d6s in order (heroes, then villains); ``referee_dice:
    physical``: the referee's own rolls are typed in with ``die``, its hit answered with
    ``choose`` between them."""
    _, events = play([*START[:3], {"fight": {"foes": ["Cutglass", "cistern_cutter"],
                                             "dice": [2, 5], "referee_dice": "physical"}},
                      {"referee": "run", "die": [12]}, {"choose": "dodge", "die": [3, 4, 5]}])
    [initiative] = [e for e in events if e["type"] == "InitiativeRolled"]
    assert [(r["side"], r["natural"], r["panels"], r["first"]) for r in initiative["rolls"]] == [
        ("heroes", 2, 3, False), ("villains", 5, 3, True)]
    assert [(r[0], r[2], r[3]) for r in rolled(events)] == [
        ("cutglass", 12, "entered"), ("quarrel", 8, "seeded")]  # 12 + 6: a complete hit
    # Cutglass's damage dice as typed: Kill 2d10+4 [3, 4], Stun 1d10+4 [5]; the dodge failed
    [hurt] = [e for e in events if e["type"] == "TracksSet"]
    assert hurt["actor"] == "quarrel" and hurt["tracks"] == {"kill": 28 - 11, "stun": 34 - 9}
