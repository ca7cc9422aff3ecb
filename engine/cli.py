"""The command line: ``sidekick`` starts the app; subcommands play, inspect and check.

Every error the engine raises on purpose is printed as one line, ``sidekick: error: ...``,
with a non-zero exit; a player never sees a traceback.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import re
import sys
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.errors import EngineError, IllegalAction

if TYPE_CHECKING:
    from engine.dice import Degrees, Roll
    from engine.outputs import RollLine

from engine.cli_common import (
    EXIT_ERROR,
    EXIT_USAGE,
    CliError,
    UsageError,
)
from engine.cli_common import clip as _clip
from engine.cli_common import content as _content
from engine.cli_common import out as _out
from engine.cli_common import saves as _saves

# ------------------------------------------------------------------ play (the TUI)


def cmd_play(args: argparse.Namespace) -> int:
    """Start the terminal app (``--plain``: the plain, line-by-line mode)."""
    saves = _saves(args)
    content = _content(args)
    if getattr(args, "plain", False):
        from engine.plain import run_plain

        return run_plain(saves, content, args.campaign)
    if not sys.stdout.isatty() and not os.environ.get("SIDEKICK_FORCE_TUI"):
        raise CliError("the app needs a terminal; for a line-by-line game use 'sidekick"
                       " --plain', for scripts 'sidekick script FILE'")
    from engine.tui.app import SidekickApp  # imported only here: textual is slow to import

    SidekickApp(saves_dir=saves, content_dirs=content, campaign=args.campaign).run()
    return 0


# ------------------------------------------------------------------ new / list / export


def _parse_stats(text: str) -> dict[str, int]:
    out = {}
    for part in re.split(r"[,\s]+", text.strip()):
        if not part:
            continue
        if "=" not in part:
            raise CliError(f"--stats: expected name=value pairs like danger=1, got {part!r}")
        k, v = part.split("=", 1)
        try:
            out[k.strip().lower()] = int(v)
        except ValueError:
            raise CliError(f"--stats: {k}={v!r} is not a whole number") from None
    return out


def _parse_npc(text: str) -> tuple[str, str, str]:
    parts = text.split(":")
    if len(parts) < 2 or not parts[0].strip():
        raise CliError(f"--npc: expected 'Name:role' (roles depend on the system, e.g. adult or"
                       f" villain in Masks), got {text!r}")
    return parts[0].strip(), parts[1].strip().lower(), ":".join(parts[2:]).strip()


def _parse_party(text: str) -> dict[str, Any]:
    """``--party Name:archetype``: another ready-made hero of the party."""
    name, _, archetype = text.partition(":")
    if not name.strip() or not archetype.strip():
        raise CliError(f"--party: expected 'Name:archetype' like Lamplight:lamplight, got"
                       f" {_clip(text)}")
    return {"name": name.strip(), "archetype": archetype.strip().lower(), "stats": None}


def _hero_block(args: argparse.Namespace) -> tuple[str, dict[str, int], dict[str, Any]]:
    """``--statblock FILE``: the hero's name, stats and data from a stat block file, read by
    the game's ruleset (``Ruleset.hero_from_file``) and checked like a custom stat line."""
    from engine.content.loader import get_pack
    from engine.heroes import hero_problems
    from engine.systems import ruleset_for

    if args.archetype or args.stats:
        raise CliError("--statblock makes the hero from the file: leave out --archetype and"
                       " --stats")
    pack = get_pack(args.system, _content(args))
    where = f"--statblock {_clip(args.statblock, 200)}"
    if not Path(args.statblock).is_file():
        raise CliError(f"{where}: no such file")
    try:
        name, stats, data = ruleset_for(pack).hero_from_file(Path(args.statblock))
    except IllegalAction as e:
        raise CliError(f"{where}: {e}") from None
    problems = hero_problems(pack, stats)
    if problems:
        raise CliError(f"{where}: {'; '.join(problems)} (a hero's"
                       f" {pack.system.stat_label.lower()} in {pack.system.name})")
    return name, stats, data


