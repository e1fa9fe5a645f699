"""Resolve and read external tensor data ourselves, under the rules of security.md.

onnx and onnxruntime each resolve ``external_data`` paths, with different (and historically
buggy) rules, and neither verifies ``checksum``. We apply the stricter union of both and read
validated bytes ourselves; nothing else in onnxpack opens an external-data file.
"""

from __future__ import annotations

import contextlib
import itertools
import mmap
import os
import re
import stat
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

from onnx import ModelProto

from ..errors import ExternalDataError
from ..filehash import hash_file
from ..findings import Finding, Severity
from ..names import component_problem
from ..progress import CancelToken, check_cancel
from .skeleton import INLINE_KEY, inline_source
from .tensors import TensorRef, dtype_name, expected_nbytes, iter_tensors, uses_external_data

__all__ = [
    "CHUNK",
    "KNOWN_KEYS",
    "ExternalDataReader",
    "ExternalRef",
    "ExternalTable",
    "raw_data_size_finding",
    "resolve_external_data",
    "sha1_file",
]

CHUNK = 8 * 1024 * 1024
KNOWN_KEYS = frozenset({"location", "offset", "length", "checksum"})
_DRIVE = re.compile(r"^[A-Za-z]:")
_HINT_REEXPORT = "Re-export the model, or fix the external data file next to it."
_HINT_INLINE = "Re-export the model from its source framework."


@dataclass
class ExternalRef:
    """One tensor whose data is stored outside the .onnx file, with what we found about it."""

    ref: TensorRef
    location: str | None
    offset: int | None
    length: int | None  # as declared (None when absent)
    checksum: str | None
    unknown_keys: list[str]
    path: Path | None = None  # the validated file (None if invalid)
    data_length: int | None = None  # effective length (declared, or file size - offset)
    expected_length: int | None = None  # dims × element size
    errors: list[Finding] = field(default_factory=list)
    inline: bool = False  # a raw_data range inside the model file itself (core/model/skeleton.py), not external data

    @property
    def ok(self) -> bool:
        return self.path is not None and not self.errors and self.data_length is not None

    @property
    def aligned_4k(self) -> bool:
        return (self.offset is not None and self.offset % 4096 == 0) or self.offset in (None, 0)

    @property
    def aligned_64k(self) -> bool:
        return (self.offset is not None and self.offset % 65536 == 0) or self.offset in (None, 0)

    def to_dict(self) -> dict[str, Any]:
        return {
            "tensor": self.ref.name,
            "where": f"{self.ref.where} in {self.ref.graph}",
            "data_type": dtype_name(self.ref.tensor.data_type),
            "dims": [int(d) for d in self.ref.tensor.dims],
            "location": self.location,
            "offset": self.offset,
            "length": self.length,
            "effective_length": self.data_length,
            "expected_length": self.expected_length,
            "checksum": self.checksum,
            "aligned_4k": self.aligned_4k,
            "aligned_64k": self.aligned_64k,
            "unknown_keys": self.unknown_keys,
            "valid": self.ok,
        }


@dataclass
class ExternalTable:
    """All external references of a model, plus the findings of resolving them."""

    refs: list[ExternalRef]  # every reference, the ranges inside the model file (``inline``) included
    findings: list[Finding]
    files: dict[str, int]  # relative location -> size in bytes, for valid external files

    @property
    def external_refs(self) -> list[ExternalRef]:
        """The references to data outside the model file (what makes the layout "external")."""
        return [r for r in self.refs if not r.inline]

    @property
    def ok(self) -> bool:
        return not any(f.severity is Severity.ERROR for f in self.findings)

    def raise_if_invalid(self) -> None:
        """Raise ExternalDataError naming the first error (after listing how many there are)."""
        errs = [f for f in self.findings if f.severity is Severity.ERROR]
        if errs:
            first = errs[0]
            more = f" (and {len(errs) - 1} more problem(s); run `onnxpack check` for all)" if len(errs) > 1 else ""
            raise ExternalDataError(first.message + more, first.hint, code=first.code, params=first.message_params())


def sha1_file(path: Path, cancel: CancelToken | None = None) -> str:
    """SHA-1 hex digest of a whole file, read in chunks."""
    return hash_file(path, "sha1", cancel).hexdigest


