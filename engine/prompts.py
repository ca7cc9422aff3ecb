"""Prompts: what the engine waits for (fiction, a move, a target, a roll, a choice), built
from the flow the state carries, so a half-finished action resumes as it stood.

Each kind of question is its own frozen class, with a field for everything a front end
shows; ``Game.pending`` returns one of them (``Prompt``, the union). Every prompt has
``kind``, ``message``, ``options`` and how many to pick (``min``, ``max``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeAlias

from engine.clearing import ClearingHint, clearing_in
from engine.content import schema as s
from engine.content.loader import Pack
from engine.errors import EngineError
from engine.journal import result_label
from engine.newcomers import newcomers
from engine.nlp.beat import Beat
from engine.odds import from_percent
from engine.preview import RollPreview
from engine.rules.base import Adjustment, Declaration, Option, Ruleset, opt, options_of
from engine.rules.fight.events import FIGHT_REQUEST
from engine.rules.fight.state import Fight, Pending
from engine.rules.state import CampaignState
from engine.rules.types import RollDict


@dataclass(frozen=True, slots=True)
class GMSaid:
    """A GM move a choice follows."""

    move: str
    """The GM move's id."""
    name: str
    """Its name."""
    kind: str
    """soft or hard."""
    text: str
    """What the GM said."""

    @classmethod
    def of(cls, d: Mapping[str, Any]) -> GMSaid:
        """From the flow's dict form."""
        return cls(move=str(d.get("move", "")), name=str(d.get("name", "")),
                   kind=str(d.get("kind", "")), text=str(d.get("text", "")))


@dataclass(frozen=True, slots=True)
class Suggestion:
    """A move the player's words suggest (the move prompt's entries)."""

    move: str | None
    """The move's id; None: "no move, just fiction"."""
    name: str
    """The move's name (or what plain fiction is called)."""
    words: tuple[str, ...] = ()
    """The player's words that led to it."""
    score: float = 0.0
    """How well the words fit (higher is better)."""
    cue: str = ""
    """The cue that matched (older saves give this instead of words)."""
    target: str | None = None
    """The character the words named, if any (its id)."""
    target_name: str = ""
    """That character's name (with no ``target``: the person a move that meets someone new
    would meet, not in the story yet)."""
    odds: Mapping[str, str] = field(default_factory=dict)
    """The exact chance of each band of the move now (band id -> "41.7%"), when it rolls
    with a stat known in advance."""
    chances: Mapping[str, float] = field(default_factory=dict)
    """The same chances as numbers (band id -> 0.41666...); read back from the flow (which
    keeps only the words), to the tenth of a percent shown."""
    blocked: str = ""
    """Why the move cannot be taken now ("" when it can): such moves come after the others."""
    reading: str = ""
    """How the engine read the line (``Beat.describe``: "you act: violence -> Augustin")."""
    opens: bool = False
    """A move that starts a fight against the foes the words attack (``target_name``), with
    that attack as the hero's first action."""

    @classmethod
    def of(cls, d: Mapping[str, Any]) -> Suggestion:
        """From the dict form the flow keeps."""
        return cls(move=d.get("move") or None, name=str(d.get("name", "")),
                   words=tuple(str(w) for w in d.get("words") or ()),
                   score=float(d.get("score") or 0.0), cue=str(d.get("cue") or ""),
                   target=d.get("target") or None, target_name=str(d.get("target_name") or ""),
                   odds={str(k): str(v) for k, v in (d.get("odds") or {}).items()},
                   chances={str(k): float(v) for k, v in (d.get("chances") or {}).items()}
                   or {str(k): from_percent(str(v)) for k, v in (d.get("odds") or {}).items()},
                   blocked=str(d.get("blocked") or ""), reading=str(d.get("reading") or ""),
                   opens=bool(d.get("opens")))

    def to_dict(self) -> dict[str, Any]:
        """The dict form the flow keeps (and scripts print): the odds in words only."""
        d: dict[str, Any] = {"move": self.move, "name": self.name, "score": self.score,
                             "cue": self.cue, "words": list(self.words),
                             "target": self.target, "target_name": self.target_name or None}
        if self.odds:
            d["odds"] = dict(self.odds)
        if self.blocked:
            d["blocked"] = self.blocked
        if self.reading:
            d["reading"] = self.reading
        if self.opens:
            d["opens"] = True
        return d

    @property
    def why(self) -> str:
        """Why it was suggested, in words: the player's words (older saves: the cue), and the
        target named."""
        why = f"from: {', '.join(self.words)}" if self.words else f"cue: {self.cue}"
        if self.target_name:
            why += f"; target {self.target_name}"
        if self.reading:
            why += f"; read as: {self.reading}"
        return why


