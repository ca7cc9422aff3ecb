"""The panels game played from outside: ``sidekick new --statblock`` with a panels hero file,
fight steps in scripts (the dodge/parry answer with ``choose``, physical dice), a fight
interrupted in the middle of a panel and resumed from disk, and the example fight."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.cli import main

HERO = """\
name: Sparrowhawk
kind: hero
concept: A courier who runs along the Skyrail's roof with a hooked line.
characteristics: {agility: 20, dexterity: 18, strength: 12, other: {wits: 14}}
kill: 30
stun: 36
attacks:
  - {name: Fists, range: melee, fist: true}
  - {name: Hook Line, range: missile, speed: slow, modifier: 2}
"""
NEW = ["new", "Skyrail Watch", "--system", "panels", "--seed", "4"]


# ------------------------------------------------------------------ sidekick new --statblock


def test_new_with_a_panels_hero_from_a_stat_block(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    from engine.campaigns import close_game, open_game

    saves, hero = tmp_path / "saves", tmp_path / "sparrowhawk.yaml"
    hero.write_text(HERO, encoding="utf-8")
    assert main(["--saves", str(saves), *NEW, "--statblock", str(hero),
                 "--party", "Rivet:rivet"]) == 0
    assert "Created campaign 'Skyrail Watch' (skyrail-watch)" in capsys.readouterr().out
    game = open_game(saves, "skyrail-watch", [])
    try:
        hawk = game.state.actors["sparrowhawk"]
        assert hawk.name == "Sparrowhawk" and hawk.archetype is None
        # the pack's characteristics, Nerve (left out of the file) at 10
        assert hawk.stats == {"agility": 20, "dexterity": 18, "strength": 12, "wits": 14,
                              "nerve": 10}
        assert hawk.data["statblock"]["kill"] == 30
        game.start_fight(["tinmarket_tough"])
        row = next(r for r in game.tracker() if r["actor"] == "sparrowhawk")
        assert (row["kill"], row["kill_max"], row["stun_max"]) == (30, 30, 36)
        forms = [o["attack_name"] for o in game.fight_options("sparrowhawk") if o.get("attack")]
        assert forms == ["Fists", "Hook Line"]
    finally:
        close_game(game)


@pytest.mark.parametrize(("edits", "messages"), [
    ({"agility: 20": "agility: 28", "kill: 30": "kill: 90", "modifier: 2}": "modifier: 9}"},
     ["Sparrowhawk (hero): agility 28 is above the hero's limit of 25",
      "Sparrowhawk (hero): kill 90 is outside 10-40",
      "Sparrowhawk (hero): Hook Line's damage modifier +9 is above +6"]),
    ({"dexterity: 18, strength: 12": "dexterity: 25, strength: 25"},
     ["agility + dexterity + strength is 70, above the hero's limit of 60"]),
    ({"kind: hero": "kind: villain"}, ["Sparrowhawk is a villain, not a hero (kind: hero)"]),
    ({"kill: 30": "kill: lots"}, ["'Sparrowhawk': kill: Input should be a valid integer"]),
    ({"name: Sparrowhawk": "name: ["}, ["not valid YAML"]),
])
def test_a_bad_panels_hero_file_names_the_file_and_every_problem(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], edits: dict[str, str],
        messages: list[str]) -> None:
    hero = tmp_path / "hero.yaml"
    text = HERO
    for old, new in edits.items():
        text = text.replace(old, new)
    hero.write_text(text, encoding="utf-8")
    assert main(["--saves", str(tmp_path / "saves"), *NEW, "--statblock", str(hero)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"sidekick: error: {hero}") and "Traceback" not in err, err
    for message in messages:
        assert message in err, err
    assert not (tmp_path / "saves").exists() or not any((tmp_path / "saves").iterdir())


def test_the_ruleset_hook_reads_a_file_for_each_game(tmp_path: Path) -> None:
    from engine.content.loader import get_pack
    from engine.errors import IllegalAction
    from engine.rules import ruleset_for

    hero = tmp_path / "hero.yaml"
    hero.write_text("characters:\n" + "".join(f"    {line}\n" if i else f"  - {line}\n"
                                                for i, line in enumerate(HERO.splitlines())),
                    encoding="utf-8")
    name, stats, data = ruleset_for(get_pack("panels", [])).hero_from_file(hero)
    assert (name, stats["agility"], data["statblock"]["name"]) == (
        "Sparrowhawk", 20, "Sparrowhawk")
    with pytest.raises(IllegalAction, match=r"City of Whispers.* has no stat block files"):
        ruleset_for(get_pack("city-of-whispers", [])).hero_from_file(hero)
