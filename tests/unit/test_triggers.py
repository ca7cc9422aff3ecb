"""Fiction to move suggestions: stems, cue matching, ranking and the reason shown."""

from __future__ import annotations

import pytest

from engine.content.loader import Pack
from engine.content.schema import Move
from engine.triggers import Matcher, stem, stems


@pytest.mark.parametrize(("word", "expected"), [
    ("punch", "punch"),
    ("punches", "punch"),
    ("punching", "punch"),
    ("punched", "punch"),
    ("running", "run"),
    ("stopped", "stop"),
    ("slammed", "slam"),
    ("flies", "fly"),
    ("flying", "fly"),
    ("knocked", "knock"),
    ("taunts", "taunt"),
    ("quickly", "quick"),
    ("shielding", "shield"),
    ("hero's", "hero"),
    ("'quick'", "quick"),
    ("cries", "cry"),
    ("ties", "tie"),
    ("is", "is"),  # too short to trim
    ("its", "its"),
    ("dies", "die"),
    ("sing", "sing"),  # keeps at least three letters
    ("bed", "bed"),
])
def test_stem(word: str, expected: str) -> None:
    assert stem(word) == expected


def test_stems_lowercase_and_split() -> None:
    assert stems("I PUNCHED the Robot's arm, twice!") == ["i", "punch", "the", "robot", "arm",
                                                          "twic"]
    # a final "e" goes, so every form of a word meets at one stem
    assert stems("charge charged charging") == ["charg", "charg", "charg"]
    assert stems("") == []
    assert stems("?!") == []


def move(id_: str, name: str, cues: list[str]) -> Move:
    return Move(id=id_, name=name, trigger="when it happens", cues=cues)


SMALL = [
    move("strike", "Strike", ["punch", "hit", "kick"]),
    move("guard", "Guard Someone", ["shield", "block the", "jump in front"]),
    move("look", "Look Around", ["look around", "scan the room"]),
    move("blow", "Take a Heavy Blow", ["knocked flying", "slammed into"]),
]


@pytest.mark.parametrize(("text", "first", "cue"), [
    ("I punch him", "strike", "punch"),
    ("I'm punching the door down", "strike", "punch"),
    ("I kicked it", "strike", "kick"),
    ("I jump in front of the kid", "guard", "jump in front"),
    ("I look around", "look", "look around"),
    ("Slowly I look around the room", "look", "look around"),
    ("I scan the room", "look", "scan the room"),
    ("It slams into me and I'm knocked flying", "blow", "knocked flying"),
    ("I take a heavy blow", "blow", "take a heavy blow"),  # the name, without stopwords
    ("I take the heavy blow", "blow", "take a heavy blow"),
])
def test_first_suggestion_and_its_cue(text: str, first: str, cue: str) -> None:
    got = Matcher(SMALL).suggest(text)
    assert (got[0].move, got[0].cue) == (first, cue)
    assert got[0].name == {m.id: m.name for m in SMALL}[first]


@pytest.mark.parametrize("text", [
    "I look quickly around",  # the words of a cue must be next to each other
    "I around look",  # and in order
    "I order a coffee",
    "",
    "the a an",
])
def test_no_suggestion(text: str) -> None:
    assert Matcher(SMALL).suggest(text) == []


def test_more_and_longer_cues_rank_higher() -> None:
    got = Matcher(SMALL).suggest("The blast slammed into me, I'm knocked flying, I punch back")
    assert [s.move for s in got] == ["blow", "strike"]
    assert got[0].score > got[1].score
    # a two-word cue outweighs a one-word cue
    one = Matcher(SMALL).suggest("hit")[0].score
    two = Matcher(SMALL).suggest("look around")[0].score
    assert two > one


def test_allowed_and_limit() -> None:
    text = "I punch, kick, shield and look around while slammed into a wall"
    matcher = Matcher(SMALL)
    assert {s.move for s in matcher.suggest(text)} == {"strike", "guard", "look", "blow"}
    assert [s.move for s in matcher.suggest(text, allowed=["guard"])] == ["guard"]
    assert len(matcher.suggest(text, limit=2)) == 2


def test_suggestion_to_dict() -> None:
    [s] = Matcher(SMALL).suggest("I punch")
    assert s.to_dict() == {"move": "strike", "name": "Strike", "score": 1.0, "cue": "punch"}


# RULES.md A.3: fiction that fits each basic move's trigger.
@pytest.mark.parametrize(("text", "expected"), [
    ("I punch the robot in the face", "directly_engage"),
    ("I charge straight at the villain", "directly_engage"),
    ("I blast through the wall with my powers", "unleash_powers"),
    ("I jump in front of the bus to shield the kids", "defend_someone"),
    ("I look around and size up the battlefield", "assess_situation"),
    ("I taunt him until he loses his temper", "provoke"),
    ("I sit with her and try to comfort her", "comfort_support"),
    ("I watch his body language: is he lying?", "pierce_the_mask"),
    ("The giant's fist sends me flying and I'm slammed into a car", "take_powerful_blow"),
    ("That's not who I am, you're wrong about me", "reject_influence"),
    ("I want to pierce the mask of this smiling mayor", "pierce_the_mask"),
    ("We enter battle as a team", "enter_battle"),
    ("Weeks later, after some downtime", "time_passes"),
])
def test_masks_fiction_suggests_the_rules_move(masks: Pack, text: str, expected: str) -> None:
    matcher = Matcher(m for m in masks.moves.values() if not m.hidden)
    got = matcher.suggest(text)
    assert got, text
    assert got[0].move == expected, [(s.move, s.cue, s.score) for s in got]
    assert got[0].cue  # the reason is shown
