"""Load, validate and find content packs.

``load_pack(path)`` reads a system folder, validates every file against the typed models and
checks what a schema cannot: every id reference resolves and every band set covers all totals
once. Errors name the file, the key path and line, and what was expected.
"""

from __future__ import annotations

import itertools
import os
import string
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, TypeVar, cast

import yaml
from pydantic import BaseModel, TypeAdapter, ValidationError

from engine.content import schema as s
from engine.content.problems import describe, key_path
from engine.dice import DiceSpec
from engine.errors import ContentError

try:
    _Loader: Any = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - PyYAML built without libyaml
    _Loader = yaml.SafeLoader

SPECIAL_STATS = {"none", "conditions_marked", "choice"}
EFFECT_ADAPTER: TypeAdapter[Any] = TypeAdapter(s.Effect)


T = TypeVar("T")

_BY_MTIME: dict[tuple[Path, Callable[[Path], Any]], tuple[float, Any]] = {}


def read_by_mtime(path: Path, load: Callable[[Path], T]) -> T | None:
    """``load(path)``, done once per version of the file (its modification time) and kept;
    None when there is no such file. A pack's extra files (stat blocks, action words) are read
    this way, so play never reads them twice."""
    try:
        mtime = path.stat().st_mtime
    except OSError:
        return None
    key = (path, load)
    cached = _BY_MTIME.get(key)
    if cached is not None and cached[0] == mtime:
        return cast(T, cached[1])
    value = load(path)
    _BY_MTIME[key] = (mtime, value)
    return value


def read_yaml(path: Path) -> Any:
    """A pack file's data, read within Sidekick's limits (size, nesting, aliases) as every
    content file is; ``ContentError`` ``<file>: cannot read: <why>`` otherwise."""
    path = Path(path)
    try:
        return _read_yaml(path)[0]
    except ContentError as e:
        why = e.message.removeprefix(f"{path}:").lstrip(" :")
        raise ContentError(f"{path}: cannot read: {why}") from None


@dataclass
class Pack:
    """A validated game system: its definition, moves, GM moves and tables."""

    path: Path
    system: s.System
    moves: dict[str, s.Move]
    gm_moves: list[s.GMMoveDef] = field(default_factory=list)
    tables: dict[str, s.Table] = field(default_factory=dict)
    gm: s.GMPack = field(default_factory=s.GMPack)
    narration: s.NarrationPack = field(default_factory=s.NarrationPack)
    examples: dict[str, list[str]] = field(default_factory=dict)
    """``examples.yaml``: move id (or ``none``) -> example fictions for move detection."""

    def examples_of(self, move_id: str) -> list[str]:
        """A move's example fictions: its own ``examples`` and those in ``examples.yaml``."""
        move = self.moves.get(move_id)
        return [*(move.examples if move else ()), *self.examples.get(move_id, ())]

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

MAX_YAML_BYTES = 8_000_000
"""The largest YAML (or JSON) file Sidekick reads: content files and scripts are far smaller."""
MAX_YAML_NODES = 200_000
"""The most nodes a document may have once its aliases are expanded (an alias bomb is refused:
the bundled packs have under 5,000)."""


MAX_YAML_DEPTH = 64
"""The deepest nesting of lists and mappings a document may have."""


class YamlTooLarge(ValueError):
    """A YAML document expands beyond ``MAX_YAML_NODES`` or its aliases loop."""


