"""The panels pack's draft content (content/panels/): characters, crit tables, fight actions and
the filled-in rules notes load, are well formed and agree with engine.systems.panels."""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import yaml

PACK = Path(__file__).resolve().parents[2] / "content" / "panels"
THIRD_PERSON = r"(He|She|The|Rivet|Nightjar|Voltaic|Quarrel|Cutglass|Gantry) "
"""How a told, third-person example starts."""


def _duplicate_keys(node: yaml.Node, path: str = "") -> list[str]:
    """Every mapping key that appears twice under the same mapping (yaml.safe_load hides them)."""
    out: list[str] = []
    if isinstance(node, yaml.MappingNode):
        seen: set[str] = set()
        for key, value in node.value:
            if key.value in seen:
                out.append(f"{path}.{key.value} (line {key.start_mark.line + 1})")
            seen.add(key.value)
            out += _duplicate_keys(value, f"{path}.{key.value}")
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            out += _duplicate_keys(item, f"{path}[{i}]")
    return out


def _load(name: str) -> Any:
    text = (PACK / name).read_text(encoding="utf-8")
    node = yaml.compose(text, Loader=yaml.SafeLoader)
    assert node is not None, f"{name} is empty"
    assert _duplicate_keys(node) == [], f"{name}: duplicate keys"
    return yaml.safe_load(text)


def _norm(line: str) -> str:
    return " ".join(re.sub(r"[^a-z0-9 ]", " ", line.lower()).split())


@pytest.fixture(scope="module")
def characters() -> list[dict[str, Any]]:
    data = _load("characters.yaml")
    assert set(data) == {"characters"}
    blocks = data["characters"]
    assert isinstance(blocks, list)
    return blocks


@pytest.fixture(scope="module")
def crits() -> dict[str, list[dict[str, Any]]]:
    data = _load("crits.yaml")
    assert set(data) == {"critical_hit", "critical_miss"}
    tables: dict[str, list[dict[str, Any]]] = data
    return tables


@pytest.fixture(scope="module")
def actions() -> dict[str, dict[str, Any]]:
    data = _load("actions.yaml")
    assert set(data) == {"actions"}
    found: dict[str, dict[str, Any]] = data["actions"]
    return found


# ------------------------------------------------------------------ characters


def test_roster_has_the_kinds_the_brief_asks_for(characters: list[dict[str, Any]]) -> None:
    kinds = [b["kind"] for b in characters]
    assert kinds.count("hero") == 4
    assert kinds.count("villain") == 3
    assert kinds.count("thug") == 3
    groups = [b for b in characters if b["kind"] == "thug group"]
    assert len(groups) == 1 and groups[0]["count"] >= 2


def test_character_names_unique(characters: list[dict[str, Any]]) -> None:
    ids = [re.sub(r"\W+", "_", b["name"].lower()).strip("_") for b in characters]
    assert len(ids) == len(set(ids))


def test_every_character_has_words_and_the_seed_characteristics(
        characters: list[dict[str, Any]]) -> None:
    for b in characters:
        assert isinstance(b["concept"], str) and b["concept"].strip(), b["name"]
        assert "\n" not in b["concept"].strip(), f"{b['name']}: concept is one line"
        assert b["complications"] and all(isinstance(c, str) and c for c in b["complications"])
        assert {"agility", "dexterity", "strength"} <= set(b["characteristics"]), b["name"]
        assert b["kill"] >= 1 and b["stun"] >= 1
        for form in b.get("attacks", []):
            assert form["range"] in ("melee", "missile"), (b["name"], form["name"])


def test_heroes_and_villains_outlast_thugs(characters: list[dict[str, Any]]) -> None:
    big = [b for b in characters if b["kind"] in ("hero", "villain")]
    small = [b for b in characters if b["kind"] in ("thug", "thug group")]
    assert min(b["kill"] for b in big) > max(b["kill"] for b in small)
    assert min(b["stun"] for b in big) > max(b["stun"] for b in small)


def test_every_character_validates_against_the_statblock(
        characters: list[dict[str, Any]]) -> None:
    sb = pytest.importorskip("engine.systems.panels.statblock")
    for raw in characters:
        block = sb.from_data(raw, "characters.yaml")
        assert sb.problems(block) == [], block.name
        assert block.significant == (raw["kind"] in ("hero", "villain"))
        assert block.all_attacks, block.name


