"""Issue 15: what the mutation run on engine/rules/effects.py found untested.

Each test hands the game's ``Interpreter`` a queue item (``{"effect": ..., "ctx": ...}``) and
checks the exact events or prompt it gives: who says a line, each event's reason, the prompt's
kind and words. The default hero (conftest ``FLAT``) has Danger +1, Freak +1, Savior +1,
Superior 0, Mundane 0; Ada Vance is an adult, Vic Rook a villain, Tin a teammate, Bo a bystander.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import pytest

from engine.content import schema as s
from engine.content.loader import Pack
from engine.errors import ContentError, IllegalAction
from engine.game import Game
from engine.rules import events as ev
from engine.rules.base import Need, Step
from engine.rules.effects import Interpreter
from engine.systems.masks.rules import InfluenceChanged

NewGame = Callable[..., Game]


def step(game: Game, effect: dict[str, Any], ctx: dict[str, Any] | None = None,
         interp: Interpreter | None = None) -> Step | Need:
    item: dict[str, Any] = {"effect": effect}
    if ctx is not None:
        item["ctx"] = ctx
    return (interp or game.interp).step(game.state, item)


def events(result: Step | Need) -> list[dict[str, Any]]:
    assert isinstance(result, Step), result
    return [e.to_dict() for e in result.events]


def said(text: str, by: str = "engine") -> dict[str, Any]:
    return {"type": "Narrated", "text": text, "by": by}


def need(result: Step | Need) -> tuple[str, str, list[tuple[str, str]]]:
    assert isinstance(result, Need), result
    return result.kind, result.message, [(o["id"], o["label"]) for o in result.options]


WHY = {"source": "a test"}


# --------------------------------------------------------------------------- conditions


def test_marking_a_condition_exactly(new_game: NewGame, h: Any) -> None:
    game = new_game()
    assert events(step(game, {"type": "mark_condition", "who": "target"}, {})) == [
        said("(No target to mark a condition on.)")]
    assert events(step(game, {"type": "mark_condition", "condition": "angry"}, {})) == [
        {"type": "ConditionMarked", "who": "hero", "condition": "angry", "reason": ""}]
    h.setup(game, ev.ConditionMarked(who="hero", condition="angry"))
    assert events(step(game, {"type": "mark_condition", "condition": "angry"}, WHY)) == [
        said("Nova is already Angry.")]
    kind, message, options = need(step(game, {"type": "mark_condition"}, WHY))
    assert (kind, message) == ("pick", "Mark a condition")
    assert options == [("afraid", "Afraid"), ("guilty", "Guilty"), ("hopeless", "Hopeless"),
                       ("insecure", "Insecure")]
    h.setup(game, *[ev.ConditionMarked(who="hero", condition=c)
                    for c in ("afraid", "guilty", "hopeless")])
    assert events(step(game, {"type": "mark_condition"}, {})) == [
        {"type": "ConditionMarked", "who": "hero", "condition": "insecure", "reason": ""}]
    h.setup(game, ev.ConditionMarked(who="hero", condition="insecure"))
    # none free: the rules decide (Masks: the hero is taken out), with the game's own state
    assert events(step(game, {"type": "mark_condition"}, {})) == [
        {"type": "TakenOut", "out": True, "reason": "no condition left to mark"}]


def test_clearing_a_condition_exactly(new_game: NewGame, h: Any) -> None:
    game = new_game()
    assert events(step(game, {"type": "clear_condition"}, WHY)) == [
        said("Nova has no condition to clear.")]
    h.setup(game, ev.ConditionMarked(who="hero", condition="angry"),
            ev.ConditionMarked(who="hero", condition="guilty"))
    assert events(step(game, {"type": "clear_condition", "condition": "guilty"}, {})) == [
        {"type": "ConditionCleared", "who": "hero", "condition": "guilty", "reason": ""}]
    kind, message, options = need(step(game, {"type": "clear_condition"}, WHY))
    assert (kind, message, options) == ("pick", "Clear a condition",
                                        [("angry", "Angry"), ("guilty", "Guilty")])
    h.setup(game, ev.ConditionCleared(who="hero", condition="guilty"))
    assert events(step(game, {"type": "clear_condition"}, {})) == [
        {"type": "ConditionCleared", "who": "hero", "condition": "angry", "reason": ""}]


# --------------------------------------------------------------------------- labels


def test_label_prompts_name_each_label_with_its_value(new_game: NewGame, h: Any) -> None:
    game = new_game()
    up = need(step(game, {"type": "shift_labels", "down": "danger"}, WHY))
    assert up == ("pick", "Shift which label UP by one?",
                  [("freak", "Freak (+1)"), ("savior", "Savior (+1)"),
                   ("superior", "Superior (+0)"), ("mundane", "Mundane (+0)")])
    down = need(step(game, {"type": "shift_labels", "up": "mundane"}, WHY))
    assert down[:2] == ("pick", "Shift which label DOWN by one?")
    assert [o for o, _ in down[2]] == ["danger", "freak", "savior", "superior"]
    assert need(step(game, {"type": "shift_labels"}, WHY))[2][0] == ("danger", "Danger (+1)")
    assert need(step(game, {"type": "shift_label", "by": 2}, WHY))[:2] == (
        "pick", "Shift which label up by 2?")
    assert need(step(game, {"type": "shift_label", "by": 1}, WHY))[:2] == (
        "pick", "Shift which label up by 1?")
    assert need(step(game, {"type": "shift_label", "by": -1}, WHY))[:2] == (
        "pick", "Shift which label down by 1?")
    assert need(step(game, {"type": "lock_label"}, WHY))[:2] == (
        "pick", "Lock which label for good?")


def test_a_label_the_hero_lacks_shows_as_zero(new_game: NewGame) -> None:
    """A save older than one of the pack's labels: the label is offered at +0."""
    game = new_game()
    del game.state.hero.stats["mundane"]
    options = need(step(game, {"type": "lock_label"}, WHY))[2]
    assert options[-1] == ("mundane", "Mundane (+0)")