def _expanded_size(root: yaml.Node, limit: int) -> int:
    """Nodes in ``root`` with every alias expanded; ``YamlTooLarge`` past ``limit`` or when an
    alias contains itself. Each distinct node is sized once, so this is linear in the file."""
    sizes: dict[int, int] = {}
    on_path: set[int] = set()
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    while stack:
        node, done = stack.pop()
        key = id(node)
        kids: list[yaml.Node] = []
        if isinstance(node, yaml.SequenceNode):
            kids = list(node.value)
        elif isinstance(node, yaml.MappingNode):
            kids = [x for pair in node.value for x in pair]
        if done:
            on_path.discard(key)
            total = 1 + sum(sizes[id(k)] for k in kids)
            if total > limit:
                raise YamlTooLarge(f"the document expands to more than {limit:,} values"
                                   " (aliases repeat too much)")
            sizes[key] = total
            continue
        if key in sizes:
            continue
        if key in on_path:
            line = node.start_mark.line + 1
            raise YamlTooLarge(f"line {line}: an alias contains itself")
        on_path.add(key)
        stack.append((node, True))
        stack += [(k, False) for k in kids if id(k) not in sizes]
    return sizes[id(root)]


def _check_depth(text: str, loader: Any) -> None:
    """``YamlTooLarge`` if ``text`` nests deeper than ``MAX_YAML_DEPTH`` (read from the flat
    event stream, so nothing recurses); ``yaml.YAMLError`` if it is not YAML."""
    depth = 0
    for event in yaml.parse(text, Loader=loader):
        if isinstance(event, yaml.CollectionStartEvent):
            depth += 1
            if depth > MAX_YAML_DEPTH:
                line = event.start_mark.line + 1 if event.start_mark else 0
                raise YamlTooLarge(f"line {line}: nested more than {MAX_YAML_DEPTH} levels deep")
        elif isinstance(event, yaml.CollectionEndEvent):
            depth -= 1


def parse_yaml(text: str, *, limit: int = MAX_YAML_NODES) -> tuple[Any, yaml.Node | None]:
    """Parse YAML text safely: the data and its node tree (for line numbers).

    Raises ``yaml.YAMLError`` for bad YAML and ``YamlTooLarge`` for a document too big, too
    deep or whose aliases expand past ``limit`` values (a "billion laughs" file).
    """
    if len(text) > MAX_YAML_BYTES:
        raise YamlTooLarge(f"the file is larger than {MAX_YAML_BYTES:,} bytes")
    # libyaml's composer recurses in C: measure the nesting from the flat event stream first
    try:
        _check_depth(text, _Loader)
    except yaml.YAMLError:
        if _Loader is yaml.SafeLoader:
            raise
        # libyaml may stop a deep document itself (it scans up to a thousand levels ahead, and
        # recent releases set a nesting limit of their own): the pure-Python scanner has no
        # such limit and looks at most 1,024 characters ahead, so it reaches Sidekick's limit
        # first, or stops at the document's real syntax error.
        _check_depth(text, yaml.SafeLoader)
    try:
        loader = _Loader(text)
        try:
            node = loader.get_single_node()
            if node is None:
                return None, None
            _expanded_size(node, limit)
            return loader.construct_document(node), node
        finally:
            loader.dispose()
    except RecursionError:
        raise YamlTooLarge("the document is nested too deeply") from None


def _read_yaml(path: Path) -> tuple[Any, yaml.Node | None]:
    """The data and node tree of a content file; ``ContentError`` saying what is wrong."""
    if not path.is_file():
        raise ContentError(f"{path}: not a regular file")
    try:
        if path.stat().st_size > MAX_YAML_BYTES:
            raise ContentError(f"{path}: the file is larger than {MAX_YAML_BYTES:,} bytes")
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise ContentError(f"{path}: cannot read the file ({e.strerror})") from None
    except UnicodeDecodeError as e:
        raise ContentError(f"{path}: not UTF-8 text (byte {e.start})") from None
    try:
        return parse_yaml(text)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f" line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        problem = getattr(e, "problem", None) or str(e)
        raise ContentError(f"{path}:{where}: not valid YAML: {problem}") from None
    except YamlTooLarge as e:
        raise ContentError(f"{path}: {e}") from None


