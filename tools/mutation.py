"""Mutation testing, one engine module at a time, on demand (never in CI).

    python tools/mutation.py --list           # the modules and the tests run against each
    python tools/mutation.py dice             # mutate engine/dice.py, run its tests, report
    python tools/mutation.py oracle --show    # ... with each survivor's line and change
    python tools/mutation.py odds --again     # rerun only the last survivors (after new tests)
    python tools/mutation.py store --resume   # go on with an interrupted run (and changed code)
    python tools/mutation.py store --part 1/4 # a big module in parts: 1/4 first, then 2/4 ...
    python tools/mutation.py store --report   # the score of the last runs, without running

Each module gets its own work folder ``.mutation/<name>/`` (git-ignored): links to ``engine``,
``content``, ``examples`` and ``tests`` and a ``pyproject.toml`` holding the repository's
``[tool.mutmut]`` settings with ``only_mutate`` set to that one file and the test selection
set to the unit tests that cover it. mutmut (3.x) copies everything into
``.mutation/<name>/mutants/`` and runs with ONE worker (the machine is shared), so a module
takes a few minutes. The score printed is killed / (total - equivalent), where the
equivalent mutants are the ones listed below with the reason each changes nothing.

``--part K/N`` runs only the mutants of the K-th of N groups of the module's functions
(balanced by the seconds an earlier run took, else by length), so a large module fits in
several runs of under ten minutes: part 1 makes the mutants afresh and plans the groups, the
later parts reuse both, so run them in order.
"""

from __future__ import annotations

import argparse
import ast
import fnmatch
import json
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
WORK = ROOT / ".mutation"

# module name -> (file to mutate, the unit tests that cover it; missing files are skipped)
MODULES: dict[str, tuple[str, list[str]]] = {
    "dice": ("engine/dice.py", [
        "tests/unit/test_dice.py", "tests/unit/test_dice_golden.py",
        "tests/unit/test_mutation_kills.py"]),
    "odds": ("engine/odds.py", [
        "tests/unit/test_odds.py", "tests/unit/test_mutation_kills.py"]),
    "oracle": ("engine/gm/oracle.py", [
        "tests/unit/test_oracle_exact.py", "tests/unit/test_gm.py",
        "tests/unit/test_mutation_kills.py"]),
    "resolve": ("engine/rules/resolve.py", [
        "tests/unit/test_masks_moves.py", "tests/unit/test_cow_rolls.py",
        "tests/unit/test_rules_gaps.py", "tests/unit/test_mutation_kills.py"]),
    "masks": ("engine/systems/masks/rules.py", [
        "tests/unit/test_masks_moves.py", "tests/unit/test_masks_defects.py",
        "tests/unit/test_rules_gaps.py", "tests/unit/test_mutation_masks.py"]),
    "effects": ("engine/rules/effects.py", [
        "tests/unit/test_masks_moves.py", "tests/unit/test_cow_moves.py",
        "tests/unit/test_masks_defects.py", "tests/unit/test_rules_gaps.py",
        "tests/unit/test_mutation_effects.py"]),
}
# the store package, one module at a time (it was engine/store.py until 2026-11-28)
for _part in ("files", "ids", "checks", "locks", "chunks", "storage", "recover", "folder",
              "campaign"):
    MODULES[f"store.{_part}"] = (f"engine/store/{_part}.py", [
        "tests/unit/test_store.py", "tests/unit/test_store_safety.py",
        "tests/unit/test_mutation_store.py"])

