"""What a schema cannot see in a pack: ids used twice, ids that name nothing, band sets that do
not cover every total once, dice that do not parse, stat lines out of range. ``cross_check``
runs every check, then ``play_checks``."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from typing import Any

from engine.content import schema as s
from engine.content.pack import Pack
from engine.content.playability import play_checks
from engine.content.sites import effect_sites, outcomes_of
from engine.dice import DiceSpec

SPECIAL_STATS = {"none", "conditions_marked", "choice"}
"""What a roll may add besides a stat: nothing, the conditions marked, or a stat chosen."""
_SYSTEM, _MOVES, _GM = "system.yaml", "moves.yaml", "gm.yaml"


def check_bands(name: str, bands: list[s.Band]) -> list[str]:
    """Problems with a band set: it must cover every total exactly once."""
    problems: list[str] = []
    if not bands:
        return [f"bands.{name}: empty band set"]
    ids = [b.id for b in bands]
    if len(set(ids)) != len(ids):
        problems.append(f"bands.{name}: duplicate band ids {ids}")
    ordered = sorted(bands, key=lambda b: -(10**9) if b.min is None else b.min)
    if ordered[0].min is not None:
        problems.append(
            f"bands.{name}: totals below {ordered[0].min} fall in no band"
            " (the lowest band needs no min)"
        )
    if ordered[-1].max is not None:
        problems.append(
            f"bands.{name}: totals above {ordered[-1].max} fall in no band"
            " (the highest band needs no max)"
        )
    for lo, hi in itertools_pairwise(ordered):
        if lo.max is None or hi.min is None:
            problems.append(f"bands.{name}: {lo.id} and {hi.id} overlap (open bound)")
        elif hi.min <= lo.max:
            problems.append(f"bands.{name}: {lo.id} and {hi.id} overlap at {hi.min}..{lo.max}")
        elif hi.min > lo.max + 1:
            problems.append(
                f"bands.{name}: gap between {lo.id} and {hi.id}: {lo.max + 1}..{hi.min - 1}"
                " fall in no band"
            )
    for b in bands:
        if b.min is not None and b.max is not None and b.min > b.max:
            problems.append(f"bands.{name}.{b.id}: min {b.min} is above max {b.max}")
    return problems


def itertools_pairwise(items: list[Any]) -> Iterator[tuple[Any, Any]]:
    """Consecutive pairs."""
    return itertools.pairwise(items)


# ------------------------------------------------------------------ the system


def _duplicate_ids(pack: Pack) -> list[str]:
    """Ids used twice among one kind of thing (each repeat reported)."""
    sys_ = pack.system
    kinds = (
        ("stat", [x.id for x in sys_.stats], _SYSTEM),
        ("condition", [x.id for x in sys_.conditions], _SYSTEM),
        ("track", [x.id for x in sys_.tracks], _SYSTEM),
        ("archetype", [x.id for x in sys_.archetypes], _SYSTEM),
        ("move", [m.id for m in pack.moves.values()], _MOVES),
        ("GM move", [g.id for g in pack.gm_moves], _GM),
        ("threat", [t.id for t in pack.gm.threats], _GM),
        ("oracle level", [o.id for o in pack.gm.oracle], _GM),
    )
    problems: list[str] = []
    for kind, ids, file in kinds:
        seen: set[str] = set()
        for i in ids:
            if i in seen:
                problems.append(f"{file}: {kind} id {i!r} is used twice")
            seen.add(i)
    return problems


def _band_set_problems(pack: Pack) -> list[str]:
    """Band sets that leave a total uncovered or cover one twice."""
    return [f"{_SYSTEM}: {p}" for name, bands in pack.system.bands.items()
            for p in check_bands(name, bands)]


def _system_dice_problems(pack: Pack) -> list[str]:
    """The system's dice, if they do not parse."""
    try:
        DiceSpec.parse(pack.system.dice)
    except ValueError as e:
        return [f"{_SYSTEM}: dice: {e}"]
    return []


def _stat_range_problems(pack: Pack) -> list[str]:
    """Stats whose min is above their max."""
    return [f"{_SYSTEM}: stats.{st.id}: min {st.min} is above max {st.max}"
            for st in pack.system.stats if st.min > st.max]


def _penalised_move_problems(pack: Pack) -> list[str]:
    """Conditions that penalise a move the pack does not have."""
    return [f"{_SYSTEM}: conditions.{c.id}.penalises: unknown move {mid!r}"
            f" (known: {', '.join(sorted(pack.moves))})"
            for c in pack.system.conditions for mid in c.penalises if mid not in pack.moves]


