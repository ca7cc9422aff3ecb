"""Pilot tests of fights in the app at 80x24: the initiative tracker, the player's actions with
their odds, referee steps, taking over an NPC, a physical die, a fight to its end, F8."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import ContentSwitcher, OptionList

from engine.campaigns import close_game, new_game
from engine.rules.fight.values import (
    FightAttack,
    FightChoice,
    FightOption,
    FightTarget,
    InitiativeColumns,
    ResistDegree,
    TrackerRow,
)
from engine.systems.mm3e.strikes import degree_result
from engine.tui.app import SidekickApp
from engine.tui.screens.dialogs import ChoiceDialog, DiceDialog
from engine.tui.screens.play import PlayScreen
from engine.tui.widgets.fight import FightList
from engine.tui.widgets.tracker import Tracker
from tests.tui.conftest import fill, game_of, journal_text, settle

SMALL = (80, 24)
SYSTEM = "mutants-and-masterminds"


@pytest.fixture
def mm_campaign(saves: Path) -> Callable[..., str]:
    """An M&M campaign (Keystone and Lamplight), optionally already in a fight."""

    def make(seed: int = 3, fight: bool = True, dice_mode: str = "seeded",
             foes: tuple[str, ...] = ("the_tallyman", "dockside_crew")) -> str:
        game = new_game(
            saves, system=SYSTEM, name="Harbor Night", hero_name="Keystone",
            archetype="keystone", party=[{"name": "Lamplight", "archetype": "lamplight"}],
            seed=seed)
        if fight:
            game.start_fight(list(foes))
        if dice_mode != "seeded":
            game.set_dice_mode(dice_mode)
        cid = str(game.store.id)  # type: ignore[attr-defined]
        close_game(game)
        return cid

    return make


@pytest.fixture
def mm_app(saves: Path) -> Callable[[str], SidekickApp]:
    def build(cid: str) -> SidekickApp:
        return SidekickApp(saves_dir=saves, campaign=cid)

    return build


def menu_ids(app: SidekickApp) -> list[str]:
    menu = app.screen.query_one(FightList)
    return [str(o.id) for o in menu.options if o.id]


def tracker_text(app: SidekickApp) -> str:
    return app.screen.query_one(Tracker).text.plain


def acting_row(app: SidekickApp) -> str:
    return next(line for line in tracker_text(app).splitlines() if line.startswith("▶"))


def row_of(app: SidekickApp, name: str) -> str:
    return next(line for line in tracker_text(app).splitlines() if name in line)


async def attack(pilot: Pilot[Any], app: SidekickApp, target: str,
                 maneuvers: tuple[str, ...] = ()) -> None:
    """From the action list: the first attack, ``target``, the maneuvers, go."""
    ids = menu_ids(app)
    first = next(i for i in ids if i.startswith("fight:attack/"))
    app.screen.query_one(FightList).highlighted = ids.index(first)
    await pilot.press("enter")
    await settle(pilot)
    ids = menu_ids(app)
    app.screen.query_one(FightList).highlighted = ids.index(f"ftarget:{target}")
    await pilot.press("enter")
    await settle(pilot)
    for m in maneuvers:
        ids = menu_ids(app)
        app.screen.query_one(FightList).highlighted = ids.index(m)
        await pilot.press("enter")
        await settle(pilot)
    app.screen.query_one(FightList).highlighted = menu_ids(app).index("fgo")
    await pilot.press("enter")
    await settle(pilot)


async def test_tracker_and_a_player_attack(mm_campaign: Callable[..., str],
                                           mm_app: Callable[[str], SidekickApp]) -> None:
    app = mm_app(mm_campaign())
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, PlayScreen)
        tracker = app.screen.query_one(Tracker)
        assert tracker.display and app.screen.query_one("#sidebar").display
        text = tracker_text(app)
        assert text.splitlines()[0] == "⚔ ROUND 1"
        assert acting_row(app).split() == ["▶15", "Lamplight", "you"]
        # on a hero's turn a foe shows its band from the hero in place of "ref" (positions)
        assert row_of(app, "The Tallyman").split() == ["2", "The", "Tallyman", "close"]
        assert len(text.splitlines()) == 10  # the round and nine fighters
        # the action list: Lamplight's attacks first, with the best target's odds
        menu = app.screen.query_one(FightList)
        first = menu.get_option_at_index(0)
        assert first.id == "fight:attack/light_lance"
        assert "Light Lance → Dockside Crew 1" in str(first.prompt)
        assert "hit 90% · takes effect 90%" in str(first.prompt)
        assert "end" in menu_ids(app) and "say" in menu_ids(app)
        await pilot.press("enter")
        await settle(pilot)
        # targets with exact odds: a minion goes down on any failure
        ids = menu_ids(app)
        assert ids[0] == "ftarget:dockside_crew_1" and "ftarget:the_tallyman" in ids
        tally = menu.get_option("ftarget:the_tallyman")
        assert [line.strip() for line in str(tally.prompt).splitlines()] == [
            "7. The Tallyman  close", "hit 55% · crit 5% · if hit: shrugs 20%",
            "-1 25% · dazed 25% · staggered 25%", "down 5%"]  # wrapped to the menu's width
        assert str(menu.get_option("ftarget:dockside_crew_1").prompt).splitlines()[1] == (
            "   hit 90% · crit 5% · if hit: down 100%")
        menu.highlighted = ids.index("ftarget:the_tallyman")
        await pilot.press("enter")
        await settle(pilot)
        # maneuvers: an all-out attack of 2 shows the engine's odds with it
        assert menu_ids(app)[0] == "fgo"
        menu.highlighted = menu_ids(app).index("fman:all_out")
        await pilot.press("enter", "enter")
        await settle(pilot)
        assert "All-out attack: 2" in str(menu.get_option("fman:all_out").prompt)
        assert "hit 65%" in str(menu.get_option("fgo").prompt)
        await pilot.press("escape")  # back to the targets, then the list
        await settle(pilot)
        assert menu_ids(app)[0] == "ftarget:dockside_crew_1"
        await pilot.press("escape")
        await settle(pilot)
        assert menu_ids(app)[0] == "fight:attack/light_lance"
        await attack(pilot, app, "the_tallyman")
        journal = journal_text(app)
        assert ("Lamplight's attack on The Tallyman with Light Lance: d20 [18] (seeded) +10 ="
                in journal)
        assert "The Tallyman is dazed" in journal
        assert row_of(app, "The Tallyman").split() == ["2", "The", "Tallyman", "-1", "close"]
        assert "dz" in tracker_text(app).split("The Tallyman")[1].splitlines()[1]
        # the standard action is spent: attacks are dimmed with the reason, listed last
        game = game_of(app)
        assert game.fight is not None and game.fight.encounter.budget["standard"] == 0
        lance = menu.get_option("fight:attack/light_lance")
        assert lance.disabled and "no standard action left" in str(lance.prompt)
        # undo mid-fight: the roll is gone, the tracker is back as it was
        await pilot.press("ctrl+z")
        await settle(pilot)
        assert "Lamplight's attack on The Tallyman" not in journal_text(app)
        assert row_of(app, "The Tallyman").split() == ["2", "The", "Tallyman", "close"]
        assert menu_ids(app)[0] == "fight:attack/light_lance"


async def test_referee_steps_run_and_take_over(mm_campaign: Callable[..., str],
                                               mm_app: Callable[[str], SidekickApp]) -> None:
    app = mm_app(mm_campaign())
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        await pilot.press("e")  # Lamplight ends her turn, then Keystone
        await settle(pilot)
        assert acting_row(app).split()[:2] == ["▶13", "Keystone"]
        await pilot.press("e")
        await settle(pilot)
        title = str(app.screen.query_one("#fight-title").render())
        assert "Round 1: Dockside Crew 1's turn (referee)" in title
        assert menu_ids(app) == ["step", "run", "take"]
        before = journal_text(app)
        await pilot.press("enter")  # the referee chooses (and says why)
        await settle(pilot)
        chosen = journal_text(app)[len(before):]
        assert "▸" in chosen
        await pilot.press("space")  # ... then acts: it delays to the team's slowest gunman
        await settle(pilot)
        assert "delays to join" in chosen
        assert "Dockside Crew 1 waits for the right moment." in journal_text(app)[
            len(before) + len(chosen):]
        await pilot.press("r")  # run until a player's turn
        await settle(pilot)
        game = game_of(app)
        assert not game.referee_turn and game.fighting
        assert tracker_text(app).splitlines()[0] == "⚔ ROUND 2"
        assert acting_row(app).split()[1] == "Lamplight"
        await pilot.press("e", "e")
        await settle(pilot)
        await pilot.press("t")  # take over the first minion
        await settle(pilot)
        assert "You play Dockside Crew 1 now." in journal_text(app)
        assert acting_row(app).split()[-1] == "you"
        assert menu_ids(app)[0] == "fight:attack/pistol"
        assert "Round 2: Dockside Crew 1's turn · standard + move left" in str(
            app.screen.query_one("#fight-title").render())
        assert "handback" in menu_ids(app)
        menu = app.screen.query_one(FightList)
        menu.highlighted = menu_ids(app).index("handback")
        await pilot.press("enter")
        await settle(pilot)
        assert "The referee plays Dockside Crew 1 again." in journal_text(app)
        assert menu_ids(app) == ["step", "run", "take"]
        assert acting_row(app).split()[-1] == "ref"


async def test_physical_die_for_an_attack(mm_campaign: Callable[..., str],
                                          mm_app: Callable[[str], SidekickApp]) -> None:
    app = mm_app(mm_campaign(dice_mode="physical"))
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        await attack(pilot, app, "the_tallyman")
        assert isinstance(app.screen, DiceDialog)
        assert "Roll a d20: Lamplight" in str(app.screen.summary)
        await fill(pilot, "#faces", "25")
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, DiceDialog)  # a d20 shows 1 to 20: asked again
        await fill(pilot, "#faces", "3")
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, PlayScreen)
        journal = " ".join(journal_text(app).split())
        assert ("Lamplight's attack on The Tallyman with Light Lance: d20 [3] (entered) +10"
                in journal)
        assert game_of(app).fight_need is None


async def test_a_fight_to_its_end(mm_campaign: Callable[..., str],
                                  mm_app: Callable[[str], SidekickApp]) -> None:
    app = mm_app(mm_campaign(seed=5, foes=("dockside_crew",)))
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        game = game_of(app)
        for _ in range(80):
            if not game.fighting:
                break
            if game.referee_turn:
                await pilot.press("r")
                await settle(pilot)
                continue
            foe = next((r.actor for r in game.tracker()
                        if r.side == "villains" and not r.out), None)
            ids = menu_ids(app)
            if foe is None or not any(i.startswith("fight:attack/") for i in ids) or \
                    app.screen.query_one(FightList).get_option(
                        next(i for i in ids if i.startswith("fight:attack/"))).disabled:
                await pilot.press("e")
                await settle(pilot)
                continue
            await attack(pilot, app, foe)
        assert not game.fighting
        # changed (issue 28): the line may say how (the crew flees once half are down)
        assert "The fight is over: the heroes win" in journal_text(app)
        assert not app.screen.query_one(Tracker).display
        assert game.pending.kind == "fiction"
        assert app.screen.query_one("#prompt", ContentSwitcher).current == "fiction"


async def test_f8_starts_a_fight(mm_campaign: Callable[..., str],
                                 mm_app: Callable[[str], SidekickApp]) -> None:
    app = mm_app(mm_campaign(fight=False))
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        assert not app.screen.query_one(Tracker).display
        await pilot.press("f8")
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, ChoiceDialog) and dialog.dialog_title == "Fight!"
        ids = [o.id for o in dialog.options]
        assert {"the_tallyman", "dockside_crew", "hornet_drones"} <= set(ids)
        assert "keystone" not in ids  # heroes are not foes
        await pilot.press("space", "enter")  # the first foe
        await settle(pilot)
        assert isinstance(app.screen, ChoiceDialog)
        assert app.screen.dialog_title == "Surprise?"
        app.screen.query_one("#choices", OptionList).highlighted = 2  # the foes are surprised
        await pilot.press("enter")
        await settle(pilot)
        game = game_of(app)
        assert game.fighting and isinstance(app.screen, PlayScreen)
        assert app.screen.query_one(Tracker).display
        assert tracker_text(app).splitlines()[0] == "⚔ SURPRISE ROUND"
        assert ids[0] in {r.actor for r in game.tracker()} or any(
            r.side == "villains" for r in game.tracker())
        assert "⚔ Fight!" in journal_text(app)


async def test_say_what_you_do_in_a_fight(mm_campaign: Callable[..., str],
                                          mm_app: Callable[[str], SidekickApp]) -> None:
    app = mm_app(mm_campaign())
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        await pilot.press("d")
        await settle(pilot)
        assert app.screen.query_one("#fight-part", ContentSwitcher).current == "fight-say"
        await fill(pilot, "#fight-say", "I take careful aim at the Tallyman")
        await pilot.press("enter")
        await settle(pilot)
        ids = menu_ids(app)
        menu = app.screen.query_one(FightList)
        sugs = [str(menu.get_option(i).prompt) for i in ids if i.startswith("fsug:")]
        assert ids[0] == "fsug:0" and sugs[0].startswith("1. ")
        assert any(p[3:].startswith("Aim  you said") and "“aim”" in p for p in sugs), sugs
        assert "none" in ids and "fback" in ids and "end" in ids
        await pilot.press("escape")
        await settle(pilot)
        assert menu_ids(app)[0] == "fight:attack/light_lance"
        # an attack said with its target asks for the target, that one highlighted, with the
        # odds on each (issue 26: no longer taken at once)
        await pilot.press("d")
        await settle(pilot)
        await fill(pilot, "#fight-say", "I blast the Tallyman with my light lance")
        await pilot.press("enter")
        await settle(pilot)
        ids = [i for i in menu_ids(app) if i.startswith("fsug:")]
        lance = next(i for i in ids
                     if "Light Lance → The Tallyman" in str(menu.get_option(i).prompt))
        await pilot.press(str(ids.index(lance) + 1))
        await settle(pilot)
        ids = menu_ids(app)
        assert menu.highlighted is not None and ids[menu.highlighted] == "ftarget:the_tallyman"
        assert "hit 55%" in str(menu.get_option("ftarget:the_tallyman").prompt)
        await pilot.press("escape", "escape")
        await settle(pilot)
        await pilot.press("d")
        await settle(pilot)
        await pilot.press("escape")  # back from the box too
        await settle(pilot)
        assert app.screen.query_one("#fight-part", ContentSwitcher).current == "fight-menu"


def test_tracker_snapshot(snap_compare: Any, mm_campaign: Callable[..., str],
                          mm_app: Callable[[str], SidekickApp]) -> None:
    cid = mm_campaign()

    async def before(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        await attack(pilot, pilot.app, "the_tallyman")  # type: ignore[arg-type]
        await pilot.press("e", "e")  # Lamplight, then Keystone: the referee's turn
        await settle(pilot)

    assert snap_compare(mm_app(cid), terminal_size=SMALL, run_before=before)


async def test_rolling_the_referees_dice(mm_campaign: Callable[..., str],
                                         mm_app: Callable[[str], SidekickApp]) -> None:
    app = mm_app(mm_campaign())
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        await pilot.press("e", "e")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, PlayScreen)
        screen.action_dice_mode()
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, ChoiceDialog)
        assert dialog.options[-1].id == "referee:physical"
        dialog.query_one("#choices", OptionList).highlighted = len(dialog.options) - 1
        await pilot.press("enter")
        await settle(pilot)
        game = game_of(app)
        assert game.fight is not None and game.fight.referee_dice == "physical"
        for _ in range(5):  # the crew delays to its slowest gunman, who rolls: your dice
            await pilot.press("enter", "space")  # the referee chooses, then acts
            await settle(pilot)
            if isinstance(app.screen, DiceDialog):
                break
        asked = 0
        while isinstance(app.screen, DiceDialog) and asked < 12:
            assert "Roll a d20: Dockside Crew" in str(app.screen.summary)
            await fill(pilot, "#faces", "10")
            await pilot.press("enter")
            await settle(pilot)
            asked += 1
        assert asked >= 1 and isinstance(app.screen, PlayScreen)
        assert "d20 [10] (entered)" in " ".join(journal_text(app).split())


# ---------------------------------------------------------------- the pure helpers

def target_with(resist: dict[int, float], damage: bool = True, minion: bool = False,
                **kw: Any) -> FightTarget:
    """A target's odds as the engine gives them: each degree with what it does (the M&M
    damage ladder or an affliction's degrees; a minion goes down on any failure)."""
    return FightTarget(id="t", name="T", resist=tuple(
        ResistDegree(d, p, *degree_result(d, damage, minion)) for d, p in resist.items()),
        **kw)