# Survivors judged equivalent (no input can tell them apart from the original), with why.
# Names are mutmut's: they stay valid while the function they are in does not change.
EQUIVALENT: dict[str, str] = {
    "engine.dice.xǁDiceSpecǁparse__mutmut_55":
        '(m.group(3) or "H").lower(): the letter is lower-cased anyway',
    "engine.dice.xǁDiceSpecǁkept_indices__mutmut_3":
        "keep > len(faces): keeping every face through the sort gives the same indices",
    "engine.dice.x__face_v1__mutmut_12":
        'int.from_bytes(digest): the byte order defaults to "big" since Python 3.11',
    "engine.dice.x_degrees_vs_dc__mutmut_66":
        "signed >= 0: there is no degree 0, signed is never 0",
    "engine.odds.x_distribution__mutmut_6":
        "_table(spec, 1): the low-face split is summed back per total",
    "engine.odds.x_distribution__mutmut_12":
        "out.get(None, 0): with low_face 0 each total appears once, so the sum starts at 0",
    "engine.gm.oracle.x_read__mutmut_23":
        "roll <= 100: 100 is not a double, and a d100 shows at most 100",
    "engine.gm.oracle.x_read__mutmut_24":
        "roll < 101: 100 is not a double, and a d100 shows at most 100",
    "engine.gm.oracle.x_read__mutmut_27":
        "roll / 11: a double is a multiple of 11, so / and // agree",
    # engine/systems/masks/rules.py
    "engine.systems.masks.rules.xǁMasksRulesǁadjustments__mutmut_61":
        'roll.get("stat", None): a roll is a Rolled event, which always has its stat',
    "engine.systems.masks.rules.xǁMasksRulesǁadjustments__mutmut_63":
        'roll.get("stat"): a roll is a Rolled event, which always has its stat',
    "engine.systems.masks.rules.xǁMasksRulesǁadjustments__mutmut_66":
        'roll.get("stat", "XXXX"): a roll always has its stat (and ids are snake_case)',
    "engine.systems.masks.rules.xǁMasksRulesǁshift_stats__mutmut_22":
        "new >= d.max: inside the branch new is past a bound, so it never equals d.max",
    "engine.systems.masks.rules.xǁMasksRulesǁshift_stats__mutmut_28":
        "new >= d.max: inside the branch new is past a bound, so it never equals d.max",
    "engine.systems.masks.rules.xǁMasksRulesǁadjust__mutmut_140":
        "super().adjust(None, ...): the base method raises without reading the state",
    "engine.systems.masks.rules.xǁMasksRulesǁadjust__mutmut_142":
        "super().adjust(..., None): the base method raises without reading the roll",
    "engine.systems.masks.rules.xǁMasksRulesǁrule_effect__mutmut_144":
        "super().rule_effect(None, ...): the base method raises without reading the state",
    "engine.systems.masks.rules.xǁMasksRulesǁrule_effect__mutmut_146":
        "super().rule_effect(..., None): the base method raises without reading ctx",
    "engine.systems.masks.rules.xǁMasksRulesǁrule_answer__mutmut_4":
        "super().rule_answer(None, ...): the base method raises without reading the state",
    "engine.systems.masks.rules.xǁMasksRulesǁrule_answer__mutmut_6":
        "super().rule_answer(..., None, ids): the base method raises without reading ctx",
    "engine.systems.masks.rules.xǁMasksRulesǁrule_answer__mutmut_7":
        "super().rule_answer(..., None): the base method raises without reading the ids",
    # engine/rules/effects.py
    "engine.rules.effects.x_outcome_for__mutmut_9":
        'key.split("."): band ids are snake_case, so a key has exactly one dot',
    "engine.rules.effects.x_outcome_for__mutmut_10":
        'key.rsplit(".", 1): band ids are snake_case, so a key has exactly one dot',
    "engine.rules.effects.x_outcome_for__mutmut_12":
        'key.split(".", 2): band ids are snake_case, so a key has exactly one dot',
    "engine.rules.effects.xǁInterpreterǁ_who__mutmut_3":
        "getattr(eff, 'who', None): every effect given to _who has a who field (default self)",
    "engine.rules.effects.xǁInterpreterǁ_who__mutmut_6":
        "getattr(eff, 'who'): every effect given to _who has a who field (default self)",
    "engine.rules.effects.xǁInterpreterǁ_who__mutmut_9":
        "getattr default 'XXselfXX': every effect given to _who has a who field",
    "engine.rules.effects.xǁInterpreterǁ_who__mutmut_10":
        "getattr default 'SELF': every effect given to _who has a who field",
    "engine.rules.effects.xǁInterpreterǁ_e_shift_labels__mutmut_25":
        "{eff.down} when down is None excludes {None}: no stat has the id None",
    "engine.rules.effects.xǁInterpreterǁtrack_step__mutmut_44":
        "step.push = instead of +=: the Step was just made, its push is empty",
    "engine.rules.effects.xǁInterpreterǁ_e_trigger_move__mutmut_12":
        "default (None, 1): its count is never read, None never equals the key",
    "engine.rules.effects.xǁInterpreterǁ_e_taken_out__mutmut_4":
        "TakenOut without out=True: the event's out defaults to True",
    "engine.rules.effects.xǁInterpreterǁ_e_clock__mutmut_16":
        "advance_threat(pack, None, ...): advance_threat never reads the state",
    "engine.rules.effects.xǁInterpreterǁanswer__mutmut_174":
        "rule_answer(None, ...): no ruleset's rule_answer (base, Masks, CoW) reads the state",
    "engine.rules.effects.x_clock_step__mutmut_19":
        "0 <= new: with new > clock >= 0, new is at least 1",
    # the store (names as mutmut 3.8 numbers the store.py of 2026-11-22 19:20 UTC, now in the
    # store package's modules)
    "engine.store.checks.x__type_name__mutmut_17": (
        "names.get(.., None): every caller passes parsed JSON or _plain data, whose types are"
        " all in the table"
    ),
    "engine.store.checks.x__type_name__mutmut_19":
        "names.get(type(value)): every caller passes a JSON value, whose type is in the table",
    "engine.store.checks.x__type_name__mutmut_21":
        "type(None).__name__ as fallback: the fallback is never reached (JSON values only)",
    "engine.store.ids.x__fit__mutmut_11":
        "rstrip('XX-XX'): a slug holds only lowercase id characters and '-', never 'X'",
    "engine.store.ids.x_slugify__mutmut_27": (
        "out[-1] != 'XX-XX': out[-1] is one character; when it is '-', isascii() makes the "
        "test false anyway"
    ),
    "engine.store.ids.x_slugify__mutmut_37": (
        "'XX-XX' for a non-id character: the second pass turns each 'X' into '-' and the runs"
        " collapse to one '-'"
    ),
    "engine.store.ids.x_slugify__mutmut_51": (
        "second pass keeps every character: after the first pass NFC of id characters and "
        "kept marks gives only id characters (searched U+0080-U+30FF with the common marks: "
        "no counter-example)"
    ),
    "engine.store.ids.x_slugify__mutmut_53": (
        "ch != '-' in the second pass: same as mutmut_51 (no non-id character reaches it), "
        "and '-' is still replaced by '-'"
    ),
    "engine.store.ids.x_slugify__mutmut_54":
        "ch == 'XX-XX': '-' is not an id character, so it is replaced by '-' (itself)",
    "engine.store.ids.x_slugify__mutmut_56": (
        "second pass writes XX-XX: same as mutmut_51, no non-id character reaches the second "
        "pass"
    ),
    "engine.store.ids.x_slugify__mutmut_68":
        "strip('XX-XX'): the slug holds no 'X' (lowercase id characters and '-')",
    "engine.store.files.x__fsync_dir__mutmut_6": (
        "O_RDONLY & O_DIRECTORY is O_RDONLY: opening a folder read-only works the same; only "
        "folders are passed"
    ),
    "engine.store.files.x__fsync_dir__mutmut_7":
        "getattr(None, 'O_DIRECTORY', 0) is 0: same as mutmut_6",
    "engine.store.files.x__fsync_dir__mutmut_9":
        "default None: Linux has O_DIRECTORY, the default is never used",
    "engine.store.files.x__fsync_dir__mutmut_12":
        "no default: Linux has O_DIRECTORY",
    "engine.store.files.x__fsync_dir__mutmut_13":
        "a missing attribute name gives 0: same as mutmut_6",
    "engine.store.files.x__fsync_dir__mutmut_14":
        "a missing attribute name gives 0: same as mutmut_6",
    "engine.store.files.x__fsync_dir__mutmut_15":
        "default 1: Linux has O_DIRECTORY, the default is never used",
    "engine.store.files.x__tmp_path__mutmut_2": (
        "token_hex(None) is 32 random bytes: a longer random temp name, cleaned up the same "
        "(prefix and suffix unchanged)"
    ),
    "engine.store.files.x__tmp_path__mutmut_3":
        "token_hex(5): a longer random temp name, cleaned up the same",
    "engine.store.files.x__write_new_file__mutmut_18": (
        "view = None after the first write: os.write on a regular file writes the whole "
        "buffer (save files are at most 64 MiB, far under the 2 GiB per-call cap)"
    ),
    "engine.store.files.x__backup__mutmut_5":
        "follow_symlinks=None is false, as False",
    "engine.store.files.x__atomic_write__mutmut_9":
        "'UTF-8' and 'utf-8' are the same codec",
    "engine.store.locks.x__acquire_lock__mutmut_24":
        "'ASCII' and 'ascii' are the same codec",
    "engine.store.locks.x__acquire_lock__mutmut_28":
        "holder 'XXXX' when the lock cannot be read: not digits, so no pid is shown, as with ''",
    "engine.store.files.x__backup__mutmut_8": (
        "os.link follows symbolic links by default: on Linux a link to a symbolic link is the "
        "link itself either way (checked: the .bak of a planted link stays a link)"
    ),
    "engine.store.files.x__backup__mutmut_9":
        "follow_symlinks=True: the same on Linux as mutmut_8",
    "engine.store.recover.x__inspect__mutmut_47":
        "kind None for 'resume': no caller compares kind with 'resume' (only ok, none, rebuild)",
    "engine.store.recover.x__inspect__mutmut_57":
        "kind 'XXresumeXX': no caller compares kind with 'resume'",
    "engine.store.recover.x__inspect__mutmut_58":
        "kind 'RESUME': no caller compares kind with 'resume'",
    "engine.store.recover.x__inspect__mutmut_64":
        "doc None for an ok campaign: only recover reads doc, and it returns at once for ok",
    "engine.store.recover.x__inspect__mutmut_69":
        "doc left out for an ok campaign: only recover reads doc, and not for ok",
    "engine.store.recover.x__inspect__mutmut_78":
        "the .bak path in a message that is suppressed: only the parsed document is used",
    "engine.store.recover.x__inspect__mutmut_123":
        "doc None for 'rebuild': recover rebuilds from the log and never reads doc then",
    "engine.store.recover.x__inspect__mutmut_128":
        "doc left out for 'rebuild': recover never reads doc then",
    "engine.store.campaign.xǁCampaignStoreǁrecover__mutmut_62":
        "copy.copy of a freshly read chunk's base: the chunk is not used again but for last_n()",
    "engine.store.recover.x__repair_log__mutmut_28":
        "end = 1 with no chunk files: chunk 1 is not among the chunks, so the loop brings it to 0",
    "engine.store.recover.x__repair_log__mutmut_67":
        "range(.., end + 2): chunks[end] exists, so the first chunk found is at most end",
    "engine.store.campaign.xǁCampaignStoreǁ_read_chunk__mutmut_14":
        "always a deep copy: undo's chunks are used the same way as a copy (only slower)",
    "engine.store.recover.x__write_campaign_file__mutmut_13":
        "ensure_ascii=None is false, as False",
    "engine.store.recover.x__write_chunk_file__mutmut_11":
        "ensure_ascii=None is false, as False",
    "engine.store.storage.xǁAtomicJSONStorageǁwrite__mutmut_3":
        "ensure_ascii=None is false, as False",
    "engine.store.locks.x__open_lock_file__mutmut_5": (
        "O_NONBLOCK & O_CLOEXEC is 0: os.open makes every fd non-inheritable anyway (PEP 446), "
        "and opening a FIFO read-write never blocks on Linux"
    ),
    "engine.store.files.x__read_regular__mutmut_32":
        "reads of 2 MiB instead of 1 MiB: only the number of reads changes, not the bytes",
    "engine.store.files.x__read_regular__mutmut_33":
        "reads of 2 MiB instead of 1 MiB: only the number of reads changes, not the bytes",
    "engine.store.locks.x__open_lock_file__mutmut_28":
        "problem = None: only its truth is tested, and None is false like ''",
    "engine.store.campaign.xǁCampaignStoreǁ_load__mutmut_9":
        "_stale = None is false, as False",
    "engine.store.campaign.xǁCampaignStoreǁclose__mutmut_6":
        "'' for the databases of a closed store: every use of it raises 'closed' first",
    "engine.store.locks.x__acquire_lock__mutmut_45":
        "ftruncate(fd, 1) then writing the pid (2+ bytes) at 0: the file ends the same",
    "engine.store.locks.x__acquire_lock__mutmut_54":
        "'ASCII' and 'ascii' are the same codec",
    "engine.store.folder.x__summary__mutmut_3": (
        "look again when ok instead of when damaged: both reads give the same answer unless "
        "another process writes between them"
    ),
    "engine.store.folder.x__summary__mutmut_4":
        "always look twice: the second read gives the same answer without a concurrent writer",
    "engine.store.folder.x__summary__mutmut_5":
        "always look twice: the second read gives the same answer without a concurrent writer",
    "engine.store.checks.x__text__mutmut_3":
        "str(value) for a str from JSON is the same string",
    "engine.store.folder.x__remove_known_files__mutmut_26":
        "kept = 1: kept is only tested for zero",
    "engine.store.folder.x__remove_known_files__mutmut_27":
        "kept -= 1: kept is only tested for zero, and -n is zero only when n is",
    "engine.store.folder.x__remove_known_files__mutmut_28":
        "kept += 2: kept is only tested for zero",
    "engine.store.storage.xǁAtomicJSONStorageǁwrite__mutmut_4": (
        "allow_nan=None: no NaN or Infinity reaches a write (_plain refuses them on the way "
        "in, _read_tinydb_file in files)"
    ),
    "engine.store.storage.xǁAtomicJSONStorageǁwrite__mutmut_8":
        "allow_nan default True: no NaN or Infinity reaches a write",
    "engine.store.storage.xǁAtomicJSONStorageǁwrite__mutmut_11":
        "allow_nan=True: no NaN or Infinity reaches a write",
    "engine.store.storage.xǁAtomicJSONStorageǁwrite__mutmut_20": (
        "_data = '' after a failed write: the store then marks itself stale and reopens every"
        " database, so that storage is never read again"
    ),
    "engine.store.recover.x__write_campaign_file__mutmut_14":
        "allow_nan=None: no NaN or Infinity reaches a write",
    "engine.store.recover.x__write_campaign_file__mutmut_18":
        "allow_nan default True: no NaN or Infinity reaches a write",
    "engine.store.recover.x__write_campaign_file__mutmut_22":
        "allow_nan=True: no NaN or Infinity reaches a write",
    "engine.store.recover.x__write_chunk_file__mutmut_12":
        "allow_nan=None: no NaN or Infinity reaches a write",
    "engine.store.recover.x__write_chunk_file__mutmut_16":
        "allow_nan default True: no NaN or Infinity reaches a write",
    "engine.store.recover.x__write_chunk_file__mutmut_20":
        "allow_nan=True: no NaN or Infinity reaches a write",
    "engine.store.campaign.xǁCampaignStoreǁ__init____mutmut_14": (
        "initial _stale: every constructor path calls _load() before the store is used, which"
        " sets it"
    ),
    "engine.store.campaign.xǁCampaignStoreǁ__init____mutmut_15":
        "initial _stale: set by _load() before any use",
    "engine.store.campaign.xǁCampaignStoreǁ__init____mutmut_16":
        "initial _campaign_db: set by _load() before any use",
    "engine.store.campaign.xǁCampaignStoreǁ__init____mutmut_17":
        "initial _chunk_db: set by _load() before any use",
    "engine.store.campaign.xǁCampaignStoreǁ__init____mutmut_18":
        "initial _meta: set by _load() before any use",
    "engine.store.campaign.xǁCampaignStoreǁ__init____mutmut_19":
        "initial _state: set by _load() before any use",
    "engine.store.campaign.xǁCampaignStoreǁ__init____mutmut_20":
        "initial _chunk_no: set by _load() before any use",
    "engine.store.campaign.xǁCampaignStoreǁ__init____mutmut_21":
        "initial _chunk_no: set by _load() before any use",
    "engine.store.campaign.xǁCampaignStoreǁ__init____mutmut_22":
        "initial _chunk_count: set by _load() before any use",
    "engine.store.campaign.xǁCampaignStoreǁ__init____mutmut_23":
        "initial _chunk_count: set by _load() before any use",
    "engine.store.campaign.xǁCampaignStoreǁ__init____mutmut_24":
        "initial _chunk_base: set by _load() before any use",
    "engine.store.campaign.xǁCampaignStoreǁ__init____mutmut_25":
        "initial _last_n: set by _load() before any use",
    "engine.store.campaign.xǁCampaignStoreǁ__init____mutmut_26":
        "initial _last_n: set by _load() before any use",
    "engine.store.campaign.xǁCampaignStoreǁ__init____mutmut_27":
        "initial _last_a: set by _load() before any use",
    "engine.store.campaign.xǁCampaignStoreǁ_load__mutmut_3": (
        "'' instead of None for the databases while loading: a failed load leaves the store "
        "stale, so they are replaced before use"
    ),
    "engine.store.campaign.xǁCampaignStoreǁsave__mutmut_65":
        "start_chunk = None is false, as False",
    "engine.store.campaign.xǁCampaignStoreǁsave__mutmut_83":
        "the new _Chunk's path: _set_current never reads it and the object is dropped",
    "engine.store.campaign.xǁCampaignStoreǁsave__mutmut_108":
        "_stale = None is false, as False",
    "engine.store.campaign.xǁCampaignStoreǁtruncate_from_action__mutmut_21":
        "initial cut: the loop always assigns it (chunk 1 always ends the loop)",
    "engine.store.campaign.xǁCampaignStoreǁtruncate_from_action__mutmut_22":
        "initial cut_drop: the loop always assigns it",
    "engine.store.campaign.xǁCampaignStoreǁtruncate_from_action__mutmut_34":
        "private=None is false, as False",
    "engine.store.campaign.xǁCampaignStoreǁtruncate_from_action__mutmut_37":
        "private=True: a deep copy of the chunk, used the same way (only slower)",
    "engine.store.campaign.xǁCampaignStoreǁtruncate_from_action__mutmut_43":
        "dropped -= n: dropped is only tested for zero",
    "engine.store.campaign.xǁCampaignStoreǁtruncate_from_action__mutmut_60":
        "private=None is false, as False",
    "engine.store.campaign.xǁCampaignStoreǁtruncate_from_action__mutmut_63":
        "private=True: a deep copy of the chunk, used the same way (only slower)",
    "engine.store.campaign.xǁCampaignStoreǁtruncate_from_action__mutmut_104": (
        "a second TinyDB on the current chunk's file replaces the cached one: same content, "
        "same writes"
    ),
    "engine.store.campaign.xǁCampaignStoreǁtruncate_from_action__mutmut_118":
        "_stale = None is false, as False",
}

