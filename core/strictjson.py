"""Strict JSON parsing for files from outside: no duplicate keys, no NaN/Infinity (security.md rule 8)."""

from __future__ import annotations

import json
from typing import Any

__all__ = ["loads"]


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in pairs:
        if k in out:
            raise ValueError(f"duplicate key {k!r}")
        out[k] = v
    return out


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def loads(data: bytes | str) -> Any:
    """Parse UTF-8 JSON strictly; raise ValueError (or RecursionError) on anything doubtful.

    Rejects duplicate keys (which ``json`` silently resolves to the last), NaN/Infinity, invalid UTF-8
    and a leading byte-order mark.
    """
    text = data.decode("utf-8") if isinstance(data, bytes) else data
    if text.startswith("\ufeff"):
        raise ValueError("starts with a byte-order mark")
    return json.loads(text, object_pairs_hook=_no_duplicates, parse_constant=_no_constant)
