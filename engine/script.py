"""Scripted play: a campaign driven by a list of player inputs (the README documents it).

Each step is a move with its fiction, target, dice and choices, or a table action
(``do: end_scene`` and friends). Every event goes to ``emit`` as a dict. A step that does not
fit what the engine waits for stops the script with a message naming the step.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from engine.errors import EngineError, IllegalAction
from engine.game import Game

STEP_KEYS = {"fiction", "move", "target", "dice", "roll", "choose", "adjust", "spend_team",
             "stat", "advantage", "do", "text", "cleared", "title", "location", "stakes",
             "present", "name", "role", "note", "condition", "npc", "comment", "suggested",
             "question", "likelihood", "reroll", "template", "threat", "delta", "declare",
             "params", "opening", "auto"}
ACTIONS = {"end_scene", "start_scene", "end_session", "ask_gm", "undo", "narrate", "add_npc",
           "took_clearing_action", "enter", "leave", "oracle", "frame_scene", "add_threat",
           "advance_threat", "add_thread", "resolve_thread"}


class ScriptError(EngineError):
    """A script step cannot be played."""

    title = "Script error"


def _as_list(v: Any) -> list[Any]:
    if v is None:
        return []
    return v if isinstance(v, list) else [v]


def play_step(game: Game, step: dict[str, Any]) -> list[dict[str, Any]]:
    """Play one step; return its events."""
    unknown = set(step) - STEP_KEYS
    if unknown:
        raise IllegalAction(f"unknown key(s) {', '.join(sorted(unknown))}; a step takes"
                            f" {', '.join(sorted(STEP_KEYS))}")
    out: list[dict[str, Any]] = []
    if "do" in step:
        action = step["do"]
        if action not in ACTIONS:
            raise IllegalAction(f"unknown action {action!r}; actions: {', '.join(sorted(ACTIONS))}")
        match action:
            case "end_scene":
                out += game.end_scene(_as_list(step.get("cleared")))
            case "start_scene":
                out += game.start_scene(step.get("title", ""), step.get("location", ""),
                                        step.get("stakes", ""), _as_list(step.get("present")))
            case "end_session":
                out += game.end_session()
            case "ask_gm":
                out += game.ask_gm()
            case "undo":
                out += game.undo()
            case "narrate":
                out += game.narrate(str(step.get("text", "")))
            case "add_npc":
                out += game.add_npc(str(step.get("name", "")), str(step.get("role", "")),
                                    str(step.get("note", "")))
            case "took_clearing_action":
                out += game.took_clearing_action(str(step.get("condition", "")))
            case "enter" | "leave":
                out += game.set_presence(str(step.get("npc", "")), action == "enter")
            case "oracle":
                roll = step.get("roll")
                out += game.ask_oracle(str(step.get("question", "")),
                                       str(step.get("likelihood", "even")),
                                       None if roll in (None, True) else int(roll))
            case "frame_scene":
                prop = game.propose_scene(int(step.get("reroll", 0)))
                out += game.start_scene(
                    str(step.get("title") or prop["title"]),
                    str(step.get("location") or prop["location"]),
                    str(step.get("stakes") or prop["stakes"]),
                    _as_list(step.get("present")) or prop["present"],
                    str(step.get("opening") or prop["opening"]))
            case "add_threat":
                out += game.add_threat(str(step.get("template", "")), str(step.get("name", "")),
                                       step.get("npc"))
            case "advance_threat":
                out += game.advance_threat(str(step.get("threat", "")),
                                           int(step.get("delta", 1)))
            case "add_thread":
                out += game.add_thread(str(step.get("text", "")))
            case "resolve_thread":
                out += game.resolve_thread(str(step.get("text", "")))
        out += _answer_prompts(game, step)
        return out

    fiction = str(step.get("fiction", "")).strip()
    move = step.get("move")
    if fiction:
        out += game.describe(fiction)
        if move in (None, "suggested") and step.get("suggested", move == "suggested"):
            sugg = game.state.flow.suggestions
            if not sugg:
                raise IllegalAction(f"no move suggested for {fiction!r}")
            move = sugg[0]["move"]
    if move in (None, "none"):
        if fiction:
            out += game.choose_move(None)
        return out + _answer_prompts(game, step)
    if fiction:
        out += game.choose_move(str(move), step.get("target"))
    else:
        out += game.trigger(str(move), step.get("target"))
    if game.state.flow.stage == "target":
        if not step.get("target"):
            raise IllegalAction(f"{move} needs a target: add 'target: NAME'")
        out += game.choose_target(str(step["target"]))
    out += _answer_prompts(game, step)
    return out


def _answer_prompts(game: Game, step: dict[str, Any]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    answers = list(_as_list(step.get("choose")))
    adjusts = list(_as_list(step.get("adjust")))
    dice_rolls = _as_list(step.get("dice"))
    if dice_rolls and not isinstance(dice_rolls[0], list):
        dice_rolls = [dice_rolls]  # one roll's faces; a list of lists is one per roll
    dice_rolls = list(dice_rolls)
    while True:
        stage = game.state.flow.stage
        if stage == "roll":
            for _ in range(int(step.get("spend_team", 0))):
                out += game.spend_team()
            for d in _as_list(step.get("declare")):
                out += game.declare(str(d))
            if step.get("stat") or step.get("advantage") or step.get("params"):
                params = step.get("params")
                if params is not None and not isinstance(params, dict):
                    raise IllegalAction("'params' is a mapping, e.g. {complexity: 2}")
                out += game.set_roll_options(step.get("stat"), step.get("advantage"), params)
            dice = dice_rolls.pop(0) if dice_rolls else None
            if dice is None and not step.get("roll", True):
                raise IllegalAction("the move needs a roll: give 'dice: [a, b]' or 'roll: true'")
            out += game.roll(None if dice is None else [int(d) for d in dice])
            step = {k: v for k, v in step.items() if k not in (
                "dice", "spend_team", "stat", "advantage", "declare", "params")}
        elif stage == "adjust":
            out += game.adjust(str(adjusts.pop(0)) if adjusts else None)
        elif stage == "effects":
            prompt = game.pending
            if not answers and step.get("auto"):
                out += game.choose([o["id"] for o in prompt.options[: max(prompt.min, 1)]])
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
    if answers:
        raise IllegalAction(f"unused answers in 'choose': {answers}")
    return out


def run_script(data: dict[str, Any], *, saves: Path | None, content: list[Path],
               campaign: str | None, emit: Callable[[dict[str, Any]], None],
               journal: bool = False) -> Game:
    """Play a whole script; ``saves=None`` plays in memory."""
    from engine.campaigns import close_game, new_game, open_game
    from engine.content.loader import get_pack
    from engine.journal import render_all

    spec = data.get("campaign")
    if campaign:
        if saves is None:
            raise ScriptError("--campaign needs a save folder (not --dry-run)")
        game = open_game(saves, campaign, content)
    elif isinstance(spec, dict):
        hero = spec.get("hero") or {}
        npcs = [(str(n.get("name", "")), str(n.get("role", "")), str(n.get("note", "")))
                for n in spec.get("npcs", [])]
        kw = dict(name=str(spec.get("name", "Scripted campaign")),
                  hero_name=str(hero.get("name", "The Hero")), archetype=hero.get("archetype"),
                  stats=hero.get("stats"), npcs=npcs, seed=spec.get("seed"),
                  dice_mode=str(spec.get("dice", "seeded")))
        if saves is None:
            game = Game.new(get_pack(str(spec.get("system", "masks")), content), **kw)  # type: ignore[arg-type]
        else:
            game = new_game(saves, system=str(spec.get("system", "masks")), content=content,
                            **kw)  # type: ignore[arg-type]
        for e in game.last_events:
            if not journal:
                emit(e)
    else:
        raise ScriptError("the script needs a 'campaign' mapping, or --campaign ID to continue one")
    all_events = list(game.last_events)
    try:
        for i, step in enumerate(data.get("steps") or [], 1):
            if not isinstance(step, dict):
                raise ScriptError(f"step {i}: expected a mapping, got {step!r}")
            try:
                events = play_step(game, step)
            except EngineError as e:
                raise ScriptError(f"step {i} ({_describe(step)}): {e}") from None
            all_events += events
            if not journal:
                for event in events:
                    emit(event)
        if journal:
            for line in render_all(all_events, game.pack):
                emit({"type": "JournalLine", "text": line})
    finally:
        close_game(game)
    return game


def _describe(step: dict[str, Any]) -> str:
    if "do" in step:
        return f"do: {step['do']}"
    return f"move: {step.get('move') or 'from fiction'}"
