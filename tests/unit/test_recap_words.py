"""The recap in words for people (issue 30): a result in the move's own terms (an inverted
move's worst band is no "miss"), and no double punctuation after a question."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from engine.recap import recap
from engine.script import run_script

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _played() -> Any:
    data = yaml.safe_load((EXAMPLES / "masks-first-scene.yaml").read_text(encoding="utf-8"))
    return run_script(data, saves=None, content=[], campaign=None, emit=lambda e: None)


def test_an_inverted_moves_worst_band_is_said_in_its_own_words() -> None:
    game = _played()
    events = list(game.store.events())
    n = events[-1]["n"]
    events += [
        {"type": "MoveTriggered", "move": "take_a_powerful_blow", "name": "Take a powerful blow",
         "n": n + 1, "a": 999},
        {"type": "Rolled", "dice": "2d6", "kept": [6, 5], "dropped": [], "modifier": 2,
         "raw_modifier": 2, "modifiers": [], "total": 13, "band": "overwhelmed",
         "band_name": "Overwhelmed", "tone": "bad", "n": n + 2, "a": 999},
    ]
    text = "\n".join(recap(events, game.state, game.pack))
    assert "✗ You rolled **Take a powerful blow** — Overwhelmed (13)" in text
    assert "missed" not in text


def test_a_question_ends_the_line_without_another_stop() -> None:
    game = _played()
    events = list(game.store.events())
    n = events[-1]["n"]
    events += [{"type": "SceneStarted", "number": 9, "title": "Where is Sister Marguerite?",
                "location": "", "stakes": "", "present": [], "n": n + 1, "a": 999},
               {"type": "Narrated", "by": "player", "text": "Is anyone there?", "n": n + 2,
                "a": 1000}]
    game.state.scene.title = "Where is Sister Marguerite?"
    lines = recap(events, game.state, game.pack)
    text = "\n".join(lines)
    assert "?." not in text and "?”." not in text, text
    assert all(not line.endswith("..") for line in lines)


def test_a_remembered_fact_is_said_as_a_sentence_not_a_question() -> None:
    from engine.gm.answers import _told

    assert _told("What are they actually up to? Dusk Meridian means to forget a debt.") == \
        "Dusk Meridian means to forget a debt"
    assert _told("The mayor owes Dusk a favour.") == "the mayor owes Dusk a favour"
    assert "?" not in _told("Who sent the drones? Nobody knows yet.")
