"""Fights in scripts: the fight steps (fight, act, end_turn, referee, take_over, hand_back,
die, end_fight, join_fight), their checks, the referee playing by itself, and the M&M example
fight from the command line (JSON lines, the journal, ``sidekick export``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from engine.cli import main
from engine.errors import EngineError
from engine.game import Game
from engine.script import ScriptError, parse_steps, run_script

CAMPAIGN: dict[str, Any] = {
    "name": "Pier Fourteen", "system": "mutants-and-masterminds", "seed": 21,
    "hero": {"name": "Keystone", "archetype": "keystone"},
    "party": [{"name": "Lamplight", "archetype": "lamplight"},
              {"name": "Slipstream", "archetype": "slipstream"}],
    "npcs": [{"name": "The Tallyman", "role": "villain"}],
}
"""Seed 21: the Dockside Crew's group roll goes first, then Slipstream, Lamplight, Keystone
and the Tallyman (the example fight's order)."""
FIGHT: dict[str, Any] = {"fight": {"foes": ["The Tallyman", "dockside_crew"]}}
EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "mm3e-harbor-fight.yaml"


def play(steps: list[dict[str, Any]], **campaign: Any) -> tuple[Game, list[dict[str, Any]]]:
    """Run a script in memory; the game and every event emitted."""
    events: list[dict[str, Any]] = []
    game = run_script({"campaign": {**CAMPAIGN, **campaign}, "steps": steps}, saves=None,
                      content=[], campaign=None, emit=events.append)
    return game, events


def fails(steps: list[dict[str, Any]], **campaign: Any) -> str:
    """The message a script fails with (an ``EngineError``)."""
    with pytest.raises(EngineError) as err:
        play(steps, **campaign)
    return str(err.value)


def rolls(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == "Rolled" and e.get("against") is not None]


# ------------------------------------------------------------------ the steps' shapes


@pytest.mark.parametrize(("step", "message"), [
    ({"fight": {"foes": []}}, "step 1: fight.foes: expected a list of foes (actor or stat"
     " block ids, or names), at least one, got []"),
    ({"fight": ["the_tallyman"]}, "step 1: fight: expected a mapping {foes: [the_tallyman,"),
    ({"fight": {"foes": ["x"], "referee_dice": "loaded"}},
     "step 1: fight.referee_dice: expected seeded or physical, got 'loaded'"),
    ({"act": {"target": "x"}}, "step 1: act.action: required key is missing"),
    ({"act": "attack"}, "step 1: act: expected a mapping {action, target, attack, maneuvers,"),
    ({"act": {"action": "attack", "maneuvers": {"power_attack": "two"}}},
     "step 1: act.maneuvers.power_attack: expected a whole number, got 'two'"),
    ({"act": {"action": "attack", "colour": 1}}, "step 1: act.colour: unknown key"),
    ({"referee": "later"}, "step 1: referee: expected step or run (the referee plays now)"),
    ({"end_turn": False}, "step 1: end_turn: expected true, got False"),
    ({"die": []}, "step 1: die: expected the face of a die you rolled"),
    ({"die": "six"}, "step 1: die: expected the face of a die you rolled (a whole number) or"
     " a list of them, got 'six'"),
    ({"take_over": ""}, "step 1: take_over: expected the name or id of a character"),
    ({**FIGHT, "die": 3}, "step 1: 'die' goes alone or beside 'act' or 'referee', not beside"
     " 'fight'"),
    ({"end_turn": True, "referee": "run"},
     "step 1: one fight action a step: end_turn and referee are two"),
    ({"act": {"action": "attack"}, "move": "skill_check"},
     "step 1: a fight step (act) takes only 'fiction', 'choose' and 'comment' besides,"
     " not move"),
    ({"end_fight": "over", "dice": [3]},
     "step 1: a fight step (end_fight) takes only 'fiction', 'choose' and 'comment'"
     " besides, not dice"),
])
def test_bad_fight_steps_are_named(step: dict[str, Any], message: str) -> None:
    with pytest.raises(ScriptError) as err:
        parse_steps([step])
    assert str(err.value).startswith(message), str(err.value)


def test_good_fight_steps_parse() -> None:
    steps = parse_steps([
        {**FIGHT, "fiction": "They come out of the fog."},
        {"act": {"action": "attack", "target": "The Tallyman", "attack": "Granite Fist",
                 "maneuvers": {"power attack": 2}, "options": {"finishing": True}},
         "end_turn": True, "die": [14, 3]},
        {"referee": "step", "die": 7}, {"take_over": "the_tallyman"}, {"end_fight": "fled"}])
    assert steps[1].act is not None and steps[1].act.maneuvers == {"power attack": 2}
    assert steps[1].die == [14, 3] and steps[2].die == 7


def test_the_campaign_referee_option_is_auto_or_manual() -> None:
    msg = fails([], referee="step")
    assert msg.startswith("campaign.referee: expected step or run"), msg
    assert "only these two in 'campaign'" in msg


# ------------------------------------------------------------------ playing a fight


def test_the_referee_plays_its_turns_before_the_heroes_act() -> None:
    game, events = play([FIGHT, {"act": {"action": "attack", "target": "dockside crew 1",
                                         "attack": "HUNDRED JABS"}}])
    kinds = [e["type"] for e in events]
    assert kinds.index("FightStarted") < kinds.index("FightActed")
    referee = [e for e in events if e["type"] == "FightActed" and e["by"] == "referee"]
    assert referee and referee[0]["actor"] == "dockside_crew_1"  # the crew went first
    mine = [r for r in rolls(events) if r["actor"] == "slipstream"]
    assert [r["what"] for r in mine] == ["attack on Dockside Crew 1 with Hundred Jabs"]
    # the crew was close, not engaged: Slipstream moved in first, which used her move
    # (test_mm3e_positions.py), so her turn ended with the attack
    moved = [e["text"] for e in events if e["type"] == "FightActed" and e["action"] == "move"]
    assert "Slipstream closes in on Dockside Crew 1 (a move action): engaged." in moved
    fight = game.fight
    assert fight is not None and fight.encounter.acting != "slipstream"


def test_manual_referee_waits_for_the_script() -> None:
    msg = fails([FIGHT, {"act": {"action": "defend"}}], referee="manual")
    assert msg.startswith("step 2 (act: defend): the referee plays Dockside Crew 1: take"
                          " over the turn first, or let the referee act"), msg
    game, events = play([FIGHT, {"referee": "step"}], referee="manual")
    fight = game.fight
    assert fight is not None and fight.pending is not None  # chosen, not yet resolved
    assert fight.pending.actor == "dockside_crew_1" and not rolls(events)
    game, _ = play([FIGHT, {"referee": "run"}], referee="manual")
    assert game.fight is not None and game.fight.encounter.acting == "slipstream"


def test_the_referee_mode_switches_within_a_script() -> None:
    steps = [FIGHT, {"referee": "manual"}, {"act": {"action": "defend"}}]
    assert fails(steps).startswith("step 3 (act: defend): the referee plays Dockside Crew 1")
    game, _ = play([FIGHT, {"referee": "auto"}, {"act": {"action": "defend"}}],
                   referee="manual")
    assert game.fight is not None and game.fight.encounter.acting == "slipstream"


def test_referee_run_when_it_is_not_the_referees_turn() -> None:
    msg = fails([FIGHT, {"referee": "run"}, {"referee": "run"}])
    assert msg.startswith("step 3 (referee: 'run'): it is not the referee's turn"), msg


def test_end_turn_beside_act_and_alone() -> None:
    act = {"action": "defend"}  # a standard action: the move is left
    game, _ = play([FIGHT, {"act": act, "end_turn": True}])
    assert game.fight is not None and game.fight.encounter.acting == "lamplight"
    game, _ = play([FIGHT, {"act": act}, {"end_turn": True}])
    assert game.fight is not None and game.fight.encounter.acting == "lamplight"


def test_maneuvers_and_options_by_words() -> None:
    act = {"action": "attack", "target": "The Tallyman", "attack": "Hundred Jabs",
           "maneuvers": {"Power Attack": 2}}
    _, events = play([FIGHT, {"act": act}])
    [attack] = [r for r in rolls(events) if r["actor"] == "slipstream"]
    assert attack["modifiers"] == [["Hundred Jabs", 12], ["maneuvers", -2]]
    [resist] = [r for r in rolls(events) if r["what"] == "resists Hundred Jabs"]
    assert resist["against"] == 15 + 8 + 2  # the rank traded up by 2


@pytest.mark.parametrize(("act", "message"), [
    ({"action": "attack", "target": "The Tallyman", "attack": "Laser Eyes"},
     "step 2 (act: attack): Slipstream has no attack 'Laser Eyes' (attacks: Hundred Jabs"
     " (hundred_jabs), Slipstream Vortex (slipstream_vortex))"),
    ({"action": "attack", "target": "Dusk", "attack": "Hundred Jabs"},
     "step 2 (act: attack): no character 'Dusk' in the fight (in it: "),
    ({"action": "attack", "target": "Lamplight", "attack": "Hundred Jabs"},
     "step 2 (act: attack): Lamplight is not a foe still in the fight"),
    ({"action": "dance"}, "step 2 (act: dance): unknown action 'dance' (actions: attack,"),
    ({"action": "attack", "attack": "Hundred Jabs", "maneuvers": {"power_attack": 9}},
     "step 2 (act: attack): "),
])
def test_bad_actions_name_the_step(act: dict[str, Any], message: str) -> None:
    msg = fails([FIGHT, {"act": act}])
    assert msg.startswith(message), msg


def test_take_over_and_hand_back() -> None:
    game, events = play([FIGHT, {"take_over": "the tallyman"}])
    row = {r.actor: r for r in game.tracker()}["the_tallyman"]
    assert row.control == "player"
    assert any(e["type"] == "FightActed" and e["text"] == "You play The Tallyman now."
               for e in events)
    game, _ = play([FIGHT, {"take_over": "The Tallyman"}, {"hand_back": "The Tallyman"}])
    assert {r.actor: r for r in game.tracker()}["the_tallyman"].control == "referee"
    msg = fails([FIGHT, {"take_over": "Nobody"}])
    assert msg.startswith("step 2 (take_over: 'Nobody'): no character 'Nobody' in the fight")


def test_physical_dice_for_initiative_and_the_attack() -> None:
    # initiative in entry order: Keystone, Lamplight, Slipstream, the Tallyman, the crew
    fight = {"fight": {"foes": ["The Tallyman", "dockside_crew"], "dice": [5, 6, 7, 12, 2]}}
    act = {"action": "attack", "target": "The Tallyman", "attack": "Hundred Jabs"}
    game, events = play([fight, {"act": act, "die": 17, "end_turn": True}], dice="physical")
    init = next(e for e in events if e["type"] == "InitiativeRolled")
    assert {r["actor"]: r["natural"] for r in init["rolls"]}["slipstream"] == 7
    [attack] = [r for r in rolls(events) if r["actor"] == "slipstream"]
    assert (attack["faces"], attack["entered"], attack["total"]) == ([17], True, 29)
    assert game.fight is not None and game.fight.encounter.acting != "slipstream"
    waiting = fails([fight, {"act": act}, {"act": act}], dice="physical")
    assert waiting.startswith("step 3 (act: attack): waiting for a d20"), waiting
    assert fails([fight, {"die": 4}], dice="physical").startswith(
        "step 2 (die: 4): no die is awaited")


def test_end_fight_and_join_fight() -> None:
    game, events = play([FIGHT, {"end_fight": "the Tallyman calls it a night"}])
    assert not game.fighting
    assert [e["result"] for e in events if e["type"] == "FightEnded"] == [
        "the Tallyman calls it a night"]
    game, events = play([{"fight": {"foes": ["The Tallyman"]}},
                         {"join_fight": "Madame Undertow"}])
    assert [e["id"] for e in events if e["type"] == "FoeAdded"] == ["madame_undertow"]
    assert "madame_undertow" in {r.actor for r in game.tracker()}


def test_fiction_in_a_fight_is_told_and_never_stalls_the_scene() -> None:
    steps = [FIGHT, *({"fiction": f"Line {i} of the fight.", "act": {"action": "defend"},
                       "end_turn": True} for i in range(4))]
    _, events = play(steps)
    said = [e["text"] for e in events if e["type"] == "Narrated"]
    assert said == [f"Line {i} of the fight." for i in range(4)]
    assert not [e for e in events if e["type"] in ("GMMoveMade", "QuietBeat")]


# ------------------------------------------------------------------ the example fight


def test_the_example_fight_ends_with_the_heroes_winning(capsys: pytest.CaptureFixture[str]
                                                        ) -> None:
    assert main(["script", str(EXAMPLE), "--dry-run"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    events = [json.loads(line) for line in out.splitlines()]
    kinds = [e["type"] for e in events]
    for kind in ("FightStarted", "InitiativeRolled", "TurnBegan", "FightActed", "Rolled",
                 "CombatantChanged", "FightEnded"):
        assert kind in kinds, kind
    [ended] = [e for e in events if e["type"] == "FightEnded"]
    assert ended["result"] == "the heroes win"
    fight = kinds[kinds.index("FightStarted"):kinds.index("FightEnded")]
    assert "GMMoveMade" not in fight
    team = [r for r in rolls(events) if r["what"] == "team attack on Keystone"]
    assert team and {r["against_name"] for r in team} == {"10 + Dodge 6"}  # Keystone's Dodge
    said = " ".join(r["what"] for r in rolls(events))
    for attack in ("Hundred Jabs", "Light Lance", "Faultline Stomp"):  # each hero's
        assert attack in said, attack


def test_the_example_exports_as_a_story(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    saves = str(tmp_path / "saves")
    assert main(["--saves", saves, "script", str(EXAMPLE)]) == 0
    capsys.readouterr()
    assert main(["--saves", saves, "export", "the-tallyman-s-due"]) == 0
    # blocks apart by blank lines (the export is CommonMark: issue 30); its headings a level
    # under the campaign's title
    lines = [x for x in capsys.readouterr().out.splitlines() if x]
    text = "\n".join(lines)
    start = next(i for i, x in enumerate(lines) if x.startswith("### ⚔ Fight!"))
    end = next(i for i, x in enumerate(lines) if x.startswith("**The fight is over"))
    # the Tallyman is knocked out (the stomp reached every foe, then Lamplight's lance): a plain
    # win; a fight that ends in flight says so (test_mm3e_turn_rules)
    assert start < end and lines[end] == "**The fight is over: the heroes win.**"
    fiction = [x for x in lines[start:end] if x.startswith("> ")]
    script = yaml.safe_load(EXAMPLE.read_text(encoding="utf-8"))
    told = [" ".join(s["fiction"].split()) for s in script["steps"] if "fiction" in s]
    assert fiction == [f"> {t}" for t in told]
    # each line of fiction comes just before its hero's roll, after the turn begins
    first = lines.index(f"> {told[0]}")
    assert lines[first - 1] == "Slipstream's turn."
    # she closes in on the crew (a move action: they stood close), then attacks
    assert lines[first + 1] == "Slipstream closes in on Dockside Crew 1 (a move action): engaged."
    assert lines[first + 2].startswith("🎲 Slipstream's attack on Dockside Crew 1")
    # a round whose first character is down still says it began
    assert [x.split(".**")[0] for x in lines if x.startswith("**Round")] == [
        "**Round 1", "**Round 2", "**Round 3"]
    assert "Traceback" not in text
    assert lines[-1].startswith("> A splash between the ferry and the pier")


# ------------------------------------------------------------------ sidekick new for M&M

HERO_FILE = """\
name: Tidewright
kind: hero
power_level: 10
concept: A marine biologist who pulls the harbor's water around her like armor.
abilities: {strength: 2, stamina: 4, agility: 3, dexterity: 4, fighting: 6, intellect: 4,
            awareness: 4, presence: 2}
defenses: {dodge: 9, parry: 8, toughness: 10, fortitude: 8, will: 9}
skills: {Perception: 8}
attacks:
  - {name: Water Whip, range: ranged, bonus: 10, effect: damage, rank: 10}
"""
NEW = ["new", "Harbor Watch", "--system", "mutants-and-masterminds", "--seed", "3"]


def test_new_with_the_ready_made_party(tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    from engine.campaigns import close_game, open_game

    saves = tmp_path / "saves"
    assert main(["--saves", str(saves), *NEW, "--hero", "Keystone", "--archetype", "keystone",
                 "--party", "Lamplight:lamplight", "--party", "Slipstream:Slipstream"]) == 0
    assert "Created campaign 'Harbor Watch' (harbor-watch)" in capsys.readouterr().out
    game = open_game(saves, "harbor-watch", [])
    try:
        assert [(h.name, h.data.get("statblock")) for h in game.state.heroes] == [
            ("Keystone", "keystone"), ("Lamplight", "lamplight"), ("Slipstream", "slipstream")]
        game.start_fight(["the_tallyman"])
        assert {r.actor for r in game.tracker()} == {
            "keystone", "lamplight", "slipstream", "the_tallyman"}
    finally:
        close_game(game)


def test_new_with_a_hero_from_a_stat_block(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    from engine.campaigns import close_game, open_game

    saves, hero = tmp_path / "saves", tmp_path / "tidewright.yaml"
    hero.write_text(HERO_FILE, encoding="utf-8")
    assert main(["--saves", str(saves), *NEW, "--statblock", str(hero),
                 "--party", "Keystone:keystone"]) == 0
    capsys.readouterr()
    game = open_game(saves, "harbor-watch", [])
    try:
        tide = game.state.actors["tidewright"]
        assert tide.name == "Tidewright" and tide.archetype is None
        assert tide.stats["fighting"] == 6 and tide.data["statblock"]["defenses"]["dodge"] == 9
        game.start_fight(["hornet_drones"])
        attacks = [o.attack for o in game.fight_options("tidewright") if o.attack]
        assert [(a.name, a.bonus, a.rank) for a in attacks] == [("Water Whip", 10, 10)]
    finally:
        close_game(game)
    # --hero names the hero instead of the block's name
    assert main(["--saves", str(saves), *NEW[:1], "Second", *NEW[2:], "--statblock",
                 str(hero), "--hero", "Mara"]) == 0
    assert "(second)" in capsys.readouterr().out


@pytest.mark.parametrize(("edit", "extra", "message"), [
    (None, ["--statblock", "{dir}/missing.yaml"], "--statblock '{dir}/missing.yaml': no such"
     " file"),
    (None, ["--statblock", "{file}", "--archetype", "keystone"],
     "--statblock makes the hero from the file: leave out --archetype and --stats"),
    ("rank: 10}", ["--statblock", "{file}"], "Tidewright: Water Whip: attack 10 + rank 16 ="
     " 26 > 2 x PL 10"),
    ("strength: 2,", ["--statblock", "{file}"], "Strength +14 is outside -5..+12 (a hero's"
     " abilities in Mutants & Masterminds 3e)"),
    ("name: Tidewright", ["--statblock", "{file}"], "cannot read"),
    (None, ["--archetype", "keystone", "--party", "Lamplight"],
     "--party: expected 'Name:archetype' like Lamplight:lamplight, got 'Lamplight'"),
    (None, ["--archetype", "keystone", "--party", "Lamp:nobody"], "unknown archetype 'nobody'"),
    (None, [], "give --archetype ID, --stats danger=1,freak=0,... or --statblock FILE (the"
     " games with stat block files)"),
])
def test_new_refuses_clearly(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                             edit: str | None, extra: list[str], message: str) -> None:
    hero = tmp_path / "hero.yaml"
    text = HERO_FILE
    if edit is not None:
        text = text.replace(edit, {"rank: 10}": "rank: 16}", "strength: 2,": "strength: 14,",
                                   "name: Tidewright": "name: ["}[edit])
    hero.write_text(text, encoding="utf-8")
    argv = [a.format(dir=tmp_path, file=hero) for a in extra]
    assert main(["--saves", str(tmp_path / "saves"), *NEW, *argv]) == 1
    err = capsys.readouterr().err
    assert err.startswith("sidekick: error: ") and "Traceback" not in err
    assert message.format(dir=tmp_path) in err, err
    assert not (tmp_path / "saves").exists() or not any((tmp_path / "saves").iterdir())


def test_statblock_is_refused_by_a_game_without_stat_blocks(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    hero = tmp_path / "hero.yaml"
    hero.write_text(HERO_FILE, encoding="utf-8")
    assert main(["--saves", str(tmp_path), "new", "Masks", "--statblock", str(hero)]) == 1
    assert f"--statblock '{hero}': Masks: A New Generation has no stat block files: this game" \
        " takes --archetype or --stats" in capsys.readouterr().err


def test_a_saved_fight_goes_on_in_a_later_script(tmp_path: Path) -> None:
    saves = tmp_path / "saves"
    run_script({"campaign": CAMPAIGN, "steps": [FIGHT]}, saves=saves, content=[],
               campaign=None, emit=lambda e: None)
    events: list[dict[str, Any]] = []
    game = run_script({"steps": [{"act": {"action": "attack", "target": "Dockside Crew 1",
                                          "attack": "Hundred Jabs"}, "end_turn": True}]},
                      saves=saves, content=[], campaign="pier-fourteen", emit=events.append)
    assert [e["actor"] for e in events if e["type"] == "FightActed"][:1] == ["dockside_crew_1"]
    assert game.fight is not None and game.fight.encounter.acting == "lamplight"
