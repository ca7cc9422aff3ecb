"""Rolls against anything: a ruleset chooses a roll's bands when it is made and may let the dice
override the band; one function (``resolve.reband``) re-bands a roll after a modifier changes.

``DCRules`` is a small test ruleset (Masks content, DC-style bands): a roll against a villain is
against DC 10, any other roll against DC 8; a miss is below the DC, a weak hit up to DC+4, a
strong hit from DC+5 (degrees every 5 points). Double sixes are always a strong hit ("boxcars"),
double ones always a miss ("snake eyes"). It proves the seam end to end: the preview's exact odds,
the roll's band, the adjusted roll, the journal line and the app's text.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Callable, Iterator, Sequence
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine.systems as rules_pkg
from engine.content import schema as s
from engine.content.loader import Pack
from engine.dice import DiceSpec, Roll
from engine.game import Game
from engine.journal import render, roll_why
from engine.odds import band_odds, band_odds_by_faces, band_of, percent
from engine.prompts import RollPrompt
from engine.rules import events as ev
from engine.rules import resolve
from engine.rules.base import BandOverride
from engine.rules.state import CampaignState
from engine.systems.masks.rules import MasksRules

NewGame = Callable[..., Game]
FLAT = {"danger": 1, "freak": 1, "savior": 1, "superior": 0, "mundane": 0}
NPCS = [("Ada Vance", "adult", "a mentor"), ("Vic Rook", "villain", "wants the city dark"),
        ("Bo", "bystander", "films everything")]


def dc_bands(dc: int) -> list[s.Band]:
    """Miss below ``dc``, weak hit ``dc``..``dc+4``, strong hit from ``dc+5``."""
    return [s.Band(id="miss", name="Miss", max=dc - 1, tone="bad"),
            s.Band(id="weak_hit", name="Weak hit", min=dc, max=dc + 4, tone="mixed"),
            s.Band(id="strong_hit", name="Strong hit", min=dc + 5, tone="good")]


class DCRules(MasksRules):
    """Masks with DC-style bands chosen per target and double sixes / double ones."""

    id = "dc_test"

    def bands_for(self, state: CampaignState, move: s.Move, target: str | None
                  ) -> list[s.Band]:
        """DC 10 against a villain, DC 8 otherwise; inverted moves keep their fixed bands."""
        assert move.roll is not None
        if move.roll.inverted:
            return self.pack.bands_for(move)
        villain = target is not None and state.actors[target].role == "villain"
        return dc_bands(10 if villain else 8)

    def band_override(self, state: CampaignState, move: s.Move, faces: Sequence[int],
                      band: str) -> BandOverride | None:
        """Boxcars hit, snake eyes miss."""
        if len(faces) == 2 and all(f == 6 for f in faces):
            return BandOverride("strong_hit", "boxcars")
        if len(faces) == 2 and all(f == 1 for f in faces):
            return BandOverride("miss", "snake eyes")
        return None


@pytest.fixture
def dc_game(masks: Pack, monkeypatch: pytest.MonkeyPatch) -> Iterator[Game]:
    """A one-hero Masks campaign (FLAT: Danger +1) played by ``DCRules``."""
    monkeypatch.setitem(rules_pkg.RULESETS, "dc_test", f"{__name__}:DCRules")
    pack = dataclasses.replace(masks, system=masks.system.model_copy(update={"ruleset":
                                                                            "dc_test"}))
    game = Game.new(pack, name="DC", hero_name="Nova", stats=dict(FLAT), npcs=NPCS, seed=7)
    assert isinstance(game.rules, DCRules)
    yield game


def npc(game: Game, name: str) -> str:
    found = game.state.npc_by_name(name)
    assert found is not None
    return found.id


def brute_odds(modifier: int, dc: int) -> dict[str, str]:
    """The DC rules' odds for 2d6 + ``modifier``, counted face by face."""
    counts = {"miss": 0, "weak_hit": 0, "strong_hit": 0}
    for a, b in itertools.product(range(1, 7), repeat=2):
        total = a + b + modifier
        band = "miss" if total < dc else "weak_hit" if total <= dc + 4 else "strong_hit"
        if a == b == 6:
            band = "strong_hit"
        elif a == b == 1:
            band = "miss"
        counts[band] += 1
    return {k: percent(Fraction(n, 36)) for k, n in counts.items()}


