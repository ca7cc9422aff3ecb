"""City of Whispers moves and their effects with entered dice: city, social, secrets, risky and
scheme moves, the sheet moves, every faction move (Alliance and Lose Cohesion included), the
Magistrate's moves, and a scripted session of more than twenty moves."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from engine.campaigns import close_game, new_game, open_game
from engine.cli import main
from engine.content.loader import Pack, load_pack
from engine.errors import IllegalAction
from engine.game import Game
from engine.gm.moves import legal, preconditions
from engine.journal import render_all
from engine.rules import events as ev
from engine.script import run_script
from engine.systems.city_of_whispers import CityFactionChanged, CitySheetChanged

ROOT = Path(__file__).resolve().parents[2]
COW_DIR = ROOT / "content" / "city-of-whispers"
EXAMPLE = ROOT / "examples" / "cow-the-missing-ledger.yaml"
NPCS = [("Odile Farrow", "contact", "fence"), ("Brother Cask", "ally", ""),
        ("Madam Ysolde Marrowgate", "patron", ""), ("Captain Renn Aldous", "authority", ""),
        ("Silas Quill", "rival", "")]
HERO = "the_tallow_exchange"


@pytest.fixture(scope="module")
def cow() -> Pack:
    """The bundled City of Whispers pack."""
    return load_pack(COW_DIR)


@pytest.fixture
def game(cow: Pack) -> Game:
    """A Go-Between (Environs +0, Lore -1, Network +2, Sway +1) with the five test NPCs."""
    return Game.new(cow, name="Test", hero_name="Mira", archetype="go_between", npcs=NPCS,
                    seed=7, location="a tinkers' yard in Copperkettle")


def setup(game: Game, *events: ev.Event) -> None:
    """Apply events as one action (test set-up that keeps the log consistent)."""
    with game._action("test set-up"):
        for e in events:
            game._emit(e)


def put(key: str, value: Any) -> CitySheetChanged:
    """A set-up event for the hero's sheet."""
    return CitySheetChanged(key=key, value=value, text="")


def track(name: str, value: int) -> ev.TrackChanged:
    """A set-up event for a hero track."""
    return ev.TrackChanged(track=name, scope="hero", delta=value, value=value)


