"""The Mutants & Masterminds pack's words: fight actions and maneuvers (actions.yaml), the GM's
moves and threats, tables, narration and detection examples, checked against the schema, the
mm3e rules modules' numbers and, once system.yaml exists, the whole pack's validation."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from engine.content import schema as s
from engine.content.loader import (
    FICTION_NAMES,
    GM_NAMES,
    THREAT_NAMES,
    THREAT_WORDS_NAMES,
    template_problems,
)
from engine.systems import RULESETS
from engine.systems.mm3e import actions as act
from engine.systems.mm3e import maneuvers as man
from engine.systems.mm3e.pack_files import word_ids

PACK = Path(__file__).resolve().parents[2] / "content" / "mutants-and-masterminds"

FIGHT_MORE_IDS = ["pick_up", "counter_trip", "counter_disarm"]
"""Actions of engine/systems/mm3e/fight_more.py that a player may declare: a move action and the
two counters offered after a foe's failed trip or melee-weapon disarm."""
EXAMPLE_MOVES = ["ability_check", "skill_check", "power_check", "resistance_check",
                 "face_hazard", "rest_and_recover", "start_fight"]
ROLES = frozenset({"hero_ally", "villain", "minion", "bystander"})
"""The pack's roles (system.yaml ``roles``): GM lines may name them as placeholders."""

SUMMARY_NUMBERS: dict[str, list[str]] = {
    "aid": [f"DC {act.AID_DC}"],
    "aim": [f"+{act.AIM_CLOSE_BONUS}", f"+{act.AIM_RANGED_BONUS}"],
    "charge": [str(act.CHARGE_PENALTY)],
    "crawl": [str(act.CRAWL_SPEED_CHANGE)],
    "disarm": [str(act.DISARM_CLOSE_PENALTY), str(act.DISARM_RANGED_PENALTY)],
    "escape": [str(act.GRAB_DC_BASE)],
    "grab": [str(act.GRAB_DC_BASE)],
    "run": [f"DC {act.RUN_DC}", f"+{act.RUN_SPEED_BONUS}"],
    "recover": [f"+{act.RECOVER_DEFENSE_BONUS}"],
    "smash": [str(act.SMASH_HELD_PENALTY)],
    "stand": [f"DC {act.STAND_ACROBATICS_DC}"],
    "trip": [str(act.TRIP_PENALTY)],
}
"""Numbers each action's summary states, from engine/systems/mm3e/actions.py."""


def _yaml(name: str) -> Any:
    return yaml.safe_load((PACK / name).read_text(encoding="utf-8"))


GM_WORDS = GM_NAMES | ROLES
"""Placeholders a GM move's words may use in this pack."""


@pytest.fixture(scope="module")
def words() -> dict[str, Any]:
    data = _yaml("actions.yaml")
    assert isinstance(data, dict)
    return data


def test_every_action_has_a_name_a_short_summary_and_15_examples(words: dict[str, Any]) -> None:
    assert sorted(words["actions"]) == word_ids()["actions"]  # the fight engine's table's
    for aid, entry in words["actions"].items():
        assert set(entry) == {"name", "cost", "summary", "examples"}, aid
        assert isinstance(entry["name"], str) and entry["name"].strip(), aid
        assert isinstance(entry["summary"], str) and 0 < len(entry["summary"]) < 60, aid
        ex = entry["examples"]
        assert 15 <= len(ex) <= 25, (aid, len(ex))
        assert all(isinstance(line, str) and line.strip() for line in ex), aid
        assert len({line.lower() for line in ex}) == len(ex), f"{aid}: a repeated example"


def test_no_example_line_belongs_to_two_actions(words: dict[str, Any]) -> None:
    seen: dict[str, str] = {}
    for aid, entry in words["actions"].items():
        for line in entry["examples"]:
            key = line.lower().strip()
            assert key not in seen, f"{line!r} is under {seen[key]} and {aid}"
            seen[key] = aid


def test_every_maneuver_has_a_name_a_summary_and_cues(words: dict[str, Any]) -> None:
    assert sorted(words["maneuvers"]) == word_ids()["maneuvers"]  # the conflict's maneuvers
    for mid, entry in words["maneuvers"].items():
        assert set(entry) == {"name", "summary", "cues"}, mid  # cues: the player's words
        assert entry["name"].strip() and 0 < len(entry["summary"]) < 60, mid
        cues = [c.lower() for c in entry["cues"]]
        assert cues and all(c.strip() for c in cues) and len(set(cues)) == len(cues), mid


