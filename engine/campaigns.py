"""Opening and creating saved campaigns: the glue between ``Game`` and the store.

Front ends (the CLI and the TUI) call these; the rules core never does.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from engine.content.loader import get_pack
from engine.errors import SaveError
from engine.game import Game
from engine.rules.state import CampaignState
from engine.store import CampaignStore, slugify


def open_game(saves_dir: Path, campaign_id: str, content: Iterable[Path] = ()) -> Game:
    """Open a saved campaign (locking it) and rebuild its Game exactly as saved."""
    store = CampaignStore.open(saves_dir, campaign_id)
    try:
        system = store.meta.get("system") or store.state.get("system")
        pack = get_pack(str(system), content)
        try:
            state = CampaignState.model_validate(store.state)
        except ValidationError as e:
            first = e.errors()[0]
            where = ".".join(str(p) for p in first["loc"])
            raise SaveError(
                f"{saves_dir / campaign_id / 'campaign.json'}: the saved state is damaged at"
                f" {where}: {first['msg']}. The file was left as it is."
            ) from None
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
    """Create a campaign folder under ``saves_dir`` and start it."""
    pack = get_pack(system, content)
    cid = campaign_id or slugify(name)
    if not cid:
        raise SaveError(f"cannot make a folder name from the campaign name {name!r}")

    def factory(meta: dict[str, Any], state: dict[str, Any]) -> CampaignStore:
        return CampaignStore.create(saves_dir, cid, meta, state)

    return Game.new(pack, name=name, hero_name=hero_name, archetype=archetype, stats=stats,
                    npcs=npcs, seed=seed, dice_mode=dice_mode, store_factory=factory, **kw)


def close_game(game: Game) -> None:
    """Release the campaign's lock."""
    close = getattr(game.store, "close", None)
    if close:
        close()
