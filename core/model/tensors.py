"""Walk every TensorProto of a model: initializers, sparse, attributes, subgraphs, functions."""

from __future__ import annotations

import contextlib
import functools
import math
import operator
import threading
from collections.abc import Iterable, Iterator
from typing import Any

import numpy as np
import onnx
from google.protobuf.message import Message
from onnx import (
    AttributeProto,
    GraphProto,
    ModelProto,
    NodeProto,
    SparseTensorProto,
    TensorProto,
    TrainingInfoProto,
)

from .places import Where, word

__all__ = [
    "TensorRef",
    "WalkCache",
    "cached_walks",
    "dtype_name",
    "expected_nbytes",
    "holders",
    "iter_graphs",
    "iter_nodes",
    "iter_tensors",
    "tensor_fields",
    "uses_external_data",
]

_TENSOR = TensorProto.DESCRIPTOR.full_name

# Element types stored packed, several per byte (onnx docs/IR.md); the bit width per element.
_PACKED_BITS = {
    "INT4": 4,
    "UINT4": 4,
    "FLOAT4E2M1": 4,
    "INT2": 2,
    "UINT2": 2,
}


class TensorRef:
    """A tensor found in the model and where it sits (for messages).

    ``where`` (e.g. "initializer", "sparse initializer values", "attribute 'value' of node 'c1'") and ``graph`` (the
    graph or function that holds it) are worded when first read: a graph of 1500 Constants has as many places, which
    only findings and the JSON document name. Compared by value.
    """

    __slots__ = ("_ctx", "_graph", "_labels", "_where", "is_initializer", "tensor")

    def __init__(self, tensor: TensorProto, where: str, graph: str, is_initializer: bool = False) -> None:
        self.tensor = tensor
        self.is_initializer = is_initializer
        self._where, self._graph = where, graph
        self._ctx: Any = None  # the place, for a tensor a walk found: (parent place, parent message, field, index)
        self._labels: dict[int, tuple[Any, Where]] | None = None  # set while the place is not worded yet

    @classmethod
    def _found(cls, tensor: TensorProto, ctx: Any, at: Where | None,
               labels: dict[int, tuple[Any, Where]]) -> TensorRef:
        """A tensor a walk found at ``ctx``: its place ``at``, or (None: an attribute's tensor, never an initializer,
        core/model/places.py _in_attribute) its place worded when first read."""
        if at is None:
            ref = cls(tensor, "", "")
            ref._labels = labels
        else:
            ref = cls(tensor, at.where, at.graph, at.init)
        ref._ctx = ctx
        return ref

    def _worded(self) -> None:
        if self._labels is not None:
            at = word(self._ctx, self._labels)
            self._where, self._graph, self._labels = at.where, at.graph, None

    @property
    def where(self) -> str:
        self._worded()
        return self._where

    @property
    def graph(self) -> str:
        self._worded()
        return self._graph

    @property
    def name(self) -> str:
        return self.tensor.name or f"<unnamed {self.where}>"

    @property
    def label(self) -> str:
        """Human-readable name: tensor name plus its place in the model."""
        return f"{self.name} ({self.where} in {self.graph})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TensorRef):
            return NotImplemented
        return (self.tensor, self.where, self.graph, self.is_initializer) == (
            other.tensor, other.where, other.graph, other.is_initializer)

    __hash__ = None  # type: ignore[assignment]  # (a TensorProto is not hashable either)

    def __repr__(self) -> str:
        return (f"TensorRef(tensor={self.tensor.name!r}, where={self.where!r}, graph={self.graph!r}, "
                f"is_initializer={self.is_initializer!r})")


def holders(ref: TensorRef) -> list[Message] | None:
    """The messages that hold ``ref.tensor``, innermost first, up to the model; None for a reference no walk made."""
    ctx = ref._ctx
    if ctx is None:
        return None
    out = []
    while ctx is not None:
        out.append(ctx[1])
        ctx = ctx[0]
    return out


def dtype_name(data_type: int) -> str:
    """ONNX element type name, e.g. ``FLOAT``; ``UNKNOWN(n)`` for values this onnx doesn't know."""
    try:
        return str(TensorProto.DataType.Name(data_type))
    except ValueError:
        return f"UNKNOWN({data_type})"


