"""Shapes seen in real models (issue 28, section 0) that broke smoke, bundle or check, each built with onnx.helper.

Every model here is first run with bare onnxruntime, to show the model is fine and onnxpack was the problem.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper

import onnxpack.core.smoke as smoke_mod
from onnxpack.core.bundle import BundleOptions, build_bundle
from onnxpack.core.smoke import SmokeOptions, smoke_test
from onnxpack.core.verify import verify_bundle
from tests import factory
from tests.test_smoke import _in_process

V = helper.make_tensor_value_info


@pytest.fixture
def inprocess(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(smoke_mod, "run_in_child", _in_process)
    monkeypatch.setattr(smoke_mod, "start_child", lambda target: None)


def _model(nodes: list[Any], inputs: list[Any], outputs: list[Any], inits: list[Any] | None = None,
           opset: int = 17, extra: list[Any] | None = None) -> onnx.ModelProto:
    graph = helper.make_graph(nodes, "g", inputs, outputs, initializer=inits or [])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset), *(extra or [])])
    model.ir_version = 8
    return model


def _bare_ort(model: onnx.ModelProto, feeds: dict[str, Any]) -> list[Any]:
    """What bare onnxruntime returns for ``model`` (it must run it)."""
    so = ort.SessionOptions()
    so.log_severity_level = 4
    s = ort.InferenceSession(model.SerializeToString(), so, providers=["CPUExecutionProvider"])
    return list(s.run(None, feeds))


# ------------------------------------------------------------------ (a) an unused initializer of >= 1 KiB


def _unused_initializer_model() -> onnx.ModelProto:
    """y = x + B; W_unused (2 KiB) is used by no node, W_sub (2 KiB) only by an If branch (outer scope)."""
    w_unused = numpy_helper.from_array(np.arange(512, dtype=np.float32), "W_unused")
    w_sub = numpy_helper.from_array(np.full(512, 2.0, np.float32), "W_sub")
    b = numpy_helper.from_array(np.ones(512, np.float32), "B")
    then = helper.make_graph([helper.make_node("Add", ["x", "W_sub"], ["t"])], "then", [],
                             [V("t", TensorProto.FLOAT, [1, 512])])
    other = helper.make_graph([helper.make_node("Identity", ["x"], ["e"])], "else", [],
                              [V("e", TensorProto.FLOAT, [1, 512])])
    nodes = [helper.make_node("Add", ["x", "B"], ["y"]),
             helper.make_node("If", ["flag"], ["z"], then_branch=then, else_branch=other)]
    return _model(nodes, [V("x", TensorProto.FLOAT, [1, 512]), V("flag", TensorProto.BOOL, [])],
                  [V("y", TensorProto.FLOAT, [1, 512]), V("z", TensorProto.FLOAT, [1, 512])],
                  [w_unused, w_sub, b])


@pytest.mark.parametrize("layout", ["single", "external"])
def test_unused_initializer_smoke(tmp_path: Path, inprocess: None, layout: str) -> None:
    model = _unused_initializer_model()
    x = np.zeros((1, 512), np.float32)
    y, z = _bare_ort(model, {"x": x, "flag": np.array(True)})
    assert float(y[0, 0]) == 1.0 and float(z[0, 0]) == 2.0
    path = tmp_path / "model.onnx"
    if layout == "single":
        onnx.save(model, str(path))
    else:
        factory.save_with_external(model, path, threshold=1024)
    r = smoke_test(path, options=SmokeOptions(runs=1, inputs={"flag": "true"}), save_outputs_to=tmp_path / "o")
    assert r.ok, r.findings
    assert "1 initializer(s) that no node uses left out" in r.load
    # W_sub, reached only from the If branch, was still given: the branch added it.
    assert float(np.load(r.saved_outputs["z"]).max()) > 1.5


@pytest.mark.parametrize("layout", ["single", "external"])
def test_unused_initializer_bundles_and_verifies(tmp_path: Path, layout: str) -> None:
    model = _unused_initializer_model()
    path = tmp_path / "src" / "model.onnx"
    path.parent.mkdir()
    if layout == "single":
        onnx.save(model, str(path))
    else:
        factory.save_with_external(model, path, threshold=1024)
    result = build_bundle(BundleOptions(model=path, out_dir=tmp_path / "out", version="1.0.0",
                                        smoke=SmokeOptions(runs=1), source_date_epoch=1_700_000_000))
    assert result.smoke is not None and result.smoke["ok"], result.smoke
    report = verify_bundle(result.zip_path, smoke=True)
    assert report.ok, report


# ------------------------------------------------------------------------------- (b) 0-d bool and string inputs


def test_zero_d_bool_and_string_inputs_are_generated(tmp_path: Path, inprocess: None) -> None:
    model = _model([helper.make_node("Not", ["flag"], ["nf"]), helper.make_node("Identity", ["word"], ["w"])],
                   [V("flag", TensorProto.BOOL, []), V("word", TensorProto.STRING, [])],
                   [V("nf", TensorProto.BOOL, []), V("w", TensorProto.STRING, [])])
    nf, w = _bare_ort(model, {"flag": np.array(True), "word": np.array("a", dtype=object)})
    assert nf.shape == () and bool(nf) is False and w.shape == ()
    path = tmp_path / "scalar.onnx"
    onnx.save(model, str(path))
    r = smoke_test(path, options=SmokeOptions(runs=2))
    assert r.ok, r.findings
    assert [o["shape"] for o in r.outputs] == [[], []]
    assert r.recipe["inputs"]["flag"]["dtype"] == "bool" and r.recipe["inputs"]["flag"]["shape"] == []


def test_scalar_hint_names_a_value_of_the_inputs_type(tmp_path: Path, inprocess: None) -> None:
    """A failing run with a generated 0-d bool: the hint suggests `--input flag=true`, not `flag=16000`."""
    shape = numpy_helper.from_array(np.array([3, -1], np.int64), "shape")
    model = _model([helper.make_node("Reshape", ["x", "shape"], ["r"]),
                    helper.make_node("Not", ["flag"], ["nf"])],
                   [V("x", TensorProto.FLOAT, ["n"]), V("flag", TensorProto.BOOL, [])],
                   [V("r", TensorProto.FLOAT, [3, None]), V("nf", TensorProto.BOOL, [])], [shape])
    _bare_ort(model, {"x": np.zeros(6, np.float32), "flag": np.array(False)})
    path = tmp_path / "m.onnx"
    onnx.save(model, str(path))
    r = smoke_test(path, options=SmokeOptions(runs=1, search=False))
    assert not r.ok
    f = next(f for f in r.findings if f.code == "SMOKE_RUN_FAILED")
    assert "--input flag=true" in f.hint and "16000" not in f.hint
    assert "--dim n=" in f.hint


# -------------------------------------------------------------- (c) the dim search uses what ORT's message names


def _lstm_model(input_size: int = 266, hidden: int = 4) -> onnx.ModelProto:
    rng = np.random.default_rng(0)
    w = numpy_helper.from_array(rng.standard_normal((1, 4 * hidden, input_size)).astype(np.float32), "W")
    r = numpy_helper.from_array(rng.standard_normal((1, 4 * hidden, hidden)).astype(np.float32), "R")
    return _model([helper.make_node("LSTM", ["X", "W", "R"], ["Y"], hidden_size=hidden)],
                  [V("X", TensorProto.FLOAT, ["seq", "batch", "input_dim_1"])], [V("Y", TensorProto.FLOAT, None)],
                  [w, r], opset=14)


def test_search_takes_the_size_ort_names(tmp_path: Path, inprocess: None) -> None:
    """An LSTM whose input size is symbolic needs input_dim_1=266, a size no list of common sizes holds;
    ORT's message ("Input W must have shape {1,16,1}. Actual:{1,16,266}") names it."""
    model = _lstm_model()
    (y,) = _bare_ort(model, {"X": np.zeros((2, 1, 266), np.float32)})
    assert y.shape == (2, 1, 1, 4)
    path = tmp_path / "lstm.onnx"
    onnx.save(model, str(path))
    r = smoke_test(path, options=SmokeOptions(runs=1))
    assert r.ok, r.findings
    assert r.search["found"]["input_dim_1"] == 266
    assert r.recipe["dims"]["input_dim_1"] == 266 and r.recipe["dim_sources"]["input_dim_1"] == "search"
    assert len(r.search["attempts"]) <= 3
    assert r.search["attempts"][-1]["source"] == "runtime message"
    assert any(f.code == "SMOKE_DIMS_SEARCHED" and "input_dim_1=266" in f.message for f in r.findings)
    # The recorded sizes repeat the run without a search.
    again = smoke_test(path, options=SmokeOptions.from_recipe(r.recipe))
    assert again.ok and not again.search["attempts"]


