"""The values a registry template is filled with are data, never English (issue 38 item 1): each kind of message is
a variant of its code, so the desktop app renders it in Japanese with no English fragment left; an error's values
(which the app's details and ``--json`` show) are names, numbers and flags. Each case is made by the call site that
makes it in the product."""

from __future__ import annotations

import re
import sys
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from onnxpack.core import registry
from onnxpack.core.checks.validate import _unused_initializers
from onnxpack.core.codes import fields
from onnxpack.core.errors import OnnxpackError
from onnxpack.core.findings import Finding
from onnxpack.core.model.merge import proof
from onnxpack.core.runtime import releaseenvs, wheels
from onnxpack.core.runtime.outputfacts import compare_values
from onnxpack.core.runtime.smokefindings import _output_findings, compare_findings
from onnxpack.core.runtime.smokeoptions import SmokeOptions
from tests.test_proof import _source, _write

#: Names of products and units the Japanese keeps in Latin letters.
_KEPT = ("ONNX Runtime", "NaN/Inf", "protobuf", "onnxpack", "GiB")
#: Two English words in a row (what a sentence fragment looks like; a list of names has commas between).
_PROSE = re.compile(r"[A-Za-z]{2,} +[A-Za-z]{2,}")


def english_left(text: str, values: dict[str, Any]) -> list[str]:
    """The English fragments of ``text`` once the values it was filled with (data) and the kept names are taken
    out (and a command in backticks, which is a command line)."""
    text = re.sub(r"`[^`]*`", " ", text)
    for value in sorted((str(v) for v in values.values() if v not in (None, "")), key=len, reverse=True):
        text = text.replace(value, " ").replace(repr(value), " ")
    for name in _KEPT:
        text = text.replace(name, " ")
    return _PROSE.findall(text)


def prose_values(params: dict[str, Any]) -> list[str]:
    """The values that read as English words (data: a name, a number, a path, a list of names, a command line; the
    words another program wrote, ``last``/``reason``/``error``, are its own)."""
    theirs = ("variant", "hint_variant", "last", "reason", "error", "details")
    return [f"{k}={v!r}" for k, v in params.items()
            if k not in theirs and isinstance(v, str) and "--" not in v and _PROSE.search(v)]


@pytest.fixture
def japanese(qapp: Any) -> Any:
    from onnxpack.gui import i18n

    i18n.install_translators(qapp, "ja")
    try:
        yield
    finally:
        i18n.install_translators(qapp, "en")


def _in_japanese(finding: Finding) -> tuple[str, str | None]:
    from onnxpack.gui.hints import gui_hint
    from onnxpack.gui.messages import gui_message

    return gui_message(finding), gui_hint(finding.code, finding.hint, finding.message_params())


def _assert_japanese(finding: Finding) -> None:
    message, remedy = _in_japanese(finding)
    values = finding.message_params()
    assert message != finding.message and not english_left(message, values), (finding.code, message)
    if finding.hint:
        assert remedy and remedy != finding.hint and not english_left(remedy, values), (finding.code, remedy)
    assert not prose_values(values), (finding.code, values)


def _compared(kind: str) -> dict[str, Any]:
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    b = {"numbers": a + 1, "shape": a.reshape(3, 2), "dtype": a.astype(np.float64),
         "non_finite": np.where(a > 2, np.nan, a).astype(np.float32)}.get(kind)
    if kind == "strings":
        return compare_values("y", np.array(["a", "b"]), np.array(["a", "c"]), 1e-5, 1e-5)
    if kind == "non_tensor":
        return compare_values("y", [{"a": 1.0}], [{"a": 2.0}], 1e-5, 1e-5)
    return compare_values("y", a, b, 1e-5, 1e-5)


@pytest.mark.parametrize("kind", ["numbers", "shape", "dtype", "non_finite", "strings", "non_tensor"])
@pytest.mark.parametrize("nondeterministic", [False, True])
def test_each_kind_of_output_difference_is_a_variant(japanese: Any, kind: str, nondeterministic: bool) -> None:
    row = _compared(kind)
    raw = {"models": [{"nondeterministic": ["y"] if nondeterministic else []}, {}],
           "compare": {"outputs": [row], "extra_outputs": []}}
    [finding] = compare_findings(raw, "other.onnx", SmokeOptions())
    assert finding.code == "COMPARE_MISMATCH" and finding.params.get("variant") == (None if kind == "numbers" else kind)
    assert finding.message.startswith("Output y differs: ") and "None" not in finding.message
    if row["problem"]:
        assert finding.message == f"Output y differs: {row['problem']}"  # the English is the row's, word for word
    assert ("non-deterministic" in finding.hint) is nondeterministic
    _assert_japanese(finding)


