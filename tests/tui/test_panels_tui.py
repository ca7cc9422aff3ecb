"""Pilot tests of the panels game ("Panels: Halberd City") in the app at 80x24: a new campaign
with a ready-made and a custom hero, Kill and Stun bars on the sheet, the panel tracker, attacks
without maneuvers, the response to a hit with its odds and cost, F8 and the "Start a fight"
move, referee steps, and physical dice (side d6s, a d20)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import ContentSwitcher, OptionList, Select

from engine.campaigns import close_game, new_game
from engine.game import Game
from engine.rules.encounter import SideInitiative
from engine.rules.fight.values import FightChoice, PanelColumns, RequestedFight, TrackerRow
from engine.tui.app import SidekickApp
from engine.tui.fight_view import choice_entry, side_dice
from engine.tui.screens.dialogs import ChoiceDialog, DiceDialog, DieDialog
from engine.tui.screens.new_campaign import CUSTOM, NewCampaignScreen
from engine.tui.screens.play import PlayScreen
from engine.tui.widgets.action_menu import ActionMenu
from engine.tui.widgets.fight import FightList
from engine.tui.widgets.sheet import Sheet
from engine.tui.widgets.tracker import Tracker, out_words, panel_tracker_text, repay_words
from tests.tui.conftest import fill, game_of, journal_text, settle, type_text

SMALL = (80, 24)
SYSTEM = "panels"
FOES = ("the_furnace_baron", "the_foundry_crew")


def make_game(saves: Path, seed: int = 3, dice_mode: str = "seeded") -> Game:
    """Rivet and Nightjar in Halberd City, not yet fighting."""
    return new_game(saves, system=SYSTEM, name="Foundry Night", hero_name="Rivet",
                    archetype="rivet", party=[{"name": "Nightjar", "archetype": "nightjar"}],
                    seed=seed, dice_mode=dice_mode)


def saved(game: Game) -> str:
    """Close the game; its campaign id."""
    cid = str(game.store.id)  # type: ignore[attr-defined]
    close_game(game)
    return cid


@pytest.fixture
def panels_campaign(saves: Path) -> Callable[..., str]:
    """A panels campaign, optionally in a fight against the Furnace Baron and his crew."""

    def make(seed: int = 3, fight: bool = True, dice_mode: str = "seeded",
             foes: tuple[str, ...] = FOES) -> str:
        game = make_game(saves, seed)
        if fight:
            game.start_fight(list(foes))
            game.gm.place_fighters("engaged")  # in reach (test_panels_positions.py)
        if dice_mode != "seeded":
            game.set_dice_mode(dice_mode)
        return saved(game)

    return make


@pytest.fixture
def open_app(saves: Path) -> Callable[[str], SidekickApp]:
    def build(cid: str) -> SidekickApp:
        return SidekickApp(saves_dir=saves, campaign=cid)

    return build


def front_menu(app: SidekickApp) -> OptionList:
    """The menu in front: the fight panel's in a fight, else the action menu."""
    fighting = app.screen.query_one("#prompt", ContentSwitcher).current == "fight"
    return app.screen.query_one(FightList) if fighting else app.screen.query_one(ActionMenu)


def menu_ids(app: SidekickApp) -> list[str]:
    return [str(o.id) for o in front_menu(app).options if o.id]


def prompt_of(app: SidekickApp, key: str) -> str:
    return str(app.screen.query_one(FightList).get_option(key).prompt)


def title(app: SidekickApp) -> str:
    return str(app.screen.query_one("#fight-title").render())


def tracker_lines(app: SidekickApp) -> list[str]:
    return app.screen.query_one(Tracker).text.plain.splitlines()


def sheet_text(app: SidekickApp) -> str:
    return app.screen.query_one(Sheet).text.plain


# ------------------------------------------------------------------ the tracker, pure


