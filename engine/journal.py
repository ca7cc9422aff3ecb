"""The event log as a readable journal: one Markdown line (or a few) per event that matters.

Rolls explain themselves: dice kept and dropped, every modifier and its source, the clamp,
the total, the band and the odds it had.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from engine.content.loader import Pack
from engine.rules.events import CORE
from engine.rules.fight.dice import ROUTINE
from engine.rules.fight.events import rolled_form
from engine.rules.registry import Registry
from engine.rules.text import upper_first as upper_first  # re-exported: its old home
from engine.systems import RULESETS, ruleset_class

SILENT = {"ActionStarted", "FlowChanged", "OnceUsed", "DataSet", "QuietBeat"}


def _name(pack: Pack | None, kind: str, key: str) -> str:
    if pack is None:
        return key
    tables: dict[str, dict[str, Any]] = {"stat": pack.stats, "cond": pack.conditions,
                                         "track": pack.tracks}
    table = tables[kind]
    return table[key].name if key in table else key


def result_label(band_name: str, total: int) -> str:
    """A band and its total for a header: "Weak hit (7)", or "Weak hit (7-9): 8" when the
    band's name carries its range already."""
    return f"{band_name}: {total}" if band_name.endswith(")") else f"{band_name} ({total})"


def band_range(band: dict[str, Any]) -> str:
    """A band's totals in words: ``≤14``, ``15-19``, ``20+``, ``any``."""
    lo, hi = band.get("min"), band.get("max")
    if lo is None and hi is None:
        return "any"
    if lo is None:
        return f"≤{hi}"
    if hi is None:
        return f"{lo}+"
    return str(lo) if lo == hi else f"{lo}-{hi}"


def bands_line(bands: list[dict[str, Any]]) -> str:
    """The bands a roll used, low to high: ``Miss ≤14 · Success 15-19 · Strong 20+``."""
    ordered = sorted(bands, key=lambda b: -(10**9) if b.get("min") is None else b["min"])
    return " · ".join(f"{b.get('name', b['id'])} {band_range(b)}" for b in ordered)


def roll_why(e: dict[str, Any]) -> str:
    """One line explaining a roll: the dice, the total (and what it was against: a fight's
    roll), the band (and, when the dice forced it, which band the total gave and why), the
    odds, every modifier, the clamp, and the bands when the ruleset chose them for this roll.
    A routine check (a fight's, no die) says no seeded or entered."""
    faces = " ".join(str(f) for f in e["kept"])
    dropped = f" (dropped {' '.join(str(f) for f in e['dropped'])})" if e["dropped"] else ""
    mods = ", ".join(f"{m[0]} {int(m[1]):+d}" for m in e["modifiers"]) or "no modifiers"
    clamp = ""
    if e.get("clamp") and e["raw_modifier"] != e["modifier"]:
        lo, hi = e["clamp"]
        clamp = f" → clamped to {e['modifier']:+d} (limits {lo:+d}..{hi:+d})"
    source = "" if e["dice"] == ROUTINE else " (entered)" if e.get("entered") else " (seeded)"
    vs = ""
    if e.get("against") is not None:
        vs = f" vs {e['against']}" + (f" ({e['against_name']})" if e.get("against_name") else "")
    odds = e.get("odds", {}).get(e["band"])
    had = f"; it had {odds}" if odds else ""
    forced = ""
    if e.get("override"):
        names = {b["id"]: b.get("name", b["id"]) for b in e.get("bands") or []}
        was = e["override"].get("from", "")
        gave = names.get(was, upper_first(was.replace("_", " ")))
        forced = f" ({e['override'].get('why', 'the dice')}; the total gave {gave})"
    bands = f" Bands: {bands_line(e['bands'])}." if e.get("bands") else ""
    return (f"{e['dice']} [{faces}]{dropped}{source} {e['modifier']:+d} = **{e['total']}**{vs}"
            f" → **{e['band_name']}**{forced}{had}. Modifiers: {mods}{clamp}.{bands}")


def scene_heading(e: dict[str, Any]) -> str:
    """A scene's title and place, the place only once: a title that is the start of the
    location (as the GM's framing makes it) gives the location alone."""
    title: str = e.get("title", "").strip()
    where: str = e.get("location", "").strip()
    if not where:
        return title
    head = where.split(",")[0].strip().rstrip(".")
    if not title or title.rstrip(".").lower() == head.lower():
        return upper_first(where)
    if where.rstrip(".").lower() in title.lower():  # "Lantern Row by night" at "Lantern Row"
        return title
    return f"{title} — {where}"


