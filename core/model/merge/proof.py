"""The bundle's equality proof without a second ONNX Runtime session: same structure, every tensor hash-equal.

A merge changes where a tensor's bytes live (external file → ``raw_data``, or a new data file), never the bytes
nor anything else in the model. So the merged model is the source model exactly when

* their *fingerprints* are equal: each model's structure (skeleton, core/model/skeleton.py) with every tensor's
  storage (``raw_data``, ``external_data``, ``data_location``) replaced by the SHA-256 of the tensor's bytes,
  serialized deterministically; and
* the digests are honest: the source's are computed from the chunks the merge itself reads (one read,
  :class:`TensorHasher` as an :class:`ExternalDataReader` tensor observer), the merged model's by
  parsing the written file again on its own (its skeleton and validated ranges, not the merge's bookkeeping)
  and hashing each of its tensors. The `merge` command reads each tensor back from the written file as soon as it
  is there (:class:`~.streamhash.RangeFollower`), so that hashing overlaps the write; the parse still decides which
  ranges are tensors, and a digest read back early counts only for a range it finds exactly.

This proves bitwise equality of every weight and of the graph, which the two-session output comparison
(still run for small models, see core/release/bundle.py) only samples on one input.
Hand-written: no library compares two ONNX models modulo tensor storage.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
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
from .mergeparts import tensor_paths
from .streamhash import HashWorker

__all__ = [
    "FILE_METHOD", "METHOD", "PROOF_THREADS", "RangeKey", "TensorHasher", "WeightsProof", "fingerprint",
    "hash_model_tensors", "proof_threads", "prove_same_model",
]

#: How the manifest names this proof.
METHOD = "structure+tensor-sha256"
#: The proof when the bundled model file is the source file byte for byte (same size and SHA-256, each hashed from
#: our own reads): nothing is parsed again, and ``fingerprint_sha256`` is the file's SHA-256.
FILE_METHOD = "file-sha256"

RangeKey = tuple[Path, int, int]  # (file, offset, length): one stored byte range


def _key(ref: ExternalRef) -> RangeKey | None:
    if not ref.ok or ref.path is None or ref.data_length is None:
        return None
    return (ref.path, ref.offset or 0, ref.data_length)


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
        key = _key(ref)
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
            key = _key(ref)
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
    copy = ModelProto()
    copy.CopyFrom(model)
    labels: list[str] = []
    for (_path, t), digest in zip(tensor_paths(copy), per_tensor, strict=True):
        labels.append(t.name or "(unnamed tensor)")
        del t.external_data[:]
        t.data_location = TensorProto.DEFAULT
        t.raw_data = b"" if digest is None else b"sha256:" + digest.encode("ascii")
    return copy.SerializeToString(deterministic=True), labels


#: The written model's tensors are hashed on up to this many threads (hashlib and file reads release the GIL).
PROOF_THREADS = 4


def proof_threads(threads: int | None = None) -> int:
    """The threads that hash a proof's tensors: ``threads`` (default every core), at most :data:`PROOF_THREADS`."""
    import os

    return max(1, min(threads or os.cpu_count() or 1, PROOF_THREADS))


def _shares(keyed: list[tuple[RangeKey, ExternalRef]], n: int) -> list[list[tuple[RangeKey, ExternalRef]]]:
    """``keyed`` in ``n`` shares of about equal bytes (largest first to the lightest share), each in file order."""
    shares: list[list[tuple[RangeKey, ExternalRef]]] = [[] for _ in range(n)]
    loads = [0] * n
    for key, ref in sorted(keyed, key=lambda kr: -kr[0][2]):
        i = loads.index(min(loads))
        shares[i].append((key, ref))
        loads[i] += key[2]
    return [sorted(share, key=lambda kr: kr[0]) for share in shares if share]


