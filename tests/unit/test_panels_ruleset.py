"""The panels game's ruleset out of a fight (engine/systems/panels/rules.py) through Game with the
real pack: checks with the skill-modifier table and the naturals, stunned, rest, first aid, the
sheet, custom heroes and validate."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
import yaml

from engine.content.loader import Pack, load_pack
from engine.game import Game
from engine.rules.sheet import Bar, Line
from engine.systems import ruleset_for
from engine.systems.panels import builder
from engine.systems.panels.registry import TracksSet
from engine.systems.panels.rules import PanelsRules
from engine.systems.panels.statblock import problems
from engine.systems.panels.step import block_of

CONTENT = Path(__file__).resolve().parents[2] / "content" / "panels"


@pytest.fixture(scope="module")
def pack() -> Pack:
    """The bundled panels pack."""
    return load_pack(CONTENT)


def new(pack: Pack, hero: str = "nightjar", physical: bool = True,
        stats: dict[str, int] | None = None) -> Game:
    """A one-hero campaign, dice entered by default."""
    return Game.new(pack, name="t", hero_name=hero.title(), archetype=None if stats else hero,
                    stats=stats, seed=3, dice_mode="physical" if physical else "seeded")


def check(g: Game, stat: str, face: int) -> str:
    """Make a check with ``stat`` on an entered die; the band id."""
    g.trigger("characteristic_check")
    g.set_roll_options(stat=stat)
    events = g.roll([face])
    rolled = next(e for e in events if e["type"] == "Rolled")
    return str(rolled["band"])


def hurt(g: Game, kill: int, stun: int, conditions: list[str] | None = None) -> None:
    """Set the acting hero's tracks as a fight would (the event TracksSet)."""
    hero = g.state.hero
    with g._action("test"):
        g._emit(TracksSet(actor=hero.id, tracks={"kill": kill, "stun": stun},
                          conditions=conditions or [], why="test"))


def test_the_pack_is_valid_and_plays_the_panels_ruleset(pack: Pack) -> None:
    assert isinstance(ruleset_for(pack), PanelsRules)
    assert PanelsRules.check_content(pack) == []
    assert [b.id for b in pack.system.bands["default"]] == ["failure", "minor", "complete"]


@pytest.mark.parametrize(("face", "band"), [(8, "failure"), (9, "minor"), (11, "minor"),
                                            (12, "complete"), (19, "complete")])
def test_a_check_adds_the_skill_modifier_not_the_characteristic(pack: Pack, face: int,
                                                                band: str) -> None:
    g = new(pack)  # Nightjar, Agility 24: +6
    assert check(g, "agility", face) == band
    rolled = next(e for e in g.store.events() if e["type"] == "Rolled")
    assert rolled["total"] == face + 6
    assert any("Agility 24" in str(m[0]) and m[1] == 6 for m in rolled["modifiers"])


def test_a_natural_20_always_succeeds_completely_even_stunned(pack: Pack) -> None:
    g = new(pack, "rivet")  # Agility 10: +0
    hurt(g, 3, 50, ["stunned"])  # 3 of 40 Kill: stunned, -5
    events = g.trigger("characteristic_check")
    g.set_roll_options(stat="agility")
    events = g.roll([20])
    rolled = next(e for e in events if e["type"] == "Rolled")
    assert rolled["total"] == 15 and rolled["band"] == "complete"
    assert any(m[0] == "Stunned" and m[1] == -5 for m in rolled["modifiers"])


def test_a_natural_1_always_fails(pack: Pack) -> None:
    rules = PanelsRules(pack)
    move = pack.moves["characteristic_check"]
    g = new(pack)
    over = rules.band_override(g.state, move, [1], "minor")
    assert over is not None and over.band == "failure" and "natural 1" in over.why
    assert rules.band_override(g.state, move, [1], "failure") is None
    assert rules.band_override(g.state, move, [12], "complete") is None


def test_stunned_costs_5_on_every_check_move(pack: Pack) -> None:
    stunned = pack.conditions["stunned"]
    assert stunned.penalty == -5
    rolled_moves = {m.id for m in pack.moves.values() if m.roll is not None}
    assert set(stunned.penalises) == rolled_moves


