"""A child process started ahead of its job, so its imports overlap the parent's own work.

Importable without onnx, onnxruntime or numpy: the command line starts the child first thing (forked on Linux,
see :func:`start_method`, once it has imported onnx itself), then imports the engine and validates the input while
the child imports ONNX Runtime (a noticeable part of a small model's run; done one after the other they add up). A
child runs tasks (the onnx checker) and then at most one job (the smoke run). Crash and time-out handling
is the caller's (:func:`core.runtime.smoke.run_in_child`, :func:`core.checks.checker_child.run_in_child`). What a
child runs itself is core/child/childmain.py; :func:`start_ahead` starts a child before the code that needs it asks.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
import threading
from collections.abc import Callable
from typing import Any

from ..atomic import make_temp_dir
from .childask import ASKS
from .childhandles import ExecProcess, ForkProcess, flush_c_stdio, frozen
from .childmain import ORT_TELEMETRY_VAR, PRELOAD, enter_child, wait_for_job

__all__ = [
    "ASKS",
    "FORK_MAX_RESIDENT",
    "ORT_TELEMETRY_VAR",
    "PRELOAD",
    "SMOKE_TARGET",
    "START_METHOD",
    "ChildProcess",
    "child_environ",
    "child_for",
    "discard_ahead",
    "enter_child",
    "hidden_vars",
    "hide_from_children",
    "reap_children",
    "start_ahead",
    "start_method",
    "target_name",
    "wait_for_job",
]

#: Environment variables that hold secrets (see :func:`hide_from_children`).
_HIDDEN: set[str] = set()
#: The smoke child's entry point (named, so that starting the child imports none of its code here).
SMOKE_TARGET = "onnxpack.core.runtime.smoke_child:child_main"


def hide_from_children(*names: str | None) -> None:
    """Keep these environment variables (a signing key's password, an OIDC identity token) from every child started
    from now on, for the rest of this process: an exec'd child and every subprocess gets :func:`child_environ`; no
    child is forked (a copy of this process would hold the values); a spawned one (Windows) removes them from its
    environment first thing, before it imports onnx or onnxruntime or reads a model."""
    _HIDDEN.update(_env_key(n) for n in names if n)


def _env_key(name: str) -> str:
    return name.upper() if os.name == "nt" else name  # Windows: names are case-insensitive


def hidden_vars() -> frozenset[str]:
    """The variables :func:`hide_from_children` was given."""
    return frozenset(_HIDDEN)


def child_environ() -> dict[str, str]:
    """The environment a child or subprocess gets: this process's, without the variables holding secrets, and with
    ONNX Runtime's telemetry off (:data:`ORT_TELEMETRY_VAR`) unless the user said otherwise."""
    env = {k: v for k, v in os.environ.items() if _env_key(k) not in _HIDDEN}
    env.setdefault(ORT_TELEMETRY_VAR, "1")
    return env


def target_name(target: Callable[..., Any]) -> str:
    """``module:function`` of a module-level function (what the child imports to find it)."""
    return f"{target.__module__}:{target.__qualname__}"


#: How children start: "fork" (Linux, a process with one thread: a copy of this one, which has imported onnxpack
#: already), "exec" (a plain ``python -c`` with two pipes: POSIX, not frozen) or "spawn" (multiprocessing's: Windows
#: and frozen apps, whose ``sys.executable`` is the app and whose entry point calls
#: ``multiprocessing.freeze_support()``). None: the platform's choice; tests set it to run each.
START_METHOD: str | None = None


def start_method() -> str:
    """``"fork"``, ``"exec"`` or ``"spawn"`` (see :data:`START_METHOD`).

    Why not spawn everywhere: on Linux a spawn child also makes multiprocessing start its resource tracker (one more
    interpreter, CPU time while the parent and the child import, and a wait for it at exit) and runs
    multiprocessing's bootstrap in the child: together a large share of a small model's bundle (docs/performance.md).
    Why fork first: an exec child starts Python and imports onnxpack before it can import
    onnx, all on the critical path of a small model's bundle; a fork child starts there. Only a process with one
    thread forks (the command line, before the engine's imports: no native thread either), so that no lock another
    thread held is copied locked; any other (the desktop app, a caller's threads, numpy's BLAS pool) execs.
    The child and its isolation are the same either way: its own process, pipes, a private folder, a time limit.
    """
    method = START_METHOD or _platform_method()
    return "exec" if method == "fork" and _HIDDEN else method  # a copy of this process would hold the secrets


def _platform_method() -> str:
    exec_ok = os.name == "posix" and not frozen() and bool(sys.executable)
    if not exec_ok:
        return "spawn"
    return "fork" if _one_thread() and _resident_bytes() <= FORK_MAX_RESIDENT else "exec"


#: A process holding more than this in memory does not fork: every page either process writes afterwards is copied
#: (Python's reference counts write to every object touched), and the copy would not be shared for long. The
#: bound lies well above what the command line and a bundle's checker child hold when they fork, and well below a
#: huge model's parsed structure (measured: docs/performance.md).
FORK_MAX_RESIDENT = 512 * 2**20


def _resident_bytes() -> int:
    """This process's resident memory (Linux: /proc/self/statm); unknown: as if too large."""
    try:
        with open("/proc/self/statm", "rb") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return FORK_MAX_RESIDENT + 1


def _one_thread() -> bool:
    """This process runs one thread, native ones included (Linux: /proc/self/task)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        return len(os.listdir("/proc/self/task")) == 1
    except OSError:
        return False


#: Exec and fork children stopped and not yet waited for (see :meth:`ChildProcess.discard`).
_DYING: list[ExecProcess | ForkProcess] = []
_DYING_LOCK = threading.Lock()


def _reap_dying(timeout: float = 0.0) -> None:
    """Wait (up to ``timeout`` each; 0: only collect those already gone) for stopped exec children."""
    with _DYING_LOCK:
        for proc in list(_DYING):
            proc.join(timeout)
            if not proc.is_alive():
                _DYING.remove(proc)


def _exec_child(target: str, private_tmp: str, preload: tuple[str, ...]) -> tuple[ExecProcess, Any, Any]:
    """Start ``python -c`` running :func:`childmain.exec_main` with the job pipe's read end and the result pipe's
    write end."""
    from multiprocessing.connection import Connection

    job_r, job_w = os.pipe()
    res_r, res_w = os.pipe()
    try:
        # The parent's sys.path, as spawn gives it (relative entries made absolute: the child starts elsewhere).
        path = [os.path.abspath(p) for p in sys.path]
        argv = [sys.executable, *subprocess._args_from_interpreter_flags(),  # type: ignore[attr-defined]
                "-c", "from onnxpack.core.child.childmain import exec_main; exec_main()",
                str(job_r), str(res_w), private_tmp, target, ",".join(preload), json.dumps(path)]
        # Started in its private (empty) folder: "python -c" looks for modules in its current folder first, and
        # that must not be a model's folder (a hostile one could hold an onnxpack/ or numpy/ of its own).
        popen = subprocess.Popen(argv, pass_fds=(job_r, res_w), close_fds=True, cwd=private_tmp,
                                 env=child_environ())  # fmt: skip
    except BaseException:
        for fd in (job_w, res_r):
            os.close(fd)
        raise
    finally:
        os.close(job_r)
        os.close(res_w)
    return ExecProcess(popen), Connection(job_w, readable=False), Connection(res_r, writable=False)


def _fork_child(target: str, private_tmp: str, preload: tuple[str, ...]) -> tuple[ForkProcess, Any, Any]:
    """Fork a child that runs :func:`wait_for_job` in its private folder with the job pipe's read end and the result
    pipe's write end, and ends with ``os._exit`` (never returning into the caller's code, never flushing its copies
    of the caller's buffers)."""
    from multiprocessing.connection import Connection

    job_r, job_w = os.pipe()
    res_r, res_w = os.pipe()
    for stream in (sys.stdout, sys.stderr):  # nothing buffered may be written twice
        with contextlib.suppress(Exception):
            stream.flush()
    flush_c_stdio()
    try:
        pid = os.fork()
    except BaseException:
        for fd in (job_r, job_w, res_r, res_w):
            os.close(fd)
        raise
    if pid == 0:  # pragma: no cover - the child (its coverage is not collected)
        os.close(job_w)  # the parent's ends: were the job pipe's write end open here, a dead parent would go unseen
        os.close(res_r)
        _forked_main(job_r, res_w, target, private_tmp, preload)
    os.close(job_r)
    os.close(res_w)
    return ForkProcess(pid), Connection(job_w, readable=False), Connection(res_r, writable=False)


def _forked_main(job_r: int, res_w: int, target: str, private_tmp: str,
                 preload: tuple[str, ...]) -> None:  # pragma: no cover - runs in the forked child
    """The forked child: only its own pipe ends and the standard descriptors stay open, in its private folder."""
    from multiprocessing.connection import Connection

    code = 0
    try:
        keep = {0, 1, 2, job_r, res_w}
        with contextlib.suppress(OSError):
            for name in os.listdir("/proc/self/fd"):  # the parent's files and pipe ends: not the child's
                if int(name) not in keep:
                    with contextlib.suppress(OSError):
                        os.close(int(name))
        os.chdir(private_tmp)
        wait_for_job(target, Connection(job_r, writable=False), Connection(res_w, readable=False), private_tmp,
                     preload)  # fmt: skip
    except KeyboardInterrupt:  # Ctrl-C reaches the whole process group: the parent says "Interrupted."
        code = 130
    except BaseException:
        code = 1
        with contextlib.suppress(Exception):
            import traceback

            traceback.print_exc()
    finally:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):
                stream.flush()
        flush_c_stdio()  # native code's output (the onnx checker's std::cout), which os._exit would drop
        os._exit(code)



