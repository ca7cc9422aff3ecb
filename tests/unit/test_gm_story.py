"""Scenes and threats come from the story (issue 27): framing from the leads of the ledger,
no place or opening again within five scenes, villains' threats that follow their drive,
random events about what the story knows, and the Mythic-style scene test."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from engine.content.loader import load_pack
from engine.game import Game
from engine.gm import framing, scenes
from engine.journal import render_all

ROOT = Path(__file__).resolve().parents[2]
SYSTEMS = ("masks", "city-of-whispers", "mutants-and-masterminds", "panels")
PACKS = {s: load_pack(ROOT / "content" / s) for s in SYSTEMS}
MASKS = PACKS["masks"]
VILLAIN_ROLE = {"city-of-whispers": "rival"}
BYSTANDER = {"city-of-whispers": "contact"}


def masks_game(seed: int = 3) -> Game:
    return Game.new(MASKS, name="Evening", hero_name="Wren", archetype="signal_fire", seed=seed,
                    npcs=[("The Quiet Abbess", "villain", "a relic-hunting abbess"),
                          ("Min-ji Seo", "teammate", ""), ("Dani", "bystander", "")])


def first_archetype(system: str) -> str:
    return next(iter(PACKS[system].archetypes))


# ------------------------------------------------------------------ framing from the story


def test_after_a_capture_the_known_prison_is_the_next_scene() -> None:
    game = masks_game()
    game.add_thread("Rescue Min-ji Seo from whoever took them")
    game.set_whereabouts("Min-ji Seo", "held at the drowned chapel")
    props = [game.propose_scene(reroll=i) for i in range(20)]
    at_chapel = [p for p in props if p.location == "the drowned chapel"]
    assert len(at_chapel) >= 8  # the strongest lead, tried by the scene test
    for p in at_chapel:
        assert p.stakes.startswith("Rescue Min-ji Seo")
        assert "min_ji_seo" in p.present  # she is held there
        assert "Min-ji Seo" in p.opening and "the drowned chapel" in p.opening
    assert not any(p.location == "the drowned chapel" and "broken into" in p.opening
                   for p in props)


def test_a_captive_with_no_known_prison_stays_a_thread_not_a_place() -> None:
    game = masks_game()
    game.add_thread("Rescue Min-ji Seo from whoever took them")
    game.set_whereabouts("Min-ji Seo", "captured, held who knows where")
    props = [game.propose_scene(reroll=i) for i in range(20)]
    assert all("min_ji_seo" not in p.present for p in props)
    assert any(p.stakes.startswith("Rescue Min-ji Seo") for p in props)
    assert framing.where_place("captured, held who knows where") == ""
    assert framing.where_place("out of town") == ""
    assert framing.where_place("held at the drowned chapel") == "the drowned chapel"


def test_framing_does_not_repeat_a_place_or_an_opening_within_five_scenes() -> None:
    for system in SYSTEMS:
        pack = PACKS[system]
        game = Game.new(pack, name="Rounds", hero_name="Ash", archetype=first_archetype(system),
                        seed=11, npcs=[("Parveen", BYSTANDER.get(system, "bystander"), "")])
        places, openings = [game.state.scene.location], []
        for _ in range(14):
            p = game.propose_scene()
            places.append(p.location)
            openings.append(p.opening)
            game.start_scene(p.title, p.location, p.stakes, p.present, p.opening)
            game.describe("Ash looks around, taking it all in.")
        keys = [framing.place_key(x) for x in places]
        for i in range(len(keys)):
            window = keys[max(0, i - framing.FRAME_MEMORY):i]
            assert keys[i] not in window, (system, i, places[i])
        for i in range(len(openings)):
            sigs = openings[max(0, i - framing.FRAME_MEMORY + 1):i]
            assert openings[i] not in sigs, (system, openings[i])


def test_the_story_may_return_to_a_place() -> None:
    game = masks_game()
    game.set_whereabouts("Min-ji Seo", "held at the drowned chapel")
    game.add_thread("Rescue Min-ji Seo from whoever took them")
    game.start_scene("The chapel", "the drowned chapel")
    assert any(game.propose_scene(reroll=i).location == "the drowned chapel" for i in range(10))


def test_dead_and_taken_out_characters_are_never_framed() -> None:
    game = masks_game()
    game.add_hero("Cobalt", first_archetype("masks"))
    wren = game.state.hero
    wren.conditions.append("dead")  # a query's test: the state as a fallen hero leaves it
    assert framing.framed_hero(game.state).name == "Cobalt"
    for i in range(12):
        p = game.propose_scene(reroll=i)
        assert "Wren" not in p.opening
    dani = game.state.actors["dani"]
    dani.taken_out = True
    assert all("dani" not in game.propose_scene(reroll=i).present for i in range(12))


def test_places_read_as_phrases() -> None:
    assert framing.place_phrase("a suspension bridge in a thunderstorm") == "the suspension bridge"
    assert framing.place_phrase("the harbour container yard at night") == \
        "the harbour container yard"
    assert framing.place_phrase("a high school gym after the pep rally") == "the high school gym"
    assert framing.place_phrase("the lobby of City Hall") == "the lobby of City Hall"
    assert framing.place_phrase("Bellwether Square, at dusk") == "Bellwether Square"


# ------------------------------------------------------------------ the scene test


@pytest.mark.parametrize("tension, altered, interrupted", [(1, 10, 0), (5, 30, 20),
                                                           (9, 50, 40)])
def test_the_scene_test_odds_follow_the_tension(tension: int, altered: int,
                                                interrupted: int) -> None:
    odds = framing.SceneTest(10, tension, "expected").odds
    assert odds == {"expected": 100 - altered - interrupted, "altered": altered,
                    "interrupted": interrupted}
    rolls = [framing.scene_test(random.Random(i), tension) for i in range(2000)]
    share = sum(r.outcome == "interrupted" for r in rolls) / len(rolls)
    assert abs(share - interrupted / 100) < 0.04


def test_a_framed_scene_shows_its_test_and_high_tension_alters_or_interrupts_it() -> None:
    game = masks_game()
    game.add_thread("Find out what the Abbess wants with the reliquary")
    game.state.tension = 9
    props = [game.propose_scene(reroll=i) for i in range(30)]
    assert all(p.test.startswith("Scene test: d10 ") and "interrupted 40%" in p.test
               for p in props)
    assert any(": altered (" in p.test and "Altered: " in p.stakes for p in props)
    assert any(": interrupted (" in p.test and p.stakes.startswith("Interrupted: ")
               for p in props)
    game.state.tension = 1
    calm = [game.propose_scene(reroll=i) for i in range(30)]
    assert sum(": expected (" in p.test for p in calm) >= 24


# ------------------------------------------------------------------ threats follow drives


def test_a_relic_hunting_villain_hunts_relics_in_every_system() -> None:
    for system in SYSTEMS:
        pack = PACKS[system]
        role = VILLAIN_ROLE.get(system, "villain")
        game = Game.new(pack, name="Relics", hero_name="Ash", archetype=first_archetype(system),
                        seed=5, npcs=[("The Quiet Abbess", role, "a relic-hunting abbess")])
        threat = next(iter(game.state.threats.values()))
        tdef = next(t for t in pack.gm.threats if t.id == threat.id)
        assert "relic" in tdef.drives, system
        text = " ".join([*threat.steps, threat.doom]).lower()
        assert "vault" not in text and "blueprints" not in text, system
        assert any(w in text for w in ("relic", "reliquary", "bones", "crypt")), system


def test_each_drive_gets_its_own_threat() -> None:
    for note, want in [("wants revenge on Wren", "grudge"), ("a bank robber", "heist"),
                       ("a crime boss", "takeover"), ("a cult leader who recruits kids",
                                                      "the_flock")]:
        game = Game.new(MASKS, name="Drives", hero_name="Wren", archetype="signal_fire",
                        seed=2, npcs=[("Vesper", "villain", note)])
        assert next(iter(game.state.threats)) == want, note


# ------------------------------------------------------------------ random events


def test_every_random_event_focus_is_understood() -> None:
    for system in SYSTEMS:
        for e in PACKS[system].gm.random_events:
            assert scenes.focus_kind(e.text), (system, e.text)


def test_a_random_event_names_a_known_thread_or_character_never_an_unknown_place() -> None:
    game = masks_game()
    game.add_thread("Rescue Min-ji Seo from whoever took them")
    known = ({t.text for t in game.state.threads} | {a.name for a in game.state.actors.values()}
             | {framing.place_phrase(game.state.scene.location)})
    subjects = {e.text for e in MASKS.tables["oracle_subjects"].entries}
    for i in range(60):
        step = scenes.random_event(MASKS, game.state, f"test:{i}")
        event = step.events[0]
        kind = scenes.focus_kind(event.focus)  # type: ignore[attr-defined]
        if kind == "new":
            assert event.about == ""  # type: ignore[attr-defined]
            continue
        about = event.about  # type: ignore[attr-defined]
        assert about == event.subject  # type: ignore[attr-defined]
        assert about in known or kind == "threat", (event.focus, about)  # type: ignore[attr-defined]
        assert about not in subjects


def test_a_random_event_reads_once_in_the_journal() -> None:
    game = masks_game()
    game.add_thread("Rescue Min-ji Seo from whoever took them")
    for i in range(1, 100):
        if game.state.scene.open and any(e["type"] == "RandomEvent"
                                         for e in game.store.events()):
            break
        game.ask_oracle(f"Question {i}?", "even")
    lines = [x for x in render_all(list(game.store.events()), MASKS) if "Random event" in x]
    assert lines
    assert all(x.count("Rescue Min-ji Seo") <= 1 for x in lines)


def test_old_campaigns_have_no_framed_scenes_remembered() -> None:
    game = masks_game()
    game.state.data.pop(framing.FRAMED_KEY, None)
    assert framing.recent_frames(game.state) == []
    game.state.data[framing.FRAMED_KEY] = "garbled"
    assert framing.recent_frames(game.state) == []
    assert game.propose_scene().location


def test_a_thread_that_names_a_known_place_is_played_there_but_not_over_and_over() -> None:
    game = masks_game()
    game.add_thread("Find out who broke into the natural history museum's dinosaur hall")
    props = [game.propose_scene(reroll=i) for i in range(10)]
    there = [p for p in props if p.location == "the natural history museum's dinosaur hall"]
    assert len(there) >= 4
    assert all("dinosaur hall" in p.stakes for p in there)
    # the place of the scene under way (or of the last five): the thread is played elsewhere
    here = game.state.scene.location  # the harbour container yard at night
    game.add_thread(f"Get the people caught at {here} to safety")
    assert all(game.propose_scene(reroll=i).location != here for i in range(10))


def test_the_opening_scene_s_place_is_remembered_too() -> None:
    from engine.content.loader import get_pack
    from engine.game import Game
    from engine.gm import framing

    g = Game.new(get_pack("masks"), name="t", hero_name="Wren", archetype="signal_fire",
                 seed=5, location="the Drowned Chapel")
    assert [f["place"] for f in framing.recent_frames(g.state)] == ["the Drowned Chapel"]
    g.start_scene("Elsewhere", "Halberd Bridge")
    assert framing.place_key("the Drowned Chapel") in framing.recent_places(g.state)
