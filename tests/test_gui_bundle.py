"""GUI: bundling through the window — result verified, cancellation, batch queue, copy CLI, previous release."""

from __future__ import annotations

import json
import re
import threading
import zipfile
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication

from onnxpack.core.release.verify.verify import verify_bundle
from tests import factory
from tests.gui_helpers import close_dialogs, make_window, wait_state


def _inspected(qtbot, w, path: Path):
    (item,) = w.open_paths([path])
    wait_state(qtbot, item, ("ready", "invalid", "failed"))
    assert item.state == "ready", item.error
    return item


def test_full_bundle_through_the_gui_verifies(qtbot, tmp_path, sample_model):
    before = factory.snapshot(sample_model.parent)
    w = make_window(qtbot, tmp_path)
    item = _inspected(qtbot, w, sample_model)
    bp = w.bundle_panel
    bp.name.setText("victory")
    bp.version.setText("2.1.0")
    bp.set_dim("batch_size", 2)
    headers = []
    w.item_changed.connect(lambda it: headers.append((it.state, w.run_panel.stage_state("ort"),
                                                      w.run_panel.header.plain_text())))  # fmt: skip
    qtbot.mouseClick(bp.bundle_button, Qt.MouseButton.LeftButton)
    assert item.state in ("queued", "running")
    assert w.act_cancel.isEnabled()
    wait_state(qtbot, item, ("done", "failed", "cancelled"), timeout=120_000)
    # honest progress (issue 14 item 8): ORT format says "skipped" from the start when not chosen; no stale
    # details at the end; the header gives the time taken; log lines carry milliseconds
    assert ("running", "skipped") in [(state, ort) for state, ort, _h in headers]
    assert all(" · " not in w.run_panel.rows[stage][3].text() for stage in w.run_panel.rows)
    assert re.search(r"Finished: victory 2\.1\.0 in \d", w.run_panel.header.plain_text())
    assert re.search(r"^\[\d\d:\d\d:\d\d\.\d{3}\] ", w.log.plain_text(), flags=re.M)
    assert item.state == "done", item.error and item.error.message
    zip_path = Path(item.result.zip_path)
    assert zip_path == tmp_path / "out" / "victory-2.1.0.zip" and zip_path.is_file()
    # the progress view went through the pipeline's stages and ended finished
    assert [w.run_panel.stage_state(s) for s in ("inspect", "validate", "merge", "smoke", "zip")] == ["done"] * 5
    assert w.run_panel.stage_state("ort") == "skipped"
    assert "Finished" in w.run_panel.header.plain_text()
    assert not w.act_cancel.isEnabled() and w.bundle_panel.bundle_button.isEnabled()
    # the summary: files with sizes and hashes, smoke outputs, the equality proof
    rp = w.result_panel
    assert w.tabs.currentIndex() == 3
    assert str(zip_path) in rp.status.plain_text()
    names = [rp.files.cell_text(r, 0) for r in range(rp.files.rowCount())]
    assert "victory.onnx" in names
    assert all(len(rp.files.cell_text(r, 3)) == 64 for r in range(rp.files.rowCount()))
    assert rp.outputs.rowCount() == 1 and rp.outputs.cell_text(0, 0) == "output"
    assert rp.outputs.cell_text(0, 2) == "[2, 3]"  # the dim the user typed was used
    assert "bit-for-bit" in rp.proof.plain_text()
    # verify accepts it
    report = verify_bundle(zip_path)
    assert report.ok, [p.message for p in report.problems]
    # Copy CLI command and Open output folder
    rp.copy_button.click()
    command = QGuiApplication.clipboard().text()
    assert command.startswith("onnxpack bundle ") and "--version 2.1.0" in command
    assert "--dim batch_size=2" in command
    rp.open_button.click()
    assert [u.toLocalFile() for u in w.opened] == [str(tmp_path / "out")]
    assert factory.snapshot(sample_model.parent) == before
    # a dropped bundle is verified
    (bundle_item,) = w.open_paths([zip_path])
    assert bundle_item.kind == "bundle"
    wait_state(qtbot, bundle_item, ("verified", "verify_failed", "failed"))
    assert bundle_item.state == "verified"
    assert "Verified" in w.model_panel.status.plain_text()
    assert w.model_panel.facts.value("Release version") == "2.1.0"
    # dated by its sources (a reproducible bundle), and it says so: not the time it was written
    created = json.loads(zipfile.ZipFile(zip_path).read("manifest.json"))["created"]
    assert w.model_panel.facts.value("Created") == f"{created} (the newest modification time of the source files)"


