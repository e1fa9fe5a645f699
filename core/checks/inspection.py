"""Inspect a model without loading its weights: layout, files, sizes, versions, interface, operators."""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from operator import attrgetter
from pathlib import Path
from typing import TYPE_CHECKING, Any

from onnx import ModelProto, TensorProto, TypeProto, ValueInfoProto

from .. import __version__, classcodes
from ..errors import InputError
from ..findings import Finding, Severity
from ..model.extdata.extref import ExternalTable
from ..model.extdata.extresolve import resolve_external_data
from ..model.layout import Layout
from ..model.merge.mergesize import lengths_exact, single_file_size
from ..model.modelfile import PROTOBUF_LIMIT, FileKind, ModelLocation, load_structure, locate_model, sniff
from ..model.tensors import (
    WalkCache,
    cached_walks,
    dtype_name,
    expected_nbytes,
    iter_graphs,
    iter_tensors,
    uses_external_data,
)
from ..progress import CancelToken, check_cancel
from . import codes
from .compat import CompatResult, oldest_ort

if TYPE_CHECKING:
    from ..model.loaded import LoadedModel

__all__ = ["INSPECT_SCHEMA", "Inspection", "describe_type", "domain_name", "inspect_model"]

INSPECT_SCHEMA = "onnxpack.inspect/1"
_DOMAIN, _OP_TYPE = attrgetter("domain"), attrgetter("op_type")


def domain_name(domain: str) -> str:
    """Display name of an operator-set domain (the default domain is ``ai.onnx``)."""
    return domain or "ai.onnx"


def describe_type(tp: TypeProto) -> tuple[str, list[int | str | None]]:
    """``(element type, shape)`` of a value's type; non-tensor types are spelled out (``sequence(FLOAT)``)."""
    which = tp.WhichOneof("value")
    if which in ("tensor_type", "sparse_tensor_type"):
        tt = tp.tensor_type if which == "tensor_type" else tp.sparse_tensor_type
        shape: list[int | str | None] = []
        if tt.HasField("shape"):
            for d in tt.shape.dim:
                kind = d.WhichOneof("value")
                dim = int(d.dim_value) if kind == "dim_value" else (d.dim_param if kind == "dim_param" else None)
                shape.append(dim)
        name = dtype_name(tt.elem_type)
        return (name if which == "tensor_type" else f"sparse({name})"), shape
    if which == "sequence_type":
        inner, _ = describe_type(tp.sequence_type.elem_type)
        return f"sequence({inner})", []
    if which == "optional_type":
        inner, shape = describe_type(tp.optional_type.elem_type)
        return f"optional({inner})", shape
    if which == "map_type":
        inner, _ = describe_type(tp.map_type.value_type)
        return f"map({dtype_name(tp.map_type.key_type)}, {inner})", []
    if which == "opaque_type":
        return f"opaque({tp.opaque_type.domain}.{tp.opaque_type.name})", []
    return "UNDEFINED", []


def _value(vi: ValueInfoProto) -> dict[str, Any]:
    elem, shape = describe_type(vi.type)
    return {"name": vi.name, "elem_type": elem, "shape": shape}


def _inline_nbytes(t: TensorProto) -> int:
    if t.HasField("raw_data"):
        return len(t.raw_data)
    n = expected_nbytes(t)
    return n if n is not None else int(t.ByteSize())


@dataclass
class TensorStats:
    """Count and bytes of a group of tensors, split inline / external."""

    count: int = 0
    inline_count: int = 0
    inline_bytes: int = 0
    external_count: int = 0
    external_bytes: int = 0

    @property
    def bytes(self) -> int:
        return self.inline_bytes + self.external_bytes

    def to_dict(self) -> dict[str, int]:
        return {
            "count": self.count,
            "bytes": self.bytes,
            "inline_count": self.inline_count,
            "inline_bytes": self.inline_bytes,
            "external_count": self.external_count,
            "external_bytes": self.external_bytes,
        }


