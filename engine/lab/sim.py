"""One simulated campaign: a policy plays the player's side through the ``Game`` facade.

``simulate(spec, index)`` starts a campaign (seed ``campaign_seed(spec.seed, index)``, the
pack's first ``spec.party`` archetypes as heroes, a few NPCs of the pack's roles), then plays
``spec.scenes`` scenes of ``spec.moves`` player moves each. Every decision the player would
make (the move, its target, the stat, declarations and pre-roll options, each choice an
outcome offers, the adjustments after a roll) is a ``Decision`` the policy answers; the GM's
moves happen as the engine makes them. In a game with fights each scene's fight is played by
``engine.lab.fights.play_fight``. What happened is recorded in a ``CampaignResult``.

A campaign's own failure (the policy raises or answers out of range, the content breaks, the
campaign runs past ``spec.max_steps``) never raises: the result has ``ok`` False and an error
naming what and where. A pack that cannot load raises ``EngineError`` before anything plays.
"""

from __future__ import annotations

import importlib
import random
import re
import traceback
from collections.abc import Callable, Iterator, Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any, TypeVar

from engine.checks import require_checked
from engine.content import schema as s
from engine.content.loader import Pack, get_pack
from engine.dice import DiceSpec
from engine.errors import EngineError, IllegalAction
from engine.game import Game, Prompt
from engine.gm.framing import place_key
from engine.lab.model import (
    CampaignResult,
    Choice,
    Decision,
    LabSpec,
    campaign_seed,
    empty_result,
    policy_rng,
)
from engine.lab.policy import Policy, load_policy
from engine.odds import band_odds, band_odds_by_faces
from engine.rules import resolve
from engine.rules.events import GM_LINE_MEMORY, is_fight_roll
from engine.rules.fight.dice import ROUTINE

MAX_PROMPTS = 200
"""Prompts one move may ask before the content counts as looping."""
TONE_SCORE = {"good": 1.0, "mixed": 0.5, "bad": 0.0}
"""What a band's tone is worth to a policy's ``value`` (the expected score of a roll)."""
PROTECT_WORDS = frozenset({"defend", "protect", "shield", "guard", "rescue", "save"})
HELP_WORDS = frozenset({"help", "comfort", "support", "aid", "assist"})
ATTACK_WORDS = frozenset({"engage", "attack", "fight", "overwhelm", "unleash",
                          "provoke", "punch", "assault"})
"""Words in a move's name, trigger or cues that say what it does in the story (its tags)."""
DANGER_WORDS = ("innocent", "danger", "bystander", "hostage", "capture", "collateral",
                "peril", "civilian")
"""Words in a GM move's id or name that put innocents in danger (the story policy defends)."""


_T = TypeVar("_T")
_CACHE: dict[tuple[str, int, str], tuple[Pack, Any]] = {}


def _per_pack(fn: Callable[..., _T]) -> Callable[..., _T]:
    """Cache ``fn(pack, *args)`` per loaded pack (packs are not hashable)."""

    def cached(pack: Pack, *args: str) -> _T:
        key = (fn.__name__, id(pack), "\0".join(args))
        hit = _CACHE.get(key)
        if hit is not None and hit[0] is pack:
            return hit[1]  # type: ignore[no-any-return]
        value = fn(pack, *args)
        _CACHE[key] = (pack, value)
        return value

    cached.__doc__ = fn.__doc__
    return cached


class SimError(EngineError):
    """A simulated campaign could not go on (its result carries this message)."""

    title = "Simulation error"


class StepLimit(SimError):
    """The campaign took more engine steps than the spec allows."""


# ------------------------------------------------------------------ the pack and its tags


def pack_for(spec: LabSpec) -> Pack:
    """The checked pack ``spec.system`` names (an id, or a pack folder's path)."""
    content: list[Path | str] = [Path(c) for c in spec.content]
    system = spec.system
    path = Path(system)
    if ("/" in system or path.is_dir()) and (path / "system.yaml").is_file():
        content.append(path.resolve())
        system = path.resolve().name
    return require_checked(get_pack(system, content))


def _walk(effects: Sequence[Any]) -> Iterator[Any]:
    """Every effect in ``effects`` and in the options of any ``one_of`` among them."""
    for e in effects:
        yield e
        for o in getattr(e, "options", None) or []:
            yield from _walk(o.effects)


