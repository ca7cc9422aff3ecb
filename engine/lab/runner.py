"""Running a lab: many campaigns of one ``LabSpec``, serially, in local worker processes (all
cores by default) or on a Dask cluster (the ``dask`` extra).

Every campaign ``index`` is played by ``simulate(spec, index)`` and its result depends only on
the spec and the index (``engine.lab.model``), so the results, sorted by index, are the same
whatever the workers or the backend. A campaign's own failure is a result with ``ok`` False
(the run goes on); what would break every campaign (a broken pack, an unknown system or
policy, bad numbers) raises an ``EngineError`` before any campaign plays.
"""

from __future__ import annotations

import contextlib
import gc
import math
import multiprocessing
import os
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

from engine.content.loader import Pack
from engine.errors import ContentError, EngineError, IllegalAction
from engine.lab.model import MAX_RUNS, CampaignResult, LabSpec, empty_result
from engine.lab.policy import load_policy
from engine.lab.sim import pack_for
from engine.lab.sim import simulate as simulate_campaign
from engine.systems import ruleset_for

Simulate = Callable[[LabSpec, int], CampaignResult]
"""Plays campaign ``index`` of a spec (``engine.lab.sim.simulate``, or a stand-in)."""
Progress = Callable[[int, int], None]
"""Told ``(done, total)`` as campaigns finish."""

BACKENDS = ("process", "dask")
MAX_WORKERS = 1024
CHUNK_MAX = 64
"""The most campaigns one task plays: small enough to spread the work and report progress."""
DASK_EXTRA = "pip install 'sidekick[dask]' (or: pip install 'dask[distributed]')"


