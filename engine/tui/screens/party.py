"""The party: a dialog that makes a hero (for the new-campaign form, or to join a campaign in
play) and the picker that hands the spotlight to another hero of the party."""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input, Label, Select, Static

from engine.content.loader import Pack
from engine.game import Game
from engine.heroes import parse_stats
from engine.tui.screens.dialogs import ChoiceDialog, Dialog, Submit
from engine.tui.text import BAD, DIM, FG, GOOD, stat_shown
from engine.tui.widgets.keybar import KeyBar

CUSTOM = "__custom__"
"""The build select's value for a custom stat line."""
ADD = "__add__"
"""The picker's option id for "add a hero to the party"."""


def _field(placeholder: str, **kwargs: Any) -> Input:
    return Input(placeholder=placeholder, compact=True, **kwargs)


def hero_summary(pack: Pack, archetype: str | None, stats: dict[str, int] | None) -> str:
    """"Pawnshop Paladin" or the custom line "Danger +1, Freak 0, ..." for a hero being made."""
    if archetype and archetype in pack.archetypes:
        return pack.archetypes[archetype].name
    stats = stats or {}
    return ", ".join(f"{st.name} {stat_shown(pack, stats.get(sid, 0))}"
                     for sid, st in pack.stats.items())


class AddHeroDialog(Dialog):
    """Name a hero and choose their build (an archetype or a custom stat line).

    Answers ``{"name", "archetype", "stats"}`` (the arguments of ``Game.add_hero`` and of a
    ``Game.new`` party entry); the stat line is checked as it is typed.
    """

    DEFAULT_CSS = """
    AddHeroDialog #hero-stats { height: auto; }
    AddHeroDialog .hero-stat { width: 1fr; height: auto; }
    AddHeroDialog .hero-stat Input { width: 100%; }
    AddHeroDialog #hero-pitch, AddHeroDialog #hero-check { height: auto; margin-bottom: 1; }
    """

    def __init__(self, pack: Pack, submit: Submit, title: str = "Add a hero to the party",
                 taken: Collection[str] = ()) -> None:
        super().__init__(title)
        self.pack = pack
        self.submit = submit
        self.taken = {n.strip().lower() for n in taken}
        """Names already in the party (a second hero of the same name is refused)."""

    def compose(self) -> ComposeResult:
        """Name, build, the custom line (when chosen), buttons."""
        options = [(a.name, a.id) for a in self.pack.system.archetypes]
        options.append((f"Custom {self.pack.system.stat_label.lower()}", CUSTOM))
        yield KeyBar()
        with Vertical(classes="dialog wide"):
            yield Label(self.dialog_title, classes="dialog-title")
            with Horizontal(classes="row"):
                yield Label("Name", classes="row-label")
                yield _field("e.g. Tin", id="hero-name")
            with Horizontal(classes="row"):
                yield Label("Build", classes="row-label")
                yield Select(options, value=options[0][1], allow_blank=False, compact=True,
                             id="hero-build")
            yield Static(id="hero-pitch")
            with Horizontal(id="hero-stats"):
                for sid, st in self.pack.stats.items():
                    with Vertical(classes="hero-stat"):
                        yield Label(st.name)
                        yield _field("0", type="integer", id=f"hero-stat-{sid}",
                                     classes="hero-stat-input")
            yield Static(id="hero-check")
            yield self.error_line()
            yield self.ok_cancel("Add (enter)")

    def on_mount(self) -> None:
        """Show the first build; focus the name."""
        self._build_changed()
        self.query_one("#hero-name", Input).focus()

    def _custom(self) -> bool:
        return self.query_one("#hero-build", Select).value == CUSTOM

    def _stats(self) -> tuple[dict[str, int], list[str]]:
        return parse_stats(self.pack, {sid: self.query_one(f"#hero-stat-{sid}", Input).value
                                       for sid in self.pack.stats})

    @on(Select.Changed, "#hero-build")
    def _build_changed(self) -> None:
        custom = self._custom()
        self.query_one("#hero-stats").display = custom
        pitch = self.query_one("#hero-pitch", Static)
        if custom:
            pitch.update(Text(f"Set each {self.pack.system.stat_label[:-1].lower()}"
                              " yourself.", FG))
            self._check()
            return
        a = self.pack.archetypes[str(self.query_one("#hero-build", Select).value)]
        text = Text(a.pitch.strip(), FG)
        text.append("\n" + hero_summary(self.pack, None, dict(a.stats)), DIM)
        pitch.update(text)
        self.query_one("#hero-check", Static).update("")

    @on(Input.Changed, ".hero-stat-input")
    def _check(self) -> None:
        _, problems = self._stats()
        out = (Text("✗ " + "; ".join(problems), BAD) if problems
               else Text(f"✓ a valid {self.pack.system.stat_label.lower()} line", GOOD))
        self.query_one("#hero-check", Static).update(out)

    def hero(self) -> dict[str, Any] | str:
        """The hero as ``Game.add_hero`` takes it, or what is wrong."""
        name = self.query_one("#hero-name", Input).value.strip()
        if not name:
            return "Name the hero first."
        if name.lower() in self.taken:
            return f"There is already a hero called {name} in the party."
        if not self._custom():
            return {"name": name, "archetype": str(self.query_one("#hero-build", Select).value),
                    "stats": None}
        stats, problems = self._stats()
        if problems:
            return "The hero's line is not valid: " + "; ".join(problems)
        return {"name": name, "archetype": None, "stats": stats}

    @on(Input.Submitted)
    @on(Button.Pressed, "#ok")
    def _submit(self) -> None:
        hero = self.hero()
        if isinstance(hero, str):
            self.show_error(hero)
            self.query_one("#hero-name", Input).focus()
            return
        self.answer(hero)

    @on(Button.Pressed, "#cancel")
    def _cancel(self) -> None:
        self.finish(None)


def party_options(game: Game) -> list[dict[str, Any]]:
    """The picker's options: each hero of the party (the acting one disabled, saying so; one
    taken out says so), then "add a hero"."""
    st = game.state
    pack = game.pack
    out: list[dict[str, Any]] = []
    for h in st.heroes:
        bits = [hero_summary(pack, h.archetype, h.stats)]
        if h.conditions:
            bits.append(", ".join(pack.conditions[c].name if c in pack.conditions else c
                                  for c in h.conditions))
        if h.taken_out:
            bits.append("taken out of the scene")
        option: dict[str, Any] = {"id": h.id, "label": h.name, "detail": " · ".join(bits)}
        if h.id == st.acting:
            option["disabled"] = "acting now"
        out.append(option)
    out.append({"id": ADD, "label": "+ Add a hero to the party…",
                "detail": "another hero you play too; they act when you switch to them"})
    return out


class SwitchHeroDialog(ChoiceDialog):
    """Who acts now: pick a hero of the party (or add one). ``switch(id)`` hands them the
    spotlight (an error message or None); ``add()`` opens the dialog that makes a hero."""

    def __init__(self, game: Game, switch: Submit, add: Callable[[], None]) -> None:
        acting = game.state.hero.name
        message = Text(f"{acting} acts now. ", FG)
        message.append("The hero you pick makes the next moves; the sheet shows them.", DIM)
        super().__init__("Who acts now?", message, party_options(game), 1, 1,
                         self._picked, cancel_label="Cancel")
        self._switch = switch
        self._add = add

    def _picked(self, ids: list[str]) -> str | None:
        if ids and ids[0] == ADD:
            self._add()  # the play screen queues it: it opens once this picker closes
            return None
        return self._switch(ids[0]) if ids else None
