"""What the play screen shows in a fight: the words of each action (the pack's actions.yaml),
the odds of an attack in one line, the reason an action cannot be taken, and the actions that
best match what the player typed. Pure helpers: no widgets here."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import yaml
from rich.text import Text

from engine.content.loader import Pack
from engine.tui.text import ACCENT, BAD, DIM, FG, GOOD, MIXED

ACTIONS_FILE = "actions.yaml"
"""The pack file with each fight action's name, summary and example fictions."""

MANEUVERS = ("power_attack", "all_out", "accurate", "defensive")
"""The trade-off maneuvers declared with an attack, each 0 to ``MANEUVER_MAX``."""

MANEUVER_MAX = 2
"""The largest trade the fight engine takes for one maneuver."""

DAMAGE_DEGREES = {"1": "shrugs", "-1": "-1", "-2": "dazed", "-3": "staggered", "-4": "down"}
"""A Damage resistance result by degree (success, then one to four degrees of failure)."""

ICONS = {"attack": "⚔", "charge": "⚔"}

_CACHE: dict[Path, tuple[float, dict[str, Any]]] = {}

_STOP = frozenset(re.findall(r"\S+", """a an the i i'm im my me at on in of to and or so for
with his her him he she it its it's is are be was this that them they their your you we our as
by from up out into over just then now get go can will do does"""))


def fight_words(pack: Pack) -> dict[str, Any]:
    """The pack's actions.yaml as {"actions": {...}, "maneuvers": {...}} (empty when the pack
    has none or it cannot be read; ``sidekick validate`` reports a bad file)."""
    path = pack.path / ACTIONS_FILE
    try:
        mtime = path.stat().st_mtime
    except OSError:
        return {"actions": {}, "maneuvers": {}}
    cached = _CACHE.get(path)
    if cached is not None and cached[0] == mtime:
        return cached[1]
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError):
        raw = None
    raw = raw if isinstance(raw, dict) else {}
    words = {"actions": dict(raw.get("actions") or {}),
             "maneuvers": dict(raw.get("maneuvers") or {})}
    _CACHE[path] = (mtime, words)
    return words


def action_name(words: Mapping[str, Any], action: str, section: str = "actions") -> str:
    """The display name of an action (or a maneuver), from the pack's words or its id."""
    entry = words.get(section, {}).get(action) or {}
    return str(entry.get("name") or action.replace("_", " ").capitalize())


def action_summary(words: Mapping[str, Any], action: str, section: str = "actions") -> str:
    """The one-line summary of an action (or a maneuver), or ''."""
    entry = words.get(section, {}).get(action) or {}
    return str(entry.get("summary") or "")


def why_not(option: Mapping[str, Any], budget: Mapping[str, int]) -> str:
    """Why an option the engine does not allow now is not allowed (its cost and the turn's
    budget); '' when it is allowed."""
    if option.get("allowed", True):
        return ""
    action, cost = option.get("action"), option.get("cost")
    if action == "recover":
        return "once a fight, and it takes your whole turn"
    if action == "delay":
        return "not now"
    if cost == "standard" and budget.get("standard", 0) <= 0:
        return "no standard action left"
    if cost == "move" and budget.get("move", 0) <= 0 and budget.get("standard", 0) <= 0:
        return "no action left"
    if cost == "move" and budget.get("move", 0) <= 0:
        return "no move action left"
    return "not now"


def pct(p: float) -> str:
    """A probability as a whole percent ('<1%' for a small non-zero one)."""
    if 0 < p < 0.005:
        return "<1%"
    return f"{round(p * 100)}%"


def degree_labels(option: Mapping[str, Any], minion: bool) -> dict[str, str]:
    """What each resistance degree does to the target: the damage ladder, an affliction's
    degrees, or (a minion) any failure takes it out."""
    if option.get("effect") == "damage":
        labels = dict(DAMAGE_DEGREES)
    else:
        labels = {"1": "shrugs", "-1": "1st degree", "-2": "2nd degree", "-3": "3rd degree",
                  "-4": "3rd degree"}
    if minion:
        labels = {k: ("shrugs" if k == "1" else "down") for k in labels}
    return labels


