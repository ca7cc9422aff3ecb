"""Scripted play: a campaign driven by a list of player inputs (the README documents it).

Each step is a move with its fiction, target, dice and choices, a table action
(``do: end_scene`` and friends), or a fight step (``fight``, ``act``, ``end_turn``, ``referee``,
``take_over``, ``hand_back``, ``die``, ``end_fight``, ``join_fight``). Every event goes to
``emit`` as a dict. A step that does not fit what the engine waits for stops the script with a
message naming the step.

In a fight the referee plays its characters' turns by itself before each ``act`` and
``end_turn`` step (``referee: auto``, the default) unless the script says ``referee: manual``
(in ``campaign`` or as a step); then ``referee: step`` and ``referee: run`` drive it. When the
fight asks the player something (a hero's dodge or parry when hit), a step's ``choose``
answers it: beside the step that asks, or alone (with its fiction) as the next step; with the
referee on auto, a step of only ``choose`` first lets the referee play up to the question.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Annotated, Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from engine.content.problems import clip, describe
from engine.errors import EngineError, IllegalAction
from engine.game import Game
from engine.rules.events.shown import Shown
from engine.rules.fight.values import ChoiceNeed

ACTIONS = {"end_scene", "start_scene", "end_session", "ask_gm", "undo", "narrate", "add_npc",
           "took_clearing_action", "enter", "leave", "oracle", "frame_scene", "add_threat",
           "advance_threat", "add_thread", "resolve_thread", "dice_mode", "switch_hero",
           "add_hero", "edit", "edit_thread", "reopen_thread", "remove_thread", "add_fact",
           "edit_fact", "remove_fact", "whereabouts", "stance", "swear_vow", "mark_progress",
           "fulfil_vow"}
FIGHT_KEYS = ("fight", "act", "end_turn", "referee", "take_over", "hand_back", "join_fight",
              "end_fight", "die")
"""The keys of a fight step (one of them a step, ``die`` also beside ``act`` or ``referee``)."""
FIGHT_EXTRA = {"fiction", "comment", "choose"}
"""What a fight step may carry besides its fight key: fiction told before it, a comment, and
``choose``: the answers to what the step asks (a response to a hit...), in order, each an
option's id, label or words. While the fight waits for a choice, a step of only these keys
answers it."""
REFEREE_MODES = ("step", "run", "auto", "manual")
MAX_PROMPTS = 500
"""Prompts one step may answer (rolls, choices, adjustments): past this, content loops."""


class ScriptError(EngineError):
    """A script step cannot be played."""

    title = "Script error"


# ------------------------------------------------------------------ the script as typed data

Text = Annotated[str, Field(max_length=20_000)]
Count = Annotated[int, Field(ge=0, le=100)]
Face = Annotated[int, Field(ge=-(10**9), le=10**9)]
AnswerId = Text | Annotated[int, Field(ge=0, le=10**6)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class HeroSpec(_Strict):
    """``campaign.hero``: a name and an archetype id or a stat line."""

    name: Text = "The Hero"
    archetype: Text | None = None
    stats: dict[Text, Face] | None = None


class NPCSpec(_Strict):
    """One of ``campaign.npcs``."""

    name: Text
    role: Text
    note: Text = ""


class CampaignSpec(_Strict):
    """``campaign``: what ``sidekick new`` would ask (and ``referee``: whether the referee
    plays its fight turns by itself, ``auto``, or only when a step says so, ``manual``)."""

    name: Text = "Scripted campaign"
    system: Text = "masks"
    seed: Annotated[int, Field(ge=-(2**63), lt=2**63)] | None = None
    dice: Text = "seeded"
    hero: HeroSpec = Field(default_factory=HeroSpec)
    party: list[HeroSpec] = Field(default_factory=list, description="More heroes, after hero.")
    npcs: list[NPCSpec] = Field(default_factory=list)
    referee: Literal["auto", "manual"] = "auto"


Name = Annotated[str, Field(min_length=1, max_length=200)]
Option = bool | Annotated[int, Field(ge=-(10**6), le=10**6)] | Text


class FightSpec(_Strict):
    """``fight``: the foes (actor or stat block ids, or names), who is surprised (ids, names or
    a side), the initiative dice entered in order, who rolls the referee's dice."""

    foes: Annotated[list[Name], Field(min_length=1, max_length=100)]
    surprised: list[Name] = Field(default_factory=list)
    dice: list[Face] = Field(default_factory=list)
    referee_dice: Literal["seeded", "physical"] | None = None
    band: Literal["engaged", "close", "ranged", "far"] | None = None
    """Where every hero and foe stands when it opens (``game.gm.place_fighters``; none:
    everyone close)."""


