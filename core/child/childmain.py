"""The child's side of core/child/childproc.py: what a child runs from its start until its job ends.

Apart from the standard library this module imports nothing (``onnxpack.core`` and its ``child`` package import
nothing on their own), so that a child started by exec (``python -c``, see :func:`exec_main`) imports no more of
onnxpack than its job needs before it imports onnx or ONNX Runtime. childproc.py re-exports these names.
"""

from __future__ import annotations

import contextlib
import gc
import importlib
import json
import os
import shutil
import sys
import tempfile
from collections.abc import Callable
from typing import Any

from .childask import ASKS, asking

__all__ = ["ORT_TELEMETRY_VAR", "PRELOAD", "enter_child", "exec_main", "wait_for_job"]

#: Environment variables that name the temporary folder (POSIX, Windows).
_TMP_VARS = ("TMPDIR", "TMP", "TEMP")
#: ONNX Runtime's own telemetry (1.29+ on Linux and macOS: a device id and an event store written into the user's
#: cache folder, events uploaded to Microsoft) is off wherever onnxpack runs it, unless the user set this variable.
ORT_TELEMETRY_VAR = "ORT_DISABLE_TELEMETRY"
#: What a child imports before it waits for work: the checker needs onnx, the smoke run onnxruntime.
PRELOAD = ("onnx", "onnxruntime")


def enter_child(private_tmp: str, hidden: tuple[str, ...] = ()) -> None:
    """First thing in a child: keep our stdout ours and temporary files in a folder the parent removes.

    Native code writes to file descriptor 1 behind Python's back (the onnx checker prints "Warning: Model
    contains experimental ops"); in a child that shares the terminal or pipe, that text would land inside
    ``--json`` output. So descriptor 1 is pointed at stderr (or the null device when there is none).
    ONNX Runtime creates files in the temporary folder on import (``.ses`` since 1.32) and never removes
    them; giving the child a private one means they go when the folder goes.
    """
    for var in hidden:  # a spawned child's copy of the parent's secrets (see hide_from_children)
        os.environ.pop(var, None)
    os.environ.setdefault(ORT_TELEMETRY_VAR, "1")  # before onnxruntime is imported: it reads it once, at start
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


def _resolve(name: str) -> Callable[[Any, dict[str, Any]], None]:
    module, _, attr = name.partition(":")
    fn: Callable[[Any, dict[str, Any]], None] = getattr(importlib.import_module(module), attr)
    return fn


def _no_core_files() -> None:
    """A native crash in a child must not leave a core file behind (where the platform allows saying so)."""
    try:
        import resource

        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    except (ImportError, ValueError, OSError):
        pass


def _run_task(conn: Any, func: str, args: tuple[Any, ...], private_tmp: str) -> None:
    """One task in the child, with the private folder as current directory (a library that resolves a relative
    path on its own finds nothing of ours there); its value or its error goes back as text."""
    here = os.getcwd()
    try:
        os.chdir(private_tmp)
        try:
            reply: tuple[str, Any] = ("ok", _resolve(func)(private_tmp, *args))
        finally:
            os.chdir(here)
    except Exception as e:  # everything goes back to the parent as text
        reply = ("error", f"{type(e).__name__}: {e}")
    try:
        conn.send(("task", reply))
    except Exception as e:  # a value that cannot be pickled
        conn.send(("task", ("error", f"{type(e).__name__}: {e}")))


def wait_for_job(target: str, job_conn: Any, conn: Any, private_tmp: str,
                 preload: tuple[str, ...] = PRELOAD, hidden: tuple[str, ...] = ()) -> None:
    """Entry point of the child: import the heavy modules, the target's and those its module names in
    ``IMPORT_AHEAD`` (what its job would import later), run the tasks that come, then the job; exit quietly if the
    parent closes the pipe first. ``hidden``: environment variables to drop first (spawn)."""
    _no_core_files()
    enter_child(private_tmp, hidden)
    for name in preload:  # imported now, while the parent imports and validates
        importlib.import_module(name)
    run = _resolve(target) if target else None  # "": a child for tasks only
    # and what the target's job would import later (its module's IMPORT_AHEAD), off the job's critical path
    for name in getattr(sys.modules.get(run.__module__), "IMPORT_AHEAD", ()) if run is not None else ():
        importlib.import_module(name)
    # What the imports made lives as long as the child: out of the collector's way, a gc.collect() in the job (the
    # smoke run's, between two sessions) walks none of it.
    gc.freeze()
    try:
        while True:
            try:
                job = job_conn.recv()
            except (EOFError, OSError):  # no job (a task-only child, bad input, cancelled) or the parent died
                shutil.rmtree(private_tmp, ignore_errors=True)
                gc.freeze()  # the child ends now: its final collections need not walk what the imports made
                return
            if isinstance(job, tuple) and job and job[0] == "task":
                _run_task(conn, job[1], job[2], private_tmp)
                continue
            break
        if not (isinstance(job, dict) and job.get(ASKS)):
            job_conn.close()
        with asking(conn, job_conn):  # the job may ask the parent (ask_parent): answers come on the job pipe
            if run is not None:
                run(conn, job)
    finally:
        job_conn.close()


def exec_main() -> None:
    """The child's entry point under the "exec" start method (the parent's ``sys.path``, as spawn gives it)."""
    from multiprocessing.connection import Connection

    job_fd, res_fd, private_tmp, target, preload, path = sys.argv[1:7]
    sys.path[:] = json.loads(path)
    wait_for_job(target, Connection(int(job_fd), writable=False), Connection(int(res_fd), readable=False),
                 private_tmp, tuple(p for p in preload.split(",") if p))
