"""Validation problems in Sidekick's own words.

Every place that checks data against a pydantic model (content packs, stat blocks, scripts,
saves) describes each problem with :func:`describe`, so a message reads the same wherever it is
found and never depends on the wording of a pydantic release.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

_EXPECTED = {
    "int_type": "a whole number", "int_parsing": "a whole number",
    "int_from_float": "a whole number", "float_type": "a number", "float_parsing": "a number",
    "bool_type": "true or false", "bool_parsing": "true or false", "string_type": "text",
    "list_type": "a list", "tuple_type": "a list", "set_type": "a list",
    "dict_type": "a mapping", "model_type": "a mapping", "model_attributes_type": "a mapping",
    "dataclass_type": "a mapping", "none_required": "nothing (leave it out)",
}
"""What a value should have been, by pydantic's error type (a stable code, not a sentence)."""

_BOUNDS = {"greater_than_equal": ("at least", "ge"), "greater_than": ("more than", "gt"),
           "less_than_equal": ("at most", "le"), "less_than": ("less than", "lt")}

ID_PATTERN = "^[a-z][a-z0-9_]*$"
"""The pattern of a content id (``engine.content.schema.Id``)."""


def clip(value: Any, width: int = 60) -> str:
    """``value``'s repr, cut to ``width`` characters."""
    text = repr(value)
    return text if len(text) <= width else text[:width - 3] + "..."


def describe(err: Mapping[str, Any], *, got: bool = True) -> str:
    """One pydantic error (an item of ``ValidationError.errors()``) in Sidekick's words.

    With ``got`` a wrong value is quoted (``expected a whole number, got 'lots'``).
    """
    kind = str(err.get("type", ""))
    ctx: Mapping[str, Any] = err.get("ctx") or {}
    shown = f", got {clip(err['input'])}" if got and "input" in err else ""
    if kind == "missing":
        return "required key is missing"
    if kind == "extra_forbidden":
        return "unknown key"
    if kind in ("value_error", "assertion_error"):  # our own validators: their words
        return str(ctx.get("error") or err.get("msg", "")).removeprefix("Value error, ")
    if kind in _EXPECTED:
        return f"expected {_EXPECTED[kind]}{shown}"
    if kind in _BOUNDS:
        word, key = _BOUNDS[kind]
        return f"must be {word} {ctx.get(key)}{shown}"
    if kind == "literal_error" or kind == "enum":
        return f"expected one of {ctx.get('expected')}{shown}"
    if kind == "string_pattern_mismatch":
        if ctx.get("pattern") == ID_PATTERN:
            return f"expected an id (a lowercase letter, then letters, digits or _){shown}"
        return f"expected text matching {ctx.get('pattern')}{shown}"
    if kind == "string_too_long":
        return f"too long: at most {ctx.get('max_length', 0):,} characters"
    if kind == "too_long":
        return f"too many: at most {ctx.get('max_length', 0):,}"
    if kind == "string_too_short":
        return f"too short: at least {ctx.get('min_length', 0):,} characters"
    if kind == "too_short":
        return f"too few: at least {ctx.get('min_length', 0):,}"
    if kind == "union_tag_invalid":
        return f"unknown type {ctx.get('tag')!r}; expected one of {ctx.get('expected_tags')}"
    if kind == "union_tag_not_found":
        return f"needs a {ctx.get('discriminator', 'type')} key"
    if kind == "frozen_instance":
        return "cannot be changed"
    return f"not valid ({kind or 'unknown problem'}){shown}"


def key_path(loc: Iterable[Any]) -> str:
    """An error location as a key path: ``moves[3].outcomes.miss``; ``(top)`` when empty."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out or "(top)"


def problems(errors: Iterable[Mapping[str, Any]], where: str = "", *, got: bool = True
             ) -> list[str]:
    """Each error as ``<where><key path>: <what is wrong>``."""
    prefix = f"{where}: " if where else ""
    return [f"{prefix}{key_path(e.get('loc', ()))}: {describe(e, got=got)}" for e in errors]


__all__ = ["ID_PATTERN", "clip", "describe", "key_path", "problems"]
