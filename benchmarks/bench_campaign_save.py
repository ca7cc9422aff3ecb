"""Benchmark: the autosave of a long campaign of fights stays flat from the first fight to the
twentieth.

Plays ``--fights`` fights (default 20) in one saved campaign per game (M&M and the panels
game: the party and the foes of ``bench_fight.py``, the referee playing the villains and
``bench_fight``'s greedy player the heroes; the heroes are patched up between fights), and
times every ``CampaignStore.save`` the game makes. Per fight it prints the median and p90 save
in ms, the bytes of campaign.json (the state every save rewrites) and the actors in the state.

The same-run baseline is the same campaign with the minions of finished fights kept in the
state (``FoesCleared`` switched off: how every save behaved before format 4); the ratio column
is this fight's median over the baseline's at the same fight, and the last lines compare fight
``--fights`` with fight 1 in each. The load average is printed before and after.

Run: ``.venv/bin/python benchmarks/bench_campaign_save.py [--fights N] [--game mm3e|panels|all]``
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_fight import CASES, MAX_STEPS, Case, answer, player_turn

import engine.fight as engine_fight
from engine.campaigns import new_game
from engine.content.loader import load_pack
from engine.game import Game
from engine.rules.fight.values import ChoiceNeed
from engine.store import CAMPAIGN_FILE, CampaignStore


@dataclass
class FightSaves:
    """One fight's saves: their times (s), and the campaign after it."""

    times: list[float] = field(default_factory=list)
    state_bytes: int = 0
    actors: int = 0
    folder_bytes: int = 0


def play_fight(game: Game, foes: Sequence[str]) -> None:
    """One fight to its end, as ``bench_fight.play`` plays it (untimed)."""
    game.start_fight(list(foes))
    steps = 0
    while game.fighting and steps < MAX_STEPS:
        fight = game.fight
        assert fight is not None
        acting = fight.encounter.acting
        need = game.fight_need
        if isinstance(need, ChoiceNeed):
            game.fight_choose(answer(need))
        elif game.referee_turn:
            game.referee_step()
        else:
            player_turn(game, acting)
        steps += 1


def patch_up(game: Game) -> None:
    """Between fights: every hero's conditions cleared, damage to 0, health tracks full."""
    for hero in list(game.state.party):
        for e in game.editable(hero):
            if e.what == "condition" and e.value:
                game.edit(hero, "condition", e.key, False, "between fights")
            elif e.what == "track" and e.key == "damage" and e.value:
                game.edit(hero, "track", e.key, 0, "between fights")
            elif e.what == "track" and e.key in ("kill", "stun") and e.max is not None \
                    and e.value < e.max:
                game.edit(hero, "track", e.key, e.max, "between fights")


def folder_bytes(folder: Path) -> int:
    """Bytes of every file under ``folder``."""
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def campaign(case: Case, fights: int, keep_foes: bool) -> list[FightSaves]:
    """Play ``fights`` fights in one saved campaign; each fight's saves."""
    pack = load_pack(case.folder)
    out: list[FightSaves] = []
    current = FightSaves()
    real_save = CampaignStore.save
    real_spent = engine_fight.spent_foes

    def timed(self: CampaignStore, *a: Any, **k: Any) -> None:
        start = time.perf_counter()
        real_save(self, *a, **k)
        current.times.append(time.perf_counter() - start)

    CampaignStore.save = timed  # type: ignore[method-assign]
    if keep_foes:
        engine_fight.spent_foes = lambda state, among: []  # type: ignore[assignment]
    try:
        with tempfile.TemporaryDirectory(prefix="bench-campaign-") as tmp:
            game = new_game(Path(tmp), system=pack.system.id, name="bench", seed=1,
                            hero_name=case.hero[0], archetype=case.hero[1],
                            party=[dict(h) for h in case.party])
            assert isinstance(game.store, CampaignStore)
            folder = game.store.path
            try:
                for _ in range(fights):
                    current = FightSaves()
                    play_fight(game, case.foes)
                    current.state_bytes = (folder / CAMPAIGN_FILE).stat().st_size
                    current.actors = len(game.state.actors)
                    current.folder_bytes = folder_bytes(folder)
                    out.append(current)
                    patch_up(game)
            finally:
                game.store.close()
    finally:
        CampaignStore.save = real_save  # type: ignore[method-assign]
        engine_fight.spent_foes = real_spent
    return out


def p90(xs: Sequence[float]) -> float:
    """The 90th percentile (nearest rank)."""
    ordered = sorted(xs)
    return ordered[max(0, -(-9 * len(ordered) // 10) - 1)]


def report(name: str, ours: list[FightSaves], base: list[FightSaves]) -> list[str]:
    """The table of one game."""
    ms = 1000.0
    lines = [name, f"{'fight':>5} | {'saves':>5} | {'median ms':>9} | {'p90 ms':>7} | "
             f"{'state KB':>8} | {'actors':>6} | {'folder KB':>9} || {'kept: median':>12} | "
             f"{'p90':>6} | {'state KB':>8} | {'actors':>6} | {'ratio':>5}"]
    for i, (o, b) in enumerate(zip(ours, base, strict=True), start=1):
        om, bm = statistics.median(o.times) * ms, statistics.median(b.times) * ms
        lines.append(f"{i:>5} | {len(o.times):>5} | {om:>9.2f} | {p90(o.times) * ms:>7.2f} | "
                     f"{o.state_bytes / 1024:>8.1f} | {o.actors:>6} | "
                     f"{o.folder_bytes / 1024:>9.0f} || {bm:>12.2f} | "
                     f"{p90(b.times) * ms:>6.2f} | {b.state_bytes / 1024:>8.1f} | "
                     f"{b.actors:>6} | {om / bm:>5.2f}")

    def flat(runs: list[FightSaves]) -> str:
        first, last = runs[0], runs[-1]
        return (f"fight {len(runs)}/fight 1: median save "
                f"{statistics.median(last.times) / statistics.median(first.times):.2f}, "
                f"state bytes {last.state_bytes / first.state_bytes:.2f}")

    lines.append(f"now (minions leave the state):  {flat(ours)}")
    lines.append(f"baseline (minions kept):        {flat(base)}")
    every_o = [t for r in ours for t in r.times]
    every_b = [t for r in base for t in r.times]
    lines.append(f"every save: median {statistics.median(every_o) * ms:.2f} ms, p90 "
                 f"{p90(every_o) * ms:.2f} ms; baseline {statistics.median(every_b) * ms:.2f} /"
                 f" {p90(every_b) * ms:.2f} ms; ratio of medians "
                 f"{statistics.median(every_o) / statistics.median(every_b):.2f}")
    return lines


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--fights", type=int, default=20, help="fights per campaign (default 20)")
    ap.add_argument("--game", choices=[*CASES, "all"], default="all")
    args = ap.parse_args(argv)
    load = os.getloadavg()
    print(f"load average at start: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    started = time.perf_counter()
    for name in (list(CASES) if args.game == "all" else [args.game]):
        ours = campaign(CASES[name], args.fights, keep_foes=False)
        base = campaign(CASES[name], args.fights, keep_foes=True)
        print("\n".join(report(CASES[name].name, ours, base)))
        print()
    load = os.getloadavg()
    print(f"load average at end: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f};"
          f" ran in {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
