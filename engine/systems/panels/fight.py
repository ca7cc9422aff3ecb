"""The panels game's fights, on the fight engine (engine/rules/fight).

``PanelsConflict`` runs a fight from the pure panels rules of this package: side initiative
(each side rolls a d6 every round; both sides get the difference in panels, the higher side
acts first, a tie gives 2 each in one Agility order: engine/rules/encounter.py), actions that
cost panels, attacks (d20 + Dexterity modifier, 15-17 minor, 18+ complete, crits on the
naturals), the defender's response to a hit (dodge or parry, paid from future panels), damage
to the Kill and Stun tracks, stunned at 10%, and out at 0. Its actions are registered in
``step.ACTIONS`` (fight_actions.py, fight_more.py); where a character's numbers live is
``step.py``'s docstring.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any, ClassVar

from engine.content.loader import Pack
from engine.errors import IllegalAction
from engine.rules import encounter as en
from engine.rules.events import Event
from engine.rules.fight.actions import ActionRule, ActionTable
from engine.rules.fight.conflict import Conflict
from engine.rules.fight.dice import SIDE_DIE, Die, Emit, Roll
from engine.rules.fight.events import CombatantJoined, FightStarted, InitiativeRolled
from engine.rules.fight.foes import HEROES, FoeBlock, add_foes, foe_list, side_of
from engine.rules.fight.state import Fight, Pending
from engine.rules.fight.values import (
    ActionWords,
    FightAttack,
    FightOption,
    FightTarget,
    FoeOption,
    PanelColumns,
    TrackerRow,
)
from engine.rules.state import CampaignState
from engine.systems.panels import fight_actions as fight_actions  # its actions, registered
from engine.systems.panels import fight_more
from engine.systems.panels import positions as pos
from engine.systems.panels.damage import AttackForm, Health
from engine.systems.panels.fight_actions import dying_allies
from engine.systems.panels.registry import TracksSet
from engine.systems.panels.statblock import Character
from engine.systems.panels.step import (
    ACTIONS,
    OUT_CONDITIONS,
    STATUS_CONDITIONS,
    Ctx,
    block_id,
    block_of,
    characters,
    form_id,
)
from engine.systems.panels.strikes import attack_odds, form_of, jammed_forms, situation

FILLED_IN = (
    "Fights (filled in where the seed is silent): a turn whose panels all go to repaying"
    " arrears is skipped. A character at 0 Stun or 0 Kill is out and skipped. Catching your"
    " breath costs two panels and only as the turn's first action. A critical hit's effect may"
    " be picked by the attacker's player (else a d6); a critical miss is rolled. 'Loses its"
    " next panel' adds one panel owed (at most 5). Friendly fire strikes the first ally still"
    " standing in the turn order, with the attack's minor dice and no response. The referee's"
    " turns and responses are engine/systems/panels/referee.py's (a thug group keeps the target"
    " its first attacker chose while that foe stands). A critical hit's Disarmed and a critical"
    " miss's Fumble drop something held when there is something (fight_more's rule), else the"
    " next panel is lost. When a fight ends with a hero still standing, the heroes tend the"
    " dying of both sides (stable at 1 Kill, out cold); with no hero standing, the dying"
    " nobody stabilised die."
)
"""The rules of the panels fights that the seed leaves out, filled in."""

DieFor = Callable[[str, str, int], Die]
"""Rolls one die: (actor, what, sides)."""


def side_rolls(state: CampaignState, parts: Sequence[en.Participant], die: DieFor,
               emit: Callable[[Event], None]) -> list[int]:
    """Each side's d6 for a new round (rolled by one character of the side), journaled."""
    names = list(dict.fromkeys(p.side for p in parts))
    rolls: list[int] = []
    entries: list[dict[str, Any]] = []
    pos = state.dice_position
    for side in names:
        members = [p.actor for p in parts if p.side == side]
        standing = [a for a in members if not set(state.actors[a].conditions)
                    & OUT_CONDITIONS] or members
        d = die(standing[0], SIDE_DIE, 6)
        rolls.append(d.face)
        pos = max(pos, d.position)
        entries.append({"actor": standing[0], "name": side.capitalize(), "natural": d.face,
                        "bonus": 0, "total": d.face, "group": "", "side": side,
                        "surprised": False, "by": d.by, "position": d.position})
    si = en.side_initiative(names, rolls)
    for e in entries:
        e["panels"] = si.panels[e["side"]]
        e["first"] = si.first == e["side"]
        e["simultaneous"] = si.simultaneous
    emit(InitiativeRolled(rolls=entries, position=pos))
    return rolls


