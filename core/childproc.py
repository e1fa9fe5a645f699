"""A 'spawn' child process started ahead of its job, so its imports overlap the parent's own work.

Importable without onnx, onnxruntime or numpy: the command line starts the smoke child first thing,
then imports the engine and validates the input while the child imports ONNX Runtime (on a 2-core
machine both take ~0.2 s; done one after the other they add up). Crash and time-out handling is the
caller's (:func:`core.smoke.run_in_child`).
"""

from __future__ import annotations

import contextlib
import importlib
import multiprocessing
import os
import shutil
import sys
import tempfile
from collections.abc import Callable
from typing import Any

from .atomic import make_temp_dir

__all__ = ["ChildProcess", "enter_child", "reap_children", "target_name", "wait_for_job"]

#: Environment variables that name the temporary folder (POSIX, Windows).
_TMP_VARS = ("TMPDIR", "TMP", "TEMP")


def enter_child(private_tmp: str) -> None:
    """First thing in a child: keep our stdout ours and temporary files in a folder the parent removes.

    Native code writes to file descriptor 1 behind Python's back (the onnx checker prints "Warning: Model
    contains experimental ops"); in a child that shares the terminal or pipe, that text would land inside
    ``--json`` output. So descriptor 1 is pointed at stderr (or the null device when there is none).
    ONNX Runtime creates files in the temporary folder on import (``.ses`` since 1.32) and never removes
    them; giving the child a private one means they go when the folder goes.
    """
    for var in _TMP_VARS:
        os.environ[var] = private_tmp
    tempfile.tempdir = private_tmp
    with contextlib.suppress(Exception):
        sys.stdout.flush()
    try:
        err_fd = sys.stderr.fileno() if sys.stderr is not None else -1
    except (AttributeError, OSError, ValueError):
        err_fd = -1
    try:
        if err_fd >= 0:
            os.dup2(err_fd, 1)
        else:
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, 1)
            os.close(null)
    except OSError:  # no descriptor 1 to replace (a windowed app): nothing can leak into it either
        pass
    sys.stdout = sys.stderr


def target_name(target: Callable[..., Any]) -> str:
    """``module:function`` of a module-level function (what the child imports to find it)."""
    return f"{target.__module__}:{target.__qualname__}"


def _resolve(name: str) -> Callable[[Any, dict[str, Any]], None]:
    module, _, attr = name.partition(":")
    fn: Callable[[Any, dict[str, Any]], None] = getattr(importlib.import_module(module), attr)
    return fn


class ChildProcess:
    """A child that imports onnx and onnxruntime, then waits for one job and runs ``target(conn, job)``.

    ``target`` is ``"module:function"``. Results come back on :attr:`recv_conn`. A child whose job never
    comes (bad input, cancellation) is stopped by :meth:`discard`; if the parent dies, the job pipe
    closes and the waiting child exits on its own.
    """

    def __init__(self, target: str) -> None:
        ctx = multiprocessing.get_context("spawn")
        job_recv, self._job_send = ctx.Pipe(duplex=False)
        self.recv_conn, send_conn = ctx.Pipe(duplex=False)
        self.target = target
        self.tmp: str | None = str(make_temp_dir("child"))
        self.proc: Any = ctx.Process(target=wait_for_job, args=(target, job_recv, send_conn, self.tmp),
                                     daemon=True, name="onnxpack-child")
        self.proc.start()
        send_conn.close()
        job_recv.close()

    def send_job(self, job: dict[str, Any]) -> None:
        """Hand over the job; a child that already died shows up in the caller's wait loop."""
        try:
            self._job_send.send(job)
        except (OSError, EOFError):  # BrokenPipeError: the child is gone; the caller reports how it ended
            pass
        finally:
            self._job_send.close()

    def discard(self) -> None:
        """Stop the child (if still running) and release its pipes; safe to call more than once."""
        if self.proc is None:
            return
        if self.proc.is_alive():
            self.proc.kill()
        self.proc.join(5)
        self._job_send.close()
        self.recv_conn.close()
        if not self.proc.is_alive():
            self.proc.close()
            self.proc = None
        if self.tmp is not None:
            shutil.rmtree(self.tmp, ignore_errors=True)
            self.tmp = None


def wait_for_job(target: str, job_conn: Any, conn: Any, private_tmp: str) -> None:
    """Entry point of the child: import the heavy modules, wait for the job, run it; exit quietly if
    the parent closes the pipe first."""
    enter_child(private_tmp)
    import onnx  # noqa: F401  # imported now, while the parent validates the input
    import onnxruntime  # noqa: F401

    try:
        job = job_conn.recv()
    except (EOFError, OSError):  # the parent gave up (bad input, cancelled) or died: clean up after it
        shutil.rmtree(private_tmp, ignore_errors=True)
        return
    finally:
        job_conn.close()
    _resolve(target)(conn, job)


def reap_children(timeout: float = 5.0) -> None:
    """Wait for every child this process started, before it exits: the workers and multiprocessing's tracker.

    A ``spawn`` child makes multiprocessing start its resource-tracker process, which outlives the command's
    work and is only waited for by nobody: where the process that runs us does not reap orphans (a container
    whose PID 1 is not an init, a CI step), it stays behind as a zombie ``python3``. Closing its pipe makes it
    exit; waiting for it reaps it (``ResourceTracker._stop`` is what CPython's own tests use for exactly this).
    """
    for child in multiprocessing.active_children():  # also joins the finished ones
        child.join(timeout)
        if child.is_alive():
            child.kill()
            child.join(timeout)
    from multiprocessing import resource_tracker

    tracker = getattr(resource_tracker, "_resource_tracker", None)
    stop = getattr(tracker, "_stop", None)
    if stop is not None:
        with contextlib.suppress(Exception):  # best effort: never turn a finished command into a failure
            stop()
