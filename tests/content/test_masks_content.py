"""The Masks pack read as data, checked against RULES.md section A (the seeds).

These tests look at the content only (no play): the numbers, lists and effects the rules fix.
Play-level checks of every move live in tests/unit/test_masks_moves.py.
"""

from __future__ import annotations

import re
import string
from typing import Any

import pytest

from engine.content import schema as s
from engine.content.loader import Pack

BASIC_LABELS = {  # A.3 / A.4: the Label each move rolls
    "directly_engage": "danger", "unleash_powers": "freak", "defend_someone": "savior",
    "assess_situation": "superior", "provoke": "superior", "comfort_support": "mundane",
    "pierce_the_mask": "mundane", "take_powerful_blow": "conditions_marked",
    "wield_powers": "freak", "overwhelm_foe": "danger", "persuade_interests": "superior",
    "empathize": "mundane", "stand_up": "savior", "reject_influence": "none",
}
PENALISES = {  # A.5
    "afraid": {"directly_engage"},
    "angry": {"comfort_support", "pierce_the_mask"},
    "guilty": {"provoke", "assess_situation"},
    "hopeless": {"unleash_powers"},
    "insecure": {"defend_someone", "reject_influence"},
}


def effects_of(out: s.Outcome) -> list[Any]:
    return list(out.effects)


def test_core_roll(masks: Pack) -> None:
    sys_ = masks.system
    assert sys_.dice == "2d6"
    assert sys_.modifier_clamp == (-3, 4)
    bands = {b.id: (b.min, b.max) for b in sys_.bands["default"]}
    assert bands == {"miss": (None, 6), "weak_hit": (7, 9), "strong_hit": (10, None)}
    inverted = {b.id: (b.min, b.max, b.tone) for b in sys_.bands["inverted"]}
    assert inverted == {"miss": (None, 6, "good"), "weak_hit": (7, 9, "mixed"),
                        "strong_hit": (10, None, "bad")}


def test_labels_and_conditions(masks: Pack) -> None:
    assert {k: (v.min, v.max) for k, v in masks.stats.items()} == {
        k: (-2, 3) for k in ("danger", "freak", "savior", "superior", "mundane")}
    assert {c.id: set(c.penalises) for c in masks.system.conditions} == PENALISES
    assert all(c.penalty == -2 for c in masks.system.conditions)
    assert all(c.clear_by for c in masks.system.conditions)


def test_tracks(masks: Pack) -> None:
    team, potential = masks.tracks["team"], masks.tracks["potential"]
    assert (team.scope, team.min, team.max, team.start) == ("campaign", 0, None, 0)
    assert (potential.scope, potential.min, potential.max) == ("hero", 0, 5)
    assert [e.type for e in potential.on_full] == ["advance"] and potential.reset_on_full


def test_session_rules(masks: Pack) -> None:
    session = masks.system.session
    assert [(e.type, e.track, e.delta) for e in session.start_effects] == [("track", "team", 1)]
    assert session.end_move == "end_of_session"


@pytest.mark.parametrize("move_id", sorted(BASIC_LABELS))
def test_each_rolled_move_uses_the_rules_label(masks: Pack, move_id: str) -> None:
    roll = masks.moves[move_id].roll
    assert roll is not None
    assert roll.stat == BASIC_LABELS[move_id]
    assert roll.inverted == (move_id == "take_powerful_blow")
    assert roll.bands == ("inverted" if move_id == "take_powerful_blow" else "default")
    assert roll.advantage == "none"  # Masks has no advantage


@pytest.mark.parametrize("move_id", sorted(set(BASIC_LABELS) - {"take_powerful_blow"}))
def test_every_miss_marks_potential_and_gives_a_hard_move(masks: Pack, move_id: str) -> None:
    move = masks.moves[move_id]
    for table in (move.outcomes, move.vs_teammate):
        if not table:
            continue
        effects = effects_of(table["miss"])
        assert any(isinstance(e, s.TrackDelta) and e.track == "potential" and e.delta == 1
                   for e in effects), move_id
        assert [e.kind for e in effects if isinstance(e, s.GMMove)] == ["hard"], move_id