def _blocks(characters: list[dict[str, Any]]) -> list[Any]:
    sb = pytest.importorskip("engine.systems.panels.statblock")
    return [sb.from_data(raw) for raw in characters]


def test_no_clean_hit_fells_a_hero_on_average(characters: list[dict[str, Any]]) -> None:
    """The scale of the header: any ready-made attack's mean complete hit takes under 70% of
    the frailest hero's Kill and Stun, so a hero survives one clean hit."""
    dm = pytest.importorskip("engine.systems.panels.damage")
    from engine.systems.panels.checks import Band
    blocks = _blocks(characters)
    heroes = [c for c in blocks if c.kind == "hero"]
    frail_kill, frail_stun = min(c.kill for c in heroes), min(c.stun for c in heroes)
    for c in blocks:
        for form in c.all_attacks:
            kill, stun = dm.mean_damage(dm.damage_dice(form, c.significant, Band.COMPLETE,
                                                       c.characteristics.strength))
            assert kill < Fraction(7, 10) * frail_kill, (c.name, form.name, kill)
            assert stun < Fraction(7, 10) * frail_stun, (c.name, form.name, stun)


def test_a_heros_clean_hit_usually_drops_a_thug(characters: list[dict[str, Any]]) -> None:
    """Every hero's best non-lethal form, on a complete hit, averages at least a thug's Stun."""
    dm = pytest.importorskip("engine.systems.panels.damage")
    from engine.systems.panels.checks import Band
    blocks = _blocks(characters)
    thug_stun = max(c.stun for c in blocks if not c.significant)
    for hero in (c for c in blocks if c.kind == "hero"):
        best = max(dm.mean_damage(dm.damage_dice(f, True, Band.COMPLETE,
                                                 hero.characteristics.strength))[1]
                   for f in hero.all_attacks if not f.lethal)
        assert best >= thug_stun, (hero.name, best)


def test_the_roster_covers_every_parry_case(characters: list[dict[str, Any]]) -> None:
    """Melee, slow and fast missiles, lethal and not, fists and an object all appear, so a fight
    with the ready-made characters can meet every eligibility rule of C.4."""
    forms = [f for c in _blocks(characters) for f in c.all_attacks]
    assert {f.delivery for f in forms} == {"melee", "slow missile", "fast missile"}
    assert any(f.fist for f in forms) and any(f.object for f in forms)
    assert {f.lethal for f in forms} == {True, False}


def test_a_broken_block_is_caught() -> None:
    """The validation above can fail: a hero with a thug's missing Kill, or over the limits."""
    sb = pytest.importorskip("engine.systems.panels.statblock")
    from engine.errors import ContentError
    with pytest.raises(ContentError):
        sb.from_data({"name": "X", "kind": "hero",
                      "characteristics": {"agility": 10, "dexterity": 10, "strength": 10},
                      "stun": 20, "attacks": [{"name": "Fists", "fist": True}]})
    over = sb.from_data({"name": "X", "kind": "hero", "kill": 90, "stun": 20,
                         "characteristics": {"agility": 10, "dexterity": 10, "strength": 10},
                         "attacks": [{"name": "Fists", "fist": True}]})
    assert sb.problems(over)


# ------------------------------------------------------------------ crits


def test_crit_tables_have_six_entries_on_faces_one_to_six(
        crits: dict[str, list[dict[str, Any]]]) -> None:
    for table, entries in crits.items():
        assert len(entries) == 6, table
        assert sorted(e["d6"] for e in entries) == [1, 2, 3, 4, 5, 6], table
        for e in entries:
            assert set(e) == {"id", "d6", "name", "text", "effect"}, (table, e.get("id"))
            assert e["text"].strip() and e["name"].strip()


def test_crit_ids_and_names_unique(crits: dict[str, list[dict[str, Any]]]) -> None:
    entries = [e for table in crits.values() for e in table]
    assert len({e["id"] for e in entries}) == 12
    assert len({e["name"].lower() for e in entries}) == 12


