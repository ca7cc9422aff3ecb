"""What the fight engine gives front ends (the app, the scripts, the lab): typed, frozen values,
one field per thing a front end shows or decides on, each with its docstring.

``Game.fight_options`` gives ``FightOption`` values (each with its ``FightTarget`` odds),
``Game.suggest_fight`` ``FightSuggestion`` values, ``Game.tracker`` ``TrackerRow`` values,
``Game.foe_options`` ``FoeOption`` values, ``Game.fight_odds`` one ``FightTarget``,
``Game.fight_need`` a ``DieNeed`` or ``ChoiceNeed`` and ``Game.fight_request`` a
``RequestedFight``. A game's own parts are fields a game may leave at their defaults (the
odds of a resistance check by degree, or of a hit by band with its damage), and its tracker
columns a typed value of the style it draws (``InitiativeColumns``, ``PanelColumns``): nothing
here names a game, and a front end reads fields, never keys or sentences.

``dataclasses.asdict`` gives each value's JSON shape (the scripts and the lab print that).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

Control = Literal["player", "referee"]
"""Who plays a character in a fight."""


@dataclass(frozen=True, slots=True)
class ActionWords:
    """The pack's words for one fight action or maneuver (its ``actions.yaml``)."""

    id: str
    """The action's (or maneuver's) id."""
    name: str
    """Its name ("Power attack"); the id in words when the pack gives none."""
    summary: str = ""
    """What it does, in a line ("" when the pack says nothing)."""
    examples: tuple[str, ...] = ()
    """Example fictions that mean it (what the matcher of ``suggest_fight`` learns from)."""
    kind: Literal["action", "maneuver"] = "action"
    """An action, or a maneuver declared with an attack."""
    cues: tuple[str, ...] = ()
    """Words a player says for it, found word for word (a maneuver's: "all-out", "sucker
    punch"); a maneuver they name is declared with the attack suggested."""


@dataclass(frozen=True, slots=True)
class ResistDegree:
    """One result of the target's resistance check against an attack that reaches it."""

    degree: int
    """The degree: 1 a success, -1 to -4 one to four degrees of failure."""
    chance: float
    """Its exact chance, if the attack reaches the target (0 to 1)."""
    result: str
    """What it does to the target, in a word or two: "shrugs", "-1", "dazed", "staggered",
    "down", "1st degree"... (degrees with the same result read the same)."""
    severity: int
    """How bad it is for the target: 0 nothing, 1 hurt or hindered, 2 out of the fight."""


@dataclass(frozen=True, slots=True)
class FightTarget:
    """One character an option may be aimed at, with the exact odds of the option on it (an
    attack's; other options give none). A game fills the fields of its own kind of odds and
    leaves the others at None (or empty)."""

    id: str
    """The character's id (what ``fight_act`` takes as ``target``)."""
    name: str
    """Its name."""
    why: str = ""
    """Why it cannot be targeted now ("" : it can)."""
    hit: float | None = None
    """The chance to hit it (1.0 for an effect with no attack roll; None: no odds)."""
    critical: float | None = None
    """The chance of a critical hit."""
    effect: float | None = None
    """The chance the option takes effect on it (M&M: it hits and the resistance fails; a
    game of hit bands: it hits)."""
    value: float | None = None
    """What the option is worth on it, as the game measures it (the lab's and the greedy
    player's score): the chance it takes effect, or of putting the target down."""
    defense_class: int | None = None
    """The defence class the attack roll is against (a game with one)."""
    resist_dc: int | None = None
    """The DC of the target's resistance check (a game whose targets resist)."""
    resist: tuple[ResistDegree, ...] = ()
    """Each result of the resistance check with its chance, best for the target first."""
    minor: float | None = None
    """The chance of a minor hit (a game of hit bands)."""
    complete: float | None = None
    """The chance of a complete hit (a game of hit bands)."""
    expected_damage: float | None = None
    """The damage expected, before any response (a game of damage tracks)."""
    down: float | None = None
    """The chance the option puts the target down (out of the fight)."""
    neutralised: str = ""
    """What leaves it out of the fight in all but name ("unaware"): it can still be targeted,
    but is never the default target ("": it takes part)."""
    band: str = ""
    """How far it is from the acting character: "engaged", "close", "ranged" or "far" (""
    : a game without positions)."""

    @property
    def miss(self) -> float | None:
        """The chance to miss it (None: no odds)."""
        return None if self.hit is None else 1.0 - self.hit


