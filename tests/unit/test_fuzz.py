"""The fuzzer's families as properties: scripts, CLI arguments and content mutations.

No input may end in a traceback: every failure is an ``EngineError`` (one clear line from the
CLI). Examples stay few (CI time matters); every crasher found is also an explicit case in
``test_script_model.py``, ``test_validate.py`` or ``test_cli.py``.
"""

from __future__ import annotations

import contextlib
import math
import os
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.checks import load_checked
from engine.cli import main
from engine.content.loader import get_pack
from engine.errors import ContentError, EngineError
from engine.script import ACTIONS, STEP_KEYS, run_script

ROOT = Path(__file__).resolve().parents[2]
MASKS = get_pack("masks")
COW = get_pack("city-of-whispers")
MM3E = get_pack("mutants-and-masterminds")
PANELS = get_pack("panels")
FUZZ = settings(max_examples=int(os.environ.get("H2_FUZZ", "120")), deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])

# --------------------------------------------------------------------------- values

junk = st.one_of(
    st.none(), st.booleans(), st.integers(-(10**30), 10**30),
    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=12),
    st.lists(st.integers(-3, 30), max_size=4), st.dictionaries(st.text(max_size=5),
                                                               st.integers(), max_size=2),
)
ids = st.sampled_from(["1", "2", "0", "resist", "err", "team", "influence", "angry", "guilty",
                       "hopeless", "danger", "freak", "x", "compensation", "heat", "kept",
                       "gm_chooses", "accept", "another"])


def step_values(pack: Any) -> dict[str, st.SearchStrategy[Any]]:
    """Plausible values per step key (sometimes junk), for one pack."""
    moves = st.sampled_from([*pack.moves, "suggested", "none", "punch_everyone"])
    npcs = st.sampled_from(["Rosalind", "Dusk", "Tin", "nobody", "rosalind"])
    face = st.integers(-1, 21)
    return {
        "fiction": st.one_of(st.text(max_size=30), st.sampled_from(
            ["I punch the drone", "I talk Dusk down", "I look around", "I comfort Tin"])),
        "move": moves, "target": npcs,
        "dice": st.one_of(st.lists(face, max_size=4),
                          st.lists(st.lists(face, min_size=2, max_size=3), max_size=3)),
        "roll": st.one_of(st.booleans(), st.integers(-5, 120)),
        "choose": st.lists(st.one_of(ids, st.lists(ids, max_size=3), st.integers(0, 5)),
                           max_size=3),
        "adjust": st.one_of(ids, st.lists(ids, max_size=2)),
        "answer": st.one_of(
            st.sampled_from(["accept", "another", "She works for Dusk"]), st.text(max_size=12),
            st.lists(st.one_of(st.sampled_from(["accept", "another"]), st.text(max_size=8)),
                     max_size=3)),
        "spend_team": st.integers(0, 3), "stat": ids,
        "advantage": st.sampled_from(["advantage", "disadvantage", "none", "sideways"]),
        "params": st.dictionaries(st.sampled_from(["complexity", "x"]), st.integers(-2, 12),
                                  max_size=2),
        "declare": st.one_of(ids, st.lists(ids, max_size=2)),
        "auto": st.booleans(), "suggested": st.booleans(),
        "do": st.sampled_from(sorted(ACTIONS)),
        "text": st.text(max_size=20), "cleared": st.lists(ids, max_size=2),
        "title": st.text(max_size=10), "location": st.text(max_size=10),
        "stakes": st.text(max_size=10), "opening": st.text(max_size=10),
        "present": st.lists(npcs, max_size=2), "name": st.text(max_size=10),
        "role": st.sampled_from(["adult", "villain", "teammate", "bystander", "alien", "rival"]),
        "note": st.text(max_size=10), "condition": ids, "npc": npcs,
        "question": st.text(max_size=10),
        "likelihood": st.sampled_from(["even", "likely", "certain", "maybe"]),
        "reroll": st.integers(0, 3), "template": st.sampled_from(["heist", "nope"]),
        "rank": st.sampled_from(["dangerous", "epic", "", "legendary"]),
        "threat": st.sampled_from(["heist", "nope"]), "delta": st.integers(-3, 8),
        "who": st.sampled_from(["hero", "Nova", "Rosalind", "campaign", "nobody"]),
        "what": st.sampled_from(["condition", "stat", "track", "pool", "clock", "influence",
                                 "influenced_by", "hp"]),
        "key": ids, "value": st.one_of(st.booleans(), st.integers(-4, 8)),
        "reason": st.text(max_size=10),
        "hero": st.sampled_from(["Nova", "nova", "Wren", "Zed", ""]),
        "archetype": st.one_of(st.none(), st.sampled_from(
            [*(a.id for a in pack.system.archetypes), "nope"])),
        "stats": st.dictionaries(st.sampled_from([*pack.stats, "luck"]),
                                 st.integers(-3, 4), max_size=5),
        "thread": st.sampled_from(["t1", "t2", "Rescue Tin", "nope", ""]),
        "fact": st.sampled_from(["f1", "f2", "Tin knows", "nope", ""]),
        "about": st.one_of(npcs, st.lists(st.sampled_from(["Tin", "hero", "nobody"]),
                                          max_size=2)),
        "where": st.one_of(st.text(max_size=10), st.sampled_from(["captured", ""])),
        "stance": st.one_of(st.text(max_size=8), st.sampled_from(["hostile", "warm", "x"])),
        "comment": junk,
        **(panels_fight_values() if pack.system.ruleset == "panels" else fight_values()),
    }


