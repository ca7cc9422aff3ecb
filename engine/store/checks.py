"""Shape checks of save data: plain JSON values, TinyDB files and the campaign record."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, TypeGuard

from engine.errors import SaveError
from engine.store.errors import _TooNew
from engine.store.files import _read_regular
from engine.store.layout import _DOC_ID_RE, FORMAT, OLDEST_FORMAT, TABLE


def _is_int(value: object) -> TypeGuard[int]:
    """True for a real int (bool excluded)."""
    return type(value) is int


def _type_name(value: object) -> str:
    """The JSON name of a value's type, for error messages."""
    names = {dict: "an object", list: "a list", str: "a string", bool: "a boolean",
             int: "an integer", float: "a number", type(None): "null"}
    return names.get(type(value), type(value).__name__)


def _plain(value: Any, what: str) -> Any:
    """A deep copy of ``value`` as plain JSON data; SaveError if it is not JSON-serialisable."""
    try:
        return json.loads(json.dumps(value, allow_nan=False))
    except (TypeError, ValueError) as exc:
        raise SaveError(f"Cannot save: {what} is not plain JSON data ({exc}).") from exc


def _text(value: object) -> str:
    """A meta value as display text."""
    if value is None:
        return ""
    return value if isinstance(value, str) else str(value)


def _no_constant(name: str) -> Any:
    """Refuse NaN and Infinity in a save file: Sidekick never writes them (saving would fail)."""
    raise ValueError(f"{name} is not a JSON number")


def _read_tinydb_file(path: Path) -> dict[str, Any] | None:
    """Parse a TinyDB JSON file and check its shape; None if it does not exist.

    Raises SaveError naming the file for anything else: unreadable, empty, not JSON, or not
    ``{table: {doc_id: {...}}}``.
    """
    raw = _read_regular(path)
    if raw is None:
        return None
    if not raw.strip():
        raise SaveError(f"{path} is damaged: the file is empty.")
    try:
        data = json.loads(raw.decode("utf-8"), parse_constant=_no_constant)
    except UnicodeDecodeError as exc:
        raise SaveError(f"{path} is damaged: it is not UTF-8 text ({exc.reason}).") from exc
    except json.JSONDecodeError as exc:
        raise SaveError(
            f"{path} is damaged: invalid JSON at line {exc.lineno}, column {exc.colno} "
            f"({exc.msg})."
        ) from exc
    except ValueError as exc:  # from _no_constant
        raise SaveError(f"{path} is damaged: {exc}.") from exc
    if not isinstance(data, dict):
        raise SaveError(f"{path} is damaged: expected a JSON object, found {_type_name(data)}.")
    for table_name, table in data.items():
        if not isinstance(table, dict):
            raise SaveError(
                f"{path} is damaged: table {table_name!r} should be an object, "
                f"found {_type_name(table)}."
            )
        for doc_id, doc in table.items():
            if not _DOC_ID_RE.fullmatch(doc_id):
                raise SaveError(
                    f"{path} is damaged: table {table_name!r} has a bad document id {doc_id!r}."
                )
            if not isinstance(doc, dict):
                raise SaveError(
                    f"{path} is damaged: document {table_name}/{doc_id} should be an object, "
                    f"found {_type_name(doc)}."
                )
    return data


def _check_campaign(path: Path, data: dict[str, Any] | None) -> dict[str, Any]:
    """The campaign document of a parsed campaign.json; SaveError naming what is wrong."""
    if data is None:
        raise SaveError(f"{path} is missing.")
    table = data.get(TABLE)
    if not isinstance(table, dict) or "1" not in table:
        raise SaveError(f"{path} is damaged: it has no campaign record (table {TABLE!r}, doc 1).")
    doc: dict[str, Any] = table["1"]
    fmt = doc.get("format")
    if not _is_int(fmt):
        raise SaveError(f"{path} is damaged: 'format' should be an integer, found "
                        f"{_type_name(fmt)}.")
    if fmt > FORMAT:
        raise _TooNew(f"{path} was written by a newer version of Sidekick (format {fmt}; "
                        f"this version reads format {FORMAT}).")
    if fmt < OLDEST_FORMAT:
        raise SaveError(f"{path} is damaged: unknown format {fmt}.")
    for key in ("meta", "state"):
        if key not in doc:
            raise SaveError(f"{path} is damaged: the key {key!r} is missing.")
        if not isinstance(doc[key], dict):
            raise SaveError(f"{path} is damaged: {key!r} should be an object, found "
                            f"{_type_name(doc[key])}.")
    _check_state(path, doc["state"], "state")
    return doc


def _check_state(path: Path, state: dict[str, Any], where: str) -> None:
    """A stored state needs a non-negative integer ``event_no``."""
    event_no = state.get("event_no")
    if not _is_int(event_no) or event_no < 0:
        found = "missing" if "event_no" not in state else f"{event_no!r}"
        raise SaveError(f"{path} is damaged: {where}.event_no should be a non-negative integer, "
                        f"found {found}.")
