"""A fight step can ask the player to choose (a response to a hit, a critical's effect): the
step waits, saved, and plays on from its start with the answer."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from engine.content.loader import get_pack
from engine.errors import IllegalAction
from engine.game import Game
from engine.rules.fight.dice import NeedChoice
from engine.rules.fight.events import FightActed
from engine.rules.fight.state import Pending
from engine.rules.fight.values import FightChoice
from engine.systems.mm3e import rules as _rules  # noqa: F401  (registers every action)
from engine.systems.mm3e.fight import MM3EConflict
from engine.systems.mm3e.step import Ctx

OPTIONS = (FightChoice(id="left", label="Go left"), FightChoice(id="right", label="Go right"))


@pytest.fixture()
def ponder(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A test action that rolls a die, then asks its actor which way, then says the answer
    (M&M's actions, extended with it, for this test only)."""

    def handler(ctx: Ctx, p: Pending) -> None:
        die = ctx.die(p.actor, "ponders")
        way = ctx.ask(p.actor, "Which way?", OPTIONS, default="right")
        ctx.emit(FightActed(actor=p.actor, action="ponder", text=f"{die.face} {way}"))

    table = MM3EConflict.actions.extended()
    table.action("ponder", "free")(handler)
    monkeypatch.setattr(MM3EConflict, "actions", table)
    yield


def _game() -> Game:
    g = Game.new(get_pack("mutants-and-masterminds"), name="t", hero_name="Keystone",
                 archetype="keystone", seed=5)
    g.start_fight(["the_tallyman"])
    while g.referee_turn:
        g.referee_step()
    return g


def _said(g: Game) -> list[str]:
    return [e["text"] for e in g.last_events if e["type"] == "FightActed"
            and e["action"] == "ponder"]


def test_the_step_waits_for_the_players_choice_then_plays_on(ponder: None) -> None:
    g = _game()
    g.fight_act("ponder")
    assert _said(g) == []
    p = g.pending
    assert (p.kind, p.message) == ("fight_choice", "Keystone: Which way?")
    assert [o.id for o in p.options] == ["left", "right"]
    with pytest.raises(IllegalAction, match="waiting for your choice"):
        g.end_turn()
    with pytest.raises(IllegalAction, match="choose one of left, right"):
        g.fight_choose("up")
    with pytest.raises(IllegalAction, match="no die is awaited"):
        g.fight_die(3)
    g.fight_choose("left")
    (line,) = _said(g)
    assert line.endswith(" left")
    assert g.pending.kind == "fight"


def test_the_die_before_the_question_is_the_same_after_it(ponder: None) -> None:
    g = _game()
    before = g.state.dice_position
    g.fight_act("ponder")
    assert g.state.dice_position == before  # nothing rolled while the step waits
    g.fight_choose("right")
    face = int(_said(g)[0].split()[0])
    g.undo()
    g.undo()
    g.fight_act("ponder")
    g.fight_choose("left")
    assert _said(g) == [f"{face} left"]


def test_the_referee_takes_the_default_the_player_is_asked() -> None:
    g = _game()
    roller = g.fights._roller()
    assert roller.ask("the_tallyman", "Which way?", OPTIONS, default="right") == "right"
    with pytest.raises(NeedChoice) as asked:
        roller.ask("keystone", "Which way?", OPTIONS, default="right")
    assert (asked.value.who, asked.value.options) == ("keystone", OPTIONS)
    answered = g.fights._roller(choices=["left"])
    assert answered.ask("keystone", "Which way?", OPTIONS, default="right") == "left"
    with pytest.raises(IllegalAction, match="'up' is not one of left, right"):
        g.fights._roller(choices=["up"]).ask("keystone", "Which way?", OPTIONS, default="right")


def test_no_choice_awaited() -> None:
    g = _game()
    with pytest.raises(IllegalAction, match="no choice is awaited"):
        g.fight_choose("left")


def test_a_script_answers_with_choose(ponder: None) -> None:
    from engine.errors import EngineError
    from engine.script import run_script

    campaign = {"name": "Ask", "system": "mutants-and-masterminds", "seed": 5,
                "hero": {"name": "Keystone", "archetype": "keystone"}}
    steps = [{"fight": {"foes": ["the_tallyman"]}},
             {"act": {"action": "ponder"}, "choose": ["left"]}]
    events: list[dict[str, object]] = []
    run_script({"campaign": campaign, "steps": steps}, saves=None, content=[],
               campaign=None, emit=events.append)
    assert any(e["type"] == "FightActed" and str(e["text"]).endswith(" left")
               for e in events)
    with pytest.raises(EngineError, match="choose one of left, right, not 'up'"):
        run_script({"campaign": campaign, "steps": [steps[0], {
            "act": {"action": "ponder"}, "choose": ["up"]}]}, saves=None, content=[],
            campaign=None, emit=lambda e: None)
    with pytest.raises(EngineError, match="no choice is awaited"):
        run_script({"campaign": campaign, "steps": [steps[0], {
            "act": {"action": "aim", "attack": "granite_fist"}, "choose": ["left"]}]},
            saves=None, content=[], campaign=None, emit=lambda e: None)
