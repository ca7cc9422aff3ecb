"""Typed models of a content pack: a game system as data.

A pack is a folder with ``system.yaml`` (stats, conditions, tracks, dice, bands, heroes),
``moves.yaml`` (the moves), and optionally ``gm.yaml`` (GM moves) and ``tables.yaml``
(oracle and scene tables). Every model forbids unknown keys, so a typo is an error, not a
silently ignored setting. The README documents the format with examples.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, RootModel, field_validator

from engine.content.problems import ID_PATTERN

Id = Annotated[str, Field(pattern=ID_PATTERN, description="A stable snake_case id.")]
Who = Literal["self", "target"]

Stance = Literal["hostile", "wary", "neutral", "warm", "devoted"]
"""How an NPC stands toward a hero, worst to best."""
STANCES: tuple[Stance, ...] = ("hostile", "wary", "neutral", "warm", "devoted")


class Model(BaseModel):
    """Base of every content model: strict keys, immutable."""

    model_config = ConfigDict(extra="forbid", frozen=True)


# --------------------------------------------------------------------------- effects


class MarkCondition(Model):
    """Mark a condition; with no ``condition`` the player chooses a free one."""

    type: Literal["mark_condition"]
    condition: Id | None = None
    who: Who = "self"


class ClearCondition(Model):
    """Clear a condition; with no ``condition`` the player chooses a marked one."""

    type: Literal["clear_condition"]
    condition: Id | None = None
    who: Who = "self"


class ShiftLabels(Model):
    """Shift one stat up and another down by one; unset ids are chosen by the player."""

    type: Literal["shift_labels"]
    up: Id | None = None
    down: Id | None = None
    who: Who = "self"


class ShiftLabel(Model):
    """Shift one stat by ``by`` (the rules module handles shifts past a bound)."""

    type: Literal["shift_label"]
    stat: Id | None = None
    by: int = 1
    who: Who = "self"

    @field_validator("by")
    @classmethod
    def _moves(cls, value: int) -> int:
        if value == 0:
            raise ValueError("a shift of 0 changes nothing: use 1 (up) or -1 (down)")
        return value


class TakeInfluence(Model):
    """The hero gains Influence over the move's target."""

    type: Literal["take_influence"]


class GiveInfluence(Model):
    """The hero gives Influence over themselves to the target (or a chosen character)."""

    type: Literal["give_influence"]
    choose: bool = False


class CancelInfluence(Model):
    """Remove the target's (or a chosen character's) Influence over the hero."""

    type: Literal["cancel_influence"]
    choose: bool = False


class TrackDelta(Model):
    """Add ``delta`` to a track or pool (Team, potential, Heat, ...), clamped to its bounds."""

    type: Literal["track"]
    track: Id
    delta: int


class Hold(Model):
    """Gain hold on the current move, spent one for one; expires at the end of ``expires``."""

    type: Literal["hold"]
    amount: int = Field(ge=1)
    expires: Literal["scene", "session"] = "scene"


class Bonus(Model):
    """+N forward (next matching roll) or ongoing (every matching roll until it expires)."""

    type: Literal["forward", "ongoing"]
    amount: int = 1
    moves: list[Id] = Field(default_factory=list, description="Moves it applies to; empty = any.")
    against_target: bool = Field(False, description="Only on rolls targeting this move's target.")
    expires: Literal["roll", "scene", "session"] = "scene"
    reason: str = ""
    who: Literal["self", "target"] = Field(
        "self", description="Whose rolls it changes: yours, or the target's (a teammate's).")


class Ask(Model):
    """Ask ``count`` questions from the move's question list."""

    type: Literal["ask"]
    count: int = Field(ge=1)


class GMMove(Model):
    """The GM makes a move: hard after a miss, soft when the player looks to the GM."""

    type: Literal["gm_move"]
    kind: Literal["hard", "soft"] = "hard"
    text: str = Field("", description="What the move asks the GM to say (\"how you were"
                      " diverted\"): the GM's line opens with it, as the answer.")
    fits: list[Id] = Field(default_factory=list, description="Kinds of action the GM move"
                           " must answer (GM moves' ``fits``: rumor, powers...), instead of"
                           " the move's own.")


class TriggerMove(Model):
    """Another move triggers now (for example, take a powerful blow)."""

    type: Literal["trigger_move"]
    move: Id