def _effect_tags(effects: Sequence[Any], harm: frozenset[str],
                 pools: frozenset[str] = frozenset()) -> set[str]:
    """Story tags of ``effects``: ``harm`` tracks are bad to raise, ``pools`` the party's."""
    tags: set[str] = set()
    for e in _walk(effects):
        kind = getattr(e, "type", "")
        who = getattr(e, "who", None)
        if kind == "clear_condition" and who in (None, "hero", "self"):
            tags |= {"clears_condition", "recover"}
        elif kind == "clear_condition":
            tags.add("help")
        elif kind == "mark_condition" and who == "target":
            tags.add("attack")
        elif kind == "track":
            delta = int(getattr(e, "delta", 0))
            track = str(getattr(e, "track", ""))
            if track in harm and delta < 0:
                tags.add("recover")
            elif track in harm and delta > 0:
                tags.add("risky")
            elif delta > 0 and track in pools:
                tags.add("help")  # Team and the like: the party's pool
            elif delta > 0:
                tags.add("advance")
        elif kind == "taken_out":
            tags.add("risky")
        elif kind == "rule" and "heal" in str(getattr(e, "name", "")):
            tags.add("heal")
        elif kind == "rule" and "fight" in str(getattr(e, "name", "")):
            tags.add("starts_fight")
    return tags


@_per_pack
def _harm_tracks(pack: Pack) -> frozenset[str]:
    """Tracks a hero wants low: those the GM's moves raise (City of Whispers' Heat...)."""
    harm = set()
    for gm in pack.gm.moves:
        for e in _walk(getattr(gm, "effects", []) or []):
            if getattr(e, "type", "") == "track" and int(getattr(e, "delta", 0)) > 0:
                harm.add(str(getattr(e, "track", "")))
            if getattr(e, "type", "") == "rule" and "heat" in str(getattr(e, "name", "")):
                harm.add("heat")
    return frozenset(harm & {t.id for t in pack.system.tracks})


def _pools(pack: Pack) -> frozenset[str]:
    return frozenset(t.id for t in pack.system.tracks if t.scope == "campaign")


@_per_pack
def _move_tags(pack: Pack, move_id: str) -> frozenset[str]:
    """What a move does in the story, from its name, trigger and cues (words such as defend,
    protect, help, attack) and the effects of its outcomes other than a miss."""
    move = pack.moves[move_id]
    words = set(re.findall(r"[a-z]+", f"{move.name} {move.trigger} {' '.join(move.cues)}"
                                        .lower()))
    tags: set[str] = set()
    if words & PROTECT_WORDS:
        tags |= {"protect", "defend"}
    if words & HELP_WORDS:
        tags.add("help")
    if words & ATTACK_WORDS:
        tags.add("attack")
    harm = _harm_tracks(pack)
    good = {b.id for bands in pack.system.bands.values() for b in bands if b.tone != "bad"}
    effects: list[Any] = list(move.before)
    outcomes = [o for k, o in move.outcomes.items() if k in good]
    if move.result is not None:
        outcomes.append(move.result)
    for o in outcomes:
        effects += o.effects
        if o.choose:
            for opt in o.choose.options:
                effects += opt.effects
    tags |= _effect_tags(effects, harm, _pools(pack))
    if move.roll is None:
        tags.add("no_roll")
    return frozenset(tags)


@_per_pack
def _option_tags(pack: Pack, move_id: str) -> dict[str, frozenset[str]]:
    """Tags of every option (choose lists, one_of branches) a move offers, by option id."""
    move = pack.moves.get(move_id)
    out: dict[str, frozenset[str]] = {}
    if move is None:
        return out
    harm = _harm_tracks(pack)
    pools = _pools(pack)

    def visit(effects: Sequence[Any]) -> None:
        for e in effects:
            for o in getattr(e, "options", None) or []:
                out.setdefault(o.id, frozenset(_effect_tags(o.effects, harm, pools)))
                visit(o.effects)

    for o in [*move.outcomes.values(), *move.vs_teammate.values(),
              *([move.result] if move.result else [])]:
        if o.choose:
            for opt in o.choose.options:
                out.setdefault(opt.id, frozenset(_effect_tags(opt.effects, harm, pools)))
                visit(opt.effects)
        visit(o.effects)
    visit(move.before)
    return out


@_per_pack
def _danger_moves(pack: Pack) -> frozenset[str]:
    return frozenset(g.id for g in pack.gm.moves
                     if any(w in f"{g.id} {g.name}".lower().replace("_", " ")
                            for w in DANGER_WORDS))


