"""Building characters: a hero's starting stat line checked against the pack, hero actors
and their ``HeroAdded`` events, and ids for new characters."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TypedDict

from engine.content.loader import Pack
from engine.errors import IllegalAction
from engine.rules import events as ev
from engine.rules.state import Actor, new_id


def actor_id(name: str, taken: Sequence[str]) -> str:
    """An id for a new character (``state.new_id``)."""
    return new_id(name, set(taken))


class HeroSeat(TypedDict, total=False):
    """Another hero of a new campaign's party: a name, and an archetype or a line of stats."""

    name: str
    archetype: str | None
    stats: dict[str, int] | None


def new_hero(pack: Pack, name: str, archetype: str | None, stats: dict[str, int],
              taken: Sequence[str]) -> Actor:
    """A hero actor as a campaign starts it: the pack's starting tracks and flags."""
    name = name.strip() or "The Hero"
    return Actor(
        id=actor_id(name, taken), name=name, kind="hero", role="hero", archetype=archetype,
        stats=stats, tracks={t.id: t.start for t in pack.system.tracks if t.scope == "hero"},
        flags=list(pack.system.hero.start_flags)
        + (list(pack.archetypes[archetype].flags) if archetype else []),
    )


def hero_added(pack: Pack, hero: Actor) -> ev.HeroAdded:
    """The event that adds ``hero`` to the party."""
    return ev.HeroAdded(id=hero.id, name=hero.name, archetype=hero.archetype,
                        stats=dict(hero.stats), tracks=dict(hero.tracks),
                        flags=list(hero.flags), data=dict(hero.data))


def validate_hero(pack: Pack, archetype: str | None, stats: dict[str, int] | None
                  ) -> dict[str, int]:
    """The hero's starting stats from an archetype or a custom line; ``IllegalAction`` if bad."""
    if archetype:
        if archetype not in pack.archetypes:
            raise IllegalAction(f"unknown archetype {archetype!r}; choose one of"
                                f" {', '.join(pack.archetypes)}")
        base = dict(pack.archetypes[archetype].stats)
        if stats:
            base.update(stats)
        stats = base
    if stats is None:
        raise IllegalAction("choose an archetype or give a stat line")
    problems = hero_problems(pack, stats)
    if problems:
        raise IllegalAction("; ".join(problems))
    return {k: int(stats[k]) for k in pack.stats}


def hero_problems(pack: Pack, stats: dict[str, int]) -> list[str]:
    """What is wrong with a custom stat line (empty if it is fine)."""
    rules = pack.system.hero
    out = []
    missing = [pack.stats[k].name for k in pack.stats if k not in stats]
    if missing:
        out.append(f"missing {', '.join(missing)}")
    unknown = [k for k in stats if k not in pack.stats]
    if unknown:
        out.append(f"unknown {pack.system.stat_label.lower()} {', '.join(unknown)}")
    for k, v in stats.items():
        if k not in pack.stats:
            continue
        lo = rules.stat_min if rules.stat_min is not None else pack.stats[k].min
        hi = rules.stat_max if rules.stat_max is not None else pack.stats[k].max
        if not lo <= v <= hi:
            out.append(f"{pack.stats[k].name} {v:+d} is outside {lo:+d}..{hi:+d}")
    if rules.stat_total is not None and not missing and not unknown:
        total = sum(stats.values())
        if total != rules.stat_total:
            out.append(f"{pack.system.stat_label} add up to {total:+d}; they must add up to"
                       f" {rules.stat_total:+d}")
    return out


def parse_stats(pack: Pack, typed: Mapping[str, str]) -> tuple[dict[str, int], list[str]]:
    """A custom stat line as typed (stat id -> text): the numbers, and every problem with them
    (not a whole number, then ``hero_problems``). Blank, "-" and "+" count as not typed yet."""
    stats: dict[str, int] = {}
    problems: list[str] = []
    for sid, st in pack.stats.items():
        raw = typed.get(sid, "").strip()
        if raw in ("", "-", "+"):
            continue
        try:
            stats[sid] = int(raw)
        except ValueError:
            problems.append(f"{st.name}: {raw!r} is not a whole number")
    return stats, problems + hero_problems(pack, stats)