def _line_of(node: yaml.Node | None, loc: Iterable[Any]) -> int | None:
    """The 1-based line of the node at ``loc`` under ``node`` (a parsed file), if found."""
    if node is None:
        return None
    line = node.start_mark.line + 1
    for key in loc:
        nxt: yaml.Node | None = None
        if isinstance(node, yaml.MappingNode):
            nxt = next((v for k, v in node.value if k.value == key), None)
        elif isinstance(node, yaml.SequenceNode) and isinstance(key, int):
            nxt = node.value[key] if 0 <= key < len(node.value) else None
        if nxt is None:
            break
        node = nxt
        line = node.start_mark.line + 1
    return line


def _node_at(node: yaml.Node | None, loc: Iterable[Any]) -> yaml.Node | None:
    """The node at ``loc`` under ``node``, if the whole path is found."""
    for key in loc:
        if isinstance(node, yaml.MappingNode):
            node = next((v for k, v in node.value if k.value == key), None)
        elif isinstance(node, yaml.SequenceNode) and isinstance(key, int):
            node = node.value[key] if 0 <= key < len(node.value) else None
        else:
            return None
    return node


def _describe(err: Any) -> str:
    if err["type"] == "extra_forbidden":
        return "unknown key (check the spelling; see the README's content format)"
    if err["type"] == "union_tag_invalid":
        ctx = err.get("ctx", {})
        return f"unknown effect type {ctx.get('tag')!r}; expected one of {ctx.get('expected_tags')}"
    if err["type"] == "union_tag_not_found":
        return "an effect needs a 'type' key"
    return describe(err)


def _clean_loc(loc: tuple[Any, ...]) -> list[Any]:
    # discriminated unions add the tag name to the location: drop it for the YAML lookup
    effect_tags = {
        "mark_condition", "clear_condition", "shift_labels", "shift_label", "take_influence",
        "give_influence", "cancel_influence", "track", "hold", "forward", "ongoing", "ask",
        "gm_move", "trigger_move", "taken_out", "lock_label", "flag", "advance", "clock", "note",
        "thread", "fact", "whereabouts",
        "one_of", "rule", "stance",
    }
    return [p for p in loc if not (isinstance(p, str) and p in effect_tags)]


MAX_PROBLEMS = 100
"""Problems reported per file; past this a count of the rest is given."""


def _validate(path: Path, model: type[BaseModel], data: Any, node: yaml.Node | None = None
              ) -> Any:
    """``data`` as ``model``; ``ContentError`` listing each problem with its line (looked up in
    the node tree parsed once with the data)."""
    try:
        return model.model_validate(data)
    except ValidationError as e:
        problems = []
        errors = e.errors()
        for err in errors[:MAX_PROBLEMS]:
            loc = _clean_loc(tuple(err["loc"]))
            line = _line_of(node, loc)
            where = f"{path}:{line}" if line else str(path)
            problems.append(f"{where}: {key_path(loc)}: {_describe(err)}")
        if len(errors) > MAX_PROBLEMS:
            problems.append(f"{path}: ... and {len(errors) - MAX_PROBLEMS} more problem(s)")
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


def effect_sites(pack: Pack) -> Iterator[tuple[str, str, Any]]:
    """(file, key path, effect) for every effect in the pack, one_of branches included."""
    return _effect_sites(pack)


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


Loc = tuple[str | int, ...]
"""A key path inside a file, as keys and list indexes (``("moves", 3, "before", 0)``)."""


def _effects_at(loc: Loc, effects: Iterable[Any]) -> Iterator[tuple[Loc, Any]]:
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
        for key, out in _outcomes(m):
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


def yaml_node(path: Path) -> yaml.Node | None:
    """The node tree of a content file, for ``line_of``; None if it cannot be read."""
    try:
        return _read_yaml(path)[1]
    except ContentError:
        return None


def line_of(node: yaml.Node | None, loc: Iterable[Any]) -> int | None:
    """The 1-based line of the value at ``loc`` in a parsed file (the nearest one found)."""
    return _line_of(node, loc)


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


