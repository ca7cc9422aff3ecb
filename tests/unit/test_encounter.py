"""The encounter model (engine/rules/encounter.py): initiative and tie-breaks, rounds, turns,
the action budget, durations, late joiners, leaving, side initiative, M&M's delay and ready,
serialisation."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from engine.errors import IllegalAction
from engine.rules import encounter as E
from engine.rules.encounter import (
    MM3E_BUDGET,
    PANELS_BUDGET,
    Advance,
    DurationKind,
    Encounter,
    Entrant,
)

MM = MM3E_BUDGET
PN = PANELS_BUDGET


def ent(actor: str, init: int, *tiebreak: int, side: str = "heroes",
        surprised: bool = False) -> Entrant:
    return Entrant(actor=actor, side=side, initiative=init, tiebreak=tiebreak,
                   surprised=surprised)


def mm(*entrants: Entrant) -> Encounter:
    return E.start("fight", entrants).encounter


def abc() -> Encounter:
    """A (20), B (15), C (10): A is acting in round 1."""
    return mm(ent("A", 20), ent("B", 15, side="villains"), ent("C", 10))


def step(enc: Encounter, n: int = 1, spec: E.BudgetSpec = MM) -> Encounter:
    for _ in range(n):
        enc = E.next_turn(enc, spec).encounter
    return enc


def turns(enc: Encounter, n: int, spec: E.BudgetSpec = MM,
          rolls: Sequence[int] | None = None) -> list[tuple[int, str | None]]:
    """(round, acting) for the acting character now and after each of ``n`` next turns."""
    seen = [(enc.round, enc.acting)]
    for _ in range(n):
        enc = E.next_turn(enc, spec, rolls).encounter
        seen.append((enc.round, enc.acting))
    return seen


# --- initiative order ------------------------------------------------------------------------


def test_order_is_highest_initiative_first() -> None:
    enc = mm(ent("slow", 3), ent("fast", 22), ent("mid", 12))
    assert enc.order == ("fast", "mid", "slow")
    assert enc.acting == "fast" and enc.round == 1 and enc.turn == 0


def test_ties_go_by_dodge_then_agility_then_awareness_then_roll_off() -> None:
    # tie-break tuples: (Dodge, Agility, Awareness, roll-off)
    enc = mm(ent("low_dodge", 15, 4, 9, 9, 20), ent("high_dodge", 15, 6, 0, 0, 1),
             ent("agility", 15, 4, 9, 9, 20), ent("agl_hi", 15, 4, 10, 0, 1),
             ent("awe", 15, 4, 9, 10, 1), ent("roll_hi", 15, 4, 9, 9, 21))
    assert enc.order == ("high_dodge", "agl_hi", "awe", "roll_hi", "low_dodge", "agility")


def test_full_ties_keep_the_order_of_entry() -> None:
    """A minion group rolled once: same initiative, same tie-breaks, listed order kept."""
    enc = mm(*(ent(f"m{i}", 12, 2, 1, side="villains") for i in range(5)), ent("hero", 12, 3))
    assert enc.order == ("hero", "m0", "m1", "m2", "m3", "m4")


def test_a_higher_initiative_beats_any_tie_break() -> None:
    assert mm(ent("a", 10, 99), ent("b", 11, 0)).order == ("b", "a")


def test_an_actor_cannot_enter_twice() -> None:
    with pytest.raises(IllegalAction):
        E.start("x", [ent("a", 1), ent("a", 2)])


# --- rounds and turns ------------------------------------------------------------------------


def test_rounds_wrap_to_the_top_of_the_order() -> None:
    assert turns(abc(), 6) == [(1, "A"), (1, "B"), (1, "C"), (2, "A"), (2, "B"), (2, "C"),
                               (3, "A")]


def test_next_turn_reports_who_ended_who_started_and_a_new_round() -> None:
    adv = E.next_turn(step(abc(), 2), MM)
    assert (adv.ended, adv.started, adv.new_round) == ("C", "A", True)
    adv = E.next_turn(abc(), MM)
    assert (adv.ended, adv.started, adv.new_round) == ("A", "B", False)


def test_each_participant_counts_its_turns() -> None:
    enc = step(abc(), 4)  # A, B, C, A, B acting
    assert {p.actor: p.turns for p in enc.participants} == {"A": 2, "B": 2, "C": 1}


def test_surprise_round_skips_the_surprised_and_limits_the_others() -> None:
    adv = E.start("ambush", [ent("hero", 18, surprised=True), ent("thug", 12, side="v"),
                             ent("boss", 15, side="v")])
    enc = adv.encounter
    assert (enc.round, enc.surprise, enc.order) == (0, True, ("boss", "thug"))
    assert enc.budget == {"standard": 1}
    assert turns(enc, 3) == [(0, "boss"), (0, "thug"), (1, "hero"), (1, "boss")]
    enc = step(enc, 2)
    assert (enc.surprise, enc.order, enc.budget) == (
        False, ("hero", "boss", "thug"), {"standard": 1, "move": 1})


def test_surprised_are_stunned_until_the_next_round() -> None:
    enc = E.start("ambush", [ent("hero", 18, surprised=True), ent("thug", 12, side="v")]
                  ).encounter
    enc, stunned = E.add_effect(enc, source="thug", target="hero", what="stunned",
                                duration="round_start", rounds=1)
    adv = E.next_turn(enc, MM)  # thug's surprise turn ends; round 1 begins with the hero
    assert adv.new_round and adv.started == "hero" and stunned in adv.expired


def test_a_surprise_round_nobody_can_act_in_passes_to_round_one() -> None:
    enc = mm(ent("a", 5, surprised=True), ent("b", 3, surprised=True, side="v"))
    assert (enc.round, enc.acting, enc.surprise) == (1, "a", False)


# --- the action budget -----------------------------------------------------------------------


def test_standard_and_move_in_either_order() -> None:
    enc = abc()
    assert E.spend(E.spend(enc, MM, "A", "standard"), MM, "A", "move").budget == {
        "standard": 0, "move": 0}
    assert E.spend(E.spend(enc, MM, "A", "move"), MM, "A", "standard").budget == {
        "standard": 0, "move": 0}


def test_a_standard_may_be_traded_for_a_second_move() -> None:
    enc = E.spend(E.spend(abc(), MM, "A", "move"), MM, "A", "move")
    assert enc.budget == {"standard": 0, "move": 0}
    with pytest.raises(IllegalAction, match="no standard action left"):
        E.spend(enc, MM, "A", "standard")


def test_a_move_is_never_traded_for_a_standard() -> None:
    enc = E.spend(abc(), MM, "A", "standard")
    with pytest.raises(IllegalAction):
        E.spend(enc, MM, "A", "standard")
    assert not E.can(enc, MM, "A", "standard") and E.can(enc, MM, "A", "move")


def test_free_actions_are_unlimited_and_reactions_work_off_turn() -> None:
    enc = E.spend(E.spend(abc(), MM, "A", "standard"), MM, "A", "move")
    for _ in range(10):
        enc = E.spend(enc, MM, "A", "free")
    assert E.spend(enc, MM, "B", "reaction") == enc
    with pytest.raises(IllegalAction, match="not 'B'"):
        E.spend(enc, MM, "B", "standard")
    with pytest.raises(IllegalAction):
        E.spend(enc, MM, "B", "free")  # a free action is taken on one's own turn


def test_surprise_round_budget_standard_or_one_move() -> None:
    enc = E.start("ambush", [ent("a", 5), ent("b", 3, surprised=True, side="v")]).encounter
    moved = E.spend(enc, MM, "a", "move")
    assert moved.budget == {"standard": 0}
    with pytest.raises(IllegalAction):
        E.spend(moved, MM, "a", "move")
    assert E.spend(enc, MM, "a", "free") == enc


def test_unused_actions_do_not_carry_over() -> None:
    enc = step(abc(), 3)  # A again, round 2, spent nothing in round 1
    assert enc.acting == "A" and enc.budget == {"standard": 1, "move": 1}


def test_allowed_lists_what_is_left_this_turn() -> None:
    enc = abc()
    assert E.allowed(enc, MM, "A") == ("standard", "move", "free", "reaction")
    assert E.allowed(E.spend(enc, MM, "A", "standard"), MM, "A") == (
        "move", "free", "reaction")
    two_moves = E.spend(E.spend(enc, MM, "A", "move"), MM, "A", "move")
    assert E.allowed(two_moves, MM, "A") == ("free", "reaction")
    assert E.allowed(enc, MM, "B") == ("reaction",)
    fight = panels_fight((6, 5))  # 1 panel each
    assert E.allowed(fight, PN, "swift") == ("free", "response", "panel")
    assert E.allowed(E.spend(fight, PN, "swift", "panel"), PN, "swift") == ("free", "response")
    assert E.allowed(fight, PN, "boss") == ("response",)


def test_restrict_and_grant() -> None:
    dazed = E.restrict(abc(), {"standard": 1})
    assert dazed.budget == {"standard": 1}
    moved = E.spend(dazed, MM, "A", "move")  # the standard may still be traded, once
    assert moved.budget == {"standard": 0}
    with pytest.raises(IllegalAction):
        E.spend(moved, MM, "A", "move")
    assert E.restrict(abc(), {}).budget == {}
    assert E.grant(abc(), "move").budget == {"standard": 1, "move": 2}


def test_spending_never_changes_the_encounter_it_is_given() -> None:
    enc = abc()
    before = enc.model_dump()
    E.spend(enc, MM, "A", "standard")
    E.add_effect(enc, source="A", target="B", what="dazed", duration="end_of_next_turn")
    E.next_turn(enc, MM)
    assert enc.model_dump() == before
    with pytest.raises(ValidationError):
        enc.round = 5  # type: ignore[misc]


# --- durations -------------------------------------------------------------------------------

# order A, B, C; the effect is made in round 1 on ``made_on``'s turn and timed by ``anchor``'s
# turns; it ends at: ("end", actor, round) the end of that turn, ("start", actor, round) the
# start of it, ("round", round) when that round begins.
DURATIONS: list[tuple[DurationKind, str, str, int, tuple[object, ...]]] = [
    ("start_of_next_turn", "A", "A", 1, ("start", "A", 2)),  # maneuver on one's own turn
    ("start_of_next_turn", "B", "A", 1, ("start", "B", 1)),  # B has not acted yet
    ("start_of_next_turn", "A", "C", 1, ("start", "A", 2)),
    ("start_of_next_turn", "C", "C", 1, ("start", "C", 2)),  # defend, last in the order
    ("end_of_turn", "A", "A", 1, ("end", "A", 1)),  # this very turn
    ("end_of_turn", "B", "A", 1, ("end", "B", 1)),
    ("end_of_turn", "A", "B", 1, ("end", "A", 2)),  # A's turn passed: its next one
    ("end_of_next_turn", "A", "A", 1, ("end", "A", 2)),  # not this one: the next
    ("end_of_next_turn", "B", "A", 1, ("end", "B", 1)),  # dazed by A's attack
    ("end_of_next_turn", "A", "C", 1, ("end", "A", 2)),
    ("end_of_next_turn", "C", "B", 1, ("end", "C", 1)),
    ("rounds", "A", "A", 1, ("start", "A", 2)),
    ("rounds", "B", "A", 2, ("start", "B", 3)),
    ("rounds", "C", "B", 3, ("start", "C", 4)),
    ("round_start", "B", "B", 1, ("round", 2)),
    ("round_start", "A", "C", 2, ("round", 3)),
]


def _expiry(duration: DurationKind, anchor: str, made_on: str,
            rounds: int) -> tuple[object, ...] | None:
    enc = abc()
    while enc.acting != made_on:
        enc = step(enc)
    enc, eff = E.add_effect(enc, source=made_on, target=anchor, what="x", duration=duration,
                            rounds=rounds)
    for _ in range(15):
        rnd = enc.round
        adv = E.next_turn(enc, MM)
        if eff in adv.expired:
            assert eff not in adv.encounter.effects
            if duration in ("end_of_turn", "end_of_next_turn"):
                return ("end", adv.ended, rnd)
            if duration == "round_start":
                assert adv.new_round
                return ("round", adv.encounter.round)
            return ("start", adv.started, adv.encounter.round)
        assert eff in adv.encounter.effects
        enc = adv.encounter
    return None


@pytest.mark.parametrize(("duration", "anchor", "made_on", "rounds", "expected"), DURATIONS)
def test_each_duration_expires_at_the_right_moment(duration: DurationKind, anchor: str,
                                                   made_on: str, rounds: int,
                                                   expected: tuple[object, ...]) -> None:
    assert _expiry(duration, anchor, made_on, rounds) == expected


def test_one_step_reports_turn_end_then_round_then_turn_start_expiries() -> None:
    enc = step(abc(), 2)  # C acting, last in round 1
    enc, end = E.add_effect(enc, source="C", target="C", what="a", duration="end_of_turn")
    enc, rnd = E.add_effect(enc, source="C", target="B", what="b", duration="round_start")
    enc, start = E.add_effect(enc, source="C", target="A", what="c",
                              duration="start_of_next_turn")
    adv = E.next_turn(enc, MM)
    assert adv.expired == (end, rnd, start) and adv.encounter.effects == ()


def test_until_recovery_lasts_until_the_ruleset_ends_it() -> None:
    assert _expiry("recovery", "B", "A", 1) is None
    enc, eff = E.add_effect(abc(), source="A", target="B", what="staggered",
                            duration="recovery")
    enc2, ended = E.end_effect(step(enc, 7), eff.id)
    assert ended == eff and eff not in enc2.effects
    with pytest.raises(IllegalAction):
        E.end_effect(enc2, eff.id)


def test_the_anchor_may_differ_from_the_target() -> None:
    """Demoralize: the target is impaired until the end of the demoralizer's next turn."""
    enc = step(abc())  # B acting
    enc, eff = E.add_effect(enc, source="B", target="A", what="impaired",
                            duration="end_of_next_turn", anchor="B")
    assert (eff.anchor, eff.target) == ("B", "A")
    assert E.effects_on(enc, "A") == (eff,)
    enc = step(enc, 3)  # C, A, B acting: still there
    assert eff in enc.effects
    adv = E.next_turn(enc, MM)
    assert adv.ended == "B" and eff in adv.expired


