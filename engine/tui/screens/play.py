"""The play screen: the journal, the prompt of the moment, and the live character sheet.

The screen only asks ``game.pending`` what to show and answers through ``Game`` methods; after
every action it appends the new events to the journal and redraws the sheet and the prompt.
Everything it shows is rebuilt from the saved state, so a reopened campaign looks the same.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ParamSpec, cast

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.reactive import Reactive
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Button, ContentSwitcher, Input, Static

from engine.dice import parse_faces
from engine.errors import EngineError
from engine.game import Game
from engine.journal import result_label, spotlight
from engine.tui.commands import PlayCommands
from engine.tui.fight_view import (
    ICONS,
    MANEUVER_MAX,
    MANEUVERS,
    action_name,
    action_summary,
    best_target,
    budget_words,
    choice_entry,
    cost_words,
    fight_words,
    odds_line,
    option_key,
    side_dice,
    why_not,
)
from engine.tui.messages import MenuPicked, RollCommand
from engine.tui.screens.answer import OWN, AnswerDialog
from engine.tui.screens.dialogs import (
    AddNpcDialog,
    ChoiceDialog,
    ConfirmDialog,
    Dialog,
    DiceDialog,
    DieDialog,
    EndSceneDialog,
    MoveEntry,
    MovesDialog,
    SceneDialog,
)
from engine.tui.screens.edit import EditDialog
from engine.tui.screens.gm_dialogs import (
    DICE_MODE_OPTIONS,
    FramedSceneDialog,
    OracleDialog,
    RollDiceDialog,
    TableDialog,
)
from engine.tui.screens.ledger import LedgerScreen
from engine.tui.screens.party import AddHeroDialog, SwitchHeroDialog
from engine.tui.text import (
    ACCENT,
    BAD,
    DIM,
    FG,
    GOOD,
    MIXED,
    PRIMARY,
    TONES,
    band_tones,
    clip,
    odds_text,
)
from engine.tui.widgets.action_menu import ActionMenu, plain_prompt, suggestion_prompt
from engine.tui.widgets.journal import Journal
from engine.tui.widgets.keybar import KeyBar
from engine.tui.widgets.recap import RecapPanel
from engine.tui.widgets.roll_panel import RollPanel
from engine.tui.widgets.sheet import Sheet
from engine.tui.widgets.tracker import Tracker

if TYPE_CHECKING:
    from engine.tui.app import SidekickApp

log = logging.getLogger(__name__)

P = ParamSpec("P")
"""The parameters of a Game action run through ``act``."""

FLOW_KINDS = ("fiction", "move", "target", "roll", "adjust", "fight", "fight_die",
              "fight_choice")
"""Prompts the play screen answers in place; any other kind (choose, pick, questions, or one a
ruleset names, such as Masks's battle) is a choice from a list, in a dialog."""
"""Prompt kinds answered in the choice dialog."""
NOBODY = "__nobody__"
"""The option id for 'no one in particular' when a target is optional."""


class PlayScreen(Screen[None]):
    """One campaign in play."""

    COMMANDS = {PlayCommands}
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (96, "-wide")]

    focused: Reactive[Widget | None] = Reactive(None, repaint=False)
    """As on every Screen, but a focus change does not repaint the whole screen: the widgets
    that gain and lose focus restyle themselves. Every action here moves the focus (input,
    menu, roll panel), and a full repaint per action was half the keypress-to-result time."""

    BINDINGS = [
        Binding("f1", "app.help", "Help"),
        Binding("f2", "moves", "All moves"),
        Binding("f3", "party", "Switch hero"),  # in a party; one hero: the hidden f3 below
        Binding("ctrl+z", "undo", "Undo"),
        Binding("ctrl+b", "toggle_sheet", "Sheet"),
        Binding("f4", "edit_sheet", "Edit"),
        Binding("ctrl+l", "ledger", "Ledger"),
        Binding("ctrl+g", "ask_gm", "Ask GM"),
        Binding("ctrl+o", "oracle", "Oracle"),
        Binding("f5", "end_scene", "End scene"),
        Binding("f6", "next_scene", "Next scene", show=False),
        Binding("ctrl+n", "add_npc", "Add NPC"),
        Binding("f3", "party_solo", "Heroes", show=False),
        Binding("f7", "end_session", "End session", show=False),
        Binding("f8", "fight", "Fight!"),
        Binding("f10", "leave", "Campaigns"),
        Binding("ctrl+r", "recap", "Recap", show=False),
        Binding("escape", "close_recap", show=False),
    ]

    def __init__(self, game: Game) -> None:
        super().__init__()
        self.game = game
        self.events: list[dict[str, Any]] = []
        """Every event of the campaign, in order (the journal's source; trimmed on undo)."""
        self._dialog_open = False
        self._topbar = Text()
        self._names: dict[str, str] = {}
        self._names_seen = 0
        self._queued: list[tuple[Callable[[], Dialog | None], Callable[[Any], None] | None]] = []
        self._pick: dict[str, Any] = {}
        """Where the player is in choosing a fight action: {} (the action list), or the
        option chosen, its target and maneuvers, or the actions that match their words."""
        self._has_fights: bool | None = None

    @property
    def sidekick(self) -> SidekickApp:
        """The app, typed."""
        return cast("SidekickApp", self.app)  # Textual types every screen's app as App[object]

    # ------------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        """Top bar, journal and prompt on the left, sheet on the right, footer."""
        yield Static(id="topbar")
        with Horizontal(id="main"):
            with Vertical(id="story"):
                yield RecapPanel(id="recap")
                yield Journal(self.game.pack, id="journal")
                with Vertical(id="prompt-box"):
                    yield Static(id="prompt-title")
                    with ContentSwitcher(initial="fiction", id="prompt"):
                        yield Input(placeholder="Describe what your hero does, then Enter",
                                    id="fiction")
                        yield ActionMenu(id="menu")
                        yield RollPanel(id="roll")
                        yield Button("Choose", id="waiting", variant="primary", compact=True)
            with VerticalScroll(id="sidebar"):
                yield Tracker(id="tracker")
                yield Sheet(id="sheet")
        yield KeyBar()

    def on_mount(self) -> None:
        """Load the journal from the log and show whatever the engine waits for."""
        try:
            self.events = list(self.game.store.events(markers=True))
        except EngineError as e:
            self.events = []
            self.sidekick.show_error(e)
        st = self.game.state
        # who acted first: the hero the first switch of the spotlight is from
        first = next((str(e["was"]) for e in self.events
                      if e.get("type") == "HeroSwitched" and e.get("was")), st.party[0])
        self.query_one(Journal).reset(self._spotlit(self.events, first, False),
                                      self._npc_names())
        self.query_one(RecapPanel).show_recap(self.events, st, self.game.pack)
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

    def _npc_names(self) -> dict[str, str]:
        """Character id -> name, for every NPC and hero the journal may mention (removed NPCs
        included)."""
        if self._names_seen != len(self.events):
            for e in self.events[self._names_seen:]:
                if e.get("type") in ("NPCAdded", "HeroAdded"):
                    self._names[e["id"]] = e["name"]
            self._names_seen = len(self.events)
        return {**self._names, **{k: v.name for k, v in self.game.state.actors.items()}}

    def _spotlit(self, events: list[dict[str, Any]], acting: str, party: bool
                 ) -> list[dict[str, Any]]:
        """``events`` for the journal: in a party each names the hero acting then."""
        return list(spotlight(events, self._npc_names(), acting, party))

    def _refresh_all(self, open_dialogs: bool = True) -> None:
        self.query_one(Sheet).show(self.game, self._sheet_actor())
        self._draw_tracker()
        self._draw_topbar()
        self._draw_prompt(open_dialogs)
        self.refresh_bindings()

    def _draw_topbar(self) -> None:
        st = self.game.state
        hero = st.hero
        out = Text()
        out.append(f" {st.name} ", "bold #1a1b26 on #bb9af7")
        out.append("  ")
        fight = self.game.fight
        if fight is not None:  # in a fight, whose turn it is (the tracker has the rest)
            acting = st.actors.get(fight.encounter.acting or "")
            out.append(f"⚔ {self._fight_round()}", "bold " + BAD)
            if acting is not None:
                out.append(f" · {acting.name}'s turn", "bold " + ACCENT)
        else:
            if len(st.party) > 1:
                out.append("▶ ", ACCENT)
            out.append(hero.name, "bold " + ACCENT)
            if hero.conditions:
                names = ", ".join(self.game.pack.conditions[c].name
                                  if c in self.game.pack.conditions else c for c in hero.conditions)
                out.append(f" ({names})", BAD)
            others = [h.name for h in st.heroes if h.id != st.acting]
            if others:
                out.append(f" acting · with {', '.join(others)} (F3)", DIM)
        for track in self.game.pack.system.tracks:  # the campaign's pools (Masks: Team)
            if track.scope == "campaign" and track.id in st.pools:
                out.append(f" · {track.name} {st.pools[track.id]}", GOOD)
        scene = (f"Scene {st.scene.number}: {st.scene.title}" if st.scene.open
                 else f"after scene {st.scene.number}")
        out.append(f"  ·  Session {st.session} · {scene}", FG)
        out.append(f"  ·  {self.game.pack.system.name}", DIM)
        if st.dice_mode == "physical":
            out.append(" · your dice", DIM)
        elif st.dice_mode == "mixed":
            out.append(" · dice: ask", DIM)
        if out != self._topbar:
            self._topbar = out
            self.query_one("#topbar", Static).update(out)

    def _draw_prompt(self, open_dialogs: bool) -> None:
        game = self.game
        p = game.pending
        title = self.query_one("#prompt-title", Static)
        switcher = self.query_one("#prompt", ContentSwitcher)
        menu = self.query_one(ActionMenu)
        if p.kind == "fiction":
            switcher.current = "fiction"
            who = f"{game.state.hero.name}: " if len(game.state.party) > 1 else ""
            head = Text(who + p.message, "bold " + ACCENT)
            if not game.state.scene.open:
                head.append("   The scene has ended: F6 frames the next one.", DIM)
            else:
                head.append("   Enter for moves · F2 all moves · ^G ask the"
                            f" {game.pack.system.gm_title}", DIM)
            title.update(head)
            box = self.query_one("#fiction", Input)
            # in a party the box says whose turn it is (and never a fight's words after one)
            box.placeholder = (f"Describe what {game.state.hero.name} does, then Enter" if who
                               else "Describe what your hero does, then Enter")
            box.focus()
        elif p.kind == "move":
            fiction = p.context.get("fiction", "")
            sugs = game.flow.suggestions
            if sugs and sugs[0].get("move") is None:
                message = "That reads as plain fiction. Keep it, or pick a move:"
            elif any(s.get("move") for s in sugs):
                message = p.message
            else:
                message = "No move matched that. Pick one, or keep it as fiction."
            width = self._fitted_width = self._menu_width()
            head = Text(message, "bold " + ACCENT)
            head.append("   Esc: back", DIM)
            # one line: the whole fiction is in the journal just above; the menu needs the room
            head.append(f"\n“{clip(fiction, max(width - 2, 20))}”", "italic " + DIM)
            title.update(head)
            entries: list[tuple[str, Text | str]] = []
            for s in sugs:
                key = f"move:{s.get('move') or ''}"  # "move:" is "No move, just fiction"
                if key not in (k for k, _ in entries):
                    entries.append((key, suggestion_prompt(game.pack, len(entries) + 1, s,
                                                           width)))
            if entries:
                entries.append(("-", ""))
            entries += [("all", plain_prompt("☰ All moves…", "the full list", "m")),
                        ("none", plain_prompt("✎ No move, just fiction", "", "n"))]
            menu.set_entries(entries)
            switcher.current = "menu"
            menu.focus()
        elif p.kind == "target":
            head = Text(p.message, "bold " + ACCENT)
            head.append("   Esc: back", DIM)
            title.update(head)
            self._option_menu("target", p.options)
        elif p.kind == "roll":
            title.update(Text("Ready to roll", "bold " + ACCENT))
            panel = self.query_one(RollPanel)
            move = game.pack.moves[game.flow.move or ""]
            target = game.state.actors.get(game.flow.target or "")
            name = move.name + (f" → {target.name}" if target else "")
            stat = p.context["preview"]["stat"]
            stat_name = game.pack.stats[stat].name if stat in game.pack.stats else stat
            if game.flow.advantage:
                name += f" (with {game.flow.advantage})"
            panel.show(name, p.context, stat_name if game.flow.stat else "")
            switcher.current = "roll"
            panel.focus()
        elif p.kind == "adjust":
            head = Text(p.message, "bold " + ACCENT)
            head.append("  You may still change the result after seeing it.", DIM)
            title.update(head)
            self._option_menu("adjust", p.options)
        elif p.kind in ("fight", "fight_die", "fight_choice"):
            self._draw_fight(open_dialogs)
        else:
            head = Text(p.message or "Choose", "bold " + ACCENT)
            want = self._want(p.min, p.max)
            head.append(f"  ({want})", DIM)
            title.update(head)
            button = self.query_one("#waiting", Button)
            button.label = f"Choose ({want})… enter"
            switcher.current = "waiting"
            button.focus()
            if open_dialogs:
                self.open_choice()

    _fitted_width = 0
    """The width the move suggestions were last cut to fit."""

    def _menu_width(self) -> int:
        """Cells a menu entry has on one line: the prompt box less the menu's padding and room
        for a scrollbar (the menu itself may be hidden, so measure the box)."""
        box = self.query_one("#prompt-box").size.width or self.size.width
        return max(box - 4, 20)

    @on(ActionMenu.Resized)
    def _menu_resized(self) -> None:
        """The menu changed width (the sheet shown or hidden): fit the move suggestions to it
        again, keeping the entry that was highlighted."""
        if self.game.pending.kind in ("fight", "fight_choice"):
            self._refit_menu()
            return
        if self.game.flow.stage != "move" or self._menu_width() == self._fitted_width:
            return
        menu = self.query_one(ActionMenu)
        keep = menu.highlighted
        self._draw_prompt(open_dialogs=False)
        if keep is not None and keep < menu.option_count:
            menu.highlighted = keep

    def _option_menu(self, kind: str, options: list[dict[str, Any]]) -> None:
        """Show ``options`` in the inline menu; options that can do nothing are dimmed with
        their reason and cannot be picked."""
        menu = self.query_one(ActionMenu)
        menu.set_entries([(f"{kind}:{o['id']}", plain_prompt(o["label"], o.get("detail", ""),
                                                             disabled=o.get("disabled") or ""))
                          for o in options],
                         disabled={f"{kind}:{o['id']}" for o in options if o.get("disabled")})
        self.query_one("#prompt", ContentSwitcher).current = "menu"
        menu.focus()

    @staticmethod
    def _want(lo: int, hi: int) -> str:
        if lo == hi:
            return f"pick {hi}"
        if lo == 0:
            return f"pick up to {hi}"
        return f"pick {lo} to {hi}"

    # ------------------------------------------------------------------ acting

    def act(self, fn: Callable[P, list[dict[str, Any]]], *args: P.args, **kwargs: P.kwargs
            ) -> str | None:
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
        self._pick = {}
        if fn == self.game.undo:
            self.events = [e for e in self.events if e.get("a", 0) < before]
            self._names_seen = min(self._names_seen, len(self.events))
            self.query_one(Journal).undo_after(self.events[-1]["n"] if self.events else 0)
        else:
            self.events.extend(new)
            self.query_one(Journal).add_events(self._spotlit(new, acting, party),
                                               self._npc_names())
        self._refresh_all(open_dialogs=False)
        if self.game.pending.kind == "fight_die":
            self.call_after_refresh(self.open_fight_die)
        return None

    def perform(self, fn: Callable[P, list[dict[str, Any]]], *args: P.args,
                **kwargs: P.kwargs) -> bool:
        """Run an action and notify its error; True if it worked."""
        error = self.act(fn, *args, **kwargs)
        if error:
            self.notify(error, title="Not now", severity="error", timeout=6)
            return False
        self._maybe_open_choice()
        return True

    def _maybe_open_choice(self) -> None:
        """Open the choice dialog once the result of the action is on screen; a fight a move
        started with your own dice asks for its initiative dice."""
        request = self.game.fight_request
        if request is not None:
            self.call_after_refresh(self._ask_initiative, request["foes"],
                                    request["surprised"])
        elif self.game.pending.kind not in FLOW_KINDS:
            self.call_after_refresh(self.open_choice)

    def _submit(self, fn: Callable[P, list[dict[str, Any]]], *args: P.args,
                **kwargs: P.kwargs) -> str | None:
        """For dialogs: act, then open a choice if one follows; the error text otherwise."""
        error = self.act(fn, *args, **kwargs)
        if error is None:
            self._maybe_open_choice()
        return error

    # ------------------------------------------------------------------ fiction and moves

    @on(Input.Submitted, "#fiction")
    def _fiction(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        if self._pick.get("stage") == "say" and self.game.pending.kind == "fight":
            if text:
                event.input.value = ""
                self._fight_fiction(text)
            return
        if not text:
            self.notify("Describe what your hero does first (or F2 for the move list).",
                        severity="warning")
            return
        if self.perform(self.game.describe, text):
            event.input.value = ""
            # nothing matched: it is plain fiction, one Enter (F2 still lists every move)
            if (self.game.flow.stage == "move"
                    and not any(s.get("move") for s in self.game.flow.suggestions)
                    and self.perform(self.game.choose_move, None)):
                self.notify("No move matched: kept as fiction. F2 lists every move.",
                            timeout=4)

    @on(MenuPicked)
    def _picked(self, event: MenuPicked) -> None:
        kind, _, value = event.key.partition(":")
        if self.game.pending.kind in ("fight", "fight_die", "fight_choice") \
                and self._fight_picked(kind, value):
            return
        if kind == "move" and not value:  # the "No move, just fiction" suggestion
            self.perform(self.game.choose_move, None)
        elif kind == "move":
            sug = next((s for s in self.game.flow.suggestions if s.get("move") == value), {})
            self.use_move(value, sug.get("target"))
        elif kind == "all":
            self.action_moves()
        elif kind == "none":
            self.perform(self.game.choose_move, None)
        elif kind == "target":
            self.perform(self.game.choose_target, value)
        elif kind == "adjust":
            self.perform(self.game.adjust, value)
        elif kind == "back":
            self.go_back()

    def go_back(self) -> None:
        """Esc on the inline menu: step back out of choosing a move or its target (an undo of
        the step that led here; the fiction comes back into the input to edit)."""
        game = self.game
        stage = game.flow.stage
        if stage not in ("move", "target"):
            return
        last = self.events[-1] if self.events else {}
        if last.get("type") != "FlowChanged" or last["flow"].get("stage") != stage:
            return  # something else happened since (an oracle question): not ours to undo
        step = [e for e in self.events if e.get("a") == last.get("a")]
        if any(e["type"] not in ("ActionStarted", "FlowChanged", "Narrated")
               or (e["type"] == "Narrated" and e.get("by") != "player") for e in step):
            # this prompt came out of a roll or a choice (a move triggering another): Esc must
            # not take that back; ^Z still can
            self.notify("This comes from what just happened: pick one (^Z undoes it all).",
                        severity="warning", timeout=4)
            return
        fiction = game.flow.fiction
        error = self.act(game.undo)
        if error:
            self.notify(error, title="Not now", severity="error", timeout=6)
            return
        if game.flow.stage == "fiction":
            box = self.query_one("#fiction", Input)
            if fiction and not box.value:
                box.value = fiction
                box.cursor_position = len(fiction)
            self.notify("Back to your fiction: edit it, or Enter again.", timeout=3)
        else:
            self.notify("Back: pick another move.", timeout=3)

    def use_move(self, move_id: str, target_hint: str | None = None) -> None:
        """Use a move now: from the suggestions, the move list or the command palette. A
        suggestion passes the target its fiction names (``target_hint``): when the move's
        target is optional, that target comes first (highlighted) in the question."""
        game = self.game
        stage = game.flow.stage
        if stage not in ("fiction", "move"):
            self.notify("Finish what is pending first (or ^Z to undo it).", severity="warning")
            return
        move = game.pack.moves.get(move_id)
        if move is None:
            return
        why = game.move_available(move)
        if why:
            self.notify(why, title="Not now", severity="error")
            return
        targets = game.targets_for(move) if move.target == "optional" else []
        if targets:
            options = [{"id": NOBODY, "label": "No one in particular", "detail": ""}, *targets]
            named = [o for o in options if target_hint and o["id"] == target_hint]
            options = named + [o for o in options if o not in named]
            self.push_dialog(lambda: ChoiceDialog(
                move.name, "Is someone in particular the target?", options, 1, 1,
                lambda ids: self._start_move(move_id, None if ids[0] == NOBODY else ids[0])))
            return
        error = self._start_move(move_id, None)
        if error:
            self.notify(error, title="Not now", severity="error", timeout=6)

    def _start_move(self, move_id: str, target: str | None) -> str | None:
        if self.game.flow.stage == "move":
            return self._submit(self.game.choose_move, move_id, target)
        fiction = self.query_one("#fiction", Input)
        error = self._submit(self.game.trigger, move_id, target, fiction.value)
        if error is None:
            fiction.value = ""
        return error

    def move_entries(self) -> list[MoveEntry]:
        """Every move the player could pick, for the move list: id, prompt, enabled, name (a
        match there ranks first) and the text the filter searches."""
        game = self.game
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

    def action_moves(self) -> None:
        """Open the full move list."""
        if self.game.flow.stage not in ("fiction", "move"):
            self.notify("Finish what is pending first (or ^Z to undo it).", severity="warning")
            return

        def pick(move_id: str) -> str | None:
            self.call_after_refresh(self.use_move, move_id)
            return None

        self.push_dialog(lambda: MovesDialog(self.move_entries(), pick))

    # ------------------------------------------------------------------ rolling

    @on(RollCommand)
    def _roll_command(self, event: RollCommand) -> None:
        game = self.game
        if game.flow.stage != "roll":
            return
        p = game.pending
        if event.kind == "roll" and p.context.get("stat_choices") and not game.flow.stat:
            self.notify("This move lets you choose the stat: pick it first.", timeout=3)
            event = RollCommand("stat")
        if event.kind == "roll":
            if p.context.get("physical"):
                self.open_dice()
            elif p.context.get("entry") == "mixed":
                self.open_dice(mixed=True)
            else:
                self.perform(game.roll)
        elif event.kind == "pre_roll":
            offered = p.context.get("pre_roll") or []
            if len(offered) == 1:
                self.perform(game.pre_roll, offered[0]["id"])
            elif offered:
                options = [{"id": o["id"], "label": o["label"], "detail": o.get("detail", "")}
                           for o in offered]
                self.push_dialog(lambda: ChoiceDialog(
                    "Before the roll", "", options, 1, 1,
                    lambda ids: self._submit(game.pre_roll, ids[0])))
        elif event.kind == "stat":
            choices = p.context.get("stat_choices") or []
            move = game.pack.moves[game.flow.move or ""]
            options = [{"id": s, "label": game.pack.stats[s].name if s in game.pack.stats else s,
                        "detail": stat_detail(*game.rules.stat_value(game.state, move, s))}
                       for s in choices]
            self.push_dialog(lambda: ChoiceDialog(
                "Roll with which stat?", "", options, 1, 1,
                lambda ids: self._submit(game.set_roll_options, stat=ids[0])))
        elif event.kind == "declare":
            declared = set(game.flow.declared)
            offered = {d["id"]: d for d in p.context.get("declarations") or []}
            options = [{"id": i, "label": d["label"], "detail": d.get("detail", "")}
                       for i, d in offered.items()]
            move = game.pack.moves[game.flow.move or ""]
            options += [{"id": i, "label": f"{game.rules.declaration_name(game.state, move, i)}"
                         " (declared)", "detail": ""}
                        for i in declared if i not in offered]

            def declare(ids: list[str]) -> str | None:
                # all at once: a refused declaration changes nothing
                return self.act(game.set_declarations, ids)

            self.push_dialog(lambda: ChoiceDialog(
                "Declare before the roll", "Mark what you bring into play (space toggles).",
                options, 0, len(options), declare, preselect=sorted(declared)))
        elif event.kind == "params":
            params = p.context.get("params") or []
            gm = game.pack.system.gm_title
            options = [{"id": f"{prm['id']}={v}", "label": f"{prm['name']}: {v}",
                        "detail": prm.get("help", "")}
                       for prm in params for v in range(prm["min"], prm["max"] + 1)]
            options.append({"id": "gm", "label": f"{gm}, you choose",
                            "detail": f"the {gm} sets it (seeded)"})

            def set_params(ids: list[str]) -> str | None:
                if ids == ["gm"]:
                    return self._submit(game.gm_set_params)
                return self._submit(game.set_roll_options, params={
                    ids[0].split("=")[0]: int(ids[0].split("=")[1])})

            self.push_dialog(lambda: ChoiceDialog(
                "Set the roll", f"Pick the value (standing in for the {gm}).",
                options, 1, 1, set_params))
        elif event.kind == "advantage":
            cycle = {None: "advantage", "advantage": "disadvantage", "disadvantage": "none"}
            self.perform(game.set_roll_options, advantage=cycle.get(game.flow.advantage,
                                                                        "none"))

    def open_dice(self, mixed: bool = False) -> None:
        """Ask for the faces of the player's own dice (``mixed``: or roll them for me)."""
        p = self.game.pending
        pv = p.context["preview"]
        summary = Text(p.message, "bold " + ACCENT)
        summary.append(f"\nmodifier {pv['modifier']:+d}: ", FG)
        summary.append_text(odds_text(pv["odds"], pv["bands"]))

        def submit(text: str) -> str | None:
            if mixed and not text.strip():
                return self._submit(self.game.roll)
            try:
                faces = parse_faces(text)
            except EngineError as e:
                return e.message
            return self._submit(self.game.roll, faces)

        if mixed:
            self.push_dialog(lambda: RollDiceDialog("Your dice, or mine?", pv["dice"], summary,
                                                    submit))
            return
        self.push_dialog(lambda: DiceDialog("Your dice", pv["dice"], summary, submit))

    # ------------------------------------------------------------------ fights

    @property
    def has_fights(self) -> bool:
        """Whether this game runs fights in rounds (its ruleset has a Conflict)."""
        if self._has_fights is None:
            try:
                self._has_fights = self.game.rules.conflict() is not None
            except Exception:  # a ruleset that cannot say: no fights here
                self._has_fights = False
        return self._has_fights

    def _sheet_actor(self) -> str | None:
        """Whose sheet to show: in a fight, the character acting when the player plays it;
        otherwise (None) the hero in the spotlight."""
        fight = self.game.fight
        acting = fight.encounter.acting if fight is not None else None
        if acting is None or acting not in self.game.state.actors or self.game.referee_turn:
            return None
        return acting

    _acting_seen: str | None = None
    """The character the tracker last scrolled to."""

    def _draw_tracker(self) -> None:
        """Show the initiative tracker while a fight is under way (and the sidebar with it,
        even on a narrow screen), hide it otherwise."""
        tracker = self.query_one(Tracker)
        fight = self.game.fight
        if self.has_class("fighting") != (fight is not None):
            # the sidebar comes or goes: fit the menu to its new width once laid out
            self.call_after_refresh(self._refit_menu)
        self.set_class(fight is not None, "fighting")
        tracker.display = fight is not None
        if fight is None:
            self._acting_seen = None
            return
        try:
            rows = self.game.tracker()
        except EngineError:
            rows = []
        sides = fight.encounter.sides
        tracker.show_rows(fight.encounter.round, rows,
                          sides.model_dump(mode="json") if sides is not None else None)
        if fight.encounter.acting != self._acting_seen:
            self._acting_seen = fight.encounter.acting
            self.call_after_refresh(self._scroll_tracker)

    def _refit_menu(self) -> None:
        """Draw the fight's menu again for the width it has now, keeping the highlight."""
        if self.game.pending.kind not in ("fight", "fight_choice") \
                or self._pick.get("stage") == "say":
            return
        menu = self.query_one(ActionMenu)
        keep = menu.highlighted
        self._draw_prompt(open_dialogs=False)
        if keep is not None and keep < menu.option_count:
            menu.highlighted = keep

    def _scroll_tracker(self) -> None:
        """Keep the acting row in view when the tracker is taller than the sidebar."""
        sidebar = self.query_one("#sidebar")
        line = self.query_one(Tracker).acting_line()
        height = sidebar.size.height or 20
        if line >= sidebar.scroll_y + height - 2 or line < sidebar.scroll_y:
            sidebar.scroll_to(y=max(0, line - height // 2), animate=False)

    def _fight_round(self) -> str:
        fight = self.game.fight
        if fight is None:
            return ""
        rnd = fight.encounter.round
        return "Surprise round" if rnd == 0 else f"Round {rnd}"

    def _draw_fight(self, open_dialogs: bool) -> None:
        """The fight's prompt: a die to enter, the referee's turn, or the player's."""
        game = self.game
        p = game.pending
        title = self.query_one("#prompt-title", Static)
        switcher = self.query_one("#prompt", ContentSwitcher)
        menu = self.query_one(ActionMenu)
        if p.kind == "fight_die":
            self._pick = {}
            need = p.context.get("need") or {}
            title.update(Text(p.message, "bold " + ACCENT))
            menu.set_entries([("fdie", plain_prompt(
                f"🎲 Enter the d{need.get('sides', 20)} you rolled…", "", "enter"))])
            switcher.current = "menu"
            menu.focus()
            if open_dialogs:
                self.open_fight_die()
            return
        if p.kind == "fight_choice":  # the step asks the player (a response to a hit...)
            self._pick = {}
            width = self._menu_width()
            owed = self._owed((p.context.get("need") or {}).get("actor"))
            more = f"  owes {owed}" if owed else ""
            # one line: the hit is in the journal just above, the answers need the room
            head = Text(clip(p.message, max(width - len(more), 20)), "bold " + ACCENT)
            head.append(more, MIXED)
            title.update(head)
            menu.set_entries([("fchoice:" + o["id"], choice_entry(
                i + 1, str(o["label"]), str(o.get("detail") or ""), width))
                for i, o in enumerate(p.options)])
            switcher.current = "menu"
            menu.focus()
            return
        acting = p.context.get("acting")
        if acting is None:
            title.update(Text(p.message, "bold " + ACCENT))
            menu.set_entries([("fend", plain_prompt("End the fight", "", "F8"))])
            switcher.current = "menu"
            menu.focus()
            return
        name = game.state.actors[acting].name
        if game.referee_turn:
            self._pick = {}
            head = Text(f"{self._fight_round()}: {name}'s turn (referee)", "bold " + ACCENT)
            title.update(head)
            menu.set_entries([
                ("step", plain_prompt("▸ Next step", "", "enter")),
                ("run", plain_prompt("⏩ Run until your turn", "", "r")),
                ("take", plain_prompt(f"✋ Take over {name}", "", "t")),
            ])
            switcher.current = "menu"
            menu.focus()
            return
        stage = self._pick.get("stage")
        if stage == "say":
            head = Text(f"Say what {name} does", "bold " + ACCENT)
            head.append("   Enter: the actions it matches · Esc: back", DIM)
            title.update(head)
            box = self.query_one("#fiction", Input)
            box.placeholder = f"What does {name} do in the fight? Then Enter"
            switcher.current = "fiction"
            box.focus()
            return
        options = game.fight_options()
        width = self._menu_width()
        budget = p.context.get("budget") or {}
        if stage == "target":
            self._draw_targets(name, options, width)
        elif stage == "needs":
            self._draw_needs(name, options)
        elif stage == "maneuver":
            self._draw_maneuvers(name, options, width)
        else:
            head = Text(f"{self._fight_round()}: {name}'s turn", "bold " + ACCENT)
            head.append(f" · {budget_words(budget)} left", DIM)
            if stage == "said":
                head = Text("That reads like:", "bold " + ACCENT)
                head.append("   Esc: all actions", DIM)
                head.append(f"\n“{clip(str(self._pick.get('text', '')), max(width - 2, 20))}”",
                            "italic " + DIM)
            title.update(head)
            self._draw_actions(name, options, budget, width)
        switcher.current = "menu"
        menu.focus()

    def _draw_actions(self, name: str, options: list[dict[str, Any]],
                      budget: dict[str, int], width: int) -> None:
        """The acting character's actions: attacks with the best target's odds first, the
        rest with their summary; those not allowed now dimmed with the reason."""
        words = fight_words(self.game)
        said = self._pick.get("stage") == "said"
        if said:
            self._draw_said(name, options, width)
            return
        shown = sorted(options, key=lambda o: bool(why_not(o, budget)))  # possible ones first
        entries: list[tuple[str, Text | str]] = []
        disabled: set[str] = set()
        for o in shown:
            key = f"fight:{_okey(o)}"
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
                    line.append_text(odds_line(o, best, self._minion(best["id"]), short=True))
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
        self.query_one(ActionMenu).set_entries(entries, disabled)

    def _turn_entries(self, name: str, said: bool, more: bool = False
                      ) -> list[tuple[str, Text | str]]:
        """Below the actions: say what you do (or, after saying it, make it a move), end
        the turn; for a character taken over from the referee, hand it back."""
        out: list[tuple[str, Text | str]] = [("-", "")]
        if said:
            out.append(("none", plain_prompt(
                "✎ Not a fight action: a move", "", "n")))
            out.append(("fback", plain_prompt("← Every action", "", "esc")))
        else:
            out.append(("say", plain_prompt(f"✎ Say what {name} does…", "", "d")))
        out.append(("end", plain_prompt("⏹ End turn", "", "e")))
        fight = self.game.fight
        acting = fight.encounter.acting if fight is not None else None
        if acting and acting not in self.game.state.party:
            out.append(("handback", plain_prompt(f"↩ Hand {name} back to the referee")))
        if more:
            out.append(("-", ""))
        return out

    def _owed(self, actor: object) -> int:
        """The panels ``actor`` owes now (the tracker's arrears; 0 in a game without)."""
        try:
            rows = self.game.tracker()
        except EngineError:
            return 0
        row = next((r for r in rows if r.get("actor") == actor), {})
        return int(row.get("arrears") or 0)

    def _side_named(self, name: str) -> str:
        """The side ("heroes", "villains") of the fighter called ``name`` (the heroes' when
        nobody is)."""
        try:
            rows = self.game.tracker()
        except EngineError:
            rows = []
        return str(next((r["side"] for r in rows if r.get("name") == name), "heroes"))

    def _has_maneuvers(self) -> bool:
        """Whether attacks in this game take maneuvers (M&M); without them (the panels game)
        choosing the target makes the attack."""
        return bool(fight_words(self.game).get("maneuvers"))

    def _minion(self, actor: str) -> bool:
        who = self.game.state.actors.get(actor)
        return who is not None and who.role == "minion"

    def _option(self, key: str) -> dict[str, Any] | None:
        """The acting character's option ``key`` (see fight_view.option_key), if offered."""
        return next((o for o in self.game.fight_options() if _okey(o) == key), None)

    def _draw_targets(self, name: str, options: list[dict[str, Any]], width: int) -> None:
        """Who to target with the chosen option; for an attack, each with the exact odds."""
        o = next((x for x in options if _okey(x) == self._pick.get("key")), None)
        if o is None:
            self._pick = {}
            self._draw_actions(name, options, {}, width)
            return
        words = fight_words(self.game)
        what = o.get("attack_name") or action_name(words, o["action"])
        head = Text(f"{name}: {what} — at whom?", "bold " + ACCENT)
        if head.cell_len + 12 <= width:
            head.append("   Esc: back", DIM)
        self.query_one("#prompt-title", Static).update(head)
        entries: list[tuple[str, Text | str]] = []
        for t in o.get("targets") or []:
            line = Text(f"{len(entries) + 1}. " if len(entries) < 9 else "   ", DIM)
            line.append(str(t["name"]), "bold " + FG)
            if o.get("attack"):
                line.append("\n   ")
                line.append_text(odds_line(o, t, self._minion(t["id"]), width=width))
            entries.append((f"ftarget:{t['id']}", line))
        self.query_one(ActionMenu).set_entries(entries)

    def _draw_needs(self, name: str, options: list[dict[str, Any]]) -> None:
        """What an action needs named: the engine's ``choices`` when the option lists them
        (the panels game's power to use, item to pick up or drop), else the item to disarm,
        smash or drop (the holder's attacks), or the action to ready."""
        game = self.game
        o = next((x for x in options if _okey(x) == self._pick.get("key")), None)
        if o is None:
            self._pick = {}
            return
        what = str(o.get("needs") or "item")
        words = fight_words(game)
        entries: list[tuple[str, Text | str]] = []
        if o.get("choices") is not None:  # the engine lists what may be named
            head = Text(f"{name}: {action_name(words, o['action'])} — which {what}?",
                        "bold " + ACCENT)
            entries = [(f"fneed:{c['id']}", plain_prompt(str(c["name"]),
                                                        str(c.get("detail") or "")))
                       for c in o["choices"]]
        elif what == "item":
            who = str(self._pick.get("target") or (game.fight.encounter.acting
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
        self.query_one("#prompt-title", Static).update(head)
        if not entries:
            entries = [("fback", plain_prompt("Nothing to name: back", "", "esc"))]
        for i, (k, line) in enumerate(entries):
            if isinstance(line, Text):
                line.truncate(self._menu_width(), overflow="ellipsis")
                entries[i] = (k, Text(f"{i + 1}. ", DIM) + line if i < 9 else line)
        self.query_one(ActionMenu).set_entries(entries)

    def _draw_maneuvers(self, name: str, options: list[dict[str, Any]], width: int) -> None:
        """The chosen attack on its target, ready to go: Enter attacks; the maneuvers below
        change the trade (Enter on one steps it) and the odds shown follow them."""
        o = next((x for x in options if _okey(x) == self._pick.get("key")), None)
        target = self._pick.get("target")
        t = next((x for x in (o or {}).get("targets") or [] if x["id"] == target), None)
        if o is None or t is None:
            self._pick = {}
            self._draw_actions(name, options, {}, width)
            return
        words = fight_words(self.game)
        man: dict[str, int] = self._pick.setdefault("man", {})
        opt: dict[str, bool] = self._pick.setdefault("opt", {})
        head = Text(f"{name}: {o['attack_name']} → {t['name']}", "bold " + ACCENT)
        if head.cell_len + 12 <= width:
            head.append("   Esc: back", DIM)
        self.query_one("#prompt-title", Static).update(head)
        odds = self._odds_with(o, t, man)
        go = Text(f"{ICONS.get(o['action'], '⚔')} Go: ", "bold " + ACCENT)
        go.append(action_name(words, o["action"]), "bold " + ACCENT)
        go.append("  [enter]\n   ", DIM)
        go.append_text(odds_line(o, odds, self._minion(t["id"]), width=width))
        entries: list[tuple[str, Text | str]] = [("fgo", go), ("-", "")]
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
        menu = self.query_one(ActionMenu)
        keep = menu.highlighted
        menu.set_entries(entries)
        if self._pick.pop("keep", False) and keep is not None and keep < menu.option_count:
            menu.highlighted = keep

    def _odds_with(self, option: dict[str, Any], target: dict[str, Any],
                   maneuvers: dict[str, int]) -> dict[str, Any]:
        """The odds of ``option`` on ``target`` with the maneuvers declared (the engine's
        ``fight_odds``); the plain odds when there are none, or when a maneuver breaks its
        limits (acting then says why)."""
        if not any(maneuvers.values()):
            return target
        try:
            return {**target, **self.game.fight_odds(str(option["attack"]), str(target["id"]),
                                                     maneuvers)}
        except EngineError:
            return target

    def _fight_picked(self, kind: str, value: str) -> bool:
        """A fight menu entry was chosen; False if it is not one of the fight's."""
        game = self.game
        stage = self._pick.get("stage")
        if kind == "fchoice":
            self.perform(game.fight_choose, value)
        elif kind == "fdie":
            self.open_fight_die()
        elif kind == "fend":
            self.action_fight()
        elif kind == "step":
            self.perform(game.referee_step)
        elif kind == "run":
            self.perform(game.referee_run)
        elif kind == "take":
            acting = game.fight.encounter.acting if game.fight else None
            if acting:
                self.perform(game.take_over, acting)
        elif kind == "end":
            self.perform(game.end_turn)
        elif kind == "handback":
            acting = game.fight.encounter.acting if game.fight else None
            if acting:
                self.perform(game.take_over, acting, False)
        elif kind == "say":
            self._pick = {"stage": "say"}
            self._draw_prompt(open_dialogs=False)
        elif kind == "none" and stage == "said":
            text = str(self._pick.get("text", ""))
            self._pick = {}
            if not self.perform(game.describe, text):
                self._draw_prompt(open_dialogs=False)
        elif kind in ("fback", "back"):
            if stage == "maneuver" or (stage == "needs" and self._pick.get("target")):
                self._pick = {"stage": "target", "key": self._pick["key"]}
            elif stage in ("target", "said", "say", "needs"):
                self._pick = {}
            elif kind == "back":
                return stage is None
            self._draw_prompt(open_dialogs=False)
        elif kind == "fight":
            self._choose_fight_option(value)
        elif kind == "fsug":
            sugs = self._pick.get("sugs") or []
            sug = sugs[int(value)] if value.isdigit() and int(value) < len(sugs) else None
            if sug is not None:
                self._take_suggestion(sug)
        elif kind == "ftarget":
            o = self._option(str(self._pick.get("key", "")))
            if o is None:
                return True
            if o.get("attack") and not self._has_maneuvers():
                self._fight_act(o, value)
            elif o.get("attack"):
                self._pick = {"stage": "maneuver", "key": self._pick["key"], "target": value,
                              "said": self._pick.get("said", "")}
                self._draw_prompt(open_dialogs=False)
            elif o.get("needs"):
                self._pick = {"stage": "needs", "key": self._pick["key"], "target": value,
                              "said": self._pick.get("said", "")}
                self._draw_prompt(open_dialogs=False)
            else:
                self._fight_act(o, value)
        elif kind == "fneed":
            o = self._option(str(self._pick.get("key", "")))
            if o is not None:
                self._fight_act(o, self._pick.get("target"),
                                options={str(o.get("needs")): value})
        elif kind == "fman":
            man = self._pick.setdefault("man", {})
            man[value] = (int(man.get(value, 0)) + 1) % (MANEUVER_MAX + 1)
            self._pick["keep"] = True
            self._draw_prompt(open_dialogs=False)
        elif kind == "fopt":
            opt = self._pick.setdefault("opt", {})
            opt[value] = not opt.get(value)
            self._pick["keep"] = True
            self._draw_prompt(open_dialogs=False)
        elif kind == "fgo":
            o = self._option(str(self._pick.get("key", "")))
            if o is not None:
                self._fight_act(o, self._pick.get("target"),
                                {k: v for k, v in self._pick.get("man", {}).items() if v},
                                {k: v for k, v in self._pick.get("opt", {}).items() if v})
        else:
            return False
        return True

    def _take_suggestion(self, sug: dict[str, Any]) -> None:
        """A matched action: an attack goes to its maneuvers with the target it named (or to
        the targets), another action with its target is taken, one without asks for it."""
        key = _okey(sug)
        o = self._option(key)
        if o is None:
            return
        target = sug.get("target")
        said = str(self._pick.get("text") or "")
        if sug.get("options"):  # what the words named (a power): taken as it is
            self._fight_act(o, str(target) if target else None, options=dict(sug["options"]),
                            fiction=said)
        elif target and o.get("attack") and self._has_maneuvers():
            self._pick = {"stage": "maneuver", "key": key, "target": target, "said": said}
            self._draw_prompt(open_dialogs=False)
        elif target:
            self._fight_act(o, str(target), fiction=said)
        else:
            self._choose_fight_option(key)
            if self._pick:
                self._pick["said"] = said

    def _choose_fight_option(self, key: str) -> None:
        """An action from the list: ask for its target (an attack then for maneuvers), or
        take it now."""
        o = self._option(key)
        if o is None:
            return
        if not o.get("allowed", True):
            budget = dict(self.game.fight.encounter.budget) if self.game.fight else {}
            self.notify(why_not(o, budget), title="Not now", severity="warning", timeout=4)
            return
        if o.get("target") in ("foe", "ally") or o.get("attack"):
            targets = o.get("targets") or []
            if not targets:
                self.notify("No one to target.", title="Not now", severity="warning")
                return
            self._pick = {"stage": "target", "key": key}
            self._draw_prompt(open_dialogs=False)
            return
        if o.get("needs"):
            self._pick = {"stage": "needs", "key": key}
            self._draw_prompt(open_dialogs=False)
            return
        self._fight_act(o, None)

    def _fight_act(self, option: dict[str, Any], target: str | None,
                   maneuvers: dict[str, int] | None = None,
                   options: dict[str, Any] | None = None, fiction: str = "") -> None:
        """Take the action (with what the player said it does, into the journal); on a
        refusal, stay where the player was."""
        pick = dict(self._pick)
        said = fiction or str(pick.get("said") or "")
        self._pick = {}
        if not self.perform(self.game.fight_act, str(option["action"]), target,
                            option.get("attack"), maneuvers or {}, options or {}, None,
                            said):
            self._pick = pick

    def _fight_fiction(self, text: str) -> None:
        """The player said what the acting character does: offer the actions it matches
        (the engine's fight matcher), each with its target and odds."""
        try:
            sugs = [dict(x) for x in self.game.suggest_fight(text) if x.get("action")]
        except EngineError as e:
            self.notify(e.message, title="Not now", severity="error")
            return
        self._pick = {"stage": "said", "text": text, "sugs": sugs}
        self._draw_prompt(open_dialogs=False)

    def _draw_said(self, name: str, options: list[dict[str, Any]], width: int) -> None:
        """The actions what the player said matches, each with its target and odds."""
        words = fight_words(self.game)
        entries: list[tuple[str, Text | str]] = []
        for i, sug in enumerate(self._pick.get("sugs") or []):
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
            o = next((x for x in options if _okey(x) == _okey(sug)), None)
            t = next((x for x in (o or {}).get("targets") or []
                      if x["id"] == sug.get("target")), None)
            if o is not None and o.get("attack") and t is not None:
                line.append("\n   ")
                line.append_text(odds_line(o, t, self._minion(t["id"]), short=True))
            entries.append((f"fsug:{i}", line))
        if not entries:
            self.query_one("#prompt-title", Static).update(Text(
                "No fight action matched that.", "bold " + ACCENT))
        entries += self._turn_entries(name, True)
        self.query_one(ActionMenu).set_entries(entries)

    def open_fight_die(self) -> None:
        """Ask for the physical die the fight waits for."""

        def make() -> Dialog | None:
            need = self.game.fight_need
            if need is None:
                return None
            summary = Text(self.game.pending.message, "bold " + ACCENT)
            if side_dice(self.game) and "initiative" in str(need.get("what", "")):
                side = self._side_named(str(need.get("who", "")))
                summary.append(f"\nThe {side}' d6 for the new round: the higher side acts"
                               " first, both get the difference in panels (a tie: 2 each).", DIM)

            def submit(text: str) -> str | None:
                try:
                    faces = parse_faces(text)
                except EngineError as e:
                    return e.message
                if len(faces) != 1:
                    return "Type one number: the face the die shows."
                return self._submit(self.game.fight_die, faces[0])

            return DieDialog("Your die", f"a d{need.get('sides', 20)}", summary, submit)

        self.push_dialog(make)

    def action_fight(self) -> None:
        """Start a fight: pick the foes, then who (if anyone) is surprised. In a fight: call
        it off."""
        game = self.game
        if game.fighting:
            def answer(yes: bool | None) -> None:
                if yes:
                    self.perform(game.end_fight)

            self.push_dialog(lambda: ConfirmDialog(
                "Call off the fight", "End the fight now (the story moves on)? ^Z undoes it."),
                answer)
            return
        if game.flow.stage != "fiction":
            self.notify("Finish what is pending before a fight.", severity="warning")
            return
        request = game.fight_request
        if request is not None:  # a move started it: only the dice are missing
            self._ask_initiative(request["foes"], request["surprised"])
            return
        options = self._foe_options()
        if not options:
            self.notify("Nobody to fight: the pack has no foes and no NPC is here.",
                        severity="warning")
            return

        def picked(ids: list[str]) -> str | None:
            if not side_dice(game):
                self.call_after_refresh(self._ask_surprise, ids)
            elif game.state.dice_mode == "physical":  # no surprise round: the side d6s
                self.call_after_refresh(self._ask_initiative, ids, [])
            else:
                return self._submit(game.start_fight, ids, [])
            return None

        self.push_dialog(lambda: ChoiceDialog(
            "Fight!", "Who do you fight? (Space marks each, Enter goes on)", options, 1,
            len(options), picked, cancel_label="Cancel"))

    def _ask_surprise(self, foes: list[str]) -> None:
        game = self.game
        options = [{"id": "none", "label": "Nobody is surprised", "detail": ""},
                   {"id": "heroes", "label": "The heroes are caught by surprise",
                    "detail": "the foes get a surprise round"},
                   {"id": "villains", "label": "The foes are caught by surprise",
                    "detail": "the heroes get a surprise round"}]
        def start(ids: list[str]) -> str | None:
            surprised = [] if ids[0] == "none" else [ids[0]]
            if game.state.dice_mode == "physical":
                self.call_after_refresh(self._ask_initiative, foes, surprised)
                return None
            return self._submit(game.start_fight, foes, surprised)

        self.push_dialog(lambda: ChoiceDialog(
            "Surprise?", "Is anyone caught off guard?", options, 1, 1, start,
            cancel_label="Cancel"))

    def _ask_initiative(self, foes: list[str], surprised: list[str]) -> None:
        """Your own dice: a d20 of initiative for each hero, then each foe (a minion group
        rolls once), in the order of the list."""
        game = self.game
        if side_dice(game):
            self._ask_side_dice(foes)
            return
        labels = {o["id"]: o["label"] + (" (one roll for the group)"
                                         if "minions" in o.get("detail", "") else "")
                  for o in self._foe_options()}
        order = [game.state.actors[h].name for h in game.state.party
                 if h in game.state.actors] + [labels.get(f, f) for f in foes]
        summary = Text("Initiative: a d20 each, typed in this order: ", FG)
        summary.append(", ".join(order), "bold " + FG)

        def submit(text: str) -> str | None:
            try:
                faces = parse_faces(text)
            except EngineError as e:
                return e.message
            return self._submit(game.start_fight, foes, surprised, faces)

        self.push_dialog(lambda: DiceDialog("Initiative", "d20s", summary, submit))

    def _ask_side_dice(self, foes: list[str]) -> None:
        """Your own dice, side initiative: one d6 for the heroes, then one for the foes."""
        game = self.game
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
            return self._submit(game.start_fight, foes, [], faces)

        self.push_dialog(lambda: DiceDialog("Initiative", "two d6", summary, submit))

    def _foe_options(self) -> list[dict[str, Any]]:
        """Foes to pick from: the NPCs here who can fight, and the pack's villains and minion
        groups not yet in play (the engine's list)."""
        try:
            return self.game.foe_options()
        except EngineError as e:
            self.notify(e.message, title="The pack's characters", severity="error")
            return []

    # ------------------------------------------------------------------ choices

    @on(Button.Pressed, "#waiting")
    def _waiting(self) -> None:
        self.open_choice()

    def open_choice(self) -> None:
        """Open the dialog for the pending choice (choose N, pick one, questions, battle)."""
        self.push_dialog(self._choice_dialog)

    def _answer(self, value: Any) -> str | None:
        """The answer dialog's choice: accept, another, or (OWN, your words)."""
        if isinstance(value, tuple) and value[0] == OWN:
            return self._submit(self.game.answer_text, str(value[1]))
        return self._submit(self.game.choose, [str(value)])

    def _choice_dialog(self) -> Dialog | None:
        p = self.game.pending
        if p.kind in FLOW_KINDS:
            return None
        ctx = self._choice_context()
        # the core says which roll this choice follows, as it stands after any adjustment
        if p.context.get("roll"):
            ctx["rolled"] = p.context["roll"]
        if p.context.get("gm"):
            ctx["gm"] = p.context["gm"]
        gm = ctx.get("gm")
        if gm is not None:
            title = f"{self.game.pack.system.gm_title}: {gm['name']}"
        else:
            move = self.game.pack.moves.get(self.game.flow.move or "")
            title = move.name if move else ctx["move"]["name"] if "move" in ctx else "Choose"
        title = p.context.get("title") or ("Questions to ask" if p.kind == "questions" else title)
        message = self._recent_outcome(ctx)
        if p.kind == "answer":  # the GM offers an answer to an asked question
            return AnswerDialog(title, p.message, p.options, self._answer, before=message)
        message.append(p.message, "bold " + FG)
        return ChoiceDialog(title, message, p.options, p.min, p.max,
                            lambda ids: self._submit(self.game.choose, ids))

    def _choice_context(self) -> dict[str, Any]:
        """What led to the pending choice: the move in hand (its trigger and its outcome) and
        a GM move made since, if any. The roll comes from the core (``Prompt.context``).

        Only the move the flow is resolving counts; a choice outside a move (a GM move asked
        for with ^G, the end of a scene) looks only at the last action's events.
        """
        flow = self.game.flow
        out: dict[str, Any] = {}
        last_action = self.events[-1].get("a") if self.events else None
        for e in reversed(self.events):
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
        out = Text()
        now = ctx.get("rolled")
        if now is not None:
            tone = band_tones(self.game.pack, now["move"], now).get(now["band"], "mixed")
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
            out.append(f"◆ {self.game.pack.system.gm_title} — {gm['name']}: ", "bold " + PRIMARY)
            out.append(gm["text"], FG)
        if out:
            out.append("\n\n")
        return out

    def push_dialog(self, factory: Callable[[], Dialog | None],
                    on_result: Callable[[Any], None] | None = None) -> None:
        """Show the dialog ``factory`` makes now, or once this screen is on top again.

        Dialogs are shown one at a time and only from this screen (a dialog pushed while
        another screen is on top would hand its answer to that screen).
        """
        self._queued.append((factory, on_result))
        self._drain()

    def _drain(self) -> None:
        if self._dialog_open or self.app.screen is not self or not self._queued:
            return
        factory, on_result = self._queued.pop(0)
        dialog = factory()
        if dialog is None:
            self._drain()
            return
        self._dialog_open = True

        def done(result: Any) -> None:
            self._dialog_open = False
            self._draw_prompt(open_dialogs=False)
            self.refresh_bindings()
            if on_result is not None:
                on_result(result)
            self.call_after_refresh(self._drain)

        dialog.on_close = done
        self.app.push_screen(dialog)

    def on_screen_resume(self) -> None:
        """Back on top (a dialog, the help or the palette closed): show any queued dialog."""
        self.call_after_refresh(self._drain)

    # ------------------------------------------------------------------ table talk

    def action_undo(self) -> None:
        """Undo the last action."""
        if self.perform(self.game.undo):
            self.notify("Undone: back to before the last action.", timeout=3)

    def action_ask_gm(self) -> None:
        """"What happens next?" — a soft GM move."""
        self.perform(self.game.ask_gm)

    def action_party(self) -> None:
        """Hand the spotlight to another hero of the party (or add a hero)."""
        game = self.game
        if game.flow.stage != "fiction":
            self.notify("Finish what is pending before switching heroes.", severity="warning")
            return
        self.push_dialog(lambda: SwitchHeroDialog(
            game, lambda hid: self._submit(game.switch_hero, hid), self.action_add_hero))

    def action_party_solo(self) -> None:
        """F3 with one hero: the same picker (to add a hero)."""
        self.action_party()

    def action_add_hero(self) -> None:
        """Another hero joins the party (you play them too)."""
        game = self.game

        def submit(h: dict[str, Any]) -> str | None:
            error = self._submit(game.add_hero, h["name"], h["archetype"], h["stats"])
            if error is None:
                self.notify(f"{h['name']} joins the party: F3 switches to them.", timeout=4)
            return error

        self.push_dialog(lambda: AddHeroDialog(game.pack, submit,
                                               taken=[h.name for h in game.state.heroes]))

    def action_add_npc(self) -> None:
        """Bring an NPC into the story."""
        self.push_dialog(lambda: AddNpcDialog(
            self.game.pack.system.roles,
            lambda a: self._submit(self.game.add_npc, a[0], a[1], a[2])))

    def action_end_scene(self) -> None:
        """End the scene, asking which clearing actions were taken."""
        game = self.game
        if not game.state.scene.open:
            self.action_next_scene()
            return
        if game.flow.stage not in ("fiction", "move"):
            self.notify("Finish what is pending before ending the scene.", severity="warning")
            return
        options = [{"id": cid, "label": c.name, "detail": f"Clears if you: {c.clear_by}"}
                   for cid, c in game.pack.conditions.items()
                   if cid in game.state.hero.conditions]

        def submit(ids: list[str]) -> str | None:
            error = self.act(game.end_scene, ids)
            if error is None:
                self.call_after_refresh(self.action_next_scene)
            return error

        self.push_dialog(lambda: EndSceneDialog(options, list(game.state.scene.clearing), submit,
                                                has_conditions=bool(game.pack.conditions)))

    def action_oracle(self) -> None:
        """Ask the oracle a yes/no question."""
        game = self.game
        if game.flow.stage not in ("fiction", "move"):
            self.notify("Finish what is pending before asking the oracle.", severity="warning")
            return

        def submit(answer: tuple[str, str, str | None]) -> str | None:
            return self._submit(game.ask_oracle, *answer)

        self.push_dialog(lambda: OracleDialog(game.oracle_levels(), game.state.tension, submit,
                                              game.state.dice_mode))

    def action_roll_table(self) -> None:
        """Roll on one of the GM's tables: your own dice, or the GM's pick."""
        game = self.game
        if game.flow.stage not in ("fiction", "move"):
            self.notify("Finish what is pending before rolling on a table.", severity="warning")
            return

        def submit(answer: tuple[str, str | None]) -> str | None:
            return self._submit(game.roll_table, *answer)

        self.push_dialog(lambda: TableDialog(game.tables(), submit, game.state.dice_mode,
                                             game.pack.system.gm_title))

    def action_dice_mode(self) -> None:
        """Switch the campaign's dice: seeded, physical or mixed (undo switches back)."""
        game = self.game
        options = [{**o, "label": o["label"] + (" (now)" if o["id"] == game.state.dice_mode
                                                else "")} for o in DICE_MODE_OPTIONS]
        fight = game.fight
        if fight is not None:  # in a fight: who rolls for the referee's characters
            mine = fight.referee_dice == "physical"
            options.append({"id": "referee:" + ("seeded" if mine else "physical"),
                            "label": "The referee's dice: " + (
                                "let the campaign roll them" if mine else "you roll them too"),
                            "detail": "in this fight; now: " + ("yours" if mine else "seeded")})

        def submit(ids: list[str]) -> str | None:
            if ids[0].startswith("referee:"):
                return self._submit(game.set_fight_dice, ids[0].partition(":")[2])
            if ids[0] != game.state.dice_mode:
                return self._submit(game.set_dice_mode, ids[0])
            return None

        self.push_dialog(lambda: ChoiceDialog(
            "Dice", "Who rolls from now on? (Ctrl+Z switches back)", options, 1, 1, submit))

    def action_next_scene(self) -> None:
        """The GM proposes the next scene; play it, ask for another, or write your own."""
        game = self.game
        if game.flow.stage not in ("fiction", "move"):
            self.notify("Finish what is pending before a new scene.", severity="warning")
            return

        def play(p: dict[str, Any]) -> str | None:
            return self._submit(game.start_scene, p["title"], p["location"], p["stakes"],
                                p["present"], p["opening"])

        names = {n.id: n.name for n in game.state.npcs.values()}
        self.push_dialog(lambda: FramedSceneDialog(
            game.state.scene.number + 1, game.propose_scene, names, play,
            lambda: self.call_after_refresh(self.write_scene),
            gm_title=game.pack.system.gm_title).roll_the_place(
                game.place_die(), lambda reroll, place: game.propose_scene(reroll, place)))

    def write_scene(self) -> None:
        """Frame the next scene yourself."""
        game = self.game
        npcs = [(n.id, f"{n.name} ({n.role})", n.present) for n in game.state.npcs.values()]

        def submit(a: dict[str, Any]) -> str | None:
            return self._submit(game.start_scene, a["title"], a["location"], a["stakes"],
                                a["present"])

        self.push_dialog(lambda: SceneDialog(game.state.scene.number + 1, npcs, submit))

    def action_end_session(self) -> None:
        """The end-of-session move, after a confirmation."""
        if self.game.flow.stage not in ("fiction", "move"):
            self.notify("Finish what is pending before ending the session.", severity="warning")
            return

        def answer(yes: bool | None) -> None:
            if yes:
                self.perform(self.game.end_session)

        self.push_dialog(lambda: ConfirmDialog(
            "End the session", "End the session now? The scene closes and the end-of-session"
            " move follows."), answer)

    def action_edit_sheet(self) -> None:
        """Fix the sheet by hand (a condition, a stat, a track, Influence, a clock...): one
        journaled action that ^Z undoes; between moves only."""
        game = self.game
        if game.flow.stage != "fiction":
            self.notify("Edits are made between moves: finish what is pending first (or ^Z).",
                        severity="warning")
            return

        def submit(a: tuple[str, str, str, int | bool, str]) -> str | None:
            return self._submit(game.edit, *a)

        self.push_dialog(lambda: EditDialog(game.edit_subjects(), game.editable, submit,
                                            who=game.state.acting))

    def action_ledger(self) -> None:
        """The story ledger: threads, characters, facts, threats (each change undoable)."""
        self.app.push_screen(LedgerScreen(self.game, self._submit))

    def set_presence(self, npc_id: str, present: bool) -> None:
        """An NPC enters or leaves the scene."""
        self.perform(self.game.set_presence, npc_id, present)

    def took_clearing_action(self, condition: str) -> None:
        """Note a clearing action taken this scene."""
        self.perform(self.game.took_clearing_action, condition)

    def action_toggle_sheet(self) -> None:
        """Show or hide the character sheet."""
        shown = self.query_one("#sidebar").display
        self.set_class(shown, "sheet-hidden")
        self.set_class(not shown, "sheet-shown")

    def action_recap(self) -> None:
        """Show "Previously..." again (or hide it)."""
        panel = self.query_one(RecapPanel)
        if panel.shown:
            panel.dismiss()
        elif not panel.show_recap(self.events, self.game.state, self.game.pack):
            self.notify("Nothing to recap yet.", timeout=3)

    def action_close_recap(self) -> None:
        """Esc: close "Previously..." (in a fight, also back from saying what you do)."""
        self.query_one(RecapPanel).dismiss()
        if self._pick.get("stage") == "say" and self.game.pending.kind == "fight":
            self._pick = {}
            self._draw_prompt(open_dialogs=False)

    def action_leave(self) -> None:
        """Back to the campaign list (everything is saved)."""
        self.dismiss(None)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Show only the keys that do something now."""
        stage = self.game.flow.stage
        free = stage in ("fiction", "move")
        if action in ("moves", "ask_gm", "end_session", "oracle"):
            return free
        if action in ("party", "party_solo"):
            # a party shows F3 up front; one hero keeps today's key bar (F3 still adds a hero)
            solo = len(self.game.state.party) < 2
            return stage == "fiction" and solo == (action == "party_solo")
        if action == "end_scene":
            return free and self.game.state.scene.open
        if action == "next_scene":
            return free
        if action == "edit_sheet":
            return stage == "fiction"
        if action == "fight":
            return self.has_fights and (self.game.fighting or stage == "fiction")
        return True


"""Fight actions that need something named, and the option that names it (an item is the
target's, or with no target the actor's)."""


def stat_detail(label: str, value: int) -> str:
    """What a stat adds to the roll: "+1", or "+7 (Strength 25)" when the ruleset adds a
    modifier of the stat's value (the panels game's skill modifier)."""
    extra = label.partition(" ")[2]
    return f"{value:+d}" + (f" ({label})" if extra else "")


def _okey(option: dict[str, Any]) -> str:
    """An option's key (fight_view.option_key)."""
    return option_key(option)
