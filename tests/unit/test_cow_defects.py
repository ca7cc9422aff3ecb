"""City of Whispers defects of issue 8: the seed's order (Take a Big Risk marks Heat before
the dice, Get Your Bearings asks before the roll), tier bumps and connections only for the
scene's neighborhood, no "Keep the result" stop when nothing can change the band, and
declarations that change nothing when refused and speak in names."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from engine.content.loader import Pack, load_pack
from engine.errors import IllegalAction
from engine.game import Game
from engine.rules import events as ev
from engine.systems.city_of_whispers import CitySheetChanged

COW_DIR = Path(__file__).resolve().parents[2] / "content" / "city-of-whispers"
NPCS = [("Odile Farrow", "contact", "fence"), ("Brother Cask", "ally", ""),
        ("Silas Quill", "rival", "")]
COPPERKETTLE = "a tinkers' yard in Copperkettle"  # the Go-Between's connection
LANTERN_ROW = "the night bazaar on Lantern Row"  # History 0
GILT_TERRACE = "a garden party on Gilt Terrace"  # History 3
GREYVAULT = "a counting house in Greyvault"  # neither
# the Go-Between's Histories: Lantern Row, Saltmarrow Docks, the Thornwick, Gilt Terrace


@pytest.fixture(scope="module")
def cow() -> Pack:
    """The bundled City of Whispers pack."""
    return load_pack(COW_DIR)


def make(cow: Pack, location: str = COPPERKETTLE) -> Game:
    """A Go-Between (Environs +0, Lore -1, Network +2, Sway +1) opening in ``location``."""
    return Game.new(cow, name="Test", hero_name="Mira", archetype="go_between", npcs=NPCS,
                    seed=7, location=location)


def setup(game: Game, *events: ev.Event) -> None:
    """Apply events as one action (test set-up that keeps the log consistent)."""
    with game._action("test set-up"):
        for e in events:
            game._emit(e)


def track(name: str, value: int) -> ev.TrackChanged:
    """A set-up event for a hero track."""
    return ev.TrackChanged(track=name, scope="hero", delta=value, value=value)


def of(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    """The events of one type."""
    return [e for e in events if e["type"] == kind]


def ids(game: Game) -> list[str]:
    """The ids of the open prompt's options."""
    return [o.id for o in game.pending.options]


# --------------------------------------------------------------------------- 15: the order


def test_take_a_big_risk_marks_heat_when_triggered_before_the_dice(cow: Pack) -> None:
    game = make(cow)
    events = game.trigger("take_a_big_risk", fiction="I climb the bell tower")
    types = [e["type"] for e in events]
    assert types.index("MoveTriggered") < types.index("TrackChanged")
    assert of(events, "TrackChanged")[0]["track"] == "heat"
    assert game.state.hero.tracks["heat"] == 1
    assert game.state.flow.stage == "roll" and game.state.flow.move == "take_a_big_risk"
    game.set_roll_options(stat="environs")
    events = game.roll([6, 6])
    assert not [e for e in of(events, "TrackChanged") if e["track"] == "heat"]
    assert game.state.hero.tracks["heat"] == 1


def test_take_a_big_risk_asks_about_the_asset_before_the_roll(cow: Pack) -> None:
    game = make(cow)
    setup(game, track("assets", 1))
    game.trigger("take_a_big_risk")
    assert game.state.flow.stage == "effects"
    assert "Take a Big Risk" in game.pending.message
    assert ids(game) == ["spend:0", "spend:1"]
    with pytest.raises(IllegalAction):
        game.roll([6, 6])  # not yet: the Heat comes first
    game.choose(["spend:1"])
    assert game.state.hero.tracks == {"heat": 0, "assets": 0, "standing": 0}
    assert game.state.flow.stage == "roll" and game.state.flow.move == "take_a_big_risk"
    game.set_roll_options(stat="sway")
    game.roll([4, 4])
    assert game.state.hero.tracks["heat"] == 0
    # undo goes back through the roll and the asset choice, one action at a time
    game.undo()
    game.undo()
    game.undo()
    assert game.state.flow.stage == "effects" and game.state.hero.tracks["assets"] == 1


