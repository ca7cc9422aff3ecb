"""Threats and scene framing: what the GM does between the hero's moves.

Threats carry clocks that fill as the story neglects them; a full clock strikes its doom.
Scene framing proposes where the next scene opens, who is there and what is at stake, from the
system's tables, the active threats and the open threads. Every pick uses ``gm_random``, so
the same campaign frames the same scenes.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace

from engine.content import schema as s
from engine.content.loader import Pack
from engine.gm.framing import (
    Lead,
    SceneTest,
    framed_hero,
    held,
    out_of_play,
    place_key,
    place_phrase,
    recent_frames,
    recent_places,
    scene_test,
    used_recently,
    where_place,
)
from engine.gm.oracle import clamp_tension, event_focus, weighted_entry
from engine.gm.values import SceneProposal
from engine.rules import events as ev
from engine.rules.base import Step, effect_item, gm_random
from engine.rules.state import CampaignState, Threat
from engine.rules.threats import (
    advance_threat,
    fill,
    template_for,
    threat_event,
    threat_words,
)


def draw(pack: Pack, state: CampaignState, table_id: str, salt: str) -> s.TableEntry | None:
    """A weighted draw from a table, or None if the pack has no such table."""
    table = pack.tables.get(table_id)
    if table is None:
        return None
    rng = gm_random(state, f"table:{table_id}:{salt}")
    return weighted_entry(rng, table.entries)


def table_sides(table: s.Table) -> int:
    """The die that reads ``table`` by hand: its total weight (d24 for 24 single entries)."""
    return sum(e.weight for e in table.entries)


def entry_for_roll(table: s.Table, roll: int) -> s.TableEntry:
    """The entry a roll of 1..``table_sides`` lands on: the entries in order, each covering as
    many faces as its weight (so a roll by hand has the same odds as the GM's draw)."""
    if not 1 <= roll <= table_sides(table):
        raise ValueError(f"{roll} is outside 1..{table_sides(table)}")
    for entry in table.entries:
        roll -= entry.weight
        if roll <= 0:
            return entry
    raise AssertionError("unreachable: the weights cover every face")


def threat_for_villain(pack: Pack, state: CampaignState, npc_id: str) -> ev.ThreatAdded | None:
    """A threat for a villain NPC, from the pack's threat templates: the one its drive calls
    for (``template_for``)."""
    if not pack.gm.threats:
        return None
    npc = state.npcs[npc_id]
    villains = [t for t in pack.gm.threats if t.kind == "villain"] or list(pack.gm.threats)
    tdef = template_for(state, npc_id, villains, gm_random(state, f"threat:{npc_id}"))
    return threat_event(tdef, state, f"{npc.name}: {tdef.name}", npc_id)


def ignored_after(pack: Pack, threat: Threat) -> int:
    """Scenes in a row ``threat`` may be left alone before its clock moves (its template's
    ``ignored_after``; 1 when it has none)."""
    tdef = next((t for t in pack.gm.threats if t.id == threat.id), None) or next(
        (t for t in pack.gm.threats if threat.id.startswith(f"{t.id}_")), None)
    return tdef.ignored_after if tdef is not None else 1


def threat_pacing(pack: Pack, state: CampaignState) -> list[Step]:
    """At a scene's end, each active threat nobody acted against this scene (no move targeted
    its NPC: absent, or present and left alone) counts one more scene ignored; every
    ``ignored_after`` such scenes in a row its clock moves one segment (its doom strikes when
    the clock fills). A threat confronted this scene starts its count again."""
    steps: list[Step] = []
    number = state.scene.number
    for t in state.threats.values():
        if not t.active:
            continue
        if t.npc is not None and t.confronted == number:
            if t.ignored:
                steps.append(Step([ev.ThreatIgnored(threat=t.id, scenes=0,
                                                        name=threat_words(pack, state, t))]))
            continue
        n, after = t.ignored + 1, ignored_after(pack, t)
        step = Step([ev.ThreatIgnored(threat=t.id, scenes=n, name=threat_words(pack, state, t))])
        if n % after == 0:
            why = ("left unchecked this scene" if after == 1
                   else f"left alone for {n} scenes")
            moved = advance_threat(pack, state, t, 1, why)
            step.events += moved.events
            step.push += moved.push
        steps.append(step)
    return steps


def scene_end_steps(pack: Pack, state: CampaignState) -> list[Step]:
    """At a scene's end: threats left alone move toward their doom (``threat_pacing``);
    tension moves."""
    steps = threat_pacing(pack, state)
    sc = state.scene
    if sc.misses > sc.hits:
        new, why = clamp_tension(state.tension + 1), "the scene slipped out of your control"
    elif sc.hits > sc.misses:
        new, why = clamp_tension(state.tension - 1), "you kept the scene in hand"
    else:
        new, why = state.tension, ""
    if new != state.tension:
        steps.append(Step([ev.TensionChanged(value=new, reason=why)]))
    return steps


def _away(where: str, location: str) -> bool:
    """Whether an NPC whose whereabouts are ``where`` is kept out of a scene at ``location``:
    known to be elsewhere (captured, gone home...) unless the place names them."""
    place = " ".join((where_place(where) or where).lower().split())
    for word in _PLACE_WORDS:
        place = place.removeprefix(word)
    return bool(place) and place not in " ".join(location.lower().split())


_PLACE_WORDS = ("at ", "in ", "on ", "near ", "by ", "inside ", "the ")
"""Leading words a whereabouts may have that a scene's location does not ("at the pier")."""


VILLAIN_SHOWS = 0.35
"""How often the most pressing threat's NPC is in a framed scene when its clock is empty; the
chance grows with the clock (to 0.75 when it is nearly full), so quiet threats move off-page."""


def villain_chance(threat: Threat) -> float:
    """The chance that ``threat``'s NPC is in the next framed scene."""
    return VILLAIN_SHOWS + 0.4 * threat.clock / max(1, threat.size)


THREAD_WEIGHT, HELD_WEIGHT, THREAT_WEIGHT = 7.0, 6.0, 3.0
"""How strongly the story's leads call for the next scene: the open threads together (the
newest most), each character held at a known place, the threats together (the most pressing
most)."""


def _known_places(pack: Pack, state: CampaignState) -> list[str]:
    """The places a thread may send the next scene to, longest first: the table's and the
    scenes' own, but none of the last ``FRAME_MEMORY`` scenes' (a thread left open there
    would bring every scene back to it; a captive's prison is the one exception)."""
    places = {str(f.get("place", "")) for f in recent_frames(state)} | {state.scene.location}
    table = pack.tables.get("locations")
    places |= {e.text for e in table.entries} if table is not None else set()
    recent = recent_places(state)
    return sorted((p for p in places if len(p) > 6 and place_key(p) not in recent),
                  key=lambda p: (-len(p), p))


def story_leads(pack: Pack, state: CampaignState) -> list[Lead]:
    """The scenes the story calls for: each character held at a known place (their rescue,
    there), the open threads (at the place a thread names, if it names one the story knows)
    and the active threats' next steps."""
    leads: list[Lead] = []
    threads = state.open_threads
    covered: set[str] = set()
    for n in sorted(state.npcs.values(), key=lambda a: a.id):
        place = where_place(n.where)
        if not place or "dead" in n.conditions:
            continue
        about = [t for t in threads if n.name.lower() in t.text.lower()]
        covered.update(t.id for t in about)
        if about or held(n.where):
            stakes = about[-1].text if about else f"Get {n.name} out of {place}"
            leads.append(Lead("held" if held(n.where) else "thread", stakes, HELD_WEIGHT,
                              place, n.id))
    rest = [t for t in threads if t.id not in covered]
    total = sum(range(1, len(rest) + 1))
    known = _known_places(pack, state)
    leads += [Lead("thread", t.text, THREAD_WEIGHT * (i + 1) / total,
                   next((p for p in known if p.lower() in t.text.lower()), ""))
              for i, t in enumerate(rest)]
    active = [t for t in state.threats.values() if t.active]
    press = sum(0.5 + t.clock / max(1, t.size) for t in active)
    for t in active:
        nxt = t.steps[t.clock] if t.clock < len(t.steps) else t.doom
        words = threat_words(pack, state, t)
        leads.append(Lead("threat", f"{words[:1].upper()}{words[1:]} is closing in. Next: {nxt}",
                          THREAT_WEIGHT * (0.5 + t.clock / max(1, t.size)) / press,
                          npc=t.npc, threat=t.id))
    return leads


def _fresh(pack: Pack, state: CampaignState, table_id: str, rng: random.Random,
           stale: Callable[[str], bool]) -> s.TableEntry | None:
    """A weighted draw from a table, leaving out what the last scenes used (``stale``);
    from the whole table when everything was used."""
    table = pack.tables.get(table_id)
    if table is None:
        return None
    entries = [e for e in table.entries if not stale(e.text)] or table.entries
    return rng.choices(entries, weights=[e.weight for e in entries], k=1)[0]


def _the_scene(pack: Pack, state: CampaignState, rng: random.Random,
               salt: str) -> tuple[Lead, Lead | None, SceneTest]:
    """The lead the story expects, what the scene test makes of it (the lead that
    interrupts it, if any) and the test."""
    leads = story_leads(pack, state)
    if not leads:
        comp = draw(pack, state, "complications", salt)
        leads = [Lead("complication", comp.text if comp else "What does the hero risk here?",
                      1.0)]
    lead = rng.choices(leads, weights=[x.weight for x in leads], k=1)[0]
    test = scene_test(rng, state.tension)
    if test.outcome == "altered":
        comp = _fresh(pack, state, "complications", rng, lambda t: t in lead.stakes)
        if comp is not None:
            stop = "" if lead.stakes.endswith((".", "!", "?")) else "."
            lead = replace(lead, stakes=f"{lead.stakes}{stop} Altered: {comp.text}")
    elif test.outcome == "interrupted":
        others = [x for x in leads if x.stakes != lead.stakes]
        if others:
            cut = rng.choices(others, weights=[x.weight for x in others], k=1)[0]
            return lead, replace(cut, stakes=f"Interrupted: {cut.stakes}", place=""), test
        comp = _fresh(pack, state, "complications", rng, lambda t: False)
        text = comp.text if comp else "Something else demands the hero first."
        return lead, Lead("complication", f"Interrupted: {text}", 1.0), test
    return lead, None, test


def _cast(state: CampaignState, lead: Lead, location: str, rng: random.Random) -> list[str]:
    """Who is in the scene: the lead's captive (held there), its threat's villain on its
    own terms, and one or two others; never the dead, the taken-out or those known to be
    elsewhere."""
    npcs = state.npcs
    away = {n.id for n in npcs.values() if out_of_play(n) or _away(n.where, location)}
    present: list[str] = []
    if lead.kind == "held" and lead.npc in npcs and lead.npc not in away:
        present.append(lead.npc)
    active = [t for t in state.threats.values() if t.active]
    threat = (state.threats.get(lead.threat or "") if lead.kind == "threat" else None) or (
        max(active, key=lambda t: (t.clock / t.size, t.id)) if active else None)
    if (threat and threat.npc and threat.npc in npcs
            and rng.random() < villain_chance(threat) and threat.npc not in away):
        present.append(threat.npc)
    # a threat's NPC comes only on its own terms (above), never as a passer-by
    behind = {t.npc for t in active if t.npc}
    others = [n for n in npcs.values() if n.id not in present and n.id not in behind]
    rng.shuffle(others)
    present += [n.id for n in others[: rng.randint(1, 2)] if n.id not in away]
    return present


def propose_scene(pack: Pack, state: CampaignState, reroll: int = 0,
                  place_roll: int | None = None) -> SceneProposal:
    """An opening for the next scene from the story (``story_leads``), tried by the scene
    test: where, who, what is at stake, and a line to start it. A place or an opening of the
    last ``FRAME_MEMORY`` scenes is not proposed again unless the story returns there (a
    lead's own place). ``place_roll`` is the player's own roll on the ``locations`` table."""
    salt = f"scene:{state.scene.number + 1}:{reroll}"
    rng = gm_random(state, salt)
    expected, cut, test = _the_scene(pack, state, rng, salt)
    lead = cut or expected
    places = pack.tables.get("locations")
    recent = recent_places(state)
    if lead.place and place_roll is None:
        location = lead.place  # the story returns there
    elif place_roll is not None and places is not None:
        location = entry_for_roll(places, place_roll).text
    else:
        loc = _fresh(pack, state, "locations", rng, lambda t: place_key(t) in recent)
        location = loc.text if loc else "somewhere in the city"
    present = _cast(state, lead, location, rng)
    hero = framed_hero(state)
    names = {"hero": hero.name, "location": location, "threat": "trouble"}
    if lead.threat in state.threats:
        names["threat"] = threat_words(pack, state, state.threats[lead.threat])
    if state.open_threads:
        names["thread"] = state.open_threads[-1].text
    for role in ("villain", "adult", "teammate", "bystander"):
        for nid in present:
            if state.npcs[nid].role == role:
                names.setdefault(role, state.npcs[nid].name)
    if present:
        names["npc"] = state.npcs[present[0]].name
    table = "rescue_openings" if lead.kind == "held" and lead.place == location else ""
    op = (_fresh(pack, state, table, rng, lambda t: used_recently(state, t)) if table
          else None) or _fresh(pack, state, "scene_openings", rng,
                               lambda t: used_recently(state, t))
    opening = fill(op.text, names) if op else f"{hero.name} arrives at {location}."
    title = location.split(",")[0].strip().rstrip(".")
    return SceneProposal(title=title[:1].upper() + title[1:], location=location,
                         stakes=lead.stakes, present=tuple(present), opening=opening,
                         reroll=reroll, test=test.text)


FOCUS_WORDS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("new", ("new face", "newcomer", "stranger", "arrive", "wander into", "show up", "press",
             "gets involved")),
    ("thread", ("thread",)),
    ("threat", ("threat", "faction", "makes its move", "changes hands", "villain")),
    ("character", ("someone", "tie with", "npc", "character", "ally", "contact", "friend")),
    ("hero", ("hero", "about you", "goes wrong", "goes unexpectedly", "rumor")),
    ("place", ("place", "itself", "scene", "street", "weather")),
)
"""What a random event's focus is about, by its words (Mythic's event focus): someone or
something new, an open thread, a threat, a character, the hero, the place. Each system's
``random_events`` are read this way (a test checks that every focus is understood)."""


