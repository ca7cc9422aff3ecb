"""The campaign state: one mutable object, written only by ``apply``."""

from __future__ import annotations

import copy
from collections.abc import Collection
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, PrivateAttr, model_validator
from pydantic_core import SchemaSerializer

from engine.dice import check_stream
from engine.rules.encounter import Compact
from engine.rules.fight.state import Fight, migrate_fight

if TYPE_CHECKING:
    # What the flow holds, typed for mypy (engine/rules/types.py). At run time the fields stay
    # plain JSON (validated as dicts and lists), so saves keep their shape and nothing is
    # dropped or reordered by validation.
    from engine.rules.types import Item, Modifier, PromptDict, RollDict

    _Extras = list[Modifier]
    _Roll = RollDict | None
    _Queue = list[Item]
    _Prompt = PromptDict | None
else:
    _Extras = list[list[Any]]
    _Roll = dict[str, Any] | None
    _Queue = list[dict[str, Any]]
    _Prompt = dict[str, Any] | None


class StateModel(Compact):
    """Base of state models: unknown keys in a save are an error; saved without the fields
    still at their defaults (``Compact``)."""

    model_config = ConfigDict(extra="forbid")


class Actor(StateModel):
    """A character: a hero of the party or an NPC, with its own stats, tracks and conditions.

    NPCs may have no stats (most PbtA NPCs) or a full stat block. ``data`` holds what a ruleset
    keeps for the character (Masks: the Influence it holds; City of Whispers: the sheet).
    """

    id: str
    name: str
    kind: Literal["hero", "npc"] = "npc"
    role: str = Field("", description="The content's role id (teammate, adult, contact...).")
    archetype: str | None = None
    note: str = ""
    present: bool = True
    stats: dict[str, int] = Field(default_factory=dict)
    locked: list[str] = Field(default_factory=list, description="Stats that never shift again.")
    conditions: list[str] = Field(default_factory=list)
    tracks: dict[str, int] = Field(default_factory=dict)
    flags: list[str] = Field(default_factory=list)
    taken_out: bool = False
    advances: list[str] = Field(default_factory=list)
    data: dict[str, Any] = Field(default_factory=dict, description="System-specific state.")
    stance: dict[str, str] = Field(
        default_factory=dict, description="An NPC's stance toward each hero (hero id -> hostile,"
        " wary, neutral, warm or devoted), set by StanceChanged; unset: its role's default.")
    where: str = Field("", description="Last known whereabouts, in words (the ledger).")


class Hero(StateModel):
    """The player's character in save format 1 (one hero, no id); read only to migrate."""

    name: str
    archetype: str | None = None
    stats: dict[str, int]
    locked: list[str] = Field(default_factory=list)
    conditions: list[str] = Field(default_factory=list)
    tracks: dict[str, int] = Field(default_factory=dict)
    flags: list[str] = Field(default_factory=list)
    taken_out: bool = False
    advances: list[str] = Field(default_factory=list)
    data: dict[str, Any] = Field(default_factory=dict)


class NPC(StateModel):
    """A non-player character in save format 1, with Masks Influence fields; read only to
    migrate."""

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


HERO = "hero"
"""In an event, the acting hero (the one whose turn it is when the event is applied)."""


def _plain(value: Any) -> Any:
    return value.model_dump() if isinstance(value, BaseModel) else value


def migrate(data: Any) -> Any:
    """A saved (or constructed) state in any older shape, as the current one.

    Format 1 had one ``hero`` and ``npcs`` with Masks Influence flags; format 2 has ``actors``
    (heroes and NPCs alike), the ``party`` and the ``acting`` hero, and keeps Influence in the
    actors' data where the Masks rules read it. Threads were plain texts; they are ledger
    entries now (``Thread``, ids t1, t2... in order). Format 3 keeps a fight under way as a
    typed ``fight`` instead of JSON in ``data["fight"]``. Format 4 no longer keeps the minions
    of finished fights (``FoesCleared``); the state of a campaign sheds those an older version
    kept when the campaign is opened (``engine.rules.fight.foes.shed_spent_foes``), not here,
    so that undo replays a log chunk's events on its base as they were saved.
    """
    data = _migrate_fight(_migrate_threads(_migrate_actors(data)))
    if isinstance(data, dict) and isinstance(data.get("version"), int) and data["version"] < 4:
        data = {**data, "version": 4}
    return data


