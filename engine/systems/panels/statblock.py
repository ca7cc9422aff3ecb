"""Panels characters: a stat block as a pydantic model, and the builder's limits
(RULES.md C.6).

A ``Character`` has a kind (hero, villain, thug, thug group), characteristics (Agility,
Dexterity and Strength, the three the seed names, plus any others a content pack adds),
Kill and Stun maxima, attack forms and powers. Heroes and villains are significant; thugs are
ordinary (C.3). ``problems`` lists every limit of ``LIMITS`` a block breaks, for the custom
hero builder and for ``sidekick validate``; ``from_data`` reads one block and raises
``ContentError`` naming the character and the field.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from engine.content.problems import describe
from engine.errors import ContentError, IllegalAction
from engine.systems.panels.checks import MAX_CHARACTERISTIC, MIN_CHARACTERISTIC, skill_modifier
from engine.systems.panels.damage import AttackForm, Health

FILLED_IN = (
    "Builder limits (C.6 leaves them out). A hero: each characteristic at most 25, Agility +"
    " Dexterity + Strength at most 60, Kill 10-40, Stun 10-50, at most 4 attack forms (its own"
    " and its powers'), each damage modifier at most +6. A villain: each characteristic at most"
    " 30, the three at most 70, Kill 10-60, Stun 10-80, at most 6 attack forms, modifiers at"
    " most +10. A thug (one ordinary human) or each member of a thug group: each characteristic"
    " at most 18, the three at most 42, Kill 3-20, Stun 3-20, at most 2 attack forms, modifiers"
    " at most +3 and no powers. A thug group has 2-12 members, every other kind exactly 1."
    " Every character has at least one attack form (its fists count), attack names are unique."
    " A power that is not an attack is used with a check of the characteristic it names"
    " (``characteristic``; Wits when it names none)."
)
"""The rules of this module that the seed leaves out, filled in."""

Kind = Literal["hero", "villain", "thug", "thug group"]
SIGNIFICANT_KINDS: frozenset[str] = frozenset({"hero", "villain"})
"""Heroes and villains are significant; thugs are ordinary humans (C.3)."""

Characteristic = Annotated[int, Field(ge=MIN_CHARACTERISTIC, le=MAX_CHARACTERISTIC)]
"""A characteristic, 1-30."""


@dataclass(frozen=True, slots=True)
class Limits:
    """What the builder allows one kind of character."""

    characteristic_max: int
    sum_max: int
    kill: tuple[int, int]
    stun: tuple[int, int]
    attacks_max: int
    modifier_max: int
    powers: bool = True
    count: tuple[int, int] = (1, 1)


LIMITS: dict[str, Limits] = {
    "hero": Limits(25, 60, (10, 40), (10, 50), 4, 6),
    "villain": Limits(30, 70, (10, 60), (10, 80), 6, 10),
    "thug": Limits(18, 42, (3, 20), (3, 20), 2, 3, powers=False),
    "thug group": Limits(18, 42, (3, 20), (3, 20), 2, 3, powers=False, count=(2, 12)),
}
"""Our builder limits by kind (``FILLED_IN``)."""


class _Frozen(BaseModel):
    """Immutable, unknown keys are an error."""

    model_config = ConfigDict(extra="forbid", frozen=True)


DEFAULT_POWER_CHARACTERISTIC = "wits"
"""The characteristic a power's check uses when the power names none."""


class Power(_Frozen):
    """A power: an attack form, or notes the referee reads; ``stops_bullets`` lets the
    character's melee parries stop fast projectiles (C.4 rule 5's 'normally');
    ``characteristic``: what its check rolls when used (default Wits)."""

    name: str = Field(min_length=1)
    notes: str = ""
    attack: AttackForm | None = None
    stops_bullets: bool = False
    characteristic: str = Field(DEFAULT_POWER_CHARACTERISTIC, min_length=1)


class Characteristics(_Frozen):
    """Agility (order, dodge), Dexterity (to hit, parry), Strength (melee damage), others."""

    agility: Characteristic
    dexterity: Characteristic
    strength: Characteristic
    other: dict[str, Characteristic] = Field(default_factory=dict)

    @property
    def core_sum(self) -> int:
        """Agility + Dexterity + Strength."""
        return self.agility + self.dexterity + self.strength

    def value(self, name: str) -> int | None:
        """A characteristic by name (the three, then ``other``), or None."""
        key = name.strip().lower()
        if key in ("agility", "dexterity", "strength"):
            return int(getattr(self, key))
        return self.other.get(key)


