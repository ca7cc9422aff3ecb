"""Save-folder safety: what is listed and deleted, planted links and FIFOs, recovery of
damaged campaigns, interrupted creates and deletes, readable ids, reading without the lock
(issue 8 items 1-4, 21, 22; issue 15 gap 6)."""

from __future__ import annotations

import json
import os
import signal
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine.store as store_module
from engine.campaigns import close_game, new_game, open_game, recover_campaign
from engine.cli import main
from engine.errors import IllegalAction, SaveError
from engine.journal import render
from engine.store import (
    BACKUP_FILE,
    CAMPAIGN_FILE,
    LOCK_FILE,
    MAX_ID_BYTES,
    MAX_ID_LENGTH,
    CampaignInUse,
    CampaignStore,
    delete_campaign,
    list_campaigns,
    slugify,
    sweep_saves,
    unique_id,
)

PAD = "x" * 300


# --------------------------------------------------------------------------- a tiny event model


def initial_state() -> dict[str, Any]:
    return {"event_no": 0, "total": 0, "last_a": 0, "pad": PAD}


def replay(state: dict[str, Any], events: list[dict[str, Any]]) -> dict[str, Any]:
    for e in events:
        state = {**state, "event_no": e["n"], "total": state["total"] + e["v"],
                 "last_a": e["a"]}
    return state


def make_meta(state: dict[str, Any], old: dict[str, Any]) -> dict[str, Any]:
    return {**old, "name": old.get("name", "Rebuilt"), "total": state["total"]}


class Camp:
    """A store plus the model of what it should hold."""

    def __init__(self, store: CampaignStore) -> None:
        self.store = store
        self.state = store.state
        self.events: list[dict[str, Any]] = []
        self.before: dict[int, dict[str, Any]] = {}

    def act(self, count: int = 2, new_chunk: bool = False) -> None:
        a = self.state["last_a"] + 1
        events = [{"n": self.state["event_no"] + i + 1, "a": a, "v": 1} for i in range(count)]
        self.before[a] = self.state
        self.state = replay(self.state, events)
        self.store.save(events, self.state, new_chunk=new_chunk)
        self.events += events

    def undo(self) -> None:
        a = self.state["last_a"]
        base, events = self.store.base_and_events_for_action(a)
        target = replay(base, events)
        assert target == self.before[a]
        self.store.truncate_from_action(a, target)
        self.state = target
        self.events = [e for e in self.events if e["a"] < a]


@pytest.fixture
def saves(tmp_path: Path) -> Path:
    return tmp_path / "saves"


def make(saves: Path, cid: str = "camp", actions: int = 0, chunks: int = 1) -> Camp:
    camp = Camp(CampaignStore.create(saves, cid, {"name": cid.title()}, initial_state()))
    for i in range(actions):
        camp.act(2, new_chunk=chunks > 1 and i > 0 and i < chunks)
    return camp


def snapshot(folder: Path) -> dict[str, bytes | str]:
    """Every entry under ``folder`` (links not followed) with its bytes or kind."""
    out: dict[str, bytes | str] = {}
    for root, dirs, files in os.walk(folder):
        for name in dirs + files:
            path = Path(root) / name
            rel = str(path.relative_to(folder))
            if path.is_symlink():
                out[rel] = "link:" + os.readlink(path)
            elif path.is_dir():
                out[rel] = "dir"
            elif path.is_file():
                out[rel] = path.read_bytes()
            else:
                out[rel] = "special"
    return out


@contextmanager
def no_hang(seconds: int = 5) -> Iterator[None]:
    """Fail (instead of hanging forever) if the block takes longer than ``seconds``."""

    def boom(signum: int, frame: Any) -> None:
        raise TimeoutError("hung")

    old = signal.signal(signal.SIGALRM, boom)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def rebuild(base: dict[str, Any], events: list[dict[str, Any]]) -> dict[str, Any]:
    return replay(base, events)


# --------------------------------------------------------------------------- item 1: list/delete


def test_only_folders_with_campaign_files_are_listed(saves: Path, tmp_path: Path) -> None:
    make(saves, "real").store.close()
    documents = saves / "documents"
    documents.mkdir()
    (documents / "taxes.pdf").write_bytes(b"%PDF")
    (saves / "empty").mkdir()
    (saves / "notes.txt").write_text("hi", encoding="utf-8")
    elsewhere = tmp_path / "elsewhere"
    make(elsewhere, "linked").store.close()
    (saves / "linked").symlink_to(elsewhere / "linked")
    assert [c.id for c in list_campaigns(saves)] == ["real"]


def test_delete_refuses_a_folder_without_campaign_files(saves: Path) -> None:
    make(saves, "real").store.close()
    documents = saves / "documents"
    (documents / "sub").mkdir(parents=True)
    (documents / "taxes.pdf").write_bytes(b"%PDF")
    before = snapshot(documents)
    with pytest.raises(SaveError, match=r"holds no Sidekick campaign.*left alone"):
        delete_campaign(saves, "documents")
    assert snapshot(documents) == before