def test_with_every_label_locked_nothing_is_asked(new_game: NewGame, h: Any) -> None:
    game = new_game()
    h.setup(game, *[ev.LabelLocked(stat=k) for k in game.pack.stats])
    for effect in ({"type": "shift_labels"}, {"type": "shift_labels", "up": "danger"},
                   {"type": "lock_label"}):
        assert events(step(game, effect, WHY)) == []
    assert events(step(game, {"type": "shift_label", "stat": "danger"}, WHY)) == [
        said("Danger is locked.")]


def test_label_shifts_carry_their_source(new_game: NewGame) -> None:
    game = new_game()
    assert events(step(game, {"type": "shift_labels", "up": "mundane", "down": "danger"},
                       WHY)) == [
        {"type": "LabelsShifted", "changes": {"mundane": 1, "danger": -1},
         "values": {"mundane": 1, "danger": 0}, "reason": "a test"}]
    assert events(step(game, {"type": "shift_labels", "up": "mundane", "down": "danger"},
                       {}))[0]["reason"] == ""
    assert events(step(game, {"type": "shift_label", "stat": "freak", "by": -1}, WHY)) == [
        {"type": "LabelsShifted", "changes": {"freak": -1}, "values": {"freak": 0},
         "reason": "a test"}]
    assert events(step(game, {"type": "shift_label", "stat": "freak"}, {}))[0]["reason"] == ""
    assert events(step(game, {"type": "shift_labels", "who": "target"}, {"target": "tin"})) == [
        said("Tin shifts their own Labels: one up, one down.")]


# --------------------------------------------------------------------------- influence


def test_taking_influence_exactly(new_game: NewGame) -> None:
    game = new_game()
    assert events(step(game, {"type": "take_influence"}, {})) == [
        said("(No target to take Influence over.)")]
    assert events(step(game, {"type": "take_influence"}, {"target": "bo"})) == [
        {"type": "InfluenceChanged", "npc": "bo", "direction": "hero_over", "held": True,
         "permanent": False, "reason": ""}]
    assert events(step(game, {"type": "take_influence"}, {"target": "bo", **WHY}))[0][
        "reason"] == "a test"


