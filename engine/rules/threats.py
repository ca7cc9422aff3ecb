"""Threat clocks, in the rules layer: filling a template's names, bringing a threat into play,
moving its clock and striking its doom.

The effect interpreter (``clock`` effects) and the rulesets (a City of Whispers rival) use
these, and so does the GM above them (``engine.gm.scenes``); they import nothing above the
rules.
"""

from __future__ import annotations

import random
import re
import string

from engine.content import schema as s
from engine.content.loader import Pack
from engine.rules import events as ev
from engine.rules.base import Step, effect_item
from engine.rules.state import CampaignState, Threat

_SENTENCE = re.compile(r"(^|[.!?]\s+|\n)([a-z])")
_FIELD = re.compile(r"\{([A-Za-z_]\w*)\}")
_FORMATTER = string.Formatter()

_GOES_ON = re.compile(r" [\w'\"(]")
"""After an inserted name: the sentence continues with a word (not a comma, a stop...)."""


def fill(template: str, names: dict[str, str]) -> str:
    """Fill ``{hero}``-style placeholders (unknown ones read 'someone'); sentences start
    with a capital even when a placeholder opens them.

    Never raises and never grows text past the names it inserts: format specs and conversions
    are ignored, ``{hero[0]}`` or ``{hero.x}`` read as ``{hero}``, a positional ``{0}`` reads
    'someone', and a template with stray braces has only its plain ``{name}`` fields filled
    (``sidekick validate`` refuses all of these)."""

    def name(field: str) -> str:
        root = re.split(r"[.\[]", field, maxsplit=1)[0]
        return str(names.get(root, "someone")) if root.isidentifier() else "someone"

    try:
        parts = list(_FORMATTER.parse(template))
    except ValueError:  # stray braces: fill what can be filled, keep the rest as written
        text = _FIELD.sub(lambda m: name(m.group(1)), template)
    else:
        out: list[str] = []
        for i, (lit, field, _spec, _conv) in enumerate(parts):
            out.append(lit)
            if field is not None:
                value = name(field)
                after = parts[i + 1][0] if i + 1 < len(parts) else ""
                # a name with its own comma ("the Magistracy steps, Bellwether Square") is
                # closed by another when the sentence goes on after it
                if ", " in value and _GOES_ON.match(after):
                    value += ","
                out.append(value)
        text = "".join(out)
    return _SENTENCE.sub(lambda m: m.group(1) + m.group(2).upper(), text)


_COPY = re.compile(r"_\d+$")
_ARTICLE = re.compile(r"^(The|A|An) (?=\S)")


def threat_words(pack: Pack, state: CampaignState, threat: Threat) -> str:
    """How ``threat`` reads inside a sentence: its words from ``narration.yaml`` ("Dusk
    Meridian's takeover", "the rising tide"), else its name made to fit ("Dusk Meridian:
    the takeover" reads "Dusk Meridian's takeover"; a leading article in lower case)."""
    villain = state.actors[threat.npc].name if threat.npc in state.actors else ""
    tdef = next((t for t in pack.gm.threats if t.id == _COPY.sub("", threat.id)
                 or t.id == threat.id), None)
    words = pack.narration.threats.get(tdef.id) if tdef is not None else None
    if tdef is not None and words is not None \
            and threat.name in (tdef.name, f"{villain}: {tdef.name}"):
        if villain and words.named:  # a phrase inside a sentence: no capital added
            return words.named.replace("{villain}", villain)
        return words.plain
    name = threat.name
    if villain and name.startswith(f"{villain}: "):
        rest = name[len(villain) + 2:]
        article = re.match(r"(?i)(the|a|an) ", rest)
        return f"{villain}'s {rest[article.end():]}" if article else rest
    return _ARTICLE.sub(lambda m: m.group(1).lower() + " ", name)


def clock_step(threat_id: str, clock: int, size: int, steps: list[str], doom: str, name: str,
               delta: int) -> Step:
    """Move a threat clock; its doom strikes exactly when the clock fills."""
    new = max(0, min(size, clock + delta))
    step_text = steps[new - 1] if 0 < new <= len(steps) and new > clock else ""
    out = Step([ev.ClockChanged(threat=threat_id, delta=new - clock, value=new, step=step_text,
                                name=name)])
    if new >= size > clock:
        out.events.append(ev.DoomStruck(threat=threat_id, text=doom or f"{name} gets its way."))
    return out


_WORD = re.compile(r"[a-z]+")


def drive_words(state: CampaignState, npc_id: str) -> set[str]:
    """What a villain is about, in words: its name, its note and the facts about it."""
    npc = state.actors[npc_id]
    text = " ".join([npc.name, npc.note, *(f.text for f in state.facts if npc_id in f.about)])
    return set(_WORD.findall(text.lower()))


def drive_score(tdef: s.ThreatDef, words: set[str]) -> int:
    """How many of ``tdef``'s drives a villain's words name (a drive matches a word it
    starts: 'relic' matches 'relics', 'revenge' matches 'revenger')."""
    return sum(1 for d in tdef.drives if any(w.startswith(d.lower()) for w in words))


def template_for(state: CampaignState, npc_id: str, templates: list[s.ThreatDef],
                 rng: random.Random) -> s.ThreatDef:
    """The threat a villain brings: the template whose drives its words name most (its
    drive: a relic-hunting abbess hunts relics, she does not rob a vault); when none is
    named, any of them but those given by drive only."""
    words = drive_words(state, npc_id)
    scored = [(drive_score(t, words), t) for t in templates]
    best = max((n for n, _ in scored), default=0)
    if best > 0:
        return rng.choice([t for n, t in scored if n == best])
    return rng.choice([t for t in templates if not t.by_drive_only] or templates)


def threat_event(tdef: s.ThreatDef, state: CampaignState, name: str | None = None,
                 npc: str | None = None) -> ev.ThreatAdded:
    """The event that brings a threat template into play."""
    base = tdef.id
    tid, i = base, 2
    while tid in state.threats:
        tid, i = f"{base}_{i}", i + 1
    villain = state.npcs[npc].name if npc else "the threat"
    names = {"villain": villain, "hero": state.hero.name}
    return ev.ThreatAdded(id=tid, name=name or tdef.name, kind=tdef.kind, size=tdef.size,
                          steps=[fill(x, names) for x in tdef.steps],
                          doom=fill(tdef.doom, names), npc=npc)


def advance_threat(pack: Pack, state: CampaignState, threat: Threat, delta: int,
                   why: str) -> Step:
    """Move a clock; when it fills, the doom strikes and its effects apply."""
    step = clock_step(threat.id, threat.clock, threat.size, threat.steps, threat.doom,
                      threat.name, delta)
    if any(isinstance(e, ev.DoomStruck) for e in step.events):
        tdef = next((t for t in pack.gm.threats if threat.id.startswith(t.id)), None)
        if tdef is not None:
            step.push += [effect_item(e, {"source": f"doom of {threat.name}"})
                          for e in tdef.doom_effects]
    words = threat_words(pack, state, threat)
    step.events.insert(0, ev.Narrated(text=f"{words[:1].upper()}{words[1:]} moves forward"
                                           f" ({why}).", by="gm"))
    return step
