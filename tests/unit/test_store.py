"""Tests of engine.store: real files in tmp folders, real locks, real subprocesses and kills."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

import engine.store.storage as store_storage
from engine.errors import SaveError
from engine.store import (
    BACKUP_FILE,
    CAMPAIGN_FILE,
    CampaignStore,
    default_saves_dir,
    delete_campaign,
    list_campaigns,
    slugify,
)

ROOT = Path(__file__).resolve().parents[2]
PAD = "x" * 3000  # makes each state about 3 KB, like a real one

# --------------------------------------------------------------------------- a tiny event model
# state: event_no (last applied n), total (sum of event values), last_a (last action number)


def initial_state() -> dict[str, Any]:
    return {"event_no": 0, "total": 0, "last_a": 0, "pad": PAD}


def apply(state: dict[str, Any], event: dict[str, Any]) -> dict[str, Any]:
    return {**state, "event_no": event["n"], "total": state["total"] + event["v"],
            "last_a": event["a"]}


def replay(state: dict[str, Any], events: list[dict[str, Any]]) -> dict[str, Any]:
    for event in events:
        state = apply(state, event)
    return state


def action(state: dict[str, Any], count: int, values: list[int] | None = None) -> list[dict]:
    """``count`` events of the next action after ``state``."""
    a = state["last_a"] + 1
    values = values or [1] * count
    return [{"n": state["event_no"] + i + 1, "a": a, "v": values[i], "text": f"e{a}.{i}"}
            for i in range(count)]


class Campaign:
    """A store plus the model of what it should hold."""

    def __init__(self, store: CampaignStore) -> None:
        self.store = store
        self.state = store.state
        self.events: list[dict] = []
        self.before: dict[int, dict] = {}  # action number -> state just before it

    def act(self, count: int = 4, new_chunk: bool = False, **meta: Any) -> list[dict]:
        events = action(self.state, count)
        if events:
            self.before[events[0]["a"]] = self.state
        self.state = replay(self.state, events)
        self.store.save(events, self.state, meta or None, new_chunk=new_chunk)
        self.events += events
        return events

    def undo(self, a: int) -> None:
        target = self.before[a]
        self.store.truncate_from_action(a, target)
        self.state = target
        self.events = [e for e in self.events if e["a"] < a]
        self.before = {k: v for k, v in self.before.items() if k < a}


@pytest.fixture
def saves(tmp_path: Path) -> Path:
    return tmp_path / "saves"


def new_campaign(saves: Path, cid: str = "camp", **meta: Any) -> Campaign:
    meta = {"name": cid.title(), "system": "masks", "hero": "Kid", "scene": "Start", **meta}
    return Campaign(CampaignStore.create(saves, cid, meta, initial_state()))


def log_files(saves: Path, cid: str = "camp") -> list[str]:
    return sorted(p.name for p in (saves / cid / "log").iterdir())


def read_json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def run_child(script: str, *args: str) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen([sys.executable, "-c", script, *args], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True, env=env, cwd=ROOT)


# --------------------------------------------------------------------------- names and folders


@pytest.mark.parametrize(("name", "slug"), [
    ("The Night Shift!", "the-night-shift"),
    ("  Café  Ünïcode  ", "cafe-unicode"),
    ("a/../../etc", "a-etc"),
    ("!!!", "campaign"),
    ("x" * 100, "x" * 64),
])
def test_slugify(name: str, slug: str) -> None:
    assert slugify(name) == slug


def test_default_saves_dir(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("SIDEKICK_SAVES", raising=False)
    monkeypatch.chdir(tmp_path)
    assert default_saves_dir() == tmp_path / "saves"
    monkeypatch.setenv("SIDEKICK_SAVES", str(tmp_path / "elsewhere"))
    assert default_saves_dir() == tmp_path / "elsewhere"


@pytest.mark.parametrize("bad", ["", "..", "../evil", "a/b", "/abs", "Upper", "a b", ".hidden",
                                 "-x", "x-", "a--b", "x" * 65, "a\x00b"])
def test_bad_ids_are_refused(saves: Path, bad: str) -> None:
    with pytest.raises(SaveError, match="Invalid campaign id"):
        CampaignStore.create(saves, bad, {}, initial_state())
    with pytest.raises(SaveError, match="Invalid campaign id"):
        CampaignStore.open(saves, bad)
    with pytest.raises(SaveError, match="Invalid campaign id"):
        delete_campaign(saves, bad)
    assert not saves.exists() or not any(saves.iterdir())


def test_create_existing_and_open_missing(saves: Path) -> None:
    new_campaign(saves).store.close()
    with pytest.raises(SaveError, match="already exists"):
        CampaignStore.create(saves, "camp", {}, initial_state())
    with pytest.raises(SaveError, match="No campaign 'other'"):
        CampaignStore.open(saves, "other")


def test_create_refuses_bad_state(saves: Path) -> None:
    with pytest.raises(SaveError, match="event_no"):
        CampaignStore.create(saves, "camp", {}, {"hp": 3})
    with pytest.raises(SaveError, match="plain JSON"):
        CampaignStore.create(saves, "camp", {}, {"event_no": 0, "x": object()})
    assert not (saves / "camp").exists()


# --------------------------------------------------------------------------- round trips


def test_save_reopen_round_trip(saves: Path) -> None:
    camp = new_campaign(saves)
    assert camp.store.meta["last_played"]
    first_played = camp.store.meta["last_played"]
    for i in range(10):
        time.sleep(0.002)
        camp.act(count=1 + i % 4, scene=f"Scene {i}")
    assert camp.store.meta["last_played"] > first_played
    camp.store.close()

    with CampaignStore.open(saves, "camp") as store:
        assert store.state == camp.state
        assert list(store.events()) == camp.events
        assert store.meta["scene"] == "Scene 9"
        assert store.meta["name"] == "Camp"
        assert store.meta["hero"] == "Kid"
    assert store.closed
    with pytest.raises(SaveError, match="closed"):
        _ = store.state


def test_data_is_copied_in_and_out(saves: Path) -> None:
    camp = new_campaign(saves)
    events = action(camp.state, 2)
    state = replay(camp.state, events)
    camp.store.save(events, state)
    state["total"] = 999
    events[0]["v"] = 999
    got = camp.store.state
    got["total"] = -1
    camp.store.meta["name"] = "changed"
    assert camp.store.state["total"] == 2
    assert next(camp.store.events())["v"] == 1
    assert camp.store.meta["name"] == "Camp"
    camp.store.close()
    with CampaignStore.open(saves, "camp") as store:
        assert store.state["total"] == 2


def test_save_refuses_inconsistent_input(saves: Path) -> None:
    camp = new_campaign(saves)
    camp.act(2)
    good = camp.state
    store = camp.store
    with pytest.raises(SaveError, match="must increase"):
        store.save([{"n": 2, "a": 2}], {**good, "event_no": 2})
    with pytest.raises(SaveError, match="must not decrease"):
        store.save([{"n": 3, "a": 0}], {**good, "event_no": 3})
    with pytest.raises(SaveError, match="event_no"):
        store.save([{"n": 3, "a": 2}], {**good, "event_no": 7})
    with pytest.raises(SaveError, match="integer 'n'"):
        store.save([{"a": 2}], good)
    with pytest.raises(SaveError, match="plain JSON"):
        store.save([{"n": 3, "a": 2, "x": {1, 2}}], {**good, "event_no": 3})
    with pytest.raises(SaveError, match="plain JSON"):
        store.save([], {**good, "f": float("nan")})
    store.close()
    with CampaignStore.open(saves, "camp") as store:
        assert store.state == good
        assert list(store.events()) == camp.events


def test_meta_only_save(saves: Path) -> None:
    camp = new_campaign(saves)
    camp.act(3)
    camp.store.save([], camp.state, {"scene": "Later"})
    camp.store.close()
    with CampaignStore.open(saves, "camp") as store:
        assert store.meta["scene"] == "Later"
        assert store.state == camp.state


def test_backup_is_the_campaign_file_before_a_session_or_a_chunk(saves: Path) -> None:
    camp = new_campaign(saves)
    first = (saves / "camp" / CAMPAIGN_FILE).read_bytes()
    camp.act(1)  # the first save of a session keeps the .bak
    assert (saves / "camp" / BACKUP_FILE).read_bytes() == first
    camp.act(1)  # other saves leave it (one rename a save, not three)
    assert (saves / "camp" / BACKUP_FILE).read_bytes() == first
    before = (saves / "camp" / CAMPAIGN_FILE).read_bytes()
    camp.act(1, new_chunk=True)  # so does a save that starts a log chunk
    assert (saves / "camp" / BACKUP_FILE).read_bytes() == before
    camp.act(1)
    camp.store.close()
    before = (saves / "camp" / CAMPAIGN_FILE).read_bytes()
    with CampaignStore.open(saves, "camp") as store:
        camp.store = store
        camp.act(1)
        assert (saves / "camp" / BACKUP_FILE).read_bytes() == before


# --------------------------------------------------------------------------- chunks and undo


def test_chunk_rollover_at_200(saves: Path) -> None:
    camp = new_campaign(saves)
    for _ in range(50):
        camp.act(4)
    assert log_files(saves) == ["000001.json"]
    chunk1 = read_json(saves / "camp" / "log" / "000001.json")["_default"]
    assert len(chunk1) == 1 + 200
    at_200 = camp.state
    camp.act(4)
    assert log_files(saves) == ["000001.json", "000002.json"]
    chunk2 = read_json(saves / "camp" / "log" / "000002.json")["_default"]
    assert chunk2["1"] == {"base": at_200}
    assert [doc["n"] for key, doc in chunk2.items() if key != "1"] == [201, 202, 203, 204]
    camp.store.close()
    with CampaignStore.open(saves, "camp") as store:
        assert list(store.events()) == camp.events


def test_an_action_is_never_split_across_chunks(saves: Path) -> None:
    camp = new_campaign(saves)
    for _ in range(66):
        camp.act(3)  # 198 events
    camp.act(5)  # 203 events: one chunk, one action
    assert log_files(saves) == ["000001.json"]
    camp.act(1)
    assert log_files(saves) == ["000001.json", "000002.json"]
    camp.store.close()


def test_new_chunk_flag(saves: Path) -> None:
    camp = new_campaign(saves)
    camp.act(4)
    before = camp.state
    camp.act(2, new_chunk=True)
    assert log_files(saves) == ["000001.json", "000002.json"]
    chunk2 = read_json(saves / "camp" / "log" / "000002.json")["_default"]
    assert chunk2["1"]["base"] == before
    # an empty chunk that already starts at the current state is reused, not duplicated
    camp.store.save([], camp.state, new_chunk=True)
    camp.store.save([], camp.state, new_chunk=True)
    camp.act(1, new_chunk=True)
    assert log_files(saves) == ["000001.json", "000002.json", "000003.json"]
    camp.store.close()
    with CampaignStore.open(saves, "camp") as store:
        assert list(store.events()) == camp.events
        assert store.state == camp.state


def build_multichunk(saves: Path) -> Campaign:
    """About 500 events over chunks: rollovers at 200 and two new_chunk saves."""
    camp = new_campaign(saves)
    rng = random.Random(7)
    for i in range(1, 121):
        camp.act(rng.randint(1, 7), new_chunk=i in (30, 31, 90))
    return camp


def test_base_and_events_for_action_across_chunks(saves: Path) -> None:
    camp = build_multichunk(saves)
    assert len(log_files(saves)) >= 4
    for a in range(1, 121):
        base, events = camp.store.base_and_events_for_action(a)
        assert all(e["a"] < a for e in events)
        assert replay(base, events) == camp.before[a], a
    with pytest.raises(SaveError, match="Action 121 is not in the log"):
        camp.store.base_and_events_for_action(121)
    with pytest.raises(SaveError, match="Action 0"):
        camp.store.base_and_events_for_action(0)
    camp.store.close()


@pytest.mark.parametrize("undo_to", [120, 95, 91, 31, 30, 2, 1])
def test_truncate_from_action_across_chunks(saves: Path, undo_to: int) -> None:
    camp = build_multichunk(saves)
    store = camp.store
    first_chunk_of = {}
    for no, name in enumerate(log_files(saves), start=1):
        for key, doc in read_json(saves / "camp" / "log" / name)["_default"].items():
            if key != "1":
                first_chunk_of.setdefault(doc["a"], no)
    camp.undo(undo_to)
    assert store.state == camp.state
    assert list(store.events()) == camp.events
    # chunks that held only undone events are gone; the one holding the cut stays
    last_kept = max((first_chunk_of[a] for a in first_chunk_of if a < undo_to), default=1)
    assert len(log_files(saves)) == last_kept
    # play goes on from there, then survives a reopen
    camp.act(3)
    camp.act(2, new_chunk=True)
    store.close()
    with CampaignStore.open(saves, "camp") as store:
        camp.store = store
        assert store.state == camp.state
        assert list(store.events()) == camp.events
        for a in list(camp.before)[-3:]:
            base, events = store.base_and_events_for_action(a)
            assert replay(base, events) == camp.before[a]


def test_truncate_refuses_wrong_state(saves: Path) -> None:
    camp = new_campaign(saves)
    camp.act(2)
    camp.act(2)
    with pytest.raises(SaveError, match="event_no"):
        camp.store.truncate_from_action(2, camp.state)
    assert list(camp.store.events()) == camp.events
    camp.store.close()


# --------------------------------------------------------------------------- locking

HOLDER = """
import sys
from pathlib import Path
from engine.store import CampaignStore
store = CampaignStore.open(Path(sys.argv[1]), sys.argv[2])
print("locked", flush=True)
sys.stdin.readline()
store.close()
print("closed", flush=True)
sys.stdin.readline()
"""


def test_lock_same_process(saves: Path) -> None:
    camp = new_campaign(saves)
    with pytest.raises(SaveError, match="already open in this Sidekick process"):
        CampaignStore.open(saves, "camp")
    with pytest.raises(SaveError, match="already open"):
        delete_campaign(saves, "camp")
    camp.store.close()
    with CampaignStore.open(saves, "camp") as store:
        assert store.state == camp.state


def test_lock_other_process_then_close(saves: Path) -> None:
    new_campaign(saves).store.close()
    child = run_child(HOLDER, str(saves), "camp")
    try:
        assert child.stdout is not None and child.stdin is not None
        assert child.stdout.readline().strip() == "locked"
        with pytest.raises(SaveError, match=rf"another Sidekick process \(pid {child.pid}\)"):
            CampaignStore.open(saves, "camp")
        with pytest.raises(SaveError, match="another Sidekick process"):
            delete_campaign(saves, "camp")
        child.stdin.write("\n")
        child.stdin.flush()
        assert child.stdout.readline().strip() == "closed"
        CampaignStore.open(saves, "camp").close()  # released by close()
    finally:
        child.kill()
        child.wait()


def test_lock_released_when_holder_is_killed(saves: Path) -> None:
    new_campaign(saves).store.close()
    child = run_child(HOLDER, str(saves), "camp")
    assert child.stdout is not None
    assert child.stdout.readline().strip() == "locked"
    with pytest.raises(SaveError, match="another Sidekick process"):
        CampaignStore.open(saves, "camp")
    child.send_signal(signal.SIGKILL)
    child.wait()
    with CampaignStore.open(saves, "camp") as store:
        assert store.state == initial_state()


def test_delete_campaign(saves: Path) -> None:
    new_campaign(saves, "one").store.close()
    new_campaign(saves, "two").store.close()
    delete_campaign(saves, "one")
    assert [s.id for s in list_campaigns(saves)] == ["two"]
    assert sorted(p.name for p in saves.iterdir()) == ["two"]
    with pytest.raises(SaveError, match="No campaign"):
        delete_campaign(saves, "one")


# --------------------------------------------------------------------------- damaged files


def damaged_campaign(saves: Path, with_backup: bool) -> Path:
    camp = new_campaign(saves)
    if with_backup:
        camp.act(2)
    camp.store.close()
    return saves / "camp" / CAMPAIGN_FILE


@pytest.mark.parametrize(("content", "problem"), [
    ('{"_default": {"1": {"format": 1, "meta": {}', "invalid JSON at line 1"),
    ("", "empty"),
    ("  \n", "empty"),
    ("[1, 2]", "expected a JSON object, found a list"),
    ('{"_default": {"1": {"format": 1, "meta": {}}}}', "'state' is missing"),
    ('{"_default": {"1": {"format": 1, "meta": [], "state": {}}}}', "'meta' should be an object"),
    ('{"_default": {"1": {"format": 1, "meta": {}, "state": {"event_no": "3"}}}}',
     "event_no should be a non-negative integer"),
    ('{"_default": {"1": [1, 2]}}', "should be an object, found a list"),
    ('{"_default": {"1": {"format": 9, "meta": {}, "state": {"event_no": 0}}}}',
     "newer version of Sidekick"),
    ('{"_default": {"1": "oops"}}', "should be an object, found a string"),
    ('{"_default": {}}', "no campaign record"),
])
def test_damaged_campaign_file(saves: Path, content: str, problem: str) -> None:
    path = damaged_campaign(saves, with_backup=False)
    path.write_text(content, encoding="utf-8")
    with pytest.raises(SaveError) as info:
        CampaignStore.open(saves, "camp")
    assert str(path) in info.value.message
    assert problem in info.value.message
    assert ".bak" not in info.value.message
    assert path.read_text(encoding="utf-8") == content  # never overwritten
    # the failed open released its lock: a second try reports the damage again, not a lock
    with pytest.raises(SaveError, match=r"damaged|newer"):
        CampaignStore.open(saves, "camp")


def test_damaged_campaign_file_with_good_backup(saves: Path) -> None:
    path = damaged_campaign(saves, with_backup=True)
    backup = path.with_name(BACKUP_FILE)
    path.write_bytes(b'{"_default": {"1": {"form')
    backup_bytes = backup.read_bytes()
    with pytest.raises(SaveError) as info:
        CampaignStore.open(saves, "camp")
    assert str(path) in info.value.message and "invalid JSON" in info.value.message
    # the advice is to rebuild from the log (which has the last action), not to copy the .bak
    # (after an undo the .bak holds a state the log no longer has)
    assert "rebuilds campaign.json from the log" in info.value.message
    assert "sidekick recover camp" in info.value.message
    assert "copy" not in info.value.message
    assert path.read_bytes() == b'{"_default": {"1": {"form'
    assert backup.read_bytes() == backup_bytes


def test_missing_campaign_file_with_good_backup(saves: Path) -> None:
    path = damaged_campaign(saves, with_backup=True)
    path.unlink()
    with pytest.raises(SaveError, match=r"is missing\. Recover rebuilds campaign\.json from"):
        CampaignStore.open(saves, "camp")


@pytest.mark.parametrize(("content", "problem"), [
    ('{"_default": {"1": {"base": {"event_no": 0}}, "2": {"n": 1, "a": 1', "invalid JSON"),
    ("", "empty"),
    ('{"_default": {"2": {"n": 1, "a": 1}}}', "no base state"),
    ('{"_default": {"1": {"base": {"event_no": 0}}, "2": {"n": "1", "a": 1}}}',
     "needs integer 'n' and 'a'"),
    ('{"_default": {"1": {"base": {"event_no": 0}}, "2": {"n": 2, "a": 1}, "3": {"n": 1, "a": 1}}}',
     "must increase"),
    ('{"_default": {"x": {}}}', "bad document id"),
])
def test_damaged_last_log_chunk(saves: Path, content: str, problem: str) -> None:
    camp = new_campaign(saves)
    camp.act(2)
    camp.store.close()
    chunk = saves / "camp" / "log" / "000001.json"
    chunk.write_text(content, encoding="utf-8")
    with pytest.raises(SaveError) as info:
        CampaignStore.open(saves, "camp")
    assert str(chunk) in info.value.message and problem in info.value.message
    assert chunk.read_text(encoding="utf-8") == content


def test_damaged_older_log_chunk_is_reported_when_read(saves: Path) -> None:
    camp = new_campaign(saves)
    camp.act(2)
    camp.act(2, new_chunk=True)
    camp.act(2)
    camp.store.close()
    chunk = saves / "camp" / "log" / "000001.json"
    chunk.write_text("{not json", encoding="utf-8")
    with CampaignStore.open(saves, "camp") as store:  # resuming reads only the last chunk
        assert store.state == camp.state
        with pytest.raises(SaveError, match=r"000001\.json is damaged: invalid JSON"):
            list(store.events())
        with pytest.raises(SaveError, match=r"000001\.json is damaged"):
            store.base_and_events_for_action(1)
        base, events = store.base_and_events_for_action(3)  # chunk 2 alone is fine
        assert replay(base, events) == camp.before[3]
        camp.store = store
        camp.act(1)
    assert chunk.read_text(encoding="utf-8") == "{not json"


def test_missing_log_chunk(saves: Path) -> None:
    camp = new_campaign(saves)
    for i in range(3):
        camp.act(1, new_chunk=i > 0)
    camp.store.close()
    (saves / "camp" / "log" / "000002.json").unlink()
    with pytest.raises(SaveError, match=r"000002\.json is missing"):
        CampaignStore.open(saves, "camp")


def test_log_shorter_than_state_is_reported(saves: Path) -> None:
    camp = new_campaign(saves)
    camp.act(2)
    camp.store.close()
    path = saves / "camp" / CAMPAIGN_FILE
    data = read_json(path)
    data["_default"]["1"]["state"]["event_no"] = 5
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(SaveError, match="logged events are missing"):
        CampaignStore.open(saves, "camp")


def test_leftover_temp_files_are_removed(saves: Path) -> None:
    camp = new_campaign(saves)
    camp.act(2)
    camp.store.close()
    folder = saves / "camp"
    leftovers = [folder / ".~campaign.json.1a2b3c4d.tmp", folder / ".~campaign.json.bak.9f.tmp",
                 folder / "log" / ".~000001.json.deadbeef.tmp"]
    for path in leftovers:
        path.write_text('{"half": ', encoding="utf-8")
    (folder / "notes.txt").write_text("mine", encoding="utf-8")
    with CampaignStore.open(saves, "camp") as store:
        assert store.state == camp.state
    assert not any(path.exists() for path in leftovers)
    assert (folder / "notes.txt").read_text(encoding="utf-8") == "mine"


# --------------------------------------------------------------------------- torn writes


@pytest.mark.parametrize("new_chunk", [False, True])
def test_crash_between_log_and_state_is_repaired(saves: Path, new_chunk: bool) -> None:
    camp = new_campaign(saves)
    camp.act(3)
    confirmed_state, confirmed_events = camp.state, list(camp.events)
    path = saves / "camp" / CAMPAIGN_FILE
    old = path.read_bytes()
    camp.act(4, new_chunk=new_chunk)
    camp.store.close()
    path.write_bytes(old)  # as if the process died after the log write
    with CampaignStore.open(saves, "camp") as store:
        assert store.state == confirmed_state
        assert list(store.events()) == confirmed_events
        assert log_files(saves) == ["000001.json"]
        camp = Campaign(store)
        camp.events = confirmed_events
        camp.act(2)  # the same event numbers are free again
        assert list(store.events())[-2:] == camp.events[-2:]


def test_crash_during_undo_is_repaired(saves: Path) -> None:
    camp = build_multichunk(saves)
    log = saves / "camp" / "log"
    saved_log = {p.name: p.read_bytes() for p in log.iterdir()}
    camp.undo(40)
    camp.store.close()
    for name, data in saved_log.items():  # as if it died after writing the state
        (log / name).write_bytes(data)
    with CampaignStore.open(saves, "camp") as store:
        assert store.state == camp.state
        assert list(store.events()) == camp.events


def test_failed_write_loses_nothing(saves: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    camp = new_campaign(saves)
    camp.act(2)
    real_write = store_storage._atomic_write

    def full_disk(path: Path, text: str, backup: Path | None = None, **kw: Any) -> None:
        if path.name == CAMPAIGN_FILE:
            raise OSError(28, "No space left on device", str(path))
        real_write(path, text, backup, **kw)

    monkeypatch.setattr(store_storage, "_atomic_write", full_disk)
    events = action(camp.state, 3)
    with pytest.raises(SaveError, match="No space left"):
        camp.store.save(events, replay(camp.state, events))
    monkeypatch.setattr(store_storage, "_atomic_write", real_write)
    assert camp.store.state == camp.state
    assert list(camp.store.events()) == camp.events  # the unconfirmed events were dropped
    camp.act(3)  # and the save can be retried
    camp.store.close()
    with CampaignStore.open(saves, "camp") as store:
        assert store.state == camp.state
        assert list(store.events()) == camp.events


# --------------------------------------------------------------------------- listing


def test_list_campaigns(saves: Path) -> None:
    assert list_campaigns(saves) == []
    for cid in ("alpha", "beta", "gamma"):
        new_campaign(saves, cid, hero=f"hero of {cid}").store.close()
        time.sleep(0.003)
    with CampaignStore.open(saves, "alpha") as store:  # played most recently
        store.save([], store.state, {"scene": "The docks"})
    damaged = new_campaign(saves, "delta")
    damaged.act(1)
    damaged.store.close()
    (saves / "delta" / CAMPAIGN_FILE).write_text("{oops", encoding="utf-8")
    (saves / "broken").mkdir()
    (saves / ".hidden").mkdir()
    (saves / "stray.txt").write_text("not a campaign", encoding="utf-8")
    held = CampaignStore.open(saves, "beta")  # an open campaign is still listed

    summaries = list_campaigns(saves)
    held.close()
    by_id = {s.id: s for s in summaries}
    # a folder without campaign files is not a campaign (it used to be listed as damaged)
    assert set(by_id) == {"alpha", "beta", "gamma", "delta"}
    good = [s for s in summaries if s.error is None]
    assert [s.id for s in good] == ["alpha", "gamma", "beta"]
    assert by_id["alpha"].scene == "The docks"
    assert by_id["alpha"].hero == "hero of alpha"
    assert by_id["alpha"].system == "masks" and by_id["alpha"].name == "Alpha"
    delta = by_id["delta"]
    assert delta.error is not None and "invalid JSON" in delta.error
    assert "rebuilds campaign.json from the log" in delta.recovery
    assert delta.name == "Delta"  # best effort, from the .bak
    times = [s.last_played for s in summaries if s.last_played]
    assert times == sorted(times, reverse=True)


# --------------------------------------------------------------------------- properties


class SmallChunks(CampaignStore):
    chunk_events = 5


save_plans = st.lists(st.tuples(st.integers(0, 8), st.booleans()), min_size=1, max_size=25)


@settings(max_examples=40, deadline=None)
@given(plan=save_plans)
def test_property_reopen_gives_last_saved(plan: list[tuple[int, bool]]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        saves = Path(tmp)
        camp = Campaign(SmallChunks.create(saves, "prop", {"name": "P"}, initial_state()))
        saved = []
        for count, new_chunk in plan:
            events = camp.act(count, new_chunk=new_chunk)
            saved.append(events)
        camp.store.close()
        with SmallChunks.open(saves, "prop") as store:
            assert store.state == camp.state
            assert list(store.events()) == [e for events in saved for e in events]


@settings(max_examples=25, stateful_step_count=30, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
class StoreMachine(RuleBasedStateMachine):
    """Random saves, undos and reopens against the model."""

    def __init__(self) -> None:
        super().__init__()
        self.tmp = tempfile.TemporaryDirectory()
        self.saves = Path(self.tmp.name)
        self.camp = Campaign(SmallChunks.create(self.saves, "m", {"name": "M"}, initial_state()))

    @rule(count=st.integers(0, 7), new_chunk=st.booleans())
    def save(self, count: int, new_chunk: bool) -> None:
        self.camp.act(count, new_chunk=new_chunk)

    @precondition(lambda self: self.camp.state["last_a"] > 0)
    @rule(data=st.data())
    def undo(self, data: st.DataObject) -> None:
        a = data.draw(st.integers(1, self.camp.state["last_a"]))
        base, events = self.camp.store.base_and_events_for_action(a)
        assert replay(base, events) == self.camp.before[a]
        self.camp.undo(a)

    @rule()
    def reopen(self) -> None:
        self.camp.store.close()
        self.camp.store = SmallChunks.open(self.saves, "m")

    @invariant()
    def matches_model(self) -> None:
        assert self.camp.store.state == self.camp.state
        assert list(self.camp.store.events()) == self.camp.events

    def teardown(self) -> None:
        self.camp.store.close()
        self.tmp.cleanup()


TestStoreMachine = StoreMachine.TestCase


# --------------------------------------------------------------------------- kill test

SAVER = """
import random, sys
from pathlib import Path
from engine.store import CampaignStore