@dataclass
class Inspection:
    """Everything `onnxpack inspect` reports; ``model`` is the structure (no weights), None for ORT."""

    location: ModelLocation
    layout: Layout
    files: list[dict[str, Any]]
    total_size: int
    model_size: int
    #: See the ``merged_size`` property; ``merged_thunk`` computes it on first use (it walks the structure, or
    #: protobuf's ByteSize() serializes it: a structure can have millions of entries), with ``merged_bound`` an upper
    #: bound known at once (:func:`_merged_sizing`).
    merged_size_value: int | None = field(default=None, repr=False)
    merged_size_exact: bool = True
    fits_value: bool | None = field(default=False, repr=False)
    merged_thunk: Callable[[], int] | None = field(default=None, repr=False, compare=False)
    merged_bound: int | None = field(default=None, repr=False)
    ir_version: int | None = None
    opsets: dict[str, int] = field(default_factory=dict)
    producer_name: str = ""
    producer_version: str = ""
    domain: str = ""
    model_version: int | None = None
    doc_string: str = ""
    graph_name: str = ""
    metadata: dict[str, str] = field(default_factory=dict)
    inputs: list[dict[str, Any]] = field(default_factory=list)
    outputs: list[dict[str, Any]] = field(default_factory=list)
    initializers: TensorStats = field(default_factory=TensorStats)
    sparse_initializer_count: int = 0
    constants: TensorStats = field(default_factory=TensorStats)
    operators: list[dict[str, Any]] = field(default_factory=list)
    node_count: int = 0
    functions: list[dict[str, Any]] = field(default_factory=list)
    subgraph_count: int = 0
    external: ExternalTable | None = None
    compat: CompatResult | None = None
    model: ModelProto | None = None
    ort: dict[str, Any] | None = None  # ORT-format models: what an ORT session reported
    findings: list[Finding] = field(default_factory=list)
    walks: WalkCache | None = field(default=None, repr=False, compare=False)  # the walks made, for check to reuse

    @property
    def ok(self) -> bool:
        return not any(f.severity is Severity.ERROR for f in self.findings)

    @property
    def merged_size(self) -> int | None:
        """Bytes of the model merged into one file (None for ORT-format models)."""
        if self.merged_thunk is not None:
            self.merged_size_value, self.merged_thunk = self.merged_thunk(), None
        return self.merged_size_value

    @property
    def fits_single_file(self) -> bool:
        """Whether the merged model stays under protobuf's 2 GiB limit."""
        if self.fits_value is None:
            if self.merged_thunk is not None and self.merged_bound is not None and self.merged_bound < PROTOBUF_LIMIT:
                return True
            size = self.merged_size
            self.fits_value = size is not None and size < PROTOBUF_LIMIT
        return self.fits_value

    @property
    def loaded(self) -> LoadedModel:
        """The skeleton and validated ranges, for the next stage (not for ORT-format models)."""
        from ..model.loaded import LoadedModel  # (the next stages' record: inspection alone does not import it)

        if self.model is None or self.external is None:
            raise ValueError("an ORT-format model has no ONNX structure")
        return LoadedModel(self.location, self.model, self.external)

    @property
    def is_ort(self) -> bool:
        return self.layout is Layout.ORT

    def to_dict(self) -> dict[str, Any]:
        """The ``onnxpack.inspect/1`` JSON document (docs/json-schemas.md)."""
        return {
            "schema": INSPECT_SCHEMA,
            "ok": self.ok,
            "onnxpack_version": __version__,
            "model": {"path": str(self.location.model), "name": self.location.model.name},
            "data_dir": str(self.location.data_dir),
            "format": "ort" if self.is_ort else "onnx",
            "layout": self.layout,
            "files": [dict(f) for f in self.files],
            "total_size": self.total_size,
            "model_size": self.model_size,
            "merged_size": self.merged_size,
            "merged_size_exact": self.merged_size_exact,
            "fits_single_file": self.fits_single_file,
            "protobuf_limit": PROTOBUF_LIMIT,
            "ir_version": self.ir_version,
            "opsets": dict(self.opsets),
            "producer_name": self.producer_name,
            "producer_version": self.producer_version,
            "domain": self.domain,
            "model_version": self.model_version,
            "doc_string": self.doc_string,
            "graph_name": self.graph_name,
            "metadata": dict(self.metadata),
            "inputs": [dict(v) for v in self.inputs],
            "outputs": [dict(v) for v in self.outputs],
            "initializers": {**self.initializers.to_dict(), "sparse_count": self.sparse_initializer_count},
            "constants": self.constants.to_dict(),
            "node_count": self.node_count,
            "operators": [dict(o) for o in self.operators],
            "functions": [dict(f) for f in self.functions],
            "subgraph_count": self.subgraph_count,
            "external_data": [r.to_dict() for r in self.external.external_refs] if self.external else [],
            "compat": self.compat.to_dict() if self.compat else None,
            "ort": self.ort,
            "findings": [f.to_dict() for f in self.findings],
        }