def row(name: str, side: str, **kw: Any) -> TrackerRow:
    base: dict[str, Any] = {
        "actor": name.lower(), "name": name, "side": side, "acting": False,
        "conditions": [], "control": "player" if side == "heroes" else "referee",
        "out": "", "present": True, "held": "", "acted": False, "kill": 30,
        "kill_max": 30, "stun": 36, "stun_max": 36, "panels": 3, "arrears": 0}
    d = {**base, **kw}
    return TrackerRow(actor=d["actor"], name=d["name"], side=d["side"], initiative=0,
                      acting=d["acting"], control=d["control"], out=d["out"],
                      present=d["present"], acted=d["acted"],
                      conditions=tuple(d["conditions"]),
                      columns=PanelColumns(kill=d["kill"], kill_max=d["kill_max"],
                                           stun=d["stun"], stun_max=d["stun_max"],
                                           panels=d["panels"], arrears=d["arrears"],
                                           held_by=d["held"]))


SIDES = SideInitiative(rolls={"heroes": 5, "villains": 2}, first="heroes",
                       panels={"heroes": 3, "villains": 3}, simultaneous=False)


def test_panel_tracker_rows() -> None:
    rows = [row("Nightjar", "heroes", acting=True, panels=1, arrears=2),
            row("Rivet", "heroes", kill=3, kill_max=40, stun=50, stun_max=50,
                conditions=["stunned"], panels=2, arrears=1),
            row("The Furnace Baron", "villains", arrears=5, panels=0),
            row("The Foundry Crew 1", "villains", out="down", kill=0, panels=0)]
    lines = panel_tracker_text(2, SIDES, rows, width=30).plain.split("\n")
    assert lines[:3] == ["⚔ ROUND 2", "d6 Heroes 5 · Villains 2",
                         "3 panels each · Heroes first"]
    # the acting one: its panels left of its side's 3, what it owes and when it pays
    assert lines[3] == "▶Nightjar             ●○○ you"
    assert lines[4] == "  Kill 30/30  Stun 36/36"
    assert lines[5] == "  owes 2 · repaid next turn"
    # not acted yet: the debt comes out of this round's turn (3 panels, 1 owed: 2 left)
    assert lines[6] == " Rivet                ●●○ you"
    assert lines[7:10] == ["  Kill 3/40  Stun 50/50", "  stunned",  # no room beside
                           "  owes 1 · repaid this round"]
    # at the limit of 5: more than this turn's 3 panels, the rest next round
    assert lines[10] == " The Furnace Baron    ○○○ ref"
    assert lines[12] == "  owes 5! · 3 now, 2 next"  # "(limit)" has no room
    # out of the fight: struck through, one line
    assert lines[13] == " The Foundry Crew 1   down"
    assert len(lines) == 14
    wide = panel_tracker_text(2, SIDES, rows, width=40).plain.split("\n")
    assert wide[7] == "  Kill 3/40  Stun 50/50 stunned"
    text = panel_tracker_text(2, SIDES, rows, width=30)
    struck = [s for s in text.spans if "strike" in str(s.style)]
    assert [text.plain[s.start:s.end].strip() for s in struck] == ["The Foundry Crew 1"]
    # Rivet's Kill (3 of 40, stunned) reads bad, his Stun does not
    kill = text.plain.index("3/40")
    assert any(s.start == kill and "#f7768e" in str(s.style) for s in text.spans)
    stun = text.plain.index("50/50")
    assert not any(s.start == stun and "#f7768e" in str(s.style) for s in text.spans)


def test_panel_tracker_tie_and_width() -> None:
    tie = SideInitiative(rolls={"heroes": 4, "villains": 4}, first=None,
                         panels={"heroes": 2, "villains": 2}, simultaneous=True)
    rows = [row("Nightjar", "heroes", panels=2), row("Cutglass", "villains", panels=2)]
    lines = panel_tracker_text(1, tie, rows, width=29).plain.split("\n")
    assert lines[1:3] == ["d6 Heroes 4 · Villains 4", "Tie: 2 panels each, by Agility"]
    assert all(len(line) <= 30 for line in lines)
    assert panel_tracker_text(1, None, rows).plain.split("\n")[1] == "Side d6s not rolled yet"