def test_a_missing_output_is_its_own_finding() -> None:
    row = {"name": "y", "bitwise_equal": False, "max_abs": None, "max_rel": None, "mismatched": None,
           "within_tolerance": False, "problem": "missing in the other model", "differs": {"kind": "missing"}}
    raw = {"models": [{}, {}], "compare": {"outputs": [row], "extra_outputs": []}}
    assert [f.code for f in compare_findings(raw, "other.onnx", SmokeOptions())] == ["COMPARE_MISSING_OUTPUT"]


def _tried(*errors: bool) -> list[dict[str, Any]]:
    profiles = ("model", "model-unit", "model-ones")
    return [{"profile": p, "error": "[ONNXRuntimeError] : 2 : INVALID_ARGUMENT : index 7 is out of bounds"}
            if failed else {"profile": p, "non_finite": ["y"]} for p, failed in zip(profiles, errors, strict=False)]


@pytest.mark.parametrize("errors", [(False, False, False), (False, True, False)])
def test_the_inputs_tried_are_named_as_data(japanese: Any, errors: tuple[bool, ...]) -> None:
    desc = {"outputs": [{"name": "y", "shape": [4], "finite": False, "nan_count": 4, "inf_count": 0, "size": 4,
                         "constant": True, "constant_value": None}]}
    non_finite, constant = _output_findings(desc, "m.onnx", tried=_tried(*errors))
    assert non_finite.params["hint_variant"] == ("tried_failed" if any(errors) else "tried")
    assert "onnxpack tried 3 kinds of generated inputs (model, model-unit, model-ones)" in non_finite.hint
    assert constant.message.endswith("constant everywhere (NaN)")
    _assert_japanese(non_finite)
    _assert_japanese(constant)


def test_a_constant_output_that_is_no_finite_number(japanese: Any) -> None:
    desc = {"outputs": [{"name": "y", "shape": [2], "finite": False, "nan_count": 1, "inf_count": 1, "size": 2,
                         "constant": True, "constant_value": None}]}
    constant = _output_findings(desc, "m.onnx")[-1]
    assert constant.params["variant"] == "non_finite"
    assert constant.message == "m.onnx: output y is constant everywhere (not a finite number)"
    _assert_japanese(constant)


def test_more_unused_initializers_than_are_named(japanese: Any) -> None:
    inits = [numpy_helper.from_array(np.zeros(1, np.float32), f"w{i}") for i in range(5)]
    graph = helper.make_graph([helper.make_node("Identity", ["x"], ["y"])], "g",
                              [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1])], inits)
    [finding] = _unused_initializers(helper.make_model(graph), "m.onnx")
    assert finding.message.startswith("5 initializers of m.onnx are read by no node ('w0', 'w1', 'w2', … 2 more)")
    _assert_japanese(finding)


@pytest.mark.parametrize(("code", "variant", "values"), [
    ("PROVE_ORT_OK", None, {"version": "1.17.3", "model": "m.onnx", "reference": "1.20.1"}),
    ("PROVE_ORT_OK", "tolerance", {"version": "1.17.3", "model": "m.onnx", "reference": "1.20.1",
                                   "difference": "1.2e-07"}),
    ("SMOKE_FAILED", "failed", {}),
    ("SMOKE_FAILED", "now_failed", {}),
    ("SMOKE_MISMATCH", "tolerance", {"name": "y", "atol": "0.001", "rtol": "0.001", "max_abs": 0.5, "max_rel": 0.1}),
    ("SMOKE_MISMATCH", "tolerance_shape", {"name": "y", "atol": "0.001", "rtol": "0.001", "original": "[2, 3]",
                                           "other": "[3, 2]"}),
    ("SMOKE_MISMATCH", "tolerance_dtype", {"name": "y", "atol": "0.001", "rtol": "0.001", "original": "float32",
                                           "other": "float64"}),
    ("SMOKE_MISMATCH", "tolerance_non_finite", {"name": "y", "atol": "0.001", "rtol": "0.001"}),
    ("SMOKE_MISMATCH", "tolerance_strings", {"name": "y", "atol": "0.001", "rtol": "0.001", "mismatched": 2}),
    ("RELEASE_LABELS", None, {"asset": "labels.txt", "count": 3, "model": "m.onnx", "outputs": "'probs': 1000"}),
    ("EXTDATA_OUT_OF_RANGE", "shrunk", {"path": "m.onnx.data", "tensor": "W"}),
    ("EXTDATA_OUT_OF_RANGE", "shrunk_range", {"path": "m.onnx.data"}),
    ("MERGE_TOO_LARGE", "merge", {"bytes": 3 << 30, "limit": 2 << 30}),
    ("MERGE_TOO_LARGE", "merge_structure", {"bytes": 3 << 30, "limit": 2 << 30}),
    ("MERGE_TOO_LARGE", "merge_tensor", {"bytes": 3 << 30, "limit": 2 << 30, "tensor": "W"}),
    ("MANIFEST_INCONSISTENT", "prove_failed", {"releases": "1.17.3, 1.20.1"}),
    ("MANIFEST_INCONSISTENT", "prove_not_ok", {}),
    ("CHECKSUMS_MISMATCH", "too_large", {"path": "SHA256SUMS", "size": 10**9, "limit": 10**6}),
    ("MANIFEST_SCHEMA", "listed_more", {"file": "manifest.json", "problems": "$.files[0].sha256", "more": 3}),
])  # fmt: skip
def test_each_new_finding_variant_renders_in_japanese(japanese: Any, code: str, variant: str | None,
                                                      values: dict[str, Any]) -> None:
    finding = registry()[code].finding("subject", variant=variant, **values)
    _assert_japanese(finding)


