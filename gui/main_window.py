"""The main window: drop models or bundles, inspect them, fill in the bundle form, run and watch the queue."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt, QTimer, QUrl, Signal
from PySide6.QtGui import (
    QAction,
    QActionGroup,
    QCloseEvent,
    QDesktopServices,
    QDragEnterEvent,
    QDragMoveEvent,
    QDropEvent,
    QGuiApplication,
    QMoveEvent,
    QShowEvent,
)
from PySide6.QtWidgets import (
    QApplication,
    QLabel,
    QMainWindow,
    QMenu,
    QMessageBox,
    QSplitter,
    QStackedWidget,
    QTabWidget,
    QWidget,
)

from onnxpack.core.errors import OnnxpackError

if TYPE_CHECKING:  # for mypy only (importing core.verify loads onnx)
    pass

from . import engine, i18n, window_results
from .dialogs import error_box
from .icons import app_icon
from .messages import WordedError, WordedInputError
from .model.rowview import RowPanel
from .model.session import Session
from .model.state import ItemState, JobKind, Kind, QueueItem, fit_window
from .settings import AppSettings
from .widgets.bundle_panel import BundlePanel
from .widgets.common import DropOverlay, Retranslatable
from .widgets.drop_page import DropPage
from .widgets.model_panel import ModelPanel
from .widgets.queue_view import QueueTable
from .widgets.run_panel import LogPane, ResultPanel, RunPanel
from .window_bundling import Bundler
from .window_jobs import JobRouter
from .window_menus import TAB_MODEL, TAB_PROGRESS, TAB_RESULT, make_actions, make_menus, retranslate_window
from .window_rows import Rows
from .window_view import WindowView
from .worker import JobQueue

__all__ = ["MainWindow"]

RETARGET_DELAY_MS = 600  # after the last change of the Target ONNX Runtime field, the models are checked again


class MainWindow(Retranslatable, QMainWindow):
    """onnxpack's main window.

    ``settings`` isolates persistent state (tests pass an INI-backed one); ``open_url`` replaces
    QDesktopServices.openUrl (tests record the call instead of launching a file manager).
    Signals for observers and tests: ``error_shown(QMessageBox)``, ``item_changed(QueueItem)``.
    """

    error_shown = Signal(object)
    item_changed = Signal(object)
    # made by window_menus.make_actions / make_menus
    act_tabs: list[QAction]
    lang_group: QActionGroup
    lang_actions: dict[str, QAction]
    menu_file: QMenu
    menu_view: QMenu
    menu_lang: QMenu
    menu_help: QMenu
    act_about: QAction
    act_about_qt: QAction
    act_bundle: QAction
    act_bundle_all: QAction
    act_cancel: QAction
    act_cancel_all: QAction
    act_clear: QAction
    act_copy_cli: QAction
    act_copy_log: QAction
    act_focus_queue: QAction
    act_locate_data: QAction
    act_logs: QAction
    act_open: QAction
    act_open_folder: QAction
    act_open_out: QAction
    act_quit: QAction
    act_remove: QAction
    act_sample: QAction
    act_split: QAction
    act_verify_smoke: QAction

    def __init__(
        self,
        settings: AppSettings | None = None,
        *,
        open_url: Callable[[QUrl], bool] | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.settings = settings or AppSettings()
        self.open_url = open_url or QDesktopServices.openUrl
        self.inspect_queue = JobQueue(self)
        self.bundle_queue = JobQueue(self)
        self.session = Session(WindowView(self), WordedError, WordedInputError)  # the controller logic, without Qt
        self.jobs = JobRouter(self)  # each job's signals to the session
        self.bundler = Bundler(self)
        self.rows = Rows(self)
        # the window's actions on rows are the rows' (gui/window_rows.py)
        r = self.rows
        self.open_paths, self.open_dialog, self.open_sample = r.open_paths, r.open_dialog, r.open_sample
        self.open_folder_dialog, self.retarget = r.open_folder_dialog, r.retarget
        self.split_selected_release = r.split_selected_release
        self.locate_data_file, self.set_data_dir, self.warm_up = r.locate_data_file, r.set_data_dir, r.warm_up
        self.verify_selected_with_smoke, self.remove_selected = r.verify_selected_with_smoke, r.remove_selected
        self.clear_finished, self._remove = r.clear_finished, r.remove
        self._release_model_chosen = r.release_model_chosen
        # the window's bundle actions are the bundler's (gui/window_bundling.py)
        self.start_bundles, self.cancel_bundles = self.bundler.start, self.bundler.cancel_running
        self.cancel_all_bundles, self._previous_changed = self.bundler.cancel_all, self.bundler.previous_changed
        self.model = self.session.model  # the state every panel renders (gui/model/state.py)
        self.last_error: QMessageBox | None = None
        self._pending_errors: list[tuple[str, OnnxpackError]] = []
        self._fitted_shown = False
        self._fitted_framed = False  # fitted again once the window manager's frame was known (see moveEvent)
        self._syncing = False  # the table's selection is being set from the model: not a user's selection
        self.skip_question: QMessageBox | None = None  # Bundle all's "skip the rows bundled already?"

        self.setWindowIcon(app_icon())
        self.setAcceptDrops(True)

        self.drop_page = DropPage()
        self.drop_page.open_button.clicked.connect(self.open_dialog)
        self.drop_page.sample_button.clicked.connect(self.open_sample)
        self.queue = QueueTable(self.model)
        self.queue.itemSelectionChanged.connect(self._selection_changed)
        self.queue.menu_requested.connect(self._queue_menu)
        self.model_panel = ModelPanel()
        self.model_panel.release_model_chosen.connect(self._release_model_chosen)
        self.model_panel.split_requested.connect(self.split_selected_release)
        self.bundle_panel = BundlePanel(self.settings)
        self.bundle_panel.bundle_requested.connect(self.start_bundles)
        self.bundle_panel.previous_changed.connect(self._previous_changed)
        self.bundle_panel.fix_ir.toggled.connect(self.render_selected)  # the gate depends on it
        # A new Target ONNX Runtime applies to every model: their checks are made again for it once typing stops.
        self._retarget_timer = QTimer(self)
        self._retarget_timer.setSingleShot(True)
        self._retarget_timer.setInterval(RETARGET_DELAY_MS)
        self._retarget_timer.timeout.connect(self.retarget)
        self.bundle_panel.target_ort.currentTextChanged.connect(lambda _text: self._retarget_timer.start())
        self.run_panel = RunPanel()
        self.run_panel.cancel_requested.connect(self.cancel_bundles)
        self.log = LogPane()
        self.result_panel = ResultPanel()
        self.result_panel.open_folder_requested.connect(self.open_output_folder)
        self.result_panel.copy_command_requested.connect(self.copy_cli_command)

        progress_page = QSplitter(Qt.Orientation.Vertical)
        progress_page.addWidget(self.run_panel)  # its stages scroll inside it; its Cancel button stays in view
        progress_page.addWidget(self.log)
        progress_page.setStretchFactor(1, 1)
        progress_page.setChildrenCollapsible(False)
        self.tabs = QTabWidget()
        self.tabs.addTab(self.model_panel, "")
        self.tabs.addTab(self.bundle_panel, "")
        self.tabs.addTab(progress_page, "")
        self.tabs.addTab(self.result_panel, "")
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.addWidget(self.queue)
        self.splitter.addWidget(self.tabs)
        self.splitter.setStretchFactor(1, 3)
        self.splitter.setSizes([380, 720])
        self.splitter.setChildrenCollapsible(False)
        self.stack = QStackedWidget()
        self.stack.addWidget(self.drop_page)
        self.stack.addWidget(self.splitter)
        self.setCentralWidget(self.stack)
        self.drop_overlay = DropOverlay(self.stack)  # shown while files are dragged over the window
        self.status_label = QLabel()
        self.statusBar().addPermanentWidget(self.status_label)

        # every panel renders the selected row through the one protocol (gui/model/rowview.py)
        self.panels: list[RowPanel] = [self.model_panel, self.bundle_panel, self.result_panel, self.log,
                                       self.run_panel]
        make_actions(self)
        make_menus(self)
        self.retranslate()
        geometry, state = self.settings.window_state()
        if geometry is not None:
            self.restoreGeometry(geometry)
        else:
            self.resize(1100, 720)
        if state is not None:
            self.restoreState(state)
        self.fit_to_screen()
        self._update_actions()
        self.drop_page.open_button.setFocus()  # the keyboard starts at Open…

    def fit_to_screen(self) -> None:
        """Keep the window inside the screen's available geometry: never larger than it, and a
        minimum size that fits it too; what does not fit scrolls inside the tabs."""
        screen = self.screen() or QGuiApplication.primaryScreen()
        if screen is None:
            return
        avail = screen.availableGeometry()
        inner, outer = self.geometry(), self.frameGeometry()  # the window manager's frame, once it is known
        frame = (inner.x() - outer.x(), inner.y() - outer.y(), outer.width() - inner.width(),
                 outer.height() - inner.height())
        x, y, w, h, min_w, min_h = fit_window(
            (inner.x(), inner.y(), inner.width(), inner.height()),
            (avail.x(), avail.y(), avail.width(), avail.height()),
            frame,
        )
        self.setMinimumSize(min_w, min_h)
        # The client area itself (on X11 Qt asks for static gravity): under Xvfb+openbox, move() of the frame position
        # was taken as the client's, so each fit and each launch put the window a title bar lower, off the screen.
        self.setGeometry(x, y, w, h)

    def moveEvent(self, event: QMoveEvent) -> None:
        """The first move after the window manager decorated the window (its frame now known) fits it again: seen
        under Xvfb+openbox, a restored geometry was decorated after the timed fits of showEvent, and each launch
        opened the window a title bar lower, its status bar off the bottom of a 1024×768 screen."""
        super().moveEvent(event)
        if self._fitted_shown and not self._fitted_framed and self.frameGeometry() != self.geometry():
            self._fitted_framed = True
            QTimer.singleShot(0, self.fit_to_screen)

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if not self._fitted_shown:  # the frame is known once the window manager has decorated the window
            self._fitted_shown = True
            QTimer.singleShot(0, self.fit_to_screen)
            QTimer.singleShot(400, self.fit_to_screen)

    def focus_queue(self) -> None:
        """View → Queue (Ctrl+0): the keyboard goes to the rows (the empty window: to Open…)."""
        if self.stack.currentWidget() is self.splitter:
            self.queue.setFocus(Qt.FocusReason.ShortcutFocusReason)
            if self.model.selected is None and self.model.items:
                self._select(self.model.items[0])
        else:
            self.drop_page.open_button.setFocus(Qt.FocusReason.ShortcutFocusReason)

    # --- actions and menus ----------------------------------------------------------------
    # --- language -------------------------------------------------------------------------
    def retranslate(self) -> None:
        retranslate_window(self)
        # the selected row's own words (why it cannot be bundled, its failure, its result) in the new language too
        self.render_selected()

    def set_language(self, code: str) -> bool:
        """Switch the UI language live ('system', 'en', 'ja') and remember the choice."""
        self.settings.language = code
        if code in self.lang_actions:
            self.lang_actions[code].setChecked(True)
        app = QApplication.instance()
        return i18n.install_translators(app, code) if app is not None else False

    # --- opening --------------------------------------------------------------------------
    @staticmethod
    def _drop_action(event: QDragEnterEvent | QDragMoveEvent | QDropEvent) -> Qt.DropAction | None:
        """Copy, else Link: never Move, which tells the source (a file manager) it may delete the originals.
        None when the source offers neither."""
        offered = event.possibleActions()
        for action in (Qt.DropAction.CopyAction, Qt.DropAction.LinkAction):
            if offered & action:
                return action
        return None

    def _accept_drop(self, event: QDragEnterEvent | QDragMoveEvent | QDropEvent) -> bool:
        action = self._drop_action(event)
        if action is None or not any(u.isLocalFile() for u in event.mimeData().urls()):
            event.ignore()
            return False
        event.setDropAction(action)
        event.accept()
        return True

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if self._accept_drop(event):
            self.drop_overlay.show_over(self.tr("Drop models, model folders or bundles to open them"))

    def dragMoveEvent(self, event: QDragMoveEvent) -> None:
        self._accept_drop(event)

    def dragLeaveEvent(self, event: Any) -> None:
        self.drop_overlay.hide()
        super().dragLeaveEvent(event)

    def dropEvent(self, event: QDropEvent) -> None:
        self.drop_overlay.hide()
        if not self._accept_drop(event):
            return
        paths = [Path(u.toLocalFile()) for u in event.mimeData().urls() if u.isLocalFile()]
        self.open_paths(paths)

    def queue_menu_actions(self, item: QueueItem) -> list[QAction]:
        """What the queue's context menu offers for ``item`` (selected first): the File menu's actions that apply."""
        if self.model.selected is not item:
            self._select(item)
        return [a for a in (self.act_bundle, self.act_split, self.act_verify_smoke, self.act_locate_data,
                            self.act_remove) if a.isEnabled()]

    def _queue_menu(self, item: QueueItem, where: Any) -> None:

        actions = self.queue_menu_actions(item)
        if actions:
            menu = QMenu(self)
            menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
            menu.addActions(actions)
            menu.popup(where)

    # --- bundling -------------------------------------------------------------------------
    def _store_shown_draft(self) -> None:
        """The form's edits go back into the draft of the row it shows (if that row is still queued)."""
        item = self.bundle_panel.draft_owner
        if item is not None and item in self.model.items:
            self.bundle_panel.save_draft()

    def _fix_ir(self) -> bool:
        return self.bundle_panel.fix_ir.isChecked()

    # --- result actions (gui/window_results.py) ----------------------------------------------
    def open_output_folder(self) -> None:
        window_results.open_output_folder(self)

    def copy_cli_command(self) -> str:
        return window_results.copy_cli_command(self)

    def open_log_folder(self) -> None:
        window_results.open_log_folder(self)

    def show_about(self) -> None:
        window_results.show_about(self)

    # --- rows -----------------------------------------------------------------------------
    def _log(self, item: QueueItem | None, line: str) -> None:
        """A log line about ``item``: the log can show the selected row's lines alone."""
        self.log.append(line, item.id if item is not None else None)

    # --- errors ---------------------------------------------------------------------------
    def show_error(self, err: OnnxpackError, title: str) -> QMessageBox | None:
        """Open an error dialog without blocking. While one is open, later errors wait their turn."""
        if self.last_error is not None and self.last_error.isVisible():
            self._pending_errors.append((title, err))
            return None
        box = error_box(self, title, err)
        box.finished.connect(self._next_error)
        self.last_error = box
        box.open()
        self.error_shown.emit(box)
        return box

    def _next_error(self) -> None:
        self.last_error = None
        if self._pending_errors:
            title, err = self._pending_errors.pop(0)
            QTimer.singleShot(0, lambda: self.show_error(err, title))

    def show_crash(self, summary: str, details: str, log_path: str) -> None:
        """Slot for the exception hook: an unexpected error, reported with its log file."""
        hint = self.tr("This is a bug in onnxpack. Please report it with the log file: %1").replace(
            "%1", log_path or self.tr("(the log could not be written)")
        )
        err = WordedError(self.tr("Unexpected error: %1").replace("%1", summary), hint, code="INTERNAL",
                            details=details)
        self.log.append(err.message)
        self.show_error(err, self.tr("Unexpected error"))

    # --- rendering: every panel from the selected row alone ---------------------------------------
    def _set_state(self, item: QueueItem, state: ItemState) -> None:
        self.model.set_state(item, state)
        if item in self.model.items:
            self.queue.refresh(item)
        if self.model.selected is item:  # observers of item_changed see the panels of its new state
            self.render_selected()
        self.item_changed.emit(item)
        self._update_actions()

    def _select(self, item: QueueItem | None) -> None:
        """Select ``item`` in the model and the table, and render it."""
        self._syncing = True
        try:
            self.queue.select(item)
        finally:
            self._syncing = False
        self.model.select(item)
        self.render_selected()

    def _selection_changed(self) -> None:
        if self._syncing:
            return
        self.model.select(self.queue.selected())
        self.render_selected()

    def _refresh_views(self, item: QueueItem) -> None:
        if item in self.model.items:
            self.queue.refresh(item)
        if self.model.selected is item:
            self.render_selected()
        self._update_actions()

    def render_selected(self) -> None:
        """Re-render every panel from the selected row alone (or clear them when none is selected). The form's
        edits are in the row's draft already (saved as they are made), so nothing typed is lost."""
        row = self.session.row_view(self.model.selected, self._fix_ir())
        for panel in self.panels:
            panel.render_row_view(row)
        self._update_actions()

    def _update_actions(self) -> None:
        sel = self.model.selected
        fix_ir = self._fix_ir()
        ready = self.model.ready(fix_ir)
        bundling = any(i.job is not None and i.job.kind == JobKind.BUNDLE for i in self.model.items)
        can_one = sel is not None and self.model.can_bundle(sel, fix_ir)
        self.act_bundle.setEnabled(can_one)
        self.name_bundle_action(sel)
        self.act_bundle_all.setEnabled(len(ready) > 0)
        self.act_cancel.setEnabled(bundling)
        self.act_cancel_all.setEnabled(bundling)
        self.act_verify_smoke.setEnabled(sel is not None and sel.spec.verifies_with_smoke and not sel.busy)
        self.act_locate_data.setEnabled(sel is not None and sel.spec.locates_data and not sel.busy)
        self.act_split.setEnabled(sel is not None and sel.release is not None and not sel.busy)
        self.act_remove.setEnabled(sel is not None)
        has_result = window_results.result_item(self) is not None
        self.act_copy_cli.setEnabled(has_result)
        self.act_open_out.setEnabled(True)
        self.bundle_panel.set_ready_count(len(ready))
        self.bundle_panel.bundle_button.setEnabled(can_one)
        self.bundle_panel.set_blocked_reason(self.session.blocked_reason(sel, fix_ir))
        self.update_status()

    def name_bundle_action(self, sel: QueueItem | None) -> None:
        """File → Bundle names what the selected row bundles: a release row's models go into one ZIP."""
        release = sel is not None and sel.kind is Kind.RELEASE
        self.act_bundle.setText(self.tr("&Bundle selected release") if release else self.tr("&Bundle selected model"))

    # --- what the session asks of the window (gui/window_view.py) ------------------------------
    def show_tab(self, name: str) -> None:
        self.tabs.setCurrentIndex({"model": TAB_MODEL, "progress": TAB_PROGRESS, "result": TAB_RESULT}[name])

    def update_status(self) -> None:
        self.status_label.setText(self.session.status_text())

    def count_text(self, key: str, n: int) -> str:
        """The session's words that depend on a count (lupdate reads a count only in ``self.tr``)."""
        return {
            "member findings": self.tr("%1: %n finding(s).", "", n),
            "inspected": self.tr("Inspected %1: %n finding(s).", "", n),
            "exist": self.tr("%n bundle(s) exist already: %1", "", n),
            "off release": self.tr("Bundling is off for this release: %n error finding(s) must be fixed first.", "", n),
            "off model": self.tr("Bundling is off for this model: %n error finding(s) must be fixed first.", "", n),
            "items": self.tr("%n item(s) · %1 running · %2 queued · %3 bundled", "", n),
            "checking": self.tr("%n row(s) being checked", "", n),
            "warnings": self.tr("%n row(s) with warnings", "", n),
            "bundled already": self.tr("%n row(s) were bundled already: %1", "", n),
            "skip others": self.tr("Skip them and bundle the other %n model(s)?", "", n),
            "queued each": self.tr("%1: %n model(s), each queued on its own.", "", n),
            "own rows": self.tr("%1: %n model(s), each on its own row.", "", n),
        }[key]

    def data_file_chosen(self, item: QueueItem, path: Path) -> bool:
        return self.session.data_file_chosen(item, path)

    def referenced_data_files(self, item: QueueItem) -> list[str]:
        return self.session.referenced_data_files(item)

    def data_file_prompt(self, item: QueueItem) -> tuple[str, str]:
        return self.session.data_file_prompt(item)

    def running_bundle(self) -> QueueItem | None:
        return self.session.running_bundle(self.bundle_queue.jobs)

    def _options_for(self, item: QueueItem, shared: dict[str, Any]) -> Any:
        options = engine.make_bundle_options(**self.session.bundle_arguments(item, shared))
        engine.validated(options)  # the engine's own check and words (BAD_VERSION…), as the bundle run's
        return options

    # --- shutdown -------------------------------------------------------------------------
    def closeEvent(self, event: QCloseEvent) -> None:
        """Cancel everything, wait for the workers (their cleanup removes partial output), save layout."""
        self.settings.save_window_state(self.saveGeometry(), self.saveState())
        self.inspect_queue.cancel_all()
        self.bundle_queue.cancel_all()
        self.inspect_queue.wait(10_000)
        self.bundle_queue.wait(10_000)
        super().closeEvent(event)
