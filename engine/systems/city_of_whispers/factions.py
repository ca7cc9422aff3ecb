"""City of Whispers factions: the faction moves' rule effects, on typed ``Faction`` models.

Factions live in ``state.data["factions"]`` as plain dicts (what saves hold); every effect
reads them as ``Faction`` models and writes a whole faction back with ``CityFactionChanged``.
"""

from __future__ import annotations

from typing import Any

from engine.content import schema as s
from engine.errors import IllegalAction
from engine.rules import events as ev
from engine.rules.base import Item, Need, Step, effect_item, opt
from engine.rules.state import CampaignState
from engine.rules.types import EffectContext
from engine.systems.city_of_whispers.common import FACTION, CityBase, StagedNeed, rule, slug
from engine.systems.city_of_whispers.data import FactionStart
from engine.systems.city_of_whispers.events import (
    CITY_REGISTRY,
    CityFactionChanged,
    CitySheetChanged,
)
from engine.systems.city_of_whispers.factions_model import Faction, Project, read_factions

__all__ = ["Faction", "FactionRules", "Project", "read_factions"]


class FactionRules(CityBase):
    """The faction half of the City of Whispers rules."""

    def acting_faction(self, state: CampaignState, move: s.Move | None = None) -> str | None:
        """The faction a faction roll is for: declared, else the last acting, else the hero's."""
        live = self.live_factions(state)
        if move is not None:
            for d in self._declared(state, move):
                if d.startswith("faction:") and d.split(":", 1)[1] in live:
                    return d.split(":", 1)[1]
        last = state.data.get("acting_faction")
        if move is not None and move.hidden and last in live:
            return str(last)
        mine = self.hero_sheet(state).faction
        if mine in live:
            return str(mine)
        return live[0] if live else None

    # --- factions

    @staticmethod
    def _put(fid: str, f: Faction | None, text: str) -> CityFactionChanged:
        """The event that stores faction ``fid`` as ``f`` (None: removed)."""
        return CityFactionChanged(faction=fid, value=f.model_dump() if f else None, text=text)

    def _faction_step(self, state: CampaignState, args: dict[str, Any], ctx: EffectContext,
                      message: str = "Which faction?") -> tuple[str, Faction] | StagedNeed:
        """The faction an effect is about: named in args, the one that just rolled, the only
        one, or a prompt."""
        facs = self.factions(state)
        if args.get("faction"):
            return str(args["faction"]), facs[str(args["faction"])]
        move = self.pack.moves.get(str(ctx.get("move")))
        if move is not None and move.roll is not None and move.category == FACTION:
            fid = state.data.get("acting_faction") or self.acting_faction(state, move)
            if fid in facs:
                return str(fid), facs[str(fid)]
        live = self.live_factions(state)
        if not live:
            raise IllegalAction("there is no faction: Found a Faction first")
        picked = self._pick(args, "faction", message, [opt(f, facs[f].name) for f in live])
        if isinstance(picked, StagedNeed):
            return picked
        assert picked is not None
        return picked, facs[picked]

    @CITY_REGISTRY.rule_effect("require_faction")
    def _r_require_faction(self, state: CampaignState, args: dict[str, Any],
                           ctx: EffectContext) -> Step:
        if not self.live_factions(state):
            raise IllegalAction("there is no faction to act: Found a Faction first")
        return Step()

    @CITY_REGISTRY.rule_effect("add_resource")
    def _r_add_resource(self, state: CampaignState, args: dict[str, Any], ctx: EffectContext
                        ) -> Step | Need:
        got = self._faction_step(state, args, ctx)
        if isinstance(got, StagedNeed):
            return got
        fid, f = got
        if args.get("project") is None:
            text = str(ctx.get("fiction") or "").strip().rstrip(".")[:80] or "A hard-won resource"
            open_ = [(i, p) for i, p in enumerate(f.projects) if not p.done]
            f.aspects.append(text)
            step = Step([self._put(fid, f, f"{f.name} secures a resource: {text} (a new"
                                            " aspect).")])
            if open_:
                step.push.append(effect_item(
                    rule("add_resource", faction=fid, project="ask", resource=text), ctx))
            return step
        if args["project"] == "ask":
            options = [opt(str(i), f"{p.name} (needs {', '.join(p.needs)})")
                       for i, p in enumerate(f.projects) if not p.done]
            need = StagedNeed("pick", "Does the resource serve one of its projects?",
                              [*options, opt("none", "No")], stage="project")
            return need
        if args["project"] == "none":
            return Step()
        p = f.projects[int(args["project"])]
        p.secured += 1
        p.ready = True
        text = f"{f.name} puts {args.get('resource', 'it')} toward {p.name}."
        if p.finish_on_resource:
            p.done = True
            f.aspects.append(p.name)
            text += f" The project is complete: {p.name} becomes an aspect."
        return Step([self._put(fid, f, text)])

    @CITY_REGISTRY.rule_effect("rewrite_aspect")
    def _r_rewrite_aspect(self, state: CampaignState, args: dict[str, Any], ctx: EffectContext
                          ) -> Step | Need:
        got = self._faction_step(state, args, ctx)
        if isinstance(got, StagedNeed):
            return got
        fid, f = got
        keep = str(args.get("keep") or "")
        options = [opt(str(i), a) for i, a in enumerate(f.aspects) if a != keep]
        if args.get("pick") is None:
            if not options:
                return Step([ev.Narrated(text=f"{f.name} has no aspect to rewrite.",
                                         by="engine")])
            return Need("pick", f"Rewrite which aspect of {f.name}?", options)
        i = int(args["pick"])
        old = f.aspects[i]
        twist = self._draw(state, "aspect_rewrites", f"rewrite:{fid}:{i}") or "strained"
        f.aspects[i] = f"{old}, {twist}"
        return Step([self._put(fid, f, f"{f.name} rewrites an aspect: {old} → {f.aspects[i]}"
                                       ".")])

    @CITY_REGISTRY.rule_effect("sacrifice_aspect")
    def _r_sacrifice_aspect(self, state: CampaignState, args: dict[str, Any],
                            ctx: EffectContext) -> Step | Need:
        got = self._faction_step(state, args, ctx)
        if isinstance(got, StagedNeed):
            return got
        fid, f = got
        why = str(args.get("why") or "sacrificed")
        picked = self._pick(args, "pick", f"Which aspect of {f.name} is lost ({why})?",
                            [opt(str(i), a) for i, a in enumerate(f.aspects)])
        if isinstance(picked, StagedNeed):
            return picked
        if picked is None:
            return Step([ev.Narrated(text=f"{f.name} has no aspect left to lose.",
                                     by="engine")])
        old = f.aspects.pop(int(picked))
        return Step([self._put(fid, f, f"{f.name} loses the aspect {old} ({why}).")])

    @CITY_REGISTRY.rule_effect("add_complication")
    def _r_add_complication(self, state: CampaignState, args: dict[str, Any],
                            ctx: EffectContext) -> Step | Need:
        got = self._faction_step(state, args, ctx)
        if isinstance(got, StagedNeed):
            return got
        fid, f = got
        text = str(args.get("text") or "") or self._draw(
            state, "faction_complications", f"comp:{fid}:{len(f.complications)}",
            f.complications) or "Unwanted attention"
        f.complications.append(text)
        return Step([self._put(fid, f, f"{f.name} takes a complicating aspect: {text}"
                                       f" (the {self.gm_title} names it).")])

    @CITY_REGISTRY.rule_effect("aspect_to_write")
    def _r_aspect_to_write(self, state: CampaignState, args: dict[str, Any],
                           ctx: EffectContext) -> Step | Need:
        got = self._faction_step(state, args, ctx)
        if isinstance(got, StagedNeed):
            return got
        fid, f = got
        f.to_write += 1
        return Step([self._put(fid, f, f"{f.name} may write a new aspect of its choice (the"
                                       " Write an Aspect move).")])

    @CITY_REGISTRY.rule_effect("write_aspect")
    def _r_write_aspect(self, state: CampaignState, args: dict[str, Any], ctx: EffectContext
                        ) -> Step | Need:
        text = str(ctx.get("fiction") or "").strip().rstrip(".")[:80]
        facs = self.factions(state)
        waiting = [fid for fid in self.live_factions(state) if facs[fid].to_write > 0]
        if not waiting:
            raise IllegalAction("no faction has an aspect to write: Eliminate Threat (11+) or"
                                " Overtake Neighborhood can give one")
        if not text:
            raise IllegalAction("write the aspect itself as your fiction, e.g. 'Friends in the"
                                " customs house'")
        fid = self._pick(args, "faction", "Which faction writes the aspect?",
                         [opt(x, facs[x].name) for x in waiting])
        if isinstance(fid, StagedNeed):
            return fid
        assert fid is not None
        f = facs[fid]
        f.aspects.append(text)
        f.to_write = int(f.to_write) - 1
        return Step([self._put(fid, f, f"{f.name} gains the aspect {text}.")])

    @CITY_REGISTRY.rule_effect("remove_complication")
    def _r_remove_complication(self, state: CampaignState, args: dict[str, Any],
                               ctx: EffectContext) -> Step | Need:
        got = self._faction_step(state, args, ctx)
        if isinstance(got, StagedNeed):
            return got
        fid, f = got
        reduce = bool(args.get("reduce"))
        if not f.complications:
            return Step([ev.Narrated(text=f"{f.name} has no complicating aspect.",
                                     by="engine")])
        verb = "reduce" if reduce else "remove"
        picked = self._pick(args, "pick", f"Which complication does {f.name} {verb}?",
                            [opt(str(i), c) for i, c in enumerate(f.complications)])
        if isinstance(picked, StagedNeed):
            return picked
        i = int(str(picked))
        old = f.complications[i]
        if reduce:
            smaller = self._draw(state, "complication_reductions", f"reduce:{fid}:{i}") or \
                "for now"
            f.complications[i] = f"{old}, {smaller}"
            text = (f"The {self.gm_title} rewrites {f.name}'s complication smaller:"
                    f" {f.complications[i]}.")
        else:
            f.complications.pop(i)
            text = f"{f.name} is rid of the complication {old}."
        return Step([self._put(fid, f, text)])

    @CITY_REGISTRY.rule_effect("require_project")
    def _r_require_project(self, state: CampaignState, args: dict[str, Any],
                           ctx: EffectContext) -> Step:
        facs = self.factions(state)
        if not any(p.ready and not p.done for fid in self.live_factions(state)
                   for p in facs[fid].projects):
            raise IllegalAction("no project has a secured resource to work with: Start a"
                                " Project, then Secure Resource for it")
        return Step()

    @CITY_REGISTRY.rule_effect("start_project")
    def _r_start_project(self, state: CampaignState, args: dict[str, Any], ctx: EffectContext
                         ) -> Step | Need:
        name = str(ctx.get("fiction") or "").strip().rstrip(".")[:80]
        if not name:
            raise IllegalAction("name the project as your fiction, e.g. 'A bridge of lanterns"
                                " over the Sallows'")
        got = self._faction_step(state, args, ctx,
                                 "Which faction starts the project?")
        if isinstance(got, StagedNeed):
            return got
        fid, f = got
        needs = self._draw_many(state, "project_needs", f"project:{fid}:{len(f.projects)}", 3)
        f.projects.append(Project(name=name, needs=needs))
        return Step([self._put(fid, f, f"{f.name} starts a project: {name}. The"
                                       f" {self.gm_title} names what it needs: "
                                       + ", ".join(needs) + ".")])

    @CITY_REGISTRY.rule_effect("project_result")
    def _r_project_result(self, state: CampaignState, args: dict[str, Any],
                          ctx: EffectContext) -> Step | Need:
        got = self._faction_step(state, args, ctx)
        if isinstance(got, StagedNeed):
            return got
        fid, f = got
        ready = [(i, p) for i, p in enumerate(f.projects) if p.ready and not p.done]
        if not ready:
            raise IllegalAction(f"{f.name} has no project with a secured resource")
        if args.get("pick") is None and len(ready) > 1:
            return Need("pick", "Which project?", [opt(str(i), p.name) for i, p in ready])
        i = int(args["pick"]) if args.get("pick") is not None else ready[0][0]
        p = f.projects[i]
        result = str(args.get("result"))
        if result == "done":
            p.done = True
            f.aspects.append(p.name)
            text = f"{f.name} completes {p.name}: it becomes an aspect."
        elif result == "finish_on_resource":
            p.ready = False
            p.finish_on_resource = True
            text = (f"{p.name} is partly done: it completes when {f.name} secures one more"
                    " resource.")
        else:
            p.ready = False
            text = (f"{p.name} is partly done: {f.name} must secure another resource and"
                    " roll Complete Project again.")
        return Step([self._put(fid, f, text)])

    def _hood_options(self, f: Faction) -> list[dict[str, Any]]:
        return [opt(slug(n), n) for n in f.neighborhoods]

    @CITY_REGISTRY.rule_effect("overtake")
    def _r_overtake(self, state: CampaignState, args: dict[str, Any], ctx: EffectContext
                    ) -> Step | Need:
        got = self._faction_step(state, args, ctx)
        if isinstance(got, StagedNeed):
            return got
        fid, f = got
        facs = self.factions(state)
        result = str(args.get("result"))
        if not f.neighborhoods:
            return Step([ev.Narrated(text=f"{f.name} holds no neighborhood to defend.",
                                     by="engine")])
        key = self._pick(args, "hood", "Which neighborhood is contested?",
                         self._hood_options(f))
        if isinstance(key, StagedNeed):
            return key
        hood = next(n for n in f.neighborhoods if slug(n) == key)
        if result == "lose_dominance":
            f.neighborhoods.remove(hood)
            return Step([self._put(fid, f, f"{f.name} repels the encroachers but no longer"
                                           f" dominates {hood}.")])
        others = [x for x in self.live_factions(state) if x != fid]
        to = self._pick(args, "to", "Which faction is encroaching?",
                        [opt(x, facs[x].name) for x in others])
        if isinstance(to, StagedNeed):
            return to
        if to is None:
            return Step([ev.Narrated(text="No other faction is there to take it.",
                                     by="engine")])
        g = facs[to]
        f.neighborhoods.remove(hood)
        g.neighborhoods.append(hood)
        events: list[ev.Event] = [self._put(fid, f, f"{f.name} gives up {hood}."),
                                  self._put(to, g, f"{g.name} now dominates {hood}.")]
        push: list[Item] = []
        if result == "cede":
            push.append(effect_item(rule("add_complication", faction=to), ctx))
        elif result == "yield":
            push.append(effect_item(rule("aspect_to_write", faction=fid), ctx))
        return Step(events, push=push)

    @CITY_REGISTRY.rule_effect("claim_neighborhood")
    def _r_claim_neighborhood(self, state: CampaignState, args: dict[str, Any],
                              ctx: EffectContext) -> Step | Need:
        got = self._faction_step(state, args, ctx,
                                 "Which faction moves in?")
        if isinstance(got, StagedNeed):
            return got
        fid, f = got
        owned = {n for v in self.factions(state).values() for n in v.neighborhoods}
        free = [n for n in self.neighborhoods() if n not in owned]
        if not free:
            raise IllegalAction("every neighborhood is dominated by a faction: Overtake"
                                " Neighborhood instead")
        key = self._pick(args, "hood", "Which undominated neighborhood?",
                         [opt(slug(n), n) for n in free])
        if isinstance(key, StagedNeed):
            return key
        hood = next(n for n in free if slug(n) == key)
        f.neighborhoods.append(hood)
        return Step([self._put(fid, f, f"No faction dominated {hood}: {f.name} does now.")])

    @CITY_REGISTRY.rule_effect("garble_rumor")
    def _r_garble_rumor(self, state: CampaignState, args: dict[str, Any], ctx: EffectContext
                        ) -> Step:
        rumor = str(ctx.get("fiction") or "the rumor").strip().rstrip(".")
        twist = self._draw(state, "rumor_twists", "rumor") or "it comes back wrong"
        return Step([ev.Narrated(text=f"The {self.gm_title} rewrites the rumor: \"{rumor}\" —"
                                      f" but {twist}.", by="gm")])

    @CITY_REGISTRY.rule_effect("alliance")
    def _r_alliance(self, state: CampaignState, args: dict[str, Any], ctx: EffectContext
                    ) -> Step | Need:
        live = self.live_factions(state)
        facs = self.factions(state)
        if len(live) < 2:
            raise IllegalAction("an alliance needs at least two factions")
        if args.get("faction") is None:
            return StagedNeed("pick", "Which faction receives the aid?",
                              [opt(x, facs[x].name) for x in live], stage="faction")
        fid = str(args["faction"])
        if args.get("helpers") is None:
            others = [x for x in live if x != fid]
            return StagedNeed("pick", f"Which factions aid {facs[fid].name}?",
                              [opt(x, facs[x].name) for x in others], 1, len(others),
                              stage="helpers")
        helpers = [h for h in str(args["helpers"]).split(",") if h]
        f = facs[fid]
        names = ", ".join(facs[h].name for h in helpers)
        f.complications.append(f"Indebted to {names}")
        moves = [m.id for m in self.pack.moves.values() if m.category == FACTION and m.roll]
        return Step([self._put(fid, f, f"{names} aid{'s' if len(helpers) == 1 else ''}"
                                       f" {f.name}, which takes the complicating aspect"
                                       f" Indebted to {names}. The allies share the"
                                       " consequences."),
                     ev.BonusAdded(id=state.next_id, kind="forward", amount=len(helpers),
                                   moves=moves, target=None, expires="scene",
                                   reason=f"Alliance: {names} aid {f.name}")])

    @CITY_REGISTRY.rule_effect("lose_cohesion")
    def _r_lose_cohesion(self, state: CampaignState, args: dict[str, Any], ctx: EffectContext
                         ) -> Step | Need:
        got = self._faction_step(state, args, ctx,
                                 "Which faction succumbs to a threat?")
        if isinstance(got, StagedNeed):
            return got
        fid, f = got
        picked = self._pick(args, "pick", f"{f.name} succumbs: erase which aspect?",
                            [opt(str(i), a) for i, a in enumerate(f.aspects)])
        if isinstance(picked, StagedNeed):
            return picked
        events: list[ev.Event] = []
        if picked is not None:
            old = f.aspects.pop(int(picked))
            events.append(self._put(fid, f, f"{f.name} succumbs to the threat and loses the"
                                            f" aspect {old}."))
        if len(f.complications) > len(f.aspects):
            return Step(events + self._disperse(state, fid, f))
        events.append(ev.DataSet(scope="campaign", key="acting_faction", value=fid))
        events.append(ev.Narrated(text=f"{f.name} has {len(f.aspects)} aspect(s) against"
                                       f" {len(f.complications)} complication(s): it rolls to"
                                       " hold together.", by="engine"))
        return Step(events, push=[{"trigger": "hold_together", "ctx": {"target": None}}])

    @CITY_REGISTRY.rule_effect("cohesion_check")
    def _r_cohesion_check(self, state: CampaignState, args: dict[str, Any],
                          ctx: EffectContext) -> Step:
        got = self._faction_step(state, args, ctx)
        assert not isinstance(got, StagedNeed)
        fid, f = got
        if len(f.complications) > len(f.aspects):
            return Step(self._disperse(state, fid, f))
        return Step()

    def _disperse(self, state: CampaignState, fid: str, f: Faction) -> list[ev.Event]:
        f.dispersed = True
        gone = f.neighborhoods
        f.neighborhoods = []
        text = (f"{f.name} has more complications than aspects: it disperses"
                + (f", leaving {', '.join(gone)} undominated" if gone else "") + ".")
        events: list[ev.Event] = [self._put(fid, f, text)]
        if self.hero_sheet(state).faction == fid:
            events.append(CitySheetChanged(
                key="faction", value=None,
                text="Your faction is gone. You may Found a Faction, starting from one of its"
                     " remaining aspects."))
            events.append(CitySheetChanged(key="former_faction", value=fid, text=""))
        return events

    @CITY_REGISTRY.rule_effect("lose_neighborhood")
    def _r_lose_neighborhood(self, state: CampaignState, args: dict[str, Any],
                             ctx: EffectContext) -> Step | Need:
        got = self._faction_step(state, args, ctx)
        if isinstance(got, StagedNeed):
            return got
        fid, f = got
        if not f.neighborhoods:
            return Step()
        key = self._pick(args, "hood", f"Which neighborhood does {f.name} lose?",
                         self._hood_options(f))
        if isinstance(key, StagedNeed):
            return key
        hood = next(n for n in f.neighborhoods if slug(n) == key)
        f.neighborhoods.remove(hood)
        return Step([self._put(fid, f, f"{f.name} loses its hold on {hood}.")])

    @CITY_REGISTRY.rule_effect("found_faction")
    def _r_found_faction(self, state: CampaignState, args: dict[str, Any], ctx: EffectContext
                         ) -> Step | Need:
        name = str(ctx.get("fiction") or args.get("name") or "").strip().rstrip(".")[:60]
        sheet = self.hero_sheet(state)
        facs = self.factions(state)
        mine = sheet.faction
        if mine and mine in self.live_factions(state):
            raise IllegalAction(f"you already belong to {facs[mine].name}")
        if not name:
            raise IllegalAction("name the new faction as your fiction, e.g. 'The Lantern"
                                " Compact'")
        fid = slug(name)
        if fid in facs:
            raise IllegalAction(f"there is already a faction called {name!r}")
        former = facs.get(sheet.former_faction or "")
        left = former.aspects if former else []
        f = Faction.start(FactionStart(name=name, magistrate=False))
        if left and args.get("pick") is None:
            return Need("pick", "Which remaining aspect does the new faction start with?",
                        [opt(str(i), a) for i, a in enumerate(left)])
        if left:
            f.aspects.append(left[int(args["pick"])])
            how = f"starting with the aspect {f.aspects[0]}"
        else:
            f.to_write = 1
            how = "write its first aspect with the Write an Aspect move"
        return Step([self._put(fid, f, f"You found {name}: {how}."),
                     CitySheetChanged(key="faction", value=fid, text=f"You belong to {name}.")])

    # --- the Magistrate's rule effects

    @CITY_REGISTRY.rule_effect("hero_faction_complication")
    def _r_hero_faction_complication(self, state: CampaignState, args: dict[str, Any],
                                     ctx: EffectContext) -> Step:
        mine = self.hero_sheet(state).faction
        if not mine or mine not in self.live_factions(state):
            return Step()
        return Step(push=[effect_item(rule("add_complication", faction=mine), ctx)])
