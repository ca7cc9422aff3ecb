"""Clearing actions the fiction takes: a marked condition whose clearing action the player's
words describe ("Furious, I rip the reliquary off her belt and smash it" takes Angry's: hurt
somebody or smash something that matters). Each condition lists the words that take it
(``clear_cues`` in the ruleset's content, compared by lemma)."""

from __future__ import annotations

from dataclasses import dataclass

from engine.content.loader import Pack
from engine.nlp.english import lemmas, words
from engine.rules.state import CampaignState

NEGATIONS = frozenset({"not", "never", "no", "without"})
"""A cue right after one of these ("I do not smash it") takes no clearing action."""


@dataclass(frozen=True, slots=True)
class ClearingHint:
    """A marked condition whose clearing action the fiction describes."""

    condition: str
    """The condition's id."""
    name: str
    """The condition's name."""
    clear_by: str
    """Its clearing action, in the ruleset's words."""
    said: tuple[str, ...]
    """The player's words that describe it."""


def clearing_in(state: CampaignState, pack: Pack, text: str) -> tuple[ClearingHint, ...]:
    """The acting hero's marked conditions whose clearing action ``text`` describes, in the
    ruleset's order (none already noted as taken this scene)."""
    marked = state.hero.conditions
    if not marked or not text:
        return ()
    said = words(text)
    out = []
    for cond in pack.conditions.values():
        if cond.id not in marked or cond.id in state.scene.clearing or not cond.clear_cues:
            continue
        cues = set(cond.clear_cues)
        hits = tuple(dict.fromkeys(
            w for i, w in enumerate(said)
            if (w.lower() in cues or cues.intersection(lemmas(w.lower())))
            and not NEGATIONS.intersection(x.lower() for x in said[max(0, i - 3):i])))
        if hits:
            out.append(ClearingHint(cond.id, cond.name, cond.clear_by, hits))
    return tuple(out)
