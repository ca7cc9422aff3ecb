"""The panels game's ruleset (RULES.md C): checks out of a fight, rest and first aid, the
sheet with Kill and Stun bars, and fights on the fight engine (``PanelsConflict``).

A check is d20 + the characteristic's skill modifier (checks.py's table), banded 14- failure,
15-17 minor, 18+ complete; a natural 20 always succeeds (complete) and a natural 1 always fails.
Stunned (a track at 10% or less) is the condition ``stunned``, -5 on the pack's roll moves.
Heroes hold their stat block in ``data["statblock"]``: the archetype's block id, a custom
hero's whole block, or one derived from its characteristics (builder.py).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from engine.content import schema as s
from engine.content.loader import Pack
from engine.content.validation import FileLines, read_valid, valid_items
from engine.dice import Degrees
from engine.errors import ContentError
from engine.rules import events as ev
from engine.rules.base import BandOverride, Editable, Item, Ruleset, Step
from engine.rules.fight.conflict import ACTIONS_FILE, Conflict
from engine.rules.fight.foes import hero_blocks, npc_block
from engine.rules.sheet import Bar, Line, Section, header, party, session, threats
from engine.rules.sheet import cast as cast_section
from engine.rules.state import Actor, CampaignState
from engine.rules.types import EffectContext
from engine.systems.panels import builder, pack_files
from engine.systems.panels import step as pf
from engine.systems.panels.checks import DIE_SIDES, skill_modifier
from engine.systems.panels.crits import Table as CritTable
from engine.systems.panels.crits import roll as crit_roll
from engine.systems.panels.damage import STATUS_TEXT, Health, Status, Track
from engine.systems.panels.fight import PanelsConflict
from engine.systems.panels.registry import PANELS
from engine.systems.panels.statblock import Character, problems

FILLED_IN = (
    "Out of a fight, resting an hour brings Stun back to its maximum and a fifth of the Kill"
    " maximum (rounded up); the dying need first aid first and the dead do not recover. First"
    " aid out of a fight gives back the Kill its outcome names (5 complete, 2 minor), and"
    " stabilises a dying hero at 1 Kill first."
)
"""The rules of this module that the seed leaves out, filled in."""

SHORT = {"agility": "Agi", "dexterity": "Dex", "strength": "Str", "wits": "Wit",
         "nerve": "Nrv"}
"""Characteristic abbreviations for the sheet."""

REST_KILL_SHARE = 5
"""Rest gives back 1/REST_KILL_SHARE of the Kill maximum (rounded up)."""


def _emit(e: ev.Event) -> Item:
    return {"emit": e.to_dict()}


class PanelsRules(Ruleset):
    """The panels game's ruleset."""

    id = "panels"
    registry = PANELS
    FOES_HINT = "a villain or thugs"

    # --- stat blocks ----------------------------------------------------------------------

    def block(self, state: CampaignState, actor: Actor) -> Character:
        """The actor's stat block; one derived from its characteristics when it has none."""
        found = pf.block_of(self.pack, state, actor.id)
        return found if found is not None else builder.derived(actor.name, actor.stats)

    def health(self, state: CampaignState, actor: Actor) -> Health:
        """Current Kill and Stun (full when never hurt)."""
        return pf.health_of(self.block(state, actor), actor)

    # --- rolls ----------------------------------------------------------------------------

    def stat_value(self, state: CampaignState, move: s.Move, stat: str) -> tuple[str, int]:
        """A characteristic adds its skill modifier: "Agility 24 (+6)"."""
        if stat not in self.pack.stats:
            return super().stat_value(state, move, stat)
        value = state.hero.stats.get(stat, 10)
        mod = skill_modifier(max(1, min(30, value)))
        return f"{self.pack.stats[stat].name} {value}", mod

    def check_vs_dc(self, natural: int, modifier: int, dc: int) -> Degrees:
        """Against a set number: a natural 20 always succeeds and a natural 1 always fails
        (as against 15 and 18); one degree either way."""
        total = natural + modifier
        ok = natural == DIE_SIDES or (natural != 1 and total >= dc)
        return Degrees(ok, 1, natural, total, dc)

    def band_override(self, state: CampaignState, move: s.Move, faces: Sequence[int],
                      band: str) -> BandOverride | None:
        """A natural 20 always succeeds (complete); a natural 1 always fails."""
        if not faces or move.roll is None or move.roll.bands != "default":
            return None
        if faces[0] == DIE_SIDES and band != "complete":
            return BandOverride("complete", "natural 20: always a complete success")
        if faces[0] == 1 and band != "failure":
            return BandOverride("failure", "natural 1: always a failure")
        return None

    # --- rule effects ---------------------------------------------------------------------

    @PANELS.rule_effect("rest")
    def _rest_effect(self, state: CampaignState, eff: s.Rule, ctx: EffectContext) -> Step:
        """An hour's rest."""
        return self._rest(state)

    @PANELS.rule_effect("heal")
    def _heal_effect(self, state: CampaignState, eff: s.Rule, ctx: EffectContext) -> Step:
        """Kill points healed (``kill``)."""
        return self._heal(state, int(eff.args.get("kill") or 0))

    def _rest(self, state: CampaignState) -> Step:
        hero = state.hero
        if "dead" in hero.conditions:
            return Step([ev.Narrated(text=f"Rest cannot help {hero.name}.", by="engine")])
        if "dying" in hero.conditions:
            return Step([ev.Narrated(text=f"{hero.name} is dying: first aid before rest.",
                                     by="engine")])
        h = self.health(state, hero)
        if h.kill.current == h.kill.maximum and h.stun.current == h.stun.maximum:
            return Step([ev.Narrated(text=f"{hero.name} is not hurt.", by="engine")])
        kill = math.ceil(h.kill.maximum / REST_KILL_SHARE)
        new = Health(h.kill.heal(kill), Track.full(h.stun.maximum))
        return Step([pf.tracks_set(hero, new, f"an hour's rest: Stun back to"
                                  f" {new.stun.current}, Kill {h.kill.current} →"
                                  f" {new.kill.current}")])

    def _heal(self, state: CampaignState, kill: int) -> Step:
        hero = state.hero
        if "dead" in hero.conditions:
            return Step([ev.Narrated(text=f"First aid cannot help {hero.name} now.",
                                     by="engine")])
        h = self.health(state, hero)
        base = h.kill if h.kill.current > 0 else h.kill.heal(1)
        new = Health(base.heal(kill), h.stun)
        return Step([pf.tracks_set(hero, new, f"first aid: Kill {h.kill.current} →"
                                  f" {new.kill.current}")])

    # --- creation -------------------------------------------------------------------------

    def npc_added(self, state: CampaignState, npc_id: str, role: str) -> list[ev.Event]:
        """An NPC named like a block of the characters file plays that block."""
        return npc_block(state, npc_id, lambda: pf.characters(self.pack))

    def campaign_started(self, state: CampaignState) -> list[Item]:
        """Every hero holds a stat block: its archetype's id, or one derived from its
        characteristics."""
        return [_emit(e) for e in hero_blocks(
            self.pack, state,
            lambda hero: builder.derived(hero.name, hero.stats).model_dump(mode="json"))]

    # --- the sheet ------------------------------------------------------------------------

    def editable(self, state: CampaignState, who: str) -> list[Editable]:
        """Conditions, and current Kill and Stun (0 to the block's maximum) of a character
        with a stat block; characteristics come from the block."""
        out = [e for e in super().editable(state, who) if e.what not in ("stat", "track")]
        if who not in state.actors or pf.block_of(self.pack, state, who) is None:
            return out
        h = self.health(state, state.actors[who])
        return [*out,
                Editable("track", "kill", "Kill", h.kill.current, 0, h.kill.maximum,
                         group="Health"),
                Editable("track", "stun", "Stun", h.stun.current, 0, h.stun.maximum,
                         group="Health")]

    def conflict(self) -> Conflict[Any]:
        """Fights in rounds of panels (engine/systems/panels/fight.py)."""
        return PanelsConflict(self.pack)

    def hero_from_file(self, path: Path) -> tuple[str, dict[str, int], dict[str, Any]]:
        """A custom hero from a panels stat block file (builder.load_hero_file), within the
        builder's limits (statblock.problems): its name, its characteristics as stats (10 for
        one of the pack's it leaves out), the whole block as data; ``ContentError`` naming the
        file and every problem."""
        try:
            blk = builder.load_hero_file(path)
        except ContentError as e:
            raise ContentError("; ".join(e.problems), e.problems) from None
        found = problems(blk)
        if blk.kind != "hero":
            found.insert(0, f"{blk.name} is a {blk.kind}, not a hero (kind: hero)")
        if found:
            raise ContentError(f"{path}: {'; '.join(found)}", [f"{path}: {p}" for p in found])
        stats = {k: blk.characteristics.value(k) or 10 for k in self.pack.stats}
        return blk.name, stats, {"statblock": blk.model_dump(mode="json")}

    def sheet(self, state: CampaignState, actor_id: str | None = None) -> list[Section]:
        """Characteristics with their modifiers, Kill and Stun bars and what they mean, attack
        forms, powers, complications; then the party, the cast, threats and the session.
        Rows fit the 30-column sidebar."""
        actor = state.actor(actor_id or "hero")
        blk = self.block(state, actor)
        parts: list[Section | None] = [
            header(self.pack, actor), self._characteristics(actor, blk),
            self._health(state, actor), self._attacks(blk), self._powers(blk),
            party(self.pack, state, actor), cast_section(self.pack, state), threats(state),
            session(state)]
        return [p for p in parts if p is not None]

    @staticmethod
    def _characteristics(actor: Actor, blk: Character) -> Section:
        ch = blk.characteristics
        values = {"agility": ch.agility, "dexterity": ch.dexterity, "strength": ch.strength,
                  **ch.other}
        cells = [f"{SHORT.get(k, k[:3].capitalize())} {v} {skill_modifier(v):+d}"
                 for k, v in values.items()]
        rows = [Line(text="  ".join(cells[i:i + 2])) for i in range(0, len(cells), 2)]
        what = "significant" if blk.significant else "ordinary"
        rows.append(Line(text=f"{blk.kind.capitalize()} ({what})", tone="dim"))
        return Section(title="Characteristics", rows=list(rows))

    def _health(self, state: CampaignState, actor: Actor) -> Section:
        h = self.health(state, actor)
        rows: list[Line | Bar] = [
            Bar(label="Kill", value=h.kill.current, max=h.kill.maximum,
                low=h.kill.maximum // 10),
            Bar(label="Stun", value=h.stun.current, max=h.stun.maximum,
                low=h.stun.maximum // 10)]
        if "dead" in actor.conditions:
            rows.append(Line(bullet="✖", bullet_tone="bad", text="Dead", bold=True))
            return Section(title="Health", rows=list(rows))
        status = h.status
        if "stable" in actor.conditions:
            rows.append(Line(bullet="■", bullet_tone="bad", text="Stable", bold=True,
                             detail="given first aid; out cold until the fight ends"))
        elif status is not Status.FINE:
            name, _, what = STATUS_TEXT[status].partition(" ")
            rows.append(Line(bullet="■", bullet_tone="bad", text=status.value.capitalize(),
                             bold=True, detail=what.strip(": ") or name))
        else:
            rows.append(Line(text=f"Stunned at {h.kill.maximum // 10} Kill or"
                                  f" {h.stun.maximum // 10} Stun", tone="dim"))
        return Section(title="Health", rows=list(rows))

    @staticmethod
    def _attacks(blk: Character) -> Section | None:
        rows: list[Line] = []
        for f in blk.all_attacks:
            kind = f.delivery + (", lethal" if f.lethal else "") + (", fist" if f.fist else "")
            mod = f" {f.modifier:+d}" if f.modifier else ""
            rows.append(Line(lead=f.name, text=mod, detail=kind))
        return Section(title="Attacks", rows=list(rows)) if rows else None

    @staticmethod
    def _powers(blk: Character) -> Section | None:
        rows = [Line(lead=p.name, detail=p.notes) for p in blk.powers if p.attack is None]
        rows += [Line(bullet="!", bullet_tone="mixed", text=c, tone="dim")
                 for c in blk.complications]
        return Section(title="Powers", rows=list(rows)) if rows else None

    # --- validate -------------------------------------------------------------------------

    CONTENT_FILES = pack_files.FILES
    """``actions.yaml``, ``characters.yaml`` and ``crits.yaml``, each checked against its model
    first."""

    @classmethod
    def check_content(cls, pack: Pack) -> list[str]:
        """What the models of the files cannot see: each stat block's builder limits, each
        archetype's block and characteristics, the ids and costs actions.yaml names, and the
        crit entries against the rules' tables."""
        out: list[str] = []
        path = pack.path / pf.CHARACTERS_FILE
        for blk in valid_items(path, "characters", Character):
            out += [f"{pf.CHARACTERS_FILE}: {p}" for p in problems(blk)]
        typed = read_valid(path, pack_files.CharactersFile)
        blocks: dict[str, Character] | None = (
            {pf.block_id(b.name): b for b in typed.characters} if typed is not None
            else None if path.is_file() else {})  # None: broken, the model reports it
        for arche in pack.system.archetypes:
            out += cls._archetype_problems(arche, blocks)
        out += cls._actions_problems(pack)
        out += cls._crits_problems(pack)
        return out

    @staticmethod
    def _archetype_problems(arche: s.Archetype, blocks: dict[str, Character] | None
                            ) -> list[str]:
        where = f"system.yaml: archetypes.{arche.id}"
        ref = arche.data.get("statblock")
        if ref is None or blocks is None:
            return []
        if not isinstance(ref, str):
            return [f"{where}.data.statblock: expected a block id of {pf.CHARACTERS_FILE}"]
        blk = blocks.get(ref)
        if blk is None:
            return [f"{where}.data.statblock: no stat block {ref!r} in {pf.CHARACTERS_FILE}"
                    f" (it has: {', '.join(sorted(blocks)) or 'none'})"]
        ch = blk.characteristics
        values = {"agility": ch.agility, "dexterity": ch.dexterity, "strength": ch.strength,
                  **ch.other}
        out = [f"{where}.stats.{k}: {arche.stats.get(k)} but its stat block has {v}"
               for k, v in values.items() if arche.stats.get(k) != v]
        if blk.kind != "hero":
            out.append(f"{where}.data.statblock: {ref!r} is a {blk.kind}, not a hero")
        return out

    @staticmethod
    def _actions_problems(pack: Pack) -> list[str]:
        """The ids actions.yaml names that the fight engine does not know, and costs that are
        not what the rules charge (its shape is ``ActionsFile``'s to check)."""
        words = read_valid(pack.path / ACTIONS_FILE, pack_files.ActionsFile)
        if words is None:
            return []
        lines = FileLines(pack.path, relative=True)
        out: list[str] = []
        by_words = {PanelsConflict.word_aliases.get(a, a): a for a in pf.ACTIONS.ids()}
        for key, entry in words.actions.items():
            if entry.kind == "response":
                if key not in pack_files.RESPONSES:
                    out.append(lines.at(ACTIONS_FILE, ("actions", key),
                                        f"no response called {key!r} (known:"
                                        f" {', '.join(pack_files.RESPONSES)})", on_key=True))
                continue
            aid = by_words.get(key)
            if aid is None:
                out.append(lines.at(ACTIONS_FILE, ("actions", key), "unknown action id (known:"
                                    f" {', '.join(sorted(by_words))})", on_key=True))
                continue
            rule = pf.ACTIONS[aid].cost
            if entry.cost != rule:
                out.append(lines.at(ACTIONS_FILE, ("actions", key, "cost"),
                                    f"{entry.cost!r}, but the rules charge {rule!r} for it"))
        return out

    @staticmethod
    def _crits_problems(pack: Pack) -> list[str]:
        """Crit entries that are not the rules' (crits.py's tables: each face's name and
        effect), and faces or ids used twice (its shape is ``CritsFile``'s to check)."""
        crits = read_valid(pack.path / pack_files.CRITS_FILE, pack_files.CritsFile)
        if crits is None:
            return []
        lines = FileLines(pack.path, relative=True)
        out: list[str] = []
        ids: set[str] = set()
        for key, table in (("critical_hit", CritTable.HIT), ("critical_miss", CritTable.MISS)):
            faces: set[int] = set()
            for i, entry in enumerate(getattr(crits, key)):
                at = (key, i)
                if entry.id in ids:
                    out.append(lines.at(pack_files.CRITS_FILE, (*at, "id"),
                                        f"id {entry.id!r} is used twice", entry.id))
                if entry.d6 in faces:
                    out.append(lines.at(pack_files.CRITS_FILE, (*at, "d6"),
                                        f"face {entry.d6} is used twice", entry.id))
                ids.add(entry.id)
                faces.add(entry.d6)
                rule = crit_roll(table, entry.d6)
                if (entry.name, entry.effect) != (rule.name, rule.effect):
                    out.append(lines.at(
                        pack_files.CRITS_FILE, (*at, "effect"),
                        f"{entry.name} ({entry.effect.value}), but the rules' {table.value} on"
                        f" a {entry.d6} is {rule.name} ({rule.effect.value})", entry.id))
        return out
