"""The custom hero builder: a stat block from bought ranks, the power points it costs, every rule
it breaks; a block derived from a plain line of abilities; a hero read from a YAML file.

Ranks come in as bought: ``defenses`` are ranks above the ability each defense starts from,
``skills`` are ranks above the skill's ability, ``attacks`` name their effect rank. The block
holds totals, as every ``StatBlock`` does.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from engine.content.loader import read_yaml
from engine.content.problems import describe
from engine.errors import ContentError
from engine.systems.mm3e.statblock import (
    ABILITIES,
    DEFENSE_BASE,
    Advantage,
    Attack,
    AttackRange,
    Kind,
    StatBlock,
    key_hint,
    pl_problems,
    problem_words,
)

FILLED_IN = (
    "The build's point budget, from the M&M 3e core rules (seed 004 has none): 15 power points"
    " per power level; abilities 2 per rank (a negative rank gives 2 back); defenses 1 per rank"
    " above the ability they start from; skills 1 per 2 ranks (rounded up); advantages 1 per"
    " rank. Attacks are priced simply: 1 per effect rank for a close attack, 2 for ranged or"
    " area, 3 for perception, whatever the effect; a Strength-based close attack pays only the"
    " ranks above Strength. A close attack's bonus is the better of Fighting and a Close Combat"
    " skill, a ranged one's of Dexterity and a Ranged Combat skill. A hero made from abilities"
    " alone has defenses equal to their abilities and an unarmed close attack (Fighting bonus,"
    " Strength damage), at the lowest power level of 10 or more that makes it legal."
)
"""The rules of this module that the seed leaves out, filled in."""

POINTS_PER_PL = 15
ABILITY_COST = 2
DEFENSE_COST = 1
SKILL_RANKS_PER_POINT = 2
ADVANTAGE_COST = 1
ATTACK_COST = {AttackRange.CLOSE: 1, AttackRange.RANGED: 2, AttackRange.AREA: 2,
               AttackRange.PERCEPTION: 3}
"""Power points per rank (filled in, see ``FILLED_IN``)."""

DEFAULT_PL = 10
"""A custom hero's power level unless given (the ready-made heroes' level)."""

SKILLS: dict[str, str] = {
    "acrobatics": "agility", "athletics": "strength", "close_combat": "fighting",
    "deception": "presence", "expertise": "intellect", "insight": "awareness",
    "intimidation": "presence", "investigation": "intellect", "perception": "awareness",
    "persuasion": "presence", "ranged_combat": "dexterity", "sleight_of_hand": "dexterity",
    "stealth": "agility", "technology": "intellect", "treatment": "intellect",
    "vehicles": "dexterity",
}
"""Each M&M 3e skill (by id) and the ability it adds to."""

TRAINED_ONLY = frozenset({"acrobatics", "expertise", "sleight_of_hand", "technology",
                          "treatment", "vehicles"})
"""Skills that cannot be used untrained (filled in)."""

UNARMED = "Unarmed"
"""The name of the derived block's Strength attack."""


def skill_id(name: str) -> str:
    """The base skill of a skill name: "Expertise (Engineering)" -> "expertise"."""
    base = name.split("(", 1)[0].strip().casefold()
    return "_".join(base.replace("-", " ").split())


def skill_ability(name: str) -> str | None:
    """The ability a skill adds to (None for a skill M&M does not have)."""
    return SKILLS.get(skill_id(name))


def _strength_based(attack: Attack) -> bool:
    return attack.range is AttackRange.CLOSE and "strength" in attack.notes.casefold()


def attack_cost(attack: Attack, strength: int) -> int:
    """An attack's power points: its rank (above Strength, when Strength-based) times the cost
    per rank of its range."""
    ranks = attack.rank - max(0, strength) if _strength_based(attack) else attack.rank
    return max(0, ranks) * ATTACK_COST[attack.range]


