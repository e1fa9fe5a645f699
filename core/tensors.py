"""Walk every TensorProto of a model: initializers, sparse, attributes, subgraphs, functions."""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
import onnx
from onnx import AttributeProto, GraphProto, ModelProto, NodeProto, TensorProto

__all__ = [
    "TensorRef",
    "dtype_name",
    "expected_nbytes",
    "iter_graphs",
    "iter_nodes",
    "iter_tensors",
    "uses_external_data",
]

# Element types stored packed, several per byte (onnx docs/IR.md); the bit width per element.
_PACKED_BITS = {
    "INT4": 4,
    "UINT4": 4,
    "FLOAT4E2M1": 4,
    "INT2": 2,
    "UINT2": 2,
}


@dataclass(frozen=True)
class TensorRef:
    """A tensor found in the model and where it sits (for messages)."""

    tensor: TensorProto
    where: str  # e.g. "initializer", "sparse initializer values", "attribute 'value' of node 'c1'"
    graph: str  # name of the graph or function that holds it
    is_initializer: bool = False

    @property
    def name(self) -> str:
        return self.tensor.name or f"<unnamed {self.where}>"

    @property
    def label(self) -> str:
        """Human-readable name: tensor name plus its place in the model."""
        return f"{self.name} ({self.where} in {self.graph})"


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
    name = dtype_name(tensor.data_type)
    count = math.prod(int(d) for d in tensor.dims)
    if name in _PACKED_BITS:
        return (count * _PACKED_BITS[name] + 7) // 8
    if name in ("STRING", "UNDEFINED") or name.startswith("UNKNOWN"):
        return None
    try:
        itemsize = np.dtype(onnx.helper.tensor_dtype_to_np_dtype(tensor.data_type)).itemsize
    except (KeyError, TypeError, ValueError):
        return None
    if name.startswith("FLOAT6"):
        # No packing of 6-bit floats is fixed by the spec we rely on; don't guess.
        return None
    return count * int(itemsize)


def uses_external_data(tensor: TensorProto) -> bool:
    """True when the tensor says its data lives in an external file."""
    return bool(tensor.HasField("data_location") and tensor.data_location == TensorProto.EXTERNAL)


def _attr_tensors(node: NodeProto, graph_name: str) -> Iterator[tuple[TensorRef | None, GraphProto | None]]:
    node_label = node.name or node.op_type
    for attr in node.attribute:
        where = f"attribute '{attr.name}' of node '{node_label}' ({node.op_type})"
        if attr.type == AttributeProto.TENSOR or attr.HasField("t"):
            yield TensorRef(attr.t, where, graph_name), None
        for t in attr.tensors:
            yield TensorRef(t, where, graph_name), None
        if attr.HasField("sparse_tensor"):
            yield TensorRef(attr.sparse_tensor.values, where + " sparse values", graph_name), None
            yield TensorRef(attr.sparse_tensor.indices, where + " sparse indices", graph_name), None
        for st in attr.sparse_tensors:
            yield TensorRef(st.values, where + " sparse values", graph_name), None
            yield TensorRef(st.indices, where + " sparse indices", graph_name), None
        if attr.HasField("g"):
            yield None, attr.g
        for g in attr.graphs:
            yield None, g


def iter_graphs(model: ModelProto) -> Iterator[tuple[str, GraphProto | None, list[NodeProto]]]:
    """Yield ``(label, graph or None, nodes)`` for the main graph, every subgraph and every function.

    Iterative (explicit stack), so deeply nested If/Loop bodies can't hit Python's recursion limit.
    """
    stack: list[tuple[str, GraphProto | None, list[NodeProto]]] = []
    stack.append((f"graph '{model.graph.name or 'main'}'", model.graph, list(model.graph.node)))
    for ti, info in enumerate(model.training_info):
        stack.append((f"training_info[{ti}] initialization", info.initialization, list(info.initialization.node)))
        stack.append((f"training_info[{ti}] algorithm", info.algorithm, list(info.algorithm.node)))
    for f in model.functions:
        stack.append((f"function '{f.domain}.{f.name}'", None, list(f.node)))
    while stack:
        label, graph, nodes = stack.pop()
        yield label, graph, nodes
        for node in nodes:
            for attr in node.attribute:
                subs = ([attr.g] if attr.HasField("g") else []) + list(attr.graphs)
                for sub in subs:
                    stack.append(
                        (f"subgraph '{sub.name or attr.name}' of node '{node.name or node.op_type}'",
                         sub, list(sub.node))
                    )


def iter_nodes(model: ModelProto) -> Iterator[tuple[str, NodeProto]]:
    """Every node of the model with the label of its graph or function."""
    for label, _graph, nodes in iter_graphs(model):
        for node in nodes:
            yield label, node


def iter_tensors(model: ModelProto) -> Iterator[TensorRef]:
    """Every TensorProto of ``model`` (security.md rule 2: cover every tensor)."""
    for label, graph, nodes in iter_graphs(model):
        if graph is not None:
            for t in graph.initializer:
                yield TensorRef(t, "initializer", label, is_initializer=True)
            for st in graph.sparse_initializer:
                yield TensorRef(st.values, "sparse initializer values", label, is_initializer=True)
                yield TensorRef(st.indices, "sparse initializer indices", label, is_initializer=True)
        for node in nodes:
            for ref, _sub in _attr_tensors(node, label):
                if ref is not None:
                    yield ref
