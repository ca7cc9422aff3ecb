"""Opening and creating saved campaigns: the glue between ``Game`` and the store.

Front ends (the CLI and the TUI) call these; the rules core never does.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from engine.checks import require_checked
from engine.content.loader import get_pack
from engine.content.problems import describe
from engine.errors import EngineError, IllegalAction, SaveError
from engine.game import Game
from engine.rules.fight.foes import shed_spent_foes
from engine.rules.state import CampaignState
from engine.store import CampaignExists, CampaignStore, unique_id
from engine.systems import ruleset_for

MAX_TRIES = 100
"""Ids a new campaign tries when other processes take the one it chose meanwhile."""


def open_game(saves_dir: Path, campaign_id: str, content: Iterable[Path] = (), *,
              read_only: bool = False) -> Game:
    """Open a saved campaign (locking it) and rebuild its Game exactly as saved.

    With ``read_only`` the campaign is not locked (it may be open in another process) and the
    Game cannot save: for reading, such as exporting the journal.
    """
    if read_only:
        store = CampaignStore.open_read_only(saves_dir, campaign_id)
    else:
        store = CampaignStore.open(saves_dir, campaign_id)
    try:
        system = store.meta.get("system") or store.state.get("system")
        pack = require_checked(get_pack(str(system), content))
        try:
            state = CampaignState.model_validate(store.state)
        except ValidationError as e:
            first = e.errors()[0]
            where = ".".join(str(p) for p in first["loc"])
            if first["type"] == "value_error":  # our own check: its words say it all
                text = describe(first)
            else:
                text = f"the saved state is damaged at {where}: {describe(first)}"
            raise SaveError(f"{saves_dir / campaign_id / 'campaign.json'}: {text}. The file was"
                            f" left as it is.") from None
        shed_spent_foes(state)  # what older versions kept of finished fights (format 4)
        return Game(pack, state, store)
    except BaseException:
        store.close()
        raise


def new_game(
    saves_dir: Path,
    *,
    system: str,
    name: str,
    hero_name: str,
    archetype: str | None = None,
    stats: dict[str, int] | None = None,
    npcs: Sequence[tuple[str, str, str]] = (),
    seed: int | None = None,
    dice_mode: str = "seeded",
    content: Iterable[Path] = (),
    campaign_id: str | None = None,
    **kw: Any,
) -> Game:
    """Create a campaign folder under ``saves_dir`` and start it.

    The folder is ``campaign_id`` if given, else a readable id from ``name`` that is not taken
    yet. It is built under a hidden name and appears only once the campaign's first action
    (its NPCs, threats and opening scene) is saved, so an interruption leaves nothing half-made.
    """
    if not isinstance(name, str) or not name.strip():
        raise IllegalAction("A campaign needs a name: the name given is blank.")
    pack = require_checked(get_pack(system, content))
    cid = campaign_id or unique_id(Path(saves_dir), name)
    staged: list[CampaignStore] = []

    def factory(meta: dict[str, object], state: dict[str, object]) -> CampaignStore:
        store = CampaignStore.create(saves_dir, cid, meta, state, staged=True)
        staged.append(store)
        return store

    try:
        for tries in range(MAX_TRIES):
            try:
                game = Game.new(pack, name=name, hero_name=hero_name, archetype=archetype,
                                stats=stats, npcs=npcs, seed=seed, dice_mode=dice_mode,
                                store_factory=factory, **kw)
                break
            except CampaignExists:
                if campaign_id is not None or staged or tries == MAX_TRIES - 1:
                    raise
                cid = unique_id(Path(saves_dir), name)  # taken since we looked: the next one
        if staged:
            _publish(staged[0], Path(saves_dir), name, fixed=campaign_id is not None)
    except BaseException:
        if staged:
            staged[0].discard()
        raise
    return game


def _publish(store: CampaignStore, saves_dir: Path, name: str, *, fixed: bool) -> None:
    """Publish a staged campaign; when its id was made from ``name`` and another process
    took it meanwhile, under the next free id (as ``unique_id`` promises)."""
    try:
        store.publish()
        return
    except CampaignExists:
        if fixed:
            raise
    for _ in range(MAX_TRIES):
        try:
            store.publish(unique_id(saves_dir, name))
            return
        except CampaignExists:
            continue
    raise SaveError(f"Cannot create campaign '{name}': too many campaigns of that name are"
                    f" being made at once in {saves_dir}.")


def recover_campaign(saves_dir: Path, campaign_id: str, content: Iterable[Path] = ()) -> str:
    """Recover a damaged campaign (see ``CampaignStore.recover``); what was done, in words.

    A state is rebuilt from the log by replaying its last chunk with the rules' ``apply``.
    """
    content = list(content)

    def rebuild(base: dict[str, Any], events: list[dict[str, Any]]) -> dict[str, Any]:
        try:
            state = CampaignState.model_validate(base)
            # the campaign's ruleset declares the events of its system: read with its registry
            registry = ruleset_for(require_checked(get_pack(state.system, content))).registry
            for d in events:
                registry.apply(state, registry.decode(d))
        except (ValidationError, EngineError, KeyError, TypeError, ValueError) as e:
            raise SaveError(f"Cannot recover campaign '{campaign_id}': its log cannot be "
                            f"replayed ({type(e).__name__}: {e}). Nothing was changed."
                            ) from None
        return state.model_dump(mode="json")

    def make_meta(state: dict[str, Any], old: dict[str, Any]) -> dict[str, Any]:
        model = CampaignState.model_validate(state)
        meta = dict(old)
        meta.update(name=model.name, system=model.system,
                    hero=", ".join(h.name for h in model.heroes),  # every hero, as play saves
                    seed=model.seed,
                    scene=f"{model.scene.number}. {model.scene.title}".strip())
        if not meta.get("system_name"):
            try:
                meta["system_name"] = get_pack(model.system, content).system.name
            except EngineError:
                meta["system_name"] = model.system
        meta.setdefault("last_played", "")
        return meta

    return CampaignStore.recover(Path(saves_dir), campaign_id, rebuild, make_meta)


def close_game(game: Game) -> None:
    """Release the campaign's lock."""
    close = getattr(game.store, "close", None)
    if close:
        close()
