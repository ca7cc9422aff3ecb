"""The flow of an M&M fight through ``Game``: undo in the middle of the referee's turn, a
campaign saved to disk and reopened mid-turn or mid-die, entered dice against seeded ones, and
bad input refused with nothing changed."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import fight as fight_mod
from engine.campaigns import close_game, new_game, open_game
from engine.content.loader import Pack, load_pack
from engine.errors import IllegalAction
from engine.game import Game
from engine.journal import render_all
from engine.rules.fight.dice import Die
from engine.rules.fight.values import DieNeed

ROOT = Path(__file__).resolve().parents[2]
SYSTEM = "mutants-and-masterminds"
PARTY = [{"name": "Lamplight", "archetype": "lamplight"},
         {"name": "Slipstream", "archetype": "slipstream"}]


@pytest.fixture(scope="module")
def pack() -> Pack:
    """The bundled M&M pack."""
    return load_pack(ROOT / "content" / SYSTEM)


def game(pack: Pack, seed: int = 5, dice_mode: str = "seeded") -> Game:
    """Keystone with Lamplight and Slipstream, in memory."""
    return Game.new(pack, name="flow", hero_name="Keystone", archetype="keystone", seed=seed,
                    dice_mode=dice_mode, party=PARTY)


def journal(g: Game) -> list[str]:
    """The whole journal as lines."""
    names = {a.id: a.name for a in g.state.actors.values()}
    return render_all(list(g.store.events()), g.pack, names)


def dump(g: Game) -> dict[str, Any]:
    """The state as saved."""
    return g.state.model_dump(mode="json")


def strip(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Events without their place in the log."""
    return [{k: v for k, v in e.items() if k not in ("n", "a")} for e in events]


def to_referee_turn(g: Game) -> None:
    """Play (heroes by ending their turns) until the referee's turn comes."""
    for _ in range(40):
        if g.referee_turn:
            return
        g.end_turn()
    raise AssertionError("the referee never got a turn")


# ------------------------------------------------------------------ undo


def test_undo_between_the_referees_choice_and_its_resolution(pack: Pack) -> None:
    g = game(pack)
    g.start_fight(["the_tallyman", "dockside_crew"])
    to_referee_turn(g)
    before_choice = dump(g)
    lines_before = journal(g)
    chose = strip(g.referee_step())
    assert g.fight is not None and g.fight.pending is not None  # chosen, not resolved
    after_choice = dump(g)
    resolved = strip(g.referee_step())
    after_resolve = dump(g)
    lines_after = journal(g)
    assert g.fight is None or g.fight.pending is None
    g.undo()  # the resolution
    assert dump(g) == after_choice
    g.undo()  # the choice
    assert dump(g) == before_choice
    assert journal(g) == lines_before
    # the same steps again: the same events, state and journal
    assert strip(g.referee_step()) == chose
    assert strip(g.referee_step()) == resolved
    assert dump(g) == after_resolve
    assert journal(g) == lines_after


def test_undo_of_a_step_waiting_for_a_die(pack: Pack) -> None:
    g = game(pack, dice_mode="physical")
    g.start_fight(["the_tallyman"], dice=[19, 1, 1, 1])
    assert g.fight is not None and g.fight.encounter.acting == "keystone"
    before = dump(g)
    g.fight_act("attack", target="the_tallyman", attack="granite_fist")
    assert g.fight_need is not None
    g.undo()
    assert dump(g) == before and g.fight_need is None


# ------------------------------------------------------------------ saved and reopened


def saved(tmp_path: Path, seed: int = 5, dice_mode: str = "seeded") -> Game:
    """A campaign on disk under ``tmp_path``."""
    return new_game(tmp_path, system=SYSTEM, name="Harbor flow", hero_name="Keystone",
                    archetype="keystone", seed=seed, dice_mode=dice_mode, party=PARTY,
                    campaign_id="harbor")


def reopened(tmp_path: Path, g: Game) -> Game:
    """Close ``g`` and open its campaign again from disk."""
    close_game(g)
    return open_game(tmp_path, "harbor")


