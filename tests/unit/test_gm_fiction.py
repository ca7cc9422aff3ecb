"""The GM follows the fiction: a miss gets the GM move its move calls for, about its target;
NPCs keep a stance toward each hero that only events change, and the GM's lines follow it;
threats left alone move toward their doom, and the villain is not in every framed scene."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from engine.content import schema as s
from engine.content.loader import Pack, cross_check, load_pack
from engine.errors import IllegalAction
from engine.game import Game
from engine.gm import scenes
from engine.gm.moves import legal, make_gm_move
from engine.journal import render_all
from engine.rules.state import CampaignState
from engine.rules.threats import threat_words

ROOT = Path(__file__).resolve().parents[2]
MASKS = load_pack(ROOT / "content" / "masks")
COW = load_pack(ROOT / "content" / "city-of-whispers")
NPCS = [("Rosalind", "adult", ""), ("Dusk Meridian", "villain", ""), ("Tin", "teammate", ""),
        ("Parveen", "bystander", "")]


def masks(seed: int = 5, npcs: list[tuple[str, str, str]] | None = None,
          present: list[str] | None = None) -> Game:
    """A Masks campaign; ``present``: who is in the opening scene (None: all but the
    villains, who start away)."""
    return Game.new(MASKS, name="Fiction", hero_name="Nova", archetype="signal_fire",
                    npcs=NPCS if npcs is None else npcs, seed=seed, present=present)


EVERYONE = [n for n, _, _ in NPCS]
"""Everyone in the opening scene, the villain included (the player says so)."""


def cow(seed: int = 7) -> Game:
    return Game.new(COW, name="Vell", hero_name="Mira", archetype="go_between", seed=seed,
                    npcs=[("Odile Farrow", "contact", ""), ("Brother Cask", "ally", ""),
                          ("Silas Quill", "rival", "")])


def settle(game: Game, out: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Answer every prompt with its first usable options until the flow is back to fiction."""
    while game.state.flow.stage != "fiction":
        stage = game.state.flow.stage
        if stage == "roll":
            out += game.roll([1, 1])
        elif stage == "target":
            out += game.choose_target(game.pending.options[0].id)
        elif stage == "adjust":
            out += game.adjust(None)
        else:
            p = game.pending
            usable = [o for o in p.options if not (o.disabled or None)]
            out += game.choose([o.id for o in usable[: max(p.min, 1)]])
    return out


def miss(game: Game, move: str, target: str | None = None) -> list[dict[str, Any]]:
    """Trigger ``move`` (at ``target``), roll double ones, settle what it asks."""
    if game.state.hero.taken_out:
        game.end_scene(list(game.state.hero.conditions))
        game.start_scene("again")
    out = game.trigger(move, target=target)
    if game.state.flow.stage == "roll":
        out += game.roll([1, 1])
    return settle(game, out)


def gm_made(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == "GMMoveMade"]


def of(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == kind]


# ------------------------------------------------------------------ a miss calls for its move


def with_move(pack: Pack, move_id: str, **update: Any) -> Pack:
    out = copy.copy(pack)
    out.moves = dict(pack.moves)
    out.moves[move_id] = pack.moves[move_id].model_copy(update=update)
    return out


def test_miss_gm_names_gm_moves_of_the_pack() -> None:
    assert MASKS.moves["directly_engage"].miss_gm[0] == "villain_strikes_back"
    assert not [p for p in cross_check(MASKS) if "miss_gm" in p]
    broken = with_move(MASKS, "provoke", miss_gm=["attention_turns", "no_such_move"])
    problems = [p for p in cross_check(broken) if "miss_gm" in p]
    assert len(problems) == 1 and "'no_such_move'" in problems[0]
    assert "moves.yaml" in problems[0] and "provoke" in problems[0]


@pytest.mark.parametrize("seed", [1, 2, 3, 5, 8, 13])
def test_a_failed_attack_on_a_present_villain_lets_the_villain_strike_back(seed: int) -> None:
    game = masks(seed, present=EVERYONE)
    assert game.state.actors["dusk_meridian"].present
    events = miss(game, "directly_engage")
    made = gm_made(events)
    assert [m["move"] for m in made] == ["villain_strikes_back"]
    assert "Dusk Meridian" in made[0]["text"]
    assert made[0]["reason"].startswith(
        "after a miss on Directly engage a threat; the miss calls for it; fits because")
    assert of(events, "ConditionMarked")  # the blow lands: a condition is marked
    journal = "\n".join(render_all(events, MASKS, {"dusk_meridian": "Dusk Meridian"}))
    assert "The villain strikes back" in journal


