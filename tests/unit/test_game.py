"""The Game facade: prompts per stage, validation, failed actions, undo, scenes and sessions."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from engine.content.loader import Pack, load_pack
from engine.dice import DiceSpec, SeededDice
from engine.errors import IllegalAction
from engine.game import Game, MemoryStore
from engine.odds import band_odds, percent
from engine.rules import events as ev
from engine.rules.base import Option
from engine.rules.state import CampaignState
from engine.systems.masks.rules import InfluenceChanged

NewGame = Callable[..., Game]


# --------------------------------------------------------------------------- creation


def test_new_campaign_begins_in_a_scene_with_team_one(new_game: NewGame) -> None:
    game = new_game(archetype="signal_fire")
    st = game.state
    assert st.hero.stats == {"danger": -1, "freak": 2, "savior": 1, "superior": 0, "mundane": 1}
    assert st.scene.open and st.scene.number == 1
    assert st.session == 1
    assert st.pools == {"team": 1}  # the start-of-session +1
    assert st.hero.tracks == {"potential": 0}
    assert st.action_no == 1
    assert list(st.npcs) == ["ada_vance", "vic_rook", "tin", "bo"]
    assert game.pending.kind == "fiction"


@pytest.mark.parametrize(("kwargs", "fragment"), [
    ({"archetype": "nope"}, "unknown archetype 'nope'"),
    ({"stats": {"danger": 2, "freak": 2, "savior": 2, "superior": 0, "mundane": 0}},
     "add up to +6; they must add up to +3"),
    ({"stats": {"danger": 3, "freak": 0, "savior": 0, "superior": 0, "mundane": 0}},
     "Danger +3 is outside -1..+2"),
    ({"stats": {"danger": 1, "freak": 1, "savior": 1}}, "missing Superior, Mundane"),
    ({"stats": {"danger": 1, "freak": 1, "savior": 1, "superior": 0, "mundane": 0, "luck": 0}},
     "unknown labels luck"),
    ({"npcs": [("Zed", "alien", "")]}, "unknown role 'alien'"),
    ({"npcs": [("Zed", "villain", ""), ("zed", "adult", "")]}, "already an NPC called 'zed'"),
    ({"dice_mode": "psychic"}, "dice mode must be one of seeded, physical, mixed"),
])
def test_new_campaign_validation(new_game: NewGame, kwargs: dict[str, Any], fragment: str
                                 ) -> None:
    with pytest.raises(IllegalAction) as err:
        new_game(**kwargs)
    assert fragment in str(err.value)


def test_archetype_with_overrides(masks: Pack) -> None:
    game = Game.new(masks, name="X", hero_name="Y", archetype="signal_fire",
                    stats={"freak": 1, "superior": 1}, seed=1)
    assert game.state.hero.stats["freak"] == 1 and game.state.hero.stats["superior"] == 1


def test_game_refuses_another_systems_state(masks: Pack, new_game: NewGame, root: Any) -> None:
    other = load_pack(root / "tests" / "data" / "minimal")
    with pytest.raises(IllegalAction, match="campaign is for 'masks', not 'minimal'"):
        Game(other, new_game().state)


# --------------------------------------------------------------------------- the flow


def test_prompts_follow_the_stages(new_game: NewGame, h: Any) -> None:
    game = new_game()
    assert (game.pending.kind, game.pending.message) == ("fiction", "What do you do?")
    game.describe("I taunt the villain")
    p = game.pending
    assert p.kind == "move" and p.options[0].id == "provoke"
    assert p.fiction == "I taunt the villain"
    game.choose_move("provoke")
    p = game.pending
    assert p.kind == "target" and p.message == "Provoke someone: who is the target?"
    assert [o.id for o in p.options] == ["ada_vance", "bo", "tin", "vic_rook"]  # by name
    game.choose_target("Vic Rook")
    p = game.pending
    assert p.kind == "roll" and p.message == "Provoke someone: roll 2d6"
    assert p.preview.to_dict()["move"] == "provoke"
    game.roll([3, 5])  # 8 + Superior 0 = 8: +1 would not change the band
    p = game.pending
    assert p.kind == "choose" and (p.min, p.max) == (1, 1)
    game.choose(["err"])
    assert game.pending.kind == "fiction"
    assert game.state.flow.fiction == ""


def test_adjust_prompt(new_game: NewGame) -> None:
    game = new_game()
    game.trigger("directly_engage")
    game.roll([4, 4])  # 9
    p = game.pending
    assert p.kind == "adjust"
    assert p.message == "Weak hit (9). Change it?"
    assert p.options[0].id == "keep"
    assert p.roll["total"] == 9


@pytest.mark.parametrize(("action", "waiting"), [
    (lambda g: g.roll([3, 3]), "your fiction: What do you do?"),
    (lambda g: g.choose(["x"]), "your fiction"),
    (lambda g: g.adjust("keep"), "your fiction"),
    (lambda g: g.choose_target("Bo"), "your fiction"),
    (lambda g: g.spend_team(), "your fiction"),
    (lambda g: g.set_roll_options(stat="danger"), "your fiction"),
])
def test_wrong_stage_from_fiction(new_game: NewGame, h: Any, action: Any, waiting: str) -> None:
    game = new_game()
    before = h.dump(game)
    with pytest.raises(IllegalAction) as err:
        action(game)
    assert str(err.value).startswith(f"the engine is waiting for {waiting}")
    assert h.dump(game) == before


@pytest.mark.parametrize("action", [
    lambda g: g.describe("I run"),
    lambda g: g.trigger("unleash_powers"),
    lambda g: g.choose(["resist"]),
    lambda g: g.adjust("keep"),
    lambda g: g.end_scene(),
    lambda g: g.start_scene("x"),
    lambda g: g.end_session(),
    lambda g: g.ask_gm(),
    lambda g: g.narrate("meanwhile"),
])
def test_wrong_stage_while_a_roll_is_pending(new_game: NewGame, h: Any, action: Any) -> None:
    game = new_game()
    game.trigger("directly_engage")
    before, log = h.dump(game), list(game.store.log)
    with pytest.raises(IllegalAction, match="waiting for a roll: Directly engage a threat: roll"):
        action(game)
    assert h.dump(game) == before
    assert game.store.log == log


def test_wrong_stage_while_a_choice_is_open(new_game: NewGame) -> None:
    game = new_game()
    game.trigger("directly_engage")
    game.roll([6, 6])
    with pytest.raises(IllegalAction, match="waiting for a choice: What else do you get"):
        game.roll([6, 6])


@pytest.mark.parametrize(("ids", "fragment"), [
    (["resist"], "pick exactly 2 (you picked 1)"),
    (["resist", "opening", "impress"], "pick exactly 2 (you picked 3)"),
    ([], "pick exactly 2 (you picked 0)"),
    (["resist", "fly"], "'fly' is not an option here (options: resist, take_from, opening,"
                        " impress)"),
    (["resist", "resist"], "each option can be picked only once"),
])
def test_choose_validation(new_game: NewGame, h: Any, ids: list[str], fragment: str) -> None:
    game = new_game()
    game.trigger("directly_engage")
    game.roll([6, 6])
    before, log = h.dump(game), list(game.store.log)
    with pytest.raises(IllegalAction) as err:
        game.choose(ids)
    assert fragment in str(err.value)
    assert h.dump(game) == before
    assert game.store.log == log
    game.choose(["resist", "impress"])  # and the prompt still works afterwards


@pytest.mark.parametrize(("call", "fragment"), [
    (lambda g: g.trigger("punch_everything"), "unknown move 'punch_everything'"),
    (lambda g: g.trigger("provoke", "Nobody"), "no NPC called 'Nobody' (NPCs: Ada Vance, Vic"),
    (lambda g: g.trigger("comfort_support", "Vic Rook"), "cannot target Vic Rook (villain)"),
    (lambda g: g.trigger("take_advantage_influence", "Bo"), "no Influence over Bo"),
    (lambda g: g.trigger("wield_powers"), "locked"),
    (lambda g: g.describe("   "), "describe what your hero does first"),
    (lambda g: g.narrate(""), "nothing to narrate"),
    (lambda g: g.took_clearing_action("sad"), "unknown condition 'sad'"),
    (lambda g: g.end_scene(["sad"]), "unknown condition 'sad'"),
    (lambda g: g.start_scene("x", present=["Nobody"]), "no NPC called 'Nobody'"),
    (lambda g: g.set_presence("Nobody", False), "no NPC called 'Nobody'"),
    (lambda g: g.add_npc("Bo", "bystander"), "already an NPC called 'Bo'"),
    (lambda g: g.add_npc("  ", "bystander"), "an NPC needs a name"),
    (lambda g: g.undo(), "nothing to undo: the campaign has just begun"),
    (lambda g: g.preview("give_influence"), "Give Influence has no roll"),
])
def test_failed_actions_change_nothing(new_game: NewGame, h: Any, call: Any, fragment: str
                                       ) -> None:
    game = new_game()
    before, log = h.dump(game), list(game.store.log)
    with pytest.raises(IllegalAction) as err:
        call(game)
    assert fragment in str(err.value)
    assert h.dump(game) == before
    assert game.store.log == log


def test_unknown_move_suggests_close_ids(new_game: NewGame) -> None:
    with pytest.raises(IllegalAction, match="did you mean provoke"):
        new_game().trigger("provok")


@pytest.mark.parametrize(("faces", "fragment"), [
    ([3], "2d6 needs 2 dice, but 1 was entered"),
    ([3, 9], "a d6 shows 1 to 6; 9 is out of range"),
])
def test_bad_dice_change_nothing(new_game: NewGame, h: Any, faces: list[int], fragment: str
                                 ) -> None:
    game = new_game()
    game.trigger("directly_engage")
    before = h.dump(game)
    with pytest.raises(IllegalAction, match=fragment):
        game.roll(faces)
    assert h.dump(game) == before


def test_a_failure_inside_an_action_rolls_it_back(new_game: NewGame, h: Any) -> None:
    game = new_game()
    h.setup(game, InfluenceChanged(npc="bo", direction="over_hero", held=False,
                                      permanent=True))
    game.end_session()  # end of session: grow closer gives Influence to someone you pick
    game.choose(["grow_closer"])
    assert "bo" not in {o.id for o in game.pending.options}  # barred for good
    before, log = h.dump(game), list(game.store.log)
    with pytest.raises(IllegalAction):
        game.choose(["bo"])
    assert h.dump(game) == before
    assert game.store.log == log


def test_physical_dice_need_faces(new_game: NewGame, h: Any) -> None:
    game = new_game(dice_mode="physical")
    game.trigger("directly_engage")
    with pytest.raises(IllegalAction, match="physical dice: enter the faces"):
        game.roll()
    events = game.roll([2, 5])
    assert h.of(events, "Rolled")[0]["entered"] is True
    assert game.state.dice_position == 0


# --------------------------------------------------------------------------- dice and determinism


def test_seeded_rolls_use_and_advance_the_campaign_dice(new_game: NewGame, h: Any) -> None:
    game = new_game(seed=4242)
    game.trigger("unleash_powers")
    events = game.roll()
    [rolled] = h.of(events, "Rolled")
    expected = SeededDice(4242, 0).roll(DiceSpec.parse("2d6"))
    assert rolled["faces"] == list(expected.faces)
    assert rolled["entered"] is False
    assert game.state.dice_position == 2
    h.settle(game)
    game.trigger("unleash_powers")
    events = game.roll()
    assert h.of(events, "Rolled")[0]["faces"] == list(
        SeededDice(4242, 2).roll(DiceSpec.parse("2d6")).faces)
    assert game.state.dice_position == 4


def test_entered_dice_do_not_move_the_seeded_stream(new_game: NewGame, h: Any) -> None:
    game = new_game(seed=9)
    game.trigger("unleash_powers")
    h.roll(game, [6, 6])
    assert game.state.dice_position == 0
    game.trigger("unleash_powers")
    events = game.roll()
    assert h.of(events, "Rolled")[0]["faces"] == list(
        SeededDice(9, 0).roll(DiceSpec.parse("2d6")).faces)


def play_a_little(game: Game, h: Any) -> None:
    game.describe("I punch the drone")
    game.choose_move("directly_engage")
    game.roll()
    h.settle(game)
    game.trigger("provoke", "Vic Rook")
    game.roll()
    h.settle(game)
    game.ask_gm()
    h.settle(game)
    game.end_scene()
    game.start_scene("Rooftops", present=["Tin"])
    game.trigger("comfort_support", "Tin")
    game.roll()
    h.settle(game)


def test_same_seed_same_inputs_same_campaign(new_game: NewGame, h: Any) -> None:
    a, b = new_game(seed=31337), new_game(seed=31337)
    play_a_little(a, h)
    play_a_little(b, h)
    assert h.dump(a) == h.dump(b)
    assert a.store.log == b.store.log


def test_different_seeds_roll_differently(new_game: NewGame, h: Any) -> None:
    faces = []
    for seed in (1, 2, 3):
        game = new_game(seed=seed)
        for _ in range(3):
            game.trigger("unleash_powers")
            faces.append(tuple(h.of(game.roll(), "Rolled")[0]["faces"]))
            h.settle(game)
    assert len({tuple(faces[i:i + 3]) for i in (0, 3, 6)}) == 3


# --------------------------------------------------------------------------- undo


def test_undo_restores_the_exact_previous_state(new_game: NewGame, h: Any) -> None:
    game = new_game()
    game.trigger("directly_engage")
    before = h.dump(game)
    game.roll([6, 6])
    assert h.dump(game) != before
    assert game.undo() == []
    assert h.dump(game) == before
    assert game.state.flow.stage == "roll"


def test_undo_restores_the_dice_position(new_game: NewGame, h: Any) -> None:
    game = new_game(seed=77)
    game.trigger("unleash_powers")
    first = h.of(game.roll(), "Rolled")[0]
    assert game.state.dice_position == 2
    game.undo()
    assert game.state.dice_position == 0
    again = h.of(game.roll(), "Rolled")[0]
    assert again["faces"] == first["faces"]
    assert again["position"] == first["position"] == 2


def test_several_undos_in_a_row(new_game: NewGame, h: Any) -> None:
    game = new_game()
    snapshots = [h.dump(game)]
    game.describe("I punch the drone")
    snapshots.append(h.dump(game))
    game.choose_move("directly_engage")
    snapshots.append(h.dump(game))
    game.roll([6, 6])
    snapshots.append(h.dump(game))
    game.choose(["resist", "opening"])
    snapshots.append(h.dump(game))
    game.end_scene()
    for expected in reversed(snapshots):
        game.undo()
        assert h.dump(game) == expected
    with pytest.raises(IllegalAction, match="nothing to undo"):
        game.undo()


def test_undo_then_play_on(new_game: NewGame, h: Any) -> None:
    game = new_game()
    game.trigger("directly_engage")
    waiting = game.state.action_no
    game.roll([1, 1])
    h.settle(game)  # the GM's hard move may ask for a pick: one or two actions
    while game.state.action_no > waiting:
        game.undo()
    assert game.state.flow.stage == "roll"
    game.roll([6, 6])
    game.choose(["resist", "impress"])
    # the log holds no trace of the undone roll
    rolls = [e for e in game.store.log if e["type"] == "Rolled"]
    assert [r["faces"] for r in rolls] == [[6, 6]]
    replayed = CampaignState.model_validate(game.store.initial)
    for d in game.store.log:
        game.rules.registry.apply(replayed, game.rules.registry.decode(d))
    assert replayed.model_dump(mode="json") == h.dump(game)


def test_memory_store_keeps_every_event_numbered(new_game: NewGame, h: Any) -> None:
    game = new_game()
    play_a_little(game, h)
    ns = [e["n"] for e in game.store.log]
    assert ns == list(range(1, len(ns) + 1))
    actions = [e["a"] for e in game.store.log]
    assert actions == sorted(actions)
    assert [e["type"] for e in game.store.log if e["type"] == "ActionStarted"]
    assert isinstance(game.store, MemoryStore)


# --------------------------------------------------------------------------- suggestions and odds


@pytest.mark.parametrize(("text", "move", "cue"), [
    ("I punch the robot", "directly_engage", "punch"),
    ("I shield the kids from the blast", "defend_someone", "shield"),
    ("I look around the room for exits", "assess_situation", "look around"),
    ("I taunt him until he snaps", "provoke", "taunt"),
    ("The robot slams into me and I'm knocked flying", "take_powerful_blow", "into me"),
])
def test_suggestions_are_ranked_with_the_words_that_led_to_them(
        new_game: NewGame, text: str, move: str, cue: str) -> None:
    game = new_game()
    game.describe(text)
    first = game.state.flow.suggestions[0]
    assert first["move"] == move
    assert first["words"] and all(w in text for w in first["words"])
    option = game.pending.options[0]
    assert (option.id, option.label) == (move, game.pack.moves[move].name)
    assert option.detail.startswith("from: ")
    scores = [s["score"] for s in game.state.flow.suggestions]
    assert scores == sorted(scores, reverse=True)


def test_suggestions_carry_exact_odds(new_game: NewGame, masks: Pack) -> None:
    game = new_game()
    sug = game.suggest("I punch the robot")[0]
    assert sug.move == "directly_engage"
    expected = band_odds(DiceSpec.parse("2d6"), 1, masks.system.bands["default"])
    assert sug.odds == {b: percent(p) for b, p in expected.items()}
    assert sug.chances == {b: float(p) for b, p in expected.items()}  # exact, as numbers
    game.describe("I punch the robot")
    shown = game.pending.suggestions[0]  # read back from the flow, which keeps the words
    assert shown.odds == sug.odds
    assert all(abs(shown.chances[b] - float(p)) < 0.0005 for b, p in expected.items())


def test_locked_moves_are_not_suggested(new_game: NewGame, h: Any) -> None:
    game = new_game()
    text = "I finish them off with a knockout blow"
    # only as a locked hint, after every move that can be taken (issue 26)
    locked = [s for s in game.suggest(text) if s.move == "overwhelm_foe"]
    assert all("locked" in s.blocked for s in locked)
    assert not locked or game.suggest(text)[-1].move == "overwhelm_foe"
    assert "overwhelm_foe" in [s.move for s in game.suggest(text, everything=True)]
    game2 = new_game()
    h.setup(game2, ev.FlagSet(flag="adult_moves"))
    assert game2.suggest(text)[0].move == "overwhelm_foe"


def test_plain_talk_suggests_no_move_first_then_three_moves(new_game: NewGame) -> None:
    game = new_game()
    game.describe("I order a coffee and watch the rain")
    assert game.pending.kind == "move"
    ids = [o.id for o in game.pending.options]
    assert ids[0] == "none" and len(ids) == 4 and "none" not in ids[1:]
    assert game.pending.options[0].label == "No move, just fiction"
    game.answer("none")
    assert game.state.flow.stage == "fiction"


def test_the_named_npc_is_the_suggested_target_and_comes_first(new_game: NewGame) -> None:
    game = new_game()
    game.add_npc("Dusk Meridian", "villain")
    game.add_npc("Parveen Lal", "bystander")
    game.describe("I study Dusk. What is he hiding behind that grin?")
    first = game.state.flow.suggestions[0]
    assert first["move"] == "pierce_the_mask"
    assert (first["target"], first["target_name"]) == ("dusk_meridian", "Dusk Meridian")
    assert "target Dusk Meridian" in game.pending.options[0].detail
    game.choose_move("pierce_the_mask")
    assert game.pending.kind == "target"
    top = game.pending.options[0]
    assert top.id == "dusk_meridian" and "named in your fiction" in top.detail
    assert game.state.flow.target == "dusk_meridian"
    game.choose_target("parveen_lal")  # the player may still pick someone else
    assert game.state.flow.target == "parveen_lal"


def test_a_pronoun_points_at_the_only_npc_in_the_scene(new_game: NewGame) -> None:
    game = new_game(npcs=())
    game.add_npc("Dusk Meridian", "villain")
    sug = game.suggest("I watch his face. Is he lying to me?")[0]
    assert sug.move == "pierce_the_mask" and sug.target == "dusk_meridian"
    game.add_npc("Parveen Lal", "bystander")  # two in the scene: a pronoun is not enough
    assert game.suggest("I watch his face. Is he lying to me?")[0].target is None


def test_a_move_without_a_target_gets_none(new_game: NewGame) -> None:
    game = new_game()
    game.add_npc("Dusk Meridian", "villain")
    sug = game.suggest("I punch Dusk in the jaw")[0]
    assert sug.move == "directly_engage" and sug.target is None


@pytest.mark.parametrize("conditions", [[], ["afraid"], ["afraid", "angry"]])
def test_pending_roll_odds_are_exact(new_game: NewGame, h: Any, masks: Pack,
                                     conditions: list[str]) -> None:
    game = new_game()
    h.setup(game, *[ev.ConditionMarked(who="hero", condition=c) for c in conditions])
    game.trigger("directly_engage")
    preview = game.pending.preview.to_dict()
    modifier = 1 - (2 if "afraid" in conditions else 0)  # Danger 1, Afraid -2
    assert preview["modifier"] == modifier
    exact = band_odds(DiceSpec.parse("2d6"), modifier, masks.system.bands["default"])
    assert preview["odds"] == {b: percent(p) for b, p in exact.items()}
    rolled = h.of(game.roll([3, 3]), "Rolled")[0]
    assert rolled["odds"] == preview["odds"]  # the roll records the odds it had


# --------------------------------------------------------------------------- fiction without a move


def test_fiction_with_no_move(new_game: NewGame, h: Any) -> None:
    game = new_game()
    game.describe("I order a coffee")
    events = game.choose_move(None)
    assert game.pending.kind == "fiction"
    assert h.of(events, "MoveTriggered") == []
    assert [e["text"] for e in h.of(game.store.log, "Narrated") if e["by"] == "player"] == [
        "I order a coffee"]
    events = game.narrate("  The rain keeps falling.  ")
    assert h.of(events, "Narrated")[0]["text"] == "The rain keeps falling."


def test_describe_again_replaces_the_suggestions(new_game: NewGame) -> None:
    game = new_game()
    game.describe("I punch him")
    game.describe("I taunt him")
    assert game.state.flow.suggestions[0]["move"] == "provoke"
    assert game.state.flow.fiction == "I taunt him"


def test_answer_is_the_scripted_entry_point(new_game: NewGame) -> None:
    game = new_game()
    game.answer("I punch the robot")
    game.answer("directly_engage")
    game.answer([6, 6])
    game.answer(["resist", "take_from"])
    assert game.pending.kind == "fiction"


# --------------------------------------------------------------------------- scenes and sessions


def test_end_scene_clears_conditions_whose_action_was_taken(new_game: NewGame, h: Any) -> None:
    # issue 28 item 3: a clearing action clears its condition at the scene's end (the seed)
    game = new_game()
    h.setup(game, *[ev.ConditionMarked(who="hero", condition=c)
                    for c in ("afraid", "angry", "guilty")])
    events = game.took_clearing_action("afraid")
    assert h.of(events, "ConditionCleared") == []
    assert game.state.hero.conditions == ["afraid", "angry", "guilty"]
    with pytest.raises(IllegalAction, match="already taken this scene"):
        game.took_clearing_action("afraid")
    before = h.dump(game)
    with pytest.raises(IllegalAction, match="Nova is not Hopeless: there is nothing to clear"):
        game.took_clearing_action("hopeless")
    assert h.dump(game) == before
    events = game.end_scene(cleared=["guilty"])
    cleared = sorted(e["condition"] for e in h.of(events, "ConditionCleared"))
    assert cleared == ["afraid", "guilty"]
    assert game.state.hero.conditions == ["angry"]
    assert not game.state.scene.open and game.state.scene.clearing == []
    with pytest.raises(IllegalAction, match="no scene is open"):
        game.end_scene()


def test_clearing_actions_do_not_carry_to_the_next_scene(new_game: NewGame, h: Any) -> None:
    game = new_game()
    h.setup(game, ev.ClearingActionTaken(condition="afraid"))
    game.start_scene("Next")  # ends the open scene with no clearing
    h.setup(game, ev.ConditionMarked(who="hero", condition="afraid"))
    game.end_scene()
    assert game.state.hero.conditions == ["afraid"]


def test_start_scene_on_an_empty_scene_frames_it_anew(new_game: NewGame, h: Any) -> None:
    game = new_game()
    events = game.start_scene("The pier")
    assert h.of(events, "SceneEnded") == []
    assert (game.state.scene.number, game.state.scene.title) == (1, "The pier")


def test_start_scene(new_game: NewGame, h: Any) -> None:
    game = new_game()
    game.narrate("We patrol the docks.")
    events = game.start_scene("The pier", location="Pier 9", stakes="the ferry",
                              present=["Vic Rook", "bo"])
    types = [e["type"] for e in events]
    assert types.index("SceneEnded") < types.index("SceneStarted")
    sc = game.state.scene
    assert (sc.number, sc.title, sc.location, sc.stakes, sc.open) == (
        2, "The pier", "Pier 9", "the ferry", True)
    assert {n.id for n in game.state.npcs.values() if n.present} == {"vic_rook", "bo"}
    game.end_scene()
    game.start_scene()
    assert game.state.scene.title == "Scene 3"
    assert len(h.of(game.store.log, "SceneEnded")) == 2


def test_end_session_and_the_next_one(new_game: NewGame, h: Any) -> None:
    game = new_game()
    events = game.end_session()
    assert h.of(events, "SceneEnded")
    assert h.of(events, "MoveTriggered")[0]["move"] == "end_of_session"
    game.choose(["grow_into_image"])
    game.choose(["mundane"])
    events = game.choose(["danger"])
    assert h.of(events, "SessionEnded")[0]["number"] == 1
    events = game.start_scene("Monday")
    assert h.of(events, "SessionStarted")[0]["number"] == 2
    assert game.state.pools["team"] == 2


def test_ask_gm_makes_a_soft_move(new_game: NewGame, h: Any) -> None:
    game = new_game()
    events = game.ask_gm()
    [gm] = h.of(events, "GMMoveMade")
    assert gm["kind"] == "soft"
    assert gm["reason"].startswith("you looked to the GM")
    assert gm["text"] and "{" not in gm["text"]


def test_presence(new_game: NewGame) -> None:
    game = new_game()
    game.set_presence("Vic Rook", False)
    assert not game.state.npcs["vic_rook"].present
    game.trigger("provoke")
    assert game.pending.options[-1] == Option("vic_rook", "Vic Rook", "villain, not in the scene")
