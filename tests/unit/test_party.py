"""Party play in the rules, scripts and the journal: several heroes in one campaign.

Bonuses count only on their owner's rolls; another hero spends Team for the acting hero after
the roll; Defend someone against a hero of the party gives them a real -2; a teammate who is
persuaded or comforted shifts their own Labels; gaining Influence again over a teammate hero
shifts their Labels; scripts take a party, switch heroes and add them; the journal names the
acting hero and the spotlight's moves.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from engine.content.loader import Pack
from engine.errors import IllegalAction
from engine.game import Game
from engine.journal import render_all
from engine.rules import events as ev
from engine.rules import resolve
from engine.rules.base import fiction_side
from engine.script import ScriptError, run_script
from engine.systems.masks.rules import InfluenceChanged, influence
from tests.conftest import FLAT, Helpers

PARTY = [{"name": "Tin", "archetype": "pawnshop_paladin"},
         {"name": "Ash", "archetype": "stitchwork"}]
NPCS = [("Vic Rook", "villain", ""), ("Bo", "teammate", "an NPC teammate"),
        ("Parveen", "bystander", "")]
EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "masks-party.yaml"


@pytest.fixture
def party(masks: Pack) -> Game:
    """Nova (acting, FLAT labels), Tin and Ash; Vic Rook, Bo (an NPC teammate), Parveen."""
    return Game.new(masks, name="Party", hero_name="Nova", stats=dict(FLAT), party=PARTY,
                    npcs=NPCS, seed=5)


def _log(game: Game) -> list[dict[str, Any]]:
    return list(game.store.events())


def _bonus(owner: str | None, amount: int = 2, bid: int = 90) -> ev.BonusAdded:
    return ev.BonusAdded(id=bid, kind="forward", amount=amount, moves=[], target=None,
                         expires="scene", reason="test", owner=owner or "hero")


# ------------------------------------------------------------------ bonuses and their owner


def test_a_forward_counts_only_on_its_owners_roll(party: Game, masks: Pack) -> None:
    Helpers.setup(party, _bonus("tin"))
    move = masks.moves["directly_engage"]
    mods, _, _ = resolve.modifiers(party.state, masks, party.rules, move, None)
    assert not any("forward" in str(m[0]) for m in mods)  # Nova acts: Tin's +2 is not hers
    party.switch_hero("Tin")
    mods, _, _ = resolve.modifiers(party.state, masks, party.rules, move, None)
    assert ["+2 forward: test", 2, 90] in mods


def test_a_forward_with_no_owner_counts_for_anyone(party: Game, masks: Pack) -> None:
    Helpers.setup(party, _bonus("tin"))
    party.state.bonuses[0].owner = None  # as a save from before parties may have it
    move = masks.moves["directly_engage"]
    for hero in ("Nova", "Ash"):
        if party.state.hero.name != hero:
            party.switch_hero(hero)
        mods, _, _ = resolve.modifiers(party.state, masks, party.rules, move, None)
        assert ["+2 forward: test", 2, 90] in mods


def test_the_owners_roll_uses_the_forward_up_and_the_others_leave_it(party: Game) -> None:
    Helpers.setup(party, _bonus("tin"))
    party.trigger("directly_engage", "Vic Rook")
    Helpers.roll(party, [3, 3])
    Helpers.settle(party)
    assert [b.owner for b in party.state.bonuses] == ["tin"]  # Nova rolled: Tin's stays
    party.switch_hero("Tin")
    party.trigger("directly_engage", "Vic Rook")
    Helpers.roll(party, [3, 3])
    assert party.state.bonuses == []


def test_bonus_targets_are_the_acting_heros(party: Game, masks: Pack) -> None:
    vic = Helpers.npc(party, "Vic Rook")
    Helpers.setup(party, ev.BonusAdded(id=91, kind="forward", amount=1, moves=[], target=vic,
                                       expires="session", reason="they stumbled", owner="ash"))
    move = masks.moves["directly_engage"]
    assert resolve.bonus_targets(party.state, move) == []
    party.switch_hero("Ash")
    assert resolve.bonus_targets(party.state, move) == [vic]


# ------------------------------------------------------------------ Team from another hero


def _team(game: Game, n: int) -> None:
    team = game.state.pools.get("team", 0)
    Helpers.setup(game, ev.TrackChanged(track="team", scope="campaign", delta=n - team,
                                        value=n))


def test_each_other_hero_can_spend_team_after_the_roll(party: Game) -> None:
    _team(party, 2)
    party.trigger("directly_engage", "Vic Rook")
    party.roll([3, 4])  # 7 + Danger 1 = 8, a weak hit: two more make it strong
    assert party.state.flow.stage == "adjust"
    labels = {o.id: o.label for o in party.pending.options}
    assert labels["team:tin"] == "Tin spends 1 Team: +1"
    assert labels["team:ash"] == "Ash spends 1 Team: +1"
    assert "team:nova" not in labels  # Team helps a teammate: never the acting hero's own
    assert labels["team:bo"] == "Bo spends 1 Team: +1"  # a teammate NPC in the scene helps too
    party.adjust("team:ash")
    party.adjust("team:tin")
    log = _log(party)
    adjusted = Helpers.of(log, "RollAdjusted")
    assert [e["source"] for e in adjusted] == ["Team from Ash", "Team from Tin"]
    assert adjusted[-1]["total"] == 10 and adjusted[-1]["band"] == "strong_hit"
    reasons = [e["reason"] for e in Helpers.of(log, "TrackChanged") if e["track"] == "team"]
    assert reasons[-2:] == ["Ash spends it for +1 on Nova's roll",
                            "Tin spends it for +1 on Nova's roll"]
    assert party.state.pools["team"] == 0
    journal = "\n".join(render_all(log, party.pack))
    assert "🎲 Team from Ash +1: now 9" in journal
    assert "🎲 Team from Tin +1: now 10 → **Strong hit**" in journal


def test_a_helper_must_be_another_hero_in_the_scene(party: Game) -> None:
    _team(party, 2)
    Helpers.setup(party, ev.TakenOut(out=True, who="tin"))
    party.trigger("directly_engage", "Vic Rook")
    party.roll([3, 4])
    rolled = party.state.flow.roll
    assert rolled is not None
    ids = [o.id for o in party.pending.options]
    assert "team:ash" in ids and "team:tin" not in ids  # Tin is taken out
    with pytest.raises(IllegalAction, match="not on offer"):
        party.adjust("team:tin")
    with pytest.raises(IllegalAction, match="not a teammate here who can help"):
        party.rules.adjust(party.state, "team:vic_rook", rolled)  # a villain never helps
    with pytest.raises(IllegalAction, match="not a teammate here who can help"):
        party.rules.adjust(party.state, "team:nova", rolled)  # nor the acting hero


def test_no_team_no_help(party: Game) -> None:
    _team(party, 0)
    party.trigger("directly_engage", "Vic Rook")
    party.roll([3, 4])
    assert party.state.flow.stage == "effects"  # a weak hit with nothing to change it: pick one
    rolled = party.state.flow.roll  # the roll the choice follows
    assert rolled is not None
    with pytest.raises(IllegalAction, match="Team pool is empty"):
        party.rules.adjust(party.state, "team:tin", rolled)


def test_a_solo_hero_is_helped_by_a_teammate_npc_in_the_scene(new_game: Any) -> None:
    game: Game = new_game()  # one hero; Tin, a teammate NPC, is in the scene
    _team(game, 2)
    game.trigger("directly_engage", "Vic Rook")
    game.roll([3, 4])
    assert [o.id for o in game.pending.options if o.id.startswith("team")] == ["team:tin"]


def test_a_hero_alone_cannot_spend_team_on_their_own_roll(new_game: Any) -> None:
    """Team helps a teammate; with nobody else on the team here, only acting selfishly
    spends it (the premise changed on purpose: a hero no longer spends Team for themself)."""
    game: Game = new_game(npcs=[("Vic Rook", "villain", "")])
    _team(game, 2)
    game.trigger("directly_engage", "Vic Rook")
    game.roll([3, 4])  # 7 + Danger 1 = 8, a weak hit
    ids = [o.id for o in game.pending.options]
    assert not [i for i in ids if i.startswith("team")]
    assert "selfish:freak" in ids
    with pytest.raises(IllegalAction, match="Team helps a teammate: nobody else"):
        game.adjust("team")
    with pytest.raises(IllegalAction, match="Team helps a teammate: nobody else"):
        game.rules.adjust(game.state, "team", game.state.flow.roll or {})
    assert game.state.pools["team"] == 2


# ------------------------------------------------------------------ teammates as targets


def test_defending_against_a_hero_gives_them_minus_two(party: Game) -> None:
    party.trigger("defend_someone", "Tin")
    party.declare("oppose_teammate")  # standing against a teammate is the explicit choice
    Helpers.roll(party, [5, 5])  # 10 + Savior 1: strong hit
    Helpers.settle(party)
    assert [(b.owner, b.amount, b.kind) for b in party.state.bonuses] == [("tin", -2, "forward")]
    party.switch_hero("Tin")
    party.trigger("directly_engage", "Vic Rook")
    rolled = Helpers.of(party.roll([3, 3]), "Rolled")[0]
    assert any(m[1] == -2 and "teammate got in the way" in m[0] for m in rolled["modifiers"])
    Helpers.settle(party)
    assert party.state.bonuses == []


def test_protecting_a_hero_is_declared_and_uses_the_usual_outcomes(party: Game) -> None:
    party.trigger("defend_someone", "Ash")
    offered = [vars(d) for d in party.pending.declarations]
    assert [d["id"] for d in offered] == ["protect_teammate", "oppose_teammate"]
    assert offered[0]["label"] == "You protect Ash, not stand against them"
    assert offered[1]["label"] == "You stand against Ash, not protect them"
    party.declare("protect_teammate")
    Helpers.roll(party, [5, 5])  # 10 + Savior 1: a strong hit
    prompt = party.pending
    assert prompt.kind == "choose"  # +1 Team, Influence over Ash, or clear a condition
    assert {o.id for o in prompt.options} >= {"team", "influence"}
    party.choose(["influence"])
    assert influence(party.state, "nova", "ash")
    assert party.state.bonuses == []  # no -2 for the one you protected


def test_protecting_is_not_offered_for_someone_who_is_no_teammate(party: Game) -> None:
    party.trigger("defend_someone", "Parveen")
    assert [vars(d) for d in party.pending.declarations] == []
    with pytest.raises(IllegalAction, match="cannot be declared"):
        party.declare("protect_teammate")


def test_protecting_a_teammate_is_the_default(party: Game) -> None:
    party.trigger("defend_someone", "Ash", "I cover Ash as the roof comes down")
    assert party.rules.teammate_side(party.state, party.pack.moves["defend_someone"]) \
        == "protect_teammate"
    Helpers.roll(party, [1, 1])
    Helpers.settle(party)
    assert party.state.bonuses == []  # nothing against Ash: the usual miss
    party.trigger("defend_someone", "Ash", "I hold the line")  # the fiction says nothing
    assert party.rules.teammate_side(party.state, party.pack.moves["defend_someone"]) is None
    Helpers.roll(party, [5, 5])
    assert party.pending.kind == "choose"  # the usual strong hit: what protecting earns


@pytest.mark.parametrize(("fiction", "side"), [
    ("I stop Tin before he drops the crane", "oppose_teammate"),
    ("I get in Tin's way", "oppose_teammate"),
    ("I grab Tin's arm before she drops the crane, there are people under it",
     "oppose_teammate"),
    ("I shield Tin from the blast", "protect_teammate"),
    ("I slam the pillar to bring the loft down between the choir and Tin", None),
])
def test_the_fiction_says_whose_side(fiction: str, side: str | None) -> None:
    assert fiction_side(fiction, "Tin") == side


def test_a_weak_hit_against_a_hero_also_exposes_you(party: Game) -> None:
    party.trigger("defend_someone", "Ash")
    party.declare("oppose_teammate")
    events = Helpers.roll(party, [3, 4])  # 7 + 1 = 8: weak hit
    events += Helpers.settle(party)
    assert [b.owner for b in party.state.bonuses] == ["ash"]
    notes = [e["text"] for e in Helpers.of(events, "Narrated")]
    assert any("exposed" in t for t in notes)


def test_defending_against_an_npc_teammate_is_fiction(party: Game) -> None:
    party.trigger("defend_someone", "Bo", "I stop Bo from opening the vault")
    events = Helpers.roll(party, [5, 5])
    events += Helpers.settle(party)
    assert party.state.bonuses == [] and not Helpers.of(events, "BonusAdded")
    lines = [e["text"] for e in Helpers.of(events, "Narrated")]
    assert "Bo: -2 on what they do next (a teammate got in the way of the roll)." in lines


def test_comforting_a_hero_who_lets_you_in_shifts_their_labels(party: Game) -> None:
    ash = dict(party.state.actors["ash"].stats)
    party.trigger("comfort_support", "Ash")
    party.roll([4, 4])  # 8 + Mundane 0: weak hit
    party.choose(["shift"])
    assert party.pending.message == "Ash: Shift which label UP by one?"
    party.choose(["savior"])
    events = party.choose(["danger"])
    shifted = Helpers.of(events, "LabelsShifted")[0]
    assert shifted["who"] == "ash"
    stats = party.state.actors["ash"].stats
    assert (stats["savior"], stats["danger"]) == (ash["savior"] + 1, ash["danger"] - 1)
    assert party.state.hero.stats == FLAT  # Nova's own are untouched


def test_comforting_an_npc_teammate_keeps_it_in_the_fiction(party: Game) -> None:
    party.trigger("comfort_support", "Bo")
    party.roll([4, 4])
    events = party.choose(["shift"])
    assert [e["text"] for e in Helpers.of(events, "Narrated")] == [
        "Bo shifts their own Labels: one up, one down."]


def _adult_moves(game: Game) -> None:
    Helpers.setup(game, ev.FlagSet(flag="adult_moves"))


def test_persuading_a_hero_gains_influence_and_they_shift_labels(party: Game) -> None:
    _adult_moves(party)
    party.trigger("persuade_interests", "Tin")
    party.roll([6, 6])  # strong hit
    assert influence(party.state, "nova", "tin")
    party.choose(["shift"])
    party.choose(["mundane"])
    events = party.choose(["savior"])
    assert Helpers.of(events, "LabelsShifted")[0]["who"] == "tin"
    assert party.state.actors["tin"].stats["mundane"] == 2


def test_gaining_influence_again_over_a_hero_shifts_their_labels(party: Game) -> None:
    _adult_moves(party)
    Helpers.setup(party, InfluenceChanged(npc="tin", direction="hero_over", held=True))
    tin = dict(party.state.actors["tin"].stats)
    party.trigger("persuade_interests", "Tin")
    party.roll([6, 6])
    # the Influence already held: Tin's Labels shift first, then the follow-your-lead choice
    assert party.pending.message == "Tin: Shift which label UP by one?"
    party.choose(["superior"])
    party.choose(["savior"])
    party.choose(["refuse"])
    stats = party.state.actors["tin"].stats
    assert (stats["superior"], stats["savior"]) == (tin["superior"] + 1, tin["savior"] - 1)


# ------------------------------------------------------------------ scripts


def _script(steps: list[dict[str, Any]], journal: bool = False) -> tuple[Game, list[Any]]:
    out: list[Any] = []
    campaign = {"name": "Scripted party", "seed": 3, "hero": {"name": "Nova", "stats": FLAT},
                "party": PARTY, "npcs": [{"name": "Vic Rook", "role": "villain"}]}
    game = run_script({"campaign": campaign, "steps": steps}, saves=None, content=[],
                      campaign=None, emit=out.append, journal=journal)
    return game, out


def test_the_example_party_script_plays_its_scene() -> None:
    data = yaml.safe_load(EXAMPLE.read_text(encoding="utf-8"))
    events: list[dict[str, Any]] = []
    game = run_script(data, saves=None, content=[], campaign=None, emit=events.append)
    st = game.state
    assert [h.name for h in st.heroes] == ["Nova", "Tin", "Ash"]
    # the spotlight moved: Nova -> Ash -> Tin
    assert [(e["was"], e["hero"]) for e in Helpers.of(events, "HeroSwitched")] == [
        ("nova", "ash"), ("ash", "tin")]
    # Tin spent Team on Nova's roll, and it turned a miss into a hit
    adjusted = Helpers.of(events, "RollAdjusted")
    assert [(e["source"], e["was"], e["band"]) for e in adjusted] == [
        ("Team from Tin", "bad", "weak_hit")]
    # Ash got in Tin's way: Tin's next roll took the -2, and her Influence over Ash the +1
    tin_roll = next(e for e in Helpers.of(events, "Rolled") if e["move"] == "comfort_support")
    mods = {m[0]: m[1] for m in tin_roll["modifiers"]}
    assert mods["Influence over Ash"] == 1
    assert mods["-2 forward: a teammate got in the way of the roll"] == -2
    # Influence between heroes
    assert influence(st, "tin", "ash") and not influence(st, "ash", "tin")
    # a teammate's Labels shifted, while Tin acted
    shifted = Helpers.of(events, "LabelsShifted")
    assert [e["who"] for e in shifted] == ["ash"]
    assert st.actors["ash"].stats["savior"] == 2 and st.actors["ash"].stats["danger"] == 1
    journal = "\n".join(render_all(events, game.pack, {a.id: a.name for a in st.actors.values()},
                                   st.party[0]))
    for line in ("### Nova: Directly engage a threat → Dusk Meridian",
                 "🎭 The spotlight turns to Ash (from Nova)",
                 "Team -1 → 3 (Tin spends it for +1 on Nova's roll)",
                 "Tin: -2 forward (a teammate got in the way of the roll; until the scene ends)",
                 "⇄ Tin gains Influence over Ash (Give Influence)",
                 "### Tin: Comfort or support someone → Ash",
                 "↕ Ash: Labels shift: Savior +1 (now +2), Danger -1 (now +1)"):
        assert line in journal


def test_script_steps_switch_and_add_heroes() -> None:
    game, _ = _script([
        {"do": "switch_hero", "hero": "Ash"},
        {"do": "add_hero", "name": "Wren", "archetype": "margin_runner"},
        {"hero": "Wren", "move": "directly_engage", "target": "Vic Rook", "dice": [6, 6],
         "auto": True},
        {"hero": "Wren", "move": "defend_someone", "target": "Tin", "dice": [6, 6],
         "declare": "oppose_teammate"},
    ])
    st = game.state
    assert [h.name for h in st.heroes] == ["Nova", "Tin", "Ash", "Wren"]
    assert st.hero.name == "Wren"
    assert [(b.owner, b.amount) for b in st.bonuses] == [("tin", -2)]


def test_a_step_naming_the_acting_hero_does_not_switch() -> None:
    _, out = _script([{"hero": "Nova", "do": "narrate", "text": "Nova waits."},
                      {"hero": "nova", "fiction": "I look around", "move": "none"}])
    assert not [e for e in out if e["type"] == "HeroSwitched"]


def test_script_errors_name_the_party() -> None:
    with pytest.raises(ScriptError, match=r"step 1 \(do: switch_hero\): no hero called 'Zed'"
                                          r" in the party \(Nova, Tin, Ash\)"):
        _script([{"do": "switch_hero", "hero": "Zed"}])
    with pytest.raises(ScriptError, match=r"step 1 \(Zed: move: directly_engage\): no hero"):
        _script([{"hero": "Zed", "move": "directly_engage", "target": "Vic Rook"}])
    with pytest.raises(ScriptError, match="step 1: hero: expected"):
        _script([{"hero": 3}])
    with pytest.raises(ScriptError, match=r"campaign\.party"):
        run_script({"campaign": {"party": {"name": "x"}}, "steps": []}, saves=None, content=[],
                   campaign=None, emit=lambda e: None)


def test_the_scripted_journal_names_the_acting_hero() -> None:
    _, lines = _script([
        {"do": "switch_hero", "hero": "Tin"},
        {"fiction": "I smash the generator", "move": "directly_engage", "target": "Vic Rook",
         "dice": [6, 6], "auto": True},
    ], journal=True)
    text = "\n".join(e["text"] for e in lines)
    assert "• Tin (Pawnshop Paladin) joins the party" in text
    assert "🎭 The spotlight turns to Tin (from Nova)" in text
    assert "### Tin: Directly engage a threat → Vic Rook" in text


# ------------------------------------------------------------------ the journal


def test_a_solo_journal_still_says_you(new_game: Any) -> None:
    game: Game = new_game()
    vic = Helpers.npc(game, "Vic Rook")
    Helpers.setup(game, InfluenceChanged(npc=vic, direction="hero_over", held=True),
                  ev.ConditionMarked(who="hero", condition="angry"), ev.TakenOut(out=True),
                  ev.TakenOut(out=False))
    game.trigger("directly_engage", "Vic Rook")
    text = "\n".join(render_all(_log(game), game.pack, {"nova": "Nova"}, "nova"))
    assert "⇄ You gain Influence over Vic Rook" in text
    assert "⚑ You marked Angry" in text
    assert "✖ You are taken out of the scene" in text
    assert "### Directly engage a threat → Vic Rook" in text


def test_a_party_journal_names_the_acting_hero(party: Game) -> None:
    vic = Helpers.npc(party, "Vic Rook")
    party.switch_hero("Ash")
    Helpers.setup(party, InfluenceChanged(npc=vic, direction="hero_over", held=True),
                  InfluenceChanged(npc=vic, direction="over_hero", held=True),
                  ev.ConditionMarked(who="hero", condition="angry"),
                  ev.TakenOut(out=True))
    names = {a.id: a.name for a in party.state.actors.values()}
    text = "\n".join(render_all(_log(party), party.pack, names, "nova"))
    assert "⇄ Ash gains Influence over Vic Rook" in text
    assert "⇄ Vic Rook gains Influence over Ash" in text
    assert "⚑ Ash marked Angry" in text
    assert "✖ Ash is taken out of the scene" in text
    # without the names, the first switch says who acted before it
    bare = "\n".join(render_all(_log(party), party.pack))
    assert "🎭 The spotlight turns to Ash (from nova)" in bare


def test_a_party_formed_mid_campaign_names_heroes_from_then_on(new_game: Any) -> None:
    game: Game = new_game()
    vic = Helpers.npc(game, "Vic Rook")
    game.trigger("directly_engage", "Vic Rook")
    Helpers.roll(game, [1, 1])
    Helpers.settle(game)
    game.add_hero("Wren", "margin_runner")
    Helpers.setup(game, InfluenceChanged(npc=vic, direction="hero_over", held=True),
                  ev.TakenOut(out=True))
    names = {a.id: a.name for a in game.state.actors.values()}
    lines = render_all(_log(game), game.pack, names, "nova")
    joined = lines.index("• Wren (Margin Runner) joins the party")
    before, after = "\n".join(lines[:joined]), "\n".join(lines[joined:])
    assert "### Directly engage a threat" in before and "Nova:" not in before
    assert "⇄ Nova gains Influence over Vic Rook" in after
    assert "✖ Nova is taken out of the scene" in after


# ------------------------------------------------------------------ adults meet the whole party


def test_an_adult_holds_influence_over_every_hero_of_the_party(party: Game) -> None:
    party.add_npc("Coach Reyes", "adult")
    for hero in ("nova", "tin", "ash"):
        assert influence(party.state, "coach_reyes", hero), hero
    lines = render_all(_log(party), party.pack,
                       {a.id: a.name for a in party.state.actors.values()})
    said = [x for x in lines if "Coach Reyes gains Influence" in x]
    # the events name each hero by id, so a party's journal names Nova too
    assert [x.split(" (")[0] for x in said] == [
        "⇄ Coach Reyes gains Influence over Nova", "⇄ Coach Reyes gains Influence over Tin",
        "⇄ Coach Reyes gains Influence over Ash"]


def test_influence_lines_are_the_masks_rules_own(masks: Pack) -> None:
    from engine.systems import ruleset_class

    line = ruleset_class("masks").journal_line(
        {"type": "InfluenceChanged", "npc": "vic", "direction": "over_hero", "held": False,
         "permanent": True, "hero": "tin"}, {"vic": "Vic", "tin": "Tin"}.__getitem__)
    assert line == "⇄ Vic loses Influence over Tin for good"
    assert ruleset_class("city_of_whispers").journal_line(
        {"type": "InfluenceChanged", "npc": "vic", "direction": "over_hero", "held": True},
        str) is None


def test_the_campaign_list_names_the_whole_party(tmp_path: Path) -> None:
    from engine.campaigns import close_game, new_game
    from engine.store import list_campaigns

    game = new_game(tmp_path, system="masks", name="Night Shift", hero_name="Nova",
                    archetype="signal_fire", party=PARTY, npcs=NPCS, seed=3)
    try:
        game.narrate("The three of them take the roof.")
    finally:
        close_game(game)
    [summary] = list_campaigns(tmp_path)
    assert summary.hero == "Nova, Tin, Ash"


def test_the_sheet_shows_the_party_and_only_the_actors_own_bonuses(party: Game) -> None:
    Helpers.setup(party, _bonus("tin", amount=-2))
    party.trigger("give_influence", "Tin")  # Tin now holds Influence over Nova
    sections = {s.title: s for s in party.rules.sheet(party.state)}
    rows = sections["Party"].rows
    assert [r.text for r in rows] == ["Tin", "Ash"]  # type: ignore[union-attr]
    tin_tags = [t.text for t in rows[0].tags]  # type: ignore[union-attr]
    assert "⇐ Influence on you" in tin_tags
    assert "Bonuses and hold" not in sections  # Tin's -2 is not Nova's
    party.switch_hero("Tin")
    sections = {s.title: s for s in party.rules.sheet(party.state)}
    assert [r.text for r in sections["Party"].rows] == ["Nova", "Ash"]  # type: ignore[union-attr]
    assert "Bonuses and hold" in sections


def test_a_one_hero_sheet_has_no_party_section(masks: Pack) -> None:
    game = Game.new(masks, name="Solo", hero_name="Nova", stats=dict(FLAT), npcs=NPCS, seed=5)
    assert "Party" not in [s.title for s in game.rules.sheet(game.state)]


def test_a_typed_stat_line_is_parsed_once_for_both_forms(masks: Pack) -> None:
    from engine.heroes import parse_stats

    stats, problems = parse_stats(masks, {"danger": "2", "freak": "x", "savior": "-",
                                          "superior": " 0 ", "mundane": "+"})
    assert stats == {"danger": 2, "superior": 0}
    assert problems[0] == "Freak: 'x' is not a whole number"
    assert any(p.startswith("missing") for p in problems[1:])


def test_a_villain_added_later_brings_a_threat(new_game: Any) -> None:
    game = new_game()
    before = {t.npc for t in game.state.threats.values()}
    game.add_npc("Baron Blitz", "villain")
    threats = [t for t in game.state.threats.values() if t.npc not in before]
    assert [t.npc for t in threats] == ["baron_blitz"] and threats[0].name.startswith(
        "Baron Blitz")
    game.add_npc("Dani", "bystander")
    assert len(game.state.threats) == len(before) + 1  # only villains bring one
    game.undo()
    game.undo()
    assert {t.npc for t in game.state.threats.values()} == before


# ------------------------------------------------------------------ issue 29: hold has an owner


def test_hold_belongs_to_the_hero_who_gained_it(party: Game) -> None:
    from engine.rules.sheet import bonuses

    def gain(amount: int) -> None:
        with party._action("hold"):
            party._run([{"effect": {"type": "hold", "amount": amount},
                         "ctx": {"move": "assess_situation", "source": "a test"}}])

    gain(2)  # Nova's
    party.switch_hero("Tin")
    assert bonuses(party.pack, party.state, party.state.hero) is None  # not Tin's to see
    gain(1)  # Tin's own, not added to Nova's
    assert sorted((h.owner, h.amount) for h in party.state.holds) == [("nova", 2), ("tin", 1)]
    gain(2)  # Tin's grows; Nova's stays
    assert sorted((h.owner, h.amount) for h in party.state.holds) == [("nova", 2), ("tin", 3)]
    party.switch_hero("Nova")
    shown = bonuses(party.pack, party.state, party.state.hero)
    assert shown is not None and [r.lead for r in shown.rows] == ["Hold 2"]


def test_adults_gain_influence_over_a_hero_who_joins_later(party: Game) -> None:
    party.add_npc("Rosalind", "adult")
    assert all(influence(party.state, "rosalind", h) for h in ("nova", "tin", "ash"))
    party.add_hero("Wren", "margin_runner")
    wren = party.state.actor_by_name("Wren", kinds=("hero",))
    assert wren is not None
    assert influence(party.state, "rosalind", wren.id)  # as the first heroes did
    assert not influence(party.state, "bo", wren.id)  # a teammate NPC: no
    text = "\n".join(render_all(party.last_events, party.pack,
                                {a.id: a.name for a in party.state.actors.values()}))
    assert "Rosalind gains Influence over Wren" in text


@pytest.mark.parametrize(("line", "who"), [
    ("Tin hacks the drone", "tin"),
    ("ash, quick: stitch the wound", "ash"),
    ("Tin's drone hums", None),  # about Tin, not Tin acting
    ("Tin was right about me", None),  # the acting hero speaks of Tin
    ("Nova flies up", None),  # Nova already acts
    ("Tinker with the lock", None),
])
def test_a_line_that_starts_with_a_heros_name_is_theirs(party: Game, line: str,
                                                         who: str | None) -> None:
    assert party.party.speaker(line) == who


def test_describing_as_another_hero_switches_in_the_same_action(party: Game) -> None:
    party.describe("Tin hacks the drone")
    assert party.state.hero.name == "Tin"
    party.undo()
    assert party.state.hero.name == "Nova" and party.state.flow.stage == "fiction"
