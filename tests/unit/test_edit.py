"""Fix the sheet by hand (issue 9): ``Game.edit`` sets what a ruleset tracks as one journaled,
undoable action; what can be edited comes from the ruleset; scripts have ``do: edit``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from engine.content.loader import load_pack
from engine.errors import IllegalAction
from engine.game import CAMPAIGN, Edit, Game
from engine.journal import render_all
from engine.rules import events as ev
from engine.script import ScriptError, Step, play_step, run_script
from engine.systems.masks.rules import influence
from tests.conftest import ROOT

NewGame = Callable[..., Game]


def journal(game: Game) -> list[str]:
    """The campaign's journal lines."""
    return render_all(game.store.events(), game.pack)


def refused(fn: Callable[..., Any], *args: Any, **kw: Any) -> str:
    """The message of the IllegalAction ``fn`` raises (the state must not change)."""
    game: Game = fn.__self__  # type: ignore[attr-defined]
    before = game.state.model_dump(mode="json")
    with pytest.raises(IllegalAction) as err:
        fn(*args, **kw)
    assert game.state.model_dump(mode="json") == before
    return err.value.message


# ------------------------------------------------------------------ what each edit does


def test_mark_and_clear_a_condition_on_the_hero(new_game: NewGame, h: Any) -> None:
    game = new_game()
    events = game.edit("hero", "condition", "afraid", True, reason="the GM says so")
    assert game.state.hero.conditions == ["afraid"]
    edited = h.of(events, "Edited")
    assert edited == [{**edited[0], "who": "nova", "what": "condition", "key": "afraid",
                       "value": True, "was": False, "text": "Nova: Afraid marked",
                       "reason": "the GM says so"}]
    assert journal(game)[-1] == "✎ Edited by hand: Nova: Afraid marked (the GM says so)"
    game.edit("nova", "condition", "afraid", False)
    assert game.state.hero.conditions == []
    assert journal(game)[-1] == "✎ Edited by hand: Nova: Afraid cleared"


def test_conditions_on_an_npc_by_name(new_game: NewGame) -> None:
    game = new_game()
    game.edit("Vic Rook", "condition", "angry", True)
    assert game.state.actors["vic_rook"].conditions == ["angry"]
    assert game.state.hero.conditions == []


def test_set_a_label_a_track_and_the_team_pool(new_game: NewGame) -> None:
    game = new_game()
    game.edit("hero", "stat", "danger", -2)
    game.edit("hero", "track", "potential", 3)
    game.edit(CAMPAIGN, "pool", "team", 5)
    assert game.state.hero.stats["danger"] == -2
    assert game.state.hero.tracks["potential"] == 3
    assert game.state.pools["team"] == 5
    assert journal(game)[-3:] == ["✎ Edited by hand: Nova: Danger +1 → -2",
                                  "✎ Edited by hand: Nova: Potential 0 → 3",
                                  "✎ Edited by hand: Team 1 → 5"]


def test_a_threat_clock(new_game: NewGame) -> None:
    game = new_game()
    game.edit(CAMPAIGN, "clock", "takeover", 4)
    threat = game.state.threats["takeover"]
    assert (threat.clock, threat.active) == (4, True)
    assert journal(game)[-1] == "✎ Edited by hand: Vic Rook: the takeover's clock 0 → 4"


def test_influence_both_ways_between_two_characters(new_game: NewGame) -> None:
    game = new_game()
    st = game.state
    assert influence(st, "ada_vance", "nova")  # adults hold Influence when met
    game.edit("hero", "influence", "tin", True)
    assert influence(game.state, "nova", "tin")
    game.edit("hero", "influenced_by", "ada_vance", False)
    assert not influence(game.state, "ada_vance", "nova")
    game.edit("Bo", "influence", "nova", True)  # the same relation, seen from the NPC
    assert influence(game.state, "bo", "nova")
    assert journal(game)[-3:] == [
        "✎ Edited by hand: Nova: Influence over Tin gained",
        "✎ Edited by hand: Nova: Ada Vance's Influence over Nova lost",
        "✎ Edited by hand: Bo: Influence over Nova gained"]


