"""The fast M&M duel (engine/systems/mm3e/duel.py) and its exact odds (markov.py): the same
dice give the same fight as ``Game``, the exact odds of a duel small enough to work out by
hand, exact against simulated, and what the fast path refuses."""

from __future__ import annotations

import math
import random
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from engine.content.loader import Pack
from engine.systems import ruleset_for
from engine.systems.mm3e import referee as rf
from engine.systems.mm3e.checks import success_odds
from engine.systems.mm3e.duel import (
    START,
    Duel,
    FixedDice,
    Fx,
    SeededDice,
    State,
    greedy_choose,
    greedy_options,
    read_block,
)
from engine.systems.mm3e.lab_duels import MM3EDuels
from engine.systems.mm3e.markov import branches, solve
from engine.systems.mm3e.roster import characters
from engine.systems.mm3e.statblock import StatBlock

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mm3e_duel_rig import Snapshot, game_duel, mm3e_pack

Z99 = 2.576


@pytest.fixture(scope="module")
def pack() -> Pack:
    return mm3e_pack()


@pytest.fixture(scope="module")
def blocks(pack: Pack) -> dict[str, StatBlock]:
    return characters(pack)


def pack_duel(pack: Pack, a: StatBlock, b: StatBlock, policy: str = "referee") -> Duel:
    """The duel as the pack plays it (its ``nat20_degree`` and ``max_trade`` options)."""
    duels = ruleset_for(pack).duels()
    assert isinstance(duels, MM3EDuels)
    return duels.duel(a, b, policy)


def _snap(state: State) -> Snapshot:
    a, b, _, _ = state
    return (a.damage, a.lasting, b.damage, b.lasting)


def _dedupe(trace: list[Snapshot]) -> list[Snapshot]:
    return [s for i, s in enumerate(trace) if i == 0 or s != trace[i - 1]]


def fast_trace(duel: Duel, dice: FixedDice) -> tuple[list[Snapshot], Any]:
    """The fast duel turn by turn: the damage states after each turn, and how it ended."""
    first = duel.initiative(dice)
    state, trace = START, [_snap(START)]
    for _ in range(60):
        for i in (first, 1 - first):
            state, result, _ = duel.turn(state, i, dice)
            trace.append(_snap(state))
            if result is not None:
                return trace, result
    return trace, None