def test_effect_ids_count_up() -> None:
    enc, e1 = E.add_effect(abc(), source="A", target="B", what="x", duration="recovery")
    enc, e2 = E.add_effect(enc, source="A", target="C", what="y", duration="recovery")
    assert (e1.id, e2.id, enc.next_effect) == ("e1", "e2", 3)


def test_effects_need_participants_and_a_positive_round_count() -> None:
    with pytest.raises(IllegalAction):
        E.add_effect(abc(), source="A", target="Z", what="x", duration="recovery")
    with pytest.raises(IllegalAction):
        E.add_effect(abc(), source="A", target="B", what="x", duration="rounds", rounds=0)


def test_ongoing_effects_are_resisted_at_the_end_of_the_targets_turn() -> None:
    enc, blind = E.add_effect(abc(), source="A", target="B", what="blinded",
                              duration="recovery", ongoing=True, data={"dc": 16})
    enc, dazed = E.add_effect(enc, source="A", target="B", what="dazed",
                              duration="end_of_next_turn", ongoing=True)
    adv = E.next_turn(enc, MM)  # A's turn ends: nothing for A to resist
    assert adv.resist == ()
    adv = E.next_turn(adv.encounter, MM)  # B's turn ends: dazed ends first, then resist
    assert adv.ended == "B" and adv.expired == (dazed,) and adv.resist == (blind,)
    assert blind.data == {"dc": 16}
    enc = step(adv.encounter, 2)  # C, A; B acting again
    adv = E.next_turn(enc, MM)
    assert adv.resist == (blind,)
    enc, _ = E.end_effect(enc, blind.id)  # a success ends it
    assert E.next_turn(enc, MM).resist == ()


