"""Validation: findings for every rule, the isolated checker (crash / time-out / cancel), compat findings."""

from __future__ import annotations

import dataclasses
import os
import threading
import time
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from onnxpack.core.checks import validate as validate_mod
from onnxpack.core.checks.checker_child import ChildOutcome, check_structure, run_in_child
from onnxpack.core.checks.compat import ORT_RELEASES, released_limits
from onnxpack.core.checks.validate import validate_model
from onnxpack.core.errors import Cancelled, InputError
from onnxpack.core.findings import Severity
from onnxpack.core.progress import CancelToken, ProgressEvent
from tests.factory import add_model, save_with_external, snapshot


# Module-level so that the spawned child can import them by name.
def _crash(_work: str) -> None:
    os.abort()


def _sleep(_work: str, seconds: float) -> str:
    time.sleep(seconds)
    return "woke"


def _raise(_work: str) -> None:
    raise ValueError("boom")


def _cwd(work: str) -> tuple[str, list[str]]:
    return os.getcwd(), os.listdir(work)


def codes(val: object, severity: Severity | None = None) -> list[str]:
    fs = val.findings  # type: ignore[attr-defined]
    return [f.code for f in fs if severity is None or f.severity is severity]


def _save(model: onnx.ModelProto, path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(model.SerializeToString())
    return path


# ----------------------------------------------------------------------------- child process


def test_child_outcomes() -> None:
    ok = run_in_child(_sleep, 0.0, timeout=60)
    assert ok == ChildOutcome("ok", "woke", exitcode=0)
    crashed = run_in_child(_crash, timeout=60)
    assert crashed.status == "crashed" and "signal" in crashed.detail
    err = run_in_child(_raise, timeout=60)
    assert err.status == "error" and "ValueError: boom" in err.detail
    t0 = time.monotonic()
    slow = run_in_child(_sleep, 60.0, timeout=1.0)
    assert slow.status == "timeout" and time.monotonic() - t0 < 20


def test_child_runs_in_an_empty_private_folder_that_is_removed() -> None:
    out = run_in_child(_cwd, timeout=60)
    cwd, listing = out.value
    assert listing == [] and "onnxpack-child-" in cwd
    assert not Path(cwd).exists()


def test_child_is_cancellable() -> None:
    token = CancelToken()
    threading.Timer(0.5, token.cancel).start()
    t0 = time.monotonic()
    with pytest.raises(Cancelled):
        run_in_child(_sleep, 60.0, timeout=120, cancel=token)
    assert time.monotonic() - t0 < 20


def test_checker_never_touches_the_models_external_files(tmp_path: Path) -> None:
    """The checker sees placeholders, so it cannot resolve a hostile path (or our files) by itself."""
    path = save_with_external(add_model(), tmp_path / "m.onnx")
    (tmp_path / "m.onnx.data").unlink()  # with real paths the onnx checker would fail on this
    out = check_structure(path, timeout=120)
    assert out.ok and out.value == {"checker": None, "inference": None}


# ----------------------------------------------------------------------------- whole validation


def test_sample_is_fine(sample_model: Path) -> None:
    before = snapshot(sample_model.parent)
    events: list[ProgressEvent] = []
    val = validate_model(sample_model, progress=events.append)
    assert val.ok, val.findings
    assert val.checker["status"] == "ok"
    assert set(codes(val)) == {"EXTDATA_UNALIGNED", "MERGE_FITS", "ORT_OLDEST"}
    assert all(f.severity is Severity.INFO for f in val.findings)
    assert events[0].done == 0 and events[-1].done == events[-1].total and {e.stage for e in events} == {"validate"}
    d = val.to_dict()
    assert d["schema"] == "onnxpack.check/1" and d["ok"] and d["summary"] == {"errors": 0, "warnings": 0, "info": 3}
    assert snapshot(sample_model.parent) == before


def test_checker_error_is_a_finding(tmp_path: Path) -> None:
    m = add_model()
    m.graph.node[0].op_type = "NoSuchOp"
    val = validate_model(_save(m, tmp_path / "m.onnx"))
    assert not val.ok and "ONNX_CHECKER" in codes(val, Severity.ERROR)
    f = next(f for f in val.findings if f.code == "ONNX_CHECKER")
    assert "NoSuchOp" in f.message and f.hint and f.subject == "m.onnx"


def test_shape_inference_error_is_a_finding(tmp_path: Path) -> None:
    m = add_model()
    m.graph.output[0].type.tensor_type.elem_type = TensorProto.INT64  # Add of floats declared INT64
    val = validate_model(_save(m, tmp_path / "m.onnx"))
    assert "SHAPE_INFERENCE" in codes(val, Severity.ERROR)


def test_checker_reads_both_kinds_of_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The checker child checks the file's own bytes when it has nothing to neutralise, and its neutralised copy
    when it has external data: both say the same of the same broken model."""
    from onnxpack.core.checks.checker_child import _check_task

    m = add_model()
    m.graph.node[0].op_type = "NoSuchOp"
    single = _save(m, tmp_path / "single" / "m.onnx")
    external = save_with_external(m, tmp_path / "external" / "m.onnx")
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)  # as in the child
    said = [_check_task(str(work), str(p)) for p in (single, external)]
    assert said[0] == said[1]
    assert "NoSuchOp" in said[0]["checker"]
    m = add_model()
    m.graph.output[0].type.tensor_type.elem_type = TensorProto.INT64  # Add of floats declared INT64
    for folder in ("single2", "external2"):
        path = tmp_path / folder / "m.onnx"
        _save(m, path) if folder == "single2" else save_with_external(m, path)
        said_now = _check_task(str(work), str(path))
        assert said_now["checker"] is None and "differs from existing elem type" in said_now["inference"], said_now


def test_checker_crash_and_timeout_become_findings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = _save(add_model(), tmp_path / "m.onnx")
    for outcome, code in [
        (ChildOutcome("crashed", detail="the child process died (signal 11)", exitcode=-11), "CHECKER_CRASHED"),
        (ChildOutcome("timeout", detail="no answer within 300 s"), "CHECKER_TIMEOUT"),
        (ChildOutcome("error", detail="MemoryError: "), "CHECKER_FAILED"),
    ]:
        monkeypatch.setattr("onnxpack.core.checks.validate.check_structure", lambda *_a, _o=outcome, **_k: _o)
        val = validate_model(path)
        assert codes(val, Severity.ERROR) == [code]
        assert val.checker["status"] == outcome.status


def test_checker_real_timeout(tmp_path: Path) -> None:
    val = validate_model(_save(add_model(), tmp_path / "m.onnx"), checker_timeout=0.001)
    assert "CHECKER_TIMEOUT" in codes(val)


def test_run_checker_false(tmp_path: Path) -> None:
    val = validate_model(_save(add_model(), tmp_path / "m.onnx"), run_checker=False)
    assert val.ok and val.checker["status"] == "not run"


def test_external_data_findings_and_checker_still_runs(tmp_path: Path) -> None:
    path = save_with_external(add_model(), tmp_path / "m.onnx")
    model = onnx.load(str(path), load_external_data=False)
    model.graph.initializer[0].external_data[0].value = "../../etc/passwd"
    path.write_bytes(model.SerializeToString())
    val = validate_model(path)
    assert codes(val, Severity.ERROR) == ["EXTDATA_OUTSIDE_DIR"]
    assert val.checker["status"] == "ok"
    assert "W1" in val.findings[0].message


def test_checksum_mismatch_is_verified(tmp_path: Path) -> None:
    path = save_with_external(add_model(), tmp_path / "m.onnx")
    model = onnx.load(str(path), load_external_data=False)
    e = model.graph.initializer[0].external_data.add()
    e.key, e.value = "checksum", "0" * 40
    path.write_bytes(model.SerializeToString())
    assert codes(validate_model(path), Severity.ERROR) == ["EXTDATA_CHECKSUM_MISMATCH"]


def test_duplicate_initializers(tmp_path: Path) -> None:
    m = add_model()
    m.graph.initializer.append(numpy_helper.from_array(np.array([9.0], np.float32), "B"))
    val = validate_model(_save(m, tmp_path / "m.onnx"))
    assert "DUPLICATE_INITIALIZER" in codes(val, Severity.ERROR)
    f = next(f for f in val.findings if f.code == "DUPLICATE_INITIALIZER")
    assert f.subject == "B" and "2 times" in f.message


def test_inline_tensor_size_mismatch(tmp_path: Path) -> None:
    m = add_model()
    m.graph.initializer[0].raw_data = b"\0" * 12
    val = validate_model(_save(m, tmp_path / "m.onnx"))
    assert "TENSOR_SIZE_MISMATCH" in codes(val, Severity.ERROR)


def test_aligned_external_data(tmp_path: Path) -> None:
    path = save_with_external(add_model(), tmp_path / "m.onnx", align=65536)
    val = validate_model(path)
    assert "EXTDATA_ALIGNED" in codes(val) and "EXTDATA_UNALIGNED" not in codes(val)


def test_too_large_for_one_file(tmp_path: Path) -> None:
    n = 600 * 2**20  # two tensors of 2.3 GiB altogether, in a sparse file (nothing is written)
    inits = []
    for i in range(2):
        t = TensorProto(name=f"W{i}", data_type=TensorProto.FLOAT, dims=[n // 4 * 4])
        for k, v in (("location", "w.bin"), ("offset", str(i * n * 4)), ("length", str(n * 4))):
            e = t.external_data.add()
            e.key, e.value = k, v
        t.data_location = TensorProto.EXTERNAL
        t.dims[0] = n
        inits.append(t)
    with open(tmp_path / "w.bin", "wb") as f:
        f.truncate(2 * n * 4)
    g = helper.make_graph([helper.make_node("Add", ["W0", "W1"], ["y"])], "g", [],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [n])], initializer=inits)
    val = validate_model(_save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)]), tmp_path / "m.onnx"))
    assert val.ok, val.findings
    assert "MERGE_TOO_LARGE" in codes(val, Severity.INFO)
    assert not val.inspection.fits_single_file


def test_target_ort_findings(tmp_path: Path) -> None:
    path = _save(add_model(opset=17, ir=10), tmp_path / "m.onnx")
    ok = validate_model(path, target_ort="1.18")
    assert ok.ok and "ORT_TARGET_OK" in codes(ok)
    assert "IR_LOWERABLE" in codes(ok)
    bad = validate_model(path, target_ort="1.14")
    assert not bad.ok and codes(bad, Severity.ERROR) == ["ORT_TARGET_UNSUPPORTED"]
    f = next(f for f in bad.findings if f.code == "ORT_TARGET_UNSUPPORTED")
    assert "lowering ir_version to 8 fixes it" in f.message and "--fix-ir" in f.hint
    assert bad.target is not None and bad.target.fix_by_lowering_ir == 8
    newest = ORT_RELEASES[-1]
    later = f"{newest.key[0]}.{newest.key[1] + 8}"
    known = validate_model(_save(add_model(opset=newest.opset, ir=newest.ir), tmp_path / "n.onnx"), target_ort=later)
    assert known.ok and "ORT_TARGET_OK" in codes(known) and "ORT_NEWER_THAN_KNOWN" not in codes(known)
    with pytest.raises(InputError):
        validate_model(path, target_ort="latest")


def test_opset_too_old_and_domains(tmp_path: Path) -> None:
    m = add_model(opset=6, ir=3)
    m.graph.input.extend(
        helper.make_tensor_value_info(t.name, TensorProto.FLOAT, list(t.dims)) for t in m.graph.initializer
    )
    assert "OPSET_TOO_OLD" in codes(validate_model(_save(m, tmp_path / "old.onnx"), run_checker=False))
    m = add_model()
    m.opset_import.extend([helper.make_opsetid("com.microsoft", 1), helper.make_opsetid("my.ops", 1)])
    m.graph.node.append(helper.make_node("Gelu", ["Y"], ["Z"], domain="com.microsoft"))
    m.graph.node.append(helper.make_node("Mine", ["Y"], ["Q"], domain="my.ops"))
    m.graph.node.append(helper.make_node("Other", ["Y"], ["R"], domain="not.imported"))
    val = validate_model(_save(m, tmp_path / "dom.onnx"), run_checker=False)
    assert "DOMAIN_CONTRIB" in codes(val, Severity.INFO)
    assert "DOMAIN_CUSTOM" in codes(val, Severity.WARNING)
    assert "OPSET_MISSING" in codes(val, Severity.ERROR)


def test_duplicate_opset_import(tmp_path: Path) -> None:
    m = add_model()
    m.opset_import.append(helper.make_opsetid("ai.onnx", 16))
    assert "OPSET_DUPLICATE" in codes(validate_model(_save(m, tmp_path / "m.onnx"), run_checker=False))


def test_checker_skipped_for_newer_onnx(tmp_path: Path) -> None:
    m = add_model(opset=onnx.defs.onnx_opset_version() + 1, ir=onnx.IR_VERSION)
    val = validate_model(_save(m, tmp_path / "m.onnx"))
    assert "CHECKER_SKIPPED" in codes(val, Severity.WARNING) and val.checker["status"] == "skipped"


def test_ort_format_validation(tmp_path: Path) -> None:
    from tests.test_inspect import make_ort_file

    path = make_ort_file(add_model(), tmp_path / "m.ort")
    val = validate_model(path, target_ort="1.17")
    assert val.ok and val.compat is None
    assert set(codes(val)) == {"ORT_FORMAT", "ORT_TARGET_UNKNOWN"}
    assert val.checker["status"] == "not applicable"


def test_versions_beyond_every_onnx_release_are_errors(tmp_path: Path) -> None:
    """IR 99 / opset 99: no runtime loads it, so it is an error, not "OK with warnings"."""
    limits = released_limits()
    for ir, opset in ((99, 17), (10, 99), (limits.ir + 1, limits.opset + 1)):
        path = _save(add_model(opset=opset, ir=ir), tmp_path / f"u{ir}_{opset}.onnx")
        val = validate_model(path)
        assert not val.ok
        assert "VERSION_UNRELEASED" in codes(val, Severity.ERROR)
        assert "ORT_NEWER_THAN_KNOWN" not in codes(val)
        f = next(f for f in val.findings if f.code == "VERSION_UNRELEASED")
        assert f"onnx {limits.onnx}" in f.message and f.hint
        assert (f"IR version {ir}" in f.message) == (ir > limits.ir)
        assert (f"ai.onnx opset {opset}" in f.message) == (opset > limits.opset)
    ml = add_model(opset=17, ir=10)
    ml.opset_import.append(helper.make_opsetid("ai.onnx.ml", limits.ml_opset + 1))
    val = validate_model(_save(ml, tmp_path / "ml.onnx"))
    assert "VERSION_UNRELEASED" in codes(val, Severity.ERROR)
    message = next(f.message for f in val.findings if f.code == "VERSION_UNRELEASED")
    assert f"ai.onnx.ml opset {limits.ml_opset + 1}" in message


def test_released_opset_newer_than_every_known_runtime_is_a_warning(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """An ONNX release no ONNX Runtime integrated yet: a warning (a newer runtime may load it), not an error."""
    limits = released_limits()
    bumped = dataclasses.replace(limits, ir=limits.ir + 1, opset=limits.opset + 1)
    monkeypatch.setattr(validate_mod, "released_limits", lambda: bumped)
    newest = ORT_RELEASES[-1]
    val = validate_model(_save(add_model(opset=newest.opset + 1, ir=newest.ir), tmp_path / "n.onnx"))
    assert val.ok and "ORT_NEWER_THAN_KNOWN" in codes(val, Severity.WARNING)


def test_oldest_ort_names_only_the_opsets_the_model_imports(tmp_path: Path) -> None:
    """Issue 13 item 5: no "ai.onnx.ml opset" for a model that does not import ai.onnx.ml."""
    plain = validate_model(_save(add_model(opset=17, ir=8), tmp_path / "plain.onnx"))
    message = next(f.message for f in plain.findings if f.code == "ORT_OLDEST")
    assert "ai.onnx opset" in message and "ai.onnx.ml" not in message
    ml = add_model(opset=17, ir=8)
    ml.opset_import.append(helper.make_opsetid("ai.onnx.ml", 3))
    with_ml = validate_model(_save(ml, tmp_path / "ml.onnx"))
    assert "ai.onnx.ml opset" in next(f.message for f in with_ml.findings if f.code == "ORT_OLDEST")


def test_initializers_no_node_reads_are_noted(tmp_path: Path) -> None:
    """INITIALIZER_UNUSED: W_a and W_b are read by no node; W_sub only by an If branch (outer scope), B by the
    main graph, and O is a graph output: none of those three is reported."""
    f = np.ones(256, np.float32)
    then_g = helper.make_graph([helper.make_node("Identity", ["W_sub"], ["t"])], "then", [],
                               [helper.make_tensor_value_info("t", TensorProto.FLOAT, [256])])
    else_g = helper.make_graph([helper.make_node("Identity", ["B"], ["e"])], "else", [],
                               [helper.make_tensor_value_info("e", TensorProto.FLOAT, [256])])
    nodes = [helper.make_node("ReduceSum", ["x"], ["s"], keepdims=0),
             helper.make_node("Cast", ["s"], ["c"], to=TensorProto.BOOL),
             helper.make_node("If", ["c"], ["y"], then_branch=then_g, else_branch=else_g)]
    inits = [numpy_helper.from_array(f, n) for n in ("W_a", "W_sub", "B", "W_b", "O")]
    graph = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [4])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [256]),
                               helper.make_tensor_value_info("O", TensorProto.FLOAT, [256])], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    val = validate_model(_save(model, tmp_path / "m.onnx"))
    [f1] = [f for f in val.findings if f.code == "INITIALIZER_UNUSED"]
    assert f1.severity is Severity.INFO and f1.subject == "W_a"
    assert f1.message == ("2 initializers of m.onnx are read by no node ('W_a', 'W_b'); ONNX Runtime drops them "
                          "when it loads the model")
    assert "onnx.utils.extract_model" in f1.hint
    model.graph.initializer.pop(3)  # W_b: one left, worded in the singular
    [f2] = [f for f in validate_model(_save(model, tmp_path / "m1.onnx")).findings if f.code == "INITIALIZER_UNUSED"]
    assert f2.message.startswith("Initializer 'W_a' of m1.onnx is read by no node; ") and f2.hint.startswith("It ")
    model.graph.initializer.pop(0)  # none left
    assert "INITIALIZER_UNUSED" not in codes(validate_model(_save(model, tmp_path / "m2.onnx")))
