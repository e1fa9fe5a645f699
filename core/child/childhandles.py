"""What the callers use of ``multiprocessing.Process``, over an exec'd child's ``Popen`` or a forked child's pid;
and the C stdio flush a forked child needs before ``os._exit``; whether this is a frozen app."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time

__all__ = ["CLEAR_REFS", "ExecProcess", "ForkProcess", "can_reset_peak", "flush_c_stdio", "frozen"]

#: Linux: writing "5" here resets this process's peak resident memory to what it holds now.
CLEAR_REFS = "/proc/self/clear_refs"


class ExecProcess:
    """The part of ``multiprocessing.Process`` the callers use, over a ``subprocess.Popen``."""

    def __init__(self, popen: subprocess.Popen[bytes]) -> None:
        self._popen = popen
        self.pid = popen.pid

    def is_alive(self) -> bool:
        return self._popen.poll() is None

    def kill(self) -> None:
        with contextlib.suppress(OSError):
            self._popen.kill()

    def join(self, timeout: float | None = None) -> None:
        with contextlib.suppress(subprocess.TimeoutExpired):
            self._popen.wait(timeout)

    @property
    def exitcode(self) -> int | None:
        return self._popen.poll()  # negative: killed by that signal, as multiprocessing says it

    def close(self) -> None:
        pass


class ForkProcess:
    """The part of ``multiprocessing.Process`` the callers use, over a forked child's pid."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self._code: int | None = None

    def _poll(self) -> int | None:
        if self._code is None:
            try:
                pid, status = os.waitpid(self.pid, os.WNOHANG)
            except ChildProcessError:  # pragma: no cover - reaped by someone else: it is gone
                self._code = -1
                return self._code
            if pid:
                self._code = os.waitstatus_to_exitcode(status)  # negative: killed by that signal
        return self._code

    def is_alive(self) -> bool:
        return self._poll() is None

    def kill(self) -> None:
        if self._poll() is None:
            with contextlib.suppress(OSError):
                os.kill(self.pid, signal.SIGKILL)

    def join(self, timeout: float | None = None) -> None:
        deadline = None if timeout is None else time.monotonic() + timeout
        while self._poll() is None and (deadline is None or time.monotonic() < deadline):
            time.sleep(0.002)

    @property
    def exitcode(self) -> int | None:
        return self._poll()

    def close(self) -> None:
        pass


def flush_c_stdio() -> None:
    """Flush the C library's stdio buffers: native code's ``printf``/``std::cout`` into a pipe is fully buffered
    (unless Python runs unbuffered, ``-u``), and ``os._exit`` drops what is left; a fork would copy it. POSIX only
    (on Windows a child ends by a normal exit, which flushes them)."""
    if os.name != "posix":
        return
    with contextlib.suppress(Exception):
        import ctypes

        ctypes.CDLL(None).fflush(None)


def frozen() -> bool:
    """True in a PyInstaller-style frozen app, whose ``sys.executable`` is the app, not Python."""
    return bool(getattr(sys, "frozen", False))


def can_reset_peak() -> bool:
    """Linux: a process can hand freed memory back (``malloc_trim``) and reset its peak resident memory to what it
    holds now (``clear_refs`` 5), so the smoke child measures the end user's loads itself (core/runtime/loadcost.py)
    and no load-cost process is started."""
    return sys.platform.startswith("linux") and os.access(CLEAR_REFS, os.W_OK)