def resist_parts(option: Mapping[str, Any], target: Mapping[str, Any], minion: bool
                 ) -> list[Text]:
    """The target's resistance results if hit, best for it first, one Text each: "shrugs 40%",
    "-1 35%", "dazed 15%", "staggered 7%", "down 3%" (degrees with the same result added up)."""
    labels = degree_labels(option, minion)
    merged: dict[str, float] = {}
    for degree, p in sorted(target.get("resist", {}).items(), key=lambda kv: -int(kv[0])):
        label = labels.get(str(degree), str(degree))
        merged[label] = merged.get(label, 0.0) + float(p)
    out = []
    for label, p in merged.items():
        if p <= 0:
            continue
        tone = GOOD if label == "shrugs" else BAD if label == "down" else MIXED
        out.append(Text.assemble((f"{label} ", DIM), (pct(p), tone)))
    return out


def resist_text(option: Mapping[str, Any], target: Mapping[str, Any], minion: bool) -> Text:
    """The resistance results in one line: "shrugs 40% · -1 35% · dazed 15% · ..."."""
    return Text(" · ", DIM).join(resist_parts(option, target, minion))


def pack_parts(parts: Sequence[Text], width: int, indent: int = 3) -> Text:
    """``parts`` joined by " · " in lines of at most ``width`` cells, each line after the
    first indented by ``indent`` (a part is never split)."""
    out = Text()
    line = 0
    for part in parts:
        if line and line + 3 + part.cell_len > width:
            out.append("\n" + " " * indent)
            line = indent
        elif line:
            out.append(" · ", DIM)
            line += 3
        out.append_text(part)
        line += part.cell_len
    return out


def odds_line(option: Mapping[str, Any], target: Mapping[str, Any], minion: bool,
              short: bool = False, width: int | None = None) -> Text:
    """An attack's exact odds on ``target``: hit %, critical %, then each resistance result
    (``short``: hit % and the chance it takes effect). ``width``: wrapped to lines of that
    many cells, indented under the first (a line starts 3 cells in)."""
    parts: list[Text] = []
    if option.get("range") in ("close", "ranged"):
        parts.append(Text.assemble(("hit ", DIM), (pct(float(target.get("hit", 0))),
                                                    "bold " + FG)))
        if not short and target.get("critical"):
            parts.append(Text.assemble(("crit ", DIM), (pct(float(target["critical"])), FG)))
    else:
        parts.append(Text(f"{option.get('range', 'area')}, no attack roll", DIM))
    if short:
        parts.append(Text.assemble(("takes effect ", DIM),
                                   (pct(float(target.get("effect", 0))), "bold " + ACCENT)))
    else:
        parts += resist_parts(option, target, minion)
    if width is None:
        return Text(" · ", DIM).join(parts)
    return pack_parts(parts, width - 3)


def best_target(option: Mapping[str, Any]) -> dict[str, Any] | None:
    """The target an attack is likeliest to affect (the first such in turn order)."""
    targets = list(option.get("targets") or [])
    if not targets:
        return None
    best: Mapping[str, Any] = max(targets, key=lambda t: float(t.get("effect", 0)))
    return dict(best)


def option_key(option: Mapping[str, Any]) -> str:
    """A stable name for an option: its action, and its attack for attacks."""
    attack = option.get("attack")
    return f"{option['action']}/{attack}" if attack else str(option["action"])


def _tokens(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z][a-z'-]*", text.lower()) if w not in _STOP
            and len(w) > 1}


def rank_actions(text: str, options: Sequence[Mapping[str, Any]],
                 words: Mapping[str, Any], limit: int = 3) -> list[tuple[int, float]]:
    """The allowed options that best match what the player typed: (index in ``options``,
    score), best first. The score is the best share of an example's words (or the action's
    name, an attack's name) found in ``text``; options scoring nothing are left out."""
    said = _tokens(text)
    if not said:
        return []
    scored: list[tuple[int, float]] = []
    for i, o in enumerate(options):
        if not o.get("allowed", True):
            continue
        entry = words.get("actions", {}).get(o["action"]) or {}
        samples = [str(x) for x in entry.get("examples") or []]
        samples.append(str(entry.get("name") or o["action"].replace("_", " ")))
        best = 0.0
        for sample in samples:
            toks = _tokens(sample)
            if toks:
                best = max(best, len(toks & said) / (len(toks) ** 0.5 * len(said) ** 0.5))
        name = _tokens(str(o.get("attack_name") or ""))
        if name and name & said:
            best += 0.5  # naming the power is a strong hint
        for t in o.get("targets") or []:
            if _tokens(str(t.get("name", ""))) & said:
                best += 0.05
                break
        if best > 0:
            scored.append((i, best))
    scored.sort(key=lambda s: -s[1])
    return scored[:limit]
