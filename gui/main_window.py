"""The main window: drop models or bundles, inspect them, fill in the bundle form, run and watch the queue."""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from PySide6.QtCore import Qt, QTimer, QUrl, Signal, qVersion
from PySide6.QtGui import (
    QAction,
    QActionGroup,
    QCloseEvent,
    QDesktopServices,
    QDragEnterEvent,
    QDragMoveEvent,
    QDropEvent,
    QGuiApplication,
    QKeySequence,
    QMoveEvent,
    QShowEvent,
)
from PySide6.QtWidgets import (
    QApplication,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QMainWindow,
    QMessageBox,
    QPushButton,
    QSplitter,
    QStackedWidget,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from onnxpack.core import __version__
from onnxpack.core.errors import InputError, OnnxpackError
from onnxpack.core.model.modelfile import FileKind, sniff
from onnxpack.core.names import bundle_name_problem
from onnxpack.core.progress import ProgressEvent
from onnxpack.core.release.versions import parse_semver
from onnxpack.core.resources import SAMPLE_MODEL, resource_path

if TYPE_CHECKING:  # for mypy only (importing core.validate loads onnx)
    from onnxpack.core.checks.validate import Validation
    from onnxpack.core.release.bundle import BundleResult
    from onnxpack.core.release.verify import VerifyReport

from . import engine, i18n
from .bundle_panel import BundlePanel
from .crash import log_dir
from .dialogs import error_box
from .hints import gui_hint, tick
from .icons import app_icon
from .messages import WordedError, WordedInputError, gui_message, stage_detail
from .model_panel import ModelPanel, finding_hint
from .queue_view import QueueTable
from .run_panel import LogPane, ResultPanel, RunPanel
from .settings import AppSettings
from .state import (
    BatchPlan,
    BundleDraft,
    ItemState,
    JobKind,
    Kind,
    QueueItem,
    QueueModel,
    ReleaseScan,
    bundle_gate,
    default_bundle_name,
    failed_stage,
    fit_window,
    recorded_warnings,
    skipped_stages,
    symbolic_dims,
)
from .widgets import DropOverlay, Retranslatable
from .worker import Job, JobQueue

__all__ = ["MainWindow"]

TAB_MODEL, TAB_BUNDLE, TAB_PROGRESS, TAB_RESULT = range(4)
RETARGET_DELAY_MS = 600  # after the last change of the Target ONNX Runtime field, the models are checked again
_TARGET = re.compile(r"\d+\.\d+(\.\d+)?")


class DropPage(Retranslatable, QWidget):
    """The empty state: what can be dropped, with buttons for keyboard and mouse users."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.icon = QLabel()
        self.icon.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.icon.setPixmap(app_icon().pixmap(96, 96))
        self.title = QLabel()
        self.title.setAlignment(Qt.AlignmentFlag.AlignCenter)
        font = self.title.font()
        font.setPointSizeF(font.pointSizeF() * 1.6)
        font.setBold(True)
        self.title.setFont(font)
        self.title.setWordWrap(True)
        self.subtitle = QLabel()
        self.subtitle.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.subtitle.setWordWrap(True)
        self.open_button = QPushButton()
        self.sample_button = QPushButton()
        row = QHBoxLayout()
        row.addStretch(1)
        row.addWidget(self.open_button)
        row.addWidget(self.sample_button)
        row.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addStretch(1)
        layout.addWidget(self.icon)
        layout.addWidget(self.title)
        layout.addWidget(self.subtitle)
        layout.addSpacing(12)
        layout.addLayout(row)
        layout.addStretch(2)
        self.retranslate()

    def retranslate(self) -> None:
        self.title.setText(self.tr("Drop ONNX models here"))
        self.subtitle.setText(
            self.tr(
                "Drop one or more .onnx or .ort files or a model folder to inspect and bundle them, "
                "or an onnxpack .zip bundle to verify it."
            )
        )
        self.open_button.setText(self.tr("&Open…"))
        self.sample_button.setText(self.tr("Try the &sample model"))
        self.setAccessibleName(self.tr("Drop area"))


class MainWindow(Retranslatable, QMainWindow):
    """onnxpack's main window.

    ``settings`` isolates persistent state (tests pass an INI-backed one); ``open_url`` replaces
    QDesktopServices.openUrl (tests record the call instead of launching a file manager).
    Signals for observers and tests: ``error_shown(QMessageBox)``, ``item_changed(QueueItem)``.
    """

    error_shown = Signal(object)
    item_changed = Signal(object)

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
        self.current_bundle: QueueItem | None = None
        self.last_error: QMessageBox | None = None
        self._pending_errors: list[tuple[str, OnnxpackError]] = []
        self._warmed = False  # the engine's modules imported on the inspection thread (warm_up)
        self._batch: list[QueueItem] = []  # the rows started together by the last Bundle / Bundle all
        self._batch_failures: list[tuple[QueueItem, OnnxpackError]] = []
        self.model = QueueModel()  # the state every panel renders (gui/state.py)
        self._fitted_shown = False
        self._fitted_framed = False  # fitted again once the window manager's frame was known (see moveEvent)
        self._syncing = False  # the table's selection is being set from the model: not a user's selection
        self.skip_question: QMessageBox | None = None  # Bundle all's "skip the rows bundled already?"
        #: how each kind of row is rendered: the one place the window dispatches on the kind
        self._renderers: dict[Kind, Callable[[QueueItem], None]] = {
            Kind.MODEL: self._render_model,
            Kind.BUNDLE: self._render_bundle,
            Kind.RELEASE: self._render_release,
        }

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

        self._make_actions()
        self._make_menus()
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
    def _tab_switcher(self, index: int) -> Callable[[], None]:
        """A slot for QAction.triggered that shows tab ``index`` (a ``lambda i=i:`` would get ``checked`` as i)."""

        def show() -> None:
            self.tabs.setCurrentIndex(index)

        return show

    def _make_actions(self) -> None:
        Shortcut = QKeySequence | QKeySequence.StandardKey | str | None

        def action(slot: Callable[..., Any], shortcut: Shortcut = None) -> QAction:
            a = QAction(self)
            if shortcut is not None:
                a.setShortcut(QKeySequence(shortcut))
            a.triggered.connect(slot)
            self.addAction(a)
            return a

        self.act_open = action(self.open_dialog, QKeySequence.StandardKey.Open)
        self.act_open_folder = action(self.open_folder_dialog, "Ctrl+Shift+O")
        self.act_sample = action(self.open_sample)
        self.act_locate_data = action(self.locate_data_file)
        self.act_bundle = action(lambda: self.start_bundles(False), "Ctrl+B")
        self.act_bundle_all = action(lambda: self.start_bundles(True), "Ctrl+Shift+B")
        self.act_cancel = action(self.cancel_bundles, "Esc")
        self.act_cancel_all = action(self.cancel_all_bundles, "Shift+Esc")
        self.act_verify_smoke = action(self.verify_selected_with_smoke)
        self.act_split = action(self.split_selected_release)  # a release folder's models, each a row of its own
        self.act_remove = action(self.remove_selected, QKeySequence.StandardKey.Delete)
        self.act_clear = action(self.clear_finished)
        self.act_quit = action(self.close, QKeySequence.StandardKey.Quit)
        self.act_copy_log = action(self.log.copy, "Ctrl+Shift+C")
        self.act_copy_cli = action(self.copy_cli_command)
        self.act_open_out = action(self.open_output_folder)
        self.act_tabs = [action(self._tab_switcher(i), f"Ctrl+{i + 1}") for i in range(4)]
        self.act_focus_queue = action(self.focus_queue, "Ctrl+0")  # keyboard users get back to the rows at once
        self.act_logs = action(self.open_log_folder)
        self.act_about = action(self.show_about)
        self.act_about_qt = action(QApplication.aboutQt)
        self.lang_group = QActionGroup(self)
        self.lang_actions: dict[str, QAction] = {}
        for code in ("system", *i18n.LANGUAGES):
            a = QAction(self)
            a.setCheckable(True)
            a.setData(code)
            self.lang_group.addAction(a)
            self.lang_actions[code] = a
        self.lang_actions.get(self.settings.language, self.lang_actions["system"]).setChecked(True)
        self.lang_group.triggered.connect(lambda a: self.set_language(str(a.data())))

    def _make_menus(self) -> None:
        bar = self.menuBar()
        self.menu_file = bar.addMenu("")
        for a in (self.act_open, self.act_open_folder, self.act_sample, self.act_locate_data, self.act_split):
            self.menu_file.addAction(a)
        self.menu_file.addSeparator()
        for a in (self.act_bundle, self.act_bundle_all, self.act_cancel, self.act_cancel_all, self.act_verify_smoke):
            self.menu_file.addAction(a)
        self.menu_file.addSeparator()
        for a in (self.act_open_out, self.act_copy_cli, self.act_copy_log):
            self.menu_file.addAction(a)
        self.menu_file.addSeparator()
        self.menu_file.addAction(self.act_remove)
        self.menu_file.addAction(self.act_clear)
        self.menu_file.addSeparator()
        self.menu_file.addAction(self.act_quit)
        self.menu_view = bar.addMenu("")
        self.menu_view.addAction(self.act_focus_queue)
        for a in self.act_tabs:
            self.menu_view.addAction(a)
        self.menu_lang = bar.addMenu("")
        for a in self.lang_actions.values():
            self.menu_lang.addAction(a)
        self.menu_help = bar.addMenu("")
        self.menu_help.addAction(self.act_logs)
        self.menu_help.addSeparator()
        self.menu_help.addAction(self.act_about)
        self.menu_help.addAction(self.act_about_qt)

    # --- language -------------------------------------------------------------------------
    def retranslate(self) -> None:
        self.setWindowTitle(self.tr("onnxpack — ONNX release bundler"))
        self.menu_file.setTitle(self.tr("&File"))
        self.menu_view.setTitle(self.tr("&View"))
        self.menu_lang.setTitle(self.tr("&Language"))
        self.menu_help.setTitle(self.tr("&Help"))
        self.act_open.setText(self.tr("&Open models or bundles…"))
        self.act_open_folder.setText(self.tr("Open model or release &folder…"))
        self.act_split.setText(self.tr("Bundle each model of the release on i&ts own"))
        self.act_split.setToolTip(self.tr("Replace the selected release row by one row per model: each model is then "
                                          "bundled into a ZIP of its own, without the release's other files"))
        self.act_sample.setText(self.tr("Open the &sample model"))
        self.act_locate_data.setText(self.tr("Locate &data file…"))
        self.act_locate_data.setToolTip(self.tr("Choose the external data file of the selected model when it is not "
                                                "beside the model"))  # fmt: skip
        self._name_bundle_action(self.model.selected)
        self.act_bundle_all.setText(self.tr("Bundle &all ready models"))
        self.act_cancel.setText(self.tr("&Cancel running bundle"))
        self.act_cancel.setToolTip(self.tr("Stop the bundle that is running; the queued ones still run"))
        self.act_cancel_all.setText(self.tr("Cancel all bundl&es"))
        self.act_cancel_all.setToolTip(self.tr("Stop the running bundle and take every queued one off the queue"))
        self.act_verify_smoke.setText(self.tr("&Verify bundle with a smoke run"))
        self.act_open_out.setText(self.tr("Open o&utput folder"))
        self.act_copy_cli.setText(self.tr("Copy CLI co&mmand"))
        self.act_copy_log.setText(self.tr("Copy &log"))
        self.act_remove.setText(self.tr("&Remove selected row"))
        self.act_clear.setText(self.tr("Clear finis&hed rows"))
        self.act_quit.setText(self.tr("&Quit"))
        for a, text in zip(
            self.act_tabs, (self.tr("&Model"), self.tr("&Bundle"), self.tr("&Progress"), self.tr("&Result")),
            strict=True,
        ):
            a.setText(text)
        self.act_focus_queue.setText(self.tr("&Queue"))
        self.act_logs.setText(self.tr("Open &crash-log folder"))
        self.act_about.setText(self.tr("&About onnxpack"))
        self.act_about_qt.setText(self.tr("About &Qt"))
        self.lang_actions["system"].setText(self.tr("&System default"))
        for code, name in i18n.LANGUAGES.items():
            self.lang_actions[code].setText(name)  # each language in its own script, never translated
        self.tabs.setTabText(TAB_MODEL, self.tr("Model"))
        self.tabs.setTabText(TAB_BUNDLE, self.tr("Bundle"))
        self.tabs.setTabText(TAB_PROGRESS, self.tr("Progress and log"))
        self.tabs.setTabText(TAB_RESULT, self.tr("Result"))
        self.splitter.setAccessibleName(self.tr("Work area"))
        self._update_status()

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

    @staticmethod
    def _kind_of(path: Path) -> Kind:
        """A ZIP is a bundle (verified), a folder a release (read as ``onnxpack bundle FOLDER`` would: one that turns
        out to hold one model and nothing else becomes that model's row), anything else a model."""
        try:
            if path.is_dir():
                return Kind.RELEASE
            if path.is_file() and sniff(path) is FileKind.ZIP:
                return Kind.BUNDLE
        except OSError:
            pass  # unreadable: the inspection reports it with a proper message
        return Kind.MODEL

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
                item = self.model.add(path, self._kind_of(path))
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

    def _scanned(self, item: QueueItem, scan: ReleaseScan) -> None:
        """A release folder was read: one row of the release (its models and assets in the Model tab), or, when it
        holds one model and nothing beside it, that model's row as before (the engine bundles it as the model)."""
        if scan.plain:
            item.kind = Kind.MODEL
            self._inspected(item, scan.validations[0])
            return
        item.release = scan
        item.shown_model = min(item.shown_model, scan.models - 1)
        draft = item.draft
        if not draft.name:
            draft.name = default_bundle_name(item.path)  # the folder's name, as `onnxpack bundle FOLDER` names it
        symbolic: dict[str, list[str]] = {}
        names: list[str] = []
        for val in scan.validations:
            for dim, users in symbolic_dims(val.inspection.inputs).items():
                symbolic.setdefault(dim, []).extend(u for u in users if u not in symbolic[dim])
            names += [str(v.get("name")) for v in val.inspection.inputs if str(v.get("name")) not in names]
        draft.symbolic, draft.input_names = symbolic, names
        draft.can_bundle = True
        if scan.ok and item.result is not None:
            self._set_state(item, ItemState.DONE)
        else:
            self._set_state(item, ItemState.READY if scan.ok else ItemState.INVALID)
        self._log(item, self.tr("Read the release %1: %2.").replace("%1", item.path.name)
                        .replace("%2", self.model_panel.release_counts(scan.models, scan.assets)))
        for i, val in enumerate(scan.validations):
            self._log(item, "  " + self.tr("%1: %n finding(s).", "", len(val.findings)).replace("%1", scan.member(i)))
        if scan.tree.skipped:
            self._log(item, "  " + self.tr("Left out: %1").replace(
                "%1", ", ".join(f"{p} ({why})" for p, why in scan.tree.skipped[:10])
                + (" …" if len(scan.tree.skipped) > 10 else "")))

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
            self._inspected(row, val)
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
        from PySide6.QtWidgets import QMenu

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
        title, filters = self.data_file_prompt(item)
        path, _ = QFileDialog.getOpenFileName(self, title, start, filters)
        if path:
            self.data_file_chosen(item, Path(path))

    @staticmethod
    def referenced_data_files(item: QueueItem) -> list[str]:
        """The external data file names the model references (as written in it, relative to its folder)."""
        ext = item.validation.inspection.external if item.validation is not None else None
        return sorted({str(r.location) for r in ext.external_refs if r.location}) if ext is not None else []

    def data_file_prompt(self, item: QueueItem) -> tuple[str, str]:
        """The title and filters of Locate data file…'s dialog: they name the files the model references (it never
        said which name the model wants; issue 41 item 7)."""
        names = self.referenced_data_files(item)
        if not names:
            return (self.tr("Locate the data file of %1").replace("%1", item.path.name),
                    self.tr("External data (*.data *.bin *.weights);;All files (*)"))
        title = self.tr("Locate the data file of %1: it references %2").replace("%1", item.path.name).replace(
            "%2", ", ".join(names))
        exact = " ".join(Path(n).name for n in names)
        filters = (self.tr("Data files of %1 (%2)").replace("%1", item.path.name).replace("%2", exact) + ";;"
                   + self.tr("External data (*.data *.bin *.weights);;All files (*)"))
        return title, filters

    def data_file_chosen(self, item: QueueItem, path: Path) -> bool:
        """The user chose ``path`` as ``item``'s data file. The model finds its data by the names it references, in
        the chosen file's folder: a file of another name (a renamed copy) is not used, and the user is told which
        name the model wants instead of seeing the same "missing" finding again. Returns whether it was taken."""
        names = self.referenced_data_files(item)
        folder = path.parent
        wanted = [n for n in names if not (folder / n).is_file()]
        if names and path.name not in {Path(n).name for n in names} and wanted:
            self.show_error(
                WordedInputError(
                    self.tr("%1 references its data as %2, not %3.").replace("%1", item.path.name)
                    .replace("%2", ", ".join(names)).replace("%3", path.name),
                    self.tr("onnxpack looks for the data files by the names the model gives, in the folder of the file "
                            "you choose. Rename or copy %1 to %2 in %3, then choose it again.")
                    .replace("%1", path.name).replace("%2", wanted[0]).replace("%3", str(folder)),
                    code="DATA_FILE_NAME",
                ),
                self.tr("Locate data file"),
            )
            return False
        self.set_data_dir(item, folder)
        return True

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
        self.current_bundle = item
        title = f"{item.draft.name} {item.draft.version}"
        if item.release is not None:  # a release's stages run once per model: say how many
            title = self._release_title(item)
        if len(self._batch) > 1 and item in self._batch:  # "2 of 3" while a batch runs
            title += " " + self.tr("(%1 of %2)").replace("%1", str(self._batch.index(item) + 1)).replace(
                "%2", str(len(self._batch)))
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
            detail = stage_detail(ev) if ev.message else ""
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
        outcomes: dict[JobKind, Callable[[QueueItem, Any], None]] = {
            JobKind.INSPECT: self._inspected,
            JobKind.SCAN: self._scanned,
            JobKind.VERIFY: self._verified,
            JobKind.BUNDLE: self._bundled,
            JobKind.SUGGEST: self._suggested,
        }
        outcomes[JobKind(job.kind)](item, result)
        self._refresh_views(item)

    def _inspected(self, item: QueueItem, validation: Validation) -> None:
        item.validation = validation
        insp = validation.inspection
        model_path = insp.location.model
        draft = item.draft
        if not draft.name:
            draft.name = default_bundle_name(model_path)  # the model file's stem, as `onnxpack bundle` names it
        draft.symbolic = symbolic_dims(insp.inputs)
        draft.input_names = [str(v.get("name")) for v in insp.inputs]
        draft.can_bundle = True
        if validation.ok and item.result is not None:  # inspected again for another target: still bundled
            self._set_state(item, ItemState.DONE)
        else:
            self._set_state(item, ItemState.READY if validation.ok else ItemState.INVALID)
        findings = validation.findings
        self._log(item,
            self.tr("Inspected %1: %n finding(s).", "", len(findings)).replace("%1", model_path.name)
        )
        if draft.previous:
            self._previous_changed(draft.previous, item)

    def _verified(self, item: QueueItem, report: VerifyReport) -> None:
        item.report = report
        ok = report.ok
        self._set_state(item, ItemState.VERIFIED if ok else ItemState.VERIFY_FAILED)
        self._log(item,
            (self.tr("Verified %1: every file matches.") if ok else self.tr("Verification of %1 FAILED."))
            .replace("%1", item.path.name)
        )
        if item.verified_with_smoke:
            self._log(item, self.model_panel.smoke_text(report, True)[1])
        for p in report.problems:
            self._log(item, f"  {p.code}: {gui_message(p)}")
        if ok:
            for f in item.warnings:  # warnings the bundle recorded when it was made (an all-NaN smoke run)
                if f not in report.problems:
                    self._log(item, "  " + self.tr("Warning %1: %2").replace("%1", f.code)
                                    .replace("%2", gui_message(f)))

    def _bundled(self, item: QueueItem, result: BundleResult) -> None:
        item.result = result
        item.last_success = result
        self.run_panel.finish("done")
        self._set_state(item, ItemState.DONE)
        self._log(item, self.tr("Bundle written: %1").replace("%1", str(result.zip_path)))
        for f in item.warnings:  # a warning is never silent (issue 41 item 1)
            self._log(item, self.tr("Warning %1: %2").replace("%1", f.code).replace("%2", gui_message(f)))
            hint = gui_hint(f.code, f.hint, f.message_params())
            if hint:
                self._log(item, "  " + self.tr("How to fix: %1").replace("%1", hint))
        self._bundle_ended(item)
        if self.model.selected is item:
            self.tabs.setCurrentIndex(TAB_RESULT)

    def _job_failed(self, err: OnnxpackError) -> None:
        found = self._item_for_sender()
        if found is None:
            return
        job, item = found
        item.job = None
        kind = JobKind(job.kind)
        if kind is JobKind.SUGGEST:  # a bad previous bundle: say so beside the version, no dialog
            item.draft.suggested = ""
            self._log(item, self.tr("Cannot compare with the previous bundle: %1").replace("%1", gui_message(err)))
            self.show_error(err, self.tr("Cannot read the previous bundle"))
            self._refresh_views(item)
            return
        item.error = err
        self._log(item, self.tr("Error: %1").replace("%1", gui_message(err)))
        hint = gui_hint(err.code, err.hint, err.params)
        if hint:
            self._log(item, self.tr("How to fix: %1").replace("%1", hint))
        if kind is JobKind.BUNDLE:
            # Writing the output is the ZIP stage's work, --prove-ort's errors the Prove stage's, whatever stage
            # reported last (issue 30 item 5; state.failed_stage).
            self.run_panel.finish("failed", failed_stage(err))
            self._bundle_failed(item)
            in_batch = len(self._batch) > 1  # one summary when the batch is over, not one dialog per model
            if in_batch:
                self._batch_failures.append((item, err))
            self._bundle_ended(item)
            if in_batch:
                self._refresh_views(item)
                return
        else:
            self._set_state(item, ItemState.FAILED)
        titles = {
            JobKind.INSPECT: self.tr("Cannot read this model"),
            JobKind.SCAN: self.tr("Cannot read this release folder"),
            JobKind.VERIFY: self.tr("Cannot verify this bundle"),
            JobKind.BUNDLE: self.tr("Bundling failed"),
        }
        self.show_error(err, titles.get(kind, self.tr("Error")))
        self._refresh_views(item)

    def _bundle_failed(self, item: QueueItem) -> None:
        """The row shows the failure of its latest bundle (state Failed, its error), never "Bundled": a bundle made
        by an earlier run is still on disk (last_success, named in the log and the Result tab) but is not what
        this run made, and the status bar does not count the row as bundled."""
        item.result = None
        self._set_state(item, ItemState.FAILED)
        self._log_earlier_bundle(item)

    def _keep_earlier_bundle(self, item: QueueItem) -> None:
        """A cancelled re-run: the earlier bundle is still there, and the row keeps showing it (else: Cancelled)."""
        if item.last_success is not None:
            item.result = item.last_success
            self._set_state(item, ItemState.DONE)
            self._log_earlier_bundle(item)
        else:
            self._set_state(item, ItemState.CANCELLED)

    def _log_earlier_bundle(self, item: QueueItem) -> None:
        if item.last_success is not None:
            self._log(item, self.tr("%1 keeps its earlier bundle: %2").replace("%1", item.path.name)
                            .replace("%2", str(item.last_success.zip_path)))  # fmt: skip

    def _job_cancelled(self) -> None:
        found = self._item_for_sender()
        if found is None:
            return
        job, item = found
        item.job = None
        kind = JobKind(job.kind)
        if kind is JobKind.BUNDLE:
            was_running = self.current_bundle is item
            self._log(item, self.tr("Cancelled %1; nothing was written.").replace("%1", item.path.name))
            if was_running:
                self.run_panel.finish("cancelled")
            self._keep_earlier_bundle(item)
            self._bundle_ended(item)
        elif kind is not JobKind.SUGGEST:
            self._set_state(item, ItemState.CANCELLED)
        self._refresh_views(item)

    def _bundle_ended(self, item: QueueItem) -> None:
        if self.current_bundle is item:
            self.current_bundle = None
        self._update_actions()
        self._maybe_summarize_batch()

    def _maybe_summarize_batch(self) -> None:
        """When every row of a batch has ended, one dialog names all of its failures (if any)."""
        if not self._batch or any(i.job is not None and i.job.kind == JobKind.BUNDLE for i in self._batch):
            return
        failures, total = self._batch_failures, len(self._batch)
        self._batch, self._batch_failures = [], []
        if total <= 1 or not failures:
            return
        lines = "\n".join(f"• {item.path.name}: {gui_message(err)}" for item, err in failures)
        summary = WordedError(
            self.tr("%1 of %2 bundles failed:").replace("%1", str(len(failures))).replace("%2", str(total))
            + "\n" + lines,
            self.tr("Select a row to see its error and how to fix it; rows that were bundled before keep their "
                    "earlier bundle."),
            code="BATCH_FAILED",
            details="\n\n".join(f"{item.path}: [{err.code}] {err.message}\n{err.hint or ''}" for item, err in failures),
        )
        self.show_error(summary, self.tr("Bundling failed"))

    # --- bundling -------------------------------------------------------------------------
    def _store_shown_draft(self) -> None:
        """The form's edits go back into the draft of the row it shows (if that row is still queued)."""
        item = self.bundle_panel.draft_owner
        if item is not None and item in self.model.items:
            self.bundle_panel.save_draft()

    def _fix_ir(self) -> bool:
        return self.bundle_panel.fix_ir.isChecked()

    def _options_for(self, item: QueueItem, shared: dict[str, Any]) -> Any:
        d = item.draft
        if not d.name:
            raise WordedInputError(
                self.tr("%1: the bundle needs a name.").replace("%1", item.path.name),
                self.tr("Type a name in the Bundle tab; it becomes part of the ZIP file name."),
            )
        try:
            parse_semver(d.version)  # the engine's rule, so the GUI refuses exactly what the engine refuses
        except InputError:
            raise WordedInputError(
                self.tr("%1: '%2' is not a semantic version.").replace("%1", item.path.name).replace("%2", d.version),
                self.tr("Use MAJOR.MINOR.PATCH, for example 1.0.0 or 2.1.3."),
            ) from None
        if bundle_name_problem(d.name) is not None:
            raise WordedInputError(
                self.tr("%1: '%2' cannot name a bundle.").replace("%1", item.path.name).replace("%2", d.name),
                self.tr("Type a plain file name in the Bundle tab, such as 'victory'; it becomes NAME.onnx and "
                        "NAME-VERSION.zip."),
            )
        if shared["out_dir"] is None:
            raise WordedInputError(
                self.tr("No output folder is set."),
                self.tr("Choose the folder the bundle is written to in the Bundle tab."),
            )
        if item.release is not None:  # the folder: one release of its models and assets (bundle FOLDER)
            model, data_dir = item.path, None
        else:
            assert item.validation is not None  # only a model that was read can be bundled (can_bundle)
            model, data_dir = item.validation.inspection.location.model, item.validation.inspection.location.data_dir
        return engine.make_bundle_options(
            model=model,
            data_dir=data_dir,
            name=d.name,
            version=d.version,
            previous=d.previous,
            dims=d.dims,
            inputs=d.inputs,
            labels=d.labels,
            **shared,
        )

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
            self._check_plan(plan)
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
        self._batch = plan.items
        self._batch_failures = []
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

    def _check_plan(self, plan: BatchPlan) -> None:
        """Before any work: every ZIP of the batch must be new (unless replacing is ticked) and written only once."""
        if plan.twice:
            # which rows: the question named only the file, its details only "Error code: INPUT" (issue 41 item 8)
            writers = {t: [item for item, target in plan.run if target == t] for t in plan.twice}
            names = dict(zip(self.model.items, self.queue.names, strict=False))
            listing = "; ".join(
                self.tr("%1 (rows %2)").replace("%1", t.name)
                .replace("%2", ", ".join(names.get(i, i.path.name) for i in rows))
                for t, rows in writers.items()
            )
            details = "\n\n".join(
                self.tr("%1 would be written by:").replace("%1", str(t)) + "\n"
                + "\n".join(f"• {names.get(i, i.path.name)}: {i.path} "
                            + self.tr("(name %1, version %2)").replace("%1", i.draft.name)
                            .replace("%2", i.draft.version) for i in rows)
                for t, rows in writers.items()
            )
            raise WordedInputError(
                self.tr("Several models would be written to the same file: %1").replace("%1", listing),
                self.tr("Give each model its own name or version in the Bundle tab."),
                code="BATCH_SAME_FILE",
                details=details,
            )
        if plan.exist:
            raise WordedInputError(
                self.tr("%n bundle(s) exist already: %1", "", len(plan.exist))
                .replace("%1", ", ".join(t.name for t in plan.exist)),
                self.tr("Nothing was started. Choose a new version, another output folder, or %1.")
                .replace("%1", tick("force")),
            )

    def _bundle_rows(self) -> list[QueueItem]:
        """The rows with a bundle job, in the order the bundle queue runs them (the running one first)."""
        order = {id(job): n for n, job in enumerate(self.bundle_queue.jobs)}
        rows = [i for i in self.model.items if i.job is not None and i.job.kind == JobKind.BUNDLE]
        return sorted(rows, key=lambda i: order.get(id(i.job), len(order)))

    def running_bundle(self) -> QueueItem | None:
        """The row being bundled (else the one that starts next): what Esc and the Progress tab's Cancel stop."""
        rows = self._bundle_rows()
        running = [i for i in rows if i.state in (ItemState.RUNNING, ItemState.CANCELLING)]
        first = running or rows
        return first[0] if first else None

    def cancel_bundles(self) -> None:
        """Esc, File → Cancel running bundle, the Progress tab's Cancel: cancel the running bundle only; the queued
        rows stay queued and the next one starts (issue 41 item 4). The engine removes its partial output."""
        item = self.running_bundle()
        if item is not None and item.state is not ItemState.CANCELLING:
            self._cancel_rows([item])

    def cancel_all_bundles(self) -> None:
        """File → Cancel all bundles (Shift+Esc): the running bundle and every queued one."""
        self._cancel_rows(self._bundle_rows())

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

    def _suggested(self, item: QueueItem, diff: Any) -> None:
        """Pre-fill the version with the bump the release diff calls for (seed 004's rules)."""
        version = str(diff.suggested)
        bump = {"major": self.tr("major: breaking interface change"),
                "minor": self.tr("minor: compatible addition"),
                "patch": self.tr("patch: weights or details only"),
                "none": self.tr("patch: nothing changed")}.get(diff.bump, diff.bump)
        self._store_shown_draft()
        item.draft.suggested = f"{version} ({bump})"
        previous = f"{diff.previous_name} {diff.previous_version}"
        self._log(item, self.tr("Previous release %1 → suggested %2 (%3)").replace("%1", previous)
                        .replace("%2", version).replace("%3", bump))
        for change in diff.changes:
            self._log(item, f"  {change.impact}: {change.message}")
        item.draft.version = version

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
        item = self.model.selected
        if item is None:
            self.model_panel.clear()
            self.bundle_panel.render_row(None, BundleDraft(), editable=False, can_bundle=False)
            self.run_panel.display(None)
            self.result_panel.show_result(None)
        else:
            self._renderers[item.kind](item)
            self.log.show_row(item.id)
            queued = item.state is ItemState.QUEUED  # waits for its run: not its earlier run's stages
            self.run_panel.display(None if queued else item.run, queued=queued)
        self._update_actions()

    def _render_model(self, item: QueueItem) -> None:
        gate = self.model.gate(item, self._fix_ir())
        if item.validation is not None:
            self.model_panel.show_validation(item.validation, gate, item.warnings)
        elif item.error is not None:
            self._show_failure(item)
        else:
            self.model_panel.show_pending(item.path)
        self.bundle_panel.render_row(item, item.draft, editable=item.validation is not None and not item.busy,
                                     can_bundle=self.model.can_bundle(item, self._fix_ir()))
        self.result_panel.show_result(item.result, self._no_result_text(item))

    def _no_result_text(self, item: QueueItem) -> str | None:
        """What the Result tab says for a row whose latest bundle failed (None: the panel's own words)."""
        run = item.run
        if item.state is not ItemState.FAILED or item.error is None or run is None or run.outcome != "failed":
            return None
        text = self.tr("The latest bundle of this row failed: %1").replace("%1", gui_message(item.error))
        if item.last_success is not None:
            text += "\n" + self.tr("The bundle made before it is still there: %1").replace(
                "%1", str(item.last_success.zip_path))
        return text

    def _render_bundle(self, item: QueueItem) -> None:
        if item.report is not None:
            self.model_panel.show_verify(item.report, item.verified_with_smoke, recorded_warnings(item.report))
        elif item.error is not None:
            self._show_failure(item)
        else:
            self.model_panel.show_pending(item.path, verifying=True)
        self.bundle_panel.render_row(None, BundleDraft(), editable=False, can_bundle=False)
        manifest = item.report.manifest if item.report is not None else None
        self.result_panel.show_result(None, self.tr("This row is a bundle: it is verified, not bundled. Its "
                                                    "verification is in the Model tab."), recorded=manifest)

    def _render_release(self, item: QueueItem) -> None:
        """A release folder: its models (the chosen one's overview, interface and findings), assets and what is left
        out in the Model tab; the Bundle tab's form for the whole release; its bundle in the Result tab."""
        scan = item.release
        if scan is not None:
            index = min(item.shown_model, scan.models - 1)
            gate = bundle_gate(scan.validations[index], self._fix_ir())
            title = self._release_title(item)
            mine = [f for f in item.warnings if not f.subject or f.subject == scan.member(index)]
            self.model_panel.show_release(scan, index, title, gate, mine)
        elif item.error is not None:
            self._show_failure(item)
        else:
            self.model_panel.show_pending(item.path, release=True)
        self.bundle_panel.render_row(item, item.draft, editable=scan is not None and not item.busy,
                                     can_bundle=self.model.can_bundle(item, self._fix_ir()))
        self.result_panel.show_result(item.result, self._no_result_text(item))

    def _release_title(self, item: QueueItem) -> str:
        """"victory 1.2.0 — 2 models, 1 asset": the release as it will be bundled (its name and version as typed)."""
        scan = item.release
        counts = self.model_panel.release_counts(scan.models, scan.assets) if scan is not None else ""
        return f"{item.draft.name} {item.draft.version} — {counts}"

    def _show_failure(self, item: QueueItem) -> None:
        from .icons import status_icon

        self.model_panel.clear()
        self.model_panel.title.setText(item.path.name)
        err = item.error
        assert err is not None
        hint = gui_hint(err.code, err.hint, err.params)
        text = gui_message(err) + ("\n" + self.tr("How to fix: %1").replace("%1", hint) if hint else "")
        self.model_panel.status.set_status(status_icon("failed"), text)

    def _blocked_reason(self, item: QueueItem | None) -> str:
        if item is None:
            return self.tr("Select a model in the queue to bundle it.")
        if not item.spec.bundles:
            return self.tr("This row is a bundle: it is verified, not bundled.")
        if item.busy:
            return self.tr("Busy: %1").replace("%1", self.queue.state_text(item.state))
        gate = self.model.gate(item, self._fix_ir())
        if gate is None:
            if item.kind is Kind.RELEASE:
                return self.tr("The release folder could not be read; see the Model tab.")
            return self.tr("The model could not be read; see the Model tab.")
        if not gate.ok and item.release is not None:
            first = gate.blocking[0]
            reason = self.tr("Bundling is off for this release: %n error finding(s) must be fixed first.", "",
                             len(gate.blocking))
            reason += "\n" + (f"{first.subject}: " if first.subject else "") + gui_message(first)
            return reason
        if not gate.ok:
            first = gate.blocking[0]
            reason = self.tr("Bundling is off for this model: %n error finding(s) must be fixed first.", "",
                             len(gate.blocking))
            reason += "\n" + gui_message(first)
            hint = finding_hint(first, gate)
            if hint:
                reason += "\n" + self.tr("How to fix: %1").replace("%1", hint)
            return reason
        return ""

    def _update_actions(self) -> None:
        sel = self.model.selected
        fix_ir = self._fix_ir()
        ready = self.model.ready(fix_ir)
        bundling = any(i.job is not None and i.job.kind == JobKind.BUNDLE for i in self.model.items)
        can_one = sel is not None and self.model.can_bundle(sel, fix_ir)
        self.act_bundle.setEnabled(can_one)
        self._name_bundle_action(sel)
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
        self.bundle_panel.set_blocked_reason(self._blocked_reason(sel))
        self._update_status()

    def _name_bundle_action(self, sel: QueueItem | None) -> None:
        """File → Bundle names what the selected row bundles: a release row's models go into one ZIP."""
        release = sel is not None and sel.kind is Kind.RELEASE
        self.act_bundle.setText(self.tr("&Bundle selected release") if release else self.tr("&Bundle selected model"))

    def _update_status(self) -> None:
        """The counts of the rows: "3 items · 3 being checked · 0 running · …" (a row inspecting is not idle: the
        status bar said "0 running" while three rows were inspected), and how many have warnings."""
        counts = self.model.counts()
        text = (self.tr("%n item(s) · %1 running · %2 queued · %3 bundled", "", counts["items"])
                .replace("%1", str(counts["running"])).replace("%2", str(counts["queued"]))
                .replace("%3", str(counts["bundled"])))  # fmt: skip
        if counts["checking"]:
            text += " · " + self.tr("%n row(s) being checked", "", counts["checking"])
        if counts["warnings"]:
            text += " · " + self.tr("%n row(s) with warnings", "", counts["warnings"])
        self.status_label.setText(text)

    # --- shutdown -------------------------------------------------------------------------
    def closeEvent(self, event: QCloseEvent) -> None:
        """Cancel everything, wait for the workers (their cleanup removes partial output), save layout."""
        self.settings.save_window_state(self.saveGeometry(), self.saveState())
        self.inspect_queue.cancel_all()
        self.bundle_queue.cancel_all()
        self.inspect_queue.wait(10_000)
        self.bundle_queue.wait(10_000)
        super().closeEvent(event)
