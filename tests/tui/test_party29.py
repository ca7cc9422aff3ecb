"""Pilot tests (80x24) of issue 29's party play: every hero takes the end-of-session move,
defending a teammate protects them, hold and clearing per hero, a fiction line that names a
hero acts as them, and the villain away from the opening scene."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.widgets import Static

from engine.rules import events as ev
from engine.tui.app import SidekickApp
from engine.tui.screens.dialogs import ChoiceDialog, ConfirmDialog, DiceDialog
from engine.tui.screens.play import PlayScreen
from engine.tui.widgets.action_menu import ActionMenu
from tests.conftest import Helpers
from tests.tui.conftest import fill, game_of, journal_text, settle

App = Callable[..., SidekickApp]
SMALL = (80, 24)
PARTY = [{"name": "Tin", "archetype": "pawnshop_paladin"},
         {"name": "Ash", "archetype": "stitchwork"}]


def topbar(app: SidekickApp) -> str:
    """The play screen's top bar as plain text."""
    play = next(s for s in app.screen_stack if isinstance(s, PlayScreen))
    return str(play.query_one("#topbar", Static).render())


async def pick(pilot: Any, option: str) -> None:
    """In the open choice dialog, move to ``option`` and take it."""
    dialog = pilot.app.screen
    assert isinstance(dialog, ChoiceDialog), dialog
    ids = [o.id for o in dialog.options]
    assert option in ids, ids
    for _ in range(ids.index(option)):
        await pilot.press("down")
    await pilot.press("enter")
    await settle(pilot)


async def test_every_hero_takes_the_end_of_session_move(make_campaign: Callable[..., str],
                                                        app_for: App) -> None:
    app = app_for(make_campaign(party=PARTY))
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        game = game_of(app)
        await pilot.press("f7")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("y")
        await settle(pilot)
        # each hero in turn, their own choice of whom they grew closer to
        seen = []
        for hero, first, then in [("Nova", "grow_closer", ["tin", "potential"]),
                                  ("Tin", "grow_closer", ["ash", "potential"]),
                                  ("Ash", "grow_closer", ["nova", "potential"])]:
            assert game.state.hero.name == hero
            assert f"▶ {hero} acting" in topbar(app)
            assert app.screen.dialog_title == "End of session"  # type: ignore[attr-defined]
            seen.append(hero)
            await pick(pilot, first)
            for option in then:
                await pick(pilot, option)
        assert seen == ["Nova", "Tin", "Ash"]
        assert isinstance(app.screen, PlayScreen)
        assert game.flow.stage == "fiction"
        assert game.state.hero.name == "Nova"  # the spotlight back where it was
        st = game.state
        assert [st.actors[h].tracks.get("potential") for h in ("nova", "tin", "ash")] == [1] * 3
        text = journal_text(app)
        for line in ("Tin gains Influence over Nova", "Ash gains Influence over Tin",
                     "Nova gains Influence over Ash"):
            assert line in text
        assert "▶ Tin: End of session" in text and "▶ Ash: End of session" in text
        assert "Session 1 ends." in text
        await pilot.press("ctrl+z")  # undo takes back the last choice: Ash's, asked again
        await settle(pilot)
        assert game.state.hero.name == "Ash" and isinstance(app.screen, ChoiceDialog)
        assert game.state.actors["ash"].tracks.get("potential", 0) == 0


MINJI = [("Min-ji Seo", "teammate", "Sings in the choir"),
         ("Dusk Meridian", "villain", "Wants your glow")]
LOFT = ("I slam the gauntlet into the chapel pillar to bring the organ loft crashing down"
        " between the choir and Min-ji")


async def _defend(pilot: Any, fiction: str) -> None:
    """Say ``fiction``, take Defend someone from the suggestions, on Min-ji."""
    app = pilot.app
    await fill(pilot, "#fiction", fiction)
    await pilot.press("enter")
    await settle(pilot)
    menu = app.screen.query_one(ActionMenu)
    ids = [menu.get_option_at_index(i).id for i in range(menu.option_count)]
    for _ in range(ids.index("move:defend_someone")):
        await pilot.press("down")
    await pilot.press("enter")
    await settle(pilot)
    if isinstance(app.screen, ChoiceDialog) and app.screen.dialog_title == "Defend someone" \
            and "min_ji_seo" in [o.id for o in app.screen.options]:
        assert app.screen.options[0].id == "min_ji_seo"  # the one the fiction names
        await pilot.press("enter")
        await settle(pilot)


async def _miss(pilot: Any) -> None:
    await pilot.press("enter")  # roll: your own dice
    await settle(pilot)
    assert isinstance(pilot.app.screen, DiceDialog)
    await fill(pilot, "#faces", "1 1")
    await pilot.press("enter")
    await settle(pilot)


async def test_defending_a_teammate_protects_them_and_the_dialog_asks(
        make_campaign: Callable[..., str], app_for: App) -> None:
    app = app_for(make_campaign(npcs=MINJI))
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        game = game_of(app)
        await _defend(pilot, LOFT)
        dialog = app.screen  # the fiction does not say whose side: asked, protecting first
        assert isinstance(dialog, ChoiceDialog)
        assert [o.id for o in dialog.options] == ["protect_teammate", "oppose_teammate"]
        assert "You protect Min-ji Seo" in str(dialog.options[0].label)
        await pilot.press("enter")
        await settle(pilot)
        assert game.flow.declared == ["protect_teammate"]
        await _miss(pilot)
        text = journal_text(app)
        assert "You could not cover them in time" in text
        assert "You fail to stop your teammate" not in text


