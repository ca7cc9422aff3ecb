"""Tests of engine.store written against its surviving mutants (issue 15).

Each test drives the store through real files in a tmp folder (real reopen, damaged files,
real locks; a few inject an OSError where a disk could fail) and asserts what a player or a
later session would see: exact messages, file names and contents, what is kept and removed.
"""

from __future__ import annotations

import errno
import fcntl
import json
import os
import re
import socket
import stat
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

import engine.store as store_module
import engine.store.campaign as store_campaign
import engine.store.chunks as store_chunks
import engine.store.files as store_files
import engine.store.folder as store_folder
import engine.store.recover as store_recover
from engine.errors import SaveError
from engine.store import (
    BACKUP_FILE,
    CAMPAIGN_FILE,
    CHUNK_EVENTS,
    FORMAT,
    MAX_CHUNK_EVENTS,
    CampaignInUse,
    CampaignStore,
    delete_campaign,
    list_campaigns,
    slugify,
    unique_id,
)

STAMP = r"[0-9]{8}T[0-9]{6}Z"


def state0() -> dict[str, Any]:
    return {"event_no": 0, "total": 0, "last_a": 0}


def replay(state: dict[str, Any], events: list[dict[str, Any]]) -> dict[str, Any]:
    for e in events:
        state = {**state, "event_no": e["n"], "total": state["total"] + e["v"], "last_a": e["a"]}
    return state


def make_meta(state: dict[str, Any], old: dict[str, Any]) -> dict[str, Any]:
    return {**old, "total": state["total"]}


def act(store: CampaignStore, state: dict[str, Any], count: int = 2, *, a: int | None = None,
        new_chunk: bool = False) -> dict[str, Any]:
    """Save one action of ``count`` events after ``state``; the new state."""
    a = state["last_a"] + 1 if a is None else a
    events = [{"n": state["event_no"] + i + 1, "a": a, "v": 1} for i in range(count)]
    state = replay(state, events)
    store.save(events, state, new_chunk=new_chunk)
    return state


@pytest.fixture
def saves(tmp_path: Path) -> Path:
    return tmp_path / "saves"


def create(saves: Path, cid: str = "camp", meta: dict[str, Any] | None = None) -> CampaignStore:
    return CampaignStore.create(saves, cid, meta or {"name": "Camp"}, state0())


def doc_of(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text("utf-8"))["_default"]["1"]


def rewrite_doc(path: Path, **changes: Any) -> None:
    data = json.loads(path.read_text("utf-8"))
    data["_default"]["1"].update(changes)
    path.write_text(json.dumps(data), "utf-8")


def fail_with(*args: Any) -> Any:
    """A stand-in for an os call that fails like a full or broken disk."""

    def boom(*_a: Any, **_k: Any) -> None:
        raise OSError(*args)

    return boom


# --------------------------------------------------------------------------- ids


def test_an_id_of_exactly_the_byte_limit_is_kept_whole() -> None:
    wide = "\U00020000"  # 4 bytes in UTF-8, a letter: 50 of them are exactly 200 bytes
    assert slugify(wide * 50) == wide * 50
    assert slugify(wide * 51) == wide * 50


def test_a_cut_id_loses_its_trailing_hyphen() -> None:
    assert slugify("a" * 63 + " b") == "a" * 63


def test_a_mark_after_a_replaced_character_is_dropped() -> None:
    assert slugify("a\u2014\u0301b") == "a-b"


def test_unique_id_counts_up_from_two(saves: Path) -> None:
    saves.mkdir()
    (saves / "camp").mkdir()
    (saves / "camp-2").mkdir()
    assert unique_id(saves, "Camp") == "camp-3"


def test_unique_id_of_a_full_length_name_keeps_the_suffix_within_the_limit(saves: Path) -> None:
    wide = "\U00020000"
    saves.mkdir()
    (saves / (wide * 50)).mkdir()
    cid = unique_id(saves, wide * 50)
    assert cid == wide * 49 + "-2"
    assert len(cid.encode("utf-8")) <= 200


# --------------------------------------------------------------------------- messages of save


@pytest.mark.parametrize(("value", "name"), [
    ([], "a list"), ("x", "a string"), (True, "a boolean"), (3, "an integer"),
    (1.5, "a number"), (None, "null"),
])
def test_an_event_that_is_not_an_object_is_named_by_its_json_type(
        saves: Path, value: Any, name: str) -> None:
    with create(saves) as store, pytest.raises(SaveError) as err:
        store.save([value], {"event_no": 1})
    assert err.value.message == f"Cannot save: event 0 is {name}, not an object."


def test_a_campaign_file_whose_format_is_an_object_says_so(saves: Path) -> None:
    create(saves).close()
    path = saves / "camp" / CAMPAIGN_FILE
    rewrite_doc(path, format={})
    with pytest.raises(SaveError) as err:
        CampaignStore.open(saves, "camp")
    assert err.value.message.startswith(
        f"{path} is damaged: 'format' should be an integer, found an object.")


@pytest.mark.parametrize(("events", "state"), [("x", {"event_no": 0}), ([], "x")])
def test_save_refuses_events_or_state_of_the_wrong_type(saves: Path, events: Any,
                                                        state: Any) -> None:
    with create(saves) as store, pytest.raises(SaveError) as err:
        store.save(events, state)
    assert err.value.message == "Cannot save: events must be a list and state a dict."


def test_save_refuses_meta_updates_that_are_not_a_dict(saves: Path) -> None:
    with create(saves) as store, pytest.raises(SaveError) as err:
        store.save([], {"event_no": 0}, [1])  # type: ignore[arg-type]
    assert err.value.message == "Cannot save: meta_updates must be a dict."


@pytest.mark.parametrize(("where", "what"), [
    ("events", "the events"), ("state", "the state"), ("meta", "the meta updates"),
])
def test_save_names_the_argument_that_is_not_plain_json(saves: Path, where: str,
                                                        what: str) -> None:
    args: dict[str, Any] = {"events": [], "state": {"event_no": 0}, "meta_updates": {}}
    key = "meta_updates" if where == "meta" else where
    args[key] = [{1, 2}] if where == "events" else {"x": {1, 2}}
    with create(saves) as store, pytest.raises(SaveError) as err:
        store.save(**args)
    assert err.value.message.startswith(f"Cannot save: {what} is not plain JSON data (")


def test_save_names_the_wrong_event_no(saves: Path) -> None:
    with create(saves) as store, pytest.raises(SaveError) as err:
        store.save([{"n": 1, "a": 1}], {"event_no": 5})
    assert err.value.message == ("Cannot save: state['event_no'] is 5 but the last event "
                                 "is n=1.")


def test_undo_messages_name_what_was_wrong(saves: Path) -> None:
    with create(saves) as store:
        state = act(store, state0())
        with pytest.raises(SaveError) as err:
            store.truncate_from_action("1", state0())  # type: ignore[arg-type]
        assert err.value.message == ("Cannot undo: the action number must be an integer, "
                                     "got '1'.")
        with pytest.raises(SaveError) as err:
            store.truncate_from_action(1, "x")  # type: ignore[arg-type]
        assert err.value.message == "Cannot undo: state must be a dict."
        with pytest.raises(SaveError) as err:
            store.truncate_from_action(1, {"event_no": 0, "x": {1}})
        assert err.value.message.startswith("Cannot undo: the state is not plain JSON") or \
            err.value.message.startswith("Cannot save: the state is not plain JSON data (")
        assert store.state == state