def test_the_next_miss_does_not_repeat_the_strike_back() -> None:
    game = masks(present=EVERYONE)
    first = gm_made(miss(game, "directly_engage"))[0]["move"]
    second = gm_made(miss(game, "directly_engage"))[0]["move"]
    assert first == "villain_strikes_back" and second != first


def test_with_no_villain_present_a_failed_attack_gets_another_fitting_move() -> None:
    game = masks()
    game.set_presence("Dusk Meridian", False)
    made = gm_made(miss(game, "directly_engage"))
    assert made[0]["move"] == "turn_move_back"  # the next one its miss calls for


@pytest.mark.parametrize("who", ["Rosalind", "Parveen", "Tin"])
def test_a_failed_provoke_turns_the_provoked_npcs_attention_on_you(who: str) -> None:
    game = masks()
    npc = game.state.npc_by_name(who)
    assert npc is not None
    before = game.stance(who)
    events = miss(game, "provoke", who)
    made = gm_made(events)
    assert made[0]["move"] == "attention_turns"
    assert who in made[0]["text"]
    changed = of(events, "StanceChanged")
    assert [(c["npc"], c["was"]) for c in changed] == [(npc.id, before)]
    assert game.stance(who) != before
    journal = "\n".join(render_all(events, MASKS, {npc.id: who}))
    assert f"{who} is now {changed[0]['stance']} toward you, was {before}" in journal


def test_the_gm_move_context_carries_the_failed_move_and_its_target() -> None:
    game = masks()
    ctx = {"move": "provoke", "band": "miss", "target": "parveen", "source": "Provoke"}
    step = make_gm_move(MASKS, game.state, "hard", ctx, game.rules)
    made = step.events[0]
    assert made.move == "attention_turns"  # type: ignore[attr-defined]
    assert step.push and step.push[0]["ctx"]["target"] == "parveen"
    # a hit, or a call that is not a miss, asks for no particular move
    hit = {**ctx, "band": "weak_hit"}
    picks = set()
    for i in range(30):
        game.state.event_no = 500 + i
        picks.add(make_gm_move(MASKS, game.state, "hard", hit, game.rules)
                  .events[0].move)  # type: ignore[attr-defined]
    assert len(picks) > 1


def test_city_of_whispers_a_failed_demand_turns_them_against_you() -> None:
    game = cow()
    game.set_presence("Silas Quill", False)  # no rival here to strike
    assert game.stance("Odile Farrow") == "neutral"
    events = miss(game, "direct_someone_to_act", "Odile Farrow")
    made = gm_made(events)
    assert made and made[0]["move"] == "turns_on_you"
    assert "Odile Farrow" in made[0]["text"]
    assert game.stance("Odile Farrow") == "wary"


def test_city_of_whispers_a_failed_demand_on_a_present_rival_lets_the_rival_strike() -> None:
    game = cow()
    made = gm_made(miss(game, "direct_someone_to_act", "Silas Quill"))
    assert made[0]["move"] == "rival_strikes"


# ------------------------------------------------------------------ stances


def test_stances_start_from_the_roles_defaults_in_content() -> None:
    game = masks()
    assert game.stance("Dusk Meridian") == "hostile"
    assert game.stance("Rosalind") == "neutral"
    assert game.stance("Tin") == "warm"
    assert game.state.actors["rosalind"].stance == {}  # nothing recorded until an event
    g2 = cow()
    assert g2.stance("Silas Quill") == "hostile" and g2.stance("Brother Cask") == "warm"