def _unreadable(path: Path, e: OSError) -> InputError:
    return classcodes.INPUT.error(variant="model_unreadable", path=str(path), reason=e.strerror)  # type: ignore[return-value]


def _stat_size(path: Path) -> int:
    try:
        return os.stat(path).st_size
    except OSError as e:
        raise _unreadable(path, e) from None


def _sniff(path: Path) -> FileKind:
    try:
        return sniff(path)
    except OSError as e:
        raise _unreadable(path, e) from None


def _inspect_ort(loc: ModelLocation, size: int, timeout: float | None, cancel: CancelToken | None) -> Inspection:
    # (only an ORT-format model needs a child process: plain inspection does not import the machinery)
    from .checker_child import CHECK_TIMEOUT, ort_session_info

    files = [{"path": loc.model.name, "role": "model", "size": size, "state": "ok"}]
    insp = Inspection(loc, Layout.ORT, files, size, size, fits_value=size < PROTOBUF_LIMIT)
    insp.findings.append(codes.ORT_FORMAT.finding(loc.model.name, model=loc.model.name))
    outcome = ort_session_info(loc.model, timeout=CHECK_TIMEOUT if timeout is None else timeout, cancel=cancel)
    if outcome.ok:
        info = dict(outcome.value)
        insp.ort = info
        insp.inputs = list(info["inputs"])
        insp.outputs = list(info["outputs"])
        insp.producer_name = str(info["producer_name"])
        insp.domain = str(info["domain"])
        insp.doc_string = str(info["description"])
        insp.graph_name = str(info["graph_name"])
        insp.model_version = int(info["model_version"])
        insp.metadata = dict(info["metadata"])
    else:
        why = outcome.detail if outcome.status == "error" else f"{outcome.status}: {outcome.detail}"
        insp.findings.append(codes.ORT_LOAD_FAILED.finding(loc.model.name, model=loc.model.name, detail=why))
    return insp


def _opsets(model: ModelProto, findings: list[Finding], name: str) -> dict[str, int]:
    opsets: dict[str, int] = {}
    for op in model.opset_import:
        d = domain_name(op.domain)
        if d in opsets:
            findings.append(codes.OPSET_DUPLICATE.finding(d, model=name, domain=d, first=opsets[d], second=op.version))
            opsets[d] = max(opsets[d], int(op.version))
        else:
            opsets[d] = int(op.version)
    return opsets


def inspect_model(
    path: str | os.PathLike[str],
    data_dir: str | os.PathLike[str] | None = None,
    *,
    cancel: CancelToken | None = None,
    verify_checksums: bool = False,
    ort_timeout: float | None = None,
) -> Inspection:
    """Inspect the model at ``path`` (file or folder) without reading weights.

    External data files are examined (kind, size, links) but not read, unless ``verify_checksums``
    asks to verify their SHA-1 ``checksum`` keys (validation does; plain inspection doesn't).
    Raises InputError / ModelFormatError when the file cannot be read as a model at all. ``ort_timeout``: seconds
    the child that loads an ORT-format model may take (default core/checks/checker_child.py's ``CHECK_TIMEOUT``).
    """
    loc = locate_model(path, data_dir)
    check_cancel(cancel)
    size = _stat_size(loc.model)
    kind = _sniff(loc.model)
    if kind is FileKind.ORT:
        return _inspect_ort(loc, size, ort_timeout, cancel)
    try:
        model = load_structure(loc.model)
    except OSError as e:
        raise _unreadable(loc.model, e) from None
    check_cancel(cancel)
    with cached_walks(model) as walks:  # each walk of the model once (a graph can have millions of nodes)
        insp = _inspect_structure(loc, model, size, verify_checksums, cancel)
    insp.walks = walks
    return insp


def _merged_sizing(model: ModelProto, table: ExternalTable, size: int) -> tuple[Callable[[], int], bool, int | None]:
    """How the merged size is sized on first use (the human output of a single file never shows it), whether it is
    exact, and an upper bound known at once (None: none). Re-serializing a parsed message at most triples it (a packed
    list of 1-byte values written unpacked with 2-byte tags); nothing else grows (unknown fields are kept as written).
    A single file's merged form is its own bytes re-serialized: the raw_data the skeleton left in it go back where
    they were (core/model/skeleton.py)."""
    bound: int | None = 3 * size + 1024
    if not table.refs:  # nothing to inline: the merged file is protobuf's serialization of the structure
        return model.ByteSize, True, bound
    exact = lengths_exact(table)
    if not exact or not all(r.inline for r in table.refs):
        bound = None
    return (lambda: single_file_size(model, table)[0]), exact, bound


