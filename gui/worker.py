"""Run engine calls off the GUI thread: one QRunnable per job, results back as signals, a CancelToken each."""

from __future__ import annotations

import time
import traceback
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal

from onnxpack.core.errors import Cancelled, InternalError, OnnxpackError, from_os_error
from onnxpack.core.progress import CancelToken, ProgressCallback, ProgressEvent

__all__ = ["Job", "JobFunction", "JobQueue", "JobSignals", "internal_error"]

#: A job body: called on a worker thread with a progress callback and the job's cancel token.
JobFunction = Callable[[ProgressCallback, CancelToken], Any]

#: Minimum seconds between two progress signals of the same stage (the engine may report per chunk).
PROGRESS_INTERVAL = 0.05


def internal_error(exc: BaseException) -> OnnxpackError:
    """Wrap an unexpected exception (a bug) as an OnnxpackError carrying the traceback as details.

    File-system errors on the user's paths (a name too long, a read-only disk) are not bugs: they become
    the engine's own error for them.
    """
    if isinstance(exc, OSError) and (path_error := from_os_error(exc)) is not None:
        return path_error
    from .crash import write_crash_log

    details = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    log = write_crash_log(details)
    where = f" The details were saved to {log}." if log else ""
    return InternalError(
        f"Internal error: {type(exc).__name__}: {exc}",
        f"This is a bug in onnxpack, not a problem with your model.{where} Please report it.",
        details=details,
    )


class JobSignals(QObject):
    """Signals of one job; they live in the GUI thread, so slots run there (queued connections)."""

    started = Signal()
    progress = Signal(object)  # ProgressEvent
    succeeded = Signal(object)  # the job function's return value
    failed = Signal(object)  # OnnxpackError
    cancelled = Signal()
    finished = Signal()  # always emitted last, whatever the outcome


class Job(QRunnable):
    """One unit of work. ``kind`` and ``payload`` let the GUI route the outcome; ``token`` cancels it."""

    def __init__(self, fn: JobFunction, *, kind: str = "", payload: Any = None) -> None:
        super().__init__()
        self.setAutoDelete(False)  # Python keeps the reference (see JobQueue); avoids double deletion
        self.fn = fn
        self.kind = kind
        self.payload = payload
        self.token = CancelToken()
        self.signals = JobSignals()
        self.started_at: float | None = None
        self._last_emit: dict[str, float] = {}
        self._last_message: dict[str, str] = {}

    def _progress(self, ev: ProgressEvent) -> None:
        now = time.monotonic()
        last = self._last_emit.get(ev.stage)
        # Thin out per-chunk reports, but always pass the first and the final event of a stage, a stage's new start
        # (nothing done: a release's next model) and a report of new words ("model 2 of 2: PATH" can come right after
        # the first model's inspection ended: dropped, the Progress tab could not say which model runs).
        if (last is not None and now - last < PROGRESS_INTERVAL and 0 < ev.done < ev.total
                and ev.message == self._last_message.get(ev.stage)):
            return
        self._last_emit[ev.stage] = now
        self._last_message[ev.stage] = ev.message
        self.signals.progress.emit(ev)

    def run(self) -> None:
        self.started_at = time.monotonic()
        self.signals.started.emit()
        try:
            if self.token.cancelled:
                raise Cancelled()
            result = self.fn(self._progress, self.token)
        except Cancelled:
            self.signals.cancelled.emit()
        except OnnxpackError as e:
            if self.token.cancelled:
                self.signals.cancelled.emit()
            else:
                self.signals.failed.emit(e)
        except BaseException as e:  # a bug in the engine or GUI glue: never a bare traceback
            self.signals.failed.emit(internal_error(e))
        else:
            if self.token.cancelled:
                self.signals.cancelled.emit()
            else:
                self.signals.succeeded.emit(result)
        finally:
            self.signals.finished.emit()


class JobQueue(QObject):
    """A serial queue of jobs on its own thread pool: jobs run one after another, in submission order.

    Keep a reference (or a parent): destroying the queue waits for its jobs, like QThreadPool does.
    """

    def __init__(self, parent: QObject | None = None, *, threads: int = 1) -> None:
        super().__init__(parent)
        self._pool = QThreadPool(self)
        self._pool.setMaxThreadCount(threads)
        self._jobs: list[Job] = []  # queued or running, in order

    @property
    def jobs(self) -> list[Job]:
        return list(self._jobs)

    @property
    def busy(self) -> bool:
        return bool(self._jobs)

    def submit(self, job: Job) -> Job:
        self._jobs.append(job)
        # A bound method of this QObject (not a lambda) so the slot runs in the GUI thread (queued).
        job.signals.finished.connect(self._forget)
        self._pool.start(job)
        return job

    def _forget(self) -> None:
        signals = self.sender()
        self._jobs = [j for j in self._jobs if j.signals is not signals]

    def cancel(self, job: Job) -> None:
        """Cancel ``job``: a queued job is dropped at once, a running one stops at its next check."""
        job.token.cancel()
        if self._pool.tryTake(job):
            job.signals.cancelled.emit()
            job.signals.finished.emit()

    def cancel_all(self) -> None:
        for job in reversed(self._jobs):
            self.cancel(job)

    def wait(self, msecs: int = -1) -> bool:
        """Block until all jobs ended (for shutdown and tests); True when the pool is idle."""
        return bool(self._pool.waitForDone(msecs))
