"""Hazards in play (RULES.md D.5): what a hazard check does to the hero, and the exposure each
hazard keeps on the hero (``KEY`` in its data) so that the DC, the time and the journal follow
it from check to check.

- **Suffocation**: a hero can hold their breath 10 rounds + 2 per Stamina rank; the move
  ``hold_breath`` (no roll) lets rounds pass ("holds their breath: 3 rounds left"). After that
  a Fortitude check each round (``face_hazard``, DC 10, +1 per previous success); a failure is
  incapacitated, and the next round without air dying, unable to stabilize until able to
  breathe (``hold_breath``: "breathe again"). A suffocation check while breath is left is
  refused.
- **Vacuum**: holding one's breath in vacuum is a Fortitude check every round from the first
  (DC 15, +1 a round); each success costs a rank of Stamina (-1 on Fortitude and Toughness
  checks, 2 rounds less breath) until the hero breathes again; a failure (or letting go) starts
  the suffocation: incapacitated the next round, dying the round after.
- **Radiation**: a Fortitude check on exposure (DC 10 + rank), then one each day; the journal
  says when the next one is due, and the rank is remembered for it.
- **Falls**: rank 4 + 2 per distance rank (at most 16), less the Strength (or power) rank of
  whoever catches the falling hero (``face_hazard``'s ``caught``). Catching someone is the move
  ``catch_falling``: Dexterity DC 5; both then resist the fall's rank less the catcher's
  Strength.
- Heat, cold, thirst and hunger walk the fatigue ladder; the bends stun; fire and falls are
  Damage. Every timed hazard's next check is numbered for the player (``check`` 0: the next
  one) and its time said ("the next check is due in 10 minutes").
"""

from __future__ import annotations

from typing import Any, Protocol

from engine.content import schema as s
from engine.errors import IllegalAction
from engine.rules import events as ev
from engine.rules.base import Item, Need, Step, opt
from engine.rules.state import Actor, CampaignState
from engine.rules.types import EffectContext, Modifier
from engine.systems.mm3e import damage, hazards
from engine.systems.mm3e.conditions import Condition
from engine.systems.mm3e.registry import MM3E
from engine.systems.mm3e.statblock import StatBlock

FILLED_IN = (
    "Hazards in play: a suffocation check while the hero still has breath is refused; once a"
    " suffocation check fails, the next round without air makes the hero dying whatever is"
    " rolled. Stamina lost holding one's breath in vacuum returns when the hero breathes again,"
    " and weighs -1 a rank on Fortitude and Toughness checks out of a fight meanwhile. A fall's"
    " rank less the catcher's Strength is never below 0. A hazard's check number, when not"
    " given, is the next of the exposure the hero keeps; radiation's rank, when not given, is"
    " the one of its last check."
)
"""The rules of this module that the seed leaves out, filled in."""

KEY = "mm3e_exposure"
"""Where the hero keeps its exposures: hazard id -> its record."""
ROLL_KEY = "mm3e_roll"
"""Where ``MM3ERules.after_roll`` records the roll the outcome's effects read."""

SUFFOCATION = "suffocation"
VACUUM = "vacuum_breath"
RADIATION = "radiation"
NO_AIR = (SUFFOCATION, VACUUM)

NAMES: dict[str, str] = {
    "heat_cold_uncomfortable": "Heat or cold, uncomfortable (hourly)",
    "heat_cold_intense": "Heat or cold, intense (every 10 minutes)",
    "heat_cold_extreme": "Heat or cold, extreme (every minute)",
    "thirst": "Thirst (after a day; hourly)",
    "starvation": "Starvation (after three days; daily)",
    SUFFOCATION: "Suffocation (each round, once your breath runs out)",
    "vacuum_bends": "Vacuum: the bends (from round 3)",
    VACUUM: "Vacuum: holding your breath (each round)",
    "disease": "Disease", "poison": "Poison",
    RADIATION: "Radiation (on exposure, then daily)",
    "fire": "Fire", "falling": "A fall",
}
"""The hazards a player may declare (darkness needs no check: it gives concealment)."""

_NEXT = {hazards.Unit.ROUND: "next round", hazards.Unit.MINUTE: "in a minute",
         hazards.Unit.HOUR: "in an hour", hazards.Unit.DAY: "tomorrow"}


class HasBlock(Protocol):
    """The ruleset as this module reads it."""

    def block(self, actor: Actor) -> StatBlock:
        """The actor's stat block."""
        ...


# ------------------------------------------------------------------ the exposure record

