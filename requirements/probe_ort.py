"""Measure the IR version and opset limits of the installed onnxruntime (for core/checks/ortreleases.py).

Usage: python requirements/probe_ort.py [--json]

ONNX Runtime refuses a model whose ``ir_version`` or ``opset_import`` is above what it was built with
("Unsupported model IR version", "Opset N is under development"). This loads a one-node model at each
IR version and opset and prints the highest accepted, which is the row core/checks/ortreleases.py must hold for
this release. Run it after upgrading the lock to a new onnxruntime; tests/test_compat.py runs the same probe.
"""

from __future__ import annotations

import json
import sys
from typing import Any

__all__ = ["limits", "loads", "main"]


def loads(ir: int, opset: int, ml_opset: int | None = None) -> bool:
    """Does the installed onnxruntime create a session for a Relu model with these versions?"""
    import onnxruntime as ort
    from onnx import TensorProto, helper

    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [1])
    graph = helper.make_graph([helper.make_node("Relu", ["x"], ["y"])], "probe", [x], [y])
    opsets = [helper.make_opsetid("", opset)]
    if ml_opset is not None:
        opsets.append(helper.make_opsetid("ai.onnx.ml", ml_opset))
    model = helper.make_model(graph, opset_imports=opsets)
    model.ir_version = ir
    options = ort.SessionOptions()
    options.log_severity_level = 4
    try:
        ort.InferenceSession(model.SerializeToString(), options, providers=["CPUExecutionProvider"])
    except Exception:  # any refusal means "does not load"
        return False
    return True


def limits() -> dict[str, Any]:
    """The highest IR version, ai.onnx opset and ai.onnx.ml opset the installed onnxruntime loads."""
    import onnxruntime as ort

    ir = max(i for i in range(3, 40) if loads(i, 13))
    opset = max(o for o in range(7, 60) if loads(8, o))
    ml = max(o for o in range(1, 20) if loads(8, 13, o))
    return {"onnxruntime": ort.__version__, "ir_version": ir, "ai_onnx_opset": opset, "ai_onnx_ml_opset": ml}


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    found = limits()
    if "--json" in args:
        print(json.dumps(found))
    else:
        print(f"onnxruntime {found['onnxruntime']}: IR {found['ir_version']}, ai.onnx opset {found['ai_onnx_opset']}, "
              f"ai.onnx.ml opset {found['ai_onnx_ml_opset']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
