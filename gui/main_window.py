"""The main window: drop models or bundles, inspect them, fill in the bundle form, run and watch the queue."""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from PySide6.QtCore import QCoreApplication, Qt, QTimer, QUrl, Signal, qVersion
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
    QFileDialog,
    QLabel,
    QMainWindow,
    QMenu,
    QMessageBox,
    QSplitter,
    QStackedWidget,
    QTabWidget,
    QWidget,
)

from onnxpack.core import __version__
from onnxpack.core.errors import OnnxpackError
from onnxpack.core.progress import ProgressEvent
from onnxpack.core.resources import SAMPLE_MODEL, resource_path

if TYPE_CHECKING:  # for mypy only (importing core.verify loads onnx)
    from onnxpack.core.release.verify import VerifyReport

from . import engine, i18n
from .crash import log_dir
from .dialogs import error_box
from .hints import gui_hint, tick
from .icons import app_icon
from .messages import WordedError, WordedInputError, gui_message, stage_detail
from .model.rowview import RowPanel
from .model.session import Session
from .model.state import BatchPlan, ItemState, JobKind, Kind, QueueItem, fit_window, skipped_stages
from .settings import AppSettings
from .widgets.bundle_panel import BundlePanel
from .widgets.common import DropOverlay, Retranslatable
from .widgets.drop_page import DropPage
from .widgets.model_panel import ModelPanel, finding_hint, release_counts
from .widgets.queue_view import QueueTable
from .widgets.run_panel import LogPane, ResultPanel, RunPanel
from .window_menus import TAB_MODEL, TAB_PROGRESS, TAB_RESULT, make_actions, make_menus, retranslate_window
from .worker import Job, JobQueue

__all__ = ["MainWindow"]