def _migrate_fight(data: Any) -> Any:
    """Format 2 kept a fight under way as JSON in ``data["fight"]``: format 3 has it typed
    in ``fight`` (``engine.rules.fight.state.migrate_fight`` brings its shape up to date)."""
    if not isinstance(data, dict):
        return data
    inner = data.get("data")
    if not isinstance(inner, dict) or "fight" not in inner or "fight" in data:
        if isinstance(data.get("fight"), dict):
            return {**data, "fight": migrate_fight(data["fight"])}
        return data
    d = dict(data)
    d["data"] = {k: v for k, v in inner.items() if k != "fight"}
    d["fight"] = migrate_fight(inner["fight"])
    return d


def _migrate_threads(data: Any) -> Any:
    """Threads saved as a list of texts, as ``Thread`` entries (all open)."""
    if not isinstance(data, dict):
        return data
    threads = data.get("threads")
    if not isinstance(threads, list) or not any(isinstance(t, str) for t in threads):
        return data
    d = dict(data)
    counters = dict(d.get("ledger_ids") or {})
    out: list[Any] = []
    for t in threads:
        if isinstance(t, str):
            counters["t"] = int(counters.get("t", 0)) + 1
            out.append({"id": f"t{counters['t']}", "text": t})
        else:
            out.append(t)
    d["threads"] = out
    d["ledger_ids"] = counters
    return d


def _migrate_actors(data: Any) -> Any:
    """Format 1 (one ``hero``, ``npcs``) as format 2 (``actors``, ``party``, ``acting``)."""
    if not isinstance(data, dict) or "hero" not in data or "actors" in data:
        return data
    d = dict(data)
    hero = _plain(d.pop("hero"))
    npcs = {k: _plain(v) for k, v in (d.pop("npcs", None) or {}).items()}
    if not isinstance(hero, dict) or not isinstance(npcs, dict):
        return data  # let validation say what is wrong
    hid = new_id(str(hero.get("name", "")), npcs, fallback=HERO)
    hero_data = dict(hero.get("data") or {})
    actors: dict[str, Any] = {hid: {**hero, "id": hid, "kind": "hero", "role": "hero",
                                    "data": hero_data}}
    over: list[str] = []
    barred: list[str] = []
    for key, npc in npcs.items():
        if not isinstance(npc, dict):
            return data
        npc = dict(npc)
        ndata = dict(npc.get("data") or {})
        if npc.pop("influence_over_hero", False):
            ndata["influence"] = [hid]
        if npc.pop("hero_has_influence", False):
            over.append(str(npc.get("id", key)))
        if npc.pop("barred", False):
            barred.append(str(npc.get("id", key)))
        actors[key] = {**npc, "kind": "npc", "data": ndata}
    if over:
        hero_data["influence"] = over
    if barred:
        hero_data["barred"] = barred
    d["actors"] = actors
    d["party"] = [hid]
    d["acting"] = hid
    d["bonuses"] = [{**_plain(b), "owner": hid} if isinstance(_plain(b), dict) else b
                    for b in d.get("bonuses", [])]
    d["version"] = 2
    return d


def new_id(name: str, taken: Collection[str], fallback: str = "npc") -> str:
    """An id for a new character named ``name``: its words in lower case joined by ``_``
    (``fallback`` when it has none), with ``_2``, ``_3``... when ``taken``."""
    out = "".join(c if c.isalnum() else "_" for c in name.lower())
    base = "_".join(p for p in out.split("_") if p) or fallback
    nid, n = base, 2
    while nid in taken:
        nid, n = f"{base}_{n}", n + 1
    return nid


class ActiveBonus(StateModel):
    """A +N forward or ongoing waiting to apply."""

    id: int
    kind: Literal["forward", "ongoing"]
    amount: int
    owner: str | None = Field(None, description="The hero it helps (or hinders); None: any.")
    moves: list[str] = Field(default_factory=list)
    target: str | None = None
    expires: Literal["roll", "scene", "session"] = "scene"
    reason: str = ""


class HoldEntry(StateModel):
    """Hold from a move, spent one for one."""

    move: str
    amount: int
    expires: Literal["scene", "session"] = "scene"
    owner: str | None = None
    """The hero whose hold it is (shown and spent by them); None: from before parties."""


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
    reading: dict[str, Any] | None = Field(
        None, description="The last player line read as who does what to whom (a beat).")


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
    ignored: int = Field(0, description="Scenes in a row it was left alone (ThreatIgnored).")
    confronted: int = Field(0, description="The last scene in which a move targeted its NPC.")


