"""JSON Schemas of the content files, for editors: ``sidekick schema`` writes them (the
committed copies are in ``docs/schema/``), so an editor checks a pack as it is written.

Each schema is its pydantic model's (unknown keys forbidden, as ``sidekick validate`` does),
with an ``$id``, a title and a description. It checks the shape of a file only: ids that must
resolve, bands that must cover every total and what the rules define are ``sidekick
validate``'s to check.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import BaseModel

from engine.content.loader import PACK_FILES

DIALECT = "http://json-schema.org/draft-07/schema#"
"""The JSON Schema draft published: draft-07, the one editors' YAML support reads (pydantic
writes 2020-12; its two keywords that draft-07 spells otherwise are rewritten)."""

SCHEMA_SUFFIX = ".schema.json"


def schema_name(file: str, ruleset: str | None = None) -> str:
    """The schema file of a content file: ``moves.schema.json`` for a file every pack may have,
    ``mm3e-actions.schema.json`` for one a ruleset adds."""
    stem = Path(file).stem
    return f"{ruleset}-{stem}{SCHEMA_SUFFIX}" if ruleset else f"{stem}{SCHEMA_SUFFIX}"


def json_schema(model: type[BaseModel], file: str, ruleset: str | None = None
                ) -> dict[str, Any]:
    """``model``'s JSON Schema as published for ``file`` (of ``ruleset``'s packs, or of
    every pack)."""
    name = schema_name(file, ruleset)
    body = _tidy(model.model_json_schema(ref_template="#/definitions/{model}"))
    if "$defs" in body:
        body["definitions"] = body.pop("$defs")
    body.pop("title", None)
    about = " ".join(str(body.pop("description", "") or model.__doc__ or "").split())
    whose = f" (the {ruleset} rules)" if ruleset else ""
    return {
        "$schema": DIALECT,
        "$id": f"urn:sidekick:schema:{name.removesuffix(SCHEMA_SUFFIX)}",
        "title": f"Sidekick content pack: {file}{whose}",
        "description": f"{about} Written by `sidekick schema`; `sidekick validate` checks"
                       " this and what a schema cannot (ids that resolve, the rules' own).",
        **body,
    }


def _tidy(node: Any) -> Any:
    """``node`` with each description on one line, the keys of a mapping whose keys are ids
    held to the id pattern (pydantic lists the pattern, but lets other keys through), and a
    fixed-length list (2020-12 ``prefixItems``) in draft-07's words (``items``: a list)."""
    if isinstance(node, list):
        return [_tidy(x) for x in node]
    if not isinstance(node, dict):
        return node
    out = {k: " ".join(v.split()) if k == "description" and isinstance(v, str) else _tidy(v)
           for k, v in node.items()}
    if "patternProperties" in out and "properties" not in out:
        out.setdefault("additionalProperties", False)
    if "prefixItems" in out:
        out["items"] = out.pop("prefixItems")
    return out


def core_schemas() -> dict[str, dict[str, Any]]:
    """The schema of every file a pack may have whatever its rules, by schema file name."""
    return {schema_name(file): json_schema(model, file) for file, model in PACK_FILES.items()}


__all__ = ["DIALECT", "SCHEMA_SUFFIX", "core_schemas", "json_schema", "schema_name"]
