"""M&M 3e stat blocks (RULES.md D.9), the power-level caps, and a loader for ready-made
characters in YAML.

A ``StatBlock`` is a frozen pydantic model with unknown keys forbidden: abilities, defenses
(Toughness is the total, Stamina included), initiative, skills as total bonuses, advantages,
attacks, speed ranks, complications, the minion flag and, for a minion group, its count.
``pl_problems`` lists every power-level cap a block breaks; ``load_characters`` reads a
``characters:`` list and raises ``ContentError`` naming the file, the character and the field.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    GetJsonSchemaHandler,
    ValidationError,
    field_validator,
    model_validator,
)
from pydantic.json_schema import JsonSchemaValue
from pydantic_core.core_schema import CoreSchema

from engine.content.loader import read_yaml
from engine.content.problems import describe
from engine.errors import ContentError
from engine.systems.mm3e.conditions import Condition

FILLED_IN = (
    "Power-level caps, from the M&M 3e core rules (seed 004 has none): for each close or ranged"
    " attack, attack bonus + effect rank <= 2 x PL; a perception or area effect's rank <= PL;"
    " Dodge + Toughness and Parry + Toughness <= 2 x PL; Fortitude + Will <= 2 x PL; each skill"
    " bonus <= PL + 10. A defense is never below the ability it starts from (Dodge: Agility,"
    " Parry: Fighting, Toughness and Fortitude: Stamina, Will: Awareness). The default"
    " initiative bonus is Agility + 4 per rank of Improved Initiative. A minion group has at"
    " least 2 members."
)
"""The rules of this module that the seed leaves out, filled in."""

IMPROVED_INITIATIVE_BONUS = 4
"""Filled in (M&M 3e core): initiative bonus per rank of the Improved Initiative advantage."""

ABILITIES = ("strength", "stamina", "agility", "dexterity", "fighting", "intellect",
             "awareness", "presence")
"""The eight abilities, in the order of an M&M stat block."""

DEFENSE_BASE = {"dodge": "agility", "parry": "fighting", "toughness": "stamina",
                "fortitude": "stamina", "will": "awareness"}
"""The ability each defense starts from (filled in: a defense is never below it)."""

AbilityRank = Annotated[int, Field(ge=-5, le=20)]
"""An ability rank, -5 to 20 (D.1, D.9)."""

DefenseRank = Annotated[int, Field(ge=-5, le=40)]
"""A defense rank; the power-level caps bound it in practice."""

EffectRank = Annotated[int, Field(ge=0, le=40)]
"""An effect rank."""


class _Frozen(BaseModel):
    """Immutable, unknown keys are an error."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class Kind(StrEnum):
    """What a stat block stands for."""

    HERO = "hero"
    VILLAIN = "villain"
    MINION_GROUP = "minion_group"


class AttackRange(StrEnum):
    """How an attack reaches its target: close attacks target Parry, ranged attacks Dodge,
    perception and area effects need no attack roll (D.3)."""

    CLOSE = "close"
    RANGED = "ranged"
    PERCEPTION = "perception"
    AREA = "area"


class Effect(StrEnum):
    """The effect an attack carries."""

    DAMAGE = "damage"
    AFFLICTION = "affliction"
    WEAKEN = "weaken"
    DAZZLE = "dazzle"
    NULLIFY = "nullify"


class Abilities(_Frozen):
    """The eight ability ranks."""

    strength: AbilityRank
    stamina: AbilityRank
    agility: AbilityRank
    dexterity: AbilityRank
    fighting: AbilityRank
    intellect: AbilityRank
    awareness: AbilityRank
    presence: AbilityRank


class Defenses(_Frozen):
    """Defense ranks; defense class = 10 + rank. Toughness includes Stamina."""

    dodge: DefenseRank
    parry: DefenseRank
    toughness: DefenseRank
    fortitude: DefenseRank
    will: DefenseRank


