"""Lab statistics: special functions and intervals against known values, chi-square agreement
of band frequencies drawn from the exact odds, A/B of a run against itself, failures listed."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

from engine.lab.compare import compare
from engine.lab.model import CampaignResult, LabSpec, campaign_seed, empty_result
from engine.lab.stats import (
    chi2_sf,
    chi_square,
    holm,
    newcombe,
    summarize,
    t_quantile,
    welch,
    wilson,
)

ODDS = [
    {"miss": 0.4167, "weak_hit": 0.4167, "strong_hit": 0.1666},
    {"miss": 0.2778, "weak_hit": 0.4444, "strong_hit": 0.2778},
    {"miss": 0.1667, "weak_hit": 0.4166, "strong_hit": 0.4167},
]


def _draw(rng: random.Random, odds: dict[str, float]) -> str:
    x = rng.random() * sum(odds.values())
    for band, p in odds.items():
        x -= p
        if x < 0:
            return band
    return list(odds)[-1]


def synthetic(spec: LabSpec, index: int, bias: float = 0.0) -> CampaignResult:
    """A campaign whose rolls are drawn from their exact odds (``bias`` skews toward misses)."""
    rng = random.Random(campaign_seed(spec.seed, index))
    r = empty_result(spec, index, spec.policy)
    conditions = 0.0
    for scene in range(1, spec.scenes + 1):
        for _ in range(spec.moves):
            r["steps"] += 1
            r["moves"] += 1
            move = rng.choice(["directly_engage", "unleash_powers", "defend"])
            odds = ODDS[rng.randrange(3)]
            drawn = dict(odds)
            drawn["miss"] += bias
            band = _draw(rng, drawn)
            r["rolls"].append({"move": move, "band": band, "odds": odds, "step": r["steps"],
                               "scene": scene})
            if band == "miss":
                conditions = min(5.0, conditions + 1)
                r["gm_moves"]["inflict_condition"] = r["gm_moves"].get("inflict_condition", 0) + 1
            r["samples"].append({"step": r["steps"], "scene": scene,
                                 "values": {"conditions": conditions, "potential": 1.0}})
            if conditions >= 5 and not r["taken_out"]:
                r["taken_out"].append({"step": r["steps"], "scene": scene, "actor": "hero"})
        r["scenes"] += 1
    r["threats"].append({"id": "doom", "name": "Doom", "clock": int(conditions), "size": 4,
                         "doom_step": r["steps"] if conditions >= 4 else None})
    rounds = rng.randint(2, 6)
    first = rng.choice(["heroes", "foes"])
    winner = first if rng.random() < 0.6 else ("foes" if first == "heroes" else "heroes")
    r["fights"].append({"rounds": rounds, "steps": rounds * 3, "winner": winner,
                        "first": first})
    return r


def run(spec: LabSpec, bias: float = 0.0) -> list[CampaignResult]:
    return [synthetic(spec, i, bias) for i in range(spec.runs)]


def test_chi2_sf_known_values() -> None:
    assert chi2_sf(3.841458820694124, 1) == pytest.approx(0.05, abs=1e-9)
    assert chi2_sf(5.991464547107979, 2) == pytest.approx(0.05, abs=1e-9)
    assert chi2_sf(18.307038053275146, 10) == pytest.approx(0.05, abs=1e-9)
    assert chi2_sf(0.5, 3) == pytest.approx(0.918891411654676, abs=1e-9)
    assert chi2_sf(6.634896601021214, 1) == pytest.approx(0.01, abs=1e-9)
    assert chi2_sf(100.0, 50) == pytest.approx(3.4549e-05, rel=1e-3)
    assert chi2_sf(0.0, 4) == 1.0
    with pytest.raises(ValueError, match="df"):
        chi2_sf(1.0, 0)


def test_intervals_known_values() -> None:
    # Wilson: 81/263 (Newcombe 1998, example); Newcombe method 10: 56/70 vs 48/80.
    assert wilson(81, 263) == pytest.approx((0.2553, 0.3662), abs=1e-4)
    assert wilson(0, 10) == pytest.approx((0.0, 0.2775), abs=1e-4)
    d, low, high = newcombe(48, 80, 56, 70)
    assert (d, low, high) == pytest.approx((0.2, 0.0524, 0.3339), abs=1e-4)
    assert t_quantile(0.975, 10) == pytest.approx(2.228138852, abs=1e-6)
    assert t_quantile(0.975, 1) == pytest.approx(12.70620474, abs=1e-5)
    # Welch: the two samples of Wikipedia's "Welch's t-test" example 1 (t = -2.46, p = 0.021).
    a1 = [27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1, 21.9, 22.6, 23.1, 19.6, 19.0, 21.7,
          21.4]
    a2 = [27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0, 24.8, 20.2, 21.9, 22.1, 22.9, 20.5,
          24.4]
    diff, lo, hi, p = welch(a1, a2)
    assert diff == pytest.approx(2.1667, abs=1e-4)
    assert p == pytest.approx(0.021, abs=5e-4)
    assert lo < diff < hi and lo > 0


def test_holm() -> None:
    assert holm([0.01, 0.04, 0.03, 0.005]) == [True, False, False, True]
    assert holm([0.2, 0.5]) == [False, False]


def test_chi_square_rejects_biased_dice_and_impossible_bands() -> None:
    assert chi_square([50, 50], [50.0, 50.0])["p"] == pytest.approx(1.0)
    assert chi_square([80, 20], [50.0, 50.0])["p"] < 1e-8
    assert chi_square([99, 1], [100.0, 0.0])["p"] == 0.0


def test_band_frequencies_agree_with_the_exact_odds() -> None:
    spec = LabSpec(system="masks", runs=400, seed=7, scenes=3, moves=8)
    summary = summarize(run(spec), spec)
    assert summary["totals"]["rolls"] == 400 * 24
    assert {m["move"] for m in summary["moves"]} == {"defend", "directly_engage",
                                                     "unleash_powers"}
    for m in summary["moves"]:
        assert m["df"] == 2
        assert m["p"] > 0.001, m
        for b in m["bands"]:
            assert b["low"] <= b["expected"] <= b["high"] or abs(b["observed"]
                                                                - b["expected"]) < 0.03
    biased = summarize(run(spec, bias=0.08), spec)
    assert all(m["p"] < 0.001 for m in biased["moves"])


def test_summary_sections_and_determinism() -> None:
    spec = LabSpec(system="masks", runs=60, seed=3, scenes=2, moves=6)
    results = run(spec)
    summary = summarize(results, spec)
    assert summary == summarize(list(reversed(results)), spec)
    by_move = summary["series"]["by_move"]["conditions"]
    assert [p["move"] for p in by_move] == list(range(1, 13))
    assert by_move[0]["n"] == 60 and by_move[0]["low"] <= by_move[0]["mean"] <= by_move[0]["high"]
    assert [p["scene"] for p in summary["series"]["by_scene"]["conditions"]] == [1, 2]
    expected_out = sum(1 for r in results if r["taken_out"]) / 60
    assert summary["taken_out"]["rate"] == pytest.approx(expected_out)
    assert summary["gm_moves"][0]["move"] == "inflict_condition"
    f = summary["fights"]
    assert f["count"] == 60 and 2 <= f["rounds"]["median"] <= 6
    assert sum(f["rounds_distribution"].values()) == 60
    assert sum(p["count"] for p in f["wins"].values()) == 60
    assert f["first_mover_wins"]["n"] == 60
    assert summary["threats"]["threats"][0]["id"] == "doom"
    assert summary["headline"]


def test_failures_are_listed_with_their_seeds() -> None:
    spec = LabSpec(system="masks", runs=5, seed=11, scenes=1, moves=3)
    results = run(spec)
    results[2]["ok"] = False
    results[2]["error"] = "PolicyError: the policy raised ValueError('boom')"
    summary = summarize(results, spec)
    assert summary["ok"] == 4
    assert summary["failures"] == [{"index": 2, "seed": campaign_seed(11, 2),
                                    "error": "PolicyError: the policy raised ValueError('boom')"}]
    assert any("failed" in h for h in summary["headline"])


def _sig(diff: dict[str, Any]) -> list[str]:
    return [r["metric"] for r in diff["rows"] if r["significant"]]


def test_ab_of_a_run_against_itself_finds_nothing() -> None:
    spec = LabSpec(system="masks", runs=80, seed=5, scenes=2, moves=6)
    a = run(spec)
    diff = compare(a, run(spec), "masks", "masks copy")
    assert diff["same_seeds"] and diff["tests"] > 10
    assert _sig(diff) == []
    assert all(r["diff"] == 0 for r in diff["rows"])
    # Independent runs of the same pack (other seeds): Holm keeps the family-wise error near
    # 5%, so at most a rare pair out of ten flags anything.
    flagged = 0
    for seed in range(20, 30):
        x = run(LabSpec(system="masks", runs=40, seed=seed, scenes=2, moves=6))
        y = run(LabSpec(system="masks", runs=40, seed=seed + 100, scenes=2, moves=6))
        flagged += bool(_sig(compare(x, y, "A", "B")))
    assert flagged <= 2


def test_ab_finds_a_real_change_first() -> None:
    spec = LabSpec(system="masks", runs=150, seed=5, scenes=2, moves=6)
    diff = compare(run(spec), run(spec, bias=0.25), "before", "after")
    sig = [r for r in diff["rows"] if r["significant"]]
    assert sig and diff["rows"][: len(sig)] == sig
    names = _sig(diff)
    assert any(n.endswith(": miss") for n in names)
    assert [r["effect"] for r in sig] == sorted((r["effect"] for r in sig), reverse=True)
    miss = next(r for r in sig if r["metric"] == "defend: miss")
    assert miss["diff"] > 0 and miss["low"] > 0
    assert math.isfinite(miss["p"])


def test_ab_of_a_real_pack_against_itself() -> None:
    from engine.lab.sim import simulate

    spec = LabSpec(system="masks", runs=12, seed=4, scenes=2, moves=6)
    a = [simulate(spec, i) for i in range(spec.runs)]
    same = compare(a, [simulate(spec, i) for i in range(spec.runs)], "masks", "masks again")
    assert same["tests"] > 10 and _sig(same) == [] and all(r["diff"] == 0 for r in same["rows"])
    other = LabSpec(system="masks", runs=12, seed=40, scenes=2, moves=6)
    diff = compare(a, [simulate(other, i) for i in range(other.runs)], "seed 4", "seed 40")
    assert not diff["same_seeds"] and _sig(diff) == []
