"""Masks: A New Generation: what its content cannot say by itself.

Labels that would shift past -2/+3 mark a condition instead (the GM's choice); adults hold
Influence over the hero when introduced; Influence gives +1 against its subject and can be
surrendered after a roll for +1 more; Team can be spent after a roll for +1, or to act selfishly
and shift the label just rolled; entering battle and time passing reset the Team pool.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from engine.content import schema as s
from engine.content.loader import Pack
from engine.errors import IllegalAction
from engine.rules import events as ev
from engine.rules import resolve
from engine.rules.base import (
    CAMPAIGN,
    Adjustment,
    Editable,
    Item,
    Need,
    Ruleset,
    Step,
    effect_item,
    gm_random,
    opt,
)
from engine.rules.events import CORE
from engine.rules.registry import Registry
from engine.rules.state import HERO, Actor, CampaignState
from engine.rules.types import EffectContext, Modifier, RollDict, item_ctx
from engine.systems.masks.sheet import masks_sheet_hook

MASKS = Registry("masks", CORE)
"""Masks's events, hand edits and rule effects."""

# ------------------------------------------------------------------ Influence
# Influence is a directed relation between characters: the holder gets +1 on moves against the
# subject. Each actor's ``data["influence"]`` lists the ids it holds Influence over;
# ``data["barred"]`` lists who lost Influence over it for good.


ANSWERS = "acting on the answers"
"""The reason of Assess the situation's +1 (one at a time: it does not stack)."""

MINUS_TWO = "influence_minus"
"""The adjustment id prefix of another hero's -2 on the acting hero's roll (then ``:holder``)."""


def influence(state: CampaignState, holder: str, subject: str) -> bool:
    """Whether ``holder`` holds Influence over ``subject`` (actor ids)."""
    actor = state.actors.get(holder)
    return actor is not None and subject in actor.data.get("influence", ())


def barred(state: CampaignState, holder: str, subject: str) -> bool:
    """Whether ``holder`` lost Influence over ``subject`` for good."""
    actor = state.actors.get(subject)
    return actor is not None and holder in actor.data.get("barred", ())


def hero_over(state: CampaignState, npc: str) -> bool:
    """The acting hero holds Influence over ``npc``."""
    return influence(state, state.acting, npc)


def over_hero(state: CampaignState, npc: str) -> bool:
    """``npc`` holds Influence over the acting hero."""
    return influence(state, npc, state.acting)


def _set_in(actor: Actor, key: str, value: str, on: bool) -> None:
    have = list(actor.data.get(key, []))
    if on and value not in have:
        have.append(value)
    elif not on and value in have:
        have.remove(value)
    if have:
        actor.data[key] = have
    else:
        actor.data.pop(key, None)


@MASKS.event
@dataclass(frozen=True, slots=True)
class InfluenceChanged(ev.Event):
    """Influence gained or lost between the acting hero and ``npc`` (any other character):
    ``direction`` "hero_over" (the hero holds it over them) or "over_hero" (they hold it over
    the hero); ``permanent`` bars them from ever regaining it."""

    ACTORS: ClassVar[tuple[str, ...]] = ("hero",)

    npc: str
    direction: str
    held: bool
    permanent: bool = False
    reason: str = ""
    hero: str = "hero"
    OPTIONAL: ClassVar[tuple[str, ...]] = ("hero",)
    """``hero``: which hero of the party, when not the acting one (adults introduced to a
    party hold Influence over every hero)."""


@MASKS.applier("InfluenceChanged")
def _influence_changed(state: CampaignState, e: InfluenceChanged) -> None:
    hid = state.actor_id(e.hero)
    hero = state.actors[hid]
    other = state.actors[e.npc]
    if e.direction == "hero_over":
        _set_in(hero, "influence", e.npc, e.held)
    else:
        _set_in(other, "influence", hid, e.held)
        if e.permanent:
            _set_in(hero, "barred", e.npc, True)


