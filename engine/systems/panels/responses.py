"""Responses to a hit: dodge and parry, their panel cost, the arrears limit, the parry rules
(RULES.md C.4).

A response is declared after the attack hits and before its damage is rolled. A dodge rolls
Agility: 18+ avoids everything, 15-17 halves Kill and Stun (rounding down). A parry rolls
Dexterity: 15+ knocks the attack aside with one of the defender's own attack forms, whose damage
(Kill + Stun together) comes off the incoming Kill first, then its Stun; excess is ignored.
Either costs nothing against an ordinary attacker and one future panel against a significant
one, whether or not it works, and neither is possible at 5 panels in arrears.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from functools import lru_cache
from typing import Any, Literal

from engine.errors import IllegalAction
from engine.rules.encounter import ARREARS_LIMIT
from engine.systems.panels.checks import Band, CheckResult, check
from engine.systems.panels.damage import (
    NO_DAMAGE,
    AttackForm,
    Damage,
    DamageDice,
    Delivery,
    DistKey,
    damage_dice,
    dist_key,
    from_key,
    mean_of,
)

FILLED_IN = (
    "Parry damage (C.7 #5): on 18+ the parrying attack form rolls its normal dice (d10s for a"
    " significant defender, d6s for an ordinary one); on 15-17 it rolls the minor dice (d6s"
    " significant, d3s ordinary), i.e. the same dice that attack would roll on a complete or"
    " minor hit, with its modifiers, Strength and the fist's -5 Kill. A parry with an object"
    " (rule 7) is a melee, non-lethal parry with the object's modifier. A melee parry cannot"
    " stop a fast projectile (rule 5) unless the defender has a power or gift that says so."
    " Missile destruction (C.7 #10): a parry whose Kill damage is 10 or more destroys an"
    f" incoming missile, which then does no damage at all. The panel cost of {ARREARS_LIMIT}"
    " arrears is the encounter's limit: a response against a significant attacker is allowed"
    " while fewer than 5 panels are owed (the last one brings the debt to exactly 5). A natural"
    " 20 on a dodge or parry is a complete success and a natural 1 a failure, with no table"
    " (the crit tables are for attacks)."
)
"""The rules of this module that the seed leaves out, filled in."""

MISSILE_DESTROY_KILL = 10
"""A parry doing this much Kill or more destroys an incoming missile (filled in, C.7 #10)."""

SIGNIFICANT_RESPONSE_COST = 1
"""Future panels a response costs against a significant attacker (0 against an ordinary one)."""

ParryWith = Literal["melee", "slow missile", "fast missile", "object"]
"""What the defender parries with: an attack form's delivery, or an object (rule 7)."""


class Response(StrEnum):
    """The responses to a hit."""

    DODGE = "dodge"
    PARRY = "parry"


def response_cost(attacker_significant: bool) -> int:
    """Future panels a dodge or parry costs: 0 against an ordinary attacker, 1 otherwise."""
    return SIGNIFICANT_RESPONSE_COST if attacker_significant else 0


def can_respond(arrears: int, attacker_significant: bool) -> tuple[bool, str]:
    """Whether a character owing ``arrears`` future panels may respond, and why."""
    if not 0 <= arrears <= ARREARS_LIMIT:
        raise IllegalAction(f"future panels owed run from 0 to {ARREARS_LIMIT}, got {arrears}")
    cost = response_cost(attacker_significant)
    if arrears >= ARREARS_LIMIT:
        return False, (f"already {ARREARS_LIMIT} panels in arrears: no responses, even against"
                       " an ordinary attacker, until panels accrue")
    if cost == 0:
        return True, "free against an ordinary attacker"
    return True, (f"costs {cost} future panel against a significant attacker, whether or not it"
                  f" works (owed after: {arrears + cost} of {ARREARS_LIMIT})")


def pay_response(arrears: int, attacker_significant: bool) -> int:
    """The arrears after responding; ``IllegalAction`` saying why when it is not allowed."""
    ok, why = can_respond(arrears, attacker_significant)
    if not ok:
        raise IllegalAction(f"cannot dodge or parry: {why}")
    return arrears + response_cost(attacker_significant)


# ------------------------------------------------------------------ dodge


def dodge_check(natural: int | str, agility_modifier: int, stunned: bool = False) -> CheckResult:
    """The dodge roll: d20 + Agility skill modifier (stunned: -5)."""
    return check(natural, agility_modifier, stunned)


def apply_dodge(incoming: Damage, band: Band) -> Damage:
    """The damage left after a dodge: complete avoids it all, minor halves each track (rounding
    down), failure leaves it whole."""
    if band is Band.COMPLETE:
        return NO_DAMAGE
    if band is Band.MINOR:
        return Damage(incoming.kill // 2, incoming.stun // 2)
    return incoming


def dodged_distribution(dist: dict[Damage, Fraction], agility_modifier: int,
                        stunned: bool = False) -> dict[Damage, Fraction]:
    """The exact distribution of damage taken when dodging an attack distributed as ``dist``."""
    faces: dict[Band, int] = {}
    for face in range(1, 21):  # only the band of the dodge matters: count its faces
        band = dodge_check(face, agility_modifier, stunned).band
        faces[band] = faces.get(band, 0) + 1
    out: dict[Damage, Fraction] = {}
    for band, count in faces.items():
        share = Fraction(count, 20)
        for d, p in dist.items():
            left = apply_dodge(d, band)
            out[left] = out.get(left, Fraction(0)) + p * share
    return out


# ------------------------------------------------------------------ parry

_RULES = {
    1: "a melee attack form may parry a melee attack",
    2: "a missile attack cannot parry a hand-to-hand attack",
    3: "a missile attack may parry another missile",
    4: "a hand-to-hand attack form may parry a slow or human-powered missile",
    5: "a hand-to-hand attack form cannot parry a fast, mechanically propelled projectile",
    7: "an object may parry in place of a melee attack form",
}
"""The parry eligibility rules of C.4 in our words (rule 6 is ``missile_destroyed``)."""


def eligible(parry_with: ParryWith, incoming: Delivery,
             fast_parry: bool = False) -> tuple[bool, str]:
    """Whether ``parry_with`` may parry an ``incoming`` attack, with the rule that says so.

    ``fast_parry``: the defender has a power or gift letting melee stop bullets (rule 5's
    "normally")."""
    if parry_with not in ("melee", "slow missile", "fast missile", "object"):
        raise IllegalAction(f"a parry is made with a melee form, a missile or an object,"
                            f" not {parry_with!r}")
    if incoming not in ("melee", "slow missile", "fast missile"):
        raise IllegalAction(f"an attack arrives as melee, slow missile or fast missile, not"
                            f" {incoming!r}")
    melee_like = parry_with in ("melee", "object")
    prefix = "rule 7 (" + _RULES[7] + "), then " if parry_with == "object" else ""
    if incoming == "melee":
        if melee_like:
            return True, prefix + "rule 1: " + _RULES[1]
        return False, "rule 2: " + _RULES[2]
    if not melee_like:
        return True, "rule 3: " + _RULES[3]
    if incoming == "slow missile":
        return True, prefix + "rule 4: " + _RULES[4]
    if fast_parry:
        return True, prefix + "rule 5 does not apply: a power lets this parry stop bullets"
    return False, prefix + "rule 5: " + _RULES[5]


def parry_with_of(form: AttackForm) -> ParryWith:
    """What an attack form parries as: an object, or its delivery."""
    return "object" if form.object else form.delivery


def parry_check(natural: int | str, dexterity_modifier: int, stunned: bool = False) -> CheckResult:
    """The parry roll: d20 + Dexterity skill modifier, succeeding on 15+ (stunned: -5)."""
    return check(natural, dexterity_modifier, stunned)


def parry_dice(form: AttackForm, significant: bool, band: Band,
               strength: int | None = None) -> DamageDice:
    """The parry's damage dice: the form's own dice for ``band`` (18+ normal, 15-17 minor)."""
    if band is Band.FAILURE:
        raise IllegalAction("a failed parry rolls no damage")
    return damage_dice(form, significant, band, strength)


def missile_destroyed(parry: Damage, incoming: Delivery) -> bool:
    """Rule 6: a parry with 10+ Kill destroys an incoming missile (never a melee attack)."""
    return incoming != "melee" and parry.kill >= MISSILE_DESTROY_KILL


def apply_parry(incoming: Damage, parry: Damage, delivery: Delivery = "melee") -> Damage:
    """The damage left after a successful parry: the parry's Kill + Stun comes off the incoming
    Kill first, then Stun; any excess is ignored. A destroyed missile does nothing."""
    if missile_destroyed(parry, delivery):
        return NO_DAMAGE
    points = parry.total
    kill_off = min(points, incoming.kill)
    stun_off = min(points - kill_off, incoming.stun)
    return Damage(incoming.kill - kill_off, incoming.stun - stun_off)


def parried_distribution(dist: dict[Damage, Fraction], dexterity_modifier: int,
                         form: AttackForm, significant: bool, strength: int | None = None,
                         delivery: Delivery = "melee",
                         stunned: bool = False) -> dict[Damage, Fraction]:
    """The exact distribution of damage taken when parrying an attack distributed as ``dist``
    with ``form`` (the parry roll, then the parry's own damage dice by its band). Results are
    kept (``_PARRIED``): a fight asks the same question for every hit of the same attack."""
    key = (dist_key(dist), dexterity_modifier, form, significant, strength, delivery, stunned)
    found = _PARRIED.get(key)
    if found is None:
        if len(_PARRIED) >= _PARRIED_MAX:
            _PARRIED.clear()
        found = _parried(dist, dexterity_modifier, form, significant, strength, delivery,
                         stunned)
        _PARRIED[key] = found
    return dict(found)


_PARRIED: dict[tuple[Any, ...], dict[Damage, Fraction]] = {}
_PARRIED_MAX = 512
"""Parry distributions computed so far (cleared when it reaches this many)."""


def _parried(dist: dict[Damage, Fraction], dexterity_modifier: int, form: AttackForm,
             significant: bool, strength: int | None, delivery: Delivery,
             stunned: bool) -> dict[Damage, Fraction]:
    faces: dict[Band, int] = {}
    for face in range(1, 21):  # only the band of the parry roll matters: count its faces
        band = parry_check(face, dexterity_modifier, stunned).band
        faces[band] = faces.get(band, 0) + 1
    # whole numbers over common denominators, one Fraction per outcome at the end
    den = math.lcm(*(p.denominator for p in dist.values()))
    incoming = [(d, int(p * den)) for d, p in dist.items()]
    counts: dict[Damage, int] = {}
    parts: list[tuple[int, dict[Damage, int]]] = []
    for band, count in faces.items():
        if band is Band.FAILURE:
            parts.append((1, {d: c * count for d, c in incoming}))
            continue
        # only the parry's total and whether it destroys a missile matter
        grouped: dict[tuple[int, bool], Fraction] = {}
        for parry, q in parry_dice(form, significant, band, strength).distribution().items():
            k = (parry.total, missile_destroyed(parry, delivery))
            grouped[k] = grouped.get(k, Fraction(0)) + q
        qden = math.lcm(*(q.denominator for q in grouped.values()))
        part: dict[Damage, int] = {}
        for (total, destroyed), q in grouped.items():
            kill = MISSILE_DESTROY_KILL if destroyed else 0
            stand_in = Damage(kill, total - kill)
            weight = int(q * qden) * count
            for d, c in incoming:
                left = apply_parry(d, stand_in, delivery)
                part[left] = part.get(left, 0) + c * weight
        parts.append((qden, part))
    scale = math.lcm(*(q for q, _ in parts))
    for qden, part in parts:
        for d, c in part.items():
            counts[d] = counts.get(d, 0) + c * (scale // qden)
    total_den = den * scale * 20
    return {d: Fraction(c, total_den) for d, c in counts.items()}


# ------------------------------------------------------------------ expected damage
# What the response menus and the referee weigh: the Kill + Stun expected to get through,
# exact, computed once per distinct distribution (``dist_key``) and defender's numbers.


@lru_cache(maxsize=512)
def expected_total(key: DistKey) -> Fraction:
    """The exact Kill + Stun expected of the distribution of ``key``; cached."""
    kill, stun = mean_of(from_key(key))
    return kill + stun


@lru_cache(maxsize=2048)
def expected_after_dodge(key: DistKey, agility_modifier: int, stunned: bool = False
                         ) -> Fraction:
    """The exact Kill + Stun expected to get through a dodge of the distribution of ``key``
    (``dodged_distribution``'s mean, summed in whole numbers); cached."""
    den = math.lcm(*(m for _, _, _, m in key))
    weights = [(Damage(k, s), n * (den // m)) for k, s, n, m in key]
    faces: dict[Band, int] = {}
    for face in range(1, 21):  # only the band of the dodge matters: count its faces
        band = dodge_check(face, agility_modifier, stunned).band
        faces[band] = faces.get(band, 0) + 1
    total = sum(count * sum(w * apply_dodge(d, band).total for d, w in weights)
                for band, count in faces.items())
    return Fraction(total, den * 20)


@lru_cache(maxsize=4096)
def expected_after_parry(key: DistKey, dexterity_modifier: int, form: AttackForm,
                         significant: bool, strength: int | None = None,
                         delivery: Delivery = "melee", stunned: bool = False) -> Fraction:
    """The exact Kill + Stun expected to get through a parry with ``form`` of the
    distribution of ``key`` (``parried_distribution``'s mean); cached. Only totals matter:
    a parry of total T leaves max(0, incoming total - T) (``apply_parry`` takes its points
    off Kill, then Stun), or nothing when it destroys a missile."""
    den = math.lcm(*(m for _, _, _, m in key))
    incoming: dict[int, int] = {}
    for k, s, n, m in key:
        incoming[k + s] = incoming.get(k + s, 0) + n * (den // m)
    faces: dict[Band, int] = {}
    for face in range(1, 21):  # only the band of the parry roll matters: count its faces
        band = parry_check(face, dexterity_modifier, stunned).band
        faces[band] = faces.get(band, 0) + 1
    out = Fraction(0)
    for band, count in faces.items():
        if band is Band.FAILURE:
            whole = sum(c * t for t, c in incoming.items())
            out += Fraction(count * whole, den * 20)
            continue
        qden, parries = _parry_totals(parry_dice(form, significant, band, strength), delivery)
        left = sum(w * c * max(0, t - total) for total, destroyed, w in parries if not destroyed
                   for t, c in incoming.items())
        out += Fraction(count * left, den * qden * 20)
    return out


@lru_cache(maxsize=256)
def _parry_totals(dice: DamageDice, delivery: Delivery
                  ) -> tuple[int, tuple[tuple[int, bool, int], ...]]:
    """A parry's dice as (denominator, ((total, destroys the missile, weight), ...))."""
    dist = dice.distribution()
    den = math.lcm(*(p.denominator for p in dist.values()))
    grouped: dict[tuple[int, bool], int] = {}
    for parry, p in dist.items():
        k = (parry.total, missile_destroyed(parry, delivery))
        grouped[k] = grouped.get(k, 0) + p.numerator * (den // p.denominator)
    return den, tuple((t, d, w) for (t, d), w in grouped.items())


@dataclass(frozen=True, slots=True)
class ParryOutcome:
    """A resolved parry: the roll, the parry's damage (None on a failure), what gets through."""

    roll: CheckResult
    parry: Damage | None
    taken: Damage
    destroyed: bool

    @property
    def result(self) -> str:
        """What the parry did to the hit (the roll itself left out: it has its own line)."""
        if self.parry is None:
            return "the parry fails: the attack gets through"
        if self.destroyed:
            return "the parry destroys the missile: it does no damage"
        return (f"the parry's {self.parry.total} comes off Kill first, then Stun: Kill"
                f" {self.taken.kill}, Stun {self.taken.stun} get through")

    @property
    def why(self) -> str:
        """The parry explained."""
        if self.parry is None:
            return f"parry {self.roll.why}: the attack gets through"
        if self.destroyed:
            return (f"parry {self.roll.why}; parry damage Kill {self.parry.kill} + Stun"
                    f" {self.parry.stun}: the missile is destroyed and does no damage")
        return (f"parry {self.roll.why}; parry damage {self.parry.total} taken off Kill first,"
                f" then Stun: Kill {self.taken.kill}, Stun {self.taken.stun} get through")


def resolve_parry(roll: CheckResult, incoming: Damage, parry: Damage | None,
                  delivery: Delivery = "melee") -> ParryOutcome:
    """Combine a parry roll, the incoming damage and (on a success) the parry's damage."""
    if not roll.success:
        return ParryOutcome(roll, None, incoming, False)
    if parry is None:
        raise IllegalAction("a successful parry needs its damage rolled")
    destroyed = missile_destroyed(parry, delivery)
    return ParryOutcome(roll, parry, apply_parry(incoming, parry, delivery), destroyed)
