"""The pure rules core: state, events and their registry, effects, resolution, the ledger,
the encounter and fights. The game systems live in ``engine.systems``."""
