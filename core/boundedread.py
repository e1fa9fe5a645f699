"""Read a small input file whole, with a bound: a regular file only, at most ``limit`` bytes.

For the files a user names besides the model (``--target-app``, ``--sign-key``, ``--labels-file``, certificates):
``/dev/zero`` must not fill memory, a FIFO must not block the run, a folder or a 1 GB file must be refused by its
name. As the model (core/model/modelfile.py ``require_regular_file``) and external data
(core/model/extdata/extreader.py) are: ``os.stat`` before opening, ``O_NONBLOCK`` so that a FIFO swapped in meanwhile
cannot block the open, ``fstat`` of what was opened, and a read that stops one byte past the limit (a file growing
meanwhile).

A refusal is a :class:`BoundedReadError`, an :class:`OSError` whose ``strerror`` says why in words that follow
"Cannot read FILE: ": the callers already turn an ``OSError`` into their own error with its ``strerror``.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

__all__ = ["BoundedReadError", "read_bounded", "size_words"]

_CHUNK = 1 << 20


class BoundedReadError(OSError):
    """A file refused before (or while) reading it: not a regular file, or larger than allowed."""


def size_words(n: int) -> str:
    """``16 MiB``, ``512 KiB``, ``100 bytes``: a limit in words."""
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= size and n % size == 0:
            return f"{n // size} {unit}"
    return f"{n:,} bytes"


def _check(st: os.stat_result, limit: int) -> None:
    if stat.S_ISDIR(st.st_mode):
        raise BoundedReadError(errno.EISDIR, "it is a folder, not a file")
    if not stat.S_ISREG(st.st_mode):
        raise BoundedReadError(errno.EINVAL, "not a regular file (a FIFO, device or socket)")
    if st.st_size > limit:
        raise BoundedReadError(errno.EFBIG, f"{st.st_size:,} bytes, larger than the {size_words(limit)} read for "
                                            "this kind of file")


def read_bounded(path: str | os.PathLike[str], limit: int) -> bytes:
    """The bytes of ``path``; :class:`BoundedReadError` (an OSError) when it is no regular file or holds more than
    ``limit`` bytes, another OSError when it cannot be opened."""
    p = Path(path)
    _check(os.stat(p), limit)
    flags = os.O_RDONLY | getattr(os, "O_BINARY", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(p, flags)
    try:
        _check(os.fstat(fd), limit)  # what was opened, not what was stat'ed (a path swapped meanwhile)
        chunks: list[bytes] = []
        total = 0
        while total <= limit:
            chunk = os.read(fd, min(_CHUNK, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        if total > limit:
            raise BoundedReadError(errno.EFBIG, f"more than the {size_words(limit)} read for this kind of file "
                                                "(it grew while being read)")
        return b"".join(chunks)
    finally:
        os.close(fd)