def test_the_rules_actions_all_have_words(words: dict[str, Any]) -> None:
    """Every action a character chooses in engine/systems/mm3e/actions.py (not the reactions and
    the free upkeep the engine takes itself) has words."""
    engine_taken = {act.Action.MAINTAIN_GRAB}
    missing = [a.value for a in act.ACTIONS if a not in engine_taken
               and a.value not in words["actions"]]
    assert missing == []


def test_every_fight_handler_a_player_may_pick_has_words(words: dict[str, Any]) -> None:
    """The fight's handlers (fight_more's included, as the M&M ruleset loads them) all have
    words but the internal steps, such as a readied action's firing."""
    import engine.systems.mm3e.rules  # noqa: F401  (registers fight_more's handlers)
    from engine.systems.mm3e.fight_more import INTERNAL
    from engine.systems.mm3e.step import ACTIONS as HANDLERS

    assert set(FIGHT_MORE_IDS) <= set(HANDLERS)
    assert sorted(set(HANDLERS) - INTERNAL - set(words["actions"])) == []
    assert sorted(set(words["actions"]) - set(HANDLERS)) == []


@pytest.mark.parametrize(("aid", "cost"), [("pick_up", "Move action"),
                                           ("counter_trip", "Reaction"),
                                           ("counter_disarm", "Reaction")])
def test_fight_more_summaries_say_what_they_cost(words: dict[str, Any], aid: str,
                                                 cost: str) -> None:
    entry = words["actions"][aid]
    assert entry["summary"].startswith(f"{cost}:"), entry["summary"]
    assert 15 <= len(entry["examples"]) <= 25


@pytest.mark.parametrize("aid", sorted(SUMMARY_NUMBERS))
def test_summaries_state_the_rules_numbers(words: dict[str, Any], aid: str) -> None:
    summary = words["actions"][aid]["summary"]
    for number in SUMMARY_NUMBERS[aid]:
        assert number in summary, (aid, number, summary)


def test_trade_maneuver_summaries_state_the_seed_limit(words: dict[str, Any]) -> None:
    for mid in ("accurate", "all_out", "defensive", "power_attack"):
        summary = words["maneuvers"][mid]["summary"]
        assert f"-{man.SEED_MAX_TRADE}" in summary and f"+{man.SEED_MAX_TRADE}" in summary, mid


def test_gm_file_fits_the_schema_and_fills_its_templates() -> None:
    gm = s.GMPack.model_validate(_yaml("gm.yaml"))
    assert 12 <= len(gm.moves) <= 20  # issue 27 added a social rebuff
    assert len({g.id for g in gm.moves}) == len(gm.moves)
    for g in gm.moves:
        for text in g.narration:
            assert template_problems(text, GM_WORDS) == [], (g.id, text)
        for eff in g.effects:  # the shared vocabulary only: no other system's rule effects
            assert not isinstance(eff, s.Rule | s.TakeInfluence | s.ShiftLabels), g.id
    for th in gm.threats:
        assert len(th.steps) == th.size, th.id
        for text in [*th.steps, th.doom]:
            assert template_problems(text, THREAT_NAMES) == [], (th.id, text)



def test_villain_threats_fit_any_villain() -> None:
    """A new villain NPC gets a villain threat at random (engine.gm.scenes), so no villain
    threat names a ready-made character: its villain is always ``{villain}``."""
    gm = s.GMPack.model_validate(_yaml("gm.yaml"))
    names = [c["name"].removeprefix("The ") for c in _yaml("characters.yaml")["characters"]]
    villain_threats = [t for t in gm.threats if t.kind == "villain"]
    assert len(villain_threats) >= 3
    for th in villain_threats:
        words = " ".join([th.name, th.description, th.doom, *th.steps])
        assert not [n for n in names if n in words], th.id
        assert "{villain}" in th.doom, th.id


def test_complications_earn_a_hero_point_in_words() -> None:
    gm = s.GMPack.model_validate(_yaml("gm.yaml"))
    due = next(g for g in gm.moves if g.id == "complication_comes_due")
    assert all("hero point" in line for line in due.narration)


def test_narration_names_only_gm_moves_and_threats_of_the_pack() -> None:
    gm = s.GMPack.model_validate(_yaml("gm.yaml"))
    words = s.NarrationPack.model_validate(_yaml("narration.yaml"))
    assert set(words.moves) == {g.id for g in gm.moves}
    assert set(words.threats) == {t.id for t in gm.threats}
    for mid, parts in words.moves.items():
        for slot in ("open", "act", "stake"):
            for text in getattr(parts, slot):
                # the fiction's names: a line using one is said only when the fiction gave it
                assert template_problems(text, GM_WORDS | FICTION_NAMES) == [], (mid, slot,
                                                                                  text)
    for tid, tw in words.threats.items():
        for slot, known in THREAT_WORDS_NAMES.items():
            assert template_problems(getattr(tw, slot), known) == [], (tid, slot)


