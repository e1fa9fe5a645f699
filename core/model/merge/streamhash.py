"""SHA-256 of whole external data files, computed from the chunks a merge reads anyway (one read, not two).

:class:`SequentialHasher` is an :class:`ExternalDataReader` observer: it receives every
chunk the reader reads, hashes a file's chunks while they arrive in increasing offset order, reads the
bytes between them (alignment padding, unreferenced regions) itself through the same reader, and the
tail after the last tensor in :meth:`SequentialHasher.finish`. A file whose chunks go backwards
(tensors out of file order, overlapping or shared regions) is dropped: the caller hashes it separately.
Large chunks are hashed on a helper thread (SHA-256 releases the GIL) while the caller writes them, so
the hash adds no time to the read → write path; at most one chunk is pending at a time.
Hand-written because no library hashes a file from out-of-band pieces while checking their order.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

from ...progress import CancelToken, check_cancel
from ..extdata.extreader import ExternalDataReader
from ..extdata.extref import ExternalRef

__all__ = ["HashWorker", "SequentialHasher", "read_in_order"]

_GAP_CHUNK = 2**20
_PARALLEL_MIN = 2**20  # smaller chunks are hashed at once (a thread hand-off costs more)


def read_in_order(refs: Iterable[ExternalRef]) -> set[Path]:
    """The files whose tensors, taken in the order given (the order a merge reads them), lie at
    increasing, non-overlapping offsets: those a :class:`SequentialHasher` can hash in one pass."""
    end: dict[Path, int] = {}
    bad: set[Path] = set()
    for r in refs:
        if r.path is None or not r.data_length:
            continue
        start = r.offset or 0
        if start < end.get(r.path, 0):
            bad.add(r.path)
        end[r.path] = start + r.data_length
    return set(end) - bad


class HashWorker:
    """Feed chunks to hash objects on one helper thread (SHA-256 releases the GIL) while the caller goes on.

    Updates run in the order given; at most one chunk is pending, so memory stays bounded. Chunks under 1 MiB are
    hashed at once (a thread hand-off costs more). Each chunk must be a fresh object the caller does not reuse.
    Use as a context manager or call :meth:`close`.
    """

    def __init__(self, name: str) -> None:
        self._name = name
        self._pool: ThreadPoolExecutor | None = None
        self._pending: Future[None] | None = None

    def __enter__(self) -> HashWorker:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def update(self, h: Any, data: bytes) -> None:
        """``h.update(data)``, on the helper thread for large chunks."""
        self.wait()  # keeps the order of updates and bounds the memory to one pending chunk
        if len(data) < _PARALLEL_MIN:
            h.update(data)
            return
        if self._pool is None:
            self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix=self._name)
        self._pending = self._pool.submit(h.update, data)

    def wait(self) -> None:
        """Until every update given so far is done (re-raises its error)."""
        if self._pending is not None:
            pending, self._pending = self._pending, None
            pending.result()

    def close(self) -> None:
        """Wait for the helper thread and end it."""
        try:
            self.wait()
        finally:
            if self._pool is not None:
                self._pool.shutdown(wait=True)
                self._pool = None


class _FileState:
    __slots__ = ("hash", "position")

    def __init__(self) -> None:
        self.hash = hashlib.sha256()
        self.position = 0


class SequentialHasher:
    """Hash the files in ``paths`` from the chunks ``reader`` reads; install with ``reader.observer = h``.

    Use as a context manager (it owns a helper thread), or call :meth:`finish` / :meth:`close`.
    """

    def __init__(self, reader: ExternalDataReader, paths: Iterable[Path], cancel: CancelToken | None = None) -> None:
        self._reader = reader
        self._cancel = cancel
        self._files = {p: _FileState() for p in paths}
        self._worker = HashWorker("onnxpack-source-sha256")

    def __enter__(self) -> SequentialHasher:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __call__(self, path: Path, offset: int, data: bytes) -> Any:
        st = self._files.get(path)
        if st is None:
            return
        if offset < st.position:  # backwards or overlapping: this file is hashed another way
            self._worker.wait()
            del self._files[path]
            return
        if offset > st.position:
            self._worker.wait()
            for gap in self._reader.read_range(path, st.position, offset - st.position, _GAP_CHUNK, self._cancel):
                st.hash.update(gap)
        st.position = offset + len(data)
        self._worker.update(st.hash, data)  # ``data`` is a fresh bytes object: no reuse

    def close(self) -> None:
        """Wait for the helper thread and end it."""
        self._worker.close()

    def finish(self) -> dict[Path, tuple[int, str]]:
        """Hash each file's tail after the last chunk; return ``{path: (size, sha256 hex)}`` of every
        file hashed whole (files dropped for reading out of order are missing)."""
        self._worker.wait()
        out: dict[Path, tuple[int, str]] = {}
        for path, st in self._files.items():
            check_cancel(self._cancel)
            for tail in self._reader.read_range(path, st.position, None, _GAP_CHUNK, self._cancel):
                st.hash.update(tail)
                st.position += len(tail)
            out[path] = (st.position, st.hash.hexdigest())
        self._files.clear()
        self.close()
        return out
