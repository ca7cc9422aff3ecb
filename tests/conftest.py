"""Shared fixtures: the bundled Masks pack, a game factory and small play helpers.

Games are built with ``Game.new`` (in-memory store) and driven only through the ``Game``
facade. ``Helpers.setup`` reaches a state quickly: what the player could set by hand
(conditions, stats, tracks, pools, clocks, Influence) goes through ``Game.edit_many``, one
action like any other; only what no edit can express (a locked label, a flag, a bonus...) or a
set-up in the middle of a move still applies hand-picked events inside a private action.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from engine.content.loader import Pack, load_pack
from engine.game import CAMPAIGN, Edit, Game
from engine.rules import events as ev
from engine.systems.masks.rules import InfluenceChanged

ROOT = Path(__file__).resolve().parents[1]
MASKS_DIR = ROOT / "content" / "masks"

# A custom hero with small, easy-to-add labels (they must add up to +3, each -1..+2).
FLAT = {"danger": 1, "freak": 1, "savior": 1, "superior": 0, "mundane": 0}
NPCS: list[tuple[str, str, str]] = [
    ("Ada Vance", "adult", "a mentor who publishes"),
    ("Vic Rook", "villain", "wants the city dark"),
    ("Tin", "teammate", "blunt gadgeteer"),
    ("Bo", "bystander", "films everything"),
]


@pytest.fixture(scope="session")
def root() -> Path:
    """The repository root."""
    return ROOT


@pytest.fixture(scope="session")
def masks_dir() -> Path:
    """The bundled Masks pack folder."""
    return MASKS_DIR


@pytest.fixture(scope="session")
def masks() -> Pack:
    """The bundled Masks pack, loaded and validated once."""
    return load_pack(MASKS_DIR)


@pytest.fixture
def new_game(masks: Pack) -> Callable[..., Game]:
    """Factory: ``new_game(stats=..., archetype=..., npcs=..., seed=...)``; FLAT by default.
    Every NPC is in the opening scene, the villain too (a new campaign's villain starts away
    unless the player says otherwise: these tests say so; ``present=`` to choose)."""

    def make(*, archetype: str | None = None, stats: dict[str, int] | None = None,
             npcs: Sequence[tuple[str, str, str]] = NPCS, seed: int = 7, **kw: Any) -> Game:
        if archetype is None and stats is None:
            stats = dict(FLAT)
        kw.setdefault("present", [n for n, _, _ in npcs])
        return Game.new(masks, name="Test campaign", hero_name="Nova", archetype=archetype,
                        stats=stats, npcs=npcs, seed=seed, **kw)

    return make


class Helpers:
    """Small helpers for driving a game in tests."""

    @staticmethod
    def setup(game: Game, *events: ev.Event) -> None:
        """Reach the state ``events`` describe, as one action: through ``Game.edit_many``
        when every event is an edit the player could make between moves (values already
        set are left out), else by applying the events in a private action."""
        edits = Helpers.as_edits(game, events)
        if edits is not None and game.state.flow.stage == "fiction":
            if edits:
                game.edit_many(edits, reason="test set-up")
            return
        with game._action("test set-up"):
            for e in events:
                game._emit(e)

    @staticmethod
    def as_edits(game: Game, events: Iterable[ev.Event]) -> list[Edit] | None:
        """``events`` as edits by hand, leaving out values already set; None if one of them is
        not an edit (a locked label, a flag, Influence lost for good...)."""
        out: list[Edit] = []
        for e in events:
            if isinstance(e, ev.ConditionMarked | ev.ConditionCleared):
                out.append(Edit(e.who, "condition", e.condition,
                                isinstance(e, ev.ConditionMarked)))
            elif isinstance(e, ev.LabelsShifted):
                out += [Edit(e.who, "stat", k, v) for k, v in e.values.items()]
            elif isinstance(e, ev.TrackChanged):
                out.append(Edit(CAMPAIGN, "pool", e.track, e.value) if e.scope == "campaign"
                           else Edit(e.who, "track", e.track, e.value))
            elif isinstance(e, ev.ClockChanged):
                out.append(Edit(CAMPAIGN, "clock", e.threat, e.value))
            elif isinstance(e, InfluenceChanged) and not e.permanent:
                what = "influence" if e.direction == "hero_over" else "influenced_by"
                out.append(Edit("hero", what, e.npc, e.held))
            else:
                return None
        state = game.state.model_copy(deep=True)  # what each edit finds, in order
        kept: list[Edit] = []
        for x in out:
            now = {(f.what, f.key): f.value for f in game.rules.editable(state, x.who)}
            if now.get((x.what, x.key)) != x.value:
                kept.append(x)
                game.rules.registry.apply(state, ev.Edited(
                    who=state.actor_id(x.who) if x.who != CAMPAIGN else CAMPAIGN, what=x.what,
                    key=x.key, value=x.value, was=0))
        return kept

    @staticmethod
    def roll(game: Game, faces: Sequence[int]) -> list[dict[str, Any]]:
        """Roll the entered faces and keep the result if the engine offers adjustments."""
        out = list(game.roll(list(faces)))
        if game.state.flow.stage == "adjust":
            out += game.adjust("keep")
        return out

    @staticmethod
    def settle(game: Game, limit: int = 20) -> list[dict[str, Any]]:
        """Answer every open prompt with its first usable options (the fewest allowed, at
        least 1; disabled options are never sent)."""
        out: list[dict[str, Any]] = []
        for _ in range(limit):
            stage = game.state.flow.stage
            if stage == "effects":
                p = game.pending
                usable = [o for o in p.options if not o.disabled]
                n = max(p.min, 1) if usable else 0
                out += game.choose([o.id for o in usable[:n]])
            elif stage == "adjust":
                out += game.adjust("keep")
            else:
                return out
        raise AssertionError("prompts never settled")

    @staticmethod
    def of(events: Iterable[Mapping[str, Any]], kind: str) -> list[dict[str, Any]]:
        """The events of one type, as plain dicts."""
        return [dict(e) for e in events if e["type"] == kind]

    @staticmethod
    def dump(game: Game) -> dict[str, Any]:
        """The whole state as plain data, for exact comparisons."""
        return game.state.model_dump(mode="json")

    @staticmethod
    def npc(game: Game, name: str) -> str:
        """An NPC's id from its name."""
        found = game.state.npc_by_name(name)
        assert found is not None, name
        return found.id


@pytest.fixture
def h() -> type[Helpers]:
    """The play helpers."""
    return Helpers