def test_delete_refuses_a_linked_folder(saves: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    make(elsewhere, "target").store.close()
    before = snapshot(elsewhere)
    saves.mkdir()
    (saves / "camp").symlink_to(elsewhere / "target")
    with pytest.raises(SaveError, match="symbolic link"):
        delete_campaign(saves, "camp")
    assert snapshot(elsewhere) == before
    assert (saves / "camp").is_symlink()


def test_delete_removes_only_known_files_and_says_what_it_left(saves: Path) -> None:
    camp = make(saves, actions=3, chunks=2)
    camp.store.close()
    folder = saves / "camp"
    (folder / "my-notes.txt").write_text("mine", encoding="utf-8")
    (folder / "log" / "sketch.png").write_bytes(b"png")
    (folder / "pictures").mkdir()
    (folder / "pictures" / "a.jpg").write_bytes(b"jpg")
    (folder / "log" / "000001.json.damaged-20260101T000000Z").write_text("x", encoding="utf-8")
    message = delete_campaign(saves, "camp")
    assert "Deleted campaign 'camp'" in message
    for name in ("my-notes.txt", "log/sketch.png", "pictures"):
        assert name in message
    assert snapshot(folder) == {
        "my-notes.txt": b"mine", "log": "dir", "log/sketch.png": b"png",
        "pictures": "dir", "pictures/a.jpg": b"jpg"}
    assert list_campaigns(saves) == []  # no campaign files left: not listed any more
    assert [p.name for p in saves.iterdir()] == ["camp"]


def test_delete_of_a_plain_campaign_leaves_nothing(saves: Path) -> None:
    make(saves, actions=2).store.close()
    assert delete_campaign(saves, "camp") == "Deleted campaign 'camp'."
    assert list(saves.iterdir()) == []


def test_delete_of_an_open_campaign_is_refused_as_in_use(saves: Path) -> None:
    camp = make(saves)
    with pytest.raises(CampaignInUse) as info:
        delete_campaign(saves, "camp")
    assert info.value.title == "Campaign in use"
    camp.store.close()
    assert (saves / "camp" / CAMPAIGN_FILE).exists()


# --------------------------------------------------------------------------- item 2: links, FIFOs


def test_a_lock_that_is_a_symlink_never_truncates_its_target(saves: Path, tmp_path: Path
                                                              ) -> None:
    make(saves).store.close()
    victim = tmp_path / "precious.txt"
    victim.write_text("do not truncate me", encoding="utf-8")
    lock = saves / "camp" / LOCK_FILE
    lock.unlink()
    lock.symlink_to(victim)
    with pytest.raises(SaveError, match=r"\.lock is a symbolic link"):
        CampaignStore.open(saves, "camp")
    with pytest.raises(SaveError, match="symbolic link"):
        delete_campaign(saves, "camp")
    assert victim.read_text(encoding="utf-8") == "do not truncate me"


def test_a_dangling_lock_symlink_creates_nothing(saves: Path, tmp_path: Path) -> None:
    make(saves).store.close()
    lock = saves / "camp" / LOCK_FILE
    lock.unlink()
    lock.symlink_to(tmp_path / "created-by-sidekick")
    with pytest.raises(SaveError, match="symbolic link"):
        CampaignStore.open(saves, "camp")
    assert not (tmp_path / "created-by-sidekick").exists()


def test_a_lock_hard_linked_to_another_file_is_not_written(saves: Path, tmp_path: Path) -> None:
    make(saves).store.close()
    victim = tmp_path / "precious.txt"
    victim.write_text("12", encoding="utf-8")
    lock = saves / "camp" / LOCK_FILE
    lock.unlink()
    os.link(victim, lock)
    with pytest.raises(SaveError, match="not a Sidekick lock file: it has 2 names"):
        CampaignStore.open(saves, "camp")
    assert victim.read_text(encoding="utf-8") == "12"


def test_a_big_lock_file_is_not_ours(saves: Path) -> None:
    make(saves).store.close()
    lock = saves / "camp" / LOCK_FILE
    lock.write_text("x" * 1000, encoding="utf-8")
    with pytest.raises(SaveError, match="not a Sidekick lock file: it holds 1,000 bytes"):
        CampaignStore.open(saves, "camp")
    assert lock.read_text(encoding="utf-8") == "x" * 1000


@pytest.mark.parametrize("name", [LOCK_FILE, CAMPAIGN_FILE, "log/000001.json"])
def test_a_fifo_gives_a_clear_error_not_a_hang(saves: Path, name: str) -> None:
    make(saves, actions=1).store.close()
    path = saves / "camp" / name
    path.unlink()
    os.mkfifo(path)
    with no_hang(), pytest.raises(SaveError) as info:
        CampaignStore.open(saves, "camp")
    assert "FIFO" in info.value.message and str(path) in info.value.message
    with no_hang():
        summary = list_campaigns(saves)[0]
        if name != LOCK_FILE:
            assert summary.error is not None and "FIFO" in summary.error


@pytest.mark.parametrize("name", [CAMPAIGN_FILE, BACKUP_FILE, "log/000001.json"])
def test_save_files_that_are_symlinks_are_refused(saves: Path, tmp_path: Path, name: str
                                                  ) -> None:
    camp = make(saves, actions=2)
    camp.store.close()
    path = saves / "camp" / name
    outside = tmp_path / "outside.json"
    content = path.read_bytes()
    outside.write_bytes(content)
    path.unlink()
    path.symlink_to(outside)
    if name == BACKUP_FILE:  # the .bak is only read when campaign.json is damaged
        (saves / "camp" / CAMPAIGN_FILE).write_text("{", encoding="utf-8")
        with pytest.raises(SaveError, match=r"campaign.json is damaged"):
            CampaignStore.open(saves, "camp")
    else:
        with pytest.raises(SaveError, match="is a symbolic link"):
            CampaignStore.open(saves, "camp")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    link_to_fifo = saves / "camp" / "fifo.json"
    link_to_fifo.symlink_to(fifo)
    with no_hang(), pytest.raises(SaveError, match="symbolic link"):
        store_module._read_tinydb_file(link_to_fifo)
    assert outside.read_bytes() == content
    assert path.is_symlink()


def test_a_log_folder_that_is_a_symlink_gets_no_writes(saves: Path, tmp_path: Path) -> None:
    camp = make(saves, actions=2)
    camp.store.close()
    outside = tmp_path / "outside-log"
    (saves / "camp" / "log").rename(outside)
    (outside / ".~bait.json.0000.tmp").write_text("keep", encoding="utf-8")
    (saves / "camp" / "log").symlink_to(outside)
    before = snapshot(outside)
    with pytest.raises(SaveError, match=r"log is a symbolic link"):
        CampaignStore.open(saves, "camp")
    summary = list_campaigns(saves)[0]
    assert summary.error is not None and "symbolic link" in summary.error
    assert summary.recovery  # the link is set aside (not followed) and play resumes
    CampaignStore.recover(saves, "camp", rebuild, lambda s, m: m)
    assert (saves / "camp").joinpath(next(
        p.name for p in (saves / "camp").iterdir() if p.name.startswith("log.damaged-"))
    ).is_symlink()
    with CampaignStore.open(saves, "camp") as store:
        assert store.state == camp.state
    assert snapshot(outside) == before


def test_a_campaign_folder_that_is_a_symlink_is_refused(saves: Path, tmp_path: Path) -> None:
    make(tmp_path / "elsewhere").store.close()
    saves.mkdir()
    (saves / "camp").symlink_to(tmp_path / "elsewhere" / "camp")
    before = snapshot(tmp_path / "elsewhere")
    with pytest.raises(SaveError, match="symbolic link"):
        CampaignStore.open(saves, "camp")
    with pytest.raises(SaveError, match="symbolic link"):
        CampaignStore.open_read_only(saves, "camp")
    assert snapshot(tmp_path / "elsewhere") == before


def test_a_huge_save_file_is_refused_not_read(saves: Path, monkeypatch: pytest.MonkeyPatch
                                              ) -> None:
    make(saves, actions=1).store.close()
    monkeypatch.setattr(store_module, "MAX_FILE_BYTES", 100)
    with pytest.raises(SaveError, match=r"too large \(.* at most 100 bytes\)"):
        store_module._read_regular(saves / "camp" / CAMPAIGN_FILE, 100)
    big = saves / "camp" / "log" / "000001.json"
    with open(big, "ab") as f:
        f.truncate(store_module.MAX_FILE_BYTES + 10**9)  # sparse: 1 GB of nothing
    monkeypatch.undo()
    with pytest.raises(SaveError, match="too large"):
        CampaignStore.open(saves, "camp")


def test_a_save_folder_that_is_not_a_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                            ) -> None:
    with pytest.raises(SaveError, match=r"The save folder /dev/null is not a folder"):
        CampaignStore.create(Path("/dev/null"), "x", {}, initial_state())
    a_file = tmp_path / "file"
    a_file.write_text("", encoding="utf-8")
    code = main(["--saves", str(a_file), "new", "X", "--archetype", "signal_fire"])
    err = capsys.readouterr().err
    assert code == 1 and "is not a folder" in err and "already exists" not in err


