"""The ``sidekick lab`` command: many campaigns played headless by a policy bot, and the
numbers a designer asks for (its arguments checked, its progress, its report, the replay of a
failed campaign). Split from ``engine.cli``, which builds its parser from ``add_lab_command``.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from pathlib import Path
from typing import Any

from engine.cli_common import EXIT_ERROR, CliError, UsageError
from engine.cli_common import clip as _clip
from engine.cli_common import content as _content
from engine.cli_common import out as _out
from engine.errors import IllegalAction


def _lab_int(args: argparse.Namespace, name: str, low: int, high: int) -> None:
    value = getattr(args, name.replace("-", "_"))
    if value is not None and not low <= value <= high:
        raise UsageError(f"--{name} must be from {low:,} to {high:,}, not {value}")


def _lab_foes(text: str | None) -> tuple[str, ...]:
    if text is None:
        return ()
    foes = tuple(f.strip() for f in text.split(","))
    if not all(foes):
        raise UsageError(f"--foes: expected stat block ids separated by commas like"
                         f" madame_undertow,hornet_drones, got {_clip(text)}")
    return foes


def _lab_spec(args: argparse.Namespace, system: str) -> Any:
    """The ``LabSpec`` the arguments ask for, its numbers checked (``UsageError``)."""
    from engine.lab.model import MAX_RUNS, LabSpec

    _lab_int(args, "runs", 1, MAX_RUNS)
    _lab_int(args, "scenes", 1, 1000)
    _lab_int(args, "moves", 1, 1000)
    _lab_int(args, "party", 1, 12)
    _lab_int(args, "max-steps", 1, 10**7)
    _lab_int(args, "workers", 1, 1024)
    _lab_int(args, "only", 0, MAX_RUNS - 1)
    if not -(2**63) <= args.seed < 2**63:
        raise UsageError(f"--seed must be a whole number below 2**63, not {args.seed}")
    return LabSpec(system=system, policy=args.policy or "greedy", runs=args.runs, seed=args.seed,
                   scenes=args.scenes, moves=args.moves, party=args.party,
                   foes=_lab_foes(args.foes), max_steps=args.max_steps,
                   content=tuple(str(d) for d in _content(args)), keep=args.keep)


def _lab_check(spec: Any, option: str = "--system") -> None:
    """Refuse what would fail every campaign before any plays: an unknown system (given with
    ``option``) or policy is a bad argument (exit 2); a broken pack is an error (exit 1)."""
    from engine.content.loader import discover
    from engine.lab.policy import load_policy
    from engine.lab.runner import check_foes, check_spec, is_pack_path, load_spec_pack

    if is_pack_path(spec.system):
        if not Path(spec.system).is_dir():
            raise UsageError(f"{option} {_clip(spec.system, 200)}: no such pack folder")
    else:
        known = discover(spec.content)
        if spec.system not in known:
            raise UsageError(f"{option}: unknown game system {_clip(spec.system)}; give a pack"
                             f" id ({', '.join(sorted(known))}) or a pack folder")
    try:
        load_policy(spec.policy)
    except IllegalAction as e:
        raise UsageError(f"--policy: {e}") from None
    try:
        check_foes(load_spec_pack(spec), spec.foes)
    except IllegalAction as e:
        raise UsageError(f"--foes: {e}") from None
    check_spec(spec)


def _lab_command(args: argparse.Namespace, spec: Any, index: int, keep: str) -> str:
    """The command that replays campaign ``index`` of ``spec`` and keeps it in ``keep``."""
    import shlex

    words = ["sidekick"]
    for d in spec.content:
        words += ["--content", d]
    words += ["lab", "--system", spec.system, "--policy", spec.policy, "--seed",
              str(spec.seed), "--scenes", str(spec.scenes), "--moves", str(spec.moves),
              "--party", str(spec.party), "--max-steps", str(spec.max_steps)]
    if spec.foes:
        words += ["--foes", ",".join(spec.foes)]
    words += ["--only", str(index), "--keep", keep]
    return shlex.join(words)


def _lab_progress(label: str) -> tuple[Any, Any]:
    """A progress bar on standard error (none when it is not a terminal): the callback for
    ``runner.run`` and the bar to stop."""
    if not sys.stderr.isatty():
        return None, None
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    bar = Progress("[progress.description]{task.description}", BarColumn(),
                   MofNCompleteColumn(), TimeRemainingColumn(),
                   console=Console(stderr=True), auto_refresh=False, transient=True)
    task = bar.add_task(label, total=None)
    bar.start()

    def progress(done: int, total: int) -> None:
        bar.update(task, completed=done, total=total, refresh=True)

    return progress, bar


def _lab_run(args: argparse.Namespace, spec: Any, label: str,
             indices: list[int] | None = None) -> list[Any]:
    """Play ``spec``'s campaigns (or ``indices``) with the workers and backend asked for."""
    from engine.lab.runner import run

    backend = "dask" if args.dask is not None else "process"
    progress, bar = _lab_progress(label)
    try:
        return run(spec, workers=args.workers, backend=backend, progress=progress,
                   address=args.dask or None, indices=indices)
    finally:
        if bar is not None:
            bar.stop()


