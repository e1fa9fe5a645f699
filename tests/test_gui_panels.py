"""GUI, issue 30: every panel is a rendering of the selected row alone; the window fits the screen; drops never
move files; the wheel and the keyboard behave. pytest-qt, QT_QPA_PLATFORM=offscreen."""

from __future__ import annotations

import zipfile
from pathlib import Path

import onnx
import pytest
from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent, QGuiApplication, QWheelEvent
from PySide6.QtWidgets import (
    QAbstractButton,
    QApplication,
    QGroupBox,
    QLabel,
    QLineEdit,
    QMessageBox,
    QTableWidget,
    QWidget,
)

from onnxpack.gui.model.state import BATCH_SETTINGS, ROW_SETTINGS, ItemState
from tests import factory
from tests.gui_helpers import close_dialogs, make_window, wait_idle, wait_state

# Names that appear in no other row's name (no one is a substring of another), so a panel showing another row's data
# is caught by its name.
MODELS = ("alpha", "bravo", "echo")


def _model(folder: Path, name: str, ir: int = 8) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.onnx"
    m = factory.add_model()
    m.ir_version = ir
    onnx.save(m, str(path))
    return path


def _bundle(tmp_path: Path, name: str, *, tamper: bool = False) -> Path:
    """A real bundle of a small model named ``name`` (1.0.0, with its smoke run); ``tamper`` changes one byte of its
    model member afterwards."""
    from onnxpack.core.release.bundle import BundleOptions, build_bundle

    src = _model(tmp_path / f"src-{name}", name)
    result = build_bundle(BundleOptions(src, tmp_path / f"bundles-{name}", "1.0.0"))
    zip_path = Path(result.zip_path)
    if not tamper:
        return zip_path
    bad = tmp_path / f"{name}-tampered-1.0.0.zip"
    with zipfile.ZipFile(zip_path) as zin, zipfile.ZipFile(bad, "w") as zout:
        for info in zin.infolist():
            data = zin.read(info)
            if info.filename == f"{name}.onnx":
                data = data[:-1] + bytes([data[-1] ^ 1])
            zout.writestr(info, data)
    return bad


def _texts(widget: QWidget) -> str:
    """Everything a panel shows as text: labels, fields, group titles, buttons, table cells and tab titles."""
    parts: list[str] = []
    for w in [widget, *widget.findChildren(QWidget)]:
        if isinstance(w, (QLabel, QLineEdit)):
            parts.append(w.text())
        elif isinstance(w, QGroupBox):
            parts.append(w.title())
        elif isinstance(w, QAbstractButton):
            parts.append(w.text())
        elif isinstance(w, QTableWidget):
            parts += [w.item(r, c).text() for r in range(w.rowCount()) for c in range(w.columnCount())
                      if w.item(r, c) is not None]  # fmt: skip
    return "\n".join(parts)


def _panels(w) -> dict[str, QWidget]:
    return {"model": w.model_panel, "bundle": w.bundle_panel, "progress": w.run_panel, "result": w.result_panel}


def _name_of(item) -> str:
    return item.path.name.split("-")[0].removesuffix(".onnx").removesuffix(".zip")


def _assert_only(w, item, all_items) -> None:
    """No panel shows a name of another row; the panels that show a row show this one."""
    others = [_name_of(o) for o in all_items if o is not item]
    for panel_name, panel in _panels(w).items():
        text = _texts(panel)
        for other in others:
            assert other not in text, f"{panel_name} panel of {item.path.name} ({item.state}) shows {other}"
    mp = w.model_panel
    assert mp.title.text() == item.path.name
    if item.kind == "model":
        assert w.bundle_panel.name.text() == item.draft.name
        assert w.bundle_panel.draft_owner is item and item.path.name in w.bundle_panel.form_box.title()
        assert w.result_panel.result is item.result
    else:
        assert w.bundle_panel.name.text() == "" and not w.bundle_panel.form_box.isEnabled()
        assert w.bundle_panel.draft_owner is None and not w.bundle_panel.bundle_button.isEnabled()
        assert "bundle" in w.bundle_panel.blocked.text() and "could not be read" not in w.bundle_panel.blocked.text()
        assert w.result_panel.result is None and not w.result_panel.open_button.isEnabled()
    if item.state == "queued":  # it waits for its run (issue 41 item 9: not "waiting" for a row that never ran)
        assert w.run_panel.header.plain_text() == "Queued: this row is bundled after the rows before it."
    elif item.run is None:
        assert w.run_panel.header.plain_text() == "No bundle has run for this row."
    else:
        assert w.run_panel.run is item.run


