"""The effect interpreter: turns queued effects into events, or into a prompt for the player.

Work waits in a queue of plain dict items (so a half-finished outcome saves and resumes):
``{"effect": {...}, "ctx": {...}}`` an effect; ``{"choose": {...}, "ctx": {...}}`` a "choose N"
list; ``{"emit": {...}}`` an event ready to apply; ``{"trigger": move, "ctx": {...}}`` a move that
starts when the rest is done. ``step`` handles the head item; ``answer`` resolves a prompt.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from engine.content import schema as s
from engine.content.loader import Pack, parse_effect
from engine.errors import ContentError, IllegalAction
from engine.rules import events as ev
from engine.rules.base import Need, Ruleset, Step, effect_item, gm_random, opt
from engine.rules.stance import stance_event
from engine.rules.state import HERO, CampaignState
from engine.rules.threats import advance_threat, fill
from engine.rules.threats import clock_step as clock_step  # re-exported: its old home
from engine.rules.types import (
    AnswerItem,
    AnswerOffer,
    AnswerSpec,
    ChooseItem,
    EffectContext,
    Item,
    answer_item,
    item_ctx,
)

GMHook = Callable[[CampaignState, str, EffectContext], Step]
AnswerHook = Callable[[CampaignState, AnswerSpec, EffectContext], AnswerOffer]
"""The GM's offer for an asked question (engine/gm/answers.py ``offer``, bound to a pack)."""


def outcome_for(move: s.Move, key: str) -> s.Outcome:
    """The outcome at ``key`` ("outcomes.weak_hit", "vs_teammate.miss" or "result")."""
    if key == "result":
        assert move.result is not None
        return move.result
    table, band = key.split(".", 1)
    return (move.vs_teammate if table == "vs_teammate" else move.outcomes)[band]



CORE_EFFECTS: dict[str, Callable[..., Step | Need]] = {}
"""The interpreter's handler of each core effect type (``Effects._e_<type>``, registered by
``_handles``); a system's own effect types are in its ruleset's registry."""


