""""Previously...": the recap of a resumed campaign, built from its log and state (engine/recap.py),
on copies of the old saves in tests/data/saves-v1; the CLI's ``sidekick recap`` and a script's
``--journal`` when it continues a campaign."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from engine.campaigns import close_game, new_game, open_game
from engine.cli import main
from engine.game import Game
from engine.recap import clip, first_sentence, open_threads, recap
from engine.rules.state import CampaignState, Threat
from engine.script import run_script

FIXTURES = Path(__file__).resolve().parents[1] / "data" / "saves-v1"
MASKS = "the-long-night-at-pier-9"
COW = "the-missing-ledger"


@pytest.fixture
def saves(tmp_path: Path) -> Path:
    """A writable copy of the old saves."""
    out = tmp_path / "saves"
    shutil.copytree(FIXTURES, out)
    return out


def _recap(game: Game) -> list[str]:
    return recap(game.store.events(markers=True), game.state, game.pack)


def _text(lines: list[str]) -> str:
    return "\n".join(lines)


def test_masks_recap_names_stakes_last_miss_threads_and_clock(saves: Path) -> None:
    game = open_game(saves, MASKS)
    try:
        game.choose(["0"])  # the question the old save waits on
        game.add_thread("Find out who followed us from the pier")
        game.advance_threat("takeover", 2)
        lines = _recap(game)
    finally:
        close_game(game)
    text = _text(lines)
    assert 3 <= len(lines) <= 10
    assert lines[0] == "**Previously on The Long Night at Pier 9** (session 1)"
    assert all(line.startswith("- ") for line in lines[1:])
    assert "At stake: _Will Tin forgive Nova?_" in text  # the last scene's stakes
    # the last miss, and the GM's answer to it
    misses = [line for line in lines if line.startswith("- ✗ ")]
    assert misses and "**Provoke someone** → Dusk Meridian — Miss (5)" in misses[-1]
    assert "Put innocents in danger" in misses[-1]
    assert "Open threads: Find out who followed us from the pier." in text
    clock = next(line for line in lines if "Pressing" in line)
    assert "**Dusk Meridian: the takeover** 2/6" in clock
    assert "4 steps from its doom" in clock and "(+2 lately)" in clock
    assert "Local shops start paying for 'protection'." in clock  # where the clock stands
    assert "You carry Afraid and Angry." in text  # the conditions the hero carries


def test_cow_recap_uses_the_systems_words_and_the_stakes_still_open(saves: Path) -> None:
    game = open_game(saves, COW, read_only=True)
    try:
        lines = _recap(game)
    finally:
        close_game(game)
    text = _text(lines)
    assert 3 <= len(lines) <= 10
    # the last scene named no stakes: the latest stakes of the campaign stand
    assert "Scene 5: The morning after — Lantern Row. Still at stake: _Who took the Quiet" \
           " Ledger's missing book" in text
    last_miss = [line for line in lines if line.startswith("- ✗ ")][-1]
    assert "**Direct Someone to Act** → Captain Renn Aldous — Miss (6-): 4" in last_miss
    assert "**Magistrate — Trouble in the scheme:**" in last_miss  # the GM by its title
    assert "Spread a Rumor" in text  # the setback before it
    assert "⏱ Pressing: **Silas Quill: A vendetta** 2/6, 4 steps from its doom (+1 lately):" \
           " Silas Quill turns one of Mira Vess's contacts." in text
    assert "Open threads" not in text  # none are open


def test_recap_is_deterministic(saves: Path, tmp_path: Path) -> None:
    other = tmp_path / "other"
    shutil.copytree(FIXTURES, other)
    out = []
    for folder in (saves, other, saves):
        for cid in (MASKS, COW):
            game = open_game(folder, cid, read_only=True)
            try:
                out.append((cid, _recap(game)))
            finally:
                close_game(game)
    assert out[:2] == out[2:4] == out[4:]


def test_nothing_played_nothing_to_recap(tmp_path: Path) -> None:
    game = new_game(tmp_path, system="masks", name="Fresh", hero_name="Nova",
                    archetype="signal_fire", npcs=[("Dusk Meridian", "villain", "")], seed=3)
    try:
        assert _recap(game) == []
        game.describe("I hover above the pier")
        game.choose_move(None)  # plain fiction: now there is something to recap
        lines = _recap(game)
    finally:
        close_game(game)
    assert len(lines) >= 3
    assert "Where you left off: “I hover above the pier”." in _text(lines)


def test_a_roll_pulled_out_of_a_miss_is_no_setback(saves: Path) -> None:
    game = open_game(saves, COW, read_only=True)
    try:
        state = game.state
        pack = game.pack
    finally:
        close_game(game)
    base: list[dict[str, Any]] = [
        {"type": "SceneStarted", "number": 1, "title": "Docks", "stakes": "Who is lying?"},
        {"type": "Narrated", "by": "player", "text": "I slip through the docks"},
        {"type": "MoveTriggered", "move": "transit", "name": "Transit"},
        {"type": "Rolled", "band": "miss", "band_name": "Miss (6-)", "total": 6,
         "tone": "bad"},
    ]
    missed = recap(base, state, pack)
    assert any("✗ You rolled **Transit** — Miss (6-): 6" in line for line in missed)
    saved = recap([*base, {"type": "RollAdjusted", "source": "Recall a History", "amount": 1,
                           "total": 7, "band": "weak_hit", "band_name": "Weak hit (7-9)",
                           "modifier": 1, "tone": "mixed", "was": "bad"}], state, pack)
    assert not any("✗" in line for line in saved)
    assert any("Transit — Miss (6-): 6, now Weak hit (7-9): 7" in line for line in saved)


def test_a_party_names_who_missed(saves: Path) -> None:
    game = open_game(saves, MASKS, read_only=True)
    try:
        state, pack = game.state, game.pack
    finally:
        close_game(game)
    events: list[dict[str, Any]] = [
        {"type": "HeroAdded", "id": "nova", "name": "Nova"},
        {"type": "HeroAdded", "id": "tin_2", "name": "Bolt"},
        {"type": "SceneStarted", "number": 1, "title": "Pier", "stakes": "Save the ferry"},
        {"type": "HeroSwitched", "hero": "tin_2", "was": "nova"},
        {"type": "MoveTriggered", "move": "directly_engage", "name": "Directly engage a threat"},
        {"type": "Rolled", "band": "miss", "band_name": "Miss", "total": 4, "tone": "bad"},
    ]
    text = _text(recap(events, state, pack))
    assert "✗ Bolt rolled **Directly engage a threat** — Miss (4)" in text
    # the roll is said once (issue 27): on the miss, not again where play stopped
    assert "Where you left off: Bolt: Directly engage a threat." in text
    assert text.count("Miss (4)") == 1


def test_a_stance_turned_for_the_worse_is_a_setback(saves: Path) -> None:
    game = open_game(saves, MASKS, read_only=True)
    try:
        state, pack = game.state, game.pack
    finally:
        close_game(game)
    events: list[dict[str, Any]] = [
        {"type": "SceneStarted", "number": 1, "title": "Pier", "stakes": "Save the ferry"},
        {"type": "Narrated", "by": "player", "text": "I tell Rosalind to back off"},
        {"type": "StanceChanged", "npc": "rosalind_okafor_haig", "stance": "hostile",
         "was": "warm"},
        {"type": "StanceChanged", "npc": "tin", "stance": "warm", "was": "neutral"},
    ]
    text = _text(recap(events, state, pack))
    assert "⚠ Rosalind Okafor-Haig turned hostile toward you (was warm)" in text
    assert "Tin turned" not in text  # a turn for the better is no setback


def test_clocks_the_nearest_to_doom_then_the_one_that_moved(saves: Path) -> None:
    game = open_game(saves, COW, read_only=True)
    try:
        state, pack = game.state.model_copy(deep=True), game.pack
        events = list(game.store.events())
    finally:
        close_game(game)
    state.threats["watch"] = Threat(id="watch", name="The Vigil's watch", size=4, clock=3,
                                    steps=["a", "b", "The Vigil posts a man at your door."])
    state.threats["idle"] = Threat(id="idle", name="An idle feud", size=8, clock=1)
    line = next(x for x in recap(events, state, pack) if "Pressing" in x)
    assert line.index("The Vigil's watch** 3/4, 1 step from its doom: The Vigil posts") \
        < line.index("Silas Quill: A vendetta** 2/6")  # nearest first; then the one that moved
    assert "An idle feud" not in line


def test_open_threads_reads_both_shapes() -> None:
    class Typed:
        def __init__(self, text: str, status: str) -> None:
            self.text, self.status = text, status

    state = CampaignState.model_construct(threads=[
        "Rescue Tin", Typed("Stop the drones", "open"), Typed("Old news", "resolved"),
        {"text": "Find the ledger", "status": "open"}])
    assert open_threads(state) == ["Rescue Tin", "Stop the drones", "Find the ledger"]


def test_text_helpers() -> None:
    assert first_sentence("A call comes in. Will they leave you here?") == "A call comes in."
    assert clip("word " * 50, 20).endswith("…") and len(clip("word " * 50, 20)) <= 21


def test_cli_recap(saves: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--saves", str(saves), "recap", COW]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "**Previously on The Missing Ledger** (session 2)"
    assert any("Direct Someone to Act" in line for line in out)
    assert main(["--saves", str(saves), "recap", "nope"]) == 1


def test_cli_recap_of_a_fresh_campaign(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                       ) -> None:
    game = new_game(tmp_path, system="masks", name="Fresh", hero_name="Nova",
                    archetype="signal_fire", seed=3)
    cid = str(game.store.id)  # type: ignore[attr-defined]
    close_game(game)
    assert main(["--saves", str(tmp_path), "recap", cid]) == 0
    assert "Nothing to recap in 'Fresh' yet" in capsys.readouterr().out


def test_script_journal_continuing_a_campaign_starts_with_the_recap(tmp_path: Path) -> None:
    game = new_game(tmp_path, system="masks", name="Fresh", hero_name="Nova",
                    archetype="signal_fire", seed=3)
    cid = str(game.store.id)  # type: ignore[attr-defined]
    try:
        game.describe("I hover above the pier")
        game.choose_move(None)
    finally:
        close_game(game)
    lines: list[str] = []

    def emit(e: dict[str, Any]) -> None:
        if e["type"] == "JournalLine":
            lines.append(e["text"])

    run_script({"steps": [{"do": "add_thread", "text": "Who followed us?"}]}, saves=tmp_path,
               content=[], campaign=cid, emit=emit, journal=True)
    assert lines[0] == "**Previously on Fresh** (session 1)"
    assert "“I hover above the pier”" in _text(lines[:8])
    assert any("Who followed us?" in line for line in lines[1:])  # then the new steps