def test_cancel_mid_run_leaves_nothing_and_resets(qtbot, tmp_path, sample_model, monkeypatch):
    """Cancel while the pipeline is inside a stage: the engine stops, the output folder is gone/empty."""
    from onnxpack.gui import engine

    reached = threading.Event()
    real = engine.bundle_job

    def pausing_bundle_job(options):
        body = real(options)

        def run(progress, cancel):
            def hooked(ev):
                progress(ev)
                if ev.stage == "merge" and not reached.is_set():
                    reached.set()
                    cancel.wait(30)  # hold the pipeline mid-merge until Cancel is pressed
            return body(hooked, cancel)

        return run

    monkeypatch.setattr(engine, "bundle_job", pausing_bundle_job)
    w = make_window(qtbot, tmp_path)
    item = _inspected(qtbot, w, sample_model)
    w.start_bundles()
    qtbot.waitUntil(reached.is_set, timeout=60_000)
    qtbot.waitUntil(lambda: w.run_panel.stage_state("merge") == "running", timeout=10_000)
    assert w.run_panel.cancel_button.isEnabled()
    w.run_panel.cancel_button.click()
    assert item.state == "cancelling" and "Cancelling" in w.run_panel.header.plain_text()
    wait_state(qtbot, item, ("cancelled", "done", "failed"), timeout=10_000)
    assert item.state == "cancelled"
    out = tmp_path / "out"
    assert not out.exists() or list(out.iterdir()) == []
    # the UI is reset: nothing running, Bundle available again, Cancel disabled
    assert not w.run_panel.cancel_button.isEnabled() and not w.act_cancel.isEnabled()
    assert w.bundle_panel.bundle_button.isEnabled() and w.act_bundle.isEnabled()
    assert "Cancelled" in w.run_panel.header.plain_text()
    assert w.queue.item(w.queue.row_of(item), 2).text() == "Cancelled"
    assert close_dialogs(w) == []  # a cancellation is not an error


def test_batch_runs_one_after_another_with_own_rows(qtbot, tmp_path):
    a = factory.external_model(tmp_path / "a")
    b = factory.external_model(tmp_path / "b")
    w = make_window(qtbot, tmp_path)
    items = w.open_paths([a, b])
    for it in items:
        wait_state(qtbot, it, ("ready", "invalid", "failed"))
        assert it.state == "ready", it.error
    items[1].draft.name = "second"
    assert w.bundle_panel.bundle_all_button.isVisible() or w.bundle_panel.bundle_all_button.isEnabled()
    titles = []
    # each run's title (the Progress tab shows the selected row's run, which stays the first row: issue 41 item 9)
    w.item_changed.connect(lambda it: titles.append(it.run.title) if it.state == "running" else None)
    started = w.start_bundles(all_ready=True)
    assert started == items
    states = []
    w.item_changed.connect(lambda it: states.append((it.id, it.state)))
    for it in items:
        wait_state(qtbot, it, ("done", "failed", "cancelled"), timeout=120_000)
    assert [it.state for it in items] == ["done", "done"], [it.error for it in items]
    # strictly one after another: the second started running only after the first finished
    running = [(i, s) for i, s in states if s in ("running", "done")]
    first_done = running.index((items[0].id, "done"))
    second_running = running.index((items[1].id, "running"))
    assert first_done < second_running
    zips = sorted(p.name for p in (tmp_path / "out").iterdir())
    assert len(zips) == 2 and any(z.startswith("second-") for z in zips)
    assert any("(1 of 2)" in t for t in titles) and any("(2 of 2)" in t for t in titles)  # "N of M" for a queue
    for row, it in enumerate(items):
        assert w.queue.item(row, 2).text() == "Bundled"
        assert w.queue.item(row, 3).text() == it.result.zip_path.name  # issue 41 item 5: the folder in the tooltip
        assert str(it.result.zip_path.parent) in w.queue.item(row, 3).toolTip()