def referee_choice(ctx: Ctx, actor: str) -> Pending:
    """The referee's action (referee.choose), as a pending action with its reason; one the
    panels left cannot pay becomes the end of the turn."""
    choice = pos.referee_choice(ctx, actor, situation(ctx, actor))
    rule = ACTIONS.get(choice.action)
    left = ctx.enc.budget.get(en.PANEL, 0)
    if rule is None or int(rule.cost) > left or choice.action == "end_turn":
        return Pending(actor=actor, action="end_turn", by="referee", why=choice.why)
    options: dict[str, Any] = {"gang": choice.gang} if choice.gang else {}
    if choice.action == "move" and choice.target:
        options["way"] = choice.target
    attack = block_id(choice.attack) if choice.attack else None
    return Pending(actor=actor, action=choice.action, target=choice.target, attack=attack,
                   options=options, why=choice.why, by="referee")


def _attack(fid: str, form: AttackForm) -> FightAttack:
    """An attack form as the options name it."""
    return FightAttack(id=fid, name=form.name,
                       range="close" if form.range == "melee" else "ranged",
                       delivery=form.delivery, lethal=form.lethal)


def _foe_detail(blk: Character) -> str:
    return f"{blk.count} thugs" if blk.kind == "thug group" else blk.kind


def _cost_words(cost: int) -> str:
    return "none" if cost == 0 else f"{cost} panel{'s' * (cost != 1)}"