def test_influence_between_two_heroes_of_a_party(new_game: NewGame) -> None:
    game = new_game(party=[{"name": "Kid Flux", "stats": {"danger": 2, "freak": 1, "savior": 0,
                                                          "superior": 0, "mundane": 0}}])
    other = game.state.party[1]
    game.edit(other, "influence", "nova", True)
    assert influence(game.state, other, "nova")
    assert game.state.acting == "nova"


def test_edit_many_is_one_action_and_one_undo(new_game: NewGame, h: Any) -> None:
    game = new_game()
    before = h.dump(game)
    game.edit_many([Edit("hero", "condition", "angry", True), Edit("hero", "stat", "savior", 3),
                    Edit("ada_vance", "condition", "guilty", True)], reason="set-up")
    assert len({e["a"] for e in game.last_events}) == 1
    assert game.state.hero.conditions == ["angry"]
    game.undo()
    assert h.dump(game) == before


def test_edit_many_is_all_or_nothing(new_game: NewGame, h: Any) -> None:
    game = new_game()
    before = h.dump(game)
    with pytest.raises(IllegalAction, match="Savior must be"):
        game.edit_many([Edit("hero", "condition", "angry", True),
                        Edit("hero", "stat", "savior", 9)])
    assert h.dump(game) == before
    assert refused(game.edit_many, []) == "nothing to edit"


def test_undo_restores_exactly_and_the_log_replays(new_game: NewGame, h: Any) -> None:
    game = new_game()
    game.edit("hero", "condition", "insecure", True)
    middle = h.dump(game)
    game.edit("hero", "influenced_by", "ada_vance", False)
    game.edit(CAMPAIGN, "clock", "takeover", 2)
    after = h.dump(game)
    game.undo()
    game.undo()
    assert h.dump(game) == middle
    # replaying the whole log from the first state gives the same state as playing it
    game.edit("hero", "influenced_by", "ada_vance", False)
    game.edit(CAMPAIGN, "clock", "takeover", 2)
    base, events = game.store.base_and_events_for_action(game.state.action_no + 1)
    state = type(game.state).model_validate(base)
    registry = game.rules.registry  # the log is read with the campaign's ruleset
    for d in events:
        registry.apply(state, registry.decode(d))
    assert state.model_dump(mode="json") == h.dump(game) == after


def test_an_edit_triggers_nothing_else(new_game: NewGame, h: Any) -> None:
    game = new_game()
    events = game.edit("hero", "track", "potential", 4)
    assert [e["type"] for e in events] == ["ActionStarted", "Edited"]
    assert game.state.hero.advances == []


def test_a_marked_condition_applies_its_penalty(new_game: NewGame) -> None:
    game = new_game()
    game.edit("hero", "condition", "afraid", True)
    preview = game.preview("directly_engage")
    assert any("Afraid" in str(m[0]) and m[1] == -2 for m in preview.modifiers)


# ------------------------------------------------------------------ refusals


def test_unknown_character(new_game: NewGame) -> None:
    game = new_game()
    assert refused(game.edit, "Zed", "condition", "afraid", True) == (
        "no character 'Zed' to edit; you can edit: Nova (nova), Ada Vance (ada_vance),"
        " Vic Rook (vic_rook), Tin (tin), Bo (bo), The campaign (campaign)")


def test_unknown_kind_of_value(new_game: NewGame) -> None:
    game = new_game()
    assert refused(game.edit, "hero", "hp", "x", 1) == (
        "Nova has no 'hp' to edit; you can edit: condition, stat, track, influence,"
        " influenced_by")
    assert refused(game.edit, "bo", "stat", "danger", 1) == (
        "Bo has no 'stat' to edit; you can edit: condition, influence, influenced_by")
    assert refused(game.edit, CAMPAIGN, "condition", "afraid", True) == (
        "the campaign has no 'condition' to edit; you can edit: pool, clock")