def test_tables_have_the_ids_the_gm_reads() -> None:
    tables = {t.id: t for t in s.TablesPack.model_validate(_yaml("tables.yaml")).tables}
    for tid in ("locations", "complications", "scene_openings"):
        assert 12 <= len(tables[tid].entries) <= 20, tid
    for tid in ("oracle_actions", "oracle_subjects", "meaning_descriptors", "meaning_qualities"):
        assert len(tables[tid].entries) >= 20, tid
    for e in tables["scene_openings"].entries:
        assert template_problems(e.text, GM_WORDS) == [], e.text


def test_examples_cover_the_moves_in_many_lines() -> None:
    ex = s.ExamplesPack.model_validate(_yaml("examples.yaml")).root
    assert set(ex) == {*EXAMPLE_MOVES, "none"}
    for mid in EXAMPLE_MOVES:
        assert 60 <= len(ex[mid]) <= 90, (mid, len(ex[mid]))
    assert len(ex["none"]) >= 120
    lines = [line.lower() for v in ex.values() for line in v]
    assert len(set(lines)) == len(lines), "an example line appears twice"


NO_SYSTEM = pytest.mark.skipif(not (PACK / "system.yaml").exists(),
                               reason="system.yaml not written yet")


@NO_SYSTEM
def test_the_pack_loads_and_its_examples_tell_the_moves_apart() -> None:
    from engine.checks import pack_warnings
    from engine.content.loader import load_pack

    pack = load_pack(PACK)
    assert set(pack.system.roles) == ROLES
    assert set(pack.examples) - {"none"} <= set(pack.moves)
    assert {"locations", "scene_openings"} <= set(pack.tables)
    assert pack_warnings(pack) == []


@NO_SYSTEM
@pytest.mark.skipif("mm3e" not in RULESETS, reason="the mm3e ruleset is not registered yet")
@pytest.mark.parametrize(("line", "aid", "not_aid"), [
    ("He couldn't sweep me, so I trip him back.", "counter_trip", "trip"),
    ("I stay on my feet and counter by tripping the crewman.", "counter_trip", "trip"),
    ("His disarm failed, so I rip his pipe away in return.", "counter_disarm", "disarm"),
    ("counter disarm the thug", "counter_disarm", "disarm"),
    ("I pick the Ledger Cane back up.", "pick_up", "drop_item"),
    ("retrieve my pistol", "pick_up", "disarm"),
    ("I trip the thug.", "trip", "counter_trip"),
    ("I knock the pistol out of his hand.", "disarm", "counter_disarm"),
    ("I drop the bag on the floor.", "drop_item", "pick_up"),
])
def test_the_fight_matcher_tells_fight_more_actions_from_their_neighbours(
        line: str, aid: str, not_aid: str) -> None:
    """Lines not in the file: a counter reads as a counter, not as the action it answers (and
    the other way round); picking up is not dropping."""
    from engine.content.loader import load_pack
    from engine.fight import _fight_matcher
    from engine.systems.mm3e.fight import action_words

    pack = load_pack(PACK)
    best = _fight_matcher(pack, action_words(pack)).suggest(line)
    assert best[0].move == aid, [(x.move, x.score) for x in best]
    assert not_aid != best[0].move


@NO_SYSTEM
@pytest.mark.skipif("mm3e" not in RULESETS, reason="the mm3e ruleset is not registered yet")
def test_the_pack_validates_against_its_ruleset() -> None:
    from engine.checks import load_checked

    pack = load_checked(PACK)
    assert {g.id for g in pack.gm_moves} == set(pack.narration.moves)


@NO_SYSTEM
@pytest.mark.skipif("mm3e" not in RULESETS, reason="the mm3e ruleset is not registered yet")
def test_a_complication_coming_due_gives_a_hero_point(tmp_path: Path) -> None:
    from engine.campaigns import new_game

    game = new_game(tmp_path, system="mutants-and-masterminds", name="due",
                    hero_name="Keystone", archetype="keystone", seed=1)
    game.start_scene(title="The pier", location="Pier Nine")
    for _ in range(40):  # seeded: the GM reaches this move within a few asks
        before = game.state.hero.tracks.get("hero_points", 0)
        made = [e["move"] for e in game.ask_gm() if e.get("type") == "GMMoveMade"]
        if made == ["complication_comes_due"]:
            assert game.state.hero.tracks["hero_points"] == before + 1
            return
        assert game.state.hero.tracks.get("hero_points", 0) == before, made
    pytest.fail("the GM never made complication_comes_due in 40 asks")