def of(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    """The events of one type."""
    return [e for e in events if e["type"] == kind]


def roll(game: Game, move: str, faces: list[int], target: str | None = None,
         fiction: str = "", keep: bool = True, **options: Any) -> list[dict[str, Any]]:
    """Trigger ``move``, set its options, roll the entered faces and keep the result."""
    events = game.trigger(move, target, fiction)
    for d in options.pop("declare", ()):
        game.declare(d)
    if options:
        game.set_roll_options(**options)
    events += game.roll(faces)
    if keep and game.state.flow.stage == "adjust":
        events += game.adjust("keep")
    return events


def pick(game: Game, *answers: Any) -> list[dict[str, Any]]:
    """Answer the open prompts in order (an id, or a list of ids); the Magistrate's answers
    to asked questions are accepted as they come (tests/unit/test_gm_answers.py checks them)."""
    out: list[dict[str, Any]] = []
    for a in answers:
        out += game.choose(a if isinstance(a, list) else [a])
        while game.state.flow.stage == "effects" and game.pending.kind == "answer":
            out += game.choose(["accept"])
    return out


def options(game: Game) -> list[str]:
    """The ids of the open prompt's options."""
    return [o.id for o in game.pending.options]


def faction(game: Game, fid: str = HERO) -> dict[str, Any]:
    """A faction's stored data."""
    return dict(game.state.data["factions"][fid])


# --------------------------------------------------------------------------- city moves


def test_transit_critical_clears_heat_with_one_consequence(game: Game) -> None:
    setup(game, track("heat", 2))
    roll(game, "transit", [6, 6])
    assert options(game) == ["uneventful", "consequence_clear_heat"]
    pick(game, "consequence_clear_heat")
    assert game.state.hero.tracks["heat"] == 1
    assert options(game) == ["wrong_side", "noticed", "slow", "faction_favor"]
    pick(game, "noticed")
    assert game.state.flow.stage == "fiction"


def test_transit_weak_hit_two_consequences_or_a_detour(game: Game) -> None:
    roll(game, "transit", [4, 4])
    pick(game, "two_consequences")
    assert game.pending.min == game.pending.max == 2
    pick(game, ["slow", "noticed"])
    roll(game, "transit", [4, 4])
    events = pick(game, "detour")
    assert of(events, "GMMoveMade")[0]["kind"] == "soft"


def test_steer_clear_weak_hit_swept_up(game: Game) -> None:
    roll(game, "steer_clear", [4, 4])
    pick(game, "swept_up")
    bonus = game.state.bonuses[-1]
    assert (bonus.amount, bonus.moves) == (1, ["take_a_big_risk"])
    events = roll(game, "take_a_big_risk", [3, 3], stat="sway")
    assert ["+1 forward: swept up while steering clear", 1] in [
        m[:2] for m in of(events, "Rolled")[0]["modifiers"]]


def test_steer_clear_challenges_a_belief(game: Game) -> None:
    roll(game, "steer_clear", [5, 5])
    pick(game, "belief_challenged", "b2")
    assert game.state.hero.data["beliefs"][1]["state"] == "challenged"


def test_get_your_bearings_questions_and_forward(game: Game) -> None:
    # the scene is in Copperkettle, where the hero is connected: one question, or two
    events = game.trigger("get_your_bearings")
    assert game.pending.kind == "questions" and (game.pending.min, game.pending.max) == (1, 2)
    assert not of(events, "Rolled")
    events = pick(game, ["0", "1"])
    assert len(of(events, "QuestionsAsked")[0]["questions"]) == 2
    assert game.state.flow.stage == "roll"
    game.roll([6, 6])  # 12: one more question after the roll
    assert game.pending.kind == "questions" and game.pending.max == 1
    pick(game, ["2"])
    assert {b.reason for b in game.state.bonuses} == {"you got your bearings"}
    # elsewhere, with no connection there: one question, and a 10 asks nothing more
    game.start_scene("The docks", location="a customs shed on Saltmarrow Docks")
    game.trigger("get_your_bearings")
    assert (game.pending.min, game.pending.max) == (1, 1)
    pick(game, ["0"])
    game.roll([5, 5])
    assert game.state.flow.stage in ("fiction", "adjust")


def test_ear_to_the_ground_clears_a_challenged_belief(game: Game) -> None:
    beliefs = [dict(b) for b in game.state.hero.data["beliefs"]]
    beliefs[0]["state"] = "challenged"
    setup(game, put("beliefs", beliefs),
          ev.LabelsShifted(changes={"lore": 2}, values={"lore": 1}))
    roll(game, "ear_to_the_ground", [6, 5])
    pick(game, "clear_belief")
    assert game.state.hero.data["beliefs"][0]["state"] == "active"


def test_a_granted_belief_is_written_from_the_fiction(game: Game) -> None:
    with pytest.raises(IllegalAction, match="no new belief to write"):
        game.trigger("write_belief", fiction="Nobody in Vell works for free")
    roll(game, "ear_to_the_ground", [6, 5])  # 11 - 1 = 10
    assert game.state.hero.data["beliefs_to_write"] == 1
    with pytest.raises(IllegalAction, match="write the belief itself"):
        game.trigger("write_belief")
    game.trigger("write_belief", fiction="Nobody in Vell works for free.")
    beliefs = game.state.hero.data["beliefs"]
    assert beliefs[-1] == {"id": "b3", "text": "Nobody in Vell works for free.",
                           "state": "active"}
    assert "beliefs_to_write" not in game.state.hero.data


def test_appraise_circumstances_asks_and_clears_heat(game: Game) -> None:
    setup(game, track("heat", 1), ev.LabelsShifted(changes={"lore": 2}, values={"lore": 1}))
    roll(game, "appraise_circumstances", [6, 5])
    assert game.pending.max == 3
    pick(game, ["0", "1", "2"], "clear_heat")
    assert game.state.hero.tracks["heat"] == 0
    roll(game, "appraise_circumstances", [4, 4])  # 9: one question
    assert game.pending.max == 1


def test_sample_the_sights_with_and_without_an_invitation(game: Game) -> None:
    setup(game, track("heat", 2))
    game.trigger("sample_the_sights", "Odile Farrow", "Odile's pepper wine")
    pick(game, ["insist"])
    assert game.state.hero.tracks["heat"] == 1
    bonus = game.state.bonuses[-1]
    assert bonus.target == "odile_farrow" and "direct_someone_to_act" in bonus.moves
    game.trigger("sample_the_sights", None, "street opera")
    pick(game, [])
    assert game.state.hero.tracks["heat"] == 1
    assert game.state.hero.data["beliefs_to_write"] == 1


def test_get_something_compromises_and_heat(game: Game) -> None:
    roll(game, "get_something", [3, 3])  # 6 + 2 = 8
    pick(game, ["leads_back", "heat_for_one"])
    assert game.state.hero.tracks["heat"] == 1
    roll(game, "get_something", [4, 4])  # 10
    pick(game, "compromise")
    assert "heat_for_one" not in options(game) and len(options(game)) == 6
    pick(game, "not_quite")
    roll(game, "get_something", [5, 5])  # 12
    pick(game, "exactly")
    assert game.state.flow.stage == "fiction"


def test_observe_someone_critical_makes_a_tie_with_an_insight(game: Game) -> None:
    events = roll(game, "observe_someone", [5, 5], "Silas Quill")
    tie = game.state.hero.data["ties"]["silas_quill"]
    assert tie["active"] and tie["secret"] == "intact" and tie["insight"]
    assert "becomes your Tie" in of(events, "CitySheetChanged")[0]["text"]
    assert game.pending.max == 2
    pick(game, ["0", "1"])
    roll(game, "observe_someone", [5, 5], "Odile Farrow")  # already a Tie: three questions
    assert game.pending.max == 3


def test_observe_someone_strong_hit_heat_for_a_tie(game: Game) -> None:
    roll(game, "observe_someone", [4, 4], "Silas Quill")  # 10
    pick(game, ["0", "1"])
    assert options(game) == ["heat", "no"]
    pick(game, "heat")
    assert game.state.hero.tracks["heat"] == 1
    assert game.state.hero.data["ties"]["silas_quill"]["active"]
    roll(game, "observe_someone", [4, 4], "Odile Farrow")
    pick(game, ["0", "1"], "heat")
    assert game.pending.max == 1  # one more question for a Tie


def test_meet_someone_new(game: Game) -> None:
    roll(game, "meet_someone_new", [5, 5])  # 12
    pick(game, ["mutual", "faction"])
    assert game.state.bonuses[-1].moves == ["direct_someone_to_act", "use_a_secret"]
    roll(game, "meet_someone_new", [3, 3])  # 8
    events = pick(game, "interest", "insult", "answer", ["0", "1"])
    assert any(t.startswith("Doubt") for e in of(events, "OptionsChosen") for t in e["texts"])
    assert any(e["text"].startswith("You answer:") for e in of(events, "Narrated"))


# --------------------------------------------------------------------------- social and secrets


def test_direct_someone_to_act_weak_hit_consequence(game: Game) -> None:
    roll(game, "direct_someone_to_act", [3, 4], "Brother Cask", declare=["offer:value"])
    pick(game, "comply")
    # they pick a consequence: the Magistrate may choose for them (issue 27)
    assert options(game)[-2:] == ["standing", "gm_chooses"]
    pick(game, "standing")
    pick(game, "standing") if game.state.flow.stage == "effects" else None
    assert game.state.hero.tracks["standing"] <= -1


def test_direct_someone_to_act_miss(game: Game) -> None:
    events = roll(game, "direct_someone_to_act", [1, 2], "Brother Cask")
    assert game.pending.min == 0  # they may or may not name a price
    events += pick(game, ["favor"])
    assert of(events, "GMMoveMade")[0]["kind"] == "hard"


def test_direct_against_interest_has_no_roll(game: Game) -> None:
    events = game.trigger("direct_against_interest", "Brother Cask", "Betray the Exchange")
    assert not of(events, "Rolled")
    assert options(game) == ["partly", "counter_offer", "proof", "greater_value", "favor"]


def test_reveal_a_secret_by_choice(game: Game) -> None:
    game.trigger("reveal_a_secret", "Captain Renn Aldous")
    assert options(game) == ["odile_farrow", "madam_ysolde_marrowgate"]
    pick(game, "odile_farrow", "standing", "public")
    tie = game.state.hero.data["ties"]["odile_farrow"]
    assert tie["active"] and tie["secret"] == "erased"  # not about the listener: Tie kept
    assert game.state.hero.tracks["heat"] == 1 and game.state.hero.tracks["standing"] == -1
    game.trigger("reveal_a_secret", "Madam Ysolde Marrowgate")  # the only secret left
    pick(game, "flee", "kept")
    tie = game.state.hero.data["ties"]["madam_ysolde_marrowgate"]
    assert not tie["active"] and tie["secret"] == "marked"
    with pytest.raises(IllegalAction, match="no secret to reveal"):
        game.trigger("reveal_a_secret", "Brother Cask")


def test_name_a_tie(cow: Pack) -> None:
    game = Game.new(cow, name="T", hero_name="H", stats={"environs": 2, "lore": 1,
                                                          "network": 0, "sway": -1},
                    npcs=NPCS, seed=3)
    game.trigger("name_tie", "Brother Cask")
    assert game.state.hero.data["ties"]["brother_cask"]["active"]
    with pytest.raises(IllegalAction, match="already your Tie"):
        game.trigger("name_tie", "Brother Cask")
    game.trigger("name_tie", "Odile Farrow")
    with pytest.raises(IllegalAction, match="no Tie left to name"):
        game.trigger("name_tie", "Silas Quill")


# --------------------------------------------------------------------------- risky moves


def test_use_power_miss_backfires_with_its_complexity(game: Game) -> None:
    roll(game, "use_power", [2, 2], params={"complexity": 2},
         declare=["connection:copperkettle"])
    pick(game, "backfire")
    assert game.state.flow.move == "backfire"
    preview = game.pending.preview.to_dict()
    assert preview["modifier"] == 2 and preview["inverted"]
    events = game.roll([5, 5])  # 12: the worst band
    assert of(events, "Rolled")[0]["band"] == "disaster"
    pick(game, "collateral")
    assert game.state.hero.tracks["heat"] == 2


def test_backfire_low_is_good(game: Game) -> None:
    roll(game, "use_power", [2, 2], params={"complexity": 1})
    pick(game, "backfire")
    events = game.roll([2, 3])
    assert of(events, "Rolled")[0]["band"] == "fizzles"
    assert of(events, "Rolled")[0]["tone"] == "good"
    roll(game, "use_power", [2, 2], params={"complexity": 1})
    pick(game, "backfire")
    game.roll([3, 4])
    pick(game, ["taken_out", "faction"])
    assert game.state.hero.taken_out
    assert faction(game)["complications"][-1]


def test_use_power_opposite_effect_skips_backfire(game: Game) -> None:
    roll(game, "use_power", [2, 2])
    events = pick(game, "opposite")
    assert "backfire" not in [e["move"] for e in of(events, "MoveTriggered")]


def test_use_power_weak_hit_two_consequences(game: Game) -> None:
    roll(game, "use_power", [4, 4], declare=["connection:copperkettle"])  # 8 + 1 = 9
    pick(game, "two_consequences", ["lesser", "cost"])
    assert game.state.flow.stage == "fiction"


def test_take_a_big_risk_marks_heat_and_needs_a_stat(game: Game) -> None:
    events = game.trigger("take_a_big_risk")  # "mark Heat and roll": marked before the dice
    assert game.state.hero.tracks["heat"] == 1
    assert of(events, "TrackChanged")[0]["track"] == "heat"
    with pytest.raises(IllegalAction, match="choose which stat"):
        game.roll([6, 6])
    game.set_roll_options(stat="sway")
    events = game.roll([5, 6])  # 12
    assert not of(events, "TrackChanged")
    assert game.state.hero.tracks["heat"] == 1
    pick(game, ["clear_heat"])
    assert game.state.hero.tracks["heat"] == 0
    roll(game, "take_a_big_risk", [4, 5], stat="sway")  # 10: mark Heat for one more
    pick(game, "more", ["escape"])
    assert game.state.hero.tracks["heat"] == 2


# --------------------------------------------------------------------------- schemes and assets


def test_set_up_a_scheme_minus_one_per_scheme(game: Game) -> None:
    roll(game, "set_up_a_scheme", [4, 4], fiction="Gossip trade")  # 10
    assert game.state.hero.data["schemes"] == [
        {"id": "s1", "name": "Gossip trade", "productivity": 0}]
    events = roll(game, "set_up_a_scheme", [3, 3], fiction="Lamp-oil racket")  # 6 + 2 - 1
    assert ["schemes already running (1)", -1] in [m[:2] for m in
                                                    of(events, "Rolled")[0]["modifiers"]]
    pick(game, "slow_start")
    assert game.state.hero.data["schemes"][1]["productivity"] == -1
    events = roll(game, "set_up_a_scheme", [1, 2], fiction="Forged passes")  # 3 + 2 - 2
    events += pick(game, "heat")
    assert game.state.hero.data["schemes"][2]["productivity"] == -2
    assert of(events, "GMMoveMade")[0]["kind"] == "soft"  # someone catches wind


def test_run_the_scheme_productivity_cap_and_once_per_session(game: Game) -> None:
    setup(game, put("schemes", [{"id": "s1", "name": "Gossip", "productivity": 2},
                                {"id": "s2", "name": "Oil", "productivity": -3}]))
    events = roll(game, "run_the_scheme", [4, 4], declare=["scheme:s1"])  # 8 + 2 = 10
    assert of(events, "Rolled")[0]["modifiers"][0][:2] == ["Productivity of Gossip", 2]
    pick(game, ["0"])
    assert game.state.hero.data["schemes"][0]["productivity"] == 3
    assert game.state.hero.tracks["assets"] == 1
    game.trigger("run_the_scheme")
    assert [d["id"] for d in [vars(d) for d in game.pending.declarations]
            if d["id"].startswith("scheme:")] == ["scheme:s2"]
    game.roll([1, 2])  # 3 - 3: a miss; Productivity cannot go below -3
    events = game.adjust("keep") if game.state.flow.stage == "adjust" else []
    events += pick(game, ["1"])
    while game.state.flow.stage == "effects":  # the Magistrate's hard move may ask too
        events += pick(game, options(game)[0])
    assert game.state.hero.data["schemes"][1]["productivity"] == -3
    with pytest.raises(IllegalAction, match="every scheme of yours has been run"):
        game.trigger("run_the_scheme")


def test_run_the_scheme_strong_hit_caps_productivity_at_three(game: Game) -> None:
    setup(game, put("schemes", [{"id": "s1", "name": "Gossip", "productivity": 3}]))
    roll(game, "run_the_scheme", [3, 4])  # 7 + 3 = 10
    events = pick(game, ["0"])
    assert game.state.hero.data["schemes"][0]["productivity"] == 3
    assert any("stays at +3" in e["text"] for e in of(events, "Narrated"))


def test_run_the_scheme_weak_hit_squeezes(game: Game) -> None:
    setup(game, put("schemes", [{"id": "s1", "name": "Gossip", "productivity": 0}]))
    roll(game, "run_the_scheme", [4, 4])
    pick(game, ["0"], "squeeze")
    assert game.state.hero.data["schemes"][0]["productivity"] == -1
    assert game.state.hero.tracks["assets"] == 1


def test_use_asset_needs_an_asset(game: Game) -> None:
    with pytest.raises(IllegalAction, match="no asset to spend"):
        game.trigger("use_asset")
    setup(game, track("assets", 1))
    game.trigger("use_asset")
    pick(game, "standing")
    assert game.state.hero.tracks == {"heat": 0, "assets": 0, "standing": 1}


# --------------------------------------------------------------------------- factions


def test_faction_bands(game: Game) -> None:
    for faces, band in (([3, 3], "setback"), ([3, 4], "partial"), ([4, 5], "partial"),
                        ([5, 5], "success")):
        events = roll(game, "spread_a_rumor", faces, params={"aspects": 1})
        assert of(events, "Rolled")[0]["band"] == band
        while game.state.flow.stage == "effects":
            pick(game, options(game)[0])


def test_aspects_are_capped_by_what_the_faction_has(game: Game) -> None:
    game.trigger("secure_resource")
    game.set_roll_options(params={"aspects": 6})
    mod = game.pending.preview.to_dict()["modifiers"][0]
    assert mod[1] == 3 and "capped" in mod[0]  # two aspects and one neighborhood


def test_secure_resource(game: Game) -> None:
    roll(game, "secure_resource", [5, 5], fiction="The customs ledgers", params={"aspects": 1})
    assert faction(game)["aspects"][-1] == "The customs ledgers"
    roll(game, "secure_resource", [4, 4], fiction="A ward-maker", params={"aspects": 0})
    pick(game, "0")
    f = faction(game)
    assert f["aspects"][0].startswith("A hundred small debts owed to us, ")
    assert f["aspects"][-1] == "A ward-maker"
    roll(game, "secure_resource", [1, 2], fiction="Dock cranes", params={"aspects": 0})
    pick(game, "with_complication")
    f = faction(game)
    assert f["aspects"][-1] == "Dock cranes" and len(f["complications"]) == 1


def test_secure_resource_for_another_faction(game: Game) -> None:
    roll(game, "secure_resource", [6, 6], fiction="Harbor chains", params={"aspects": 1},
         declare=["faction:the_ashen_court"])
    assert faction(game, "the_ashen_court")["aspects"][-1] == "Harbor chains"
    assert "Harbor chains" not in faction(game)["aspects"]


def test_projects(game: Game) -> None:
    with pytest.raises(IllegalAction, match="no project"):
        game.trigger("complete_project")
    game.trigger("start_project", None, "A whispering gallery")
    pick(game, HERO)
    project = faction(game)["projects"][0]
    assert len(project["needs"]) == 3 and not project["ready"]
    roll(game, "secure_resource", [5, 5], fiction="A master mason", params={"aspects": 1})
    pick(game, "0")
    assert faction(game)["projects"][0]["ready"]
    roll(game, "complete_project", [4, 4], params={"aspects": 1})  # 9: one more resource
    project = faction(game)["projects"][0]
    assert project["finish_on_resource"] and not project["ready"]
    roll(game, "secure_resource", [6, 6], fiction="Timber", params={"aspects": 1})
    pick(game, "0")
    f = faction(game)
    assert f["projects"][0]["done"] and "A whispering gallery" in f["aspects"]


def test_complete_project_setback_and_success(game: Game) -> None:
    game.trigger("start_project", None, "Lamp tower")
    pick(game, HERO)
    roll(game, "secure_resource", [5, 5], fiction="Lamps", params={"aspects": 1})
    pick(game, "0")
    roll(game, "complete_project", [2, 3], params={"aspects": 1})
    assert not faction(game)["projects"][0]["ready"]
    with pytest.raises(IllegalAction):
        game.trigger("complete_project")
    roll(game, "secure_resource", [5, 5], fiction="Glass", params={"aspects": 1})
    pick(game, "0")
    roll(game, "complete_project", [5, 6], params={"aspects": 1})
    assert "Lamp tower" in faction(game)["aspects"]


def test_overtake_neighborhood(game: Game) -> None:
    # the Ashen Court defends the Thornwick against the Tallow Exchange
    ashen = ["faction:the_ashen_court"]
    roll(game, "overtake_neighborhood", [4, 4], params={"aspects": 1}, declare=ashen)
    pick(game, "the_thornwick")
    assert faction(game, "the_ashen_court")["neighborhoods"] == ["Ashfall"]
    roll(game, "overtake_neighborhood", [1, 2], params={"aspects": 1}, declare=ashen)
    pick(game, "cede", HERO)  # Ashfall is all it holds now
    assert "Ashfall" in faction(game)["neighborhoods"]
    assert len(faction(game)["complications"]) == 1  # the encroacher's price


def test_overtake_yield_and_sacrifice(game: Game) -> None:
    marrow = ["faction:house_marrowgate"]
    roll(game, "overtake_neighborhood", [1, 2], params={"aspects": 0}, declare=marrow)
    pick(game, "sacrifice", "0")
    assert faction(game, "house_marrowgate")["aspects"] == ["A seat on the Lamp Council"]
    roll(game, "overtake_neighborhood", [1, 2], params={"aspects": 0}, declare=marrow)
    pick(game, "yield", HERO)  # Gilt Terrace is its only neighborhood
    assert faction(game, "house_marrowgate")["to_write"] == 1
    assert "Gilt Terrace" in faction(game)["neighborhoods"]
    game.trigger("write_aspect", None, "Friends in the chapel")
    assert faction(game, "house_marrowgate")["aspects"][-1] == "Friends in the chapel"


def test_claim_an_undominated_neighborhood(game: Game) -> None:
    game.trigger("claim_neighborhood")
    pick(game, HERO)
    assert options(game) == ["lantern_row", "the_sallows", "the_spindle", "saltmarrow_docks",
                             "hollowmere", "vesper_gardens"]
    pick(game, "lantern_row")
    assert faction(game)["neighborhoods"] == ["Copperkettle", "Lantern Row"]


def test_mind_the_whispers(game: Game) -> None:
    roll(game, "mind_the_whispers", [5, 6], params={"aspects": 1})
    assert game.pending.max == 2
    pick(game, ["0", "1"])
    roll(game, "mind_the_whispers", [4, 4], params={"aspects": 1})
    pick(game, "two", "1", ["2", "3"])
    assert len(faction(game)["aspects"]) == 1
    roll(game, "mind_the_whispers", [1, 2], params={"aspects": 1})
    pick(game, "one", ["0"])
    assert len(faction(game)["complications"]) == 1


def test_spread_a_rumor_garbled(game: Game) -> None:
    events = roll(game, "spread_a_rumor", [1, 2], fiction="Silas sold out the Court",
                  params={"aspects": 1})
    assert any("rewrites the rumor" in e["text"] for e in of(events, "Narrated"))


def test_eliminate_threat(game: Game) -> None:
    setup(game, CityFactionChanged(faction=HERO, value={
        **faction(game), "complications": ["Watched by the Vigil", "Empty coffers"]}))
    roll(game, "eliminate_threat", [5, 6], params={"aspects": 2})
    pick(game, "0")
    f = faction(game)
    assert f["complications"] == ["Empty coffers"] and f["to_write"] == 1
    roll(game, "eliminate_threat", [1, 2], params={"aspects": 2})
    assert faction(game)["complications"][0].startswith("Empty coffers, ")
    roll(game, "eliminate_threat", [4, 4], params={"aspects": 1})
    pick(game, "0")
    f = faction(game)
    assert f["complications"] == [] and len(f["aspects"]) == 1  # the resource is used up


def test_alliance(game: Game) -> None:
    game.trigger("alliance")
    pick(game, HERO, ["the_vigil", "the_quiet_ledger"])
    f = faction(game)
    assert f["complications"] == ["Indebted to The Vigil, The Quiet Ledger"]
    events = roll(game, "mind_the_whispers", [3, 3], params={"aspects": 1})
    assert [m[1] for m in of(events, "Rolled")[0]["modifiers"]] == [1, 2]
    assert of(events, "Rolled")[0]["band"] == "partial"


def test_lose_cohesion_disperses_with_more_complications(game: Game) -> None:
    setup(game, CityFactionChanged(faction=HERO, value={
        **faction(game), "complications": ["A", "B"]}))
    game.trigger("lose_cohesion")
    pick(game, HERO, "0")
    f = faction(game)
    assert f["dispersed"] and f["neighborhoods"] == []
    assert "faction" not in game.state.hero.data
    game.trigger("found_faction", None, "The Lantern Compact")
    assert options(game) == ["0"]
    pick(game, "0")
    new = faction(game, "the_lantern_compact")
    assert new["aspects"] == ["Rooms above the Copper Kettle"]
    assert game.state.hero.data["faction"] == "the_lantern_compact"


def test_lose_cohesion_rolls_to_hold_together(game: Game) -> None:
    setup(game, CityFactionChanged(faction=HERO, value={
        **faction(game), "aspects": ["A", "B", "C"], "complications": ["X"]}))
    game.trigger("lose_cohesion")
    pick(game, HERO, "0")
    assert game.state.flow.move == "hold_together"
    game.set_roll_options(params={"aspects": 2})
    game.roll([1, 2])  # 5: it splinters
    pick(game, "0")
    f = faction(game)
    assert f["aspects"] == ["C"] and f["neighborhoods"] == [] and not f["dispersed"]
    game.trigger("lose_cohesion")
    pick(game, HERO)  # erases the last aspect: 1 complication > 0 aspects
    assert faction(game)["dispersed"]


def test_found_faction_and_write_aspect(cow: Pack) -> None:
    game = Game.new(cow, name="T", hero_name="H", stats={"environs": 2, "lore": 1,
                                                          "network": 0, "sway": -1}, seed=5)
    with pytest.raises(IllegalAction, match="name the new faction"):
        game.trigger("found_faction")
    game.trigger("found_faction", None, "The Night Market Guild")
    assert game.state.hero.data["faction"] == "the_night_market_guild"
    game.trigger("write_aspect", None, "Stalls on every corner")
    assert faction(game, "the_night_market_guild")["aspects"] == ["Stalls on every corner"]
    with pytest.raises(IllegalAction, match="already belong"):
        game.trigger("found_faction", None, "Another")


# --------------------------------------------------------------------------- the Magistrate


def test_magistrate_moves_use_known_preconditions(cow: Pack) -> None:
    known = preconditions(cow)
    for m in cow.gm_moves:
        assert all(w in known for w in m.when), m.id
    for name in ("hero_has_belief", "hero_has_tie", "rival_present", "heat_not_full",
                 "hero_has_scheme", "hero_has_assets", "hero_has_faction", "tie_present"):
        assert name in known


def test_magistrate_preconditions_follow_the_sheet(cow: Pack, game: Game) -> None:
    by_id = {m.id: m for m in cow.gm_moves}
    st = game.state
    assert legal(cow, st, by_id["shake_belief"]) and legal(cow, st, by_id["tie_in_danger"])
    assert not legal(cow, st, by_id["take_asset"]) and not legal(cow, st, by_id["warrant"])
    setup(game, ev.TrackChanged(track="heat", scope="hero", delta=4, value=4))
    assert not legal(cow, game.state, by_id["draw_heat"])
    assert legal(cow, game.state, by_id["warrant"])  # the captain is present


def test_magistrate_answers_misses_with_its_own_moves(game: Game) -> None:
    names = set()
    for i in range(6):
        events = roll(game, "transit", [1, 2 + i % 2])
        while game.state.flow.stage == "effects":
            events += pick(game, options(game)[0])
        made = of(events, "GMMoveMade")
        assert made and made[0]["kind"] == "hard"
        names.add(made[0]["move"])
        assert "Magistrate" in "\n".join(render_all(events, game.pack))
    assert len(names) > 2


def test_rivals_come_with_a_clock(game: Game) -> None:
    threat = next(iter(game.state.threats.values()))
    assert threat.npc == "silas_quill" and threat.kind == "rival"
    game.add_npc("Countess Ilse Varne", "rival")
    assert len(game.state.threats) == 2


def test_scene_framing_and_oracle(game: Game) -> None:
    proposal = game.propose_scene()
    assert proposal.location in [e.text for e in game.pack.tables["locations"].entries]
    events = game.ask_oracle("Is the Vigil watching the Kettle?", "likely", 11)
    assert of(events, "OracleAnswered")


# --------------------------------------------------------------------------- saves, script, CLI


def test_saved_campaign_reopens(cow: Pack, tmp_path: Path) -> None:
    game = new_game(tmp_path, system="city-of-whispers", name="Vell", hero_name="Mira",
                    archetype="go_between", npcs=NPCS, seed=9)
    roll(game, "transit", [1, 1, 6], declare=["belief:b1"])
    pick(game, "two_consequences", ["slow", "noticed"])
    state = game.state.model_dump(mode="json")
    close_game(game)
    again = open_game(tmp_path, "vell")
    assert again.state.model_dump(mode="json") == state
    assert again.state.hero.data["beliefs"][0]["state"] == "challenged"
    again.undo()
    close_game(again)


def test_the_example_session_plays_through(cow: Pack) -> None:
    data = yaml.safe_load(EXAMPLE.read_text())
    moves = [s for s in data["steps"] if "move" in s]
    assert len(moves) >= 20
    events: list[dict[str, Any]] = []
    game = run_script(data, saves=None, content=[], campaign=None, emit=events.append)
    played = {e["move"] for e in events if e["type"] == "MoveTriggered"}
    assert {"use_a_secret", "reveal_a_secret", "backfire", "run_the_scheme", "secure_resource",
            "claim_neighborhood", "take_a_big_risk", "direct_someone_to_act"} <= played
    assert len([e for e in events if e["type"] == "MoveTriggered"]) >= 20
    data_ = game.state.hero.data
    assert data_["ties"]["odile_farrow"]["secret"] == "marked"
    assert data_["histories"][0]["marked"] and len(data_["demands"]) == 1
    assert game.state.data["factions"][HERO]["neighborhoods"] == [
        "Copperkettle", "Saltmarrow Docks"]
    assert any(e["type"] == "RollAdjusted" for e in events)
    assert any(e["type"] == "Rolled" and e["dropped"] for e in events)


def test_cli_script_and_odds(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["script", str(EXAMPLE), "--dry-run", "--journal"]) == 0
    out = capsys.readouterr().out
    assert "**Magistrate" in out and "(dropped 1)" in out and "✎" in out
    assert main(["odds", "transit", "--system", "city-of-whispers",
                 "--advantage", "advantage"]) == 0
    out = capsys.readouterr().out
    assert "3d6kh2" in out and "7.4%" in out
    assert main(["odds", "backfire", "--system", "city-of-whispers", "-m", "3"]) == 0
    assert main(["validate", str(COW_DIR)]) == 0
