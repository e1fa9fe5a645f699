"""Copying a byte range of one file into another in the kernel where the system can."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from typing import Any, BinaryIO

from .progress import CancelToken, check_cancel

__all__ = ["copy_range"]


def copy_range(
    src: BinaryIO,
    fd: int,
    offset: int,
    length: int,
    chunk: int = 64 * 2**20,
    cancel: CancelToken | None = None,
    on_chunk: Callable[[int], Any] | None = None,
) -> int:
    """Copy ``length`` bytes of ``src`` from ``offset`` to the regular file ``fd`` at its current position.

    Uses ``os.copy_file_range`` (Linux), else ``os.sendfile``, else read+write; cancellation is checked and
    ``on_chunk(n)`` called between chunks. Returns the bytes copied: fewer than ``length`` only when ``src`` ended
    early (the caller says what that means)."""
    fileno = src.fileno()
    pos, remaining = offset, length
    kernel_copy = getattr(os, "copy_file_range", None)
    while remaining > 0:
        check_cancel(cancel)
        n = min(chunk, remaining)
        done = 0
        if kernel_copy is not None:
            try:
                done = kernel_copy(fileno, fd, n, pos)
            except OSError:  # EXDEV on old kernels, ENOSYS, EOPNOTSUPP...: use the next method
                kernel_copy = None
        if kernel_copy is None and hasattr(os, "sendfile") and sys.platform.startswith("linux"):
            try:
                done = os.sendfile(fd, fileno, pos, n)
            except OSError:
                done = 0
        if done <= 0:
            src.seek(pos)
            data = src.read(n)
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
            done = len(data)
        if done <= 0:
            break
        pos += done
        remaining -= done
        if on_chunk is not None:
            on_chunk(done)
    return length - remaining