@MASKS.journal_line("InfluenceChanged")
def influence_line(e: dict[str, Any], who: Callable[[str], str]) -> str:
    """The journal line of an ``InfluenceChanged`` event: ``who`` names a character by id
    ("hero": the acting hero, "you" in a one-hero journal)."""
    npc = who(e["npc"])
    hero = who(e.get("hero", "hero"))
    if e["direction"] == "hero_over":
        if hero == "you":
            verb = "You gain Influence over" if e["held"] else "You lose Influence over"
            line = f"{verb} {npc}"
        else:
            line = f"{hero} {'gains' if e['held'] else 'loses'} Influence over {npc}"
    else:
        line = f"{npc} {'gains' if e['held'] else 'loses'} Influence over {hero}"
        if e.get("permanent"):
            line += " for good"
    return f"⇄ {line}" + (f" ({e['reason']})" if e.get("reason") else "")


@MASKS.edit("influence")
def _edit_influence(state: CampaignState, e: ev.Edited) -> None:
    """Set by hand: ``who`` holds (or not) Influence over ``key``."""
    _set_in(state.actor(e.who), "influence", e.key, bool(e.value))


@MASKS.edit("influenced_by")
def _edit_influenced_by(state: CampaignState, e: ev.Edited) -> None:
    """Set by hand: ``key`` holds (or not) Influence over ``who``."""
    _set_in(state.actors[e.key], "influence", state.actor_id(e.who), bool(e.value))


def _lacks_influence(st: CampaignState, a: Actor) -> str | None:
    if barred(st, a.id, st.acting):
        return f"{a.name} lost Influence over you for good"
    if over_hero(st, a.id):
        return f"{a.name} already has Influence over you"
    return None


TARGET_TESTS: dict[str, Callable[[CampaignState, Actor], str | None]] = {
    "hero_has_influence": lambda st, a: None if hero_over(st, a.id)
    else f"you hold no Influence over {a.name}",
    "has_influence_over_hero": lambda st, a: None if over_hero(st, a.id)
    else f"{a.name} has no Influence over you",
    "lacks_influence_over_hero": _lacks_influence,
}


def _present(state: CampaignState, role: str | None = None) -> list[Actor]:
    return [n for n in state.npcs.values() if n.present and (role is None or n.role == role)]


GM_PRECONDITIONS: dict[str, Callable[[Pack, CampaignState], bool]] = {
    "npc_lacks_influence": lambda p, st: any(
        not over_hero(st, n.id) and not barred(st, n.id, st.acting) for n in _present(st)),
    "adult_has_influence": lambda p, st: any(over_hero(st, n.id) for n in _present(st, "adult")),
    "hero_holds_influence": lambda p, st: any(hero_over(st, n) for n in st.actors),
}

GM_FOCUS: list[tuple[str, Callable[[CampaignState, Actor], bool]]] = [
    ("adult_has_influence", lambda st, n: n.role == "adult" and over_hero(st, n.id)),
    ("npc_lacks_influence", lambda st, n: not over_hero(st, n.id)
     and not barred(st, n.id, st.acting)),
]

BATTLE_QUESTIONS = [
    ("leader_influence", "The leader holds Influence over every teammate (+1 Team)", 1),
    ("same_purpose", "Everyone fights for the same purpose (+1 Team)", 1),
    ("mistrust", "Someone mistrusts the leader or the team (-1 Team)", -1),
    ("off_balance", "The team is ill-prepared or off balance (-1 Team)", -1),
    ("leader_marks", "The leader (you) marks a condition to cancel one removal", 0),
]


