"""City of Whispers adjustments after the roll: Recall a History or Perceive a Demand (a
tier up, once per session each) and assets spent for +1 each on a Network roll.
"""

from __future__ import annotations

from engine.content import schema as s
from engine.errors import IllegalAction
from engine.rules import events as ev
from engine.rules import resolve
from engine.rules.base import Adjustment
from engine.rules.state import CampaignState
from engine.rules.types import RollDict
from engine.systems.city_of_whispers.common import ASSETS, FACTION, MAX_DEMANDS, SOCIAL, CityBase
from engine.systems.city_of_whispers.events import CitySheetChanged
from engine.systems.city_of_whispers.sheet import Demand, History, dump


class TierRules(CityBase):
    """Tier bumps and assets spent after a roll."""

    def _next_band(self, move: s.Move, roll: RollDict) -> tuple[int, str] | None:
        bands = sorted(resolve.roll_bands(self.pack, move, roll),
                       key=lambda b: -10**9 if b.min is None else b.min)
        ids = [b.id for b in bands]
        i = ids.index(roll["band"])
        if i + 1 >= len(bands):
            return None
        nxt = bands[i + 1]
        assert nxt.min is not None
        return nxt.min - int(roll["total"]), nxt.name

    def adjustments(self, state: CampaignState, move: s.Move, roll: RollDict
                    ) -> list[Adjustment]:
        """Recall a History or Perceive a Demand (a tier up, once per session each, not on
        social, faction or Backfire rolls); spend assets for +1 each on a Network roll."""
        if move.roll is None or move.roll.inverted or move.category == FACTION:
            return []
        nxt = self._next_band(move, roll)
        if nxt is None:
            return []
        amount, name = nxt
        out: list[Adjustment] = []
        if move.category not in SOCIAL:
            if "session:history" not in state.used:
                here = self.scene_neighborhood(state)
                for i, h in enumerate(self.hero_sheet(state).histories):
                    if self._history_applies(h, here):
                        out.append(Adjustment(
                            f"history:{i}", f"Recall a History ({h.neighborhood}): bump one"
                            f" tier to {name}", amount,
                            f"once per session; you become connected to {h.neighborhood}"
                            + ("; the scene names no neighborhood: recall it only if you are"
                               " there" if self.data.histories_local and not here else "")))
            demands = self.hero_sheet(state).demands
            if ("session:demand" not in state.used and len(demands) < MAX_DEMANDS
                    and all(d.met for d in demands)):
                out.append(Adjustment("demand", f"Perceive a Demand: bump one tier to {name}",
                                      amount, f"once per session; the city names demand"
                                      f" {len(demands) + 1} of {MAX_DEMANDS}"))
        assets = state.hero.tracks.get(ASSETS, 0)
        if roll.get("stat") == "network":
            bands = resolve.roll_bands(self.pack, move, roll)
            forced = resolve.face_override(state, self, move)
            for n in range(1, assets + 1):
                if resolve.reband(roll, n, bands, resolve.roll_clamp(self.pack, roll),
                                  override=forced)["band"] != roll["band"]:
                    out.append(Adjustment(f"asset:{n}", f"Use Asset: spend {n} for +{n}", n,
                                          f"you hold {assets}"))
        return out

    def adjustment_name(self, state: CampaignState, adj_id: str) -> str:
        """Recall a History (its neighborhood), Perceive a Demand, Use Asset (n)."""
        kind, _, key = adj_id.partition(":")
        histories = self.hero_sheet(state).histories
        if kind == "history" and key.isdigit() and int(key) < len(histories):
            return f"Recall a History ({histories[int(key)].neighborhood})"
        if adj_id == "demand":
            return "Perceive a Demand"
        if kind == "asset" and key.isdigit():
            return f"Use Asset ({key})"
        return super().adjustment_name(state, adj_id)

    def _history_applies(self, history: History, here: str | None) -> bool:
        """An unmarked History (with the ``histories_local`` option, only one of the scene's
        neighborhood, or any when the scene names none)."""
        if history.marked:
            return False
        return not self.data.histories_local or here is None or history.neighborhood == here

    def adjust(self, state: CampaignState, adj_id: str, roll: RollDict
               ) -> tuple[list[ev.Event], int, str]:
        """Events for a tier bump or assets spent."""
        move = self.pack.moves[roll["move"]]
        nxt = self._next_band(move, roll)
        if adj_id.startswith("history:"):
            sheet = self.hero_sheet(state)
            histories = sheet.histories
            i = int(adj_id.split(":", 1)[1])
            if nxt is None or "session:history" in state.used or not 0 <= i < len(histories) \
                    or not self._history_applies(histories[i], self.scene_neighborhood(state)):
                raise IllegalAction("that History cannot be recalled now")
            nb = histories[i].neighborhood
            histories[i].marked = True
            events: list[ev.Event] = [
                CitySheetChanged(key="histories", value=dump(histories),
                                 text=f"History marked: {nb}."),
                ev.OnceUsed(key="session:history")]
            connections = sheet.connections
            if nb not in connections:
                events.insert(1, CitySheetChanged(key="connections", value=[*connections, nb],
                                                  text=f"You are connected to {nb}."))
            return events, nxt[0], f"Recall a History ({nb})"
        if adj_id == "demand":
            demands = self.hero_sheet(state).demands
            if nxt is None or "session:demand" in state.used or len(demands) >= MAX_DEMANDS \
                    or not all(d.met for d in demands):
                raise IllegalAction("no Demand can be perceived now")
            text = self._draw(state, "city_demands", f"demand:{len(demands)}",
                              [d.text for d in demands]) or "answer when it calls"
            demands.append(Demand(text=text))
            return ([CitySheetChanged(key="demands", value=dump(demands),
                                      text=f"Demand {len(demands)} of {MAX_DEMANDS}: the city"
                                           f" demands that you {text}"),
                     ev.OnceUsed(key="session:demand")], nxt[0], "Perceive a Demand")
        if adj_id.startswith("asset:"):
            n = int(adj_id.split(":", 1)[1])
            have = state.hero.tracks.get(ASSETS, 0)
            if n < 1 or n > have:
                raise IllegalAction(f"you hold {have} asset(s), not {n}")
            return ([ev.TrackChanged(track=ASSETS, scope="hero", delta=-n, value=have - n,
                                     reason="Use Asset: +1 each on a Network roll")], n,
                    f"Use Asset ({n})")
        return super().adjust(state, adj_id, roll)


__all__ = ["TierRules"]
