"""The GM varies its lines: composed from parts, never repeated within 40 GM moves, addressing
the hero by name only now and then, every placeholder filled, threats named as in a sentence."""

from __future__ import annotations

import dataclasses
import shutil
import string
from pathlib import Path
from typing import Any

import pytest

from engine.content import schema as s
from engine.content.loader import Pack, load_pack
from engine.content.templates import FICTION_NAMES
from engine.errors import ContentError, IllegalAction
from engine.game import Game
from engine.gm import moves as gm_moves
from engine.gm.moves import LINE_MEMORY, choose_line, lines, threat_words
from engine.rules import events as ev
from engine.rules.threats import fill

ROOT = Path(__file__).resolve().parents[2]
SYSTEMS = ("masks", "city-of-whispers")

CAST: dict[str, dict[str, Any]] = {
    "masks": {"hero_name": "Nova", "archetype": "signal_fire",
              "npcs": [("Rosalind", "adult", ""), ("Dusk Meridian", "villain", ""),
                       ("Tin", "teammate", ""), ("Parveen", "bystander", "")],
              "moves": ["directly_engage", "unleash_powers", "provoke",
                        "defend_someone", "assess_situation"]},
    "city-of-whispers": {"hero_name": "Mira", "archetype": "go_between",
                         "npcs": [("Odile Farrow", "contact", ""), ("Brother Cask", "ally", ""),
                                  ("Madam Ysolde", "patron", ""),
                                  ("Captain Renn Aldous", "authority", ""),
                                  ("Silas Quill", "rival", "")],
                         "moves": ["take_a_big_risk", "observe_someone", "get_your_bearings",
                                   "direct_someone_to_act", "ear_to_the_ground"]},
}


@pytest.fixture(scope="module", params=SYSTEMS)
def pack(request: pytest.FixtureRequest) -> Pack:
    return load_pack(ROOT / "content" / request.param)


def fields_of(template: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(template) if f}


# --------------------------------------------------------------------------- the content


def test_every_gm_move_has_eight_distinct_lines(pack: Pack) -> None:
    assert pack.gm_moves
    for move in pack.gm_moves:
        texts = {text for _key, text in lines(pack, move)}
        assert len(texts) >= 8, (pack.id, move.id, len(texts))


def test_every_gm_move_outlasts_the_memory(pack: Pack) -> None:
    # with more distinct lines than GM moves remembered, a fresh line is always left: no
    # campaign, whatever its seed, repeats a line within LINE_MEMORY GM moves
    for move in pack.narration.moves:
        gm_move = next(m for m in pack.gm_moves if m.id == move)
        texts = {text for _key, text in lines(pack, gm_move)}
        assert len(texts) >= LINE_MEMORY, (pack.id, move, len(texts))


def test_every_gm_move_is_narrated_from_parts(pack: Pack) -> None:
    assert {m.id for m in pack.gm_moves} <= set(pack.narration.moves)
    assert {t.id for t in pack.gm.threats} <= set(pack.narration.threats)


def test_hero_name_opens_at_most_a_third_of_the_openers(pack: Pack) -> None:
    openers = [o for parts in pack.narration.moves.values() for o in parts.open]
    by_name = [o for o in openers if o.startswith("{hero}")]
    assert len(by_name) * 3 <= len(openers), by_name
    assert any(o == "" for o in openers)  # no address at all is a choice too


# a placeholder appears only where one of the GM move's `when` conditions guarantees it
GUARANTEES = {
    "npc": {"npc_present", "npc_lacks_influence"},
    "adult": {"adult_present", "adult_has_influence"},
    "threat": {"threat_active"},
}


def test_placeholders_are_guaranteed_by_the_move(pack: Pack) -> None:
    for move in pack.gm_moves:
        for _key, text in lines(pack, move):
            # the fiction's names: a line using one is said only when the fiction gave it
            for name in fields_of(text) - {"hero", "location"} - FICTION_NAMES:
                need = GUARANTEES.get(name, {f"{name}_present"})
                assert need & set(move.when), (pack.id, move.id, name, move.when)