class ActSpec(_Strict):
    """``act``: the acting character's action; target, attack and ``against`` by id or name."""

    action: Name
    target: Name | None = None
    attack: Name | None = None
    maneuvers: dict[Name, Annotated[int, Field(ge=-100, le=100)]] = Field(
        default_factory=dict)
    options: dict[Name, Option] = Field(default_factory=dict)
    actor: Name | None = None


class Step(_Strict):
    """One step: a move (fiction, move, target, dice, choices...) or a table action (``do``)."""

    # a move (``hero``: the hero of the party who makes it, switched to first)
    hero: Text | None = None
    fiction: Text | None = None
    move: Text | None = None
    suggested: bool | None = None
    target: Text | None = None
    dice: list[Face] | list[list[Face]] | None = None
    roll: bool | Annotated[int, Field(ge=-(10**9), le=10**9)] | None = None
    choose: AnswerId | list[AnswerId | list[AnswerId]] | None = None
    answer: Text | list[Text] | None = None
    """The questions a move let you ask, in order: ``accept`` the GM's offer, ``another``
    (a new draw for the same question) or your own words; past the list, the GM's offer."""
    adjust: Text | list[Text] | None = None
    spend_team: Count | None = None
    stat: Text | None = None
    advantage: Text | None = None
    params: dict[Text, Face] | None = None
    declare: Text | list[Text] | None = None
    auto: bool = False
    # a table action
    do: Text | None = None
    text: Text | None = None
    cleared: Text | list[Text] | None = None
    title: Text | None = None
    location: Text | None = None
    stakes: Text | None = None
    opening: Text | None = None
    present: Text | list[Text] | None = None
    name: Text | None = None
    archetype: Text | None = None
    stats: dict[Text, Face] | None = None
    role: Text | None = None
    note: Text | None = None
    condition: Text | None = None
    npc: Text | None = None
    question: Text | None = None
    likelihood: Text | None = None
    reroll: Annotated[int, Field(ge=0, le=10**6)] | None = None
    template: Text | None = None
    threat: Text | None = None
    delta: Annotated[int, Field(ge=-100, le=100)] | None = None
    # do: edit (fix the sheet by hand)
    who: Text | None = None
    what: Text | None = None
    key: Text | None = None
    value: bool | Annotated[int, Field(ge=-(10**6), le=10**6)] | None = None
    reason: Text | None = None
    # the story ledger (do: add_thread, edit_thread, add_fact, whereabouts...)
    thread: Text | None = Field(None, description="A thread's id (t1) or words.")
    fact: Text | None = Field(None, description="A fact's id (f1) or words.")
    about: Text | list[Text] | None = Field(None, description="Whom a fact is about.")
    where: Text | None = Field(None, description="An NPC's whereabouts ('' unknown).")
    stance: Text | None = Field(None, description="do: stance: hostile, wary, neutral, warm or"
                                " devoted (toward `hero`, else the acting hero).")
    rank: Text | None = Field(None, description="do: swear_vow: troublesome, dangerous,"
                              " formidable, extreme or epic ('' : no vow).")
    # a fight (engine/fight.py)
    fight: FightSpec | None = None
    act: ActSpec | None = None
    end_turn: bool | None = None
    referee: Literal["step", "run", "auto", "manual"] | None = None
    take_over: Name | None = None
    hand_back: Name | None = None
    join_fight: Name | None = None
    end_fight: Text | None = None
    die: Face | list[Face] | None = None
    comment: Any = None


STEP_KEYS = set(Step.model_fields)