# ------------------------------------------------------------------ odds


def _exact(dice: DiceSpec, modifier: int, bands: Sequence[s.Band],
           override: Callable[[tuple[int, ...], str], Any] | None) -> dict[str, Fraction]:
    if override is None:
        return band_odds(dice, modifier, bands)

    def forced(kept: tuple[int, ...], band: str) -> str | None:
        found = override(kept, band)
        return found.band if found is not None else None

    return band_odds_by_faces(dice, modifier, bands, forced)


def _tone_of(bands: Sequence[s.Band]) -> dict[str, float]:
    return {b.id: TONE_SCORE.get(b.tone, 0.5) for b in bands}


def move_odds(game: Game, move: s.Move, target: str | None, stat: str | None = None
              ) -> tuple[float | None, float | None]:
    """(chance of the move's good bands, expected tone score) for a roll of ``move`` now;
    (None, None) for a move with no roll."""
    if move.roll is None:
        return None, None
    st = game.state
    stat = stat or move.roll.stat
    if stat == "choice":
        stat = move.roll.choices[0]
    _mods, _raw, final = resolve.modifiers(st, game.pack, game.rules, move, target, stat, [])
    bands = game.rules.bands_for(st, move, target)
    dice = game._dice_for(move)
    override = resolve.face_override(st, game.rules, move)
    key = (dice, final, tuple((b.id, b.min, b.max, b.tone) for b in bands))
    if override is None and key in _SCORES:
        return _SCORES[key]
    odds = _exact(dice, final, bands, override)
    tone = _tone_of(bands)
    good = sum(float(p) for b, p in odds.items() if tone.get(b) == 1.0)
    value = sum(float(p) * tone.get(b, 0.5) for b, p in odds.items())
    if override is None and len(_SCORES) < 100_000:
        _SCORES[key] = (good, value)
    return good, value


_SCORES: dict[tuple[Any, ...], tuple[float, float]] = {}
"""(good odds, expected score) by dice, modifier and bands, for rolls the dice never
override (exact, so caching changes nothing)."""


def rolled_odds(game: Game, rolled: Mapping[str, Any]) -> dict[str, float]:
    """The exact odds per band a ``Rolled`` event had (its dice, modifier and bands; a routine
    check's band was certain)."""
    move = game.pack.moves.get(str(rolled["move"]))
    raw_bands = rolled.get("bands")
    if raw_bands:
        bands: Sequence[s.Band] = [s.Band.model_validate(b) for b in raw_bands]
    elif move is not None:
        bands = game.pack.bands_for(move)
    else:
        return {}
    if str(rolled["dice"]) == ROUTINE:  # no die: its band was certain
        return {b.id: float(b.id == rolled.get("band")) for b in bands}
    override = resolve.face_override(game.state, game.rules, move) if move else None
    odds = _exact(DiceSpec.parse(str(rolled["dice"])), int(rolled["modifier"]), bands, override)
    return {b: float(p) for b, p in odds.items()}


# ------------------------------------------------------------------ the driver