def rolled(events: list[dict[str, Any]]) -> dict[str, Any]:
    return next(e for e in events if e["type"] == "Rolled")


def outcome(events: list[dict[str, Any]]) -> str:
    return str(next(e for e in events if e["type"] == "OutcomeReached")["band"])


# ------------------------------------------------------------------ the seam, end to end


def test_the_preview_shows_the_bands_chosen_for_the_target_and_their_exact_odds(
        dc_game: Game) -> None:
    vic = npc(dc_game, "Vic Rook")
    bo = npc(dc_game, "Bo")
    pv = dc_game.preview("directly_engage", vic)
    assert pv.bands_chosen
    assert [(b["id"], b["min"], b["max"]) for b in pv.bands] == [
        ("miss", None, 9), ("weak_hit", 10, 14), ("strong_hit", 15, None)]
    # 2d6+1 vs DC 10: a miss is 2d6 <= 8 (26 of 36); 9-12 a weak hit (10), but 6-6 is
    # boxcars: a strong hit that no total reaches (1 of 36)
    assert pv.odds == {"miss": "72.2%", "weak_hit": "25.0%", "strong_hit": "2.8%"}
    assert pv.odds == brute_odds(1, 10)
    # against a bystander the DC is 8: other bands, other odds
    other = dc_game.preview("directly_engage", bo)
    assert [b["max"] for b in other.bands] == [7, 12, None]
    assert other.odds == brute_odds(1, 8)
    assert other.odds != pv.odds


def test_the_pending_roll_prompt_previews_against_its_target(dc_game: Game) -> None:
    dc_game.trigger("directly_engage", npc(dc_game, "Vic Rook"))
    pv = dc_game.pending.preview.to_dict()
    assert pv["bands_chosen"] is True
    assert [b["max"] for b in pv["bands"]] == [9, 14, None]
    assert pv["odds"] == brute_odds(1, 10)


def test_a_fixed_band_ruleset_previews_the_packs_bands(new_game: NewGame) -> None:
    game = new_game()
    pv = game.preview("directly_engage")
    assert not pv.bands_chosen
    assert [(b["id"], b["min"], b["max"]) for b in pv.bands] == [
        ("miss", None, 6), ("weak_hit", 7, 9), ("strong_hit", 10, None)]


def test_the_roll_is_banded_against_the_dc_and_records_its_bands(dc_game: Game) -> None:
    vic = npc(dc_game, "Vic Rook")
    dc_game.trigger("directly_engage", vic)
    # 5+4+1 = 10: a strong hit under Masks's fixed bands, a weak hit against DC 10
    events = dc_game.roll([5, 4])
    if dc_game.state.flow.stage == "adjust":
        events += dc_game.adjust("keep")
    r = rolled(events)
    assert (r["total"], r["band"], r["band_name"], r["tone"]) == (10, "weak_hit", "Weak hit",
                                                                   "mixed")
    assert r["bands"] == resolve.band_dicts(dc_bands(10))
    assert r.get("override") is None
    assert r["odds"] == brute_odds(1, 10)
    assert outcome(events) == "weak_hit"
    line = render(r)
    assert line is not None
    assert "= **10** → **Weak hit**; chance of this result 25.0%." in line
    assert line.endswith("Bands: Miss ≤9 · Weak hit 10-14 · Strong hit 15+.")


