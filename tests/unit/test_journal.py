"""The journal: every roll explains itself (dice, modifiers with sources, clamp, band, odds)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from engine.content.loader import Pack
from engine.game import Game
from engine.journal import render, render_all, result_label, roll_why
from engine.rules import events as ev

NewGame = Callable[..., Game]


def rolled(**kw: Any) -> dict[str, Any]:
    base = {"type": "Rolled", "move": "directly_engage", "stat": "danger", "dice": "2d6",
            "faces": [4, 3], "kept": [4, 3], "dropped": [], "modifiers": [["Danger", 1, None]],
            "raw_modifier": 1, "modifier": 1, "clamp": [-3, 4], "total": 8, "band": "weak_hit",
            "band_name": "Weak hit", "odds": {"miss": "27.8%", "weak_hit": "44.4%",
                                              "strong_hit": "27.8%"},
            "entered": True, "position": 0, "inverted": False}
    return {**base, **kw}


def test_roll_line_names_dice_modifiers_band_and_odds() -> None:
    assert roll_why(rolled()) == ("2d6 [4 3] (entered) +1 = **8** → **Weak hit**;"
                                  " chance of this result 44.4%."
                                  " Modifiers: Danger +1.")


def test_roll_line_shows_dropped_dice_and_seeded_source() -> None:
    line = roll_why(rolled(dice="3d6kh2", faces=[1, 4, 5], kept=[4, 5], dropped=[1],
                           entered=False, total=10, band="strong_hit", band_name="Strong hit"))
    assert line.startswith("3d6kh2 [4 5] (dropped 1) (seeded) +1 = **10** → **Strong hit**;"
                           " chance of this result 27.8%.")


def test_roll_line_shows_the_clamp() -> None:
    mods = [["Superior", 3, None], ["+1 forward: they stumbled", 1, 7],
            ["Influence over Vic", 1, None], ["Team", 1, None]]
    line = roll_why(rolled(modifiers=mods, raw_modifier=6, modifier=4, total=9))
    assert ("Modifiers: Superior +3, +1 forward: they stumbled +1, Influence over Vic +1,"
            " Team +1 → clamped to +4 (limits -3..+4).") in line
    assert "+4 = **9**" in line


def test_roll_line_without_clamp_when_within_limits() -> None:
    assert "clamped" not in roll_why(rolled(raw_modifier=4, modifier=4))
    assert "clamped" not in roll_why(rolled(clamp=None, raw_modifier=7, modifier=7))


def test_roll_line_negative_modifiers() -> None:
    line = roll_why(rolled(modifiers=[["Mundane", -2, None], ["Angry", -2, None]],
                           raw_modifier=-4, modifier=-3, total=7))
    assert "-3 = **7**" in line
    assert "Modifiers: Mundane -2, Angry -2 → clamped to -3 (limits -3..+4)." in line


def test_a_real_roll_in_the_journal(new_game: NewGame, h: Any, masks: Pack) -> None:
    game = new_game()
    h.setup(game, ev.ConditionMarked(who="hero", condition="afraid"))
    game.trigger("directly_engage", fiction="I punch the drone")
    game.roll([6, 6])
    game.choose(["resist", "impress"])
    lines = render_all(game.store.log, masks)
    i = lines.index("### Directly engage a threat")
    assert lines[i - 1] == "> I punch the drone"
    assert lines[i + 1] == ("🎲 2d6 [6 6] (entered) -1 = **11** → **Strong hit**;"
                            " chance of this result 8.3%."
                            " Modifiers: Danger +1, Afraid -2.")
    assert lines[i + 2] == masks.moves["directly_engage"].outcomes["strong_hit"].text
    assert lines[i + 3] == ("Chosen: You weather or slip their attacks; You awe, startle or"
                            " terrify the other side.")


def test_journal_shows_the_team_spent_after_the_roll(new_game: NewGame, h: Any,
                                                     masks: Pack) -> None:
    game = new_game()
    game.trigger("directly_engage")
    game.roll([4, 4])
    game.adjust("team")
    lines = render_all(game.store.log, masks)
    assert "Team -1 → 0 (Tin spends it for +1 on Nova's roll)" in lines  # Tin, a teammate
    assert "🎲 Team from Tin +1: now 10 → **Strong hit**" in lines


def test_journal_names_npcs_and_skips_bookkeeping(new_game: NewGame, masks: Pack) -> None:
    game = new_game()
    game.trigger("provoke", "Vic Rook")
    lines = render_all(game.store.log, masks)
    assert "### Provoke someone → Vic Rook" in lines
    assert "• Vic Rook (villain) joins the story" in lines
    assert not any("FlowChanged" in line or "ActionStarted" in line for line in lines)


NPCS = {"vic": "Vic Rook"}


@pytest.mark.parametrize(("event", "line"), [
    ({"type": "Narrated", "text": "I run", "by": "player"}, "> I run"),
    ({"type": "Narrated", "text": "Rain.", "by": "gm"}, "**GM:** Rain."),
    ({"type": "Narrated", "text": "Locked.", "by": "engine"}, "_Locked._"),
    ({"type": "ConditionMarked", "who": "hero", "condition": "afraid", "reason": "a miss"},
     "⚑ You marked Afraid (a miss)"),
    ({"type": "ConditionMarked", "who": "vic", "condition": "angry", "reason": ""},
     "⚑ Vic Rook marked Angry"),
    ({"type": "ConditionCleared", "who": "hero", "condition": "guilty", "reason": ""},
     "✓ You cleared Guilty"),
    ({"type": "LabelsShifted", "changes": {"danger": 1, "savior": -1},
      "values": {"danger": 2, "savior": 0}, "reason": ""},
     "↕ Labels shift: Danger +1 (now +2), Savior -1 (now +0)"),
    ({"type": "LabelLocked", "stat": "freak"}, "🔒 Freak is locked for good"),
    ({"type": "InfluenceChanged", "npc": "vic", "direction": "hero_over", "held": True,
      "permanent": False, "reason": ""}, "⇄ You gain Influence over Vic Rook"),
    ({"type": "InfluenceChanged", "npc": "vic", "direction": "over_hero", "held": False,
      "permanent": True, "reason": "betrayal"},
     "⇄ Vic Rook loses Influence over you for good (betrayal)"),
    ({"type": "TrackChanged", "track": "potential", "scope": "hero", "delta": 1, "value": 3,
      "reason": "a miss"}, "Potential +1 → 3 (a miss)"),
    ({"type": "BonusAdded", "id": 1, "kind": "forward", "amount": 1, "moves": [],
      "target": "vic", "expires": "session", "reason": "they stumbled"},
     "+1 forward against Vic Rook (they stumbled; until the session ends)"),
    ({"type": "BonusAdded", "id": 2, "kind": "ongoing", "amount": 1, "moves": ["provoke"],
      "target": None, "expires": "scene", "reason": "r"},
     "+1 ongoing on Provoke someone (r; until the scene ends)"),
    ({"type": "TakenOut", "out": True, "reason": ""}, "✖ You are taken out of the scene"),
    ({"type": "TakenOut", "out": False, "reason": ""}, "You are back in action"),
    ({"type": "SceneEnded", "number": 3}, "_Scene 3 ends._"),
    ({"type": "SceneStarted", "number": 2, "title": "Pier", "location": "Pier 9", "stakes": "",
      "present": []}, "\n## Scene 2: Pier — Pier 9"),
    ({"type": "GMMoveMade", "move": "x", "name": "Show the cost", "kind": "hard",
      "text": "Glass everywhere.", "reason": "after a miss"},
     "**GM — Show the cost** (hard): Glass everywhere.\n  _why: after a miss_"),
    ({"type": "ActionStarted", "action": 3, "label": "roll"}, None),
    ({"type": "FlowChanged", "flow": {}}, None),
    ({"type": "SomethingNew"}, "(SomethingNew)"),
])
def test_render(masks: Pack, event: dict[str, Any], line: str | None) -> None:
    assert render(event, masks, NPCS) == line


def test_render_without_a_pack_uses_ids() -> None:
    assert render({"type": "ConditionMarked", "who": "hero", "condition": "afraid",
                   "reason": ""}) == "⚑ You marked afraid"


@pytest.mark.parametrize(("title", "location", "heading"), [
    ("The Magistracy steps", "the Magistracy steps, Bellwether Square",
     "The Magistracy steps, Bellwether Square"),
    ("A diner that never closes", "a diner that never closes", "A diner that never closes"),
    ("Blackout at the pier", "Pier 9", "Blackout at the pier — Pier 9"),
    ("Pier", "Pier 9", "Pier — Pier 9"),
    ("Opening scene", "", "Opening scene"),
    ("Lantern Row by night", "Lantern Row", "Lantern Row by night"),
    ("Back to the pier 9 docks", "Pier 9", "Back to the pier 9 docks"),
])
def test_scene_heading_names_the_place_once(title: str, location: str, heading: str) -> None:
    event = {"type": "SceneStarted", "number": 2, "title": title, "location": location,
             "stakes": "", "present": []}
    assert render(event) == f"\n## Scene 2: {heading}"


def test_nothing_chosen_gives_no_empty_line() -> None:
    event = {"type": "OptionsChosen", "move": "x", "options": [], "texts": []}
    assert render(event) is None
    assert render({**event, "options": ["a"], "texts": ["Take +1 forward."]}) == \
        "Chosen: Take +1 forward."


def test_blanks_survive_the_journal() -> None:
    event = {"type": "QuestionsAsked", "move": "x",
             "questions": ["What here could help me ___?"]}
    assert render(event) == "Asked: What here could help me ___?"


@pytest.mark.parametrize(("band", "total", "label"), [
    ("Weak hit", 7, "Weak hit (7)"),
    ("Strong hit (10-11)", 11, "Strong hit (10-11): 11"),
    ("Miss (6-)", 4, "Miss (6-): 4"),
])
def test_result_label_shows_the_total_once(band: str, total: int, label: str) -> None:
    assert result_label(band, total) == label


def test_a_ready_made_hero_under_its_own_name_joins_without_repeating_it() -> None:
    from pathlib import Path

    from engine.content.loader import load_pack
    from engine.game import Game
    from engine.journal import render_all

    pack = load_pack(Path(__file__).resolve().parents[2] / "content" / "panels")
    g = Game.new(pack, name="t", hero_name="Rivet", archetype="rivet", seed=1,
                 party=[{"name": "Nightjar", "archetype": "nightjar"},
                        {"name": "Kit", "archetype": "nightjar"}])
    lines = render_all(list(g.store.events()), g.pack, {})
    assert "• Nightjar joins the party" in lines
    assert "• Kit (Nightjar) joins the party" in lines