@dataclass(frozen=True, slots=True)
class _Base:
    message: str
    """What is asked, in words."""
    options: tuple[Option, ...] = ()
    """The answers on offer (none: free words, dice...)."""
    min: int = 1
    """How many options to pick at least."""
    max: int = 1
    """How many options to pick at most."""


@dataclass(frozen=True, slots=True)
class FightRequest:
    """A fight a move started, waiting for its initiative dice."""

    foes: tuple[str, ...]
    """The foes' ids."""
    names: tuple[str, ...]
    """Their names, in the same order."""
    surprised: tuple[str, ...] = ()
    """Who is surprised."""


@dataclass(frozen=True, slots=True)
class FictionPrompt(_Base):
    """What do you do? (free words; no options)."""

    kind: str = "fiction"
    """Always "fiction"."""
    fight_request: FightRequest | None = None
    """A fight waiting for its initiative dice, if any."""


@dataclass(frozen=True, slots=True)
class MovePrompt(_Base):
    """Which move do the player's words trigger? ``options`` are the suggestions."""

    kind: str = "move"
    """Always "move"."""
    fiction: str = ""
    """The player's words."""
    suggestions: tuple[Suggestion, ...] = ()
    """The moves the words suggest, best first (one may be "no move")."""
    clearing: tuple[ClearingHint, ...] = ()
    """Marked conditions whose clearing action the words describe (``took_clearing_action``
    notes one)."""
    newcomers: tuple[str, ...] = ()
    """Names in the words of no one in the story yet (``add_npc`` brings one in)."""
    reading: Beat | None = None
    """The words read as who does what to whom (None in flows saved before it was kept)."""


@dataclass(frozen=True, slots=True)
class TargetPrompt(_Base):
    """Who is the move's target?"""

    kind: str = "target"
    """Always "target"."""
    move: str = ""
    """The move's id."""


@dataclass(frozen=True, slots=True)
class RollPrompt(_Base):
    """The move is ready to roll: the preview, and what may be set first."""

    kind: str = "roll"
    """Always "roll"."""
    move: str = ""
    """The move's id."""
    preview: RollPreview | None = None
    """The dice, every modifier and the exact odds of each band."""
    physical: bool = False
    """The campaign uses the player's own dice."""
    entry: str = "seeded"
    """The campaign's dice mode: seeded, physical or mixed (each roll asks); "routine" when
    this roll needs no die (a routine check), whatever the mode."""
    stat: str | None = None
    """The stat the player chose for a move that offers a choice (None: not chosen)."""
    stat_choices: tuple[str, ...] = ()
    """The stats the move offers (empty: it rolls one)."""
    advantage: str = "none"
    """Whether the move may roll with advantage: none, optional, always."""
    dice_mode: str | None = None
    """Advantage or disadvantage the rules set for this roll (None: neither)."""
    params: tuple[tuple[s.RollParam, int], ...] = ()
    """Numbers set before the roll, each with its value now."""
    declarations: tuple[Declaration, ...] = ()
    """What may be declared before the roll."""
    declared: tuple[str, ...] = ()
    """What is declared."""
    pre_roll: tuple[Adjustment, ...] = ()
    """What may be taken before the roll (Masks: spend Team)."""


@dataclass(frozen=True, slots=True)
class AdjustPrompt(_Base):
    """The roll is made: keep the result or change it (Team, Influence...)."""

    kind: str = "adjust"
    """Always "adjust"."""
    roll: RollDict | None = None
    """The roll as it stands."""


@dataclass(frozen=True, slots=True)
class ChoicePrompt(_Base):
    """Choose from a list (``kind``: choose, pick, questions, or a list a ruleset names, such
    as Masks's battle)."""

    kind: str = "pick"
    """Which kind of choice: choose, pick, questions, battle..."""
    title: str = ""
    """The dialog's title, when the rules name it."""
    roll: RollDict | None = None
    """The roll this choice follows, as it stands after any adjustment."""
    gm: GMSaid | None = None
    """The GM move this choice follows, if any."""


@dataclass(frozen=True, slots=True)
class AnswerPrompt(_Base):
    """The GM offers an answer to a question a move let the player ask: ``accept`` it (its
    label the offer, its detail how it was drawn), ask for ``another``, or give your own
    words (``Game.answer_text``)."""

    kind: str = "answer"
    """Always "answer"."""
    title: str = ""
    """The dialog's title, when the rules name it."""
    roll: RollDict | None = None
    """The roll the question follows."""
    gm: GMSaid | None = None
    """The GM move it follows, if any."""