class TakenOut(Model):
    """The character is taken out of the scene."""

    type: Literal["taken_out"]


class LockLabel(Model):
    """Lock a stat permanently; with no ``stat`` the player chooses."""

    type: Literal["lock_label"]
    stat: Id | None = None


class Flag(Model):
    """Set a hero flag (for example ``moment_of_truth_unlocked``)."""

    type: Literal["flag"]
    flag: Id
    value: bool = True


class Advance(Model):
    """Take an advancement from the system's list."""

    type: Literal["advance"]


class Clock(Model):
    """Move a threat's clock by ``delta`` (with no ``threat``, the most pressing active one)."""

    type: Literal["clock"]
    threat: Id | None = None
    delta: int = 1


class StanceEffect(Model):
    """Change how the target (a move's target, the NPC a GM move is about) stands toward the
    acting hero: to ``stance``, or ``by`` steps along the scale (hostile, wary, neutral, warm,
    devoted; -1 is one step colder). No target: nothing changes."""

    type: Literal["stance"]
    stance: Stance | None = None
    by: int = 0
    reason: str = ""


class Note(Model):
    """A reminder with no mechanical effect, shown in the journal."""

    type: Literal["note"]
    text: str


class OpenThread(Model):
    """Open a story thread in the ledger; ``text`` may use the GM's names ({npc}, {teammate},
    {villain}, {hero}, {location}, {threat}...). Nothing happens if the same thread is open."""

    type: Literal["thread"]
    text: str = Field(min_length=1)
    note: str = ""


class RecordFact(Model):
    """Record a fact in the ledger (words as ``thread``), about the NPC the move is about
    and/or the hero (``about``)."""

    type: Literal["fact"]
    text: str = Field(min_length=1)
    about: list[Literal["npc", "hero"]] = Field(default_factory=lambda: _about_npc())


def _about_npc() -> list[Literal["npc", "hero"]]:
    return ["npc"]


class Whereabouts(Model):
    """Note where the NPC the move is about (its target) now is, in words ("" unknown)."""

    type: Literal["whereabouts"]
    text: str = ""


class OneOf(Model):
    """The player picks one of these options, each with its own effects."""

    type: Literal["one_of"]
    options: list[Option] = Field(min_length=2)
    for_gm: bool = Field(False, description="The player picks standing in for the GM: a"
                         " 'GM, you choose' option lets the GM pick (seeded).")


class Rule(Model):
    """A mechanic only the system's rules module understands, by name, with arguments."""

    type: Literal["rule"]
    name: Id
    args: dict[str, str | int | bool | None] = Field(default_factory=dict)


Effect = Annotated[
    MarkCondition
    | ClearCondition
    | ShiftLabels
    | ShiftLabel
    | TakeInfluence
    | GiveInfluence
    | CancelInfluence
    | TrackDelta
    | Hold
    | Bonus
    | Ask
    | GMMove
    | TriggerMove
    | TakenOut
    | LockLabel
    | Flag
    | Advance
    | Clock
    | StanceEffect
    | Note
    | OpenThread
    | RecordFact
    | Whereabouts
    | OneOf
    | Rule,
    Field(discriminator="type"),
]


class Option(Model):
    """One choice in a "choose N" list, or one branch of a ``one_of`` effect."""

    id: Id
    text: str
    effects: list[Effect] = Field(default_factory=list)
    requires_target: bool = False
    min_advances: int = Field(
        0, ge=0, description="Advancements only: offered once this many were already taken.")


OneOf.model_rebuild()


# --------------------------------------------------------------------------- moves


class Choose(Model):
    """A "choose N" list: exactly N, or up to N when ``up_to`` is true."""

    count: int = Field(ge=1)
    up_to: bool = False
    options: list[Option] = Field(min_length=1)
    prompt: str = ""
    repeat: bool = Field(False, description="An option may be picked more than once.")
    for_gm: bool = Field(False, description="The player picks standing in for the GM: when"
                         " one is picked, a 'GM, you choose' option lets the GM pick (seeded).")


class Outcome(Model):
    """What one result band of a move does."""

    text: str
    effects: list[Effect] = Field(default_factory=list)
    choose: Choose | None = None


