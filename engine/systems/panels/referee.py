"""The referee of the panels game: how the villains' side spends its panels and answers hits
(pure, RULES.md C).

``choose(situation)`` gives one ``Choice`` for the fighter whose panel it is; the fight engine
carries it out, takes its panels away and asks again until the choice is ``end_turn``.
``explain_options`` lists every option weighed, best first. ``respond(...)`` says whether a
fighter the referee plays dodges, parries (and with which form) or takes a hit. Nothing here is
random: the same input always gives the same answer, and every tie is broken by a stated order.
Every answer says why in one sentence naming its target and its odds.

The turn policy, in the order it is applied:

1. **Nothing to do.** Out of the fight, ``ARREARS_LIMIT`` (5) panels in arrears (no actions
   until panels accrue), no panel left, or no foe standing: ``end_turn``.
2. **Morale.** An ordinary fighter (a thug) ``flee``s when it is stunned or when at least half
   of its group is out (its group: the allies with its ``group``; thugs without one form one
   crowd per side). A significant fighter ``flee``s when stunned with no ally standing. One
   that cannot flee (``can_flee`` False, e.g. held) or lacks the panel ``surrender``s.
2a. **Prone.** A fighter lying flat ``stand``s (1 panel) before anything else.
2b. **Held.** A held fighter that does not flee or surrender tries to ``escape`` (1 panel,
   d20 + the better of Strength and Agility, 15+), and while held attacks only its holder.
3. **First aid** (1 panel) to an ally at 0 Kill (dying), the lowest id first.
4. **Catch breath** (2 panels) when stunned by its Stun track only (Kill not low) and the die of
   Stun it regains (d6 significant, d3 ordinary) lifts it out of stunned with odds of at least
   ``CATCH_BREATH_ODDS`` (1/2).
5. **Attack** (1 panel). Each (form, target standing) is scored by what this hit is expected to
   do, assuming no response: the to-hit odds (d20 + Dexterity's skill modifier, stunned -5;
   natural 20 a complete hit) times the exact damage distributions of damage.py for a minor and
   a complete hit against the target's tracks:
   ``OUT_VALUE`` (10) x P(out: 0 Kill or 0 Stun) + ``STUN_VALUE`` (4) x P(newly stunned) +
   ``WEAR_VALUE`` (1) x E[the larger share of a track's remaining points the hit takes].
   Ties: the target already hurt (the larger share of its tracks lost), then the lowest target
   id, then the form listed first. Lethal forms are used against a significant foe only by a
   fighter that is lethal by its forms (its first form is lethal, or it has no other; the
   ``lethal`` field overrides): a thug with a gun shoots, a brawler with a knife in his pocket
   punches the hero. A thug keeps its group's target (``Situation.group_target``) while that
   foe stands; a thug choosing afresh names its group in ``Choice.gang`` so the engine records
   the new target for the others (thugs gang up).
6. Otherwise ``end_turn``.

The response policy (``respond``): a dodge (Agility) and a parry with each eligible form
(Dexterity, responses.eligible, rules 1-7 of C.4) are weighed by the exact expected Kill + Stun
they avoid (responses.dodged_distribution and parried_distribution), a parry chosen only when it
avoids strictly more than the dodge (ties: dodge, then the form listed first). Against an
ordinary attacker a response is free and always made when allowed. Against a significant one it
costs a future panel and is made only when it avoids at least ``RESPONSE_WORTH`` (5) points,
and never when it would bring the debt to ``ARREARS_LIMIT`` while the fighter still needs panels
next round (it does unless the hit, undodged, puts it out with odds of ``DESPERATE_ODDS`` (1/2)
or more). Never at the limit, never out of the fight.

Left out (the engine may add them): crit table entries (a natural 20 only counts as a complete
hit here), grabbing, powers that are not attacks, picking things up, and the target's likely
response when scoring an attack (a prone fighter's -5 and a far foe's -2 to missiles are
counted). Positions are the engine's (positions.py): it passes over melee attacks out of
reach, moves in before one on a close foe, or moves toward a foe (``positions.referee_choice``).
``Situation.simultaneous`` is carried into the why (a tied round).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Literal

from engine.errors import IllegalAction
from engine.odds import whole_percent as pct
from engine.rules.encounter import ARREARS_LIMIT
from engine.systems.panels.checks import Band, effective_modifier, odds, skill_modifier
from engine.systems.panels.damage import (
    AttackForm,
    Damage,
    DamageDice,
    Delivery,
    DistKey,
    Health,
    Status,
    Track,
    damage_dice,
    die_sides,
    dist_key,
)
from engine.systems.panels.responses import (
    can_respond,
    eligible,
    expected_after_dodge,
    expected_after_parry,
    expected_total,
    parry_with_of,
    response_cost,
)
from engine.systems.panels.statblock import Character

# ------------------------------------------------------------------ the policy's numbers

OUT_VALUE = Fraction(10)
"""The value of putting a foe out (0 Kill or 0 Stun) with this hit."""

STUN_VALUE = Fraction(4)
"""The value of leaving a foe newly stunned (10% or less of a track)."""

WEAR_VALUE = Fraction(1)
"""The value of taking all that is left of a track (scaled by the share taken)."""

RESPONSE_WORTH = Fraction(5)
"""Expected Kill + Stun a response must avoid to be worth a future panel."""

DESPERATE_ODDS = Fraction(1, 2)
"""A hit that puts the fighter out with at least these odds makes next round's panels moot."""

