"""Pure helpers that turn engine data into Rich text: journal lines, odds, times.

Nothing here touches a widget, so the formatting is tested without running an app.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.rule import Rule
from rich.text import Text

if TYPE_CHECKING:  # the title screen imports this module: keep the rules core out of it
    from engine.content.loader import Pack

# The palette follows the app's theme (tokyo-night) so Rich text and widgets agree.
FG = "#a9b1d6"
DIM = "#737aa2"
PRIMARY = "#bb9af7"
SECONDARY = "#7aa2f7"
ACCENT = "#ff9e64"
GOOD = "#9ece6a"
MIXED = "#e0af68"
BAD = "#f7768e"
TONES = {"good": GOOD, "mixed": MIXED, "bad": BAD}
"""Band tone -> colour."""

_INLINE = re.compile(r"\*\*(.+?)\*\*|(?<![\w*_])_([^_\s](?:.*?[^_\s])?)_(?![\w_])")
"""``**bold**`` and ``_italic_``; a run of underscores (a ``___`` blank to fill in) stays as is."""


def inline(text: str, style: str = "") -> Text:
    """Markdown ``**bold**`` and ``_italic_`` as a Rich Text."""
    out = Text(style=style)
    pos = 0
    for m in _INLINE.finditer(text):
        out.append(text[pos:m.start()])
        if m.group(1) is not None:
            out.append(m.group(1), "bold")
        else:
            out.append(m.group(2), "italic")
        pos = m.end()
    out.append(text[pos:])
    return out


def band_tones(pack: Pack, move_id: str, roll: Mapping[str, Any] | None = None
               ) -> dict[str, str]:
    """Band id -> tone for the bands ``roll`` (a Rolled dict or a preview) used, else the
    move's band set (empty if the move is unknown or has no roll)."""
    return {b["id"]: b.get("tone", "mixed") for b in band_dicts(pack, move_id, roll)}


def roll_text(e: Mapping[str, Any], pack: Pack) -> Text:
    """A Rolled event as two lines (three when the ruleset chose its bands for this roll):
    dice, total and band (and which band the total gave when the dice forced another); every
    modifier and the clamp; the bands used."""
    tone = band_tones(pack, e["move"], e).get(e["band"], "mixed")
    out = Text("🎲 ", style=FG)
    out.append(e["dice"], FG)
    out.append(" [", DIM)
    out.append(" ".join(str(f) for f in e["kept"]), "bold " + FG)
    out.append("]", DIM)
    if e.get("dropped"):
        out.append(" dropped " + " ".join(str(f) for f in e["dropped"]), DIM + " strike")
    out.append(f" {e['modifier']:+d} = ", FG)
    out.append(str(e["total"]), "bold " + FG)
    out.append(" → ", DIM)
    out.append(f" {e['band_name']} ", f"bold #1a1b26 on {TONES[tone]}")
    forced = e.get("override")
    if forced:
        was = forced.get("from", "")
        gave = band_names(pack, e["move"], e).get(was, was.replace("_", " "))
        out.append(f" {forced.get('why', 'the dice')}; the total gave {gave}", MIXED)
    odds = e.get("odds", {}).get(e["band"])
    source = "your dice" if e.get("entered") else "seeded dice"
    out.append(f"  ({source}{'; chance of this result ' + odds if odds else ''})", DIM)
    from engine.journal import modifiers_text  # the journal's words (imported late)

    mods = modifiers_text(e["modifiers"], " · ")
    out.append("\n   why: " + mods, DIM)
    if e.get("clamp") and e["raw_modifier"] != e["modifier"]:
        lo, hi = e["clamp"]
        out.append(f" = {e['raw_modifier']:+d}, clamped to {e['modifier']:+d}"
                   f" (limits {lo:+d}..{hi:+d})", DIM)
    if e.get("inverted"):
        out.append(" · read upside down: low is good", DIM)
    if e.get("bands"):
        out.append("\n   bands: " + bands_text(e["bands"]), DIM)
    return out


def bands_text(bands: Sequence[Mapping[str, Any]]) -> str:
    """Bands low to high with their totals: ``Miss ≤14 · Success 15-19 · Strong 20+``."""
    from engine.journal import bands_line  # the journal's words (imported late, as above)

    return bands_line([dict(b) for b in bands])


def indent(renderable: RenderableType, cells: int = 2) -> Padding:
    """``renderable`` indented by ``cells``, wrapped lines included."""
    return Padding(renderable, (0, 0, 0, cells))