# --------------------------------------------------------------------------- a campaign


def settle(game: Game) -> None:
    """Answer whatever the engine waits for with misses and the first options."""
    for _ in range(60):
        stage = game.state.flow.stage
        if stage == "fiction":
            return
        if stage == "roll":
            move = game.pack.moves[game.state.flow.move or ""]
            if move.roll is not None and move.roll.stat == "choice" and not game.state.flow.stat:
                game.set_roll_options(stat=move.roll.choices[0])
            try:
                game.roll([1, 1])
            except IllegalAction:
                game.roll([1, 1, 1])
        elif stage == "target":
            game.choose_target(game.pending.options[0].id)
        elif stage == "adjust":
            game.adjust(None)
        elif stage == "move":
            game.choose_move(None)
        else:
            p = game.pending
            usable = [o for o in p.options if not (o.disabled or None)]
            if usable:
                game.choose([o.id for o in usable[: max(p.min, 1)]])
            else:
                game.answer_text("Nothing comes of it.")
    raise AssertionError(f"stuck at {game.state.flow.stage}")


def play(system: str, monkeypatch: pytest.MonkeyPatch) -> tuple[Game, list[dict[str, Any]]]:
    """Three sessions of four scenes, each with misses and looks to the GM: the game and its
    GM moves. Every GM line filled is checked: no placeholder the names do not have."""
    real_fill = gm_moves.fill

    def strict_fill(template: str, names: dict[str, Any]) -> str:
        missing = fields_of(template) - set(names)
        assert not missing, (template, missing)
        return real_fill(template, names)

    monkeypatch.setattr(gm_moves, "fill", strict_fill)
    cast = CAST[system]
    game = Game.new(load_pack(ROOT / "content" / system), name="Variety",
                    hero_name=cast["hero_name"], archetype=cast["archetype"],
                    npcs=cast["npcs"], seed=11)
    npc_names = [n for n, _role, _note in cast["npcs"]]
    for session in range(3):
        for scene in range(4):
            if scene or session:
                game.start_scene(f"Scene {session}.{scene}", present=npc_names)
                settle(game)  # back after being taken out: clear a condition (issue 28)
            for beat in range(6):
                move = cast["moves"][(beat + scene + session) % len(cast["moves"])]
                if game.state.hero.taken_out:
                    game.ask_gm()
                    settle(game)
                    continue
                game.trigger(move)
                settle(game)
                if beat % 2:
                    game.ask_gm()
                    settle(game)
        game.end_session()
        settle(game)
    made = [e for e in game.store.events() if e["type"] == "GMMoveMade"]
    return game, made


@pytest.fixture(scope="module", params=SYSTEMS)
def campaign(request: pytest.FixtureRequest) -> tuple[Game, list[dict[str, Any]]]:
    with pytest.MonkeyPatch.context() as mp:
        return play(request.param, mp)


def test_a_long_campaign_makes_many_gm_moves(campaign: tuple[Game, list[dict[str, Any]]]
                                             ) -> None:
    _game, made = campaign
    assert len(made) >= 2 * LINE_MEMORY, len(made)
    assert len({e["move"] for e in made}) >= 8  # many different GM moves came up


def test_no_line_repeats_within_forty_gm_moves(campaign: tuple[Game, list[dict[str, Any]]]
                                               ) -> None:
    _game, made = campaign
    texts = [e["text"] for e in made]
    for i, text in enumerate(texts):
        window = texts[max(0, i - (LINE_MEMORY - 1)):i]
        assert text not in window, (i, text)
    keys = [f"{e['move']}:{e.get('line') or e.get('template', 0)}" for e in made]
    for i, key in enumerate(keys):
        assert key not in keys[max(0, i - (LINE_MEMORY - 1)):i], (i, key)


def test_the_hero_is_named_first_in_at_most_a_third(campaign: tuple[Game,
                                                                    list[dict[str, Any]]]
                                                    ) -> None:
    game, made = campaign
    first = [e["text"] for e in made if e["text"].startswith(game.state.hero.name)]
    assert len(first) * 3 <= len(made), (len(first), len(made))