def _width() -> int:
    return max(40, min(120, shutil.get_terminal_size((80, 24)).columns))


def _lab_failures(args: argparse.Namespace, spec: Any, results: list[Any],
                  write: Any = _out, limit: int = 10, errors: bool = False) -> None:
    """The command that replays each failed campaign (with its error when ``errors``)."""
    failed = [r for r in results if not r["ok"]]
    if not failed:
        return
    write("")
    write(f"{len(failed)} of {len(results)} campaigns of {spec.system} failed. Replay one"
          " (--keep saves it to open in the app):")
    for r in failed[:limit]:
        if errors:
            write(f"  #{r['index']} (seed {r['seed']}): {r['error']}")
        write(f"  {_lab_command(args, spec, r['index'], './lab-replay')}")
    if len(failed) > limit:
        write(f"  ... and {len(failed) - limit} more (all in the summary's failures)")


def _lab_only(args: argparse.Namespace, spec: Any) -> int:
    """Replay one campaign (``--only``), kept in ``--keep`` to open in the app."""
    from engine.lab.sim import kept_id

    index: int = args.only
    if spec.keep:
        kept = Path(spec.keep) / kept_id(spec, index)
        if kept.exists():
            raise CliError(f"{kept} exists already: remove it or give another --keep folder")
    results = _lab_run(args, spec, f"campaign {index}", [index])
    r = results[0]
    if args.json:
        _out(json.dumps(r, sort_keys=True))
    else:
        state = "played" if r["ok"] else f"FAILED: {r['error']}"
        _out(f"Campaign #{index} of seed {spec.seed} (its dice seed {r['seed']}): {state}")
        _out(f"  {r['scenes']} scenes, {r['moves']} moves, {len(r['rolls'])} rolls,"
             f" {len(r['fights'])} fights, {r['steps']} steps")
    if r["kept"]:
        import shlex

        words = ["sidekick", "--saves", spec.keep]
        for d in spec.content:
            words += ["--content", d]
        if Path(spec.system).is_dir():
            words += ["--content", spec.system]
        words += ["--campaign", Path(r["kept"]).name]
        out = _out if not args.json else (lambda line: sys.stderr.write(line + "\n"))
        out(f"Kept in {r['kept']}. Open it in the app: {shlex.join(words)}")
        out(f"  or read its journal: {shlex.join([*words[:-2], 'export', words[-1]])}")
    return 0 if r["ok"] else EXIT_ERROR


def _lab_compare(args: argparse.Namespace) -> int:
    """A/B: both packs on the same seeds, their differences with confidence intervals."""
    from dataclasses import replace

    from engine.lab import compare, report

    pack_a, pack_b = args.compare
    spec_a = _lab_spec(args, pack_a)
    spec_b = replace(spec_a, system=pack_b)
    _lab_check(spec_a, "--compare")
    _lab_check(spec_b, "--compare")
    label_a, label_b = (pack_a, pack_b) if pack_a != pack_b else (f"A {pack_a}", f"B {pack_b}")
    a = _lab_run(args, spec_a, f"A: {_clip(pack_a, 30)[1:-1]}")
    b = _lab_run(args, spec_b, f"B: {_clip(pack_b, 30)[1:-1]}")
    diff = compare.compare(a, b, label_a, label_b)
    if args.out:
        paths = report.write_compare(diff, Path(args.out))
    if args.json:
        _out(json.dumps(diff, sort_keys=True))
    else:
        _out(report.terminal_compare(diff, _width()))
        if args.out:
            _out(f"\nWrote {', '.join(p.name for p in paths)} to {args.out}")
    err = (lambda line: sys.stderr.write(line + "\n")) if args.json else _out
    _lab_failures(args, spec_a, a, err, errors=True)
    _lab_failures(args, spec_b, b, err, errors=True)
    return EXIT_ERROR if any(not r["ok"] for r in a + b) else 0


