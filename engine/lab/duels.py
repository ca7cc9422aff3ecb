"""Duels and skirmishes in the lab: side A's stat blocks against side B's, fights only, both
sides played by the same policy, many times over, and what they give (``DuelRecord``: the
winner, how it ended, rounds, turns, the side that acted first).

A fight is played by the game's fast duels when its ruleset has them (``Ruleset.duels()``
answering a ``Duels`` whose ``supports`` is None for these blocks) and the policy is one they
play (``FAST_POLICIES``), else as a whole ``Game``: the first block of side A is the hero (its
stat block its own), the others of A hero allies, side B's blocks villains (a minion group,
its members), no scenes, no moves. ``policy``: "referee" hands every character to the
referee's brain (it recovers, flees, surrenders); a lab policy ("greedy", "random", "story",
``module:Class``) takes every turn of both sides. A block's ``kind`` is kept on either side:
the referee's brain plays a villain's morale (broken and alone, it flees or surrenders) and a
hero's resolve, so a mirror duel is fair only between blocks of the same kind.

Fight ``index`` of a run plays with the dice seed ``campaign_seed(seed, index)`` and the
policy's draws ``policy_rng(seed, index)``, so a run is the same with any workers, and every
point of a sweep plays the same seeds (a difference between points is the blocks', not luck's).
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Any, cast

from engine.content.loader import Pack
from engine.errors import EngineError
from engine.game import Game
from engine.lab import sides
from engine.lab.fights import fight_decision, need_decision, pick
from engine.lab.model import LabSpec, campaign_seed, policy_rng
from engine.lab.policy import Policy, load_policy
from engine.lab.runner import _context, chunks, default_workers
from engine.lab.sim import pack_for
from engine.rules.base import Ruleset
from engine.rules.duel import DuelRecord, Duels, Ending, Winner
from engine.rules.events import DataSet
from engine.rules.fight.values import DieNeed
from engine.systems import ruleset_for

REFEREE = "referee"
"""The policy that hands both sides to the referee's brain."""
MAX_ROUNDS = 60
"""A fight still going after this many rounds is a stalemate (``--max-rounds``)."""
STEP_LIMIT = 20_000
"""Engine steps one fight may take before it is a stalemate all the same."""

FAST_POLICIES = (REFEREE, "greedy")
"""The policies a game's fast duels play (by name); any other plays whole games."""

SIDE_OF = {"heroes": "A", "villains": "B"}


class DuelError(EngineError):
    """A duel that cannot be played (a side the Game path cannot field)."""

    title = "Duel cannot be played"


@dataclass(frozen=True)
class DuelSpec:
    """A run of duels: the game, the two sides (stat blocks as JSON text), the policy, how
    many fights, the master seed and the round limit."""

    system: str
    a: tuple[str, ...]
    b: tuple[str, ...]
    policy: str = "greedy"
    runs: int = 100
    seed: int = 1
    max_rounds: int = MAX_ROUNDS
    content: tuple[str, ...] = ()
    exact: bool = True
    """Whether to work out the exact odds where the duel is small enough (``--no-exact``)."""

    def lab_spec(self) -> LabSpec:
        """The ``LabSpec`` naming the same pack (to load it as the lab does)."""
        return LabSpec(system=self.system, content=self.content)


def duel_pack(spec: DuelSpec) -> Pack:
    """The checked pack ``spec`` plays (loaded once per process)."""
    return pack_for(spec.lab_spec())


def fast_duels(pack: Pack) -> Duels | None:
    """The ruleset's fast duels, or None when it has none."""
    rules: Ruleset = ruleset_for(pack)
    hook = cast(Callable[[], Duels | None], getattr(rules, "duels", lambda: None))
    return hook()


def check_policy(policy: str) -> Policy | None:
    """The lab policy ``policy`` names, None for the referee; ``IllegalAction`` otherwise."""
    return None if policy == REFEREE else load_policy(policy)


# ---------------------------------------------------------------------------- the Game path


def _unique(blocks_a: list[sides.Block], blocks_b: list[sides.Block]) -> None:
    """Rename (in place) blocks whose names another block has already: ``Keystone (B)``."""
    seen: set[str] = set()
    for side, blocks in (("A", blocks_a), ("B", blocks_b)):
        for b in blocks:
            name = str(b.get("name", "?"))
            k = 2
            base = name
            while name.lower() in seen:
                name = f"{base} ({side})" if k == 2 else f"{base} ({side}{k})"
                k += 1
            seen.add(name.lower())
            b["name"] = name