def test_search_keeps_a_named_size_while_trying_common_sizes_for_the_rest(tmp_path: Path, inprocess: None) -> None:
    """A Conv over [b, c, h, w]: ORT names the channels (3); h and w then need any size >= the 3x3 kernel."""
    k = numpy_helper.from_array(np.ones((4, 3, 3, 3), np.float32), "K")
    model = _model([helper.make_node("Conv", ["x", "K"], ["y"])], [V("x", TensorProto.FLOAT, ["b", "c", "h", "w"])],
                   [V("y", TensorProto.FLOAT, None)], [k])
    _bare_ort(model, {"x": np.zeros((1, 3, 5, 5), np.float32)})
    path = tmp_path / "conv.onnx"
    onnx.save(model, str(path))
    r = smoke_test(path, options=SmokeOptions(runs=1))
    assert r.ok, r.findings
    assert r.search["found"]["c"] == 3 and r.search["found"]["h"] >= 3 and r.search["found"]["w"] >= 3
    assert len(r.search["attempts"]) <= 4


def test_search_still_tries_common_sizes_when_the_message_names_bounds(tmp_path: Path, inprocess: None) -> None:
    """Reflect padding of 4 needs frames >= 5; the messages name 2 and 4 (bounds, not the size): the common
    sizes still find 8."""
    pads = numpy_helper.from_array(np.array([0, 4, 0, 4], np.int64), "pads")
    model = _model([helper.make_node("Pad", ["x", "pads"], ["y"], mode="reflect")],
                   [V("x", TensorProto.FLOAT, ["batch", "frames"])], [V("y", TensorProto.FLOAT, None)], [pads])
    path = tmp_path / "pad.onnx"
    onnx.save(model, str(path))
    r = smoke_test(path, options=SmokeOptions(runs=1))
    assert r.ok, r.findings
    assert r.search["found"] == {"frames": 8, "batch": 1}
    assert {a["source"] for a in r.search["attempts"]} == {"runtime message", "common sizes"}