def exposures(hero: Actor) -> dict[str, dict[str, int]]:
    """Every exposure the hero keeps, by hazard id (a copy)."""
    raw = hero.data.get(KEY) or {}
    return {k: dict(v) for k, v in raw.items()}


def record(hero: Actor, hid: str) -> dict[str, int]:
    """The hero's exposure to ``hid`` (empty: none)."""
    return exposures(hero).get(hid, {})


def _set(hero: Actor, changes: dict[str, dict[str, int] | None]) -> ev.Event:
    """The event that writes ``changes`` (None: that exposure ends) into the hero's record."""
    now = exposures(hero)
    for hid, rec in changes.items():
        if rec is None:
            now.pop(hid, None)
        else:
            now[hid] = rec
    return ev.DataSet(scope=hero.id, key=KEY, value=now or None)


def check_number(hero: Actor, hid: str, given: int | None) -> int:
    """The check being made against ``hid``: ``given`` when set (1 or more), else the next of
    the hero's exposure."""
    if given:
        return given
    return record(hero, hid).get("checks", 0) + 1


def remembered_rank(hero: Actor, hid: str, given: int | None) -> int:
    """The hazard's rank: ``given`` when set, else radiation's from its last check."""
    if given or hid != RADIATION:
        return given or 0
    return record(hero, hid).get("rank", 0)


def stamina_lost(hero: Actor) -> int:
    """Ranks of Stamina the hero has lost holding their breath in vacuum."""
    return record(hero, VACUUM).get("stamina_lost", 0)


def stamina_modifiers(hero: Actor, resisted_with: str) -> list[Modifier]:
    """The lost Stamina's -1 a rank on Fortitude and Toughness checks."""
    lost = stamina_lost(hero)
    if not lost or resisted_with not in ("fortitude", "toughness"):
        return []
    return [[f"Stamina lost to vacuum ({lost} rank{'s' if lost > 1 else ''})", -lost, None]]


def breath_left(rules: HasBlock, hero: Actor) -> int:
    """Rounds of breath the hero has left: the record's, else 10 + 2 x Stamina (less lost)."""
    rec = record(hero, SUFFOCATION)
    if "breath" in rec:
        return rec["breath"]
    return hazards.breath_rounds(rules.block(hero).abilities.stamina - stamina_lost(hero))


def status(rules: HasBlock, hero: Actor, hid: str) -> str:
    """What the exposure to ``hid`` stands at, in words ('' when there is none)."""
    rec = record(hero, hid)
    if hid == SUFFOCATION:
        stage = _STAGES[rec.get("stage", 0)]
        if stage:
            return f"{hero.name} is {stage}"
        left = breath_left(rules, hero)
        if left:
            return f"{hero.name} can hold their breath {left} more round{_s(left)} first"
    if not rec.get("checks"):
        return ""
    n = rec["checks"]
    return f"{n} check{_s(n)} made" + (f", rank {rec['rank']}" if rec.get("rank") else "")


def refuse(rules: HasBlock, hero: Actor, hid: str) -> None:
    """``IllegalAction`` when no check against ``hid`` is due: a suffocation check while the
    hero still holds their breath."""
    if hid != SUFFOCATION or not record(hero, SUFFOCATION):
        return
    left = breath_left(rules, hero)
    if left and not record(hero, SUFFOCATION).get("stage"):
        raise IllegalAction(f"{hero.name} still holds their breath: {left} round{_s(left)}"
                            " left before any check (Hold your breath lets them pass)")


def _s(n: int) -> str:
    return "" if n == 1 else "s"


_STAGES = ("", "suffocating (incapacitated next round)", "incapacitated for lack of air",
           "dying for lack of air")
"""A suffocation's stage after its failure: 1 (vacuum: incapacitated next round),
2 incapacitated, 3 dying."""


# ------------------------------------------------------------------ marking conditions

def damage_state(actor: Actor) -> damage.DamageState:
    """The actor's damage: its ``damage`` track as the penalty and its damage conditions."""
    conds = frozenset(c for c in damage.DAMAGE_CONDITIONS if c.value in actor.conditions)
    return damage.DamageState(-max(0, actor.tracks.get("damage", 0)), conds)


def damage_events(actor: Actor, old: damage.DamageState, new: damage.DamageState,
                  reason: str) -> list[ev.Event]:
    """The events that take ``actor`` from damage ``old`` to ``new``."""
    out: list[ev.Event] = []
    if new.penalty != old.penalty:
        out.append(ev.TrackChanged(track="damage", scope="hero",
                                   delta=old.penalty - new.penalty, value=-new.penalty,
                                   reason=reason, who=actor.id))
    for c in damage.DAMAGE_CONDITIONS:
        if c in new.conditions and c not in old.conditions:
            out.append(ev.ConditionMarked(who=actor.id, condition=c.value, reason=reason))
        elif c in old.conditions and c not in new.conditions:
            out.append(ev.ConditionCleared(who=actor.id, condition=c.value, reason=reason))
    return out


