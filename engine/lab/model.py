"""The lab's data: what a run asks for (``LabSpec``), the decisions a policy makes
(``Decision`` of ``Choice``), and what one simulated campaign reports (``CampaignResult``, a
JSON-able dict so results cross process boundaries and land in JSON/CSV as they are).

Determinism: campaign ``index`` of a run plays with ``campaign_seed(spec.seed, index)`` and its
policy draws from ``policy_rng(spec.seed, index)``; nothing else is random. So a result depends
only on the spec and the index, never on the worker that computed it or the order.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, TypedDict

MAX_RUNS = 1_000_000
"""The most campaigns one run may ask for."""


@dataclass(frozen=True)
class LabSpec:
    """One lab run: which game, played how, how many times, from which master seed."""

    system: str
    """A pack id (as ``sidekick new --system``) or a pack folder's path (A/B of an edit)."""
    policy: str = "greedy"
    """A built-in policy ("random", "greedy", "story") or "module:Class" of your own."""
    runs: int = 100
    seed: int = 1
    """The master seed: every campaign's seed and policy draws derive from it."""
    scenes: int = 3
    """Scenes per campaign (PbtA games: ``moves`` player moves each; d20 games: a fight)."""
    moves: int = 8
    """Player moves per scene in a PbtA game."""
    party: int = 1
    """Heroes in the party (the pack's archetypes in order)."""
    foes: tuple[str, ...] = ()
    """d20 games: the stat block ids each fight is against (empty: the game's default)."""
    max_steps: int = 5000
    """Engine steps one campaign may take; more is reported as a campaign that never ends."""
    content: tuple[str, ...] = ()
    """Extra content folders (as ``--content``)."""
    keep: str | None = None
    """A save folder: every campaign is kept there (open it in the app, replay it)."""


def _derive(master: int, index: int, salt: str) -> int:
    digest = hashlib.sha256(f"{salt}:{master}:{index}".encode()).digest()
    return int.from_bytes(digest[:6], "big")


def campaign_seed(master: int, index: int) -> int:
    """The dice seed of campaign ``index`` of a run with master seed ``master``."""
    return _derive(master, index, "campaign")


def policy_rng(master: int, index: int) -> random.Random:
    """The random draws a policy may make in campaign ``index`` (the random policy's)."""
    return random.Random(_derive(master, index, "policy"))


@dataclass(frozen=True)
class Choice:
    """One thing the player's side may do now, with what a policy needs to weigh it.

    ``odds``: the chance it goes well (a roll's best bands, a hit, a dodge); ``value``: what
    it is expected to bring (damage, a chance to put down, damage avoided; higher is better);
    ``tags``: what it does in the story ("attack", "defend", "protect", "clears_condition",
    "heal", "recover", "help", "flee", "surrender", "risky" ...)."""

    id: str
    label: str
    odds: float | None = None
    value: float | None = None
    tags: frozenset[str] = frozenset()
    data: Mapping[str, Any] = field(default_factory=dict)
    """What the driver needs to carry the choice out (move id, target, options...)."""


@dataclass(frozen=True)
class Decision:
    """A point where the player's side decides: its kind ("move", "target", "option",
    "stat", "adjust", "fight", "response", "crit", "question"), the choices (never empty)
    and the situation in a few numbers ("conditions", "innocents_in_danger", "hurt",
    "dying_ally", ...)."""

    kind: str
    choices: tuple[Choice, ...]
    situation: Mapping[str, Any] = field(default_factory=dict)
    actor: str = ""


class RollRecord(TypedDict):
    """One roll: the move (or fight action), its band, the exact odds it had per band."""

    move: str
    band: str
    odds: dict[str, float]
    step: int
    scene: int


class Sample(TypedDict):
    """Tracked values after a step: potential, conditions, Team, Heat, Kill, Stun, damage..."""

    step: int
    scene: int
    values: dict[str, float]


class FightRecord(TypedDict):
    """One fight: its length (rounds, the turns every combatant took together, engine
    steps), who won, which side acted first, and how it ended ("knocked_out", "fled",
    "surrendered", "stalemate"; "" when it was called off otherwise)."""

    rounds: int
    steps: int
    winner: str
    first: str
    turns: int
    ending: str


class ThreatRecord(TypedDict):
    """A threat's clock at the end of the campaign, and when it reached doom."""

    id: str
    name: str
    clock: int
    size: int
    doom_step: int | None


class CampaignResult(TypedDict):
    """What one simulated campaign reports (``ok`` False: ``error`` says what, and ``seed``
    and ``index`` reproduce it)."""

    index: int
    seed: int
    system: str
    policy: str
    ok: bool
    error: str
    steps: int
    moves: int
    scenes: int
    rolls: list[RollRecord]
    samples: list[Sample]
    taken_out: list[dict[str, Any]]
    gm_moves: dict[str, int]
    gm_fit: dict[str, int]
    """GM moves made (``made``), those after a roll that went less than well or asked for a
    kind (``after_roll``), those of them fitting the kind of action (``fits``), and lines
    said again within ``GM_LINE_MEMORY`` GM moves (``repeats``)."""
    threats: list[ThreatRecord]
    fights: list[FightRecord]
    kept: str


def empty_result(spec: LabSpec, index: int, policy: str) -> CampaignResult:
    """A result with nothing recorded yet."""
    return CampaignResult(index=index, seed=campaign_seed(spec.seed, index), system=spec.system,
                          policy=policy, ok=True, error="", steps=0, moves=0, scenes=0,
                          rolls=[], samples=[], taken_out=[], gm_moves={}, gm_fit={},
                          threats=[],
                          fights=[], kept="")