DUEL_SYSTEM = "mutants-and-masterminds"
"""The game of a duel when --system is left out."""


def _duel_setup(args: argparse.Namespace) -> tuple[Any, Any, list[Any]]:
    """The pack, the ``DuelSpec`` and the sweeps the arguments ask for, every side read and
    checked (a bad argument exits 2, a broken side file 1)."""
    from engine.errors import ContentError
    from engine.lab import duels, sides, sweep
    from engine.lab.model import MAX_RUNS, LabSpec

    for option, asked in (("--compare", args.compare), ("--only", args.only is not None),
                          ("--foes", args.foes), ("--dask", args.dask is not None)):
        if asked:
            raise UsageError(f"{option} is for campaigns; a duel (--side) leaves it out")
    _lab_int(args, "runs", 1, MAX_RUNS)
    _lab_int(args, "workers", 1, 1024)
    _lab_int(args, "max-rounds", 1, 10_000)
    spec = LabSpec(system=args.system or DUEL_SYSTEM,
                   content=tuple(str(d) for d in _content(args)))
    _lab_check(spec)
    from engine.lab.runner import load_spec_pack

    pack = load_spec_pack(spec)
    given: dict[str, list[Any]] = {}
    for text in args.side or []:
        try:
            side, what = sides.parse_side(text)
        except IllegalAction as e:
            raise UsageError(str(e)) from None
        if side in given:
            raise UsageError(f"--side {side} is given twice")
        try:
            given[side] = sides.read_side(pack, what)
        except IllegalAction as e:
            raise UsageError(f"--side {side}: {e}") from None
        except ContentError as e:
            raise CliError(f"--side {side}: {e}") from None
    missing = [x for x in sides.SIDES if x not in given]
    if missing:
        raise UsageError(f"a duel needs both sides: add --side {missing[0]}=FILE (or"
                         f" {missing[0]}=pack:<stat block id>)")
    try:
        policy = args.policy or duels.REFEREE
        duels.check_policy(policy)
        sweeps = [sweep.parse_sweep(t) for t in args.sweep or []]
        spec_d = duels.DuelSpec(system=spec.system, a=sides.dump(given["A"]),
                                b=sides.dump(given["B"]), policy=policy, runs=args.runs,
                                seed=args.seed, max_rounds=args.max_rounds,
                                content=spec.content, exact=args.exact)
        sweep.points(sweeps)
        duels.check(spec_d)
        sweep.blocks_at(pack, spec_d, sweeps, {})
        for sw in sweeps:  # each trait found, and every value checked
            for p in sweep.points([sw]):
                sweep.blocks_at(pack, spec_d, [sw], p)
    except (IllegalAction, duels.DuelError) as e:
        raise UsageError(str(e)) from None
    return pack, spec_d, sweeps


def _lab_duels(args: argparse.Namespace) -> int:
    """Duels, skirmishes and sweeps of stat blocks (``--side``, ``--sweep``)."""
    from engine.lab import duel_report, duels, sweep

    pack, spec, sweeps = _duel_setup(args)
    progress, bar = _lab_progress(f"duels, {spec.policy}")
    try:
        pts, at, per = sweep.run(pack, spec, sweeps, args.workers, progress)
    finally:
        if bar is not None:
            bar.stop()
    summary = sweep.summarize(spec, sweeps, pts, at, per, duels.path_of(spec))
    if args.out:
        paths = duel_report.write(summary, sweep.records_rows(pts, per, spec.seed),
                                  Path(args.out), charts=not args.no_charts)
    if args.json:
        _out(json.dumps(summary, sort_keys=True))
    else:
        _out(duel_report.terminal(summary, _width()))
        if args.out:
            _out(f"\nWrote {', '.join(p.name for p in paths)} to {args.out}")
    return EXIT_ERROR if summary["failed"] else 0


