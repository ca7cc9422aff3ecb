"""The lab runner: the same results whatever the workers or the backend (serial, local
processes, a local Dask cluster), a campaign's failure reported and the run going on, what
would break every campaign refused before any plays, and progress."""

from __future__ import annotations

import importlib.util
import json
import random
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from engine.errors import ContentError, EngineError, IllegalAction
from engine.lab import runner
from engine.lab.model import (
    CampaignResult,
    Decision,
    LabSpec,
    campaign_seed,
    empty_result,
    policy_rng,
)
from engine.lab.policy import GreedyPolicy

ROOT = Path(__file__).resolve().parents[2]


def stand_in(spec: LabSpec, index: int) -> CampaignResult:
    """A stand-in simulation: a few draws from the campaign's own randomness."""
    rng = policy_rng(spec.seed, index)
    result = empty_result(spec, index, spec.policy)
    for step in range(spec.moves):
        band = rng.choice(["10+", "7-9", "6-"])
        result["rolls"].append({"move": "directly_engage", "band": band,
                                "odds": {"10+": 0.4, "7-9": 0.4, "6-": 0.2}, "step": step,
                                "scene": 0})
    result["steps"] = result["moves"] = spec.moves
    return result


def breaks_on_three(spec: LabSpec, index: int) -> CampaignResult:
    """The stand-in, but campaign 3 raises (as a policy or content bug would)."""
    if index == 3:
        raise ZeroDivisionError("the policy divided by zero")
    return stand_in(spec, index)


def as_json(results: list[CampaignResult]) -> str:
    return json.dumps(results, sort_keys=True)


SPEC = LabSpec(system="masks", policy="random", runs=23, seed=7, moves=5)


def test_serial_results_are_sorted_and_seeded() -> None:
    seen: list[tuple[int, int]] = []
    results = runner.run(SPEC, workers=1, simulate=stand_in,
                         progress=lambda d, t: seen.append((d, t)))
    assert [r["index"] for r in results] == list(range(23))
    assert [r["seed"] for r in results] == [campaign_seed(7, i) for i in range(23)]
    assert seen[0] == (0, 23) and seen[-1] == (23, 23)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)


def test_one_and_two_worker_processes_agree() -> None:
    seen: list[tuple[int, int]] = []
    one = runner.run(SPEC, workers=1, simulate=stand_in)
    two = runner.run(SPEC, workers=2, simulate=stand_in, progress=lambda d, t: seen.append(
        (d, t)))
    assert as_json(one) == as_json(two)
    assert seen[0] == (0, 23) and seen[-1] == (23, 23) and len(seen) > 2  # chunk by chunk


def test_chunks_cover_every_index_once_in_order() -> None:
    parts = runner.chunks(list(range(1000)), 2)
    assert [i for p in parts for i in p] == list(range(1000))
    assert max(len(p) for p in parts) <= runner.CHUNK_MAX and len(parts) >= 16
    assert runner.chunks([5], 4) == [[5]]


@pytest.mark.parametrize("workers", [1, 2])
def test_a_failing_campaign_is_reported_and_the_run_goes_on(workers: int) -> None:
    good = runner.run(SPEC, workers=1, simulate=stand_in)
    results = runner.run(SPEC, workers=workers, simulate=breaks_on_three)
    assert [r["index"] for r in results] == list(range(23))
    bad = results[3]
    assert bad["ok"] is False and bad["seed"] == campaign_seed(7, 3)
    assert bad["error"] == "ZeroDivisionError: the policy divided by zero"
    assert as_json(results[:3] + results[4:]) == as_json(good[:3] + good[4:])


def test_only_some_indices() -> None:
    full = runner.run(SPEC, workers=1, simulate=stand_in)
    some = runner.run(SPEC, workers=2, simulate=stand_in, indices=[17, 4, 4])
    assert as_json(some) == as_json([full[4], full[17]])


