"""What validates as data but would crash or hang in play: moves triggering each other in a
loop, templates the GM cannot fill, dice pools too large for exact odds, example keys naming no
move, band choices with nothing to choose from. (What the rulesets and the GM define is checked
above the content, in ``engine.checks``.)"""

from __future__ import annotations

import difflib
from typing import Any

import yaml

from engine.content import schema as s
from engine.content.pack import Pack
from engine.content.sites import effect_sites, outcomes_of, walk_effects
from engine.content.templates import narration_problems, template_problems, template_sites
from engine.content.yamlio import key_line, yaml_node
from engine.dice import DiceSpec
from engine.odds import MAX_COMBINATIONS, combinations

EXAMPLES_FILE = "examples.yaml"


def _triggers_of(move: s.Move) -> set[str]:
    """The moves ``move`` can trigger with ``trigger_move`` effects, anywhere in it."""
    effects: list[Any] = list(walk_effects(move.before))
    for _key, out in outcomes_of(move):
        effects += walk_effects(out.effects)
        if out.choose:
            for o in out.choose.options:
                effects += walk_effects(o.effects)
    return {e.move for e in effects if isinstance(e, s.TriggerMove)}


def trigger_cycles(pack: Pack) -> list[list[str]]:
    """Every loop of moves triggering each other (``[a, b, a]``), each reported once."""
    graph = {mid: sorted(_triggers_of(m) & set(pack.moves)) for mid, m in pack.moves.items()}
    cycles: list[list[str]] = []
    seen_loops: set[frozenset[str]] = set()
    state: dict[str, int] = {}  # 1 on the current path, 2 finished
    for root in graph:
        if state.get(root):
            continue
        path: list[str] = []
        stack: list[tuple[str, int]] = [(root, 0)]
        while stack:
            node, i = stack.pop()
            if i == 0:
                state[node] = 1
                path.append(node)
            if i < len(graph[node]):
                stack.append((node, i + 1))
                nxt = graph[node][i]
                if state.get(nxt) == 1:
                    loop = [*path[path.index(nxt):], nxt]
                    if frozenset(loop) not in seen_loops:
                        seen_loops.add(frozenset(loop))
                        cycles.append(loop)
                elif not state.get(nxt):
                    stack.append((nxt, 0))
            else:
                state[node] = 2
                path.pop()
    return cycles


def _trigger_loop_problems(pack: Pack) -> list[str]:
    """Moves that trigger themselves, or each other in a loop."""
    problems: list[str] = []
    for loop in trigger_cycles(pack):
        what = "triggers itself" if len(loop) == 2 else "and others trigger each other in a loop"
        problems.append(f"moves.yaml: moves ({loop[0]}): {loop[0]} {what}:"
                        f" {' -> '.join(loop)} (trigger_move effects)")
    return problems


def _template_problems(pack: Pack) -> list[str]:
    """Templates in gm.yaml and tables.yaml that the GM cannot fill."""
    return [f"{file}: {where}: {p}" for file, where, text, known in template_sites(pack)
            for p in template_problems(text, known)]


def examples_problems(pack: Pack) -> list[str]:
    """Keys of ``examples.yaml`` that name no move of the pack (``none`` is plain fiction)."""
    problems: list[str] = []
    node: yaml.Node | None = None
    for key in pack.examples:
        if key == "none" or key in pack.moves:
            continue
        node = node or yaml_node(pack.path / EXAMPLES_FILE)
        line = key_line(node, key)
        close = difflib.get_close_matches(key, list(pack.moves), 1)
        hint = f"; did you mean {close[0]!r}?" if close else " (use a move id, or none)"
        problems.append(f"{EXAMPLES_FILE}{f':{line}' if line else ''}: {key}: unknown move"
                        f" {key!r}{hint}")
    return problems


def _modifier_clamp_problems(pack: Pack) -> list[str]:
    """A modifier clamp whose low end is above its high end."""
    clamp = pack.system.modifier_clamp
    if clamp is not None and clamp[0] > clamp[1]:
        return [f"system.yaml: modifier_clamp: low {clamp[0]} is above high {clamp[1]}"]
    return []


def _too_many_faces(where: str, notation: str, advantage: bool) -> list[str]:
    """The dice ``notation`` (and its advantage roll) if it has too many face combinations for
    exact odds; nothing for notation that does not parse (``cross_check`` reports that)."""
    try:
        spec = DiceSpec.parse(notation)
    except ValueError:
        return []
    specs = [spec, spec.with_advantage("advantage")] if advantage else [spec]
    for sp in specs:
        if combinations(sp) > MAX_COMBINATIONS:
            extra = " (with advantage)" if sp is not spec else ""
            return [f"{where}: {notation}{extra} has {combinations(sp):,} face"
                    f" combinations; exact odds stop at {MAX_COMBINATIONS:,}"]
    return []


def _dice_pool_problems(pack: Pack) -> list[str]:
    """The system's dice and each rolled move's, when too large for exact odds."""
    problems = _too_many_faces("system.yaml: dice", pack.system.dice, False)
    for i, m in enumerate(pack.moves.values()):
        if m.roll is not None:
            problems += _too_many_faces(f"moves.yaml: moves[{i}] ({m.id}).roll.dice",
                                        m.roll.dice or pack.system.dice,
                                        m.roll.advantage != "none")
    return problems


def _band_choice_problems(pack: Pack) -> list[str]:
    """``choose_from_band`` rules must name a band of their own move that has a choose list."""
    problems: list[str] = []
    for file, where, eff in effect_sites(pack):
        if not (isinstance(eff, s.Rule) and eff.name == "choose_from_band"):
            continue
        at = f"{file}: {where}: choose_from_band"
        mid = where.split("(", 1)[1].split(")", 1)[0] if file == "moves.yaml" else ""
        move = pack.moves.get(mid)
        if move is None:
            problems.append(f"{at}: only a move's own effects can choose from its bands")
            continue
        band, count = eff.args.get("band"), eff.args.get("count", 1)
        out = move.outcomes.get(band) if isinstance(band, str) else None
        if out is None or out.choose is None:
            with_lists = sorted(b for b, o in move.outcomes.items() if o.choose)
            problems.append(f"{at}: band {band!r} has no choose list in {move.id}"
                            f" (bands with one: {', '.join(with_lists) or 'none'})")
            continue
        if not isinstance(count, int) or isinstance(count, bool) or count < 1:
            problems.append(f"{at}: count must be a whole number from 1, not {count!r}")
        exclude = eff.args.get("exclude")
        if exclude is not None and exclude not in {o.id for o in out.choose.options}:
            problems.append(f"{at}: exclude {exclude!r} is not an option of {band}")
    return problems


def play_checks(pack: Pack) -> list[str]:
    """What validates as data but would crash or hang in play: trigger loops, templates the GM
    cannot fill, dice pools too large for exact odds. (What the rulesets and the GM define is
    checked above them, in ``engine.checks``.)"""
    return [
        *_trigger_loop_problems(pack),
        *_template_problems(pack),
        *narration_problems(pack),
        *examples_problems(pack),
        *_modifier_clamp_problems(pack),
        *_dice_pool_problems(pack),
        *_band_choice_problems(pack),
    ]