# ------------------------------------------------------------------ what play would trip on

GM_NAMES = frozenset({"hero", "location", "npc", "threat", "adult", "villain", "teammate",
                      "bystander", "thread"})
"""Placeholders a GM move's narration may use (besides the system's roles)."""
THREAT_NAMES = frozenset({"hero", "villain"})
"""Placeholders a threat's steps and doom may use."""
OPENING_NAMES = GM_NAMES
"""Placeholders a ``scene_openings`` table entry may use."""
_FORMATTER = string.Formatter()


def template_problems(template: str, known: Iterable[str]) -> list[str]:
    """Why ``template`` cannot be filled safely: stray braces, positional or indexed fields,
    conversions, format specs, or names not among ``known`` (``{{`` and ``}}`` are braces)."""
    names = sorted(set(known))
    try:
        parts = list(_FORMATTER.parse(template))
    except ValueError as e:
        return [f"{e} (write {{{{ and }}}} for a literal brace)"]
    out: list[str] = []
    for _lit, name, spec, conv in parts:
        if name is None:
            continue
        shown = "{" + name + (f"!{conv}" if conv else "") + (f":{spec}" if spec else "") + "}"
        if not name or name.isdigit():
            out.append(f"{shown}: positional fields are not supported; use a name"
                       f" ({', '.join(names)})")
        elif not name.isidentifier():
            out.append(f"{shown}: only plain names, no indexes or attributes"
                       f" ({', '.join(names)})")
        elif name not in known:
            out.append(f"{shown}: unknown placeholder (known: {', '.join(names)})")
        elif conv or spec:
            out.append(f"{shown}: no conversions or format specs, just {{{name}}}")
    return out


def _template_sites(pack: Pack) -> Iterator[tuple[str, str, str, frozenset[str]]]:
    """(file, key path, template, known names) for every text the GM fills in."""
    gm_names = GM_NAMES | set(pack.system.roles)
    for g in pack.gm_moves:
        for i, text in enumerate(g.narration):
            yield "gm.yaml", f"moves.{g.id}.narration[{i}]", text, gm_names
        for i, eff in enumerate(g.effects):  # the ledger's words (thread, fact, whereabouts)
            if isinstance(eff, s.OpenThread | s.RecordFact | s.Whereabouts):
                yield "gm.yaml", f"moves.{g.id}.effects[{i}].text", eff.text, gm_names
    for th in pack.gm.threats:
        for i, text in enumerate(th.steps):
            yield "gm.yaml", f"threats.{th.id}.steps[{i}]", text, THREAT_NAMES
        yield "gm.yaml", f"threats.{th.id}.doom", th.doom, THREAT_NAMES
    openings = pack.tables.get("scene_openings")
    if openings is not None:
        for i, e in enumerate(openings.entries):
            yield "tables.yaml", f"scene_openings.entries[{i}].text", e.text, OPENING_NAMES


NARRATION_FILE = "narration.yaml"
THREAT_WORDS_NAMES = {"named": frozenset({"villain"}), "plain": frozenset()}
"""Placeholders a threat's words in ``narration.yaml`` may use."""


