"""Progress reporting and cooperative cancellation shared by all long operations."""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .errors import Cancelled

if TYPE_CHECKING:
    from .steps import Said, Step

__all__ = ["BYTES", "STEPS", "CancelToken", "ProgressCallback", "ProgressEvent", "check_cancel", "report"]

BYTES = "bytes"  # done/total count bytes (merge, zip, hashing)
STEPS = "steps"  # done/total count steps of a stage (validate: inspect, structure, checker…)


@dataclass(frozen=True)
class ProgressEvent:
    """One progress report: ``stage`` name, ``done`` of ``total`` in ``unit`` (BYTES or STEPS); total 0: unknown.

    ``step`` names what the stage is doing (a step of :mod:`onnxpack.core.steps`; "" for none) and ``values`` holds
    the values its template names; ``message`` is that step rendered in English (what the command line prints)."""

    stage: str
    done: int
    total: int
    message: str = ""
    unit: str = BYTES
    step: str = ""
    values: Mapping[str, Any] = field(default_factory=dict)
    #: the wording's variant of ``step`` ("": its main template)
    variant: str = ""

    @property
    def fraction(self) -> float:
        return 1.0 if self.total <= 0 else min(1.0, self.done / self.total)

    @property
    def finished(self) -> bool:
        """The stage reported its known total as done (an event without a total never finishes a stage)."""
        return self.total > 0 and self.done >= self.total


ProgressCallback = Callable[[ProgressEvent], None]


class CancelToken:
    """Thread-safe cancellation flag; long operations poll it between chunks."""

    def __init__(self) -> None:
        self._event = threading.Event()

    def cancel(self) -> None:
        self._event.set()

    @property
    def cancelled(self) -> bool:
        return self._event.is_set()

    def raise_if_cancelled(self) -> None:
        if self._event.is_set():
            raise Cancelled()

    def wait(self, timeout: float) -> bool:
        """Sleep up to ``timeout`` seconds; return True as soon as cancellation is requested."""
        return self._event.wait(timeout)


def check_cancel(cancel: CancelToken | None) -> None:
    """Raise :class:`Cancelled` when ``cancel`` is set (``None`` means not cancellable)."""
    if cancel is not None:
        cancel.raise_if_cancelled()


def report(
    progress: ProgressCallback | None, stage: str, done: int, total: int, step: Step | Said | None = None, *,
    unit: str = BYTES, **values: Any
) -> None:
    """Call ``progress`` if given, with ``step`` (a registered step, or one already said with its values) and the
    ``values`` its template names."""
    if progress is None:
        return
    if step is None:
        progress(ProgressEvent(stage, done, total, "", unit))
        return
    said = step(**values) if callable(step) else step
    progress(ProgressEvent(stage, done, total, str(said), unit, said.step, said.values, said.variant))
