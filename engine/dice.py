"""Dice: notation, rolls that keep every face, seeded and player-entered sources.

The seeded source is counter based: die number ``n`` of a campaign is a hash of the seed and
``n``. Its whole state is one integer (the position), saved with the campaign, so resuming and
undo restore the dice exactly, and the stream is the same on every Python version.

How a seed and a position become faces is the *stream*, and it is part of the save format:
saves, resume, undo and replay all rely on it never changing. A campaign records the stream it
rolls (``CampaignState.dice_stream``; a save without one rolls stream 1). To change the stream,
add a new version to ``_STREAMS`` and make it ``STREAM_VERSION``: new campaigns roll the new
stream, old saves keep rolling theirs, and a save naming a stream this version does not know is
refused with a clear error. ``tests/unit/test_dice_golden.py`` pins every stream's faces.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal, Protocol

from engine.errors import IllegalAction

_NOTATION = re.compile(r"^\s*(\d*)d(\d+)(?:k([hl])(\d+))?\s*$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class DiceSpec:
    """``count`` dice of ``sides`` sides, optionally keeping the ``keep`` highest or lowest."""

    count: int
    sides: int
    keep: int | None = None
    keep_high: bool = True

    @classmethod
    def parse(cls, notation: str) -> DiceSpec:
        """Parse ``2d6``, ``d20``, ``3d6kh2`` (keep 2 highest) or ``3d6kl2`` (keep 2 lowest)."""
        m = _NOTATION.match(notation)
        if not m:
            raise ValueError(f"bad dice notation {notation!r}: expected like 2d6, d20 or 3d6kh2")
        count = int(m.group(1) or 1)
        sides = int(m.group(2))
        keep = int(m.group(4)) if m.group(4) else None
        if not 1 <= count <= 20 or not 2 <= sides <= 1000:
            raise ValueError(f"bad dice notation {notation!r}: 1-20 dice of 2-1000 sides")
        if keep is not None and not 1 <= keep <= count:
            raise ValueError(f"bad dice notation {notation!r}: cannot keep {keep} of {count}")
        return cls(count, sides, keep, (m.group(3) or "h").lower() == "h")

    @property
    def notation(self) -> str:
        """The canonical notation."""
        base = f"{self.count}d{self.sides}"
        if self.keep is None or self.keep == self.count:
            return base
        return f"{base}k{'h' if self.keep_high else 'l'}{self.keep}"

    def kept_indices(self, faces: Sequence[int]) -> tuple[int, ...]:
        """Indices of the faces kept; ties keep the earlier die."""
        if self.keep is None or self.keep >= len(faces):
            return tuple(range(len(faces)))
        order = sorted(
            range(len(faces)), key=lambda i: (-faces[i] if self.keep_high else faces[i], i)
        )
        return tuple(sorted(order[: self.keep]))

    def with_advantage(self, mode: Literal["advantage", "disadvantage"]) -> DiceSpec:
        """One more die, keeping the original count highest (advantage) or lowest."""
        base = self.keep or self.count
        return DiceSpec(base + 1, self.sides, base, mode == "advantage")


@dataclass(frozen=True, slots=True)
class Roll:
    """The result of rolling a ``DiceSpec``: every face, which were kept, their sum."""

    spec: DiceSpec
    faces: tuple[int, ...]
    kept_idx: tuple[int, ...]
    entered: bool = False

    @property
    def kept(self) -> tuple[int, ...]:
        """The faces that count."""
        return tuple(self.faces[i] for i in self.kept_idx)

    @property
    def dropped(self) -> tuple[int, ...]:
        """The faces rolled but not counted."""
        return tuple(f for i, f in enumerate(self.faces) if i not in self.kept_idx)

    @property
    def total(self) -> int:
        """Sum of the kept faces."""
        return sum(self.kept)

    @classmethod
    def of(cls, spec: DiceSpec, faces: Sequence[int], entered: bool = False) -> Roll:
        """A roll from known faces."""
        faces = tuple(faces)
        return cls(spec, faces, spec.kept_indices(faces), entered)


class DiceSource(Protocol):
    """Anything that rolls dice."""

    def roll(self, spec: DiceSpec) -> Roll:
        """Roll ``spec``."""
        ...


def _face_v1(seed: int, n: int, sides: int) -> int:
    """Stream 1: the first 8 bytes of BLAKE2b("<seed>:<n>"), big-endian, modulo ``sides``, + 1."""
    digest = hashlib.blake2b(f"{seed}:{n}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") % sides + 1


_STREAMS: dict[int, Callable[[int, int, int], int]] = {1: _face_v1}

STREAM_VERSION = 1
"""The stream new campaigns roll (see the module's docstring before changing it)."""


def check_stream(version: object) -> int:
    """``version`` if this Sidekick can roll that dice stream; ``ValueError`` saying why not."""
    if not isinstance(version, int) or isinstance(version, bool) or version not in _STREAMS:
        known = ", ".join(map(str, sorted(_STREAMS)))
        raise ValueError(
            f"dice stream {version!r} is unknown to this version of Sidekick, which rolls stream"
            f" {known}; the campaign was saved by a newer Sidekick or the save is damaged"
        )
    return version


@dataclass(slots=True)
class SeededDice:
    """Deterministic dice from a campaign seed; ``position`` counts the dice rolled so far.

    ``stream`` is the campaign's dice stream version (``STREAM_VERSION`` for new campaigns).
    """

    seed: int
    position: int = 0
    stream: int = STREAM_VERSION

    def __post_init__(self) -> None:
        check_stream(self.stream)

    def face(self, n: int, sides: int) -> int:
        """Die number ``n`` of this seed, on ``sides`` sides."""
        return _STREAMS[self.stream](self.seed, n, sides)

    def roll(self, spec: DiceSpec) -> Roll:
        """Roll ``spec`` and advance the position by its number of dice."""
        faces = [self.face(self.position + i, spec.sides) for i in range(spec.count)]
        self.position += spec.count
        return Roll.of(spec, faces)


@dataclass(slots=True)
class EnteredDice:
    """Dice the player rolled at the table and typed in; checked for count and range."""

    faces: list[int] = field(default_factory=list)

    def roll(self, spec: DiceSpec) -> Roll:
        """Return the entered faces as a roll of ``spec``."""
        return Roll.of(spec, check_faces(spec, self.faces), entered=True)


def check_faces(spec: DiceSpec, faces: Sequence[int]) -> list[int]:
    """Validate entered faces against ``spec``; raise ``IllegalAction`` saying what is wrong."""
    if len(faces) != spec.count:
        raise IllegalAction(
            f"{spec.notation} needs {spec.count} {'die' if spec.count == 1 else 'dice'}, but"
            f" {len(faces)} {'was' if len(faces) == 1 else 'were'} entered"
            f" ({', '.join(map(str, faces)) or 'none'})"
        )
    bad = [f for f in faces if not isinstance(f, int) or isinstance(f, bool) or not
           1 <= f <= spec.sides]
    if bad:
        raise IllegalAction(
            f"a d{spec.sides} shows 1 to {spec.sides}; {', '.join(map(repr, bad))} is out of range"
        )
    return list(faces)


def parse_faces(text: str) -> list[int]:
    """Parse faces typed as ``3 5``, ``3,5`` or ``3+5``; raise ``IllegalAction`` if not numbers."""
    parts = [p for p in re.split(r"[\s,+]+", text.strip()) if p]
    try:
        return [int(p) for p in parts]
    except ValueError:
        raise IllegalAction(
            f"dice must be whole numbers separated by spaces, got {text!r}"
        ) from None


# ------------------------------------------------------------------ d20 resolutions


@dataclass(frozen=True, slots=True)
class Degrees:
    """A d20 check against a DC: success or failure and how many degrees."""

    success: bool
    degrees: int
    natural: int
    total: int
    dc: int

    @property
    def label(self) -> str:
        """E.g. 'success, 2 degrees' or 'failure, 1 degree'."""
        word = "success" if self.success else "failure"
        return f"{word}, {self.degrees} degree{'s' if self.degrees != 1 else ''}"


MAX_FAILURE_DEGREES = 4
"""Failure bottoms out at four degrees (a miss by 16 or more, RULES.md D.1)."""


def signed_degree(total: int, dc: int) -> int:
    """The signed degree of ``total`` against ``dc``: +1 per full 5 over, -1 to -4 under."""
    if total >= dc:
        return 1 + (total - dc) // 5
    return -min(MAX_FAILURE_DEGREES, 1 + (dc - total - 1) // 5)


def shift_degree(signed: int, by: int) -> int:
    """``signed`` moved ``by`` degrees, skipping 0 (there is no degree 0: up from -1 is +1)
    and keeping failures at no worse than -4."""
    value = signed
    for _ in range(abs(by)):
        value += 1 if by > 0 else -1
        if value == 0:
            value = 1 if by > 0 else -1
    return max(-MAX_FAILURE_DEGREES, value)


def degrees_vs_dc(natural: int, modifier: int, dc: int, *, crit_shift: bool = True) -> Degrees:
    """d20 + modifier against ``dc``: one degree per full 5 points past the DC (or short of it).

    A natural 20 improves the result by one degree (a failure of one degree becomes a success)
    and a natural 1 worsens it by one, when ``crit_shift`` is on.
    """
    total = natural + modifier
    signed = signed_degree(total, dc)
    if crit_shift and natural in (1, 20):
        signed = shift_degree(signed, 1 if natural == 20 else -1)
    return Degrees(signed > 0, abs(signed), natural, total, dc)


ThresholdResult = Literal["failure", "minor", "complete"]


def d20_threshold(natural: int, modifier: int, minor: int = 15, complete: int = 18) -> tuple[
        ThresholdResult, bool, bool]:
    """d20 + modifier against fixed thresholds; returns (result, natural 20, natural 1).

    A natural 20 is a complete success and a natural 1 a failure, whatever the modifier.
    """
    total = natural + modifier
    if natural == 20:
        return "complete", True, False
    if natural == 1:
        return "failure", False, True
    if total >= complete:
        return "complete", False, False
    if total >= minor:
        return "minor", False, False
    return "failure", False, False


def entered_die(roll: int | str | Sequence[int], sides: int) -> int:
    """One die the player rolled (a number, its text or a one-face list), checked for count
    and range like any entered dice."""
    faces = (parse_faces(roll) if isinstance(roll, str) else
             [roll] if isinstance(roll, int) else list(roll))
    return check_faces(DiceSpec(1, sides), faces)[0]
