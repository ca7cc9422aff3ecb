"""Pilot tests of the play screen: fiction to roll to choice, misses, dice, undo, scenes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.widgets import Input

from engine.tui.app import SidekickApp
from engine.tui.screens.dialogs import (
    ChoiceDialog,
    DiceDialog,
    EndSceneDialog,
    SceneDialog,
)
from engine.tui.screens.gm_dialogs import FramedSceneDialog
from engine.tui.screens.play import PlayScreen
from engine.tui.widgets.action_menu import ActionMenu
from engine.tui.widgets.roll_panel import RollPanel
from engine.tui.widgets.sheet import Sheet
from tests.tui.conftest import SIZE, fill, game_of, journal_text, settle, type_text

App = Callable[..., SidekickApp]


async def describe(pilot: Any, text: str) -> None:
    """Type fiction at 'What do you do?' and press Enter."""
    await fill(pilot, "#fiction", text)
    await pilot.press("enter")
    await settle(pilot)


async def enter_dice(pilot: Any, faces: str) -> None:
    """Type faces into the open dice dialog and press Enter."""
    assert isinstance(pilot.app.screen, DiceDialog)
    await fill(pilot, "#faces", faces)
    await pilot.press("enter")
    await settle(pilot)


async def test_fiction_roll_choice_round(make_campaign: Callable[..., str], app_for: App) -> None:
    cid = make_campaign()
    app = app_for(cid)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, PlayScreen)
        assert isinstance(app.focused, Input) and app.focused.id == "fiction"
        await describe(pilot, "I punch the drones")
        game = game_of(app)
        assert game.flow.stage == "move"
        menu = app.screen.query_one(ActionMenu)
        assert app.focused is menu
        first = menu.get_option_at_index(0)
        assert first.id == "move:directly_engage"
        prompt = str(first.prompt)
        assert "you said “punch”" in prompt
        assert "Miss 58.3%" in prompt and "Strong hit 8.3%" in prompt
        await pilot.press("enter")
        await settle(pilot)
        assert game.flow.stage == "roll"
        assert isinstance(app.focused, RollPanel)
        await pilot.press("enter")  # physical dice: the dialog opens
        await settle(pilot)
        await enter_dice(pilot, "4 4")  # 8 - 1 = 7: a weak hit, pick one
        assert isinstance(app.screen, ChoiceDialog)
        assert game.pending.kind == "choose"
        await pilot.press("down", "enter")
        await settle(pilot)
        assert isinstance(app.screen, PlayScreen)
        assert game.flow.stage == "fiction"
        text = journal_text(app)
        assert "│ I punch the drones" in text
        assert "2d6 [4 4] -1 = 7 →  Weak hit" in text
        assert "why: Danger -1" in text
        assert "Chosen: You tear something away from them." in text
        assert app.focused is app.screen.query_one("#fiction")


async def test_seeded_roll(make_campaign: Callable[..., str], app_for: App) -> None:
    cid = make_campaign(dice_mode="seeded", seed=7)
    app = app_for(cid)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await describe(pilot, "I look around and size up the pier")
        await pilot.press("1")  # the first suggestion
        await settle(pilot)
        game = game_of(app)
        assert game.flow.move == "assess_situation" and game.flow.stage == "roll"
        await pilot.press("enter")
        await settle(pilot)
        rolled = [e for e in app.screen_stack[2].events if e["type"] == "Rolled"]  # type: ignore[attr-defined]
        assert len(rolled) == 1 and not rolled[0]["entered"]
        assert "(seeded dice; chance of this result" in journal_text(app)


async def test_miss_brings_a_gm_move(make_campaign: Callable[..., str], app_for: App) -> None:
    app = app_for(make_campaign())
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await describe(pilot, "I punch Dusk in the face")
        await pilot.press("enter")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        await enter_dice(pilot, "1 1")
        game = game_of(app)
        text = journal_text(app)
        assert "→  Miss" in text
        assert "◆ GM — " in text and "(hard)" in text and "why: after a miss" in text
        assert game.state.hero.tracks["potential"] == 1
        # the villain strikes back (its miss calls for it): a condition to mark may be open
        play = next(s for s in app.screen_stack if isinstance(s, PlayScreen))
        assert "●○○○○ 1/5" in play.query_one(Sheet).text.plain


async def test_physical_dice_are_checked(make_campaign: Callable[..., str], app_for: App
                                         ) -> None:
    app = app_for(make_campaign())
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await describe(pilot, "I blast through the wall")
        await pilot.press("enter", "enter")
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, DiceDialog)
        await fill(pilot, "#faces", "7 9")
        await pilot.press("enter")
        await settle(pilot)
        error = str(dialog.query_one("#dialog-error").render())
        assert "a d6 shows 1 to 6" in error
        assert dialog.query_one("#faces", Input).value == "7 9"  # nothing typed is lost
        await fill(pilot, "#faces", "3")
        await pilot.press("enter")
        await settle(pilot)
        assert "2d6 needs 2 dice, but 1 was entered" in str(
            dialog.query_one("#dialog-error").render())
        await fill(pilot, "#faces", "six")
        await pilot.press("enter")
        await settle(pilot)
        assert "whole numbers" in str(dialog.query_one("#dialog-error").render())
        game = game_of(app)
        assert game.flow.stage == "roll"
        await fill(pilot, "#faces", "6 6")
        await pilot.press("enter")
        await settle(pilot)
        assert not isinstance(app.screen, DiceDialog)
        assert "2d6 [6 6] +2 = 14 →  Strong hit" in journal_text(app)
        assert "(your dice; chance of this result" in journal_text(app)


async def test_no_move_and_full_list(make_campaign: Callable[..., str], app_for: App) -> None:
    app = app_for(make_campaign())
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await describe(pilot, "I sit on the roof and watch the rain")
        game = game_of(app)
        # plain fiction: "No move" comes first, highlighted, with the best three moves after
        # it (issue 11); Enter keeps it as fiction
        assert game.flow.stage == "move"
        assert game.flow.suggestions[0]["move"] is None
        assert len(game.flow.suggestions) == 4
        await pilot.press("enter")
        await settle(pilot)
        assert game.flow.stage == "fiction"
        assert "│ I sit on the roof and watch the rain" in journal_text(app)
        await describe(pilot, "I punch the drones")
        assert game.flow.stage == "move"
        await pilot.press("n")
        await settle(pilot)
        assert game.flow.stage == "fiction"
        await describe(pilot, "I punch the drones")
        await pilot.press("m")
        await settle(pilot)
        assert app.screen.__class__.__name__ == "MovesDialog"
        await type_text(pilot, "unleash")
        await pilot.press("enter")
        await settle(pilot)
        assert game.flow.stage == "roll" and game.flow.move == "unleash_powers"


async def test_undo(make_campaign: Callable[..., str], app_for: App) -> None:
    app = app_for(make_campaign())
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        game = game_of(app)
        start = game.state.action_no
        await describe(pilot, "I punch the drones")
        assert game.flow.stage == "move"
        assert "I punch the drones" in journal_text(app)
        await pilot.press("ctrl+z")
        await settle(pilot)
        assert game.state.action_no == start
        assert game.flow.stage == "fiction"
        assert "I punch the drones" not in journal_text(app)
        assert app.focused is app.screen.query_one("#fiction")
        await pilot.press("ctrl+z")  # nothing left to undo: a message, no crash
        await settle(pilot)
        assert any("nothing to undo" in n.message for n in app._notifications)
        await describe(pilot, "I punch the drones")
        await pilot.press("enter", "enter")
        await settle(pilot)
        await enter_dice(pilot, "4 4")
        assert isinstance(app.screen, ChoiceDialog)
        await pilot.press("escape")
        await settle(pilot)
        await pilot.press("ctrl+z")  # takes the roll back: the dice are asked for again
        await settle(pilot)
        assert game.flow.stage == "roll"
        text = journal_text(app)
        assert "I punch the drones" in text and "2d6 [4 4]" not in text
        assert isinstance(app.focused, RollPanel)


async def test_end_scene_and_next(make_campaign: Callable[..., str], app_for: App) -> None:
    app = app_for(make_campaign())
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        game = game_of(app)
        await pilot.press("f5")  # nothing marked: the dialog says so and just ends the scene
        await settle(pilot)
        assert isinstance(app.screen, EndSceneDialog)
        assert "no conditions marked" in str(app.screen.message)
        await pilot.press("escape")  # keep playing
        await settle(pilot)
        assert game.state.scene.open
        await describe(pilot, "I blast through the wall")
        await pilot.press("enter", "enter")
        await settle(pilot)
        await enter_dice(pilot, "3 3")  # 6 + 2 = 8: a weak hit
        await pilot.press("enter")  # strain: mark a condition
        await settle(pilot)
        await pilot.press("enter")  # the first free condition: Afraid
        await settle(pilot)
        assert game.state.hero.conditions == ["afraid"]
        await pilot.press("f5")
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, EndSceneDialog)
        texts = [str(o.prompt) for o in dialog.query_one("#choices").options]  # type: ignore[attr-defined]
        assert texts == ["☐ Afraid\nClears if you: Turn and run from something that frightens"
                         " or overwhelms you."]
        await pilot.press("space", "enter")  # its clearing action was taken
        await settle(pilot)
        assert not game.state.scene.open
        assert game.state.hero.conditions == []
        assert isinstance(app.screen, FramedSceneDialog)  # the GM proposes first
        await pilot.press("w")  # write my own instead
        await settle(pilot)
        assert isinstance(app.screen, SceneDialog)
        await type_text(pilot, "Blackout at the pier")
        await fill(pilot, "#scene-where", "Pier 9")
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, PlayScreen)
        assert game.state.scene.open and game.state.scene.title == "Blackout at the pier"
        text = journal_text(app)
        assert "Scene 2: Blackout at the pier — Pier 9" in text
        assert "Scene 1 ends" in text and "cleared Afraid" in text


async def test_end_session_move(make_campaign: Callable[..., str], app_for: App) -> None:
    app = app_for(make_campaign())
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        game = game_of(app)
        await pilot.press("f7")
        await settle(pilot)
        await pilot.press("y")
        await settle(pilot)
        assert isinstance(app.screen, ChoiceDialog)
        assert game.pending.kind == "pick"
        await pilot.press("escape")  # later: the choice waits
        await settle(pilot)
        assert isinstance(app.screen, PlayScreen)
        assert app.focused is app.screen.query_one("#waiting")
        await pilot.press("enter")  # reopen
        await settle(pilot)
        assert isinstance(app.screen, ChoiceDialog)


async def test_ask_gm_and_add_npc(make_campaign: Callable[..., str], app_for: App) -> None:
    app = app_for(make_campaign())
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        game = game_of(app)
        await pilot.press("ctrl+g")
        await settle(pilot)
        assert "(soft)" in journal_text(app)
        await pilot.press("ctrl+n")
        await settle(pilot)
        await fill(pilot, "#npc-name", "Tin")  # already taken: the engine says so inline
        await pilot.press("enter")
        await settle(pilot)
        assert "already an NPC called 'Tin'" in str(app.screen.query_one("#dialog-error").render())
        await fill(pilot, "#npc-name", "Captain Vega")
        await pilot.press("enter")
        await settle(pilot)
        assert game.state.npc_by_name("Captain Vega") is not None
        assert "Captain Vega" in app.screen.query_one(Sheet).text.plain


async def test_choose_exactly_n(make_campaign: Callable[..., str], app_for: App) -> None:
    app = app_for(make_campaign())
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await describe(pilot, "I punch the drones")
        await pilot.press("enter", "enter")
        await settle(pilot)
        await enter_dice(pilot, "6 6")  # strong hit: pick two
        dialog = app.screen
        assert isinstance(dialog, ChoiceDialog) and dialog.lo == dialog.hi == 2
        await pilot.press("space", "enter")  # only one marked
        await settle(pilot)
        assert "Pick exactly 2 (you picked 1)" in str(dialog.query_one("#dialog-error").render())
        await pilot.press("down", "space", "down", "space")  # a third one is refused
        await settle(pilot)
        assert len(dialog.query_one("#choices").selected) == 2  # type: ignore[attr-defined]
        assert "at most 2" in str(dialog.query_one("#dialog-error").render())
        await pilot.press("enter")
        await settle(pilot)
        game = game_of(app)
        assert game.flow.stage == "fiction"
        assert "Chosen: You weather or slip their attacks; You tear something away" in (
            journal_text(app))


async def test_quit_and_resume_same_screen(make_campaign: Callable[..., str], app_for: App
                                           ) -> None:
    cid = make_campaign()
    app = app_for(cid)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await describe(pilot, "I punch the drones")
        await pilot.press("enter", "enter")
        await settle(pilot)
        await enter_dice(pilot, "6 6")
        assert isinstance(app.screen, ChoiceDialog)
        before = journal_text(app)
        state = game_of(app).state.model_dump()
        await pilot.press("ctrl+q")
    assert not app.games  # every campaign was released
    app2 = app_for()
    async with app2.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("enter")  # resume the highlighted (only) campaign
        await settle(pilot)
        assert isinstance(app2.screen, ChoiceDialog)  # the pending choice is back
        assert game_of(app2).state.model_dump() == state
        assert journal_text(app2) == before


async def test_target_and_palette(make_campaign: Callable[..., str], app_for: App) -> None:
    app = app_for(make_campaign())
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+p")
        await settle(pilot)
        await type_text(pilot, "provoke")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        game = game_of(app)
        assert game.flow.move == "provoke" and game.flow.stage == "target"
        menu = app.screen.query_one(ActionMenu)
        ids = [o.id for o in menu.options]
        assert "target:dusk_meridian" in ids
        menu.highlighted = ids.index("target:dusk_meridian")
        await pilot.press("enter")
        await settle(pilot)
        assert game.flow.stage == "roll" and game.flow.target == "dusk_meridian"
        assert "Provoke someone → Dusk Meridian" in str(app.screen.query_one(RollPanel).render())


async def test_spend_team_updates_odds(make_campaign: Callable[..., str], app_for: App) -> None:
    app = app_for(make_campaign())
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await describe(pilot, "I punch the drones")
        await pilot.press("enter")
        await settle(pilot)
        panel = app.screen.query_one(RollPanel)
        assert "Miss 58.3%" in str(panel.render())
        await pilot.press("t")
        await settle(pilot)
        game = game_of(app)
        assert game.state.pools["team"] == 0
        # Team helps a teammate: Tin (a teammate NPC in the scene) spends it for the hero
        assert "Team from Tin +1" in str(panel.render()) and "Miss 41.7%" in str(panel.render())


async def test_resize_keeps_layout(make_campaign: Callable[..., str], app_for: App) -> None:
    app = app_for(make_campaign())
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert screen.has_class("-narrow")
        assert not screen.query_one("#sidebar").display
        await pilot.press("ctrl+b")
        await settle(pilot)
        assert screen.query_one("#sidebar").display
        await pilot.resize_terminal(120, 40)
        await settle(pilot)
        assert screen.has_class("-wide")
        await pilot.resize_terminal(60, 20)
        await settle(pilot)
        await describe(pilot, "I punch the drones")
        assert game_of(app).flow.stage == "move"


async def test_writing_a_scene_marks_the_cast_with_a_sign_and_enter_starts_it(
        make_campaign: Callable[..., str], app_for: App) -> None:
    from engine.tui.widgets.marklist import MARKED, UNMARKED, MarkList

    app = app_for(make_campaign())
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        game = game_of(app)
        await pilot.press("f5")
        await settle(pilot)
        await pilot.press("enter")  # end the scene (nothing marked)
        await settle(pilot)
        await pilot.press("w")  # write my own
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, SceneDialog)
        await type_text(pilot, "Blackout at the pier")
        cast = dialog.query_one(MarkList)
        cast.focus()
        await settle(pilot)
        before = set(cast.selected)
        boxes = [cast.render_line(i).text[1] for i in range(cast.option_count)]
        assert boxes == [MARKED if cast.get_option_at_index(i).value in before else UNMARKED
                         for i in range(cast.option_count)]
        first = cast.get_option_at_index(0).value
        await pilot.press("space")  # marks (or unmarks) the first
        await settle(pilot)
        assert (first in cast.selected) != (first in before)
        assert cast.render_line(0).text[1] == (MARKED if first in cast.selected else UNMARKED)
        chosen = set(cast.selected)
        await pilot.press("enter")  # Enter starts the scene, it does not toggle
        await settle(pilot)
        assert isinstance(app.screen, PlayScreen)
        assert game.state.scene.title == "Blackout at the pier"
        assert set(game.state.scene.present) == chosen
