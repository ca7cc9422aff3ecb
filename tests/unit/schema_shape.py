"""The shape of a JSON Schema, for the tests that keep the committed schemas current: what a
consumer relies on (the definitions, each object's property names, required names and whether
other keys are allowed, the types, constants and enumerations), not its text (descriptions,
key order, indentation), so a test does not fail over wording or over how a library version
spells the same schema."""

from __future__ import annotations

from typing import Any

NESTED = ("items", "additionalProperties", "propertyNames", "if", "then", "else")
LISTS = ("anyOf", "oneOf", "allOf", "items")


def shape(node: Any, types: bool = True) -> Any:
    """``node``'s shape; ``types``: with each value's ``type``, ``const`` and ``enum`` (the
    content schemas, made by pydantic, are compared without them)."""
    if isinstance(node, list):
        return [shape(x, types) for x in node]
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    for key in ("properties", "definitions", "patternProperties"):
        if isinstance(node.get(key), dict):
            out[key] = {k: shape(v, types) for k, v in node[key].items()}
    if "required" in node:
        out["required"] = sorted(node["required"])
    for key in NESTED:
        if isinstance(node.get(key), dict | bool):
            out[key] = shape(node[key], types)
    for key in LISTS:
        if isinstance(node.get(key), list):
            out[key] = sorted((shape(x, types) for x in node[key]), key=repr)
    if types:
        for key in ("type", "const", "enum", "$ref"):
            if key in node:
                out[key] = sorted(node[key], key=repr) if isinstance(node[key], list) else (
                    node[key])
    return out
