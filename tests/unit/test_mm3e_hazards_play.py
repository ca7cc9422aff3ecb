"""M&M hazards in play (engine/systems/mm3e/exposure.py) through ``Game`` with entered dice:
holding one's breath before suffocation checks, suffocation's dying, vacuum's cost in Stamina,
radiation's daily checks and catching a fall (RULES.md D.5, seed 004's hazards).

Numbers (content/mutants-and-masterminds/characters.yaml): Lamplight: Stamina 2 (breath 10 +
2 x 2 = 14 rounds), Fortitude 8, Toughness 10, Strength 0, Dexterity 6. Keystone: Strength 12.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.content.loader import Pack, load_pack
from engine.errors import IllegalAction
from engine.game import Game
from engine.systems.mm3e import exposure

Events = list[dict[str, Any]]


@pytest.fixture(scope="module")
def pack() -> Pack:
    return load_pack("content/mutants-and-masterminds")


def new_game(pack: Pack, archetype: str = "lamplight") -> Game:
    return Game.new(pack, name="t", hero_name="Ines", archetype=archetype, seed=7)


def roll(game: Game, die: int) -> Events:
    events = game.roll([die])
    if game.state.flow.stage == "adjust":
        events += game.adjust("keep")
    return events


def said(events: Events) -> list[str]:
    return [e["text"] for e in events if e["type"] == "Narrated"]


def face(game: Game, hazard: str, die: int, **params: int) -> Events:
    game.trigger("face_hazard")
    game.declare(f"hazard:{hazard}")
    if params:
        game.set_roll_options(params=params)
    return roll(game, die)


def dc_now(game: Game) -> int:
    """The success band's lowest total: the DC of the pending roll."""
    bands = game.pending.preview.to_dict()["bands"]
    return int(next(b["min"] for b in bands if b["id"] == "success1"))


def test_breath_is_held_before_any_suffocation_check(pack: Pack) -> None:
    game = new_game(pack)
    game.trigger("hold_breath")
    ids = [o.id for o in game.pending.options]
    assert ids == [str(k) for k in range(1, 15)] + ["vacuum"]  # 10 + 2 x Stamina 2
    assert "holds their breath: 11 rounds left" in " ".join(said(game.choose(["3"])))
    game.trigger("face_hazard")
    game.declare("hazard:suffocation")
    with pytest.raises(IllegalAction, match="11 rounds left"):
        game.roll([10])
    game.undo()  # the declaration, then the move
    game.undo()
    game.trigger("hold_breath")
    text = " ".join(said(game.choose(["11"])))
    assert "until it runs out" in text and "DC 10" in text
    # now the checks: DC 10, +1 per previous success
    game.trigger("face_hazard")
    game.declare("hazard:suffocation")
    assert dc_now(game) == 10
    text = " ".join(said(roll(game, 5)))  # 5 + 8 = 13
    assert "the next check is due next round (check 2, DC 11)" in text
    game.trigger("face_hazard")
    game.declare("hazard:suffocation")
    assert dc_now(game) == 11


def test_a_failed_suffocation_check_is_dying_the_next_round(pack: Pack) -> None:
    game = new_game(pack)
    game.trigger("hold_breath")
    game.choose(["14"])
    face(game, "suffocation", 1)  # 1 + 8 = 9 against 10
    assert "incapacitated" in game.state.hero.conditions
    assert "dying" not in game.state.hero.conditions
    game.trigger("hold_breath")
    assert [o.id for o in game.pending.options] == ["round", "breathe"]
    text = " ".join(said(game.choose(["round"])))
    assert "dying" in game.state.hero.conditions and "cannot stabilize" in text
    game.trigger("hold_breath")
    assert [o.id for o in game.pending.options] == ["breathe"]
    text = " ".join(said(game.choose(["breathe"])))
    assert "able to stabilize now" in text and exposure.exposures(game.state.hero) == {}


def test_untracked_suffocation_checks_follow_one_another(pack: Pack) -> None:
    game = new_game(pack)
    face(game, "suffocation", 10)  # breath not tracked: the check is made as asked
    game.trigger("face_hazard")
    game.declare("hazard:suffocation")
    assert dc_now(game) == 11  # the next one, not refused for breath


