"""The typed seams (engine/rules/types.py): modifier accessors, queue items' contexts, the flow
keeping its JSON exactly as saved, ``reband`` keeping a roll's shape, and mypy checking keys."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from engine.content import schema as s
from engine.rules import events as ev
from engine.rules import resolve
from engine.rules.state import Flow
from engine.rules.types import (
    Item,
    item_ctx,
    mod_amount,
    mod_bonus,
    mod_source,
    modifier,
)


def test_modifier_saved_form_and_accessors() -> None:
    m = modifier("Danger", 2)
    assert m == ["Danger", 2, None]
    assert (mod_source(m), mod_amount(m), mod_bonus(m)) == ("Danger", 2, None)
    used = modifier("+1 forward: help", 1, 7)
    assert mod_bonus(used) == 7
    # modifiers taken before a roll may be saved as [source, amount]
    assert mod_bonus(["Team", 1]) is None
    assert mod_amount(["Team", "1"]) == 1
    with pytest.raises(TypeError):
        mod_amount(["broken", None, None])
    with pytest.raises(TypeError):
        mod_bonus(["broken", 1, "seven"])


def test_item_ctx_of_each_kind() -> None:
    items: list[Item] = [
        {"effect": {"type": "note", "text": "x"}, "ctx": {"source": "Provoke"}},
        {"choose": {"move": "provoke", "key": "outcomes.hit"}, "ctx": {"target": "npc_1"}},
        {"trigger": "retire", "ctx": {"target": None}},
    ]
    assert [item_ctx(i) for i in items] == [{"source": "Provoke"}, {"target": "npc_1"},
                                            {"target": None}]
    assert item_ctx({"emit": {"type": "Narrated"}}) == {}
    assert item_ctx({"roll_stage": {"move": "provoke"}}) == {}
    assert item_ctx({"effect": {"type": "note"}}) == {}


def test_flow_keeps_its_json_as_saved() -> None:
    """Typed for mypy only: validation neither drops nor reorders what the flow holds (a key a
    newer ruleset put in a context, a roll's keys in their saved order)."""
    saved: dict[str, Any] = {
        "stage": "effects",
        "extras": [["Team", 1]],
        "roll": {"type": "Rolled", "total": 9, "band": "weak_hit", "zz_new": True,
                 "move": "unleash"},
        "queue": [{"effect": {"type": "note", "text": "x"},
                   "ctx": {"source": "GM", "custom": {"a": 1}}},
                  {"emit": {"type": "Narrated", "text": "y", "by": "engine"}}],
        "prompt": {"kind": "pick", "message": "m", "options": [], "min": 1, "max": 1,
                   "item": {"emit": {"type": "Narrated"}}, "context": {"gm": {"move": "x"}}},
    }
    flow = Flow.model_validate(saved)
    dumped = flow.model_dump(mode="json")
    for key, value in saved.items():
        assert dumped[key] == value
    assert list(dumped["roll"]) == list(saved["roll"])
    assert dumped["extras"] == [["Team", 1]]


def _rolled() -> dict[str, Any]:
    return ev.Rolled(
        move="unleash", stat="danger", dice="2d6", faces=[3, 4], kept=[3, 4], dropped=[],
        modifiers=[["Danger", 1, None]], raw_modifier=1, modifier=1, clamp=[-3, 4], total=8,
        band="weak_hit", band_name="7-9", odds={"hit": "1%"}, tone="mixed").to_dict(full=True)


BANDS = [s.Band(id="miss", name="6-", max=6, tone="bad"),
         s.Band(id="weak_hit", name="7-9", min=7, max=9),
         s.Band(id="hit", name="10+", min=10, tone="good")]


def test_reband_keeps_the_rolls_shape() -> None:
    before = _rolled()
    after = resolve.reband(before, 2, BANDS, [-3, 4], "Team")
    assert list(after) == list(before)
    assert after["modifiers"] == [["Danger", 1, None], ["Team", 2, None]]
    assert (after["raw_modifier"], after["modifier"], after["total"], after["band"],
            after["band_name"], after["tone"]) == (3, 3, 10, "hit", "10+", "good")
    assert before["total"] == 8 and before["modifiers"] == [["Danger", 1, None]]


def test_reband_of_an_old_save_without_tone_adds_it_last() -> None:
    before = _rolled()
    del before["tone"]
    after = resolve.reband(before, 0, BANDS, None)
    assert list(after) == [*before, "tone"]


GOOD = '''
from engine.rules.types import EffectContext, Item, RollDict, item_ctx

ctx: EffectContext = {"move": "m", "target": None, "source": "s", "gm": {
    "move": "x", "name": "X", "kind": "soft", "text": "t"}}
items: list[Item] = [{"effect": {}, "ctx": ctx}, {"emit": {}}, {"trigger": "m", "ctx": {}},
                     {"choose": {"move": "m", "key": "result"}, "ctx": ctx},
                     {"roll_stage": {"move": "m"}}]

def band(roll: RollDict, item: Item) -> str:
    if "trigger" in item:
        return item["trigger"]
    return roll["band"] + str(item_ctx(item).get("source"))
'''

BAD = '''
from engine.rules.types import EffectContext, Item, RollDict

ctx: EffectContext = {"sourse": "s"}
item: Item = {"emit": {}, "ctx": {}}
trigger: Item = {"trigger": 3, "ctx": {}}

def band(roll: RollDict) -> str:
    return roll["bnad"]
'''


def test_mypy_checks_the_keys(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The seams are real types: a misspelt key, an item of no known kind, a wrong value
    type are mypy errors; correct use is clean."""
    api = pytest.importorskip("mypy.api")
    (tmp_path / "good.py").write_text(GOOD)
    (tmp_path / "bad.py").write_text(BAD)
    monkeypatch.chdir(Path(__file__).resolve().parents[2])  # where ``engine`` is found
    out, err, _ = api.run(["--strict", "--config-file=", f"--cache-dir={tmp_path / 'cache'}",
                           "--python-version=3.11", str(tmp_path / "good.py"),
                           str(tmp_path / "bad.py")])
    lines = [line for line in out.splitlines() if ": error:" in line]
    assert not [line for line in lines if "good.py" in line], out + err
    bad_lines = sorted({int(line.split(":")[1]) for line in lines if "bad.py" in line})
    assert bad_lines == [4, 5, 6, 9], out + err
    assert '"sourse"' in out and '"bnad"' in out
