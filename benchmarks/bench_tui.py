"""Benchmarks of the terminal app (run on demand, never in the test suite).

1. Launch: time from starting ``sidekick`` until its title screen is up and the app exits
   (``SIDEKICK_EXIT_WHEN_READY``), next to a minimal Textual app that exits as soon as it has
   drawn, both as subprocesses on a pseudo-terminal, interleaved; medians and their ratio.
   Target: at most 1.5x the minimal app.
2. A move: in-process (headless, 120x40, each frame turned into terminal codes as a real
   terminal would get it), the time from Enter on a suggested move until the roll panel is
   painted, and from Enter on the roll until the top screen has painted the result: the play
   screen with the result in the journal, or the dialog the result opened. Median and p90 over
   ~30 moves, with the ratio to the same clock on a minimal Textual app (Enter appends a line
   to a scrolled log) in the same run, and the load average. Target: median and p90 <= 50 ms.

Usage: ``python benchmarks/bench_tui.py [--runs 10] [--moves 30] [--skip-launch]
[--profile FILE]``
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import fcntl
import os
import select
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time
from pathlib import Path
from typing import Any

import engine.tui  # noqa: F401  (before any textual import: it sets the frame rate, as the app does)

ROOT = Path(__file__).resolve().parents[1]

MINIMAL_APP = """
from textual.app import App, ComposeResult
from textual.widgets import Footer, Static

class Minimal(App):
    def compose(self) -> ComposeResult:
        yield Static("hello")
        yield Footer()

    def on_mount(self) -> None:
        self.call_after_refresh(self.exit)

Minimal().run()
"""

SIDEKICK_APP = "import sys; from engine.cli import main; sys.exit(main([]))"


def _run_on_pty(code: str, env: dict[str, str]) -> float:
    """Run ``python -c code`` on a 120x40 pseudo-terminal; seconds until it exits."""
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-c", code], stdin=slave, stdout=slave,
                            stderr=slave, env=env, cwd=ROOT, close_fds=True)
    os.close(slave)
    try:
        while proc.poll() is None:
            ready, _, _ = select.select([master], [], [], 0.05)
            if ready:
                try:
                    os.read(master, 65536)
                except OSError:
                    break
        proc.wait(timeout=30)
        elapsed = time.perf_counter() - start
    finally:
        os.close(master)
    if proc.returncode != 0:
        raise RuntimeError(f"the app exited with {proc.returncode}")
    return elapsed


def bench_launch(runs: int) -> dict[str, float]:
    """Median launch times of Sidekick's title screen and of a minimal Textual app."""
    from engine.campaigns import close_game, new_game

    saves = Path(tempfile.mkdtemp(prefix="sk-bench-"))
    for name in ("Night Shift", "Glass City", "Harbour Lights"):
        close_game(new_game(saves, system="masks", name=name, hero_name="Nova",
                            archetype="signal_fire", seed=1))
    env = dict(os.environ, SIDEKICK_SAVES=str(saves), SIDEKICK_EXIT_WHEN_READY="1",
               SIDEKICK_FORCE_TUI="1", TERM=os.environ.get("TERM", "xterm-256color"))
    env.pop("TEXTUAL", None)
    env.pop("TEXTUAL_FPS", None)  # each app picks its own (Sidekick sets 120 itself)
    for _ in range(2):  # warm the disk cache and bytecode
        _run_on_pty(MINIMAL_APP, env)
        _run_on_pty(SIDEKICK_APP, env)
    minimal, sidekick = [], []
    for _ in range(runs):
        minimal.append(_run_on_pty(MINIMAL_APP, env))
        sidekick.append(_run_on_pty(SIDEKICK_APP, env))
    m, s = statistics.median(minimal), statistics.median(sidekick)
    return {"minimal": m, "sidekick": s, "ratio": s / m}


