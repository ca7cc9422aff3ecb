"""The fight's part of the prompt box: gathers what the fight waits for from the engine's typed
values (a die, a question a fight's step asks, the referee's turn, or the player's, with the
odds the choice under way needs) into a ``FightView`` and hands it to the ``FightPanel``, which
draws it and keeps where the player is in choosing (``FightPanel.pick``)."""

from __future__ import annotations

from engine.errors import EngineError
from engine.game import Game
from engine.rules.fight.values import ChoiceNeed, DieNeed, FightTarget, PanelColumns
from engine.tui.fight_view import budget_words, fight_round, fight_words
from engine.tui.screens.play.host import PlayHost
from engine.tui.widgets.fight import (
    ChoiceAsk,
    DieAsk,
    FightPanel,
    FightView,
    Mode,
    NobodyActs,
    Pick,
    PlayerTurn,
    RefereeTurn,
)

FIGHT_KINDS = ("fight", "fight_die", "fight_choice")
"""The prompts of a fight, drawn by the fight panel."""


def fight_prompt(game: Game) -> tuple[str, str]:
    """The fight's prompt as the panel reads it: its kind ("fight", "fight_die",
    "fight_choice") and its message. The one place the fight's part reads ``game.pending``
    (everything else comes from the engine's fight values)."""
    p = game.pending
    return p.kind, p.message


class FightMenu:
    """Draws the fight panel from the game."""

    def __init__(self, host: PlayHost) -> None:
        self.host = host

    @property
    def panel(self) -> FightPanel:
        """The fight panel of the prompt box."""
        return self.host.prompt.fight

    @property
    def pick(self) -> Pick:
        """Where the player is in choosing a fight action (the panel's)."""
        return self.panel.pick

    def reset(self) -> None:
        """Back to the action list (an action was taken)."""
        self.panel.pick = Pick()

    @property
    def saying(self) -> bool:
        """Whether the player is saying what the acting character does (the panel's input is
        in front for it)."""
        return self.panel.saying and self.host.game.pending.kind == "fight"

    def draw(self) -> None:
        """The fight's prompt: a die to enter, a question, the referee's turn, or the
        player's."""
        box = self.host.prompt
        self.panel.show(FightView(self.mode(), box.menu_width()))
        box.show("fight")

    def mode(self) -> Mode:
        """What the fight waits for, with what the panel shows of it."""
        game = self.host.game
        kind, message = fight_prompt(game)
        need = game.fight_need
        if kind == "fight_die" and isinstance(need, DieNeed):
            return DieAsk(message, need.sides)
        if kind == "fight_choice" and isinstance(need, ChoiceNeed):
            return ChoiceAsk(message, need.choices, self._owed(need.actor))
        fight = game.fight
        acting = fight.encounter.acting if fight is not None else None
        if fight is None or acting is None:
            return NobodyActs(message)
        name = game.state.actors[acting].name
        if game.referee_turn:  # with a delayed hero who may act now (after this one acted)
            waiting = next((game.state.actors[a].name
                            for a in fight.delayed_by_player(game.state.actors)
                            if any(o.action == "step_in" and o.allowed
                                   for o in game.fight_options(a))), "")
            return RefereeTurn(fight_round(game), name, waiting)
        options = tuple(game.fight_options())
        pick = self.pick
        chosen = next((o for o in options if o.key == pick.key), None)
        odds: FightTarget | None = None
        if pick.stage == "maneuver" and any(pick.maneuvers.values()) and chosen is not None \
                and chosen.attack is not None and pick.target is not None:
            try:  # a maneuver past its limits: the plain odds (acting then says why)
                odds = game.fight_odds(chosen.attack.id, pick.target, pick.maneuvers)
            except EngineError:
                odds = None
        items: tuple[str, ...] = ()
        if pick.stage == "needs" and chosen is not None and not chosen.choices:
            who = pick.target or acting
            items = tuple(dict.fromkeys(o.attack.name for o in game.fight_options(who)
                                        if o.attack is not None))
        return PlayerTurn(round=fight_round(game), name=name,
                          budget=budget_words(fight.encounter.budget), options=options,
                          words=fight_words(game), hand_back=acting not in game.state.party,
                          odds=odds, items=items)

    def refit(self) -> None:
        """Draw the fight's menu again for the width it has now, keeping the highlight."""
        if self.host.game.pending.kind not in ("fight", "fight_choice") \
                or self.pick.stage == "say":
            return
        menu = self.panel.menu
        keep = menu.highlighted
        self.host.redraw_prompt()
        if keep is not None and keep < menu.option_count:
            menu.highlighted = keep

    def _owed(self, actor: str) -> int:
        """The panels ``actor`` owes now (the tracker's arrears; 0 in a game without)."""
        try:
            rows = self.host.game.tracker()
        except EngineError:
            return 0
        row = next((r for r in rows if r.actor == actor), None)
        return row.columns.arrears if row is not None and isinstance(row.columns,
                                                                     PanelColumns) else 0
