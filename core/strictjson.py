"""Strict JSON parsing for files from outside: no duplicate keys, no NaN/Infinity (security.md rule 8)."""

from __future__ import annotations

import json
import math
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


#: Integers beyond 64 bits are no sizes, offsets or counts a bundle can hold; Python would take them whole
#: and fail later, far from the parser (``float(10**400)`` raises OverflowError).
_INT_LIMIT = 2**63


def _bounded_int(text: str) -> int:
    value = int(text)
    if not -_INT_LIMIT <= value < _INT_LIMIT:
        raise ValueError(f"integer {text[:20]}... is out of range (more than 64 bits)")
    return value


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):  # "1e400" parses as infinity
        raise ValueError(f"number {text[:20]} is out of range")
    return value


def loads(data: bytes | str) -> Any:
    """Parse UTF-8 JSON strictly; raise ValueError (or RecursionError) on anything doubtful.

    Rejects duplicate keys (which ``json`` silently resolves to the last), NaN/Infinity, numbers that
    overflow (integers beyond 64 bits, floats beyond double range), invalid UTF-8 and a leading byte-order mark.
    """
    text = data.decode("utf-8") if isinstance(data, bytes) else data
    if text.startswith("\ufeff"):
        raise ValueError("starts with a byte-order mark")
    return json.loads(text, object_pairs_hook=_no_duplicates, parse_constant=_no_constant, parse_int=_bounded_int,
                      parse_float=_finite_float)
