"""Maneuvers declared with an attack (RULES.md D.7): the trade maneuvers and their limits,
finishing attacks, slam attacks, team attacks, demoralize and feint.

The seed lets the four trade maneuvers move **up to 2** points ("a penalty of up to -2 ... add
the same number (up to +2)"); the M&M 3e Hero's Handbook allows up to 5. ``SEED_MAX_TRADE`` is
the default and ``max_trade`` takes the other reading.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from engine.errors import IllegalAction

FILLED_IN = (
    "'Cannot more than double' read literally: the raised value may grow by at most its own"
    " size, so a bonus of 0 or less cannot be raised at all. Team attack: 2 combined degrees"
    " give +2 like 1 (RULES.md D.10 item 8). Slam: the power-level cap applies to the base rank"
    " (speed rank, or damage rank before its +1)."
)
"""The rules of this module that the seed leaves out, filled in."""

SEED_MAX_TRADE = 2
"""The most a trade maneuver moves, per seed 004 (the Hero's Handbook says 5)."""

HANDBOOK_MAX_TRADE = 5


class Trade(StrEnum):
    """The four maneuvers that trade one value for another."""

    ACCURATE = "accurate_attack"
    ALL_OUT = "all_out_attack"
    DEFENSIVE = "defensive_attack"
    POWER = "power_attack"


@dataclass(frozen=True, slots=True)
class TradeRule:
    """A trade maneuver: the value lowered, the value raised, and whether it needs an effect
    with an attack check and a resistance check."""

    id: Trade
    lowers: str
    raises: str
    needs_attack_and_resistance: bool


TRADES: dict[Trade, TradeRule] = {r.id: r for r in (
    TradeRule(Trade.ACCURATE, "effect", "attack", False),
    TradeRule(Trade.ALL_OUT, "defenses", "attack", False),
    TradeRule(Trade.DEFENSIVE, "attack", "defenses", True),
    TradeRule(Trade.POWER, "attack", "effect", True),
)}
"""Every trade maneuver; its changes last until the start of the attacker's next turn."""


@dataclass(frozen=True, slots=True)
class Traded:
    """Attack bonus, effect rank, Dodge and Parry after a trade maneuver."""

    attack: int
    effect: int
    dodge: int
    parry: int


def apply_trade(maneuver: Trade, amount: int, *, attack: int, effect: int, dodge: int,
                parry: int, has_attack_check: bool = True, allows_resistance: bool = True,
                max_trade: int = SEED_MAX_TRADE) -> Traded:
    """The values after trading ``amount``, or ``IllegalAction`` saying which limit it breaks:
    at most ``max_trade``; the lowered value not below +0; the raised one not more than doubled;
    Defensive and Power Attack only for effects with an attack and a resistance check."""
    rule = TRADES[maneuver]
    name = maneuver.value.replace("_", " ")
    if not 0 <= amount <= max_trade:
        raise IllegalAction(f"{name}: trade 0 to {max_trade}, not {amount}")
    if rule.needs_attack_and_resistance and not (has_attack_check and allows_resistance):
        raise IllegalAction(f"{name}: not for an effect with no attack or no resistance check")
    values = {"attack": [attack], "effect": [effect], "defenses": [dodge, parry]}
    if amount == 0:
        return Traded(attack, effect, dodge, parry)
    for v in values[rule.lowers]:
        if v - amount < 0:
            raise IllegalAction(f"{name}: {rule.lowers} {v} cannot go below +0 (trade {amount})")
    for v in values[rule.raises]:
        if amount > max(0, v):
            raise IllegalAction(f"{name}: {rule.raises} {v} cannot more than double"
                                f" (trade {amount})")
    delta = {rule.lowers: -amount, rule.raises: amount}
    d_def = delta.get("defenses", 0)
    return Traded(attack + delta.get("attack", 0), effect + delta.get("effect", 0),
                  dodge + d_def, parry + d_def)


def max_trade_allowed(maneuver: Trade, *, attack: int, effect: int, dodge: int, parry: int,
                      max_trade: int = SEED_MAX_TRADE) -> int:
    """The largest amount ``apply_trade`` accepts for these values (0 if none)."""
    rule = TRADES[maneuver]
    values = {"attack": [attack], "effect": [effect], "defenses": [dodge, parry]}
    room = min(values[rule.lowers])
    grow = min(values[rule.raises])
    return max(0, min(max_trade, room, grow))


# ------------------------------------------------------------------ finishing attack

FINISHING_DC = 10
FINISHING_CRIT_BONUS = 5
"""A finishing attack on a defenseless target: routine, or rolled against DC 10 where a hit is a
critical (+5 to the resistance DC); with intent to kill, 3+ degrees of failure kill."""


# ------------------------------------------------------------------ slam attack

def slam_rank(speed_rank: int, damage_rank: int, *, full_speed: bool,
              cap: int | None = None) -> int:
    """A slam's damage rank: the higher of the speed rank and the normal damage rank + 1, then
    +1 if the attacker moved its full speed; ``cap`` (power level) limits the base ranks."""
    speed, damage = speed_rank, damage_rank
    if cap is not None:
        speed, damage = min(speed, cap), min(damage, cap)
    return max(speed, damage + 1) + (1 if full_speed else 0)


SLAM_IMMUNITY_OWN = 2
SLAM_IMMUNITY_ALL = 5
"""Immunity ranks: to the slam damage one inflicts on oneself, and to all slam damage."""


def slam_self_rank(slam: int) -> int:
    """The damage the slamming attacker resists with Toughness: half the slam rank, rounded down."""
    return slam // 2


# ------------------------------------------------------------------ team attack

TEAM_RANK_SPREAD = 5


@dataclass(frozen=True, slots=True)
class TeamHit:
    """One attack of a team attack: its effect rank, whether it hit, its degrees of success
    (attacks with no attack check count 1 degree when not the main attack)."""

    rank: int
    hit: bool
    degrees: int = 1


def team_bonus(other_degrees: int) -> int:
    """The bonus to the main attack's rank from the other hits' combined degrees: 1-2 give +2,
    3 or more +5."""
    if other_degrees >= 3:
        return 5
    return 2 if other_degrees >= 1 else 0


def team_attack_rank(attacks: Sequence[TeamHit]) -> int | None:
    """The rank a team attack lands: the largest rank among the hits plus the bonus from the
    other hits' degrees; misses count nothing. None if nothing hit. ``IllegalAction`` if the
    ranks are not within 5 of each other."""
    ranks = [a.rank for a in attacks]
    if ranks and max(ranks) - min(ranks) > TEAM_RANK_SPREAD:
        raise IllegalAction(f"team attack: ranks {min(ranks)} and {max(ranks)} are more than"
                            f" {TEAM_RANK_SPREAD} apart")
    hits = sorted((a for a in attacks if a.hit), key=lambda a: a.rank, reverse=True)
    if not hits:
        return None
    return hits[0].rank + team_bonus(sum(a.degrees for a in hits[1:]))


# ------------------------------------------------------------------ demoralize, feint, aid

def demoralize_result(degree: int) -> str | None:
    """Demoralize (Intimidation vs the better of Insight or Will): impaired on a success,
    disabled on 4+ degrees, until the end of the attacker's next round."""
    if degree <= 0:
        return None
    return "disabled" if degree >= 4 else "impaired"


def feint_result(degree: int) -> str | None:
    """Feint (Deception vs the better of Deception or Insight): the target is vulnerable to the
    attacker's next attack, until the end of its next round."""
    return "vulnerable" if degree > 0 else None


def aid_bonus(degree: int) -> int:
    """Aid (an attack check vs DC 10): +2 to an ally's attack or defense, +5 on 3+ degrees."""
    if degree <= 0:
        return 0
    return 5 if degree >= 3 else 2