def points(block: StatBlock) -> dict[str, int]:
    """The power points the block spends, by part (abilities, defenses, skills, advantages,
    attacks)."""
    ab = block.abilities
    abilities = ABILITY_COST * sum(getattr(ab, a) for a in ABILITIES)
    defenses = DEFENSE_COST * sum(max(0, getattr(block.defenses, d) - getattr(ab, base))
                                  for d, base in DEFENSE_BASE.items())
    skill_ranks = 0
    for name, bonus in block.skills.items():
        ability = skill_ability(name)
        skill_ranks += max(0, bonus - (getattr(ab, ability) if ability else 0))
    skills = -(-skill_ranks // SKILL_RANKS_PER_POINT)
    advantages = ADVANTAGE_COST * sum(a.rank or 1 for a in block.advantages)
    attacks = sum(attack_cost(a, ab.strength) for a in block.attacks)
    return {"abilities": abilities, "defenses": defenses, "skills": skills,
            "advantages": advantages, "attacks": attacks}


def budget(power_level: int) -> int:
    """The power points a hero of ``power_level`` may spend."""
    return POINTS_PER_PL * power_level


def _attack(spec: Mapping[str, Any] | Attack, abilities: Mapping[str, int],
            skills: Mapping[str, int]) -> Attack:
    if isinstance(spec, Attack):
        return spec
    data = dict(spec)
    rng = AttackRange(data.get("range", "close"))
    if rng in (AttackRange.CLOSE, AttackRange.RANGED) and data.get("bonus") is None:
        ability, skill = (("fighting", "close_combat") if rng is AttackRange.CLOSE
                          else ("dexterity", "ranged_combat"))
        base = abilities.get(ability, 0)
        trained = [base + r for n, r in skills.items() if skill_id(n) == skill]
        data["bonus"] = max([base, *trained])
    return Attack.model_validate(data)


def build(name: str, power_level: int, abilities: Mapping[str, int],
          defenses: Mapping[str, int] | None = None, skills: Mapping[str, int] | None = None,
          advantages: Sequence[str | Mapping[str, Any]] = (),
          attacks: Sequence[Mapping[str, Any] | Attack] = ()) -> StatBlock:
    """A hero's stat block from bought ranks: ``defenses`` and ``skills`` are ranks above their
    ability (missing: 0), ``attacks`` dicts as in a characters file (a close or ranged attack's
    bonus derived when left out). ``ValueError`` naming each field when the block is malformed
    (an unknown skill, an ability out of range); power-level caps and the budget are
    ``problems``' business, not errors."""
    skills = dict(skills or {})
    unknown = [n for n in skills if skill_ability(n) is None]
    if unknown:
        raise ValueError(f"{name}: unknown skill(s) {', '.join(unknown)} (M&M skills:"
                         f" {', '.join(sorted(SKILLS))})")
    bad_def = sorted(set(defenses or {}) - set(DEFENSE_BASE))
    if bad_def:
        raise ValueError(f"{name}: unknown defense(s) {', '.join(bad_def)}"
                         f" (defenses: {', '.join(DEFENSE_BASE)})")
    ab = {a: int(abilities.get(a, 0)) for a in ABILITIES}
    extra = sorted(set(abilities) - set(ABILITIES))
    if extra:
        raise ValueError(f"{name}: unknown abilit{'y' if len(extra) == 1 else 'ies'}"
                         f" {', '.join(extra)} (abilities: {', '.join(ABILITIES)})")
    bought = dict(defenses or {})
    try:
        return StatBlock.model_validate({
            "name": name, "kind": Kind.HERO.value, "power_level": power_level,
            "abilities": ab,
            "defenses": {d: ab[base] + int(bought.get(d, 0)) for d, base in DEFENSE_BASE.items()},
            "skills": {n: ab[SKILLS[skill_id(n)]] + int(r) for n, r in skills.items()},
            "advantages": [Advantage.model_validate(a) for a in advantages],
            "attacks": [_attack(a, ab, skills) for a in attacks],
        })
    except ValidationError as e:
        raise ValueError("; ".join(
            f"{name}: {'.'.join(str(p) for p in err['loc']) or 'block'}: {describe(err)}"
            for err in e.errors())) from None


def block_problems(block: StatBlock) -> list[str]:
    """Every power-level cap the block breaks and its point budget overspent."""
    out = pl_problems(block)
    spent = points(block)
    total, limit = sum(spent.values()), budget(block.power_level)
    if total > limit:
        parts = ", ".join(f"{k} {v}" for k, v in spent.items())
        out.append(f"{block.name}: spends {total} power points ({parts}) > 15 x PL"
                   f" {block.power_level} = {limit}")
    return out


def problems(name: str, power_level: int, abilities: Mapping[str, int],
             defenses: Mapping[str, int] | None = None, skills: Mapping[str, int] | None = None,
             advantages: Sequence[str | Mapping[str, Any]] = (),
             attacks: Sequence[Mapping[str, Any] | Attack] = ()) -> list[str]:
    """Everything wrong with the build ``build`` would make: malformed fields, each power-level
    cap broken and the point budget overspent; empty when it is legal."""
    try:
        block = build(name, power_level, abilities, defenses, skills, advantages, attacks)
    except ValueError as e:
        return str(e).split("; ")
    return block_problems(block)


def derived(name: str, abilities: Mapping[str, int], power_level: int | None = None
            ) -> StatBlock:
    """The block of a hero made from abilities alone: each defense equals the ability it starts
    from, one unarmed close attack (Fighting bonus, Strength damage, at least rank 0), at
    ``power_level`` or else the lowest level of 10 or more whose caps it meets."""
    ab = {a: int(abilities.get(a, 0)) for a in ABILITIES}
    attack = {"name": UNARMED, "range": "close", "bonus": ab["fighting"],
              "rank": max(0, ab["strength"]), "notes": "Strength-based."}
    if power_level is None:
        pairs = (ab["agility"] + ab["stamina"], ab["fighting"] + ab["stamina"],
                 ab["stamina"] + ab["awareness"], ab["fighting"] + max(0, ab["strength"]))
        power_level = min(20, max(DEFAULT_PL, -(-max(pairs) // 2)))
    return build(name or "Hero", power_level, ab, attacks=[attack])


def load_hero_file(path: Path | str) -> StatBlock:
    """The one stat block in a YAML file (the block itself, or a ``characters:`` list of one),
    checked against its power level; ``ContentError`` naming the file and field otherwise."""
    path = Path(path)
    raw, found = read_hero_file(path)
    block, more = hero_file_problems(path, raw)
    found += more
    if block is None or found:
        raise ContentError("\n".join(found), found)
    return block


def read_hero_file(path: Path) -> tuple[dict[str, Any], list[str]]:
    """The one stat block of a hero file, as read, and the unknown keys beside its
    ``characters:`` list (each with where it belongs); ``ContentError`` when there is not one
    block."""
    raw = read_yaml(path)
    beside: list[str] = []
    if isinstance(raw, dict) and "characters" in raw:
        beside = [f"{path}: {k}: unknown key beside characters"
                  + (f": {hint}" if (hint := key_hint(str(k))) else "")
                  for k in raw if k != "characters"]
        listed = raw["characters"]
        if not isinstance(listed, list) or len(listed) != 1:
            n = len(listed) if isinstance(listed, list) else "no"
            raise ContentError(f"{path}: characters: a hero file holds exactly one block,"
                               f" not {n}")
        raw = listed[0]
    if not isinstance(raw, dict):
        raise ContentError(f"{path}: expected one stat block (a mapping with name, kind,"
                           " power_level, abilities, defenses ...)")
    return dict(raw), beside


def hero_file_problems(path: Path, raw: dict[str, Any],
                       skip: Collection[str] = ()) -> tuple[StatBlock | None, list[str]]:
    """The block of a hero file's mapping ``raw`` (None when it is malformed) and every
    problem, each naming the file, the hero and the key path in plain words: malformed keys
    (an unknown one with where it belongs), then every power-level cap it breaks. Problems
    with the abilities in ``skip`` are left out (the caller says them in the game's words).
    When only unknown keys and abilities out of bounds are wrong, the caps are checked too,
    on the block without those keys and with its abilities held to a stat block's bounds."""
    who = str(raw.get("name") or "the hero")
    try:
        block = StatBlock.model_validate(raw)
    except ValidationError as e:
        kept = [err for err in e.errors() if not (
            len(err["loc"]) > 1 and err["loc"][0] == "abilities" and str(err["loc"][1]) in skip)]
        found = [f"{path}: {who}: {'.'.join(str(p) for p in err['loc']) or '(the block)'}:"
                 f" {problem_words(err)}" for err in kept]
        extra = {str(err["loc"][0]) for err in kept
                 if err["type"] == "extra_forbidden" and len(err["loc"]) == 1}
        held_back = [err for err in kept if err["loc"][0] == "abilities"
                     and err["type"] in ("less_than_equal", "greater_than_equal")]
        if len(extra) + len(held_back) < len(kept):
            return None, found
        held = {k: max(-5, min(20, v)) if isinstance(v, int) else v
                for k, v in dict(raw.get("abilities") or {}).items()}
        try:
            repaired = StatBlock.model_validate(
                {**{k: v for k, v in raw.items() if k not in extra}, "abilities": held})
        except ValidationError:
            return None, found
        return None, found + [f"{path}: {p}" for p in pl_problems(repaired)]
    return block, [f"{path}: {p}" for p in pl_problems(block)]
