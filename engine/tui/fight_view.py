"""What the play screen shows in a fight: the words of each action (the engine's, from the
pack's actions.yaml), the odds of an attack in one line, the reason an action cannot be taken.
Pure helpers: no widgets here."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.text import Text

from engine.errors import EngineError
from engine.game import Game
from engine.tui.text import ACCENT, BAD, DIM, FG, GOOD, MIXED

MANEUVERS = ("power_attack", "all_out", "accurate", "defensive")
"""The trade-off maneuvers declared with an attack, each 0 to ``MANEUVER_MAX``."""

MANEUVER_MAX = 2
"""The largest trade the fight engine takes for one maneuver."""

DAMAGE_DEGREES = {"1": "shrugs", "-1": "-1", "-2": "dazed", "-3": "staggered", "-4": "down"}
"""A Damage resistance result by degree (success, then one to four degrees of failure)."""

ICONS = {"attack": "⚔", "charge": "⚔"}

def fight_words(game: Game) -> dict[str, Any]:
    """The game's words for fight actions and maneuvers (the engine reads ``actions.yaml``)
    as {"actions": {...}, "maneuvers": {...}}; empty for a game with no fights."""
    try:
        flat = game.conflict.words()
    except EngineError:
        return {"actions": {}, "maneuvers": {}}
    return {"actions": {k: v for k, v in flat.items() if v.get("kind") == "action"},
            "maneuvers": {k: v for k, v in flat.items() if v.get("kind") == "maneuver"}}


def action_name(words: Mapping[str, Any], action: str, section: str = "actions") -> str:
    """The display name of an action (or a maneuver), from the pack's words or its id."""
    entry = words.get(section, {}).get(action) or {}
    return str(entry.get("name") or action.replace("_", " ").capitalize())


def action_summary(words: Mapping[str, Any], action: str, section: str = "actions") -> str:
    """The one-line summary of an action (or a maneuver), or ''."""
    entry = words.get(section, {}).get(action) or {}
    return str(entry.get("summary") or "")


def why_not(option: Mapping[str, Any], budget: Mapping[str, int]) -> str:
    """Why an option the engine does not allow now is not allowed (the engine's ``why``);
    '' when it is allowed. ``budget`` is kept for callers; the engine has the reason."""
    if option.get("allowed", True):
        return ""
    return str(option.get("why") or "not now")


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
