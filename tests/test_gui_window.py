"""GUI: dropping models and bundles, the facts shown, errors, settings, keyboard and accessibility."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QMimeData, QPointF, QSettings, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDragLeaveEvent, QDropEvent
from PySide6.QtWidgets import QApplication, QMessageBox

from onnxpack.gui.crash import log_dir
from tests import factory
from tests.gui_helpers import close_dialogs, make_window, wait_state


def _drag_enter(window, mime: QMimeData) -> QDragEnterEvent:
    """A drag-enter event at the window's centre (QPointF since Qt 6.9 or so, QPoint before)."""
    args = (Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    try:
        return QDragEnterEvent(QPointF(window.rect().center()), *args)
    except TypeError:
        return QDragEnterEvent(window.rect().center(), *args)


def _drop(window, paths: list[Path]) -> QDropEvent:
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(p)) for p in paths])
    enter = _drag_enter(window, mime)
    QApplication.sendEvent(window, enter)
    assert enter.isAccepted()
    drop = QDropEvent(QPointF(window.rect().center()), Qt.DropAction.CopyAction, mime,
                      Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(window, drop)
    return drop


def test_starts_empty_with_drop_hint(qtbot, tmp_path):
    w = make_window(qtbot, tmp_path)
    assert w.stack.currentWidget() is w.drop_page
    assert "Drop" in w.drop_page.title.text()
    assert w.acceptDrops()
    assert not w.act_bundle.isEnabled() and not w.act_cancel.isEnabled()


def test_dragging_files_over_the_window_highlights_it(qtbot, tmp_path, sample_model):
    w = make_window(qtbot, tmp_path)
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(sample_model))])
    QApplication.sendEvent(w, _drag_enter(w, mime))
    assert w.drop_overlay.isVisible() and "Drop" in w.drop_overlay.text()
    assert w.drop_overlay.geometry() == w.stack.rect()
    w.dragLeaveEvent(QDragLeaveEvent())
    assert not w.drop_overlay.isVisible()
    _drop(w, [sample_model])
    assert not w.drop_overlay.isVisible()


def test_a_folder_of_several_models_is_one_release_row(qtbot, tmp_path):
    """Issue 36 item 7: a folder of several models is one release row (it used to queue each model); the choice to
    bundle each model on its own gives them their rows back."""
    folder = tmp_path / "models"
    factory.external_model(folder)
    import onnx

    onnx.save(factory.add_model(), str(folder / "second.onnx"))
    w = make_window(qtbot, tmp_path)
    (item,) = w.open_paths([folder])
    assert item.kind == "release"
    wait_state(qtbot, item, ("ready", "invalid", "failed"))
    assert item.release is not None and item.release.models == 2
    assert "2 models" in w.log.plain_text()
    items = w.split_selected_release()
    assert sorted(i.path.name for i in items) == sorted(p.name for p in folder.glob("*.onnx")) and len(items) == 2


def test_drag_of_non_file_is_refused(qtbot, tmp_path):
    w = make_window(qtbot, tmp_path)
    mime = QMimeData()
    mime.setText("just text")
    enter = _drag_enter(w, mime)
    QApplication.sendEvent(w, enter)
    assert not enter.isAccepted()


