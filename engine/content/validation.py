"""A content file's data checked against its typed model, each problem named by file, line and
key path (``moves.yaml:12: moves[3].roll.stat: ...``).

``load_file`` reads and checks one file; ``file_problems`` checks the files a ruleset adds to a
pack (its ``CONTENT_FILES``: M&M's ``actions.yaml``, the panels game's ``crits.yaml``...);
``read_valid`` and ``valid_items`` give a ruleset's own checks the typed data they go on from,
and ``FileLines`` says on which line a problem they find is.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

import yaml
from pydantic import BaseModel, ValidationError

from engine.content.problems import describe, key_path
from engine.content.yamlio import (
    key_line,
    line_of,
    node_at,
    read_by_mtime,
    read_content_file,
    read_yaml,
    yaml_node,
)
from engine.errors import ContentError

M = TypeVar("M", bound=BaseModel)

MAX_PROBLEMS = 100
"""Problems reported per file; past this a count of the rest is given."""

_EFFECT_TAGS = frozenset({
    "mark_condition", "clear_condition", "shift_labels", "shift_label", "take_influence",
    "give_influence", "cancel_influence", "track", "hold", "forward", "ongoing", "ask",
    "gm_move", "trigger_move", "taken_out", "lock_label", "flag", "advance", "clock", "note",
    "thread", "fact", "whereabouts",
    "one_of", "rule", "stance",
})
"""The effect types, which pydantic adds to an effect's location (its union tag)."""


def _describe(err: Any) -> str:
    """One pydantic error in Sidekick's words; effect types and unknown keys said plainly."""
    if err["type"] == "extra_forbidden":
        return "unknown key (check the spelling; see the README's content format)"
    if err["type"] == "union_tag_invalid":
        ctx = err.get("ctx", {})
        return f"unknown effect type {ctx.get('tag')!r}; expected one of {ctx.get('expected_tags')}"
    if err["type"] == "union_tag_not_found":
        return "an effect needs a 'type' key"
    return describe(err)


def _clean_loc(loc: tuple[Any, ...], data: Any = None) -> list[Any]:
    """``loc`` without the union tags pydantic adds, so it is a path in the YAML. With the
    ``data`` it points into, a part is a tag only where the value there is an effect of that
    type: a key that happens to be called ``note`` or ``flag`` stays in the path."""
    if data is None:
        return [p for p in loc if not (isinstance(p, str) and p in _EFFECT_TAGS)]
    out: list[Any] = []
    node = data
    for part in loc:
        if isinstance(part, str) and part in _EFFECT_TAGS and isinstance(node, dict) \
                and node.get("type") == part:
            continue
        out.append(part)
        if isinstance(node, dict):
            node = node.get(part)
        elif isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
            node = node[part]
        else:
            node = None
    return out


def _label(data: Any, loc: Sequence[Any]) -> str:
    """``loc``'s key path, with the ``id`` (or ``name``) of the list item it starts in:
    ``characters[3] (Keystone).abilities.strength``."""
    path = key_path(loc)
    if len(loc) < 2 or not isinstance(loc[1], int) or not isinstance(data, dict):
        return path
    items = data.get(loc[0])
    item = items[loc[1]] if isinstance(items, list) and 0 <= loc[1] < len(items) else None
    name = next((item[k] for k in ("id", "name") if isinstance(item, dict)
                 and isinstance(item.get(k), str) and item[k].strip()), "")
    if not name:
        return path
    head = key_path(loc[:2])
    return f"{head} ({name[:40]}){path[len(head):]}"


def _line(node: yaml.Node | None, loc: Sequence[Any], *, on_key: bool = False) -> int | None:
    """The line of the value at ``loc`` (with ``on_key``, of its key: an unknown key's line,
    not that of the mapping under it)."""
    if on_key and loc:
        found = key_line(node_at(node, loc[:-1]), loc[-1])
        if found is not None:
            return found
    return line_of(node, loc)


