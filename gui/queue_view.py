"""The queue: one row per dropped model or bundle with its own status and result."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableWidget, QTableWidgetItem, QWidget

from onnxpack.core import names
from onnxpack.core.errors import OnnxpackError

if TYPE_CHECKING:  # the engine's result types, for mypy only (importing them loads onnx)
    from onnxpack.core.bundle import BundleOptions, BundleResult
    from onnxpack.core.validate import Validation
    from onnxpack.core.verify import VerifyReport

from .bundle_panel import BundleDraft
from .icons import status_icon
from .messages import gui_message
from .widgets import Retranslatable
from .worker import Job

__all__ = ["BUSY_STATES", "ItemState", "QueueItem", "QueueTable", "default_bundle_name"]

_ids = itertools.count(1)

class ItemState(str, Enum):
    """Where a queue row is. A ``str`` enum, so it compares equal to its value; setting a state by a misspelt name
    raises instead of silently showing an unknown state (issue 14 item 12)."""

    INSPECTING = "inspecting"
    VERIFYING = "verifying"
    READY = "ready"
    INVALID = "invalid"
    QUEUED = "queued"
    RUNNING = "running"
    CANCELLING = "cancelling"
    DONE = "done"
    VERIFIED = "verified"
    VERIFY_FAILED = "verify_failed"
    FAILED = "failed"
    CANCELLED = "cancelled"

    __str__ = str.__str__  # "done", not "ItemState.DONE", wherever a state is formatted


BUSY_STATES = frozenset({ItemState.INSPECTING, ItemState.VERIFYING, ItemState.QUEUED, ItemState.RUNNING,
                         ItemState.CANCELLING})  # fmt: skip

#: state → icon kind (the text is always shown too)
_ICON = {
    ItemState.INSPECTING: "busy",
    ItemState.VERIFYING: "busy",
    ItemState.READY: "ready",
    ItemState.INVALID: "failed",  # error findings: the same red mark as the Model tab's status and Findings tab
    ItemState.QUEUED: "queued",
    ItemState.RUNNING: "running",
    ItemState.CANCELLING: "busy",
    ItemState.DONE: "done",
    ItemState.VERIFIED: "ok",
    ItemState.VERIFY_FAILED: "failed",
    ItemState.FAILED: "failed",
    ItemState.CANCELLED: "cancelled",
}


def default_bundle_name(path: Path) -> str:
    """The bundle name the command line would use for this model file (core.names.default_bundle_name)."""
    return names.default_bundle_name(path)


@dataclass(eq=False)
class QueueItem:
    """A dropped model or bundle and everything the GUI knows about it."""

    path: Path
    kind: str  # "model" or "bundle"
    state: ItemState = ItemState.INSPECTING
    id: int = field(default_factory=lambda: next(_ids))
    validation: Validation | None = None
    report: VerifyReport | None = None  # for bundles
    result: BundleResult | None = None
    data_dir: Path | None = None  # where the external data files are, when not beside the model (Locate data file…)
    last_success: BundleResult | None = None  # of the last run that succeeded: a failed re-run never erases it
    options: BundleOptions | None = None  # of the last bundle run
    error: OnnxpackError | None = None
    draft: BundleDraft = field(default_factory=BundleDraft)
    job: Job | None = None
    progress: str = ""  # e.g. "merge 45 %"
    run: Any = None  # its last bundle run as the Progress tab shows it (gui.run_panel.RunState)

    @property
    def busy(self) -> bool:
        return self.state in BUSY_STATES


class QueueTable(Retranslatable, QTableWidget):
    """Rows of QueueItem: name, kind, status (icon + words), result."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(0, 4, parent)
        self.entries: list[QueueItem] = []
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.verticalHeader().setVisible(False)
        self.setWordWrap(False)
        self.setTabKeyNavigation(False)
        header = self.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(True)
        self.retranslate()

    def retranslate(self) -> None:
        self.setHorizontalHeaderLabels([self.tr("Item"), self.tr("Kind"), self.tr("Status"), self.tr("Result")])
        self.setAccessibleName(self.tr("Queue of models and bundles"))
        for item in self.entries:
            self.refresh(item)

    def state_text(self, state: str) -> str:
        return {
            "inspecting": self.tr("Inspecting…"),
            "verifying": self.tr("Verifying…"),
            "ready": self.tr("Ready"),
            "invalid": self.tr("Has errors"),
            "queued": self.tr("Queued"),
            "running": self.tr("Bundling…"),
            "cancelling": self.tr("Cancelling…"),
            "done": self.tr("Bundled"),
            "verified": self.tr("Verified"),
            "verify_failed": self.tr("Verification failed"),
            "failed": self.tr("Failed"),
            "cancelled": self.tr("Cancelled"),
        }.get(state, state)

    def kind_text(self, kind: str) -> str:
        return self.tr("Bundle") if kind == "bundle" else self.tr("Model")

    def add(self, item: QueueItem) -> int:
        self.entries.append(item)
        row = self.rowCount()
        self.insertRow(row)
        self.refresh(item)
        return row

    def remove(self, item: QueueItem) -> None:
        row = self.row_of(item)
        self.entries.remove(item)
        self.removeRow(row)

    def row_of(self, item: QueueItem) -> int:
        return self.entries.index(item)

    def item_at(self, row: int) -> QueueItem | None:
        return self.entries[row] if 0 <= row < len(self.entries) else None

    def selected(self) -> QueueItem | None:
        rows = self.selectionModel().selectedRows()
        return self.item_at(rows[0].row()) if rows else None

    def select(self, item: QueueItem) -> None:
        self.selectRow(self.row_of(item))

    def result_text(self, item: QueueItem) -> str:
        if item.error is not None and item.state in ("failed",):
            return gui_message(item.error)
        if item.state == "running":
            return item.progress
        if item.state == "done" and item.result is not None:
            return str(item.result.zip_path)
        return ""  # nothing bundled yet: no result to show (the planned name is in the Bundle tab)

    def refresh(self, item: QueueItem) -> None:
        row = self.row_of(item)
        values = [item.path.name, self.kind_text(item.kind), self.state_text(item.state), self.result_text(item)]
        for col, text in enumerate(values):
            cell = self.item(row, col)
            if cell is None:
                cell = QTableWidgetItem()
                cell.setFlags(Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemIsEnabled)
                self.setItem(row, col, cell)
            cell.setText(text)
            if col == 0:
                cell.setToolTip(str(item.path))
            if col == 2:
                cell.setIcon(status_icon(_ICON.get(item.state, "ready")))
            if col == 3:
                cell.setToolTip(text)