class RollParam(Model):
    """A number the player (standing in for the GM) sets before a roll, e.g. a complexity.

    A roll adds it when its stat (or one of its choices) is ``param:<id>``; the ruleset may
    also read it (``state.flow.params``).
    """

    id: Id
    name: str
    min: int = 0
    max: int = 10
    default: int = 0
    help: str = ""
    names: dict[int, str] = Field(
        default_factory=dict,
        description="Named values (e.g. 15: tough) offered as a short list; any other value"
        " in range is typed in.")


class RollSpec(Model):
    """How a move rolls. ``stat`` is a stat id, ``conditions_marked``, ``choice``, ``none``,
    ``param:<id>``, or a roll source the system's ruleset provides (``roll_sources``)."""

    stat: str = "none"
    choices: list[Id] = Field(default_factory=list, description="Stats offered when stat=choice.")
    dice: str | None = Field(None, description="Dice notation; defaults to the system's dice.")
    bands: Id = Field("default", description="Which band set of the system to use.")
    inverted: bool = Field(False, description="High totals are bad (shown to the player).")
    advantage: Literal["none", "optional", "always"] = "none"
    params: list[RollParam] = Field(default_factory=list)
    modifiers: dict[str, int] = Field(
        default_factory=dict, description="Fixed modifiers by source name."
    )


MAX_WORD = 40
"""The longest word (a run of letters and digits) that move detection reads from content."""
MAX_PHRASE = 2_000
"""The longest name, trigger, cue or example line move detection reads from content."""

_WORD = re.compile(r"\w+")


def _words_fit(text: str) -> str:
    """``text`` if move detection can read it: no word longer than ``MAX_WORD``."""
    longest = max((m.group() for m in _WORD.finditer(text)), key=len, default="")
    if len(longest) > MAX_WORD:
        raise ValueError(f"a word of {len(longest):,} characters ({longest[:20]}...); move"
                         f" detection reads words of at most {MAX_WORD}")
    return text


Phrase = Annotated[str, Field(max_length=MAX_PHRASE), AfterValidator(_words_fit)]
"""Text that move detection learns from: a move's name, trigger, cues and examples, a fight
action's words."""


class Move(Model):
    """A move: a fictional trigger, detection cues, a roll and outcomes by band."""

    id: Id
    name: Phrase
    category: Id = "basic"
    trigger: Phrase = Field(description="When the move triggers, in our own words.")
    cues: list[Phrase] = Field(default_factory=list,
                               description="Words and phrases that suggest it.")
    examples: list[Phrase] = Field(
        default_factory=list, description="Fiction a player might type when the move triggers,"
        " in our own words; move detection learns from them (with ``examples.yaml``).")
    roll: RollSpec | None = None
    target: Literal["none", "optional", "required"] = "none"
    target_roles: list[Id] = Field(default_factory=list, description="Roles a target may have.")
    target_when: list[Id] = Field(
        default_factory=list, description="Only characters for whom all of these tests (named by"
        " the ruleset, e.g. Masks's hero_has_influence) hold are targets.")
    meets: Id | None = Field(
        None, description="The move meets someone new, who joins the cast with this role (one"
        " of the system's roles) and is its target: a target named who is not in the story, or"
        " (no target named) the first name in the fiction of no one in the story, else the"
        " person the fiction describes ('the new harbormaster').")
    before: list[Effect] = Field(
        default_factory=list, description="Effects applied before rolling."
    )
    outcomes: dict[Id, Outcome] = Field(default_factory=dict)
    vs_teammate: dict[Id, Outcome] = Field(
        default_factory=dict, description="Outcomes used instead when the target is a teammate."
    )
    vs_teammate_optional: bool = Field(
        False, description="The player may declare before the roll that a teammate target is"
        " the one they protect, not the one they stand against: the usual outcomes apply.")
    result: Outcome | None = Field(None, description="The outcome of a move with no roll.")
    questions: list[str] = Field(default_factory=list)
    requires_flag: Id | None = Field(None, description="Hero flag needed to use the move.")
    once_per: Literal["scene", "session"] | None = None
    hidden: bool = Field(False, description="Not suggested from fiction; reached by other moves.")
    penalised_by_note: str = ""
    miss_gm: list[Id] = Field(
        default_factory=list, description="GM moves a miss on this move calls for first (by"
        " id, in gm.yaml), when their preconditions hold.")


