"""The event log as a readable journal: one Markdown line (or a few) per event that matters.

Rolls explain themselves: dice kept and dropped, every modifier and its source, the clamp,
the total, the band and the odds it had.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.content.loader import Pack
from engine.rules.events import CORE
from engine.rules.fight.dice import ROUTINE
from engine.rules.fight.events import rolled_form
from engine.rules.ledger import progress_bar, progress_score
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


def modifiers_text(mods: Sequence[Sequence[Any]], sep: str = ", ") -> str:
    """A roll's modifiers in words (``modifier_words``): ``Strength +12, hero point +5``. A
    zero after the first (the stat's) is a note that explains the roll without changing it
    (M&M's DC and the bonus that gives 55% against it): it shows without a "+0"."""
    return sep.join(modifier_words(m, first=not i) for i, m in enumerate(mods)) or "no modifiers"


def modifier_words(m: Sequence[Any], first: bool = True) -> str:
    """One modifier: ``Strength +12``; a source that ends in its own number (a panels
    characteristic) gives what it adds in brackets, so the sum reads: ``Dexterity 24 (+6)``;
    a zero that is not ``first`` is a note, shown alone."""
    source, amount = str(m[0]), int(m[1] or 0)
    if not first and not amount:
        return source
    last = source.rpartition(" ")[2]
    if last.lstrip("+-").isdigit() and last != source:
        return f"{source} ({amount:+d})"
    return f"{source} {amount:+d}"


def roll_why(e: dict[str, Any]) -> str:
    """One line explaining a roll: the dice, the total (and what it was against: a fight's
    roll), the band (and, when the dice forced it, which band the total gave and why), the
    odds, every modifier, the clamp, and the bands when the ruleset chose them for this roll.
    A routine check (a fight's, no die) says no seeded or entered."""
    faces = " ".join(str(f) for f in e["kept"])
    dropped = f" (dropped {' '.join(str(f) for f in e['dropped'])})" if e["dropped"] else ""
    mods = modifiers_text(e["modifiers"])
    clamp = ""
    if e.get("clamp") and e["raw_modifier"] != e["modifier"]:
        lo, hi = e["clamp"]
        clamp = f" → clamped to {e['modifier']:+d} (limits {lo:+d}..{hi:+d})"
    source = "" if e["dice"] == ROUTINE else " (entered)" if e.get("entered") else " (seeded)"
    vs = ""
    if e.get("against") is not None:
        vs = f" vs {e['against']}" + (f" ({e['against_name']})" if e.get("against_name") else "")
    odds = e.get("odds", {}).get(e["band"])
    had = f"; chance of this result {odds}" if odds else ""
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


@dataclass(frozen=True)
class _Line:
    """What one event's journal line is written from: the event (filled), the pack, the
    characters' names by id, the GM's title and the acting hero (its name in a party)."""

    e: dict[str, Any]
    pack: Pack | None
    npcs: dict[str, str]
    gm: str
    acting: str | None
    acting_ids: tuple[str, str]

    def who(self, x: str) -> str:
        """A character by id: "you" (or the acting hero's name in a party), else its name."""
        return (self.acting or "you") if x in self.acting_ids else self.npcs.get(x, x)

    def whose(self, x: str) -> str:
        """"Nova: " before a line about ``x``'s sheet, in a party or for another character."""
        return "" if x in self.acting_ids and not self.acting else f"{upper_first(self.who(x))}: "


def _why(e: dict[str, Any]) -> str:
    """`` (reason)`` when the event gives one, else nothing."""
    return f" ({e['reason']})" if e.get("reason") else ""


def _silent(c: _Line) -> str | None:
    """No line: bookkeeping."""
    return None


def _narrated(c: _Line) -> str | None:
    """The player's words quoted, the GM's under the GM's title, anything else in italics."""
    e = c.e
    if e["by"] == "player":
        return f"> {e['text']}"
    if e["by"] == "gm":
        return f"**{c.gm}:** {e['text']}"
    return f"_{e['text']}_"


def _move_triggered(c: _Line) -> str | None:
    """A move's heading, with its target and (in a party) the hero making it."""
    e = c.e
    target = f" → {c.who(e['target'])}" if e.get("target") else ""
    by = f"{c.acting}: " if c.acting else ""
    return f"### {by}{e['name']}{target}"


def _rolled(c: _Line) -> str | None:
    """A roll explained (``roll_why``); a fight's roll from before it was a Rolled, read as
    one."""
    roll = rolled_form(c.e) if c.e.get("type", "") == "FightRolled" else c.e
    by = ""
    if roll.get("what"):
        who, what = c.who(roll["actor"]), str(roll["what"])
        if _NOUN_PHRASE.match(what):  # "attack on Granite": the roll's, so the actor's
            by = f"{'Your' if who == 'you' else upper_first(possessive(who))} {what}: "
        else:
            by = f"{upper_first(who)} {you_do(what) if who == 'you' else what}: "
    return f"🎲 {by}{roll_why(roll)}"


_NOUN_PHRASE = re.compile(r"^(?:team )?[\w-]+(?: [\w-]+)? (?:on|against) ")
"""A roll's ``what`` that names a thing done ("attack on Granite", "team attack on Keystone"),
not a verb said of the actor ("attacks Granite")."""


def possessive(name: str) -> str:
    """"Slipstream's", "Jess'"."""
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def you_do(phrase: str) -> str:
    """A verb phrase said of someone ("attacks Granite", "parries", "is hit") said of you
    ("attack Granite", "parry", "are hit"): its first word as the verb goes with "you"."""
    verb, _, rest = phrase.partition(" ")
    irregular = {"is": "are", "has": "have", "was": "were", "does": "do", "goes": "go"}
    if verb in irregular:
        verb = irregular[verb]
    elif verb.endswith("ies") and len(verb) > 4:
        verb = verb[:-3] + "y"
    elif verb.endswith(("sses", "shes", "ches", "xes", "zes")):
        verb = verb[:-2]
    elif verb.endswith("s") and not verb.endswith("ss"):
        verb = verb[:-1]
    return f"{verb} {rest}".rstrip()


def _roll_adjusted(c: _Line) -> str | None:
    """A roll's total changed after the dice, and the band it now gives."""
    e = c.e
    return (f"🎲 {e['source']} {e['amount']:+d}: now {e['total']} →"
            f" **{e['band_name']}**")


def _outcome_reached(c: _Line) -> str | None:
    """The outcome's text as it is."""
    text: str = c.e["text"]
    return text


def _options_chosen(c: _Line) -> str | None:
    """The options picked, joined; none when nothing was picked from an "up to N" list."""
    texts = [t.strip() for t in c.e["texts"] if t.strip()]
    if not texts:
        return None  # nothing picked from an "up to N" list: no empty "Chosen:" line
    joined = "; ".join(t[:-1] if t.endswith(".") and i < len(texts) - 1 else t
                       for i, t in enumerate(texts))
    return "Chosen: " + joined


def _questions_asked(c: _Line) -> str | None:
    """The questions a move asks."""
    return "Asked: " + " / ".join(c.e["questions"])


def _question_answered(c: _Line) -> str | None:
    """A question and its answer: the player's, or the GM's (with the table it was drawn
    from)."""
    e = c.e
    if e.get("by") == "player":
        return f"? {e['question']} — {e['answer']} _(your answer)_"
    drawn = f" _({e['drawn_from']})_" if e.get("drawn_from") else ""
    return f"? {e['question']} — **{c.gm}:** {e['answer']}{drawn}"


def _condition_marked(c: _Line) -> str | None:
    """A condition marked on a character."""
    e = c.e
    cond = _name(c.pack, "cond", e["condition"])
    return f"⚑ {upper_first(c.who(e['who']))} marked {cond}{_why(e)}"


def _condition_cleared(c: _Line) -> str | None:
    """A condition cleared from a character."""
    e = c.e
    return (f"✓ {upper_first(c.who(e['who']))} cleared"
            f" {_name(c.pack, 'cond', e['condition'])}{_why(e)}")


def _labels_shifted(c: _Line) -> str | None:
    """Stats shifted: each change and the value it gave."""
    e = c.e
    parts = ", ".join(f"{_name(c.pack, 'stat', k)} {v:+d} (now {e['values'][k]:+d})"
                      for k, v in e["changes"].items())
    label = c.pack.system.stat_label if c.pack is not None else "Stats"
    return f"↕ {c.whose(e.get('who', 'hero'))}{label} shift: {parts}"


def _label_locked(c: _Line) -> str | None:
    """A stat locked for good."""
    return f"🔒 {_name(c.pack, 'stat', c.e['stat'])} is locked for good"


def _track_changed(c: _Line) -> str | None:
    """A track's change and new value (a character's, or the campaign's)."""
    e = c.e
    name = _name(c.pack, "track", e["track"])
    mine = c.whose(e.get("who", "hero")) if e.get("scope") != "campaign" else ""
    return f"{mine}{name} {e['delta']:+d} → {e['value']}{_why(e)}"


def _bonus_added(c: _Line) -> str | None:
    """A bonus: on the next roll, or on some moves (against someone) until something ends."""
    e = c.e
    scope = f" on {move_names(c.pack, e['moves'])}" if e["moves"] else ""
    vs = f" against {c.who(e['target'])}" if e.get("target") else ""
    mine = c.whose(e.get("owner", "hero"))
    if e["expires"] == "roll":
        why = f" ({e['reason']})" if e.get("reason") and mine else ""
        return f"{mine}{e['amount']:+d} {e['kind']} on the next roll{why}"
    return (f"{mine}{e['amount']:+d} {e['kind']}{scope}{vs} ({e['reason']};"
            f" until the {e['expires']} ends)")


def move_names(pack: Pack | None, ids: Sequence[str]) -> str:
    """Moves by id, named as the pack names them: "Direct someone to act and Use a Secret"."""
    moves = pack.moves if pack is not None else {}
    names = [moves[m].name if m in moves else str(m).replace("_", " ") for m in ids]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _hold_changed(c: _Line) -> str | None:
    """The hold left on a move."""
    return f"Hold on {move_names(c.pack, [c.e['move']])}: {c.e['value']}"


def _taken_out(c: _Line) -> str | None:
    """A character taken out of the scene, or back in action."""
    e = c.e
    out = c.who(e.get("who", "hero"))
    if out == "you":
        return "✖ You are taken out of the scene" if e["out"] else "You are back in action"
    return (f"✖ {out} is taken out of the scene" if e["out"]
            else f"{out} is back in action")


def _flag_set(c: _Line) -> str | None:
    """A flag and its yes or no."""
    return f"• {c.e['flag'].replace('_', ' ')}: {'yes' if c.e['value'] else 'no'}"


def _advance_taken(c: _Line) -> str | None:
    """An advancement taken."""
    return f"★ Advancement: {c.e['text']}"


def _npc_added(c: _Line) -> str | None:
    """An NPC joins the story."""
    return f"• {c.e['name']} ({c.e['role']}) joins the story"


def _hero_added(c: _Line) -> str | None:
    """A hero joins the party, with its archetype's name unless that is the hero's own."""
    e = c.e
    arch = e.get("archetype")
    if arch and c.pack is not None and arch in c.pack.archetypes:
        arch = c.pack.archetypes[arch].name
    if arch and str(arch).casefold() == str(e["name"]).casefold():
        arch = None  # "Rivet (Rivet)": the ready-made hero under its own name
    return f"• {e['name']}{f' ({arch})' if arch else ''} joins the party"


def _hero_switched(c: _Line) -> str | None:
    """The spotlight turns to another hero."""
    e, npcs = c.e, c.npcs
    was = f" (from {npcs.get(e['was'], e['was'])})" if e.get("was") else ""
    return f"🎭 The spotlight turns to {npcs.get(e['hero'], e['hero'])}{was}"


def _npc_presence(c: _Line) -> str | None:
    """An NPC enters or leaves the scene."""
    return f"• {c.who(c.e['npc'])} {'enters' if c.e['present'] else 'leaves'} the scene"


def _scene_started(c: _Line) -> str | None:
    """A scene's heading, and its stakes."""
    e = c.e
    stakes = f"\n_At stake: {e['stakes']}_" if e.get("stakes") else ""
    return f"\n## Scene {e['number']}: {scene_heading(e)}{stakes}"


def _scene_moved(c: _Line) -> str | None:
    """The fiction takes the scene somewhere else."""
    return f"📍 The scene moves to {c.e['location']}."


def _scene_ended(c: _Line) -> str | None:
    """A scene ends."""
    return f"_Scene {c.e['number']} ends._"


def _recovered(c: _Line) -> str | None:
    """Where a damaged save was recovered."""
    when = str(c.e.get("at", ""))[:16].replace("T", " ")
    return (f"_The save was recovered here ({when} UTC): what came just before was in a"
            f" damaged file, set aside in the campaign's folder; the story goes on from"
            f" the last saved state._")


def _session_started(c: _Line) -> str | None:
    """A session's heading."""
    return f"\n# Session {c.e['number']}"


def _session_ended(c: _Line) -> str | None:
    """A session ends."""
    return f"_Session {c.e['number']} ends._"


def _clearing_action_taken(c: _Line) -> str | None:
    """The action that clears a condition, taken."""
    name = _name(c.pack, 'cond', c.e['condition'])
    return (f"✚ {upper_first(c.who('hero'))} took the action that clears {name}: it clears at"
            " the end of the scene")


def _gm_move_made(c: _Line) -> str | None:
    """A GM move: its name, kind, text and why."""
    e = c.e
    return f"**{c.gm} — {e['name']}** ({e['kind']}): {e['text']}\n  _why: {e['reason']}_"


def _threat_added(c: _Line) -> str | None:
    """A threat and its empty clock."""
    return f"☠ Threat: {c.e['name']} (clock 0/{c.e['size']})"


def _clock_changed(c: _Line) -> str | None:
    """A threat's clock moves, with the step it reached."""
    e = c.e
    step = f": {e['step']}" if e.get("step") else ""
    return f"⏱ {e.get('name') or e['threat']}: clock {e['delta']:+d} → {e['value']}{step}"


def _stance_changed(c: _Line) -> str | None:
    """An NPC's stance toward a hero, and what it was."""
    e = c.e
    toward = c.who(e.get("hero", "hero"))
    was = f", was {e['was']}" if e.get("was") else ""
    return f"♥ {upper_first(c.who(e['npc']))} is now {e['stance']} toward {toward}{was}{_why(e)}"


def _threat_ignored(c: _Line) -> str | None:
    """A threat's count of quiet scenes: started again, or how long nobody stood against it."""
    e = c.e
    name = e.get("name") or e["threat"]
    if not e["scenes"]:
        return (f"⏳ {upper_first(name)} was confronted: its count of quiet scenes starts"
                " again")
    runs = "a scene" if e["scenes"] == 1 else f"{e['scenes']} scenes running"
    return f"⏳ Nobody stood against {name} this scene ({runs})"


def _threat_confronted(c: _Line) -> str | None:
    """Heroes stood against a threat's NPC in a fight."""
    e = c.e
    by = [c.who(h) for h in e.get("by", [])]
    who = (", ".join(by[:-1]) + " and " + by[-1] if len(by) > 1 else by[0]) if by else "you"
    return f"⚔ {upper_first(who)} stood against {c.who(e['npc'])} this scene"


def _progress_rolled(c: _Line) -> str | None:
    """A progress roll on a vow: the score, the challenge dice and the result."""
    e = c.e
    word = {"strong": "Strong hit", "weak": "Weak hit", "miss": "Miss"}.get(e["band"], e["band"])
    dice = " and ".join(str(d) for d in e["challenge"])
    return (f"🎯 Progress roll on the vow _{e['text']}_: progress {e['score']} against"
            f" {dice} — **{word}**")


def _doom_struck(c: _Line) -> str | None:
    """A threat's doom."""
    return f"☠ **Doom:** {c.e['text']}"


def _threads_changed(c: _Line) -> str | None:
    """Threads added and removed; none when neither."""
    changes = [f"+ {t}" for t in c.e["added"]] + [f"- {t}" for t in c.e["removed"]]
    return "Threads: " + "; ".join(changes) if changes else None


def _ledger_changed(c: _Line) -> str | None:
    """A ledger change (``ledger_line``)."""
    return ledger_line(c.e, c.npcs)


def _oracle_answered(c: _Line) -> str | None:
    """An oracle's question, its odds, the d100 and the answer."""
    e = c.e
    word = ("Exceptional " if e["exceptional"] else "") + e["answer"]
    twist = ", and a twist!" if e["twist"] else ""
    return (f"🔮 _{e['question']}_ ({e['level']}, {e['chance']}% yes) — d100"
            f" {e['roll']}: **{word[0].upper() + word[1:]}**{twist}"
            f" (yes {e['odds'].get('yes', '?')}, exceptional yes"
            f" {e['odds'].get('exceptional yes', '?')},"
            f" twist {e['odds'].get('twist', '?')})")


def _random_event(c: _Line) -> str | None:
    """A random event: its focus and its words."""
    e = c.e
    about = f" ({e['about']})" if e.get("about") else ""
    if e.get("about") and e["subject"] == e["about"]:  # the subject is the ledger's own
        return f"⚡ **Random event:** {e['focus']}{about} — _{e['action']}_"
    return (f"⚡ **Random event:** {e['focus']}{about} — _{e['action']} /"
            f" {e['subject']}_")


def _edited(c: _Line) -> str | None:
    """A value set by hand (Game.edit): its words were made then."""
    e = c.e
    return f"✎ Edited by hand: {e.get('text') or e['what'] + ' ' + e['key']}{_why(e)}"


def _dice_mode_changed(c: _Line) -> str | None:
    """Who rolls the dice from now on."""
    how = {"seeded": "the campaign rolls them", "physical": "you roll and type them",
           "mixed": "each roll asks who rolls"}.get(c.e["mode"], c.e["mode"])
    return f"🎲 Dice from now on: {how}."


def _tension_changed(c: _Line) -> str | None:
    """The tension's new value, and why."""
    return f"Tension → {c.e['value']}" + _why(c.e)


LineMaker = Callable[[_Line], str | None]

LINES: dict[str, LineMaker] = {
    "Narrated": _narrated,
    "MoveTriggered": _move_triggered,
    "Rolled": _rolled,
    "FightRolled": _rolled,  # a fight's roll before it was a Rolled: read as one
    "RollAdjusted": _roll_adjusted,
    "OutcomeReached": _outcome_reached,
    "OptionsChosen": _options_chosen,
    "QuestionsAsked": _questions_asked,
    "QuestionAnswered": _question_answered,
    "ConditionMarked": _condition_marked,
    "ConditionCleared": _condition_cleared,
    "LabelsShifted": _labels_shifted,
    "LabelLocked": _label_locked,
    "TrackChanged": _track_changed,
    "BonusAdded": _bonus_added,
    "BonusesExpired": _silent,
    "HoldChanged": _hold_changed,
    "TakenOut": _taken_out,
    "FlagSet": _flag_set,
    "AdvanceTaken": _advance_taken,
    "NPCAdded": _npc_added,
    "HeroAdded": _hero_added,
    "HeroSwitched": _hero_switched,
    "NPCPresence": _npc_presence,
    "SceneStarted": _scene_started,
    "SceneMoved": _scene_moved,
    "SceneEnded": _scene_ended,
    "Recovered": _recovered,
    "SessionStarted": _session_started,
    "SessionEnded": _session_ended,
    "ClearingActionTaken": _clearing_action_taken,
    "GMMoveMade": _gm_move_made,
    "ThreatAdded": _threat_added,
    "ClockChanged": _clock_changed,
    "StanceChanged": _stance_changed,
    "ThreatIgnored": _threat_ignored,
    "DoomStruck": _doom_struck,
    "ThreatConfronted": _threat_confronted,
    "ProgressRolled": _progress_rolled,
    "ThreadsChanged": _threads_changed,
    "LedgerChanged": _ledger_changed,
    "OracleAnswered": _oracle_answered,
    "RandomEvent": _random_event,
    "Edited": _edited,
    "DiceModeChanged": _dice_mode_changed,
    "TensionChanged": _tension_changed,
}
"""The core's line makers by event type (a system's own events and the fight's are its
registry's)."""


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
    line = _Line(e=e, pack=pack, npcs=npcs or {},
                 gm=pack.system.gm_title if pack is not None else "GM",
                 acting=e.get("acting"),
                 acting_ids=("hero", e.get("acting_id") or "hero"))  # its id, the old word
    if t in registry.journal:  # the system's own events, and the fight's
        return registry.line(e, line.who)
    if t in SILENT:
        return None
    maker = LINES.get(t)
    return f"({t})" if maker is None else maker(line)


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
            "vow": f"🗡 Sworn as a {e.get('rank')} vow: {text}" if e.get("rank")
            else f"🗡 No longer a vow: {text}",
            "progress": f"🗡 Progress on the vow _{text}_: {int(e.get('delta', 0)):+d} ticks,"
            f" {progress_bar(int(e.get('ticks', 0)))} {progress_score(int(e.get('ticks', 0)))}/10"
            f"{by}",
        }.get(op)
    if kind == "fact":
        about = [names.get(a, a) for a in e.get("about", [])]
        said = fact_sentence(text)
        whom = (f" (about {', '.join(about)})" if about and not any(
            a.casefold() in said.casefold() for a in about) else "")
        return {
            "record": f"📜 Now known: {said}{whom}{fact_source(e.get('source', ''))}",
            "edit": f"📜 Fact corrected: {was} → {text}"
                    + (f" (about {', '.join(about)})" if about else ""),
            "remove": f"📜 Fact struck from the ledger: {was}",
        }.get(op)
    return None


def fact_sentence(text: str) -> str:
    """A fact as a sentence: a question it was the answer to left out ("What are they up to?
    Dusk means to..." is "Dusk means to..."), a capital first and a full stop last."""
    text = " ".join(text.split())
    question, mark, rest = text.partition("? ")
    if mark and rest and len(question) < 120 and question[:1].isupper():
        text = rest
    text = upper_first(text)
    return text if not text or text[-1] in ".!?…\"'”)" else text + "."


def fact_source(source: str) -> str:
    """Where a fact came from, in italics: ``Pierce the mask: the GM's answer`` reads
    "_(the GM's answer to Pierce the mask)_"; none when set by hand."""
    if not source or source == "by hand":
        return ""
    move, sep, whose = source.rpartition(": ")
    if sep and move and whose.endswith("answer"):
        return f" _({whose} to {move})_"
    return f" _({source})_"


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
        if t in ("NPCAdded", "HeroAdded", "FoeAdded"):  # a foe's: it may leave the state
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
