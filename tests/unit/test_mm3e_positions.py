"""Positions in M&M fights (engine/rules/fight/positions.py, engine/systems/mm3e/positions.py)
through ``Game`` with entered dice: the bands between combatants, changed by moving,
charging and escaping, read by close attacks (reach), ranged attacks (a far target is at
medium range), slams (full speed), the referee and areas."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from engine.content.loader import Pack, load_pack
from engine.errors import IllegalAction
from engine.game import Game
from engine.rules.fight.events import HoldSet
from engine.rules.fight.positions import Positions, away, in_area, pair, toward
from engine.rules.fight.state import Fight, migrate_fight
from engine.rules.fight.values import TrackerRow
from engine.systems.mm3e.positions import bands_per_move
from engine.tui.widgets.tracker import tracker_text
from tests.unit.test_mm3e_fight import act

ROOT = Path(__file__).resolve().parents[2]
NAMES = {"keystone": "Keystone", "lamplight": "Lamplight", "slipstream": "Slipstream"}


@pytest.fixture(scope="module")
def pack() -> Pack:
    """The bundled M&M pack."""
    return load_pack(ROOT / "content" / "mutants-and-masterminds")


def fight(pack: Pack, hero: str, foes: Sequence[str] = ("the_tallyman",),
          init: Sequence[int] = (20, 1), party: Sequence[str] = ()) -> Game:
    """``hero`` (and ``party``) against ``foes``, the hero first; every die entered."""
    g = Game.new(pack, name="positions", hero_name=NAMES[hero], archetype=hero, seed=1,
                 dice_mode="physical",
                 party=[{"name": NAMES[a], "archetype": a} for a in party])
    g.start_fight(list(foes), dice=list(init))
    g.set_fight_dice("physical")
    return g


def band(g: Game, a: str, b: str) -> str:
    """How far apart ``a`` and ``b`` are."""
    assert g.fight is not None
    return g.fight.positions.band(a, b)


def said(events: list[dict[str, Any]]) -> list[str]:
    """The fight's lines of story in ``events``."""
    return [e["text"] for e in events if e["type"] == "FightActed"]


