"""Make the version-2 save fixtures under tests/data/saves-v2 (run once, with the code of
issue 22's commits, before issue 23 changed how fights are saved; kept to show how the
fixtures were made).

One campaign per system, each played through a bundled example script:
- masks: the party of three (Influence between heroes, Team), then a move left waiting on a
  choice;
- city-of-whispers: the missing ledger (beliefs, Ties, a scheme, factions), then a move left
  waiting on a choice;
- mm3e: the harbour fight, stopped in the middle of round 2 (a fight saved mid-fight, its
  log full of ``FightUpdated`` snapshots);
- panels: the Skyrail fight, stopped when the fight asks Quarrel how she answers a hit (a
  fight saved in the middle of a choice).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import yaml

from engine.campaigns import close_game, open_game

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "data" / "saves-v2"


def _play(example: str, keep: int | None = None, after_fight: int | None = None) -> None:
    data: dict[str, Any] = yaml.safe_load((ROOT / "examples" / f"{example}.yaml").read_text())
    steps = data["steps"]
    if after_fight is not None:
        start = next(i for i, st in enumerate(steps)
                     if isinstance(st, dict) and isinstance(st.get("fight"), dict)
                     and "foes" in st["fight"])
        steps = steps[:start + 1 + after_fight]
    elif keep is not None:
        steps = steps[:keep]
    data["steps"] = steps
    script = OUT / f"{example}.yaml"
    script.write_text(yaml.safe_dump(data, sort_keys=False))
    subprocess.run([sys.executable, "-m", "engine.cli", "--saves", str(OUT), "script",
                    str(script)], check=True, stdout=subprocess.DEVNULL)
    script.unlink()


def main() -> None:
    if OUT.exists():
        shutil.rmtree(OUT)
    OUT.mkdir(parents=True)
    _play("masks-party")
    _play("cow-the-missing-ledger")
    _play("mm3e-harbor-fight", after_fight=6)
    _play("panels-skyrail-fight", after_fight=0)

    game = open_game(OUT, "pier-nine")
    game.start_scene("The ferry terminal, after", "Pier 9", "Does Ash trust the team?")
    game.describe("I look over the terminal for whoever cut the power")
    game.choose_move("assess_situation")
    game.roll([4, 4])
    if game.pending.kind == "adjust":
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
    game = open_game(OUT, "the-tallyman-s-due")
    assert game.fight is not None and game.fight.pending is None
    close_game(game)
    game = open_game(OUT, "last-train-to-tinmarket")
    game.referee_run()  # Cutglass's first panel: it hits, and the fight asks Quarrel
    assert game.fight is not None and (game.fight_need or {}).get("kind") == "choice"
    close_game(game)
    for lock in OUT.glob("*/.lock"):
        lock.unlink()


if __name__ == "__main__":
    main()
