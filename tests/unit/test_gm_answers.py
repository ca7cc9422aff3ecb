"""The GM answers the questions a move lets the player ask (engine/gm/answers.py): every asking
move of both packs gets an offered answer drawn from the meaning tables and the situation; the
player accepts it, asks for another (a new draw that differs) or writes their own; answers are
journaled and recorded as facts; undo, saves and scripts keep it all."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from engine.campaigns import close_game, new_game, open_game
from engine.content import schema as s
from engine.content.loader import Pack, load_pack
from engine.errors import IllegalAction
from engine.game import Game
from engine.gm import answers
from engine.journal import render_all
from engine.rules import events as ev
from engine.rules.base import effect_item
from engine.script import ScriptError, run_script

ROOT = Path(__file__).resolve().parents[2]
MASKS_NPCS = [("Dusk Meridian", "villain", ""), ("Ms. Vale", "adult", ""),
              ("Tin", "teammate", "")]
COW_NPCS = [("Odile Farrow", "contact", "fence"), ("Silas Quill", "rival", "")]
FLAT = {"danger": 1, "freak": 1, "savior": 1, "superior": 0, "mundane": 0}


@pytest.fixture(scope="module")
def masks() -> Pack:
    """The bundled Masks pack."""
    return load_pack(ROOT / "content" / "masks")


@pytest.fixture(scope="module")
def cow() -> Pack:
    """The bundled City of Whispers pack."""
    return load_pack(ROOT / "content" / "city-of-whispers")


def masks_game(pack: Pack, seed: int = 3) -> Game:
    """A Masks campaign with a villain (and its threat), an adult and a teammate."""
    return Game.new(pack, name="Answers", hero_name="Nova", stats=dict(FLAT), npcs=MASKS_NPCS,
                    seed=seed)


def cow_game(pack: Pack, seed: int = 7) -> Game:
    """A City of Whispers campaign in Copperkettle (where the Go-Between is connected)."""
    return Game.new(pack, name="Vell", hero_name="Mira", archetype="go_between",
                    npcs=COW_NPCS, seed=seed, location="a tinkers' yard in Copperkettle")


def of(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    """The events of one type."""
    return [e for e in events if e["type"] == kind]


def _effects(effects: list[Any]) -> Iterator[Any]:
    for e in effects:
        yield e
        if isinstance(e, s.OneOf):
            for o in e.options:
                yield from _effects(list(o.effects))


def asks(move: s.Move) -> bool:
    """Whether any outcome of ``move`` (or a rule it runs) asks its questions."""
    found: list[Any] = list(_effects(list(move.before)))
    for outcome in [*move.outcomes.values(), *move.vs_teammate.values(),
                    *([move.result] if move.result else [])]:
        found += _effects(list(outcome.effects))
        if outcome.choose:
            for o in outcome.choose.options:
                found += _effects(list(o.effects))
    return bool(move.questions) and any(
        e.type == "ask" or (e.type == "rule" and e.name in ("observe", "bearings"))
        for e in found)


def asking_moves(pack: Pack) -> list[str]:
    """The moves of ``pack`` that let the player ask questions."""
    return [m.id for m in pack.moves.values() if asks(m)]


def test_the_asking_moves_are_found(masks: Pack, cow: Pack) -> None:
    assert {"pierce_the_mask", "assess_situation"} <= set(asking_moves(masks))
    assert {"observe_someone", "appraise_circumstances", "get_your_bearings"} <= set(
        asking_moves(cow))


@pytest.mark.parametrize("system", ["masks", "city-of-whispers"])
def test_every_asking_move_gets_an_offered_answer(masks: Pack, cow: Pack, system: str) -> None:
    pack = masks if system == "masks" else cow
    moves = asking_moves(pack)
    assert moves
    for move_id in moves:
        game = masks_game(pack) if system == "masks" else cow_game(pack)
        move = pack.moves[move_id]
        target = next(iter(game.state.npcs)) if move.target != "none" else None
        with game._action("ask"):
            game._run([effect_item({"type": "ask", "count": 2},
                                   {"move": move_id, "target": target, "source": move.name})],
                      fresh=True)
        assert game.pending.kind == "questions", move_id
        asked = [o.id for o in game.pending.options[:2]]
        game.choose(asked)
        for question in (move.questions[int(i)] for i in asked):
            p = game.pending
            assert (p.kind, p.message) == ("answer", question), move_id
            accept, another = p.options
            assert (accept.id, another.id) == ("accept", "another")
            assert accept.label.strip(), move_id
            assert accept.detail.startswith("meaning: "), move_id
            events = game.choose(["accept"])
            [said] = of(events, "QuestionAnswered")
            assert (said["question"], said["answer"], said["by"]) == (
                question, accept.label, "gm")
            assert said["drawn_from"] == accept.detail
        assert game.pending.kind == "fiction", move_id
        facts = [f.text for f in game.state.facts]
        assert len(facts) == 2 and all(f.startswith(move.questions[int(i)])
                                       for f, i in zip(facts, asked, strict=True))


def pierce(game: Game, count: int = 3) -> None:
    """Pierce the mask on Dusk Meridian asking the first ``count`` questions: 3 (a strong
    hit) or 1 (a weak hit)."""
    game.trigger("pierce_the_mask", "Dusk Meridian")
    game.roll([6, 6] if count == 3 else [3, 4])
    game.choose([str(i) for i in range(count)])


def test_pierce_the_mask_accept_another_and_own_words(masks: Pack) -> None:
    game = masks_game(masks)
    pierce(game)
    first = game.pending.options[0]
    assert "target: Dusk Meridian" in first.detail  # drawn from the situation too
    assert game.pending.title == "Pierce the mask: the GM answers"
    game.choose(["accept"])
    # another: a new draw for the same question, unlike the one turned down
    question = game.pending.message
    offers = [game.pending.options[0].label]
    for _ in range(4):
        game.choose(["another"])
        assert game.pending.message == question
        offers.append(game.pending.options[0].label)
    assert len(set(offers)) == len(offers)
    game.choose(["accept"])
    # own words
    with pytest.raises(IllegalAction, match="write an answer"):
        game.answer_text("   ")
    events = game.answer_text("  She  works for Dusk ")
    [said] = of(events, "QuestionAnswered")
    assert (said["answer"], said["by"], said["drawn_from"]) == ("She works for Dusk", "player", "")
    assert game.pending.kind == "fiction"
    with pytest.raises(IllegalAction):
        game.answer_text("too late")
    said = of(game.store.events(), "QuestionAnswered")  # type: ignore[attr-defined]
    assert [e["answer"] for e in said][1:] == [offers[-1], "She works for Dusk"]
    journal = "\n".join(render_all(game.store.events(), masks))  # type: ignore[attr-defined]
    assert f"**GM:** {offers[-1]}" in journal
    assert "She works for Dusk _(your answer)_" in journal
    assert "(meaning: " in journal
    facts = game.state.facts
    assert facts[-1].text.endswith("She works for Dusk")
    assert facts[-1].about == [game.state.npc_by_name("Dusk Meridian").id]  # type: ignore[union-attr]


def test_answers_are_deterministic_from_the_seed(masks: Pack) -> None:
    def offers(seed: int) -> list[str]:
        game = masks_game(masks, seed)
        pierce(game, 1)
        out = [game.pending.options[0].label]
        game.choose(["another"])
        out.append(game.pending.options[0].label)
        return out

    assert offers(3) == offers(3)
    assert offers(3) != offers(4)


def test_undo_brings_the_offer_back(masks: Pack) -> None:
    game = masks_game(masks)
    pierce(game, 1)
    offer = game.pending.options[0].label
    game.choose(["another"])
    second = game.pending.options[0].label
    assert second != offer
    game.choose(["accept"])
    assert game.state.facts and game.pending.kind == "fiction"
    game.undo()
    assert (game.pending.kind, game.pending.options[0].label) == ("answer", second)
    assert not game.state.facts
    game.undo()
    assert game.pending.options[0].label == offer
    game.answer_text("Mine")
    game.undo()
    assert game.pending.options[0].label == offer


def test_a_campaign_saved_mid_answer_resumes_with_the_same_offer(masks: Pack, tmp_path: Path
                                                                 ) -> None:
    game = new_game(tmp_path, system="masks", name="Pier", hero_name="Nova", stats=dict(FLAT),
                    npcs=MASKS_NPCS, seed=5)
    pierce(game)
    game.choose(["another"])
    pending = game.pending
    close_game(game)
    again = open_game(tmp_path, "pier")
    try:
        assert again.pending == pending
        for _ in range(3):
            again.choose(["accept"])
        assert len(of(again.store.events(), "QuestionAnswered")) == 3  # type: ignore[attr-defined]
    finally:
        close_game(again)


def test_get_your_bearings_answers_before_the_roll(cow: Pack) -> None:
    game = cow_game(cow)
    game.trigger("get_your_bearings")
    game.choose(["0", "3"])
    assert game.pending.kind == "answer"
    assert game.pending.message == "Where is the best place to hide?"
    assert "the Magistrate answers" in game.pending.title
    game.choose(["accept"])
    game.answer_text("Down by the canal locks")
    assert game.state.flow.stage == "roll"


def test_appraise_circumstances_reads_threats_and_presence(cow: Pack) -> None:
    game = cow_game(cow)
    game.trigger("appraise_circumstances")
    game.roll([6, 6])
    if game.state.flow.stage == "adjust":
        game.adjust("keep")
    # 12+: ask three, then clear Heat or a new belief
    assert game.pending.kind == "questions" and game.pending.max == 3
    game.choose(["1", "3", "4"])
    drawn = []
    for _ in range(3):
        drawn.append(game.pending.options[0].detail)
        game.choose(["accept"])
    assert all(d.startswith("meaning: ") for d in drawn)
    assert game.pending.kind != "answer"


def test_question_kinds() -> None:
    kinds = {q: answers.question_kind(q) for q in [
        "Where is the best place to hide?", "What is the most dangerous thing here?",
        "What are they afraid of, or weak to?", "What are they actually up to?",
        "Who has come through here lately?", "What would it take to get them to ___?",
        "What here is useful or valuable to me or my faction?"]}
    assert list(kinds.values()) == ["where", "danger", "fear", "plan", "who", "how", "what"]


def test_scripts_accept_ask_another_or_write(masks: Pack) -> None:
    data = {"campaign": {"system": "masks", "seed": 3, "hero": {"name": "Nova",
                                                                  "stats": FLAT},
                         "npcs": [{"name": n, "role": r} for n, r, _ in MASKS_NPCS]},
            "steps": [{"move": "pierce_the_mask", "target": "Dusk Meridian", "dice": [6, 6],
                       "choose": [["0", "1", "2"]],
                       "answer": ["another", "accept", "She works for Dusk"]},
                      {"move": "assess_situation", "dice": [6, 6], "choose": [["0", "1"]]}]}
    events: list[dict[str, Any]] = []
    run_script(data, saves=None, content=[], campaign=None, emit=events.append)
    said = of(events, "QuestionAnswered")
    # another then accept for the first question, own words for the second, then: accepted
    assert [e["by"] for e in said] == ["gm", "player", "gm", "gm", "gm"]
    assert said[1]["answer"] == "She works for Dusk"
    bad = {**data, "steps": [{**data["steps"][0], "answer": ["accept"] * 4}]}
    with pytest.raises(ScriptError, match=r"unused answers in 'answer'"):
        run_script(bad, saves=None, content=[], campaign=None, emit=lambda e: None)


# --------------------------------------------------------------------------- GM, you choose


def test_gm_you_choose_where_you_decide_for_the_gm(masks: Pack) -> None:
    picks = set()
    for seed in range(6):
        game = masks_game(masks, seed)
        game.trigger("provoke", "Dusk Meridian")
        game.roll([3, 4])  # a weak hit: decide how they react, standing in for the GM
        p = game.pending
        gm = next(o for o in p.options if o.id == "gm_chooses")
        assert gm.label == "GM, you choose"
        events = game.choose(["gm_chooses"])
        [told] = [e for e in of(events, "Narrated") if e["text"].startswith("GM, you choose")]
        [chosen] = of(events, "OptionsChosen")
        assert chosen["options"][0] in {o.id for o in p.options} - {"gm_chooses"}
        assert chosen["texts"][0] in told["text"]
        picks.add(chosen["options"][0])
    assert len(picks) > 1  # seeded, not fixed


def test_gm_you_choose_is_offered_only_for_the_gm(masks: Pack) -> None:
    game = masks_game(masks)
    game.trigger("directly_engage", "Dusk Meridian")
    game.roll([3, 4])
    assert game.pending.kind == "choose"
    assert "gm_chooses" not in {o.id for o in game.pending.options}


def test_gm_you_choose_on_a_one_of_and_undo(masks: Pack) -> None:
    game = masks_game(masks)
    with game._action("test set-up"):
        game._emit(ev.FlagSet(flag="adult_moves", value=True))
    game.trigger("empathize", "Ms. Vale")
    game.roll([3, 4])  # they let you see a weakness or it shakes them: you choose for them
    assert "gm_chooses" in {o.id for o in game.pending.options}
    before = game.pending
    events = game.choose(["gm_chooses"])
    [chosen] = of(events, "OptionsChosen")
    assert chosen["options"][0] in ("reveal", "condition")
    game.undo()
    assert game.pending == before
    again = game.choose(["gm_chooses"])
    assert of(again, "OptionsChosen") == [chosen]  # the same seed, the same pick


def test_gm_you_choose_the_complexity_of_a_working(cow: Pack) -> None:
    game = cow_game(cow)
    game.trigger("use_power")
    assert game.pending.kind == "roll"
    events = game.gm_set_params()
    [told] = of(events, "Narrated")
    value = game.state.flow.params["complexity"]
    assert 1 <= value <= 6 and told["text"] == (
        f"Magistrate, you choose: the Magistrate sets Complexity {value}")
    game.roll()  # seeded: above the hero's max complexity it rolls with disadvantage
    with pytest.raises(IllegalAction, match="waiting for"):
        game.gm_set_params()
    game2 = masks_game(load_pack(ROOT / "content" / "masks"))
    game2.trigger("unleash_powers")
    with pytest.raises(IllegalAction, match="nothing for the GM to set"):
        game2.gm_set_params()


def test_answers_read_the_ledger_facts_about_the_target(masks: Pack) -> None:
    game = masks_game(masks)
    game.add_fact("Dusk Meridian cannot stand the dark", about=["Dusk Meridian"])
    pierce(game, 1)  # What are they actually up to?
    drawn = [game.pending.options[0].detail]
    for _ in range(12):
        game.choose(["another"])
        drawn.append(game.pending.options[0].detail)
    assert any("fact: Dusk Meridian cannot stand the dark" in d for d in drawn)
    assert any("threat: " in d for d in drawn)


def test_an_answer_names_a_threat_as_narration_does(masks: Pack) -> None:
    import random

    game = Game.new(masks, name="t", hero_name="Nova", archetype="signal_fire", seed=8,
                    npcs=[("Dusk Meridian", "villain", "")])
    [threat] = game.state.threats.values()
    assert ":" in threat.name  # its name in the list: "Dusk Meridian: the ..."
    sit = answers.situation(masks, game.state, {"target": "dusk_meridian"}, random.Random(2))
    assert sit.threat.startswith("Dusk Meridian's ") and ":" not in sit.threat