def mark(hero: Actor, cond: Condition, why: str) -> list[ev.Event]:
    """Mark ``cond`` on the hero (nothing when it is marked already)."""
    if cond.value in hero.conditions:
        return []
    return [ev.ConditionMarked(who=hero.id, condition=cond.value, reason=why)]


def fatigue(hero: Actor, why: str) -> list[ev.Event]:
    """One step down the fatigue ladder (fatigued, exhausted, incapacitated, dying)."""
    level = None
    for step in hazards.FATIGUE_LADDER[1:]:
        if step is not None and step.value in hero.conditions:
            level = step
    nxt = hazards.fatigue_after_failure(level)
    if nxt is None or nxt == level:
        return [ev.Narrated(text=f"{why}; no worse than {level} already.", by="engine")]
    out = mark(hero, nxt, why)
    if level in (Condition.FATIGUED, Condition.EXHAUSTED):
        out.append(ev.ConditionCleared(who=hero.id, condition=level.value,
                                       reason=f"{why}: now {nxt.value}"))
    return out


def _say(text: str) -> ev.Event:
    return ev.Narrated(text=text, by="engine")


# ------------------------------------------------------------------ the hazard check's result

def _rolled(state: CampaignState) -> tuple[dict[str, Any], hazards.Hazard | None]:
    rec: dict[str, Any] = state.hero.data.get(ROLL_KEY) or {}
    hid = next((d.split(":", 1)[1] for d in rec.get("declared", [])
                if d.startswith("hazard:")), None)
    return rec, hazards.HAZARDS.get(hid or "")


def _next_words(hz: hazards.Hazard, n: int, rank: int) -> str:
    """'the next check is due tomorrow (check 2, DC 14)'."""
    when = _NEXT.get(hz.interval.unit, "") if hz.interval else ""
    if hz.interval is not None and hz.interval.amount > 1:
        when = f"in {hz.interval.amount} {hz.interval.unit.value}s"
    return (f"the next check is due {when} (check {n + 1}, DC"
            f" {hazards.dc_of_check(hz, n + 1, rank)})")


def _after_check(hero: Actor, hz: hazards.Hazard, rec: dict[str, Any]) -> tuple[
        int, int, dict[str, int]]:
    """The check just made, its rank and the exposure record with it counted."""
    params = rec.get("params", {})
    n = check_number(hero, hz.id, int(params.get("check") or 0))
    rank = remembered_rank(hero, hz.id, int(params.get("rank") or 0))
    new = {**record(hero, hz.id), "checks": n}
    if hz.id == SUFFOCATION:  # checks are made: the held breath has run out
        new["breath"] = 0
    if hz.id == RADIATION:
        new["rank"] = rank
    return n, rank, new


def _round_without_air(hero: Actor) -> list[ev.Event] | None:
    """A suffocation already past its failure: another round without air (None: not so)."""
    rec = record(hero, SUFFOCATION)
    stage = rec.get("stage", 0)
    if not stage:
        return None
    if stage == 1:
        return [*mark(hero, Condition.INCAPACITATED, "Suffocating"),
                _set(hero, {SUFFOCATION: {**rec, "stage": 2}}),
                _say(f"Another round without air: {hero.name} is incapacitated; dying next"
                     " round unless able to breathe.")]
    out = [*mark(hero, Condition.DYING, "Suffocating"),
           _set(hero, {SUFFOCATION: {**rec, "stage": 3}})]
    return [*out, _say(f"Another round without air: {hero.name} is dying, and cannot"
                       " stabilize until able to breathe again.")]


