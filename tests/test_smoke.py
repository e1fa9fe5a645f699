"""Smoke runs and comparisons.

Most tests run the child's code in this process (``inprocess`` fixture: same messages, no spawn) to
stay fast; the isolation tests (crash, time-out, cancel, a real spawn) start real child processes.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

import onnxpack.core.runtime.smoke as smoke_mod
from onnxpack.core.errors import Cancelled, ExternalDataError, RuntimeFailure
from onnxpack.core.progress import CancelToken
from onnxpack.core.runtime.smoke import SmokeOptions, compare_models, safe_output_filename, save_outputs, smoke_test
from onnxpack.core.runtime.smoke_child import compare_values, digest
from tests import factory

V = helper.make_tensor_value_info


def make(nodes: list[Any], inputs: list[Any], outputs: list[Any], path: Path, inits: list[Any] | None = None,
         opset: int = 17, extra_opsets: list[Any] | None = None) -> Path:
    graph = helper.make_graph(nodes, "g", inputs, outputs, initializer=inits or [])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset), *(extra_opsets or [])])
    model.ir_version = 8
    path.parent.mkdir(parents=True, exist_ok=True)
    onnx.save(model, str(path))
    return path


class _Conn:
    def __init__(self) -> None:
        self.messages: list[tuple[str, Any]] = []

    def send(self, m: tuple[str, Any]) -> None:
        self.messages.append(m)

    def close(self) -> None:
        pass


def _in_process(target: Any, job: dict[str, Any], **kw: Any) -> Any:
    """Stand-in for core.smoke.run_in_child: the same protocol, without a child process."""
    if isinstance(target, str):  # "module:function", as the parent names the smoke child's entry point
        import importlib

        module, _, attr = target.partition(":")
        target = getattr(importlib.import_module(module), attr)
    conn = _Conn()
    target(conn, job)
    for kind, payload in conn.messages:
        if kind == "result":
            return payload
        if kind == "error":
            cls = smoke_mod._ERRORS.get(payload["class"], RuntimeFailure)
            raise cls(payload["message"], payload.get("hint"), code=payload.get("code"), details=payload.get("details"))
    raise AssertionError("child sent no result")


@pytest.fixture
def inprocess(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(smoke_mod, "run_in_child", _in_process)
    monkeypatch.setattr(smoke_mod, "start_child", lambda target: None)  # no real child to start early


ELEMS = [("f32", TensorProto.FLOAT), ("f16", TensorProto.FLOAT16), ("i32", TensorProto.INT32),
         ("i64", TensorProto.INT64), ("u8", TensorProto.UINT8), ("b", TensorProto.BOOL), ("s", TensorProto.STRING)]


def test_all_element_types_and_a_shared_dim(tmp_path: Path, inprocess: None) -> None:
    m = make(
        [helper.make_node("Identity", [n], [n + "_out"]) for n, _ in ELEMS],
        [V(n, t, ["batch", 2]) for n, t in ELEMS],
        [V(n + "_out", t, ["batch", 2]) for n, t in ELEMS],
        tmp_path / "types.onnx",
    )
    r = smoke_test(m, options=SmokeOptions(dims={"batch": 3}, runs=2), save_outputs_to=tmp_path / "out")
    assert r.ok, r.findings
    assert r.provider == "CPUExecutionProvider" and r.ort_version
    assert [o["elem_type"] for o in r.outputs] == ["FLOAT", "FLOAT16", "INT32", "INT64", "UINT8", "BOOL", "STRING"]
    assert all(o["shape"] == [3, 2] for o in r.outputs)
    assert len(r.run_times) == 2 and r.session_create_s is not None and r.median_run_s is not None
    # Outputs equal the generated inputs, so their digests equal the digests of the saved arrays.
    for o in r.outputs:
        saved = np.load(r.saved_outputs[o["name"]], allow_pickle=False)
        assert digest(saved.astype(object) if saved.dtype.kind == "U" else saved) == o["sha256"]
    assert r.recipe["dims"] == {"batch": 3}
    assert {e["source"] for e in r.recipe["inputs"].values()} == {"generated"}
    d = r.to_dict()
    assert d["schema"] == "onnxpack.smoke/1" and d["ok"] is True


def test_scalar_value_optional_and_default_inputs(tmp_path: Path, inprocess: None) -> None:
    opt = helper.make_optional_type_proto(helper.make_tensor_type_proto(TensorProto.FLOAT, [2]))
    m = make(
        [
            helper.make_node("Mul", ["sr", "two"], ["sr2"]),
            helper.make_node("OptionalHasElement", ["maybe"], ["has"]),
            helper.make_node("Add", ["x", "w"], ["y"]),
        ],
        [V("sr", TensorProto.INT64, []), helper.make_value_info("maybe", opt), V("x", TensorProto.FLOAT, [2]),
         V("w", TensorProto.FLOAT, [2])],
        [V("sr2", TensorProto.INT64, []), V("has", TensorProto.BOOL, []), V("y", TensorProto.FLOAT, [2])],
        tmp_path / "opt.onnx",
        inits=[numpy_helper.from_array(np.array(2, np.int64), "two"),
               numpy_helper.from_array(np.array([100, 100], np.float32), "w")],
        opset=18,
    )
    r = smoke_test(m, options=SmokeOptions(inputs={"sr": "16000"}, runs=1), save_outputs_to=tmp_path / "o")
    assert r.ok, r.findings
    assert int(np.load(r.saved_outputs["sr2"])) == 32000
    assert bool(np.load(r.saved_outputs["has"])) is False
    assert np.load(r.saved_outputs["y"]).min() > 90  # the default w = 100 was used
    codes = {f.code for f in r.findings}
    assert {"SMOKE_INPUT_OMITTED", "SMOKE_INPUT_DEFAULT"} <= codes
    assert r.recipe["inputs"]["sr"]["source"] == "value"
    assert r.recipe["inputs"]["maybe"]["source"] == "omitted"
    assert r.recipe["inputs"]["w"]["source"] == "initializer"


def _reflect_pad(path: Path) -> Path:
    return make(
        [helper.make_node("Pad", ["x", "pads"], ["y"], mode="reflect")],
        [V("x", TensorProto.FLOAT, ["batch", "frames"])],
        [V("y", TensorProto.FLOAT, None)],
        path,
        inits=[numpy_helper.from_array(np.array([0, 4, 0, 4], np.int64), "pads")],
    )


def test_size_search_finds_working_dims(tmp_path: Path, inprocess: None) -> None:
    r = smoke_test(_reflect_pad(tmp_path / "pad.onnx"), options=SmokeOptions(runs=1))
    assert r.ok
    assert r.search["found"] == {"frames": 8, "batch": 1}  # batch-like dims stay 1 in the first pass
    assert r.recipe["dims"] == {"batch": 1, "frames": 8}
    assert r.recipe["dim_sources"]["frames"] == "search"
    f = next(f for f in r.findings if f.code == "SMOKE_DIMS_SEARCHED")
    assert "Pad" in f.message and "--dim frames=8" in f.hint
    assert r.outputs[0]["shape"] == [1, 16]
    # Repeating the recorded recipe needs no search.
    again = smoke_test(tmp_path / "pad.onnx", options=SmokeOptions.from_recipe(r.recipe))
    assert again.ok and not again.search["attempts"]
    assert again.outputs[0]["sha256"] == r.outputs[0]["sha256"]


def test_failed_run_reports_message_inputs_and_flags(tmp_path: Path, inprocess: None) -> None:
    r = smoke_test(_reflect_pad(tmp_path / "pad.onnx"), options=SmokeOptions(search=False, runs=1))
    assert not r.ok
    f = next(f for f in r.findings if f.code == "SMOKE_RUN_FAILED")
    assert "Pad reflect" in f.message and "x float32[1,1]" in f.message and "frames=1" in f.message
    assert "--dim frames=512" in f.hint and "--no-search" in f.hint
    assert r.error and "Pad" in r.error

    # A model that needs a real value: Reshape by a generated shape input fails for every size.
    m = make(
        [helper.make_node("Reshape", ["x", "shape"], ["y"])],
        [V("x", TensorProto.FLOAT, [3, 5]), V("shape", TensorProto.INT64, [2])],
        [V("y", TensorProto.FLOAT, None)],
        tmp_path / "reshape.onnx",
    )
    r = smoke_test(m, options=SmokeOptions(runs=1))
    assert not r.ok and r.search["attempts"] == []  # no symbolic dims: nothing to search
    f = next(f for f in r.findings if f.code == "SMOKE_RUN_FAILED")
    assert "shape int64[2]" in f.message
    assert "--input NAME=FILE.npy" in f.hint


def test_model_ort_cannot_load(tmp_path: Path, inprocess: None) -> None:
    m = make([helper.make_node("Frobnicate", ["x"], ["y"], domain="com.acme")], [V("x", TensorProto.FLOAT, [1])],
             [V("y", TensorProto.FLOAT, [1])], tmp_path / "custom.onnx",
             extra_opsets=[helper.make_opsetid("com.acme", 1)])
    with pytest.raises(RuntimeFailure) as e:
        smoke_test(m)
    assert e.value.code == "ORT_LOAD"
    assert "Frobnicate" in e.value.message and "com.acme" in (e.value.hint or "")
    assert "custom-op" in (e.value.hint or "")


def test_non_finite_and_constant_outputs(tmp_path: Path, inprocess: None) -> None:
    m = make(  # log(-|x|): NaN or -Inf whatever the inputs (issue 41: other inputs are tried first)
        [helper.make_node("Abs", ["x"], ["abs"]), helper.make_node("Neg", ["abs"], ["neg"]),
         helper.make_node("Log", ["neg"], ["log"]), helper.make_node("Mul", ["x", "zero"], ["zeros"])],
        [V("x", TensorProto.FLOAT, [64])],
        [V("log", TensorProto.FLOAT, [64]), V("zeros", TensorProto.FLOAT, [64])],
        tmp_path / "nan.onnx",
        inits=[numpy_helper.from_array(np.array([0.0], np.float32), "zero")],
    )
    r = smoke_test(m, options=SmokeOptions(runs=1))
    assert r.ok  # warnings/info do not fail the run
    by = {f.code: f for f in r.findings}
    assert by["SMOKE_NON_FINITE"].subject == "log"
    assert by["SMOKE_CONSTANT_OUTPUT"].subject == "zeros"
    log = r.outputs[0]
    assert log["finite"] is False and log["nan_count"] > 0


def test_external_data_is_fed_from_validated_bytes_and_merge_is_bitwise_equal(tmp_path: Path, inprocess: None) -> None:
    ext = factory.external_model(tmp_path / "ext")
    before = factory.snapshot(tmp_path / "ext")
    single = tmp_path / "single" / "model.onnx"
    single.parent.mkdir()
    onnx.save(factory.add_model(), str(single))
    c = compare_models(ext, single, options=SmokeOptions(runs=1))
    assert c.ok and c.bitwise_equal, c.findings
    assert "in-memory initializer" in c.original.load
    from onnxpack.core.model.merge.merge import merge_model

    merged = tmp_path / "merged" / "model.onnx"
    merged.parent.mkdir()
    merge_model(ext, merged)
    c2 = compare_models(ext, merged, options=SmokeOptions(runs=1))
    assert c2.ok and c2.bitwise_equal
    assert c2.outputs[0]["max_abs"] == 0.0
    assert factory.snapshot(tmp_path / "ext") == before


def test_subgraph_external_tensor_is_inlined(tmp_path: Path, inprocess: None) -> None:
    w = numpy_helper.from_array(np.arange(16, dtype=np.float32), "w_sub")
    then = helper.make_graph([helper.make_node("Add", ["x", "w_sub"], ["t"])], "then", [],
                             [V("t", TensorProto.FLOAT, [16])], initializer=[w])
    other = helper.make_graph([helper.make_node("Identity", ["x"], ["e"])], "else", [],
                              [V("e", TensorProto.FLOAT, [16])])
    graph = helper.make_graph([helper.make_node("If", ["c"], ["y"], then_branch=then, else_branch=other)], "g",
                              [V("c", TensorProto.BOOL, []), V("x", TensorProto.FLOAT, [16])],
                              [V("y", TensorProto.FLOAT, [16])])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    path = factory.save_with_external(model, tmp_path / "if" / "m.onnx")
    r = smoke_test(path, options=SmokeOptions(inputs={"c": "1"}, runs=1))
    assert r.ok and "1 inlined" in r.load


def test_bad_external_data_is_refused_before_any_run(tmp_path: Path) -> None:
    ext = factory.external_model(tmp_path / "ext")
    (ext.parent / "model.onnx.data").unlink()
    with pytest.raises(ExternalDataError):
        smoke_test(ext)


def test_compare_reports_differences_and_tolerance(tmp_path: Path, inprocess: None) -> None:
    a = tmp_path / "a.onnx"
    onnx.save(factory.add_model(), str(a))
    m = factory.add_model()
    w2 = numpy_helper.to_array(m.graph.initializer[1]) * np.float32(1.0001)
    m.graph.initializer[1].CopyFrom(numpy_helper.from_array(w2.astype(np.float32), "W2"))
    b = tmp_path / "b.onnx"
    onnx.save(m, str(b))
    c = compare_models(a, b, options=SmokeOptions(runs=1))
    assert not c.ok and not c.bitwise_equal
    row = c.outputs[0]
    assert row["max_abs"] > 0 and 5e-5 < row["max_rel"] < 1e-2 and row["mismatched"] > 0
    assert any(f.code == "COMPARE_MISMATCH" for f in c.findings)
    loose = compare_models(a, b, options=SmokeOptions(runs=1, atol=1e-3, rtol=1e-3))
    assert loose.ok and not loose.bitwise_equal
    assert any(f.code == "COMPARE_NOT_BITWISE" for f in loose.findings)
    assert loose.to_dict()["compare"]["outputs"][0]["within_tolerance"] is True


def test_compare_values_semantics() -> None:
    a = np.array([1.0, np.nan, np.inf, 0.0], np.float32)
    assert compare_values("y", a, a.copy(), 0, 0)["bitwise_equal"]
    b = np.array([1.5, np.nan, np.inf, 0.0], np.float32)
    r = compare_values("y", a, b, 0, 0)
    assert (r["max_abs"], r["max_rel"], r["mismatched"]) == (0.5, 0.5, 1)
    r = compare_values("y", a, np.array([1.0, 2.0, np.inf, 0.0], np.float32), 1, 1)
    assert not r["within_tolerance"] and r["problem"]
    assert compare_values("y", a, a.reshape(2, 2), 0, 0)["problem"].startswith("shape")
    s = np.array(["a", "b"], dtype=object)
    assert compare_values("s", s, s.copy(), 0, 0)["bitwise_equal"]


def test_inputs_from_files_are_recorded_with_digests(tmp_path: Path, inprocess: None) -> None:
    m = make([helper.make_node("Add", ["a", "b"], ["t"]), helper.make_node("Add", ["t", "c"], ["y"])],
             [V(n, TensorProto.FLOAT, ["n"]) for n in "abc"], [V("y", TensorProto.FLOAT, ["n"])], tmp_path / "m.onnx")
    np.save(tmp_path / "a.npy", np.ones(4, np.float32))
    np.savez(tmp_path / "b.npz", b=np.full(4, 2, np.float32))
    (tmp_path / "c.pb").write_bytes(numpy_helper.from_array(np.full(4, 3, np.float32)).SerializeToString())
    opts = SmokeOptions(inputs={"a": "a.npy", "b": "b.npz:b", "c": "c.pb"}, base_dir=tmp_path, runs=1)
    r = smoke_test(m, options=opts, save_outputs_to=tmp_path / "out")
    assert r.ok
    np.testing.assert_array_equal(np.load(r.saved_outputs["y"]), np.full(4, 6, np.float32))
    rec = r.recipe["inputs"]
    assert [rec[n]["format"] for n in "abc"] == ["npy", "npz", "pb"]
    assert all(len(rec[n]["sha256"]) == 64 for n in "abc")
    assert r.recipe["dims"] == {"n": 4} and r.recipe["dim_sources"]["n"] == "input:a"
    # A recorded recipe refuses a changed input file.
    again = SmokeOptions.from_recipe(r.recipe, tmp_path)
    np.save(tmp_path / "a.npy", np.zeros(4, np.float32))
    with pytest.raises(Exception, match="SHA-256"):
        smoke_test(m, options=again)


def test_save_outputs_names_are_sanitized(tmp_path: Path) -> None:
    taken: set[str] = set()
    names = [safe_output_filename(n, taken) for n in ["../evil", "a/b", "CON", "logits", "LOGITS", "", "出力"]]
    assert names == ["_evil.npy", "a_b.npy", "_CON.npy", "logits.npy", "LOGITS_2.npy", "output.npy", "出力.npy"]
    out = tmp_path / "out"
    written = save_outputs({"../../x": np.zeros(2), "s": np.array(["a"], dtype=object)}, out)
    assert sorted(p.name for p in out.iterdir()) == ["_x.npy", "s.npy"]
    assert all(Path(p).parent == out for p in written.values())
    assert np.load(written["s"]).tolist() == ["a"]
    assert not (tmp_path / "x.npy").exists()


# ---------------------------------------------------------------- real child processes (isolation)


def test_real_child_runs_the_sample(sample_model: Path) -> None:
    before = factory.snapshot(sample_model.parent)
    events: list[Any] = []
    r = smoke_test(sample_model, options=SmokeOptions(runs=2), progress=events.append)
    assert r.ok and r.outputs[0]["shape"] == [1, 3] and r.outputs[0]["finite"]
    assert events and all(e.stage == "smoke" for e in events)
    assert factory.snapshot(sample_model.parent) == before


def test_native_crash_in_the_child_becomes_runtime_failure(sample_model: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(smoke_mod, "_TEST_HOOK", {"action": "segfault", "when": "session"})
    with pytest.raises(RuntimeFailure) as e:
        smoke_test(sample_model)
    assert e.value.code == "SMOKE_CRASH"
    assert "SIGSEGV" in e.value.message or "access violation" in e.value.message
    assert "onnxpack itself is unaffected" in e.value.message


def _slow_model(path: Path) -> Path:
    body = helper.make_graph(
        [helper.make_node("Identity", ["cond"], ["cond_out"]), helper.make_node("Add", ["v", "one"], ["v_out"])],
        "body",
        [V("i", TensorProto.INT64, []), V("cond", TensorProto.BOOL, []), V("v", TensorProto.FLOAT, [1])],
        [V("cond_out", TensorProto.BOOL, []), V("v_out", TensorProto.FLOAT, [1])],
    )
    return make(
        [helper.make_node("Loop", ["trips", "true", "x"], ["y"], body=body)],
        [V("x", TensorProto.FLOAT, [1])],
        [V("y", TensorProto.FLOAT, [1])],
        path,
        inits=[numpy_helper.from_array(np.array(10**12, np.int64), "trips"),
               numpy_helper.from_array(np.array(True), "true"),
               numpy_helper.from_array(np.array([1.0], np.float32), "one")],
    )


def test_time_out_stops_the_child(tmp_path: Path) -> None:
    m = _slow_model(tmp_path / "slow.onnx")
    t0 = time.monotonic()
    with pytest.raises(RuntimeFailure) as e:
        smoke_test(m, options=SmokeOptions(timeout=2.0, runs=1))
    assert time.monotonic() - t0 < 8
    assert e.value.code == "SMOKE_TIMEOUT" and "--timeout" in (e.value.hint or "")
    assert "running slow.onnx" in e.value.message


def test_cancel_kills_the_child(tmp_path: Path) -> None:
    m = _slow_model(tmp_path / "slow.onnx")
    token = CancelToken()
    timer = threading.Timer(1.5, token.cancel)
    timer.start()
    t0 = time.monotonic()
    try:
        with pytest.raises(Cancelled):
            smoke_test(m, options=SmokeOptions(timeout=60, runs=1), cancel=token)
    finally:
        timer.cancel()
    assert time.monotonic() - t0 < 8


# --------------------------------------------------------------------------- the child started ahead of its job


def _gone(pid: int) -> bool:
    """True once ``pid`` has exited (reaped, or a zombie whose parent is gone)."""
    try:
        with open(f"/proc/{pid}/status") as f:
            return any(line.startswith("State:") and "Z" in line.split()[1] for line in f)
    except FileNotFoundError:
        return True


def test_child_starts_before_validation_and_is_stopped_on_bad_input(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """The child imports ORT while the parent validates; a model that fails validation stops it."""
    import multiprocessing

    order: list[str] = []
    real_start, real_prepare = smoke_mod.start_child, smoke_mod._prepare_model
    started: list[Any] = []

    def start(target: Any) -> Any:
        order.append("child started")
        started.append(real_start(target))
        return started[-1]

    def prepare(*a: Any, **kw: Any) -> Any:
        order.append("validation")
        return real_prepare(*a, **kw)

    monkeypatch.setattr(smoke_mod, "start_child", start)
    monkeypatch.setattr(smoke_mod, "_prepare_model", prepare)
    bad = tmp_path / "broken.onnx"
    bad.write_bytes(b"\x08\x07\x12\xff\xff\xff")
    with pytest.raises(smoke_mod.ModelFormatError):
        smoke_test(bad)
    assert order == ["child started", "validation"]
    assert started[0].proc is None  # stopped and released
    assert multiprocessing.active_children() == []


def test_child_given_its_job_late_runs_it(sample_model: Path) -> None:
    res = smoke_test(sample_model, options=SmokeOptions(runs=1))
    assert res.ok and res.outputs
    again = smoke_test(sample_model, options=SmokeOptions(runs=1))
    assert [o["sha256"] for o in again.outputs] == [o["sha256"] for o in res.outputs]


def test_waiting_child_exits_when_its_parent_dies(tmp_path: Path) -> None:
    import subprocess
    import sys

    if not Path("/proc/self/status").exists():
        pytest.skip("needs /proc to watch the orphaned child")  # pragma: no cover - Linux CI has /proc
    code = (
        "import os, sys\n"
        "from onnxpack.core.runtime.smoke import start_child\n"
        "from onnxpack.core.runtime.smoke_child import child_main\n"
        "if __name__ == '__main__':\n"
        "    c = start_child(child_main)\n"
        "    print(c.proc.pid, flush=True)\n"
        "    os._exit(0)  # dies without sending the job or stopping the child\n"
    )
    script = tmp_path / "parent.py"
    script.write_text(code)
    root = Path(__file__).resolve().parent.parent
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, cwd=root, timeout=60,
                         env={**__import__("os").environ, "PYTHONPATH": str(root)})
    pid = int(out.stdout.split()[0])
    deadline = time.monotonic() + 30
    while not _gone(pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _gone(pid)


def test_discard_is_idempotent_and_a_mismatched_child_is_replaced() -> None:
    from onnxpack.core.runtime.smoke_child import child_main

    child = smoke_mod.start_child(child_main)
    assert child is not None
    child.discard()
    child.discard()
    assert child.proc is None
    early = smoke_mod.ChildProcess(smoke_mod.target_name(_noop_target))
    assert smoke_mod.run_in_child(_noop_target, {}, timeout=60, what="noop", child=early) == {"ran": True}
    assert early.proc is None
    # A child prepared for another target is stopped; a new one runs the job.
    wrong = smoke_mod.ChildProcess(smoke_mod.target_name(child_main))
    assert smoke_mod.run_in_child(_noop_target, {}, timeout=60, what="noop", child=wrong) == {"ran": True}
    assert wrong.proc is None


def _noop_target(conn: Any, job: dict[str, Any]) -> None:
    conn.send(("result", {"ran": True}))


def test_the_smoke_stage_reports_at_once_that_it_is_starting(tmp_path):
    """Issue 14 item 8: the seconds ONNX Runtime takes to start are labelled, not a gap with no stage running."""
    from onnxpack.core.resources import SAMPLE_MODEL, resource_path
    from onnxpack.core.runtime.smoke import smoke_test

    events = []
    run = smoke_test(resource_path(*SAMPLE_MODEL), progress=events.append)
    assert run.ok
    smoke_events = [e for e in events if e.stage == "smoke"]
    assert smoke_events and "starting ONNX Runtime" in smoke_events[0].message


def test_an_inline_known_model_reaches_ort_unparsed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A file the parent wrote itself without external data (``inline``) goes to ONNX Runtime as its bytes; any other
    is parsed first, to find and validate its external data."""
    from onnxpack.core.model import modelfile
    from onnxpack.core.runtime import session

    path = tmp_path / "m.onnx"
    path.write_bytes(factory.add_model().SerializeToString())
    empty = tmp_path / "empty"
    empty.mkdir()
    spec = {"path": str(path), "data_dir": str(tmp_path), "kind": "onnx", "label": "m.onnx", "window": None}

    def no_parse(*_a: Any, **_k: Any) -> Any:
        raise AssertionError("parsed")

    monkeypatch.setattr(modelfile, "load_structure", no_parse)
    opened = session.open_session({**spec, "inline": True}, str(empty))
    assert opened.how == "model bytes" and [i.name for i in opened.session.get_inputs()] == ["X"]
    with pytest.raises(AssertionError, match="parsed"):
        session.open_session(spec, str(empty))


