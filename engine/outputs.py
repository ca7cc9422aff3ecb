"""JSON Schemas of what the command line prints as JSON, for script consumers: ``sidekick
schema`` writes them beside the content files' (the committed copies are in
``docs/schema/output/``).

- ``event.schema.json``: one line of ``sidekick script``: an event's full form
  (``Event.to_dict(full=True)``: every field, the optional and derived ones filled) with its
  event number ``n``, its action number ``a`` and ``acting_id``, the hero whose turn it was.
  One definition per event type of every ruleset (the catalogue's registries), chosen by
  ``type`` (``if``/``then``: a discriminated union); no other key is allowed, so a consumer
  sees the shape the app reads.
- ``list.schema.json``: one line of ``sidekick list --json`` (``CampaignSummary``).
- ``odds.schema.json``: ``sidekick odds --json`` (``OddsLine``).
- ``roll.schema.json``: one line of ``sidekick roll --json`` (``RollLine``).
- ``lab-summary.schema.json``: ``sidekick lab --json`` (``LabSummary``: its sections by name,
  their insides loosely).
- ``lab-duel.schema.json``: ``sidekick lab --side ... --json``, a duel or a sweep
  (``DuelSummary``, its points as ``DuelPoint``).

The schemas are made from the Python types the values are built from (an event's dataclass
fields, a ``TypedDict``), so a field added to an event is in the schema the next time it is
written, and a test runs the commands and validates every line.
"""

from __future__ import annotations

import dataclasses
import inspect
import sys
import types
import typing
from collections.abc import Mapping
from typing import Any, TypedDict

from engine.content.publish import DIALECT, SCHEMA_SUFFIX
from engine.rules.events.base import Event
from engine.store import CampaignSummary
from engine.systems import RULESETS, ruleset_class

OUTPUT_FOLDER = "output"
"""The sub-folder of ``sidekick schema --out DIR`` the output schemas go to."""

LOGGED: dict[str, str] = {
    "n": "The event's number in the campaign's log (1, 2, ...).",
    "a": "The number of the action the event belongs to (one player action, one GM move...).",
    "acting_id": "The id of the hero whose turn it was (the journal calls that hero 'you').",
}
"""What ``sidekick script`` adds to an event's fields, and what each says."""


class OddsLine(TypedDict):
    """What ``sidekick odds --json`` prints: the dice, the modifier (clamped as the game
    clamps it) and the exact chance of each band, by band id, as a fraction ("5/12")."""

    dice: str
    modifier: int
    odds: dict[str, str]


class RollLine(TypedDict):
    """One roll of ``sidekick roll --json``: its faces, those kept and dropped, the total
    with the modifier, the seed the rolls came from, and with ``--dc`` the check's result."""

    dice: str
    modifier: int
    faces: list[int]
    kept: list[int]
    dropped: list[int]
    total: int
    seed: int
    dc: int | None
    success: bool | None
    degrees: int | None


class LabFailure(TypedDict):
    """A campaign of a lab run that failed: its index, its dice seed and the error."""

    index: int
    seed: int
    error: str


class LabTotals(TypedDict):
    """What the campaigns that played through did, summed."""

    steps: int
    moves: int
    scenes: int
    rolls: int


class LabSummary(TypedDict):
    """``sidekick lab --json``: a run's statistics (``engine.lab.stats.summarize``), its
    sections by name; the report (docs/lab) says what each holds."""

    spec: dict[str, Any]
    system: str
    policy: str
    campaigns: int
    ok: int
    failures: list[LabFailure]
    totals: LabTotals
    moves: list[dict[str, Any]]
    series: dict[str, Any]
    taken_out: dict[str, Any]
    threats: dict[str, Any]
    gm_moves: list[dict[str, Any]]
    gm_fit: dict[str, Any]
    fights: dict[str, Any]
    headline: list[str]


# ------------------------------------------------------------------ Python types to JSON Schema

_SCALARS: dict[Any, str] = {str: "string", int: "integer", bool: "boolean", float: "number",
                            type(None): "null"}


