"""M&M's answer to the lab's ``Ruleset.duels()`` (engine/rules/duel.py): fast one-on-one
duels (``duel.Duel``) and their exact odds (``markov.solve``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from functools import lru_cache
from typing import Any

from engine.errors import IllegalAction
from engine.rules.duel import DuelRecord, Winner
from engine.systems.mm3e import maneuvers as mv
from engine.systems.mm3e.duel import POLICIES, Duel, SeededDice, read_block, unsupported
from engine.systems.mm3e.markov import solve
from engine.systems.mm3e.statblock import StatBlock

READ_LIMIT = 4096
"""The most stat block mappings ``MM3EDuels.block`` remembers having read."""


class MM3EDuels:
    """M&M's fast duels for the lab (``engine.rules.duel.Duels``): one stat block a side,
    both played by the same policy, seeded; exact odds where the chain is small enough.
    ``nat20`` and ``max_trade``: the pack's options (``system.yaml`` ``data``), as the fight
    engine reads them."""

    policies = POLICIES
    """The policies ``play`` takes (another is an ``IllegalAction``: play it through
    ``Game``)."""

    def __init__(self, *, nat20: bool = False, max_trade: int = mv.SEED_MAX_TRADE) -> None:
        self.nat20 = nat20
        self.max_trade = max_trade
        self._duels: dict[tuple[int, int, str], Duel] = {}
        self._blocks: dict[str, StatBlock] = {}
        self._read: dict[int, tuple[object, StatBlock]] = {}

    def block(self, data: Mapping[str, Any] | StatBlock) -> StatBlock:
        """``data`` read as a stat block, once: the same mapping (the same object, not
        changed in between) gives the same block; equal blocks are one object."""
        got = self._read.get(id(data))
        if got is not None and got[0] is data:
            return got[1]
        block = read_block(data)
        block = self._blocks.setdefault(block.model_dump_json(), block)
        if len(self._read) >= READ_LIMIT:  # mappings read once and let go: kept bounded
            self._read.clear()
        self._read[id(data)] = (data, block)
        return block

    def supports(self, a: Sequence[Mapping[str, Any]], b: Sequence[Mapping[str, Any]]
                 ) -> str | None:
        """None when these stat blocks can be played here, else why not (in words)."""
        for side, blocks in (("A", a), ("B", b)):
            if len(blocks) != 1:
                return (f"side {side} has {len(blocks)} characters: the fast duel plays one"
                        " a side")
            try:
                why = unsupported(self.block(blocks[0]))
            except ValueError as e:
                return f"side {side}'s stat block is not valid ({e})"
            if why is not None:
                return why
        return None

    def duel(self, a: Mapping[str, Any] | StatBlock, b: Mapping[str, Any] | StatBlock,
             policy: str) -> Duel:
        """The duel of ``a`` against ``b`` (made once per pair of blocks and policy)."""
        ba, bb = self.block(a), self.block(b)
        key = (id(ba), id(bb), policy)
        got = self._duels.get(key)
        if got is None:
            got = self._duels[key] = Duel(ba, bb, policy, nat20=self.nat20,
                                          max_trade=self.max_trade)
        return got

    def play(self, a: Sequence[Mapping[str, Any]], b: Sequence[Mapping[str, Any]],
             seed: int, policy: str) -> DuelRecord:
        """One duel of side A's stat block against side B's, seeded (``IllegalAction``
        when ``supports`` refuses them)."""
        why = self.supports(a, b)
        if why is not None:
            raise IllegalAction(why)
        return self.duel(a[0], b[0], policy).play(SeededDice(seed))

    def exact(self, a: Mapping[str, Any], b: Mapping[str, Any], policy: str
              ) -> Mapping[Winner, Fraction] | None:
        """The chance of each winner (``markov.solve``), or None when too large."""
        if self.supports([a], [b]) is not None:
            return None
        return solve(self.duel(a, b, policy))


@lru_cache(maxsize=16)
def shared_duels(nat20: bool, max_trade: int) -> MM3EDuels:
    """One ``MM3EDuels`` for each set of pack options, shared by every ruleset object made
    for the pack (the lab makes one per fight): its duels remember the referee's choices."""
    return MM3EDuels(nat20=nat20, max_trade=max_trade)


__all__ = ["READ_LIMIT", "MM3EDuels", "shared_duels"]