def test_unknown_stat_condition_track_or_threat(new_game: NewGame) -> None:
    game = new_game()
    assert refused(game.edit, "hero", "stat", "dangr", 1) == (
        "unknown stat 'dangr' for Nova; stats: danger, freak, savior, superior, mundane")
    assert refused(game.edit, "hero", "condition", "sad", True) == (
        "unknown condition 'sad' for Nova; conditions: afraid, angry, guilty, hopeless,"
        " insecure")
    assert refused(game.edit, "hero", "track", "team", 1) == (
        "unknown track 'team' for Nova; tracks: potential")
    assert refused(game.edit, CAMPAIGN, "clock", "doom", 1) == (
        "unknown clock 'doom' for the campaign; clocks: takeover")
    assert refused(game.edit, "bo", "influence", "tin", True) == (
        "unknown influence 'tin' for Bo; influences: nova")


@pytest.mark.parametrize(("who", "what", "key", "value", "message"), [
    ("hero", "stat", "danger", 4, "Nova: Danger must be a whole number from -2 to +3, not 4"),
    ("hero", "stat", "danger", -3, "Nova: Danger must be a whole number from -2 to +3, not -3"),
    ("hero", "stat", "danger", True, "must be a whole number from -2 to +3, not True"),
    # Potential empties when full (an advance): a full track is play, not an edit
    ("hero", "track", "potential", 5, "Nova: Potential must be a whole number from 0 to 4"),
    (CAMPAIGN, "pool", "team", -1, "Team must be a whole number of 0 or more, not -1"),
    (CAMPAIGN, "clock", "takeover", 6, "Vic Rook: the takeover's clock must be a whole number"
                                       " from 0 to 5, not 6"),
    ("hero", "condition", "afraid", 1, "Nova: Afraid is marked or not: the value is true or"
                                       " false, not 1"),
    ("hero", "influence", "tin", "yes", "the value is true or false, not 'yes'"),
])
def test_values_outside_the_bounds(new_game: NewGame, who: str, what: str, key: str,
                                   value: Any, message: str) -> None:
    game = new_game()
    assert message in refused(game.edit, who, what, key, value)


def test_a_no_op_is_refused(new_game: NewGame) -> None:
    game = new_game()
    assert refused(game.edit, "hero", "stat", "danger", 1) == "Nova: Danger is already +1"
    assert refused(game.edit, "hero", "condition", "afraid", False) == (
        "Nova: Afraid is already cleared")


def test_only_between_moves(new_game: NewGame) -> None:
    game = new_game()
    game.trigger("directly_engage")
    assert game.state.flow.stage == "roll"
    message = refused(game.edit, "hero", "condition", "afraid", True)
    assert message.startswith("the engine is waiting for a roll")
    game.undo()
    game.describe("I glare at Vic")
    assert refused(game.edit, "hero", "condition", "afraid", True).startswith(
        "the engine is waiting for a move")


def test_an_inactive_threat_has_no_clock_to_edit(new_game: NewGame, h: Any) -> None:
    game = new_game()
    h.setup(game, ev.DoomStruck(threat="takeover", text="the city goes dark"))
    assert [f.what for f in game.editable(CAMPAIGN)] == ["pool"]


# ------------------------------------------------------------------ what the ruleset lists


def test_the_masks_lists(new_game: NewGame) -> None:
    game = new_game()
    hero = game.editable("hero")
    groups = list(dict.fromkeys(f.group for f in hero))
    assert groups == ["Conditions", "Labels", "Tracks", "Influence"]
    danger = next(f for f in hero if f.key == "danger")
    assert (danger.value, danger.min, danger.max, danger.signed) == (1, -2, 3, True)
    over_ada = next(f for f in hero if f.what == "influenced_by" and f.key == "ada_vance")
    assert (over_ada.name, over_ada.value, over_ada.flag) == (
        "Ada Vance's Influence over Nova", True, True)
    # an NPC: conditions, and Influence with the heroes only
    bo = game.editable("Bo")
    assert {f.what for f in bo} == {"condition", "influence", "influenced_by"}
    assert {f.key for f in bo if f.what == "influence"} == {"nova"}
    assert game.edit_subjects()[0] == ("nova", "Nova")
    assert game.edit_subjects()[-1] == (CAMPAIGN, "The campaign")


