"""Make the version-1 save fixtures under tests/data/saves-v1 (run once, with the code of
commit 02a9caa, before the save format changed; kept to show how the fixtures were made).

Each campaign is played through the bundled example scripts, then a second scene begins and a
move is left half-finished (its outcome waits on a choice), so the fixture resumes mid-choice.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from engine.campaigns import close_game, open_game

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "data" / "saves-v1"


def main() -> None:
    if OUT.exists():
        shutil.rmtree(OUT)
    OUT.mkdir(parents=True)
    for example in ("masks-thirty-moves", "cow-the-missing-ledger"):
        subprocess.run([sys.executable, "-m", "engine.cli", "--saves", str(OUT), "script",
                        str(ROOT / "examples" / f"{example}.yaml")], check=True,
                       stdout=subprocess.DEVNULL)
    game = open_game(OUT, "the-long-night-at-pier-9")
    game.start_scene("Rooftops after midnight", "Above the harbour", "Will Tin forgive Nova?")
    game.describe("I scan the rooftops for whoever followed us from the pier")
    game.choose_move("assess_situation")
    game.roll([4, 4])  # a weak hit (7 after Angry): keep it; the outcome waits on a choice
    game.adjust("keep")
    assert game.pending.kind not in ("fiction", "move", "roll", "adjust"), game.pending
    close_game(game)
    game = open_game(OUT, "the-missing-ledger")
    game.start_scene("The morning after", "Lantern Row")
    game.describe("I size up the lamp-seller's stall and who is watching it")
    game.choose_move("appraise_circumstances")
    game.roll([5, 4])
    if game.pending.kind == "adjust":
        game.adjust("keep")
    assert game.pending.kind not in ("fiction", "move", "roll", "adjust"), game.pending
    close_game(game)


if __name__ == "__main__":
    main()