# --- late joiners ----------------------------------------------------------------------------


def test_a_late_joiner_below_the_acting_character_acts_this_round() -> None:
    enc = E.join(abc(), ent("D", 12))  # A acting; D slots between B and C
    assert enc.order == ("A", "B", "D", "C") and enc.acting == "A" and enc.turn == 0
    assert enc.participant("D").joined_round == 1
    assert [a for _, a in turns(enc, 4)] == ["A", "B", "D", "C", "A"]


def test_a_late_joiner_above_the_acting_character_waits_for_the_next_round() -> None:
    enc = step(abc())  # B acting
    enc = E.join(enc, ent("D", 25))
    assert enc.order == ("D", "A", "B", "C") and enc.acting == "B" and enc.turn == 2
    assert turns(enc, 3) == [(1, "B"), (1, "C"), (2, "D"), (2, "A")]


def test_a_joiner_tied_with_the_acting_character_is_ordered_by_tie_breaks() -> None:
    enc = mm(ent("A", 15, 3), ent("B", 10))
    late = E.join(enc, ent("D", 15, 2))
    assert late.order == ("A", "D", "B") and late.acting == "A"
    early = E.join(enc, ent("D", 15, 4))
    assert early.order == ("D", "A", "B") and early.acting == "A"
    assert E.next_turn(early, MM).encounter.acting == "B"


def test_joining_twice_is_refused() -> None:
    with pytest.raises(IllegalAction):
        E.join(abc(), ent("B", 3))


# --- leaving ---------------------------------------------------------------------------------


def abcd() -> Encounter:
    return mm(ent("A", 20), ent("B", 15), ent("C", 10), ent("D", 5))


def test_leaving_after_your_turn_keeps_the_turn_on_the_acting_character() -> None:
    enc = step(abcd())  # B acting
    adv = E.leave(enc, "A", MM)
    enc = adv.encounter
    assert (enc.acting, enc.order, enc.turn) == ("B", ("B", "C", "D"), 0)
    assert adv.ended is None and adv.started is None
    assert not enc.participant("A").present and not enc.has("A")
    assert turns(enc, 3) == [(1, "B"), (1, "C"), (1, "D"), (2, "B")]


def test_leaving_before_your_turn_skips_you() -> None:
    enc = E.leave(step(abcd()), "C", MM).encounter
    assert (enc.acting, enc.order, enc.turn) == ("B", ("A", "B", "D"), 1)
    assert turns(enc, 2) == [(1, "B"), (1, "D"), (2, "A")]


def test_leaving_on_your_own_turn_passes_it_on() -> None:
    enc = step(abcd())  # B acting
    enc, mine = E.add_effect(enc, source="B", target="B", what="defend",
                             duration="start_of_next_turn")
    enc, held = E.add_effect(enc, source="B", target="C", what="dazed",
                             duration="end_of_next_turn")
    adv = E.leave(enc, "B", MM)
    assert (adv.ended, adv.started, adv.encounter.acting) == ("B", "C", "C")
    assert adv.expired == (mine,) and adv.encounter.effects == (held,)
    assert adv.encounter.budget == {"standard": 1, "move": 1}


def test_a_leavers_round_effects_run_out_when_their_round_begins() -> None:
    enc, eff = E.add_effect(abcd(), source="A", target="C", what="blinded",
                            duration="rounds", rounds=2, anchor="A")
    enc = E.leave(enc, "A", MM).encounter
    assert eff in enc.effects
    enc = step(enc, 3)  # B, C, D; round 2 begins with B
    assert enc.round == 2 and eff in enc.effects
    adv = E.next_turn(step(enc, 2), MM)  # round 3 begins
    assert adv.new_round and eff in adv.expired


def test_the_last_in_the_order_leaving_on_its_turn_wraps_the_round() -> None:
    enc = step(abcd(), 3)  # D acting
    adv = E.leave(enc, "D", MM)
    assert adv.new_round and (adv.encounter.round, adv.encounter.acting) == (2, "A")


def test_a_leaver_can_come_back_but_acts_once_a_round() -> None:
    enc = step(abcd())  # B acting; A has acted
    enc = E.leave(enc, "A", MM).encounter
    enc = E.join(enc, ent("A", 12))  # back, slotting after B
    assert enc.order == ("B", "A", "C", "D")
    assert turns(enc, 4) == [(1, "B"), (1, "C"), (1, "D"), (2, "B"), (2, "A")]


