"""Exact outcome odds of a fast M&M duel: the fight as a Markov chain over its states.

A state is what ``duel.State`` holds between turns (each side's damage penalty, lasting
conditions and used Recover, and the timed effects with the turns they have left). One
side's turn from a state is played by the duel's own turn code (``Duel.turn``) once for
every combination of the outcomes its dice can have: each attack check's miss, hit and
critical, each check's degrees, with their chances from enumerating the d20's faces through
the rules' own check functions (``duel.attack_faces``, ``duel.check_faces``); initiative
likewise, face by face. Round after round, the chance of each state is carried forward
through the first mover's turn, then the second's, up to ``duel.ROUND_LIMIT`` rounds; the
chance that reaches an end is each side's win (knocked out, fled or surrendered), and what
is left after the last round is the stalemate ("nobody").

The chances are exact fractions. A duel whose chain grows past ``MAX_STATES`` states (or a
turn past ``MAX_BRANCHES`` dice outcomes) is too large: ``solve`` gives None.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import TypeVar

from engine.rules.duel import Winner
from engine.systems.mm3e.checks import DIE_SIDES
from engine.systems.mm3e.duel import (
    ROUND_LIMIT,
    START,
    Duel,
    Result,
    State,
    attack_faces,
    check_faces,
)

MAX_STATES = 4000
"""The most states (a side's damage, conditions and effects, between turns) solved."""

MAX_BRANCHES = 4000
"""The most dice outcomes one turn may branch into."""

_T = TypeVar("_T")


class TooLarge(Exception):
    """The chain passed ``MAX_STATES`` or a turn ``MAX_BRANCHES``."""


def _grouped(values: tuple[_T, ...]) -> tuple[tuple[_T, Fraction], ...]:
    counts: dict[_T, int] = {}
    for v in values:
        counts[v] = counts.get(v, 0) + 1
    return tuple((v, Fraction(n, DIE_SIDES)) for v, n in counts.items())


class _Branch:
    """Dice that take the outcomes a path names (index per draw; past its end, the first
    outcome), keeping the chance of the path and how many outcomes each draw had."""

    def __init__(self, path: list[int]) -> None:
        self.path = path
        self.sizes: list[int] = []
        self.p = Fraction(1)

    def _take(self, options: tuple[tuple[_T, Fraction], ...]) -> _T:
        k = len(self.sizes)
        if k >= len(self.path):
            self.path.append(0)
        self.sizes.append(len(options))
        value, p = options[self.path[k]]
        self.p *= p
        return value

    def face(self) -> int:
        return self._take(_FACES)

    def attack(self, bonus: int, dc: int, can_crit: bool) -> str:
        return self._take(_grouped(attack_faces(bonus, dc, can_crit)))

    def check(self, modifier: int, dc: int, nat20: bool) -> int:
        return self._take(_grouped(check_faces(modifier, dc, nat20)))


_FACES = tuple((f, Fraction(1, DIE_SIDES)) for f in range(1, DIE_SIDES + 1))


def branches(play: Callable[[_Branch], _T]) -> dict[_T, Fraction]:
    """Every outcome of ``play`` (which draws from the dice it is given) with its chance."""
    out: dict[_T, Fraction] = {}
    path: list[int] = []
    for _ in range(MAX_BRANCHES):
        dice = _Branch(path)
        got = play(dice)
        out[got] = out.get(got, Fraction(0)) + dice.p
        path = path[:len(dice.sizes)]
        while path and path[-1] + 1 >= dice.sizes[len(path) - 1]:
            path.pop()
        if not path:
            return out
        path[-1] += 1
    raise TooLarge(f"a turn of more than {MAX_BRANCHES} dice outcomes")


Step = dict[State | Result, Fraction]


class _Chain:
    """The turns from each state, worked out once."""

    def __init__(self, duel: Duel) -> None:
        self.duel = duel
        self.memo: dict[tuple[State, int], Step] = {}

    def step(self, state: State, i: int) -> Step:
        key = (state, i)
        got = self.memo.get(key)
        if got is None:
            if len(self.memo) >= MAX_STATES:
                raise TooLarge(f"more than {MAX_STATES} states")

            def play(dice: _Branch) -> State | Result:
                after, result, _ = self.duel.turn(state, i, dice)
                return result if result is not None else after

            got = self.memo[key] = branches(play)
        return got

    def rounds(self, first: int) -> dict[Winner, Fraction]:
        """The chance of each winner when ``first`` moves first every round."""
        won: dict[Winner, Fraction] = {"A": Fraction(0), "B": Fraction(0),
                                       "nobody": Fraction(0)}
        dist: dict[State, Fraction] = {START: Fraction(1)}
        for _ in range(ROUND_LIMIT):
            for i in (first, 1 - first):
                nxt: dict[State, Fraction] = {}
                for state, p in dist.items():
                    for x, q in self.step(state, i).items():
                        if len(x) == 2 and isinstance(x[0], str):  # a Result
                            won[x[0]] += p * q  # type: ignore[index]
                        else:
                            nxt[x] = nxt.get(x, Fraction(0)) + p * q  # type: ignore[index]
                dist = nxt
            if not dist:
                break
        won["nobody"] += sum(dist.values(), Fraction(0))
        return won


def solve(duel: Duel) -> dict[Winner, Fraction] | None:
    """P(A wins), P(B wins), P(nobody: a stalemate at the round limit), exactly; None when
    the duel is too large to enumerate."""
    try:
        first = branches(lambda dice: duel.initiative(dice))
        chain = _Chain(duel)
        out: dict[Winner, Fraction] = {"A": Fraction(0), "B": Fraction(0),
                                       "nobody": Fraction(0)}
        for who, p in first.items():
            for w, q in chain.rounds(who).items():
                out[w] += p * q
        return out
    except TooLarge:
        return None


__all__ = ["MAX_BRANCHES", "MAX_STATES", "TooLarge", "branches", "solve"]