def _parse_int(ref: TensorRef, key: str, raw: str, errors: list[Finding]) -> int | None:
    text = raw.strip()
    if not text.isdigit() or not text.isascii():
        errors.append(
            Finding.error(
                "EXTDATA_BAD_KEY",
                f"Tensor {ref.label}: external_data '{key}' is {raw!r}, not a non-negative integer",
                _HINT_REEXPORT,
                ref.name,
                key=key,
            )
        )
        return None
    if len(text) > 20 or int(text) >= 2**64:  # no file is that large; and later arithmetic must stay finite
        errors.append(
            Finding.error(
                "EXTDATA_OUT_OF_RANGE",
                f"Tensor {ref.label}: external_data '{key}' is {text[:24]}{'...' if len(text) > 24 else ''}, "
                "beyond any 64-bit file offset",
                _HINT_REEXPORT,
                ref.name,
            )
        )
        return None
    return int(text)


def _check_location(ref: TensorRef, location: str) -> Finding | None:
    """Lexical rules on the location string (no filesystem access)."""
    def bad(code: str, why: str, hint: str) -> Finding:
        return Finding.error(code, f"Tensor {ref.label}: external data location {location!r} {why}", hint, ref.name,
                             file=location)  # fmt: skip

    if not location:
        return bad("EXTDATA_NO_LOCATION", "is empty", _HINT_REEXPORT)
    if "\x00" in location:
        return bad("EXTDATA_BAD_LOCATION", "contains a NUL character", _HINT_REEXPORT)
    if location.startswith(("/", "\\")) or _DRIVE.match(location):
        return bad(
            "EXTDATA_ABSOLUTE",
            "is absolute (or a drive-letter/UNC path); locations must be relative to the model folder",
            "Move the data file next to the model and save the model with a relative location.",
        )
    parts = re.split(r"[\\/]", location)
    if ".." in parts:
        return bad(
            "EXTDATA_OUTSIDE_DIR",
            "has a '..' component; it could point outside the model folder",
            "Keep external data inside the model folder and use a plain relative file name.",
        )
    if ".." in location:
        # Not a parent-folder component, but onnx (1.23) refuses every location containing '..' ("points outside
        # the directory") while onnxruntime accepts it: what either refuses, we refuse.
        return bad(
            "EXTDATA_BAD_LOCATION",
            "contains '..' inside a name, which onnx refuses in any location (ONNX Runtime accepts it)",
            "Rename the data file without '..' and save the model again with that location.",
        )
    if ":" in location:
        return bad("EXTDATA_BAD_LOCATION", "contains ':' (an NTFS alternate data stream on Windows)", _HINT_REEXPORT)
    # The same name rule as bundle members (core/names.py): Windows device names open devices in any
    # folder, trailing dots/spaces are stripped (naming another file), control and bidi characters deceive.
    for i, p in enumerate(parts):
        if p == "." and i < len(parts) - 1:
            continue  # './data.bin', 'sub/./data.bin': the same folder (onnx and onnxruntime accept it)
        why = component_problem(p)
        if why is not None:
            return bad("EXTDATA_BAD_LOCATION", why, _HINT_REEXPORT)
    # onnxruntime treats the location "*/_ORT_MEM_ADDR_/*" as a raw process-memory address of an
    # in-memory initializer; in a file from outside it would make ORT read arbitrary memory.
    if "_ORT_MEM_ADDR_" in location:
        return bad(
            "EXTDATA_BAD_LOCATION",
            "is onnxruntime's in-memory marker '_ORT_MEM_ADDR_', which must never appear in a model file",
            "The model was saved from a live ORT session by mistake; export it again.",
        )
    return None


