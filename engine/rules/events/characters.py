"""Character events: conditions, labels, tracks, bonuses, hold, flags and advances of the
heroes and NPCs; heroes and NPCs added, switched, present; system data of a character or the
campaign."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from engine.rules.events.core import Event, applier, event
from engine.rules.state import HERO, ActiveBonus, Actor, CampaignState, HoldEntry


@event
@dataclass(frozen=True, slots=True)
class ConditionMarked(Event):
    """A condition marked on a character (``who``: an actor id, or "hero": the acting hero)."""

    ACTORS: ClassVar[tuple[str, ...]] = ("who",)

    who: str
    condition: str
    reason: str = ""


@applier("ConditionMarked")
def condition_marked(state: CampaignState, ev: ConditionMarked) -> None:
    """Apply ``ConditionMarked`` (a hand edit of a condition marks it the same way)."""
    conds = state.actor(ev.who).conditions
    if ev.condition not in conds:
        conds.append(ev.condition)
    if state.actor_id(ev.who) == state.acting and ev.condition in state.scene.clearing:
        state.scene.clearing.remove(ev.condition)  # marked anew: an earlier action is spent


@event
@dataclass(frozen=True, slots=True)
class ConditionCleared(Event):
    """A condition cleared."""

    ACTORS: ClassVar[tuple[str, ...]] = ("who",)

    who: str
    condition: str
    reason: str = ""


@applier("ConditionCleared")
def condition_cleared(state: CampaignState, ev: ConditionCleared) -> None:
    """Apply ``ConditionCleared`` (a hand edit of a condition clears it the same way)."""
    conds = state.actor(ev.who).conditions
    if ev.condition in conds:
        conds.remove(ev.condition)


@event
@dataclass(frozen=True, slots=True)
class LabelsShifted(Event):
    """Stats shifted: {stat: delta}, with the resulting values."""

    ACTORS: ClassVar[tuple[str, ...]] = ("who",)

    changes: dict[str, int]
    values: dict[str, int]
    reason: str = ""
    who: str = HERO
    OPTIONAL: ClassVar[tuple[str, ...]] = ("who",)


@applier("LabelsShifted")
def _shifted(state: CampaignState, ev: LabelsShifted) -> None:
    state.actor(ev.who).stats.update(ev.values)


@event
@dataclass(frozen=True, slots=True)
class LabelLocked(Event):
    """A stat is locked for good."""

    ACTORS: ClassVar[tuple[str, ...]] = ("who",)

    stat: str
    who: str = HERO
    OPTIONAL: ClassVar[tuple[str, ...]] = ("who",)


@applier("LabelLocked")
def _locked(state: CampaignState, ev: LabelLocked) -> None:
    locked = state.actor(ev.who).locked
    if ev.stat not in locked:
        locked.append(ev.stat)


@event
@dataclass(frozen=True, slots=True)
class TrackChanged(Event):
    """A track or pool moved to ``value`` (already clamped)."""

    ACTORS: ClassVar[tuple[str, ...]] = ("who",)

    track: str
    scope: str
    delta: int
    value: int
    reason: str = ""
    who: str = HERO
    OPTIONAL: ClassVar[tuple[str, ...]] = ("who",)


@applier("TrackChanged")
def _track(state: CampaignState, ev: TrackChanged) -> None:
    if ev.scope == "campaign":
        state.pools[ev.track] = ev.value
    else:
        state.actor(ev.who).tracks[ev.track] = ev.value


@event
@dataclass(frozen=True, slots=True)
class BonusAdded(Event):
    """A +N forward or ongoing."""

    ACTORS: ClassVar[tuple[str, ...]] = ("owner",)

    id: int
    kind: str
    amount: int
    moves: list[str]
    target: str | None
    expires: str
    reason: str
    owner: str = HERO
    OPTIONAL: ClassVar[tuple[str, ...]] = ("owner",)


@applier("BonusAdded")
def _bonus(state: CampaignState, ev: BonusAdded) -> None:
    state.bonuses.append(
        ActiveBonus(
            id=ev.id, kind=ev.kind, amount=ev.amount, moves=list(ev.moves),
            target=ev.target, expires=ev.expires, reason=ev.reason,
            owner=state.actor_id(ev.owner),
        )
    )
    state.next_id = max(state.next_id, ev.id + 1)


@event
@dataclass(frozen=True, slots=True)
class BonusesExpired(Event):
    """Bonuses that ran out."""

    ids: list[int]
    reason: str = ""


@applier("BonusesExpired")
def _bonus_gone(state: CampaignState, ev: BonusesExpired) -> None:
    state.bonuses = [b for b in state.bonuses if b.id not in ev.ids]


@event
@dataclass(frozen=True, slots=True)
class HoldChanged(Event):
    """Hold on a move gained or spent by hero ``who`` ("": no owner, from before parties)."""

    move: str
    delta: int
    value: int
    expires: str = "scene"
    who: str = ""


@applier("HoldChanged")
def _hold(state: CampaignState, ev: HoldChanged) -> None:
    owner = ev.who or None
    state.holds = [h for h in state.holds if (h.move, h.owner) != (ev.move, owner)]
    if ev.value > 0:
        state.holds.append(HoldEntry(move=ev.move, amount=ev.value, expires=ev.expires,
                                     owner=owner))


@event
@dataclass(frozen=True, slots=True)
class TakenOut(Event):
    """A hero is taken out of the scene (or returns, with ``out`` false)."""

    ACTORS: ClassVar[tuple[str, ...]] = ("who",)

    out: bool = True
    reason: str = ""
    who: str = HERO
    OPTIONAL: ClassVar[tuple[str, ...]] = ("who",)


@applier("TakenOut")
def _taken_out(state: CampaignState, ev: TakenOut) -> None:
    state.actor(ev.who).taken_out = ev.out


@event
@dataclass(frozen=True, slots=True)
class FlagSet(Event):
    """A hero flag set or cleared."""

    ACTORS: ClassVar[tuple[str, ...]] = ("who",)

    flag: str
    value: bool = True
    who: str = HERO
    OPTIONAL: ClassVar[tuple[str, ...]] = ("who",)


@applier("FlagSet")
def _flag(state: CampaignState, ev: FlagSet) -> None:
    flags = state.actor(ev.who).flags
    if ev.value and ev.flag not in flags:
        flags.append(ev.flag)
    elif not ev.value and ev.flag in flags:
        flags.remove(ev.flag)


@event
@dataclass(frozen=True, slots=True)
class AdvanceTaken(Event):
    """An advancement taken."""

    ACTORS: ClassVar[tuple[str, ...]] = ("who",)

    advance: str
    text: str
    who: str = HERO
    OPTIONAL: ClassVar[tuple[str, ...]] = ("who",)


@applier("AdvanceTaken")
def _advance(state: CampaignState, ev: AdvanceTaken) -> None:
    state.actor(ev.who).advances.append(ev.advance)


@event
@dataclass(frozen=True, slots=True)
class NPCAdded(Event):
    """An NPC joins the campaign."""

    id: str
    name: str
    role: str
    note: str = ""
    present: bool = True


@applier("NPCAdded")
def _npc(state: CampaignState, ev: NPCAdded) -> None:
    state.actors[ev.id] = Actor(id=ev.id, name=ev.name, role=ev.role, note=ev.note,
                                present=ev.present)
    if ev.present and ev.id not in state.scene.present:
        state.scene.present.append(ev.id)


@event
@dataclass(frozen=True, slots=True)
class HeroAdded(Event):
    """A hero joins the party (the first hero is made with the campaign)."""

    id: str
    name: str
    archetype: str | None = None
    stats: dict[str, int] = field(default_factory=dict)
    tracks: dict[str, int] = field(default_factory=dict)
    flags: list[str] = field(default_factory=list)
    data: dict[str, Any] = field(default_factory=dict)


@applier("HeroAdded")
def _hero_added(state: CampaignState, ev: HeroAdded) -> None:
    state.actors[ev.id] = Actor(id=ev.id, name=ev.name, kind="hero", role="hero",
                                archetype=ev.archetype, stats=dict(ev.stats),
                                tracks=dict(ev.tracks), flags=list(ev.flags),
                                data=dict(ev.data))
    if ev.id not in state.party:
        state.party.append(ev.id)


@event
@dataclass(frozen=True, slots=True)
class HeroSwitched(Event):
    """Another hero of the party takes the spotlight: the next moves are theirs."""

    hero: str
    was: str = ""


@applier("HeroSwitched")
def _hero_switched(state: CampaignState, ev: HeroSwitched) -> None:
    state.acting = ev.hero


@event
@dataclass(frozen=True, slots=True)
class NPCPresence(Event):
    """An NPC enters or leaves the scene."""

    npc: str
    present: bool


@applier("NPCPresence")
def _presence(state: CampaignState, ev: NPCPresence) -> None:
    state.actors[ev.npc].present = ev.present
    if ev.present and ev.npc not in state.scene.present:
        state.scene.present.append(ev.npc)


@event
@dataclass(frozen=True, slots=True)
class DataSet(Event):
    """A system-specific value changed: of the acting hero (``scope`` "hero"), of an actor
    (``scope`` its id) or of the campaign (``scope`` "campaign"); key and value."""

    ACTORS: ClassVar[tuple[str, ...]] = ("scope",)

    scope: str
    key: str
    value: Any


@applier("DataSet")
def _data(state: CampaignState, ev: DataSet) -> None:
    target = state.data if ev.scope == "campaign" else state.actor(ev.scope).data
    if ev.value is None:
        target.pop(ev.key, None)
    else:
        target[ev.key] = ev.value


__all__ = [
    "AdvanceTaken",
    "BonusAdded",
    "BonusesExpired",
    "ConditionCleared",
    "ConditionMarked",
    "DataSet",
    "FlagSet",
    "HeroAdded",
    "HeroSwitched",
    "HoldChanged",
    "LabelLocked",
    "LabelsShifted",
    "NPCAdded",
    "NPCPresence",
    "TakenOut",
    "TrackChanged",
    "condition_cleared",
    "condition_marked",
]