FOES = st.sampled_from(["the_tallyman", "dockside_crew", "Madame Undertow", "hornet_drones",
                        "Dusk", "nope", ""])
FIGHT_ACTIONS = st.sampled_from(["attack", "charge", "aim", "defend", "recover", "stand",
                                 "drop_prone", "move", "demoralize", "feint", "aid", "grab",
                                 "escape", "trip", "delay", "surrender", "flee", "disarm",
                                 "smash", "ready", "drag", "grab_damage", "command", "crawl",
                                 "run", "drop_item", "pick_up", "counter_trip", "readied",
                                 "release", "end_turn", "nope"])
WHO = st.sampled_from(["the_tallyman", "dockside_crew_1", "Dockside Crew 2", "keystone",
                       "Lamplight", "slipstream", "nobody", ""])


def fight_values() -> dict[str, st.SearchStrategy[Any]]:
    """Plausible values of the fight steps (sometimes junk)."""
    option = st.one_of(st.booleans(), st.integers(-5, 10**6), st.sampled_from(
        ["partial", "total", "complete", "added_effect", "x", ""]))
    return {
        "fight": st.fixed_dictionaries({"foes": st.lists(FOES, max_size=3)}, optional={
            "surprised": st.lists(st.sampled_from(["villains", "heroes", "keystone", "x"]),
                                  max_size=2),
            "dice": st.lists(st.integers(-1, 22), max_size=12),
            "referee_dice": st.sampled_from(["seeded", "physical", "x"])}),
        "act": st.fixed_dictionaries({"action": FIGHT_ACTIONS}, optional={
            "target": WHO, "actor": WHO,
            "attack": st.sampled_from(["granite_fist", "Light Lance", "faultline_stomp",
                                       "pistol", "nope"]),
            "maneuvers": st.dictionaries(st.sampled_from(
                ["power_attack", "all_out", "accurate", "defensive", "x"]),
                st.integers(-1, 3), max_size=2),
            "options": st.dictionaries(st.sampled_from(
                ["finishing", "kill", "routine", "hero_point", "distance", "cover",
                 "concealment", "crit", "readied", "slam", "item", "trigger", "action"]),
                option, max_size=3)}),
        "end_turn": st.booleans(),
        "referee": st.sampled_from(["step", "run", "auto", "manual", "x"]),
        "take_over": WHO, "hand_back": WHO, "join_fight": st.one_of(FOES, WHO),
        "end_fight": st.text(max_size=10),
        "die": st.one_of(st.integers(-2, 25), st.lists(st.integers(0, 22), max_size=3)),
    }


PANELS_FOES = st.sampled_from(["Cutglass", "cutglass", "cistern_cutter", "the_foundry_crew",
                               "gantry", "Tinmarket Tough", "Dusk", "nope", ""])