class Advantage(_Frozen):
    """An advantage, with its rank if it has ranks. A bare string in YAML is an unranked one."""

    name: str = Field(min_length=1)
    rank: int | None = Field(None, ge=1, le=20)

    @model_validator(mode="before")
    @classmethod
    def _from_name(cls, data: Any) -> Any:
        return {"name": data} if isinstance(data, str) else data

    @classmethod
    def __get_pydantic_json_schema__(cls, core: CoreSchema, handler: GetJsonSchemaHandler
                                     ) -> JsonSchemaValue:
        """Its JSON Schema takes the bare string (an unranked advantage) too."""
        mapping = handler.resolve_ref_schema(handler(core))
        return {"anyOf": [{"type": "string", "minLength": 1}, mapping]}


class Attack(_Frozen):
    """An attack: close and ranged ones have an attack bonus, perception and area ones none."""

    name: str = Field(min_length=1)
    range: AttackRange
    bonus: int | None = Field(None, ge=-5, le=40, description="Attack bonus; close/ranged.")
    effect: Effect = Effect.DAMAGE
    rank: EffectRank
    resisted_by: Literal["toughness", "fortitude", "will", "dodge"] = "toughness"
    conditions: tuple[str, ...] = Field((), max_length=3, description="An affliction's"
                                        " conditions by degree of failure (1st, 2nd, 3rd).")
    notes: str = ""

    @field_validator("conditions")
    @classmethod
    def _known_conditions(cls, conditions: tuple[str, ...]) -> tuple[str, ...]:
        known = {c.value for c in Condition}
        for c in conditions:
            if c not in known:
                raise ValueError(f"unknown condition {c!r} (known: {', '.join(sorted(known))})")
        return conditions

    @model_validator(mode="after")
    def _bonus_matches_range(self) -> Attack:
        rolled = self.range in (AttackRange.CLOSE, AttackRange.RANGED)
        if rolled and self.bonus is None:
            raise ValueError(f"a {self.range.value} attack needs an attack bonus")
        if not rolled and self.bonus is not None:
            raise ValueError(f"a {self.range.value} effect has no attack roll, so no bonus")
        return self


class Morale(_Frozen):
    """When the referee's character gives up the fight (a referee trait, not a rule of the
    seed, which has no morale): ``then`` it flees (a move action; held or immobile, it
    surrenders instead) or surrenders, once ``at`` holds: ``hurt`` (any damage: a damage
    penalty, dazed or staggered), ``staggered`` (staggered, or a damage penalty of -4 or
    worse) or ``half_down`` (half or more of its minion group out of the fight). ``alone``:
    only when no ally outside its own group is still standing. A block without ``morale``
    fights on until it is taken down."""

    then: Literal["flee", "surrender"]
    at: Literal["hurt", "staggered", "half_down"]
    alone: bool = False


