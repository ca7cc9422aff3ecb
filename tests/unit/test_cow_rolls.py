"""City of Whispers rolls: bands, advantage and disadvantage (and their exact odds), the
declarations, the dice-face rule (the dropped die counts), tier bumps and their once-per-session
limits, assets, Heat, and every rolled move's bands with entered dice."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from engine.content.loader import Pack, load_pack
from engine.dice import DiceSpec
from engine.errors import IllegalAction
from engine.game import Game
from engine.odds import band_odds, percent
from engine.rules import events as ev
from engine.systems.city_of_whispers import CityRules, CitySheetChanged

COW_DIR = Path(__file__).resolve().parents[2] / "content" / "city-of-whispers"
NPCS = [("Odile Farrow", "contact", "fence"), ("Brother Cask", "ally", ""),
        ("Madam Ysolde Marrowgate", "patron", ""), ("Captain Renn Aldous", "authority", ""),
        ("Silas Quill", "rival", "")]
# the Go-Between: Environs +0, Lore -1, Network +2, Sway +1; Ties with Odile and the Madam


@pytest.fixture(scope="module")
def cow() -> Pack:
    """The bundled City of Whispers pack."""
    return load_pack(COW_DIR)


HOME = "a tinkers' yard in Copperkettle"
"""The opening scene's place: Copperkettle, the Go-Between's connection."""


def make(cow: Pack, archetype: str | None = "go_between", stats: dict[str, int] | None = None,
         seed: int = 7, location: str = HOME) -> Game:
    """A new City of Whispers game with the five test NPCs, opening in ``location``."""
    return Game.new(cow, name="Test", hero_name="Mira", archetype=archetype, stats=stats,
                    npcs=NPCS, seed=seed, location=location)


def setup(game: Game, *events: ev.Event) -> None:
    """Apply events as one action (test set-up that keeps the log consistent)."""
    with game._action("test set-up"):
        for e in events:
            game._emit(e)


def sheet(game: Game, key: str, value: Any) -> CitySheetChanged:
    """A set-up event for the hero's sheet."""
    return CitySheetChanged(key=key, value=value, text="")


def heat(game: Game, value: int) -> ev.TrackChanged:
    """A set-up event putting Heat at ``value``."""
    return ev.TrackChanged(track="heat", scope="hero", delta=value, value=value)


def assets(value: int) -> ev.TrackChanged:
    """A set-up event putting assets at ``value``."""
    return ev.TrackChanged(track="assets", scope="hero", delta=value, value=value)


def start(game: Game, move: str, target: str | None = None, declare: Sequence[str] = (),
          params: dict[str, int] | None = None, stat: str | None = None,
          fiction: str = "") -> None:
    """Trigger ``move`` and make its pre-roll declarations and options."""
    game.trigger(move, target, fiction)
    for d in declare:
        game.declare(d)
    if params or stat:
        game.set_roll_options(stat=stat, params=params)


