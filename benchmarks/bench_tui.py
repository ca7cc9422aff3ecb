"""Benchmarks of the terminal app (run on demand, never in the test suite).

1. Launch: time from starting ``sidekick`` until its title screen is up and the app exits
   (``SIDEKICK_EXIT_WHEN_READY``), next to a minimal Textual app that exits as soon as it has
   drawn, both as subprocesses on a pseudo-terminal, interleaved; medians and their ratio.
   Target: at most 1.5x the minimal app.
2. A move: in-process (headless, 120x40), the time from Enter on a suggested move until the
   roll panel is drawn, and from Enter on the roll until a frame shows the result in the
   journal; median over ~30 moves. Target: within 50 ms of the keypress.

Usage: ``python benchmarks/bench_tui.py [--runs 10] [--moves 30]``
"""

from __future__ import annotations

import argparse
import asyncio
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


async def _bench_moves(moves: int) -> dict[str, Any]:
    """Keypress-to-frame latency of a move and of its roll, measured on the app's own frames.

    Each key is posted to the app's driver as a terminal would; the time stops when the screen
    has drawn a frame that contains the result (Pilot's idle heuristics are not used).
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
    app = SidekickApp(saves_dir=saves, campaign=cid)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, PlayScreen)
        journal = screen.query_one(Journal)
        frames: list[float] = []
        draw = screen._compositor_refresh

        def counted_draw() -> None:
            draw()
            frames.append(time.perf_counter())

        screen._compositor_refresh = counted_draw  # type: ignore[method-assign]

        async def press_until(key: str, shown: Any) -> float:
            """Post ``key``; seconds until a frame drawn after ``shown()`` became true."""
            t0 = time.perf_counter()
            app._driver.send_message(events.Key(key, "\r" if key == "enter" else key))  # type: ignore[union-attr]
            ready_at: float | None = None
            while True:
                await asyncio.sleep(0.0005)
                if ready_at is None and shown():
                    ready_at = time.perf_counter()
                if ready_at is not None and frames and frames[-1] > ready_at:
                    return frames[-1] - t0
                if time.perf_counter() - t0 > 5:
                    raise TimeoutError(key)

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
            to_result.append(await press_until(
                "enter", lambda e=entries: len(journal.entries) > e
                and journal.scroll_y >= journal.max_scroll_y))
            await pilot.pause(0.1)
    return {"move_to_roll_panel_ms": statistics.median(to_panel) * 1000,
            "roll_to_result_ms": statistics.median(to_result) * 1000,
            "roll_to_result_p90_ms": sorted(to_result)[int(len(to_result) * 0.9)] * 1000,
            "n": len(to_result)}


def main() -> None:
    """Run both benchmarks and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--moves", type=int, default=30)
    args = parser.parse_args()
    launch = bench_launch(args.runs)
    print(f"launch (median of {args.runs}): minimal Textual app {launch['minimal']:.3f} s,"
          f" sidekick title screen {launch['sidekick']:.3f} s,"
          f" ratio {launch['ratio']:.2f}x (target <= 1.5x)")
    moves = asyncio.run(_bench_moves(args.moves))
    print(f"move (median of {moves['n']}): Enter on a move -> roll panel"
          f" {moves['move_to_roll_panel_ms']:.1f} ms; Enter on the roll -> result in the journal"
          f" {moves['roll_to_result_ms']:.1f} ms (90th percentile"
          f" {moves['roll_to_result_p90_ms']:.1f} ms; target <= 50 ms)")


if __name__ == "__main__":
    main()