def narration_problems(pack: Pack) -> list[str]:
    """Problems in ``narration.yaml``: GM move and threat ids the pack does not have, and
    templates the GM cannot fill; each as ``narration.yaml:LINE: key.path: message``."""
    node: list[yaml.Node | None] = []

    def at(loc: Loc, message: str) -> str:
        if not node:  # parsed again only when there is something to report
            node.append(yaml_node(pack.path / NARRATION_FILE))
        line = _line_of(node[0], loc)
        parent = _node_at(node[0], loc[:-1])
        if isinstance(parent, yaml.MappingNode):  # a key: its own line, not its value's
            line = next((k.start_mark.line + 1 for k, _v in parent.value
                         if k.value == loc[-1]), line)
        return f"{NARRATION_FILE}{f':{line}' if line else ''}: {key_path(loc)}: {message}"

    problems: list[str] = []
    gm_ids = [g.id for g in pack.gm_moves]
    gm_names = GM_NAMES | set(pack.system.roles)
    for mid, parts in pack.narration.moves.items():
        if mid not in gm_ids:
            problems.append(at(("moves", mid), f"unknown GM move {mid!r} (gm.yaml has:"
                                               f" {', '.join(sorted(gm_ids)) or 'none'})"))
        for slot in ("open", "act", "stake"):
            for i, text in enumerate(getattr(parts, slot)):
                problems += [at(("moves", mid, slot, i), p)
                             for p in template_problems(text, gm_names)]
    threat_ids = [t.id for t in pack.gm.threats]
    for tid, words in pack.narration.threats.items():
        if tid not in threat_ids:
            problems.append(at(("threats", tid), f"unknown threat {tid!r} (gm.yaml has:"
                                                 f" {', '.join(sorted(threat_ids)) or 'none'})"))
        for slot, known in THREAT_WORDS_NAMES.items():
            problems += [at(("threats", tid, slot), p)
                         for p in template_problems(getattr(words, slot), known)]
    return problems


EXAMPLES_FILE = "examples.yaml"


def examples_problems(pack: Pack) -> list[str]:
    """Keys of ``examples.yaml`` that name no move of the pack (``none`` is plain fiction)."""
    import difflib

    problems: list[str] = []
    node: yaml.Node | None = None
    for key in pack.examples:
        if key == "none" or key in pack.moves:
            continue
        node = node or yaml_node(pack.path / EXAMPLES_FILE)
        line = None
        if isinstance(node, yaml.MappingNode):
            line = next((k.start_mark.line + 1 for k, _v in node.value if k.value == key), None)
        close = difflib.get_close_matches(key, list(pack.moves), 1)
        hint = f"; did you mean {close[0]!r}?" if close else " (use a move id, or none)"
        problems.append(f"{EXAMPLES_FILE}{f':{line}' if line else ''}: {key}: unknown move"
                        f" {key!r}{hint}")
    return problems


def _triggers_of(move: s.Move) -> set[str]:
    """The moves ``move`` can trigger with ``trigger_move`` effects, anywhere in it."""
    effects: list[Any] = list(_walk_effects(move.before))
    for _key, out in _outcomes(move):
        effects += _walk_effects(out.effects)
        if out.choose:
            for o in out.choose.options:
                effects += _walk_effects(o.effects)
    return {e.move for e in effects if isinstance(e, s.TriggerMove)}


def trigger_cycles(pack: Pack) -> list[list[str]]:
    """Every loop of moves triggering each other (``[a, b, a]``), each reported once."""
    graph = {mid: sorted(_triggers_of(m) & set(pack.moves)) for mid, m in pack.moves.items()}
    cycles: list[list[str]] = []
    seen_loops: set[frozenset[str]] = set()
    state: dict[str, int] = {}  # 1 on the current path, 2 finished
    for root in graph:
        if state.get(root):
            continue
        path: list[str] = []
        stack: list[tuple[str, int]] = [(root, 0)]
        while stack:
            node, i = stack.pop()
            if i == 0:
                state[node] = 1
                path.append(node)
            if i < len(graph[node]):
                stack.append((node, i + 1))
                nxt = graph[node][i]
                if state.get(nxt) == 1:
                    loop = [*path[path.index(nxt):], nxt]
                    if frozenset(loop) not in seen_loops:
                        seen_loops.add(frozenset(loop))
                        cycles.append(loop)
                elif not state.get(nxt):
                    stack.append((nxt, 0))
            else:
                state[node] = 2
                path.pop()
    return cycles