def test_powerful_blow_miss_marks_potential_without_a_gm_move(masks: Pack) -> None:
    effects = effects_of(masks.moves["take_powerful_blow"].outcomes["miss"])
    assert [(e.type, getattr(e, "track", None)) for e in effects] == [("track", "potential")]


@pytest.mark.parametrize(("move_id", "strong", "weak"), [
    ("directly_engage", 2, 1), ("defend_someone", 1, 1), ("wield_powers", 2, 1),
    ("stand_up", 2, 1), ("reject_influence", 2, 1), ("overwhelm_foe", 1, 2),
    ("take_powerful_blow", 1, 1), ("comfort_support", 1, None), ("provoke", None, 1),
])
def test_pick_counts(masks: Pack, move_id: str, strong: int | None, weak: int | None) -> None:
    move = masks.moves[move_id]
    for band, count in (("strong_hit", strong), ("weak_hit", weak)):
        choose = move.outcomes[band].choose
        assert (choose.count if choose else None) == count, (move_id, band)
        if choose:
            assert not choose.up_to and not choose.repeat


@pytest.mark.parametrize(("move_id", "strong", "weak"), [
    ("assess_situation", 2, 1), ("pierce_the_mask", 3, 1),
])
def test_question_counts(masks: Pack, move_id: str, strong: int, weak: int) -> None:
    move = masks.moves[move_id]
    assert len(move.questions) == 5
    for band, count in (("strong_hit", strong), ("weak_hit", weak)):
        asks = [e.count for e in move.outcomes[band].effects if isinstance(e, s.Ask)]
        assert asks == [count]


def test_adult_moves_need_the_flag(masks: Pack) -> None:
    adult = {m.id for m in masks.moves.values() if m.category == "adult"}
    assert adult == {"wield_powers", "overwhelm_foe", "persuade_interests", "empathize",
                     "stand_up"}
    assert all(masks.moves[m].requires_flag == "adult_moves" for m in adult)
    assert "adult_moves" in {a.id for a in masks.system.advancements}
    assert masks.moves["moment_of_truth"].requires_flag == "moment_of_truth_unlocked"


def test_archetypes_follow_the_hero_rules(masks: Pack) -> None:
    rules = masks.system.hero
    assert (rules.stat_total, rules.stat_min, rules.stat_max) == (3, -1, 2)
    for a in masks.system.archetypes:
        assert sum(a.stats.values()) == 3, a.id
        assert all(-1 <= v <= 2 for v in a.stats.values()), a.id
        assert any(n.role == "adult" for n in a.suggested_npcs), a.id


def test_visible_moves_have_cues(masks: Pack) -> None:
    for m in masks.moves.values():
        if not m.hidden:
            assert m.cues, m.id


# gm.yaml promises: a placeholder appears only where a `when` condition guarantees it
GUARANTEES = {
    "hero": set(), "location": set(),
    "npc": {"npc_present", "npc_lacks_influence"},
    "adult": {"adult_present", "adult_has_influence"},
    "villain": {"villain_present"},
    "teammate": {"teammate_present"},
    "bystander": {"bystander_present"},
    "threat": {"threat_active"},
}


def test_gm_narration_placeholders_are_guaranteed(masks: Pack) -> None:
    assert masks.gm_moves
    for move in masks.gm_moves:
        for text in move.narration:
            names = {f for _, f, _, _ in string.Formatter().parse(text) if f}
            for name in names:
                assert name in GUARANTEES, (move.id, name)
                need = GUARANTEES[name]
                assert not need or need & set(move.when), (move.id, name, move.when)


def test_texts_are_plain(masks: Pack) -> None:
    # outcome texts are shown as they are: no stray template braces
    for m in masks.moves.values():
        for out in [*m.outcomes.values(), *m.vs_teammate.values(), m.result]:
            if out is not None:
                assert not re.search(r"[{}]", out.text), m.id