def cmd_lab(args: argparse.Namespace) -> int:
    """Play many campaigns headless with a policy bot and report the numbers."""
    if args.side or args.sweep:
        return _lab_duels(args)
    if args.keep is not None and args.only is None:
        raise UsageError("--keep saves the campaign that --only INDEX replays: add --only")
    if args.compare:
        if args.only is not None:
            raise UsageError("--only replays one campaign of one pack: leave out --compare")
        if args.system is not None:
            raise UsageError("--compare PACK_A PACK_B names both systems: leave out --system")
        return _lab_compare(args)
    spec = _lab_spec(args, args.system or "masks")
    _lab_check(spec)
    if args.only is not None:
        return _lab_only(args, spec)
    from engine.lab import report, stats

    results = _lab_run(args, spec, f"{_clip(spec.system, 30)[1:-1]}, {spec.policy}")
    summary = stats.summarize(results, spec)
    if args.out:
        paths = report.write(summary, Path(args.out), charts=not args.no_charts)
    if args.json:
        _out(json.dumps(summary, sort_keys=True))
    else:
        _out(report.terminal(summary, _width()))
        if args.out:
            _out(f"\nWrote {len(paths)} files to {args.out}: the report is"
                 f" {Path(args.out) / 'report.md'}")
    err = (lambda line: sys.stderr.write(line + "\n")) if args.json else _out
    _lab_failures(args, spec, results, err, errors=args.json)
    return EXIT_ERROR if any(not r["ok"] for r in results) else 0



def add_lab_command(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The lab command: many campaigns played headless by a policy bot."""
    sp = sub.add_parser(
        "lab", help="play many campaigns headless with a policy bot; report the numbers",
        description="The design lab: many campaigns played headless through the same rules by"
                    " a policy bot, and the numbers a designer asks for. Exit 1 when a"
                    " campaign failed (each is listed with the command that replays it).")
    sp.add_argument("--system", metavar="ID|PACK_DIR",
                    help="game system id or a pack folder (default masks)")
    sp.add_argument("--policy", metavar="NAME|module:Class",
                    help="random, greedy, story, or package.module:Class (default greedy);"
                         " in a duel it plays both sides, and referee (a duel's default)"
                         " hands both to the referee's brain")
    sp.add_argument("--runs", type=int, metavar="N", default=100,
                    help="campaigns to play (default 100)")
    sp.add_argument("--seed", type=int, metavar="N", default=1,
                    help="master seed: every campaign's seed derives from it (default 1)")
    sp.add_argument("--scenes", type=int, metavar="N", default=3,
                    help="scenes per campaign (default 3)")
    sp.add_argument("--moves", type=int, metavar="N", default=8,
                    help="player moves per scene in a PbtA game (default 8)")
    sp.add_argument("--party", type=int, metavar="N", default=1,
                    help="heroes in the party (default 1)")
    sp.add_argument("--foes", metavar="A,B",
                    help="d20 games: stat block ids each fight is against")
    sp.add_argument("--max-steps", type=int, metavar="N", default=5000,
                    help="engine steps one campaign may take before it counts as never ending"
                         " (default 5000)")
    sp.add_argument("--workers", type=int, metavar="N",
                    help="worker processes (default: every core; 1 plays in this process)")
    sp.add_argument("--dask", nargs="?", const="", metavar="ADDRESS",
                    help="run on Dask: the scheduler at ADDRESS, or a local cluster"
                         " (the dask extra)")
    sp.add_argument("--out", metavar="DIR",
                    help="write report.md, charts (PNG), summary.json and CSVs here")
    sp.add_argument("--no-charts", action="store_true", help="no PNG charts in --out")
    sp.add_argument("--json", action="store_true", help="the summary as JSON on stdout")
    sp.add_argument("--only", type=int, metavar="INDEX",
                    help="replay campaign INDEX of the run only")
    sp.add_argument("--keep", metavar="DIR",
                    help="with --only: save the campaign in DIR to open in the app")
    sp.add_argument("--compare", nargs=2, metavar=("PACK_A", "PACK_B"),
                    help="A/B: both packs on the same seeds, their differences")
    sp.add_argument("--side", action="append", metavar="A=FILE|B=pack:ID",
                    help="a duel or skirmish, fights only: side A or B's stat blocks from a"
                         " YAML file (one block, a list, or a characters: list) or the"
                         " pack's (pack:keystone, pack:a,b); give both sides")
    sp.add_argument("--sweep", action="append", metavar="TRAIT=LOW..HIGH",
                    help="with --side: step a trait of side A's blocks (B.TRAIT for B's):"
                         " toughness=8..14, B.dodge=6..12/2, attacks.0.rank=8,10,12, pl=9..11;"
                         " twice for a grid")
    sp.add_argument("--no-exact", dest="exact", action="store_false",
                    help="with --side: skip the exact odds (a duel too large to enumerate"
                         " takes a few seconds a point to give up)")
    sp.add_argument("--max-rounds", type=int, metavar="N", default=60,
                    help="with --side: a fight past this many rounds is a stalemate"
                         " (default 60)")
    sp.set_defaults(fn=cmd_lab)