def attack_option(range_: str = "ranged", effect: str = "damage") -> FightOption:
    return FightOption(action="attack", name="Attack", cost="standard", allowed=True,
                       attack=FightAttack(id="a", name="A", range=range_,
                                          rolls=range_ in ("close", "ranged"), effect=effect))


RESIST = {1: 0.2, -1: 0.25, -2: 0.25, -3: 0.25, -4: 0.05}


def test_resistance_results_merge_by_what_they_do() -> None:
    from engine.tui.fight_view import odds_line, pct, resist_text

    option = attack_option()
    target = target_with(RESIST, hit=0.55, critical=0.05)
    assert resist_text(target).plain == (
        "shrugs 20% · -1 25% · dazed 25% · staggered 25% · down 5%")
    assert resist_text(target_with(RESIST, minion=True)).plain == "shrugs 20% · down 80%"
    affliction = attack_option("perception", "affliction")
    assert resist_text(target_with(RESIST, damage=False)).plain == (
        "shrugs 20% · 1st degree 25% · 2nd degree 25% · 3rd degree 30%")
    assert odds_line(option, target, short=True).plain == "hit 55% · takes effect 0%"
    assert odds_line(affliction, FightTarget(id="t", name="T", effect=0.8), short=True
                     ).plain == "perception, no attack roll · takes effect 80%"
    assert [pct(p) for p in (0.0, 0.004, 0.125, 1.0)] == ["0%", "<1%", "12%", "100%"]


