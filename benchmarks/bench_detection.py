"""Move detection: accuracy on held-out fiction, and speed.

Run: ``python benchmarks/bench_detection.py`` (the test lines and the second held-out set),
``--dev`` (the two development sets the weights were chosen on), ``--compare`` (the
alternatives tried, on both), ``--misses``
(print each line whose right move was not first).

The lines live in ``benchmarks/detection/<system>.yaml`` (test), ``.../held2/`` (a second
held-out set, written before the beat reading was tuned), ``.../dev/`` and ``.../dev2/``
(development),
written apart from the packs' examples by people who did not see them. Each line names the move
a referee would call (or ``none``) and the NPC it is aimed at, if any. A campaign per system is
made with every suggested NPC of every archetype, so names resolve as they do in play.

Reported per system: top-1 and top-3 (the right move first / among the first three; for
``none`` lines, "no move" first / among them), the same on the move lines alone, the share of
``none`` lines read as "no move" first, the target picked, and the median time per
suggestion with 60+ moves (Masks and City of Whispers together), against a baseline from the
same run: the old matcher (cue phrases word for word). Then the fight actions of the two d20
games on their held-out lines (``benchmarks/detection_fights.py``).
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.content.loader import Pack, load_pack  # noqa: E402
from engine.game import Game  # noqa: E402
from engine.nlp.english import tokens  # noqa: E402
from engine.nlp.lexicon import Lexicon, default_lexicon  # noqa: E402
from engine.triggers import NO_MOVE, Matcher, features  # noqa: E402

SYSTEMS = ("masks", "city-of-whispers")
Ranker = Callable[[str], list[str | None]]


def lines_of(system: str, dev: bool | str) -> list[dict[str, str]]:
    """The labelled lines of one system: the test lines, both development sets (``dev``
    True or "dev"), or the second held-out set ("held2")."""
    base = ROOT / "benchmarks" / "detection"
    if dev == "held2":
        paths = [base / "held2" / f"{system}.yaml"]
    elif dev is True or dev == "dev":
        paths = [base / "dev" / f"{system}.yaml", base / "dev2" / f"{system}.yaml"]
    else:
        paths = [base / f"{system}.yaml"]
    return [line for p in paths if p.exists()
            for line in yaml.safe_load(p.read_text(encoding="utf-8"))["lines"]]


def campaign(system: str) -> Game:
    """A new campaign with every suggested NPC of every archetype."""
    pack = load_pack(ROOT / "content" / system)
    arch = next(iter(pack.archetypes.values()))
    npcs: dict[str, tuple[str, str, str]] = {}
    for a in pack.archetypes.values():
        for npc in a.suggested_npcs:
            npcs.setdefault(npc.name, (npc.name, npc.role, npc.note))
    return Game.new(pack, name="bench", hero_name="Ash", archetype=arch.id,
                    npcs=list(npcs.values()), seed=1)


def score(lines: Sequence[dict[str, str]], rank: Ranker) -> tuple[float, float, list[str]]:
    """Top-1 and top-3 rates, and the misses as printable lines."""
    one = three = 0
    misses = []
    for line in lines:
        want = None if line["move"] == NO_MOVE else line["move"]
        got = rank(line["text"])
        if got[:1] == [want]:
            one += 1
        else:
            misses.append(f"  want {line['move']:<24} got {[g or 'none' for g in got[:3]]}"
                          f"  {line['text']}")
        three += want in got[:3]
    return one / len(lines), three / len(lines), misses


def split_scores(lines: Sequence[dict[str, str]], rank: Ranker) -> str:
    """Top-1/top-3 on the move lines alone, and "no move" first on the ``none`` lines."""
    moves = [x for x in lines if x["move"] != NO_MOVE]
    plain = [x for x in lines if x["move"] == NO_MOVE]
    one, three, _m = score(moves, rank) if moves else (0.0, 0.0, [])
    right = sum(rank(x["text"])[:1] == [None] for x in plain)
    return (f"{'':<17} {'move lines':<24} top-1 {one:6.1%}  top-3 {three:6.1%}"
            f"  ({len(moves)} lines); no move first on {right}/{len(plain)} none lines")


# ------------------------------------------------------------------ the alternatives tried

def cue_matcher(pack: Pack) -> Ranker:
    """The old matcher: a move's cue (or name) found word for word, longer cues weigh more."""
    cues = []
    for m in pack.moves.values():
        if m.hidden:
            continue
        for cue in [*m.cues, m.name]:
            lems = [t.lemma for t in tokens(cue) if not t.mark]
            if lems:
                cues.append((m.id, " " + " ".join(lems) + " ", 1.0 + 0.75 * (len(lems) - 1)))

    def rank(text: str) -> list[str | None]:
        joined = " " + " ".join(t.lemma for t in tokens(text) if not t.mark) + " "
        got: Counter[str] = Counter()
        for mid, cue, w in cues:
            if cue in joined:
                got[mid] += w
        return [m for m, _ in got.most_common()] or [None]
    return rank