def test_get_your_bearings_asks_its_question_before_the_roll(cow: Pack) -> None:
    game = make(cow, location=GREYVAULT)  # not connected there: one question
    events = game.trigger("get_your_bearings")
    assert not of(events, "Rolled")
    assert game.pending.kind == "questions"
    assert (game.pending.min, game.pending.max) == (1, 1)
    with pytest.raises(IllegalAction):
        game.roll([4, 4])
    events = game.choose(["3"])
    assert of(events, "QuestionsAsked")[0]["questions"] == ["Which way should I avoid?"]
    assert game.pending.kind == "answer"  # the Magistrate answers it, before the roll
    events += game.choose(["accept"])
    assert of(events, "QuestionAnswered")[0]["question"] == "Which way should I avoid?"
    assert game.state.flow.stage == "roll"
    events = game.roll([4, 4])  # 8: weak hit, no further question
    assert not of(events, "QuestionsAsked")
    log = [e["type"] for e in game.store.events()]  # type: ignore[attr-defined]
    assert log.index("QuestionsAsked") < log.index("Rolled")


def test_get_your_bearings_second_question_when_connected_here(cow: Pack) -> None:
    game = make(cow)  # Copperkettle: connected
    game.trigger("get_your_bearings")
    assert (game.pending.min, game.pending.max) == (1, 2)
    assert "Copperkettle" in game.pending.message
    game.choose(["0", "4"])
    game.choose(["accept"])
    game.choose(["accept"])
    game.roll([6, 6])  # 12: one more after the roll
    assert game.pending.kind == "questions" and game.pending.max == 1


# --------------------------------------------------------------------------- 18: the place
# (issue 28 item 7: the rules set no neighborhood limit on a History; the limit these tests
# pin is now the pack's ``histories_local`` option, off by default)


def local(cow: Pack) -> Pack:
    """The pack with the ``histories_local`` option on."""
    data = {**cow.system.data, "histories_local": True}
    return dataclasses.replace(cow, system=cow.system.model_copy(update={"data": data}))


def test_only_the_history_of_the_scenes_neighborhood_is_offered(cow: Pack) -> None:
    game = make(local(cow), location=GILT_TERRACE)
    game.trigger("transit")
    game.roll([3, 3])  # 6: a miss
    assert ids(game) == ["keep", "history:3", "demand"]
    with pytest.raises(IllegalAction) as err:
        game.adjust("history:0")  # Lantern Row: not where the scene is
    message = err.value.message
    assert message.startswith("Recall a History (Lantern Row) is not on offer now (you may:"
                              " Recall a History (Gilt Terrace): bump one tier to ")
    assert message.endswith(", or keep the result)") and "history:" not in message
    assert game.state.flow.stage == "adjust"
    game.adjust("keep")
    with pytest.raises(IllegalAction, match="waiting for"):
        game.adjust("demand")


def test_no_history_applies_elsewhere(cow: Pack) -> None:
    game = make(local(cow), location=GREYVAULT)
    game.trigger("transit")
    game.roll([3, 3])
    assert ids(game) == ["keep", "demand"]


def test_a_scene_naming_no_neighborhood_offers_every_history_with_a_warning(cow: Pack) -> None:
    game = make(local(cow), location="a rooftop somewhere")
    game.trigger("transit")
    game.roll([3, 3])
    offered = {o.id: o for o in game.pending.options}
    assert {"history:0", "history:1", "history:2", "history:3"} <= set(offered)
    assert "only if you are there" in offered["history:0"].detail


def test_the_rules_refuse_a_history_of_another_place(cow: Pack) -> None:
    game = make(local(cow), location=GILT_TERRACE)
    game.trigger("transit")
    game.roll([3, 3])
    roll = dict(game.state.flow.roll or {})
    with pytest.raises(IllegalAction, match="cannot be recalled"):
        game.rules.adjust(game.state, "history:0", roll)


def test_keep_the_result_is_skipped_when_nothing_can_change_the_band(cow: Pack) -> None:
    game = make(local(cow))  # Copperkettle: no History there (with the option on)
    setup(game, CitySheetChanged(key="demands", value=[{"text": "x", "met": False}], text=""))
    events = game.trigger("transit") + game.roll([3, 3])  # a miss; the Demand is unmet
    assert game.state.flow.stage != "adjust"
    assert of(events, "OutcomeReached")[0]["band"] == "miss"


def test_history_bump_from_another_scene_in_its_neighborhood(cow: Pack) -> None:
    game = make(cow)
    game.start_scene("The bazaar", location=LANTERN_ROW)
    game.trigger("transit")
    events = game.roll([3, 4])  # 7
    assert "history:0" in ids(game)
    events = game.adjust("history:0")
    assert of(events, "RollAdjusted")[0]["band"] == "strong_hit"
    assert "Lantern Row" in game.state.hero.data["connections"]
    assert ids(game) == ["keep", "demand"]  # the Demand can still lift 10 to 12


