"""Validate a pack against what the layers above content define: the rulesets and the GM.

``engine.content`` checks a pack on its own (schema, ids, bands); it cannot know which rulesets
exist, which ``rule`` effects each one handles or which GM preconditions there are without
importing upward. This module sits above the GM and does those checks for ``sidekick validate``
and for creating or opening a campaign: the files a ruleset adds to a pack (its
``CONTENT_FILES``, such as M&M's ``actions.yaml``) against their models, then what the ruleset
checks itself. Each problem names the file, its line, the key path and what is known instead.
``published_schemas`` gives every content file's JSON Schema, for ``sidekick schema``.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from engine.content import schema as s
from engine.content.loader import Loc, Pack, effect_locations, load_pack
from engine.content.publish import core_schemas, json_schema, schema_name
from engine.content.validation import FileLines, file_problems
from engine.errors import ContentError
from engine.gm.moves import PRECONDITIONS, preconditions
from engine.systems import RULESETS, ruleset_class, unknown_ruleset


def _did_you_mean(name: str, known: Iterable[str]) -> str:
    close = difflib.get_close_matches(name, list(known), n=1)
    return f"; did you mean {close[0]!r}?" if close else ""


def _owner(pack: Pack, file: str, loc: Loc) -> str:
    """The id of the move, GM move or threat an effect at ``loc`` belongs to ("" if none)."""
    lists: dict[tuple[str, str | int], list[str]] = {
        ("moves.yaml", "moves"): list(pack.moves),
        ("gm.yaml", "moves"): [g.id for g in pack.gm_moves],
        ("gm.yaml", "threats"): [t.id for t in pack.gm.threats],
        ("tables.yaml", "tables"): list(pack.tables),
    }
    ids = lists.get((file, loc[0]), [])
    i = loc[1] if len(loc) > 1 else None
    return ids[i] if isinstance(i, int) and 0 <= i < len(ids) else ""


def _system_effects() -> dict[str, frozenset[str]]:
    """The effect types each ruleset handles itself, by ruleset name."""
    return {name: ruleset_class(name).system_effects() for name in RULESETS}


def pack_problems(pack: Pack) -> list[str]:
    """Every problem with ``pack`` against the rulesets and the GM: an unknown ``ruleset``,
    the files its ruleset adds (``CONTENT_FILES``) against their models, ``rule`` effects its
    ruleset does not handle, the ruleset's own checks and unknown GM move preconditions. Empty
    when the pack is fine."""
    lines = FileLines(pack.path)
    problems: list[str] = []
    name = pack.system.ruleset
    if name not in RULESETS:
        problems.append(lines.at("system.yaml", ("ruleset",), unknown_ruleset(name)))
    else:
        cls = ruleset_class(name)
        problems += file_problems(pack.path, cls.CONTENT_FILES)
        known = cls.known_rule_effects()
        for file, loc, eff in effect_locations(pack):
            if isinstance(eff, s.Rule) and eff.name not in known:
                problems.append(lines.at(
                    file, (*loc, "name"),
                    f"unknown rule effect {eff.name!r} (the {name} rules know:"
                    f" {', '.join(sorted(known))}){_did_you_mean(eff.name, known)}",
                    _owner(pack, file, loc)))
        by_ruleset = _system_effects()  # effect types only a ruleset gives meaning to
        for file, loc, eff in effect_locations(pack):
            owners = sorted(r for r, types in by_ruleset.items() if eff.type in types)
            if owners and eff.type not in cls.system_effects():
                problems.append(lines.at(
                    file, (*loc, "type"),
                    f"the effect {eff.type!r} belongs to the {', '.join(owners)} rules; the"
                    f" {name} rules do not know it", _owner(pack, file, loc)))
        for i, move in enumerate(pack.moves.values()):
            for j, test in enumerate(move.target_when):
                if test not in cls.TARGET_TESTS:
                    known_tests = sorted(cls.TARGET_TESTS)
                    problems.append(lines.at(
                        "moves.yaml", ("moves", i, "target_when", j),
                        f"unknown target test {test!r} (the {name} rules know:"
                        f" {', '.join(known_tests) or 'none'})"
                        f"{_did_you_mean(test, known_tests)}", move.id))
        problems += [f"{pack.path}/{p}" for p in cls.check_content(pack)]
    # the generic ones, <role>_present for the pack's roles, and the ruleset's own
    known_when = set(preconditions(pack)) if name in RULESETS else set(PRECONDITIONS)
    for i, g in enumerate(pack.gm_moves):
        for j, w in enumerate(g.when):
            if w not in known_when:
                problems.append(lines.at(
                    "gm.yaml", ("moves", i, "when", j),
                    f"unknown precondition {w!r} (known: {', '.join(sorted(known_when))})"
                    f"{_did_you_mean(w, known_when)}", g.id))
    return problems


def load_checked(path: Path | str) -> Pack:
    """Load the pack at ``path`` and check it against the rulesets and the GM too; one
    ``ContentError`` lists every problem."""
    return load_pack(path, also=pack_problems)


_CHECKED: dict[int, Pack] = {}


def require_checked(pack: Pack) -> Pack:
    """``pack`` if it passes ``pack_problems`` (checked once per loaded pack), else a
    ``ContentError`` naming each problem: a campaign never starts on rules it cannot play."""
    if _CHECKED.get(id(pack)) is pack:
        return pack
    problems = pack_problems(pack)
    if problems:
        raise ContentError(f"{pack.path}: the content pack is broken\n  " + "\n  ".join(problems),
                           problems)
    if len(_CHECKED) < 1000:
        _CHECKED[id(pack)] = pack
    return pack


def pack_warnings(pack: Pack) -> list[str]:
    """What is legal but likely a mistake: example fictions of two moves that read alike (the
    matcher cannot tell those moves apart)."""
    from engine.triggers import alike_examples

    return alike_examples(pack)


def published_schemas() -> dict[str, dict[str, Any]]:
    """The JSON Schema of every kind of content file, by schema file name: those of the files
    every pack may have (``moves.schema.json``...) and of each ruleset's own
    (``mm3e-actions.schema.json``...), for ``sidekick schema``."""
    out = core_schemas()
    for name in RULESETS:
        for file, model in ruleset_class(name).CONTENT_FILES.items():
            out[schema_name(file, name)] = json_schema(model, file, name)
    return out