def _role(block: Mapping[str, Any], side: str) -> str:
    kind = str(block.get("kind", ""))
    if side == "A":
        return "hero_ally"
    return "minion" if "group" in kind or kind == "minion" else "villain"


def check_game_sides(a: Sequence[Mapping[str, Any]]) -> None:
    """``DuelError`` when side A cannot be fielded in a game: its first block must be one
    character (the hero), and no block of it a group (hero allies come one by one)."""
    if any(sides.group_size(x) for x in a):
        raise DuelError("side A cannot have a group (of minions, of thugs) when the duel is"
                        " played as a game: put the group on side B")


def check(spec: DuelSpec) -> None:
    """``DuelError`` when ``spec``'s fights cannot be played (before any is)."""
    if path_of(spec) == "game":
        check_game_sides(sides.load(spec.a))


def new_duel_game(pack: Pack, a: list[sides.Block], b: list[sides.Block], seed: int
                  ) -> tuple[Game, list[str]]:
    """A game whose hero is side A's first block, with the other blocks as NPCs of the
    scene carrying their own stat blocks; the game and the ids to start the fight against."""
    a, b = [dict(x) for x in a], [dict(x) for x in b]
    _unique(a, b)
    check_game_sides(a)
    archetypes = pack.system.archetypes
    if not archetypes:
        raise DuelError(f"{pack.system.name} has no archetypes to seat a hero")
    hero_block = dict(a[0])  # its kind kept: the referee plays a villain's morale on side A too
    npcs: list[tuple[str, sides.Block, str]] = []
    for side, blocks in (("A", a[1:]), ("B", b)):
        for blk in blocks:
            count = sides.group_size(blk)
            names = [f"{blk['name']} {i}" for i in range(1, count + 1)] if count else [
                str(blk["name"])]
            for n in names:
                npcs.append((n, blk, _role(blk, side)))
    game = Game.new(pack, name="lab duel", hero_name=str(a[0]["name"]),
                    archetype=archetypes[0].id, hero_data={"statblock": hero_block},
                    npcs=[(n, role, "") for n, _b, role in npcs],
                    present=[n for n, _b, _r in npcs], seed=seed)
    ids: list[str] = []
    # each NPC plays its own block, set as its system data (``DataSet``, as ``npc_block`` sets
    # a pack block's id), in one action of the game's own (the lab reaches in, as sim does)
    with game._action("the lab: the duel's stat blocks"):
        for n, blk, _r in npcs:
            npc = game.state.npc_by_name(n)
            assert npc is not None
            game._emit(DataSet(scope=npc.id, key="statblock", value=blk))
            if sides.group_size(blk):
                game._emit(DataSet(scope=npc.id, key="group",
                                   value=sides.block_key(str(blk["name"]))))
            ids.append(npc.id)
    return game, ids


@dataclass
class _Tally:
    """What the events of one fight have said so far."""

    turns: int = 0
    first: str = ""
    result: str = ""
    ending: str = ""
    steps: int = 0
    rounds: int = 0
    left: dict[str, str] = field(default_factory=dict)

    def take(self, game: Game, events: Sequence[Mapping[str, Any]]) -> None:
        self.steps += 1
        for ev in events:
            kind = ev.get("type")
            if kind == "TurnBegan":
                self.turns += 1
                self.rounds = max(self.rounds, int(ev.get("round", 0) or 0))
                if not self.first:
                    self.first = _side(game, str(ev.get("actor")))
            elif kind == "FightEnded":
                self.result = str(ev.get("result", ""))
                self.ending = str(ev.get("ending") or "")
            elif kind == "CombatantLeft":
                self.left[str(ev.get("actor"))] = str(ev.get("how", ""))


def _side(game: Game, actor: str) -> str:
    fight = game.fight
    if fight is not None and fight.encounter.has(actor):
        return SIDE_OF.get(fight.encounter.participant(actor).side, "B")
    return "A" if actor in game.state.party else "B"


