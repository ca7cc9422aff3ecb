"""English for move detection: words, lemmas, negation, names and concepts.

Nothing here knows a game: the matcher in ``engine.triggers`` turns these tokens into features
and ranks a pack's moves with them.
"""