def default_workers() -> int:
    """The cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


# ------------------------------------------------------------------ checks before any work


def is_pack_path(system: str) -> bool:
    """Whether ``system`` names a pack folder rather than a pack id."""
    return os.sep in system or "/" in system or system.startswith(".") or (
        Path(system) / "system.yaml").is_file()


def load_spec_pack(spec: LabSpec) -> Pack:
    """The pack ``spec`` plays, loaded and checked once per process (``sim.pack_for``, the
    simulation's own cache); ``ContentError`` saying what is wrong."""
    for d in spec.content:
        if not Path(d).is_dir():
            raise ContentError(f"content folder {d}: no such folder")
    if is_pack_path(spec.system):
        if not Path(spec.system).is_dir():
            raise ContentError(f"{spec.system}: no such pack folder")
        if not (Path(spec.system) / "system.yaml").is_file():
            raise ContentError(f"{spec.system}: not a content pack (no system.yaml in it)")
    return pack_for(spec)


def foe_blocks(pack: Pack) -> list[str] | None:
    """The stat block ids a fight of ``pack``'s game may name, or None for a game without
    fights in rounds."""
    conflict = ruleset_for(pack).conflict()
    return None if conflict is None else conflict.stat_blocks()


def check_foes(pack: Pack, foes: Sequence[str]) -> None:
    """``IllegalAction`` when ``foes`` names a stat block the game does not have."""
    if not foes:
        return
    from engine.rules.state import new_id

    known = foe_blocks(pack)
    if known is None:
        raise IllegalAction(f"foes are for the games with fights in rounds; {pack.system.name}"
                            " has none")
    for foe in foes:
        if foe not in known and new_id(foe, ()) not in known:
            raise IllegalAction(f"no stat block {foe!r} in {pack.system.name} (stat blocks:"
                                f" {', '.join(sorted(known)) or 'none'})")


def check_spec(spec: LabSpec) -> Pack:
    """Everything that would fail every campaign, checked before any plays: the numbers, the
    pack (loaded and checked), the policy, the foes. Returns the pack."""
    if not 1 <= spec.runs <= MAX_RUNS:
        raise IllegalAction(f"runs must be from 1 to {MAX_RUNS:,}, not {spec.runs}")
    for what, value in (("scenes", spec.scenes), ("moves", spec.moves), ("party", spec.party),
                        ("max_steps", spec.max_steps)):
        if value < 1:
            raise IllegalAction(f"{what} must be at least 1, not {value}")
    pack = load_spec_pack(spec)
    load_policy(spec.policy)
    check_foes(pack, spec.foes)
    return pack


# ------------------------------------------------------------------ playing campaigns


def failed(spec: LabSpec, index: int, error: BaseException | str) -> CampaignResult:
    """The result of a campaign that failed with ``error`` (its seed reproduces it)."""
    result = empty_result(spec, index, spec.policy)
    result["ok"] = False
    if isinstance(error, str):
        result["error"] = error
    elif isinstance(error, EngineError):
        result["error"] = str(error)
    else:
        result["error"] = f"{type(error).__name__}: {error}"
    return result


def play_one(simulate: Simulate, spec: LabSpec, index: int) -> CampaignResult:
    """Campaign ``index``: ``simulate``'s result, or a failed result if it raised anyway."""
    try:
        result = simulate(spec, index)
    except Exception as e:  # a campaign's failure never stops the run
        return failed(spec, index, e)
    if result.get("index") != index:
        return failed(spec, index, f"the simulation returned campaign {result.get('index')!r}"
                                   f" for campaign {index}")
    return result


_WORKER: dict[str, Any] = {}
"""A worker process's simulate function and the specs whose pack it has loaded."""


def _init_worker(spec: LabSpec, simulate: Simulate | None) -> None:
    _WORKER["simulate"] = simulate or simulate_campaign
    _prepare(spec)


def _prepare(spec: LabSpec) -> None:
    """Load the pack once in this process (a broken one would have stopped the run)."""
    ready: set[LabSpec] = _WORKER.setdefault("ready", set())
    if spec not in ready:
        with contextlib.suppress(EngineError):  # the parent checked it: never broken here
            load_spec_pack(spec)
        ready.add(spec)


def _play_chunk(spec: LabSpec, indices: Sequence[int]) -> list[CampaignResult]:
    """A worker process's task: the campaigns ``indices``."""
    simulate: Simulate = _WORKER["simulate"]
    return [play_one(simulate, spec, i) for i in indices]


def _dask_chunk(spec: LabSpec, indices: Sequence[int],
                simulate: Simulate | None) -> list[CampaignResult]:
    """A Dask task: the campaigns ``indices`` (the pack loaded once per worker process)."""
    play = simulate or simulate_campaign
    _prepare(spec)
    return [play_one(play, spec, i) for i in indices]


def chunks(indices: Sequence[int], workers: int) -> list[list[int]]:
    """``indices`` cut into consecutive chunks: about eight per worker, at most
    ``CHUNK_MAX`` each."""
    size = max(1, min(CHUNK_MAX, math.ceil(len(indices) / (workers * 8))))
    return [list(indices[i:i + size]) for i in range(0, len(indices), size)]


def _context() -> Any:
    """Fork where there is fork (workers start at once with the parent's loaded pack)."""
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else "spawn")


def _serial(spec: LabSpec, indices: Sequence[int], simulate: Simulate,
            progress: Progress | None) -> list[CampaignResult]:
    out = []
    for i in indices:
        out.append(play_one(simulate, spec, i))
        if progress:
            progress(len(out), len(indices))
    return out


def _processes(spec: LabSpec, indices: Sequence[int], workers: int,
               simulate: Simulate | None, progress: Progress | None) -> list[CampaignResult]:
    # forked workers share the parent's objects until they write to them: frozen, the
    # workers' garbage collector leaves them alone (measured: less CPU, a better speed-up)
    gc.freeze()
    try:
        return _pool(spec, indices, workers, simulate, progress)
    finally:
        gc.unfreeze()