class StatBlock(_Frozen):
    """An M&M 3e character: hero, villain or minion group (``count`` members, each this)."""

    name: str = Field(min_length=1)
    kind: Kind
    count: int | None = Field(None, ge=2, le=100, description="Members; minion groups only.")
    power_level: int = Field(ge=1, le=20)
    concept: str = ""
    abilities: Abilities
    defenses: Defenses
    initiative: int | None = Field(None, ge=-5, le=60, description="None: the default bonus.")
    skills: dict[str, int] = Field(default_factory=dict, description="Skill name -> bonus.")
    advantages: tuple[Advantage, ...] = ()
    attacks: tuple[Attack, ...] = ()
    speed: dict[str, int] = Field(default_factory=lambda: {"ground": 0},
                                  description="Movement mode -> speed rank.")
    complications: tuple[str, ...] = ()
    minion: bool = False
    morale: Morale | None = Field(None, description="When the referee has it flee or"
                                  " surrender (none: it fights on until taken down).")

    @model_validator(mode="before")
    @classmethod
    def _group_is_minions(cls, data: Any) -> Any:
        if isinstance(data, dict) and data.get("kind") == Kind.MINION_GROUP.value \
                and "minion" not in data:
            return {**data, "minion": True}
        return data

    @field_validator("skills")
    @classmethod
    def _skill_bounds(cls, skills: dict[str, int]) -> dict[str, int]:
        for name, bonus in skills.items():
            if not -5 <= bonus <= 40:
                raise ValueError(f"skill {name!r}: bonus {bonus} outside -5..40")
        return skills

    @field_validator("speed")
    @classmethod
    def _speed_bounds(cls, speed: dict[str, int]) -> dict[str, int]:
        for mode, rank in speed.items():
            if not -5 <= rank <= 40:
                raise ValueError(f"speed {mode!r}: rank {rank} outside -5..40")
        return speed

    @model_validator(mode="after")
    def _consistent(self) -> StatBlock:
        group = self.kind is Kind.MINION_GROUP
        if group and self.count is None:
            raise ValueError("a minion group needs a count (2 or more)")
        if not group and self.count is not None:
            raise ValueError("only a minion group has a count")
        if group and not self.minion:
            raise ValueError("a minion group's members are minions")
        for defense, ability in DEFENSE_BASE.items():
            d, a = getattr(self.defenses, defense), getattr(self.abilities, ability)
            if d < a:
                raise ValueError(f"{defense} {d} is below {ability} {a}, which it includes")
        if self.morale is not None and self.morale.at == "half_down" and not group:
            raise ValueError("morale at half_down is for a minion group")
        names = [a.name for a in self.attacks]
        if len(set(names)) != len(names):
            raise ValueError("two attacks share a name")
        return self

    def advantage_rank(self, name: str) -> int:
        """The rank of an advantage (1 if unranked), 0 if the block lacks it; case-blind."""
        for adv in self.advantages:
            if adv.name.casefold() == name.casefold():
                return adv.rank or 1
        return 0

    @property
    def initiative_bonus(self) -> int:
        """The initiative bonus: as given, else Agility + 4 per Improved Initiative rank."""
        if self.initiative is not None:
            return self.initiative
        return (self.abilities.agility
                + IMPROVED_INITIATIVE_BONUS * self.advantage_rank("Improved Initiative"))


def pl_problems(block: StatBlock) -> list[str]:
    """Every power-level cap the block breaks (filled in, see ``FILLED_IN``), each naming the
    character, the trait and the numbers; empty when the block is legal."""
    pl, who, d = block.power_level, block.name, block.defenses
    out: list[str] = []
    for side, value in (("Dodge", d.dodge), ("Parry", d.parry)):
        if value + d.toughness > 2 * pl:
            out.append(f"{who}: {side} {value} + Toughness {d.toughness} ="
                       f" {value + d.toughness} > 2 x PL {pl}")
    if d.fortitude + d.will > 2 * pl:
        out.append(f"{who}: Fortitude {d.fortitude} + Will {d.will} ="
                   f" {d.fortitude + d.will} > 2 x PL {pl}")
    for attack in block.attacks:
        if attack.bonus is not None:
            total = attack.bonus + attack.rank
            if total > 2 * pl:
                out.append(f"{who}: {attack.name}: attack {attack.bonus} + rank {attack.rank}"
                           f" = {total} > 2 x PL {pl}")
        elif attack.rank > pl:
            out.append(f"{who}: {attack.name} ({attack.range.value}): rank {attack.rank}"
                       f" > PL {pl}")
    for skill, bonus in block.skills.items():
        if bonus > pl + 10:
            out.append(f"{who}: {skill} {bonus} > PL {pl} + 10 = {pl + 10}")
    return out


def _block_problems(block: StatBlock, seen: set[str]) -> list[str]:
    """What is wrong with a well-formed block in a file: its name used by a block before it
    (``seen``, which it joins), the power-level caps it breaks."""
    who = block.name
    out = [f"{who}: name: used by another character"] if who in seen else []
    seen.add(who)
    return out + [p.replace(f"{who}: ", f"{who}: power level: ", 1) for p in pl_problems(block)]


def roster_problems(blocks: Iterable[StatBlock]) -> list[str]:
    """What no model sees in a characters file's well-formed blocks (its ill-formed ones are
    the file model's to report): names used twice, power-level caps broken."""
    seen: set[str] = set()
    return [p for block in blocks for p in _block_problems(block, seen)]


