"""Read YAML safely, within Sidekick's limits, keeping each value's line.

Every content file goes through ``parse_yaml``: a file too large, nested too deep or whose
aliases expand too far is refused with a message instead of a hang. The node tree parsed with
the data answers "which line is this key on" for error messages.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, TypeVar, cast

import yaml

from engine.errors import ContentError

try:
    _Loader: Any = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - PyYAML built without libyaml
    _Loader = yaml.SafeLoader

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


def read_content_file(path: Path) -> tuple[Any, yaml.Node | None]:
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


def read_yaml(path: Path) -> Any:
    """A pack file's data, read within Sidekick's limits (size, nesting, aliases) as every
    content file is; ``ContentError`` ``<file>: cannot read: <why>`` otherwise."""
    path = Path(path)
    try:
        return read_content_file(path)[0]
    except ContentError as e:
        why = e.message.removeprefix(f"{path}:").lstrip(" :")
        raise ContentError(f"{path}: cannot read: {why}") from None


def yaml_node(path: Path) -> yaml.Node | None:
    """The node tree of a content file, for ``line_of``; None if it cannot be read."""
    try:
        return read_content_file(path)[1]
    except ContentError:
        return None


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


# ------------------------------------------------------------------ finding a value's line


def line_of(node: yaml.Node | None, loc: Iterable[Any]) -> int | None:
    """The 1-based line of the value at ``loc`` in a parsed file (the nearest one found)."""
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


def node_at(node: yaml.Node | None, loc: Iterable[Any]) -> yaml.Node | None:
    """The node at ``loc`` under ``node``, if the whole path is found."""
    for key in loc:
        if isinstance(node, yaml.MappingNode):
            node = next((v for k, v in node.value if k.value == key), None)
        elif isinstance(node, yaml.SequenceNode) and isinstance(key, int):
            node = node.value[key] if 0 <= key < len(node.value) else None
        else:
            return None
    return node


def key_line(node: yaml.Node | None, key: Any) -> int | None:
    """The 1-based line of ``key`` itself in the mapping ``node``; None if it is not there."""
    if not isinstance(node, yaml.MappingNode):
        return None
    return next((k.start_mark.line + 1 for k, _v in node.value if k.value == key), None)
