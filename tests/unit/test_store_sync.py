"""The store's background syncer and incremental chunk encoding: what a save that returned
survives (a kill -9 of the process), and that the files are what TinyDB and a fresh
interpreter read."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

from engine.store import CampaignStore
from engine.store.storage import _dumps, _open_db, _storage

ROOT = Path(__file__).resolve().parents[2]


def state_at(n: int, a: int) -> dict[str, Any]:
    return {"event_no": n, "last_a": a, "pad": "é" * 50}


def save_action(store: CampaignStore, n: int, a: int, count: int = 3, **kw: Any) -> int:
    events = [{"n": n + i + 1, "a": a, "text": f"e{a}.{i} \u2603"} for i in range(count)]
    store.save(events, state_at(n + count, a), **kw)
    return n + count


def sync_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name.startswith("sidekick-sync-")]


def test_chunks_are_encoded_as_json_dumps_would(tmp_path: Path) -> None:
    store = CampaignStore.create(tmp_path, "enc", {"name": "Enc"}, state_at(0, 0))
    n = 0
    for a in range(1, 30):
        n = save_action(store, n, a, new_chunk=a == 20)
    store.truncate_from_action(25, state_at(24 * 3, 24))  # documents removed: still the same
    n = save_action(store, 24 * 3, 25)
    store.close()
    for path in sorted((tmp_path / "enc" / "log").iterdir()):
        raw = path.read_text(encoding="utf-8")
        assert raw == _dumps(json.loads(raw)), path.name


def test_close_flushes_and_ends_the_syncer(tmp_path: Path) -> None:
    before = set(sync_threads())
    store = CampaignStore.create(tmp_path, "sync", {"name": "Sync"}, state_at(0, 0))
    n = 0
    for a in range(1, 6):
        n = save_action(store, n, a)
    store.flush()
    assert len(set(sync_threads()) - before) == 1  # one thread, however many saves
    store.close()
    assert set(sync_threads()) - before == set()  # no thread outlives close
    store.close()  # twice is harmless


def test_a_read_only_store_has_no_syncer(tmp_path: Path) -> None:
    CampaignStore.create(tmp_path, "ro", {"name": "RO"}, state_at(0, 0)).close()
    before = set(sync_threads())
    with CampaignStore.open_read_only(tmp_path, "ro") as store:
        store.flush()
        assert store.state == state_at(0, 0)
    assert set(sync_threads()) == before


def test_a_failed_fsync_is_reported_by_flush_and_close(tmp_path: Path,
                                                       monkeypatch: Any) -> None:
    import engine.store.sync as sync

    def broken(path: Path) -> None:
        raise OSError(5, "Input/output error", str(path))

    store = CampaignStore.create(tmp_path, "eio", {"name": "EIO"}, state_at(0, 0))
    monkeypatch.setattr(sync, "_fsync_file", broken)
    save_action(store, 0, 1)
    try:
        store.flush()
    except Exception as exc:
        assert "Input/output error" in str(exc)
    else:
        raise AssertionError("flush did not report the failed fsync")
    monkeypatch.undo()
    store.close()
    with CampaignStore.open(tmp_path, "eio") as again:  # the save itself was written
        assert again.state == state_at(3, 1)


def test_the_chunk_storage_reuses_the_text_of_earlier_documents(tmp_path: Path) -> None:
    db = _open_db(tmp_path / "c.json", append_only=True)
    db.table("_default").insert({"base": {"event_no": 0}})
    db.table("_default").insert_multiple([{"n": 1, "a": 1}, {"n": 2, "a": 1}])
    assert list(_storage(db)._encoded) == ["1", "2", "3"]
    db.table("_default").remove(doc_ids=[3])
    assert list(_storage(db)._encoded) == ["1", "2"]
    raw = (tmp_path / "c.json").read_text(encoding="utf-8")
    assert json.loads(raw) == {"_default": {"1": {"base": {"event_no": 0}},
                                            "2": {"n": 1, "a": 1}}}


SAVER = """
import sys
from pathlib import Path
from engine.store import CampaignStore
store = CampaignStore.open(Path(sys.argv[1]), "ack")
state = store.state
n, a = state["event_no"], state["last_a"]
print("ready", flush=True)
while True:
    a += 1
    events = [{"n": n + i + 1, "a": a} for i in range(3)]
    n += 3
    store.save(events, {"event_no": n, "last_a": a}, new_chunk=a % 40 == 0)
    print(n, flush=True)  # acknowledged: save() returned
"""


def test_sigkill_loses_no_acknowledged_save(tmp_path: Path) -> None:
    CampaignStore.create(tmp_path, "ack", {"name": "Ack"}, {"event_no": 0, "last_a": 0}).close()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for delay in (0.05, 0.2, 0.4):
        child = subprocess.Popen([sys.executable, "-c", SAVER, str(tmp_path)],
                                 stdout=subprocess.PIPE, text=True, env=env, cwd=ROOT)
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "ready"
        timer = threading.Timer(delay, child.send_signal, (signal.SIGKILL,))
        timer.start()
        acked = 0
        for line in child.stdout:  # every acknowledgement the child made before it died
            acked = int(line)
        child.wait()
        timer.join()
        with CampaignStore.open(tmp_path, "ack") as store:
            state = store.state
            events = list(store.events())
        assert state["event_no"] >= acked  # nothing acknowledged is lost
        assert state["event_no"] <= acked + 3  # at most the save under way when it died
        assert [e["n"] for e in events] == list(range(1, state["event_no"] + 1))


def test_a_new_save_loads_in_a_fresh_interpreter(tmp_path: Path) -> None:
    store = CampaignStore.create(tmp_path, "fresh", {"name": "Fresh"}, state_at(0, 0))
    n = 0
    for a in range(1, 70):  # over two chunks
        n = save_action(store, n, a)
    store.close()
    code = ("import sys, json; from pathlib import Path; from engine.store import CampaignStore;"
            "from tinydb import TinyDB;"
            "s = CampaignStore.open(Path(sys.argv[1]), 'fresh');"
            "print(json.dumps([s.state['event_no'], len(list(s.events()))])); s.close();"
            "db = TinyDB(str(Path(sys.argv[1]) / 'fresh' / 'log' / '000002.json'));"
            "print(len(db.all()))")
    out = subprocess.run([sys.executable, "-c", code, str(tmp_path)], capture_output=True,
                         text=True, env={**os.environ, "PYTHONPATH": str(ROOT)}, cwd=ROOT,
                         check=True)
    first, second = out.stdout.splitlines()
    assert json.loads(first) == [n, n]
    assert int(second) == 1 + n - 201  # stock TinyDB reads a chunk: its base and its events
