"""Throughput of Masks move resolution, headless.

Run: ``python benchmarks/bench_core.py``. Reports medians over several rounds, each against a
baseline measured in the same run (a bare seeded 2d6 roll with a band lookup), so the ratio is
meaningful on a noisy machine:

- resolve + apply the roll: every modifier with its source, the dice, the band, the exact
  odds, and the ``Rolled`` event applied to the state;
- the same plus the outcome's effects applied (first options picked; GM moves on misses);
- the full facade: trigger, roll, choices, each an autosaved action (in-memory store).
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from pathlib import Path

from engine.content.loader import load_pack
from engine.dice import DiceSpec, SeededDice
from engine.game import Game
from engine.odds import band_of
from engine.rules import events as ev
from engine.rules.base import Need
from engine.rules.resolve import resolve
from engine.rules.state import CampaignState

ROOT = Path(__file__).resolve().parent.parent
ROUNDS = 7


def per_second(fn: Callable[[int], None], n: int) -> float:
    """Operations per second of ``fn(n)``."""
    t = time.perf_counter()
    fn(n)
    return n / (time.perf_counter() - t)


def main() -> None:
    """Print the table."""
    pack = load_pack(ROOT / "content" / "masks")
    game = Game.new(pack, name="bench", hero_name="Nova", archetype="signal_fire",
                    npcs=[("Rosalind", "adult", ""), ("Dusk", "villain", "")], seed=1)
    initial = game.state.model_dump()
    rolled_moves = [m for m in pack.moves.values()
                    if m.roll is not None and m.requires_flag is None and m.target == "none"]
    bands = pack.system.bands["default"]
    spec = DiceSpec.parse("2d6")

    def baseline(n: int) -> None:
        dice = SeededDice(1)
        for _ in range(n):
            band_of(dice.roll(spec).total + 1, bands)

    def resolve_only(n: int) -> None:
        state = CampaignState.model_validate(initial)
        dice = SeededDice(state.seed)
        for i in range(n):
            move = rolled_moves[i % len(rolled_moves)]
            roll = dice.roll(pack.dice_for(move))
            ev.apply(state, resolve(state, pack, game.rules, move, None, roll, dice.position))

    def core(n: int) -> None:
        state = CampaignState.model_validate(initial)
        dice = SeededDice(state.seed)
        interp = game.interp
        for i in range(n):
            if i % 50 == 0:
                state = CampaignState.model_validate(initial)
            move = rolled_moves[i % len(rolled_moves)]
            roll = dice.roll(pack.dice_for(move))
            rolled = resolve(state, pack, game.rules, move, None, roll, dice.position)
            ev.apply(state, rolled)
            queue = game.moves._outcome_items(move, f"outcomes.{rolled.band}", None)
            while queue:
                res = interp.step(state, queue[0])
                if isinstance(res, Need):
                    ids = [o["id"] for o in res.options[: max(res.min, 1)]]
                    queue = interp.answer(state, queue[0], ids) + queue[1:]
                    continue
                for e in res.events:
                    ev.apply(state, e)
                queue = res.push + queue[1:]

    def facade(n: int) -> None:
        g = Game.new(pack, name="bench", hero_name="Nova", archetype="signal_fire",
                     npcs=[("Rosalind", "adult", "")], seed=2)
        for i in range(n):
            if g.state.hero.taken_out or len(g.state.hero.conditions) >= 4:
                g.end_scene(list(g.state.hero.conditions))
                g.start_scene("next")
            g.trigger(rolled_moves[i % len(rolled_moves)].id)
            g.roll()
            if g.state.flow.stage == "adjust":
                g.adjust(None)
            while g.state.flow.stage == "effects":
                p = g.pending
                usable = [o for o in p.options if not o.disabled]
                g.choose([o.id for o in usable[: max(p.min, 1)]])

    rows = []
    for name, fn, n in (("resolve + apply the roll", resolve_only, 20_000),
                        ("... + apply the outcome's effects", core, 20_000),
                        ("full facade move (3 saved actions)", facade, 2_000)):
        base, ours = [], []
        for _ in range(ROUNDS):
            base.append(per_second(baseline, 50_000))
            ours.append(per_second(fn, n))
        rows.append((name, statistics.median(ours), statistics.median(base)))
    print(f"{'benchmark':38} {'median ops/s':>14} {'baseline ops/s':>15} {'ratio':>8}")
    for name, ours_m, base_m in rows:
        print(f"{name:38} {ours_m:14,.0f} {base_m:15,.0f} {ours_m / base_m:8.3f}")
    print("baseline: a bare seeded 2d6 roll + band lookup, measured in the same rounds")


if __name__ == "__main__":
    main()
