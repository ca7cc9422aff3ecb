"""Where effects sit in a pack: every effect with the file and key path it was written at."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from engine.content import schema as s
from engine.content.pack import Pack

Loc = tuple[str | int, ...]
"""A key path inside a file, as keys and list indexes (``("moves", 3, "before", 0)``)."""


def walk_effects(effects: Iterable[Any]) -> Iterator[Any]:
    """Each effect, followed by those inside its ``one_of`` options (depth first)."""
    for eff in effects:
        yield eff
        if isinstance(eff, s.OneOf):
            for opt in eff.options:
                yield from walk_effects(opt.effects)


def outcomes_of(move: s.Move) -> Iterator[tuple[str, s.Outcome]]:
    """(key, outcome) for each of a move's outcomes: by band, against a teammate, its result."""
    for band, out in move.outcomes.items():
        yield f"outcomes.{band}", out
    for band, out in move.vs_teammate.items():
        yield f"vs_teammate.{band}", out
    if move.result:
        yield "result", move.result


def effect_sites(pack: Pack) -> Iterator[tuple[str, str, Any]]:
    """(file, key path, effect) for every effect in the pack, one_of branches included."""
    for i, m in enumerate(pack.moves.values()):
        base = f"moves[{i}] ({m.id})"
        for eff in walk_effects(m.before):
            yield "moves.yaml", f"{base}.before", eff
        for key, out in outcomes_of(m):
            for eff in walk_effects(out.effects):
                yield "moves.yaml", f"{base}.{key}.effects", eff
            if out.choose:
                for opt in out.choose.options:
                    for eff in walk_effects(opt.effects):
                        yield "moves.yaml", f"{base}.{key}.choose.{opt.id}", eff
    for t in pack.system.tracks:
        for eff in walk_effects(t.on_full):
            yield "system.yaml", f"tracks.{t.id}.on_full", eff
    for eff in walk_effects(pack.system.session.start_effects):
        yield "system.yaml", "session.start_effects", eff
    for adv in pack.system.advancements:
        for eff in walk_effects(adv.effects):
            yield "system.yaml", f"advancements.{adv.id}", eff
    for g in pack.gm_moves:
        for eff in walk_effects(g.effects):
            yield "gm.yaml", f"moves.{g.id}.effects", eff
    for threat in pack.gm.threats:
        for eff in walk_effects(threat.doom_effects):
            yield "gm.yaml", f"threats.{threat.id}.doom_effects", eff


def _effects_at(loc: Loc, effects: Iterable[Any]) -> Iterator[tuple[Loc, Any]]:
    """(key path, effect) for ``effects`` listed at ``loc``, one_of branches included."""
    for j, eff in enumerate(effects):
        yield (*loc, j), eff
        if isinstance(eff, s.OneOf):
            for k, o in enumerate(eff.options):
                yield from _effects_at((*loc, j, "options", k, "effects"), o.effects)


def effect_locations(pack: Pack) -> Iterator[tuple[str, Loc, Any]]:
    """(file, key path, effect) for every effect in the pack, one_of branches, random events
    and table entries included; the key path finds the effect's line with ``line_of``."""
    for i, m in enumerate(pack.moves.values()):
        yield from (("moves.yaml", loc, e) for loc, e in _effects_at(("moves", i, "before"),
                                                                       m.before))
        for key, out in outcomes_of(m):
            base: Loc = ("moves", i, *key.split("."))
            yield from (("moves.yaml", loc, e)
                        for loc, e in _effects_at((*base, "effects"), out.effects))
            if out.choose:
                for k, opt in enumerate(out.choose.options):
                    yield from (("moves.yaml", loc, e) for loc, e in _effects_at(
                        (*base, "choose", "options", k, "effects"), opt.effects))
    sys_ = pack.system
    for i, tr in enumerate(sys_.tracks):
        yield from (("system.yaml", loc, e)
                    for loc, e in _effects_at(("tracks", i, "on_full"), tr.on_full))
    yield from (("system.yaml", loc, e) for loc, e in _effects_at(
        ("session", "start_effects"), sys_.session.start_effects))
    for i, adv in enumerate(sys_.advancements):
        yield from (("system.yaml", loc, e)
                    for loc, e in _effects_at(("advancements", i, "effects"), adv.effects))
    for i, g in enumerate(pack.gm_moves):
        yield from (("gm.yaml", loc, e) for loc, e in _effects_at(("moves", i, "effects"),
                                                                    g.effects))
    for i, th in enumerate(pack.gm.threats):
        yield from (("gm.yaml", loc, e)
                    for loc, e in _effects_at(("threats", i, "doom_effects"), th.doom_effects))
    for i, ent in enumerate(pack.gm.random_events):
        yield from (("gm.yaml", loc, e)
                    for loc, e in _effects_at(("random_events", i, "effects"), ent.effects))
    for i, table in enumerate(pack.tables.values()):
        for k, ent in enumerate(table.entries):
            yield from (("tables.yaml", loc, e) for loc, e in _effects_at(
                ("tables", i, "entries", k, "effects"), ent.effects))