def test_leaving_twice_or_spending_after_leaving_is_refused() -> None:
    enc = E.leave(abcd(), "C", MM).encounter
    with pytest.raises(IllegalAction):
        E.leave(enc, "C", MM)
    with pytest.raises(IllegalAction):
        E.spend(enc, MM, "C", "reaction")


def test_everyone_leaving_leaves_nobody_acting() -> None:
    enc = mm(ent("a", 3), ent("b", 2))
    enc = E.leave(enc, "b", MM).encounter
    adv = E.leave(enc, "a", MM)
    assert adv.encounter.acting is None and adv.encounter.round == 1
    back = E.join(adv.encounter, ent("b", 2))
    assert E.next_turn(back, MM).encounter.acting == "b"


# --- side initiative (the panels game) -------------------------------------------------------


@pytest.mark.parametrize(("rolls", "first", "panels", "simultaneous"), [
    ((6, 2), "heroes", {"heroes": 4, "villains": 4}, False),
    ((2, 6), "villains", {"heroes": 4, "villains": 4}, False),
    ((3, 2), "heroes", {"heroes": 1, "villains": 1}, False),  # fewer than a tie: as written
    ((1, 6), "villains", {"heroes": 5, "villains": 5}, False),
    ((4, 4), None, {"heroes": 2, "villains": 2}, True),
    ((1, 1), None, {"heroes": 2, "villains": 2}, True),
])
def test_side_initiative(rolls: tuple[int, int], first: str | None, panels: dict[str, int],
                         simultaneous: bool) -> None:
    si = E.side_initiative(("heroes", "villains"), rolls)
    assert (si.first, si.panels, si.simultaneous) == (first, panels, simultaneous)
    assert si.rolls == {"heroes": rolls[0], "villains": rolls[1]}


def test_side_initiative_winner_only_reading() -> None:
    si = E.side_initiative(("heroes", "villains"), (2, 5), loser_gets_panels=False)
    assert si.panels == {"villains": 3, "heroes": 0}
    assert E.LOSER_GETS_PANELS and E.TIE_PANELS == 2 and E.ARREARS_LIMIT == 5


@pytest.mark.parametrize(("sides", "rolls"), [
    (("h", "v"), (0, 3)), (("h", "v"), (3, 7)), (("h",), (3,)), (("h", "h"), (1, 2)),
    (("h", "v", "x"), (1, 2, 3)),
])
def test_side_initiative_refuses_bad_input(sides: tuple[str, ...],
                                           rolls: tuple[int, ...]) -> None:
    with pytest.raises(IllegalAction):
        E.side_initiative(sides, rolls)


def panels_fight(rolls: Sequence[int] = (5, 2)) -> Encounter:
    """Heroes (Agility as the order key) against villains."""
    return E.start("brawl", [
        ent("swift", 14, side="heroes"), ent("brick", 8, side="heroes"),
        ent("goon", 10, side="villains"), ent("boss", 16, side="villains")],
        mode="side", spec=PN, side_rolls=rolls).encounter


def test_side_mode_orders_the_winning_side_first_then_by_agility() -> None:
    enc = panels_fight((5, 2))
    assert enc.order == ("swift", "brick", "boss", "goon")
    assert enc.budget == {"panel": 3}
    enc = panels_fight((1, 4))
    assert enc.order == ("boss", "goon", "swift", "brick")


def test_side_mode_tie_is_one_agility_order_across_both_sides() -> None:
    enc = panels_fight((3, 3))
    assert enc.order == ("boss", "swift", "goon", "brick") and enc.budget == {"panel": 2}


def test_panels_are_the_budget_and_unused_panels_are_lost() -> None:
    enc = panels_fight((6, 3))
    enc = E.spend(enc, PN, "swift", "panel", 2)
    assert enc.budget == {"panel": 1}
    with pytest.raises(IllegalAction):
        E.spend(enc, PN, "swift", "panel", 2)
    enc = E.next_turn(enc, PN).encounter
    assert enc.acting == "brick" and enc.budget == {"panel": 3}


def test_a_new_side_round_needs_both_dice() -> None:
    enc = E.next_turn(E.next_turn(panels_fight(), PN).encounter, PN).encounter
    enc = E.next_turn(enc, PN).encounter  # goon acting, last
    assert E.needs_side_roll(enc) and not E.needs_side_roll(panels_fight())
    with pytest.raises(IllegalAction, match="d6"):
        E.next_turn(enc, PN)
    adv = E.next_turn(enc, PN, (2, 2))
    assert adv.new_round and adv.encounter.round == 2
    assert not E.needs_side_roll(adv.encounter)
    assert adv.encounter.order == ("boss", "swift", "goon", "brick")
    assert adv.encounter.budget == {"panel": 2}


def test_responses_spend_future_panels_up_to_five_in_arrears() -> None:
    enc = panels_fight((6, 1))  # 5 panels each; swift acting
    for _ in range(5):
        enc = E.spend(enc, PN, "goon", "response")
    assert enc.participant("goon").arrears == 5
    assert not E.can(enc, PN, "goon", "response")
    with pytest.raises(IllegalAction, match="arrears"):
        E.spend(enc, PN, "goon", "response")
    with pytest.raises(IllegalAction):  # not even a dodge against a thug, which costs 0
        E.spend(enc, PN, "goon", "response", cost=0)
    assert E.spend(enc, PN, "brick", "response", cost=0) == enc  # below the limit: free
    with pytest.raises(IllegalAction):
        E.spend(enc, PN, "goon", "panel")  # no action off turn


def test_arrears_are_repaid_from_the_next_turns_panels() -> None:
    enc = panels_fight((6, 1))  # 5 each
    for _ in range(3):
        enc = E.spend(enc, PN, "boss", "response")
    enc = step(enc, 2, PN)  # boss acting
    assert enc.acting == "boss" and enc.budget == {"panel": 2}
    assert enc.participant("boss").arrears == 0
    enc = panels_fight((3, 2))  # 1 each
    for _ in range(4):
        enc = E.spend(enc, PN, "goon", "response")
    enc = step(enc, 3, PN)  # goon acting, 1 panel owed 4
    assert enc.budget == {"panel": 0} and enc.participant("goon").arrears == 3


def test_a_response_on_ones_own_turn_spends_this_turns_panels_first() -> None:
    enc = panels_fight((4, 2))  # 2 each; swift acting
    enc = E.spend(enc, PN, "swift", "response", cost=3)
    assert enc.budget == {"panel": 0} and enc.participant("swift").arrears == 1


def test_a_side_joiner_needs_a_known_side_and_slots_in_by_agility() -> None:
    enc = panels_fight((5, 2))  # swift acting
    enc = E.join(enc, ent("sidekick", 12, side="heroes"))
    assert enc.order == ("swift", "sidekick", "brick", "boss", "goon")
    with pytest.raises(IllegalAction):
        E.join(enc, ent("alien", 3, side="martians"))


