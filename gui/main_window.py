"""The main window: drop models or bundles, inspect them, fill in the bundle form, run and watch the queue."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt, QTimer, QUrl, Signal, qVersion
from PySide6.QtGui import (
    QAction,
    QActionGroup,
    QCloseEvent,
    QDesktopServices,
    QDragEnterEvent,
    QDropEvent,
    QGuiApplication,
    QKeySequence,
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
from onnxpack.core.findings import Severity
from onnxpack.core.modelfile import FileKind, sniff
from onnxpack.core.names import bundle_file_name, bundle_name_problem
from onnxpack.core.progress import ProgressEvent
from onnxpack.core.release import parse_semver
from onnxpack.core.resources import SAMPLE_MODEL, resource_path

if TYPE_CHECKING:  # for mypy only (importing core.validate loads onnx)
    from onnxpack.core.validate import Validation

from . import engine, i18n
from .bundle_panel import BundleDraft, BundlePanel, symbolic_dims
from .crash import log_dir
from .dialogs import error_box
from .hints import gui_hint
from .icons import app_icon
from .messages import WordedError, WordedInputError, gui_message
from .model_panel import ModelPanel
from .queue_view import ItemState, QueueItem, QueueTable, default_bundle_name
from .run_panel import LogPane, ResultPanel, RunPanel
from .settings import AppSettings
from .widgets import DropOverlay, Retranslatable
from .worker import Job, JobQueue

__all__ = ["MainWindow"]

TAB_MODEL, TAB_BUNDLE, TAB_PROGRESS, TAB_RESULT = range(4)


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
        self._shown_item: QueueItem | None = None

        self.setWindowIcon(app_icon())
        self.setAcceptDrops(True)
        self.setMinimumSize(720, 480)

        self.drop_page = DropPage()
        self.drop_page.open_button.clicked.connect(self.open_dialog)
        self.drop_page.sample_button.clicked.connect(self.open_sample)
        self.queue = QueueTable()
        self.queue.itemSelectionChanged.connect(self._selection_changed)
        self.model_panel = ModelPanel()
        self.bundle_panel = BundlePanel(self.settings)
        self.bundle_panel.bundle_requested.connect(self.start_bundles)
        self.bundle_panel.previous_changed.connect(self._previous_changed)
        self.run_panel = RunPanel()
        self.run_panel.cancel_requested.connect(self.cancel_bundles)
        self.log = LogPane()
        self.result_panel = ResultPanel()
        self.result_panel.open_folder_requested.connect(self.open_output_folder)
        self.result_panel.copy_command_requested.connect(self.copy_cli_command)

        progress_page = QSplitter(Qt.Orientation.Vertical)
        progress_page.addWidget(self.run_panel)
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
        self.splitter.setSizes([340, 760])
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
        self._update_actions()

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
        self.act_verify_smoke = action(self.verify_selected_with_smoke)
        self.act_remove = action(self.remove_selected, QKeySequence.StandardKey.Delete)
        self.act_clear = action(self.clear_finished)
        self.act_quit = action(self.close, QKeySequence.StandardKey.Quit)
        self.act_copy_log = action(self.log.copy, "Ctrl+Shift+C")
        self.act_copy_cli = action(self.copy_cli_command)
        self.act_open_out = action(self.open_output_folder)
        self.act_tabs = [action(self._tab_switcher(i), f"Ctrl+{i + 1}") for i in range(4)]
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
        for a in (self.act_open, self.act_open_folder, self.act_sample, self.act_locate_data):
            self.menu_file.addAction(a)
        self.menu_file.addSeparator()
        for a in (self.act_bundle, self.act_bundle_all, self.act_cancel, self.act_verify_smoke):
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
        self.act_open_folder.setText(self.tr("Open model &folder…"))
        self.act_sample.setText(self.tr("Open the &sample model"))
        self.act_locate_data.setText(self.tr("Locate &data file…"))
        self.act_locate_data.setToolTip(self.tr("Choose the external data file of the selected model when it is not "
                                                "beside the model"))  # fmt: skip
        self.act_bundle.setText(self.tr("&Bundle selected model"))
        self.act_bundle_all.setText(self.tr("Bundle &all ready models"))
        self.act_cancel.setText(self.tr("&Cancel running bundle"))
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
    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if any(u.isLocalFile() for u in event.mimeData().urls()):
            event.acceptProposedAction()
            self.drop_overlay.show_over(self.tr("Drop models, model folders or bundles to open them"))
        else:
            event.ignore()

    def dragMoveEvent(self, event: Any) -> None:
        event.acceptProposedAction()

    def dragLeaveEvent(self, event: Any) -> None:
        self.drop_overlay.hide()
        super().dragLeaveEvent(event)

    def dropEvent(self, event: QDropEvent) -> None:
        self.drop_overlay.hide()
        paths = [Path(u.toLocalFile()) for u in event.mimeData().urls() if u.isLocalFile()]
        if paths:
            event.acceptProposedAction()
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
    def _kind_of(path: Path) -> str:
        try:
            if path.is_file() and sniff(path) is FileKind.ZIP:
                return "bundle"
        except OSError:
            pass  # unreadable: the inspection reports it with a proper message
        return "model"

    def warm_up(self) -> Job | None:
        """Import the engine on the inspection thread now that the window is up (see engine.warm_up_job); once."""
        if self._warmed:
            return None
        self._warmed = True
        return self.inspect_queue.submit(Job(engine.warm_up_job(), kind="warm-up"))

    def open_paths(self, paths: Iterable[Path | str]) -> list[QueueItem]:
        """Queue each path: models are inspected, bundles verified; an already listed path is refreshed."""
        added: list[QueueItem] = []
        expanded: list[Path] = []
        for raw in paths:
            expanded += self._models_in(Path(raw).absolute())
        for path in expanded:
            existing = next((i for i in self.queue.entries if i.path == path), None)
            if existing is not None and existing.busy:
                continue
            item = existing or QueueItem(path=path, kind=self._kind_of(path))
            if existing is None:
                self.queue.add(item)
            item.error = None
            item.validation = item.report = None
            if item.kind == "bundle":
                self._verify(item)
            else:
                self._inspect(item)
            added.append(item)
        if added:
            self.stack.setCurrentIndex(1)
            self.queue.select(added[0])
            self.tabs.setCurrentIndex(TAB_MODEL)
        self._update_actions()
        return added

    def _models_in(self, path: Path) -> list[Path]:
        """A folder holding several models opens each of them (one model, or a file: the path itself)."""
        try:
            models = sorted(p for p in path.iterdir() if p.suffix.lower() in (".onnx", ".ort") and p.is_file())
        except OSError:  # not a folder, or unreadable: the inspection says why
            return [path]
        if len(models) <= 1:
            return [path]
        self.log.append(self.tr("%1 holds %2 models: each is queued on its own.").replace("%1", str(path))
                        .replace("%2", str(len(models))))  # fmt: skip
        self.statusBar().showMessage(self.tr("Opened %1 models from %2").replace("%1", str(len(models)))
                                     .replace("%2", path.name), 10_000)  # fmt: skip
        return models

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
        for item in self.queue.entries:
            if item.job is not None and item.job.signals is signals:
                return item.job
        return None

    def _inspect(self, item: QueueItem) -> None:
        self._set_state(item, "inspecting")
        self.log.append(self.tr("Inspecting %1").replace("%1", str(item.path)))
        target = self.settings.target_ort or None
        job = Job(engine.inspect_job(item.path, target, item.data_dir), kind="inspect")
        self.inspect_queue.submit(self._connect(job, item))
        # Then the rest of the engine (bundle, smoke, verify), on that thread: pressing Bundle must not import
        # them on the GUI thread (it froze the window ~50 ms when the app was started with a model to open).
        self.warm_up()

    def _verify(self, item: QueueItem, smoke: bool = False) -> None:
        self._set_state(item, "verifying")
        self.log.append(self.tr("Verifying %1").replace("%1", str(item.path)))
        self.inspect_queue.submit(self._connect(Job(engine.verify_job(item.path, smoke), kind="verify"), item))

    def locate_data_file(self) -> None:
        """File → Locate data file…: the selected model's external data is elsewhere; inspect it again with it."""
        item = self.queue.selected()
        if item is None or item.kind != "model" or item.busy:
            return
        start = str(item.data_dir or item.path.parent)
        path, _ = QFileDialog.getOpenFileName(
            self, self.tr("Locate the data file of %1").replace("%1", item.path.name), start,
            self.tr("External data (*.data *.bin *.weights);;All files (*)"),
        )
        if path:
            self.set_data_dir(item, Path(path).parent)

    def set_data_dir(self, item: QueueItem, folder: Path) -> None:
        """Inspect ``item`` again with its external data files looked up in ``folder`` (the bundle uses it too)."""
        item.data_dir = folder
        item.error = None
        item.validation = None
        self.log.append(self.tr("Looking for the data files of %1 in %2").replace("%1", item.path.name)
                        .replace("%2", str(folder)))  # fmt: skip
        self._inspect(item)
        self._update_actions()

    def verify_selected_with_smoke(self) -> None:
        item = self.queue.selected()
        if item is not None and item.kind == "bundle" and not item.busy:
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
        if job.kind == "bundle":
            self.current_bundle = item
            title = f"{item.draft.name} {item.draft.version}"
            if len(self._batch) > 1 and item in self._batch:  # "2 of 3" while a batch runs
                title += " " + self.tr("(%1 of %2)").replace("%1", str(self._batch.index(item) + 1)).replace(
                    "%2", str(len(self._batch)))
            opts = item.options
            skipped = [] if opts is None else [
                stage for stage, on in (("smoke", opts.run_smoke), ("ort", opts.ort_format)) if not on
            ]
            sel = self.queue.selected()
            if sel is not item and (sel is None or not sel.busy):  # follow a batch, unless a busy row is selected
                self.queue.select(item)
            item.run = self.run_panel.start(title, skipped=skipped)
            if self.queue.selected() is not item:  # the user watches another row: keep showing that one
                self.run_panel.display(self._shown_item.run if self._shown_item is not None else None)
            self._set_state(item, "running")  # after the panel: the queue row and the panel agree
            self.log.append(self.tr("Bundling %1 as %2 %3").replace("%1", str(item.path))
                            .replace("%2", item.draft.name).replace("%3", item.draft.version))
            self.tabs.setCurrentIndex(TAB_PROGRESS)
            self._update_actions()

    def _job_progress(self, ev: ProgressEvent) -> None:
        found = self._item_for_sender()
        if found is None:
            return
        job, item = found
        if job.kind != "bundle":
            return
        if item.state == "cancelling":
            return
        self.run_panel.on_progress(ev)
        item.progress = f"{self.run_panel.stage_name(ev.stage)} {ev.fraction * 100:.0f} %"
        self.queue.refresh(item)

    def _job_succeeded(self, result: Any) -> None:
        found = self._item_for_sender()
        if found is None:
            return
        job, item = found
        item.job = None
        if job.kind == "inspect":
            self._inspected(item, result)
        elif job.kind == "verify":
            item.report = result
            ok = result.ok
            self._set_state(item, "verified" if ok else "verify_failed")
            self.log.append(
                (self.tr("Verified %1: every file matches.") if ok else self.tr("Verification of %1 FAILED."))
                .replace("%1", item.path.name)
            )
            for p in result.problems:
                self.log.append(f"  {p.code}: {gui_message(p)}")
        elif job.kind == "bundle":
            item.result = result
            self.run_panel.finish("done")
            self._set_state(item, "done")
            self.log.append(self.tr("Bundle written: %1").replace("%1", str(result.zip_path)))
            self._bundle_ended(item)
            if self.queue.selected() is item:
                self.tabs.setCurrentIndex(TAB_RESULT)
        elif job.kind == "suggest":
            self._suggested(item, result)
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
        self._set_state(item, "ready" if validation.ok else "invalid")
        findings = validation.findings
        self.log.append(
            self.tr("Inspected %1: %2 finding(s).").replace("%1", model_path.name).replace("%2", str(len(findings)))
        )
        if draft.previous:
            self._previous_changed(draft.previous)

    def _job_failed(self, err: OnnxpackError) -> None:
        found = self._item_for_sender()
        if found is None:
            return
        job, item = found
        item.job = None
        if job.kind == "suggest":  # a bad previous bundle: say so beside the version, no dialog
            item.draft.suggested = ""
            self.log.append(self.tr("Cannot compare with the previous bundle: %1").replace("%1", gui_message(err)))
            self.show_error(err, self.tr("Cannot read the previous bundle"))
            self._refresh_views(item)
            return
        item.error = err
        self.log.append(self.tr("Error: %1").replace("%1", gui_message(err)))
        hint = gui_hint(err.code, err.hint)
        if hint:
            self.log.append(self.tr("How to fix: %1").replace("%1", hint))
        if job.kind == "bundle":
            self.run_panel.finish("failed")
            if item.last_success is not None:  # the earlier bundle is still there: the row keeps showing it
                item.result = item.last_success
                self._set_state(item, "done")
                self.log.append(self.tr("%1 keeps its earlier bundle: %2").replace("%1", item.path.name)
                                .replace("%2", str(item.last_success.zip_path)))  # fmt: skip
            else:
                self._set_state(item, "failed")
            in_batch = len(self._batch) > 1  # one summary when the batch is over, not one dialog per model
            if in_batch:
                self._batch_failures.append((item, err))
            self._bundle_ended(item)
            if in_batch:
                self._refresh_views(item)
                return
        else:
            self._set_state(item, "failed")
        titles = {
            "inspect": self.tr("Cannot read this model"),
            "verify": self.tr("Cannot verify this bundle"),
            "bundle": self.tr("Bundling failed"),
        }
        self.show_error(err, titles.get(job.kind, self.tr("Error")))
        self._refresh_views(item)

    def _job_cancelled(self) -> None:
        found = self._item_for_sender()
        if found is None:
            return
        job, item = found
        item.job = None
        if job.kind == "bundle":
            was_running = self.current_bundle is item
            self._set_state(item, "cancelled")
            self.log.append(self.tr("Cancelled %1; nothing was written.").replace("%1", item.path.name))
            if was_running:
                self.run_panel.finish("cancelled")
            self._bundle_ended(item)
        elif job.kind == "suggest":
            pass
        else:
            self._set_state(item, "cancelled")
        self._refresh_views(item)

    def _bundle_ended(self, item: QueueItem) -> None:
        if self.current_bundle is item:
            self.current_bundle = None
        self._update_actions()
        self._maybe_summarize_batch()

    def _maybe_summarize_batch(self) -> None:
        """When every row of a batch has ended, one dialog names all of its failures (if any)."""
        if not self._batch or any(i.job is not None and i.job.kind == "bundle" for i in self._batch):
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
        if self._shown_item is not None and self._shown_item.kind == "model":
            self.bundle_panel.save_draft()

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
        assert item.validation is not None  # only a model that was read can be bundled (_can_bundle)
        location = item.validation.inspection.location
        return engine.make_bundle_options(
            model=location.model,
            data_dir=location.data_dir,
            name=d.name,
            version=d.version,
            previous=d.previous,
            dims=d.dims,
            inputs=d.inputs,
            labels=d.labels,
            **shared,
        )

    def start_bundles(self, all_ready: bool = False) -> list[QueueItem]:
        """Queue the selected model (or every inspected, idle model) for bundling, one after another."""
        self._store_shown_draft()
        if all_ready:
            items = [i for i in self.queue.entries if self._can_bundle(i)]
        else:
            sel = self.queue.selected()
            items = [sel] if sel is not None and self._can_bundle(sel) else []
        if not items:
            return []
        shared = self.bundle_panel.shared_options()
        try:
            planned = [(item, self._options_for(item, shared)) for item in items]
            self._check_targets(planned, bool(shared.get("force")))
        except OnnxpackError as e:
            self.show_error(e, self.tr("Cannot start bundling"))
            return []
        self._batch = [item for item, _options in planned]
        self._batch_failures = []
        for item, options in planned:
            item.options = options
            if item.result is not None:
                item.last_success = item.result
            item.result = None
            item.error = None
            item.progress = ""
            self._set_state(item, "queued")
            self.bundle_queue.submit(self._connect(Job(engine.bundle_job(options), kind="bundle"), item))
        self._update_actions()
        return [i for i, _ in planned]

    def _check_targets(self, planned: list[tuple[QueueItem, Any]], force: bool) -> None:
        """Before any work: every ZIP of the batch must be new (unless replacing is ticked) and written only once."""
        seen: dict[Path, QueueItem] = {}
        exist, twice = [], []
        for item, options in planned:
            target = Path(options.out_dir) / bundle_file_name(item.draft.name, item.draft.version)
            if target in seen:
                twice.append(target.name)
            seen[target] = item
            if target.exists() and not force:
                exist.append(target.name)
        if twice:
            raise WordedInputError(
                self.tr("Several models would be written to the same file: %1").replace("%1", ", ".join(twice)),
                self.tr("Give each model its own name or version in the Bundle tab."),
            )
        if exist:
            raise WordedInputError(
                self.tr("%n bundle(s) exist already: %1", "", len(exist)).replace("%1", ", ".join(exist)),
                self.tr("Nothing was started. Choose a new version, another output folder, or tick \"Replace an "
                        "existing bundle\" in the Bundle tab."),
            )

    def _can_bundle(self, item: QueueItem) -> bool:
        """Only a model whose checks passed: one with error findings is refused before any work, not after."""
        return (item.kind == "model" and item.validation is not None and not item.busy
                and item.validation.ok)

    def cancel_bundles(self) -> None:
        """Cancel the running bundle and every queued one; the engine removes its partial output."""
        items = [i for i in self.queue.entries if i.job is not None and i.job.kind == "bundle"]
        if not items:
            return
        for item in items:
            if item.state == "running":
                self._set_state(item, "cancelling")
                self.run_panel.stopping()
        for item in reversed(items):
            if item.job is not None:
                self.bundle_queue.cancel(item.job)
        self._update_actions()

    def _previous_changed(self, path: str) -> None:
        item = self._shown_item
        if item is None or item.kind != "model" or item.validation is None:
            return
        item.draft.previous = path
        item.draft.suggested = ""
        self.bundle_panel.set_suggestion("")
        if not path:
            return
        location = item.validation.inspection.location
        target = self.bundle_panel.target_ort.currentText().strip() or None
        job = Job(
            engine.suggest_job(Path(path), location.model, location.data_dir, target),
            kind="suggest",
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
        item.draft.suggested = f"{version} ({bump})"
        previous = f"{diff.previous_name} {diff.previous_version}"
        self.log.append(self.tr("Previous release %1 → suggested %2 (%3)").replace("%1", previous)
                        .replace("%2", version).replace("%3", bump))
        for change in diff.changes:
            self.log.append(f"  {change.impact}: {change.message}")
        if self._shown_item is item:
            self.bundle_panel.save_draft()
        item.draft.version = version

    # --- result actions -------------------------------------------------------------------
    def _result_item(self) -> QueueItem | None:
        sel = self.queue.selected()
        if sel is not None and sel.result is not None:
            return sel
        done = [i for i in self.queue.entries if i.result is not None]
        return done[-1] if done else None

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
                           self.tr("It is created by the first bundle.")),
                self.tr("Open output folder"),
            )

    def copy_cli_command(self) -> str:
        item = self._result_item()
        if item is None or item.options is None:
            return ""
        command = engine.cli_command(item.options)
        QGuiApplication.clipboard().setText(command)
        self.log.append(self.tr("Copied to the clipboard: %1").replace("%1", command))
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
                           self.tr("Open it in your file manager; you can copy the path from this message.")),
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
        item = self.queue.selected()
        if item is None:
            return
        if item.job is not None:
            queue = self.bundle_queue if item.job.kind == "bundle" else self.inspect_queue
            if item.state == "running":
                self.cancel_bundles()
                return  # the row stays until its cancellation is confirmed
            queue.cancel(item.job)
        if item in self.queue.entries:
            self._remove(item)

    def _remove(self, item: QueueItem) -> None:
        if self._shown_item is item:
            self._shown_item = None
        self.queue.remove(item)
        if not self.queue.entries:
            self.stack.setCurrentIndex(0)
            self.model_panel.clear()
            self.result_panel.show_result(None)
        self._update_actions()

    def clear_finished(self) -> None:
        for item in [i for i in self.queue.entries if not i.busy]:
            self._remove(item)

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

    # --- view updates ---------------------------------------------------------------------
    def _set_state(self, item: QueueItem, state: ItemState | str) -> None:
        item.state = ItemState(state)  # a misspelt state raises here, not later as a blank status cell
        if item in self.queue.entries:
            self.queue.refresh(item)
        self.item_changed.emit(item)
        self._update_actions()

    def _selection_changed(self) -> None:
        self._store_shown_draft()
        item = self.queue.selected()
        self._shown_item = item
        self._show_item(item)
        self.run_panel.display(item.run if item is not None else None)  # the Progress tab follows the selection
        self._update_actions()

    def _refresh_views(self, item: QueueItem) -> None:
        if item in self.queue.entries:
            self.queue.refresh(item)
        if self._shown_item is item:
            self._show_item(item)
        self._update_actions()

    def _show_item(self, item: QueueItem | None) -> None:
        if item is None:
            self.model_panel.clear()
            self.bundle_panel.load_draft(BundleDraft())
            return
        if item.kind == "bundle":
            if item.report is not None:
                self.model_panel.show_verify(item.report)
            elif item.error is not None:
                self._show_failure(item)
            else:
                self.model_panel.show_pending(item.path)
            self.bundle_panel.load_draft(BundleDraft())
            self.bundle_panel.set_blocked_reason(self.tr("This row is a bundle: it is verified, not bundled."))
        else:
            if item.validation is not None:
                self.model_panel.show_validation(item.validation)
            elif item.error is not None:
                self._show_failure(item)
            else:
                self.model_panel.show_pending(item.path)
            self.bundle_panel.load_draft(item.draft)
            self.bundle_panel.set_blocked_reason(self._blocked_reason(item))
        if item.result is not None:
            self.result_panel.show_result(item.result)

    def _show_failure(self, item: QueueItem) -> None:
        from .icons import status_icon

        self.model_panel.clear()
        self.model_panel.title.setText(item.path.name)
        err = item.error
        assert err is not None
        hint = gui_hint(err.code, err.hint)
        text = gui_message(err) + ("\n" + self.tr("How to fix: %1").replace("%1", hint) if hint else "")
        self.model_panel.status.set_status(status_icon("failed"), text)

    def _blocked_reason(self, item: QueueItem) -> str:
        if item.busy:
            return self.tr("Busy: %1").replace("%1", self.queue.state_text(item.state))
        if item.validation is None:
            return self.tr("The model could not be read; see the Model tab.")
        if not item.validation.ok:
            errors = [f for f in item.validation.findings if f.severity is Severity.ERROR]
            first = errors[0] if errors else None
            reason = self.tr("Bundling is off for this model: %n error finding(s) must be fixed first.", "",
                             len(errors) or 1)
            if first is not None:
                reason += "\n" + gui_message(first)
                hint = gui_hint(first.code, first.hint) or ""
                if hint:
                    reason += "\n" + self.tr("How to fix: %1").replace("%1", hint)
            return reason
        return ""

    def _update_actions(self) -> None:
        sel = self.queue.selected()
        ready = [i for i in self.queue.entries if self._can_bundle(i)]
        bundling = any(i.job is not None and i.job.kind == "bundle" for i in self.queue.entries)
        can_one = sel is not None and self._can_bundle(sel)
        self.act_bundle.setEnabled(can_one)
        self.act_bundle_all.setEnabled(len(ready) > 0)
        self.act_cancel.setEnabled(bundling)
        self.act_verify_smoke.setEnabled(sel is not None and sel.kind == "bundle" and not sel.busy)
        self.act_locate_data.setEnabled(sel is not None and sel.kind == "model" and not sel.busy)
        self.act_remove.setEnabled(sel is not None)
        has_result = any(i.result is not None for i in self.queue.entries)
        self.act_copy_cli.setEnabled(has_result)
        self.act_open_out.setEnabled(True)
        self.bundle_panel.set_ready_count(len(ready))
        self.bundle_panel.bundle_button.setEnabled(can_one)
        self.bundle_panel.set_blocked_reason(self._blocked_reason(sel) if sel is not None else "")
        self._update_status()

    def _update_status(self) -> None:
        items = self.queue.entries
        queued = sum(i.state == "queued" for i in items)
        running = sum(i.state in ("running", "cancelling") for i in items)
        done = sum(i.state == "done" for i in items)
        self.status_label.setText(
            self.tr("%1 item(s) · %2 running · %3 queued · %4 bundled")
            .replace("%1", str(len(items))).replace("%2", str(running))
            .replace("%3", str(queued)).replace("%4", str(done))
        )

    # --- shutdown -------------------------------------------------------------------------
    def closeEvent(self, event: QCloseEvent) -> None:
        """Cancel everything, wait for the workers (their cleanup removes partial output), save layout."""
        self.settings.save_window_state(self.saveGeometry(), self.saveState())
        self.inspect_queue.cancel_all()
        self.bundle_queue.cancel_all()
        self.inspect_queue.wait(10_000)
        self.bundle_queue.wait(10_000)
        super().closeEvent(event)