def test_how_a_debt_is_repaid() -> None:
    assert repay_words(row("A", "heroes", arrears=0), 3) == ""
    assert out_words(row("A", "heroes", out="down", conditions=["dying"])) == "dying"
    assert out_words(row("A", "heroes", out="down", conditions=["dying", "stable"])) == (
        "stable")
    assert out_words(row("A", "heroes", out="down", conditions=["unconscious"])) == "out cold"
    assert out_words(row("A", "villains", out="fled")) == "fled"
    assert repay_words(row("A", "heroes", arrears=2, acted=True), 3, width=40) == (
        "owes 2: paid from its next turn")
    assert repay_words(row("A", "heroes", arrears=2), 3, width=40) == (
        "owes 2: paid from its turn this round")
    assert repay_words(row("A", "heroes", arrears=4), 1, width=40) == (
        "owes 4: 1 paid this round, rest next")
    assert repay_words(row("A", "heroes", arrears=4), 1, width=29) == "owes 4 · 1 now, 3 next"
    limit = repay_words(row("A", "heroes", arrears=5, acting=True), 1, width=29)
    assert limit.startswith("owes 5") and len(limit) + 2 <= 29


def test_a_response_reads_in_three_lines() -> None:
    dodge = FightChoice(id="dodge", label="Dodge", detail="(the engine's sentence)",
                        how="18+ avoids it all (45%), 15-17 halves it (15%)",
                        cost_words="costs 1 future panel", cost=1, odds=0.6, expected=6.8,
                        avoided=7.7, incoming=14.5)
    text = choice_entry(2, dodge, 44)
    assert text.plain.split("\n") == ["2. Dodge  costs 1 future panel",
                                      "   18+ avoids it all (45%), 15-17 halves it",
                                      "   (15%) · avoids ~7.7 of 14.5"]
    take = FightChoice(id="none", label="Take it", detail="expected damage 14.5", cost=0,
                       expected=14.5, avoided=0.0, incoming=14.5)
    assert choice_entry(1, take, 44).plain == "1. Take it  expected damage 14.5"
    # words the menu does not know stay as the engine gave them
    roll = FightChoice(id="roll", label="Roll", detail="let the dice say")
    assert choice_entry(3, roll, 44).plain == "3. Roll  let the dice say"


def test_the_panels_game_has_side_dice(saves: Path) -> None:
    assert side_dice(make_game(saves))
    masks = new_game(saves, system="masks", name="Other", hero_name="Nova",
                     archetype="signal_fire", seed=1)
    assert not side_dice(masks)


def test_kill_and_stun_bars_read_bad_at_a_tenth() -> None:
    from engine.rules.sheet import Bar, Section
    from engine.tui.widgets.sheet import render_sections

    text = render_sections([Section(title="Health", rows=[
        Bar(label="Kill", value=4, max=40, low=4), Bar(label="Stun", value=6, max=50, low=5)])])
    kill, stun = text.plain.split("\n")[1:]
    assert kill == "Kill █░░░░░░░░░░░░░ 4/40" and stun == "Stun ██░░░░░░░░░░░░ 6/50"
    bad = [text.plain[s.start:s.end] for s in text.spans if "#f7768e" in str(s.style)]
    assert bad == ["█", " 4/40"]  # Kill at 10% is bad; Stun at 12% is not
    assert len(kill) <= 29  # it fits the sidebar in a fight at 80 columns


# ------------------------------------------------------------------ a new campaign