_EXPECTED = {
    "dice": "a list of whole numbers like [3, 5], or one list per roll like [[1, 2], [5, 6]]",
    "choose": "one entry per prompt, each an id or a list of ids, like [[\"1\", \"2\"], resist]",
    "answer": ("one entry per offered answer: accept, another, or your own words, like"
               " [accept, another, \"She works for Dusk\"]"),
    "roll": "true, false or the number you rolled",
    "params": "a mapping of names to whole numbers, e.g. {complexity: 2}",
    "stats": "a mapping of stat ids to whole numbers, e.g. {danger: 1, freak: 0}",
    "npcs": "a list of {name, role, note}",
    "hero": ("a mapping {name, archetype} or {name, stats} (in 'campaign'), or a hero's"
             " name (in a step)"),
    "party": "a list of {name, archetype} or {name, stats}",
    "spend_team": "a whole number from 0 to 100",
    "delta": "a whole number from -100 to 100",
    "reroll": "a whole number from 0",
    "seed": "a whole number",
    "auto": "true or false",
    "suggested": "true or false",
    "value": "true or false (a condition, Influence) or a whole number (a stat, track, clock)",
    "fight": ("a mapping {foes: [the_tallyman, dockside_crew], surprised: [villains]}"),
    "foes": "a list of foes (actor or stat block ids, or names), at least one",
    "surprised": "a list of actor ids, names or a side (heroes, villains)",
    "referee_dice": "seeded or physical",
    "act": ("a mapping {action, target, attack, maneuvers, options}, like {action: attack,"
            " target: The Tallyman, attack: Granite Fist}"),
    "action": "an action id, like attack, charge, aim, defend or recover",
    "maneuvers": "a mapping of maneuvers to whole numbers, e.g. {power_attack: 2}",
    "options": "a mapping of option names to true/false, numbers or text, e.g. {finishing: true}",
    "end_turn": "true",
    "referee": ("step or run (the referee plays now), auto or manual (whether it plays its"
                " turns by itself; only these two in 'campaign')"),
    "die": "the face of a die you rolled (a whole number) or a list of them",
    "take_over": "the name or id of a character in the fight",
    "hand_back": "the name or id of a character in the fight",
    "join_fight": "an actor id, a name or a stat block id",
    "end_fight": "the result in words, e.g. \"the Tallyman gets away\"",
}
_LISTS = {"adjust", "declare", "cleared", "present"}
def _problem(err: Any, raw: Any) -> str:
    """One pydantic error as ``key: expected ..., got ...`` (the key path as written)."""
    loc = [p for p in err["loc"] if not (isinstance(p, str) and (
        p.startswith(("list[", "dict[", "constrained-")) or p in ("str", "int", "bool")))]
    if err["type"] == "extra_forbidden":
        return f"{'.'.join(map(str, loc[:-1])) + '.' if len(loc) > 1 else ''}{loc[-1]}: unknown key"
    key = next((str(p) for p in reversed(loc) if isinstance(p, str)), "")
    value = raw
    for p in loc:
        try:
            value = value[p]
        except (KeyError, IndexError, TypeError):
            break
    path = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in loc).lstrip(".")
    if err["type"] == "missing":
        return f"{path}: required key is missing"
    if key in _EXPECTED:
        want = _EXPECTED[key]
    elif key in _LISTS:
        want = "text or a list of texts"
    elif err["type"] == "string_too_long":
        want = "shorter text"
    else:
        return f"{path}: {describe(err)}"
    return f"{path}: expected {want}, got {clip(value)}"


_M = TypeVar("_M", bound=BaseModel)


def _check(model: type[_M], data: Any, where: str) -> _M:
    try:
        return model.model_validate(data)
    except ValidationError as e:
        raise ScriptError(f"{where}{_problem(e.errors()[0], data)}") from None


def parse_steps(data: Any) -> list[Step]:
    """The ``steps`` of a script, typed; ``ScriptError`` naming the first bad step."""
    if data is None:
        return []
    if not isinstance(data, list):
        raise ScriptError(f"'steps' is a list of steps, got {clip(data)}")
    out = []
    for i, raw in enumerate(data, 1):
        if not isinstance(raw, dict):
            raise ScriptError(f"step {i}: expected a mapping of keys like 'fiction' and"
                              f" 'move', or 'do', got {clip(raw)}")
        unknown = [str(k) for k in raw if k not in STEP_KEYS]
        if unknown:
            raise ScriptError(f"step {i}: unknown key(s) {', '.join(sorted(unknown))}; a step"
                              f" takes {', '.join(sorted(STEP_KEYS))}")
        step = _check(Step, raw, f"step {i}: ")
        if step.do is not None and step.do not in ACTIONS:
            raise ScriptError(f"step {i}: unknown action {step.do!r}; actions:"
                              f" {', '.join(sorted(ACTIONS))}")
        _check_fight_step(i, raw, step)
        if step.do == "edit":
            missing = [k for k in ("what", "key", "value") if getattr(step, k) is None]
            if missing:
                raise ScriptError(f"step {i}: 'do: edit' needs {', '.join(missing)} (e.g."
                                  " who: hero, what: condition, key: afraid, value: true)")
        out.append(step)
    return out


def _check_fight_step(i: int, raw: dict[Any, Any], step: Step) -> None:
    """A fight step has one fight key (``die`` may go beside ``act`` or ``referee``, and
    ``end_turn`` beside ``act``), plus fiction and a comment; ``ScriptError`` naming the step
    otherwise."""
    keys = [k for k in FIGHT_KEYS if k in raw]
    if not keys:
        return
    main = [k for k in keys if k != "die" and not (k == "end_turn" and "act" in raw)] or [
        "die"]
    if len(main) > 1:
        raise ScriptError(f"step {i}: one fight action a step: {' and '.join(main)} are two")
    if "die" in keys and main[0] not in ("die", "act", "referee"):
        raise ScriptError(f"step {i}: 'die' goes alone or beside 'act' or 'referee', not"
                          f" beside {main[0]!r}")
    other = sorted(str(k) for k in raw if k not in FIGHT_KEYS and k not in FIGHT_EXTRA)
    if other:
        raise ScriptError(f"step {i}: a fight step ({main[0]}) takes only 'fiction',"
                          f" 'choose' and 'comment' besides, not {', '.join(other)}")
    if "end_turn" in raw and step.end_turn is not True:
        raise ScriptError(f"step {i}: end_turn: expected true, got {clip(raw['end_turn'])}")
    if isinstance(step.die, list) and not step.die:
        raise ScriptError(f"step {i}: die: expected {_EXPECTED['die']}, got []")