async def test_standing_against_a_teammate_is_said_or_chosen(
        make_campaign: Callable[..., str], app_for: App) -> None:
    app = app_for(make_campaign(npcs=MINJI))
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        game = game_of(app)
        await _defend(pilot, "I step in to stop Min-ji before she torches the choir loft")
        assert isinstance(app.screen, PlayScreen)  # the fiction said it: nothing asked
        assert game.flow.stage == "roll" and game.flow.declared == []
        await _miss(pilot)
        assert "You fail to stop your teammate" in journal_text(app)


async def test_the_end_of_scene_dialog_lists_every_heros_conditions(
        make_campaign: Callable[..., str], app_for: App) -> None:
    app = app_for(make_campaign(party=PARTY))
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        game = game_of(app)
        Helpers.setup(game, ev.ConditionMarked(who="nova", condition="angry"),
                      ev.ConditionMarked(who="tin", condition="afraid"),
                      ev.ConditionMarked(who="ash", condition="guilty"))
        await pilot.press("f5")
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, ChoiceDialog)
        assert [o.id for o in dialog.options] == ["angry", "tin:afraid", "ash:guilty"]
        assert [str(o.label) for o in dialog.options] == [
            "Nova: Angry", "Tin: Afraid", "Ash: Guilty"]
        await pilot.press("down", "space", "enter")  # Tin took Afraid's clearing action
        await settle(pilot)
        st = game.state
        assert st.actors["tin"].conditions == []
        assert st.actors["nova"].conditions == ["angry"]
        assert st.actors["ash"].conditions == ["guilty"]


class Keys:
    """Counts the keys a test presses (typing the fiction is words, not keys)."""

    def __init__(self, pilot: Any) -> None:
        self.pilot = pilot
        self.count = 0

    async def press(self, *keys: str) -> None:
        self.count += len(keys)
        await self.pilot.press(*keys)
        await settle(self.pilot)


async def test_a_line_that_starts_with_a_heros_name_is_theirs_in_four_keys(
        make_campaign: Callable[..., str], app_for: App) -> None:
    app = app_for(make_campaign(party=PARTY, dice_mode="seeded"))
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        game = game_of(app)
        assert game.state.hero.name == "Nova"
        keys = Keys(pilot)
        # an ordinary move (fiction, move, target, roll), as Ash, with seeded dice
        await fill(pilot, "#fiction", "Ash provokes Dusk Meridian into a rage")
        await keys.press("enter")  # the fiction: Ash takes the spotlight, moves suggested
        assert game.state.hero.name == "Ash" and game.flow.stage == "move"
        assert "▶ Ash acting" in topbar(app)
        await keys.press("enter")  # the first suggestion: Provoke someone
        assert game.flow.stage == "target" and game.flow.target == "dusk_meridian"
        await keys.press("enter")  # the target the fiction named, first
        assert game.flow.stage == "roll"
        await keys.press("enter")  # roll (seeded dice)
        assert game.flow.stage != "roll"
        assert keys.count == 4
        text = journal_text(app)
        assert "🎭 The spotlight turns to Ash (from Nova)" in text
        assert "Ash: Provoke someone → Dusk Meridian" in text


async def test_undo_takes_the_line_and_the_switch_back_and_a_quick_key_switches(
        make_campaign: Callable[..., str], app_for: App) -> None:
    app = app_for(make_campaign(party=PARTY))
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        game = game_of(app)
        await fill(pilot, "#fiction", "Tin hacks the drone")
        await pilot.press("enter")
        await settle(pilot)
        assert game.state.hero.name == "Tin"
        await pilot.press("ctrl+z")  # one action: the line and the switch, both back
        await settle(pilot)
        assert game.state.hero.name == "Nova" and game.flow.stage == "fiction"
        await fill(pilot, "#fiction", "Tin hacks the drone")
        await pilot.press("enter")
        await settle(pilot)
        await pilot.press("escape")  # Esc steps back out of the suggestions: both back too
        await settle(pilot)
        assert game.state.hero.name == "Nova" and game.flow.stage == "fiction"
        await pilot.press("shift+f3")  # one key: the next hero
        await settle(pilot)
        assert game.state.hero.name == "Tin"
        await pilot.press("shift+f3")
        await settle(pilot)
        assert game.state.hero.name == "Ash"
        await pilot.press("shift+f3")  # round the party
        await settle(pilot)
        assert game.state.hero.name == "Nova"
        assert "▶ Nova acting" in topbar(app)


async def test_the_villain_starts_away_from_the_opening_scene(
        make_campaign: Callable[..., str], app_for: App) -> None:
    app = app_for(make_campaign())  # Rosalind, Dusk Meridian (the villain), Tin, Parveen
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        st = game_of(app).state
        assert not st.actors["dusk_meridian"].present
        assert "dusk_meridian" not in st.scene.present
        assert {a.name for a in st.npcs.values() if a.present} == {
            "Rosalind Okafor-Haig", "Tin", "Parveen"}
    app = app_for(make_campaign("Dusk Is Here", present=["Dusk Meridian", "Tin"]))
    async with app.run_test(size=SMALL) as pilot:  # the player says otherwise: so be it
        await settle(pilot)
        st = game_of(app).state
        assert sorted(st.scene.present) == ["dusk_meridian", "tin"]