class ChildProcess:
    """A child that imports onnx and onnxruntime, then runs small *tasks* and at most one job.

    ``target`` is ``"module:function"``; its module is imported in the child while it waits (with the libraries),
    so the job starts at once. Before the job, :meth:`send_task` may hand it tasks (``"module:function"`` called as
    ``func(private_tmp, *args)``, e.g. the onnx checker), one after the other: one process, one import of the
    libraries, instead of a process per step. A task's answer comes back on :attr:`recv_conn` as
    ``("task", ("ok", value))`` or ``("task", ("error", text))``; the job (:meth:`send_job`) then runs
    ``target(conn, job)`` and the child ends. A child whose job never comes (bad input, cancellation) is stopped by
    :meth:`discard`; if the parent dies, the job pipe closes and the waiting child exits on its own.

    ``preload``: the modules the child imports before it waits (default onnx and onnxruntime). ``target`` ``""``:
    a child for tasks only (the onnx checker of ``onnxpack check``). ``fork=False``: never a copy of this process
    (exec or spawn), for a child whose own memory is measured (core/runtime/loadcost.py).
    """

    def __init__(self, target: str, preload: tuple[str, ...] = PRELOAD, *, fork: bool = True) -> None:
        _reap_dying()  # the ones an earlier run stopped (a long-lived GUI starts many)
        ahead = _adopt(target, preload, fork)
        if ahead is not None:  # the same child, started earlier (start_ahead): this object owns it now
            self.__dict__.update(ahead.__dict__)
            ahead.proc = ahead.tmp = None
            return
        self.target, self.preload = target, preload
        self._lock = threading.Lock()
        #: The job was sent: the child runs it and ends; it takes no more tasks.
        self.job_sent = False
        #: What answers the job's questions (core/child/childask.py); None: the job may not ask.
        self.answers: Callable[[Any], Any] | None = None
        self.tmp: str | None = str(make_temp_dir("child"))
        self.proc: Any
        #: The secret variables hidden from this child (see :func:`hide_from_children`).
        self.hidden = hidden_vars()
        method = start_method()
        if method == "fork" and not fork:  # a fresh process, not a copy of this one (its memory is measured)
            method = "exec"
        self.forked = method == "fork"
        if method == "fork":
            self.proc, self._job_send, self.recv_conn = _fork_child(target, self.tmp, preload)
            return
        if method == "exec":
            self.proc, self._job_send, self.recv_conn = _exec_child(target, self.tmp, preload)
            return
        import multiprocessing

        ctx = multiprocessing.get_context("spawn")
        job_recv, self._job_send = ctx.Pipe(duplex=False)
        self.recv_conn, send_conn = ctx.Pipe(duplex=False)
        self.proc = ctx.Process(target=wait_for_job, args=(target, job_recv, send_conn, self.tmp, preload,
                                                           tuple(self.hidden)),
                                daemon=True, name="onnxpack-child")  # fmt: skip
        self.proc.start()
        send_conn.close()
        job_recv.close()

    @property
    def usable(self) -> bool:
        """Still running and waiting for work (no job sent yet)."""
        proc = self.proc
        try:
            return proc is not None and not self.job_sent and bool(proc.is_alive())
        except ValueError:  # closed by discard() in another thread
            return False

    def send_task(self, func: str, *args: Any) -> bool:
        """Hand the child one task (``"module:function"``); False when the child is gone or already has its job."""
        if not self.usable:
            return False
        try:
            self._job_send.send(("task", func, args))
        except (OSError, EOFError, ValueError):  # the child is gone (ValueError: the pipe was closed)
            return False
        return True

    def send_job(self, job: dict[str, Any]) -> None:
        """Hand over the job (the pipe stays open for :meth:`answer` when it has ``ASKS``); a child that already died
        shows up in the caller's wait loop."""
        self.job_sent = True
        try:
            self._job_send.send(job)
        except (OSError, EOFError, ValueError):  # BrokenPipeError: the child is gone; the caller reports how it ended
            pass
        finally:
            if not job.get(ASKS):
                self._job_send.close()

    def answer(self, value: Any) -> None:
        """Answer the job's question (:func:`ask_parent`); a child gone shows up in the caller's wait loop."""
        with contextlib.suppress(OSError, EOFError, ValueError):
            self._job_send.send(("answer", value))

    def end(self, timeout: float = 10.0) -> None:
        """No job will come: close the job pipe and wait (up to ``timeout``) for the child to exit on its own."""
        with self._lock:
            self._job_send.close()
            if self.proc is not None:
                self.proc.join(timeout)

    def discard(self) -> None:
        """Stop the child (if still running) and release its pipes; safe to call more than once, from any thread
        (a task's waiter stops a child that timed out while its owner may be stopping it too)."""
        with self._lock:
            proc = self.proc
            if proc is None:
                return
            if proc.is_alive():
                proc.kill()
            if isinstance(proc, ExecProcess | ForkProcess):
                # Waited for later (by the next child, a discard, reap_children): the kernel takes tens of ms to
                # tear down a process holding onnxruntime, and the caller's remaining work overlaps that.
                with _DYING_LOCK:
                    _DYING.append(proc)
                self.proc = None
            else:
                proc.join(5)
                if not proc.is_alive():
                    proc.close()
                    self.proc = None
            self._job_send.close()
            self.recv_conn.close()
            if self.tmp is not None:
                shutil.rmtree(self.tmp, ignore_errors=True)
                self.tmp = None