def _pool(spec: LabSpec, indices: Sequence[int], workers: int, simulate: Simulate | None,
          progress: Progress | None) -> list[CampaignResult]:
    out: list[CampaignResult] = []
    with ProcessPoolExecutor(max_workers=workers, mp_context=_context(),
                             initializer=_init_worker, initargs=(spec, simulate)) as pool:
        pending: set[Future[list[CampaignResult]]] = {
            pool.submit(_play_chunk, spec, part) for part in chunks(indices, workers)}
        try:
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for f in done:
                    out += f.result()
                if progress:
                    progress(len(out), len(indices))
        except BrokenProcessPool as e:
            raise EngineError(f"a worker process died while playing campaigns ({e}); run"
                              " again with --workers 1 to see which campaign") from None
        finally:
            for f in pending:
                f.cancel()
    return out


def _dask(spec: LabSpec, indices: Sequence[int], workers: int | None, address: str | None,
          simulate: Simulate | None, progress: Progress | None) -> list[CampaignResult]:
    import importlib
    import logging

    try:  # Any: dask's constructors are untyped
        dd: Any = importlib.import_module("dask.distributed")
    except ImportError:
        raise IllegalAction(f"the Dask backend needs the 'dask' extra: {DASK_EXTRA}") from None
    cluster: Any = None
    try:
        if address is None:
            n = workers or default_workers()
            cluster = dd.LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                                   dashboard_address=None, silence_logs=logging.ERROR)
            client = dd.Client(cluster)
        else:
            client = dd.Client(address, timeout="10s")
    except (OSError, TimeoutError, ValueError) as e:  # ValueError: not an address
        if cluster is not None:
            cluster.close()
        where = f"the Dask scheduler at {address}" if address else "a local Dask cluster"
        raise EngineError(f"cannot reach {where}: {e}") from None
    out: list[CampaignResult] = []
    try:
        n_workers = max(1, len(client.scheduler_info().get("workers", {})))
        parts = chunks(indices, workers or n_workers)
        futures = client.map(_dask_chunk, [spec] * len(parts), parts,
                             [simulate] * len(parts), pure=False)
        for f in dd.as_completed(futures):
            out += f.result()
            if progress:
                progress(len(out), len(indices))
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    return out


def run(spec: LabSpec, workers: int | None = None, backend: str = "process",
        progress: Progress | None = None, address: str | None = None, *,
        simulate: Simulate | None = None,
        indices: Iterable[int] | None = None) -> list[CampaignResult]:
    """Play the campaigns of ``spec`` (``indices``, default all ``spec.runs``) and return
    their results sorted by index, the same whatever ``workers`` and ``backend``.

    ``workers``: 1 plays in this process; None uses every core. ``backend``: "process"
    (local worker processes) or "dask" (the scheduler at ``address``, or a local cluster of
    ``workers`` processes when None). ``progress(done, total)`` is called as campaigns
    finish. ``simulate`` stands in for ``engine.lab.sim.simulate``.
    """
    if backend not in BACKENDS:
        raise IllegalAction(f"unknown backend {backend!r}; one of {', '.join(BACKENDS)}")
    if workers is not None and not 1 <= workers <= MAX_WORKERS:
        raise IllegalAction(f"workers must be from 1 to {MAX_WORKERS}, not {workers}")
    if address is not None and backend != "dask":
        raise IllegalAction("a scheduler address is for the Dask backend")
    check_spec(spec)
    wanted = sorted(set(range(spec.runs) if indices is None else indices))
    for i in wanted:
        if not 0 <= i < MAX_RUNS:
            raise IllegalAction(f"campaign index must be from 0 to {MAX_RUNS - 1:,}, not {i}")
    if progress:
        progress(0, len(wanted))
    if not wanted:
        return []
    if backend == "dask":
        out = _dask(spec, wanted, workers, address, simulate, progress)
    else:
        n = min(workers or default_workers(), len(wanted))
        if n == 1:
            out = _serial(spec, wanted, simulate or simulate_campaign, progress)
        else:
            out = _processes(spec, wanted, n, simulate, progress)
    return sorted(out, key=lambda r: r["index"])
