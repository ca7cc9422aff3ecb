"""A campaign's journal as Markdown to keep: CommonMark that renders as intended, with YAML
front matter (Obsidian reads it), in two views, and as an Obsidian vault.

The full view is the log as the journal shows it, one block per event: headings per session
and scene, the player's fiction as its own block quote, lists as lists, a blank line between
blocks (so a quote never swallows the line after it). The story view keeps the fiction, the
GM's narration, the answers and the scene headings, and folds each move's mechanics (the
roll, the outcome, what changed) into one collapsible callout (``> [!roll]-``, Obsidian's
syntax; any other renderer shows a block quote).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import yaml

from engine.content.loader import Pack
from engine.journal import registry_of, render, result_label, scene_heading, spotlight
from engine.rules.state import CampaignState
from engine.rules.text import upper_first

View = Literal["story", "full"]

STORY_EVENTS = {"Narrated", "GMMoveMade", "QuestionAnswered", "OracleAnswered", "RandomEvent",
                "DoomStruck", "HeroAdded", "NPCAdded", "SceneMoved", "Recovered",
                "TakenOut"}
"""The events the story view shows for themselves (the rest of a move is folded)."""

_BLOCK_START = re.compile(r"^(\s*)([-+*](\s|$)|([-*_]\s*){3,}$|=+\s*$|#{1,6}(\s|$)|>"
                          r"|\d{1,9}[.)](\s|$)|`{3}|~{3}|<)")


def escape_start(line: str) -> str:
    """A line of text that Markdown would read as something else (a list item, a heading, a
    quote, an ordered item...) at its start, escaped: it stays a paragraph."""
    m = _BLOCK_START.match(line)
    if m is None:
        return line
    i = len(m.group(1))
    return line[:i] + "\\" + line[i:]


def quoted(text: str, first: str = "") -> str:
    """Text as a block quote (every line quoted: a blank line inside stays in the quote)."""
    lines = ([first] if first else []) + text.split("\n")
    return "\n".join(f"> {escape_start(ln)}".rstrip() for ln in lines)


def paragraph(text: str) -> str:
    """A journal line as one paragraph: its own lines joined by hard breaks."""
    lines = [escape_start(ln.strip()) for ln in text.strip("\n").split("\n") if ln.strip()]
    return "\\\n".join(lines)


@dataclass
class _Fold:
    """A move being folded in the story view: its title and the lines it gathered."""

    title: str
    lines: list[str] = field(default_factory=list)
    result: str = ""

    def block(self) -> str:
        head = f"[!roll]- {self.title}" + (f": {self.result}" if self.result else "")
        body = [paragraph(ln).replace("\\\n", " ") for ln in self.lines]
        return "\n>\n".join([f"> {head}"] + [f"> {escape_start(b)}" for b in body if b])


@dataclass
class _Writer:
    """The blocks of a Markdown journal, written event by event."""

    pack: Pack | None
    names: dict[str, str]
    view: View
    level: int = 2  # a session's heading level (the campaign's title is level 1)
    blocks: list[str] = field(default_factory=list)
    items: list[str] = field(default_factory=list)  # a list being gathered
    fold: _Fold | None = None
    scene_at: int | None = None  # where the current scene's heading is in ``blocks``
    scene_no: int | None = None
    scene_len: int = 1

    def close(self) -> None:
        """Ends the list and the fold being gathered."""
        if self.items:
            self.blocks.append("\n".join(self.items))
            self.items = []
        if self.fold is not None:
            self.blocks.append(self.fold.block())
            self.fold = None

    def add(self, block: str) -> None:
        self.close()
        self.blocks.append(block)

    def item(self, text: str) -> None:
        if self.fold is not None:
            self.close()
        self.items.append(f"- {text}")

    def event(self, e: dict[str, Any]) -> None:
        t = e.get("type", "")
        h = "#" * self.level
        if t == "SessionStarted":
            self.add(f"{h} Session {e['number']}")
        elif t == "SceneStarted":
            self.close()
            if self.scene_no == e["number"] and self.scene_at is not None:
                del self.blocks[self.scene_at:self.scene_at + self.scene_len]  # framed anew
            self.scene_at, self.scene_no = len(self.blocks), e["number"]
            self.add(f"{h}# Scene {e['number']}: {scene_heading(e)}")
            self.scene_len = 1
            if e.get("stakes"):
                self.add(f"_At stake: {e['stakes']}_")
                self.scene_len = 2
        elif t == "Narrated" and e.get("by") == "player":
            self.add(quoted(e["text"]))
        elif t in ("SceneEnded", "SessionEnded") and self.view == "story":
            self.close()
        elif self.view == "story":
            self.story(e, t)
        else:
            self.full(e, t)

    def line(self, e: dict[str, Any]) -> str | None:
        return render(e, self.pack, self.names)

    def heading(self, text: str) -> bool:
        """A journal line that is a heading (a move's, a fight's), one level under the
        journal's own (its sessions are level 1, here ``level``): added, True."""
        text = text.strip("\n")
        hashes = len(text) - len(text.lstrip("#"))
        if not hashes or not text[hashes:].startswith(" "):
            return False
        self.add("#" * min(6, hashes + self.level - 1) + text[hashes:])
        return True

    def full(self, e: dict[str, Any], t: str) -> None:
        text = self.line(e)
        if text is None or self.heading(text):
            return
        if text.startswith("• "):
            self.item(text[2:])
        else:
            self.add(paragraph(text))

    def story(self, e: dict[str, Any], t: str) -> None:
        if t == "MoveTriggered":
            self.close()
            by = f"{e['acting']}: " if e.get("acting") else ""
            target = ""
            if e.get("target"):
                target = f" → {self.names.get(e['target'], e['target'])}"
            self.fold = _Fold(f"{by}{e['name']}{target}")
            return
        if t == "GMMoveMade":
            gm = self.pack.system.gm_title if self.pack is not None else "GM"
            self.add(paragraph(f"**{gm}:** {e['text']}"))
            return
        text = self.line(e)
        if text is not None and self.heading(text):
            return
        if t in ("QuestionAnswered", "OracleAnswered"):  # the answer, not how it was drawn
            text = self.line({**e, "drawn_from": ""}) if t == "QuestionAnswered" \
                else oracle_answer(e)
        if t in STORY_EVENTS:
            if text is None:
                return
            if text.startswith("• "):
                self.item(text[2:])
            else:
                self.add(paragraph(text))
            return
        if self.fold is None:
            return  # mechanics outside a move: the full view has them
        if t in ("Rolled", "FightRolled", "RollAdjusted"):
            filled = registry_of(self.pack).filled(e)
            if "band_name" in filled and "total" in filled:
                self.fold.result = result_label(str(filled["band_name"]), int(filled["total"]))
        if text:
            self.fold.lines.append(text.lstrip("• "))


