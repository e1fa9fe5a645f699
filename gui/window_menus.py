"""The main window's actions, menus and their texts (in Qt Linguist's "MainWindow" context, as when they were
methods of the window)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QApplication

from . import i18n

if TYPE_CHECKING:
    from .main_window import MainWindow

__all__ = ["TAB_BUNDLE", "TAB_MODEL", "TAB_PROGRESS", "TAB_RESULT", "make_actions", "make_menus", "retranslate_window"]

TAB_MODEL, TAB_BUNDLE, TAB_PROGRESS, TAB_RESULT = range(4)
translate = QCoreApplication.translate


def _tab_switcher(w: MainWindow, index: int) -> Callable[[], None]:
    """A slot for QAction.triggered that shows tab ``index`` (a ``lambda i=i:`` would get ``checked`` as i)."""

    def show() -> None:
        w.tabs.setCurrentIndex(index)

    return show


Shortcut = QKeySequence | QKeySequence.StandardKey | str | None


def make_actions(w: MainWindow) -> None:
    """The window's actions (File, View, Language and Help), as attributes of ``w``: ``w.act_open``, …"""

    def action(slot: Callable[..., Any], shortcut: Shortcut = None) -> QAction:
        a = QAction(w)
        if shortcut is not None:
            a.setShortcut(QKeySequence(shortcut))
        a.triggered.connect(slot)
        w.addAction(a)
        return a

    w.act_open = action(w.open_dialog, QKeySequence.StandardKey.Open)
    w.act_open_folder = action(w.open_folder_dialog, "Ctrl+Shift+O")
    w.act_sample = action(w.open_sample)
    w.act_locate_data = action(w.locate_data_file)
    w.act_bundle = action(lambda: w.start_bundles(False), "Ctrl+B")
    w.act_bundle_all = action(lambda: w.start_bundles(True), "Ctrl+Shift+B")
    w.act_cancel = action(w.cancel_bundles, "Esc")
    w.act_cancel_all = action(w.cancel_all_bundles, "Shift+Esc")
    w.act_verify_smoke = action(w.verify_selected_with_smoke)
    w.act_split = action(w.split_selected_release)  # a release folder's models, each a row of its own
    w.act_remove = action(w.remove_selected, QKeySequence.StandardKey.Delete)
    w.act_clear = action(w.clear_finished)
    w.act_quit = action(w.close, QKeySequence.StandardKey.Quit)
    w.act_copy_log = action(w.log.copy, "Ctrl+Shift+C")
    w.act_copy_cli = action(w.copy_cli_command)
    w.act_open_out = action(w.open_output_folder)
    w.act_tabs = [action(_tab_switcher(w, i), f"Ctrl+{i + 1}") for i in range(4)]
    w.act_focus_queue = action(w.focus_queue, "Ctrl+0")  # keyboard users get back to the rows at once
    w.act_logs = action(w.open_log_folder)
    w.act_about = action(w.show_about)
    w.act_about_qt = action(QApplication.aboutQt)
    w.lang_group = QActionGroup(w)
    w.lang_actions = {}
    for code in ("system", *i18n.LANGUAGES):
        a = QAction(w)
        a.setCheckable(True)
        a.setData(code)
        w.lang_group.addAction(a)
        w.lang_actions[code] = a
    w.lang_actions.get(w.settings.language, w.lang_actions["system"]).setChecked(True)
    w.lang_group.triggered.connect(lambda a: w.set_language(str(a.data())))


def make_menus(w: MainWindow) -> None:
    """The menu bar of ``w``, from its actions."""
    bar = w.menuBar()
    w.menu_file = bar.addMenu("")
    for a in (w.act_open, w.act_open_folder, w.act_sample, w.act_locate_data, w.act_split):
        w.menu_file.addAction(a)
    w.menu_file.addSeparator()
    for a in (w.act_bundle, w.act_bundle_all, w.act_cancel, w.act_cancel_all, w.act_verify_smoke):
        w.menu_file.addAction(a)
    w.menu_file.addSeparator()
    for a in (w.act_open_out, w.act_copy_cli, w.act_copy_log):
        w.menu_file.addAction(a)
    w.menu_file.addSeparator()
    w.menu_file.addAction(w.act_remove)
    w.menu_file.addAction(w.act_clear)
    w.menu_file.addSeparator()
    w.menu_file.addAction(w.act_quit)
    w.menu_view = bar.addMenu("")
    w.menu_view.addAction(w.act_focus_queue)
    for a in w.act_tabs:
        w.menu_view.addAction(a)
    w.menu_lang = bar.addMenu("")
    for a in w.lang_actions.values():
        w.menu_lang.addAction(a)
    w.menu_help = bar.addMenu("")
    w.menu_help.addAction(w.act_logs)
    w.menu_help.addSeparator()
    w.menu_help.addAction(w.act_about)
    w.menu_help.addAction(w.act_about_qt)


