"""Mutants & Masterminds 3e rules math (RULES.md D, seed 004): pure functions and data.

Nothing here touches the campaign state: dice come in as faces, results go out as small frozen
values, and odds are exact fractions over the 20 faces of the d20.

- ``checks``: d20 + modifier vs DC, degrees, routine checks, circumstance, hero points, odds.
- ``initiative``: initiative results and their order with every tie-breaker.
- ``attacks``: defense class, hits, threats and criticals, range, concealment, cover, areas.
- ``damage``: the Toughness ladder, minions, recovery, Strength-based damage, objects.
- ``conditions``: every condition, what it does and which conditions it includes.
- ``hazards``: environmental hazards as data and the DC of their Nth check.
- ``maneuvers``: the trade maneuvers and their limits, finishing, slam and team attacks.
- ``actions``: every conflict action of D.6 with its cost, resolved from dice given as faces.
- ``statblock``: stat blocks (heroes, villains, minion groups), the power-level caps, a loader.

Rules the seed leaves out and that are filled in here are named ``FILLED_IN`` in each module.
"""
