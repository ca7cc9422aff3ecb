"""The plain mode's answers to what a story move waits for: fiction, the move, its target,
the roll, an adjustment, a choice, an answer the GM offers (``Game.pending``)."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from engine.content.schema import RollParam
from engine.errors import IllegalAction
from engine.journal import modifiers_text
from engine.plain.console import Choice
from engine.plain.host import PlainHost
from engine.prompts import (
    AdjustPrompt,
    AnswerPrompt,
    ChoicePrompt,
    FictionPrompt,
    MovePrompt,
    RollPrompt,
    Suggestion,
    TargetPrompt,
)
from engine.rules.base import Option
from engine.rules.events.shown import Shown

Events = list[Shown]


def options(opts: Sequence[Option]) -> list[Choice]:
    """A prompt's options as numbered choices."""
    return [Choice(o.label, o.detail, o.disabled) for o in opts]


def odds_words(odds: dict[str, str] | Any, bands: Sequence[Any]) -> str:
    """``Miss 41.7%, Weak hit 41.7%, Strong hit 16.7%`` (band ids named by ``bands``)."""
    names = {str(b["id"]): str(b.get("name", b["id"])) for b in bands}
    order = [b for b in names if b in odds] + [b for b in odds if b not in names]
    return ", ".join(f"{names.get(b, b.replace('_', ' ').capitalize())} {odds[b]}"
                     for b in order if odds[b] not in ("0%", "0.0%"))


def _bands(s: PlainHost, move: str) -> list[dict[str, Any]]:
    m = s.game.pack.moves.get(move)
    if m is None or m.roll is None:
        return []
    return [{"id": b.id, "name": b.name} for b in s.game.pack.bands_for(m)]


def fiction(s: PlainHost, p: FictionPrompt) -> Events:
    """What do you do? (or the initiative dice a fight waits for)."""
    req = p.fight_request
    if req is not None:
        s.console.say(f"The fight against {', '.join(req.names)} waits for your initiative"
                      " dice.")
        faces = dice_line(s, "Type the initiative dice you rolled, separated by spaces:",
                          required=True)
        return s.game.start_fight(req.foes, req.surprised, faces or [])
    line = s.console.ask("What do you do?")
    if not line:
        s.console.raw("Say what your hero does, or type help for the commands.")
        return []
    return s.game.describe(line)


def _suggestion_detail(s: PlainHost, sug: Suggestion) -> str:
    parts = []
    if sug.target_name:
        parts.append(f"on {sug.target_name}")
    if sug.odds and sug.move:
        parts.append(odds_words(dict(sug.odds), _bands(s, sug.move)))
    if sug.opens:
        parts.append("starts a fight")
    return "; ".join(parts)


def move(s: PlainHost, p: MovePrompt) -> Events:
    """Which move do the words trigger: the suggestions with their odds, the full list, or
    no move."""
    sugs = list(p.suggestions)
    choices = [Choice(x.name if x.move else "No move: just fiction",
                      _suggestion_detail(s, x), x.blocked) for x in sugs]
    choices.append(Choice("Another move, from the full list"))
    if not any(x.move is None for x in sugs):
        choices.append(Choice("No move: just fiction"))
    for n in p.newcomers:
        s.console.say(f"New in the story: {n} (type: add npc {n})")
    picked = s.console.pick("Which move does this trigger?", choices)
    assert isinstance(picked, list)
    i = picked[0]
    if i < len(sugs):
        return s.game.choose_move(sugs[i].move, sugs[i].target)
    if choices[i].label.startswith("Another"):
        chosen = pick_move(s)
        return [] if chosen is None else s.game.choose_move(chosen)
    return s.game.choose_move(None)


def pick_move(s: PlainHost) -> str | None:
    """A move from the full list (the moves the hero can make now); None: none chosen."""
    moves = s.game.available_moves()
    choices = [Choice(m.name, _move_detail(s, m.id)) for m in moves]
    choices.append(Choice("Never mind"))
    picked = s.console.pick("Which move?", choices)
    assert isinstance(picked, list)
    return None if picked[0] >= len(moves) else moves[picked[0]].id


def _move_detail(s: PlainHost, move_id: str) -> str:
    m = s.game.pack.moves[move_id]
    if m.roll is None:
        return "no roll"
    if m.roll.stat == "choice":
        return "rolls a stat you choose"
    known = {d.id for d in s.game.pack.system.stats}
    return f"rolls {_stat_name(s, m.roll.stat)}" if m.roll.stat in known else "rolls"


def target(s: PlainHost, p: TargetPrompt) -> Events:
    """Who is the move's target?"""
    picked = s.console.pick(p.message, options(p.options))
    assert isinstance(picked, list)
    return s.game.choose_target(p.options[picked[0]].id)