# --------------------------------------------------------------------------- item 3: recovery


def test_damaged_last_chunk_is_flagged_and_recovered(saves: Path) -> None:
    camp = make(saves, actions=3)
    camp.store.close()
    chunk = saves / "camp" / "log" / "000001.json"
    chunk.write_text("{ torn", encoding="utf-8")
    summary = list_campaigns(saves)[0]
    assert summary.error is not None and "000001.json is damaged" in summary.error
    assert "resumes from campaign.json" in summary.recovery
    with pytest.raises(SaveError, match="sidekick recover camp"):
        CampaignStore.open(saves, "camp")

    done = CampaignStore.recover(saves, "camp", rebuild, make_meta)
    assert "Resumed from campaign.json" in done and "Undo cannot go back" in done
    aside = [p for p in (saves / "camp" / "log").iterdir() if ".damaged-" in p.name]
    assert [p.read_text(encoding="utf-8") for p in aside] == ["{ torn"]  # kept, not deleted
    assert list_campaigns(saves)[0].error is None
    with CampaignStore.open(saves, "camp") as store:
        assert store.state == camp.state
        camp.store = store
        camp.act(2)
        camp.undo()  # an action after the recovery can be undone
        assert store.state == camp.state
        with pytest.raises(SaveError, match=r"Cannot undo past .*recovered"):
            store.base_and_events_for_action(camp.state["last_a"])
    with CampaignStore.open(saves, "camp") as store:
        assert store.state == camp.state