def registry_of(pack: Pack | None) -> Registry:
    """The registry of the pack's ruleset (the core's without a pack or with an unknown
    ruleset): it writes the journal lines of the system's own events and the fight's."""
    if pack is None or pack.system.ruleset not in RULESETS:
        return CORE
    return ruleset_class(pack.system.ruleset).registry


def render(e: dict[str, Any], pack: Pack | None = None, npcs: dict[str, str] | None = None
           ) -> str | None:
    """The journal line for one event dict, or None for bookkeeping events.

    ``npcs`` names the characters by id (NPCs and heroes). In a party an event carries
    ``acting``, the name of the hero whose turn it was (``spotlight`` adds it): lines then
    name that hero where a one-hero journal says "you".
    """
    registry = registry_of(pack)
    e = registry.filled(e)  # what the saved form leaves out, back (a roll's defaults...)
    t = e.get("type", "")
    npcs = npcs or {}
    gm = pack.system.gm_title if pack is not None else "GM"
    acting: str | None = e.get("acting")
    acting_ids = ("hero", e.get("acting_id") or "hero")  # the acting hero: its id, the old word

    def who(x: str) -> str:
        return (acting or "you") if x in acting_ids else npcs.get(x, x)

    def whose(x: str) -> str:
        """"Nova: " before a line about ``x``'s sheet, in a party or for another character."""
        return "" if x in acting_ids and not acting else f"{upper_first(who(x))}: "

    if t in registry.journal:  # the system's own events, and the fight's
        return registry.line(e, who)
    match t:
        case _ if t in SILENT:
            return None
        case "Narrated":
            if e["by"] == "player":
                return f"> {e['text']}"
            if e["by"] == "gm":
                return f"**{gm}:** {e['text']}"
            return f"_{e['text']}_"
        case "MoveTriggered":
            target = f" → {who(e['target'])}" if e.get("target") else ""
            by = f"{acting}: " if acting else ""
            return f"### {by}{e['name']}{target}"
        case "Rolled" | "FightRolled":  # a fight's roll before it was a Rolled: read as one
            roll = rolled_form(e) if t == "FightRolled" else e
            by = f"{upper_first(who(roll['actor']))} {roll['what']}: " if roll.get("what") else ""
            return f"🎲 {by}{roll_why(roll)}"
        case "RollAdjusted":
            return (f"🎲 {e['source']} {e['amount']:+d}: now {e['total']} →"
                    f" **{e['band_name']}**")
        case "OutcomeReached":
            text: str = e["text"]
            return text
        case "OptionsChosen":
            texts = [t.strip() for t in e["texts"] if t.strip()]
            if not texts:
                return None  # nothing picked from an "up to N" list: no empty "Chosen:" line
            joined = "; ".join(t[:-1] if t.endswith(".") and i < len(texts) - 1 else t
                               for i, t in enumerate(texts))
            return "Chosen: " + joined
        case "QuestionsAsked":
            return "Asked: " + " / ".join(e["questions"])
        case "QuestionAnswered":
            if e.get("by") == "player":
                return f"? {e['question']} — {e['answer']} _(your answer)_"
            drawn = f" _({e['drawn_from']})_" if e.get("drawn_from") else ""
            return f"? {e['question']} — **{gm}:** {e['answer']}{drawn}"
        case "ConditionMarked":
            why = f" ({e['reason']})" if e.get("reason") else ""
            cond = _name(pack, "cond", e["condition"])
            return f"⚑ {upper_first(who(e['who']))} marked {cond}{why}"
        case "ConditionCleared":
            why = f" ({e['reason']})" if e.get("reason") else ""
            return (f"✓ {upper_first(who(e['who']))} cleared"
                    f" {_name(pack, 'cond', e['condition'])}{why}")
        case "LabelsShifted":
            parts = ", ".join(f"{_name(pack, 'stat', k)} {v:+d} (now {e['values'][k]:+d})"
                              for k, v in e["changes"].items())
            label = pack.system.stat_label if pack is not None else "Stats"
            return f"↕ {whose(e.get('who', 'hero'))}{label} shift: {parts}"
        case "LabelLocked":
            return f"🔒 {_name(pack, 'stat', e['stat'])} is locked for good"
        case "TrackChanged":
            name = _name(pack, "track", e["track"])
            why = f" ({e['reason']})" if e.get("reason") else ""
            mine = whose(e.get("who", "hero")) if e.get("scope") != "campaign" else ""
            return f"{mine}{name} {e['delta']:+d} → {e['value']}{why}"
        case "BonusAdded":
            scope = f" on {', '.join(e['moves'])}" if e["moves"] else ""
            vs = f" against {who(e['target'])}" if e.get("target") else ""
            mine = whose(e.get("owner", "hero"))
            if e["expires"] == "roll":
                why = f" ({e['reason']})" if e.get("reason") and mine else ""
                return f"{mine}{e['amount']:+d} {e['kind']} on the next roll{why}"
            return (f"{mine}{e['amount']:+d} {e['kind']}{scope}{vs} ({e['reason']};"
                    f" until the {e['expires']} ends)")
        case "BonusesExpired":
            return None
        case "HoldChanged":
            return f"Hold on {e['move']}: {e['value']}"
        case "TakenOut":
            out = who(e.get("who", "hero"))
            if out == "you":
                return "✖ You are taken out of the scene" if e["out"] else "You are back in action"
            return (f"✖ {out} is taken out of the scene" if e["out"]
                    else f"{out} is back in action")
        case "FlagSet":
            return f"• {e['flag'].replace('_', ' ')}: {'yes' if e['value'] else 'no'}"
        case "AdvanceTaken":
            return f"★ Advancement: {e['text']}"
        case "NPCAdded":
            return f"• {e['name']} ({e['role']}) joins the story"
        case "HeroAdded":
            arch = e.get("archetype")
            if arch and pack is not None and arch in pack.archetypes:
                arch = pack.archetypes[arch].name
            if arch and str(arch).casefold() == str(e["name"]).casefold():
                arch = None  # "Rivet (Rivet)": the ready-made hero under its own name
            return f"• {e['name']}{f' ({arch})' if arch else ''} joins the party"
        case "HeroSwitched":
            was = f" (from {npcs.get(e['was'], e['was'])})" if e.get("was") else ""
            return f"🎭 The spotlight turns to {npcs.get(e['hero'], e['hero'])}{was}"
        case "NPCPresence":
            return f"• {who(e['npc'])} {'enters' if e['present'] else 'leaves'} the scene"
        case "SceneStarted":
            stakes = f"\n_At stake: {e['stakes']}_" if e.get("stakes") else ""
            return f"\n## Scene {e['number']}: {scene_heading(e)}{stakes}"
        case "SceneEnded":
            return f"_Scene {e['number']} ends._"
        case "Recovered":
            when = str(e.get("at", ""))[:16].replace("T", " ")
            return (f"_The save was recovered here ({when} UTC): what came just before was in a"
                    f" damaged file, set aside in the campaign's folder; the story goes on from"
                    f" the last saved state._")
        case "SessionStarted":
            return f"\n# Session {e['number']}"
        case "SessionEnded":
            return f"_Session {e['number']} ends._"
        case "ClearingActionTaken":
            return f"(You took the action that clears {_name(pack, 'cond', e['condition'])})"
        case "GMMoveMade":
            return f"**{gm} — {e['name']}** ({e['kind']}): {e['text']}\n  _why: {e['reason']}_"
        case "ThreatAdded":
            return f"☠ Threat: {e['name']} (clock 0/{e['size']})"
        case "ClockChanged":
            step = f": {e['step']}" if e.get("step") else ""
            return f"⏱ {e.get('name') or e['threat']}: clock {e['delta']:+d} → {e['value']}{step}"
        case "StanceChanged":
            why = f" ({e['reason']})" if e.get("reason") else ""
            toward = who(e.get("hero", "hero"))
            was = f", was {e['was']}" if e.get("was") else ""
            return f"♥ {upper_first(who(e['npc']))} is now {e['stance']} toward {toward}{was}{why}"
        case "ThreatIgnored":
            name = e.get("name") or e["threat"]
            if not e["scenes"]:
                return (f"⏳ {upper_first(name)} was confronted: its count of quiet scenes starts"
                        " again")
            runs = "a scene" if e["scenes"] == 1 else f"{e['scenes']} scenes running"
            return f"⏳ Nobody stood against {name} this scene ({runs})"
        case "DoomStruck":
            return f"☠ **Doom:** {e['text']}"
        case "ThreadsChanged":
            changes = [f"+ {t}" for t in e["added"]] + [f"- {t}" for t in e["removed"]]
            return "Threads: " + "; ".join(changes) if changes else None
        case "LedgerChanged":
            return ledger_line(e, npcs)
        case "OracleAnswered":
            word = ("Exceptional " if e["exceptional"] else "") + e["answer"]
            twist = ", and a twist!" if e["twist"] else ""
            return (f"🔮 _{e['question']}_ ({e['level']}, {e['chance']}% yes) — d100"
                    f" {e['roll']}: **{word[0].upper() + word[1:]}**{twist}"
                    f" (yes {e['odds'].get('yes', '?')}, exceptional yes"
                    f" {e['odds'].get('exceptional yes', '?')},"
                    f" twist {e['odds'].get('twist', '?')})")
        case "RandomEvent":
            about = f" ({e['about']})" if e.get("about") else ""
            return (f"⚡ **Random event:** {e['focus']}{about} — _{e['action']} /"
                    f" {e['subject']}_")
        case "Edited":  # a value set by hand (Game.edit): its words were made then
            why = f" ({e['reason']})" if e.get("reason") else ""
            return f"✎ Edited by hand: {e.get('text') or e['what'] + ' ' + e['key']}{why}"
        case "DiceModeChanged":
            how = {"seeded": "the campaign rolls them", "physical": "you roll and type them",
                   "mixed": "each roll asks who rolls"}.get(e["mode"], e["mode"])
            return f"🎲 Dice from now on: {how}."
        case "TensionChanged":
            return f"Tension → {e['value']}" + (f" ({e['reason']})" if e.get("reason") else "")
    return f"({t})"