@MM3E.rule_effect("hazard_success")
def _hazard_success(rules: HasBlock, state: CampaignState, eff: s.Rule, ctx: EffectContext
                    ) -> Step:
    """A hazard check passed: the exposure counts it and says when the next one is due (a
    success holding one's breath in vacuum costs a rank of Stamina)."""
    rec, hz = _rolled(state)
    hero = state.hero
    if hz is None:
        return Step()
    if hz.id == SUFFOCATION and (late := _round_without_air(hero)) is not None:
        return Step(late)
    n, rank, new = _after_check(hero, hz, rec)
    name = NAMES[hz.id].split(" (")[0]
    if hz.growth is hazards.Growth.NONE and hz.id != RADIATION:
        return Step()
    events: list[ev.Event] = []
    text = f"{name}: {hero.name} holds out; {_next_words(hz, n, rank)}."
    if hz.id == VACUUM:
        new["stamina_lost"] = new.get("stamina_lost", 0) + 1
        stamina = rules.block(hero).abilities.stamina - new["stamina_lost"]
        text = (f"{name}: {hero.name} holds on, at the cost of a rank of Stamina (now"
                f" {stamina}: -{new['stamina_lost']} on Fortitude and Toughness until able to"
                f" breathe); {_next_words(hz, n, rank)}.")
    if hz.id == RADIATION:
        text = f"{name} (rank {rank}): {hero.name} shrugs it off today; {_next_words(hz, n, rank)}."
    events += [_set(hero, {hz.id: new}), _say(text)]
    return Step(events)


@MM3E.rule_effect("hazard_failure")
def _hazard_failure(rules: HasBlock, state: CampaignState, eff: s.Rule, ctx: EffectContext
                    ) -> Step:
    """A hazard check failed by ``degrees``: its consequence, and the exposure counted."""
    degrees = int(eff.args.get("degrees") or 1)
    rec, hz = _rolled(state)
    hero = state.hero
    if hz is None:
        return Step([_say("The hazard gets to you.")])
    if hz.id == SUFFOCATION and (late := _round_without_air(hero)) is not None:
        return Step(late)
    n, rank, new = _after_check(hero, hz, rec)
    name = NAMES[hz.id].split(" (")[0]
    why = f"{name}: failed"
    keep = [_set(hero, {hz.id: new})] if hz.growth is not hazards.Growth.NONE else []
    if hz.on_failure.startswith("fatigue ladder"):
        return Step([*fatigue(hero, why), *keep,
                     _say(f"{name}: {_next_words(hz, n, rank)}.")])
    if hz.id == SUFFOCATION:
        return Step([*mark(hero, Condition.INCAPACITATED, why),
                     _set(hero, {SUFFOCATION: {**record(hero, SUFFOCATION), "breath": 0,
                                               "stage": 2}}),
                     _say(f"{hero.name} is incapacitated for lack of air: dying next round"
                          " unless able to breathe, and unable to stabilize until then.")])
    if hz.id == VACUUM:
        return Step([_set(hero, {VACUUM: new, SUFFOCATION: {
            **record(hero, SUFFOCATION), "breath": 0, "stage": 1}}),
            _say(f"{why}: {hero.name} cannot hold their breath any longer and begins to"
                 " suffocate: incapacitated next round, dying the round after, unless back in"
                 " air.")])
    if hz.id == "vacuum_bends":
        cond = hazards.bends_result(-degrees)
        return Step(mark(hero, cond, why) if cond else [])
    if hz.id == RADIATION:
        return Step([_set(hero, {RADIATION: new}), _say(
            f"{name} (rank {rank}): failed by {degrees} degree{_s(degrees)}: {hz.on_failure}"
            f" (mark what it does); {_next_words(hz, n, rank)}.")])
    if hz.resist == "toughness":
        old = damage_state(hero)
        out = damage.apply_resistance(old, -degrees)
        return Step(damage_events(hero, old, out.state, why)
                    or [_say("No further harm.")])
    return Step([_say(f"{why}: {hz.on_failure}.")])


# ------------------------------------------------------------------ holding one's breath

@MM3E.rule_effect("hold_breath")
def _hold_breath(rules: HasBlock, state: CampaignState, eff: s.Rule, ctx: EffectContext
                 ) -> Need:
    """How many rounds pass holding one's breath, or an end to it."""
    hero = state.hero
    rec = record(hero, SUFFOCATION)
    stage = rec.get("stage", 0)
    left = breath_left(rules, hero)
    options = []
    if stage in (1, 2):
        options.append(opt("round", "Another round without air",
                           "incapacitated" if stage == 1 else "dying"))
    elif not stage and left:
        options += [opt(str(k), f"{k} round{_s(k)}", "your breath runs out" if k == left else
                        f"{left - k} left") for k in range(1, left + 1)]
    elif not stage:
        options.append(opt("hold", "Keep holding on",
                           "a Fortitude check each round: Face a hazard, suffocation"))
    if not rec:
        options.append(opt("vacuum", "In vacuum",
                           "a Fortitude check every round from the first, DC 15 and up"))
    if rec:
        options.append(opt("breathe", "Breathe again", "air at last"))
    head = (f"{hero.name} is {_STAGES[stage]}." if stage else
            f"{hero.name} can hold their breath {left} more round{_s(left)}."
            if left else f"{hero.name}'s breath has run out.")
    return Need("pick", f"{head} How many rounds pass?" if left and not stage else head,
                options, title="Hold your breath")