def _handles(type_: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register an ``Effects`` method as the handler of effect type ``type_``."""

    def deco(fn: Callable[..., Any]) -> Callable[..., Any]:
        CORE_EFFECTS[type_] = fn
        return fn

    return deco

class Interpreter:
    """Steps through queue items against one state, pack and ruleset."""

    def __init__(self, pack: Pack, rules: Ruleset, gm: GMHook,
                 answers: AnswerHook | None = None) -> None:
        self.pack = pack
        self.rules = rules
        self.gm = gm
        self.answers = answers
        """The GM's answers to asked questions (None: questions are asked, not answered)."""

    # ------------------------------------------------------------------ helpers

    def _stat_options(self, state: CampaignState, exclude: set[str], who: str = HERO
                      ) -> list[dict[str, Any]]:
        actor = state.actor(who)
        return [
            opt(sid, f"{sd.name} ({actor.stats.get(sid, 0):+d})")
            for sid, sd in self.pack.stats.items()
            if sid not in exclude and sid not in actor.locked
        ]

    def _conds(self, state: CampaignState, who: str) -> list[str]:
        return state.actor(who).conditions

    def _who(self, eff: Any, ctx: EffectContext) -> str | None:
        if getattr(eff, "who", "self") == "target":
            return ctx.get("target")
        return "hero"

    def _name(self, state: CampaignState, who: str) -> str:
        return state.actor(who).name

    # ------------------------------------------------------------------ step

    def step(self, state: CampaignState, item: Item) -> Step | Need:
        """Handle the head item of the queue."""
        if "emit" in item:
            return Step([self.rules.registry.decode(item["emit"])])
        if "choose" in item:
            return _skip_if_all_disabled(self._choose_need(state, item))
        if "answer" in item:
            return self._answer_step(state, item)
        if "effect" not in item:
            raise IllegalAction(f"not an effect to apply: {sorted(item)}")
        eff = parse_effect(item["effect"])
        ctx = item.get("ctx", {})
        if eff.type in self.rules.registry.effects:
            return _skip_if_all_disabled(self.rules.effect(state, eff, ctx))
        handler = CORE_EFFECTS.get(eff.type)
        if handler is None:
            raise IllegalAction(f"the {self.rules.id} rules do not know the effect {eff.type!r}")
        result: Step | Need = handler(self, state, eff, ctx)
        return _skip_if_all_disabled(result)

    def _choose_need(self, state: CampaignState, item: ChooseItem) -> Need:
        spec = item["choose"]
        move = self.pack.moves[spec["move"]]
        choose = outcome_for(move, spec["key"]).choose
        assert choose is not None
        count = spec.get("count", choose.count)
        ctx = item.get("ctx", {})
        # an option that needs the move's target is not on offer when there is no target
        no_target = not ctx.get("target")
        options = [self._option(state, o, ctx) for o in choose.options
                   if not (no_target and o.requires_target)]
        if spec.get("exclude"):
            options = [o for o in options if o["id"] not in spec["exclude"]]
        verb = "up to " if choose.up_to else ""
        message = choose.prompt or f"{move.name}: choose {verb}{count}"
        # disabled options do not count: pick as many as can still do something
        enabled = sum(1 for o in options if "disabled" not in o)
        most = count if choose.repeat and enabled else min(count, enabled)
        lo = 0 if choose.up_to else most
        if choose.for_gm and most == 1 and enabled > 1:
            options.append(self._gm_option())
        return Need("choose", message, options, lo, most)

    GM_CHOOSES = "gm_chooses"
    """The option id of "GM, you choose" (a choice the player makes standing in for the GM)."""

    def _gm_option(self) -> dict[str, Any]:
        gm = self.pack.system.gm_title
        return opt(self.GM_CHOOSES, f"{gm}, you choose",
                   f"you are deciding for the {gm}: let the {gm} pick instead")

    def _gm_pick(self, state: CampaignState, options: list[dict[str, Any]], salt: str
                 ) -> tuple[str, list[Item]]:
        """The GM's seeded pick among the usable ``options``, and the line that says so."""
        usable = [o for o in options if "disabled" not in o and o["id"] != self.GM_CHOOSES]
        if not usable:
            raise IllegalAction("nothing here can be picked")
        picked = gm_random(state, f"gm_chooses:{salt}").choice(usable)
        gm = self.pack.system.gm_title
        said = ev.Narrated(text=f"{gm}, you choose: the {gm} picks “{picked['label']}”",
                           by="engine")
        return str(picked["id"]), [{"emit": said.to_dict()}]

    def _option(self, state: CampaignState, o: s.Option, ctx: EffectContext) -> dict[str, Any]:
        """A prompt option for ``o``, disabled (with the reason) when it could do nothing."""
        out = opt(o.id, o.text)
        why = self.futile(state, o.effects, ctx)
        if why:
            out["disabled"] = why
        return out

    # --- what can do nothing --------------------------------------------------------

    def futile(self, state: CampaignState, effects: Sequence[Any], ctx: EffectContext
               ) -> str | None:
        """Why ``effects`` would all do nothing now, or None if one of them would do something.

        Options with no effects (purely fictional) are never futile; notes, bonuses, GM moves
        and rule effects always count as doing something.
        """
        reasons: list[str] = []
        for eff in effects:
            why = self._futile_one(state, eff, ctx)
            if why is None:
                return None
            reasons.append(why)
        return "; ".join(dict.fromkeys(reasons)) or None

    def _futile_one(self, state: CampaignState, eff: Any, ctx: EffectContext) -> str | None:
        if eff.type in self.rules.registry.effects:
            return self.rules.futile_effect(state, eff, ctx)
        match eff.type:
            case "clear_condition" | "mark_condition":
                who = self._who(eff, ctx)
                if who is None:
                    return "there is no target"
                if eff.type == "mark_condition":
                    return None
                marked = self._conds(state, who)
                if eff.condition and eff.condition not in marked:
                    cname = self.pack.conditions[eff.condition].name
                    return f"{self._name(state, who)} is not {cname}"
                if not marked:
                    return ("you have no condition marked" if who == "hero"
                            else f"{self._name(state, who)} has no condition marked")
            case "track":
                tdef = self.pack.tracks[eff.track]
                store = state.pools if tdef.scope == "campaign" else state.hero.tracks
                value = store.get(eff.track, tdef.start)
                if eff.delta < 0 and value <= tdef.min:
                    return f"{tdef.name} is already at {tdef.min}"
                if eff.delta > 0 and tdef.max is not None and value >= tdef.max:
                    return f"{tdef.name} is already full"
            case "flag":
                if eff.value == (eff.flag in state.hero.flags):
                    word = "already" if eff.value else "not"
                    return f"{eff.flag.replace('_', ' ')} is {word} set"
            case "one_of":
                whys = [self.futile(state, o.effects, ctx) for o in eff.options]
                if all(whys):
                    return "; ".join(dict.fromkeys(w for w in whys if w))
        return None

    # --- conditions -----------------------------------------------------------------

    @_handles("mark_condition")
    def _e_mark_condition(self, state: CampaignState, eff: s.MarkCondition, ctx: EffectContext
                          ) -> Step | Need:
        who = self._who(eff, ctx)
        if who is None:
            return Step([ev.Narrated(text="(No target to mark a condition on.)", by="engine")])
        marked = self._conds(state, who)
        reason = ctx.get("source", "")
        if eff.condition:
            if eff.condition in marked:
                name = self.pack.conditions[eff.condition].name
                return Step([ev.Narrated(text=f"{self._name(state, who)} is already {name}.",
                                         by="engine")])
            return Step([ev.ConditionMarked(who=who, condition=eff.condition, reason=reason)])
        free = [c for c in self.pack.conditions if c not in marked]
        if not free:
            return self.rules.no_free_condition(state, who)
        if len(free) == 1:
            return Step([ev.ConditionMarked(who=who, condition=free[0], reason=reason)])
        whose = ("Mark a condition" if who == HERO
                 else f"Mark a condition on {state.actor(who).name}")
        return Need("pick", whose, [opt(c, self.pack.conditions[c].name) for c in free])

    @_handles("clear_condition")
    def _e_clear_condition(self, state: CampaignState, eff: s.ClearCondition,
                           ctx: EffectContext) -> Step | Need:
        who = self._who(eff, ctx)
        if who is None:
            return Step()
        marked = list(self._conds(state, who))
        reason = ctx.get("source", "")
        if eff.condition:
            if eff.condition not in marked:
                return Step()
            return Step([ev.ConditionCleared(who=who, condition=eff.condition, reason=reason)])
        if not marked:
            return Step([ev.Narrated(text=f"{self._name(state, who)} has no condition to clear.",
                                     by="engine")])
        if len(marked) == 1:
            return Step([ev.ConditionCleared(who=who, condition=marked[0], reason=reason)])
        return Need("pick", "Clear a condition",
                    [opt(c, self.pack.conditions[c].name) for c in marked])

    # --- stats ----------------------------------------------------------------------

    @_handles("shift_labels")
    def _e_shift_labels(self, state: CampaignState, eff: s.ShiftLabels, ctx: EffectContext
                        ) -> Step | Need:
        who = HERO
        target = ctx.get("target")
        if eff.who == "target" and target:
            other = state.actor(target)
            if not other.stats:  # a character without Labels shifts them in the fiction
                return Step([ev.Narrated(
                    text=f"{other.name} shifts their own Labels: one up, one down.",
                    by="engine")])
            who = other.id
        whose = "" if who == HERO else f"{state.actor(who).name}: "
        if eff.up is None:
            options = self._stat_options(state, {eff.down} if eff.down else set(), who)
            return (Need("pick", f"{whose}Shift which label UP by one?", options) if options
                    else Step())
        if eff.down is None:
            options = self._stat_options(state, {eff.up}, who)
            return (Need("pick", f"{whose}Shift which label DOWN by one?", options) if options
                    else Step())
        locked = state.actor(who).locked
        changes = {k: v for k, v in ((eff.up, 1), (eff.down, -1)) if k not in locked}
        if not changes:
            return Step()
        return self.rules.shift_stats(state, changes, ctx.get("source", ""), who)

    @_handles("shift_label")
    def _e_shift_label(self, state: CampaignState, eff: s.ShiftLabel, ctx: EffectContext
                       ) -> Step | Need:
        if eff.stat is None:
            word = "up" if eff.by > 0 else "down"
            return Need("pick", f"Shift which label {word} by {abs(eff.by)}?",
                        self._stat_options(state, set()))
        if eff.stat in state.hero.locked:
            return Step([ev.Narrated(text=f"{self.pack.stats[eff.stat].name} is locked.",
                                     by="engine")])
        return self.rules.shift_stats(state, {eff.stat: eff.by}, ctx.get("source", ""))

    @_handles("lock_label")
    def _e_lock_label(self, state: CampaignState, eff: s.LockLabel, ctx: EffectContext
                      ) -> Step | Need:
        if eff.stat is None:
            options = self._stat_options(state, set())
            return Need("pick", "Lock which label for good?", options) if options else Step()
        return Step([ev.LabelLocked(stat=eff.stat)])

    # --- tracks, bonuses, hold ------------------------------------------------------------

    def track_step(self, state: CampaignState, track: str, delta: int, reason: str) -> Step:
        """Move a track, clamped; fire its ``on_full`` effects when it fills."""
        tdef = self.pack.tracks[track]
        store = state.pools if tdef.scope == "campaign" else state.hero.tracks
        old = store.get(track, tdef.start)
        new = max(tdef.min, old + delta)
        if tdef.max is not None:
            new = min(tdef.max, new)
        step = Step([ev.TrackChanged(track=track, scope=tdef.scope, delta=new - old, value=new,
                                     reason=reason)])
        if tdef.max is not None and new >= tdef.max and old < tdef.max and tdef.on_full:
            step.push += [effect_item(e, {"source": f"{tdef.name} full"}) for e in tdef.on_full]
            if tdef.reset_on_full:
                step.events.append(ev.TrackChanged(track=track, scope=tdef.scope,
                                                   delta=tdef.min - new, value=tdef.min,
                                                   reason=f"{tdef.name} resets"))
        return step

    @_handles("track")
    def _e_track(self, state: CampaignState, eff: s.TrackDelta, ctx: EffectContext) -> Step:
        return self.track_step(state, eff.track, eff.delta, ctx.get("source", ""))

    @_handles("hold")
    def _e_hold(self, state: CampaignState, eff: s.Hold, ctx: EffectContext) -> Step:
        move = ctx.get("move") or "general"
        who = state.acting  # the acting hero's hold: theirs to spend
        have = next((h.amount for h in state.holds
                     if h.move == move and h.owner in (who, None)), 0)
        return Step([ev.HoldChanged(move=move, delta=eff.amount, value=have + eff.amount,
                                    expires=eff.expires, who=who)])

    def _bonus(self, state: CampaignState, eff: s.Bonus, ctx: EffectContext) -> Step:
        move = ctx.get("move")
        reason = eff.reason or (self.pack.moves[move].name if move in self.pack.moves else "")
        target = ctx.get("target") if eff.against_target else None
        owner = HERO
        if eff.who == "target":
            if not ctx.get("target"):
                return Step()
            owner = str(ctx["target"])
            other = state.actor(owner)
            if other.kind == "npc" and not other.stats:  # never rolls: it is fiction
                return Step([ev.Narrated(text=f"{other.name}: {eff.amount:+d} on what they do"
                                              f" next ({reason}).", by="engine")])
        return Step([ev.BonusAdded(id=state.next_id, kind=eff.type, amount=eff.amount,
                                   moves=list(eff.moves), target=target, expires=eff.expires,
                                   reason=reason, owner=owner)])

    _handles("forward")(_bonus)
    _handles("ongoing")(_bonus)

    # --- questions, GM, moves ---------------------------------------------------------------

    @_handles("ask")
    def _e_ask(self, state: CampaignState, eff: s.Ask, ctx: EffectContext) -> Step | Need:
        move = self.pack.moves[ctx["move"]]
        qs = move.questions
        n = min(eff.count, len(qs))
        return Need("questions", f"{move.name}: ask {n}",
                    [opt(str(i), q) for i, q in enumerate(qs)], n, n)

    def _answer_step(self, state: CampaignState, item: AnswerItem) -> Step | Need:
        """An asked question: the GM draws its offer (kept in the item), then the player
        accepts it, asks for another, or writes their own (``answer_own``)."""
        spec = item["answer"]
        ctx = item.get("ctx", {})
        offer = spec.get("offer")
        if offer is None:
            if self.answers is None:
                return Step()
            drawn: AnswerItem = {"answer": {**spec, "offer": self.answers(state, spec, ctx)},
                                 "ctx": ctx}
            return Step(push=[drawn])
        move = self.pack.moves[spec["move"]]
        gm = self.pack.system.gm_title
        need = Need("answer", spec["question"],
                    [opt("accept", offer["text"], offer["drawn"]),
                     opt("another", "Ask for another answer",
                         f"the {gm} draws again from the tables")],
                    title=f"{move.name}: the {gm} answers")
        return need

    def _answered(self, state: CampaignState, item: AnswerItem, text: str, drawn: str,
                  by: str) -> list[Item]:
        """The events that journal an answer and record it as a fact in the ledger."""
        spec = item["answer"]
        ctx = item.get("ctx", {})
        out: list[Item] = [{"emit": ev.QuestionAnswered(
            move=spec["move"], question=spec["question"], answer=text, drawn_from=drawn,
            by=by).to_dict()}]
        target = ctx.get("target")
        about = [target] if target and target in state.actors else []
        whose = ("your answer" if by == "player"
                 else f"the {self.pack.system.gm_title}'s answer")
        fact = ev.LedgerChanged(kind="fact", op="record", id=state.next_ledger_id("f"),
                                text=f"{spec['question']} {text}", about=about,
                                source=f"{self.pack.moves[spec['move']].name}: {whose}")
        out.append({"emit": fact.to_dict()})
        return out

    def answer_own(self, state: CampaignState, item: Item, text: str) -> list[Item]:
        """The items that replace an ``answer`` item when the player writes their own."""
        if "answer" not in item:
            raise IllegalAction("no question is waiting for an answer")
        words = " ".join(text.split())
        if not words:
            raise IllegalAction("write an answer first")
        return self._answered(state, item, words, "", "player")

    def _answer_pick(self, state: CampaignState, item: AnswerItem, ids: list[str]
                     ) -> list[Item]:
        spec = item["answer"]
        offer = spec.get("offer")
        if offer is None:
            raise IllegalAction("the GM has not offered an answer yet")
        if ids == ["accept"]:
            return self._answered(state, item, offer["text"], offer["drawn"], "gm")
        if ids == ["another"]:
            again: AnswerItem = {"answer": {
                "move": spec["move"], "question": spec["question"], "draw": spec["draw"] + 1,
                "seen": [*spec.get("seen", []), offer["text"]]}, "ctx": item.get("ctx", {})}
            return [again]
        raise IllegalAction("accept the answer, or ask for another")

    @_handles("gm_move")
    def _e_gm_move(self, state: CampaignState, eff: s.GMMove, ctx: EffectContext) -> Step:
        if eff.text or eff.fits:  # what the GM is asked to say, and what it must answer
            ctx = {**ctx, "asks": eff.text, "fits": list(eff.fits)}
        return self.gm(state, eff.kind, ctx)

    MAX_TRIGGERS = 32
    """Moves content may trigger within one action: more means a loop (a move triggering
    itself, or two triggering each other), stopped with a clear error, not a RecursionError."""

    @_handles("trigger_move")
    def _e_trigger_move(self, state: CampaignState, eff: s.TriggerMove, ctx: EffectContext
                        ) -> Step:
        key = (id(state), state.action_no)
        seen = getattr(self, "_triggers", (None, 0))
        count = seen[1] + 1 if seen[0] == key else 1
        self._triggers = (key, count)
        if count > self.MAX_TRIGGERS:
            raise ContentError(
                f"content loop: more than {self.MAX_TRIGGERS} moves triggered in one action"
                f" (last {ctx.get('source') or 'a move'} -> {eff.move}); check the pack's"
                " trigger_move effects with 'sidekick validate'")
        return Step(push=[{"trigger": eff.move, "ctx": ctx}])

    @_handles("taken_out")
    def _e_taken_out(self, state: CampaignState, eff: s.TakenOut, ctx: EffectContext) -> Step:
        return Step([ev.TakenOut(out=True, reason=ctx.get("source", ""))])

    @_handles("flag")
    def _e_flag(self, state: CampaignState, eff: s.Flag, ctx: EffectContext) -> Step:
        return Step([ev.FlagSet(flag=eff.flag, value=eff.value)])

    @_handles("advance")
    def _e_advance(self, state: CampaignState, eff: s.Advance, ctx: EffectContext
                   ) -> Step | Need:
        taken = set(state.hero.advances)
        count = len(state.hero.advances)
        options = []
        for a in self.pack.system.advancements:
            if a.id in taken and not a.id.startswith("plus_"):
                continue
            o = self._option(state, a, ctx)
            if count < a.min_advances:
                o["disabled"] = (f"opens after {a.min_advances} advancements"
                                 f" (you have taken {count})")
            options.append(o)
        if not any("disabled" not in o for o in options):
            return Step([ev.Narrated(text="No advancement is left to take.", by="engine")])
        return Need("pick", "Take an advancement", options)

    @_handles("clock")
    def _e_clock(self, state: CampaignState, eff: s.Clock, ctx: EffectContext) -> Step:
        active = [t for t in state.threats.values() if t.active]
        if eff.threat:
            threat = state.threats.get(eff.threat)
        else:
            threat = max(active, key=lambda t: (t.clock / t.size, t.id), default=None)
        if threat is None or not threat.active:
            return Step()
        return advance_threat(self.pack, state, threat, eff.delta, ctx.get("source") or "GM")

    @_handles("stance")
    def _e_stance(self, state: CampaignState, eff: s.StanceEffect, ctx: EffectContext) -> Step:
        npc = ctx.get("target") or ctx.get("npc")
        if not npc or npc not in state.actors or state.actors[npc].kind != "npc":
            return Step()
        e = stance_event(self.pack, state, npc, eff.stance, eff.by,
                         reason=eff.reason or ctx.get("source", ""))
        return Step([e] if e is not None else [])

    @_handles("note")
    def _e_note(self, state: CampaignState, eff: s.Note, ctx: EffectContext) -> Step:
        return Step([ev.Narrated(text=eff.text, by="engine")])

    # --- the story ledger -----------------------------------------------------------------

    @_handles("thread")
    def _e_thread(self, state: CampaignState, eff: s.OpenThread, ctx: EffectContext) -> Step:
        text = _one_line(fill(eff.text, ledger_names(state, ctx)))
        if any(t.text == text for t in state.open_threads):
            return Step()
        return Step([ev.LedgerChanged(kind="thread", op="open", id=state.next_ledger_id("t"),
                                      text=text, source=ctx.get("source", ""),
                                      note=eff.note)])

    @_handles("fact")
    def _e_fact(self, state: CampaignState, eff: s.RecordFact, ctx: EffectContext) -> Step:
        text = _one_line(fill(eff.text, ledger_names(state, ctx)))
        if any(f.text == text for f in state.facts):
            return Step()
        npc = ctx.get("npc") or ctx.get("target")
        about: list[str] = []
        for word in eff.about:
            who = state.acting if word == "hero" else npc
            if who and who in state.actors and who not in about:
                about.append(who)
        return Step([ev.LedgerChanged(kind="fact", op="record", id=state.next_ledger_id("f"),
                                      text=text, source=ctx.get("source", ""), about=about)])

    @_handles("whereabouts")
    def _e_whereabouts(self, state: CampaignState, eff: s.Whereabouts, ctx: EffectContext
                       ) -> Step:
        npc = ctx.get("target") or ctx.get("npc")
        if not npc or npc not in state.npcs:
            return Step()
        where = _one_line(fill(eff.text, ledger_names(state, ctx)))
        if eff.text[:1].islower():  # a place, not a sentence: "captured", "at the docks"
            where = where[:1].lower() + where[1:]
        if state.npcs[npc].where == where:
            return Step()
        return Step([ev.LedgerChanged(kind="where", op="set", id=npc, text=where,
                                      was=state.npcs[npc].where,
                                      source=ctx.get("source", ""))])

    @_handles("one_of")
    def _e_one_of(self, state: CampaignState, eff: s.OneOf, ctx: EffectContext) -> Need:
        options = [self._option(state, o, ctx) for o in eff.options]
        if eff.for_gm and sum(1 for o in options if "disabled" not in o) > 1:
            options.append(self._gm_option())
        return Need("pick", "Choose one", options)

    @_handles("rule")
    def _e_rule(self, state: CampaignState, eff: s.Rule, ctx: EffectContext) -> Step | Need:
        if eff.name == "npc_leaves":
            npc = ctx.get("target")
            if not npc or npc not in state.npcs or not state.npcs[npc].present:
                return Step()
            return Step([ev.NPCPresence(npc=npc, present=False)])
        if eff.name == "choose_from_band":
            move = ctx["move"]
            band = str(eff.args.get("band"))
            count = int(eff.args.get("count") or 1)
            return Step(push=[{"choose": {"move": move, "key": f"outcomes.{band}",
                                          "count": count,
                                          "exclude": [str(eff.args.get("exclude") or "")]},
                               "ctx": {**ctx, "band": band}}])
        return self.rules.rule_effect(state, eff, ctx)

    # ------------------------------------------------------------------ answers

    def answer_items(self, move: str, questions: Sequence[str], ctx: EffectContext
                     ) -> list[Item]:
        """One ``answer`` item per asked question (none when no GM answers)."""
        if self.answers is None:
            return []
        return [answer_item(move, q, ctx) for q in questions]

    def answer(self, state: CampaignState, item: Item, ids: list[str]) -> list[Item]:
        """The items that replace ``item`` once the player picked ``ids``."""
        ctx = item_ctx(item)
        if "choose" in item:
            spec = item["choose"]
            move = self.pack.moves[spec["move"]]
            choose = outcome_for(move, spec["key"]).choose
            assert choose is not None
            by_id = {o.id: o for o in choose.options}
            if ids == [self.GM_CHOOSES]:
                pick, by_gm = self._gm_pick(state, self._choose_need(state, item).options,
                                            f"{move.id}:{spec['key']}")
                return by_gm + self.answer(state, item, [pick])
            picked = [by_id[i] for i in ids]
            out: list[Item] = [{"emit": ev.OptionsChosen(
                move=move.id, options=ids, texts=[o.text for o in picked]).to_dict()}]
            for o in picked:
                out += [effect_item(e, {**ctx, "source": f"{move.name}: {o.text}"})
                        for e in o.effects]
            return out
        if "answer" in item:
            return self._answer_pick(state, item, ids)
        if "effect" not in item:
            raise IllegalAction(f"nothing to answer for {sorted(item)}")
        eff = parse_effect(item["effect"])
        if eff.type in self.rules.registry.effects:
            return self.rules.answer_effect(state, item, ids)
        data = dict(item["effect"])
        one = ids[0] if ids else None
        match eff.type:
            case "mark_condition" | "clear_condition":
                data["condition"] = one
                return [{"effect": data, "ctx": ctx}]
            case "shift_labels":
                data["up" if eff.up is None else "down"] = one
                return [{"effect": data, "ctx": ctx}]
            case "shift_label" | "lock_label":
                data["stat"] = one
                return [{"effect": data, "ctx": ctx}]
            case "one_of":
                if one == self.GM_CHOOSES:
                    pick, by_gm = self._gm_pick(
                        state, [self._option(state, o, ctx) for o in eff.options],
                        f"{ctx.get('move', '')}:one_of")
                    return by_gm + self.answer(state, item, [pick])
                chosen = next(o for o in eff.options if o.id == one)
                said = ev.OptionsChosen(move=ctx.get("move") or "", options=[chosen.id],
                                        texts=[chosen.text])
                told: list[Item] = [{"emit": said.to_dict()}]
                return told + [
                    effect_item(e, {**ctx, "source": chosen.text}) for e in chosen.effects]
            case "advance":
                adv = next(a for a in self.pack.system.advancements if a.id == one)
                taken: list[Item] = [
                    {"emit": ev.AdvanceTaken(advance=adv.id, text=adv.text).to_dict()}]
                return taken + [
                    effect_item(e, {**ctx, "source": f"advancement: {adv.text}"})
                    for e in adv.effects
                ]
            case "ask":
                qs = self.pack.moves[ctx["move"]].questions
                asked = [qs[int(i)] for i in ids]
                return [{"emit": ev.QuestionsAsked(move=ctx["move"],
                                                   questions=asked).to_dict()},
                        *self.answer_items(ctx["move"], asked, ctx)]
            case "rule":
                return self.rules.rule_answer(state, eff, ctx, ids)
        raise IllegalAction(f"nothing to answer for {eff.type}")


def _one_line(text: str) -> str:
    return " ".join(text.split())


def ledger_names(state: CampaignState, ctx: EffectContext) -> dict[str, str]:
    """The names a ledger effect's words may use: the GM move's own (``ctx["names"]``) over
    what the state knows: {hero}, {location}, the NPC the effect is about as {npc} and as its
    role ({teammate}...), the present NPCs by role, the most pressing {threat}, the newest
    open {thread}."""
    names = {"hero": state.hero.name, "location": state.scene.location or "the street"}
    for npc in state.npcs.values():
        if npc.present:
            names.setdefault(npc.role, npc.name)
    active = [t for t in state.threats.values() if t.active]
    if active:
        names["threat"] = max(active, key=lambda t: (t.clock / t.size, t.id)).name
    if state.open_threads:
        names["thread"] = state.open_threads[-1].text
    who = ctx.get("npc") or ctx.get("target")
    if who and who in state.actors:
        actor = state.actors[who]
        names["npc"] = actor.name
        names[actor.role] = actor.name
    names.update(ctx.get("names") or {})
    return names


def _skip_if_all_disabled(result: Step | Need) -> Step | Need:
    """A prompt whose every option is disabled asks nothing: it says why and moves on."""
    if isinstance(result, Step) or not result.options:
        return result
    if any("disabled" not in o for o in result.options):
        return result
    why = "; ".join(dict.fromkeys(str(o["disabled"]) for o in result.options))
    return Step([ev.Narrated(text=f"{result.message.rstrip('?:. ')}: nothing here can change"
                                  f" anything now ({why}).", by="engine")])
