"""The window's actions on the selected row's bundle (its folder, its command line) and on the app (its log folder,
About), in Qt Linguist's "MainWindow" context as when they were the window's methods."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, Qt, QUrl, qVersion
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QMessageBox

from onnxpack.core import __version__

from . import engine
from .crash import log_dir
from .icons import app_icon
from .messages import WordedInputError
from .model.state import QueueItem

if TYPE_CHECKING:
    from .main_window import MainWindow

__all__ = ["copy_cli_command", "open_folder", "open_log_folder", "open_output_folder", "result_item", "show_about"]

translate = QCoreApplication.translate


def result_item(w: MainWindow) -> QueueItem | None:
    """The selected row when it has a bundle: result actions never act on another row."""
    sel = w.model.selected
    return sel if sel is not None and sel.result is not None else None


def open_output_folder(w: MainWindow) -> None:
    item = result_item(w)
    folder = item.result.zip_path.parent if item is not None and item.result is not None else None
    if folder is None:
        folder = Path(w.bundle_panel.out_dir.text().strip() or w.settings.output_dir)
    if folder.is_dir():
        open_folder(w, folder, translate("MainWindow", "Open output folder"))
    else:
        w.show_error(
            WordedInputError(
                translate("MainWindow", "The output folder %1 does not exist yet.").replace("%1", str(folder)),
                translate("MainWindow", "It is created by the first bundle."),
                code="OUTPUT_FOLDER",
            ),
            translate("MainWindow", "Open output folder"),
        )


def copy_cli_command(w: MainWindow) -> str:
    item = result_item(w)
    if item is None or item.options is None:
        return ""
    command = engine.cli_command(item.options)
    QGuiApplication.clipboard().setText(command)
    w._log(item, translate("MainWindow", "Copied to the clipboard: %1").replace("%1", command))
    w.statusBar().showMessage(translate("MainWindow", "CLI command copied to the clipboard."), 5000)
    return command


def open_log_folder(w: MainWindow) -> None:
    folder = log_dir()
    folder.mkdir(parents=True, exist_ok=True)
    open_folder(w, folder, translate("MainWindow", "Open log folder"))


def open_folder(w: MainWindow, folder: Path, title: str) -> None:
    """Ask the desktop to show ``folder``; say so when nothing on the system can (no silent failure)."""
    if not w.open_url(QUrl.fromLocalFile(str(folder))):
        w.show_error(
            WordedInputError(
                translate("MainWindow", "No program on this system opens folders, so %1 was not opened.").replace(
                    "%1", str(folder)
                ),
                translate("MainWindow", "Open it in your file manager; you can copy the path from this message."),
                code="NO_FILE_MANAGER",
            ),
            title,
        )


def show_about(w: MainWindow) -> None:
    box = QMessageBox(w)
    box.setIconPixmap(app_icon().pixmap(64, 64))
    box.setWindowTitle(translate("MainWindow", "About onnxpack"))
    box.setText(f"<b>onnxpack {__version__}</b>")
    box.setInformativeText(
        translate("MainWindow", "Turns an ONNX model into a verified, self-contained release bundle.\nQt %1, Python %2")
        .replace("%1", qVersion())
        .replace("%2", ".".join(map(str, sys.version_info[:3])))
    )
    box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    box.open()