class _FileCheck:
    """Filesystem checks on one external data file, done once per location."""

    def __init__(self, base: Path, location: str, verify_checksum: bool) -> None:
        self.location = location
        self.path: Path | None = None
        self.size = 0
        self.finding: Finding | None = None
        self._sha1: str | None = None
        self._verify = verify_checksum
        self._check(base)

    def _fail(self, code: str, why: str, hint: str, **params: Any) -> None:
        self.finding = Finding.error(code, f"External data file {self.location!r} {why}", hint, self.location,
                                     file=self.location, **params)  # fmt: skip

    def _check(self, base: Path) -> None:
        parts = [p for p in re.split(r"[\\/]", self.location) if p]
        cur = base
        for i, part in enumerate(parts):
            cur = cur / part
            try:
                st = os.lstat(cur)
            except FileNotFoundError:
                self._fail(
                    "EXTDATA_MISSING",
                    f"was not found (looked for {cur})",
                    "Put the .data file next to the .onnx file (same folder, same name as written in the "
                    "model), or give its folder with --data-dir.",
                    looked_for=str(cur),
                )
                return
            except OSError as e:
                self._fail("EXTDATA_UNREADABLE", f"cannot be examined: {e.strerror}", "Check file permissions.",
                           detail=e.strerror)
                return
            if stat.S_ISLNK(st.st_mode):
                self._fail(
                    "EXTDATA_SYMLINK",
                    f"is or passes through a symbolic link ({cur})",
                    "Replace the link with the real file inside the model folder.",
                )
                return
            last = i == len(parts) - 1
            if not last and not stat.S_ISDIR(st.st_mode):
                self._fail("EXTDATA_MISSING", f"has a non-folder component {part!r}", _HINT_REEXPORT,
                           variant="component")
                return
            if last:
                if stat.S_ISDIR(st.st_mode):
                    self._fail("EXTDATA_NOT_REGULAR", "is a folder, not a file", _HINT_REEXPORT)
                    return
                if not stat.S_ISREG(st.st_mode):
                    self._fail(
                        "EXTDATA_NOT_REGULAR",
                        "is not a regular file (FIFO, device or socket)",
                        "External data must be an ordinary file.",
                    )
                    return
                if st.st_nlink > 1:
                    self._fail(
                        "EXTDATA_HARDLINK",
                        f"has {st.st_nlink} hard links; it may be a link to a file outside the model folder",
                        "Replace the hard link with a real copy of the file (e.g. `cp --no-preserve=links`).",
                        links=st.st_nlink,
                    )
                    return
                self.size = st.st_size
        real_base = os.path.realpath(base)
        real = os.path.realpath(cur)
        if os.path.commonpath([real_base, real]) != real_base:
            self._fail(
                "EXTDATA_OUTSIDE_DIR",
                f"resolves outside the model folder ({real})",
                "Keep external data inside the model folder.",
            )
            return
        self.path = cur

    def sha1(self, cancel: CancelToken | None = None) -> str:
        assert self.path is not None
        if self._sha1 is None:
            self._sha1 = sha1_file(self.path, cancel)
        return self._sha1