def validate_file(path: Path, model: type[BaseModel], data: Any,
                  node: yaml.Node | None = None, *, name_items: bool = False) -> Any:
    """``data`` as ``model``; ``ContentError`` listing each problem with its line (looked up in
    the node tree parsed once with the data). With ``name_items`` a problem inside a list item
    names the item (``characters[3] (Keystone).kind``)."""
    try:
        return model.model_validate(data)
    except ValidationError as e:
        problems = []
        errors = e.errors()
        for err in errors[:MAX_PROBLEMS]:
            loc = _clean_loc(tuple(err["loc"]), data)
            line = _line(node, loc, on_key=err["type"] == "extra_forbidden")
            where = f"{path}:{line}" if line else str(path)
            shown = _label(data, loc) if name_items else key_path(loc)
            problems.append(f"{where}: {shown}: {_describe(err)}")
        if len(errors) > MAX_PROBLEMS:
            problems.append(f"{path}: ... and {len(errors) - MAX_PROBLEMS} more problem(s)")
        raise ContentError(
            f"{path}: {len(problems)} problem(s)\n  " + "\n  ".join(problems), problems
        ) from None


def load_file(path: Path, model: type[M], *, name_items: bool = True) -> M:
    """The content file at ``path`` read (within the YAML limits) and checked against
    ``model``; ``ContentError`` naming the file, the line and the key of each problem."""
    data, node = read_content_file(path)
    if data is None:
        raise ContentError(f"{path}: the file is empty")
    found: M = validate_file(path, model, data, node, name_items=name_items)
    return found


def file_problems(root: Path, files: Mapping[str, type[BaseModel]]) -> list[str]:
    """Every problem with the files of the pack folder ``root`` that ``files`` names (file
    name -> model; a file the pack does not have is not checked), each as
    ``root/file:LINE: key.path: what is wrong``."""
    problems: list[str] = []
    for name, model in files.items():
        path = root / name
        if not path.exists() and not path.is_symlink():
            continue
        try:  # read as read_valid reads it, so the ruleset's own checks find it read
            if read_by_mtime(path, _loader(model)) is None:  # a dangling link, say
                load_file(path, model)
        except ContentError as e:
            problems += e.problems
    return problems


@functools.cache
def _loader(model: type[M]) -> Callable[[Path], M]:
    """One function per model (``read_by_mtime`` keeps a file's value per function)."""
    return functools.partial(load_file, model=model)


def read_valid(path: Path, model: type[M]) -> M | None:
    """The file at ``path`` as ``model`` (read once per version of the file), or None when
    there is no such file or it breaks the model (``file_problems`` reports how)."""
    try:
        return read_by_mtime(path, _loader(model))
    except ContentError:
        return None


def valid_items(path: Path, key: str, model: type[M]) -> list[M]:
    """The items of the list under ``key`` in the file at ``path`` that are each a valid
    ``model``, in order (the others are ``file_problems``'s to report); [] when the file is
    missing or unreadable, or has no such list."""
    try:
        data = read_yaml(path) if path.is_file() else None
    except ContentError:
        return []
    items = data.get(key) if isinstance(data, dict) else None
    out: list[M] = []
    for item in items if isinstance(items, list) else []:
        try:
            out.append(model.model_validate(item))
        except ValidationError:
            continue
    return out


class FileLines:
    """The files of a pack folder, each parsed once and only when a problem needs a line:
    ``at`` places a problem as ``file:LINE: key.path: message`` (the file under ``root``, or
    as named with ``relative``)."""

    def __init__(self, root: Path, *, relative: bool = False) -> None:
        self.root = root
        self.relative = relative
        self.nodes: dict[str, yaml.Node | None] = {}

    def at(self, file: str, loc: Sequence[str | int], message: str, name: str = "", *,
           on_key: bool = False) -> str:
        """``file:LINE: key.path: message`` (no line when the file cannot be read); a
        ``name`` follows the key path's first index (``moves[3] (push).roll``). The line is
        the value's, or with ``on_key`` that of the key itself (a key that is wrong)."""
        if file not in self.nodes:
            self.nodes[file] = yaml_node(self.root / file)
        line = _line(self.nodes[file], loc, on_key=on_key)
        shown = file if self.relative else str(self.root / file)
        where = f"{shown}:{line}" if line else shown
        path = key_path(loc)
        if name and len(loc) > 1:
            head = key_path(loc[:2])
            path = f"{head} ({name}){path[len(head):]}"
        return f"{where}: {path}: {message}"
