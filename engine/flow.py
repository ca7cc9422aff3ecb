"""The move flow: from a move chosen to its outcome. Which moves and targets are open, the
move's start (its target, its effects before the dice), the roll's adjustments, the outcome's
effects and the queue of work that may stop to ask the player.

``MoveFlow`` is the part of ``Game`` that runs a move; ``Game`` (engine/game/facade.py) keeps the
public actions, the all-or-nothing ``_action`` and undo.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Protocol

from engine.content import schema as s
from engine.errors import IllegalAction
from engine.newcomers import described_person, newcomers
from engine.rules import events as ev
from engine.rules import resolve
from engine.rules.base import Item, Need, Option, effect_item
from engine.rules.effects import Interpreter, outcome_for
from engine.rules.ledger import marks_by_play
from engine.rules.state import Flow
from engine.rules.types import EffectContext, MoveAs, RollDict, item_ctx
from engine.rules.view import GameView
from engine.triggers import people_named


class MoveHost(GameView, Protocol):
    """The game, as its move flow sees it."""

    @property
    def interp(self) -> Interpreter:
        """What turns rule items into events."""

    @property
    def pending_message(self) -> str:
        """The message of what the engine waits for (for refusals)."""

    def _add_npc(self, name: str, role: str, note: str = "") -> str:
        """Add an NPC (inside an action); its id."""


class Moves:
    """The move flow (``game.moves``): running a move against the campaign's state, as part
    of one action of the game's transaction."""

    def __init__(self, game: MoveHost) -> None:
        self._g = game

    def _set_flow(self, flow: Flow) -> None:
        self._g._emit(ev.FlowChanged(flow=flow.model_dump(mode="json")))

    def move_available(self, move: s.Move, triggered: bool = False) -> str | None:
        """Why ``move`` cannot be used now, or None if it can. A move the rules trigger
        (``triggered``: another move's effect, an option picked) is not the player's choice
        to act, so being taken out does not stop it (City of Whispers: a faction that lost
        cohesion still rolls to hold together)."""
        if self.locked(move):
            return f"{move.name} is locked (needs {(move.requires_flag or '').replace('_', ' ')})"
        if move.once_per and self._once_key(move) in self._g.state.used:
            return f"{move.name} was already used this {move.once_per}"
        if self._g.state.hero.taken_out and move.roll is not None and not triggered:
            return "you are taken out until the next scene"
        return None

    def locked(self, move: s.Move) -> bool:
        """Whether ``move`` waits for a flag the hero has not earned (Masks' adult moves)."""
        return bool(move.requires_flag) and move.requires_flag not in self._g.state.hero.flags

    def _nobody_to_target(self, move: s.Move) -> str | None:
        """Why ``move`` cannot start for want of a target, or None."""
        if move.target == "required" and not self.targets_for(move):
            return f"{move.name} needs a target, and there is no one to target; add an NPC first"
        return None

    def why_not_now(self, move: s.Move) -> str | None:
        """Why the player cannot take ``move`` now, or None: ``move_available``'s reasons, a
        required target nobody can be, and the move's own ``require_*`` checks (rule effects
        before the roll that only check, such as City of Whispers' scheme to run)."""
        why = self.move_available(move)
        if why:
            return why
        why = self._nobody_to_target(move)
        if why:
            return why
        for eff in move.before:
            if isinstance(eff, s.Rule) and eff.name.startswith("require_"):
                try:
                    self._g.rules.rule_effect(self._g.state, eff, {"move": move.id})
                except IllegalAction as e:
                    return e.message
        return None

    def available_moves(self) -> list[s.Move]:
        """Moves the hero can use now, in content order."""
        return [m for m in self._g.pack.moves.values() if self.move_available(m) is None]

    def targets_for(self, move: s.Move) -> list[Option]:
        """Characters the move may target (NPCs and the party's other heroes), present ones
        first."""
        st = self._g.state
        actors = [a for a in st.actors.values()
                  if self._g.rules.target_refusal(st, move, a) is None]
        actors.sort(key=lambda a: (a.kind == "npc" and not a.present, a.name))
        return [Option(a.id, a.name, f"{self._g.rules.target_role(st, a)}"
                       f"{'' if a.kind == 'hero' or a.present else ', not in the scene'}")
                for a in actors]

    def _bonus_targets(self, move: s.Move) -> list[str]:
        """Whom the hero holds a bonus against that ``move`` could be used against."""
        allowed = {o.id for o in self.targets_for(move)}
        return [n for n in resolve.bonus_targets(self._g.state, move) if n in allowed]

    def target_options(self, move: s.Move) -> list[Option]:
        """The target prompt's options: whoever a held bonus is against first (saying so),
        then the move's other targets, then "none" when the move may have no target."""
        held = self._bonus_targets(move)
        hint = self._g.state.flow.target if self._g.state.flow.stage == "target" else None
        options = []
        for o in self.targets_for(move):
            detail = o.detail
            if o.id in held:
                bonus = sum(b.amount for b in self._g.state.bonuses
                            if b.target == o.id and resolve.bonus_owned(self._g.state, b)
                            and resolve.bonus_fits(b, move))
                detail = f"{detail}; {bonus:+d} held against them"
            if o.id == hint:  # the one the fiction named: pre-selected, first
                detail = f"{detail}; named in your fiction"
            options.append(replace(o, detail=detail))
        options.sort(key=lambda o: o.id not in held)
        options.sort(key=lambda o: o.id != hint)
        if move.target != "required":
            options.append(Option("none", "No one in particular", "no target for this roll"))
        return options

    def _once_key(self, move: s.Move) -> str:
        return f"{move.once_per}:{move.id}"

    def _move(self, move_id: str) -> s.Move:
        move = self._g.pack.moves.get(move_id)
        if move is None:
            close = [m for m in self._g.pack.moves if move_id.lower() in m or m in move_id.lower()]
            hint = f"; did you mean {', '.join(close[:3])}?" if close else ""
            raise IllegalAction(f"unknown move {move_id!r}{hint}")
        return move

    def _begin_move(self, move: s.Move, target: str | None, fiction: str, rest: list[Item],
                    hint: str | None = None, triggered: bool = False) -> None:
        """Start ``move``; ``hint``: the character the fiction named, pre-selected on the
        target prompt (asked even for a move that may go without a target); ``triggered``:
        the rules started it (see ``move_available``)."""
        why = self.move_available(move, triggered)
        if why:
            raise IllegalAction(why)
        met = self._meet(move, target, fiction) if not triggered else None
        if met is not None:  # the person the move meets joins the story: the target
            target, hint = met, None
        nobody = self._no_target(move, target)  # "none": the player said no one
        tid = self._resolve_target(move, target) if target and not nobody else None
        if (tid is None and not nobody and hint is not None
                and any(o.id == hint for o in self.targets_for(move))):
            self._set_flow(Flow(stage="target", move=move.id, fiction=fiction, queue=rest,
                                target=hint))
            return
        if move.target == "required" and tid is None:
            why = self._nobody_to_target(move)
            if why:
                raise IllegalAction(why)
            self._set_flow(Flow(stage="target", move=move.id, fiction=fiction, queue=rest))
            return
        if tid is None and not nobody and self._bonus_targets(move):
            # a bonus held against someone counts when the roll is against them: ask who
            self._set_flow(Flow(stage="target", move=move.id, fiction=fiction, queue=rest))
            return
        self._start(move, tid, fiction, rest)

    def meeting(self, move: s.Move, fiction: str, target: str | None = None) -> str:
        """For a move that meets someone new (``meets``, City of Whispers' Meet Someone New):
        the name of the person it would meet, who joins the cast as it starts; "" when it
        meets someone already in the story, or no one. That is ``target`` when no one in the
        story has that name; with no target, the first name in ``fiction`` of no one in the
        story, else (when the fiction names no one of the cast) the person it describes ("the
        new harbormaster"). A pronoun ("size her up") does not make it someone already met."""
        st = self._g.state
        if move.meets is None:
            return ""
        if target is not None:
            known = self._no_target(move, target) or st.actor_by_name(target) is not None
            return "" if known or target in st.actors else target.strip()
        found = newcomers(st, fiction)
        if found:
            return found[0]
        if people_named(fiction, [(a.id, a.name) for a in st.actors.values()
                                  if a.id != st.acting]):
            return ""
        name = described_person(fiction)
        return "" if not name or st.npc_by_name(name) else name

    def _meet(self, move: s.Move, target: str | None, fiction: str) -> str | None:
        """The id of the person ``move`` meets (``meeting``), added to the cast now with the
        move's role; None when it meets no one new."""
        name = self.meeting(move, fiction, target)
        if not name or move.meets is None:
            return None
        return self._g._add_npc(name, move.meets, f"met: {move.name}")

    def _no_target(self, move: s.Move, target: str | None) -> bool:
        """Whether ``target`` is the answer "none" (no one) to a move that may go without."""
        return (target == "none" and move.target != "required"
                and self._g.state.npc_by_name(target) is None)

    def _resolve_target(self, move: s.Move, target: str) -> str:
        st = self._g.state
        found = st.actor_by_name(target) or st.actors.get(target)
        if found is None:
            names = ", ".join(n.name for n in st.npcs.values()) or "none yet"
            others = [h.name for h in st.heroes if h.id != st.acting]
            heroes = f"; heroes: {', '.join(others)}" if others else ""
            raise IllegalAction(f"no NPC called {target!r} (NPCs: {names}{heroes})")
        why = self._g.rules.target_refusal(st, move, found)
        if why:
            raise IllegalAction(why)
        return found.id

    def _start(self, move: s.Move, target: str | None, fiction: str, rest: list[Item]) -> None:
        once = self._once_key(move) if move.once_per else None
        self._g._emit(ev.MoveTriggered(move=move.id, name=move.name, target=target, once_key=once))
        before = [effect_item(e, {"move": move.id, "target": target, "source": move.name})
                  for e in move.before]
        if move.roll is None:
            assert move.result is not None
            self._run(before + self._outcome_items(move, "result", target, fiction) + rest,
                      fresh=True)
            return
        self._set_flow(Flow(stage="roll", move=move.id, target=target, fiction=fiction,
                            queue=rest))
        if before:
            # effects before the dice (Take a Big Risk marks Heat; Get Your Bearings asks its
            # question): they may ask the player, then the roll waits with the rest queued
            self._run([*before, {"roll_stage": {"move": move.id, "target": target,
                                                "fiction": fiction}}, *rest])

    def _adjust(self, move: s.Move, f: Flow, adjustment: str) -> None:
        assert f.roll is not None
        adjs = self._g.rules.adjustments(self._g.state, move, f.roll)
        adjustment = self._g.rules.adjustment_id(self._g.state, adjustment)
        if adjustment not in {a.id for a in adjs}:
            can = ("you may: " + "; ".join(a.label for a in adjs) + ", or keep the result"
                   if adjs else "nothing can change this roll")
            name = self._g.rules.adjustment_name(self._g.state, adjustment)
            raise IllegalAction(f"{name} is not on offer now ({can})")
        events, amount, source = self._g.rules.adjust(self._g.state, adjustment, f.roll)
        for e in events:
            self._g._emit(e)
        # the bands this roll was made against; the clamp it had (none: none)
        roll = resolve.reband(f.roll, amount, resolve.roll_bands(self._g.pack, move, f.roll),
                              resolve.roll_clamp(self._g.pack, f.roll), source,
                              resolve.face_override(self._g.state, self._g.rules, move))
        band = roll["band"]
        self._g._emit(ev.RollAdjusted(source=source, amount=amount, total=roll["total"],
                                   band=band, band_name=roll["band_name"],
                                   modifier=roll["modifier"], tone=roll["tone"],
                                   was=str(f.roll.get("tone", ""))))
        if self._g.rules.adjustments(self._g.state, move, roll):
            self._set_flow(f.model_copy(update={"roll": roll}))
        else:
            self._outcome(move, band, f.target, list(f.queue), roll)

    def _outcome_items(self, move: s.Move, key: str, target: str | None, fiction: str = ""
                       ) -> list[Item]:
        outcome = outcome_for(move, key)
        band = key.split(".")[-1]
        ctx: EffectContext = {"move": move.id, "target": target, "band": band,
                               "source": move.name}
        if fiction.strip():
            ctx["fiction"] = fiction.strip()  # rule effects may read the words (a belief...)
        items: list[Item] = [{"emit": ev.OutcomeReached(move=move.id, band=band,
                                                        text=outcome.text).to_dict()}]
        if outcome.choose:
            items.append({"choose": {"move": move.id, "key": key}, "ctx": ctx})
        items += [effect_item(e, ctx) for e in outcome.effects]
        return items

    def _outcome(self, move: s.Move, band: str, target: str | None, rest: list[Item],
                 roll: RollDict) -> None:
        table = "vs_teammate" if self._g.rules.uses_vs_teammate(self._g.state, move, target) \
            else "outcomes"
        first = self._g.rules.after_roll(self._g.state, move, roll)
        for mark in marks_by_play(self._g.state, str(roll.get("tone", "")), target):
            self._g._emit(mark)  # a hit on a vow's people marks its progress
        self._run(first + self._outcome_items(move, f"{table}.{band}", target,
                                              self._g.state.flow.fiction) + rest, roll=roll)

    def _run(self, queue: list[Item], roll: RollDict | None = None,
             fresh: bool = False) -> None:
        """Work through the queue until it is empty or the player must choose.

        A prompt's flow carries ``roll`` (the roll whose outcome this is, as adjusted), or
        the roll the flow already carries unless ``fresh`` (a new move with no roll).
        """
        if roll is None and not fresh:
            roll = self._g.state.flow.roll
        while queue:
            item = queue[0]
            if "roll_stage" in item:
                r = item["roll_stage"]
                self._set_flow(Flow(stage="roll", move=r["move"], target=r.get("target"),
                                    fiction=r.get("fiction", ""), queue=queue[1:]))
                return
            if "move_as" in item:  # a hero's turn at a move now (each hero's end of session)
                self._move_as(item["move_as"], queue[1:])
                return
            if "trigger" in item:
                if any("trigger" not in x for x in queue[1:]):
                    queue = [*queue[1:], item]
                    continue
                move = self._move(item["trigger"])
                self._begin_move(move, item["ctx"].get("target"), "", queue[1:],
                                 triggered=True)
                return
            res = self._g.interp.step(self._g.state, item)
            if isinstance(res, Need):
                if not res.options:
                    queue = queue[1:]
                    continue
                prompt = res.to_prompt(item)
                gm = item_ctx(item).get("gm")
                if gm:
                    prompt["context"] = {**prompt.get("context", {}), "gm": gm}  # what the GM said
                self._set_flow(Flow(stage="effects", move=self._g.state.flow.move,
                                    target=self._g.state.flow.target, queue=queue,
                                    prompt=prompt, roll=roll))
                return
            for e in res.events:
                self._g._emit(e)
            queue = res.push + queue[1:]
        if self._g.state.flow.stage != "fiction" or self._g.state.flow.queue:
            self._set_flow(Flow())

    def _move_as(self, r: MoveAs, rest: list[Item]) -> None:
        """Hand the spotlight to hero ``r["hero"]`` and start move ``r["move"]`` for them,
        ``rest`` queued after it (not deferred like a trigger: the moves go in turn)."""
        hero = r["hero"]
        if hero != self._g.state.acting and hero in self._g.state.actors:
            self._g._emit(ev.HeroSwitched(hero=hero, was=self._g.state.acting))
        self._begin_move(self._move(r["move"]), None, "", rest, triggered=True)

    def _require_stage(self, *stages: str) -> None:
        stage = self._g.state.flow.stage
        if stage not in stages:
            waiting = {"fiction": "your fiction", "move": "a move", "target": "a target",
                       "roll": "a roll", "adjust": "you to keep or change the roll",
                       "effects": "a choice"}[stage]
            raise IllegalAction(f"the engine is waiting for {waiting}: {self._g.pending_message}")