def test_bad_version_refused_before_running(qtbot, tmp_path, sample_model):
    w = make_window(qtbot, tmp_path)
    item = _inspected(qtbot, w, sample_model)
    w.bundle_panel.version.setValidator(None)
    w.bundle_panel.version.setText("one")
    with qtbot.waitSignal(w.error_shown, timeout=5000) as blocker:
        assert w.start_bundles() == []
    box = blocker.args[0]
    assert "not a semantic version" in box.text() and "1.0.0" in box.informativeText()
    assert item.state == "ready"
    close_dialogs(w)


def test_previous_bundle_suggests_the_next_version(qtbot, tmp_path, sample_model):
    w = make_window(qtbot, tmp_path)
    item = _inspected(qtbot, w, sample_model)
    w.bundle_panel.run_smoke.setChecked(False)
    w.bundle_panel.version.setText("1.4.2")
    w.start_bundles()
    wait_state(qtbot, item, ("done", "failed"), timeout=120_000)
    assert item.state == "done", item.error
    assert "No equality proof" in w.result_panel.proof.plain_text()
    previous = Path(item.result.zip_path)
    w.queue.select(item)
    w.bundle_panel.previous.setText(str(previous))
    w.bundle_panel.previous.editingFinished.emit()
    qtbot.waitUntil(lambda: bool(item.draft.suggested), timeout=60_000)
    assert item.draft.suggested.startswith("1.4.3 ")  # same interface and weights → patch
    assert w.bundle_panel.version.text() == "1.4.3"
    assert "Suggested: 1.4.3" in w.bundle_panel.suggestion.text()


def test_signed_bundle_with_release_information(qtbot, tmp_path, sample_model):
    """The Bundle form's signing key and release information reach the bundle; the key's path (never the key) and
    the shared fields are remembered for the next start."""
    import json
    import zipfile

    from onnxpack.core.release import signing
    from onnxpack.gui.widgets.bundle_panel import BundlePanel

    private, public = signing.generate_key_pair(tmp_path / "keys", "rm")
    w = make_window(qtbot, tmp_path)
    item = _inspected(qtbot, w, sample_model)
    bp = w.bundle_panel
    assert bp.sign_key.isEnabled()  # model-signing is installed in the test environment
    bp.name.setText("victory")
    bp.version.setText("1.0.0")
    for edit, text in ((bp.sign_key, str(private)), (bp.license, "mit"), (bp.authors, "Ada; 小林"),
                       (bp.homepage, "https://example.org"), (bp.labels, "victory, defeat, other")):  # fmt: skip
        edit.setText(text)
        edit.editingFinished.emit()
    qtbot.mouseClick(bp.bundle_button, Qt.MouseButton.LeftButton)
    wait_state(qtbot, item, ("done", "failed", "cancelled"), timeout=120_000)
    assert item.state == "done", item.error and item.error.message
    zip_path = Path(item.result.zip_path)
    report = verify_bundle(zip_path, key=public)
    assert report.ok and report.signature["status"] == "valid", report.problems
    with zipfile.ZipFile(zip_path) as zf:
        about = json.loads(zf.read("manifest.json"))["about"]
    assert about == {"license": "MIT", "authors": ["Ada", "小林"], "homepage": "https://example.org",
                     "labels": ["victory", "defeat", "other"]}  # fmt: skip
    again = BundlePanel(w.settings)
    qtbot.addWidget(again)
    assert again.sign_key.text() == str(private) and again.license.text() == "mit" and again.labels.text() == ""
    settings_text = (tmp_path / "settings.ini").read_text(encoding="utf-8")
    assert "PRIVATE KEY" not in settings_text and private.read_text().splitlines()[1] not in settings_text