def rolls(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The fight's rolls against a number."""
    return [e for e in events if e["type"] == "Rolled" and e.get("against") is not None]


def row(g: Game, actor: str) -> TrackerRow:
    return next(r for r in g.tracker() if r.actor == actor)


# ------------------------------------------------------------------ the bands


def test_a_fight_starts_close_and_the_tracker_shows_each_foes_band(pack: Pack) -> None:
    g = fight(pack, "keystone")
    assert band(g, "keystone", "the_tallyman") == "close"
    assert row(g, "the_tallyman").band == "close"  # from Keystone, who acts
    assert row(g, "keystone").band == ""
    assert g.fight is not None and g.fight.model_dump(mode="json").get("positions") is None


def test_moving_toward_and_away_changes_the_bands(pack: Pack) -> None:
    g = fight(pack, "keystone")  # ground speed 1: one band a move action
    g.gm.place_fighters("far")
    ev = act(g, "move", target="the_tallyman")
    assert band(g, "keystone", "the_tallyman") == "ranged"
    assert "Keystone moves toward The Tallyman: ranged." in said(ev)
    act(g, "move", options={"way": "the_tallyman"})  # as the menu names it
    assert band(g, "keystone", "the_tallyman") == "close"
    # two moves used the turn: the Tallyman acts; the tracker shows bands on a hero's turn
    assert g.fight is not None and g.fight.encounter.acting == "the_tallyman"
    assert row(g, "keystone").band == row(g, "the_tallyman").band == ""


def test_a_flier_crosses_the_whole_fight_in_one_move(pack: Pack) -> None:
    g = fight(pack, "lamplight")  # flight 8
    assert bands_per_move(8) == 3
    act(g, "move", options={"away": True})
    assert band(g, "lamplight", "the_tallyman") == "far"
    move = next(o for o in g.fight_options() if o.action == "move")
    assert move.needs == "way"
    toward_him = next(c for c in move.choices if c.id == "the_tallyman")
    assert toward_him.detail == "far -> engaged"


def test_a_close_attack_on_a_close_foe_moves_in_with_the_move_action(pack: Pack) -> None:
    g = fight(pack, "keystone")
    ev = act(g, "attack", [5], target="the_tallyman", attack="granite_fist")  # a miss
    assert said(ev)[0] == "Keystone closes in on The Tallyman (a move action): engaged."
    assert band(g, "keystone", "the_tallyman") == "engaged"
    # the standard and the move are spent: the turn is over
    assert g.fight is not None and g.fight.encounter.acting == "the_tallyman"


def test_a_close_attack_out_of_reach_is_refused_and_a_charge_offered(pack: Pack) -> None:
    g = fight(pack, "keystone")
    act(g, "move", options={"way": "stay"})  # the move spent, nowhere in particular
    assert band(g, "keystone", "the_tallyman") == "close"
    fist = next(o for o in g.fight_options() if o.action == "attack"
                and o.attack is not None and o.attack.id == "granite_fist")
    assert fist.targets[0].why.endswith("charge instead")
    with pytest.raises(IllegalAction, match=r"close, not engaged.*charge instead"):
        g.fight_act("attack", target="the_tallyman", attack="granite_fist")
    charge = next(o for o in g.fight_options() if o.action == "charge")
    assert charge.targets[0].why == "" and charge.targets[0].band == "close"
    ev = act(g, "charge", [19, 15], target="the_tallyman", attack="granite_fist")
    r = rolls(ev)
    assert ["charge", -2] in r[0]["modifiers"]
    assert band(g, "keystone", "the_tallyman") == "engaged"


def test_a_foe_across_the_scene_is_out_of_reach(pack: Pack) -> None:
    g = fight(pack, "keystone")
    g.gm.place_fighters("ranged")
    with pytest.raises(IllegalAction, match="The Tallyman is ranged: out of reach"):
        g.fight_act("attack", target="the_tallyman", attack="granite_fist")
    g.gm.place_fighters("engaged")
    with pytest.raises(IllegalAction, match="already engaged with The Tallyman: a charge"
                       " needs a run-up"):
        g.fight_act("charge", target="the_tallyman", attack="granite_fist")


def test_a_charge_from_farther_takes_the_move_action_too(pack: Pack) -> None:
    g = fight(pack, "keystone")  # one band a move; two with the move action (2x speed)
    g.gm.place_fighters("ranged")
    ev = act(g, "charge", [3], target="the_tallyman", attack="granite_fist")
    assert "Keystone charges The Tallyman with its move action too, crossing 2 bands." \
        in said(ev)
    g2 = fight(pack, "keystone")
    g2.gm.place_fighters("far")
    with pytest.raises(IllegalAction, match="far: too far for a charge"):
        g2.fight_act("charge", target="the_tallyman", attack="granite_fist")


# ------------------------------------------------------------------ range


def test_a_ranged_attack_at_a_far_foe_is_at_medium_range(pack: Pack) -> None:
    g = fight(pack, "lamplight")
    near = g.fight_odds("light_lance", "the_tallyman")
    g.gm.place_fighters("far")
    far = g.fight_odds("light_lance", "the_tallyman")
    assert far.band == "far" and near.hit is not None and far.hit is not None
    assert round(near.hit - far.hit, 2) == 0.10  # -2: two faces of the d20
    ev = act(g, "attack", [10], target="the_tallyman", attack="light_lance")
    assert ["far: medium range", -2] in rolls(ev)[0]["modifiers"]


def test_a_distance_in_feet_replaces_the_band(pack: Pack) -> None:
    g = fight(pack, "lamplight")
    g.gm.place_fighters("far")
    ev = act(g, "attack", [1], target="the_tallyman", attack="light_lance",
             options={"distance": 100})  # rank 10: short range to 250 ft
    assert all(m[0] != "far: medium range" for m in rolls(ev)[0]["modifiers"])


# ------------------------------------------------------------------ slam


def slam_dc(g: Game, faces: Sequence[int]) -> tuple[int, list[str]]:
    """Slipstream slams the Tallyman: the DC he resists, and the lines said."""
    ev = act(g, "charge", faces, target="the_tallyman", attack="hundred_jabs",
             options={"slam": True})
    resist = next(r for r in rolls(ev) if r["what"].startswith("resists Hundred Jabs"))
    return int(resist["against"]), said(ev)


def test_a_slam_is_at_full_speed_when_the_charge_crosses_a_whole_move(pack: Pack) -> None:
    # Slipstream: ground speed 12, three bands a move; a slam's base is max(speed 12 capped
    # at PL 10, damage 8 + 1) = 10, +1 at full speed
    g = fight(pack, "slipstream")
    dc, lines = slam_dc(g, [15, 20, 20])
    assert dc == 15 + 10
    assert any(line.endswith("crossing 1 band, short of full speed.") for line in lines)
    g = fight(pack, "slipstream")
    g.gm.place_fighters("far")
    dc, lines = slam_dc(g, [15, 20, 20])
    assert dc == 15 + 11
    assert any(line.endswith("crossing 3 bands, at full speed (slam +1 rank).")
               for line in lines)


# ------------------------------------------------------------------ escape


def held(g: Game, who: str, by: str) -> None:
    """``who`` in ``by``'s grip, the two engaged (a test set-up)."""
    g.gm.place_fighters("engaged", who, by)
    with g._action("test set-up"):
        g._emit(HoldSet(target=who, hold={"by": by, "strength": 2, "degrees": 1}))


def test_escape_moves_the_escaper_away_from_the_grabber(pack: Pack) -> None:
    g = fight(pack, "keystone")
    held(g, "keystone", "the_tallyman")
    ev = act(g, "escape", [15])  # Athletics vs 10 + Strength 2
    assert g.fight is not None and "keystone" not in g.fight.holds
    assert band(g, "keystone", "the_tallyman") == "close"
    assert "Keystone breaks away from The Tallyman: close." in said(ev)


def test_escape_may_stay_put(pack: Pack) -> None:
    g = fight(pack, "keystone")
    held(g, "keystone", "the_tallyman")
    act(g, "escape", [15], options={"stay": True})
    assert band(g, "keystone", "the_tallyman") == "engaged"


# ------------------------------------------------------------------ the referee


BRAWLER = {"strength": 4, "stamina": 2, "agility": 2, "dexterity": 2, "fighting": 6,
           "intellect": 2, "awareness": 2, "presence": 2}
"""A hero of abilities alone: an unarmed close attack, ground speed rank 0."""


def brawler(pack: Pack, where: str) -> tuple[Game, str]:
    """The Brawler, played by the referee, ``where`` from the Tallyman, on its turn."""
    g = Game.new(pack, name="positions", hero_name="Brawler", stats=BRAWLER,
                 dice_mode="physical")
    hero = g.state.party[0]
    g.start_fight(["the_tallyman"], dice=[20, 1])
    g.take_over(hero, player=False)
    g.gm.place_fighters(where)
    g.referee_step()
    assert g.fight is not None and g.fight.pending is not None
    return g, hero


def test_the_referee_closes_in_before_a_close_attack(pack: Pack) -> None:
    g, _ = brawler(pack, "close")
    assert g.fight is not None and g.fight.pending is not None
    assert g.fight.pending.action == "attack"
    assert g.fight.pending.why.endswith("(closing in first, a move action)")


def test_the_referee_charges_a_foe_out_of_reach(pack: Pack) -> None:
    g, _ = brawler(pack, "ranged")  # a charge with the move action reaches two bands
    assert g.fight is not None and g.fight.pending is not None
    assert g.fight.pending.action == "charge"
    assert "charges The Tallyman with" in g.fight.pending.why
    assert g.fight.pending.why.endswith("(ranged: -2 to hit)")


def test_the_referee_moves_toward_a_foe_it_cannot_reach(pack: Pack) -> None:
    g, hero = brawler(pack, "far")
    assert g.fight is not None and g.fight.pending is not None
    assert (g.fight.pending.action, g.fight.pending.target) == ("move", "the_tallyman")
    assert "moves toward The Tallyman (far -> ranged)" in g.fight.pending.why
    g.referee_step()
    assert band(g, hero, "the_tallyman") == "ranged"


# ------------------------------------------------------------------ areas and saves


def test_in_area_covers_those_engaged_with_or_close_to_the_centre(pack: Pack) -> None:
    g = fight(pack, "keystone", foes=("the_tallyman", "dockside_crew"), init=(20, 19, 1, 1),
              party=["lamplight"])
    g.gm.place_fighters("far", "lamplight")
    assert g.fight is not None
    covered = in_area(g.fight, "the_tallyman")
    assert "lamplight" not in covered
    assert {"the_tallyman", "keystone", "dockside_crew_1"} <= set(covered)
    assert set(in_area(g.fight, "lamplight")) == {"lamplight", "keystone"}  # her ally


def test_an_older_fight_without_positions_loads_with_everyone_close(pack: Pack) -> None:
    g = fight(pack, "keystone")
    assert g.fight is not None
    saved = g.fight.model_dump(mode="json")
    saved.pop("positions", None)
    old = Fight.model_validate(migrate_fight(saved))
    assert old.positions == Positions() and old.positions.band("keystone", "x") == "close"


def test_bands_stay_consistent_when_moving() -> None:
    pos = Positions()
    everyone = ["h1", "h2", "f1", "f2"]
    moved = pos.changed(toward(pos, "h1", "f1", 1, everyone))
    assert moved.band("h1", "f1") == "engaged" and moved.band("h1", "f2") == "close"
    back = moved.changed(away(moved, "h1", ["f1", "f2"], 1, everyone))
    assert (back.band("h1", "f1"), back.band("h1", "f2")) == ("close", "ranged")
    assert back.band("h1", "h2") == "close"  # still beside its ally
    assert pair("b", "a") == pair("a", "b") == "a|b"


def test_the_tracker_draws_the_band_column() -> None:
    rows = [TrackerRow(actor="keystone", name="Keystone", side="heroes", initiative=13,
                       acting=True, control="player"),
            TrackerRow(actor="the_tallyman", name="The Tallyman", side="villains",
                       initiative=3, acting=False, control="referee", band="engaged")]
    lines = tracker_text(1, rows, width=30).plain.splitlines()
    assert lines[1].split() == ["▶13", "Keystone", "you"]
    assert lines[2].split() == ["3", "The", "Tallyman", "engaged"]  # in place of "ref"
    narrow = tracker_text(1, rows, width=28).plain.splitlines()
    assert narrow[2].split() == ["3", "The", "Tallyman", "eng"]


def test_options_are_worked_out_once_per_state_and_anew_after_any_event(pack: Pack) -> None:
    """The menu, the move prompt and its suggestions ask for the options of one state: worked
    out once; any event (here a defend, the standard action) gives a new state and new
    options; an undone action gives the options of the state it goes back to."""
    g = fight(pack, "keystone")
    first = g.fight_options()
    again = g.fight_options()
    assert again == first and all(a is b for a, b in zip(again, first, strict=True))
    g.fight_act("defend")
    after = g.fight_options()
    assert next(o for o in after if o.action == "aim").allowed is False  # the standard is spent
    assert next(o for o in first if o.action == "aim").allowed is True
    g.undo()
    assert next(o for o in g.fight_options() if o.action == "aim").allowed is True
