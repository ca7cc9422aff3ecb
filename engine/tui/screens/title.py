"""The title screen: saved campaigns to resume or delete, a new one to start."""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Static

from engine.errors import EngineError
from engine.store import CampaignSummary, delete_campaign, list_campaigns
from engine.tui.commands import TitleCommands
from engine.tui.host import AppHost, TitleHost
from engine.tui.text import ACCENT, BAD, DIM, FG, GOOD, PRIMARY, clip, when
from engine.tui.widgets.keybar import KeyBar

LOGO = [
    "╔═╗╦╔╦╗╔═╗╦╔═╦╔═╗╦╔═",
    "╚═╗║ ║║║╣ ╠╩╗║║  ╠╩╗",
    "╚═╝╩═╩╝╚═╝╩ ╩╩╚═╝╩ ╩",
]
_LOGO_COLOURS = ["#bb9af7", "#a3a6f7", "#8ca4f7", "#7aa2f7", "#7dcfff", "#9ece6a", "#e0af68",
                 "#ff9e64"]
_LETTER_WIDTHS = [3, 1, 3, 3, 3, 1, 3, 3]


def logo_text() -> Text:
    """The SIDEKICK logo, one colour per letter."""
    out = Text(justify="center")
    for i, line in enumerate(LOGO):
        pos = 0
        for width, colour in zip(_LETTER_WIDTHS, _LOGO_COLOURS, strict=True):
            out.append(line[pos:pos + width], "bold " + colour)
            pos += width
        if i < len(LOGO) - 1:
            out.append("\n")
    return out