def retranslate_window(w: MainWindow) -> None:
    """The texts of ``w``'s title, menus, actions and tabs in the current language."""
    w.setWindowTitle(translate("MainWindow", "onnxpack — ONNX release bundler"))
    w.menu_file.setTitle(translate("MainWindow", "&File"))
    w.menu_view.setTitle(translate("MainWindow", "&View"))
    w.menu_lang.setTitle(translate("MainWindow", "&Language"))
    w.menu_help.setTitle(translate("MainWindow", "&Help"))
    w.act_open.setText(translate("MainWindow", "&Open models or bundles…"))
    w.act_open_folder.setText(translate("MainWindow", "Open model or release &folder…"))
    w.act_split.setText(translate("MainWindow", "Bundle each model of the release on i&ts own"))
    w.act_split.setToolTip(
        translate(
            "MainWindow",
            "Replace the selected release row by one row per model: each model is then "
            "bundled into a ZIP of its own, without the release's other files",
        )
    )
    w.act_sample.setText(translate("MainWindow", "Open the &sample model"))
    w.act_locate_data.setText(translate("MainWindow", "Locate &data file…"))
    w.act_locate_data.setToolTip(
        translate("MainWindow", "Choose the external data file of the selected model when it is not beside the model")
    )
    w.name_bundle_action(w.model.selected)
    w.act_bundle_all.setText(translate("MainWindow", "Bundle &all ready models"))
    w.act_cancel.setText(translate("MainWindow", "&Cancel running bundle"))
    w.act_cancel.setToolTip(translate("MainWindow", "Stop the bundle that is running; the queued ones still run"))
    w.act_cancel_all.setText(translate("MainWindow", "Cancel all bundl&es"))
    w.act_cancel_all.setToolTip(
        translate("MainWindow", "Stop the running bundle and take every queued one off the queue")
    )
    w.act_verify_smoke.setText(translate("MainWindow", "&Verify bundle with a smoke run"))
    w.act_open_out.setText(translate("MainWindow", "Open o&utput folder"))
    w.act_copy_cli.setText(translate("MainWindow", "Copy CLI co&mmand"))
    w.act_copy_log.setText(translate("MainWindow", "Copy &log"))
    w.act_remove.setText(translate("MainWindow", "&Remove selected row"))
    w.act_clear.setText(translate("MainWindow", "Clear finis&hed rows"))
    w.act_quit.setText(translate("MainWindow", "&Quit"))
    for a, text in zip(
        w.act_tabs,
        (
            translate("MainWindow", "&Model"),
            translate("MainWindow", "&Bundle"),
            translate("MainWindow", "&Progress"),
            translate("MainWindow", "&Result"),
        ),
        strict=True,
    ):
        a.setText(text)
    w.act_focus_queue.setText(translate("MainWindow", "&Queue"))
    w.act_logs.setText(translate("MainWindow", "Open &crash-log folder"))
    w.act_about.setText(translate("MainWindow", "&About onnxpack"))
    w.act_about_qt.setText(translate("MainWindow", "About &Qt"))
    w.lang_actions["system"].setText(translate("MainWindow", "&System default"))
    for code, name in i18n.LANGUAGES.items():
        w.lang_actions[code].setText(name)  # each language in its own script, never translated
    w.tabs.setTabText(TAB_MODEL, translate("MainWindow", "Model"))
    w.tabs.setTabText(TAB_BUNDLE, translate("MainWindow", "Bundle"))
    w.tabs.setTabText(TAB_PROGRESS, translate("MainWindow", "Progress and log"))
    w.tabs.setTabText(TAB_RESULT, translate("MainWindow", "Result"))
    w.splitter.setAccessibleName(translate("MainWindow", "Work area"))
    w.update_status()
