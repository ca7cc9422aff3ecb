"""Journal lines about the hero acting read as "you": "Your turn.", "You attack..."."""

from __future__ import annotations

import pytest


def test_the_acting_heros_turn_reads_as_yours() -> None:
    from engine.rules.fight.events import fight_line

    def who(actor: str) -> str:
        return "you" if actor == "nightjar" else "The Furnace Baron"

    mine = {"type": "TurnBegan", "actor": "nightjar", "round": 1, "new_round": True}
    theirs = {"type": "TurnBegan", "actor": "baron", "round": 1}
    assert fight_line(mine, who) == "**Round 1.** Your turn."  # never "you's turn"
    assert fight_line(theirs, who) == "The Furnace Baron's turn."


@pytest.mark.parametrize(("said", "yours"), [
    ("attacks Granite with Fists", "attack Granite with Fists"), ("parries", "parry"),
    ("dodges the blast", "dodge the blast"), ("catches a breath", "catch a breath"),
    ("resists Light Lance", "resist Light Lance"), ("is hit", "are hit"),
    ("has a go", "have a go"), ("presses on", "press on")])
def test_a_roll_you_make_reads_as_yours(said: str, yours: str) -> None:
    from engine.journal import you_do

    assert you_do(said) == yours
