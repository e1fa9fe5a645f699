"""One whole-file hash reader for every stage: a small reused buffer, cancellable between chunks."""

from __future__ import annotations

import os
from dataclasses import dataclass

from .progress import CancelToken, check_cancel

__all__ = ["CHUNK", "FileDigest", "hash_file", "sha256_file"]

#: One small reused buffer: it stays in the CPU cache and no fresh pages are faulted in per read (a memory map of
#: the whole file would count the file's pages in the process's RSS).
CHUNK = 2**20


@dataclass(frozen=True)
class FileDigest:
    """A file's size in bytes and the hex digest of its content."""

    size: int
    hexdigest: str


def hash_file(path: str | os.PathLike[str], algorithm: str = "sha256", cancel: CancelToken | None = None, *,
              offset: int = 0, length: int | None = None) -> FileDigest:
    """Hash ``path`` whole with ``algorithm`` (hashlib's name); raises Cancelled between chunks when ``cancel`` is set.
    ``offset``/``length``: only that byte range (``size`` is then the bytes read: fewer when the file ended first).

    SHA-1 (onnx's external-data ``checksum``) is asked for as not for security: it checks integrity, and FIPS builds
    refuse it otherwise.
    """
    import hashlib  # (not at the top: `inspect` hashes nothing and need not import OpenSSL's module)

    h = hashlib.new(algorithm, usedforsecurity=algorithm != "sha1")
    buf = bytearray(CHUNK if length is None else min(CHUNK, length))
    view = memoryview(buf)
    size = 0
    with open(path, "rb", buffering=0) as f:  # a file object of its own: positional reads on every system
        if offset:
            f.seek(offset)
        while length is None or size < length:
            got = f.readinto(view if length is None else view[: min(len(buf), length - size)])
            if not got:
                break
            check_cancel(cancel)
            h.update(view[:got])
            size += got
    return FileDigest(size, h.hexdigest())


def sha256_file(path: str | os.PathLike[str], cancel: CancelToken | None = None) -> FileDigest:
    """:func:`hash_file` with SHA-256."""
    return hash_file(path, "sha256", cancel)
