"""The fight's menu in the prompt box: a die to enter, a question a fight step asks, the
referee's turn, or the player's: the actions (with the best target's odds), then the target,
what the action needs named, the maneuvers, or the actions what the player said matches.

``FightMenu.pick`` is where the player is in choosing an action; FightTurn moves it on."""

from __future__ import annotations

from typing import Any

from rich.text import Text

from engine.errors import EngineError
from engine.tui.fight_view import (
    ICONS,
    MANEUVERS,
    action_name,
    action_summary,
    best_target,
    budget_words,
    choice_entry,
    cost_words,
    fight_round,
    fight_words,
    odds_line,
    option_key,
    why_not,
)
from engine.tui.screens.play.host import PlayHost
from engine.tui.text import ACCENT, DIM, FG, MIXED, clip
from engine.tui.widgets.action_menu import plain_prompt

FIGHT_KINDS = ("fight", "fight_die", "fight_choice")
"""The prompts of a fight, drawn by FightMenu."""

Entries = list[tuple[str, Text | str]]
"""Action-menu entries: (kind:value id, prompt)."""


class FightMenu:
    """Draws the fight's prompt from the game and ``pick``."""

    def __init__(self, host: PlayHost) -> None:
        self.host = host
        self.pick: dict[str, Any] = {}
        """Where the player is in choosing a fight action: {} (the action list), or the
        option chosen, its target and maneuvers, or the actions that match their words."""

    @property
    def saying(self) -> bool:
        """Whether the player is saying what the acting character does (the fiction input is
        in front for it)."""
        return self.pick.get("stage") == "say" and self.host.game.pending.kind == "fight"

    def draw(self) -> None:
        """The fight's prompt: a die to enter, the referee's turn, or the player's."""
        game = self.host.game
        p = game.pending
        box = self.host.prompt
        if p.kind == "fight_die":
            self.pick = {}
            need = p.context.get("need") or {}
            box.set_title(Text(p.message, "bold " + ACCENT))
            box.show_menu([("fdie", plain_prompt(
                f"🎲 Enter the d{need.get('sides', 20)} you rolled…", "", "enter"))])
            return
        if p.kind == "fight_choice":  # the step asks the player (a response to a hit...)
            self.pick = {}
            width = box.menu_width()
            owed = self._owed((p.context.get("need") or {}).get("actor"))
            more = f"  owes {owed}" if owed else ""
            # one line: the hit is in the journal just above, the answers need the room
            head = Text(clip(p.message, max(width - len(more), 20)), "bold " + ACCENT)
            head.append(more, MIXED)
            box.set_title(head)
            box.show_menu([("fchoice:" + o["id"], choice_entry(
                i + 1, str(o["label"]), str(o.get("detail") or ""), width))
                for i, o in enumerate(p.options)])
            return
        acting = p.context.get("acting")
        if acting is None:
            box.set_title(Text(p.message, "bold " + ACCENT))
            box.show_menu([("fend", plain_prompt("End the fight", "", "F8"))])
            return
        name = game.state.actors[acting].name
        if game.referee_turn:
            self.pick = {}
            box.set_title(Text(f"{fight_round(game)}: {name}'s turn (referee)",
                               "bold " + ACCENT))
            box.show_menu([
                ("step", plain_prompt("▸ Next step", "", "enter")),
                ("run", plain_prompt("⏩ Run until your turn", "", "r")),
                ("take", plain_prompt(f"✋ Take over {name}", "", "t")),
            ])
            return
        stage = self.pick.get("stage")
        if stage == "say":
            head = Text(f"Say what {name} does", "bold " + ACCENT)
            head.append("   Enter: the actions it matches · Esc: back", DIM)
            box.set_title(head)
            box.fiction.placeholder = f"What does {name} do in the fight? Then Enter"
            box.show("fiction")
            return
        options = game.fight_options()
        width = box.menu_width()
        budget = p.context.get("budget") or {}
        if stage == "target":
            self._draw_targets(name, options, width)
        elif stage == "needs":
            self._draw_needs(name, options)
        elif stage == "maneuver":
            self._draw_maneuvers(name, options, width)
        else:
            head = Text(f"{fight_round(game)}: {name}'s turn", "bold " + ACCENT)
            head.append(f" · {budget_words(budget)} left", DIM)
            if stage == "said":
                head = Text("That reads like:", "bold " + ACCENT)
                head.append("   Esc: all actions", DIM)
                head.append(f"\n“{clip(str(self.pick.get('text', '')), max(width - 2, 20))}”",
                            "italic " + DIM)
            box.set_title(head)
            self._draw_actions(name, options, budget, width)
        box.show("menu")

    def refit(self) -> None:
        """Draw the fight's menu again for the width it has now, keeping the highlight."""
        if self.host.game.pending.kind not in ("fight", "fight_choice") \
                or self.pick.get("stage") == "say":
            return
        menu = self.host.prompt.menu
        keep = menu.highlighted
        self.host.redraw_prompt()
        if keep is not None and keep < menu.option_count:
            menu.highlighted = keep

    def _draw_actions(self, name: str, options: list[dict[str, Any]],
                      budget: dict[str, int], width: int) -> None:
        """The acting character's actions: attacks with the best target's odds first, the
        rest with their summary; those not allowed now dimmed with the reason."""
        words = fight_words(self.host.game)
        said = self.pick.get("stage") == "said"
        if said:
            self._draw_said(name, options, width)
            return
        shown = sorted(options, key=lambda o: bool(why_not(o, budget)))  # possible ones first
        entries: Entries = []
        disabled: set[str] = set()
        for o in shown:
            key = f"fight:{option_key(o)}"
            number = Text(f"{len(entries) + 1}. " if len(entries) < 9 else "   ", DIM)
            reason = why_not(o, budget)
            if o.get("attack"):
                line = number + Text(f"{ICONS.get(o['action'], '⚔')} ", ACCENT)
                label = o["attack_name"]
                if o["action"] != "attack":
                    label = f"{action_name(words, o['action'])}: {label}"
                line.append(label, DIM if reason else "bold " + ACCENT)
                best = best_target(o)
                if reason:
                    line.append(f"  ✗ {reason}", "italic " + DIM)
                elif best is not None:
                    line.append(f" → {best['name']}", FG)
                    line.append("\n   ")
                    if cost_words(o):
                        line.append(f"{cost_words(o)} · ", DIM)
                    line.append_text(odds_line(o, best, self.minion(best["id"]), short=True))
                else:
                    line.append("  ✗ no one in reach", "italic " + DIM)
                    reason = "no one in reach"
            else:
                summary = action_summary(words, o["action"]) or str(o.get("cost", ""))
                if cost_words(o):
                    summary = f"{cost_words(o)} · {summary}"
                line = number + plain_prompt(action_name(words, o["action"]), summary,
                                             disabled=reason)
            line.truncate(width * 2, overflow="ellipsis")
            if "\n" not in line.plain:
                line.truncate(width, overflow="ellipsis")
            if reason and not disabled and not said:  # the turn's own entries before these
                entries += self._turn_entries(name, said, more=True)
            entries.append((key, line))
            if reason:
                disabled.add(key)
        if not disabled or said:
            entries += self._turn_entries(name, said)
        self.host.prompt.menu.set_entries(entries, disabled)

    def _turn_entries(self, name: str, said: bool, more: bool = False) -> Entries:
        """Below the actions: say what you do (or, after saying it, make it a move), end
        the turn; for a character taken over from the referee, hand it back."""
        out: Entries = [("-", "")]
        if said:
            out.append(("none", plain_prompt(
                "✎ Not a fight action: a move", "", "n")))
            out.append(("fback", plain_prompt("← Every action", "", "esc")))
        else:
            out.append(("say", plain_prompt(f"✎ Say what {name} does…", "", "d")))
        out.append(("end", plain_prompt("⏹ End turn", "", "e")))
        game = self.host.game
        fight = game.fight
        acting = fight.encounter.acting if fight is not None else None
        if acting and acting not in game.state.party:
            out.append(("handback", plain_prompt(f"↩ Hand {name} back to the referee")))
        if more:
            out.append(("-", ""))
        return out

    def _owed(self, actor: object) -> int:
        """The panels ``actor`` owes now (the tracker's arrears; 0 in a game without)."""
        try:
            rows = self.host.game.tracker()
        except EngineError:
            return 0
        row = next((r for r in rows if r.get("actor") == actor), {})
        return int(row.get("arrears") or 0)

    def minion(self, actor: str) -> bool:
        """Whether ``actor`` is a minion (any failure to resist takes it out)."""
        who = self.host.game.state.actors.get(actor)
        return who is not None and who.role == "minion"

    def _draw_targets(self, name: str, options: list[dict[str, Any]], width: int) -> None:
        """Who to target with the chosen option; for an attack, each with the exact odds."""
        o = next((x for x in options if option_key(x) == self.pick.get("key")), None)
        if o is None:
            self.pick = {}
            self._draw_actions(name, options, {}, width)
            return
        words = fight_words(self.host.game)
        what = o.get("attack_name") or action_name(words, o["action"])
        head = Text(f"{name}: {what} — at whom?", "bold " + ACCENT)
        if head.cell_len + 12 <= width:
            head.append("   Esc: back", DIM)
        self.host.prompt.set_title(head)
        entries: Entries = []
        for t in o.get("targets") or []:
            line = Text(f"{len(entries) + 1}. " if len(entries) < 9 else "   ", DIM)
            line.append(str(t["name"]), "bold " + FG)
            if o.get("attack"):
                line.append("\n   ")
                line.append_text(odds_line(o, t, self.minion(t["id"]), width=width))
            entries.append((f"ftarget:{t['id']}", line))
        self.host.prompt.menu.set_entries(entries)

    def _draw_needs(self, name: str, options: list[dict[str, Any]]) -> None:
        """What an action needs named: the engine's ``choices`` when the option lists them
        (the panels game's power to use, item to pick up or drop), else the item to disarm,
        smash or drop (the holder's attacks), or the action to ready."""
        game = self.host.game
        box = self.host.prompt
        o = next((x for x in options if option_key(x) == self.pick.get("key")), None)
        if o is None:
            self.pick = {}
            return
        what = str(o.get("needs") or "item")
        words = fight_words(game)
        entries: Entries = []
        if o.get("choices") is not None:  # the engine lists what may be named
            head = Text(f"{name}: {action_name(words, o['action'])} — which {what}?",
                        "bold " + ACCENT)
            entries = [(f"fneed:{c['id']}", plain_prompt(str(c["name"]),
                                                        str(c.get("detail") or "")))
                       for c in o["choices"]]
        elif what == "item":
            who = str(self.pick.get("target") or (game.fight.encounter.acting
                                                  if game.fight else "") or "")
            names = list(dict.fromkeys(str(x["attack_name"]) for x in game.fight_options(who)
                                       if x.get("attack_name")))
            head = Text(f"{name}: {action_name(words, o['action'])} — which item?",
                        "bold " + ACCENT)
            entries = [(f"fneed:{n}", plain_prompt(n)) for n in names]
        else:
            head = Text(f"{name}: ready which action?", "bold " + ACCENT)
            acts = dict.fromkeys(str(x["action"]) for x in options
                                 if x["action"] not in ("ready", "delay", "surrender"))
            entries = [(f"fneed:{a}", plain_prompt(action_name(words, a),
                                                   action_summary(words, a)))
                       for a in acts]
        head.append("   Esc: back", DIM)
        box.set_title(head)
        if not entries:
            entries = [("fback", plain_prompt("Nothing to name: back", "", "esc"))]
        for i, (k, line) in enumerate(entries):
            if isinstance(line, Text):
                line.truncate(box.menu_width(), overflow="ellipsis")
                entries[i] = (k, Text(f"{i + 1}. ", DIM) + line if i < 9 else line)
        box.menu.set_entries(entries)

    def _draw_maneuvers(self, name: str, options: list[dict[str, Any]], width: int) -> None:
        """The chosen attack on its target, ready to go: Enter attacks; the maneuvers below
        change the trade (Enter on one steps it) and the odds shown follow them."""
        o = next((x for x in options if option_key(x) == self.pick.get("key")), None)
        target = self.pick.get("target")
        t = next((x for x in (o or {}).get("targets") or [] if x["id"] == target), None)
        if o is None or t is None:
            self.pick = {}
            self._draw_actions(name, options, {}, width)
            return
        words = fight_words(self.host.game)
        man: dict[str, int] = self.pick.setdefault("man", {})
        opt: dict[str, bool] = self.pick.setdefault("opt", {})
        head = Text(f"{name}: {o['attack_name']} → {t['name']}", "bold " + ACCENT)
        if head.cell_len + 12 <= width:
            head.append("   Esc: back", DIM)
        self.host.prompt.set_title(head)
        odds = self._odds_with(o, t, man)
        go = Text(f"{ICONS.get(o['action'], '⚔')} Go: ", "bold " + ACCENT)
        go.append(action_name(words, o["action"]), "bold " + ACCENT)
        go.append("  [enter]\n   ", DIM)
        go.append_text(odds_line(o, odds, self.minion(t["id"]), width=width))
        entries: Entries = [("fgo", go), ("-", "")]
        rolled = o.get("range") in ("close", "ranged")
        for m in MANEUVERS:
            if not rolled and m in ("accurate", "all_out"):
                continue
            n = int(man.get(m, 0))
            entries.append((f"fman:{m}", plain_prompt(
                f"{action_name(words, m, 'maneuvers')}: {n}",
                action_summary(words, m, "maneuvers"))))
        extras = [("kill", "Intent to kill", "lethal: the foe may die")]
        if o.get("range") == "close":
            extras.insert(0, ("finishing", action_name(words, "finishing", "maneuvers"),
                              action_summary(words, "finishing", "maneuvers")))
        for k, label, detail in extras:
            entries.append((f"fopt:{k}", plain_prompt(f"{label}: {'yes' if opt.get(k) else 'no'}",
                                                      detail)))
        for i, (key, line) in enumerate(entries):
            if isinstance(line, Text) and key != "fgo":
                line.truncate(width, overflow="ellipsis")
                entries[i] = (key, line)
        menu = self.host.prompt.menu
        keep = menu.highlighted
        menu.set_entries(entries)
        if self.pick.pop("keep", False) and keep is not None and keep < menu.option_count:
            menu.highlighted = keep

    def _odds_with(self, option: dict[str, Any], target: dict[str, Any],
                   maneuvers: dict[str, int]) -> dict[str, Any]:
        """The odds of ``option`` on ``target`` with the maneuvers declared (the engine's
        ``fight_odds``); the plain odds when there are none, or when a maneuver breaks its
        limits (acting then says why)."""
        if not any(maneuvers.values()):
            return target
        try:
            return {**target, **self.host.game.fight_odds(str(option["attack"]),
                                                          str(target["id"]), maneuvers)}
        except EngineError:
            return target

    def _draw_said(self, name: str, options: list[dict[str, Any]], width: int) -> None:
        """The actions what the player said matches, each with its target and odds."""
        words = fight_words(self.host.game)
        entries: Entries = []
        for i, sug in enumerate(self.pick.get("sugs") or []):
            line = Text(f"{i + 1}. ", DIM)
            label = action_name(words, str(sug["action"]))
            if sug.get("attack_name"):
                label = (str(sug["attack_name"]) if sug["action"] == "attack"
                         else f"{label}: {sug['attack_name']}")
            elif sug.get("power_name"):
                label = f"{label}: {sug['power_name']}"
            line.append(label, "bold " + ACCENT)
            if sug.get("target_name"):
                line.append(f" → {sug['target_name']}", FG)
            said = [str(w) for w in sug.get("words") or []]
            if said:
                line.append("  you said " + ", ".join(f"“{w}”" for w in said[:3]), DIM)
            line.truncate(width, overflow="ellipsis")
            o = next((x for x in options if option_key(x) == option_key(sug)), None)
            t = next((x for x in (o or {}).get("targets") or []
                      if x["id"] == sug.get("target")), None)
            if o is not None and o.get("attack") and t is not None:
                line.append("\n   ")
                line.append_text(odds_line(o, t, self.minion(t["id"]), short=True))
            entries.append((f"fsug:{i}", line))
        if not entries:
            self.host.prompt.set_title(Text("No fight action matched that.", "bold " + ACCENT))
        entries += self._turn_entries(name, True)
        self.host.prompt.menu.set_entries(entries)
