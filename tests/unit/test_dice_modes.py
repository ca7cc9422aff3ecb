"""Dice modes (issue 8 item 9): seeded, physical and mixed campaigns, switching mode at any time
(saved and undone), and entered dice for every roll the player can make by hand: moves, the
oracle's d100, Heat, Backfire and faction rolls."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.content.loader import Pack, load_pack
from engine.errors import IllegalAction
from engine.game import Game
from engine.rules import events as ev
from engine.rules.state import CampaignState

COW_DIR = Path(__file__).resolve().parents[2] / "content" / "city-of-whispers"


@pytest.fixture(scope="module")
def cow() -> Pack:
    """The bundled City of Whispers pack."""
    return load_pack(COW_DIR)


def city(cow: Pack, mode: str) -> Game:
    """A Go-Between in Copperkettle with the given dice mode."""
    return Game.new(cow, name="Dice", hero_name="Mira", archetype="go_between",
                    npcs=[("Odile Farrow", "contact", "")], seed=3, dice_mode=mode,
                    location="a tinkers' yard in Copperkettle")


def of(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    """The events of one type."""
    return [e for e in events if e["type"] == kind]


# --------------------------------------------------------------------------- the modes


def test_a_mixed_campaign_rolls_for_you_or_takes_your_dice(new_game: Callable[..., Game]
                                                            ) -> None:
    game = new_game(dice_mode="mixed")
    assert game.state.dice_mode == "mixed"
    game.trigger("directly_engage")
    assert game.pending.entry == "mixed"
    assert not game.pending.physical
    position = game.state.dice_position
    events = game.roll([6, 6])  # entered: the seeded stream does not move
    assert of(events, "Rolled")[0]["faces"] == [6, 6]
    assert game.state.dice_position == position
    game.undo()
    game.roll()  # or rolled for you
    assert game.state.dice_position == position + 2


def test_a_physical_campaign_needs_every_roll_entered(new_game: Callable[..., Game]) -> None:
    game = new_game(dice_mode="physical")
    game.trigger("directly_engage")
    assert game.pending.entry == "physical" and game.pending.physical
    with pytest.raises(IllegalAction, match="physical dice: enter the faces"):
        game.roll()
    with pytest.raises(IllegalAction, match="2d6 needs 2 dice, but 1 was entered"):
        game.roll([4])
    with pytest.raises(IllegalAction, match="a d6 shows 1 to 6; 7 is out of range"):
        game.roll([7, 1])
    assert game.state.flow.stage == "roll"
    game.roll([3, 4])


@pytest.mark.parametrize("mode", ["seeded", "physical", "mixed"])
def test_new_campaigns_take_every_mode(new_game: Callable[..., Game], mode: str) -> None:
    assert new_game(dice_mode=mode).state.dice_mode == mode


def test_switching_mode_is_an_action_saved_and_undone(new_game: Callable[..., Game]) -> None:
    game = new_game()
    events = game.set_dice_mode("physical")
    changed = of(events, "DiceModeChanged")[0]
    assert (changed["mode"], changed["was"]) == ("physical", "seeded")
    assert game.state.dice_mode == "physical"
    assert game.store.state["dice_mode"] == "physical"  # type: ignore[attr-defined]
    game.set_dice_mode("mixed")
    game.undo()
    assert game.state.dice_mode == "physical"
    game.undo()
    assert game.state.dice_mode == "seeded"


def test_switching_mode_refuses_nonsense_and_no_change(new_game: Callable[..., Game]) -> None:
    game = new_game()
    with pytest.raises(IllegalAction, match="dice mode must be one of seeded, physical, mixed,"
                                            " not 'loaded'"):
        game.set_dice_mode("loaded")
    with pytest.raises(IllegalAction, match="already uses seeded dice"):
        game.set_dice_mode("seeded")


def test_switching_mode_mid_roll_applies_to_that_roll(new_game: Callable[..., Game]) -> None:
    game = new_game()
    game.trigger("directly_engage")
    game.set_dice_mode("physical")
    assert game.pending.physical
    with pytest.raises(IllegalAction, match="physical dice"):
        game.roll()
    game.roll([2, 2])


def test_old_saves_without_a_mode_or_with_every_mode_load(new_game: Callable[..., Game]
                                                          ) -> None:
    dump = new_game().state.model_dump(mode="json")
    del dump["dice_mode"]
    assert CampaignState.model_validate(dump).dice_mode == "seeded"
    dump["dice_mode"] = "mixed"
    assert CampaignState.model_validate(dump).dice_mode == "mixed"
    replayed = CampaignState.model_validate(dump)
    ev.apply(replayed, ev.DiceModeChanged(mode="physical", was="mixed"))
    assert replayed.dice_mode == "physical"


# --------------------------------------------------------------------------- the oracle's d100


def test_the_oracle_takes_an_entered_d100_in_a_physical_campaign(new_game: Callable[..., Game]
                                                                 ) -> None:
    game = new_game(dice_mode="physical")
    with pytest.raises(IllegalAction, match="enter your d100"):
        game.ask_oracle("Is the ferry running?", "even")
    events = game.ask_oracle("Is the ferry running?", "even", 37)
    answer = of(events, "OracleAnswered")[0]
    assert (answer["roll"], answer["answer"], answer["entered"]) == (37, "yes", True)
    events = game.ask_oracle("Is it on time?", "even", [98])
    assert of(events, "OracleAnswered")[0]["answer"] == "no"
    assert of(events, "OracleAnswered")[0]["exceptional"]
    events = game.ask_oracle("Is anyone aboard?", "even", " 12 ")
    assert of(events, "OracleAnswered")[0]["roll"] == 12


@pytest.mark.parametrize("roll, message", [
    (0, "a d100 shows 1 to 100; 0 is out of range"),
    (101, "a d100 shows 1 to 100; 101 is out of range"),
    ([40, 41], "1d100 needs 1 die, but 2 were entered (40, 41)"),
    ("forty", "dice must be whole numbers separated by spaces, got 'forty'"),
])
def test_the_oracle_checks_the_entered_d100(new_game: Callable[..., Game], roll: Any,
                                            message: str) -> None:
    game = new_game(dice_mode="mixed")
    before = game.state.model_dump(mode="json")
    with pytest.raises(IllegalAction) as err:
        game.ask_oracle("Is it safe?", "even", roll)
    assert err.value.message == message
    assert game.state.model_dump(mode="json") == before


def test_a_mixed_campaign_lets_the_oracle_roll(new_game: Callable[..., Game]) -> None:
    game = new_game(dice_mode="mixed")
    position = game.state.dice_position
    events = game.ask_oracle("Is it safe?", "likely")
    assert not of(events, "OracleAnswered")[0]["entered"]
    assert game.state.dice_position == position + 1


# --------------------------------------------------------------------------- City of Whispers


def test_backfire_takes_entered_dice_and_refuses_none(cow: Pack) -> None:
    game = city(cow, "physical")
    game.trigger("use_power")
    game.declare("connection:copperkettle")
    game.roll([1, 2])  # 3 + 1: a miss; the power backfires
    if game.state.flow.stage == "adjust":
        game.adjust("keep")
    game.choose(["backfire"])
    assert game.state.flow.move == "backfire" and game.state.flow.stage == "roll"
    with pytest.raises(IllegalAction, match="physical dice"):
        game.roll()
    with pytest.raises(IllegalAction, match="a d6 shows 1 to 6; 9 is out of range"):
        game.roll([9, 1])
    events = game.roll([4, 4])
    assert of(events, "Rolled")[0]["move"] == "backfire"
    assert of(events, "Rolled")[0]["faces"] == [4, 4]


def test_faction_rolls_take_entered_dice(cow: Pack) -> None:
    game = city(cow, "physical")
    game.trigger("secure_resource", fiction="Lamp oil")
    game.set_roll_options(params={"aspects": 1})
    with pytest.raises(IllegalAction, match="physical dice"):
        game.roll()
    events = game.roll([5, 6])
    rolled = of(events, "Rolled")[0]
    assert rolled["faces"] == [5, 6] and rolled["entered"]


def test_heat_marked_before_a_physical_big_risk_then_the_dice(cow: Pack) -> None:
    game = city(cow, "physical")
    game.trigger("take_a_big_risk")
    assert game.state.hero.tracks["heat"] == 1
    game.set_roll_options(stat="sway")
    events = game.roll([2, 3, 6][:2])
    assert of(events, "Rolled")[0]["faces"] == [2, 3]


# --------------------------------------------------------------------------- the GM's tables


def test_a_roll_by_hand_lands_on_the_entry_its_weight_covers() -> None:
    from engine.content import schema as s
    from engine.gm.scenes import entry_for_roll, table_sides

    table = s.Table(id="t", name="T", entries=[s.TableEntry(text="a"),
                                               s.TableEntry(text="b", weight=2),
                                               s.TableEntry(text="c", weight=3)])
    assert table_sides(table) == 6
    assert [entry_for_roll(table, r).text for r in range(1, 7)] == list("abbccc")
    for bad in (0, 7):
        with pytest.raises(ValueError):
            entry_for_roll(table, bad)


def test_every_bundled_table_reads_by_hand_with_the_draws_odds(cow: Pack) -> None:
    from engine.gm.scenes import entry_for_roll, table_sides

    for table in cow.tables.values():
        counts: dict[int, int] = {}
        for r in range(1, table_sides(table) + 1):
            i = table.entries.index(entry_for_roll(table, r))
            counts[i] = counts.get(i, 0) + 1
        assert counts == {i: e.weight for i, e in enumerate(table.entries)}, table.id


def test_the_player_rolls_a_gm_table_by_hand(cow: Pack) -> None:
    game = city(cow, "physical")
    sides = {t.id: t.sides for t in game.tables()}
    assert sides["locations"] == 24
    with pytest.raises(IllegalAction, match="physical dice: roll a d24 for Places in Vell"):
        game.roll_table("locations")
    with pytest.raises(IllegalAction, match="a d24 shows 1 to 24; 25 is out of range"):
        game.roll_table("locations", 25)
    events = game.roll_table("locations", "7")
    text = of(events, "Narrated")[0]["text"]
    assert text == "Places in Vell (your d24: 7): a cold foundry in Ashfall"
    with pytest.raises(IllegalAction, match="no table 'nowhere'; tables: "):
        game.roll_table("nowhere", 1)


def test_a_seeded_campaign_lets_the_gm_pick_from_a_table(cow: Pack) -> None:
    game = city(cow, "seeded")
    position = game.state.dice_position
    events = game.roll_table("neighborhoods")
    text = of(events, "Narrated")[0]["text"]
    assert text.startswith("Neighborhoods of Vell (the Magistrate's pick): ")
    assert text.split(": ", 1)[1] in [e.text for e in cow.tables["neighborhoods"].entries]
    assert game.state.dice_position == position  # the GM's picks use no dice
    game.undo()
    again = game.roll_table("neighborhoods")
    assert of(again, "Narrated")[0]["text"] == text  # same seed, same place: same pick


def test_the_journal_says_when_the_dice_change(new_game: Callable[..., Game]) -> None:
    from engine.journal import render_all

    game = new_game()
    game.set_dice_mode("mixed")
    game.set_dice_mode("physical")
    lines = render_all(game.store.events(), game.pack)  # type: ignore[attr-defined]
    assert "🎲 Dice from now on: each roll asks who rolls." in lines
    assert "🎲 Dice from now on: you roll and type them." in lines
    assert not [x for x in lines if "(DiceModeChanged)" in x]


@settings(max_examples=80, deadline=None)
@given(roll=st.one_of(st.integers(-10**6, 10**6), st.text(max_size=6),
                      st.lists(st.integers(-5, 105), max_size=3)))
def test_an_entered_d100_is_taken_exactly_when_it_is_one_face_of_1_to_100(masks: Pack,
                                                                          roll: Any) -> None:
    """Any input: either the oracle answers with that face, or it says why and nothing
    changes."""
    game = Game.new(masks, name="P", hero_name="N", seed=1, dice_mode="physical",
                    stats={"danger": 1, "freak": 1, "savior": 1, "superior": 0, "mundane": 0})
    before = game.state.model_dump(mode="json")
    faces = [roll] if isinstance(roll, int) else roll if isinstance(roll, list) else None
    try:
        events = game.ask_oracle("Now?", "even", roll)
    except IllegalAction as err:
        assert err.message
        assert game.state.model_dump(mode="json") == before
        if faces is not None:
            assert not (len(faces) == 1 and 1 <= faces[0] <= 100)
        return
    answered = of(events, "OracleAnswered")[0]
    assert 1 <= answered["roll"] <= 100 and answered["entered"]
    if faces is not None:
        assert faces == [answered["roll"]]


def test_the_player_may_roll_the_place_of_the_next_scene(cow: Pack) -> None:
    game = city(cow, "physical")
    assert game.place_die() == 24
    proposal = game.propose_scene(0, 7)
    assert proposal.location == "a cold foundry in Ashfall"
    assert proposal.place_roll == 7
    assert game.propose_scene(0, "  ").location == game.propose_scene(0).location
    with pytest.raises(IllegalAction, match="a d24 shows 1 to 24; 30 is out of range"):
        game.propose_scene(0, 30)
    game.start_scene(proposal.title, proposal.location)
    assert game.rules.scene_neighborhood(game.state) == "Ashfall"  # type: ignore[attr-defined]
