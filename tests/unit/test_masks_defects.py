"""Masks and core rules that played wrong (issue 8, items 10-14, 16, 17 and 18's Masks side).

Each test names its item. The default hero (conftest ``FLAT``) has Danger +1, Freak +1,
Savior +1, Superior 0, Mundane 0; the Team pool starts at 1. Dice are entered.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import pytest

from engine.content import schema as s
from engine.content.loader import Pack
from engine.errors import IllegalAction
from engine.game import Game
from engine.rules import events as ev
from engine.systems.masks.rules import over_hero

NewGame = Callable[..., Game]
FLAT = {"danger": 1, "freak": 1, "savior": 1, "superior": 0, "mundane": 0}


def ids(game: Game) -> list[str]:
    return [o.id for o in game.pending.options]


def disabled(game: Game) -> dict[str, str]:
    return {o.id: o.disabled for o in game.pending.options if (o.disabled or None)}


def stumble(game: Game, h: Any, npc: str = "vic_rook", moves: list[str] | None = None,
            amount: int = 1) -> None:
    """+1 forward against an NPC, as Provoke's "they stumble" gives it."""
    h.setup(game, ev.BonusAdded(id=90, kind="forward", amount=amount, moves=moves or [],
                                target=npc, expires="session", reason="they stumbled"))


def only_gm_move(pack: Pack, move_id: str) -> Pack:
    """The pack with a single GM move, so a miss makes exactly that one."""
    return dataclasses.replace(pack, gm_moves=[m for m in pack.gm_moves if m.id == move_id])


# --------------------------------------------------------------------------- item 10


def test_10_a_bonus_against_someone_asks_who_an_untargeted_move_is_against(
        new_game: NewGame, h: Any) -> None:
    game = new_game()
    stumble(game, h)
    game.trigger("directly_engage")
    p = game.pending
    assert p.kind == "target"
    assert p.options[0].id == "vic_rook"  # the one the bonus is against comes first
    assert "+1 held against them" in p.options[0].detail
    assert p.options[-1].id == "none"
    assert [o.id for o in p.options[1:-1]] == ["ada_vance", "bo", "tin"]
    game.choose_target("Vic Rook")
    assert game.state.flow.target == "vic_rook"
    preview = game.pending.preview.to_dict()
    assert ["+1 forward: they stumbled", 1, 90] in preview["modifiers"]
    events = game.roll([2, 2])  # 4 + Danger 1 + 1 forward = 6... a miss: the +1 counts
    rolled = h.of(events, "Rolled")[0]
    assert (rolled["modifier"], rolled["total"]) == (2, 6)
    assert game.state.bonuses == []  # the forward is spent


def test_10_the_target_prompt_can_say_no_one(new_game: NewGame, h: Any) -> None:
    game = new_game()
    stumble(game, h)
    game.trigger("unleash_powers")
    assert game.pending.kind == "target"
    game.choose_target("none")
    assert game.state.flow.stage == "roll" and game.state.flow.target is None
    assert game.pending.preview.to_dict()["modifier"] == 1  # Freak only
    h.roll(game, [6, 6])
    assert [b.id for b in game.state.bonuses] == [90]  # unused, still held


def test_10_none_up_front_means_no_one_and_asks_nothing(new_game: NewGame, h: Any) -> None:
    game = new_game()
    stumble(game, h)
    game.trigger("defend_someone", "none")
    assert game.state.flow.stage == "roll" and game.state.flow.target is None
    game.undo()
    with pytest.raises(IllegalAction, match="no NPC called 'none'"):
        game.trigger("provoke", "none")  # a move that needs someone