def vector_ranker(pack: Pack, lexicon: Lexicon, how: str) -> Ranker:
    """TF-IDF vectors: ``centroid`` (cosine to each move's mean example) or ``knn`` (the
    move of the most similar single line, best of each move)."""
    docs: list[tuple[str, Counter[str]]] = []
    for m in pack.moves.values():
        if m.hidden:
            continue
        for line in [m.name, m.trigger, *m.cues, *pack.examples_of(m.id)]:
            docs.append((m.id, _vec(line, lexicon)))
    docs += [(NO_MOVE, _vec(line, lexicon)) for line in pack.examples.get(NO_MOVE, ())]
    df: Counter[str] = Counter(f for _m, v in docs for f in v)
    idf = {f: math.log(len(docs) / n) for f, n in df.items()}

    def weigh(v: Counter[str]) -> dict[str, float]:
        w = {f: c * idf.get(f, 0.0) for f, c in v.items()}
        norm = math.sqrt(sum(x * x for x in w.values())) or 1.0
        return {f: x / norm for f, x in w.items()}

    weighed = [(m, weigh(v)) for m, v in docs]
    cents: dict[str, Counter[str]] = {}
    for m, w in weighed:
        cents.setdefault(m, Counter()).update(w)

    def rank(text: str) -> list[str | None]:
        q = weigh(_vec(text, lexicon))
        best: dict[str, float] = {}
        if how == "centroid":
            for m, c in cents.items():
                norm = math.sqrt(sum(x * x for x in c.values())) or 1.0
                best[m] = sum(x * c.get(f, 0.0) for f, x in q.items()) / norm
        else:
            for m, w in weighed:
                sim = sum(x * w.get(f, 0.0) for f, x in q.items())
                best[m] = max(best.get(m, 0.0), sim)
        order = sorted(best, key=lambda m: -best[m])
        return [None if m == NO_MOVE else m for m in order]
    return rank


def _vec(text: str, lexicon: Lexicon) -> Counter[str]:
    out: Counter[str] = Counter()
    for f in features(tokens(text), lexicon):
        out[f.key] += f.weight
    return out


def engine_ranker(game: Game, limit: int = 3) -> Ranker:
    """What the app suggests (all visible moves allowed)."""
    def rank(text: str) -> list[str | None]:
        return [s.move for s in game.suggest(text, limit=limit, everything=True)]
    return rank


def bayes_ranker(pack: Pack, lexicon: Lexicon) -> Ranker:
    """The naive Bayes ranking alone (no nearest-line fusion), with the given lexicon."""
    m = Matcher([x for x in pack.moves.values() if not x.hidden], pack.examples,
                pack.examples.get(NO_MOVE, ()), lexicon=lexicon)

    def rank(text: str) -> list[str | None]:
        raw, _toks, _feats = m.scores(text)
        order = sorted(raw, key=lambda k: (-raw[k], k))
        return [None if k == NO_MOVE else k for k in order]
    return rank


def target_rate(game: Game, lines: Sequence[dict[str, str]]) -> tuple[int, int]:
    """Lines whose named target was picked, of the lines that name one."""
    hit = total = 0
    for line in lines:
        move = game.pack.moves.get(line["move"])
        if not line.get("target") or move is None or move.target == "none":
            continue  # a move with no target cannot pre-select one
        total += 1
        got = game.suggest(line["text"], everything=True)
        named = {s.target_name for s in got if s.move == line["move"]}
        hit += line["target"] in named
    return hit, total