def parse_campaign(data: Any) -> CampaignSpec:
    """The ``campaign`` mapping, typed."""
    if not isinstance(data, dict):
        raise ScriptError(f"'campaign' is a mapping (name, system, seed, hero, npcs), got"
                          f" {clip(data)}")
    spec: CampaignSpec = _check(CampaignSpec, data, "campaign.")
    return spec


def _fulfil_vow(game: Game, step: Step) -> list[Shown]:
    """do: fulfil_vow: the progress roll (``dice``: your two d10s)."""
    faces = _as_list(step.dice)
    if faces and isinstance(faces[0], list):
        faces = faces[0]  # one roll's faces, given as a list of rolls
    return game.ledger.fulfil_vow(step.thread or step.text or "",
                                  [int(f) for f in faces] if faces else None)


def _named(key: str | None, what: str) -> str:
    """The ``thread``/``fact`` key of an edit step, required."""
    if not key:
        raise IllegalAction(f"'do: edit_{what}' needs {what} (its id or words) and the new"
                            " words")
    return key


def _as_list(v: Any) -> list[Any]:
    if v is None:
        return []
    return v if isinstance(v, list) else [v]


Events = list[Shown]
"""The events a step gave."""


def _oracle(game: Game, step: Step) -> Events:
    """``do: oracle``: the question asked at its likelihood, with the d100 rolled by hand
    when the step gives one."""
    roll = step.roll
    if roll is False:
        raise IllegalAction("'roll' on an oracle step is the d100 you rolled (or"
                            " true to let the campaign roll)")
    return game.ask_oracle(step.question or "", step.likelihood or "even",
                           None if roll in (None, True) else int(roll))


def _frame_scene(game: Game, step: Step) -> Events:
    """``do: frame_scene``: the GM's proposed scene, each part the step gives in its place."""
    prop = game.propose_scene(step.reroll or 0)
    return game.start_scene(
        step.title or prop.title, step.location or prop.location,
        step.stakes or prop.stakes, _as_list(step.present) or prop.present,
        step.opening or prop.opening)


def _edit_fact(game: Game, step: Step) -> Events:
    """``do: edit_fact``: a fact's new words and, when the step gives them, whom it is
    about."""
    about = None if step.about is None else _as_list(step.about)
    return game.edit_fact(_named(step.fact, "fact"), step.text, about)


def _stance(game: Game, step: Step) -> Events:
    """``do: stance``: an NPC's stance toward a hero."""
    if step.stance is None or not (step.npc or step.name):
        raise IllegalAction("'do: stance' needs npc and stance")
    return game.set_stance(step.npc or step.name or "", step.stance, step.hero,
                           step.reason or "")


def _whereabouts(game: Game, step: Step) -> Events:
    """``do: whereabouts``: where an NPC is now (``where``, or ``text``)."""
    where = step.where if step.where is not None else step.text
    if where is None:
        raise IllegalAction("'do: whereabouts' needs npc and where")
    return game.set_whereabouts(step.npc or step.name or "", where)


def _edit(game: Game, step: Step) -> Events:
    """``do: edit``: a value set by hand."""
    if step.what is None or step.key is None or step.value is None:
        raise IllegalAction("'do: edit' needs what, key and value")
    return game.edit(step.who or "hero", step.what, step.key, step.value, step.reason or "")


