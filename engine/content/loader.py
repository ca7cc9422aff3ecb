"""Load, validate and find content packs.

``load_pack(path)`` reads a system folder, validates every file against the typed models and
checks what a schema cannot: every id reference resolves and every band set covers all totals
once. Errors name the file, the key path and line, and what was expected.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, TypeAdapter, ValidationError

from engine.content import schema as s
from engine.dice import DiceSpec
from engine.errors import ContentError

try:
    _Loader: Any = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - PyYAML built without libyaml
    _Loader = yaml.SafeLoader

SPECIAL_STATS = {"none", "conditions_marked", "choice"}
EFFECT_ADAPTER: TypeAdapter[Any] = TypeAdapter(s.Effect)


@dataclass
class Pack:
    """A validated game system: its definition, moves, GM moves and tables."""

    path: Path
    system: s.System
    moves: dict[str, s.Move]
    gm_moves: list[s.GMMoveDef] = field(default_factory=list)
    tables: dict[str, s.Table] = field(default_factory=dict)
    gm: s.GMPack = field(default_factory=s.GMPack)

    @property
    def id(self) -> str:
        """The system id."""
        return self.system.id

    @cached_property
    def stats(self) -> dict[str, s.StatDef]:
        """Stats by id, in content order."""
        return {x.id: x for x in self.system.stats}

    @cached_property
    def conditions(self) -> dict[str, s.ConditionDef]:
        """Conditions by id, in content order."""
        return {x.id: x for x in self.system.conditions}

    @cached_property
    def tracks(self) -> dict[str, s.TrackDef]:
        """Tracks by id."""
        return {x.id: x for x in self.system.tracks}

    @cached_property
    def archetypes(self) -> dict[str, s.Archetype]:
        """Archetypes by id."""
        return {x.id: x for x in self.system.archetypes}

    @cached_property
    def default_dice(self) -> DiceSpec:
        """The system's usual dice."""
        return DiceSpec.parse(self.system.dice)

    def dice_for(self, move: s.Move) -> DiceSpec:
        """The dice a move rolls."""
        assert move.roll is not None
        return DiceSpec.parse(move.roll.dice) if move.roll.dice else self.default_dice

    def bands_for(self, move: s.Move) -> list[s.Band]:
        """The band set a move resolves against."""
        assert move.roll is not None
        return self.system.bands[move.roll.bands]

    def move(self, move_id: str) -> s.Move:
        """A move by id; ``KeyError`` if unknown."""
        return self.moves[move_id]


# ------------------------------------------------------------------ YAML with locations


def _read_yaml(path: Path) -> Any:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise ContentError(f"{path}: cannot read the file ({e.strerror})") from None
    try:
        return yaml.load(text, Loader=_Loader)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f" line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        problem = getattr(e, "problem", None) or str(e)
        raise ContentError(f"{path}:{where}: not valid YAML: {problem}") from None


def _line_of(path: Path, loc: Iterable[Any]) -> int | None:
    """The 1-based line of the node at ``loc`` in the YAML file, if found."""
    try:
        node = yaml.compose(path.read_text(encoding="utf-8"), Loader=_Loader)
    except (OSError, yaml.YAMLError):
        return None
    line = node.start_mark.line + 1 if node else None
    for key in loc:
        if isinstance(node, yaml.MappingNode):
            nxt = next((v for k, v in node.value if k.value == key), None)
        elif isinstance(node, yaml.SequenceNode) and isinstance(key, int):
            nxt = node.value[key] if 0 <= key < len(node.value) else None
        else:
            nxt = None
        if nxt is None:
            break
        node = nxt
        line = node.start_mark.line + 1
    return line


def _key_path(loc: Iterable[Any]) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out or "(top)"