async def test_new_panels_campaign_ready_made_and_custom(saves: Path) -> None:
    for build in ("rivet", CUSTOM):
        app = SidekickApp(saves_dir=saves)
        async with app.run_test(size=SMALL) as pilot:
            await settle(pilot)
            await pilot.press("n")
            await settle(pilot)
            form = app.screen
            assert isinstance(form, NewCampaignScreen)
            form.query_one("#system", Select).value = SYSTEM
            await settle(pilot)
            form.query_one("#archetype", Select).value = build
            await settle(pilot)
            pitch = str(form.query_one("#pitch").render())
            await fill(pilot, "#name", f"Halberd {build.strip('_')}")
            await pilot.press("tab")
            await type_text(pilot, "Anvil")
            if build == CUSTOM:
                assert "from 1 to 25" in pitch  # characteristics, not signed modifiers
                for stat, value in (("agility", "16"), ("dexterity", "18"),
                                    ("strength", "20"), ("wits", "12"), ("nerve", "14")):
                    await fill(pilot, f"#stat-{stat}", value)
            else:
                assert "Agility 10   Dexterity 14   Strength 25" in " ".join(pitch.split(
                    "\n")).replace("\u00a0", " ")
            await pilot.press("ctrl+s")
            await settle(pilot)
            assert isinstance(app.screen, PlayScreen), build
            game = game_of(app)
            hero = game.state.hero
            assert hero.name == "Anvil"
            sheet = sheet_text(app)
            assert "HEALTH" in sheet
            kill = next(line for line in sheet.splitlines() if line.startswith("Kill "))
            stun = next(line for line in sheet.splitlines() if line.startswith("Stun "))
            if build == CUSTOM:
                assert hero.stats["strength"] == 20 and hero.archetype is None
                # the builder's block: Kill from Strength and Nerve, Stun 10 more
                top = int(kill.split("/")[1])
                assert int(stun.split("/")[1]) == top + 10
            else:
                assert kill == "Kill ██████████████ 40/40"
                assert stun == "Stun ██████████████ 50/50"


# ------------------------------------------------------------------ fights


async def test_panels_fight_at_80x24(panels_campaign: Callable[..., str],
                                     open_app: Callable[[str], SidekickApp]) -> None:
    app = open_app(panels_campaign())
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        lines = tracker_lines(app)
        assert lines[:3] == ["⚔ ROUND 1", "d6 Heroes 4 · Villains 3",
                             "1 panel each · Heroes first"]
        assert lines[3].split() == ["▶Nightjar", "●", "you"]
        assert lines[4].split() == ["Kill", "30/30", "Stun", "36/36"]
        assert all(len(line) <= 30 for line in lines)
        assert "Round 1: Nightjar's turn · 1 panel left" in title(app)
        ids = menu_ids(app)
        assert ids[0] == "fight:attack/fists"
        first = prompt_of(app, "fight:attack/fists").splitlines()
        assert first[1].strip().startswith("1 panel · hit 50% · dmg ~")
        assert "free · " in prompt_of(app, "fight:surrender")
        assert "2 panels · " in prompt_of(app, "fight:catch_breath")
        await pilot.press("enter")
        await settle(pilot)
        # targets with the exact odds: hit, full hit, expected damage, down
        assert menu_ids(app)[:2] == ["ftarget:the_furnace_baron", "ftarget:the_foundry_crew_1"]
        crew = prompt_of(app, "ftarget:the_foundry_crew_1").splitlines()
        assert crew[1].strip() == "hit 50% · full 35% · dmg ~6.2 · down 20%"
        await pilot.press("2")  # no maneuvers in this game: the target makes the attack
        await settle(pilot)
        journal = " ".join(journal_text(app).split())
        assert "Nightjar attacks The Foundry Crew 1 with Fists: d20" in journal
        game = game_of(app)
        fight = game.fight
        assert fight is not None and fight.encounter.acting == "rivet"
        assert "Rivet's turn · 1 panel left" in title(app)
        nightjar = tracker_lines(app)[3:6]
        assert nightjar[0].split() == ["Nightjar", "○", "you"]
        # a natural 1: a stumble costs its next panel, owed and shown with its repayment
        assert nightjar[2].strip() == "owes 1 · repaid next turn"
        assert tracker_lines(app)[6].startswith("▶Rivet")


def respond_campaign(saves: Path) -> str:
    """A fight where the Foundry Crew hits Nightjar and she must answer (seed 3)."""
    game = make_game(saves)
    game.start_fight(list(FOES))
    game.gm.place_fighters("engaged")
    for _ in range(10):
        if game.pending.kind == "fight_choice":
            break
        if game.referee_turn:
            game.referee_run()
        else:
            game.end_turn()
    assert game.pending.kind == "fight_choice"
    return saved(game)


