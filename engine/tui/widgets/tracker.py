"""The initiative tracker shown while a fight is under way: the round, then one row per
character in turn order (▶ on the one acting), drawn from ``Game.tracker()``. A game whose
fights the panels way (its conflict's ``tracker_style`` is "panels") gets the panel tracker:
each side's d6 and the panels they give, each character's panels left, panels owed and how
they are repaid, Kill and Stun."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rich.text import Text
from textual import events
from textual.widgets import Static

from engine.rules.encounter import ARREARS_LIMIT, SideInitiative
from engine.rules.fight.values import InitiativeColumns, PanelColumns, TrackerRow
from engine.tui.text import ACCENT, BAD, DIM, FG, GOOD, MIXED, SECONDARY

SIDE_TONES = {"heroes": GOOD, "villains": BAD}
"""The colour of each side's names."""

SHORT = {"dazed": "dz", "staggered": "stg", "incapacitated": "inc", "prone": "prn",
         "vulnerable": "vul", "defenseless": "dfn", "hindered": "hnd", "immobile": "imm",
         "impaired": "imp", "disabled": "dis", "stunned": "stn", "surprised": "srp",
         "restrained": "rst", "bound": "bnd", "grabbed": "grb", "dying": "dyg", "dead": "ded",
         "unaware": "unw", "fatigued": "ftg", "exhausted": "exh", "entranced": "ent",
         "compelled": "cmp", "controlled": "ctl", "transformed": "trn", "weakened": "wkn",
         "asleep": "slp", "paralyzed": "par", "blind": "bld", "deaf": "def"}
"""Short forms of M&M condition names for the tracker's narrow rows."""

NAME_WIDTH = 15
"""Cells a name gets in a row (longer names are cut with "…")."""

BAND_SHORT = {"engaged": "eng", "close": "cls", "ranged": "rng", "far": "far"}
"""Short forms of the bands (engine/rules/fight/positions.py), for a row too narrow for the
word."""

BAND_TONES = {"engaged": BAD, "close": MIXED}
"""How a foe's band reads: engaged (within reach) and close stand out."""


def short(condition: str) -> str:
    """A condition's short form (its first three letters when it has none)."""
    return SHORT.get(condition, condition[:3])


def tracker_text(round_no: int, rows: Sequence[TrackerRow], width: int = 30) -> Text:
    """The tracker as one Rich Text: a header line, then a row per character: mark,
    initiative, name, damage penalty, who plays it ("you"/"ref") or how it left the fight;
    on a hero's turn, a foe the referee plays shows its band from that hero instead of "ref"
    ("engaged", "close"..., shortened when the row is too narrow); conditions (short) after
    the name when they fit, else on the line below."""
    out = Text(no_wrap=True, overflow="ellipsis")
    head = "Surprise round" if round_no == 0 else f"Round {round_no}"
    out.append(f"⚔ {head}".upper(), "bold " + SECONDARY)
    name_w = max(min(NAME_WIDTH, width - 11), 6)
    for r in rows:
        out.append("\n")
        cols = r.columns if isinstance(r.columns, InitiativeColumns) else InitiativeColumns()
        gone = bool(r.out)
        dim = gone or not r.present
        mark = "▶" if r.acting else " "
        out.append(mark, "bold " + ACCENT)
        out.append(f"{r.initiative:>2} ", DIM if dim else FG)
        name = r.name
        if len(name) > name_w:
            name = name[:name_w - 1] + "…"
        tone = DIM if dim else SIDE_TONES.get(r.side, FG)
        bold = "bold " if r.acting else ""
        strike = " strike" if gone else ""
        out.append(f"{name:<{name_w}}", bold + tone + strike)
        dmg = cols.damage
        out.append(f"{'-' + str(dmg) if dmg else '':>3}", DIM if dim else BAD)
        if gone:
            out.append(f" {r.out}", DIM)
        else:
            ctl = "you" if r.control == "player" else "ref"
            if r.band and ctl == "ref":  # a foe's band from the hero acting, for "ref"
                room = width - (name_w + 7)
                word = r.band if len(r.band) + 1 <= room else BAND_SHORT.get(r.band, r.band)
                out.append(f" {word}", BAND_TONES.get(r.band, DIM))
            else:
                out.append(f" {ctl}", (ACCENT if ctl == "you" else DIM))
        conds = [] if gone else [short(c) for c in r.conditions]
        if cols.waiting and not gone:
            conds.append("held")
        if conds:
            out.append("\n    " + " ".join(conds), DIM if dim else BAD)
    return out