# --------------------------------------------------------------------------- system


class StatDef(Model):
    """A stat (a Masks label, a City of Whispers attribute, an ability)."""

    id: Id
    name: str
    min: int
    max: int
    description: str = ""


class ConditionDef(Model):
    """A condition: the moves it penalises (by id) and how it clears."""

    id: Id
    name: str
    penalty: int = -2
    penalises: list[Id] = Field(default_factory=list)
    clear_by: str = ""
    clear_cues: list[str] = Field(default_factory=list)
    """Words (lemmas) of fiction that takes the clearing action: the engine offers it."""
    description: str = ""


class TrackDef(Model):
    """A counter with bounds: per hero (potential, Heat) or per campaign (Team)."""

    id: Id
    name: str
    min: int = 0
    max: int | None = None
    start: int = 0
    scope: Literal["hero", "campaign"] = "hero"
    description: str = ""
    on_full: list[Effect] = Field(default_factory=list, description="Applied when it fills.")
    reset_on_full: bool = False


class Band(Model):
    """A result band: totals from ``min`` to ``max`` inclusive (None = unbounded)."""

    id: Id
    name: str
    min: int | None = None
    max: int | None = None
    tone: Literal["good", "mixed", "bad"] = "mixed"


class Archetype(Model):
    """A ready-made hero: a name, a pitch and a stat line."""

    id: Id
    name: str
    pitch: str
    stats: dict[Id, int]
    flags: list[Id] = Field(default_factory=list)
    suggested_npcs: list[SuggestedNPC] = Field(default_factory=list)
    data: dict[str, Any] = Field(
        default_factory=dict, description="Starting system state the ruleset reads.")


class SuggestedNPC(Model):
    """An NPC a new campaign may start with."""

    name: str
    role: Id
    note: str = ""


Archetype.model_rebuild()


class HeroRules(Model):
    """What a custom hero build must satisfy."""

    stat_total: int | None = Field(None, description="Required sum of starting stats.")
    stat_min: int | None = None
    stat_max: int | None = None
    start_flags: list[Id] = Field(default_factory=list)


class SessionRules(Model):
    """What happens at the start and end of a session, and when time passes."""

    start_effects: list[Effect] = Field(default_factory=list)
    end_move: Id | None = None


class System(Model):
    """The ``system.yaml`` of a pack."""

    id: str = Field(pattern=r"^[a-z][a-z0-9_-]*$",
                    description="The system id, the same as the pack's folder name.")
    name: str
    ruleset: Id
    version: str = "1"
    description: str = ""
    gm_title: str = "GM"
    dice: str = "2d6"
    modifier_clamp: tuple[int, int] | None = None
    bands: dict[Id, list[Band]]
    stats: list[StatDef]
    stat_label: str = "Stats"
    roll_sources: list[Id] = Field(
        default_factory=list, description="Extra roll sources the ruleset computes (minus_heat)."
    )
    conditions: list[ConditionDef] = Field(default_factory=list)
    tracks: list[TrackDef] = Field(default_factory=list)
    roles: list[Id] = Field(default_factory=lambda: ["teammate", "adult", "villain", "bystander"])
    hero: HeroRules = Field(default_factory=HeroRules)
    archetypes: list[Archetype] = Field(default_factory=list)
    session: SessionRules = Field(default_factory=SessionRules)
    advancements: list[Option] = Field(default_factory=list)
    rules_notes: list[str] = Field(default_factory=list, description="Gaps we filled, shown.")
    data: dict[str, Any] = Field(
        default_factory=dict, description="System-specific settings the ruleset reads.")


# --------------------------------------------------------------------------- GM and tables


class GMMoveDef(Model):
    """A GM move: when it fits, how it reads, what it does."""

    id: Id
    name: str
    kind: Literal["hard", "soft", "both"] = "both"
    description: str = ""
    when: list[str] = Field(default_factory=list, description="Preconditions, by name.")
    weight: int = Field(10, ge=1)
    narration: list[str] = Field(min_length=1, description="Templates with {hero}, {npc}, ...")
    effects: list[Effect] = Field(default_factory=list)
    fits: list[Id] = Field(
        default_factory=list, description="Kinds of action this GM move answers when one fails"
        " (violence, powers, protection, pressure, support, reading, perception, movement,"
        " stealth, risk); the GM prefers a fitting move after a miss. Empty: fits any.")


