"""The typed seams of the rules core: flow queue items, effect contexts, roll dicts, modifiers
and prompts.

These are the plain JSON shapes the flow keeps in the state (``Flow.queue``, ``Flow.roll``,
``Flow.prompt``, ``Flow.extras``) and the saves hold, typed for mypy only: the values stay
ordinary dicts and lists, so saves and event dicts keep their shape. A queue item is one of

- ``{"effect": {...}, "ctx": {...}}``: an effect (``EffectItem``);
- ``{"choose": {"move", "key", ...}, "ctx": {...}}``: a "choose N" list (``ChooseItem``);
- ``{"emit": {...}}``: an event's dict form, ready to apply (``EmitItem``);
- ``{"trigger": move, "ctx": {...}}``: a move that starts when the rest is done
  (``TriggerItem``);
- ``{"roll_stage": {"move", "target", "fiction"}}``: the roll waits here (``RollStageItem``).

Each item type is ``@final`` so that ``"emit" in item`` narrows the ``Item`` union.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NotRequired, TypedDict, final

Modifier = list[str | int | None]
"""A roll modifier in its saved form, the JSON list ``[source, amount, bonus id or None]``
(the bonus a roll uses up). Modifiers added before a roll may have only
``[source, amount]``: read them with ``mod_source``, ``mod_amount`` and ``mod_bonus``."""


def modifier(source: str, amount: int, bonus: int | None = None) -> Modifier:
    """A modifier in its saved form."""
    return [source, amount, bonus]


def mod_source(m: Sequence[object]) -> str:
    """Where modifier ``m`` comes from (a label, a condition, "Team", ...)."""
    return str(m[0])


def mod_amount(m: Sequence[object]) -> int:
    """The amount modifier ``m`` adds."""
    amount = m[1]
    if isinstance(amount, int | float | str):
        return int(amount)
    raise TypeError(f"a modifier's amount must be a whole number, not {amount!r}")


def mod_bonus(m: Sequence[object]) -> int | None:
    """The id of the bonus modifier ``m`` uses up when rolled, or None."""
    bonus = m[2] if len(m) > 2 else None
    if bonus is None or isinstance(bonus, int):
        return bonus
    raise TypeError(f"a modifier's bonus id must be a whole number, not {bonus!r}")


class GMSaid(TypedDict):
    """The GM move an effect comes from, for the dialog that asks about it."""

    move: str
    name: str
    kind: str
    text: str


class EffectContext(TypedDict, total=False):
    """What an effect knows of where it comes from. Every key is optional."""

    move: str
    """The move whose outcome (or before-the-roll effects) this is."""
    target: str | None
    """The actor id the move targets (None: no one)."""
    band: str
    """The band reached (``choose_from_band`` sets the band it offers)."""
    source: str
    """Why, in words, for events' reasons ("Provoke: they back down", "GM: Inflict")."""
    fiction: str
    """The player's words for the move (rule effects may read a belief, a name...)."""
    npc: str | None
    """The NPC a GM move is about."""
    gm: GMSaid
    """The GM move this effect is part of."""
    names: dict[str, str]
    """The names the GM move's narration used ({npc}, {teammate}, {location}...), for the
    words of ledger effects (``thread``, ``fact``)."""
    asks: str
    """What the move asks the GM to say ("how you were diverted"), for a ``gm_move`` effect
    with a ``text``: the GM's line answers it."""
    fits: list[str]
    """The kinds of action a ``gm_move`` effect's GM move must answer (its ``fits``)."""


class ChooseSpec(TypedDict):
    """A "choose N" list: the options of ``move``'s outcome at ``key``."""

    move: str
    key: str
    """Which outcome: "outcomes.weak_hit", "vs_teammate.miss" or "result"."""
    count: NotRequired[int]
    """How many to choose (by default the outcome's own count)."""
    exclude: NotRequired[list[str]]
    """Option ids not on offer."""


class RollStage(TypedDict):
    """Where a move waits for its roll after its effects before the dice."""

    move: str
    target: NotRequired[str | None]
    fiction: NotRequired[str]


@final
class EffectItem(TypedDict):
    """An effect to apply: its dict form (as content writes it) and its context."""

    effect: dict[str, Any]
    ctx: NotRequired[EffectContext]


