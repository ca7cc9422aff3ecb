"""Sides, who is left standing, and foes from stat blocks: what every fighting game shares."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.content.loader import Pack
from engine.errors import ContentError, IllegalAction
from engine.rules.events import DataSet, Event
from engine.rules.fight.dice import Emit
from engine.rules.fight.events import FIGHT, FoeAdded, FoesCleared
from engine.rules.fight.state import Fight
from engine.rules.fight.values import FoeOption
from engine.rules.state import Actor, CampaignState, new_id

HEROES, VILLAINS = "heroes", "villains"


def side_of(state: CampaignState, actor_id: str) -> str:
    """The side a character fights on: the party's heroes (and hero allies) or the villains."""
    actor = state.actors[actor_id]
    return HEROES if actor.kind == "hero" or actor.role in ("hero_ally", "ally") else VILLAINS


def standing_side(state: CampaignState, fight: Fight, out: Callable[[str], bool]) -> str | None:
    """The one side with anyone left who can act (``out`` says who cannot), "nobody" when
    none has, None while two sides still stand."""
    standing = {side_of(state, p.actor) for p in fight.encounter.participants
                if p.present and not out(p.actor)}
    if len(standing) >= 2:
        return None
    return next(iter(standing), "nobody")


@dataclass(frozen=True, slots=True)
class FoeBlock:
    """What bringing a stat block into a fight needs: its name, the members of a group
    (None: one character) and the story role it enters with."""

    name: str
    members: int | None
    role: str


def add_foes(state: CampaignState, foes: Sequence[str], blocks: Mapping[str, FoeBlock],
             emit: Emit) -> list[str]:
    """``foes`` as actor ids: characters of the story as they are, stat block ids (or names)
    added to the story (``FoeAdded``; a group as ``<name> 1``, ``<name> 2``... sharing the
    block's id as their group); ``IllegalAction`` naming the blocks when one is unknown."""
    ids: list[str] = []
    for foe in foes:
        if foe in state.actors:
            ids.append(foe)
            continue
        bid = foe if foe in blocks else new_id(foe, ())
        block = blocks.get(bid)
        if block is None:
            known = ", ".join(sorted(blocks)) or "none"
            raise IllegalAction(f"no character or stat block {foe!r} (stat blocks: {known})")
        if block.members is not None:
            for i in range(1, block.members + 1):
                name = f"{block.name} {i}"
                nid = new_id(name, list(state.actors))
                emit(FoeAdded(id=nid, name=name, role=block.role, statblock=bid, group=bid))
                ids.append(nid)
        else:
            nid = new_id(block.name, list(state.actors))
            emit(FoeAdded(id=nid, name=block.name, role=block.role, statblock=bid))
            ids.append(nid)
    return ids


def spent_foes(state: CampaignState, among: Sequence[str]) -> list[str]:
    """Which of ``among`` (at a fight's end: those out of it) may leave the state once their
    fight is over (``FoesCleared``):
    members of a group of foes (``FoeAdded`` with a group: minions a stat block brought in,
    never the cast, a hero or a named villain) that nothing holds on to: not in a fight under
    way, not the subject of a fact, not a threat's NPC, no whereabouts or note in the ledger,
    no bonus about them."""
    fighting = ({p.actor for p in state.fight.encounter.participants}
                if state.fight is not None else set())
    held: set[str] = set(fighting)
    for fact in state.facts:
        held.update(fact.about)
    held.update(t.npc for t in state.threats.values() if t.npc)
    held.update(b.target for b in state.bonuses if b.target)
    held.update(b.owner for b in state.bonuses if b.owner)
    out: list[str] = []
    for actor_id in among:
        actor = state.actors.get(actor_id)
        if (actor is None or actor.kind != "npc" or actor_id in state.party
                or actor_id in held or not actor.data.get("group")
                or actor.where or actor.note):
            continue
        out.append(actor_id)
    return out


def shed_spent_foes(state: CampaignState) -> list[str]:
    """Save format 4's step for a state saved before it, done whenever a campaign is opened
    (nothing to do for a state saved since): the minions of every finished fight
    (``spent_foes``) leave the state, as ``FoesCleared`` makes them leave at a fight's end
    now; the ids that left (saved with the next action).

    Only the state opened is changed, never a log chunk's base: undo replays older events on
    those as they were saved (a state undone to before format 4 sheds them at the next
    open)."""
    ids = spent_foes(state, list(state.actors))
    if ids:
        FIGHT.apply(state, FoesCleared(ids=ids))
    return ids


def npc_block(state: CampaignState, npc_id: str, blocks: Callable[[], Mapping[str, Any]]
              ) -> list[Event]:
    """An NPC named like a block of the pack's characters file (``blocks``: by id) plays that
    block: its ``data["statblock"]`` is set to the id. Nothing for an NPC with a block of its
    own, or when the characters file cannot be read (validate reports it)."""
    npc = state.actors.get(npc_id)
    if npc is None or "statblock" in npc.data:
        return []
    try:
        known = blocks()
    except ContentError:
        return []
    bid = new_id(npc.name, ())
    return [DataSet(scope=npc_id, key="statblock", value=bid)] if bid in known else []


def hero_blocks(pack: Pack, state: CampaignState,
                derive: Callable[[Actor], Any] | None = None) -> list[Event]:
    """Heroes made from an archetype with a stat block hold its id in ``data["statblock"]``;
    the others get ``derive(hero)`` (a whole block), when given."""
    out: list[Event] = []
    for hero in state.heroes:
        if "statblock" in hero.data:
            continue
        arche = pack.archetypes.get(hero.archetype or "")
        ref = arche.data.get("statblock") if arche else None
        if ref is None and derive is not None:
            ref = derive(hero)
        if ref is not None:
            out.append(DataSet(scope=hero.id, key="statblock", value=ref))
    return out


def foe_list(state: CampaignState, blocks: Callable[[], Mapping[str, Any]],
             block_of: Callable[[Actor], Any], is_hero: Callable[[Any], bool],
             detail: Callable[[Any], str], group: Callable[[Any], int] = lambda blk: 0
             ) -> list[FoeOption]:
    """Who a fight may be against, as ``Conflict.foe_options`` gives it: the present NPCs
    with a stat block (``block_of``), then those of the cast away from the scene, then the
    pack's blocks (``blocks``: by id) that are not heroes and not yet in play (``group``: how
    many a block brings, 0 for one). A block that cannot be read is left out (``sidekick
    validate`` reports it)."""
    out: list[FoeOption] = []
    away: list[FoeOption] = []
    in_play: set[str] = set()
    for npc in state.npcs.values():
        ref = npc.data.get("statblock")
        if isinstance(ref, str):
            in_play.add(ref)
        try:
            blk = block_of(npc)
        except ContentError:
            continue
        if blk is not None and not npc.taken_out:  # one of the cast away comes in to fight
            (out if npc.present else away).append(FoeOption(
                id=npc.id, label=npc.name, group=group(blk),
                detail=detail(blk) + ("" if npc.present else ", not in the scene")))
    out += away
    try:
        known = blocks()
    except ContentError:
        known = {}
    for bid, blk in known.items():
        if not is_hero(blk) and bid not in in_play and bid not in state.actors:
            out.append(FoeOption(id=bid, label=blk.name, detail=detail(blk) + ", not yet here",
                                 group=group(blk)))
    return out


__all__ = ["HEROES", "VILLAINS", "FoeBlock", "add_foes", "foe_list", "hero_blocks",
           "npc_block", "shed_spent_foes", "side_of", "spent_foes", "standing_side"]