# --------------------------------------------------------------------------- damaged files


def test_damaged_campaign_file_messages(saves: Path) -> None:
    create(saves).close()
    path = saves / "camp" / CAMPAIGN_FILE
    original = path.read_text("utf-8")
    cases = [
        ({"format": "1"}, f"{path} is damaged: 'format' should be an integer, found a string."),
        ({"format": 0}, f"{path} is damaged: unknown format 0."),
        ({"meta": []}, f"{path} is damaged: 'meta' should be an object, found a list."),
        ({"state": {"total": 0}},
         f"{path} is damaged: state.event_no should be a non-negative integer, found missing."),
    ]
    for change, message in cases:
        path.write_text(original, "utf-8")
        rewrite_doc(path, **change)
        with pytest.raises(SaveError) as err:
            CampaignStore.open_read_only(saves, "camp")
        assert err.value.message.startswith(message), change


def test_a_log_without_chunks_or_with_a_gap_is_named(saves: Path) -> None:
    with create(saves) as store:
        state = act(store, state0())
        act(store, state, new_chunk=True)
    log = saves / "camp" / "log"
    (log / "000002.json").rename(log / "000003.json")
    with pytest.raises(SaveError) as err:
        CampaignStore.open_read_only(saves, "camp")
    assert err.value.message.startswith(
        f"{log / '000002.json'} is missing (the log chunks must run 000001.json, 000002.json, "
        f"... without gaps).")
    for name in ("000001.json", "000003.json"):
        (log / name).unlink()
    with pytest.raises(SaveError) as err:
        CampaignStore.open_read_only(saves, "camp")
    assert err.value.message.startswith(
        f"{log} is damaged: it holds no log chunk (expected 000001.json).")


def test_a_too_new_campaign_gets_no_recover_advice(saves: Path) -> None:
    create(saves).close()
    path = saves / "camp" / CAMPAIGN_FILE
    rewrite_doc(path, format=99)
    with pytest.raises(SaveError) as err:
        CampaignStore.open(saves, "camp")
    assert err.value.message == (f"{path} was written by a newer version of Sidekick "
                                 f"(format 99; this version reads format {FORMAT}).")


