"""Damage: dice by attacker class and hit quality, Kill and Stun, fists, Strength and weapons,
the Kill and Stun tracks and what their low ends mean (RULES.md C.3, C.5).

An attack's damage is a number of dice for each track: lethal attacks roll 2 Kill dice and 1
Stun die, non-lethal ones 2 Stun dice and 1 Kill die. The die is a d10 (significant attacker,
complete hit), d6 (significant, minor hit; ordinary, complete), or d3 (ordinary, minor).
Dice come in as faces; exact distributions are available for the referee and the odds panel.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from fractions import Fraction
from functools import lru_cache
from itertools import product
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from engine.dice import DiceSource, DiceSpec, check_faces
from engine.errors import IllegalAction
from engine.systems.panels.checks import Band

FILLED_IN = (
    "Strength (C.7 #3) adds points to both the Kill and the Stun total of melee attacks (fists"
    " and melee weapons, not missiles): Strength 1-12 +0, 13-16 +1, 17-20 +2, 21-24 +4, 25-27"
    " +6, 28-30 +8. A weapon's or power's modifier also adds points to both totals. The fist's"
    " -5 comes off the Kill total after those bonuses, and no total goes below 0 (C.7 #11)."
    " Weapons: fist (melee, non-lethal, -5 Kill), club (melee, non-lethal, +1), knife (melee,"
    " lethal, +0), sword (melee, lethal, +2), bow (slow missile, lethal, +1), pistol (fast"
    " missile, lethal, +1), rifle (fast missile, lethal, +3). Tracks never go below 0 nor above"
    " their maximum. Stunned: a track's current value at or below 10% of its maximum"
    " (current x 10 <= max), on either track. 0 Stun: unconscious, out of the fight until it"
    " ends (then back at 1 Stun). 0 Kill: dying, unconscious and out of the fight, and dead at"
    " the end of the fight unless an ally spends a panel beside them on first aid (they are then"
    " stable at 1 Kill, still unconscious); 0 Kill is worse than 0 Stun when both are at 0."
)
"""The rules of this module that the seed leaves out, filled in."""

FIST_KILL_PENALTY = -5
"""Fists: -5 to the Kill damage rolled (C.3), never below 0."""

MAIN_DICE = 2
SIDE_DICE = 1
"""The attack's own track takes 2 dice, the other 1 (lethal: Kill; non-lethal: Stun)."""

STUNNED_PERCENT = 10
"""Stunned at 10% or less of either track's maximum (C.5)."""

_STRENGTH_TABLE: tuple[tuple[int, int, int], ...] = (
    (1, 12, 0), (13, 16, 1), (17, 20, 2), (21, 24, 4), (25, 27, 6), (28, 30, 8),
)
"""(low, high, points) rows of the Strength damage bonus (filled in)."""

Range = Literal["melee", "missile"]
Speed = Literal["fast", "slow"]
Delivery = Literal["melee", "slow missile", "fast missile"]
"""How an attack arrives, for the parry rules (C.4)."""


def die_sides(significant: bool, band: Band) -> int:
    """The damage die: significant d10 complete / d6 minor; ordinary d6 / d3 (C.3)."""
    if band is Band.FAILURE:
        raise IllegalAction("a failed roll does no damage: only a minor or complete success rolls"
                            " damage dice")
    if significant:
        return 10 if band is Band.COMPLETE else 6
    return 6 if band is Band.COMPLETE else 3


def strength_bonus(strength: int) -> int:
    """The points a Strength adds to melee damage (``FILLED_IN``)."""
    for low, high, points in _STRENGTH_TABLE:
        if low <= strength <= high:
            return points
    raise IllegalAction(f"Strength runs from 1 to 30, got {strength}")