def journal_entry(e: Mapping[str, Any], pack: Pack, npcs: Mapping[str, str]
                  ) -> RenderableType | None:
    """The styled journal entry for one event dict, or None for bookkeeping events."""
    from engine.journal import registry_of, render

    t = e.get("type")
    if t == "Rolled" and e.get("against") is None:  # a fight's roll: the journal's line
        return indent(roll_text(registry_of(pack).filled(dict(e)), pack))
    line = render(dict(e), pack, dict(npcs))
    if line is None:
        return None
    if t == "SessionStarted":
        return Group(Text(""), Rule(Text(line.strip().lstrip("# "), "bold " + PRIMARY),
                                    style=PRIMARY, characters="━"))
    if t == "SceneStarted":
        head, _, stakes = line.strip().partition("\n")
        title = head.lstrip("# ")
        parts: list[RenderableType] = [Text(""), Rule(Text(title, "bold " + SECONDARY),
                                                      style=SECONDARY, align="left")]
        if stakes:
            parts.append(inline(stakes, DIM))
        return Group(*parts)
    if t == "MoveTriggered":
        return Text("▶ " + line.lstrip("# "), "bold " + ACCENT)
    if t == "FightStarted":
        head = line.strip().lstrip("# ")
        title, _, rest = head.partition("! ")
        parts = [Text(""), Rule(Text(title + "!", "bold " + BAD), style=BAD, align="left")]
        if rest:
            parts.append(inline(rest, FG))
        return Group(*parts)
    if t == "FightEnded":
        return Group(inline(line, "bold " + BAD), Rule(style=BAD))
    if t == "TurnBegan":
        return inline(line, SECONDARY)
    if t == "FightActed":
        return indent(inline(line, ("italic " + DIM) if line.startswith("▸") else FG))
    if t is not None and registry_of(pack).tones.get(t) == "change":
        return indent(inline(line, MIXED))
    if t == "Narrated":
        if e.get("by") == "player":
            return Text("│ " + e["text"], "italic #c0caf5")
        if e.get("by") == "gm":
            return indent(inline(line, PRIMARY))
        return indent(inline(line, DIM))
    if t == "GMMoveMade":
        out = Text("◆ ", PRIMARY)
        title = pack.system.gm_title if pack is not None else "GM"
        out.append(f"{title} — {e['name']}", "bold " + PRIMARY)
        out.append(f" ({e['kind']}) ", DIM)
        out.append(e["text"], FG)
        out.append(f"\n  why: {e['reason']}", DIM)
        return indent(out)
    if t == "OutcomeReached":
        return indent(inline(line, FG))
    if t in ("OptionsChosen", "QuestionsAsked", "QuestionAnswered"):
        return indent(inline("✔ " + line, GOOD))
    if t in ("SceneEnded", "SessionEnded"):
        return inline(line, DIM)
    return indent(inline(line, DIM if t in ("NPCAdded", "NPCPresence") else FG))


def story_entry(e: Mapping[str, Any], pack: Pack, npcs: Mapping[str, str]
                ) -> RenderableType | None:
    """The event's entry in the journal's story view (``engine.export``'s story): the
    fiction, the narration, answers and headings as in the full log; a move and its roll
    folded into one short line (its name, then the result); the rest of the mechanics,
    none."""
    from engine.export import STORY_EVENTS
    from engine.journal import registry_of, result_label

    t = str(e.get("type", ""))
    if t == "MoveTriggered":
        by = f"{e['acting']}: " if e.get("acting") else ""
        return Text("▶ " + by + str(e["name"]), "bold " + ACCENT)
    if t in ("Rolled", "FightRolled", "RollAdjusted"):
        roll = registry_of(pack).filled(dict(e))
        if "band_name" not in roll or "total" not in roll:
            return None
        return indent(Text("🎲 " + result_label(str(roll["band_name"]), int(roll["total"])),
                           DIM))
    if t == "GMMoveMade":
        title = pack.system.gm_title if pack is not None else "GM"
        return indent(inline(f"**{title}:** {e['text']}", PRIMARY))
    keep = STORY_EVENTS | {"SessionStarted", "SceneStarted", "FightStarted", "FightEnded"}
    return journal_entry(e, pack, npcs) if t in keep else None