CATCH_BREATH_ODDS = Fraction(1, 2)
"""Catch breath when the regained die ends the stun with at least these odds."""

PRONE_PENALTY = -5
"""To hit (fight_more's rule): a prone fighter's melee attacks and grabs, and missile attacks
at a prone one."""

FAR_PENALTY = -2
"""To hit (positions.py's rule): a missile attack at a far target (long range)."""

ACTION_COSTS: Mapping[str, int] = {
    "attack": 1, "first_aid": 1, "catch_breath": 2, "flee": 1, "surrender": 0, "end_turn": 0,
    "escape": 1, "stand": 1, "move": 1,
}
"""Panels each action costs (content/panels/actions.yaml's costs; ``Situation.costs``
overrides)."""

ACTIONS = tuple(ACTION_COSTS)
"""Every action a ``Choice`` may name."""

ResponseAction = Literal["none", "dodge", "parry"]


# ------------------------------------------------------------------ the interface

@dataclass(frozen=True, slots=True)
class Fighter:
    """One participant as the referee sees it: side, class, tracks, characteristics, forms,
    future panels owed. ``group``: a thug group; ``lethal``: None reads it from the forms;
    ``can_flee``: False when held or cornered; ``out``: fled, surrendered or down;
    ``held_by``: the id of whoever holds it; ``prone``: lying flat."""

    id: str
    name: str
    side: str
    significant: bool
    kill: int
    kill_max: int
    stun: int
    stun_max: int
    agility: int
    dexterity: int
    strength: int
    attacks: tuple[AttackForm, ...]
    arrears: int = 0
    out: bool = False
    group: str | None = None
    lethal: bool | None = None
    stops_bullets: bool = False
    can_flee: bool = True
    held_by: str | None = None
    prone: bool = False
    band: str = ""
    """A foe's band from the fighter whose turn it is (positions.py; "far": missiles at it
    are at ``FAR_PENALTY``); "" : not known."""

    def __post_init__(self) -> None:
        Track(self.kill, self.kill_max)
        Track(self.stun, self.stun_max)
        for value in (self.agility, self.dexterity, self.strength):
            skill_modifier(value)
        if not 0 <= self.arrears <= ARREARS_LIMIT:
            raise IllegalAction(f"{self.name}: future panels owed run from 0 to"
                                f" {ARREARS_LIMIT}, got {self.arrears}")

    @property
    def health(self) -> Health:
        """The Kill and Stun tracks."""
        return Health(Track(self.kill, self.kill_max), Track(self.stun, self.stun_max))

    @property
    def stunned(self) -> bool:
        """At 10% or less of either track (or worse): -5 on every d20."""
        return self.health.stunned

    @property
    def standing(self) -> bool:
        """Still in the fight: not out, not at 0 on a track."""
        return not self.out and not self.health.out

    @property
    def dying(self) -> bool:
        """At 0 Kill (first aid makes it 1)."""
        return self.kill == 0


def fighter_from(block: Character, id: str, side: str, *, health: Health | None = None,
                 arrears: int = 0, out: bool = False, group: str | None = None,
                 can_flee: bool = True) -> Fighter:
    """A ``Fighter`` from a stat block (fresh tracks unless ``health`` is given)."""
    h = health or block.health()
    ch = block.characteristics
    return Fighter(id, block.name, side, block.significant, h.kill.current, h.kill.maximum,
                   h.stun.current, h.stun.maximum, ch.agility, ch.dexterity, ch.strength,
                   block.all_attacks, arrears, out, group, None, block.stops_bullets, can_flee)