class Character(_Frozen):
    """A panels character's stat block."""

    name: str = Field(min_length=1)
    kind: Kind
    count: int = Field(1, ge=1, description="Members of a thug group; 1 otherwise.")
    characteristics: Characteristics
    kill: int = Field(ge=1, description="Kill points maximum.")
    stun: int = Field(ge=1, description="Stun points maximum.")
    attacks: tuple[AttackForm, ...] = ()
    powers: tuple[Power, ...] = ()
    notes: str = ""
    concept: str = Field("", description="Who they are, in a line (content's words).")
    complications: tuple[str, ...] = Field((), description="What gets in their way.")

    @model_validator(mode="after")
    def _power_characteristics(self) -> Character:
        for p in self.powers:
            if p.characteristic != DEFAULT_POWER_CHARACTERISTIC \
                    and self.characteristics.value(p.characteristic) is None:
                raise ValueError(f"power {p.name!r} names characteristic"
                                 f" {p.characteristic!r}, which {self.name} does not have")
        return self

    @property
    def significant(self) -> bool:
        """Heroes and villains are significant; thugs ordinary."""
        return self.kind in SIGNIFICANT_KINDS

    @property
    def all_attacks(self) -> tuple[AttackForm, ...]:
        """Its attack forms, then its powers' attack forms."""
        return self.attacks + tuple(p.attack for p in self.powers if p.attack is not None)

    def attack(self, name: str) -> AttackForm:
        """One attack form by name; ``IllegalAction`` naming the forms otherwise."""
        key = name.strip().lower()
        for form in self.all_attacks:
            if form.name.lower() == key:
                return form
        names = ", ".join(f.name for f in self.all_attacks) or "none"
        raise IllegalAction(f"{self.name} has no attack called {name!r}; its attacks: {names}")

    @property
    def stops_bullets(self) -> bool:
        """A power lets its melee parries stop fast projectiles."""
        return any(p.stops_bullets for p in self.powers)

    @property
    def agility_modifier(self) -> int:
        """Skill modifier for dodging and panel order."""
        return skill_modifier(self.characteristics.agility)

    @property
    def dexterity_modifier(self) -> int:
        """Skill modifier for hitting and parrying."""
        return skill_modifier(self.characteristics.dexterity)

    def health(self) -> Health:
        """Fresh Kill and Stun tracks."""
        return Health.full(self.kill, self.stun)

    def power(self, name: str) -> Power:
        """One power by name (any case); ``IllegalAction`` naming the powers otherwise."""
        key = name.strip().lower()
        for p in self.powers:
            if p.name.lower() == key:
                return p
        names = ", ".join(p.name for p in self.powers) or "none"
        raise IllegalAction(f"{self.name} has no power called {name!r}; its powers: {names}")

    def power_check(self, power: Power) -> tuple[str, int]:
        """The characteristic a power's check rolls and its value; ``IllegalAction`` when the
        block lacks it (a default Wits on a block without Wits)."""
        value = self.characteristics.value(power.characteristic)
        if value is None:
            raise IllegalAction(f"{self.name}'s {power.name} is checked with"
                                f" {power.characteristic}, which {self.name} does not have")
        return power.characteristic.strip().lower(), value


def problems(block: Character) -> list[str]:
    """Every builder limit ``block`` breaks, as sentences naming the character; [] if none."""
    lim = LIMITS[block.kind]
    who = f"{block.name} ({block.kind})"
    out: list[str] = []
    ch = block.characteristics
    values = {"agility": ch.agility, "dexterity": ch.dexterity, "strength": ch.strength,
              **ch.other}
    for key, value in values.items():
        if value > lim.characteristic_max:
            out.append(f"{who}: {key} {value} is above the {block.kind}'s limit of"
                       f" {lim.characteristic_max}")
    if ch.core_sum > lim.sum_max:
        out.append(f"{who}: agility + dexterity + strength is {ch.core_sum}, above the"
                   f" {block.kind}'s limit of {lim.sum_max}")
    for track, value, (low, high) in (("kill", block.kill, lim.kill),
                                      ("stun", block.stun, lim.stun)):
        if not low <= value <= high:
            out.append(f"{who}: {track} {value} is outside {low}-{high}")
    forms = block.all_attacks
    if not forms:
        out.append(f"{who}: needs at least one attack form (fists count)")
    if len(forms) > lim.attacks_max:
        out.append(f"{who}: {len(forms)} attack forms, above the limit of {lim.attacks_max}")
    seen: set[str] = set()
    for form in forms:
        if form.name.lower() in seen:
            out.append(f"{who}: two attack forms are called {form.name!r}")
        seen.add(form.name.lower())
        if form.modifier > lim.modifier_max:
            out.append(f"{who}: {form.name}'s damage modifier {form.modifier:+d} is above"
                       f" {lim.modifier_max:+d}")
    if block.powers and not lim.powers:
        out.append(f"{who}: an ordinary human has no powers")
    low, high = lim.count
    if not low <= block.count <= high:
        out.append(f"{who}: count {block.count} is outside {low}-{high}")
    return out


def from_data(data: Any, where: str = "character") -> Character:
    """A ``Character`` from parsed data; ``ContentError`` naming ``where`` and each bad field."""
    try:
        return Character.model_validate(data)
    except ValidationError as exc:
        name = data.get("name") if isinstance(data, dict) else None
        label = f"{where} {name!r}" if name else where
        found = [f"{label}: {'.'.join(map(str, e['loc'])) or '(block)'}: {describe(e)}"
                 for e in exc.errors()]
        raise ContentError(found[0] if len(found) == 1 else f"{label}: {len(found)} problems",
                           found) from None
