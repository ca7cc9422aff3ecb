"""The plain, accessible mode (engine/plain): whole games driven through standard input, then
resumed through open_game; bad input, end of input and Ctrl+C; the command line's --plain."""

from __future__ import annotations

import io
import re
import sys
from pathlib import Path

import pytest

from engine.campaigns import close_game, new_game, open_game
from engine.cli import main
from engine.plain import plain_text, run_plain
from engine.store import list_campaigns

NPCS = [("Dusk Meridian", "villain", "Wants your glow"), ("Parveen", "bystander", "")]


def masks(saves: Path) -> str:
    game = new_game(saves, system="masks", name="Night Shift", hero_name="Nova",
                    archetype="signal_fire", npcs=NPCS, seed=42)
    cid = str(game.store.id)  # type: ignore[attr-defined]
    close_game(game)
    return cid


def mm(saves: Path) -> str:
    game = new_game(saves, system="mutants-and-masterminds", name="Due", hero_name="Keystone",
                    archetype="keystone", seed=21,
                    npcs=[("The Tallyman", "villain", "Collects debts")],
                    party=[{"name": "Lamplight", "archetype": "lamplight", "stats": None}])
    cid = str(game.store.id)  # type: ignore[attr-defined]
    close_game(game)
    return cid


def play(saves: Path, cid: str | None, *lines: str) -> str:
    out = io.StringIO()
    assert run_plain(saves, (), cid, io.StringIO("".join(f"{x}\n" for x in lines)), out) == 0
    return out.getvalue()


MASKS_SESSION = (
    "I size up the pier, looking for what Dusk is really after",
    "Assess the situation",  # a choice by its words
    "1",  # one die: refused, the roll asked again
    "5 5",  # typed dice
    "abc",  # not a number: asked again
    "2 3",  # the two questions
    "1", "Ask for another answer", "1",  # the GM's answers: accept; another draw, accepted
    "I shield Parveen with my own body",
    "Defend someone",
    "",  # seeded dice: a strong hit
    "Add one to the Team pool.",
    "ledger", "end scene", "next scene",
    "oracle Is Dusk watching?", "Likely",
    "end session", "1", "Parveen", "2",
    "quit",
)


def test_a_whole_masks_session_is_played_from_standard_input(tmp_path: Path) -> None:
    cid = masks(tmp_path)
    out = play(tmp_path, cid, *MASKS_SESSION)
    assert "1. Assess the situation — Miss 41.7%, Weak hit 41.7%, Strong hit 16.7%" in out
    assert "2d6 needs 2 dice" in out
    assert "Roll: 2d6 [5 5] (entered) +0 = 10 gives Strong hit" in out
    assert "Not understood: type 2 numbers, separated by spaces." in out
    assert "Scene 2:" in out and "End of session" in out and "Saved. Goodbye." in out
    assert not re.search(r"\*\*|~~|^#|^> |[🎲📜🧵☠⇄•]", out, re.M)
    game = open_game(tmp_path, cid)
    try:
        types = [e["type"] for e in game.store.events()]
        assert types.count("Rolled") == 2 and "SessionEnded" in types
        assert "OracleAnswered" in types and game.state.scene.number == 2
        assert len(game.state.facts) == 2
        assert game.pending.kind == "fiction"
    finally:
        close_game(game)


def test_the_campaign_moves_back_to_the_plain_mode(tmp_path: Path) -> None:
    cid = masks(tmp_path)
    play(tmp_path, cid, "I size up the pier", "Assess the situation", "5 5")
    # the game waits for the questions to ask: a new sitting asks it again, as it stood
    out = play(tmp_path, cid, "where", "1 2", "1", "1", "undo", "quit")
    assert "Assess the situation: ask 2 (type 2 numbers" in out
    assert "Night Shift, Masks: A New Generation. Heroes: Nova" in out
    assert "Undone." in out


def test_a_mm_fight_is_played_from_standard_input(tmp_path: Path) -> None:
    cid = mm(tmp_path)
    out = play(tmp_path, cid, "fight", "1",  # against The Tallyman
               "Light Lance", "End the turn",  # Lamplight, one target: no question
               "Granite Fist", "End the turn",  # Keystone; then the referee's turn
               "Keystone stamps on the pier under the Tallyman", "1",  # words read as actions
               "fight", "The Tallyman gets away", "quit")
    assert "Fight! A fight breaks out against The Tallyman." in out
    assert "Light Lance at The Tallyman: hits 55.0%" in out
    assert "The Tallyman's turn — the referee acts" in out
    assert "Which action do your words take?" in out
    game = open_game(tmp_path, cid)
    try:
        types = [e["type"] for e in game.store.events()]
        assert "FightStarted" in types and "FightEnded" in types
        assert game.state.fight is None
    finally:
        close_game(game)


def test_end_of_input_and_ctrl_c_leave_with_everything_saved(tmp_path: Path) -> None:
    cid = masks(tmp_path)
    out = play(tmp_path, cid, "I size up the pier", "Assess the situation")  # then EOF
    assert out.endswith("Saved. Goodbye.\n")

    class Interrupted(io.StringIO):
        def readline(self, size: int | None = -1) -> str:
            raise KeyboardInterrupt

    out2 = io.StringIO()
    assert run_plain(tmp_path, (), cid, Interrupted(), out2) == 0
    assert "Saved. Goodbye." in out2.getvalue()
    game = open_game(tmp_path, cid)  # the lock was released; the move waits for its roll
    try:
        assert game.pending.kind == "roll"
    finally:
        close_game(game)


def test_campaigns_are_picked_from_a_numbered_list_or_started(tmp_path: Path) -> None:
    masks(tmp_path)
    out = play(tmp_path, None, "7", "Start a new campaign", "Masks: A New Generation",
               "", "Second Wind", "1", "", "1", "where", "quit")
    assert "1. Night Shift — masks" in out and "There is no such number" in out
    assert "Please type a few words." in out and "Second Wind, Masks" in out
    assert {r.name for r in list_campaigns(tmp_path)} == {"Night Shift", "Second Wind"}
    out = play(tmp_path, None, "Quit")
    assert "Goodbye." in out


def test_the_command_line_plain_flag(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    cid = masks(tmp_path)
    for argv in (["--saves", str(tmp_path), "--plain", "--campaign", cid],
                 ["--saves", str(tmp_path), "play", "--plain", "--campaign", cid]):
        monkeypatch.setattr(sys, "stdin", io.StringIO("help\nquit\n"))
        assert main(argv) == 0
        out = capsys.readouterr().out
        assert "end session: the end-of-session move" in out and "Saved. Goodbye." in out


def test_journal_lines_in_plain_words() -> None:
    assert plain_text("## Scene 1: Blackout — Pier 9") == "Scene 1: Blackout — Pier 9"
    assert plain_text("🎲 2d6 [5 5] +0 = **10** → **Strong hit**") == (
        "Roll: 2d6 [5 5] +0 = 10 gives Strong hit")
    assert plain_text("Team +1 → 1 (start of session)") == "Team +1 now 1 (start of session)"
    assert plain_text("🧵 Thread resolved: ~~Save the ferry~~") == (
        "Thread resolved: Save the ferry")
    assert plain_text("> I slam into Dusk") == "You say: I slam into Dusk"
    assert plain_text("_At stake: the pier_") == "At stake: the pier"