DO: dict[str, Callable[[Game, Step], Events]] = {
    "end_scene": lambda game, step: game.end_scene(_as_list(step.cleared)),
    "start_scene": lambda game, step: game.start_scene(
        step.title or "", step.location or "", step.stakes or "", _as_list(step.present)),
    "end_session": lambda game, step: game.end_session(),
    "ask_gm": lambda game, step: game.ask_gm(),
    "undo": lambda game, step: game.undo(),
    "narrate": lambda game, step: game.narrate(step.text or ""),
    "add_npc": lambda game, step: game.add_npc(step.name or "", step.role or "",
                                               step.note or ""),
    "took_clearing_action": lambda game, step: game.took_clearing_action(step.condition or ""),
    "enter": lambda game, step: game.set_presence(step.npc or "", True),
    "leave": lambda game, step: game.set_presence(step.npc or "", False),
    "oracle": _oracle,
    "frame_scene": _frame_scene,
    "add_threat": lambda game, step: game.add_threat(step.template or "", step.name or "",
                                                     step.npc),
    "advance_threat": lambda game, step: game.advance_threat(
        step.threat or "", 1 if step.delta is None else step.delta),
    "add_thread": lambda game, step: game.add_thread(step.text or "", step.note or ""),
    "resolve_thread": lambda game, step: game.resolve_thread(step.thread or step.text or ""),
    "reopen_thread": lambda game, step: game.reopen_thread(step.thread or step.text or ""),
    "edit_thread": lambda game, step: game.edit_thread(_named(step.thread, "thread"),
                                                       step.text, step.note),
    "remove_thread": lambda game, step: game.remove_thread(step.thread or step.text or ""),
    "swear_vow": lambda game, step: game.ledger.swear_vow(
        step.thread or step.text or "", "dangerous" if step.rank is None else step.rank),
    "mark_progress": lambda game, step: game.ledger.mark_progress(
        step.thread or step.text or "", 1 if step.delta is None else step.delta),
    "fulfil_vow": _fulfil_vow,
    "add_fact": lambda game, step: game.add_fact(step.text or "", _as_list(step.about)),
    "edit_fact": _edit_fact,
    "remove_fact": lambda game, step: game.remove_fact(step.fact or step.text or ""),
    "stance": _stance,
    "whereabouts": _whereabouts,
    "dice_mode": lambda game, step: game.set_dice_mode(step.text or ""),
    "edit": _edit,
    "switch_hero": lambda game, step: game.switch_hero(step.hero or step.name or ""),
    "add_hero": lambda game, step: game.add_hero(
        step.name or "", step.archetype, dict(step.stats) if step.stats is not None else None),
}
"""What each ``do:`` action of a step calls on the game (the actions in ``ACTIONS``)."""


def _do_step(game: Game, step: Step, s: dict[str, Any]) -> Events:
    """A ``do:`` step: its action, then the answers it gives to what that asks."""
    out: Events = []
    act = DO.get(step.do or "")
    if act is not None:
        out += act(game, step)
    out += _answer_prompts(game, s)
    return out


def _switch_to(game: Game, hero: str) -> Events:
    """The spotlight turned to ``hero`` when it is not on that hero already."""
    found = game.state.actor_by_name(hero, kinds=("hero",))
    if found is None or found.id != game.state.acting:
        return game.switch_hero(hero)
    return []


def _suggested_move(game: Game, step: Step, fiction: str) -> str | None:
    """The step's move; the first one the fiction suggested when the step asks for it
    (``move: suggested``, or ``suggested: true`` without a move)."""
    move = step.move
    suggested = step.suggested if step.suggested is not None else move == "suggested"
    if move in (None, "suggested") and suggested:
        sugg = game.state.flow.suggestions
        if not sugg:
            raise IllegalAction(f"no move suggested for {fiction!r}")
        move = sugg[0]["move"]
    return move


def _pick_target(game: Game, step: Step, move: str) -> Events:
    """The move's target when it asks for one: the step's, else the one the fiction named;
    ``IllegalAction`` when there is neither."""
    if game.state.flow.stage != "target":
        return []
    named = game.state.flow.target  # the character the fiction named, pre-selected
    if not step.target and named:
        return game.choose_target(named)
    if not step.target:
        optional = any(o.id == "none" for o in game.pending.options)
        hint = " or 'target: none' (a bonus you hold makes it ask)" if optional else ""
        raise IllegalAction(f"{move} needs a target: add 'target: NAME'{hint}")
    return game.choose_target(step.target)


def _move_step(game: Game, step: Step, s: dict[str, Any]) -> Events:
    """A step of play: the hero it names in the spotlight, its fiction told, its move made
    (or the one suggested, or none) on its target, then its answers."""
    out: Events = []
    if step.hero is not None:
        out += _switch_to(game, step.hero)
    fiction = (step.fiction or "").strip()
    move = step.move
    if fiction:
        out += game.describe(fiction)
        move = _suggested_move(game, step, fiction)
    if move in (None, "none", "suggested"):
        if move == "suggested":
            raise IllegalAction("'move: suggested' needs 'fiction' to suggest a move from")
        if fiction:
            out += game.choose_move(None)
        return out + _answer_prompts(game, s)
    assert move is not None
    if fiction:
        out += game.choose_move(move, step.target)
    else:
        out += game.trigger(move, step.target)
    out += _pick_target(game, step, move)
    out += _answer_prompts(game, s)
    return out


