"""The fight panel: what a fight waits for, in the prompt box. A die to enter, a question a
fight's step asks, the referee's turn, or the player's: the actions (with the best target's
odds), then the target, what the action needs named, the maneuvers, or the actions what the
player says matches.

It renders a ``FightView`` (the engine's typed values, gathered by the play screen) and keeps
where the player is in choosing (``pick``); what the player decides goes up as one of the
panel's own messages (``FightPanel.ActionChosen``, ``ManeuverSet``, ``Said``...), which the
screen answers by driving ``Game``."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import ContentSwitcher, Input, Static

from engine.rules.fight.values import FightOption, FightSuggestion
from engine.tui.fight_view import (
    ICONS,
    action_name,
    action_summary,
    choice_entry,
    cost_words,
    odds_line,
    why_not,
)
from engine.tui.text import ACCENT, DIM, FG, MIXED, clip, plain_prompt
from engine.tui.widgets.fight.menu import SEPARATOR, Chosen, Entry, FightList
from engine.tui.widgets.fight.view import (
    ChoiceAsk,
    DieAsk,
    FightView,
    NobodyActs,
    Pick,
    PlayerTurn,
    RefereeTurn,
)

AREA = "ftarget:*"
"""The target entry of an area attack that covers every foe (no one target)."""


class FightPanel(Vertical):
    """The fight's title line and menu (or the input for saying what the acting character
    does). ``show`` draws a view; the player's decisions are posted as the messages below."""

    DEFAULT_CSS = """
    FightPanel { height: auto; }
    FightPanel > #fight-title { height: auto; padding: 0 1; }
    FightPanel > #fight-part { height: auto; }
    FightPanel #fight-menu {
        height: auto;
        max-height: 14;
        border: none;
        background: $surface;
        padding: 0 1;
    }
    FightPanel #fight-say { margin: 0 1; }
    """

    class Asked(Message):
        """What the player decided in the panel (every message below is one)."""

    @dataclass
    class ActionChosen(Asked):
        """Take an action: the option's action on the target, with the maneuvers, the
        options (what it needs named, the switches) and what the player said it does."""

        action: str
        target: str | None = None
        attack: str | None = None
        maneuvers: dict[str, int] = field(default_factory=dict)
        options: dict[str, str | int | bool] = field(default_factory=dict)
        fiction: str = ""

    class PickChanged(Asked):
        """Where the player is in choosing changed: the view for it is wanted (``show``), with
        what the engine gives for it (the items to name for a target...)."""

    @dataclass
    class ManeuverSet(PickChanged):
        """The maneuvers of the attack under way changed: its odds with them are wanted."""

        attack: str
        target: str
        maneuvers: dict[str, int]

    @dataclass
    class Said(Asked):
        """The player said what the acting character does: the actions it matches are
        wanted (``show_suggestions``)."""

        text: str

    @dataclass
    class NotAMove(Asked):
        """What the player said is no fight action: play it as fiction (a move)."""

        text: str

    @dataclass
    class ChoiceAnswered(Asked):
        """The answer to the question the fight's step asks."""

        choice: str

    class DieWanted(Asked):
        """The player will type the die the fight waits for."""

    class EndTurn(Asked):
        """End the acting character's turn."""

    class HandBack(Asked):
        """Hand the acting character back to the referee."""

    class RefereeStep(Asked):
        """One step of the referee."""

    class RefereeRun(Asked):
        """The referee plays until the player's turn."""

    class TakeOver(Asked):
        """The player takes the acting character over from the referee."""

    class EndFight(Asked):
        """Call the fight off (nobody can act)."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.pick = Pick()
        """Where the player is in choosing an action."""
        self.view: FightView | None = None
        """What is shown now."""

    def compose(self) -> ComposeResult:
        """The title, then the menu or the input for saying what the character does."""
        yield Static(id="fight-title")
        with ContentSwitcher(initial="fight-menu", id="fight-part"):
            yield FightList(self.back, id="fight-menu")
            yield Input(id="fight-say")

    @property
    def menu(self) -> FightList:
        """The menu."""
        return self.query_one(FightList)

    @property
    def say_input(self) -> Input:
        """The input for saying what the acting character does."""
        return self.query_one("#fight-say", Input)

    @property
    def saying(self) -> bool:
        """Whether the player is saying what the acting character does."""
        return self.pick.stage == "say" and isinstance(self._mode(), PlayerTurn)

    def focus(self, scroll_visible: bool = True) -> FightPanel:
        """Focus the part in front (the menu, or the input)."""
        part = self.query_one("#fight-part", ContentSwitcher).current
        if part is not None:
            self.query_one(f"#{part}").focus(scroll_visible)
        return self

    def _mode(self) -> object:
        return self.view.mode if self.view is not None else None

    def _title(self, title: Text) -> None:
        self.query_one("#fight-title", Static).update(title)

    def _front(self, part: str) -> None:
        self.query_one("#fight-part", ContentSwitcher).current = part

    # ------------------------------------------------------------------ drawing

    def show(self, view: FightView) -> None:
        """Draw ``view``: what the fight waits for, at its width."""
        self.view = view
        mode = view.mode
        if not isinstance(mode, PlayerTurn):
            self.pick = Pick()
        if isinstance(mode, DieAsk):
            self._title(Text(mode.title, "bold " + ACCENT))
            self._menu([Entry("fdie", plain_prompt(
                f"🎲 Enter the d{mode.sides} you rolled…", "", "enter"),
                self._posts(self.DieWanted))])
        elif isinstance(mode, ChoiceAsk):
            self._draw_choice(mode, view.width)
        elif isinstance(mode, NobodyActs):
            self._title(Text(mode.title, "bold " + ACCENT))
            self._menu([Entry("fend", plain_prompt("End the fight", "", "F8"),
                              self._posts(self.EndFight))])
        elif isinstance(mode, RefereeTurn):
            self._title(Text(f"{mode.round}: {mode.name}'s turn (referee)", "bold " + ACCENT))
            self._menu([
                Entry("step", plain_prompt("▸ Next step", "", "enter"),
                      self._posts(self.RefereeStep)),
                Entry("run", plain_prompt("⏩ Run until your turn", "", "r"),
                      self._posts(self.RefereeRun)),
                Entry("take", plain_prompt(f"✋ Take over {mode.name}", "", "t"),
                      self._posts(self.TakeOver)),
                *([Entry("step_in", plain_prompt(f"⏵ {mode.step_in}: act now (end delay)", ""),
                         self._posts(lambda: self.ActionChosen("step_in")))]
                  if mode.step_in else []),
            ])
        else:
            self._draw_turn(mode, view.width)

    def redraw(self) -> None:
        """Draw the view again (the pick changed)."""
        if self.view is not None:
            self.show(self.view)

    def _menu(self, entries: list[Entry]) -> None:
        self.menu.set_entries(entries)
        self._front("fight-menu")

    @on(FightList.Resized)
    def _resized(self, event: FightList.Resized) -> None:
        """Fit the entries to the width the menu has now, keeping the highlighted one."""
        event.stop()
        if self.view is None or self.pick.stage == "say" or isinstance(self._mode(), DieAsk):
            return
        width = max((self.size.width or self.screen.size.width) - 4, 20)
        if width == self.view.width:
            return
        keep = self.menu.highlighted
        self.show(replace(self.view, width=width))
        if keep is not None and keep < self.menu.option_count:
            self.menu.highlighted = keep

    def _draw_choice(self, ask: ChoiceAsk, width: int) -> None:
        """A question the step asks: one line of title (a response's says the hit first: its
        total and how well it hit; the answers need the room), then each answer with its cost
        and odds."""
        more = f"  owes {ask.owed}" if ask.owed else ""
        head = Text(clip(ask.title, max(width - len(more), 20)), "bold " + ACCENT)
        head.append(more, MIXED)
        self._title(head)
        self._menu([Entry(f"fchoice:{c.id}", choice_entry(i + 1, c, width),
                          self._answer(c.id), numbered=True)
                    for i, c in enumerate(ask.choices)])

    def _answer(self, choice: str) -> Chosen:
        return self._posts(lambda: self.ChoiceAnswered(choice))

    def _posts(self, message: Callable[[], Message]) -> Chosen:
        """An entry's ``chosen`` that posts the message ``message`` makes."""

        def chosen() -> None:
            self.post_message(message())
        return chosen

    def _draw_turn(self, turn: PlayerTurn, width: int) -> None:
        """The player's turn, at the stage of the choice under way."""
        stage = self.pick.stage
        if stage == "say":
            head = Text(f"Say what {turn.name} does", "bold " + ACCENT)
            head.append("   Enter: the actions it matches · Esc: back", DIM)
            self._title(head)
            self.say_input.placeholder = f"What does {turn.name} do in the fight? Then Enter"
            self._front("fight-say")
            return
        if stage == "target":
            self._draw_targets(turn, width)
        elif stage == "needs":
            self._draw_needs(turn, width)
        elif stage == "maneuver":
            self._draw_maneuvers(turn, width)
        else:
            head = Text(f"{turn.round}: {turn.name}'s turn", "bold " + ACCENT)
            head.append(f" · {turn.budget} left", DIM)
            if stage == "said":
                head = Text("That reads like:", "bold " + ACCENT)
                head.append("   Esc: all actions", DIM)
                head.append(f"\n“{clip(self.pick.text, max(width - 2, 20))}”",
                            "italic " + DIM)
            self._title(head)
            if stage == "said":
                self._draw_said(turn, width)
            else:
                self._draw_actions(turn, width)
        self._front("fight-menu")

    def _draw_actions(self, turn: PlayerTurn, width: int) -> None:
        """The acting character's actions: attacks with the best target's odds first, the
        rest with their summary; those not allowed now dimmed with the reason."""
        shown = sorted(turn.options, key=lambda o: bool(why_not(o)))  # possible ones first
        entries: list[Entry] = []
        dimmed = False
        for o in shown:
            number = Text(f"{len(entries) + 1}. " if len(entries) < 9 else "   ", DIM)
            reason = why_not(o)
            if o.attack is not None:
                line = number + Text(f"{ICONS.get(o.action, '⚔')} ", ACCENT)
                line.append(o.label, DIM if reason else "bold " + ACCENT)
                best = o.best_target()
                if reason:
                    line.append(f"  ✗ {reason}", "italic " + DIM)
                elif best is not None:
                    line.append(f" → {best.name}", FG)
                    line.append("\n   ")
                    if cost_words(o):
                        line.append(f"{cost_words(o)} · ", DIM)
                    line.append_text(odds_line(o, best, short=True))
                else:
                    line.append("  ✗ no one in reach", "italic " + DIM)
                    reason = "no one in reach"
            else:
                summary = action_summary(turn.words, o.action) or o.cost
                if cost_words(o):
                    summary = f"{cost_words(o)} · {summary}"
                line = number + plain_prompt(o.name, summary, disabled=reason)
            line.truncate(width * 2, overflow="ellipsis")
            if "\n" not in line.plain:
                line.truncate(width, overflow="ellipsis")
            if reason and not dimmed:  # the turn's own entries before these
                entries += self._turn_entries(turn, said=False, more=True)
            entries.append(Entry(f"fight:{o.key}", line, self._chose(o), disabled=bool(reason),
                                 numbered=True))
            dimmed = dimmed or bool(reason)
        if not dimmed:
            entries += self._turn_entries(turn, said=False)
        self.menu.set_entries(entries)

    def _turn_entries(self, turn: PlayerTurn, said: bool, more: bool = False) -> list[Entry]:
        """Below the actions: say what you do (or, after saying it, make it a move), end
        the turn; for a character taken over from the referee, hand it back."""
        out = [Entry(SEPARATOR)]
        if said:
            out.append(Entry("none", plain_prompt("✎ Not a fight action: a move", "", "n"),
                             self._posts(lambda: self.NotAMove(self.pick.text))))
            out.append(Entry("fback", plain_prompt("← Every action", "", "esc"), self.back))
        else:
            out.append(Entry("say", plain_prompt(f"✎ Say what {turn.name} does…", "", "d"),
                             self._say))
        out.append(Entry("end", plain_prompt("⏹ End turn", "", "e"),
                         self._posts(self.EndTurn)))
        if turn.hand_back:
            out.append(Entry("handback", plain_prompt(f"↩ Hand {turn.name} back to the referee"),
                             self._posts(self.HandBack)))
        if more:
            out.append(Entry(SEPARATOR))
        return out

    def _draw_targets(self, turn: PlayerTurn, width: int) -> None:
        """Who to target with the chosen option; for an attack, each with the exact odds."""
        o = turn.option(self.pick.key)
        if o is None:
            self.pick = Pick()
            self._draw_actions(turn, width)
            return
        what = o.attack.name if o.attack is not None else o.name
        declared = [m.name for m in o.maneuvers if m.id in self.pick.maneuvers
                    or m.id in self.pick.switches] if self.pick.suggested else []
        if declared:
            what += f" ({', '.join(declared).lower()})"
        ask = "who?" if o.target == "ally" else "at whom?"
        head = Text(f"{turn.name}: {what} — {ask}", "bold " + ACCENT)
        if head.cell_len + 12 <= width:
            head.append("   Esc: back", DIM)
        self._title(head)
        entries: list[Entry] = []
        if o.attack is not None and o.attack.range == "area" and len(o.targets) > 1:
            line = Text("1. ", DIM)
            line.append(f"Everyone in the area ({len(o.targets)} foes)", "bold " + FG)
            entries.append(Entry(AREA, line, self._targeted(o, None), numbered=True))
        for t in o.targets:
            line = Text(f"{len(entries) + 1}. " if len(entries) < 9 else "   ", DIM)
            line.append(t.name, "bold " + FG)
            if t.band:  # where it stands from the one acting (positions)
                line.append(f"  {t.band}", DIM)
            if t.why and t.band:  # out of reach: said, and refused if taken
                line.append(f"\n   {t.why}", DIM)
            elif o.attack is not None:
                line.append("\n   ")
                line.append_text(odds_line(o, t, width=width))
            entries.append(Entry(f"ftarget:{t.id}", line, self._targeted(o, t.id),
                                 numbered=True))
        self.menu.set_entries(entries)
        if self.pick.suggested and self.pick.target is not None:  # what the words aimed at
            want = f"ftarget:{self.pick.target}" if self.pick.target else AREA
            ids = [str(x.id) if x.id else "" for x in self.menu.options]
            if want in ids:
                self.menu.highlighted = ids.index(want)

    def _draw_needs(self, turn: PlayerTurn, width: int) -> None:
        """What an action needs named: the engine's ``choices`` when the option lists them
        (a power to use, an item to pick up or drop, an action to ready), else the item to
        disarm, smash or drop (the holder's attacks)."""
        o = turn.option(self.pick.key)
        if o is None:
            self.pick = Pick()
            return
        what = o.needs or "item"
        if o.choices and what == "action":  # an action to ready
            head = Text(f"{turn.name}: {o.name.lower()} which action?", "bold " + ACCENT)
            named = [(c.id, plain_prompt(c.name, c.detail)) for c in o.choices]
        elif o.choices:  # the engine lists what may be named
            head = Text(f"{turn.name}: {o.name} — which {what}?", "bold " + ACCENT)
            named = [(c.id, plain_prompt(c.name, c.detail)) for c in o.choices]
        else:
            head = Text(f"{turn.name}: {o.name} — which item?", "bold " + ACCENT)
            named = [(n, plain_prompt(n)) for n in turn.items]
        head.append("   Esc: back", DIM)
        self._title(head)
        entries = []
        for i, (value, line) in enumerate(named):
            line.truncate(width, overflow="ellipsis")
            entries.append(Entry(f"fneed:{value}", Text(f"{i + 1}. ", DIM) + line if i < 9
                                 else line, self._named(o, value), numbered=True))
        if not entries:
            entries = [Entry("fback", plain_prompt("Nothing to name: back", "", "esc"),
                             self.back)]
        self.menu.set_entries(entries)

    def _draw_maneuvers(self, turn: PlayerTurn, width: int) -> None:
        """The chosen attack on its target, ready to go: Enter attacks; the maneuvers below
        change the trade (Enter on one steps it) and the odds shown follow them."""
        o = turn.option(self.pick.key)
        t = o.target_named(self.pick.target) if o is not None else None
        if o is None or t is None or o.attack is None:
            self.pick = Pick()
            self._draw_actions(turn, width)
            return
        head = Text(f"{turn.name}: {o.attack.name} → {t.name}", "bold " + ACCENT)
        if head.cell_len + 12 <= width:
            head.append("   Esc: back", DIM)
        self._title(head)
        odds = turn.odds if turn.odds is not None and any(self.pick.maneuvers.values()) else t
        go = Text(f"{ICONS.get(o.action, '⚔')} Go: ", "bold " + ACCENT)
        go.append(o.name, "bold " + ACCENT)
        go.append("  [enter]\n   ", DIM)
        go.append_text(odds_line(o, odds, width=width))
        entries = [Entry("fgo", go, self._go(o)), Entry(SEPARATOR)]
        for m in o.maneuvers:
            if m.switch:
                on_ = "yes" if m.id in self.pick.switches else "no"
                line = plain_prompt(f"{m.name}: {on_}", m.summary)
                key = f"fopt:{m.id}"
            else:
                line = plain_prompt(f"{m.name}: {int(self.pick.maneuvers.get(m.id, 0))}",
                                    m.summary)
                key = f"fman:{m.id}"
            if m.why:  # refused where it is offered: dimmed, with the reason
                line = plain_prompt(m.name, disabled=m.why)
            line.truncate(width, overflow="ellipsis")
            entries.append(Entry(key, line, self._maneuver(o, m.id, m.most, m.switch),
                                 disabled=bool(m.why)))
        keep = self.menu.highlighted
        self.menu.set_entries(entries)
        if self.pick.keep and keep is not None and keep < self.menu.option_count:
            self.menu.highlighted = keep
        self.pick = replace(self.pick, keep=False)

    def _draw_said(self, turn: PlayerTurn, width: int) -> None:
        """The actions what the player said matches, each with its target and odds."""
        entries: list[Entry] = []
        for i, sug in enumerate(self.pick.suggestions):
            line = Text(f"{i + 1}. ", DIM)
            label = action_name(turn.words, str(sug.action))
            if sug.attack is not None:
                label = sug.attack.name if sug.action == "attack" else f"{label}: {sug.attack.name}"
            elif sug.named is not None:
                label = f"{label}: {sug.named.name}"
            line.append(label, "bold " + ACCENT)
            if sug.area:
                line.append(f" → all {len(sug.covers)} foes", FG)
            elif sug.target is not None:
                line.append(f" → {sug.target.name}", FG)
            o = turn.option(sug.key)
            names = [m.name.lower() for m in (o.maneuvers if o is not None else ())
                     if m.id in sug.maneuvers]
            if names:
                line.append(f" ({', '.join(names)})", FG)
            if sug.words:
                line.append("  you said " + ", ".join(f"“{w}”" for w in sug.words[:3]), DIM)
            line.truncate(width, overflow="ellipsis")
            t = o.target_named(sug.target.id) if o is not None and sug.target else None
            if o is not None and o.attack is not None and t is not None:
                line.append("\n   ")
                line.append_text(odds_line(o, t, short=True))
            entries.append(Entry(f"fsug:{i}", line, self._suggested(sug), numbered=True))
        if not entries:
            self._title(Text("No fight action matched that.", "bold " + ACCENT))
        entries += self._turn_entries(turn, said=True)
        self.menu.set_entries(entries)

    # ------------------------------------------------------------------ choosing

    def _turn(self) -> PlayerTurn | None:
        mode = self._mode()
        return mode if isinstance(mode, PlayerTurn) else None

    def _chose(self, option: FightOption) -> Chosen:
        return lambda: self.choose_option(option.key)

    def choose_option(self, key: str) -> None:
        """An action from the list: ask for its target (an attack then for maneuvers), or
        what it needs named, or take it now."""
        turn = self._turn()
        o = turn.option(key) if turn is not None else None
        if o is None:
            return
        if not o.allowed:
            self.notify(why_not(o), title="Not now", severity="warning", timeout=4)
            return
        if o.target in ("foe", "ally") or o.attack is not None:
            if not o.targets:
                self.notify("No one to target.", title="Not now", severity="warning")
                return
            self._go_to(Pick(stage="target", key=key))
            return
        if o.needs:
            self._go_to(Pick(stage="needs", key=key))
            return
        self._act(o, None)

    def _targeted(self, o: FightOption, target: str | None) -> Chosen:
        def chosen() -> None:
            if self.pick.suggested or target is None:  # said (or everyone in the area)
                self._act(o, target, {k: v for k, v in self.pick.maneuvers.items() if v},
                          dict.fromkeys(sorted(self.pick.switches), True))
            elif o.attack is not None and not o.maneuvers:
                self._act(o, target)
            elif o.attack is not None:
                self._go_to(Pick(stage="maneuver", key=o.key, target=target,
                                 said=self.pick.said))
            elif o.needs:
                self._go_to(Pick(stage="needs", key=o.key, target=target,
                                 said=self.pick.said))
            else:
                self._act(o, target)
        return chosen

    def _named(self, o: FightOption, value: str) -> Chosen:
        return lambda: self._act(o, self.pick.target, options={o.needs or "item": value})

    def _maneuver(self, o: FightOption, mid: str, most: int, switch: bool
                  ) -> Chosen:
        def chosen() -> None:
            if switch:
                on_ = self.pick.switches ^ {mid}
                self.pick = replace(self.pick, switches=on_, keep=True)
                self.redraw()
                return
            man = dict(self.pick.maneuvers)
            man[mid] = (int(man.get(mid, 0)) + 1) % (most + 1)
            self.pick = replace(self.pick, maneuvers=man, keep=True)
            if o.attack is not None and self.pick.target is not None:
                self.post_message(self.ManeuverSet(o.attack.id, self.pick.target, man))
        return chosen

    def _go(self, o: FightOption) -> Chosen:
        return lambda: self._act(o, self.pick.target,
                                 {k: v for k, v in self.pick.maneuvers.items() if v},
                                 dict.fromkeys(sorted(self.pick.switches), True))

    def _suggested(self, sug: FightSuggestion) -> Chosen:
        return lambda: self.take_suggestion(sug)

    def take_suggestion(self, sug: FightSuggestion) -> None:
        """A matched action: one aimed at someone asks for its target, the one the words
        aimed at highlighted (every foe in an area for an area attack covering them all),
        and Enter takes it with the maneuvers the words named; a power named on nobody is
        used at once; another asks what it needs, or is taken."""
        turn = self._turn()
        o = turn.option(sug.key) if turn is not None else None
        if o is None:
            return
        said = self.pick.text
        if o.target in ("foe", "ally") or o.attack is not None:
            if not o.targets:
                self.notify("No one to target.", title="Not now", severity="warning")
                return
            trades, switches = sug.declared()
            aim = "" if sug.area else sug.target.id if sug.target is not None else None
            self._go_to(Pick(stage="target", key=o.key, target=aim, said=said,
                             maneuvers=trades, switches=frozenset(switches), suggested=True))
        elif sug.named is not None:  # what the words named (a power): taken as it is
            self._act(o, None, options={o.needs or "power": sug.named.id}, fiction=said)
        else:
            self.choose_option(o.key)
            if self.pick.stage:
                self.pick = replace(self.pick, said=said)

    def _say(self) -> None:
        self._go_to(Pick(stage="say"))

    def show_suggestions(self, text: str, suggestions: tuple[FightSuggestion, ...]) -> None:
        """The actions the words ``text`` match (the engine's), to choose from."""
        self._go_to(Pick(stage="said", text=text, suggestions=suggestions))

    def _go_to(self, pick: Pick) -> None:
        """Go on to ``pick``: the screen draws it (``show``) with what it needs."""
        self.pick = pick
        self.post_message(self.PickChanged())

    def _act(self, o: FightOption, target: str | None,
             maneuvers: Mapping[str, int] | None = None,
             options: Mapping[str, str | int | bool] | None = None, fiction: str = "") -> None:
        """Take the action (with what the player said it does); the screen resets the pick
        when it is taken, and a refusal leaves the player where they were."""
        self.post_message(self.ActionChosen(
            o.action, target, o.attack.id if o.attack is not None else None,
            dict(maneuvers or {}), dict(options or {}), fiction or self.pick.said))

    def back(self) -> None:
        """Esc: from the maneuvers (or an item named for a target) back to the targets, from
        a target, the words or what to name back to the list."""
        stage = self.pick.stage
        if stage == "maneuver" or (stage == "needs" and self.pick.target):
            self._go_to(Pick(stage="target", key=self.pick.key))
        elif stage in ("target", "said", "say", "needs"):
            self._go_to(Pick())

    @on(Input.Submitted, "#fight-say")
    def _submitted(self, event: Input.Submitted) -> None:
        """The player said what the acting character does."""
        event.stop()
        text = event.value.strip()
        if not text:
            return
        event.input.value = ""
        self.post_message(self.Said(text))
