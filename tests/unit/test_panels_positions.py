"""Positions in panels fights (engine/systems/panels/positions.py, on the core bands of
engine/rules/fight/positions.py) through ``Game`` with entered or seeded dice: a move panel
crosses a band, half a band when stunned; a melee attack moves in from close (paying the move
panels) or is refused with its reason; a missile at a far foe is at -2; the referee moves in;
the tracker and the target menu show the bands; an older fight without positions plays on."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from engine.content.loader import Pack, load_pack
from engine.errors import IllegalAction
from engine.game import Game
from engine.rules.fight.positions import Positions
from engine.rules.fight.state import Fight, migrate_fight
from engine.rules.fight.values import DieNeed, PanelColumns, TrackerRow
from engine.tui.widgets.tracker import tracker_text

CONTENT = Path(__file__).resolve().parents[2] / "content" / "panels"
TOUGH = "tinmarket_tough"


@pytest.fixture(scope="module")
def pack() -> Pack:
    """The bundled panels pack (Halberd City)."""
    return load_pack(CONTENT)


def fight(pack: Pack, dice: list[int], stun: int | None = None, physical: bool = True,
          foes: tuple[str, ...] = (TOUGH,)) -> Game:
    """Rivet against ``foes`` (Stun at ``stun``: 5 of 50 is stunned); the sides' d6s."""
    g = Game.new(pack, name="t", hero_name="Rivet", archetype="rivet", seed=7,
                 dice_mode="physical" if physical else "seeded")
    if stun is not None:
        g.state.actors["rivet"].tracks.update(kill=40, stun=stun)
    g.start_fight(list(foes), dice=dice)
    if physical:
        g.set_fight_dice("physical")
    return g


def band(g: Game, a: str = "rivet", b: str = TOUGH) -> str:
    assert g.fight is not None
    return g.fight.positions.band(a, b)


def panels(g: Game, actor: str = "rivet") -> int:
    found = row(g, actor).columns
    assert isinstance(found, PanelColumns)
    return found.panels


def row(g: Game, actor: str) -> TrackerRow:
    return next(r for r in g.tracker() if r.actor == actor)


def said(g: Game) -> list[str]:
    return [e["text"] for e in g.store.events() if e["type"] == "FightActed"]


def rolled(g: Game) -> list[dict[str, Any]]:
    return [e for e in g.store.events() if e["type"] == "Rolled"]


# ------------------------------------------------------------------ moving


def test_a_move_panel_crosses_one_band(pack: Pack) -> None:
    g = fight(pack, [6, 1])  # heroes first, 5 panels
    assert band(g) == "close"
    g.fight_act("move", options={"way": TOUGH})
    assert band(g) == "engaged" and panels(g) == 4
    assert said(g)[-1] == "Rivet moves toward Tinmarket Tough: engaged."
    g.fight_act("move", options={"way": "away"})
    assert band(g) == "close" and panels(g) == 3


def test_a_stunned_heros_move_covers_half_a_band(pack: Pack) -> None:
    g = fight(pack, [6, 1], stun=5)
    [move] = [o for o in g.fight_options() if o.action == "move"]
    assert move.needs == "way" and move.choices[0].detail == "close, halfway (stunned)"
    g.fight_act("move", options={"way": TOUGH})
    assert band(g) == "close" and panels(g) == 4  # one panel spent, half a band crossed
    assert said(g)[-1] == ("Rivet moves halfway toward Tinmarket Tough (stunned: half speed):"
                           " still close, another move gets there.")
    assert g.fight is not None and g.fight.data["halfway"] == {"rivet": f"toward:{TOUGH}"}
    g.fight_act("move", options={"way": TOUGH})  # the second panel the same way: there
    assert band(g) == "engaged" and panels(g) == 3
    assert g.fight.data.get("halfway") is None


def test_a_stunned_hero_moving_another_way_starts_again(pack: Pack) -> None:
    g = fight(pack, [6, 1], stun=5)
    g.gm.place_fighters("ranged")
    g.fight_act("move", options={"way": TOUGH})
    g.fight_act("move", options={"way": "away"})  # halfway back: the half toward is lost
    g.fight_act("move", options={"way": TOUGH})
    assert band(g) == "ranged" and panels(g) == 2
    g.fight_act("move", options={"way": TOUGH})
    assert band(g) == "close" and panels(g) == 1


# ------------------------------------------------------------------ melee reach


def test_a_melee_attack_from_close_moves_in_first(pack: Pack) -> None:
    g = fight(pack, [6, 1])
    [fist] = [o for o in g.fight_options() if o.attack and o.attack.id == "riveted_fist"]
    assert fist.targets[0].band == "close" and fist.targets[0].why == ""
    g.fight_act("attack", target=TOUGH, attack="riveted_fist")
    assert isinstance(g.fight_need, DieNeed)
    g.fight_die(3)  # a miss
    assert band(g) == "engaged" and panels(g) == 3  # the move's panel and the attack's
    assert "Rivet closes in on Tinmarket Tough (1 panel): engaged." in said(g)