def test_the_dice_override_the_band_and_the_roll_says_why(dc_game: Game) -> None:
    vic = npc(dc_game, "Vic Rook")
    dc_game.trigger("directly_engage", vic)
    events = dc_game.roll([6, 6])  # 13: a weak hit by the total, boxcars make it strong
    r = rolled(events)
    assert (r["total"], r["band"], r["band_name"]) == (13, "strong_hit", "Strong hit")
    assert r["override"] == {"from": "weak_hit", "why": "boxcars"}
    assert outcome(events) == "strong_hit"
    assert ("→ **Strong hit** (boxcars; the total gave Weak hit);"
            " chance of this result 2.8%.") in roll_why(r)


def test_snake_eyes_miss_whatever_the_total(dc_game: Game) -> None:
    bo = npc(dc_game, "Bo")
    dc_game.trigger("directly_engage", bo)
    events = dc_game.roll([1, 1])  # 3 vs DC 8 is a miss anyway: nothing is overridden
    assert rolled(events).get("override") is None


    class LowDC(DCRules):
        def bands_for(self, state: CampaignState, move: s.Move, target: str | None
                      ) -> list[s.Band]:
            return dc_bands(4)

    roll = Roll.of(DiceSpec.parse("2d6"), [1, 1])
    move = dc_game.pack.moves["directly_engage"]
    got = resolve.resolve(dc_game.state, dc_game.pack, LowDC(dc_game.pack), move, bo, roll, 0,
                          extras=[["a blessing", 2, None]])  # 1+1+3 = 5: a weak hit by total
    assert (got.total, got.band, got.override) == (5, "miss", {"from": "weak_hit",
                                                                "why": "snake eyes"})


def test_spending_team_re_bands_against_the_bands_the_roll_used(dc_game: Game, h: Any) -> None:
    vic = npc(dc_game, "Vic Rook")
    old = dc_game.state.pools["team"]
    h.setup(dc_game, ev.TrackChanged(track="team", scope="campaign", delta=1 - old, value=1),
            ev.NPCAdded(id="tin", name="Tin", role="teammate"))  # Team helps a teammate
    dc_game.trigger("directly_engage", vic)
    dc_game.roll([4, 4])  # 9 vs DC 10: a miss; +1 Team (Tin, a teammate) makes 10: weak hit
    assert dc_game.state.flow.stage == "adjust"
    assert dc_game.state.flow.roll is not None
    assert dc_game.state.flow.roll["band"] == "miss"
    events = dc_game.adjust("team")
    adj = next(e for e in events if e["type"] == "RollAdjusted")
    # under Masks's fixed bands 10 would be a strong hit
    assert (adj["total"], adj["band"], adj["band_name"], adj["was"], adj["tone"]) == (
        10, "weak_hit", "Weak hit", "bad", "mixed")
    assert outcome(events) == "weak_hit"


def test_masks_rolls_keep_their_exact_saved_form(new_game: NewGame) -> None:
    game = new_game()
    game.trigger("directly_engage")
    game.roll([3, 4])
    r = rolled(list(game.store.events()))  # the form the log keeps
    assert "bands" not in r and "override" not in r
    # an event saved without bands reads the pack's
    move = game.pack.moves["directly_engage"]
    assert resolve.roll_bands(game.pack, move, r) == game.pack.bands_for(move)


def test_a_rolled_event_with_bands_survives_the_round_trip(dc_game: Game) -> None:
    dc_game.trigger("directly_engage", npc(dc_game, "Vic Rook"))
    r = rolled(dc_game.roll([6, 6]))
    again = ev.from_dict(r).to_dict()
    assert {k: again[k] for k in ("bands", "override", "band")} == {
        "bands": r["bands"], "override": r["override"], "band": "strong_hit"}
    move = dc_game.pack.moves["directly_engage"]
    assert resolve.roll_bands(dc_game.pack, move, r) == dc_bands(10)


# ------------------------------------------------------------------ the app's text


