"""The smoke child seen from the parent: start it early, give it its job, follow its messages, survive its crash."""

from __future__ import annotations

import signal
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .. import classcodes, steps
from ..child.childask import ASKS
from ..child.childproc import SMOKE_TARGET, ChildProcess, target_name
from ..errors import (
    Cancelled,
    ExternalDataError,
    InputError,
    ModelFormatError,
    OnnxpackError,
    OutputError,
    RuntimeFailure,
)
from ..progress import STEPS, CancelToken, ProgressCallback, report
from ..steps import Said
from . import codes

__all__ = ["ERRORS", "Target", "run_in_child", "start_child"]

_STAGE = "smoke"

#: The error classes the child may name in its ('error', {class, ...}) message.
ERRORS: dict[str, type[OnnxpackError]] = {
    c.__name__: c for c in (InputError, ModelFormatError, ExternalDataError, OutputError, RuntimeFailure, Cancelled)
}


def _describe_exit(code: int | None) -> str:
    if code is None:
        return "it stopped responding"
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        return f"it was killed by {name}" + (" (a crash in native code)" if name in ("SIGSEGV", "SIGBUS", "SIGILL",
                                                                                    "SIGFPE", "SIGABRT") else "")
    if code in (0xC0000005, -1073741819):
        return "it crashed with an access violation (0xC0000005)"
    return f"it exited with status {code}"


Target = Callable[[Any, dict[str, Any]], None] | str


def _name(target: Target) -> str:
    return target if isinstance(target, str) else target_name(target)


def start_child(target: Target = SMOKE_TARGET) -> ChildProcess | None:
    """Start a child for ``target`` (a function or its ``"module:function"``) now, to be given its job later
    through :func:`run_in_child`."""
    return ChildProcess(_name(target))


def run_in_child(
    target: Target,
    job: dict[str, Any],
    *,
    timeout: float,
    what: str,
    cancel: CancelToken | None = None,
    progress: ProgressCallback | None = None,
    stage: str = _STAGE,
    child: ChildProcess | None = None,
) -> Any:
    """Run ``target(conn, job)`` in a 'spawn' child; return its ('result', payload) payload.

    ``child``: a :class:`ChildProcess` started earlier for the same ``target`` (else one is started
    now); it is stopped before this returns. The child sends ('stage', text), ('progress',
    {done,total,message}), then ('result', x) or ('error', {class, code, message, hint, details}). A
    crash, a time-out or cancellation kills the child and raises RuntimeFailure / Cancelled; the
    caller's process is never affected. A ``child`` with :attr:`~ChildProcess.answers` set runs a job that may ask
    (core/child/childask.py): an ('ask', question) message is answered with ``child.answers(question)`` (the time it
    takes counts against ``timeout``).
    """
    answers = child.answers if child is not None else None
    if child is None or child.target != _name(target) or not child.usable:
        if child is not None:
            child.discard()
        child = ChildProcess(_name(target))
        child.answers = answers
    proc, recv_conn = child.proc, child.recv_conn
    follower = _Follower(progress, stage)
    child.send_job({**job, ASKS: True} if answers is not None else job)
    follower.report()  # the stage runs from now: no silent gap until it reports
    deadline = time.monotonic() + timeout
    try:
        while True:
            if cancel is not None and cancel.cancelled:
                raise classcodes.CANCELLED.error(variant="while", current=str(follower.current))
            message = _receive(recv_conn)
            if message is None and not proc.is_alive():
                proc.join(1)
                # what it wrote between the poll above and its end (its result, then a normal exit) is still there
                message = _receive(recv_conn)
                if message is None:
                    raise codes.SMOKE_CRASH.error(current=str(follower.current), what=what,
                                                  exit=_describe_exit(proc.exitcode),
                                                  details=f"exit code {proc.exitcode}")
            if message is not None and message[0] == "ask":
                child.answer(answers(message[1]) if answers is not None else None)
                continue
            if message is not None:
                value = follower.take(*message)
                if value is not _NOTHING:
                    return value
                continue
            if time.monotonic() > deadline:
                raise codes.SMOKE_TIMEOUT.error(what=what, timeout=f"{timeout:g}", current=str(follower.current))
    finally:
        child.discard()


#: What :meth:`_Follower.take` returns for a message that is not the result.
_NOTHING = object()


@dataclass
class _Follower:
    """Follows the child's messages: what it is doing now (for messages and progress), its result or error."""

    progress: ProgressCallback | None
    stage: str
    current: Said = field(default_factory=steps.CHILD_STARTING)

    def report(self, done: int = 0, total: int = 0, said: Said | None = None) -> None:
        report(self.progress, self.stage, done, total, self.current if said is None else said, unit=STEPS)

    def take(self, kind: str, payload: Any) -> Any:
        """Act on one message; return the result's payload, else :data:`_NOTHING`; raise the child's error."""
        if kind == "stage":
            self.current = payload  # a Said (core/steps.py)
            self.report()
        elif kind == "progress":
            self.report(int(payload["done"]), int(payload["total"]), payload["said"])
        elif kind == "result":
            return payload
        elif kind == "error":
            cls = ERRORS.get(str(payload.get("class")), RuntimeFailure)
            params = payload.get("params")
            raise cls(str(payload.get("message")), payload.get("hint"), code=payload.get("code"),
                      details=payload.get("details"), params=params if isinstance(params, dict) else None)
        return _NOTHING


def _receive(conn: Any) -> tuple[str, Any] | None:
    """The child's next message, None when there is none yet (or the pipe broke: the caller then sees it died)."""
    if not conn.poll(0.05):
        return None
    try:
        kind, payload = conn.recv()
    except (EOFError, OSError):
        return None
    return kind, payload
