"""The equality proof's byte comparison, begun while the merge writes: each tensor as soon as it is written.

A merge copies a tensor's bytes from the source into its output (in the kernel, core/model/merge/mergewrite.py);
:class:`EarlyComparison` then compares that written range with the source's range on a thread of its own, while
the merge copies the next tensors, so that the proof after the write (:func:`~.proof.prove_same_bytes`) has
little left to compare (issue 40: the comparison was a fifth of `onnxpack merge` of GPT-2 medium).

It only moves work earlier; the proof still rests on the written model's own parse: a tensor counts as compared
only where that parse, after the write, finds it at the very range compared, in the very file the merge created
(the same device and inode, held open since), and its source range is the one compared. A tensor compared and
found different, one not reached, a written file that cannot be read: all are compared after the write as before,
and a difference is said there. Hand-written: it follows our merge's writes.
"""

from __future__ import annotations

import os
import queue
import threading
from collections.abc import Callable, Collection
from pathlib import Path
from typing import BinaryIO

from ...errors import OnnxpackError
from ...progress import CancelToken
from ..extdata.extreader import ExternalDataReader
from ..extdata.extref import ExternalRef, ExternalTable

__all__ = ["EarlyComparison", "RangeKey", "WrittenKey", "range_key", "same_bytes", "written_key"]

#: One stored byte range of a validated reference: (file, offset, length).
RangeKey = tuple[Path, int, int]
#: A written byte range: (device, inode, offset, length) of the file that holds it.
WrittenKey = tuple[int, int, int, int]
_CHUNK = 2**20


class _Stopped(Exception):
    """The comparison is no longer wanted (the merge failed or was cancelled)."""


def same_bytes(n: int, read_a: Callable[[int, memoryview], object], read_b: Callable[[int, memoryview], object],
               bufs: tuple[bytearray, bytearray], check: Callable[[], None]) -> bool:
    """Whether two ranges of ``n`` bytes are equal, read chunk by chunk into two reused buffers (no fresh pages per
    read): ``read_a(pos, view)`` and ``read_b`` fill ``view`` with their bytes from ``pos`` (False: the range is short,
    so not equal); ``check()`` before each chunk (it raises to stop: cancellation). Bytearrays compare with memcmp;
    memoryviews would compare element by element (2.7 s for GPT-2's 1.42 GB against 0.38 s)."""
    ba, bb = bufs
    va, vb = memoryview(ba), memoryview(bb)
    pos, chunk = 0, len(ba)
    while pos < n:
        check()
        k = min(chunk, n - pos)
        if read_a(pos, va[:k]) is False or read_b(pos, vb[:k]) is False:
            return False
        if (ba != bb) if k == chunk else (ba[:k] != bb[:k]):
            return False
        pos += k
    return True


def range_key(ref: ExternalRef) -> RangeKey | None:
    """The byte range of ``ref``, or None when it has no valid range."""
    if not ref.ok or ref.path is None or ref.data_length is None:
        return None
    return (ref.path, ref.offset or 0, ref.data_length)


def written_key(identity: tuple[int, int], ref: ExternalRef) -> WrittenKey | None:
    """The written range of ``ref`` (a reference the written model's parse found) in the file ``identity``
    (device, inode), or None when it has no valid range."""
    key = range_key(ref)
    return None if key is None else (*identity, key[1], key[2])


class EarlyComparison:
    """Compare each tensor the merge has written with the source, on one thread, as the merge goes on.

    :meth:`copied` after each tensor is written (its bytes reached the file: a read sees them); :meth:`finish`
    after the last, for the pairs found equal. Use as a context manager (the thread and files end with it).
    """

    def __init__(self, source: ExternalTable, cancel: CancelToken | None = None, chunk: int = _CHUNK) -> None:
        self._source_table = source
        self._cancel = cancel
        self._chunk = chunk
        self._queue: queue.SimpleQueue[tuple[ExternalRef, Path, int] | None] = queue.SimpleQueue()
        self._equal: set[tuple[RangeKey, WrittenKey]] = set()
        self._files: dict[Path, tuple[BinaryIO, tuple[int, int]]] = {}
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def __enter__(self) -> EarlyComparison:
        return self

    def __exit__(self, exc_type: object, *exc: object) -> None:
        if exc_type is not None:  # the merge failed: what is queued is not wanted
            self._stop.set()
        self.close()

    def copied(self, ref: ExternalRef, written: Path, offset: int) -> None:
        """The merge has written the bytes of ``ref`` (a source reference) into ``written`` at ``offset``."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="onnxpack-proof-early", daemon=True)
            self._thread.start()
        self._queue.put((ref, written, offset))

    def finish(self) -> Collection[tuple[RangeKey, WrittenKey]]:
        """Wait for the comparisons asked for and let go of the written files (Windows renames no file held open); the
        (source range, written range) pairs found byte-equal (the same again on a second call)."""
        self.close()
        return frozenset(self._equal)

    def close(self) -> None:
        """End the thread (after what it was given, unless cancelled) and close the files."""
        if self._thread is not None:
            self._queue.put(None)
            self._thread.join()
            self._thread = None
        for f, _ in self._files.values():
            f.close()
        self._files.clear()

    def _run(self) -> None:
        bufs = (bytearray(self._chunk), bytearray(self._chunk))
        with ExternalDataReader(self._source_table) as source:
            while (item := self._queue.get()) is not None:
                if self._stop.is_set() or (self._cancel is not None and self._cancel.cancelled):
                    self._stop.set()  # the rest is left to the proof (a cancelled merge has none)
                    continue
                ref, path, offset = item
                try:
                    key = self._compare(source, ref, path, offset, bufs)
                except (OSError, OnnxpackError):  # the proof compares it after the write, and says what is wrong
                    key = None
                except Exception:  # (a bug here must not end the thread with a traceback: the proof still holds)
                    self._stop.set()
                    key = None
                if key is not None:
                    self._equal.add(key)

    def _written(self, path: Path) -> tuple[BinaryIO, tuple[int, int]]:
        got = self._files.get(path)
        if got is None:
            f = open(path, "rb", buffering=0)  # noqa: SIM115 (held open: its inode is what the proof checks)
            st = os.fstat(f.fileno())
            got = self._files[path] = (f, (st.st_dev, st.st_ino))  # type: ignore[assignment]
        return got  # type: ignore[return-value]

    def _compare(self, source: ExternalDataReader, ref: ExternalRef, path: Path, offset: int,
                 bufs: tuple[bytearray, bytearray]) -> tuple[RangeKey, WrittenKey] | None:
        """The pair when the written range equals the source's, else None."""
        skey = range_key(ref)
        if skey is None:
            return None
        n = skey[2]
        f, identity = self._written(path)

        def written(pos: int, view: memoryview) -> bool:
            f.seek(offset + pos)
            got = 0
            while got < len(view):
                r = f.readinto(view[got:])  # type: ignore[attr-defined]
                if not r:
                    return False  # shorter than written: the proof says what is wrong
                got += r
            return True

        def going_on() -> None:
            if self._stop.is_set():
                raise _Stopped

        try:
            if not same_bytes(n, lambda pos, view: source.readinto(ref, pos, view), written, bufs, going_on):
                return None
        except _Stopped:
            return None
        return skey, (*identity, offset, n)