def _describe(err: Any) -> str:
    msg = err["msg"]
    if err["type"] == "extra_forbidden":
        return "unknown key (check the spelling; see the README's content format)"
    if err["type"] == "missing":
        return "required key is missing"
    if err["type"] == "union_tag_invalid":
        ctx = err.get("ctx", {})
        return f"unknown effect type {ctx.get('tag')!r}; expected one of {ctx.get('expected_tags')}"
    if err["type"] == "union_tag_not_found":
        return "an effect needs a 'type' key"
    return msg


def _clean_loc(loc: tuple[Any, ...]) -> list[Any]:
    # discriminated unions add the tag name to the location: drop it for the YAML lookup
    effect_tags = {
        "mark_condition", "clear_condition", "shift_labels", "shift_label", "take_influence",
        "give_influence", "cancel_influence", "track", "hold", "forward", "ongoing", "ask",
        "gm_move", "trigger_move", "taken_out", "lock_label", "flag", "advance", "clock", "note",
        "one_of", "rule",
    }
    return [p for p in loc if not (isinstance(p, str) and p in effect_tags)]


def _validate(path: Path, model: type[BaseModel], data: Any) -> Any:
    try:
        return model.model_validate(data)
    except ValidationError as e:
        problems = []
        for err in e.errors():
            loc = _clean_loc(tuple(err["loc"]))
            line = _line_of(path, loc)
            where = f"{path}:{line}" if line else str(path)
            problems.append(f"{where}: {_key_path(loc)}: {_describe(err)}")
        raise ContentError(
            f"{path}: {len(problems)} problem(s)\n  " + "\n  ".join(problems), problems
        ) from None


# ------------------------------------------------------------------ cross-reference checks


def _walk_effects(effects: Iterable[Any]) -> Iterator[Any]:
    for eff in effects:
        yield eff
        if isinstance(eff, s.OneOf):
            for opt in eff.options:
                yield from _walk_effects(opt.effects)


def _outcomes(move: s.Move) -> Iterator[tuple[str, s.Outcome]]:
    for band, out in move.outcomes.items():
        yield f"outcomes.{band}", out
    for band, out in move.vs_teammate.items():
        yield f"vs_teammate.{band}", out
    if move.result:
        yield "result", move.result


def _effect_sites(pack: Pack) -> Iterator[tuple[str, str, Any]]:
    """(file, key path, effect) for every effect in the pack."""
    for i, m in enumerate(pack.moves.values()):
        base = f"moves[{i}] ({m.id})"
        for eff in _walk_effects(m.before):
            yield "moves.yaml", f"{base}.before", eff
        for key, out in _outcomes(m):
            for eff in _walk_effects(out.effects):
                yield "moves.yaml", f"{base}.{key}.effects", eff
            if out.choose:
                for opt in out.choose.options:
                    for eff in _walk_effects(opt.effects):
                        yield "moves.yaml", f"{base}.{key}.choose.{opt.id}", eff
    for t in pack.system.tracks:
        for eff in _walk_effects(t.on_full):
            yield "system.yaml", f"tracks.{t.id}.on_full", eff
    for eff in _walk_effects(pack.system.session.start_effects):
        yield "system.yaml", "session.start_effects", eff
    for adv in pack.system.advancements:
        for eff in _walk_effects(adv.effects):
            yield "system.yaml", f"advancements.{adv.id}", eff
    for g in pack.gm_moves:
        for eff in _walk_effects(g.effects):
            yield "gm.yaml", f"moves.{g.id}.effects", eff
    for threat in pack.gm.threats:
        for eff in _walk_effects(threat.doom_effects):
            yield "gm.yaml", f"threats.{threat.id}.doom_effects", eff


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