def test_a_wrong_label_count_is_refused_with_its_reason(qtbot, tmp_path, sample_model):
    w = make_window(qtbot, tmp_path)
    item = _inspected(qtbot, w, sample_model)
    bp = w.bundle_panel
    bp.name.setText("victory")
    bp.version.setText("1.0.0")
    bp.labels.setText("cat, dog")
    qtbot.mouseClick(bp.bundle_button, Qt.MouseButton.LeftButton)
    wait_state(qtbot, item, ("done", "failed", "cancelled"), timeout=120_000)
    assert item.state == "failed" and item.error.code == "ABOUT_LABELS"
    close_dialogs(w)
    assert not list((tmp_path / "out").glob("*.zip"))


def test_gui_refuses_exactly_the_versions_the_engine_refuses(qtbot, tmp_path, sample_model):
    """1.0.0-01 (a leading zero in a pre-release part) passed the GUI's own regex, then failed in the engine."""
    w = make_window(qtbot, tmp_path)
    item = _inspected(qtbot, w, sample_model)
    assert item.draft.name == "victory"  # the model file's stem, as `onnxpack bundle` names it
    w.bundle_panel.version.setValidator(None)  # the field's validator would stop the typing itself
    for bad in ("1.0.0-01", "01.0.0"):
        w.bundle_panel.version.setText(bad)
        assert w.start_bundles() == []
        assert any("not a semantic version" in text for text in close_dialogs(w))
    w.bundle_panel.version.setText("1.0.0-rc.1")
    assert w.start_bundles() == [item]
    wait_state(qtbot, item, ("done", "failed", "cancelled"), timeout=120_000)


def _two_bundled(qtbot, tmp_path):
    """Two external-data models (named 'model' and 'second') bundled with Bundle all; returns (window, rows, a)."""
    a = factory.external_model(tmp_path / "a")
    b = factory.external_model(tmp_path / "b")
    w = make_window(qtbot, tmp_path)
    items = w.open_paths([a, b])
    for it in items:
        wait_state(qtbot, it, ("ready", "invalid", "failed"))
    items[1].draft.name = "second"
    w.start_bundles(all_ready=True)
    for it in items:
        wait_state(qtbot, it, ("done", "failed", "cancelled"), timeout=120_000)
    return w, items, a


def test_rerun_is_checked_first_and_never_erases_an_earlier_success(qtbot, tmp_path):
    """Issue 14 item 7: Bundle all again with the ZIPs there → refused before any work, in one dialog; a forced
    re-run in which one model fails gives one summary; the failed row shows the failure, its earlier ZIP is named."""
    w, items, a = _two_bundled(qtbot, tmp_path)
    assert [it.state for it in items] == ["done", "done"]
    earlier = [it.result for it in items]
    # 1. the same again: nothing starts, one question names both files (bundled by these rows, nothing to skip
    # to), the rows keep their results
    assert w.start_bundles(all_ready=True) == []
    (text,) = close_dialogs(w)
    assert "2 rows were bundled already" in text and "model-1.0.0.zip" in text and "second-1.0.0.zip" in text
    assert [it.state for it in items] == ["done", "done"] and [it.result for it in items] == earlier
    # 2. replacing, and the first model's smoke input is missing: one summary, the first row keeps its bundle
    w.bundle_panel.force.setChecked(True)
    w.queue.select(items[1])  # the form shows another row: the draft changed here is not overwritten by the form's
    items[0].draft.inputs = {items[0].draft.input_names[0]: str(tmp_path / "missing.npy")}
    assert w.start_bundles(all_ready=True) == items
    for it in items:
        wait_state(qtbot, it, ("done", "failed", "cancelled"), timeout=120_000)
    qtbot.waitUntil(lambda: w.last_error is not None and w.last_error.isVisible(), timeout=10_000)
    texts = close_dialogs(w)
    assert len(texts) == 1 and "1 of 2 bundles failed" in texts[0] and a.name in texts[0]
    # the failed row shows its latest run's failure, never "Bundled"; its earlier ZIP is still named (defect 1)
    assert items[0].state == "failed" and items[0].result is None and items[0].error is not None
    assert items[0].last_success is earlier[0]
    assert items[1].state == "done" and items[1].result is not earlier[1]
    assert "keeps its earlier bundle" in w.log.plain_text()