def clip(text: str, limit: int = 160) -> str:
    """``text`` on one line, cut to ``limit`` characters with an ellipsis (long fiction must
    not push the menu below it off the screen)."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"


def percent_number(text: str) -> float:
    """``"41.7%"`` -> 41.7 (0 if unreadable)."""
    try:
        return float(text.rstrip("%"))
    except ValueError:
        return 0.0


def odds_text(odds: Mapping[str, str], bands: Sequence[Mapping[str, Any]] | None = None,
              names: Mapping[str, str] | None = None) -> Text:
    """``Miss 41.7% · Weak hit 41.7% · Strong hit 16.7%``, each band in its tone's colour."""
    out = Text()
    order = [b["id"] for b in bands or [] if b["id"] in odds]
    order += [b for b in odds if b not in order]  # bands chosen for the roll, not the pack's
    tones = {b["id"]: b.get("tone", "mixed") for b in bands or []}
    labels = {b["id"]: b.get("name", b["id"]) for b in bands or []}
    labels.update(names or {})
    for i, band in enumerate(order):
        if band not in odds:
            continue
        if i:
            out.append(" · ", DIM)
        colour = TONES.get(tones.get(band, "mixed"), FG)
        out.append(labels.get(band, band.replace("_", " ").capitalize()) + " ", colour)
        out.append(odds[band], "bold " + colour)
    return out


def odds_bar(odds: Mapping[str, str], bands: Sequence[Mapping[str, Any]], width: int) -> Text:
    """A bar ``width`` cells wide split by each band's chance, in the bands' colours."""
    width = max(width, 1)
    shares = [(b, percent_number(odds.get(b["id"], "0"))) for b in bands]
    total = sum(p for _, p in shares) or 1.0
    cells = [round(p / total * width) for _, p in shares]
    while sum(cells) > width:
        cells[cells.index(max(cells))] -= 1
    while sum(cells) < width:
        cells[cells.index(max(cells))] += 1
    out = Text()
    for (band, _), n in zip(shares, cells, strict=True):
        out.append("█" * n, TONES.get(band.get("tone", "mixed"), FG))
    return out


def band_names(pack: Pack, move_id: str, roll: Mapping[str, Any] | None = None
               ) -> dict[str, str]:
    """Band id -> display name for the bands ``roll`` used, else the move's band set."""
    return {b["id"]: b.get("name", b["id"]) for b in band_dicts(pack, move_id, roll)}


def band_dicts(pack: Pack, move_id: str, roll: Mapping[str, Any] | None = None
               ) -> list[dict[str, Any]]:
    """The bands ``roll`` (a Rolled dict or a preview) records, chosen by the ruleset for
    that roll; else the move's fixed bands as plain dicts (id, name, tone, min, max)."""
    if roll is not None and roll.get("bands"):
        return [dict(b) for b in roll["bands"]]
    move = pack.moves.get(move_id)
    if move is None or move.roll is None:
        return []
    return [{"id": b.id, "name": b.name, "tone": b.tone, "min": b.min, "max": b.max}
            for b in pack.bands_for(move)]


def when(iso: str, now: datetime) -> str:
    """A saved ISO 8601 time as a short relative phrase ('just now', '3 h ago', '2024-05-01')."""
    try:
        then = datetime.fromisoformat(iso)
    except ValueError:
        return iso or "—"
    if then.tzinfo is None:
        then = then.replace(tzinfo=UTC)
    secs = (now - then).total_seconds()
    if secs < 90:
        return "just now"
    if secs < 3600:
        return f"{int(secs // 60)} min ago"
    if secs < 86400:
        return f"{int(secs // 3600)} h ago"
    if secs < 7 * 86400:
        days = int(secs // 86400)
        return "yesterday" if days == 1 else f"{days} days ago"
    return then.astimezone().strftime("%Y-%m-%d")


def signed(n: int) -> str:
    """``+1`` / ``-2`` / ``+0``."""
    return f"{n:+d}"


def stat_shown(pack: Pack, n: int) -> str:
    """A stat's value as the pack's players read it: signed (``+1``) where stats are
    modifiers that may go below 0 (Masks), plain (``24``) where none can (a characteristic
    of 1 to 30 in the panels game)."""
    stats = list(pack.stats.values())
    return str(n) if stats and all(st.min >= 0 for st in stats) else signed(n)


def plain_prompt(label: str, detail: str = "", hotkey: str = "", disabled: str = "") -> Text:
    """A simple entry: label, a dim detail and an optional hotkey hint; an entry that can do
    nothing now is dimmed and says why (``disabled``)."""
    out = Text(label, DIM if disabled else FG)
    if detail:
        out.append(f"  {detail}", DIM)
    if hotkey:
        out.append(f"  [{hotkey}]", DIM)
    if disabled:
        out.append(f"  ✗ {disabled}", "italic " + DIM)
    return out