@dataclass(frozen=True, slots=True)
class FightTurnPrompt(_Base):
    """A fight's turn: whose it is, and what the turn has left."""

    kind: str = "fight"
    """Always "fight"."""
    acting: str | None = None
    """Whose turn it is (id); None: nobody can act."""
    referee: bool = False
    """The referee plays the acting character."""
    pending: Pending | None = None
    """An action declared and not yet resolved."""
    budget: Mapping[str, int] = field(default_factory=dict)
    """What the turn has left, by kind (standard, move... or panels)."""


@dataclass(frozen=True, slots=True)
class FightDiePrompt(_Base):
    """A fight's step waits for a die the player rolls."""

    kind: str = "fight_die"
    """Always "fight_die"."""
    who: str = ""
    """The name of the character it is for."""
    what: str = ""
    """What it is rolled for."""
    sides: int = 20
    """The die."""
    odds: str = ""
    """Its odds, in words."""


@dataclass(frozen=True, slots=True)
class FightChoicePrompt(_Base):
    """A fight's step asks the player to choose (a response to a hit, a critical's
    effect...)."""

    kind: str = "fight_choice"
    """Always "fight_choice"."""
    actor: str = ""
    """The id of the character the choice is for."""
    who: str = ""
    """Its name."""
    question: str = ""
    """What is asked."""


Prompt: TypeAlias = (FictionPrompt | MovePrompt | TargetPrompt | RollPrompt | AdjustPrompt
                     | ChoicePrompt | AnswerPrompt | FightTurnPrompt | FightDiePrompt
                     | FightChoicePrompt)
"""What the engine waits for: one of the prompt classes."""

PROMPTS: tuple[type[Any], ...] = (FictionPrompt, MovePrompt, TargetPrompt, RollPrompt,
                                  AdjustPrompt, ChoicePrompt, AnswerPrompt, FightTurnPrompt,
                                  FightDiePrompt, FightChoicePrompt)
"""Every prompt class."""


class PromptHost(Protocol):
    """What building a prompt reads from the game."""

    @property
    def state(self) -> CampaignState: ...

    @property
    def pack(self) -> Pack: ...

    @property
    def rules(self) -> Ruleset: ...

    def preview(self, move_id: str, target: str | None = None, stat: str | None = None
                ) -> RollPreview: ...

    def target_options(self, move: s.Move) -> list[Option]: ...


def _fight_prompt(state: CampaignState, fight: Fight) -> Prompt:
    """In a fight: the die or choice awaited, or whose turn it is."""
    need = fight.need if fight.pending is not None else None
    if need is not None and need.kind == "choice":
        return FightChoicePrompt(f"{need.who}: {need.question}", options_of(need.options),
                                 actor=need.actor, who=need.who, question=need.question)
    if need is not None:
        odds = f" ({need.odds})" if need.odds else ""
        return FightDiePrompt(f"Roll a d{need.sides}: {need.who}, {need.what}{odds}",
                              who=need.who, what=need.what, sides=need.sides, odds=need.odds)
    enc = fight.encounter
    if enc.acting is None:
        return FightTurnPrompt("Nobody can act.")
    actor = state.actors[enc.acting]
    rnd = "Surprise round" if enc.round == 0 else f"Round {enc.round}"
    referee = fight.controller(actor) == "referee"
    ask = "the referee acts" if referee else "what do you do?"
    return FightTurnPrompt(f"{rnd}: {actor.name}'s turn — {ask}", acting=enc.acting,
                           referee=referee, pending=fight.pending, budget=dict(enc.budget))


def _fiction_prompt(game: PromptHost) -> Prompt:
    req = game.state.data.get(FIGHT_REQUEST) if game.state.fight is None else None
    if isinstance(req, dict) and req.get("foes"):
        labels = {o["id"]: o["label"] for o in game.rules.foe_options(game.state)}
        foes = tuple(str(a) for a in req["foes"])
        names = tuple(labels.get(a, a) for a in foes)
        return FictionPrompt(f"The fight against {', '.join(names)} waits for your initiative"
                             " dice (F8 to roll them)", min=0,
                             fight_request=FightRequest(
                                 foes, names, tuple(str(a) for a in req.get("surprised") or ())))
    return FictionPrompt("What do you do?", min=0)


def _roll_prompt(game: PromptHost, move: s.Move) -> RollPrompt:
    f = game.state.flow
    assert move.roll is not None
    routine = game.rules.fixed_faces(game.state, move) is not None
    return RollPrompt(
        f"{move.name}: roll {game.pack.dice_for(move).notation}", move=move.id,
        preview=game.preview(move.id, f.target),
        physical=game.state.dice_mode == "physical" and not routine,
        entry="routine" if routine else game.state.dice_mode,
        stat=f.stat,
        stat_choices=tuple(move.roll.choices) if move.roll.stat == "choice" else (),
        advantage=move.roll.advantage, dice_mode=game.rules.dice_mode(game.state, move),
        params=tuple((p, int(f.params.get(p.id, p.default))) for p in move.roll.params),
        declarations=tuple(game.rules.declarations(game.state, move)),
        declared=tuple(f.declared),
        pre_roll=tuple(game.rules.pre_roll_options(game.state, move)))