def test_reopened_in_the_middle_of_a_referee_turn_resumes_exactly(tmp_path: Path) -> None:
    g = saved(tmp_path)
    g.start_fight(["the_tallyman", "dockside_crew"])
    to_referee_turn(g)
    g.referee_step()  # chosen, not resolved
    state, prompt = dump(g), g.pending
    expected = strip(g.referee_step())  # what comes next, then taken back
    g.undo()
    assert dump(g) == state
    g2 = reopened(tmp_path, g)
    try:
        assert dump(g2) == state
        assert g2.pending == prompt
        assert g2.referee_turn and g2.fight is not None and g2.fight.pending is not None
        assert strip(g2.referee_step()) == expected
    finally:
        close_game(g2)


def test_reopened_while_a_physical_die_is_awaited_resumes_exactly(tmp_path: Path) -> None:
    g = saved(tmp_path, dice_mode="physical")
    g.start_fight(["the_tallyman"], dice=[19, 1, 1, 1])
    g.set_fight_dice("physical")
    g.fight_act("attack", target="the_tallyman", attack="granite_fist")
    g.fight_die(14)  # the attack hits; the Tallyman's Toughness die is awaited
    need, state, prompt = g.fight_need, dump(g), g.pending
    assert isinstance(need, DieNeed) and (need.who, need.what) == ("The Tallyman",
                                                                   "resists Granite Fist")
    assert prompt.kind == "fight_die"
    g2 = reopened(tmp_path, g)
    try:
        assert dump(g2) == state
        assert g2.fight_need == need
        assert g2.pending == prompt
    finally:
        close_game(g2)
    twin = game(load_pack(ROOT / "content" / SYSTEM), dice_mode="physical")
    twin.start_fight(["the_tallyman"], dice=[19, 1, 1, 1])
    twin.set_fight_dice("physical")
    twin.fight_act("attack", target="the_tallyman", attack="granite_fist")
    twin.fight_die(14)
    g3 = open_game(tmp_path, "harbor")
    try:
        nxt = strip(g3.fight_die(7))
        assert nxt == strip(twin.fight_die(7))
        assert [e["faces"][0] for e in nxt if e["type"] == "Rolled"] == [14, 7]
        assert dump(g3)["data"] == dump(twin)["data"]
        assert g3.tracker() == twin.tracker()
    finally:
        close_game(g3)


# ------------------------------------------------------------------ entered dice = seeded