def test_odds_wrap_without_splitting_a_result() -> None:
    from engine.tui.fight_view import odds_line

    option = attack_option("close")
    target = target_with({1: 0.4, -1: 0.35, -2: 0.15, -3: 0.07, -4: 0.03}, hit=0.5,
                         critical=0.05)
    lines = odds_line(option, target, width=30).plain.split("\n")
    assert lines == ["hit 50% · crit 5%", "   if hit: shrugs 40%",
                     "   -1 35% · dazed 15%", "   staggered 7% · down 3%"]


def test_why_an_action_is_not_allowed() -> None:
    from engine.tui.fight_view import why_not

    aim = FightOption(action="aim", name="Aim", cost="standard", allowed=True)
    assert why_not(aim) == ""
    assert why_not(replace(aim, allowed=False, why="no standard action left")) == (
        "no standard action left")
    assert why_not(replace(aim, allowed=False)) == "not now"


def test_the_engine_says_why_an_action_is_not_allowed() -> None:
    from engine.content.loader import get_pack
    from engine.game import Game

    game = Game.new(get_pack("mutants-and-masterminds"), name="t", hero_name="Keystone",
                    archetype="keystone", seed=3)
    game.start_fight(["the_tallyman"])
    while game.referee_turn:
        game.referee_step()
    game.fight_act("aim", attack="granite_fist")
    why = {o.action: o.why for o in game.fight_options() if not o.allowed}
    assert why["attack"] == "no standard action left"
    assert why["delay"] == "too late to delay: you have acted"


