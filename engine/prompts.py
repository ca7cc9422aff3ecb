"""Prompts: what the engine waits for (fiction, a move, a target, a roll, a choice), built
from the flow the state carries, so a half-finished action resumes as it stood."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from engine.content import schema as s
from engine.content.loader import Pack
from engine.journal import result_label
from engine.preview import RollPreview
from engine.rules.base import Ruleset, opt
from engine.rules.fight.events import FIGHT_REQUEST
from engine.rules.fight.state import Fight
from engine.rules.state import CampaignState


@dataclass
class Prompt:
    """What the engine waits for. ``kind``: fiction, move, target, roll, adjust, choose,
    pick, questions, answer (the GM offers an answer to an asked question: options ``accept``
    (its label the offer, its detail how it was drawn) and ``another``; ``Game.answer_text``
    takes your own words) or one a ruleset names (battle). ``context`` carries a roll preview
    (modifiers, odds)."""

    kind: str
    message: str
    options: list[dict[str, Any]] = field(default_factory=list)
    min: int = 1
    max: int = 1
    context: dict[str, Any] = field(default_factory=dict)


class PromptHost(Protocol):
    """What building a prompt reads from the game."""

    state: CampaignState
    pack: Pack
    rules: Ruleset

    def preview(self, move_id: str, target: str | None = None, stat: str | None = None
                ) -> RollPreview: ...

    def target_options(self, move: s.Move) -> list[dict[str, Any]]: ...


def _why(sug: dict[str, Any]) -> str:
    """A suggestion's reason: the player's words that led to it (older saves: the cue)."""
    words = sug.get("words") or []
    why = f"from: {', '.join(map(str, words))}" if words else f"cue: {sug.get('cue', '')}"
    if sug.get("target_name"):
        why += f"; target {sug['target_name']}"
    return why


def _fight_prompt(state: CampaignState, fight: Fight) -> Prompt:
    """In a fight: the die awaited, or whose turn it is."""
    need = fight.need.as_dict() if fight.pending is not None and fight.need else None
    if isinstance(need, dict) and need.get("kind") == "choice":
        return Prompt("fight_choice", f"{need['who']}: {need['question']}",
                      [dict(o) for o in need["options"]], context={"need": need})
    if isinstance(need, dict):
        odds = f" ({need['odds']})" if need.get("odds") else ""
        return Prompt("fight_die", f"Roll a d{need['sides']}: {need['who']}, {need['what']}"
                      f"{odds}", context={"need": need})
    enc = fight.encounter
    if enc.acting is None:
        return Prompt("fight", "Nobody can act.", context={"acting": None})
    actor = state.actors[enc.acting]
    rnd = "Surprise round" if enc.round == 0 else f"Round {enc.round}"
    referee = fight.controller(actor) == "referee"
    ask = "the referee acts" if referee else "what do you do?"
    return Prompt("fight", f"{rnd}: {actor.name}'s turn — {ask}",
                  context={"acting": enc.acting, "referee": referee,
                           "pending": fight.pending.model_dump() if fight.pending else None,
                           "budget": dict(enc.budget)})


def pending_prompt(game: PromptHost) -> Prompt:
    """What the engine waits for now."""
    f = game.state.flow
    fight = game.state.fight
    if fight is not None and f.stage == "fiction":
        return _fight_prompt(game.state, fight)
    if f.stage == "fiction":
        req = game.state.data.get(FIGHT_REQUEST) if fight is None else None
        if isinstance(req, dict) and req.get("foes"):
            labels = {o["id"]: o["label"] for o in game.rules.foe_options(game.state)}
            names = ", ".join(labels.get(str(a), str(a)) for a in req["foes"])
            return Prompt("fiction", f"The fight against {names} waits for your initiative"
                          " dice (F8 to roll them)", min=0, context={"fight_request": req})
        return Prompt("fiction", "What do you do?", min=0)
    if f.stage == "move":
        options = [opt(x.get("move") or "none", x.get("name", ""), _why(x))
                   for x in f.suggestions]
        return Prompt("move", "Which move does this trigger?", options, min=0,
                      context={"fiction": f.fiction})
    move = game.pack.moves[f.move] if f.move else None
    if f.stage == "target":
        assert move is not None
        return Prompt("target", f"{move.name}: who is the target?",
                      game.target_options(move))
    if f.stage == "roll":
        assert move is not None and move.roll is not None
        context = {"preview": game.preview(move.id, f.target).to_dict(),
                   "physical": game.state.dice_mode == "physical",
                   "entry": game.state.dice_mode,
                   "stat_choices": move.roll.choices if move.roll.stat == "choice" else [],
                   "stat": f.stat,
                   "advantage": move.roll.advantage,
                   "dice_mode": game.rules.dice_mode(game.state, move),
                   "params": [{**p.model_dump(), "value": f.params.get(p.id, p.default)}
                              for p in move.roll.params],
                   "declarations": [d.__dict__ for d in
                                    game.rules.declarations(game.state, move)],
                   "declared": list(f.declared),
                   "pre_roll": [o.__dict__ for o in
                                game.rules.pre_roll_options(game.state, move)]}
        return Prompt("roll", f"{move.name}: roll {game.pack.dice_for(move).notation}",
                      context=context)
    if f.stage == "adjust":
        assert move is not None and f.roll is not None
        adjs = game.rules.adjustments(game.state, move, f.roll)
        options = [opt("keep", "Keep the result")] + [
            opt(a.id, a.label, a.detail) for a in adjs]
        return Prompt("adjust", f"{result_label(f.roll['band_name'], f.roll['total'])}."
                      " Change it?",
                      options, context={"roll": f.roll})
    p = f.prompt
    context = dict(p.get("context") or {}) if p else {}
    if f.roll is not None:
        context["roll"] = f.roll  # the roll as it stands, after any adjustment
    if not p:
        return Prompt("pick", "", [], context=context)
    return Prompt(p.get("kind", "pick"), p.get("message", ""), p.get("options", []),
                  p.get("min", 1), p.get("max", 1), context=context)