class _Driver:
    """Plays one campaign, recording into ``result``."""

    def __init__(self, game: Game, spec: LabSpec, policy: Policy, rng: random.Random,
                 result: CampaignResult) -> None:
        self.game = game
        self.spec = spec
        self.policy = policy
        self.rng = rng
        self.result = result
        self.odds = bool(getattr(policy, "uses_odds", True))
        self.scene = 0
        self.danger = False
        self.where = "setting up"
        self.track_names = {t.id: t.name for t in game.pack.system.tracks}
        self.doom: dict[str, int] = {}
        self.fights = game.rules.conflict() is not None
        self.gm_said: list[str] = []
        """The last GM lines said, oldest first (``GM_LINE_MEMORY`` of them)."""
        self.places: list[str] = []
        """The places of the campaign's scenes so far, as compared (``place_key``)."""

    # -- bookkeeping

    def _gm_fit(self, e: Mapping[str, Any]) -> None:
        """Count a GM move: whether it fits the failed move's kind, whether its line was said
        within the last ``GM_LINE_MEMORY`` GM moves."""
        fit = self.result.setdefault("gm_fit", {})
        fit["made"] = fit.get("made", 0) + 1
        if e.get("fit"):
            fit["after_roll"] = fit.get("after_roll", 0) + 1
            fit["fits"] = fit.get("fits", 0) + (e.get("fit") == "fits")
        text = str(e.get("text", ""))
        fit["repeats"] = fit.get("repeats", 0) + (text in self.gm_said)
        self.gm_said = [*self.gm_said[-(GM_LINE_MEMORY - 1):], text]

    def _framed(self, e: Mapping[str, Any]) -> None:
        """Count a scene's place: a return to a place of an earlier scene, and one within
        the last five scenes."""
        key = place_key(str(e.get("location", "")))
        if not key:
            return
        fit = self.result.setdefault("gm_fit", {})
        fit["scenes"] = fit.get("scenes", 0) + 1
        fit["returns"] = fit.get("returns", 0) + (key in self.places)
        fit["returns_near"] = fit.get("returns_near", 0) + (key in self.places[-5:])
        self.places.append(key)

    def act(self, events: Sequence[Mapping[str, Any]]) -> None:
        """Count an engine step and record what its events say."""
        r = self.result
        r["steps"] += 1
        for e in events:
            kind = e.get("type")
            if kind == "Rolled" and not is_fight_roll(e):  # a fight's: the fight's record
                r["rolls"].append({"move": str(e["move"]), "band": str(e["band"]),
                                   "odds": rolled_odds(self.game, e), "step": r["steps"],
                                   "scene": self.scene})
            elif kind == "GMMoveMade":
                move = str(e.get("move", ""))
                r["gm_moves"][move] = r["gm_moves"].get(move, 0) + 1
                self._gm_fit(e)
                if move in _danger_moves(self.game.pack):
                    self.danger = True
            elif kind == "SceneStarted":
                self._framed(e)
            elif kind == "TakenOut" and e.get("out", True):
                who = str(e.get("who", "hero"))
                actor = self.game.state.actors.get(who) if who != "hero" else None
                name = actor.name if actor else self.game.state.hero.name
                r["taken_out"].append({"who": name, "step": r["steps"], "scene": self.scene})
        for t in self.game.state.threats.values():
            if t.clock >= t.size and t.id not in self.doom:
                self.doom[t.id] = r["steps"]
        if r["steps"] > self.spec.max_steps:
            raise StepLimit(f"the campaign took more than {self.spec.max_steps} engine steps"
                            f" (at {self.where})")

    def sample(self) -> None:
        """The acting hero's tracks, conditions and the campaign's pools, now."""
        st = self.game.state
        hero = st.hero
        values: dict[str, float] = {self.track_names.get(k, k): float(v)
                                    for k, v in hero.tracks.items()}
        values["conditions"] = float(len(hero.conditions))
        for k, v in st.pools.items():
            values[self.track_names.get(k, k)] = float(v)
        self.result["samples"].append({"step": self.result["steps"], "scene": self.scene,
                                       "values": values})

    def situation(self) -> dict[str, Any]:
        st = self.game.state
        hero = st.hero
        harm = _harm_tracks(self.game.pack)
        maxes = {t.id: t.max for t in self.game.pack.system.tracks}
        hurt = len(hero.conditions) >= 2 or any(
            (maxes.get(k) or 0) > 0 and v * 2 >= (maxes.get(k) or 0)
            for k, v in hero.tracks.items() if k in harm)
        return {"conditions": len(hero.conditions), "marked": list(hero.conditions),
                "innocents_in_danger": self.danger, "hurt": hurt,
                "taken_out": hero.taken_out, "scene": self.scene}

    def decide(self, kind: str, choices: list[Choice]) -> Choice:
        """Ask the policy; a bad answer or an exception is a ``SimError`` naming the place."""
        decision = Decision(kind=kind, choices=tuple(choices), situation=self.situation(),
                            actor=self.game.state.hero.name)
        try:
            i = self.policy.choose(decision, self.rng)
        except Exception as e:  # the policy's failure is reported, not raised
            raise SimError(f"policy {self.policy.name!r} raised {type(e).__name__}: {e}"
                           f" (deciding {kind} at {self.where})") from None
        if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < len(choices):
            raise SimError(f"policy {self.policy.name!r} returned {i!r}, not an index from 0"
                           f" to {len(choices) - 1} (deciding {kind} at {self.where})")
        return choices[i]

    # -- a move

    def move_choices(self) -> list[Choice]:
        g = self.game
        out = []
        for m in g.available_moves():
            if m.hidden or m.category == "session" or m.id == g.pack.system.session.end_move:
                continue
            if m.target == "required" and not g.targets_for(m):
                continue
            tags = _move_tags(g.pack, m.id)
            if self.fights and "starts_fight" in tags:
                continue  # the scene's fight is played by play_fight
            odds, value = move_odds(g, m, None) if self.odds else (None, None)
            out.append(Choice(id=m.id, label=m.name, odds=odds, value=value, tags=tags,
                              data={"move": m.id}))
        return out

    def play_move(self) -> bool:
        """One player move, every prompt answered; False when no move can be made."""
        g = self.game
        refused: set[str] = set()
        for _ in range(20):
            choices = [c for c in self.move_choices() if c.id not in refused]
            if not choices:
                return False
            move = g.pack.moves[self.decide("move", choices).id]
            self.where = f"scene {self.scene}, move {move.id}"
            target = self.pick_target(move)
            try:
                events = g.trigger(move.id, target)
            except IllegalAction:
                refused.add(move.id)  # refused by the rules now (a cost it cannot pay...)
                continue
            if "protect" in _move_tags(g.pack, move.id):
                self.danger = False
            self.act(events)
            self.answer_prompts()
            self.result["moves"] += 1
            self.sample()
            return True
        return False

    def pick_target(self, move: s.Move) -> str | None:
        if move.target == "none":
            return None
        g = self.game
        options = g.targets_for(move)
        choices = []
        for o in options:
            odds, value = move_odds(g, move, o.id) if self.odds else (None, None)
            actor = g.state.actors[o.id]
            tags = {"ally"} if actor.kind == "hero" or actor.role in (
                "teammate", "ally", "hero_ally", "contact") else set()
            if actor.role == "villain":
                tags.add("attack")
            if actor.role == "bystander":
                tags |= {"protect", "defend"}
            choices.append(Choice(id=o.id, label=o.label, odds=odds, value=value,
                                  tags=frozenset(tags)))
        if move.target != "required":
            odds, value = move_odds(g, move, None) if self.odds else (None, None)
            choices.append(Choice(id="none", label="No one in particular", odds=odds,
                                  value=value))
        if not choices:
            return None
        return self.decide("target", choices).id

    def answer_prompts(self) -> None:
        g = self.game
        for _ in range(MAX_PROMPTS):
            stage = g.state.flow.stage
            if stage == "roll":
                self.before_roll()
                self.roll()
            elif stage == "adjust":
                self.act(g.adjust(self.pick_adjustment()))
            elif stage == "target":
                f = g.state.flow
                move = g.pack.moves[f.move or ""]
                self.act(g.choose_target(self.pick_target(move) or "none"))
            elif stage == "effects":
                prompt = g.pending
                if prompt.kind == "answer":
                    self.act(g.choose(["accept"]))
                else:
                    self.choose_options(prompt)
            else:
                return
        raise SimError(f"the move asked {MAX_PROMPTS} prompts and still asks (at {self.where}):"
                       " does the content trigger moves in a loop?")

    def before_roll(self) -> None:
        g = self.game
        f = g.state.flow
        move = g.pack.moves[f.move or ""]
        assert move.roll is not None
        if move.roll.stat == "choice" and not f.stat:
            choices = []
            for stat in move.roll.choices:
                odds, value = move_odds(g, move, f.target, stat) if self.odds else (None, None)
                choices.append(Choice(id=stat, label=stat, odds=odds, value=value))
            self.act(g.set_roll_options(stat=self.decide("stat", choices).id))
        decls = g.rules.declarations(g.state, move)
        if decls:
            choices = [Choice(id="", label="Declare nothing", value=0.0)] + [
                Choice(id=d.id, label=d.label, value=0.0,
                       tags=frozenset({"protect"} if d.id == g.rules.PROTECT else set()))
                for d in decls]
            picked = self.decide("option", choices).id
            if picked:
                self.act(g.declare(picked))
        for o in g.rules.pre_roll_options(g.state, move):
            if o.id not in {x.id for x in g.rules.pre_roll_options(g.state, move)}:
                continue  # taking an earlier one withdrew it (Masks: the last Team is spent)
            choices = [Choice(id="", label="No", value=0.0),
                       Choice(id=o.id, label=o.label, value=float(o.amount) / 10,
                              tags=frozenset({"spend"}))]
            picked = self.decide("option", choices).id
            if picked:
                self.act(g.pre_roll(picked))

    def roll(self) -> None:
        """Roll; a roll the rules refuse until something is declared (M&M: the skill used,
        the hazard faced) asks the policy for one of the declarations and rolls again."""
        g = self.game
        for _ in range(4):
            try:
                events = g.roll()
            except IllegalAction:
                f = g.state.flow
                move = g.pack.moves[f.move or ""]
                decls = [d for d in g.rules.declarations(g.state, move)
                         if d.id not in f.declared]
                if not decls:
                    raise
                choices = [Choice(id=d.id, label=d.label, value=0.0) for d in decls]
                self.act(g.declare(self.decide("option", choices).id))
                continue
            self.act(events)
            return
        raise SimError(f"the roll is still refused after declarations (at {self.where})")

    def pick_adjustment(self) -> str | None:
        g = self.game
        f = g.state.flow
        move = g.pack.moves[f.move or ""]
        assert f.roll is not None
        bands = resolve.roll_bands(g.pack, move, f.roll)
        tone = _tone_of(bands)
        now = tone.get(str(f.roll["band"]), 0.5)
        choices = [Choice(id="keep", label="Keep the result", value=0.0)]
        for a in g.rules.adjustments(g.state, move, f.roll):
            new = resolve.reband(f.roll, a.amount, bands, resolve.roll_clamp(g.pack, f.roll))
            gain = tone.get(str(new["band"]), 0.5) - now
            choices.append(Choice(id=a.id, label=a.label, value=gain - 0.01,
                                  tags=frozenset({"spend"})))
        picked = self.decide("adjust", choices).id
        return None if picked == "keep" else picked

    def choose_options(self, prompt: Prompt) -> None:
        """Answer a choice; an option the rules then refuse (it triggers a move the hero
        cannot make now) is struck and the policy asked again, as a player would."""
        refused: set[str] = set()
        while True:
            picked = self.pick_options(prompt, refused)
            try:
                events = self.game.choose(picked)
            except IllegalAction:
                if len(picked) != 1:
                    raise
                refused.add(picked[0])
                if not [o for o in prompt.options if not o.disabled and o.id not in refused]:
                    raise
                continue
            self.act(events)
            return

    def pick_options(self, prompt: Prompt, refused: set[str] = frozenset()  # type: ignore[assignment]
                     ) -> list[str]:
        g = self.game
        usable = [o for o in prompt.options if not o.disabled and o.id not in refused]
        if not usable:
            return []
        tags = _option_tags(g.pack, g.state.flow.move or "")
        want = max(prompt.min, min(prompt.max, len(usable)))
        picked: list[str] = []
        pool = list(usable)
        while len(picked) < want:
            if not pool:
                pool = list(usable)  # a list whose options may be picked again
            choices = [Choice(id=o.id, label=o.label or o.id, tags=tags.get(o.id, frozenset()))
                       for o in pool]
            c = self.decide("option", choices)
            picked.append(c.id)
            pool = [o for o in pool if o.id != c.id]
        return picked

    # -- scenes

    def play(self) -> None:
        g = self.game
        spec = self.spec
        heroes = list(g.state.party)
        fights = _fights() if self.fights else None
        for n in range(1, spec.scenes + 1):
            self.scene = n
            self.danger = False
            self.where = f"scene {n}, its start"
            if n > 1:  # the scene the GM proposes: a place, stakes, who is there
                frame = g.propose_scene()
                self.act(g.start_scene(frame.title or f"Scene {n}", frame.location,
                                       frame.stakes, frame.present, frame.opening))
            for i in range(spec.moves):
                if len(heroes) > 1:
                    hero = heroes[i % len(heroes)]
                    if g.state.acting != hero:
                        self.act(g.switch_hero(hero))
                if g.fighting or not self.play_move():
                    break
            if fights is not None:
                self.where = f"scene {n}, its fight"
                fights(g, spec, self.policy, self.rng, self.result, n)
            self.where = f"scene {n}, its end"
            if g.state.scene.open and g.state.flow.stage in ("fiction", "move"):
                self.act(g.end_scene())
            self.result["scenes"] += 1

    def finish(self) -> None:
        for t in self.game.state.threats.values():
            self.result["threats"].append({"id": t.id, "name": t.name, "clock": t.clock,
                                           "size": t.size, "doom_step": self.doom.get(t.id)})


