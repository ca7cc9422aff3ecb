"""Mutants & Masterminds 3e as a playable ruleset: what the pack's data cannot say by itself.

Every check is d20 + a bonus against a DC picked before the roll (the ``dc`` parameter; a
hazard's DC comes from its progression). ``bands_for`` turns the DC into the degree bands
(``fail4`` ... ``success3``); a natural 20 improves the result one degree and a declared
routine check counts the die as 10 (``band_override``). Skills, powers and hazards are declared
before the roll from the acting hero's stat block (``roster.block_of``; a hero made from
abilities alone gets ``builder.derived``). Circumstance modifiers are pre-roll options; a hero
point is spent after the roll. Impaired and disabled weigh on every check, the ``damage`` track
on Toughness. Out of a fight, failed Toughness checks walk the damage ladder, hazards apply their
consequence and rest recovers one damage step a minute; ``start_fight`` asks who the foes are
and requests the fight (``conflict.FightRequested``).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from engine.content import schema as s
from engine.content.loader import Pack
from engine.content.validation import FileLines, read_valid, valid_items
from engine.dice import Degrees
from engine.errors import ContentError, IllegalAction
from engine.odds import band_of
from engine.rules import events as ev
from engine.rules import resolve
from engine.rules.base import (
    Adjustment,
    BandOverride,
    Declaration,
    Editable,
    Item,
    Need,
    Ruleset,
    Step,
    opt,
)
from engine.rules.fight.conflict import ACTIONS_FILE, Conflict
from engine.rules.fight.foes import hero_blocks, npc_block
from engine.rules.sheet import Line, Section, Track, header, party, session, threats
from engine.rules.sheet import cast as cast_section
from engine.rules.state import Actor, CampaignState
from engine.rules.types import EffectContext, Modifier, RollDict
from engine.systems.mm3e import builder, checks, damage, exposure, hazards, pack_files, roster
from engine.systems.mm3e.conditions import (
    CONDITIONS,
    Condition,
    active_defense,
    check_penalty,
)
from engine.systems.mm3e.fight import MM3EConflict
from engine.systems.mm3e.lab_duels import MM3EDuels, shared_duels
from engine.systems.mm3e.registry import MM3E
from engine.systems.mm3e.statblock import StatBlock, misplaced_keys, roster_problems
from engine.systems.mm3e.step import ACTIONS
from engine.systems.mm3e.step import max_trade as pack_max_trade
from engine.systems.mm3e.step import option as pack_option

FILLED_IN = (
    "Checks out of a fight: the DC is set before the roll, 15 (tough) unless changed, named by"
    " the filled-in difficulty table 0 very easy, 5 easy, 10 average, 15 tough, 20"
    " challenging, 25 formidable, 30 heroic, 35 superheroic, 40 nigh-impossible. A natural 20"
    " improves a check one degree (the Deluxe rule, on in the pack: system.yaml data"
    " nat20_degree). Routine checks may be declared for ability, skill and power checks, never"
    " for resistance checks, hazards or during a fight. A skill the hero lacks uses its ability"
    " unless it needs training. Hero points: only the seed's use (after the roll, a die of 10"
    " or less counts 10 more), offered when it changes the result; a hero starts with one."
    " Impaired and disabled weigh on every check; the damage penalty on Toughness checks. A"
    " failed resistance check other than Toughness leaves the effect's result to the player. Rest"
    " recovers damage only; fatigue needs more than minutes."
)
"""The rules of this module that the seed leaves out, filled in."""

DEGREES: dict[str, int] = {"fail4": -4, "fail3": -3, "fail2": -2, "fail1": -1,
                           "success1": 1, "success2": 2, "success3": 3}
"""The degree each band stands for (success3: three or more)."""
BAND_OF_DEGREE = {d: b for b, d in DEGREES.items()}
TOP_SUCCESS = 3

DEFAULT_DC = 15
DC_NAMES = {0: "very easy", 5: "easy", 10: "average", 15: "tough", 20: "challenging",
            25: "formidable", 30: "heroic", 35: "superheroic", 40: "nigh-impossible"}
"""The difficulty table (filled in: the seed's DC examples table is absent)."""

ABILITY_SHORT = {"strength": "STR", "stamina": "STA", "agility": "AGL", "dexterity": "DEX",
                 "fighting": "FGT", "intellect": "INT", "awareness": "AWE",
                 "presence": "PRE"}
DEFENSES = ("dodge", "parry", "toughness", "fortitude", "will")
ACTIVE_DEFENSES = ("dodge", "parry")

LADDER = ("unhurt", *(c.value for c in damage.DAMAGE_CONDITIONS))
"""The damage ladder as the sheet shows it."""

DAMAGE_TRACK = "damage"
HERO_POINTS = "hero_points"
ROLL_KEY = exposure.ROLL_KEY
"""Where ``after_roll`` records what the roll's outcome effects need."""

ROUTINE = "routine"
HERO_POINT = "hero_point"
CIRCUMSTANCES = {"circ_plus2": 2, "circ_minus2": -2, "circ_plus5": 5, "circ_minus5": -5}

DATA_KEYS = {"nat20_degree": bool, "max_trade": int}
"""The keys system.yaml ``data`` may hold, and their types."""

HAZARD_NAMES = exposure.NAMES
"""The hazards a player may declare (darkness needs no check: it gives concealment)."""


def degree_bands(pack: Pack, dc: int) -> list[s.Band]:
    """The degree bands around ``dc``, named as the pack's default set names them."""
    names = {b.id: b for b in pack.system.bands["default"]}
    out: list[s.Band] = []
    for band_id, deg in DEGREES.items():
        lo: int | None
        hi: int | None
        if deg < 0:
            lo = None if deg == -4 else dc + 5 * deg
            hi = dc + 5 * (deg + 1) - 1
        else:
            lo = dc + 5 * (deg - 1)
            hi = None if deg == TOP_SUCCESS else dc + 5 * deg - 1
        base = names.get(band_id)
        out.append(s.Band(id=band_id, name=base.name if base else band_id, min=lo, max=hi,
                          tone=base.tone if base else ("good" if deg > 0 else "bad")))
    return out


def dc_name(dc: int) -> str:
    """The difficulty's name: the nearest step of the table at or below ``dc``."""
    step = max((k for k in DC_NAMES if k <= dc), default=0)
    return DC_NAMES[step]


def slug(text: str) -> str:
    """An id for a skill or power name ("Expertise (Engineering)" -> expertise_engineering)."""
    word = "".join(ch if ch.isalnum() else " " for ch in text.casefold())
    return "_".join(word.split())


damage_state = exposure.damage_state
damage_events = exposure.damage_events


def _emit(e: ev.Event) -> Item:
    return {"emit": e.to_dict()}


class MM3ERules(Ruleset):
    """The Mutants & Masterminds 3e ruleset."""

    id = "mm3e"
    registry = MM3E
    FOES_HINT = "a villain or minions"

    # --- stat blocks ----------------------------------------------------------------------

    def block(self, actor: Actor) -> StatBlock:
        """The actor's stat block; a hero with none gets one derived from its abilities."""
        found = roster.block_of(self.pack, actor)
        return found if found is not None else builder.derived(actor.name, actor.stats)

    # --- what the player set before the roll ----------------------------------------------

    @staticmethod
    def _declared(state: CampaignState, move: s.Move) -> list[str]:
        return list(state.flow.declared) if state.flow.move == move.id else []

    def _picked(self, state: CampaignState, move: s.Move, group: str) -> str | None:
        return next((d.split(":", 1)[1] for d in self._declared(state, move)
                     if d.startswith(f"{group}:")), None)

    def _stat(self, state: CampaignState, move: s.Move) -> str:
        assert move.roll is not None
        stat = state.flow.stat if state.flow.move == move.id and state.flow.stat else None
        if stat is None:
            stat = move.roll.choices[0] if move.roll.stat == "choice" else move.roll.stat
        return stat

    def hazard(self, state: CampaignState, move: s.Move) -> hazards.Hazard | None:
        """The hazard declared for ``move``'s roll, if any."""
        hid = self._picked(state, move, "hazard")
        return hazards.HAZARDS.get(hid) if hid else None

    def hazard_rank(self, state: CampaignState, move: s.Move, hz: hazards.Hazard) -> int:
        """The rank the hazard's DC counts: a fall's damage rank from the distance fallen (less
        the Strength of whoever caught the hero), radiation's remembered from its last check."""
        rank = exposure.remembered_rank(state.hero, hz.id, self.roll_param(state, move, "rank"))
        if hz.id != "falling":
            return rank
        caught = self.roll_param(state, move, "caught") or 0
        return hazards.caught_rank(hazards.falling_rank(rank), caught)

    def dc(self, state: CampaignState, move: s.Move) -> int:
        """The DC of the pending roll of ``move``: the declared hazard's Nth check (the next of
        the hero's exposure unless ``check`` is set), else the ``dc`` parameter (15 when the
        move has none)."""
        if move.roll is not None and move.roll.stat == "hazard":
            hz = self.hazard(state, move)
            if hz is None or (hz.base_dc is None and not hz.ranked):
                return DEFAULT_DC
            n = exposure.check_number(state.hero, hz.id, self.roll_param(state, move, "check"))
            return hazards.dc_of_check(hz, n, self.hazard_rank(state, move, hz))
        value = self.roll_param(state, move, "dc")
        return DEFAULT_DC if value is None else value

    def check_vs_dc(self, natural: int, modifier: int, dc: int) -> Degrees:
        """M&M's check (``checks.check``): one degree per 5 points, a natural 20 one degree
        better with the pack's ``nat20_degree``; a natural 1 is no automatic failure (only an
        attack roll's is, and that is ``attacks.attack``'s)."""
        res = checks.check(natural, modifier, dc, nat20_bonus=self._nat20())
        return Degrees(res.degree > 0, abs(res.degree), natural, res.total, dc)

    def _nat20(self) -> bool:
        return bool(self.pack.system.data.get("nat20_degree", False))

    # --- bands ----------------------------------------------------------------------------

    def bands_for(self, state: CampaignState, move: s.Move, target: str | None
                  ) -> list[s.Band]:
        """Degrees of success and failure around the DC picked for this roll."""
        if move.roll is None or move.roll.bands != "default":
            return self.pack.bands_for(move)
        return degree_bands(self.pack, self.dc(state, move))

    def fixed_faces(self, state: CampaignState, move: s.Move) -> list[int] | None:
        """A declared routine check rolls no die, in every dice mode: its d20 counts as 10."""
        if move.roll is not None and ROUTINE in self._declared(state, move):
            return [checks.ROUTINE_DIE]
        return None

    def band_override(self, state: CampaignState, move: s.Move, faces: Sequence[int],
                      band: str) -> BandOverride | None:
        """A declared routine check counts the die as 10; a natural 20 (with the pack's
        ``nat20_degree``) is one degree better."""
        if band not in DEGREES:
            return None
        if ROUTINE in self._declared(state, move):
            flow = state.flow
            extras = flow.extras if flow.move == move.id else []
            _, _, mod = resolve.modifiers(state, self.pack, self, move, flow.target,
                                          self._stat(state, move), extras)
            total = checks.ROUTINE_DIE + mod
            routine = band_of(total, self.bands_for(state, move, flow.target))
            return BandOverride(routine, f"routine check: no die, 10 + {mod} = {total}")
        if self._nat20() and faces and faces[0] == checks.DIE_SIDES:
            deg = DEGREES[band]
            if deg >= TOP_SUCCESS:
                return None
            up = BAND_OF_DEGREE[min(TOP_SUCCESS, checks.shift_degree(deg, 1))]
            return BandOverride(up, "natural 20: one degree better")
        return None

    # --- declarations and pre-roll options --------------------------------------------------

    def declarations(self, state: CampaignState, move: s.Move) -> list[Declaration]:
        """The skill, power or hazard the roll uses, and a routine check where allowed; once
        one of a kind is declared, only it is listed (to withdraw it)."""
        if move.roll is None:
            return []
        offered: list[Declaration] = []
        stat = move.roll.stat
        hero = state.hero
        if stat == "skill":
            offered += self._skill_declarations(hero)
        elif stat == "power":
            blk = self.block(hero)
            for a in blk.attacks:
                offered.append(Declaration(f"power:{slug(a.name)}", f"{a.name} (rank {a.rank})",
                                           f"{a.effect.value}, {a.range.value}"))
        elif stat == "hazard":
            offered += self._hazard_declarations(state, move)
        ability = stat == "choice" and bool(move.roll.choices) \
            and move.roll.choices[0] in ABILITY_SHORT
        if (stat in ("skill", "power") or ability) and state.fight is None:
            offered.append(Declaration(ROUTINE, "Routine check: 10 + bonus, no die",
                                       "only when nothing presses or threatens you"))
        declared = self._declared(state, move)
        out = []
        for d in offered:
            group = d.id.split(":", 1)[0]
            taken = [x for x in declared if x.split(":", 1)[0] == group]
            if ":" in d.id and taken and d.id not in taken:
                continue
            out.append(d)
        return out

    def _hazard_declarations(self, state: CampaignState, move: s.Move) -> list[Declaration]:
        out = []
        for hid, name in HAZARD_NAMES.items():
            hz = hazards.HAZARDS[hid]
            n = exposure.check_number(state.hero, hid, self.roll_param(state, move, "check"))
            where = exposure.status(self, state.hero, hid)
            dc = hazards.dc_of_check(hz, n, self.hazard_rank(state, move, hz))
            out.append(Declaration(f"hazard:{hid}", name, f"{hz.resist.capitalize()} DC {dc}"
                                   f" (check {n}); on failure: {hz.on_failure}"
                                   + (f"; {where}" if where else "")))
        return out

    def _skill_declarations(self, hero: Actor) -> list[Declaration]:
        blk = self.block(hero)
        out: list[Declaration] = []
        have: set[str] = set()
        for name, bonus in blk.skills.items():
            have.add(builder.skill_id(name))
            out.append(Declaration(f"skill:{slug(name)}", f"{name} {bonus:+d}", "trained"))
        for sid, ability in builder.SKILLS.items():
            if sid in have or sid in builder.TRAINED_ONLY:
                continue
            value = getattr(blk.abilities, ability)
            name = sid.replace("_", " ").capitalize()
            out.append(Declaration(f"skill:{sid}", f"{name} {value:+d} (untrained)",
                                   f"{ability.capitalize()} alone"))
        return out

    def pre_roll_options(self, state: CampaignState, move: s.Move) -> list[Adjustment]:
        """Circumstance modifiers: +2 or -2, +5 or -5 for a big advantage or handicap."""
        if move.roll is None:
            return []
        return [Adjustment("circ_plus2", "Favourable circumstance +2", 2, "a small edge"),
                Adjustment("circ_minus2", "Unfavourable circumstance -2", -2, "a hindrance"),
                Adjustment("circ_plus5", "Big advantage +5", 5, "one difficulty step easier"),
                Adjustment("circ_minus5", "Big handicap -5", -5, "one difficulty step harder")]

    def pre_roll(self, state: CampaignState, move: s.Move, option: str
                 ) -> tuple[list[ev.Event], Modifier | None, str]:
        """A circumstance modifier joins the roll."""
        found = next((o for o in self.pre_roll_options(state, move) if o.id == option), None)
        if found is None:
            return super().pre_roll(state, move, option)
        return [], [found.label.lower(), found.amount, None], found.label

    # --- roll sources and modifiers ---------------------------------------------------------

    def stat_value(self, state: CampaignState, move: s.Move, stat: str) -> tuple[str, int]:
        """Skills, powers, hazards and defenses from the hero's stat block; abilities as
        the hero's stats."""
        hero = state.hero
        if stat == "skill":
            return self._skill_value(state, move, hero)
        if stat == "power":
            pid = self._picked(state, move, "power")
            blk = self.block(hero)
            found = next((a for a in blk.attacks if slug(a.name) == pid), None)
            if found is not None:
                return f"{found.name} rank {found.rank}", found.rank
            rank = self.roll_param(state, move, "rank") or 0
            return f"power rank {rank} (set)", rank
        if stat == "hazard":
            hz = self.hazard(state, move)
            if hz is None or not hz.resist:
                return "no hazard declared yet", 0
            label, value = self._defense(hero, hz.resist)
            return f"{label} vs {HAZARD_NAMES[hz.id].split(' (')[0].lower()}", value
        if stat in DEFENSES:
            return self._defense(hero, stat)
        return super().stat_value(state, move, stat)

    def _defense(self, hero: Actor, which: str) -> tuple[str, int]:
        rank = getattr(self.block(hero).defenses, which)
        if which in ACTIVE_DEFENSES:
            active = active_defense(rank, hero.conditions)
            if active != rank:
                return f"{which.capitalize()} {active} (of {rank}, conditions)", active
        return which.capitalize(), rank

    def _skill_value(self, state: CampaignState, move: s.Move, hero: Actor
                     ) -> tuple[str, int]:
        sid = self._picked(state, move, "skill")
        if sid is None:
            return "no skill declared yet", 0
        blk = self.block(hero)
        for name, bonus in blk.skills.items():
            if slug(name) == sid:
                return name, bonus
        ability = builder.SKILLS.get(sid)
        if ability is None:
            raise IllegalAction(f"{hero.name} has no skill {sid!r}")
        value = getattr(blk.abilities, ability)
        return f"{sid.replace('_', ' ').capitalize()} untrained ({ability.capitalize()})", value

    def extra_modifiers(self, state: CampaignState, move: s.Move, target: str | None
                        ) -> list[Modifier]:
        """Impaired or disabled; the damage penalty on Toughness; the DC and the bonus that
        gives 55% against it (the 55% rule, +0: it explains, it does not change the roll)."""
        if move.roll is None:
            return []
        hero = state.hero
        out: list[Modifier] = []
        penalty = check_penalty(hero.conditions)
        if penalty:
            worst = "disabled" if penalty <= CONDITIONS[Condition.DISABLED].check_penalty \
                else "impaired"
            out.append([worst, penalty, None])
        stat = self._stat(state, move)
        hz = self.hazard(state, move) if stat == "hazard" else None
        toughness = stat == "toughness" or (hz is not None and hz.resist == "toughness")
        taken = hero.tracks.get(DAMAGE_TRACK, 0)
        if toughness and taken > 0:
            out.append([f"damage ({taken} failed Toughness check{'s' if taken > 1 else ''})",
                        -taken, None])
        out += exposure.stamina_modifiers(hero, hz.resist if hz is not None else stat)
        dc = self.dc(state, move)
        out.append([f"against DC {dc} ({dc_name(dc)}): a bonus of"
                    f" {checks.bonus_for_55(dc):+d} would succeed 55% of the time", 0, None])
        return out

    # --- after the roll -----------------------------------------------------------------

    def adjustments(self, state: CampaignState, move: s.Move, roll: RollDict
                    ) -> list[Adjustment]:
        """A hero point, when the die shows 10 or less and it changes the result. A roll made
        without the skill or hazard it needs is refused here (this runs as the roll is made,
        inside its all-or-nothing action)."""
        if move.roll is None:
            return []
        if move.roll.stat == "skill" and self._picked(state, move, "skill") is None:
            raise IllegalAction(f"{move.name}: declare the skill you use first")
        if move.roll.stat == "hazard":
            hz = self.hazard(state, move)
            if hz is None:
                raise IllegalAction(f"{move.name}: declare the hazard you face first")
            exposure.refuse(self, state.hero, hz.id)
        if ROUTINE in self._declared(state, move):
            return []
        have = state.hero.tracks.get(HERO_POINTS, 0)
        kept = [int(f) for f in roll.get("kept", [])]
        spent = any(str(m[0]).startswith("hero point") for m in roll.get("modifiers", []))
        if have < 1 or spent or not kept or kept[0] > checks.HERO_POINT_LIMIT:
            return []
        bands = resolve.roll_bands(self.pack, move, roll)
        better = resolve.reband(roll, checks.HERO_POINT_BONUS, bands,
                                resolve.roll_clamp(self.pack, roll),
                                override=resolve.face_override(state, self, move))
        if better["band"] == roll["band"]:
            return []
        die = kept[0]
        return [Adjustment(HERO_POINT, f"Spend a hero point: {better['band_name']}",
                           checks.HERO_POINT_BONUS,
                           f"the die's {die} counts as {checks.hero_point_die(die)};"
                           f" you hold {have}")]

    def adjustment_name(self, state: CampaignState, adj_id: str) -> str:
        """'a hero point'."""
        return "a hero point" if adj_id == HERO_POINT else super().adjustment_name(state, adj_id)

    def adjust(self, state: CampaignState, adj_id: str, roll: RollDict
               ) -> tuple[list[ev.Event], int, str]:
        """Spend a hero point: the die counts 10 more."""
        if adj_id != HERO_POINT:
            return super().adjust(state, adj_id, roll)
        move = self.pack.moves[roll["move"]]
        if not any(a.id == HERO_POINT for a in self.adjustments(state, move, roll)):
            raise IllegalAction("a hero point cannot change this roll")
        have = state.hero.tracks.get(HERO_POINTS, 0)
        die = int(roll["kept"][0])
        return ([ev.TrackChanged(track=HERO_POINTS, scope="hero", delta=-1, value=have - 1,
                                 reason="spent on a roll")],
                checks.HERO_POINT_BONUS,
                f"hero point (the die's {die} counts as {checks.hero_point_die(die)})")

    def after_roll(self, state: CampaignState, move: s.Move, roll: RollDict) -> list[Item]:
        """Record what the outcome's effects read: the stat, the declarations, the roll's
        parameters and its DC."""
        record: dict[str, Any] = {
            "move": move.id, "stat": self._stat(state, move),
            "declared": self._declared(state, move),
            "params": dict(state.flow.params) if state.flow.move == move.id else {},
            "dc": self.dc(state, move), "band": roll.get("band")}
        return [_emit(ev.DataSet(scope=state.acting, key=ROLL_KEY, value=record))]

    # --- rule effects ---------------------------------------------------------------------

    @MM3E.rule_effect("resistance_failure")
    def _resistance_failed(self, state: CampaignState, eff: s.Rule, ctx: EffectContext
                           ) -> Step | Need:
        """A failed resistance check's degree applied."""
        return self._resistance_failure(state, eff)

    @MM3E.rule_answer("rest")
    def _rested(self, state: CampaignState, eff: s.Rule, ctx: EffectContext,
                ids: list[str]) -> list[Item]:
        """The minutes rested."""
        hero = state.hero
        old = damage_state(hero)
        if len(ids) != 1 or not ids[0].isdigit() or int(ids[0]) < 1:
            raise IllegalAction("say how many minutes you rest (a whole number from 1)")
        new = damage.recover(old, int(ids[0]))
        return [_emit(e) for e in damage_events(
            hero, old, new, f"rested {ids[0]} minute{'s' if ids[0] != '1' else ''}")]

    def _record(self, state: CampaignState) -> dict[str, Any]:
        rec: dict[str, Any] = state.hero.data.get(ROLL_KEY) or {}
        return rec

    @MM3E.rule_effect("rest")
    def _rest_effect(self, state: CampaignState, eff: s.Rule, ctx: EffectContext
                     ) -> Step | Need:
        """Rest: how many minutes (recovery is a step a minute, worst first)."""
        return self._rest(state)

    def _rest(self, state: CampaignState) -> Step | Need:
        hero = state.hero
        now = damage_state(hero)
        minutes = damage.minutes_to_recover(now)
        if minutes is None:
            why = "dead" if now.has(Condition.DEAD) else "dying: stabilize them first"
            return Step([ev.Narrated(text=f"Rest cannot help {hero.name}, who is {why}.",
                                     by="engine")])
        if minutes == 0:
            return Step([ev.Narrated(text=f"{hero.name} has no damage to recover from.",
                                     by="engine")])
        options = [opt(str(m), f"{m} minute{'s' if m > 1 else ''}",
                       "fully recovered" if m == minutes else "")
                   for m in range(1, minutes + 1)]
        return Need("pick", f"How long do you rest? (one damage step a minute; {minutes} to"
                    " recover fully)", options, title="Rest")

    def _resistance_failure(self, state: CampaignState, eff: s.Rule) -> Step:
        degrees = int(eff.args.get("degrees") or 1)
        rec = self._record(state)
        hero = state.hero
        if rec.get("stat") == "toughness":
            old = damage_state(hero)
            out = damage.apply_resistance(old, -degrees)
            events = damage_events(hero, old, out.state,
                                   f"failed Toughness by {degrees} degree"
                                   f"{'s' if degrees > 1 else ''}")
            return Step(events or [ev.Narrated(text="No further harm.", by="engine")])
        which = str(rec.get("stat") or "the check").capitalize()
        return Step([ev.Narrated(
            text=f"{which} failed by {degrees} degree{'s' if degrees > 1 else ''}: the effect"
                 " takes hold as its rank and degree say (mark what it imposes).",
            by="engine")])

    # --- creation ---------------------------------------------------------------------

    def npc_added(self, state: CampaignState, npc_id: str, role: str) -> list[ev.Event]:
        """An NPC named like a block of the characters file plays that block."""
        return npc_block(state, npc_id, lambda: roster.characters(self.pack))

    def campaign_started(self, state: CampaignState) -> list[Item]:
        """Heroes made from an archetype with a stat block hold its id in ``data``."""
        return [_emit(e) for e in hero_blocks(self.pack, state)]

    # --- the sheet --------------------------------------------------------------------------

    def editable(self, state: CampaignState, who: str) -> list[Editable]:
        """Conditions, damage and hero points (abilities come from the stat block)."""
        return [e for e in super().editable(state, who) if e.what != "stat"]

    def conflict(self) -> Conflict[Any]:
        """Fights in rounds (engine/systems/mm3e/fight.py)."""
        return MM3EConflict(self.pack)

    def duels(self) -> MM3EDuels:
        """Fast one-on-one duels (engine/systems/mm3e/duel.py), with the pack's options."""
        return shared_duels(bool(pack_option(self.pack, "nat20_degree")),
                            pack_max_trade(self.pack))

    def hero_from_file(self, path: Path) -> tuple[str, dict[str, int], dict[str, Any]]:
        """A hero from an M&M stat block file (builder.load_hero_file, checked against its
        power level): its name, its abilities as stats, the whole block as data."""
        raw, beside = builder.read_hero_file(path)
        abilities = raw.get("abilities")
        given = {k: v for k, v in abilities.items() if k in self.pack.stats
                 and isinstance(v, int)} if isinstance(abilities, dict) else {}
        ranged = self._out_of_range(given)
        block, found = builder.hero_file_problems(path, raw, skip=set(given) if ranged else ())
        who = str(raw.get("name") or "the hero")
        label = f"(a hero's {self.pack.system.stat_label.lower()} in {self.pack.system.name})"
        found = beside + [f"{path}: {who}: abilities: {p} {label}" for p in ranged] + found
        if block is None or found:
            raise ContentError("\n".join(found), found)
        stats = {k: int(v) for k, v in block.abilities.model_dump().items()}
        return block.name, stats, {"statblock": block.model_dump(mode="json")}

    def _out_of_range(self, abilities: dict[str, int]) -> list[str]:
        """A hero's abilities out of the game's range, in the words a custom stat line gets
        (``engine.heroes.hero_problems``): ``Strength +22 is outside -5..+12``."""
        rules, out = self.pack.system.hero, []
        for k, v in abilities.items():
            stat = self.pack.stats[k]
            lo = rules.stat_min if rules.stat_min is not None else stat.min
            hi = rules.stat_max if rules.stat_max is not None else stat.max
            if not lo <= v <= hi:
                out.append(f"{stat.name} {v:+d} is outside {lo:+d}..{hi:+d}")
        return out

    def sheet(self, state: CampaignState, actor_id: str | None = None) -> list[Section]:
        """Abilities, defenses (active values under conditions), the damage ladder, other
        conditions, hero points, attacks, skills and advantages; then the party, the cast,
        threats and the session. Rows fit the 36-column sidebar."""
        pack = self.pack
        actor = state.actor(actor_id or "hero")
        blk = self.block(actor)
        parts: list[Section | None] = [
            header(pack, actor), self._abilities(actor), self._defenses(actor, blk),
            self._ladder(actor), self._other_conditions(actor), self._points(actor),
            self._attacks(blk), self._skills(blk),
            party(pack, state, actor), cast_section(pack, state), threats(state),
            session(state)]
        return [p for p in parts if p is not None]

    @staticmethod
    def _abilities(actor: Actor) -> Section:
        cells = [f"{short} {actor.stats.get(a, 0)}" for a, short in ABILITY_SHORT.items()]
        return Section(title="Abilities", rows=[Line(text="  ".join(cells[:4])),
                                                Line(text="  ".join(cells[4:]))])

    @staticmethod
    def _defenses(actor: Actor, blk: StatBlock) -> Section:
        d = blk.defenses
        dodge = active_defense(d.dodge, actor.conditions)
        parry = active_defense(d.parry, actor.conditions)
        rows = [Line(text=f"Dodge {dodge}  Parry {parry}  Tough {d.toughness}"),
                Line(text=f"Fort {d.fortitude}  Will {d.will}"
                          f"  Init {blk.initiative_bonus:+d}")]
        if (dodge, parry) != (d.dodge, d.parry):
            rows.append(Line(text=f"(of Dodge {d.dodge}, Parry {d.parry})", tone="bad"))
        speed = ", ".join(f"{m} {r}" for m, r in blk.speed.items())
        rows.append(Line(text=f"Speed {speed}", tone="dim"))
        return Section(title=f"Defenses (PL {blk.power_level})", rows=list(rows))

    @staticmethod
    def _ladder(actor: Actor) -> Section:
        now = damage_state(actor)
        current = now.worst.value if now.worst else "unhurt"
        rows: list[Line | Track] = []
        for step in LADDER:
            here = step == current
            what = "" if step == "unhurt" else CONDITIONS[Condition(step)].summary
            rows.append(Line(bullet="●" if here else "○",
                             bullet_tone="bad" if here and step != "unhurt" else
                             "good" if here else "dim",
                             text=step.capitalize(), bold=here,
                             tone="plain" if here else "dim",
                             detail=what if here and what else ""))
        rows.append(Line(lead="Toughness ", text=f"{now.penalty:+d}" if now.penalty else "+0",
                         tone="bad" if now.penalty else "dim",
                         lead_tone="bad" if now.penalty else "plain"))
        return Section(title="Damage", rows=list(rows))

    @staticmethod
    def _other_conditions(actor: Actor) -> Section | None:
        ladder = {c.value for c in damage.DAMAGE_CONDITIONS}
        rows: list[Line] = []
        for cid in actor.conditions:
            if cid in ladder or cid not in {c.value for c in Condition}:
                continue
            cdef = CONDITIONS[Condition(cid)]
            rows.append(Line(bullet="■", bullet_tone="bad", text=cid.capitalize(), bold=True,
                             detail=cdef.summary))
        return Section(title="Conditions", rows=list(rows)) if rows else None

    @staticmethod
    def _points(actor: Actor) -> Section:
        return Section(title="Hero points", rows=[
            Track(label="Hero pts", value=actor.tracks.get(HERO_POINTS, 0))])

    @staticmethod
    def _attacks(blk: StatBlock) -> Section | None:
        rows: list[Line] = []
        for a in blk.attacks:
            hit = f"{a.bonus:+d} {a.range.value}" if a.bonus is not None else a.range.value
            rows.append(Line(lead=a.name, detail=f"{hit}, {a.effect.value} {a.rank}"
                                                 f" vs {a.resisted_by.capitalize()}"))
        return Section(title="Attacks", rows=list(rows)) if rows else None

    @staticmethod
    def _skills(blk: StatBlock) -> Section | None:
        rows: list[Line] = []
        if blk.skills:
            rows.append(Line(text=", ".join(f"{n} {b:+d}" for n, b in blk.skills.items())))
        if blk.advantages:
            advs = ", ".join(a.name + (f" {a.rank}" if a.rank else "") for a in blk.advantages)
            rows.append(Line(lead="Adv: ", text=advs, lead_tone="plain", tone="dim"))
        return Section(title="Skills", rows=list(rows)) if rows else None

    # --- validate -----------------------------------------------------------------------

    CONTENT_FILES = pack_files.FILES
    """``actions.yaml`` and ``characters.yaml``, each checked against its model first."""

    @classmethod
    def check_content(cls, pack: Pack) -> list[str]:
        """What the models of the files cannot see: the characters' power-level caps and
        names used twice, each archetype's stat block and abilities, system.yaml ``data``,
        and the ids and costs actions.yaml names."""
        out: list[str] = []
        path = pack.path / roster.CHARACTERS_FILE
        out += [f"{roster.CHARACTERS_FILE}: {p}" for p in
                roster_problems(valid_items(path, "characters", StatBlock))]
        out += [f"{roster.CHARACTERS_FILE}: {p}" for p in misplaced_keys(path)]
        typed = read_valid(path, pack_files.CharactersFile)
        blocks: dict[str, StatBlock] | None = (
            {roster.block_id(b.name): b for b in typed.characters} if typed is not None
            else None if path.is_file() else {})  # None: broken, the model reports it
        for key, value in pack.system.data.items():
            typ = DATA_KEYS.get(key)
            if typ is None:
                out.append(f"system.yaml: data.{key}: unknown key (known:"
                           f" {', '.join(sorted(DATA_KEYS))})")
            elif not isinstance(value, typ):
                out.append(f"system.yaml: data.{key}: expected {typ.__name__}, not {value!r}")
        for arche in pack.system.archetypes:
            out += cls._archetype_problems(pack, arche, blocks)
        out += cls._actions_problems(pack)
        return out

    @staticmethod
    def _archetype_problems(pack: Pack, arche: s.Archetype,
                            blocks: dict[str, StatBlock] | None) -> list[str]:
        where = f"system.yaml: archetypes.{arche.id}.data.statblock"
        ref = arche.data.get("statblock")
        if ref is None:
            return []
        blk: StatBlock | None = None
        if isinstance(ref, str):
            if blocks is None:
                return []
            blk = blocks.get(ref)
            if blk is None:
                return [f"{where}: no stat block {ref!r} in {roster.CHARACTERS_FILE}"
                        f" (it has: {', '.join(sorted(blocks)) or 'none'})"]
        else:
            try:
                blk = StatBlock.model_validate(ref)
            except ValueError as e:
                return [f"{where}: {str(e).splitlines()[0]}"]
        out = []
        for ability in ABILITY_SHORT:
            want = getattr(blk.abilities, ability)
            if arche.stats.get(ability) != want:
                out.append(f"system.yaml: archetypes.{arche.id}.stats.{ability}:"
                           f" {arche.stats.get(ability)} but its stat block has {want}")
        return out

    @staticmethod
    def _actions_problems(pack: Pack) -> list[str]:
        """The ids actions.yaml names that the fight engine does not know, and costs that are
        not what the rules charge (its shape is ``ActionsFile``'s to check)."""
        words = read_valid(pack.path / ACTIONS_FILE, pack_files.ActionsFile)
        if words is None:
            return []
        lines = FileLines(pack.path, relative=True)
        known = pack_files.word_ids()
        out: list[str] = []
        for section, entries in (("actions", words.actions), ("maneuvers", words.maneuvers)):
            for key in entries:
                if key not in known[section]:
                    out.append(lines.at(ACTIONS_FILE, (section, key),
                                        f"unknown {section[:-1]} id (known:"
                                        f" {', '.join(known[section])})", on_key=True))
        for key, entry in words.actions.items():
            rule = ACTIONS.get(key)
            if rule is not None and entry.cost != rule.cost:
                out.append(lines.at(ACTIONS_FILE, ("actions", key, "cost"),
                                    f"{entry.cost!r}, but the rules charge {rule.cost!r} for it"))
        return out
