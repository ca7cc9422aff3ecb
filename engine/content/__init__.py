"""Content packs: typed models, loading and validation."""

from engine.content.loader import Pack, discover, get_pack, load_pack

__all__ = ["Pack", "discover", "get_pack", "load_pack"]
