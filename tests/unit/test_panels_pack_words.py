"""The panels pack's words (content/panels/): the GM's moves and threats, the tables, the
narration parts and the detection examples, checked for shape and counts against the schema,
the GM's placeholders and the real pack's validation."""

from __future__ import annotations

import string
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

PACK = Path(__file__).resolve().parents[2] / "content" / "panels"
MY_FILES = ("gm.yaml", "tables.yaml", "narration.yaml", "examples.yaml")
EXAMPLE_MOVES = ["characteristic_check", "power_check", "rest", "first_aid", "start_fight"]
ROLES = frozenset({"hero_ally", "villain", "minion", "bystander"})
"""The pack's roles (system.yaml ``roles``): GM lines may name them as placeholders."""
GM_WORDS = GM_NAMES | ROLES
SHARED_EFFECTS = (s.Note, s.OpenThread, s.RecordFact, s.Whereabouts, s.Clock, s.StanceEffect)
"""The effects a GM move, threat or random event of this pack may carry: the story ledger's,
never a game's own (Kill, Stun and panels are the fight's)."""
GUARANTEES: dict[str, frozenset[str]] = {
    "hero": frozenset(), "location": frozenset(),
    "npc": frozenset({"npc_present", *(f"{r}_present" for r in ROLES)}),
    **{r: frozenset({f"{r}_present"}) for r in ROLES},
    "threat": frozenset({"threat_active"}),
    "thread": frozenset({"thread_open"}),
    **{name: frozenset() for name in FICTION_NAMES},  # said only when the fiction gave them
}
"""Which ``when`` condition makes each placeholder safe to use (any one of the set)."""


def _yaml(name: str) -> Any:
    return yaml.safe_load((PACK / name).read_text(encoding="utf-8"))


def _names(text: str) -> set[str]:
    return {f for _lit, f, _spec, _conv in string.Formatter().parse(text) if f}


def _unguaranteed(text: str, when: list[str]) -> list[str]:
    """The placeholders of ``text`` no condition of ``when`` guarantees."""
    return sorted(n for n in _names(text)
                  if n not in GUARANTEES or (GUARANTEES[n] and not GUARANTEES[n] & set(when)))


@pytest.fixture(scope="module")
def gm() -> s.GMPack:
    return s.GMPack.model_validate(_yaml("gm.yaml"))


@pytest.fixture(scope="module")
def tables() -> dict[str, s.Table]:
    return {t.id: t for t in s.TablesPack.model_validate(_yaml("tables.yaml")).tables}


def test_gm_moves_are_many_unique_and_both_soft_and_hard(gm: s.GMPack) -> None:
    ids = [g.id for g in gm.moves]
    assert len(ids) >= 16
    assert len(set(ids)) == len(ids)
    kinds = [g.kind for g in gm.moves]
    assert kinds.count("soft") >= 4 and kinds.count("hard") >= 6
    assert all(len(g.narration) >= 3 and g.description for g in gm.moves)
    conditioned = [g for g in gm.moves if g.when]
    assert len(conditioned) >= 6, "too few GM moves depend on the situation"


def test_gm_effects_are_the_shared_vocabulary_only(gm: s.GMPack) -> None:
    effects = [e for g in gm.moves for e in g.effects]
    effects += [e for t in gm.threats for e in t.doom_effects]
    effects += [e for ev in gm.random_events for e in ev.effects]
    assert effects
    strays = [type(e).__name__ for e in effects if not isinstance(e, SHARED_EFFECTS)]
    assert strays == []


def test_gm_placeholders_are_known_and_guaranteed_by_their_when(gm: s.GMPack) -> None:
    for g in gm.moves:
        texts = [*g.narration, *(e.text for e in g.effects
                                 if isinstance(e, s.OpenThread | s.RecordFact | s.Whereabouts))]
        for text in texts:
            assert template_problems(text, GM_WORDS) == [], (g.id, text)
            assert _unguaranteed(text, g.when) == [], (g.id, text, g.when)


