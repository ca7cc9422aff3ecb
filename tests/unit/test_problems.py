"""Validation problems in Sidekick's own words, whatever the pydantic release says."""

from __future__ import annotations

from typing import Any, Literal

import pytest
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from engine.content import schema
from engine.content.problems import describe, key_path, problems


class Inner(BaseModel):
    model_config = ConfigDict(extra="forbid")
    n: int = 0


class Thing(BaseModel):
    model_config = ConfigDict(extra="forbid")
    count: int = 0
    rank: int = Field(default=0, ge=0, le=20)
    name: str = ""
    flag: bool = False
    kind: Literal["hero", "villain"] = "hero"
    tags: list[str] = []
    inner: Inner = Inner()
    id: schema.Id = "x"
    short: str = Field(default="", max_length=3)
    odd: int = 1

    @field_validator("odd")
    @classmethod
    def _odd(cls, value: int) -> int:
        if value % 2 == 0:
            raise ValueError("an odd number, please")
        return value


def one(data: dict[str, Any]) -> dict[str, Any]:
    with pytest.raises(ValidationError) as e:
        Thing.model_validate(data)
    [err] = e.value.errors()
    return dict(err)


@pytest.mark.parametrize(("data", "said"), [
    ({"count": "lots"}, "expected a whole number, got 'lots'"),
    ({"count": 1.5}, "expected a whole number, got 1.5"),
    ({"name": 3}, "expected text, got 3"),
    ({"flag": "maybe"}, "expected true or false, got 'maybe'"),
    ({"tags": "a"}, "expected a list, got 'a'"),
    ({"inner": 1}, "expected a mapping, got 1"),
    ({"rank": 21}, "must be at most 20, got 21"),
    ({"rank": -1}, "must be at least 0, got -1"),
    ({"id": "Bad Id"}, "expected an id (a lowercase letter, then letters, digits or _),"
                       " got 'Bad Id'"),
    ({"short": "abcd"}, "too long: at most 3 characters"),
    ({"cape": "red"}, "unknown key"),
    ({"odd": 2}, "an odd number, please"),
])
def test_each_kind_of_problem_reads_in_our_words(data: dict[str, Any], said: str) -> None:
    assert describe(one(data)) == said


def test_a_missing_key_and_a_nested_path() -> None:
    class Needs(BaseModel):
        inner: list[Inner]

    with pytest.raises(ValidationError) as e:
        Needs.model_validate({"inner": [{"n": 1}, {"n": "x"}]})
    assert problems(e.value.errors(), "f.yaml") == [
        "f.yaml: inner[1].n: expected a whole number, got 'x'"]
    with pytest.raises(ValidationError) as e:
        Needs.model_validate({})
    assert problems(e.value.errors()) == ["inner: required key is missing"]


def test_no_words_of_pydantic_leak_into_a_problem() -> None:
    for data in ({"count": "x"}, {"rank": 99}, {"cape": 1}, {"flag": []}, {"kind": 3}):
        text = describe(one(data))
        assert "Input should" not in text and "Extra inputs" not in text


def test_an_unknown_kind_of_problem_still_says_what_and_where() -> None:
    said = describe({"type": "brand_new_check", "loc": ("a",), "msg": "whatever",
                     "input": 5})
    assert said == "not valid (brand_new_check), got 5"


def test_a_choice_names_the_choices_and_the_value() -> None:
    said = describe(one({"kind": "sidekick"}))
    assert said.startswith("expected one of ") and said.endswith(", got 'sidekick'")
    assert "'hero'" in said and "'villain'" in said


def test_key_path() -> None:
    assert key_path(["moves", 3, "outcomes", "miss"]) == "moves[3].outcomes.miss"
    assert key_path([]) == "(top)"