def _fights() -> Callable[..., None] | None:
    """``engine.lab.fights.play_fight`` once it exists (None until then)."""
    try:
        module = importlib.import_module("engine.lab.fights")
    except ImportError:
        return None
    fn = getattr(module, "play_fight", None)
    return fn if callable(fn) else None


def _npcs(pack: Pack, chosen: Sequence[s.Archetype], heroes: list[str]
          ) -> list[tuple[str, str, str]]:
    """Up to three NPCs the heroes' archetypes suggest (theirs first, then the others'),
    then a villain and a bystander when the pack has those roles and none is there yet."""
    out: list[tuple[str, str, str]] = []
    names = set(heroes)
    roles = list(pack.system.roles)
    for a in [*chosen, *[x for x in pack.system.archetypes if x not in chosen]]:
        for npc in a.suggested_npcs:
            if len(out) < 3 and npc.name not in names and npc.role in roles:
                out.append((npc.name, npc.role, npc.note))
                names.add(npc.name)
    for role in ("villain", "bystander"):
        if role in roles and all(r != role for _n, r, _t in out):
            out.append((f"The {role.title()}", role, ""))
    if not out and roles:
        out.append((f"The {roles[0].replace('_', ' ').title()}", roles[0], ""))
    return out


def kept_id(spec: LabSpec, index: int) -> str:
    """The campaign id campaign ``index`` of ``spec`` is kept under (``spec.keep``)."""
    words = "-".join(re.findall(r"[a-z0-9]+", f"{Path(spec.system).name} {spec.policy}"
                                              .lower()))[:40].strip("-")
    return f"lab-{index}-s{spec.seed}-{words}".strip("-")