@dataclass(frozen=True, slots=True)
class FightAttack:
    """The attack an option uses."""

    id: str
    """The attack's id (what ``fight_act`` takes as ``attack``)."""
    name: str
    """Its name ("Light Lance")."""
    range: str
    """How it reaches: "close", "ranged", "perception" or "area"."""
    rolls: bool = True
    """Whether it makes an attack roll (a perception or area effect does not)."""
    bonus: int | None = None
    """Its attack bonus (a game that lists one)."""
    rank: int | None = None
    """Its effect rank (a game of ranks)."""
    resisted_by: str = ""
    """The defence that resists it ("toughness", "will"...; "" : none named)."""
    effect: str = ""
    """What it does: "damage", "affliction"... ("" : damage by the game's own rules)."""
    delivery: str = ""
    """How it is delivered, for the defender's response ("melee", "missile"...)."""
    lethal: bool | None = None
    """Whether it can kill (a game that says)."""


@dataclass(frozen=True, slots=True)
class Maneuver:
    """A maneuver an attack option may be declared with."""

    id: str
    """Its id (a key of ``fight_act``'s ``maneuvers``, or of its ``options`` for a switch)."""
    name: str
    """Its name."""
    summary: str = ""
    """What it does, in a line."""
    most: int = 1
    """The most it may be set to (a trade: 0 to this); 1 for a switch (on or off)."""
    switch: bool = False
    """A switch (on or off) given in ``fight_act``'s ``options``, not a trade in
    ``maneuvers``."""
    why: str = ""
    """Why it cannot go with this attack ("" when it can): shown dimmed with the reason."""


@dataclass(frozen=True, slots=True)
class NamedChoice:
    """Something an option needs named that the engine can list (a power to use, an item to
    pick up or drop)."""

    id: str
    """What ``fight_act`` takes in ``options`` under the option's ``needs``."""
    name: str
    """Its name."""
    detail: str = ""
    """What it is, or its odds, in a few words."""
    why: str = ""
    """Why it cannot be used ("" : it can)."""
    check: str = ""
    """What it is rolled with ("strength": a power's characteristic; "" : no roll)."""
    works: float | None = None
    """The chance it works (a power's check)."""
    well: float | None = None
    """The chance it works well."""


@dataclass(frozen=True, slots=True)
class FightOption:
    """One thing the acting character may do now: an action (an attack: one per attack),
    its cost, whether it can be taken and why not, whom it may be aimed at with the odds."""

    action: str
    """The action's id (what ``fight_act`` takes)."""
    name: str
    """The action's name, from the pack's words."""
    cost: str
    """What it costs, in words: an action kind ("standard", "move", "free", "reaction",
    "none") or panels ("1 panel", "none")."""
    allowed: bool
    """Whether it can be taken now."""
    target: str = "none"
    """Whom it is aimed at: "foe", "ally" or "none"."""
    why: str = ""
    """Why it cannot be taken now ("" when it can)."""
    panels: int | None = None
    """Its cost in panels (a game of panels; None otherwise)."""
    targets: tuple[FightTarget, ...] = ()
    """Who it may be aimed at, in turn order, each with the odds of the option on them."""
    attack: FightAttack | None = None
    """The attack it uses (None: not an attack)."""
    needs: str = ""
    """What must be named when it is taken, as an ``options`` key: "item", "action",
    "power", "way" (where a move goes) ("" : nothing)."""
    choices: tuple[NamedChoice, ...] = ()
    """What may be named, when the engine can list it (empty: the player names it)."""
    maneuvers: tuple[Maneuver, ...] = ()
    """The maneuvers it may be declared with (an attack in a game with maneuvers)."""
    readied: bool = False
    """Taken off-turn as the action its character readied."""
    odds: float | None = None
    """The chance it works, when that does not depend on a target (breaking free)."""
    check: str = ""
    """What it is rolled with, when the engine picks it ("Strength")."""

    @property
    def key(self) -> str:
        """A stable name for the option: its action, and its attack's id for an attack."""
        return f"{self.action}/{self.attack.id}" if self.attack else self.action

    @property
    def label(self) -> str:
        """What a menu calls it: the attack's name for a plain attack, "Charge: Hundred
        Jabs" for another action with an attack, else the action's name."""
        if self.attack is None:
            return self.name
        return self.attack.name if self.action == "attack" else f"{self.name}: {self.attack.name}"

    def target_named(self, target: str | None) -> FightTarget | None:
        """The target of this option with id ``target`` (None: not one of them)."""
        return next((t for t in self.targets if t.id == target), None)

    def best_target(self) -> FightTarget | None:
        """The target it is likeliest to affect (then to put down; the first such in turn
        order), one taking part in the fight before a neutralised one; None without
        targets."""
        if not self.targets:
            return None
        return max(self.targets, key=lambda t: (not t.neutralised, t.effect or 0.0,
                                                t.down or 0.0))