def test_10_a_bonus_against_someone_the_move_cannot_target_asks_nothing(
        new_game: NewGame, h: Any) -> None:
    game = new_game()
    stumble(game, h)  # against Vic Rook, a villain: Defend someone never targets villains
    game.trigger("defend_someone")
    assert game.state.flow.stage == "roll" and game.state.flow.target is None
    game.undo()
    game.undo()
    stumble(game, h, npc="bo")
    game.trigger("defend_someone")
    assert game.pending.kind == "target"
    assert ids(game) == ["bo", "ada_vance", "tin", "none"]


def test_10_no_bonus_no_question(new_game: NewGame, h: Any) -> None:
    game = new_game()
    game.trigger("directly_engage")
    assert game.state.flow.stage == "roll"


def test_10_a_bonus_for_another_move_or_an_inverted_roll_asks_nothing(new_game: NewGame,
                                                                       h: Any) -> None:
    game = new_game()
    stumble(game, h, moves=["provoke"])
    game.trigger("directly_engage")
    assert game.state.flow.stage == "roll"
    game.undo()
    game.undo()
    stumble(game, h)  # a general bonus never counts on the upside-down blow
    game.trigger("take_powerful_blow")
    assert game.state.flow.stage == "roll"


def test_10_a_named_target_skips_the_question_and_none_is_refused_when_required(
        new_game: NewGame, h: Any) -> None:
    game = new_game()
    stumble(game, h)
    game.trigger("directly_engage", "Bo")
    assert game.state.flow.stage == "roll" and game.state.flow.target == "bo"
    assert game.pending.preview.to_dict()["modifier"] == 1  # the bonus is against Vic
    game.undo()
    game.trigger("provoke")
    assert "none" not in ids(game)
    with pytest.raises(IllegalAction, match="no NPC called 'none'"):
        game.choose_target("none")


# --------------------------------------------------------------------------- item 11


def test_11_a_clearing_action_clears_at_the_end_of_the_scene(new_game: NewGame,
                                                              h: Any) -> None:
    # issue 28 item 3 changed this on purpose: the seed clears the condition at the end of
    # any scene in which you take its action, not the moment the action is recorded
    game = new_game()
    h.setup(game, ev.ConditionMarked(who="hero", condition="afraid"))
    events = game.took_clearing_action("afraid")
    assert h.of(events, "ConditionCleared") == []
    assert h.of(events, "ClearingActionTaken")[0]["condition"] == "afraid"
    assert game.state.hero.conditions == ["afraid"]
    assert game.state.scene.clearing == ["afraid"]
    events = game.end_scene()
    assert h.of(events, "ConditionCleared") == [
        {**h.of(events, "ConditionCleared")[0], "who": game.state.acting, "condition": "afraid",
         "reason": "its clearing action was taken this scene"}]
    assert game.state.hero.conditions == []
    assert game.state.scene.clearing == []


def test_11_a_clearing_action_for_an_unmarked_condition_is_refused(new_game: NewGame,
                                                                   h: Any) -> None:
    game = new_game()
    before = h.dump(game)
    with pytest.raises(IllegalAction, match="Nova is not Afraid: there is nothing to clear"):
        game.took_clearing_action("afraid")
    assert h.dump(game) == before


def test_11_marking_a_condition_again_spends_an_old_clearing_flag(new_game: NewGame,
                                                                  h: Any) -> None:
    game = new_game()
    h.setup(game, ev.ConditionMarked(who="hero", condition="afraid"),
            ev.ClearingActionTaken(condition="afraid"))
    assert game.state.scene.clearing == ["afraid"]
    h.setup(game, ev.ConditionCleared(who="hero", condition="afraid"),
            ev.ConditionMarked(who="hero", condition="afraid"))
    assert game.state.scene.clearing == []
    game.end_scene()
    assert game.state.hero.conditions == ["afraid"]


def test_11_an_npc_condition_leaves_the_hero_flag_alone(new_game: NewGame, h: Any) -> None:
    game = new_game()
    h.setup(game, ev.ClearingActionTaken(condition="afraid"),
            ev.ConditionMarked(who="vic_rook", condition="afraid"))
    assert game.state.scene.clearing == ["afraid"]