@pytest.fixture
def recorded(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Every face the fight's dice roller hands out, in order."""
    faces: list[int] = []
    original = fight_mod._Roller.__call__

    def record(self: fight_mod._Roller, actor: str, what: str, sides: int = 20,
               odds: str = "") -> Die:
        die = original(self, actor, what, sides, odds)
        faces.append(die.face)
        return die

    monkeypatch.setattr(fight_mod._Roller, "__call__", record)
    return faces


def fight_rolls(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The fight's rolls without how the die came (seeded or entered) or where."""
    return [{k: v for k, v in e.items() if k not in ("entered", "position", "n", "a")}
            for e in events if e["type"] == "Rolled"]


def command(g: Game, step: tuple[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """Carry out a recorded step."""
    kind, kw = step
    if kind == "referee":
        return g.referee_step()
    if kind == "end":
        return g.end_turn()
    return g.fight_act(**kw)


@pytest.mark.parametrize("seed", [3, 17, 2026])
def test_entering_the_seeded_faces_gives_the_seeded_outcome(
        pack: Pack, recorded: list[int], seed: int) -> None:
    a = game(pack, seed=seed)
    a.start_fight(["madame_undertow", "hornet_drones"])
    init, rows = list(recorded), a.tracker()
    steps: list[tuple[tuple[str, dict[str, Any]], list[int], list[dict[str, Any]]]] = []
    for _ in range(30):
        if not a.fighting:
            break
        start = len(recorded)
        if a.referee_turn:
            step: tuple[str, dict[str, Any]] = ("referee", {})
        else:
            opts = [o for o in a.fight_options() if o.allowed and o.action == "attack"
                    and any(not t.why for t in o.targets)]  # within reach
            if opts:
                o = max(opts, key=lambda o: max(t.effect or 0.0 for t in o.targets
                                                if not t.why))
                t = max((t for t in o.targets if not t.why), key=lambda t: t.effect or 0.0)
                assert o.attack is not None
                step = ("act", {"action": "attack", "target": t.id, "attack": o.attack.id})
            else:
                step = ("end", {})
        ev = command(a, step)
        steps.append((step, recorded[start:], fight_rolls(ev)))
    assert any(faces for (kind, _), faces, _ in steps if kind == "referee")
    assert any(faces for (kind, _), faces, _ in steps if kind == "act")

    b = game(pack, seed=seed, dice_mode="physical")
    b.start_fight(["madame_undertow", "hornet_drones"], dice=init)
    b.set_fight_dice("physical")
    assert b.tracker() == rows
    for step, faces, rolled in steps:
        ev = command(b, step)
        for f in faces:
            assert b.fight_need is not None
            ev = b.fight_die(f)
        assert b.fight_need is None
        assert fight_rolls(ev) == rolled
    assert b.fighting == a.fighting
    for x in a.state.actors:
        assert b.state.actors[x].conditions == a.state.actors[x].conditions
        assert b.state.actors[x].tracks == a.state.actors[x].tracks


# ------------------------------------------------------------------ bad input


def refused(g: Game, call: Any, match: str) -> None:
    """``call`` raises IllegalAction saying ``match`` and changes nothing."""
    state, n = dump(g), len(list(g.store.events()))
    with pytest.raises(IllegalAction, match=match):
        call()
    assert dump(g) == state
    assert len(list(g.store.events())) == n


def test_bad_input_is_refused_with_a_clear_message(pack: Pack) -> None:
    g = game(pack, dice_mode="physical")
    refused(g, lambda: g.fight_act("attack"), "no fight under way")
    refused(g, lambda: g.start_fight(["the_dockmaster"]), "no character or stat block")
    refused(g, lambda: g.start_fight([]), "at least one foe")
    g.start_fight(["the_tallyman"], dice=[19, 1, 1, 1])
    refused(g, lambda: g.start_fight(["the_tallyman"]), "already under way")
    assert g.fight is not None and g.fight.encounter.acting == "keystone"
    refused(g, lambda: g.fight_act("teleport"), "unknown action 'teleport'")
    refused(g, lambda: g.fight_act("attack", target="lamplight", attack="granite_fist"),
            "Lamplight is not a foe still in the fight")
    refused(g, lambda: g.fight_act("attack", target="nobody", attack="granite_fist"),
            "no character 'nobody'")
    refused(g, lambda: g.fight_act("attack", target="the_tallyman", attack="laser_eyes"),
            "has no attack 'laser_eyes'")
    refused(g, lambda: g.fight_act("attack", target="the_tallyman", attack="granite_fist",
                                   maneuvers={"sneaky": 1}), "unknown maneuver 'sneaky'")
    refused(g, lambda: g.fight_act("aid", target="the_tallyman"),
            "The Tallyman is not an ally")
    refused(g, lambda: g.fight_act("move", actor="lamplight"),
            "it is Keystone's turn, not Lamplight's")
    refused(g, lambda: g.fight_act("move", actor="the_tallyman"), "the referee plays")
    refused(g, g.referee_step, "not the referee's turn")
    refused(g, lambda: g.fight_die(12), "no die is awaited")
    refused(g, lambda: g.take_over("nobody"), "not in the fight")
    refused(g, lambda: g.set_fight_dice("loaded"), "seeded or physical")
    g.fight_act("attack", target="the_tallyman", attack="granite_fist")
    assert g.fight_need is not None
    refused(g, lambda: g.fight_die(21), "a d20 shows 1 to 20, not 21")
    refused(g, lambda: g.fight_die(0), "a d20 shows 1 to 20, not 0")
    refused(g, lambda: g.fight_act("move"), "waiting for a d20")
    refused(g, g.end_turn, "waiting for a d20")
    g.fight_die(1)  # a natural 1: a miss, and the fight goes on
    assert g.fight_need is None and g.fight is not None


@settings(max_examples=12, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), villain=st.sampled_from(["the_tallyman",
                                                            "madame_undertow"]),
       minions=st.sampled_from(["dockside_crew", "hornet_drones"]),
       referee_dice=st.sampled_from(["seeded", "physical"]))
def test_random_play_with_entered_dice_only_ever_refuses_cleanly(
        pack: Pack, seed: int, villain: str, minions: str, referee_dice: str) -> None:
    """Random actions, targets, maneuvers and options from the options offered, random faces:
    anything refused is an IllegalAction that changed nothing, and the fight ends."""
    rnd = random.Random(seed)
    g = game(pack, seed=seed, dice_mode="physical")
    g.start_fight([villain, minions], dice=[rnd.randint(1, 20) for _ in range(8)])
    g.set_fight_dice(referee_dice)
    for _ in range(1500):
        if not g.fighting:
            break
        if g.fight_need is not None:
            g.fight_die(rnd.randint(1, 20))
            continue
        if g.referee_turn and rnd.random() < 0.9:
            g.referee_step()
            continue
        assert g.fight is not None and g.fight.encounter.acting is not None
        if g.referee_turn:
            g.take_over(g.fight.encounter.acting)
        opts = [o for o in g.fight_options() if o.allowed and o.cost != "reaction"]
        if not opts or rnd.random() < 0.1:
            g.end_turn()
            continue
        o = rnd.choice(opts)
        kw: dict[str, Any] = {}
        if o.targets and rnd.random() < 0.85:  # sometimes none named
            kw["target"] = rnd.choice(o.targets).id
        if o.attack:
            kw["attack"] = o.attack.id
        if o.action in ("attack", "charge") and rnd.random() < 0.3:
            kw["maneuvers"] = {rnd.choice(["accurate", "all_out", "defensive",
                                           "power_attack"]): rnd.randint(0, 2)}
        if rnd.random() < 0.1:
            kw["options"] = {rnd.choice(["finishing", "routine", "kill", "slam"]): True}
        before = dump(g)
        try:
            g.fight_act(o.action, **kw)
        except IllegalAction as e:
            assert str(e)
            assert dump(g) == before
    assert not g.fighting


def test_reopened_in_the_middle_of_a_team_attack_keeps_the_dice_entered(
        tmp_path: Path) -> None:
    g = new_game(tmp_path, system=SYSTEM, name="Harbor flow", hero_name="Keystone",
                 archetype="keystone", seed=5, dice_mode="physical", campaign_id="harbor")
    g.start_fight(["dockside_crew"], dice=[1, 19])
    g.set_fight_dice("physical")
    for _ in range(4):  # crew 1 to 4 delay to the slowest of the team, crew 5
        g.referee_step()
        g.referee_step()
    g.referee_step()  # the crew's team attack, chosen
    assert g.fight is not None and g.fight.pending is not None and g.fight.pending.team
    g.referee_step()
    for face in (15, 2, 15):  # crew 5 (the leader), crew 1, crew 2
        g.fight_die(face)
    need, state = g.fight_need, dump(g)
    assert need is not None and need.who == "Dockside Crew 3"
    g2 = reopened(tmp_path, g)
    try:
        assert dump(g2) == state and g2.fight_need == need
        assert g2.fight is not None and g2.fight.pending is not None
        assert g2.fight.pending.dice == [15, 2, 15]
        for face in (15, 2):
            g2.fight_die(face)
        ev = g2.fight_die(10)  # Keystone's Toughness
        landed = [e["text"] for e in ev if e["type"] == "FightActed"
                  and e["action"] == "team_attack"]
        assert landed == ["The team attack lands at rank 5 (rank 3 +2 from the others' hits)."]
    finally:
        close_game(g2)


def test_a_fight_saved_with_the_old_unused_pace_still_reads() -> None:
    from engine.rules.encounter import Encounter
    from engine.rules.fight.state import Fight

    old = {"encounter": Encounter(id="f1").model_dump(mode="json"), "pace": "step"}
    assert "pace" not in Fight.model_validate(old).model_dump()
