"""The oracle's exact numbers, written out by hand from our rules notes, never computed by it.

The rules (README, "The oracle", and engine/gm/oracle.py's docstring): a d100 at a chance of
yes ``c`` answers yes on 1..c and no on c+1..100; the fifth of each range farthest from the
line (rounded up) is exceptional: an exceptional yes on 1..ceil(c/5), an exceptional no on the
top ceil((100-c)/5) faces. A double (11, 22 ... 99) whose digit is at most the tension adds a
twist. Seven default likelihoods, 5% to 95%; tension is 1..9 and starts at 5.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from fractions import Fraction

import pytest

from engine.content import schema as s
from engine.content.loader import Pack
from engine.dice import DiceSpec, SeededDice
from engine.gm import oracle, scenes
from engine.rules import events as ev
from engine.rules.state import CampaignState, Hero

# chance -> (exceptional yes, plain yes, plain no, exceptional no), in faces of 100,
# worked by hand: e.g. 30 -> ceil(30/5) = 6 exceptional of 30 yes; 70 no -> ceil(70/5) = 14.
BY_HAND = {
    5: (1, 4, 76, 19),
    15: (3, 12, 68, 17),
    30: (6, 24, 56, 14),
    50: (10, 40, 40, 10),
    70: (14, 56, 24, 6),
    85: (17, 68, 12, 3),
    95: (19, 76, 4, 1),
    33: (7, 26, 53, 14),  # not a multiple of 5: 33/5 = 6.6 -> 7; 67/5 = 13.4 -> 14
    1: (1, 0, 79, 20),
    99: (20, 79, 0, 1),
    100: (20, 80, 0, 0),
}

# (roll, chance) -> (answer, exceptional): the faces on each side of every threshold.
EDGES = [
    (1, 5, "yes", True), (2, 5, "yes", False), (5, 5, "yes", False), (6, 5, "no", False),
    (81, 5, "no", False), (82, 5, "no", True), (100, 5, "no", True),
    (3, 15, "yes", True), (4, 15, "yes", False), (15, 15, "yes", False), (16, 15, "no", False),
    (83, 15, "no", False), (84, 15, "no", True),
    (6, 30, "yes", True), (7, 30, "yes", False), (30, 30, "yes", False), (31, 30, "no", False),
    (86, 30, "no", False), (87, 30, "no", True),
    (10, 50, "yes", True), (11, 50, "yes", False), (50, 50, "yes", False),
    (51, 50, "no", False), (90, 50, "no", False), (91, 50, "no", True),
    (14, 70, "yes", True), (15, 70, "yes", False), (70, 70, "yes", False),
    (71, 70, "no", False), (94, 70, "no", False), (95, 70, "no", True),
    (17, 85, "yes", True), (18, 85, "yes", False), (85, 85, "yes", False),
    (86, 85, "no", False), (97, 85, "no", False), (98, 85, "no", True),
    (19, 95, "yes", True), (20, 95, "yes", False), (95, 95, "yes", False),
    (96, 95, "no", False), (99, 95, "no", False), (100, 95, "no", True),
    (7, 33, "yes", True), (8, 33, "yes", False), (33, 33, "yes", False),
    (34, 33, "no", False), (86, 33, "no", False), (87, 33, "no", True),
]


@pytest.mark.parametrize(("roll", "chance", "answer", "exceptional"), EDGES)
def test_each_threshold_face_by_face(roll: int, chance: int, answer: str,
                                     exceptional: bool) -> None:
    r = oracle.read(roll, chance, 0)
    assert (r.answer, r.exceptional) == (answer, exceptional)


@pytest.mark.parametrize("chance", sorted(BY_HAND))
def test_counts_over_all_hundred_faces_match_the_hand_table(chance: int) -> None:
    counts = Counter((r.answer, r.exceptional)
                     for r in (oracle.read(roll, chance, 5) for roll in range(1, 101)))
    ex_yes, yes, no, ex_no = BY_HAND[chance]
    assert counts[("yes", True)] == ex_yes
    assert counts[("yes", False)] == yes
    assert counts[("no", False)] == no
    assert counts[("no", True)] == ex_no


@pytest.mark.parametrize("chance", sorted(BY_HAND))
@pytest.mark.parametrize("tension", [1, 5, 9])
def test_probabilities_are_the_hand_numbers(chance: int, tension: int) -> None:
    ex_yes, yes, no, ex_no = BY_HAND[chance]
    assert oracle.probabilities(chance, tension) == {
        "exceptional yes": Fraction(ex_yes, 100), "yes": Fraction(yes, 100),
        "no": Fraction(no, 100), "exceptional no": Fraction(ex_no, 100),
        "twist": Fraction(tension, 100),  # the doubles 11 .. tension*11
    }


@pytest.mark.parametrize(
    ("roll", "tension", "twist"),
    [(11, 1, True), (11, 0, False), (22, 1, False), (22, 2, True), (55, 4, False),
     (55, 5, True), (99, 8, False), (99, 9, True), (100, 9, False), (10, 9, False),
     (12, 9, False), (1, 9, False), (44, 9, True), (33, 3, True), (33, 2, False)],
)
def test_twists_are_doubles_no_higher_than_the_tension(roll: int, tension: int,
                                                       twist: bool) -> None:
    assert oracle.read(roll, 50, tension).event is twist


def test_twist_does_not_depend_on_the_answer() -> None:
    # 11 is a plain no at chance 5, a yes at 50, an exceptional yes at 95: a twist each time.
    assert [oracle.read(11, c, 1) for c in (5, 50, 95)] == [
        oracle.Reading("no", False, True), oracle.Reading("yes", False, True),
        oracle.Reading("yes", True, True)]


def test_seeded_frequencies_match_the_hand_numbers() -> None:
    """20,000 d100 from the campaign dice land within 1.5 points of the hand numbers."""
    source = SeededDice(2024)
    n = 20_000
    counts: Counter[str] = Counter()
    for _ in range(n):
        r = oracle.read(source.roll(DiceSpec(1, 100)).total, 70, 5)
        counts[("exceptional " if r.exceptional else "") + r.answer] += 1
        counts["twist"] += r.event
    expected = {"exceptional yes": 0.14, "yes": 0.56, "no": 0.24, "exceptional no": 0.06,
                "twist": 0.05}
    for key, p in expected.items():
        assert abs(counts[key] / n - p) < 0.015, (key, counts[key] / n)


# --------------------------------------------------------------------------- levels and tables

DEFAULT_LEVELS = [("impossible", "Nearly impossible", 5), ("very_unlikely", "Very unlikely", 15),
                  ("unlikely", "Unlikely", 30), ("even", "50/50", 50), ("likely", "Likely", 70),
                  ("very_likely", "Very likely", 85), ("certain", "Nearly certain", 95)]


def _bare(pack: Pack) -> Pack:
    """``pack`` with no oracle levels and no random-event table of its own."""
    return dataclasses.replace(pack, gm=pack.gm.model_copy(update={"oracle": [],
                                                                   "random_events": []}))


def test_default_likelihoods_are_the_seven_from_5_to_95(masks: Pack) -> None:
    got = [(lv.id, lv.name, lv.chance) for lv in oracle.levels(_bare(masks))]
    assert got == DEFAULT_LEVELS
    assert oracle.level(_bare(masks), "likely").chance == 70
    with pytest.raises(KeyError):
        oracle.level(masks, "maybe")


def test_a_pack_s_own_likelihoods_replace_the_defaults(masks: Pack) -> None:
    own = [s.OracleLevel(id="coin", name="Coin flip", chance=50),
           s.OracleLevel(id="sure", name="Sure thing", chance=90)]
    pack = dataclasses.replace(masks, gm=masks.gm.model_copy(update={"oracle": own}))
    assert [(lv.id, lv.chance) for lv in oracle.levels(pack)] == [("coin", 50), ("sure", 90)]
    assert oracle.level(pack, "sure").chance == 90
    with pytest.raises(KeyError):
        oracle.level(pack, "likely")


MASKS_EVENTS = [("A threat makes its move", 3), ("Someone in the scene acts on their own", 3),
                ("A new face arrives, powered or not", 2), ("An open thread comes back", 3),
                ("Something goes wrong for the hero", 2), ("Something goes unexpectedly right", 1),
                ("The place itself changes", 2), ("The press or the public gets involved", 2)]
DEFAULT_EVENTS = [("A threat makes its move", 3), ("Someone in the scene acts on their own", 3),
                  ("A new face arrives", 2), ("An open thread comes back", 3),
                  ("Something goes wrong for the hero", 2),
                  ("Something goes unexpectedly right", 1), ("The place itself changes", 2)]


def test_the_masks_random_event_table_is_the_pack_s_own(masks: Pack) -> None:
    table = oracle.event_focus(masks)
    assert [(e.text, e.weight) for e in table] == MASKS_EVENTS  # content/masks/gm.yaml
    [effect] = table[0].effects
    assert isinstance(effect, s.Clock)
    assert effect.delta == 1
    assert all(not e.effects for e in table[1:])


def test_a_pack_without_a_table_uses_the_default_events(masks: Pack) -> None:
    assert [(e.text, e.weight) for e in oracle.event_focus(_bare(masks))] == DEFAULT_EVENTS


def _focus(pack: Pack, state: CampaignState, salt: str) -> str:
    event = scenes.random_event(pack, state, salt).events[0]
    assert isinstance(event, ev.RandomEvent)
    return event.focus


def test_twists_draw_their_focus_from_the_pack_s_table(masks: Pack) -> None:
    state = CampaignState(system="masks", name="t", seed=3, hero=Hero(name="N", stats={}))
    foci = Counter(_focus(masks, state, f"oracle:{i}") for i in range(400))
    assert set(foci) == {text for text, _ in MASKS_EVENTS}  # every entry, nothing else
    # weights 3:1 between a weight-3 focus and the weight-1 one (400 draws, loose bounds)
    assert foci["A threat makes its move"] > 2 * foci["Something goes unexpectedly right"]
    bare = Counter(_focus(_bare(masks), state, f"oracle:{i}") for i in range(200))
    assert set(bare) == {text for text, _ in DEFAULT_EVENTS}


def test_the_threat_focus_pushes_its_clock_effect(masks: Pack) -> None:
    state = CampaignState(system="masks", name="t", seed=3, hero=Hero(name="N", stats={}))
    for i in range(200):
        step = scenes.random_event(masks, state, f"oracle:{i}")
        if _focus(masks, state, f"oracle:{i}") == "A threat makes its move":
            assert len(step.push) == 1
            break
        assert step.push == []
    else:
        pytest.fail("no draw picked the threat focus")


# --------------------------------------------------------------------------- tension


@pytest.mark.parametrize(("value", "clamped"),
                         [(-3, 1), (0, 1), (1, 1), (2, 2), (5, 5), (8, 8), (9, 9), (10, 9),
                          (40, 9)])
def test_tension_stays_within_1_and_9(value: int, clamped: int) -> None:
    assert oracle.clamp_tension(value) == clamped


def test_tension_bounds_and_start() -> None:
    assert (oracle.TENSION_MIN, oracle.TENSION_MAX) == (1, 9)
    assert CampaignState(system="masks", name="t", seed=1,
                         hero=Hero(name="N", stats={})).tension == 5