def cross_check(pack: Pack) -> list[str]:
    """Every problem a schema cannot see: dangling ids, band coverage, bad dice, stat lines."""
    sysf, movf = "system.yaml", "moves.yaml"
    problems: list[str] = []
    sys_ = pack.system
    stats, conds, tracks = set(pack.stats), set(pack.conditions), set(pack.tracks)

    def dup(kind: str, ids: list[str], file: str) -> None:
        seen: set[str] = set()
        for i in ids:
            if i in seen:
                problems.append(f"{file}: {kind} id {i!r} is used twice")
            seen.add(i)

    dup("stat", [x.id for x in sys_.stats], sysf)
    dup("condition", [x.id for x in sys_.conditions], sysf)
    dup("track", [x.id for x in sys_.tracks], sysf)
    dup("archetype", [x.id for x in sys_.archetypes], sysf)
    dup("move", [m.id for m in pack.moves.values()], movf)
    dup("GM move", [g.id for g in pack.gm_moves], "gm.yaml")
    dup("threat", [t.id for t in pack.gm.threats], "gm.yaml")
    dup("oracle level", [o.id for o in pack.gm.oracle], "gm.yaml")
    from engine.gm.moves import PRECONDITIONS

    for g in pack.gm_moves:
        for w in g.when:
            if w not in PRECONDITIONS:
                problems.append(f"gm.yaml: moves.{g.id}.when: unknown precondition {w!r}"
                                f" (known: {', '.join(sorted(PRECONDITIONS))})")

    for name, bands in sys_.bands.items():
        problems += [f"{sysf}: {p}" for p in check_bands(name, bands)]
    try:
        DiceSpec.parse(sys_.dice)
    except ValueError as e:
        problems.append(f"{sysf}: dice: {e}")
    for st in sys_.stats:
        if st.min > st.max:
            problems.append(f"{sysf}: stats.{st.id}: min {st.min} is above max {st.max}")
    for c in sys_.conditions:
        for mid in c.penalises:
            if mid not in pack.moves:
                problems.append(
                    f"{sysf}: conditions.{c.id}.penalises: unknown move {mid!r}"
                    f" (known: {', '.join(sorted(pack.moves))})"
                )
    for a in sys_.archetypes:
        missing = stats - set(a.stats)
        extra = set(a.stats) - stats
        if missing:
            problems.append(f"{sysf}: archetypes.{a.id}.stats: missing {sorted(missing)}")
        if extra:
            problems.append(f"{sysf}: archetypes.{a.id}.stats: unknown stats {sorted(extra)}")
        for k, v in a.stats.items():
            if k in pack.stats and not pack.stats[k].min <= v <= pack.stats[k].max:
                problems.append(
                    f"{sysf}: archetypes.{a.id}.stats.{k}: {v} is outside"
                    f" {pack.stats[k].min}..{pack.stats[k].max}"
                )
        for npc in a.suggested_npcs:
            if npc.role not in sys_.roles:
                problems.append(
                    f"{sysf}: archetypes.{a.id}.suggested_npcs: unknown role {npc.role!r}"
                )
    if sys_.session.end_move and sys_.session.end_move not in pack.moves:
        problems.append(f"{sysf}: session.end_move: unknown move {sys_.session.end_move!r}")

    for i, m in enumerate(pack.moves.values()):
        where = f"{movf}: moves[{i}] ({m.id})"
        for role in m.target_roles:
            if role not in sys_.roles:
                problems.append(f"{where}.target_roles: unknown role {role!r}")
        if m.roll is None:
            if m.outcomes:
                problems.append(f"{where}: has outcomes but no roll (use 'result' for no roll)")
            if m.result is None:
                problems.append(f"{where}: a move with no roll needs a 'result'")
            continue
        r = m.roll
        sources = stats | SPECIAL_STATS | set(sys_.roll_sources) | {
            f"param:{p.id}" for p in r.params}
        if r.stat not in sources:
            problems.append(
                f"{where}.roll.stat: unknown stat {r.stat!r}"
                f" (expected one of {sorted(sources)})"
            )
        if r.stat == "choice" and not r.choices:
            problems.append(f"{where}.roll.choices: stat 'choice' needs a list of stats")
        for choice in r.choices:
            if choice not in sources - {"choice"}:
                problems.append(f"{where}.roll.choices: unknown stat {choice!r}")
        for prm in r.params:
            if not prm.min <= prm.default <= prm.max:
                problems.append(f"{where}.roll.params.{prm.id}: default {prm.default} is"
                                f" outside {prm.min}..{prm.max}")
        if r.dice:
            try:
                DiceSpec.parse(r.dice)
            except ValueError as e:
                problems.append(f"{where}.roll.dice: {e}")
        if r.bands not in sys_.bands:
            problems.append(
                f"{where}.roll.bands: unknown band set {r.bands!r}"
                f" (expected one of {sorted(sys_.bands)})"
            )
            continue
        band_ids = {b.id for b in sys_.bands[r.bands]}
        for label, table in (("outcomes", m.outcomes), ("vs_teammate", m.vs_teammate)):
            if label == "vs_teammate" and not table:
                continue
            for b in sorted(band_ids - set(table)):
                problems.append(f"{where}.{label}: no outcome for band {b!r}")
            for b in sorted(set(table) - band_ids):
                problems.append(f"{where}.{label}.{b}: not a band of set {r.bands!r}")
        if m.result is not None:
            problems.append(f"{where}: a rolled move uses 'outcomes', not 'result'")
    for i, m in enumerate(pack.moves.values()):
        for key, out in _outcomes(m):
            if out.choose:
                ids = [o.id for o in out.choose.options]
                if len(set(ids)) != len(ids):
                    problems.append(f"{movf}: moves[{i}] ({m.id}).{key}.choose: duplicate ids")
                if out.choose.count > len(ids) and not out.choose.repeat:
                    problems.append(
                        f"{movf}: moves[{i}] ({m.id}).{key}.choose: count {out.choose.count}"
                        f" but only {len(ids)} options"
                    )

    for file, where, eff in _effect_sites(pack):
        at = f"{file}: {where}"
        if isinstance(eff, s.MarkCondition | s.ClearCondition) and eff.condition:
            if eff.condition not in conds:
                problems.append(f"{at}: unknown condition {eff.condition!r}"
                                f" (expected one of {sorted(conds)})")
        elif isinstance(eff, s.ShiftLabels):
            for stat_id in (eff.up, eff.down):
                if stat_id and stat_id not in stats:
                    problems.append(f"{at}: unknown stat {stat_id!r}"
                                    f" (expected one of {sorted(stats)})")
        elif isinstance(eff, s.ShiftLabel | s.LockLabel):
            if eff.stat and eff.stat not in stats:
                problems.append(f"{at}: unknown stat {eff.stat!r}"
                                f" (expected one of {sorted(stats)})")
        elif isinstance(eff, s.TrackDelta):
            if eff.track not in tracks:
                problems.append(
                    f"{at}: unknown track {eff.track!r} (expected one of {sorted(tracks)})"
                )
        elif isinstance(eff, s.TriggerMove):
            if eff.move not in pack.moves:
                problems.append(f"{at}: trigger_move names unknown move {eff.move!r}"
                                f" (expected one of {sorted(pack.moves)})")
        elif isinstance(eff, s.Bonus):
            for mid in eff.moves:
                if mid not in pack.moves:
                    problems.append(f"{at}: {eff.type} names unknown move {mid!r}"
                                    f" (expected one of {sorted(pack.moves)})")
        elif isinstance(eff, s.Ask):
            mid = where.split("(")[1].split(")")[0] if "(" in where else ""
            if mid and mid in pack.moves and not pack.moves[mid].questions:
                problems.append(f"{at}: 'ask' needs the move to list questions")
    return problems