class AttackForm(BaseModel):
    """One way a character attacks: a fist, a weapon, a power, or an object used to hit."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(min_length=1)
    range: Range = "melee"
    lethal: bool = False
    fist: bool = False
    speed: Speed | None = Field(None, description="Missiles only: fast (bullets) or slow"
                                " (thrown, arrows).")
    modifier: int = Field(0, ge=-5, le=20, description="Points added to Kill and Stun.")
    object: bool = Field(False, description="An object used to parry (C.4 rule 7).")

    @model_validator(mode="after")
    def _consistent(self) -> AttackForm:
        if self.range == "missile" and self.speed is None:
            raise ValueError(f"{self.name}: a missile attack needs a speed, fast or slow")
        if self.range == "melee" and self.speed is not None:
            raise ValueError(f"{self.name}: only a missile attack has a speed")
        if self.fist and (self.range != "melee" or self.lethal):
            raise ValueError(f"{self.name}: a fist is a melee, non-lethal attack")
        return self

    @property
    def delivery(self) -> Delivery:
        """melee, slow missile or fast missile."""
        if self.range == "melee":
            return "melee"
        return "fast missile" if self.speed == "fast" else "slow missile"


WEAPONS: dict[str, AttackForm] = {
    "fist": AttackForm(name="fist", fist=True),
    "club": AttackForm(name="club", modifier=1),
    "knife": AttackForm(name="knife", lethal=True),
    "sword": AttackForm(name="sword", lethal=True, modifier=2),
    "bow": AttackForm(name="bow", range="missile", speed="slow", lethal=True, modifier=1),
    "pistol": AttackForm(name="pistol", range="missile", speed="fast", lethal=True, modifier=1),
    "rifle": AttackForm(name="rifle", range="missile", speed="fast", lethal=True, modifier=3),
}
"""Our weapon table (``FILLED_IN``)."""


def weapon(name: str) -> AttackForm:
    """A weapon of ``WEAPONS`` by name; ``IllegalAction`` naming the known ones otherwise."""
    try:
        return WEAPONS[name.strip().lower()]
    except KeyError:
        raise IllegalAction(f"no weapon called {name!r}; the weapons are"
                            f" {', '.join(WEAPONS)}") from None


@dataclass(frozen=True, slots=True)
class DamageDice:
    """What a hit rolls: Kill and Stun dice of one size, points added to each, the fist flag."""

    kill_dice: int
    stun_dice: int
    sides: int
    bonus: int = 0
    fist: bool = False

    @property
    def kill_notation(self) -> str:
        """E.g. '2d10+1' or '1d6+0-5 (fist)'."""
        return self._notation(self.kill_dice, FIST_KILL_PENALTY if self.fist else 0)

    @property
    def stun_notation(self) -> str:
        """E.g. '1d10+1'."""
        return self._notation(self.stun_dice, 0)

    def _notation(self, count: int, extra: int) -> str:
        text = f"{count}d{self.sides}"
        if self.bonus:
            text += f"{self.bonus:+d}"
        if extra:
            text += f"{extra:+d} (fist)"
        return text

    def totals(self, kill_faces: Sequence[int], stun_faces: Sequence[int]) -> Damage:
        """The damage these faces make (checked for count and range), floors at 0."""
        kf = check_faces(DiceSpec(self.kill_dice, self.sides), list(kill_faces))
        sf = check_faces(DiceSpec(self.stun_dice, self.sides), list(stun_faces))
        return self._from(kf, sf)

    def _from(self, kill_faces: Iterable[int], stun_faces: Iterable[int]) -> Damage:
        kill = sum(kill_faces) + self.bonus + (FIST_KILL_PENALTY if self.fist else 0)
        stun = sum(stun_faces) + self.bonus
        return Damage(max(0, kill), max(0, stun))

    def maximum(self) -> Damage:
        """Every die at its highest face (the critical hit 'Clean strike')."""
        return self._from([self.sides] * self.kill_dice, [self.sides] * self.stun_dice)

    def with_extra_dice(self, extra: int = 1) -> DamageDice:
        """``extra`` more dice on the two-dice track (the critical hit 'Crushing blow'):
        Kill for a lethal attack, Stun for a non-lethal one."""
        if extra < 0:
            raise IllegalAction(f"extra dice are never negative, got {extra}")
        if self.kill_dice >= self.stun_dice:
            return replace(self, kill_dice=self.kill_dice + extra)
        return replace(self, stun_dice=self.stun_dice + extra)

    def roll(self, dice: DiceSource) -> tuple[Damage, tuple[int, ...], tuple[int, ...]]:
        """Roll the Kill dice then the Stun dice; the damage and both sets of faces."""
        kill = dice.roll(DiceSpec(self.kill_dice, self.sides)).faces
        stun = dice.roll(DiceSpec(self.stun_dice, self.sides)).faces
        return self._from(kill, stun), kill, stun

    def distribution(self) -> dict[Damage, Fraction]:
        """The exact distribution of the damage (every face combination counted; computed
        once per dice, a copy returned)."""
        return dict(_distribution(self))


@dataclass(frozen=True, slots=True)
class Damage:
    """Kill and Stun damage, each 0 or more."""

    kill: int
    stun: int

    def __post_init__(self) -> None:
        if self.kill < 0 or self.stun < 0:
            raise IllegalAction(f"damage is never negative (Kill {self.kill}, Stun {self.stun})")

    @property
    def total(self) -> int:
        """Kill + Stun."""
        return self.kill + self.stun


NO_DAMAGE = Damage(0, 0)


def damage_dice(form: AttackForm, significant: bool, band: Band,
                strength: int | None = None) -> DamageDice:
    """The dice of a hit with ``form``: size by class and band, 2+1 dice by lethality, the
    weapon's modifier and (melee only) the Strength bonus."""
    sides = die_sides(significant, band)
    bonus = form.modifier
    if strength is not None and form.range == "melee":
        bonus += strength_bonus(strength)
    main, side = MAIN_DICE, SIDE_DICE
    kill, stun = (main, side) if form.lethal else (side, main)
    return DamageDice(kill, stun, sides, bonus, form.fist)