def test_set_stance_is_an_event_journaled_and_undone() -> None:
    game = masks()
    events = game.set_stance("Rosalind", "hostile", reason="she blames you for the fire")
    changed = of(events, "StanceChanged")
    assert len(changed) == 1 and changed[0]["stance"] == "hostile"
    assert game.state.actors["rosalind"].stance == {game.state.acting: "hostile"}
    journal = "\n".join(render_all(events, MASKS, {"rosalind": "Rosalind"}))
    assert "Rosalind is now hostile toward you, was neutral (she blames you for the fire)" \
        in journal
    assert of(game.set_stance("Rosalind", "hostile"), "StanceChanged") == []  # no change
    game.undo()
    game.undo()
    assert game.stance("Rosalind") == "neutral"
    with pytest.raises(IllegalAction, match="unknown stance"):
        game.set_stance("Rosalind", "furious")
    with pytest.raises(IllegalAction, match="no NPC"):
        game.set_stance("Nobody", "warm")


def test_stance_is_kept_per_hero_and_survives_a_save() -> None:
    game = Game.new(MASKS, name="Party", hero_name="Nova", archetype="signal_fire",
                    npcs=NPCS, seed=3,
                    party=[{"name": "Tern", "archetype": "signal_fire"}])
    tern = game.state.party[1]
    game.set_stance("Rosalind", "devoted", hero="Tern")
    assert game.stance("Rosalind", "Tern") == "devoted"
    assert game.stance("Rosalind") == "neutral"
    again = CampaignState.model_validate(game.state.model_dump(mode="json"))
    assert again.actors["rosalind"].stance == {tern: "devoted"}
    with pytest.raises(IllegalAction, match="no hero"):
        game.set_stance("Rosalind", "warm", hero="Rosalind")


def adult_lines(game: Game, tries: int = 300) -> list[tuple[str, str]]:
    """(GM move, text) of the GM moves about Rosalind, over many positions in the log."""
    out = []
    base = game.state.event_no
    for i in range(tries):
        game.state.event_no = base + 1000 + i
        for kind in ("hard", "soft"):
            e = make_gm_move(MASKS, game.state, kind, {}, game.rules).events[0]
            if "Rosalind" in e.text:  # type: ignore[attr-defined]
                out.append((e.move, e.text))  # type: ignore[attr-defined]
    game.state.event_no = base
    return out


SUPPORTER = "tell_who_they_are"
HARSH = "cut_them_down"


def test_a_hostile_adult_never_speaks_as_a_supporter_until_an_event_changes_it() -> None:
    game = masks(npcs=[("Rosalind", "adult", ""), ("Tin", "teammate", "")])
    assert legal(MASKS, game.state, next(m for m in MASKS.gm_moves if m.id == SUPPORTER),
                 game.rules)
    game.set_stance("Rosalind", "hostile")
    said = adult_lines(game)
    moves = {m for m, _ in said}
    assert SUPPORTER not in moves and HARSH in moves
    # in play too: a run of misses and looks to the GM never has her speak as a supporter
    made: list[dict[str, Any]] = []
    for _ in range(12):
        made += gm_made(miss(game, "assess_situation"))
        made += gm_made(settle(game, game.ask_gm()))
    assert all(m["move"] != SUPPORTER for m in made)
    # an event warms her: now she may define you kindly, and never cuts you down
    game.set_stance("Rosalind", "warm", reason="you saved her brother")
    moves = {m for m, _ in adult_lines(game)}
    assert SUPPORTER in moves and HARSH not in moves


def test_the_gm_move_is_about_the_npc_whose_stance_fits() -> None:
    game = masks(npcs=[("Rosalind", "adult", ""), ("Marcus", "adult", ""),
                       ("Tin", "teammate", "")])
    game.set_stance("Marcus", "hostile")
    assert all(move != HARSH for move, _ in adult_lines(game))  # Rosalind is neutral
    harsh = []
    base = game.state.event_no
    for i in range(300):
        game.state.event_no = base + 1000 + i
        e = make_gm_move(MASKS, game.state, "hard", {}, game.rules).events[0]
        if e.move == HARSH:  # type: ignore[attr-defined]
            harsh.append(e.text)  # type: ignore[attr-defined]
    assert harsh and all("Rosalind" not in t for t in harsh)


# ------------------------------------------------------------------ threats and time


