"""What the player says in a fight suggests the action, the attack and the target."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.content.loader import Pack, get_pack, load_pack
from engine.errors import IllegalAction
from engine.game import Game


@pytest.fixture()
def game() -> Game:
    g = Game.new(get_pack("mutants-and-masterminds"), name="t", hero_name="Keystone",
                 archetype="keystone", seed=3)
    g.start_fight(["the_tallyman", "dockside_crew"])
    while g.referee_turn:
        g.referee_step()
    assert g.fight is not None and g.fight.encounter.acting == "keystone"
    return g


def test_an_attack_named_by_its_words_comes_first(game: Game) -> None:
    first = game.suggest_fight("I stomp the pier so the whole crew goes flying")[0]
    assert first.attack is not None
    assert (first.action, first.attack.id) == ("attack", "faultline_stomp")
    assert "stomp" in first.words


def test_a_punch_is_a_close_attack_at_the_target_named(game: Game) -> None:
    first = game.suggest_fight("I punch the Tallyman")[0]
    assert first.attack is not None and first.target is not None
    assert (first.action, first.attack.id, first.target.id) == (
        "attack", "granite_fist", "the_tallyman")
    assert first.target.name == "The Tallyman" and 0 < (first.target.hit or 0) <= 1


def test_other_actions_and_plain_fiction(game: Game) -> None:
    assert game.suggest_fight("I grab the Tallyman and pin his arms")[0].action in (
        "grab", "attack")
    assert "grab" in [s.action for s in game.suggest_fight("I grab him and hold on")]
    assert "recover" in [s.action for s in game.suggest_fight(
        "I take a breath and shake it off")]
    assert None in [s.action for s in game.suggest_fight("I look around the pier")]


def test_a_suggestion_plays_as_it_is(game: Game) -> None:
    first = game.suggest_fight("I punch the Tallyman")[0]
    assert first.action is not None and first.target is not None and first.attack is not None
    game.fight_act(first.action, target=first.target.id, attack=first.attack.id)
    assert any(e["type"] == "Rolled" and "Granite Fist" in e["what"]
               for e in game.last_events)


def test_no_suggestions_outside_a_fight() -> None:
    g = Game.new(get_pack("mutants-and-masterminds"), name="t", hero_name="Keystone",
                 archetype="keystone", seed=3)
    with pytest.raises(IllegalAction, match="no fight"):
        g.suggest_fight("I punch him")


def test_the_fiction_said_goes_into_the_journal_before_the_action(game: Game) -> None:
    game.fight_act("attack", target="the_tallyman", attack="granite_fist",
                   fiction="  Keystone   swings for the cane  ")
    kinds = [(e["type"], e.get("text")) for e in game.last_events]
    told = kinds.index(("Narrated", "Keystone swings for the cane"))
    assert told < next(i for i, k in enumerate(kinds) if k[0] == "Rolled")


def test_the_fiction_waits_with_an_awaited_die() -> None:
    g = Game.new(get_pack("mutants-and-masterminds"), name="t", hero_name="Keystone",
                 archetype="keystone", seed=3, dice_mode="physical")
    g.start_fight(["the_tallyman"], dice=[20, 1])
    g.fight_act("attack", target="the_tallyman", attack="granite_fist", fiction="Fist first.")
    assert g.fight_need is not None
    assert not any(e["type"] == "Narrated" for e in g.last_events)
    g.fight_die(15)
    assert [e["text"] for e in g.last_events if e["type"] == "Narrated"] == ["Fist first."]


def test_odds_with_maneuvers_and_the_foes_to_pick(game: Game) -> None:
    plain = game.fight_odds("granite_fist", "the_tallyman")
    power = game.fight_odds("granite_fist", "the_tallyman", {"power_attack": 2})
    assert power.hit is not None and plain.hit is not None and plain.resist_dc is not None
    assert power.hit < plain.hit and power.resist_dc == plain.resist_dc + 2
    with pytest.raises(IllegalAction, match="no attack roll"):
        game.fight_odds("faultline_stomp", "the_tallyman", {"accurate": 1})
    foes = {f.id: f.detail for f in game.foe_options()}
    assert foes["madame_undertow"].endswith("not yet here")
    assert foes["the_tallyman"] == "villain, PL 10"  # in the story now: once, by actor id


# ------------------------------------------------------------------ the panels game


@pytest.fixture(scope="module")
def panels_pack() -> Pack:
    """The bundled panels pack."""
    return load_pack(Path(__file__).resolve().parents[2] / "content" / "panels")


def panels_fight(panels_pack: Pack) -> Game:
    """Nightjar's turn against the Furnace Baron and the Foundry Crew (seeded)."""
    g = Game.new(panels_pack, name="t", hero_name="Nightjar", archetype="nightjar", seed=3)
    g.start_fight(["the_furnace_baron", "the_foundry_crew"])
    while g.referee_turn:
        g.referee_step()
    assert g.fight is not None and g.fight.encounter.acting == "nightjar"
    return g


def test_a_group_named_in_lower_case_is_the_target(panels_pack: Pack) -> None:
    g = panels_fight(panels_pack)
    first = g.suggest_fight("I hurl my bolas at the crew")[0]
    assert first.attack is not None and first.target is not None
    assert (first.action, first.attack.name) == ("attack", "Weighted Bolas")
    assert first.target.id.startswith("the_foundry_crew_")
    first = g.suggest_fight("I hurl my bolas at him")[0]
    assert first.attack is not None and first.attack.name == "Weighted Bolas"


def test_a_power_named_is_used_with_that_power(panels_pack: Pack) -> None:
    g = panels_fight(panels_pack)
    first = g.suggest_fight("I spread my glide cloak and sail over them")[0]
    assert first.option is not None and first.named is not None
    assert first.action == "use_power" and {first.option.needs: first.named.id} == {
        "power": "glide_cloak"}
    assert first.named.name == "Glide Cloak" and "glide" in first.words
    assert first.target is None  # a power used on nobody: not the option's target kind
    g.fight_act("use_power", None, None, {}, {first.option.needs: first.named.id})
    assert any(e["type"] == "Rolled" and e["what"] == "uses Glide Cloak"
               for e in g.last_events)


def test_faint_matches_under_a_clear_one_are_dropped(panels_pack: Pack) -> None:
    g = panels_fight(panels_pack)
    sugs = [s for s in g.suggest_fight("I crack the Furnace Baron with my fighting staff")
            if s.action]
    assert [(s.action, s.attack.name if s.attack else None) for s in sugs] == [
        ("attack", "Fighting Staff")]
    sugs = [s.action for s in g.suggest_fight("I run for it") if s.action]
    assert sugs == ["flee"]
