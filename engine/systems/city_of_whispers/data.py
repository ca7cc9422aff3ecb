"""What City of Whispers content says a game starts with: ``system.yaml`` ``data`` and each
archetype's ``data``, as typed models that refuse unknown keys."""

from __future__ import annotations

import difflib
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from engine.content.loader import Pack, parse_yaml
from engine.content.problems import describe


class _Start(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class FactionStart(_Start):
    """A faction as content describes it (archetype or system data)."""

    name: str
    aspects: list[str] = Field(default_factory=list)
    complications: list[str] = Field(default_factory=list)
    neighborhoods: list[str] = Field(default_factory=list)
    magistrate: bool = Field(False, description="Played by the Magistrate.")


class TieStart(_Start):
    """A starting Tie with a suggested NPC, by name."""

    npc: str
    insight: str


class HeroStart(_Start):
    """What an archetype (or a custom hero) starts with."""

    beliefs: list[str] = Field(default_factory=list)
    beliefs_to_write: int = 0
    connections: list[str] = Field(default_factory=list)
    histories: list[str] = Field(default_factory=list)
    max_complexity: int = 2
    ties: list[TieStart] = Field(default_factory=list)
    ties_to_name: int = 0
    faction: FactionStart | None = None


class OfferReading(_Start):
    """The weights of the Magistrate reading an offer as +Sway, minus Heat or flat."""

    sway: int = Field(0, ge=0)
    minus_heat: int = Field(0, ge=0)
    none: int = Field(0, ge=0)

    def weights(self) -> dict[str, int]:
        """The weights by reading, in a fixed order."""
        return {"minus_heat": self.minus_heat, "none": self.none, "sway": self.sway}


class OfferReadings(_Start):
    """One reading per offer of Direct Someone to Act."""

    peril: OfferReading | None = None
    value: OfferReading | None = None
    logic: OfferReading | None = None


class SystemData(_Start):
    """``system.yaml`` ``data``: the city's standing factions, custom heroes, offer readings."""

    factions: list[FactionStart] = Field(default_factory=list)
    custom_hero: HeroStart = Field(default_factory=HeroStart)
    offer_readings: OfferReadings = Field(default_factory=OfferReadings)
    histories_local: bool = Field(
        False, description="A House option: a History bumps a roll only in a scene of its own"
        " neighborhood (the rules set no such limit, so it is off by default).")


def _line_of(node: Any, loc: list[Any]) -> int | None:
    """The 1-based line of the YAML key (or item) at ``loc``, else of the deepest found."""
    import yaml

    if node is None:
        return None
    line: int = node.start_mark.line + 1
    for key in loc:
        if isinstance(node, yaml.MappingNode):
            pair = next(((k, v) for k, v in node.value if k.value == key), None)
            if pair is None:
                break
            line = pair[0].start_mark.line + 1
            node = pair[1]
        elif isinstance(node, yaml.SequenceNode) and isinstance(key, int) \
                and 0 <= key < len(node.value):
            node = node.value[key]
            line = node.start_mark.line + 1
        else:
            break
    return line


class _Lines:
    """``system.yaml``'s node tree, parsed only when a problem needs a line."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.node: Any = None
        self.parsed = False

    def line(self, loc: list[Any]) -> int | None:
        """The line of ``loc`` in the file, if it can be read."""
        if not self.parsed:
            self.parsed = True
            try:
                _, self.node = parse_yaml(self.path.read_text(encoding="utf-8"))
            except Exception:  # the pack loaded from it: a line is a bonus
                self.node = None
        return _line_of(self.node, loc)


def _did_you_mean(key: Any) -> str:
    """A hint naming the closest key City of Whispers data knows, if one is close."""
    known = {f for m in (FactionStart, TieStart, HeroStart, OfferReading, OfferReadings,
                         SystemData) for f in m.model_fields}
    close = difflib.get_close_matches(str(key), sorted(known), n=1)
    return f" (did you mean {close[0]!r}?)" if close else " (check the spelling)"


def _problems(where: list[Any], shown: str, model: type[BaseModel], data: Any, lines: _Lines
              ) -> list[str]:
    try:
        model.model_validate(data)
    except ValidationError as e:
        out = []
        for err in e.errors():
            line = lines.line([*where, *err["loc"]])
            path = shown + "".join(f"[{p}]" if isinstance(p, int) else f".{p}"
                                   for p in err["loc"])
            msg = (f"unknown key{_did_you_mean(err['loc'][-1])}"
                   if err["type"] == "extra_forbidden" else describe(err))
            out.append(f"system.yaml{f':{line}' if line else ''}: {path}: {msg}")
        return out
    return []


def data_problems(pack: Pack) -> list[str]:
    """Every problem with the ``data`` blocks of ``system.yaml`` (the system's and each
    archetype's), each as ``system.yaml:<line>: <key path>: <what is wrong>``."""
    lines = _Lines(Path(pack.path, "system.yaml"))
    problems = _problems(["data"], "data", SystemData, pack.system.data, lines)
    for i, a in enumerate(pack.system.archetypes):
        problems += _problems(["archetypes", i, "data"], f"archetypes.{a.id}.data", HeroStart,
                              a.data, lines)
    return problems
