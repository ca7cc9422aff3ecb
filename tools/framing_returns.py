"""How often framing returns to a place, over lab campaigns (story policy); one line per run.

PYTHONPATH=. python tools/framing_returns.py masks 500 8   (system, campaigns, scenes; SHOW=1 prints
the first returns within five scenes)
"""
import os
import sys
import time
from collections import Counter

from engine.game import gm_tools
from engine.gm import framing
from engine.lab.model import LabSpec
from engine.lab.runner import simulate_campaign

seen: list[tuple[int, str, str, str]] = []  # campaign, place key, stakes, test outcome
current = [0]
orig = gm_tools.GMTools.propose_scene

def rec(self, reroll=0, place=None):
    p = orig(self, reroll, place)
    outcome = p.test.split(": ")[2].split(" (")[0] if p.test else ""
    seen.append((current[0], framing.place_key(p.location), p.stakes, outcome))
    return p

gm_tools.GMTools.propose_scene = rec
system, runs, scenes = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
spec = LabSpec(system=system, policy="story", runs=runs, scenes=scenes, seed=7)
t0 = time.perf_counter()
for i in range(runs):
    current[0] = i
    simulate_campaign(spec, i)
dt = time.perf_counter() - t0
by = {}
for c, k, st, o in seen:
    by.setdefault(c, []).append((k, st, o))
frames = returns = near = held = 0
outcomes = Counter()
for lst in by.values():
    for j, (k, st, o) in enumerate(lst):
        frames += 1
        outcomes[o] += 1
        earlier = [x[0] for x in lst[:j]]
        if k in earlier:
            returns += 1
        if k in earlier[-4:]:
            near += 1
            if near <= 4 and os.environ.get("SHOW"):
                print("   return:", k, "|", st[:110])
print(f"{system}: {runs} campaigns x {scenes} scenes, {frames} framed; returns to an earlier"
      f" place {returns} ({100*returns/max(1,frames):.1f}%), within 5 scenes {near}"
      f" ({100*near/max(1,frames):.1f}%); scene test {dict(outcomes)}; {dt:.1f}s;"
      f" load {os.getloadavg()[0]:.2f}")