# --------------------------------------------------------------------------- item 12


def test_12_clear_a_condition_with_none_marked_is_offered_disabled(new_game: NewGame,
                                                                   h: Any) -> None:
    game = new_game()
    game.trigger("defend_someone", "Bo")
    h.roll(game, [6, 6])
    assert ids(game) == ["team", "influence", "clear"]
    assert disabled(game) == {"clear": "you have no condition marked"}
    assert (game.pending.min, game.pending.max) == (1, 1)
    before = h.dump(game)
    with pytest.raises(IllegalAction, match=r"'Clear one of your conditions\.' cannot be chosen"
                                            r" now: you have no condition marked"):
        game.choose(["clear"])
    assert h.dump(game) == before
    game.choose(["team"])
    assert game.state.pools["team"] == 2


def test_12_clear_a_condition_is_enabled_when_one_is_marked(new_game: NewGame, h: Any) -> None:
    game = new_game()
    h.setup(game, ev.ConditionMarked(who="hero", condition="guilty"))
    game.trigger("defend_someone", "Bo")
    h.roll(game, [6, 6])
    assert disabled(game) == {}
    game.choose(["clear"])
    assert game.state.hero.conditions == []


def test_12_one_of_branches_that_can_do_nothing_are_disabled(new_game: NewGame, h: Any) -> None:
    game = new_game()
    game.trigger("reject_influence", "Ada Vance")
    h.roll(game, [6, 6])  # pick two
    game.choose(["prove_wrong", "shift"])
    assert game.pending.message == "Choose one"
    assert disabled(game) == {"clear": "you have no condition marked"}
    with pytest.raises(IllegalAction, match="cannot be chosen now"):
        game.choose(["clear"])
    game.choose(["potential"])
    assert game.state.hero.tracks["potential"] == 1


def test_12_a_prompt_with_every_option_disabled_is_skipped_with_the_reason(
        new_game: NewGame, h: Any) -> None:
    game = new_game()
    item = {"effect": {"type": "one_of", "options": [
        {"id": "a", "text": "Clear a condition.", "effects": [{"type": "clear_condition"}]},
        {"id": "b", "text": "Lose a Team.",
         "effects": [{"type": "track", "track": "team", "delta": -1}]}]}, "ctx": {}}
    h.setup(game, ev.TrackChanged(track="team", scope="campaign", delta=-1, value=0))
    with game._action("test"):
        game._run([item])
    said = [e["text"] for e in h.of(game.last_events, "Narrated")]
    assert said == ["Choose one: nothing here can change anything now (you have no condition"
                    " marked; Team is already at 0)."]
    assert game.state.flow.stage == "fiction"


def test_12_disabled_options_do_not_count_toward_the_number_to_pick(masks: Pack, h: Any
                                                                    ) -> None:
    calm = {"id": "calm", "text": "Clear a condition.", "effects": [{"type": "clear_condition"}]}
    team = {"id": "team", "text": "Add a Team.",
            "effects": [{"type": "track", "track": "team", "delta": 1}]}
    move = s.Move.model_validate({
        "id": "regroup", "name": "Regroup", "trigger": "You regroup.",
        "roll": {"stat": "savior"},
        "outcomes": {
            "strong_hit": {"text": "Pick two.", "choose": {"count": 2, "options": [calm, team]}},
            "weak_hit": {"text": "Pick two, repeats allowed.",
                         "choose": {"count": 2, "repeat": True, "options": [calm, team]}},
            "miss": {"text": "Up to two.",
                     "choose": {"count": 2, "up_to": True, "options": [calm, team]}}}})
    pack = dataclasses.replace(masks, moves={**masks.moves, "regroup": move})
    game = Game.new(pack, name="t", hero_name="Nova", stats=dict(FLAT), seed=3)
    game.trigger("regroup")
    h.roll(game, [6, 6])
    assert disabled(game) == {"calm": "you have no condition marked"}
    assert (game.pending.min, game.pending.max) == (1, 1)
    with pytest.raises(IllegalAction, match=r"pick exactly 1 \(you picked 0\)"):
        game.choose([])
    game.choose(["team"])
    h.setup(game, ev.ConditionMarked(who="hero", condition="afraid"))
    game.trigger("regroup")
    h.roll(game, [6, 6])
    assert disabled(game) == {}
    assert (game.pending.min, game.pending.max) == (2, 2)
    game.choose(["calm", "team"])
    game.trigger("regroup")
    h.roll(game, [1, 5])  # 6 + Savior 1 = 7: a weak hit, repeats allowed
    assert disabled(game) == {"calm": "you have no condition marked"}
    assert (game.pending.min, game.pending.max) == (2, 2)  # "team" twice is still two picks
    game.choose(["team", "team"])
    assert game.state.pools["team"] == 1 + 1 + 1 + 2
    game.trigger("regroup")
    h.roll(game, [1, 1])  # a miss: up to two, and only one can do anything
    assert (game.pending.min, game.pending.max) == (0, 1)
    game.choose([])


