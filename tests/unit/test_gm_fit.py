"""GM moves fit what just happened (issue 27): a failed social or emotional move gets a social
or emotional consequence about the one it was aimed at, a failed attack a counterblow from the
one attacked, a line names what the fiction named; content says which GM moves fit which
kinds of action."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from engine.content.loader import load_pack
from engine.game import Game
from tests.unit.test_gm_fiction import gm_made, miss

ROOT = Path(__file__).resolve().parents[2]
MASKS = load_pack(ROOT / "content" / "masks")
SYSTEMS = ["masks", "city-of-whispers", "mutants-and-masterminds", "panels"]
SOCIAL = {"rebuff", "inflict_condition", "take_influence", "tell_who_they_are",
          "npc_rash_decision", "attention_turns", "cut_them_down"}
PHYSICAL = {"turn_move_back", "collateral_damage", "innocents_in_danger", "capture_someone",
            "hit_back", "villain_strikes_back"}


def evening(seed: int) -> Game:
    return Game.new(MASKS, name="Evening", hero_name="Wren", archetype="signal_fire", seed=seed,
                    npcs=[("Augustin", "adult", ""), ("Dani", "bystander", ""),
                          ("Min-ji Seo", "teammate", ""), ("The Quiet Abbess", "villain", "")])


def made_after(game: Game, line: str, move: str, target: str | None) -> dict[str, Any]:
    game.narrate(line)
    made = gm_made(miss(game, move, target))
    assert made, "a miss makes a GM move"
    return made[0]


@pytest.mark.parametrize("seed", range(1, 13))
def test_a_rejected_influence_miss_gets_a_social_consequence(seed: int) -> None:
    game = evening(seed)
    made = made_after(game, 'I tell Augustin I am not "just a kid" and I walk out',
                      "reject_influence", "augustin")
    assert made["move"] in SOCIAL and made["move"] not in PHYSICAL, made
    assert "blast" not in made["text"]
    assert made["fit"] == "fits" and "it answers" in made["reason"]


@pytest.mark.parametrize("seed", range(1, 13))
def test_a_missed_comfort_is_about_the_one_comforted(seed: int) -> None:
    game = evening(seed)
    made = made_after(game, "I kneel by Dani and tell her she is safe now", "comfort_support",
                      "dani")
    assert made["move"] in SOCIAL, made
    if made["move"] in {"rebuff", "npc_rash_decision", "attention_turns", "take_influence"}:
        assert "Dani" in made["text"], made
    assert "van door" not in made["text"]


@pytest.mark.parametrize("seed", range(1, 9))
def test_a_failed_attack_is_answered_by_the_one_attacked(seed: int) -> None:
    game = evening(seed)
    made = made_after(game, "I drive my fist into the Abbess's jaw", "directly_engage",
                      "the_quiet_abbess")
    assert made["move"] in {"villain_strikes_back", "hit_back", "turn_move_back"}, made
    if made["move"] != "turn_move_back":
        assert "The Quiet Abbess" in made["text"], made


@pytest.mark.parametrize("seed", range(1, 7))
def test_a_shaky_power_gets_a_consequence_about_the_power(seed: int) -> None:
    game = evening(seed)
    game.narrate("I unleash my light and burn a path through the drowned chapel's doors")
    events = game.trigger("unleash_powers")
    need = 8 - game.state.hero.stats["freak"]  # a weak hit: 8 in all
    events += game.roll([need // 2, need - need // 2])
    events += game.choose(["unstable"])
    made = gm_made(events)
    assert [m["move"] for m in made] == ["show_downside"], made
    assert made[0]["text"].startswith("How it slips: "), made
    assert "offer" not in made[0]["text"]


@pytest.mark.parametrize("system", SYSTEMS)
def test_content_says_which_gm_moves_fit_which_actions(system: str) -> None:
    pack = load_pack(ROOT / "content" / system)
    assert pack.gm.action_kinds, system
    for move, kinds in pack.gm.action_kinds.items():  # a move, or a skill one declares
        assert any(set(kinds) & set(g.fits) for g in pack.gm_moves), (system, move, kinds)


MM = load_pack(ROOT / "content" / "mutants-and-masterminds")


def failed_talk(dc: int, die: int) -> tuple[str, list[dict[str, Any]]]:
    game = Game.new(MM, name="t", hero_name="Dana", archetype="lamplight", seed=7,
                    npcs=[("Foreman Ruiz", "bystander", "")])
    game.narrate("I try to talk Foreman Ruiz into opening the gate for us")
    game.trigger("skill_check")
    game.set_roll_options(params={"dc": dc})
    game.declare("skill:persuasion")
    events = game.roll([die])
    if game.state.flow.stage == "adjust":
        events += game.adjust("keep")
    band = next(e["band"] for e in events if e["type"] == "Rolled")
    return band, gm_made(events)


@pytest.mark.parametrize(("dc", "die", "band", "kind"),
                         [(40, 1, "fail4", "hard"), (15, 2, "fail3", "hard"),
                          (10, 1, "fail2", "soft")])
def test_a_failed_check_outside_a_fight_brings_a_referee_move_by_degrees(
        dc: int, die: int, band: str, kind: str) -> None:
    got, made = failed_talk(dc, die)
    assert got == band
    assert [m["kind"] for m in made] == [kind], made
    assert made[0]["fit"] == "fits", made  # a failed persuasion: a social consequence
    if kind == "hard":
        assert made[0]["move"] == "cold_shoulder" and "Foreman Ruiz" in made[0]["text"]


COW = load_pack(ROOT / "content" / "city-of-whispers")


def vell() -> Game:
    return Game.new(COW, name="Vell", hero_name="Mira", archetype="go_between", seed=7,
                    npcs=[("Odile Farrow", "contact", ""), ("Brother Cask", "ally", ""),
                          ("Silas Quill", "rival", "")])


def rolled(game: Game, line: str, move: str, dice: list[int], target: str | None = None
           ) -> list[dict[str, Any]]:
    game.narrate(line)
    events = game.trigger(move, target=target)
    events += game.roll(dice)
    if game.state.flow.stage == "adjust":
        events += game.adjust(None)
    return events


def test_ear_to_the_ground_tells_a_rumor_about_the_named_subject() -> None:
    game = vell()
    rolled(game, "I listen in the taverns for talk about Silas Quill", "ear_to_the_ground",
           [4, 4])
    made = gm_made(game.choose(["related"]))
    assert [m["move"] for m in made] == ["hear_rumor"]
    assert made[0]["text"].startswith("The rumor: ") and "Silas Quill" in made[0]["text"]


def test_they_pick_offers_magistrate_you_choose() -> None:
    game = vell()
    rolled(game, "I tell Odile Farrow to bring me the ledger", "direct_someone_to_act", [4, 4],
           "odile_farrow")
    assert "Magistrate, you choose" in [o.label for o in game.pending.options]
    game.choose(["comply"])
    assert "Magistrate, you choose" in [o.label for o in game.pending.options]


def test_ask_the_magistrate_how_you_were_diverted_gets_an_answer() -> None:
    game = vell()
    rolled(game, "I cross the river to the Lantern Market", "transit", [4, 4])
    made = gm_made(game.choose(["detour"]))
    assert len(made) == 1 and made[0]["text"].startswith("How you were diverted: ")
    assert made[0]["fit"] == "fits"


def test_a_backfire_is_narrated() -> None:
    game = vell()
    made = gm_made(rolled(game, "I call the lightning down on Silas Quill", "backfire", [6, 6]))
    assert [m["move"] for m in made] == ["power_recoils"]
    assert made[0]["text"].startswith("How the power backfires: ")


def test_every_ask_the_magistrate_gets_an_answer() -> None:
    """An option or outcome that asks the Magistrate, or says the Magistrate says something,
    makes a GM move (its line is the answer), or is a rule that answers it itself."""
    def says(text: str) -> bool:
        low = text.lower()
        return "ask the magistrate" in low or "the magistrate says" in low

    missing = []
    for move in COW.moves.values():
        for band, out in move.outcomes.items():
            opts = [*(out.choose.options if out.choose else []),
                    *(o for e in out.effects if e.type == "one_of" for o in e.options)]
            own = [e.type for e in out.effects]
            if says(out.text) and not ({"gm_move", "one_of", "rule"} & set(own) or opts):
                missing.append(f"{move.id}.{band}")
            for o in opts:
                if says(o.text) and "gm_move" not in [e.type for e in o.effects]:
                    missing.append(f"{move.id}.{band}.{o.id}")
    assert missing == []


def test_every_they_pick_offers_magistrate_you_choose() -> None:
    missing = []
    for move in COW.moves.values():
        for band, out in move.outcomes.items():
            if "they pick" in out.text.lower():
                picks = [out.choose] if out.choose else []
                picks += [e for e in out.effects if e.type == "one_of"]
                if not picks or not all(p.for_gm for p in picks):
                    missing.append(f"{move.id}.{band}")
        told = move.result is not None and "they pick" in move.trigger.lower()
        if told and (move.result is None or move.result.choose is None
                     or not move.result.choose.for_gm):
            missing.append(move.id)
    assert missing == []


@pytest.mark.parametrize("seed", range(1, 9))
def test_no_fight_words_when_no_blows_are_traded(seed: int) -> None:
    game = evening(seed)
    made = made_after(game, "I look around the quiet gym for anything out of place",
                      "assess_situation", None)
    assert "fight" not in made["text"] and "blast" not in made["text"], made
    assert made["move"] != "collateral_damage"  # an Assess that broke nothing wrecks nothing
