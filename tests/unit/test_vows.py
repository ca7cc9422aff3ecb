"""Issue 27, the ledger remembers: fights leave threads and facts, a scene-long fight with a
villain confronts its threat, threads carry Ironsworn-style progress (vows), and the recap
tells the campaign so far."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.content.loader import Pack, load_pack
from engine.errors import IllegalAction
from engine.game import Game
from engine.journal import render_all
from engine.recap import recap
from engine.rules.ledger import MAX_TICKS

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def mm() -> Pack:
    return load_pack(ROOT / "content" / "mutants-and-masterminds")


def mm_game(pack: Pack) -> Game:
    return Game.new(pack, name="vows", hero_name="Keystone", archetype="keystone", seed=1,
                    dice_mode="physical")


def finish(g: Game) -> None:
    """Answer every choice the move leaves open with its first options."""
    while g.state.flow.stage in ("effects", "adjust"):
        if g.state.flow.stage == "adjust":
            g.adjust(None)
            continue
        p = g.pending
        usable = [o for o in p.options if not o.disabled]
        g.choose([o.id for o in usable[: max(p.min, 1)]])


def journal(game: Game) -> str:
    names = {a.id: a.name for a in game.state.actors.values()}
    return "\n".join(render_all(game.store.events(), game.pack, names))


# ------------------------------------------------------------------ fights leave their mark


def test_a_lost_fight_leaves_a_thread_and_a_fact(mm: Pack) -> None:
    g = mm_game(mm)
    g.start_fight(["the_tallyman"], dice=[19, 1])
    g.fight_act("surrender")
    threads = [t.text for t in g.state.open_threads]
    facts = [f.text for f in g.state.facts]
    assert threads == [f"Track down The Tallyman, who beat Keystone at {g.state.scene.location}"]
    assert facts == [f"Keystone surrendered to The Tallyman at {g.state.scene.location}"]
    assert g.state.facts[0].about == ["keystone"]


def test_a_fight_called_off_leaves_the_standing_villain_as_a_thread(mm: Pack) -> None:
    g = mm_game(mm)
    g.start_fight(["the_tallyman"], dice=[19, 1])
    g.end_fight("called off")
    assert [t.text for t in g.state.open_threads] == [
        "Track down The Tallyman, still standing when the fight with Keystone ended"
        f" at {g.state.scene.location}"]


def test_a_fled_villain_is_a_thread_and_a_surrender_a_fact(mm: Pack) -> None:
    g = mm_game(mm)
    g.start_fight(["the_tallyman", "madame_undertow"], dice=[1, 19, 15])
    g.set_fight_dice("physical")
    g.take_over("the_tallyman")
    g.take_over("madame_undertow")
    g.fight_act("flee")
    g.fight_act("surrender")
    assert not g.fighting
    assert [t.text for t in g.state.open_threads] == ["Track down The Tallyman, who fled the fight"]
    assert [f.text for f in g.state.facts] == [
        f"Madame Undertow surrendered to Keystone at {g.state.scene.location}"]


def test_a_scene_long_fight_with_the_villain_confronts_its_threat(mm: Pack) -> None:
    g = mm_game(mm)
    g.start_fight(["the_tallyman"], dice=[19, 1])
    g.add_threat(mm.gm.threats[0].id, npc="the_tallyman")
    g.end_fight("called off")
    threat = next(iter(g.state.threats.values()))
    clock = threat.clock
    g.end_scene()
    assert "Nobody stood against" not in journal(g)
    assert g.state.threats[threat.id].clock == clock
    assert g.state.threats[threat.id].ignored == 0


# ------------------------------------------------------------------ vows


@pytest.fixture(scope="module")
def masks() -> Pack:
    return load_pack(ROOT / "content" / "masks")


def masks_game(pack: Pack, seed: int = 4) -> Game:
    return Game.new(pack, name="Vows", hero_name="Wren", archetype="signal_fire", seed=seed,
                    npcs=[("Min-ji Seo", "teammate", ""), ("The Quiet Abbess", "villain", "")],
                    present=["Min-ji Seo", "The Quiet Abbess"])  # the villain too


def test_a_thread_sworn_as_a_vow_carries_progress_marked_by_hand(masks: Pack) -> None:
    g = masks_game(masks)
    g.ledger.add_thread("Free Min-ji Seo from the drowned chapel")
    g.ledger.swear_vow("t1", "dangerous")
    t = g.ledger().open_threads[0]
    assert (t.vow, t.rank, t.ticks, t.score) == (True, "dangerous", 0, 0)
    g.ledger.mark_progress("t1")
    g.ledger.mark_progress("t1", 2)
    t = g.ledger().open_threads[0]
    assert (t.ticks, t.score) == (24, 6)  # three marks of a dangerous vow: two boxes each
    assert "🗡 Sworn as a dangerous vow: Free Min-ji Seo" in journal(g)
    assert "+16 ticks, ■■■■■■□□□□ 6/10" in journal(g)
    g.undo()
    assert g.ledger().open_threads[0].ticks == 8
    with pytest.raises(IllegalAction):
        g.ledger.swear_vow("t1", "legendary")
    g.ledger.mark_progress("t1", -5)  # progress taken back, down to an empty track
    assert g.ledger().open_threads[0].ticks == 0
    with pytest.raises(IllegalAction):
        g.ledger.mark_progress("t1", -1)
    g.ledger.mark_progress("t1", 100)
    assert g.ledger().open_threads[0].ticks == MAX_TICKS


def test_a_hit_on_a_vows_people_marks_its_progress_by_play(masks: Pack) -> None:
    g = masks_game(masks)
    g.ledger.add_thread("Free Min-ji Seo from the drowned chapel")
    g.ledger.swear_vow("t1", "formidable")
    g.describe("I pry the bars of the drowned chapel apart to reach Min-ji Seo")
    move = next(m for m in masks.moves.values() if m.roll is not None and m.target == "none")
    g.trigger(move.id)
    g.roll([6, 6])
    finish(g)
    marks = [e for e in g.store.events() if e.get("op") == "progress"]
    assert [(e["ticks"], e["delta"], e["source"]) for e in marks] == [(4, 4, "by play")]
    g.ledger.add_thread("Unmask the Quiet Abbess")
    g.ledger.swear_vow("t2", "epic")
    g.describe("I shrug and walk off")
    g.trigger(move.id)
    g.roll([6, 6])  # a hit that names neither vow's people marks nothing
    assert len([e for e in g.store.events() if e.get("op") == "progress"]) == 1


def test_a_miss_marks_no_progress(masks: Pack) -> None:
    g = masks_game(masks)
    g.ledger.add_thread("Free Min-ji Seo from the drowned chapel")
    g.ledger.swear_vow("t1", "formidable")
    g.describe("I pry the bars apart to reach Min-ji Seo")
    move = next(m for m in masks.moves.values() if m.roll is not None and m.target == "none")
    g.trigger(move.id)
    g.roll([1, 1])
    assert not [e for e in g.store.events() if e.get("op") == "progress"]


@pytest.mark.parametrize("dice, band, resolved", [([3, 4], "strong", True),
                                                  ([3, 9], "weak", True),
                                                  ([5, 9], "miss", False)])
def test_fulfilling_a_vow_is_a_progress_roll(masks: Pack, dice: list[int], band: str,
                                             resolved: bool) -> None:
    g = masks_game(masks)
    g.ledger.add_thread("Free Min-ji Seo from the drowned chapel")
    g.ledger.swear_vow("t1", "formidable")
    g.ledger.mark_progress("t1", 5)  # five boxes: a score of 5
    shown = g.ledger.fulfil_vow("t1", dice)
    rolled = [e for e in shown if e["type"] == "ProgressRolled"]
    assert [(e["score"], e["challenge"], e["band"]) for e in rolled] == [(5, dice, band)]
    assert (g.state.threads[0].status == "resolved") is resolved
    assert f"progress 5 against {dice[0]} and {dice[1]}" in journal(g)


def test_a_seeded_progress_roll_moves_the_dice(masks: Pack) -> None:
    g = masks_game(masks)
    g.ledger.add_thread("Free Min-ji Seo")
    g.ledger.swear_vow("t1")
    before = g.state.dice_position
    g.ledger.fulfil_vow("t1")
    assert g.state.dice_position == before + 2
    assert g.state.threads[0].status == "open"  # a score of 0 never beats a die


# ------------------------------------------------------------------ the recap


def play_move(g: Game, text: str, faces: list[int]) -> None:
    g.describe(text)
    move = next(m for m in g.pack.moves.values() if m.roll is not None and m.target == "none")
    g.trigger(move.id)
    g.roll(faces)
    finish(g)


def test_the_recap_tells_a_two_session_campaign_not_only_its_last_scene(masks: Pack) -> None:
    g = masks_game(masks)
    g.start_scene("The drowned chapel", "the drowned chapel", "Can Wren reach Min-ji?")
    g.ledger.add_thread("Free Min-ji Seo from the drowned chapel", source="the GM")
    g.ledger.swear_vow("t1", "formidable")
    play_move(g, "I pry the bars apart to reach Min-ji Seo", [6, 6])
    g.end_scene()
    g.end_session()
    finish(g)
    g.start_scene("The roof", "the old cinema roof", "Who follows Wren?")
    play_move(g, "I climb to the roof", [2, 3])
    g.end_scene()
    g.start_scene("The flood gates", "the flood gates")
    g.ledger.resolve_thread("t1")
    g.ledger.add_thread("Unmask the Quiet Abbess")
    g.ledger.swear_vow("t2", "epic")
    play_move(g, "I kick the gate open", [1, 2])
    lines = recap(g.store.events(markers=True), g.state, g.pack)
    text = "\n".join(lines)
    so_far = next(line for line in lines if line.startswith("- So far"))
    assert "2 sessions, 3 scenes" in so_far
    assert "a new thread, Free Min-ji Seo from the drowned chapel (scene 1)" in so_far
    assert "settled: Free Min-ji Seo from the drowned chapel (scene 3)" in so_far
    assert "🗡 Unmask the Quiet Abbess (epic vow, progress 0/10)" in text
    assert text.count("Miss (0)") == 1  # the last roll, said once (on its miss)
    assert "Where you left off: “I kick the gate open”: Directly engage a threat." in text
    assert 3 <= len(lines) <= 10


def test_a_script_swears_marks_and_fulfils_a_vow(tmp_path: Path) -> None:
    from engine.campaigns import close_game, new_game, open_game
    from engine.script import run_script

    game = new_game(tmp_path, system="masks", name="Scripted vow", hero_name="Wren",
                    archetype="signal_fire", seed=3)
    cid = str(game.store.id)  # type: ignore[attr-defined]
    close_game(game)
    run_script({"steps": [{"do": "add_thread", "text": "Bring Tin home"},
                          {"do": "swear_vow", "thread": "t1", "rank": "formidable"},
                          {"do": "mark_progress", "thread": "t1", "delta": 3},
                          {"do": "fulfil_vow", "thread": "t1", "dice": [2, 5]}]},
               saves=tmp_path, content=[], campaign=cid, emit=lambda e: None)
    game = open_game(tmp_path, cid)
    try:
        t = game.state.threads[0]
        assert (t.rank, t.ticks, t.status) == ("formidable", 12, "resolved")  # beats 2: weak
    finally:
        close_game(game)


def test_a_fight_won_against_a_vows_villain_marks_its_progress(mm: Pack) -> None:
    g = mm_game(mm)
    g.ledger.add_thread("Break the Tallyman's hold on the docks")
    g.ledger.swear_vow("t1", "dangerous")
    g.start_fight(["the_tallyman"], dice=[19, 1])
    g.set_fight_dice("physical")
    g.take_over("the_tallyman")
    g.end_turn()
    g.fight_act("surrender")
    assert not g.fighting
    assert g.state.threads[0].ticks == 8
    marks = [e for e in g.store.events() if e.get("op") == "progress"]
    assert [e["source"] for e in marks] == ["the fight"]