def test_the_apps_roll_text_shows_the_bands_and_the_override(dc_game: Game) -> None:
    from engine.tui.text import band_tones, odds_text, roll_text

    dc_game.trigger("directly_engage", npc(dc_game, "Vic Rook"))
    r = rolled(dc_game.roll([6, 6]))
    text = roll_text(r, dc_game.pack).plain
    assert "Strong hit" in text and "boxcars; the total gave Weak hit" in text
    assert text.splitlines()[-1] == "   bands: Miss ≤9 · Weak hit 10-14 · Strong hit 15+"
    assert band_tones(dc_game.pack, "directly_engage", r) == {
        "miss": "bad", "weak_hit": "mixed", "strong_hit": "good"}
    # odds whose bands are not the move's fixed ones still show, in their order
    shown = odds_text({"fail": "10.0%", "pass": "90.0%"},
                      [{"id": "miss", "name": "Miss"}]).plain
    assert shown == "Fail 10.0% · Pass 90.0%"


def test_the_roll_panel_names_the_bands_chosen_for_the_roll(dc_game: Game) -> None:
    from engine.tui.widgets.roll_panel import RollPanel

    panel = RollPanel()
    pv = dc_game.preview("directly_engage", npc(dc_game, "Vic Rook"))
    panel.show("Directly engage", RollPrompt("", preview=pv), "")
    lines = panel.render_text(80).plain.splitlines()
    assert "bands: Miss ≤9 · Weak hit 10-14 · Strong hit 15+" in lines
    unchosen = dataclasses.replace(pv, bands_chosen=False)
    panel.show("Directly engage", RollPrompt("", preview=unchosen), "")
    assert not any(x.startswith("bands:") for x in panel.render_text(80).plain.splitlines())


# ------------------------------------------------------------------ exact odds with overrides


@pytest.mark.parametrize("spec", ["2d6", "3d6kh2", "3d6kl2", "1d20", "2d20kh1"])
@pytest.mark.parametrize("modifier", [-3, 0, 4])
def test_odds_by_faces_without_an_override_are_the_plain_odds(spec: str, modifier: int) -> None:
    dice = DiceSpec.parse(spec)
    bands = dc_bands(10)
    got = band_odds_by_faces(dice, modifier, bands, lambda kept, band: None)
    assert got == band_odds(dice, modifier, bands)
    assert sum(got.values()) == 1


def test_a_natural_20_on_advantage_counts_each_kept_die() -> None:
    dice = DiceSpec.parse("2d20kh1")  # a 20 is kept when either die shows it: 39 of 400
    got = band_odds_by_faces(dice, -100, dc_bands(10),
                             lambda kept, band: "strong_hit" if kept == (20,) else None)
    assert got == {"miss": Fraction(361, 400), "weak_hit": 0, "strong_hit": Fraction(39, 400)}


# ------------------------------------------------------------------ reband: properties


@st.composite
def band_sets(draw: st.DrawFn) -> list[s.Band]:
    """Two to five contiguous bands covering every total, low to high."""
    cuts = sorted(draw(st.sets(st.integers(-10, 30), min_size=1, max_size=4)))
    bands: list[s.Band] = []
    lo: int | None = None
    for i, cut in enumerate([*cuts, None]):
        hi = None if cut is None else cut - 1
        bands.append(s.Band(id=f"b{i}", name=f"Band {i}", min=lo, max=hi))
        lo = cut
    return bands


clamps = st.one_of(st.none(), st.tuples(st.integers(-5, 0), st.integers(0, 5)))


def a_roll(faces: list[int], raw: int, clamp: tuple[int, int] | None,
           bands: list[s.Band]) -> dict[str, Any]:
    modifier = max(clamp[0], min(clamp[1], raw)) if clamp else raw
    total = sum(faces) + modifier
    band = band_of(total, bands)
    return {"kept": faces, "raw_modifier": raw, "modifier": modifier, "total": total,
            "band": band, "band_name": "", "tone": "mixed", "modifiers": [["x", raw, None]],
            "clamp": list(clamp) if clamp else None}


@settings(max_examples=300, deadline=None)
@given(bands=band_sets(), faces=st.lists(st.integers(1, 6), min_size=2, max_size=2),
       raw=st.integers(-8, 8), clamp=clamps, a=st.integers(-8, 8), b=st.integers(-8, 8))