def roll(s: PlainHost, p: RollPrompt) -> Events:
    """The roll: its odds, what may be done first (a stat, Team, a declaration...), then the
    dice, seeded or typed."""
    if p.stat_choices and p.stat is None:
        names = [_stat_name(s, x) for x in p.stat_choices]
        picked = s.console.pick(f"{p.message}. Which stat do you roll with?",
                                [Choice(n) for n in names])
        assert isinstance(picked, list)
        return s.game.set_roll_options(stat=p.stat_choices[picked[0]])
    if p.preview is not None:
        pv = p.preview
        s.console.say(f"{p.message}, {pv.modifier:+d}. Modifiers: {modifiers_text(pv.modifiers)}."
                      f" Odds: {odds_words(pv.odds, pv.bands)}.")
    first = _before_roll(p)
    if first:
        labels = [Choice("Roll now")] + [Choice(label, detail) for label, detail, _ in first]
        picked = s.console.pick("Roll now, or first:", labels)
        assert isinstance(picked, list)
        if picked[0] > 0:
            return first[picked[0] - 1][2](s)
    physical = p.entry == "physical"
    ask = ("Type the faces of the dice you rolled, separated by spaces:" if physical else
           "Press Enter to roll, or type the faces you rolled, separated by spaces:")
    return s.game.roll(dice_line(s, ask, required=physical))


Action = Callable[[PlainHost], Events]


def _before_roll(p: RollPrompt) -> list[tuple[str, str, Action]]:
    """What may be done before the roll, each with its words and what it does."""
    out: list[tuple[str, str, Action]] = []
    for a in p.pre_roll:
        out.append((a.label, a.detail, partial(_pre_roll, a.id)))
    for d in p.declarations:
        on = d.id not in p.declared
        out.append((f"{'Declare' if on else 'Withdraw'}: {d.label}", d.detail,
                    partial(_declare, d.id, on)))
    if p.advantage == "optional":
        for mode in ("advantage", "disadvantage", "none"):
            out.append((f"Roll with {mode}" if mode != "none" else "Roll plainly", "",
                        partial(_advantage, mode)))
    for param, value in p.params:
        out.append((f"Set {param.name}", f"now {value}, from {param.min} to {param.max}",
                    partial(_param, param)))
    return out


def _pre_roll(option: str, s: PlainHost) -> Events:
    return s.game.pre_roll(option)


def _declare(declaration: str, on: bool, s: PlainHost) -> Events:
    return s.game.declare(declaration, on)


def _advantage(mode: str, s: PlainHost) -> Events:
    return s.game.set_roll_options(advantage=mode)


def _param(param: RollParam, s: PlainHost) -> Events:
    n = s.console.number(f"{param.name}, from {param.min} to {param.max}:", param.min,
                         param.max)
    return s.game.set_roll_options(params={param.id: n})


def _stat_name(s: PlainHost, stat: str) -> str:
    for d in s.game.pack.system.stats:
        if d.id == stat:
            return str(d.name)
    return stat.replace("_", " ").capitalize()


def dice_line(s: PlainHost, question: str, required: bool) -> list[int] | None:
    """The faces typed (None: an empty line, the campaign rolls)."""
    while True:
        line = s.console.ask(question)
        if not line and not required:
            return None
        parts = [x for x in re.split(r"[\s,]+", line) if x]
        if parts and all(x.lstrip("-").isdigit() for x in parts):
            return [int(x) for x in parts]
        s.console.raw("Please type the dice as whole numbers, like: 3 5.")


def adjust(s: PlainHost, p: AdjustPrompt) -> Events:
    """Keep the roll's result or change it."""
    picked = s.console.pick(p.message, options(p.options))
    assert isinstance(picked, list)
    return s.game.adjust(p.options[picked[0]].id)


def choice(s: PlainHost, p: ChoicePrompt) -> Events:
    """Choose from a list (one, several, questions to ask)."""
    if p.title:
        s.console.say(p.title)
    picked = s.console.pick(p.message or "Choose:", options(p.options), lo=p.min, hi=p.max)
    assert isinstance(picked, list)
    return s.game.choose([p.options[i].id for i in picked])


def answer(s: PlainHost, p: AnswerPrompt) -> Events:
    """The GM offers an answer: accept it, ask for another, or type your own."""
    if p.title:
        s.console.say(p.title)
    s.console.say(p.message)
    picked = s.console.pick("Or type your own answer.", options(p.options), free=True)
    if isinstance(picked, str):
        return s.game.answer_text(picked)
    return s.game.choose([p.options[picked[0]].id])


STORY: dict[type[Any], Callable[[PlainHost, Any], Events]] = {
    FictionPrompt: fiction, MovePrompt: move, TargetPrompt: target, RollPrompt: roll,
    AdjustPrompt: adjust, ChoicePrompt: choice, AnswerPrompt: answer}
"""The answer to each story prompt."""


def refuse(e: IllegalAction) -> str:
    """A refusal in one line."""
    return f"Cannot do that: {' '.join(str(e).split())}"