# ------------------------------------------------------------------ loading and discovery

_FILES: dict[str, type[BaseModel]] = {
    "system.yaml": s.System,
    "moves.yaml": s.MovesPack,
    "gm.yaml": s.GMPack,
    "tables.yaml": s.TablesPack,
}


def load_pack(path: Path | str, *, check: bool = True) -> Pack:
    """Load and validate the system folder at ``path``; raise ``ContentError`` if broken."""
    path = Path(path)
    if not (path / "system.yaml").is_file():
        raise ContentError(f"{path}: not a content pack (no system.yaml in it)")
    problems: list[str] = []
    parsed: dict[str, Any] = {}
    for name, model in _FILES.items():
        f = path / name
        if not f.exists():
            if name in ("system.yaml", "moves.yaml"):
                problems.append(f"{f}: required file is missing")
            continue
        try:
            data = _read_yaml(f)
            if data is None:
                raise ContentError(f"{f}: the file is empty")
            parsed[name] = _validate(f, model, data)
        except ContentError as e:
            problems += e.problems
    if problems:
        raise ContentError(f"{path}: the content pack is broken\n  " + "\n  ".join(problems),
                           problems)
    gm = parsed.get("gm.yaml")
    tables = parsed.get("tables.yaml")
    pack = Pack(
        path=path,
        system=parsed["system.yaml"],
        moves={m.id: m for m in parsed["moves.yaml"].moves},
        gm_moves=list(gm.moves) if gm else [],
        tables={t.id: t for t in tables.tables} if tables else {},
        gm=gm or s.GMPack(),
    )
    if check:
        problems = [f"{path}/{p}" for p in cross_check(pack)]
        # the dicts above keep one entry per id: report the duplicates they swallowed
        for file, kind, ids in (
                ("moves.yaml", "move", [m.id for m in parsed["moves.yaml"].moves]),
                ("tables.yaml", "table", [t.id for t in tables.tables] if tables else [])):
            problems += [f"{path}/{file}: {kind} id {i!r} is used twice"
                         for i in sorted({i for i in ids if ids.count(i) > 1})]
        if problems:
            raise ContentError(
                f"{path}: the content pack is broken\n  " + "\n  ".join(problems), problems
            )
    return pack