def test_locate_data_file_then_bundle(qtbot, tmp_path):
    """Issue 14 item 6: a model whose .data is elsewhere is blocked with a hint naming the app's own control, and
    File → Locate data file… (set_data_dir) makes it bundle."""
    model = factory.external_model(tmp_path / "model")
    elsewhere = tmp_path / "weights"
    elsewhere.mkdir()
    for data in model.parent.glob("*.data"):
        data.rename(elsewhere / data.name)
    before = factory.snapshot(elsewhere)
    w = make_window(qtbot, tmp_path)
    (item,) = w.open_paths([model])
    wait_state(qtbot, item, ("ready", "invalid", "failed"))
    assert item.state == "invalid"
    hints = [w.model_panel.findings.cell_text(r, 3) for r in range(w.model_panel.findings.rowCount())]
    assert any("Locate data file" in h for h in hints) and not any("--data-dir" in h for h in hints)
    assert "Locate data file" in w.bundle_panel.blocked.text()
    assert w.act_locate_data.isEnabled()
    w.set_data_dir(item, elsewhere)
    wait_state(qtbot, item, ("ready", "invalid", "failed"))
    assert item.state == "ready", item.error
    w.bundle_panel.version.setText("1.0.0")
    assert w.start_bundles() == [item]
    wait_state(qtbot, item, ("done", "failed", "cancelled"), timeout=120_000)
    assert item.state == "done", item.error and item.error.message
    assert verify_bundle(item.result.zip_path).ok
    assert factory.snapshot(elsewhere) == before  # the data folder was only read


def test_gui_hints_are_in_the_apps_words_and_translated(qapp):
    from onnxpack.gui import hints, i18n

    try:
        i18n.install_translators(qapp, "en")
        english = {code: hints.gui_hint(code, "engine hint") for code in hints.GUI_HINT_CODES}
        assert all("--" not in text for text in english.values())
        assert hints.gui_hint("NO_SUCH_CODE", "engine hint") == "engine hint"
        i18n.install_translators(qapp, "ja")
        japanese = {code: hints.gui_hint(code, "engine hint") for code in hints.GUI_HINT_CODES}
        untranslated = [code for code in hints.GUI_HINT_CODES if japanese[code] == english[code]]
        assert untranslated == []
    finally:
        i18n.install_translators(qapp, "en")


def test_progress_tab_shows_the_selected_rows_run(qtbot, tmp_path):
    """Issue 14 item 8: the Progress tab shows the selected row's run (live or finished), not the last job's."""
    w, items, _a = _two_bundled(qtbot, tmp_path)
    assert w.queue.selected() is items[0]  # issue 41 item 9: the selection stays where it was, not on the last row
    assert "model 1.0.0" in w.run_panel.header.plain_text()
    w.queue.select(items[1])
    assert "second 1.0.0" in w.run_panel.header.plain_text()
    w.queue.select(items[0])
    assert "model 1.0.0" in w.run_panel.header.plain_text() and w.run_panel.stage_state("zip") == "done"
    (c,) = w.open_paths([tmp_path / "a"])  # a row that never ran: nothing to show
    w.queue.select(items[1])
    w.queue.select(c)
    assert "No bundle has run for this row" in w.run_panel.header.plain_text()
    assert w.run_panel.stage_state("merge") == "not run"  # issue 41 item 9: never "waiting" for a row never bundled
    wait_state(qtbot, c, ("ready", "invalid", "failed"))


def test_a_single_file_bundled_as_it_is_says_it_is_the_original_byte_for_byte(qtbot, tmp_path):
    """The proof line follows the manifest's method: file-sha256 for a single file that ships as it came."""
    model = tmp_path / "src" / "m.onnx"
    model.parent.mkdir()
    model.write_bytes(factory.add_model(n=256).SerializeToString())
    w = make_window(qtbot, tmp_path)
    item = _inspected(qtbot, w, model)
    w.bundle_panel.version.setText("1.0.0")
    qtbot.mouseClick(w.bundle_panel.bundle_button, Qt.MouseButton.LeftButton)
    wait_state(qtbot, item, ("done", "failed", "cancelled"), timeout=120_000)
    assert item.state == "done", item.error and item.error.message
    assert item.result.equal["methods"] == ["file-sha256"]
    proof = w.result_panel.proof.plain_text()
    assert "byte for byte" in proof and "bit-for-bit" not in proof
