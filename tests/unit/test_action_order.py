"""A game's fight actions come in the order the game declares, whichever of its modules a
process imports first (a menu's first entry once depended on which test ran before)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from engine.rules.fight.actions import ActionTable

ORDERS = {
    "panels": ["engine.systems.panels.fight_more", "engine.systems.panels.rules"],
    "mm3e": ["engine.systems.mm3e.fight_more", "engine.systems.mm3e.rules"],
}


def ids_after(game: str, modules: list[str]) -> list[str]:
    """The game's action ids in a fresh interpreter that imports ``modules`` in that order."""
    code = "".join(f"import {m}\n" for m in modules) + (
        f"import json, engine.systems.{game}.step as st\n"
        "print(json.dumps(st.ACTIONS.ids(internal=True)))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    return list(json.loads(out.stdout))


@pytest.mark.parametrize("game", sorted(ORDERS))
def test_the_import_order_does_not_change_the_action_order(game: str) -> None:
    first, second = ORDERS[game]
    assert ids_after(game, [first, second]) == ids_after(game, [second, first])


@pytest.mark.parametrize("game", sorted(ORDERS))
def test_every_action_has_a_declared_place(game: str) -> None:
    import importlib

    table = importlib.import_module(f"engine.systems.{game}.step").ACTIONS
    importlib.import_module(f"engine.systems.{game}.rules")
    assert table.order[0] == "attack"
    public = table.ids()
    assert public == [a for a in table.order if a in public]


def test_a_table_sorts_by_its_order_whatever_the_registration_order() -> None:
    table: ActionTable[object] = ActionTable("test", order=("a", "b", "c"))
    for id_ in ("c", "x", "a", "b"):
        table.action(id_, 1)(lambda ctx, p: None)
    assert table.ids() == ["a", "b", "c", "x"]  # undeclared last
    assert table.extended().ids() == ["a", "b", "c", "x"]

