"""Format 4: a finished fight's minions leave the campaign state (``FoesCleared``), older saves
shed them on open, and the journal still names them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import engine.fight as engine_fight
from engine.campaigns import close_game, new_game, open_game
from engine.game import Game
from engine.journal import render_all

PARTY = [{"name": "Lamplight", "archetype": "lamplight"},
         {"name": "Slipstream", "archetype": "slipstream"}]
FOES = ["madame_undertow", "hornet_drones"]


def fight(game: Game) -> None:
    """One fight, every side played by the referee."""
    game.start_fight(FOES)
    for hero in game.state.party:
        game.take_over(hero, player=False)
    for _ in range(200):
        if not game.fighting:
            return
        game.referee_run()
    raise AssertionError("the fight did not end")


def patch_up(game: Game) -> None:
    for hero in list(game.state.party):
        for e in game.editable(hero):
            if e.what == "condition" and e.value:
                game.edit(hero, "condition", e.key, False, "between fights")
            elif e.what == "track" and e.key == "damage" and e.value:
                game.edit(hero, "track", e.key, 0, "between fights")


def drones(game: Game) -> list[str]:
    return [a for a, x in game.state.actors.items() if x.data.get("group")]


def names(game: Game) -> dict[str, str]:
    return {a.id: a.name for a in game.state.actors.values()}


def start(saves: Path) -> Game:
    return new_game(saves, system="mutants-and-masterminds", name="Long war",
                    hero_name="Keystone", archetype="keystone", party=PARTY, seed=5)


def test_minions_leave_the_state_and_the_journal_names_them(tmp_path: Path) -> None:
    game = start(tmp_path)
    try:
        fight(game)
        assert drones(game) == []
        events = list(game.store.events())
        added = [e for e in events if e["type"] == "FoeAdded" and e.get("group")]
        cleared = [e for e in events if e["type"] == "FoesCleared"]
        assert len(added) == 5 and cleared and set(cleared[-1]["ids"]) <= {
            e["id"] for e in added}
        assert all(e["id"] not in game.state.scene.present for e in added)
        journal = "\n".join(render_all(events, game.pack, names(game)))
        assert "Hornet Drones 1" in journal  # named from its FoeAdded, not the state
        assert "hornet_drones_" not in journal  # never by its id
        assert "(FoesCleared)" not in journal
        game.undo()  # undo replays the fight's end: the drones are back, then gone again
    finally:
        close_game(game)


def test_a_twenty_fight_campaign_does_not_grow(tmp_path: Path) -> None:
    game = start(tmp_path)
    sizes: list[int] = []
    try:
        for _ in range(20):
            fight(game)
            patch_up(game)
            assert drones(game) == []
            sizes.append(len(game.state.actors))
        assert sizes == [sizes[0]] * 20  # the heroes and Madame Undertow, fight after fight
        assert len(game.state.actors) == 4
    finally:
        close_game(game)
    state = json.loads((tmp_path / "long-war" / "campaign.json").read_text())
    assert len(state["_default"]["1"]["state"]["actors"]) == 4


def test_an_older_save_sheds_its_minions_when_opened(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    with monkeypatch.context() as m:  # a campaign as format 3 left it: every minion kept
        m.setattr(engine_fight, "spent_foes", lambda state, among: [])
        game = start(tmp_path)
        fight(game)
        patch_up(game)
        fight(game)
        assert len(drones(game)) == 10
        close_game(game)
    path = tmp_path / "long-war" / "campaign.json"
    data = json.loads(path.read_text())
    data["_default"]["1"]["format"] = 3
    data["_default"]["1"]["state"]["version"] = 3
    path.write_text(json.dumps(data))
    game = open_game(tmp_path, "long-war")
    try:
        assert drones(game) == []
        journal = "\n".join(render_all(game.store.events(), game.pack, names(game)))
        assert "Hornet Drones 1" in journal and "hornet_drones_" not in journal
        game.undo()  # undo replays the old log as it was saved: back into the fight
        assert game.fighting
        while game.fighting:  # and play goes on
            game.referee_run()
        fight(game)
    finally:
        close_game(game)
    assert json.loads(path.read_text())["_default"]["1"]["format"] == 4
    reopened = open_game(tmp_path, "long-war")
    try:
        assert drones(reopened) == []  # what the undone-to state kept is shed again on open
    finally:
        close_game(reopened)