def _new_game(pack: Pack, spec: LabSpec, index: int, seed: int) -> Game:
    archetypes = pack.system.archetypes
    if not archetypes:
        raise SimError(f"{pack.system.name} has no archetypes to make heroes from")
    chosen = [archetypes[i % len(archetypes)] for i in range(max(1, spec.party))]
    names: list[str] = []
    for a in chosen:
        name = a.name
        k = 2
        while name in names:
            name, k = f"{a.name} {k}", k + 1
        names.append(name)
    kw: dict[str, Any] = dict(
        name=f"lab {spec.policy} #{index}", hero_name=names[0], archetype=chosen[0].id,
        npcs=_npcs(pack, chosen, names), seed=seed,
        party=[{"name": n, "archetype": a.id} for n, a in zip(names[1:], chosen[1:],
                                                                strict=True)])
    if spec.keep:
        from engine.campaigns import new_game

        content = [Path(c) for c in spec.content]
        if Path(spec.system).is_dir():
            content.append(Path(spec.system).resolve())
        cid = kept_id(spec, index)
        if (Path(spec.keep) / cid).exists():
            raise SimError(f"{Path(spec.keep) / cid} already holds a campaign: keep a run in"
                           " a folder of its own")
        return new_game(Path(spec.keep), system=pack.id, content=content, campaign_id=cid, **kw)
    return Game.new(pack, **kw)


