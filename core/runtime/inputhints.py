"""What a model's graph says about the values of its inputs (inside the smoke child): the bounds of index inputs.

An integer input that a ``Gather`` reads as its indices (an embedding lookup: ``input_ids`` of a transformer,
``token_type_ids``, ``position_ids``) must stay below the size of the table on the gathered axis. The table is an
initializer (or a ``Constant``, possibly behind a ``Cast``/``DequantizeLinear``), so its dims are known without
reading a weight. The path from the input to the ``Gather`` may pass through ops that keep index values as they are
(``Cast``, ``Reshape``, ``Unsqueeze``…), in the main graph or in the subgraphs of its nodes (an Optimum merged decoder
reads ``input_ids`` inside its ``If`` branches).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

__all__ = ["gather_bounds", "model_gather_bounds"]

#: Ops whose first input's values reach their output unchanged (only moved, copied or retyped).
_KEEPS_VALUES = frozenset({
    "Cast", "Identity", "Reshape", "Unsqueeze", "Squeeze", "Flatten", "Expand", "Transpose", "Slice", "Tile",
    "CastLike",
})
#: Ops through which a table reaches a Gather's data with its dims unchanged.
_KEEPS_TABLE = frozenset({"Cast", "Identity", "DequantizeLinear", "CastLike"})


def _graphs(graph: Any) -> Iterator[Any]:
    """``graph`` and every subgraph of its nodes, depth first."""
    stack = [graph]
    while stack:
        g = stack.pop()
        yield g
        for node in g.node:
            for attr in node.attribute:
                if attr.HasField("g"):
                    stack.append(attr.g)
                stack.extend(attr.graphs)


def _attr_int(node: Any, name: str, default: int) -> int:
    for attr in node.attribute:
        if attr.name == name:
            return int(attr.i)
    return default


class _Graph:
    """The graph's tables (initializers and Constants: their dims), who makes and who reads each value, with the
    subgraphs of its nodes flattened in (their outer-scope references are by name)."""

    def __init__(self, graph: Any) -> None:
        self.dims: dict[str, list[int]] = {}
        self.producers: dict[str, Any] = {}
        self.consumers: dict[str, list[Any]] = {}
        for g in _graphs(graph):
            for t in g.initializer:
                self.dims.setdefault(t.name, [int(d) for d in t.dims])
            for node in g.node:
                self._add(node)

    def _add(self, node: Any) -> None:
        if node.op_type == "Constant" and node.output:
            for attr in node.attribute:
                if attr.name == "value" and attr.HasField("t"):
                    self.dims.setdefault(node.output[0], [int(d) for d in attr.t.dims])
        for out in node.output:
            self.producers.setdefault(out, node)
        for name in node.input:
            if name:
                self.consumers.setdefault(name, []).append(node)

    def table_dims(self, name: str) -> list[int] | None:
        """The dims of the table ``name`` is, through a short chain of Cast/DequantizeLinear; None if not a table."""
        for _ in range(8):
            if name in self.dims:
                return self.dims[name]
            node = self.producers.get(name)
            if node is None or node.op_type not in _KEEPS_TABLE or not node.input:
                return None
            name = node.input[0]
        return None

    def gathered_rows(self, node: Any) -> int | None:
        """The size of the axis a Gather indexes, when its data is a table."""
        table = self.table_dims(node.input[0])
        if not table:
            return None
        axis = _attr_int(node, "axis", 0)
        axis = axis + len(table) if axis < 0 else axis
        return table[axis] if 0 <= axis < len(table) and table[axis] > 0 else None

    def bound(self, start: str) -> int | None:
        """The smallest table a Gather indexes with the values of ``start`` (followed through value-keeping ops)."""
        seen, frontier, found = {start}, [start], []
        while frontier:
            name = frontier.pop()
            for node in self.consumers.get(name, []):
                if node.op_type == "Gather" and len(node.input) > 1 and node.input[1] == name:
                    rows = self.gathered_rows(node)
                    if rows is not None:
                        found.append(rows)
                elif node.op_type in _KEEPS_VALUES and node.input and node.input[0] == name:
                    fresh = [out for out in node.output if out and out not in seen]
                    seen.update(fresh)
                    frontier.extend(fresh)
        return min(found) if found else None


def gather_bounds(graph: Any) -> dict[str, int]:
    """``{input name: bound}`` for the graph's inputs whose values index a table: every value must be < bound (the
    smallest such table when several read the same input)."""
    g = _Graph(graph)
    initializer_names = {t.name for t in graph.initializer}
    bounds: dict[str, int] = {}
    for inp in graph.input:
        if inp.name not in initializer_names:
            b = g.bound(inp.name)
            if b is not None:
                bounds[inp.name] = b
    return bounds


def model_gather_bounds(spec: dict[str, Any]) -> dict[str, int]:
    """:func:`gather_bounds` of the smoke child's model ``spec`` (its structure only, no weight read); ``{}`` for an
    ORT-format model or one whose structure cannot be read here (the session opened it: that is not this module's
    concern)."""
    if spec.get("kind") != "onnx":
        return {}
    from pathlib import Path

    from ..errors import OnnxpackError
    from ..model.modelfile import load_structure

    window = spec.get("window")
    try:
        model = load_structure(Path(spec["path"]), (int(window[0]), int(window[1])) if window else None)
    except (OnnxpackError, OSError, ValueError):
        return {}
    return gather_bounds(model.graph)