KILLED = {"killed", "timeout", "caught by type check", "segfault"}


def _toml_value(value: object) -> str:
    """A TOML literal for the plain values a config holds (str, bool, int, float, list)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    raise TypeError(f"cannot write {value!r} as TOML")


def _table(name: str, values: dict[str, object]) -> str:
    lines = [f"[{name}]"]
    lines += [f"{key} = {_toml_value(v)}" for key, v in values.items()]
    return "\n".join(lines) + "\n"


def function_prefixes(source: str) -> list[tuple[str, int]]:
    """mutmut's name for each function and method of ``source``, with its length in lines."""
    module = source.removesuffix(".py").replace("/", ".")
    tree = ast.parse((ROOT / source).read_text("utf-8"))
    found = []
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            found.append((f"{module}.x_{node.name}", node))
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    found.append((f"{module}.x\u01c1{node.name}\u01c1{item.name}", item))
    return [(name, (fn.end_lineno or fn.lineno) - fn.lineno + 1) for name, fn in found]


def _meta(folder: Path, source: str) -> dict[str, Any]:
    """mutmut's saved results for ``source`` in ``folder`` ({} if there are none)."""
    path = folder / "mutants" / (source + ".meta")
    return json.loads(path.read_text("utf-8")) if path.exists() else {}