def test_reband_is_monotone_in_the_modifier(bands: list[s.Band], faces: list[int], raw: int,
                                            clamp: tuple[int, int] | None, a: int,
                                            b: int) -> None:
    roll = a_roll(faces, raw, clamp, bands)
    order = [x.id for x in bands]
    lo, hi = sorted((a, b))
    low = resolve.reband(roll, lo, bands, clamp)
    high = resolve.reband(roll, hi, bands, clamp)
    assert low["total"] <= high["total"]
    assert order.index(low["band"]) <= order.index(high["band"])


@settings(max_examples=300, deadline=None)
@given(bands=band_sets(), faces=st.lists(st.integers(1, 6), min_size=2, max_size=2),
       raw=st.integers(-8, 8), clamp=clamps, amount=st.integers(-8, 8))
def test_reband_respects_the_clamp_and_no_clamp_is_none(
        bands: list[s.Band], faces: list[int], raw: int, clamp: tuple[int, int] | None,
        amount: int) -> None:
    new = resolve.reband(a_roll(faces, raw, clamp, bands), amount, bands, clamp, "Team")
    assert new["raw_modifier"] == raw + amount
    if clamp is None:
        assert new["modifier"] == raw + amount  # no (-999, 999) fallback: no clamp at all
    else:
        assert clamp[0] <= new["modifier"] <= clamp[1]
        assert new["modifier"] == max(clamp[0], min(clamp[1], raw + amount))
    assert new["total"] == sum(faces) + new["modifier"]
    assert new["band"] == band_of(new["total"], bands)
    assert new["band_name"] == next(x.name for x in bands if x.id == new["band"])
    assert new["modifiers"][-1] == ["Team", amount, None]


@pytest.fixture(scope="module")
def games(masks: Pack) -> dict[str, Game]:
    """A Masks game and a DC-rules game (built once: hypothesis reruns the test body)."""
    mp = pytest.MonkeyPatch()
    mp.setitem(rules_pkg.RULESETS, "dc_test", f"{__name__}:DCRules")
    pack = dataclasses.replace(masks, system=masks.system.model_copy(update={"ruleset":
                                                                            "dc_test"}))
    out = {"masks": Game.new(masks, name="M", hero_name="Nova", stats=dict(FLAT), npcs=NPCS),
           "dc": Game.new(pack, name="D", hero_name="Nova", stats=dict(FLAT), npcs=NPCS)}
    mp.undo()
    return out


@settings(max_examples=300, deadline=None)
@given(which=st.sampled_from(["masks", "dc"]),
       move_id=st.sampled_from(["directly_engage", "unleash_powers", "take_powerful_blow"]),
       faces=st.lists(st.integers(1, 6), min_size=3, max_size=3), before=st.integers(-6, 6),
       amount=st.integers(-6, 6), vs_villain=st.booleans())
def test_reband_equals_a_fresh_resolution_with_the_new_modifier(
        games: dict[str, Game], which: str, move_id: str, faces: list[int], before: int,
        amount: int, vs_villain: bool) -> None:
    game = games[which]
    move = game.pack.moves[move_id]
    spec = game.pack.dice_for(move)
    roll = Roll.of(spec, faces[:spec.count])
    target = npc(game, "Vic Rook") if vs_villain else None
    st_ = game.state

    def fresh(extras: list[list[Any]]) -> dict[str, Any]:
        return resolve.resolve(st_, game.pack, game.rules, move, target, roll, 0,
                               extras=extras).to_dict(full=True)

    first = fresh([["before", before, None]])
    again = resolve.reband(first, amount, resolve.roll_bands(game.pack, move, first),
                           resolve.roll_clamp(game.pack, first), "after",
                           resolve.face_override(st_, game.rules, move))
    want = fresh([["before", before, None], ["after", amount, None]])
    keys = ("raw_modifier", "modifier", "total", "band", "band_name", "tone", "modifiers",
            "bands")
    assert {k: again.get(k) for k in keys} == {k: want.get(k) for k in keys}
    assert again.get("override") == want.get("override")