def test_side_mode_needs_two_sides_and_dice() -> None:
    with pytest.raises(IllegalAction):
        E.start("x", [ent("a", 1), ent("b", 2)], mode="side", spec=PN, side_rolls=(3, 4))
    with pytest.raises(IllegalAction):
        E.start("x", [ent("a", 1), ent("b", 2, side="v")], mode="side", spec=PN)


# --- delay and ready (M&M, D.6) --------------------------------------------------------------


def vs() -> Encounter:
    """A (20, heroes), B (15, villains), C (10, heroes), D (5, villains): A acting."""
    return mm(ent("A", 20), ent("B", 15, side="villains"), ent("C", 10),
              ent("D", 5, side="villains"))


def test_delay_passes_the_turn_on_and_holds_it() -> None:
    adv = E.delay(vs(), MM)
    enc = adv.encounter
    assert (adv.held, adv.ended, adv.started, enc.acting) == ("A", None, "B", "B")
    assert enc.participant("A").held == "delay" and E.holding(enc, "delay") == ("A",)
    assert enc.participant("A").turns == 1 and enc.participant("A").initiative == 20


def test_stepping_in_ends_the_acting_turn_and_moves_the_initiative_after_it() -> None:
    enc = E.delay(vs(), MM).encounter  # B acting
    enc = E.spend(enc, MM, "B", "standard")
    adv = E.step_in(enc, "A", MM)
    enc = adv.encounter
    assert (adv.ended, adv.started, adv.resumed) == ("B", "A", True)
    assert (enc.acting, enc.order, enc.turn) == ("A", ("B", "A", "C", "D"), 1)
    assert enc.budget == {"standard": 1, "move": 1}  # the normal allocation
    p = enc.participant("A")
    assert (p.held, p.initiative, p.turns) == (None, 15, 1)  # the held turn, not a new one
    assert turns(enc, 5) == [(1, "A"), (1, "C"), (1, "D"), (2, "B"), (2, "A"), (2, "C")]


def test_the_turn_ending_before_a_step_in_has_its_end_of_turn_step() -> None:
    enc = E.delay(vs(), MM).encounter  # B acting
    enc, dazed = E.add_effect(enc, source="B", target="B", what="x", duration="end_of_turn")
    enc, snare = E.add_effect(enc, source="C", target="B", what="snare",
                              duration="recovery", ongoing=True)
    adv = E.step_in(enc, "A", MM)
    assert adv.expired == (dazed,) and adv.resist == (snare,)


def test_delay_only_before_acting_and_only_if_able() -> None:
    enc = vs()
    with pytest.raises(IllegalAction, match="already acted"):
        E.delay(E.spend(enc, MM, "A", "move"), MM)
    with pytest.raises(IllegalAction, match="cannot take actions"):
        E.delay(E.restrict(enc, {}), MM)  # stunned
    assert E.delay(E.restrict(enc, {"standard": 1}), MM).held == "A"  # dazed may delay
    assert E.delay(E.spend(enc, MM, "A", "free"), MM).held == "A"  # free: not recorded
    assert E.delay(E.spend(enc, MM, "A", "reaction"), MM).held == "A"
    with pytest.raises(IllegalAction, match="side"):
        E.delay(panels_fight(), PN)
    assert E.can_delay(enc) and not E.can_delay(E.spend(enc, MM, "A", "move"))
    assert not E.can_delay(E.restrict(enc, {})) and not E.can_delay(panels_fight())


def test_a_resumed_turn_may_not_be_delayed_again_once_spent_from() -> None:
    enc = E.step_in(E.delay(vs(), MM).encounter, "A", MM).encounter
    assert not enc.acted
    assert E.spend(enc, MM, "A", "standard").acted


def test_only_a_delayed_character_steps_in() -> None:
    enc = E.delay(vs(), MM).encounter  # B acting
    for who in ("B", "C", "ghost"):
        with pytest.raises(IllegalAction):
            E.step_in(enc, who, MM)
    readied = E.ready(step(vs()), MM, "standard", "when A moves")
    with pytest.raises(IllegalAction, match="no delayed turn"):
        E.step_in(step(readied), "B", MM)
    gone = E.leave(enc, "A", MM).encounter
    with pytest.raises(IllegalAction):
        E.step_in(gone, "A", MM)


def test_delay_ends_beneficial_end_of_turn_effects_and_keeps_harmful_ones() -> None:
    enc, dazed = E.add_effect(vs(), source="A", target="B", what="dazed",
                              duration="end_of_next_turn", ongoing=True)
    enc, aid = E.add_effect(enc, source="A", target="B", what="aid",
                            duration="end_of_next_turn", beneficial=True)
    enc, snare = E.add_effect(enc, source="A", target="B", what="snare",
                              duration="recovery", ongoing=True)
    enc = step(enc)  # B acting
    enc, own = E.add_effect(enc, source="B", target="B", what="guard",
                            duration="end_of_turn")  # same side: beneficial
    enc, later = E.add_effect(enc, source="B", target="B", what="later",
                              duration="end_of_next_turn")  # not due this turn
    adv = E.delay(enc, MM)
    assert adv.expired == (aid, own) and adv.resist == ()  # resistance deferred
    assert adv.encounter.effects == (dazed, snare, later)
    adv = E.step_in(adv.encounter, "B", MM)  # after C
    assert adv.expired == () and adv.encounter.acting == "B"
    adv = E.next_turn(adv.encounter, MM)  # B takes its held turn and ends it
    assert (adv.ended, adv.expired, adv.resist) == ("B", (dazed,), (snare,))


def test_a_delayed_turn_never_taken_is_lost_when_its_place_comes_round() -> None:
    enc, dazed = E.add_effect(vs(), source="A", target="B", what="dazed",
                              duration="end_of_next_turn")
    enc, snare = E.add_effect(enc, source="A", target="B", what="snare",
                              duration="recovery", ongoing=True)
    enc = E.delay(step(enc), MM).encounter  # B delays; C acting
    enc = step(enc, 2)  # D, then round 2: A acting; B still holds
    assert (enc.round, enc.acting, E.holding(enc, "delay")) == (2, "A", ("B",))
    adv = E.next_turn(enc, MM)
    enc = adv.encounter
    assert (adv.ended, adv.started, adv.lost, adv.resumed) == ("A", "B", ("B",), False)
    assert adv.expired == (dazed,) and adv.resist == (snare,)  # postponed, not skipped
    p = enc.participant("B")
    assert (p.held, p.initiative, p.turns, p.last_round) == (None, 15, 2, 2)
    assert enc.order == ("A", "B", "C", "D")  # its initiative remains where it is


def test_a_delayed_turn_at_the_top_of_the_order_is_lost_as_the_round_begins() -> None:
    enc = E.delay(vs(), MM).encounter  # A delays
    adv = E.next_turn(step(enc, 2), MM)  # B, C, D; round 2
    assert (adv.new_round, adv.started, adv.lost) == (True, "A", ("A",))
    assert adv.encounter.budget == {"standard": 1, "move": 1}