def test_a_read_error_on_a_healthy_campaign_gets_no_recover_advice(
        saves: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    create(saves).close()
    monkeypatch.setattr(store_campaign, "_clean_temp_files", fail_with(errno.EIO, "Disk on fire"))
    with pytest.raises(SaveError) as err:
        CampaignStore.open(saves, "camp")
    assert err.value.message == (f"Cannot read campaign 'camp' in {saves / 'camp'}: "
                                 f"Disk on fire.")


def test_a_read_only_open_of_a_damaged_campaign_advises_recover(saves: Path) -> None:
    with create(saves) as store:
        act(store, state0())
    path = saves / "camp" / CAMPAIGN_FILE
    path.write_text("{", "utf-8")
    with pytest.raises(SaveError) as err:
        CampaignStore.open_read_only(saves, "camp")
    assert err.value.message.startswith(f"{path} is damaged: invalid JSON")
    assert err.value.message.endswith(
        f"{store_module._REBUILD_PLAN} Use Recover on the title screen (R) or "
        f"'sidekick recover camp'.")


def test_missing_campaign_messages_name_the_campaign(saves: Path) -> None:
    saves.mkdir()
    for call in (lambda: CampaignStore.open_read_only(saves, "gone"),
                 lambda: CampaignStore.recover(saves, "gone", replay, make_meta),
                 lambda: CampaignStore.open(saves, "gone")):
        with pytest.raises(SaveError) as err:
            call()
        assert err.value.message == f"No campaign 'gone' in {saves}."


def test_a_save_folder_that_is_a_file_gives_a_read_error(tmp_path: Path) -> None:
    saves = tmp_path / "saves"
    saves.write_text("not a folder")
    with pytest.raises(SaveError) as err:
        CampaignStore.open(saves, "camp")
    assert err.value.message == f"Cannot read {saves / 'camp'}: Not a directory."


@pytest.mark.parametrize("kind", ["file", "fifo", "socket"])
def test_a_campaign_that_is_not_a_folder_is_named_by_its_kind(saves: Path, kind: str) -> None:
    saves.mkdir()
    path = saves / "camp"
    words = {"file": "a file", "fifo": "a FIFO (named pipe)", "socket": "a socket"}[kind]
    if kind == "file":
        path.write_text("x")
    elif kind == "fifo":
        os.mkfifo(path)
    else:
        sock = socket.socket(socket.AF_UNIX)
        try:
            sock.bind(str(path))
        except OSError:
            pytest.skip("no unix sockets here")
        finally:
            sock.close()
    with pytest.raises(SaveError) as err:
        CampaignStore.open(saves, "camp")
    assert err.value.message == f"{path} is {words}, not a folder; Sidekick left it alone."


def test_a_campaign_file_that_is_a_folder_is_named_as_one(saves: Path) -> None:
    create(saves).close()
    path = saves / "camp" / CAMPAIGN_FILE
    path.unlink()
    path.mkdir()
    with pytest.raises(SaveError) as err:
        CampaignStore.open_read_only(saves, "camp")
    assert err.value.message.startswith(
        f"{path} is a folder, not a save file; Sidekick left it alone.")


@pytest.mark.parametrize(("mode", "words"), [
    (stat.S_IFCHR, "a device"), (stat.S_IFBLK, "a device"), (stat.S_IFDIR, "a folder"),
    (stat.S_IFIFO, "a FIFO (named pipe)"), (stat.S_IFSOCK, "a socket"),
    (stat.S_IFREG, "a file"), (stat.S_IFLNK, "a symbolic link"), (0, "not a regular file"),
])
def test_kinds_of_files_in_words(mode: int, words: str) -> None:
    assert store_module._kind(mode | 0o644) == words


# --------------------------------------------------------------------------- locks


def hold_lock(folder: Path, content: bytes) -> int:
    """Hold ``folder``'s lock through a second open file, as another process would."""
    fd = os.open(folder / ".lock", os.O_RDWR | os.O_CREAT, 0o666)
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    os.ftruncate(fd, 0)
    os.pwrite(fd, content, 0)
    return fd


@pytest.mark.parametrize(("content", "who"), [
    (b"4242\n", " (pid 4242)"), (b"abc\n", ""), (b"\xff\xfe\n", ""),
    (b"1" * 33, " (pid " + "1" * 32 + ")"),
])
def test_an_in_use_message_shows_the_holder_pid_only_when_it_is_one(
        saves: Path, content: bytes, who: str) -> None:
    create(saves).close()
    fd = hold_lock(saves / "camp", content)
    try:
        with pytest.raises(CampaignInUse) as err:
            CampaignStore.open(saves, "camp")
    finally:
        os.close(fd)
    assert err.value.message == (f"Campaign 'camp' is open in another Sidekick process{who}. "
                                 f"Close it there first; 'sidekick export camp' can read it "
                                 f"meanwhile.")


def test_in_use_messages_name_the_campaign(saves: Path) -> None:
    with create(saves):
        for call in (lambda: CampaignStore.open(saves, "camp"),
                     lambda: CampaignStore.recover(saves, "camp", replay, make_meta),
                     lambda: delete_campaign(saves, "camp")):
            with pytest.raises(CampaignInUse) as err:
                call()
            assert err.value.message == ("Campaign 'camp' is already open in this Sidekick "
                                         "process. Close it first.")


def test_a_lock_that_fails_for_another_reason_is_named(
        saves: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    create(saves).close()
    monkeypatch.setattr(fcntl, "flock", fail_with(errno.EIO, "Disk on fire"))
    with pytest.raises(SaveError) as err:
        CampaignStore.open(saves, "camp")
    assert err.value.message == f"Cannot lock {saves / 'camp' / '.lock'}: Disk on fire."


# --------------------------------------------------------------------------- files written


def test_save_files_are_compact_utf8_and_not_executable(saves: Path, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    monkeypatch.chdir(cwd)
    old = os.umask(0o022)
    try:
        with create(saves, meta={"name": "Café Noir"}) as store:
            state = act(store, state0())
            state = act(store, state)
            store.truncate_from_action(2, replay(state0(), [{"n": 1, "a": 1, "v": 1},
                                                            {"n": 2, "a": 1, "v": 1}]))
    finally:
        os.umask(old)
    folder = saves / "camp"
    for path in (folder / CAMPAIGN_FILE, folder / BACKUP_FILE, folder / "log" / "000001.json"):
        raw = path.read_bytes()
        assert b" " not in raw.replace("Café Noir".encode(), b""), path
        assert stat.S_IMODE(path.stat().st_mode) & 0o111 == 0, path
    assert "Café Noir".encode() in (folder / CAMPAIGN_FILE).read_bytes()
    assert list(cwd.iterdir()) == []  # nothing written beside the working folder


def test_a_campaign_file_with_an_extra_record_keeps_it(saves: Path) -> None:
    create(saves).close()
    path = saves / "camp" / CAMPAIGN_FILE
    data = json.loads(path.read_text("utf-8"))
    data["_default"]["2"] = {"note": "mine"}
    path.write_text(json.dumps(data), "utf-8")
    with CampaignStore.open(saves, "camp") as store:
        act(store, state0())
    assert json.loads(path.read_text("utf-8"))["_default"]["2"] == {"note": "mine"}


def test_the_backup_is_a_copy_when_hard_links_fail(saves: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    with create(saves) as store:
        state = act(store, state0())
        before = (saves / "camp" / CAMPAIGN_FILE).read_bytes()
        monkeypatch.setattr(os, "link", fail_with(errno.EPERM, "No links here"))
        act(store, state, new_chunk=True)  # a save that starts a chunk keeps a .bak
    assert (saves / "camp" / BACKUP_FILE).read_bytes() == before


def test_the_backup_of_a_planted_link_is_never_its_target(saves: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside.json"
    with create(saves) as store:
        state = act(store, state0())
        path = saves / "camp" / CAMPAIGN_FILE
        outside.write_bytes(path.read_bytes())
        path.unlink()
        path.symlink_to(outside)
        act(store, state, new_chunk=True)  # a save that starts a chunk keeps a .bak
    assert os.lstat(saves / "camp" / BACKUP_FILE).st_ino != os.stat(outside).st_ino
    assert os.stat(outside).st_nlink == 1


def test_a_save_whose_log_folder_vanished_is_a_clear_error(saves: Path) -> None:
    with create(saves) as store:
        state = act(store, state0())
        (saves / "camp" / "log").rename(saves / "camp" / "moved")
        with pytest.raises(SaveError) as err:
            act(store, state)
    assert err.value.message.startswith("Cannot save campaign 'camp': No such file or directory")


@pytest.mark.parametrize("filename", [None, "/x/y.json"])
def test_save_and_undo_failures_name_the_cause_and_file(
        saves: Path, monkeypatch: pytest.MonkeyPatch, filename: str | None) -> None:
    with create(saves) as store:
        state = act(store, state0())
        args = (errno.ENOSPC, "No space left", filename) if filename else \
            (errno.ENOSPC, "No space left")
        monkeypatch.setattr(os, "replace", fail_with(*args))
        where = filename or saves / "camp"
        with pytest.raises(SaveError) as err:
            act(store, state)
        assert err.value.message == f"Cannot save campaign 'camp': No space left ({where})."
        with pytest.raises(SaveError) as err:
            store.truncate_from_action(1, state0())
        assert err.value.message == f"Cannot undo in campaign 'camp': No space left ({where})."


# --------------------------------------------------------------------------- store behaviour


def test_saves_stay_in_one_chunk_unless_asked(saves: Path) -> None:
    with create(saves) as store:
        state = state0()
        for a in (1, 2, 3):
            events = [{"n": a, "a": a, "v": 1}]
            state = replay(state, events)
            store.save(events, state)
    assert sorted(p.name for p in (saves / "camp" / "log").iterdir()) == ["000001.json"]


def test_a_new_chunk_after_a_state_only_save_starts_from_that_state(saves: Path) -> None:
    with create(saves) as store:
        changed = {**state0(), "note": "x"}
        store.save([], changed)
        act(store, changed, new_chunk=True)
    chunk2 = saves / "camp" / "log" / "000002.json"
    assert doc_of(chunk2)["base"] == changed


def test_a_new_chunk_over_a_planted_file_is_refused(saves: Path) -> None:
    with create(saves) as store:
        state = act(store, state0())
        planted = saves / "camp" / "log" / "000002.json"
        planted.write_text("{}")
        with pytest.raises(SaveError) as err:
            act(store, state, new_chunk=True)
    assert err.value.message == (f"Cannot save: {planted} already exists (the log was changed "
                                 f"outside Sidekick?).")


def test_the_store_reads_its_state_from_memory_after_a_save(saves: Path) -> None:
    with create(saves) as store:
        state = act(store, state0())
        (saves / "camp" / "log" / "000001.json").write_text("{", "utf-8")
        assert [e["n"] for e in store.events()] == [1, 2]
        (saves / "camp" / CAMPAIGN_FILE).write_text("{", "utf-8")
        assert store.state == state
        store.truncate_from_action(1, state0())
        (saves / "camp" / CAMPAIGN_FILE).write_text("{", "utf-8")
        assert store.state == state0()


def test_a_failed_load_is_retried_on_next_use(saves: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    with create(saves) as store:
        state = act(store, state0())
        with monkeypatch.context() as m:
            m.setattr(os, "replace", fail_with(errno.ENOSPC, "No space left"))
            with pytest.raises(SaveError):
                act(store, state)
        (saves / "camp" / CAMPAIGN_FILE).write_text("{", "utf-8")
        for _ in range(2):
            with pytest.raises(SaveError):
                _ = store.state


def test_a_failed_undo_leaves_a_store_that_saves_correctly(
        saves: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with create(saves) as store:
        s1 = act(store, state0())
        act(store, s1, new_chunk=True)
        with monkeypatch.context() as m:
            m.setattr(Path, "unlink", fail_with(errno.EIO, "Disk on fire"))
            with pytest.raises(SaveError):
                store.truncate_from_action(2, s1)
        s2 = act(store, s1)
        assert [e["n"] for e in store.events()] == [1, 2, 3, 4]
    with CampaignStore.open(saves, "camp") as store:
        assert store.state == s2
        assert [e["n"] for e in store.events()] == [1, 2, 3, 4]


def test_undo_with_nothing_to_drop_keeps_an_empty_last_chunk(saves: Path) -> None:
    with create(saves) as store:
        state = act(store, state0())
        store.save([], state, new_chunk=True)
        store.truncate_from_action(2, state)
        assert store.state == state
    assert (saves / "camp" / "log" / "000002.json").exists()


def test_undo_sets_last_played(saves: Path) -> None:
    with create(saves) as store:
        state = act(store, state0())
        before = store.meta["last_played"]
        time.sleep(0.005)
        store.truncate_from_action(1, state0())
        meta = store.meta
    assert meta["last_played"] > before
    assert set(meta) == {"name", "last_played"}
    assert state["event_no"] == 2


def test_events_handed_out_are_copies(saves: Path) -> None:
    with create(saves) as store:
        state = act(store, state0())
        for event in store.events():
            event["v"] = 99
        base, events = store.base_and_events_for_action(1)
        base["total"] = 99
        assert events == []
        assert [e["v"] for e in store.events()] == [1, 1]
        assert store.base_and_events_for_action(1)[0] == state0()
        assert store.state == state


def test_an_event_repeated_across_chunks_is_damage(saves: Path) -> None:
    with create(saves) as store:
        state = act(store, state0())
        act(store, state, new_chunk=True)
    chunk2 = saves / "camp" / "log" / "000002.json"
    data = json.loads(chunk2.read_text("utf-8"))
    data["_default"]["1"]["base"]["event_no"] = 1
    data["_default"]["2"]["n"] = 2  # repeats event 2 of chunk 1
    chunk2.write_text(json.dumps(data), "utf-8")
    path = saves / "camp" / CAMPAIGN_FILE
    rewrite_doc(path, state={**doc_of(path)["state"], "event_no": 4})
    for opener in (CampaignStore.open, CampaignStore.open_read_only):
        with opener(saves, "camp") as store, pytest.raises(SaveError) as err:
            list(store.events())
        assert err.value.message == (f"{chunk2} is damaged: event n=2 comes after n=2 in an "
                                     f"earlier chunk.")


def test_an_event_number_going_back_across_chunks_is_damage(saves: Path) -> None:
    with create(saves) as store:
        state = act(store, state0(), 3)
        act(store, state, new_chunk=True)
    chunk2 = saves / "camp" / "log" / "000002.json"
    data = json.loads(chunk2.read_text("utf-8"))
    data["_default"]["1"]["base"]["event_no"] = 1
    data["_default"]["2"]["n"] = 2
    data["_default"]["3"]["n"] = 5
    chunk2.write_text(json.dumps(data), "utf-8")
    path = saves / "camp" / CAMPAIGN_FILE
    rewrite_doc(path, state={**doc_of(path)["state"], "event_no": 5})
    with CampaignStore.open_read_only(saves, "camp") as store, pytest.raises(SaveError) as err:
        list(store.events())
    assert "event n=2 comes after n=3" in err.value.message


def test_undo_of_an_action_split_over_two_chunks_starts_before_it(saves: Path) -> None:
    with create(saves) as store:
        s1 = act(store, state0())
        s2 = act(store, s1, 1)
        act(store, s2, 1, a=2, new_chunk=True)
        base, events = store.base_and_events_for_action(2)
    assert replay(base, events) == s1


def test_a_torn_first_save_is_dropped_on_open(saves: Path) -> None:
    with create(saves) as store:
        act(store, state0())
    folder = saves / "camp"
    (folder / BACKUP_FILE).replace(folder / CAMPAIGN_FILE)  # the state before the save
    with CampaignStore.open(saves, "camp") as store:
        assert store.state == state0()
        assert list(store.events()) == []


def test_publish_and_discard_of_an_opened_store_change_nothing(saves: Path) -> None:
    create(saves).close()
    with CampaignStore.open(saves, "camp") as store:
        assert store.closed is False
        store.publish()
        store.discard()
        assert store.closed is True
    assert (saves / "camp" / CAMPAIGN_FILE).exists()
    with CampaignStore.open(saves, "camp") as store:
        assert store.state == state0()


def test_publish_when_the_name_was_taken_meanwhile(saves: Path) -> None:
    store = CampaignStore.create(saves, "camp", {}, state0(), staged=True)
    (saves / "camp").mkdir()
    with pytest.raises(SaveError) as err:
        store.publish()
    assert err.value.message == f"A campaign 'camp' already exists in {saves}."
    store.discard()


@pytest.mark.parametrize(("code", "message"), [
    (errno.ENOTEMPTY, "A campaign 'camp' already exists in {saves}."),
    (errno.EIO, "Cannot create {saves}/camp: Disk on fire."),
])
def test_publish_rename_failures(saves: Path, monkeypatch: pytest.MonkeyPatch, code: int,
                                 message: str) -> None:
    store = CampaignStore.create(saves, "camp", {}, state0(), staged=True)
    with monkeypatch.context() as m:
        m.setattr(os, "rename", fail_with(code, "Disk on fire"))
        with pytest.raises(SaveError) as err:
            store.publish()
    assert err.value.message == message.format(saves=saves)
    store.discard()


def test_a_read_only_store_names_its_campaign_in_chunk_errors(saves: Path) -> None:
    with create(saves) as store:
        state = act(store, state0())
        act(store, state, new_chunk=True)
    (saves / "camp" / "log" / "000001.json").write_text("{", "utf-8")
    with CampaignStore.open_read_only(saves, "camp") as store, pytest.raises(SaveError) as err:
        list(store.events())
    assert "(campaign 'camp', log chunk 1)" in err.value.message
    assert "'sidekick recover camp'" in err.value.message


# --------------------------------------------------------------------------- listing


def set_played(saves: Path, cid: str, when: Any, **meta: Any) -> None:
    path = saves / cid / CAMPAIGN_FILE
    rewrite_doc(path, meta={**doc_of(path)["meta"], "last_played": when, **meta})


def test_listing_sorts_mixed_time_zones_and_bad_times(saves: Path) -> None:
    for cid in ("east", "utc", "naive", "bad"):
        create(saves, cid).close()
    set_played(saves, "east", "2026-01-01T10:00:00+05:00")  # 05:00 UTC
    set_played(saves, "utc", "2026-01-01T07:00:00+00:00")
    set_played(saves, "naive", "2026-01-01T06:00:00")  # taken as UTC
    set_played(saves, "bad", "yesterday")
    assert [s.id for s in list_campaigns(saves)] == ["utc", "naive", "east", "bad"]


def test_listing_shows_meta_values_as_text(saves: Path) -> None:
    create(saves).close()
    set_played(saves, "camp", "2026-01-01T07:00:00+00:00", hero=7, scene=None, name=None)
    (summary,) = list_campaigns(saves)
    assert (summary.hero, summary.scene, summary.name) == ("7", "", "camp")
    assert summary.error is None
    assert summary.recovery == ""


def test_a_folder_with_only_a_log_chunk_is_listed_as_damaged(saves: Path) -> None:
    with create(saves) as store:
        act(store, state0())
    (saves / "camp" / CAMPAIGN_FILE).unlink()
    (saves / "camp" / BACKUP_FILE).unlink(missing_ok=True)
    (saves / "temp").mkdir()
    (saves / "temp" / "log").mkdir()
    (saves / "temp" / "log" / ".~000001.json.0123abcd.tmp").write_text("x")
    (summary,) = list_campaigns(saves)
    assert summary.id == "camp"
    assert summary.error is not None
    assert summary.error.startswith(f"{saves / 'camp' / CAMPAIGN_FILE} is missing.")
    assert summary.recovery == store_module._REBUILD_PLAN


def test_a_campaign_with_both_files_damaged_lists_an_error(saves: Path) -> None:
    with create(saves) as store:
        state = act(store, state0())
        act(store, state)
    folder = saves / "camp"
    (folder / CAMPAIGN_FILE).write_text("{", "utf-8")
    (folder / "log" / "000001.json").write_text("{", "utf-8")
    (summary,) = list_campaigns(saves)
    assert summary.recovery == store_module._RESUME_BACKUP_PLAN
    assert summary.error is not None and "invalid JSON" in summary.error


def test_a_half_made_folder_with_an_empty_log_is_swept(saves: Path) -> None:
    saves.mkdir()
    folder = saves / "old"
    (folder / "log").mkdir(parents=True)
    (folder / ".lock").write_text("")
    list_campaigns(saves)
    assert not folder.exists()


def test_a_folder_whose_log_is_a_file_is_not_swept(saves: Path) -> None:
    saves.mkdir()
    folder = saves / "old"
    folder.mkdir()
    (folder / "log").write_text("mine")
    (folder / ".lock").write_text("")
    list_campaigns(saves)
    assert sorted(p.name for p in folder.iterdir()) == [".lock", "log"]


def test_an_unfinished_delete_with_a_bad_name_is_not_restored(saves: Path) -> None:
    saves.mkdir()
    trash = saves / ".~deleted-Bad-0123abcd"
    trash.mkdir()
    (trash / "notes.txt").write_text("mine")
    list_campaigns(saves)
    assert not (saves / "Bad").exists()
    assert (trash / "notes.txt").exists()


# --------------------------------------------------------------------------- deleting


@pytest.mark.parametrize(("names", "shown"), [
    (["a.txt"], "1 item not made by Sidekick was left alone in {f}: a.txt."),
    (["a.txt", "b.txt"], "2 items not made by Sidekick were left alone in {f}: a.txt, b.txt."),
    (list("abcde"), "5 items not made by Sidekick were left alone in {f}: a, b, c, d, e."),
    (list("abcdef"),
     "6 items not made by Sidekick were left alone in {f}: a, b, c, d, e and 1 more."),
])
def test_delete_names_what_it_left_alone(saves: Path, names: list[str], shown: str) -> None:
    create(saves).close()
    folder = saves / "camp"
    for name in names:
        (folder / name).write_text("mine")
    message = delete_campaign(saves, "camp")
    assert message == "Deleted campaign 'camp'. " + shown.format(f=folder)


def test_delete_keeps_look_alike_files_and_folders(saves: Path) -> None:
    with create(saves) as store:
        act(store, state0())
    folder = saves / "camp"
    (folder / "notes.tmp").write_text("mine")
    (folder / "pics").mkdir()
    (folder / "pics" / "000001.json").write_text("mine")
    (folder / ".~campaign.json.0123abcd.tmp").write_text("temp")
    (folder / "log" / "x.txt").write_text("mine")
    message = delete_campaign(saves, "camp")
    assert message.endswith(f"left alone in {folder}: log/x.txt, notes.tmp, pics.")
    assert sorted(p.name for p in folder.iterdir()) == ["log", "notes.tmp", "pics"]
    assert (folder / "pics" / "000001.json").exists()


def test_delete_after_recover_removes_the_damaged_copies(saves: Path) -> None:
    with create(saves) as store:
        act(store, state0())
    (saves / "camp" / CAMPAIGN_FILE).write_text("{", "utf-8")
    CampaignStore.recover(saves, "camp", replay, make_meta)
    assert delete_campaign(saves, "camp") == "Deleted campaign 'camp'."
    assert not (saves / "camp").exists()


def test_a_delete_that_cannot_move_the_folder_says_so(saves: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    create(saves).close()
    monkeypatch.setattr(os, "rename", fail_with(errno.EIO, "Disk on fire"))
    with pytest.raises(SaveError) as err:
        delete_campaign(saves, "camp")
    assert err.value.message == f"Cannot delete {saves / 'camp'}: Disk on fire."


def test_a_delete_that_cannot_remove_the_files_says_where_they_are(
        saves: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    create(saves).close()
    with monkeypatch.context() as m:
        m.setattr(store_folder, "_remove_known_files", fail_with(errno.EIO, "Disk on fire"))
        with pytest.raises(SaveError) as err:
            delete_campaign(saves, "camp")
    m_ = re.fullmatch(r"Campaign 'camp' was deleted but its files could not all be removed "
                      r"from (.+): Disk on fire\. Sidekick finishes the job the next time it "
                      r"lists the save folder\.", err.value.message)
    assert m_ is not None
    assert re.fullmatch(r"\.~deleted-camp-[0-9a-f]{8}", Path(m_.group(1)).name)
    assert list_campaigns(saves) == []
    assert sorted(os.listdir(saves)) == []


# --------------------------------------------------------------------------- recovery


def test_recover_rebuild_names_and_keeps_the_damaged_file(saves: Path) -> None:
    with create(saves, meta={"name": "Café"}) as store:
        act(store, state0())
    folder = saves / "camp"
    (folder / CAMPAIGN_FILE).write_text("{", "utf-8")
    done = CampaignStore.recover(saves, "camp", replay, make_meta)
    m = re.fullmatch(rf"Rebuilt campaign\.json from the log \(up to event 2\)\. The damaged "
                     rf"file is kept as (campaign\.json\.damaged-{STAMP})\.", done)
    assert m is not None
    assert (folder / m.group(1)).read_text("utf-8") == "{"
    raw = (folder / CAMPAIGN_FILE).read_bytes()
    assert b" " not in raw and "Café".encode() in raw


def test_recover_stamps_in_utc_whatever_the_local_zone(saves: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    with create(saves) as store:
        act(store, state0())
    (saves / "camp" / CAMPAIGN_FILE).write_text("{", "utf-8")
    monkeypatch.setenv("TZ", "Asia/Kolkata")
    time.tzset()
    try:
        done = CampaignStore.recover(saves, "camp", replay, make_meta)
    finally:
        monkeypatch.delenv("TZ")
        time.tzset()
    stamp = re.search(STAMP, done)
    assert stamp is not None
    when = datetime.strptime(stamp.group(0), "%Y%m%dT%H%M%SZ").replace(tzinfo=UTC)
    assert abs((datetime.now(UTC) - when).total_seconds()) < 120


def test_recover_refuses_a_replay_that_falls_short(saves: Path) -> None:
    with create(saves) as store:
        act(store, state0())
    folder = saves / "camp"
    (folder / CAMPAIGN_FILE).write_text("{", "utf-8")
    with pytest.raises(SaveError) as err:
        CampaignStore.recover(saves, "camp", lambda base, events: base, make_meta)
    assert err.value.message == ("Cannot recover campaign 'camp': replaying the log did not "
                                 "reach its last event (2). Nothing was changed.")
    assert (folder / CAMPAIGN_FILE).read_text("utf-8") == "{"


@pytest.mark.parametrize(("which", "what"), [
    ("state", "the state rebuilt from the log"), ("meta", "the rebuilt meta"),
])
def test_recover_names_rebuilt_data_that_is_not_plain_json(saves: Path, which: str,
                                                          what: str) -> None:
    with create(saves) as store:
        act(store, state0())
    (saves / "camp" / CAMPAIGN_FILE).write_text("{", "utf-8")

    def bad_rebuild(base: dict[str, Any], events: list[dict[str, Any]]) -> dict[str, Any]:
        return {**replay(base, events), "x": {1}}

    def bad_meta(state: dict[str, Any], old: dict[str, Any]) -> dict[str, Any]:
        return {"x": {1}}

    with pytest.raises(SaveError) as err:
        CampaignStore.recover(saves, "camp", bad_rebuild if which == "state" else replay,
                              bad_meta if which == "meta" else make_meta)
    assert err.value.message.startswith(f"Cannot save: {what} is not plain JSON data (")


def test_recover_from_the_backup_keeps_the_damaged_files(saves: Path) -> None:
    with create(saves, meta={"name": "Café"}) as store:
        state = act(store, state0())
    with CampaignStore.open(saves, "camp") as store:
        act(store, state)  # the first save of a session keeps a .bak
    folder = saves / "camp"
    (folder / CAMPAIGN_FILE).write_text("{", "utf-8")
    (folder / "log" / "000001.json").write_text("{", "utf-8")
    done = CampaignStore.recover(saves, "camp", replay, make_meta)
    m = re.fullmatch(rf"Resumed from campaign\.json\.bak \(event 2\)\. The damaged "
                     rf"campaign\.json is kept as (campaign\.json\.damaged-{STAMP})\. "
                     rf"Set aside: (log/000001\.json\.damaged-{STAMP})\. Undo cannot go back "
                     rf"past this point\.", done)
    assert m is not None, done
    assert (folder / m.group(1)).read_text("utf-8") == "{"
    assert (folder / m.group(2)).read_text("utf-8") == "{"
    for path in (folder / CAMPAIGN_FILE, folder / "log" / "000001.json"):
        raw = path.read_bytes()
        assert b" " not in raw.replace("Café".encode(), b"") and b"\\u" not in raw, path


def test_recover_a_log_that_is_a_file(saves: Path) -> None:
    with create(saves) as store:
        act(store, state0())
    folder = saves / "camp"
    log = folder / "log"
    for p in log.iterdir():
        p.unlink()
    log.rmdir()
    log.write_text("mine")
    done = CampaignStore.recover(saves, "camp", replay, make_meta)
    m = re.fullmatch(rf"Resumed from campaign\.json \(event 2\)\. Set aside: "
                     rf"(log\.damaged-{STAMP})\. Undo cannot go back past this point\.", done)
    assert m is not None, done
    assert (folder / m.group(1)).read_text() == "mine"
    with CampaignStore.open(saves, "camp") as store:
        assert store.state["event_no"] == 2


def test_recover_keeps_an_empty_last_chunk_and_fills_the_hole_before_it(saves: Path) -> None:
    with create(saves) as store:
        state = act(store, state0())
        state = act(store, state)
        store.save([], state, new_chunk=True)
    log = saves / "camp" / "log"
    (log / "000001.json").write_text("{", "utf-8")
    CampaignStore.recover(saves, "camp", replay, make_meta)
    names = sorted(p.name for p in log.iterdir())
    assert names[0] == "000001.json" and names[2] == "000002.json"
    assert len(names) == 3 and re.fullmatch(rf"000001\.json\.damaged-{STAMP}", names[1])
    assert doc_of(log / "000001.json")["base"] == state
    assert doc_of(log / "000002.json") == {"base": state}


def test_recover_trims_a_last_chunk_that_runs_past_the_state(saves: Path) -> None:
    with create(saves) as store:
        state = act(store, state0())
        act(store, state, new_chunk=True)
    folder = saves / "camp"
    log = folder / "log"
    three = replay(state, [{"n": 3, "a": 2, "v": 1}])
    rewrite_doc(folder / CAMPAIGN_FILE, state=three)
    (log / "000001.json").write_text("{", "utf-8")
    CampaignStore.recover(saves, "camp", replay, make_meta)
    names = sorted(p.name for p in log.iterdir())
    assert names[0] == "000001.json" and names[2] == "000002.json" and len(names) == 3, names
    assert re.fullmatch(rf"000001\.json\.damaged-{STAMP}", names[1])
    assert doc_of(log / "000001.json")["base"] == state
    chunk2 = json.loads((log / "000002.json").read_text("utf-8"))["_default"]
    assert [d["n"] for k, d in sorted(chunk2.items()) if k != "1"] == [3]
    with CampaignStore.open(saves, "camp") as store:
        assert [e["n"] for e in store.events()] == [3]


def test_recover_that_fails_on_disk_says_why_and_where(saves: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    with create(saves) as store:
        act(store, state0())
    folder = saves / "camp"
    (folder / CAMPAIGN_FILE).write_text("{", "utf-8")
    with monkeypatch.context() as m:
        m.setattr(os, "rename", fail_with(errno.EIO, "Disk on fire"))
        with pytest.raises(SaveError) as err:
            CampaignStore.recover(saves, "camp", replay, make_meta)
    assert err.value.message == f"Cannot recover campaign 'camp': Disk on fire ({folder})."
    with monkeypatch.context() as m:
        m.setattr(os, "rename", fail_with(errno.EIO, "Disk on fire", "/x/y"))
        with pytest.raises(SaveError) as err:
            CampaignStore.recover(saves, "camp", replay, make_meta)
    assert err.value.message == "Cannot recover campaign 'camp': Disk on fire (/x/y)."


def test_set_aside_names_count_up_from_two(tmp_path: Path) -> None:
    path = tmp_path / "campaign.json"
    path.write_text("x")
    for name in ("campaign.json.damaged-S", "campaign.json.damaged-S-2"):
        (tmp_path / name).write_text("old")
    moved = store_module._set_aside(path, "S")
    assert moved == tmp_path / "campaign.json.damaged-S-3"
    assert moved.read_text() == "x"


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_a_save_file_holding_nan_or_infinity_is_damaged(saves: Path, constant: str) -> None:
    """Such a file used to open, and then every save failed with a raw ValueError."""
    with create(saves) as store:
        act(store, state0())
    path = saves / "camp" / CAMPAIGN_FILE
    path.write_text(path.read_text("utf-8").replace('"name":"Camp"', f'"name":{constant}'),
                    "utf-8")
    with pytest.raises(SaveError) as err:
        CampaignStore.open(saves, "camp")
    assert err.value.message.startswith(f"{path} is damaged: {constant} is not a JSON number.")
    (summary,) = list_campaigns(saves)
    assert summary.recovery == store_module._REBUILD_PLAN


def test_open_keeps_files_that_only_look_temporary(saves: Path) -> None:
    create(saves).close()
    folder = saves / "camp"
    (folder / "notes.tmp").write_text("mine")
    (folder / ".~mine").write_text("mine")
    (folder / ".~campaign.json.0123abcd.tmp").write_text("left by a crash")
    CampaignStore.open(saves, "camp").close()
    assert sorted(p.name for p in folder.iterdir() if p.name.startswith((".~", "notes"))) == [
        ".~mine", "notes.tmp"]


def test_the_backup_of_an_emptied_campaign_file_is_empty(saves: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    with create(saves) as store:
        state = act(store, state0())
        (saves / "camp" / CAMPAIGN_FILE).write_bytes(b"")
        monkeypatch.setattr(os, "link", fail_with(errno.EPERM, "No links here"))
        act(store, state, new_chunk=True)  # a save that starts a chunk keeps a .bak
    assert (saves / "camp" / BACKUP_FILE).read_bytes() == b""


def test_a_backup_that_cannot_be_read_fails_the_save_cleanly(
        saves: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with create(saves) as store:
        state = act(store, state0())
        with monkeypatch.context() as m:
            m.setattr(os, "link", fail_with(errno.EPERM, "No links here"))
            m.setattr(store_files, "_read_regular", fail_with(errno.EIO, "Disk on fire"))
            with pytest.raises(SaveError) as err:
                act(store, state, new_chunk=True)  # a save that starts a chunk keeps a .bak
        assert err.value.message.startswith("Cannot save campaign 'camp': Disk on fire")
        assert [p.name for p in (saves / "camp").iterdir() if p.name.startswith(".~")] == []
        assert store.state == state


def test_a_delete_whose_name_was_taken_meanwhile_says_where_the_files_are(
        saves: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    create(saves).close()
    folder = saves / "camp"
    (folder / "notes.txt").write_text("mine")
    remove = store_folder._remove_known_files

    def remove_then_take_the_name(trash: Path) -> list[str]:
        left = remove(trash)
        folder.mkdir()
        return left

    monkeypatch.setattr(store_folder, "_remove_known_files", remove_then_take_the_name)
    message = delete_campaign(saves, "camp")
    (trash,) = [p for p in saves.iterdir() if p.name.startswith(".~deleted-")]
    assert message == ("Deleted campaign 'camp'. 1 item not made by Sidekick was left alone "
                       f"in {trash}: notes.txt.")
    assert (trash / "notes.txt").read_text() == "mine"


def test_a_recovery_that_does_not_repair_says_so(saves: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    with create(saves) as store:
        act(store, state0())
    (saves / "camp" / "log" / "000001.json").write_text("{", "utf-8")
    monkeypatch.setattr(store_recover, "_repair_log", lambda *args: [])
    with pytest.raises(SaveError) as err:
        CampaignStore.recover(saves, "camp", replay, make_meta)
    assert err.value.message.startswith("Recovering campaign 'camp' did not repair it: ")
    assert "invalid JSON" in err.value.message


def test_an_unreadable_lock_holder_is_left_out_of_the_message(
        saves: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    create(saves).close()
    fd = hold_lock(saves / "camp", b"4242\n")
    try:
        monkeypatch.setattr(os, "pread", fail_with(errno.EIO, "Disk on fire"))
        with pytest.raises(CampaignInUse) as err:
            CampaignStore.open(saves, "camp")
    finally:
        os.close(fd)
    assert err.value.message.startswith("Campaign 'camp' is open in another Sidekick process. ")


def chunk_data(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text("utf-8"))


def test_damaged_chunk_messages(saves: Path) -> None:
    with create(saves) as store:
        act(store, state0())
    chunk = saves / "camp" / "log" / "000001.json"
    original = chunk_data(chunk)
    cases: list[tuple[Any, str]] = [
        ([], "doc 1 'base' should be an object, found a list."),
        ({"total": 0}, "base.event_no should be a non-negative integer, found missing."),
        ({"event_no": -1}, "base.event_no should be a non-negative integer, found -1."),
        ({"event_no": "0"}, "base.event_no should be a non-negative integer, found '0'."),
    ]
    for base, message in cases:
        data = json.loads(json.dumps(original))
        data["_default"]["1"]["base"] = base
        chunk.write_text(json.dumps(data), "utf-8")
        with pytest.raises(SaveError) as err:
            CampaignStore.open_read_only(saves, "camp")
        assert err.value.message.startswith(f"{chunk} is damaged: {message}"), base
    data = json.loads(json.dumps(original))
    data["_default"]["3"]["n"] = 1  # two events numbered 1
    chunk.write_text(json.dumps(data), "utf-8")
    with pytest.raises(SaveError) as err:
        CampaignStore.open_read_only(saves, "camp")
    assert err.value.message.startswith(
        f"{chunk} is damaged: event numbers must increase, but event n=1 comes after n=1.")


def test_a_chunk_that_vanished_is_named_as_missing(saves: Path) -> None:
    with create(saves) as store:
        state = act(store, state0())
        act(store, state, new_chunk=True)
        chunk = saves / "camp" / "log" / "000001.json"
        chunk.unlink()
        with pytest.raises(SaveError) as err:
            list(store.events())
    assert err.value.message.startswith(f"{chunk} is missing. (campaign 'camp', log chunk 1)")


def test_undo_stops_at_the_recovery_point_and_says_when(saves: Path) -> None:
    with create(saves) as store:
        state = act(store, state0())
        act(store, state)
    (saves / "camp" / "log" / "000001.json").write_text("{", "utf-8")
    CampaignStore.recover(saves, "camp", replay, make_meta)
    with CampaignStore.open(saves, "camp") as store, pytest.raises(SaveError) as err:
        store.base_and_events_for_action(2)
    assert re.fullmatch(r"Cannot undo past 20[0-9]{2}-[0-9]{2}-[0-9]{2}T[0-9:.]+\+00:00: the "
                        r"campaign was recovered then and the log before that point was set "
                        r"aside\.", err.value.message), err.value.message


def test_the_lock_file_is_private_to_this_process(saves: Path) -> None:
    old = os.umask(0o022)
    try:
        store = create(saves)
    finally:
        os.umask(old)
    with store:
        lock = saves / "camp" / ".lock"
        assert stat.S_IMODE(lock.stat().st_mode) & 0o111 == 0
        assert store._lock_fd is not None
        assert os.get_inheritable(store._lock_fd) is False  # child processes do not hold it
    store.close()  # closing twice is harmless
    assert store.closed


def test_a_lock_file_of_exactly_the_size_limit_is_still_ours(saves: Path) -> None:
    create(saves).close()
    (saves / "camp" / ".lock").write_bytes(b"1" * store_module.MAX_LOCK_BYTES)
    CampaignStore.open(saves, "camp").close()


def test_a_lock_file_that_cannot_be_opened_is_named(saves: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    create(saves).close()
    lock = saves / "camp" / ".lock"
    lock.unlink()
    lock.mkdir()
    with pytest.raises(SaveError) as err:
        CampaignStore.open(saves, "camp")
    assert err.value.message == f"Cannot open the lock file {lock}: Is a directory."
    lock.rmdir()
    monkeypatch.setattr(os, "fstat", fail_with(errno.EIO, "Disk on fire"))
    with pytest.raises(SaveError) as err:
        CampaignStore.open(saves, "camp")
    assert err.value.message == f"Cannot open the lock file {lock}: Disk on fire."


def test_a_reopened_store_serves_its_state_from_memory(saves: Path) -> None:
    with create(saves) as store:
        state = act(store, state0())
    with CampaignStore.open(saves, "camp") as store:
        (saves / "camp" / CAMPAIGN_FILE).write_text("{", "utf-8")
        assert store.state == state


def test_the_second_set_aside_name_ends_in_two(tmp_path: Path) -> None:
    path = tmp_path / "campaign.json"
    path.write_text("x")
    (tmp_path / "campaign.json.damaged-S").write_text("old")
    assert store_module._set_aside(path, "S") == tmp_path / "campaign.json.damaged-S-2"


def test_a_recovery_chunk_keeps_non_ascii_text_as_is(saves: Path) -> None:
    with CampaignStore.create(saves, "camp", {}, {**state0(), "hero": "Zoë"}) as store:
        act(store, store.state)
    log = saves / "camp" / "log"
    (log / "000001.json").write_text("{", "utf-8")
    CampaignStore.recover(saves, "camp", replay, make_meta)
    raw = (log / "000001.json").read_bytes()
    assert "Zoë".encode() in raw and b" " not in raw


def test_recover_lists_every_file_it_set_aside(saves: Path) -> None:
    with create(saves) as store:
        state = act(store, state0())
        act(store, state, new_chunk=True)
    log = saves / "camp" / "log"
    for name in ("000001.json", "000002.json"):
        (log / name).write_text("{", "utf-8")
    done = CampaignStore.recover(saves, "camp", replay, make_meta)
    assert re.fullmatch(rf"Resumed from campaign\.json \(event 4\)\. Set aside: "
                        rf"log/000001\.json\.damaged-{STAMP}, log/000002\.json\.damaged-{STAMP}\. "
                        rf"Undo cannot go back past this point\.", done), done


def test_repr_names_the_campaign_and_where_it_is(saves: Path) -> None:
    store = create(saves)
    act(store, state0())
    assert repr(store) == f"<CampaignStore 'camp' at {saves / 'camp'} (event 2)>"
    store.close()
    assert repr(store) == f"<CampaignStore 'camp' at {saves / 'camp'} (closed)>"


def test_reading_a_save_file_at_and_over_its_size_limit(tmp_path: Path) -> None:
    path = tmp_path / "f.json"
    path.write_bytes(b"x" * 10)
    assert store_module._read_regular(path, limit=10) == b"x" * 10
    with pytest.raises(SaveError) as err:
        store_module._read_regular(path, limit=9)
    assert err.value.message == (f"{path} is too large (10 bytes; Sidekick reads save files of "
                                 f"at most 9 bytes).")
    big = bytes(range(256)) * 6000  # 1.5 MiB: read in more than one part
    path.write_bytes(big)
    assert store_module._read_regular(path) == big


def test_reading_a_save_file_names_the_failure(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "file").write_text("x")
    bad = tmp_path / "file" / "campaign.json"
    with pytest.raises(SaveError) as err:
        store_module._read_regular(bad)
    assert err.value.message == f"Cannot read {bad}: Not a directory."
    link = tmp_path / "link.json"
    link.symlink_to(tmp_path / "file")
    with pytest.raises(SaveError) as err:
        store_module._read_regular(link)
    assert err.value.message.startswith(f"{link} is a symbolic link: Sidekick does not follow")
    monkeypatch.setattr(os, "read", fail_with(errno.EIO, "Disk on fire"))
    with pytest.raises(SaveError) as err:
        store_module._read_regular(tmp_path / "file")
    assert err.value.message == f"Cannot read {tmp_path / 'file'}: Disk on fire."


def test_a_recovery_is_checked_down_to_the_oldest_chunk(saves: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    with create(saves) as store:
        state = act(store, state0())
        act(store, state, new_chunk=True)
    (saves / "camp" / "log" / "000001.json").write_text("{", "utf-8")
    monkeypatch.setattr(store_recover, "_repair_log", lambda *args: [])
    with pytest.raises(SaveError) as err:
        CampaignStore.recover(saves, "camp", replay, make_meta)
    assert err.value.message.startswith("Recovering campaign 'camp' did not repair it: ")


def test_a_hand_made_chunk_of_300k_events_is_refused_with_one_line(saves: Path) -> None:
    with create(saves) as store:
        state = act(store, state0())
    chunk = saves / "camp" / "log" / "000001.json"
    data = json.loads(chunk.read_text("utf-8"))
    table = data["_default"]
    for i in range(300_000):
        table[str(i + 4)] = {"n": i + 3, "a": 2, "v": 1}
    chunk.write_text(json.dumps(data), "utf-8")
    rewrite_doc(saves / "camp" / CAMPAIGN_FILE, state={**state, "event_no": 300_002})
    for opener in (CampaignStore.open, CampaignStore.open_read_only):
        with pytest.raises(SaveError) as err:
            opener(saves, "camp")
        assert f"{chunk} is damaged: it holds 300,002 events, and a log chunk holds at most" \
               f" {MAX_CHUNK_EVENTS:,}" in err.value.message
        assert "\n" not in err.value.message


def test_an_action_too_big_for_a_chunk_is_refused_and_nothing_is_written(
        saves: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(store_chunks, "MAX_CHUNK_EVENTS", CHUNK_EVENTS + 10)
    monkeypatch.setattr(store_campaign, "MAX_CHUNK_EVENTS", CHUNK_EVENTS + 10)
    with create(saves) as store:
        state = act(store, state0())
        with pytest.raises(SaveError, match=re.escape("one action made 11 events, more than a"
                                                      " log chunk may hold (10). Nothing was"
                                                      " written.")):
            act(store, state, 11)
        assert store.state == state
        act(store, state, 10)
    with CampaignStore.open(saves, "camp") as store:
        assert len(list(store.events())) == 12