def _resolve(owner: type, name: str) -> Any:
    """The annotation of attribute ``name`` of ``owner`` (or the class of its MRO that
    declares it), evaluated in that class's module: events say ``from __future__ import
    annotations``, and their class variables name types only imported for type checking."""
    for klass in owner.__mro__:
        annotations = inspect.get_annotations(klass)
        if name in annotations:
            value = annotations[name]
            if isinstance(value, typing.ForwardRef):  # a TypedDict's, from a string
                value = value.__forward_arg__
            if isinstance(value, str):
                space = dict(vars(sys.modules[klass.__module__]))
                value = eval(value, space)  # an annotation of our own code
            return value
    raise KeyError(f"{owner.__name__} has no annotation {name!r}")


def _is_typeddict(tp: Any) -> bool:
    return isinstance(tp, type) and issubclass(tp, dict) and hasattr(tp, "__required_keys__")


def type_schema(tp: Any) -> dict[str, Any]:
    """The JSON Schema of the JSON form of values of the Python type ``tp``."""
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if tp is Any or tp is object:
        return {}
    if tp in _SCALARS:
        return {"type": _SCALARS[tp]}
    if origin in (typing.Union, types.UnionType):
        parts = [type_schema(a) for a in args]
        if all(set(p) == {"type"} and isinstance(p["type"], str) for p in parts):
            return {"type": [p["type"] for p in parts]}
        return {"anyOf": parts}
    if origin is typing.Literal:
        return {"enum": list(args)}
    if origin in (list, tuple, set, frozenset) or tp in (list, tuple):
        if origin is tuple and args and args[-1] is not Ellipsis:
            return {"type": "array", "items": [type_schema(a) for a in args],
                    "minItems": len(args), "maxItems": len(args)}
        return {"type": "array", "items": type_schema(args[0]) if args else {}}
    if origin in (dict, Mapping) or tp is dict:
        return {"type": "object", "additionalProperties": type_schema(args[1]) if args else {}}
    if _is_typeddict(tp):
        return _typeddict_schema(tp)
    raise TypeError(f"no JSON Schema for the type {tp!r}")


def _unwrap(tp: Any) -> Any:
    """``tp`` without ``NotRequired``/``Required`` around it."""
    while typing.get_origin(tp) in (typing.NotRequired, typing.Required):
        tp = typing.get_args(tp)[0]
    return tp


def _doc(obj: object) -> str:
    """The first paragraph of ``obj``'s docstring, on one line."""
    text = inspect.getdoc(obj) or ""
    return " ".join(text.split("\n\n")[0].split())


def _typeddict_schema(td: type) -> dict[str, Any]:
    """A ``TypedDict``'s schema: its keys, those it requires, and no other key."""
    keys = td.__annotations__
    required: frozenset[str] = getattr(td, "__required_keys__", frozenset())
    props = {k: type_schema(_unwrap(_resolve(td, k))) for k in keys}
    return {"type": "object", "description": _doc(td), "properties": props,
            "required": [k for k in keys if k in required], "additionalProperties": False}


def _dataclass_schema(cls: type, extra: Mapping[str, dict[str, Any]] | None = None
                      ) -> dict[str, Any]:
    """A dataclass's dict form: every field required, ``extra`` keys too, no other key."""
    props = {f.name: type_schema(_resolve(cls, f.name)) for f in dataclasses.fields(cls)}
    props.update(extra or {})
    return {"type": "object", "description": _doc(cls), "properties": props,
            "required": list(props), "additionalProperties": False}


# ------------------------------------------------------------------ the schemas


def event_types() -> dict[str, tuple[type[Event], list[str]]]:
    """Every event type any ruleset can log, by ``type``: its class and the rulesets that
    know it (the catalogue's registries, their bases included)."""
    out: dict[str, tuple[type[Event], list[str]]] = {}
    for name in RULESETS:
        for kind, cls in ruleset_class(name).registry.events.all().items():
            known = out.setdefault(kind, (cls, []))
            if known[0] is not cls:
                raise TypeError(f"two rulesets register different {kind!r} events")
            known[1].append(name)
    return dict(sorted(out.items()))


def _logged() -> dict[str, dict[str, Any]]:
    return {"n": {"type": "integer", "description": LOGGED["n"]},
            "a": {"type": "integer", "description": LOGGED["a"]},
            "acting_id": {"type": "string", "description": LOGGED["acting_id"]}}