def _inspect_structure(loc: ModelLocation, model: ModelProto, size: int, verify_checksums: bool,
                       cancel: CancelToken | None) -> Inspection:
    table = resolve_external_data(model, loc.data_dir, verify_checksums=verify_checksums, cancel=cancel)
    findings: list[Finding] = list(table.findings)
    external_refs = table.external_refs  # not the raw_data ranges the skeleton left in the model file
    layout = table.layout

    files: list[dict[str, Any]] = [{"path": loc.model.name, "role": "model", "size": size, "state": "ok"}]
    seen: set[str] = set()
    for r in external_refs:
        if r.location is None or r.location in seen:
            continue
        seen.add(r.location)
        size_of = table.files.get(r.location)
        codes = {f.code for ref in external_refs if ref.location == r.location for f in ref.errors}
        # ok; missing (not there); refused (its name or the file broke a rule: it was not opened, or not used)
        state = "ok" if size_of is not None else ("missing" if codes <= {"EXTDATA_MISSING"} else "refused")
        files.append({"path": r.location, "role": "external data", "size": size_of, "state": state})
    total = size + sum(table.files.values())

    thunk, exact, bound = _merged_sizing(model, table, size)
    insp = Inspection(
        loc,
        layout,
        files,
        total,
        size,
        merged_size_exact=exact,
        fits_value=None,
        merged_thunk=thunk,
        merged_bound=bound,
        ir_version=int(model.ir_version),
        producer_name=model.producer_name,
        producer_version=model.producer_version,
        domain=model.domain,
        model_version=int(model.model_version),
        doc_string=model.doc_string,
        graph_name=model.graph.name,
        metadata={p.key: p.value for p in model.metadata_props},
        external=table,
        model=model,
        findings=findings,
    )
    insp.opsets = _opsets(model, findings, loc.model.name)

    init_names = {t.name for t in model.graph.initializer}
    insp.inputs = [_value(v) for v in model.graph.input if v.name not in init_names]
    insp.outputs = [_value(v) for v in model.graph.output]

    for ref in iter_tensors(model):
        check_cancel(cancel)
        if ref.is_initializer:  # (the place of any other tensor is not worded: core/model/tensors.py TensorRef)
            if ref.where == "sparse initializer indices":
                continue  # one sparse initializer = its values + indices; counted once, by its values
            if ref.where == "sparse initializer values":
                insp.sparse_initializer_count += 1
            stats = insp.initializers
        else:
            stats = insp.constants
        stats.count += 1
        if not uses_external_data(ref.tensor):
            stats.inline_count += 1
            stats.inline_bytes += _inline_nbytes(ref.tensor)
    for r in table.refs:  # every tensor whose bytes were not read, once each
        stats = insp.initializers if r.ref.is_initializer else insp.constants
        if r.inline:  # raw_data left in the model file by the skeleton reader: inline all the same
            stats.inline_count += 1
            stats.inline_bytes += r.data_length if r.data_length is not None else (r.length or 0)
            continue
        stats.external_count += 1
        n = r.data_length if r.data_length is not None else (r.length or r.expected_length or 0)
        stats.external_bytes += n

    ops: Counter[tuple[str, str]] = Counter()
    for _label, _graph, nodes in iter_graphs(model):  # (counted at C speed: a graph can have millions of nodes)
        ops.update(zip(map(_DOMAIN, nodes), map(_OP_TYPE, nodes), strict=True))
    for key in [k for k in ops if k[0] == ""]:  # the default domain by its display name
        ops[(domain_name(""), key[1])] += ops.pop(key)
    insp.node_count = sum(ops.values())
    insp.operators = [
        {"domain": d, "op_type": o, "count": c} for (d, o), c in sorted(ops.items(), key=lambda kv: (-kv[1], kv[0]))
    ]
    insp.functions = [
        {
            "domain": f.domain,
            "name": f.name,
            "overload": f.overload,
            "nodes": len(f.node),
            "opsets": {domain_name(o.domain): int(o.version) for o in f.opset_import},
        }
        for f in model.functions
    ]
    insp.subgraph_count = sum(1 for label, _g, _n in iter_graphs(model) if label.startswith("subgraph "))
    insp.compat = oldest_ort(insp.ir_version or 0, insp.opsets, model)
    return insp