MOVEMENT = ("leaping", "flight", "swimming", "burrowing", "speed", "teleport")
"""Movement powers a stat block gives as a rank under ``speed``."""


def key_hint(key: str, parent: tuple[int | str, ...] = ()) -> str:
    """Where an unknown key of a stat block belongs (``""``: no idea): M&M blocks have no
    ``powers`` list; each power is written as what it does."""
    k = key.casefold().replace(" ", "_")
    inside = str(parent[-1]) if parent else ""
    if k == "powers":
        return ("a stat block has no powers list: write each power as what it does - an attack"
                " under attacks (name, range, effect, rank), Protection as ranks added to"
                " defenses.toughness, Leaping or Flight as a rank under speed (speed:"
                " {leaping: 3}), anything else in the concept or notes")
    if k == "protection":
        return ("Protection is Toughness: add its ranks to defenses.toughness (the total,"
                " Stamina included)")
    if k in MOVEMENT:
        return f"a movement power: give its rank under speed (speed: {{{k}: 3}})"
    if k in ABILITIES and inside != "abilities":
        return f"an ability: it belongs under abilities ({k}: 4)"
    if k in DEFENSE_BASE and inside != "defenses":
        return f"a defense: it belongs under defenses ({k}: 8)"
    return ""


def problem_words(err: Any) -> str:
    """One validation error of a stat block in plain words, an unknown key with where it
    belongs (``key_hint``)."""
    text = describe(err)
    loc = tuple(err.get("loc", ()))
    if err.get("type") == "extra_forbidden" and loc:
        hint = key_hint(str(loc[-1]), loc[:-1])
        if hint:
            text += f": {hint}"
    return text


def block_errors(error: ValidationError, prefix: str) -> list[str]:
    """Every error of a stat block, each as ``<prefix><key path>: <plain words>``."""
    return [f"{prefix}{_where(err['loc'])}: {problem_words(err)}" for err in error.errors()]


def misplaced_keys(path: Path) -> list[str]:
    """Where each unknown key of a characters file's blocks belongs, when ``key_hint`` knows
    (the file's model names the key; this says where it goes): ``characters[0]
    (Keystone).powers: a stat block has no powers list: ...``."""
    try:
        data = read_yaml(path) if path.is_file() else None
    except ContentError:
        return []
    items = data.get("characters") if isinstance(data, dict) else None
    out = []
    for i, item in enumerate(items if isinstance(items, list) else []):
        if not isinstance(item, dict):
            continue
        for key in item:
            hint = key_hint(str(key)) if key not in StatBlock.model_fields else ""
            if hint:
                out.append(f"characters[{i}] ({item.get('name', '?')}).{key}: {hint}")
    return out


class _File(_Frozen):
    """A characters file: a list of stat blocks under ``characters``."""

    characters: list[dict[str, Any]]


def _where(loc: tuple[int | str, ...]) -> str:
    return ".".join(str(part) for part in loc) or "(the block)"


def load_characters(path: Path | str) -> list[StatBlock]:
    """The stat blocks of a YAML file with a ``characters:`` list, each checked against its
    power level; ``ContentError`` lists every problem as ``<file>: <character>: <field>:
    <what is wrong>``."""
    path = Path(path)
    raw = read_yaml(path)
    try:
        top = _File.model_validate(raw)
    except ValidationError as e:
        found = block_errors(e, f"{path}: ")
        raise ContentError("\n".join(found), found) from e
    blocks: list[StatBlock] = []
    problems: list[str] = []
    seen: set[str] = set()
    for i, entry in enumerate(top.characters):
        who = str(entry.get("name") or f"character #{i + 1}")
        try:
            block = StatBlock.model_validate(entry)
        except ValidationError as e:
            problems += block_errors(e, f"{path}: {who}: ")
            continue
        problems += [f"{path}: {p}" for p in _block_problems(block, seen)]
        blocks.append(block)
    if problems:  # every one, in the message too
        raise ContentError("\n".join(problems), problems)
    return blocks
