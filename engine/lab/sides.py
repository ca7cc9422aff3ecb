"""The two sides of a lab duel or skirmish: stat blocks read from YAML files or named from a
pack (``--side A=FILE``, ``--side B=pack:<id>``), checked with the errors a content file gets
(``file:line: key path: what is wrong``), and a trait of a side's blocks changed for a sweep
(``toughness``, ``B.dodge``, ``attacks.0.rank``, ``pl``).

A side FILE holds one stat block (a mapping with a ``name``), a list of them, or a
``characters:`` list as in a pack's ``characters.yaml``; each block is checked against the
game's own model of that file (the ruleset's ``CONTENT_FILES``), so M&M and panels blocks are
both read here without the lab naming either game. The power-level caps a pack's own blocks
keep are not enforced on a side's blocks: a designer may try a block past them on purpose.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from engine.content.loader import Pack
from engine.content.problems import describe
from engine.content.yamlio import line_of, read_content_file
from engine.errors import ContentError, IllegalAction
from engine.systems import ruleset_class, ruleset_for

SIDES = ("A", "B")
CHARACTERS_FILE = "characters.yaml"
PACK_PREFIX = "pack:"
MAX_BLOCKS = 12
"""The most stat blocks one side may have (a minion group counts once)."""

Block = dict[str, Any]


def parse_side(text: str) -> tuple[str, str]:
    """``A=FILE`` or ``B=pack:<id>`` as (side, what); ``IllegalAction`` saying the form."""
    side, eq, what = text.partition("=")
    side = side.strip().upper()
    if not eq or side not in SIDES or not what.strip():
        raise IllegalAction(f"--side: expected A=FILE, B=FILE or A=pack:<stat block id>, got"
                            f" {text!r}")
    return side, what.strip()


def _model(pack: Pack) -> type[BaseModel]:
    model = ruleset_class(pack.system.ruleset).CONTENT_FILES.get(CHARACTERS_FILE)
    if model is None:
        raise IllegalAction(f"{pack.system.name} has no stat blocks: duels are for the games"
                            " with fights in rounds (M&M, panels)")
    return model


def _items(data: Any, path: Path) -> tuple[list[Any], tuple[Any, ...]]:
    """The blocks of a side file and the key path of the list holding them."""
    if isinstance(data, dict) and "characters" in data and "name" not in data:
        items = data["characters"]
        if not isinstance(items, list):
            raise ContentError(f"{path}: characters: expected a list of stat blocks")
        return items, ("characters",)
    if isinstance(data, dict):
        return [data], ()
    if isinstance(data, list):
        return data, ()
    raise ContentError(f"{path}: expected a stat block (a mapping with a name), a list of"
                       " them or a characters: list")


def _loc(prefix: tuple[Any, ...], single: bool, loc: tuple[Any, ...]) -> tuple[Any, ...]:
    """A model error's key path (``characters, 0, defenses, dodge``) in the side file."""
    rest = loc[1:] if loc and loc[0] == "characters" else loc
    if single and rest and isinstance(rest[0], int):
        rest = rest[1:]
    return (*prefix, *rest)


def read_side_file(pack: Pack, path: Path) -> list[Block]:
    """The stat blocks of a side file, checked against the game's model of a characters
    file; ``ContentError`` listing each problem as ``file:line: block: key path: what``."""
    if not path.is_file():
        what = ("a folder, not a stat block file" if path.is_dir() else
                "not a regular file" if path.exists() else "no such file")
        raise ContentError(f"{path}: {what}")
    data, node = read_content_file(path)
    items, prefix = _items(data, path)
    if not items:
        raise ContentError(f"{path}: no stat block in it")
    if len(items) > MAX_BLOCKS:
        raise ContentError(f"{path}: {len(items)} stat blocks; a side has at most {MAX_BLOCKS}")
    single = not prefix and isinstance(data, dict)
    try:
        _model(pack).model_validate({"characters": items})
    except ValidationError as e:
        problems = []
        for err in e.errors()[:20]:
            loc = tuple(err["loc"])
            where = _loc(prefix, single, loc)
            line = line_of(node, where)
            index = loc[1] if len(loc) > 1 and isinstance(loc[1], int) else None
            who = (items[index].get("name") if index is not None
                   and isinstance(items[index], dict) else None)
            inner = ".".join(str(x) for x in loc[2:]) or "(the block)"
            problems.append(f"{path}{f':{line}' if line else ''}: "
                            f"{f'{who}: ' if who else ''}{inner}: {describe(err)}")
        raise ContentError("\n".join(problems), problems) from None
    return [dict(i) for i in items]


def pack_block(pack: Pack, bid: str) -> Block:
    """The pack's stat block ``bid`` as data; ``IllegalAction`` naming the known ones."""
    conflict = ruleset_for(pack).conflict()
    if conflict is None:
        raise IllegalAction(f"{pack.system.name} has no fights in rounds")
    blocks = conflict.blocks()
    block = blocks.get(bid) or blocks.get(bid.strip().lower().replace(" ", "_"))
    if block is None:
        raise IllegalAction(f"no stat block {bid!r} in {pack.system.name} (stat blocks:"
                            f" {', '.join(sorted(blocks)) or 'none'})")
    data = block.model_dump(mode="json") if isinstance(block, BaseModel) else dict(block)
    return {k: v for k, v in data.items() if v is not None}


def read_side(pack: Pack, what: str) -> list[Block]:
    """One ``--side`` value's blocks: ``pack:<id>[,<id>...]`` or a file."""
    if what.startswith(PACK_PREFIX):
        ids = [x.strip() for x in what[len(PACK_PREFIX):].split(",")]
        if not all(ids):
            raise IllegalAction(f"--side: expected pack:<id> or pack:<id>,<id>, got {what!r}")
        return [pack_block(pack, i) for i in ids]
    return read_side_file(pack, Path(what))