def focus_kind(focus: str) -> str:
    """The kind of a random event's focus (``FOCUS_WORDS``), "" when its words name none."""
    words = focus.lower()
    return next((kind for kind, keys in FOCUS_WORDS if any(k in words for k in keys)), "")


def _about(pack: Pack | None, state: CampaignState, kind: str, rng: random.Random) -> str:
    """What the ledger names for one kind of focus, "" when it has nothing of that kind."""
    if kind == "thread":
        threads = [t.text for t in state.open_threads]
        return rng.choice(threads) if threads else ""
    if kind == "character":
        npcs = [n for n in sorted(state.npcs.values(), key=lambda n: n.id)
                if not out_of_play(n)]
        pool = [n.name for n in npcs if n.present] or [n.name for n in npcs]
        return rng.choice(pool) if pool else ""
    if kind == "threat":
        active = [t for t in state.threats.values() if t.active]
        if not active:
            return ""
        t = max(active, key=lambda t: (t.clock / t.size, t.id))
        words = threat_words(pack, state, t) if pack is not None else t.name
        return f"{words[:1].upper()}{words[1:]}"
    if kind == "hero":
        return framed_hero(state).name
    if kind == "place":
        return place_phrase(state.scene.location)
    return ""


_FALLBACK = ("thread", "character", "threat", "hero")


