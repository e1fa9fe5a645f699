"""What a model says about the values of its inputs (inside the smoke child): index bounds from its graph, and the
conventions of its input names and shapes.

An integer input that a ``Gather`` reads as its indices (an embedding lookup: ``input_ids`` of a transformer,
``token_type_ids``, ``position_ids``) must stay below the size of the table on the gathered axis. The table is an
initializer (or a ``Constant``, possibly behind a ``Cast``/``DequantizeLinear``), so its dims are known without
reading a weight. The path from the input to the ``Gather`` may pass through ops that keep index values as they are
(``Cast``, ``Reshape``, ``Unsqueeze``…), in the main graph or in the subgraphs of its nodes (an Optimum merged decoder
reads ``input_ids`` inside its ``If`` branches).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from .inputs import InputMeta

__all__ = ["Conventions", "gather_bounds", "model_gather_bounds", "past_length", "sum_terms"]

#: How generated inputs are made (a recipe records which; see :func:`.inputs.generate_inputs`):
#: ``plain``, as before onnxpack read what a model says about its inputs (floats normal(0,1), integers [0, 10), bools
#: p=0.5), kept so that an older bundle's recipe repeats exactly; ``model``, what the model's names, shapes and graph
#: say (the default); ``model-unit`` and ``model-ones``, the next plausible inputs after a run with NaN/Inf outputs.
PROFILES = ("plain", "model", "model-unit", "model-ones")
#: The profiles a smoke run tries in order while its outputs hold NaN or Inf.
RETRY_PROFILES = ("model", "model-unit", "model-ones")
#: The plain generator of :mod:`.inputs`: (input, shape, dtype, seed, range) -> (values, their description).
Draw = Callable[["InputMeta", list[int], "np.dtype[Any]", int, "tuple[float, float] | None"],
                "tuple[np.ndarray[Any, Any], str]"]

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


# --- what the names and shapes say: the conventions of the exporters users bring ---------------------------------

_MASK = re.compile(r"mask$|attention_mask")
_TOKEN_TYPES = re.compile(r"(token_type|segment)_ids?$")
_POSITIONS = re.compile(r"(^|[._])(position_ids|positions|cache_position|position)$")
_IDS = re.compile(r"(^|_)ids?$|tokens?$")
_IMAGE_NAME = re.compile(r"pixel_values|^images?$|^img|^image_|_image$")
_PAST = re.compile(r"^past|[._]past")


def past_length(metas: list[InputMeta], used: dict[str, int]) -> int:
    """How many tokens the past inputs (``past_key_values.*``, ``past_*``) hold: their largest dim named like a past
    length (``past_sequence_length``), else 0."""
    longest = 0
    for meta in metas:
        if not _PAST.search(meta.name.lower()):
            continue
        for d in meta.shape:
            if isinstance(d, str) and "past" in d.lower() and d in used:
                longest = max(longest, used[d])
    return longest


def _image_like(meta: InputMeta, shape: list[int]) -> bool:
    """A float input that holds an image batch: rank 4 with 1 or 3 channels first (NCHW) or last (NHWC) and a
    spatial size that is not fixed to a tiny one, or named like one (``pixel_values``, ``image``)."""
    if _IMAGE_NAME.search(meta.name.lower()):
        return True
    if len(meta.shape) != 4:
        return False
    dims = meta.shape

    def fixed(i: int, values: tuple[int, ...]) -> bool:
        d = dims[i]
        return isinstance(d, int) and d in values

    def spatial(i: int) -> bool:
        d = dims[i]
        return not (isinstance(d, int) and 0 <= d < 8)

    return (fixed(1, (1, 3)) and spatial(2) and spatial(3)) or (fixed(3, (1, 3)) and spatial(1) and spatial(2))


class Conventions:
    """How the profiles other than ``plain`` make an input (see :func:`.inputs.generate_inputs`): ``bounds`` of the
    inputs that index a table, ``past`` tokens before the new ones, ``draw`` the plain generator (with a range) and
    ``int_high`` its integers' bound.

    ``model`` follows the names and shapes of the exporters users bring (Hugging Face, torchvision/timm): a mask
    (``attention_mask``, ``encoder_attention_mask``, ``*_mask``) is ones, ``token_type_ids`` zeros, ``position_ids``
    (``cache_position``) the positions after the past tokens, ``use_cache_branch`` true; an integer input that indexes
    a table stays below its rows (``input_ids`` within the vocabulary; other integers also below ``int_high``); an
    image (a float input of rank 4 with 1 or 3 channels first or last, or named like one) is uniform in [0, 1).
    ``model-unit`` also draws every other float in [0, 1); ``model-ones`` on top of that makes every other integer 1
    (0 when its table has one row) and every bool true. Any other input: None (the plain generator's values)."""

    def __init__(self, profile: str, bounds: dict[str, int], past: int, draw: Draw, int_high: int) -> None:
        self.profile, self.bounds, self.past = profile, bounds, past
        self.draw, self.int_high = draw, int_high

    def make(self, meta: InputMeta, shape: list[int], dtype: np.dtype[Any],
             seed: int) -> tuple[np.ndarray[Any, Any], str, str] | None:
        """The input's values, their description and why, or None for the plain generator's values."""
        low = meta.name.lower()
        bound = self.bounds.get(meta.name)
        if dtype.kind == "b":
            if "use_cache" in low or self.profile == "model-ones":
                return np.ones(shape, dtype), "true", "a switch: the path that uses the past inputs"
            return None
        if dtype.kind not in "iuf":
            return None
        if _MASK.search(low):
            return np.ones(shape, dtype), "ones", "a mask: every position attended"
        if _TOKEN_TYPES.search(low):
            return np.zeros(shape, dtype), "zeros", "token types: one segment"
        ints = dtype.kind in "iu"
        if ints and _POSITIONS.search(low):
            return self._positions(shape, dtype, bound)
        if ints and self.profile == "model-ones":
            one = 1 if bound is None or bound > 1 else 0
            return np.full(shape, one, dtype), "ones" if one else "zeros", "every integer 1 (after NaN/Inf outputs)"
        if ints and bound is not None:
            high = bound if _IDS.search(low) else min(bound, self.int_high)
            arr, dist = self.draw(meta, shape, dtype, seed, (0, high))
            return arr, dist, f"indices into a table of {bound} rows (a Gather reads them)"
        if dtype.kind == "f" and (self.profile != "model" or _image_like(meta, shape)):
            arr, dist = self.draw(meta, shape, dtype, seed, (0.0, 1.0))
            why = "an image" if _image_like(meta, shape) else "every float in [0, 1) (after NaN/Inf outputs)"
            return arr, dist, why
        return None

    def _positions(self, shape: list[int], dtype: np.dtype[Any],
                   bound: int | None) -> tuple[np.ndarray[Any, Any], str, str]:
        """Positions after the past tokens along the last axis (wrapped into the table's rows when they would pass
        its end)."""
        length = shape[-1] if shape else 1
        start = self.past
        row = np.arange(start, start + length, dtype=np.int64)
        if bound is not None and bound > 0:
            row %= bound
        arr = np.broadcast_to(row.astype(dtype), shape).copy() if shape else np.asarray(row[0], dtype)
        return arr, f"range[{start},{start + length})", "positions after the past tokens"


_IDENT = re.compile(r"[A-Za-z_][\w.]*")


def sum_terms(key: str) -> list[str | int] | None:
    """The terms of a dim named like a sum (``past_sequence_length + sequence_length``, ``seq + 1``), None for any
    other name."""
    if "+" not in key:
        return None
    terms: list[str | int] = []
    for part in key.split("+"):
        part = part.strip()
        if part.isdigit():
            terms.append(int(part))
        elif _IDENT.fullmatch(part):
            terms.append(part)
        else:
            return None
    return terms if len(terms) >= 2 else None