class LedgerEntry(StateModel):
    """A thread or a fact of the ledger: an immutable value (an edit replaces it in its list),
    so the state's saved form dumps each one once (``CampaignState.saved``). Its lists are
    not changed in place either."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class Thread(LedgerEntry):
    """A story thread in the ledger: something the story still has to settle."""

    id: str
    text: str
    status: Literal["open", "resolved"] = "open"
    source: str = Field("", description="Who or what opened it (a GM move, 'by hand').")
    note: str = ""
    rank: str = Field("", description="A vow's rank (troublesome ... epic; '' : no vow).")
    ticks: int = Field(0, description="A vow's progress in ticks (4 a box, 40 at most).")


class Fact(LedgerEntry):
    """An established truth in the ledger (from a move, an oracle answer or by hand)."""

    id: str
    text: str
    source: str = ""
    about: list[str] = Field(default_factory=list, description="The actor ids it concerns.")


class Flow(StateModel):
    """Where the current action stands: what the engine waits for."""

    stage: Literal["fiction", "move", "target", "roll", "adjust", "effects"] = "fiction"
    fiction: str = ""
    suggestions: list[dict[str, Any]] = Field(default_factory=list)
    move: str | None = None
    target: str | None = None
    stat: str | None = None
    advantage: str | None = None
    extras: _Extras = Field(
        default_factory=list, description="Modifiers added before the roll: [source, amount]."
    )
    params: dict[str, int] = Field(default_factory=dict, description="Roll parameters set.")
    declared: list[str] = Field(default_factory=list, description="Declarations before a roll.")
    roll: _Roll = None
    queue: _Queue = Field(default_factory=list)
    prompt: _Prompt = None


@dataclass(frozen=True, slots=True)
class _Dumped:
    """A ledger list's saved form, and (a copy of) the entries it was made from."""

    items: list[LedgerEntry]
    dump: list[dict[str, Any]]


_LEDGER_LISTS = ("threads", "facts")
_NOT_LEDGER = {"threads", "facts"}  # what the rest of the dump excludes


def _dumped(cache: dict[str, _Dumped], key: str, items: list[LedgerEntry]
            ) -> list[dict[str, Any]]:
    """``items``' saved form (a new list whenever it changed: saved forms are never changed),
    dumping only the entries not in ``cache[key]`` (the last dump of that list). Comparing
    the lists costs a few nanoseconds an entry: the same entries are the same objects."""
    last = cache.get(key)
    if last is not None and items == last.items:
        return last.dump
    n = 0 if last is None else len(last.items)
    if last is not None and len(items) > n and items[:n] == last.items:  # added at the end
        dump = last.dump + [e.model_dump(mode="json") for e in items[n:]]
    else:
        known = {} if last is None else {id(e): d for e, d in zip(last.items, last.dump,
                                                                  strict=True)}
        dump = [d if (d := known.get(id(e))) is not None else e.model_dump(mode="json")
                for e in items]
    cache[key] = _Dumped(list(items), dump)
    return dump


