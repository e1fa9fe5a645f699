"""The bounded search for sizes of symbolic dims (inside the smoke child) when a run fails with the defaults."""

from __future__ import annotations

import re
from collections.abc import Callable, Container, Iterator
from typing import Any

from .inputs import SEARCH_VALUES

__all__ = ["MAX_ATTEMPTS", "MAX_MESSAGE_ATTEMPTS", "is_batch_like", "search"]

#: At most this many runs with common sizes (the first one included) per smoke run; the sizes ONNX Runtime's
#: messages name add at most MAX_MESSAGE_ATTEMPTS more.
MAX_ATTEMPTS = 16
_BATCH_NAME = re.compile(r"(^|[^a-z])(batch|bs|n|b)([^a-z]|$)|batch", re.IGNORECASE)


def is_batch_like(name: str) -> bool:
    """Dims named like a batch size stay 1 in the first search pass (they rarely have a minimum)."""
    return bool(_BATCH_NAME.search(name))


def _search_plan(keys: list[str], budget: int) -> Iterator[dict[str, int]]:
    """Candidate dim assignments: non-batch dims uniformly over SEARCH_VALUES (batch-like dims at 1),
    then all dims together; bounded by ``budget``."""
    batch = [k for k in keys if is_batch_like(k)]
    other = [k for k in keys if k not in batch]
    plans: list[dict[str, int]] = []
    if other:
        for v in SEARCH_VALUES[1:]:
            plans.append({**{k: v for k in other}, **{k: 1 for k in batch}})
    if batch:
        for v in SEARCH_VALUES[1:]:
            plans.append({k: v for k in keys})
    seen: set[tuple[tuple[str, int], ...]] = set()
    for p in plans:
        key = tuple(sorted(p.items()))
        if key in seen:
            continue
        seen.add(key)
        if budget <= 0:
            return
        budget -= 1
        yield p


#: At most this many attempts of the search follow sizes named in ONNX Runtime's messages (on top of the
#: MAX_ATTEMPTS - 1 with common sizes, which a message full of numbers thus cannot crowd out).
MAX_MESSAGE_ATTEMPTS = 6
#: Sizes taken from a message are at most this (a larger number is an index, a byte count...).
_MAX_MESSAGE_DIM = 1 << 16
_SOURCE_LOCATION = re.compile(r"[\w./\\-]+\.(?:h|hh|hpp|c|cc|cpp|cu):\d+")
_SHAPE_TEXT = re.compile(r"[{\[(]\s*(-?\d+(?:\s*,\s*-?\d+)*)\s*[}\])]")
_INDEX_WORDS = ("idx", "indices", "index", "out of bound", "out-of-bound", "out of range")


def _message_sizes(message: str, current: dict[str, int]) -> list[int]:
    """Sizes ONNX Runtime's ``message`` names that differ from the current dims, most telling first.

    First the values where two shapes of the same rank differ ("Input W must have shape {1,16,1}.
    Actual:{1,16,266}" names 266 where we gave 1), then every other number in order of appearance. Source
    locations ("matmul_helper.h:59"), values of 0 or 1, values we already use and values above 65536 are not
    sizes. A message about an index out of bounds names the table's size, not a dim: nothing is taken from it.
    """
    text = _SOURCE_LOCATION.sub(" ", message)
    if any(w in text.lower() for w in _INDEX_WORDS):
        return []
    used = set(current.values())
    out: list[int] = []

    def add(v: int) -> None:
        if 2 <= v <= _MAX_MESSAGE_DIM and v not in used and v not in out:
            out.append(v)

    shapes = [[int(x) for x in m.split(",")] for m in _SHAPE_TEXT.findall(text)]
    for i, a in enumerate(shapes):
        for b in shapes[i + 1:]:
            if len(a) == len(b):
                for x, y in zip(a, b, strict=True):
                    if x != y and x in used:
                        add(y)
                    elif x != y and y in used:
                        add(x)
    for m in re.finditer(r"(?<![\w.])-?\d+(?![\w.])", text):
        add(abs(int(m.group())))
    return out


def _message_plans(message: str, base: dict[str, int], keep: Container[str] = ()) -> list[dict[str, int]]:
    """Assignments that give one unresolved dim a size the message names (the other dims stay as in ``base``);
    non-batch dims first. The dims in ``keep`` (sizes that got the run past an earlier failure) are not changed."""
    keys = sorted((k for k in base if k not in keep), key=is_batch_like)
    return [{**base, k: v} for v in _message_sizes(message, base) for k in keys]


def _failure_key(message: str) -> str:
    """A failure's message without its numbers: two messages that differ only in their numbers report the same
    failure."""
    return re.sub(r"\d+", "#", message)


def search(unresolved: list[str], base: dict[str, int], first_error: str,
            attempt: Callable[[dict[str, int]], str | None], attempts: list[dict[str, Any]]) -> dict[str, int] | None:
    """Try sizes for the ``unresolved`` dims until a run passes; return the sizes that worked, or None.

    The sizes ONNX Runtime's error names come first (an LSTM whose input size is a symbolic dim fails with
    "Input W must have shape {1,16,1}. Actual:{1,16,266}": 266 is tried for each dim), and a failed attempt
    with a new failure adds what its message names (depth first: the runtime leads the way); at most
    MAX_MESSAGE_ATTEMPTS of them. Then the common sizes of :func:`_search_plan`, at most MAX_ATTEMPTS - 1.
    ``attempt(dims)`` runs and returns None or the error.
    """
    tried = {tuple(sorted(base.items()))}
    failures = {_failure_key(first_error)}  # every failure seen: meeting one again is no progress
    queue: list[tuple[dict[str, int], str]] = [(p, first_error) for p in _message_plans(first_error, base)]
    budgets = {"runtime message": MAX_MESSAGE_ATTEMPTS, "common sizes": MAX_ATTEMPTS - 1}
    pinned: dict[str, int] = {}  # sizes from messages that got the run past a failure (a Conv's channels)

    def common() -> Iterator[dict[str, int]]:
        for p in _search_plan(unresolved, MAX_ATTEMPTS - 1):
            if pinned:
                yield {**p, **pinned}  # the common sizes for the other dims
            yield p

    generic = common()
    while True:
        if queue and budgets["runtime message"] > 0:
            (plan, before), source = queue.pop(0), "runtime message"
        else:
            nxt = next(generic, None)
            if nxt is None or budgets["common sizes"] <= 0:
                return None
            plan, before, source = nxt, "", "common sizes"
        key = tuple(sorted(plan.items()))
        if key in tried:
            continue
        tried.add(key)
        budgets[source] -= 1
        error = attempt(plan)
        attempts.append({"dims": plan, "ok": error is None, "error": error, "source": source})
        if error is None:
            return plan
        if error.startswith("skipped:") or _failure_key(error) in failures:
            continue  # a failure met before (the same one again, or back to an earlier one): no progress
        failures.add(_failure_key(error))
        if source == "runtime message":  # it got past ``before``: that message's other readings are moot
            pinned.update({k: v for k, v in plan.items() if v != base[k]})
            queue = [q for q in queue if q[1] != before]
        queue[:0] = [(p, error) for p in _message_plans(error, plan, pinned) if tuple(sorted(p.items())) not in tried]
