"""Saves made before fights were typed and saved as events (format 2, issue 22's code) open,
resume, undo and play on with today's code (format 3).

The fixtures under ``tests/data/saves-v2`` were played by ``tools/make_v2_saves.py``: a Masks
party and a City of Whispers campaign each waiting on a choice, an M&M campaign in the middle of
a fight (its log full of ``FightUpdated`` snapshots), and a panels fight waiting for the
player's answer to a hit. Each test works on a copy, so the fixtures never change.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from engine.campaigns import close_game, open_game
from engine.journal import render_all
from engine.rules.fight.values import ChoiceNeed
from engine.store import FORMAT

FIXTURES = Path(__file__).resolve().parents[1] / "data" / "saves-v2"
MASKS, COW, MM3E, PANELS = ("pier-nine", "the-missing-ledger", "the-tallyman-s-due",
                            "last-train-to-tinmarket")


@pytest.fixture
def saves(tmp_path: Path) -> Path:
    """A writable copy of the old saves."""
    out = tmp_path / "saves"
    shutil.copytree(FIXTURES, out)
    return out


def _doc(folder: Path) -> dict[str, object]:
    data = json.loads((folder / "campaign.json").read_text())
    doc: dict[str, object] = next(iter(data["_default"].values()))
    return doc


def test_the_fixtures_are_format_2_with_fights_in_data() -> None:
    for cid in (MASKS, COW, MM3E, PANELS):
        assert _doc(FIXTURES / cid)["format"] == 2
    for cid in (MM3E, PANELS):
        state = _doc(FIXTURES / cid)["state"]
        assert isinstance(state, dict) and "fight" in state["data"] and "fight" not in state
    assert FORMAT == 4


@pytest.mark.parametrize("cid", [MASKS, COW])
def test_a_move_waiting_on_a_choice_resumes_and_plays_on(saves: Path, cid: str) -> None:
    game = open_game(saves, cid)
    try:
        assert game.pending.kind not in ("fiction", "move", "roll")
        before = game.state.model_dump(mode="json")
        options = game.pending.options
        game.choose([options[0].id] if game.pending.max == 1 or not options else
                    [o.id for o in options[:game.pending.min or 1]])
        game.undo()
        assert game.state.model_dump(mode="json") == before
        journal = "\n".join(render_all(game.store.events(), game.pack))
        assert game.state.hero.name in journal
    finally:
        close_game(game)


def test_an_mm3e_fight_saved_mid_fight_plays_on_and_undoes(saves: Path) -> None:
    game = open_game(saves, MM3E)
    try:
        fight = game.fight
        assert fight is not None and fight.encounter.round == 2
        assert fight.spec.per_turn == {"standard": 1, "move": 1}  # filled in by the migration
        before = game.state.model_dump(mode="json")
        game.referee_run()
        assert game.state.event_no > before["event_no"]  # type: ignore[operator]
        while game.state.action_no > before["action_no"]:  # type: ignore[operator]
            game.undo()
        assert game.state.model_dump(mode="json") == before
        for _ in range(3):  # back into the old log, made of snapshots
            game.undo()
        assert game.fight is not None
        journal = "\n".join(render_all(game.store.events(), game.pack))
        assert "Fight!" in journal and "Initiative:" in journal
    finally:
        close_game(game)
    # saved again in today's format, and read back the same
    again = open_game(saves, MM3E)
    try:
        assert _doc(saves / MM3E)["format"] == 4
        assert again.fight is not None
    finally:
        close_game(again)


def test_a_panels_fight_waiting_for_a_response_takes_the_answer(saves: Path) -> None:
    game = open_game(saves, PANELS)
    try:
        need = game.fight_need
        assert isinstance(need, ChoiceNeed) and need.who == "Quarrel"
        ids = [o.id for o in need.choices]
        assert "dodge" in ids and ids[0] == "none"
        events = game.fight_choose("dodge", "She twists away from the blade.")
        assert any(e["type"] == "Narrated" and e["text"] == "She twists away from the blade."
                   for e in events)
        assert not isinstance(game.fight_need, ChoiceNeed) \
            or game.fight_need.question != need.question
        game.undo()
        assert game.fight_need == need
    finally:
        close_game(game)