@final
class ChooseItem(TypedDict):
    """A "choose N" list to offer."""

    choose: ChooseSpec
    ctx: NotRequired[EffectContext]


@final
class EmitItem(TypedDict):
    """An event's dict form, applied when reached."""

    emit: dict[str, Any]


@final
class TriggerItem(TypedDict):
    """A move (by id) that starts once the rest of the queue is done."""

    trigger: str
    ctx: EffectContext


@final
class RollStageItem(TypedDict):
    """The move's roll: the flow stops here and waits for the dice."""

    roll_stage: RollStage


class MoveAs(TypedDict):
    """A move (by id) taken by a hero of the party (by id)."""

    move: str
    hero: str


@final
class MoveAsItem(TypedDict):
    """A hero's turn at a move, started when reached (each hero's end of session)."""

    move_as: MoveAs


class AnswerOffer(TypedDict):
    """An answer the GM offers to a question: its words, and how it was drawn."""

    text: str
    drawn: str
    """How: "meaning: betray + a mentor (quietly); present: Dusk Meridian"."""


class AnswerSpec(TypedDict):
    """A question a move let the player ask, waiting for its answer (engine/gm/answers.py)."""

    move: str
    question: str
    draw: int
    """Which draw this is: 0 the first offer, one more for each "another"."""
    offer: NotRequired[AnswerOffer]
    """The GM's offer, once drawn (kept so a save resumes with the same offer)."""
    seen: NotRequired[list[str]]
    """The offers already turned down: another draw differs from them."""


@final
class AnswerItem(TypedDict):
    """A question to answer: the GM offers, the player accepts, asks another or writes."""

    answer: AnswerSpec
    ctx: NotRequired[EffectContext]


Item = (EffectItem | ChooseItem | EmitItem | TriggerItem | RollStageItem | AnswerItem
        | MoveAsItem)
"""A unit of pending work in the flow queue."""


def answer_item(move: str, question: str, ctx: EffectContext) -> AnswerItem:
    """A question asked from ``move``, waiting for the GM's offer (its first draw)."""
    return {"answer": {"move": move, "question": question, "draw": 0}, "ctx": ctx}


def item_ctx(item: Item) -> EffectContext:
    """``item``'s effect context (empty when it has none)."""
    if "emit" in item or "roll_stage" in item or "move_as" in item:
        return {}
    return item.get("ctx", {})


RollOverride = TypedDict("RollOverride", {"from": str, "why": str})
"""The dice set a roll's band: ``from`` the band the total gave, and ``why``."""


class BandDict(TypedDict):
    """A band as a roll and a preview carry it."""

    id: str
    name: str
    min: int | None
    max: int | None
    tone: str


class RollDict(TypedDict):
    """A roll as the flow and the adjust stage carry it: the ``Rolled`` event's dict form
    (as ``resolve.reband`` updates it). Keys later versions added may be missing from older
    saves; ``bands`` and ``override`` are written only when set, ``actor`` when it is not
    "hero"; ``what``, ``against``, ``against_name`` and ``degree`` are a fight's roll's."""

    type: NotRequired[str]
    move: str
    stat: str
    dice: str
    faces: list[int]
    kept: list[int]
    dropped: list[int]
    modifiers: list[Modifier]
    raw_modifier: int
    modifier: int
    clamp: NotRequired[list[int] | None]
    total: int
    band: str
    band_name: str
    odds: dict[str, str]
    entered: NotRequired[bool]
    position: NotRequired[int]
    inverted: NotRequired[bool]
    tone: NotRequired[str]
    bands: NotRequired[list[BandDict] | None]
    override: NotRequired[RollOverride | None]
    actor: NotRequired[str]
    what: NotRequired[str]
    against: NotRequired[int | None]
    against_name: NotRequired[str]
    degree: NotRequired[int]


class PromptDict(TypedDict):
    """A prompt as the flow stores it (``Need.to_prompt``): what to pick, how many, and the
    queue item the answer resolves; ``context`` says what the GM said."""

    kind: str
    message: str
    options: list[dict[str, Any]]
    min: int
    max: int
    item: Item
    context: NotRequired[dict[str, Any]]
