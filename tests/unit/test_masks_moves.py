"""Every Masks move, band by band, with entered dice; and the Masks rules around the moves.

Expected values come from RULES.md section A (the seeds), not from the content files: which
Label a move rolls, its bands (6- / 7-9 / 10+), how many options each band picks, what each
option does, the [-3, +4] clamp, the -2 condition penalties, the Label bounds and Influence.

The default hero (conftest ``FLAT``) has Danger +1, Freak +1, Savior +1, Superior 0 and
Mundane 0, and the Team pool starts at 1 (the start-of-session +1). The dice below are picked
so that spending one Team could not change the band, so no "change the roll?" step appears
unless a test wants it: [1, 2] always misses, [3, 4] is a weak hit (7 or 8), [6, 5] a strong hit.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from engine.content.loader import Pack
from engine.dice import DiceSpec
from engine.errors import IllegalAction
from engine.game import Game
from engine.odds import band_odds, percent
from engine.rules import events as ev
from engine.systems.masks.rules import InfluenceChanged, barred, hero_over, over_hero

NewGame = Callable[..., Game]

MISS, WEAK, STRONG = [1, 2], [3, 4], [6, 5]

# RULES.md A.3 / A.4: the Label each rolled move adds ("none" = +0, "conditions" = count).
ROLLS_WITH = {
    "directly_engage": "danger",
    "unleash_powers": "freak",
    "defend_someone": "savior",
    "assess_situation": "superior",
    "provoke": "superior",
    "comfort_support": "mundane",
    "pierce_the_mask": "mundane",
    "take_powerful_blow": "conditions",
    "wield_powers": "freak",
    "overwhelm_foe": "danger",
    "persuade_interests": "superior",
    "empathize": "mundane",
    "stand_up": "savior",
    "reject_influence": "none",
}
ADULT = {"wield_powers", "overwhelm_foe", "persuade_interests", "empathize", "stand_up"}
NO_ROLL = {"take_advantage_influence", "give_influence", "accept_influence", "start_of_session",
           "end_of_session", "enter_battle", "act_selfishly", "time_passes", "moment_of_truth"}
# RULES.md A.5: each condition's -2 applies to exactly these moves.
PENALISES = {
    "afraid": {"directly_engage"},
    "angry": {"comfort_support", "pierce_the_mask"},
    "guilty": {"provoke", "assess_situation"},
    "hopeless": {"unleash_powers"},
    "insecure": {"defend_someone", "reject_influence"},
}
CONDITIONS = list(PENALISES)
FLAT = {"danger": 1, "freak": 1, "savior": 1, "superior": 0, "mundane": 0}


def test_every_masks_move_is_covered_here(masks: Pack) -> None:
    assert set(masks.moves) == set(ROLLS_WITH) | NO_ROLL
    for move_id, move in masks.moves.items():
        assert (move.roll is None) == (move_id in NO_ROLL), move_id


# --------------------------------------------------------------------------- helpers


def adult(game: Game, h: Any) -> Game:
    h.setup(game, ev.FlagSet(flag="adult_moves"))
    return game


def target_for(masks: Pack, move_id: str) -> str | None:
    """A non-teammate NPC the move may target (so the NPC outcomes apply)."""
    move = masks.moves[move_id]
    if move.target == "none":
        return None
    if "has_influence_over_hero" in move.target_when:
        return "Ada Vance"  # an adult: she holds Influence over the hero from the start
    for name, role in (("Vic Rook", "villain"), ("Bo", "bystander"), ("Ada Vance", "adult")):
        if not move.target_roles or role in move.target_roles:
            return name
    raise AssertionError(move_id)


def start(game: Game, move_id: str, target: str | None = None) -> None:
    game.trigger(move_id, target)
    assert game.state.flow.stage == "roll", game.pending


def options(game: Game) -> set[str]:
    return {o.id for o in game.pending.options}


def potential(game: Game) -> int:
    return game.state.hero.tracks["potential"]


def team(game: Game) -> int:
    return game.state.pools["team"]


# --------------------------------------------------------------------------- every move, every band


@pytest.mark.parametrize("move_id", sorted(ROLLS_WITH))
@pytest.mark.parametrize(("faces", "band"), [(MISS, "miss"), (WEAK, "weak_hit"),
                                             (STRONG, "strong_hit")])
def test_every_rolled_move_in_every_band(new_game: NewGame, h: Any, masks: Pack, move_id: str,
                                         faces: list[int], band: str) -> None:
    game = adult(new_game(), h)
    start(game, move_id, target_for(masks, move_id))
    events = game.roll(faces)
    assert game.state.flow.stage != "adjust"
    [rolled] = h.of(events, "Rolled")
    stat = ROLLS_WITH[move_id]
    label = 0 if stat in ("none", "conditions") else FLAT[stat]
    assert rolled["modifier"] == label
    assert rolled["total"] == sum(faces) + label
    assert rolled["band"] == band  # 6- miss, 7-9 weak hit, 10+ strong hit
    assert rolled["faces"] == faces and rolled["entered"] is True
    [reached] = h.of(events, "OutcomeReached")
    assert reached["band"] == band
    assert reached["text"] == masks.moves[move_id].outcomes[band].text
    if band == "miss":
        events += h.settle(game)  # e.g. reject Influence's miss marks a condition first
    gm = h.of(events, "GMMoveMade")
    marks = [e for e in h.of(events, "TrackChanged") if e["track"] == "potential"]
    if band == "miss":
        # every miss marks potential; every miss but take a powerful blow's gives a hard move
        assert [e["delta"] for e in marks] == [1]
        if move_id == "take_powerful_blow":
            assert gm == []
        else:
            assert [g["kind"] for g in gm] == ["hard"]
    else:
        assert marks == [] and gm == []


@pytest.mark.parametrize("move_id", sorted(ROLLS_WITH))
def test_rolled_move_preview_shows_its_label_and_exact_odds(new_game: NewGame, h: Any,
                                                            masks: Pack, move_id: str) -> None:
    game = adult(new_game(), h)
    start(game, move_id, target_for(masks, move_id))
    preview = game.pending.preview.to_dict()
    stat = ROLLS_WITH[move_id]
    label = 0 if stat in ("none", "conditions") else FLAT[stat]
    assert preview["dice"] == "2d6"
    assert preview["modifier"] == label
    expected = band_odds(DiceSpec.parse("2d6"), label, masks.bands_for(masks.moves[move_id]))
    assert preview["odds"] == {b: percent(p) for b, p in expected.items()}


# --------------------------------------------------------------------------- directly engage


def test_directly_engage_strong_hit_picks_exactly_two(new_game: NewGame, h: Any) -> None:
    game = new_game()
    start(game, "directly_engage")
    game.roll(STRONG)
    p = game.pending
    assert (p.kind, p.min, p.max) == ("choose", 2, 2)
    assert options(game) == {"resist", "take_from", "opening", "impress"}
    before = h.dump(game)
    for bad in (["resist"], ["resist", "opening", "impress"], ["resist", "resist"], []):
        with pytest.raises(IllegalAction):
            game.choose(bad)
        assert h.dump(game) == before
    events = game.choose(["resist", "opening"])
    [chosen] = h.of(events, "OptionsChosen")
    assert chosen["options"] == ["resist", "opening"]
    assert game.state.flow.stage == "fiction"


def test_directly_engage_weak_hit_picks_exactly_one(new_game: NewGame, h: Any) -> None:
    game = new_game()
    start(game, "directly_engage")
    game.roll(WEAK)
    p = game.pending
    assert (p.min, p.max) == (1, 1)
    assert options(game) == {"resist", "take_from", "opening", "impress"}
    with pytest.raises(IllegalAction, match=r"pick exactly 1 \(you picked 2\)"):
        game.choose(["resist", "impress"])
    game.choose(["impress"])
    assert game.state.flow.stage == "fiction"


def test_a_miss_marks_potential_and_the_gm_makes_a_hard_move(new_game: NewGame, h: Any) -> None:
    game = new_game()
    start(game, "directly_engage")
    events = game.roll(MISS)
    kinds = [e["type"] for e in events]
    assert kinds.index("OutcomeReached") < kinds.index("TrackChanged") < kinds.index("GMMoveMade")
    assert potential(game) == 1
    [gm] = h.of(events, "GMMoveMade")
    assert gm["kind"] == "hard" and gm["text"] and gm["reason"].startswith("after a miss")


# --------------------------------------------------------------------------- unleash your powers


def test_unleash_powers_strong_hit_just_works(new_game: NewGame, h: Any) -> None:
    game = new_game()
    start(game, "unleash_powers")
    events = game.roll(STRONG)
    assert game.state.flow.stage == "fiction"
    assert h.of(events, "ConditionMarked") == [] and h.of(events, "GMMoveMade") == []


def test_unleash_powers_weak_hit_mark_a_condition(new_game: NewGame, h: Any) -> None:
    game = new_game()
    start(game, "unleash_powers")
    game.roll(WEAK)
    assert options(game) == {"strain", "unstable"}
    assert (game.pending.min, game.pending.max) == (1, 1)
    game.choose(["strain"])
    assert game.pending.kind == "pick"
    assert options(game) == set(CONDITIONS)  # the player chooses which condition
    game.choose(["hopeless"])
    assert game.state.hero.conditions == ["hopeless"]


def test_unleash_powers_weak_hit_unstable_is_a_soft_gm_move(new_game: NewGame, h: Any) -> None:
    game = new_game()
    start(game, "unleash_powers")
    game.roll(WEAK)
    events = game.choose(["unstable"])
    assert [g["kind"] for g in h.of(events, "GMMoveMade")] == ["soft"]
    assert h.of(events, "Narrated")
    h.settle(game)
    assert game.state.flow.stage == "fiction"


# --------------------------------------------------------------------------- defend someone


@pytest.mark.parametrize("faces", [STRONG, WEAK])
def test_defend_someone_adds_team(new_game: NewGame, h: Any, faces: list[int]) -> None:
    game = new_game()
    start(game, "defend_someone", "Bo")
    game.roll(faces)
    assert options(game) == {"team", "influence", "clear"}
    assert (game.pending.min, game.pending.max) == (1, 1)
    game.choose(["team"])
    assert team(game) == 2
    if faces == WEAK:  # 7-9: then the cost, one of two
        assert options(game) == {"exposed", "escalate"}
        game.choose(["escalate"])
    assert game.state.flow.stage == "fiction"


def test_defend_someone_influence_over_the_protected(new_game: NewGame, h: Any) -> None:
    game = new_game()
    bo = h.npc(game, "Bo")
    start(game, "defend_someone", "Bo")
    game.roll(STRONG)
    events = game.choose(["influence"])
    [inf] = h.of(events, "InfluenceChanged")
    assert (inf["npc"], inf["direction"], inf["held"]) == (bo, "hero_over", True)
    assert hero_over(game.state, bo)


def test_defend_someone_clear_a_condition(new_game: NewGame, h: Any) -> None:
    game = new_game()
    h.setup(game, ev.ConditionMarked(who="hero", condition="angry"),
            ev.ConditionMarked(who="hero", condition="afraid"))
    start(game, "defend_someone", "Bo")
    game.roll(STRONG)
    game.choose(["clear"])
    assert game.pending.kind == "pick" and options(game) == {"angry", "afraid"}
    game.choose(["afraid"])
    assert game.state.hero.conditions == ["angry"]


def test_defend_someone_with_no_target_offers_no_influence(new_game: NewGame, h: Any) -> None:
    game = new_game()
    start(game, "defend_someone")
    game.roll(STRONG)
    assert options(game) == {"team", "clear"}  # nobody to gain Influence over


def test_defend_someone_against_a_teammate(new_game: NewGame, h: Any) -> None:
    game = new_game()
    start(game, "defend_someone", "Tin")
    game.declare("oppose_teammate")  # standing against a teammate is declared (issue 29)
    events = game.roll(STRONG)
    assert game.state.flow.stage == "fiction"  # -2 to the teammate: nothing to choose
    assert any("-2" in e["text"] for e in h.of(events, "Narrated"))
    assert team(game) == 1


def test_insecure_penalises_defend_someone(new_game: NewGame, h: Any) -> None:
    game = new_game()
    h.setup(game, ev.ConditionMarked(who="hero", condition="insecure"))
    start(game, "defend_someone", "Bo")
    events = game.roll([6, 4])  # 10 + Savior 1 - 2 = 9: a weak hit, not a strong one
    [rolled] = h.of(events, "Rolled")
    assert ["Insecure", -2, None] in rolled["modifiers"]
    assert (rolled["total"], rolled["band"]) == (9, "weak_hit")


# --------------------------------------------------------------------------- assess the situation


@pytest.mark.parametrize(("faces", "count"), [(STRONG, 2), (WEAK, 1)])
def test_assess_asks_questions_and_gives_ongoing(new_game: NewGame, h: Any, masks: Pack,
                                                 faces: list[int], count: int) -> None:
    game = new_game()
    start(game, "assess_situation")
    events = game.roll(faces)
    p = game.pending
    assert (p.kind, p.min, p.max) == ("questions", count, count)
    qs = masks.moves["assess_situation"].questions
    assert len(p.options) == len(qs) == 5
    with pytest.raises(IllegalAction):
        game.choose([str(i) for i in range(count + 1)])
    events = game.choose([str(i) for i in range(count)])
    events += h.settle(game)  # accept the GM's answers
    [asked] = h.of(events, "QuestionsAsked")
    assert asked["questions"] == qs[:count]
    [bonus] = h.of(events, "BonusAdded")
    # issue 28 item 4 (on purpose): the +1 counts on the moves that act on the answers only
    assert (bonus["kind"], bonus["amount"]) == ("ongoing", 1)
    assert "unleash_powers" in bonus["moves"] and "comfort_support" not in bonus["moves"]
    # +1 on every later acting roll this scene, and it is not used up
    for _ in range(2):
        start(game, "unleash_powers")
        assert game.pending.preview.to_dict()["modifier"] == 2  # Freak 1 + 1 ongoing
        h.roll(game, STRONG)
    game.end_scene()
    start(game, "unleash_powers")
    assert game.pending.preview.to_dict()["modifier"] == 1


# --------------------------------------------------------------------------- provoke


def test_provoke_npc_strong_hit_they_bite(new_game: NewGame, h: Any) -> None:
    game = new_game()
    start(game, "provoke", "Vic Rook")
    game.roll(STRONG)
    assert game.state.flow.stage == "fiction"


def test_provoke_npc_weak_hit_options(new_game: NewGame, h: Any) -> None:
    game = new_game()
    start(game, "provoke", "Vic Rook")
    game.roll(WEAK)
    # decided standing in for the GM: "GM, you choose" (gm_chooses) is on offer too
    assert options(game) == {"take_bait", "stumble", "err", "overreact", "gm_chooses"}
    assert (game.pending.min, game.pending.max) == (1, 1)


def test_provoke_overreact_gives_influence(new_game: NewGame, h: Any) -> None:
    game = new_game()
    vic = h.npc(game, "Vic Rook")
    start(game, "provoke", "Vic Rook")
    game.roll(WEAK)
    game.choose(["overreact"])
    assert hero_over(game.state, vic)
    assert not over_hero(game.state, vic)


def test_provoke_stumble_gives_forward_against_them_only(new_game: NewGame, h: Any) -> None:
    game = new_game()
    vic = h.npc(game, "Vic Rook")
    start(game, "provoke", "Vic Rook")
    game.roll(WEAK)
    events = game.choose(["stumble"])
    [bonus] = h.of(events, "BonusAdded")
    assert (bonus["kind"], bonus["amount"], bonus["target"]) == ("forward", 1, vic)
    assert game.preview("provoke", h.npc(game, "Bo")).modifier == 0  # not against Bo
    start(game, "provoke", "Vic Rook")
    assert game.pending.preview.to_dict()["modifier"] == 1
    h.roll(game, STRONG)
    assert game.state.bonuses == []  # a forward is spent on one roll


def test_provoke_teammate_strong_hit_comply_or_refuse(new_game: NewGame, h: Any) -> None:
    game = new_game()
    tin = h.npc(game, "Tin")
    start(game, "provoke", "Tin")
    game.roll(STRONG)
    assert options(game) == {"comply", "refuse"}
    game.choose(["refuse"])  # they refuse: they mark a condition
    assert game.pending.message == "Mark a condition on Tin"
    game.choose(["angry"])
    assert game.state.npcs[tin].conditions == ["angry"]
    assert game.state.hero.conditions == []
    game2 = new_game()
    start(game2, "provoke", "Tin")
    game2.roll(STRONG)
    game2.choose(["comply"])
    assert team(game2) == 2


def test_provoke_teammate_weak_hit_sets_one_hook(new_game: NewGame, h: Any) -> None:
    game = new_game()
    start(game, "provoke", "Tin")
    game.roll(WEAK)
    assert options(game) == {"reward", "sting"}
    game.choose(["reward"])
    assert options(game) == {"comply", "refuse"}
    game.choose(["comply"])
    assert team(game) == 2


def test_guilty_penalises_provoke(new_game: NewGame, h: Any) -> None:
    game = new_game()
    h.setup(game, ev.ConditionMarked(who="hero", condition="guilty"))
    start(game, "provoke", "Vic Rook")
    assert ["Guilty", -2, None] in game.pending.preview.to_dict()["modifiers"]


# --------------------------------------------------------------------------- comfort or support


def test_comfort_strong_hit_team_or_clear(new_game: NewGame, h: Any) -> None:
    game = new_game()
    h.setup(game, ev.ConditionMarked(who="hero", condition="guilty"))
    start(game, "comfort_support", "Bo")
    game.roll(STRONG)
    assert options(game) == {"team", "clear"}
    game.choose(["clear"])
    assert game.state.hero.conditions == []
    game2 = new_game()
    start(game2, "comfort_support", "Bo")
    game2.roll(STRONG)
    game2.choose(["team"])
    assert team(game2) == 2


def test_comfort_weak_hit_helps_them_only(new_game: NewGame, h: Any) -> None:
    game = new_game()
    start(game, "comfort_support", "Bo")
    events = game.roll(WEAK)
    assert game.state.flow.stage == "fiction"
    assert h.of(events, "Narrated")  # what they may take if they open up
    assert team(game) == 1


def test_comfort_needs_a_target(new_game: NewGame, h: Any) -> None:
    game = new_game()
    game.trigger("comfort_support")
    assert game.pending.kind == "target"
    assert {o.id for o in game.pending.options} == {"ada_vance", "tin", "bo"}  # no villain
    game.choose_target("Tin")
    assert game.state.flow.stage == "roll" and game.state.flow.target == "tin"


# --------------------------------------------------------------------------- pierce the mask


@pytest.mark.parametrize(("faces", "count"), [(STRONG, 3), (WEAK, 1)])
def test_pierce_the_mask_asks(new_game: NewGame, h: Any, faces: list[int], count: int) -> None:
    game = new_game()
    start(game, "pierce_the_mask", "Vic Rook")
    game.roll(faces)
    p = game.pending
    assert (p.kind, p.min, p.max, len(p.options)) == ("questions", count, count, 5)
    events = game.choose([str(i) for i in range(count)])
    assert len(h.of(events, "QuestionsAsked")[0]["questions"]) == count
    assert h.of(events, "BonusAdded") == []  # unlike assess, no +1


# --------------------------------------------------------------------------- take a powerful blow


def blow(game: Game, h: Any, conditions: list[str], faces: list[int]) -> list[dict[str, Any]]:
    if conditions:
        h.setup(game, *[ev.ConditionMarked(who="hero", condition=c) for c in conditions])
    start(game, "take_powerful_blow")
    return game.roll(faces)


def test_powerful_blow_rolls_plus_conditions_marked(new_game: NewGame, h: Any) -> None:
    game = new_game()
    events = blow(game, h, ["afraid", "angry"], [2, 2])
    [rolled] = h.of(events, "Rolled")
    assert rolled["modifiers"][0][:2] == ["conditions marked (2)", 2]
    assert rolled["total"] == 6 and rolled["inverted"] is True


def test_powerful_blow_low_total_is_good_and_marks_potential(new_game: NewGame, h: Any) -> None:
    game = new_game()
    events = blow(game, h, ["afraid", "angry"], [2, 2])  # 6: you stand strong
    assert h.of(events, "Rolled")[0]["band"] == "miss"
    assert potential(game) == 1
    assert h.of(events, "GMMoveMade") == []
    assert game.state.flow.stage == "fiction"


def test_powerful_blow_is_never_adjusted_upwards(new_game: NewGame, h: Any) -> None:
    game = new_game()
    blow(game, h, ["afraid"], [3, 2])  # 6: +1 Team would make it worse, so none is offered
    assert game.state.flow.stage == "fiction"
    assert team(game) == 1


def test_powerful_blow_weak_hit_options(new_game: NewGame, h: Any) -> None:
    game = new_game()
    blow(game, h, ["afraid"], [3, 3])  # 7
    assert options(game) == {"lash_out", "give_ground", "push_through"}
    assert (game.pending.min, game.pending.max) == (1, 1)


def test_powerful_blow_push_through_marks_two_conditions(new_game: NewGame, h: Any) -> None:
    game = new_game()
    blow(game, h, ["afraid"], [3, 3])
    game.choose(["push_through"])
    assert options(game) == {"angry", "guilty", "hopeless", "insecure"}
    game.choose(["angry"])
    assert options(game) == {"guilty", "hopeless", "insecure"}
    game.choose(["guilty"])
    assert game.state.hero.conditions == ["afraid", "angry", "guilty"]
    assert game.state.flow.stage == "fiction"


def test_powerful_blow_push_through_with_one_free_condition_takes_you_out(new_game: NewGame,
                                                                         h: Any) -> None:
    game = new_game()
    events = blow(game, h, CONDITIONS[:4], [2, 1])  # 3 + 4 = 7
    assert h.of(events, "Rolled")[0]["band"] == "weak_hit"
    events = game.choose(["push_through"])
    assert [e["condition"] for e in h.of(events, "ConditionMarked")] == ["insecure"]
    assert h.of(events, "TakenOut")[0]["out"] is True
    assert game.state.hero.taken_out


def test_powerful_blow_strong_hit_must_leave(new_game: NewGame, h: Any) -> None:
    game = new_game()
    blow(game, h, ["afraid", "angry"], [5, 5])  # 12: overwhelmed
    assert options(game) == {"must_leave", "lose_control", "two_from_list"}
    game.choose(["must_leave"])
    assert game.state.hero.taken_out


def test_powerful_blow_strong_hit_two_from_the_weak_list(new_game: NewGame, h: Any) -> None:
    game = new_game()
    blow(game, h, ["afraid", "angry"], [5, 5])
    game.choose(["two_from_list"])
    p = game.pending
    assert (p.kind, p.min, p.max) == ("choose", 2, 2)
    assert options(game) == {"lash_out", "give_ground", "push_through"}
    with pytest.raises(IllegalAction, match="only once"):
        game.choose(["push_through", "push_through"])  # two *different* results
    game.choose(["give_ground", "push_through"])
    game.choose(["guilty"])
    game.choose(["hopeless"])
    assert game.state.hero.conditions == ["afraid", "angry", "guilty", "hopeless"]
    assert game.state.flow.stage == "fiction"


def test_powerful_blow_modifier_is_clamped_at_plus_4(new_game: NewGame, h: Any) -> None:
    game = new_game()
    events = blow(game, h, CONDITIONS, [1, 1])
    [rolled] = h.of(events, "Rolled")
    assert (rolled["raw_modifier"], rolled["modifier"], rolled["total"]) == (5, 4, 6)
    assert rolled["band"] == "miss"


# --------------------------------------------------------------------------- adult moves


@pytest.mark.parametrize("move_id", sorted(ADULT))
def test_adult_moves_need_the_flag(new_game: NewGame, h: Any, masks: Pack, move_id: str
                                   ) -> None:
    game = new_game()
    before = h.dump(game)
    with pytest.raises(IllegalAction, match=r"locked \(needs adult moves\)"):
        game.trigger(move_id, target_for(masks, move_id))
    assert h.dump(game) == before
    assert move_id not in {m.id for m in game.available_moves()}
    # suggested only as a locked hint, never as a move to take (issue 26)
    assert all("locked" in s.blocked
               for s in game.suggest(" ".join(masks.moves[move_id].cues)) if s.move == move_id)


def test_adult_moves_unlock_through_advancement(new_game: NewGame, h: Any) -> None:
    # Masks core: the adult moves are an advancement open once five were taken
    game = new_game()
    h.setup(game, ev.TrackChanged(track="potential", scope="hero", delta=4, value=4),
            *[ev.AdvanceTaken(advance="plus_label", text="+1") for _ in range(5)])
    start(game, "directly_engage")
    game.roll(MISS)  # the fifth potential: take an advancement, the track empties
    assert game.pending.message == "Take an advancement"
    assert "adult_moves" in options(game)
    game.choose(["adult_moves"])
    assert "adult_moves" in game.state.hero.flags
    assert potential(game) == 0
    h.settle(game)
    start(game, "wield_powers")


@pytest.mark.parametrize(("move_id", "opts"), [
    ("wield_powers", {"seize", "create", "neutralize"}),
    ("stand_up", {"halt", "no_escape", "costly_attack"}),
])
@pytest.mark.parametrize(("faces", "count"), [(STRONG, 2), (WEAK, 1)])
def test_adult_pick_two_or_one(new_game: NewGame, h: Any, move_id: str, opts: set[str],
                               faces: list[int], count: int) -> None:
    game = adult(new_game(), h)
    start(game, move_id)
    game.roll(faces)
    assert options(game) == opts
    assert (game.pending.min, game.pending.max) == (count, count)
    game.choose(sorted(opts)[:count])
    assert game.state.flow.stage == "fiction"


@pytest.mark.parametrize(("faces", "count"), [(STRONG, 1), (WEAK, 2)])
def test_overwhelm_foe_costs(new_game: NewGame, h: Any, faces: list[int], count: int) -> None:
    # RULES A.4: the fight ends on a hit; then 10+ choose one cost, 7-9 choose two
    game = adult(new_game(), h)
    start(game, "overwhelm_foe")
    game.roll(faces)
    assert options(game) == {"blow", "too_far", "collateral"}
    assert (game.pending.min, game.pending.max) == (count, count)


def test_overwhelm_foe_blow_triggers_take_a_powerful_blow(new_game: NewGame, h: Any) -> None:
    game = adult(new_game(), h)
    start(game, "overwhelm_foe")
    game.roll(STRONG)
    events = game.choose(["blow"])
    assert [e["move"] for e in h.of(events, "MoveTriggered")] == ["take_powerful_blow"]
    assert game.state.flow.stage == "roll" and game.state.flow.move == "take_powerful_blow"
    h.roll(game, [1, 1])
    assert potential(game) == 1


def test_persuade_npc_and_teammate(new_game: NewGame, h: Any) -> None:
    game = adult(new_game(), h)
    start(game, "persuade_interests", "Vic Rook")
    game.roll(STRONG)
    assert not hero_over(game.state, "vic_rook")
    start(game, "persuade_interests", "Tin")
    game.roll(STRONG)  # a teammate who goes along: and on 10+ you gain Influence over them
    assert hero_over(game.state, "tin")
    game2 = adult(new_game(), h)
    start(game2, "persuade_interests", "Tin")
    game2.roll(WEAK)
    assert not hero_over(game2.state, "tin")


@pytest.mark.parametrize(("faces", "influence"), [(STRONG, True), (WEAK, False)])
def test_empathize(new_game: NewGame, h: Any, faces: list[int], influence: bool) -> None:
    game = adult(new_game(), h)
    start(game, "empathize", "Vic Rook")
    game.roll(faces)
    assert options(game) == {"reveal", "condition", "gm_chooses"}  # "GM, you choose" too
    game.choose(["condition"])
    game.choose(["afraid"])
    assert game.state.npcs["vic_rook"].conditions == ["afraid"]
    assert hero_over(game.state, "vic_rook") is influence


# --------------------------------------------------------------------------- influence moves


def test_reject_influence_rolls_plus_zero_and_influence_helps(new_game: NewGame, h: Any) -> None:
    game = new_game()
    start(game, "reject_influence", "Ada Vance")
    assert game.pending.preview.to_dict()["modifiers"] == [["no stat", 0, None]]
    game = new_game()
    h.setup(game, InfluenceChanged(npc="ada_vance", direction="hero_over", held=True))
    start(game, "reject_influence", "Ada Vance")
    assert game.pending.preview.to_dict()["modifier"] == 1


def test_reject_influence_strong_hit_strip_their_influence(new_game: NewGame, h: Any) -> None:
    game = new_game()
    ada = h.npc(game, "Ada Vance")
    assert over_hero(game.state, ada)  # adults start with it
    start(game, "reject_influence", "Ada Vance")
    game.roll(STRONG)
    assert options(game) == {"prove_wrong", "shift", "cancel"}
    assert (game.pending.min, game.pending.max) == (2, 2)
    events = game.choose(["cancel", "prove_wrong"])
    assert not over_hero(game.state, ada)
    [bonus] = h.of(events, "BonusAdded")
    assert (bonus["kind"], bonus["amount"], bonus["target"]) == ("forward", 1, ada)
    assert options(game) == {"clear", "potential"}
    game.choose(["potential"])
    assert potential(game) == 1


def test_reject_influence_weak_hit_shift_labels(new_game: NewGame, h: Any) -> None:
    game = new_game()
    start(game, "reject_influence", "Ada Vance")
    game.roll([3, 4])  # 7
    assert (game.pending.min, game.pending.max) == (1, 1)
    game.choose(["shift"])
    game.choose(["mundane"])
    game.choose(["danger"])
    assert game.state.hero.stats["mundane"] == 1 and game.state.hero.stats["danger"] == 0


def test_reject_influence_miss(new_game: NewGame, h: Any) -> None:
    game = new_game()
    start(game, "reject_influence", "Ada Vance")
    events = game.roll(MISS)
    assert potential(game) == 1
    assert game.pending.message == "Mark a condition"
    events = game.choose(["insecure"])
    assert game.state.hero.conditions[0] == "insecure"
    assert [g["kind"] for g in h.of(events, "GMMoveMade")] == ["hard"]


def test_insecure_penalises_reject_influence(new_game: NewGame, h: Any) -> None:
    game = new_game()
    h.setup(game, ev.ConditionMarked(who="hero", condition="insecure"))
    start(game, "reject_influence", "Ada Vance")
    assert game.pending.preview.to_dict()["modifier"] == -2


def test_take_advantage_needs_influence(new_game: NewGame, h: Any) -> None:
    game = new_game()
    before = h.dump(game)
    with pytest.raises(IllegalAction, match="no Influence over Vic Rook"):
        game.trigger("take_advantage_influence", "Vic Rook")
    assert h.dump(game) == before


@pytest.mark.parametrize("pick", ["condition", "minus_two", "plus_one"])
def test_take_advantage_surrenders_influence(new_game: NewGame, h: Any, pick: str) -> None:
    game = new_game()
    h.setup(game, InfluenceChanged(npc="vic_rook", direction="hero_over", held=True))
    events = game.trigger("take_advantage_influence", "Vic Rook")
    [inf] = h.of(events, "InfluenceChanged")
    assert (inf["direction"], inf["held"]) == ("hero_over", False)
    assert not hero_over(game.state, "vic_rook")
    assert options(game) == {"condition", "minus_two", "plus_one"}
    game.choose([pick])
    if pick == "condition":
        game.choose(["guilty"])
        assert game.state.npcs["vic_rook"].conditions == ["guilty"]
    assert game.state.flow.stage == "fiction"


def test_give_influence(new_game: NewGame, h: Any) -> None:
    game = new_game()
    events = game.trigger("give_influence", "Vic Rook")
    [inf] = h.of(events, "InfluenceChanged")
    assert (inf["npc"], inf["direction"], inf["held"]) == ("vic_rook", "over_hero", True)
    before = h.dump(game)
    with pytest.raises(IllegalAction, match="Vic Rook already has Influence over you"):
        game.trigger("give_influence", "Vic Rook")
    assert h.dump(game) == before


def test_give_influence_to_someone_barred(new_game: NewGame, h: Any) -> None:
    game = new_game()
    h.setup(game, InfluenceChanged(npc="bo", direction="over_hero", held=False,
                                      permanent=True))
    assert barred(game.state, "bo", game.state.acting)
    with pytest.raises(IllegalAction, match="lost Influence over you for good"):
        game.trigger("give_influence", "Bo")
    assert not over_hero(game.state, "bo")


def test_accept_influence_shifts_labels(new_game: NewGame, h: Any) -> None:
    game = new_game()
    game.trigger("accept_influence", "Ada Vance")
    assert game.pending.message == "Shift which label UP by one?"
    game.choose(["superior"])
    assert "superior" not in options(game)  # the other Label goes down
    events = game.choose(["freak"])
    [shift] = h.of(events, "LabelsShifted")
    assert shift["changes"] == {"superior": 1, "freak": -1}
    assert game.state.hero.stats == {**FLAT, "superior": 1, "freak": 0}


# --------------------------------------------------------------------------- session and team


def test_start_of_session_adds_team(new_game: NewGame, h: Any) -> None:
    game = new_game()
    game.trigger("start_of_session")
    assert team(game) == 2


@pytest.mark.parametrize("pick", ["grow_closer", "grow_into_image", "grow_away"])
def test_end_of_session(new_game: NewGame, h: Any, pick: str) -> None:
    game = new_game()
    game.end_session()
    assert options(game) == {"grow_closer", "grow_into_image", "grow_away"}
    game.choose([pick])
    if pick == "grow_closer":
        # give Influence to someone who lacks it (Ada, an adult, already has it)
        assert options(game) == {"vic_rook", "tin", "bo"}
        game.choose(["tin"])
        assert over_hero(game.state, "tin")
        assert options(game) == {"clear", "potential"}
        game.choose(["potential"])
        assert potential(game) == 1
    elif pick == "grow_into_image":
        game.choose(["mundane"])
        game.choose(["danger"])
        assert game.state.hero.stats["mundane"] == 1
    else:
        assert options(game) == {"ada_vance"}  # only Ada holds Influence over you
        game.choose(["ada_vance"])
        assert not over_hero(game.state, "ada_vance")
    assert game.state.flow.stage == "fiction"
    assert h.of(game.store.log, "SessionEnded")
    game.start_scene("Next session")
    assert game.state.session == 2
    assert team(game) == 2  # the new session adds one


def test_enter_battle_base_is_plus_two(new_game: NewGame, h: Any) -> None:
    game = new_game()
    game.trigger("enter_battle")
    p = game.pending
    assert (p.kind, p.min, p.max, len(p.options)) == ("battle", 0, 5, 5)
    game.choose([])
    assert team(game) == 3


@pytest.mark.parametrize(("answers", "delta"), [
    (["leader_influence"], 3),
    (["same_purpose"], 3),
    (["mistrust"], 1),
    (["off_balance"], 1),
    (["leader_influence", "same_purpose"], 4),
    (["mistrust", "off_balance"], 0),
    (["leader_influence", "same_purpose", "mistrust", "off_balance"], 2),
    (["leader_marks"], 2),  # nothing to cancel
])
def test_enter_battle_adjustments(new_game: NewGame, h: Any, answers: list[str], delta: int
                                  ) -> None:
    game = new_game()
    game.trigger("enter_battle")
    game.choose(answers)
    assert team(game) == 1 + delta
    assert game.state.hero.conditions == []


def test_enter_battle_leader_marks_a_condition_to_cancel_a_loss(new_game: NewGame, h: Any
                                                                ) -> None:
    game = new_game()
    game.trigger("enter_battle")
    game.choose(["mistrust", "off_balance", "leader_marks"])
    assert team(game) == 2  # 1 + 2 - 1 - 1 + 1 cancelled
    assert game.pending.message == "Mark a condition"
    game.choose(["insecure"])
    assert game.state.hero.conditions == ["insecure"]


def test_act_selfishly(new_game: NewGame, h: Any) -> None:
    game = new_game()
    game.trigger("act_selfishly")
    assert team(game) == 0
    game.choose(["danger"])
    game.choose(["savior"])
    assert game.state.hero.stats["danger"] == 2 and game.state.hero.stats["savior"] == 0
    game.trigger("act_selfishly")  # with an empty pool: it stays at zero
    assert team(game) == 0
    h.settle(game)
    assert team(game) == 0


@pytest.mark.parametrize("start_team", [0, 1, 5])
def test_time_passes_resets_team_to_one(new_game: NewGame, h: Any, start_team: int) -> None:
    game = new_game()
    h.setup(game, ev.TrackChanged(track="team", scope="campaign", delta=0, value=start_team))
    game.trigger("time_passes")
    assert team(game) == 1


def test_moment_of_truth_needs_its_flag_and_locks_a_label(new_game: NewGame, h: Any) -> None:
    game = new_game()
    with pytest.raises(IllegalAction, match="Moment of Truth is locked"):
        game.trigger("moment_of_truth")
    h.setup(game, ev.FlagSet(flag="moment_of_truth_unlocked"))
    game.trigger("moment_of_truth")
    assert game.pending.message == "Lock which label for good?"
    assert options(game) == set(FLAT)
    game.choose(["savior"])
    assert game.state.hero.locked == ["savior"]
    assert "moment_of_truth_unlocked" not in game.state.hero.flags
    assert "moment_of_truth_used" in game.state.hero.flags
    with pytest.raises(IllegalAction):  # used: locked again until an advancement
        game.trigger("moment_of_truth")


# --------------------------------------------------------------------------- the clamp


def test_modifier_clamped_at_plus_four(new_game: NewGame, h: Any) -> None:
    game = new_game(archetype="heir_apparent")  # Superior +2, Mundane -1
    vic = h.npc(game, "Vic Rook")
    game.trigger("accept_influence", "Ada Vance")
    game.choose(["superior"])
    game.choose(["mundane"])
    assert game.state.hero.stats["superior"] == 3
    start(game, "provoke", "Vic Rook")
    game.roll([2, 2])  # 4 + 3 = 7
    game.choose(["overreact"])  # Influence over Vic
    start(game, "provoke", "Vic Rook")
    game.roll([1, 2])  # 3 + 3 + 1 (Influence) = 7
    game.choose(["stumble"])  # +1 forward against Vic
    start(game, "provoke", "Vic Rook")
    game.spend_team()
    preview = game.pending.preview.to_dict()
    sources = {m[0]: m[1] for m in preview["modifiers"]}
    assert sources["Superior"] == 3 and sources["Team from Tin"] == 1
    assert sources["Influence over Vic Rook"] == 1
    assert any(k.startswith("+1 forward") for k in sources)
    assert (preview["raw_modifier"], preview["modifier"]) == (6, 4)
    assert preview["odds"]["strong_hit"] == percent(
        band_odds(DiceSpec.parse("2d6"), 4, game.pack.system.bands["default"])["strong_hit"])
    events = game.roll([2, 3])
    [rolled] = h.of(events, "Rolled")
    assert (rolled["total"], rolled["band"]) == (9, "weak_hit")  # 5 + 4, not 5 + 6
    assert rolled["clamp"] == [-3, 4]
    # surrendering Influence for +1 could not beat the clamp, so it is not offered
    assert game.state.flow.stage == "effects"
    assert hero_over(game.state, vic)


def test_modifier_clamped_at_minus_three(new_game: NewGame, h: Any) -> None:
    game = new_game()
    for up in ("danger", "freak"):
        game.trigger("accept_influence", "Ada Vance")
        game.choose([up])
        game.choose(["mundane"])
    assert game.state.hero.stats["mundane"] == -2
    h.setup(game, ev.ConditionMarked(who="hero", condition="angry"),
            ev.ConditionMarked(who="hero", condition="afraid"))
    start(game, "pierce_the_mask", "Vic Rook")
    preview = game.pending.preview.to_dict()
    assert [m[:2] for m in preview["modifiers"]] == [["Mundane", -2], ["Angry", -2]]
    assert (preview["raw_modifier"], preview["modifier"]) == (-4, -3)
    events = h.roll(game, [6, 4])
    [rolled] = h.of(events, "Rolled")
    assert (rolled["total"], rolled["band"]) == (7, "weak_hit")  # 10 - 3, not 10 - 4


@pytest.mark.parametrize("condition", CONDITIONS)
def test_condition_penalty_applies_exactly_to_its_moves(new_game: NewGame, h: Any, masks: Pack,
                                                        condition: str) -> None:
    game = adult(new_game(), h)
    h.setup(game, ev.ConditionMarked(who="hero", condition=condition))
    name = masks.conditions[condition].name
    for move_id in ROLLS_WITH:
        target = target_for(masks, move_id)
        tid = h.npc(game, target) if target else None
        mods = game.preview(move_id, tid).modifiers
        penalties = [m for m in mods if m[0] == name]
        if move_id in PENALISES[condition]:
            assert penalties == [[name, -2, None]], move_id
        else:
            assert penalties == [], move_id


# --------------------------------------------------------------------------- labels


def test_label_shift_past_plus_three_marks_a_condition_instead(new_game: NewGame, h: Any
                                                               ) -> None:
    game = new_game(archetype="heir_apparent")  # Superior +2
    game.trigger("accept_influence", "Ada Vance")
    game.choose(["superior"])
    game.choose(["danger"])
    assert game.state.hero.stats["superior"] == 3
    game.trigger("accept_influence", "Ada Vance")
    game.choose(["superior"])
    events = game.choose(["savior"])
    assert game.state.hero.stats["superior"] == 3  # stays
    assert game.state.hero.stats["savior"] == 0  # the other half of the shift still happens
    [marked] = h.of(events, "ConditionMarked")
    assert marked["condition"] in CONDITIONS and game.state.hero.conditions == [
        marked["condition"]]
    assert any("cannot go above +3" in e["text"] for e in h.of(events, "Narrated"))


def test_label_shift_below_minus_two_marks_a_condition_instead(new_game: NewGame, h: Any
                                                               ) -> None:
    game = new_game()
    for up in ("danger", "freak"):
        game.trigger("accept_influence", "Ada Vance")
        game.choose([up])
        game.choose(["mundane"])
    assert game.state.hero.stats["mundane"] == -2
    game.trigger("accept_influence", "Ada Vance")
    game.choose(["savior"])
    events = game.choose(["mundane"])
    assert game.state.hero.stats["mundane"] == -2
    assert game.state.hero.stats["savior"] == 2
    assert len(h.of(events, "ConditionMarked")) == 1
    assert any("cannot go below -2" in e["text"] for e in h.of(events, "Narrated"))


def test_label_shift_past_a_bound_with_no_free_condition_takes_you_out(new_game: NewGame,
                                                                      h: Any) -> None:
    game = new_game(archetype="heir_apparent")
    h.setup(game, ev.LabelsShifted(changes={"superior": 1}, values={"superior": 3}),
            *[ev.ConditionMarked(who="hero", condition=c) for c in CONDITIONS])
    game.trigger("accept_influence", "Ada Vance")
    game.choose(["superior"])
    events = game.choose(["danger"])
    assert h.of(events, "TakenOut")[0]["out"] is True
    assert game.state.hero.taken_out


def test_locked_labels_do_not_shift(new_game: NewGame, h: Any) -> None:
    game = new_game()
    h.setup(game, ev.LabelLocked(stat="danger"))
    game.trigger("accept_influence", "Ada Vance")
    assert "danger" not in options(game)
    game.choose(["freak"])
    assert "danger" not in options(game)
    game.choose(["savior"])
    assert game.state.hero.stats["danger"] == 1
    # an advancement that raises a Label cannot pick it either
    h.setup(game, ev.TrackChanged(track="potential", scope="hero", delta=4, value=4))
    start(game, "directly_engage")
    game.roll(MISS)
    game.choose(["label_up"])
    assert "danger" not in options(game)


def test_taken_out_when_a_condition_must_be_marked_and_none_is_free(new_game: NewGame, h: Any
                                                                     ) -> None:
    game = new_game()
    h.setup(game, *[ev.ConditionMarked(who="hero", condition=c) for c in CONDITIONS])
    start(game, "unleash_powers")
    game.roll([4, 4])  # 8 + Freak 1 - 2 (Hopeless) = 7
    events = game.choose(["strain"])
    assert h.of(events, "TakenOut")[0]["out"] is True
    assert game.state.hero.taken_out
    with pytest.raises(IllegalAction, match="taken out"):
        game.trigger("directly_engage")
    game.trigger("give_influence", "Bo")  # moves without a roll still work
    events = game.start_scene("Later")
    assert h.of(events, "TakenOut")[0]["out"] is False
    assert not game.state.hero.taken_out


# --------------------------------------------------------------------------- influence


def test_adults_start_with_influence_over_the_hero(new_game: NewGame, h: Any) -> None:
    game = new_game()
    held = {n.role: over_hero(game.state, n.id) for n in game.state.npcs.values()}
    assert held == {"adult": True, "villain": False, "teammate": False, "bystander": False}
    assert not any(hero_over(game.state, n.id) for n in game.state.npcs.values())
    events = game.add_npc("Coach Reyes", "adult")
    assert over_hero(game.state, "coach_reyes")
    assert h.of(events, "InfluenceChanged")[0]["npc"] == "coach_reyes"


def test_plus_one_on_moves_targeting_someone_you_hold_influence_over(new_game: NewGame, h: Any
                                                                     ) -> None:
    game = new_game()
    h.setup(game, InfluenceChanged(npc="vic_rook", direction="hero_over", held=True))
    assert ["Influence over Vic Rook", 1, None] in game.preview("provoke", "vic_rook").modifiers
    assert game.preview("provoke", "vic_rook").modifier == 1
    assert game.preview("provoke", "bo").modifier == 0
    assert game.preview("directly_engage").modifier == 1  # Danger only: no target


def test_regaining_influence_over_an_npc_gives_forward(new_game: NewGame, h: Any) -> None:
    game = new_game()
    h.setup(game, InfluenceChanged(npc="vic_rook", direction="hero_over", held=True))
    start(game, "provoke", "Vic Rook")
    game.roll([3, 3])  # 6 + 1 = 7
    events = game.choose(["overreact"])
    assert h.of(events, "InfluenceChanged") == []
    [bonus] = h.of(events, "BonusAdded")
    assert (bonus["kind"], bonus["amount"], bonus["target"]) == ("forward", 1, "vic_rook")
    assert game.preview("provoke", "vic_rook").modifier == 2


def test_regaining_influence_over_a_teammate_shifts_their_labels(new_game: NewGame, h: Any
                                                                 ) -> None:
    game = adult(new_game(), h)
    h.setup(game, InfluenceChanged(npc="tin", direction="hero_over", held=True))
    start(game, "persuade_interests", "Tin")
    events = game.roll(STRONG)
    assert h.of(events, "BonusAdded") == [] and h.of(events, "InfluenceChanged") == []
    assert any("shift one of their Labels" in e["text"] for e in h.of(events, "Narrated"))


# --------------------------------------------------------------------------- team, forward, ongoing


def test_spend_team_before_the_roll(new_game: NewGame, h: Any, masks: Pack) -> None:
    game = new_game()
    start(game, "directly_engage")
    events = game.spend_team()
    assert team(game) == 0
    assert h.of(events, "TrackChanged")[0]["value"] == 0
    preview = game.pending.preview.to_dict()
    assert ["Team from Tin", 1, None] in preview["modifiers"]  # Tin, a teammate, spends it
    assert preview["modifier"] == 2
    assert preview["odds"] == {b: percent(p) for b, p in band_odds(
        DiceSpec.parse("2d6"), 2, masks.system.bands["default"]).items()}
    with pytest.raises(IllegalAction, match="Team pool is empty"):
        game.spend_team()
    events = game.roll([4, 4])  # 8 + 2 = 10
    assert h.of(events, "Rolled")[0]["band"] == "strong_hit"


def test_spend_team_after_the_roll(new_game: NewGame, h: Any) -> None:
    game = new_game()
    start(game, "directly_engage")
    game.roll([4, 4])  # 8 + 1 = 9: one more would be a strong hit
    assert game.state.flow.stage == "adjust"
    assert {"keep", "team:tin"} <= options(game)  # Tin, the teammate present, can help
    events = game.adjust("team")  # shorthand for the first who can
    [adj] = h.of(events, "RollAdjusted")
    assert (adj["amount"], adj["total"], adj["band"]) == (1, 10, "strong_hit")
    assert team(game) == 0
    assert (game.pending.min, game.pending.max) == (2, 2)  # the strong-hit choice now


def test_keep_the_roll_instead_of_spending(new_game: NewGame, h: Any) -> None:
    game = new_game()
    start(game, "directly_engage")
    game.roll([4, 4])
    with pytest.raises(IllegalAction, match="not on offer"):
        game.adjust("influence")
    game.adjust("keep")
    assert team(game) == 1
    assert (game.pending.min, game.pending.max) == (1, 1)


def test_surrender_influence_after_the_roll(new_game: NewGame, h: Any) -> None:
    game = new_game()
    h.setup(game, InfluenceChanged(npc="vic_rook", direction="hero_over", held=True))
    start(game, "provoke", "Vic Rook")
    game.roll([3, 5])  # 8 + 0 + 1 = 9
    assert "influence" in options(game)
    events = game.adjust("influence")
    assert h.of(events, "RollAdjusted")[0]["band"] == "strong_hit"
    assert not hero_over(game.state, "vic_rook")


def test_act_selfishly_after_the_roll_raises_the_label_rolled(new_game: NewGame, h: Any) -> None:
    game = new_game()
    start(game, "directly_engage")
    game.roll([4, 4])  # 9
    assert "selfish:savior" in options(game)
    events = game.adjust("selfish:savior")
    assert game.state.hero.stats["danger"] == 2 and game.state.hero.stats["savior"] == 0
    assert team(game) == 0
    assert h.of(events, "RollAdjusted")[0]["band"] == "strong_hit"


def test_forward_is_consumed_after_one_roll(new_game: NewGame, h: Any) -> None:
    game = new_game()
    h.setup(game, ev.BonusAdded(id=50, kind="forward", amount=1, moves=[], target=None,
                                expires="scene", reason="a test"))
    start(game, "unleash_powers")
    assert game.pending.preview.to_dict()["modifier"] == 2
    h.roll(game, STRONG)
    assert game.state.bonuses == []
    start(game, "unleash_powers")
    assert game.pending.preview.to_dict()["modifier"] == 1


def test_forward_for_one_move_waits_for_that_move(new_game: NewGame, h: Any) -> None:
    game = new_game()
    h.setup(game, ev.BonusAdded(id=50, kind="forward", amount=1, moves=["directly_engage"],
                                target=None, expires="scene", reason="a test"))
    start(game, "unleash_powers")
    assert game.pending.preview.to_dict()["modifier"] == 1
    h.roll(game, STRONG)
    assert [b.id for b in game.state.bonuses] == [50]
    start(game, "directly_engage")
    assert game.pending.preview.to_dict()["modifier"] == 2
    h.roll(game, STRONG)
    h.settle(game)
    assert game.state.bonuses == []


def test_ongoing_lasts_until_the_scene_ends(new_game: NewGame, h: Any) -> None:
    game = new_game()
    h.setup(game, ev.BonusAdded(id=60, kind="ongoing", amount=1, moves=[], target=None,
                                expires="scene", reason="a test"),
            ev.BonusAdded(id=61, kind="forward", amount=1, moves=["stand_up"], target=None,
                          expires="session", reason="kept for the session"))
    for _ in range(3):
        start(game, "unleash_powers")
        assert game.pending.preview.to_dict()["modifier"] == 2
        h.roll(game, STRONG)
    events = game.end_scene()
    assert h.of(events, "SceneEnded")
    assert [b.id for b in game.state.bonuses] == [61]  # session-long bonuses survive the scene
    game.end_session()
    h.settle(game)
    assert game.state.bonuses == []


def test_hold_is_gained_spent_and_expires(new_game: NewGame, h: Any) -> None:
    # no Masks move gives hold; exercise the effect itself through the game's queue
    game = new_game()
    ctx = {"move": "assess_situation", "source": "a test"}
    with game._action("hold"):
        game._run([{"effect": {"type": "hold", "amount": 2}, "ctx": ctx},
                   {"effect": {"type": "hold", "amount": 1}, "ctx": ctx},
                   {"effect": {"type": "hold", "amount": 3, "expires": "session"},
                    "ctx": {"move": "provoke"}}])
    holds = {x.move: (x.amount, x.expires) for x in game.state.holds}
    assert holds == {"assess_situation": (3, "scene"), "provoke": (3, "session")}
    game.end_scene()
    assert {x.move for x in game.state.holds} == {"provoke"}
    game.end_session()
    h.settle(game)
    assert game.state.holds == []
