"""The IR version a model's features need: element types, annotations, functions, multi-device configuration."""

from __future__ import annotations

from collections.abc import Sequence
from operator import attrgetter

import onnx
from onnx import AttributeProto, GraphProto, ModelProto, NodeProto, TypeProto

from ..model.tensors import dtype_name, iter_graphs, iter_tensors

__all__ = ["DTYPE_ATTRS", "TYPE_IR", "element_type_irs", "features_and_types", "lower_ir_possible",
           "min_ir_for_features"]

#: Element types and the IR version that introduced them (onnx.proto "IR VERSION n" comments).
TYPE_IR = {
    "BFLOAT16": 4,
    "FLOAT8E4M3FN": 9,
    "FLOAT8E4M3FNUZ": 9,
    "FLOAT8E5M2": 9,
    "FLOAT8E5M2FNUZ": 9,
    "UINT4": 10,
    "INT4": 10,
    "FLOAT4E2M1": 11,
    "FLOAT8E8M0": 12,
    "UINT2": 13,
    "INT2": 13,
    "FLOAT6E2M3": 14,
    "FLOAT6E3M2": 14,
}
#: Integer attributes that name an element type (Cast.to, RandomNormal.dtype, QuantizeLinear.output_dtype...).
DTYPE_ATTRS = frozenset({"to", "dtype", "output_dtype"})

# Markers _type_elem_types puts among the element types.
_SPARSE, _OPTIONAL = -1, -2


def _type_elem_types(tp: TypeProto) -> list[int]:
    """Element types named in a (possibly nested) TypeProto, plus the markers for sparse and optional types."""
    out: list[int] = []
    stack = [tp]
    while stack:
        t = stack.pop()
        which = t.WhichOneof("value")
        if which == "tensor_type":
            out.append(t.tensor_type.elem_type)
        elif which == "sparse_tensor_type":
            out += [t.sparse_tensor_type.elem_type, _SPARSE]
        elif which == "sequence_type":
            stack.append(t.sequence_type.elem_type)
        elif which == "map_type":
            out.append(t.map_type.key_type)
            stack.append(t.map_type.value_type)
        elif which == "optional_type":
            out.append(_OPTIONAL)
            stack.append(t.optional_type.elem_type)
    return out


_NODE_METADATA, _NODE_OVERLOAD = attrgetter("metadata_props"), attrgetter("overload")
_NODE_DEVICES, _NODE_ATTRIBUTES = attrgetter("device_configurations"), attrgetter("attribute")


class _Needs:
    """The features found so far, each with the IR version it needs, and the element types seen."""

    def __init__(self) -> None:
        self.need: dict[str, int] = {}
        self.elem_types: set[int] = set()

    def use(self, feature: str, ir: int) -> None:
        self.need[feature] = max(self.need.get(feature, 0), ir)

    def types(self, tp: TypeProto, *, markers: bool) -> None:
        """The element types in ``tp``; with ``markers``, also its sparse and optional types as features."""
        for et in _type_elem_types(tp):
            if et == _SPARSE:
                if markers:
                    self.use("sparse tensor types", 8)
            elif et == _OPTIONAL:
                if markers:
                    self.use("optional types", 8)
            else:
                self.elem_types.add(et)

    def graph(self, graph: GraphProto) -> None:
        inputs = {i.name for i in graph.input}
        if any(t.name not in inputs for t in graph.initializer):
            self.use("initializers that are not graph inputs", 4)
        if len(graph.quantization_annotation):
            self.use("quantization annotations", 5)
        if len(graph.sparse_initializer):
            self.use("sparse initializers", 6)
        if len(graph.metadata_props):
            self.use("metadata_props on graphs", 10)
        for vi in [*graph.input, *graph.output, *graph.value_info]:
            self.types(vi.type, markers=True)
            if len(vi.metadata_props):
                self.use("metadata_props on value_info", 10)

    def nodes(self, nodes: Sequence[NodeProto]) -> None:
        # each feature over all nodes at C speed (a graph can have millions of nodes)
        if any(map(len, map(_NODE_METADATA, nodes))):
            self.use("metadata_props on nodes", 10)
        if any(map(_NODE_OVERLOAD, nodes)):
            self.use("function overloads", 10)
        if any(map(len, map(_NODE_DEVICES, nodes))):
            self.use("multi-device configuration", 11)
        elem_types = self.elem_types
        for node in filter(_NODE_ATTRIBUTES, nodes):
            for attr in node.attribute:  # (inline: a call per attribute costs time on large graphs)
                if attr.name in DTYPE_ATTRS and attr.type == AttributeProto.INT:
                    elem_types.add(int(attr.i))
                if attr.HasField("sparse_tensor") or len(attr.sparse_tensors):
                    self.use("sparse tensor attributes", 6)
                if attr.HasField("tp") or len(attr.type_protos):
                    for tp in ([attr.tp] if attr.HasField("tp") else []) + list(attr.type_protos):
                        self.types(tp, markers=False)

    def model(self, model: ModelProto) -> None:
        """What the model itself (not its graphs) uses: training info, functions, configuration."""
        if len(model.training_info):
            self.use("training_info", 7)
        if len(model.functions):
            self.use("model-local functions", 8)
        for f in model.functions:
            if len(f.attribute_proto):
                self.use("function attribute defaults", 9)
            if f.overload:
                self.use("function overloads", 10)
            if len(f.metadata_props) or len(f.value_info):
                self.use("function metadata_props/value_info", 10)
        if len(model.configuration):
            self.use("multi-device configuration", 11)

    def element_types(self) -> None:
        for et in self.elem_types:
            name = dtype_name(et)
            if name in TYPE_IR:
                self.use(f"element type {name}", TYPE_IR[name])
            elif name.startswith("UNKNOWN"):
                self.use(f"element type {name}", onnx.IR_VERSION)