def cmd_new(args: argparse.Namespace) -> int:
    """Create a campaign in the save folder."""
    from engine.campaigns import close_game, new_game
    from engine.content.loader import get_pack

    get_pack(args.system, _content(args))  # an unknown system is said first
    hero, stats, data = args.hero, _parse_stats(args.stats) if args.stats else None, None
    if args.statblock:
        name, stats, data = _hero_block(args)
        hero = hero or name
    elif not args.archetype and not args.stats:
        raise CliError("give --archetype ID, --stats danger=1,freak=0,... or --statblock FILE"
                       " (the games with stat block files)")
    game = new_game(
        _saves(args), system=args.system, name=args.name, hero_name=hero or "The Hero",
        archetype=args.archetype, stats=stats,
        npcs=[_parse_npc(n) for n in args.npc or []], seed=args.seed,
        dice_mode="physical" if args.physical else args.dice, content=_content(args),
        party=[_parse_party(p) for p in args.party or []], hero_data=data,
    )
    cid = getattr(game.store, "id", "")
    close_game(game)
    _out(f"Created campaign '{args.name.strip()}' ({cid}) in {_saves(args)}. Play it with:"
         f" sidekick --campaign {cid}")
    return 0


def cmd_list(args: argparse.Namespace) -> int:
    """List the saved campaigns."""
    from engine.store import list_campaigns

    rows = list_campaigns(_saves(args))
    if args.json:  # its schema: docs/schema/output/list.schema.json
        for r in rows:
            _out(json.dumps(dataclasses.asdict(r)))
        return 0
    if not rows:
        _out(f"No campaigns in {_saves(args)} yet. Start one with 'sidekick' or 'sidekick new'.")
        return 0
    for r in rows:
        if r.error:
            _out(f"{r.id:24} DAMAGED: {r.error}")
            if r.recovery:
                _out(f"{'':24} {r.recovery} Run: sidekick recover {r.id}")
            else:
                _out(f"{'':24} Sidekick cannot recover it by itself.")
        else:
            _out(f"{r.id:24} {r.name} — {r.system}, {r.hero}, {r.scene} (last played"
                 f" {r.last_played[:16].replace('T', ' ')})")
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    """Print a campaign's journal as Markdown (the story or the full log), or write it into
    an Obsidian vault (``--vault DIR``: a note per session, character and thread)."""
    from engine.campaigns import close_game, open_game
    from engine.export import View, export_markdown, write_vault

    # reading needs no lock: the journal can be exported while the app plays the campaign
    game = open_game(_saves(args), args.campaign, _content(args), read_only=True)
    view: View = "story" if args.story else "full"
    try:
        events = list(game.store.events(markers=True))
        meta = getattr(game.store, "meta", None) or {}
        if args.vault:
            written = write_vault(Path(args.vault), game.state, game.pack, events, view)
            _out(f"Wrote {len(written)} notes into {Path(args.vault) / written[0].parent.name}"
                 if written else "Nothing to write.")
        else:
            _out(export_markdown(game.state, game.pack, events, view, meta).rstrip("\n"))
    finally:
        close_game(game)
    return 0


def cmd_recap(args: argparse.Namespace) -> int:
    """Print "Previously...": a short recap of a campaign, from its log (Markdown)."""
    from engine.campaigns import close_game, open_game
    from engine.recap import recap

    game = open_game(_saves(args), args.campaign, _content(args), read_only=True)
    try:
        lines = recap(game.store.events(markers=True), game.state, game.pack)
    finally:
        close_game(game)
    for line in lines or [f"Nothing to recap in '{game.state.name}' yet: nothing has been"
                          " played."]:
        _out(line)
    return 0


