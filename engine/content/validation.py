"""A content file's data checked against its typed model, each problem named by file, line and
key path (``moves.yaml:12: moves[3].roll.stat: ...``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ValidationError

from engine.content.problems import describe, key_path
from engine.content.yamlio import line_of
from engine.errors import ContentError

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


def _clean_loc(loc: tuple[Any, ...]) -> list[Any]:
    """``loc`` without the union tags pydantic adds, so it is a path in the YAML."""
    return [p for p in loc if not (isinstance(p, str) and p in _EFFECT_TAGS)]


def validate_file(path: Path, model: type[BaseModel], data: Any,
                  node: yaml.Node | None = None) -> Any:
    """``data`` as ``model``; ``ContentError`` listing each problem with its line (looked up in
    the node tree parsed once with the data)."""
    try:
        return model.model_validate(data)
    except ValidationError as e:
        problems = []
        errors = e.errors()
        for err in errors[:MAX_PROBLEMS]:
            loc = _clean_loc(tuple(err["loc"]))
            line = line_of(node, loc)
            where = f"{path}:{line}" if line else str(path)
            problems.append(f"{where}: {key_path(loc)}: {_describe(err)}")
        if len(errors) > MAX_PROBLEMS:
            problems.append(f"{path}: ... and {len(errors) - MAX_PROBLEMS} more problem(s)")
        raise ContentError(
            f"{path}: {len(problems)} problem(s)\n  " + "\n  ".join(problems), problems
        ) from None