def _collect(model: ModelProto) -> _Needs:
    needs = _Needs()
    for ref in iter_tensors(model):
        needs.elem_types.add(ref.tensor.data_type)
        if ref.tensor.metadata_props:
            needs.use("metadata_props on tensors", 10)
    for _label, graph, nodes in iter_graphs(model):
        if graph is not None:
            needs.graph(graph)
        needs.nodes(nodes)
    needs.model(model)
    return needs


def _type_irs(elem_types: set[int]) -> dict[str, int]:
    out: dict[str, int] = {}
    for et in elem_types:
        name = dtype_name(et)
        if name in TYPE_IR:
            out[name] = TYPE_IR[name]
        elif name.startswith("UNKNOWN"):
            out[name] = onnx.IR_VERSION
    return out


def features_and_types(model: ModelProto) -> tuple[int, list[str], dict[str, int]]:
    """:func:`min_ir_for_features` and :func:`element_type_irs` in one walk over the model."""
    needs = _collect(model)
    types = _type_irs(needs.elem_types)
    needs.element_types()
    base = 3  # opset_import and domains exist since IR 3
    top = max([base, *needs.need.values()])
    reasons = sorted((f"{feat} (IR {ir})" for feat, ir in needs.need.items() if ir == top), key=str)
    return top, reasons, types


def min_ir_for_features(model: ModelProto) -> tuple[int, list[str]]:
    """The lowest IR version that has every feature ``model`` uses, and the features that set it.

    Conservative: element types are collected from tensors, every type annotation (inputs, outputs,
    value_info) and integer attributes naming a type (``to``, ``dtype``, ``output_dtype``).
    """
    top, reasons, _types = features_and_types(model)
    return top, reasons


def element_type_irs(model: ModelProto) -> dict[str, int]:
    """The element types ``model`` uses that a newer IR introduced, each with that IR version (an unknown type: the
    newest IR onnx knows). Whatever ``ir_version`` the model declares, a runtime built before that IR refuses a
    tensor of such a type ("Invalid tensor data type 24"), so these bound the oldest ONNX Runtime by themselves."""
    return _type_irs(_collect(model).elem_types)


def lower_ir_possible(model: ModelProto, target_ir: int | None = None) -> tuple[bool, int, list[str]]:
    """Can ``model.ir_version`` be lowered (to ``target_ir``, or as far as its features allow)?

    Returns ``(possible, lowest_allowed_ir, reasons)``; reasons name the features that need that IR.
    """
    min_ir, reasons = min_ir_for_features(model)
    goal = min_ir if target_ir is None else target_ir
    return (min_ir <= goal < model.ir_version), min_ir, reasons
