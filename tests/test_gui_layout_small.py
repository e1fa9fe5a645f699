"""The window at 1024x768 (the Xvfb session): the Progress tab's Cancel stays in view when its pane is short, the
queue's Status column is as wide as its words, and the Result tab's tables show every column's header."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import onnx
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QSplitter

from onnxpack.gui import i18n
from onnxpack.gui.main_window import TAB_PROGRESS, TAB_RESULT
from onnxpack.gui.model.state import ItemState
from tests import factory
from tests.gui_helpers import make_window, wait_idle


def _window(qtbot, tmp_path: Path, language: str, size: tuple[int, int] = (1024, 768)):
    w = make_window(qtbot, tmp_path)
    i18n.install_translators(QApplication.instance(), language)
    folder = tmp_path / "m"
    folder.mkdir()
    onnx.save(factory.add_model(), str(folder / "alpha.onnx"))
    (item,) = w.open_paths([folder / "alpha.onnx"])
    wait_idle(qtbot, w)
    w.resize(*size)  # the offscreen screen is smaller: the size is set after fit_to_screen, as on a 1024x768 one
    QApplication.processEvents()
    return w, item


@pytest.mark.parametrize("language", ["en", "ja"])
def test_cancel_stays_in_view_when_the_progress_pane_is_short(qtbot, tmp_path, language):
    try:
        w, _ = _window(qtbot, tmp_path, language)
        w.tabs.setCurrentIndex(TAB_PROGRESS)
        page = w.tabs.currentWidget()
        assert isinstance(page, QSplitter)
        page.setSizes([1, 10_000])  # the log given all it can take, as a user may drag it
        QApplication.processEvents()
        button = w.run_panel.cancel_button
        assert button.isVisible()
        assert button.visibleRegion().boundingRect() == button.rect()  # not clipped by a scrolling viewport
        top_left = button.mapTo(page, button.rect().topLeft())
        bottom_right = button.mapTo(page, button.rect().bottomRight())
        assert page.rect().contains(top_left) and page.rect().contains(bottom_right)
    finally:
        i18n.install_translators(QApplication.instance(), "en")


def test_the_status_column_is_as_wide_as_its_words(qtbot, tmp_path):
    try:
        w, item = _window(qtbot, tmp_path, "ja")
        font = w.queue.font()
        font.setPointSizeF(font.pointSizeF() * 2.5)  # a wider CJK font, as in the Xvfb session
        w.queue.setFont(font)
        item.state = ItemState.VERIFY_FAILED  # the longest state's words
        def queue_pane_wide() -> bool:
            """A queue pane with room for them: set (again) until the table's viewport has it. A window shown late
            (a loaded machine, or after many tests in one process) lays the splitter out again and undoes sizes
            set before, and may fit the window to the (smaller) offscreen screen again: its size is set again
            too, and the sizes within what the window gives now."""
            if (w.width(), w.height()) != (1024, 768):
                w.resize(1024, 768)
                QApplication.processEvents()
            total = sum(w.splitter.sizes())
            w.splitter.setSizes([max(700, total - 324), max(0, min(324, total - 700))])
            return w.queue.viewport().width() >= 600

        try:
            qtbot.waitUntil(queue_pane_wide, timeout=10_000)
        except qtbot.TimeoutError:  # say what the window had, for whoever reads a failed run
            screen = w.screen().availableGeometry() if w.screen() is not None else None
            raise AssertionError(f"window {w.width()}x{w.height()}, splitter {w.splitter.sizes()}, queue viewport "
                                 f"{w.queue.viewport().width()}, screen {screen}") from None
        w.queue.refresh(item)
        w.queue._fit_columns()
        q = w.queue
        name_floor = min(q.NAME_WIDTH, max(q.MIN_COLUMN, q.fontMetrics().averageCharWidth() * q.NAME_FLOOR_CHARS))
        room = q.viewport().width() - q.columnWidth(1) - q.result_min() - name_floor
        assert room >= q.sizeHintForColumn(2)  # the pane has room for the words beside the name's floor: the premise
        assert w.queue.columnWidth(2) >= w.queue.sizeHintForColumn(2)
    finally:
        i18n.install_translators(QApplication.instance(), "en")


def test_every_result_table_header_is_in_view(qtbot, tmp_path):
    w, _ = _window(qtbot, tmp_path, "en", (800, 768))
    files = [
        {"path": "README.txt", "role": "readme", "size": 4000, "sha256": "a" * 64},
        {"path": "smoke/outputs/Y.npy", "role": "reference-output", "size": 384, "sha256": "c" * 64},
        {"path": "alpha.onnx", "role": "model", "size": 694, "sha256": "d" * 64},
    ]
    result = SimpleNamespace(zip_path=str(tmp_path / "alpha-1.0.0.zip"), manifest={}, files=files, smoke={},
                             equal={}, release=None)
    w.tabs.setCurrentIndex(TAB_RESULT)
    QApplication.processEvents()
    w.result_panel.show_result(result)  # shown: its columns fit their contents (the hashes' is wide)
    QApplication.processEvents()
    table = w.result_panel.files
    header = table.horizontalHeader()
    assert [table.horizontalHeaderItem(c).text() for c in range(table.columnCount())] == [
        "File", "Role", "Size", "SHA-256"]
    for column in range(table.columnCount()):
        text = table.horizontalHeaderItem(column).text()
        width = header.fontMetrics().horizontalAdvance(text)
        start = header.sectionViewportPosition(column)
        if start + width > table.viewport().width():
            continue  # the column begins out of view (the table scrolls sideways): nothing to show there
        if not header.defaultAlignment() & Qt.AlignmentFlag.AlignLeft:  # centred in its section
            start += (header.sectionSize(column) - width) // 2
        assert start + width <= table.viewport().width(), (text, start, width, table.viewport().width())