#: Children started by :func:`start_ahead` that no ChildProcess has adopted yet (a release's models are bundled
#: two at a time: both may ask).
_AHEAD: list[ChildProcess] = []
_AHEAD_LOCK = threading.Lock()


def start_ahead(target: str, preload: tuple[str, ...], *, fork: bool = True) -> None:
    """Start a child now, for the first later ``ChildProcess(target, preload, fork=fork)`` to adopt instead of
    starting one, so that its start and its imports overlap this process's own (the command line starts a bundle's
    load-cost child first thing: core/runtime/loadcost.py would start it only once the model is merged). A child
    that cannot start is simply not there to adopt. :func:`discard_ahead` stops those never adopted."""
    with contextlib.suppress(OSError):
        child = ChildProcess(target, preload, fork=fork)
        with _AHEAD_LOCK:
            _AHEAD.append(child)


def _adopt(target: str, preload: tuple[str, ...], fork: bool) -> ChildProcess | None:
    """The child started ahead for this request, taken off the list: same target and imports, a fresh process when
    one was asked for (``fork`` False), still waiting for work, and started after every variable hidden from
    children since (:func:`hide_from_children`) was hidden. None when there is none."""
    with _AHEAD_LOCK:
        for child in _AHEAD:
            if (child.target, child.preload) == (target, preload) and (fork or not child.forked) and child.usable \
                    and hidden_vars() <= child.hidden:
                _AHEAD.remove(child)
                return child
    return None


