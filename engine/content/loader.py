"""Load and find content packs.

``load_pack(path)`` reads a system folder, validates every file against the typed models and
checks what a schema cannot (``engine.content.references``): every id reference resolves and
every band set covers all totals once. Errors name the file, the key path and line, and what
was expected. ``discover`` and ``get_pack`` find packs by system id.

The package's other modules are re-exported here, where code has always imported them from.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from pydantic import BaseModel, TypeAdapter

from engine.content import schema as s
from engine.content.pack import Pack
from engine.content.playability import EXAMPLES_FILE, examples_problems, play_checks, trigger_cycles
from engine.content.references import SPECIAL_STATS, check_bands, cross_check, itertools_pairwise
from engine.content.sites import Loc, effect_locations, effect_sites
from engine.content.templates import (
    FICTION_NAMES,
    GM_NAMES,
    NARRATION_FILE,
    OPENING_NAMES,
    THREAT_NAMES,
    THREAT_WORDS_NAMES,
    narration_problems,
    template_problems,
)
from engine.content.validation import MAX_PROBLEMS, validate_file
from engine.content.yamlio import (
    MAX_YAML_BYTES,
    MAX_YAML_DEPTH,
    MAX_YAML_NODES,
    YamlTooLarge,
    line_of,
    parse_yaml,
    read_by_mtime,
    read_content_file,
    read_yaml,
    yaml_node,
)
from engine.errors import ContentError

__all__ = [
    "EFFECT_ADAPTER", "EXAMPLES_FILE", "FICTION_NAMES", "GM_NAMES", "MAX_PROBLEMS",
    "MAX_YAML_BYTES",
    "MAX_YAML_DEPTH", "MAX_YAML_NODES", "NARRATION_FILE", "OPENING_NAMES", "PACK_FILES",
    "SPECIAL_STATS",
    "THREAT_NAMES", "THREAT_WORDS_NAMES", "Loc", "Pack", "YamlTooLarge", "bundled_content_dir",
    "check_bands", "content_dirs", "cross_check", "discover", "effect_locations",
    "effect_sites", "examples_problems", "get_pack", "itertools_pairwise", "line_of",
    "load_pack", "narration_problems", "parse_effect", "parse_yaml", "play_checks",
    "read_by_mtime", "read_yaml", "template_problems", "trigger_cycles", "yaml_node",
]

PACK_FILES: dict[str, type[BaseModel]] = {
    "system.yaml": s.System,
    "moves.yaml": s.MovesPack,
    "gm.yaml": s.GMPack,
    "tables.yaml": s.TablesPack,
    "narration.yaml": s.NarrationPack,
    "examples.yaml": s.ExamplesPack,
}
"""The files a pack may have whatever its rules, and their models (a ruleset's own files are
its ``CONTENT_FILES``)."""


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
    for name, model in PACK_FILES.items():
        f = path / name
        if not f.exists() and not f.is_symlink():
            if name in ("system.yaml", "moves.yaml"):
                problems.append(f"{f}: required file is missing")
            continue
        try:
            data, node = read_content_file(f)
            if data is None:
                raise ContentError(f"{f}: the file is empty")
            parsed[name] = validate_file(f, model, data, node)
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


EFFECT_ADAPTER: TypeAdapter[Any] = TypeAdapter(s.Effect)
"""Parses one effect from its dict form."""
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
