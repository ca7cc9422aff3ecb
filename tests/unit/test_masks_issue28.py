"""Issue 28, Masks / City of Whispers / panels rules fidelity, played through ``Game``.

Each test names its item. Nova acts (FLAT: Danger +1); in a party Tin and Ash are the other
heroes. Dice are entered.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.content.loader import Pack
from engine.errors import IllegalAction
from engine.game import Game
from engine.journal import render_all
from engine.rules import events as ev
from engine.systems.masks.rules import InfluenceChanged, influence
from tests.conftest import FLAT, Helpers

PARTY = [{"name": "Tin", "archetype": "pawnshop_paladin"},
         {"name": "Ash", "archetype": "stitchwork"}]
NPCS = [("Vic Rook", "villain", ""), ("Parveen", "bystander", ""), ("Bo", "teammate", "")]


@pytest.fixture
def party(masks: Pack) -> Game:
    """Nova (acting, FLAT labels), Tin and Ash; Vic Rook and Parveen."""
    return Game.new(masks, name="Party", hero_name="Nova", stats=dict(FLAT), party=PARTY,
                    npcs=NPCS, seed=5)


def _log(game: Game) -> list[dict[str, Any]]:
    return list(game.store.events())


def _journal(game: Game) -> list[str]:
    names = {a.id: a.name for a in game.state.actors.values()}
    return render_all(_log(game), game.pack, names, game.state.party[0])


def _ids(game: Game) -> list[str]:
    return [o.id for o in game.pending.options]


# ------------------------------------------------------------------ 2: Influence for -2


def _ash_holds_influence_over_nova(party: Game) -> None:
    Helpers.setup(party, InfluenceChanged(npc="ash", direction="over_hero", held=True))
    assert influence(party.state, "ash", party.state.acting)


def test_2_a_hero_holding_influence_turns_an_eight_into_a_miss(party: Game) -> None:
    _ash_holds_influence_over_nova(party)
    Helpers.setup(party, ev.TrackChanged(track="team", scope="campaign", delta=-1, value=0))
    party.trigger("directly_engage", "Vic Rook")
    party.roll([3, 4])  # 7 + Danger 1 = 8: a weak hit; -2 makes it 6, a miss
    assert party.state.flow.stage == "adjust"
    assert _ids(party) == ["keep", "influence_minus:ash"]
    label = party.pending.options[1].label
    assert label == "Ash takes advantage of Influence over Nova: -2"
    events = party.adjust("influence_minus:ash")
    adjusted = Helpers.of(events, "RollAdjusted")[0]
    assert (adjusted["amount"], adjusted["total"], adjusted["band"]) == (-2, 6, "miss")
    assert adjusted["source"] == "Ash takes advantage of Influence"
    assert not influence(party.state, "ash", "nova")  # spent
    assert Helpers.of(_log(party), "OutcomeReached")[-1]["band"] == "miss"
    journal = "\n".join(_journal(party))
    assert "Ash loses Influence over Nova (taken advantage of: -2 on Nova's roll)" in journal


def test_2_the_minus_two_is_offered_only_where_it_matters(party: Game) -> None:
    _ash_holds_influence_over_nova(party)
    party.trigger("directly_engage", "Vic Rook")
    party.roll([6, 6])  # 12 + 1 = 13: -2 leaves a strong hit, so nothing is offered
    assert party.state.flow.stage != "adjust"
    assert influence(party.state, "ash", "nova")


def test_2_only_a_hero_holding_influence_can_take_advantage(party: Game) -> None:
    Helpers.setup(party, ev.TrackChanged(track="team", scope="campaign", delta=-1, value=0))
    party.trigger("directly_engage", "Vic Rook")
    party.roll([3, 4])  # 8, a weak hit; nobody holds Influence over Nova
    assert party.state.flow.stage != "adjust"
    roll = party.state.flow.roll or {}
    with pytest.raises(IllegalAction, match="not another hero here holding Influence"):
        party.rules.adjust(party.state, "influence_minus:tin", roll)


# ------------------------------------------------------------------ 3: clearing at scene end


def test_3_a_clearing_action_clears_when_the_scene_ends_and_the_journal_says_so(
        new_game: Any) -> None:
    game: Game = new_game()
    Helpers.setup(game, ev.ConditionMarked(who="hero", condition="angry"))
    game.took_clearing_action("angry")
    assert game.state.hero.conditions == ["angry"]  # still marked for the rest of the scene
    lines = _journal(game)
    assert "✚ You took the action that clears Angry: it clears at the end of the scene" in lines
    events = game.end_scene()
    assert [e["condition"] for e in Helpers.of(events, "ConditionCleared")] == ["angry"]
    assert game.state.hero.conditions == []
    lines = _journal(game)
    assert "✓ You cleared Angry (its clearing action was taken this scene)" in lines
    assert lines.index("✓ You cleared Angry (its clearing action was taken this scene)") > \
        lines.index("✚ You took the action that clears Angry: it clears at the end of the scene")


def test_3_the_condition_still_weighs_on_rolls_until_the_scene_ends(new_game: Any) -> None:
    game: Game = new_game()
    Helpers.setup(game, ev.ConditionMarked(who="hero", condition="angry"))
    game.took_clearing_action("angry")
    game.trigger("comfort_support", "Tin")  # Angry: -2 to comfort or support
    preview = game.pending.preview.to_dict()
    assert ["Angry", -2, None] in preview["modifiers"]


# ------------------------------------------------------------------ 4: Assess's +1


def _assess(game: Game, faces: list[int]) -> None:
    game.trigger("assess_situation")
    game.roll(faces)
    game.choose([str(i) for i in range(game.pending.min)])
    Helpers.settle(game)


def _modifier(game: Game, move: str, target: str | None = None) -> int:
    game.trigger(move, target) if target else game.trigger(move)
    value = int(game.pending.preview.to_dict()["modifier"])
    game.undo()
    return value


def test_4_assess_gives_one_plus_one_that_does_not_stack(new_game: Any) -> None:
    game: Game = new_game()
    base = _modifier(game, "directly_engage")  # Danger +1
    for _ in range(3):
        _assess(game, [4, 4])  # 8 + Superior 0: a weak hit each time
    answers = [b for b in game.state.bonuses if b.reason == "acting on the answers"]
    assert len(answers) == 1
    assert _modifier(game, "directly_engage") == base + 1  # not +3
    lines = _journal(game)
    assert any("it does not stack" in line for line in lines)


def test_4_assess_plus_one_only_counts_when_acting_on_the_answers(new_game: Any) -> None:
    game: Game = new_game()
    comfort = _modifier(game, "comfort_support", "Tin")
    assess = _modifier(game, "assess_situation")
    _assess(game, [6, 6])  # a strong hit
    assert _modifier(game, "unleash_powers") == 1 + 1  # Freak +1 and the answers
    assert _modifier(game, "comfort_support", "Tin") == comfort  # not acting on them
    assert _modifier(game, "assess_situation") == assess
    game.end_scene()
    assert _modifier(game, "unleash_powers") == 1  # it lasts the scene


# ------------------------------------------------------------------ 5: back from taken out


def _all_marked(game: Game) -> None:
    Helpers.setup(game, *[ev.ConditionMarked(who="hero", condition=c)
                          for c in game.pack.conditions], ev.TakenOut(out=True, who="hero"))


def test_5_back_from_being_taken_out_the_hero_clears_one_condition(new_game: Any) -> None:
    game: Game = new_game()
    _all_marked(game)
    assert len(game.state.hero.conditions) == 5 and game.state.hero.taken_out
    game.start_scene("The morning after")
    assert not game.state.hero.taken_out
    p = game.pending
    assert p.kind == "pick" and p.message == "Clear a condition"
    assert [o.id for o in p.options] == list(game.pack.conditions)
    events = game.choose(["guilty"])
    [cleared] = Helpers.of(events, "ConditionCleared")
    assert (cleared["condition"], cleared["reason"]) == ("guilty", "back after being taken out")
    assert "guilty" not in game.state.hero.conditions
    assert len(game.state.hero.conditions) == 4
    assert game.state.flow.stage in ("fiction", "move")


def test_5_with_one_condition_left_it_clears_by_itself(new_game: Any) -> None:
    game: Game = new_game()
    Helpers.setup(game, ev.ConditionMarked(who="hero", condition="afraid"),
                  ev.TakenOut(out=True, who="hero"))
    game.start_scene("Back")
    assert game.state.hero.conditions == [] and not game.state.hero.taken_out


# ------------------------------------------------------------------ 6: a teammate's potential


def _potential(game: Game, who: str) -> int:
    return game.state.actors[who].tracks.get("potential", 0)


def test_6_a_comforted_hero_who_lets_you_in_marks_potential(party: Game) -> None:
    before = _potential(party, "nova")
    party.trigger("comfort_support", "Ash")
    party.roll([4, 4])  # 8 + Mundane 0: a weak hit
    events = party.choose(["potential"])
    [marked] = Helpers.of(events, "TrackChanged")
    assert (marked["track"], marked["who"], marked["value"]) == ("potential", "ash", 1)
    assert _potential(party, "ash") == 1
    assert _potential(party, "nova") == before  # Nova's own is untouched


def test_6_a_persuaded_hero_whose_potential_fills_takes_their_advancement(party: Game) -> None:
    Helpers.setup(party, ev.FlagSet(flag="adult_moves"),
                  ev.TrackChanged(track="potential", scope="hero", delta=4, value=4, who="tin"))
    party.trigger("persuade_interests", "Tin")
    party.roll([4, 4])  # 8 + Superior 0: a weak hit
    party.choose(["potential"])
    assert party.state.acting == "tin"  # the spotlight is lent to Tin for the advancement
    assert party.pending.message == "Take an advancement"
    party.choose(["plus_danger"] if "plus_danger" in _ids(party) else [_ids(party)[0]])
    Helpers.settle(party)
    assert party.state.acting == "nova"  # and handed back
    assert party.state.actors["tin"].advances and not party.state.hero.advances
    assert _potential(party, "tin") == 0


def test_6_an_npc_teammate_marks_potential_in_the_fiction(party: Game) -> None:
    party.trigger("comfort_support", "Bo")
    party.roll([4, 4])
    events = party.choose(["potential"])
    assert [e["text"] for e in Helpers.of(events, "Narrated")] == [
        "Bo marks potential (told as fiction: an NPC has no potential track)."]


# ------------------------------------------------------------------ 7: City of Whispers


def test_7_a_history_bumps_a_roll_anywhere_in_the_city(root: Any) -> None:
    from engine.content.loader import load_pack
    cow = load_pack(root / "content" / "city-of-whispers")
    game = Game.new(cow, name="t", hero_name="Wren", archetype=cow.system.archetypes[0].id,
                    seed=3)
    game.start_scene("Greyvault vaults", location="Greyvault")
    histories = game.state.hero.data["histories"]
    elsewhere = [i for i, h in enumerate(histories) if h["neighborhood"] != "Greyvault"]
    assert elsewhere
    game.trigger("transit")
    game.roll([3, 3])  # 6: a miss
    offered = _ids(game)
    assert all(f"history:{i}" in offered for i in elsewhere)
    i = elsewhere[0]
    events = game.adjust(f"history:{i}")
    adjusted = Helpers.of(events, "RollAdjusted")[0]
    assert adjusted["band"] == "weak_hit"
    assert game.state.hero.data["histories"][i]["marked"]


# ------------------------------------------------------------------ 8: panels odds


def _cli_odds(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, str]:
    import json
    from fractions import Fraction

    from engine.cli import main
    from engine.odds import percent
    assert main(["odds", *argv, "--system", "panels", "--json"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    return {k: percent(Fraction(v)) for k, v in json.loads(out)["odds"].items()}


@pytest.mark.parametrize(("hero", "stunned"), [("rivet", True), ("nightjar", False)])
def test_8_sidekick_odds_agrees_with_the_games_preview(
        root: Any, capsys: pytest.CaptureFixture[str], hero: str, stunned: bool) -> None:
    from engine.content.loader import load_pack
    from engine.systems.panels.registry import TracksSet
    pack = load_pack(root / "content" / "panels")
    game = Game.new(pack, name="t", hero_name=hero.title(), archetype=hero, seed=3)
    if stunned:
        with game._action("test"):  # Agility +0 and stunned -5: only the natural 20 succeeds
            game._emit(TracksSet(actor=game.state.hero.id, tracks={"kill": 3, "stun": 50},
                                 conditions=["stunned"], why="test"))
    preview = game.preview("characteristic_check", stat="agility")
    modifier = int(preview.to_dict()["modifier"])
    if stunned:
        assert preview.odds["complete"] == "5.0%"
    assert _cli_odds(capsys, "characteristic_check", "-m", str(modifier)) == preview.odds


def test_8_odds_count_the_natural_20_and_the_natural_1(
        capsys: pytest.CaptureFixture[str]) -> None:
    low = _cli_odds(capsys, "d20", "-m", "-4")  # 18 needs a 22: only the natural 20
    assert (low["complete"], low["minor"], low["failure"]) == ("5.0%", "5.0%", "90.0%")
    high = _cli_odds(capsys, "characteristic_check", "-m", "30")  # a natural 1 still fails
    assert (high["failure"], high["complete"]) == ("5.0%", "95.0%")