SIDE_NAMES = {"heroes": "Heroes", "villains": "Villains"}


def side_name(side: str) -> str:
    """A side's name for the tracker."""
    return SIDE_NAMES.get(side, side.capitalize())


def sides_lines(sides: SideInitiative | None) -> list[Text]:
    """This round's side initiative in two lines: each side's d6, then the panels each of its
    characters gets and who acts first (a tie: both in one Agility order)."""
    if not sides:
        return [Text("Side d6s not rolled yet", DIM)]
    rolls: Mapping[str, int] = sides.rolls
    panels: Mapping[str, int] = sides.panels
    dice = Text("d6 ", DIM)
    for i, (side, face) in enumerate(rolls.items()):
        if i:
            dice.append(" · ", DIM)
        dice.append(f"{side_name(side)} ", SIDE_TONES.get(side, FG))
        dice.append(str(face), "bold " + FG)
    counts = set(panels.values())
    if sides.simultaneous:
        each = next(iter(counts), 0)
        how = Text.assemble(("Tie: ", "bold " + MIXED), (f"{each} panels each", FG),
                            (", by Agility", DIM))
        return [dice, how]
    first = sides.first or ""
    how = Text()
    if len(counts) == 1:
        n = next(iter(counts))
        how.append(f"{n} panel{'s' * (n != 1)} each", FG)
    else:
        how.append(" · ".join(f"{side_name(s)} {n}" for s, n in panels.items()), FG)
    if first:
        how.append(" · ", DIM)
        how.append(f"{side_name(first)} first", "bold " + SIDE_TONES.get(first, FG))
    return [dice, how]


def repay_words(row: TrackerRow, side_panels: int, width: int = 30) -> str:
    """How a character's panels owed are repaid: from the panels of its turn this round (not
    taken yet), else from its next turn's; at the limit no dodge or parry until then. Said
    shorter when the long words do not fit ``width`` (with the row's indent of 2)."""
    owed = row.columns.arrears if isinstance(row.columns, PanelColumns) else 0
    if owed <= 0:
        return ""
    limit = " (limit)" if owed >= ARREARS_LIMIT else ""
    if row.acting or row.acted or side_panels <= 0:
        long, short = "paid from its next turn", "repaid next turn"
    elif owed > side_panels:
        long, short = (f"{side_panels} paid this round, rest next",
                       f"{side_panels} now, {owed - side_panels} next")
    else:
        long, short = "paid from its turn this round", "repaid this round"
    for words in (f"owes {owed}{limit}: {long}", f"owes {owed}{limit} · {short}",
                  f"owes {owed}{'!' if limit else ''} · {short}"):
        if len(words) + 2 <= width:
            return words
    return f"owes {owed}{'!' if limit else ''}"


OUT_WORDS = {"dying": "dying", "stable": "stable", "unconscious": "out cold", "dead": "dead"}
"""How a character out of a panels fight is, by its conditions (first found, in this order:
"stable" before "dying", since a stabilised one keeps both)."""


def out_words(row: TrackerRow) -> str:
    """Why a character is out: how it left (fled, surrendered), else its state when it went
    down (dying, stable, out cold), else "down"."""
    how = row.out
    if how != "down":
        return how
    conds = set(row.conditions)
    for cond in ("dead", "stable", "dying", "unconscious"):
        if cond in conds:
            return OUT_WORDS[cond]
    return how


def low_tracks(row: TrackerRow, cols: PanelColumns) -> set[str]:
    """The tracks that read bad: at 0, or (the character stunned) the lower share of its
    maximum (both when equal); the engine says when a character is stunned."""
    shares = {"kill": cols.kill / max(cols.kill_max, 1),
              "stun": cols.stun / max(cols.stun_max, 1)}
    low = {t for t, v in shares.items() if v <= 0}
    if "stunned" in row.conditions:
        least = min(shares.values())
        low |= {t for t, v in shares.items() if v == least}
    return low


def _track(label: str, value: int, top: int, low: bool) -> Text:
    return Text.assemble((f"{label} ", DIM), (f"{value}", ("bold " + BAD) if low else FG),
                         (f"/{top}", DIM))


