"""``CampaignState.saved``, the form every action saves, is exactly ``model_dump(mode="json")``
(keys in order, defaults left out below the top level), however it is made: the ledger's
entries dumped once and reused, pydantic's ``exclude_defaults`` standing in for ``Compact``.
The saves it made earlier are never changed by later ones."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from engine.content.loader import Pack, load_pack
from engine.game import Game, MemoryStore
from engine.rules.encounter import Compact
from engine.rules.state import CampaignState

ROOT = Path(__file__).resolve().parents[2]


def canonical(state: dict[str, Any]) -> dict[str, Any]:
    """A saved state read back and dumped the plain way."""
    return CampaignState.model_validate(state).model_dump(mode="json")


class CheckingStore(MemoryStore):
    """A memory store that checks each saved state against its plain dump and keeps a deep
    copy of every save, to see that none is changed later."""

    def __init__(self, state: dict[str, Any]) -> None:
        super().__init__(state)
        self.saves: list[tuple[dict[str, Any], dict[str, Any]]] = []

    def save(self, events: list[dict[str, Any]], state: dict[str, Any],
             meta_updates: dict[str, Any] | None = None, new_chunk: bool = False) -> None:
        plain = canonical(state)
        assert json.dumps(state) == json.dumps(plain)  # the same keys in the same order
        self.saves.append((state, copy.deepcopy(state)))
        super().save(events, state, meta_updates, new_chunk)


@pytest.fixture(scope="module")
def masks() -> Pack:
    """The bundled Masks pack."""
    return load_pack(ROOT / "content" / "masks")


def test_every_save_of_a_ledger_kept_by_hand_is_the_plain_dump(masks: Pack) -> None:
    stores: list[CheckingStore] = []

    def factory(meta: dict[str, object], initial: dict[str, Any]) -> CheckingStore:
        stores.append(CheckingStore(initial))
        return stores[0]

    g = Game.new(masks, name="ledger", hero_name="Nova", archetype="signal_fire",
                 npcs=[("Rosalind", "adult", "")], seed=3, store_factory=factory)
    for i in range(6):
        g.ledger.add_fact(f"fact {i}", about=["Rosalind"] if i % 2 else [])
        g.ledger.add_thread(f"thread {i}", note="n")
    g.ledger.edit_fact("f2", text="fact two", about=["Rosalind"])
    g.ledger.remove_fact("f4")
    g.ledger.resolve_thread("t1")
    g.ledger.edit_thread("t3", text="thread three", note="")
    g.ledger.reopen_thread("t1")
    g.ledger.remove_thread("t5")
    g.ledger.add_fact("after the removals")
    g.undo()
    g.ledger.add_fact("after the undo")
    assert [f.text for f in g.state.facts] == ["fact 0", "fact two", "fact 2", "fact 4",
                                                "fact 5", "after the undo"]
    assert g.state.facts[1].about == ["rosalind"]
    assert [(t.text, t.status) for t in g.state.threads] == [
        ("thread 0", "open"), ("thread 1", "open"), ("thread three", "open"),
        ("thread 3", "open"), ("thread 5", "open")]
    assert json.dumps(g.state.saved()) == json.dumps(g.state.model_dump(mode="json"))
    for state, kept in stores[0].saves:
        assert state == kept


def test_a_fight_in_the_state_is_saved_as_its_plain_dump() -> None:
    pack = load_pack(ROOT / "content" / "mutants-and-masterminds")
    g = Game.new(pack, name="fight", hero_name="Keystone", archetype="keystone", seed=5,
                 party=[{"name": "Lamplight", "archetype": "lamplight"}])
    g.start_fight(["the_tallyman", "dockside_crew"])
    for _ in range(12):
        assert g.state.fight is not None
        assert json.dumps(g.state.saved()) == json.dumps(g.state.model_dump(mode="json"))
        if g.referee_turn:
            g.referee_step()
        else:
            g.end_turn()


def _models(tp: Any, seen: set[type]) -> None:
    import typing

    from pydantic import BaseModel
    args = typing.get_args(tp)
    if typing.get_origin(tp) is not None:
        for a in args:
            _models(a, seen)
    elif isinstance(tp, type) and issubclass(tp, BaseModel) and tp not in seen:
        seen.add(tp)
        for f in tp.model_fields.values():
            _models(f.annotation, seen)


def test_every_model_in_the_state_is_compact() -> None:
    """``saved`` asks pydantic to leave defaults out everywhere below the top level: right only
    while every model the state holds leaves them out anyway (``Compact``)."""
    seen: set[type] = set()
    _models(CampaignState, seen)
    assert len(seen) > 10
    assert [m.__name__ for m in seen if not issubclass(m, Compact)] == []