def save_timings(folder: Path, source: str) -> None:
    """Add up the last run's seconds per function into ``timings.json`` (for --part)."""
    durations = _meta(folder, source).get("durations_by_key", {})
    if not durations:
        return
    path = folder / "timings.json"
    timings: dict[str, float] = json.loads(path.read_text("utf-8")) if path.exists() else {}
    per_function: dict[str, float] = {}
    for mutant, seconds in durations.items():
        prefix = mutant.rsplit("__mutmut_", 1)[0]
        per_function[prefix] = per_function.get(prefix, 0.0) + float(seconds or 0)
    timings.update(per_function)
    path.write_text(json.dumps(timings, indent=1, sort_keys=True), "utf-8")


def part_patterns(folder: Path, source: str, part: int, parts: int) -> list[str]:
    """Mutant-name patterns for part ``part`` of ``parts``.

    Part 1 plans the groups and saves the plan, so the later parts run exactly the rest. The
    functions are balanced by the seconds an earlier run measured (``timings.json``), else by
    their length in lines.
    """
    plan_path = folder / "plan.json"
    plan = json.loads(plan_path.read_text("utf-8")) if plan_path.exists() else {}
    if part == 1 or plan.get("parts") != parts:
        timings_path = folder / "timings.json"
        timings = (json.loads(timings_path.read_text("utf-8"))
                   if timings_path.exists() else {})
        functions = function_prefixes(source)
        per_line = (sum(timings.values()) / max(1, sum(n for f, n in functions if f in timings))
                    if timings else 1.0)
        loads = [0.0] * parts
        groups: list[list[str]] = [[] for _ in range(parts)]
        weighted = [(timings.get(f, n * per_line), f) for f, n in functions]
        for weight, name in sorted(weighted, key=lambda x: (-x[0], x[1])):
            k = loads.index(min(loads))
            loads[k] += weight
            groups[k].append(name)
        plan = {"parts": parts, "groups": [sorted(g) for g in groups]}
        folder.mkdir(parents=True, exist_ok=True)
        plan_path.write_text(json.dumps(plan, indent=1), "utf-8")
    return [f"{name}__mutmut_*" for name in plan["groups"][part - 1]]


