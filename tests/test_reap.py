"""The command leaves no process behind: every child (workers, multiprocessing's tracker) is reaped before exit."""

from __future__ import annotations

import ctypes
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

PR_SET_CHILD_SUBREAPER = 36


def _children(pid: int) -> list[str]:
    out = subprocess.run(["ps", "-o", "pid=,stat=,args=", "--ppid", str(pid)], capture_output=True, text=True).stdout
    return [ln.strip() for ln in out.splitlines() if ln.strip() and "ps -o" not in ln]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="orphans and zombies are a POSIX matter; "
                    "the test needs Linux's child-subreaper to see them")
def test_bundle_leaves_no_orphan_or_zombie(tmp_path: Path) -> None:
    # Become the subreaper: whatever the command leaves behind is re-parented to this process, where ps sees it.
    libc = ctypes.CDLL(None, use_errno=True)
    assert libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    try:
        before = set(_children(os.getpid()))
        proc = subprocess.run(
            [sys.executable, "-m", "onnxpack.cli", "bundle", "-o", str(tmp_path / "out"), "--version", "1.0.0", "-q"],
            capture_output=True, text=True, timeout=300,
        )
        assert proc.returncode == 0, proc.stderr
        time.sleep(0.5)  # an orphan that is still exiting would show up as a child of ours now
        left = [c for c in _children(os.getpid()) if c not in before]
        assert left == [], left
    finally:
        libc.prctl(PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0)


def test_reaping_imports_no_tracker_that_was_never_started() -> None:
    """A command that started no spawn child has no resource tracker: reaping at exit does not import its module
    (about 10 ms at every command's exit) to find none."""
    code = ("import multiprocessing, sys\n"
            "from onnxpack.core.child.childproc import reap_children\n"
            "reap_children()\n"
            "print('multiprocessing.resource_tracker' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"