def resolve_external_data(
    model: ModelProto,
    data_dir: Path,
    *,
    verify_checksums: bool = True,
    cancel: CancelToken | None = None,
) -> ExternalTable:
    """Check every external reference of ``model`` against files under ``data_dir``.

    Never reads tensor bytes; reads whole files only to verify a ``checksum`` key when present
    and ``verify_checksums`` is true. Returns every reference and every finding (errors too).
    """
    refs: list[ExternalRef] = []
    findings: list[Finding] = []
    files: dict[str, _FileCheck] = {}
    model_sizes: dict[Path, int] = {}
    for tref in iter_tensors(model):
        check_cancel(cancel)
        t = tref.tensor
        has_entries = len(t.external_data) > 0
        if not uses_external_data(t):
            if has_entries:
                findings.append(
                    Finding.warning(
                        "EXTDATA_IGNORED",
                        f"Tensor {tref.label} has external_data entries but data_location is not EXTERNAL; "
                        "they are ignored",
                        "Remove the stray external_data entries or set data_location to EXTERNAL.",
                        tref.name,
                    )
                )
            continue
        kv: dict[str, str] = {}
        errors: list[Finding] = []
        for entry in t.external_data:
            if entry.key in kv:
                errors.append(
                    Finding.error(
                        "EXTDATA_DUPLICATE_KEY",
                        f"Tensor {tref.label}: external_data key '{entry.key}' appears twice",
                        _HINT_REEXPORT,
                        tref.name,
                        key=entry.key,
                    )
                )
            kv[entry.key] = entry.value
        source = inline_source(kv[INLINE_KEY]) if INLINE_KEY in kv else None
        if source is not None:
            er = _resolve_inline(tref, kv, source, model_sizes)
            findings.extend(er.errors)
            refs.append(er)
            continue
        unknown = sorted(k for k in kv if k not in KNOWN_KEYS)
        for k in unknown:
            # ONNX Runtime refuses a model with an external_data key it does not know ("model format error"; onnx
            # only warns): what either refuses, we refuse.
            errors.append(
                Finding.error(
                    "EXTDATA_UNKNOWN_KEY",
                    f"Tensor {tref.label}: unknown external_data key '{k}', which ONNX Runtime refuses",
                    "Remove the key (only location, offset, length and checksum are allowed), or re-export the "
                    "model.",
                    tref.name,
                    key=k,
                )
            )
        location = kv.get("location")
        offset = _parse_int(tref, "offset", kv["offset"], errors) if "offset" in kv else 0
        length = _parse_int(tref, "length", kv["length"], errors) if "length" in kv else None
        checksum = kv.get("checksum")
        er = ExternalRef(tref, location, offset if "offset" in kv else None, length, checksum, unknown)
        er.expected_length = expected_nbytes(t)
        if dtype_name(t.data_type) == "STRING":
            errors.append(
                Finding.error(
                    "EXTDATA_STRING",
                    f"Tensor {tref.label} is a STRING tensor stored as external data, which ONNX does not allow",
                    "Store string tensors inline.",
                    tref.name,
                )
            )
        if t.HasField("raw_data") or len(t.float_data) or len(t.int32_data) or len(t.int64_data) or len(
            t.double_data
        ) or len(t.uint64_data) or len(t.string_data):
            errors.append(
                Finding.error(
                    "EXTDATA_ALSO_INLINE",
                    f"Tensor {tref.label} is marked EXTERNAL but also carries inline data",
                    _HINT_REEXPORT,
                    tref.name,
                )
            )
        if location is None:
            errors.append(
                Finding.error(
                    "EXTDATA_NO_LOCATION",
                    f"Tensor {tref.label} is marked EXTERNAL but has no 'location' key",
                    _HINT_REEXPORT,
                    tref.name,
                )
            )
        else:
            lex = _check_location(tref, location)
            if lex is not None:
                errors.append(lex)
            else:
                fc = files.get(location)
                if fc is None:
                    fc = files[location] = _FileCheck(data_dir, location, verify_checksums)
                    if fc.finding is not None:
                        findings.append(fc.finding)
                if fc.path is not None and offset is not None and not errors:
                    er.path = fc.path
                    if offset > fc.size:
                        errors.append(
                            Finding.error(
                                "EXTDATA_OUT_OF_RANGE",
                                f"Tensor {tref.label}: offset {offset} is beyond the end of {location!r} "
                                f"({fc.size} bytes)",
                                "The data file is truncated or belongs to another model; export again.",
                                tref.name,
                            )
                        )
                    else:
                        eff = length if length is not None else fc.size - offset
                        if offset + eff > fc.size:
                            errors.append(
                                Finding.error(
                                    "EXTDATA_OUT_OF_RANGE",
                                    f"Tensor {tref.label}: bytes {offset}..{offset + eff} lie beyond the end of "
                                    f"{location!r} ({fc.size} bytes)",
                                    "The data file is truncated or belongs to another model; export again.",
                                    tref.name,
                                )
                            )
                        else:
                            er.data_length = eff
                            if er.expected_length is not None and eff != er.expected_length:
                                errors.append(
                                    Finding.error(
                                        "EXTDATA_LENGTH_MISMATCH",
                                        f"Tensor {tref.label}: {eff} bytes of external data, but "
                                        f"{dtype_name(t.data_type)} {list(t.dims)} needs {er.expected_length}",
                                        "The model and its data file do not match; export them again together.",
                                        tref.name,
                                    )
                                )
                    if checksum is not None and verify_checksums and not errors:
                        check_cancel(cancel)
                        if not re.fullmatch(r"[0-9a-fA-F]{40}", checksum):
                            errors.append(
                                Finding.error(
                                    "EXTDATA_BAD_CHECKSUM",
                                    f"Tensor {tref.label}: checksum {checksum!r} is not a SHA-1 hex digest",
                                    _HINT_REEXPORT,
                                    tref.name,
                                )
                            )
                        elif fc.sha1(cancel) != checksum.lower():
                            errors.append(
                                Finding.error(
                                    "EXTDATA_CHECKSUM_MISMATCH",
                                    f"Tensor {tref.label}: SHA-1 of {location!r} is {fc.sha1()}, but the model "
                                    f"records {checksum}",
                                    "The data file was modified or replaced; restore the original.",
                                    tref.name,
                                    file=location,
                                )
                            )
        er.errors = errors
        findings.extend(errors)
        refs.append(er)
    _check_overlaps(refs, findings)
    sizes = {loc: fc.size for loc, fc in files.items() if fc.path is not None}
    return ExternalTable(refs, findings, sizes)


