"""Builders of small test models (onnx.helper only), shared by the test modules."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from onnx.external_data_helper import set_external_data

__all__ = ["add_model", "external_model", "save_with_external", "snapshot"]


def add_model(n: int = 64, opset: int = 17, ir: int = 8) -> onnx.ModelProto:
    """Y = (X + W1) * W2 + B with W1, W2 of n floats (external-worthy) and B of 4 bytes (inline)."""
    rng = np.random.default_rng(0)
    w1 = numpy_helper.from_array(rng.standard_normal(n).astype(np.float32), "W1")
    w2 = numpy_helper.from_array(rng.standard_normal(n).astype(np.float32), "W2")
    b = numpy_helper.from_array(np.array([0.5], dtype=np.float32), "B")
    nodes = [
        helper.make_node("Add", ["X", "W1"], ["t"], name="add"),
        helper.make_node("Mul", ["t", "W2"], ["u"], name="mul"),
        helper.make_node("Add", ["u", "B"], ["Y"], name="bias"),
    ]
    graph = helper.make_graph(
        nodes,
        "g",
        [helper.make_tensor_value_info("X", TensorProto.FLOAT, ["batch", n])],
        [helper.make_tensor_value_info("Y", TensorProto.FLOAT, ["batch", n])],
        initializer=[w1, w2, b],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], producer_name="tests")
    model.ir_version = ir
    return model


def save_with_external(
    model: onnx.ModelProto,
    path: Path,
    location: str | None = None,
    threshold: int = 16,
    align: int = 0,
) -> Path:
    """Save ``model`` with every tensor of >= ``threshold`` bytes in one data file (like PyTorch)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    location = location or path.name + ".data"
    blob = bytearray()
    from onnxpack.core.model.tensors import iter_tensors

    for ref in iter_tensors(model):
        t = ref.tensor
        if not t.HasField("raw_data") or len(t.raw_data) < threshold:
            continue
        if align and len(blob) % align:
            blob += b"\0" * (align - len(blob) % align)
        raw = t.raw_data
        set_external_data(t, location=location, offset=len(blob), length=len(raw))
        t.ClearField("raw_data")
        t.data_location = TensorProto.EXTERNAL
        blob += raw
    (path.parent / location).parent.mkdir(parents=True, exist_ok=True)
    (path.parent / location).write_bytes(bytes(blob))
    path.write_bytes(model.SerializeToString())
    return path


def external_model(folder: Path, n: int = 64) -> Path:
    return save_with_external(add_model(n), folder / "model.onnx")


def snapshot(folder: Path) -> dict[str, tuple[int, int, bytes]]:
    """(size, mtime_ns, content) of every file below ``folder``: to assert inputs were not modified."""
    out: dict[str, tuple[int, int, bytes]] = {}
    for p in sorted(folder.rglob("*")):
        if p.is_file() and not p.is_symlink():
            st = p.stat()
            out[str(p.relative_to(folder))] = (st.st_size, st.st_mtime_ns, p.read_bytes())
    return out
