"""A child's job asking its parent a question and waiting for the answer (the smoke run asks before the end user's
load of the source is measured, so that the bundle's own work is done first: core/runtime/loadcost.py).

The answer comes on the job pipe, which a job that may ask (``ASKS`` true) keeps open: the parent's
:meth:`~core.child.childproc.ChildProcess.answer`, from the ``answer`` callback of
:func:`core.runtime.childrun.run_in_child`.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

__all__ = ["ASKS", "ask_parent", "asking"]

#: A job's key that says it may ask the parent during the job (:func:`ask_parent`).
ASKS = "asks"
#: In a child whose job may ask: (the result pipe, the job pipe).
_ASKING: list[tuple[Any, Any]] = []


@contextlib.contextmanager
def asking(conn: Any, job_conn: Any) -> Iterator[None]:
    """While the job runs: :func:`ask_parent` sends on ``conn`` and reads the answer from ``job_conn``."""
    _ASKING.append((conn, job_conn))
    try:
        yield
    finally:
        _ASKING.pop()


def ask_parent(question: Any) -> Any:
    """In a child whose job has ``ASKS``: send ``("ask", question)`` and wait for the parent's answer. Raises EOFError
    when the parent is gone or closed the job pipe (a job that may not ask)."""
    if not _ASKING:
        raise EOFError("no job is running")
    conn, job_conn = _ASKING[-1]
    conn.send(("ask", question))
    try:
        kind, value = job_conn.recv()
    except OSError as e:  # the job pipe was closed: this job may not ask
        raise EOFError(str(e)) from None
    if kind != "answer":
        raise EOFError(f"unexpected message from the parent: {kind}")
    return value
