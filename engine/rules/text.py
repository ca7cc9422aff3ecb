"""Small helpers for the words the rules write (journal lines, messages)."""

from __future__ import annotations


def upper_first(text: str) -> str:
    """``text`` with its first letter upper-cased (``str.capitalize`` lowers the rest)."""
    return text[:1].upper() + text[1:]


__all__ = ["upper_first"]