def apply(state, e):
    return {**state, "event_no": e["n"], "total": state["total"] + e["v"], "last_a": e["a"]}

rng = random.Random(int(sys.argv[2]))
store = CampaignStore.open(Path(sys.argv[1]), "kill")
state = store.state
print("ready", flush=True)
while True:
    if state["last_a"] > 0 and rng.random() < 0.1:
        a = rng.randint(max(1, state["last_a"] - 5), state["last_a"])
        base, events = store.base_and_events_for_action(a)
        for e in events:
            base = apply(base, e)
        store.truncate_from_action(a, base)
        state = base
    else:
        a = state["last_a"] + 1
        events = [{"n": state["event_no"] + i + 1, "a": a, "v": rng.randint(-9, 9)}
                  for i in range(rng.randint(1, 6))]
        for e in events:
            state = apply(state, e)
        store.save(events, state, {"scene": f"scene {a}"}, new_chunk=rng.random() < 0.05)
"""


def test_sigkill_at_random_moments_never_corrupts(saves: Path) -> None:
    CampaignStore.create(saves, "kill", {"name": "Kill"}, initial_state()).close()
    rng = random.Random(2024)
    played = 0
    for round_no in range(6):
        child = run_child(SAVER, str(saves), str(round_no))
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "ready"
        time.sleep(rng.uniform(0.05, 0.35))
        child.send_signal(signal.SIGKILL)
        child.wait()
        with CampaignStore.open(saves, "kill") as store:
            events = list(store.events())
            state = store.state
            # the state is exactly what the confirmed log produces: one of the saved states
            assert state == replay(initial_state(), events)
            assert [e["n"] for e in events] == list(range(1, len(events) + 1))
            for a in rng.sample(range(1, state["last_a"] + 1), min(5, state["last_a"])):
                base, before = store.base_and_events_for_action(a)
                assert replay(base, before) == replay(
                    initial_state(), [e for e in events if e["a"] < a])
            played = max(played, len(events))
        leftovers = [p for p in (saves / "kill").rglob(".~*")]
        assert leftovers == []
    assert played > 0