def test_deleted_older_chunk_keeps_the_rest_of_the_log(saves: Path) -> None:
    camp = make(saves, actions=4, chunks=4)
    camp.store.close()
    assert len(list((saves / "camp" / "log").iterdir())) == 4
    (saves / "camp" / "log" / "000002.json").unlink()
    summary = list_campaigns(saves)[0]
    assert summary.error is not None and "000002.json is missing" in summary.error
    assert summary.recovery
    CampaignStore.recover(saves, "camp", rebuild, make_meta)
    with CampaignStore.open(saves, "camp") as store:
        assert store.state == camp.state
        logged = list(store.events())
        assert logged == [e for e in camp.events if e["a"] != 2]  # only chunk 2 is missing
        camp.store = store
        camp.undo()  # undo still works inside the intact chunks after the hole
        camp.undo()
        assert store.state == camp.state
        with pytest.raises(SaveError, match="Cannot undo past"):
            store.base_and_events_for_action(2)


def test_damaged_older_chunk_is_recovered_on_request(saves: Path) -> None:
    camp = make(saves, actions=3, chunks=3)
    camp.store.close()
    older = saves / "camp" / "log" / "000001.json"
    older.write_text("{ bad", encoding="utf-8")
    # resuming reads only the last chunk; reading the journal finds the damage
    with CampaignStore.open(saves, "camp") as store, pytest.raises(
            SaveError, match="sidekick recover camp"):
        list(store.events())
    done = CampaignStore.recover(saves, "camp", rebuild, make_meta)
    assert "Set aside: log/000001.json.damaged-" in done
    with CampaignStore.open(saves, "camp") as store:
        assert store.state == camp.state
        assert list(store.events()) == [e for e in camp.events if e["a"] != 1]


def test_a_hole_and_a_torn_save_are_recovered_together(saves: Path) -> None:
    camp = make(saves, actions=4, chunks=4)
    camp.store.close()
    last = saves / "camp" / "log" / "000004.json"
    data = json.loads(last.read_text(encoding="utf-8"))
    data["_default"]["9"] = {"n": 99, "a": 99, "v": 5}  # logged, never confirmed by the state
    last.write_text(json.dumps(data), encoding="utf-8")
    (saves / "camp" / "log" / "000002.json").unlink()
    CampaignStore.recover(saves, "camp", rebuild, make_meta)
    with CampaignStore.open(saves, "camp") as store:
        assert store.state == camp.state
        assert list(store.events()) == [e for e in camp.events if e["a"] != 2]
        camp.store = store
        camp.act(2)
        camp.undo()
        camp.undo()
        assert store.state == camp.state


def test_deleted_log_folder_is_flagged_and_recovered(saves: Path) -> None:
    camp = make(saves, actions=2)
    camp.store.close()
    (saves / "camp" / "log" / "000001.json").unlink()
    (saves / "camp" / "log").rmdir()
    summary = list_campaigns(saves)[0]
    assert summary.error is not None and "log is missing" in summary.error
    CampaignStore.recover(saves, "camp", rebuild, make_meta)
    with CampaignStore.open(saves, "camp") as store:
        assert store.state == camp.state
        assert list(store.events()) == []


def test_log_ending_before_the_state_resumes_on_a_fresh_chunk(saves: Path) -> None:
    camp = make(saves, actions=2)
    camp.store.close()
    path = saves / "camp" / CAMPAIGN_FILE
    data = json.loads(path.read_text(encoding="utf-8"))
    data["_default"]["1"]["state"] = {**camp.state, "event_no": 9, "last_a": 7}
    path.write_text(json.dumps(data), encoding="utf-8")
    CampaignStore.recover(saves, "camp", rebuild, make_meta)
    assert sorted(p.name for p in (saves / "camp" / "log").iterdir()) == [
        "000001.json", "000002.json"]
    with CampaignStore.open(saves, "camp") as store:
        assert store.state["event_no"] == 9
        assert list(store.events()) == camp.events


def test_damaged_campaign_file_after_undo_is_rebuilt_from_the_log_not_the_bak(saves: Path
                                                                            ) -> None:
    camp = make(saves, actions=3)
    camp.undo()
    camp.store.close()
    path, backup = saves / "camp" / CAMPAIGN_FILE, saves / "camp" / BACKUP_FILE
    bak_state = json.loads(backup.read_text(encoding="utf-8"))["_default"]["1"]["state"]
    assert bak_state != camp.state  # the .bak holds the undone action: a state the log lacks
    path.write_text("garbage", encoding="utf-8")
    summary = list_campaigns(saves)[0]
    assert "rebuilds campaign.json from the log" in summary.recovery
    done = CampaignStore.recover(saves, "camp", rebuild, make_meta)
    assert "Rebuilt campaign.json from the log" in done
    assert [p.read_text(encoding="utf-8") for p in (saves / "camp").iterdir()
            if p.name.startswith("campaign.json.damaged-")] == ["garbage"]
    with CampaignStore.open(saves, "camp") as store:
        assert store.state == camp.state
        assert store.meta["name"] == "Camp" and store.meta["total"] == camp.state["total"]
        camp.store = store
        camp.undo()  # the whole history is still there
        assert store.state == camp.state


