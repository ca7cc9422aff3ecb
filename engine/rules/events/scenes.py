"""Scene and session events: scenes and sessions opened and closed, and the once-per-scene or
once-per-session uses they end."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.rules.events.core import Event, applier, event
from engine.rules.state import CampaignState, Scene


@event
@dataclass(frozen=True, slots=True)
class OnceUsed(Event):
    """A once-per-scene or once-per-session use is spent."""

    key: str


@applier("OnceUsed")
def _once(state: CampaignState, ev: OnceUsed) -> None:
    if ev.key not in state.used:
        state.used.append(ev.key)


@event
@dataclass(frozen=True, slots=True)
class SceneStarted(Event):
    """A new scene opens."""

    number: int
    title: str = ""
    location: str = ""
    stakes: str = ""
    present: list[str] = field(default_factory=list)


@applier("SceneStarted")
def _scene_start(state: CampaignState, ev: SceneStarted) -> None:
    state.scene = Scene(
        number=ev.number, title=ev.title, location=ev.location, stakes=ev.stakes, open=True
    )
    npcs = [a for a in state.actors.values() if a.kind == "npc"]
    if ev.present:
        for npc in npcs:
            npc.present = npc.id in ev.present
    state.scene.present = [n.id for n in npcs if n.present]


@event
@dataclass(frozen=True, slots=True)
class SceneMoved(Event):
    """The scene's place changes in the middle of the scene: the fiction took the hero
    somewhere else ("I race to the Drowned Chapel")."""

    location: str
    was: str = ""
    """The place it was before ("" when the scene had none)."""


@applier("SceneMoved")
def _scene_moved(state: CampaignState, ev: SceneMoved) -> None:
    state.scene.location = ev.location


@event
@dataclass(frozen=True, slots=True)
class ClearingActionTaken(Event):
    """The acting hero took the action that clears a condition: it clears when the scene ends
    (``Ruleset.scene_ending``), unless marked anew before."""

    condition: str


@applier("ClearingActionTaken")
def _clearing(state: CampaignState, ev: ClearingActionTaken) -> None:
    if ev.condition not in state.scene.clearing:
        state.scene.clearing.append(ev.condition)


@event
@dataclass(frozen=True, slots=True)
class SceneEnded(Event):
    """The scene closes; scene-long bonuses, hold and once-per-scene uses end."""

    number: int


@applier("SceneEnded")
def _scene_end(state: CampaignState, ev: SceneEnded) -> None:
    state.scene.open = False
    state.scene.clearing = []
    state.bonuses = [b for b in state.bonuses if b.expires == "session"]
    state.holds = [h for h in state.holds if h.expires == "session"]
    state.used = [u for u in state.used if not u.startswith("scene:")]


@event
@dataclass(frozen=True, slots=True)
class SessionStarted(Event):
    """A new session of play."""

    number: int


@applier("SessionStarted")
def _session_start(state: CampaignState, ev: SessionStarted) -> None:
    state.session = ev.number


@event
@dataclass(frozen=True, slots=True)
class SessionEnded(Event):
    """The session closes; session-long bonuses, hold and once-per-session uses end."""

    number: int


@applier("SessionEnded")
def _session_end(state: CampaignState, ev: SessionEnded) -> None:
    state.bonuses = []
    state.holds = []
    state.used = []


__all__ = [
    "ClearingActionTaken",
    "OnceUsed",
    "SceneEnded",
    "SceneMoved",
    "SceneStarted",
    "SessionEnded",
    "SessionStarted",
]
