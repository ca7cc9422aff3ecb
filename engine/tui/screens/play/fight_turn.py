"""Choosing in a fight: what each entry of the fight's menu does (the referee's steps, taking a
character over, an action, its target, what it needs named, its maneuvers), what the player
says the acting character does, and taking the action."""

from __future__ import annotations

from typing import Any

from textual.widgets import Input

from engine.errors import EngineError
from engine.tui.fight_view import MANEUVER_MAX, fight_words, option_key, why_not
from engine.tui.screens.play.fight_dialogs import FightDialogs
from engine.tui.screens.play.fight_menu import FightMenu
from engine.tui.screens.play.host import PlayHost


class FightTurn:
    """Moves ``menu.pick`` on as the player chooses, and acts when the choice is complete."""

    def __init__(self, host: PlayHost, menu: FightMenu, dialogs: FightDialogs) -> None:
        self.host = host
        self.menu = menu
        self.dialogs = dialogs

    @property
    def pick(self) -> dict[str, Any]:
        """Where the player is in choosing (FightMenu.pick)."""
        return self.menu.pick

    @pick.setter
    def pick(self, value: dict[str, Any]) -> None:
        self.menu.pick = value

    def picked(self, kind: str, value: str) -> bool:
        """A fight menu entry was chosen; False if it is not one of the fight's."""
        host = self.host
        game = host.game
        stage = self.pick.get("stage")
        if kind == "fchoice":
            host.perform(game.fight_choose, value)
        elif kind == "fdie":
            self.dialogs.ask_die()
        elif kind == "fend":
            self.dialogs.start_or_end()
        elif kind == "step":
            host.perform(game.referee_step)
        elif kind == "run":
            host.perform(game.referee_run)
        elif kind == "take":
            acting = game.fight.encounter.acting if game.fight else None
            if acting:
                host.perform(game.take_over, acting)
        elif kind == "end":
            host.perform(game.end_turn)
        elif kind == "handback":
            acting = game.fight.encounter.acting if game.fight else None
            if acting:
                host.perform(game.take_over, acting, False)
        elif kind == "say":
            self.pick = {"stage": "say"}
            host.redraw_prompt()
        elif kind == "none" and stage == "said":
            text = str(self.pick.get("text", ""))
            self.pick = {}
            if not host.perform(game.describe, text):
                host.redraw_prompt()
        elif kind in ("fback", "back"):
            if stage == "maneuver" or (stage == "needs" and self.pick.get("target")):
                self.pick = {"stage": "target", "key": self.pick["key"]}
            elif stage in ("target", "said", "say", "needs"):
                self.pick = {}
            elif kind == "back":
                return stage is None
            host.redraw_prompt()
        elif kind == "fight":
            self.choose_option(value)
        elif kind == "fsug":
            sugs = self.pick.get("sugs") or []
            sug = sugs[int(value)] if value.isdigit() and int(value) < len(sugs) else None
            if sug is not None:
                self._take_suggestion(sug)
        elif kind == "ftarget":
            o = self._option(str(self.pick.get("key", "")))
            if o is None:
                return True
            if o.get("attack") and not self._has_maneuvers():
                self._act(o, value)
            elif o.get("attack"):
                self.pick = {"stage": "maneuver", "key": self.pick["key"], "target": value,
                             "said": self.pick.get("said", "")}
                host.redraw_prompt()
            elif o.get("needs"):
                self.pick = {"stage": "needs", "key": self.pick["key"], "target": value,
                             "said": self.pick.get("said", "")}
                host.redraw_prompt()
            else:
                self._act(o, value)
        elif kind == "fneed":
            o = self._option(str(self.pick.get("key", "")))
            if o is not None:
                self._act(o, self.pick.get("target"), options={str(o.get("needs")): value})
        elif kind == "fman":
            man = self.pick.setdefault("man", {})
            man[value] = (int(man.get(value, 0)) + 1) % (MANEUVER_MAX + 1)
            self.pick["keep"] = True
            host.redraw_prompt()
        elif kind == "fopt":
            opt = self.pick.setdefault("opt", {})
            opt[value] = not opt.get(value)
            self.pick["keep"] = True
            host.redraw_prompt()
        elif kind == "fgo":
            o = self._option(str(self.pick.get("key", "")))
            if o is not None:
                self._act(o, self.pick.get("target"),
                          {k: v for k, v in self.pick.get("man", {}).items() if v},
                          {k: v for k, v in self.pick.get("opt", {}).items() if v})
        else:
            return False
        return True

    def said(self, event: Input.Submitted) -> None:
        """The player said what the acting character does: offer the actions it matches
        (the engine's fight matcher), each with its target and odds."""
        text = event.value.strip()
        if not text:
            return
        event.input.value = ""
        try:
            sugs = [dict(x) for x in self.host.game.suggest_fight(text) if x.get("action")]
        except EngineError as e:
            self.host.notify(e.message, title="Not now", severity="error")
            return
        self.pick = {"stage": "said", "text": text, "sugs": sugs}
        self.host.redraw_prompt()

    def choose_option(self, key: str) -> None:
        """An action from the list: ask for its target (an attack then for maneuvers), or
        take it now."""
        host = self.host
        o = self._option(key)
        if o is None:
            return
        if not o.get("allowed", True):
            budget = dict(host.game.fight.encounter.budget) if host.game.fight else {}
            host.notify(why_not(o, budget), title="Not now", severity="warning", timeout=4)
            return
        if o.get("target") in ("foe", "ally") or o.get("attack"):
            targets = o.get("targets") or []
            if not targets:
                host.notify("No one to target.", title="Not now", severity="warning")
                return
            self.pick = {"stage": "target", "key": key}
            host.redraw_prompt()
            return
        if o.get("needs"):
            self.pick = {"stage": "needs", "key": key}
            host.redraw_prompt()
            return
        self._act(o, None)

    def _take_suggestion(self, sug: dict[str, Any]) -> None:
        """A matched action: an attack goes to its maneuvers with the target it named (or to
        the targets), another action with its target is taken, one without asks for it."""
        key = option_key(sug)
        o = self._option(key)
        if o is None:
            return
        target = sug.get("target")
        said = str(self.pick.get("text") or "")
        if sug.get("options"):  # what the words named (a power): taken as it is
            self._act(o, str(target) if target else None, options=dict(sug["options"]),
                      fiction=said)
        elif target and o.get("attack") and self._has_maneuvers():
            self.pick = {"stage": "maneuver", "key": key, "target": target, "said": said}
            self.host.redraw_prompt()
        elif target:
            self._act(o, str(target), fiction=said)
        else:
            self.choose_option(key)
            if self.pick:
                self.pick["said"] = said

    def _act(self, option: dict[str, Any], target: str | None,
             maneuvers: dict[str, int] | None = None,
             options: dict[str, Any] | None = None, fiction: str = "") -> None:
        """Take the action (with what the player said it does, into the journal); on a
        refusal, stay where the player was."""
        pick = dict(self.pick)
        said = fiction or str(pick.get("said") or "")
        self.pick = {}
        if not self.host.perform(self.host.game.fight_act, str(option["action"]), target,
                                 option.get("attack"), maneuvers or {}, options or {}, None,
                                 said):
            self.pick = pick

    def _option(self, key: str) -> dict[str, Any] | None:
        """The acting character's option ``key`` (see fight_view.option_key), if offered."""
        return next((o for o in self.host.game.fight_options() if option_key(o) == key), None)

    def _has_maneuvers(self) -> bool:
        """Whether attacks in this game take maneuvers (M&M); without them (the panels game)
        choosing the target makes the attack."""
        return bool(fight_words(self.host.game).get("maneuvers"))