class PanelsConflict(Conflict[Ctx]):
    """The panels game's fights."""

    initiative = "side"
    """Each side rolls a d6 every round; no surprise round."""
    spec = en.PANELS_BUDGET
    actions: ClassVar[ActionTable[Any]] = ACTIONS
    step_class = Ctx
    word_aliases = {"catch_breath": "recover"}
    """The draft actions.yaml keeps catching one's breath under ``recover``."""
    tracker_style = "panels"

    # ---------------------------------------------------------- starting
    def _entrants(self, state: CampaignState, foes: Sequence[str], emit: Emit) -> list[str]:
        """The foes as actor ids, adding to the story those named by stat block id."""
        return add_foes(state, foes, {bid: FoeBlock(
            b.name, b.count if b.kind == "thug group" else None,
            {"villain": "villain", "hero": "hero_ally"}.get(b.kind, "minion"))
            for bid, b in characters(self.pack).items()}, emit)

    def _entrant(self, state: CampaignState, a: str) -> en.Entrant:
        blk = block_of(self.pack, state, a)
        if blk is None:
            raise IllegalAction(f"{state.actors[a].name} has no panels stat block, so cannot"
                                " fight (choose an archetype, or give it one)")
        return en.Entrant(actor=a, side=side_of(state, a),
                          initiative=blk.characteristics.agility,
                          tiebreak=(blk.characteristics.dexterity,))

    def start(self, state: CampaignState, foes: Sequence[str], surprised: Sequence[str],
              roll: Roll, emit: Emit) -> None:
        """A new fight: the foes enter, both sides roll a d6, the first turn begins."""
        if state.fight is not None:
            raise IllegalAction("a fight is already under way")
        if not foes:
            raise IllegalAction("a fight needs at least one foe")
        if surprised:
            raise IllegalAction("the panels game has no surprise round: each round opens with"
                                " both sides' d6")
        foe_ids = self._entrants(state, foes, emit)
        heroes = [h for h in state.party if not state.actors[h].taken_out
                  and not set(state.actors[h].conditions) & OUT_CONDITIONS]
        if not heroes:
            raise IllegalAction("no hero can fight: every one is out cold, dying or dead")
        down = [f for f in foe_ids if set(state.actors[f].conditions) & OUT_CONDITIONS]
        if len(down) == len(foe_ids):
            names = ", ".join(state.actors[f].name for f in down)
            raise IllegalAction(f"no foe can fight: {names} cannot (out cold, dying or dead)")
        foe_ids = [f for f in foe_ids if f not in down]
        ids = list(dict.fromkeys([*heroes, *foe_ids]))
        entrants = [self._entrant(state, a) for a in ids]
        if len({e.side for e in entrants}) != 2:
            raise IllegalAction("a panels fight needs heroes on one side and foes on the other")
        parts = [en.Participant(actor=e.actor, side=e.side, initiative=e.initiative,
                                joined_round=1) for e in entrants]
        names = ", ".join(state.actors[f].name for f in foe_ids)
        events: list[Event] = []  # the initiative line follows FightStarted
        rolls = side_rolls(state, parts, lambda a, w, s: roll(a, w, s), events.append)
        adv = en.start(f"fight{state.scene.number}_{state.event_no}", entrants, mode="side",
                       spec=self.spec, side_rolls=rolls)
        emit(FightStarted(fight=Fight(encounter=adv.encounter, spec=self.spec).model_dump(
            mode="json"), text=f"A fight breaks out against {names}."))
        for e in events:
            emit(e)
        self.begun(self.step(state, roll, emit), adv)

    def join(self, state: CampaignState, who: str, roll: Roll, emit: Emit) -> None:
        """A late joiner takes its place in its side by Agility."""
        if state.fight is None:
            raise IllegalAction("there is no fight under way")
        for a in self._entrants(state, [who], emit):
            entrant = self._entrant(state, a)
            emit(CombatantJoined(actor=a, entrant=entrant.model_dump(mode="json")))

    # ---------------------------------------------------------- turns
    def can_act(self, step: Ctx, actor: str) -> str | None:
        """Out of the fight, or no panels left this round (repaying what it owes)."""
        if step.out(actor):
            return "is out of the fight"
        if step.enc.budget.get(en.PANEL, 0) <= 0:
            got = step.enc.sides.panels.get(step.enc.participant(actor).side, 0) \
                if step.enc.sides is not None else 0
            owed = step.enc.participant(actor).arrears
            return (f"has no panels left this round: all {got} go to repaying panels owed"
                    + (f" ({owed} still owed)" if owed else ""))
        return None

    def round_dice(self, step: Ctx) -> list[int] | None:
        """Both sides' d6 when the next turn begins a new round."""
        if not en.needs_side_roll(step.enc):
            return None
        return side_rolls(step.state, [p for p in step.enc.participants if p.present],
                          lambda a, w, s: step.die(a, w, s), step.emit)

    # ---------------------------------------------------------- choosing
    def option(self, step: Ctx, actor: str, rule: ActionRule[Any], mine: bool
               ) -> list[FightOption]:
        """An action with its cost in panels, whether the panels left allow it, and for
        attacks every target with exact odds."""
        enc = step.enc
        cost = int(rule.cost)
        left = enc.budget.get(en.PANEL, 0) if mine else 0
        ok = mine and left >= cost
        why = "" if ok else ("not your turn" if not mine else
                             f"needs {cost} panels, {left} left")
        if rule.id == "catch_breath" and ok and enc.acted:
            ok, why = False, "only as the turn's first action"
        entry = FightOption(action=rule.id, name=self.action_name(rule.id),
                            cost=_cost_words(cost), panels=cost, allowed=ok, why=why,
                            target=rule.target)
        if rule.id == "attack":
            jammed = jammed_forms(step, actor)
            out = []
            mob = pos.mobility(step, actor)
            foes = step.foes(actor)
            for fid, form in step.forms(actor).items():
                targets = tuple(attack_odds(step, actor, form, t, why=pos.why_not(
                    step, actor, "attack", form, t, mob)) for t in foes)
                e = replace(entry, targets=targets, attack=_attack(fid, form))
                if fid in jammed:
                    e = replace(e, allowed=False, why="jammed until the round ends")
                out.append(e)
            return out
        if rule.id == "move":
            return [replace(entry, needs="way", choices=pos.move_choices(step, actor))]
        if rule.id == "first_aid":
            targets = tuple(FightTarget(id=a, name=step.name(a)) for a in dying_allies(
                step, actor))
            entry = replace(entry, targets=targets, allowed=ok and bool(targets))
        return [entry]

    def attacks(self, state: CampaignState, actor: str) -> list[FightAttack]:
        """``actor``'s attack forms (those the attack option lists), without their odds."""
        return [_attack(fid, form) for fid, form in self.step(state).forms(actor).items()]

    def adjust_options(self, step: Ctx, actor: str, out: list[FightOption]
                       ) -> list[FightOption]:
        """The options as holds, lying flat, items and powers change them (fight_more)."""
        return fight_more.adjust_options(step, actor, out)

    # ---------------------------------------------------------- declaring
    def cannot_pay(self, step: Ctx, actor: str, rule: ActionRule[Any]) -> str | None:
        """Not enough panels left this round."""
        left = step.enc.budget.get(en.PANEL, 0)
        if left < int(rule.cost):
            return (f"{step.name(actor)} has {left} panel{'s' * (left != 1)} left this round;"
                    f" {rule.id.replace('_', ' ')} costs {rule.cost}")
        return None

    def ally_pool(self, step: Ctx, actor: str) -> tuple[list[str], str]:
        """First aid is for an ally at 0 Kill."""
        return dying_allies(step, actor), "an ally at 0 Kill"

    def checked(self, step: Ctx, pending: Pending, rule: ActionRule[Any]) -> Pending:
        """An attack's form named by its id; what the situation forbids refused, and a melee
        attack or grab out of reach (positions.py)."""
        form = None
        if pending.action == "attack":
            form = form_of(step, pending)
            pending = pending.model_copy(update={"attack": form_id(form)})
        fight_more.check_declared(step, pending)
        pos.declared(step, pending.actor, pending.action, pending.target, form)
        return pending

    # ---------------------------------------------------------- resolving
    def run(self, step: Ctx, rule: ActionRule[Any], pending: Pending) -> None:
        """Every action runs with stale holds ended and the situation's refusals."""
        fight_more.run_action(step, rule, pending)

    def referee(self, state: CampaignState, actor: str) -> Pending:
        """The referee's choice for ``actor``, with its reason."""
        return referee_choice(self.step(state), actor)

    def ended(self, state: CampaignState, emit: Emit) -> None:
        """The fight's end (damage.py's rule for 0, and ``FILLED_IN``): a hero still standing
        tends the dying of both sides (stable at 1 Kill, out cold); with no hero standing the
        dying nobody gave first aid die. The unconscious (0 Stun) come round with 1 Stun; a
        stabilised one stays out, alive."""
        ctx = self.step(state, None, emit)
        carer = next((p.actor for p in ctx.enc.participants
                      if p.side == HEROES and p.present and not ctx.out(p.actor)), None)
        for p in ctx.enc.participants:
            actor = state.actors[p.actor]
            conds = list(actor.conditions)
            if "dying" in conds and "stable" not in conds and carer is not None:
                h = ctx.health(p.actor)
                ctx.set_health(p.actor, Health(h.kill.heal(1), h.stun),
                               f"{state.actors[carer].name} gives {actor.name} first aid after"
                               " the fight: stable at 1 Kill, out cold", stable=True)
            elif "dying" in conds and "stable" not in conds:
                emit(TracksSet(actor=p.actor, tracks={"kill": 0, "stun": 0},
                               conditions=[c for c in conds if c not in STATUS_CONDITIONS]
                               + ["dead"], why=f"{actor.name} dies of their wounds"))
            elif "unconscious" in conds and "stable" not in conds:
                h = ctx.health(p.actor)
                ctx.set_health(p.actor, Health(h.kill, h.stun.heal(max(0, 1 - h.stun.current))),
                               f"{actor.name} comes round")

    # ---------------------------------------------------------- the lab
    full_tracks = frozenset({"kill", "stun"})

    def blocks(self) -> Mapping[str, Any]:
        """The pack's stat blocks by id."""
        return characters(self.pack)

    def default_foes(self) -> list[str]:
        """The villain with the fewest Kill + Stun points and the first thug group (else the
        first thug)."""
        chars = characters(self.pack)
        out: list[str] = []
        villains = [(c.kill + c.stun, i, cid) for i, (cid, c) in enumerate(chars.items())
                    if c.kind == "villain"]
        if villains:
            out.append(min(villains)[2])
        groups = [cid for cid, c in chars.items() if c.kind == "thug group"]
        thugs = [cid for cid, c in chars.items() if c.kind == "thug"]
        if groups or thugs:
            out.append((groups or thugs)[0])
        return out or super().default_foes()

    def health(self, state: CampaignState, actor: str) -> dict[str, float]:
        """Conditions, Kill and Stun left; hurt under half of either."""
        a = state.actors[actor]
        out = super().health(state, actor)
        blk = block_of(self.pack, state, actor)
        out["kill"] = float(a.tracks.get("kill", blk.kill if blk else 0))
        out["stun"] = float(a.tracks.get("stun", blk.stun if blk else 0))
        if blk is not None:
            out["hurt"] = float(out["kill"] < blk.kill / 2 or out["stun"] < blk.stun / 2)
        return out

    # ---------------------------------------------------------- reading
    def odds(self, state: CampaignState, actor: str, attack: str, target: str,
             maneuvers: Mapping[str, int]) -> FightTarget:
        """The exact odds of ``actor``'s ``attack`` on ``target`` (the panels game has no
        maneuvers)."""
        if any(maneuvers.values()):
            raise IllegalAction("the panels game has no maneuvers")
        ctx = self.step(state)
        return attack_odds(ctx, actor, form_of(ctx, Pending(actor=actor, action="attack",
                                                            attack=attack)), target)

    def foe_options(self, state: CampaignState) -> list[FoeOption]:
        """Present NPCs with a block, then the pack's villains and thugs not yet in play."""
        return foe_list(state, lambda: characters(self.pack),
                        lambda npc: block_of(self.pack, state, npc.id),
                        lambda blk: blk.kind == "hero", _foe_detail,
                        lambda blk: blk.count if blk.kind == "thug group" else 0)

    def row(self, step: Ctx, actor: str, base: TrackerRow) -> TrackerRow:
        """Kill, Stun, panels left and owed; holds, lying flat and items."""
        enc = step.enc
        p = enc.participant(actor)
        a = step.state.actors[actor]
        h = step.health(actor)
        side_panels = enc.sides.panels if enc.sides is not None else {}
        acted = p.last_round == enc.round and enc.acting != actor
        if enc.acting == actor:
            left = enc.budget.get(en.PANEL, 0)
        elif acted or step.out(actor):
            left = 0
        else:
            left = max(0, side_panels.get(p.side, 0) - p.arrears)
        columns = PanelColumns(kill=h.kill.current, kill_max=h.kill.maximum,
                               stun=h.stun.current, stun_max=h.stun.maximum, panels=left,
                               arrears=p.arrears)
        return fight_more.add_to_row(step, actor, replace(
            base, conditions=tuple(a.conditions), columns=columns,
            band=pos.row_band(step, actor)), columns)


def action_words(pack: Pack) -> dict[str, ActionWords]:
    """The pack's words for each action (``actions.yaml``), by id."""
    return PanelsConflict(pack).words()


__all__ = ["FILLED_IN", "PanelsConflict", "action_words", "referee_choice", "side_rolls"]
