"""The Markdown export renders as intended in a CommonMark parser (markdown-it-py): YAML
front matter, a heading per session and scene, the player's fiction as its own block quote
(never swallowing the line after it), lists as lists; the story view folds each move into a
callout; the Obsidian vault is the same after a second export."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml
from markdown_it import MarkdownIt
from markdown_it.token import Token

from engine.export import escape_start, export_markdown, write_vault
from engine.game import Game
from engine.script import run_script

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
NAMES = sorted(p.stem for p in EXAMPLES.glob("*.yaml"))


@cache
def played(name: str) -> tuple[Game, list[dict[str, Any]]]:
    data = yaml.safe_load((EXAMPLES / f"{name}.yaml").read_text(encoding="utf-8"))
    game = run_script(data, saves=None, content=[], campaign=None, emit=lambda e: None)
    return game, list(game.store.events(markers=True))


def split(doc: str) -> tuple[dict[str, Any], list[Token]]:
    assert doc.startswith("---\n")
    head, _, body = doc[4:].partition("\n---\n")
    return yaml.safe_load(head), MarkdownIt("commonmark").parse(body)


def blocks_of(tokens: list[Token], kind: str) -> list[list[Token]]:
    """The tokens inside each top-level block of ``kind`` (blockquote, bullet_list...)."""
    out: list[list[Token]] = []
    depth, inside = 0, []
    for t in tokens:
        if t.type == f"{kind}_open":
            depth += 1
            if depth == 1:
                inside = []
                continue
        if t.type == f"{kind}_close":
            depth -= 1
            if depth == 0:
                out.append(inside)
                continue
        if depth:
            inside.append(t)
    return out


def headings(tokens: list[Token], tag: str) -> list[str]:
    return [tokens[i + 1].content for i, t in enumerate(tokens)
            if t.type == "heading_open" and t.tag == tag]


@pytest.mark.parametrize("view", ["full", "story"])
@pytest.mark.parametrize("name", NAMES)
def test_the_export_renders_as_intended(name: str, view: str) -> None:
    game, events = played(name)
    doc = export_markdown(game.state, game.pack, events, view)  # type: ignore[arg-type]
    front, tokens = split(doc)
    assert front["campaign"] == game.state.name
    assert front["heroes"] == [h.name for h in game.state.heroes]
    assert front["system"] == game.pack.system.name
    assert front["sessions"] == sum(e["type"] == "SessionStarted" for e in events)
    assert headings(tokens, "h1") == [game.state.name]
    sessions = [f"Session {e['number']}" for e in events if e["type"] == "SessionStarted"]
    assert headings(tokens, "h2") == sessions
    scenes = {e["number"] for e in events if e["type"] == "SceneStarted"}
    assert {int(h.split(":")[0].split()[1]) for h in headings(tokens, "h3")
            if h.startswith("Scene ")} == scenes
    fiction = [e["text"] for e in events if e["type"] == "Narrated" and e["by"] == "player"]
    quotes = blocks_of(tokens, "blockquote")
    mine = [q for q in quotes if not q[1].content.startswith("[!roll]-")]
    # each fiction its own quote: one paragraph, its words alone (nothing swallowed)
    assert [[t.content for t in q if t.type == "inline"] for q in mine] == [[f] for f in fiction]
    folds = [q for q in quotes if q[1].content.startswith("[!roll]-")]
    if view == "full":
        assert not folds
        moves = [e["name"] for e in events if e["type"] == "MoveTriggered"]
        assert len(headings(tokens, "h4")) == len(moves)
    else:
        assert len(folds) == sum(e["type"] == "MoveTriggered" for e in events)
        # a fold's lines stay lines: none merged into the one before it
        assert all("\n" not in t.content for q in folds for t in q if t.type == "inline")
    assert "•" not in doc
    items = [t.content for lst in blocks_of(tokens, "bullet_list") for t in lst
             if t.type == "inline"]
    joined = [f"{e['name']}" for e in events if e["type"] in ("NPCAdded", "HeroAdded")]
    assert all(any(item.startswith(n) for item in items) for n in joined)


def test_a_line_markdown_would_misread_is_escaped() -> None:
    md = MarkdownIt("commonmark")
    for line in ["- Threads", "+ x", "1. first", "# not a heading", "> not a quote", "***",
                 "=="]:
        html = md.render(f"para\n\n{escape_start(line)}")
        assert html.count("<p>") == 2, (line, html)
    assert escape_start("**GM:** words") == "**GM:** words"


def test_the_vault_is_the_same_after_a_second_export(tmp_path: Path) -> None:
    game, events = played("masks-three-sessions")
    first = write_vault(tmp_path, game.state, game.pack, events)
    snapshot = {p: p.read_text(encoding="utf-8") for p in tmp_path.rglob("*.md")}
    (tmp_path / "mine.md").write_text("the player's own note\n", encoding="utf-8")
    second = write_vault(tmp_path, game.state, game.pack, events)
    assert first == second
    after = {p: p.read_text(encoding="utf-8") for p in tmp_path.rglob("*.md")}
    assert after.pop(tmp_path / "mine.md") == "the player's own note\n"
    assert after == snapshot
    folder = tmp_path / "Halcyon After Dark"
    names = {p.name for p in folder.glob("*.md")}
    assert names == {"Halcyon After Dark.md", "Halcyon After Dark — Session 1.md",
                     "Halcyon After Dark — Session 2.md", "Halcyon After Dark — Session 3.md"}
    two = (folder / "Halcyon After Dark — Session 2.md").read_text(encoding="utf-8")
    assert "Previous: [[Halcyon After Dark — Session 1]]" in two
    assert "Next: [[Halcyon After Dark — Session 3]]" in two
    assert "[[Dusk Meridian]]" in two
    assert (folder / "Characters" / "Dusk Meridian.md").exists()
    threads = list((folder / "Threads").glob("*.md"))
    assert threads and len(threads) == len(game.state.threads)
    for p in folder.rglob("*.md"):
        front, tokens = split(p.read_text(encoding="utf-8"))
        assert front["sidekick"] == game.state.name
        assert tokens


def _ids() -> set[str]:
    """The ids of every move, option and GM move of the four packs (those with an
    underscore: a one-word id is an English word too) and every event type."""
    from engine.rules.events import CORE
    from engine.systems import RULESETS, ruleset_class

    found: set[str] = set()

    def walk(x: Any) -> None:
        if isinstance(x, dict):
            if isinstance(x.get("id"), str):
                found.add(x["id"])
            for v in x.values():
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)

    content = EXAMPLES.parent / "content"
    for f in [*content.glob("*/moves.yaml"), *content.glob("*/gm.yaml")]:
        walk(yaml.safe_load(f.read_text(encoding="utf-8")))
    events = set(CORE.events.all())
    for r in RULESETS:
        events |= set(ruleset_class(r).registry.events.all())
    return {i for i in found if "_" in i} | events


def test_no_internal_id_reaches_a_reader() -> None:
    import re

    from engine.recap import recap

    pattern = re.compile(r"(?<![\w/])(" + "|".join(map(re.escape, sorted(_ids(), key=len,
                                                                          reverse=True)))
                         + r")(?!\w)")
    for name in NAMES:
        game, events = played(name)
        text = "\n".join([export_markdown(game.state, game.pack, events, "full"),
                          export_markdown(game.state, game.pack, events, "story"),
                          *recap(events, game.state, game.pack)])
        leaks = [text[max(0, m.start() - 60):m.end() + 20] for m in pattern.finditer(text)]
        assert not leaks, (name, leaks[:5])