def test_a_threat_ignored_for_n_scenes_moves_and_reaches_its_doom() -> None:
    game = masks()
    tid = next(iter(game.state.threats))
    threat = game.state.threats[tid]
    n = scenes.ignored_after(MASKS, threat)
    tdef = next(t for t in MASKS.gm.threats if t.id == tid)
    assert n == tdef.ignored_after and n >= 2  # from content
    events: list[dict[str, Any]] = []
    for scene in range(1, n * threat.size + 1):
        events += game.start_scene(f"Elsewhere {scene}", present=["Tin"])
        events += settle(game, game.end_scene())
        t = game.state.threats[tid]
        assert t.clock == min(scene // n, t.size)
    assert not game.state.threats[tid].active
    assert of(events, "DoomStruck")
    names = {"dusk_meridian": "Dusk Meridian", "tin": "Tin"}
    journal = "\n".join(render_all(events, MASKS, names))
    words = threat_words(MASKS, game.state, threat)  # the threat as it reads in a sentence
    assert f"Nobody stood against {words} this scene (a scene)" in journal
    assert f"{words[0].upper()}{words[1:]} moves forward (left alone for {n} scenes)" in journal
    assert "Doom:" in journal


def test_a_present_villain_nobody_acts_against_is_still_ignored() -> None:
    game = masks()
    tid = next(iter(game.state.threats))
    game.start_scene("Dusk is here", present=["Dusk Meridian"])
    game.end_scene()
    assert game.state.threats[tid].ignored == 1


def test_acting_against_the_threat_resets_its_count() -> None:
    game = masks()
    tid = next(iter(game.state.threats))
    n = scenes.ignored_after(MASKS, game.state.threats[tid])
    for i in range(n - 1):
        game.start_scene(f"Away {i}", present=["Tin"])
        game.end_scene()
    assert game.state.threats[tid].ignored == n - 1
    game.start_scene("Face to face", present=["Dusk Meridian"])
    miss(game, "provoke", "Dusk Meridian")
    events = game.end_scene()
    assert [(e["threat"], e["scenes"]) for e in of(events, "ThreatIgnored")] == [(tid, 0)]
    assert game.state.threats[tid].clock == 0
    assert "was confronted" in "\n".join(render_all(events, MASKS, {}))


def test_old_saves_without_counts_read_as_never_ignored() -> None:
    game = masks()
    dump = game.state.model_dump(mode="json")
    for t in dump["threats"].values():
        t.pop("ignored", None)  # saves leave out what is at its default anyway
        t.pop("confronted", None)
    for a in dump["actors"].values():
        a.pop("stance", None)
    again = CampaignState.model_validate(dump)
    assert all(t.ignored == 0 for t in again.threats.values())
    assert all(a.stance == {} for a in again.actors.values())


def test_framed_scenes_do_not_always_bring_the_villain() -> None:
    game = masks()
    tid = next(iter(game.state.threats))
    villain = game.state.threats[tid].npc
    with_villain = [villain in scenes.propose_scene(MASKS, game.state, reroll).present
                    for reroll in range(40)]
    assert any(with_villain) and not all(with_villain)
    assert sum(with_villain) < 30  # an empty clock: the villain mostly stays off-page


def test_a_pressing_threat_brings_its_villain_more_often() -> None:
    game = masks()
    tid = next(iter(game.state.threats))
    threat = game.state.threats[tid]
    calm = scenes.villain_chance(threat)
    pressing = scenes.villain_chance(threat.model_copy(update={"clock": threat.size - 1}))
    assert calm < pressing < 1


def test_stance_content_is_checked() -> None:
    bad_role = copy.copy(MASKS)
    bad_role.gm = MASKS.gm.model_copy(update={"stances": {"mentor": "warm"}})
    problems = [p for p in cross_check(bad_role) if "stances" in p]
    assert len(problems) == 1 and "'mentor'" in problems[0]
    with pytest.raises(ValidationError):
        s.GMPack.model_validate({"stances": {"adult": "furious"}})
    with pytest.raises(ValidationError):
        s.StanceEffect.model_validate({"type": "stance", "stance": "furious"})
    with pytest.raises(ValidationError):
        s.ThreatDef.model_validate({"id": "t", "name": "T", "doom": "d", "ignored_after": 0})


def test_a_stance_effect_without_a_target_changes_nothing() -> None:
    game = masks()
    eff = s.StanceEffect(type="stance", stance="devoted")
    assert game.interp._e_stance(game.state, eff, {"source": "x"}).events == []
    step = game.interp._e_stance(game.state, eff, {"source": "x", "target": "tin"})
    assert [e.stance for e in step.events] == ["devoted"]  # type: ignore[attr-defined]
