"""A seeded 200-move Masks campaign through the facade, pinned by digests.

Speed work on the facade (caches, fewer copies and dumps) must not change what a campaign
does: the same seed gives the same dice, the same events, the same state and the same journal.
The digests in ``tests/data/golden/masks_200.json`` were recorded from ``main`` before that work.

If a change to the game's behaviour is *meant* (new content, a rule fixed on purpose), record
them anew and say so in the commit:

    PYTHONPATH=. python tests/unit/test_campaign_golden.py --write
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from engine.content.loader import load_pack
from engine.game import Game
from engine.journal import render_all

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "data" / "golden" / "masks_200.json"
MOVES = 200


def _digest(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def _finish(g: Game) -> list[dict[str, Any]]:
    """Finish the move under way after an undo (its last options this time)."""
    shown: list[dict[str, Any]] = []
    while g.state.flow.stage not in ("fiction", "move"):
        stage = g.state.flow.stage
        if stage == "roll":
            shown += [s.to_dict() for s in g.roll()]
        elif stage == "adjust":
            shown += [s.to_dict() for s in g.adjust(None)]
        else:
            p = g.pending
            usable = [o for o in p.options if not o.disabled]
            shown += [s.to_dict() for s in g.choose([o.id for o in usable[-max(p.min, 1):]])]
    return shown


def play() -> dict[str, str]:
    """Play the campaign; the digests of what it logged, showed, saved and journaled."""
    pack = load_pack(ROOT / "content" / "masks")
    g = Game.new(pack, name="golden", hero_name="Nova", archetype="signal_fire",
                 npcs=[("Rosalind", "adult", ""), ("Dusk", "villain", "")], seed=2,
                 present=["Rosalind", "Dusk"])  # the villain too, as when it was recorded
    moves = [m for m in pack.moves.values()
             if m.roll is not None and m.requires_flag is None and m.target == "none"]
    shown: list[dict[str, Any]] = []
    for i in range(MOVES):
        if g.state.hero.taken_out or len(g.state.hero.conditions) >= 4:
            shown += [s.to_dict() for s in g.end_scene(list(g.state.hero.conditions))]
            shown += [s.to_dict() for s in g.start_scene(f"scene {i}")]
        shown += [s.to_dict() for s in g.trigger(moves[i % len(moves)].id)]
        shown += [s.to_dict() for s in g.roll()]
        if g.state.flow.stage == "adjust":
            shown += [s.to_dict() for s in g.adjust(None)]
        while g.state.flow.stage == "effects":
            p = g.pending
            usable = [o for o in p.options if not o.disabled]
            shown += [s.to_dict() for s in g.choose([o.id for o in usable[: max(p.min, 1)]])]
        if i % 37 == 36:  # undo the last action now and then, and finish the move anew
            g.undo()
            shown += _finish(g)
    log = list(g.store.events())
    names = {a.id: a.name for a in g.state.actors.values()}
    return {
        "events": str(len(log)),
        "log": _digest(log),
        "shown": _digest(shown),
        "state": _digest(g.state.model_dump(mode="json")),
        "journal": _digest(render_all(log, pack, names, g.state.party[0])),
    }


def test_a_seeded_campaign_plays_exactly_as_recorded() -> None:
    assert play() == json.loads(GOLDEN.read_text())


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: PYTHONPATH=. python tests/unit/test_campaign_golden.py --write")
    GOLDEN.parent.mkdir(parents=True, exist_ok=True)
    GOLDEN.write_text(json.dumps(play(), indent=1, sort_keys=True) + "\n")
    print(f"wrote {GOLDEN.relative_to(ROOT)}")
