"""Table talk: what the player does around the moves, each through a dialog pushed from the
play screen: the party (switch or add a hero), NPCs, scenes and sessions, the oracle, the GM's
tables, the campaign's dice, and editing the sheet by hand."""

from __future__ import annotations

from typing import Any

from engine.game import Game
from engine.gm.values import SceneProposal
from engine.tui.screens.dialogs import (
    AddNpcDialog,
    ChoiceDialog,
    ConfirmDialog,
    EndSceneDialog,
    SceneDialog,
)
from engine.tui.screens.edit import EditDialog
from engine.tui.screens.gm_dialogs import (
    DICE_MODE_OPTIONS,
    FramedSceneDialog,
    OracleDialog,
    TableDialog,
)
from engine.tui.screens.party import AddHeroDialog, SwitchHeroDialog
from engine.tui.screens.play.host import PlayHost


class TableTalk:
    """Opens the table-talk dialogs and hands their answers to the game."""

    def __init__(self, host: PlayHost) -> None:
        self.host = host

    def party(self) -> None:
        """Hand the spotlight to another hero of the party (or add a hero)."""
        host = self.host
        game = host.game
        if game.flow.stage != "fiction":
            host.notify("Finish what is pending before switching heroes.", severity="warning")
            return
        host.push_dialog(lambda: SwitchHeroDialog(
            game, lambda hid: host.submit(game.switch_hero, hid), self.add_hero))

    def next_hero(self) -> None:
        """The spotlight to the party's next hero (after the acting one, round the party)."""
        host = self.host
        game = host.game
        party = game.state.party
        if game.flow.stage != "fiction" or len(party) < 2:
            return
        nxt = party[(party.index(game.state.acting) + 1) % len(party)]
        host.perform(game.switch_hero, nxt)

    def add_hero(self) -> None:
        """Another hero joins the party (you play them too)."""
        host = self.host
        game = host.game

        def submit(h: dict[str, Any]) -> str | None:
            error = host.submit(game.add_hero, h["name"], h["archetype"], h["stats"])
            if error is None:
                host.notify(f"{h['name']} joins the party: F3 switches to them.", timeout=4)
            return error

        host.push_dialog(lambda: AddHeroDialog(game.pack, submit,
                                               taken=[h.name for h in game.state.heroes]))

    def add_npc(self, name: str = "") -> None:
        """Bring an NPC into the story (``name``: the one the fiction gave, filled in)."""
        host = self.host
        host.push_dialog(lambda: AddNpcDialog(
            host.game.pack.system.roles,
            lambda a: host.submit(host.game.add_npc, a[0], a[1], a[2]), name=name))

    def end_scene(self) -> None:
        """End the scene, asking which clearing actions were taken."""
        host = self.host
        game = host.game
        if not game.state.scene.open:
            self.next_scene()
            return
        if game.flow.stage not in ("fiction", "move"):
            host.notify("Finish what is pending before ending the scene.", severity="warning")
            return
        options = clearing_options(game)

        def submit(ids: list[str]) -> str | None:
            error = host.act(game.end_scene, ids)
            if error is None:
                host.call_after_refresh(self.next_scene)
            return error

        host.push_dialog(lambda: EndSceneDialog(options, list(game.state.scene.clearing), submit,
                                                has_conditions=bool(game.pack.conditions)))

    def oracle(self) -> None:
        """Ask the oracle a yes/no question."""
        host = self.host
        game = host.game
        if game.flow.stage not in ("fiction", "move"):
            host.notify("Finish what is pending before asking the oracle.", severity="warning")
            return

        def submit(answer: tuple[str, str, str | None]) -> str | None:
            return host.submit(game.ask_oracle, *answer)

        host.push_dialog(lambda: OracleDialog(game.oracle_levels(), game.state.tension, submit,
                                              game.state.dice_mode))

    def roll_table(self) -> None:
        """Roll on one of the GM's tables: your own dice, or the GM's pick."""
        host = self.host
        game = host.game
        if game.flow.stage not in ("fiction", "move"):
            host.notify("Finish what is pending before rolling on a table.", severity="warning")
            return

        def submit(answer: tuple[str, str | None]) -> str | None:
            return host.submit(game.roll_table, *answer)

        host.push_dialog(lambda: TableDialog(game.tables(), submit, game.state.dice_mode,
                                             game.pack.system.gm_title))

    def dice_mode(self) -> None:
        """Switch the campaign's dice: seeded, physical or mixed (undo switches back)."""
        host = self.host
        game = host.game
        options = [{**o, "label": o["label"] + (" (now)" if o["id"] == game.state.dice_mode
                                                else "")} for o in DICE_MODE_OPTIONS]
        fight = game.fight
        if fight is not None:  # in a fight: who rolls for the referee's characters
            mine = fight.referee_dice == "physical"
            options.append({"id": "referee:" + ("seeded" if mine else "physical"),
                            "label": "The referee's dice: " + (
                                "let the campaign roll them" if mine else "you roll them too"),
                            "detail": "in this fight; now: " + ("yours" if mine else "seeded")})

        def submit(ids: list[str]) -> str | None:
            if ids[0].startswith("referee:"):
                return host.submit(game.set_fight_dice, ids[0].partition(":")[2])
            if ids[0] != game.state.dice_mode:
                return host.submit(game.set_dice_mode, ids[0])
            return None

        host.push_dialog(lambda: ChoiceDialog(
            "Dice", "Who rolls from now on? (Ctrl+Z switches back)", options, 1, 1, submit))

    def next_scene(self) -> None:
        """The GM proposes the next scene; play it, ask for another, or write your own."""
        host = self.host
        game = host.game
        if game.flow.stage not in ("fiction", "move"):
            host.notify("Finish what is pending before a new scene.", severity="warning")
            return

        def play(p: SceneProposal) -> str | None:
            return host.submit(game.start_scene, p.title, p.location, p.stakes, p.present,
                               p.opening)

        names = {n.id: n.name for n in game.state.npcs.values()}
        host.push_dialog(lambda: FramedSceneDialog(
            game.state.scene.number + 1, game.propose_scene, names, play,
            lambda: host.call_after_refresh(self.write_scene),
            gm_title=game.pack.system.gm_title).roll_the_place(
                game.place_die(), lambda reroll, place: game.propose_scene(reroll, place)))

    def write_scene(self) -> None:
        """Frame the next scene yourself."""
        host = self.host
        game = host.game
        npcs = [(n.id, f"{n.name} ({n.role})", n.present) for n in game.state.npcs.values()]

        def submit(a: dict[str, Any]) -> str | None:
            return host.submit(game.start_scene, a["title"], a["location"], a["stakes"],
                               a["present"])

        host.push_dialog(lambda: SceneDialog(game.state.scene.number + 1, npcs, submit))

    def end_session(self) -> None:
        """The end-of-session move, after a confirmation."""
        host = self.host
        if host.game.flow.stage not in ("fiction", "move"):
            host.notify("Finish what is pending before ending the session.", severity="warning")
            return

        def answer(yes: bool | None) -> None:
            if yes:
                host.perform(host.game.end_session)

        host.push_dialog(lambda: ConfirmDialog(
            "End the session", "End the session now? The scene closes and the end-of-session"
            " move follows."), answer)

    def edit_sheet(self) -> None:
        """Fix the sheet by hand (a condition, a stat, a track, Influence, a clock...): one
        journaled action that ^Z undoes; between moves only."""
        host = self.host
        game = host.game
        if game.flow.stage != "fiction":
            host.notify("Edits are made between moves: finish what is pending first (or ^Z).",
                        severity="warning")
            return

        def submit(a: tuple[str, str, str, int | bool, str]) -> str | None:
            return host.submit(game.edit, *a)

        host.push_dialog(lambda: EditDialog(game.edit_subjects(), game.editable, submit,
                                            who=game.state.acting))


def clearing_options(game: Game) -> list[dict[str, Any]]:
    """The end-of-scene dialog's options: each marked condition of every hero of the party
    (the acting hero's first, by condition id; another hero's as "hero_id:condition", named
    with the hero)."""
    st = game.state
    party = len(st.party) > 1
    heroes = [st.hero, *(h for h in st.heroes if h.id != st.acting)]
    out: list[dict[str, Any]] = []
    for h in heroes:
        for cid, c in game.pack.conditions.items():
            if cid not in h.conditions:
                continue
            you = "you" if h.id == st.acting else h.name
            out.append({"id": cid if h.id == st.acting else f"{h.id}:{cid}",
                        "label": f"{h.name}: {c.name}" if party else c.name,
                        "detail": f"Clears if {you}: {c.clear_by}"})
    return out