def test_stepping_in_after_the_last_in_the_order_acts_at_the_end_of_the_round() -> None:
    enc = step(E.delay(vs(), MM).encounter, 2)  # D acting
    adv = E.step_in(enc, "A", MM)
    assert (adv.encounter.round, adv.encounter.order) == (1, ("B", "C", "D", "A"))
    assert turns(adv.encounter, 4) == [(1, "A"), (2, "B"), (2, "C"), (2, "D"), (2, "A")]


def test_stepping_in_the_next_round_before_ones_place_is_that_rounds_turn() -> None:
    enc = step(vs(), 3)  # D acting, last
    adv = E.delay(enc, MM)
    assert (adv.new_round, adv.started) == (True, "A")
    adv = E.step_in(adv.encounter, "D", MM)  # after A, in round 2
    enc = adv.encounter
    assert (enc.round, enc.order, enc.participant("D").turns) == (2, ("A", "D", "B", "C"), 1)
    assert turns(enc, 4) == [(2, "D"), (2, "B"), (2, "C"), (3, "A"), (3, "D")]


def test_a_round_effect_due_ends_when_the_held_turn_is_taken_that_round() -> None:
    enc = step(vs(), 3)  # D acting, last
    enc, rage = E.add_effect(enc, source="D", target="D", what="rage", duration="rounds")
    enc, guard = E.add_effect(enc, source="D", target="D", what="guard",
                              duration="start_of_next_turn")
    adv = E.delay(enc, MM)  # round 2, A acting: D's round effect is due in round 2
    assert rage in adv.encounter.effects and guard in adv.encounter.effects
    enc, dazed = E.add_effect(adv.encounter, source="A", target="A", what="x",
                              duration="end_of_turn")
    adv = E.step_in(enc, "D", MM)
    assert adv.expired == (dazed, rage) and guard in adv.encounter.effects
    nxt = E.next_turn(step(adv.encounter, 3), MM)  # B, C, A; D's next turn
    assert (nxt.started, nxt.expired) == ("D", (guard,))


def test_two_delayers_step_in_one_after_the_other() -> None:
    enc = E.delay(E.delay(vs(), MM).encounter, MM).encounter  # A, B delay; C acting
    enc = E.step_in(enc, "B", MM).encounter
    enc = E.step_in(enc, "A", MM).encounter
    assert (enc.acting, enc.order) == ("A", ("C", "B", "A", "D"))
    assert turns(enc, 4) == [(1, "A"), (1, "D"), (2, "C"), (2, "B"), (2, "A")]


def test_stepping_in_among_full_ties_takes_the_place_just_after() -> None:
    enc = mm(ent("hero", 20), *(ent(f"m{i}", 12, 2, side="v") for i in range(3)))
    enc = E.delay(enc, MM).encounter  # m0 acting
    enc = E.step_in(enc, "hero", MM).encounter
    assert enc.order == ("m0", "hero", "m1", "m2")
    assert enc.participant("hero").tiebreak == (2,)
    assert turns(enc, 4)[1:] == [(1, "m1"), (1, "m2"), (2, "m0"), (2, "hero")]


def test_a_lone_delayer_loses_its_turn_at_once() -> None:
    adv = E.delay(mm(ent("solo", 9)), MM)
    assert (adv.held, adv.new_round, adv.started, adv.lost) == ("solo", True, "solo",
                                                                ("solo",))


def test_ready_costs_a_standard_and_the_turn_goes_on() -> None:
    enc = E.ready(vs(), MM, "standard", "  when B moves ")
    assert enc.acting == "A" and enc.budget == {"standard": 0, "move": 1}
    p = enc.participant("A")
    assert (p.held, p.readied, p.trigger) == ("ready", "standard", "when B moves")
    assert E.holding(enc, "ready") == ("A",) and E.READY_COST == "standard"
    assert E.spend(enc, MM, "A", "move").budget == {"standard": 0, "move": 0}
    assert E.ready(vs(), MM, "move", "x").participant("A").readied == "move"
    assert E.ready(vs(), MM, "free", "x").participant("A").readied == "free"


def test_ready_refusals() -> None:
    enc = vs()
    with pytest.raises(IllegalAction, match="cannot be readied"):
        E.ready(enc, MM, "reaction", "when hit")
    with pytest.raises(IllegalAction, match="trigger"):
        E.ready(enc, MM, "standard", "  ")
    with pytest.raises(IllegalAction, match="no standard"):
        E.ready(E.spend(enc, MM, "A", "standard"), MM, "move", "x")
    with pytest.raises(IllegalAction, match="no standard"):  # two moves used the standard
        E.ready(E.spend(E.spend(enc, MM, "A", "move"), MM, "A", "move"), MM, "free", "x")
    with pytest.raises(IllegalAction, match="side"):
        E.ready(panels_fight(), PN, "panel", "x")
    readied = E.ready(enc, MM, "standard", "x")
    with pytest.raises(IllegalAction, match="own turn"):
        E.take_ready(readied, "A")
    with pytest.raises(IllegalAction, match="no readied"):
        E.take_ready(step(readied), "C")


def test_ready_forfeits_a_delay() -> None:
    with pytest.raises(IllegalAction, match="already acted"):
        E.delay(E.ready(vs(), MM, "move", "x"), MM)
    assert not E.can_delay(E.ready(vs(), MM, "move", "x"))


def test_a_readied_action_moves_its_taker_just_before_the_acting_character() -> None:
    enc = step(E.ready(vs(), MM, "standard", "when C attacks"), 2)  # C acting
    enc = E.spend(enc, MM, "C", "move")
    taken = E.take_ready(enc, "A").encounter
    assert (taken.acting, taken.order, taken.turn) == ("C", ("B", "A", "C", "D"), 2)
    assert taken.budget == enc.budget  # the acting character keeps its turn
    p = taken.participant("A")
    assert (p.held, p.readied, p.trigger, p.initiative, p.turns) == (None, None, None, 10, 1)
    with pytest.raises(IllegalAction):
        E.take_ready(taken, "A")  # once
    assert turns(taken, 5) == [(1, "C"), (1, "D"), (2, "B"), (2, "A"), (2, "C"), (2, "D")]


def test_a_readied_action_taken_the_next_round_replaces_that_rounds_turn() -> None:
    enc = E.ready(step(vs(), 3), MM, "move", "when A comes near")  # D readies, last
    enc = E.next_turn(enc, MM).encounter  # round 2, A acting
    enc = E.take_ready(enc, "D").encounter
    assert (enc.acting, enc.order, enc.turn) == ("A", ("D", "A", "B", "C"), 1)
    assert turns(enc, 4) == [(2, "A"), (2, "B"), (2, "C"), (3, "D"), (3, "A")]


