"""What the plain mode reads out on request: the acting hero's sheet and the story ledger,
one plain line each."""

from __future__ import annotations

from engine.game import Game


def sheet_lines(game: Game) -> list[str]:
    """The acting hero's stats, conditions and tracks."""
    st, pack = game.state, game.pack
    hero = st.hero
    names = {d.id: d.name for d in pack.system.stats}
    stats = ", ".join(f"{names.get(k, k)} {v:+d}" for k, v in hero.stats.items())
    out = [f"{hero.name}. {pack.system.stat_label}: {stats or 'none'}."]
    conds = [pack.conditions[c].name if c in pack.conditions else c for c in hero.conditions]
    out.append(f"Conditions marked: {', '.join(conds) if conds else 'none'}.")
    if hero.tracks:
        out.append("Tracks: " + ", ".join(f"{k.replace('_', ' ')} {v}"
                                          for k, v in hero.tracks.items()) + ".")
    if hero.taken_out:
        out.append("Taken out of the scene.")
    return out


def ledger_lines(game: Game) -> list[str]:
    """The story ledger: open threads, characters, facts, threats."""
    led = game.ledger()
    out = []
    open_t = [t for t in led.threads if t.status == "open"]
    out.append(f"Open threads: {len(open_t) or 'none'}.")
    out += [f"Thread {t.id}: {t.text}" + (f" ({t.note})" if t.note else "") for t in open_t]
    done = [t for t in led.threads if t.status == "resolved"]
    if done:
        out.append("Resolved: " + "; ".join(t.text for t in done) + ".")
    out.append("Characters:")
    for c in led.characters:
        here = "here" if c.present else "away"
        where = f", last seen: {c.where}" if c.where else ""
        out.append(f"{c.name}, {c.role or c.kind}, {here}{where}.")
    out.append(f"Facts: {len(led.facts) or 'none'}.")
    out += [f"Fact {f.id}: {f.text}" for f in led.facts]
    for t in led.threats:
        if t.active:
            step = t.next_step.rstrip(".")
            out.append(f"Threat: {t.name}, clock {t.clock} of {t.size}; next: {step}.")
    return out
