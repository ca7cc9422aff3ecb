"""The flat names ``Game`` had before it was made of parts, kept as thin aliases: each one
calls the part that owns the action (``game.fight_act(...)`` is ``game.fights.act(...)``,
``game.add_thread(...)`` is ``game.ledger.add_thread(...)``), so scripts, the app and the
tests read as they did. New code may call the parts directly; docs/api.md lists both."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.content import schema as s
from engine.fight import REFEREE_STEPS_LIMIT, Fights
from engine.flow import Moves
from engine.game.edits import HandEdits
from engine.game.gm_tools import GMTools
from engine.game.ledger import StoryLedger
from engine.game.party import Party
from engine.gm.values import GMTable, OracleLevel, SceneProposal
from engine.rules.base import Edit, Editable, Option
from engine.rules.events.shown import Shown
from engine.rules.fight.conflict import Conflict
from engine.rules.fight.state import Fight
from engine.rules.fight.values import (
    FightNeed,
    FightOption,
    FightSuggestion,
    FightTarget,
    FoeOption,
    RequestedFight,
    TrackerRow,
)


class FlatNames:
    """``Game``'s flat names, each a thin alias of one part's action or query."""

    moves: Moves
    fights: Fights
    party: Party
    gm: GMTools
    ledger: StoryLedger
    edits: HandEdits

    def add_npc(self, name: str, role: str, note: str = "") -> list[Shown]:
        """Alias of ``party.add_npc``."""
        return self.party.add_npc(name, role, note)

    def add_hero(self, name: str, archetype: str | None = None,
                 stats: dict[str, int] | None = None) -> list[Shown]:
        """Alias of ``party.add_hero``."""
        return self.party.add_hero(name, archetype, stats)

    def switch_hero(self, hero: str) -> list[Shown]:
        """Alias of ``party.switch_hero``."""
        return self.party.switch_hero(hero)

    def set_presence(self, npc: str, present: bool) -> list[Shown]:
        """Alias of ``party.set_presence``."""
        return self.party.set_presence(npc, present)

    def stance(self, npc: str, hero: str | None = None) -> str:
        """Alias of ``party.stance``."""
        return self.party.stance(npc, hero)

    def set_stance(self, npc: str, stance: str, hero: str | None = None, reason: str = ""
                   ) -> list[Shown]:
        """Alias of ``party.set_stance``."""
        return self.party.set_stance(npc, stance, hero, reason)

    def oracle_levels(self) -> list[OracleLevel]:
        """Alias of ``gm.oracle_levels``."""
        return self.gm.oracle_levels()

    def ask_oracle(self, question: str, likelihood: str = "even",
                   roll: int | str | Sequence[int] | None = None) -> list[Shown]:
        """Alias of ``gm.ask_oracle``."""
        return self.gm.ask_oracle(question, likelihood, roll)

    def propose_scene(self, reroll: int = 0, place: int | str | Sequence[int] | None = None
                      ) -> SceneProposal:
        """Alias of ``gm.propose_scene``."""
        return self.gm.propose_scene(reroll, place)

    def place_die(self) -> int | None:
        """Alias of ``gm.place_die``."""
        return self.gm.place_die()

    def tables(self) -> list[GMTable]:
        """Alias of ``gm.tables``."""
        return self.gm.tables()

    def roll_table(self, table: str, roll: int | str | Sequence[int] | None = None
                   ) -> list[Shown]:
        """Alias of ``gm.roll_table``."""
        return self.gm.roll_table(table, roll)

    def add_threat(self, template: str, name: str = "", npc: str | None = None
                   ) -> list[Shown]:
        """Alias of ``gm.add_threat``."""
        return self.gm.add_threat(template, name, npc)

    def advance_threat(self, threat: str, delta: int = 1) -> list[Shown]:
        """Alias of ``gm.advance_threat``."""
        return self.gm.advance_threat(threat, delta)

    def add_thread(self, text: str, note: str = "", source: str = "by hand"
                   ) -> list[Shown]:
        """Alias of ``ledger.add_thread``."""
        return self.ledger.add_thread(text, note, source)

    def resolve_thread(self, thread: str) -> list[Shown]:
        """Alias of ``ledger.resolve_thread``."""
        return self.ledger.resolve_thread(thread)

    def reopen_thread(self, thread: str) -> list[Shown]:
        """Alias of ``ledger.reopen_thread``."""
        return self.ledger.reopen_thread(thread)

    def edit_thread(self, thread: str, text: str | None = None, note: str | None = None
                    ) -> list[Shown]:
        """Alias of ``ledger.edit_thread``."""
        return self.ledger.edit_thread(thread, text, note)

    def remove_thread(self, thread: str) -> list[Shown]:
        """Alias of ``ledger.remove_thread``."""
        return self.ledger.remove_thread(thread)

    def add_fact(self, text: str, about: Sequence[str] = (), source: str = "by hand"
                 ) -> list[Shown]:
        """Alias of ``ledger.add_fact``."""
        return self.ledger.add_fact(text, about, source)

    def edit_fact(self, fact: str, text: str | None = None,
                  about: Sequence[str] | None = None) -> list[Shown]:
        """Alias of ``ledger.edit_fact``."""
        return self.ledger.edit_fact(fact, text, about)

    def remove_fact(self, fact: str) -> list[Shown]:
        """Alias of ``ledger.remove_fact``."""
        return self.ledger.remove_fact(fact)

    def set_whereabouts(self, npc: str, where: str) -> list[Shown]:
        """Alias of ``ledger.set_whereabouts``."""
        return self.ledger.set_whereabouts(npc, where)

    def edit_subjects(self) -> list[tuple[str, str]]:
        """Alias of ``edits.edit_subjects``."""
        return self.edits.edit_subjects()

    def editable(self, who: str = "hero") -> list[Editable]:
        """Alias of ``edits.editable``."""
        return self.edits.editable(who)

    def edit(self, who: str, what: str, key: str, value: int | bool, reason: str = ""
             ) -> list[Shown]:
        """Alias of ``edits.edit``."""
        return self.edits.edit(who, what, key, value, reason)

    def edit_many(self, edits: Sequence[Edit], reason: str = "") -> list[Shown]:
        """Alias of ``edits.edit_many``."""
        return self.edits.edit_many(edits, reason)

    def move_available(self, move: s.Move, triggered: bool = False) -> str | None:
        """Alias of ``moves.move_available``."""
        return self.moves.move_available(move, triggered)

    def available_moves(self) -> list[s.Move]:
        """Alias of ``moves.available_moves``."""
        return self.moves.available_moves()

    def targets_for(self, move: s.Move) -> list[Option]:
        """Alias of ``moves.targets_for``."""
        return self.moves.targets_for(move)

    def target_options(self, move: s.Move) -> list[Option]:
        """Alias of ``moves.target_options``."""
        return self.moves.target_options(move)

    @property
    def conflict(self) -> Conflict[Any]:
        """Alias of ``fights.conflict``."""
        return self.fights.conflict

    @property
    def fight_initiative(self) -> str:
        """Alias of ``fights.initiative``."""
        return self.fights.initiative

    @property
    def fight(self) -> Fight | None:
        """Alias of ``fights.current``."""
        return self.fights.current

    @property
    def fighting(self) -> bool:
        """Alias of ``fights.fighting``."""
        return self.fights.fighting

    def suggest_fight(self, text: str, limit: int = 3) -> list[FightSuggestion]:
        """Alias of ``fights.suggest``."""
        return self.fights.suggest(text, limit)

    def tracker(self) -> list[TrackerRow]:
        """Alias of ``fights.tracker``."""
        return self.fights.tracker()

    def fight_odds(self, attack: str, target: str, maneuvers: Mapping[str, int] | None = None,
                   actor: str | None = None) -> FightTarget:
        """Alias of ``fights.odds``."""
        return self.fights.odds(attack, target, maneuvers, actor)

    def foe_options(self) -> list[FoeOption]:
        """Alias of ``fights.foe_options``."""
        return self.fights.foe_options()

    def fight_options(self, actor: str | None = None) -> list[FightOption]:
        """Alias of ``fights.options``."""
        return self.fights.options(actor)

    @property
    def fight_request(self) -> RequestedFight | None:
        """Alias of ``fights.request``."""
        return self.fights.request

    @property
    def fight_need(self) -> FightNeed | None:
        """Alias of ``fights.need``."""
        return self.fights.need

    @property
    def referee_turn(self) -> bool:
        """Alias of ``fights.referee_turn``."""
        return self.fights.referee_turn

    def start_fight(self, foes: Sequence[str], surprised: Sequence[str] = (),
                    dice: Sequence[int] = ()) -> list[Shown]:
        """Alias of ``fights.start``."""
        return self.fights.start(foes, surprised, dice)

    def join_fight(self, who: str, dice: Sequence[int] = ()) -> list[Shown]:
        """Alias of ``fights.join``."""
        return self.fights.join(who, dice)

    def fight_act(self, action: str, target: str | None = None, attack: str | None = None,
                  maneuvers: Mapping[str, int] | None = None,
                  options: Mapping[str, str | int | bool] | None = None,
                  actor: str | None = None, fiction: str = "") -> list[Shown]:
        """Alias of ``fights.act``."""
        return self.fights.act(action, target, attack, maneuvers, options, actor, fiction)

    def fight_choose(self, option: str, fiction: str = "") -> list[Shown]:
        """Alias of ``fights.choose``."""
        return self.fights.choose(option, fiction)

    def fight_die(self, face: int) -> list[Shown]:
        """Alias of ``fights.die``."""
        return self.fights.die(face)

    def end_turn(self) -> list[Shown]:
        """Alias of ``fights.end_turn``."""
        return self.fights.end_turn()

    def referee_step(self) -> list[Shown]:
        """Alias of ``fights.referee_step``."""
        return self.fights.referee_step()

    def referee_run(self, limit: int = REFEREE_STEPS_LIMIT) -> list[Shown]:
        """Alias of ``fights.referee_run``."""
        return self.fights.referee_run(limit)

    def take_over(self, actor: str, player: bool = True) -> list[Shown]:
        """Alias of ``fights.take_over``."""
        return self.fights.take_over(actor, player)

    def set_fight_dice(self, referee: str) -> list[Shown]:
        """Alias of ``fights.set_dice``."""
        return self.fights.set_dice(referee)

    def end_fight(self, result: str = "called off", ending: str = "") -> list[Shown]:
        """Alias of ``fights.end``."""
        return self.fights.end(result, ending)