def test_a_readied_action_replacing_a_turn_ends_the_round_effects_due() -> None:
    enc = step(vs(), 3)  # D acting, last
    enc, rage = E.add_effect(enc, source="D", target="D", what="rage", duration="rounds")
    enc = E.next_turn(E.ready(enc, MM, "standard", "x"), MM).encounter  # round 2, A
    adv = E.take_ready(enc, "D")
    assert (adv.expired, adv.ended, adv.started) == ((rage,), None, None)
    enc, own = E.add_effect(vs(), source="A", target="A", what="rage", duration="rounds")
    adv = E.take_ready(step(E.ready(enc, MM, "move", "x")), "A")  # same round, B acting
    assert adv.expired == () and own in adv.encounter.effects


def test_an_unused_readied_action_is_lost_when_the_next_turn_begins() -> None:
    enc = E.ready(vs(), MM, "standard", "if B flees")
    adv = E.next_turn(step(enc, 3), MM)  # B, C, D; round 2, A's turn
    p = adv.encounter.participant("A")
    assert (adv.started, adv.lost, adv.expired, adv.resist) == ("A", ("A",), (), ())
    assert (p.held, p.readied, p.trigger, p.initiative) == (None, None, None, 20)
    assert adv.encounter.budget == {"standard": 1, "move": 1}
    again = E.ready(adv.encounter, MM, "standard", "if B flees")  # may ready again
    assert again.participant("A").held == "ready"


def test_delay_and_ready_never_change_their_argument() -> None:
    enc = vs()
    before = enc.model_dump()
    E.delay(enc, MM)
    E.ready(enc, MM, "move", "x")
    assert enc.model_dump() == before
    held = E.delay(enc, MM).encounter
    dumped = held.model_dump()
    E.step_in(held, "A", MM)
    assert held.model_dump() == dumped
    ready = step(E.ready(enc, MM, "move", "x"))
    dumped = ready.model_dump()
    E.take_ready(ready, "A")
    assert ready.model_dump() == dumped


def test_serialisation_round_trips_mid_delay_and_mid_ready() -> None:
    enc = E.ready(step(vs()), MM, "standard", "when A moves")  # B readies
    enc = step(enc)  # C acting
    enc, _ = E.add_effect(enc, source="A", target="C", what="dazed",
                          duration="end_of_next_turn", ongoing=True)
    enc = E.delay(enc, MM).encounter  # C delays; D acting
    assert (E.holding(enc, "delay"), E.holding(enc, "ready")) == (("C",), ("B",))
    for back in (Encounter.model_validate(enc.model_dump(mode="json")),
                 Encounter.model_validate_json(enc.model_dump_json())):
        assert back == enc
        assert E.step_in(back, "C", MM) == E.step_in(enc, "C", MM)
        a, b = E.next_turn(enc, MM).encounter, E.next_turn(back, MM).encounter  # A, rnd 2
        assert E.take_ready(a, "B") == E.take_ready(b, "B")
        for _ in range(5):
            adv_a, adv_b = E.next_turn(a, MM), E.next_turn(b, MM)
            assert adv_a == adv_b
            a, b = adv_a.encounter, adv_b.encounter
    adv = E.delay(step(vs()), MM)
    assert Advance.model_validate_json(adv.model_dump_json()) == adv


def test_an_older_save_without_the_new_fields_still_loads() -> None:
    data = abc().model_dump(mode="json")
    data.pop("acted", None)  # saves leave out what is at its default anyway
    for p in data["participants"]:
        for key in ("held", "readied", "trigger"):
            p.pop(key, None)
    assert Encounter.model_validate(data) == abc()


# --- serialisation ---------------------------------------------------------------------------


def midturn() -> Encounter:
    enc = E.start("fight", [ent("A", 20, 3, 2), ent("B", 15, side="villains"),
                            ent("C", 10, surprised=True)]).encounter
    enc = step(enc, 2)  # surprise round: A, B; round 1, A acting
    enc = E.spend(enc, MM, "A", "move")
    enc, _ = E.add_effect(enc, source="A", target="B", what="dazed",
                          duration="end_of_next_turn", ongoing=True, data={"rank": 8})
    enc, _ = E.add_effect(enc, source="A", target="A", what="all_out", duration="rounds",
                          rounds=2)
    return E.join(enc, ent("D", 12, side="villains"))


def test_serialisation_round_trips_mid_turn() -> None:
    enc = midturn()
    assert enc.acting == "A" and enc.budget == {"standard": 1, "move": 0}
    for dumped in (Encounter.model_validate(enc.model_dump(mode="json")),
                   Encounter.model_validate_json(enc.model_dump_json())):
        assert dumped == enc
        # the resumed encounter goes on exactly like the original
        a, b = enc, dumped
        for _ in range(6):
            adv_a, adv_b = E.next_turn(a, MM), E.next_turn(b, MM)
            assert adv_a == adv_b
            a, b = adv_a.encounter, adv_b.encounter


def test_serialisation_round_trips_a_side_encounter_and_an_advance() -> None:
    enc = E.spend(panels_fight((6, 4)), PN, "goon", "response")
    assert Encounter.model_validate(enc.model_dump(mode="json")) == enc
    adv = E.next_turn(enc, PN)
    assert Advance.model_validate_json(adv.model_dump_json()) == adv


def test_a_save_with_unknown_keys_is_refused() -> None:
    data = abc().model_dump(mode="json")
    data["initiative_tracker"] = 1
    with pytest.raises(ValidationError):
        Encounter.model_validate(data)


# --- properties ------------------------------------------------------------------------------

_entrants = st.lists(
    st.tuples(st.integers(-5, 35), st.lists(st.integers(-2, 12), max_size=3),
              st.booleans()),
    min_size=1, max_size=8)


@settings(max_examples=150, deadline=None)
@given(_entrants)
def test_every_present_participant_acts_once_a_round_in_rank_order(
        rows: list[tuple[int, list[int], bool]]) -> None:
    ents = [Entrant(actor=f"a{i}", side="hv"[i % 2], initiative=ini, tiebreak=tuple(tb))
            for i, (ini, tb, _) in enumerate(rows)]
    enc = E.start("p", ents).encounter
    rank = {e.actor: (e.initiative, e.tiebreak, -i) for i, e in enumerate(ents)}
    for rnd in (1, 2, 3):
        seen = []
        while enc.round == rnd:
            seen.append(enc.acting)
            enc = E.next_turn(enc, MM).encounter
        assert sorted(seen) == sorted(e.actor for e in ents)  # each once
        # higher initiative first, then the higher tie-break tuple, then the order of entry
        assert all(rank[a] > rank[b] for a, b in pairwise(seen))


_ops = st.lists(st.tuples(st.sampled_from(["next", "next", "spend", "spend", "join", "leave"]),
                          st.integers(0, 40), st.integers(0, 40)), min_size=1, max_size=60)
_KINDS = ["standard", "move", "free", "panel", "reaction", "response"]