def test_lines_are_filled_and_read_as_sentences(campaign: tuple[Game, list[dict[str, Any]]]
                                                ) -> None:
    _game, made = campaign
    for e in made:
        text = e["text"]
        assert "{" not in text and "}" not in text, text
        assert text[0].isupper() or text[0] == '"', text
        assert "  " not in text, text


# --------------------------------------------------------------------------- threats by name


@pytest.fixture
def masks_game() -> Game:
    cast = CAST["masks"]
    return Game.new(load_pack(ROOT / "content" / "masks"), name="Threats", hero_name="Nova",
                    archetype="signal_fire", npcs=cast["npcs"], seed=3)


@pytest.mark.parametrize(("template", "name", "npc", "reads"), [
    ("takeover", "", "Dusk Meridian", "Dusk Meridian's takeover"),
    ("takeover", "Dusk Meridian: the takeover", "Dusk Meridian", "Dusk Meridian's takeover"),
    ("takeover", "", None, "the takeover"),
    ("rising_tide", "", None, "the rising tide"),
    ("takeover", "Operation Nightfall", "Dusk Meridian", "Operation Nightfall"),
    ("heist", "Dusk Meridian: the Harbour Job", "Dusk Meridian", "Dusk Meridian's Harbour Job"),
    ("heist", "The Harbour Job", None, "the Harbour Job"),
])
def test_a_threat_reads_naturally_in_a_sentence(masks_game: Game, template: str, name: str,
                                                npc: str | None, reads: str) -> None:
    masks_game.add_threat(template, name, npc)
    threat = list(masks_game.state.threats.values())[-1]
    assert threat_words(masks_game.pack, masks_game.state, threat) == reads


def test_a_threat_phrase_keeps_its_case() -> None:
    cast = CAST["city-of-whispers"]
    game = Game.new(load_pack(ROOT / "content" / "city-of-whispers"), name="Vell",
                    hero_name="Mira", archetype="go_between", npcs=cast["npcs"], seed=3)
    game.add_threat("court_expands", "", "Silas Quill")
    threat = list(game.state.threats.values())[-1]
    assert threat_words(game.pack, game.state, threat) == "the Ashen Court under Silas Quill"


def test_announcing_a_threat_names_it_in_words(masks_game: Game) -> None:
    masks_game.add_threat("takeover", "", "Dusk Meridian")
    takeover = list(masks_game.state.threats)[-1]
    masks_game.advance_threat(takeover, 3)  # the most pressing threat is the one named
    announce = next(m for m in masks_game.pack.gm_moves if m.id == "announce_threat")
    names = gm_moves._names(masks_game.pack, masks_game.state, announce)
    assert names["threat"] == "Dusk Meridian's takeover"
    for _key, template in lines(masks_game.pack, announce):
        text = fill(template, names)
        assert "Dusk Meridian's takeover" in text and ": the takeover" not in text


# --------------------------------------------------------------------------- memory and saves


def test_whole_lines_still_work_without_parts(masks_game: Game) -> None:
    pack = dataclasses.replace(masks_game.pack, narration=s.NarrationPack())
    move = next(m for m in pack.gm_moves if m.id == "inflict_condition")
    assert lines(pack, move) == [(str(i), t) for i, t in enumerate(move.narration)]
    state = masks_game.state.model_copy(deep=True)
    # an old save remembers lines as "move:index": those are avoided while others are left
    state.gm_lines = [f"inflict_condition:{i}" for i in range(len(move.narration) - 1)]
    key, text = choose_line(pack, state, move)
    assert key == str(len(move.narration) - 1) and text == move.narration[-1]