def test_connection_counts_only_in_its_neighborhood(cow: Pack) -> None:
    game = make(cow, location=GREYVAULT)
    game.trigger("steer_clear")
    offered = [d["id"] for d in [vars(d) for d in game.pending.declarations]]
    assert "connection:copperkettle" not in offered
    with pytest.raises(IllegalAction, match="connected to Copperkettle"):
        game.declare("connection:copperkettle")
    assert game.state.flow.declared == []


def test_transit_counts_a_connection_to_the_destination(cow: Pack) -> None:
    game = make(cow, location=GREYVAULT)
    game.trigger("transit")
    game.declare("connection:copperkettle")
    assert game.pending.preview.to_dict()["dice"] == "3d6kh2"


def test_use_power_reads_the_scene_for_its_connection_modifier(cow: Pack) -> None:
    game = make(cow, location=GREYVAULT)
    game.trigger("use_power")
    mods = [m[:2] for m in game.pending.preview.to_dict()["modifiers"]]
    assert ["no connection to this neighborhood", -2] in mods
    offered = [d["id"] for d in [vars(d) for d in game.pending.declarations]]
    assert not [d for d in offered if d.startswith("connection:")]


# --------------------------------------------------------------------------- 19: declarations


def test_a_second_offer_is_refused_in_names_and_changes_nothing(cow: Pack) -> None:
    game = make(cow)
    game.trigger("direct_someone_to_act", "Brother Cask")
    game.declare("offer:value")
    before = game.state.model_dump(mode="json")
    log = len(game.store.log)  # type: ignore[attr-defined]
    with pytest.raises(IllegalAction) as err:
        game.declare("offer:peril")
    message = err.value.message
    assert message.startswith("Offer peril cannot be declared: Offer value is declared already")
    assert "withdraw it first" in message
    assert "Use Belief: " in message and "belief:b1" not in message
    assert "offer:" not in message
    assert game.state.model_dump(mode="json") == before
    assert len(game.store.log) == log  # type: ignore[attr-defined]


def test_set_declarations_is_all_or_nothing(cow: Pack) -> None:
    game = make(cow)
    game.trigger("direct_someone_to_act", "Brother Cask")
    game.declare("offer:value")
    before = game.state.model_dump(mode="json")
    # withdraw the offer, use a belief, and a second belief (one belief per roll): refused
    with pytest.raises(IllegalAction, match="one belief per roll"):
        game.set_declarations(["belief:b1", "belief:b2"])
    assert game.state.model_dump(mode="json") == before
    assert game.state.flow.declared == ["offer:value"]
    game.set_declarations(["belief:b1", "offer:peril"])
    assert game.state.flow.declared == ["belief:b1", "offer:peril"]
    assert game.pending.preview.to_dict()["dice"] == "3d6kh2"
    game.undo()
    assert game.state.flow.declared == ["offer:value"]


def test_unknown_and_spent_declarations_speak_in_names(cow: Pack) -> None:
    game = make(cow)
    beliefs = [dict(b) for b in game.state.hero.data["beliefs"]]
    beliefs[0]["state"] = "wrong"
    setup(game, CitySheetChanged(key="beliefs", value=beliefs, text=""))
    game.trigger("transit")
    with pytest.raises(IllegalAction) as err:
        game.declare("belief:b1")
    assert err.value.message.startswith(f"Use Belief: {beliefs[0]['text']} cannot be declared:"
                                        " that belief was proven wrong")
    with pytest.raises(IllegalAction, match="you hold no asset"):
        game.declare("asset")
    with pytest.raises(IllegalAction, match="Transit does not take it"):
        game.declare("nonsense")
    with pytest.raises(IllegalAction, match="is not declared"):
        game.declare("belief:b2", on=False)
    assert game.state.flow.declared == []


def test_a_move_the_rules_trigger_plays_though_the_hero_is_taken_out() -> None:
    """Found by the lab: a taken-out hero's faction lost cohesion, and the triggered Hold
    Together roll was refused, so the whole move could never be played."""
    from engine.lab.model import LabSpec
    from engine.lab.sim import simulate

    spec = LabSpec(system="city-of-whispers", policy="random", scenes=4, moves=6, party=3,
                   seed=11)
    result = simulate(spec, 17)
    assert result["ok"], result["error"]
    assert any(r["move"] == "hold_together" for r in result["rolls"])