def test_drop_of_sample_shows_its_facts(qtbot, tmp_path, sample_model):
    w = make_window(qtbot, tmp_path)
    _drop(w, [sample_model])
    assert w.stack.currentWidget() is w.splitter
    (item,) = w.queue.entries
    wait_state(qtbot, item, ("ready", "invalid", "failed"))
    assert item.state == "ready", item.error
    panel = w.model_panel
    assert panel.title.text() == "victory.onnx"
    assert "Ready to bundle" in panel.status.plain_text()
    # layout and sizes, with the bar against the 2 GiB limit
    assert panel.facts.value("Layout") == ".onnx with external data files"
    assert panel.facts.value("IR version") == "8"
    assert panel.facts.value("Opsets") == "ai.onnx 17"
    assert panel.facts.value("Oldest ONNX Runtime").startswith("1.12")
    data_size = (sample_model.parent / "victory.onnx.data").stat().st_size
    assert panel.size_bar.size_bytes is not None and panel.size_bar.size_bytes > data_size
    assert "fits in one .onnx file" in panel.size_bar.format()
    assert panel.size_bar.accessibleName()
    assert {panel.files.cell_text(r, 0) for r in range(panel.files.rowCount())} == {
        "victory.onnx", "victory.onnx.data"}
    # interface: symbolic batch dimension shown by name
    rows = [[panel.interface.cell_text(r, c) for c in range(4)] for r in range(panel.interface.rowCount())]
    assert ["Input", "input", "FLOAT", "[batch_size, 3, 64, 128]"] in rows
    assert ["Output", "output", "FLOAT", "[batch_size, 3]"] in rows
    # findings with severity icon + text, and the hint column; external-data table of 4 tensors
    assert panel.findings.rowCount() >= 1
    codes = [panel.findings.cell_text(r, 1) for r in range(panel.findings.rowCount())]
    assert "EXTDATA_UNALIGNED" in codes
    first = panel.findings.item(0, 0)
    assert not first.icon().isNull() and first.text() in ("Error", "Warning", "Info")
    assert panel.external.rowCount() == 4
    assert all(panel.external.cell_text(r, 2) == "victory.onnx.data" for r in range(4))
    assert panel.tabs.tabText(3) == "External data (4)"
    # offsets and lengths in one unit, exact bytes (issue 14 item 11)
    offsets = [int(panel.external.cell_text(r, 3).replace(",", "")) for r in range(4)]
    lengths = [int(panel.external.cell_text(r, 4).replace(",", "")) for r in range(4)]
    assert offsets[0] == 0 and offsets == sorted(offsets) and sum(lengths) <= data_size
    # what the CLI shows too: initializers and operators
    assert panel.facts.value("Initializers").startswith("8 tensors")
    assert panel.facts.value("Operators").split(" nodes")[0].isdigit() and "Conv ×" in panel.facts.value("Operators")
    # nothing is bundled yet: the Result column is empty
    assert w.queue.item(0, 3).text() == ""
    # the bundle form is pre-filled, and shows the symbolic dim so the user can size it
    bp = w.bundle_panel
    assert bp.name.text() == "victory" and bp.version.text() == "1.0.0"
    assert bp.dims.rowCount() == 1 and bp.dims.item(0, 0).text() == "batch_size"
    assert bp.dims.item(0, 1).text() == "input"
    assert bp.bundle_button.isEnabled() and w.act_bundle.isEnabled()
    assert "Inspected victory.onnx" in w.log.plain_text()


def test_model_folder_and_command_line_paths(qtbot, tmp_path, ext_model):
    w = make_window(qtbot, tmp_path)
    items = w.open_paths([ext_model.parent])  # a folder holding one model
    wait_state(qtbot, items[0], ("ready", "invalid", "failed"))
    assert items[0].state in ("ready", "invalid"), items[0].error
    assert w.model_panel.title.text() == ext_model.name
    # dropping the same path again refreshes the row instead of adding one
    w.open_paths([ext_model.parent])
    assert len(w.queue.entries) == 1
    wait_state(qtbot, items[0], ("ready", "invalid", "failed"))


@pytest.mark.parametrize(
    "content, expect",
    [(b"", "empty"), (b"\x08\x07\x12\xff\xff\xff\xff\x0f garbage", "ONNX"), (b"ir_version: 8\ngraph {}\n", "text")],
)
def test_hostile_model_shows_error_dialog_with_hint(qtbot, tmp_path, content, expect):
    bad = tmp_path / "in" / "bad.onnx"
    bad.parent.mkdir()
    bad.write_bytes(content)
    before = factory.snapshot(bad.parent)
    w = make_window(qtbot, tmp_path)
    with qtbot.waitSignal(w.error_shown, timeout=60_000) as blocker:
        w.open_paths([bad])
    box = blocker.args[0]
    assert isinstance(box, QMessageBox) and box.isVisible()
    assert box.icon() == QMessageBox.Icon.Critical
    assert expect.lower() in box.text().lower()
    assert box.informativeText().startswith("How to fix: ") and len(box.informativeText()) > 15
    assert "Error code:" in box.detailedText()
    (item,) = w.queue.entries
    assert item.state in ("failed", "verify_failed")
    if item.state == "failed":
        assert w.queue.item(0, 2).text() == "Failed" and not w.queue.item(0, 2).icon().isNull()
        assert box.text() in w.model_panel.status.plain_text()
    close_dialogs(w)
    assert factory.snapshot(bad.parent) == before
    assert not (tmp_path / "out").exists()