def bundled_content_dir() -> Path:
    """The content shipped with Sidekick (a wheel's copy, else the source checkout's)."""
    here = Path(__file__).resolve().parent.parent
    wheel = here / "_bundled_content"
    if wheel.is_dir():
        return wheel
    return here.parent / "content"


def content_dirs(extra: Iterable[Path | str] = ()) -> list[Path]:
    """Where packs are looked for: the bundled content, $SIDEKICK_CONTENT, then ``extra``."""
    dirs = [bundled_content_dir()]
    env = os.environ.get("SIDEKICK_CONTENT", "")
    dirs += [Path(p) for p in env.split(os.pathsep) if p]
    dirs += [Path(p) for p in extra]
    return dirs


def discover(extra: Iterable[Path | str] = ()) -> dict[str, Path]:
    """System id (folder name) -> pack folder; later folders override earlier ones."""
    found: dict[str, Path] = {}
    for d in content_dirs(extra):
        if not d.is_dir():
            continue
        if (d / "system.yaml").is_file():
            found[d.name] = d
            continue
        for sub in sorted(d.iterdir()):
            if (sub / "system.yaml").is_file():
                found[sub.name] = sub
    return found


_CACHE: dict[Path, Pack] = {}


def get_pack(system_id: str, extra: Iterable[Path | str] = ()) -> Pack:
    """Load (once per process) the pack for ``system_id``; ``ContentError`` if unknown."""
    packs = discover(extra)
    if system_id not in packs:
        raise ContentError(
            f"unknown game system {system_id!r}; available: {', '.join(sorted(packs)) or 'none'}"
        )
    path = packs[system_id].resolve()
    if path not in _CACHE:
        _CACHE[path] = load_pack(path)
    return _CACHE[path]


_PARSED: dict[int, tuple[dict[str, Any], Any]] = {}


def parse_effect(data: dict[str, Any]) -> Any:
    """An effect model from its dict form (as stored in a saved flow); the shared dicts made
    by ``effect_item`` are parsed once."""
    hit = _PARSED.get(id(data))
    if hit is not None and hit[0] is data:
        return hit[1]
    model = EFFECT_ADAPTER.validate_python(data)
    if len(_PARSED) < 10_000:
        _PARSED[id(data)] = (data, model)
    return model