PANELS_WHO = st.sampled_from(["cutglass", "Cistern Cutter", "the_foundry_crew_2", "Gantry",
                              "nightjar", "Quarrel", "nobody", ""])
PANELS_ACTIONS = st.sampled_from(["attack", "move", "catch_breath", "first_aid", "flee",
                                  "surrender", "end_turn", "grab", "escape", "use_power",
                                  "drop_item", "pick_up", "drop_prone", "stand", "recover",
                                  "charge", "nope"])
PANELS_ANSWERS = st.sampled_from(["dodge", "none", "take it", "parry:fighting_staff",
                                  "Parry with Crossbow Stock", "parry fists", "parry:nope",
                                  "roll", "Roll the d6", "1", "6", "7", "Knocked flat", ""])


def panels_fight_values() -> dict[str, st.SearchStrategy[Any]]:
    """Plausible values of the panels game's fight steps (sometimes junk), and answers to
    what its fights ask (a hero's dodge or parry, a critical hit's effect)."""
    option = st.one_of(st.booleans(), st.integers(-5, 10**6), st.sampled_from(
        ["Fighting Staff", "crossbow", "Owl Sight", "x", ""]))
    return {
        "fight": st.fixed_dictionaries({"foes": st.lists(PANELS_FOES, max_size=3)}, optional={
            "surprised": st.lists(st.sampled_from(["villains", "heroes", "x"]), max_size=1),
            "dice": st.lists(st.integers(-1, 8), max_size=4),
            "referee_dice": st.sampled_from(["seeded", "physical", "x"])}),
        "act": st.fixed_dictionaries({"action": PANELS_ACTIONS}, optional={
            "target": PANELS_WHO, "actor": PANELS_WHO,
            "attack": st.sampled_from(["Fighting Staff", "weighted_bolas", "Crossbow",
                                       "Blunt Bolt", "Glass Edges", "fists", "nope"]),
            "maneuvers": st.dictionaries(st.sampled_from(["power_attack", "x"]),
                                         st.integers(-1, 3), max_size=1),
            "options": st.dictionaries(st.sampled_from(
                ["gang", "to", "power", "item", "form", "target", "x"]), option, max_size=2)}),
        "end_turn": st.booleans(),
        "referee": st.sampled_from(["step", "run", "auto", "manual", "x"]),
        "take_over": PANELS_WHO, "hand_back": PANELS_WHO,
        "join_fight": st.one_of(PANELS_FOES, PANELS_WHO),
        "end_fight": st.text(max_size=10),
        "die": st.one_of(st.integers(-2, 25), st.lists(st.integers(0, 22), max_size=3)),
        "choose": st.one_of(PANELS_ANSWERS, st.lists(st.one_of(PANELS_ANSWERS, ids,
                                                               st.integers(0, 7)), max_size=3)),
    }


def steps_for(pack: Any) -> st.SearchStrategy[list[dict[str, Any]]]:
    values = step_values(pack)
    keys = sorted(STEP_KEYS)

    @st.composite
    def step(draw: Any) -> dict[str, Any]:
        chosen = draw(st.lists(st.sampled_from(keys), min_size=1, max_size=5, unique=True))
        out = {}
        for k in chosen:
            # mostly plausible values, sometimes any junk at all (wrong types everywhere)
            out[k] = draw(st.one_of(values[k], junk) if draw(st.integers(0, 5)) == 0
                          else values[k])
        return out

    return st.lists(step(), max_size=6)


