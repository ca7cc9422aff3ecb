"""The choice dialog: a pending choice the prompt box does not answer in place (choose N, pick
one, questions, an answer the GM offers, a list a ruleset names), shown with what led to it."""

from __future__ import annotations

from typing import Any

from rich.text import Text

from engine.journal import result_label
from engine.prompts import AnswerPrompt, ChoicePrompt
from engine.tui.screens.answer import OWN, AnswerDialog
from engine.tui.screens.dialogs import ChoiceDialog, Dialog
from engine.tui.screens.play.host import PlayHost
from engine.tui.text import FG, PRIMARY, TONES, band_tones

FLOW_KINDS = ("fiction", "move", "target", "roll", "adjust", "fight", "fight_die",
              "fight_choice")
"""Prompts the play screen answers in place; any other kind (choose, pick, questions, or one a
ruleset names, such as Masks's battle) is a choice from a list, in a dialog."""


class Choices:
    """Opens the dialog for the pending choice and hands its answer to the game."""

    def __init__(self, host: PlayHost) -> None:
        self.host = host

    def open(self) -> None:
        """Open the dialog for the pending choice (choose N, pick one, questions, battle)."""
        self.host.push_dialog(self._dialog)

    def _answer(self, value: Any) -> str | None:
        """The answer dialog's choice: accept, another, or (OWN, your words)."""
        if isinstance(value, tuple) and value[0] == OWN:
            return self.host.submit(self.host.game.answer_text, str(value[1]))
        return self.host.submit(self.host.game.choose, [str(value)])

    def _dialog(self) -> Dialog | None:
        game = self.host.game
        p = game.pending
        if not isinstance(p, ChoicePrompt | AnswerPrompt):
            return None
        ctx = self.context()
        # the core says which roll this choice follows, as it stands after any adjustment
        if p.roll:
            ctx["rolled"] = p.roll
        if p.gm is not None:
            ctx["gm"] = {"name": p.gm.name, "text": p.gm.text}
        gm = ctx.get("gm")
        if gm is not None:
            title = f"{game.pack.system.gm_title}: {gm['name']}"
        else:
            move = game.pack.moves.get(game.flow.move or "")
            title = move.name if move else ctx["move"]["name"] if "move" in ctx else "Choose"
        title = p.title or ("Questions to ask" if p.kind == "questions" else title)
        message = self._recent_outcome(ctx)
        if isinstance(p, AnswerPrompt):  # the GM offers an answer to an asked question
            return AnswerDialog(title, p.message, p.options, self._answer, before=message)
        message.append(p.message, "bold " + FG)
        return ChoiceDialog(title, message, p.options, p.min, p.max,
                            lambda ids: self.host.submit(self.host.game.choose, ids))

    def context(self) -> dict[str, Any]:
        """What led to the pending choice: the move in hand (its trigger and its outcome) and
        a GM move made since, if any. The roll comes from the core (``Prompt.context``).

        Only the move the flow is resolving counts; a choice outside a move (a GM move asked
        for with ^G, the end of a scene) looks only at the last action's events.
        """
        flow = self.host.game.flow
        events = self.host.events
        out: dict[str, Any] = {}
        last_action = events[-1].get("a") if events else None
        for e in reversed(events):
            t = e.get("type")
            if not flow.move and e.get("a") != last_action:
                break
            if t == "GMMoveMade" and "gm" not in out and "outcome" not in out:
                out["gm"] = e
            elif t == "OutcomeReached" and "outcome" not in out:
                out["outcome"] = e
            elif t == "MoveTriggered" and (not flow.move or e.get("move") == flow.move):
                out["move"] = e
                break
        return out

    def _recent_outcome(self, ctx: dict[str, Any]) -> Text:
        """The roll's result as it stands now (after Team, a tier bump...), the outcome text of
        the move in hand and what the GM said, for context above a choice."""
        pack = self.host.game.pack
        out = Text()
        now = ctx.get("rolled")
        if now is not None:
            tone = band_tones(pack, now["move"], now).get(now["band"], "mixed")
            out.append(f" {result_label(now['band_name'], now['total'])} ",
                       f"bold #1a1b26 on {TONES[tone]}")
            out.append(" ")
        outcome = ctx.get("outcome")
        if outcome is not None:
            out.append(outcome["text"], FG)
        gm = ctx.get("gm")
        if gm is not None:
            if out:
                out.append("\n\n")
            out.append(f"◆ {pack.system.gm_title} — {gm['name']}: ", "bold " + PRIMARY)
            out.append(gm["text"], FG)
        if out:
            out.append("\n\n")
        return out
