"""Scripted play: a campaign driven by a list of player inputs (the README documents it).

Each step is a move with its fiction, target, dice and choices, or a table action
(``do: end_scene`` and friends). Every event goes to ``emit`` as a dict. A step that does not
fit what the engine waits for stops the script with a message naming the step.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from engine.errors import EngineError, IllegalAction
from engine.game import Game

ACTIONS = {"end_scene", "start_scene", "end_session", "ask_gm", "undo", "narrate", "add_npc",
           "took_clearing_action", "enter", "leave", "oracle", "frame_scene", "add_threat",
           "advance_threat", "add_thread", "resolve_thread", "dice_mode", "switch_hero",
           "add_hero", "edit", "edit_thread", "reopen_thread", "remove_thread", "add_fact",
           "edit_fact", "remove_fact", "whereabouts", "stance"}
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
    """``campaign``: what ``sidekick new`` would ask."""

    name: Text = "Scripted campaign"
    system: Text = "masks"
    seed: Annotated[int, Field(ge=-(2**63), lt=2**63)] | None = None
    dice: Text = "seeded"
    hero: HeroSpec = Field(default_factory=HeroSpec)
    party: list[HeroSpec] = Field(default_factory=list, description="More heroes, after hero.")
    npcs: list[NPCSpec] = Field(default_factory=list)


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
}
_LISTS = {"adjust", "declare", "cleared", "present"}
_WANT = {"int_type": "a whole number", "int_parsing": "a whole number",
         "int_from_float": "a whole number", "string_type": "text", "bool_type": "true or false",
         "dict_type": "a mapping", "list_type": "a list", "string_too_long": "shorter text",
         "model_type": "a mapping", "model_attributes_type": "a mapping"}


def _clip(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


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
    else:
        want = _WANT.get(err["type"]) or err["msg"].removeprefix("Input should be ")
    return f"{path}: expected {want}, got {_clip(value)}"


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
        raise ScriptError(f"'steps' is a list of steps, got {_clip(data)}")
    out = []
    for i, raw in enumerate(data, 1):
        if not isinstance(raw, dict):
            raise ScriptError(f"step {i}: expected a mapping of keys like 'fiction' and"
                              f" 'move', or 'do', got {_clip(raw)}")
        unknown = [str(k) for k in raw if k not in STEP_KEYS]
        if unknown:
            raise ScriptError(f"step {i}: unknown key(s) {', '.join(sorted(unknown))}; a step"
                              f" takes {', '.join(sorted(STEP_KEYS))}")
        step = _check(Step, raw, f"step {i}: ")
        if step.do is not None and step.do not in ACTIONS:
            raise ScriptError(f"step {i}: unknown action {step.do!r}; actions:"
                              f" {', '.join(sorted(ACTIONS))}")
        if step.do == "edit":
            missing = [k for k in ("what", "key", "value") if getattr(step, k) is None]
            if missing:
                raise ScriptError(f"step {i}: 'do: edit' needs {', '.join(missing)} (e.g."
                                  " who: hero, what: condition, key: afraid, value: true)")
        out.append(step)
    return out


def parse_campaign(data: Any) -> CampaignSpec:
    """The ``campaign`` mapping, typed."""
    if not isinstance(data, dict):
        raise ScriptError(f"'campaign' is a mapping (name, system, seed, hero, npcs), got"
                          f" {_clip(data)}")
    spec: CampaignSpec = _check(CampaignSpec, data, "campaign.")
    return spec


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


def play_step(game: Game, step: Step | dict[str, Any]) -> list[dict[str, Any]]:
    """Play one step; return its events."""
    if not isinstance(step, Step):
        step = parse_steps([step])[0]
    s = step.model_dump(exclude_unset=True)
    out: list[dict[str, Any]] = []
    if step.do is not None:
        action = step.do
        match action:
            case "end_scene":
                out += game.end_scene(_as_list(step.cleared))
            case "start_scene":
                out += game.start_scene(step.title or "", step.location or "",
                                        step.stakes or "", _as_list(step.present))
            case "end_session":
                out += game.end_session()
            case "ask_gm":
                out += game.ask_gm()
            case "undo":
                out += game.undo()
            case "narrate":
                out += game.narrate(step.text or "")
            case "add_npc":
                out += game.add_npc(step.name or "", step.role or "", step.note or "")
            case "took_clearing_action":
                out += game.took_clearing_action(step.condition or "")
            case "enter" | "leave":
                out += game.set_presence(step.npc or "", action == "enter")
            case "oracle":
                roll = step.roll
                if roll is False:
                    raise IllegalAction("'roll' on an oracle step is the d100 you rolled (or"
                                        " true to let the campaign roll)")
                out += game.ask_oracle(step.question or "", step.likelihood or "even",
                                       None if roll in (None, True) else int(roll))
            case "frame_scene":
                prop = game.propose_scene(step.reroll or 0)
                out += game.start_scene(
                    step.title or prop["title"], step.location or prop["location"],
                    step.stakes or prop["stakes"], _as_list(step.present) or prop["present"],
                    step.opening or prop["opening"])
            case "add_threat":
                out += game.add_threat(step.template or "", step.name or "", step.npc)
            case "advance_threat":
                out += game.advance_threat(step.threat or "",
                                           1 if step.delta is None else step.delta)
            case "add_thread":
                out += game.add_thread(step.text or "", step.note or "")
            case "resolve_thread":
                out += game.resolve_thread(step.thread or step.text or "")
            case "reopen_thread":
                out += game.reopen_thread(step.thread or step.text or "")
            case "edit_thread":
                out += game.edit_thread(_named(step.thread, "thread"), step.text, step.note)
            case "remove_thread":
                out += game.remove_thread(step.thread or step.text or "")
            case "add_fact":
                out += game.add_fact(step.text or "", _as_list(step.about))
            case "edit_fact":
                about = None if step.about is None else _as_list(step.about)
                out += game.edit_fact(_named(step.fact, "fact"), step.text, about)
            case "remove_fact":
                out += game.remove_fact(step.fact or step.text or "")
            case "stance":
                if step.stance is None or not (step.npc or step.name):
                    raise IllegalAction("'do: stance' needs npc and stance")
                out += game.set_stance(step.npc or step.name or "", step.stance, step.hero,
                                       step.reason or "")
            case "whereabouts":
                where = step.where if step.where is not None else step.text
                if where is None:
                    raise IllegalAction("'do: whereabouts' needs npc and where")
                out += game.set_whereabouts(step.npc or step.name or "", where)
            case "dice_mode":
                out += game.set_dice_mode(step.text or "")
            case "edit":
                if step.what is None or step.key is None or step.value is None:
                    raise IllegalAction("'do: edit' needs what, key and value")
                out += game.edit(step.who or "hero", step.what, step.key, step.value,
                                 step.reason or "")
            case "switch_hero":
                out += game.switch_hero(step.hero or step.name or "")
            case "add_hero":
                out += game.add_hero(step.name or "", step.archetype,
                                     dict(step.stats) if step.stats is not None else None)
        out += _answer_prompts(game, s)
        return out

    if step.hero is not None:
        found = game.state.actor_by_name(step.hero, kinds=("hero",))
        if found is None or found.id != game.state.acting:
            out += game.switch_hero(step.hero)
    fiction = (step.fiction or "").strip()
    move = step.move
    if fiction:
        out += game.describe(fiction)
        suggested = step.suggested if step.suggested is not None else move == "suggested"
        if move in (None, "suggested") and suggested:
            sugg = game.state.flow.suggestions
            if not sugg:
                raise IllegalAction(f"no move suggested for {fiction!r}")
            move = sugg[0]["move"]
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
    if game.state.flow.stage == "target":
        named = game.state.flow.target  # the character the fiction named, pre-selected
        if not step.target and named:
            out += game.choose_target(named)
        elif not step.target:
            optional = any(o.get("id") == "none" for o in game.pending.options)
            hint = " or 'target: none' (a bonus you hold makes it ask)" if optional else ""
            raise IllegalAction(f"{move} needs a target: add 'target: NAME'{hint}")
        else:
            out += game.choose_target(step.target)
    out += _answer_prompts(game, s)
    return out


def _answer_prompts(game: Game, step: dict[str, Any]) -> list[dict[str, Any]]:
    """Answer what the engine asks after a step, from the step's own keys (typed already)."""
    out: list[dict[str, Any]] = []
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
                usable = [o for o in prompt.options if not o.get("disabled")]
                out += game.choose([o["id"] for o in usable[: max(prompt.min, 1)]])
                continue
            if not answers:
                options = ", ".join(f"{o['id']} ({o['label']})" for o in prompt.options)
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
               campaign: str | None, emit: Callable[[dict[str, Any]], None],
               journal: bool = False) -> Game:
    """Play a whole script; ``saves=None`` plays in memory. Every step is checked against
    the typed model before anything is created or played."""
    from engine.campaigns import close_game, new_game, open_game
    from engine.content.loader import get_pack
    from engine.journal import render_all

    if not isinstance(data, dict):
        raise ScriptError(f"a script is a mapping with 'campaign' and a list of 'steps', got"
                          f" {_clip(data)}")
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
    # whose turn it was when the journal's first event happened (a new campaign: the first)
    acting, party = (game.state.party[0], False) if not campaign else (
        game.state.acting, len(game.state.party) > 1)
    try:
        for i, step in enumerate(steps, 1):
            try:
                events = play_step(game, step)
            except EngineError as e:
                raise ScriptError(f"step {i} ({_describe(step)}): {e}") from None
            all_events += events
            if not journal:
                for event in events:
                    emit(event)
        if journal:
            names = {a.id: a.name for a in game.state.actors.values()}
            for line in render_all(all_events, game.pack, names, acting, party):
                emit({"type": "JournalLine", "text": line})
    finally:
        close_game(game)
    return game


def _describe(step: Step) -> str:
    if step.do is not None:
        return f"do: {step.do}"
    if step.hero is not None:
        return f"{step.hero}: move: {step.move or 'from fiction'}"
    return f"move: {step.move or 'from fiction'}"