def ledger_line(e: dict[str, Any], names: Mapping[str, str]) -> str | None:
    """The journal line of a ``LedgerChanged`` event (``names``: actor id -> name)."""
    text, was, kind, op = e.get("text", ""), e.get("was", ""), e["kind"], e["op"]
    by = f" _({e['source']})_" if e.get("source") and e["source"] != "by hand" else ""
    if kind == "where":
        who = names.get(e["id"], e["id"])
        return (f"📍 Where {who} is now: {text}" if text
                else f"📍 Where {who} is now: unknown")
    if kind == "thread":
        note = f" — {e['note']}" if e.get("note") else ""
        return {
            "open": f"🧵 New thread: {text}{note}{by}",
            "edit": f"🧵 Thread reworded: {was} → {text}{note}" if was != text
            else f"🧵 Thread {text}: note{note or ' cleared'}",
            "resolve": f"🧵 Thread resolved: ~~{text}~~",
            "reopen": f"🧵 Thread open again: {text}",
            "remove": f"🧵 Thread struck from the ledger: {was}",
        }.get(op)
    if kind == "fact":
        about = [names.get(a, a) for a in e.get("about", [])]
        whom = f" (about {', '.join(about)})" if about else ""
        return {
            "record": f"📜 Fact: {text}{whom}{by}",
            "edit": f"📜 Fact corrected: {was} → {text}{whom}",
            "remove": f"📜 Fact struck from the ledger: {was}",
        }.get(op)
    return None


