"""Deterministic, streaming ZIP writer (fixed timestamps/permissions, sorted directory, ZIP64 when needed).

Built on :mod:`zipfile`, which can already stream an entry of known size into a seekable file
(``ZipFile.open(info, "w")``) and switches to ZIP64 by itself when ``ZipInfo.file_size`` says the
entry may exceed 4 GiB. What zipfile does not do, and this module adds:

* every field that could vary between runs or machines is fixed: the timestamp (from
  ``SOURCE_DATE_EPOCH``, clamped to ZIP's 1980..2107 range, else a fixed epoch), ``create_system``
  (always Unix, so the permission bits mean the same everywhere), ``external_attr`` (a regular file,
  0644), the deflate level, no comment, no extra fields beyond the ZIP64 one zipfile needs;
* the central directory is sorted by name (zipfile keeps insertion order). Local entries are written
  in the caller's order: the model payload first (its digests are only known once it is written),
  the small metadata files (README, manifest) last. Both orders are therefore deterministic;
* each entry's bytes are hashed (SHA-256, and CRC-32 for a stored one) while they stream in, on helper threads
  beside the write, so weights are read once and written once, and the caller gets size + digest for the manifest
  without reading back.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import stat
import time
import zipfile
import zlib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, BinaryIO

from ..atomic import WritebackPacer, plain_file_fd
from ..model.streamhash import HashWorker
from ..progress import CancelToken, ProgressCallback, check_cancel, report
from . import codes

__all__ = [
    "DEFAULT_EPOCH",
    "ZIP_MAX_EPOCH",
    "ZIP_MIN_EPOCH",
    "DeterministicZip",
    "EntryRecord",
    "HashingWriter",
    "source_date_epoch",
    "zip_date_time",
]

#: 1980-01-01 00:00:00 UTC, the earliest time a ZIP (MS-DOS) timestamp can hold.
ZIP_MIN_EPOCH = 315532800
#: 2107-12-31 23:59:58 UTC, the latest.
ZIP_MAX_EPOCH = 4354819198
#: Used when SOURCE_DATE_EPOCH is not set: the ZIP minimum, so bundles are reproducible by default.
DEFAULT_EPOCH = ZIP_MIN_EPOCH
#: Regular file, rw-r--r--, in the high 16 bits of external_attr (Unix create_system).
_FILE_ATTR = (stat.S_IFREG | 0o644) << 16
_UNIX = 3
_DEFLATE_LEVEL = 6
#: Writes at least this large are hashed in parallel with the ZIP write.
_PARALLEL_MIN = 1 << 20


class _Crc32:
    """zlib's CRC-32 with a hash object's ``update`` (for :class:`~core.streamhash.HashWorker`)."""

    __slots__ = ("value",)

    def __init__(self) -> None:
        self.value = 0

    def update(self, data: Any) -> None:
        self.value = zlib.crc32(data, self.value)


def source_date_epoch(env: Mapping[str, str] | None = None) -> int | None:
    """``SOURCE_DATE_EPOCH`` (reproducible-builds.org) as an int, None when unset; bad values raise."""
    import os

    raw = (env if env is not None else os.environ).get("SOURCE_DATE_EPOCH")
    if raw is None or raw.strip() == "":
        return None
    text = raw.strip()
    if not text.isdigit() or not text.isascii():
        raise codes.BAD_SOURCE_DATE_EPOCH.error(value=raw, example="$(git log -1 --format=%ct)")
    return int(text)


def zip_date_time(epoch: int | None) -> tuple[int, int, int, int, int, int]:
    """The ZIP timestamp for ``epoch`` (UTC), clamped to what ZIP can store; DEFAULT_EPOCH when None."""
    seconds = DEFAULT_EPOCH if epoch is None else min(max(epoch, ZIP_MIN_EPOCH), ZIP_MAX_EPOCH)
    t = time.gmtime(seconds)
    return (t.tm_year, t.tm_mon, t.tm_mday, t.tm_hour, t.tm_min, t.tm_sec - t.tm_sec % 2)


@dataclass(frozen=True)
class EntryRecord:
    """What was written for one entry: name, uncompressed size, SHA-256 of the bytes."""

    name: str
    size: int
    sha256: str
    #: Where a stored (uncompressed) entry's bytes begin in the ZIP file, so they can be read in place; None when
    #: deflated.
    data_offset: int | None = None


class HashingWriter(io.RawIOBase):
    """A write-only, non-seekable binary sink that hashes, counts, reports progress and polls cancel.

    Every ``write`` goes to ``target`` (and to ``tee`` if given, e.g. a temporary copy the smoke run
    reads), after updating SHA-256. Progress is reported as bytes done of ``total``. With ``crc`` the sink also
    computes the bytes' CRC-32 (:attr:`crc`): a stored ZIP entry's bytes then go to the ZIP file as they are and
    zipfile is told their CRC (:meth:`DeterministicZip.entry`).

    Each byte is read once and each digest computed once, on every core: a large write's SHA-256 and CRC-32 run
    on two helper threads (hashlib and zlib release the GIL) while this thread writes it and the caller reads the
    next chunk. A ``bytes`` chunk (immutable) is not waited for: its digests catch up during the next write, one
    chunk pending per digest (memory stays a few chunks); any other buffer is waited for before ``write`` returns,
    so the caller may reuse it.
    """

    def __init__(
        self,
        target: BinaryIO,
        *,
        tee: BinaryIO | None = None,
        total: int = 0,
        stage: str = "zip",
        progress: ProgressCallback | None = None,
        cancel: CancelToken | None = None,
        pacer: Callable[[], None] | None = None,
        crc: bool = False,
    ) -> None:
        super().__init__()
        self._target = target
        self._pacer = pacer
        self._tee = tee
        self._hash = hashlib.sha256()
        self._crc = _Crc32() if crc else None
        self._count = 0
        self._total = total
        self._stage = stage
        self._progress = progress
        self._cancel = cancel
        self._last_report = -1
        self._sha_lane = HashWorker("onnxpack-sha256")
        self._crc_lane = HashWorker("onnxpack-crc32")

    def writable(self) -> bool:
        return True

    def write(self, data: Any) -> int:
        check_cancel(self._cancel)
        view = memoryview(data).cast("B")
        n = view.nbytes
        if n == 0:
            return 0
        if n >= _PARALLEL_MIN:
            chunk = data if type(data) is bytes else view  # bytes cannot change under the helper threads
            self._sha_lane.update(self._hash, chunk)
            if self._crc is not None:
                self._crc_lane.update(self._crc, chunk)
            try:
                self._target.write(view)
                if self._tee is not None:
                    self._tee.write(view)
            finally:
                if chunk is view:  # the caller may reuse its buffer once this returns
                    self._settle()
            if self._pacer is not None:
                self._pacer()  # start the disk writeback of what the ZIP file just received
        else:
            self._settle()  # in order: the digests of the chunks before this one first
            self._hash.update(view)
            if self._crc is not None:
                self._crc.update(view)
            self._target.write(view)
            if self._tee is not None:
                self._tee.write(view)
        self._count += n
        if self._progress is not None:
            done = self._count
            # Throttle: at most one event per MiB (and always the last one).
            if done - self._last_report >= 1 << 20 or done >= self._total:
                self._last_report = done
                report(self._progress, self._stage, done, self._total)
        return n

    def _settle(self) -> None:
        """Until every digest update given so far is done (re-raises a helper's error)."""
        self._sha_lane.wait()
        self._crc_lane.wait()

    def tell(self) -> int:
        return self._count

    @property
    def count(self) -> int:
        return self._count

    @property
    def crc(self) -> int:
        """The CRC-32 of the bytes written (with ``crc=True``)."""
        if self._crc is None:
            raise ValueError("this sink computes no CRC-32")
        self._settle()
        return self._crc.value

    def hexdigest(self) -> str:
        self._settle()
        return self._hash.hexdigest()

    def close(self) -> None:
        try:
            self._settle()
        finally:
            self._sha_lane.close()
            self._crc_lane.close()
            super().close()


class DeterministicZip:
    """Write a reproducible ZIP into an open, seekable binary file (e.g. from ``atomic_file``).

    Use :meth:`entry` to stream a large member, :meth:`write_bytes` for small ones, then
    :meth:`finish`. On any exception call :meth:`abort` (the context-manager form does it): the file
    is then garbage and must be discarded by the caller (``atomic_file`` removes it).
    """

    def __init__(self, fileobj: BinaryIO, *, epoch: int | None = None, compress: bool = False) -> None:
        self.date_time = zip_date_time(epoch)
        self.compress = compress
        self.records: list[EntryRecord] = []
        self._names: set[str] = set()
        self._zf = zipfile.ZipFile(fileobj, "w", allowZip64=True)
        self._open: Any = None
        # Stored entries reach ``fileobj`` write for write: start their writeback as they grow so the
        # caller's fsync (atomic_file) has little left to wait for.
        self._pacer = WritebackPacer(plain_file_fd(fileobj))

    # -- context manager ---------------------------------------------------------------------------
    def __enter__(self) -> DeterministicZip:
        return self

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        if exc_type is None:
            self.finish()
        else:
            self.abort()

    # -- entries -----------------------------------------------------------------------------------
    def _info(self, name: str, size: int, compress: bool | None) -> zipfile.ZipInfo:
        if name in self._names:
            raise ValueError(f"duplicate ZIP entry {name!r}")  # a bug in the caller, never user input
        self._names.add(name)
        info = zipfile.ZipInfo(name, date_time=self.date_time)
        info.create_system = _UNIX  # zipfile uses 0 (MS-DOS) on Windows: fixed for reproducibility
        info.external_attr = _FILE_ATTR
        deflate = self.compress if compress is None else compress
        info.compress_type = zipfile.ZIP_DEFLATED if deflate else zipfile.ZIP_STORED
        if deflate:
            info._compresslevel = _DEFLATE_LEVEL  # type: ignore[attr-defined]  # no public setter per entry
        # Known in advance: lets zipfile choose ZIP64 exactly when the entry may exceed 4 GiB.
        info.file_size = size
        return info

    @contextlib.contextmanager
    def entry(
        self,
        name: str,
        size: int,
        *,
        compress: bool | None = None,
        tee: BinaryIO | None = None,
        stage: str = "zip",
        progress: ProgressCallback | None = None,
        cancel: CancelToken | None = None,
    ) -> Iterator[HashingWriter]:
        """Stream one member of exactly ``size`` bytes; yields a :class:`HashingWriter`."""
        info = self._info(name, size, compress)
        handle = self._zf.open(info, "w")  # writes the local header: the entry's bytes start here
        data_offset = self._zf.fp.tell() if info.compress_type == zipfile.ZIP_STORED else None  # type: ignore[union-attr]
        self._open = handle
        # A stored entry's bytes go to the ZIP file as they are, their CRC-32 computed beside the SHA-256 on a helper
        # thread (zipfile would compute it on this one, between the writes); zipfile is told the CRC and size when the
        # entry ends. (Its _ZipWriteFile fields, the same in every Python 3 since 3.6; else zipfile writes them.)
        direct = data_offset is not None and all(hasattr(handle, a) for a in ("_fileobj", "_crc", "_file_size"))
        sink = HashingWriter(
            handle._fileobj if direct else handle,  # type: ignore[attr-defined,arg-type]
            tee=tee,
            total=size,
            stage=stage,
            progress=progress,
            cancel=cancel,
            pacer=self._pacer,
            crc=direct,
        )
        try:
            yield sink
            if direct:
                handle._crc, handle._file_size = sink.crc, sink.count  # type: ignore[attr-defined]
        finally:
            sink.close()
        if sink.count != size:
            raise RuntimeError(f"ZIP entry {name!r}: {sink.count} bytes written, {size} announced")
        handle.close()
        self._open = None
        self.records.append(EntryRecord(name, sink.count, sink.hexdigest(), data_offset))

    def write_bytes(self, name: str, data: bytes, *, compress: bool | None = None) -> EntryRecord:
        """Add a small member from memory."""
        with self.entry(name, len(data), compress=compress) as sink:
            sink.write(data)
        return self.records[-1]

    def write_stream(
        self,
        name: str,
        size: int,
        reader: Callable[[int], bytes],
        *,
        compress: bool | None = None,
        progress: ProgressCallback | None = None,
        cancel: CancelToken | None = None,
        stage: str = "zip",
        chunk: int = 8 << 20,
    ) -> EntryRecord:
        """Add a member of ``size`` bytes read with ``reader(n)`` (e.g. an open file's ``read``)."""
        with self.entry(name, size, compress=compress, progress=progress, cancel=cancel, stage=stage) as sink:
            remaining = size
            while remaining > 0:
                data = reader(min(chunk, remaining))
                if not data:
                    break
                sink.write(data)
                remaining -= len(data)
        return self.records[-1]

    # -- end ---------------------------------------------------------------------------------------
    def finish(self) -> None:
        """Sort the central directory by name and write it with the end record."""
        # zipfile writes the central directory in ``filelist`` order (its public list of ZipInfo).
        self._zf.filelist.sort(key=lambda i: i.filename.encode("utf-8"))
        self._zf.close()

    def abort(self) -> None:
        """Give up: release zipfile's state without caring what lands in the (discarded) file."""
        with contextlib.suppress(Exception):
            if self._open is not None:
                self._open.close()
        with contextlib.suppress(Exception):
            self._zf.close()
