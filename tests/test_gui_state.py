"""The desktop app's Qt-free state (gui/model/state.py): plain pytest, no QApplication."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import onnx
import pytest

from onnxpack.core.progress import STEPS, ProgressEvent
from onnxpack.gui.model.state import (
    BATCH_SETTINGS,
    FIXED_BY_LOWERING_IR,
    KINDS,
    ROW_SETTINGS,
    STAGES,
    IllegalTransition,
    ItemState,
    Kind,
    QueueModel,
    RunState,
    bundle_gate,
    fit_window,
)
from tests import factory

ROOT = Path(__file__).resolve().parent.parent


def test_the_state_model_imports_no_qt():
    code = ("import sys\nimport onnxpack.gui.model.state\n"
            "bad = [m for m in sys.modules if m.startswith(('PySide6', 'shiboken6'))]\nassert not bad, bad\n")
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr


def test_each_kind_is_described_once_in_the_dispatch_table():
    assert set(KINDS) == set(Kind)
    model, bundle = KINDS[Kind.MODEL], KINDS[Kind.BUNDLE]
    assert (model.opening_job, model.opening_state) == ("inspect", ItemState.INSPECTING)
    assert (bundle.opening_job, bundle.opening_state) == ("verify", ItemState.VERIFYING)
    assert model.bundles and model.locates_data and not model.verifies_with_smoke
    assert not bundle.bundles and not bundle.locates_data and bundle.verifies_with_smoke
    assert ItemState.DONE not in bundle.states and ItemState.VERIFIED not in model.states
    assert Kind("model") is Kind.MODEL and Kind.MODEL == "model"


def test_state_transitions_follow_the_rules(tmp_path):
    q = QueueModel()
    item = q.add(tmp_path / "a.onnx", "model")
    assert item.state is ItemState.INSPECTING and item.busy
    q.set_state(item, "inspecting")  # a row just added starts its job
    q.set_state(item, "ready")
    q.set_state(item, "queued")
    q.set_state(item, "running")
    with pytest.raises(IllegalTransition):
        q.set_state(item, "ready")  # a running bundle cannot become "ready" behind the engine's back
    q.set_state(item, "cancelling")
    q.set_state(item, "done")  # the engine finished before it saw the cancel
    q.set_state(item, "inspecting")  # an idle row may be opened again
    with pytest.raises(IllegalTransition):
        q.set_state(item, "verified")  # never a state of a model row
    with pytest.raises(ValueError):
        q.set_state(item, "bundeled")
    bundle = q.add(tmp_path / "b.zip", "bundle")
    with pytest.raises(IllegalTransition):
        q.set_state(bundle, "queued")  # a bundle is never bundled
    q.set_state(bundle, "verify_failed")
    q.set_state(bundle, "verifying")


def test_removing_the_selected_row_selects_the_one_that_takes_its_place(tmp_path):
    q = QueueModel()
    a, b, c = (q.add(tmp_path / f"{n}.onnx", "model") for n in "abc")
    q.select(b)
    assert q.remove(b) is c and q.selected is c
    assert q.remove(c) is a  # the last row: the one before it
    q.select(None)
    x = q.add(tmp_path / "x.onnx", "model")
    assert q.remove(x) is None and q.selected is None  # an unselected row leaves the selection as it was
    assert q.remove(a) is None and q.items == []


def test_row_and_batch_settings_are_disjoint_and_name_the_form():
    assert not set(ROW_SETTINGS) & set(BATCH_SETTINGS)
    assert {"name", "version", "previous", "labels", "dims", "inputs"} == set(ROW_SETTINGS)
    assert {"out_dir", "target_ort", "fix_ir", "force"} <= set(BATCH_SETTINGS)


def _bundled_row(q: QueueModel, out: Path, name: str, version: str = "1.0.0"):
    item = q.add(out / f"{name}.onnx", "model")
    item.draft.name, item.draft.version = name, version
    return item


def test_a_batch_plan_sets_aside_rows_bundled_already_and_refuses_others_zips(tmp_path):
    q = QueueModel()
    out = tmp_path / "out"
    out.mkdir()
    a, b, c, d = (_bundled_row(q, tmp_path, n) for n in ("a", "b", "c", "d"))
    (out / "a-1.0.0.zip").write_bytes(b"a")
    (out / "c-1.0.0.zip").write_bytes(b"c")
    a.result = SimpleNamespace(zip_path=out / "a-1.0.0.zip")  # a made its ZIP in this session
    d.draft.name = "b"  # d would write b's ZIP
    plan = q.plan([a, b, c, d], out, force=False, skip_bundled=True)
    assert [i for i, _ in plan.already_bundled] == [a]
    assert plan.items == [b, c, d]
    assert plan.exist == [out / "c-1.0.0.zip"]  # c's ZIP came from elsewhere: refused, not skipped
    assert plan.twice == [out / "b-1.0.0.zip"]
    # a new version of a is not "bundled already"; replacing runs everything
    a.draft.version = "1.1.0"
    assert q.plan([a], out, force=False, skip_bundled=True).items == [a]
    a.draft.version = "1.0.0"
    forced = q.plan([a, c], out, force=True, skip_bundled=True)
    assert forced.items == [a, c] and not forced.exist and not forced.already_bundled
    # Bundle (one row) never skips: the ZIP is there, so it is refused like any other
    one = q.plan([a], out, force=False, skip_bundled=False)
    assert one.items == [a] and one.exist == [out / "a-1.0.0.zip"]


def _validation(tmp_path: Path, name: str, ir: int, target: str | None):
    from onnxpack.core.checks.validate import validate_model

    path = tmp_path / f"{name}.onnx"
    model = factory.add_model()
    model.ir_version = ir
    onnx.save(model, str(path))
    return validate_model(path, target_ort=target)


@pytest.mark.parametrize(("ir", "target"), [(99, "1.16"), (99, None), (10, "1.16"), (10, None), (8, "1.16")])
def test_the_gate_is_the_engines_gate(tmp_path, ir, target):
    """Issue 30 item 6: the GUI enables Bundle exactly when the engine's gate (core.bundle._gate) would pass, with
    and without "Lower the IR version", and says lowering helps only when it does."""
    from onnxpack.core.errors import OnnxpackError
    from onnxpack.core.release.bundle import BundleOptions, _gate

    val = _validation(tmp_path, f"m{ir}", ir, target)
    for fix_ir in (False, True):
        try:
            _gate(val, BundleOptions(model=tmp_path / "x.onnx", out_dir=tmp_path, version="1.0.0", target_ort=target,
                                     fix_ir=fix_ir))
            engine_ok = True
        except OnnxpackError:
            engine_ok = False
        assert bundle_gate(val, fix_ir).ok == engine_ok, (ir, target, fix_ir)
    gate = bundle_gate(val, False)
    assert gate.lowering_helps == (not gate.ok and bundle_gate(val, True).ok)


def test_the_gate_follows_the_engine_when_only_retargeting_the_opset_helps(tmp_path):
    """IR 9 with opset 20 for ORT 1.16 (which reads IR 9, opset 19): lowering ir_version alone does nothing, but
    --fix-ir retargets the opset, so the engine bundles it with the box ticked; the GUI enables Bundle and says
    ticking the box helps (it said neither while it copied the engine's rule with ir_version alone)."""
    from onnxpack.core.checks.validate import FIXED_BY_RETARGET, validate_model
    from onnxpack.core.errors import OnnxpackError
    from onnxpack.core.release.bundle import BundleOptions, _gate
    from tests.test_retarget import ir10_model

    model = ir10_model()
    model.ir_version = 9
    for holder in [*model.graph.node, model.graph, *model.graph.value_info, *model.graph.input]:
        del holder.metadata_props[:]
    path = tmp_path / "opset20.onnx"
    onnx.save(model, str(path))
    val = validate_model(path, target_ort="1.16")
    assert val.target is not None and val.target.fix_by_lowering_ir is None and val.target.fixable
    for fix_ir in (False, True):
        try:
            _gate(val, BundleOptions(model=path, out_dir=tmp_path, version="1.0.0", target_ort="1.16", fix_ir=fix_ir))
            engine_ok = True
        except OnnxpackError:
            engine_ok = False
        assert bundle_gate(val, fix_ir).ok == engine_ok == fix_ir
    gate = bundle_gate(val, False)
    assert gate.lowering_helps and gate.lowering_possible
    assert FIXED_BY_LOWERING_IR == FIXED_BY_RETARGET


def test_an_ir_99_model_is_not_told_that_lowering_the_ir_helps(tmp_path):
    val = _validation(tmp_path, "ir99", 99, "1.16")
    gate = bundle_gate(val, True)
    assert not gate.ok and not gate.lowering_helps and gate.lowering_possible
    assert [f.code for f in gate.blocking] == ["VERSION_UNRELEASED"]
    fixable = bundle_gate(_validation(tmp_path, "ir10", 10, "1.16"), False)
    assert not fixable.ok and fixable.lowering_helps


def _ev(stage: str, done: int, total: int, unit: str = STEPS) -> ProgressEvent:
    return ProgressEvent(stage, done, total, "", unit)


def test_a_stage_the_pipeline_moved_past_is_not_shown_done():
    """Issue 30 item 5: the checker runs beside the merge: Validate stays running at its own amount (never
    "100 % — done" beside "0 of 4"), and after Cancel it is cancelled, not done."""
    run = RunState.begin("m 1.0.0", skipped=["ort"], clock=lambda: 0.0)
    assert run.state["ort"] == "skipped" and run.running
    run.apply(_ev("inspect", 1, 1))
    run.apply(_ev("validate", 0, 4))
    run.apply(_ev("merge", 10, 100, "bytes"))
    assert run.state["inspect"] == "done" and run.fraction("inspect") == 1.0
    assert run.state["validate"] == "running" and run.fraction("validate") == 0.0
    run.finish("cancelled", clock=lambda: 1.0)
    assert run.state["validate"] == "cancelled" and run.state["merge"] == "cancelled"
    assert run.fraction("validate") == 0.0 and run.state["inspect"] == "done"
    assert not run.running and run.outcome == "cancelled"


def test_a_failure_is_shown_at_its_stage():
    run = RunState.begin("m 1.0.0", clock=lambda: 0.0)
    run.apply(_ev("inspect", 1, 1))
    run.apply(_ev("validate", 0, 4))
    run.finish("failed", "zip", clock=lambda: 1.0)  # writing to a read-only folder: the ZIP stage, not Validate
    assert run.state["zip"] == "failed" and run.state["validate"] == "stopped" and run.state["inspect"] == "done"
    other = RunState.begin("m", clock=lambda: 0.0)
    other.apply(_ev("inspect", 1, 1))
    other.apply(_ev("merge", 5, 10, "bytes"))
    other.finish("failed", clock=lambda: 1.0)  # no stage named: the one reported last
    assert other.state["merge"] == "failed" and list(other.state.values()).count("failed") == 1
    done = RunState.begin("m", skipped=["smoke"], clock=lambda: 0.0)
    done.apply(_ev("validate", 3, 4))
    done.finish("done", clock=lambda: 1.0)
    assert done.state["validate"] == "done" and done.state["smoke"] == "skipped" and done.state["zip"] == "skipped"
    assert set(done.state) == set(STAGES)


@pytest.mark.parametrize(
    ("available", "frame"),
    [
        ((0, 0, 1024, 768), (0, 0, 0, 0)),
        ((0, 0, 1024, 740), (4, 24, 8, 28)),  # 1024×768 with a panel and a window frame
        ((0, 0, 512, 384), (0, 0, 0, 0)),  # 1024×768 at QT_SCALE_FACTOR=2
        ((0, 0, 700, 450), (2, 20, 4, 22)),  # 1400×900 at 2×
        ((1920, 0, 1920, 1080), (0, 0, 0, 0)),  # a second screen on the right
    ],
)
def test_the_window_fits_the_available_screen(available, frame):
    """Issue 30 item 7: whatever was saved or asked for, the window and its frame lie inside the available
    geometry, and its minimum size fits it too."""
    ax, ay, aw, ah = available
    left, top, extra_w, extra_h = frame
    for wanted in ((0, 0, 1100, 720), (3000, 2000, 2200, 1440), (-50, -50, 400, 300)):
        x, y, w, h, min_w, min_h = fit_window(wanted, available, frame)
        assert min_w <= w and min_h <= h
        assert x - left >= ax and y - top >= ay
        assert x - left + w + extra_w <= ax + aw and y - top + h + extra_h <= ay + ah
        assert min_w + extra_w <= aw and min_h + extra_h <= ah
    assert fit_window((10, 10, 800, 600), (0, 0, 1920, 1080))[:4] == (10, 10, 800, 600)  # room enough: unchanged


def test_rows_checked_for_another_target_are_stale(tmp_path):
    q = QueueModel()
    a, b, busy, bundle = (q.add(tmp_path / n, k) for n, k in (("a.onnx", "model"), ("b.onnx", "model"),
                                                              ("c.onnx", "model"), ("d.zip", "bundle")))
    for item in (a, b, busy, bundle):
        item.validation = object()  # read (the value is not looked at)
    q.set_state(a, "ready")
    q.set_state(b, "ready")
    q.set_state(bundle, "verified")
    a.inspected_target, b.inspected_target, busy.inspected_target = "1.16", None, None
    assert q.stale_for("1.16") == [b]  # a busy row waits; a bundle has no target
    assert q.stale_for(None) == [a]
