"""The campaign state: one mutable object, written only by ``apply``."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from engine.dice import check_stream


class StateModel(BaseModel):
    """Base of state models: unknown keys in a save are an error."""

    model_config = ConfigDict(extra="forbid")


class Hero(StateModel):
    """The player's character."""

    name: str
    archetype: str | None = None
    stats: dict[str, int]
    locked: list[str] = Field(default_factory=list, description="Stats that never shift again.")
    conditions: list[str] = Field(default_factory=list)
    tracks: dict[str, int] = Field(default_factory=dict)
    flags: list[str] = Field(default_factory=list)
    taken_out: bool = False
    advances: list[str] = Field(default_factory=list)
    data: dict[str, Any] = Field(default_factory=dict, description="System-specific state.")


class NPC(StateModel):
    """A non-player character, with Influence both ways."""

    id: str
    name: str
    role: str
    note: str = ""
    present: bool = True
    conditions: list[str] = Field(default_factory=list)
    influence_over_hero: bool = False
    hero_has_influence: bool = False
    barred: bool = Field(False, description="Lost Influence over the hero for good.")
    data: dict[str, Any] = Field(default_factory=dict)


class ActiveBonus(StateModel):
    """A +N forward or ongoing waiting to apply."""

    id: int
    kind: Literal["forward", "ongoing"]
    amount: int
    moves: list[str] = Field(default_factory=list)
    target: str | None = None
    expires: Literal["roll", "scene", "session"] = "scene"
    reason: str = ""


class HoldEntry(StateModel):
    """Hold from a move, spent one for one."""

    move: str
    amount: int
    expires: Literal["scene", "session"] = "scene"


class Scene(StateModel):
    """The scene being played."""

    number: int = 0
    title: str = ""
    location: str = ""
    stakes: str = ""
    open: bool = False
    clearing: list[str] = Field(
        default_factory=list, description="Conditions whose clearing action was taken."
    )
    present: list[str] = Field(default_factory=list, description="NPC ids in the scene.")
    hits: int = 0
    misses: int = 0
    quiet: int = Field(0, description="Fiction beats in a row with no move or GM move.")
    beats: int = Field(0, description="Player fiction and moves so far in the scene.")


class Threat(StateModel):
    """A villain or danger with a clock of escalating steps."""

    id: str
    name: str
    kind: str = "villain"
    clock: int = 0
    size: int = 6
    steps: list[str] = Field(default_factory=list)
    doom: str = ""
    active: bool = True
    npc: str | None = None


class Flow(StateModel):
    """Where the current action stands: what the engine waits for."""

    stage: Literal["fiction", "move", "target", "roll", "adjust", "effects"] = "fiction"
    fiction: str = ""
    suggestions: list[dict[str, Any]] = Field(default_factory=list)
    move: str | None = None
    target: str | None = None
    stat: str | None = None
    advantage: str | None = None
    extras: list[list[Any]] = Field(
        default_factory=list, description="Modifiers added before the roll: [source, amount]."
    )
    params: dict[str, int] = Field(default_factory=dict, description="Roll parameters set.")
    declared: list[str] = Field(default_factory=list, description="Declarations before a roll.")
    roll: dict[str, Any] | None = None
    queue: list[dict[str, Any]] = Field(default_factory=list)
    prompt: dict[str, Any] | None = None


class CampaignState(StateModel):
    """Everything a campaign is, at one moment."""

    version: int = 1
    system: str
    name: str
    seed: int
    dice_mode: Literal["seeded", "physical", "mixed"] = "seeded"
    dice_position: int = 0
    dice_stream: Annotated[int, AfterValidator(check_stream)] = Field(
        default=1, description="The dice stream rolled (engine/dice.py); saves without it: 1."
    )
    hero: Hero
    npcs: dict[str, NPC] = Field(default_factory=dict)
    pools: dict[str, int] = Field(default_factory=dict)
    bonuses: list[ActiveBonus] = Field(default_factory=list)
    holds: list[HoldEntry] = Field(default_factory=list)
    next_id: int = 1
    scene: Scene = Field(default_factory=Scene)
    session: int = 0
    used: list[str] = Field(default_factory=list, description="Once-per keys already used.")
    threats: dict[str, Threat] = Field(default_factory=dict)
    threads: list[str] = Field(default_factory=list)
    tension: int = 5
    gm_recent: list[str] = Field(default_factory=list)
    gm_lines: list[str] = Field(default_factory=list, description="Recent narration templates.")
    flow: Flow = Field(default_factory=Flow)
    event_no: int = 0
    action_no: int = 0
    data: dict[str, Any] = Field(default_factory=dict)

    def npc_by_name(self, name: str) -> NPC | None:
        """The NPC whose id or name matches ``name`` (case-insensitive)."""
        key = name.strip().lower()
        for npc in self.npcs.values():
            if npc.id == key or npc.name.lower() == key:
                return npc
        return None