def test_both_damaged_resumes_from_the_bak(saves: Path) -> None:
    camp = make(saves, actions=2)
    camp.store.close()
    (saves / "camp" / CAMPAIGN_FILE).write_text("{", encoding="utf-8")
    (saves / "camp" / "log" / "000001.json").write_text("{", encoding="utf-8")
    summary = list_campaigns(saves)[0]
    assert "resumes from campaign.json.bak" in summary.recovery
    done = CampaignStore.recover(saves, "camp", rebuild, make_meta)
    assert "Resumed from campaign.json.bak" in done
    with CampaignStore.open(saves, "camp") as store:
        # the .bak is kept by the first save of a session (and by a save starting a log
        # chunk): the actions since are lost, as the plan said
        assert store.state == camp.before[1]


def test_nothing_recoverable_changes_nothing(saves: Path) -> None:
    make(saves, actions=1).store.close()
    folder = saves / "camp"
    for name in (CAMPAIGN_FILE, BACKUP_FILE, "log/000001.json"):
        (folder / name).write_text("{", encoding="utf-8")
    summary = list_campaigns(saves)[0]
    assert summary.error is not None and summary.recovery == ""
    before = snapshot(folder)
    with pytest.raises(SaveError, match=r"cannot recover .* Nothing was changed"):
        CampaignStore.recover(saves, "camp", rebuild, make_meta)
    assert snapshot(folder) == before


def test_recover_a_healthy_or_newer_campaign_does_nothing(saves: Path) -> None:
    make(saves, actions=1).store.close()
    before = snapshot(saves)
    assert "nothing to recover" in CampaignStore.recover(saves, "camp", rebuild, make_meta)
    assert snapshot(saves) == before
    path = saves / "camp" / CAMPAIGN_FILE
    data = json.loads(path.read_text(encoding="utf-8"))
    data["_default"]["1"]["format"] = 99
    path.write_text(json.dumps(data), encoding="utf-8")
    summary = list_campaigns(saves)[0]
    assert summary.error is not None and "newer version" in summary.error
    assert summary.recovery == ""  # a newer save is not damage: never "repair" it
    with pytest.raises(SaveError, match="newer version"):
        CampaignStore.recover(saves, "camp", rebuild, make_meta)


def test_recover_a_real_game_from_its_log(tmp_path: Path) -> None:
    saves = tmp_path / "saves"
    game = new_game(saves, system="masks", name="Night Shift", hero_name="Nova",
                    archetype="signal_fire", npcs=[("Dusk", "villain", "")], seed=4)
    game.describe("I look around the pier")
    game.describe("I wave at the ferry")
    game.undo()
    expected = game.state.model_dump(mode="json")
    cid = str(game.store.id)  # type: ignore[attr-defined]
    close_game(game)
    (saves / cid / CAMPAIGN_FILE).write_text("", encoding="utf-8")
    done = recover_campaign(saves, cid)
    assert "Rebuilt" in done
    game = open_game(saves, cid)
    try:
        assert game.state.model_dump(mode="json") == expected
        summary = list_campaigns(saves)[0]
        assert (summary.name, summary.hero, summary.system) == ("Night Shift", "Nova", "masks")
        assert summary.system_name == "Masks: A New Generation"
    finally:
        close_game(game)


