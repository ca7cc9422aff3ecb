"""Speed of a whole M&M fight, headless: four heroes against six opponents.

Run: ``python benchmarks/bench_fight.py [--seeds N]``. Each seed plays one fight to its end in
memory: Keystone, Lamplight, Slipstream and a second Keystone block under another name
(Bedrock) against Madame Undertow and the Hornet Drones (a group of five: six foes). The
referee plays the villains' side (nothing is taken over); the heroes are played by a greedy
player that takes the attack and target with the best ``effect`` odds of
``Game.fight_options`` (P(hit and the resistance fails)), then ends the turn. A fight that has
not ended after ``MAX_STEPS`` steps is reported as unfinished.

Reported as medians over the seeds (and p95 over every step of every fight), next to a baseline
measured in the same run (one Masks move played through ``Game``: trigger, roll and choices),
as the design asks of benchmarks (ratios, never timed asserts):

- fight rounds per second and steps per second (every saved action: the referee's choose and
  resolve steps, the player's attacks, ends of turn);
- one referee step in ms: choosing (the policy reading the fight and saying why) and
  resolving (rolls, damage, events), each median and p95;
- one referee turn (all its steps) in ms, against the target of 50 ms for a referee turn on
  screen.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.content.loader import Pack, load_pack
from engine.game import Game

ROOT = Path(__file__).resolve().parent.parent
MM3E = ROOT / "content" / "mutants-and-masterminds"
MASKS = ROOT / "content" / "masks"
HEROES: list[dict[str, Any]] = [
    {"name": "Lamplight", "archetype": "lamplight"},
    {"name": "Slipstream", "archetype": "slipstream"},
    {"name": "Bedrock", "archetype": "keystone"},
]
"""The party after Keystone (Bedrock: Keystone's block under another name)."""
FOES = ["madame_undertow", "hornet_drones"]
MAX_STEPS = 3000
"""Steps one fight may take before the benchmark calls it unfinished."""
TARGET_MS = 50.0
"""A referee turn should be on screen within this."""


@dataclass
class FightRun:
    """One fight: who won, its size, and how long each kind of step took (seconds)."""

    seed: int
    winner: str | None = None
    rounds: int = 0
    steps: int = 0
    seconds: float = 0.0
    choose: list[float] = field(default_factory=list)
    resolve: list[float] = field(default_factory=list)
    player: list[float] = field(default_factory=list)
    turns: list[float] = field(default_factory=list)
    """Each referee turn: all its steps, from its first choice to the next turn."""


def new_game(pack: Pack, seed: int) -> Game:
    """The four heroes' campaign, in memory."""
    return Game.new(pack, name="bench fight", hero_name="Keystone", archetype="keystone",
                    party=HEROES, seed=seed)


def greedy(game: Game) -> tuple[str, str, str] | None:
    """The player's pick: (action, attack, target) with the best effect odds, or None."""
    best: tuple[float, tuple[str, str, str]] | None = None
    for o in game.fight_options():
        if not o["allowed"] or o["action"] != "attack" or not o.get("targets"):
            continue
        for t in o["targets"]:
            score = float(t["effect"])
            if best is None or score > best[0]:
                best = (score, ("attack", str(o["attack"]), str(t["id"])))
    return best[1] if best else None


def play(pack: Pack, seed: int, max_steps: int = MAX_STEPS) -> FightRun:
    """Play one fight to its end (or ``max_steps``); time every step."""
    game = new_game(pack, seed)
    run = FightRun(seed=seed)
    clock = time.perf_counter
    start = clock()
    game.start_fight(FOES)
    turn_start: float | None = None
    turn_of: str | None = None
    while game.fighting and run.steps < max_steps:
        fight = game.fight
        assert fight is not None
        acting = fight.encounter.acting
        if turn_start is not None and acting != turn_of:
            run.turns.append(clock() - turn_start)
            turn_start = None
        if game.referee_turn:
            if turn_start is None:
                turn_start, turn_of = clock(), acting
            choosing = fight.pending is None
            t = clock()
            game.referee_step()
            (run.choose if choosing else run.resolve).append(clock() - t)
        else:
            t = clock()
            pick = greedy(game)
            if pick is None:
                game.end_turn()
            else:
                action, attack, target = pick
                game.fight_act(action, target=target, attack=attack)
                now = game.fight
                if now is not None and now.encounter.acting == acting:
                    game.end_turn()
            run.player.append(clock() - t)
        run.steps += 1
        now = game.fight
        if now is not None:
            run.rounds = now.encounter.round
    if turn_start is not None:
        run.turns.append(clock() - turn_start)
    run.seconds = clock() - start
    ended = [e for e in game.last_events if e["type"] == "FightEnded"]
    if not game.fighting and ended:
        run.winner = str(ended[-1]["result"])
    return run


def masks_move_ms(pack: Pack, n: int = 60) -> list[float]:
    """The baseline: one Masks move played through ``Game`` (trigger, roll, choices), in ms."""
    game = Game.new(pack, name="bench", hero_name="Nova", archetype="signal_fire",
                    npcs=[("Rosalind", "adult", "")], seed=2)
    moves = [m.id for m in pack.moves.values()
             if m.roll is not None and m.requires_flag is None and m.target == "none"]
    out = []
    for i in range(n):
        if game.state.hero.taken_out or len(game.state.hero.conditions) >= 4:
            game.end_scene(list(game.state.hero.conditions))
            game.start_scene("next")
        t = time.perf_counter()
        game.trigger(moves[i % len(moves)])
        game.roll()
        if game.state.flow.stage == "adjust":
            game.adjust(None)
        while game.state.flow.stage == "effects":
            p = game.pending
            usable = [o for o in p.options if not o.get("disabled")]
            game.choose([o["id"] for o in usable[: max(p.min, 1)]])
        out.append((time.perf_counter() - t) * 1000)
    return out


def p95(values: Sequence[float]) -> float:
    """The 95th percentile (nearest rank)."""
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[max(0, math.ceil(0.95 * len(ordered)) - 1)]


def main(argv: Sequence[str] | None = None) -> None:
    """Play the fights and print the table."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seeds", type=int, default=10, help="fights to play (default 10)")
    args = ap.parse_args(argv)
    mm, masks = load_pack(MM3E), load_pack(MASKS)
    play(mm, 0, 50)  # warm the caches (stat blocks, odds tables, imports)
    masks_move_ms(masks, 5)
    runs, base = [], []
    for seed in range(1, args.seeds + 1):
        base += masks_move_ms(masks, 20)
        runs.append(play(mm, seed))
    base_ms = statistics.median(base)
    ms = 1000.0

    def row(name: str, values: Sequence[float], per_run: bool = False) -> None:
        med = statistics.median(values)
        tail = "" if per_run else f"{p95(values):9.2f}"
        print(f"{name:42} {med:10.2f} {tail:>9} {med / base_ms:8.2f}")

    finished = [r for r in runs if r.winner]
    wins: dict[str, int] = {}
    for r in runs:
        wins[r.winner or "unfinished"] = wins.get(r.winner or "unfinished", 0) + 1
    print(f"{len(runs)} fights: " + ", ".join(f"{k} {v}" for k, v in sorted(wins.items()))
          + f"; median {statistics.median(r.rounds for r in runs)} rounds,"
          f" {statistics.median(r.steps for r in runs)} steps")
    print(f"{'per fight (median over fights)':42} {'median':>10} {'':>9} {'':>8}")
    print(f"{'  rounds per second':42} "
          f"{statistics.median(r.rounds / r.seconds for r in runs):10.1f}")
    print(f"{'  steps per second':42} "
          f"{statistics.median(r.steps / r.seconds for r in runs):10.1f}")
    print(f"{'per step, ms (over every step)':42} {'median':>10} {'p95':>9} {'ratio':>8}")
    row("  referee: choose", [x * ms for r in runs for x in r.choose])
    row("  referee: resolve", [x * ms for r in runs for x in r.resolve])
    row("  player: greedy pick + act + end turn", [x * ms for r in runs for x in r.player])
    turns = [x * ms for r in runs for x in r.turns]
    row(f"  one referee turn (target {TARGET_MS:.0f} ms)", turns)
    row("  baseline: one Masks move played", base)
    within = sum(1 for t in turns if t <= TARGET_MS) / max(1, len(turns))
    print(f"ratio: median / the baseline's median. Referee turns within {TARGET_MS:.0f} ms:"
          f" {within:.0%}. Fights finished: {len(finished)}/{len(runs)}.")


if __name__ == "__main__":
    main()
