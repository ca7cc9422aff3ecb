"""Pilot tests at 80x24 of issue 29's M&M and panels rough edges: setting a DC, the roll's why,
the stat the panel shows, labelled percentages, maneuvers refused where offered."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Input, OptionList

from engine.campaigns import close_game, new_game
from engine.tui.app import SidekickApp
from engine.tui.messages import RollCommand
from engine.tui.screens.play import PlayScreen
from engine.tui.screens.play.rolls import ParamsDialog
from engine.tui.widgets.fight import FightList
from engine.tui.widgets.roll_panel import RollPanel
from tests.tui.conftest import game_of, journal_text, settle

SMALL = (80, 24)


def mm_app(saves: Path, seed: int = 3) -> SidekickApp:
    game = new_game(saves, system="mutants-and-masterminds", name="Harbor Night",
                    hero_name="Keystone", archetype="keystone", seed=seed)
    cid = str(game.store.id)  # type: ignore[attr-defined]
    close_game(game)
    return SidekickApp(saves_dir=saves, campaign=cid)


async def test_setting_a_dc_lists_the_difficulties_and_takes_a_typed_number(
        saves: Path) -> None:
    app = mm_app(saves)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, PlayScreen)
        game = game_of(app)
        screen.use_move("skill_check")
        await settle(pilot)
        assert game.flow.stage == "roll"
        screen.post_message(RollCommand("params"))
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, ParamsDialog)
        labels = [str(o.prompt).split("\n")[0]
                  for o in dialog.query_one("#choices", OptionList).options]
        # the named difficulties and the referee's choice, not 41 values
        assert labels[0] == "DC 0: very easy" and "DC 15: tough (now)" in labels
        assert len(labels) == 10 and labels[-1].endswith("you choose")
        # the scale is said once, not under every value
        assert all("\n" not in str(o.prompt)
                   for o in dialog.query_one("#choices", OptionList).options[:-1])
        # typing a number on the list goes to the number box; Enter sets it
        await pilot.press("2", "2")
        await settle(pilot)
        assert dialog.query_one("#param-dc", Input).value == "22"
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, PlayScreen)
        assert game.flow.params["dc"] == 22
        # a named one from the list
        screen.post_message(RollCommand("params"))
        await settle(pilot)
        choices = app.screen.query_one("#choices", OptionList)
        choices.highlighted = 4  # DC 20: challenging
        await pilot.press("enter")
        await settle(pilot)
        assert game.flow.params["dc"] == 20
        # out of range: refused inline, the dialog stays
        screen.post_message(RollCommand("params"))
        await settle(pilot)
        await pilot.press("4", "5", "enter")
        await settle(pilot)
        assert isinstance(app.screen, ParamsDialog)
        assert "from 0 to 40" in str(app.screen.query_one("#dialog-error").render())
        assert game.flow.params["dc"] == 20


async def test_the_rolls_why_is_in_words(saves: Path) -> None:
    app = mm_app(saves)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, PlayScreen)
        game = game_of(app)
        screen.use_move("ability_check")
        await settle(pilot)
        assert screen.perform(game.set_roll_options, stat="strength", params={"dc": 31})
        await settle(pilot)
        panel = app.screen.query_one(RollPanel).render_text(78).plain
        assert "against DC 31 (heroic): a bonus of +21 would succeed 55% of the time" in panel
        assert "+0" not in panel and "55% at" not in panel
        assert screen.perform(game.roll)
        await settle(pilot)
        text = journal_text(app)
        assert "a bonus of +21 would succeed 55% of the time" in text
        assert "55% at" not in text and "time +0" not in text


async def test_roll_takes_the_stat_the_panel_shows(saves: Path) -> None:
    app = mm_app(saves)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, PlayScreen)
        game = game_of(app)
        screen.use_move("ability_check")
        await settle(pilot)
        panel = app.screen.query_one(RollPanel)
        text = panel.render_text(78).plain
        assert "Strength +12" in text and "s stat: Strength" in text
        panel.focus()
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, PlayScreen)  # no "Roll with which stat?"
        rolled = [e for e in game.store.events() if e["type"] == "Rolled"]
        assert rolled and rolled[-1]["modifiers"][0][:2] == ["Strength", 12]


async def test_each_percentage_says_what_it_is(saves: Path) -> None:
    from tests.tui.test_fight_tui import attack, menu_ids

    game = new_game(saves, system="mutants-and-masterminds", name="Harbor Night",
                    hero_name="Keystone", archetype="keystone",
                    party=[{"name": "Lamplight", "archetype": "lamplight"}], seed=3)
    game.start_fight(["the_tallyman", "dockside_crew"])
    cid = str(game.store.id)  # type: ignore[attr-defined]
    close_game(game)
    app = SidekickApp(saves_dir=saves, campaign=cid)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        menu = app.screen.query_one(FightList)
        await pilot.press("enter")  # Light Lance: the targets with their odds
        await settle(pilot)
        assert "ftarget:dockside_crew_1" in menu_ids(app)
        minion = str(menu.get_option("ftarget:dockside_crew_1").prompt)
        # the minion goes down on any failed resistance: 100% once hit, and it says so
        assert "hit 90%" in minion and "if hit: down 100%" in minion
        await pilot.press("escape")
        await settle(pilot)
        await attack(pilot, app, "dockside_crew_1")
        text = " ".join(journal_text(app).split())
        assert "it had" not in text
        assert "→ hit; chance of this result 85.0%" in text
        assert "chance of this result 25.0%" in text  # its failure by 3 degrees


async def test_power_attack_is_refused_where_it_is_offered(saves: Path) -> None:
    from tests.tui.test_fight_tui import menu_ids

    game = new_game(saves, system="mutants-and-masterminds", name="Harbor Night",
                    hero_name="Keystone", archetype="keystone",
                    party=[{"name": "Lamplight", "archetype": "lamplight"}], seed=3)
    game.start_fight(["the_tallyman", "dockside_crew"])
    cid = str(game.store.id)  # type: ignore[attr-defined]
    close_game(game)
    app = SidekickApp(saves_dir=saves, campaign=cid)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        menu = app.screen.query_one(FightList)
        menu.highlighted = menu_ids(app).index("fight:attack/flashpoint")
        await pilot.press("enter")
        await settle(pilot)
        menu.highlighted = menu_ids(app).index("ftarget:the_tallyman")
        await pilot.press("enter")
        await settle(pilot)
        ids = menu_ids(app)
        assert ids[0] == "fgo"
        power = menu.get_option("fman:power_attack")
        assert power.disabled
        assert "✗ no attack roll (area)" in str(power.prompt)
        assert menu.get_option("fman:defensive").disabled
        assert not menu.get_option("fopt:kill").disabled
        # a ranged attack with a roll may still trade
        await pilot.press("escape", "escape")
        await settle(pilot)
        menu.highlighted = menu_ids(app).index("fight:attack/light_lance")
        await pilot.press("enter")
        await settle(pilot)
        menu.highlighted = menu_ids(app).index("ftarget:the_tallyman")
        await pilot.press("enter")
        await settle(pilot)
        assert not menu.get_option("fman:power_attack").disabled


async def test_panels_show_the_hit_first_and_a_characteristic_with_its_modifier(
        saves: Path) -> None:
    from tests.tui.test_panels_tui import respond_campaign, title

    app = SidekickApp(saves_dir=saves, campaign=respond_campaign(saves))
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        head = title(app)
        # the hit is said before the question: its total and how well it hit
        assert head.startswith("Nightjar: Hit 18 (complete): respond to The"), head
        await pilot.press("2")  # dodge
        await settle(pilot)
        text = " ".join(journal_text(app).split())
        # the characteristic, then what it adds: the sum reads
        assert "+6 = 16 vs 15" in text and "Modifiers: Agility 24 (+6)." in text, text
        assert "Agility 24 +6" not in text
