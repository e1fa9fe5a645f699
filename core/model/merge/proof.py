"""The equality proof without a second ONNX Runtime session: the same structure, every tensor byte-equal.

A merge changes where a tensor's bytes live (external file → ``raw_data``, or a new data file), never the bytes
nor anything else in the model. So the merged model is the source model exactly when

* their *structures* are equal: each model's structure (skeleton, core/model/skeleton.py) with every tensor's
  storage (``raw_data``, ``external_data``, ``data_location``) replaced by its byte count, serialized
  deterministically; and
* every tensor's bytes are equal, compared directly (:func:`first_different`): the written model's as found by
  parsing the written file again on its own (its skeleton and validated ranges, not the merge's bookkeeping), the
  source's as found by the source's validated table, each read from its own files. This is stronger than comparing
  two digests and cheaper: a memcmp of what is in the page cache runs at memory speed, where each SHA-256 pass cost
  a core-second per 1.1-1.5 GB (issue 40). The written bytes came from the merge's first read of the source; equal
  to a second read, the source did not change under the merge (or changed to exactly what was written).

The bundle's manifest also records a *fingerprint*: the structure with every tensor's storage replaced by the
SHA-256 of its bytes, computed from the chunks the merge itself reads (:class:`TensorHasher` as an
:class:`ExternalDataReader` tensor observer). Equal bytes have equal digests, so it is the shipped model's too.

This proves bitwise equality of every weight and of the graph, which the two-session output comparison
(still run for small models, see core/release/bundle.py) only samples on one input.
Hand-written: no library compares two ONNX models modulo tensor storage.
"""

from __future__ import annotations

import hashlib
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from onnx import ModelProto, TensorProto

from ... import classcodes
from ...errors import InternalError
from ...progress import CancelToken, check_cancel
from .. import codes
from ..extdata.extreader import ExternalDataReader
from ..extdata.extref import CHUNK, ExternalRef, ExternalTable
from ..extdata.extresolve import resolve_external_data
from ..modelfile import Window, load_structure
from .earlycompare import RangeKey, WrittenKey, range_key, same_bytes, written_key
from .mergeparts import tensor_paths
from .streamhash import HashWorker

__all__ = [
    "COMPARE_CHUNK",
    "FILE_METHOD",
    "METHOD",
    "PROOF_THREADS",
    "Content",
    "RangeKey",
    "TensorHasher",
    "WeightsProof",
    "fingerprint",
    "first_different",
    "proof_threads",
    "prove_same_bytes",
    "prove_same_model",
]

#: How the manifest names this proof.
METHOD = "structure+tensor-sha256"
#: The proof when the bundled model file is the source file byte for byte (same size and SHA-256, each hashed from
#: our own reads): nothing is parsed again, and ``fingerprint_sha256`` is the file's SHA-256.
FILE_METHOD = "file-sha256"


class TensorHasher:
    """SHA-256 of every tensor an :class:`ExternalDataReader` reads whole: install as ``reader.tensor_observer``.

    Large chunks are hashed on a helper thread (:class:`~core.streamhash.HashWorker`) while the caller writes them.
    Use as a context manager or call :meth:`finish`.
    """

    def __init__(self) -> None:
        self._open: dict[int, tuple[Any, int]] = {}  # id(ref) → (hash, next position)
        self._hashes: dict[RangeKey, Any] = {}
        self._worker = HashWorker("onnxpack-tensor-sha256")

    def __enter__(self) -> TensorHasher:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __call__(self, ref: ExternalRef, position: int, data: bytes) -> None:
        key = range_key(ref)
        if key is None:
            return
        if position == 0:
            h = hashlib.sha256()
        else:
            h, expected = self._open.get(id(ref), (None, -1))
            if h is None or position != expected:  # a partial read: not a whole tensor, so no digest
                self._open.pop(id(ref), None)
                return
        end = position + len(data)
        if end >= key[2]:
            self._open.pop(id(ref), None)
            self._hashes[key] = h
        else:
            self._open[id(ref)] = (h, end)
        self._worker.update(h, data)

    def close(self) -> None:
        self._worker.close()

    def finish(self) -> dict[RangeKey, str]:
        """``{(file, offset, length): sha256 hex}`` of every range read whole."""
        self.close()
        return {k: h.hexdigest() for k, h in self._hashes.items()}