def test_12_the_end_of_session_options_say_why_they_cannot_be_taken(new_game: NewGame,
                                                                    h: Any) -> None:
    game = new_game(npcs=[("Vic Rook", "villain", "")])  # no adult: nobody has Influence
    game.end_session()
    assert disabled(game) == {"grow_away": "nobody has Influence over you"}
    with pytest.raises(IllegalAction, match="nobody has Influence over you"):
        game.choose(["grow_away"])
    game.choose(["grow_closer"])
    game.choose(["vic_rook"])
    assert over_hero(game.state, "vic_rook")


# --------------------------------------------------------------------------- item 13


def test_13_the_flow_carries_the_adjusted_roll(new_game: NewGame, h: Any) -> None:
    game = new_game()
    game.trigger("directly_engage")
    game.roll([2, 3])  # 5 + Danger 1 = 6, a miss; one Team (Tin helps) makes it 7
    assert game.state.flow.stage == "adjust"
    assert game.pending.message == "Miss (6). Change it?"
    events = game.adjust("team")
    adjusted = h.of(events, "RollAdjusted")[0]
    assert (adjusted["total"], adjusted["band"], adjusted["tone"], adjusted["was"]) == (
        7, "weak_hit", "mixed", "bad")
    p = game.pending
    assert p.kind == "choose"
    roll = p.roll
    assert (roll["total"], roll["band"], roll["band_name"], roll["tone"], roll["modifier"]) == (
        7, "weak_hit", "Weak hit", "mixed", 2)
    assert roll["modifiers"][-1] == ["Team from Tin", 1, None]
    assert game.state.flow.roll == roll


def test_13_the_adjust_prompt_reads_the_roll_as_it_stands(new_game: NewGame, h: Any) -> None:
    game = new_game()
    h.setup(game, ev.TrackChanged(track="team", scope="campaign", delta=2, value=3))
    game.trigger("directly_engage")
    game.roll([1, 3])  # 4 + 1 = 5: two Team make it a weak hit
    assert game.pending.message == "Miss (5). Change it?"
    game.adjust("team")
    assert game.pending.kind == "adjust"
    assert game.pending.message == "Miss (6). Change it?"
    assert game.pending.roll["total"] == 6
    game.adjust("team")
    assert game.pending.roll["band_name"] == "Weak hit"


def test_13_an_unadjusted_roll_is_carried_too(new_game: NewGame, h: Any) -> None:
    game = new_game()
    game.trigger("directly_engage")
    game.roll([6, 6])
    roll = game.pending.roll
    assert (roll["total"], roll["band_name"]) == (13, "Strong hit")