@dataclass(frozen=True, slots=True)
class FightSuggestion:
    """An action the player's words suggest (``Game.suggest_fight``), best first."""

    action: str | None
    """The action's id; None: the words read as no action ("just fiction")."""
    name: str
    """The action's name ("Just fiction" for none)."""
    words: tuple[str, ...] = ()
    """The player's words that led to it."""
    score: float = 0.0
    """How well the words fit (1.0 for a name said outright)."""
    option: FightOption | None = None
    """The option it would take (None for just fiction)."""
    target: FightTarget | None = None
    """The target chosen (the one the words name, else the likeliest to be affected), with
    its odds; None when the option has none."""
    named: NamedChoice | None = None
    """What the words named that the option needs (a power), taken as it is."""
    maneuvers: tuple[str, ...] = ()
    """The maneuvers the words name that the option may be declared with (ids of its
    ``maneuvers``): a trade at its most, a switch on (``declared``)."""
    area: bool = False
    """An area attack aimed at no one target: it covers every foe in the area (``target``
    is None; ``covers`` lists them)."""

    @property
    def key(self) -> str:
        """The key of the option it would take ("" for just fiction)."""
        return self.option.key if self.option is not None else ""

    @property
    def covers(self) -> tuple[FightTarget, ...]:
        """Whom it reaches: every target of its option for an area attack covering them
        all, else its one target (none without)."""
        if self.area and self.option is not None:
            return self.option.targets
        return (self.target,) if self.target is not None else ()

    def declared(self) -> tuple[dict[str, int], dict[str, bool]]:
        """Its maneuvers as ``fight_act`` takes them: the trades (at their most) for
        ``maneuvers``, the switches (on) for ``options``."""
        trades: dict[str, int] = {}
        switches: dict[str, bool] = {}
        for m in self.option.maneuvers if self.option is not None else ():
            if m.id in self.maneuvers:
                if m.switch:
                    switches[m.id] = True
                else:
                    trades[m.id] = m.most
        return trades, switches

    @property
    def attack(self) -> FightAttack | None:
        """The attack of the option it would take (None: not an attack)."""
        return self.option.attack if self.option is not None else None


@dataclass(frozen=True, slots=True)
class InitiativeColumns:
    """A tracker row's own columns in the "initiative" style (a game of initiative order,
    damage and conditions)."""

    damage: int = 0
    """The damage penalty (0: none)."""
    waiting: str = ""
    """A held turn or action: "delay", "ready" ("" : none)."""


@dataclass(frozen=True, slots=True)
class PanelColumns:
    """A tracker row's own columns in the "panels" style (a game of side dice, panels and
    Kill and Stun tracks)."""

    kill: int
    """Kill left."""
    kill_max: int
    """Kill at full."""
    stun: int
    """Stun left."""
    stun_max: int
    """Stun at full."""
    panels: int = 0
    """Panels left this round (its turn's, or those it will get this round)."""
    arrears: int = 0
    """Panels owed (spent on responses), repaid from its turns."""
    held_by: str = ""
    """The name of whoever holds it ("" : free)."""
    holding: tuple[str, ...] = ()
    """The names of those it holds."""
    prone: bool = False
    """Lying flat."""
    dropped: tuple[str, ...] = ()
    """The names of its weapons on the ground."""
    object: str = ""
    """The object it picked up and holds ("" : none)."""


Columns = InitiativeColumns | PanelColumns
"""A game's own columns of a tracker row, in its conflict's ``tracker_style``."""


@dataclass(frozen=True, slots=True)
class TrackerRow:
    """One character in the initiative tracker, in turn order."""

    actor: str
    """Its id."""
    name: str
    """Its name."""
    side: str
    """Its side: "heroes" or "villains"."""
    initiative: int
    """Its initiative (the panels game: its Agility, the order within a side)."""
    acting: bool
    """Whether it is acting now."""
    control: Control
    """Who plays it."""
    out: str = ""
    """How it left the fight: "fled", "surrendered", "down" ("" : still in it)."""
    present: bool = True
    """Whether it is still in the scene."""
    acted: bool = False
    """Whether it has had its turn this round."""
    conditions: tuple[str, ...] = ()
    """Its conditions (and, in the panels game, lying flat and whom it holds), as ids or
    short words."""
    columns: Columns = InitiativeColumns()
    """The game's own columns."""
    band: str = ""
    """How far it is from the hero acting now, when it is one of its foes: "engaged",
    "close", "ranged" or "far" ("" : a hero's row, a foe acting, nobody acting, or a game
    without positions)."""