def test_the_guarantee_check_catches_an_unguarded_name() -> None:
    assert _unguaranteed("{villain} laughs at {hero}.", []) == ["villain"]
    assert _unguaranteed("{villain} laughs at {hero}.", ["villain_present"]) == []
    assert _unguaranteed("{npc} runs.", ["minion_present"]) == []
    assert _unguaranteed("{thread} again.", ["npc_present"]) == ["thread"]


def test_threats_have_clocks_whose_steps_fill_them(gm: s.GMPack) -> None:
    ids = [t.id for t in gm.threats]
    assert len(ids) >= 6 and len(set(ids)) == len(ids)
    for th in gm.threats:
        assert len(th.steps) == th.size, th.id
        assert th.doom_effects, th.id
        for text in [*th.steps, th.doom]:
            assert template_problems(text, THREAT_NAMES) == [], (th.id, text)
    assert {t.kind for t in gm.threats} >= {"villain", "danger", "disaster", "mystery"}


def test_villain_threats_fit_any_villain(gm: s.GMPack) -> None:
    """A new villain NPC gets a villain threat at random (engine.gm.scenes), so a villain
    threat never names a ready-made character: its villain is always ``{villain}``."""
    names = [c["name"].removeprefix("The ") for c in _yaml("characters.yaml")["characters"]]
    villain_threats = [t for t in gm.threats if t.kind == "villain"]
    assert len(villain_threats) >= 3
    for th in villain_threats:
        words = " ".join([th.name, th.description, th.doom, *th.steps])
        assert [n for n in names if n in words] == [], th.id
        assert "{villain}" in th.doom, th.id


def test_narration_covers_every_gm_move_and_threat_with_guaranteed_names(gm: s.GMPack) -> None:
    words = s.NarrationPack.model_validate(_yaml("narration.yaml"))
    by_id = {g.id: g for g in gm.moves}
    assert set(words.moves) == set(by_id)
    assert set(words.threats) == {t.id for t in gm.threats}
    for mid, parts in words.moves.items():
        assert len(parts.act) >= 3, mid
        for slot in ("open", "act", "stake"):
            for text in getattr(parts, slot):
                # the fiction's names: a line using one is said only when the fiction gave it
                assert template_problems(text, GM_WORDS | FICTION_NAMES) == [], (mid, slot,
                                                                                  text)
                assert _unguaranteed(text, by_id[mid].when) == [], (mid, slot, text)
        assert all((a and a[0].islower()) or a.startswith("{") for a in parts.act), mid
    for tid, tw in words.threats.items():
        assert tw.plain and "{villain}" in tw.named, tid
        for slot, known in THREAT_WORDS_NAMES.items():
            assert template_problems(getattr(tw, slot), known) == [], (tid, slot)


def test_tables_have_what_the_gm_reads_and_the_city_s_own(tables: dict[str, s.Table]) -> None:
    for tid in ("locations", "complications", "scene_openings"):
        assert 12 <= len(tables[tid].entries) <= 20, tid
    for tid in ("oracle_actions", "oracle_subjects", "meaning_descriptors", "meaning_qualities"):
        assert len(tables[tid].entries) >= 20, tid
    for tid in ("villain_wants", "weather", "cut_to"):
        assert len(tables[tid].entries) >= 10, tid
    for table in tables.values():
        texts = [e.text.lower() for e in table.entries]
        assert len(set(texts)) == len(texts), f"{table.id}: a repeated entry"
    for e in tables["scene_openings"].entries:
        assert template_problems(e.text, {"hero", "location"}) == [], e.text
        assert {"hero", "location"} <= _names(e.text), e.text
    for e in tables["rescue_openings"].entries:  # the captive is the scene's {npc}
        assert template_problems(e.text, {"hero", "location", "npc"}) == [], e.text
    for tid, table in tables.items():  # drawn and shown as they are: no placeholders
        if tid not in ("scene_openings", "rescue_openings"):
            assert all("{" not in e.text and "}" not in e.text for e in table.entries), tid
    assert all(e.text.startswith("Cut to: ") for e in tables["cut_to"].entries)