def test_several_errors_open_one_dialog_at_a_time(qtbot, tmp_path):
    folder = tmp_path / "in"
    folder.mkdir()
    paths = []
    for n in range(3):
        p = folder / f"bad{n}.onnx"
        p.write_bytes(b"")
        paths.append(p)
    w = make_window(qtbot, tmp_path)
    w.open_paths(paths)
    qtbot.waitUntil(lambda: all(i.state == "failed" for i in w.queue.entries), timeout=60_000)
    seen = []
    for _ in range(3):
        qtbot.waitUntil(lambda: w.last_error is not None and w.last_error.isVisible(), timeout=5000)
        assert sum(b.isVisible() for b in w.findChildren(QMessageBox)) == 1
        seen.append(w.last_error.text())
        w.last_error.done(0)
        qtbot.waitUntil(lambda: w.last_error is None or w.last_error.text() != seen[-1], timeout=5000)
    assert len(set(seen)) == 3  # each row's error shown once, one after the other


def test_dropped_bundle_that_is_not_a_bundle_fails_verification(qtbot, tmp_path):
    import zipfile

    z = tmp_path / "not-a-bundle.zip"
    with zipfile.ZipFile(z, "w") as zf:
        zf.writestr("hello.txt", "hi")
    w = make_window(qtbot, tmp_path)
    (item,) = w.open_paths([z])
    assert item.kind == "bundle"
    wait_state(qtbot, item, ("verified", "verify_failed", "failed"))
    assert item.state in ("verify_failed", "failed")
    if item.state == "verify_failed":
        assert "Verification failed" in w.model_panel.status.plain_text()
        assert w.model_panel.findings.rowCount() >= 1
    close_dialogs(w)


def test_settings_persist(qtbot, tmp_path, sample_model):
    w = make_window(qtbot, tmp_path)
    out = tmp_path / "chosen"
    w.bundle_panel.set_output_dir(str(out))
    w.bundle_panel.target_ort.setCurrentText("1.16")
    w.bundle_panel.compress.setChecked(True)
    w.set_language("en")
    w.resize(760, 520)
    w.close()
    from onnxpack.gui.main_window import MainWindow
    from onnxpack.gui.settings import AppSettings

    settings = AppSettings(QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat))
    assert settings.output_dir == str(out)
    assert settings.target_ort == "1.16"
    assert settings.flag("compress") is True and settings.flag("ort_format") is False
    assert settings.language == "en"
    w2 = MainWindow(settings)
    qtbot.addWidget(w2)
    assert w2.bundle_panel.out_dir.text() == str(out)
    assert w2.bundle_panel.target_ort.currentText() == "1.16"
    assert w2.bundle_panel.compress.isChecked()
    assert w2.lang_actions["en"].isChecked()
    assert (w2.width(), w2.height()) == (760, 520)


def test_every_action_has_a_shortcut_or_menu_and_widgets_have_names(qtbot, tmp_path, sample_model):
    w = make_window(qtbot, tmp_path)
    menus = [w.menu_file, w.menu_view, w.menu_lang, w.menu_help]
    in_menus = {a for m in menus for a in m.actions()}
    for a in w.actions():
        assert a in in_menus, a.text()
        assert a.text(), "action without text"
    assert w.act_open.shortcut().toString() == "Ctrl+O"
    assert w.act_cancel.shortcut().toString() == "Esc"
    # mnemonics in menus (keyboard reachable)
    assert all("&" in m.title() for m in menus)
    items = w.open_paths([sample_model])
    wait_state(qtbot, items[0], ("ready",))
    for widget in (w.queue, w.model_panel.size_bar, w.model_panel.findings, w.model_panel.interface,
                   w.model_panel.external, w.log.text, w.bundle_panel.dims):
        assert widget.accessibleName(), widget
    assert w.bundle_panel.focusPolicy() is not None
    # labels have buddies, so Alt+letter reaches every form field
    for lab in w.bundle_panel._labels:
        assert lab.buddy() is not None


def test_remove_and_clear_rows(qtbot, tmp_path, sample_model):
    w = make_window(qtbot, tmp_path)
    items = w.open_paths([sample_model])
    wait_state(qtbot, items[0], ("ready",))
    w.queue.select(items[0])
    w.act_remove.trigger()
    assert w.queue.entries == [] and w.stack.currentWidget() is w.drop_page


def test_open_log_folder_uses_app_data(qtbot, tmp_path):
    w = make_window(qtbot, tmp_path)
    w.act_logs.trigger()
    (url,) = w.opened
    assert Path(url.toLocalFile()) == log_dir()


def test_open_folder_failure_is_reported(qtbot, tmp_path):
    """No launcher on the system (QDesktopServices.openUrl returns False): an error dialog, not silence."""
    w = make_window(qtbot, tmp_path)
    w.open_url = lambda _url: False
    shown: list = []
    w.error_shown.connect(shown.append)
    w.act_logs.trigger()
    assert shown, "no error dialog"
    assert "was not opened" in shown[-1].text()