@dataclass(frozen=True, slots=True)
class FoeOption:
    """Someone a fight may be against (``start_fight`` takes the id)."""

    id: str
    """An NPC's id, or a stat block's id (a character not yet in the story)."""
    label: str
    """Its name."""
    detail: str = ""
    """What it is ("villain, PL 10", "5 minions, PL 4, not yet here")."""
    group: int = 0
    """How many it brings: a group's members, who roll initiative once (0: one character)."""


@dataclass(frozen=True, slots=True)
class RequestedFight:
    """A fight a move started that waits for its initiative dice (physical dice): what to pass
    to ``start_fight`` with them."""

    foes: tuple[str, ...]
    """The foes' ids."""
    surprised: tuple[str, ...] = ()
    """Who is surprised (ids or a side)."""


@dataclass(frozen=True, slots=True)
class FightChoice:
    """One answer to what a fight's step asks the player (a response to a hit, a critical
    hit's effect...)."""

    id: str
    """What ``fight_choose`` takes."""
    label: str
    """Its words ("Dodge")."""
    detail: str = ""
    """What it does and its exact odds, in a sentence."""
    how: str = ""
    """How it works with its odds, in a few words for a menu ("18+ avoids it all (45%),
    15-17 halves it (15%)"); "" : the detail says it."""
    cost_words: str = ""
    """What it costs, in words ("free", "costs 1 future panel"; "" : nothing to pay)."""
    cost: int | None = None
    """What it costs in future panels (None: not a response)."""
    odds: float | None = None
    """The chance it works (a complete dodge, any successful parry)."""
    expected: float | None = None
    """The damage expected to get through with it."""
    avoided: float | None = None
    """The damage it is expected to save against taking the hit."""
    incoming: float | None = None
    """The damage expected if the hit is taken."""

    def to_dict(self) -> dict[str, Any]:
        """The form a pending step keeps (``Need.options``): the fields that are set."""
        out: dict[str, Any] = {"id": self.id, "label": self.label, "detail": self.detail}
        for k in ("how", "cost_words"):
            if getattr(self, k):
                out[k] = getattr(self, k)
        for k in ("cost", "odds", "expected", "avoided", "incoming"):
            if getattr(self, k) is not None:
                out[k] = getattr(self, k)
        return out

    @classmethod
    def of(cls, d: Mapping[str, Any]) -> FightChoice:
        """A choice from the form a pending step keeps (an older save's too)."""

        def num(k: str) -> float | None:
            v = d.get(k)
            return float(v) if isinstance(v, int | float) and not isinstance(v, bool) else None

        cost = d.get("cost")
        return cls(id=str(d.get("id", "")), label=str(d.get("label", "")),
                   detail=str(d.get("detail") or ""), how=str(d.get("how") or ""),
                   cost_words=str(d.get("cost_words") or ""),
                   cost=int(cost) if isinstance(cost, int) and not isinstance(cost, bool)
                   else None,
                   odds=num("odds"), expected=num("expected"), avoided=num("avoided"),
                   incoming=num("incoming"))


@dataclass(frozen=True, slots=True)
class DieNeed:
    """A fight's step waits for a die the player rolls."""

    who: str
    """The name of the character it is rolled for."""
    what: str
    """What it is rolled for."""
    sides: int = 20
    """The die's sides."""
    odds: str = ""
    """Its odds, in words ("55% to hit")."""
    actor: str = ""
    """The id of the character it is rolled for ("" in an older save)."""
    side: str = ""
    """The side whose d6 it is, when it is a side's initiative die for a new round ("" :
    another roll)."""
    kind: Literal["die"] = "die"
    """Always "die"."""


@dataclass(frozen=True, slots=True)
class ChoiceNeed:
    """A fight's step waits for the player's choice."""

    actor: str
    """The id of the character the choice is for."""
    who: str
    """Its name."""
    question: str
    """What is asked."""
    choices: tuple[FightChoice, ...] = ()
    """The answers on offer."""
    about: str = ""
    """What is asked about: "response" (a hit to answer: take it, dodge, parry...),
    "critical" (a critical hit's effect), "" (anything else)."""
    kind: Literal["choice"] = "choice"
    """Always "choice"."""

    def choice(self, answer: str) -> FightChoice | None:
        """The answer with id ``answer`` (None: not one of them)."""
        return next((c for c in self.choices if c.id == answer), None)


FightNeed = DieNeed | ChoiceNeed
"""What a fight's step waits for: a die, or the player's choice."""


__all__ = ["ActionWords", "ChoiceNeed", "Columns", "Control", "DieNeed", "FightAttack",
           "FightChoice", "FightNeed", "FightOption", "FightSuggestion", "FightTarget",
           "FoeOption", "InitiativeColumns", "Maneuver", "NamedChoice", "PanelColumns",
           "RequestedFight", "ResistDegree", "TrackerRow"]
