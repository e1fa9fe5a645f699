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
* each entry's bytes are hashed (SHA-256) while they stream in, so weights are read once and
  written once, and the caller gets size + digest for the manifest without reading back.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import stat
import time
import zipfile
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, BinaryIO

from ..atomic import WritebackPacer, plain_file_fd
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
_STREAM_CHUNK = 8 << 20  # write_stream's reads


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
    reads), after updating SHA-256. Progress is reported as bytes done of ``total``.
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
    ) -> None:
        super().__init__()
        self._target = target
        self._pacer = pacer
        self._tee = tee
        self._hash = hashlib.sha256()
        self._count = 0
        self._total = total
        self._stage = stage
        self._progress = progress
        self._cancel = cancel
        self._last_report = -1
        self._pool: ThreadPoolExecutor | None = None

    def writable(self) -> bool:
        return True

    def write(self, data: Any) -> int:
        check_cancel(self._cancel)
        view = memoryview(data).cast("B")
        n = view.nbytes
        if n == 0:
            return 0
        if n >= _PARALLEL_MIN:
            # SHA-256 on a second core while this one computes zipfile's CRC-32 and writes (both release
            # the GIL): a large entry then costs max(hash, crc + write) per chunk, not the sum. The call
            # waits for the hash before returning, so the caller may reuse its buffer.
            if self._pool is None:
                self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="onnxpack-sha256")
            pending = self._pool.submit(self._hash.update, view)
            try:
                self._target.write(view)
                if self._tee is not None:
                    self._tee.write(view)
            finally:
                pending.result()
            if self._pacer is not None:
                self._pacer()  # start the disk writeback of what the ZIP file just received
        else:
            self._hash.update(view)
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

    def tell(self) -> int:
        return self._count

    @property
    def count(self) -> int:
        return self._count

    def hexdigest(self) -> str:
        return self._hash.hexdigest()

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True)
            self._pool = None
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
        sink = HashingWriter(
            handle,  # type: ignore[arg-type]
            tee=tee,
            total=size,
            stage=stage,
            progress=progress,
            cancel=cancel,
            pacer=self._pacer,
        )
        try:
            yield sink
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
        tee: BinaryIO | None = None,
    ) -> EntryRecord:
        """Add a member of ``size`` bytes read with ``reader(n)`` (e.g. an open file's ``read``); ``tee``: a file the
        same bytes are also written to."""
        with self.entry(name, size, compress=compress, progress=progress, cancel=cancel, stage=stage,
                        tee=tee) as sink:  # fmt: skip
            remaining = size
            while remaining > 0:
                data = reader(min(_STREAM_CHUNK, remaining))
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