def panel_tracker_text(round_no: int, sides: SideInitiative | None,
                       rows: Sequence[TrackerRow], width: int = 30) -> Text:
    """The panels game's tracker as one Rich Text: the round, each side's d6 and panels, then
    per character (turn order): mark, name, panels left (● left, ○ spent of its side's), who
    plays it or how it left (on a hero's turn a foe the referee plays shows its band from that
    hero instead of "ref", shortened as ``tracker_text`` does); a line of Kill and Stun (bad at
    10% or less) and conditions; panels owed and how they are repaid. Those out are struck
    through, on one line."""
    out = Text(no_wrap=True, overflow="ellipsis")
    out.append(f"⚔ Round {round_no}".upper(), "bold " + SECONDARY)
    for line in sides_lines(sides):
        out.append("\n")
        out.append_text(line)
    panels: Mapping[str, int] = sides.panels if sides is not None else {}
    top = max(panels.values(), default=0)
    dots_w = max(top, 1)
    name_w = max(width - 2 - (dots_w + 1) - 4, 6)  # a cell spare for a scrollbar
    for r in rows:
        out.append("\n")
        cols = r.columns if isinstance(r.columns, PanelColumns) else PanelColumns(0, 0, 0, 0)
        gone = bool(r.out)
        dim = gone or not r.present
        acting = r.acting
        side = r.side
        out.append("▶" if acting else " ", "bold " + ACCENT)
        name = r.name
        if len(name) > name_w:
            name = name[:name_w - 1] + "…"
        tone = DIM if dim else SIDE_TONES.get(side, FG)
        out.append(f"{name:<{name_w}}", ("bold " if acting else "") + tone
                   + (" strike" if gone else ""))
        mine = int(panels.get(side, 0))
        left = max(0, min(cols.panels, dots_w))
        if gone:
            out.append(f" {out_words(r)}", DIM)
            continue
        out.append(" " + " " * (dots_w - max(mine, left)))
        out.append("●" * left, "bold " + ACCENT if acting else FG)
        out.append("○" * max(mine - left, 0), DIM)
        ctl = "you" if r.control == "player" else "ref"
        if r.band and ctl == "ref":  # a foe's band from the hero acting, for "ref"
            room = width - name_w - dots_w - 4
            word = r.band if len(r.band) <= room else BAND_SHORT.get(r.band, r.band)
            out.append(f" {word}", BAND_TONES.get(r.band, DIM))
        else:
            out.append(f" {ctl}", ACCENT if ctl == "you" else DIM)
        low = low_tracks(r, cols)
        line = Text("  ")
        line.append_text(_track("Kill", cols.kill, cols.kill_max, "kill" in low))
        line.append("  ")
        line.append_text(_track("Stun", cols.stun, cols.stun_max, "stun" in low))
        conds = list(r.conditions)
        if cols.held_by:
            conds.append(f"held by {cols.held_by}")
        if conds:
            more = " " + ", ".join(conds)
            if line.cell_len + len(more) <= width:
                line.append(more, BAD)
            else:
                line.append("\n  " + ", ".join(conds), BAD)
        out.append("\n")
        out.append_text(line)
        owed = repay_words(r, mine, width)
        if owed:
            tone = BAD if cols.arrears >= ARREARS_LIMIT else MIXED
            out.append("\n  " + owed, tone)
    return out


class Tracker(Static):
    """The initiative tracker; call :meth:`show` after every action (hidden out of fights)."""

    DEFAULT_CSS = """
    Tracker { height: auto; margin-bottom: 1; }
    """

    text = Text()
    """What is shown now."""

    def show_rows(self, round_no: int, rows: Sequence[TrackerRow],
                  sides: SideInitiative | None = None, style: str = "initiative") -> None:
        """Draw the round and rows (a no-op when nothing changed) in the game's ``style``:
        "panels" (``sides``: the round's side initiative) or "initiative"."""
        self._shown = (round_no, list(rows), sides, style)
        width = self.size.width or 26
        text = (panel_tracker_text(round_no, sides, rows, width) if style == "panels"
                else tracker_text(round_no, rows, width))
        if text == self.text and text.spans == self.text.spans:
            return
        self.text = text
        self.update(text)

    _shown: tuple[int, list[TrackerRow], SideInitiative | None, str] | None = None
    """What :meth:`show_rows` was last given (drawn again at a new width)."""

    def on_resize(self, event: events.Resize) -> None:
        """Draw the rows again for the width the tracker has now (the first drawing may come
        before the sidebar is laid out)."""
        if self._shown is not None:
            self.show_rows(*self._shown)

    def acting_line(self) -> int:
        """The line of the acting row (0 is the header), for scrolling it into view."""
        for i, line in enumerate(self.text.plain.split("\n")):
            if line.startswith("▶"):
                return i
        return 0
