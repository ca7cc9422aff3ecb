"""The prompt of the moment: what ``game.pending`` waits for, drawn in the prompt box (the
fiction input, the suggested moves, a target, the roll, an adjustment, the fight's menu, or
the button that opens a choice)."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from engine.prompts import (
    AdjustPrompt,
    FictionPrompt,
    MovePrompt,
    Option,
    RollPrompt,
    TargetPrompt,
)
from engine.tui.screens.play.choices import Choices
from engine.tui.screens.play.fight_dialogs import FightDialogs
from engine.tui.screens.play.fight_menu import FIGHT_KINDS, FightMenu
from engine.tui.screens.play.host import PlayHost
from engine.tui.text import ACCENT, DIM, clip, plain_prompt
from engine.tui.widgets.action_menu import suggestion_prompt


def want(lo: int, hi: int) -> str:
    """How many to pick: "pick 2", "pick up to 3", "pick 1 to 3"."""
    if lo == hi:
        return f"pick {hi}"
    if lo == 0:
        return f"pick up to {hi}"
    return f"pick {lo} to {hi}"


class Prompter:
    """Draws the pending prompt; fits the move suggestions to the menu's width."""

    def __init__(self, host: PlayHost, fight: FightMenu, fight_dialogs: FightDialogs,
                 choices: Choices) -> None:
        self.host = host
        self.fight = fight
        self.fight_dialogs = fight_dialogs
        self.choices = choices
        self._fitted_width = 0
        """The width the move suggestions were last cut to fit."""

    def draw(self, open_dialogs: bool) -> None:
        """Draw what the engine waits for; ``open_dialogs``: also open the dialog it asks
        through (a choice, a fight's die)."""
        host = self.host
        game = host.game
        p = game.pending
        box = host.prompt
        if isinstance(p, FictionPrompt):
            who = f"{game.state.hero.name}: " if len(game.state.party) > 1 else ""
            head = Text(who + p.message, "bold " + ACCENT)
            if not game.state.scene.open:
                head.append("   The scene has ended: F6 frames the next one.", DIM)
            else:
                head.append("   Enter for moves · F2 all moves · ^G ask the"
                            f" {game.pack.system.gm_title}", DIM)
            box.set_title(head)
            # in a party the box says whose turn it is (and never a fight's words after one)
            box.fiction.placeholder = (f"Describe what {game.state.hero.name} does, then Enter"
                                       if who else "Describe what your hero does, then Enter")
            box.show("fiction")
        elif isinstance(p, MovePrompt):
            self._draw_moves(p)
        elif isinstance(p, TargetPrompt):
            head = Text(p.message, "bold " + ACCENT)
            head.append("   Esc: back", DIM)
            box.set_title(head)
            self.option_menu("target", p.options)
        elif isinstance(p, RollPrompt):
            box.set_title(Text("Ready to roll", "bold " + ACCENT))
            move = game.pack.moves[game.flow.move or ""]
            target = game.state.actors.get(game.flow.target or "")
            name = move.name + (f" → {target.name}" if target else "")
            stat = p.preview.stat if p.preview is not None else ""
            stat_name = game.pack.stats[stat].name if stat in game.pack.stats else stat
            if game.flow.advantage:
                name += f" (with {game.flow.advantage})"
            box.roll.show(name, p, stat_name)  # the stat the preview shows is the one rolled
            box.show("roll")
        elif isinstance(p, AdjustPrompt):
            head = Text(p.message, "bold " + ACCENT)
            head.append("  You may still change the result after seeing it.", DIM)
            box.set_title(head)
            self.option_menu("adjust", p.options)
        elif p.kind in FIGHT_KINDS:
            self.fight.draw()
            if p.kind == "fight_die" and open_dialogs:
                self.fight_dialogs.ask_die()
        else:
            head = Text(p.message or "Choose", "bold " + ACCENT)
            how_many = want(p.min, p.max)
            head.append(f"  ({how_many})", DIM)
            box.set_title(head)
            box.waiting.label = f"Choose ({how_many})… enter"
            box.show("waiting")
            if open_dialogs:
                self.choices.open()

    def _draw_moves(self, p: MovePrompt) -> None:
        """The suggested moves for the player's words (and the clearing actions they take)."""
        game = self.host.game
        box = self.host.prompt
        fiction = p.fiction
        sugs = p.suggestions
        if sugs and sugs[0].move is None:
            message = "That reads as plain fiction. Keep it, or pick a move:"
        elif any(s.move for s in sugs):
            message = p.message
        else:
            message = "No move matched that. Pick one, or keep it as fiction."
        width = self._fitted_width = box.menu_width()
        head = Text(message, "bold " + ACCENT)
        head.append("   Esc: back", DIM)
        # one line: the whole fiction is in the journal just above; the menu needs the room.
        # How the line was read comes first: it is what the suggestions rest on.
        head.append("\n")
        if p.reading is not None:
            said = "read as: " + p.reading.describe()
            head.append(clip(said, max(width - 2, 20)), DIM)
            room = width - 2 - len(said) - 3
            if room >= 12:
                head.append(f" · “{clip(fiction, room)}”", "italic " + DIM)
        else:
            head.append(f"“{clip(fiction, max(width - 2, 20))}”", "italic " + DIM)
        box.set_title(head)
        entries: list[tuple[str, Text | str]] = []
        for s in sugs:
            key = f"move:{s.move or ''}"  # "move:" is "No move, just fiction"
            if key not in (k for k, _ in entries):
                entries.append((key, suggestion_prompt(game.pack, len(entries) + 1, s,
                                                       width)))
        for name in p.newcomers:
            entries.append((f"newcomer:{name}", plain_prompt(
                f"＋ Add {name} to the cast", "new to the story", "")))
        for hint in p.clearing:
            said = ", ".join(f"“{w}”" for w in hint.said)
            entries.append((f"clear:{hint.condition}", plain_prompt(
                f"✚ That clears {hint.name}",
                f"its clearing action (it clears at the scene's end); you said {said}", "")))
        if entries:
            entries.append(("-", ""))
        entries += [("all", plain_prompt("☰ All moves…", "the full list", "m")),
                    ("none", plain_prompt("✎ No move, just fiction", "", "n"))]
        box.show_menu(entries, {f"move:{x.move}" for x in sugs if x.move and x.blocked})

    def option_menu(self, kind: str, options: Sequence[Option]) -> None:
        """Show ``options`` in the inline menu; options that can do nothing are dimmed with
        their reason and cannot be picked."""
        self.host.prompt.show_menu(
            [(f"{kind}:{o.id}", plain_prompt(o.label, o.detail, disabled=o.disabled))
             for o in options],
            disabled={f"{kind}:{o.id}" for o in options if o.disabled})

    def resized(self) -> None:
        """The menu changed width (the sheet shown or hidden): fit the move suggestions (or
        the fight's menu) to it again, keeping the entry that was highlighted."""
        host = self.host
        if host.game.pending.kind in ("fight", "fight_choice"):
            self.fight.refit()
            return
        if host.game.flow.stage != "move" or host.prompt.menu_width() == self._fitted_width:
            return
        menu = host.prompt.menu
        keep = menu.highlighted
        self.draw(open_dialogs=False)
        if keep is not None and keep < menu.option_count:
            menu.highlighted = keep
