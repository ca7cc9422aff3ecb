"""The play screen: the journal, the prompt of the moment, and the live character sheet.

The screen only asks ``game.pending`` what to show and answers through ``Game`` methods; after
every action it appends the new events to the journal and redraws the sheet and the prompt.
Everything it shows is rebuilt from the saved state, so a reopened campaign looks the same.

The screen lays out its regions (top bar, "Previously...", journal, prompt box, sidebar, key
bar), runs each action (``act``) and routes keys and messages to the parts it owns: the prompt
(prompt.py), the move flow (moves.py), the roll (rolls.py), the choice dialog (choices.py),
the fight's menu, turn and dialogs (fight_*.py), and table talk (table_talk.py).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, cast

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.reactive import Reactive
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Button, Input

from engine.errors import EngineError
from engine.game import Game
from engine.tui.commands import PlayCommands
from engine.tui.host import AppHost, PlayHost
from engine.tui.messages import MenuPicked, RollCommand
from engine.tui.screens.ledger import LedgerScreen
from engine.tui.screens.play.choices import FLOW_KINDS, Choices
from engine.tui.screens.play.chronicle import Chronicle
from engine.tui.screens.play.dialog_queue import DialogQueue
from engine.tui.screens.play.fight_dialogs import FightDialogs
from engine.tui.screens.play.fight_menu import FightMenu
from engine.tui.screens.play.fight_turn import FightTurn
from engine.tui.screens.play.host import DialogFactory, Events, Logged, P
from engine.tui.screens.play.keys import PLAY_BINDINGS, key_enabled
from engine.tui.screens.play.moves import Moves
from engine.tui.screens.play.prompt import Prompter
from engine.tui.screens.play.rolls import Rolls
from engine.tui.screens.play.table_talk import TableTalk
from engine.tui.widgets.action_menu import ActionMenu
from engine.tui.widgets.fight import FightPanel
from engine.tui.widgets.journal import Journal
from engine.tui.widgets.keybar import KeyBar
from engine.tui.widgets.prompt_box import PromptBox
from engine.tui.widgets.recap import RecapPanel
from engine.tui.widgets.sidebar import Sidebar
from engine.tui.widgets.topbar import TopBar

log = logging.getLogger(__name__)


class PlayScreen(Screen[None]):
    """One campaign in play."""

    COMMANDS = {PlayCommands}
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (96, "-wide")]

    focused: Reactive[Widget | None] = Reactive(None, repaint=False)
    """As on every Screen, but a focus change does not repaint the whole screen: the widgets
    that gain and lose focus restyle themselves. Every action here moves the focus (input,
    menu, roll panel), and a full repaint per action was half the keypress-to-result time."""

    BINDINGS = PLAY_BINDINGS

    def __init__(self, game: Game) -> None:
        super().__init__()
        self.game = game
        self.chronicle = Chronicle(game)
        """The journal's events (``events``) and the names it needs."""
        self.dialogs = DialogQueue(self, self._dialog_closed)
        self.choices = Choices(self)
        self.fight_menu = FightMenu(self)
        self.fight_dialogs = FightDialogs(self)
        self.fight_turn = FightTurn(self, self.fight_menu, self.fight_dialogs)
        self.prompter = Prompter(self, self.fight_menu, self.fight_dialogs, self.choices)
        self.moves = Moves(self)
        self.rolls = Rolls(self)
        self._laid_out: list[Callable[[], object]] = []
        """What waits for the next layout (``after_layout``)."""
        self.table = TableTalk(self)
        self._has_fights: bool | None = None

    @property
    def events(self) -> Logged:
        """Every event of the campaign, in order (the journal's source; trimmed on undo)."""
        return self.chronicle.events

    @property
    def sidekick(self) -> AppHost:
        """The app, typed."""
        return cast(AppHost, self.app)  # Textual types every screen's app as App[object]

    @property
    def prompt(self) -> PromptBox:
        """The prompt box."""
        return self.query_one(PromptBox)

    @property
    def has_fights(self) -> bool:
        """Whether this game runs fights in rounds (its ruleset has a Conflict)."""
        if self._has_fights is None:
            try:
                self._has_fights = self.game.rules.conflict() is not None
            except Exception:  # a ruleset that cannot say: no fights here
                self._has_fights = False
        return self._has_fights

    # ------------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        """Top bar, journal and prompt on the left, sheet on the right, footer."""
        yield TopBar(id="topbar")
        with Horizontal(id="main"):
            with Vertical(id="story"):
                yield RecapPanel(id="recap")
                yield Journal(self.game.pack, id="journal")
                yield PromptBox(id="prompt-box")
            yield Sidebar(id="sidebar")
        yield KeyBar()

    def on_mount(self) -> None:
        """Load the journal from the log and show whatever the engine waits for."""
        try:
            self.chronicle.read()
        except EngineError as e:
            self.sidekick.show_error(e)
        self.chronicle.show_all(self.query_one(Journal))
        self.query_one(RecapPanel).show_recap(self.events, self.game.state, self.game.pack)
        self._refresh_all(open_dialogs=True)
        # learn the pack's moves while the player reads and types (about a second, once)
        self.run_worker(self._warm_matcher, thread=True, exit_on_error=False,
                        name="learn moves")

    def _warm_matcher(self) -> None:
        self.game.matcher  # noqa: B018 (built and cached on first use)

    def on_unmount(self) -> None:
        """Release the campaign."""
        self.sidekick.close_game(self.game)

    # ------------------------------------------------------------------ drawing

    def _refresh_all(self, open_dialogs: bool = True) -> None:
        sidebar = self.query_one(Sidebar)
        sidebar.show_sheet(self.game)
        fight = self.game.fight
        if self.has_class("fighting") != (fight is not None):
            # the sidebar comes or goes: fit the menu to its new width once laid out
            self.call_after_refresh(self.fight_menu.refit)
        self.set_class(fight is not None, "fighting")
        if sidebar.show_fight(self.game):
            self.call_after_refresh(sidebar.scroll_to_acting)
        self.query_one(TopBar).show(self.game)
        self.prompter.draw(open_dialogs)
        self.refresh_bindings()

    def redraw_prompt(self) -> None:
        """Draw the prompt again (no dialog opens)."""
        self.prompter.draw(open_dialogs=False)

    @on(ActionMenu.Resized)
    def _menu_resized(self) -> None:
        self.prompter.resized()

    # ------------------------------------------------------------------ acting

    def act(self, fn: Callable[P, Events], *args: P.args, **kwargs: P.kwargs) -> str | None:
        """Run one Game action; show its events. Return the error message, or None."""
        before = self.game.state.action_no
        fresh = self.game.flow.stage == "fiction"  # a new beat, not the end of a pending one
        acting, party = self.game.state.acting, len(self.game.state.party) > 1
        try:
            new = fn(*args, **kwargs)
        except EngineError as e:
            return e.message
        except Exception as e:  # a bug in the engine: report it, the state was rolled back
            log.exception("action failed")
            return f"Unexpected error ({type(e).__name__}): {e}"
        if fresh:  # play goes on: "Previously..." makes room
            self.query_one(RecapPanel).dismiss()
        self.fight_menu.reset()
        if fn == self.game.undo:
            self.chronicle.undo(before, self.query_one(Journal))
        else:
            self.chronicle.add(new, acting, party, self.query_one(Journal))
        self._refresh_all(open_dialogs=False)
        if self.game.pending.kind == "fight_die":
            self.call_after_refresh(self.fight_dialogs.ask_die)
        return None

    def perform(self, fn: Callable[P, Events], *args: P.args, **kwargs: P.kwargs) -> bool:
        """Run an action and notify its error; True if it worked."""
        error = self.act(fn, *args, **kwargs)
        if error:
            self.notify(error, title="Not now", severity="error", timeout=6)
            return False
        self._maybe_open_choice()
        return True

    def submit(self, fn: Callable[P, Events], *args: P.args, **kwargs: P.kwargs) -> str | None:
        """For dialogs: act, then open a choice if one follows; the error text otherwise."""
        error = self.act(fn, *args, **kwargs)
        if error is None:
            self._maybe_open_choice()
        return error

    def _maybe_open_choice(self) -> None:
        """Open the choice dialog once the result of the action is on screen; a fight a move
        started with your own dice asks for its initiative dice."""
        request = self.game.fight_request
        if request is not None:
            self.call_after_refresh(self.fight_dialogs.ask_initiative, list(request.foes),
                                    list(request.surprised))
        elif self.game.pending.kind not in FLOW_KINDS:
            self.after_layout(self.choices.open)
        elif self.moves.side_unsaid():
            self.after_layout(self.moves.ask_side)

    def after_layout(self, callback: Callable[[], object]) -> None:
        """Run ``callback`` once this screen has laid out and painted what is pending: the
        player sees a result before the dialog that asks about it opens, and the dialog's
        backdrop is drawn from a screen already painted. (``call_after_refresh`` can run
        before the layout a result needs, and the dialog then drew the result itself.)"""
        self._laid_out.append(callback)
        if len(self._laid_out) == 1:
            self.screen_layout_refresh_signal.subscribe(self, self._run_laid_out)
        self.refresh(layout=True)

    def _run_laid_out(self, _screen: object) -> None:
        self.screen_layout_refresh_signal.unsubscribe(self)
        callbacks, self._laid_out = self._laid_out, []
        for callback in callbacks:
            callback()

    # ------------------------------------------------------------------ dialogs

    def push_dialog(self, factory: DialogFactory,
                    on_result: Callable[[Any], None] | None = None) -> None:
        """Show the dialog ``factory`` makes now, or once this screen is on top again.

        Dialogs are shown one at a time and only from this screen (a dialog pushed while
        another screen is on top would hand its answer to that screen).
        """
        self.dialogs.push(factory, on_result)

    def _dialog_closed(self) -> None:
        self.redraw_prompt()
        self.refresh_bindings()

    def on_screen_resume(self) -> None:
        """Back on top (a dialog, the help or the palette closed): show any queued dialog."""
        self.call_after_refresh(self.dialogs.drain)

    def open_choice(self) -> None:
        """Open the dialog for the pending choice (choose N, pick one, questions, battle)."""
        self.choices.open()

    # ------------------------------------------------------------------ the prompt box

    @on(Input.Submitted, "#fiction")
    def _fiction(self, event: Input.Submitted) -> None:
        self.moves.describe(event)

    @on(MenuPicked)
    def _picked(self, event: MenuPicked) -> None:
        self.moves.picked(event.kind, event.value)

    @on(FightPanel.Asked)
    def _fight_asked(self, event: FightPanel.Asked) -> None:
        self.fight_turn.asked(event)

    @on(RollCommand)
    def _roll_command(self, event: RollCommand) -> None:
        self.rolls.command(event.kind)

    @on(Button.Pressed, "#waiting")
    def _waiting(self) -> None:
        self.open_choice()

    def use_move(self, move_id: str, target_hint: str | None = None) -> None:
        """Use a move now: from the suggestions, the move list or the command palette."""
        self.moves.use_move(move_id, target_hint)

    # ------------------------------------------------------------------ keys and commands

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Show only the keys that do something now."""
        return key_enabled(action, self.game, lambda: self.has_fights)

    def action_moves(self) -> None:
        """Open the full move list."""
        self.moves.show_all()

    def action_fight(self) -> None:
        """Start a fight: pick the foes, then who (if anyone) is surprised. In a fight: call
        it off."""
        self.fight_dialogs.start_or_end()

    def action_undo(self) -> None:
        """Undo the last action."""
        if self.perform(self.game.undo):
            self.notify("Undone: back to before the last action.", timeout=3)

    def action_ask_gm(self) -> None:
        """"What happens next?" — a soft GM move."""
        self.perform(self.game.ask_gm)

    def action_party(self) -> None:
        """Hand the spotlight to another hero of the party (or add a hero)."""
        self.table.party()

    def action_next_hero(self) -> None:
        """Shift+F3: the spotlight to the party's next hero, in one key."""
        self.table.next_hero()

    def action_party_solo(self) -> None:
        """F3 with one hero: the same picker (to add a hero)."""
        self.table.party()

    def action_add_hero(self) -> None:
        """Another hero joins the party (you play them too)."""
        self.table.add_hero()

    def action_add_npc(self) -> None:
        """Bring an NPC into the story."""
        self.table.add_npc()

    def add_npc(self, name: str = "") -> None:
        """Bring an NPC into the story, ``name`` filled in (one the fiction gave)."""
        self.table.add_npc(name)

    def action_end_scene(self) -> None:
        """End the scene, asking which clearing actions were taken."""
        self.table.end_scene()

    def action_next_scene(self) -> None:
        """The GM proposes the next scene; play it, ask for another, or write your own."""
        self.table.next_scene()

    def action_end_session(self) -> None:
        """The end-of-session move, after a confirmation."""
        self.table.end_session()

    def action_oracle(self) -> None:
        """Ask the oracle a yes/no question."""
        self.table.oracle()

    def action_roll_table(self) -> None:
        """Roll on one of the GM's tables: your own dice, or the GM's pick."""
        self.table.roll_table()

    def action_dice_mode(self) -> None:
        """Switch the campaign's dice: seeded, physical or mixed (undo switches back)."""
        self.table.dice_mode()

    def action_edit_sheet(self) -> None:
        """Fix the sheet by hand: one journaled action that ^Z undoes; between moves only."""
        self.table.edit_sheet()

    def action_ledger(self) -> None:
        """The story ledger: threads, characters, facts, threats (each change undoable)."""
        self.app.push_screen(LedgerScreen(self.game, self.submit))

    def set_presence(self, npc_id: str, present: bool) -> None:
        """An NPC enters or leaves the scene."""
        self.perform(self.game.set_presence, npc_id, present)

    def took_clearing_action(self, condition: str) -> None:
        """Note a clearing action taken this scene."""
        self.perform(self.game.took_clearing_action, condition)

    def action_toggle_sheet(self) -> None:
        """Show or hide the character sheet."""
        shown = self.query_one(Sidebar).display
        self.set_class(shown, "sheet-hidden")
        self.set_class(not shown, "sheet-shown")

    def action_recap(self) -> None:
        """Show "Previously..." again (or hide it)."""
        panel = self.query_one(RecapPanel)
        if panel.shown:
            panel.dismiss()
        elif not panel.show_recap(self.events, self.game.state, self.game.pack):
            self.notify("Nothing to recap yet.", timeout=3)

    def action_page(self, direction: int) -> None:
        """PgUp/PgDn: scroll "Previously..." while it is shown, else the journal."""
        panel = self.query_one(RecapPanel)
        if panel.shown:
            panel.page(direction)
        elif direction > 0:
            self.query_one(Journal).scroll_page_down(animate=False)
        else:
            self.query_one(Journal).scroll_page_up(animate=False)

    def action_close_recap(self) -> None:
        """Esc: close "Previously..." (in a fight, also back from saying what you do)."""
        self.query_one(RecapPanel).dismiss()
        if self.fight_menu.saying:
            self.fight_menu.reset()
            self.redraw_prompt()

    def action_leave(self) -> None:
        """Back to the campaign list (everything is saved)."""
        self.dismiss(None)


def _is_host(screen: PlayScreen) -> PlayHost:
    """mypy checks here that the screen is what its command palette takes it for."""
    return screen