def test_cli_recover_and_list_flag(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    saves = tmp_path / "saves"
    make(saves, actions=2).store.close()
    (saves / "camp" / "log" / "000001.json").write_text("", encoding="utf-8")
    assert main(["--saves", str(saves), "list"]) == 0
    out = capsys.readouterr().out
    assert "DAMAGED" in out and "sidekick recover camp" in out
    assert main(["--saves", str(saves), "list", "--json"]) == 0
    row = json.loads(capsys.readouterr().out)
    assert row["error"] and row["recovery"]
    assert main(["--saves", str(saves), "recover", "camp"]) == 0
    assert "Resumed from campaign.json" in capsys.readouterr().out
    assert main(["--saves", str(saves), "list"]) == 0
    assert "DAMAGED" not in capsys.readouterr().out


# --------------------------------------------------------------------------- item 4: debris


def test_a_failed_create_leaves_nothing_and_frees_the_name(tmp_path: Path) -> None:
    saves = tmp_path / "saves"
    with pytest.raises(IllegalAction, match="unknown role"):
        new_game(saves, system="masks", name="Night Shift", hero_name="Nova",
                 archetype="signal_fire", npcs=[("Dusk", "no-such-role", "")])
    assert list(saves.iterdir()) == []
    game = new_game(saves, system="masks", name="Night Shift", hero_name="Nova",
                    archetype="signal_fire", npcs=[("Dusk", "villain", "")])
    assert str(game.store.id) == "night-shift"  # type: ignore[attr-defined]
    close_game(game)


def test_a_campaign_appears_only_with_its_first_action(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    saves = tmp_path / "saves"
    seen: list[list[str]] = []
    real_publish = CampaignStore.publish

    def publish(self: CampaignStore) -> None:
        seen.append(sorted(p.name for p in saves.iterdir()))
        assert self.state["event_no"] > 0  # the NPCs and opening scene are saved already
        real_publish(self)

    monkeypatch.setattr(CampaignStore, "publish", publish)
    game = new_game(saves, system="masks", name="Night Shift", hero_name="Nova",
                    archetype="signal_fire", npcs=[("Dusk", "villain", "")])
    close_game(game)
    assert len(seen) == 1 and len(seen[0]) == 1 and seen[0][0].startswith(".~new-night-shift-")
    assert [p.name for p in saves.iterdir()] == ["night-shift"]
    game = open_game(saves, "night-shift")
    assert [n.name for n in game.state.npcs.values()] == ["Dusk"]
    close_game(game)


def test_an_interrupted_create_is_swept(saves: Path) -> None:
    staged = CampaignStore.create(saves, "camp", {}, initial_state(), staged=True)
    assert list_campaigns(saves) == []
    assert len(list(saves.iterdir())) == 1  # being created (locked): left alone
    staged.close()  # the process dies before publishing
    assert list_campaigns(saves) == []
    assert list(saves.iterdir()) == []
    make(saves, "camp").store.close()  # the name is free


def test_a_discarded_create_leaves_nothing(saves: Path) -> None:
    staged = CampaignStore.create(saves, "camp", {}, initial_state(), staged=True)
    staged.discard()
    assert list(saves.iterdir()) == []


def test_an_interrupted_delete_is_finished(saves: Path) -> None:
    make(saves, "one", actions=2).store.close()
    make(saves, "two", actions=2).store.close()
    (saves / "one").rename(saves / ".~deleted-one-0123abcd")
    (saves / "two").rename(saves / ".~deleted-two-89abcdef")
    (saves / ".~deleted-two-89abcdef" / "mine.txt").write_text("mine", encoding="utf-8")
    assert list_campaigns(saves) == []
    # all Sidekick files are gone; the player's own file is back under the campaign's name
    assert sorted(p.name for p in saves.iterdir()) == ["two"]
    assert snapshot(saves / "two") == {"mine.txt": b"mine"}


def test_a_create_that_is_just_starting_is_left_alone(saves: Path) -> None:
    starting = saves / ".~new-camp-0123abcd"
    starting.mkdir(parents=True)  # mkdir done, lock not taken yet
    sweep_saves(saves)
    assert starting.is_dir()


def test_a_create_between_its_lock_file_and_its_lock_is_left_alone(saves: Path) -> None:
    # the creator has made its (empty) lock file and not yet locked it: another process's
    # sweep must not take the lock and remove the folder under it
    starting = saves / ".~new-camp-0123abcd"
    starting.mkdir(parents=True)
    (starting / LOCK_FILE).write_bytes(b"")
    sweep_saves(saves)
    assert (starting / LOCK_FILE).is_file()
    # the same folder long after: a create that died there, swept
    old = (starting / LOCK_FILE).stat().st_mtime - 3600
    os.utime(starting / LOCK_FILE, (old, old))
    sweep_saves(saves)
    assert not starting.exists()


def test_opening_a_campaign_sweeps_too(saves: Path) -> None:
    make(saves, "one").store.close()
    make(saves, "two").store.close()
    (saves / "two").rename(saves / ".~deleted-two-0123abcd")
    CampaignStore.open(saves, "one").close()
    assert [p.name for p in saves.iterdir()] == ["one"]


def test_a_half_made_campaign_of_an_older_version_is_swept(saves: Path) -> None:
    folder = saves / "camp"
    (folder / "log").mkdir(parents=True)
    (folder / LOCK_FILE).write_text("123\n", encoding="utf-8")
    (folder / "log" / "000001.json").write_text(
        json.dumps({"_default": {"1": {"base": initial_state()}}}), encoding="utf-8")
    sweep_saves(saves)
    assert list(saves.iterdir()) == []


def test_a_folder_that_only_looks_half_made_is_kept(saves: Path) -> None:
    folder = saves / "camp"
    (folder / "log").mkdir(parents=True)
    (folder / "log" / "000001.json").write_text("{", encoding="utf-8")  # unreadable: not ours?
    (saves / "other" / "log").mkdir(parents=True)
    (saves / "other" / "photo.jpg").write_bytes(b"jpg")
    before = snapshot(saves)
    sweep_saves(saves)
    assert snapshot(saves) == before


def test_cli_delete(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    saves = tmp_path / "saves"
    make(saves, actions=1).store.close()
    assert main(["--saves", str(saves), "delete", "camp"]) == 1  # not a terminal: --yes needed
    assert "--yes" in capsys.readouterr().err
    assert (saves / "camp").is_dir()
    assert main(["--saves", str(saves), "delete", "camp", "--yes"]) == 0
    assert "Deleted campaign 'camp'" in capsys.readouterr().out
    assert list(saves.iterdir()) == []
    assert main(["--saves", str(saves), "delete", "camp", "--yes"]) == 1
    assert "No campaign 'camp'" in capsys.readouterr().err


# --------------------------------------------------------------------------- item 21: ids


@pytest.mark.parametrize(("name", "slug"), [
    ("Ночная смена", "ночная-смена"),
    ("夜勤", "夜勤"),
    ("Νυχτερινή Βάρδια", "νυχτερινή-βάρδια"),
    ("हिन्दी कहानी", "हिन्दी-कहानी"),
    ("ليلة طويلة", "ليلة-طويلة"),
    ("Café Ünïcode", "cafe-unicode"),
    ("🔥🔥", "campaign"),
])
def test_slugs_stay_readable_in_any_script(name: str, slug: str) -> None:
    assert slugify(name) == slug


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200))
def test_every_slug_is_a_valid_id(name: str) -> None:
    slug = slugify(name)
    assert store_module._valid_id(slug), slug
    assert len(slug) <= MAX_ID_LENGTH and len(slug.encode("utf-8")) <= MAX_ID_BYTES
    assert "/" not in slug and "." not in slug and unicodedata.normalize("NFC", slug) == slug


def test_unique_ids_for_names_that_collide(saves: Path) -> None:
    saves.mkdir()
    for name, expected in [("夜勤", "夜勤"), ("夜勤", "夜勤-2"), ("🔥", "campaign"),
                           ("🌙", "campaign-2"), ("x" * 80, "x" * 64), ("x" * 90, "x" * 62 + "-2")]:
        cid = unique_id(saves, name)
        assert cid == expected
        (saves / cid).mkdir()


def test_blank_names_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    saves = tmp_path / "saves"
    code = main(["--saves", str(saves), "new", "   ", "--archetype", "signal_fire"])
    assert code == 1 and "blank" in capsys.readouterr().err
    assert not saves.exists() or list(saves.iterdir()) == []


def test_a_non_latin_campaign_round_trips_through_the_cli(tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]
                                                         ) -> None:
    saves = str(tmp_path / "saves")
    for _ in range(2):
        assert main(["--saves", saves, "new", "Ночная смена", "--archetype",
                     "signal_fire"]) == 0
    out = capsys.readouterr().out
    assert "(ночная-смена)" in out and "(ночная-смена-2)" in out
    assert main(["--saves", saves, "export", "ночная-смена-2"]) == 0
    assert "\n# Ночная смена\n" in capsys.readouterr().out


