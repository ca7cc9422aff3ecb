"""The step of a panels fight: what the panels rules read (stat blocks, Kill and Stun, what a
character holds, holds and lying flat) and how they roll, over the fight engine's ``Step``;
and the table the game's actions register in.

Where a character's numbers live: its stat block (``block_of``: ``data["statblock"]`` as a
block id of the pack's ``characters.yaml`` or a whole block, else its archetype's); its
current Kill and Stun in ``actor.tracks["kill"]`` / ``["stun"]`` (``TracksSet``); what they
mean (stunned, unconscious, dying, stable) in ``actor.conditions``; timed effects of crits
(wide open, a jammed attack form) as encounter effects; panels owed as the participant's
``arrears``. A hold is in ``fight.holds`` (held actor -> ``{"by": holder}``), read only while
the holder is still in the fight; lying flat, a dropped weapon and a picked-up object are
encounter effects on the character (``prone``, ``dropped`` with the form's id, ``holding``
with the object's name), each lasting until an action ends it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from engine.content.loader import Pack, read_by_mtime, read_yaml
from engine.errors import ContentError, IllegalAction
from engine.rules import encounter as en
from engine.rules.fight.actions import ActionTable
from engine.rules.fight.dice import Emit, Roll, fight_roll
from engine.rules.fight.step import Step, TurnLoop
from engine.rules.state import Actor, CampaignState, new_id
from engine.systems.panels.checks import Band, CheckResult, check, odds, skill_modifier
from engine.systems.panels.damage import AttackForm, Health, Status, Track
from engine.systems.panels.referee import FAR_PENALTY, PRONE_PENALTY
from engine.systems.panels.registry import TracksSet
from engine.systems.panels.statblock import Character, Power, from_data

STATUS_CONDITIONS = ("stunned", "unconscious", "dying", "stable")
"""The conditions the panels game keeps in ``actor.conditions``."""
OUT_CONDITIONS = frozenset({"unconscious", "dying", "dead"})

OBJECT_MODIFIER = 0
"""A picked-up object's damage modifier."""


def health_of(blk: Character, actor: Actor) -> Health:
    """``actor``'s current Kill and Stun on its block's tracks (full when never hurt)."""
    tr = actor.tracks
    return Health(Track(min(max(tr.get("kill", blk.kill), 0), blk.kill), blk.kill),
                  Track(min(max(tr.get("stun", blk.stun), 0), blk.stun), blk.stun))

def tracks_set(actor: Actor, health: Health, why: str, *, stable: bool = False) -> TracksSet:
    """The event that writes ``actor``'s Kill and Stun and what they mean (stunned,
    unconscious, dying; ``stable``: given first aid at 0 Kill), its other conditions kept."""
    conds = [c for c in actor.conditions if c not in STATUS_CONDITIONS]
    status = health.status
    if stable and status is not Status.DYING:
        conds += ["unconscious", "stable"]
    elif status is not Status.FINE:
        conds.append(status.value)
        if status is Status.DYING:
            conds.append("unconscious")
    return TracksSet(actor=actor.id, tracks={"kill": health.kill.current,
                                             "stun": health.stun.current},
                     conditions=conds, why=why)

CHARACTERS_FILE = "characters.yaml"

def characters(pack: Pack) -> dict[str, Character]:
    """The pack's panels stat blocks by id (``block_id`` of the name); cached per file."""
    return characters_at(pack.path)

def characters_at(folder: Path) -> dict[str, Character]:
    """The panels stat blocks of the pack folder ``folder`` by id (read once per version)."""
    return read_by_mtime(folder / CHARACTERS_FILE, _blocks) or {}

def _blocks(path: Path) -> dict[str, Character]:
    raw = read_yaml(path) or {}
    entries = raw.get("characters") if isinstance(raw, dict) else None
    if not isinstance(entries, list):
        raise ContentError(f"{path}: expected a list under 'characters'")
    blocks = {}
    for i, data in enumerate(entries):
        blk = from_data(data, f"{path}: characters[{i}]")
        blocks[block_id(blk.name)] = blk
    return blocks

def block_id(name: str) -> str:
    """A block's id: its name's words in lower case joined by ``_``."""
    return new_id(name, ())

def block_of(pack: Pack, state: CampaignState, actor_id: str) -> Character | None:
    """The actor's stat block (its own, else its archetype's), or None."""
    actor = state.actors[actor_id]
    ref = actor.data.get("statblock")
    if ref is None and actor.archetype and actor.archetype in pack.archetypes:
        ref = pack.archetypes[actor.archetype].data.get("statblock")
    if ref is None:
        return None
    if isinstance(ref, str):
        found = characters(pack).get(ref)
        if found is None:
            raise ContentError(f"{actor.name}: no panels stat block {ref!r} in"
                               f" {pack.path / CHARACTERS_FILE}")
        return found
    return from_data(ref, actor.name)

def form_id(form: AttackForm) -> str:
    """An attack form's id."""
    return block_id(form.name)

