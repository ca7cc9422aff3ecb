"""Pilot tests of the title screen, the help screen and error display."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from textual.widgets import DataTable

from engine.store import BACKUP_FILE, CAMPAIGN_FILE, CampaignStore
from engine.tui.app import SidekickApp
from engine.tui.screens.dialogs import ConfirmDialog, MessageDialog
from engine.tui.screens.help import HelpScreen
from engine.tui.screens.play import PlayScreen
from engine.tui.screens.title import TitleScreen
from tests.tui.conftest import SIZE, settle

App = Callable[..., SidekickApp]


async def test_empty_folder_shows_a_friendly_start(app_for: App) -> None:
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, TitleScreen)
        assert not screen.query_one(DataTable).display
        assert "Your first story starts here" in str(screen.query_one("#empty").render())
        assert screen.check_action("resume", ()) is False  # nothing to resume: key hidden


async def test_lists_campaigns(make_campaign: Callable[..., str], app_for: App) -> None:
    make_campaign("Night Shift")
    make_campaign("Glass City", hero="Vesper", archetype="stitchwork")
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        table = app.screen.query_one(DataTable)
        assert table.row_count == 2
        rows = [[str(c) for c in table.get_row_at(i)] for i in range(2)]
        names = {r[0] for r in rows}
        assert names == {"Night Shift", "Glass City"}
        row = next(r for r in rows if r[0] == "Glass City")
        assert row[1:] == ["Masks: A New Generation", "Vesper", "1. Opening scene", "just now"]


async def test_delete_asks_first(make_campaign: Callable[..., str], app_for: App, saves: Path
                                 ) -> None:
    cid = make_campaign()
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("d")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("n")  # keep it
        await settle(pilot)
        assert (saves / cid).is_dir()
        await pilot.press("d")
        await settle(pilot)
        await pilot.press("enter")  # the focused button is the safe one: keep
        await settle(pilot)
        assert (saves / cid).is_dir()
        await pilot.press("d")
        await settle(pilot)
        await pilot.press("y")
        await settle(pilot)
        assert not (saves / cid).exists()
        assert isinstance(app.screen, TitleScreen)
        assert "Your first story starts here" in str(app.screen.query_one("#empty").render())


async def test_locked_campaign_shows_an_error(make_campaign: Callable[..., str], app_for: App,
                                              saves: Path) -> None:
    cid = make_campaign()
    store = CampaignStore.open(saves, cid)  # someone else has it open
    try:
        app = app_for()
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            await pilot.press("enter")
            await settle(pilot)
            dialog = app.screen
            assert isinstance(dialog, MessageDialog)
            # nothing failed: the campaign is busy (this used to be titled "Save error")
            assert dialog.dialog_title == "Campaign in use"
            assert "already open in this Sidekick process" in dialog.message
            await pilot.press("enter")
            await settle(pilot)
            assert isinstance(app.screen, TitleScreen)
    finally:
        store.close()


async def test_damaged_save_is_listed_and_explained(make_campaign: Callable[..., str],
                                                    app_for: App, saves: Path) -> None:
    cid = make_campaign("Broken Dreams")
    make_campaign("Fine One")
    (saves / cid / CAMPAIGN_FILE).write_text("{ this is not json", encoding="utf-8")
    (saves / cid / BACKUP_FILE).write_text("[]", encoding="utf-8")
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, TitleScreen)
        table = screen.query_one(DataTable)
        assert table.row_count == 2
        damaged = next(i for i, c in enumerate(screen.campaigns) if c.id == cid)
        assert str(table.get_row_at(damaged)[0]).startswith("⚠")
        table.move_cursor(row=damaged)
        await settle(pilot)
        assert "cannot be read" in str(screen.query_one("#details").render())
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, MessageDialog)
        assert CAMPAIGN_FILE in app.screen.message


async def test_campaign_for_missing_content(make_campaign: Callable[..., str], saves: Path,
                                            tmp_path: Path) -> None:
    cid = make_campaign()
    broken = tmp_path / "content" / "masks"
    broken.mkdir(parents=True)
    (broken / "system.yaml").write_text("id: masks\nname: [unclosed\n", encoding="utf-8")
    app = SidekickApp(saves_dir=saves, content_dirs=[tmp_path / "content"], campaign=cid)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, MessageDialog)
        assert dialog.dialog_title == "Content error"
        assert "system.yaml" in dialog.message
    assert not app.games


async def test_campaign_option_opens_play(make_campaign: Callable[..., str], app_for: App
                                          ) -> None:
    app = app_for(make_campaign())
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, PlayScreen)
        await pilot.press("f10")
        await settle(pilot)
        assert isinstance(app.screen, TitleScreen)
        assert not app.games  # leaving released the campaign


async def test_help_screen(app_for: App, make_campaign: Callable[..., str]) -> None:
    app = app_for(make_campaign())
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("f1")
        await settle(pilot)
        assert isinstance(app.screen, HelpScreen)
        source = app.screen.query_one("Markdown").source  # type: ignore[attr-defined]
        for key in ("Ctrl+Z", "Ctrl+G", "F5", "F7", "Ctrl+P", "How to play"):
            assert key in source
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, PlayScreen)


async def test_quit_from_title(app_for: App) -> None:
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("q")
        await settle(pilot)
    assert app.return_code == 0


async def test_palette_on_title(make_campaign: Callable[..., str], app_for: App) -> None:
    make_campaign("Night Shift")
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+p")
        await settle(pilot)
        await pilot.press(*"resume")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, PlayScreen)


async def test_folders_without_campaign_files_are_not_listed(make_campaign: Callable[..., str],
                                                            app_for: App, saves: Path) -> None:
    make_campaign("Night Shift")
    documents = saves / "documents"
    documents.mkdir()
    (documents / "taxes.pdf").write_bytes(b"%PDF")
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, TitleScreen)
        assert [c.id for c in screen.campaigns] == ["night-shift"]
        assert screen.check_action("recover", ()) is False  # healthy: nothing to recover
    assert (documents / "taxes.pdf").read_bytes() == b"%PDF"


async def test_recover_from_the_title_screen(make_campaign: Callable[..., str], app_for: App,
                                             saves: Path) -> None:
    cid = make_campaign("Broken Log")
    chunk = saves / cid / "log" / "000001.json"
    chunk.write_text("{ torn", encoding="utf-8")
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, TitleScreen)
        assert str(screen.query_one(DataTable).get_row_at(0)[0]).startswith("⚠")
        details = str(screen.query_one("#details").render())
        assert "R to recover" in details and "resumes from campaign.json" in details
        assert screen.check_action("recover", ()) is True
        assert "Recover" in str(screen.query_one("KeyBar").render())  # the key is shown
        await pilot.press("r")
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, ConfirmDialog) and dialog.dialog_title == "Recover campaign"
        assert "Nothing is deleted" in dialog.question
        await pilot.press("y")
        await settle(pilot)
        assert isinstance(app.screen, TitleScreen)
        assert app.screen.campaigns[0].error is None
        assert not str(app.screen.query_one(DataTable).get_row_at(0)[0]).startswith("⚠")
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, PlayScreen)
    aside = [p for p in (saves / cid / "log").iterdir() if ".damaged-" in p.name]
    assert [p.read_text(encoding="utf-8") for p in aside] == ["{ torn"]


async def test_delete_leaves_the_players_own_files(make_campaign: Callable[..., str],
                                                   app_for: App, saves: Path) -> None:
    cid = make_campaign()
    (saves / cid / "my-notes.txt").write_text("mine", encoding="utf-8")
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("d")
        await settle(pilot)
        await pilot.press("y")
        await settle(pilot)
        assert isinstance(app.screen, TitleScreen)
        assert app.screen.campaigns == []
    assert sorted(p.name for p in (saves / cid).iterdir()) == ["my-notes.txt"]


def test_the_apps_new_ids_skip_links_and_fit_the_byte_limit(saves: Path) -> None:
    app = SidekickApp(saves_dir=saves)
    (saves / "night-shift").symlink_to(saves / "nowhere")  # a dangling link takes the name too
    assert app.unique_id("Night Shift") == "night-shift-2"
    gothic = "𐌰" * 60  # 4 bytes a letter: the id is cut to the byte limit
    first = app.unique_id(gothic)
    (saves / first).mkdir()
    second = app.unique_id(gothic)
    assert second.endswith("-2") and len(second.encode("utf-8")) <= 200
    CampaignStore.create(saves, second, {}, {"event_no": 0}).close()  # a valid id


async def test_long_names_leave_every_column_in_view(make_campaign: Callable[..., str],
                                                     app_for: App) -> None:
    make_campaign("Last Light of the Harbour District Chronicles",
                  hero="Justinia Marchetti-Lowell")
    app = app_for()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        table = app.screen.query_one(DataTable)
        row = [str(c) for c in table.get_row_at(0)]
        assert row[0].startswith("Last Light of the") and row[0].endswith("…")
        assert row[-1] != "" and "…" not in row[-1]  # last played, whole
        used = sum(col.get_render_width(table) for col in table.columns.values())
        assert used <= table.size.width
        await pilot.resize_terminal(80, 24)
        await settle(pilot)
        used = sum(col.get_render_width(table) for col in table.columns.values())
        assert used <= table.size.width


async def test_a_missing_campaign_is_said_so(app_for: App) -> None:
    app = app_for("nope")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, MessageDialog)
        assert dialog.dialog_title == "No such campaign"
        assert "No campaign 'nope'" in dialog.message