def of(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    """The events of one type."""
    return [e for e in events if e["type"] == kind]


def settle(game: Game, limit: int = 30) -> list[dict[str, Any]]:
    """Answer every prompt with its first options, keep every roll, roll any triggered move."""
    out: list[dict[str, Any]] = []
    for _ in range(limit):
        stage = game.state.flow.stage
        if stage == "effects":
            p = game.pending
            usable = [o for o in p.options if not (o.disabled or None)]
            out += game.choose([o.id for o in usable[:max(p.min, 1)]])
        elif stage == "adjust":
            out += game.adjust("keep")
        elif stage == "roll":
            out += game.roll()
        else:
            return out
    raise AssertionError("prompts never settled")


def band_of(events: list[dict[str, Any]]) -> str:
    """The band the last outcome reached."""
    return str(of(events, "OutcomeReached")[-1]["band"])


# --------------------------------------------------------------------------- the pack


def test_pack_loads_with_its_ruleset_and_magistrate(cow: Pack) -> None:
    game = make(cow)
    assert isinstance(game.rules, CityRules)
    assert cow.system.gm_title == "Magistrate"
    assert [b.id for b in cow.system.bands["default"]] == [
        "miss", "weak_hit", "strong_hit", "critical"]
    assert game.state.system == "city-of-whispers"


def test_archetype_sheet_and_factions(cow: Pack) -> None:
    data = make(cow).state.hero.data
    assert data["beliefs"][0]["text"].startswith("Everyone in Vell has a price")
    assert data["connections"] == ["Copperkettle"]
    assert [h["neighborhood"] for h in data["histories"]] == [
        "Lantern Row", "Saltmarrow Docks", "the Thornwick", "Gilt Terrace"]
    assert data["ties"]["odile_farrow"] == {"name": "Odile Farrow", "insight":
                                            "criminal connections", "secret": "intact",
                                            "active": True}
    assert data["faction"] == "the_tallow_exchange" and data["max_complexity"] == 2
    assert set(make(cow).state.data["factions"]) == {
        "the_tallow_exchange", "the_vigil", "the_ashen_court", "house_marrowgate",
        "the_quiet_ledger"}


def test_every_archetype_starts_with_valid_data(cow: Pack) -> None:
    for aid, arch in cow.archetypes.items():
        npcs = [(n.name, n.role, n.note) for n in arch.suggested_npcs]
        game = Game.new(cow, name="A", hero_name="H", archetype=aid, npcs=npcs, seed=1)
        data = game.state.hero.data
        assert len(data["beliefs"]) == 2 and len(data["histories"]) == 4, aid
        assert all(t["active"] for t in data["ties"].values()) and data["ties"], aid
        assert "ties_to_name" not in data, aid
        hoods = [n for f in game.state.data["factions"].values() for n in f["neighborhoods"]]
        assert len(hoods) == len(set(hoods)), aid


def test_custom_hero_writes_beliefs_names_ties_and_draws_histories(cow: Pack) -> None:
    game = make(cow, archetype=None, stats={"environs": 2, "lore": 1, "network": 0, "sway": -1})
    data = game.state.hero.data
    assert data["beliefs"] == [] and data["beliefs_to_write"] == 2
    assert data["ties_to_name"] == 2 and data["ties"] == {}
    hoods = [h["neighborhood"] for h in data["histories"]] + data["connections"]
    assert len(hoods) == 5 == len(set(hoods))
    assert "faction" not in data
    with pytest.raises(IllegalAction, match="must add up to \\+2"):
        make(cow, archetype=None, stats={"environs": 2, "lore": 2, "network": 0, "sway": -1})


# --------------------------------------------------------------------------- bands and odds


@pytest.mark.parametrize(("faces", "band"), [
    ([1, 1], "miss"), ([3, 3], "miss"), ([3, 4], "weak_hit"), ([4, 5], "weak_hit"),
    ([5, 5], "strong_hit"), ([5, 6], "strong_hit"), ([6, 6], "critical")])
def test_four_bands_with_entered_dice(cow: Pack, faces: list[int], band: str) -> None:
    game = make(cow)  # Environs +0
    start(game, "transit")
    events = game.roll(faces)
    assert of(events, "Rolled")[0]["band"] == band


def test_plain_odds_are_exact(cow: Pack) -> None:
    game = make(cow)
    start(game, "transit")
    preview = game.pending.preview.to_dict()
    assert preview["dice"] == "2d6"
    assert preview["odds"] == {"miss": "41.7%", "weak_hit": "41.7%", "strong_hit": "13.9%",
                               "critical": "2.8%"}


def test_use_belief_rolls_with_advantage_and_shows_exact_odds(cow: Pack) -> None:
    game = make(cow)
    start(game, "transit")
    assert "belief:b1" in {d["id"] for d in [vars(d) for d in game.pending.declarations]}
    game.declare("belief:b1")
    ctx = game.pending
    assert ctx.dice_mode == "advantage" and ctx.preview.dice == "3d6kh2"
    want = band_odds(DiceSpec.parse("3d6kh2"), 0, cow.system.bands["default"])
    assert ctx.preview.odds == {k: percent(v) for k, v in want.items()}
    assert ctx.preview.odds["critical"] == "7.4%"  # 16 of 216
    # only one belief at a time: the other is no longer offered, the declared one stays
    ids = {d.id for d in ctx.declarations}
    assert "belief:b1" in ids and "belief:b2" not in ids


def test_use_power_above_max_complexity_rolls_with_disadvantage(cow: Pack) -> None:
    game = make(cow)  # max complexity 2
    start(game, "use_power", params={"complexity": 3})
    preview = game.pending.preview.to_dict()
    assert preview["dice"] == "3d6kl2"
    want = band_odds(DiceSpec.parse("3d6kl2"), -2, cow.system.bands["default"])
    assert preview["odds"] == {k: percent(v) for k, v in want.items()}
    assert [m[:2] for m in preview["modifiers"]][1] == ["no connection to this neighborhood", -2]


def test_advantage_and_disadvantage_cancel(cow: Pack) -> None:
    game = make(cow)
    start(game, "use_power", declare=["belief:b1"], params={"complexity": 3})
    assert game.pending.preview.to_dict()["dice"] == "2d6"
    game.set_roll_options(params={"complexity": 2})
    assert game.pending.preview.to_dict()["dice"] == "3d6kh2"


def test_use_power_connection_modifier(cow: Pack) -> None:
    game = make(cow)
    start(game, "use_power", declare=["connection:copperkettle"])
    mods = game.pending.preview.to_dict()["modifiers"]
    assert ["connected to Copperkettle", 1, None] in mods
    assert game.pending.preview.to_dict()["dice"] == "2d6"  # a connection gives +1 here


def test_connection_gives_advantage_on_city_moves_only(cow: Pack) -> None:
    game = make(cow)
    start(game, "get_something", declare=["connection:copperkettle"])
    assert game.pending.preview.to_dict()["dice"] == "3d6kh2"
    game.undo()
    game.undo()
    start(game, "direct_someone_to_act", "Odile Farrow")
    assert not any(d["id"].startswith("connection:")
                   for d in [vars(d) for d in game.pending.declarations])


def test_tie_gives_advantage_on_observe_someone(cow: Pack) -> None:
    game = make(cow)
    start(game, "observe_someone", "Odile Farrow")
    assert "tie" in {d["id"] for d in [vars(d) for d in game.pending.declarations]}
    game.declare("tie")
    assert game.pending.preview.to_dict()["dice"] == "3d6kh2"
    game.undo()
    game.undo()
    start(game, "observe_someone", "Silas Quill")
    assert "tie" not in {d["id"] for d in [vars(d) for d in game.pending.declarations]}


def test_faction_roll_odds_use_faction_bands(cow: Pack) -> None:
    game = make(cow)
    start(game, "secure_resource", params={"aspects": 2})
    preview = game.pending.preview.to_dict()
    want = band_odds(DiceSpec.parse("2d6"), 2, cow.system.bands["faction"])
    assert preview["odds"] == {k: percent(v) for k, v in want.items()}
    assert set(preview["odds"]) == {"setback", "partial", "success"}


def test_roll_with_heat(cow: Pack) -> None:
    game = make(cow)
    setup(game, heat(game, 3))
    label, value = game.rules.stat_value(game.state, cow.moves["direct_someone_to_act"],
                                         "minus_heat")
    assert value == -3 and "3 marked" in label


def test_the_magistrate_reads_each_offer_per_npc(cow: Pack) -> None:
    game = make(cow, seed=1807)
    setup(game, heat(game, 2))
    start(game, "direct_someone_to_act", "Odile Farrow")
    seen = {}
    for offer in ("peril", "value", "logic"):
        game.declare(f"offer:{offer}")
        mod = game.pending.preview.to_dict()["modifiers"][0]
        seen[offer] = mod[1]
        assert offer in mod[0]
        game.declare(f"offer:{offer}", on=False)
    assert seen == {"peril": 0, "value": 1, "logic": 0}  # Odile answers value with Sway
    game.declare("offer:value")
    assert game.pending.preview.to_dict()["modifier"] == 1
    # the same NPC reads the same way every time (the reading is fixed by the seed)
    assert game.rules._offer_reading(game.state, "odile_farrow", "value")[1] == 1


# --------------------------------------------------------------------------- the dice-face rule


def test_dropped_die_challenges_a_belief(cow: Pack) -> None:
    game = make(cow)
    start(game, "transit", declare=["belief:b1"])
    events = game.roll([6, 5, 1])  # the 1 is dropped, and still counts
    rolled = of(events, "Rolled")[0]
    assert rolled["kept"] == [6, 5] and rolled["dropped"] == [1]
    settle(game)
    assert game.state.hero.data["beliefs"][0]["state"] == "challenged"
    # used again while challenged: a 2 proves it wrong
    start(game, "transit", declare=["belief:b1"])
    game.roll([2, 6, 6])
    settle(game)
    assert game.state.hero.data["beliefs"][0]["state"] == "wrong"
    start(game, "transit")
    assert "belief:b1" not in {d["id"] for d in [vars(d) for d in game.pending.declarations]}
    with pytest.raises(IllegalAction):
        game.declare("belief:b1")


def test_belief_holds_without_a_low_die(cow: Pack) -> None:
    game = make(cow)
    start(game, "transit", declare=["belief:b2"])
    events = game.roll([3, 4, 5]) + settle(game)
    assert game.state.hero.data["beliefs"][1]["state"] == "active"
    assert any("your belief holds" in e["text"] for e in of(events, "Narrated"))


def test_belief_is_challenged_whatever_the_result(cow: Pack) -> None:
    game = make(cow)
    start(game, "transit", declare=["belief:b1"])
    events = game.roll([6, 6, 2]) + settle(game)
    assert band_of(events) == "critical"
    assert game.state.hero.data["beliefs"][0]["state"] == "challenged"


def test_secret_dropped_die_reveals_it_the_seed_example(cow: Pack) -> None:
    """1 + 4 + 5 with advantage: 9 on Direct Someone to Act, and the secret is revealed."""
    game = make(cow, archetype=None, stats={"environs": 2, "lore": 1, "network": -1, "sway": 0})
    setup(game, sheet(game, "ties", {"odile_farrow": {
        "name": "Odile Farrow", "insight": "romantic liaisons", "secret": "intact",
        "active": True}}))
    start(game, "direct_someone_to_act", "Odile Farrow", declare=["secret:odile_farrow"])
    assert game.pending.preview.to_dict()["dice"] == "3d6kh2"
    events = game.roll([1, 4, 5])
    assert of(events, "Rolled")[0]["total"] == 9 and band_of(events) == "weak_hit"
    events += game.choose(["compensation"])  # the original move resolves first
    events += game.choose(["revenge"])
    assert of(events, "MoveTriggered")[-1]["move"] == "reveal_a_secret"
    assert game.state.hero.tracks["heat"] == 1
    tie = game.state.hero.data["ties"]["odile_farrow"]
    assert tie["secret"] == "marked" and not tie["active"]  # the Tie is lost
    events += game.choose(["deny"])  # one extra reaction
    events += game.choose(["kept"])
    assert game.state.flow.stage == "fiction"
    assert "revealing" not in game.state.hero.data


def test_use_a_secret_move_uses_the_targets_secret_with_advantage(cow: Pack) -> None:
    game = make(cow)
    start(game, "use_a_secret", "Odile Farrow", declare=["offer:logic"])
    assert game.pending.preview.to_dict()["dice"] == "3d6kh2"
    game.roll([4, 5, 6])
    events = settle(game)
    assert "reveal_a_secret" not in [e["move"] for e in of(events, "MoveTriggered")]
    assert game.state.hero.data["ties"]["odile_farrow"]["secret"] == "intact"


def test_use_a_secret_needs_a_secret(cow: Pack) -> None:
    game = make(cow, archetype=None, stats={"environs": 2, "lore": 1, "network": -1, "sway": 0})
    with pytest.raises(IllegalAction, match="no secret you can use"):
        game.trigger("use_a_secret", "Odile Farrow")


def test_a_secret_about_someone_else_keeps_the_tie(cow: Pack) -> None:
    game = make(cow)
    start(game, "direct_someone_to_act", "Captain Renn Aldous",
          declare=["secret:madam_ysolde_marrowgate"])
    game.roll([2, 5, 6])
    settle(game)
    tie = game.state.hero.data["ties"]["madam_ysolde_marrowgate"]
    assert tie["active"] and tie["secret"] == "intact"
    assert game.state.hero.tracks["heat"] == 1


# --------------------------------------------------------------------------- tier bumps


def test_history_bumps_one_tier_once_per_session(cow: Pack) -> None:
    # Histories: Lantern Row, Saltmarrow Docks, the Thornwick, Gilt Terrace
    game = make(cow, location="the night bazaar on Lantern Row")
    start(game, "transit")
    game.roll([3, 3])
    offered = {o.id: o for o in game.pending.options}
    # every unmarked History: the rules set no neighborhood limit (issue 28 item 7)
    assert set(offered) == {"keep", "history:0", "history:1", "history:2", "history:3",
                            "demand"}
    events = game.adjust("history:0")
    adj = of(events, "RollAdjusted")[0]
    assert (adj["amount"], adj["total"], adj["band"]) == (1, 7, "weak_hit")
    assert game.state.hero.data["histories"][0]["marked"]
    assert "Lantern Row" in game.state.hero.data["connections"]
    # no second History this session; the Demand is still on offer
    assert {o.id for o in game.pending.options} == {"keep", "demand"}
    game.adjust("keep")
    settle(game)
    start(game, "transit")
    game.roll([3, 3])
    assert not any(o.id.startswith("history:") for o in game.pending.options)
    game.adjust("keep")
    settle(game)
    game.end_session()
    settle(game)
    game.start_scene("Next day", location="a garden party on Gilt Terrace")
    start(game, "transit")
    game.roll([3, 3])
    assert {o.id for o in game.pending.options} == {"keep", "history:1", "history:2",
                                                    "history:3", "demand"}


def test_bump_from_ten_to_twelve(cow: Pack) -> None:
    game = make(cow, location="the fish auction at Saltmarrow Docks")
    start(game, "transit")
    game.roll([5, 5])
    events = game.adjust("history:1")
    assert of(events, "RollAdjusted")[0]["amount"] == 2
    assert of(events, "RollAdjusted")[0]["band"] == "critical"
    assert game.state.flow.stage == "effects"  # nothing higher: the outcome follows


def test_no_bump_on_a_critical(cow: Pack) -> None:
    game = make(cow)
    start(game, "transit")
    game.roll([6, 6])
    assert game.state.flow.stage == "effects"


@pytest.mark.parametrize("move", ["direct_someone_to_act", "use_a_secret"])
def test_no_bumps_on_social_moves(cow: Pack, move: str) -> None:
    game = make(cow)
    start(game, move, "Odile Farrow")
    game.roll([3, 3] if move != "use_a_secret" else [3, 3, 3])
    assert game.state.flow.stage != "adjust"
    with pytest.raises(IllegalAction):
        game.adjust("history:0")


def test_no_bumps_on_faction_or_backfire_rolls(cow: Pack) -> None:
    game = make(cow)
    start(game, "secure_resource", params={"aspects": 0})
    game.roll([2, 3])
    assert game.state.flow.stage != "adjust"
    settle(game)
    start(game, "use_power")
    game.roll([1, 2])
    game.adjust("keep")
    game.choose(["backfire"])
    assert game.state.flow.move == "backfire"
    game.roll([4, 4])
    assert game.state.flow.stage != "adjust"


def test_demand_bumps_and_waits_to_be_met(cow: Pack) -> None:
    # the pack's histories_local option on: no History of Copperkettle can bump the roll
    data = {**cow.system.data, "histories_local": True}
    game = make(dataclasses.replace(cow, system=cow.system.model_copy(update={"data": data})))
    start(game, "transit")
    game.roll([3, 4])
    events = game.adjust("demand")
    assert of(events, "RollAdjusted")[0]["band"] == "strong_hit"
    demands = game.state.hero.data["demands"]
    assert len(demands) == 1 and not demands[0]["met"] and demands[0]["text"]
    assert any("the city demands that you" in e["text"] for e in of(events, "CitySheetChanged"))
    # no History of Copperkettle and the Demand is spent: nothing else can change the band
    assert game.state.flow.stage != "adjust"
    settle(game)
    game.end_session()
    settle(game)
    game.start_scene("Later")
    start(game, "transit")
    game.roll([3, 4])
    assert "demand" not in {o.id for o in game.pending.options}  # the first is unmet
    game.adjust("keep")
    settle(game)
    events = game.trigger("meet_demand")
    assert game.pending.message == "Take an advancement"
    game.choose(["plus_complexity"])
    assert game.state.hero.data["demands"][0]["met"]
    assert game.state.hero.data["max_complexity"] == 3
    with pytest.raises(IllegalAction, match="no open Demand"):
        game.trigger("meet_demand")


def test_meeting_the_fourth_demand_retires_the_hero(cow: Pack) -> None:
    game = make(cow)
    setup(game, sheet(game, "demands", [{"text": "x", "met": True}] * 3
                      + [{"text": "y", "met": False}]))
    events = game.trigger("meet_demand")
    events += game.choose(["plus_belief"])
    assert "retire" in [e["move"] for e in of(events, "MoveTriggered")]
    assert "retired" in game.state.hero.flags


# --------------------------------------------------------------------------- assets and Heat


def test_assets_cap_at_two(cow: Pack) -> None:
    game = make(cow)
    setup(game, sheet(game, "schemes", [{"id": "s1", "name": "Gossip", "productivity": 3}]),
          assets(1))
    start(game, "run_the_scheme")
    game.roll([6, 6])
    settle(game)
    assert game.state.hero.tracks["assets"] == 2


def test_asset_avoids_marking_heat(cow: Pack) -> None:
    game = make(cow)
    setup(game, assets(1))
    start(game, "ear_to_the_ground")
    game.roll([4, 4])  # 8 - 1 = 7: mark Heat for a related rumor
    game.adjust("keep")
    game.choose(["related"])
    assert game.pending.options[1].id == "spend:1"
    game.choose(["spend:1"])
    assert game.state.hero.tracks == {"heat": 0, "assets": 0, "standing": 0}


def test_asset_gives_advantage_on_a_social_roll(cow: Pack) -> None:
    game = make(cow)
    setup(game, assets(2))
    start(game, "direct_someone_to_act", "Brother Cask", declare=["asset"])
    assert game.pending.preview.to_dict()["dice"] == "3d6kh2"
    game.roll([3, 4, 5])
    assert game.state.hero.tracks["assets"] == 1


def test_assets_add_one_each_on_a_network_roll(cow: Pack) -> None:
    game = make(cow)  # Network +2
    setup(game, assets(2))
    start(game, "get_something")
    game.roll([2, 2])  # 6: a miss
    ids = {o.id for o in game.pending.options}
    assert {"asset:1", "asset:2"} <= ids
    events = game.adjust("asset:1")
    assert of(events, "RollAdjusted")[0]["band"] == "weak_hit"
    assert game.state.hero.tracks["assets"] == 1
    # +1 more would not reach 10, so only the tier bumps remain
    assert not any(o.id.startswith("asset:") for o in game.pending.options)


def test_heat_full_gives_the_magistrate_a_hard_move(cow: Pack) -> None:
    game = make(cow)
    setup(game, heat(game, 3))
    events = game.trigger("take_a_big_risk")  # the Heat is marked as the move is triggered
    assert game.state.hero.tracks["heat"] == 4
    assert of(events, "GMMoveMade") and of(events, "GMMoveMade")[0]["kind"] == "hard"
    assert game.state.flow.stage == "roll"
    game.set_roll_options(stat="sway")
    game.roll([4, 4])
    settle(game)
    # full already: a further mark becomes a hard move instead
    events = game.trigger("take_a_big_risk")
    assert game.state.hero.tracks["heat"] == 4
    assert any("already full" in e["text"] for e in of(events, "Narrated"))
    assert of(events, "GMMoveMade")[0]["move"] != "draw_heat"
    assert not of(events, "Rolled") and game.state.flow.stage == "roll"


# --------------------------------------------------------------------------- every move's bands

ROLLED = ["transit", "steer_clear", "get_your_bearings", "ear_to_the_ground",
          "appraise_circumstances", "get_something", "observe_someone", "meet_someone_new",
          "direct_someone_to_act", "use_a_secret", "use_power", "take_a_big_risk",
          "set_up_a_scheme", "run_the_scheme"]
TARGETS = {"observe_someone": "Silas Quill", "direct_someone_to_act": "Brother Cask",
           "use_a_secret": "Odile Farrow", "meet_someone_new": "Silas Quill"}
RANGES = {"miss": range(-10, 7), "weak_hit": range(7, 10), "strong_hit": range(10, 12),
          "critical": range(12, 30)}
GM_ON_MISS = set(ROLLED) - {"use_power", "set_up_a_scheme"}


def _faces(total: int, count: int) -> list[int] | None:
    """Faces of ``count`` dice (kept: the first two) summing to ``total``, avoiding 1s and 2s."""
    for a in range(6, 0, -1):
        b = total - a
        if 1 <= b <= 6:
            pair = [a, b]
            return pair + [min(pair)] * (count - 2)
    return None


@pytest.mark.parametrize("band", list(RANGES))
@pytest.mark.parametrize("move", ROLLED)
def test_every_rolled_move_reaches_every_band(cow: Pack, move: str, band: str) -> None:
    game = make(cow)
    setup(game, sheet(game, "schemes", [{"id": "s1", "name": "Gossip", "productivity": 0}]),
          ev.LabelsShifted(changes={"lore": 2}, values={"lore": 1}))  # so 12+ is reachable
    start(game, move, TARGETS.get(move), stat="lore" if move == "take_a_big_risk" else None,
          declare=["connection:copperkettle"] if move == "use_power" else ())
    if game.state.flow.stage == "effects":  # Get Your Bearings asks before the roll
        game.choose(["0"])
        game.choose(["accept"])  # and the Magistrate answers it
    preview = game.pending.preview.to_dict()
    count = int(preview["dice"][0])
    wanted = [t for t in RANGES[band] if 2 <= t - preview["modifier"] <= 12]
    faces = _faces(wanted[0] - preview["modifier"], count)
    assert faces is not None
    events = game.roll(faces) + settle(game)
    outcome = next(e for e in events if e["type"] == "OutcomeReached" and e["move"] == move)
    assert outcome["band"] == band
    assert game.state.flow.stage == "fiction"
    if band == "miss" and move in GM_ON_MISS:
        assert of(events, "GMMoveMade"), move


def test_every_move_has_cues_and_visible_ones_are_suggested_by_them(cow: Pack) -> None:
    game = make(cow)
    setup(game, sheet(game, "schemes", [{"id": "s1", "name": "Gossip", "productivity": 0}]),
          assets(1))
    for move in cow.moves.values():
        assert move.cues, move.id
        if move.hidden or game.move_available(move):
            continue
        for cue in move.cues:  # each cue alone puts its move among the three suggested
            suggested = [s.move for s in game.suggest(f"I {cue}")]
            assert move.id in suggested, (move.id, cue, suggested)


def test_offering_a_bribe_suggests_direct_someone_to_act_first(cow: Pack) -> None:
    game = make(cow)
    suggestions = game.suggest("I offer the guard fifty crowns to look the other way")
    assert suggestions[0].move == "direct_someone_to_act"
    assert suggestions[0].odds["weak_hit"] == "41.7%"


def test_undo_restores_the_sheet_exactly(cow: Pack) -> None:
    game = make(cow, location="the night bazaar on Lantern Row")
    start(game, "transit", declare=["belief:b1"])
    before = game.state.model_dump(mode="json")
    game.roll([1, 5, 6])
    game.adjust("history:0")
    settle(game)
    assert game.state.hero.data["beliefs"][0]["state"] == "challenged"
    while game.state.model_dump(mode="json") != before:
        game.undo()
    assert game.state.hero.data["beliefs"][0]["state"] == "active"
    assert not game.state.hero.data["histories"][0]["marked"]