def test_tracker_rows() -> None:
    from engine.tui.widgets.tracker import tracker_text as draw

    rows = [TrackerRow(actor="keystone", name="Keystone", side="heroes", initiative=13,
                       acting=True, conditions=("dazed", "prone"),
                       columns=InitiativeColumns(damage=2), control="player", out=""),
            TrackerRow(actor="crew", name="Dockside Crew 12 the Long", side="villains",
                       initiative=4, acting=False, conditions=("incapacitated",),
                       columns=InitiativeColumns(damage=0), control="referee", out="down")]
    lines = draw(0, rows, width=28).plain.split("\n")
    assert lines[0] == "⚔ SURPRISE ROUND"
    assert lines[1] == "▶13 Keystone        -2 you"
    assert lines[2] == "    dz prn"
    assert lines[3] == "  4 Dockside Crew …    down"  # out: no conditions, no marker
    assert len(lines) == 4


async def test_actions_that_name_an_item_or_an_action(
        mm_campaign: Callable[..., str], mm_app: Callable[[str], SidekickApp]) -> None:
    app = mm_app(mm_campaign())
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        menu = app.screen.query_one(FightList)
        menu.highlighted = menu_ids(app).index("fight:disarm")
        await pilot.press("enter")
        await settle(pilot)
        menu.highlighted = menu_ids(app).index("ftarget:dockside_crew_1")
        await pilot.press("enter")
        await settle(pilot)
        assert menu_ids(app) == ["fneed:Pistol", "fneed:Brass Knuckles"]
        await pilot.press("escape")  # back to the targets
        await settle(pilot)
        assert menu_ids(app)[0] == "ftarget:dockside_crew_1"
        await pilot.press("escape")
        await settle(pilot)
        menu.highlighted = menu_ids(app).index("fight:ready")
        await pilot.press("enter")
        await settle(pilot)
        assert "fneed:attack" in menu_ids(app) and "fneed:ready" not in menu_ids(app)
        await pilot.press("escape")
        await settle(pilot)
        menu.highlighted = menu_ids(app).index("fight:disarm")
        await pilot.press("enter")
        await settle(pilot)
        menu.highlighted = menu_ids(app).index("ftarget:dockside_crew_1")
        await pilot.press("enter")
        await settle(pilot)
        await pilot.press("1")  # the pistol
        await settle(pilot)
        assert "disarm" in " ".join(journal_text(app).split()).lower()
        game = game_of(app)
        assert game.fight is not None and game.fight.encounter.budget["standard"] == 0