def oracle_answer(e: Mapping[str, Any]) -> str:
    """An oracle's question and its answer, without the odds: the story's line."""
    word = ("exceptional " if e.get("exceptional") else "") + str(e.get("answer", ""))
    twist = ", and a twist!" if e.get("twist") else ""
    return f"🔮 _{e.get('question', '')}_ — **{upper_first(word)}**{twist}"


def front_matter(state: CampaignState, pack: Pack | None, events: list[dict[str, Any]],
                 meta: Mapping[str, Any] | None = None, **more: Any) -> str:
    """The YAML front matter: campaign, system, heroes, sessions, dates (and ``more``)."""
    sessions = sum(1 for e in events if e.get("type") == "SessionStarted")
    data: dict[str, Any] = {
        "campaign": state.name,
        "system": pack.system.name if pack is not None else state.system,
        "heroes": [h.name for h in state.heroes],
        "sessions": sessions,
    }
    last = str((meta or {}).get("last_played", ""))[:10]
    if last:
        data["last_played"] = last
    data.update(more)
    text = yaml.safe_dump(data, sort_keys=False, allow_unicode=True, default_flow_style=False)
    return f"---\n{text}---"


def journal_blocks(events: Iterable[dict[str, Any]], pack: Pack | None,
                   names: Mapping[str, str], acting: str | None = None,
                   view: View = "full", level: int = 2) -> list[str]:
    """The Markdown blocks of a journal (join them with blank lines); ``names``, ``acting``
    as ``journal.spotlight`` takes them; ``level``: a session heading's level."""
    npcs = dict(names)
    w = _Writer(pack, npcs, view, level)
    for e in spotlight(events, npcs, acting):
        w.event(e)
    w.close()
    return [b for b in w.blocks if b.strip()]