def _archetype_stat_problems(pack: Pack, a: s.Archetype) -> list[str]:
    """An archetype's stat line: every stat once, each in range, adding up to the hero rules'
    total (a hero made from it must be able to begin)."""
    problems: list[str] = []
    where = f"{_SYSTEM}: archetypes.{a.id}.stats"
    stats = set(pack.stats)
    missing = stats - set(a.stats)
    extra = set(a.stats) - stats
    if missing:
        problems.append(f"{where}: missing {sorted(missing)}")
    if extra:
        problems.append(f"{where}: unknown stats {sorted(extra)}")
    rules, bad = pack.system.hero, bool(missing or extra)
    for k, v in a.stats.items():
        if k not in pack.stats:
            continue
        sd = pack.stats[k]
        lo = rules.stat_min if rules.stat_min is not None else sd.min
        hi = rules.stat_max if rules.stat_max is not None else sd.max
        if not sd.min <= v <= sd.max:
            problems.append(f"{where}.{k}: {v} is outside {sd.min}..{sd.max}")
            bad = True
        elif not lo <= v <= hi:  # a hero made from it could not begin
            problems.append(f"{where}.{k}: {v} is outside {lo}..{hi}"
                            " (hero.stat_min..stat_max)")
            bad = True
    total = sum(a.stats.values())
    if rules.stat_total is not None and not bad and total != rules.stat_total:
        problems.append(f"{where}: add up to {total:+d}, but"
                        f" hero.stat_total is {rules.stat_total:+d}")
    return problems


def _archetype_problems(pack: Pack) -> list[str]:
    """Each archetype's stat line, then the roles of its suggested NPCs."""
    problems: list[str] = []
    for a in pack.system.archetypes:
        problems += _archetype_stat_problems(pack, a)
        problems += [f"{_SYSTEM}: archetypes.{a.id}.suggested_npcs: unknown role {npc.role!r}"
                     for npc in a.suggested_npcs if npc.role not in pack.system.roles]
    return problems


def _end_move_problems(pack: Pack) -> list[str]:
    """A session end move the pack does not have."""
    end_move = pack.system.session.end_move
    if end_move and end_move not in pack.moves:
        return [f"{_SYSTEM}: session.end_move: unknown move {end_move!r}"]
    return []


def _stance_role_problems(pack: Pack) -> list[str]:
    """GM stances for roles the system does not have."""
    roles = pack.system.roles
    return [f"{_GM}: stances.{role}: unknown role {role!r} (roles: {', '.join(roles)})"
            for role in pack.gm.stances if role not in roles]


# ------------------------------------------------------------------ the moves


def _move_reference_problems(pack: Pack, where: str, m: s.Move) -> list[str]:
    """A move's target roles, the role it meets someone new as, and miss GM moves that name
    nothing."""
    gm_ids = [g.id for g in pack.gm_moves]
    problems = [f"{where}.target_roles: unknown role {role!r}"
                for role in m.target_roles if role not in pack.system.roles]
    if m.meets is not None and m.meets not in pack.system.roles:
        problems.append(f"{where}.meets: unknown role {m.meets!r}"
                        f" (roles: {', '.join(pack.system.roles)})")
    if m.meets is not None and m.target == "none":
        problems.append(f"{where}.meets: the move meets someone, so it needs a target"
                        " ('optional' or 'required')")
    problems += [f"{where}.miss_gm: unknown GM move {gid!r}"
                 f" (GM moves: {', '.join(gm_ids) or 'none'})"
                 for gid in m.miss_gm if gid not in gm_ids]
    return problems


def _unrolled_move_problems(where: str, m: s.Move) -> list[str]:
    """A move with no roll: a 'result', and no outcomes by band."""
    problems: list[str] = []
    if m.outcomes:
        problems.append(f"{where}: has outcomes but no roll (use 'result' for no roll)")
    if m.result is None:
        problems.append(f"{where}: a move with no roll needs a 'result'")
    return problems


def _roll_stat_problems(pack: Pack, where: str, r: s.RollSpec) -> list[str]:
    """What a roll adds (``stat`` and ``choices``) must be a stat, a roll source or a param."""
    problems: list[str] = []
    sources = set(pack.stats) | SPECIAL_STATS | set(pack.system.roll_sources) | {
        f"param:{p.id}" for p in r.params}
    if r.stat not in sources:
        problems.append(f"{where}.roll.stat: unknown stat {r.stat!r}"
                        f" (expected one of {sorted(sources)})")
    if r.stat == "choice" and not r.choices:
        problems.append(f"{where}.roll.choices: stat 'choice' needs a list of stats")
    problems += [f"{where}.roll.choices: unknown stat {choice!r}"
                 for choice in r.choices if choice not in sources - {"choice"}]
    return problems


def _roll_param_problems(where: str, r: s.RollSpec) -> list[str]:
    """Roll params whose default is outside their range."""
    return [f"{where}.roll.params.{prm.id}: default {prm.default} is outside"
            f" {prm.min}..{prm.max}" for prm in r.params if not prm.min <= prm.default <= prm.max]


def _roll_dice_problems(where: str, r: s.RollSpec) -> list[str]:
    """A roll's own dice, if they do not parse."""
    if r.dice:
        try:
            DiceSpec.parse(r.dice)
        except ValueError as e:
            return [f"{where}.roll.dice: {e}"]
    return []