def test_giving_influence_exactly(new_game: NewGame, h: Any) -> None:
    game = new_game()
    kind, message, options = need(step(game, {"type": "give_influence", "choose": True}, WHY))
    assert (kind, message) == ("pick", "Give Influence over you to whom?")
    assert options == [("vic_rook", "Vic Rook (villain)"), ("tin", "Tin (teammate)"),
                       ("bo", "Bo (bystander)")]
    assert events(step(game, {"type": "give_influence"}, {"target": "ada_vance"})) == [
        said("Ada Vance already has Influence over you.")]
    assert events(step(game, {"type": "give_influence"}, {"target": "bo"})) == [
        {"type": "InfluenceChanged", "npc": "bo", "direction": "over_hero", "held": True,
         "permanent": False, "reason": ""}]
    assert events(step(game, {"type": "give_influence"}, {"target": "bo", **WHY}))[0][
        "reason"] == "a test"
    h.setup(game, *[InfluenceChanged(npc=n, direction="over_hero", held=True)
                    for n in ("vic_rook", "tin", "bo")])
    assert events(step(game, {"type": "give_influence", "choose": True}, WHY)) == [
        said("Everyone already has Influence over you.")]


def test_cancelling_influence_exactly(new_game: NewGame, h: Any) -> None:
    game = new_game()
    h.setup(game, InfluenceChanged(npc="tin", direction="over_hero", held=True))
    kind, message, options = need(step(game, {"type": "cancel_influence", "choose": True}, WHY))
    assert (kind, message) == ("pick", "Take away whose Influence over you?")
    assert options == [("ada_vance", "Ada Vance (adult)"), ("tin", "Tin (teammate)")]
    assert events(step(game, {"type": "cancel_influence"}, {"target": "tin"})) == [
        {"type": "InfluenceChanged", "npc": "tin", "direction": "over_hero", "held": False,
         "permanent": False, "reason": ""}]
    h.setup(game, *[InfluenceChanged(npc=n, direction="over_hero", held=False)
                    for n in ("tin", "ada_vance")])
    assert events(step(game, {"type": "cancel_influence", "choose": True}, WHY)) == [
        said("Nobody has Influence over you.")]


# --------------------------------------------------------------------------- tracks, bonuses


def test_a_track_missing_from_a_save_starts_from_its_start(new_game: NewGame) -> None:
    """A save made before the pack had its Team pool: moving it starts from the pack's start."""
    game = new_game()
    del game.state.pools["team"]
    start = game.pack.tracks["team"].start
    assert events(step(game, {"type": "track", "track": "team", "delta": 1}, {})) == [
        {"type": "TrackChanged", "track": "team", "scope": "campaign", "delta": 1,
         "value": start + 1, "reason": ""}]
    one = s.TrackDelta(type="track", track="team", delta=-1)
    assert game.interp.futile(game.state, [one], {}) == (
        None if start > 0 else "Team is already at 0")


def test_a_track_move_of_zero_is_never_futile(masks: Pack, new_game: NewGame, h: Any) -> None:
    game = new_game()
    zero = s.TrackDelta(type="track", track="team", delta=0)
    old = game.state.pools["team"]
    h.setup(game, ev.TrackChanged(track="team", scope="campaign", delta=-old, value=0))
    assert game.interp.futile(game.state, [zero], {}) is None
    tdef = game.pack.tracks["team"]
    if tdef.max is not None:
        h.setup(game, ev.TrackChanged(track="team", scope="campaign", delta=tdef.max,
                                      value=tdef.max))
        assert game.interp.futile(game.state, [zero], {}) is None


def potential_pack(masks: Pack, size: int = 3) -> Pack:
    """Masks with a small hero track that marks a condition and resets when full."""
    track = s.TrackDef(id="strain", name="Strain", scope="hero", min=0, max=size, start=0,
                       on_full=[s.MarkCondition(type="mark_condition", condition="angry"),
                                s.Note(type="note", text="You snap.")],
                       reset_on_full=True)
    return dataclasses.replace(masks, system=masks.system.model_copy(
        update={"tracks": [*masks.system.tracks, track]}))