def event_schema() -> dict[str, Any]:
    """The schema of one event line of ``sidekick script``: one definition per event type."""
    definitions: dict[str, Any] = {}
    every = sorted(RULESETS)
    for kind, (cls, rulesets) in event_types().items():
        body = _dataclass_schema(cls, _logged())
        body["properties"] = {"type": {"const": kind}, **body["properties"]}
        body["required"] = ["type", *body["required"]]
        whose = "every ruleset" if sorted(rulesets) == every else ", ".join(rulesets)
        body["description"] = f"{body['description']} (Logged by: {whose}.)".strip()
        definitions[kind] = body
    return {
        "$schema": DIALECT,
        "$id": _id("event"),
        "title": "Sidekick output: an event line of `sidekick script`",
        "description": "One event in its full form (every field, the optional and derived"
                       " ones filled), with its event number n, its action number a and"
                       " acting_id; the definition is chosen by `type`. Written by `sidekick"
                       " schema`.",
        "type": "object",
        "required": ["type", *LOGGED],
        "properties": {"type": {"enum": list(definitions)}},
        # a union chosen by "type" (draft-07 has no discriminator): each type's definition
        # applies to the lines of that type only, so a validator checks one definition per
        # line and names the field that is wrong
        "allOf": [{"if": {"properties": {"type": {"const": k}}},
                   "then": {"$ref": f"#/definitions/{k}"}} for k in definitions],
        "definitions": definitions,
    }


class DuelPoint(TypedDict):
    """One point of a duel or sweep: the swept traits' values (empty for a plain duel), the
    fights played (``runs``) and failed, each side's wins and side A's rate with its 95%
    Wilson interval (``a_low``, ``a_high``; B's likewise), the draws (stalemates, both sides
    out), rounds and turns (mean and 95% interval), the endings by kind, the fights each side
    acted first in and A's wins among them, and the exact chance of each winner when the
    game's fast duel can enumerate it (else null)."""

    point: dict[str, int]
    runs: int
    failed: int
    a_wins: int
    b_wins: int
    draws: int
    a_rate: float | None
    a_low: float
    a_high: float
    b_rate: float | None
    b_low: float
    b_high: float
    rounds: dict[str, float]
    turns: dict[str, float]
    endings: dict[str, int]
    first: dict[str, int]
    a_wins_first: dict[str, int]
    exact: dict[str, float] | None


class DuelSummary(TypedDict):
    """``sidekick lab --side A=... --side B=... --json``: a duel ("duel": one character a
    side), a skirmish ("skirmish") or a sweep ("sweep") of two sides' stat blocks, both
    played by ``policy``; ``path`` "fast" (the game's fast duels) or "game" (whole games);
    ``sweep`` the swept traits (side, trait,
    label, values, the value as given); ``even`` where side A's win rate crosses 50% along
    the first trait (``at`` null: never in the range), for each value of a second."""

    kind: str
    system: str
    policy: str
    runs: int
    seed: int
    max_rounds: int
    path: str
    a: str
    b: str
    sweep: list[dict[str, Any]]
    points: list[DuelPoint]
    even: list[dict[str, Any]]
    failures: list[dict[str, Any]]
    failed: int


def _id(name: str) -> str:
    return f"urn:sidekick:schema:output:{name}"


def _top(name: str, title: str, body: dict[str, Any]) -> dict[str, Any]:
    about = body.pop("description", "")
    return {"$schema": DIALECT, "$id": _id(name), "title": f"Sidekick output: {title}",
            "description": f"{about} Written by `sidekick schema`.".strip(), **body}


def output_schemas() -> dict[str, dict[str, Any]]:
    """The schema of every JSON output of the command line, by file name (under
    ``OUTPUT_FOLDER``)."""
    schemas = {
        "event": event_schema(),
        "list": _top("list", "a line of `sidekick list --json`",
                     _dataclass_schema(CampaignSummary)),
        "odds": _top("odds", "`sidekick odds --json`", _typeddict_schema(OddsLine)),
        "roll": _top("roll", "a line of `sidekick roll --json`", _typeddict_schema(RollLine)),
        "lab-summary": _top("lab-summary", "`sidekick lab --json`",
                            _typeddict_schema(LabSummary)),
        "lab-duel": _top("lab-duel", "`sidekick lab --side A=... --side B=... --json`",
                         _typeddict_schema(DuelSummary)),
    }
    return {f"{name}{SCHEMA_SUFFIX}": schema for name, schema in schemas.items()}


__all__ = ["LOGGED", "OUTPUT_FOLDER", "DuelPoint", "DuelSummary", "LabFailure", "LabSummary",
           "LabTotals", "OddsLine", "RollLine", "event_schema", "event_types", "output_schemas",
           "type_schema"]