def cmd_delete(args: argparse.Namespace) -> int:
    """Delete a campaign: only the files Sidekick made (anything else is left and named)."""
    from engine.store import delete_campaign, list_campaigns

    saves = _saves(args)
    if not args.yes:
        found = next((c for c in list_campaigns(saves) if c.id == args.campaign), None)
        if found is None:  # not a campaign: say why at once, before asking anything
            _out(delete_campaign(saves, args.campaign))
            return 0
        name = found.name
        if not sys.stdin.isatty():
            raise CliError(f"deleting '{name}' removes its whole journal; add --yes to confirm")
        sys.stderr.write(f"Delete '{name}' ({args.campaign}) and its whole journal? This cannot"
                         f" be undone. [y/N] ")
        sys.stderr.flush()
        if sys.stdin.readline().strip().lower() not in ("y", "yes"):
            _out("Kept it.")
            return 0
    _out(delete_campaign(saves, args.campaign))
    return 0


def cmd_recover(args: argparse.Namespace) -> int:
    """Recover a damaged campaign; damaged files are renamed aside, never deleted."""
    from engine.campaigns import recover_campaign

    _out(recover_campaign(_saves(args), args.campaign, _content(args)))
    return 0


# ------------------------------------------------------------------ odds / roll / validate


def cmd_odds(args: argparse.Namespace) -> int:
    """Exact odds of each band for a move or dice notation with a modifier."""
    from engine.content.loader import get_pack
    from engine.dice import DiceSpec
    from engine.odds import MAX_COMBINATIONS, combinations, percent
    from engine.outputs import OddsLine
    from engine.rules.resolve import chances_outside_play
    from engine.systems import ruleset_for

    pack = get_pack(args.system, _content(args))
    move = pack.moves.get(args.what)
    if move is not None:
        if move.roll is None:
            raise CliError(f"{move.name} has no roll")
        spec = pack.dice_for(move)
        bands = pack.bands_for(move)
        title = move.name
    else:
        try:
            spec = DiceSpec.parse(args.what)
        except ValueError:
            raise CliError(f"{args.what!r} is neither a move of {pack.id} nor dice notation"
                           f" (moves: {', '.join(list(pack.moves)[:8])}, ...)") from None
        bands = pack.system.bands.get(args.bands or "default") or []
        if not bands:
            raise CliError(f"{pack.id} has no band set {args.bands!r}")
        title = spec.notation
    if args.advantage:
        spec = spec.with_advantage(args.advantage)
    if combinations(spec) > MAX_COMBINATIONS:  # exact odds enumerate every face combination
        raise CliError(f"{spec.notation} has {combinations(spec):,} face combinations;"
                       f" exact odds stop at {MAX_COMBINATIONS:,}")
    clamp = pack.system.modifier_clamp
    mod = max(clamp[0], min(clamp[1], args.modifier)) if clamp else args.modifier
    odds = chances_outside_play(ruleset_for(pack), spec, mod, bands, move,  # nat 20/1 count
                                args.bands or "default")
    if args.json:
        line: OddsLine = {"dice": spec.notation, "modifier": mod,
                          "odds": {k: str(v) for k, v in odds.items()}}
        _out(json.dumps(line))
        return 0
    note = f" (clamped from {args.modifier:+d})" if mod != args.modifier else ""
    _out(f"{title}: {spec.notation} {mod:+d}{note}")
    for b in bands:
        rng = f"{b.min if b.min is not None else ''}..{b.max if b.max is not None else ''}"
        _out(f"  {b.name:14} {rng:8} {percent(odds[b.id]):>7}  ({odds[b.id]})")
    return 0


_ROLL = re.compile(r"^\s*(\d*d\d+(?:k[hl]\d+)?)\s*([+-]\s*\d+)?\s*$", re.I)
MAX_MODIFIER = 10**6
MAX_TIMES = 1000