def _resolve_inline(tref: TensorRef, kv: dict[str, str], source: Path, sizes: dict[Path, int]) -> ExternalRef:
    """A ``raw_data`` left in the model file by core/model/skeleton.py: the same range and length rules as external
    data.

    The skeleton reader wrote offset and length itself from the wire format, so they are integers within the
    file; they are checked again here because this is the one place where ranges are validated.
    """
    t = tref.tensor
    offset, length = int(kv["offset"]), int(kv["length"])
    er = ExternalRef(tref, kv.get("location"), offset, length, None, [], inline=True)
    er.expected_length = expected_nbytes(t)
    if source not in sizes:
        sizes[source] = source.stat().st_size
    if offset < 0 or length < 0 or offset + length > sizes[source]:
        er.errors.append(Finding.error(
            "EXTDATA_OUT_OF_RANGE",
            f"Tensor {tref.label}: raw_data bytes {offset}..{offset + length} lie beyond the end of the model file",
            "The model file changed while it was read; read it again.",
            tref.name,
        ))
        return er
    er.path, er.data_length = source, length
    if dtype_name(t.data_type) == "STRING":
        er.errors.append(Finding.error(
            "TENSOR_SIZE_MISMATCH",
            f"Tensor {tref.label}: a STRING tensor with {length} bytes of raw_data (strings live in string_data)",
            _HINT_INLINE, tref.name,
        ))
    else:
        mismatch = raw_data_size_finding(tref, length)
        if mismatch is not None:
            er.errors.append(mismatch)
    return er


def raw_data_size_finding(tref: TensorRef, nbytes: int) -> Finding | None:
    """TENSOR_SIZE_MISMATCH when ``nbytes`` of raw_data are not dims × element size (ORT refuses them at load).

    For raw_data parsed inline (core/checks/validate.py) and for raw_data left in the file by the skeleton reader.
    """
    want = expected_nbytes(tref.tensor)
    if want is None or nbytes == want:
        return None
    t = tref.tensor
    return Finding.error(
        "TENSOR_SIZE_MISMATCH",
        f"Tensor {tref.label}: {nbytes} bytes of raw_data, but {dtype_name(t.data_type)} {list(t.dims)} needs {want}",
        _HINT_INLINE,
        tref.name,
    )