_EMPTY = hashlib.sha256(b"").hexdigest()


def _digests_by_tensor(model: ModelProto, table: ExternalTable, digests: Mapping[RangeKey, str]) -> list[str | None]:
    """Per tensor of ``model`` (in :func:`~core.merge.tensor_paths` order): the SHA-256 of its bytes (None: no bytes
    field, e.g. ``float_data`` or an empty tensor)."""
    by_id = {id(r.ref.tensor): r for r in table.refs}
    out: list[str | None] = []
    for _path, t in tensor_paths(model):
        ref = by_id.get(id(t))
        if ref is not None:
            key = range_key(ref)
            if key is None:
                raise _internal(f"tensor {ref.ref.label} has no valid range")
            digest = _EMPTY if key[2] == 0 else digests.get(key)
            if digest is None:
                raise _internal(f"tensor {ref.ref.label} was not read whole")
        else:
            digest = hashlib.sha256(t.raw_data).hexdigest() if t.raw_data else None
        out.append(None if digest == _EMPTY else digest)
    return out


def fingerprint(model: ModelProto, table: ExternalTable, digests: Mapping[RangeKey, str]) -> tuple[bytes, list[str]]:
    """The model with each tensor's storage replaced by its bytes' SHA-256, serialized deterministically; and the
    tensor labels in the same order (for messages). Equal fingerprints = the same model, bit for bit."""
    per_tensor = _digests_by_tensor(model, table, digests)
    return _storage_replaced(model, [b"" if d is None else b"sha256:" + d.encode("ascii") for d in per_tensor])


def _storage_replaced(model: ModelProto, stand_ins: list[bytes]) -> tuple[bytes, list[str]]:
    """``model`` with each tensor's storage (``raw_data``, ``external_data``, ``data_location``) replaced by its
    stand-in as ``raw_data``, in :func:`~core.merge.tensor_paths` order, serialized deterministically; and the tensor
    labels in the same order."""
    copy = ModelProto()
    copy.CopyFrom(model)
    labels: list[str] = []
    for (_path, t), stand_in in zip(tensor_paths(copy), stand_ins, strict=True):
        labels.append(t.name or "(unnamed tensor)")
        del t.external_data[:]
        t.data_location = TensorProto.DEFAULT
        t.raw_data = stand_in
    return copy.SerializeToString(deterministic=True), labels


#: The written model's tensors are compared with the source's on up to this many threads (file reads release the
#: GIL; a comparison of two 1 MiB buffers is a memcmp of some 50 µs).
PROOF_THREADS = 4
#: Each thread compares the two sides in buffers of this size, reused (they stay in the CPU cache).
COMPARE_CHUNK = CHUNK

#: Where one tensor's bytes are: a validated byte range of a file, its ``raw_data`` held in the structure, or None
#: (no bytes field: ``float_data`` and the like, which the structure holds, or an empty tensor).
Content = ExternalRef | bytes | None


def proof_threads(threads: int | None = None) -> int:
    """The threads that compare a proof's tensors: ``threads`` (default every core), at most :data:`PROOF_THREADS`."""
    import os

    return max(1, min(threads or os.cpu_count() or 1, PROOF_THREADS))


def _contents(model: ModelProto, table: ExternalTable) -> list[Content]:
    """Per tensor of ``model`` (in :func:`~core.merge.tensor_paths` order): where its bytes are."""
    by_id = {id(r.ref.tensor): r for r in table.refs}
    out: list[Content] = []
    for _path, t in tensor_paths(model):
        ref = by_id.get(id(t))
        if ref is None:
            out.append(t.raw_data or None)
        elif range_key(ref) is None:
            raise _internal(f"tensor {ref.ref.label} has no valid range")
        else:
            out.append(ref if ref.data_length else None)
    return out


def _size(c: Content) -> int:
    return 0 if c is None else len(c) if isinstance(c, bytes) else c.data_length or 0


