"""Choosing and making GM moves: legal by preconditions, weighted by the situation.

The GM never picks a move whose preconditions fail, avoids repeating its recent moves, fills
the narration from the scene's own names, and says why it chose what it chose. Picks come from
``gm_random``: fixed by the campaign seed and the log position, so replays are identical.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from engine.content import schema as s
from engine.content import templates
from engine.content.loader import Pack
from engine.gm import fit
from engine.gm.framing import place_phrase
from engine.rules import events as ev
from engine.rules.base import Ruleset, Step, effect_item, gm_random
from engine.rules.stance import STANCES, rank, stance_of
from engine.rules.state import Actor, CampaignState
from engine.rules.threats import fill, threat_words
from engine.rules.types import EffectContext
from engine.systems import ruleset_class


def _present(state: CampaignState, role: str | None = None) -> list[Actor]:
    return [n for n in state.actors.values() if n.kind == "npc" and n.present
            and (role is None or n.role == role)]


def _free_conditions(pack: Pack, state: CampaignState) -> list[str]:
    return [c for c in pack.conditions if c not in state.hero.conditions]


Precondition = Callable[[Pack, CampaignState], bool]

PRECONDITIONS: dict[str, Precondition] = {
    "hero_has_free_condition": lambda p, st: bool(_free_conditions(p, st)),
    "hero_not_taken_out": lambda p, st: not st.hero.taken_out,
    "npc_present": lambda p, st: bool(_present(st)),
    "threat_active": lambda p, st: any(t.active for t in st.threats.values()),
    "thread_open": lambda p, st: bool(st.open_threads),
    "hero_has_condition": lambda p, st: bool(st.hero.conditions),
}
"""Preconditions every system may use. ``<role>_present`` holds for each of the pack's roles;
a ruleset adds its own (``Ruleset.GM_PRECONDITIONS``, e.g. Masks's Influence tests)."""

ROLE_PRESENT = "_present"


def _role_present(role: str) -> Precondition:
    return lambda p, st: bool(_present(st, role))


def _rules(pack: Pack, rules: Ruleset | None) -> type[Ruleset]:
    return type(rules) if rules is not None else ruleset_class(pack.system.ruleset)


NpcTest = Callable[[Pack, CampaignState, Actor], bool]


def stance_tests() -> dict[str, NpcTest]:
    """The stance preconditions, each a test of one NPC's stance toward the acting hero:
    ``focus_<stance>`` (exactly), ``focus_<stance>_or_better``, ``focus_<stance>_or_worse``
    (hostile, wary, neutral, warm, devoted, worst to best)."""
    def test(low: int, high: int) -> NpcTest:
        return lambda p, st, n: low <= rank(stance_of(p, st, n.id)) <= high

    out: dict[str, NpcTest] = {}
    top = len(STANCES) - 1
    for i, name in enumerate(STANCES):
        out[f"focus_{name}"] = test(i, i)
        out[f"focus_{name}_or_better"] = test(i, top)
        out[f"focus_{name}_or_worse"] = test(0, i)
    return out


STANCE_TESTS = stance_tests()


def _npc_test(test: NpcTest) -> Precondition:
    return lambda p, st: any(test(p, st, n) for n in _present(st))


_NPC_TESTS: dict[tuple[int, type[Ruleset]], tuple[s.GMMoveDef, Pack, list[NpcTest]]] = {}


def npc_tests(pack: Pack, move: s.GMMoveDef, rules: Ruleset | None = None
              ) -> list[NpcTest]:
    """The tests ``move``'s preconditions put on the NPC it is about: its roles
    (``<role>_present``), the ruleset's focus tests (Masks's Influence), its stances. Made
    once per loaded move and ruleset; do not change the list."""
    cls = _rules(pack, rules)
    cached = _NPC_TESTS.get((id(move), cls))
    if cached is not None and cached[0] is move and cached[1] is pack:
        return cached[2]
    out = _npc_tests(pack, move, cls)
    if len(_NPC_TESTS) < 4096:
        _NPC_TESTS[(id(move), cls)] = (move, pack, out)
    return out


def _npc_tests(pack: Pack, move: s.GMMoveDef, cls: type[Ruleset]) -> list[NpcTest]:
    focus = dict(cls.GM_FOCUS)
    roles = set(pack.system.roles)
    out: list[NpcTest] = []
    for w in move.when:
        if w in STANCE_TESTS:
            out.append(STANCE_TESTS[w])
        elif w in focus:
            out.append(_rules_test(focus[w]))
        elif w.endswith(ROLE_PRESENT) and w.removesuffix(ROLE_PRESENT) in roles:
            out.append(_of_role(w.removesuffix(ROLE_PRESENT)))
    return out


def _rules_test(test: Callable[[CampaignState, Actor], bool]) -> NpcTest:
    return lambda p, st, n: test(st, n)


def _of_role(role: str) -> NpcTest:
    return lambda p, st, n: n.role == role


def fitting(pack: Pack, state: CampaignState, move: s.GMMoveDef,
            rules: Ruleset | None = None) -> list[Actor]:
    """The present NPCs ``move`` may be about: those passing every test its preconditions put
    on one NPC (all present NPCs when it names none)."""
    tests = npc_tests(pack, move, rules)
    return [n for n in _present(state) if all(t(pack, state, n) for t in tests)]


_PRECONDITIONS: dict[tuple[int, type[Ruleset]], tuple[Pack, dict[str, Precondition]]] = {}


def preconditions(pack: Pack, rules: Ruleset | None = None) -> dict[str, Precondition]:
    """Every precondition a GM move of ``pack`` may name, by name (``rules``: the pack's
    ruleset, found from the pack when not given). Made once per pack and ruleset (content
    does not change while it is loaded); do not change the dict."""
    cls = _rules(pack, rules)
    cached = _PRECONDITIONS.get((id(pack), cls))
    if cached is not None and cached[0] is pack:
        return cached[1]
    out: dict[str, Precondition] = {f"{r}{ROLE_PRESENT}": _role_present(r)
                                    for r in pack.system.roles}
    out.update(PRECONDITIONS)
    out.update({k: _npc_test(t) for k, t in STANCE_TESTS.items()})
    out.update(cls.GM_PRECONDITIONS)
    if len(_PRECONDITIONS) < 64:
        _PRECONDITIONS[(id(pack), cls)] = (pack, out)
    return out


def legal(pack: Pack, state: CampaignState, move: s.GMMoveDef,
          rules: Ruleset | None = None, held: dict[str, bool] | None = None) -> bool:
    """Whether every precondition of ``move`` holds (unknown names fail closed), and, when
    several are about the NPC it concerns, one present NPC passes them all. ``held``: the
    preconditions already tested against this same state, by name (filled in as they are)."""
    known = preconditions(pack, rules)
    memo: dict[str, bool] = {} if held is None else held
    for name in move.when:
        ok = memo.get(name)
        if ok is None:
            ok = memo[name] = name in known and known[name](pack, state)
        if not ok:
            return False
    return len(npc_tests(pack, move, rules)) < 2 or bool(fitting(pack, state, move, rules))


def candidates(pack: Pack, state: CampaignState, kind: str,
               rules: Ruleset | None = None, held: dict[str, bool] | None = None
               ) -> list[s.GMMoveDef]:
    """GM moves of ``kind`` whose preconditions hold (``held`` as ``legal`` takes it)."""
    memo: dict[str, bool] = {} if held is None else held
    return [m for m in pack.gm_moves if (m.kind == kind or m.kind == "both")
            and legal(pack, state, m, rules, memo)]


def weight(state: CampaignState, move: s.GMMoveDef) -> float:
    """The move's weight in this situation: recent moves fade, pressing threats push."""
    w = float(move.weight)
    if move.id in state.gm_recent[-1:]:
        return 0.0
    if move.id in state.gm_recent[-3:]:
        w *= 0.3
    if "threat_active" in move.when:
        worst = max((t.clock / t.size for t in state.threats.values() if t.active), default=0)
        w *= 1 + worst
    return w


def focus_npc(state: CampaignState, move: s.GMMoveDef, salt: str,
              rules: Ruleset | None = None, prefer: str | None = None) -> Actor | None:
    """The NPC a GM move is about: ``prefer`` (the target of the move that called for it)
    when it is present and fits every test the move's preconditions put on one NPC; else the
    one its first fitting precondition points at (the ruleset's own tests first, then
    ``<role>_present`` in the order the move names them)."""
    rng = gm_random(state, f"focus:{salt}")
    present = _present(state)
    if rules is not None:
        fits = fitting(rules.pack, state, move, rules)
        if prefer is not None and any(n.id == prefer for n in fits):
            return state.actors[prefer]
        if len(npc_tests(rules.pack, move, rules)) >= 2 and fits:
            return rng.choice(fits)
    order = list(rules.GM_FOCUS) if rules is not None else []
    order += [(w, _role_test(w.removesuffix(ROLE_PRESENT))) for w in move.when
              if w.endswith(ROLE_PRESENT) and w != "npc_present"]
    for cond, test in order:
        if cond in move.when:
            pool = [n for n in present if test(state, n)]
            if pool:
                return rng.choice(pool)
    return rng.choice(present) if present else None


def _role_test(role: str) -> Callable[[CampaignState, Actor], bool]:
    return lambda st, n: n.role == role


def _names(pack: Pack, state: CampaignState, move: s.GMMoveDef,
           rules: Ruleset | None = None, prefer: str | None = None) -> dict[str, Any]:
    rng = gm_random(state, f"names:{move.id}")
    names: dict[str, Any] = {
        "hero": state.hero.name,
        "location": place_phrase(state.scene.location) if state.scene.location else "the street",
        "npc_id": "",
    }
    for role in pack.system.roles:  # each role's name for the narration ({adult}, {rival}...)
        of_role = _present(state, role)
        if of_role:
            names[role] = rng.choice(of_role).name
    focus = focus_npc(state, move, move.id, rules or _rules(pack, None)(pack), prefer)
    if focus is not None:
        names["npc"], names["npc_id"] = focus.name, focus.id
        names[focus.role] = focus.name
    active = [t for t in state.threats.values() if t.active]
    if active:
        names["threat"] = threat_words(pack, state, max(active, key=lambda t: t.clock / t.size))
    if state.open_threads:  # the newest open thread of the ledger (precondition thread_open)
        names["thread"] = state.open_threads[-1].text
    return names


# ------------------------------------------------------------------ how a line is composed

LINE_MEMORY = ev.GM_LINE_MEMORY
"""GM moves within which a line is never said twice (when the move has lines enough)."""


_LINES: dict[tuple[int, str], tuple[s.GMMoveDef, list[tuple[str, str]]]] = {}


def lines(pack: Pack, move: s.GMMoveDef) -> list[tuple[str, str]]:
    """Every line ``move`` can say, as (key, template): composed from its parts in
    ``narration.yaml`` (key ``"open.act.stake"``, indices), else its whole ``narration`` lines
    in ``gm.yaml`` (key ``"i"``). Composed once per loaded move; do not change the list."""
    cached = _LINES.get((id(pack), move.id))
    if cached is not None and cached[0] is move:
        return cached[1]
    parts = pack.narration.moves.get(move.id)
    out: list[tuple[str, str]] = []
    if parts is None:
        out = [(str(i), text) for i, text in enumerate(move.narration)]
    else:
        for (i, o), (j, a), (k, st) in itertools.product(
                enumerate(parts.open), enumerate(parts.act), enumerate(parts.stake)):
            text = " ".join(x.strip() for x in (o, a, st) if x.strip())
            out.append((f"{i}.{j}.{k}", text))
    if len(_LINES) < 4096:
        _LINES[(id(pack), move.id)] = (move, out)
    return out


_TEMPLATES: dict[tuple[int, str], tuple[Pack, str]] = {}


def _template(pack: Pack, line_key: str) -> str:
    """The template behind a remembered ``move:key`` ("" if the content no longer has it)."""
    cached = _TEMPLATES.get((id(pack), line_key))
    if cached is not None and cached[0] is pack:
        return cached[1]
    mid, _, key = line_key.partition(":")
    move = next((m for m in pack.gm_moves if m.id == mid), None)
    out = "" if move is None else dict(lines(pack, move)).get(key, "")
    if len(_TEMPLATES) < 16_384:
        _TEMPLATES[(id(pack), line_key)] = (pack, out)
    return out


def choose_line(pack: Pack, state: CampaignState, move: s.GMMoveDef,
                names: Mapping[str, object] | None = None) -> tuple[str, str]:
    """The line the GM says for ``move``, as (key, template): only lines whose placeholders
    ``names`` all fills (when given, and some line can); never one said in the last
    ``LINE_MEMORY`` GM moves while another is left; among the rest, the ones sharing the fewest
    parts with the move's recent lines, and not opening on the hero's name twice running."""
    recent = state.gm_lines[-(LINE_MEMORY - 1):] if LINE_MEMORY > 1 else []
    options, parsed = _usable(pack, move, names, set(recent))
    age = {k: n for n, k in enumerate(reversed(recent))}  # 0: the line just said
    mine = [k.partition(":")[2].split(".") for k in recent if k.startswith(f"{move.id}:")]
    used = [{p[slot] for p in mine if len(p) == 3} for slot in range(3)]
    hero_last = any(_template(pack, k).startswith("{hero}") for k in recent[-2:])

    def cost(line: _Line) -> tuple[int, int]:
        said = age.get(line.said_as)
        if said is not None:  # said already: only when nothing else is left, the oldest first
            return 1, LINE_MEMORY - said
        shared = sum(1 for slot, i in enumerate(line.parts) if i in used[slot])
        return 0, shared + (2 if hero_last and line.hero_first else 0)

    if options and not mine:  # none of its lines said lately: only the hero's name counts
        pool = [o for o, line in zip(options, parsed, strict=True)
                if not (hero_last and line.hero_first)] or list(options)
    else:
        costs = [cost(line) for line in parsed]
        best = min(costs)
        pool = [o for o, c in zip(options, costs, strict=True) if c == best]
    return gm_random(state, f"line:{move.id}").choice(pool)


FICTION_NAMES = templates.FICTION_NAMES - {"fight"}
"""The placeholders filled from the fiction line (``fit.fiction_names``): a line using one
is preferred when the fiction gave it."""


def _usable(pack: Pack, move: s.GMMoveDef, names: Mapping[str, object] | None,
            recent: set[str]) -> tuple[list[tuple[str, str]], list[_Line]]:
    """``move``'s lines, with what ``choose_line`` reads of them, that ``names`` can fill
    (all of them when ``names`` is not given or fills none); of those, the ones naming the
    fiction's own people, place or thing and not said lately, when there are such."""
    options = lines(pack, move)
    parsed = _parsed(pack, move, options)
    if names is None:
        return options, parsed
    keys = names.keys()
    keep = [i for i, line in enumerate(parsed) if line.needs <= keys]
    own = FICTION_NAMES & keys
    told = [i for i in keep if own & parsed[i].needs and parsed[i].said_as not in recent]
    pick = told or keep
    if not pick or len(pick) == len(options):
        return options, parsed
    return [options[i] for i in pick], [parsed[i] for i in pick]


@dataclass(frozen=True, slots=True)
class _Line:
    """What ``choose_line`` reads of one of a move's lines."""

    said_as: str
    """How ``gm_lines`` remembers it: ``move:key``."""
    parts: tuple[str, ...]
    """Its key's first three parts (the narration's open, act and stake)."""
    hero_first: bool
    """Its template opens on the hero's name."""
    needs: frozenset[str] = frozenset()
    """The placeholders it fills ({them}, {object}...)."""


_PLACEHOLDER = re.compile(r"\{(\w+)")

_PARSED: dict[tuple[int, str], tuple[list[tuple[str, str]], list[_Line]]] = {}


def _parsed(pack: Pack, move: s.GMMoveDef, options: list[tuple[str, str]]) -> list[_Line]:
    """``options`` (``lines(pack, move)``, made once per loaded move) read once."""
    cached = _PARSED.get((id(pack), move.id))
    if cached is not None and cached[0] is options:
        return cached[1]
    out = [_Line(f"{move.id}:{key}", tuple(key.split(".")[:3]), text.startswith("{hero}"),
                 frozenset(m.group(1) for m in _PLACEHOLDER.finditer(text)))
           for key, text in options]
    if len(_PARSED) < 4096:
        _PARSED[(id(pack), move.id)] = (options, out)
    return out


def occasion(pack: Pack, ctx: EffectContext) -> str:
    """Why the GM moves now, in words that are true: the result of the roll that called for
    it ("after a miss on Provoke someone"), else what asked for it ("you looked to the GM",
    "the scene stalled")."""
    move = pack.moves.get(str(ctx.get("move") or ""))
    band = str(ctx.get("band") or "")
    if move is not None and move.roll is not None:
        bands = {b.id: b for b in pack.bands_for(move)}
        if band in bands:
            name = "a miss" if band == "miss" and bands[band].tone == "bad" \
                else f"a {bands[band].name.lower()}"
            return f"after {name} on {move.name}"
    return str(ctx.get("source") or "") or "the GM's turn"


def missed(pack: Pack, ctx: EffectContext) -> s.Move | None:
    """The move whose miss calls for this GM move (its band has a bad tone), if any."""
    move = pack.moves.get(str(ctx.get("move") or ""))
    band = str(ctx.get("band") or "")
    if move is None or move.roll is None or not band:
        return None
    tone = next((b.tone for b in pack.bands_for(move) if b.id == band), "")
    return move if tone == "bad" else None


def called_for(pack: Pack, state: CampaignState, ctx: EffectContext,
               rules: Ruleset | None = None, held: dict[str, bool] | None = None
               ) -> list[s.GMMoveDef]:
    """The GM moves a miss calls for (the failed move's ``miss_gm``, in its order) whose
    preconditions hold now; empty when the GM was not called by a miss. The GM makes the
    first of them it has not made in its last three moves (else any fitting move, so that
    misses in a row still vary). ``held`` as ``legal`` takes it."""
    move = missed(pack, ctx)
    if move is None or not move.miss_gm:
        return []
    by_id = {m.id: m for m in pack.gm_moves}
    return [by_id[g] for g in move.miss_gm
            if g in by_id and legal(pack, state, by_id[g], rules, held)]


def _options(pack: Pack, state: CampaignState, kind: str, ctx: EffectContext,
             rules: Ruleset | None) -> tuple[list[s.GMMoveDef], list[float], list[s.GMMoveDef],
                                             frozenset[str]]:
    """The GM moves to choose among and their weights, the ones the miss calls for, and the
    kinds of action the failed move was. Moves that fit those kinds come first (the one the
    miss calls for first among them); a fitting move repeats rather than give way to one
    that does not fit."""
    held: dict[str, bool] = {}  # the preconditions tested so far: the state does not change
    asked = bool(ctx.get("fits")) or fit.after_roll(pack, ctx)
    kinds = fit.action_kinds(pack, state, ctx) if asked else frozenset()
    called_all = called_for(pack, state, ctx, rules, held)
    pool = candidates(pack, state, kind, rules, held)
    if kinds:
        # asked for a kind (a rumor, what it costs): any legal move of that kind, hard or soft
        wide = [m for m in pack.gm_moves if legal(pack, state, m, rules, held)] \
            if ctx.get("fits") else pool
        seen = {m.id: m for m in [*called_all, *wide] if fit.fits(m, kinds)}
        if not seen:  # no move of the kind asked fits: a fitting move of another kind
            seen = {m.id: m for m in pack.gm_moves
                    if fit.fits(m, kinds) and legal(pack, state, m, rules, held)}
        fitting = list(seen.values())  # once each, called ones first
        if fitting:
            called = [m for m in called_all if m.id in seen
                      and m.id not in state.gm_recent[-3:]][:1]
            options = called or fitting
            return options, [max(weight(state, m), 0.05) for m in options], called, kinds
    # the first GM move the miss calls for that fits and was not among the GM's last three
    called = [m for m in called_all if m.id not in state.gm_recent[-3:]][:1]
    options = called or pool
    weights = [weight(state, m) for m in options]
    if not options or sum(weights) == 0:
        options = [m for m in pack.gm_moves
                   if (m.kind in (kind, "both")) and legal(pack, state, m, rules, held)]
        weights = [1.0] * len(options)
    return options, weights, called, kinds


def make_gm_move(pack: Pack, state: CampaignState, kind: str, ctx: EffectContext,
                 rules: Ruleset | None = None) -> Step:
    """Choose and make a GM move of ``kind`` ("hard" or "soft"): after a miss, one that fits
    the kind of action that failed (``fit``), else one of the GM moves the failed move calls
    for (its ``miss_gm``) when one fits, about its target when the target fits; its line names
    the people, place and object of the fiction when it has a line that can."""
    options, weights, called, kinds = _options(pack, state, kind, ctx, rules)
    if not options:
        text = "The GM lets the silence stretch; the situation tightens around you."
        return Step([ev.GMMoveMade(move="pressure", name="Tighten the screws", kind=kind,
                                   text=text, reason="no GM move fits the situation")])
    rng = gm_random(state, f"gm:{kind}")
    move = rng.choices(options, weights=weights, k=1)[0]
    target = ctx.get("target")
    names = _names(pack, state, move, rules, target if isinstance(target, str) else None)
    names.update(fit.fiction_names(state, ctx, kinds))
    line_key, template = choose_line(pack, state, move, names)
    text = fill(template, names)
    asks = str(ctx.get("asks") or "").strip().rstrip(".")
    if asks:  # the move asked the GM to say something: the line is the answer
        text = f"{asks[0].upper()}{asks[1:]}: {text}"
    why = occasion(pack, ctx) + (f"; asked: {asks}" if asks else "")
    fitted = fit.fits(move, kinds)
    if move in called:
        why += "; the miss calls for it"
    if move.when:
        why += "; fits because " + ", ".join(w.replace("_", " ") for w in move.when)
    if fitted:
        why += "; it answers " + " and ".join(sorted(kinds & set(move.fits)))
    step = Step([ev.GMMoveMade(move=move.id, name=move.name, kind=kind, text=text, reason=why,
                               template=int(line_key) if line_key.isdigit() else 0,
                               line="" if line_key.isdigit() else line_key,
                               fit=("fits" if fitted else "off") if kinds else "")])
    sub_ctx: EffectContext = {
        "source": f"GM: {move.name}", "npc": names.get("npc_id") or None,
        "target": names.get("npc_id") or None,
        "gm": {"move": move.id, "name": move.name, "kind": kind, "text": text},
        "names": {k: str(v) for k, v in names.items() if k != "npc_id"}}
    step.push = [effect_item(e, sub_ctx) for e in move.effects]
    return step
