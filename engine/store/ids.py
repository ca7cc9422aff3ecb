"""Campaign ids: which names are valid ids, and the id made from a display name."""

from __future__ import annotations

import os
import re
import unicodedata
from pathlib import Path

from engine.errors import SaveError
from engine.store.layout import MAX_ID_BYTES, MAX_ID_LENGTH


def _id_char(ch: str) -> bool:
    """True for a character allowed in a campaign id besides ``-``.

    ASCII: ``a-z`` and ``0-9``. Other scripts: lowercase letters, marks and digits (Unicode
    categories L, M and N), so that names in any script keep a readable folder name.
    """
    if ch.isascii():
        return "a" <= ch <= "z" or "0" <= ch <= "9"
    return unicodedata.category(ch)[0] in "LMN" and ch.lower() == ch


def _valid_id(campaign_id: object) -> bool:
    """True if ``campaign_id`` is a campaign id: words of id characters joined by single '-'."""
    return (
        isinstance(campaign_id, str)
        and 0 < len(campaign_id) <= MAX_ID_LENGTH
        and all(ch == "-" or _id_char(ch) for ch in campaign_id)
        and len(campaign_id.encode("utf-8")) <= MAX_ID_BYTES
        and not campaign_id.startswith("-")
        and not campaign_id.endswith("-")
        and "--" not in campaign_id
        and unicodedata.category(campaign_id[0])[0] != "M"
    )


def _fit(slug: str, reserve: int = 0) -> str:
    """``slug`` cut to the id limits, leaving ``reserve`` ASCII characters for a suffix."""
    slug = slug[: MAX_ID_LENGTH - reserve]
    while len(slug.encode("utf-8")) > MAX_ID_BYTES - reserve:
        slug = slug[:-1]
    return slug.rstrip("-")


def slugify(name: str) -> str:
    """A campaign id from a display name: ``"The Night Shift!"`` -> ``"the-night-shift"``.

    Accents on Latin letters are dropped (``Café`` -> ``cafe``); letters of other scripts are
    kept (``Ночная смена`` -> ``ночная-смена``). A name with no letter or digit at all gives
    ``campaign``. See :func:`unique_id` for a name that is not taken yet.
    """
    text = unicodedata.normalize("NFKD", unicodedata.normalize("NFKD", str(name)).lower())
    out: list[str] = []
    for ch in text:
        if unicodedata.category(ch)[0] == "M":
            # an accent on a Latin letter is dropped; a mark of another script is kept
            if out and out[-1] != "-" and not out[-1].isascii():
                out.append(ch)
            continue
        out.append(ch if _id_char(ch) else "-")
    slug = unicodedata.normalize("NFC", "".join(out))
    slug = "".join(ch if ch == "-" or _id_char(ch) else "-" for ch in slug)
    slug = _fit(re.sub(r"-{2,}", "-", slug).strip("-"))
    return slug if _valid_id(slug) else "campaign"


def unique_id(saves_dir: Path, name: str) -> str:
    """A campaign id from ``name`` that no file or folder in ``saves_dir`` uses yet."""
    base = slugify(name)
    cid, n = base, 2
    while os.path.lexists(Path(saves_dir) / cid):
        suffix = f"-{n}"
        cid, n = _fit(base, len(suffix)) + suffix, n + 1
    return cid


def _check_id(campaign_id: object) -> str:
    """Return ``campaign_id`` if it is a valid slug; SaveError otherwise (blocks path traversal)."""
    if not _valid_id(campaign_id):
        raise SaveError(
            f"Invalid campaign id {campaign_id!r}: use lowercase letters, digits and single "
            f"hyphens (at most {MAX_ID_LENGTH} characters), e.g. 'the-night-shift'."
        )
    assert isinstance(campaign_id, str)
    return campaign_id


def _campaign_dir(saves_dir: Path, campaign_id: str) -> Path:
    """The folder of campaign ``campaign_id`` (id validated)."""
    return Path(saves_dir) / _check_id(campaign_id)