def test_a_known_model_is_not_read_again_in_the_parent(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """compare_models takes models its caller validated as they are (relative paths made absolute for the child)."""
    from onnxpack.core.model.modelfile import ModelLocation
    from onnxpack.core.runtime.smoke import KnownModel

    src = factory.external_model(tmp_path / "src")
    copy = tmp_path / "merged" / "m.onnx"
    copy.parent.mkdir()
    onnx.save(onnx.load(str(src)), str(copy))
    monkeypatch.chdir(tmp_path)

    def no_parse(*_a: Any, **_k: Any) -> Any:
        raise AssertionError("parsed in the parent")

    monkeypatch.setattr(smoke_mod, "load_structure", no_parse)
    original = KnownModel(ModelLocation(Path("src/model.onnx"), Path("src")), (src, src.parent / "model.onnx.data"))
    merged = KnownModel(ModelLocation(Path("merged/m.onnx"), Path("merged")), (copy,), inline=True)
    res = compare_models(original, merged)
    assert res.ok and res.bitwise_equal


def test_compare_runs_must_be_at_least_one() -> None:
    from onnxpack.core.errors import InputError

    with pytest.raises(InputError, match="compare_runs"):
        SmokeOptions(compare_runs=0).validate()
    SmokeOptions(compare_runs=1).validate()
    assert SmokeOptions(runs=5).to_job()["compare_runs"] == 5  # unset: the second model runs as often as the first