def test_examples_cover_the_five_moves_with_no_line_shared() -> None:
    ex = s.ExamplesPack.model_validate(_yaml("examples.yaml")).root
    assert list(ex) == [*EXAMPLE_MOVES, "none"]
    for mid in EXAMPLE_MOVES:
        assert len(ex[mid]) >= 40, (mid, len(ex[mid]))
    assert len(ex["none"]) >= 60
    owner: dict[str, str] = {}
    for mid, lines in ex.items():
        for line in lines:
            key = " ".join(line.lower().split())
            assert key not in owner, f"{line!r} is under {owner[key]} and {mid}"
            owner[key] = mid


def test_examples_speak_in_many_voices() -> None:
    """First person, told in the third person, questions, and terse typing, for every move."""
    ex = s.ExamplesPack.model_validate(_yaml("examples.yaml")).root
    heroes = ("Rivet", "Nightjar", "Voltaic", "Quarrel", "She ")
    for mid in EXAMPLE_MOVES:
        lines = ex[mid]
        assert sum(line.startswith(("I ", "We ")) for line in lines) >= 10, mid
        assert sum(line.startswith(heroes) for line in lines) >= 2, mid
        assert sum("?" in line for line in lines) >= 1, mid
        assert sum(len(line.split()) <= 5 for line in lines) >= 1, mid


NO_SYSTEM = pytest.mark.skipif(not (PACK / "system.yaml").exists(),
                               reason="system.yaml not written yet")


@NO_SYSTEM
def test_the_real_pack_reports_no_problem_from_these_files() -> None:
    from engine.checks import pack_problems, pack_warnings
    from engine.content.loader import load_pack

    pack = load_pack(PACK)
    assert set(pack.system.roles) == ROLES
    assert set(pack.examples) - {"none"} == set(EXAMPLE_MOVES) <= set(pack.moves)
    mine = [p for p in pack_problems(pack) if any(f in p for f in MY_FILES)]
    assert mine == []
    assert pack_warnings(pack) == []


@NO_SYSTEM
@pytest.mark.parametrize(("line", "move"), [
    ("I vault over the fence and keep running.", "characteristic_check"),
    ("Can I shove the crate in front of the door?", "characteristic_check"),
    ("I glide from the Skyrail down to the wharf.", "power_check"),
    ("I lift the fallen tram car using my powers.", "power_check"),
    ("We take an hour to rest before going on.", "rest"),
    ("I splint my friend's broken leg.", "first_aid"),
    ("I punch Gantry in his metal face.", "start_fight"),
    ("I attack the thugs.", "start_fight"),
])
def test_lines_not_in_the_file_find_their_move(line: str, move: str) -> None:
    from engine.content.loader import load_pack
    from engine.triggers import matcher_for

    best = matcher_for(load_pack(PACK)).suggest(line)
    assert best and best[0].move == move, [(x.move, round(x.score, 2)) for x in best]


@NO_SYSTEM
def test_in_play_every_gm_line_is_filled_and_names_who_is_there(tmp_path: Path) -> None:
    """A panels campaign with one NPC of each role and a villain's threat: the GM's soft moves
    read as finished sentences, and those about the villain or the threat name them."""
    from engine.campaigns import new_game

    game = new_game(tmp_path, system="panels", name="words", hero_name="Rivet",
                    archetype="rivet", seed=5)
    game.start_scene(title="The wharf", location="the Ossery wharf")
    for name, role in [("Gantry", "villain"), ("Tinmarket Tough", "minion"),
                       ("Nightjar", "hero_ally"), ("Mrs. Okafor", "bystander")]:
        game.add_npc(name, role)
    # the villain brings a threat of its own when added (a villain added later too)
    assert [t.npc for t in game.state.threats.values()] == ["gantry"]
    made: dict[str, list[str]] = {}
    for _ in range(40):  # seeded: the same moves every run
        for e in game.ask_gm():
            if e.get("type") == "GMMoveMade":
                made.setdefault(e["move"], []).append(e["text"])
    texts = [t for ts in made.values() for t in ts]
    assert texts and not [t for t in texts if "{" in t or "}" in t]
    assert len(made) >= 8, sorted(made)
    assert "villain_reveals_plan" in made and "threat_advances" in made, sorted(made)
    assert all("Gantry" in t for t in made["villain_reveals_plan"])
    assert all("Gantry" in t for t in made["threat_advances"]), made["threat_advances"]
