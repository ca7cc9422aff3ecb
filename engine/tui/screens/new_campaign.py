"""The new-campaign form: system, names, the hero (archetype or custom line), more heroes for
a party (optional), NPCs, dice."""

from __future__ import annotations

from typing import Any, cast

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import (
    Button,
    Input,
    Label,
    RadioButton,
    RadioSet,
    Select,
    Static,
)

from engine.content.loader import Pack, discover, get_pack
from engine.errors import EngineError
from engine.heroes import parse_stats
from engine.tui.host import AppHost
from engine.tui.screens.party import AddHeroDialog, hero_summary
from engine.tui.text import ACCENT, BAD, DIM, FG, GOOD, stat_shown
from engine.tui.widgets.keybar import KeyBar

CUSTOM = "__custom__"
NO_NAME = "Name the campaign first."
"""The archetype select's value for a custom stat line."""
NPC_ROWS = 5
"""How many NPC rows the form offers."""


def _field(placeholder: str, **kwargs: Any) -> Input:
    """A compact (borderless) input, so the form fits 80x24."""
    return Input(placeholder=placeholder, compact=True, **kwargs)


class NewCampaignScreen(Screen[None]):
    """Create a campaign through a keyboard-only form."""

    BINDINGS = [
        Binding("ctrl+s", "create", "Start the story"),
        Binding("ctrl+r", "suggest", "Suggested NPCs"),
        Binding("ctrl+t", "add_hero", "Add a hero", show=False),
        Binding("escape", "cancel", "Cancel"),
        Binding("f1", "app.help", "Help"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.pack: Pack | None = None
        self.systems: dict[str, str] = {}
        self._suggested: list[tuple[str, str, str]] = []
        self.party: list[dict[str, Any]] = []
        """More heroes after the first ({"name", "archetype", "stats"}), in order."""

    @property
    def sidekick(self) -> AppHost:
        """The app, typed."""
        return cast(AppHost, self.app)  # Textual types every screen's app as App[object]

    def compose(self) -> ComposeResult:
        """The form."""
        paths = discover(self.sidekick.content_dirs)
        self.systems = {sid: sid for sid in paths}
        for sid in paths:
            try:
                self.systems[sid] = get_pack(sid, self.sidekick.content_dirs).system.name
            except EngineError:
                self.systems[sid] = f"{sid} (cannot load: choose it to see why)"
        for sid in self.systems:
            try:
                self.pack = get_pack(sid, self.sidekick.content_dirs)
                break
            except EngineError:
                continue
        arche_opts = self._archetype_options()
        role_opts = self._role_options()
        with VerticalScroll(id="form"):
            yield Static(Text("New campaign", "bold " + ACCENT), classes="form-title")
            with Horizontal(classes="field"):
                yield Label("Game", classes="field-label")
                if self.systems:
                    yield Select([(name, sid) for sid, name in self.systems.items()],
                                 value=self.pack.id if self.pack else next(iter(self.systems)),
                                 allow_blank=False, compact=True, id="system")
                else:
                    yield Static("No content packs found.", classes="error-text")
            with Horizontal(classes="field"):
                yield Label("Campaign name", classes="field-label")
                yield _field("e.g. Night Shift", id="name")
            with Horizontal(classes="field"):
                yield Label("Hero name", classes="field-label")
                yield _field("e.g. Nova", id="hero")
            yield Static(Text("Your hero", "bold " + ACCENT), classes="form-section")
            with Horizontal(classes="field"):
                yield Label("Build", classes="field-label")
                yield Select(arche_opts, allow_blank=False, compact=True, id="archetype")
            yield Static(id="pitch")
            yield Horizontal(id="stats")
            yield Static(id="validation")
            yield Static(id="party-list", classes="hint")
            with Horizontal(classes="buttons", id="party-buttons"):
                yield Button("Add another hero to the party (ctrl+t)", id="add-hero",
                             compact=True)
                yield Button("Remove the last one", id="remove-hero", compact=True)
            yield Static(Text("People in your hero's life", "bold " + ACCENT),
                         classes="form-section")
            yield Static(self._npc_hint(), id="npc-hint", classes="hint")
            for i in range(NPC_ROWS):
                with Horizontal(classes="npc-row"):
                    yield _field("name", id=f"npc-name-{i}", classes="npc-name")
                    yield Select(role_opts, allow_blank=False, compact=True,
                                 id=f"npc-role-{i}", classes="npc-role")
                    yield _field("note", id=f"npc-note-{i}", classes="npc-note")
            yield Button("Use the suggested NPCs (ctrl+r)", id="suggest", compact=True)
            yield Static(Text("Dice and first scene", "bold " + ACCENT), classes="form-section")
            with RadioSet(id="dice"):
                yield RadioButton("Seeded dice: the app rolls (reproducible)", value=True,
                                  id="seeded")
                yield RadioButton("Physical dice: you roll and type the faces", id="physical")
                yield RadioButton("Mixed: each roll asks (roll for me, or type the faces)",
                                  id="mixed")
            with Horizontal(classes="field"):
                yield Label("Seed (optional)", classes="field-label")
                yield _field("random", type="integer", id="seed")
            with Horizontal(classes="field"):
                yield Label("First scene", classes="field-label")
                yield _field("Opening scene", id="scene-title")
            with Horizontal(classes="field"):
                yield Label("Where", classes="field-label")
                yield _field("e.g. the roof of the Halcyon Museum", id="scene-where")
            with Horizontal(classes="buttons"):
                yield Button("Start the story (ctrl+s)", variant="success", id="create",
                             compact=True)
                yield Button("Cancel (esc)", id="cancel", compact=True)
        yield Static(id="form-error")  # below the form, not in it: always on screen
        yield KeyBar()

    def _archetype_options(self) -> list[tuple[str, str]]:
        if self.pack is None:
            return [("(no game loaded)", CUSTOM)]
        options = [(a.name, a.id) for a in self.pack.system.archetypes]
        options.append((f"Custom {self.pack.system.stat_label.lower()}", CUSTOM))
        return options

    def _npc_hint(self) -> Text:
        roles = (", ".join(r.replace("_", " ") for r in self.pack.system.roles) if self.pack
                 else "any role")
        return Text(f"A few people in your hero's life ({roles}). Leave a name empty to skip"
                    " the row; Ctrl+R fills in the build's suggestions.", style=DIM)

    def _role_options(self) -> list[tuple[str, str]]:
        roles = self.pack.system.roles if self.pack else ["teammate"]
        return [(r.replace("_", " ").capitalize(), r) for r in roles]

    def on_mount(self) -> None:
        """Load the first system and focus the campaign name."""
        self._show_party()
        if self.pack is not None:
            pack_id = self.pack.id
            self.call_after_refresh(self._load_system, pack_id)
        else:
            self._error("No game content could be loaded; see the error above.")
        self.query_one("#name", Input).focus()

    # ------------------------------------------------------------------ system and hero

    @on(Select.Changed, "#system")
    def _system_changed(self, event: Select.Changed) -> None:
        if isinstance(event.value, str) and (self.pack is None or event.value != self.pack.id):
            self._load_system(event.value)

    def _load_system(self, sid: str) -> None:
        try:
            pack = get_pack(sid, self.sidekick.content_dirs)
        except EngineError as e:
            self.pack = None
            self._error(e.message)
            return
        self._error(None)
        untouched = self._rows_untouched()
        if self.pack is not None and pack.id != self.pack.id and self.party:
            self.party = []  # heroes built for another game
            self._show_party()
        self.pack = pack
        arche = self.query_one("#archetype", Select)
        options = self._archetype_options()
        arche.set_options(options)
        arche.value = options[0][1]
        roles = self._role_options()
        self.query_one("#npc-hint", Static).update(self._npc_hint())
        for i in range(NPC_ROWS):
            sel = self.query_one(f"#npc-role-{i}", Select)
            sel.set_options(roles)
            sel.value = roles[min(i, len(roles) - 1)][1]
        stats = self.query_one("#stats", Horizontal)
        stats.remove_children()
        boxes: list[Vertical] = []
        for st in pack.stats.values():
            boxes.append(Vertical(Label(st.name),
                                  _field("0", type="integer", id=f"stat-{st.id}",
                                         classes="stat"),
                                  classes="stat-box"))
        stats.mount_all(boxes)
        if untouched:
            self._fill_npcs([])
        self._archetype_changed()

    @on(Select.Changed, "#archetype")
    def _archetype_changed(self) -> None:
        pack = self.pack
        if pack is None:
            return
        value = self.query_one("#archetype", Select).value
        custom = value == CUSTOM
        self.query_one("#stats").display = custom
        pitch = self.query_one("#pitch", Static)
        if custom:
            rules = pack.system.hero
            text = Text(f"Set each {pack.system.stat_label[:-1].lower()} yourself", FG)
            limits = []
            if rules.stat_min is not None and rules.stat_max is not None:
                limits.append(f"from {stat_shown(pack, rules.stat_min)} to"
                              f" {stat_shown(pack, rules.stat_max)}")
            if rules.stat_total is not None:
                limits.append(f"adding up to {rules.stat_total:+d}")
            if limits:
                text.append(" (" + ", ".join(limits) + ")", DIM)
            pitch.update(text)
            self._validate()
            return
        a = pack.archetypes.get(str(value))
        if a is None:
            return
        text = Text(a.pitch.strip(), FG)
        text.append("\n")
        for sid, st in pack.stats.items():
            text.append(f"{st.name}\u00a0", DIM)  # no break between a stat and its value
            text.append(f"{stat_shown(pack, a.stats.get(sid, 0))}   ", "bold " + ACCENT)
        pitch.update(text)
        self.query_one("#validation", Static).update("")
        new = [(n.name, n.role, n.note) for n in a.suggested_npcs]
        if self._rows_untouched():
            self._fill_npcs(new)
        self._suggested = new

    def _rows(self) -> list[tuple[str, str, str]]:
        out = []
        for i in range(NPC_ROWS):
            name = self.query_one(f"#npc-name-{i}", Input).value.strip()
            role = self.query_one(f"#npc-role-{i}", Select).value
            note = self.query_one(f"#npc-note-{i}", Input).value.strip()
            out.append((name, str(role), note))
        return out

    def _rows_untouched(self) -> bool:
        named = [r for r in self._rows() if r[0]]
        return not named or named == self._suggested[:NPC_ROWS]

    def _fill_npcs(self, npcs: list[tuple[str, str, str]]) -> None:
        roles = self.pack.system.roles if self.pack else []
        for i in range(NPC_ROWS):
            name, role, note = npcs[i] if i < len(npcs) else ("", "", "")
            self.query_one(f"#npc-name-{i}", Input).value = name
            self.query_one(f"#npc-note-{i}", Input).value = note
            if role in roles:
                self.query_one(f"#npc-role-{i}", Select).value = role

    def action_suggest(self) -> None:
        """Fill the NPC rows with the build's suggested NPCs."""
        if not self._suggested:
            self.notify("This build suggests no NPCs; name your own.", severity="warning")
            return
        self._fill_npcs(self._suggested)

    @on(Button.Pressed, "#suggest")
    def _suggest_button(self) -> None:
        self.action_suggest()

    def _custom_stats(self) -> tuple[dict[str, int], list[str]]:
        assert self.pack is not None
        return parse_stats(self.pack, {sid: self.query_one(f"#stat-{sid}", Input).value
                                       for sid in self.pack.stats})

    @on(Input.Changed, ".stat")
    def _validate(self) -> None:
        if self.pack is None:
            return
        _, problems = self._custom_stats()
        out = Text()
        if problems:
            out.append("✗ " + "; ".join(problems), BAD)
        else:
            out.append(f"✓ a valid {self.pack.system.stat_label.lower()} line", GOOD)
        self.query_one("#validation", Static).update(out)

    # ------------------------------------------------------------------ the party

    def _show_party(self) -> None:
        """The list of the party's other heroes (hidden while there are none)."""
        listing = self.query_one("#party-list", Static)
        listing.display = bool(self.party)
        self.query_one("#remove-hero").display = bool(self.party)
        if self.party and self.pack is not None:
            text = Text("Also in the party (you play them all; F3 in play switches): ", DIM)
            pack = self.pack
            text.append("; ".join(
                f"{h['name']} ({hero_summary(pack, h['archetype'], h['stats'])})"
                for h in self.party), FG)
            listing.update(text)

    def action_add_hero(self) -> None:
        """Make another hero for the party in a dialog."""
        pack = self.pack
        if pack is None:
            self._error("Choose a game whose content loads.")
            return
        first = self.query_one("#hero", Input).value.strip() or "The Hero"

        def submit(hero: dict[str, Any]) -> str | None:
            self.party.append(hero)
            self._show_party()
            return None

        self.app.push_screen(AddHeroDialog(pack, submit, "Another hero for the party",
                                           taken=[first] + [h["name"] for h in self.party]))

    @on(Button.Pressed, "#add-hero")
    def _add_hero_button(self) -> None:
        self.action_add_hero()

    @on(Button.Pressed, "#remove-hero")
    def _remove_hero_button(self) -> None:
        if self.party:
            self.party.pop()
            self._show_party()

    # ------------------------------------------------------------------ create

    def _error(self, message: str | None) -> None:
        err = self.query_one("#form-error", Static)
        err.update(Text(message, BAD) if message else "")
        err.set_class(bool(message), "shown")

    @on(Input.Changed, "#name")
    def _named(self, event: Input.Changed) -> None:
        """Naming the campaign clears the "name it first" error."""
        err = self.query_one("#form-error", Static)
        if event.value.strip() and NO_NAME in str(err.render()):
            self._error(None)

    @on(Button.Pressed, "#create")
    def _create_button(self) -> None:
        self.action_create()

    @on(Button.Pressed, "#cancel")
    def _cancel_button(self) -> None:
        self.action_cancel()

    def action_cancel(self) -> None:
        """Back to the title screen."""
        self.dismiss(None)

    def form(self) -> dict[str, Any] | str:
        """The form's values as ``new_game`` arguments, or what is missing."""
        if self.pack is None:
            return "Choose a game whose content loads."
        name = self.query_one("#name", Input).value.strip()
        if not name:
            return NO_NAME
        value = self.query_one("#archetype", Select).value
        archetype: str | None = None
        stats: dict[str, int] | None = None
        if value == CUSTOM:
            stats, problems = self._custom_stats()
            if problems:
                return "The hero's line is not valid: " + "; ".join(problems)
        else:
            archetype = str(value)
        seed_text = self.query_one("#seed", Input).value.strip()
        try:
            seed = int(seed_text) if seed_text else None
        except ValueError:
            return f"The seed must be a whole number, not {seed_text!r}."
        pressed = self.query_one("#dice", RadioSet).pressed_button
        dice_mode = pressed.id if pressed is not None and pressed.id else "seeded"
        kw: dict[str, Any] = {
            "system": self.pack.id, "name": name,
            "hero_name": self.query_one("#hero", Input).value.strip() or "The Hero",
            "archetype": archetype, "stats": stats,
            "npcs": [r for r in self._rows() if r[0]],
            "seed": seed, "dice_mode": dice_mode,
            "scene_title": self.query_one("#scene-title", Input).value.strip()
            or "Opening scene",
            "location": self.query_one("#scene-where", Input).value.strip(),
        }
        if self.party:
            kw["party"] = [dict(h) for h in self.party]
        return kw

    def action_create(self) -> None:
        """Create the campaign and start playing; show what is wrong otherwise."""
        kw = self.form()
        if isinstance(kw, str):
            self._error(kw)
            if kw == NO_NAME:
                self.query_one("#name", Input).focus()
            return
        error = self.sidekick.create_campaign(kw)
        self._error(error)