class NarrationParts(Model):
    """A GM move's narration built from parts: one opener, one act and one stake, joined.

    Empty strings are allowed in ``open`` and ``stake`` (no opener, no stake). Every
    combination must read as a line; the GM avoids combinations it used recently."""

    open: list[str] = Field(default_factory=lambda: [""], min_length=1,
                            description="Openers: a lead-in, an address, or nothing.")
    act: list[str] = Field(min_length=1, description="What happens, the heart of the line.")
    stake: list[str] = Field(default_factory=lambda: [""], min_length=1,
                             description="What it means or costs: a closing sentence, or"
                                         " nothing.")


class ThreatWords(Model):
    """How a threat reads inside a sentence (``{threat}``)."""

    named: str = Field("", description="With its villain: \"{villain}'s takeover\".")
    plain: str = Field(description="With no one named behind it: \"the takeover\".")


class NarrationPack(Model):
    """The ``narration.yaml`` of a pack: GM move id -> parts, threat id -> words."""

    moves: dict[str, NarrationParts] = Field(default_factory=dict)
    threats: dict[str, ThreatWords] = Field(default_factory=dict)


ExampleLine = Annotated[str, Field(min_length=1, max_length=500), AfterValidator(_words_fit)]


class ExamplesPack(RootModel[dict[Id, list[ExampleLine]]]):
    """The ``examples.yaml`` of a pack: move id -> example fictions; ``none``: plain fiction
    that triggers no move. Move detection learns what each move sounds like from them."""

    model_config = ConfigDict(frozen=True)


class TableEntry(Model):
    """One row of a table; ``weight`` makes it more likely; ``effects`` apply when drawn."""

    text: str
    weight: int = Field(1, ge=1)
    effects: list[Effect] = Field(default_factory=list)


class Table(Model):
    """A random table: oracle words, places, complications, scene openings."""

    id: Id
    name: str
    entries: list[TableEntry] = Field(min_length=1)


class ThreatDef(Model):
    """A threat template: a villain or danger with a clock of escalating steps and a doom."""

    id: Id
    name: str
    kind: Literal["villain", "danger", "disaster", "rival", "mystery"] = "villain"
    description: str = ""
    size: int = Field(6, ge=1, le=12, description="Clock segments; the doom strikes when full.")
    steps: list[str] = Field(default_factory=list, description="What each segment brings.")
    doom: str
    doom_effects: list[Effect] = Field(default_factory=list)
    ignored_after: int = Field(
        1, ge=1, description="Scenes in a row left alone (its NPC absent, or nobody acting"
        " against it) that advance its clock one segment at the scene's end.")
    drives: list[str] = Field(
        default_factory=list, description="Words of a villain's name or note that call for"
        " this threat (its drive: 'relic', 'revenge', 'greed'...); a villain whose words match"
        " no template's drives may get any but those given by drive only.")
    by_drive_only: bool = Field(
        False, description="Given only to a villain whose words name one of its drives (a"
        " relic hunt is no villain's threat by chance).")


class OracleLevel(Model):
    """A likelihood for yes/no questions: the chance of yes out of 100."""

    id: Id
    name: str
    chance: int = Field(ge=1, le=99)


class GMPack(Model):
    """The ``gm.yaml`` of a pack."""

    moves: list[GMMoveDef] = Field(default_factory=list)
    threats: list[ThreatDef] = Field(default_factory=list)
    oracle: list[OracleLevel] = Field(default_factory=list)
    random_events: list[TableEntry] = Field(
        default_factory=list, description="What a random event focuses on."
    )
    stances: dict[Id, Stance] = Field(
        default_factory=dict, description="Each role's stance toward the heroes when an NPC of"
        " that role is introduced (role id -> stance); unlisted roles: neutral.")
    action_kinds: dict[Id, list[Id]] = Field(
        default_factory=dict, description="The kinds of action each player move is (move id ->"
        " kinds, as GM moves' ``fits`` names them); the fiction line's own reading adds its"
        " kinds.")


class TablesPack(Model):
    """The ``tables.yaml`` of a pack."""

    tables: list[Table] = Field(default_factory=list)


class MovesPack(Model):
    """The ``moves.yaml`` of a pack."""

    moves: list[Move] = Field(min_length=1)
