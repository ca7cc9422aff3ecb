"""Registries: what a ruleset declares, by kind, in one object it owns.

A ``Registry`` holds a game's event types (each with the function that applies it), the kinds
of hand edits it knows, its ``rule`` effects and system effects (with the answers to the
prompts they open) and the journal lines of its own events. Each kind has one decorator:

    MASKS = Registry("masks", CORE)

    @MASKS.event
    @dataclass(frozen=True, slots=True)
    class InfluenceChanged(Event): ...

    @MASKS.applier(InfluenceChanged)
    def _influence_changed(state, e): ...

    @MASKS.rule_effect("time_passes")
    def _time_passes(rules, state, eff, ctx): ...

A registry extends its bases (the core's events, the fight engine's), so a ruleset's registry
knows everything its campaigns can log. The catalogue (``engine.systems``) seals a ruleset's
registry when it finds the ruleset, so nothing registers later: what a campaign can read never
depends on which modules happen to be imported. Reading a log takes the registry
(``Registry.decode``); applying an event needs none but for the ruleset's own hand edits.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import MISSING, Field, fields
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

if TYPE_CHECKING:
    from engine.rules.events.base import Event
    from engine.rules.state import CampaignState

E = TypeVar("E", bound="type[Event]")
F = TypeVar("F", bound=Callable[..., Any])
T = TypeVar("T")

Applier = Callable[["CampaignState", Any], None]
"""Writes one event into the state."""
JournalLine = Callable[[dict[str, Any], Callable[[str], str]], "str | None"]
"""The journal line of one event dict; the second argument names a character by id."""


class EditLike(Protocol):
    """What the registry reads of an ``Edited`` event (engine/rules/events/edits.py)."""

    what: str


def _default(f: Field[Any]) -> Any:
    """A dataclass field's default (made by its factory if it has one)."""
    if f.default is not MISSING:
        return f.default
    if f.default_factory is not MISSING:
        return f.default_factory()
    raise TypeError(f"the optional field {f.name!r} has no default")


class Sealed(RuntimeError):
    """Something tried to register into a registry its ruleset already uses."""


class Kind(Generic[T]):
    """One kind of entry of a registry (events, rule effects, ...): names to values, looked
    up through the registry's bases."""

    def __init__(self, owner: Registry, what: str) -> None:
        self.owner, self.what = owner, what
        self.own: dict[str, T] = {}
        self._flat: dict[str, T] | None = None

    def add(self, name: str, value: T) -> None:
        """Register ``value`` as ``name``; ``Sealed`` once the registry is in use."""
        if self.owner.sealed:
            raise Sealed(f"the {self.owner.name} registry is in use: {self.what} {name!r} was"
                         " registered too late (register it in a module the ruleset imports)")
        if name in self.own:
            raise ValueError(f"{self.what} {name!r} is registered twice in {self.owner.name}")
        self.own[name] = value

    def get(self, name: str) -> T | None:
        """The entry ``name`` of this registry or the nearest base that has it."""
        return self.all().get(name)

    def all(self) -> dict[str, T]:
        """Every entry, the registry's own over its bases' (kept once the registry is
        sealed, as nothing can change it then)."""
        if self._flat is not None:
            return self._flat
        out: dict[str, T] = {}
        for reg in reversed(list(self.owner.chain())):
            out.update(reg.kind(self.what).own)
        if self.owner.sealed:
            self._flat = out
        return out

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self.get(name) is not None