def play_checks(pack: Pack) -> list[str]:
    """What validates as data but would crash or hang in play: trigger loops, templates the GM
    cannot fill, dice pools too large for exact odds. (What the rulesets and the GM define is
    checked above them, in ``engine.checks``.)"""
    from engine.odds import MAX_COMBINATIONS, combinations

    problems: list[str] = []
    for loop in trigger_cycles(pack):
        what = "triggers itself" if len(loop) == 2 else "and others trigger each other in a loop"
        problems.append(f"moves.yaml: moves ({loop[0]}): {loop[0]} {what}:"
                        f" {' -> '.join(loop)} (trigger_move effects)")
    for file, where, text, known in _template_sites(pack):
        problems += [f"{file}: {where}: {p}" for p in template_problems(text, known)]
    problems += narration_problems(pack)
    problems += examples_problems(pack)

    def dice(where: str, notation: str, advantage: bool) -> None:
        try:
            spec = DiceSpec.parse(notation)
        except ValueError:
            return  # reported by cross_check
        specs = [spec, spec.with_advantage("advantage")] if advantage else [spec]
        for sp in specs:
            if combinations(sp) > MAX_COMBINATIONS:
                extra = " (with advantage)" if sp is not spec else ""
                problems.append(f"{where}: {notation}{extra} has {combinations(sp):,} face"
                                f" combinations; exact odds stop at {MAX_COMBINATIONS:,}")
                return

    clamp = pack.system.modifier_clamp
    if clamp is not None and clamp[0] > clamp[1]:
        problems.append(f"system.yaml: modifier_clamp: low {clamp[0]} is above high {clamp[1]}")
    dice("system.yaml: dice", pack.system.dice, False)
    for i, m in enumerate(pack.moves.values()):
        if m.roll is not None:
            dice(f"moves.yaml: moves[{i}] ({m.id}).roll.dice", m.roll.dice or pack.system.dice,
                 m.roll.advantage != "none")
    problems += _band_choice_problems(pack)
    return problems


def _band_choice_problems(pack: Pack) -> list[str]:
    """``choose_from_band`` rules must name a band of their own move that has a choose list."""
    problems: list[str] = []
    for file, where, eff in _effect_sites(pack):
        if not (isinstance(eff, s.Rule) and eff.name == "choose_from_band"):
            continue
        at = f"{file}: {where}: choose_from_band"
        mid = where.split("(", 1)[1].split(")", 1)[0] if file == "moves.yaml" else ""
        move = pack.moves.get(mid)
        if move is None:
            problems.append(f"{at}: only a move's own effects can choose from its bands")
            continue
        band, count = eff.args.get("band"), eff.args.get("count", 1)
        out = move.outcomes.get(band) if isinstance(band, str) else None
        if out is None or out.choose is None:
            with_lists = sorted(b for b, o in move.outcomes.items() if o.choose)
            problems.append(f"{at}: band {band!r} has no choose list in {move.id}"
                            f" (bands with one: {', '.join(with_lists) or 'none'})")
            continue
        if not isinstance(count, int) or isinstance(count, bool) or count < 1:
            problems.append(f"{at}: count must be a whole number from 1, not {count!r}")
        exclude = eff.args.get("exclude")
        if exclude is not None and exclude not in {o.id for o in out.choose.options}:
            problems.append(f"{at}: exclude {exclude!r} is not an option of {band}")
    return problems


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
        rules, bad = sys_.hero, bool(missing or extra)
        for k, v in a.stats.items():
            if k not in pack.stats:
                continue
            sd = pack.stats[k]
            lo = rules.stat_min if rules.stat_min is not None else sd.min
            hi = rules.stat_max if rules.stat_max is not None else sd.max
            if not sd.min <= v <= sd.max:
                problems.append(f"{sysf}: archetypes.{a.id}.stats.{k}: {v} is outside"
                                f" {sd.min}..{sd.max}")
                bad = True
            elif not lo <= v <= hi:  # a hero made from it could not begin
                problems.append(f"{sysf}: archetypes.{a.id}.stats.{k}: {v} is outside"
                                f" {lo}..{hi} (hero.stat_min..stat_max)")
                bad = True
        total = sum(a.stats.values())
        if rules.stat_total is not None and not bad and total != rules.stat_total:
            problems.append(f"{sysf}: archetypes.{a.id}.stats: add up to {total:+d}, but"
                            f" hero.stat_total is {rules.stat_total:+d}")
        for npc in a.suggested_npcs:
            if npc.role not in sys_.roles:
                problems.append(
                    f"{sysf}: archetypes.{a.id}.suggested_npcs: unknown role {npc.role!r}"
                )
    if sys_.session.end_move and sys_.session.end_move not in pack.moves:
        problems.append(f"{sysf}: session.end_move: unknown move {sys_.session.end_move!r}")

    gm_ids = [g.id for g in pack.gm_moves]
    for role in pack.gm.stances:
        if role not in sys_.roles:
            problems.append(f"gm.yaml: stances.{role}: unknown role {role!r}"
                            f" (roles: {', '.join(sys_.roles)})")
    for i, m in enumerate(pack.moves.values()):
        where = f"{movf}: moves[{i}] ({m.id})"
        for role in m.target_roles:
            if role not in sys_.roles:
                problems.append(f"{where}.target_roles: unknown role {role!r}")
        for gid in m.miss_gm:
            if gid not in gm_ids:
                problems.append(f"{where}.miss_gm: unknown GM move {gid!r}"
                                f" (GM moves: {', '.join(gm_ids) or 'none'})")
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
    return problems + play_checks(pack)