def test_an_untracked_suffocation_failure_still_leads_to_dying(pack: Pack) -> None:
    game = new_game(pack)
    face(game, "suffocation", 1)  # no breath tracked: the check is made as asked
    assert "incapacitated" in game.state.hero.conditions
    text = " ".join(said(face(game, "suffocation", 20)))  # the next round, whatever the die
    assert "dying" in game.state.hero.conditions and "Another round without air" in text


def test_holding_breath_in_vacuum_costs_stamina(pack: Pack) -> None:
    game = new_game(pack)
    game.trigger("hold_breath")
    game.choose(["vacuum"])
    game.trigger("face_hazard")
    game.declare("hazard:vacuum_breath")
    assert dc_now(game) == 15
    text = " ".join(said(roll(game, 10)))  # 10 + 8 = 18
    assert "a rank of Stamina (now 1" in text and "(check 2, DC 16)" in text
    assert exposure.stamina_lost(game.state.hero) == 1
    game.trigger("resistance_check")
    game.set_roll_options(stat="fortitude", params={"dc": 10})
    mods = game.pending.preview.to_dict()["modifiers"]
    assert ["Stamina lost to vacuum (1 rank)", -1, None] in [list(m) for m in mods]
    roll(game, 20)
    text = " ".join(said(face(game, "vacuum_breath", 1)))  # 1 + 8 - 1 = 8 against 16
    assert "begins to suffocate" in text
    assert "incapacitated" not in game.state.hero.conditions  # not until next round
    game.trigger("hold_breath")
    game.choose(["round"])
    assert "incapacitated" in game.state.hero.conditions
    game.trigger("hold_breath")
    text = " ".join(said(game.choose(["breathe"])))
    assert "1 rank of Stamina lost to the vacuum come back" in text
    assert exposure.stamina_lost(game.state.hero) == 0


def test_radiation_is_checked_on_exposure_then_daily(pack: Pack) -> None:
    game = new_game(pack)
    game.trigger("face_hazard")
    game.declare("hazard:radiation")
    game.set_roll_options(params={"rank": 4})
    assert dc_now(game) == 14
    text = " ".join(said(roll(game, 10)))
    assert "the next check is due tomorrow (check 2, DC 14)" in text
    game.trigger("face_hazard")
    game.declare("hazard:radiation")  # the rank is remembered
    assert dc_now(game) == 14
    text = " ".join(said(roll(game, 1)))
    assert "failed by 1 degree" in text and "due tomorrow (check 3, DC 14)" in text


def test_a_caught_fall_takes_the_catchers_strength_off(pack: Pack) -> None:
    game = new_game(pack)
    game.trigger("face_hazard")
    game.declare("hazard:falling")
    game.set_roll_options(params={"rank": 2, "caught": 6})  # rank 8 - 6 = 2: DC 17
    assert dc_now(game) == 17


@pytest.mark.parametrize(("hero", "params", "words"), [
    ("keystone", {}, "with Strength 12: neither of them is hurt"),
    ("lamplight", {}, "with Strength 0: both of them resist Damage 12 (Toughness DC 27"),
    ("lamplight", {"power": 8},
     "with power rank 8: both of them resist Damage 4 (Toughness DC 19")])
def test_catching_someone_falling(pack: Pack, hero: str, params: dict[str, int],
                                  words: str) -> None:
    game = new_game(pack, hero)
    game.trigger("catch_falling")
    game.set_roll_options(params={"rank": 4, **params})  # 4 + 2 x 4 = rank 12
    assert dc_now(game) == 5  # a Dexterity check, DC 5
    text = " ".join(said(roll(game, 10)))
    assert words in text


def test_a_missed_catch_lands_in_full(pack: Pack) -> None:
    game = new_game(pack)
    game.trigger("catch_falling")
    game.set_roll_options(params={"rank": 4, "dc": 20})
    text = " ".join(said(roll(game, 1)))
    assert "misses: the fall lands at its full rank 12 (Toughness DC 27)" in text