def prepare(name: str, fresh: bool) -> Path:
    """Make ``.mutation/<name>/`` ready for mutmut (new mutants if ``fresh``); return it."""
    source, tests = MODULES[name]
    folder = WORK / name
    if fresh and (folder / "mutants").exists():
        shutil.rmtree(folder / "mutants")
    folder.mkdir(parents=True, exist_ok=True)
    for link in ("engine", "content", "examples", "tests"):
        if not (folder / link).exists():
            (folder / link).symlink_to(ROOT / link, target_is_directory=True)
    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    tool = project.get("tool", {})
    mutmut = dict(tool.get("mutmut", {}))
    mutmut["only_mutate"] = [source]
    mutmut["pytest_add_cli_args_test_selection"] = [t for t in tests if (ROOT / t).exists()]
    text = _table("tool.pytest.ini_options", tool.get("pytest", {}).get("ini_options", {}))
    text += "\n" + _table("tool.mutmut", mutmut)
    (folder / "pyproject.toml").write_text(text, "utf-8")
    return folder


def results(folder: Path) -> dict[str, str]:
    """mutant name -> status, from ``mutmut results --all true``."""
    out = subprocess.run([_mutmut(), "results", "--all", "true"], cwd=folder, text=True,
                         capture_output=True, check=True).stdout
    found = {}
    for line in out.splitlines():
        m = re.match(r"\s*(\S+): (.+)$", line)
        if m:
            found[m.group(1)] = m.group(2).strip()
    return found


