"""The panels game's custom heroes: a stat block from a line of characteristics, or read from a
YAML file (``sidekick new --statblock FILE``), checked against the builder's limits
(statblock.LIMITS)."""

from __future__ import annotations

from pathlib import Path

from engine.content.loader import read_yaml
from engine.errors import ContentError
from engine.systems.panels.checks import skill_modifier
from engine.systems.panels.damage import AttackForm, strength_bonus
from engine.systems.panels.statblock import LIMITS, Character, Characteristics, from_data

FILLED_IN = (
    "A hero made from a line of characteristics gets Kill 20 + Strength's damage bonus x 2 +"
    " Nerve's modifier x 2 and Stun 10 more, each within the hero's limits, and fists as its"
    " attack."
)
"""The rules of this module that the seed leaves out, filled in."""

CORE = ("agility", "dexterity", "strength")
"""The seed's characteristics; the others of a line go under ``other``."""


def derived(name: str, stats: dict[str, int]) -> Character:
    """A hero's block from its characteristics (``FILLED_IN``); missing ones count 10."""
    lim = LIMITS["hero"]
    core = {k: stats.get(k, 10) for k in CORE}
    other = {k: v for k, v in stats.items() if k not in CORE}
    kill = 20 + 2 * strength_bonus(core["strength"]) + 2 * skill_modifier(other.get("nerve", 10))
    kill = max(lim.kill[0], min(lim.kill[1], kill))
    stun = max(lim.stun[0], min(lim.stun[1], kill + 10))
    return Character(name=name, kind="hero",
                     characteristics=Characteristics(**core, other=other),
                     kill=kill, stun=stun,
                     attacks=(AttackForm(name="Fists", range="melee", fist=True),),
                     concept="A hero of your own making.")


def load_hero_file(path: str | Path) -> Character:
    """A hero's stat block from a YAML file (one block, or ``characters:`` with one);
    ``ContentError`` naming the file and what is wrong."""
    p = Path(path)
    raw = read_yaml(p)
    if isinstance(raw, dict) and isinstance(raw.get("characters"), list):
        entries = raw["characters"]
        if len(entries) != 1:
            raise ContentError(f"{p}: expected one character, found {len(entries)}")
        raw = entries[0]
    if not isinstance(raw, dict):
        raise ContentError(f"{p}: expected a stat block (name, kind, characteristics, kill,"
                           " stun, attacks)")
    return from_data(raw, str(p))
