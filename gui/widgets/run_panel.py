"""Progress of the running bundle (per stage, bytes and time left, Cancel), the log, and the result summary."""

from __future__ import annotations

import datetime
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QGuiApplication, QTextCursor
from PySide6.QtWidgets import (
    QCheckBox,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from onnxpack.core.findings import Finding, Severity
from onnxpack.core.progress import STEPS, ProgressEvent

if TYPE_CHECKING:  # for mypy only: importing core.bundle loads onnx, which the window must not wait for
    from onnxpack.core.release.bundle import BundleResult

from ..formatting import format_bytes, format_duration, format_shape
from ..hints import gui_hint
from ..icons import status_icon
from ..loads_view import LoadsBox, load_rows_of
from ..messages import gui_message, stage_detail
from ..model.rowview import RowView
from ..model.runstate import PER_RUN, STAGES, RunState
from ..model.state import ItemState
from .common import DataTable, Retranslatable, StatusLabel, scrolled, scrolled_page
from .model_panel import role_text

__all__ = ["STAGES", "LogPane", "ResultPanel", "RunPanel", "RunState"]



class LogPane(Retranslatable, QWidget):
    """A read-only, selectable log with Copy and Clear buttons. Each line may belong to a queue row: "Only the
    selected row" shows that row's lines alone (and the lines of no row), the log of the whole session otherwise."""

    MAX_LINES = 5000

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.text = QPlainTextEdit()
        self.text.setReadOnly(True)
        self.text.setTextInteractionFlags(
            Qt.TextInteractionFlag.TextSelectableByMouse | Qt.TextInteractionFlag.TextSelectableByKeyboard
        )
        self.text.setMaximumBlockCount(self.MAX_LINES)
        self._lines: list[tuple[int | None, str]] = []  # (row id or None, stamped line), oldest first
        self._row: int | None = None  # the selected row's id
        self.only_row = QCheckBox()
        self.only_row.toggled.connect(self._refill)
        self.copy_button = QPushButton()
        self.copy_button.clicked.connect(self.copy)
        self.clear_button = QPushButton()
        self.clear_button.clicked.connect(self.clear)
        self.label = QLabel()
        self.label.setBuddy(self.text)
        row = QHBoxLayout()
        row.addWidget(self.label, 1)
        row.addWidget(self.only_row)
        row.addWidget(self.copy_button)
        row.addWidget(self.clear_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(row)
        layout.addWidget(self.text, 1)
        self.retranslate()

    def retranslate(self) -> None:
        self.label.setText(self.tr("Lo&g:"))
        self.only_row.setText(self.tr("Only the selected &row"))
        self.only_row.setToolTip(self.tr("Show the log lines of the row selected in the queue alone"))
        self.copy_button.setText(self.tr("Cop&y log"))
        self.clear_button.setText(self.tr("Clear"))
        self.text.setAccessibleName(self.tr("Log"))

    def _shown(self, row: int | None) -> bool:
        return not self.only_row.isChecked() or row is None or row == self._row

    def append(self, line: str, row: int | None = None) -> None:
        """Add ``line`` (about the queue row of id ``row``, or about none)."""
        stamp = datetime.datetime.now().strftime("%H:%M:%S.%f")[:-3]  # sub-second: stages take fractions of one
        for part in line.splitlines() or [""]:
            text = f"[{stamp}] {part}"
            self._lines.append((row, text))
            if self._shown(row):
                self.text.appendPlainText(text)
        del self._lines[: max(0, len(self._lines) - self.MAX_LINES)]

    def render_row_view(self, row: RowView) -> None:
        """With "Only the selected row", the selected row's lines (no row selected: the lines stay)."""
        if row.item is not None:
            self.show_row(row.item.id)

    def show_row(self, row: int | None) -> None:
        """The queue's selection changed: with "Only the selected row", show that row's lines."""
        if row != self._row:
            self._row = row
            if self.only_row.isChecked():
                self._refill()

    def _refill(self) -> None:
        self.text.setPlainText("\n".join(text for row, text in self._lines if self._shown(row)))
        self.text.moveCursor(QTextCursor.MoveOperation.End)

    def clear(self) -> None:
        self._lines.clear()
        self.text.clear()

    def plain_text(self) -> str:
        return self.text.toPlainText()

    def copy(self) -> None:
        QGuiApplication.clipboard().setText(self.plain_text())


class RunPanel(Retranslatable, QWidget):
    """Per-stage progress of the running job with a Cancel button. Emits ``cancel_requested``."""

    cancel_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.run = RunState()  # the run shown
        self._queued = False  # the row shown waits in the queue (no run of its own yet)
        self._live: RunState | None = None  # the run in progress (shown or not)
        self.header = StatusLabel()
        # While a run is shown live, its header says what is being done now and, when a step has reported nothing
        # for a while (installing a release's wheels: about a minute), for how long, so that the tab never looks
        # frozen at a step's last percentage.
        self.ticker = QTimer(self)
        self.ticker.setInterval(1000)
        self.ticker.timeout.connect(self._tick)
        self.stage_box = QGroupBox()
        grid = QGridLayout(self.stage_box)
        grid.setColumnStretch(2, 1)
        grid.setColumnStretch(3, 1)
        self.rows: dict[str, tuple[QLabel, QLabel, QProgressBar, QLabel]] = {}
        for r, stage in enumerate(STAGES):
            self._add_row(grid, r, stage)
        self.grid = grid
        self.cancel_button = QPushButton()
        self.cancel_button.setEnabled(False)
        self.cancel_button.clicked.connect(self.cancel_requested.emit)
        row = QHBoxLayout()
        row.addStretch(1)
        row.addWidget(self.cancel_button)
        # The stages scroll when the pane is short (Japanese at 1024x768, a tall log); the header above and Cancel
        # below them stay in view: Cancel is never scrolled off (it was, inside the scrolled page).
        stages = QWidget()
        column = QVBoxLayout(stages)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(self.stage_box)
        column.addStretch(1)
        self.stages_scroll = scrolled(stages)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.header)
        layout.addWidget(self.stages_scroll, 1)
        layout.addLayout(row)
        self.retranslate()

    def _add_row(self, grid: QGridLayout, r: int, stage: str) -> None:
        icon, name, bar, detail = QLabel(), QLabel(), QProgressBar(), QLabel()
        bar.setRange(0, 1000)
        bar.setTextVisible(True)
        detail.setMinimumWidth(detail.fontMetrics().horizontalAdvance("0") * 28)
        # The detail column never pushes the bar: long texts wrap within the column (the whole text is the tooltip
        # too), rather than being cut at its right edge (Japanese details are wide).
        detail.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        detail.setWordWrap(True)
        grid.addWidget(icon, r, 0)
        grid.addWidget(name, r, 1)
        grid.addWidget(bar, r, 2)
        grid.addWidget(detail, r, 3)
        self.rows[stage] = (icon, name, bar, detail)

    def stage_name(self, stage: str) -> str:
        return {
            "inspect": self.tr("Inspect"),
            "validate": self.tr("Validate"),
            "merge": self.tr("Merge"),
            "smoke": self.tr("Smoke run"),
            "prove": self.tr("Prove on releases"),
            "ort": self.tr("ORT format"),
            "zip": self.tr("ZIP"),
        }.get(stage, stage)

    def state_text(self, state: str) -> str:
        return {
            "waiting": self.tr("waiting"),
            "running": self.tr("running"),
            "done": self.tr("done"),
            "failed": self.tr("failed"),
            "cancelled": self.tr("cancelled"),
            "skipped": self.tr("skipped"),
            "stopped": self.tr("stopped"),
            "not run": self.tr("not run"),
            "partly": self.tr("partly done"),
        }.get(state, state)

    def retranslate(self) -> None:
        self.stage_box.setTitle(self.tr("Progress"))
        self.cancel_button.setText(self.tr("&Cancel"))
        self.cancel_button.setToolTip(self.tr("Stop the running bundle; nothing is left behind (Esc)"))
        for stage in self.rows:
            self._render(stage)
        self._render_header()

    # --- state --------------------------------------------------------------------------------
    @property
    def _last(self) -> dict[str, ProgressEvent]:  # the shown run's latest event per stage (screenshots, tests)
        return self.run.last

    def start(self, title: str, skipped: Sequence[str] = (), show: bool = True, models: Sequence[str] = ()
              ) -> RunState:
        """A run begins and is shown (``show``: its row is the selected one); ``skipped`` stages (the smoke run or ORT
        format when not chosen) say so from the start; ``models``: a release's model paths. Returns its state, which
        the caller keeps with its queue row."""
        run = RunState.begin(title, skipped, models=models)
        run.last_at = run.started
        self._live = run
        if show:
            self.display(run)
        self.ticker.start()
        return run

    def render_row_view(self, row: RowView) -> None:
        """The selected row's latest run (a queued row waits for its run: not its earlier run's stages)."""
        queued = row.item is not None and row.item.state is ItemState.QUEUED
        self.display(None if queued or row.item is None else row.item.run, queued=queued)

    def display(self, run: RunState | None, queued: bool = False) -> None:
        """Show ``run`` (a queue row's run, live if it is the running one); None: nothing has run for the row, its
        stages "not run" (never "waiting" for a row that is not queued), or "waiting" when
        ``queued`` (it waits for the rows before it)."""
        self._queued = run is None and queued
        if run is None:
            run = RunState(state=dict.fromkeys(STAGES, "waiting" if queued else "not run"))
        self.run = run
        for stage in self.rows:
            self.run.state.setdefault(stage, "waiting" if queued else "not run")
            self._render(stage)
        self.cancel_button.setEnabled(self.run is self._live and self.run.running and not self.run.stopping)
        self._render_header()

    def stopping(self) -> None:
        if self._live is not None:
            self._live.stopping = True
        if self.run is self._live:
            self.cancel_button.setEnabled(False)
            self._render_header()

    def finish(self, outcome: str, failed_stage: str | None = None) -> None:
        """``outcome``: 'done', 'failed' or 'cancelled' (state.RunState.finish says what each stage shows)."""
        run = self._live or self.run
        self._live = None
        self.ticker.stop()
        run.finish(outcome, failed_stage)
        if run is self.run:
            self.display(run)

    def reset(self) -> None:
        self._live = None
        self.display(None)

    def _render_header(self) -> None:
        run = self.run
        if run.running and run.stopping:
            self.header.set_status(status_icon("busy"), self.tr("Cancelling %1…").replace("%1", run.title))
        elif run.running:
            text = self.tr("Bundling %1…").replace("%1", run.title)
            now = self.now_text(run)
            self.header.set_status(status_icon("running"), text + ("\n" + now if now else ""))
        elif run.outcome is not None:
            took = format_duration(run.ended - run.started) if run.started and run.ended else ""
            self.header.set_status(
                status_icon(run.outcome),
                {
                    "done": self.tr("Finished: %1 in %2"),
                    "failed": self.tr("Failed: %1 after %2"),
                    "cancelled": self.tr("Cancelled: %1 — nothing was written"),
                }[run.outcome].replace("%1", run.title).replace("%2", took),
            )
        elif self._queued:
            self.header.set_status(status_icon("queued"),
                                   self.tr("Queued: this row is bundled after the rows before it."))
        else:
            self.header.set_status(status_icon("ready"), self.tr("No bundle has run for this row."))

    QUIET_SECONDS = 10.0  # a step silent this long is said to be still working, with the time since its last report

    def now_text(self, run: RunState, now: float | None = None) -> str:
        """What the running pipeline does now: the stage it reported last and that report's words, and how long it
        has been silent when a step reports nothing for a while ("Now: Prove on releases — installing onnxruntime
        1.18.1 and numpy 1.26.4 (still working, no news for 45 s)")."""
        stage = run.current
        if stage is None:
            return ""
        ev = run.last.get(stage)
        detail = stage_detail(ev) if ev is not None and ev.message and ev.step != "DONE" else ""
        text = (self.tr("Now: %1 — %2").replace("%1", self.stage_name(stage)).replace("%2", detail) if detail
                else self.tr("Now: %1").replace("%1", self.stage_name(stage)))
        if run.release and run.model and stage not in PER_RUN:  # which model of the release, on a line of its own
            text = (self.tr("Model %1 of %2: %3").replace("%1", str(run.model)).replace("%2", str(run.models))
                    .replace("%3", run.entry or "?") + "\n" + text)
        quiet = (time.monotonic() if now is None else now) - run.last_at
        if run.last_at and quiet >= self.QUIET_SECONDS:
            text += " " + self.tr("(still working, no news for %1)").replace("%1", format_duration(quiet))
        return text

    def _tick(self) -> None:
        if self.run is self._live and self.run.running:
            self._render_header()

    def _show_stage(self, stage: str) -> None:
        """Scroll the stage the pipeline reports into view (at 1024×768 the Prove row was below the fold)."""
        name = self.rows[stage][1]
        if name.isVisible():
            self.stages_scroll.ensureWidgetVisible(name, 0, 4)

    def on_progress(self, ev: ProgressEvent) -> None:
        """A progress event of the running job: recorded in its run, drawn when that run is shown."""
        run = self._live
        if run is None:
            return
        if ev.stage not in self.rows:
            self._add_row(self.grid, self.grid.rowCount(), ev.stage)
        moved = run.current != ev.stage
        changed = run.apply(ev)
        if run is self.run:
            for stage in changed:
                self._render(stage)
            self._render_header()
            if moved:
                self._show_stage(ev.stage)

    def _render(self, stage: str) -> None:
        icon, name, bar, detail = self.rows[stage]
        state = self.run.state.get(stage, "waiting")
        ev = self.run.last.get(stage)
        shown = {"waiting": "queued", "skipped": "ready", "not run": "ready", "stopped": "cancelled",
                 "partly": "running"}
        qicon = status_icon(shown.get(state, state))
        h = name.fontMetrics().height()
        icon.setPixmap(qicon.pixmap(h, h))
        name.setText(self.stage_name(stage))
        bar.setAccessibleName(self.tr("%1 progress").replace("%1", self.stage_name(stage)))
        which = self.run.of_model.get(stage) if self.run.release and stage not in PER_RUN else None
        if ev is None:
            bar.setValue(1000 if state == "done" else 0)
            bar.setFormat(self.state_text(state))
            detail.setText("")
        elif which is not None:  # a release: this stage of which model, the models before it counted in full
            self._render_release_stage(stage, ev, state, which)
        elif ev.total <= 0:
            bar.setValue(1000 if state == "done" else 0)
            bar.setFormat(self.state_text(state))
            detail.setText(stage_detail(ev) if state == "running" else "")
        else:
            fraction = self.run.fraction(stage) or 0.0
            bar.setValue(int(fraction * 1000))
            bar.setFormat(f"{fraction * 100:.0f} % — {self.state_text(state)}")
            done = ev.total if state == "done" else ev.done  # a stage done is done in full, whatever came last
            if ev.unit == STEPS:
                amount = self.tr("%1 of %2").replace("%1", str(done)).replace("%2", str(ev.total))
            else:
                amount = self.tr("%1 of %2").replace("%1", format_bytes(done)).replace(
                    "%2", format_bytes(ev.total)
                )
            text = amount
            if state == "running":
                left = self.run.eta.seconds_left(ev.stage, ev.done, ev.total)
                if left is not None:
                    text += " · " + self.tr("about %1 left").replace("%1", format_duration(left))
            if ev.message and state == "running":  # a finished stage keeps its amount, not its last message
                text += f" · {stage_detail(ev)}"
            detail.setText(text)
        detail.setToolTip(detail.text())
        detail.setAccessibleName(detail.text())
        self._fit_detail(detail)

    @staticmethod
    def _fit_detail(detail: QLabel) -> None:
        """The detail's row as tall as its wrapped text (the grid gave a release's three-line detail two lines and
        cut it: "model 2 of 2 · 4 of 5 · loading bundled victory-app/ja/… the ways apps load it")."""
        width = detail.width()
        detail.setMinimumHeight(detail.heightForWidth(width) if width > 0 and detail.text() else 0)

    def resizeEvent(self, event: Any) -> None:
        super().resizeEvent(event)
        for *_, detail in self.rows.values():
            self._fit_detail(detail)

    def _amount(self, ev: ProgressEvent, done: int) -> str:
        if ev.unit == STEPS:
            return self.tr("%1 of %2").replace("%1", str(done)).replace("%2", str(ev.total))
        return self.tr("%1 of %2").replace("%1", format_bytes(done)).replace("%2", format_bytes(ev.total))

    def _render_release_stage(self, stage: str, ev: ProgressEvent, state: str, which: int) -> None:
        """A stage of a release's run (once per model): its bar the share of every model's part of it, its detail
        which model of how many it is at ("model 2 of 2 · 3 of 7 · run 2/3 of …"; "Inspect 1 of 1" said only the
        last model's count)."""
        _, _, bar, detail = self.rows[stage]
        run = self.run
        fraction = run.fraction(stage) or 0.0
        bar.setValue(int(fraction * 1000))
        bar.setFormat(f"{fraction * 100:.0f} % — {self.state_text(state)}")
        if state == "done":
            detail.setText(self.tr("each of the %n model(s)", "", run.models))
            return
        if state == "partly":
            detail.setText(self.tr("done for model %1 of %2").replace("%1", str(which)).replace("%2", str(run.models)))
            return
        if state != "running":
            detail.setText(self.tr("at model %1 of %2").replace("%1", str(which)).replace("%2", str(run.models)))
            return
        if ev.step == "MODEL_OF" and ev.values.get("index") == which:  # the report naming the model (core/steps.py)
            detail.setText(stage_detail(ev))
            return
        parts = [self.tr("model %1 of %2").replace("%1", str(which)).replace("%2", str(run.models))]
        if ev.total > 1 or (ev.total > 0 and ev.unit != STEPS):  # a count of one step says nothing
            parts.append(self._amount(ev, ev.done))
            left = run.eta.seconds_left(f"{stage} {which}", ev.done, ev.total)
            if left is not None:
                parts.append(self.tr("about %1 left").replace("%1", format_duration(left)))
        if ev.message:
            parts.append(stage_detail(ev))
        detail.setText(" · ".join(parts))

    def stage_state(self, stage: str) -> str:
        return self.run.state.get(stage, "waiting")


class ResultPanel(Retranslatable, QWidget):
    """Summary of a finished bundle: files with sizes and hashes, smoke outputs, the equality proof."""

    open_folder_requested = Signal()
    copy_command_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._result: BundleResult | None = None
        self._empty_text: str | None = None
        self._recorded: dict[str, Any] | None = None
        self.status = StatusLabel()
        self.proof = StatusLabel()
        self.warnings = StatusLabel()  # the bundle's warnings, beside the proof: a warning is never silent
        self.diff = QLabel()
        self.diff.setWordWrap(True)
        self.diff.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.files_box = QGroupBox()
        self.files = DataTable(4)
        self.files.fit_height()
        QVBoxLayout(self.files_box).addWidget(self.files)
        # a release of several files: each model's proof and smoke run, and the assets shipped beside them
        self.models_box = QGroupBox()
        self.models = DataTable(2)
        self.models.fit_height()
        self.models.wrap_columns(1)
        QVBoxLayout(self.models_box).addWidget(self.models)
        self.assets_box = QGroupBox()
        self.assets = DataTable(3)
        self.assets.fit_height()
        QVBoxLayout(self.assets_box).addWidget(self.assets)
        self.outputs_box = QGroupBox()
        self.outputs = DataTable(5)
        self.outputs.fit_height()
        QVBoxLayout(self.outputs_box).addWidget(self.outputs)
        # --prove-ort: the manifest's prove_ort section, one row per release
        self.prove_box = QGroupBox()
        self.prove_note = QLabel()
        self.prove_note.setWordWrap(True)
        self.prove_note.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.prove = DataTable(4)
        self.prove.fit_height()
        prove_layout = QVBoxLayout(self.prove_box)
        prove_layout.addWidget(self.prove_note)
        prove_layout.addWidget(self.prove)
        self.loads_box = LoadsBox()  # the ways apps load it
        self.open_button = QPushButton()
        self.open_button.clicked.connect(self.open_folder_requested.emit)
        self.copy_button = QPushButton()
        self.copy_button.clicked.connect(self.copy_command_requested.emit)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.copy_button)
        buttons.addWidget(self.open_button)
        scrolled_page(self, [self.status, self.proof, self.warnings, self.diff, self.models_box, self.assets_box,
                             self.loads_box, self.prove_box, self.files_box, self.outputs_box], buttons)
        self.retranslate()
        self.show_result(None)

    def retranslate(self) -> None:
        self.files_box.setTitle(self.tr("Files in the bundle"))
        self.models_box.setTitle(self.tr("Models of the release"))
        self.models.set_headers([self.tr("Model"), self.tr("Proof and smoke run")])
        self.models.setAccessibleName(self.tr("Models of the release"))
        self.assets_box.setTitle(self.tr("Assets of the release"))
        self.assets.set_headers([self.tr("File"), self.tr("Role"), self.tr("Size")])
        self.assets.setAccessibleName(self.tr("Assets of the release"))
        self.outputs_box.setTitle(self.tr("Smoke-run outputs"))
        self.files.set_headers([self.tr("File"), self.tr("Role"), self.tr("Size"), self.tr("SHA-256")])
        self.outputs.set_headers(
            [self.tr("Output"), self.tr("Type"), self.tr("Shape"), self.tr("Finite"), self.tr("SHA-256")]
        )
        self.prove_box.setTitle(self.tr("Proven on ONNX Runtime releases"))
        self.prove.set_headers([self.tr("Release"), self.tr("Loaded"), self.tr("Outputs"), self.tr("Wheel")])
        self.prove.setAccessibleName(self.tr("Proven on ONNX Runtime releases"))
        self.files.setAccessibleName(self.tr("Files in the bundle"))
        self.outputs.setAccessibleName(self.tr("Smoke-run outputs"))
        self.open_button.setText(self.tr("&Open output folder"))
        self.copy_button.setText(self.tr("Copy CLI co&mmand"))
        self.copy_button.setToolTip(self.tr("Copy the equivalent onnxpack bundle … command line"))
        self.show_result(self._result, self._empty_text, self._recorded)

    def render_row_view(self, row: RowView) -> None:
        """The selected row's bundle, or what it says instead (a bundle row: the ways to load it records)."""
        item = row.item
        self.show_result(item.result if item is not None and item.spec.bundles else None, row.no_result,
                         recorded=row.recorded)

    def show_result(self, result: BundleResult | None, empty_text: str | None = None,
                    recorded: dict[str, Any] | None = None) -> None:
        """Show a ``core.bundle.BundleResult``; None clears the panel, saying ``empty_text`` (or that nothing was
        bundled yet); ``recorded``: a verified bundle's manifest, whose ways to load are shown (as recorded when it
        was made)."""
        self._result = result
        self._empty_text = empty_text
        self._recorded = recorded
        if result is not None:
            self.loads_box.show_loads(load_rows_of(result.manifest))
        else:
            self.loads_box.show_loads(load_rows_of(recorded), recorded=True)
        has = result is not None
        self.open_button.setEnabled(has)
        self.copy_button.setEnabled(has)
        self.proof.setVisible(has)
        self.files_box.setVisible(has)
        findings = getattr(result, "findings", None) or []
        warnings = [f for f in findings if f.severity is Severity.WARNING]
        self.warnings.setVisible(bool(warnings))
        self.warnings.set_status(status_icon("warning") if warnings else None, self.warnings_text(warnings))
        self.outputs_box.setVisible(has)
        views = self._model_views(result)
        self.models_box.setVisible(bool(views))
        self.assets_box.setVisible(bool(views))
        if not views:
            self.models.setRowCount(0)
            self.assets.setRowCount(0)
        self.diff.setVisible(False)
        self._show_prove(result.manifest.get("prove_ort") if result is not None else None)
        if not has:  # nothing of an earlier result stays behind, hidden or not
            self.files.setRowCount(0)
            self.outputs.setRowCount(0)
            self.proof.set_status(None, "")
            self.diff.clear()
            self.status.set_status(None, empty_text or self.tr("No bundle made for this row yet: fill in the "
                                                               "Bundle tab and press Bundle."))
            return
        assert result is not None
        zip_path = Path(result.zip_path)
        size = zip_path.stat().st_size if zip_path.exists() else None
        if warnings:
            self.status.set_status(
                status_icon("warning"),
                self.tr("Bundle created with %n warning(s): %1 (%2)", "", len(warnings))
                .replace("%1", str(zip_path)).replace("%2", format_bytes(size)),
            )
        else:
            self.status.set_status(
                status_icon("ok"),
                self.tr("Bundle created: %1 (%2)").replace("%1", str(zip_path)).replace("%2", format_bytes(size)),
            )
        files = result.files or result.manifest.get("files") or []
        rows = [[f.get("path"), role_text(str(f.get("role", ""))), format_bytes(f.get("size")), f.get("sha256")]
                for f in files]  # fmt: skip
        self.files.set_rows(rows)
        smoke = result.smoke or {}  # the smoke run's JSON (core.smoke): plain dicts, the same as in the manifest
        outputs = smoke.get("outputs") or []
        if views:  # each model's outputs, named with the model's path in the release
            outputs = [{**o, "name": f"{self._entry(v)}: {o.get('name')}"} for v in views
                       for o in ((v.get("smoke") or {}).get("outputs") or [])]
        # finite: True/False for floating-point outputs, None where it does not apply (integers, strings)
        self.outputs.set_rows(
            [
                [
                    o.get("name"),
                    o.get("elem_type"),
                    format_shape(o.get("shape")),
                    self._finite_text(o.get("finite")),
                    o.get("sha256"),
                ]
                for o in outputs
            ]
        )
        if views:
            self._show_release(result, views, warnings)
        else:
            self._show_proof(result, smoke, [f for f in warnings if f.code.startswith("SMOKE_")])
        diff = result.release
        if diff:
            self.diff.setVisible(True)
            self.diff.setText(self.tr("Compared with the previous release: %1").replace("%1", self._diff_text(diff)))

    @staticmethod
    def _model_views(result: BundleResult | None) -> list[dict[str, Any]]:
        """Each model of a release of several files (manifest schema 2) as its own record; [] for one model."""
        if result is None or not isinstance(result.manifest, dict) or "bundle" not in result.manifest:
            return []
        from onnxpack.core.release.manifest import model_views

        return model_views(result.manifest)

    @staticmethod
    def _entry(view: dict[str, Any]) -> str:
        return str((view.get("model") or {}).get("entry") or "?")

    def model_proof_text(self, view: dict[str, Any], warned: int) -> tuple[str, str]:
        """One model's proof and smoke run in a release, as (icon kind, words)."""
        smoke = view.get("smoke") or {}
        equal = smoke.get("equal") or {}
        ort = str(smoke.get("ort_version") or "?")
        if not smoke or equal.get("ok") is None:
            return "warning", self.tr("no smoke run, so no equality proof")
        if not equal.get("ok"):
            return "failed", self.tr("its outputs DIFFER from the original's")
        if not smoke.get("ok"):
            return "failed", self.tr("its smoke run FAILED (onnxruntime %1)").replace("%1", ort)
        proof = self.tr("the original bit for bit") if equal.get("bitwise") else self.tr(
            "equal to the original within the tolerance")
        if warned:
            return "warning", self.tr("%1; its smoke run gave %n warning(s) (onnxruntime %2): see below", "",
                                      warned).replace("%1", proof).replace("%2", ort)
        return "ok", self.tr("%1; its smoke run passed (onnxruntime %2)").replace("%1", proof).replace("%2", ort)

    def _show_release(self, result: BundleResult, views: list[dict[str, Any]], warnings: Sequence[Finding]) -> None:
        """A release of several files: one proof line per model, the assets, and the proof of the whole."""
        rows, icons, kinds = [], [], []
        for view in views:
            entry = self._entry(view)
            warned = sum(1 for f in warnings if f.code.startswith("SMOKE_") and (f.subject == entry
                                                                                  or entry in f.message))
            kind, text = self.model_proof_text(view, warned)
            rows.append([entry, text])
            icons.append(status_icon(kind))
            kinds.append(kind)
        self.models.set_rows(rows, icons)
        assets = result.manifest.get("assets") or []
        self.assets.set_rows([[a.get("path"), role_text(str(a.get("role", ""))), format_bytes(a.get("size"))]
                              for a in assets])  # fmt: skip
        n = len(views)
        if "failed" in kinds:
            self.proof.set_status(status_icon("failed"), self.tr("Proof: %n model(s) of the release failed their "
                                                                 "proof or smoke run: see below.", "",
                                                                 kinds.count("failed")))
        elif "warning" in kinds:
            self.proof.set_status(status_icon("warning"), self.tr("Proof: each of the %n model(s) is the original; "
                                                                  "some gave warnings or were not run: see below.",
                                                                  "", n))
        else:
            self.proof.set_status(status_icon("ok"), self.tr("Proof: each of the %n model(s) is the original and its "
                                                             "smoke run passed; %1 shipped beside them.", "", n)
                                  .replace("%1", self.tr("%n asset(s)", "", len(assets))))

    def _diff_text(self, diff: dict[str, Any]) -> str:
        """``release`` of a BundleResult (core.release.ReleaseDiff.to_dict())."""
        changes = diff.get("changes") or []
        text = (
            self.tr("previous %1, %n change(s), needs a %2 bump (suggested %3).", "", len(changes))
            .replace("%1", f"{diff.get('previous_name', '')} {diff.get('previous_version', '')}".strip())
            .replace("%2", str(diff.get("bump", "?")))
            .replace("%3", str(diff.get("suggested_version", "?")))
        )
        lines = [text] + [f"• {c.get('impact')}: {c.get('message')}" for c in changes]
        return "\n".join(lines)

    def _show_prove(self, section: Any) -> None:
        """The manifest's ``prove_ort`` section (core.prove.ProveReport.to_dict()): per release its version, whether
        it loaded the model (with ONNX Runtime's own message when not), and whether the outputs were bitwise equal
        to the reference run's or the largest difference; hidden when the bundle was not proven."""
        releases = section.get("releases") if isinstance(section, dict) else None
        self.prove_box.setVisible(bool(releases))
        if not isinstance(section, dict) or not releases:
            self.prove.setRowCount(0)
            self.prove_note.clear()
            return
        self.prove_note.setText(
            self.tr("Requested: %1. Each release ran the bundled model on the same inputs as the reference run "
                    "(onnxruntime %2, installed here); outputs not bitwise equal must agree within atol %3, "
                    "rtol %4.")
            .replace("%1", str(section.get("requested", ""))).replace("%2", str(section.get("reference_ort", "?")))
            .replace("%3", f"{section.get('atol', '?')}").replace("%4", f"{section.get('rtol', '?')}")
        )
        rows, icons = [], []
        for r in releases:
            loaded = bool(r.get("loaded"))
            if not loaded or r.get("message"):
                outputs = str(r.get("message") or "")
            elif r.get("outputs_bitwise_equal"):
                outputs = self.tr("bitwise equal")
            elif r.get("max_abs_diff") is not None:
                outputs = self.tr("largest difference %1").replace("%1", f"{float(r['max_abs_diff']):.3g}")
                if not r.get("ok"):
                    outputs += " — " + self.tr("beyond the tolerance")
            else:
                outputs = self.tr("equal within the tolerance")
            rows.append([r.get("version"), self.tr("yes") if loaded else self.tr("NO"), outputs, r.get("wheel")])
            icons.append(status_icon("ok" if r.get("ok") else "failed"))
        self.prove.set_rows(rows, icons)

    def _finite_text(self, finite: object) -> str:
        """The 'finite' column: only floating-point outputs can hold NaN or Inf."""
        if finite is None:
            return self.tr("n/a (not floating point)")
        return self.tr("yes") if finite else self.tr("NO (NaN or Inf)")

    def warnings_text(self, warnings: Sequence[Finding]) -> str:
        """Each warning of a bundle with how to fix it, one per line (in the app's language)."""
        lines = []
        for f in warnings:
            lines.append(self.tr("Warning %1: %2").replace("%1", f.code).replace("%2", gui_message(f)))
            hint = gui_hint(f.code, f.hint, f.message_params())
            if hint:
                lines.append("    " + self.tr("How to fix: %1").replace("%1", hint))
        return "\n".join(lines)

    def _show_proof(self, result: BundleResult, smoke: dict[str, Any], smoke_warnings: Sequence[Finding] = ()) -> None:
        """The equality proof and the smoke run: a smoke run with warnings (all its outputs NaN) never reads
        "passed" beside a green tick."""
        equal = result.equal or {}
        ok = equal.get("ok")
        ort = smoke.get("ort_version", "")
        provider = smoke.get("provider", "")
        methods = equal.get("methods") or []
        warned = len(smoke_warnings)
        if ok and "file-sha256" in methods and warned:
            self.proof.set_status(
                status_icon("warning"),
                self.tr("Proof: the bundled model file is the original, byte for byte (equal SHA-256); but its "
                        "smoke run gave %n warning(s) (onnxruntime %1, %2): see below.", "", warned)
                .replace("%1", str(ort)).replace("%2", str(provider)),
            )
        elif ok and "file-sha256" in methods:
            self.proof.set_status(
                status_icon("ok"),
                self.tr("Proof: the bundled model file is the original, byte for byte (equal SHA-256); its smoke "
                        "run passed (onnxruntime %1, %2).").replace("%1", str(ort)).replace("%2", str(provider)),
            )
        elif ok and equal.get("bitwise", False) and "outputs" not in methods and methods and warned:
            tensors = int((equal.get("weights") or {}).get("tensors", 0))
            self.proof.set_status(
                status_icon("warning"),
                self.tr("Proof: the bundled model is the original bit for bit (same structure, all %n tensor(s) "
                        "compared byte for byte); but its smoke run gave warnings (onnxruntime %1, %2): see below.", "",
                        tensors)
                .replace("%1", str(ort)).replace("%2", str(provider)),
            )
        elif ok and equal.get("bitwise", False) and "outputs" not in methods and methods:
            tensors = int((equal.get("weights") or {}).get("tensors", 0))
            self.proof.set_status(
                status_icon("ok"),
                self.tr("Proof: the bundled model is the original bit for bit (same structure, all %n tensor(s) "
                        "compared byte for byte); its smoke run passed (onnxruntime %1, %2).", "", tensors)
                .replace("%1", str(ort)).replace("%2", str(provider)),
            )
        elif ok and equal.get("bitwise", False):
            self.proof.set_status(
                status_icon("warning" if warned else "ok"),
                self.tr("Proof: the bundled model gives bit-for-bit the same outputs as the original "
                        "(onnxruntime %1, %2).").replace("%1", str(ort)).replace("%2", str(provider)),
            )
        elif ok:
            self.proof.set_status(
                status_icon("warning" if warned else "ok"),
                self.tr("Proof: the bundled model's outputs equal the original's within the set tolerance "
                        "(onnxruntime %1, %2).").replace("%1", str(ort)).replace("%2", str(provider)),
            )
        elif ok is None:
            self.proof.set_status(
                status_icon("warning"), self.tr("No equality proof: the smoke run was turned off.")
            )
        else:
            self.proof.set_status(
                status_icon("failed"), self.tr("The bundled model's outputs DIFFER from the original.")
            )

    @property
    def result(self) -> BundleResult | None:
        return self._result
