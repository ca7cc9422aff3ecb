"""Speed of whole fights of the conflict layer, headless: M&M and the panels game, four heroes
against six opponents each.

Run: ``python benchmarks/bench_fight.py [--seeds N] [--game mm3e|panels|all]``. Each seed plays
one fight per game to its end in memory (``CASES``). M&M: Keystone, Lamplight, Slipstream and a
second Keystone block under another name (Bedrock) against Madame Undertow and the Hornet Drones
(a group of five). Panels: Rivet, Nightjar, Voltaic and Quarrel against Gantry and the Foundry
Crew (a thug group of five). The referee plays the villains' side (nothing is taken over); the
heroes are played by a greedy player that takes the attack and target with the best score of
``Game.fight_options`` (M&M: ``effect``, P(hit and the resistance fails); panels: the chance to
put the target down, then the expected damage), then ends the turn; when the fight asks the
player (a panels hero hit: dodge, parry or take it), it answers with the response expected to
avoid the most damage. A fight that has not ended after ``MAX_STEPS`` steps is reported as
unfinished.

Reported per game as medians over the seeds (and p90 and p95 over every step of every fight),
next to a baseline measured in the same run (one Masks move played through ``Game``: trigger,
roll and choices), as the design asks of benchmarks (ratios, never timed asserts), with the
load average before and after the run (``os.getloadavg``):

- fight rounds per second and steps per second (every saved action: the referee's choose and
  resolve steps, the player's attacks, answers and ends of turn);
- one referee step in ms: choosing (the policy reading the fight and saying why) and
  resolving (rolls, damage, events), each median and p95;
- one referee turn (all its steps) in ms, against the target of 50 ms for a referee turn on
  screen;
- ``Game.suggest_fight`` (the actions the player's words suggest) in ms, asked at every turn
  of the greedy player with one of ``FICTIONS`` in turn, against the target of 2 ms median and
  5 ms p90; and its first call in a fight, with the matcher of the pack's action words
  unlearnt (``first_suggestions``): at once when the fight starts and is shown (it waits for
  the rest of the matcher's learning, which showing the fight's tracker begins in the
  background), and once the matcher is learnt (the player took that long to type), with the
  learning's own time.
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.content.loader import Pack, load_pack
from engine.game import Game
from engine.rules.fight.values import ChoiceNeed, FightTarget
from engine.triggers import matcher_for

ROOT = Path(__file__).resolve().parent.parent
MM3E = ROOT / "content" / "mutants-and-masterminds"
PANELS = ROOT / "content" / "panels"
MASKS = ROOT / "content" / "masks"
HEROES: list[dict[str, Any]] = [
    {"name": "Lamplight", "archetype": "lamplight"},
    {"name": "Slipstream", "archetype": "slipstream"},
    {"name": "Bedrock", "archetype": "keystone"},
]
"""The M&M party after Keystone (Bedrock: Keystone's block under another name)."""
FOES = ["madame_undertow", "hornet_drones"]
MAX_STEPS = 3000
"""Steps one fight may take before the benchmark calls it unfinished."""
TARGET_MS = 50.0
"""A referee turn should be on screen within this."""
SUGGEST_TARGET_MS = (2.0, 5.0)
"""``suggest_fight`` should answer within this median and p90."""
FICTIONS = ("I punch the nearest one", "I blast them from across the room",
            "I grab him and throw him down", "I dodge and strike back hard",
            "I look around for cover", "I run for it")
"""What the benchmark's player says at its turns (``suggest_fight``'s input), in turn."""


def _effect(target: FightTarget) -> tuple[float, ...]:
    return (target.effect or 0.0,)


def _down_then_damage(target: FightTarget) -> tuple[float, ...]:
    return (target.down or 0.0, target.expected_damage or 0.0)


@dataclass(frozen=True)
class Case:
    """One game's fight: the pack, the heroes (the first, then the party), the foes, and how
    the greedy player scores a target of an attack option (higher is better)."""

    name: str
    folder: Path
    hero: tuple[str, str]
    party: tuple[dict[str, Any], ...]
    foes: tuple[str, ...]
    score: Callable[[FightTarget], tuple[float, ...]]


CASES: dict[str, Case] = {
    "mm3e": Case("M&M: 4 heroes vs Madame Undertow and the Hornet Drones (5)", MM3E,
                 ("Keystone", "keystone"), tuple(HEROES), tuple(FOES), _effect),
    "panels": Case("panels: 4 heroes vs Gantry and the Foundry Crew (5)", PANELS,
                   ("Rivet", "rivet"),
                   ({"name": "Nightjar", "archetype": "nightjar"},
                    {"name": "Voltaic", "archetype": "voltaic"},
                    {"name": "Quarrel", "archetype": "quarrel"}),
                   ("gantry", "the_foundry_crew"), _down_then_damage),
}
"""The fights, by the id of the game's ruleset. M&M: the greedy player takes the best
``effect`` (P(hit and the resistance fails)); panels: the best chance of putting the target
down, then the most expected damage."""


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
    suggest: list[float] = field(default_factory=list)
    """Each ``suggest_fight`` at the greedy player's turns."""
    answers: int = 0
    """The player's answers to what the fight asked (a hero's dodge or parry, a crit)."""


def case_of(pack: Pack) -> Case:
    """The benchmark's fight for ``pack``'s game."""
    return CASES[pack.system.ruleset]


def new_game(pack: Pack, seed: int) -> Game:
    """The four heroes' campaign, in memory."""
    case = case_of(pack)
    return Game.new(pack, name="bench fight", hero_name=case.hero[0], archetype=case.hero[1],
                    party=[dict(h) for h in case.party], seed=seed)


def greedy(game: Game) -> tuple[str, str, str] | None:
    """The player's pick: (action, attack, target) with the best score, or None."""
    score = case_of(game.pack).score
    best: tuple[tuple[float, ...], tuple[str, str, str]] | None = None
    for o in game.fight_options():
        if not o.allowed or o.action != "attack" or not o.targets or o.attack is None:
            continue
        for t in o.targets:
            if t.why:  # out of reach (M&M positions), or it cannot be targeted
                continue
            mine = score(t)
            if best is None or mine > best[0]:
                best = (mine, ("attack", o.attack.id, t.id))
    return best[1] if best else None



def player_turn(game: Game, acting: str) -> None:
    """The greedy player's turn for ``acting``: its best attack (then the end of the turn if
    the fight still waits on it), or the end of the turn when it has none."""
    pick = greedy(game)
    if pick is None:
        game.end_turn()
        return
    action, attack, target = pick
    game.fight_act(action, target=target, attack=attack)
    now = game.fight
    if now is not None and now.encounter.acting == acting and not game.fight_need:
        game.end_turn()

def answer(need: ChoiceNeed) -> str:
    """The greedy player's answer to what the fight asks: to a hit, the response expected to
    avoid the most damage (each option's ``avoided``), taking it when none avoids any;
    anything else (a critical hit's effect), the first option."""
    best, avoided = None, 0.0
    for o in need.choices:
        if o.avoided is not None and o.avoided > avoided:
            best, avoided = o.id, o.avoided
    if best is not None:
        return best
    ids = [o.id for o in need.choices]
    return "none" if "none" in ids else ids[0]


def play(pack: Pack, seed: int, max_steps: int = MAX_STEPS) -> FightRun:
    """Play one fight to its end (or ``max_steps``); time every step."""
    game = new_game(pack, seed)
    run = FightRun(seed=seed)
    clock = time.perf_counter
    start = clock()
    game.start_fight(list(case_of(pack).foes))
    turn_start: float | None = None
    turn_of: str | None = None
    while game.fighting and run.steps < max_steps:
        fight = game.fight
        assert fight is not None
        acting = fight.encounter.acting
        if turn_start is not None and acting != turn_of:
            run.turns.append(clock() - turn_start)
            turn_start = None
        need = game.fight_need
        if isinstance(need, ChoiceNeed):
            t = clock()  # the step waiting on the player's answer plays on
            game.fight_choose(answer(need))
            run.player.append(clock() - t)
            run.answers += 1
        elif game.referee_turn:
            if turn_start is None:
                turn_start, turn_of = clock(), acting
            choosing = fight.pending is None
            t = clock()
            game.referee_step()
            (run.choose if choosing else run.resolve).append(clock() - t)
        else:
            t = clock()
            game.suggest_fight(FICTIONS[len(run.suggest) % len(FICTIONS)])
            run.suggest.append(clock() - t)
            t = clock()
            player_turn(game, acting)
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
            usable = [o for o in p.options if not o.disabled]
            game.choose([o.id for o in usable[: max(p.min, 1)]])
        out.append((time.perf_counter() - t) * 1000)
    return out


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q`` percentile (0-100, nearest rank)."""
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[max(0, math.ceil(q / 100 * len(ordered)) - 1)]


def p95(values: Sequence[float]) -> float:
    """The 95th percentile (nearest rank)."""
    return percentile(values, 95)


def p90(values: Sequence[float]) -> float:
    """The 90th percentile (nearest rank)."""
    return percentile(values, 90)


@dataclass
class FirstSuggestions:
    """``suggest_fight``'s first call in a fight with the pack's matcher unlearnt (ms)."""

    at_once: float
    """Asked as soon as the fight has started (waits for the rest of the learning)."""
    learnt: float
    """Asked once the matcher is learnt."""
    learning: float
    """From the start of the fight until the matcher was learnt (in the background)."""


def first_suggestions(pack: Pack) -> FirstSuggestions:
    """``suggest_fight``'s first call, the fight matcher forgotten first (the engine keeps one
    per pack content): at once after ``start_fight``, and after waiting for its learning. (An
    engine that learns it on the first call, as before: "learnt" is the second call and the
    learning is the first call's.)"""
    from engine import fight as fights  # the matcher's caches, forgotten for the measure

    def fresh() -> Game:
        fights._MATCHERS.clear()
        getattr(fights, "_BY_CONTENT", {}).clear()
        game = new_game(pack, 1)
        game.start_fight(list(case_of(pack).foes))
        game.tracker()  # the fight shown, as the app draws it (the learning begins)
        return game

    def wait(done: Callable[[], bool]) -> None:
        while not done():
            time.sleep(0.001)

    clock = time.perf_counter
    game = fresh()
    t = clock()
    game.suggest_fight(FICTIONS[0])
    at_once = clock() - t
    built = getattr(fights, "_built", None)
    if built is None:
        t = clock()
        game.suggest_fight(FICTIONS[0])
        return FirstSuggestions(at_once * 1000, (clock() - t) * 1000, at_once * 1000)
    wait(lambda: not fights._WARMING)  # the learning at once above: done
    start = clock()
    game = fresh()
    wait(lambda: built(pack) is not None)
    learning = clock() - start
    t = clock()
    game.suggest_fight(FICTIONS[0])
    return FirstSuggestions(at_once * 1000, (clock() - t) * 1000, learning * 1000)


def report(case: Case, runs: Sequence[FightRun], base: Sequence[float],
           first: FirstSuggestions | None = None) -> list[str]:
    """One fight's table: rounds/s and steps/s (medians over fights), the referee's choose,
    resolve and whole turn and ``suggest_fight`` in ms (median, p90 and p95 over every step),
    each with its ratio to the baseline's median; ``first``: suggest_fight's first calls."""
    base_ms = statistics.median(base)
    ms = 1000.0
    out: list[str] = []

    def row(name: str, values: Sequence[float]) -> None:
        med = statistics.median(values) if values else float("nan")
        out.append(f"{name:42} {med:10.2f} {p90(values):9.2f} {p95(values):9.2f}"
                   f" {med / base_ms:8.2f}")

    wins: dict[str, int] = {}
    for r in runs:
        wins[r.winner or "unfinished"] = wins.get(r.winner or "unfinished", 0) + 1
    out.append(f"{case.name}")
    out.append(f"{len(runs)} fights: " + ", ".join(f"{k} {v}" for k, v in sorted(wins.items()))
               + f"; median {statistics.median(r.rounds for r in runs)} rounds,"
               f" {statistics.median(r.steps for r in runs)} steps,"
               f" {statistics.median(r.answers for r in runs)} answers to the fight")
    out.append(f"{'per fight (median over fights)':42} {'median':>10}")
    out.append(f"{'  rounds per second':42} "
               f"{statistics.median(r.rounds / r.seconds for r in runs):10.1f}")
    out.append(f"{'  steps per second':42} "
               f"{statistics.median(r.steps / r.seconds for r in runs):10.1f}")
    out.append(f"{'per step, ms (over every step)':42} {'median':>10} {'p90':>9} {'p95':>9}"
               f" {'ratio':>8}")
    row("  referee: choose", [x * ms for r in runs for x in r.choose])
    row("  referee: resolve", [x * ms for r in runs for x in r.resolve])
    row("  player: greedy pick + act (or answer)", [x * ms for r in runs for x in r.player])
    turns = [x * ms for r in runs for x in r.turns]
    row(f"  one referee turn (target {TARGET_MS:.0f} ms)", turns)
    sugs = [x * ms for r in runs for x in r.suggest]
    row(f"  suggest_fight (target {SUGGEST_TARGET_MS[0]:.0f} / {SUGGEST_TARGET_MS[1]:.0f} ms)",
        sugs)
    row("  baseline: one Masks move played", base)
    within = sum(1 for t in turns if t <= TARGET_MS) / max(1, len(turns))
    finished = sum(1 for r in runs if r.winner)
    out.append(f"ratio: median / the baseline's median. Referee turns within"
               f" {TARGET_MS:.0f} ms: {within:.0%}. Fights finished: {finished}/{len(runs)}.")
    if first is not None:
        out.append(f"suggest_fight's first call in a fight, matcher unlearnt: {first.at_once:.1f}"
                   f" ms at once after the fight starts (waits for the learning), then"
                   f" {first.learnt:.1f} ms once learnt; learning {first.learning:.0f} ms in"
                   " the background from the fight's start")
    return out


def load() -> str:
    """The load average (1, 5, 15 minutes)."""
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main(argv: Sequence[str] | None = None) -> None:
    """Play the fights of each game asked for and print a table for each."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seeds", type=int, default=10, help="fights to play per game (default 10)")
    ap.add_argument("--game", choices=[*CASES, "all"], default="all",
                    help="which game's fight (default all)")
    args = ap.parse_args(argv)
    before = load()
    masks = load_pack(MASKS)
    masks_move_ms(masks, 5)
    matcher_for(masks)  # the lemmatizer loaded, as the app does when a campaign opens
    names = list(CASES) if args.game == "all" else [args.game]
    packs = {name: load_pack(CASES[name].folder) for name in names}
    first = {name: first_suggestions(pack) for name, pack in packs.items()}
    for pack in packs.values():
        play(pack, 0, 50)  # warm the caches (stat blocks, odds tables, imports)
    runs: dict[str, list[FightRun]] = {name: [] for name in names}
    base: list[float] = []
    for seed in range(1, args.seeds + 1):  # the baseline interleaved with the fights
        for name in names:
            base += masks_move_ms(masks, 10)
            runs[name].append(play(packs[name], seed))
    for i, name in enumerate(names):
        if i:
            print()
        print("\n".join(report(CASES[name], runs[name], base, first[name])))
    print(f"\nload average (1, 5, 15 min): {before} before, {load()} after")


if __name__ == "__main__":
    main()
