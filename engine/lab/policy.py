"""Policies: who plays the player's side in the lab.

A policy sees one ``Decision`` at a time (engine/lab/model.py: its kind, its choices with
odds, value and tags, and the situation in a few numbers) and returns the index of a choice.
It never sees the ``Game``. Its only randomness is the ``rng`` it is given, so a campaign
replays exactly.

Write your own as a small class and name it ``package.module:Class`` in ``--policy``::

    class Cautious:
        '''Always the safest-looking choice.'''

        name = "cautious"

        def choose(self, decision: Decision, rng: random.Random) -> int:
            odds = [c.odds if c.odds is not None else 0.0 for c in decision.choices]
            return odds.index(max(odds))
"""

from __future__ import annotations

import importlib
import random
from typing import Protocol, runtime_checkable

from engine.errors import IllegalAction
from engine.lab.model import Choice, Decision


@runtime_checkable
class Policy(Protocol):
    """Plays the player's side: ``name`` (shown in reports) and ``choose``, which returns the
    index (0-based) of one of ``decision.choices``. It may draw from ``rng`` and nothing else
    random."""

    name: str

    def choose(self, decision: Decision, rng: random.Random) -> int:
        """The index of the chosen choice."""
        ...


class RandomPolicy:
    """Every choice equally likely (a baseline: what the rules do with no judgement)."""

    name = "random"
    uses_odds = False
    """The driver may skip computing odds for this policy (it never reads them)."""

    def choose(self, decision: Decision, rng: random.Random) -> int:
        """A uniform draw."""
        return rng.randrange(len(decision.choices))


def _score(c: Choice) -> tuple[float, float]:
    return (c.odds if c.odds is not None else -1.0, c.value if c.value is not None else -1.0)


def _best(choices: tuple[Choice, ...], indices: list[int] | None = None) -> int:
    """The index with the best (odds, value); ties go to the first."""
    pool = list(range(len(choices))) if indices is None else indices
    best = pool[0]
    for i in pool[1:]:
        if _score(choices[i]) > _score(choices[best]):
            best = i
    return best


class GreedyPolicy:
    """The best odds, then the best value; ties go to the first choice (content order)."""

    name = "greedy"

    def choose(self, decision: Decision, rng: random.Random) -> int:
        """The best-looking choice, never random."""
        return _best(decision.choices)


class StoryPolicy:
    """Follows the fiction's pressures, the way a player at the table might. In order:

    1. Innocents in danger (``situation["innocents_in_danger"]``): a choice tagged
       ``protect`` or ``defend``.
    2. A condition marked (``situation["conditions"]`` > 0): a choice tagged
       ``clears_condition``.
    3. Hurt (``situation["hurt"]``, or a dying ally): a choice tagged ``recover`` or ``heal``.
    4. Otherwise press the advantage: ``attack`` choices, then ``help``, then anything; not
       ``flee`` or ``surrender`` unless nothing else is offered.

    Within the preferred group it takes the best odds, then value (first on ties). Choices
    tagged ``risky`` are avoided when an equally preferred safe one exists."""

    name = "story"

    def choose(self, decision: Decision, rng: random.Random) -> int:
        """The choice the story's pressures point to."""
        choices = decision.choices
        sit = decision.situation

        def tagged(*tags: str) -> list[int]:
            return [i for i, c in enumerate(choices) if c.tags & set(tags)]

        wants: list[tuple[str, ...]] = []
        if sit.get("innocents_in_danger"):
            wants.append(("protect", "defend"))
        if sit.get("conditions"):
            wants.append(("clears_condition",))
        if sit.get("hurt") or sit.get("dying_ally"):
            wants.append(("recover", "heal"))
        wants += [("attack",), ("help",)]
        for tags in wants:
            found = tagged(*tags)
            if found:
                safe = [i for i in found if "risky" not in choices[i].tags]
                return _best(choices, safe or found)
        calm = [i for i, c in enumerate(choices) if not c.tags & {"flee", "surrender"}]
        return _best(choices, calm or None)


POLICIES: dict[str, type[RandomPolicy] | type[GreedyPolicy] | type[StoryPolicy]] = {
    "random": RandomPolicy, "greedy": GreedyPolicy, "story": StoryPolicy}
"""The built-in policies by name."""


def load_policy(name: str) -> Policy:
    """A policy by name ("random", "greedy", "story") or ``package.module:Class`` (a class
    made with no arguments); ``IllegalAction`` saying why otherwise."""
    key = name.strip()
    if key in POLICIES:
        return POLICIES[key]()
    if ":" not in key:
        raise IllegalAction(f"unknown policy {name!r}: use one of {', '.join(POLICIES)} or"
                            " 'package.module:Class' for your own")
    module_name, _, cls_name = key.partition(":")
    if not module_name or not cls_name:
        raise IllegalAction(f"policy {name!r}: write it as 'package.module:Class'")
    try:
        module = importlib.import_module(module_name)
    except Exception as e:  # any import failure is the designer's to fix
        raise IllegalAction(f"policy {name!r}: cannot import {module_name!r}"
                            f" ({type(e).__name__}: {e})") from None
    cls = getattr(module, cls_name, None)
    if cls is None:
        raise IllegalAction(f"policy {name!r}: {module_name!r} has no {cls_name!r}")
    try:
        policy = cls() if isinstance(cls, type) else cls
    except Exception as e:
        raise IllegalAction(f"policy {name!r}: {cls_name}() failed"
                            f" ({type(e).__name__}: {e})") from None
    if not isinstance(policy, Policy) or not isinstance(getattr(policy, "name", None), str):
        raise IllegalAction(f"policy {name!r} is not a policy: it needs a 'name' (text) and a"
                            " 'choose(decision, rng) -> int' method")
    return policy
