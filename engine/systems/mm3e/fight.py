"""Mutants & Masterminds 3e fights, on the fight engine (engine/rules/fight).

``MM3EConflict`` runs a fight from the pure rules of this package: initiative (d20 + bonus,
ties by Dodge, Agility, Awareness, then a roll-off; one roll per minion group), the surprise
round, the action budget (a standard and a move, or two moves; dazed: a standard only;
stunned: nothing), attacks against a defence class, resistance checks along the damage
ladder, maneuvers, and the actions of D.6. Its actions are registered in ``step.ACTIONS``
(fight_actions.py and fight_more.py); a handler reads the state through the game's step
(``step.Ctx``), rolls through it (every roll explains itself with its modifiers and odds) and
changes characters through it (``CombatantChanged``). Every change of the fight is an event of
the fight engine.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, ClassVar

from engine.content.loader import Pack
from engine.errors import ContentError, IllegalAction
from engine.rules import encounter as en
from engine.rules.fight.actions import ActionRule, ActionTable
from engine.rules.fight.conflict import Conflict
from engine.rules.fight.dice import Die, Emit, Roll
from engine.rules.fight.events import CombatantJoined, FightStarted, InitiativeRolled
from engine.rules.fight.foes import FoeBlock, add_foes, foe_list, side_of, standing_side
from engine.rules.fight.state import Fight, Pending
from engine.rules.fight.values import (
    ActionWords,
    FightAttack,
    FightOption,
    FightTarget,
    FoeOption,
    InitiativeColumns,
    Maneuver,
    TrackerRow,
)
from engine.rules.state import CampaignState
from engine.systems.mm3e import fight_actions as fight_actions  # M&M's actions, registered
from engine.systems.mm3e import fight_more, teams, turn_rules
from engine.systems.mm3e import positions as mpos
from engine.systems.mm3e import referee as rf
from engine.systems.mm3e.conditions import CONDITIONS, action_budget
from engine.systems.mm3e.fight_actions import release
from engine.systems.mm3e.neutral import neutralised
from engine.systems.mm3e.roster import block_of, characters
from engine.systems.mm3e.statblock import Attack, Kind, StatBlock
from engine.systems.mm3e.step import ACTIONS, TRADES, C, Ctx, max_trade
from engine.systems.mm3e.strikes import attack_of, odds_against, trade_values

FILLED_IN = (
    "An affliction (or dazzle, weaken, nullify) with no conditions listed imposes dazed, then"
    " stunned, then incapacitated; its 1st and 2nd degree conditions are resisted again at the"
    " end of each of the target's turns (a success ends them), the 3rd needs recovery."
    " Area attacks reach every foe in the fight (areas.py); each rolls Dodge against 10 + rank"
    " and halves the rank on a success. A team attack is made on its slowest member's turn,"
    " the others delaying to it (teams.py). Flee and surrender take a character out of the"
    " fight (it keeps its conditions). A fight ends when one side has nobody left who can act"
    " (the neutralised cannot: neutral.py); nobody's turn begins after the last foe flees or"
    " surrenders."
)

MANEUVER_IDS = (*TRADES, "finishing", "slam", "surprise", "team")
"""The maneuvers actions.yaml may give words for."""

TRADE_ORDER = ("power_attack", "all_out", "accurate", "defensive")
"""The trade maneuvers in the order an attack offers them."""

KILL = Maneuver(id="kill", name="Intent to kill", summary="lethal: the foe may die", most=1,
                switch=True)
"""Attacking with intent to kill (``options`` ``kill``): a finishing attack or a blow to a
minion may kill."""


def _downed_foe(ctx: Ctx, actor: str, target: str) -> bool:
    """A foe down but still there (incapacitated or dying, not dead, fled or surrendered): a
    finishing attack may still reach it (D.4: incapacitated -> dying -> dead)."""
    return (ctx.enc.has(target) and target not in ctx.fight.out
            and side_of(ctx.state, target) != side_of(ctx.state, actor)
            and C.DEAD not in ctx.conditions(target))


def _foe_detail(blk: StatBlock) -> str:
    what = f"{blk.count} minions" if blk.kind is Kind.MINION_GROUP else blk.kind.value
    return f"{what}, PL {blk.power_level}"


def _attack(aid: str, atk: Attack) -> FightAttack:
    """An attack as the options name it."""
    return FightAttack(id=aid, name=atk.name, range=atk.range.value,
                       rolls=atk.range in ("close", "ranged"), bonus=atk.bonus, rank=atk.rank,
                       resisted_by=atk.resisted_by, effect=atk.effect.value)


def _why_not(ctx: Ctx, actor: str, rule: ActionRule[Ctx], mine: bool) -> str:
    """Why ``actor`` cannot take ``rule``'s action now, in a few words."""
    if not mine:
        return "not your turn"
    if rule.id == "recover" and actor in ctx.fight.recovered:
        return "already recovered this fight"
    if rule.id == "delay":
        return "too late to delay: you have acted"
    if rule.cost in ("standard", "move"):
        return f"no {rule.cost} action left"
    return "not now"


