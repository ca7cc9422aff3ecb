"""Framing from the story: what the next scene is about, where, for whom, and the scene test.

The next scene comes from the story's leads: a character held at a known place (the prison of
a captured teammate is the obvious next scene), the open threads and the threats' next steps.
The last few scenes' places and openings are remembered (``framed_event``, in the campaign's
data) so a proposal does not repeat them, unless the story returns there (a lead's own place).
A Mythic-style scene test then reads a d10 against the tension: at or under it, odd alters
the expected scene and even interrupts it, with the odds shown.
"""

from __future__ import annotations

import random
import re
import string
from dataclasses import dataclass
from typing import Any

from engine.rules import events as ev
from engine.rules.state import Actor, CampaignState

FRAMED_KEY = "framed"
"""The campaign data key of the last scenes framed: ``[{"n", "place", "opening"}, ...]``."""
FRAME_MEMORY = 5
"""Scenes remembered: a place or an opening is not proposed again within this many."""

OUT = frozenset({"dead", "dying", "incapacitated", "unconscious"})
"""Conditions that keep a character out of a framed scene (with ``taken_out``)."""

_FORMATTER = string.Formatter()
_PLACE_AT = re.compile(r"\b(?:at|in|inside|beneath|under|underneath|below|on|near|by)\s+(.+)$")
_VAGUE = ("who knows", "unknown", "somewhere", "nowhere", "anywhere", "no one knows",
          "nobody knows", "not known")
_HELD = ("captur", "held", "prisoner", "captive", "taken", "locked", "kidnap", "caged", "chained")
_CUT = re.compile(r",| (?:in|during|after|above|under|between|rattling|closed|at night|on the edge"
                  r"|where|while|with|that)\b")


def out_of_play(actor: Actor) -> bool:
    """Whether ``actor`` cannot be framed into a scene: taken out, dead or dying."""
    return actor.taken_out or bool(OUT & set(actor.conditions)) or "dead" in actor.flags


def framed_hero(state: CampaignState) -> Actor:
    """The hero a scene is framed for: the acting hero if standing, else the first standing
    hero of the party, else the first who is not dead (never a dead hero while one lives)."""
    heroes = [state.hero] + [h for h in state.heroes if h.id != state.acting]
    standing = [h for h in heroes if not out_of_play(h)]
    alive = [h for h in heroes if "dead" not in h.conditions and "dead" not in h.flags]
    return (standing or alive or heroes)[0]


def place_key(text: str) -> str:
    """A place's words for comparing ("at the Old Pier, at dusk" -> "old pier")."""
    words = " ".join(text.lower().split())
    words = words.split(",")[0].strip().rstrip(".")
    for lead in ("at ", "in ", "on ", "to ", "the ", "a ", "an "):
        words = words.removeprefix(lead)
    return words


def place_phrase(location: str) -> str:
    """A place as a phrase to read inside a sentence once the scene is there: its head with
    a definite article ("a suspension bridge in a thunderstorm" -> "the suspension bridge";
    "the lobby of City Hall" stays); proper names keep their own words."""
    text = " ".join(location.split()).rstrip(".")
    if not text:
        return text
    head = _CUT.split(text, maxsplit=1)[0].strip() or text
    low = head.lower()
    for art in ("a ", "an "):
        if low.startswith(art):
            return "the " + head[len(art):]
    return head


def where_place(where: str) -> str:
    """The place a whereabouts names ("held at the drowned chapel" -> "the drowned
    chapel"), or "" when it names none ("captured, held who knows where", "out of town")."""
    text = " ".join(where.split()).rstrip(".")
    low = text.lower()
    if not text or any(v in low for v in _VAGUE):
        return ""
    m = _PLACE_AT.search(text)
    if m is None:
        return ""
    return m.group(1).strip()


def held(where: str) -> bool:
    """Whether a whereabouts says its character is held against their will."""
    low = where.lower()
    return any(w in low for w in _HELD)


def recent_frames(state: CampaignState) -> list[dict[str, Any]]:
    """The last scenes framed (oldest first), from the campaign's data; old saves: none."""
    raw = state.data.get(FRAMED_KEY, [])
    return [f for f in raw if isinstance(f, dict)] if isinstance(raw, list) else []


def framed_event(state: CampaignState, number: int, location: str,
                 opening: str) -> ev.DataSet | None:
    """The event that remembers scene ``number``'s place and opening (the last
    ``FRAME_MEMORY`` scenes are kept), or None when it has neither."""
    if not (location.strip() or opening.strip()):
        return None
    # a scene framed anew (nothing happened in it) keeps the place it had in memory too:
    # the player saw it proposed, and a place just left is no place to go back to
    kept = recent_frames(state)[-(FRAME_MEMORY - 1):]
    kept.append({"n": number, "place": location.strip(), "opening": opening.strip()})
    return ev.DataSet(scope="campaign", key=FRAMED_KEY, value=kept)


def recent_places(state: CampaignState) -> set[str]:
    """The places of the last scenes (the current one included), as ``place_key``."""
    keys = {place_key(str(f.get("place", ""))) for f in recent_frames(state)}
    if state.scene.location:
        keys.add(place_key(state.scene.location))
    return keys - {""}


def signature(template: str) -> str:
    """The longest literal part of an opening template: how a filled opening shows it."""
    try:
        parts = [lit for lit, *_ in _FORMATTER.parse(template)]
    except ValueError:
        parts = [template]
    return max((" ".join(p.lower().split()) for p in parts), key=len, default="")


def used_recently(state: CampaignState, template: str) -> bool:
    """Whether an opening made from ``template`` was said in the last scenes."""
    sig = signature(template)
    if len(sig) < 8:
        return False
    return any(sig in " ".join(str(f.get("opening", "")).lower().split())
               for f in recent_frames(state))


@dataclass(frozen=True)
class Lead:
    """A scene the story calls for: what is at stake, where (if the story says), who is
    there, and how strongly it calls (``weight``)."""

    kind: str  # "held" | "thread" | "threat"
    stakes: str
    weight: float
    place: str = ""
    npc: str | None = None
    threat: str | None = None


SCENE_DIE = 10


@dataclass(frozen=True)
class SceneTest:
    """The scene test: a d10 against the tension (Mythic's chaos factor)."""

    roll: int
    tension: int
    outcome: str  # "expected" | "altered" | "interrupted"

    @property
    def odds(self) -> dict[str, int]:
        """The percent chance of each outcome at this tension."""
        low = range(1, min(self.tension, SCENE_DIE) + 1)
        altered = sum(1 for r in low if r % 2) * 100 // SCENE_DIE
        interrupted = sum(1 for r in low if not r % 2) * 100 // SCENE_DIE
        return {"expected": 100 - altered - interrupted, "altered": altered,
                "interrupted": interrupted}

    @property
    def text(self) -> str:
        """How the test reads: the die, the tension, the outcome and the odds."""
        o = self.odds
        return (f"Scene test: d10 {self.roll} against tension {self.tension}:"
                f" {self.outcome} (as expected {o['expected']}%, altered {o['altered']}%,"
                f" interrupted {o['interrupted']}%)")


def scene_test(rng: random.Random, tension: int) -> SceneTest:
    """Roll the scene test: a d10 at or under the tension alters the scene (odd) or
    interrupts it (even); above it, the scene is as expected."""
    roll = rng.randint(1, SCENE_DIE)
    if roll > tension:
        return SceneTest(roll, tension, "expected")
    return SceneTest(roll, tension, "altered" if roll % 2 else "interrupted")
