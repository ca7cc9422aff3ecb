"""The City of Whispers sheet: the generic sections, with the hero's beliefs, Ties and their
secrets, connections, Histories, Demands, power, schemes and factions in the middle."""

from __future__ import annotations

from engine.content.loader import Pack
from engine.rules.sheet import Line, Row, Section, Tag, Tone, Track, default_sheet
from engine.rules.state import HERO, CampaignState
from engine.systems.city_of_whispers.common import MAX_DEMANDS, PRODUCTIVITY
from engine.systems.city_of_whispers.factions_model import Faction, read_factions
from engine.systems.city_of_whispers.sheet import CitySheet

BELIEF_MARKS: dict[str, tuple[str, Tone, Tone, str]] = {"active": ("●", "good", "plain", ""),
                "challenged": ("◐", "mixed", "plain", "challenged"),
                "wrong": ("✗", "bad", "dim", "proven wrong: no advantage")}
SECRET_TAGS = {"intact": Tag(text="secret intact", tone="good"),
               "marked": Tag(text="secret marked", tone="mixed"),
               "erased": Tag(text="secret public", tone="dim")}


def beliefs(sheet: CitySheet) -> Section | None:
    """Each belief and its state; beliefs still to write."""
    rows: list[Row] = []
    for b in sheet.beliefs:
        bullet, bullet_tone, tone, detail = BELIEF_MARKS.get(b.state, BELIEF_MARKS["active"])
        rows.append(Line(bullet=bullet, bullet_tone=bullet_tone, text=b.text, tone=tone,
                         detail=detail))
    if sheet.beliefs_to_write:
        rows.append(Line(text=f"{sheet.beliefs_to_write} to write (Write a Belief)",
                         tone="mixed"))
    return Section(title="Beliefs", rows=rows) if rows else None


def ties(sheet: CitySheet) -> Section | None:
    """Each Tie, the insight into their secret and where the secret stands."""
    rows: list[Row] = []
    for t in sheet.ties.values():
        tags = [SECRET_TAGS[t.secret]] if t.secret in SECRET_TAGS else []
        if not t.active:
            tags.append(Tag(text="no longer your Tie", tone="dim"))
        rows.append(Line(bullet="●" if t.active else "○",
                         bullet_tone="good" if t.active else "dim", text=t.name,
                         bold=t.active, tone="plain" if t.active else "dim",
                         detail=f"you know of their {t.insight}", tags=tags))
    if sheet.ties_to_name:
        rows.append(Line(text=f"{sheet.ties_to_name} to name (Name a Tie)", tone="mixed"))
    return Section(title="Ties", rows=rows) if rows else None


def city(sheet: CitySheet) -> Section | None:
    """Connections, Histories (marked once recalled) and the city's Demands."""
    rows: list[Row] = []
    if sheet.connections:
        rows.append(Line(lead="Connected: ", lead_tone="good", text=", ".join(sheet.connections)))
    for h in sheet.histories:
        rows.append(Line(bullet="■" if h.marked else "□", bullet_tone="dim" if h.marked
                         else "good", text=f"History: {h.neighborhood}",
                         tone="dim" if h.marked else "plain"))
    for i, d in enumerate(sheet.demands):
        rows.append(Line(bullet="✓" if d.met else "!", bullet_tone="good" if d.met else "mixed",
                         text=f"Demand {i + 1} of {MAX_DEMANDS}: {d.text}",
                         tone="dim" if d.met else "plain"))
    return Section(title="The city", rows=rows) if rows else None


def power(sheet: CitySheet) -> Section:
    """The power's max complexity and the last complexity used."""
    rows: list[Row] = [Line(lead=f"Max complexity {sheet.max_complexity}", lead_tone="accent")]
    if sheet.complexity:
        rows.append(Line(text=f"last used at complexity {sheet.complexity}", tone="dim"))
    return Section(title="Power", rows=rows)


def schemes(sheet: CitySheet) -> Section | None:
    """Each scheme and its Productivity on its -3..+3 scale."""
    if not sheet.schemes:
        return None
    lo, hi = PRODUCTIVITY
    rows: list[Row] = []
    for x in sheet.schemes:
        rows.append(Line(text=x.name))
        rows.append(Track(label="  Productivity", value=x.productivity, min=lo, max=hi))
    return Section(title="Schemes", rows=rows)


def _faction_rows(f: Faction) -> list[Row]:
    rows: list[Row] = []
    if f.aspects:
        rows.append(Line(lead="Aspects: ", text="; ".join(f.aspects)))
    if f.complications:
        rows.append(Line(lead="Complications: ", lead_tone="bad",
                         text="; ".join(f.complications)))
    rows.append(Line(lead="Holds: ", lead_tone="accent",
                     text=", ".join(f.neighborhoods) or "no neighborhood"))
    for p in f.projects:
        state = "done" if p.done else "ready to complete" if p.ready else \
            f"{p.secured} resource(s) secured"
        rows.append(Line(bullet="◆", bullet_tone="good" if p.done else "accent",
                         text=f"Project: {p.name}", detail=f"needs {', '.join(p.needs)}",
                         tags=[Tag(text=state, tone="good" if p.done or p.ready else "dim")]))
    if f.to_write:
        rows.append(Line(text=f"{f.to_write} aspect(s) to write (Write an Aspect)",
                         tone="mixed"))
    return rows


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def factions(sheet: CitySheet, state: CampaignState, gm_title: str) -> list[Section]:
    """The hero's faction in full, then the others in a line each."""
    facs = read_factions(state)
    out: list[Section] = []
    mine = facs.get(sheet.faction or "")
    if mine is not None:
        out.append(Section(title=f"Your faction: {mine.name}", rows=_faction_rows(mine)))
    others: list[Row] = []
    for fid, f in facs.items():
        if fid == sheet.faction:
            continue
        tags = [Tag(text=f"{_count(len(f.aspects), 'aspect')},"
                         f" {_count(len(f.complications), 'complication')}", tone="dim")]
        if f.magistrate:
            tags.append(Tag(text=f"played by the {gm_title}", tone="dim"))
        if f.dispersed:
            tags.append(Tag(text="dispersed", tone="bad"))
        others.append(Line(bullet="○" if f.dispersed else "●",
                           bullet_tone="dim" if f.dispersed else "accent", text=f.name,
                           tone="dim" if f.dispersed else "plain",
                           detail="holds " + (", ".join(f.neighborhoods) or "nothing"),
                           tags=tags))
    if others:
        out.append(Section(title="Factions", rows=others))
    return out


def city_sheet(pack: Pack, state: CampaignState, actor_id: str | None = None
               ) -> list[Section]:
    """The generic sheet with the City of Whispers sections before the cast (a hero's)."""
    actor = state.actor(actor_id or HERO)
    if actor.kind != "hero":  # an NPC keeps no City of Whispers sheet
        return default_sheet(pack, state, actor_id)
    sheet = CitySheet.model_validate(actor.data)
    middle = [s for s in (beliefs(sheet), ties(sheet), city(sheet), power(sheet),
                          schemes(sheet)) if s is not None]
    middle += factions(sheet, state, pack.system.gm_title)
    return default_sheet(pack, state, actor_id, middle=middle)
