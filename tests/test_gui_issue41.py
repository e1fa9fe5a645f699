"""Issue 41, the desktop app's items: a warning is never green (1), what runs during a long silent step (3), Esc
cancels the running row only (4), names and results that read whole or tell rows apart (5), External data counts
external tensors (6), Locate data file names the file the model wants (7), the same-file question names its rows
(8), and the smaller ones (9): the selection stays put, the Bundle tab's scroll, "being checked", stages "not run",
the per-row log, a verified bundle's labels and proven releases."""

from __future__ import annotations

import threading
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper
from PySide6.QtWidgets import QApplication

from onnxpack.core.findings import Finding
from onnxpack.core.progress import STEPS, ProgressEvent
from onnxpack.core.release.verify.verify_report import VerifyReport
from onnxpack.gui import i18n
from onnxpack.gui.model.runstate import STAGES
from onnxpack.gui.widgets.queue_view import display_names, distinct_elide
from onnxpack.gui.widgets.run_panel import RunPanel
from onnxpack.gui.worker import Job
from tests import factory
from tests.gui_helpers import close_dialogs, make_window, wait_idle, wait_state


def _model(folder: Path, name: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.onnx"
    onnx.save(factory.add_model(), str(path))
    return path


def _nan_model(folder: Path, name: str = "nanmodel") -> Path:
    """Y = X + W with W all NaN: every output of every smoke run is NaN (SMOKE_NON_FINITE, a warning)."""
    folder.mkdir(parents=True, exist_ok=True)
    w = numpy_helper.from_array(np.full(8, np.nan, dtype=np.float32), "W")
    graph = helper.make_graph([helper.make_node("Add", ["X", "W"], ["Y"])], "g",
                              [helper.make_tensor_value_info("X", TensorProto.FLOAT, [1, 8])],
                              [helper.make_tensor_value_info("Y", TensorProto.FLOAT, [1, 8])], initializer=[w])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    path = folder / f"{name}.onnx"
    onnx.save(model, str(path))
    return path


def _hold(queue) -> threading.Event:
    """Occupy ``queue``'s one thread until the returned event is set."""
    gate = threading.Event()
    queue.submit(Job(lambda progress, cancel: gate.wait(60), kind="hold"))
    return gate


def _findings_texts(w) -> str:
    t = w.model_panel.findings
    return "\n".join(t.cell_text(r, c) for r in range(t.rowCount()) for c in range(t.columnCount()))


# --- item 1 ------------------------------------------------------------------------------------------------------
def test_an_all_nan_smoke_run_is_a_warning_everywhere_never_green(qtbot, tmp_path):
    w = make_window(qtbot, tmp_path)
    (item,) = w.open_paths([_nan_model(tmp_path / "m")])
    wait_idle(qtbot, w)
    assert w.start_bundles() == [item]
    wait_state(qtbot, item, ("done", "failed"), timeout=120_000)
    assert item.state == "done", item.error
    assert [f.code for f in item.warnings] == ["SMOKE_NON_FINITE"]
    # the row
    assert w.queue.status_text(item) == "Bundled, 1 warning"
    assert w.queue.item(0, 2).text() == "Bundled, 1 warning"
    # the Result tab: not "passed" beside a tick; the warning beside the proof, with how to fix it
    w.queue.select(item)
    result = w.result_panel
    assert "warning" in result.status.plain_text()
    assert "passed" not in result.proof.plain_text() and "warning" in result.proof.plain_text()
    assert not result.warnings.isHidden()
    assert "SMOKE_NON_FINITE" in result.warnings.plain_text() and "NaN" in result.warnings.plain_text()
    assert "How to fix" in result.warnings.plain_text()
    # the Findings, the Model tab's status, the log, the status bar
    assert "SMOKE_NON_FINITE" in _findings_texts(w)
    assert "Bundled, with 1 warning" in w.model_panel.status.plain_text()
    assert "Warning SMOKE_NON_FINITE" in w.log.plain_text()
    assert "1 row with warnings" in w.status_label.text()
    # in Japanese
    try:
        i18n.install_translators(QApplication.instance(), "ja")
        QApplication.processEvents()
        w.render_selected()
        assert w.queue.status_text(item) != "Bundled, 1 warning" and "警告" in w.queue.status_text(item)
        assert "警告" in result.status.plain_text() and "警告" in result.proof.plain_text()
        assert "SMOKE_NON_FINITE" in result.warnings.plain_text() and "警告" in result.warnings.plain_text()
        assert "警告" in w.status_label.text()
    finally:
        i18n.install_translators(QApplication.instance(), "en")
    # the bundle opened later: verified, with the warning it recorded, not a green "Verified"
    (bundle,) = w.open_paths([item.result.zip_path])
    wait_state(qtbot, bundle, ("verified", "verify_failed", "failed"))
    assert bundle.state == "verified" and [f.code for f in bundle.warnings] == ["SMOKE_NON_FINITE"]
    assert w.queue.status_text(bundle) == "Verified, 1 warning"
    assert "with 1 warning" in w.model_panel.status.plain_text()
    assert "SMOKE_NON_FINITE" in _findings_texts(w)


def test_a_clean_bundle_has_no_warnings(qtbot, tmp_path):
    w = make_window(qtbot, tmp_path)
    (item,) = w.open_paths([_model(tmp_path / "m", "alpha")])
    wait_idle(qtbot, w)
    w.start_bundles()
    wait_state(qtbot, item, ("done", "failed"), timeout=120_000)
    assert item.state == "done" and item.warnings == []
    assert w.queue.status_text(item) == "Bundled"
    assert w.result_panel.warnings.isHidden() and "passed" in w.result_panel.proof.plain_text()
    # item 5: the Result column names the ZIP, its folder in the tooltip
    assert w.queue.item(0, 3).text() == item.result.zip_path.name
    assert str(item.result.zip_path.parent) in w.queue.item(0, 3).toolTip()


# --- item 3 ------------------------------------------------------------------------------------------------------
def test_a_long_silent_step_says_what_runs_and_for_how_long(qtbot):
    panel = RunPanel()
    qtbot.addWidget(panel)
    run = panel.start("t5 1.0.0")
    panel.on_progress(ProgressEvent("validate", 1, 4, "structure", STEPS))
    panel.on_progress(ProgressEvent("prove", 0, 0, "installing onnxruntime 1.18.1 and numpy 1.26.4", STEPS))
    header = panel.header.plain_text()
    assert "Prove on releases" in header and "installing onnxruntime 1.18.1 and numpy 1.26.4" in header
    assert "no news" not in header
    text = panel.now_text(run, now=run.last_at + 70)
    assert "Prove on releases" in text and "no news for 1 min 10 s" in text
    assert panel.ticker.isActive()
    panel.finish("done")
    assert not panel.ticker.isActive()


# --- item 4 ------------------------------------------------------------------------------------------------------
def test_esc_cancels_the_running_row_and_leaves_the_queued_ones(qtbot, tmp_path):
    w = make_window(qtbot, tmp_path)
    a, b = _model(tmp_path / "m", "alpha"), _model(tmp_path / "m", "bravo")
    items = w.open_paths([a, b])
    wait_idle(qtbot, w)
    hold = _hold(w.bundle_queue)
    assert w.start_bundles(all_ready=True) == items
    assert w.act_cancel.shortcut().toString() == "Esc" and w.act_cancel_all.shortcut().toString() == "Shift+Esc"
    assert w.running_bundle() is items[0]
    w.act_cancel.trigger()
    hold.set()
    wait_state(qtbot, items[0], ("cancelled",), timeout=60_000)
    wait_state(qtbot, items[1], ("done", "failed"), timeout=120_000)
    assert items[1].state == "done"  # the queued row was left to run


def test_cancel_all_bundles_cancels_every_row(qtbot, tmp_path):
    w = make_window(qtbot, tmp_path)
    items = w.open_paths([_model(tmp_path / "m", "alpha"), _model(tmp_path / "m", "bravo")])
    wait_idle(qtbot, w)
    hold = _hold(w.bundle_queue)
    w.start_bundles(all_ready=True)
    w.act_cancel_all.trigger()
    hold.set()
    for item in items:
        wait_state(qtbot, item, ("cancelled",), timeout=60_000)


# --- item 5 ------------------------------------------------------------------------------------------------------
def test_names_cut_to_fit_keep_what_tells_the_rows_apart():
    names = ["decoder_model.onnx", "decoder_with_past_model.onnx", "encoder_model.onnx"]
    shown = [distinct_elide(n, [o for o in names if o != n], 16, len) for n in names]
    assert len(set(shown)) == 3 and all(len(s) <= 16 for s in shown)
    assert "with_past" in shown[1]
    assert distinct_elide("short.onnx", ["other.onnx"], 16, len) == "short.onnx"
    assert display_names([Path("/x/encoder/model.onnx"), Path("/x/decoder/model.onnx"), Path("/x/a.onnx")]) == [
        "encoder/model.onnx", "decoder/model.onnx", "a.onnx"]


def test_the_findings_how_to_fix_column_is_in_view_and_wraps(qtbot, tmp_path):
    w = make_window(qtbot, tmp_path)
    w.resize(1024, 700)
    folder = tmp_path / "broken"
    model = factory.external_model(folder)
    (folder / "model.onnx.data").unlink()  # EXTDATA_MISSING: an error with a long hint
    w.open_paths([model])
    wait_idle(qtbot, w)
    w.model_panel.tabs.setCurrentIndex(2)
    table = w.model_panel.findings
    qtbot.waitUntil(lambda: table.isVisible())
    right = table.columnViewportPosition(3) + table.columnWidth(3)
    assert right <= table.viewport().width()
    hint_row = next(r for r in range(table.rowCount()) if "Locate data file" in table.cell_text(r, 3))
    assert table.rowHeight(hint_row) > table.fontMetrics().height() * 1.5  # wrapped onto more lines


# --- items 6 and 7 -----------------------------------------------------------------------------------------------
def test_external_data_counts_external_tensors_and_locate_names_the_wanted_file(qtbot, tmp_path, sample_model):
    w = make_window(qtbot, tmp_path)
    single = tmp_path / "single" / "inline.onnx"
    single.parent.mkdir()
    onnx.save(factory.add_model(), str(single))
    folder = tmp_path / "ext"
    ext = factory.external_model(folder)
    inline, external = w.open_paths([single, ext])
    wait_idle(qtbot, w)
    w.queue.select(inline)
    assert w.model_panel.tabs.tabText(3) == "External data (0)"
    w.queue.select(external)
    assert w.model_panel.tabs.tabText(3) == "External data (2)"
    # the data file renamed: Locate data file… names the file the model wants
    (folder / "model.onnx.data").rename(folder / "weights.bin")
    w.open_paths([ext])
    wait_idle(qtbot, w)
    assert external.state == "invalid"
    assert w.referenced_data_files(external) == ["model.onnx.data"]
    title, filters = w.data_file_prompt(external)
    assert "model.onnx.data" in title and "model.onnx.data" in filters
    assert not w.data_file_chosen(external, folder / "weights.bin")
    qtbot.waitUntil(lambda: w.last_error is not None)
    assert "model.onnx.data" in w.last_error.text() and "weights.bin" in w.last_error.text()
    assert "model.onnx.data" in w.last_error.informativeText()
    close_dialogs(w)


# --- item 8 ------------------------------------------------------------------------------------------------------
def test_two_rows_writing_one_file_are_named(qtbot, tmp_path):
    w = make_window(qtbot, tmp_path)
    items = w.open_paths([_model(tmp_path / "a", "model"), _model(tmp_path / "b", "model")])
    wait_idle(qtbot, w)
    assert [w.queue.item(r, 0).text() for r in range(2)] == ["a/model.onnx", "b/model.onnx"]
    assert w.start_bundles(all_ready=True) == []
    qtbot.waitUntil(lambda: w.last_error is not None)
    box = w.last_error
    assert "a/model.onnx" in box.text() and "b/model.onnx" in box.text() and "model-1.0.0.zip" in box.text()
    details = box.detailedText()
    assert all(str(i.path) in details for i in items) and "Error code: INPUT" not in details
    close_dialogs(w)


# --- item 9 ------------------------------------------------------------------------------------------------------
def test_the_selection_stays_where_the_user_put_it_during_a_batch(qtbot, tmp_path):
    w = make_window(qtbot, tmp_path)
    items = w.open_paths([_model(tmp_path / "m", n) for n in ("alpha", "bravo", "charlie")])
    wait_idle(qtbot, w)
    w.queue.select(items[0])
    w.start_bundles(all_ready=True)
    for item in items:
        wait_state(qtbot, item, ("done", "failed"), timeout=120_000)
    assert w.model.selected is items[0] and w.queue.selected() is items[0]


def test_status_bar_counts_rows_being_checked_and_a_never_bundled_row_has_run_nothing(qtbot, tmp_path):
    w = make_window(qtbot, tmp_path)
    hold = _hold(w.inspect_queue)
    items = w.open_paths([_model(tmp_path / "m", n) for n in ("alpha", "bravo", "charlie")])
    assert "3 rows being checked" in w.status_label.text()
    try:
        i18n.install_translators(QApplication.instance(), "ja")
        QApplication.processEvents()
        assert "3" in w.status_label.text() and "確認中" in w.status_label.text()
    finally:
        i18n.install_translators(QApplication.instance(), "en")
    hold.set()
    wait_idle(qtbot, w)
    assert "being checked" not in w.status_label.text()
    w.queue.select(items[1])
    assert all(w.run_panel.stage_state(s) == "not run" for s in STAGES)
    assert "No bundle has run for this row" in w.run_panel.header.plain_text()


def test_the_bundle_tab_starts_at_its_top_for_another_row_and_the_log_can_show_one_row(qtbot, tmp_path):
    w = make_window(qtbot, tmp_path)
    w.resize(700, 450)
    a, b = w.open_paths([_model(tmp_path / "m", "alpha"), _model(tmp_path / "m", "bravo")])
    wait_idle(qtbot, w)
    w.queue.select(a)
    w.tabs.setCurrentIndex(1)
    bar = w.bundle_panel.form_scroll.verticalScrollBar()
    qtbot.waitUntil(lambda: bar.maximum() > 0)
    bar.setValue(bar.maximum())
    w.queue.select(b)
    assert bar.value() == 0
    # the log: the selected row's lines alone
    w.log.only_row.setChecked(True)
    assert "bravo" in w.log.plain_text() and "alpha" not in w.log.plain_text()
    w.queue.select(a)
    assert "alpha" in w.log.plain_text() and "bravo" not in w.log.plain_text()
    w.log.only_row.setChecked(False)
    assert "alpha" in w.log.plain_text() and "bravo" in w.log.plain_text()


def test_a_verified_bundle_shows_its_labels_release_and_proven_releases(qtbot, tmp_path):
    w = make_window(qtbot, tmp_path)
    manifest = {
        "model": {"name": "victory", "version": "1.2.0"},
        "files": [],
        "about": {"license": "MIT", "authors": ["A. Author"], "homepage": "https://example.org",
                  "labels": ["cat", "dog"]},
        "prove_ort": {"releases": [{"version": "1.18.1", "loaded": True, "outputs_bitwise_equal": True, "ok": True},
                                   {"version": "1.22.0", "loaded": True, "ok": True}]},
        "findings": [Finding.warning("SMOKE_NON_FINITE", "victory.onnx: output Y has 8 NaN", "Check it.",
                                     "Y").to_dict()],
    }
    report = VerifyReport(tmp_path / "victory-1.2.0.zip", manifest=manifest)
    w.model_panel.show_verify(report, False, [Finding.warning("SMOKE_NON_FINITE", "victory.onnx: output Y has 8 NaN",
                                                              "Check it.", "Y")])
    facts = w.model_panel.facts
    assert facts.value("Labels") == "2 labels: cat, dog"
    assert facts.value("License") == "MIT" and facts.value("Authors") == "A. Author"
    assert facts.value("Proven on ONNX Runtime") == "1.18.1 (bitwise equal), 1.22.0 (equal within the tolerance)"
    assert "warning" in w.model_panel.status.plain_text()


@pytest.mark.parametrize("language", ["en", "ja"])
def test_new_words_are_translated(qtbot, tmp_path, language):
    w = make_window(qtbot, tmp_path)
    try:
        i18n.install_translators(QApplication.instance(), language)
        QApplication.processEvents()
        texts = [w.act_cancel_all.text(), w.log.only_row.text(), w.run_panel.header.plain_text()]
        english = ["Cancel all bundl&es", "Only the selected &row", "No bundle has run for this row."]
        if language == "en":
            assert texts == english
        else:
            assert all(t != e for t, e in zip(texts, english, strict=True)), texts
    finally:
        i18n.install_translators(QApplication.instance(), "en")