async def test_the_response_to_a_hit(saves: Path,
                                     open_app: Callable[[str], SidekickApp]) -> None:
    app = open_app(respond_campaign(saves))
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        assert menu_ids(app) == ["fchoice:none", "fchoice:dodge", "fchoice:parry:fists",
                                 "fchoice:parry:fighting_staff"]
        head = title(app)
        # the hit first: its total and how well it hit, then the question
        assert head.startswith("Nightjar: Hit ") and "\n" not in head
        assert "): respond to The" in head
        width = app.screen.query_one(FightList).size.width
        entries = [prompt_of(app, key).splitlines() for key in menu_ids(app)]
        assert entries[0] == ["1. Take it  expected damage 14.5"]
        assert entries[1] == ["2. Dodge  free", "   18+ avoids it all (45%), 15-17 halves it",
                              "   (15%) · avoids ~7.7 of 14.5"]
        assert entries[3][0] == "4. Parry with Fighting Staff  free"
        assert "15+ parries (50%)" in entries[3][1] and "avoids ~7.0 of 14.5" in entries[3][2]
        assert all(len(line) < width for entry in entries for line in entry)
        assert sum(len(entry) for entry in entries) <= 10  # all four fit at 80x24
        menu = app.screen.query_one(FightList)
        assert menu.size.height >= sum(len(entry) for entry in entries)
        await pilot.press("2")
        await settle(pilot)
        journal = " ".join(journal_text(app).split())
        assert "Nightjar dodges The Foundry Crew 1's Spanner: d20" in journal
        assert game_of(app).pending.kind == "fight"


async def test_referee_turns_enter_r_t(panels_campaign: Callable[..., str],
                                       open_app: Callable[[str], SidekickApp]) -> None:
    app = open_app(panels_campaign())
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        await pilot.press("e")  # Nightjar, then Rivet, end their turns
        await settle(pilot)
        await pilot.press("e")
        await settle(pilot)
        assert "Round 1: The Furnace Baron's turn (referee)" in title(app)
        assert menu_ids(app) == ["step", "run", "take"]
        assert tracker_lines(app)[7].startswith("▶The Furnace Baron")
        before = journal_text(app)
        await pilot.press("enter")  # the referee says what it does and why
        await settle(pilot)
        assert "▸ The Furnace Baron" in journal_text(app)[len(before):]
        await pilot.press("t")  # take him over: his attack is now yours to choose
        await settle(pilot)
        assert "You play The Furnace Baron now." in journal_text(app)
        game = game_of(app)
        assert not game.referee_turn
        assert tracker_lines(app)[7].split()[-1] == "you"
        assert "handback" in menu_ids(app)
        menu = app.screen.query_one(FightList)
        menu.highlighted = menu_ids(app).index("handback")
        await pilot.press("enter")
        await settle(pilot)
        assert "The referee plays The Furnace Baron again." in journal_text(app)
        await pilot.press("r")  # run until a player's turn or a question for the player
        await settle(pilot)
        assert not game.referee_turn or game.pending.kind == "fight_choice"


async def test_f8_and_the_start_a_fight_move(panels_campaign: Callable[..., str],
                                             open_app: Callable[[str], SidekickApp]) -> None:
    app = open_app(panels_campaign(fight=False))
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        assert not app.screen.query_one(Tracker).display
        await pilot.press("f8")
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, ChoiceDialog) and dialog.dialog_title == "Fight!"
        assert dialog.options[0].id == "the_furnace_baron"
        await pilot.press("space", "enter")
        await settle(pilot)
        # no surprise question: the panels game has no surprise round
        assert isinstance(app.screen, PlayScreen)
        game = game_of(app)
        assert game.fighting and app.screen.query_one(Tracker).display
        assert tracker_lines(app)[1].startswith("d6 Heroes ")
        await pilot.press("f8")  # in a fight, F8 calls it off
        await settle(pilot)
        await pilot.press("y")
        await settle(pilot)
        assert not game.fighting
        # the pack's move: "I punch ..." reads as Start a fight against the one it names:
        # no "whom?" (issue 26), and the punch is the hero's first action
        await fill(pilot, "#fiction", "I punch the Furnace Baron in the jaw")
        await pilot.press("enter")
        await settle(pilot)
        assert menu_ids(app)[0] == "move:start_fight"
        await pilot.press("1")
        await settle(pilot)
        assert isinstance(app.screen, PlayScreen) and game.fighting
        assert tracker_lines(app)[0] == "⚔ ROUND 1"
        fight = game.fight
        assert fight is not None and "the_furnace_baron" in fight.encounter.order
        # the punch waits for the hero's first turn (the foes go first here), or was taken
        hero_first = fight.encounter.acting == game.state.acting
        assert game.fights.planned == ("" if hero_first
                                       else "I punch the Furnace Baron in the jaw")