def simulate(spec: LabSpec, index: int, policy: Policy | None = None) -> CampaignResult:
    """Play campaign ``index`` of ``spec`` and report it (``ok`` False with the error when
    the campaign itself fails). ``policy``: an instance to use instead of ``spec.policy``."""
    pack = pack_for(spec)
    policy = policy or load_policy(spec.policy)
    result = empty_result(spec, index, policy.name)
    seed = campaign_seed(spec.seed, index)
    game: Game | None = None
    driver: _Driver | None = None
    try:
        game = _new_game(pack, spec, index, seed)
        if spec.keep:
            result["kept"] = str(Path(spec.keep) / kept_id(spec, index))
        driver = _Driver(game, spec, policy, policy_rng(spec.seed, index), result)
        driver.act(game.last_events)
        driver.play()
    except Exception as e:  # a campaign's failure is its result, never a raise
        where = f" at {driver.where}" if driver is not None else " creating the campaign"
        msg = str(e) if isinstance(e, SimError) else f"{type(e).__name__}: {e}{where}"
        if not isinstance(e, EngineError):
            tb = traceback.extract_tb(e.__traceback__)[-1]
            msg += f" ({Path(tb.filename).name}:{tb.lineno})"
        result["ok"] = False
        result["error"] = f"{msg} [seed {seed}, index {index}]"
    finally:
        if driver is not None:
            driver.finish()
        if game is not None and spec.keep:
            from engine.campaigns import close_game

            close_game(game)
    return result