# --- errors: the app words them by their summary; their values are data ------------------------------------------


def _assert_data(e: OnnxpackError, code: str, variant: str | None) -> None:
    from onnxpack.gui.messages import gui_message

    assert e.code == code and e.params.get("variant") == variant, (e.code, e.params)
    assert not prose_values(e.params), e.params
    assert not gui_message(e).isascii()  # its summary, in Japanese


def test_a_merged_tensor_that_differs_is_named(tmp_path: Path, japanese: Any) -> None:
    plan, digests = _source(tmp_path)
    model = onnx.load(str(plan.source))
    w2 = next(t for t in model.graph.initializer if t.name == "W2")
    w2.raw_data = bytes(len(w2.raw_data))
    merged = _write(model, tmp_path / "out" / "m.onnx")
    with pytest.raises(OnnxpackError) as e:
        proof.prove_same_model(plan.model, plan.table, digests, merged, merged.parent)
    assert e.value.message == "The merged model is not the source model: tensor 'W2' has different bytes"
    _assert_data(e.value, "MERGE_NOT_EQUAL", "tensor")


def test_a_merged_model_with_another_tensor_count(tmp_path: Path, japanese: Any) -> None:
    plan, digests = _source(tmp_path)
    model = onnx.load(str(plan.source))
    model.graph.initializer.append(numpy_helper.from_array(np.zeros(1, np.float32), "extra"))
    merged = _write(model, tmp_path / "out" / "m.onnx")
    with pytest.raises(OnnxpackError) as e:
        proof.prove_same_model(plan.model, plan.table, digests, merged, merged.parent)
    assert e.value.message == "The merged model is not the source model: 4 tensors instead of 3"
    _assert_data(e.value, "MERGE_NOT_EQUAL", "count")


@pytest.mark.parametrize(("script", "variant", "message"), [
    ("print('ERROR: no such wheel'); raise SystemExit(1)", "install", "Installing a.whl and b.whl failed: ERROR: no "
                                                                      "such wheel"),
    ("raise SystemExit(3)", "install_status", "Installing a.whl and b.whl failed: exit status 3"),
    ("import time; time.sleep(30)", "install_timeout", "Installing a.whl and b.whl did not finish within 0.3 s"),
])  # fmt: skip
def test_each_step_of_making_an_environment_is_a_variant(japanese: Any, script: str, variant: str,
                                                         message: str) -> None:
    with pytest.raises(OnnxpackError) as e:
        releaseenvs._run([sys.executable, "-c", script], "install", {"ort": "a.whl", "numpy": "b.whl"}, 0.3, None)
    assert e.value.message == message
    _assert_data(e.value, "PROVE_ENV", variant)


def test_the_virtual_environment_step(japanese: Any) -> None:
    with pytest.raises(OnnxpackError) as e:
        releaseenvs._run([sys.executable, "-c", "raise SystemExit(2)"], "", {"version": "1.17.3"}, 30, None)
    assert e.value.message == "Creating a virtual environment for onnxruntime 1.17.3 failed: exit status 2"
    _assert_data(e.value, "PROVE_ENV", "venv_status")


def test_a_cached_wheel_that_is_no_zip(tmp_path: Path, japanese: Any) -> None:
    wheel = tmp_path / "onnxruntime-1.17.3-cp311-cp311-linux_x86_64.whl"
    wheel.write_bytes(b"not a zip")
    with pytest.raises(OnnxpackError) as e:
        releaseenvs._check_wheel(wheel)
    assert e.value.message.startswith(f"Reading {wheel.name} failed: ")
    _assert_data(e.value, "PROVE_ENV", "read")
    with zipfile.ZipFile(wheel, "w") as zf:
        zf.writestr("onnxruntime/__init__.py", "")
    releaseenvs._check_wheel(wheel)  # a wheel it can read passes