def test_a_track_that_fills_fires_its_effects_and_resets(masks: Pack) -> None:
    pack = potential_pack(masks)
    game = Game.new(pack, name="t", hero_name="Nova", stats={
        "danger": 1, "freak": 1, "savior": 1, "superior": 0, "mundane": 0}, seed=3)
    result = step(game, {"type": "track", "track": "strain", "delta": 5}, WHY)
    assert events(result) == [
        {"type": "TrackChanged", "track": "strain", "scope": "hero", "delta": 3, "value": 3,
         "reason": "a test"},
        {"type": "TrackChanged", "track": "strain", "scope": "hero", "delta": -3, "value": 0,
         "reason": "Strain resets"}]
    assert isinstance(result, Step)
    assert result.push == [
        {"effect": {"type": "mark_condition", "condition": "angry", "who": "self"},
         "ctx": {"source": "Strain full"}},
        {"effect": {"type": "note", "text": "You snap."}, "ctx": {"source": "Strain full"}}]


def test_a_bonus_with_no_reason_and_no_move(new_game: NewGame) -> None:
    game = new_game()
    assert events(step(game, {"type": "forward", "amount": 2}, {})) == [
        {"type": "BonusAdded", "id": game.state.next_id, "kind": "forward", "amount": 2,
         "moves": [], "target": None, "expires": "scene", "reason": ""}]
    assert events(step(game, {"type": "ongoing"}, {"move": "general"}))[0]["reason"] == ""
    assert events(step(game, {"type": "forward"}, {"move": "provoke"}))[0]["reason"] == (
        game.pack.moves["provoke"].name)


# --------------------------------------------------------------------------- the rest


def test_small_effects_exactly(new_game: NewGame) -> None:
    game = new_game()
    assert events(step(game, {"type": "note", "text": "Rain."}, {})) == [said("Rain.")]
    assert events(step(game, {"type": "taken_out"}, {})) == [
        {"type": "TakenOut", "out": True, "reason": ""}]
    assert events(step(game, {"type": "taken_out"}, WHY))[0]["reason"] == "a test"
    one_of = {"type": "one_of", "options": [
        {"id": "a", "text": "Go", "effects": [{"type": "note", "text": "x"}]},
        {"id": "b", "text": "Stay", "effects": []}]}
    kind, message, options = need(step(game, one_of, WHY))
    assert (kind, message, options) == ("pick", "Choose one", [("a", "Go"), ("b", "Stay")])


def test_questions_are_offered_by_their_words(new_game: NewGame) -> None:
    game = new_game()
    move = game.pack.moves["assess_situation"]
    result = step(game, {"type": "ask", "count": 1}, {"move": move.id})
    assert need(result)[2] == [(str(i), q) for i, q in enumerate(move.questions)]


def one_time_advancements(masks: Pack, *extra: s.Option) -> Pack:
    """Masks without its repeatable (``plus_``) advancements, with ``extra`` ones added."""
    advs = [a for a in masks.system.advancements if not a.id.startswith("plus_")]
    return dataclasses.replace(masks, system=masks.system.model_copy(
        update={"advancements": [*advs, *extra]}))


def test_no_advancement_left_is_said_by_the_engine(masks: Pack, new_game: NewGame, h: Any
                                                   ) -> None:
    game = new_game()
    pack = one_time_advancements(masks)
    interp = Interpreter(pack, game.rules, game.interp.gm)
    h.setup(game, *[ev.AdvanceTaken(advance=a.id, text=a.text)
                    for a in pack.system.advancements])
    assert events(step(game, {"type": "advance"}, WHY, interp)) == [
        said("No advancement is left to take.")]


def test_an_advancement_is_weighed_in_the_moves_context(masks: Pack, new_game: NewGame
                                                        ) -> None:
    """An advancement whose effect needs a target is judged against the context's target."""
    bond = s.Option.model_validate({"id": "bond", "text": "Bond with someone",
                                         "effects": [{"type": "take_influence"}]})
    game = new_game()
    interp = Interpreter(one_time_advancements(masks, bond), game.rules, game.interp.gm)
    options = step(game, {"type": "advance"}, {"target": "bo"}, interp)
    assert isinstance(options, Need)
    assert "disabled" not in next(o for o in options.options if o["id"] == "bond")
    options = step(game, {"type": "advance"}, {}, interp)
    assert isinstance(options, Need)
    assert next(o for o in options.options if o["id"] == "bond")["disabled"] == (
        "there is no target")


