"""The play screen's top bar: the campaign, who acts (in a fight, whose turn it is), the
campaign's pools, the session, the scene and its place, the game system and who rolls the dice."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.widgets import Static

from engine.game import Game
from engine.tui.fight_view import fight_round
from engine.tui.text import ACCENT, BAD, DIM, FG, GOOD

PLACE_WIDTH = 20
"""The scene's place is cut to this many characters on the bar."""


def topbar_text(game: Game) -> Text:
    """The top bar's one line for ``game`` as it stands."""
    st = game.state
    hero = st.hero
    out = Text()
    out.append(f" {st.name} ", "bold #1a1b26 on #bb9af7")
    out.append("  ")
    fight = game.fight
    if fight is not None:  # in a fight, whose turn it is (the tracker has the rest)
        acting = st.actors.get(fight.encounter.acting or "")
        out.append(f"⚔ {fight_round(game)}", "bold " + BAD)
        if acting is not None:
            out.append(f" · {acting.name}'s turn", "bold " + ACCENT)
    else:
        if len(st.party) > 1:
            out.append("▶ ", ACCENT)
        out.append(hero.name, "bold " + ACCENT)
        if hero.conditions:
            names = ", ".join(game.pack.conditions[c].name
                              if c in game.pack.conditions else c for c in hero.conditions)
            out.append(f" ({names})", BAD)
        others = [h.name for h in st.heroes if h.id != st.acting]
        if others:
            out.append(f" acting · with {', '.join(others)} (F3)", DIM)
    for track in game.pack.system.tracks:  # the campaign's pools (Masks: Team)
        if track.scope == "campaign" and track.id in st.pools:
            out.append(f" · {track.name} {st.pools[track.id]}", GOOD)
    where = st.scene.location if st.scene.open else ""
    scene = (f"Scene {st.scene.number}" + ("" if where else f": {st.scene.title}")
             if st.scene.open else f"after scene {st.scene.number}")
    out.append(f"  ·  Session {st.session} · {scene}", FG)
    if where:  # where the scene is now (the fiction moves it); its title is in the journal
        where = where if len(where) <= PLACE_WIDTH else where[:PLACE_WIDTH - 1] + "…"
        out.append(f" · 📍 {where}", ACCENT)
    out.append(f"  ·  {game.pack.system.name}", DIM)
    if st.dice_mode == "physical":
        out.append(" · your dice", DIM)
    elif st.dice_mode == "mixed":
        out.append(" · dice: ask", DIM)
    return out


class TopBar(Static):
    """One line over the journal; redrawn only when its text changes."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._shown = Text()

    def show(self, game: Game) -> None:
        """Show the line for ``game`` as it stands now."""
        out = topbar_text(game)
        if out != self._shown:
            self._shown = out
            self.update(out)
