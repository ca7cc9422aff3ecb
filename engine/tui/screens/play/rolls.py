"""The roll panel's commands: roll (the campaign's dice, or the player's own typed in), take
what the rules offer before the roll, choose the stat, declare, set the roll's values, toggle
advantage."""

from __future__ import annotations

from rich.text import Text

from engine.dice import parse_faces
from engine.errors import EngineError
from engine.prompts import RollPrompt
from engine.rules.base import Option
from engine.tui.messages import RollKind
from engine.tui.screens.dialogs import ChoiceDialog, DiceDialog
from engine.tui.screens.gm_dialogs import RollDiceDialog
from engine.tui.screens.play.host import PlayHost
from engine.tui.text import ACCENT, FG, odds_text


def stat_detail(label: str, value: int) -> str:
    """What a stat adds to the roll: "+1", or "+7 (Strength 25)" when the ruleset adds a
    modifier of the stat's value (the panels game's skill modifier)."""
    extra = label.partition(" ")[2]
    return f"{value:+d}" + (f" ({label})" if extra else "")


class Rolls:
    """Answers the roll panel (see RollPanel) for the roll the flow waits for."""

    def __init__(self, host: PlayHost) -> None:
        self.host = host

    def command(self, kind: RollKind) -> None:
        """Do what the roll panel asks: roll, pre_roll, stat, declare, params or advantage."""
        host = self.host
        game = host.game
        if game.flow.stage != "roll":
            return
        p = game.pending
        if not isinstance(p, RollPrompt):
            return
        if kind == "roll" and p.stat_choices and not game.flow.stat:
            host.notify("This move lets you choose the stat: pick it first.", timeout=3)
            kind = "stat"
        if kind == "roll":
            if p.physical:
                self.open_dice()
            elif p.entry == "mixed":
                self.open_dice(mixed=True)
            else:
                host.perform(game.roll)
        elif kind == "pre_roll":
            offered = p.pre_roll
            if len(offered) == 1:
                host.perform(game.pre_roll, offered[0].id)
            elif offered:
                options = [Option(o.id, o.label, o.detail) for o in offered]
                host.push_dialog(lambda: ChoiceDialog(
                    "Before the roll", "", options, 1, 1,
                    lambda ids: host.submit(game.pre_roll, ids[0])))
        elif kind == "stat":
            move = game.pack.moves[game.flow.move or ""]
            options = [Option(s, game.pack.stats[s].name if s in game.pack.stats else s,
                              stat_detail(*game.rules.stat_value(game.state, move, s)))
                       for s in p.stat_choices]
            host.push_dialog(lambda: ChoiceDialog(
                "Roll with which stat?", "", options, 1, 1,
                lambda ids: host.submit(game.set_roll_options, stat=ids[0])))
        elif kind == "declare":
            declared = set(game.flow.declared)
            declarable = {d.id: d for d in p.declarations}
            options = [Option(i, d.label, d.detail) for i, d in declarable.items()]
            move = game.pack.moves[game.flow.move or ""]
            options += [Option(i, f"{game.rules.declaration_name(game.state, move, i)}"
                               " (declared)")
                        for i in declared if i not in declarable]

            def declare(ids: list[str]) -> str | None:
                # all at once: a refused declaration changes nothing
                return host.act(game.set_declarations, ids)

            host.push_dialog(lambda: ChoiceDialog(
                "Declare before the roll", "Mark what you bring into play (space toggles).",
                options, 0, len(options), declare, preselect=sorted(declared),
                groups={d.id: d.group for d in p.declarations if d.group}))
        elif kind == "params":
            gm = game.pack.system.gm_title
            options = [Option(f"{prm.id}={v}", f"{prm.name}: {v}", prm.help)
                       for prm, _ in p.params for v in range(prm.min, prm.max + 1)]
            options.append(Option("gm", f"{gm}, you choose", f"the {gm} sets it (seeded)"))

            def set_params(ids: list[str]) -> str | None:
                if ids == ["gm"]:
                    return host.submit(game.gm_set_params)
                return host.submit(game.set_roll_options, params={
                    ids[0].split("=")[0]: int(ids[0].split("=")[1])})

            host.push_dialog(lambda: ChoiceDialog(
                "Set the roll", f"Pick the value (standing in for the {gm}).",
                options, 1, 1, set_params))
        elif kind == "advantage":
            cycle = {None: "advantage", "advantage": "disadvantage", "disadvantage": "none"}
            host.perform(game.set_roll_options, advantage=cycle.get(game.flow.advantage,
                                                                        "none"))

    def open_dice(self, mixed: bool = False) -> None:
        """Ask for the faces of the player's own dice (``mixed``: or roll them for me)."""
        host = self.host
        p = host.game.pending
        if not isinstance(p, RollPrompt) or p.preview is None:
            return
        pv = p.preview
        summary = Text(p.message, "bold " + ACCENT)
        summary.append(f"\nmodifier {pv.modifier:+d}: ", FG)
        summary.append_text(odds_text(pv.odds, pv.bands))

        def submit(text: str) -> str | None:
            if mixed and not text.strip():
                return host.submit(host.game.roll)
            try:
                faces = parse_faces(text)
            except EngineError as e:
                return e.message
            return host.submit(host.game.roll, faces)

        if mixed:
            host.push_dialog(lambda: RollDiceDialog("Your dice, or mine?", pv.dice, summary,
                                                    submit))
            return
        host.push_dialog(lambda: DiceDialog("Your dice", pv.dice, summary, submit))
