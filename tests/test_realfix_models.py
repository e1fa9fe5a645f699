"""Shapes seen in real models (issue 28, section 0) that broke smoke, bundle or check, each built with onnx.helper.

Every model here is first run with bare onnxruntime, to show the model is fine and onnxpack was the problem.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper

import onnxpack.core.runtime.smoke as smoke_mod
from onnxpack.core.release.bundle import BundleOptions, build_bundle
from onnxpack.core.release.verify.verify import verify_bundle
from onnxpack.core.runtime.smoke import SmokeOptions, smoke_test
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
    from onnxpack.core.checks.validate import validate_model

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


# --------------------------------------------------- (e) ORT_LOAD hints that say what ORT said; seq<map> outputs


def test_load_failure_hints_follow_ort_s_message() -> None:
    from onnxpack.core.runtime.smoke_child import load_failure_hint

    locale = ("Exception during initialization: string_normalizer.cc:235 Failed to construct locale with name:"
              "en_US.UTF-8:locale::facet::_S_create_c_locale name not valid:Please, install necessary language-pack")
    hint = load_failure_hint(locale)
    assert "en_US.UTF-8" in hint and "not at fault" in hint and "newer ONNX Runtime" not in hint
    assert "custom-op" in load_failure_hint("Fatal error: my.ops:Mine(-1) is not a registered function/op")
    training = load_failure_hint("Fatal error: ai.onnx.preview.training:Adagrad(-1) is not a registered function/op")
    assert "training" in training and "custom-op" not in training
    preview = load_failure_hint("Fatal error: ai.onnx.preview:FlexAttention(-1) is not a registered function/op")
    assert "preview" in preview and "training" not in preview and "custom-op" not in preview
    kernel = load_failure_hint("Could not find an implementation for Min(13) node with name ''")
    assert "no kernel for Min (opset 13)" in kernel
    assert "version_converter" in load_failure_hint("Could not find an implementation for Add(6) node with name ''")
    assert "newer ONNX Runtime or be malformed" in load_failure_hint("something nobody foresaw")
    rnn = ("Exception during initialization: rnn.h:48 layout_ == 0 was false. Batchwise recurrent operations "
           "(layout == 1) are not supported.")
    assert "does not support what the model asks" in load_failure_hint(rnn)


def test_locale_failure_of_a_string_normalizer(tmp_path: Path, inprocess: None) -> None:
    """Where the host lacks the locale (as here, in a minimal container), bare ORT fails the same way: the hint
    names the locale instead of blaming the model."""
    model = _model([helper.make_node("StringNormalizer", ["x"], ["y"], case_change_action="LOWER",
                                     locale="xx_NOPE")],
                   [V("x", TensorProto.STRING, [2])], [V("y", TensorProto.STRING, None)])
    with pytest.raises(Exception, match="locale"):
        _bare_ort(model, {"x": np.array(["A", "b"], dtype=object)})
    path = tmp_path / "norm.onnx"
    onnx.save(model, str(path))
    from onnxpack.core.errors import RuntimeFailure

    with pytest.raises(RuntimeFailure) as e:
        smoke_test(path, options=SmokeOptions(runs=1))
    assert e.value.code == "ORT_LOAD" and "xx_NOPE" in (e.value.hint or "")


def test_a_refusal_from_the_smoke_child_keeps_its_values_so_the_app_says_it_in_japanese(tmp_path: Path,
                                                                                       qapp: Any) -> None:
    """ONNX Runtime refuses a custom operator in the smoke child: the error the parent raises keeps the values it was
    made with (they were lost crossing the pipe), so the app words its remedy in Japanese (it stayed English); the
    English remedy is the registered one."""
    from onnxpack.core.errors import RuntimeFailure
    from onnxpack.core.runtime import codes
    from onnxpack.gui import i18n
    from onnxpack.gui.hints import gui_hint
    from onnxpack.gui.messages import gui_message

    model = _model([helper.make_node("Mine", ["x"], ["y"], domain="my.ops")], [V("x", TensorProto.FLOAT, [2])],
                   [V("y", TensorProto.FLOAT, [2])], extra=[helper.make_opsetid("my.ops", 1)])
    path = tmp_path / "custom.onnx"
    onnx.save(model, str(path))
    with pytest.raises(RuntimeFailure) as e:
        smoke_test(path, options=SmokeOptions(runs=1))
    err = e.value
    assert err.code == "ORT_LOAD"
    assert {k: err.params.get(k) for k in ("hint_variant", "op", "domain")} == {
        "hint_variant": "op_custom", "op": "Mine", "domain": "my.ops"}
    assert err.hint == codes.ORT_LOAD.remedy("op_custom", op="Mine", domain="my.ops")
    assert gui_hint(err.code, err.hint, err.params) == err.hint  # English: the engine's words
    try:
        i18n.install_translators(qapp, "ja")
        hint, message = gui_hint(err.code, err.hint, err.params) or "", gui_message(err)
        assert "Mine" in hint and "my.ops" in hint and "カスタム演算子" in hint, hint
        assert not message.isascii(), message  # (an error's message in the app: its code's general words)
    finally:
        i18n.install_translators(qapp, "en")


def _zipmap_model() -> onnx.ModelProto:
    seq_map = helper.make_sequence_type_proto(
        helper.make_map_type_proto(TensorProto.INT64, helper.make_tensor_type_proto(TensorProto.FLOAT, [])))
    nodes = [helper.make_node("ArgMax", ["p"], ["label"], axis=1, keepdims=0),
             helper.make_node("ZipMap", ["p"], ["probabilities"], domain="ai.onnx.ml", classlabels_int64s=[0, 1, 2])]
    return _model(nodes, [V("p", TensorProto.FLOAT, ["n", 3])],
                  [V("label", TensorProto.INT64, ["n"]), helper.make_value_info("probabilities", seq_map)],
                  extra=[helper.make_opsetid("ai.onnx.ml", 1)])


def test_sequence_of_maps_output_is_said(tmp_path: Path, inprocess: None) -> None:
    model = _zipmap_model()
    label, probs = _bare_ort(model, {"p": np.array([[0.1, 0.7, 0.2]], np.float32)})
    assert int(label[0]) == 1 and isinstance(probs, list) and isinstance(probs[0], dict)
    path = tmp_path / "zipmap.onnx"
    onnx.save(model, str(path))
    r = smoke_test(path, options=SmokeOptions(runs=1), save_outputs_to=tmp_path / "out")
    assert r.ok, r.findings
    assert sorted(r.saved_outputs) == ["label"]
    f = [f for f in r.findings if f.code == "SMOKE_OUTPUT_NOT_TENSOR"]
    assert len(f) == 1 and f[0].subject == "probabilities"
    assert "onnxruntime-node" in f[0].message and "seq(map(int64,tensor(float)))" in f[0].message


def test_bundle_says_which_output_has_no_reference(tmp_path: Path) -> None:
    path = tmp_path / "src" / "zipmap.onnx"
    path.parent.mkdir()
    onnx.save(_zipmap_model(), str(path))
    result = build_bundle(BundleOptions(model=path, out_dir=tmp_path / "out", version="1.0.0",
                                        smoke=SmokeOptions(runs=1), source_date_epoch=1_700_000_000))
    refs = {o["name"]: o["reference"] for o in result.manifest["smoke"]["outputs"]}
    assert refs["probabilities"] is None and refs["label"]
    assert [f.subject for f in result.findings if f.code == "SMOKE_OUTPUT_NOT_TENSOR"] == ["probabilities"]


# ------------------------------------------------------ issue 29 item 5: sizes that cannot be made are findings


def _identity(shape: list[Any]) -> onnx.ModelProto:
    return _model([helper.make_node("Identity", ["x"], ["y"])], [V("x", TensorProto.FLOAT, shape)],
                  [V("y", TensorProto.FLOAT, None)])


@pytest.mark.parametrize("shape, dims", [
    ([2**31, 2**31], {}),  # a fixed shape whose element count overflows int64 bytes
    (["n", "m"], {"n": 2**62}),  # a recipe's dims
    (["n", "m"], {"n": 2**63 - 1}),
])
def test_inputs_too_large_are_a_finding_not_a_traceback(tmp_path: Path, inprocess: None, shape: list[Any],
                                                         dims: dict[str, int]) -> None:
    path = tmp_path / "big.onnx"
    onnx.save(_identity(shape), str(path))
    r = smoke_test(path, options=SmokeOptions(runs=1, dims=dims))
    assert not r.ok
    f = next(f for f in r.findings if f.code == "SMOKE_INPUT_TOO_LARGE")
    assert "TiB" in f.message and f.severity.value == "error"
    assert ("--dim" in f.hint) == bool(dims) and ("--no-smoke" in f.hint) == (not dims)
    assert r.recipe["inputs"]["x"]["source"] == "too large"


def test_rank_above_64_is_a_finding(tmp_path: Path, inprocess: None) -> None:
    path = tmp_path / "rank.onnx"
    onnx.save(_identity([1] * 65), str(path))
    r = smoke_test(path, options=SmokeOptions(runs=1))
    f = next(f for f in r.findings if f.code == "SMOKE_INPUT_UNSUPPORTED")
    assert "65 dimensions" in f.message and "64" in f.hint
    onnx.save(_identity([1] * 64), str(path))
    assert smoke_test(path, options=SmokeOptions(runs=1)).ok


def test_dims_and_ranges_out_of_bounds_are_usage_errors(tmp_path: Path, inprocess: None) -> None:
    from onnxpack.core.errors import InputError
    from onnxpack.core.runtime.inputs import parse_dim

    with pytest.raises(InputError, match="int64"):
        parse_dim(f"n={2**63}")
    with pytest.raises(InputError, match="int64"):
        SmokeOptions.from_recipe({"dims": {"n": 2**64}})
    path = tmp_path / "f32.onnx"
    onnx.save(_identity(["n"]), str(path))
    with pytest.raises(InputError, match="float32") as e:
        smoke_test(path, options=SmokeOptions(runs=1, ranges={"x": (-1e308, 1e308)}))
    assert e.value.hint and "--range x=" in e.value.hint
    wide = _model([helper.make_node("Identity", ["x"], ["y"])], [V("x", TensorProto.DOUBLE, [4])],
                  [V("y", TensorProto.DOUBLE, None)])
    onnx.save(wide, str(path))
    r = smoke_test(path, options=SmokeOptions(runs=1, ranges={"x": (-1e308, 1e308)}), save_outputs_to=tmp_path / "o")
    assert r.ok
    y = np.load(r.saved_outputs["y"])
    assert np.all(np.isfinite(y)) and np.all(np.abs(y) <= 1e308) and np.abs(y).max() > 1e300


def test_search_never_allocates_candidates_above_its_cap(tmp_path: Path, inprocess: None,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """Candidates whose inputs would exceed the search's cap (1 GiB; 1 MiB here) are skipped before any array is
    made (four symbolic dims at 224 were allocated, 10 GiB, and only then found too large)."""
    from onnxpack.core.runtime import inputs as inputs_mod
    from onnxpack.core.runtime import smoke_child

    made: list[int] = []
    real = inputs_mod._generate

    def spy(meta: Any, shape: list[int], *a: Any) -> Any:
        made.append(int(np.prod(shape)))
        return real(meta, shape, *a)

    monkeypatch.setattr(inputs_mod, "_generate", spy)
    monkeypatch.setattr(smoke_child, "MAX_SEARCH_INPUT_BYTES", 1 << 20)
    w = numpy_helper.from_array(np.ones((266, 4), np.float32), "W")  # "MatMul dimension mismatch": no size named
    model = _model([helper.make_node("MatMul", ["x", "W"], ["y"])], [V("x", TensorProto.FLOAT, ["b", "c", "h", "k"])],
                   [V("y", TensorProto.FLOAT, None)], [w])
    path = tmp_path / "mm.onnx"
    onnx.save(model, str(path))
    r = smoke_test(path, options=SmokeOptions(runs=1))
    assert not r.ok
    assert any(str(a["error"]).startswith("skipped: inputs would exceed") for a in r.search["attempts"])
    assert made and max(made) * 4 <= 1 << 20


# ------------------------------------------------------ issue 29 item 6: the smoke temp folder is reaped by name


def test_smoke_temp_folder_is_named_for_the_reaper(tmp_path: Path, inprocess: None,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    import re
    import subprocess
    import sys
    import tempfile

    tmp = tmp_path / "tmp"
    tmp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(tmp))
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    stale = tmp / f"onnxpack-smoke-{dead.pid}-0123abcd"
    stale.mkdir()
    seen: list[str] = []
    real = smoke_mod._make_job

    def spy(*a: Any, **kw: Any) -> dict[str, Any]:
        job = real(*a, **kw)
        seen.append(job["empty_dir"])
        assert Path(job["empty_dir"]).is_dir()
        return job

    monkeypatch.setattr(smoke_mod, "_make_job", spy)
    path = tmp_path / "m.onnx"
    onnx.save(_identity([2]), str(path))
    assert smoke_test(path, options=SmokeOptions(runs=1)).ok
    assert not stale.exists()  # a killed run's folder is removed by the next run
    assert re.fullmatch(rf"onnxpack-smoke-{os.getpid()}-[0-9a-f]{{8}}", Path(seen[0]).name)
    assert Path(seen[0]).parent == tmp and not Path(seen[0]).exists()


# ------------------------------------------------ an old opset that ONNX Runtime still runs is not a bundle blocker


def test_opset_below_seven_warns_and_bundles_when_ort_runs_it(tmp_path: Path) -> None:
    """onnx's own opset-6 test models run on current ORT; OPSET_TOO_OLD was an error that refused their bundle."""
    from onnxpack.core.checks.validate import validate_model

    model = _model([helper.make_node("Relu", ["x"], ["y"])], [V("x", TensorProto.FLOAT, [2])],
                   [V("y", TensorProto.FLOAT, [2])], opset=6)
    model.ir_version = 3
    (y,) = _bare_ort(model, {"x": np.array([-1.0, 2.0], np.float32)})
    assert y.tolist() == [0.0, 2.0]
    path = tmp_path / "src" / "old.onnx"
    path.parent.mkdir()
    onnx.save(model, str(path))
    f = next(f for f in validate_model(path, run_checker=False).findings if f.code == "OPSET_TOO_OLD")
    assert f.severity.value == "warning" and "opset 6" in f.message
    result = build_bundle(BundleOptions(model=path, out_dir=tmp_path / "out", version="1.0.0",
                                        smoke=SmokeOptions(runs=1), source_date_epoch=1_700_000_000))
    assert result.smoke is not None and result.smoke["ok"]
    assert "OPSET_TOO_OLD" in {f.code for f in result.findings}