def test_13_a_move_with_no_roll_carries_no_stale_roll(new_game: NewGame, h: Any) -> None:
    game = new_game()
    game.trigger("directly_engage")
    game.roll([6, 6])
    game.choose(["resist", "opening"])
    game.trigger("end_of_session")
    assert getattr(game.pending, "roll", None) is None


def test_13_a_gm_move_prompt_carries_what_the_gm_said(masks: Pack, h: Any) -> None:
    pack = only_gm_move(masks, "inflict_condition")
    game = Game.new(pack, name="t", hero_name="Nova", stats=dict(FLAT), seed=5)
    game.trigger("directly_engage")
    events = game.roll([1, 1])
    made = h.of(events, "GMMoveMade")[0]
    p = game.pending
    assert p.message == "Mark a condition"
    assert dataclasses.asdict(p.gm) == {"move": "inflict_condition", "name": "Inflict a condition",
                               "kind": "hard", "text": made["text"]}
    # every name in the line is filled (addressing Nova by name is one opener among several)
    assert made["text"] and "{" not in made["text"] and "}" not in made["text"]


# --------------------------------------------------------------------------- item 14


def reject_miss(game: Game, h: Any) -> list[dict[str, Any]]:
    game.trigger("reject_influence", "Ada Vance")
    out = game.roll([1, 1])
    out += h.settle(game)
    return out


def test_14_a_reject_influence_miss_has_the_gm_shift_the_labels(new_game: NewGame,
                                                                h: Any) -> None:
    game = new_game()
    before = dict(game.state.hero.stats)
    events = reject_miss(game, h)
    shifted = h.of(events, "LabelsShifted")
    assert len(shifted) == 1
    changes = shifted[0]["changes"]
    assert sorted(changes.values()) == [-1, 1]
    up = next(k for k, v in changes.items() if v == 1)
    down = next(k for k, v in changes.items() if v == -1)
    assert game.state.hero.stats == {**before, up: before[up] + 1, down: before[down] - 1}
    assert shifted[0]["reason"] == "the GM: what Ada Vance said moves your Labels"
    said = [e["text"] for e in h.of(events, "Narrated") if e["by"] == "gm"]
    assert said == [f"The GM shifts your Labels: {game.pack.stats[up].name} +1,"
                    f" {game.pack.stats[down].name} -1."]
    assert not any("adjusts your Labels" in e["text"] for e in h.of(events, "Narrated"))


def test_14_the_gm_shift_is_fixed_by_the_seed(new_game: NewGame, h: Any) -> None:
    a, b = new_game(seed=11), new_game(seed=11)
    assert h.of(reject_miss(a, h), "LabelsShifted") == h.of(reject_miss(b, h), "LabelsShifted")
    picks = set()
    for seed in range(12):
        g = new_game(seed=seed)
        picks.add(tuple(sorted(h.of(reject_miss(g, h), "LabelsShifted")[0]["changes"].items())))
    assert len(picks) > 1  # the GM does not always make the same shift


def test_14_the_gm_shifts_only_what_can_move(new_game: NewGame, h: Any) -> None:
    game = new_game()
    h.setup(game, ev.LabelsShifted(changes={}, values={"danger": 3, "mundane": 0}),
            *[ev.LabelLocked(stat=k) for k in ("freak", "savior", "superior")])
    events = reject_miss(game, h)
    assert h.of(events, "LabelsShifted")[0]["changes"] == {"mundane": 1, "danger": -1}
    assert game.state.hero.stats["danger"] == 2 and game.state.hero.stats["mundane"] == 1


def test_14_with_every_label_locked_nothing_shifts(new_game: NewGame, h: Any) -> None:
    game = new_game()
    h.setup(game, *[ev.LabelLocked(stat=k) for k in game.pack.stats])
    before = dict(game.state.hero.stats)
    events = reject_miss(game, h)
    assert h.of(events, "LabelsShifted") == []
    assert "Their words find no Label left to move." in [
        e["text"] for e in h.of(events, "Narrated")]
    assert game.state.hero.stats == before