class MM3EConflict(Conflict[Ctx]):
    """Mutants & Masterminds 3e fights."""

    initiative = "each"
    """Everyone rolls initiative once; a surprise round may open the fight."""
    spec = en.MM3E_BUDGET
    actions: ClassVar[ActionTable[Any]] = ACTIONS
    step_class = Ctx
    word_groups = (("maneuver", MANEUVER_IDS),)

    # ---------------------------------------------------------- starting
    def _entrants(self, state: CampaignState, foes: Sequence[str], emit: Emit) -> list[str]:
        """The foes as actor ids, adding to the story those named by stat block id."""
        return add_foes(state, foes, {bid: FoeBlock(
            b.name, b.count if b.kind is Kind.MINION_GROUP else None,
            "minion" if b.kind is Kind.MINION_GROUP
            else "villain" if b.kind is Kind.VILLAIN else "hero_ally")
            for bid, b in characters(self.pack).items()}, emit)

    def _roll_initiative(self, state: CampaignState, ids: Sequence[str], roll: Roll,
                         surprised: Sequence[str]) -> tuple[list[en.Entrant],
                                                            list[dict[str, Any]], int]:
        """Each one's initiative (its entrant), the rolls in words, and the dice position
        after the last roll (before any roll-off)."""
        ctx_blocks = {a: block_of(self.pack, state.actors[a]) for a in ids}
        rolls: list[dict[str, Any]] = []
        positions: list[int] = []
        by_group: dict[str, Die] = {}
        entrants: list[en.Entrant] = []
        for a in ids:
            block = ctx_blocks[a]
            if block is None:
                raise IllegalAction(f"{state.actors[a].name} has no stat block, so cannot"
                                    " fight (choose an archetype, or give it one)")
            group = str(state.actors[a].data.get("group", ""))
            if group and group in by_group:
                die = by_group[group]
            else:
                die = roll(a, "initiative", 20, "")
                if group:
                    by_group[group] = die
            total = die.face + block.initiative_bonus
            tb = (block.defenses.dodge, block.abilities.agility, block.abilities.awareness)
            sur = a in surprised or side_of(state, a) in surprised
            entrants.append(en.Entrant(actor=a, side=side_of(state, a), initiative=total,
                                       tiebreak=tb, surprised=sur))
            positions.append(die.position)
            entry: dict[str, Any] = {"actor": a, "name": state.actors[a].name,
                                     "natural": die.face, "bonus": block.initiative_bonus,
                                     "total": total}
            if group:
                entry["group"] = group
            if sur:
                entry["surprised"] = True
            if die.by != "seeded":
                entry["by"] = die.by
            rolls.append(entry)
        # roll-offs for full ties (not within a group, which shares one roll)
        keys: dict[tuple[int, tuple[int, ...]], list[int]] = {}
        for i, e in enumerate(entrants):
            keys.setdefault((e.initiative, e.tiebreak), []).append(i)
        for tied in keys.values():
            groups = {str(state.actors[entrants[i].actor].data.get("group", "")) or
                      entrants[i].actor for i in tied}
            if len(groups) < 2:
                continue
            offs: dict[str, int] = {}
            for i in tied:
                g = str(state.actors[entrants[i].actor].data.get("group", "")) or \
                    entrants[i].actor
                if g not in offs:
                    offs[g] = roll(entrants[i].actor, "initiative roll-off", 20, "").face
                entrants[i] = entrants[i].model_copy(
                    update={"tiebreak": (*entrants[i].tiebreak, offs[g])})
                rolls[i]["rolloff"] = offs[g]
        return entrants, rolls, max(positions, default=state.dice_position)

    def start(self, state: CampaignState, foes: Sequence[str], surprised: Sequence[str],
              roll: Roll, emit: Emit) -> None:
        """A new fight: the foes enter, everyone rolls initiative, the first turn begins."""
        if state.fight is not None:
            raise IllegalAction("a fight is already under way")
        if not foes:
            raise IllegalAction("a fight needs at least one foe")
        foe_ids = self._entrants(state, foes, emit)
        heroes = [h for h in state.party if not state.actors[h].taken_out]
        allies = [a for a, x in state.actors.items() if x.present and x.kind == "npc"
                  and x.role in ("hero_ally", "ally") and a not in foe_ids
                  and block_of(self.pack, x) is not None]
        ids = list(dict.fromkeys([*heroes, *allies, *foe_ids]))
        entrants, rolls, pos = self._roll_initiative(state, ids, roll, surprised)
        adv = en.start(f"fight{state.scene.number}_{state.event_no}", entrants,
                       spec=self.spec)
        fight = Fight(encounter=adv.encounter, spec=self.spec)
        names = ", ".join(state.actors[f].name for f in foe_ids)
        emit(FightStarted(fight=fight.model_dump(mode="json"), text=f"A fight breaks out"
                          f" against {names}."))
        emit(InitiativeRolled(rolls=rolls, position=pos))
        ctx = self.step(state, roll, emit)
        for e in entrants:
            if e.surprised:
                ctx.condition_for(e.actor, e.actor, C.SURPRISED, "round_start", rounds=1)
        self.begun(ctx, adv)

    def join(self, state: CampaignState, who: str, roll: Roll, emit: Emit) -> None:
        """A late joiner rolls initiative and takes its place in the order."""
        if state.fight is None:
            raise IllegalAction("there is no fight under way")
        ids = self._entrants(state, [who], emit)
        entrants, rolls, pos = self._roll_initiative(state, ids, roll, ())
        emit(InitiativeRolled(rolls=rolls, position=pos))
        for e in entrants:
            emit(CombatantJoined(actor=e.actor, entrant=e.model_dump(mode="json")))


    # ---------------------------------------------------------- turns
    def can_act(self, step: Ctx, actor: str) -> str | None:
        """Out of the fight, neutralised (neutral.py: unaware...), or stunned (no action at
        all)."""
        if step.out(actor):
            return "is out of the fight"
        if neutralised(step, actor):
            return f"is {neutralised(step, actor)} and cannot act"
        if not action_budget(step.conditions(actor)).any:
            return "is stunned and cannot act"
        return None

    def turn_started(self, step: Ctx, actor: str) -> None:
        """Dazed: a standard action only (conditions cap the turn's budget)."""
        budget = action_budget(step.conditions(actor))
        if (budget.standard, budget.move) != (1, 1):
            step.limit(actor, {"standard": budget.standard, "move": budget.move})

    def turn_skipped(self, step: Ctx, actor: str) -> None:
        """One who cannot act cannot keep its holds."""
        for held, hold in list(step.fight.holds.items()):
            if hold.get("by") == actor:
                release(step, held)

    def turn_ended(self, step: Ctx, adv: en.Advance) -> None:
        """Ongoing effects resisted at the end of a turn (afflictions)."""
        for eff in adv.resist:
            if eff.data.get("kind") == "condition" and step.enc.has(eff.target):
                turn_rules.resist(step, eff)

    # ---------------------------------------------------------- choosing
    def option(self, step: Ctx, actor: str, rule: ActionRule[Any], mine: bool
               ) -> list[FightOption]:
        """An action with its cost, whether the budget allows it, and for attacks every
        target with the exact odds and the maneuvers it may be declared with."""
        ctx, enc, state = step, step.enc, step.state
        kind = str(rule.cost)
        ok = mine and (kind in ("none", "free") or en.can(enc, self.spec, actor, kind))
        if rule.id == "recover":
            ok = ok and actor not in ctx.fight.recovered and en.can(
                enc, self.spec, actor, "standard")
        if rule.id == "stand" and C.PRONE.value not in state.actors[actor].conditions:
            return []
        if rule.id == "escape" and actor not in ctx.fight.holds:
            return []
        if rule.id == "release" and not any(h.get("by") == actor
                                            for h in ctx.fight.holds.values()):
            return []
        if rule.id == "delay" and not en.can_delay(enc):
            ok = False
        entry = FightOption(action=rule.id, name=self.action_name(rule.id), cost=kind,
                            allowed=ok, target=rule.target, needs=rule.needs,
                            why="" if ok else _why_not(ctx, actor, rule, mine))
        if rule.needs_attack:
            out = []
            for aid_, atk in ctx.attacks(actor).items():
                if rule.id == "charge" and atk.range != "close":
                    continue
                targets = tuple(odds_against(ctx, actor, t, atk, {}, why=mpos.why_not(
                    ctx, actor, rule.id, atk, t)) for t in ctx.foes(actor))
                rolled = atk.range in ("close", "ranged")
                team = teams.team_maneuver(ctx, actor, atk, self._team_words()) if (
                    rule.id == "attack" and atk.range != "area") else ()
                out.append(replace(entry, targets=targets, maneuvers=self._maneuvers(
                    ctx, atk.range == "close", rolled, atk) + team, attack=_attack(aid_, atk)))
            return out
        if rule.target == "foe":
            entry = replace(entry, targets=tuple(FightTarget(
                id=t, name=ctx.name(t), band=mpos.band(ctx, actor, t),
                why=mpos.why_not(ctx, actor, rule.id, None, t)) for t in ctx.foes(actor)))
        elif rule.id == "move":
            entry = replace(entry, needs="way", choices=mpos.move_choices(ctx, actor))
        elif rule.target == "ally":
            entry = replace(entry, targets=tuple(FightTarget(id=t, name=ctx.name(t))
                                                 for t in ctx.allies(actor)))
        return [entry]

    def _team_words(self) -> str:
        """The team attack's summary (actions.yaml's ``team`` maneuver)."""
        w = self.words().get("team")
        return w.summary if w else ""

    def attacks(self, state: CampaignState, actor: str) -> list[FightAttack]:
        """``actor``'s attacks (those the attack option lists), without their odds."""
        return [_attack(aid, atk) for aid, atk in self.step(state).attacks(actor).items()]

    def _maneuvers(self, ctx: Ctx, close: bool, rolled: bool, atk: Attack
                   ) -> tuple[Maneuver, ...]:
        """The maneuvers an attack may be declared with: the trades (an attack with no roll
        has no attack bonus to trade: they are offered dimmed, with the reason), a finishing
        attack (close), the intent to kill."""
        words = self.words()
        most = max_trade(ctx.pack)
        why = "" if rolled else f"no attack roll ({atk.range.value}): nothing to trade"

        def named(mid: str, most: int, switch: bool = False, why: str = "") -> Maneuver:
            w = words.get(mid)
            return Maneuver(id=mid, name=w.name if w else mid.replace("_", " ").capitalize(),
                            summary=w.summary if w else "", most=most, switch=switch, why=why)

        out = [named(m, most, why=why) for m in TRADE_ORDER]
        if close:
            out.append(named("finishing", 1, switch=True))
        out.append(KILL)
        return tuple(out)

    def adjust_options(self, step: Ctx, actor: str, out: list[FightOption]
                       ) -> list[FightOption]:
        """Without the actions that make no sense now; an offered counter and a readied action
        allowed off-turn (fight_more); standing and acting after a delay (turn_rules)."""
        return turn_rules.adjust_options(step, actor,
                                         fight_more.adjust_options(step, actor, out))

    # ---------------------------------------------------------- declaring
    def special(self, step: Ctx, actor: str, action: str, target: str | None,
                attack: str | None, maneuvers: Mapping[str, int], options: Mapping[str, Any]
                ) -> Pending | None:
        """A readied action or an offered counter, declared on or off one's turn; a delayed
        turn taken (``turn_rules.STEP_IN``)."""
        if action == turn_rules.STEP_IN:
            return turn_rules.declare_step_in(step, actor, target)
        return fight_more.declare_off_turn(step, actor, action, target, attack, maneuvers,
                                           options)

    def check_maneuvers(self, step: Ctx, maneuvers: Mapping[str, int]) -> None:
        """Only the trade maneuvers go in ``maneuvers``."""
        for m in maneuvers:
            if m not in TRADES:
                raise IllegalAction(f"unknown maneuver {m!r} (maneuvers: {', '.join(TRADES)})")

    def pick_target(self, step: Ctx, actor: str, rule: ActionRule[Any], target: str | None,
                    attack: str | None, options: Mapping[str, Any]) -> str | None:
        """An area attack needs no target, nor does a release; a finishing attack may reach a
        foe who is down but still there."""
        if rule.target == "foe" and target is None and (rule.id == "release" or (
                rule.needs_attack and attack and step.attacks(actor).get(attack) is not None
                and step.attacks(actor)[attack].range == "area")):
            return None
        if (target is not None and target in step.state.actors and rule.target == "foe"
                and target not in step.foes(actor) and rule.needs_attack
                and options.get("finishing") and _downed_foe(step, actor, target)):
            return target
        return super().pick_target(step, actor, rule, target, attack, options)

    def checked(self, step: Ctx, pending: Pending, rule: ActionRule[Any]) -> Pending:
        """An attack's maneuvers are checked against their limits now."""
        atk = attack_of(step, pending) if rule.needs_attack else None
        if atk is not None:
            trade_values(step, pending.actor, atk, pending.maneuvers)
        mpos.declared(step, pending.actor, rule.id, pending.target, atk)
        return pending

    # ---------------------------------------------------------- resolving
    def run(self, step: Ctx, rule: ActionRule[Any], pending: Pending) -> None:
        """A free action is taken on one's turn; every action runs with hero points, lost
        items and holds looked after (fight_more.run_action)."""
        if rule.cost == "free" and step.enc.acting != pending.actor:
            raise IllegalAction("not your turn")
        turn_rules.before_action(step, rule.id, pending)
        fight_more.run_action(step, rule, pending)
        turn_rules.after_action(step, rule.id, pending)

    def cannot_pay(self, step: Ctx, actor: str, rule: ActionRule[Any]) -> str | None:
        """Standing is free with Instant Up."""
        if rule.id == "stand" and turn_rules.stand_is_free(step, actor):
            return None
        return super().cannot_pay(step, actor, rule)

    # ---------------------------------------------------------- the rest of the game
    def finished(self, state: CampaignState) -> str | None:
        """The side left with anyone who can act (the neutralised cannot: neutral.py)."""
        if state.fight is None:
            return None
        ctx = self.step(state)
        return standing_side(state, state.fight,
                             lambda a: ctx.out(a) or bool(neutralised(ctx, a)))

    def odds(self, state: CampaignState, actor: str, attack: str, target: str,
             maneuvers: Mapping[str, int]) -> FightTarget:
        """The exact odds of ``actor``'s ``attack`` on ``target`` with these maneuvers
        (``IllegalAction`` when a maneuver breaks its limits)."""
        ctx = self.step(state)
        atks = ctx.attacks(actor)
        if attack not in atks:
            raise IllegalAction(f"{ctx.name(actor)} has no attack {attack!r}")
        return odds_against(ctx, actor, target, atks[attack],
                            {k: v for k, v in maneuvers.items() if v})

    def foe_options(self, state: CampaignState) -> list[FoeOption]:
        """Who a fight may be against: present NPCs with a stat block, then the pack's
        villains and minion groups not yet in play (by block id)."""
        return foe_list(state, lambda: characters(self.pack),
                        lambda npc: block_of(self.pack, npc),
                        lambda blk: blk.kind is Kind.HERO, _foe_detail,
                        lambda blk: blk.count if blk.kind is Kind.MINION_GROUP else 0)

    def referee(self, state: CampaignState, actor: str) -> Pending:
        """The referee's choice for ``actor`` (engine/systems/mm3e/referee.py), as a pending
        action with its reason; an action the budget cannot pay becomes the end of the turn."""
        ctx = self.step(state)
        choice = mpos.referee_choice(ctx, actor, situation(ctx, actor))
        action = "attack" if choice.action == "team_attack" else choice.action
        pending = Pending(actor=actor, action=action, target=choice.target,
                          attack=choice.attack, maneuvers=dict(choice.maneuvers),
                          team=list(choice.team), why=choice.why, by="referee",
                          options={"routine": True} if choice.routine else {})
        rule = self.actions.get(action)
        free = action == "stand" and turn_rules.stand_is_free(ctx, actor)
        if rule is None or (rule.cost not in ("none", "free") and not free
                            and not en.can(ctx.enc, self.spec, actor, str(rule.cost))):
            return Pending(actor=actor, action="end_turn", why=choice.why, by="referee")
        return pending

    # ---------------------------------------------------------- the lab
    empty_tracks = frozenset({"damage"})

    def blocks(self) -> Mapping[str, Any]:
        """The pack's stat blocks by id."""
        return characters(self.pack)

    def default_foes(self) -> list[str]:
        """The villain and the minion group of the lowest power level (the first in the file
        on ties)."""
        blocks = characters(self.pack)
        out: list[str] = []
        for kind in (Kind.VILLAIN, Kind.MINION_GROUP):
            found = [(b.power_level, i, bid) for i, (bid, b) in enumerate(blocks.items())
                     if b.kind is kind]
            if found:
                out.append(min(found)[2])
        return out or super().default_foes()

    def health(self, state: CampaignState, actor: str) -> dict[str, float]:
        """Conditions, the damage penalty; hurt at 2 or more."""
        damage = float(state.actors[actor].tracks.get("damage", 0))
        return {**super().health(state, actor), "damage": damage, "hurt": float(damage >= 2)}

    def roll_outcome(self, e: Mapping[str, Any], move: str) -> tuple[str, dict[str, float]]:
        """Attacks hit or miss (a critical is a hit), checks and opposed checks succeed or
        fail: the degrees are not split, each side's chance the sum of its outcomes'."""
        odds = super().roll_outcome(e, move)[1]
        success = sum(p for b, p in odds.items()
                      if b in ("hit", "critical") or b.startswith(("+", "w")))
        yes, no = ("hit", "miss") if move == "attack" else ("success", "failure")
        return (yes if int(e.get("degree", 0)) > 0 else no), {yes: success, no: 1.0 - success}

    # ---------------------------------------------------------- reading
    def row(self, step: Ctx, actor: str, base: TrackerRow) -> TrackerRow:
        """Conditions, the damage penalty, a held turn or action."""
        a = step.state.actors[actor]
        conds = sorted(c.value for c in step.conditions(actor)
                       if c.value in a.conditions or any(
                           e.what == c.value for e in step.effects_on(actor)))
        p = step.enc.participant(actor)
        return replace(base, conditions=tuple(conds), columns=InitiativeColumns(
            damage=step.damage(actor), waiting=p.held or ""), band=mpos.row_band(step, actor))