async def _bench_moves(moves: int, profile: cProfile.Profile | None = None) -> dict[str, Any]:
    """Keypress-to-frame latency of a move and of its roll, measured on the app's own frames.

    Each key is posted to the app's driver as a terminal would; the time stops when the screen
    has drawn a frame that contains the result (Pilot's idle heuristics are not used). With
    ``profile``, only the roll-to-result keypresses are profiled.
    """
    from textual import events

    from engine.campaigns import new_game
    from engine.tui.app import SidekickApp
    from engine.tui.screens.dialogs import ChoiceDialog
    from engine.tui.screens.play import PlayScreen
    from engine.tui.widgets.journal import Journal

    saves = Path(tempfile.mkdtemp(prefix="sk-bench-"))
    game = new_game(saves, system="masks", name="Bench", hero_name="Nova",
                    archetype="signal_fire", seed=3,
                    npcs=[("Dusk Meridian", "villain", ""), ("Tin", "teammate", ""),
                          ("Rosalind", "adult", "")])
    cid = str(game.store.id)  # type: ignore[attr-defined]
    game.store.close()  # type: ignore[attr-defined]
    fictions = ["I punch the drone swarm", "I look around the pier",
                "I blast through the wall with my powers"]
    to_panel: list[float] = []
    to_result: list[float] = []
    to_dialog: list[float] = []
    app = SidekickApp(saves_dir=saves, campaign=cid)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, PlayScreen)
        journal = screen.query_one(Journal)
        display = app._display
        watch: dict[str, Any] = {}
        """``shown``: what the frame must show; ``at``: when the first such frame was painted."""

        def painted(on: Any, renderable: Any) -> None:
            """Paint as a terminal would (headless skips it); note the first frame the top
            screen paints that shows what is watched for."""
            display(on, renderable)
            if renderable is None:
                return
            if hasattr(renderable, "render_segments"):
                renderable.render_segments(app.console)
            shown = watch.get("shown")
            if shown is not None and on is app.screen and shown():
                watch["at"] = time.perf_counter()
                watch["shown"] = None
            if watch.get("dialog") and on is app.screen and on is not screen:
                watch.update(dialog=False, dialog_at=time.perf_counter())

        app._display = painted  # type: ignore[method-assign]

        async def press_until(key: str, shown: Any) -> float:
            """Post ``key``; seconds until the top screen painted a frame that shows it."""
            watch.update(shown=shown, at=None, dialog=key == "enter", dialog_at=None)
            t0 = watch["t0"] = time.perf_counter()
            app._driver.send_message(events.Key(key, "\r" if key == "enter" else key))  # type: ignore[union-attr]
            while watch["at"] is None:
                await asyncio.sleep(0.001)
                if time.perf_counter() - t0 > 5:
                    raise TimeoutError(key)
            return float(watch["at"]) - t0

        def stage() -> str:
            return str(screen.game.flow.stage)

        while len(to_result) < moves:
            while not isinstance(app.screen, PlayScreen) or stage() != "fiction":
                dialog = app.screen  # keep results, take the first options
                if isinstance(dialog, ChoiceDialog) and not dialog.single:
                    for _ in range(dialog.lo):
                        await pilot.press("space", "down")
                await pilot.press("enter")
                await pilot.pause()
            screen.query_one("#fiction").value = fictions[len(to_result) % len(fictions)]  # type: ignore[attr-defined]
            await pilot.press("enter")
            await pilot.pause()
            await pilot.pause(0.05)
            to_panel.append(await press_until("enter", lambda: stage() == "roll"))
            await pilot.pause(0.05)
            entries = len(journal.entries)
            if profile is not None:
                profile.enable()
            to_result.append(await press_until(
                "enter", lambda e=entries: len(journal.entries) > e
                and (app.screen is not screen or journal.scroll_y >= journal.max_scroll_y)))
            if profile is not None:
                profile.disable()
            await pilot.pause(0.5)  # the player reads the result (the app collects garbage then)
            if watch["dialog_at"] is not None:  # the result opened a dialog: when it painted
                to_dialog.append(float(watch["dialog_at"]) - float(watch["t0"]))
    return {"to_panel": to_panel, "to_result": to_result, "to_dialog": to_dialog}