# --------------------------------------------------------------------------- item 16


def advancement(game: Game, h: Any, taken: int = 0) -> None:
    h.setup(game, ev.TrackChanged(track="potential", scope="hero", delta=4, value=4),
            *[ev.AdvanceTaken(advance="plus_label", text="+1") for _ in range(taken)])
    game.trigger("directly_engage")
    game.roll([1, 1])
    while game.pending.message != "Take an advancement":
        p = game.pending
        game.choose([next(o.id for o in p.options if not (o.disabled or None))])


GATED = {"lock_and_boost", "adult_moves", "retire", "paragon"}


def test_16_the_advanced_advancements_wait_for_five(new_game: NewGame, h: Any) -> None:
    game = new_game()
    advancement(game, h)
    assert set(ids(game)) == GATED | {"label_up", "moment_of_truth", "plus_label"}
    assert disabled(game) == {a: "opens after 5 advancements (you have taken 0)" for a in GATED}
    before = h.dump(game)
    for a in GATED:
        with pytest.raises(IllegalAction, match="opens after 5 advancements"):
            game.choose([a])
    assert h.dump(game) == before
    game.choose(["label_up"])


def test_16_after_four_still_closed_after_five_open(new_game: NewGame, h: Any) -> None:
    game = new_game()
    advancement(game, h, taken=4)
    assert disabled(game) == {a: "opens after 5 advancements (you have taken 4)" for a in GATED}
    game2 = new_game()
    advancement(game2, h, taken=5)
    assert disabled(game2) == {}
    game2.choose(["retire"])
    assert "retired" in game2.state.hero.flags


def test_16_taken_advancements_leave_the_list_and_repeatable_ones_stay(new_game: NewGame,
                                                                       h: Any) -> None:
    game = new_game()
    h.setup(game, ev.AdvanceTaken(advance="label_up", text="+1"),
            ev.FlagSet(flag="moment_of_truth_unlocked"))
    advancement(game, h, taken=1)
    assert "label_up" not in ids(game) and "plus_label" in ids(game)
    # the Moment of Truth is already unlocked: unlocking it now would do nothing
    assert disabled(game)["moment_of_truth"] == "moment of truth unlocked is already set"


def test_16_the_rule_is_stated_in_the_pack(masks: Pack) -> None:
    gated = {a.id for a in masks.system.advancements if a.min_advances == 5}
    assert gated == GATED
    assert all(a.min_advances == 0 for a in masks.system.advancements if a.id not in GATED)
    assert any("five advancements" in n for n in masks.system.rules_notes)


# --------------------------------------------------------------------------- item 17


def test_17_a_miss_saved_by_team_is_not_a_miss_for_tension(new_game: NewGame, h: Any) -> None:
    game = new_game()
    game.trigger("directly_engage")
    game.roll([2, 3])  # 6: a miss
    assert (game.state.scene.misses, game.state.scene.hits) == (1, 0)
    game.adjust("team")  # 7: a weak hit
    assert (game.state.scene.misses, game.state.scene.hits) == (0, 0)
    h.settle(game)
    events = game.end_scene()
    assert h.of(events, "TensionChanged") == []
    assert game.state.tension == 5


def test_17_a_weak_hit_pushed_to_a_strong_hit_counts_as_a_hit(new_game: NewGame, h: Any) -> None:
    game = new_game()
    game.trigger("directly_engage")
    game.roll([4, 4])  # 9: a weak hit
    game.adjust("team")
    assert (game.state.scene.misses, game.state.scene.hits) == (0, 1)
    h.settle(game)
    events = game.end_scene()
    assert h.of(events, "TensionChanged")[0]["value"] == 4