def expected_nbytes(tensor: TensorProto) -> int | None:
    """Bytes the raw data of ``tensor`` must have (dims × element size), None if not computable.

    Packed 4-bit/2-bit types round up to whole bytes. STRING tensors have no fixed size.
    """
    bits = _element_bits(tensor.data_type)
    if bits is None:
        return None
    count = int(math.prod(tensor.dims))
    return (count * bits + 7) // 8 if bits < 8 else count * (bits // 8)


@functools.cache
def _element_bits(data_type: int) -> int | None:
    """Bits per element of an ONNX element type, None when it has no fixed size (once per type: a model can have
    100 000 tensors)."""
    name = dtype_name(data_type)
    if name in _PACKED_BITS:
        return _PACKED_BITS[name]
    if name in ("STRING", "UNDEFINED") or name.startswith("UNKNOWN"):
        return None
    try:
        itemsize = np.dtype(onnx.helper.tensor_dtype_to_np_dtype(data_type)).itemsize
    except (KeyError, TypeError, ValueError):
        return None
    if name.startswith("FLOAT6"):
        # No packing of 6-bit floats is fixed by the spec we rely on; don't guess.
        return None
    return 8 * int(itemsize)


def uses_external_data(tensor: TensorProto) -> bool:
    """True when the tensor says its data lives in an external file."""
    return bool(tensor.HasField("data_location") and tensor.data_location == TensorProto.EXTERNAL)


class WalkCache:
    """The walks of one model (:func:`iter_tensors`, :func:`iter_graphs`), kept while :func:`cached_walks` is open.

    Inspect and check walk a model several times (counts, external references, findings, compatibility); on a graph of
    200 000 nodes each walk costs a second of Python. Within the scope each walk runs once; the model must not change
    shape meanwhile (tensor headers may: the references are the tensors themselves).
    """

    def __init__(self, model: ModelProto) -> None:
        self.model = model
        self.tensors: list[TensorRef] | None = None
        self.graphs: list[tuple[str, GraphProto | None, list[NodeProto]]] | None = None
        self.users = 0


_ACTIVE: dict[int, WalkCache] = {}
_ACTIVE_LOCK = threading.Lock()


@contextlib.contextmanager
def cached_walks(model: ModelProto, cache: WalkCache | None = None) -> Iterator[WalkCache]:
    """Within the block, :func:`iter_tensors` and :func:`iter_graphs` of ``model`` walk it once (``cache``: a
    :class:`WalkCache` of an earlier block on the same model, reused)."""
    key = id(model)
    with _ACTIVE_LOCK:
        entry = _ACTIVE.get(key)
        if entry is None or entry.model is not model:
            entry = cache if cache is not None and cache.model is model else WalkCache(model)
            _ACTIVE[key] = entry
        entry.users += 1
    try:
        yield entry
    finally:
        with _ACTIVE_LOCK:
            entry.users -= 1
            if entry.users == 0 and _ACTIVE.get(key) is entry:
                del _ACTIVE[key]


def _cache_of(model: ModelProto) -> WalkCache | None:
    entry = _ACTIVE.get(id(model))
    return entry if entry is not None and entry.model is model else None


def iter_graphs(model: ModelProto) -> Iterator[tuple[str, GraphProto | None, list[NodeProto]]]:
    """Yield ``(label, graph or None, nodes)`` for the main graph, every subgraph and every function.

    Iterative (explicit stack), so deeply nested If/Loop bodies can't hit Python's recursion limit.
    """
    cache = _cache_of(model)
    if cache is None:
        return _iter_graphs(model)
    if cache.graphs is None:
        cache.graphs = list(_iter_graphs(model))
    return iter(cache.graphs)


