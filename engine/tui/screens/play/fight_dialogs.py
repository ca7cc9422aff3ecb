"""The dialogs a fight asks through: who to fight and who is surprised, calling a fight off,
and the player's own dice (initiative, a side's d6, a die the fight waits for)."""

from __future__ import annotations

from rich.text import Text

from engine.dice import parse_faces
from engine.errors import EngineError
from engine.rules.fight.values import DieNeed, FoeOption
from engine.tui.fight_view import side_dice
from engine.tui.screens.dialogs import ChoiceDialog, ConfirmDialog, Dialog, DiceDialog, DieDialog
from engine.tui.screens.play.host import PlayHost
from engine.tui.text import ACCENT, DIM, FG


class FightDialogs:
    """Starts and calls off fights, and asks for the dice a fight needs."""

    def __init__(self, host: PlayHost) -> None:
        self.host = host

    def start_or_end(self) -> None:
        """Start a fight: pick the foes, then who (if anyone) is surprised. In a fight: call
        it off."""
        host = self.host
        game = host.game
        if game.fighting:
            def answer(yes: bool | None) -> None:
                if yes:
                    host.perform(game.end_fight)

            host.push_dialog(lambda: ConfirmDialog(
                "Call off the fight", "End the fight now (the story moves on)? ^Z undoes it."),
                answer)
            return
        if game.flow.stage != "fiction":
            host.notify("Finish what is pending before a fight.", severity="warning")
            return
        request = game.fight_request
        if request is not None:  # a move started it: only the dice are missing
            self.ask_initiative(list(request.foes), list(request.surprised))
            return
        foes = self.foe_options()
        options = [{"id": f.id, "label": f.label, "detail": f.detail} for f in foes]
        if not options:
            host.notify("Nobody to fight: the pack has no foes and no NPC is here.",
                        severity="warning")
            return

        def picked(ids: list[str]) -> str | None:
            if not side_dice(game):
                host.call_after_refresh(self._ask_surprise, ids)
            elif game.state.dice_mode == "physical":  # no surprise round: the side d6s
                host.call_after_refresh(self.ask_initiative, ids, [])
            else:
                return host.submit(game.start_fight, ids, [])
            return None

        host.push_dialog(lambda: ChoiceDialog(
            "Fight!", "Who do you fight? (Space marks each, Enter goes on)", options, 1,
            len(options), picked, cancel_label="Cancel"))

    def _ask_surprise(self, foes: list[str]) -> None:
        host = self.host
        game = host.game
        options = [{"id": "none", "label": "Nobody is surprised", "detail": ""},
                   {"id": "heroes", "label": "The heroes are caught by surprise",
                    "detail": "the foes get a surprise round"},
                   {"id": "villains", "label": "The foes are caught by surprise",
                    "detail": "the heroes get a surprise round"}]

        def start(ids: list[str]) -> str | None:
            surprised = [] if ids[0] == "none" else [ids[0]]
            if game.state.dice_mode == "physical":
                host.call_after_refresh(self.ask_initiative, foes, surprised)
                return None
            return host.submit(game.start_fight, foes, surprised)

        host.push_dialog(lambda: ChoiceDialog(
            "Surprise?", "Is anyone caught off guard?", options, 1, 1, start,
            cancel_label="Cancel"))

    def ask_initiative(self, foes: list[str], surprised: list[str]) -> None:
        """Your own dice: a d20 of initiative for each hero, then each foe (a minion group
        rolls once), in the order of the list."""
        host = self.host
        game = host.game
        if side_dice(game):
            self._ask_side_dice(foes)
            return
        labels = {f.id: f.label + (" (one roll for the group)" if f.group else "")
                  for f in self.foe_options()}
        order = [game.state.actors[h].name for h in game.state.party
                 if h in game.state.actors] + [labels.get(f, f) for f in foes]
        summary = Text("Initiative: a d20 each, typed in this order: ", FG)
        summary.append(", ".join(order), "bold " + FG)

        def submit(text: str) -> str | None:
            try:
                faces = parse_faces(text)
            except EngineError as e:
                return e.message
            return host.submit(game.start_fight, foes, surprised, faces)

        host.push_dialog(lambda: DiceDialog("Initiative", "d20s", summary, submit))

    def _ask_side_dice(self, foes: list[str]) -> None:
        """Your own dice, side initiative: one d6 for the heroes, then one for the foes."""
        host = self.host
        game = host.game
        summary = Text("Initiative: one d6 per side, typed in this order: ", FG)
        summary.append("the heroes, then the foes", "bold " + FG)
        summary.append(". The higher side acts first; both get the difference in panels"
                       " (a tie: 2 each, in one Agility order).", DIM)

        def submit(text: str) -> str | None:
            try:
                faces = parse_faces(text)
            except EngineError as e:
                return e.message
            if len(faces) != 2:
                return "Type two numbers: the heroes' d6, then the foes'."
            return host.submit(game.start_fight, foes, [], faces)

        host.push_dialog(lambda: DiceDialog("Initiative", "two d6", summary, submit))

    def foe_options(self) -> list[FoeOption]:
        """Foes to pick from: the NPCs here who can fight, and the pack's villains and minion
        groups not yet in play (the engine's list)."""
        try:
            return self.host.game.foe_options()
        except EngineError as e:
            self.host.notify(e.message, title="The pack's characters", severity="error")
            return []

    def ask_die(self) -> None:
        """Ask for the physical die the fight waits for."""
        host = self.host

        def make() -> Dialog | None:
            game = host.game
            need = game.fight_need
            if not isinstance(need, DieNeed):
                return None
            summary = Text(game.pending.message, "bold " + ACCENT)
            if need.side:
                summary.append(f"\nThe {need.side}' d6 for the new round: the higher side acts"
                               " first, both get the difference in panels (a tie: 2 each).", DIM)

            def submit(text: str) -> str | None:
                try:
                    faces = parse_faces(text)
                except EngineError as e:
                    return e.message
                if len(faces) != 1:
                    return "Type one number: the face the die shows."
                return host.submit(host.game.fight_die, faces[0])

            return DieDialog("Your die", f"a d{need.sides}", summary, submit)

        host.push_dialog(make)