async def test_f8_with_your_own_initiative_dice(mm_campaign: Callable[..., str],
                                                mm_app: Callable[[str], SidekickApp]) -> None:
    app = mm_app(mm_campaign(fight=False, dice_mode="physical"))
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        await pilot.press("f8")
        await settle(pilot)
        await pilot.press("space", "enter")  # The Tallyman
        await settle(pilot)
        await pilot.press("enter")  # nobody surprised
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, DiceDialog)
        assert "Keystone, Lamplight, The Tallyman" in str(dialog.summary)
        await fill(pilot, "#faces", "12")
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, DiceDialog)  # too few: it says who is short
        await fill(pilot, "#faces", "12 8 15")
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, PlayScreen)
        assert [line.split()[-2] for line in tracker_text(app).splitlines()[1:]] == [
            "Tallyman", "Lamplight", "Keystone"]
        assert acting_row(app).startswith("▶16")


async def test_a_step_that_asks_the_player_offers_the_choices(
        saves: Path, mm_app: Callable[[str], SidekickApp]) -> None:
    """A fight step that waits for the player's choice (engine.rules.conflict.NeedChoice)
    shows it as a menu; picking an entry plays the step on."""
    from engine.rules.fight.events import FightActed
    from engine.rules.fight.state import Pending
    from engine.systems.mm3e.fight import MM3EConflict
    from engine.systems.mm3e.step import Ctx

    options = [FightChoice(id="left", label="Go left", detail="by the cranes"),
               FightChoice(id="right", label="Go right")]

    def ponder(ctx: Ctx, p: Pending) -> None:
        way = ctx.ask(p.actor, "Which way?", options, default="right")
        ctx.emit(FightActed(actor=p.actor, action="ponder", text=f"Off to the {way}."))

    table = MM3EConflict.actions.extended()
    table.action("ponder", "free")(ponder)
    saved = MM3EConflict.actions
    MM3EConflict.actions = table
    try:
        game = new_game(saves, system=SYSTEM, name="Ask", hero_name="Keystone",
                        archetype="keystone", seed=5)
        game.start_fight(["the_tallyman"])
        while game.referee_turn:
            game.referee_step()
        game.fight_act("ponder")
        cid = str(game.store.id)  # type: ignore[attr-defined]
        close_game(game)
        app = mm_app(cid)
        async with app.run_test(size=SMALL) as pilot:
            await settle(pilot)
            assert menu_ids(app) == ["fchoice:left", "fchoice:right"]
            assert "Keystone: Which way?" in str(
                app.screen.query_one("#fight-title").render())
            await pilot.press("enter")
            await settle(pilot)
            assert "Off to the left." in journal_text(app)
            assert game_of(app).pending.kind == "fight"
    finally:
        MM3EConflict.actions = saved


