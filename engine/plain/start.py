"""A new campaign in the plain mode: the same questions as the app's form, one per line."""

from __future__ import annotations

from pathlib import Path

from engine.content.loader import discover, get_pack
from engine.errors import EngineError
from engine.game import Game
from engine.plain.console import Choice, Console

DICE = [("seeded", "Sidekick rolls (seeded dice)"), ("physical", "you roll every die"),
        ("mixed", "each roll asks")]


def new_campaign(console: Console, saves: Path, content: list[Path]) -> Game:
    """Ask for the system, the names, the hero's archetype and the dice; create it."""
    from engine.campaigns import new_game

    systems: list[tuple[str, str]] = []
    for sid in discover(content):
        try:
            systems.append((sid, get_pack(sid, content).system.name))
        except EngineError:
            continue
    picked = console.pick("Which game?", [Choice(name) for _, name in systems])
    assert isinstance(picked, list)
    system = systems[picked[0]][0]
    pack = get_pack(system, content)
    name = _words(console, "The campaign's name:")
    archetypes = list(pack.system.archetypes)
    picked = console.pick("Your hero's archetype?", [
        Choice(a.name, getattr(a, "description", "") or "") for a in archetypes])
    assert isinstance(picked, list)
    arch = archetypes[picked[0]]
    hero = console.ask(f"Your hero's name (Enter: {arch.name}):", commands=False) or arch.name
    picked = console.pick("Dice?", [Choice(m, what) for m, what in DICE])
    assert isinstance(picked, list)
    game = new_game(saves, system=system, name=name, hero_name=hero, archetype=arch.id,
                    dice_mode=DICE[picked[0]][0], content=content)
    console.raw(f"Created '{name}' ({getattr(game.store, 'id', '')}).")
    return game


def _words(console: Console, question: str) -> str:
    while True:
        line = console.ask(question, commands=False)
        if line:
            return line
        console.raw("Please type a few words.")
