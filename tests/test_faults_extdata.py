"""Issue 28 section 0, external-data location rules, checked against the libraries themselves: './data.bin' is
accepted (onnx and ONNX Runtime accept it), 'data..bin' is not a '..' component (refused only because onnx refuses
it, and said so), and an unknown external_data key is refused as ONNX Runtime refuses the model."""

from __future__ import annotations

import hashlib
import io
import json
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper

from onnxpack.cli import Environment, main


def _model(folder: Path, location: str, extra: tuple[tuple[str, str], ...] = ()) -> Path:
    """y = x + W, W (16 floats) stored at ``location`` under ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    data = folder / location
    data.parent.mkdir(parents=True, exist_ok=True)
    data.write_bytes(np.arange(16, dtype=np.float32).tobytes())
    w = TensorProto(name="W", data_type=TensorProto.FLOAT, dims=[16])
    w.data_location = TensorProto.EXTERNAL
    for k, v in (("location", location), ("offset", "0"), ("length", "64"), *extra):
        e = w.external_data.add()
        e.key, e.value = k, v
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [16])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [16])
    m = helper.make_model(helper.make_graph([helper.make_node("Add", ["x", "W"], ["y"])], "g", [x], [y], [w]),
                          opset_imports=[helper.make_opsetid("", 17)])
    m.ir_version = 8
    path = folder / "m.onnx"
    path.write_bytes(m.SerializeToString())
    return path


def _run(argv: list[str]) -> tuple[int, dict]:
    out, err = io.StringIO(), io.StringIO()
    status = int(main([*argv, "--json"], Environment(stdout=out, stderr=err, vars={})))
    assert "Traceback" not in out.getvalue() + err.getvalue()
    return status, json.loads(out.getvalue())


def _codes(doc: dict) -> set[str]:
    return {f["code"] for f in doc["findings"] if f["severity"] == "error"}


@pytest.mark.parametrize("location", ["./w.bin", "sub/./w.bin"])
def test_a_dot_component_is_accepted(tmp_path: Path, location: str) -> None:
    path = _model(tmp_path / "m", location)
    onnx.load(str(path))  # onnx accepts it (and so does ONNX Runtime)
    status, doc = _run(["check", str(path)])
    assert status == 0 and not _codes(doc), doc  # before: EXTDATA_BAD_LOCATION "'.' component"
    out = tmp_path / "o.onnx"
    status, doc = _run(["merge", str(path), "-o", str(out)])
    assert status == 0 and out.read_bytes() == onnx.load(str(path)).SerializeToString()


def test_dots_inside_a_name_are_not_a_parent_component(tmp_path: Path) -> None:
    """'w..bin' stays in the model folder; onnx refuses it all the same ("points outside the directory"), so it
    is refused for that reason, not as a '..' component."""
    path = _model(tmp_path / "m", "w..bin")
    with pytest.raises(onnx.checker.ValidationError):
        onnx.load(str(path))
    status, doc = _run(["check", str(path)])
    assert status == 1
    finding = next(f for f in doc["findings"] if f["severity"] == "error")
    assert finding["code"] == "EXTDATA_BAD_LOCATION"  # before: EXTDATA_OUTSIDE_DIR
    assert "inside a name" in finding["message"] and "onnx refuses" in finding["message"]
    status, doc = _run(["check", str(_model(tmp_path / "p", "sub/../w.bin"))])
    assert "EXTDATA_OUTSIDE_DIR" in _codes(doc)


def test_an_unknown_external_data_key_is_refused(tmp_path: Path) -> None:
    import onnxruntime as ort

    path = _model(tmp_path / "m", "w.bin", (("foo", "bar"),))
    with pytest.raises(Exception, match="model format error"):  # ONNX Runtime refuses the model
        ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    status, doc = _run(["check", str(path)])
    assert status == 1 and "EXTDATA_UNKNOWN_KEY" in _codes(doc)  # before: a warning, exit 0
    status, doc = _run(["merge", str(path), "-o", str(tmp_path / "o.onnx")])
    assert status == 1 and not (tmp_path / "o.onnx").exists()
    # location, offset, length and checksum are the keys ONNX Runtime knows
    sha1 = hashlib.sha1(np.arange(16, dtype=np.float32).tobytes()).hexdigest()
    status, doc = _run(["check", str(_model(tmp_path / "k", "w.bin", (("checksum", sha1),)))])
    assert status == 0, doc