def dump(blocks: Sequence[Block]) -> tuple[str, ...]:
    """Blocks as JSON text: hashable, and the same in every worker process."""
    return tuple(json.dumps(b, sort_keys=True) for b in blocks)


def load(blocks: Sequence[str]) -> list[Block]:
    """The blocks ``dump`` gave."""
    return [json.loads(b) for b in blocks]


def block_key(name: str) -> str:
    """A block's id from its name (its words in lower case joined by ``_``)."""
    return "_".join(name.lower().split())


def group_size(block: Mapping[str, Any]) -> int:
    """The members of a group block (a count of 2 or more), 0 for one character."""
    count = block.get("count")
    return count if isinstance(count, int) and count > 1 else 0


def side_name(blocks: Sequence[Block]) -> str:
    """A side in a few words: its blocks' names (a group with its count)."""
    names = []
    for b in blocks:
        n = str(b.get("name", "?"))
        names.append(f"{n} x{b['count']}" if group_size(b) else n)
    return " + ".join(names)


# ---------------------------------------------------------------------------- traits

ALIASES = {"pl": "power_level", "power level": "power_level"}
"""Short names of a trait (``pl`` is the power level)."""


def _find(data: Any, key: str, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every key path to a number called ``key`` (mappings only: lists are named)."""
    out: list[tuple[Any, ...]] = []
    if isinstance(data, dict):
        for k, v in data.items():
            if k == key and isinstance(v, int) and not isinstance(v, bool):
                out.append((*path, k))
            elif isinstance(v, dict):
                out += _find(v, key, (*path, k))
    return out


def _step(node: Any, part: str) -> tuple[Any, Any]:
    """One part of a dotted trait path: a mapping's key, a list's index (0-based) or the
    item of a list whose name is ``part``."""
    if isinstance(node, list):
        if part.lstrip("-").isdigit():
            i = int(part)
            if not -len(node) <= i < len(node):
                raise IllegalAction(f"no item {i} (there are {len(node)})")
            return i, node[i]
        for i, item in enumerate(node):
            if isinstance(item, dict) and str(item.get("name", "")).strip().lower() \
                    .replace(" ", "_") == part.lower().replace(" ", "_"):
                return i, item
        names = ", ".join(str(x.get("name")) for x in node if isinstance(x, dict))
        raise IllegalAction(f"nothing named {part!r} (there are: {names})")
    if isinstance(node, dict) and part in node:
        return part, node[part]
    keys = ", ".join(node) if isinstance(node, dict) else "nothing"
    raise IllegalAction(f"no {part!r} (here: {keys})")


def trait_path(block: Block, trait: str) -> tuple[Any, ...]:
    """Where ``trait`` is in ``block``: a dotted path (``defenses.toughness``,
    ``attacks.0.rank``, ``attacks.granite_fist.rank``) or a key found once anywhere in its
    mappings (``toughness``, ``dodge``, ``pl``); ``IllegalAction`` saying why not."""
    key = ALIASES.get(trait.strip().lower(), trait.strip())
    if "." not in key:
        found = _find(block, key)
        if len(found) == 1:
            return found[0]
        if not found:
            raise IllegalAction(f"{block.get('name')!r} has no number called {trait!r}")
        shown = ", ".join(".".join(map(str, p)) for p in found)
        raise IllegalAction(f"{trait!r} is ambiguous in {block.get('name')!r}: {shown}")
    node: Any = block
    path: list[Any] = []
    for part in key.split("."):
        try:
            k, node = _step(node, part)
        except IllegalAction as e:
            raise IllegalAction(f"{block.get('name')!r}: {trait}: {e}") from None
        path.append(k)
    if not isinstance(node, int) or isinstance(node, bool):
        raise IllegalAction(f"{block.get('name')!r}: {trait} is not a number")
    return tuple(path)


def get_trait(block: Block, path: Sequence[Any]) -> int:
    """The number at ``path``."""
    node: Any = block
    for k in path:
        node = node[k]
    return int(node)


def with_trait(blocks: Sequence[Block], trait: str, value: int) -> list[Block]:
    """Copies of ``blocks`` with ``trait`` set to ``value`` in each block that has it
    (``IllegalAction`` when none has)."""
    out = [copy.deepcopy(dict(b)) for b in blocks]
    changed = 0
    problems = []
    for b in out:
        try:
            path = trait_path(b, trait)
        except IllegalAction as e:
            problems.append(str(e))
            continue
        node: Any = b
        for k in path[:-1]:
            node = node[k]
        node[path[-1]] = value
        changed += 1
    if not changed:
        raise IllegalAction("; ".join(problems))
    return out


def check_blocks(pack: Pack, blocks: Sequence[Mapping[str, Any]], what: str) -> None:
    """``IllegalAction`` when ``blocks`` no longer fit the game's model (a swept trait out
    of its range), saying which ``what`` (a sweep's point) made them so."""
    try:
        _model(pack).model_validate({"characters": list(blocks)})
    except ValidationError as e:
        err = e.errors()[0]
        loc = tuple(err["loc"])
        who = (blocks[loc[1]].get("name") if len(loc) > 1 and isinstance(loc[1], int)
               and loc[1] < len(blocks) else None)
        inner = ".".join(str(x) for x in loc[2:]) or "(the block)"
        raise IllegalAction(f"{what}: {f'{who}: ' if who else ''}{inner}: {describe(err)}"
                            ) from None
