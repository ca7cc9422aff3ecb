"""The initiative tracker shown while a fight is under way: the round, then one row per
character in turn order (▶ on the one acting), drawn from ``Game.tracker()``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.text import Text
from textual.widgets import Static

from engine.tui.text import ACCENT, BAD, DIM, FG, GOOD, SECONDARY

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


def short(condition: str) -> str:
    """A condition's short form (its first three letters when it has none)."""
    return SHORT.get(condition, condition[:3])


def tracker_text(round_no: int, rows: Sequence[Mapping[str, Any]],
                 width: int = 30) -> Text:
    """The tracker as one Rich Text: a header line, then a row per character: mark,
    initiative, name, damage penalty, who plays it ("you"/"ref") or how it left the fight;
    conditions (short) after the name when they fit, else on the line below."""
    out = Text(no_wrap=True, overflow="ellipsis")
    head = "Surprise round" if round_no == 0 else f"Round {round_no}"
    out.append(f"⚔ {head}".upper(), "bold " + SECONDARY)
    name_w = max(min(NAME_WIDTH, width - 11), 6)
    for r in rows:
        out.append("\n")
        gone = bool(r.get("out"))
        dim = gone or not r.get("present", True)
        mark = "▶" if r.get("acting") else " "
        out.append(mark, "bold " + ACCENT)
        out.append(f"{r.get('initiative', 0):>2} ", DIM if dim else FG)
        name = str(r.get("name", ""))
        if len(name) > name_w:
            name = name[:name_w - 1] + "…"
        tone = DIM if dim else SIDE_TONES.get(str(r.get("side")), FG)
        bold = "bold " if r.get("acting") else ""
        strike = " strike" if gone else ""
        out.append(f"{name:<{name_w}}", bold + tone + strike)
        dmg = int(r.get("damage") or 0)
        out.append(f"{'-' + str(dmg) if dmg else '':>3}", DIM if dim else BAD)
        if gone:
            out.append(f" {r['out']}", DIM)
        else:
            ctl = "you" if r.get("control") == "player" else "ref"
            out.append(f" {ctl}", (ACCENT if ctl == "you" else DIM))
        conds = [] if gone else [short(str(c)) for c in r.get("conditions") or []]
        if r.get("held") and not gone:
            conds.append("held")
        if conds:
            out.append("\n    " + " ".join(conds), DIM if dim else BAD)
    return out


class Tracker(Static):
    """The initiative tracker; call :meth:`show` after every action (hidden out of fights)."""

    DEFAULT_CSS = """
    Tracker { height: auto; margin-bottom: 1; }
    """

    text = Text()
    """What is shown now."""

    def show_rows(self, round_no: int, rows: Sequence[Mapping[str, Any]]) -> None:
        """Draw the round and rows (a no-op when nothing changed)."""
        text = tracker_text(round_no, rows, self.size.width or 26)
        if text == self.text and text.spans == self.text.spans:
            return
        self.text = text
        self.update(text)

    def acting_line(self) -> int:
        """The line of the acting row (0 is the header), for scrolling it into view."""
        for i, line in enumerate(self.text.plain.split("\n")):
            if line.startswith("▶"):
                return i
        return 0
