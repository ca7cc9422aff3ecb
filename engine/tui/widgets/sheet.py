"""The character sheet: labels, conditions, tracks, bonuses, the cast and the scene, live."""

from __future__ import annotations

from rich.console import Group
from rich.padding import Padding
from rich.text import Text
from textual.widgets import Static

from engine.game import Game
from engine.tui.text import ACCENT, BAD, DIM, FG, GOOD, MIXED, PRIMARY, SECONDARY


def _head(out: Text, title: str) -> None:
    out.append(f"\n{title.upper()}\n", "bold " + SECONDARY)


def sheet_text(game: Game) -> Text:
    """The whole sheet as one Rich Text (rebuilt after every action; it is small)."""
    st = game.state
    pack = game.pack
    hero = st.hero
    out = Text(no_wrap=False)
    out.append(hero.name, "bold " + ACCENT)
    arche = pack.archetypes[hero.archetype].name if hero.archetype in pack.archetypes else (
        "Custom hero")
    out.append(f"\n{arche}", DIM)
    if hero.taken_out:
        out.append("\n✖ taken out of the scene", "bold " + BAD)

    _head(out, pack.system.stat_label)
    width = max((len(d.name) for d in pack.stats.values()), default=6)
    for sid, d in pack.stats.items():
        v = hero.stats.get(sid, 0)
        out.append(f"{d.name:<{width}} ", FG)
        out.append(f"{v:+d} ", "bold " + (GOOD if v > 0 else BAD if v < 0 else FG))
        for n in range(d.min, d.max + 1):
            out.append("●" if n == v else "·", ACCENT if n == v else DIM)
        if sid in hero.locked:
            out.append(" 🔒 locked", MIXED)
        out.append("\n")

    if pack.conditions:
        _head(out, "Conditions")
        for cid, c in pack.conditions.items():
            marked = cid in hero.conditions
            out.append("■ " if marked else "□ ", BAD if marked else DIM)
            out.append(c.name, ("bold " + BAD) if marked else DIM)
            if marked and c.penalises:
                names = ", ".join(pack.moves[m].name if m in pack.moves else m
                                  for m in c.penalises)
                out.append(f" {c.penalty:+d} {names}", DIM)
            if cid in st.scene.clearing:
                out.append(" (clearing taken)", GOOD)
            out.append("\n")

    tracks = [(t, hero.tracks.get(t.id, t.start)) for t in pack.system.tracks
              if t.scope == "hero"]
    pools = [(t, st.pools.get(t.id, t.start)) for t in pack.system.tracks
             if t.scope == "campaign"]
    if tracks or pools:
        _head(out, "Tracks")
        for track, v in tracks + pools:
            out.append(f"{track.name:<10}", FG)
            if track.max is not None and track.max <= 12:
                out.append("●" * v, ACCENT)
                out.append("○" * max(track.max - v, 0), DIM)
                out.append(f" {v}/{track.max}\n", DIM)
            else:
                out.append(f"{v}\n", "bold " + ACCENT)

    if st.bonuses or st.holds:
        _head(out, "Bonuses and hold")
        for b in st.bonuses:
            scope = (" on " + ", ".join(pack.moves[m].name if m in pack.moves else m
                                        for m in b.moves)) if b.moves else ""
            vs = f" vs {st.npcs[b.target].name}" if b.target in st.npcs else ""
            until = "next roll" if b.expires == "roll" else f"this {b.expires}"
            out.append(f"{b.amount:+d} {b.kind}", "bold " + GOOD)
            out.append(f"{scope}{vs}: {b.reason} ({until})\n", FG)
        for h in st.holds:
            name = pack.moves[h.move].name if h.move in pack.moves else h.move
            out.append(f"Hold {h.amount}", "bold " + GOOD)
            out.append(f" on {name} ({h.expires})\n", FG)

    flags = [f.replace("_", " ") for f in hero.flags]
    if flags or hero.advances:
        _head(out, "Growth")
        for f in flags:
            out.append(f"★ {f}\n", PRIMARY)
        if hero.advances:
            out.append(f"{len(hero.advances)} advancement(s) taken\n", DIM)

    if st.npcs:
        _head(out, "Cast")
        cast = sorted(st.npcs.values(), key=lambda npc: (not npc.present, npc.name))
        for npc in cast:
            out.append("● " if npc.present else "○ ", GOOD if npc.present else DIM)
            out.append(npc.name, ("bold " + FG) if npc.present else DIM)
            out.append(f"\n  {npc.role}{'' if npc.present else ', not here'}", DIM)
            if npc.influence_over_hero:
                out.append(" · ⇐ Influence on you", MIXED)
            if npc.hero_has_influence:
                out.append(" · ⇒ yours on them", GOOD)
            if npc.conditions:
                names = ", ".join(pack.conditions[c].name if c in pack.conditions else c
                                  for c in npc.conditions)
                out.append(f" · {names}", BAD)
            out.append("\n")

    if st.threats:
        _head(out, "Threats")
        for threat in st.threats.values():
            out.append("☠ " if threat.active else "✓ ", BAD if threat.active else DIM)
            out.append(threat.name + "\n  ", FG)
            out.append("▰" * threat.clock, BAD)
            out.append("▱" * max(threat.size - threat.clock, 0), DIM)
            out.append(f" {threat.clock}/{threat.size}\n", DIM)
            if threat.active and threat.clock < len(threat.steps):
                out.append(f"  next: {threat.steps[threat.clock]}\n", DIM)
            elif threat.doom:
                out.append(f"  doom: {threat.doom}\n", DIM)

    _head(out, f"Session {st.session}")
    sc = st.scene
    if sc.open:
        out.append(f"Scene {sc.number}: {sc.title}\n", "bold " + FG)
        if sc.location:
            out.append(f"{sc.location}\n", DIM)
        if sc.stakes:
            out.append(f"At stake: {sc.stakes}\n", DIM)
    else:
        out.append(f"Between scenes (scene {sc.number} ended)\n", DIM)
    team = st.pools.get("team")
    if team is not None:
        out.append(f"Team pool {team}", "bold " + ACCENT)
    return out


def hanging(text: Text) -> Group:
    """``text`` line by line; a line that starts with two spaces keeps its indent when it wraps."""
    parts: list[Text | Padding] = []
    for line in text.split("\n", allow_blank=True):
        if line.plain.startswith("  "):
            parts.append(Padding(line[2:], (0, 0, 0, 2)))
        else:
            parts.append(line)
    return Group(*parts)


class Sheet(Static):
    """The sidebar character sheet; call :meth:`show` after every action."""

    text = Text()
    """The sheet as plain styled text (what is shown, before wrapping)."""

    def show(self, game: Game) -> None:
        """Render the sheet for the game's current state (a no-op when nothing changed)."""
        text = sheet_text(game)
        if text == self.text:
            return
        self.text = text
        self.update(hanging(text))
