"""The bundled three-session examples play through: a Masks campaign and a City of Whispers
one, each with GM moves, answers to asked questions, threads and threats that move."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from engine.script import run_script

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.mark.parametrize("name", ["masks-three-sessions", "cow-three-sessions"])
def test_a_three_session_campaign_plays_through(name: str) -> None:
    data = yaml.safe_load((EXAMPLES / f"{name}.yaml").read_text(encoding="utf-8"))
    events: list[dict[str, Any]] = []
    game = run_script(data, saves=None, content=[], campaign=None, emit=events.append)
    log = list(game.store.events())
    kinds = [e["type"] for e in log]
    assert kinds.count("SessionEnded") == 3
    assert kinds.count("GMMoveMade") >= 8
    assert kinds.count("QuestionsAsked") >= 2
    assert any(k == "ClockChanged" for k in kinds)  # a threat moved on its own
    assert game.state.flow.stage == "fiction"
