"""Saves made by an older Sidekick (format 1, commit 02a9caa) open, resume and play on.

The fixtures under ``tests/data/saves-v1`` were played by ``tools/make_v1_saves.py``: the
bundled example scripts, then a new scene whose first move waits on the player's questions.
Each test works on a copy, so the fixtures never change.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from engine.campaigns import close_game, open_game
from engine.game import Game
from engine.journal import render_all
from engine.store import FORMAT

FIXTURES = Path(__file__).resolve().parents[1] / "data" / "saves-v1"
MASKS = "the-long-night-at-pier-9"
COW = "the-missing-ledger"


@pytest.fixture
def saves(tmp_path: Path) -> Path:
    """A writable copy of the old saves."""
    out = tmp_path / "saves"
    shutil.copytree(FIXTURES, out)
    return out


def _open(saves: Path, cid: str) -> Game:
    return open_game(saves, cid)


def test_fixtures_are_the_old_format() -> None:
    for cid in (MASKS, COW):
        state = json.loads((FIXTURES / cid / "campaign.json").read_text())
        doc = next(iter(state["state"].values())) if "state" in state else state
        text = json.dumps(doc)
        assert '"hero"' in text and '"npcs"' in text  # the one-hero shape of format 1


@pytest.mark.parametrize("cid", [MASKS, COW])
def test_old_save_resumes_mid_choice(saves: Path, cid: str) -> None:
    game = _open(saves, cid)
    try:
        prompt = game.pending
        assert prompt.kind == "questions"
        assert prompt.roll["band"] == "weak_hit"
        hero_name = game.state.hero.name
        game.choose(["1"])
        assert game.pending.kind == "answer"  # the GM (new since format 1) answers it
        game.choose(["accept"])
        assert game.pending.kind == "fiction"
        journal = "\n".join(render_all(game.store.events(), game.pack))
        assert hero_name in journal
    finally:
        close_game(game)


@pytest.mark.parametrize("cid", [MASKS, COW])
def test_undo_across_the_migration_point(saves: Path, cid: str) -> None:
    game = _open(saves, cid)
    try:
        before = game.state.model_dump(mode="json")
        game.choose(["0"])
        game.undo()  # back to the questions, as saved by the old version
        assert game.pending.kind == "questions"
        assert game.state.model_dump(mode="json") == before
        scene = game.state.scene.number
        for _ in range(5):  # back before the move began, an answer at a time, into the old log
            game.undo()
            if game.pending.kind == "fiction":
                break
        assert game.pending.kind == "fiction"
        assert game.state.scene.number == scene
        for _ in range(5):  # and before the scene began
            game.undo()
            if game.state.scene.number < scene:
                break
        assert game.state.scene.number == scene - 1
    finally:
        close_game(game)


@pytest.mark.parametrize("cid", [MASKS, COW])
def test_old_save_plays_on_and_reopens(saves: Path, cid: str) -> None:
    game = _open(saves, cid)
    try:
        game.choose(["2"])
        game.choose(["accept"])
        game.describe("I take a breath and look for the way forward")
        move = next(m for m in game.available_moves() if m.roll is not None and m.target == "none")
        game.choose_move(move.id)
        assert game.pending.kind == "roll"
        events = game.roll()
        assert any(e["type"] == "Rolled" for e in events)
        n = game.state.event_no
    finally:
        close_game(game)
    again = _open(saves, cid)
    try:
        assert again.state.event_no == n
    finally:
        close_game(again)


def test_a_migrated_save_is_written_in_the_new_format(saves: Path) -> None:
    game = _open(saves, MASKS)
    try:
        hero = game.state.hero
        assert hero.kind == "hero" and game.state.party == [hero.id]
        # format 1 kept Influence on the NPC; now it is the adult's, in the Masks rules' data
        rosalind = game.state.npc_by_name("Rosalind Okafor-Haig")
        assert rosalind is not None and hero.id in rosalind.data.get("influence", [])
        game.choose(["0"])
    finally:
        close_game(game)
    doc = json.loads((saves / MASKS / "campaign.json").read_text())["_default"]["1"]
    assert doc["format"] == FORMAT == 4  # written again in today's format
    assert "actors" in doc["state"] and "hero" not in doc["state"]