async def test_a_suggestion_asks_for_its_target_and_one_enter_takes_it(
        mm_campaign: Callable[..., str], mm_app: Callable[[str], SidekickApp]) -> None:
    """Issue 26: a fight suggestion asks for its target, the one the words named highlighted,
    and one Enter takes it with the maneuvers the words named; an area attack said for all of
    them highlights everyone in the area."""
    app = mm_app(mm_campaign())
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        game = game_of(app)
        assert game.fight is not None and game.fight.encounter.acting == "lamplight"
        menu = app.screen.query_one(FightList)
        await pilot.press("d")
        await settle(pilot)
        await fill(pilot, "#fight-say", "Power attack: I lance the Tallyman")
        await pilot.press("enter")
        await settle(pilot)
        first = str(menu.get_option("fsug:0").prompt)
        assert "Light Lance → The Tallyman (power attack" in first, first
        await pilot.press("1")
        await settle(pilot)
        assert game_of(app).fight is not None  # nothing taken yet: the target is asked
        ids = menu_ids(app)
        assert menu.highlighted is not None and ids[menu.highlighted] == "ftarget:the_tallyman"
        await pilot.press("enter")
        await settle(pilot)
        rolled = [e for e in game_of(app).last_events if e["type"] == "Rolled"]
        assert rolled and "Light Lance" in rolled[0]["what"]
        text = " ".join(journal_text(app).split())
        assert "Power attack: I lance the Tallyman" in text


