"""What the fight panel's messages do: each is routed to the ``Game`` command it asks for (an
action, an answer, a referee step, taking a character over, ending the turn), to the engine's
matcher (what the player said), or to a dialog (a die to enter, calling the fight off)."""

from __future__ import annotations

from engine.errors import EngineError
from engine.tui.screens.play.fight_dialogs import FightDialogs
from engine.tui.screens.play.fight_menu import FightMenu
from engine.tui.screens.play.host import PlayHost
from engine.tui.widgets.fight import FightPanel, Pick


class FightTurn:
    """Answers the fight panel's messages by driving ``Game``."""

    def __init__(self, host: PlayHost, menu: FightMenu, dialogs: FightDialogs) -> None:
        self.host = host
        self.menu = menu
        self.dialogs = dialogs

    def asked(self, message: FightPanel.Asked) -> None:
        """Do what the panel's ``message`` asks."""
        host = self.host
        game = host.game
        fight = game.fight
        acting = fight.encounter.acting if fight is not None else None
        match message:
            case FightPanel.ActionChosen():
                # the action, with what the player said it does; the pick is reset once it is
                # taken (the screen's ``act``), a refusal leaves the player where they were
                host.perform(game.fight_act, message.action, message.target, message.attack,
                             message.maneuvers, message.options, None, message.fiction)
            case FightPanel.PickChanged():  # with the odds of the maneuvers set, the items
                host.redraw_prompt()
            case FightPanel.Said():
                self.said(message.text)
            case FightPanel.NotAMove():
                self.menu.reset()
                if not host.perform(game.describe, message.text):
                    host.redraw_prompt()
            case FightPanel.ChoiceAnswered():
                host.perform(game.fight_choose, message.choice)
            case FightPanel.DieWanted():
                self.dialogs.ask_die()
            case FightPanel.EndFight():
                self.dialogs.start_or_end()
            case FightPanel.RefereeStep():
                host.perform(game.referee_step)
            case FightPanel.RefereeRun():
                host.perform(game.referee_run)
            case FightPanel.TakeOver():
                if acting:
                    host.perform(game.take_over, acting)
            case FightPanel.HandBack():
                if acting:
                    host.perform(game.take_over, acting, False)
            case FightPanel.EndTurn():
                host.perform(game.end_turn)

    def said(self, text: str) -> None:
        """The player said what the acting character does: offer the actions it matches
        (the engine's fight matcher), each with its target and odds."""
        try:
            sugs = tuple(s for s in self.host.game.suggest_fight(text) if s.action)
        except EngineError as e:
            self.host.notify(e.message, title="Not now", severity="error")
            return
        self.menu.panel.show_suggestions(text, sugs)

    def choose_option(self, key: str) -> None:
        """An action from the list, as if the player chose it (the panel's)."""
        self.menu.panel.choose_option(key)

    @property
    def pick(self) -> Pick:
        """Where the player is in choosing (the panel's)."""
        return self.menu.pick