async def test_physical_side_dice_and_a_d20(panels_campaign: Callable[..., str],
                                            open_app: Callable[[str], SidekickApp]) -> None:
    app = open_app(panels_campaign(fight=False, dice_mode="physical"))
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        await pilot.press("f8")
        await settle(pilot)
        await pilot.press("space", "enter")  # the Furnace Baron
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, DiceDialog)
        assert "one d6 per side" in str(dialog.summary)
        assert "the heroes, then the foes" in str(dialog.summary)
        await fill(pilot, "#faces", "4")
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, DiceDialog)  # one die is not enough: asked again
        await fill(pilot, "#faces", "5 2")
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, PlayScreen)
        assert tracker_lines(app)[1:3] == ["d6 Heroes 5 · Villains 2",
                                           "3 panels each · Heroes first"]
        assert tracker_lines(app)[3].split() == ["▶Nightjar", "●●●", "you"]
        await pilot.press("enter", "enter")  # Fists at the Furnace Baron: your d20
        await settle(pilot)
        assert isinstance(app.screen, DieDialog)
        await fill(pilot, "#faces", "12")
        await pilot.press("enter")
        await settle(pilot)
        asked = []
        while isinstance(app.screen, DieDialog):  # a minor hit (12 + 4): its damage d6s too
            asked.append(str(app.screen.summary))
            await fill(pilot, "#faces", "3")
            await pilot.press("enter")
            await settle(pilot)
        assert asked and all("Roll a d6: Nightjar" in a for a in asked)
        assert isinstance(app.screen, PlayScreen)
        journal = " ".join(journal_text(app).split())
        assert "Nightjar attacks The Furnace Baron with Fists: d20 [12] (entered)" in journal
        # the Baron stood close, not engaged: Nightjar closed in first (positions), a panel
        assert "Nightjar closes in on The Furnace Baron (1 panel): engaged." in journal
        assert tracker_lines(app)[3].split() == ["▶Nightjar", "●○○", "you"]
        game = game_of(app)
        # a new round asks the heroes' side d6 of you (the referee's is seeded)
        for _ in range(20):
            if isinstance(app.screen, DieDialog):
                break
            if game.pending.kind == "fight_choice":
                await pilot.press("1")
            elif game.referee_turn:
                await pilot.press("r")
            else:
                await pilot.press("e")
            await settle(pilot)
        assert isinstance(app.screen, DieDialog)
        assert "d6" in str(app.screen.summary) and "side initiative" in str(app.screen.summary)
        assert "The heroes' d6 for the new round" in str(app.screen.summary)
        await fill(pilot, "#faces", "6")
        await pilot.press("enter")
        await settle(pilot)
        fight = game.fight
        assert fight is not None and fight.encounter.round == 2
        assert fight.encounter.sides is not None and fight.encounter.sides.rolls["heroes"] == 6
        assert tracker_lines(app)[0] == "⚔ ROUND 2"
        assert tracker_lines(app)[1].startswith("d6 Heroes 6 · Villains ")


