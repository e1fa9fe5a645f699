"""Read the bytes of validated external references; nothing else in onnxpack opens an external-data file."""

from __future__ import annotations

import contextlib
import mmap
import os
import stat
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, BinaryIO

from ... import classcodes
from ...filecopy import copy_range
from ...progress import CancelToken, check_cancel
from .. import codes
from .extref import CHUNK, ExternalRef, ExternalTable

__all__ = ["ExternalDataReader"]



class ExternalDataReader:
    """Read the bytes of validated external references; files are opened without following links.

    Use as a context manager. Each file is opened once, re-checked through its descriptor
    (regular file, one link, same inode as validated), and read with ``pread``-style seeks.
    """

    def __init__(self, table: ExternalTable, observer: Callable[[Path, int, bytes], Any] | None = None) -> None:
        table.raise_if_invalid()
        self._table = table
        self._files: dict[Path, BinaryIO] = {}
        self._maps: dict[Path, mmap.mmap] = {}
        #: Called as ``observer(path, offset, data)`` with every chunk :meth:`iter_chunks` reads (so a
        #: caller can hash the source files during the one read a merge does); not called by
        #: :meth:`copy_to_fd` (its bytes never leave the kernel) nor :meth:`read_range`.
        self.observer = observer
        #: Called as ``tensor_observer(ref, position, data)`` with the same chunks, ``position`` counted from the
        #: tensor's first byte (core/model/merge/proof.py hashes each tensor from the one read a merge does).
        self.tensor_observer: Callable[[ExternalRef, int, bytes], Any] | None = None

    def __enter__(self) -> ExternalDataReader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        for m in self._maps.values():
            with contextlib.suppress(BufferError):  # views still exported: released with the last one
                m.close()
        self._maps.clear()
        for f in self._files.values():
            f.close()
        self._files.clear()

    def _open(self, path: Path) -> BinaryIO:
        f = self._files.get(path)
        if f is not None:
            return f
        flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0) | getattr(os, "O_NONBLOCK", 0)
        try:
            fd = os.open(path, flags)
        except OSError as e:
            raise codes.EXTDATA_UNREADABLE.error(variant="open", path=path, detail=e.strerror) from None
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_nlink > 1:
            os.close(fd)
            raise codes.EXTDATA_NOT_REGULAR.error(variant="changed", path=path)
        fobj = os.fdopen(fd, "rb", buffering=0)
        self._files[path] = fobj  # type: ignore[assignment]
        return fobj  # type: ignore[return-value]

    def iter_chunks(
        self, ref: ExternalRef, chunk: int = CHUNK, cancel: CancelToken | None = None
    ) -> Iterator[bytes]:
        """Yield the tensor's bytes in chunks; raise if the file is shorter than validated."""
        if not ref.ok or ref.path is None or ref.data_length is None:
            raise classcodes.EXTERNAL_DATA.error(variant="invalid_tensor", tensor=ref.ref.label)
        start = pos = ref.offset or 0
        for data in self._chunks(ref.path, pos, ref.data_length, chunk, cancel, ref.ref.name):
            if self.observer is not None:
                self.observer(ref.path, pos, data)
            if self.tensor_observer is not None:
                self.tensor_observer(ref, pos - start, data)
            pos += len(data)
            yield data

    def read_range(
        self,
        path: Path,
        offset: int,
        length: int | None = None,
        chunk: int = CHUNK,
        cancel: CancelToken | None = None,
    ) -> Iterator[bytes]:
        """Yield the raw bytes of the validated data file ``path`` from ``offset``: ``length`` bytes
        (raise if the file is shorter), or up to its end when ``length`` is None. Only files some
        valid reference of the table points at can be read (e.g. padding between tensors)."""
        if not any(r.ok and r.path == path for r in self._table.refs):
            raise classcodes.EXTERNAL_DATA.error(variant="not_validated", path=str(path))
        yield from self._chunks(path, offset, length, chunk, cancel, None)

    def _chunks(
        self, path: Path, pos: int, remaining: int | None, chunk: int, cancel: CancelToken | None, tensor: str | None
    ) -> Iterator[bytes]:
        """Read ``remaining`` bytes (None: to the end) of ``path`` from ``pos`` in chunks, polling ``cancel``
        (``tensor``: the tensor whose bytes they are, None for a range of the file)."""
        f = self._open(path)
        while remaining is None or remaining > 0:
            check_cancel(cancel)
            n = chunk if remaining is None else min(chunk, remaining)
            f.seek(pos)
            data = f.read(n)
            if remaining is None:
                if not data:
                    return
            else:
                if len(data) != n:
                    raise _shrunk(path, tensor)
                remaining -= n
            pos += len(data)
            yield data

    def readinto(self, ref: ExternalRef, position: int, buffer: memoryview) -> None:
        """Fill ``buffer`` with the tensor's bytes from ``position`` (counted from its first byte), into the caller's
        reused buffer (no fresh pages per read); raise if the file is shorter than validated. No observer is called."""
        if not ref.ok or ref.path is None or ref.data_length is None or position + len(buffer) > ref.data_length:
            raise classcodes.EXTERNAL_DATA.error(variant="invalid_tensor", tensor=ref.ref.label)
        f = self._open(ref.path)
        f.seek((ref.offset or 0) + position)
        done = 0
        while done < len(buffer):
            got = f.readinto(buffer[done:])  # type: ignore[attr-defined]
            if not got:
                raise _shrunk(ref.path, ref.ref.name)
            done += got

    def view(self, ref: ExternalRef) -> memoryview:
        """A zero-copy, read-only view of the tensor's bytes: a memory map of the validated file.

        The file is mapped once (through the descriptor opened and re-checked by this reader); the
        view stays valid after :meth:`close` until it is released.
        """
        if not ref.ok or ref.path is None or ref.data_length is None:
            raise classcodes.EXTERNAL_DATA.error(variant="invalid_tensor", tensor=ref.ref.label)
        if ref.data_length == 0:
            return memoryview(b"")
        m = self._maps.get(ref.path)
        if m is None:
            m = self._maps[ref.path] = mmap.mmap(self._open(ref.path).fileno(), 0, access=mmap.ACCESS_READ)
        start = ref.offset or 0
        if start + ref.data_length > len(m):
            raise _shrunk(ref.path, ref.ref.name)
        return memoryview(m)[start : start + ref.data_length]

    def mapped(self) -> list[mmap.mmap]:
        """The memory maps :meth:`view` made (read-only; they outlive :meth:`close` while views exist)."""
        return list(self._maps.values())

    def read(self, ref: ExternalRef, cancel: CancelToken | None = None) -> bytes:
        """The tensor's bytes in one piece (for small tensors and in-memory use)."""
        return b"".join(self.iter_chunks(ref, cancel=cancel))

    def copy_to(
        self,
        ref: ExternalRef,
        sink: Callable[[bytes], Any],
        chunk: int = CHUNK,
        cancel: CancelToken | None = None,
    ) -> int:
        """Stream the tensor's bytes into ``sink`` (e.g. ``file.write``); return the byte count."""
        n = 0
        for data in self.iter_chunks(ref, chunk, cancel):
            sink(data)
            n += len(data)
        return n

    def copy_to_fd(
        self,
        ref: ExternalRef,
        fd: int,
        chunk: int = 64 * 2**20,
        cancel: CancelToken | None = None,
        on_chunk: Callable[[int], Any] | None = None,
    ) -> int:
        """Copy the tensor's bytes to the regular file ``fd`` at its current position, in the kernel.

        Uses ``os.copy_file_range`` (Linux), else ``os.sendfile``, else read+write; cancellation is
        checked and ``on_chunk(n)`` called between chunks. Returns the byte count.
        """
        if not ref.ok or ref.path is None or ref.data_length is None:
            raise classcodes.EXTERNAL_DATA.error(variant="invalid_tensor", tensor=ref.ref.label)
        copied = copy_range(self._open(ref.path), fd, ref.offset or 0, ref.data_length, chunk, cancel, on_chunk)
        if copied < ref.data_length:
            raise _shrunk(ref.path, ref.ref.name)
        return ref.data_length


def _shrunk(path: Path, tensor: str | None) -> Exception:
    """EXTDATA_OUT_OF_RANGE: ``path`` got shorter while tensor ``tensor`` (None: a range of it) was read."""
    if tensor is None:
        return codes.EXTDATA_OUT_OF_RANGE.error(variant="shrunk_range", path=path)
    return codes.EXTDATA_OUT_OF_RANGE.error(variant="shrunk", path=path, tensor=tensor)