class CampaignState(StateModel):
    """Everything a campaign is, at one moment (saved with every top-level key)."""

    _full: ClassVar[bool] = True

    version: int = 4
    system: str
    name: str
    seed: int
    dice_mode: Literal["seeded", "physical", "mixed"] = "seeded"
    dice_position: int = 0
    dice_stream: Annotated[int, AfterValidator(check_stream)] = Field(
        default=1, description="The dice stream rolled (engine/dice.py); saves without it: 1."
    )
    actors: dict[str, Actor] = Field(default_factory=dict)
    party: list[str] = Field(default_factory=list, description="The heroes' ids, in order.")
    acting: str = Field("", description="The id of the hero whose turn it is.")
    pools: dict[str, int] = Field(default_factory=dict)
    bonuses: list[ActiveBonus] = Field(default_factory=list)
    holds: list[HoldEntry] = Field(default_factory=list)
    next_id: int = 1
    scene: Scene = Field(default_factory=Scene)
    session: int = 0
    used: list[str] = Field(default_factory=list, description="Once-per keys already used.")
    threats: dict[str, Threat] = Field(default_factory=dict)
    threads: list[Thread] = Field(default_factory=list, description="Open and resolved.")
    facts: list[Fact] = Field(default_factory=list)
    ledger_ids: dict[str, int] = Field(
        default_factory=dict, description="The last number given to a ledger kind's ids.")
    tension: int = 5
    gm_recent: list[str] = Field(default_factory=list)
    gm_lines: list[str] = Field(default_factory=list, description="Recent narration templates.")
    flow: Flow = Field(default_factory=Flow)
    event_no: int = 0
    action_no: int = 0
    data: dict[str, Any] = Field(default_factory=dict)
    fight: Fight | None = Field(None, description="The fight under way (the d20 games).")

    _ledger_dumps: dict[str, _Dumped] = PrivateAttr(default_factory=dict)

    @model_validator(mode="before")
    @classmethod
    def _migrate(cls, data: Any) -> Any:
        return migrate(data)

    @model_validator(mode="after")
    def _check_party(self) -> CampaignState:
        if not self.party or self.acting not in self.party:
            raise ValueError("the campaign has no acting hero")
        for hid in self.party:
            if hid not in self.actors or self.actors[hid].kind != "hero":
                raise ValueError(f"the party names {hid!r}, who is not a hero")
        return self

    def saved(self) -> dict[str, Any]:
        """The saved form, exactly ``model_dump(mode="json")``, made in a time that does not
        grow with the ledger: its threads and facts are immutable, so each is dumped once and
        a list that only grew since the last save reuses that save's dumps."""
        # every model of the state is Compact, so pydantic's own exclude_defaults leaves out
        # what Compact does, with no Python call per model; the top level keeps every key
        data = _plain_serializer().to_python(self, mode="json", exclude=_NOT_LEDGER,
                                             exclude_defaults=True)
        cache = self._ledger_dumps
        for key in _LEDGER_LISTS:
            items: list[LedgerEntry] = getattr(self, key)
            data[key] = _dumped(cache, key, items)
        return {name: data[name] for name in _field_names()}

    @property
    def hero(self) -> Actor:
        """The acting hero."""
        return self.actors[self.acting]

    @property
    def heroes(self) -> list[Actor]:
        """The party's heroes, in order."""
        return [self.actors[h] for h in self.party]

    @property
    def npcs(self) -> dict[str, Actor]:
        """The non-player characters by id (a new dict: add NPCs with events)."""
        return {k: a for k, a in self.actors.items() if a.kind == "npc"}

    @property
    def open_threads(self) -> list[Thread]:
        """The threads still open, oldest first."""
        return [t for t in self.threads if t.status == "open"]

    def next_ledger_id(self, prefix: str) -> str:
        """The id the next ledger entry of a kind gets: ``t3`` (threads), ``f2`` (facts)."""
        return f"{prefix}{self.ledger_ids.get(prefix, 0) + 1}"

    def actor(self, who: str) -> Actor:
        """The actor ``who`` names: an id, or ``"hero"`` for the acting hero."""
        return self.actors[self.acting if who == HERO else who]

    def actor_id(self, who: str) -> str:
        """The id ``who`` names (``"hero"`` is the acting hero)."""
        return self.acting if who == HERO else who

    def npc_by_name(self, name: str) -> Actor | None:
        """The NPC whose id or name matches ``name`` (case-insensitive)."""
        return self.actor_by_name(name, kinds=("npc",))

    def actor_by_name(self, name: str, kinds: tuple[str, ...] = ("npc", "hero")
                      ) -> Actor | None:
        """The actor whose id or name matches ``name`` (case-insensitive)."""
        key = name.strip().lower()
        for actor in self.actors.values():
            if actor.kind in kinds and (actor.id == key or actor.name.lower() == key):
                return actor
        return None


@cache
def _field_names() -> tuple[str, ...]:
    """The state's fields, in order."""
    return tuple(CampaignState.model_fields)


@cache
def _plain_serializer() -> SchemaSerializer:
    """``CampaignState``'s serializer without ``Compact``'s own (a Python call per model):
    asked for ``exclude_defaults``, pydantic leaves out the same fields by itself. Its own
    fields have no defaults here, so that it keeps them all (``_full``), and comparing the
    flow and the scene with fresh defaults costs nothing."""
    schema = copy.deepcopy(CampaignState.__pydantic_core_schema__)
    _drop_compact(schema)
    fields = _model_fields(schema, CampaignState)
    for field in fields.values():
        if field["schema"]["type"] == "default":
            field["schema"] = field["schema"]["schema"]
    return SchemaSerializer(schema)


def _model_fields(node: Any, cls: type[BaseModel]) -> dict[str, Any]:
    """The fields of ``cls``'s model schema under ``node``."""
    if isinstance(node, dict):
        if node.get("type") == "model" and node.get("cls") is cls:
            inner = node["schema"]
            while inner["type"] != "model-fields":
                inner = inner["schema"]
            fields: dict[str, Any] = inner["fields"]
            return fields
        for value in node.values():
            found = _model_fields(value, cls)
            if found:
                return found
    elif isinstance(node, list):
        for value in node:
            found = _model_fields(value, cls)
            if found:
                return found
    return {}


def _drop_compact(node: Any) -> None:
    """Take ``Compact._compact`` out of every model schema under ``node`` (in place)."""
    if isinstance(node, dict):
        ser = node.get("serialization")
        if (node.get("type") == "model" and isinstance(ser, dict)
                and getattr(ser.get("function"), "__qualname__", "") == "Compact._compact"):
            del node["serialization"]
        for value in node.values():
            _drop_compact(value)
    elif isinstance(node, list):
        for value in node:
            _drop_compact(value)