# ------------------------------------------------------------------- (d) a domain that is only imported


def test_a_domain_only_imported_needs_no_custom_op_library(tmp_path: Path, inprocess: None) -> None:
    """A quantizer's com.microsoft import or paddle2onnx's `Paddle:1` with no node of theirs: ORT loads the model,
    so neither DOMAIN_CUSTOM nor DOMAIN_CONTRIB; a domain a node (also in a subgraph) uses still gets them."""
    from onnxpack.core.validate import validate_model

    extra = [helper.make_opsetid("Paddle", 1), helper.make_opsetid("com.microsoft", 1)]
    model = _model([helper.make_node("Relu", ["x"], ["y"])], [V("x", TensorProto.FLOAT, [2])],
                   [V("y", TensorProto.FLOAT, [2])], extra=extra)
    _bare_ort(model, {"x": np.ones(2, np.float32)})
    path = tmp_path / "imports.onnx"
    onnx.save(model, str(path))
    val = validate_model(path, run_checker=False)
    got = {f.code for f in val.findings}
    assert not got & {"DOMAIN_CUSTOM", "DOMAIN_CONTRIB"}, val.findings
    assert smoke_test(path, options=SmokeOptions(runs=1)).ok

    then = helper.make_graph([helper.make_node("Gelu", ["x"], ["t"], domain="com.microsoft")], "then", [],
                             [V("t", TensorProto.FLOAT, [2])])
    other = helper.make_graph([helper.make_node("Mine", ["x"], ["e"], domain="Paddle")], "else", [],
                              [V("e", TensorProto.FLOAT, [2])])
    used = _model([helper.make_node("If", ["c"], ["y"], then_branch=then, else_branch=other)],
                  [V("x", TensorProto.FLOAT, [2]), V("c", TensorProto.BOOL, [])], [V("y", TensorProto.FLOAT, [2])],
                  extra=extra)
    onnx.save(used, str(tmp_path / "used.onnx"))
    codes = {f.code for f in validate_model(tmp_path / "used.onnx", run_checker=False).findings}
    assert {"DOMAIN_CUSTOM", "DOMAIN_CONTRIB"} <= codes