RETARGET_DELAY_MS = 600  # after the last change of the Target ONNX Runtime field, the models are checked again
_TARGET = re.compile(r"\d+\.\d+(\.\d+)?")


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
        self.session = Session(self, WordedError, WordedInputError)  # the controller logic, without Qt (gui/model)
        self.model = self.session.model  # the state every panel renders (gui/model/state.py)
        self.last_error: QMessageBox | None = None
        self._pending_errors: list[tuple[str, OnnxpackError]] = []
        self._warmed = False  # the engine's modules imported on the inspection thread (warm_up)
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
        self.bundle_panel.fix_ir.toggled.connect(self.render_selected)  # the gate depends on it (issue 30 item 6)
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
        self.drop_page.open_button.setFocus()  # the keyboard starts at Open… (issue 30 item 10)

    def fit_to_screen(self) -> None:
        """Keep the window inside the screen's available geometry (issue 30 item 7): never larger than it, and a
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
        """Copy, else Link: never Move, which tells the source (a file manager) it may delete the originals
        (issue 30 item 8). None when the source offers neither."""
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

    def open_dialog(self) -> None:
        files, _ = QFileDialog.getOpenFileNames(
            self,
            self.tr("Open models or bundles"),
            self.settings.open_dir,
            self.tr("Models and bundles (*.onnx *.ort *.zip);;All files (*)"),
        )
        if files:
            self.settings.open_dir = str(Path(files[0]).parent)
            self.open_paths([Path(f) for f in files])

    def open_folder_dialog(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, self.tr("Open model folder"), self.settings.open_dir)
        if folder:
            self.settings.open_dir = folder
            self.open_paths([Path(folder)])

    def open_sample(self) -> None:
        self.open_paths([resource_path(*SAMPLE_MODEL)])

    def warm_up(self) -> Job | None:
        """Import the engine on the inspection thread now that the window is up (see engine.warm_up_job); once."""
        if self._warmed:
            return None
        self._warmed = True
        return self.inspect_queue.submit(Job(engine.warm_up_job(), kind=JobKind.WARM_UP))

    def open_paths(self, paths: Iterable[Path | str]) -> list[QueueItem]:
        """Queue each path: models are inspected, bundles verified; an already listed path is refreshed."""
        added: list[QueueItem] = []
        expanded = [Path(raw).absolute() for raw in paths]
        for path in expanded:
            existing = self.model.find(path)
            if existing is not None and existing.busy:
                continue
            item = existing
            if item is None:
                item = self.model.add(path, self.session.kind_of(path))
                self.queue.add(item)
            item.error = None
            item.validation = item.report = item.release = None
            self._open_item(item)
            added.append(item)
        if added:
            self.stack.setCurrentIndex(1)
            self._select(added[0])
            self.tabs.setCurrentIndex(TAB_MODEL)
            self.queue.setFocus()
        self._update_actions()
        return added

    def _open_item(self, item: QueueItem, smoke: bool = False) -> None:
        """Run the item kind's opening job (a model is inspected, a bundle verified)."""
        openers: dict[JobKind, Callable[[QueueItem], None]] = {
            JobKind.INSPECT: self._inspect,
            JobKind.SCAN: self._scan,
            JobKind.VERIFY: lambda i: self._verify(i, smoke),
        }
        openers[JobKind(item.spec.opening_job)](item)

    def _scan(self, item: QueueItem) -> None:
        """Read a release folder (its models, assets and what is left out) and check each model, off the GUI thread."""
        self._set_state(item, ItemState.INSPECTING)
        self._log(item, self.tr("Reading the release folder %1").replace("%1", str(item.path)))
        target = self.settings.target_ort or None
        item.inspected_target = target
        job = Job(engine.release_job(item.path, target), kind=JobKind.SCAN)
        self.inspect_queue.submit(self._connect(job, item))
        self.warm_up()

    def _release_model_chosen(self, index: int) -> None:
        """The Model tab shows another model of the selected release (its own overview, interface and findings)."""
        item = self.model.selected
        if item is not None and item.release is not None and index != item.shown_model:
            item.shown_model = index
            self.render_selected()

    def split_selected_release(self) -> list[QueueItem]:
        """File → Bundle each model of the release on its own: the release row gives way to one row per model (each
        bundled into a ZIP of its own, as before releases of several files), checked already by the release's
        reading."""
        item = self.model.selected
        if item is None or item.release is None or item.busy:
            return []
        scan = item.release
        index = self.model.items.index(item)
        self._remove(item)
        rows: list[QueueItem] = []
        for model, val in zip(scan.tree.models, scan.validations, strict=True):
            path = Path(model.path)
            existing = self.model.find(path)
            if existing is not None:
                rows.append(existing)
                continue
            row = self.model.add(path, Kind.MODEL)
            self.model.items.remove(row)  # in the release row's place, in the folder's order
            self.model.items.insert(index + len(rows), row)
            self._rebuild_queue()
            self._log(row, self.tr("%1 comes from the release %2; it is bundled on its own.")
                           .replace("%1", model.member).replace("%2", str(scan.tree.root)))
            row.inspected_target = item.inspected_target
            self.session.inspected(row, val)
            rows.append(row)
        self._log(None, self.tr("%1: %n model(s), each queued on its own.", "", len(rows))
                        .replace("%1", str(scan.tree.root)))
        self.statusBar().showMessage(self.tr("%1: %n model(s), each on its own row.", "", len(rows))
                                     .replace("%1", item.path.name), 10_000)
        if self.model.items:
            self.stack.setCurrentIndex(1)
        if rows:
            self._select(rows[0])
        self._update_actions()
        return rows

    def _rebuild_queue(self) -> None:
        """The table's rows again from the model's (a row inserted in the middle)."""
        self.queue.setRowCount(0)
        for row in self.model.items:
            self.queue.add(row)

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

    def _connect(self, job: Job, item: QueueItem) -> Job:
        job.payload = item
        item.job = job
        job.signals.started.connect(self._job_started)
        job.signals.progress.connect(self._job_progress)
        job.signals.succeeded.connect(self._job_succeeded)
        job.signals.failed.connect(self._job_failed)
        job.signals.cancelled.connect(self._job_cancelled)
        return job

    def _job_of_sender(self) -> Job | None:
        signals = self.sender()
        for item in self.model.items:
            if item.job is not None and item.job.signals is signals:
                return cast(Job, item.job)
        return None

    def _inspect(self, item: QueueItem) -> None:
        self._set_state(item, ItemState.INSPECTING)
        self._log(item, self.tr("Inspecting %1").replace("%1", str(item.path)))
        target = self.settings.target_ort or None
        item.inspected_target = target
        job = Job(engine.inspect_job(item.path, target, item.data_dir), kind=JobKind.INSPECT)
        self.inspect_queue.submit(self._connect(job, item))
        # Then the rest of the engine (bundle, smoke, verify), on that thread: pressing Bundle must not import
        # them on the GUI thread (it froze the window ~50 ms when the app was started with a model to open).
        self.warm_up()

    def _verify(self, item: QueueItem, smoke: bool = False) -> None:
        item.verified_with_smoke = smoke
        item.report = None
        item.error = None
        self._set_state(item, ItemState.VERIFYING)
        self._log(item, (self.tr("Verifying %1 with a smoke run") if smoke else self.tr("Verifying %1"))
                        .replace("%1", str(item.path)))  # fmt: skip
        job = Job(engine.verify_job(item.path, smoke), kind=JobKind.VERIFY)
        self.inspect_queue.submit(self._connect(job, item))
        self._refresh_views(item)

    def locate_data_file(self) -> None:
        """File → Locate data file…: the selected model's external data is elsewhere; inspect it again with it."""
        item = self.model.selected
        if item is None or not item.spec.locates_data or item.busy:
            return
        start = str(item.data_dir or item.path.parent)
        title, filters = self.session.data_file_prompt(item)
        path, _ = QFileDialog.getOpenFileName(self, title, start, filters)
        if path:
            self.data_file_chosen(item, Path(path))

    def set_data_dir(self, item: QueueItem, folder: Path) -> None:
        """Inspect ``item`` again with its external data files looked up in ``folder`` (the bundle uses it too)."""
        item.data_dir = folder
        item.error = None
        item.validation = None
        self._log(item, self.tr("Looking for the data files of %1 in %2").replace("%1", item.path.name)
                        .replace("%2", str(folder)))  # fmt: skip
        self._inspect(item)
        self._refresh_views(item)

    def retarget(self) -> list[QueueItem]:
        """Inspect again every idle model checked for another Target ONNX Runtime than the one now set (a complete
        X.Y or none): the findings, the hints and Bundle follow the target the bundle will be made for."""
        text = self.bundle_panel.target_ort.currentText().strip()
        if text and not _TARGET.fullmatch(text):
            return []  # still being typed
        stale = self.model.stale_for(text or None)
        for item in stale:
            self._log(item, self.tr("Checking %1 again for ONNX Runtime %2")
                            .replace("%1", item.path.name).replace("%2", text or self.tr("any")))  # fmt: skip
            self._open_item(item)
            self._refresh_views(item)
        return stale

    def verify_selected_with_smoke(self) -> None:
        item = self.model.selected
        if item is not None and item.spec.verifies_with_smoke and not item.busy:
            self._verify(item, smoke=True)

    # --- job outcomes (all run in the GUI thread) -------------------------------------------
    def _item_for_sender(self) -> tuple[Job, QueueItem] | None:
        job = self._job_of_sender()
        if job is None or not isinstance(job.payload, QueueItem):
            return None
        return job, job.payload

    def _job_started(self) -> None:
        found = self._item_for_sender()
        if found is None:
            return
        job, item = found
        if job.kind != JobKind.BUNDLE:
            return
        self.session.current_bundle = item
        title = self.session.run_title(item)
        skipped = skipped_stages(item.options)
        if self.model.selected is None:  # the user's selection stays where they put it (issue 41 item 9): the
            self._select(item)  # selection jumped from row to row with a batch and stayed on another row after it
        scan = item.release
        models = [scan.member(i) for i in range(scan.models)] if scan is not None else []
        item.run = self.run_panel.start(title, skipped=skipped, show=self.model.selected is item, models=models)
        self._set_state(item, ItemState.RUNNING)  # after the panel: the queue row and the panel agree
        self._log(item, self.tr("Bundling %1 as %2 %3").replace("%1", str(item.path))
                        .replace("%2", item.draft.name).replace("%3", item.draft.version))
        if self.model.selected is item:
            self.tabs.setCurrentIndex(TAB_PROGRESS)
        self._refresh_views(item)

    def _job_progress(self, ev: ProgressEvent) -> None:
        found = self._item_for_sender()
        if found is None:
            return
        job, item = found
        if job.kind != JobKind.BUNDLE or item.state == ItemState.CANCELLING:
            return
        self.run_panel.on_progress(ev)
        fraction = item.run.fraction(ev.stage) if item.run is not None else None  # None: no amount (installing…)
        name = self.run_panel.stage_name(ev.stage)
        if fraction is None:  # no amount (installing a release's wheels): say what is being done
            detail = stage_detail(ev.message) if ev.message else ""
            item.progress = f"{name}: {detail} …" if detail else f"{name} …"
        else:
            item.progress = f"{name} {fraction * 100:.0f} %"
        self.queue.refresh(item)

    def _job_succeeded(self, result: Any) -> None:
        found = self._item_for_sender()
        if found is None:
            return
        job, item = found
        item.job = None
        s = self.session
        outcomes: dict[JobKind, Callable[[QueueItem, Any], None]] = {
            JobKind.INSPECT: s.inspected, JobKind.SCAN: s.scanned, JobKind.VERIFY: s.verified,
            JobKind.BUNDLE: s.bundled, JobKind.SUGGEST: s.suggested,
        }
        outcomes[JobKind(job.kind)](item, result)
        self._refresh_views(item)

    def _job_failed(self, err: OnnxpackError) -> None:
        found = self._item_for_sender()
        if found is not None:
            found[1].job = None
            self.session.failed(found[1], JobKind(found[0].kind), err)

    def _job_cancelled(self) -> None:
        found = self._item_for_sender()
        if found is not None:
            found[1].job = None
            self.session.cancelled(found[1], JobKind(found[0].kind))

    # --- bundling -------------------------------------------------------------------------
    def _store_shown_draft(self) -> None:
        """The form's edits go back into the draft of the row it shows (if that row is still queued)."""
        item = self.bundle_panel.draft_owner
        if item is not None and item in self.model.items:
            self.bundle_panel.save_draft()

    def _fix_ir(self) -> bool:
        return self.bundle_panel.fix_ir.isChecked()

    def start_bundles(self, all_ready: bool = False) -> list[QueueItem]:
        """Queue the selected model (or every inspected, idle model) for bundling, one after another.

        Bundle all sets aside the rows that made their ZIP already and asks before running the others
        (issue 30 item 11): the question is ``self.skip_question``; its answer starts them (or nothing)."""
        self._store_shown_draft()
        fix_ir = self._fix_ir()
        if all_ready:
            items = self.model.ready(fix_ir)
        else:
            sel = self.model.selected
            items = [sel] if sel is not None and self.model.can_bundle(sel, fix_ir) else []
        if not items:
            return []
        shared = self.bundle_panel.shared_options()
        try:
            options = {item: self._options_for(item, shared) for item in items}
            plan = self.model.plan(items, shared["out_dir"], force=bool(shared.get("force")), skip_bundled=all_ready)
            self.session.check_plan(plan, self.queue.names)
        except OnnxpackError as e:
            self.show_error(e, self.tr("Cannot start bundling"))
            return []
        if plan.already_bundled:
            self._ask_to_skip(plan, options)
            return []
        return self._run_plan(plan, options)

    def _ask_to_skip(self, plan: BatchPlan, options: dict[QueueItem, Any]) -> None:
        done = [target.name for _, target in plan.already_bundled]
        box = QMessageBox(self)
        box.setIcon(QMessageBox.Icon.Question)
        box.setWindowTitle(self.tr("Bundle all"))
        box.setText(self.tr("%n row(s) were bundled already: %1", "", len(done)).replace("%1", ", ".join(done)))
        box.setInformativeText(
            self.tr("Skip them and bundle the other %n model(s)?", "", len(plan.run)) if plan.run else
            self.tr("Every ready model is bundled already. To make a bundle again, %1.").replace("%1", tick("force"))
        )
        skip = box.addButton(self.tr("&Skip bundled rows"), QMessageBox.ButtonRole.AcceptRole) if plan.run else None
        cancel = box.addButton(QMessageBox.StandardButton.Cancel)
        box.setDefaultButton(skip or cancel)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)

        def answered(button: Any) -> None:
            self.skip_question = None
            if skip is not None and button is skip:
                for item, target in plan.already_bundled:
                    self._log(item, self.tr("Skipped %1: bundled already as %2").replace("%1", item.path.name)
                                    .replace("%2", str(target)))  # fmt: skip
                self._run_plan(plan, options)

        box.buttonClicked.connect(answered)
        self.skip_question = box
        box.open()

    def _run_plan(self, plan: BatchPlan, options: dict[QueueItem, Any]) -> list[QueueItem]:
        self.session.batch = plan.items
        self.session.batch_failures = []
        for item in plan.items:
            item.options = options[item]
            if item.result is not None:
                item.last_success = item.result
            item.result = None
            item.error = None
            item.progress = ""
            self._set_state(item, ItemState.QUEUED)
            job = Job(engine.bundle_job(options[item]), kind=JobKind.BUNDLE)
            self.bundle_queue.submit(self._connect(job, item))
        self.render_selected()
        return plan.items

    def cancel_bundles(self) -> None:
        """Esc, File → Cancel running bundle, the Progress tab's Cancel: cancel the running bundle only; the queued
        rows stay queued and the next one starts (issue 41 item 4). The engine removes its partial output."""
        item = self.session.running_bundle(self.bundle_queue.jobs)
        if item is not None and item.state is not ItemState.CANCELLING:
            self._cancel_rows([item])

    def cancel_all_bundles(self) -> None:
        """File → Cancel all bundles (Shift+Esc): the running bundle and every queued one."""
        self._cancel_rows(self.session.bundle_rows(self.bundle_queue.jobs))

    def _cancel_rows(self, items: list[QueueItem]) -> None:
        if not items:
            return
        for item in items:
            if item.state == ItemState.RUNNING:
                self._set_state(item, ItemState.CANCELLING)
                self.run_panel.stopping()
        for item in reversed(items):
            if item.job is not None:
                self.bundle_queue.cancel(item.job)
        self._update_actions()

    def _previous_changed(self, path: str, item: QueueItem | None = None) -> None:
        item = item or self.bundle_panel.draft_owner
        if item is None or not item.spec.bundles or item.validation is None:
            if item is not None and item.release is not None:
                item.draft.previous = path  # the release's diff is made by the bundle run (its Result tab)
            return
        item.draft.previous = path
        item.draft.suggested = ""
        if self.bundle_panel.draft_owner is item:
            self.bundle_panel.set_suggestion("")
        if not path:
            return
        location = item.validation.inspection.location
        target = self.bundle_panel.target_ort.currentText().strip() or None
        job = Job(
            engine.suggest_job(Path(path), location.model, location.data_dir, target),
            kind=JobKind.SUGGEST,
        )
        # A suggestion job does not change the row's state; it runs beside inspections.
        job.payload = item
        job.signals.succeeded.connect(self._job_succeeded)
        job.signals.failed.connect(self._job_failed)
        item.job = job
        self.inspect_queue.submit(job)

    # --- result actions -------------------------------------------------------------------
    def _result_item(self) -> QueueItem | None:
        """The selected row when it has a bundle: result actions never act on another row (issue 30 item 1)."""
        sel = self.model.selected
        return sel if sel is not None and sel.result is not None else None

    def open_output_folder(self) -> None:
        item = self._result_item()
        folder = item.result.zip_path.parent if item is not None and item.result is not None else None
        if folder is None:
            folder = Path(self.bundle_panel.out_dir.text().strip() or self.settings.output_dir)
        if folder.is_dir():
            self._open_folder(folder, self.tr("Open output folder"))
        else:
            self.show_error(
                WordedInputError(self.tr("The output folder %1 does not exist yet.").replace("%1", str(folder)),
                           self.tr("It is created by the first bundle."), code="OUTPUT_FOLDER"),
                self.tr("Open output folder"),
            )

    def copy_cli_command(self) -> str:
        item = self._result_item()
        if item is None or item.options is None:
            return ""
        command = engine.cli_command(item.options)
        QGuiApplication.clipboard().setText(command)
        self._log(item, self.tr("Copied to the clipboard: %1").replace("%1", command))
        self.statusBar().showMessage(self.tr("CLI command copied to the clipboard."), 5000)
        return command

    def open_log_folder(self) -> None:
        folder = log_dir()
        folder.mkdir(parents=True, exist_ok=True)
        self._open_folder(folder, self.tr("Open log folder"))

    def _open_folder(self, folder: Path, title: str) -> None:
        """Ask the desktop to show ``folder``; say so when nothing on the system can (no silent failure)."""
        if not self.open_url(QUrl.fromLocalFile(str(folder))):
            self.show_error(
                WordedInputError(self.tr("No program on this system opens folders, so %1 was not opened.")
                           .replace("%1", str(folder)),
                           self.tr("Open it in your file manager; you can copy the path from this message."),
                           code="NO_FILE_MANAGER"),
                title,
            )

    def show_about(self) -> None:
        box = QMessageBox(self)
        box.setIconPixmap(app_icon().pixmap(64, 64))
        box.setWindowTitle(self.tr("About onnxpack"))
        box.setText(f"<b>onnxpack {__version__}</b>")
        box.setInformativeText(
            self.tr("Turns an ONNX model into a verified, self-contained release bundle.\nQt %1, Python %2")
            .replace("%1", qVersion())
            .replace("%2", ".".join(map(str, sys.version_info[:3])))
        )
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()

    # --- rows -----------------------------------------------------------------------------
    def remove_selected(self) -> None:
        item = self.model.selected
        if item is None:
            return
        if item.job is not None:
            queue = self.bundle_queue if item.job.kind == JobKind.BUNDLE else self.inspect_queue
            if item.state == ItemState.RUNNING:
                self.cancel_bundles()
                return  # the row stays until its cancellation is confirmed
            queue.cancel(item.job)
        if item in self.model.items:
            self._remove(item)

    def _remove(self, item: QueueItem) -> None:
        self._store_shown_draft()
        row = self.queue.row_of(item)
        selected = self.model.remove(item)
        self._syncing = True  # the table's own selection signals are not the user's: the model decides
        try:
            self.queue.remove_row(row)
            self.queue.select(selected)
        finally:
            self._syncing = False
        if not self.model.items:
            self.stack.setCurrentIndex(0)
        self.render_selected()  # Qt does not signal a selection change for a removed row: re-render from the model

    def clear_finished(self) -> None:
        for item in [i for i in self.model.items if not i.busy]:
            self._remove(item)

    def _log(self, item: QueueItem | None, line: str) -> None:
        """A log line about ``item``: the log can show the selected row's lines alone (issue 41 item 9)."""
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
        has_result = self._result_item() is not None
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

    # --- what the session asks of the window (gui/model/session.py SessionView) -------------------
    def translate(self, context: str, text: str, disambiguation: str | None = None, n: int = -1) -> str:
        return QCoreApplication.translate(context, text, disambiguation, n)

    def message(self, item: Any) -> str:
        return gui_message(item)

    def hint(self, code: str | None, hint: str | None, params: Any = None) -> str | None:
        return gui_hint(code, hint, params)

    def tick(self, name: str) -> str:
        return tick(name)

    def release_counts(self, models: int, assets: int) -> str:
        return release_counts(models, assets)

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
        }[key]

    def state_text(self, state: ItemState) -> str:
        return self.queue.state_text(state)

    def smoke_text(self, report: VerifyReport) -> str:
        return self.model_panel.smoke_text(report, True)[1]

    def finding_hint(self, finding: Any, gate: Any) -> str | None:
        return finding_hint(finding, gate)

    def set_state(self, item: QueueItem, state: ItemState) -> None:
        self._set_state(item, state)

    def refresh(self, item: QueueItem) -> None:
        self._refresh_views(item)

    def update_actions(self) -> None:
        self._update_actions()

    def log_line(self, item: QueueItem | None, line: str) -> None:
        self._log(item, line)

    def show_tab(self, name: str) -> None:
        self.tabs.setCurrentIndex({"model": TAB_MODEL, "progress": TAB_PROGRESS, "result": TAB_RESULT}[name])

    def run_finished(self, outcome: str, stage: str | None = None) -> None:
        self.run_panel.finish(outcome, stage)

    def store_shown_draft(self) -> None:
        self._store_shown_draft()

    def previous_changed(self, path: str, item: QueueItem) -> None:
        self._previous_changed(path, item)

    def update_status(self) -> None:
        self.status_label.setText(self.session.status_text())

    # the session's answers, by the names tests and observers know
    def data_file_chosen(self, item: QueueItem, path: Path) -> bool:
        return self.session.data_file_chosen(item, path)

    def referenced_data_files(self, item: QueueItem) -> list[str]:
        return self.session.referenced_data_files(item)

    def data_file_prompt(self, item: QueueItem) -> tuple[str, str]:
        return self.session.data_file_prompt(item)

    def running_bundle(self) -> QueueItem | None:
        return self.session.running_bundle(self.bundle_queue.jobs)

    def _options_for(self, item: QueueItem, shared: dict[str, Any]) -> Any:
        return engine.make_bundle_options(**self.session.bundle_arguments(item, shared))

    # --- shutdown -------------------------------------------------------------------------
    def closeEvent(self, event: QCloseEvent) -> None:
        """Cancel everything, wait for the workers (their cleanup removes partial output), save layout."""
        self.settings.save_window_state(self.saveGeometry(), self.saveState())
        self.inspect_queue.cancel_all()
        self.bundle_queue.cancel_all()
        self.inspect_queue.wait(10_000)
        self.bundle_queue.wait(10_000)
        super().closeEvent(event)