def cmd_roll(args: argparse.Namespace) -> int:
    """Roll dice notation like 2d6+1, 3d6kh2, d20+5 (seeded with --seed)."""
    import secrets

    from engine.dice import DiceSpec, SeededDice, degrees_vs_dc

    m = _ROLL.match(args.dice)
    if not m:
        raise CliError(f"{_clip(args.dice)} is not dice notation (like 2d6+1, 3d6kh2, d20+5)")
    try:
        spec = DiceSpec.parse(m.group(1))
    except ValueError as e:
        raise CliError(str(e) if len(m.group(1)) <= 40 else f"{_clip(m.group(1))}: bad dice"
                       " notation: 1-20 dice of 2-1000 sides") from None
    sign, digits = (m.group(2)[0], m.group(2)[1:].strip().lstrip("0")) if m.group(2) else (
        "+", "")
    if len(digits) > len(str(MAX_MODIFIER)) or int(digits or 0) > MAX_MODIFIER:
        raise CliError(f"{_clip(args.dice)}: the modifier must be from -{MAX_MODIFIER:,} to"
                       f" +{MAX_MODIFIER:,}")
    mod = int(digits or 0) * (-1 if sign == "-" else 1)
    if not 1 <= args.times <= MAX_TIMES:
        raise CliError(f"--times must be from 1 to {MAX_TIMES}, not {args.times}")
    check: Callable[[int, int, int], Degrees] = partial(degrees_vs_dc, crit_shift=False)
    # the plain d20 check above, or the game's:
    if args.dc is not None and args.system:
        from engine.checks import require_checked
        from engine.content.loader import get_pack
        from engine.systems import ruleset_for

        check = ruleset_for(require_checked(get_pack(args.system, _content(args)))).check_vs_dc
    seed = args.seed if args.seed is not None else secrets.randbelow(2**31)
    dice = SeededDice(seed)
    for _ in range(args.times):
        r = dice.roll(spec)
        if args.json:
            _out(json.dumps(_roll_line(spec.notation, mod, r, seed, args.dc, check)))
            continue
        dropped = f" dropped {list(r.dropped)}" if r.dropped else ""
        line = f"{spec.notation}{mod:+d}: {list(r.faces)} kept {list(r.kept)}{dropped} = " \
               f"{r.total + mod}"
        if args.dc is not None and spec.count == 1:
            line += f" vs DC {args.dc}: {check(r.faces[0], mod, args.dc).label}"
        _out(line)
    if args.seed is None and not args.json:
        _out(f"(seed {seed})")
    return 0


def _roll_line(notation: str, mod: int, r: Roll, seed: int, dc: int | None,
               check: Callable[[int, int, int], Degrees]) -> RollLine:
    """One roll as ``sidekick roll --json`` prints it (docs/schema/output/roll.schema.json):
    the check's result only for one die against ``dc``."""
    result = check(r.faces[0], mod, dc) if dc is not None and len(r.faces) == 1 else None
    return {"dice": notation, "modifier": mod, "faces": list(r.faces), "kept": list(r.kept),
            "dropped": list(r.dropped), "total": r.total + mod, "seed": seed,
            "dc": dc if result is not None else None,
            "success": result.success if result is not None else None,
            "degrees": result.degrees if result is not None else None}


def cmd_validate(args: argparse.Namespace) -> int:
    """Validate content packs: schema, id references, band coverage, and what the rulesets
    and the GM define (rulesets, rule effects, preconditions)."""
    from engine.checks import load_checked, pack_warnings
    from engine.content.loader import discover
    from engine.errors import ContentError

    paths = [Path(p) for p in args.paths] if args.paths else list(
        discover(_content(args)).values())
    bad = 0
    for p in paths:
        try:
            pack = load_checked(p)
        except ContentError as e:
            bad += 1
            sys.stderr.write(f"✗ {_clip(str(p), 200)[1:-1]}\n")
            for problem in e.problems:
                sys.stderr.write(f"  {problem}\n")
            continue
        _out(f"✓ {p}: {pack.system.name}: {len(pack.moves)} moves, {len(pack.gm_moves)} GM moves,"
             f" {len(pack.tables)} tables")
        for warning in pack_warnings(pack):
            _out(f"  ⚠ {warning}")
    return EXIT_ERROR if bad else 0


