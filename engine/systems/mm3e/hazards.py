"""Environmental hazards as data, and the DC of their Nth check (RULES.md D.5).

Each hazard says what resists it, its first DC (fixed, or 10 + the hazard's rank), how the DC
grows, how often it is checked, how long one goes unharmed first, and what a failure does.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from engine.systems.mm3e.conditions import Condition

FILLED_IN = (
    "Hazard details the seed leaves out: disease and poison are checked once against 10 + rank"
    " (their later checks are those of the Affliction, Damage or Weaken effect, absent here);"
    " radiation's daily checks keep DC 10 + rank; falling damage is never below rank 0; the"
    " time one can hold one's breath is never below 0 rounds; after the fatigue ladder's dying"
    " there is no further step."
)
"""The rules of this module that the seed leaves out, filled in."""


class Unit(StrEnum):
    """A span of game time."""

    ROUND = "round"
    MINUTE = "minute"
    HOUR = "hour"
    DAY = "day"


SECONDS = {Unit.ROUND: 6, Unit.MINUTE: 60, Unit.HOUR: 3600, Unit.DAY: 86400}
"""Seconds in each unit (a round is about six seconds)."""


@dataclass(frozen=True, slots=True)
class Span:
    """An amount of game time."""

    amount: int
    unit: Unit

    @property
    def seconds(self) -> int:
        """The span in seconds."""
        return self.amount * SECONDS[self.unit]


class Growth(StrEnum):
    """What raises a hazard's DC."""

    NONE = "none"
    PER_CHECK = "per_previous_check"
    PER_SUCCESS = "per_previous_success"
    PER_ROUND = "per_round"


@dataclass(frozen=True, slots=True)
class Hazard:
    """One environmental hazard."""

    id: str
    resist: str
    base_dc: int | None
    growth: Growth
    interval: Span | None
    grace: Span | None = None
    ranked: bool = False
    on_failure: str = ""
    immunity: str = ""

    def dc(self, n: int, rank: int = 0) -> int:
        """The DC of the ``n``th check (1 = the first)."""
        return dc_of_check(self, n, rank)


FATIGUE_LADDER: tuple[Condition | None, ...] = (
    None, Condition.FATIGUED, Condition.EXHAUSTED, Condition.INCAPACITATED, Condition.DYING)
"""Failed checks against heat, cold, thirst and starvation walk this ladder one step each."""

_H = Hazard
HAZARDS: dict[str, Hazard] = {h.id: h for h in (
    _H("heat_cold_uncomfortable", "fortitude", 10, Growth.PER_CHECK, Span(1, Unit.HOUR),
       on_failure="fatigue ladder", immunity="heat or cold"),
    _H("heat_cold_intense", "fortitude", 10, Growth.PER_CHECK, Span(10, Unit.MINUTE),
       on_failure="fatigue ladder", immunity="heat or cold"),
    _H("heat_cold_extreme", "fortitude", 10, Growth.PER_CHECK, Span(1, Unit.MINUTE),
       on_failure="fatigue ladder", immunity="heat or cold"),
    _H("thirst", "fortitude", 10, Growth.PER_CHECK, Span(1, Unit.HOUR), Span(1, Unit.DAY),
       on_failure="fatigue ladder; no recovery until watered", immunity="starvation"),
    _H("starvation", "fortitude", 10, Growth.PER_CHECK, Span(1, Unit.DAY), Span(3, Unit.DAY),
       on_failure="fatigue ladder; no recovery until fed", immunity="starvation"),
    _H("suffocation", "fortitude", 10, Growth.PER_SUCCESS, Span(1, Unit.ROUND),
       on_failure="incapacitated, dying the next round; no stabilizing until able to breathe",
       immunity="suffocation"),
    _H("vacuum_bends", "fortitude", 20, Growth.NONE, Span(1, Unit.ROUND), Span(2, Unit.ROUND),
       on_failure="stunned until back at normal pressure; 2+ degrees incapacitated",
       immunity="vacuum"),
    _H("vacuum_breath", "fortitude", 15, Growth.PER_ROUND, Span(1, Unit.ROUND),
       on_failure="incapacitated next round, dying the round after; each success costs 1"
       " Stamina rank", immunity="suffocation"),
    _H("disease", "fortitude", None, Growth.NONE, None, ranked=True,
       on_failure="infected (an Affliction or Weaken effect)", immunity="disease"),
    _H("poison", "fortitude", None, Growth.NONE, None, ranked=True,
       on_failure="an Affliction, Damage or Weaken effect", immunity="poison"),
    _H("radiation", "fortitude", None, Growth.NONE, Span(1, Unit.DAY), ranked=True,
       on_failure="usually Weaken Stamina", immunity="radiation"),
    _H("fire", "toughness", None, Growth.NONE, None, ranked=True,
       on_failure="Damage of the fire's rank (DC 15 + rank)"),
    _H("falling", "toughness", None, Growth.NONE, None, ranked=True,
       on_failure="Damage 4 + 2 x distance rank, at most 16"),
    _H("darkness", "", None, Growth.NONE, None,
       on_failure="poor light gives concealment; senses that counter darkness ignore it"),
)}
"""Every hazard by id (the rank of disease, poison, radiation, fire and falling is given)."""