def _hand_over(game: Game, policy: Policy | None) -> None:
    """Who plays whom: everyone the referee's (``policy`` None), else everyone the lab's."""
    fight = game.fight
    assert fight is not None
    for p in fight.encounter.participants:
        referee = fight.controller(game.state.actors[p.actor]) == "referee"
        if policy is None and not referee:
            game.take_over(p.actor, player=False)
        elif policy is not None and referee:
            game.take_over(p.actor, player=True)


def _turn(game: Game, policy: Policy, rng: Any, used: dict[tuple[int, str], list[str]]
          ) -> list[Any]:
    """The acting character's next action by ``policy`` (each action once a turn), or the
    end of its turn."""
    fight = game.fight
    assert fight is not None and fight.encounter.acting is not None
    key = (fight.encounter.round, fight.encounter.acting)
    done = used.setdefault(key, [])
    decision = fight_decision(game, done)
    if len(decision.choices) == 1:
        return game.end_turn()
    data = pick(policy, decision, rng).data
    action = str(data["action"])
    if action == "end_turn":
        return game.end_turn()
    done.append(action)
    return game.fight_act(action, target=data.get("target"), attack=data.get("attack"),
                          options=data.get("options"))


def _ending(game: Game, tally: _Tally, winner: Winner, left: Mapping[str, str]) -> Ending:
    """How the fight ended: the FightEnded event's word when it carries one, else read from
    who left the losing side (fled, surrendered) or was taken out."""
    if tally.ending in ("knocked_out", "fled", "surrendered", "stalemate"):
        return cast(Ending, tally.ending)
    if winner == "nobody":
        return "stalemate" if tally.result.startswith("stalemate") else "knocked_out"
    loser = "B" if winner == "A" else "A"
    hows = [how for actor, how in left.items() if tally_side(game, actor) == loser]
    if "fled" in hows:
        return "fled"
    if "surrendered" in hows:
        return "surrendered"
    return "knocked_out"


def tally_side(game: Game, actor: str) -> str:
    """The side (A or B) of a character of a duel game."""
    a = game.state.actors.get(actor)
    if a is None:
        return "B"
    return "A" if a.kind == "hero" or a.role in ("hero_ally", "ally") else "B"


WINNERS: dict[str, Winner] = {"the heroes win": "A", "the villains win": "B"}


def play_game_duel(pack: Pack, a: list[sides.Block], b: list[sides.Block], seed: int,
                   policy: Policy | None, rng: Any, max_rounds: int = MAX_ROUNDS
                   ) -> DuelRecord:
    """One fight of side A against side B played through ``Game`` (see the module)."""
    game, foes = new_duel_game(pack, a, b, seed)
    tally = _Tally()
    tally.take(game, game.start_fight(foes))
    _hand_over(game, policy)
    used: dict[tuple[int, str], list[str]] = {}
    stalemate = False
    while game.fighting:
        fight = game.fight
        assert fight is not None
        need = game.fight_need
        if need is None and (fight.encounter.round > max_rounds or tally.steps > STEP_LIMIT):
            tally.take(game, game.end_fight(f"stalemate: nobody could finish it in"
                                            f" {max_rounds} rounds"))
            stalemate = True
            break
        if need is not None:
            if isinstance(need, DieNeed):
                raise DuelError(f"the fight waits for a d{need.sides}: {need.who}")
            chooser = policy or load_policy("greedy")
            tally.take(game, game.fight_choose(pick(chooser, need_decision(game, need),
                                                     rng).id))
        elif game.referee_turn:
            tally.take(game, game.referee_step())
        else:
            tally.take(game, _turn(game, policy or load_policy("greedy"), rng, used))
    winner: Winner = "nobody" if stalemate else WINNERS.get(tally.result, "nobody")
    ending: Ending = "stalemate" if stalemate else _ending(game, tally, winner, tally.left)
    return DuelRecord(winner=winner, ending=ending, rounds=tally.rounds, turns=tally.turns,
                      first=cast(Any, tally.first or "A"))


# ---------------------------------------------------------------------------- one and many


