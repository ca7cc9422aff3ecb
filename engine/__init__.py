"""Sidekick: a solo / GM-less play engine for tabletop role-playing games."""

__version__ = "0.1.0"