def test_an_advancement_prompt_is_a_pick(new_game: NewGame) -> None:
    game = new_game()
    assert need(step(game, {"type": "advance"}, WHY))[:2] == ("pick", "Take an advancement")


def test_a_clock_says_why_it_moves(new_game: NewGame, h: Any) -> None:
    game = new_game(npcs=[])
    h.setup(game, ev.ThreatAdded(id="alpha", name="Alpha", size=4, steps=[]))
    assert events(step(game, {"type": "clock", "threat": "alpha", "delta": 1}, {}))[0] == (
        said("Alpha moves forward (GM).", by="gm"))
    assert events(step(game, {"type": "clock", "threat": "alpha", "delta": 1}, WHY))[0] == (
        said("Alpha moves forward (a test).", by="gm"))


def test_a_clock_that_fills_brings_its_doom_effects(new_game: NewGame, h: Any) -> None:
    game = new_game()
    threat = next(t for t in game.state.threats.values())
    tdef = next(t for t in game.pack.gm.threats if threat.id.startswith(t.id))
    assert tdef.doom_effects, "the villain's threat has doom effects in the pack"
    result = step(game, {"type": "clock", "threat": threat.id, "delta": threat.size}, WHY)
    assert isinstance(result, Step)
    assert [i["ctx"]["source"] for i in result.push] == [f"doom of {threat.name}"] * len(
        tdef.doom_effects)


def test_npc_leaves_someone_unknown_does_nothing(new_game: NewGame) -> None:
    game = new_game()
    assert events(step(game, {"type": "rule", "name": "npc_leaves"}, {"target": "nobody"})) == []


def test_choose_from_band_pushes_the_exact_choice(new_game: NewGame) -> None:
    game = new_game()
    result = step(game, {"type": "rule", "name": "choose_from_band",
                         "args": {"band": "strong_hit"}}, {"move": "directly_engage"})
    assert isinstance(result, Step)
    assert result.push == [{"choose": {"move": "directly_engage", "key": "outcomes.strong_hit",
                                       "count": 1, "exclude": [""]},
                            "ctx": {"move": "directly_engage", "band": "strong_hit"}}]


# --------------------------------------------------------------------------- choose lists


def test_a_choose_list_without_a_prompt_says_how_many(masks: Pack, new_game: NewGame) -> None:
    game = new_game()
    item = {"choose": {"move": "unleash_powers", "key": "outcomes.weak_hit"}}
    result = game.interp.step(game.state, item)  # no ctx at all: no target
    name = game.pack.moves["unleash_powers"].name
    assert isinstance(result, Need)
    assert (result.kind, result.message) == ("choose", f"{name}: choose 1")
    move = masks.moves["unleash_powers"]
    outcome = move.outcomes["weak_hit"]
    assert outcome.choose is not None
    up_to = outcome.model_copy(update={"choose": outcome.choose.model_copy(
        update={"up_to": True, "count": 2})})
    pack = dataclasses.replace(masks, moves={**masks.moves, "unleash_powers": move.model_copy(
        update={"outcomes": {**move.outcomes, "weak_hit": up_to}})})
    interp = Interpreter(pack, game.rules, game.interp.gm)
    result = interp.step(game.state, item)
    assert isinstance(result, Need)
    assert (result.message, result.min, result.max) == (f"{name}: choose up to 2", 0, 2)
    picked = [result.options[0]["id"]]
    out = game.interp.answer(game.state, item, picked)
    assert out[0] == {"emit": ev.OptionsChosen(
        move="unleash_powers", options=picked,
        texts=[outcome.choose.options[0].text]).to_dict()}
    assert all(i["ctx"] == {"source": f"{name}: {outcome.choose.options[0].text}"}
               for i in out[1:])