def _iter_graphs(model: ModelProto) -> Iterator[tuple[str, GraphProto | None, list[NodeProto]]]:
    stack: list[tuple[str, GraphProto | None, list[NodeProto]]] = []
    stack.append((f"graph '{model.graph.name or 'main'}'", model.graph, list(model.graph.node)))
    for ti, info in enumerate(model.training_info):
        stack.append((f"training_info[{ti}] initialization", info.initialization, list(info.initialization.node)))
        stack.append((f"training_info[{ti}] algorithm", info.algorithm, list(info.algorithm.node)))
    for f in model.functions:
        stack.append((f"function '{f.domain}.{f.name}'", None, list(f.node)))
        for attr in f.attribute_proto:  # graph-valued attribute defaults of a function are graphs too
            for sub in ([attr.g] if attr.HasField("g") else []) + list(attr.graphs):
                stack.append((f"subgraph '{sub.name or attr.name}' of function '{f.domain}.{f.name}'", sub,
                              list(sub.node)))
    while stack:
        label, graph, nodes = stack.pop()
        yield label, graph, nodes
        for node, attr in _graph_attributes(nodes):
            subs = ([attr.g] if attr.HasField("g") else []) + list(attr.graphs)
            for sub in subs:
                stack.append(
                    (f"subgraph '{sub.name or attr.name}' of node '{node.name or node.op_type}'", sub, list(sub.node))
                )


def _graph_attributes(nodes: Iterable[NodeProto]) -> list[tuple[NodeProto, AttributeProto]]:
    """``(node, attribute)`` for every attribute of ``nodes`` that holds a graph, in order."""
    out = []
    for node in nodes:
        attrs = node.attribute
        if attrs:
            for a in attrs:
                if a.HasField("g") or a.graphs:
                    out.append((node, a))
    return out


def iter_nodes(model: ModelProto) -> Iterator[tuple[str, NodeProto]]:
    """Every node of the model with the label of its graph or function."""
    for label, _graph, nodes in iter_graphs(model):
        for node in nodes:
            yield label, node


def iter_tensors(model: ModelProto) -> Iterator[TensorRef]:
    """Every TensorProto of ``model`` (security.md rule 2: cover every tensor), in serialization order.

    The places are derived from onnx's protobuf descriptors (every message field through which a TensorProto can
    be reached: :func:`tensor_fields`), not listed by hand, so graph and sparse initializers, node attributes,
    subgraphs, function bodies, function attribute defaults (``FunctionProto.attribute_proto``), training info and
    any place a later onnx adds are all walked. Iterative, so deep nesting cannot hit Python's recursion limit.
    """
    cache = _cache_of(model)
    if cache is None:
        return _iter_tensors(model)
    if cache.tensors is None:
        cache.tensors = list(_iter_tensors(model))
    return iter(cache.tensors)


_NODE = NodeProto.DESCRIPTOR.full_name
_ATTRIBUTE = AttributeProto.DESCRIPTOR.full_name
_ATTRIBUTES = operator.attrgetter("attribute")


def _tensor_attributes(nodes: Iterable[NodeProto]) -> list[tuple[NodeProto, AttributeProto]]:
    """``(node, attribute)`` for every attribute of ``nodes`` that holds a tensor or a graph, in order (the fields
    tested are :data:`_ATTRIBUTE_HOLDERS`: a graph of 1500 convolutions has 1600 attributes, of which the Constants'
    hold tensors; tested inline, the first field found ends the test)."""
    out = []
    for node in nodes:
        attrs = node.attribute
        if attrs:
            for a in attrs:
                if (a.HasField("t") or a.HasField("g") or a.tensors or a.graphs or a.HasField("sparse_tensor")
                        or a.sparse_tensors):
                    out.append((node, a))
    return out
#: Parents whose children's places do not depend on which child (core/model/places.py): their children share
#: one context, so a graph of 100 000 initializers labels its place once.
_SHARED_PLACE = frozenset(d.DESCRIPTOR.full_name for d in (GraphProto, NodeProto, SparseTensorProto, TrainingInfoProto))