@pytest.fixture
def walked(qtbot, tmp_path):
    """A queue with a row of every kind and outcome: bundled (alpha), ready and never bundled (bravo), has errors
    (echo: IR 99), unreadable (foxtrot), a verified bundle (delta) and a tampered one (charlie)."""
    folder = tmp_path / "models"
    paths = [_model(folder, "alpha"), _model(folder, "bravo"), _model(folder, "echo", ir=99),
             folder / "foxtrot.onnx"]  # fmt: skip
    paths[-1].write_bytes(b"not a model")
    good, bad = _bundle(tmp_path, "delta"), _bundle(tmp_path, "charlie", tamper=True)
    w = make_window(qtbot, tmp_path)
    items = w.open_paths([*paths, good, bad])
    wait_idle(qtbot, w)
    close_dialogs(w)
    alpha = items[0]
    w._select(alpha)
    w.bundle_panel.version.setText("3.0.0")
    assert w.start_bundles() == [alpha]
    wait_state(qtbot, alpha, ("done", "failed"), timeout=120_000)
    assert alpha.state == "done", alpha.error
    close_dialogs(w)
    return w, items


def test_every_panel_shows_the_selected_row_alone(qtbot, walked):
    """Issue 30 items 1-3 and the done-when walk: select each row (every kind and outcome) and look at every
    panel; none shows another row's data. Then deselect, and delete rows, and look again."""
    w, items = walked
    states = {_name_of(i): i.state for i in items}
    assert states == {"alpha": "done", "bravo": "ready", "echo": "invalid", "foxtrot": "failed",
                      "delta": "verified", "charlie": "verify_failed"}
    for _round in range(2):  # forwards, then backwards: what a panel showed before never stays
        for item in items if _round == 0 else reversed(items):
            w.queue.select(item)
            assert w.model.selected is item
            _assert_only(w, item, items)
    # item 1: the tampered bundle and the never-bundled model show no bundle in the Result tab
    for name in ("charlie", "bravo"):
        w.queue.select(next(i for i in items if _name_of(i) == name))
        w.act_tabs[3].trigger()
        assert "Bundle created" not in w.result_panel.status.plain_text()
        assert not w.result_panel.proof.isVisible() and not w.act_copy_cli.isEnabled()
    # item 3: a verified bundle's interface, from the manifest's inspection record
    delta = next(i for i in items if _name_of(i) == "delta")
    w.queue.select(delta)
    rows = [[w.model_panel.interface.cell_text(r, c) for c in range(4)]
            for r in range(w.model_panel.interface.rowCount())]  # fmt: skip
    assert rows and {r[0] for r in rows} == {"Input", "Output"}
    # item 2: a verified bundle row's Bundle tab says it is a bundle, not that the model could not be read
    assert "This row is a bundle" in w.bundle_panel.blocked.text()
    # nothing selected: every panel is cleared
    w.queue.clearSelection()
    assert w.model.selected is None and w.model_panel.title.text() == ""
    assert w.bundle_panel.name.text() == "" and w.result_panel.result is None
    assert all(_name_of(i) not in _texts(p) for i in items for p in _panels(w).values())
    # item 2: Del re-renders the row that takes the deleted one's place (Qt signals no selection change)
    w.queue.select(items[0])
    w.queue.setFocus()
    w.remove_selected()
    assert w.model.selected is items[1] and w.queue.selected() is items[1]
    _assert_only(w, items[1], items[1:])
    while w.model.items:
        w.remove_selected()
        if w.model.selected is not None:
            _assert_only(w, w.model.selected, w.model.items)
    assert w.stack.currentWidget() is w.drop_page