def _structure(model: ModelProto, contents: list[Content]) -> tuple[bytes, list[str]]:
    """The model with each tensor's storage replaced by its byte count, serialized deterministically; and the tensor
    labels in the same order. Equal structures with byte-equal tensors = the same model, bit for bit."""
    return _storage_replaced(model, [b"" if c is None else b"bytes:%d" % _size(c) for c in contents])


def _shares(pairs: list[tuple[int, int]], n: int) -> list[list[int]]:
    """``pairs`` ((index, bytes)) in ``n`` shares of about equal bytes (largest first to the lightest share), each share
    in index order."""
    shares: list[list[int]] = [[] for _ in range(n)]
    loads = [0] * n
    for index, size in sorted(pairs, key=lambda p: -p[1]):
        i = loads.index(min(loads))
        shares[i].append(index)
        loads[i] += size
    return [sorted(share) for share in shares if share]


class _Comparer:
    """One thread's side of the comparison: a reader of each model's files and two reused buffers."""

    def __init__(self, a: ExternalDataReader, b: ExternalDataReader, chunk: int, cancel: CancelToken | None) -> None:
        self._readers = (a, b)
        self._bufs = (bytearray(chunk), bytearray(chunk))
        self._cancel = cancel

    def same(self, a: Content, b: Content) -> bool:
        """Whether ``a`` (the source's) and ``b`` (the written model's) hold the same bytes."""
        if isinstance(a, bytes) and isinstance(b, bytes):
            return a == b
        if a is None or b is None or _size(a) != _size(b):
            return a is b
        if isinstance(a, bytes) or isinstance(b, bytes):  # one side held in the structure (a small tensor, mostly)
            ref, raw, reader = (b, a, self._readers[1]) if isinstance(a, bytes) else (a, b, self._readers[0])
            assert isinstance(ref, ExternalRef) and isinstance(raw, bytes)
            pos = 0
            for data in reader.iter_chunks(ref, len(self._bufs[0]), self._cancel):
                if data != raw[pos : pos + len(data)]:
                    return False
                pos += len(data)
            return True
        ra, rb = self._readers
        return same_bytes(_size(a), lambda pos, view: ra.readinto(a, pos, view),
                          lambda pos, view: rb.readinto(b, pos, view), self._bufs, lambda: check_cancel(self._cancel))


def first_different(source: list[Content], source_table: ExternalTable, written: list[Content],
                    written_table: ExternalTable, cancel: CancelToken | None = None, chunk: int = COMPARE_CHUNK,
                    threads: int | None = None, skip: Collection[int] = ()) -> int | None:
    """The index of the first tensor whose bytes differ between ``source`` and ``written`` (the same count), each read
    from its own files; None when every tensor is byte-equal. The tensors are compared in shares of about equal
    bytes, one thread each (``threads``: default every core, at most :data:`PROOF_THREADS`); a thread that finds a
    difference stops the others at their next tensor, so the index is the first of those seen. ``skip``: indices
    already found byte-equal (:func:`_compared_already`)."""
    import threading
    from concurrent.futures import ThreadPoolExecutor

    pairs = [(i, _size(a)) for i, (a, b) in enumerate(zip(source, written, strict=True))
             if (a is not None or b is not None) and i not in skip]
    if not pairs:
        return None
    found = threading.Event()  # a share found a difference or failed: the others stop at their next tensor

    def run(share: list[int]) -> list[int]:
        try:
            with ExternalDataReader(source_table) as ra, ExternalDataReader(written_table) as rb:
                compare = _Comparer(ra, rb, chunk, cancel)
                for i in share:
                    if found.is_set():
                        break
                    if not compare.same(source[i], written[i]):
                        found.set()
                        return [i]
        except BaseException:
            found.set()
            raise
        return []

    shares = _shares(pairs, min(proof_threads(threads), len(pairs)))
    if len(shares) == 1:
        differ = run(shares[0])
    else:
        with ThreadPoolExecutor(max_workers=len(shares), thread_name_prefix="onnxpack-proof-compare") as pool:
            # a share's error (a data file cut short) is raised here
            differ = [i for part in pool.map(run, shares) for i in part]
    return min(differ, default=None)