class Registry:
    """What one ruleset (or the core, or the fight engine) declares."""

    def __init__(self, name: str, *bases: Registry) -> None:
        self.name = name
        self.bases = bases
        self.sealed = False
        self.events: Kind[type[Event]] = Kind(self, "event type")
        self.edits: Kind[Applier] = Kind(self, "edit kind")
        self.rule_effects: Kind[Callable[..., Any]] = Kind(self, "rule effect")
        self.rule_answers: Kind[Callable[..., Any]] = Kind(self, "rule effect answer")
        self.effects: Kind[Callable[..., Any]] = Kind(self, "system effect")
        self.journal: Kind[JournalLine] = Kind(self, "journal line")
        self.tones: Kind[str] = Kind(self, "journal tone")
        """How a front end may set off an event's line: "change" (a character's state
        changed). Events with none are plain."""
        self._kinds: dict[str, Kind[Any]] = {k.what: k for k in (
            self.events, self.edits, self.rule_effects, self.rule_answers,
            self.effects, self.journal, self.tones)}

    def __repr__(self) -> str:
        return f"Registry({self.name!r})"

    def kind(self, what: str) -> Kind[Any]:
        """The kind called ``what``."""
        return self._kinds[what]

    def chain(self) -> Iterator[Registry]:
        """This registry, then its bases (depth first, each once)."""
        seen: set[int] = set()
        stack = [self]
        while stack:
            reg = stack.pop(0)
            if id(reg) in seen:
                continue
            seen.add(id(reg))
            yield reg
            stack.extend(reg.bases)

    def seal(self) -> Registry:
        """Refuse any later registration, here and in the bases (the ruleset is in use)."""
        for reg in self.chain():
            reg.sealed = True
        return self

    # ------------------------------------------------------------------ decorators

    def event(self, cls: E) -> E:
        """Register an event class under its class name (its saved ``type``)."""
        cls.type = cls.__name__
        cls._names = tuple(f.name for f in fields(cls))
        cls._quiet = {f.name: _default(f) for f in fields(cls) if f.name in cls.OPTIONAL}
        self.events.add(cls.__name__, cls)
        return cls

    def applier(self, event: type[Event] | str) -> Callable[[F], F]:
        """Declare the function that applies events of type ``event`` (one of this registry's
        own): it is kept on the event class, so applying an event needs no lookup."""
        cls = event if not isinstance(event, str) else self.events.own.get(event)
        if cls is None:
            raise ValueError(f"{event!r} is no event type of the {self.name} registry")

        def deco(fn: F) -> F:
            if self.sealed:
                raise Sealed(f"the {self.name} registry is in use: the applier of"
                             f" {cls.__name__} was declared too late")
            cls._apply = fn
            return fn

        return deco

    def edit(self, what: str) -> Callable[[F], F]:
        """Register the function that writes an ``Edited`` event of kind ``what``."""

        def deco(fn: F) -> F:
            self.edits.add(what, fn)
            return fn

        return deco

    def rule_effect(self, name: str) -> Callable[[F], F]:
        """Register a ``rule`` effect's handler ``(rules, state, eff, ctx) -> Step | Need``."""

        def deco(fn: F) -> F:
            self.rule_effects.add(name, fn)
            return fn

        return deco

    def rule_answer(self, name: str) -> Callable[[F], F]:
        """Register the answer to the prompt a ``rule`` effect opened
        ``(rules, state, eff, ctx, ids) -> list[Item]``."""

        def deco(fn: F) -> F:
            self.rule_answers.add(name, fn)
            return fn

        return deco

    def effect(self, type_: str) -> Callable[[F], F]:
        """Register the handler of a system effect type ``(rules, state, eff, ctx)``."""

        def deco(fn: F) -> F:
            self.effects.add(type_, fn)
            return fn

        return deco

    def journal_line(self, *types: str, tone: str | None = None) -> Callable[[F], F]:
        """Register the journal line of events of ``types`` (and their ``tone``, if any)."""

        def deco(fn: F) -> F:
            for t in types:
                self.journal.add(t, fn)
                if tone is not None:
                    self.tones.add(t, tone)
            return fn

        return deco

    # ------------------------------------------------------------------ reading and applying

    def decode(self, d: Mapping[str, Any]) -> Event:
        """Rebuild an event from its saved form; ``ValueError`` naming an unknown type (extra
        keys such as ``n`` and ``a`` are ignored)."""
        kind = d.get("type", "")
        cls = self.events.get(kind) if isinstance(kind, str) else None
        if cls is None:
            raise ValueError(f"unknown event type {kind!r} (the {self.name} rules know"
                             f" {len(self.events.all())} types)")
        full = cls.filled(dict(d)) if cls.DERIVED else d
        return cls(**{k: full[k] for k in cls._names if k in full})

    def apply(self, state: CampaignState, e: Event) -> None:
        """Apply one event to ``state``: the only way state changes. An ``Edited`` event
        writes through this registry's edit kinds (a ruleset adds its own)."""
        if e.type == "Edited":
            self._edit(state, e)  # type: ignore[arg-type]
        else:
            fn = type(e)._apply
            if fn is not None:
                fn(state, e)
        state.event_no += 1

    def _edit(self, state: CampaignState, e: EditLike) -> None:
        fn = self.edits.get(e.what)
        if fn is None:
            raise ValueError(f"the {self.name} rules do not know how to edit {e.what!r}")
        fn(state, e)

    def filled(self, d: dict[str, Any]) -> dict[str, Any]:
        """A saved event dict with every field its type has (``Event.filled``); a dict of
        an unknown type as it is."""
        cls = self.events.get(str(d.get("type", "")))
        return d if cls is None else cls.filled(d)

    def line(self, e: dict[str, Any], who: Callable[[str], str]) -> str | None:
        """The journal line this registry (or a base) writes for ``e``; None when none does."""
        fn = self.journal.get(str(e.get("type", "")))
        return None if fn is None else fn(e, who)


__all__ = ["Applier", "JournalLine", "Kind", "Registry", "Sealed"]
