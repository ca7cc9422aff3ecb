""""Previously...": a short recap of a campaign, for resuming play.

Built from the event log and the state alone, procedurally: the campaign so far (sessions,
scenes and its turning points: fights won, lost or fled, threads opened by the story and
settled, vows fulfilled, dooms and heroes taken out before the last two scenes), the scene where
play stopped and what is at stake, where the player left off (its roll said once), what went
wrong lately (misses and the GM's answers, dooms, heroes taken out), the wounds and conditions
the heroes carry, the open threads (a vow with its progress) and the most pressing threat
clocks. No randomness and no language model: the same log gives the
same recap, line for line.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from engine.content.loader import Pack
from engine.journal import result_label, scene_heading, spotlight, upper_first
from engine.rules.events import is_fight_roll
from engine.rules.ledger import progress_score
from engine.rules.state import CampaignState, Thread, Threat

MAX_SETBACKS = 2
"""The most recent setbacks a recap names."""
MAX_THREADS = 3
"""Open threads named (the newest); the rest are counted."""
MAX_CLOCKS = 2
"""Threat clocks named, the most pressing first."""
MAX_TURNS = 3
"""Turning points named (the latest); the rest are counted."""
MAX_LINES = 10
"""The most lines a recap has (its heading included)."""
CLIP = 140
"""Quoted text (fiction, a GM line) is cut to about this many characters."""

ACTED = {"MoveTriggered", "OracleAnswered", "GMMoveMade"}
"""Events that mean play happened (and the player's own fiction): a campaign that has none
has nothing to recap."""

TURNS = frozenset({"LedgerChanged", "FightEnded", "ProgressRolled", "DoomStruck", "TakenOut"})
"""The events that may be a turning point of the campaign (``_turning_point``)."""

STANCES = ("hostile", "wary", "neutral", "warm", "devoted")
"""NPC stances from worst to best: a turn for the worse is a setback (unknown words are not)."""

_SENTENCE_END = re.compile(r"(?<=[.!?])[\"”’']?\s+(?=[A-Z“\"'])")


@dataclass
class _Setback:
    """Something that went wrong: a miss (and what the GM did about it), or a GM move."""

    text: str
    answers: list[str] = field(default_factory=list)
    miss: bool = False
    open: bool = True
    """Still taking the GM's answers (no other move has begun since)."""


@dataclass
class _Reading:
    """What one pass over the log found."""

    scene: dict[str, Any] | None = None
    stakes: str = ""
    """The stakes of the latest scene that had any."""
    acted: bool = False
    session_ended: bool = False
    """The session closed after the last scene."""
    left_off: str = ""
    result: str = ""
    """The result of the roll where play stopped ("Weak hit (8)"), if any."""
    setbacks: list[_Setback] = field(default_factory=list)
    window: set[int] = field(default_factory=set)
    """The numbers of the last two scenes (the recap's window)."""
    moved: dict[str, int] = field(default_factory=dict)
    """Threat id -> how far its clock moved in the last two scenes."""
    left_miss: _Setback | None = None
    """The miss of the roll where play stopped (its result is said there once)."""
    sessions: int = 0
    """Sessions begun (SessionStarted), at least the one under way."""
    scenes: set[int] = field(default_factory=set)
    """The numbers of the scenes played."""
    turns: list[tuple[int, str, str]] = field(default_factory=list)
    """The campaign's turning points, oldest first: (scene number, event type, words)."""


def clip(text: str, limit: int = CLIP) -> str:
    """``text`` on one line, cut at a word before ``limit`` characters (with "…")."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    cut = text[:limit].rsplit(" ", 1)[0].rstrip(",;:")
    return cut + "…"


def first_sentence(text: str) -> str:
    """The first sentence of ``text`` (all of it when it is one), clipped."""
    text = " ".join(text.split())
    first = _SENTENCE_END.split(text, maxsplit=1)[0]
    if first.count('"') % 2 or first.count("“") > first.count("”"):
        first = text  # the sentence ends inside a quotation: no cut there
    return clip(first, 100)


def open_threads(state: CampaignState) -> list[str]:
    """The texts of the open threads, oldest first. Reads both shapes of ``state.threads``:
    plain strings (save format 2) and typed entries with ``text`` and ``status``."""
    out: list[str] = []
    for entry in state.threads:
        item: object = entry
        if isinstance(item, str):
            text, status = item, "open"
        elif isinstance(item, dict):
            text, status = str(item.get("text", "")), str(item.get("status", "open"))
        else:
            text = str(getattr(item, "text", "") or "")
            status = str(getattr(item, "status", "open") or "open")
        if text.strip() and status == "open":
            out.append(text.strip())
    return out


def pressing(state: CampaignState) -> list[Threat]:
    """The active threats, the nearest to its doom first (fewest steps left, then the
    fullest clock, then by name)."""
    active = [t for t in state.threats.values() if t.active]
    return sorted(active, key=lambda t: (t.size - t.clock, -t.clock / max(t.size, 1), t.name))


def _last_scenes(events: list[dict[str, Any]], state: CampaignState, names: dict[str, str],
                 out: _Reading) -> list[dict[str, Any]]:
    """The events of the previous scene and of the last (a scene framed anew before anything
    happened counting as one); notes in ``out`` the last scene, the stakes, whether the
    session ended and whether play happened."""
    window: list[dict[str, Any]] = []  # the events of the previous scene and of the last
    current: list[dict[str, Any]] = []
    # who acted first: the hero the first switch of the spotlight is from (as the journal)
    first = next((str(e["was"]) for e in events if e.get("type") == "HeroSwitched"
                  and e.get("was")), state.party[0] if state.party else None)
    scene = 0
    for e in spotlight(events, names, first):
        t = e.get("type")
        turn = _turning_point(e, names) if t in TURNS else ""
        if turn:
            out.turns.append((scene, str(t), turn))
        if t == "SessionStarted":
            out.sessions += 1
        if t == "SceneStarted":
            scene = int(e.get("number", scene) or scene)
            out.scenes.add(scene)
            reframed = (out.scene is not None and out.scene.get("number") == e.get("number")
                        and not any(x.get("type") in ACTED for x in current))
            if reframed:  # framed anew before anything happened: the same scene
                current = [e]
            else:
                window, current = current, [e]
            out.scene = e
            if e.get("stakes"):
                out.stakes = str(e["stakes"])
            continue
        current.append(e)
        if t == "SceneMoved" and out.scene is not None:  # where the scene is now
            out.scene = {**out.scene, "location": e.get("location", "")}
        if t in ("SessionEnded", "SessionStarted"):
            out.session_ended = t == "SessionEnded"
        if t in ACTED or (t == "Narrated" and e.get("by") == "player"):
            out.acted = True
    return window + current


@dataclass
class _Walk:
    """The walk through the last two scenes: where play stopped and what went wrong, into
    ``out``; ``move`` is the move under way, ``fiction`` the player's words before it."""

    out: _Reading
    names: dict[str, str]
    gm: str
    end_move: str | None
    move: dict[str, Any] | None = None
    fiction: str = ""

    def who(self, x: str | None, e: dict[str, Any]) -> str:
        """A character by id as the event's line names it: the acting hero "you" (or its
        name in a party)."""
        if x in (None, "", "hero") or x == e.get("acting_id"):  # the acting hero
            return str(e.get("acting") or "you")
        return self.names.get(str(x), str(x))

    def step(self, e: dict[str, Any]) -> None:
        """One event of the two scenes."""
        t = e.get("type")
        last = self.out.setbacks[-1] if self.out.setbacks else None
        self._play(e, t, last)
        self._trouble(e, t, last)

    def _play(self, e: dict[str, Any], t: Any, last: _Setback | None) -> None:
        """The player's fiction, a move and its roll: where play stopped, and a miss."""
        out = self.out
        hero = f"{e['acting']}: " if e.get("acting") else ""  # in a party, whose turn
        if t == "Narrated" and e.get("by") == "player":
            self.fiction = str(e.get("text", ""))
            out.left_off, out.result = f"{hero}“{clip(self.fiction, 70)}”", ""
            out.left_miss = None
        elif t == "MoveTriggered" and self.end_move and e.get("move") == self.end_move:
            self.move = None  # the session's closing move: the scene line says it ended
            self.fiction = ""
        elif t == "MoveTriggered":
            self.move = e
            if last is not None:
                last.open = False
            target = f" → {self.who(e['target'], e)}" if e.get("target") else ""
            said = hero + (f"“{clip(self.fiction, 70)}”: " if self.fiction else "")
            out.left_off = f"{said}{e.get('name', e.get('move', ''))}{target}"
            out.result, out.left_miss = "", None
            self.fiction = ""
        elif t == "Rolled" and self.move is not None and not is_fight_roll(e):
            out.result = _result(e)
            if e.get("tone") == "bad":
                out.left_miss = _Setback(_missed(self.move, e, self.who), miss=True)
                out.setbacks.append(out.left_miss)
        elif t == "RollAdjusted" and self.move is not None and e.get("tone") and e.get("was"):
            out.result = f"{out.result}, now {_result(e)}" if out.result else _result(e)
            if e["was"] == "bad" and e["tone"] != "bad" and last is not None and last.miss:
                out.setbacks.pop()  # the roll was pulled out of the miss
                out.left_miss = None
            elif e["tone"] == "bad" and e["was"] != "bad":
                out.left_miss = _Setback(_missed(self.move, e, self.who), miss=True)
                out.setbacks.append(out.left_miss)

    def _trouble(self, e: dict[str, Any], t: Any, last: _Setback | None) -> None:
        """The GM's moves (a miss's answers), clocks moving, dooms, stances turned for the
        worse, heroes taken out."""
        out, who = self.out, self.who
        if t == "GMMoveMade":
            line = (f"**{self.gm} — {e.get('name', e.get('move', ''))}:**"
                    f" {first_sentence(e['text'])}")
            if last is not None and last.open:
                last.answers.append(line)
            else:
                out.setbacks.append(_Setback(line))
        elif t == "ClockChanged" and int(e.get("delta", 0)) > 0:
            key = str(e.get("threat", ""))
            out.moved[key] = out.moved.get(key, 0) + int(e["delta"])
        elif t == "DoomStruck":
            out.setbacks.append(_Setback(f"☠ **Doom:** {clip(str(e.get('text', '')))}",
                                         open=False))
        elif t == "StanceChanged" and _worse(str(e.get("stance", "")), str(e.get("was", ""))):
            out.setbacks.append(_Setback(
                f"⚠ {upper_first(who(e.get('npc'), e))} turned {e['stance']} toward"
                f" {who(e.get('hero'), e)} (was {e['was']})", open=False))
        elif t == "TakenOut" and e.get("out", True):
            out.setbacks.append(_Setback(f"✖ {upper_first(who(e.get('who'), e))} was taken out"
                                         " of the scene", open=False))


def _read(events: Iterable[dict[str, Any]], state: CampaignState, gm: str,
          end_move: str | None = None) -> _Reading:
    """One pass over the log: the last scene, the stakes, where play stopped, and the
    setbacks and clock moves of the last two scenes."""
    names = {a.id: a.name for a in state.actors.values()}
    out = _Reading()
    window = _last_scenes(list(events), state, names, out)
    out.window = {int(e.get("number", 0)) for e in window if e.get("type") == "SceneStarted"}
    walk = _Walk(out, names, gm, end_move)
    for e in window:
        walk.step(e)
    return out


def _turning_point(e: dict[str, Any], names: dict[str, str]) -> str:
    """The words of a turning point of the campaign ("" when ``e`` is none): a thread the
    story opened (not by hand) or one settled, what a fight left, a fight's end, a vow's
    progress roll, a doom, a hero taken out."""
    t = e.get("type")
    if t == "LedgerChanged" and e.get("kind") == "where":
        return ""
    text = clip(str(e.get("text", "")), 90)
    if t == "LedgerChanged" and e.get("kind") == "thread":
        if e.get("op") == "open" and e.get("source") not in (None, "", "by hand"):
            return f"a new thread, {text}"
        return f"settled: {text}" if e.get("op") == "resolve" else ""
    if t == "LedgerChanged" and e.get("kind") == "fact" and e.get("op") == "record":
        return text if e.get("source") == "the fight" else ""
    if t == "FightEnded" and e.get("result") not in (None, "", "called off"):
        return f"a fight ended: {e['result']}"
    if t == "ProgressRolled":
        kept = e.get("band") != "miss"
        return f"{'a vow kept' if kept else 'a vow fell short'}: {text}"
    if t == "DoomStruck":
        return f"☠ {text}"
    if t == "TakenOut" and e.get("out", True) and e.get("who") not in (None, "", "hero"):
        return f"{names.get(str(e['who']), str(e['who']))} was taken out"
    return ""


def _so_far(r: _Reading, state: CampaignState, window: set[int]) -> str:
    """The campaign so far, as one line: sessions, scenes and the latest turning points
    (dooms and heroes taken out in the last two scenes are said as setbacks instead); ""
    for a campaign of one scene with no turning point."""
    turns = [f"{words} (scene {n})" if n else words for n, kind, words in r.turns
             if not (n in window and kind in ("DoomStruck", "TakenOut"))]
    sessions = max(r.sessions, state.session, 1)
    scenes = len(r.scenes)
    if scenes <= 1 and not turns:
        return ""
    head = (f"{sessions} session{'s' if sessions != 1 else ''},"
            f" {scenes} scene{'s' if scenes != 1 else ''}")
    if not turns:
        return f"- So far: {head}."
    shown = turns[-MAX_TURNS:]
    more = f" (and {len(turns) - len(shown)} earlier)" if len(turns) > len(shown) else ""
    return _stop(f"- So far ({head}): " + "; ".join(shown) + more)


def _threads_line(state: CampaignState) -> str:
    """The open threads, the newest first (a vow with its rank and progress), as one line."""
    vows = {t.text.strip(): t for t in state.threads if isinstance(t, Thread) and t.rank}
    threads = open_threads(state)
    if not threads:
        return ""
    shown = threads[-MAX_THREADS:][::-1]
    vowed = [t for t in threads if t in vows and t not in shown]
    shown = (vowed[-1:] + shown)[:MAX_THREADS + 1]  # a vow is named even when it is older

    def one(text: str) -> str:
        v = vows.get(text)
        if v is None:
            return clip(text, 80)
        return f"🗡 {clip(text, 70)} ({v.rank} vow, progress {progress_score(v.ticks)}/10)"

    more = f" (and {len(threads) - len(shown)} more)" if len(threads) > len(shown) else ""
    return _stop("- Open threads: " + "; ".join(one(t) for t in shown) + more)


def _worse(stance: str, was: str) -> bool:
    """Whether an NPC's stance turned for the worse (to wary or hostile, from a better one)."""
    return (stance in STANCES[:2] and was in STANCES
            and STANCES.index(stance) < STANCES.index(was))


def _result(roll: dict[str, Any]) -> str:
    """A roll's band and total: "Weak hit (8)", "Weak hit (7-9): 8"."""
    return result_label(str(roll.get("band_name") or roll.get("band", "")),
                        int(roll.get("total", 0)))


def _missed(move: dict[str, Any], roll: dict[str, Any], who: Callable[..., str]) -> str:
    target = f" → {who(move['target'], move)}" if move.get("target") else ""
    actor = upper_first(who(None, move))
    # the result in the move's own words: an inverted move's worst band is no "miss"
    return f"✗ {actor} rolled **{move.get('name', move.get('move', ''))}**{target}" \
           f" — {_result(roll)}"


def _stop(text: str) -> str:
    """``text`` with a full stop, unless it ends a sentence already ("Where is she?", a
    quote that does: “…?”)."""
    bare = text.rstrip().rstrip("”\"')_*")
    return text if bare.endswith((".", "?", "!", "…")) else text + "."


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _conditions(state: CampaignState, pack: Pack | None) -> str:
    """The conditions the party's heroes carry, as one line ("" if none)."""

    def name(c: str) -> str:
        return pack.conditions[c].name if pack is not None and c in pack.conditions else c

    heroes = [state.actors[h] for h in state.party if h in state.actors]
    marked = [(h, [name(c) for c in h.conditions]) for h in heroes if h.conditions]
    if not marked:
        return ""
    if len(heroes) == 1:
        return _stop(f"- You carry {_and(marked[0][1])}")
    return "- Marked: " + "; ".join(f"{h.name}: {', '.join(c)}" for h, c in marked) + "."


def _clock_line(threats: list[Threat], moved: dict[str, int]) -> str:
    parts = []
    for t in threats:
        text = f"**{t.name}** {t.clock}/{t.size}"
        left = t.size - t.clock
        text += f", {left} step{'s' if left != 1 else ''} from its doom"
        if moved.get(t.id):
            text += f" (+{moved[t.id]} lately)"
        if 0 < t.clock <= len(t.steps):
            text += f": {clip(t.steps[t.clock - 1], 90)}"
        parts.append(text)
    return "- ⏱ Pressing: " + "; ".join(parts)


def recap(events: Iterable[dict[str, Any]], state: CampaignState, pack: Pack | None = None
          ) -> list[str]:
    """"Previously...": 3 to 10 Markdown lines recapping the campaign from its log
    (``events``: the event dicts, as ``store.events()`` gives them) and its ``state``; an
    empty list when nothing has been played yet. The first line is the heading; the others
    are list items."""
    gm = pack.system.gm_title if pack is not None else "GM"
    r = _read(events, state, gm, pack.system.session.end_move if pack is not None else None)
    if not r.acted:
        return []
    lines = [f"**Previously on {state.name}** (session {max(state.session, 1)})"]
    so_far = _so_far(r, state, r.window)
    if so_far:
        lines.append(so_far)
    if r.scene is not None:
        head = f"Scene {r.scene.get('number', state.scene.number)}: {scene_heading(r.scene)}"
        ended = "" if state.scene.open else " (it has ended)"
        if r.session_ended:
            head, ended = f"Session {state.session} ended after {head[:1].lower()}{head[1:]}", ""
        stakes = str(r.scene.get("stakes") or "")
        if stakes:
            head += f"{ended}. At stake: _{clip(stakes)}_"
        elif r.stakes:
            head += f"{ended}. Still at stake: _{clip(r.stakes)}_"
        else:
            head = _stop(head + ended)
        lines.append(f"- {head}")
    setbacks = r.setbacks[-MAX_SETBACKS:]
    if r.left_off:  # the roll said once: on the miss below when it is one
        said = r.left_miss is not None and any(s is r.left_miss for s in setbacks)
        result = f" — {r.result}" if r.result and not said else ""
        lines.append(_stop(f"- Where you left off: {r.left_off}{result}"))
    for s in setbacks:
        answer = f"; {s.answers[0]}" if s.answers else ""  # the GM's first answer
        lines.append(f"- {s.text}{answer}")
    conditions = _conditions(state, pack)
    if conditions:
        lines.append(conditions)
    threads = _threads_line(state)
    if threads:
        lines.append(threads)
    threats = pressing(state)
    if threats:
        # the nearest to its doom, then those that moved lately, then any under way
        rest = sorted(threats[1:], key=lambda t: (not r.moved.get(t.id), t.clock <= 0))
        named = [threats[0], *[t for t in rest if r.moved.get(t.id) or t.clock > 0]]
        named = named[:MAX_CLOCKS]
        lines.append(_clock_line(named, r.moved))
    return lines[:MAX_LINES]