ACTIONS: ActionTable[Ctx] = ActionTable("panels", order=(
    "attack", "move", "catch_breath", "first_aid", "flee", "surrender", "end_turn", "grab",
    "escape", "use_power", "pick_up", "drop_item", "drop_prone", "stand"))
"""The panels game's fight actions, in the order its menus list them."""
"""The panels game's fight actions (fight_actions.py and fight_more.py register theirs)."""
action = ACTIONS.action


class Ctx(Step):
    """One step of a panels fight, over the fight engine's ``Step``."""

    def __init__(self, conflict: TurnLoop, state: CampaignState, roll: Roll | None = None,
                 emit: Emit | None = None) -> None:
        super().__init__(conflict, state, roll, emit)
        self._blocks: dict[str, Character] = {}

    # -------------------------------------------------------------- reading
    def block(self, actor_id: str) -> Character:
        """A character's stat block; ``IllegalAction`` when it has none. Looked up once per
        step (as M&M's): the pack's file is not checked, nor a block of its own read, at
        every look-up."""
        found = self._blocks.get(actor_id)
        if found is None:
            found = block_of(self.pack, self.state, actor_id)
            if found is None:
                raise IllegalAction(f"{self.name(actor_id)} has no panels stat block, so cannot"
                                    " fight")
            self._blocks[actor_id] = found
        return found

    def health(self, actor_id: str) -> Health:
        """Current Kill and Stun (full when not yet set)."""
        return health_of(self.block(actor_id), self.state.actors[actor_id])

    def stunned(self, actor_id: str) -> bool:
        """Stunned or worse: -5 on every d20."""
        return self.health(actor_id).stunned

    def down(self, actor_id: str) -> bool:
        """At 0 Stun or 0 Kill (unconscious, dying) or dead."""
        return bool(set(self.state.actors[actor_id].conditions) & OUT_CONDITIONS)

    def ranked(self) -> list[en.Participant]:
        """This round's order, then the rest by initiative."""
        order = list(self.enc.order)
        rest = [p for p in en.ranked(self.enc.participants) if p.actor not in order]
        return [self.enc.participant(a) for a in order] + rest

    def has_effect(self, actor: str, what: str) -> list[en.Effect]:
        """The encounter's effects named ``what`` on ``actor``."""
        return self.effects_on(actor, what)

    # -------------------------------------------------------------- what is held
    def holder_of(self, actor: str) -> str | None:
        """Who holds ``actor`` now (a hold lasts while both are in the fight), or None."""
        rec = self.fight.holds.get(actor)
        if not rec:
            return None
        by = str(rec.get("by", ""))
        if by not in self.state.actors or not self.enc.has(by) or self.out(by) \
                or self.out(actor):
            return None
        return by

    def holding_whom(self, actor: str) -> list[str]:
        """The characters ``actor`` holds now."""
        return [t for t in self.fight.holds if self.holder_of(t) == actor]

    def prone(self, actor: str) -> bool:
        """Lying flat."""
        return bool(self.has_effect(actor, "prone"))

    def dropped(self, actor: str) -> dict[str, str]:
        """The weapons ``actor`` has dropped: form id -> name."""
        return {str(e.data.get("form")): str(e.data.get("name")) for e in
                self.has_effect(actor, "dropped")}

    def carried_object(self, actor: str) -> str | None:
        """The name of the object ``actor`` picked up and holds, or None."""
        found = self.has_effect(actor, "holding")
        return str(found[-1].data.get("item")) if found else None

    def weapons(self, actor: str) -> dict[str, AttackForm]:
        """The weapons of ``actor``'s stat block (attacks that are not fists), dropped or not."""
        return {form_id(f): f for f in self.block(actor).attacks if not f.fist}

    def held_things(self, actor: str) -> dict[str, str]:
        """What ``actor`` holds now and could drop: id -> name (its picked-up object first)."""
        out: dict[str, str] = {}
        obj = self.carried_object(actor)
        if obj is not None:
            out[block_id(obj)] = obj
        gone = self.dropped(actor)
        out.update({fid: f.name for fid, f in self.weapons(actor).items() if fid not in gone})
        return out

    def usable_powers(self, actor: str) -> dict[str, Power]:
        """The powers of ``actor`` that are not attacks, by id."""
        return {block_id(p.name): p for p in self.block(actor).powers if p.attack is None}

    def forms(self, actor: str) -> dict[str, AttackForm]:
        """The attack forms ``actor`` can use now: its block's, less the weapons it dropped,
        with the object it picked up."""
        gone = self.dropped(actor)
        out = {form_id(f): f for f in self.block(actor).all_attacks if form_id(f) not in gone}
        obj = self.carried_object(actor)
        if obj is not None and block_id(obj) not in out:
            out[block_id(obj)] = object_form(obj)
        return out

    def hit_modifiers(self, attacker: str, form: AttackForm, target: str
                      ) -> list[tuple[str, int]]:
        """The situational to-hit modifiers of this attack: lying flat; a missile at a far
        target (positions.py)."""
        out = []
        if form.range == "melee" and self.prone(attacker):
            out.append(("prone", PRONE_PENALTY))
        if form.range == "missile" and self.prone(target):
            out.append(("target prone", PRONE_PENALTY))
        if form.range == "missile" and self.fight.positions.band(attacker, target) == "far":
            out.append(("far: long range", FAR_PENALTY))
        return out

    # -------------------------------------------------------------- writing
    def check(self, actor: str, what: str, label: str, characteristic: int,
              extra: Sequence[tuple[str, int]] = ()) -> CheckResult:
        """A d20 + the characteristic's modifier (stunned -5, ``extra`` situational
        modifiers), rolled and explained."""
        mod = skill_modifier(characteristic) + sum(m for _, m in extra)
        stunned = self.stunned(actor)
        bands = odds(mod, stunned)
        die = self.die(actor, what, 20, f"{float(bands.success):.0%} to succeed")
        result = check(die.face, mod, stunned)
        parts: list[list[Any]] = [[f"{label} {characteristic}", skill_modifier(characteristic)]]
        parts += [[name, m] for name, m in extra]
        if stunned:
            parts.append(["stunned", -5])
        text = result.band.value
        if result.critical_success:
            text += " (natural 20)"
        elif result.critical_failure:
            text += " (natural 1)"
        self.emit(fight_roll(
            actor, what, die, parts, result.total, 15, "15-17 minor, 18+ complete", text,
            {Band.FAILURE: 0, Band.MINOR: 1, Band.COMPLETE: 2}[result.band],
            {Band.FAILURE: bands.failure, Band.MINOR: bands.minor,
             Band.COMPLETE: bands.complete}, band=result.band.value))
        return result

    def set_health(self, actor_id: str, health: Health, why: str, *,
                   stable: bool = False) -> None:
        """Write a character's tracks and what they mean."""
        self.emit(tracks_set(self.state.actors[actor_id], health, why, stable=stable))

    def pay(self, actor: str, cost: int) -> None:
        """Pay panels from the turn."""
        self.spend(actor, en.PANEL, cost)

    def set_holds(self, target: str, by: str | None) -> None:
        """``target`` is held by ``by`` (None: let go)."""
        self.hold(target, {"by": by} if by is not None else None)

    def let_go(self, holder: str, why: str) -> None:
        """``holder`` releases whomever it holds, saying why."""
        for t in self.holding_whom(holder):
            self.set_holds(t, None)
            self.say(holder, "let_go", f"{self.name(holder)} lets go of {self.name(t)}"
                     f" ({why}).", target=t)

    def tidy_holds(self) -> None:
        """Holds whose holder or held character is out of the fight end, said once."""
        for t, rec in list(self.fight.holds.items()):
            if self.holder_of(t) is not None:
                continue
            by = str(rec.get("by", ""))
            self.set_holds(t, None)
            if by in self.state.actors and t in self.state.actors:
                gone = by if self.out(by) or not self.enc.has(by) else t
                self.say(by, "let_go", f"{self.name(by)} no longer holds {self.name(t)}"
                         f" ({self.name(gone)} is out of the fight).", target=t)

    def mark(self, actor: str, what: str, data: dict[str, int | str] | None = None) -> None:
        """Put a lasting mark on ``actor`` (prone, dropped, holding)."""
        self.add_effect(actor, actor, what, "recovery", data=data)

    def unmark(self, actor: str, what: str, match: Callable[[en.Effect], bool]) -> None:
        """Take ``actor``'s marks named ``what`` that ``match`` away."""
        self.end_effects([e for e in self.has_effect(actor, what) if match(e)])

    def drop(self, actor: str, thing: str) -> str:
        """``actor`` drops ``thing`` (a held id); the name of what fell."""
        held = self.held_things(actor)
        name = held[thing]
        obj = self.carried_object(actor)
        if obj is not None and block_id(obj) == thing:
            self.unmark(actor, "holding", lambda e: True)
        else:
            self.mark(actor, "dropped", {"form": thing, "name": name})
        return name

    def disarm(self, who: str, form: AttackForm | None = None) -> None:
        """The crit tables' Disarmed (``form`` None: the object, else the first weapon) and
        Fumble (``form``: the weapon used, if it is held); holding nothing, ``who`` loses its
        next panel."""
        held = self.held_things(who)
        if form is not None:
            thing = form_id(form) if form_id(form) in held else None
        else:
            thing = next(iter(held), None)
        if thing is None:
            self.owe(who)
            return
        name = self.drop(who, thing)
        self.say(who, "drop_item", f"{self.name(who)} drops {name}: it must be picked up (one"
                 " panel) to be used again.")


def object_form(name: str) -> AttackForm:
    """A picked-up object as an attack form: melee, non-lethal, an object (it may parry)."""
    return AttackForm(name=name, object=True, modifier=OBJECT_MODIFIER)


__all__ = ["ACTIONS", "CHARACTERS_FILE", "OBJECT_MODIFIER", "OUT_CONDITIONS", "PRONE_PENALTY",
           "STATUS_CONDITIONS", "Ctx", "action", "block_id", "block_of", "characters",
           "characters_at", "form_id", "health_of", "object_form", "tracks_set"]
