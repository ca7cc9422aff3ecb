"""Properties, checked by hypothesis over random play.

* every total falls in exactly one band of every band set;
* the roll modifier stays in [-3, +4] whatever its sources;
* random moves, dice and choices never leave the state out of bounds;
* replaying the event log onto the initial state rebuilds the live state;
* undo restores the state exactly.

The ``new_game`` factory fixture is stateless (each call builds a fresh game), so sharing it
across hypothesis examples is safe; the health check about function-scoped fixtures is off.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.content.loader import Pack, check_bands
from engine.content.schema import Band
from engine.errors import IllegalAction
from engine.game import Game
from engine.odds import band_of
from engine.rules import events as ev
from engine.rules.state import CampaignState
from engine.systems.masks.rules import InfluenceChanged

NewGame = Callable[..., Game]
CONDITIONS = ["afraid", "angry", "guilty", "hopeless", "insecure"]
LABELS = ["danger", "freak", "savior", "superior", "mundane"]
PLAY = settings(max_examples=60, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture,
                                       HealthCheck.too_slow])


def holders(total: int, bands: list[Any]) -> list[str]:
    return [b.id for b in bands
            if (b.min is None or total >= b.min) and (b.max is None or total <= b.max)]


# --------------------------------------------------------------------------- bands


@given(total=st.integers(-40, 60))
@settings(max_examples=150, deadline=None)
def test_every_total_is_in_exactly_one_masks_band(masks: Pack, total: int) -> None:
    for name, bands in masks.system.bands.items():
        found = holders(total, bands)
        assert len(found) == 1, (name, total, found)
        assert band_of(total, bands) == found[0]


@st.composite
def band_sets(draw: st.DrawFn) -> list[Band]:
    """A cover of all integers: sorted distinct cut points, bands between them."""
    cuts = sorted(draw(st.sets(st.integers(-10, 30), min_size=1, max_size=5)))
    bands = [Band(id="b0", name="B0", max=cuts[0] - 1)]
    for i, (lo, hi) in enumerate(zip(cuts, [*cuts[1:], None], strict=True), 1):
        bands.append(Band(id=f"b{i}", name=f"B{i}", min=lo, max=None if hi is None else hi - 1))
    return draw(st.permutations(bands))


@given(bands=band_sets(), total=st.integers(-60, 80))
@settings(max_examples=200, deadline=None)
def test_generated_band_sets_cover_every_total_once(bands: list[Band], total: int) -> None:
    assert check_bands("x", bands) == []
    found = holders(total, bands)
    assert len(found) == 1
    assert band_of(total, bands) == found[0]


@given(bands=band_sets(), data=st.data())
@settings(max_examples=100, deadline=None)
def test_a_gap_or_overlap_is_always_reported(bands: list[Band], data: st.DataObject) -> None:
    bounded = [b for b in bands if b.max is not None]
    victim = data.draw(st.sampled_from(bounded))
    shift = data.draw(st.sampled_from([-1, 1]))
    broken = [b if b is not victim else Band(id=b.id, name=b.name, min=b.min,
                                             max=b.max + shift) for b in bands]
    if victim.min is not None and victim.max + shift < victim.min:
        return  # the band would be empty; a different problem
    problems = check_bands("x", broken)
    word = "gap" if shift < 0 else "overlap"
    assert any(word in p for p in problems), problems


# --------------------------------------------------------------------------- the clamp


@given(data=st.data())
@settings(max_examples=80, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_modifier_is_clamped_whatever_the_sources(new_game: NewGame, h: Any, masks: Pack,
                                                  data: st.DataObject) -> None:
    game = new_game()
    labels = {k: data.draw(st.integers(-2, 3), label=k) for k in LABELS}
    conds = data.draw(st.lists(st.sampled_from(CONDITIONS), unique=True), label="conditions")
    bonuses = data.draw(st.lists(st.tuples(st.sampled_from(["forward", "ongoing"]),
                                           st.integers(-2, 3)), max_size=4), label="bonuses")
    influence = data.draw(st.booleans(), label="influence")
    spend = data.draw(st.integers(0, 3), label="team spent")
    move_id = data.draw(st.sampled_from(["provoke", "pierce_the_mask", "comfort_support",
                                         "reject_influence", "defend_someone"]), label="move")
    setup: list[ev.Event] = [
        ev.LabelsShifted(changes={}, values=labels),
        *[ev.ConditionMarked(who="hero", condition=c) for c in conds],
        *[ev.BonusAdded(id=100 + i, kind=k, amount=a, moves=[], target=None, expires="scene",
                        reason="test") for i, (k, a) in enumerate(bonuses)],
        ev.TrackChanged(track="team", scope="campaign", delta=0, value=spend),
        # Bo tells the hero who they are, so Reject Influence can target Bo
        InfluenceChanged(npc="bo", direction="over_hero", held=True),
    ]
    if influence:
        setup.append(InfluenceChanged(npc="bo", direction="hero_over", held=True))
    h.setup(game, *setup)
    game.trigger(move_id, "Bo")
    for _ in range(spend):
        game.spend_team()
    preview = game.pending.preview.to_dict()
    stat = {"provoke": "superior", "pierce_the_mask": "mundane", "comfort_support": "mundane",
            "reject_influence": None, "defend_someone": "savior"}[move_id]
    penalty = sum(-2 for c in conds if move_id in masks.conditions[c].penalises)
    raw = ((labels[stat] if stat else 0) + penalty + sum(a for _, a in bonuses)
           + (1 if influence else 0) + spend)
    assert preview["raw_modifier"] == raw
    assert preview["modifier"] == max(-3, min(4, raw))
    assert -3 <= preview["modifier"] <= 4
    rolled = h.of(game.roll([3, 3]), "Rolled")[0]
    assert rolled["modifier"] == preview["modifier"]
    assert rolled["total"] == 6 + preview["modifier"]


# --------------------------------------------------------------------------- random play

MOVES_TO_TRY = [
    "directly_engage", "unleash_powers", "defend_someone", "assess_situation", "provoke",
    "comfort_support", "pierce_the_mask", "take_powerful_blow", "wield_powers", "overwhelm_foe",
    "persuade_interests", "empathize", "stand_up", "reject_influence",
    "take_advantage_influence", "give_influence", "accept_influence", "enter_battle",
    "act_selfishly", "time_passes", "moment_of_truth", "start_of_session",
]
TABLE_ACTIONS = ["end_scene", "start_scene", "ask_gm", "clearing", "undo", "end_session"]


def check_bounds(game: Game) -> None:
    st_ = game.state
    for k, v in st_.hero.stats.items():
        assert -2 <= v <= 3, (k, v)
    assert 0 <= st_.hero.tracks["potential"] <= 5
    assert st_.pools["team"] >= 0
    for conds in [st_.hero.conditions, *[n.conditions for n in st_.npcs.values()]]:
        assert set(conds) <= set(CONDITIONS)
        assert len(conds) == len(set(conds))
    assert len(st_.hero.locked) == len(set(st_.hero.locked))
    assert len({b.id for b in st_.bonuses}) == len(st_.bonuses)


def attempt(game: Game, h: Any, action: Callable[[], Any], log: list[str], what: str) -> bool:
    """Run one action; if it is refused, the state must be exactly as before."""
    before = h.dump(game)
    n_events = len(game.store.log)
    try:
        action()
    except IllegalAction:
        assert h.dump(game) == before, what
        assert len(game.store.log) == n_events
        return False
    log.append(what)
    for e in game.last_events:
        if e["type"] == "Rolled":
            assert -3 <= e["modifier"] <= 4
    check_bounds(game)
    return True


def answer_prompts(game: Game, h: Any, data: st.DataObject, log: list[str]) -> None:
    for _ in range(40):
        stage = game.state.flow.stage
        if stage in ("fiction", "move"):
            return
        if stage == "target":
            opts = [o.id for o in game.pending.options]
            pick = data.draw(st.sampled_from(opts), label="target")
            if not attempt(game, h, lambda o=pick: game.choose_target(o), log, f"target {pick}"
                           ) and not any(attempt(game, h, lambda o=o: game.choose_target(o),
                                                 log, f"target {o}") for o in opts):
                # nobody fits (take advantage of Influence you hold over no one): back out
                assert attempt(game, h, game.undo, log, "undo")
        elif stage == "roll":
            if data.draw(st.booleans(), label="spend team") and game.state.pools["team"] > 0:
                attempt(game, h, game.spend_team, log, "spend team")
            faces = data.draw(st.lists(st.integers(1, 6), min_size=2, max_size=2), label="dice")
            attempt(game, h, lambda f=faces: game.roll(f), log, f"roll {faces}")
        elif stage == "adjust":
            opts = [o.id for o in game.pending.options]
            pick = data.draw(st.sampled_from(opts), label="adjust")
            attempt(game, h, lambda p=pick: game.adjust(p), log, f"adjust {pick}")
        else:
            p = game.pending
            opts = [o.id for o in p.options]
            count = data.draw(st.integers(p.min, min(p.max, len(opts))), label="count")
            ids = data.draw(st.permutations(opts), label="options")[:count]
            if not attempt(game, h, lambda i=ids: game.choose(i), log, f"choose {ids}"):
                # refused (say, Influence to someone barred): try each option alone
                need = max(p.min, 1)
                for o in opts:
                    if attempt(game, h, lambda o=o, n=need: game.choose([o] * n), log,
                               f"choose {o}"):
                        break
                else:
                    raise AssertionError(f"no answer accepted for {p.message!r}")
    raise AssertionError("prompts never ended")


def random_play(game: Game, h: Any, data: st.DataObject, steps: int, log: list[str]) -> None:
    npcs = list(game.state.npcs)
    for _ in range(steps):
        kind = data.draw(st.sampled_from(["move"] * 4 + TABLE_ACTIONS), label="kind")
        if kind == "move":
            move_id = data.draw(st.sampled_from(MOVES_TO_TRY), label="move")
            move = game.pack.moves[move_id]
            target = None
            if move.target != "none":
                target = data.draw(st.sampled_from([None, *npcs]), label="target")
            attempt(game, h, lambda m=move_id, t=target: game.trigger(m, t), log,
                    f"{move_id} -> {target}")
        elif kind == "end_scene":
            cleared = data.draw(st.lists(st.sampled_from(CONDITIONS), unique=True), label="clr")
            attempt(game, h, lambda c=cleared: game.end_scene(c), log, f"end scene {cleared}")
        elif kind == "start_scene":
            attempt(game, h, lambda: game.start_scene("Next"), log, "start scene")
        elif kind == "ask_gm":
            attempt(game, h, game.ask_gm, log, "ask gm")
        elif kind == "clearing":
            c = data.draw(st.sampled_from(CONDITIONS), label="clearing")
            attempt(game, h, lambda c=c: game.took_clearing_action(c), log, f"clearing {c}")
        elif kind == "end_session":
            attempt(game, h, game.end_session, log, "end session")
        elif kind == "undo":
            attempt(game, h, game.undo, log, "undo")
        answer_prompts(game, h, data, log)


def start_game(new_game: NewGame, h: Any, data: st.DataObject) -> Game:
    archetype = data.draw(st.sampled_from(["signal_fire", "pawnshop_paladin", "margin_runner",
                                           "heir_apparent", "stitchwork"]), label="archetype")
    game = new_game(archetype=archetype, seed=data.draw(st.integers(0, 10**6), label="seed"))
    flags = data.draw(st.lists(st.sampled_from(["adult_moves", "moment_of_truth_unlocked"]),
                               unique=True), label="flags")
    if flags:
        h.setup(game, *[ev.FlagSet(flag=f) for f in flags])
    return game


@given(data=st.data(), steps=st.integers(1, 12))
@PLAY
def test_random_play_stays_in_bounds(new_game: NewGame, h: Any, data: st.DataObject,
                                     steps: int) -> None:
    game = start_game(new_game, h, data)
    log: list[str] = []
    random_play(game, h, data, steps, log)
    check_bounds(game)


@given(data=st.data(), steps=st.integers(1, 12))
@PLAY
def test_replaying_the_log_rebuilds_the_live_state(new_game: NewGame, h: Any,
                                                   data: st.DataObject, steps: int) -> None:
    game = start_game(new_game, h, data)
    random_play(game, h, data, steps, [])
    state = CampaignState.model_validate(game.store.initial)
    registry = game.rules.registry  # the log is read with the campaign's ruleset
    for d in game.store.log:
        registry.apply(state, registry.decode(d))
    assert state.model_dump(mode="json") == h.dump(game)
    assert state.event_no == len(game.store.log)
    # and the dict form of every event survives a JSON round trip unchanged
    for d in game.store.log:
        assert registry.decode(json.loads(json.dumps(d))).to_dict() == {
            k: v for k, v in d.items() if k not in ("n", "a")}


@given(data=st.data(), steps=st.integers(1, 8))
@PLAY
def test_undo_restores_the_state_before_each_action(new_game: NewGame, h: Any,
                                                    data: st.DataObject, steps: int) -> None:
    game = start_game(new_game, h, data)
    random_play(game, h, data, steps, [])
    # undo everything, one action at a time, checking each state against a replay
    history: list[dict[str, Any]] = []
    state = CampaignState.model_validate(game.store.initial)
    last_action = 0
    for d in game.store.log:
        if d["a"] != last_action:
            history.append(state.model_dump(mode="json"))
            last_action = d["a"]
        game.rules.registry.apply(state, game.rules.registry.decode(d))
    # history[i] is the state before action i + 1
    while game.state.action_no > 1:
        a = game.state.action_no
        game.undo()
        assert h.dump(game) == history[a - 1]
        check_bounds(game)