@MM3E.rule_answer("hold_breath")
def _held(rules: HasBlock, state: CampaignState, eff: s.Rule, ctx: EffectContext,
          ids: list[str]) -> list[Item]:
    """The rounds that passed, or the end of it."""
    hero = state.hero
    if len(ids) != 1:
        raise IllegalAction("pick one")
    pick = ids[0]
    rec = record(hero, SUFFOCATION)
    if pick == "breathe":
        events = _breathe(rules, hero)
    elif pick == "round":
        events = _round_without_air(hero) or []
    elif pick == "vacuum":
        events = [_set(hero, {SUFFOCATION: {"breath": 0}}), _say(
            f"{hero.name} holds their breath in vacuum: a Fortitude check every round from"
            " now (Face a hazard: vacuum, holding your breath; DC 15, +1 a round), each one"
            " made costing a rank of Stamina.")]
    elif pick == "hold":
        dc = hazards.dc_of_check(hazards.HAZARDS[SUFFOCATION], check_number(
            hero, SUFFOCATION, 0))
        events = [_say(f"{hero.name} holds on: this round's Fortitude check is DC {dc} (Face a"
                       " hazard: suffocation).")]
    elif pick.isdigit() and 1 <= int(pick) <= breath_left(rules, hero):
        left = breath_left(rules, hero) - int(pick)
        events = [_set(hero, {SUFFOCATION: {**rec, "breath": left}}), _say(
            f"{hero.name} holds their breath: {left} round{_s(left)} left." if left else
            f"{hero.name} holds their breath until it runs out: a Fortitude check each round"
            " from now (Face a hazard: suffocation, DC 10, +1 per success).")]
    else:
        raise IllegalAction(f"no such choice: {pick}")
    return [{"emit": e.to_dict()} for e in events]


def _breathe(rules: HasBlock, hero: Actor) -> list[ev.Event]:
    lost = stamina_lost(hero)
    text = f"{hero.name} breathes again"
    if lost:
        text += f"; the {lost} rank{_s(lost)} of Stamina lost to the vacuum come back"
    if Condition.DYING.value in hero.conditions:
        text += "; dying, but able to stabilize now"
    return [_set(hero, {SUFFOCATION: None, VACUUM: None}), _say(text + ".")]


# ------------------------------------------------------------------ catching a fall

def _param(rules: Any, rec: dict[str, Any], pid: str) -> int:
    value = rec.get("params", {}).get(pid)
    if value is not None:
        return int(value)
    move = rules.pack.moves.get(rec.get("move", ""))
    prm = next((p for p in move.roll.params if p.id == pid), None) if move and move.roll \
        else None
    return prm.default if prm is not None else 0


@MM3E.rule_effect("caught")
def _caught(rules: Any, state: CampaignState, eff: s.Rule, ctx: EffectContext) -> Step:
    """A falling person caught: the fall's rank less the catcher's Strength (or the power's
    rank given), resisted by both."""
    rec: dict[str, Any] = state.hero.data.get(ROLL_KEY) or {}
    hero = state.hero
    fall = hazards.falling_rank(_param(rules, rec, "rank"))
    power = _param(rules, rec, "power")
    strength = power or rules.block(hero).abilities.strength
    left = hazards.caught_rank(fall, strength)
    using = f"{'power rank' if power else 'Strength'} {strength}"
    if not left:
        return Step([_say(f"{hero.name} catches the fall (rank {fall}) with {using}: neither"
                          " of them is hurt.")])
    return Step([_say(f"{hero.name} catches the fall (rank {fall}) with {using}: both of them"
                      f" resist Damage {left} (Toughness DC {15 + left}; Resistance check).")])


@MM3E.rule_effect("missed_catch")
def _missed(rules: Any, state: CampaignState, eff: s.Rule, ctx: EffectContext) -> Step:
    """The catch missed: the fall lands in full."""
    rec: dict[str, Any] = state.hero.data.get(ROLL_KEY) or {}
    fall = hazards.falling_rank(_param(rules, rec, "rank"))
    return Step([_say(f"{state.hero.name} misses: the fall lands at its full rank {fall}"
                      f" (Toughness DC {15 + fall}).")])


__all__ = ["FILLED_IN", "KEY", "NAMES", "breath_left", "check_number", "damage_events",
           "damage_state", "exposures", "fatigue", "mark", "record", "refuse",
           "remembered_rank", "stamina_lost", "stamina_modifiers", "status"]