def test_view_actions_switch_to_their_own_tab(qtbot, tmp_path):
    """Ctrl+1..4 / View menu: each action shows its tab (triggered(checked) once arrived as the index)."""
    w = make_window(qtbot, tmp_path)
    for index in (3, 1, 2, 0):
        w.act_tabs[index].trigger()
        assert w.tabs.currentIndex() == index


def test_result_finite_column_for_integer_outputs(qtbot):
    """Integer outputs carry finite=None (not applicable): never shown as "NO (NaN or Inf)"."""
    from onnxpack.gui.widgets.run_panel import ResultPanel

    panel = ResultPanel()
    qtbot.addWidget(panel)
    assert panel._finite_text(True) == "yes"
    assert panel._finite_text(False) == "NO (NaN or Inf)"
    assert panel._finite_text(None) == "n/a (not floating point)"


def test_a_model_with_error_findings_cannot_be_queued(qtbot, tmp_path):
    """Its .onnx.data is missing: Bundle is off before any work, and the panel says why and how to fix it."""
    model = factory.external_model(tmp_path / "m")
    (tmp_path / "m" / "model.onnx.data").unlink()
    w = make_window(qtbot, tmp_path)
    (item,) = w.open_paths([model])
    wait_state(qtbot, item, ("ready", "invalid", "failed"))
    assert item.state == "invalid"
    w.queue.select(item)
    assert not w.act_bundle.isEnabled() and not w.act_bundle_all.isEnabled()
    assert not w.bundle_panel.bundle_button.isEnabled()
    reason = w.bundle_panel.blocked.text()
    assert "error finding" in reason and "model.onnx.data" in reason and "How to fix" in reason
    assert w.start_bundles() == [] and w.start_bundles(all_ready=True) == []
    assert item.state == "invalid"
    # the Result tab says so too, never "fill in the Bundle tab and press Bundle"
    said = w.result_panel.status.plain_text()
    assert said == reason and "model.onnx.data" in said
    assert "press Bundle" not in said
    # switched to Japanese with the row selected: its reasons are said again in Japanese (they stayed English)
    w.set_language("ja")
    try:
        qtbot.waitUntil(lambda: "バンドルできません" in w.result_panel.status.plain_text())
        said = w.result_panel.status.plain_text()
        assert said == w.bundle_panel.blocked.text() and "model.onnx.data" in said and "How to fix" not in said
    finally:
        w.set_language("en")
    qtbot.waitUntil(lambda: w.result_panel.status.plain_text() == reason)


def _mnemonic(text: str) -> str | None:
    i = text.replace("&&", "").find("&")
    return text.replace("&&", "")[i + 1].lower() if i >= 0 and i + 1 < len(text.replace("&&", "")) else None


@pytest.mark.parametrize("language", ["en", "ja"])
def test_menu_mnemonics_are_unique(qtbot, tmp_path, language):
    w = make_window(qtbot, tmp_path)
    w.set_language(language)
    try:
        bar = [_mnemonic(m.title()) for m in (w.menu_file, w.menu_view, w.menu_lang, w.menu_help)]
        assert len(set(bar)) == len(bar), bar
        for menu in (w.menu_file, w.menu_view, w.menu_help):
            keys = [_mnemonic(a.text()) for a in menu.actions() if not a.isSeparator()]
            assert None not in keys and len(set(keys)) == len(keys), (menu.title(), keys)
    finally:
        w.set_language("en")  # the translators are the application's: later tests read English


def test_tab_reaches_every_control_of_the_bundle_tab(qtbot, tmp_path):
    """Tab walks out of the symbolic-dims table (it used to bounce between the table and its spin box forever)."""
    model = tmp_path / "m" / "model.onnx"
    model.parent.mkdir()
    onnx_model = factory.add_model()
    onnx_model.graph.input[0].type.tensor_type.shape.dim[1].dim_param = "width"
    import onnx

    onnx.save(onnx_model, model)
    w = make_window(qtbot, tmp_path)
    (item,) = w.open_paths([model])
    wait_state(qtbot, item, ("ready", "invalid", "failed"))
    w.queue.select(item)
    w.act_tabs[1].trigger()
    panel = w.bundle_panel
    assert panel.dims.rowCount() == 2
    first = panel.dims.cellWidget(0, 2)
    first.setFocus()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is first)
    seen = []
    for _ in range(80):
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
        seen.append(QApplication.focusWidget())
        if seen[-1] is first:
            break
    assert seen[-1] is first, "Tab never came back around: it is trapped"
    assert panel.dims.cellWidget(1, 2) in seen
    assert panel.inputs in seen and panel.bundle_button in seen