# ------------------------------------------------------------------ loading and discovery

_FILES: dict[str, type[BaseModel]] = {
    "system.yaml": s.System,
    "moves.yaml": s.MovesPack,
    "gm.yaml": s.GMPack,
    "tables.yaml": s.TablesPack,
    "narration.yaml": s.NarrationPack,
    "examples.yaml": s.ExamplesPack,
}


def load_pack(path: Path | str, *, check: bool = True,
              also: Callable[[Pack], list[str]] | None = None) -> Pack:
    """Load and validate the system folder at ``path``; raise ``ContentError`` if broken.

    ``also`` adds the problems a layer above sees (``engine.checks``: rulesets, GM
    preconditions); they are reported with the pack's own, as ``path/file...`` lines."""
    path = Path(path)
    try:
        is_pack = (path / "system.yaml").is_file()
    except OSError as e:
        raise ContentError(f"{str(path)[:80]}: cannot read the folder ({e.strerror})") from None
    if not is_pack:
        raise ContentError(f"{path}: not a content pack (no system.yaml in it)")
    problems: list[str] = []
    parsed: dict[str, Any] = {}
    for name, model in _FILES.items():
        f = path / name
        if not f.exists() and not f.is_symlink():
            if name in ("system.yaml", "moves.yaml"):
                problems.append(f"{f}: required file is missing")
            continue
        try:
            data, node = _read_yaml(f)
            if data is None:
                raise ContentError(f"{f}: the file is empty")
            parsed[name] = _validate(f, model, data, node)
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
        narration=parsed.get("narration.yaml") or s.NarrationPack(),
        examples=dict(parsed["examples.yaml"].root) if "examples.yaml" in parsed else {},
    )
    if check:
        problems = [f"{path}/{p}" for p in cross_check(pack)]
        # the dicts above keep one entry per id: report the duplicates they swallowed
        for file, kind, ids in (
                ("moves.yaml", "move", [m.id for m in parsed["moves.yaml"].moves]),
                ("tables.yaml", "table", [t.id for t in tables.tables] if tables else [])):
            problems += [f"{path}/{file}: {kind} id {i!r} is used twice"
                         for i in sorted({i for i in ids if ids.count(i) > 1})]
        if also is not None:
            problems += also(pack)
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