def cmd_schema(args: argparse.Namespace) -> int:
    """Write the JSON Schema of every kind of content file (per game where a game adds files
    of its own) into a folder, for editors to check packs as they are written, and those of
    what the command line prints as JSON (events, list, odds, roll, the lab's summary) into
    its ``output`` folder, for script consumers."""
    from engine.checks import published_schemas
    from engine.outputs import OUTPUT_FOLDER, output_schemas

    out = Path(args.out)
    for folder, schemas in ((out, published_schemas()),
                            (out / OUTPUT_FOLDER, output_schemas())):
        folder.mkdir(parents=True, exist_ok=True)
        for name, schema in schemas.items():
            text = json.dumps(schema, indent=2, ensure_ascii=False) + "\n"
            (folder / name).write_text(text, encoding="utf-8")
            _out(str(folder / name))
    return 0


# ------------------------------------------------------------------ scripted play


def _load_script(path: str) -> dict[str, Any]:
    """A script file's data: YAML (aliases that expand too far, or nest too deep, are refused)
    or JSON by its suffix; ``CliError`` saying what is wrong."""
    import yaml

    from engine.content.loader import MAX_YAML_BYTES, YamlTooLarge, parse_yaml

    p = Path(path)
    path = _clip(path, 200)[1:-1]  # as shown in messages
    kind = "JSON" if p.suffix == ".json" else "YAML"
    try:
        text = sys.stdin.read(MAX_YAML_BYTES + 1) if path == "-" else p.read_text(
            encoding="utf-8")
    except OSError as e:
        raise CliError(f"{path}: cannot read the script ({e.strerror})") from None
    except UnicodeDecodeError as e:
        raise CliError(f"{path}: the script is not UTF-8 text (byte {e.start})") from None
    try:
        if len(text) > MAX_YAML_BYTES:
            raise YamlTooLarge(f"the file is larger than {MAX_YAML_BYTES:,} bytes")
        data = json.loads(text) if kind == "JSON" else parse_yaml(text)[0]
    except YamlTooLarge as e:
        raise CliError(f"{path}: script refused: {e}") from None
    except RecursionError:
        raise CliError(f"{path}: script refused: nested too deeply") from None
    except (ValueError, yaml.YAMLError) as e:  # ValueError: also a number too long to read
        why = str(e) if len(str(e)) <= 300 else str(e)[:300] + "..."
        if "integer string conversion" in why:
            why = "a number has more than 4,300 digits"
        raise CliError(f"{path}: not valid {kind}: {why}") from None
    if not isinstance(data, dict) or not isinstance(data.get("steps", []), list):
        raise CliError(f"{path}: a script is a mapping with 'campaign' and a list of 'steps'")
    return data


def cmd_script(args: argparse.Namespace) -> int:
    """Play a campaign from a script of player inputs; print each event as a JSON line."""
    from engine.script import run_script

    data = _load_script(args.file)
    emit_all = args.all_events

    def emit(e: Mapping[str, Any]) -> None:
        if e["type"] == "JournalLine":
            _out(e["text"])
        elif emit_all or e["type"] not in ("FlowChanged", "ActionStarted"):
            _out(json.dumps(dict(e), ensure_ascii=False))

    run_script(data, saves=None if args.dry_run else _saves(args), content=_content(args),
               campaign=args.campaign, emit=emit, journal=args.journal)
    return 0


# ------------------------------------------------------------------ the design lab


# ------------------------------------------------------------------ parser