def _mutmut() -> str:
    exe = Path(sys.executable).with_name("mutmut")
    return str(exe) if exe.exists() else "mutmut"


def describe(folder: Path, source: str, mutant: str) -> str:
    """One line for a mutant: ``file:line function: old -> new`` (from ``mutmut show``)."""
    diff = subprocess.run([_mutmut(), "show", mutant], cwd=folder, text=True,
                          capture_output=True).stdout.splitlines()
    prefix = mutant.rsplit("__mutmut_", 1)[0]
    starts = {}
    tree = ast.parse((ROOT / source).read_text("utf-8"))
    module = source.removesuffix(".py").replace("/", ".")
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            starts[f"{module}.x_{node.name}"] = node.lineno
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    starts[f"{module}.x\u01c1{node.name}\u01c1{item.name}"] = item.lineno
    line, old, new, at = None, [], [], 0
    for text in diff:
        hunk = re.match(r"@@ -(\d+)", text)
        if hunk:
            at = int(hunk.group(1))
        elif text.startswith(("---", "+++", "#")):
            continue
        elif text.startswith("-"):
            line = line or at
            old.append(text[1:].strip())
            at += 1
        elif text.startswith("+"):
            new.append(text[1:].strip())
        else:
            at += 1
    where = f"{source}:{starts[prefix] + line - 1}" if prefix in starts and line else source
    func = prefix.rsplit(".", 1)[-1].removeprefix("x_").replace("\u01c1", ".").lstrip("x.")
    return f"{where} {func}: {' / '.join(old)}  ->  {' / '.join(new) or '(deleted)'}"