def discard_ahead() -> None:
    """Stop the children :func:`start_ahead` started that nothing adopted."""
    with _AHEAD_LOCK:
        left = list(_AHEAD)
        _AHEAD.clear()
    for child in left:
        child.discard()


def child_for(target: str, child: ChildProcess | None, *secret_vars: str | None) -> ChildProcess:
    """``child`` (of ``target``, started early by the caller), or a new one when there is none or it was started
    before ``secret_vars`` were hidden from children (:func:`hide_from_children`, which this calls)."""
    hide_from_children(*secret_vars)
    if child is not None and not {_env_key(n) for n in secret_vars if n} <= child.hidden:
        child.discard()  # it has them
        child = None
    return child if child is not None else ChildProcess(target)


def reap_children(timeout: float = 5.0) -> None:
    """Wait for every child this process started, before it exits: the workers and multiprocessing's tracker.

    A ``spawn`` child makes multiprocessing start its resource-tracker process, which outlives the command's
    work and is only waited for by nobody: where the process that runs us does not reap orphans (a container
    whose PID 1 is not an init, a CI step), it stays behind as a zombie ``python3``. Closing its pipe makes it
    exit; waiting for it reaps it (``ResourceTracker._stop`` is what CPython's own tests use for exactly this).
    """
    discard_ahead()
    _reap_dying(timeout)
    multiprocessing = sys.modules.get("multiprocessing")
    if multiprocessing is None:  # never imported: no spawn child, no tracker
        return
    for child in multiprocessing.active_children():  # also joins the finished ones
        child.join(timeout)
        if child.is_alive():
            child.kill()
            child.join(timeout)
    # a tracker runs only where multiprocessing started one, which imported its module (not imported here: 10 ms at
    # every command's exit for nothing)
    resource_tracker = sys.modules.get("multiprocessing.resource_tracker")
    tracker = getattr(resource_tracker, "_resource_tracker", None)
    stop = getattr(tracker, "_stop", None)
    if stop is not None:
        with contextlib.suppress(Exception):  # best effort: never turn a finished command into a failure
            stop()
