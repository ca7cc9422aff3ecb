"""Every entry point that reads a campaign's log works in a fresh interpreter, for all four
systems, with the system's own events in the log (issue 22): the campaign's ruleset is loaded
by whoever reads the log, never by whichever module happened to be imported before.

Each command runs in its own interpreter, so nothing another test imported can help it.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"


def sidekick(saves: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``sidekick --saves SAVES ARGS`` in a new interpreter."""
    code = "import sys; from engine.cli import main; sys.exit(main(sys.argv[1:]))"
    return subprocess.run([sys.executable, "-c", code, "--saves", str(saves), *args],
                          capture_output=True, text=True, timeout=120, cwd=ROOT)


def fresh(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, cwd=ROOT)


def _steps_until_fight_plus(steps: list[Any], extra: int) -> list[Any]:
    """The steps up to the fight's start and ``extra`` more: saved in the middle of a fight."""
    start = next(i for i, st in enumerate(steps) if isinstance(st, dict) and "fight" in st
                 and isinstance(st["fight"], dict) and "foes" in st["fight"])
    return steps[:start + 1 + extra]


CASES: dict[str, tuple[str, int | None, set[str]]] = {
    # example, steps after the fight's start to keep (None: all), events that must be logged
    "masks": ("masks-party.yaml", None, {"InfluenceChanged", "LabelsShifted", "HeroAdded"}),
    "city-of-whispers": ("cow-the-missing-ledger.yaml", None,
                         {"CityFactionChanged"}),
    "mm3e": ("mm3e-harbor-fight.yaml", 6, {"FightStarted"}),
    "panels": ("panels-skyrail-fight.yaml", 5, {"TracksSet", "FightStarted"}),
}


def _logged_types(folder: Path) -> set[str]:
    found: set[str] = set()
    for f in sorted((folder / "log").glob("*.json")):
        for doc in json.loads(f.read_text())["_default"].values():
            if "type" in doc:
                found.add(doc["type"])
    return found


def _state(folder: Path) -> dict[str, Any]:
    [doc] = json.loads((folder / "campaign.json").read_text())["_default"].values()
    state: dict[str, Any] = doc["state"]
    return state


@pytest.mark.parametrize("system", sorted(CASES))
def test_a_damaged_campaign_recovers_and_reads_in_fresh_interpreters(tmp_path: Path,
                                                                     system: str) -> None:
    example, extra, must = CASES[system]
    data = yaml.safe_load((EXAMPLES / example).read_text())
    if extra is not None:
        data["steps"] = _steps_until_fight_plus(data["steps"], extra)
    script = tmp_path / "play.yaml"
    script.write_text(yaml.safe_dump(data, sort_keys=False))
    saves = tmp_path / "saves"
    made = sidekick(saves, "script", str(script))
    assert made.returncode == 0, made.stderr
    [folder] = [p for p in saves.iterdir() if p.is_dir()]
    cid = folder.name
    logged = _logged_types(folder)
    assert must <= logged, f"the example no longer logs {must - logged}"
    if extra is not None:
        assert _state(folder)["fight"]  # saved in the middle of a fight
    before = _state(folder)

    (folder / "campaign.json").write_text('{"_default": {"1": {"format": 1, "meta"')
    (folder / "campaign.json.bak").unlink(missing_ok=True)
    done = sidekick(saves, "recover", cid)
    assert done.returncode == 0, done.stderr
    assert "Rebuilt campaign.json from the log" in done.stdout
    assert _state(folder) == before

    listed = sidekick(saves, "list")
    assert listed.returncode == 0 and cid in listed.stdout, listed.stderr
    # the meta is rebuilt with every hero of the party, not only the acting one (issue 30)
    heroes = ", ".join(before["actors"][h]["name"] for h in before["party"])
    assert f", {heroes}, " in listed.stdout, listed.stdout
    exported = sidekick(saves, "export", cid)
    assert exported.returncode == 0 and exported.stdout.startswith("---\n"), exported.stderr
    assert "Traceback" not in exported.stderr
    recap = sidekick(saves, "recap", cid)
    assert recap.returncode == 0, recap.stderr
    opened = fresh(
        "from pathlib import Path; from engine.campaigns import open_game, close_game\n"
        f"g = open_game(Path({str(saves)!r}), {cid!r})\n"
        "print(g.state.action_no); g.undo(); print(g.state.action_no); close_game(g)")
    assert opened.returncode == 0, opened.stderr
    before_no, after_no = map(int, opened.stdout.split())
    assert after_no == before_no - 1
