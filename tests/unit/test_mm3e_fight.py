"""M&M 3e fights through ``Game``: the numbers of RULES.md D the fight engine applies, with
entered dice (physical mode, the referee's dice physical too) so each roll is the one the test
names; and seeded property runs (hypothesis) for what must hold in any fight."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.content.loader import Pack, load_pack
from engine.errors import IllegalAction
from engine.game import Game
from engine.rules import encounter as en
from engine.rules.fight.events import FightUpdated
from engine.rules.fight.step import require_fight
from engine.rules.fight.values import DieNeed, InitiativeColumns, TrackerRow
from engine.systems.mm3e.conditions import Condition
from engine.systems.mm3e.registry import CombatantChanged

ROOT = Path(__file__).resolve().parents[2]
NAMES = {"keystone": "Keystone", "lamplight": "Lamplight", "slipstream": "Slipstream"}
KNOWN_CONDITIONS = frozenset(c.value for c in Condition)


# ------------------------------------------------------------------ rig


@pytest.fixture(scope="module")
def pack() -> Pack:
    """The bundled M&M pack."""
    return load_pack(ROOT / "content" / "mutants-and-masterminds")


def new_game(pack: Pack, heroes: Sequence[str] = ("keystone",), *, seed: int = 1,
             dice_mode: str = "physical") -> Game:
    """A campaign with the ready-made ``heroes`` (the first leads)."""
    party = [{"name": NAMES[a], "archetype": a} for a in heroes[1:]]
    return Game.new(pack, name="fight test", hero_name=NAMES[heroes[0]], archetype=heroes[0],
                    seed=seed, dice_mode=dice_mode, party=party)


def fight(pack: Pack, heroes: Sequence[str], foes: Sequence[str], init: Sequence[int],
          surprised: Sequence[str] = ()) -> Game:
    """A fight with initiative from ``init`` (entry order: heroes, then foes, one die per
    minion group) where every later die is entered by hand; everyone starts engaged with
    every foe (a fight starts close: test_mm3e_positions.py)."""
    g = new_game(pack, heroes)
    g.start_fight(list(foes), surprised=list(surprised), dice=list(init))
    g.set_fight_dice("physical")
    g.gm.place_fighters("engaged")  # within reach: these tests are about the rules of a blow
    return g


def enter(g: Game, faces: Iterable[int]) -> list[dict[str, Any]]:
    """Enter each face as the die awaited; the events of the step that finished."""
    out: list[dict[str, Any]] = []
    for f in faces:
        assert g.fight_need is not None, f"no die is awaited for {f}"
        out = g.fight_die(f)
    assert g.fight_need is None, f"still waiting: {g.fight_need}"
    return out


def act(g: Game, action: str, faces: Sequence[int] = (), **kw: Any) -> list[dict[str, Any]]:
    """The acting character takes ``action`` with the dice ``faces``; the step's events."""
    out = g.fight_act(action, **kw)
    return enter(g, faces) if faces else out


def ref(g: Game, faces: Sequence[int] = ()) -> list[dict[str, Any]]:
    """The referee chooses, then resolves with ``faces``; the resolving step's events."""
    g.referee_step()
    assert g.fight is not None and g.fight.pending is not None
    g.referee_step()
    return enter(g, faces)