def play_duel(spec: DuelSpec, index: int, a: Sequence[str] | None = None,
              b: Sequence[str] | None = None) -> DuelRecord:
    """Fight ``index`` of ``spec`` (``a``/``b``: other blocks, a sweep's point)."""
    pack = duel_pack(spec)
    seed = campaign_seed(spec.seed, index)
    fast = fast_duels(pack) if _fast_spec(spec) else None
    if fast is not None:  # the same block objects every fight: read by the fast duels once
        read_a, read_b = _loaded(tuple(a or spec.a)), _loaded(tuple(b or spec.b))
        if fast.supports(read_a, read_b) is None:
            return fast.play(read_a, read_b, seed, spec.policy)
    blocks_a, blocks_b = sides.load(a or spec.a), sides.load(b or spec.b)
    return play_game_duel(pack, blocks_a, blocks_b, seed, check_policy(spec.policy),
                          policy_rng(spec.seed, index), spec.max_rounds)


def _fast_spec(spec: DuelSpec) -> bool:
    """Whether the game's fast duels may play ``spec``: a policy they play, and the round
    limit theirs (``MAX_ROUNDS``: they call a stalemate there)."""
    return spec.policy in FAST_POLICIES and spec.max_rounds == MAX_ROUNDS


@lru_cache(maxsize=64)
def _loaded(blocks: tuple[str, ...]) -> tuple[Mapping[str, Any], ...]:
    """``sides.load`` once for the fast duels, which only read the blocks."""
    return tuple(sides.load(blocks))


def path_of(spec: DuelSpec) -> str:
    """Which way ``spec``'s fights are played: "fast" (the game's fast duels) or "game"."""
    fast = fast_duels(duel_pack(spec)) if _fast_spec(spec) else None
    ok = fast is not None and fast.supports(sides.load(spec.a), sides.load(spec.b)) is None
    return "fast" if ok else "game"


def exact(spec: DuelSpec, a: Sequence[str] | None = None, b: Sequence[str] | None = None
          ) -> Mapping[Winner, Fraction] | None:
    """The exact chance of each winner of a one-on-one duel, when the game's fast duels can
    enumerate it; else None."""
    if not spec.exact:
        return None
    blocks_a, blocks_b = sides.load(a or spec.a), sides.load(b or spec.b)
    if len(blocks_a) != 1 or len(blocks_b) != 1 or any(sides.group_size(x) for x in
                                                       (*blocks_a, *blocks_b)):
        return None
    fast = fast_duels(duel_pack(spec)) if _fast_spec(spec) else None
    if fast is None or fast.supports(blocks_a, blocks_b) is not None:
        return None
    return fast.exact(blocks_a[0], blocks_b[0], spec.policy)


Job = tuple[DuelSpec, int, tuple[str, ...], tuple[str, ...]]
"""One fight to play: the spec, its index and the two sides' blocks."""


def _play_jobs(jobs: Sequence[Job]) -> list[DuelRecord | str]:
    out: list[DuelRecord | str] = []
    for spec, index, a, b in jobs:
        try:
            out.append(play_duel(spec, index, a, b))
        except Exception as e:  # one fight's failure is reported, the run goes on
            out.append(f"fight {index} (seed {campaign_seed(spec.seed, index)}):"
                       f" {type(e).__name__}: {e}")
    return out


def play_all(jobs: Sequence[Job], workers: int | None = None,
             progress: Callable[[int, int], None] | None = None) -> list[DuelRecord | str]:
    """Every fight of ``jobs``, in order (an error as text in its place): in this process
    with one worker, else in worker processes (the same records whatever the workers)."""
    n = min(workers or default_workers(), max(1, len(jobs)))
    for spec in {j[0] for j in jobs}:
        duel_pack(spec)  # loaded before the workers fork
    if n == 1:
        out: list[DuelRecord | str] = []
        for part in chunks(list(range(len(jobs))), 1):
            out += _play_jobs([jobs[i] for i in part])
            if progress:
                progress(len(out), len(jobs))
        return out
    parts = chunks(list(range(len(jobs))), n)
    results: list[list[DuelRecord | str]] = []
    gc.freeze()
    try:
        with ProcessPoolExecutor(max_workers=n, mp_context=_context()) as pool:
            for done in pool.map(_play_jobs, [[jobs[i] for i in p] for p in parts]):
                results.append(done)
                if progress:
                    progress(sum(len(r) for r in results), len(jobs))
    finally:
        with contextlib.suppress(Exception):
            gc.unfreeze()
    return [r for part in results for r in part]