CAMPAIGNS = {
    "masks": {"name": "Fuzz", "system": "masks", "seed": 3,
              "hero": {"name": "Nova", "archetype": "signal_fire"},
              "npcs": [{"name": "Rosalind", "role": "adult"}, {"name": "Dusk", "role": "villain"},
                       {"name": "Tin", "role": "teammate"}]},
    "city-of-whispers": {"name": "Fuzz", "system": "city-of-whispers", "seed": 3,
                         "hero": {"name": "Ines", "archetype": COW.system.archetypes[0].id},
                         "npcs": [{"name": "Rosalind", "role": "contact"},
                                  {"name": "Dusk", "role": "rival"}]},
    "mutants-and-masterminds": {"name": "Fuzz", "system": "mutants-and-masterminds",
                                "seed": 3, "hero": {"name": "Keystone", "archetype": "keystone"},
                                "party": [{"name": "Lamplight", "archetype": "lamplight"}],
                                "npcs": [{"name": "Dusk", "role": "villain"}]},
    "panels": {"name": "Fuzz", "system": "panels", "seed": 3,
               "hero": {"name": "Nightjar", "archetype": "nightjar"},
               "party": [{"name": "Quarrel", "archetype": "quarrel"}],
               "npcs": [{"name": "Cutglass", "role": "villain"}]},
}


def play(data: Any) -> None:
    """Run a script in memory: only ``EngineError`` may come out."""
    try:
        run_script(data, saves=None, content=[], campaign=None, emit=lambda e: None)
    except EngineError as e:
        assert str(e).strip(), "an error must say something"
        assert "Traceback" not in str(e)


@FUZZ
@given(steps_for(MASKS))
def test_fuzzed_masks_scripts_never_traceback(steps: list[dict[str, Any]]) -> None:
    play({"campaign": CAMPAIGNS["masks"], "steps": [{"do": "start_scene"}, *steps]})


@FUZZ
@given(steps_for(COW))
def test_fuzzed_city_scripts_never_traceback(steps: list[dict[str, Any]]) -> None:
    play({"campaign": CAMPAIGNS["city-of-whispers"], "steps": steps})


@FUZZ
@given(st.lists(st.sampled_from([
    {"fight": {"foes": ["the_tallyman", "dockside_crew"]}},
    {"fight": {"foes": ["hornet_drones"], "surprised": ["villains"]}}]), min_size=1,
    max_size=1), steps_for(MM3E))
def test_fuzzed_mm3e_fight_scripts_never_traceback(start: list[dict[str, Any]],
                                                   steps: list[dict[str, Any]]) -> None:
    play({"campaign": CAMPAIGNS["mutants-and-masterminds"], "steps": [*start, *steps]})