def report(name: str, folder: Path, show: bool, patterns: list[str] | None = None) -> int:
    """Print the score and the survivors (of ``patterns`` only, if given); 0 if >= 90%."""
    status = results(folder)
    if patterns is not None:
        status = {m: v for m, v in status.items()
                  if any(fnmatch.fnmatch(m, p) for p in patterns)}
    killed = sum(1 for s in status.values() if s in KILLED)
    equivalent = [m for m, s in status.items() if s not in KILLED and m in EQUIVALENT]
    survivors = [m for m, s in status.items() if s not in KILLED and m not in EQUIVALENT]
    counted = len(status) - len(equivalent)
    score = killed / counted if counted else 1.0
    what = MODULES[name][0] + (" (this part)" if patterns is not None else "")
    print(f"\n{what}: {killed} killed of {len(status)} mutants, "
          f"{len(equivalent)} equivalent: score {killed}/{counted} = {score:.0%}")
    for m in equivalent:
        print(f"  equivalent {m}: {EQUIVALENT[m]}")
    for m in survivors:
        print(f"  {status[m]}: {m}")
        if show:
            print(f"    {describe(folder, MODULES[name][0], m)}")
    return 0 if score >= 0.9 else 1


def main(argv: list[str] | None = None) -> int:
    """Run mutmut on one module (or list the modules)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("module", nargs="?", choices=sorted(MODULES))
    parser.add_argument("--list", action="store_true", help="list the modules and their tests")
    parser.add_argument("--again", action="store_true",
                        help="keep last run's mutants and rerun only its survivors")
    parser.add_argument("--resume", action="store_true",
                        help="continue the last run: mutants not yet run, functions changed")
    parser.add_argument("--part", metavar="K/N",
                        help="only the K-th of N groups of functions (run 1/N first)")
    parser.add_argument("--show", action="store_true",
                        help="print each survivor's file, line and change")
    parser.add_argument("--report", action="store_true",
                        help="only print the last run's score, do not run")
    args = parser.parse_args(argv)
    if args.list or not args.module:
        for key, (source, tests) in MODULES.items():
            print(f"{key:8} {source:26} {' '.join(tests)}")
        return 0
    folder = WORK / args.module
    patterns = None
    if args.part:
        m = re.fullmatch(r"(\d+)/(\d+)", args.part)
        if not m or not 1 <= int(m.group(1)) <= int(m.group(2)):
            parser.error(f"--part takes K/N with 1 <= K <= N, like 1/3, not {args.part!r}")
        part, parts = int(m.group(1)), int(m.group(2))
        patterns = part_patterns(folder, MODULES[args.module][0], part, parts)
    if (args.report or args.again or args.resume) and not (folder / "mutants").exists():
        parser.error(f"no earlier run of {args.module}: run it once first")
    if args.resume and (args.part or args.again):
        parser.error("--resume continues a whole-module run: use it without --part or --again")
    if not args.report:
        names: list[str] = list(patterns or [])
        if args.again:
            names = [m for m, v in results(folder).items()
                     if v not in KILLED and m not in EQUIVALENT
                     and (patterns is None or any(fnmatch.fnmatch(m, p) for p in patterns))]
            if not names:
                return report(args.module, folder, args.show, patterns)
        fresh = not (args.again or args.resume) and (patterns is None or args.part.startswith("1/"))
        folder = prepare(args.module, fresh)
        run = subprocess.run([_mutmut(), "run", "--max-children", "1", *names], cwd=folder)
        save_timings(folder, MODULES[args.module][0])
        if run.returncode != 0:
            print(f"mutmut failed (exit {run.returncode}); see its output above", file=sys.stderr)
            return run.returncode
    return report(args.module, folder, args.show, patterns)


if __name__ == "__main__":
    sys.exit(main())
