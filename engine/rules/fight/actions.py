"""An action's rule and the table a game's conflict keeps its actions in.

Each game owns one ``ActionTable``; its modules register their actions with the table's
decorator, and the game's conflict runs them. A table is sealed once its conflict is made, so
no module adds or replaces an action later.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from engine.errors import IllegalAction
from engine.rules.fight.state import Pending
from engine.rules.registry import Sealed

S = TypeVar("S")
"""The game's step type."""


@dataclass(frozen=True, slots=True)
class ActionRule(Generic[S]):
    """An action the fight engine runs: its cost (an action kind such as "standard", or a
    number of panels), whom it targets ("foe", "ally" or "none"), and its handler."""

    id: str
    cost: str | int
    target: str
    handler: Callable[[S, Pending], None]
    needs_attack: bool = False
    needs: str = ""
    """An option the player must give, by name ("item": which item; "action": which one)."""
    internal: bool = False
    """A step of the engine (a readied action taken, a counter), not an action to pick."""


class ActionTable(Generic[S]):
    """A game's fight actions by id, in the game's declared ``order`` (the order its menus show
    them), whichever module registered them first; actions the order leaves out follow in the
    order registered."""

    def __init__(self, game: str, order: Sequence[str] = ()) -> None:
        self.game = game
        self.order = tuple(order)
        """The ids in the order the game lists its actions."""
        self._rules: dict[str, ActionRule[S]] = {}
        self.sealed = False

    def _place(self, id_: str) -> int:
        try:
            return self.order.index(id_)
        except ValueError:
            return len(self.order)

    def action(self, id_: str, cost: str | int, target: str = "none", *,
               needs_attack: bool = False, needs: str = "", internal: bool = False
               ) -> Callable[[Callable[[S, Pending], None]], Callable[[S, Pending], None]]:
        """Register an action's handler."""

        def deco(fn: Callable[[S, Pending], None]) -> Callable[[S, Pending], None]:
            if self.sealed:
                raise Sealed(f"the {self.game} fight actions are in use: {id_!r} was"
                             " registered too late")
            if id_ in self._rules:
                raise ValueError(f"the {self.game} fight action {id_!r} is registered twice")
            self._rules[id_] = ActionRule(id_, cost, target, fn, needs_attack, needs,
                                          internal)
            # the declared order, not the order modules happened to be imported in (sorted
            # is stable: undeclared actions keep the order they came in)
            self._rules = dict(sorted(self._rules.items(), key=lambda kv: self._place(kv[0])))
            return fn

        return deco

    def extended(self, game: str | None = None) -> ActionTable[S]:
        """A new, open table with this one's actions, to add more to (a variant of the game,
        or a test's extra action); this table is not changed."""
        out: ActionTable[S] = ActionTable(game or self.game, self.order)
        out._rules = dict(self._rules)
        return out

    def seal(self) -> None:
        """Refuse any later registration (the game's conflict is in use)."""
        self.sealed = True

    def __getitem__(self, id_: str) -> ActionRule[S]:
        return self._rules[id_]

    def get(self, id_: str) -> ActionRule[S] | None:
        """The rule of action ``id_``, or None."""
        return self._rules.get(id_)

    def require(self, id_: str) -> ActionRule[S]:
        """The rule of action ``id_``; ``IllegalAction`` naming the actions otherwise."""
        rule = self._rules.get(id_)
        if rule is None:
            raise IllegalAction(f"unknown action {id_!r} (actions: {', '.join(self.ids())})")
        return rule

    def __contains__(self, id_: object) -> bool:
        return id_ in self._rules

    def __iter__(self) -> Iterator[str]:
        return iter(self._rules)

    def rules(self) -> list[ActionRule[S]]:
        """Every rule, in the game's order."""
        return list(self._rules.values())

    def ids(self, *, internal: bool = False) -> list[str]:
        """The action ids (the engine's internal steps too with ``internal``)."""
        return [k for k, r in self._rules.items() if internal or not r.internal]

    def words_ids(self) -> list[str]:
        """The ids content may give words for."""
        return list(self._rules)

    def describe(self) -> dict[str, Any]:
        """Each action's cost and target, for validate and the docs."""
        return {k: {"cost": r.cost, "target": r.target} for k, r in self._rules.items()}


__all__ = ["ActionRule", "ActionTable"]