@settings(max_examples=150, deadline=None)
@given(rows=_entrants, ops=_ops, side=st.booleans(),
       rolls=st.tuples(st.integers(1, 6), st.integers(1, 6)))
def test_one_turn_a_round_and_budgets_never_negative(
        rows: list[tuple[int, list[int], bool]], ops: list[tuple[str, int, int]],
        side: bool, rolls: tuple[int, int]) -> None:
    """Random play (turns, spending, joining, leaving): nobody acts twice in a round, everyone
    present for a whole round acts in it, budgets and arrears stay in bounds, a refused action
    changes nothing, and every state round-trips."""
    spec = PN if side else MM
    ents = [Entrant(actor=f"a{i}", side="hv"[i % 2], initiative=ini, tiebreak=tuple(tb),
                    surprised=sur and not side)
            for i, (ini, tb, sur) in enumerate(rows)]
    if side and len({e.side for e in ents}) < 2:
        ents.append(Entrant(actor="extra", side="v", initiative=0))
    enc = E.start("p", ents, mode="side" if side else "character", spec=spec,
                  side_rolls=rolls).encounter
    stayed = {p.actor for p in enc.participants if p.present}
    acted: list[str] = [enc.acting] if enc.acting else []
    joined = 0
    for op, x, y in ops:
        before = enc
        d6s = (x % 6 + 1, y % 6 + 1)
        try:
            if op == "next":
                adv = E.next_turn(enc, spec, d6s)
            elif op == "spend":
                who = enc.acting if y % 2 == 0 else \
                    enc.participants[y % len(enc.participants)].actor
                if who is None:
                    continue
                adv = Advance(encounter=E.spend(enc, spec, who, _KINDS[x % 6], y % 3))
            elif op == "join":
                joined += 1
                adv = Advance(encounter=E.join(enc, Entrant(
                    actor=f"j{joined}", side="hv"[y % 2], initiative=x - 5)))
            else:
                who = enc.participants[x % len(enc.participants)].actor
                adv = E.leave(enc, who, spec, d6s)
                stayed.discard(who)
        except IllegalAction:
            assert enc == before  # a refused action changes nothing
            continue
        enc = adv.encounter
        if adv.new_round:
            assert len(acted) == len(set(acted)), f"someone acted twice: {acted}"
            skipped = {p.actor for p in enc.participants if p.surprised} \
                if before.surprise else set()
            assert stayed - skipped <= set(acted)
            stayed = {p.actor for p in enc.participants if p.present}
            acted = []
        if adv.started is not None:
            acted.append(adv.started)
        assert all(v >= 0 for v in enc.budget.values())
        assert all(0 <= p.arrears <= E.ARREARS_LIMIT for p in enc.participants)
        assert enc.acting is None or (enc.has(enc.acting)
                                      and enc.order[enc.turn] == enc.acting)
        assert len(set(enc.order)) == len(enc.order)
        assert Encounter.model_validate(enc.model_dump(mode="json")) == enc


_held_ops = st.lists(st.tuples(
    st.sampled_from(["next", "next", "spend", "delay", "delay", "step_in", "step_in", "ready",
                     "take_ready", "join", "leave"]),
    st.integers(0, 40), st.integers(0, 40)), min_size=1, max_size=80)


@settings(max_examples=200, deadline=None)
@given(rows=_entrants, ops=_held_ops)
def test_delays_and_readies_never_give_two_turns_a_round(
        rows: list[tuple[int, list[int], bool]], ops: list[tuple[str, int, int]]) -> None:
    """Random M&M play with delays, step-ins, readied actions, joins and leaves: every present
    participant takes at most one turn a round (a delayed turn counts where it is taken; a
    readied action taken before one's place replaces the turn), everyone present all round
    takes a turn, holds a delay or reacts, no held turn outlives its place in the next round,
    a refused action changes nothing, and every state round-trips."""
    ents = [Entrant(actor=f"a{i}", side="hv"[i % 2], initiative=ini, tiebreak=tuple(tb),
                    surprised=sur) for i, (ini, tb, sur) in enumerate(rows)]
    enc = E.start("p", ents).encounter
    stayed = {p.actor for p in enc.participants if p.present}
    took: list[str] = [enc.acting] if enc.acting else []  # turns taken this round
    excused: set[str] = set()  # held a delay or took a readied action this round
    replaced: set[str] = set()  # took a readied action before its turn this round
    joined = 0
    for op, x, y in ops:
        before = enc
        who = enc.participants[x % len(enc.participants)].actor
        try:
            if op == "next":
                adv = E.next_turn(enc, MM)
            elif op == "spend":
                if enc.acting is None:
                    continue
                adv = Advance(encounter=E.spend(enc, MM, enc.acting, _KINDS[y % 6]))
            elif op == "delay":
                adv = E.delay(enc, MM)
            elif op == "step_in":
                adv = E.step_in(enc, who, MM)
            elif op == "ready":
                adv = Advance(encounter=E.ready(enc, MM, ("standard", "move", "free")[y % 3],
                                                "when something happens"))
            elif op == "take_ready":
                adv = E.take_ready(enc, who)
                excused.add(who)
                if who not in took:
                    replaced.add(who)
            elif op == "join":
                joined += 1
                adv = Advance(encounter=E.join(enc, Entrant(
                    actor=f"j{joined}", side="hv"[y % 2], initiative=x - 5)))
            else:
                adv = E.leave(enc, who, MM)
                stayed.discard(who)
        except IllegalAction:
            assert enc == before  # a refused action changes nothing
            assert op != "delay" or not E.can_delay(enc)
            continue
        assert op != "delay" or E.can_delay(before)
        enc = adv.encounter
        if adv.held is not None:  # it did not take the turn it started
            took.remove(adv.held)
            excused.add(adv.held)
        if adv.new_round:
            assert len(took) == len(set(took)), f"someone took two turns: {took}"
            skipped = {p.actor for p in enc.participants if p.surprised} \
                if before.surprise else set()
            assert stayed - skipped <= set(took) | excused
            stayed = {p.actor for p in enc.participants if p.present}
            took, excused, replaced = [], set(), set()
        if adv.started is not None:
            assert adv.started not in took and adv.started not in replaced, (
                f"{adv.started} acts twice in round {enc.round}")
            took.append(adv.started)
        for p in enc.participants:
            if p.present and p.held is not None:
                assert p.actor != enc.acting or p.held == "ready"  # readied this turn
                assert p.last_round == enc.round or (
                    p.last_round == enc.round - 1 and p.actor in enc.order[enc.turn + 1:])
        assert all(v >= 0 for v in enc.budget.values())
        assert enc.acting is None or (enc.has(enc.acting)
                                      and enc.order[enc.turn] == enc.acting)
        assert len(set(enc.order)) == len(enc.order)
        assert Encounter.model_validate(enc.model_dump(mode="json")) == enc