def fighter(ctx: Ctx, actor: str) -> rf.Fighter:
    """A character as the referee sees it."""
    block = ctx.block(actor)
    group = ctx.state.actors[actor].data.get("group")
    return rf.Fighter(
        id=actor, name=ctx.name(actor), side=side_of(ctx.state, actor),
        kind="minion" if block.minion else block.kind.value,
        group=str(group) if group else None, power_level=block.power_level,
        conditions=frozenset(c.value for c in ctx.conditions(actor)),
        damage=ctx.damage(actor), out=ctx.out(actor) or bool(neutralised(ctx, actor)),
        dodge=block.defenses.dodge, parry=block.defenses.parry,
        toughness=block.defenses.toughness, fortitude=block.defenses.fortitude,
        will=block.defenses.will,
        attacks=tuple(rf.AttackOption(id=aid, name=a.name, range=a.range.value,
                                      bonus=a.bonus or 0, rank=a.rank, effect=a.effect.value,
                                      resisted_by=a.resisted_by, conditions=tuple(a.conditions))
                      for aid, a in ctx.attacks(actor).items()),
        skills=dict(block.skills), advantages=frozenset(a.name for a in block.advantages),
        recovered=actor in ctx.fight.recovered, grabbed=actor in ctx.fight.holds,
        morale=block.morale)


