"""The panels game's round flow against seed 003, through ``Game`` with entered dice: panels
left unused are lost (and the journal says so), responses before one's own turn come out of
that turn's panels, a turn that all goes to repaying panels owed says how much, and a tie's
single Agility order across both sides."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.content.loader import Pack, load_pack
from engine.game import Game
from engine.journal import render_all
from engine.rules.fight.values import DieNeed, PanelColumns

CONTENT = Path(__file__).resolve().parents[2] / "content" / "panels"


@pytest.fixture(scope="module")
def pack() -> Pack:
    return load_pack(CONTENT)


def fight(pack: Pack, foes: list[str], dice: list[int]) -> Game:
    g = Game.new(pack, name="t", hero_name="Rivet", archetype="rivet", seed=7,
                 dice_mode="physical")
    g.start_fight(foes, dice=dice)
    g.gm.place_fighters("engaged")  # in reach: these tests are about the panels' flow
    g.set_fight_dice("physical")
    return g


def enter(g: Game, *faces: int) -> None:
    for f in faces:
        assert isinstance(g.fight_need, DieNeed), g.fight_need
        g.fight_die(f)


def journal(g: Game) -> list[str]:
    names = {a.id: a.name for a in g.state.actors.values()}
    return render_all(list(g.store.events()), g.pack, names)


def panels(g: Game, actor: str) -> PanelColumns:
    cols = next(r for r in g.tracker() if r.actor == actor).columns
    assert isinstance(cols, PanelColumns)
    return cols


def villain_attacks_and_rivet_dodges(g: Game) -> None:
    g.referee_step()
    g.referee_step()
    enter(g, 12)  # 12 + 6 = 18: a complete hit
    g.fight_choose("dodge")
    enter(g, 2, 1, 1, 1)  # the dodge fails; damage


def test_panels_left_at_the_end_of_a_turn_are_lost_and_said(pack: Pack) -> None:
    g = fight(pack, ["cutglass"], [6, 2])  # heroes first, 4 panels each
    g.fight_act("move")
    g.end_turn()
    assert "Rivet leaves 3 panels unused: lost." in journal(g)
    assert panels(g, "rivet").panels == 0
    g.end_turn()  # Cutglass's four, unplayed
    enter(g, 4, 3)  # round 2: 1 panel each, nothing carried over
    assert "Cutglass leaves 4 panels unused: lost." in journal(g)
    assert g.fight is not None and g.fight.encounter.budget == {"panel": 1}


def test_responses_before_ones_turn_come_out_of_that_turns_panels(pack: Pack) -> None:
    g = fight(pack, ["cutglass"], [1, 4])  # villains first, 3 panels each
    villain_attacks_and_rivet_dodges(g)
    villain_attacks_and_rivet_dodges(g)
    assert (panels(g, "rivet").panels, panels(g, "rivet").arrears) == (1, 2)
    g.end_turn()  # Cutglass's last panel goes unused
    assert g.fight is not None and g.fight.encounter.acting == "rivet"
    assert g.fight.encounter.budget == {"panel": 1}
    assert g.fight.encounter.participant("rivet").arrears == 0


def test_a_turn_that_all_goes_to_the_debt_says_so(pack: Pack) -> None:
    g = fight(pack, ["cutglass"], [1, 3])  # villains first, 2 panels each
    villain_attacks_and_rivet_dodges(g)
    villain_attacks_and_rivet_dodges(g)  # Cutglass's last panel: Rivet's turn begins
    assert isinstance(g.fight_need, DieNeed) and g.fight_need.what == "side initiative"
    enter(g, 5, 2)  # Rivet's 2 panels repaid the 2 owed, so round 2 began
    assert "Rivet has no panels left this round: all 2 go to repaying panels owed." in journal(g)
    assert g.fight is not None and g.fight.encounter.participant("rivet").arrears == 0


def test_a_tie_is_one_agility_order_across_both_sides(pack: Pack) -> None:
    # Agility: Cutglass 26, Rivet 10 (Dexterity 14), Tinmarket Tough 10 (Dexterity 11): equal
    # Agility goes to the higher Dexterity, whichever side it is on
    g = fight(pack, ["cutglass", "tinmarket_tough"], [3, 3])
    assert g.fight is not None and g.fight.encounter.order == (
        "cutglass", "rivet", "tinmarket_tough")
    assert ("Initiative (d6 a side): Heroes 3 (your die) · Villains 3 (your die). A tie: 2"
            " panels each, in one Agility order.") in journal(g)
    assert all(panels(g, a).panels == 2 for a in ("cutglass", "rivet", "tinmarket_tough"))