def test_a_city_of_whispers_hero() -> None:
    pack = load_pack(ROOT / "content" / "city-of-whispers")
    stats = {s: 0 for s in pack.stats}
    stats[next(iter(stats))] = 2
    game = Game.new(pack, name="Cow", hero_name="Vell", stats=stats, seed=3)
    fields = game.editable("hero")
    assert {f.group for f in fields if f.what == "stat"} == {"Attributes"}
    assert not any(f.what.startswith("influence") for f in fields)
    heat = next(f for f in fields if f.key == "heat")
    game.edit("hero", "track", "heat", heat.max or 0, reason="the watch is out")
    assert game.state.hero.tracks["heat"] == heat.max
    assert journal(game)[-1].startswith("✎ Edited by hand: Vell: Heat 0 → ")


# ------------------------------------------------------------------ scripts

SCRIPT_CAMPAIGN: dict[str, Any] = {
    "name": "Edits", "system": "masks", "seed": 5,
    "hero": {"name": "Nova", "stats": {"danger": 1, "freak": 1, "savior": 1, "superior": 0,
                                       "mundane": 0}},
    "npcs": [{"name": "Rosalind", "role": "adult"}],
}


def test_do_edit_in_a_script() -> None:
    events: list[dict[str, Any]] = []
    game = run_script({"campaign": SCRIPT_CAMPAIGN, "steps": [
        {"do": "edit", "what": "condition", "key": "angry", "value": True,
         "reason": "last session"},
        {"do": "edit", "who": "Rosalind", "what": "influence", "key": "nova", "value": False},
        {"do": "edit", "who": "campaign", "what": "pool", "key": "team", "value": 3},
        {"do": "edit", "what": "stat", "key": "mundane", "value": 2},
    ]}, saves=None, content=[], campaign=None, emit=events.append)
    assert game.state.hero.conditions == ["angry"]
    assert not influence(game.state, "rosalind", "nova")
    assert game.state.pools["team"] == 3
    assert game.state.hero.stats["mundane"] == 2
    assert [e["text"] for e in events if e["type"] == "Edited"] == [
        "Nova: Angry marked", "Rosalind: Influence over Nova lost", "Team 1 → 3",
        "Nova: Mundane +0 → +2"]


def script_error(steps: list[dict[str, Any]]) -> str:
    with pytest.raises(ScriptError) as err:
        run_script({"campaign": SCRIPT_CAMPAIGN, "steps": steps}, saves=None, content=[],
                   campaign=None, emit=lambda e: None)
    return err.value.message


def test_a_bad_edit_in_a_script_names_its_step() -> None:
    assert script_error([
        {"do": "narrate", "text": "We regroup."},
        {"do": "edit", "what": "stat", "key": "danger", "value": 7},
    ]) == ("step 2 (do: edit): Nova: Danger must be a whole number from -2 to +3, not 7")
    assert script_error([{"do": "edit", "what": "condition", "key": "afraid"}]) == (
        "step 1: 'do: edit' needs value (e.g. who: hero, what: condition, key: afraid,"
        " value: true)")
    assert script_error([{"do": "edit", "what": "condition", "key": "afraid",
                          "value": "yes"}]).startswith("step 1: value: expected true or false")
    assert script_error([{"do": "edit", "who": "Nobody", "what": "condition", "key": "afraid",
                          "value": True}]).startswith(
        "step 1 (do: edit): no character 'Nobody' to edit")


def test_a_step_made_in_code_without_a_value_is_refused(new_game: NewGame) -> None:
    game = new_game()
    with pytest.raises(IllegalAction, match="'do: edit' needs what, key and value"):
        play_step(game, Step(do="edit", what="condition", key="afraid"))