def _as_seen_by(ctx: Ctx, actor: str, foe: rf.Fighter) -> rf.Fighter:
    """A foe as ``actor`` sees it: vulnerable to it after its feint; its band from it."""
    foe = replace(foe, band=mpos.band(ctx, actor, foe.id))
    if any(e.what == "feinted" and e.source == actor for e in ctx.effects_on(foe.id)):
        return replace(foe, conditions=foe.conditions | {C.VULNERABLE.value})
    return foe


def situation(ctx: Ctx, actor: str) -> rf.Situation:
    """The fight as the referee sees it on ``actor``'s turn."""
    enc = ctx.enc
    side = side_of(ctx.state, actor)
    order = [p.actor for p in en.ranked(enc.participants) if p.present]
    allies = tuple(fighter(ctx, a) for a in order if a != actor
                   and side_of(ctx.state, a) == side)
    foes = tuple(_as_seen_by(ctx, actor, fighter(ctx, a)) for a in order
                 if side_of(ctx.state, a) != side)
    group = ctx.state.actors[actor].data.get("group")
    ready: tuple[str, ...] = ()
    if group:
        ready = tuple(a for a in order if a == actor or (
            ctx.state.actors[a].data.get("group") == group and teams.can_join(ctx, a)
            and (enc.participant(a).last_round != enc.round
                 or enc.participant(a).held == "delay")))
    return rf.Situation(me=fighter(ctx, actor), allies=allies, foes=foes, round=enc.round,
                        budget=dict(enc.budget), group_ready=ready,
                        can_delay=en.can_delay(enc) and enc.acting == actor,
                        acted=enc.acting == actor and enc.acted)


def condition_summary(condition: str) -> str:
    """What a condition does, in a line."""
    try:
        return CONDITIONS[C(condition)].summary
    except (ValueError, KeyError):
        return ""


def check_blocks(pack: Pack) -> list[str]:
    """Problems in the pack's stat blocks (for validate)."""
    try:
        characters(pack)
    except ContentError as e:
        return list(e.problems) if getattr(e, "problems", None) else [str(e)]
    return []


def action_words(pack: Pack) -> dict[str, ActionWords]:
    """The pack's words for fight actions and maneuvers (``actions.yaml``), by id."""
    return MM3EConflict(pack).words()



__all__ = ["FILLED_IN", "MANEUVER_IDS", "MM3EConflict", "action_words", "check_blocks",
           "condition_summary", "fighter", "situation"]
