"""The sheet as typed sections: the generic default, the Masks sheet (Influence, Team) and the
City of Whispers sheet (beliefs, Ties and secrets, the city, schemes, factions)."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.content.loader import Pack, load_pack
from engine.game import Game
from engine.rules import events as ev
from engine.rules.sheet import Check, Line, Section, Stat, Tag, Track
from engine.systems.city_of_whispers import CityFactionChanged, CitySheetChanged

ROOT = Path(__file__).resolve().parents[2]
COW_NPCS = [("Odile Farrow", "contact", "fence"), ("Madam Ysolde Marrowgate", "patron", ""),
            ("Silas Quill", "rival", "")]
MASKS_NPCS = [("Rosalind Okafor-Haig", "adult", "Meteorologist"), ("Tin", "teammate", "")]


@pytest.fixture(scope="module")
def cow() -> Pack:
    return load_pack(ROOT / "content" / "city-of-whispers")


@pytest.fixture(scope="module")
def masks() -> Pack:
    return load_pack(ROOT / "content" / "masks")


def setup(game: Game, *events: ev.Event) -> None:
    with game._action("test set-up"):
        for e in events:
            game._emit(e)


def section(sections: list[Section], title: str) -> Section:
    found = [s for s in sections if s.title == title]
    assert found, f"no section {title!r} in {[s.title for s in sections]}"
    return found[0]


def texts(sec: Section) -> list[str]:
    return [r.text for r in sec.rows if isinstance(r, Line)]


def test_generic_sheet_has_the_stats_with_bounds_conditions_and_tracks() -> None:
    pack = load_pack(ROOT / "tests" / "data" / "minimal")
    game = Game.new(pack, name="T", hero_name="Ash", archetype="drifter", seed=1)
    sheet = game.rules.sheet(game.state)
    assert sheet[0].title == ""
    assert texts(sheet[0]) == ["Ash", "Drifter"]
    stats = section(sheet, pack.system.stat_label).rows
    assert stats == [Stat(label="Grit", value=1, min=-1, max=2),
                     Stat(label="Wits", value=0, min=-1, max=2)]
    assert section(sheet, "Conditions").rows == [Check(label="Tired", marked=False)]
    assert section(sheet, "Tracks").rows == [Track(label="XP", value=0, min=0, max=3)]
    assert sheet[-1].title == "Session 1"
    assert [s.title for s in sheet if s.title in ("Beliefs", "Ties", "Cast")] == []


def test_masks_sheet_tags_influence_in_the_cast_and_shows_the_team_pool(masks: Pack) -> None:
    game = Game.new(masks, name="T", hero_name="Nova", archetype="signal_fire",
                    npcs=MASKS_NPCS, seed=1)
    sheet = game.rules.sheet(game.state)
    cast = {r.text: r for r in section(sheet, "Cast").rows if isinstance(r, Line)}
    assert Tag(text="⇐ Influence on you", tone="mixed") in cast["Rosalind Okafor-Haig"].tags
    assert cast["Tin"].tags == []
    team = game.state.pools["team"]
    assert texts(sheet[-1])[-1] == f"Team pool {team}"


def test_city_sheet_shows_beliefs_ties_and_secrets(cow: Pack) -> None:
    game = Game.new(cow, name="T", hero_name="Mira", archetype="go_between", npcs=COW_NPCS,
                    seed=7)
    sheet = game.rules.sheet(game.state)
    beliefs = section(sheet, "Beliefs")
    assert texts(beliefs) == ["Everyone in Vell has a price, and most of them are cheap.",
                              "Debts are the only loyalty that lasts."]
    ties = {r.text: r for r in section(sheet, "Ties").rows if isinstance(r, Line)}
    assert set(ties) == {"Odile Farrow", "Madam Ysolde Marrowgate"}
    assert ties["Odile Farrow"].detail == "you know of their criminal connections"
    assert ties["Odile Farrow"].tags == [Tag(text="secret intact", tone="good")]
    assert section(sheet, "Your faction: The Tallow Exchange").rows
    others = texts(section(sheet, "Factions"))
    assert "The Vigil" in others and "The Tallow Exchange" not in others
    standing = next(r for r in section(sheet, "Tracks").rows
                    if isinstance(r, Track) and r.label == "Standing")
    assert (standing.min, standing.max, standing.value) == (-3, 3, 0)
    titles = [s.title for s in sheet]
    assert titles.index("Beliefs") < titles.index("Cast") < titles.index("Session 1")


def test_city_sheet_follows_the_events(cow: Pack) -> None:
    game = Game.new(cow, name="T", hero_name="Mira", archetype="go_between", npcs=COW_NPCS,
                    seed=7)
    sheet_data = game.state.hero.data
    beliefs = [dict(b) for b in sheet_data["beliefs"]]
    beliefs[0]["state"] = "challenged"
    beliefs[1]["state"] = "wrong"
    ties = {k: dict(v) for k, v in sheet_data["ties"].items()}
    ties["odile_farrow"].update(secret="marked", active=False)
    setup(game,
          CitySheetChanged(key="beliefs", value=beliefs),
          CitySheetChanged(key="ties", value=ties),
          CitySheetChanged(key="schemes",
                           value=[{"id": "s1", "name": "Gossip", "productivity": -2}]),
          CitySheetChanged(key="demands", value=[{"text": "keep the lamps lit", "met": False}]),
          CityFactionChanged(faction="the_vigil", value=None))
    sheet = game.rules.sheet(game.state)
    rows = [r for r in section(sheet, "Beliefs").rows if isinstance(r, Line)]
    assert [(r.bullet, r.detail) for r in rows] == [
        ("◐", "challenged"), ("✗", "proven wrong: no advantage")]
    odile = next(r for r in section(sheet, "Ties").rows
                 if isinstance(r, Line) and r.text == "Odile Farrow")
    assert [t.text for t in odile.tags] == ["secret marked", "no longer your Tie"]
    schemes = section(sheet, "Schemes").rows
    assert schemes[1] == Track(label="  Productivity", value=-2, min=-3, max=3)
    assert "Demand 1 of 4: keep the lamps lit" in texts(section(sheet, "The city"))
    assert "The Vigil" not in texts(section(sheet, "Factions"))


def test_sheet_of_another_actor_reads_their_data(cow: Pack) -> None:
    game = Game.new(cow, name="T", hero_name="Mira", archetype="go_between", npcs=COW_NPCS,
                    seed=7)
    npc = game.state.npc_by_name("Silas Quill")
    assert npc is not None
    sheet = game.rules.sheet(game.state, npc.id)
    assert texts(sheet[0])[0] == "Silas Quill"
    assert not [s for s in sheet if s.title in ("Beliefs", "Ties", "Power", "Factions")]