def test_the_odds_shown_before_a_check_are_exact(pack: Pack) -> None:
    g = new(pack)  # +6: 15-17 minor needs 9-11, 18+ needs 12-20
    assert g.preview("characteristic_check", stat="agility").odds == {
        "failure": "40.0%", "minor": "15.0%", "complete": "45.0%"}


def test_the_odds_count_the_natural_20_when_only_it_succeeds(pack: Pack) -> None:
    g = new(pack, "rivet")
    hurt(g, 3, 50, ["stunned"])  # Agility 10 (+0) and stunned (-5): 18 needs 23
    assert g.preview("characteristic_check", stat="agility").odds == {
        "failure": "95.0%", "minor": "0.0%", "complete": "5.0%"}


def test_rest_brings_stun_back_and_a_fifth_of_kill(pack: Pack) -> None:
    g = new(pack, "rivet", physical=False)  # Kill 40, Stun 50
    hurt(g, 3, 4, ["stunned"])
    g.trigger("rest")
    hero = g.state.hero
    assert hero.tracks == {"kill": 11, "stun": 50}
    assert hero.conditions == []
    g.trigger("rest")
    assert g.state.hero.tracks["kill"] == 19


def test_rest_cannot_help_the_dying_or_a_hero_not_hurt(pack: Pack) -> None:
    g = new(pack, "rivet", physical=False)
    events = g.trigger("rest")
    assert any(e["type"] == "Narrated" and "not hurt" in e["text"] for e in events)
    hurt(g, 0, 10, ["dying", "unconscious"])
    events = g.trigger("rest")
    assert any(e["type"] == "Narrated" and "first aid" in e["text"] for e in events)
    assert g.state.hero.tracks["kill"] == 0


@pytest.mark.parametrize(("face", "kill"), [(18, 15), (15, 12), (14, 10)])
def test_first_aid_gives_back_kill_by_band(pack: Pack, face: int, kill: int) -> None:
    g = new(pack, "rivet")  # Wits 11: +0
    hurt(g, 10, 50)
    g.trigger("first_aid")
    g.roll([face])
    assert g.state.hero.tracks["kill"] == kill


def test_first_aid_stabilises_the_dying_first(pack: Pack) -> None:
    g = new(pack, "rivet")
    hurt(g, 0, 20, ["dying", "unconscious"])
    g.trigger("first_aid")
    g.roll([15])  # minor: +2 on top of the 1 that stabilises
    hero = g.state.hero
    assert hero.tracks["kill"] == 3
    assert "dying" not in hero.conditions and "stunned" in hero.conditions  # 3 of 40


def test_the_sheet_shows_characteristics_with_modifiers_and_kill_stun_bars(pack: Pack) -> None:
    g = new(pack, "rivet", physical=False)
    hurt(g, 4, 30, ["stunned"])
    sections = {s.title: s for s in g.rules.sheet(g.state)}
    chars = " ".join(r.text for r in sections["Characteristics"].rows
                     if isinstance(r, Line))
    assert "Str 25 +7" in chars and "Agi 10 +0" in chars and "Nrv 17 +3" in chars
    bars = [r for r in sections["Health"].rows if isinstance(r, Bar)]
    assert [(b.label, b.value, b.max, b.low) for b in bars] == [("Kill", 4, 40, 4),
                                                                ("Stun", 30, 50, 5)]
    assert any(isinstance(r, Line) and r.text == "Stunned" for r in sections["Health"].rows)
    assert "Riveted Fist" in [r.lead for r in sections["Attacks"].rows if isinstance(r, Line)]


def test_kill_and_stun_can_be_set_by_hand_within_the_block(pack: Pack) -> None:
    g = new(pack, "rivet", physical=False)
    fields = {f.key: f for f in g.editable("hero") if f.what == "track"}
    assert (fields["kill"].value, fields["kill"].max) == (40, 40)
    g.edit("hero", "track", "stun", 20)
    assert g.state.hero.tracks["stun"] == 20
    with pytest.raises(Exception, match="from 0 to 40"):
        g.edit("hero", "track", "kill", 41)
    assert not [f for f in g.editable("hero") if f.what == "stat"]