def mean_of(dist: Mapping[Damage, Fraction]) -> tuple[Fraction, Fraction]:
    """The exact mean Kill and Stun of a damage distribution (summed in whole numbers over
    the common denominator: the same Fractions, without one per outcome)."""
    den = math.lcm(*(p.denominator for p in dist.values()))
    kill = stun = 0
    for d, p in dist.items():
        weight = p.numerator * (den // p.denominator)
        kill += weight * d.kill
        stun += weight * d.stun
    return Fraction(kill, den), Fraction(stun, den)


DistKey = tuple[tuple[int, int, int, int], ...]
"""A distribution as whole numbers (Kill, Stun, numerator, denominator) in its order: a key
for the caches of what is computed from a distribution, quick to hash (a Fraction's hash is
not)."""


def dist_key(dist: Mapping[Damage, Fraction]) -> DistKey:
    """``dist`` as a ``DistKey``."""
    return tuple((d.kill, d.stun, p.numerator, p.denominator) for d, p in dist.items())


def from_key(key: DistKey) -> dict[Damage, Fraction]:
    """The distribution of a ``DistKey`` (equal to the one it was made from, in its order)."""
    return {Damage(k, s): Fraction(n, m) for k, s, n, m in key}


@lru_cache(maxsize=65536)
def down_odds(kill: int, stun: int, dice: DamageDice) -> Fraction:
    """The exact chance that one hit of ``dice`` leaves a character with ``kill`` Kill and
    ``stun`` Stun left out of the fight (at 0 Kill or 0 Stun: ``status_odds``'s unconscious
    plus dying); cached, as the options ask it for every attack and target at every step."""
    dist = _distribution(dice)
    den = math.lcm(*(p.denominator for p in dist.values()))
    out = sum(p.numerator * (den // p.denominator) for d, p in dist.items()
              if d.kill >= kill or d.stun >= stun)
    return Fraction(out, den)


@lru_cache(maxsize=256)
def _distribution(dice: DamageDice) -> dict[Damage, Fraction]:
    faces = range(1, dice.sides + 1)
    counts: dict[Damage, int] = {}
    for kf in product(faces, repeat=dice.kill_dice):
        for sf in product(faces, repeat=dice.stun_dice):
            d = dice._from(kf, sf)
            counts[d] = counts.get(d, 0) + 1
    n = dice.sides ** (dice.kill_dice + dice.stun_dice)
    return {d: Fraction(c, n) for d, c in counts.items()}


@lru_cache(maxsize=256)
def mean_damage(dice: DamageDice) -> tuple[Fraction, Fraction]:
    """The exact mean Kill and Stun of ``dice`` (floors included)."""
    return mean_of(_distribution(dice))


def map_distribution(dist: dict[Damage, Fraction],
                     change: Callable[[Damage], Damage]) -> dict[Damage, Fraction]:
    """``dist`` with every outcome passed through ``change`` (a dodge's halving, a parry)."""
    out: dict[Damage, Fraction] = {}
    for d, p in dist.items():
        nd = change(d)
        out[nd] = out.get(nd, Fraction(0)) + p
    return out


# ------------------------------------------------------------------ tracks


@dataclass(frozen=True, slots=True)
class Track:
    """A Kill or Stun track: current value 0..maximum."""

    current: int
    maximum: int

    def __post_init__(self) -> None:
        if self.maximum < 1:
            raise IllegalAction(f"a track's maximum is at least 1, got {self.maximum}")
        if not 0 <= self.current <= self.maximum:
            raise IllegalAction(f"a track runs from 0 to its maximum {self.maximum},"
                                f" got {self.current}")

    @classmethod
    def full(cls, maximum: int) -> Track:
        """A track at its maximum."""
        return cls(maximum, maximum)

    def take(self, points: int) -> Track:
        """The track after losing ``points`` (0 or more); never below 0."""
        if points < 0:
            raise IllegalAction(f"damage is never negative, got {points}")
        return Track(max(0, self.current - points), self.maximum)

    def heal(self, points: int) -> Track:
        """The track after regaining ``points``; never above the maximum."""
        if points < 0:
            raise IllegalAction(f"healing is never negative, got {points}")
        return Track(min(self.maximum, self.current + points), self.maximum)

    @property
    def low(self) -> bool:
        """At or below 10% of the maximum (stunned, C.5)."""
        return self.current * 100 <= self.maximum * STUNNED_PERCENT


class Status(StrEnum):
    """What a character's tracks mean, worst last."""

    FINE = "fine"
    STUNNED = "stunned"
    UNCONSCIOUS = "unconscious"
    DYING = "dying"


STATUS_TEXT: dict[Status, str] = {
    Status.FINE: "fighting fit",
    Status.STUNNED: "stunned: half speed, -5 on every d20 roll",
    Status.UNCONSCIOUS: "unconscious (0 Stun): out of the fight until it ends",
    Status.DYING: "dying (0 Kill): out of the fight, dead at its end unless an ally spends a"
                  " panel on first aid",
}


@dataclass(frozen=True, slots=True)
class Health:
    """A character's Kill and Stun tracks."""

    kill: Track
    stun: Track

    @classmethod
    def full(cls, kill_max: int, stun_max: int) -> Health:
        """Both tracks at their maximum."""
        return cls(Track.full(kill_max), Track.full(stun_max))

    def take(self, damage: Damage) -> Health:
        """Both tracks after ``damage``."""
        return Health(self.kill.take(damage.kill), self.stun.take(damage.stun))

    @property
    def status(self) -> Status:
        """Dying at 0 Kill, unconscious at 0 Stun, stunned at <= 10% of either, else fine."""
        if self.kill.current == 0:
            return Status.DYING
        if self.stun.current == 0:
            return Status.UNCONSCIOUS
        if self.kill.low or self.stun.low:
            return Status.STUNNED
        return Status.FINE

    @property
    def stunned(self) -> bool:
        """Stunned (or worse): -5 on every d20 roll."""
        return self.status is not Status.FINE

    @property
    def out(self) -> bool:
        """Unconscious or dying: no more panels this fight."""
        return self.status in (Status.UNCONSCIOUS, Status.DYING)


def status_odds(health: Health, dist: dict[Damage, Fraction]) -> dict[Status, Fraction]:
    """The exact odds of each status after taking damage distributed as ``dist``."""
    out = {s: Fraction(0) for s in Status}
    for d, p in dist.items():
        out[health.take(d).status] += p
    return out