@pytest.mark.parametrize(("hero", "foe", "policy"), [
    ("keystone", "the_tallyman", "referee"),
    ("keystone", "madame_undertow", "referee"),
    ("slipstream", "the_tallyman", "referee"),
    ("lamplight", "madame_undertow", "greedy"),
])
def test_same_dice_same_fight_as_game(pack: Pack, blocks: dict[str, StatBlock], hero: str,
                                      foe: str, policy: str,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Entered dice: the engine's fight and the fast duel go through the same damage
    states, end the same way and use the same dice ("greedy": the engine's referee asks
    ``greedy_options`` where it would ask ``explain_options``)."""
    if policy == "greedy":  # the engine's referee (positions.referee_choice) asks these
        explain = rf.explain_options
        monkeypatch.setattr(rf, "explain_options", lambda s: greedy_options(s, explain))
        monkeypatch.setattr(rf, "choose", greedy_choose)
    duel = pack_duel(pack, blocks[hero], blocks[foe], policy)
    checked = 0
    for seed in range(12):
        rng = random.Random(seed)
        faces = [rng.randint(1, 20) for _ in range(600)]
        a, b = blocks[hero], blocks[foe]
        if faces[0] + a.initiative_bonus == faces[1] + b.initiative_bonus:
            continue  # a roll-off: the rig enters two initiative dice only
        left = list(faces)
        game_trace: list[Snapshot] = []
        record, _ = game_duel(pack, hero, foe, 0, dice=left, trace=game_trace)
        fixed = FixedDice(faces)
        trace, result = fast_trace(duel, fixed)
        assert _dedupe(trace) == _dedupe(game_trace), f"seed {seed}"
        assert result == (record.winner, record.ending), f"seed {seed}"
        assert fixed.used == len(faces) - len(left), f"seed {seed}"
        checked += 1
    assert checked >= 8


def _block(name: str, kind: str, will: int, initiative: int,
           attack: dict[str, Any] | None) -> StatBlock:
    return read_block({
        "name": name, "kind": kind, "power_level": 10, "initiative": initiative,
        "abilities": {k: 0 for k in ("strength", "stamina", "agility", "dexterity",
                                     "fighting", "intellect", "awareness", "presence")},
        "defenses": {"dodge": 0, "parry": 0, "toughness": 0, "fortitude": 0, "will": will},
        "attacks": [attack] if attack else []})


def _stare(rank: int) -> dict[str, Any]:
    return {"name": "Stare", "range": "perception", "effect": "affliction", "rank": rank,
            "resisted_by": "will", "conditions": ["incapacitated"] * 3}


def test_exact_by_hand() -> None:
    """A always acts first (initiative +20 against +0); each side's perception affliction
    takes the other out on any failed Will check: A's against Will 0 at DC 20 (fails on
    1-19), B's against Will 5 at DC 20 (fails on 1-14). A wins at its k-th turn with
    (1/20 * 6/20)^(k-1) * 19/20, B likewise after A's miss; 60 rounds, then a stalemate."""
    a = _block("Gazer", "hero", 5, 20, _stare(10))
    b = _block("Glarer", "villain", 0, 0, _stare(10))
    odds = solve(Duel(a, b), fractions=True)
    pa, pb = Fraction(19, 20), Fraction(14, 20)
    miss = (1 - pa) * (1 - pb)
    assert odds == {"A": sum(miss ** k * pa for k in range(60)),
                    "B": sum(miss ** k * (1 - pa) * pb for k in range(60)),
                    "nobody": miss ** 60}


def test_exact_no_attack_is_a_stalemate() -> None:
    """Two sides with no attack: every round ends with nobody hurt, a sure stalemate."""
    a = _block("Talker", "hero", 0, 0, None)
    b = _block("Listener", "villain", 0, 0, None)
    assert solve(Duel(a, b), fractions=True) == {"A": 0, "B": 0, "nobody": 1}
    record = Duel(a, b).play(SeededDice(3))
    assert (record.winner, record.ending, record.rounds) == ("nobody", "stalemate", 60)


def _within(p: float, n: int, q: float) -> bool:
    """Whether a simulated share ``q`` of ``n`` duels is within the 99% interval of ``p``."""
    return abs(q - p) <= Z99 * math.sqrt(max(p * (1 - p), 1e-9) / n) + 1e-9


AHEAD = {"name": "Keystone Ascendant", "kind": "hero", "power_level": 11,
         "abilities": {"strength": 13, "stamina": 13, "agility": 1, "dexterity": 1,
                       "fighting": 9, "intellect": 2, "awareness": 2, "presence": 1},
         "defenses": {"dodge": 7, "parry": 9, "toughness": 13, "fortitude": 13, "will": 9},
         "attacks": [{"name": "Granite Fist", "range": "close", "bonus": 9, "effect": "damage",
                      "rank": 13}]}
"""Keystone's fist one PL ahead (as tests/unit/test_lab_duels.py's file)."""

FIST = {**AHEAD, "name": "Keystone", "power_level": 10,
        "abilities": {"strength": 12, "stamina": 12, "agility": 1, "dexterity": 1,
                      "fighting": 8, "intellect": 2, "awareness": 2, "presence": 1},
        "defenses": {"dodge": 6, "parry": 8, "toughness": 12, "fortitude": 12, "will": 8},
        "attacks": [{"name": "Granite Fist", "range": "close", "bonus": 8, "effect": "damage",
                     "rank": 12}]}