def _add_play_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The commands that start playing: play (the app) and new (a campaign)."""
    sp = sub.add_parser("play", help="start the app (the default)")
    _plain_flag(sp, argparse.SUPPRESS)
    sp.add_argument("--campaign", metavar="ID", default=argparse.SUPPRESS,
                    help="open this campaign directly")
    sp.set_defaults(fn=cmd_play)

    sp = sub.add_parser("new", help="create a campaign")
    sp.add_argument("name", help="campaign name")
    sp.add_argument("--system", default="masks", help="game system id (default masks)")
    sp.add_argument("--hero", help="hero name (default: The Hero, or the stat block's name)")
    sp.add_argument("--archetype", help="archetype id")
    sp.add_argument("--stats", help="custom stat line, e.g. danger=1,freak=1,savior=0,...")
    sp.add_argument("--statblock", metavar="FILE",
                    help="the hero from a YAML stat block (games that have them)")
    sp.add_argument("--party", action="append", metavar="NAME:ARCHETYPE",
                    help="another hero of the party, ready-made (repeatable)")
    sp.add_argument("--npc", action="append", metavar="NAME:ROLE[:NOTE]", help="an NPC")
    sp.add_argument("--seed", type=int, help="dice seed (default random)")
    sp.add_argument("--dice", choices=["seeded", "physical", "mixed"], default="seeded",
                    help="seeded: Sidekick rolls; physical: you roll every die; mixed: each roll"
                         " asks (default seeded)")
    sp.add_argument("--physical", action="store_true", help="the same as --dice physical")
    sp.set_defaults(fn=cmd_new)


def _add_campaign_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The commands on saved campaigns: list, export, recap, delete, recover."""
    sp = sub.add_parser("list", help="list saved campaigns")
    sp.add_argument("--json", action="store_true", help="one JSON object per line")
    sp.set_defaults(fn=cmd_list)

    sp = sub.add_parser("export", help="print a campaign's journal as Markdown")
    sp.add_argument("campaign", help="campaign id")
    view = sp.add_mutually_exclusive_group()
    view.add_argument("--story", action="store_true",
                      help="the story: fiction, narration, answers; each move folded")
    view.add_argument("--full", action="store_true", help="the full log (the default)")
    sp.add_argument("--vault", metavar="DIR", help="write notes into an Obsidian vault folder"
                    " (a note per session, character and thread; updated on each export)")
    sp.set_defaults(fn=cmd_export)

    sp = sub.add_parser("recap", help="print 'Previously...': a short recap of a campaign")
    sp.add_argument("campaign", help="campaign id")
    sp.set_defaults(fn=cmd_recap)

    sp = sub.add_parser("delete", help="delete a campaign (only the files Sidekick made)")
    sp.add_argument("campaign", help="campaign id")
    sp.add_argument("--yes", action="store_true", help="do not ask for confirmation")
    sp.set_defaults(fn=cmd_delete)

    sp = sub.add_parser("recover", help="repair a damaged campaign (files set aside, not deleted)")
    sp.add_argument("campaign", help="campaign id")
    sp.set_defaults(fn=cmd_recover)


def _add_dice_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The dice commands: odds and roll."""
    sp = sub.add_parser("odds", help="exact odds for a move or dice")
    sp.add_argument("what", help="move id (e.g. directly_engage) or dice (e.g. 2d6)")
    sp.add_argument("--system", default="masks")
    sp.add_argument("--modifier", "-m", type=int, default=0)
    sp.add_argument("--bands", help="band set for dice notation (default 'default')")
    sp.add_argument("--advantage", choices=["advantage", "disadvantage"])
    sp.add_argument("--json", action="store_true")
    sp.set_defaults(fn=cmd_odds)

    sp = sub.add_parser("roll", help="roll dice: 2d6+1, 3d6kh2, d20+5")
    sp.add_argument("dice")
    sp.add_argument("--seed", type=int)
    sp.add_argument("--times", type=int, default=1)
    sp.add_argument("--dc", type=int, help="for a d20: degrees against this DC")
    sp.add_argument("--json", action="store_true",
                    help="one JSON object per roll (with its seed)")
    sp.add_argument("--system", metavar="ID",
                    help="with --dc: the game whose check to use (e.g. mutants-and-masterminds;"
                         " default: one degree per 5 points, the naturals counting as their"
                         " face)")
    sp.set_defaults(fn=cmd_roll)


def _add_content_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The content pack commands: validate and schema."""
    sp = sub.add_parser("validate", help="check content packs")
    sp.add_argument("paths", nargs="*", help="pack folders (default: every installed pack)")
    sp.set_defaults(fn=cmd_validate)

    sp = sub.add_parser("schema", help="write the JSON Schemas of content files (for editors)"
                        " and of the JSON the commands print (for scripts)")
    sp.add_argument("--out", metavar="DIR", default="schema",
                    help="folder to write them to (default ./schema)")
    sp.set_defaults(fn=cmd_schema)