@pytest.mark.parametrize(("kwargs", "error", "fragment"), [
    ({"workers": 0}, IllegalAction, "workers must be from 1 to"),
    ({"backend": "ray"}, IllegalAction, "unknown backend 'ray'"),
    ({"address": "tcp://127.0.0.1:1"}, IllegalAction, "address is for the Dask backend"),
    ({"indices": [-1]}, IllegalAction, "campaign index must be from 0"),
])
def test_bad_arguments(kwargs: dict[str, Any], error: type[EngineError],
                       fragment: str) -> None:
    with pytest.raises(error, match=fragment):
        runner.run(SPEC, simulate=stand_in, **kwargs)


def never(spec: LabSpec, index: int) -> CampaignResult:
    raise AssertionError("no campaign may play")


@pytest.mark.parametrize(("spec", "error", "fragment"), [
    (LabSpec(system="nope"), ContentError, "unknown game system 'nope'"),
    (LabSpec(system="/no/such/pack"), ContentError, "/no/such/pack: no such pack folder"),
    (LabSpec(system=str(ROOT / "content")), ContentError, "not a content pack"),
    (LabSpec(system="masks", policy="nope"), IllegalAction, "unknown policy 'nope'"),
    (LabSpec(system="masks", runs=0), IllegalAction, "runs must be from 1"),
    (LabSpec(system="masks", scenes=0), IllegalAction, "scenes must be at least 1"),
    (LabSpec(system="masks", content=("/no/where",)), ContentError, "/no/where: no such"),
])
def test_what_breaks_every_campaign_fails_before_any_plays(
        spec: LabSpec, error: type[EngineError], fragment: str) -> None:
    with pytest.raises(error, match=fragment):
        runner.run(spec, workers=2, simulate=never)


def test_a_broken_pack_folder_fails_before_any_plays(tmp_path: Path) -> None:
    import shutil

    pack = tmp_path / "masks"
    shutil.copytree(ROOT / "content" / "masks", pack)
    moves = pack / "moves.yaml"
    moves.write_text(moves.read_text(encoding="utf-8").replace("roll:", "rol:", 1),
                     encoding="utf-8")
    with pytest.raises(ContentError, match="the content pack is broken"):
        runner.run(LabSpec(system=str(pack)), workers=2, simulate=never)


def test_a_local_dask_cluster_agrees_with_the_processes() -> None:
    pytest.importorskip("dask.distributed")
    import cloudpickle

    cloudpickle.register_pickle_by_value(sys.modules[__name__])  # workers cannot import tests
    try:
        seen: list[tuple[int, int]] = []
        dask = runner.run(SPEC, workers=2, backend="dask", simulate=breaks_on_three,
                          progress=lambda d, t: seen.append((d, t)))
    finally:
        cloudpickle.unregister_pickle_by_value(sys.modules[__name__])
    assert as_json(dask) == as_json(runner.run(SPEC, workers=1, simulate=breaks_on_three))
    assert seen[-1] == (23, 23)


def test_the_dask_backend_without_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "dask.distributed", None)  # import fails
    with pytest.raises(IllegalAction, match=r"needs the 'dask' extra: pip install"):
        runner.run(SPEC, backend="dask", simulate=stand_in)


# ------------------------------------------------------------------ with the real simulation


class Twin:
    """Greedy, after one draw from its rng at each decision (so it can be told apart)."""

    name = "twin"

    def choose(self, decision: Decision, rng: random.Random) -> int:
        self.draw = rng.random()
        return GreedyPolicy().choose(decision, rng)


class BreaksSometimes(Twin):
    """The twin, but it raises in the campaigns whose first draw is below 0.4."""

    name = "breaks"
    first: float | None = None

    def choose(self, decision: Decision, rng: random.Random) -> int:
        pick = super().choose(decision, rng)
        if self.first is None:
            self.first = self.draw
        if self.first < 0.4:
            raise KeyError("the policy lost its notes")
        return pick


def without(results: list[CampaignResult], *keys: str) -> list[dict[str, Any]]:
    return [{k: v for k, v in r.items() if k not in keys} for r in results]


