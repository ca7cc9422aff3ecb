"""What the play screen shows in a fight: the words of each action (the engine's, from the
pack's actions.yaml), the odds of an attack in one line, the reason an action cannot be taken.
Pure helpers: no widgets here."""

from __future__ import annotations

import re
import textwrap
from collections.abc import Mapping, Sequence
from typing import Any

from rich.text import Text

from engine.errors import EngineError
from engine.game import Game
from engine.rules.encounter import PANEL
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


def side_dice(game: Game) -> bool:
    """Whether this game's fights open each round with a d6 per side, heroes' then foes'
    (no surprise round, no initiative per character)."""
    return game.fight_initiative == "side"


def fight_round(game: Game) -> str:
    """The round under way: "Surprise round", "Round 3"; '' out of a fight."""
    fight = game.fight
    if fight is None:
        return ""
    rnd = fight.encounter.round
    return "Surprise round" if rnd == 0 else f"Round {rnd}"


def budget_words(budget: Mapping[str, int]) -> str:
    """What a turn has left to spend: "2 panels" (the panels game), else "standard + move"
    or "free actions" (M&M)."""
    if PANEL in budget:
        n = int(budget[PANEL])
        return f"{n} panel{'s' * (n != 1)}"
    left = [k for k in ("standard", "move") if budget.get(k, 0) > 0]
    return " + ".join(left) or "free actions"


def cost_words(option: Mapping[str, Any]) -> str:
    """An option's cost in panels ("1 panel", "free"), or '' for a game without panels."""
    if "panels" not in option:
        return ""
    n = int(option["panels"])
    return "free" if n == 0 else f"{n} panel{'s' * (n != 1)}"


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
    if "expected_damage" in target:  # the panels game: hit bands, damage, goes down
        panel = panel_odds_parts(target, short)
        return Text(" · ", DIM).join(panel) if width is None else pack_parts(panel, width - 3)
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


def panel_odds_parts(target: Mapping[str, Any], short: bool = False) -> list[Text]:
    """A panels attack's exact odds, one Text each: hit %, then (not ``short``) the complete
    hit's; the expected damage (Kill + Stun, before any response) and the chance the target
    goes down."""
    parts = [Text.assemble(("hit ", DIM), (pct(float(target.get("hit", 0))), "bold " + FG))]
    if not short:  # the rest of a hit is minor; a critical is always a natural 20 (5%)
        parts.append(Text.assemble(("full ", DIM), (pct(float(target.get("complete", 0))),
                                                     GOOD)))
    parts.append(Text.assemble(("dmg ~", DIM), (f"{float(target['expected_damage']):.1f}",
                                                "bold " + ACCENT)))
    down = float(target.get("down") or 0)
    if down > 0:
        parts.append(Text.assemble(("down ", DIM), (pct(down), "bold " + BAD)))
    return parts


def best_target(option: Mapping[str, Any]) -> dict[str, Any] | None:
    """The target an attack is likeliest to affect (then to put down: the panels game; the
    first such in turn order)."""
    targets = list(option.get("targets") or [])
    if not targets:
        return None
    best: Mapping[str, Any] = max(targets, key=lambda t: (float(t.get("effect", 0)),
                                                          float(t.get("down", 0))))
    return dict(best)


def option_key(option: Mapping[str, Any]) -> str:
    """A stable name for an option: its action, and its attack for attacks."""
    attack = option.get("attack")
    return f"{option['action']}/{attack}" if attack else str(option["action"])


SHORTER = ((re.compile(r"expected damage avoided ([\d.]+) of ([\d.]+)"), r"avoids ~\1 of \2"),
           (re.compile(r"its damage off Kill first then Stun"), "its damage off Kill, then Stun"),
           (re.compile(r"costs (\d+) future panels?"), r"costs \1 future panel"))
"""The engine's words for a response, said shorter for a menu (unmatched words stay)."""

COST_WORDS = re.compile(r"^(free|costs .*|no cost.*)$")
"""A detail part that is the option's cost."""


def choice_entry(number: int, label: str, detail: str, width: int) -> Text:
    """One answer to a question a fight step asks (a response to a hit: take it, dodge,
    parry...) in at most three lines: number, label and its cost; then the rest of the
    engine's detail (its exact odds) wrapped under it."""
    for pattern, repl in SHORTER:
        detail = pattern.sub(repl, detail)
    parts = [x.strip() for x in detail.split(";") if x.strip()]
    cost = next((x for x in parts if COST_WORDS.match(x)), "")
    rest = [x for x in parts if x != cost]
    out = Text(f"{number}. " if number <= 9 else "   ", DIM)
    out.append(label, "bold " + ACCENT)
    if cost:
        out.append("  " + cost, GOOD if cost == "free" else MIXED)
    if len(rest) == 1 and out.cell_len + 2 + len(rest[0]) <= width - 2:
        out.append("  " + rest[0], FG)
        return out
    for line in textwrap.wrap(" · ".join(rest), max(width - 4, 20)):
        out.append("\n   " + line, FG)
    return out