def _compared_already(source: list[Content], written: list[Content],
                      compared: Collection[tuple[RangeKey, WrittenKey]]) -> set[int]:
    """The tensors whose bytes were found equal while the merge wrote them: the source range and the range the
    written model's parse finds (in the file now at its path: device and inode) are a pair compared."""
    if not compared:
        return set()
    import os

    identity: dict[Path, tuple[int, int] | None] = {}
    done: set[int] = set()
    for i, (a, b) in enumerate(zip(source, written, strict=True)):
        if not isinstance(a, ExternalRef) or not isinstance(b, ExternalRef) or b.path is None:
            continue
        if b.path not in identity:
            try:
                st = os.stat(b.path)
                identity[b.path] = (st.st_dev, st.st_ino)
            except OSError:
                identity[b.path] = None
        ident, skey = identity[b.path], range_key(a)
        wkey = written_key(ident, b) if ident is not None else None
        if skey is not None and wkey is not None and (skey, wkey) in compared:
            done.add(i)
    return done


@dataclass
class WeightsProof:
    """What the fingerprint comparison established (for the manifest)."""

    tensors: int
    tensor_bytes: int
    fingerprint_sha256: str
    method: str = METHOD

    def to_dict(self) -> dict[str, Any]:
        return {
            "method": self.method,
            "tensors": self.tensors,
            "tensor_bytes": self.tensor_bytes,
            "fingerprint_sha256": self.fingerprint_sha256,
        }


def prove_same_bytes(
    source: ModelProto,
    source_table: ExternalTable,
    merged: Path,
    merged_data_dir: Path,
    cancel: CancelToken | None = None,
    window: Window | None = None,
    compared: Collection[tuple[RangeKey, WrittenKey]] = (),
) -> tuple[int, int]:
    """Parse the written ``merged`` model on its own and compare it with the source: the same structure, and every
    tensor's bytes read from the written files equal to its bytes read from the source's. Returns (tensors, bytes).

    ``window``: the merged model is that byte range of ``merged`` (its stored ZIP entry, read in place).
    ``compared``: (source range, written range) pairs found byte-equal while the merge wrote (earlycompare.py); a
    tensor the parse finds at such a pair is not read again.
    Raises RuntimeFailure (MERGE_NOT_EQUAL) naming the first tensor that differs, or saying that the count or the
    structure does.
    """
    model = load_structure(merged, window)
    check_cancel(cancel)
    table = resolve_external_data(model, merged_data_dir, verify_checksums=False, cancel=cancel)
    table.raise_if_invalid()
    want, got = _contents(source, source_table), _contents(model, table)
    if len(want) != len(got):
        raise codes.MERGE_NOT_EQUAL.error(variant="count", count=len(got), expected=len(want))
    (a, labels), (b, _) = _structure(source, want), _structure(model, got)
    done = _compared_already(want, got, compared)
    diff = first_different(want, source_table, got, table, cancel, skip=done)  # (first: a tensor named tells more)
    if diff is not None:
        raise codes.MERGE_NOT_EQUAL.error(variant="tensor", tensor=labels[diff])
    if a != b:
        raise codes.MERGE_NOT_EQUAL.error()
    return len(labels), sum(map(_size, got))


def prove_same_model(
    source: ModelProto,
    source_table: ExternalTable,
    source_digests: Mapping[RangeKey, str],
    merged: Path,
    merged_data_dir: Path,
    cancel: CancelToken | None = None,
    window: Window | None = None,
) -> WeightsProof:
    """:func:`prove_same_bytes`, and the fingerprint both models share, from the source's digests (computed from the
    chunks the merge read: equal bytes, equal digests). Raises as :func:`prove_same_bytes`, and InternalError for a
    source tensor that was not read whole."""
    want, _ = fingerprint(source, source_table, source_digests)  # first: a missing digest is our bug, said as such
    tensors, total = prove_same_bytes(source, source_table, merged, merged_data_dir, cancel, window)
    return WeightsProof(tensors, total, hashlib.sha256(want).hexdigest())


def _internal(message: str) -> InternalError:
    return classcodes.INTERNAL.error(variant="proof", detail=message)  # type: ignore[return-value]