@dataclass(frozen=True, slots=True)
class Situation:
    """What ``me`` knows at its panel: allies, foes, the round, the panels left this turn,
    whether the round is a tie acted simultaneously, and its group's kept target."""

    me: Fighter
    allies: tuple[Fighter, ...]
    foes: tuple[Fighter, ...]
    round: int
    panels_left: int
    simultaneous: bool = False
    group_target: str | None = None
    costs: Mapping[str, int] = field(default_factory=lambda: dict(ACTION_COSTS))

    def __post_init__(self) -> None:
        if self.panels_left < 0:
            raise IllegalAction(f"panels left are never negative, got {self.panels_left}")


@dataclass(frozen=True, slots=True)
class Choice:
    """What the referee does and why in one sentence. ``attack``: the form's name; ``score``:
    the attack's expected value (None for the choices a rule makes); ``gang``: the group whose
    shared target this attack sets (the engine keeps it as ``Situation.group_target``)."""

    action: str
    why: str
    target: str | None = None
    attack: str | None = None
    score: Fraction | None = None
    gang: str | None = None


@dataclass(frozen=True, slots=True)
class ResponseChoice:
    """A response to a hit: none, dodge or parry (with ``form``); the expected Kill + Stun it
    avoids, its odds of working, the future panels it costs and the debt after."""

    action: ResponseAction
    why: str
    form: str | None = None
    avoided: Fraction = Fraction(0)
    odds: Fraction = Fraction(0)
    cost: int = 0
    arrears_after: int = 0


# ------------------------------------------------------------------ small helpers



def _num(x: Fraction) -> str:
    """A quantity to one decimal."""
    return f"{float(x):.1f}"


def _hurt_share(f: Fighter) -> Fraction:
    """How much of its tracks a fighter has lost (0 when fresh, up to 2)."""
    return (Fraction(f.kill_max - f.kill, f.kill_max)
            + Fraction(f.stun_max - f.stun, f.stun_max))


def _group_key(f: Fighter) -> str:
    """A thug's group: its ``group``, or its side's crowd of loose thugs."""
    return f.group if f.group is not None else f"{f.side} thugs"


def is_lethal(f: Fighter) -> bool:
    """Lethal by its forms: its first form is lethal or it has only lethal ones (the
    ``lethal`` field overrides)."""
    if f.lethal is not None:
        return f.lethal
    if not f.attacks:
        return False
    return f.attacks[0].lethal or all(a.lethal for a in f.attacks)


def _forms_against(me: Fighter, target: Fighter) -> list[tuple[int, AttackForm]]:
    """The forms ``me`` may use on ``target`` (with their order), after the lethal rule."""
    forms = list(enumerate(me.attacks))
    if target.significant and not is_lethal(me):
        gentle = [(i, a) for i, a in forms if not a.lethal]
        if gentle:
            return gentle
    return forms


def _cost(s: Situation, action: str) -> int:
    return int(s.costs.get(action, ACTION_COSTS[action]))


@lru_cache(maxsize=4096)
def _distribution(dice: DamageDice) -> tuple[tuple[Damage, Fraction], ...]:
    """``dice``'s exact distribution, cached and ordered."""
    return tuple(sorted(dice.distribution().items(), key=lambda t: (t[0].kill, t[0].stun)))