class TitleScreen(Screen[None]):
    """Campaign list with resume, new, delete, help and quit."""

    COMMANDS = {TitleCommands}

    BINDINGS = [
        Binding("enter", "resume", "Resume", priority=True),
        Binding("n", "new", "New campaign"),
        Binding("d,delete", "delete", "Delete"),
        Binding("r", "recover", "Recover"),
        Binding("f1,question_mark", "app.help", "Help"),
        Binding("q", "app.quit", "Quit"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.campaigns: list[CampaignSummary] = []

    @property
    def sidekick(self) -> AppHost:
        """The app, typed."""
        return cast(AppHost, self.app)  # Textual types every screen's app as App[object]

    def compose(self) -> ComposeResult:
        """Logo, tagline, the list (or a friendly start), details, footer."""
        with Vertical(id="title-box"):
            yield Static(logo_text(), id="logo")
            yield Static(Text("solo tabletop stories · you play, the engine runs the table",
                              style=DIM, justify="center"), id="tagline")
            yield DataTable(id="campaigns", cursor_type="row", zebra_stripes=True)
            yield Static(id="empty")
            yield Static(id="details")
        yield KeyBar()

    def on_mount(self) -> None:
        """Fill the list."""
        self.reload()

    def on_screen_resume(self) -> None:
        """Back from play or a dialog: the list may have changed."""
        self.reload()

    def reload(self, select: str | None = None) -> None:
        """Read the save folder again."""
        table = self.query_one(DataTable)
        current = select or self.selected_id()
        try:
            self.campaigns = list_campaigns(self.sidekick.saves_dir)
        except (OSError, EngineError) as e:
            self.campaigns = []
            self.notify(str(e), title="Cannot read the save folder", severity="error")
        self._fill(table)
        empty = not self.campaigns
        table.display = not empty
        self.query_one("#empty").display = empty
        self.query_one("#details").display = not empty
        if empty:
            self.query_one("#empty", Static).update(self._welcome())
        else:
            ids = [c.id for c in self.campaigns]
            table.move_cursor(row=ids.index(current) if current in ids else 0)
            table.focus()
            self._show_details()
        self.refresh_bindings()

    def _fill(self, table: DataTable[object]) -> None:
        """The table's rows, each column fitted to the screen's width (the columns made
        anew: a column never narrows by itself)."""
        table.clear(columns=True)
        for head, key in zip(_HEADS, ("name", "system", "hero", "scene", "played"),
                             strict=True):
            table.add_column(head, key=key)
        now = self.sidekick.clock()
        rows = []
        for c in self.campaigns:
            played = when(c.last_played, now) if c.last_played else "—"
            rows.append((f"⚠ {c.name}" if c.error else c.name,
                         "damaged" if c.error else c.system_name or c.system,
                         c.hero, c.scene, played))
        widths = fit_columns(rows, self.size.width - _TABLE_FRAME)
        for c, row in zip(self.campaigns, rows, strict=True):
            cells = [clip(text, w) for text, w in zip(row, widths, strict=True)]
            name = Text(cells[0], "bold " + (BAD if c.error else FG))
            system = Text(cells[1], BAD if c.error else DIM)
            table.add_row(name, system, *cells[2:], key=c.id)

    def on_resize(self) -> None:
        """Fit the columns to the new width."""
        if self.campaigns:
            table = self.query_one(DataTable)
            keep = table.cursor_row
            self._fill(table)
            table.move_cursor(row=keep)

    def _welcome(self) -> Text:
        out = Text(justify="center")
        out.append("Your first story starts here.\n\n", "bold " + ACCENT)
        out.append("Press ", FG)
        out.append(" N ", "bold #1a1b26 on " + GOOD)
        out.append(" to create a campaign: pick a game, build your hero,\n", FG)
        out.append("name the people in their life, and play your first scene.\n\n", FG)
        out.append(f"Saves go to {self.sidekick.saves_dir}", DIM)
        return out

    def selected_id(self) -> str | None:
        """The id of the highlighted campaign."""
        table = self.query_one(DataTable)
        if not self.campaigns or table.cursor_row is None:
            return None
        row = table.cursor_row
        return self.campaigns[row].id if 0 <= row < len(self.campaigns) else None

    def _summary(self, cid: str | None) -> CampaignSummary | None:
        return next((c for c in self.campaigns if c.id == cid), None)

    @on(DataTable.RowHighlighted)
    def _show_details(self) -> None:
        c = self._summary(self.selected_id())
        details = self.query_one("#details", Static)
        self.refresh_bindings()  # R (recover) is offered only on a damaged campaign
        if c is None:
            details.update("")
            return
        out = Text()
        if c.error:
            out.append("This campaign cannot be read.\n", "bold " + BAD)
            out.append(c.error + "\n", FG)
            if c.recovery:
                out.append("R to recover: ", "bold " + ACCENT)
                out.append(c.recovery, DIM)
            else:
                out.append("Sidekick cannot recover it by itself. D deletes its Sidekick files "
                           "(anything else in the folder is left alone).", DIM)
        else:
            out.append(c.name, "bold " + PRIMARY)
            out.append(f"  ·  {c.system_name or c.system}\n", DIM)
            out.append(c.hero or "(no hero)", "bold " + ACCENT)
            out.append(f"  ·  {c.scene}\n", FG)
            out.append(f"folder {c.id} in the save folder · Enter to resume · D to delete", DIM)
        details.update(out)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Resume and delete only when a campaign is highlighted; recover only a damaged one."""
        if action in ("resume", "delete"):
            return bool(self.campaigns)
        if action == "recover":
            c = self._summary(self.selected_id())
            return bool(c and c.error and c.recovery)
        return True

    def action_resume(self) -> None:
        """Open the highlighted campaign."""
        cid = self.selected_id()
        if cid:
            self.resume(cid)

    def resume(self, cid: str) -> None:
        """Open campaign ``cid``."""
        self.sidekick.open_campaign(cid)

    def action_new(self) -> None:
        """Start a new campaign."""
        self.sidekick.start_new_campaign()

    def action_delete(self) -> None:
        """Delete the highlighted campaign, after asking."""
        cid = self.selected_id()
        if cid:
            self.confirm_delete(cid)

    def confirm_delete(self, cid: str) -> None:
        """Ask, then delete campaign ``cid``."""
        from engine.tui.screens.dialogs import ConfirmDialog

        c = self._summary(cid)
        name = c.name if c else cid

        def answer(yes: bool | None) -> None:
            if not yes:
                return
            try:
                done = delete_campaign(self.sidekick.saves_dir, cid)
            except EngineError as e:
                self.sidekick.show_error(e)
                return
            if done == f"Deleted campaign '{cid}'.":
                self.notify(f"Deleted {name}.", timeout=3)
            else:  # the player's own files were left in the folder: say which
                self.notify(done, title=f"Deleted {name}", timeout=10)
            self.reload()

        self.app.push_screen(ConfirmDialog(
            "Delete campaign", f"Delete “{name}” and its whole journal? This cannot be undone.",
            yes="Delete", no="Keep it", danger=True), answer)

    def action_recover(self) -> None:
        """Recover the highlighted damaged campaign, after explaining what will happen."""
        cid = self.selected_id()
        if cid:
            self.confirm_recover(cid)

    def confirm_recover(self, cid: str) -> None:
        """Explain what recovering ``cid`` does, then do it."""
        from engine.tui.screens.dialogs import ConfirmDialog

        c = self._summary(cid)
        if c is None or not c.error or not c.recovery:
            return

        def answer(yes: bool | None) -> None:
            if not yes:
                return
            from engine.campaigns import recover_campaign

            try:
                done = recover_campaign(self.sidekick.saves_dir, cid,
                                        self.sidekick.content_dirs)
            except EngineError as e:
                self.sidekick.show_error(e)
                self.reload()
                return
            self.notify(done, title=f"Recovered {c.name}", timeout=10)
            self.reload()

        self.app.push_screen(ConfirmDialog(
            "Recover campaign",
            f"{c.error}\n\n{c.recovery}\n\nNothing is deleted: damaged files keep their "
            f"content under a new name in the campaign's folder.",
            yes="Recover", no="Not now"), answer)


_HEADS = ("Campaign", "System", "Hero", "Scene", "Last played")
_TABLE_FRAME = 16
"""Cells the title screen's table frame and its cells' padding take from the screen."""
_SHRINK = ((3, 12), (2, 12), (1, 12), (0, 12), (3, 6), (2, 6), (1, 6))
"""The columns given up, in order, when the rows do not fit, each down to so many cells:
the scene, the hero and the system before the campaign's name (the last played column is
always whole)."""


def fit_columns(rows: Sequence[Sequence[str]], room: int) -> list[int]:
    """Widths for the columns of ``rows`` (headers included) that fit in ``room`` cells:
    each as wide as its widest cell, then cut down in the order of ``_SHRINK``."""
    widths = [max([len(h)] + [len(r[i]) for r in rows]) for i, h in enumerate(_HEADS)]
    for i, floor in _SHRINK:
        over = sum(widths) - room
        if over <= 0:
            break
        widths[i] = max(min(widths[i], floor), widths[i] - over)
    return widths


def _is_host(screen: TitleScreen) -> TitleHost:
    """mypy checks here that the screen is what its command palette takes it for."""
    return screen