def _iter_tensors(model: ModelProto) -> Iterator[TensorRef]:
    fields = _holder_fields()
    fast = _attributes_tested()
    # A place is labelled only when a tensor is found there: ``(parent place, parent message, field, index)``.
    Ctx = tuple[Any, Message, str, int] | None
    labels: dict[int, tuple[Any, Where]] = {}
    stack: list[tuple[Message, str, Ctx]] = [(model, model.DESCRIPTOR.full_name, None)]
    last: tuple[Ctx, Where] | None = None  # siblings share their place: 100 000 initializers look it up once
    while stack:
        msg, kind, ctx = stack.pop()
        if kind == _TENSOR:
            if ctx is not None and type(ctx[1]) is AttributeProto:  # (a place of its own, worded when read)
                yield TensorRef._found(msg, ctx, None, labels)  # type: ignore[arg-type]
                continue
            if last is None or last[0] is not ctx:
                last = (ctx, word(ctx, labels))
            yield TensorRef._found(msg, ctx, last[1], labels)  # type: ignore[arg-type]
            continue
        children: list[tuple[Message, str, Ctx]] = []
        shared = kind in _SHARED_PLACE
        for name, repeated, sub_kind in fields.get(kind, ()):
            if repeated:
                seq = getattr(msg, name)
                if not seq:
                    continue
                if sub_kind == _NODE and fast:
                    # a node holds tensors only in attributes, and most attributes hold none: only the attributes
                    # that do are walked (their nodes' places depend on neither index nor node: places.py _in_graph,
                    # _in_function)
                    one = (ctx, msg, name, 0)
                    children.extend((attr, _ATTRIBUTE, (one, node, "attribute", 0))
                                    for node, attr in _tensor_attributes(seq))
                elif shared:
                    one = (ctx, msg, name, 0)
                    children.extend((sub, sub_kind, one) for sub in seq)
                else:
                    children.extend((sub, sub_kind, (ctx, msg, name, i)) for i, sub in enumerate(seq))
            elif msg.HasField(name):
                children.append((getattr(msg, name), sub_kind, (ctx, msg, name, 0)))
        stack.extend(reversed(children))


#: The fields of AttributeProto through which :func:`_tensor_attributes` finds tensors and graphs.
_ATTRIBUTE_HOLDERS = frozenset({"t", "g", "tensors", "graphs", "sparse_tensor", "sparse_tensors"})


@functools.cache
def _attributes_tested() -> bool:
    """Whether onnx's descriptors lead to tensors through exactly the fields :func:`_tensor_attributes` tests (a node
    only through its attributes): otherwise (a later onnx with another place) every attribute is walked field by
    field."""
    fields = _holder_fields()
    return ([f[0] for f in fields[_NODE]] == ["attribute"]
            and {f[0] for f in fields[_ATTRIBUTE]} == _ATTRIBUTE_HOLDERS)


@functools.cache
def _holder_fields() -> dict[str, tuple[tuple[str, bool, str], ...]]:
    """:func:`tensor_fields` by field name, in field-number (serialization) order: (name, repeated, message type)."""
    by_name: dict[str, tuple[tuple[str, bool, str], ...]] = {}
    stack = [ModelProto.DESCRIPTOR]
    wanted = tensor_fields()
    while stack:
        d = stack.pop()
        if d.full_name in by_name or d.full_name not in wanted:
            continue
        kids = wanted[d.full_name]
        fds = sorted((f for f in d.fields if f.number in kids), key=lambda f: f.number)
        by_name[d.full_name] = tuple((f.name, kids[f.number][1], kids[f.number][0]) for f in fds)
        stack.extend(f.message_type for f in fds)
    return by_name


def _repeated(fd: Any) -> bool:
    # protobuf >= 5.29 has is_repeated (and 7 dropped label); older versions only label.
    flag = getattr(fd, "is_repeated", None)
    return bool(flag) if flag is not None else bool(fd.label == fd.LABEL_REPEATED)


@functools.cache
def tensor_fields() -> dict[str, dict[int, tuple[str, bool]]]:
    """For every message type that can (transitively) hold a TensorProto: its fields that lead there.

    ``{type name: {field number: (field's message type, repeated)}}``, derived from the onnx descriptors, so every
    place ONNX can put a tensor is walked without listing fields by hand. The skeleton reader, the streaming merge
    and :func:`iter_tensors` walk these same types.
    """
    edges: dict[str, dict[int, tuple[str, bool]]] = {}
    stack = [ModelProto.DESCRIPTOR]
    while stack:
        d = stack.pop()
        if d.full_name in edges:
            continue
        subs = [f for f in d.fields if f.message_type is not None]
        edges[d.full_name] = {f.number: (f.message_type.full_name, _repeated(f)) for f in subs}
        stack.extend(f.message_type for f in subs)
    reach = {_TENSOR}
    changed = True
    while changed:
        changed = False
        for name, fields in edges.items():
            if name not in reach and any(t in reach for t, _r in fields.values()):
                reach.add(name)
                changed = True
    return {name: {n: tr for n, tr in fields.items() if tr[0] in reach} for name, fields in edges.items()
            if name in reach}
