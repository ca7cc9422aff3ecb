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
from engine.tui.messages import MenuPicked, RollCommand
from engine.tui.screens.answer import OWN, AnswerDialog
from engine.tui.screens.dialogs import (
    AddNpcDialog,
    ChoiceDialog,
    ConfirmDialog,
    Dialog,
    DiceDialog,
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

if TYPE_CHECKING:
    from engine.tui.app import SidekickApp

log = logging.getLogger(__name__)

P = ParamSpec("P")
"""The parameters of a Game action run through ``act``."""

FLOW_KINDS = ("fiction", "move", "target", "roll", "adjust")
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
        self.query_one(Sheet).show(self.game)
        self._draw_topbar()
        self._draw_prompt(open_dialogs)
        self.refresh_bindings()

    def _draw_topbar(self) -> None:
        st = self.game.state
        hero = st.hero
        out = Text()
        out.append(f" {st.name} ", "bold #1a1b26 on #bb9af7")
        out.append("  ")
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
            if who:  # in a party the box says whose turn it is
                box.placeholder = f"Describe what {game.state.hero.name} does, then Enter"
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
        if fn == self.game.undo:
            self.events = [e for e in self.events if e.get("a", 0) < before]
            self._names_seen = min(self._names_seen, len(self.events))
            self.query_one(Journal).undo_after(self.events[-1]["n"] if self.events else 0)
        else:
            self.events.extend(new)
            self.query_one(Journal).add_events(self._spotlit(new, acting, party),
                                               self._npc_names())
        self._refresh_all(open_dialogs=False)
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
        """Open the choice dialog once the result of the action is on screen."""
        if self.game.pending.kind not in FLOW_KINDS:
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
            options = [{"id": s, "label": game.pack.stats[s].name if s in game.pack.stats else s,
                        "detail": f"{game.state.hero.stats.get(s, 0):+d}"} for s in choices]
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
        self.push_dialog(lambda: ChoiceDialog(
            "Dice", "Who rolls from now on? (Ctrl+Z switches back)", options, 1, 1,
            lambda ids: self._submit(game.set_dice_mode, ids[0])
            if ids[0] != game.state.dice_mode else None))

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
        """Esc: close "Previously..."."""
        self.query_one(RecapPanel).dismiss()

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
        return True