def test_panels_fight_snapshot(snap_compare: Any, panels_campaign: Callable[..., str],
                               open_app: Callable[[str], SidekickApp]) -> None:
    cid = panels_campaign()

    async def before(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        await pilot.press("enter", "2")  # Nightjar's fists at the first of the crew
        await settle(pilot)

    assert snap_compare(open_app(cid), terminal_size=SMALL, run_before=before)


def test_response_menu_snapshot(snap_compare: Any, saves: Path,
                                open_app: Callable[[str], SidekickApp]) -> None:
    cid = respond_campaign(saves)

    async def before(pilot: Pilot[Any]) -> None:
        await settle(pilot)

    assert snap_compare(open_app(cid), terminal_size=SMALL, run_before=before)



async def test_the_start_a_fight_move_with_your_own_dice_asks_for_the_side_d6s(
        panels_campaign: Callable[..., str], open_app: Callable[[str], SidekickApp]) -> None:
    app = open_app(panels_campaign(fight=False, dice_mode="physical"))
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        await fill(pilot, "#fiction", "I punch the Furnace Baron in the jaw")
        await pilot.press("enter")
        await settle(pilot)
        await pilot.press("1")  # Start a fight
        await settle(pilot)
        await pilot.press("space", "enter")  # the Furnace Baron
        await settle(pilot)
        game = game_of(app)
        assert not game.fighting and game.fight_request == RequestedFight(
            foes=("the_furnace_baron",), surprised=())
        dialog = app.screen
        assert isinstance(dialog, DiceDialog) and "one d6 per side" in str(dialog.summary)
        await fill(pilot, "#faces", "6 3")
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, PlayScreen) and game.fighting
        assert game.fight_request is None
        assert tracker_lines(app)[1] == "d6 Heroes 6 · Villains 3"


async def test_use_a_power_and_pick_up_name_what_from_the_engines_choices(
        panels_campaign: Callable[..., str], open_app: Callable[[str], SidekickApp]) -> None:
    app = open_app(panels_campaign(seed=5))
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        game = game_of(app)
        while game.referee_turn:
            await pilot.press("r")
            await settle(pilot)
        assert game.fight is not None and game.fight.encounter.acting == "nightjar"
        app.screen.fight_turn.choose_option("use_power")  # type: ignore[attr-defined]
        await settle(pilot)
        assert "Use a power — which power?" in title(app)
        assert menu_ids(app)[:2] == ["fneed:owl_sight", "fneed:glide_cloak"]
        assert "Agility: works 60%, well 45%" in prompt_of(app, "fneed:glide_cloak")
        await pilot.press("2")
        await settle(pilot)
        journal = " ".join(journal_text(app).split())
        assert "Nightjar uses Glide Cloak" in journal
        pick_up = next(o for o in game.fight_options("rivet") if o.action == "pick_up")
        assert pick_up.needs == "item"
        assert pick_up.choices[-1].id == "something to hand"


async def test_the_stat_to_roll_shows_the_modifier_it_adds(
        panels_campaign: Callable[..., str], open_app: Callable[[str], SidekickApp]) -> None:
    app = open_app(panels_campaign(fight=False))
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        game_of(app).trigger("characteristic_check")
        app.screen._refresh_all()  # type: ignore[attr-defined]
        await settle(pilot)
        await pilot.press("s")
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, ChoiceDialog) and dialog.dialog_title == "Roll with which stat?"
        details = {o.id: o.detail for o in dialog.options}
        assert details["strength"] == "+7 (Strength 25)"  # Rivet: 25 adds +7, not +25
        assert details["agility"] == "+0 (Agility 10)"


async def test_saying_a_power_uses_it(panels_campaign: Callable[..., str],
                                      open_app: Callable[[str], SidekickApp]) -> None:
    app = open_app(panels_campaign(seed=5))
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        game = game_of(app)
        while game.referee_turn:
            await pilot.press("r")
            await settle(pilot)
        await pilot.press("d")
        await settle(pilot)
        await type_text(pilot, "I spread my glide cloak and sail over them")
        await pilot.press("enter")
        await settle(pilot)
        assert menu_ids(app)[0] == "fsug:0"
        assert "Use a power: Glide Cloak" in prompt_of(app, "fsug:0")
        await pilot.press("1")
        await settle(pilot)
        journal = " ".join(journal_text(app).split())
        assert "Nightjar uses Glide Cloak" in journal
        assert "I spread my glide cloak and sail over them" in journal