def test_panels_follow_the_selection_while_a_bundle_runs(qtbot, tmp_path):
    """Queued and running rows: selecting another row mid-run shows that row, and back again the live run."""
    folder = tmp_path / "models"
    a, b = _model(folder, "alpha"), _model(folder, "bravo")
    w = make_window(qtbot, tmp_path)
    items = w.open_paths([a, b])
    wait_idle(qtbot, w)
    seen = []

    def look(item):
        if item.state in (ItemState.QUEUED, ItemState.RUNNING) and w.model.selected is not None:
            sel = w.model.selected
            _assert_only(w, sel, items)
            seen.append(item.state)

    w.item_changed.connect(look)
    assert w.start_bundles(all_ready=True) == items
    for it in items:
        wait_state(qtbot, it, ("done", "failed"), timeout=120_000)
    assert ItemState.QUEUED in seen and ItemState.RUNNING in seen
    for it in items:
        w.queue.select(it)
        _assert_only(w, it, items)


def test_verify_with_a_smoke_run_says_whether_it_ran_and_passed(qtbot, tmp_path):
    """Issue 30 item 4."""
    good, bad = _bundle(tmp_path, "delta"), _bundle(tmp_path, "charlie", tamper=True)
    w = make_window(qtbot, tmp_path)
    d, c = w.open_paths([good, bad])
    wait_idle(qtbot, w)
    w.queue.select(d)
    assert "No smoke run" in w.model_panel.smoke_status.plain_text()
    w.verify_selected_with_smoke()
    wait_state(qtbot, d, ("verified", "verify_failed", "failed"), timeout=120_000)
    assert d.state == "verified"
    assert w.model_panel.smoke_status.plain_text().startswith("Smoke run passed")
    assert "bit for bit" in w.model_panel.smoke_status.plain_text()
    assert "Smoke run passed" in w.log.plain_text()
    w.queue.select(c)
    w.verify_selected_with_smoke()
    wait_state(qtbot, c, ("verified", "verify_failed", "failed"), timeout=120_000)
    assert w.model_panel.smoke_status.plain_text().startswith("Smoke run skipped")


def test_the_ir_hint_matches_the_gate(qtbot, tmp_path):
    """Issue 30 item 6: an IR-99 model is never told to tick "Lower the IR version"; a model that lowering fixes
    is, and ticking it enables Bundle."""
    folder = tmp_path / "models"
    w = make_window(qtbot, tmp_path)
    w.settings.target_ort = "1.16"
    w.bundle_panel.target_ort.setCurrentText("1.16")
    ir99, ir10 = w.open_paths([_model(folder, "echo", ir=99), _model(folder, "golf", ir=10)])
    wait_idle(qtbot, w)

    def hints() -> dict[str, str]:
        f = w.model_panel.findings
        return {f.cell_text(r, 1): f.cell_text(r, 3) for r in range(f.rowCount())}

    w.queue.select(ir99)
    for code in ("IR_LOWERABLE", "ORT_TARGET_UNSUPPORTED"):
        assert "Tick" not in hints()[code] and "VERSION_UNRELEASED" in hints()[code]
    w.bundle_panel.fix_ir.setChecked(True)
    assert not w.bundle_panel.bundle_button.isEnabled()
    assert "Retarget for" not in w.bundle_panel.blocked.text()  # the blocked reason's hint is the gate's too
    w.bundle_panel.fix_ir.setChecked(False)
    w.queue.select(ir10)
    assert not w.bundle_panel.bundle_button.isEnabled()
    assert f'tick "{w.bundle_panel.fix_ir.text()}"' in hints()["ORT_TARGET_UNSUPPORTED"]  # the box as it reads
    w.bundle_panel.fix_ir.setChecked(True)  # what the hint says: now Bundle is on, as the engine's gate is
    assert w.bundle_panel.bundle_button.isEnabled() and w.act_bundle.isEnabled()


