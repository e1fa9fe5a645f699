"""The writer of a merge's output: counts its bytes, gathers small pieces, copies tensors in the kernel when it can."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from ...atomic import WritebackPacer, plain_file_fd
from ...progress import CancelToken, ProgressCallback, check_cancel, report
from ..extdata.extreader import ExternalDataReader
from ..extdata.extref import ExternalRef
from .mergeparts import merge_bug

__all__ = ["STAGE", "Copied", "Sink", "Writer"]

#: The progress stage of a merge.
STAGE = "merge"
_READ_CHUNK = 16 * 2**20  # large reads: fewer syscalls; memory stays a few chunks
_KERNEL_CHUNK = 16 * 2**20  # file-to-file copies in the kernel: cancellation/progress/writeback granularity
_SMALL_WRITE = 256 * 1024  # header pieces below this are gathered into one write


#: Told of each tensor written, as ``copied(ref, offset)``: its bytes are in the sink from ``offset`` (and reached the
#: file: a read sees them). The equality proof compares them then (core/model/merge/earlycompare.py).
Copied = Callable[[ExternalRef, int], Any]


class Sink(Protocol):
    """Where a merge writes: anything with ``write`` (a file, a BytesIO, ...)."""

    def write(self, data: Any, /) -> Any: ...


class Writer:
    """Counts bytes, gathers small pieces into one write, reports progress per large write.

    Tensor bytes go file-to-file in the kernel (``copy_file_range``) when the sink is a plain file
    and nothing needs to see them (no hash); otherwise they are read in large chunks and written.
    Either way a :class:`~core.atomic.WritebackPacer` starts the disk writeback as the file grows.
    """

    def __init__(self, sink: Sink, total: int, progress: ProgressCallback | None, h: Any = None,
                 copied: Copied | None = None) -> None:
        self.total = total
        self.copied = copied
        self.progress = progress
        self.hash = h
        self.done = 0  # bytes written to the current sink
        self.reported = 0  # bytes over all sinks
        self._small = bytearray()
        self.sink = sink
        fd = plain_file_fd(sink)
        self._fd = fd if h is None else None
        self._pacer = WritebackPacer(fd)

    def copy(self, reader: ExternalDataReader, ref: ExternalRef, cancel: CancelToken | None) -> None:
        """Append the bytes of one external tensor."""
        self.flush_small()
        start = self.done
        if self._fd is None or reader.observer is not None or reader.tensor_observer is not None:  # observers see them
            for chunk in reader.iter_chunks(ref, _READ_CHUNK, cancel):
                self.write(chunk)
            if self.copied is not None:  # (what it is told of must be in the file)
                self.flush_small()
                flush = getattr(self.sink, "flush", None)
                if flush is not None:
                    flush()
        else:
            self.sink.flush()  # type: ignore[attr-defined]
            reader.copy_to_fd(ref, self._fd, _KERNEL_CHUNK, cancel, self._count)
        if self.copied is not None:
            self.copied(ref, start)

    def _count(self, n: int) -> None:
        self.done += n
        self.reported += n
        self._pacer()
        report(self.progress, STAGE, self.reported, self.total)

    @property
    def position(self) -> int:
        """Bytes written to the current sink, gathered pieces included."""
        return self.done + len(self._small)

    def write(self, data: bytes | memoryview) -> None:
        n = len(data)
        if n < _SMALL_WRITE:
            self._small += data
            if len(self._small) >= _SMALL_WRITE:
                self.flush_small()
            return
        self.flush_small()
        self._emit(data)

    def _emit(self, data: bytes | memoryview | bytearray) -> None:
        if self.hash is not None:
            self.hash.update(data)
        self.sink.write(data)
        self._count(len(data))

    def flush_small(self) -> None:
        if self._small:
            data, self._small = self._small, bytearray()
            self._emit(data)

    def switch(self, sink: Sink) -> None:
        self.flush_small()
        self.sink = sink
        self.hash = None
        self.done = 0
        self._fd = plain_file_fd(sink)
        self._pacer = WritebackPacer(self._fd)

    def finish(self, cancel: CancelToken | None) -> None:
        check_cancel(cancel)
        self.flush_small()
        if self.reported != self.total:
            raise merge_bug(f"wrote {self.reported} bytes, planned {self.total}")
        report(self.progress, STAGE, self.total, self.total)