def hash_model_tensors(
    table: ExternalTable, cancel: CancelToken | None = None, chunk: int = CHUNK, threads: int | None = None,
    known: Mapping[RangeKey, str] | None = None,
) -> dict[RangeKey, str]:
    """Read every validated range of ``table`` once and return its SHA-256: the ranges in shares of about equal
    bytes, one thread each (``threads``: default every core, at most :data:`PROOF_THREADS`), each reading its share
    in file order with its own reader. A tensor is hashed whole by one thread, so a digest is the same however the
    ranges are shared out. ``known``: digests of ranges already read from these very files (a
    :class:`~.streamhash.RangeFollower`'s), taken for the ranges of ``table`` they name exactly."""
    import threading
    from concurrent.futures import ThreadPoolExecutor

    unique = {key: r for r in table.refs if (key := _key(r)) is not None and key[2] != 0}
    given = {key: known[key] for key in unique if key in known} if known else {}
    unique = {key: r for key, r in unique.items() if key not in given}
    if not unique:
        return given
    n = min(proof_threads(threads), len(unique))
    failed = threading.Event()  # one share failed: the others stop at their next chunk

    def run(share: list[tuple[RangeKey, ExternalRef]]) -> dict[RangeKey, str]:
        out: dict[RangeKey, str] = {}
        try:
            with ExternalDataReader(table) as reader:
                for key, ref in share:
                    h = hashlib.sha256()
                    for data in reader.iter_chunks(ref, chunk, cancel):
                        if failed.is_set():
                            return out
                        h.update(data)
                    out[key] = h.hexdigest()
        except BaseException:
            failed.set()
            raise
        return out

    shares = _shares(list(unique.items()), n)
    if len(shares) <= 1:
        return {**given, **run(shares[0])}
    digests: dict[RangeKey, str] = dict(given)
    with ThreadPoolExecutor(max_workers=len(shares), thread_name_prefix="onnxpack-proof-sha256") as pool:
        for part in pool.map(run, shares):  # a share's error (a short file, cancel) is raised here
            digests.update(part)
    return digests


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


def prove_same_model(
    source: ModelProto,
    source_table: ExternalTable,
    source_digests: Mapping[RangeKey, str],
    merged: Path,
    merged_data_dir: Path,
    cancel: CancelToken | None = None,
    window: Window | None = None,
    known: Mapping[RangeKey, str] | None = None,
) -> WeightsProof:
    """Parse and hash the written ``merged`` model on its own and compare its fingerprint with the source's.

    ``window``: the merged model is that byte range of ``merged`` (its stored ZIP entry, read in place).
    ``known``: digests of byte ranges of the written files, read back from them while they were written
    (:class:`~.streamhash.RangeFollower`); one counts only for a range this parse finds, the others are hashed now.
    Raises RuntimeFailure (MERGE_NOT_EQUAL) naming the first tensor that differs, or saying that the structure does.
    """
    model = load_structure(merged, window)
    check_cancel(cancel)
    table = resolve_external_data(model, merged_data_dir, verify_checksums=False, cancel=cancel)
    table.raise_if_invalid()
    merged_digests = hash_model_tensors(table, cancel, known=known)
    want, labels = fingerprint(source, source_table, source_digests)
    got, _ = fingerprint(model, table, merged_digests)
    if want != got:
        a = _digests_by_tensor(source, source_table, source_digests)
        b = _digests_by_tensor(model, table, merged_digests)
        diff = next((labels[i] for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), None)
        if diff is not None:
            raise codes.MERGE_NOT_EQUAL.error(variant="tensor", tensor=diff)
        if len(a) != len(b):
            raise codes.MERGE_NOT_EQUAL.error(variant="count", count=len(b), expected=len(a))
        raise codes.MERGE_NOT_EQUAL.error()
    total = sum(r.data_length or 0 for r in table.refs)
    total += sum(len(t.raw_data) for _p, t in tensor_paths(model))
    return WeightsProof(len(labels), total, hashlib.sha256(got).hexdigest())


def _internal(message: str) -> InternalError:
    return classcodes.INTERNAL.error(variant="proof", detail=message)  # type: ignore[return-value]
