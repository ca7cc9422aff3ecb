"""The referee: how the non-player side of an M&M 3e fight chooses what to do (pure).

``choose(situation)`` gives one ``Choice`` for the fighter whose turn it is; the fight engine
carries it out, takes away what it cost from the budget and asks again, until the choice is
``end_turn``. ``explain_options`` lists every option the referee weighed, best first. Nothing
here is random: the same situation always gives the same choice, and every tie is broken by a
stated order. Every choice says why in one sentence, naming its target and its odds.

The policy, in the order it is applied:

1. **Nothing left to spend** (no standard and no move action), out of the fight, or no foe
   standing: ``end_turn``.
2. **Morale**, only for a fighter whose stat block declares it (``Fighter.morale``, the
   ``morale`` trait: the seed has no morale, so without it a character fights on until taken
   down): once broken (``at``: ``hurt``, any damage; ``staggered``, staggered or at
   ``MORALE_DAMAGE`` (-4) or worse; ``half_down``, half or more of its minion group down;
   with ``alone``, only when no ally outside its group still stands) it ``flee``s (a move
   action, which a dazed or staggered turn pays with its standard action; held or immobile,
   it ``surrender``s instead) or ``surrender``s, as ``then`` says.
3. **Escape** (a move action) when grabbed and a move action is left.
4. **Recover** (a standard action that takes the whole turn, once per conflict) when dazed,
   staggered or at ``BADLY_HURT`` (-3) or worse, at the start of the turn (nothing paid for
   yet: ``Situation.acted``) with the standard action left. A dazed or staggered fighter's
   turn has the standard action only, which is all Recover needs (``actions.recover`` pays
   the move too when there is one, RULES.md D.10 item 6).
5. **Stand** when prone: free with ``INSTANT_UP``, else a move action when one is left, so
   the attack comes after (the referee never gambles on the free DC 20 Acrobatics stand).
6. With a standard action left, the attack phase:

   - Each (attack, target, maneuver) is scored by its **expected effect**: P(hit) (the attack
     check against 10 + the target's active Parry for close or Dodge for ranged attacks, after
     vulnerable/defenseless and prone; a natural 20 is a critical, +5 to the resistance DC; a
     routine check when the rules allow one and it is better) times the value of what the
     target's failed resistance does (DC 15 + rank for Damage, resisted with the target's
     Toughness minus its damage penalty; DC 10 + rank for other effects). Values, named below:
     a -1 penalty 1, dazed 2, staggered 4, a hero or villain taken down ``TAKEDOWN_VALUE`` (10),
     a minion down (any failed check) ``MINION_DOWN_VALUE`` (5); an affliction's degree is
     worth the condition it imposes (``CONDITION_VALUE``), nothing if the target already has it
     (so a blinding affliction on a blinded foe is worthless and the referee turns to damage).
     Perception and area effects always reach the target; an area effect's target rolls Dodge
     (its rank, not halved by vulnerable: a resistance check) against 10 + rank to halve it.
   - Ties go to the option more likely to take its target down, then to the target already
     hurt (the larger damage penalty), then to the lowest target id, then to the smaller trade,
     then to the lowest attack id. So the target is, in effect, the foe most likely to go down.
   - **Maneuvers**, each only with its advantage and within ``maneuvers.max_trade_allowed``
     (``SEED_MAX_TRADE``): Power Attack, All-out Attack and Accurate Attack are tried at every
     allowed amount and kept when they raise the expected effect (All-out counts a risk of
     ``ALL_OUT_RISK`` per point per foe standing). Badly hurt (-3 or worse) with Defensive
     Attack, the referee attacks defensively at the largest allowed trade instead.
   - **Team attack.** A minion whose group has 2 or more members ready (it included), each with
     less than ``TEAM_ALONE_ODDS`` (50%) to hit the best target alone, leads a ``team_attack``
     on it with the others (up to ``TEAM_MAX`` in all), ranked by ``maneuvers.team_attack_rank``,
     if it is the slowest of them; the others ``delay`` to its turn (when they still may).
   - **Demoralize / feint** when the fighter's Intimidation (against the target's better of
     Insight and Will) or Deception (against its better of Deception and Insight) has better
     odds to win than any attack has to hit (an attack with no roll always hits); never
     against a target already impaired (demoralize) or vulnerable (feint), and a feint only
     when an attack with an attack check could follow. The engine should show a feinted
     target to its feinter as vulnerable, or the referee will feint again.
   - Otherwise the best attack; with no usable attack, ``end_turn``. ``explain_options`` lists
     the rule's choice (2-5) if any, then the team attack if its rule holds, the skills that
     beat every attack, the attacks, the other skills, and ``end_turn`` last.
   - Impaired and disabled count against every check, the fighter's and its target's.

Left out (the engine may add them): aim, defend and memory of the last turn that a
``Situation`` does not hold; crits in team attacks. Positions (positions.py) are the
engine's: it passes over close attacks out of reach, charges, or moves toward a foe
(``positions.referee_choice``); a far foe's ``band`` counts against ranged attacks here.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache

from engine.errors import IllegalAction
from engine.odds import whole_percent as pct
from engine.systems.mm3e import attacks as at
from engine.systems.mm3e.actions import opposed
from engine.systems.mm3e.checks import DIE_SIDES, ROUTINE_DIE, degree, degree_odds, success_odds
from engine.systems.mm3e.conditions import (
    Condition,
    attack_modifier_against,
    check_penalty,
    effective,
    expand,
)
from engine.systems.mm3e.conditions import active_defense as conditioned_defense
from engine.systems.mm3e.damage import (
    DAMAGE_CONDITIONS,
    Applied,
    DamageState,
    apply_resistance,
    damage_dc,
    resistance_dc,
)
from engine.systems.mm3e.maneuvers import (
    SEED_MAX_TRADE,
    TEAM_RANK_SPREAD,
    TeamHit,
    Trade,
    apply_trade,
    demoralize_result,
    feint_result,
    max_trade_allowed,
    team_attack_rank,
)
from engine.systems.mm3e.statblock import Morale

# ------------------------------------------------------------------ the policy's numbers

TAKEDOWN_VALUE = Fraction(10)
"""The value of taking a hero or villain down (incapacitated)."""

MINION_DOWN_VALUE = Fraction(5)
"""The value of taking one minion down (a lesser threat than a hero)."""

DAMAGE_VALUE: dict[Applied, Fraction] = {
    Applied.NONE: Fraction(0),
    Applied.PENALTY: Fraction(1),
    Applied.DAZED: Fraction(2),
    Applied.STAGGERED: Fraction(4),
    Applied.INCAPACITATED: TAKEDOWN_VALUE,
    Applied.DYING: TAKEDOWN_VALUE,
    Applied.DEAD: TAKEDOWN_VALUE,
}
"""The value of each row of the damage table a failed Toughness check lands on."""

CONDITION_VALUE: dict[Condition, Fraction] = {
    Condition.INCAPACITATED: TAKEDOWN_VALUE, Condition.DYING: TAKEDOWN_VALUE,
    Condition.DEAD: TAKEDOWN_VALUE,
    Condition.STUNNED: Fraction(6), Condition.COMPELLED: Fraction(5),
    Condition.SURPRISED: Fraction(4), Condition.BOUND: Fraction(4),
    Condition.DEFENSELESS: Fraction(4), Condition.STAGGERED: Fraction(4),
    Condition.DISABLED: Fraction(3), Condition.IMMOBILE: Fraction(3),
    Condition.RESTRAINED: Fraction(3), Condition.EXHAUSTED: Fraction(3),
    Condition.DAZED: Fraction(2), Condition.VULNERABLE: Fraction(2),
    Condition.UNAWARE: Fraction(2),
    Condition.IMPAIRED: Fraction(1), Condition.HINDERED: Fraction(1),
    Condition.FATIGUED: Fraction(1), Condition.PRONE: Fraction(1),
}
"""The value of imposing a condition (an affliction's degree); one the target already has, or
that a condition it has makes moot, is worth nothing."""

TAKEDOWN_CONDITIONS = frozenset({Condition.INCAPACITATED, Condition.DYING, Condition.DEAD})
"""An affliction degree imposing one of these takes the target down."""

AFFLICTION_LADDER = (Condition.DAZED, Condition.STUNNED, Condition.INCAPACITATED)
"""An affliction's conditions by degree of failure when its ``AttackOption`` names none."""

UNKNOWN_CONDITION_VALUE = Fraction(1)
"""The value of a condition the referee does not know."""

OTHER_EFFECT_VALUE = Fraction(1)
"""Weaken, dazzle, nullify and the like: the value of each degree of failure."""

ALL_OUT_RISK = Fraction(1, 20)
"""All-out Attack's cost: per point of Dodge and Parry given up, per foe still standing."""

BADLY_HURT = 3
"""A damage penalty this large (or staggered/dazed) makes the referee recover or defend."""

MORALE_DAMAGE = 4
"""Morale ``at: staggered`` also breaks at this damage penalty."""

TEAM_ALONE_ODDS = Fraction(1, 2)
"""Minions gang up when each of them alone has less than this chance to hit."""

TEAM_MAX = 5
"""The most minions in one team attack (the leader included)."""

MAX_TRADE = SEED_MAX_TRADE
"""The most a trade maneuver moves (the seed's 2)."""

TRADE_ADVANTAGE: dict[Trade, str] = {
    Trade.POWER: "Power Attack",
    Trade.ALL_OUT: "All-out Attack",
    Trade.ACCURATE: "Accurate Attack",
    Trade.DEFENSIVE: "Defensive Attack",
}
"""The advantage each trade maneuver needs."""

TRADE_KEY: dict[Trade, str] = {
    Trade.POWER: "power_attack",
    Trade.ALL_OUT: "all_out",
    Trade.ACCURATE: "accurate",
    Trade.DEFENSIVE: "defensive",
}
"""The key of each trade maneuver in ``Choice.maneuvers``."""

OFFENSIVE_TRADES = (Trade.POWER, Trade.ALL_OUT, Trade.ACCURATE)
"""The trades tried for a better expected effect, in this order."""

MINION_KINDS = frozenset({"minion", "minion_group"})
"""``Fighter.kind`` values that make a minion."""

OUT_CONDITIONS = frozenset({Condition.INCAPACITATED, Condition.DYING, Condition.DEAD})
"""A fighter with one of these is never a target, even if not marked ``out``."""

DEFENCES = ("dodge", "parry", "toughness", "fortitude", "will")
"""The defences an effect may be resisted with."""

INSTANT_UP = "Instant Up"
"""The advantage that makes standing a free action."""

ACTIONS = ("attack", "charge", "aim", "defend", "recover", "stand", "escape", "demoralize",
           "feint", "surrender", "flee", "end_turn", "team_attack", "delay")
"""Every action a ``Choice`` may name."""


# ------------------------------------------------------------------ the interface

@dataclass(frozen=True, slots=True)
class AttackOption:
    """One attack of a stat block, as the referee sees it; ``conditions``: an affliction's
    conditions by degree (none: ``AFFLICTION_LADDER``)."""

    id: str
    name: str
    range: str
    bonus: int
    rank: int
    effect: str
    resisted_by: str
    conditions: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Fighter:
    """One participant: side, kind, defences, attacks, skills, advantages and how hurt it is."""

    id: str
    name: str
    side: str
    kind: str
    group: str | None
    power_level: int
    conditions: frozenset[str]
    damage: int
    out: bool
    dodge: int
    parry: int
    toughness: int
    fortitude: int
    will: int
    attacks: tuple[AttackOption, ...]
    skills: Mapping[str, int]
    advantages: frozenset[str]
    recovered: bool = False
    grabbed: bool = False
    band: str = ""
    """A foe's band from the fighter whose turn it is ("far": its ranged attacks are at
    medium range, -2); "" : not known."""
    morale: Morale | None = None


@dataclass(frozen=True, slots=True)
class Situation:
    """What the fighter ``me`` knows on its turn: allies, foes, the round, its budget."""

    me: Fighter
    allies: tuple[Fighter, ...]
    foes: tuple[Fighter, ...]
    round: int
    budget: Mapping[str, int]
    group_ready: tuple[str, ...] = ()
    """The fighter's minion group who have not acted this round and can (it included, those
    who delayed too), in turn order."""
    can_delay: bool = False
    """Whether the fighter may still delay its turn (a team attack waits for the slowest)."""
    acted: bool = False
    """Whether ``me`` has already paid for an action this turn."""


@dataclass(frozen=True, slots=True)
class Choice:
    """What the referee does, and why in one sentence. ``score`` is the value the choice was
    ranked by: the expected effect for attacks, the success odds for demoralize and feint, None
    for the choices a rule makes (morale, escape, recover, stand, end_turn). ``routine``: make
    the attack as a routine check (10 + bonus), which the rules allow here and which does
    better than rolling."""

    action: str
    why: str
    target: str | None = None
    attack: str | None = None
    maneuvers: Mapping[str, int] = field(default_factory=dict)
    team: tuple[str, ...] = ()
    score: Fraction | None = None
    routine: bool = False


# ------------------------------------------------------------------ small helpers



_KNOWN = frozenset(c.value for c in Condition)


def _conds(f: Fighter) -> frozenset[Condition]:
    """The fighter's conditions, expanded; strings that are not conditions are ignored."""
    return _expanded(f.conditions)


@lru_cache(maxsize=4096)
def _expanded(conditions: frozenset[str]) -> frozenset[Condition]:
    return expand(c for c in conditions if c in _KNOWN)


def _minion(f: Fighter) -> bool:
    return f.kind in MINION_KINDS


def _standing(f: Fighter) -> bool:
    """Whether the fighter is still in the fight (a possible target)."""
    return not f.out and not (_conds(f) & OUT_CONDITIONS)


def _has(f: Fighter, advantage: str) -> bool:
    return advantage.casefold() in {a.casefold() for a in f.advantages}


def _skill(f: Fighter, name: str) -> int | None:
    for key in sorted(f.skills):
        if key.casefold() == name.casefold():
            return f.skills[key]
    return None


def _defence(f: Fighter, name: str) -> int | None:
    return int(getattr(f, name)) if name in DEFENCES else None


def _and(names: list[str]) -> str:
    """'A', 'A and B', 'A, B and C'."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _hurt(f: Fighter) -> str:
    return f" ({f.name} at -{f.damage})" if f.damage > 0 else ""


def _spend(budget: Mapping[str, int], kind: str) -> int:
    return max(0, int(budget.get(kind, 0)))


# ------------------------------------------------------------------ what a hit is worth

@dataclass(frozen=True, slots=True)
class _Worth:
    """What one hit is expected to do: its value, P(the target fails), P(it goes down)."""

    value: Fraction
    fails: Fraction
    down: Fraction

    def times(self, p: Fraction) -> _Worth:
        return _Worth(self.value * p, self.fails * p, self.down * p)

    def plus(self, other: _Worth) -> _Worth:
        return _Worth(self.value + other.value, self.fails + other.fails, self.down + other.down)


_NOTHING = _Worth(Fraction(0), Fraction(0), Fraction(0))


@lru_cache(maxsize=8192)
def _resist(effect: str, modifier: int, dc: int, penalty: int,
            damage_conditions: frozenset[Condition], minion: bool, auto_fail: bool,
            ladder: tuple[tuple[Fraction, bool], ...]) -> _Worth:
    """The worth of the target resisting ``effect`` with ``modifier`` against ``dc``;
    ``auto_fail``: a critical's Increased Effect on a minion (the worst degree, no roll);
    ``ladder``: an affliction's (value, takes down) by degree of failure."""
    odds = {-4: Fraction(1)} if auto_fail else degree_odds(modifier, dc)
    state = DamageState(penalty, damage_conditions)
    total = _NOTHING
    for signed, p in odds.items():
        if signed > 0:
            continue
        failed = -signed
        if effect == "damage":
            applied = apply_resistance(state, signed, minion=minion).applied
            down = applied in (Applied.INCAPACITATED, Applied.DYING, Applied.DEAD)
            value = MINION_DOWN_VALUE if minion else DAMAGE_VALUE[applied]
        elif effect == "affliction" and ladder:
            value, down = ladder[len(ladder) - 1 if minion else min(failed, len(ladder)) - 1]
            if minion and down:
                value = MINION_DOWN_VALUE
        else:
            down = False
            value = OTHER_EFFECT_VALUE * (4 if minion else failed)
        total = total.plus(_Worth(value, Fraction(1), Fraction(int(down))).times(p))
    return total


def _worth(attack: AttackOption, target: Fighter, rank: int, *, crit: bool = False) -> _Worth:
    """What one hit of ``attack`` at ``rank`` does to ``target`` (a critical: +5 DC)."""
    resist = _defence(target, attack.resisted_by)
    if resist is None:
        return _NOTHING
    conds = _conds(target)
    damage = attack.effect == "damage"
    dc = damage_dc(rank) if damage else resistance_dc(rank)
    if crit:
        dc = at.crit_resistance_dc(dc, at.CritEffect.INCREASED)
    penalty = -max(0, target.damage) if damage else 0
    modifier = resist + penalty + check_penalty(conds)
    state_conds = frozenset(c for c in conds if c in DAMAGE_CONDITIONS)
    minion = _minion(target)
    ladder = _ladder(attack, conds) if attack.effect == "affliction" else ()
    return _resist(attack.effect, modifier, dc, penalty, state_conds, minion, crit and minion,
                   ladder)


def _ladder(attack: AttackOption, has: frozenset[Condition]) -> tuple[tuple[Fraction, bool], ...]:
    """An affliction's (value, takes down) by degree against a target with conditions ``has``:
    nothing for a condition it already has or that one it has makes moot."""
    known = {c.value for c in Condition}
    out: list[tuple[Fraction, bool]] = []
    for name in attack.conditions or tuple(c.value for c in AFFLICTION_LADDER):
        if name not in known:
            out.append((UNKNOWN_CONDITION_VALUE, False))
            continue
        c = Condition(name)
        moot = c in has or c not in effective(has | {c})
        out.append((Fraction(0) if moot else CONDITION_VALUE[c],
                    c in TAKEDOWN_CONDITIONS and not moot))
    return tuple(out)


# ------------------------------------------------------------------ scored attacks

@dataclass(frozen=True, slots=True)
class _Scored:
    """An option with the numbers it was ranked by."""

    choice: Choice
    score: Fraction
    hit: Fraction
    fails: Fraction
    down: Fraction
    hurt: int
    target: str
    traded: int


def _key(o: _Scored) -> tuple[Fraction, Fraction, int, str, int, str, str]:
    """Best first: score, P(down), already hurt, lowest target id, smaller trade, attack id."""
    return (-o.score, -o.down, -o.hurt, o.target, o.traded, o.choice.attack or "",
            ",".join(f"{k}{v}" for k, v in sorted(o.choice.maneuvers.items())))


def _rolled(attack: AttackOption) -> bool:
    return attack.range in (at.AttackRange.CLOSE.value, at.AttackRange.RANGED.value)


def _attack_dc(attack: AttackOption, target: Fighter) -> int:
    close = attack.range == at.AttackRange.CLOSE.value
    rank = target.parry if close else target.dodge
    return at.defense_class(conditioned_defense(rank, _conds(target)))


def _attack_bonus(me: Fighter, attack: AttackOption, target: Fighter, bonus: int) -> int:
    close = attack.range == at.AttackRange.CLOSE.value
    far = 0
    if attack.range == at.AttackRange.RANGED.value and target.band == "far":
        far = at.RANGE_PENALTY[at.RangeBand.MEDIUM] or 0
    return (bonus + check_penalty(_conds(me)) + attack_modifier_against(_conds(target), close)
            + far)


def _hit_alone(me: Fighter, attack: AttackOption, target: Fighter) -> Fraction:
    """``me``'s chance to hit ``target`` with ``attack`` and no maneuver (1 for no roll)."""
    if not _rolled(attack):
        return Fraction(1)
    return at.hit_odds(_attack_bonus(me, attack, target, attack.bonus), _attack_dc(attack, target))


def _trades(me: Fighter, attack: AttackOption) -> list[tuple[Trade | None, int]]:
    """The maneuvers to weigh for ``attack``: none, each offensive trade at each allowed amount
    (with its advantage), or, badly hurt with Defensive Attack, the largest defensive trade."""
    if not _rolled(attack):
        return [(None, 0)]
    limits = {"attack": attack.bonus, "effect": attack.rank, "dodge": me.dodge,
              "parry": me.parry}
    if me.damage >= BADLY_HURT and _has(me, TRADE_ADVANTAGE[Trade.DEFENSIVE]):
        most = max_trade_allowed(Trade.DEFENSIVE, max_trade=MAX_TRADE, **limits)
        if most > 0:
            return [(Trade.DEFENSIVE, most)]
    out: list[tuple[Trade | None, int]] = [(None, 0)]
    for trade in OFFENSIVE_TRADES:
        if _has(me, TRADE_ADVANTAGE[trade]):
            most = max_trade_allowed(trade, max_trade=MAX_TRADE, **limits)
            out += [(trade, n) for n in range(1, most + 1)]
    return out


def _score_attack(s: Situation, attack: AttackOption, target: Fighter, trade: Trade | None,
                  amount: int) -> _Scored | None:
    """One (attack, target, maneuver) option with its expected effect; None if it cannot be
    made (an unknown range or defence, or a trade the rules refuse)."""
    me = s.me
    if attack.range not in {r.value for r in at.AttackRange} | {"area"}:
        return None
    if _defence(target, attack.resisted_by) is None:
        return None
    bonus, rank = attack.bonus, attack.rank
    if trade is not None:
        try:
            traded = apply_trade(trade, amount, attack=bonus, effect=rank, dodge=me.dodge,
                                 parry=me.parry, max_trade=MAX_TRADE)
        except IllegalAction:
            return None
        bonus, rank = traded.attack, traded.effect
    how = ""
    if attack.range == "area":
        dodge = target.dodge + check_penalty(_conds(target))
        p_dodge = success_odds(dodge, at.area_dodge_dc(rank))
        worth = _worth(attack, target, at.area_rank(rank, True)).times(p_dodge).plus(
            _worth(attack, target, rank).times(1 - p_dodge))
        hit = Fraction(1)
        odds = f"no attack roll (area), {pct(p_dodge)} to dodge for half"
    elif attack.range == at.AttackRange.PERCEPTION.value:
        worth, hit = _worth(attack, target, rank), Fraction(1)
        odds = "no attack roll (perception)"
    else:
        total = _attack_bonus(me, attack, target, bonus)
        dc = _attack_dc(attack, target)
        can_crit = not (_minion(me) and not _minion(target))
        rolled = at.attack_odds(total, dc, can_crit=can_crit)
        worth = _worth(attack, target, rank).times(rolled["hit"]).plus(
            _worth(attack, target, rank, crit=True).times(rolled["critical"]))
        hit = rolled["hit"] + rolled["critical"]
        if at.routine_allowed(target_defenseless=Condition.DEFENSELESS in _conds(target),
                              target_minion=_minion(target), attacker_minion=_minion(me)) \
                and ROUTINE_DIE + total >= dc and _worth(attack, target, rank).value > worth.value:
            worth, hit, how = _worth(attack, target, rank), Fraction(1), " as a routine check"
        odds = f"{pct(hit)} to hit"
    score = worth.value
    if trade is Trade.ALL_OUT:
        score -= ALL_OUT_RISK * amount * sum(1 for f in s.foes if _standing(f))
    maneuvers = {TRADE_KEY[trade]: amount} if trade is not None else {}
    with_what = f"{attack.name}" + (f" ({trade.value.replace('_', ' ')} {amount})"
                                    if trade is not None else "") + how
    verb = "hurt" if attack.effect == "damage" else "affect"
    parts = [odds, f"{pct(worth.fails)} to {verb}"]
    if worth.down:
        parts.append(f"{pct(worth.down)} to take down")
    why = (f"{me.name} attacks {target.name} with {with_what}: " + ", ".join(parts)
           + _hurt(target))
    choice = Choice("attack", why, target=target.id, attack=attack.id, maneuvers=maneuvers,
                    score=score, routine=bool(how))
    return _Scored(choice, score, hit, worth.fails, worth.down, target.damage, target.id, amount)


def _attack_options(s: Situation) -> list[_Scored]:
    """Every (attack, target, maneuver) option, best first."""
    targets = sorted((f for f in s.foes if _standing(f)), key=lambda f: f.id)
    out: list[_Scored] = []
    for attack in sorted(s.me.attacks, key=lambda a: a.id):
        for trade, amount in _trades(s.me, attack):
            for target in targets:
                scored = _score_attack(s, attack, target, trade, amount)
                if scored is not None:
                    out.append(scored)
    return sorted(out, key=_key)


# ------------------------------------------------------------------ team attacks

@lru_cache(maxsize=4096)
def _team_outcomes(bonus: int, dc: int) -> tuple[tuple[int, Fraction], ...]:
    """One member's attack in a team attack: (degrees of success capped at 3, 0 for a miss)
    with their chances (no crits)."""
    counts: dict[int, int] = {}
    for face in range(1, DIE_SIDES + 1):
        result = at.attack(face, bonus, dc, can_crit=False)
        degrees = min(3, max(1, degree(result.total, dc))) if result.hit else 0
        counts[degrees] = counts.get(degrees, 0) + 1
    return tuple((d, Fraction(n, DIE_SIDES)) for d, n in sorted(counts.items()))


@lru_cache(maxsize=1024)
def _team_ranks(members: tuple[tuple[int, int, int], ...]) -> dict[int | None, Fraction]:
    """The rank a team attack lands (None: all missed) with its chance; each member is
    (attack bonus, defense class, effect rank)."""
    spreads = [[(TeamHit(rank, d > 0, max(d, 1)), p) for d, p in _team_outcomes(bonus, dc)]
               for bonus, dc, rank in members]
    dist: dict[int | None, Fraction] = {}
    for combo in itertools.product(*spreads):
        p = Fraction(1)
        for _, q in combo:
            p *= q
        rank = team_attack_rank([hit for hit, _ in combo])
        dist[rank] = dist.get(rank, Fraction(0)) + p
    return dist


def _team_option(s: Situation, best: _Scored) -> Choice | None:
    """A team attack led by ``me`` on the best solo option's target with its attack, when 2+
    of the group are ready and each alone has less than ``TEAM_ALONE_ODDS`` to hit; when
    ``me`` is not the slowest of them (the last in ``group_ready``) and may delay, a delay to
    the slowest one's turn instead, who will lead it."""
    me = s.me
    if not _minion(me) or me.group is None or best.choice.action != "attack":
        return None
    attack = next(a for a in me.attacks if a.id == best.choice.attack)
    target = next(f for f in s.foes if f.id == best.choice.target)
    if not _rolled(attack):
        return None
    ready = set(s.group_ready)
    members: list[tuple[Fighter, AttackOption]] = [(me, attack)]
    for ally in s.allies:
        if len(members) >= TEAM_MAX:
            break
        if ally.id not in ready or ally.id == me.id or ally.group != me.group \
                or not _standing(ally):
            continue
        theirs = next((a for a in ally.attacks if a.id == attack.id), None)
        if theirs is None or theirs.effect != attack.effect \
                or theirs.resisted_by != attack.resisted_by or theirs.range != attack.range:
            continue
        ranks = [a.rank for _, a in members] + [theirs.rank]
        if max(ranks) - min(ranks) > TEAM_RANK_SPREAD:
            continue
        members.append((ally, theirs))
    if len(members) < 2:
        return None
    alone = [_hit_alone(f, a, target) for f, a in members]
    if max(alone) >= TEAM_ALONE_ODDS:
        return None
    spec = tuple((_attack_bonus(f, a, target, a.bonus), _attack_dc(a, target), a.rank)
                 for f, a in members)
    worth = _NOTHING
    ranks_landed = dict(_team_ranks(spec))
    for rank, p in ranks_landed.items():
        if rank is not None:
            worth = worth.plus(_worth(attack, target, rank).times(p))
    hit_any = 1 - ranks_landed.get(None, Fraction(0))
    others = tuple(f.id for f, _ in members[1:])
    names = _and([f.name for f, _ in members[1:]])
    odds = (f"alone each has at most {pct(max(alone))} to hit, together {pct(hit_any)} that"
            f" one hits and {pct(worth.fails)} to hurt" + _hurt(target))
    slowest = max((f for f, _ in members), key=lambda f: s.group_ready.index(f.id)
                  if f.id in s.group_ready else -1)
    if slowest.id != me.id and s.can_delay:  # the team attack waits for its slowest member
        return Choice("delay", f"{me.name} delays to join {slowest.name}'s team attack on"
                      f" {target.name} ({attack.name}): {odds}", target=target.id,
                      attack=attack.id, score=worth.value)
    why = (f"{me.name} leads a team attack on {target.name} with {names} ({attack.name}):"
           f" {odds}")
    return Choice("team_attack", why, target=target.id, attack=attack.id, team=others,
                  score=worth.value)


# ------------------------------------------------------------------ demoralize and feint

@lru_cache(maxsize=4096)
def _opposed_odds(bonus: int, against: int) -> tuple[Fraction, Fraction]:
    """P(the actor wins an opposed check), P(it wins by 4+ degrees)."""
    wins = big = 0
    for mine, theirs in itertools.product(range(1, DIE_SIDES + 1), repeat=2):
        result = opposed(mine, bonus, theirs, against)
        if result.actor_wins:
            wins += 1
            big += result.degrees >= 4
    total = DIE_SIDES * DIE_SIDES
    return Fraction(wins, total), Fraction(big, total)


def _skill_options(s: Situation, best_hit: Fraction) -> list[Choice]:
    """Demoralize and feint on each foe standing, best odds first (then hurt, then id)."""
    me = s.me
    mine = check_penalty(_conds(me))
    out: list[tuple[Fraction, int, str, Choice]] = []
    intimidation = _skill(me, "Intimidation")
    deception = _skill(me, "Deception")
    follow_up = any(_rolled(a) for a in me.attacks)
    against_best = f"any attack's {pct(best_hit)} to hit"
    for foe in sorted((f for f in s.foes if _standing(f)), key=lambda f: f.id):
        conds = _conds(foe)
        insight = _skill(foe, "Insight")
        if intimidation is not None and not conds & {Condition.IMPAIRED, Condition.DISABLED}:
            resist = max(foe.will, insight if insight is not None else foe.will)
            odds, big = _opposed_odds(intimidation + mine, resist + check_penalty(conds))
            why = (f"{me.name} demoralizes {foe.name}: Intimidation {intimidation} against"
                   f" {resist}, {pct(odds)} to leave them {demoralize_result(1)}"
                   f" ({pct(big)} {demoralize_result(4)}), against {against_best}"
                   + _hurt(foe))
            out.append((odds, foe.damage, foe.id,
                        Choice("demoralize", why, target=foe.id, score=odds)))
        if deception is not None and follow_up and not conds & {Condition.VULNERABLE,
                                                                Condition.DEFENSELESS}:
            theirs = [v for v in (_skill(foe, "Deception"), insight) if v is not None]
            resist = max(theirs, default=0)
            odds, _ = _opposed_odds(deception + mine, resist + check_penalty(conds))
            why = (f"{me.name} feints at {foe.name}: Deception {deception} against {resist},"
                   f" {pct(odds)} to leave them {feint_result(1)} to the next attack, against"
                   f" {against_best}" + _hurt(foe))
            out.append((odds, foe.damage, foe.id, Choice("feint", why, target=foe.id,
                                                        score=odds)))
    out.sort(key=lambda t: (-t[0], -t[1], t[2], t[3].action))
    return [c for _, _, _, c in out]


# ------------------------------------------------------------------ the rules before attacking

def _broken(s: Situation, morale: Morale) -> str | None:
    """Why ``s.me``'s morale breaks now (its ``morale`` trait), or None."""
    me = s.me
    conds = _conds(me)
    if morale.alone and any(_standing(a) for a in s.allies
                            if me.group is None or a.group != me.group):
        return None
    if morale.at == "half_down":
        if me.group is None:
            return None
        group = [me, *(a for a in s.allies if a.group == me.group)]
        down = sum(1 for f in group if not _standing(f))
        return (f"{down} of the {len(group)} in its group are down"
                if 2 * down >= len(group) else None)
    staggered = Condition.STAGGERED in conds
    at = f" at -{me.damage}" if me.damage else ""
    if staggered:
        return "staggered" + at
    if morale.at == "staggered":
        return f"at -{me.damage}" if me.damage >= MORALE_DAMAGE else None
    if Condition.DAZED in conds:
        return "dazed" + at
    return f"at -{me.damage}" if me.damage > 0 else None


def _morale(s: Situation) -> Choice | None:
    """Flee or surrender when the fighter's ``morale`` breaks (see the module docstring)."""
    me = s.me
    if me.morale is None:
        return None
    state = _broken(s, me.morale)
    if state is None:
        return None
    alone = " with no ally left standing" if me.morale.alone else ""
    if me.morale.then == "surrender":
        return Choice("surrender", f"{me.name} surrenders: {state}{alone}")
    if me.grabbed or Condition.IMMOBILE in _conds(me):
        held = "held fast" if me.grabbed else "unable to move"
        return Choice("surrender", f"{me.name} surrenders: {state}{alone}, and {held}")
    if not (_spend(s.budget, "move") or _spend(s.budget, "standard")):
        return None  # fleeing is a move action, which the standard may pay for
    return Choice("flee", f"{me.name} flees: {state}{alone}")


def _before_attacking(s: Situation) -> Choice | None:
    """Escape, recover or stand, when the policy says so."""
    me = s.me
    conds = _conds(me)
    move, standard = _spend(s.budget, "move"), _spend(s.budget, "standard")
    if me.grabbed and move:
        held = "bound" if Condition.BOUND in conds else "held"
        return Choice("escape", f"{me.name} tries to break free (move action): {held} in a"
                      " grab")
    dazed = conds & {Condition.DAZED, Condition.STAGGERED}
    if standard and not s.acted and not me.recovered and (dazed or me.damage >= BADLY_HURT):
        what = [c.value for c in (Condition.STAGGERED, Condition.DAZED) if c in conds][:1]
        if me.damage:
            what.append(f"at -{me.damage}")
        return Choice("recover", f"{me.name} recovers (once per conflict, the whole turn): "
                      + " and ".join(what))
    if Condition.PRONE in conds and _has(me, INSTANT_UP):
        return Choice("stand", f"{me.name} is up at once (Instant Up, a free action): prone")
    if Condition.PRONE in conds and move:
        return Choice("stand", f"{me.name} stands up (move action) before attacking: prone")
    return None


# ------------------------------------------------------------------ the referee

def _end(s: Situation, reason: str) -> Choice:
    return Choice("end_turn", f"{s.me.name} ends the turn: {reason}")


def explain_options(s: Situation) -> list[Choice]:
    """Every option the referee weighed, best first; the first is ``choose``'s."""
    me = s.me
    standard, move = _spend(s.budget, "standard"), _spend(s.budget, "move")
    if me.out or not _standing(me):
        return [_end(s, "out of the fight")]
    if not standard and not move:
        return [_end(s, "nothing left to spend")]
    if not any(_standing(f) for f in s.foes):
        return [_end(s, "no foe left standing")]
    first: list[Choice] = []
    for rule in (_morale, _before_attacking):
        made = rule(s)
        if made is not None:
            first.append(made)
    scored = _attack_options(s) if standard else []
    attacks = [o.choice for o in scored]
    best_hit = max((o.hit for o in scored), default=Fraction(0))
    team = _team_option(s, scored[0]) if scored else None
    skills = _skill_options(s, best_hit) if standard else []
    better = [c for c in skills if c.score is not None and c.score > best_hit]
    worse = [c for c in skills if c not in better]
    rest = ([team] if team else []) + better + attacks + worse
    if not standard:
        reason = "no standard action left"
    elif not rest:
        reason = "no usable attack"
    else:
        reason = "nothing better to do"
    return first + rest + [_end(s, reason)]


def choose(s: Situation) -> Choice:
    """The referee's choice for ``s.me`` (the first of ``explain_options``)."""
    return explain_options(s)[0]
