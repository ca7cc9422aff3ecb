"""Registries belong to rulesets: what a campaign can read, apply and validate is declared by
its ruleset, never by whichever modules happen to be imported."""

from __future__ import annotations

import subprocess
import sys
import typing
from dataclasses import dataclass
from pathlib import Path

import pytest

from engine.content import schema as s
from engine.rules import events as ev
from engine.rules.base import GENERIC_RULES
from engine.rules.effects import CORE_EFFECTS
from engine.rules.registry import Registry, Sealed
from engine.systems import RULESETS, ruleset_class

ROOT = Path(__file__).resolve().parents[2]
SYSTEM_EVENTS = {
    "masks": {"InfluenceChanged"},
    "city_of_whispers": {"CitySheetChanged", "CityFactionChanged"},
    "mm3e": {"FightStarted", "FightUpdated", "CombatantChanged", "HeroPointSpent"},
    "panels": {"FightStarted", "FightUpdated", "TracksSet"},
}


@pytest.mark.parametrize("name", sorted(SYSTEM_EVENTS))
def test_a_fresh_interpreter_knows_every_event_of_the_system_it_finds(name: str) -> None:
    code = ("import sys; from engine.systems import ruleset_class\n"
            f"reg = ruleset_class({name!r}).registry\n"
            "print(' '.join(sorted(reg.events.all())))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=ROOT, timeout=120, check=True).stdout.split()
    assert SYSTEM_EVENTS[name] <= set(out)
    assert {"Narrated", "Rolled", "Edited", "SceneStarted"} <= set(out)
    others = set().union(*(v for k, v in SYSTEM_EVENTS.items() if k != name)) - set(
        SYSTEM_EVENTS[name]) - {"FightStarted", "FightUpdated"}
    assert not others & set(out), "a system knows another system's events"


def test_the_core_registry_knows_no_system_event() -> None:
    assert not set(ev.CORE.events.all()) & {"InfluenceChanged", "TracksSet", "CitySheetChanged"}
    with pytest.raises(ValueError, match="unknown event type 'InfluenceChanged'"):
        ev.from_dict({"type": "InfluenceChanged", "npc": "x", "direction": "hero_over",
                      "held": True})


def test_a_log_reads_with_its_ruleset() -> None:
    masks = ruleset_class("masks").registry
    e = masks.decode({"type": "InfluenceChanged", "npc": "vic", "direction": "hero_over",
                      "held": True, "n": 4, "a": 2})
    assert e.to_dict() == {"type": "InfluenceChanged", "npc": "vic", "direction": "hero_over",
                           "held": True, "permanent": False, "reason": ""}


def test_registering_into_a_ruleset_in_use_is_refused() -> None:
    reg = ruleset_class("masks").registry
    assert reg.sealed

    with pytest.raises(Sealed, match="registered too late"):
        @reg.rule_effect("late_effect")
        def _late(*_: object) -> None: ...

    with pytest.raises(Sealed):
        @reg.event
        @dataclass(frozen=True, slots=True)
        class LateEvent(ev.Event):
            x: int = 0


def test_a_registry_extends_its_bases_and_its_own_entries_win() -> None:
    base = Registry("base")
    mine = Registry("mine", base)

    @base.journal_line("Thing")
    def _base(e: dict[str, object], who: typing.Any) -> str:
        return "base"

    @mine.journal_line("Thing")
    def _mine(e: dict[str, object], who: typing.Any) -> str:
        return "mine"

    @base.rule_effect("shared")
    def _shared(*_: object) -> None: ...

    assert mine.line({"type": "Thing"}, str) == "mine"
    assert base.line({"type": "Thing"}, str) == "base"
    assert "shared" in mine.rule_effects and "shared" in base.rule_effects
    with pytest.raises(ValueError, match="registered twice"):
        base.rule_effect("shared")(_shared)


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_validate_and_play_read_the_same_rule_effects(name: str) -> None:
    cls = ruleset_class(name)
    assert cls.known_rule_effects() == GENERIC_RULES | set(cls.registry.rule_effects.all())
    for effect in cls.registry.rule_answers.all():
        assert effect in cls.registry.rule_effects.all(), effect


def test_every_effect_type_content_may_use_has_a_handler() -> None:
    effect_union = typing.get_args(typing.get_args(s.Effect)[0])
    types = {t for m in effect_union for t in typing.get_args(m.model_fields["type"].annotation)}
    systems = set().union(*(ruleset_class(n).registry.effects.all() for n in RULESETS))
    assert types == set(CORE_EFFECTS) | systems
    assert not set(CORE_EFFECTS) & systems