class MasksRules(Ruleset):
    """The Masks ruleset."""

    id = "masks"
    registry = MASKS
    sheet = masks_sheet_hook
    TARGET_TESTS = TARGET_TESTS
    GM_PRECONDITIONS = GM_PRECONDITIONS
    GM_FOCUS = GM_FOCUS

    # --- creation -------------------------------------------------------------------

    def npc_added(self, state: CampaignState, npc_id: str, role: str) -> list[ev.Event]:
        """Every adult holds Influence over each hero of the party when first introduced."""
        if role != "adult":
            return []
        reason = "adults have Influence over you when you meet"
        return [InfluenceChanged(npc=npc_id, direction="over_hero", held=True, reason=reason,
                                 hero="hero" if hid == state.acting else hid)
                for hid in state.party]

    def hero_joined(self, state: CampaignState, hero_id: str) -> list[ev.Event]:
        """A hero who joins later meets the adults of the cast as the first heroes did: each
        adult holds Influence over them."""
        reason = "adults have Influence over you when you meet"
        return [InfluenceChanged(npc=n.id, direction="over_hero", held=True, reason=reason,
                                 hero=hero_id)
                for n in state.npcs.values() if n.role == "adult"]

    def editable(self, state: CampaignState, who: str) -> list[Editable]:
        """The generic fields, and Influence both ways between ``who`` and each other
        character (between a hero and anyone; NPCs hold none over each other)."""
        out = super().editable(state, who)
        if who == CAMPAIGN:
            return out
        me = state.actor(who)
        for other in state.actors.values():
            if other.id == me.id or (me.kind == "npc" and other.kind == "npc"):
                continue
            out.append(Editable("influence", other.id, f"Influence over {other.name}",
                                influence(state, me.id, other.id), flag=True,
                                group="Influence", words=("lost", "gained")))
            out.append(Editable("influenced_by", other.id,
                                f"{other.name}'s Influence over {me.name}",
                                influence(state, other.id, me.id), flag=True,
                                group="Influence", words=("lost", "gained")))
        return out

    # --- rolls ----------------------------------------------------------------------

    def extra_modifiers(self, state: CampaignState, move: s.Move, target: str | None
                        ) -> list[Modifier]:
        """+1 on moves targeting someone the hero holds Influence over."""
        if target and target in state.actors and hero_over(state, target):
            return [[f"Influence over {state.actors[target].name}", 1, None]]
        return []

    def pre_roll_options(self, state: CampaignState, move: s.Move) -> list[Adjustment]:
        """A teammate spends 1 Team before the roll for +1 (Team helps a teammate; the
        hero's own use of it is acting selfishly)."""
        team = state.pools.get("team")
        if not team:
            return []
        return [Adjustment(f"team:{h.id}", f"{h.name} spends 1 Team: +1", 1,
                           f"{h.name} helps {state.hero.name}; the pool has {team}")
                for h in self._helpers(state)]

    def pre_roll(self, state: CampaignState, move: s.Move, option: str
                 ) -> tuple[list[ev.Event], Modifier | None, str]:
        """Team spent before the roll by a teammate: the pool loses 1, the roll gains +1."""
        if option != "team" and not option.startswith("team:"):
            return super().pre_roll(state, move, option)
        if state.pools.get("team") is None:
            raise IllegalAction("this game has no Team pool")
        events, amount, source = self._team_help(state, option)
        return events, [source, amount, None], "spend Team"

    def _team_help(self, state: CampaignState, option: str) -> tuple[list[ev.Event], int, str]:
        """A teammate's Team for the acting hero's roll ("team": the first who can help)."""
        team = state.pools.get("team", 0)  # a save without the pool plays it as empty
        helpers = self._helpers(state)
        if option == "team":
            if not helpers:
                raise IllegalAction(
                    "Team helps a teammate: nobody else on the team is here to spend it for"
                    f" {state.hero.name} (act selfishly to use Team yourself)")
            helper: Actor | None = helpers[0]
        else:
            helper = state.actors.get(option.split(":", 1)[1])
        if helper is None or helper not in helpers:
            raise IllegalAction(f"{option.split(':', 1)[-1]!r} is not a teammate here who can"
                                " help (another hero of the party, or a teammate in the scene)")
        if team < 1:
            raise IllegalAction("the Team pool is empty")
        return ([ev.TrackChanged(
            track="team", scope="campaign", delta=-1, value=team - 1,
            reason=f"{helper.name} spends it for +1 on {state.hero.name}'s roll")],
            1, f"Team from {helper.name}")

    def _would_improve(self, move: s.Move, roll: RollDict, amount: int,
                       state: CampaignState | None = None) -> bool:
        """Whether ``amount`` more on ``roll`` would change its band (as the dice may force
        it, given the ``state``)."""
        if move.roll is None or move.roll.inverted:
            return False
        forced = resolve.face_override(state, self, move) if state is not None else None
        new = resolve.reband(roll, amount, resolve.roll_bands(self.pack, move, roll),
                             resolve.roll_clamp(self.pack, roll), override=forced)
        return bool(new["band"] != roll["band"])

    def _helpers(self, state: CampaignState) -> list[Actor]:
        """Who can spend Team on the acting hero's roll: the party's other heroes (not those
        taken out) and the teammates in the scene ("anyone working with the team")."""
        heroes = [h for h in state.heroes if h.id != state.acting and not h.taken_out]
        mates = [n for n in state.npcs.values() if n.role == "teammate" and n.present]
        return heroes + mates

    def adjustments(self, state: CampaignState, move: s.Move, roll: RollDict
                    ) -> list[Adjustment]:
        """A teammate spends Team for you (+1: another hero of the party, or a teammate in
        the scene), surrender Influence over the target (+1) or act selfishly; and another
        hero of the party who holds Influence over you may take advantage of it (-2)."""
        return self._boosts(state, move, roll) + self._hindrances(state, move, roll)

    def _hindrances(self, state: CampaignState, move: s.Move, roll: RollDict
                    ) -> list[Adjustment]:
        """-2 on the acting hero's roll from each other hero of the party (not taken out)
        holding Influence over them, offered only when -2 would change the result."""
        if not self._would_improve(move, roll, -2, state):
            return []
        me = state.hero.name
        return [Adjustment(f"{MINUS_TWO}:{h.id}",
                           f"{h.name} takes advantage of Influence over {me}: -2", -2,
                           f"{h.name} gives up their Influence over {me}")
                for h in self._over_me(state)]

    def _over_me(self, state: CampaignState) -> list[Actor]:
        """The party's other heroes (not taken out) who hold Influence over the acting hero."""
        return [h for h in state.heroes if h.id != state.acting and not h.taken_out
                and over_hero(state, h.id)]

    def _boosts(self, state: CampaignState, move: s.Move, roll: RollDict
                ) -> list[Adjustment]:
        """The +1 adjustments: Team from a teammate, Influence over the target, selfish."""
        out: list[Adjustment] = []
        team = state.pools.get("team", 0)
        target = state.flow.target
        held = bool(target and target in state.actors and hero_over(state, target))
        # offer +1 steps while everything still available (each Team, the Influence held)
        # could change the result, so several Team can be spent one at a time
        if not self._would_improve(move, roll, team + int(held), state):
            return out
        if team > 0:  # Team helps a teammate: someone else spends it for this hero
            for h in self._helpers(state):
                out.append(Adjustment(f"team:{h.id}", f"{h.name} spends 1 Team: +1", 1,
                                      f"{h.name} helps {state.hero.name}; the pool has {team}"))
        if held and target:
            name = state.actors[target].name
            out.append(Adjustment("influence", f"Surrender Influence over {name} for +1", 1,
                                  "take advantage of your Influence"))
        stat = roll.get("stat", "")
        if (team > 0 and stat in self.pack.stats and stat not in state.hero.locked
                and state.hero.stats.get(stat, 0) < self.pack.stats[stat].max):
            for other, sd in self.pack.stats.items():
                if other == stat or other in state.hero.locked:
                    continue
                if state.hero.stats.get(other, 0) <= sd.min:
                    continue
                out.append(Adjustment(
                    f"selfish:{other}",
                    f"Act selfishly: -1 Team, {self.pack.stats[stat].name} +1, {sd.name} -1",
                    1, "ignore or insult your teammates"))
        return out

    def back_in_action(self, state: CampaignState) -> list[Item]:
        """Back after being taken out: clear one condition (picked when several)."""
        if not state.hero.conditions:
            return []
        return [effect_item({"type": "clear_condition"},
                            {"source": "back after being taken out"})]

    def adjustment_id(self, state: CampaignState, adj_id: str) -> str:
        """ "team" is shorthand for the first teammate who can spend Team on this roll."""
        helpers = self._helpers(state)
        return f"team:{helpers[0].id}" if adj_id == "team" and helpers else adj_id

    def adjustment_name(self, state: CampaignState, adj_id: str) -> str:
        """Spending Team with nobody to spend it says why (Team helps a teammate)."""
        if adj_id == "team" and not self._helpers(state):
            return (f"Team for {state.hero.name}'s own roll (Team helps a teammate: nobody"
                    " else on the team is here to spend it; act selfishly to use it yourself)")
        return repr(adj_id)

    def adjust(self, state: CampaignState, adj_id: str, roll: RollDict
               ) -> tuple[list[ev.Event], int, str]:
        """Events for one after-roll adjustment."""
        team = state.pools.get("team", 0)
        if adj_id == "team" or adj_id.startswith("team:"):
            return self._team_help(state, adj_id)
        if adj_id == "influence":
            target = state.flow.target
            if not target or not hero_over(state, target):
                raise IllegalAction("you hold no Influence over the target")
            name = state.actors[target].name
            return ([InfluenceChanged(npc=target, direction="hero_over", held=False,
                                         reason="surrendered for +1 on a roll")], 1,
                    f"Influence over {name} (surrendered)")
        if adj_id.startswith(f"{MINUS_TWO}:"):
            return self._take_advantage(state, adj_id.split(":", 1)[1])
        if adj_id.startswith("selfish:"):
            down = adj_id.split(":", 1)[1]
            up = roll["stat"]
            if team < 1:
                raise IllegalAction("acting selfishly costs 1 Team and the pool is empty")
            if down not in self.pack.stats or up not in self.pack.stats:
                raise IllegalAction(f"cannot act selfishly shifting {down!r}")
            # a label the hero lacks (a save older than the pack's label) counts as 0
            values = {up: state.hero.stats.get(up, 0) + 1,
                      down: state.hero.stats.get(down, 0) - 1}
            return ([ev.TrackChanged(track="team", scope="campaign", delta=-1, value=team - 1,
                                     reason="acted selfishly"),
                     ev.LabelsShifted(changes={up: 1, down: -1}, values=values,
                                      reason="acted selfishly")],
                    1, f"acted selfishly ({self.pack.stats[up].name} +1)")
        return super().adjust(state, adj_id, roll)

    def _take_advantage(self, state: CampaignState, holder: str) -> tuple[
            list[ev.Event], int, str]:
        """Another hero takes advantage of their Influence over the acting hero: -2 on this
        roll, and the Influence is gone."""
        found = state.actors.get(holder)
        if found is None or found not in self._over_me(state):
            raise IllegalAction(f"{holder!r} is not another hero here holding Influence over"
                                f" {state.hero.name}")
        return ([InfluenceChanged(npc=state.acting, direction="hero_over", held=False,
                                  hero=found.id,
                                  reason=f"taken advantage of: -2 on {state.hero.name}'s roll")],
                -2, f"{found.name} takes advantage of Influence")

    # --- effects --------------------------------------------------------------------

    def shift_stats(self, state: CampaignState, changes: dict[str, int], reason: str,
                    who: str = "hero") -> Step:
        """Shift labels; a shift past a bound marks a condition instead (GM's choice)."""
        actor = state.actor(who)
        values: dict[str, int] = {}
        done: dict[str, int] = {}
        step = Step()
        whose = "" if who == "hero" else f"{actor.name}'s "
        mark: dict[str, Any] = {"type": "mark_condition"}
        mark_ctx: EffectContext = {}
        if who != "hero":
            mark["who"] = "target"
            mark_ctx["target"] = who
        for stat, delta in changes.items():
            d = self.pack.stats[stat]
            new = actor.stats.get(stat, 0) + delta
            if new > d.max or new < d.min:
                free = [c for c in self.pack.conditions if c not in actor.conditions]
                word = "above" if new > d.max else "below"
                bound = d.max if new > d.max else d.min
                step.events.append(ev.Narrated(
                    text=f"{whose}{d.name} cannot go {word} {bound:+d}: mark a condition instead"
                         " (the GM's choice).", by="engine"))
                source: EffectContext = {**mark_ctx, "source": f"{d.name} shift past its bound"}
                if free:
                    pick = gm_random(state, f"shift:{stat}").choice(free)
                    step.push.append(effect_item({**mark, "condition": pick}, source))
                else:
                    step.push.append(effect_item(dict(mark), source))
                continue
            values[stat] = new
            done[stat] = delta
        if done:
            step.events.insert(0, ev.LabelsShifted(changes=done, values=values, reason=reason,
                                                   who=who))
        return step

    def gain_influence(self, state: CampaignState, npc_id: str, reason: str) -> Step:
        """The acting hero gains Influence over ``npc_id``. Gaining it again: a teammate with
        Labels (a hero of the party) has them shifted, one up and one down, the player's pick;
        a teammate without Labels is told to; anyone else gives +1 forward against them."""
        other = state.actors[npc_id]
        if not hero_over(state, npc_id):
            return Step([InfluenceChanged(npc=npc_id, direction="hero_over", held=True,
                                          reason=reason)])
        if other.role in ("teammate", "hero") and other.stats:
            return Step(
                [ev.Narrated(text=f"You already hold Influence over {other.name}: shift one of"
                                  " their Labels up and one down.", by="engine")],
                push=[effect_item({"type": "shift_labels", "who": "target"},
                                  {"source": f"Influence over {other.name} again",
                                   "target": npc_id})])
        if other.role in ("teammate", "hero"):
            return Step([ev.Narrated(
                text=f"You already hold Influence over {other.name}: shift one of their Labels up"
                     " and one down, your choice.", by="engine")])
        return Step([ev.BonusAdded(id=state.next_id, kind="forward", amount=1, moves=[],
                                   target=npc_id, expires="session",
                                   reason=f"Influence over {other.name} again")])

    # --- Influence effects (registered: the core interpreter hands these to Masks) ------

    @MASKS.effect("take_influence")
    def effect_take_influence(self, state: CampaignState, eff: s.TakeInfluence,
                              ctx: EffectContext) -> Step:
        """The acting hero gains Influence over the target."""
        target = ctx.get("target")
        if not target:
            return Step([ev.Narrated(text="(No target to take Influence over.)", by="engine")])
        return self.gain_influence(state, target, ctx.get("source", ""))

    def _can_get(self, state: CampaignState) -> list[Actor]:
        return [n for n in state.actors.values() if n.id != state.acting
                and not over_hero(state, n.id) and not barred(state, n.id, state.acting)]

    @MASKS.effect("give_influence")
    def effect_give_influence(self, state: CampaignState, eff: s.GiveInfluence,
                              ctx: EffectContext) -> Step | Need:
        """The acting hero gives Influence over themselves to the target (or a chosen one)."""
        if eff.choose:
            options = [opt(n.id, f"{n.name} ({n.role})") for n in self._can_get(state)]
            if not options:
                return Step([ev.Narrated(text="Everyone already has Influence over you.",
                                         by="engine")])
            return Need("pick", "Give Influence over you to whom?", options)
        target = ctx.get("target")
        if not target:
            return Step()
        npc = state.actors[target]
        if barred(state, target, state.acting):
            raise IllegalAction(f"{npc.name} lost Influence over you for good")
        if over_hero(state, target):
            return Step([ev.Narrated(text=f"{npc.name} already has Influence over you.",
                                     by="engine")])
        return Step([InfluenceChanged(npc=target, direction="over_hero", held=True,
                                      reason=ctx.get("source", ""))])

    @MASKS.effect("cancel_influence")
    def effect_cancel_influence(self, state: CampaignState, eff: s.CancelInfluence,
                                ctx: EffectContext) -> Step | Need:
        """Remove the target's (or a chosen character's) Influence over the acting hero."""
        if eff.choose:
            options = [opt(n.id, f"{n.name} ({n.role})") for n in state.actors.values()
                       if over_hero(state, n.id)]
            if not options:
                return Step([ev.Narrated(text="Nobody has Influence over you.", by="engine")])
            return Need("pick", "Take away whose Influence over you?", options)
        target = ctx.get("target")
        if not target or not over_hero(state, target):
            return Step()
        return Step([InfluenceChanged(npc=target, direction="over_hero", held=False,
                                      reason=ctx.get("source", ""))])

    def futile_effect(self, state: CampaignState, eff: Any, ctx: EffectContext) -> str | None:
        """Why an Influence effect would do nothing now."""
        target = ctx.get("target")
        match eff.type:
            case "take_influence":
                if not target:
                    return "there is no target"
            case "give_influence":
                if eff.choose:
                    return None if self._can_get(state) else (
                        "everyone already has Influence over you")
                if not target:
                    return "there is no target"
                name = state.actors[target].name
                if barred(state, target, state.acting):
                    return f"{name} lost Influence over you for good"
                if over_hero(state, target):
                    return f"{name} already has Influence over you"
            case "cancel_influence":
                if eff.choose:
                    return None if any(over_hero(state, n) for n in state.actors) else (
                        "nobody has Influence over you")
                if not target:
                    return "there is no target"
                if not over_hero(state, target):
                    return f"{state.actors[target].name} has no Influence over you"
        return None

    def answer_effect(self, state: CampaignState, item: Item, ids: list[str]) -> list[Item]:
        """A character picked for give_influence or cancel_influence becomes its target."""
        if "effect" not in item:
            return super().answer_effect(state, item, ids)
        data = dict(item["effect"])
        data["choose"] = False
        return [{"effect": data, "ctx": {**item_ctx(item), "target": ids[0] if ids else None}}]

    @MASKS.rule_effect("surrender_influence")
    def _surrender_influence(self, state: CampaignState, eff: s.Rule, ctx: EffectContext
                             ) -> Step:
        """Taking advantage of Influence: it is gone."""
        target = ctx.get("target")
        if not target or not hero_over(state, target):
            name = state.actors[target].name if target else "them"
            raise IllegalAction(f"you hold no Influence over {name} to take advantage of")
        return Step([InfluenceChanged(npc=target, direction="hero_over", held=False,
                                      reason="surrendered to take advantage")])

    @MASKS.rule_effect("enter_battle")
    def _enter_battle(self, state: CampaignState, eff: s.Rule, ctx: EffectContext) -> Need:
        """Entering battle as a team: which of its statements are true."""
        return Need("battle", "Entering battle as a team: +2 Team. Which of these are"
                    " true?", [opt(i, text) for i, text, _ in BATTLE_QUESTIONS], 0,
                    len(BATTLE_QUESTIONS), title="Entering battle")

    @MASKS.rule_effect("time_passes")
    def _time_passes(self, state: CampaignState, eff: s.Rule, ctx: EffectContext) -> Step:
        """Time passes: the Team pool resets to 1."""
        team = state.pools.get("team", 0)
        return Step([ev.TrackChanged(track="team", scope="campaign", delta=1 - team,
                                     value=1, reason="time passes: the pool resets")])

    @MASKS.rule_effect("acting_on_the_answers")
    def _acting_on_the_answers(self, state: CampaignState, eff: s.Rule, ctx: EffectContext
                               ) -> Step:
        """Assess the situation's +1 while acting on the answers: one +1 ongoing for the
        scene on the moves that act (``args.moves``, space-separated); a second Assess while
        it lasts gives no more (it does not stack)."""
        if any(b.reason == ANSWERS and b.owner == state.acting for b in state.bonuses):
            return Step([ev.Narrated(text=f"{state.hero.name} already takes +1 acting on the"
                                          " answers this scene; it does not stack.",
                                     by="engine")])
        moves = str(eff.args.get("moves") or "").split()
        return Step([ev.BonusAdded(id=state.next_id, kind="ongoing", amount=1, moves=moves,
                                   target=None, expires="scene", reason=ANSWERS, owner=HERO)])

    @MASKS.rule_effect("target_marks_potential")
    def _target_marks_potential(self, state: CampaignState, eff: s.Rule, ctx: EffectContext
                                ) -> Step:
        """The target marks potential: a hero of the party's track moves (a full track takes
        their advancement, the spotlight lent to them for it); an NPC's is told as fiction."""
        target = ctx.get("target")
        other = state.actors.get(target) if target else None
        tdef = self.pack.tracks.get("potential")
        if other is None or other.kind != "hero" or tdef is None:
            name = other.name if other else "They"
            return Step([ev.Narrated(text=f"{name} marks potential (told as fiction: an NPC"
                                          " has no potential track).", by="engine")])
        old = other.tracks.get(tdef.id, tdef.start)
        new = old + 1 if tdef.max is None else min(tdef.max, old + 1)
        reason = str(ctx.get("source") or "marked potential")
        step = Step([ev.TrackChanged(track=tdef.id, scope="hero", delta=new - old, value=new,
                                     reason=reason, who=other.id)])
        if tdef.max is None or new < tdef.max or old >= tdef.max:
            return step
        if tdef.reset_on_full:
            step.events.append(ev.TrackChanged(track=tdef.id, scope="hero", delta=tdef.min - new,
                                               value=tdef.min, reason=f"{tdef.name} resets",
                                               who=other.id))
        me = state.acting
        step.push = [{"emit": ev.HeroSwitched(hero=other.id, was=me).to_dict()},
                     *[effect_item(e, {"source": f"{tdef.name} full"}) for e in tdef.on_full],
                     {"emit": ev.HeroSwitched(hero=me, was=other.id).to_dict()}]
        return step

    @MASKS.rule_effect("npc_takes_influence")
    def _npc_takes_influence(self, state: CampaignState, eff: s.Rule, ctx: EffectContext
                             ) -> Step:
        """An NPC (named, or the GM's pick of those present) takes Influence over the hero."""
        npc_id = str(eff.args.get("npc") or ctx.get("npc") or "")
        if not npc_id:
            candidates = [n for n in state.npcs.values() if n.present
                          and not over_hero(state, n.id)
                          and not barred(state, n.id, state.acting)]
            if not candidates:
                return Step()
            npc_id = gm_random(state, "influence").choice(candidates).id
        return Step([InfluenceChanged(npc=npc_id, direction="over_hero", held=True,
                                      reason=ctx.get("source", "GM move"))])

    @MASKS.rule_effect("gm_shifts_labels")
    def _gm_shifts_labels(self, state: CampaignState, eff: s.Rule, ctx: EffectContext
                          ) -> Step:
        """The GM shifts one Label up and another down (its pick, fixed by the seed)."""
        free = [k for k in self.pack.stats if k not in state.hero.locked]
        ups = [k for k in free if state.hero.stats.get(k, 0) < self.pack.stats[k].max]
        downs = [k for k in free if state.hero.stats.get(k, 0) > self.pack.stats[k].min]
        pairs = [(u, d) for u in ups for d in downs if u != d]
        if not pairs:
            return Step([ev.Narrated(text="Their words find no Label left to move.",
                                     by="engine")])
        up, down = gm_random(state, "labels").choice(pairs)
        target = ctx.get("target")
        who = state.actors[target].name if target is not None and target in state.actors \
            else "they"
        names = self.pack.stats
        step = self.shift_stats(state, {up: 1, down: -1},
                                f"the GM: what {who} said moves your Labels")
        step.events.insert(0, ev.Narrated(
            text=f"The GM shifts your Labels: {names[up].name} +1, {names[down].name} -1.",
            by="gm"))
        return step

    @MASKS.rule_answer("enter_battle")
    def _entered_battle(self, state: CampaignState, eff: s.Rule, ctx: EffectContext,
                        ids: list[str]) -> list[Item]:
        """Entering battle: +2 Team and the adjustments picked."""
        delta = 2 + sum(d for i, _, d in BATTLE_QUESTIONS if i in ids)
        items: list[Item] = []
        if "leader_marks" in ids and any(i in ids for i in ("mistrust", "off_balance")):
            delta += 1
            items.append(effect_item({"type": "mark_condition"},
                                     {"source": "the leader saves a Team"}))
        items.insert(0, effect_item({"type": "track", "track": "team", "delta": delta},
                                    {"source": "entering battle as a team"}))
        return items
