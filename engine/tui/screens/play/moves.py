"""The move flow out of a fight: the player's fiction, the moves it suggests (or the full move
list), the move's target, adjusting its result, and Esc stepping back out of it."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Input

from engine.prompts import MovePrompt
from engine.rules.base import Option
from engine.tui.messages import MenuKind
from engine.tui.screens.dialogs import ChoiceDialog, MoveEntry, MovesDialog
from engine.tui.screens.play.host import PlayHost
from engine.tui.text import ACCENT, DIM, odds_text

NOBODY = "__nobody__"
"""The option id for 'no one in particular' when a target is optional."""
SOMEONE_NEW = "__new__"
"""The option id for the person a move that meets someone new would meet (they join the
story as it starts)."""


class Moves:
    """Turns the fiction input and the menu's move entries into Game actions."""

    def __init__(self, host: PlayHost) -> None:
        self.host = host

    def describe(self, event: Input.Submitted) -> None:
        """The player said what the hero does: suggest moves (plain fiction is kept with this
        one Enter when nothing matched)."""
        host = self.host
        text = event.value.strip()
        if not text:
            host.notify("Describe what your hero does first (or F2 for the move list).",
                        severity="warning")
            return
        if host.perform(host.game.describe, text):
            event.input.value = ""
            # nothing matched: it is plain fiction, one Enter (F2 still lists every move)
            pending = host.game.pending
            if (isinstance(pending, MovePrompt)
                    and not any(s.move for s in pending.suggestions)
                    and host.perform(host.game.choose_move, None)):
                host.notify("No move matched: kept as fiction. F2 lists every move.",
                            timeout=4)

    def picked(self, kind: MenuKind, value: str) -> None:
        """A menu entry of the move flow was chosen: its kind and value."""
        host = self.host
        if kind == "move" and not value:  # the "No move, just fiction" suggestion
            host.perform(host.game.choose_move, None)
        elif kind == "move":
            pending = host.game.pending
            sug = next((s for s in pending.suggestions if s.move == value), None) \
                if isinstance(pending, MovePrompt) else None
            self.use_move(value, sug.target if sug is not None else None)
        elif kind == "all":
            self.show_all()
        elif kind == "none":
            host.perform(host.game.choose_move, None)
        elif kind == "target":
            host.perform(host.game.choose_target, value)
        elif kind == "clear":  # noted after the fiction; the moves stay on offer
            host.perform(host.game.took_clearing_action, value)
        elif kind == "newcomer":
            host.add_npc(value)
        elif kind == "adjust":
            host.perform(host.game.adjust, value)
        elif kind == "back":
            self.go_back()

    def go_back(self) -> None:
        """Esc on the inline menu: step back out of choosing a move or its target (an undo of
        the step that led here; the fiction comes back into the input to edit)."""
        host = self.host
        game = host.game
        stage = game.flow.stage
        if stage not in ("move", "target"):
            return
        events = host.events
        last = events[-1] if events else {}
        if last.get("type") != "FlowChanged" or last["flow"].get("stage") != stage:
            return  # something else happened since (an oracle question): not ours to undo
        step = [e for e in events if e.get("a") == last.get("a")]
        if any(e["type"] not in ("ActionStarted", "FlowChanged", "Narrated", "HeroSwitched")
               or (e["type"] == "Narrated" and e.get("by") != "player") for e in step):
            # this prompt came out of a roll or a choice (a move triggering another): Esc must
            # not take that back; ^Z still can
            host.notify("This comes from what just happened: pick one (^Z undoes it all).",
                        severity="warning", timeout=4)
            return
        fiction = game.flow.fiction
        error = host.act(game.undo)
        if error:
            host.notify(error, title="Not now", severity="error", timeout=6)
            return
        if game.flow.stage == "fiction":
            box = host.prompt.fiction
            if fiction and not box.value:
                box.value = fiction
                box.cursor_position = len(fiction)
            host.notify("Back to your fiction: edit it, or Enter again.", timeout=3)
        else:
            host.notify("Back: pick another move.", timeout=3)

    def use_move(self, move_id: str, target_hint: str | None = None) -> None:
        """Use a move now: from the suggestions, the move list or the command palette. The
        target the fiction names (``target_hint``, a suggestion's, else found in the fiction)
        comes first (highlighted) when the move's target is optional."""
        host = self.host
        game = host.game
        stage = game.flow.stage
        if stage not in ("fiction", "move"):
            host.notify("Finish what is pending first (or ^Z to undo it).", severity="warning")
            return
        move = game.pack.moves.get(move_id)
        if move is None:
            return
        why = game.move_available(move)
        if why:
            host.notify(why, title="Not now", severity="error")
            return
        targets = game.targets_for(move) if move.target == "optional" else []
        if target_hint is None and stage == "move":  # from the full list: who the fiction names
            target_hint = game.named_target(move_id)
        fiction = game.flow.fiction if stage == "move" else host.prompt.fiction.value
        new = game.moves.meeting(move, fiction)
        if targets:
            options = [Option(NOBODY, "No one in particular"), *targets]
            if new:  # a move that meets someone new: the one the fiction names, first
                options.insert(0, Option(SOMEONE_NEW, new, "someone new: joins the story as a"
                                         f" {move.meets}"))
            first = SOMEONE_NEW if new else target_hint
            named = [o for o in options if first and o.id == first]
            options = named + [o for o in options if o not in named]
            nobody = "none" if move.meets else None  # no one at all: no one met either
            host.push_dialog(lambda: ChoiceDialog(
                move.name, "Is someone in particular the target?", options, 1, 1,
                lambda ids: self.start_move(move_id, nobody if ids[0] == NOBODY
                                            else None if ids[0] == SOMEONE_NEW else ids[0])))
            return
        error = self.start_move(move_id, None)
        if error:
            host.notify(error, title="Not now", severity="error", timeout=6)

    def start_move(self, move_id: str, target: str | None) -> str | None:
        """Take the move on ``target``: the move the fiction suggested, or one triggered
        with the fiction in the input; the error text, or None."""
        host = self.host
        if host.game.flow.stage == "move":
            return host.submit(host.game.choose_move, move_id, target)
        fiction = host.prompt.fiction
        error = host.submit(host.game.trigger, move_id, target, fiction.value)
        if error is None:
            fiction.value = ""
        return error

    def side_unsaid(self) -> bool:
        """Whether the move about to be rolled targets a teammate the fiction neither
        protects nor stands against, and nothing is declared (the app asks which)."""
        game = self.host.game
        move = game.pack.moves.get(game.flow.move or "")
        return (game.flow.stage == "roll" and move is not None
                and bool(game.rules.protect_teammate(game.state, move))
                and game.rules.teammate_side(game.state, move) is None)

    def ask_side(self) -> None:
        """Ask whether the hero protects the teammate they target or stands against them
        (protecting first: the default, which Esc keeps)."""
        game = self.host.game
        move = game.pack.moves.get(game.flow.move or "")
        if not self.side_unsaid() or move is None:
            return
        sides = game.rules.protect_teammate(game.state, move)
        options = [Option(d.id, d.label, d.detail) for d in sides]
        self.host.push_dialog(lambda: ChoiceDialog(
            move.name, "Your fiction does not say: whose side are you on?", options, 1, 1,
            lambda ids: self.host.act(game.declare, ids[0]), cancel_label="Protect"))

    def move_entries(self) -> list[MoveEntry]:
        """Every move the player could pick, for the move list: id, prompt, enabled, name (a
        match there ranks first) and the text the filter searches."""
        game = self.host.game
        out = []
        for move in game.pack.moves.values():
            if move.hidden:
                continue
            why = game.move_available(move)
            prompt = Text(move.name, ("bold " + ACCENT) if not why else DIM)
            prompt.append(f"  {move.category}", DIM)
            if why:
                prompt.append(f"\n{why}", DIM)
            else:
                if move.roll is not None and move.roll.stat != "choice":
                    pv = game.preview(move.id)
                    prompt.append("\n")
                    prompt.append_text(odds_text(pv.odds, pv.bands))
                elif move.roll is None:
                    prompt.append("\nno roll", DIM)
                prompt.append(f"\n{move.trigger}", DIM)
            search = f"{move.name} {move.category} {move.trigger} {' '.join(move.cues)}".lower()
            out.append(MoveEntry(move.id, prompt, why is None, move.name, search))
        return out

    def show_all(self) -> None:
        """Open the full move list."""
        host = self.host
        if host.game.flow.stage not in ("fiction", "move"):
            host.notify("Finish what is pending first (or ^Z to undo it).", severity="warning")
            return

        def pick(move_id: str) -> str | None:
            host.call_after_refresh(self.use_move, move_id)
            return None

        host.push_dialog(lambda: MovesDialog(self.move_entries(), pick))
