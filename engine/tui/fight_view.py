"""What the play screen shows in a fight: the words of each action (the engine's, from the
pack's actions.yaml), the odds of an attack in one line, an answer to a hit in three, the
reason an action cannot be taken. Pure helpers over the engine's typed fight values
(engine/rules/fight/values.py): they read fields, and compose words from numbers; no widgets
here."""

from __future__ import annotations

import textwrap
from collections.abc import Mapping, Sequence

from rich.text import Text

from engine.errors import EngineError
from engine.game import Game
from engine.rules.encounter import PANEL
from engine.rules.fight.values import ActionWords, FightChoice, FightOption, FightTarget
from engine.tui.text import ACCENT, BAD, DIM, FG, GOOD, MIXED

ICONS = {"attack": "⚔", "charge": "⚔"}

SEVERITY_TONES = {0: GOOD, 1: MIXED, 2: BAD}
"""The colour of a resistance result by how bad it is for the target (nothing, hurt, out)."""


def fight_words(game: Game) -> dict[str, ActionWords]:
    """The game's words for fight actions and maneuvers (the engine reads ``actions.yaml``),
    by id; empty for a game with no fights."""
    try:
        return game.conflict.words()
    except EngineError:
        return {}


def action_name(words: Mapping[str, ActionWords], action: str) -> str:
    """The display name of an action (or a maneuver), from the pack's words or its id."""
    entry = words.get(action)
    return entry.name if entry is not None else action.replace("_", " ").capitalize()


def action_summary(words: Mapping[str, ActionWords], action: str) -> str:
    """The one-line summary of an action (or a maneuver), or ''."""
    entry = words.get(action)
    return entry.summary if entry is not None else ""


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


def cost_words(option: FightOption) -> str:
    """An option's cost in panels ("1 panel", "free"), or '' for a game without panels."""
    if option.panels is None:
        return ""
    n = option.panels
    return "free" if n == 0 else f"{n} panel{'s' * (n != 1)}"


def why_not(option: FightOption) -> str:
    """Why an option the engine does not allow now is not allowed (the engine's ``why``);
    '' when it is allowed."""
    if option.allowed:
        return ""
    return option.why or "not now"


def pct(p: float) -> str:
    """A probability as a whole percent ('<1%' for a small non-zero one)."""
    if 0 < p < 0.005:
        return "<1%"
    return f"{round(p * 100)}%"


def resist_parts(target: FightTarget) -> list[Text]:
    """The target's resistance results if hit, best for it first, one Text each: "shrugs 40%",
    "-1 35%", "dazed 15%", "staggered 7%", "down 3%" (results that read the same added up)."""
    merged: dict[str, float] = {}
    severity: dict[str, int] = {}
    for r in target.resist:
        merged[r.result] = merged.get(r.result, 0.0) + r.chance
        severity.setdefault(r.result, r.severity)
    out = []
    for label, p in merged.items():
        if p <= 0:
            continue
        out.append(Text.assemble((f"{label} ", DIM),
                                 (pct(p), SEVERITY_TONES.get(severity[label], MIXED))))
    return out


def resist_text(target: FightTarget) -> Text:
    """The resistance results in one line: "shrugs 40% · -1 35% · dazed 15% · ..."."""
    return Text(" · ", DIM).join(resist_parts(target))


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


def odds_line(option: FightOption, target: FightTarget, short: bool = False,
              width: int | None = None) -> Text:
    """An attack's exact odds on ``target``: hit %, critical %, then each resistance result
    if it hits (``short``: hit % and the chance it takes effect). ``width``: wrapped to lines
    of that many cells, indented under the first (a line starts 3 cells in)."""
    if target.expected_damage is not None:  # hit bands and damage: hit, full, damage, down
        panel = panel_odds_parts(target, short)
        return Text(" · ", DIM).join(panel) if width is None else pack_parts(panel, width - 3)
    parts: list[Text] = []
    attack = option.attack
    if attack is None or attack.rolls:
        parts.append(Text.assemble(("hit ", DIM), (pct(target.hit or 0.0), "bold " + FG)))
        if not short and target.critical:
            parts.append(Text.assemble(("crit ", DIM), (pct(target.critical), FG)))
    else:
        parts.append(Text(f"{attack.range}, no attack roll", DIM))
    if short:
        parts.append(Text.assemble(("takes effect ", DIM),
                                   (pct(target.effect or 0.0), "bold " + ACCENT)))
    else:  # what the target's resistance gives once the attack lands: labelled so
        # (a chance given a hit, not of the whole attack)
        results = resist_parts(target)
        if results and (attack is None or attack.rolls):
            results[0] = Text.assemble(("if hit: ", DIM), results[0])
        parts += results
    if width is None:
        return Text(" · ", DIM).join(parts)
    return pack_parts(parts, width - 3)


def panel_odds_parts(target: FightTarget, short: bool = False) -> list[Text]:
    """A panels attack's exact odds, one Text each: hit %, then (not ``short``) the complete
    hit's; the expected damage (Kill + Stun, before any response) and the chance the target
    goes down."""
    parts = [Text.assemble(("hit ", DIM), (pct(target.hit or 0.0), "bold " + FG))]
    if not short:  # the rest of a hit is minor; a critical is always a natural 20 (5%)
        parts.append(Text.assemble(("full ", DIM), (pct(target.complete or 0.0), GOOD)))
    parts.append(Text.assemble(("dmg ~", DIM), (f"{target.expected_damage or 0.0:.1f}",
                                                "bold " + ACCENT)))
    down = target.down or 0.0
    if down > 0:
        parts.append(Text.assemble(("down ", DIM), (pct(down), "bold " + BAD)))
    return parts


def choice_words(choice: FightChoice) -> list[str]:
    """What a menu says of an answer after its label and cost: how it works with its odds,
    then the damage it is expected to avoid (composed from the numbers); the engine's detail
    when it gives no short words."""
    if not choice.how:
        return [choice.detail] if choice.detail else []
    out = [choice.how]
    if choice.avoided is not None and choice.incoming is not None:
        out.append(f"avoids ~{choice.avoided:.1f} of {choice.incoming:.1f}")
    return out


def choice_entry(number: int, choice: FightChoice, width: int) -> Text:
    """One answer to a question a fight step asks (a response to a hit: take it, dodge,
    parry...) in at most three lines: number, label and its cost; then how it works and what
    it avoids (its exact odds) wrapped under it."""
    rest = choice_words(choice)
    cost = choice.cost_words
    out = Text(f"{number}. " if number <= 9 else "   ", DIM)
    out.append(choice.label, "bold " + ACCENT)
    if cost:
        out.append("  " + cost, GOOD if cost == "free" else MIXED)
    if len(rest) == 1 and out.cell_len + 2 + len(rest[0]) <= width - 2:
        out.append("  " + rest[0], FG)
        return out
    for line in textwrap.wrap(" · ".join(rest), max(width - 4, 20)):
        out.append("\n   " + line, FG)
    return out