def _add_script_command(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The script command: play from a YAML/JSON script."""
    sp = sub.add_parser("script", help="play from a YAML/JSON script; events as JSON lines")
    sp.add_argument("file", help="script file ('-' for standard input)")
    sp.add_argument("--dry-run", action="store_true", help="play in memory, save nothing")
    sp.add_argument("--all-events", action="store_true", help="include bookkeeping events")
    sp.add_argument("--journal", action="store_true",
                    help="print the journal (Markdown) instead of JSON lines")
    # also accepted after the file (the README shows it there); SUPPRESS keeps the top-level value
    sp.add_argument("--campaign", metavar="ID", default=argparse.SUPPRESS,
                    help="continue this saved campaign instead of creating one")
    sp.set_defaults(fn=cmd_script)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser."""
    p = argparse.ArgumentParser(
        prog="sidekick",
        description="Solo, GM-less tabletop role-playing in your terminal. With no command,"
                    " starts the app.")
    _folders(p, None)
    p.add_argument("--campaign", metavar="ID", help="open this campaign directly")
    _plain_flag(p, False)
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    from engine.cli_lab import add_lab_command

    for add in (_add_play_commands, _add_campaign_commands, _add_dice_commands,
                _add_content_commands, _add_script_command, add_lab_command):
        add(sub)
    for sp in sub.choices.values():  # "sidekick list --saves DIR" as well as before it
        _folders(sp, argparse.SUPPRESS)
    return p


def _plain_flag(p: argparse.ArgumentParser, default: Any) -> None:
    """--plain: play line by line (screen readers, terminals without a full-screen app)."""
    p.add_argument("--plain", action="store_true", default=default,
                   help="play in the plain, line-by-line mode (for screen readers and"
                        " terminals where the full-screen app does not work)")


def _folders(p: argparse.ArgumentParser, default: Any) -> None:
    """--saves and --content (SUPPRESS after a command: keeps those given before it)."""
    p.add_argument("--saves", metavar="DIR", default=default,
                   help="save folder (default: $SIDEKICK_SAVES or ./saves)")
    p.add_argument("--content", metavar="DIR", action="append", default=default,
                   help="extra content packs (repeatable; also $SIDEKICK_CONTENT)")


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``sidekick`` console script."""
    parser = build_parser()
    args = parser.parse_args(argv)
    fn = getattr(args, "fn", cmd_play)
    try:
        return int(fn(args))
    except UsageError as e:
        sys.stderr.write(f"sidekick: error: {e}\n")
        return EXIT_USAGE
    except EngineError as e:
        msg = str(e).strip().replace("\n", "\n  ")
        sys.stderr.write(f"sidekick: error: {msg}\n")
        return EXIT_ERROR
    except KeyboardInterrupt:
        sys.stderr.write("sidekick: interrupted\n")
        return 130
    except BrokenPipeError:
        return 0
    except OSError as e:  # the file system said no (a name too long, a folder unreadable...)
        where = f"{_clip(str(e.filename), 60)}: " if e.filename else ""
        sys.stderr.write(f"sidekick: error: {where}{e.strerror or e}\n")
        return EXIT_ERROR


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