def export_markdown(state: CampaignState, pack: Pack | None, events: Iterable[dict[str, Any]],
                    view: View = "full", meta: Mapping[str, Any] | None = None) -> str:
    """A whole campaign's journal as one Markdown document, with its front matter."""
    events = list(events)
    names = {a.id: a.name for a in state.actors.values()}
    blocks = [front_matter(state, pack, events, meta, view=view), f"# {state.name}"]
    blocks += journal_blocks(events, pack, names, state.party[0], view)
    return "\n\n".join(blocks) + "\n"


def sessions_of(events: Iterable[dict[str, Any]]) -> Iterator[tuple[int, list[dict[str, Any]]]]:
    """The log cut into sessions: (number, its events); what comes before the first session
    goes with it."""
    number, chunk = 0, list[dict[str, Any]]()
    for e in events:
        if e.get("type") == "SessionStarted" and chunk and number:
            yield number, chunk
            chunk = []
        if e.get("type") == "SessionStarted":
            number = int(e["number"])
        chunk.append(e)
    if chunk:
        yield max(number, 1), chunk


def note_name(text: str, limit: int = 80) -> str:
    """A note's file name (without ``.md``) from words: no characters a file system or
    Obsidian's links refuse."""
    name = re.sub(r"[\\/:*?\"<>|#^\[\]]+", " ", text)
    name = re.sub(r"\s+", " ", name).strip(" .")
    return (name[:limit].rstrip(" .") or "untitled")



VAULT_KEY = "sidekick"
"""The front matter key that marks a note as written by Sidekick (its value: the campaign)."""


def _link(name: str) -> str:
    return f"[[{name}]]"


def _note(head: Mapping[str, Any], body: list[str]) -> str:
    text = yaml.safe_dump(dict(head), sort_keys=False, allow_unicode=True)
    return "\n\n".join([f"---\n{text}---", *body]) + "\n"


@dataclass(frozen=True)
class _Vault:
    """What the notes of one campaign are named and link to."""

    state: CampaignState
    pack: Pack | None
    sessions: list[tuple[int, list[dict[str, Any]]]]

    def session(self, n: int) -> str:
        return note_name(f"{self.state.name} — Session {n}")

    def mentions(self, text: str, names: Iterable[str]) -> list[str]:
        return [n for n in names if n and n.casefold() in text.casefold()]


def _session_note(v: _Vault, i: int, blocks: list[str]) -> str:
    n, _events = v.sessions[i]
    text = "\n".join(blocks)
    nav = [f"Campaign: {_link(note_name(v.state.name))}"]
    if i > 0:
        nav.append(f"Previous: {_link(v.session(v.sessions[i - 1][0]))}")
    if i + 1 < len(v.sessions):
        nav.append(f"Next: {_link(v.session(v.sessions[i + 1][0]))}")
    people = v.mentions(text, sorted({a.name for a in v.state.actors.values()}))
    threads = v.mentions(text, [t.text for t in v.state.threads])
    links = []
    if people:
        links.append("Characters: " + ", ".join(_link(note_name(p)) for p in people))
    if threads:
        links.append("Threads: " + ", ".join(_link(note_name(t)) for t in threads))
    head = {VAULT_KEY: v.state.name, "session": n,
            "heroes": [h.name for h in v.state.heroes],
            "system": v.pack.system.name if v.pack is not None else v.state.system}
    return _note(head, [" · ".join(nav), *(["\n".join(f"- {ln}" for ln in links)]
                                            if links else []), *blocks])


def _seen_in(v: _Vault, texts: Mapping[int, str], words: str) -> list[str]:
    return [f"- {_link(v.session(n))}" for n, t in texts.items()
            if words.casefold() in t.casefold()]