@lru_cache(maxsize=16384)
def _hit_outcome(kill: int, kill_max: int, stun: int, stun_max: int,
                 dice: DamageDice) -> tuple[Fraction, Fraction, Fraction]:
    """P(out), P(newly stunned), E[largest share of a track taken] for one hit of ``dice``
    (exact, summed in whole numbers over the common denominator: the share of a track
    min(taken, left) / left is compared and summed over kill * stun)."""
    health = Health(Track(kill, kill_max), Track(stun, stun_max))
    was_stunned = health.stunned
    dist = _distribution(dice)
    den = math.lcm(*(p.denominator for _, p in dist))
    n_out = n_stun = n_wear = 0
    for d, p in dist:
        c = p.numerator * (den // p.denominator)
        status = health.take(d).status
        if status in (Status.UNCONSCIOUS, Status.DYING):
            n_out += c
        elif status is Status.STUNNED and not was_stunned:
            n_stun += c
        n_wear += c * max(min(d.kill, kill) * stun, min(d.stun, stun) * kill)
    return Fraction(n_out, den), Fraction(n_stun, den), Fraction(n_wear, den * kill * stun)


@dataclass(frozen=True, slots=True)
class _Scored:
    choice: Choice
    score: Fraction
    hurt: Fraction
    target: str
    order: int


def _key(o: _Scored) -> tuple[Fraction, Fraction, str, int]:
    """Best first: score, then the target more hurt, then the lowest id, then form order."""
    return (-o.score, -o.hurt, o.target, o.order)


def _score(s: Situation, order: int, form: AttackForm, target: Fighter) -> _Scored:
    """One (form, target) attack with its expected value and its why."""
    me = s.me
    prone = PRONE_PENALTY * ((form.range == "melee" and me.prone)
                             + (form.range == "missile" and target.prone))
    far = FAR_PENALTY if form.range == "missile" and target.band == "far" else 0
    hit = odds(skill_modifier(me.dexterity) + prone + far, me.stunned)
    p_out = p_stun = wear = Fraction(0)
    for band, p in ((Band.MINOR, hit.minor), (Band.COMPLETE, hit.complete)):
        dice = damage_dice(form, me.significant, band, me.strength)
        o, st, w = _hit_outcome(target.kill, target.kill_max, target.stun, target.stun_max,
                                dice)
        p_out += p * o
        p_stun += p * st
        wear += p * w
    score = OUT_VALUE * p_out + STUN_VALUE * p_stun + WEAR_VALUE * wear
    parts = [f"{pct(hit.success)} to hit ({pct(hit.complete)} complete)",
             f"{pct(p_out)} to put them out"]
    if not target.stunned:
        parts.append(f"{pct(p_stun)} to stun")
    parts.append(f"expected {pct(wear)} of what a track has left")
    state = ""
    if target.kill < target.kill_max or target.stun < target.stun_max:
        state = (f" ({target.name} at Kill {target.kill}/{target.kill_max},"
                 f" Stun {target.stun}/{target.stun_max})")
    kind = "lethal" if form.lethal else "non-lethal"
    why = (f"{me.name} attacks {target.name} with {form.name} ({kind}): " + ", ".join(parts)
           + state)
    choice = Choice("attack", why, target=target.id, attack=form.name, score=score)
    return _Scored(choice, score, _hurt_share(target), target.id, order)


def _attack_options(s: Situation) -> list[Choice]:
    """Every (form, target) attack, best first; a thug keeps its group's target."""
    me = s.me
    standing = sorted((f for f in s.foes if f.standing), key=lambda f: f.id)
    kept = None
    if not me.significant and s.group_target is not None:
        kept = next((f for f in standing if f.id == s.group_target), None)
    targets = [kept] if kept is not None else standing
    if me.held_by is not None:  # a held fighter may attack only its holder
        targets = [f for f in standing if f.id == me.held_by]
        kept = None
    scored = [_score(s, i, form, t) for t in targets for i, form in _forms_against(me, t)]
    scored.sort(key=_key)
    out: list[Choice] = []
    for o in scored:
        c = o.choice
        if kept is not None:
            c = Choice(c.action, c.why + f"; keeps its group's target, {kept.name}",
                       c.target, c.attack, c.score)
        elif not me.significant:
            crowd = "its group" if me.group is not None else "the other thugs"
            c = Choice(c.action, c.why + f"; {crowd} will gang up on them", c.target,
                       c.attack, c.score, gang=_group_key(me))
        out.append(c)
    return out


# ------------------------------------------------------------------ the rules before attacking

def _morale(s: Situation) -> Choice | None:
    """Flee or surrender when broken (module docstring, rule 2)."""
    me = s.me
    reason = None
    if not me.significant:
        key = _group_key(me)
        group = [me, *(a for a in s.allies if not a.significant and _group_key(a) == key)]
        down = sum(1 for f in group if not f.standing)
        if me.stunned:
            reason = "stunned"
        elif len(group) > 1 and 2 * down >= len(group):
            reason = f"{down} of the {len(group)} in its group are out"
    elif me.stunned and not any(a.standing for a in s.allies):
        reason = "stunned with no ally left standing"
    if reason is None:
        return None
    if me.can_flee and s.panels_left >= _cost(s, "flee"):
        return Choice("flee", f"{me.name} flees: {reason}")
    held = "cannot get away" if not me.can_flee else "no panel left to run with"
    return Choice("surrender", f"{me.name} surrenders: {reason}, and {held}")


def _first_aid(s: Situation) -> Choice | None:
    """First aid to the dying ally with the lowest id (rule 3)."""
    if s.panels_left < _cost(s, "first_aid"):
        return None
    dying = sorted((a for a in s.allies if a.dying and a.id != s.me.id), key=lambda a: a.id)
    if not dying:
        return None
    a = dying[0]
    return Choice("first_aid", f"{s.me.name} gives first aid to {a.name}: at 0 Kill, dying,"
                  " and dead when the fight ends without it", target=a.id)


def catch_breath_odds(f: Fighter) -> Fraction:
    """The odds that one die of Stun (d6 significant, d3 ordinary) ends ``f``'s stun."""
    sides = die_sides(f.significant, Band.MINOR)
    kill = Track(f.kill, f.kill_max)
    good = sum(1 for r in range(1, sides + 1)
               if not Health(kill, Track(f.stun, f.stun_max).heal(r)).stunned)
    return Fraction(good, sides)


def _catch_breath(s: Situation) -> Choice | None:
    """Catch breath when only the Stun track stuns and the die likely ends it (rule 4)."""
    me = s.me
    if s.panels_left < _cost(s, "catch_breath") or not me.stunned:
        return None
    if Track(me.kill, me.kill_max).low:
        return None
    p = catch_breath_odds(me)
    if p < CATCH_BREATH_ODDS:
        return None
    return Choice("catch_breath", f"{me.name} catches its breath: stunned at Stun"
                  f" {me.stun}/{me.stun_max}, {pct(p)} that one die of Stun ends it",
                  score=p)


def _stand(s: Situation) -> Choice | None:
    """Stand up when prone (rule 2a)."""
    if not s.me.prone or s.panels_left < _cost(s, "stand"):
        return None
    return Choice("stand", f"{s.me.name} gets up: prone, it cannot move and its melee attacks"
                  " are at -5")


def escape_odds(f: Fighter) -> Fraction:
    """The odds of breaking free: d20 + the better of Strength and Agility, 15+."""
    return odds(max(skill_modifier(f.strength), skill_modifier(f.agility)), f.stunned).success


def _break_free(s: Situation) -> Choice | None:
    """Break free when held (rule 2b)."""
    me = s.me
    if me.held_by is None or s.panels_left < _cost(s, "escape"):
        return None
    holder = next((f.name for f in s.foes if f.id == me.held_by), me.held_by)
    return Choice("escape", f"{me.name} tries to break free of {holder}:"
                  f" {pct(escape_odds(me))} to get loose", target=me.held_by,
                  score=escape_odds(me))


# ------------------------------------------------------------------ the referee

def _end(s: Situation, reason: str) -> Choice:
    tie = " (a tied round, acted in Agility order)" if s.simultaneous else ""
    return Choice("end_turn", f"{s.me.name} ends the turn{tie}: {reason}")


def explain_options(s: Situation) -> list[Choice]:
    """Every option the referee weighed, best first; the first is ``choose``'s."""
    me = s.me
    if not me.standing:
        return [_end(s, "out of the fight")]
    if me.arrears >= ARREARS_LIMIT:
        return [_end(s, f"{ARREARS_LIMIT} panels in arrears, no actions until panels accrue")]
    if s.panels_left <= 0:
        return [_end(s, "no panel left")]
    if not any(f.standing for f in s.foes):
        return [_end(s, "no foe left standing")]
    out: list[Choice] = []
    for rule in (_stand, _morale, _break_free, _first_aid, _catch_breath):
        made = rule(s)
        if made is not None:
            out.append(made)
    attacks = _attack_options(s) if s.panels_left >= _cost(s, "attack") else []
    out += attacks
    reason = "nothing better to do" if attacks else "no usable attack"
    return [*out, _end(s, reason)]


def choose(s: Situation) -> Choice:
    """The referee's choice for ``s.me`` (the first of ``explain_options``)."""
    return explain_options(s)[0]


# ------------------------------------------------------------------ responses

def _band(quality: Band | str) -> Band:
    try:
        band = Band(quality)
    except ValueError:
        raise IllegalAction(f"a hit is 'minor' or 'complete', not {quality!r}") from None
    if band is Band.FAILURE:
        raise IllegalAction("a miss needs no response: only a minor or complete hit does")
    return band


def _dodge_avoided(key: DistKey, agility_modifier: int, stunned: bool) -> Fraction:
    """Expected Kill + Stun a dodge avoids (``dist_key``'s distribution; cached below)."""
    return expected_total(key) - expected_after_dodge(key, agility_modifier, stunned)


def _parry_avoided(key: DistKey, dexterity_modifier: int, form: AttackForm, significant: bool,
                   strength: int, delivery: Delivery, stunned: bool) -> Fraction:
    """Expected Kill + Stun a parry with ``form`` avoids (cached below)."""
    return expected_total(key) - expected_after_parry(key, dexterity_modifier, form,
                                                      significant, strength, delivery, stunned)


def _p_out(health: Health, dist: Mapping[Damage, Fraction]) -> Fraction:
    return sum((p for d, p in dist.items() if health.take(d).out), Fraction(0))


def respond(defender: Fighter, attacker: Fighter, attack: AttackForm, quality: Band | str,
            dist: Mapping[Damage, Fraction] | None = None) -> ResponseChoice:
    """Whether ``defender`` dodges, parries (with which form) or takes the hit (module
    docstring). ``dist``: the incoming damage's distribution when it is not the attack's own
    dice (a critical hit's entry); otherwise the attacker's dice for ``quality``."""
    band = _band(quality)
    if dist is None:
        dist = damage_dice(attack, attacker.significant, band, attacker.strength).distribution()
    key = dist_key(dist)
    incoming = expected_total(key)
    what = f"{attacker.name}'s {attack.name} ({band.value} hit, expected {_num(incoming)}" \
           " Kill + Stun)"
    me = defender
    if not me.standing:
        return ResponseChoice("none", f"{me.name} cannot respond to {what}: out of the fight",
                              arrears_after=me.arrears)
    ok, reason = can_respond(me.arrears, attacker.significant)
    if not ok:
        return ResponseChoice("none", f"{me.name} takes {what}: {reason}",
                              arrears_after=me.arrears)
    cost = response_cost(attacker.significant)
    after = me.arrears + cost
    ag = skill_modifier(me.agility)
    best: tuple[ResponseAction, str | None, Fraction, Fraction] = (
        "dodge", None, _dodge_avoided(key, ag, me.stunned), odds(ag, me.stunned).success)
    dodge_avoided = best[2]
    dex = skill_modifier(me.dexterity)
    parry_odds = odds(dex, me.stunned).success
    for form in me.attacks:
        allowed, _ = eligible(parry_with_of(form), attack.delivery, me.stops_bullets)
        if not allowed:
            continue
        avoided = _parry_avoided(key, dex, form, me.significant, me.strength,
                                 attack.delivery, me.stunned)
        if avoided > best[2]:
            best = ("parry", form.name, avoided, parry_odds)
    action, form_name, avoided, p = best
    how = "dodges" if action == "dodge" else f"parries with {form_name}"
    if action == "parry":
        detail = f"{pct(p)} to parry, expected {_num(avoided)} avoided (a dodge:" \
                 f" {_num(dodge_avoided)})"
    else:
        detail = f"{pct(p)} to dodge (Agility {effective_modifier(ag, me.stunned):+d})," \
                 f" expected {_num(avoided)} avoided"
    if cost == 0:
        return ResponseChoice(action, f"{me.name} {how} against {what}: {detail}; free against"
                              " an ordinary attacker", form_name, avoided, p, 0, after)
    if avoided < RESPONSE_WORTH:
        noun = how.replace("parries", "a parry", 1).replace("dodges", "a dodge", 1)
        return ResponseChoice("none", f"{me.name} takes {what}: the best response ({noun}) would"
                              f" avoid only {_num(avoided)}, under the {_num(RESPONSE_WORTH)}"
                              " a future panel is worth", arrears_after=me.arrears)
    if after >= ARREARS_LIMIT:
        p_out = _p_out(me.health, dist)
        if p_out < DESPERATE_ODDS:
            return ResponseChoice("none", f"{me.name} takes {what}: responding would leave"
                                  f" them {ARREARS_LIMIT} panels in arrears with panels needed"
                                  f" next round (only a {pct(p_out)} chance the hit puts them"
                                  " out)",
                                  arrears_after=me.arrears)
        detail += f"; desperate: a {pct(p_out)} chance the hit puts them out"
    return ResponseChoice(action, f"{me.name} {how} against {what}: {detail}; costs {cost}"
                          f" future panel (owed {after} of {ARREARS_LIMIT})", form_name,
                          avoided, p, cost, after)