PANELS_FUZZ = settings(FUZZ, max_examples=max(1, FUZZ.max_examples // 4))
"""Fewer examples for the panels game: its fights compute exact response odds on every hit."""


@PANELS_FUZZ
@given(st.lists(st.sampled_from([
    {"fight": {"foes": ["Cutglass", "cistern_cutter"]}},
    {"fight": {"foes": ["gantry", "the_foundry_crew"], "referee_dice": "physical"}}]),
    min_size=1, max_size=1), st.sampled_from(["seeded", "physical"]), steps_for(PANELS))
def test_fuzzed_panels_fight_scripts_never_traceback(start: list[dict[str, Any]], dice: str,
                                                     steps: list[dict[str, Any]]) -> None:
    play({"campaign": {**CAMPAIGNS["panels"], "dice": dice}, "steps": [*start, *steps]})


campaign_values = st.fixed_dictionaries({}, optional={
    "name": st.one_of(st.text(max_size=10), junk), "system": st.one_of(
        st.sampled_from(["masks", "city-of-whispers", "nope"]), junk),
    "seed": junk, "dice": st.one_of(st.sampled_from(["seeded", "physical", "x"]), junk),
    "hero": st.one_of(junk, st.fixed_dictionaries({}, optional={
        "name": junk, "archetype": st.one_of(st.sampled_from(["signal_fire", "nope"]), junk),
        "stats": st.one_of(junk, st.dictionaries(
            st.sampled_from(["danger", "freak", "savior", "superior", "mundane", "x"]),
            st.one_of(st.integers(-3, 3), junk), max_size=6))})),
    "npcs": st.one_of(junk, st.lists(st.one_of(junk, st.fixed_dictionaries(
        {"name": st.one_of(st.text(max_size=8), junk),
         "role": st.one_of(st.sampled_from(["adult", "villain", "alien"]), junk)})),
        max_size=3)),
})


@FUZZ
@given(campaign_values, st.one_of(junk, st.lists(junk, max_size=3)))
def test_fuzzed_campaigns_and_step_lists_never_traceback(campaign: dict[str, Any],
                                                         steps: Any) -> None:
    play({"campaign": campaign, "steps": steps})


# --------------------------------------------------------------------------- script files


@FUZZ
@given(st.one_of(
    st.text(max_size=60),
    st.lists(st.sampled_from(["campaign:", " {}", "steps:", " - ", "do: ", "undo", "&a ",
                              "*a", "[", "]", "{", "}", ",", "\n", "  ", ": ", "1", ".nan",
                              "!!python/object:os.system", "'", '"', "? ", "|", "\t"]),
             max_size=25).map("".join)))
def test_fuzzed_script_files_are_one_clean_line(tmp_path: Path, capsys: Any, text: str) -> None:
    path = tmp_path / "fuzz.yaml"
    path.write_text(text, encoding="utf-8")
    code = main(["script", str(path), "--dry-run"])
    _, err = capsys.readouterr()
    if code:
        assert err.startswith("sidekick: error: ") and "Traceback" not in err
        assert err.count("\n") <= 12


# --------------------------------------------------------------------------- CLI arguments

words = st.one_of(
    st.sampled_from(["odds", "roll", "validate", "script", "list", "export", "new", "--seed",
                     "--times", "--dc", "-m", "--modifier", "--system", "--bands",
                     "--advantage", "advantage", "2d6", "3d6kh2", "d20+5", "8d20", "0d6",
                     "directly_engage", "masks", "city-of-whispers", "--json", "-1", "7",
                     "9" * 5000, "2d6+" + "9" * 4400, "nan", "--campaign", "x"]),
    st.text(max_size=8))


@settings(max_examples=int(os.environ.get("H2_FUZZ_CLI", "150")), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(words, min_size=1, max_size=6))
def test_fuzzed_cli_arguments_never_traceback(tmp_path: Path, capsys: Any,
                                              argv: list[str]) -> None:
    if argv[0] in ("new", "script"):
        argv = ["--saves", str(tmp_path / "saves"), *argv]
    try:
        main(argv)
    except SystemExit as e:  # argparse: a usage error is one clean line too
        assert e.code in (0, 2)
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    assert len(out) < 2_000_000


# --------------------------------------------------------------------------- content

MUTATIONS: list[tuple[str, Any]] = [
    ("narration", "{hero[99]}"), ("narration", "{0} {} }"), ("narration", "{hero:>999999999}"),
    ("dice", "8d20"), ("dice", "20d1000"), ("dice", "4d30"), ("trigger", "self"),
    ("trigger", "pair"), ("doom", "{villain!r:{hero}}"), ("clamp", [4, -3]),
    ("bands", []), ("count", 0), ("count", math.inf),
]


@settings(max_examples=int(os.environ.get("H2_FUZZ_CONTENT", "25")), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(MUTATIONS), min_size=1, max_size=3),
       st.integers(0, 16))
def test_fuzzed_content_fails_validation_or_plays(tmp_path_factory: Any, muts: list[Any],
                                                   which: int) -> None:
    path = tmp_path_factory.mktemp("pack") / "masks"
    shutil.copytree(ROOT / "content" / "masks", path)
    docs = {n: yaml.safe_load((path / f"{n}.yaml").read_text()) for n in ("moves", "gm",
                                                                           "system")}
    moves = docs["moves"]["moves"]
    move = moves[which % len(moves)]
    for kind, value in muts:
        if kind == "narration":
            docs["gm"]["moves"][which % len(docs["gm"]["moves"])]["narration"].append(value)
        elif kind == "doom":
            docs["gm"]["threats"][0]["doom"] = value
        elif kind == "dice" and move.get("roll"):
            move["roll"]["dice"] = value
        elif kind == "trigger":
            other = moves[(which + 1) % len(moves)] if value == "pair" else move
            for m, nxt in ((move, other), (other, move)):
                out = m.get("result") or next(iter(m.get("outcomes", {}).values()))
                out.setdefault("effects", []).append({"type": "trigger_move", "move": nxt["id"]})
        elif kind == "clamp":
            docs["system"]["modifier_clamp"] = value
        elif kind == "bands":
            docs["system"]["bands"]["default"] = value
        elif kind == "count":
            for m in moves:
                for out in m.get("outcomes", {}).values():
                    if out.get("choose"):
                        out["choose"]["count"] = value
                        break
    for n, d in docs.items():
        (path / f"{n}.yaml").write_text(yaml.safe_dump(d, sort_keys=False))
    try:
        pack = load_checked(path)  # what validate and a new campaign check
    except ContentError as e:
        assert e.problems and all("\n" not in p for p in e.problems)
        return
    # it validated: then it must play without a traceback (a few turns of every kind)
    from engine.game import Game

    game = Game.new(pack, name="Fuzz", hero_name="Nova", archetype="signal_fire",
                    npcs=[("Dusk", "villain", ""), ("Tin", "teammate", "")], seed=which)
    for step in ({"do": "start_scene"}, {"move": move["id"], "target": "Dusk", "auto": True},
                 {"do": "ask_gm", "auto": True}, {"do": "frame_scene"}):
        from engine.script import play_step

        with contextlib.suppress(EngineError):
            play_step(game, step)


@pytest.mark.parametrize("text", ["[" * 50_000, "- " * 50_000], ids=["flow", "block"])
def test_deep_script_files_do_not_crash_the_parser(tmp_path: Path, capsys: Any,
                                                   text: str) -> None:
    path = tmp_path / "deep.yaml"
    path.write_text(text)
    assert main(["script", str(path), "--dry-run"]) == 1
    assert "nested more than 64 levels deep" in capsys.readouterr().err


def _leaves(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[tuple[Any, ...], Any]]:
    if isinstance(node, dict):
        return [x for k, v in node.items() for x in _leaves(v, (*path, k))]
    if isinstance(node, list):
        return [x for i, v in enumerate(node) for x in _leaves(v, (*path, i))]
    return [(path, node)]


LEAF_JUNK = [0, -1, 13, 10**6, "", "x", "{hero", "{0}", "none", "choice", "9d9", True, None,
             [], {}, "directly_engage", "angry", "team", "potential", "strong_hit"]


@settings(max_examples=int(os.environ.get("H2_FUZZ_CONTENT", "20")), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(["masks", "city-of-whispers"]),
       st.lists(st.tuples(st.sampled_from(["system", "moves", "gm", "tables"]),
                          st.integers(0, 10**6), st.sampled_from(LEAF_JUNK)),
                min_size=1, max_size=3),
       st.integers(0, 99))
def test_any_leaf_of_content_changed_fails_validation_or_plays(
        tmp_path_factory: Any, pack_id: str, edits: list[tuple[str, int, Any]],
        seed: int) -> None:
    from engine.game import Game
    from engine.script import play_step

    path = tmp_path_factory.mktemp("leaf") / pack_id
    shutil.copytree(ROOT / "content" / pack_id, path)
    docs = {n: yaml.safe_load((path / f"{n}.yaml").read_text()) for n in
            ("system", "moves", "gm", "tables")}
    for name, index, value in edits:
        leaves = [p for p, _ in _leaves(docs[name]) if p]
        where = leaves[index % len(leaves)]
        node = docs[name]
        for key in where[:-1]:
            node = node[key]
        node[where[-1]] = value
    for n, d in docs.items():
        (path / f"{n}.yaml").write_text(yaml.safe_dump(d, sort_keys=False))
    try:
        pack = load_checked(path)  # what validate and a new campaign check
    except ContentError:
        return
    roles = pack.system.roles
    game = Game.new(pack, name="Leaf", hero_name="Nova",
                    archetype=pack.system.archetypes[0].id if pack.system.archetypes else None,
                    npcs=[("Dusk", roles[-1], ""), ("Tin", roles[0], "")], seed=seed)
    steps: list[dict[str, Any]] = [{"do": "start_scene"}]
    steps += [{"move": m, "target": "Dusk", "auto": True} for m in list(pack.moves)[:6]]
    steps += [{"do": d, "auto": True} for d in ("ask_gm", "frame_scene", "end_session")]
    for step in steps:
        with contextlib.suppress(EngineError):
            play_step(game, step)