def event_about(state: CampaignState, focus: str, rng: random.Random,
                pack: Pack | None = None) -> str:
    """What the ledger names for a random event's focus (Mythic's lists): an open thread,
    a character of the scene (else of the story; never the dead or taken out), the most
    pressing threat, the hero or the scene's place. When the ledger has nothing of that kind
    it names what it has (a thread, a character, a threat, the hero), so an event never
    sends the story somewhere it does not know; only a focus on someone new names nobody."""
    kind = focus_kind(focus) or "character"
    if kind == "new":
        return ""
    for k in (kind, *_FALLBACK):
        about = _about(pack, state, k, rng)
        if about:
            return about
    return ""


def random_event(pack: Pack, state: CampaignState, salt: str) -> Step:
    """A twist: a focus from the event table, what it is about from the ledger (a thread, a
    character, a threat, the hero, the place) and an action word, with its effects; the
    subject word comes from the tables only when the focus brings someone new."""
    rng = gm_random(state, f"event:{salt}")
    focus_list = event_focus(pack)
    focus = rng.choices(focus_list, weights=[e.weight for e in focus_list], k=1)[0]
    act = draw(pack, state, "oracle_actions", f"{salt}:a")
    subj = draw(pack, state, "oracle_subjects", f"{salt}:s")
    about = event_about(state, focus.text, rng, pack)
    # the inspiration's subject is the ledger's own when it names one: no unknown places
    subject = about or (subj.text if subj else "")
    step = Step([ev.RandomEvent(focus=focus.text, action=act.text if act else "",
                                subject=subject, about=about)])
    step.push = [effect_item(e, {"source": f"random event: {focus.text}"})
                 for e in focus.effects]
    return step