def test_a_ready_made_hero_holds_its_block_and_a_custom_one_a_derived_block(
        pack: Pack) -> None:
    g = new(pack, "quarrel", physical=False)
    assert g.state.hero.data["statblock"] == "quarrel"
    stats = {"agility": 16, "dexterity": 18, "strength": 21, "wits": 12, "nerve": 14}
    c = new(pack, "Tess", physical=False, stats=stats)
    blk = block_of(pack, c.state, c.state.hero.id)
    assert blk is not None and blk.kind == "hero" and problems(blk) == []
    # Kill 20 + Strength 21's +4 x 2 + Nerve 14's +2 x 2 = 32; Stun 10 more
    assert (blk.kill, blk.stun) == (32, 42)
    assert blk.characteristics.other == {"wits": 12, "nerve": 14}


def test_a_derived_block_stays_within_the_hero_limits() -> None:
    big = builder.derived("Big", {"agility": 25, "dexterity": 25, "strength": 25,
                                  "nerve": 25, "wits": 1})
    assert (big.kill, big.stun) == (40, 50)
    small = builder.derived("Small", {"strength": 1, "nerve": 1})
    assert (small.kill, small.stun) == (12, 22)  # 20 + 0 - 8


def test_a_hero_file_with_a_broken_limit_is_read_and_the_limit_named(tmp_path: Path) -> None:
    path = tmp_path / "hero.yaml"
    path.write_text(yaml.safe_dump({
        "name": "Overdone", "kind": "hero",
        "characteristics": {"agility": 28, "dexterity": 20, "strength": 20},
        "kill": 45, "stun": 30, "attacks": [{"name": "Fists", "fist": True}]}))
    blk = builder.load_hero_file(path)
    found = problems(blk)
    assert any("agility 28 is above the hero's limit of 25" in p for p in found)
    assert any("kill 45 is outside 10-40" in p for p in found)
    path.write_text("name: [unclosed")
    with pytest.raises(Exception, match="not valid YAML"):
        builder.load_hero_file(path)


def test_validate_names_a_broken_block_an_archetype_mismatch_and_a_wrong_cost(
        tmp_path: Path) -> None:
    folder = tmp_path / "panels"
    shutil.copytree(CONTENT, folder)
    chars = yaml.safe_load((folder / "characters.yaml").read_text())
    chars["characters"][0]["kill"] = 99  # Rivet, a hero: 10-40
    (folder / "characters.yaml").write_text(yaml.safe_dump(chars))
    system = yaml.safe_load((folder / "system.yaml").read_text())
    system["archetypes"][1]["stats"]["agility"] = 23  # Nightjar's block has 24
    system["archetypes"][2]["data"]["statblock"] = "voltaik"
    (folder / "system.yaml").write_text(yaml.safe_dump(system))
    actions = yaml.safe_load((folder / "actions.yaml").read_text())
    actions["actions"]["attack"]["cost"] = 2
    actions["actions"]["teleport"] = {"name": "Teleport", "cost": 1}
    (folder / "actions.yaml").write_text(yaml.safe_dump(actions))
    found = PanelsRules.check_content(load_pack(folder))
    assert "characters.yaml: Rivet (hero): kill 99 is outside 10-40" in found
    assert ("system.yaml: archetypes.nightjar.stats.agility: 23 but its stat block has 24"
            in found)
    assert any(p.startswith("system.yaml: archetypes.voltaic.data.statblock: no stat block"
                            " 'voltaik'") for p in found)
    assert any(re.fullmatch(r"actions\.yaml:\d+: actions\.attack\.cost: 2, but the rules"
                            r" charge 1 for it", p) for p in found), found
    assert any(re.match(r"actions\.yaml:\d+: actions\.teleport: unknown action id", p)
               for p in found), found


def test_a_villain_added_by_name_plays_its_block(pack: Pack) -> None:
    g = new(pack, physical=False)
    g.add_npc("Cutglass", "villain")
    assert g.state.actors["cutglass"].data["statblock"] == "cutglass"
    g.add_npc("Old Mo", "bystander")
    assert "statblock" not in g.state.actors["old_mo"].data