def test_a_composed_line_is_remembered_by_its_parts(masks_game: Game) -> None:
    made = ev.GMMoveMade(move="reveal_future", name="Reveal", kind="soft", text="...",
                         line="1.2.0")
    ev.apply(masks_game.state, made)
    assert masks_game.state.gm_lines[-1] == "reveal_future:1.2.0"
    assert made.to_dict()["line"] == "1.2.0"
    old = ev.GMMoveMade(move="reveal_future", name="Reveal", kind="soft", text="...",
                        template=2)
    assert "line" not in old.to_dict()  # a whole line saves as it always did
    ev.apply(masks_game.state, ev.from_dict({"type": "GMMoveMade", "move": "pay_a_price",
                                             "name": "Pay", "kind": "hard", "text": "...",
                                             "template": 1}))
    assert masks_game.state.gm_lines[-1] == "pay_a_price:1"
    for n in range(60):
        ev.apply(masks_game.state, dataclasses.replace(made, line=f"0.0.{n}"))
    assert len(masks_game.state.gm_lines) == LINE_MEMORY


def test_parts_used_lately_are_avoided(masks_game: Game) -> None:
    pack = masks_game.pack
    move = next(m for m in pack.gm_moves if m.id == "reveal_future")
    state = masks_game.state.model_copy(deep=True)
    state.gm_lines = ["reveal_future:0.0.0", "reveal_future:1.1.1"]
    key, _text = choose_line(pack, state, move)
    o, a, st = key.split(".")
    assert o not in "01" and a not in "01" and st not in "01"


def test_the_hero_is_not_named_first_twice_running(masks_game: Game) -> None:
    pack = masks_game.pack
    move = next(m for m in pack.gm_moves if m.id == "inflict_condition")
    state = masks_game.state.model_copy(deep=True)
    first = [k for k, t in lines(pack, move) if t.startswith("{hero}")]
    assert first
    state.gm_lines = [f"inflict_condition:{first[0]}"]
    for salt in range(20):
        state.event_no = salt
        _key, text = choose_line(pack, state, move)
        assert not text.startswith("{hero}")


# --------------------------------------------------------------------------- validation


def broken(tmp_path: Path, extra: str) -> list[str]:
    path = tmp_path / "masks"
    shutil.copytree(ROOT / "content" / "masks", path)
    with (path / "narration.yaml").open("a", encoding="utf-8") as f:
        f.write(extra)
    with pytest.raises(ContentError) as err:
        load_pack(path)
    return [p for p in err.value.problems if "narration.yaml" in p]


def test_narration_names_unknown_gm_moves_with_their_line(tmp_path: Path) -> None:
    problems = broken(tmp_path, "\n  no_such_move:\n    act: [\"nothing happens\"]\n")
    assert len(problems) == 1, problems
    text = (tmp_path / "masks" / "narration.yaml").read_text().splitlines()
    line = next(i for i, t in enumerate(text, 1) if t.startswith("  no_such_move:"))
    assert f"narration.yaml:{line}: moves.no_such_move: unknown GM move 'no_such_move'" \
        in problems[0]


def test_narration_placeholders_are_checked_with_their_line(tmp_path: Path) -> None:
    extra = ("\n  reveal_future:\n    act:\n      - \"you see {sidekick}\"\n"
             "      - \"you see {hero:>9}\"\n")
    problems = broken(tmp_path, extra)
    assert any(".act[0]: {sidekick}: unknown placeholder" in p for p in problems), problems
    assert any(".act[1]: {hero:>9}: no conversions" in p for p in problems), problems
    assert all("narration.yaml:" in p and p.split("narration.yaml:")[1][0].isdigit()
               for p in problems)


def test_narration_threat_words_are_checked(tmp_path: Path) -> None:
    path = tmp_path / "masks"
    shutil.copytree(ROOT / "content" / "masks", path)
    text = (path / "narration.yaml").read_text()
    text = text.replace('plain: "the big score"', 'plain: "the big {hero}"')
    text = text.replace("threats:\n", "threats:\n  nope: {plain: nothing}\n", 1)
    (path / "narration.yaml").write_text(text)
    with pytest.raises(ContentError) as err:
        load_pack(path)
    problems = err.value.problems
    assert any("threats.nope: unknown threat 'nope'" in p for p in problems), problems
    assert any("threats.heist.plain: {hero}: unknown placeholder" in p for p in problems)