def _outcome_band_problems(where: str, m: s.Move, band_ids: set[str], band_set: str
                           ) -> list[str]:
    """Outcome tables (and vs_teammate, when given) must have one outcome per band."""
    problems: list[str] = []
    for label, table in (("outcomes", m.outcomes), ("vs_teammate", m.vs_teammate)):
        if label == "vs_teammate" and not table:
            continue
        problems += [f"{where}.{label}: no outcome for band {b!r}"
                     for b in sorted(band_ids - set(table))]
        problems += [f"{where}.{label}.{b}: not a band of set {band_set!r}"
                     for b in sorted(set(table) - band_ids)]
    return problems


def _rolled_move_problems(pack: Pack, where: str, m: s.Move) -> list[str]:
    """A rolled move: what it adds, its params and dice, its band set and the outcomes for
    each band (checked only once the band set is known)."""
    r = m.roll
    assert r is not None
    problems = [*_roll_stat_problems(pack, where, r), *_roll_param_problems(where, r),
                *_roll_dice_problems(where, r)]
    bands = pack.system.bands
    if r.bands not in bands:
        problems.append(f"{where}.roll.bands: unknown band set {r.bands!r}"
                        f" (expected one of {sorted(bands)})")
        return problems
    problems += _outcome_band_problems(where, m, {b.id for b in bands[r.bands]}, r.bands)
    if m.result is not None:
        problems.append(f"{where}: a rolled move uses 'outcomes', not 'result'")
    return problems


def _move_problems(pack: Pack) -> list[str]:
    """Each move's references, then its roll (or its result, when it has no roll)."""
    problems: list[str] = []
    for i, m in enumerate(pack.moves.values()):
        where = f"{_MOVES}: moves[{i}] ({m.id})"
        problems += _move_reference_problems(pack, where, m)
        if m.roll is None:
            problems += _unrolled_move_problems(where, m)
        else:
            problems += _rolled_move_problems(pack, where, m)
    return problems


def _choose_list_problems(pack: Pack) -> list[str]:
    """Choose lists with an option id twice, or asking for more picks than they offer."""
    problems: list[str] = []
    for i, m in enumerate(pack.moves.values()):
        for key, out in outcomes_of(m):
            if not out.choose:
                continue
            where = f"{_MOVES}: moves[{i}] ({m.id}).{key}.choose"
            ids = [o.id for o in out.choose.options]
            if len(set(ids)) != len(ids):
                problems.append(f"{where}: duplicate ids")
            if out.choose.count > len(ids) and not out.choose.repeat:
                problems.append(f"{where}: count {out.choose.count} but only {len(ids)} options")
    return problems


# ------------------------------------------------------------------ the effects


def _effect_reference(pack: Pack, where: str, eff: Any) -> list[str]:
    """What one effect names that the pack does not have (a condition, stat, track or move),
    or an 'ask' in a move with no questions."""
    stats, conds, tracks = set(pack.stats), set(pack.conditions), set(pack.tracks)
    if isinstance(eff, s.MarkCondition | s.ClearCondition) and eff.condition:
        if eff.condition not in conds:
            return [f"unknown condition {eff.condition!r} (expected one of {sorted(conds)})"]
    elif isinstance(eff, s.ShiftLabels):
        return [f"unknown stat {stat_id!r} (expected one of {sorted(stats)})"
                for stat_id in (eff.up, eff.down) if stat_id and stat_id not in stats]
    elif isinstance(eff, s.ShiftLabel | s.LockLabel):
        if eff.stat and eff.stat not in stats:
            return [f"unknown stat {eff.stat!r} (expected one of {sorted(stats)})"]
    elif isinstance(eff, s.TrackDelta):
        if eff.track not in tracks:
            return [f"unknown track {eff.track!r} (expected one of {sorted(tracks)})"]
    elif isinstance(eff, s.TriggerMove):
        if eff.move not in pack.moves:
            return [f"trigger_move names unknown move {eff.move!r}"
                    f" (expected one of {sorted(pack.moves)})"]
    elif isinstance(eff, s.Bonus):
        return [f"{eff.type} names unknown move {mid!r} (expected one of {sorted(pack.moves)})"
                for mid in eff.moves if mid not in pack.moves]
    elif isinstance(eff, s.Ask):
        mid = where.split("(")[1].split(")")[0] if "(" in where else ""
        if mid and mid in pack.moves and not pack.moves[mid].questions:
            return ["'ask' needs the move to list questions"]
    return []


def _effect_reference_problems(pack: Pack) -> list[str]:
    """Every effect in the pack, checked for what it names."""
    return [f"{file}: {where}: {p}" for file, where, eff in effect_sites(pack)
            for p in _effect_reference(pack, where, eff)]


_CHECKS: tuple[Callable[[Pack], list[str]], ...] = (
    _duplicate_ids,
    _band_set_problems,
    _system_dice_problems,
    _stat_range_problems,
    _penalised_move_problems,
    _archetype_problems,
    _end_move_problems,
    _stance_role_problems,
    _move_problems,
    _choose_list_problems,
    _effect_reference_problems,
    play_checks,
)
"""``cross_check``'s checks, in the order their problems are reported."""


def cross_check(pack: Pack) -> list[str]:
    """Every problem a schema cannot see: dangling ids, band coverage, bad dice, stat lines."""
    return [p for check in _CHECKS for p in check(pack)]
