"""The texts the GM fills in (``{hero} steps in``): which placeholders each may use, and why a
template cannot be filled safely; ``narration.yaml`` checked with them."""

from __future__ import annotations

import string
from collections.abc import Iterable, Iterator

import yaml

from engine.content import schema as s
from engine.content.pack import Pack
from engine.content.problems import key_path
from engine.content.sites import Loc
from engine.content.yamlio import key_line, line_of, node_at, yaml_node

GM_NAMES = frozenset({"hero", "location", "npc", "threat", "adult", "villain", "teammate",
                      "bystander", "thread"})
"""Placeholders a GM move's narration may use (besides the system's roles)."""
FICTION_NAMES = frozenset({"them", "place", "object", "fight"})
"""Placeholders a GM move's ``narration.yaml`` parts may use besides ``GM_NAMES``: the one
acted on, the place and the thing the fiction line named, and ``{fight}`` ("the fight", only
while blows are traded); a line using one is said only when the fiction gave it."""
THREAT_NAMES = frozenset({"hero", "villain"})
"""Placeholders a threat's steps and doom may use."""
OPENING_NAMES = GM_NAMES
"""Placeholders a ``scene_openings`` or ``rescue_openings`` table entry may use."""
NARRATION_FILE = "narration.yaml"
THREAT_WORDS_NAMES = {"named": frozenset({"villain"}), "plain": frozenset()}
"""Placeholders a threat's words in ``narration.yaml`` may use."""
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


def template_sites(pack: Pack) -> Iterator[tuple[str, str, str, frozenset[str]]]:
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
    for table_id in ("scene_openings", "rescue_openings"):
        openings = pack.tables.get(table_id)
        for i, e in enumerate(openings.entries if openings is not None else []):
            yield "tables.yaml", f"{table_id}.entries[{i}].text", e.text, OPENING_NAMES


def narration_problems(pack: Pack) -> list[str]:
    """Problems in ``narration.yaml``: GM move and threat ids the pack does not have, and
    templates the GM cannot fill; each as ``narration.yaml:LINE: key.path: message``."""
    node: list[yaml.Node | None] = []

    def at(loc: Loc, message: str) -> str:
        if not node:  # parsed again only when there is something to report
            node.append(yaml_node(pack.path / NARRATION_FILE))
        # a key: its own line, not its value's
        line = key_line(node_at(node[0], loc[:-1]), loc[-1]) or line_of(node[0], loc)
        return f"{NARRATION_FILE}{f':{line}' if line else ''}: {key_path(loc)}: {message}"

    problems: list[str] = []
    gm_ids = [g.id for g in pack.gm_moves]
    gm_names = GM_NAMES | FICTION_NAMES | set(pack.system.roles)
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