def _drag(window, actions: Qt.DropAction, proposed: Qt.DropAction, path: Path) -> tuple[QDragEnterEvent, QDropEvent]:
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(path))])
    pos = QPointF(window.rect().center())
    enter = QDragEnterEvent(pos.toPoint(), actions, mime, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    enter.setDropAction(proposed)
    QApplication.sendEvent(window, enter)
    drop = QDropEvent(pos, actions, mime, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    drop.setDropAction(proposed)
    QApplication.sendEvent(window, drop)
    return enter, drop


def test_drops_are_copied_or_linked_never_moved(qtbot, tmp_path, sample_model):
    """Issue 30 item 8: a source proposing Move gets Copy (or Link); one offering only Move is refused."""
    w = make_window(qtbot, tmp_path)
    move, copy, link = Qt.DropAction.MoveAction, Qt.DropAction.CopyAction, Qt.DropAction.LinkAction
    enter, drop = _drag(w, move | copy, move, sample_model)
    assert enter.isAccepted() and enter.dropAction() == copy and drop.dropAction() == copy
    assert len(w.model.items) == 1
    enter, drop = _drag(w, move | link, move, sample_model)
    assert enter.isAccepted() and drop.dropAction() == link
    enter, drop = _drag(w, move, move, sample_model)
    assert not enter.isAccepted() and not drop.isAccepted()
    wait_idle(qtbot, w)


def test_the_wheel_changes_a_spin_box_only_when_it_has_focus(qtbot, tmp_path, sample_model):
    """Issue 30 item 9: scrolling the form over a size box leaves it "auto"."""
    w = make_window(qtbot, tmp_path)
    (item,) = w.open_paths([sample_model])
    wait_state(qtbot, item, ("ready",))
    w.tabs.setCurrentIndex(1)
    spin = w.bundle_panel.dims.cellWidget(0, 2)
    assert spin.value() == 0 and spin.focusPolicy() == Qt.FocusPolicy.StrongFocus
    combo = w.bundle_panel.target_ort
    before = combo.currentText()

    def wheel(widget) -> None:
        pos = QPointF(widget.rect().center())
        ev = QWheelEvent(pos, QPointF(widget.mapToGlobal(pos.toPoint())), QPoint(0, 0), QPoint(0, 120),
                         Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier, Qt.ScrollPhase.NoScrollPhase, False)
        QApplication.sendEvent(widget, ev)

    wheel(spin)
    wheel(combo)
    assert spin.value() == 0 and item.draft.dims == {} and combo.currentText() == before
    w.activateWindow()
    qtbot.waitActive(w)
    spin.setFocus()
    qtbot.waitUntil(spin.hasFocus, timeout=2000)
    wheel(spin)  # clicked or tabbed into, it takes the wheel
    assert spin.value() == 1 and item.draft.dims == {"batch_size": 1}


def test_keyboard_reaches_bundle_in_order_and_enter_bundles(qtbot, tmp_path, sample_model):
    """Issue 30 item 10: the focus starts at Open…; Tab reaches Bundle all and Bundle; the smoke-run sizes come
    before the .npy table below them; Enter in a field presses Bundle; Enter closes an error dialog."""
    w = make_window(qtbot, tmp_path)
    assert w.focusWidget() is w.drop_page.open_button
    items = w.open_paths([sample_model, _model(tmp_path / "m", "bravo")])
    wait_idle(qtbot, w)
    w.queue.select(items[0])
    bp = w.bundle_panel
    chain = bp.focus_chain()
    # the real focus chain visits the panel's stops in this order
    order, widget = [], bp.name
    for _ in range(400):
        if widget in chain and widget not in order:
            order.append(widget)
        widget = widget.nextInFocusChain()
        if widget is bp.name:
            break
    expected = [x for x in bp.focus_chain() if x in order]
    assert order == expected
    assert bp.bundle_all_button in order and bp.bundle_button in order
    spin = bp.dims.cellWidget(0, 2)
    assert order.index(spin) < order.index(bp.inputs) < order.index(bp.out_dir)
    # View → Queue (Ctrl+0) brings the keyboard back to the rows from anywhere
    bp.name.setFocus()
    assert w.act_focus_queue.shortcut().toString() == "Ctrl+0"
    w.act_focus_queue.trigger()
    assert w.focusWidget() is w.queue
    # Enter in a field presses the default button
    bp.name.setText("victory")
    bp.version.setText("4.0.0")
    started = []
    bp.bundle_requested.connect(started.append)
    qtbot.keyClick(bp.version, Qt.Key.Key_Return)
    assert started == [False]
    wait_state(qtbot, items[0], ("done", "failed"), timeout=120_000)
    # Enter in an error dialog closes it
    w.bundle_panel.set_output_dir("")
    w.queue.select(items[0])
    bp.version.setText("4.0.1")
    w.start_bundles()
    box = w.last_error
    assert isinstance(box, QMessageBox) and box.isVisible()
    assert box.defaultButton() is box.button(QMessageBox.StandardButton.Close)
    qtbot.keyClick(box, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: not box.isVisible(), timeout=5000)


def test_the_window_fits_the_screen_and_scrolls_what_does_not_fit(qtbot, tmp_path):
    """Issue 30 item 7: on whatever screen the tests run, the window lies within the available geometry, and its
    layout can shrink to 1024×768 at 2× (512×384 logical pixels): the tabs scroll instead."""
    w = make_window(qtbot, tmp_path)
    qtbot.waitExposed(w)
    qtbot.wait(50)
    avail = (w.screen() or QGuiApplication.primaryScreen()).availableGeometry()
    assert avail.contains(w.frameGeometry()) or (w.width() <= avail.width() and w.height() <= avail.height())
    assert w.minimumWidth() <= avail.width() and w.minimumHeight() <= avail.height()
    w.open_paths([_model(tmp_path / "m", "alpha")])
    wait_idle(qtbot, w)
    for tab in range(4):
        w.tabs.setCurrentIndex(tab)
        hint = w.centralWidget().minimumSizeHint()
        assert hint.width() <= 512 and hint.height() <= 384, (tab, hint)


def test_bundle_all_offers_to_skip_rows_bundled_already(qtbot, tmp_path):
    """Issue 30 item 11: Bundle all after one row was bundled asks to skip it, and runs only the others."""
    folder = tmp_path / "models"
    w = make_window(qtbot, tmp_path)
    a, b = w.open_paths([_model(folder, "alpha"), _model(folder, "bravo")])
    wait_idle(qtbot, w)
    w.queue.select(a)
    assert w.start_bundles() == [a]
    wait_state(qtbot, a, ("done", "failed"), timeout=120_000)
    earlier = a.result
    assert w.start_bundles(all_ready=True) == []
    box = w.skip_question
    assert box is not None and "alpha-1.0.0.zip" in box.text() and "1 model" in box.informativeText()
    skip = box.defaultButton()
    assert skip is not None and "Skip" in skip.text()
    skip.click()
    assert b.state in ("queued", "running") and a.state == "done" and a.result is earlier
    wait_state(qtbot, b, ("done", "failed"), timeout=120_000)
    assert b.state == "done" and "Skipped alpha.onnx" in w.log.plain_text()


def test_row_and_batch_settings_are_told_apart(qtbot, tmp_path):
    """Issue 30 item 11: the row's own settings sit in a box titled with the row; the batch settings in a box that
    says they apply to every model; a target set while one row is shown is visibly a batch setting."""
    w = make_window(qtbot, tmp_path)
    bp = w.bundle_panel
    row_widgets = {"name": bp.name, "version": bp.version, "previous": bp.previous, "labels": bp.labels,
                   "dims": bp.dims, "inputs": bp.inputs}  # fmt: skip
    batch_widgets = {"out_dir": bp.out_dir, "target_ort": bp.target_ort, "fix_ir": bp.fix_ir,
                     "ort_format": bp.ort_format, "compress": bp.compress, "set_model_version": bp.set_model_version,
                     "run_smoke": bp.run_smoke, "force": bp.force, "sign_key": bp.sign_key, "license": bp.license,
                     "authors": bp.authors, "homepage": bp.homepage, "prove_ort": bp.prove_ort,
                     "allow_version_not_greater": bp.allow_version_not_greater,
                     "allow_unmatched_labels": bp.allow_unmatched_labels}  # fmt: skip
    assert set(row_widgets) == set(ROW_SETTINGS) and set(batch_widgets) == set(BATCH_SETTINGS)
    row_boxes = (bp.form_box, bp.smoke_box)
    batch_boxes = (bp.options_box, bp.about_box)
    for widget in row_widgets.values():
        assert any(box.isAncestorOf(widget) for box in row_boxes)
    for widget in batch_widgets.values():
        assert any(box.isAncestorOf(widget) for box in batch_boxes)
    assert "every model" in bp.options_box.title().lower() and "every model" in bp.about_box.title().lower()
    assert "every model bundled" in bp.batch_note.text()
    w.open_paths([_model(tmp_path / "m", "alpha")])
    wait_idle(qtbot, w)
    assert bp.form_box.title() == "This model: alpha.onnx"
    assert all(box.toolTip() for box in (bp.fix_ir, bp.ort_format, bp.compress, bp.set_model_version, bp.force,
                                         bp.allow_version_not_greater, bp.allow_unmatched_labels, bp.run_smoke,
                                         bp.prove_ort))  # item 12: every option says what it does
    assert "`" not in w.result_panel.copy_button.toolTip()
    assert bp.target_ort.itemText(0) != ""  # item 12: no blank first entry
    close_dialogs(w)


def test_a_write_failure_is_shown_at_the_zip_stage(qtbot, tmp_path):
    """Issue 30 item 5: an output folder that cannot be made fails at the ZIP stage, not "Validate 0 % — failed";
    no stage shows done that was not."""
    w = make_window(qtbot, tmp_path)
    (item,) = w.open_paths([_model(tmp_path / "m", "alpha")])
    wait_idle(qtbot, w)
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    w.bundle_panel.set_output_dir(str(blocker / "out"))
    assert w.start_bundles() == [item]
    wait_state(qtbot, item, ("done", "failed"), timeout=60_000)
    assert item.state == "failed"
    rp = w.run_panel
    assert rp.stage_state("zip") == "failed" and rp.stage_state("validate") != "failed"
    assert [s for s in rp.rows if rp.stage_state(s) == "failed"] == ["zip"]
    assert "failed" in rp.rows["zip"][2].format()
    close_dialogs(w)


def test_a_cancelled_rerun_keeps_showing_the_earlier_bundle(qtbot, tmp_path):
    """Issue 30 item 12: a re-run cancelled before it started leaves the row Bundled with its earlier ZIP."""
    w = make_window(qtbot, tmp_path)
    (item,) = w.open_paths([_model(tmp_path / "m", "alpha")])
    wait_idle(qtbot, w)
    assert w.start_bundles() == [item]
    wait_state(qtbot, item, ("done", "failed"), timeout=120_000)
    earlier = item.result
    w.bundle_panel.version.setText("1.0.1")
    blocker = _hold(w.bundle_queue)  # hold the bundle queue so the re-run is still queued when Cancel comes
    assert w.start_bundles() == [item]
    assert item.state == "queued"
    w.cancel_bundles()
    blocker.set()
    wait_state(qtbot, item, ("done", "cancelled", "failed"), timeout=60_000)
    assert item.state == "done" and item.result is earlier
    assert w.queue.result_text(item) == earlier.zip_path.name  # the file name; its folder in the tooltip
    assert "keeps its earlier bundle" in w.log.plain_text()
    w.bundle_queue.wait(10_000)


def test_the_apps_own_errors_carry_their_own_code(qtbot, tmp_path):
    """Issue 30 item 12: "Open output folder" before the folder exists says so, and its details do not call it an
    INPUT error."""
    w = make_window(qtbot, tmp_path)
    w.bundle_panel.set_output_dir(str(tmp_path / "not-yet"))
    w.open_output_folder()
    box = w.last_error
    assert box is not None and "does not exist yet" in box.text()
    assert "INPUT" not in box.detailedText()
    close_dialogs(w)


def test_a_new_target_checks_every_model_again(qtbot, tmp_path):
    """Issue 30 items 6 and 11: the Target ONNX Runtime is a batch setting; changing it checks every idle model again
    for it, so the findings, the hints and Bundle follow the target the bundles will be made for."""
    w = make_window(qtbot, tmp_path)
    ir10, plain = w.open_paths([_model(tmp_path / "m", "golf", ir=10), _model(tmp_path / "m", "alpha")])
    wait_idle(qtbot, w)
    w.queue.select(ir10)
    assert ir10.state == "ready" and w.bundle_panel.bundle_button.isEnabled()
    w.bundle_panel.target_ort.setCurrentText("1.")  # still being typed: nothing happens
    assert w.retarget() == []
    w.bundle_panel.target_ort.setCurrentText("1.16")
    assert sorted(i.path.name for i in w.retarget()) == ["alpha.onnx", "golf.onnx"]
    wait_idle(qtbot, w)
    assert ir10.state == "invalid" and plain.state == "ready"
    assert not w.bundle_panel.bundle_button.isEnabled()
    codes = [w.model_panel.findings.cell_text(r, 1) for r in range(w.model_panel.findings.rowCount())]
    assert "ORT_TARGET_UNSUPPORTED" in codes
    w.bundle_panel.fix_ir.setChecked(True)
    assert w.bundle_panel.bundle_button.isEnabled()
    assert w.retarget() == []  # nothing stale any more
    w.bundle_panel.target_ort.setCurrentText("")  # back to none: checked again without a target
    assert len(w.retarget()) == 2
    wait_idle(qtbot, w)
    assert ir10.state == "ready"


def test_a_findings_hint_is_whole_in_its_tooltip_and_a_subject_is_not_repeated(qtbot, tmp_path):
    """Issue 30 item 12: a ZIP that is not a bundle: "no manifest.json", not "… manifest.json (manifest.json)", and
    the How to fix column's text is whole in its tooltip however narrow the column."""
    z = tmp_path / "not-a-bundle.zip"
    with zipfile.ZipFile(z, "w") as zf:
        zf.writestr("hello.txt", "hi")
    w = make_window(qtbot, tmp_path)
    (item,) = w.open_paths([z])
    wait_idle(qtbot, w)
    close_dialogs(w)
    assert item.state == "verify_failed"
    f = w.model_panel.findings
    row = next(r for r in range(f.rowCount()) if f.cell_text(r, 1) == "MANIFEST_MISSING")
    assert f.cell_text(row, 2).count("manifest.json") == 1
    assert f.item(row, 3).toolTip() == f.cell_text(row, 3) != ""


def test_busy_and_cancelled_rows_show_only_themselves(qtbot, walked, tmp_path):
    """The walk's other states: inspecting, verifying, queued and cancelled rows (the queues held so that they stay
    so), each selected among the others, show only themselves."""
    w, items = walked
    bravo = next(i for i in items if _name_of(i) == "bravo")
    delta = next(i for i in items if _name_of(i) == "delta")
    hold_inspect = _hold(w.inspect_queue)
    hold_bundle = _hold(w.bundle_queue)
    (hotel,) = w.open_paths([_model(tmp_path / "more", "hotel")])
    w.queue.select(delta)
    w.verify_selected_with_smoke()
    w.queue.select(bravo)
    assert w.start_bundles() == [bravo]
    everyone = [*w.model.items]
    assert (hotel.state, delta.state, bravo.state) == ("inspecting", "verifying", "queued")
    for item in everyone:
        w.queue.select(item)
        _assert_only(w, item, everyone)
    w.cancel_bundles()
    hold_bundle.set()
    wait_state(qtbot, bravo, ("cancelled",), timeout=30_000)
    hold_inspect.set()
    wait_idle(qtbot, w)
    close_dialogs(w)
    assert bravo.state == "cancelled" and hotel.state == "ready" and delta.state == "verified"
    for item in everyone:
        w.queue.select(item)
        _assert_only(w, item, everyone)


def _hold(queue):
    """Occupy ``queue``'s one thread until the returned event is set."""
    import threading

    from onnxpack.gui.worker import Job

    gate = threading.Event()
    queue.submit(Job(lambda progress, cancel: gate.wait(60), kind="hold"))
    return gate


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_queue_keeps_its_result_column_in_view(qtbot, tmp_path, language):
    """Issue 30 item 12: at the window's default layout the queue's four columns fit its pane (no column behind a
    horizontal scroll bar); what is cut is whole in its tooltip."""
    w = make_window(qtbot, tmp_path)
    w.set_language(language)
    try:
        good, bad = _bundle(tmp_path, "delta"), _bundle(tmp_path, "charlie", tamper=True)
        items = w.open_paths([_model(tmp_path / "m", "a-rather-long-model-name-for-the-queue"), good, bad])
        wait_idle(qtbot, w)
        close_dialogs(w)
        w.resize(1024, 700)
        qtbot.wait(50)
        q = w.queue
        used = sum(q.columnWidth(c) for c in range(3))
        assert used + 24 <= q.viewport().width(), (used, q.viewport().width())  # the Result column has room
        for row, item in enumerate(items):
            assert q.item(row, 0).toolTip() == str(item.path) and q.item(row, 2).toolTip() == q.item(row, 2).text()
    finally:
        w.set_language("en")


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_queue_needs_no_horizontal_scroll_bar_at_1024x768(qtbot, tmp_path, language):
    """The queue's four columns fit its pane at 1024×768 with rows of every kind (a model, a bundled model with its
    ZIP path, a verified and a tampered bundle, a model that failed with a long message): no horizontal scroll bar,
    the Result column whole in view (its text cut in the middle, whole in its tooltip); and still so when the pane is
    made narrower or a vertical scroll bar appears."""
    w = make_window(qtbot, tmp_path)
    w.set_language(language)
    try:
        (done,) = w.open_paths([_model(tmp_path / "m2", "a-bundled-model-with-a-long-name")])
        wait_idle(qtbot, w)
        w.queue.select(done)
        w.bundle_panel.bundle_button.click()
        wait_state(qtbot, done, ("done", "failed"), timeout=60_000)
        assert done.state == "done", done.error
        broken = tmp_path / "broken-model-with-a-long-name.onnx"
        broken.write_bytes(b"not a model at all " * 20)
        w.open_paths([_model(tmp_path / "m", "a-rather-long-model-name-for-the-queue"), _bundle(tmp_path, "delta"),
                      _bundle(tmp_path, "charlie", tamper=True), broken])
        wait_idle(qtbot, w)
        close_dialogs(w)
        assert {str(i.state) for i in w.queue.entries} == {"done", "ready", "verified", "verify_failed", "failed"}
        q = w.queue

        def fits() -> None:
            QApplication.processEvents()
            widths = [q.columnWidth(c) for c in range(4)]
            assert q.horizontalScrollBar().maximum() == 0, widths
            assert sum(widths) <= q.viewport().width(), (widths, q.viewport().width())
            assert widths[3] >= q.result_min() > 0, widths
            for row in range(q.rowCount()):
                result = q.item(row, 3)
                assert result.text() in result.toolTip()  # whole in its tooltip (a ZIP's folder too)

        w.resize(1024, 768)
        qtbot.wait(50)
        fits()
        assert q.columnWidth(3) >= q.RESULT_MIN  # at 1024×768 the Result column has its full floor
        w.splitter.setSizes([260, 764])  # a narrower queue pane: name and status give way, Result keeps its room
        fits()
        w.open_paths([_model(tmp_path / "more", f"model-{i:02d}") for i in range(20)])  # a vertical scroll bar
        wait_idle(qtbot, w)
        qtbot.wait(50)
        assert q.verticalScrollBar().isVisible()
        fits()
    finally:
        w.set_language("en")


def test_a_window_restored_below_the_screen_is_fitted_back_where_it_is_put(qtbot, tmp_path):
    """Seen under Xvfb+openbox: each launch restored the window a title bar lower than the last (the fit moved the
    frame to where the client should be), until its status bar was off a 1024×768 screen. The fit sets the client
    geometry it computed, and a run of fits does not creep."""
    w = make_window(qtbot, tmp_path)
    qtbot.waitExposed(w)
    avail = (w.screen() or QGuiApplication.primaryScreen()).availableGeometry()
    w.setGeometry(avail.x() + 10, avail.bottom() - 100, min(800, avail.width() - 20), min(600, avail.height() - 20))
    QApplication.processEvents()
    w.fit_to_screen()
    QApplication.processEvents()
    first = w.geometry()
    assert avail.contains(first), (first, avail)
    for _ in range(3):
        w.fit_to_screen()
        QApplication.processEvents()
    assert w.geometry() == first


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_tensor_proof_says_the_tensors_were_compared_byte_for_byte(qtbot, tmp_path, language):
    """A model merged from external data and proven by its structure and tensors (no output comparison, as above
    256 MiB) is said to be the original bit for bit with its tensors compared byte for byte (the proof compares
    bytes; the SHA-256 digests are the fingerprint's), in English and Japanese."""
    from onnxpack.core.release.bundle import BundleOptions, build_bundle
    from tests.factory import external_model

    src = external_model(tmp_path / "src", n=4096)
    result = build_bundle(BundleOptions(model=src, out_dir=tmp_path / "rel", version="1.0.0", compare_outputs=False))
    assert result.equal["methods"] == ["structure+tensor-sha256"]
    w = make_window(qtbot, tmp_path)
    try:
        w.set_language(language)
        w.result_panel.show_result(result)
        text = w.result_panel.proof.plain_text()
        tensors = result.equal["weights"]["tensors"]
        if language == "en":
            assert f"all {tensors} tensors compared byte for byte" in text and "SHA-256" not in text, text
        else:
            assert f"全 {tensors} 個のテンソルをバイト単位で比較して一致" in text and "SHA-256" not in text, text
    finally:
        w.set_language("en")