def play_step(game: Game, step: Step | dict[str, Any], *, auto_referee: bool = False
              ) -> list[Shown]:
    """Play one step; return its events. ``auto_referee``: in a fight, the referee plays its
    turns before an ``act`` or ``end_turn`` step."""
    if not isinstance(step, Step):
        step = parse_steps([step])[0]
    s = step.model_dump(exclude_unset=True)
    if any(k in s for k in FIGHT_KEYS) or _answers_the_fight(game, s):
        return _fight_step(game, step, auto_referee)
    if step.do is not None:
        return _do_step(game, step, s)
    return _move_step(game, step, s)


# ------------------------------------------------------------------ fight steps


def _who(game: Game, name: str) -> str:
    """The actor id for ``name`` (an id or a name, case-blind); in a fight, one of its
    characters. ``IllegalAction`` listing who there is otherwise."""
    st = game.state
    found = st.actors.get(name) or st.actor_by_name(name)
    fight = game.fight
    if fight is not None:
        ids = [p.actor for p in fight.encounter.participants]
        if found is None or found.id not in ids:
            names = ", ".join(st.actors[a].name for a in ids)
            raise IllegalAction(f"no character {name!r} in the fight (in it: {names})")
    if found is None:
        raise IllegalAction(f"no character {name!r}")
    return found.id


def _word(text: str) -> str:
    """An id written as words: ``Power Attack`` -> ``power_attack``."""
    return "_".join(text.strip().lower().replace("-", " ").split())


def _attack_id(game: Game, actor: str, attack: str) -> str:
    """The id of ``actor``'s attack named ``attack`` (its id or its name, case-blind)."""
    key = attack.strip().lower()
    known = {a.id: a.name for a in game.conflict.attacks(game.state, actor)}  # no odds needed
    for aid, name in known.items():
        if key in (aid, name.lower()) or _word(attack) == aid:
            return aid
    who = game.state.actors[actor].name
    listed = ", ".join(f"{n} ({a})" for a, n in known.items()) or "none"
    raise IllegalAction(f"{who} has no attack {attack!r} (attacks: {listed})")


def _answers_the_fight(game: Game, step: dict[str, Any]) -> bool:
    """Whether ``step`` is only an answer (``choose``, with fiction and a comment) in a fight:
    then it answers what the fight asks, such as a hero's response to a hit (the referee on
    auto plays up to the question first), and is refused when nothing is asked."""
    return "choose" in step and set(step) <= FIGHT_EXTRA and game.fighting


def _fight_answer(game: Game, answer: Any) -> str:
    """The id of the option ``answer`` names, in what the fight asks now: its id, its label
    (case-blind) or its words (``parry crossbow stock`` for ``parry:crossbow_stock``); the
    answer as given when nothing matches (the fight then refuses it, listing the options)."""
    need = game.fight_need
    text = str(answer)
    if not isinstance(need, ChoiceNeed) or isinstance(answer, list):
        return text
    for o in need.choices:
        oid, label = o.id, o.label
        if text == oid or text.strip().lower() == label.lower() or _word(text) in (
                _word(oid.replace(":", " ")), _word(label)):
            return oid
    return text


def _referee_catch_up(game: Game) -> list[Shown]:
    """The referee's turns up to the player's, when it is the referee's turn."""
    if game.fighting and game.referee_turn and not game.fight_need:
        return game.referee_run()
    return []


def _fight_step(game: Game, step: Step, auto_referee: bool) -> list[Shown]:
    """Play a fight step: its fiction first (after the referee's turns, when it plays by
    itself), then the fight action; ``die`` enters the physical dice awaited after it, and
    ``end_turn`` beside ``act`` ends the actor's turn if it did not end by itself."""
    out: list[Shown] = []
    actor: str | None = None
    answering = not any(k in step.model_fields_set for k in FIGHT_KEYS)  # choose alone
    if auto_referee and (step.act is not None or step.end_turn or answering):
        out += _referee_catch_up(game)
    fiction = (step.fiction or "").strip()
    if fiction and answering and isinstance(game.fight_need, ChoiceNeed) \
            and step.choose is not None:
        told, fiction = fiction, ""  # said with the answer: told where the answer is used
    else:
        told = ""
    if fiction:
        out += game.narrate(fiction)
    if step.fight is not None:
        f = step.fight
        foes = [_foe(game, x) for x in f.foes]
        surprised = [_foe(game, x) for x in f.surprised]  # a side's words are its id
        out += game.start_fight(foes, surprised, list(f.dice))
        if f.band is not None:
            out += game.gm.place_fighters(f.band)
        if f.referee_dice is not None:
            out += game.set_fight_dice(f.referee_dice)
    elif step.act is not None:
        fight = game.fight
        actor = (_who(game, step.act.actor) if step.act.actor
                 else fight.encounter.acting if fight else None)
        out += _act(game, step.act)
    elif step.end_turn:
        out += game.end_turn()
    elif step.referee is not None:
        if step.referee == "step":
            out += game.referee_step()
        elif step.referee == "run":
            if not (game.fighting and game.referee_turn):
                raise IllegalAction("it is not the referee's turn (nothing to run)")
            out += game.referee_run()
        # auto / manual: the script's mode, switched by run_script
    elif step.take_over is not None:
        out += game.take_over(_who(game, step.take_over), True)
    elif step.hand_back is not None:
        out += game.take_over(_who(game, step.hand_back), False)
    elif step.join_fight is not None:
        out += game.join_fight(_foe(game, step.join_fight))
    elif step.end_fight is not None:
        out += game.end_fight(step.end_fight.strip() or "called off")
    faces = [int(f) for f in _as_list(step.die)]
    answers = list(_as_list(step.choose))
    while faces or answers:  # the dice and answers the step waits for, as it asks them
        need = game.fight_need
        if isinstance(need, ChoiceNeed) and answers:
            out += game.fight_choose(_fight_answer(game, answers.pop(0)), told)
            told = ""
        elif faces:
            out += game.fight_die(faces.pop(0))  # refused when no die is awaited
        else:
            out += game.fight_choose(str(answers.pop(0)))  # refused: no choice is awaited
    fight = game.fight
    if (step.act is not None and step.end_turn and fight is not None and not game.fight_need
            and fight.encounter.acting == actor):  # the turn did not end by itself
        out += game.end_turn()
    return out


