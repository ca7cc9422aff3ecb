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

Each turn's chances are exact fractions; carried through the rounds as floats (or
fractions, for a small duel: ``solve(duel, fractions=True)``). Effects that differ only in
their order are one state (``canonical``). A duel whose chain grows past ``MAX_STATES``
states (or a turn past ``MAX_BRANCHES`` combinations of dice outcomes) is too large:
``solve`` gives None.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from functools import lru_cache
from math import comb
from typing import Any, TypeVar

from engine.rules.duel import Winner
from engine.systems.mm3e.checks import DIE_SIDES
from engine.systems.mm3e.duel import (
    ROUND_LIMIT,
    START,
    Duel,
    Fx,
    Result,
    State,
    attack_faces,
    check_faces,
    opposed_faces,
)

MAX_STATES = 20000
"""The most states (a side's damage, conditions and effects, between turns) solved."""

MAX_BRANCHES = 512
"""The most combinations of dice outcomes one turn may branch into."""

MAX_PLAYS = 80_000
"""The most turns played to enumerate a duel's chain: past it the duel is too large, found
in about 6 seconds rather than minutes (the lab asks at every point of a sweep). Keystone
against a PL 11 Keystone takes about 75,500 (9,300 states); Keystone against Madame Undertow
131,500 (16,100 states) since positions and Recover on a dazed turn: too large."""

INITIATIVE_BRANCHES = DIE_SIDES ** 4
"""Initiative's dice: two d20s, and two more for a roll-off."""

_T = TypeVar("_T")


class TooLarge(Exception):
    """The chain passed ``MAX_STATES`` or a turn ``MAX_BRANCHES``."""


def _grouped(values: tuple[_T, ...]) -> tuple[tuple[_T, Fraction], ...]:
    counts: dict[_T, int] = {}
    for v in values:
        counts[v] = counts.get(v, 0) + 1
    return tuple((v, Fraction(n, len(values))) for v, n in counts.items())


@lru_cache(maxsize=8192)
def _attack(bonus: int, dc: int, can_crit: bool) -> tuple[tuple[str, Fraction], ...]:
    return _grouped(attack_faces(bonus, dc, can_crit))


@lru_cache(maxsize=8192)
def _check(modifier: int, dc: int, nat20: bool) -> tuple[tuple[int, Fraction], ...]:
    return _grouped(check_faces(modifier, dc, nat20))


@lru_cache(maxsize=8192)
def _success(modifier: int, dc: int, nat20: bool) -> tuple[tuple[bool, Fraction], ...]:
    return _grouped(tuple(d > 0 for d in check_faces(modifier, dc, nat20)))


@lru_cache(maxsize=1024)
def _opposed(bonus: int, against: int) -> tuple[tuple[int, Fraction], ...]:
    return _grouped(opposed_faces(bonus, against))


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
        return self._take(_attack(bonus, dc, can_crit))

    def check(self, modifier: int, dc: int, nat20: bool) -> int:
        return self._take(_check(modifier, dc, nat20))

    def success(self, modifier: int, dc: int, nat20: bool) -> bool:
        return self._take(_success(modifier, dc, nat20))

    def opposed(self, bonus: int, against: int) -> int:
        return self._take(_opposed(bonus, against))

    def successes(self, checks: Sequence[tuple[Fx, int]], nat20: bool) -> list[bool]:
        """Checks of identical effects are alike and independent: how many of each kind
        succeed (binomially, from one check's faces) is one draw, not one per effect; the
        first that many of the kind are the ones shaken off (any would leave the same)."""
        kinds: dict[tuple[Fx, int], list[int]] = {}
        for n, key in enumerate(checks):
            kinds.setdefault(key, []).append(n)
        out = [False] * len(checks)
        for (e, mod), where in kinds.items():
            shaken = self._take(_binomial(len(where), sum(
                d > 0 for d in check_faces(mod, e.value, nat20))))
            for n in where[:shaken]:
                out[n] = True
        return out


@lru_cache(maxsize=1024)
def _binomial(n: int, faces: int) -> tuple[tuple[int, Fraction], ...]:
    """How many of ``n`` independent checks succeed, each on ``faces`` of the d20's faces."""
    p = Fraction(faces, DIE_SIDES)
    return tuple((k, comb(n, k) * p ** k * (1 - p) ** (n - k)) for k in range(n + 1)
                 if (p or not k) and (p != 1 or k == n))


_FACES = tuple((f, Fraction(1, DIE_SIDES)) for f in range(1, DIE_SIDES + 1))