FIRE_RANKS = {1: "torch", 2: "campfire", 4: "blowtorch", 6: "flamethrower",
              8: "burning jet fuel, napalm", 10: "chemical accelerants, fire powers (10+)"}
POISON_RANKS = {1: "food poisoning", 2: "alcohol", 3: "pesticides", 4: "chloroform",
                7: "cobra venom", 8: "mustard gas", 9: "poisonous mushrooms",
                11: "chlorine gas", 13: "curare", 14: "cyanide", 15: "nerve gas",
                16: "alien or super-science toxins (16+)"}
DISEASE_RANKS = {1: "common cold (1-2)", 3: "influenza (3-5)", 4: "malaria", 6: "typhoid",
                 7: "rabies", 8: "leprosy", 10: "AIDS", 11: "smallpox",
                 12: "bubonic plague (12-14)", 15: "Ebola",
                 16: "engineered super-viruses (16+)"}
RADIATION_RANKS = {1: "lingering irradiation", 2: "fallout (2-5)", 4: "radioactive materials",
                   6: "stellar radiation", 7: "nuclear reactor", 8: "nuclear blast"}
"""Sample ranks from the seed's tables."""

FALLING_BASE = 4
FALLING_PER_DISTANCE_RANK = 2
FALLING_MAX = 16
CATCH_DC = 5
"""Falling: rank 4 + 2 x distance rank, at most 16; catching: Dexterity DC 5."""

BREATH_BASE_ROUNDS = 10
BENDS_FROM_ROUND = 3
STAMINA_LOST_PER_VACUUM_SUCCESS = 1
DEATH_STAMINA = -5
"""Holding breath lasts 10 + 2 x Stamina rounds; the bends start on the 3rd round in vacuum;
below Stamina -5 a disease or radiation kills."""


def dc_of_check(hazard: Hazard, n: int, rank: int = 0) -> int:
    """The DC of the ``n``th check (1 = the first) against ``hazard`` (``rank``: disease,
    poison, radiation). Suffocation grows per previous success: the checks before the ``n``th
    were all successes, or the character would already be incapacitated."""
    if n < 1:
        raise ValueError(f"checks are counted from 1, got {n}")
    if hazard.ranked:
        if hazard.resist == "toughness":
            return 15 + rank
        return 10 + rank
    if hazard.base_dc is None:
        raise ValueError(f"{hazard.id} has no check")
    return hazard.base_dc + (0 if hazard.growth is Growth.NONE else n - 1)


def fatigue_after_failure(level: Condition | None) -> Condition | None:
    """The next step of the fatigue ladder (dying stays dying)."""
    i = FATIGUE_LADDER.index(level)
    return FATIGUE_LADDER[min(i + 1, len(FATIGUE_LADDER) - 1)]


def falling_rank(distance_rank: int) -> int:
    """A fall's damage rank: 4 + 2 x the distance rank fallen, between 0 and 16."""
    return max(0, min(FALLING_MAX, FALLING_BASE + FALLING_PER_DISTANCE_RANK * distance_rank))


def caught_rank(fall_rank: int, catcher_strength: int) -> int:
    """The damage both the catcher and the caught resist: the fall's rank less the catcher's
    Strength (or power) rank."""
    return max(0, fall_rank - catcher_strength)


def breath_rounds(stamina: int) -> int:
    """Rounds one can hold one's breath before suffocation checks: 10 + 2 x Stamina."""
    return max(0, BREATH_BASE_ROUNDS + 2 * stamina)


def bends_check_due(round_in_vacuum: int) -> bool:
    """Whether the bends are checked this round of exposure (from the third on)."""
    return round_in_vacuum >= BENDS_FROM_ROUND


def bends_result(degree: int) -> Condition | None:
    """A bends check: stunned on a failure, incapacitated on 2+ degrees of failure."""
    if degree > 0:
        return None
    return Condition.STUNNED if degree == -1 else Condition.INCAPACITATED