def _choice_prompt(game: PromptHost) -> Prompt:
    f = game.state.flow
    p = f.prompt
    roll = f.roll  # the roll as it stands, after any adjustment
    if not p:
        return ChoicePrompt("", roll=roll)
    context = p.get("context") or {}
    gm = GMSaid.of(context["gm"]) if isinstance(context.get("gm"), dict) else None
    title = str(context.get("title") or "")
    options = options_of(p.get("options", []))
    kind = str(p.get("kind", "pick"))
    lo, hi = int(p.get("min", 1)), int(p.get("max", 1))
    if kind == "answer":
        return AnswerPrompt(p.get("message", ""), options, lo, hi, title=title, roll=roll, gm=gm)
    return ChoicePrompt(p.get("message", ""), options, lo, hi, kind=kind, title=title,
                        roll=roll, gm=gm)


def _foe_names(game: PromptHost) -> list[str]:
    """Names the pack knows that are no newcomers: those a fight may be against, and every
    name in its stat blocks (a hero's "Flashpoint" is a power; none in a game without
    fights)."""
    c = game.rules.conflict()
    if c is None:
        return []
    cached = _BLOCK_NAMES.get(id(game.pack))
    if cached is None or cached[0] is not game.pack:
        try:
            names = _names_in(list(c.blocks().values()))
        except EngineError:  # unreadable stat blocks: the fight says why when it starts
            names = []
        cached = _BLOCK_NAMES[id(game.pack)] = (game.pack, names)
    return [f.label for f in c.foe_options(game.state)] + cached[1]


_BLOCK_NAMES: dict[int, tuple[Pack, list[str]]] = {}
"""Every name in a loaded pack's stat blocks, read once per pack (not at every prompt)."""


def _names_in(value: Any, depth: int = 0) -> list[str]:
    """Every ``name`` in ``value`` (stat blocks: models, mappings and lists), a few levels
    deep."""
    if depth > 6:
        return []
    if hasattr(value, "model_dump"):
        value = value.model_dump()
    if isinstance(value, Mapping):
        own = [value["name"]] if isinstance(value.get("name"), str) else []
        return own + [n for v in value.values() for n in _names_in(v, depth + 1)]
    if isinstance(value, list | tuple):
        return [n for v in value for n in _names_in(v, depth + 1)]
    return []


def pending_prompt(game: PromptHost) -> Prompt:
    """What the engine waits for now."""
    f = game.state.flow
    fight = game.state.fight
    if fight is not None and f.stage == "fiction":
        return _fight_prompt(game.state, fight)
    if f.stage == "fiction":
        return _fiction_prompt(game)
    if f.stage == "move":
        sugs = tuple(Suggestion.of(x) for x in f.suggestions)
        options = tuple(Option.of(opt(x.move or "none", x.name, x.why)) for x in sugs)
        return MovePrompt("Which move does this trigger?", options, min=0, fiction=f.fiction,
                          suggestions=sugs,
                          clearing=clearing_in(game.state, game.pack, f.fiction),
                          newcomers=newcomers(game.state, f.fiction, _foe_names(game)),
                          reading=Beat.from_dict(game.state.scene.reading)
                          if game.state.scene.reading else None)
    move = game.pack.moves[f.move] if f.move else None
    if f.stage == "target":
        assert move is not None
        return TargetPrompt(f"{move.name}: who is the target?",
                            tuple(game.target_options(move)), move=move.id)
    if f.stage == "roll":
        assert move is not None and move.roll is not None
        return _roll_prompt(game, move)
    if f.stage == "adjust":
        assert move is not None and f.roll is not None
        adjs = game.rules.adjustments(game.state, move, f.roll)
        options = (Option("keep", "Keep the result"),
                   *(Option(a.id, a.label, a.detail) for a in adjs))
        return AdjustPrompt(f"{result_label(f.roll['band_name'], f.roll['total'])}."
                            " Change it?", options, roll=f.roll)
    return _choice_prompt(game)


__all__ = ["PROMPTS", "AdjustPrompt", "AnswerPrompt", "ChoicePrompt", "FictionPrompt",
           "FightChoicePrompt", "FightDiePrompt", "FightRequest", "FightTurnPrompt", "GMSaid",
           "MovePrompt", "Option", "Prompt", "PromptHost", "RollPrompt", "Suggestion",
           "TargetPrompt", "options_of", "pending_prompt"]
