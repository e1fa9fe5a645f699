"""A re-run that fails: the queue row, the status bar and the Progress tab show the latest run's failure, never the
earlier success (a row stayed "Bundled" after a failed re-run; stages never reached kept "waiting")."""

from __future__ import annotations

from pathlib import Path

import onnx

from onnxpack.core.progress import ProgressEvent
from onnxpack.gui.model.runstate import STAGES, RunState
from tests import factory
from tests.gui_helpers import close_dialogs, make_window, wait_idle, wait_state


def _model(folder: Path, name: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.onnx"
    onnx.save(factory.add_model(), str(path))
    return path


def test_a_failed_rerun_shows_failed_not_bundled(qtbot, tmp_path):
    w = make_window(qtbot, tmp_path)
    (item,) = w.open_paths([_model(tmp_path / "m", "alpha")])
    wait_idle(qtbot, w)
    assert w.start_bundles() == [item]
    wait_state(qtbot, item, ("done", "failed"), timeout=120_000)
    assert item.state == "done" and w.model.counts()["bundled"] == 1
    earlier = item.result
    # the same row again, with a smoke input that does not exist: the run fails
    w.bundle_panel.force.setChecked(True)
    w.bundle_panel.inputs.item(0, 1).setText(str(tmp_path / "missing.npy"))
    assert w.start_bundles() == [item]
    wait_state(qtbot, item, ("done", "failed", "cancelled"), timeout=120_000)
    qtbot.waitUntil(lambda: w.last_error is not None and w.last_error.isVisible(), timeout=10_000)
    close_dialogs(w)
    assert item.state == "failed" and item.error is not None
    assert w.queue.state_text(item.state) == "Failed"
    assert w.queue.result_text(item) != str(earlier.zip_path)  # the row says what went wrong
    assert w.model.counts()["bundled"] == 0
    assert "0 bundled" in w.status_label.text()
    assert item.last_success is earlier  # the earlier ZIP is still named
    w.queue.select(item)
    w.render_selected()
    assert str(earlier.zip_path) in w.result_panel.status.plain_text()
    assert "failed" in w.result_panel.status.plain_text()
    assert all(w.run_panel.stage_state(s) != "waiting" for s in STAGES)


def test_stages_a_failed_or_cancelled_run_never_reached_are_not_waiting():
    for outcome in ("failed", "cancelled"):
        run = RunState.begin("m 1.0.0", skipped=["ort"], clock=lambda: 0.0)
        run.apply(ProgressEvent("inspect", 1, 1, "", "steps"))
        run.apply(ProgressEvent("validate", 0, 2, "", "steps"))
        run.finish(outcome, clock=lambda: 1.0)
        assert run.state["inspect"] == "done"
        assert run.state["ort"] == "skipped"
        assert run.state["zip"] == "not run" and run.state["merge"] == "not run"
        assert "waiting" not in run.state.values()