def _check_overlaps(refs: list[ExternalRef], findings: list[Finding]) -> None:
    by_file: dict[Path, list[ExternalRef]] = {}
    for r in refs:
        if r.ok and r.path is not None and r.data_length:
            by_file.setdefault(r.path, []).append(r)
    for rs in by_file.values():
        rs.sort(key=lambda r: (r.offset or 0))
        for a, b in itertools.pairwise(rs):
            a_end = (a.offset or 0) + (a.data_length or 0)
            if (b.offset or 0) < a_end:
                findings.append(
                    Finding.warning(
                        "EXTDATA_OVERLAP",
                        f"Tensors {a.ref.name!r} and {b.ref.name!r} share bytes of {a.location!r}",
                        "Overlapping tensors are unusual; check the exporter. A merge copies each separately.",
                        b.ref.name,
                        other=a.ref.name, file=a.location,
                    )
                )


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
        #: tensor's first byte (core/model/proof.py hashes each tensor from the one read a merge does).
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
            raise ExternalDataError(
                f"Cannot open external data file {path}: {e.strerror}",
                "It changed since it was checked; run the command again.",
                code="EXTDATA_UNREADABLE",
            ) from None
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_nlink > 1:
            os.close(fd)
            raise ExternalDataError(
                f"External data file {path} changed into a non-regular or multiply-linked file while in use",
                "Make sure nothing else modifies the model folder while onnxpack runs.",
                code="EXTDATA_NOT_REGULAR",
            )
        fobj = os.fdopen(fd, "rb", buffering=0)
        self._files[path] = fobj  # type: ignore[assignment]
        return fobj  # type: ignore[return-value]

    def iter_chunks(
        self, ref: ExternalRef, chunk: int = CHUNK, cancel: CancelToken | None = None
    ) -> Iterator[bytes]:
        """Yield the tensor's bytes in chunks; raise if the file is shorter than validated."""
        if not ref.ok or ref.path is None or ref.data_length is None:
            raise ExternalDataError(f"Tensor {ref.ref.label} has invalid external data", _HINT_REEXPORT)
        start = pos = ref.offset or 0
        for data in self._chunks(ref.path, pos, ref.data_length, chunk, cancel, f"tensor {ref.ref.name!r}"):
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
            raise ExternalDataError(f"{path} is not a validated external data file of this model", _HINT_REEXPORT)
        yield from self._chunks(path, offset, length, chunk, cancel, "it")

    def _chunks(
        self, path: Path, pos: int, remaining: int | None, chunk: int, cancel: CancelToken | None, what: str
    ) -> Iterator[bytes]:
        """Read ``remaining`` bytes (None: to the end) of ``path`` from ``pos`` in chunks, polling ``cancel``."""
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
                    raise ExternalDataError(
                        f"External data file {path} got shorter while reading {what}",
                        "Make sure nothing else modifies the model folder while onnxpack runs.",
                        code="EXTDATA_OUT_OF_RANGE",
                    )
                remaining -= n
            pos += len(data)
            yield data

    def view(self, ref: ExternalRef) -> memoryview:
        """A zero-copy, read-only view of the tensor's bytes: a memory map of the validated file.

        The file is mapped once (through the descriptor opened and re-checked by this reader); the
        view stays valid after :meth:`close` until it is released.
        """
        if not ref.ok or ref.path is None or ref.data_length is None:
            raise ExternalDataError(f"Tensor {ref.ref.label} has invalid external data", _HINT_REEXPORT)
        if ref.data_length == 0:
            return memoryview(b"")
        m = self._maps.get(ref.path)
        if m is None:
            m = self._maps[ref.path] = mmap.mmap(self._open(ref.path).fileno(), 0, access=mmap.ACCESS_READ)
        start = ref.offset or 0
        if start + ref.data_length > len(m):
            raise ExternalDataError(
                f"External data file {ref.path} got shorter while reading tensor {ref.ref.name!r}",
                "Make sure nothing else modifies the model folder while onnxpack runs.",
                code="EXTDATA_OUT_OF_RANGE",
            )
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
            raise ExternalDataError(f"Tensor {ref.ref.label} has invalid external data", _HINT_REEXPORT)
        f = self._open(ref.path)
        src = f.fileno()
        pos = ref.offset or 0
        remaining = ref.data_length
        kernel_copy = getattr(os, "copy_file_range", None)
        while remaining > 0:
            check_cancel(cancel)
            n = min(chunk, remaining)
            done = 0
            if kernel_copy is not None:
                try:
                    done = kernel_copy(src, fd, n, pos)
                except OSError:  # EXDEV on old kernels, ENOSYS, EOPNOTSUPP...: use the next method
                    kernel_copy = None
            if kernel_copy is None and hasattr(os, "sendfile") and sys.platform.startswith("linux"):
                try:
                    done = os.sendfile(fd, src, pos, n)
                except OSError:
                    done = 0
            if done <= 0:
                f.seek(pos)
                data = f.read(n)
                view = memoryview(data)
                while view:
                    view = view[os.write(fd, view) :]
                done = len(data)
            if done <= 0:
                raise ExternalDataError(
                    f"External data file {ref.path} got shorter while reading tensor {ref.ref.name!r}",
                    "Make sure nothing else modifies the model folder while onnxpack runs.",
                    code="EXTDATA_OUT_OF_RANGE",
                )
            pos += done
            remaining -= done
            if on_chunk is not None:
                on_chunk(done)
        return ref.data_length
