"""The character sheet as data: sections of typed rows that a ruleset declares and any front end
draws (the app's sidebar draws them without knowing the system).

Rows: a ``Stat`` with its bounds, a ``Track`` with min/max (a range below zero is a scale with
a marker), a ``Bar`` (a long track out of its maximum), a ``Check`` (a condition, marked or
not), a ``Clock`` (a threat's boxes) and a ``Line`` of text with an optional bullet, a bold
lead, tags and a detail line. ``default_sheet`` is the generic sheet every ruleset starts from.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from engine.content.loader import Pack
from engine.rules.state import HERO, Actor, CampaignState

Tone = Literal["plain", "dim", "good", "bad", "mixed", "accent", "primary"]
"""How a piece of text reads: the front end picks the colour."""


class _Row(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Stat(_Row):
    """A stat with its bounds, drawn as a scale with the value marked."""

    kind: Literal["stat"] = "stat"
    label: str
    value: int
    min: int
    max: int
    note: str = Field("", description="Shown after the scale (e.g. locked).")


class Track(_Row):
    """A counter: filled boxes from ``min`` to ``max``; a scale with a marker when ``min`` is
    below zero; the bare number when it has no (small) maximum."""

    kind: Literal["track"] = "track"
    label: str
    value: int
    min: int = 0
    max: int | None = None


class Bar(_Row):
    """A long track drawn as a bar of ``value`` out of ``max`` (a panels game's Kill or Stun);
    ``low`` and below reads as bad."""

    kind: Literal["bar"] = "bar"
    label: str
    value: int
    max: int
    low: int = 0
    note: str = ""


class Check(_Row):
    """A box to mark (a condition): ``detail`` shows when marked, ``note`` always."""

    kind: Literal["check"] = "check"
    label: str
    marked: bool = False
    detail: str = ""
    note: str = ""


class Clock(_Row):
    """A threat's clock: ``value`` of ``size`` boxes filled; ``detail`` below it."""

    kind: Literal["clock"] = "clock"
    label: str
    value: int
    size: int
    active: bool = True
    detail: str = ""


class Tag(BaseModel):
    """A short marker after a line's detail (e.g. who holds Influence)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    text: str
    tone: Tone = "plain"


class Line(_Row):
    """A line of text: ``bullet``, then ``lead`` in bold, then ``text``; ``detail`` and
    ``tags`` on an indented line below."""

    kind: Literal["line"] = "line"
    text: str = ""
    tone: Tone = "plain"
    bold: bool = False
    bullet: str = ""
    bullet_tone: Tone = "plain"
    lead: str = ""
    lead_tone: Tone = "good"
    detail: str = ""
    tags: list[Tag] = Field(default_factory=list)


Row = Annotated[Stat | Track | Bar | Check | Clock | Line, Field(discriminator="kind")]


class Section(BaseModel):
    """A titled part of the sheet (the first, untitled, names the character)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    title: str = ""
    rows: list[Row] = Field(default_factory=list)


def _move_name(pack: Pack, mid: str) -> str:
    return pack.moves[mid].name if mid in pack.moves else mid


def header(pack: Pack, actor: Actor) -> Section:
    """The character's name, archetype and whether they are out of the scene."""
    arche = pack.archetypes[actor.archetype].name if actor.archetype in pack.archetypes \
        else "Custom hero"
    rows: list[Line] = [Line(text=actor.name, tone="accent", bold=True),
                        Line(text=arche, tone="dim")]
    if actor.taken_out:
        rows.append(Line(text="✖ taken out of the scene", tone="bad", bold=True))
    return Section(rows=list(rows))


def stats(pack: Pack, actor: Actor) -> Section:
    """Every stat on its scale; locked ones say so."""
    return Section(title=pack.system.stat_label, rows=[
        Stat(label=d.name, value=actor.stats.get(sid, 0), min=d.min, max=d.max,
             note="🔒 locked" if sid in actor.locked else "")
        for sid, d in pack.stats.items()])


def conditions(pack: Pack, state: CampaignState, actor: Actor) -> Section | None:
    """Each condition as a box, with its penalty when marked."""
    if not pack.conditions:
        return None
    rows: list[Check] = []
    for cid, c in pack.conditions.items():
        marked = cid in actor.conditions
        detail = (f"{c.penalty:+d} " + ", ".join(_move_name(pack, m) for m in c.penalises)
                  if marked and c.penalises else "")
        rows.append(Check(label=c.name, marked=marked, detail=detail,
                          note="(clearing taken)" if cid in state.scene.clearing else ""))
    return Section(title="Conditions", rows=list(rows))


def tracks(pack: Pack, state: CampaignState, actor: Actor) -> Section | None:
    """The character's tracks, then the campaign's pools."""
    rows = [Track(label=t.name, value=actor.tracks.get(t.id, t.start), min=t.min, max=t.max)
            for t in pack.system.tracks if t.scope == "hero"]
    rows += [Track(label=t.name, value=state.pools.get(t.id, t.start), min=t.min, max=t.max)
             for t in pack.system.tracks if t.scope == "campaign"]
    return Section(title="Tracks", rows=list(rows)) if rows else None


def bonuses(pack: Pack, state: CampaignState, actor: Actor | None = None) -> Section | None:
    """Forward and ongoing bonuses (``actor``'s own, and any without an owner), and hold."""
    mine = [b for b in state.bonuses
            if actor is None or b.owner is None or b.owner == actor.id]
    holds = [h for h in state.holds
             if actor is None or h.owner is None or h.owner == actor.id]
    if not mine and not holds:
        return None
    rows: list[Line] = []
    for b in mine:
        scope = (" on " + ", ".join(_move_name(pack, m) for m in b.moves)) if b.moves else ""
        vs = f" vs {state.npcs[b.target].name}" if b.target in state.npcs else ""
        until = "next roll" if b.expires == "roll" else f"this {b.expires}"
        rows.append(Line(lead=f"{b.amount:+d} {b.kind}", text=f"{scope}{vs}: {b.reason} ({until})"))
    for h in holds:
        rows.append(Line(lead=f"Hold {h.amount}",
                         text=f" on {_move_name(pack, h.move)} ({h.expires})"))
    return Section(title="Bonuses and hold", rows=list(rows))


def growth(actor: Actor) -> Section | None:
    """Flags and advancements taken."""
    flags = [f.replace("_", " ") for f in actor.flags]
    if not flags and not actor.advances:
        return None
    rows = [Line(text=f"★ {f}", tone="primary") for f in flags]
    if actor.advances:
        rows.append(Line(text=f"{len(actor.advances)} advancement(s) taken", tone="dim"))
    return Section(title="Growth", rows=list(rows))


def cast(pack: Pack, state: CampaignState, tags: dict[str, list[Tag]] | None = None
         ) -> Section | None:
    """The NPCs, present ones first: role, whether here, conditions, and any ``tags`` a
    ruleset adds per NPC id."""
    if not state.npcs:
        return None
    rows: list[Line] = []
    for npc in sorted(state.npcs.values(), key=lambda n: (not n.present, n.name)):
        extra = list((tags or {}).get(npc.id, []))
        if npc.conditions:
            extra.append(Tag(text=", ".join(pack.conditions[c].name if c in pack.conditions
                                            else c for c in npc.conditions), tone="bad"))
        rows.append(Line(bullet="●" if npc.present else "○",
                         bullet_tone="good" if npc.present else "dim", text=npc.name,
                         tone="plain" if npc.present else "dim", bold=npc.present,
                         detail=f"{npc.role}{'' if npc.present else ', not here'}",
                         tags=extra))
    return Section(title="Cast", rows=list(rows))


def party(pack: Pack, state: CampaignState, actor: Actor,
          tags: dict[str, list[Tag]] | None = None) -> Section | None:
    """The party's other heroes (a one-hero campaign has none): who acts, their build, their
    conditions, and any ``tags`` a ruleset adds per hero id (Masks: Influence)."""
    others = [h for h in state.heroes if h.id != actor.id]
    if not others:
        return None
    rows: list[Line] = []
    for hero in others:
        extra = list((tags or {}).get(hero.id, []))
        if hero.conditions:
            extra.append(Tag(text=", ".join(pack.conditions[c].name if c in pack.conditions
                                            else c for c in hero.conditions), tone="bad"))
        acting = hero.id == state.acting
        build = (pack.archetypes[hero.archetype].name if hero.archetype in pack.archetypes
                 else "custom hero")
        rows.append(Line(bullet="▶" if acting else "●", bullet_tone="good", text=hero.name,
                         bold=acting, detail=f"{build}{', acting' if acting else ''}",
                         tags=extra))
    return Section(title="Party", rows=list(rows))


def threats(state: CampaignState) -> Section | None:
    """Threats and their clocks, with the next step or the doom."""
    if not state.threats:
        return None
    rows: list[Clock] = []
    for t in state.threats.values():
        detail = (f"next: {t.steps[t.clock]}" if t.active and t.clock < len(t.steps)
                  else f"doom: {t.doom}" if t.doom else "")
        rows.append(Clock(label=t.name, value=t.clock, size=t.size, active=t.active,
                          detail=detail))
    return Section(title="Threats", rows=list(rows))


def session(state: CampaignState) -> Section:
    """The session and the scene."""
    sc = state.scene
    rows: list[Line] = []
    if sc.open:
        rows.append(Line(text=f"Scene {sc.number}: {sc.title}", bold=True))
        if sc.location:
            rows.append(Line(text=sc.location, tone="dim"))
        if sc.stakes:
            rows.append(Line(text=f"At stake: {sc.stakes}", tone="dim"))
    else:
        rows.append(Line(text=f"Between scenes (scene {sc.number} ended)", tone="dim"))
    return Section(title=f"Session {state.session}", rows=list(rows))


def default_sheet(pack: Pack, state: CampaignState, actor_id: str | None = None,
                  middle: list[Section] | None = None,
                  cast_tags: dict[str, list[Tag]] | None = None) -> list[Section]:
    """The generic sheet: the character, stats, conditions, tracks, bonuses and hold, growth,
    then ``middle`` (a ruleset's own sections), the cast, threats and the session."""
    actor = state.actor(actor_id or HERO)
    parts = [header(pack, actor), stats(pack, actor), conditions(pack, state, actor),
             tracks(pack, state, actor), bonuses(pack, state, actor), growth(actor),
             *(middle or []), party(pack, state, actor, cast_tags), cast(pack, state, cast_tags),
             threats(state), session(state)]
    return [p for p in parts if p is not None]