def test_a_list_with_every_option_disabled_says_why(new_game: NewGame) -> None:
    game = new_game()
    result = step(game, {"type": "one_of", "options": [
        {"id": "a", "text": "Heal", "effects": [{"type": "clear_condition"}]},
        {"id": "b", "text": "Rest", "effects": [{"type": "clear_condition"}]}]}, WHY)
    assert events(result) == [said("Choose one: nothing here can change anything now"
                                   " (you have no condition marked).")]


# --------------------------------------------------------------------------- answers


def test_answers_keep_the_context(new_game: NewGame, h: Any) -> None:
    game = new_game()
    ctx = {"source": "a test", "move": "provoke"}
    for effect, key in (({"type": "mark_condition"}, "condition"),
                        ({"type": "shift_labels", "down": "danger"}, "up"),
                        ({"type": "lock_label"}, "stat")):
        out = game.interp.answer(game.state, {"effect": effect, "ctx": ctx}, ["freak"])
        assert out == [{"effect": {**effect, key: "freak"}, "ctx": ctx}]
    one_of = {"type": "one_of", "options": [
        {"id": "a", "text": "Go", "effects": [{"type": "note", "text": "x"}]},
        {"id": "b", "text": "Stay", "effects": []}]}
    out = game.interp.answer(game.state, {"effect": one_of, "ctx": ctx}, ["a"])
    assert out == [{"emit": {"type": "OptionsChosen", "move": "provoke", "options": ["a"],
                             "texts": ["Go"]}},
                   {"effect": {"type": "note", "text": "x"}, "ctx": {**ctx, "source": "Go"}}]
    out = game.interp.answer(game.state, {"effect": one_of}, ["a"])  # no move in the context
    assert out[0]["emit"]["move"] == ""
    ask = game.interp.answer(game.state, {"effect": {"type": "ask", "count": 1},
                                          "ctx": {"move": "assess_situation"}}, ["0"])
    assert ask[0]["emit"]["move"] == "assess_situation"
    with pytest.raises(IllegalAction, match=r"^nothing to answer for note$"):
        game.interp.answer(game.state, {"effect": {"type": "note", "text": "x"}}, [])


def test_an_advancement_answer_is_exact(new_game: NewGame) -> None:
    game = new_game()
    adv = next(a for a in game.pack.system.advancements if a.effects)
    out = game.interp.answer(game.state, {"effect": {"type": "advance"}, "ctx": WHY}, [adv.id])
    assert out[0] == {"emit": {"type": "AdvanceTaken", "advance": adv.id, "text": adv.text}}
    assert [i["ctx"] for i in out[1:]] == [{"source": f"advancement: {adv.text}"}] * len(
        adv.effects)


# --------------------------------------------------------------------------- a trigger loop


def test_a_trigger_loop_stops_after_the_limit_with_a_clear_error(new_game: NewGame) -> None:
    game = new_game()
    interp = game.interp
    limit = Interpreter.MAX_TRIGGERS
    assert limit == 32
    effect = {"type": "trigger_move", "move": "provoke"}
    for _ in range(limit):
        result = step(game, effect, {"source": "Provoke"})
        assert isinstance(result, Step)
        assert result.push == [{"trigger": "provoke", "ctx": {"source": "Provoke"}}]
    with pytest.raises(ContentError) as err:
        step(game, effect, {})
    assert str(err.value) == (
        "content loop: more than 32 moves triggered in one action (last a move -> provoke);"
        " check the pack's trigger_move effects with 'sidekick validate'")
    with pytest.raises(ContentError, match=r"\(last Provoke -> provoke\)"):
        step(game, effect, {"source": "Provoke"})
    # the next action counts afresh
    game.state.action_no += 1
    for _ in range(limit):
        step(game, effect, {})
    # and so does another state, even at the same action number
    other = new_game()
    other.state.action_no = game.state.action_no
    assert isinstance(interp.step(other.state, {"effect": effect, "ctx": {}}), Step)


def test_an_npc_with_every_condition_marked_is_taken_out(new_game: NewGame, h: Any) -> None:
    game = new_game()
    h.setup(game, *[ev.ConditionMarked(who="bo", condition=c) for c in game.pack.conditions])
    assert events(step(game, {"type": "mark_condition", "who": "target"}, {"target": "bo"})) == [
        said("Bo has nothing left and is taken out.")]