def test_a_melee_attack_from_close_without_the_panels_is_refused_with_its_reason(
        pack: Pack) -> None:
    g = fight(pack, [2, 1])  # 1 panel each
    [fist] = [o for o in g.fight_options() if o.attack and o.attack.id == "riveted_fist"]
    why = ("Tinmarket Tough is close, not engaged: moving in takes 1 panel and the attack 1"
           " more, 1 panel left (move in first)")
    assert fist.targets[0].why == why
    with pytest.raises(IllegalAction) as err:
        g.fight_act("attack", target=TOUGH, attack="riveted_fist")
    assert str(err.value) == f"Rivet cannot reach Tinmarket Tough: {why}"
    assert band(g) == "close" and panels(g) == 1  # nothing spent
    # a missile reaches: the girder flies
    g.fight_act("attack", target=TOUGH, attack="thrown_girder")
    assert isinstance(g.fight_need, DieNeed)


def test_a_stunned_hero_closing_in_pays_two_move_panels(pack: Pack) -> None:
    g = fight(pack, [4, 1], stun=5)  # 3 panels: two to close in at half speed, one to hit
    g.fight_act("attack", target=TOUGH, attack="riveted_fist")
    g.fight_die(3)  # a miss
    assert band(g) == "engaged" and panels(g) == 0
    assert ("Rivet closes in on Tinmarket Tough, stunned, at half speed (2 panels): engaged."
            in said(g))
    g2 = fight(pack, [3, 1], stun=5)  # 2 panels: not enough
    with pytest.raises(IllegalAction, match=re.escape(
            "moving in takes 2 panels (stunned: half speed) and the attack 1 more,"
            " 2 panels left")):
        g2.fight_act("attack", target=TOUGH, attack="riveted_fist")


def test_a_foe_farther_than_close_is_out_of_melee_reach(pack: Pack) -> None:
    g = fight(pack, [6, 1])
    g.gm.place_fighters("ranged")
    with pytest.raises(IllegalAction, match=re.escape(
            "Tinmarket Tough is ranged: out of reach of a melee attack (move in first)")):
        g.fight_act("attack", target=TOUGH, attack="riveted_fist")
    with pytest.raises(IllegalAction, match="out of reach"):
        g.fight_act("grab", target=TOUGH)


def test_a_missile_at_a_far_foe_is_at_minus_two(pack: Pack) -> None:
    g = fight(pack, [6, 1])
    g.gm.place_fighters("far")
    [girder] = [o for o in g.fight_options() if o.attack and o.attack.id == "thrown_girder"]
    g.gm.place_fighters("ranged")
    [near] = [o for o in g.fight_options() if o.attack and o.attack.id == "thrown_girder"]
    assert girder.targets[0].hit is not None and near.targets[0].hit is not None
    assert near.targets[0].hit - girder.targets[0].hit == pytest.approx(0.10)
    g.gm.place_fighters("far")
    g.fight_act("attack", target=TOUGH, attack="thrown_girder")
    g.fight_die(10)  # a miss
    last = rolled(g)[-1]
    assert last["modifiers"] == [["Dexterity 14", 2], ["far: long range", -2]]
    assert last["total"] == 10


# ------------------------------------------------------------------ the referee


def test_the_referee_moves_in_before_a_melee_attack(pack: Pack) -> None:
    g = fight(pack, [1, 6], physical=False)  # the villains first, 5 panels
    assert g.referee_turn
    g.referee_step()
    assert g.fight is not None and g.fight.pending is not None
    assert g.fight.pending.action == "attack"
    assert g.fight.pending.why.endswith("(closing in first: 1 panel)")
    while g.fighting and g.referee_turn and g.fight.pending is not None:
        g.referee_step()
        if g.fight_need is not None:
            break
    assert band(g) == "engaged"
    assert "Tinmarket Tough closes in on Rivet (1 panel): engaged." in said(g)


def test_the_referee_moves_toward_a_foe_out_of_reach(pack: Pack) -> None:
    g = fight(pack, [1, 6], physical=False)
    g.gm.place_fighters("far")
    g.referee_step()
    assert g.fight is not None and g.fight.pending is not None
    assert (g.fight.pending.action, g.fight.pending.target) == ("move", "rivet")
    assert "out of reach of its melee attacks" in g.fight.pending.why
    g.referee_step()
    assert band(g) == "ranged"
    assert "Tinmarket Tough moves toward Rivet: ranged." in said(g)


# ------------------------------------------------------------------ reading


def test_the_tracker_shows_each_foes_band_from_the_hero_acting(pack: Pack) -> None:
    g = fight(pack, [6, 1])
    assert row(g, TOUGH).band == "close" and row(g, "rivet").band == ""
    g.gm.place_fighters("far")
    assert row(g, TOUGH).band == "far"
    text = tracker_text(1, g.tracker(), width=40).plain
    assert "far" in text.splitlines()[-1] or any("far" in line for line in text.splitlines())


def test_an_older_fight_without_positions_plays_with_everyone_close(pack: Pack) -> None:
    g = fight(pack, [6, 1])
    assert g.fight is not None
    saved = g.fight.model_dump(mode="json")
    saved.pop("positions", None)
    old = Fight.model_validate(migrate_fight(saved))
    assert old.positions == Positions() and old.positions.band("rivet", TOUGH) == "close"
    g.state.fight = old
    g.fight_act("attack", target=TOUGH, attack="riveted_fist")
    g.fight_die(3)
    assert band(g) == "engaged" and panels(g) == 3


def test_a_prone_hero_cannot_move_in_to_attack(pack: Pack) -> None:
    g = fight(pack, [6, 1])
    g.fight_act("drop_prone")
    with pytest.raises(IllegalAction, match="Rivet is prone: stand up first"):
        g.fight_act("attack", target=TOUGH, attack="riveted_fist")
    assert band(g) == "close" and panels(g) == 5