def _foe(game: Game, name: str) -> str:
    """A foe as ``start_fight`` takes it: an actor's id when the name is a character in the
    story, else the words as a stat block id (``The Tallyman`` -> ``the_tallyman``)."""
    found = game.state.actors.get(name) or game.state.actor_by_name(name)
    return found.id if found is not None else _word(name)


def _act(game: Game, act: ActSpec) -> list[Shown]:
    """An ``act`` step: names turned into ids, then ``Game.fight_act``."""
    fight = game.fight
    if fight is None:
        raise IllegalAction("no fight is under way: start one with 'fight: {foes: [...]}'")
    actor = _who(game, act.actor) if act.actor else fight.encounter.acting
    if actor is None:
        raise IllegalAction("nobody can act now")
    action = _word(act.action)
    target = _who(game, act.target) if act.target else None
    attack = _attack_id(game, actor, act.attack) if act.attack else None
    maneuvers = {_word(k): v for k, v in act.maneuvers.items()}
    options: dict[str, Any] = {_word(k): v for k, v in act.options.items()}
    if isinstance(options.get("against"), str):
        options["against"] = _who(game, options["against"])
    return game.fight_act(action, target, attack, maneuvers, options,
                          actor=actor if act.actor else None)


def _answer_prompts(game: Game, step: dict[str, Any]) -> list[Shown]:
    """Answer what the engine asks after a step, from the step's own keys (typed already)."""
    out: list[Shown] = []
    answers = list(_as_list(step.get("choose")))
    said = list(_as_list(step.get("answer")))
    adjusts = list(_as_list(step.get("adjust")))
    dice_rolls = _as_list(step.get("dice"))
    if dice_rolls and not isinstance(dice_rolls[0], list):
        dice_rolls = [dice_rolls]  # one roll's faces; a list of lists is one per roll
    dice_rolls = list(dice_rolls)
    for _ in range(MAX_PROMPTS):
        stage = game.state.flow.stage
        if stage == "roll":
            for _ in range(int(step.get("spend_team") or 0)):
                out += game.spend_team()
            for d in _as_list(step.get("declare")):
                out += game.declare(str(d))
            if step.get("stat") or step.get("advantage") or step.get("params"):
                out += game.set_roll_options(step.get("stat"), step.get("advantage"),
                                             step.get("params"))
            dice = dice_rolls.pop(0) if dice_rolls else None
            if dice is None and step.get("roll", True) is False:
                raise IllegalAction("the move needs a roll: give 'dice: [a, b]' or 'roll: true'")
            out += game.roll(None if dice is None else [int(d) for d in dice])
            step = {k: v for k, v in step.items() if k not in (
                "dice", "spend_team", "stat", "advantage", "declare", "params")}
        elif stage == "adjust":
            out += game.adjust(str(adjusts.pop(0)) if adjusts else None)
        elif stage == "effects" and game.pending.kind == "answer":
            # the GM offers an answer to an asked question: take the step's next word on it
            word = str(said.pop(0)) if said else "accept"
            out += (game.choose([word]) if word in ("accept", "another")
                    else game.answer_text(word))
        elif stage == "effects":
            prompt = game.pending
            if not answers and step.get("auto"):
                usable = [o for o in prompt.options if not o.disabled]
                out += game.choose([o.id for o in usable[: max(prompt.min, 1)]])
                continue
            if not answers:
                options = ", ".join(f"{o.id} ({o.label})" for o in prompt.options)
                raise IllegalAction(f"the engine asks {prompt.message!r} and the step has no"
                                    f" answer left in 'choose' (options: {options})")
            out += game.choose([str(a) for a in _as_list(answers.pop(0))])
        elif stage == "target":
            raise IllegalAction("a triggered move needs a target: add 'target: NAME'")
        else:
            break
    else:
        raise IllegalAction(f"the step answered {MAX_PROMPTS} prompts and the engine still"
                            " asks: does the content trigger moves in a loop?")
    if answers:
        raise IllegalAction(f"unused answers in 'choose': {answers}")
    if said:
        raise IllegalAction(f"unused answers in 'answer': {said} (no question was waiting)")
    return out