def test_crit_entries_match_the_rules_tables(crits: dict[str, list[dict[str, Any]]]) -> None:
    rules = pytest.importorskip("engine.systems.panels.crits")
    for key, table in (("critical_hit", rules.Table.HIT), ("critical_miss", rules.Table.MISS)):
        for e in crits[key]:
            entry = rules.roll(table, e["d6"])
            assert (e["name"], e["effect"]) == (entry.name, entry.effect.value), (key, e["id"])


# ------------------------------------------------------------------ actions


def test_every_action_is_described(actions: dict[str, dict[str, Any]]) -> None:
    needed = {"attack", "dodge", "parry", "move", "grab", "use_power", "recover", "drop_item",
              "stand", "flee", "surrender", "end_turn"}
    assert needed <= set(actions)
    for aid, a in actions.items():
        assert re.fullmatch(r"[a-z_]+", aid), aid
        assert a["name"].strip() and a["summary"].strip(), aid
        assert isinstance(a["cost"], int) and not isinstance(a["cost"], bool), aid
        assert 0 <= a["cost"] <= 2, aid
        assert a["kind"] in ("action", "response"), aid
    assert {k for k, a in actions.items() if a["kind"] == "response"} == {"dodge", "parry"}
    assert actions["attack"]["cost"] == 1 and actions["end_turn"]["cost"] == 0


def test_action_names_unique(actions: dict[str, dict[str, Any]]) -> None:
    names = [a["name"].lower() for a in actions.values()]
    assert len(names) == len(set(names))


def test_every_action_has_fifteen_distinct_examples(actions: dict[str, dict[str, Any]]) -> None:
    for aid, a in actions.items():
        lines = [_norm(x) for x in a["examples"]]
        assert all(isinstance(x, str) and x.strip() for x in a["examples"]), aid
        assert len(set(lines)) >= 15, f"{aid}: {len(set(lines))} distinct examples"
        assert len(lines) == len(set(lines)), f"{aid}: an example repeats"


def test_no_example_is_shared_between_actions(actions: dict[str, dict[str, Any]]) -> None:
    owner: dict[str, str] = {}
    shared: list[str] = []
    for aid, a in actions.items():
        for line in {_norm(x) for x in a["examples"]}:
            if line in owner:
                shared.append(f"{line!r}: {owner[line]} and {aid}")
            owner[line] = aid
    assert shared == []


def test_examples_come_in_many_voices(actions: dict[str, dict[str, Any]]) -> None:
    """First person, a short command, speech in quotes and a told third person in each."""
    for aid, a in actions.items():
        ex = a["examples"]
        assert any(x.startswith("I ") for x in ex), aid
        assert any(len(x.split()) <= 3 for x in ex), aid
        assert any(x.lstrip().startswith('"') for x in ex), aid
        assert any(re.match(THIRD_PERSON, x) for x in ex), aid


# ------------------------------------------------------------------ rules notes


def _rules_notes() -> str:
    raw = yaml.safe_load((PACK / "system.yaml").read_text(encoding="utf-8"))
    return " ".join(" ".join(raw["rules_notes"]).split())


def test_rules_notes_fill_every_gap_of_c7() -> None:
    text = _rules_notes()
    for n in range(1, 12):
        assert re.search(rf"C\.7 (#\d+ and )?#{n}\b", text), f"C.7 #{n} has no rule"


def test_rules_notes_numbers_agree_with_the_rules_modules() -> None:
    from engine.rules.encounter import ARREARS_LIMIT, TIE_PANELS
    from engine.systems.panels import checks, damage, responses
    text = _rules_notes()
    assert f"{checks.MIN_CHARACTERISTIC}-{checks.MAX_CHARACTERISTIC}" in text
    assert f"9-11 {checks.skill_modifier(10):+d}" in text
    assert f"16-18 {checks.skill_modifier(17):+d}" in text
    assert f"25-27 {damage.strength_bonus(26):+d}" in text
    assert f"doing {responses.MISSILE_DESTROY_KILL} or more Kill" in text
    assert f"fewer than {ARREARS_LIMIT} are owed" in text
    assert f"a tie gives each side {TIE_PANELS}" in text