async def _bench_baseline(keys: int) -> list[float]:
    """The same clock on a minimal Textual app: Enter appends a line to a scrolled log."""
    from textual import events
    from textual.app import App, ComposeResult
    from textual.containers import VerticalScroll
    from textual.widgets import Footer, Input, Static

    class Minimal(App[None]):
        def compose(self) -> ComposeResult:
            yield VerticalScroll(*(Static(f"line {i}") for i in range(60)), id="log")
            yield Input(id="fiction")
            yield Footer()

        def on_mount(self) -> None:
            self.query_one("#fiction", Input).focus()

        def on_input_submitted(self) -> None:
            log = self.query_one("#log", VerticalScroll)
            log.mount(Static(f"line {len(log.children)}"))
            log.scroll_end(animate=False)

    app = Minimal()
    times: list[float] = []
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        display = app._display
        log = app.query_one("#log", VerticalScroll)
        watch: dict[str, Any] = {}

        def painted(on: Any, renderable: Any) -> None:
            display(on, renderable)
            if renderable is None:
                return
            if hasattr(renderable, "render_segments"):
                renderable.render_segments(app.console)
            count = watch.get("count")
            if count is not None and len(log.children) > count \
                    and log.scroll_y >= log.max_scroll_y:
                watch.update(count=None, at=time.perf_counter())

        app._display = painted  # type: ignore[method-assign]
        for _ in range(keys):
            watch.update(count=len(log.children), at=None)
            t0 = time.perf_counter()
            app._driver.send_message(events.Key("enter", "\r"))  # type: ignore[union-attr]
            while watch["at"] is None:
                await asyncio.sleep(0.001)
                if time.perf_counter() - t0 > 5:
                    raise TimeoutError("baseline")
            times.append(float(watch["at"]) - t0)
            await pilot.pause(0.05)
    return times


def _pct(values: list[float], q: float) -> float:
    """The ``q`` quantile (nearest rank) of ``values``."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))]


def main() -> None:
    """Run both benchmarks and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--moves", type=int, default=30)
    parser.add_argument("--skip-launch", action="store_true")
    parser.add_argument("--profile", metavar="FILE",
                        help="write a cProfile of the roll-to-result keypresses to FILE")
    args = parser.parse_args()
    load_before = os.getloadavg()[0]
    if not args.skip_launch:
        launch = bench_launch(args.runs)
        print(f"launch (median of {args.runs}): minimal Textual app {launch['minimal']:.3f} s,"
              f" sidekick title screen {launch['sidekick']:.3f} s,"
              f" ratio {launch['ratio']:.2f}x (target <= 1.5x)")
    base = asyncio.run(_bench_baseline(args.moves))
    profile = cProfile.Profile() if args.profile else None
    moves = asyncio.run(_bench_moves(args.moves, profile))
    if profile is not None:
        profile.dump_stats(args.profile)
    base_median = statistics.median(base)
    print(f"baseline, a minimal Textual app (Enter -> a line appended and painted):"
          f" median {base_median * 1000:.1f} ms, p90 {_pct(base, 0.9) * 1000:.1f} ms")
    for label, values in (("Enter on a move -> roll panel painted", moves["to_panel"]),
                          ("Enter on the roll -> result painted", moves["to_result"]),
                          ("Enter on the roll -> the dialog it opens painted (reported)",
                           moves["to_dialog"])):
        if not values:
            continue
        median = statistics.median(values)
        print(f"{label} (n={len(values)}): median {median * 1000:.1f} ms,"
              f" p90 {_pct(values, 0.9) * 1000:.1f} ms, ratio {median / base_median:.2f}x"
              f" baseline (target: median and p90 <= 50 ms)")
    print(f"  {len(moves['to_dialog'])} of {len(moves['to_result'])} results opened a dialog"
          " (the result is painted on the play screen first, then the dialog opens)")
    print(f"load average: {load_before:.2f} before, {os.getloadavg()[0]:.2f} after")


if __name__ == "__main__":
    main()
