"""Fight actions read from the fiction (``Game.suggest_fight``): accuracy on held-out lines,
and speed. ``bench_detection.py`` prints it after the moves; run alone with
``python benchmarks/detection_fights.py [--misses]``.

The lines live in ``benchmarks/detection/fights/<system>.yaml``, one file per d20 game,
written before the fight suggestions were tuned. Each names the action a referee would call
(``none``: just fiction), and when the words pick them, the attack, the maneuver, the power
and the target ("all": every foe in an area). A line is read on its hero's first turn in a
seeded fight against the file's foes, with every option counted (allowed now or not: the
set is about reading words, not about whose panels are left).

Reported per system: top-1 and top-3 on the move lines (the right action, with the attack,
maneuver and power labelled, first / among the first three), "just fiction" first on the
``none`` lines, the target picked, and the time per line (median and p90 of every call, a
warm matcher, as in play) against the learnt matcher alone in the same run (the reading's
overhead), with the load average.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.content.loader import load_pack  # noqa: E402
from engine.fight import _fight_matcher  # noqa: E402
from engine.game import Game  # noqa: E402
from engine.rules.fight.values import FightSuggestion  # noqa: E402

FIGHT_SYSTEMS = ("mutants-and-masterminds", "panels")


def fight_lines(system: str) -> dict[str, Any]:
    """The held-out fight set of ``system`` (its hero, foes and lines)."""
    path = ROOT / "benchmarks" / "detection" / "fights" / f"{system}.yaml"
    data: dict[str, Any] = yaml.safe_load(path.read_text(encoding="utf-8"))
    return data


def fight_game(system: str, hero: str, foes: Sequence[str]) -> Game:
    """A seeded fight of ``hero`` against ``foes``, at the hero's first turn."""
    pack = load_pack(ROOT / "content" / system)
    g = Game.new(pack, name="bench", hero_name=hero.title(), archetype=hero, seed=3)
    g.start_fight(list(foes))
    while g.referee_turn:
        g.referee_step()
    return g


def right(sug: FightSuggestion, line: dict[str, Any]) -> bool:
    """Whether ``sug`` is what ``line`` is labelled."""
    if line["action"] == "none":
        return sug.action is None
    if sug.action != line["action"]:
        return False
    if line.get("attack") and (sug.attack is None or sug.attack.id != line["attack"]):
        return False
    if line.get("maneuver") and line["maneuver"] not in getattr(sug, "maneuvers", ()):
        return False
    return not line.get("power") or (sug.named is not None and sug.named.id == line["power"])


def target_right(sug: FightSuggestion, want: str) -> bool:
    """Whether ``sug`` is aimed where ``want`` says ("all": every foe in the area)."""
    if want == "all":
        return bool(getattr(sug, "area", False))
    return sug.target is not None and sug.target.name.startswith(want)


def suggest(game: Game, text: str) -> list[FightSuggestion]:
    """What the app would offer, every option counted."""
    try:
        return game.fights.suggest(text, everything=True)  # type: ignore[call-arg]
    except TypeError:  # an engine from before ``everything``
        return game.suggest_fight(text)


def score_system(system: str, misses: bool = False) -> dict[str, Any]:
    """Top-1/top-3 on move lines, none lines right, target picked, and the misses."""
    data = fight_lines(system)
    games: dict[str, Game] = {}
    one = three = none_right = moves = nones = aimed = aimed_right = 0
    missed: list[str] = []
    for line in data["lines"]:
        hero = line.get("hero") or data["hero"]
        if hero not in games:
            games[hero] = fight_game(system, hero, data["foes"])
        got = suggest(games[hero], line["text"])
        first = bool(got) and right(got[0], line)
        if line["action"] == "none":
            nones += 1
            none_right += first
        else:
            moves += 1
            one += first
            three += any(right(s, line) for s in got[:3])
            if line.get("target"):
                aimed += 1
                hit = next((s for s in got if right(s, line)), None)
                aimed_right += hit is not None and target_right(hit, line["target"])
        if not first:
            shown = [(s.action or "none") + (f"/{s.attack.id}" if s.attack else "")
                     + "".join(f"+{m}" for m in getattr(s, "maneuvers", ()))
                     for s in got[:3]]
            want = line["action"] + (f"/{line['attack']}" if line.get("attack") else "") \
                + (f"+{line['maneuver']}" if line.get("maneuver") else "")
            missed.append(f"  want {want:<32} got {shown}  {line['text']}")
    return {"one": one / max(moves, 1), "three": three / max(moves, 1), "moves": moves,
            "none_right": none_right, "nones": nones, "aimed": aimed,
            "aimed_right": aimed_right, "misses": missed if misses else [],
            "games": games, "lines": data["lines"], "hero": data["hero"]}


def fight_speed(scored: dict[str, dict[str, Any]], rounds: int = 7) -> dict[str, float]:
    """Ms per fight line: every call's median and p90 (a warm matcher), the learnt matcher
    alone on the same lines in the same run, and the load average."""
    calls: list[float] = []
    base: list[float] = []
    work = []
    for r in scored.values():
        for line in r["lines"]:
            g = r["games"][line.get("hero") or r["hero"]]
            work.append((g, line["text"]))
    for g, text in work:  # warm: the matcher is built once per pack before play asks
        suggest(g, text)
    load = os.getloadavg()[0]
    clock = time.perf_counter
    for _ in range(rounds):
        for g, text in work:
            c0 = clock()
            suggest(g, text)
            calls.append(clock() - c0)
            matcher = _fight_matcher(g.pack, g.fights.conflict.words())
            c0 = clock()
            matcher.suggest(text)
            base.append(clock() - c0)
    calls.sort()
    base.sort()
    return {"median": statistics.median(calls) * 1000,
            "p90": calls[int(len(calls) * 0.9)] * 1000,
            "p95": calls[int(len(calls) * 0.95)] * 1000,
            "base": statistics.median(base) * 1000,
            "load": (load + os.getloadavg()[0]) / 2, "n": len(work)}


def report(misses: bool = False) -> bool:
    """Print the fight scores; whether every target is met."""
    print("== fight lines (held out: benchmarks/detection/fights)")
    scored = {s: score_system(s, misses) for s in FIGHT_SYSTEMS}
    ok = True
    for system, r in scored.items():
        print(f"{system:<24} move lines top-1 {r['one']:6.1%}  top-3 {r['three']:6.1%}"
              f"  ({r['moves']} lines); just fiction first on {r['none_right']}/{r['nones']}"
              f" none lines; target picked {r['aimed_right']}/{r['aimed']}")
        if misses:
            print("\n".join(r["misses"]))
        ok = ok and r["one"] >= 0.9 and r["three"] >= 0.98 and \
            r["none_right"] >= 0.9 * r["nones"]
    sp = fight_speed(scored)
    print(f"fight speed: each line median {sp['median']:.2f} ms, p90 {sp['p90']:.2f} ms,"
          f" p95 {sp['p95']:.2f} ms ({sp['n']} lines x 7 rounds); the learnt matcher alone"
          f" {sp['base']:.2f} ms (ratio {sp['median'] / sp['base']:.1f});"
          f" load average {sp['load']:.2f}")
    return ok and sp["median"] < 2.0 and sp["p90"] < 5.0


def main(argv: Sequence[str] | None = None) -> int:
    """Print the fight scores alone."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--misses", action="store_true", help="print the lines missed")
    args = ap.parse_args(argv)
    return 0 if report(args.misses) else 1


if __name__ == "__main__":
    sys.exit(main())