def run_script(data: dict[str, Any], *, saves: Path | None, content: list[Path],
               campaign: str | None, emit: Callable[[Mapping[str, Any]], None],
               journal: bool = False) -> Game:
    """Play a whole script; ``saves=None`` plays in memory. Every step is checked against
    the typed model before anything is created or played."""
    from engine.campaigns import close_game, new_game, open_game
    from engine.content.loader import get_pack
    from engine.journal import render_all

    if not isinstance(data, dict):
        raise ScriptError(f"a script is a mapping with 'campaign' and a list of 'steps', got"
                          f" {clip(data)}")
    unknown = [str(k) for k in data if k not in ("campaign", "steps")]
    if unknown:
        raise ScriptError(f"unknown top-level key(s) {', '.join(sorted(unknown))}; a script"
                          " has 'campaign' and 'steps'")
    steps = parse_steps(data.get("steps"))
    spec = data.get("campaign")
    if campaign:
        if saves is None:
            raise ScriptError("--campaign needs a save folder (not --dry-run)")
        game = open_game(saves, campaign, content)
        if journal:  # "Previously...": where the campaign stood, before the new steps
            from engine.recap import recap

            lines = recap(game.store.events(markers=True), game.state, game.pack)
            for line in [*lines, ""] if lines else []:
                emit({"type": "JournalLine", "text": line})
    elif spec is not None:
        cs = parse_campaign(spec)
        npcs = [(n.name, n.role, n.note) for n in cs.npcs]
        kw: dict[str, Any] = dict(
            name=cs.name, hero_name=cs.hero.name, archetype=cs.hero.archetype,
            stats=dict(cs.hero.stats) if cs.hero.stats is not None else None, npcs=npcs,
            seed=cs.seed, dice_mode=cs.dice,
            party=[{"name": h.name, "archetype": h.archetype,
                    "stats": dict(h.stats) if h.stats is not None else None}
                   for h in cs.party])
        if saves is None:
            game = Game.new(get_pack(cs.system, content), **kw)
        else:
            game = new_game(saves, system=cs.system, content=content, **kw)
        for e in game.last_events:
            if not journal:
                emit(e)
    else:
        raise ScriptError("the script needs a 'campaign' mapping, or --campaign ID to continue one")
    all_events = list(game.last_events)
    auto_referee = (parse_campaign(spec).referee == "auto"
                    if spec is not None and not campaign else True)
    # whose turn it was when the journal's first event happened (a new campaign: the first)
    acting, party = (game.state.party[0], False) if not campaign else (
        game.state.acting, len(game.state.party) > 1)
    try:
        for i, step in enumerate(steps, 1):
            try:
                events = play_step(game, step, auto_referee=auto_referee)
            except EngineError as e:
                raise ScriptError(f"step {i} ({_describe(step)}): {e}") from None
            if step.referee in ("auto", "manual"):
                auto_referee = step.referee == "auto"
            all_events += events
            if not journal:
                for event in events:
                    emit(event)
        if journal:
            names = {a.id: a.name for a in game.state.actors.values()}
            for line in render_all([dict(e) for e in all_events], game.pack, names, acting, party):
                emit({"type": "JournalLine", "text": line})
    finally:
        close_game(game)
    return game


def _describe(step: Step) -> str:
    done = step.model_dump(exclude_unset=True)
    fight = next((k for k in FIGHT_KEYS if k in done), None)
    if step.act is not None:
        return f"act: {step.act.action}"
    if fight is not None:
        value = done[fight]
        return fight if fight in ("fight", "end_turn") else f"{fight}: {clip(value)}"
    if step.do is not None:
        return f"do: {step.do}"
    if step.choose is not None and step.move is None:
        return f"choose: {clip(done['choose'])}"
    if step.hero is not None:
        return f"{step.hero}: move: {step.move or 'from fiction'}"
    return f"move: {step.move or 'from fiction'}"
