"""Who does what to whom: the beat of a fiction line, and the moves it leads to (issue 26)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import campaigns
from engine.game import Game
from engine.nlp.beat import CHARACTER, HERO, SOMEONE, Beat, read_beat
from engine.prompts import MovePrompt
from engine.rules.events import Narrated

CAST = ["Augustin Ferro", "The Quiet Abbess", "Min-ji Seo", "Gravecourt"]
PARTY = [("Augustin Ferro", "adult", ""), ("The Quiet Abbess", "villain", ""),
         ("Min-ji Seo", "teammate", "")]


@pytest.fixture
def game(new_game: Callable[..., Game]) -> Game:
    return new_game(npcs=PARTY)


def moves(game: Game, text: str) -> list[str | None]:
    return [s.move for s in game.suggest(text, everything=True)]


@pytest.mark.parametrize("text", [
    "he punches me", "Gravecourt punches me so hard I go through two walls",
    "I take a hit from Gravecourt", "the blast slams into me",
    "I get thrown through a window", "The Abbess's blast throws me through the window",
    "I took a full hit and crashed into the parked cars", "I go down hard"])
def test_the_hero_receives(text: str) -> None:
    assert read_beat(text, CAST).receives


@pytest.mark.parametrize("text", [
    "I punch him", "I drive my fist into the Abbess's jaw", "punch him",
    "I tear off after the van, punching through to get at the driver",
    "I let loose every volt I got and black out the whole block",
    "I gently lift each hostage so none of them get hurt"])
def test_the_hero_deals(text: str) -> None:
    beat = read_beat(text, CAST)
    assert not beat.receives
    assert beat.actor == HERO


def test_who_acts_and_whom_it_touches() -> None:
    beat = read_beat("Gravecourt punches me", CAST)
    assert (beat.actor, beat.actor_name, beat.receives) == (CHARACTER, "Gravecourt", True)
    assert "violence" in beat.kinds
    beat = read_beat("I drive my fist into the Abbess's jaw", CAST)
    assert beat.touches == ("The Quiet Abbess",) and beat.deals_violence
    assert read_beat("the blast slams into me", CAST).actor == SOMEONE
    assert read_beat("I don't attack the Abbess", CAST).negated
    asked = read_beat("I ask Augustin straight out who owned it before me", CAST)
    assert asked.question and asked.touches == ("Augustin Ferro",)
    assert "receive" in read_beat("he punches me", CAST).describe().replace("acts on", "receive")


def test_threats_and_jibes() -> None:
    warn = read_beat("I warn the Abbess: let Min-ji go or I bring the whole ceiling down", CAST)
    assert warn.threat and "pressure" in warn.kinds
    assert warn.touches == ("The Quiet Abbess", "Min-ji Seo")
    assert read_beat("back off or i swear ill melt your drones", CAST).threat
    assert not read_beat("what's the biggest threat in this room?", CAST).threat
    jibe = read_beat("Static tells her a nun shopping at a pawnshop must be broke and boring")
    assert jibe.jibe and not jibe.threat
    assert "support" in read_beat("I hug Min-ji", CAST).kinds


def test_a_question_at_the_counter_is_not_a_blow(game: Game) -> None:
    got = moves(game, "I shoulder through the door, slam the gauntlet on the counter and ask"
                      " Augustin straight out who owned it before me")
    assert got[0] != "take_powerful_blow"


@pytest.mark.parametrize("text", [
    "I tear off after the van, punching through to get at the driver",
    "Snarling, I haul myself out of the broken glass and drive the gauntlet"
    " straight into the Abbess's jaw",
    "I drive my fist into the Abbess's jaw"])
def test_dealing_a_blow_engages(game: Game, text: str) -> None:
    assert moves(game, text)[0] == "directly_engage"


def test_a_fist_in_the_jaw_is_no_blow_taken(game: Game) -> None:
    assert "take_powerful_blow" not in moves(game, "I drive my fist into the Abbess's jaw")[:2]


@pytest.mark.parametrize("text", [
    "I warn the Abbess: let Min-ji go or I bring the whole ceiling down on your choir",
    "Static zips three laps around the Abbess, flicks her veil and tells her a nun shopping"
    " at a pawnshop must be broke as well as boring"])
def test_threats_and_taunts_provoke(game: Game, text: str) -> None:
    assert moves(game, text)[0] == "provoke"


@pytest.mark.parametrize("text", [
    "The Abbess's blast throws me through the window",
    "the blast slams into me and I get thrown across the roof"])
def test_receiving_a_blow_takes_it(game: Game, text: str) -> None:
    assert moves(game, text)[0] == "take_powerful_blow"


def test_comforting_comforts(game: Game) -> None:
    assert moves(game, "I hug Min-ji and tell her none of this is on her")[0] == \
        "comfort_support"


def test_taking_a_blow_in_someones_place_is_protecting_them() -> None:
    from engine.nlp.beat import read_beat

    cast = ["The Quiet Abbess", "Min-ji Seo"]
    shield = read_beat("I stand over Min-ji so the blow lands on me instead of her.", cast)
    assert not shield.receives and "protection" in shield.kinds
    front = read_beat("I throw myself in front of Min-ji and the blast slams into me", cast)
    assert not front.receives and "protection" in front.kinds
    hit = read_beat("The Abbess's blast throws me through the window", cast)
    assert hit.receives


def test_places_and_objects_are_read() -> None:
    rip = read_beat("Furious, I rip the silver reliquary off the Abbess's belt and smash it", CAST)
    assert rip.objects == ("the silver reliquary",) and rip.places == ()
    race = read_beat("I race to the Drowned Chapel with the gauntlet", CAST)
    assert race.places == ("the Drowned Chapel",) and race.objects == ("the gauntlet",)
    assert read_beat("we meet at Halberd Bridge at midnight", CAST).places == ("Halberd Bridge",)
    # an adverb after the noun is not part of it; a vague noun is no object
    drive = read_beat("I drive the gauntlet straight into the Abbess's jaw", CAST)
    assert drive.objects == ("the gauntlet",)
    assert read_beat("I make my way over, head down", CAST).objects == ()
    assert "at the Drowned Chapel" in race.describe()


@given(st.text(alphabet="abcdefgh ABCD',.?!", max_size=60))
def test_a_beat_survives_its_saved_form(text: str) -> None:
    beat = read_beat(text, CAST)
    assert Beat.from_dict(json.loads(json.dumps(beat.to_dict()))) == beat


def test_a_damaged_saved_beat_still_reads() -> None:
    beat = Beat.from_dict({"receives": "yes", "kinds": ["violence", 3], "touches": "Gravecourt",
                           "places": ["the docks"], "unknown": 1})
    assert beat == Beat(kinds=frozenset({"violence"}), places=("the docks",))


def test_the_reading_is_saved_with_the_fiction_and_shown(game: Game) -> None:
    game.describe("I drive my fist into the Abbess's jaw at the Drowned Chapel")
    said = [s.event for s in game.last_events if isinstance(s.event, Narrated)]
    assert said and said[0].reading is not None
    assert said[0].reading.touches == ("The Quiet Abbess",)
    assert said[0].reading.places == ("the Drowned Chapel",)
    pending = game.pending
    assert isinstance(pending, MovePrompt) and pending.reading == said[0].reading
    why = pending.suggestions[0].why
    assert "read as: you act: " in why and "violence" in why
    assert "-> The Quiet Abbess; at the Drowned Chapel" in why


def test_the_reading_survives_a_resume_and_old_lines_read_none(tmp_path: Path) -> None:
    game = campaigns.new_game(tmp_path, system="masks", name="Beats", hero_name="Nova",
                              archetype="signal_fire", npcs=[("Gravecourt", "villain", "")],
                              seed=3, campaign_id="beats")
    game.describe("Gravecourt punches me through the wall")
    cid = "beats"
    campaigns.close_game(game)
    again = campaigns.open_game(tmp_path, cid)
    try:
        pending = again.pending
        assert isinstance(pending, MovePrompt) and pending.reading is not None
        assert pending.reading.receives and pending.reading.actor_name == "Gravecourt"
    finally:
        campaigns.close_game(again)
    old = Narrated.filled({"type": "Narrated", "text": "I punch him"})
    assert Narrated(**{k: v for k, v in old.items() if k != "type"}).reading is None


def test_a_blow_driven_into_someone_strikes_and_hauling_oneself_is_no_rescue() -> None:
    line = ("Snarling, I haul myself out of the broken glass and drive the gauntlet straight"
            " into the Abbess's jaw")
    beat = read_beat(line, CAST)
    assert beat.strikes and beat.deals_violence and "protection" not in beat.kinds
    assert "protection" in read_beat("I shield Min-ji from the glass", CAST).kinds
    assert "protection" not in read_beat("I shield myself from the glass", CAST).kinds
    assert not read_beat("I drive the van into the river", CAST).strikes
    assert not read_beat("I don't drive my fist into Augustin's face", CAST).strikes
    # a thing torn apart with no place word before it is no place
    assert read_beat("I rip the tower's antenna off", CAST).places == ()


def test_blows_on_things_are_no_fight_and_a_question_to_someone_is_read() -> None:
    door = read_beat("I shoulder through the pawnshop door and ask Augustin who owned it", CAST)
    assert door.at_things and not door.deals_violence
    assert door.asks_someone
    both = read_beat("I smash through the wall and tackle the Abbess", CAST)
    assert not both.at_things and both.deals_violence
    assert read_beat("I punch him", CAST).deals_violence
    assert not read_beat("I punch him", CAST).asks_someone


def test_the_pawnshop_door_is_no_fight(game: Game) -> None:
    got = moves(game, "I shoulder through the pawnshop door and ask Augustin straight out who"
                      " owned the gauntlet before me")
    assert "directly_engage" not in got[:1] and "take_powerful_blow" not in got[:2]


def test_a_memory_is_read_as_one_and_kept_as_fiction(game: Game) -> None:
    assert read_beat("Nightjar remembers the circus fire.").recalls
    assert read_beat("I used to live two streets from this foundry").recalls
    assert not read_beat("I used the rope to climb down").recalls
    assert not read_beat("I don't remember his name, so I punch him").recalls
    assert not read_beat("I remember what Dad said and stand my ground").recalls
    assert moves(game, "Nova remembers the circus fire, years ago.")[0] is None
    assert read_beat("I stand my ground against the Abbess", CAST).objects == ("my ground",)


def test_people_not_of_the_cast_and_what_a_line_is_about() -> None:
    beat = read_beat("I listen in the taverns for talk about Silas Quill", CAST)
    assert beat.people == ("Silas Quill",) and beat.topic == "Silas Quill"
    assert beat.places == ("the taverns",)  # a place word in the plural is a place
    assert read_beat("I ask Augustin about Sister Marguerite", CAST).people == (
        "Sister Marguerite",)
    assert read_beat("Snarling, I haul myself out", CAST).people == ()