def test_17_old_roll_adjustments_change_no_counts(new_game: NewGame, h: Any) -> None:
    game = new_game()
    h.setup(game, ev.RollAdjusted(source="Team", amount=1, total=7, band="weak_hit",
                                  band_name="Weak hit", modifier=2))
    assert (game.state.scene.misses, game.state.scene.hits) == (0, 0)
    h.setup(game, ev.RollAdjusted(source="Team", amount=1, total=10, band="strong_hit",
                                  band_name="Strong hit", modifier=2, tone="good", was="good"))
    assert (game.state.scene.misses, game.state.scene.hits) == (0, 0)


@pytest.mark.parametrize(("faces", "why"), [
    ([1, 1], "after a miss on Directly engage a threat"),
])
def test_17_a_hard_move_after_a_miss_says_so(new_game: NewGame, h: Any, faces: list[int],
                                             why: str) -> None:
    game = new_game()
    game.trigger("directly_engage")
    events = game.roll(faces)
    assert h.of(events, "GMMoveMade")[0]["reason"].split(";")[0] == why


def test_17_a_soft_move_after_a_weak_hit_does_not_claim_the_player_asked(new_game: NewGame,
                                                                         h: Any) -> None:
    game = new_game()
    game.trigger("unleash_powers")
    h.roll(game, [3, 4])  # 8: a weak hit
    events = game.choose(["unstable"])
    reason = h.of(events, "GMMoveMade")[0]["reason"]
    assert reason.split(";")[0] == "after a weak hit on Unleash your powers"
    assert "looked to the GM" not in reason


def test_17_asking_the_gm_and_a_stalled_scene_say_which(new_game: NewGame, h: Any) -> None:
    game = new_game()
    made = h.of(game.ask_gm(), "GMMoveMade")[0]
    assert made["reason"].split(";")[0] == "you looked to the GM"
    out: list[dict[str, Any]] = []
    for text in ("I wait", "I wait more", "I wait even more"):
        out += game.narrate(text)
    made = h.of(out, "GMMoveMade")[0]
    assert made["reason"].split(";")[0] == "the scene stalled"


def test_17_the_occasion_of_a_gm_move(masks: Pack) -> None:
    from engine.gm.moves import occasion

    assert occasion(masks, {"move": "provoke", "band": "miss"}) == "after a miss on Provoke someone"
    assert occasion(masks, {"move": "provoke", "band": "strong_hit"}) == (
        "after a strong hit on Provoke someone")
    assert occasion(masks, {"move": "take_powerful_blow", "band": "strong_hit"}) == (
        "after a overwhelmed on Take a powerful blow")
    assert occasion(masks, {"move": "take_powerful_blow", "band": "miss"}) == (
        "after a stand strong on Take a powerful blow")
    assert occasion(masks, {"move": "enter_battle", "band": "result", "source": "x"}) == "x"
    assert occasion(masks, {"source": "start of session"}) == "start of session"
    assert occasion(masks, {}) == "the GM's turn"


# --------------------------------------------------------------------------- item 18


@pytest.mark.parametrize("faces", [[1, 1], [2, 2], [6, 6], [5, 5]])
def test_18_no_keep_the_result_when_nothing_can_change_the_band(new_game: NewGame, h: Any,
                                                                faces: list[int]) -> None:
    game = new_game()  # one Team; no Influence on an untargeted move
    game.trigger("directly_engage")
    game.roll(faces)  # 3, 5: +1 cannot reach 7; 13, 11: already strong
    assert game.state.flow.stage != "adjust"
    assert game.pending.kind != "adjust"


def test_18_after_one_adjustment_the_flow_goes_on_when_no_more_can_help(new_game: NewGame,
                                                                       h: Any) -> None:
    game = new_game()
    h.setup(game, ev.TrackChanged(track="team", scope="campaign", delta=2, value=3))
    game.trigger("directly_engage")
    game.roll([4, 4])  # 9
    game.adjust("team")  # 10: strong, nothing more to gain
    assert game.state.flow.stage == "effects"
    assert game.state.pools["team"] == 2