def spotlight(events: Iterable[dict[str, Any]], names: dict[str, str],
              acting: str | None = None, party: bool = False) -> Iterator[dict[str, Any]]:
    """The events, each with ``acting_id``, the id of the hero whose turn it was (the lines
    speak of that hero as "you"), and (once there is a party) ``acting``, that hero's name.
    ``names`` (id -> name) learns the characters added as they pass; ``acting`` is the id of
    the hero acting before the first event (by default the one the first switch of the
    spotlight is from); ``party``: the campaign has several heroes already (else the first
    ``HeroAdded`` says so)."""
    events = list(events)
    if acting is None:
        acting = next((str(e.get("was", "")) for e in events
                       if e.get("type") == "HeroSwitched"), None) or None
    for e in events:
        t = e.get("type")
        if t in ("NPCAdded", "HeroAdded"):
            names[e["id"]] = e["name"]
            party = party or t == "HeroAdded"
        elif t == "HeroSwitched":
            acting = e["hero"]
        if acting is not None:
            e = {**e, "acting_id": acting}
            if party:
                e["acting"] = names.get(acting, acting)
        yield e


def render_all(events: Iterable[dict[str, Any]], pack: Pack | None = None,
               names: Mapping[str, str] | None = None, acting: str | None = None,
               party: bool = False) -> list[str]:
    """Journal lines for a sequence of events; ``names``, ``acting`` and ``party`` as
    ``spotlight`` takes them (for a whole campaign: every character by id and the party's
    first hero)."""
    npcs: dict[str, str] = dict(names or {})
    out: list[str] = []
    header: tuple[int, int] | None = None  # (scene number, index of its header line)
    for e in spotlight(events, npcs, acting, party):
        if e.get("type") == "SceneStarted":
            if header and header[0] == e["number"]:
                out.pop(header[1])  # the scene was framed anew before anything happened
            header = (e["number"], len(out))
        line = render(e, pack, npcs)
        if line is not None:
            out.append(line)
    return out
