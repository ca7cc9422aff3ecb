"""The fight benchmark's fights, played once for each game (M&M and panels): each ends with a
winner, its greedy player picks the best score and answers what the fight asks, and its
numbers are counted and reported (no timing is asserted)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from engine.content.loader import Pack, load_pack
from engine.rules.fight.values import ChoiceNeed, FightChoice

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_fight.py"


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_fight", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_fight"] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def mm(bench: ModuleType) -> Pack:
    pack: Pack = load_pack(bench.MM3E)
    return pack


@pytest.fixture(scope="module")
def panels(bench: ModuleType) -> Pack:
    pack: Pack = load_pack(bench.PANELS)
    return pack


@pytest.mark.parametrize(("game", "seed"), [("mm", 1), ("panels", 6)])
def test_one_fight_ends_with_a_winner(bench: ModuleType, game: str, seed: int,
                                      request: pytest.FixtureRequest) -> None:
    pack: Pack = request.getfixturevalue(game)
    run = bench.play(pack, seed)  # panels: a short fight (its exact parry odds are slow)
    assert run.winner in ("the heroes win", "the villains win")
    assert run.rounds >= 1 and run.steps >= len(run.choose) + len(run.resolve)
    assert run.choose and run.resolve and run.player and run.turns  # both sides played
    assert len(run.resolve) <= len(run.choose)  # every resolve was chosen first
    assert run.steps < bench.MAX_STEPS
    # only the panels game asks the player mid-step (a hero's response to a hit)
    assert (run.answers > 0) == (game == "panels")


@pytest.mark.parametrize(("game", "heroes", "foes"), [
    ("mm", ["Keystone", "Lamplight", "Slipstream", "Bedrock"], 6),
    ("panels", ["Rivet", "Nightjar", "Voltaic", "Quarrel"], 6),
])
def test_the_party_and_the_foes(bench: ModuleType, game: str, heroes: list[str], foes: int,
                                request: pytest.FixtureRequest) -> None:
    pack: Pack = request.getfixturevalue(game)
    game_ = bench.new_game(pack, 3)
    assert [h.name for h in game_.state.heroes] == heroes
    game_.start_fight(list(bench.case_of(pack).foes))
    sides = [r.side for r in game_.tracker()]
    assert (sides.count("heroes"), sides.count("villains")) == (4, foes)
    assert all(r.control == ("player" if r.side == "heroes" else "referee")
               for r in game_.tracker())


@pytest.mark.parametrize("game", ["mm", "panels"])
def test_the_greedy_player_takes_the_best_score(bench: ModuleType, game: str,
                                                request: pytest.FixtureRequest) -> None:
    pack: Pack = request.getfixturevalue(game)
    case = bench.case_of(pack)
    g = bench.new_game(pack, 5)
    g.start_fight(list(case.foes))
    while g.fighting and (g.referee_turn or g.fight_need):
        need = g.fight_need
        if isinstance(need, ChoiceNeed):
            g.fight_choose(bench.answer(need))
        else:
            g.referee_step()
    pick = bench.greedy(g)
    assert pick is not None
    best = max(case.score(t) for o in g.fight_options() if o.allowed
               and o.action == "attack" for t in o.targets if not t.why)  # within reach
    [chosen] = [t for o in g.fight_options() if o.key == f"attack/{pick[1]}"
                for t in o.targets if t.id == pick[2]]
    assert case.score(chosen) == best


def test_the_answer_to_a_hit_avoids_the_most(bench: ModuleType) -> None:
    def opt(id_: str, avoided: float | None = None) -> FightChoice:
        return FightChoice(id=id_, label=id_, avoided=avoided)

    def need(*choices: FightChoice) -> ChoiceNeed:
        return ChoiceNeed(actor="a", who="A", question="?", choices=choices)

    assert bench.answer(need(opt("none", 0.0), opt("dodge", 7.0), opt("parry:staff", 9.1),
                             opt("parry:fists", 6.5))) == "parry:staff"
    assert bench.answer(need(opt("none", 0.0), opt("dodge", 0.0))) == "none"
    assert bench.answer(need(opt("roll"), opt("1"))) == "roll"


def test_an_unfinished_fight_has_no_winner(bench: ModuleType, mm: Pack) -> None:
    run = bench.play(mm, 1, max_steps=3)
    assert (run.winner, run.steps) == (None, 3)


def test_the_report_has_each_number_and_its_ratio(bench: ModuleType, mm: Pack) -> None:
    run = bench.play(mm, 2, max_steps=40)
    lines = bench.report(bench.CASES["mm3e"], [run], [0.5, 0.5])
    text = "\n".join(lines)
    for label in ("rounds per second", "steps per second", "referee: choose",
                  "referee: resolve", "one referee turn", "suggest_fight",
                  "baseline: one Masks move"):
        assert label in text
    assert run.suggest  # asked at each of the player's turns
    baseline = next(line for line in lines if "baseline" in line)
    assert baseline.split()[-4:] == ["0.50", "0.50", "0.50", "1.00"]  # median, p90, p95, ratio


def test_the_first_suggestion_is_reported(bench: ModuleType, panels: Pack) -> None:
    first = bench.first_suggestions(panels)
    assert first.at_once > 0 and first.learnt > 0 and first.learning > 0
    lines = bench.report(bench.CASES["panels"], [bench.play(panels, 2, max_steps=20)],
                         [0.5], first)
    assert "first call" in lines[-1]


def test_p95_is_the_nearest_rank(bench: ModuleType) -> None:
    assert bench.p95(list(range(1, 101))) == 95
    assert bench.p90(list(range(1, 101))) == 90
    assert bench.p95([4.0]) == 4.0
    assert bench.p95([3, 1, 2]) == 3
