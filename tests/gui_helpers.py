"""Helpers for the GUI tests: an isolated main window (temporary QSettings, no real file manager)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, QSettings, QStandardPaths, QUrl
from PySide6.QtWidgets import QMessageBox

__all__ = ["close_dialogs", "make_window", "wait_idle", "wait_state"]

# Crash logs and standard locations go to Qt's test folders, never the user's.
QStandardPaths.setTestModeEnabled(True)


def make_window(qtbot: Any, tmp_path: Path, *, show: bool = True) -> Any:
    """A MainWindow with INI settings in tmp_path and output folder tmp_path/out; ``window.opened`` records
    the URLs the window asked to open."""
    from onnxpack.gui.main_window import MainWindow
    from onnxpack.gui.settings import AppSettings

    QCoreApplication.setOrganizationName("onnxpack")  # as gui.app.create_app names the real app
    QCoreApplication.setApplicationName("onnxpack")
    settings = AppSettings(QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat))
    settings.output_dir = str(tmp_path / "out")
    opened: list[QUrl] = []

    def record(url: QUrl) -> bool:
        opened.append(url)
        return True

    from onnxpack.gui import i18n

    app = QCoreApplication.instance()
    assert app is not None
    i18n.install_translators(app, "en")  # as gui.app does at start: English, with its catalogue of plurals
    window = MainWindow(settings, open_url=record)
    window.opened = opened  # type: ignore[attr-defined]
    qtbot.addWidget(window)
    if show:
        window.show()
    return window


def wait_state(qtbot: Any, item: Any, states: tuple[str, ...], timeout: int = 60_000) -> None:
    qtbot.waitUntil(lambda: item.state in states, timeout=timeout)


def wait_idle(qtbot: Any, window: Any, timeout: int = 60_000) -> None:
    qtbot.waitUntil(lambda: not any(i.busy for i in window.queue.entries), timeout=timeout)


def close_dialogs(window: Any) -> list[str]:
    """Close every open message box (tests never block on dialogs); return their texts."""
    texts = []
    for box in window.findChildren(QMessageBox):
        if box.isVisible():
            texts.append(box.text())
            box.done(0)
    return texts