"""Keystone's fist alone, PL 10 (test_lab_duels.py's KEYSTONE)."""


def test_exact_against_simulated(pack: Pack, blocks: dict[str, StatBlock]) -> None:
    """Keystone's fist against its fist one PL ahead: the exact odds and 3,000 seeded duels
    agree within the 99% interval (Keystone against Madame Undertow is too large since
    positions)."""
    duel = pack_duel(pack, read_block(FIST), read_block(AHEAD))
    exact = solve(duel)
    assert exact is not None
    assert sum(exact.values()) == pytest.approx(1.0)
    n = 3000
    records = [duel.play(SeededDice(s)) for s in range(n)]
    for w in ("A", "B"):
        share = sum(r.winner == w for r in records) / n
        assert _within(float(exact[w]), n, share), (w, float(exact[w]), share)


def test_supports_and_the_ruleset_hook(pack: Pack) -> None:
    """The M&M ruleset answers fast duels; one character a side, no minion groups."""
    duels = ruleset_for(pack).duels()
    assert isinstance(duels, MM3EDuels)
    raw = {b.name: b.model_dump(mode="json") for b in characters(pack).values()}
    keystone, tallyman, crew = raw["Keystone"], raw["The Tallyman"], raw["Dockside Crew"]
    assert duels.supports([keystone], [tallyman]) is None
    assert "minion group" in (duels.supports([keystone], [crew]) or "")
    assert "one a side" in (duels.supports([keystone, keystone], [tallyman]) or "")
    record = duels.play([keystone], [tallyman], 7, "referee")
    assert record == duels.play([keystone], [tallyman], 7, "referee")
    assert record.winner in ("A", "B", "nobody") and record.rounds >= 1
    with pytest.raises(Exception, match="policies"):
        duels.play([keystone], [tallyman], 7, "story")


def test_other_rulesets_have_no_fast_duels() -> None:
    from engine.content.loader import load_pack

    root = Path(__file__).resolve().parents[2] / "content"
    assert ruleset_for(load_pack(root / "masks")).duels() is None


def test_identical_afflictions_resist_as_a_binomial() -> None:
    """The exact odds count how many of a stack of identical afflictions are shaken off,
    one draw for the stack: the same chances as one check each, in turn."""
    dazed = Fx("dazed", "condition", 0, 1, 0, "recovery", None, True, 15, "will")
    stunned = dazed._replace(what="stunned")
    checks = [(dazed, 5), (stunned, 5), (dazed, 5), (dazed, 5)]

    def grouped(dice: Any) -> tuple[bool, ...]:
        shaken = dice.successes(checks, False)
        return (sum(shaken[i] for i in (0, 2, 3)), shaken[1])

    def one_by_one(dice: Any) -> tuple[bool, ...]:
        shaken = [dice.success(5, 15, False) for _ in checks]
        return (sum(shaken[i] for i in (0, 2, 3)), shaken[1])

    assert branches(grouped) == branches(one_by_one)
    p = success_odds(5, 15)
    assert branches(grouped)[(3, True)] == p ** 4


def test_the_lab_plays_fast_duels_at_their_round_limit_only(pack: Pack) -> None:
    """``sidekick lab --side``: the ruleset's fast duels at the lab's 60 rounds; another
    ``--max-rounds`` plays through ``Game`` (the fast duel calls its stalemate at 60)."""
    from dataclasses import replace

    from engine.lab import duels as lab
    from engine.lab import sides

    spec = lab.DuelSpec(system="mutants-and-masterminds",
                        a=sides.dump(sides.read_side(pack, "pack:keystone")),
                        b=sides.dump(sides.read_side(pack, "pack:the_tallyman")),
                        policy="referee", runs=2)
    assert lab.path_of(spec) == "fast"
    assert lab.path_of(replace(spec, max_rounds=30)) == "game"
    assert lab.play_duel(spec, 0) == lab.play_duel(spec, 0)