def speed(rounds: int = 7) -> dict[str, float]:
    """Ms per suggestion over 60+ moves (median and p90 of every call, median of the rounds'
    means), the old matcher's in the same run, and the load average."""
    packs = [load_pack(ROOT / "content" / s) for s in SYSTEMS]
    moves = [m for p in packs for m in p.moves.values()]
    examples: dict[str, list[str]] = {}
    for p in packs:
        for k, v in p.examples.items():
            examples.setdefault(k, []).extend(v)
    matcher = Matcher.for_pack(moves, examples)
    assert len(moves) >= 60, len(moves)
    texts = [line["text"] for s in SYSTEMS for line in lines_of(s, dev=True)]
    old = [cue_matcher(p) for p in packs]
    for t in texts:  # warm the lemma cache as play would
        matcher.suggest(t)
    load = os.getloadavg()[0]
    mine, base, calls = [], [], []
    clock = time.perf_counter
    for _ in range(rounds):
        t0 = clock()
        for t in texts:
            c0 = clock()
            matcher.suggest(t)
            calls.append(clock() - c0)
        mine.append((clock() - t0) * 1000 / len(texts))
        t0 = clock()
        for t in texts:
            for r in old:
                r(t)
        base.append((clock() - t0) * 1000 / len(texts))
    calls.sort()
    return {"ms": statistics.median(mine), "base": statistics.median(base),
            "call_median": statistics.median(calls) * 1000,
            "call_p90": calls[int(len(calls) * 0.9)] * 1000,
            "load": (load + os.getloadavg()[0]) / 2}


def main(argv: Sequence[str] | None = None) -> int:
    """Print the scores."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dev", action="store_true", help="the development lines")
    ap.add_argument("--compare", action="store_true", help="also score the alternatives")
    ap.add_argument("--misses", action="store_true", help="print the lines missed")
    args = ap.parse_args(argv)
    sets = ("dev", "test") if args.compare else ("dev",) if args.dev else ("test", "held2")
    worst = 1.0, 1.0
    for which in sets:
        print(f"== {which} lines")
        for system in SYSTEMS:
            lines = lines_of(system, which)
            game = campaign(system)
            rankers: dict[str, Ranker] = {"shipped": engine_ranker(game)}
            if args.compare:
                pack = game.pack
                rankers = {"old cue matcher": cue_matcher(pack),
                           "naive Bayes, no lexicon": bayes_ranker(pack, Lexicon()),
                           "naive Bayes + lexicon": bayes_ranker(pack, default_lexicon()),
                           "tf-idf centroid": vector_ranker(pack, default_lexicon(),
                                                            "centroid"),
                           "tf-idf nearest line": vector_ranker(pack, default_lexicon(), "knn"),
                           **rankers}
            for name, rank in rankers.items():
                one, three, misses = score(lines, rank)
                print(f"{system:<17} {name:<24} top-1 {one:6.1%}  top-3 {three:6.1%}"
                      f"  ({len(lines)} lines)")
                if name == "shipped":
                    print(split_scores(lines, rank))
                    hit, total = target_rate(game, lines)
                    print(f"{'':<17} {'target picked':<24} {hit}/{total}")
                    if which == "test" or (which == "dev" and not args.compare):
                        worst = min(worst[0], one), min(worst[1], three)
                    if args.misses:
                        print("\n".join(misses))
    from benchmarks.detection_fights import report as fight_report  # fight lines too
    fights_ok = fight_report(args.misses)
    sp = speed()
    print(f"speed: {sp['ms']:.3f} ms per suggestion (median of the rounds' means, 62 moves;"
          f" each call: median {sp['call_median']:.3f} ms, p90 {sp['call_p90']:.3f} ms);"
          f" old cue matcher {sp['base']:.3f} ms in the same run; ratio"
          f" {sp['ms'] / sp['base']:.1f}; load average {sp['load']:.2f}")
    return 0 if worst[0] >= 0.85 and worst[1] >= 0.97 and fights_ok else 1


if __name__ == "__main__":
    sys.exit(main())
