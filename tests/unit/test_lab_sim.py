"""The lab's policies and its PbtA simulation (engine/lab/policy.py, engine/lab/sim.py)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.campaigns import close_game, open_game
from engine.errors import IllegalAction
from engine.lab.model import Choice, Decision, LabSpec, campaign_seed
from engine.lab.policy import (
    POLICIES,
    GreedyPolicy,
    RandomPolicy,
    StoryPolicy,
    load_policy,
)
from engine.lab.sim import _move_tags, pack_for, simulate


class Raises:
    """A policy that breaks on its first decision."""

    name = "raises"

    def choose(self, decision: Decision, rng: random.Random) -> int:
        raise RuntimeError("boom")


class OutOfRange:
    """A policy that answers an index past the choices."""

    name = "out_of_range"

    def choose(self, decision: Decision, rng: random.Random) -> int:
        return len(decision.choices)


NotAPolicy = object


# ------------------------------------------------------------------ simulate


def test_same_spec_and_index_give_identical_results_and_indices_differ() -> None:
    spec = LabSpec(system="masks", policy="random", seed=7, scenes=2, moves=4)
    a, b = simulate(spec, 3), simulate(spec, 3)
    assert a == b
    assert a["ok"], a["error"]
    assert a["seed"] == campaign_seed(7, 3)
    other = simulate(spec, 4)
    assert other["seed"] != a["seed"]
    assert [r["band"] for r in other["rolls"]] != [r["band"] for r in a["rolls"]]


@pytest.mark.parametrize("system", ["masks", "city-of-whispers", "panels",
                                    "mutants-and-masterminds"])
def test_each_shipped_system_plays_a_short_campaign(system: str) -> None:
    r = simulate(LabSpec(system=system, policy="greedy", scenes=2, moves=3), 0)
    assert r["ok"], r["error"]
    assert r["scenes"] == 2
    assert r["moves"] >= 1 and r["rolls"] and r["samples"]
    assert r["steps"] > r["moves"]


def test_masks_campaign_records_rolls_with_exact_odds_samples_and_pools() -> None:
    r = simulate(LabSpec(system="masks", policy="story", scenes=3, moves=8, party=2), 1)
    assert r["ok"], r["error"]
    assert r["moves"] == 24 and r["scenes"] == 3
    for roll in r["rolls"]:
        assert roll["band"] in roll["odds"]
        assert sum(roll["odds"].values()) == pytest.approx(1.0)
        assert 1 <= roll["scene"] <= 3
    assert len(r["samples"]) == r["moves"]
    assert {"Potential", "Team", "conditions"} <= set(r["samples"][-1]["values"])
    assert [t["id"] for t in r["threats"]]  # the villain's clock
    assert all(isinstance(n, int) and n > 0 for n in r["gm_moves"].values())


def test_a_policy_that_raises_or_answers_out_of_range_comes_back_not_ok_with_the_seed() -> None:
    spec = LabSpec(system="masks", seed=5, scenes=2, moves=4)
    r = simulate(spec, 2, policy=Raises())
    assert not r["ok"]
    assert "raises" in r["error"] and "boom" in r["error"]
    assert str(campaign_seed(5, 2)) in r["error"]
    bad = simulate(spec, 2, policy=OutOfRange())
    assert not bad["ok"] and "returned" in bad["error"]


def test_a_campaign_past_max_steps_comes_back_not_ok_with_the_seed() -> None:
    r = simulate(LabSpec(system="masks", max_steps=3, scenes=2, moves=4), 0)
    assert not r["ok"]
    assert "more than 3 engine steps" in r["error"]
    assert str(r["seed"]) in r["error"]


def test_a_kept_campaign_opens_with_its_moves_played(tmp_path: Path) -> None:
    spec = LabSpec(system="masks", policy="greedy", keep=str(tmp_path), scenes=2, moves=4)
    r = simulate(spec, 0)
    assert r["ok"], r["error"]
    assert Path(r["kept"]).parent == tmp_path
    game = open_game(tmp_path, Path(r["kept"]).name)
    try:
        triggered = [e for e in game.store.events() if e.get("type") == "MoveTriggered"]
        assert len(triggered) >= r["moves"] == 8
        assert game.state.scene.number == 2
    finally:
        close_game(game)
    in_memory = simulate(LabSpec(system="masks", policy="greedy", scenes=2, moves=4), 0)
    assert {k: v for k, v in in_memory.items() if k != "kept"} == {
        k: v for k, v in r.items() if k != "kept"}
    again = simulate(spec, 0)  # the folder already holds it: reported, nothing overwritten
    assert not again["ok"] and "already holds a campaign" in again["error"]


def test_a_pack_given_by_its_folder_plays() -> None:
    pack = pack_for(LabSpec(system="masks"))
    r = simulate(LabSpec(system=str(pack.path), policy="greedy", scenes=2, moves=4), 0)
    assert r["ok"], r["error"]


# ------------------------------------------------------------------ policies


def _choice(i: int, odds: float | None = None, value: float | None = None,
            tags: frozenset[str] = frozenset()) -> Choice:
    return Choice(id=f"c{i}", label=f"choice {i}", odds=odds, value=value, tags=tags)


TAGS = ["attack", "defend", "protect", "clears_condition", "heal", "recover", "help", "flee",
        "surrender", "risky"]
choices_st = st.lists(
    st.builds(Choice, id=st.text(max_size=5), label=st.text(max_size=5),
              odds=st.none() | st.floats(0, 1), value=st.none() | st.floats(-10, 10),
              tags=st.frozensets(st.sampled_from(TAGS), max_size=3)),
    min_size=1, max_size=8)
decisions_st = st.builds(
    Decision, kind=st.sampled_from(["move", "target", "option", "stat", "adjust"]),
    choices=choices_st.map(tuple),
    situation=st.fixed_dictionaries({
        "conditions": st.integers(0, 5), "innocents_in_danger": st.booleans(),
        "hurt": st.booleans(), "dying_ally": st.booleans()}))


@settings(max_examples=150, deadline=None)
@given(decision=decisions_st, seed=st.integers(0, 2**32))
def test_every_policy_returns_a_legal_index(decision: Decision, seed: int) -> None:
    for cls in POLICIES.values():
        i = cls().choose(decision, random.Random(seed))
        assert isinstance(i, int) and 0 <= i < len(decision.choices)


def test_greedy_takes_best_odds_then_value_ties_to_the_first() -> None:
    d = Decision("move", (_choice(0, 0.4, 9), _choice(1, 0.6, 0.1), _choice(2, 0.6, 0.5),
                          _choice(3, 0.6, 0.5)))
    assert GreedyPolicy().choose(d, random.Random(1)) == 2


def test_random_policy_draws_from_its_rng() -> None:
    d = Decision("move", tuple(_choice(i) for i in range(6)))
    picks = [RandomPolicy().choose(d, random.Random(s)) for s in range(60)]
    assert set(picks) == set(range(6))
    assert picks == [RandomPolicy().choose(d, random.Random(s)) for s in range(60)]


def test_story_clears_a_marked_condition_when_a_clearing_choice_is_offered() -> None:
    choices = (_choice(0, 0.9, 1, frozenset({"attack"})),
               _choice(1, 0.3, 0.2, frozenset({"clears_condition", "recover"})))
    story = StoryPolicy()
    assert story.choose(Decision("move", choices, {"conditions": 1}), random.Random(1)) == 1
    assert story.choose(Decision("move", choices, {"conditions": 0}), random.Random(1)) == 0


def test_story_protects_when_innocents_are_in_danger() -> None:
    choices = (_choice(0, 0.9, 1, frozenset({"attack"})),
               _choice(1, 0.5, 1, frozenset({"clears_condition"})),
               _choice(2, 0.2, 0, frozenset({"protect", "defend"})))
    d = Decision("move", choices, {"innocents_in_danger": True, "conditions": 2})
    assert StoryPolicy().choose(d, random.Random(1)) == 2


class RecordingStory(StoryPolicy):
    """The story policy, keeping every decision it made and its answer."""

    def __init__(self) -> None:
        self.seen: list[tuple[Decision, int]] = []

    def choose(self, decision: Decision, rng: random.Random) -> int:
        i = super().choose(decision, rng)
        self.seen.append((decision, i))
        return i


def test_in_masks_the_story_policy_defends_after_danger_and_clears_conditions() -> None:
    policy = RecordingStory()
    for index in range(6):
        r = simulate(LabSpec(system="masks", policy="story", scenes=3, moves=8), index,
                     policy=policy)
        assert r["ok"], r["error"]
    moves = [(d, i) for d, i in policy.seen if d.kind == "move"]
    danger = [(d, i) for d, i in moves if d.situation["innocents_in_danger"]]
    marked = [(d, i) for d, i in moves if d.situation["conditions"]
              and not d.situation["innocents_in_danger"]
              and any("clears_condition" in c.tags for c in d.choices)]
    assert danger and marked  # the GM put someone in danger; a condition was marked
    assert all("protect" in d.choices[i].tags for d, i in danger)
    assert all("clears_condition" in d.choices[i].tags for d, i in marked)


def test_masks_moves_carry_the_tags_the_story_policy_reads() -> None:
    pack = pack_for(LabSpec(system="masks"))
    assert {"protect", "defend"} <= _move_tags(pack, "defend_someone")
    clearing = [m for m in pack.moves if "clears_condition" in _move_tags(pack, m)]
    assert clearing  # defend someone, comfort or support... clear a condition on a hit


def test_load_policy_by_name_and_by_module_class() -> None:
    assert isinstance(load_policy("story"), StoryPolicy)
    assert load_policy("engine.lab.policy:GreedyPolicy").name == "greedy"
    assert load_policy(f"{__name__}:Raises").name == "raises"


@pytest.mark.parametrize(("name", "words"), [
    ("cautious", "unknown policy 'cautious'"),
    ("no.such.module:Thing", "cannot import 'no.such.module'"),
    ("engine.lab.policy:Nothing", "has no 'Nothing'"),
    (f"{__name__}:NotAPolicy", "is not a policy"),
    (":Greedy", "package.module:Class"),
])
def test_load_policy_refuses_clearly(name: str, words: str) -> None:
    with pytest.raises(IllegalAction, match=words.replace(".", r"\.").replace("(", r"\(")):
        load_policy(name)