@pytest.mark.parametrize("system", ["masks", "mutants-and-masterminds"])
def test_the_simulation_is_the_same_with_one_or_two_workers_and_on_dask(system: str) -> None:
    spec = LabSpec(system=system, policy="random", runs=6, seed=3, scenes=1, moves=4)
    one = runner.run(spec, workers=1)
    assert all(r["ok"] for r in one) and sum(len(r["rolls"]) for r in one) > 6
    assert as_json(runner.run(spec, workers=2)) == as_json(one)
    if system == "masks":  # one cluster is enough (it takes seconds to start)
        pytest.importorskip("dask.distributed")
        assert as_json(runner.run(spec, workers=2, backend="dask")) == as_json(one)


def test_a_broken_policy_is_reported_and_the_others_are_unchanged() -> None:
    spec = LabSpec(system="masks", policy=f"{__name__}:BreaksSometimes", runs=8, seed=5,
                   scenes=1, moves=3)
    broken = runner.run(spec, workers=2)
    twin = runner.run(replace(spec, policy=f"{__name__}:Twin"), workers=2)
    bad = [r["index"] for r in broken if not r["ok"]]
    assert 0 < len(bad) < 8  # some campaigns broke, the run went on with the rest
    for r in broken:
        if r["index"] in bad:
            assert "KeyError: 'the policy lost its notes'" in r["error"]
            assert f"seed {campaign_seed(5, r['index'])}" in r["error"]
    assert without([r for r in broken if r["ok"]], "policy") == without(
        [r for r in twin if r["index"] not in bad], "policy")


def test_a_never_ending_campaign_is_reported_with_its_seed() -> None:
    spec = LabSpec(system="masks", runs=3, seed=2, scenes=2, moves=5, max_steps=12)
    results = runner.run(spec, workers=2)
    assert [r["ok"] for r in results] == [False] * 3
    for r in results:
        assert "more than 12 engine steps" in r["error"]
        assert r["seed"] == campaign_seed(2, r["index"])
        assert f"seed {r['seed']}, index {r['index']}" in r["error"]


# ------------------------------------------------------------------ the benchmark, tiny


def test_the_benchmark_runs_tiny(capsys: pytest.CaptureFixture[str],
                                 monkeypatch: pytest.MonkeyPatch) -> None:
    path = ROOT / "benchmarks" / "bench_lab.py"
    spec = importlib.util.spec_from_file_location("bench_lab", path)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "bench_lab", bench)  # its dataclasses look it up
    spec.loader.exec_module(bench)
    lines = bench.main(["--rounds", "1", "--scale", "0.05", "--speedup-runs", "4",
                        "--speedup-rounds", "2", "--tiny"])
    assert capsys.readouterr().out.splitlines() == lines
    text = "\n".join(lines)
    for case in ("masks (1 sc x 2 moves)", "city-of-whispers", "mm3e fights", "panels fights"):
        row = next(line for line in lines if line.startswith(case))
        moves_per_s = float(row.split()[-4])
        assert moves_per_s > 0 and "failed" not in row
    assert "Full Masks scenes per minute, one core:" in text
    assert "Speed-up 1 -> 2 workers (4 Masks campaigns of 1 scenes, 2 rounds)" in text
    assert "results identical: yes" in text and "baseline: pure computation" in text


def test_a_dask_scheduler_by_its_address() -> None:
    dd = pytest.importorskip("dask.distributed")
    import cloudpickle

    with dd.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                         dashboard_address=None) as cluster:
        cloudpickle.register_pickle_by_value(sys.modules[__name__])
        try:
            results = runner.run(SPEC, backend="dask", address=cluster.scheduler_address,
                                 simulate=stand_in)
        finally:
            cloudpickle.unregister_pickle_by_value(sys.modules[__name__])
        assert as_json(results) == as_json(runner.run(SPEC, workers=1, simulate=stand_in))
        assert len(cluster.scheduler_info["workers"]) == 2  # still up: not closed by run


def test_a_bad_dask_address_is_a_clear_error() -> None:
    pytest.importorskip("dask.distributed")
    with pytest.raises(EngineError, match="cannot reach the Dask scheduler at nowhere: missing"
                                          " port number"):
        runner.run(SPEC, backend="dask", address="nowhere", simulate=stand_in)