def test_a_futile_list_names_its_prompt_without_the_end_marks(masks: Pack,
                                                              new_game: NewGame) -> None:
    """Every option would do nothing: the prompt (its ``?`` cut) says so, then play goes on."""
    game = new_game()
    move = masks.moves["unleash_powers"]
    outcome = move.outcomes["weak_hit"]
    assert outcome.choose is not None
    heal = [s.Option.model_validate({"id": i, "text": i, "effects": [{"type": "clear_condition"}]})
            for i in ("rest", "mend")]
    choose = outcome.choose.model_copy(update={"prompt": "Pick one for X?", "options": heal})
    pack = dataclasses.replace(masks, moves={**masks.moves, "unleash_powers": move.model_copy(
        update={"outcomes": {**move.outcomes,
                             "weak_hit": outcome.model_copy(update={"choose": choose})}})})
    interp = Interpreter(pack, game.rules, game.interp.gm)
    result = interp.step(game.state, {"choose": {"move": "unleash_powers",
                                                 "key": "outcomes.weak_hit"}, "ctx": {}})
    assert events(result) == [said("Pick one for X: nothing here can change anything now"
                                   " (you have no condition marked).")]


def test_queue_items_without_a_context(new_game: NewGame) -> None:
    """An item may come without ``ctx``: it plays as an empty one (no source, no target)."""
    game = new_game()
    old = game.state.pools["team"]
    assert events(game.interp.step(game.state, {"effect": {"type": "track", "track": "team",
                                                           "delta": 1}})) == [
        {"type": "TrackChanged", "track": "team", "scope": "campaign", "delta": 1,
         "value": old + 1, "reason": ""}]


def test_single_condition_marks_and_clears_carry_their_source(new_game: NewGame, h: Any
                                                              ) -> None:
    game = new_game()
    h.setup(game, *[ev.ConditionMarked(who="hero", condition=c)
                    for c in ("afraid", "angry", "guilty", "hopeless")])
    assert events(step(game, {"type": "mark_condition"}, WHY)) == [
        {"type": "ConditionMarked", "who": "hero", "condition": "insecure",
         "reason": "a test"}]
    assert events(step(game, {"type": "clear_condition", "condition": "angry"}, WHY)) == [
        {"type": "ConditionCleared", "who": "hero", "condition": "angry", "reason": "a test"}]


def test_a_move_of_zero_on_a_full_track_is_not_futile(masks: Pack) -> None:
    game = Game.new(potential_pack(masks), name="t", hero_name="Nova", stats={
        "danger": 1, "freak": 1, "savior": 1, "superior": 0, "mundane": 0}, seed=3)
    game.state.hero.tracks["strain"] = 3
    zero = s.TrackDelta(type="track", track="strain", delta=0)
    one = s.TrackDelta(type="track", track="strain", delta=1)
    assert game.interp.futile(game.state, [zero], {}) is None
    assert game.interp.futile(game.state, [one], {}) == "Strain is already full"


def test_a_futile_list_is_judged_without_a_context(masks: Pack, new_game: NewGame) -> None:
    """A choose item with no ``ctx``: options needing a target are futile, not a crash."""
    game = new_game()
    move = masks.moves["unleash_powers"]
    outcome = move.outcomes["weak_hit"]
    assert outcome.choose is not None
    bond = [s.Option.model_validate({"id": i, "text": i, "effects": [{"type": "take_influence"}]})
            for i in ("bond", "trust")]
    choose = outcome.choose.model_copy(update={"prompt": "Whom?", "options": bond})
    pack = dataclasses.replace(masks, moves={**masks.moves, "unleash_powers": move.model_copy(
        update={"outcomes": {**move.outcomes,
                             "weak_hit": outcome.model_copy(update={"choose": choose})}})})
    interp = Interpreter(pack, game.rules, game.interp.gm)
    result = interp.step(game.state, {"choose": {"move": "unleash_powers",
                                                 "key": "outcomes.weak_hit"}})
    assert events(result) == [said("Whom: nothing here can change anything now"
                                   " (there is no target).")]
