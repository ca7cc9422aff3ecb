"""The plain mode's answers to what a fight waits for: the acting hero's options (or words
read as one), targets with their odds, the dice, the choices a hit asks, the referee's
turns."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.plain.console import Choice
from engine.plain.host import PlainHost
from engine.prompts import FightChoicePrompt, FightDiePrompt, FightTurnPrompt
from engine.rules.events.shown import Shown
from engine.rules.fight.values import ChoiceNeed, FightOption, FightTarget

Events = list[Shown]


def percent(x: float | None) -> str:
    """``0.4166`` as ``41.7%`` ("" : no odds)."""
    return "" if x is None else f"{x * 100:.1f}%"


def target_words(t: FightTarget) -> str:
    """A target's odds in words: ``hits 55.0%, takes effect 30.0%, puts down 10.0%``."""
    parts = [f"{what} {percent(x)}" for what, x in (
        ("hits", t.hit), ("takes effect", t.effect), ("puts down", t.down)) if x is not None]
    return ", ".join(parts)


def _option_detail(o: FightOption) -> str:
    parts = [f"costs {o.cost}" if o.cost not in ("", "none") else "free"]
    best = o.best_target()
    if best is not None and target_words(best):
        parts.append(f"best odds on {best.name}: {target_words(best)}")
    elif o.odds is not None:
        parts.append(f"works {percent(o.odds)}")
    return "; ".join(parts)


def turn(s: PlainHost, p: FightTurnPrompt) -> Events:
    """A fight's turn: the referee's plays by itself; the player's offers its options."""
    g = s.game
    if p.acting is None:
        s.console.say(p.message)
        return end(s)
    if p.referee:
        s.console.say(p.message)
        return g.referee_run()
    opts = [o for o in g.fight_options() if o.allowed]  # what cannot be taken now: not read
    choices = [Choice(o.label, _option_detail(o)) for o in opts]
    choices += [Choice("End the turn"), Choice("End the fight")]
    s.console.say(p.message)
    picked = s.console.pick("What does your hero do? Or say it in your own words.",
                            choices, free=True)
    if isinstance(picked, str):
        return _words(s, picked)
    i = picked[0]
    if i == len(opts):
        return g.end_turn()
    if i > len(opts):
        return end(s)
    return act(s, opts[i])


def act(s: PlainHost, o: FightOption, fiction: str = "", target: str | None = None
        ) -> Events:
    """Take an option: its target (with odds) and what it needs named, then act."""
    ts = [t for t in o.targets if not t.why]
    if target is None and len(ts) == 1:
        target = ts[0].id
        s.console.say(f"{o.label} at {ts[0].name}: {target_words(ts[0])}.")
    elif target is None and o.targets:
        ts = list(o.targets)
        ask = "who?" if o.target == "ally" else "at whom?"
        picked = s.console.pick(f"{o.label}: {ask}",
                                [Choice(t.name, target_words(t), t.why) for t in ts])
        assert isinstance(picked, list)
        target = ts[picked[0]].id
    extra: dict[str, str | int | bool] = {}
    if o.needs and o.choices:
        picked = s.console.pick(f"{o.label}: which {o.needs}?",
                                [Choice(c.name, c.detail, c.why) for c in o.choices])
        assert isinstance(picked, list)
        extra[o.needs] = o.choices[picked[0]].id
    elif o.needs:
        extra[o.needs] = s.console.ask(f"{o.label}: which {o.needs}? Type its name:")
    return s.game.fight_act(o.action, target, o.attack.id if o.attack else None, None,
                            extra or None, fiction=fiction)


def _words(s: PlainHost, text: str) -> Events:
    """The player's words in a fight: the actions they suggest, as numbered choices."""
    sugs = s.game.suggest_fight(text)
    choices = []
    for x in sugs:
        on = f" on {x.target.name}" if x.target is not None else ""
        odds = target_words(x.target) if x.target is not None else ""
        choices.append(Choice(f"{x.name}{on}" if x.option else "Just fiction", odds))
    if not any(x.option is None for x in sugs):
        choices.append(Choice("Just fiction"))
    picked = s.console.pick("Which action do your words take?", choices)
    assert isinstance(picked, list)
    i = picked[0]
    if i >= len(sugs) or sugs[i].option is None:
        return s.game.narrate(text)
    x = sugs[i]
    assert x.option is not None
    return act(s, x.option, text, x.target.id if x.target is not None else None)


def end(s: PlainHost) -> Events:
    """End the fight, with its result in words."""
    words = s.console.ask("How does the fight end? Say it in a few words, or press Enter:")
    return s.game.end_fight(words or "called off")


def die(s: PlainHost, p: FightDiePrompt) -> Events:
    """A die the player rolls for the fight."""
    s.console.say(p.message)
    face = s.console.number(f"Type the d{p.sides} you rolled:", 1, p.sides)
    return s.game.fight_die(face)


def choose(s: PlainHost, p: FightChoicePrompt) -> Events:
    """What a fight's step asks the player (a response to a hit...)."""
    need = s.game.fight_need
    if isinstance(need, ChoiceNeed):
        ids = [c.id for c in need.choices]
        choices = [Choice(c.label, c.how or c.detail) for c in need.choices]
    else:
        ids = [o.id for o in p.options]
        choices = [Choice(o.label, o.detail, o.disabled) for o in p.options]
    picked = s.console.pick(p.message, choices)
    assert isinstance(picked, list)
    return s.game.fight_choose(ids[picked[0]])


FIGHT: dict[type[Any], Callable[[PlainHost, Any], Events]] = {
    FightTurnPrompt: turn, FightDiePrompt: die, FightChoicePrompt: choose}
"""The answer to each fight prompt."""