@pytest.mark.parametrize(("argv", "variant", "words"), [
    (("ort", None, ("NAME.ort", "required_operators.config")), None, "to write NAME.ort and required_operators.config "
                                                                   "into"),
    (("keygen", None, ("NAME.key", "NAME.pub"), "keygen"), "keygen", "to write NAME.key and NAME.pub into"),
    (("merge", ".onnx", ("MODEL.onnx",)), "ext", "to write MODEL.onnx into, or a file name ending in .onnx"),
])  # fmt: skip
def test_what_o_takes_names_its_files_as_data(tmp_path: Path, japanese: Any, argv: tuple[Any, ...], variant: str | None,
                                              words: str) -> None:
    from onnxpack.cli.output import output_file_or_folder

    existing = tmp_path / "taken"
    existing.write_text("x", encoding="utf-8")
    with pytest.raises(OnnxpackError) as e:
        output_file_or_folder(str(existing), *argv)
    assert words in e.value.message
    _assert_data(e.value, "OUTPUT_AMBIGUOUS", variant)


@pytest.mark.parametrize(("code", "variant", "values"), [
    ("INPUT_VALUE", "bool", {"name": "flag", "value": "maybe", "elem": "bool", "example": "true"}),
    ("DIM_UNKNOWN", "fixed", {"names": "'seq'", "listing": ""}),
    ("MODEL_IS_DATA", "several", {"file": "m.onnx.data", "model": "a.onnx, b.onnx", "referrer": "/x/a.onnx"}),
    ("RELEASE_PATH", "own", {"path": "manifest.json"}),
    ("ORT_CONVERT", "status", {"status": 3}),
    ("ORT_FORMAT_MISMATCH", "outputs", {}),
    ("PROVE_NO_WHEEL", "any", {"here": wheels.here()}),
    ("PROVE_NO_WHEEL", "minor", {"minor": "1.14", "here": wheels.here()}),
    ("PROVE_NETWORK", "bad_entry", {"url": "https://pypi.org/pypi/onnxruntime/json", "package": "onnxruntime",
                                    "version": "1.17.3"}),
    ("PROVE_NETWORK", "bad_url", {"url": "https://pypi.org/pypi/onnxruntime/json", "file": "a.whl"}),
    ("MERGE_NOT_EQUAL", "outputs", {"model": "m.onnx", "outputs": "y, z", "max_abs": 0.5}),
    ("MERGE_NOT_EQUAL", "no_outputs", {"model": "m.onnx"}),
    ("RETARGET_NOT_EQUAL", None, {"version": "1.17", "model": "m.onnx", "outputs": "y", "max_abs": 0.5}),
    ("RETARGET_NOT_EQUAL", "no_outputs", {"version": "1.17", "model": "m.onnx"}),
    ("BUNDLE_FINDINGS", "more", {"listing": "SMOKE_NON_FINITE: y", "more": 2}),
    ("PROVE_ENV", "left", {"version": "1.17.3", "file": "lib/x.pth", "folder": "/cache/envs/x.tmp"}),
    ("PROVE_ENV", "venv_timeout", {"version": "1.17.3", "timeout": "900"}),
])  # fmt: skip
def test_each_new_error_variant_is_worded_in_japanese(japanese: Any, code: str, variant: str | None,
                                                      values: dict[str, Any]) -> None:
    from onnxpack.gui.hints import gui_hint

    entry = registry()[code]
    e = entry.error(variant=variant, **values)
    assert set(values) >= fields(entry.template(variant)) - {"subject"}  # made with every value it names
    _assert_data(e, code, variant)
    remedy = gui_hint(e.code, e.hint, e.params)
    assert remedy and not remedy.isascii() and not english_left(remedy, values), remedy


def test_a_url_the_policy_refuses_is_named_as_data(japanese: Any) -> None:
    from onnxpack.core.runtime import fetch

    for file, variant in ((None, "refused"), ("a.whl", "download_refused")):
        with pytest.raises(OnnxpackError) as e:
            fetch.check_url("https://evil.example/a.whl", "https://pypi.org", file=file)
        assert "'https://evil.example/a.whl' is not an https URL on https://pypi.org or" in e.value.message
        _assert_data(e.value, "PROVE_NETWORK", variant)


def test_the_scan_of_values_reads_english_and_lets_data_pass() -> None:
    assert prose_values({"what": "tensor 'W' has different bytes", "flags": "--dim batch=1 --dim seq=8",
                         "outputs": "'probs': 1000", "last": "ERROR: pip says so"}) == [
        "what=\"tensor 'W' has different bytes\""]
    assert english_left("出力 y が異なります: 形状 [2, 3] と [3, 2]", {"original": "[2, 3]", "other": "[3, 2]"}) == []
    assert english_left("出力 y: max abs diff 0.5", {}) == ["max abs"]