def _character_note(v: _Vault, actor: Any, texts: Mapping[int, str]) -> str:
    facts = [f.text for f in v.state.facts if actor.id in f.about]
    role = ("hero of the party" if actor.kind == "hero"
            else (actor.role or "character").replace("_", " "))
    body = [f"# {actor.name}", f"_{upper_first(role)}_ in {_link(note_name(v.state.name))}"]
    if actor.note:
        body.append(paragraph(actor.note))
    if actor.where:
        body.append(paragraph(f"Last seen: {actor.where}"))
    if facts:
        body += ["## What is known", "\n".join(f"- {escape_start(f)}" for f in facts)]
    seen = _seen_in(v, texts, actor.name)
    if seen:
        body += ["## Sessions", "\n".join(seen)]
    return _note({VAULT_KEY: v.state.name, "kind": "character", "role": role}, body)


def _thread_note(v: _Vault, thread: Any, texts: Mapping[int, str]) -> str:
    status = "resolved" if thread.status == "resolved" else "open"
    body = [f"# {thread.text}", f"A thread of {_link(note_name(v.state.name))}: {status}."]
    if thread.note:
        body.append(paragraph(thread.note))
    if thread.rank:
        body.append(f"Sworn as a {thread.rank} vow; progress {thread.ticks // 4}/10.")
    seen = _seen_in(v, texts, thread.text)
    if seen:
        body += ["## Sessions", "\n".join(seen)]
    return _note({VAULT_KEY: v.state.name, "kind": "thread", "status": status}, body)


def vault_notes(state: CampaignState, pack: Pack | None, events: Iterable[dict[str, Any]],
                view: View = "story") -> dict[str, str]:
    """The notes of a campaign's vault folder: relative path -> text (one note per session,
    character and thread, and the campaign's own note that links them)."""
    events = list(events)
    names = {a.id: a.name for a in state.actors.values()}
    v = _Vault(state, pack, list(sessions_of(events)))
    notes: dict[str, str] = {}
    texts: dict[int, str] = {}
    acting: str | None = state.party[0]
    for i, (n, chunk) in enumerate(v.sessions):
        blocks = journal_blocks(chunk, pack, names, acting, view, level=1)
        switched = [e for e in chunk if e.get("type") == "HeroSwitched"]
        acting = str(switched[-1]["hero"]) if switched else acting
        texts[n] = "\n".join(blocks)
        notes[f"{v.session(n)}.md"] = _session_note(v, i, blocks)
    for actor in state.actors.values():
        notes[f"Characters/{note_name(actor.name)}.md"] = _character_note(v, actor, texts)
    for thread in state.threads:
        notes[f"Threads/{note_name(thread.text)}.md"] = _thread_note(v, thread, texts)
    index = [f"# {state.name}", "## Sessions",
             "\n".join(f"- {_link(v.session(n))}" for n, _ in v.sessions) or "_None yet._",
             "## Characters",
             "\n".join(f"- {_link(note_name(a.name))}" for a in state.actors.values()),
             "## Threads",
             "\n".join(f"- {_link(note_name(t.text))}" for t in state.threads) or "_None._"]
    notes[f"{note_name(state.name)}.md"] = _note(
        {VAULT_KEY: state.name, "kind": "campaign", "sessions": len(v.sessions)}, index)
    return notes


def _ours(path: Path, campaign: str) -> bool:
    """The note was written by Sidekick for this campaign (its front matter says so)."""
    try:
        head = path.read_text(encoding="utf-8").split("\n---", 1)[0]
        data = yaml.safe_load(head.removeprefix("---\n"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        return False
    return isinstance(data, dict) and data.get(VAULT_KEY) == campaign


def write_vault(vault: Path, state: CampaignState, pack: Pack | None,
                events: Iterable[dict[str, Any]], view: View = "story") -> list[Path]:
    """Write a campaign's notes into an Obsidian vault, in a folder named after it: notes
    that changed are rewritten, the ones Sidekick wrote before and no longer writes (a
    thread reworded) are removed, anything else is left alone. The paths written."""
    folder = vault / note_name(state.name)
    notes = vault_notes(state, pack, events, view)
    paths = []
    for rel, text in notes.items():
        path = folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
        paths.append(path)
    keep = set(paths)
    for old in folder.rglob("*.md"):
        if old not in keep and _ours(old, state.name):
            old.unlink()
    return paths