def branches(play: Callable[[_Branch], _T], limit: int = MAX_BRANCHES) -> dict[_T, Fraction]:
    """Every outcome of ``play`` (which draws from the dice it is given) with its chance;
    ``TooLarge`` past ``limit`` combinations of outcomes."""
    out: dict[_T, Fraction] = {}
    path: list[int] = []
    for _ in range(limit):
        dice = _Branch(path)
        got = play(dice)
        out[got] = out.get(got, Fraction(0)) + dice.p
        path = path[:len(dice.sizes)]
        while path and path[-1] + 1 >= dice.sizes[len(path) - 1]:
            path.pop()
        if not path:
            return out
        path[-1] += 1
    raise TooLarge(f"more than {limit} combinations of dice outcomes")


Number = float | Fraction


def canonical(state: State) -> State:
    """``state`` with its effects sorted, but for the ongoing afflictions on a side that
    has not used its Recover, kept after the rest in their own order: the order of the
    effects orders only the resistance checks at a turn's end (independent draws whose
    joint chances do not depend on it) and which affliction a Recover resists (the first
    on the one recovering), so the states that differ in the rest of it alone are one state
    of the chain."""
    fx = state[2]
    sides = (state[0], state[1])
    kept = tuple(e for e in fx if e.ongoing and not sides[e.target].recovered)
    return (state[0], state[1],
            (*sorted((e for e in fx if e not in kept), key=_fx_key), *kept), state[3])


def _fx_key(e: Fx) -> tuple[Any, ...]:
    return tuple(-1 if v is None else v for v in e)
Step = dict[State | Result, Number]


class _Chain:
    """The turns from each state, worked out once; the chances as fractions when
    ``fractions``, else as floats (each turn's own chances are exact fractions either way)."""

    def __init__(self, duel: Duel, fractions: bool) -> None:
        self.duel = duel
        self.fractions = fractions
        self.memo: dict[tuple[State, int], Step] = {}
        self.plays = 0

    def step(self, state: State, i: int) -> Step:
        key = (state, i)
        got = self.memo.get(key)
        if got is None:
            if len(self.memo) >= MAX_STATES:
                raise TooLarge(f"more than {MAX_STATES} states")

            def play(dice: _Branch) -> State | Result:
                self.plays += 1
                if self.plays > MAX_PLAYS:
                    raise TooLarge(f"more than {MAX_PLAYS} turns to play")
                after, result, _ = self.duel.turn(state, i, dice)
                return result if result is not None else after

            got = {}
            for k, v in branches(play).items():
                k = canonical(k) if not isinstance(k[0], str) else k
                got[k] = got.get(k, 0) + (v if self.fractions else float(v))
            self.memo[key] = got
        return got

    def rounds(self, first: int) -> dict[Winner, Number]:
        """The chance of each winner when ``first`` moves first every round."""
        zero: Number = Fraction(0) if self.fractions else 0.0
        won: dict[Winner, Number] = {"A": zero, "B": zero, "nobody": zero}
        dist: dict[State, Number] = {START: Fraction(1) if self.fractions else 1.0}
        for _ in range(ROUND_LIMIT):
            for i in (first, 1 - first):
                nxt: dict[State, Number] = {}
                for state, p in dist.items():
                    for x, q in self.step(state, i).items():
                        if isinstance(x[0], str):  # a Result: (winner, ending)
                            w: Winner = x[0]
                            won[w] += p * q
                        else:
                            s: State = x
                            nxt[s] = nxt.get(s, zero) + p * q
                dist = nxt
            if not dist:
                break
        won["nobody"] += sum(dist.values(), zero)
        return won


def solve(duel: Duel, *, fractions: bool = False) -> dict[Winner, Fraction] | None:
    """P(A wins), P(B wins), P(nobody: a stalemate at the round limit); None when the duel
    is too large to enumerate. Carried through the rounds as floats (a duel's 60 rounds make
    fractions of thousands of digits), given as Fractions of them; ``fractions``: exact
    fractions all the way (small duels)."""
    try:
        first = branches(lambda dice: duel.initiative(dice), INITIATIVE_BRANCHES)
        chain = _Chain(duel, fractions)
        out: dict[Winner, Number] = {"A": 0, "B": 0, "nobody": 0}
        for who, p in first.items():
            for w, q in chain.rounds(who).items():
                out[w] += (p if fractions else float(p)) * q
        return {w: v if isinstance(v, Fraction) else Fraction(v) for w, v in out.items()}
    except TooLarge:
        return None


__all__ = ["MAX_BRANCHES", "MAX_PLAYS", "MAX_STATES", "TooLarge", "branches", "solve"]
