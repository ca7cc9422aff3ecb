"""The story ledger: threads, facts, whereabouts and threats, in the state, changed by events,
journaled, undoable, written by GM moves and read by scene framing and scripts."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from engine.campaigns import close_game, open_game
from engine.content.loader import Pack, load_pack
from engine.errors import IllegalAction
from engine.game import Game
from engine.gm.moves import make_gm_move
from engine.journal import render_all
from engine.rules import events as ev
from engine.rules.ledger import CharacterEntry, Ledger, ThreadEntry
from engine.rules.state import CampaignState
from engine.script import run_script

ROOT = Path(__file__).resolve().parents[2]
MASKS = load_pack(ROOT / "content" / "masks")
NPCS = [("Rosalind", "adult", ""), ("Dusk Meridian", "villain", ""), ("Tin", "teammate", ""),
        ("Parveen", "bystander", "")]


def new_game(seed: int = 4) -> Game:
    return Game.new(MASKS, name="Ledger test", hero_name="Nova", archetype="signal_fire",
                    npcs=NPCS, seed=seed)


def journal(game: Game) -> str:
    names = {a.id: a.name for a in game.state.actors.values()}
    return "\n".join(render_all(game.store.events(), game.pack, names))


def run_items(game: Game, items: list[Any]) -> list[dict[str, Any]]:
    """Apply effect items straight through the interpreter (as the GM's own step would)."""
    out: list[dict[str, Any]] = []
    queue = list(items)
    while queue:
        res = game.interp.step(game.state, queue.pop(0))
        assert not hasattr(res, "options"), res
        for e in res.events:  # type: ignore[union-attr]
            ev.apply(game.state, e)
            out.append(e.to_dict())
        queue = list(res.push) + queue  # type: ignore[union-attr]
    return out


def gm_move_step(game: Game, move_id: str, kind: str = "hard") -> Any:
    """The GM's step at the first log position where it picks ``move_id``."""
    for i in range(400):
        game.state.event_no = 3000 + i
        step = make_gm_move(MASKS, game.state, kind, {}, game.rules)
        if step.events[0].move == move_id:
            return step
    raise AssertionError(f"the GM never picked {move_id}")


# ------------------------------------------------------------------ GM moves write it down


def test_a_capture_opens_a_rescue_thread_and_takes_the_captive_out_of_the_scene() -> None:
    game = new_game()
    step = gm_move_step(game, "capture_someone")
    captive = step.push[0]["ctx"]["target"]
    assert game.state.npcs[captive].role == "teammate" and game.state.npcs[captive].present
    out = run_items(game, step.push)
    assert not game.state.npcs[captive].present
    assert [t.text for t in game.state.open_threads] == ["Rescue Tin from whoever took them"]
    assert game.state.open_threads[0].source == "GM: Capture someone"
    assert game.state.npcs[captive].where == "captured, held who knows where"
    assert [e["kind"] for e in out if e["type"] == "LedgerChanged"] == ["thread", "where"]
    # the captive stays out of the next framed scenes (until found), the rescue is at stake
    props = [game.propose_scene(reroll=i) for i in range(20)]
    assert all(captive not in p.present for p in props)
    assert any(p.stakes == "Rescue Tin from whoever took them" for p in props)
    ledger = game.ledger()
    tin = next(c for c in ledger.characters if c.id == captive)
    assert (tin.present, tin.where) == (False, "captured, held who knows where")


def test_innocents_in_danger_open_a_thread_and_a_revealed_plan_is_a_fact() -> None:
    game = new_game()
    game.start_scene("Docks", "the old pier", present=["parveen", "dusk_meridian"])
    run_items(game, gm_move_step(game, "innocents_in_danger").push)
    assert [t.text for t in game.state.open_threads] == [
        "Get the people caught at the old pier to safety"]
    run_items(game, gm_move_step(game, "villain_reveal", "soft").push)
    fact = game.state.facts[0]
    assert fact.text == "Dusk Meridian has shown part of their plan at the old pier"
    assert fact.about == ["dusk_meridian"] and fact.id == "f1"


def test_a_thread_effect_never_opens_the_same_thread_twice() -> None:
    game = new_game()
    item = {"effect": {"type": "thread", "text": "Find {npc}"}, "ctx": {"npc": "tin"}}
    run_items(game, [item, item])
    assert [t.text for t in game.state.threads] == ["Find Tin"]


def test_cow_exposure_records_a_fact_about_the_witness_and_the_hero() -> None:
    pack = load_pack(ROOT / "content" / "city-of-whispers")
    move = next(m for m in pack.gm_moves if m.id == "expose")
    game = Game.new(pack, name="Vell", hero_name="Mira", archetype="go_between",
                    npcs=[("Silas Quill", "rival", "")], seed=3)
    game.start_scene("Kettle", "the Copper Kettle")
    items = [{"effect": e.model_dump(), "ctx": {"npc": "silas_quill", "target": "silas_quill",
                                                "source": "GM: Expose them"}}
             for e in move.effects]
    run_items(game, items)
    assert [(f.text, f.about) for f in game.state.facts] == [
        ("Silas Quill knows what Mira did at the Copper Kettle", ["silas_quill", "mira"])]


# ------------------------------------------------------------------ old logs and saves


def test_old_threads_changed_logs_replay_into_ledger_threads() -> None:
    state = new_game().state.model_copy(deep=True)
    for e in (ev.ThreadsChanged(added=["Who sent the package?", "Find the mole"]),
              ev.ThreadsChanged(removed=["Who sent the package?"]),
              ev.ThreadsChanged(added=["Find the mole", "Who sent the package?"])):
        ev.apply(state, e)
    assert [(t.id, t.text, t.status) for t in state.threads] == [
        ("t1", "Who sent the package?", "resolved"), ("t2", "Find the mole", "open"),
        ("t3", "Who sent the package?", "open")]
    assert state.next_ledger_id("t") == "t4"


def test_a_state_with_threads_as_texts_migrates() -> None:
    dump = new_game().state.model_dump(mode="json")
    dump["threads"] = ["Find the mole", "Save the pier"]
    del dump["ledger_ids"], dump["facts"]
    state = CampaignState.model_validate(dump)
    assert [(t.id, t.text, t.status) for t in state.threads] == [
        ("t1", "Find the mole", "open"), ("t2", "Save the pier", "open")]
    assert state.next_ledger_id("t") == "t3"
    again = CampaignState.model_validate(state.model_dump(mode="json"))
    assert again == state


def test_format_1_saves_still_open_with_an_empty_ledger(tmp_path: Path) -> None:
    saves = tmp_path / "saves"
    shutil.copytree(ROOT / "tests" / "data" / "saves-v1", saves)
    game = open_game(saves, "the-long-night-at-pier-9")
    try:
        assert game.state.threads == [] and game.state.facts == []
        assert all(a.where == "" for a in game.state.actors.values())
        game.choose(["1"])
        game.add_fact("Tin forgave Nova", about=["Tin", "Nova"])
        assert game.ledger().facts[0].about_names == ("Tin", "Nova")
    finally:
        close_game(game)


# ------------------------------------------------------------------ the Game's ledger actions


def test_ledger_actions_change_the_ledger_and_each_undoes() -> None:
    game = new_game()
    actions = [
        lambda: game.add_thread("Who sent the package?", note="ticking"),
        lambda: game.add_thread("Find the mole"),
        lambda: game.edit_thread("t2", text="Find the mole in the precinct"),
        lambda: game.resolve_thread("Who sent the package?"),
        lambda: game.reopen_thread("t1"),
        lambda: game.remove_thread("find the mole in the precinct"),
        lambda: game.add_fact("Rosalind was a hero once", about=["Rosalind"]),
        lambda: game.edit_fact("f1", about=["Rosalind", "hero"]),
        lambda: game.remove_fact("f1"),
        lambda: game.set_whereabouts("Tin", "at the hospital"),
        lambda: game.set_whereabouts("tin", ""),
    ]
    for act in actions:
        before = game.state.model_dump(mode="json")
        events = act()
        assert [e["type"] for e in events] == ["ActionStarted", "LedgerChanged"]
        after = game.state.model_dump(mode="json")
        assert after != before
        game.undo()
        assert game.state.model_dump(mode="json") == before
        act()
        assert game.state.model_dump(mode="json") == after
    assert [(t.id, t.text, t.status, t.note) for t in game.state.threads] == [
        ("t1", "Who sent the package?", "open", "ticking")]
    assert game.state.facts == [] and game.state.npcs["tin"].where == ""
    assert game.add_fact("Tin is a clone")[1]["id"] == "f2"  # ids are never given twice
    text = journal(game)
    for line in ("🧵 New thread: Who sent the package? — ticking",
                 "🧵 Thread reworded: Find the mole → Find the mole in the precinct",
                 "🧵 Thread resolved: ~~Who sent the package?~~",
                 "🧵 Thread open again: Who sent the package?",
                 "🧵 Thread struck from the ledger: Find the mole in the precinct",
                 "📜 Now known: Rosalind was a hero once.",  # a sentence (issue 30)
                 "📜 Fact corrected: Rosalind was a hero once → Rosalind was a hero once"
                 " (about Rosalind, Nova)",
                 "📜 Fact struck from the ledger: Rosalind was a hero once",
                 "📍 Where Tin is now: at the hospital", "📍 Where Tin is now: unknown"):
        assert line in text


@pytest.mark.parametrize(("act", "message"), [
    (lambda g: g.add_thread("   "), "a thread needs some words"),
    (lambda g: g.add_thread("x" * 501), "at most 500"),
    (lambda g: g.resolve_thread("t9"), "no open thread 't9'"),
    (lambda g: g.reopen_thread("t1"), "no resolved thread 't1'"),
    (lambda g: g.edit_thread("t1", text="Find the mole"), "already reads so"),
    (lambda g: g.add_thread("find  the MOLE"), "already open"),
    (lambda g: g.remove_thread("nope"), "threads: t1: Find the mole"),
    (lambda g: g.add_fact("Tin knows", about=["Nobody"]), "no character called 'Nobody'"),
    (lambda g: g.edit_fact("f1", text="x"), "no fact 'f1'"),
    (lambda g: g.set_whereabouts("Nobody", "home"), "no NPC called 'Nobody'"),
    (lambda g: g.set_whereabouts("Tin", ""), "unknown already"),
])
def test_ledger_actions_refuse_clearly_and_change_nothing(act: Any, message: str) -> None:
    game = new_game()
    game.add_thread("Find the mole")
    before = game.state.model_dump(mode="json")
    with pytest.raises(IllegalAction, match=message):
        act(game)
    assert game.state.model_dump(mode="json") == before


def test_the_ledger_reads_threads_characters_facts_and_threats() -> None:
    game = new_game()
    game.add_threat("takeover", npc="Dusk Meridian")
    game.add_thread("Find the mole")
    game.resolve_thread("Find the mole")
    game.add_thread("Save the pier")
    game.add_fact("Dusk owns the pier", about=["Dusk Meridian"])
    game.set_presence("Rosalind", False)
    game.set_whereabouts("Rosalind", "at the Institute")
    ledger = game.ledger()
    assert isinstance(ledger, Ledger)
    assert ledger.open_threads == [ThreadEntry("t2", "Save the pier", "open", "by hand")]
    assert [t.status for t in ledger.threads] == ["resolved", "open"]
    assert ledger.characters[0] == CharacterEntry("nova", "Nova", "hero", "hero", True)
    rosalind = next(c for c in ledger.characters if c.name == "Rosalind")
    assert (rosalind.present, rosalind.where, rosalind.role) == (False, "at the Institute",
                                                                 "adult")
    assert ledger.facts[0].about_names == ("Dusk Meridian",)
    threat = ledger.threats[0]
    assert (threat.clock, threat.npc, threat.active) == (0, "dusk_meridian",
                                                        True)
    assert threat.size == game.state.threats[threat.id].size
    assert threat.next_step == game.state.threats[threat.id].steps[0]


# ------------------------------------------------------------------ readers


def test_scene_framing_prefers_open_threads_and_keeps_away_npcs_out() -> None:
    game = new_game(seed=9)
    game.add_thread("Find the mole")
    stakes = [game.propose_scene(reroll=i).stakes for i in range(30)]
    # the scene test may alter the expected scene (its stakes go on) or interrupt it
    assert sum("Find the mole" in x for x in stakes) >= 15
    game.resolve_thread("Find the mole")
    assert not any("Find the mole" in game.propose_scene(reroll=i).stakes for i in range(30))
    game.set_whereabouts("Rosalind", "out of town")
    assert all("rosalind" not in game.propose_scene(reroll=i).present for i in range(30))
    # known to be at a place: framed there when the scene is there
    game.set_whereabouts("Rosalind", "at the old pier")
    from engine.gm.scenes import _away

    assert _away("at the old pier", "the harbour") and not _away("at the old pier",
                                                                  "The Old Pier, at dusk")


def test_a_script_keeps_the_ledger() -> None:
    script = {"campaign": {"system": "masks", "seed": 3,
                           "hero": {"name": "Nova", "archetype": "signal_fire"},
                           "npcs": [{"name": "Tin", "role": "teammate"}]},
              "steps": [
                  {"do": "add_thread", "text": "Find the mole", "note": "precinct"},
                  {"do": "edit_thread", "thread": "t1", "text": "Find the mole, fast"},
                  {"do": "add_thread", "text": "Save the pier"},
                  {"do": "resolve_thread", "thread": "Save the pier"},
                  {"do": "remove_thread", "thread": "t2"},
                  {"do": "add_fact", "text": "Tin is a clone", "about": "Tin"},
                  {"do": "edit_fact", "fact": "f1", "text": "Tin might be a clone"},
                  {"do": "add_fact", "text": "It rains", "about": []},
                  {"do": "remove_fact", "fact": "It rains"},
                  {"do": "whereabouts", "npc": "Tin", "where": "at the lab"},
              ]}
    events: list[dict[str, Any]] = []
    game = run_script(script, saves=None, content=[], campaign=None, emit=events.append)
    assert [(t.id, t.text, t.note) for t in game.state.threads] == [
        ("t1", "Find the mole, fast", "precinct")]
    assert [(f.text, f.about) for f in game.state.facts] == [("Tin might be a clone", ["tin"])]
    assert game.state.npcs["tin"].where == "at the lab"
    assert sum(e["type"] == "LedgerChanged" for e in events) == 10


# ------------------------------------------------------------------ the GM's names and checks


def test_the_gm_passes_its_names_to_ledger_effects_and_knows_open_threads() -> None:
    game = new_game()
    step = gm_move_step(game, "capture_someone")
    names = step.push[0]["ctx"]["names"]
    assert names["teammate"] == "Tin" and names["hero"] == "Nova" and "npc_id" not in names
    from engine.gm.moves import PRECONDITIONS

    assert not PRECONDITIONS["thread_open"](MASKS, game.state)
    game.add_thread("Find the mole")
    assert PRECONDITIONS["thread_open"](MASKS, game.state)
    assert gm_move_step(game, "capture_someone").push[0]["ctx"]["names"]["thread"] == (
        "Find the mole")
    # the words come from the GM's names first ({threat} reads as the narration reads it)
    item = {"effect": {"type": "thread", "text": "Stop {threat} before {thread} is moot"},
            "ctx": {"names": {"threat": "Dusk's takeover"}}}
    run_items(game, [item])
    assert game.state.open_threads[-1].text == "Stop Dusk's takeover before Find the mole is moot"


def test_validate_checks_the_words_of_ledger_effects(tmp_path: Path) -> None:
    import yaml

    from engine.checks import load_checked
    from engine.errors import ContentError

    dst = tmp_path / "masks"
    shutil.copytree(ROOT / "content" / "masks", dst)
    gm = yaml.safe_load((dst / "gm.yaml").read_text(encoding="utf-8"))
    capture = next(m for m in gm["moves"] if m["id"] == "capture_someone")
    capture["effects"].append({"type": "fact", "text": "{captor} took {teammate}"})
    (dst / "gm.yaml").write_text(yaml.safe_dump(gm, sort_keys=False), encoding="utf-8")
    with pytest.raises(ContentError) as err:
        load_checked(dst)
    assert any("moves.capture_someone.effects[" in p and "captor" in p
               for p in err.value.problems)


def test_the_ledger_survives_saving_and_reopening(tmp_path: Path) -> None:
    script = {"campaign": {"system": "masks", "seed": 3,
                           "hero": {"name": "Nova", "archetype": "signal_fire"},
                           "npcs": [{"name": "Tin", "role": "teammate"}]},
              "steps": [{"do": "add_thread", "text": "Find the mole"},
                        {"do": "add_fact", "text": "Tin is a clone", "about": ["Tin", "Nova"]},
                        {"do": "whereabouts", "npc": "Tin", "where": "at the lab"}]}
    game = run_script(script, saves=tmp_path, content=[], campaign=None, emit=lambda e: None)
    ledger, cid = game.ledger(), game.store.id  # type: ignore[attr-defined]
    close_game(game)
    again = open_game(tmp_path, cid)
    try:
        assert again.ledger() == ledger
        assert again.ledger().facts[0].about == ("tin", "nova")
        text = journal(again)
        assert "🧵 New thread: Find the mole" in text and "📍 Where Tin is now: at the lab" in text
    finally:
        close_game(again)


def test_a_script_sets_a_stance_and_refuses_a_bad_one() -> None:
    from engine.rules.stance import stance_of
    from engine.script import ScriptError, run_script

    campaign = {"system": "masks", "seed": 3, "hero": {"name": "Nova", "archetype": "signal_fire"},
                "npcs": [{"name": "Rosalind", "role": "adult"}]}
    steps = [{"do": "stance", "npc": "Rosalind", "stance": "hostile", "reason": "the pier"}]
    game = run_script({"campaign": campaign, "steps": steps}, saves=None, content=[],
                      campaign=None, emit=lambda e: None)
    assert stance_of(game.pack, game.state, "rosalind", game.state.acting) == "hostile"
    with pytest.raises(ScriptError, match=r"step 1 .*unknown stance .grumpy."):
        run_script({"campaign": campaign, "steps": [
            {"do": "stance", "npc": "Rosalind", "stance": "grumpy"}]}, saves=None, content=[],
            campaign=None, emit=lambda e: None)


def test_a_random_event_about_a_thread_names_an_open_one(masks: Pack) -> None:
    import random

    from engine.game import Game
    from engine.gm.framing import place_phrase
    from engine.gm.scenes import event_about
    from engine.journal import render
    from engine.rules import events as rev

    game = Game.new(masks, name="t", hero_name="Nova", archetype="signal_fire", seed=4,
                    npcs=[("Dusk Meridian", "villain", "")])
    # no thread yet: the event names what the ledger has (a character), never an unknown
    assert event_about(game.state, "An open thread comes back",
                       random.Random(1)) == "Dusk Meridian"
    game.add_thread("Find out who hired Dusk")
    assert event_about(game.state, "An open thread comes back",
                       random.Random(1)) == "Find out who hired Dusk"
    assert event_about(game.state, "Someone in the scene acts on their own",
                       random.Random(1)) == "Dusk Meridian"
    assert event_about(game.state, "The place itself changes",
                       random.Random(1)) == place_phrase(game.state.scene.location)
    assert event_about(game.state, "A new face arrives", random.Random(1)) == ""
    quiet = rev.RandomEvent(focus="The place itself changes", action="a", subject="b")
    assert "about" not in quiet.to_dict()  # the saved form of older events is unchanged
    named = rev.RandomEvent(focus="An open thread comes back", action="a", subject="b",
                            about="Find out who hired Dusk").to_dict()
    assert "(Find out who hired Dusk)" in (render(named, masks) or "")