# --------------------------------------------------------------------------- item 22: reading


def test_export_while_the_campaign_is_open(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                           ) -> None:
    saves = tmp_path / "saves"
    game = new_game(saves, system="masks", name="Night Shift", hero_name="Nova",
                    archetype="signal_fire", seed=3)
    game.describe("I look around the pier")
    try:
        assert main(["--saves", str(saves), "export", "night-shift"]) == 0
        out = capsys.readouterr().out
        assert "\n# Night Shift\n" in out and "I look around the pier" in out
        game.describe("I wave at the ferry")  # the app goes on saving as before
    finally:
        close_game(game)


def test_read_only_store_needs_no_lock_and_changes_nothing(saves: Path) -> None:
    camp = make(saves, actions=2)
    # a torn save: events logged beyond the state (the state write never happened)
    chunk = saves / "camp" / "log" / "000001.json"
    data = json.loads(chunk.read_text(encoding="utf-8"))
    data["_default"]["99"] = {"n": 99, "a": 99, "v": 1}
    camp.store.close()
    chunk.write_text(json.dumps(data), encoding="utf-8")
    holder = CampaignStore.open(saves, "camp")  # repairs the torn save, holds the lock
    chunk.write_text(json.dumps(data), encoding="utf-8")  # torn again, for the reader
    before = snapshot(saves)
    reader = CampaignStore.open_read_only(saves, "camp")
    assert reader.read_only and reader.state == camp.state
    assert list(reader.events()) == camp.events  # the unconfirmed event is skipped
    with pytest.raises(SaveError, match="read-only"):
        reader.save([], camp.state)
    with pytest.raises(SaveError, match="read-only"):
        reader.truncate_from_action(1, initial_state())
    reader.close()
    assert snapshot(saves) == before
    holder.close()


def test_campaign_in_use_is_not_a_save_error_title(saves: Path) -> None:
    camp = make(saves)
    with pytest.raises(CampaignInUse) as info:
        CampaignStore.open(saves, "camp")
    assert info.value.title == "Campaign in use"
    assert "already open in this Sidekick process" in info.value.message
    camp.store.close()


# --------------------------------------------------------------------------- issue 15 gap 6


def test_decreasing_action_numbers_in_a_damaged_log(saves: Path) -> None:
    camp = make(saves, actions=2)
    camp.store.close()
    chunk = saves / "camp" / "log" / "000001.json"
    data = json.loads(chunk.read_text(encoding="utf-8"))
    data["_default"]["5"]["a"] = 1  # n=4 has a=1 after n=3 with a=2
    chunk.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(SaveError, match=r"action numbers must not decrease, but event n=4 has "
                                        r"a=1 after a=2"):
        CampaignStore.open(saves, "camp")