def rolls(events: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """The fight's rolls (``Rolled`` events against a number)."""
    return [e for e in events if e["type"] == "Rolled" and e.get("against") is not None]


def put(g: Game, actor: str, conditions: Sequence[str] = (), damage: int = 0) -> None:
    """Set a character's lasting conditions and damage penalty (a test set-up action)."""
    with g._action("test set-up"):
        g._emit(CombatantChanged(actor=actor, conditions=list(conditions), damage=damage))


def effect(g: Game, target: str, what: str, data: dict[str, int | str],
           duration: en.DurationKind = "end_of_next_turn") -> None:
    """Add an encounter effect on ``target`` (a test set-up action)."""
    fight_ = require_fight(g.state)
    enc, _ = en.add_effect(fight_.encounter, source=target, target=target, what=what,
                           duration=duration, data=data)
    with g._action("test set-up"):
        g._emit(FightUpdated(fight=fight_.model_copy(update={"encounter": enc}).model_dump(
            mode="json")))


def row(g: Game, actor: str) -> TrackerRow:
    """The tracker row of ``actor``."""
    return next(r for r in g.tracker() if r.actor == actor)


def damage(r: TrackerRow) -> int:
    """The damage penalty of a row (M&M's columns)."""
    assert isinstance(r.columns, InitiativeColumns)
    return r.columns.damage


def conds(g: Game, actor: str) -> list[str]:
    """The conditions the tracker shows for ``actor``."""
    return list(row(g, actor).conditions)


def pass_turn(g: Game) -> None:
    """End the acting character's turn (taking it over first if the referee plays it)."""
    acting = g.fight.encounter.acting if g.fight else None
    assert acting is not None
    if g.referee_turn:
        g.take_over(acting)
    g.end_turn()


def keystone_vs_tallyman(pack: Pack, heroes: Sequence[str] = ("keystone",)) -> Game:
    """The first hero acts first against the Tallyman."""
    return fight(pack, heroes, ["the_tallyman"], [19] + [2] * (len(heroes) - 1) + [1])


# ------------------------------------------------------------------ attack checks


@pytest.mark.parametrize(("face", "result"), [(9, "miss"), (10, "hit"), (1, "miss")])
def test_close_attack_against_ten_plus_parry(pack: Pack, face: int, result: str) -> None:
    g = keystone_vs_tallyman(pack)
    faces = [face] + ([19] if result == "hit" else [])
    ev = act(g, "attack", faces, target="the_tallyman", attack="granite_fist")
    r = rolls(ev)
    # Granite Fist +8 against 10 + Parry 8
    assert (r[0]["total"], r[0]["against"], r[0]["band_name"]) == (face + 8, 18, result)
    assert "Parry 8" in r[0]["against_name"]
    if result == "hit":  # resisted: Toughness 8 against 15 + rank 12
        assert (r[1]["against"], r[1]["total"], r[1]["degree"]) == (27, 27, 1)
    else:
        assert len(r) == 1


@pytest.mark.parametrize(("face", "result"), [(9, "miss"), (10, "hit")])
def test_ranged_attack_against_ten_plus_dodge(pack: Pack, face: int, result: str) -> None:
    g = fight(pack, ["lamplight"], ["the_tallyman"], [19, 1])
    faces = [face] + ([20] if result == "hit" else [])
    r = rolls(act(g, "attack", faces, target="the_tallyman", attack="light_lance"))
    # Light Lance +10 against 10 + Dodge 10
    assert (r[0]["against"], r[0]["band_name"]) == (20, result)
    assert "Dodge 10" in r[0]["against_name"]


def test_natural_20_is_a_critical_with_plus_5_on_the_resistance_dc(pack: Pack) -> None:
    g = keystone_vs_tallyman(pack)
    r = rolls(act(g, "attack", [20, 19], target="the_tallyman", attack="granite_fist"))
    assert r[0]["band_name"] == "critical"
    assert r[1]["against"] == 27 + 5
    assert "critical" in r[1]["what"]


def test_natural_1_misses_even_when_the_total_would_hit(pack: Pack) -> None:
    g = fight(pack, ["slipstream"], ["dockside_crew"], [19, 1])
    # Hundred Jabs +12 against 10 + Parry 3: a 1 totals 13, enough, and still misses
    r = rolls(act(g, "attack", [1], target="dockside_crew_1", attack="hundred_jabs"))
    assert (r[0]["total"], r[0]["against"], r[0]["band_name"]) == (13, 13, "miss")
    assert len(r) == 1
    assert row(g, "dockside_crew_1").out == ""


def test_natural_20_that_misses_the_defense_hits_but_is_no_critical(pack: Pack) -> None:
    g = fight(pack, ["keystone"], ["the_tallyman"], [1, 19])
    g.take_over("the_tallyman")
    act(g, "defend")
    g.end_turn()
    put(g, "keystone", ["disabled"])  # -5: 20 + 8 - 5 = 23
    r = rolls(act(g, "attack", [20, 20, 19], target="the_tallyman", attack="granite_fist"))
    # the defend roll: d20 20 + Parry 8 = 28
    assert (r[0]["total"], r[0]["against"], r[0]["band_name"]) == (23, 28, "hit")
    assert r[1]["against"] == 27  # no +5


@pytest.mark.parametrize(("face", "defend_face", "dc", "result"),
                         [(12, 3, 21, "miss"), (13, 3, 21, "hit"), (10, 11, 19, "miss"),
                          (11, 11, 19, "hit")])
def test_defend_is_an_opposed_roll_and_10_or_less_counts_plus_10(
        pack: Pack, face: int, defend_face: int, dc: int, result: str) -> None:
    g = fight(pack, ["keystone"], ["the_tallyman"], [1, 19])
    g.take_over("the_tallyman")
    act(g, "defend")
    g.end_turn()
    faces = [face, defend_face] + ([19] if result == "hit" else [])
    r = rolls(act(g, "attack", faces, target="the_tallyman", attack="granite_fist"))
    assert (r[0]["against"], r[0]["band_name"]) == (dc, result)


def test_a_minion_attacking_a_non_minion_cannot_crit(pack: Pack) -> None:
    g = fight(pack, ["keystone"], ["dockside_crew"], [1, 19])
    g.take_over("dockside_crew_1")
    # Brass Knuckles +2 against 10 + Parry 8: a natural 20 hits, but no critical
    r = rolls(act(g, "attack", [20, 10], target="keystone", attack="brass_knuckles"))
    assert r[0]["band_name"] == "hit"
    assert r[1]["against"] == 15 + 2
    opts = [o for o in g.fight_options("keystone") if o.action == "attack"]
    assert opts  # Keystone on a minion may crit: the odds say so
    fist = next(o for o in opts if o.attack and o.attack.id == "granite_fist")
    assert all((t.critical or 0) > 0 for t in fist.targets)


def test_routine_attack_on_a_minion_rolls_no_die(pack: Pack) -> None:
    g = fight(pack, ["keystone"], ["dockside_crew"], [19, 1])
    ev = act(g, "attack", [10], target="dockside_crew_1", attack="granite_fist",
             options={"routine": True})
    r = rolls(ev)
    assert (r[0]["dice"], r[0]["faces"], r[0]["total"], r[0]["against"],
            r[0]["band_name"]) == ("routine", [10], 18, 13, "hit")
    assert r[1]["what"].startswith("resists")  # the one die entered: the minion's Toughness


def test_routine_attack_refused_on_a_non_minion_who_can_defend(pack: Pack) -> None:
    g = keystone_vs_tallyman(pack)
    before = g.state.model_dump(mode="json")
    with pytest.raises(IllegalAction, match="routine attack needs a defenseless target"):
        g.fight_act("attack", target="the_tallyman", attack="granite_fist",
                    options={"routine": True})
    assert g.state.model_dump(mode="json") == before


def test_perception_attack_has_no_attack_roll(pack: Pack) -> None:
    g = fight(pack, ["keystone"], ["the_tallyman"], [1, 19])
    g.take_over("the_tallyman")
    r = rolls(act(g, "attack", [12], target="keystone", attack="call_in_the_debt"))
    # only Keystone's Will 8 against 10 + rank 10
    assert len(r) == 1
    assert (r[0]["actor"], r[0]["against"], r[0]["total"]) == ("keystone", 20, 20)


@pytest.mark.parametrize(("dodge_face", "resist_dc"), [(10, 20), (9, 25)])
def test_area_attack_dodge_against_10_plus_rank_halves_the_rank(
        pack: Pack, dodge_face: int, resist_dc: int) -> None:
    g = keystone_vs_tallyman(pack)
    r = rolls(act(g, "attack", [dodge_face, 19], target="the_tallyman",
                  attack="faultline_stomp"))
    # Tallyman's Dodge 10 against 10 + rank 10; a success: rank 5, DC 15 + 5
    assert (r[0]["what"], r[0]["against"]) == ("dodges Faultline Stomp", 20)
    assert r[1]["against"] == resist_dc


def test_an_area_attack_with_no_target_reaches_every_foe(pack: Pack) -> None:
    g = fight(pack, ["keystone"], ["the_tallyman", "hornet_drones"], [19, 1, 1])
    # each of the six: Dodge against 10 + 10, then Toughness against 15 + 10 (or + 5)
    faces = [1, 19] * 6
    r = rolls(act(g, "attack", faces, attack="faultline_stomp"))
    dodged = [x for x in r if x["what"] == "dodges Faultline Stomp"]
    assert sorted(x["actor"] for x in dodged) == sorted(
        ["the_tallyman", *(f"hornet_drones_{i}" for i in range(1, 6))])
    assert all(x["against"] == 20 for x in dodged)
    assert all(x["faces"][0] != 20 for x in r)  # no attack roll among them
    assert [x["against"] for x in r if x["what"] == "resists Faultline Stomp"] == [25] * 6
    with pytest.raises(IllegalAction):
        g.fight_act("attack", attack="faultline_stomp", maneuvers={"accurate": 1})


# ------------------------------------------------------------------ defenses


@pytest.mark.parametrize(("cond", "dc"), [("vulnerable", 12), ("defenseless", 10)])
def test_vulnerable_halves_rounding_up_and_defenseless_is_zero(
        pack: Pack, cond: str, dc: int) -> None:
    g = fight(pack, ["keystone"], ["dockside_crew"], [19, 1])
    put(g, "dockside_crew_1", [cond])
    r = rolls(act(g, "attack", [dc - 8, 1], target="dockside_crew_1",
                  attack="granite_fist"))
    # Parry 3: vulnerable 2 (3 / 2 rounded up), defenseless 0
    assert (r[0]["against"], r[0]["band_name"]) == (dc, "hit")


@pytest.mark.parametrize(("attack", "heroes", "part", "dc"),
                         [("granite_fist", ("keystone",), 5, 18),
                          ("light_lance", ("lamplight",), -5, 20)])
def test_prone_target_plus_5_close_minus_5_ranged(
        pack: Pack, attack: str, heroes: tuple[str, ...], part: int, dc: int) -> None:
    g = fight(pack, heroes, ["the_tallyman"], [19, 1])
    put(g, "the_tallyman", ["prone"])
    r = rolls(act(g, "attack", [2], target="the_tallyman", attack=attack))
    assert ["target prone", part] in r[0]["modifiers"]
    assert r[0]["against"] == dc
    assert r[0]["total"] == 2 + sum(v for _, v in r[0]["modifiers"])


# ------------------------------------------------------------------ the damage ladder


@pytest.mark.parametrize(("resist", "lasting", "timed", "damage"), [
    (19, [], [], 0),                       # 27 vs 27: success
    (18, [], [], 1),                       # 1 degree: -1
    (13, [], ["dazed"], 1),                # 2 degrees: dazed, -1
    (8, ["staggered"], [], 1),             # 3 degrees: staggered, -1
    (3, ["incapacitated"], [], 0),         # 4 degrees: incapacitated
])
def test_damage_ladder(pack: Pack, resist: int, lasting: list[str], timed: list[str],
                       damage: int) -> None:
    g = fight(pack, ["keystone"], ["the_tallyman", "madame_undertow"], [19, 1, 1])
    act(g, "attack", [10, resist], target="the_tallyman", attack="granite_fist")
    actor = g.state.actors["the_tallyman"]
    assert [c for c in actor.conditions if c in KNOWN_CONDITIONS] == lasting
    assert actor.tracks.get("damage", 0) == damage
    shown = conds(g, "the_tallyman")
    for c in lasting + timed:
        assert c in shown


def test_damage_penalty_is_cumulative_on_later_toughness_checks(pack: Pack) -> None:
    g = fight(pack, ["keystone"], ["the_tallyman", "madame_undertow"], [19, 1, 1])
    put(g, "the_tallyman", [], damage=2)
    r = rolls(act(g, "attack", [10, 19], target="the_tallyman", attack="granite_fist"))
    assert ["damage penalty", -2] in r[1]["modifiers"]
    assert (r[1]["total"], r[1]["degree"]) == (25, -1)
    assert g.state.actors["the_tallyman"].tracks["damage"] == 3


def test_dazed_by_damage_lasts_until_the_end_of_the_targets_next_turn(pack: Pack) -> None:
    g = fight(pack, ["keystone"], ["the_tallyman"], [19, 1])
    act(g, "attack", [10, 13], target="the_tallyman", attack="granite_fist")
    g.end_turn()
    assert g.fight is not None and g.fight.encounter.acting == "the_tallyman"
    assert "dazed" in conds(g, "the_tallyman")
    assert g.fight.encounter.budget.get("move", 0) == 0  # dazed: a standard only
    pass_turn(g)
    assert "dazed" not in conds(g, "the_tallyman")


def test_staggered_again_escalates_to_incapacitated(pack: Pack) -> None:
    g = fight(pack, ["keystone"], ["the_tallyman", "madame_undertow"], [19, 1, 1])
    put(g, "the_tallyman", ["staggered"], damage=1)
    act(g, "attack", [10, 9], target="the_tallyman", attack="granite_fist")  # 16: 3 degrees
    assert "incapacitated" in g.state.actors["the_tallyman"].conditions
    assert row(g, "the_tallyman").out == "down"


@pytest.mark.parametrize("resist", [18, 3])
def test_a_minion_takes_the_worst_degree(pack: Pack, resist: int) -> None:
    g = fight(pack, ["keystone"], ["dockside_crew"], [19, 1])
    # Toughness 3 against 15 + 12: any failure takes the minion out
    act(g, "attack", [10, resist], target="dockside_crew_1", attack="granite_fist")
    assert "incapacitated" in g.state.actors["dockside_crew_1"].conditions
    assert g.state.actors["dockside_crew_1"].tracks.get("damage", 0) == 0
    assert row(g, "dockside_crew_1").out == "down"


# ------------------------------------------------------------------ afflictions


def tallyman_afflicts_keystone(pack: Pack, face: int) -> Game:
    """The Tallyman (played by hand) uses Call in the Debt on Keystone, then ends his turn."""
    g = fight(pack, ["keystone"], ["the_tallyman"], [1, 19])
    g.take_over("the_tallyman")
    act(g, "attack", [face], target="keystone", attack="call_in_the_debt")
    if g.fighting:
        g.end_turn()
    return g


@pytest.mark.parametrize(("face", "imposed"), [(12, None), (11, "dazed"), (6, "compelled"),
                                               (1, "incapacitated")])
def test_affliction_degrees_of_failure(pack: Pack, face: int, imposed: str | None) -> None:
    g = tallyman_afflicts_keystone(pack, face)
    # Will 8 against 10 + rank 10: 19 fails by 1, 14 by 6, 9 by 11
    lasting = imposed == "incapacitated"
    assert ("incapacitated" in g.state.actors["keystone"].conditions) is lasting
    if lasting:  # Keystone was the only hero
        assert not g.fighting
        return
    shown = conds(g, "keystone")
    assert shown == ([imposed] if imposed else [])


@pytest.mark.parametrize(("face", "shaken_off"), [(12, True), (11, False)])
def test_affliction_resisted_again_at_the_end_of_each_turn(
        pack: Pack, face: int, shaken_off: bool) -> None:
    g = tallyman_afflicts_keystone(pack, 11)
    assert g.fight is not None and g.fight.encounter.acting == "keystone"
    assert g.fight.encounter.budget == {"standard": 1, "move": 0}  # dazed
    g.end_turn()  # the check at the end of the turn awaits Keystone's die
    need = g.fight_need
    assert isinstance(need, DieNeed) and need.what == "shakes off dazed"
    r = rolls(enter(g, [face]))
    assert (r[0]["against"], r[0]["total"]) == (20, face + 8)
    assert ("dazed" in conds(g, "keystone")) is not shaken_off
    assert g.fight is not None and g.fight.encounter.acting == "the_tallyman"


def test_referee_end_of_turn_check_awaits_a_physical_die(pack: Pack) -> None:
    g = fight(pack, ["keystone"], ["the_tallyman", "madame_undertow"], [19, 5, 1])
    # an affliction for the Tallyman to shake off at the end of his turn
    effect(g, "the_tallyman", "impaired", {"kind": "condition", "dc": 20, "resist": "will",
                                         "attack": "test", "degree": 1},
           duration="recovery")
    fight_ = require_fight(g.state)
    enc = fight_.encounter
    last = enc.effects[-1].model_copy(update={"ongoing": True})
    with g._action("test set-up"):
        g._emit(FightUpdated(fight=fight_.model_copy(update={"encounter": enc.model_copy(
            update={"effects": (*enc.effects[:-1], last)})}).model_dump(mode="json")))
    g.end_turn()
    assert g.fight is not None and g.fight.encounter.acting == "the_tallyman"
    # the referee attacks (Keystone's die entered), then chooses to end the turn: the check
    # at its end awaits the Tallyman's Will die
    for _ in range(8):
        need = g.fight_need
        if isinstance(need, DieNeed) and need.what == "shakes off impaired":
            break
        if need is not None:
            g.fight_die(10)
        else:
            g.referee_step()
    assert isinstance(g.fight_need, DieNeed) and g.fight_need.what == "shakes off impaired"
    assert g.fight is not None and g.fight.pending is not None
    assert g.fight.pending.action == "end_turn"
    ev = g.fight_die(6)  # Will 14 + 6 = 20: shaken off
    shake = [r for r in rolls(ev) if r["what"] == "shakes off impaired"]
    assert [(r["entered"], r["total"], r["against"]) for r in shake] == [(True, 20, 20)]
    assert "impaired" not in conds(g, "the_tallyman")
    assert any(e["type"] == "FightActed" and e["action"] == "end_turn" and e["by"] == "referee"
               for e in ev)  # the referee chose to end the turn, and says so
    assert g.fight is not None and g.fight.encounter.acting == "madame_undertow"


def test_a_turn_that_ends_by_itself_uses_the_die_entered_for_its_end(pack: Pack) -> None:
    g = tallyman_afflicts_keystone(pack, 11)  # Keystone dazed: a standard action only
    g.fight_act("attack", target="the_tallyman", attack="granite_fist")
    assert isinstance(g.fight_need, DieNeed) and g.fight_need.what.startswith("attack")
    g.fight_die(9)  # a miss; the turn has nothing left and ends: the dazed check awaits
    need = g.fight_need
    assert isinstance(need, DieNeed) and need.what == "shakes off dazed"
    r = rolls(g.fight_die(12))
    assert [x["what"] for x in r] == ["attack on The Tallyman with Granite Fist",
                                      "shakes off dazed"]
    assert g.fight_need is None
    assert "dazed" not in conds(g, "keystone")
    assert g.fight is not None and g.fight.encounter.acting == "the_tallyman"


# ------------------------------------------------------------------ initiative and surprise


def initiative(events: Iterable[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """The initiative rolls by actor."""
    ev = next(e for e in events if e["type"] == "InitiativeRolled")
    return {r["actor"]: r for r in ev["rolls"]}


def test_initiative_is_d20_plus_bonus_highest_first(pack: Pack) -> None:
    g = new_game(pack, ["keystone", "lamplight"])
    ev = g.start_fight(["the_tallyman"], dice=[12, 3, 15])
    r = initiative(ev)
    # Keystone +1 (Agility), Lamplight +6 (Agility 2 and Improved Initiative), Tallyman +1
    assert {a: x["total"] for a, x in r.items()} == {"keystone": 13, "lamplight": 9,
                                                    "the_tallyman": 16}
    assert g.fight is not None
    assert g.fight.encounter.order == ("the_tallyman", "keystone", "lamplight")
    assert [x.initiative for x in g.tracker()] == [16, 13, 9]


def test_initiative_ties_go_to_the_higher_dodge(pack: Pack) -> None:
    g = new_game(pack)
    g.start_fight(["the_tallyman"], dice=[10, 10])  # 11 and 11; Dodge 10 beats 6
    assert g.fight is not None and g.fight.encounter.order == ("the_tallyman", "keystone")


def test_initiative_ties_with_equal_dodge_go_to_the_higher_agility(pack: Pack) -> None:
    g = new_game(pack, ["lamplight"])
    g.start_fight(["madame_undertow"], dice=[5, 8])  # 11 and 11; Dodge 10 both; Agility 3 > 2
    assert g.fight is not None
    assert g.fight.encounter.order == ("madame_undertow", "lamplight")


def test_full_ties_are_rolled_off(pack: Pack) -> None:
    g = Game.new(pack, name="fight test", hero_name="Keystone", archetype="keystone",
                 dice_mode="physical", party=[{"name": "Granite", "archetype": "keystone"}])
    ev = g.start_fight(["the_tallyman"], dice=[10, 10, 1, 3, 17])
    r = initiative(ev)
    assert (r["keystone"]["rolloff"], r["granite"]["rolloff"]) == (3, 17)
    assert "rolloff" not in r["the_tallyman"]
    assert g.fight is not None
    assert g.fight.encounter.order == ("granite", "keystone", "the_tallyman")


def test_initiative_ties_with_equal_dodge_and_agility_go_to_the_higher_awareness(
        pack: Pack) -> None:
    base = {a: 2 for a in ("strength", "stamina", "agility", "dexterity", "fighting",
                           "intellect", "awareness", "presence")}
    g = Game.new(pack, name="fight test", hero_name="Ann", stats=base | {"awareness": 1},
                 dice_mode="physical", party=[{"name": "Bea", "stats": base | {"awareness": 4}}])
    g.start_fight(["the_tallyman"], dice=[10, 10, 1])  # Ann and Bea 12: Dodge 2, Agility 2
    assert g.fight is not None and g.fight.encounter.order == ("bea", "ann", "the_tallyman")


def test_a_late_joiner_rolls_and_takes_its_place(pack: Pack) -> None:
    g = keystone_vs_tallyman(pack)  # Keystone 20, the Tallyman 2; the referee's dice typed in
    before = g.state.model_dump(mode="json")
    with pytest.raises(IllegalAction, match="initiative needs 1 or more dice"):
        g.join_fight("madame_undertow")
    assert g.state.model_dump(mode="json") == before
    ev = g.join_fight("madame_undertow", dice=[5])
    assert initiative(ev)["madame_undertow"]["total"] == 5 + 3
    assert g.fight is not None
    assert g.fight.encounter.order == ("keystone", "madame_undertow", "the_tallyman")
    seeded = new_game(pack, dice_mode="seeded", seed=4)
    seeded.start_fight(["the_tallyman"])
    r = initiative(seeded.join_fight("dockside_crew"))
    assert len(r) == 6 and len({x["natural"] for x in r.values()}) == 1


def test_a_minion_group_rolls_initiative_once(pack: Pack) -> None:
    g = new_game(pack)
    before = g.state.model_dump(mode="json")
    with pytest.raises(IllegalAction, match="initiative needs 2 or more dice"):
        g.start_fight(["dockside_crew"], dice=[10])
    assert g.state.model_dump(mode="json") == before
    ev = g.start_fight(["dockside_crew"], dice=[10, 7])  # two dice: Keystone, the group
    r = initiative(ev)
    crew = [x for a, x in r.items() if a.startswith("dockside_crew")]
    assert len(crew) == 6
    assert {(x["natural"], x["total"], x["group"]) for x in crew} == {(7, 8, "dockside_crew")}


def test_seeded_minion_group_shares_one_roll(pack: Pack) -> None:
    g = new_game(pack, dice_mode="seeded", seed=11)
    r = initiative(g.start_fight(["dockside_crew", "hornet_drones"]))
    assert len({x["natural"] for a, x in r.items() if a.startswith("dockside_crew")}) == 1
    assert len({x["natural"] for a, x in r.items() if a.startswith("hornet_drones")}) == 1
    assert len(r) == 1 + 6 + 5


def test_surprise_round(pack: Pack) -> None:
    g = new_game(pack, ["keystone", "lamplight"])
    g.start_fight(["the_tallyman"], surprised=["heroes"], dice=[19, 18, 1])
    g.set_fight_dice("physical")
    g.gm.place_fighters("engaged")  # within reach: a surprise round has no move to close in
    assert g.fight is not None
    enc = g.fight.encounter
    # the surprised have no turn; the others a standard action (or a move instead)
    assert (enc.round, enc.order, enc.acting) == (0, ("the_tallyman",), "the_tallyman")
    assert enc.budget == {"standard": 1}
    assert "surprised" in conds(g, "keystone")
    allowed = {o.action for o in g.fight_options() if o.allowed}
    assert {"attack", "move"} <= allowed
    # surprised: stunned and vulnerable (Parry 8 -> 4)
    g.take_over("the_tallyman")
    r = rolls(act(g, "attack", [6, 10], target="keystone", attack="ledger_cane"))
    assert (r[0]["against"], r[0]["band_name"]) == (14, "hit")
    assert g.fight is not None
    enc = g.fight.encounter
    assert (enc.round, enc.acting) == (1, "lamplight")  # the turn ended by itself
    assert "surprised" not in conds(g, "keystone")
    assert enc.budget == {"standard": 1, "move": 1}


def test_surprised_villains_are_vulnerable_in_the_surprise_round(pack: Pack) -> None:
    g = fight(pack, ["keystone"], ["the_tallyman"], [1, 19], surprised=["villains"])
    assert g.fight is not None
    assert (g.fight.encounter.round, g.fight.encounter.acting) == (0, "keystone")
    assert g.fight.encounter.budget == {"standard": 1}
    # the Tallyman's Parry 8 halved: 10 + 4; his turn does not come this round
    r = rolls(act(g, "attack", [6, 19], target="the_tallyman", attack="granite_fist"))
    assert (r[0]["against"], r[0]["band_name"]) == (14, "hit")
    assert "vulnerable: halved" in r[0]["against_name"]
    assert g.fight is not None
    assert (g.fight.encounter.round, g.fight.encounter.acting) == (1, "the_tallyman")


def test_a_surprised_side_named_by_actor(pack: Pack) -> None:
    g = new_game(pack, ["keystone", "lamplight"])
    g.start_fight(["the_tallyman"], surprised=["lamplight"], dice=[19, 18, 1])
    assert g.fight is not None
    assert g.fight.encounter.order == ("keystone", "the_tallyman")
    assert "surprised" in conds(g, "lamplight") and "surprised" not in conds(g, "keystone")


# ------------------------------------------------------------------ budgets


def test_standard_and_move_then_the_turn_ends(pack: Pack) -> None:
    g = keystone_vs_tallyman(pack)
    act(g, "attack", [9], target="the_tallyman", attack="granite_fist")
    assert g.fight is not None and g.fight.encounter.budget == {"standard": 0, "move": 1}
    with pytest.raises(IllegalAction, match="no standard action left"):
        g.fight_act("attack", target="the_tallyman", attack="granite_fist")
    act(g, "move", options={"to": "to the railing"})
    assert g.fight is not None and g.fight.encounter.acting == "the_tallyman"


def test_two_moves_trade_the_standard(pack: Pack) -> None:
    g = keystone_vs_tallyman(pack)
    act(g, "move")
    assert g.fight is not None and g.fight.encounter.acting == "keystone"
    act(g, "move")
    assert g.fight is not None and g.fight.encounter.acting == "the_tallyman"


def test_dazed_has_a_standard_only_and_stunned_loses_the_turn(pack: Pack) -> None:
    g = fight(pack, ["keystone", "lamplight"], ["the_tallyman"], [10, 1, 19])
    put(g, "keystone", ["dazed"])
    put(g, "lamplight", ["stunned"])
    pass_turn(g)
    assert g.fight is not None and g.fight.encounter.acting == "keystone"
    assert g.fight.encounter.budget == {"standard": 1, "move": 0}
    ev = act(g, "attack", [9], target="the_tallyman", attack="granite_fist")  # ends the turn
    assert any(e["type"] == "FightActed" and e["actor"] == "lamplight"
               and "stunned" in e["text"] for e in ev)
    assert g.fight is not None
    assert (g.fight.encounter.round, g.fight.encounter.acting) == (2, "the_tallyman")


# ------------------------------------------------------------------ trade maneuvers


@pytest.mark.parametrize(("maneuver", "amount", "attack_part", "resist_dc"),
                         [("power_attack", 2, -2, 29), ("accurate", 2, 2, 25),
                          ("power_attack", 1, -1, 28), ("accurate", 0, 0, 27)])
def test_trades_move_points_between_attack_and_effect(
        pack: Pack, maneuver: str, amount: int, attack_part: int, resist_dc: int) -> None:
    g = keystone_vs_tallyman(pack)
    r = rolls(act(g, "attack", [15, 19], target="the_tallyman", attack="granite_fist",
                  maneuvers={maneuver: amount}))
    assert r[0]["total"] == 15 + 8 + attack_part
    assert (["maneuvers", attack_part] in r[0]["modifiers"]) is bool(attack_part)
    assert r[1]["against"] == resist_dc


@pytest.mark.parametrize(("maneuvers", "attack"), [
    ({"power_attack": 3}, "granite_fist"), ({"accurate": -1}, "granite_fist"),
    ({"all_out": 5}, "granite_fist"), ({"defensive": 1}, "faultline_stomp"),
    ({"feint": 1}, "granite_fist")])
def test_trades_out_of_limits_are_refused(pack: Pack, maneuvers: dict[str, int],
                                          attack: str) -> None:
    g = keystone_vs_tallyman(pack)
    before = g.state.model_dump(mode="json")
    with pytest.raises(IllegalAction):
        g.fight_act("attack", target="the_tallyman", attack=attack, maneuvers=maneuvers)
    assert g.state.model_dump(mode="json") == before


@pytest.mark.parametrize(("maneuver", "parry"), [("all_out", 6), ("defensive", 10)])
def test_all_out_and_defensive_change_parry_until_the_next_turn(
        pack: Pack, maneuver: str, parry: int) -> None:
    g = keystone_vs_tallyman(pack)
    act(g, "attack", [2], target="the_tallyman", attack="granite_fist",
        maneuvers={maneuver: 2})
    g.end_turn()
    g.take_over("the_tallyman")
    r = rolls(act(g, "attack", [2], target="keystone", attack="ledger_cane"))
    assert r[0]["against"] == 10 + parry


# ------------------------------------------------------------------ finishing and killing


def two_foes(pack: Pack) -> Game:
    """Keystone first against the Tallyman and Madame Undertow (the fight goes on when one
    falls)."""
    return fight(pack, ["keystone"], ["the_tallyman", "madame_undertow"], [19, 5, 1])


def test_finishing_attack_is_against_dc_10_and_a_hit_is_a_critical(pack: Pack) -> None:
    g = two_foes(pack)
    put(g, "the_tallyman", ["defenseless"])
    r = rolls(act(g, "attack", [2, 19], target="the_tallyman", attack="granite_fist",
                  options={"finishing": True}))
    assert (r[0]["total"], r[0]["against"], r[0]["band_name"]) == (10, 10, "hit")
    assert r[1]["against"] == 27 + 5


def test_routine_finishing_attack_has_no_die_and_no_plus_5(pack: Pack) -> None:
    g = two_foes(pack)
    put(g, "the_tallyman", ["defenseless"])
    r = rolls(act(g, "attack", [19], target="the_tallyman", attack="granite_fist",
                  options={"finishing": True, "routine": True}))
    assert (r[0]["dice"], r[0]["faces"], r[0]["band_name"]) == ("routine", [10], "hit")
    assert r[1]["against"] == 27


@pytest.mark.parametrize(("resist", "dead"), [(13, True), (14, False)])
def test_finishing_with_intent_to_kill_kills_on_3_degrees(
        pack: Pack, resist: int, dead: bool) -> None:
    g = two_foes(pack)
    put(g, "the_tallyman", ["defenseless"])
    # Toughness 8 against 32: 21 fails by 11 (3 degrees), 22 by 10 (2 degrees)
    act(g, "attack", [2, resist], target="the_tallyman", attack="granite_fist",
        options={"finishing": True, "kill": True})
    assert ("dead" in g.state.actors["the_tallyman"].conditions) is dead


def test_finishing_needs_a_defenseless_target(pack: Pack) -> None:
    g = two_foes(pack)
    before = g.state.model_dump(mode="json")
    with pytest.raises(IllegalAction, match="finishing attack needs a defenseless target"):
        g.fight_act("attack", target="the_tallyman", attack="granite_fist",
                    options={"finishing": True})
    assert g.state.model_dump(mode="json") == before


@pytest.mark.parametrize(("before", "after"), [("incapacitated", "dying"),
                                               ("dying", "dead")])
def test_a_downed_foe_failing_again_goes_down_the_ladder(pack: Pack, before: str,
                                                         after: str) -> None:
    g = two_foes(pack)
    put(g, "the_tallyman", [before])
    refused = g.state.model_dump(mode="json")
    with pytest.raises(IllegalAction, match="not a foe still in the fight"):
        g.fight_act("attack", target="the_tallyman", attack="granite_fist")
    assert g.state.model_dump(mode="json") == refused
    # a finishing attack reaches him: DC 10, then Toughness 8 against 27 + 5
    r = rolls(act(g, "attack", [2, 19], target="the_tallyman", attack="granite_fist",
                  options={"finishing": True}))
    assert (r[0]["against"], r[1]["against"], r[1]["degree"]) == (10, 32, -1)
    assert after in g.state.actors["the_tallyman"].conditions
    assert g.fighting  # Madame Undertow still stands


def test_a_dead_foe_cannot_be_attacked(pack: Pack) -> None:
    g = two_foes(pack)
    put(g, "the_tallyman", ["dead"])
    with pytest.raises(IllegalAction, match="not a foe still in the fight"):
        g.fight_act("attack", target="the_tallyman", attack="granite_fist",
                    options={"finishing": True})


def test_a_minion_hit_with_intent_to_kill_dies(pack: Pack) -> None:
    g = fight(pack, ["keystone"], ["dockside_crew"], [19, 1])
    act(g, "attack", [10], target="dockside_crew_1", attack="granite_fist",
        options={"kill": True})
    assert "dead" in g.state.actors["dockside_crew_1"].conditions


# ------------------------------------------------------------------ team attack


@pytest.mark.parametrize(("faces", "rank"), [
    ([15, 15, 15, 15, 15], 3 + 5),   # four others hit, 1 degree each: +5
    ([15, 15, 2, 2, 15], 3 + 2),     # two others hit: +2
    ([2, 15, 2, 2, 2], 3),           # the leader misses; one hit alone: its rank
    ([2, 2, 2, 2, 2], None),         # nothing hits
])
def test_team_attack_takes_the_largest_rank_plus_the_others_degrees(
        pack: Pack, faces: list[int], rank: int | None) -> None:
    g = fight(pack, ["keystone"], ["dockside_crew"], [1, 19])
    # the team waits for its slowest member: crew 1 to 4 delay to crew 5's turn (D.7)
    for n in range(1, 5):
        assert g.fight is not None and g.fight.encounter.acting == f"dockside_crew_{n}"
        g.referee_step()
        assert g.fight.pending is not None and g.fight.pending.action == "delay"
        assert "team attack" in (g.fight.pending.why or "")
        g.referee_step()
    assert [r.columns.waiting for r in g.tracker() if r.actor.startswith("dockside")][:4] \
        == ["delay"] * 4
    g.referee_step()
    assert g.fight is not None and g.fight.pending is not None
    team = g.fight.pending.team
    assert len(team) == 4 and g.fight.pending.actor == "dockside_crew_5"
    g.referee_step()
    ev = enter(g, faces + ([10] if rank is not None else []))
    r = rolls(ev)
    assert [x["actor"] for x in r[:5]] == ["dockside_crew_5", *team]
    assert all(x["against"] == 16 for x in r[:5])  # Pistol +4 against 10 + Dodge 6
    if rank is None:
        assert len(r) == 5
    else:
        assert r[5]["against"] == 15 + rank
    # the joiners' delayed turns are spent on it: the crew member left acts next
    assert all(r.columns.waiting == "" for r in g.tracker())
    g.referee_run()
    assert g.fight is not None
    assert g.fight.encounter.acting in ("dockside_crew_6", "keystone")


# ------------------------------------------------------------------ recover


def test_recover_removes_the_worst_damage_condition_once_per_fight(pack: Pack) -> None:
    g = keystone_vs_tallyman(pack)
    put(g, "keystone", ["staggered"], damage=2)
    ev = act(g, "recover")
    assert g.state.actors["keystone"].conditions == []
    assert g.state.actors["keystone"].tracks["damage"] == 2
    assert any(e["type"] == "FightActed" and e["action"] == "recover" for e in ev)
    assert g.fight is not None and g.fight.recovered == ["keystone"]
    # the whole turn: it ended; +2 Dodge and Parry until Keystone's next turn
    assert g.fight.encounter.acting == "the_tallyman"
    g.take_over("the_tallyman")
    r = rolls(act(g, "attack", [2], target="keystone", attack="ledger_cane"))
    assert r[0]["against"] == 10 + 8 + 2
    g.end_turn()
    rec = next(o for o in g.fight_options() if o.action == "recover")
    assert rec.allowed is False
    before = g.state.model_dump(mode="json")
    with pytest.raises(IllegalAction, match="already recovered"):
        g.fight_act("recover")
    assert g.state.model_dump(mode="json") == before


def test_recover_from_a_penalty_takes_one_off(pack: Pack) -> None:
    g = keystone_vs_tallyman(pack)
    put(g, "keystone", [], damage=3)
    act(g, "recover")
    assert g.state.actors["keystone"].tracks["damage"] == 2


def test_recover_from_dazed_by_damage_before_the_penalty(pack: Pack) -> None:
    g = keystone_vs_tallyman(pack)
    put(g, "keystone", [], damage=2)
    effect(g, "keystone", "dazed", {"kind": "condition", "damage": 1})
    assert "dazed" in conds(g, "keystone")
    act(g, "recover")
    assert "dazed" not in conds(g, "keystone")
    assert g.state.actors["keystone"].tracks["damage"] == 2


# ------------------------------------------------------------------ demoralize and feint


@pytest.mark.parametrize(("face", "imposed"), [(2, None), (3, "impaired"), (17, "impaired"),
                                               (18, "disabled")])
def test_demoralize_impairs_and_4_degrees_disable(
        pack: Pack, face: int, imposed: str | None) -> None:
    g = fight(pack, ["keystone"], ["the_tallyman"], [1, 19])
    g.take_over("the_tallyman")
    # opposed: Intimidation 15 against Keystone's d20 (10) + the better of her Insight (2)
    # or Will (8); a tie goes to the higher bonus; 4 degrees: 15 over
    r = rolls(act(g, "demoralize", [face, 10], target="keystone"))
    assert (r[0]["against"], r[0]["total"]) == (18, face + 15)
    shown = conds(g, "keystone")
    assert shown == ([imposed] if imposed else [])
    g.end_turn()
    if imposed == "impaired":  # -2 on Keystone's checks, attack checks too
        r = rolls(act(g, "attack", [9], target="the_tallyman", attack="granite_fist"))
        assert ["impaired", -2] in r[0]["modifiers"]


def test_feint_makes_the_target_vulnerable_to_the_feinters_next_attack(pack: Pack) -> None:
    g = fight(pack, ["keystone"], ["the_tallyman"], [1, 19])
    g.take_over("the_tallyman")
    # opposed: Deception 15 against Keystone's d20 (10) + the better of her Deception (1) or
    # Insight (2)
    r = rolls(act(g, "feint", [5, 10], target="keystone"))
    assert (r[0]["against"], r[0]["degree"] > 0) == (12, True)
    g.end_turn()
    g.end_turn()  # Keystone's turn
    r = rolls(act(g, "attack", [6, 10], target="keystone", attack="ledger_cane"))
    assert (r[0]["against"], r[0]["band_name"]) == (14, "hit")  # Parry 8 halved
    assert "feinted" in r[0]["against_name"]
    g.end_turn()
    g.end_turn()
    r = rolls(act(g, "attack", [6], target="keystone", attack="ledger_cane"))
    assert r[0]["against"] == 18  # used up by that attack


# ------------------------------------------------------------------ grab, escape, trip


@pytest.mark.parametrize(("resist", "imposed"), [(12, None), (11, "restrained"),
                                                 (6, "bound")])
def test_grab_restrains_or_binds(pack: Pack, resist: int, imposed: str | None) -> None:
    g = two_foes(pack)
    # grab: Granite Fist's +8 against 10 + Parry 8; the Tallyman resists with the better of
    # Strength 0 and Dodge 10 against 10 + Keystone's Strength 12
    r = rolls(act(g, "grab", [10, resist], target="the_tallyman"))
    assert (r[0]["against"], r[0]["band_name"]) == (18, "hit")
    assert (r[1]["modifiers"], r[1]["against"]) == ([["Dodge", 10]], 22)
    lasting = [c for c in g.state.actors["the_tallyman"].conditions if c in KNOWN_CONDITIONS]
    assert lasting == ([imposed] if imposed else [])
    assert g.fight is not None
    assert ("the_tallyman" in g.fight.holds) is bool(imposed)
    if imposed == "bound":  # defenseless: the next attack is against DC 10
        act(g, "move")
        g.end_turn()
        g.end_turn()  # the Tallyman's turn, then Madame Undertow's
        r = rolls(act(g, "attack", [2, 19], target="the_tallyman", attack="granite_fist"))
        assert r[0]["against"] == 10


@pytest.mark.parametrize(("face", "free"), [(10, False), (11, True)])
def test_escape_against_10_plus_the_grabbers_strength(pack: Pack, face: int,
                                                      free: bool) -> None:
    g = fight(pack, ["keystone"], ["the_tallyman"], [1, 19])
    fight_ = require_fight(g.state)
    with g._action("test set-up"):
        g._emit(FightUpdated(fight=fight_.model_copy(update={"holds": {"the_tallyman": {
            "by": "keystone", "strength": 2, "degrees": 1}}}).model_dump(mode="json")))
        g._emit(CombatantChanged(actor="the_tallyman", conditions=["restrained"], damage=0))
    g.take_over("the_tallyman")
    # the better of Athletics (Strength 0) and Acrobatics (Agility 1) against 10 + 2
    r = rolls(act(g, "escape", [face]))
    assert (r[0]["total"], r[0]["against"]) == (face + 1, 12)
    assert ("restrained" in g.state.actors["the_tallyman"].conditions) is not free
    assert g.fight is not None and ("the_tallyman" in g.fight.holds) is not free


@pytest.mark.parametrize(("faces", "prone"), [([11], False), ([12, 1, 20, 10, 10], False),
                                              ([12, 10, 5], True), ([12, 1, 14], True)])
def test_trip(pack: Pack, faces: list[int], prone: bool) -> None:
    g = two_foes(pack)
    r = rolls(act(g, "trip", faces, target="the_tallyman"))
    # +8 - 2 against 10 + Parry 8; then an opposed check, both dice rolled, Keystone's first:
    # her best of Acrobatics and Athletics (Athletics 14) against the Tallyman's (1); a tie
    # (15 against 15) goes to the higher bonus; a target that keeps its feet counter-trips
    # (the Tallyman's 10 + 1 against Keystone's 10 + 14)
    assert (r[0]["total"], r[0]["against"]) == (faces[0] + 6, 18)
    if len(faces) > 1:
        assert (r[1]["total"], r[1]["against"]) == (faces[1] + 14, faces[2] + 1)
        assert r[1]["against_name"] == f"The Tallyman: d20 {faces[2]} + Acrobatics or Athletics 1"
    if len(faces) > 3:
        assert (r[2]["actor"], r[2]["total"], r[2]["against"]) == ("the_tallyman", 11, 24)
    assert ("prone" in g.state.actors["the_tallyman"].conditions) is prone


# ------------------------------------------------------------------ delay, flee, surrender


def test_delay_lets_the_next_character_act_first(pack: Pack) -> None:
    g = keystone_vs_tallyman(pack)
    act(g, "delay")
    assert g.fight is not None and g.fight.encounter.acting == "the_tallyman"
    waiting = row(g, "keystone").columns
    assert isinstance(waiting, InitiativeColumns) and waiting.waiting != ""
    refused = g.state.model_dump(mode="json")
    with pytest.raises(IllegalAction):
        g.fight_act("attack", target="the_tallyman", attack="granite_fist", actor="keystone")
    assert g.state.model_dump(mode="json") == refused


def test_flee_and_surrender_leave_the_fight_and_the_last_ends_it(pack: Pack) -> None:
    g = fight(pack, ["keystone"], ["the_tallyman", "madame_undertow"], [1, 19, 15])
    g.take_over("the_tallyman")
    g.take_over("madame_undertow")
    act(g, "flee")
    assert row(g, "the_tallyman").out == "fled"
    assert g.fight is not None and g.fight.encounter.acting == "madame_undertow"
    act(g, "surrender")
    assert not g.fighting
    ended = [e for e in g.last_events if e["type"] == "FightEnded"]
    assert [e["result"] for e in ended] == ["the heroes win"]


def test_the_only_hero_surrendering_loses(pack: Pack) -> None:
    g = keystone_vs_tallyman(pack)
    act(g, "surrender")
    assert not g.fighting
    assert [e["result"] for e in g.last_events if e["type"] == "FightEnded"] == [
        "the villains win"]


# ------------------------------------------------------------------ properties


MINION_DAMAGE = {"dazed", "staggered"}


def check_invariants(g: Game) -> None:
    """What must hold after every step of any fight."""
    fight_ = g.fight
    if fight_ is None:
        return
    assert all(v >= 0 for v in fight_.encounter.budget.values()), fight_.encounter.budget
    for r in g.tracker():
        actor = g.state.actors[r.actor]
        assert damage(r) >= 0 and actor.tracks.get("damage", 0) >= 0
        assert set(r.conditions) <= KNOWN_CONDITIONS, r.conditions
        assert {c for c in actor.conditions} <= KNOWN_CONDITIONS, actor.conditions
        if actor.role == "minion":  # unhurt or out: never between degrees
            assert damage(r) == 0, r
            assert not MINION_DAMAGE & set(actor.conditions), r


def greedy(g: Game) -> None:
    """The player's heroes attack (or charge) where they are likeliest to hurt, among the
    targets they can reach, else end the turn."""
    for action in ("attack", "charge"):
        opts = [o for o in g.fight_options() if o.allowed and o.action == action
                and any(not t.why for t in o.targets)]
        if opts:
            break
    else:
        g.end_turn()
        return
    best = max(opts, key=lambda o: max(t.effect or 0.0 for t in o.targets if not t.why))
    target = max((t for t in best.targets if not t.why), key=lambda t: t.effect or 0.0)
    assert best.attack is not None
    g.fight_act(best.action, target=target.id, attack=best.attack.id)


@settings(max_examples=25, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), villain=st.sampled_from(["the_tallyman",
                                                            "madame_undertow"]),
       minions=st.sampled_from(["dockside_crew", "hornet_drones"]))
def test_any_seeded_fight_ends_with_a_result_and_keeps_its_invariants(
        pack: Pack, seed: int, villain: str, minions: str) -> None:
    g = new_game(pack, ["keystone", "lamplight", "slipstream"], seed=seed,
                 dice_mode="seeded")
    g.start_fight([villain, minions])
    check_invariants(g)
    for _ in range(3000):
        if not g.fighting:
            break
        assert g.fight is not None and g.fight.encounter.round <= 60
        assert g.fight_need is None  # seeded: never waits
        if g.referee_turn:
            g.referee_step()
        else:
            greedy(g)
        check_invariants(g)
    assert not g.fighting
    ended = [e for e in g.store.events() if e["type"] == "FightEnded"]
    assert len(ended) == 1
    assert ended[0]["result"] in ("the heroes win", "the villains win",
                                  "nobody is left standing")


ABILITIES = ("strength", "stamina", "agility", "dexterity", "fighting", "intellect",
             "awareness", "presence")


@pytest.mark.parametrize(("fighting", "strength", "maneuvers", "allowed"), [
    (1, 5, {"accurate": 1}, True),        # +1 -> +2: doubled, no more
    (1, 5, {"accurate": 2}, False),       # +1 -> +3: more than doubled
    (8, 1, {"accurate": 1}, True),        # rank 1 -> 0
    (8, 1, {"accurate": 2}, False),       # rank 1 -> -1: below 0
    (8, 1, {"power_attack": 1}, True),    # rank 1 -> 2
    (8, 1, {"power_attack": 2}, False),   # rank 1 -> 3: more than doubled
    (1, 5, {"defensive": 1}, True),       # attack +1 -> 0
    (1, 5, {"defensive": 2}, False),      # attack +1 -> -1: below 0
])
def test_trade_limits_with_a_hero_made_from_abilities(
        pack: Pack, fighting: int, strength: int, maneuvers: dict[str, int],
        allowed: bool) -> None:
    stats = dict.fromkeys(ABILITIES, 2) | {"fighting": fighting, "strength": strength}
    g = Game.new(pack, name="fight test", hero_name="Brawler", stats=stats,
                 dice_mode="physical")
    hero = g.state.party[0]
    g.start_fight(["the_tallyman"], dice=[19, 1])
    option = next(o for o in g.fight_options() if o.action == "attack")
    atk = option.attack
    assert atk is not None and (atk.bonus, atk.rank) == (fighting, strength)
    before = g.state.model_dump(mode="json")
    if allowed:
        g.fight_act("attack", target="the_tallyman", attack=atk.id,
                    maneuvers=maneuvers)
        assert g.fight_need is not None and g.fight_need.who == g.state.actors[hero].name
    else:
        with pytest.raises(IllegalAction):
            g.fight_act("attack", target="the_tallyman", attack=atk.id,
                        maneuvers=maneuvers)
        assert g.state.model_dump(mode="json") == before


def test_aid_picks_the_only_ally_and_asks_which_of_several(pack: Pack) -> None:
    g = fight(pack, ["keystone"], ["the_tallyman"], [19, 1])
    before = g.state.model_dump(mode="json")
    with pytest.raises(IllegalAction, match="aid: which ally"):
        g.fight_act("aid")  # nobody to aid
    assert g.state.model_dump(mode="json") == before
    g = fight(pack, ["keystone", "lamplight", "slipstream"], ["the_tallyman"], [19, 2, 2, 1])
    with pytest.raises(IllegalAction, match=r"aid: which ally\? \(Slipstream, Lamplight\)"):
        g.fight_act("aid")
    g = fight(pack, ["keystone", "lamplight"], ["the_tallyman"], [19, 2, 1])
    # Granite Fist +8 against DC 10: 2 degrees, +2 on Lamplight's attacks on the Tallyman
    r = rolls(act(g, "aid", [4]))
    assert (r[0]["what"], r[0]["against"], r[0]["total"]) == ("aids Lamplight", 10, 12)


def test_a_grab_by_a_character_with_negative_strength(pack: Pack) -> None:
    g = fight(pack, ["keystone"], ["hornet_drones"], [1, 19])
    g.take_over("hornet_drones_1")
    # Fighting 0 against 10 + Parry 8; Keystone's Strength 12 against 10 + Strength -2
    r = rolls(act(g, "grab", [18, 5], target="keystone"))
    assert (r[0]["against"], r[0]["band_name"]) == (18, "hit")
    assert (r[1]["against"], r[1]["total"], r[1]["degree"] > 0) == (8, 17, True)
    assert g.fight is not None and g.fight.holds == {}


@pytest.mark.parametrize("action", ["grab", "trip"])
def test_a_minions_grab_or_trip_on_a_non_minion_is_no_critical(pack: Pack,
                                                              action: str) -> None:
    g = fight(pack, ["keystone"], ["dockside_crew"], [1, 19])
    g.take_over("dockside_crew_1")
    g.fight_act(action, target="keystone")
    ev = g.fight_die(20)
    while g.fight_need is not None:
        ev = g.fight_die(10)
    r = rolls(ev)
    assert (r[0]["faces"][0], r[0]["band_name"]) == (20, "hit")


@pytest.mark.parametrize(("face", "still"), [(12, False), (11, True)])
def test_a_stunned_character_loses_its_turn_and_resists_at_its_end(
        pack: Pack, face: int, still: bool) -> None:
    g = fight(pack, ["slipstream"], ["the_tallyman"], [19, 1])
    # Slipstream Vortex (rank 8): Dodge 10 + 7 misses 18, so rank 8; Fortitude 6 + 6 = 12
    # against 18 fails by 6: the 2nd degree, stunned
    act(g, "attack", [7, 6], target="the_tallyman", attack="slipstream_vortex")
    assert "stunned" in conds(g, "the_tallyman")
    g.end_turn()  # the Tallyman's turn is skipped; its end asks for his Fortitude die
    need = g.fight_need
    assert isinstance(need, DieNeed) and need.what == "shakes off stunned"
    ev = enter(g, [face])
    assert any(e["type"] == "FightActed" and e["actor"] == "the_tallyman"
               and "stunned" in e["text"] and e["action"] == "skip" for e in ev)
    assert ("stunned" in conds(g, "the_tallyman")) is still
    assert g.fight is not None
    assert (g.fight.encounter.round, g.fight.encounter.acting) == (2, "slipstream")