async def test_an_area_attack_said_for_everyone_covers_them_all(
        mm_campaign: Callable[..., str], mm_app: Callable[[str], SidekickApp]) -> None:
    app = mm_app(mm_campaign())
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        menu = app.screen.query_one(FightList)
        await pilot.press("d")
        await settle(pilot)
        await fill(pilot, "#fight-say",
                   "I sweep a blinding Flashpoint cone across all the gunmen at once")
        await pilot.press("enter")
        await settle(pilot)
        first = str(menu.get_option("fsug:0").prompt)
        assert "Flashpoint → all 7 foes" in first, first
        await pilot.press("1")
        await settle(pilot)
        ids = menu_ids(app)
        assert menu.highlighted is not None and ids[menu.highlighted] == "ftarget:*"
        assert "Everyone in the area (7 foes)" in str(menu.get_option("ftarget:*").prompt)
        await pilot.press("enter")
        await settle(pilot)
        dodged = {e["actor"] for e in game_of(app).last_events
                  if e["type"] == "Rolled" and "dodges Flashpoint" in e.get("what", "")}
        assert len(dodged) == 7, dodged


async def test_a_delayed_hero_acts_now_from_the_referees_turn(
        mm_campaign: Callable[..., str], mm_app: Callable[[str], SidekickApp]) -> None:
    """Issue 28: Keystone delays; once the minion whose turn it is has acted, the referee's
    menu offers "Keystone: act now (end delay)", and Keystone's turn begins there."""
    app = mm_app(mm_campaign(foes=("the_tallyman",)))  # a crew would delay to team up
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        await pilot.press("e")  # Lamplight ends her turn; Keystone's
        await settle(pilot)
        menu = app.screen.query_one(FightList)
        menu.highlighted = menu_ids(app).index("fight:delay")
        await pilot.press("enter")
        await settle(pilot)
        assert menu_ids(app) == ["step", "run", "take"]  # the minion has not acted yet
        await pilot.press("enter")  # the referee chooses ...
        await settle(pilot)
        await pilot.press("space")  # ... then acts
        await settle(pilot)
        game = game_of(app)
        assert game.referee_turn
        ids = menu_ids(app)
        assert ids[-1] == "step_in"
        menu.highlighted = ids.index("step_in")
        await pilot.press("enter")
        await settle(pilot)
        assert not game.referee_turn and "Keystone" in acting_row(app)
        assert "Keystone stops waiting and acts now" in journal_text(app)