def test_the_action_number_check_survives_a_reopen(saves: Path) -> None:
    camp = make(saves, actions=3)
    camp.store.close()
    with CampaignStore.open(saves, "camp") as store:
        stale = {"n": camp.state["event_no"] + 1, "a": 2, "v": 1}  # a=2 after a=3
        with pytest.raises(SaveError, match="action numbers must not decrease"):
            store.save([stale], {**camp.state, "event_no": stale["n"]})
        assert store.state == camp.state
        same = {"n": camp.state["event_no"] + 1, "a": 3, "v": 1}  # equal is fine
        store.save([same], {**camp.state, "event_no": same["n"]})


def test_undo_with_nothing_to_drop(saves: Path) -> None:
    camp = make(saves, actions=2)
    camp.store.save([], camp.state, new_chunk=True)  # an empty trailing chunk must stay
    assert sorted(p.name for p in (saves / "camp" / "log").iterdir()) == [
        "000001.json", "000002.json"]
    log_before = snapshot(saves / "camp" / "log")
    camp.store.truncate_from_action(7, camp.state)  # no action 7: nothing to drop
    assert camp.store.state == camp.state
    assert snapshot(saves / "camp" / "log") == log_before
    with pytest.raises(SaveError, match=r"state\['event_no'\] is 0 but the last remaining "
                                        r"event is n=4"):
        camp.store.truncate_from_action(7, initial_state())
    with pytest.raises(SaveError, match="Action 7 is not in the log"):
        camp.store.base_and_events_for_action(7)
    camp.store.close()


@pytest.mark.parametrize("cid", ["x" * MAX_ID_LENGTH, "a" + "-b" * 31 + "c",
                                 "夜" * MAX_ID_LENGTH])
def test_an_id_of_exactly_the_maximum_length(saves: Path, cid: str) -> None:
    assert len(cid) == MAX_ID_LENGTH
    make(saves, cid, actions=1).store.close()
    with CampaignStore.open(saves, cid) as store:
        assert store.id == cid
    assert [c.id for c in list_campaigns(saves)] == [cid]
    assert "Deleted" in delete_campaign(saves, cid)


@pytest.mark.parametrize("cid", ["x" * (MAX_ID_LENGTH + 1), "夜" * (MAX_ID_LENGTH + 1),
                                 "𐌰" * (MAX_ID_BYTES // 4 + 1)])
def test_an_id_one_past_the_maximum_is_refused(saves: Path, cid: str) -> None:
    with pytest.raises(SaveError, match="Invalid campaign id"):
        CampaignStore.create(saves, cid, {}, initial_state())
    with pytest.raises(SaveError, match="Invalid campaign id"):
        CampaignStore.open(saves, cid)
    saves.mkdir(exist_ok=True)
    (saves / cid).mkdir()  # made by hand: not a campaign, never listed
    assert list_campaigns(saves) == []



def test_the_journal_marks_where_a_recovery_began(saves: Path) -> None:
    camp = make(saves, actions=3)
    camp.store.close()
    (saves / "camp" / "log" / "000001.json").write_text("{ torn", encoding="utf-8")
    CampaignStore.recover(saves, "camp", rebuild, make_meta)
    with CampaignStore.open(saves, "camp") as store:
        plain = list(store.events())
        marked = list(store.events(markers=True))
    assert all(e.get("type") != "Recovered" for e in plain)  # the rules never see it
    assert [e["type"] for e in marked[:1]] == ["Recovered"]
    assert marked[1:] == plain
    line = render(marked[0])
    assert line is not None and line.startswith("_The save was recovered here (")
    assert "set aside in the campaign's folder" in line


def test_a_name_taken_while_a_campaign_is_made_gets_the_next_id(
        saves: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # another process publishes 'race' between our choosing the id and renaming into place
    real_publish = store_module.CampaignStore.publish
    raced: list[str] = []

    def publish(self: Any, campaign_id: str | None = None) -> None:
        if not raced and self.id == "race":
            raced.append("x")
            other = new_game(saves, system="masks", name="Race", hero_name="Tin",
                             archetype="pawnshop_paladin", seed=2)
            assert other.store.id == "race"
            close_game(other)
        real_publish(self, campaign_id)

    monkeypatch.setattr(store_module.CampaignStore, "publish", publish)
    game = new_game(saves, system="masks", name="Race", hero_name="Nova",
                    archetype="signal_fire", seed=1)
    assert raced and game.store.id == "race-2"
    close_game(game)
    again = open_game(saves, "race-2")
    assert again.state.hero.name == "Nova"
    close_game(again)
    with pytest.raises(SaveError, match="already exists"):
        new_game(saves, system="masks", name="Race", hero_name="Nova",
                 archetype="signal_fire", campaign_id="race")


def test_campaigns_made_at_once_under_one_name_all_get_their_own_id(tmp_path: Path) -> None:
    import subprocess
    import sys

    saves = tmp_path / "saves"
    code = "import sys; from engine.cli import main; sys.exit(main(sys.argv[1:]))"
    procs = [subprocess.Popen([sys.executable, "-c", code, "--saves", str(saves), "new",
                               "Race 0", "--hero", f"H{i}", "--archetype", "signal_fire"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for i in range(6)]
    results = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0] * 6, [err for _, err in results]
    made = sorted(p.name for p in saves.iterdir() if p.is_dir())
    assert made == sorted(["race-0", *(f"race-0-{n}" for n in range(2, 7))])
